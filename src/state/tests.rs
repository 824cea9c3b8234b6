//! `Store` against a temporary directory: no command line, no `Settings` — the state
//! directory is a library of its own.

use std::fs;
use std::path::Path;
use std::time::Duration;

use super::*;
use crate::fs::probe::Identity;

/// A baseline of `path` with hash `sha` and a fixed identity (shared by the state tests).
pub(super) fn baseline(path: &str, sha: &str) -> Baseline {
    let id = Identity {
        dev: 1,
        ino: 2,
        size: 3,
        mtime_ns: 4,
        ctime_ns: 5,
    };
    Baseline::new(Path::new(path), sha.to_string(), &id, true)
}

fn store<'a>(dir: &'a Path, warnings: &'a Warnings) -> Store<'a> {
    Store::open(dir, Duration::from_secs(5), warnings)
}

#[test]
fn an_update_is_seen_by_the_next_load_and_by_another_store() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("state");
    let w = Warnings::default();
    let s = store(&dir, &w);
    assert!(s.session("a").load().unwrap().is_empty(), "nothing before");
    assert!(!dir.exists(), "a load creates nothing");
    s.session("a")
        .update(|session| session.record(baseline("/w/x", "aa")))
        .unwrap();
    let again = store(&dir, &w);
    let b = again
        .session("a")
        .load()
        .unwrap()
        .baseline(Path::new("/w/x"));
    assert_eq!(b.map(|b| b.sha256), Some("aa".to_string()));
    // Another session sees nothing of it.
    assert!(again.session("b").load().unwrap().is_empty());
    let mode = fs::metadata(&dir).unwrap().mode() & 0o777;
    assert_eq!(mode, 0o700);
    assert!(w.take().is_empty());
}

#[test]
fn a_corrupt_session_is_moved_aside_with_a_warning_and_starts_empty() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("state");
    let w = Warnings::default();
    let s = store(&dir, &w);
    s.session("a")
        .update(|session| session.record(baseline("/w/x", "aa")))
        .unwrap();
    let file = s.session("a").file.clone();
    fs::write(&file, b"{not json").unwrap();
    assert!(s.session("a").load().unwrap().is_empty(), "fails closed");
    let warned = w.take();
    assert_eq!(warned[0].kind, WarningKind::StateCorrupt);
    assert!(warned[0].message.contains("is corrupt"));
    s.session("a")
        .update(|session| session.record(baseline("/w/y", "bb")))
        .unwrap();
    let warned = w.take();
    assert_eq!(warned[0].kind, WarningKind::StateCorrupt);
    assert!(warned[0].message.contains("moved aside"), "{warned:?}");
    let aside: Vec<_> = fs::read_dir(file.parent().unwrap())
        .unwrap()
        .filter_map(|e| e.ok())
        .filter(|e| e.file_name().to_string_lossy().contains(".corrupt-"))
        .collect();
    assert_eq!(aside.len(), 1);
    assert_eq!(fs::read(aside[0].path()).unwrap(), b"{not json");
    let session = s.session("a").load().unwrap();
    assert!(session.baseline(Path::new("/w/x")).is_none());
    assert!(session.baseline(Path::new("/w/y")).is_some());
}

#[test]
fn a_newer_format_is_left_untouched() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("state");
    let w = Warnings::default();
    let s = store(&dir, &w);
    s.ensure_dirs().unwrap();
    let file = s.session("a").file.clone();
    let newer = br#"{"version":99,"session":"a","files":{}}"#;
    fs::write(&file, newer).unwrap();
    let err = s.session("a").update(|_| ()).unwrap_err();
    assert_eq!(err.kind(), "state_unavailable");
    assert_eq!(fs::read(&file).unwrap(), newer);
}

#[test]
fn a_directory_others_may_write_is_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("state");
    fs::create_dir(&dir).unwrap();
    crate::sys::testing::set_mode(&dir, 0o777);
    let w = Warnings::default();
    let err = store(&dir, &w).session("a").load().unwrap_err();
    assert_eq!(err.kind(), "state_unavailable");
}

#[test]
fn clear_removes_the_session_and_its_undo_blobs_only() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("state");
    let w = Warnings::default();
    let s = store(&dir, &w);
    for name in ["a", "b"] {
        let file = s.session(name);
        let history = file.history();
        file.update(|session| {
            session.record(baseline("/w/x", "aa"));
            let old = history::Before::Bytes {
                bytes: b"old",
                sha256: &crate::fs::probe::sha256_bytes(b"old"),
            };
            history.push(session, "/w/x", old, "aa");
        })
        .unwrap();
    }
    let blobs = |name: &str| s.session(name).history.clone();
    assert!(blobs("a").exists() && blobs("b").exists());
    s.session("a").clear().unwrap();
    assert!(s.session("a").load().unwrap().is_empty());
    assert!(!blobs("a").exists());
    assert!(blobs("b").exists());
    assert_eq!(s.session("b").load().unwrap().len(), 1);
}

#[test]
fn sessions_are_listed_newest_first() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("state");
    let w = Warnings::default();
    let s = store(&dir, &w);
    s.session("old")
        .update(|session| session.record(baseline("/w/x", "aa")))
        .unwrap();
    std::thread::sleep(Duration::from_millis(20));
    s.session("new")
        .update(|session| {
            session.record(baseline("/w/x", "aa"));
            session.record(baseline("/w/y", "bb"));
        })
        .unwrap();
    let listed: Vec<(String, usize)> = s
        .list_sessions()
        .unwrap()
        .into_iter()
        .map(|(name, files, _)| (name, files))
        .collect();
    assert_eq!(listed, [("new".to_string(), 2), ("old".to_string(), 1)]);
}

#[test]
fn mutation_locks_are_taken_once_per_path_and_all_held() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("state");
    let w = Warnings::default();
    let s = store(&dir, &w);
    let (a, b) = (Path::new("/w/a"), Path::new("/w/b"));
    let guards = s.lock_mutations(&[b, a, b]).unwrap();
    assert_eq!(guards.len(), 2, "a duplicate is locked once");
    // Held: another store times out on either path.
    let quick = Store::open(&dir, Duration::from_millis(20), &w);
    assert_eq!(
        quick.lock_mutations(&[a]).unwrap_err().kind(),
        "lock_timeout"
    );
    assert_eq!(
        quick.lock_mutations(&[b]).unwrap_err().kind(),
        "lock_timeout"
    );
    drop(guards);
    assert_eq!(quick.lock_mutations(&[a, b]).unwrap().len(), 2);
}

#[test]
fn at_most_max_sessions_are_kept() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("state");
    let w = Warnings::default();
    let s = store(&dir, &w);
    for i in 0..=MAX_SESSIONS {
        s.session(&format!("s{i}"))
            .update(|session| session.record(baseline("/w/x", "aa")))
            .unwrap();
    }
    assert_eq!(s.list_sessions().unwrap().len(), MAX_SESSIONS);
}
