//! Undo history (docs/commands/undo.md): the content a file had before each quill mutation, kept as
//! content-addressed blobs under `<state-dir>/history/<sha256 of the session name>/<sha256>`
//! and referenced by the session's `history` steps. At most 8 steps a file and 64 MiB of blobs
//! a session; past either, the oldest steps go and their blobs are removed once no step
//! refers to them. Every change of steps and blobs happens inside the session's state update
//! (under its lock), so two processes never delete a blob the other just referenced. A blob is
//! verified against its name before it is restored, and fsync'ed before it is renamed into
//! place (a blob is written only by a mutation, whose own publication fsyncs anyway: a power
//! cut never leaves a step whose blob is torn). Blobs and their folders are opened and checked
//! by `checked`; a name that is not a SHA-256 in hex is never opened or removed. Nothing here
//! decides whether an undo is allowed; `cmd::undo` does. It knows sessions' data, never the
//! reverse.

use std::collections::BTreeSet;
use std::fs;
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};

use super::session::{Session, UndoStep};
use crate::error::{Error, Result};
use crate::fs::probe::sha256_bytes;
use crate::state::checked;
use crate::warnings::{WarningKind, Warnings};

pub const MAX_STEPS: usize = 8;
pub const MAX_SESSION_BYTES: u64 = 64 * 1024 * 1024;

/// What a mutation replaced, for its undo step.
pub enum Before<'a> {
    /// The file did not exist: undo removes it.
    Missing,
    /// The old content, and its SHA-256 (which the caller has: it hashed the content to judge
    /// freshness), the blob's name.
    Bytes { bytes: &'a [u8], sha256: &'a str },
    /// Nothing changed: no step.
    Unchanged,
    /// Too large to keep (its hash): the file's history is cleared, since older steps can no
    /// longer be reached.
    TooLarge,
}

/// The undo blobs of one session (`history/<sha256 of the session name>/`).
pub struct History<'a> {
    dir: PathBuf,
    warnings: &'a Warnings,
    /// Blobs are written without their own fsync, and `sync_batch` makes them durable at once
    /// (a change of many files: one `syncfs` instead of one fsync a blob).
    batch: std::cell::Cell<bool>,
    /// A blob was written since the last `sync_batch`.
    unsynced: std::cell::Cell<bool>,
}

