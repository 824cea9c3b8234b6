//! Fuzz target for session state files: `serde_json::from_slice::<Session>` of arbitrary
//! bytes (a state file may be corrupt, hand-edited or from another version), then everything
//! quill does with a parsed session: list and look up its baselines (and format their read
//! times as `quill state` does), save and reload it, record, refresh and forget a baseline. Nothing may panic; every entry whose key is a
//! path's own key is found under that path exactly when it parses; a saved session reloads
//! with the same baselines and history; recording keeps at most `MAX_FILES` entries and,
//! when nothing has to be evicted, the new baseline is found with the advanced clock;
//! forgetting it removes it.
#![no_main]

use std::collections::BTreeMap;
use std::path::PathBuf;

use libfuzzer_sys::fuzz_target;
use quill::time::rfc3339;
use quill::state::{Baseline, MAX_FILES, Session, path_from_key, path_key};
use serde_json::value::RawValue;

type Raw = BTreeMap<String, Box<RawValue>>;

fuzz_target!(|data: &[u8]| {
    let Ok(mut session) = serde_json::from_slice::<Session>(data) else {
        return;
    };
    let baselines = session.baselines();
    assert!(baselines.len() <= session.len());
    for b in &baselines {
        let when = rfc3339(b.read_at_ns);
        assert!(
            when.ends_with('Z') && when.len() >= 20,
            "{} gives {when}",
            b.read_at_ns
        );
    }

    let saved = serde_json::to_vec(&session).expect("a session serializes");
    let reloaded: Session = serde_json::from_slice(&saved).expect("a saved session reloads");
    assert_eq!(reloaded.baselines(), baselines);
    assert_eq!(reloaded.history(), session.history());
    assert_eq!(
        (
            reloaded.version,
            &reloaded.session,
            reloaded.clock,
            reloaded.len()
        ),
        (
            session.version,
            &session.session,
            session.clock,
            session.len()
        )
    );

    // The saved entries, to check each lookup against.
    let top: Raw = serde_json::from_slice(&saved).expect("the saved file is an object");
    let files: Raw = serde_json::from_str(top["files"].get()).expect("files is an object");
    assert_eq!(files.len(), session.len());
    let parsed = |raw: &RawValue| serde_json::from_str::<Baseline>(raw.get()).ok();
    assert_eq!(
        files.values().filter_map(|r| parsed(r)).count(),
        baselines.len()
    );
    for (key, raw) in &files {
        let path = path_from_key(key);
        if path_key(&path) == *key {
            let want = parsed(raw).map(|b| Baseline {
                path: path.clone(),
                ..b
            });
            assert_eq!(session.baseline(&path), want, "entry {key:?}");
        }
    }

    // A path from the file itself when there is one, so that refreshing is exercised too.
    let path = baselines
        .first()
        .map_or_else(|| PathBuf::from("/fuzz/new"), |b| b.path.clone());
    let before = session.len();
    let had = files.contains_key(&path_key(&path));
    let clock = session.clock;
    session.record(Baseline {
        path: path.clone(),
        sha256: "0".repeat(64),
        size: 1,
        dev: 2,
        ino: 3,
        mtime_ns: 4,
        ctime_ns: 5,
        read_at_ns: 6,
        complete: true,
        used: 0,
        edit: None,
        written: false,
    });
    assert!(session.len() <= MAX_FILES);
    if before + usize::from(!had) <= MAX_FILES {
        let got = session
            .baseline(&path)
            .expect("a recorded baseline is found");
        assert_eq!((got.used, got.size), (session.clock, 1));
        assert!(session.clock > clock || clock == u64::MAX);
        assert_eq!(session.len(), before + usize::from(!had));
    }
    session.forget(&path);
    assert!(session.baseline(&path).is_none());
});
