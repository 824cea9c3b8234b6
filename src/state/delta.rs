//! The lines after the first of a session file (docs/model.md#the-session-file): each holds
//! what one state update changed — the session clock, the baselines set or removed, the undo
//! steps of the files whose steps changed — so that an update appends a few hundred bytes
//! instead of rewriting every baseline. A line is `{"sha256":…,"delta":…}` and counts only
//! when it is whole (ends in a newline), the file's key (`Session::lines`, in the first line)
//! and its `delta` hash to its `sha256`, and it applies:
//! the first line that does not ends the replay, and what follows it is ignored (a line torn
//! by a kill or a power cut is never half applied). Pure: no I/O; reading and writing the
//! file is `state`'s job.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;

use super::session::{Session, UndoStep};
use crate::fs::probe::sha256_bytes;

/// One update's changes.
#[derive(Debug, Serialize, Deserialize)]
struct Delta {
    clock: u64,
    /// The baselines set (their JSON) or removed (null).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    files: BTreeMap<String, Option<Box<RawValue>>>,
    /// The files whose undo steps changed: the new steps, or null when none are left.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    history: BTreeMap<String, Option<Steps>>,
}

/// A file's new undo steps in terms of its old ones: `old[from..from + keep]` followed by
/// `add` (a push is `keep` of them all and one `add`; a push past the bound also skips the
/// oldest, `from: 1`; an undo keeps all but the last).
#[derive(Debug, PartialEq, Serialize, Deserialize)]
struct Steps {
    #[serde(default, skip_serializing_if = "is_zero")]
    from: usize,
    #[serde(default, skip_serializing_if = "is_zero")]
    keep: usize,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    add: Vec<UndoStep>,
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

/// A line as stored: the delta's JSON, and its SHA-256.
#[derive(Deserialize)]
struct Line<'a> {
    sha256: &'a str,
    #[serde(borrow)]
    delta: &'a RawValue,
}

/// What `session` changed since it was loaded or saved (`Session::changes`), as one line to
/// append (ending in a newline); `Some("")` when nothing changed, `None` when the change
/// must be written whole (`Changes::whole`, or a file that takes no lines).
pub(super) fn line(session: &Session) -> Option<String> {
    let changes = &session.changes;
    let key = session.lines.as_deref()?;
    if changes.whole {
        return None;
    }
    let files: BTreeMap<String, Option<Box<RawValue>>> = changes
        .files
        .iter()
        .map(|k| (k.clone(), session.files.get(k).cloned()))
        .collect();
    let history: BTreeMap<String, Option<Steps>> = changes
        .history
        .iter()
        .filter_map(|(k, before)| {
            let before = before.as_deref();
            let after = session.history.get(k).map(Vec::as_slice);
            (before != after).then(|| {
                let steps = after.map(|a| between(before.unwrap_or(&[]), a));
                (k.clone(), steps)
            })
        })
        .collect();
    if files.is_empty() && history.is_empty() && session.clock == changes.clock {
        return Some(String::new());
    }
    let delta = Delta {
        clock: session.clock,
        files,
        history,
    };
    let json = serde_json::to_string(&delta).ok()?;
    let sha256 = keyed(key, &json);
    Some(format!("{{\"sha256\":\"{sha256}\",\"delta\":{json}}}\n"))
}

/// The hash of a line: of the file's key, a newline, and the delta's JSON.
fn keyed(key: &str, json: &str) -> String {
    let mut bytes = Vec::with_capacity(key.len() + 1 + json.len());
    bytes.extend_from_slice(key.as_bytes());
    bytes.push(b'\n');
    bytes.extend_from_slice(json.as_bytes());
    sha256_bytes(&bytes)
}

/// `after` as a range of `before` and the steps added after it: the longest run of `before`
/// that `after` starts with.
fn between(before: &[UndoStep], after: &[UndoStep]) -> Steps {
    let (mut from, mut keep) = (0, 0);
    for start in 0..before.len() {
        let run = before[start..]
            .iter()
            .zip(after)
            .take_while(|(b, a)| b == a)
            .count();
        if run > keep {
            (from, keep) = (start, run);
        }
    }
    Steps {
        from,
        keep,
        add: after[keep..].to_vec(),
    }
}

/// Apply the whole, verified lines at the start of `rest` (what follows a session file's first
/// line) to `session`; how many bytes they take. Stops at the first line that is not whole,
/// does not match its hash, or does not apply.
pub(super) fn replay(session: &mut Session, rest: &[u8]) -> usize {
    let Some(key) = session.lines.clone() else {
        return 0;
    };
    let mut used = 0;
    while let Some(end) = memchr::memchr(b'\n', &rest[used..]) {
        if !apply(session, &key, &rest[used..used + end]) {
            break;
        }
        used += end + 1;
    }
    used
}