impl<'a> History<'a> {
    pub fn new(dir: &Path, warnings: &'a Warnings) -> History<'a> {
        History {
            dir: dir.to_path_buf(),
            warnings,
            batch: std::cell::Cell::new(false),
            unsynced: std::cell::Cell::new(false),
        }
    }

    /// From here on blobs wait for `sync_batch` to be made durable (where one call makes a
    /// file system durable; elsewhere each blob is flushed as it is written).
    pub fn batch(&self) {
        self.batch.set(crate::sys::SYNCFS);
    }

    /// Make every blob written since `batch` durable (one `syncfs` of the history's file
    /// system), before the session that names them is saved: call it last inside the
    /// `SessionFile::update` that pushed them. A failure costs those steps (a warning).
    pub fn sync_batch(&self, session: &mut Session, keys: &[&str]) {
        if !self.unsynced.replace(false) {
            return;
        }
        let synced = crate::sys::Dir::open(&self.dir).and_then(|d| d.sync_fs());
        if let Err(e) = synced {
            self.warnings.push(WarningKind::UndoUnavailable, format!(
                "cannot make the undo history durable ({e}); undo is not available for this change"
            ));
            for key in keys {
                if let Some(steps) = session.steps_mut(key) {
                    steps.pop();
                }
            }
        }
    }

    /// Record one mutation of `key` (inside `SessionFile::update`): keep the old content and
    /// push the step, then enforce the bounds. Failures to keep a blob only cost the undo (a
    /// warning).
    pub fn push(&self, session: &mut Session, key: &str, before: Before, after: &str) {
        push(self, session, key, before, after, None, None)
    }

    /// `push` (or, with `removed`, `push_removal`) of one file of the multi-file change
    /// `group`: undone together by `quill undo` without a path.
    pub fn push_in_group(
        &self,
        session: &mut Session,
        key: &str,
        before: Before,
        after: &str,
        removed: Option<u32>,
        group: u64,
    ) {
        push(self, session, key, before, after, removed, Some(group))
    }

    /// Record the removal of `key` (`quill rm`), whose content was `before` and permission
    /// bits `mode`: undo recreates it.
    pub fn push_removal(&self, session: &mut Session, key: &str, before: Before, mode: u32) {
        push(self, session, key, before, "", Some(mode), None)
    }

    /// After the steps of the multi-file change `group` were pushed for `keys`: they are kept
    /// all, or — when a bound dropped one of them (the session's 64 MiB, a file over it) —
    /// none, with a warning, so that `quill undo` never reverts a part of the change.
    pub fn seal_group(&self, session: &mut Session, keys: &[&str], group: u64) {
        let whole = keys.iter().all(|k| {
            session
                .history()
                .get(*k)
                .and_then(|st| st.last())
                .is_some_and(|st| st.group == Some(group))
        });
        if whole {
            return;
        }
        let mut dropped = Vec::new();
        let members: Vec<String> = session
            .history()
            .iter()
            .filter(|(_, steps)| steps.iter().any(|st| st.group == Some(group)))
            .map(|(k, _)| k.clone())
            .collect();
        for key in members {
            let Some(steps) = session.steps_mut(&key) else {
                continue;
            };
            steps.retain(|st| {
                let ours = st.group == Some(group);
                if ours {
                    dropped.push(st.clone());
                }
                !ours
            });
            if steps.is_empty() {
                session.remove_steps(&key);
            }
        }
        collect(&self.dir, session, dropped);
        self.warnings.push(WarningKind::UndoUnavailable, format!(
            "the old content of the change's files does not fit the {} MiB undo history together; undo is not available for this change",
            MAX_SESSION_BYTES >> 20
        ));
    }

    /// End the undo history of `key` (inside `SessionFile::update`): a change undo cannot
    /// revert (a move) bounds what undo may do, so every older step goes, with the blobs no
    /// other step refers to.
    pub fn cut(&self, session: &mut Session, key: &str) {
        let dropped = session.remove_steps(key).unwrap_or_default();
        collect(&self.dir, session, dropped);
    }

    /// Remove the last step of `key` after a successful undo, and its blob if unreferenced.
    pub fn pop(&self, session: &mut Session, key: &str, expected: &UndoStep) {
        pop(&self.dir, session, key, expected)
    }

    /// The blob named `hash`, verified.
    pub fn load_blob(&self, target: &Path, hash: &str) -> Result<Vec<u8>> {
        load_blob(&self.dir, target, hash)
    }
}

fn push(
    h: &History,
    session: &mut Session,
    key: &str,
    before: Before,
    after: &str,
    removed: Option<u32>,
    group: Option<u64>,
) {
    let dir = &h.dir;
    let (before_hash, size) = match before {
        Before::Unchanged => return,
        Before::Missing => (None, 0),
        Before::TooLarge => {
            h.warnings.push(WarningKind::UndoUnavailable, format!(
                "the old content is larger than the {} MiB undo history; undo is not available for this change",
                MAX_SESSION_BYTES >> 20
            ));
            let dropped = session.remove_steps(key).unwrap_or_default();
            collect(dir, session, dropped);
            return;
        }
        Before::Bytes { bytes, .. } if bytes.len() as u64 > MAX_SESSION_BYTES => {
            return push(h, session, key, Before::TooLarge, after, removed, group);
        }
        Before::Bytes { bytes, sha256 } => {
            // Named by the hash the caller took, not hashed a second time (a wrong name would
            // only make the blob fail its check at restore: `load_blob`).
            debug_assert_eq!(sha256_bytes(bytes), sha256, "the blob's name is its hash");
            let hash = sha256.to_string();
            let sync = !h.batch.get();
            if !sync {
                h.unsynced.set(true);
            }
            if let Err(e) = store_blob(dir, &hash, bytes, sync) {
                h.warnings.push(WarningKind::UndoUnavailable, format!(
                    "cannot keep the old content for undo ({e}); undo is not available for this change"
                ));
                let dropped = session.remove_steps(key).unwrap_or_default();
                collect(dir, session, dropped);
                return;
            }
            (Some(hash), bytes.len() as u64)
        }
    };
    // The clock comes from the state file: one at u64::MAX stays there rather than overflow.
    session.clock = session.clock.saturating_add(1);
    let step = UndoStep {
        before: before_hash,
        after: after.to_string(),
        size,
        at: session.clock,
        removed: removed.is_some(),
        mode: removed,
        group,
    };
    let steps = session.steps_entry(key);
    steps.push(step);
    let mut dropped = Vec::new();
    while steps.len() > MAX_STEPS {
        dropped.push(steps.remove(0));
    }
    // The session's bound: drop the oldest steps of any file until the blobs fit.
    while referenced_bytes(session) > MAX_SESSION_BYTES {
        let Some((k, _)) = session
            .history()
            .iter()
            .filter_map(|(k, v)| v.first().map(|s| (k.clone(), s.at)))
            .min_by_key(|(_, at)| *at)
        else {
            break;
        };
        if let Some(steps) = session.steps_mut(&k) {
            dropped.push(steps.remove(0));
            if steps.is_empty() {
                session.remove_steps(&k);
            }
        }
    }
    collect(dir, session, dropped);
}

fn pop(dir: &Path, session: &mut Session, key: &str, expected: &UndoStep) {
    let Some(steps) = session.steps_mut(key) else {
        return;
    };
    if steps.last() != Some(expected) {
        return;
    }
    let dropped = steps.pop().into_iter().collect();
    if steps.is_empty() {
        session.remove_steps(key);
    }
    collect(dir, session, dropped);
}

fn referenced_bytes(session: &Session) -> u64 {
    let mut seen = BTreeSet::new();
    session
        .history()
        .values()
        .flatten()
        .filter(|s| s.before.as_ref().is_some_and(|h| seen.insert(h.clone())))
        .map(|s| s.size)
        // Sizes come from the state file: saturate (past any bound) rather than overflow.
        .fold(0, u64::saturating_add)
}

/// Delete the blobs of `dropped` steps that no remaining step refers to (never through a
/// folder that is a link, never a name that is not a blob's).
fn collect(dir: &Path, session: &Session, dropped: Vec<UndoStep>) {
    if dropped.iter().all(|s| s.before.is_none()) || !dirs_are_real(dir) {
        return;
    }
    for step in dropped {
        let Some(hash) = step.before.filter(|h| is_blob_name(h)) else {
            continue;
        };
        let used = session
            .history()
            .values()
            .flatten()
            .any(|s| s.before.as_deref() == Some(hash.as_str()));
        if !used {
            let _ = fs::remove_file(dir.join(&hash));
        }
    }
}

/// Whether `history/` and the session's folder in it are real directories of this user.
fn dirs_are_real(dir: &Path) -> bool {
    let parent = dir.parent().unwrap_or(Path::new("."));
    matches!(checked::check_dir(parent), Ok(true)) && matches!(checked::check_dir(dir), Ok(true))
}

/// A blob's name: the SHA-256 of its content, 64 lower-case hex digits (a step read from the
/// state file could name anything).
fn is_blob_name(name: &str) -> bool {
    name.len() == 64 && name.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
}

/// Keep `bytes` as the blob `hash`: written to a new temporary file, fsync'ed, renamed into
/// place. A blob already there (a regular file of ours of the right size) is kept.
fn store_blob(dir: &Path, hash: &str, bytes: &[u8], sync: bool) -> io::Result<()> {
    let as_io = |e: Error| io::Error::other(e.to_string());
    checked::ensure_dir(dir.parent().unwrap_or(Path::new("."))).map_err(as_io)?;
    checked::ensure_dir(dir).map_err(as_io)?;
    let path = dir.join(hash);
    if fs::symlink_metadata(&path)
        .is_ok_and(|m| checked::check_meta(&m, &path).is_ok() && m.len() == bytes.len() as u64)
    {
        return Ok(());
    }
    let mut tmp = checked::temp_in(dir, ".blob-")?;
    tmp.write_all(bytes)?;
    // Durable before any session names it (see the module comment; in a batch, by
    // `sync_batch`).
    if sync {
        tmp.as_file().sync_data()?;
    }
    tmp.persist(&path).map_err(|e| e.error)?;
    Ok(())
}

fn load_blob(dir: &Path, target: &Path, hash: &str) -> Result<Vec<u8>> {
    let path = dir.join(hash);
    let missing = |why: String| Error::StateUnavailable {
        message: format!(
            "the undo history of {} is missing ({}: {why})",
            target.display(),
            path.display()
        ),
        path: path.clone(),
    };
    if !is_blob_name(hash) {
        return Err(Error::StateUnavailable {
            message: format!(
                "the undo history of {} is damaged (its step names {hash:?}, not a blob)",
                target.display()
            ),
            path: dir.to_path_buf(),
        });
    }
    let parent = dir.parent().unwrap_or(Path::new("."));
    if !checked::check_dir(parent)? || !checked::check_dir(dir)? {
        return Err(missing("no such directory".into()));
    }
    let Some(mut file) = checked::open_read(&path)? else {
        return Err(missing("no such file".into()));
    };
    let mut bytes = Vec::new();
    file.read_to_end(&mut bytes)
        .map_err(|e| missing(e.to_string()))?;
    if sha256_bytes(&bytes) != hash {
        return Err(Error::StateUnavailable {
            message: format!(
                "the undo history of {} is damaged ({} does not match its name)",
                target.display(),
                path.display()
            ),
            path,
        });
    }
    Ok(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn session(json: &str) -> Session {
        serde_json::from_str(json).unwrap_or_else(|e| panic!("{json}: {e}"))
    }

    #[test]
    fn a_state_file_clock_at_its_maximum_does_not_overflow() {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let warnings = Warnings::default();
        let h = History::new(dir.path(), &warnings);
        let json = format!(
            r#"{{"version":1,"session":"default","clock":{}}}"#,
            u64::MAX
        );
        let mut s = session(&json);
        h.push(&mut s, "/a", Before::Missing, "hash");
        assert_eq!(s.clock, u64::MAX);
        assert_eq!(s.history()["/a"].last().map(|step| step.at), Some(u64::MAX));
    }

    #[test]
    fn sizes_from_a_state_file_that_overflow_a_sum_are_dropped() {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let warnings = Warnings::default();
        let h = History::new(dir.path(), &warnings);
        let huge = u64::MAX;
        let mut s = session(&format!(
            r#"{{"version":1,"session":"default","clock":5,"history":{{
                "/x":[{{"before":"b1","after":"a1","size":{huge},"at":1}}],
                "/y":[{{"before":"b2","after":"a2","size":{huge},"at":2}}]}}}}"#
        ));
        h.push(&mut s, "/a", Before::Missing, "hash");
        assert!(referenced_bytes(&s) <= MAX_SESSION_BYTES);
        assert_eq!(s.history().keys().collect::<Vec<_>>(), ["/a"]);
    }

    /// `push` of the old content `bytes`, hashed here as a command has hashed it.
    fn push_old(h: &History, s: &mut Session, key: &str, bytes: &[u8], after: &str) {
        let sha256 = sha256_bytes(bytes);
        h.push(
            s,
            key,
            Before::Bytes {
                bytes,
                sha256: &sha256,
            },
            after,
        );
    }

    struct Fixture {
        _tmp: tempfile::TempDir,
        dir: PathBuf,
        warnings: Warnings,
    }

    fn fixture() -> Fixture {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("h");
        Fixture {
            _tmp: tmp,
            dir,
            warnings: Warnings::default(),
        }
    }

    fn steps<'s>(s: &'s Session, key: &str) -> &'s [UndoStep] {
        s.history().get(key).map_or(&[], |v| v.as_slice())
    }

    #[test]
    fn push_keeps_the_blob_and_pop_removes_it() {
        let f = fixture();
        let h = History::new(&f.dir, &f.warnings);
        let mut s = Session::empty("t");
        push_old(&h, &mut s, "/f", b"old", "after1");
        let step = steps(&s, "/f")[0].clone();
        assert_eq!(step.before.as_deref(), Some(sha256_bytes(b"old").as_str()));
        assert_eq!((step.after.as_str(), step.size, step.at), ("after1", 3, 1));
        let hash = step.before.clone().unwrap();
        assert_eq!(h.load_blob(Path::new("/f"), &hash).unwrap(), b"old");
        // A step that is not the last one is not popped.
        let other = UndoStep {
            after: "other".into(),
            ..step.clone()
        };
        h.pop(&mut s, "/f", &other);
        assert_eq!(steps(&s, "/f").len(), 1);
        h.pop(&mut s, "/f", &step);
        assert!(s.history().is_empty());
        assert!(
            !f.dir.join(&hash).exists(),
            "an unreferenced blob is removed"
        );
        h.push(&mut s, "/f", Before::Missing, "a");
        assert_eq!(steps(&s, "/f")[0].before, None);
        h.push(&mut s, "/f", Before::Unchanged, "b");
        assert_eq!(steps(&s, "/f").len(), 1);
    }

    #[test]
    fn a_blob_another_step_uses_is_kept() {
        let f = fixture();
        let h = History::new(&f.dir, &f.warnings);
        let mut s = Session::empty("t");
        push_old(&h, &mut s, "/a", b"same", "x");
        push_old(&h, &mut s, "/b", b"same", "y");
        push_old(&h, &mut s, "/b", b"other", "z");
        let last = steps(&s, "/b")[1].clone();
        h.pop(&mut s, "/b", &last);
        assert!(!f.dir.join(sha256_bytes(b"other")).exists());
        let last = steps(&s, "/b")[0].clone();
        h.pop(&mut s, "/b", &last);
        assert!(
            f.dir.join(sha256_bytes(b"same")).exists(),
            "still used by /a"
        );
    }

    #[test]
    fn at_most_max_steps_a_file() {
        let f = fixture();
        let h = History::new(&f.dir, &f.warnings);
        let mut s = Session::empty("t");
        for i in 0..=MAX_STEPS {
            push_old(
                &h,
                &mut s,
                "/f",
                format!("v{i}").as_bytes(),
                &format!("a{i}"),
            );
        }
        let kept = steps(&s, "/f");
        assert_eq!(kept.len(), MAX_STEPS);
        assert_eq!(kept[0].after, "a1");
        assert!(!f.dir.join(sha256_bytes(b"v0")).exists());
        assert!(f.dir.join(sha256_bytes(b"v1")).exists());
    }

    /// The session's bound: blobs summing to exactly the bound stay; one byte more drops the
    /// oldest step of any file (here the file whose key sorts last).
    #[test]
    fn the_session_bound_drops_the_oldest_step_first() {
        let f = fixture();
        let h = History::new(&f.dir, &f.warnings);
        let mut s = Session::empty("t");
        let half = (MAX_SESSION_BYTES / 2) as usize;
        let a = vec![b'a'; half];
        let b = vec![b'b'; half];
        push_old(&h, &mut s, "/z-older", &a, "1");
        push_old(&h, &mut s, "/a-newer", &b, "2");
        assert_eq!(referenced_bytes(&s), MAX_SESSION_BYTES);
        assert_eq!(s.history().len(), 2, "exactly the bound is within it");
        push_old(&h, &mut s, "/m", b"c", "3");
        assert!(
            !s.history().contains_key("/z-older"),
            "the oldest step goes first"
        );
        assert_eq!(steps(&s, "/a-newer").len(), 1);
        assert_eq!(steps(&s, "/m").len(), 1);
        assert!(!f.dir.join(sha256_bytes(&a)).exists());
        assert!(f.warnings.take().is_empty());
    }

    #[test]
    fn content_over_the_bound_is_not_kept() {
        let f = fixture();
        let h = History::new(&f.dir, &f.warnings);
        let mut s = Session::empty("t");
        push_old(&h, &mut s, "/f", b"small", "1");
        let at_bound = vec![b'x'; MAX_SESSION_BYTES as usize];
        push_old(&h, &mut s, "/f", &at_bound, "2");
        assert_eq!(
            steps(&s, "/f").len(),
            1,
            "exactly the bound is kept (alone)"
        );
        assert_eq!(steps(&s, "/f")[0].size, MAX_SESSION_BYTES);
        assert!(f.warnings.take().is_empty());
        let over = vec![b'y'; MAX_SESSION_BYTES as usize + 1];
        push_old(&h, &mut s, "/f", &over, "3");
        assert!(
            !s.history().contains_key("/f"),
            "the file's history is cleared"
        );
        assert!(!f.dir.join(sha256_bytes(&at_bound)).exists());
        assert_eq!(f.warnings.take().len(), 1);
    }

    #[test]
    fn two_mib_is_well_within_the_bound() {
        let f = fixture();
        let h = History::new(&f.dir, &f.warnings);
        let mut s = Session::empty("t");
        let two = vec![b'2'; 2 << 20];
        push_old(&h, &mut s, "/f", &two, "1");
        assert_eq!(steps(&s, "/f").len(), 1);
        assert!(f.warnings.take().is_empty());
    }

    #[test]
    fn blobs_are_verified_and_repaired() {
        let f = fixture();
        let h = History::new(&f.dir, &f.warnings);
        let mut s = Session::empty("t");
        let hash = sha256_bytes(b"content");
        // A damaged blob of another size under the name is rewritten by the next push.
        fs::create_dir_all(&f.dir).unwrap();
        fs::write(f.dir.join(&hash), b"damaged!!").unwrap();
        push_old(&h, &mut s, "/f", b"content", "1");
        assert_eq!(h.load_blob(Path::new("/f"), &hash).unwrap(), b"content");
        // Damaged in place (same size): refused.
        fs::write(f.dir.join(&hash), b"CONTENT").unwrap();
        let e = h.load_blob(Path::new("/f"), &hash).unwrap_err();
        assert_eq!(e.kind(), "state_unavailable");
        assert!(h.load_blob(Path::new("/f"), &"0".repeat(64)).is_err());
    }
}