/// Apply one line (without its newline); whether it was whole and applied.
fn apply(session: &mut Session, key: &str, line: &[u8]) -> bool {
    let Ok(line) = serde_json::from_slice::<Line>(line) else {
        return false;
    };
    if keyed(key, line.delta.get()) != line.sha256 {
        return false;
    }
    let Ok(delta) = serde_json::from_str::<Delta>(line.delta.get()) else {
        return false;
    };
    // Every range first: a delta applies whole or not at all.
    let fits = delta.history.iter().all(|(k, steps)| {
        let old = session.history.get(k).map_or(0, Vec::len);
        steps
            .as_ref()
            .is_none_or(|s| s.from.checked_add(s.keep).is_some_and(|end| end <= old))
    });
    if !fits {
        return false;
    }
    session.clock = delta.clock;
    for (key, raw) in delta.files {
        match raw {
            Some(raw) => session.files.insert(key, raw),
            None => session.files.remove(&key),
        };
    }
    for (key, steps) in delta.history {
        let Some(Steps { from, keep, add }) = steps else {
            session.history.remove(&key);
            continue;
        };
        let old = session.history.remove(&key).unwrap_or_default();
        let mut new: Vec<UndoStep> = old.into_iter().skip(from).take(keep).collect();
        new.extend(add);
        session.history.insert(key, new);
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::state::tests::baseline;
    use std::path::Path;

    fn step(after: &str, at: u64) -> UndoStep {
        UndoStep {
            before: Some(format!("b-{after}")),
            after: after.to_string(),
            size: 1,
            removed: false,
            mode: None,
            at,
            group: None,
        }
    }

    /// An empty session whose file takes lines (under the key `k`).
    fn keyed_session() -> Session {
        let mut s = Session::empty("t");
        s.lines = Some("k".into());
        s
    }

    /// The session as its file would hold it: the first line, then `lines`, read back.
    fn reread(first: &Session, lines: &str) -> Session {
        let mut s: Session = serde_json::from_str(&serde_json::to_string(first).unwrap()).unwrap();
        assert_eq!(replay(&mut s, lines.as_bytes()), lines.len(), "{lines}");
        s
    }

    fn same(a: &Session, b: &Session) {
        assert_eq!(
            serde_json::to_string(a).unwrap(),
            serde_json::to_string(b).unwrap()
        );
    }

    #[test]
    fn steps_are_a_range_of_the_old_ones_and_what_follows() {
        let all = [step("a", 1), step("b", 2), step("c", 3), step("d", 4)];
        let of = |ix: &[usize]| ix.iter().map(|&i| all[i].clone()).collect::<Vec<_>>();
        // (before, after) by index into `all`, and the (from, keep, added) expected.
        let cases = [
            (of(&[]), of(&[0]), (0, 0, 1)),
            (of(&[0, 1]), of(&[0, 1, 2]), (0, 2, 1)),
            (of(&[0, 1, 2]), of(&[1, 2, 3]), (1, 2, 1)),
            (of(&[0, 1, 2]), of(&[0, 1]), (0, 2, 0)),
            (of(&[0, 1]), of(&[2]), (0, 0, 1)),
            (of(&[0, 1, 2]), of(&[1]), (1, 1, 0)),
        ];
        for (before, after, (from, keep, added)) in cases {
            let s = between(&before, &after);
            assert_eq!(
                (s.from, s.keep, s.add.len()),
                (from, keep, added),
                "{before:?} -> {after:?}"
            );
            let mut rebuilt: Vec<UndoStep> = before[s.from..s.from + s.keep].to_vec();
            rebuilt.extend(s.add);
            assert_eq!(rebuilt, after);
        }
    }

    /// Whatever an update does to baselines and steps, the first line plus its delta line read
    /// back as the session it left.
    #[test]
    fn a_delta_replays_to_the_session_it_was_taken_of() {
        let mut s = keyed_session();
        s.record(baseline("/a", "aa"));
        s.record(baseline("/b", "bb"));
        s.steps_entry("/a").extend([step("1", 1), step("2", 2)]);
        s.steps_entry("/b").push(step("3", 3));
        s.settle_changes();
        let first = s.clone();
        s.record(baseline("/a", "a2"));
        s.record(baseline("/c", "cc"));
        s.forget(Path::new("/b"));
        s.steps_entry("/a").push(step("4", 4));
        s.steps_mut("/a").unwrap().remove(0);
        s.remove_steps("/b");
        s.steps_entry("/c").push(step("5", 5));
        let line = line(&s).unwrap();
        assert!(line.ends_with('\n') && line.matches('\n').count() == 1);
        let back = reread(&first, &line);
        same(&back, &s);
        assert_eq!(back.clock, s.clock);
        assert!(back.baseline(Path::new("/b")).is_none());
        assert_eq!(back.baseline(Path::new("/a")).unwrap().sha256, "a2");
        // Two updates, two lines, in order.
        s.settle_changes();
        assert_eq!(super::line(&s).as_deref(), Some(""), "settled: no changes");
        s.record(baseline("/a", "a3"));
        let second = super::line(&s).unwrap();
        same(&reread(&first, &format!("{line}{second}")), &s);
    }

    #[test]
    fn nothing_changed_is_an_empty_line_and_a_whole_change_none() {
        let mut s = keyed_session();
        s.record(baseline("/a", "aa"));
        s.settle_changes();
        assert_eq!(line(&s).as_deref(), Some(""));
        // Steps touched and left as they were: still nothing.
        s.steps_entry("/x");
        s.remove_steps("/x");
        assert_eq!(line(&s).as_deref(), Some(""));
        s.clock += 1;
        assert_ne!(line(&s).as_deref(), Some(""));
        s.mark_removing(Path::new("/a"), "aa");
        assert_eq!(line(&s), None);
        s.settle_changes();
        s.write_whole();
        assert_eq!(line(&s), None);
    }

    /// A torn line, one whose hash does not match, and one whose range does not fit end the
    /// replay there: nothing of them or after them is applied.
    #[test]
    fn a_bad_line_ends_the_replay() {
        let mut s = keyed_session();
        s.settle_changes();
        let first = s.clone();
        s.record(baseline("/a", "aa"));
        s.steps_entry("/a").push(step("1", 1));
        let good = line(&s).unwrap();
        s.settle_changes();
        s.record(baseline("/b", "bb"));
        let later = line(&s).unwrap();
        let base = || {
            let mut b = first.clone();
            b.settle_changes();
            b
        };
        // Torn: no newline at the end.
        let mut b = base();
        let torn = format!("{good}{}", &later[..later.len() - 1]);
        assert_eq!(replay(&mut b, torn.as_bytes()), good.len());
        assert!(b.baseline(Path::new("/b")).is_none());
        // A changed byte: the hash no longer matches; the good line after it is not applied.
        let mut b = base();
        let bad = good.replacen("\"aa\"", "\"ab\"", 1);
        let text = format!("{bad}{later}");
        assert_eq!(replay(&mut b, text.as_bytes()), 0);
        assert!(b.baseline(Path::new("/a")).is_none() && b.baseline(Path::new("/b")).is_none());
        // Garbage, a power cut's zeros.
        let mut b = base();
        assert_eq!(replay(&mut b, b"\0\0\0\n"), 0);
        // A range past the steps there are: not applied, not even its baselines.
        let json = r#"{"clock":9,"files":{"/z":null},"history":{"/a":{"from":1,"keep":1}}}"#;
        let forged = format!("{{\"sha256\":\"{}\",\"delta\":{json}}}\n", keyed("k", json));
        let mut b = reread(&first, &good);
        assert_eq!(replay(&mut b, forged.as_bytes()), 0);
        assert_eq!(b.clock, s.clock - 1);
        assert_eq!(b.history()["/a"].len(), 1);
        let overflow = r#"{"clock":9,"history":{"/a":{"from":18446744073709551615,"keep":1}}}"#;
        let forged = format!(
            "{{\"sha256\":\"{}\",\"delta\":{overflow}}}\n",
            keyed("k", overflow)
        );
        assert_eq!(replay(&mut b, forged.as_bytes()), 0);
    }

    /// A line of another file (another key), or of a file that takes none, is not replayed.
    #[test]
    fn a_line_counts_only_under_its_file_key() {
        let mut s = keyed_session();
        s.settle_changes();
        let first = s.clone();
        s.record(baseline("/a", "aa"));
        let good = line(&s).unwrap();
        let mut other = first.clone();
        other.lines = Some("another".into());
        assert_eq!(replay(&mut other, good.as_bytes()), 0);
        other.lines = None;
        assert_eq!(replay(&mut other, good.as_bytes()), 0);
        assert!(other.baseline(Path::new("/a")).is_none());
        assert_eq!(
            reread(&first, &good)
                .baseline(Path::new("/a"))
                .unwrap()
                .sha256,
            "aa"
        );
        // A session without a key cannot have its changes appended.
        let mut none = Session::empty("t");
        none.record(baseline("/a", "aa"));
        assert_eq!(line(&none), None);
    }
}
