//! Undo history (SPEC §3.4): the content a file had before each quill mutation, kept as
//! content-addressed blobs under `<state-dir>/history/<sha256 of the session name>/<sha256>`
//! and referenced by the session's `history` steps. At most 8 steps a file and 64 MiB of blobs
//! a session; past either, the oldest steps go and their blobs are removed once no step
//! refers to them. Every change of steps and blobs happens inside the session's state update
//! (under its lock), so two processes never delete a blob the other just referenced. A blob is
//! verified against its name before it is restored. Nothing here decides whether an undo is
//! allowed; `cmd::undo` does. It knows sessions' data, never the reverse.

use std::collections::BTreeSet;
use std::fs::{self, DirBuilder};
use std::io::{self, Write};
use std::os::unix::fs::DirBuilderExt;
use std::path::{Path, PathBuf};

use super::session::{Session, UndoStep};
use crate::error::{Error, Result};
use crate::probe::sha256_bytes;
use crate::warnings::Warnings;

pub const MAX_STEPS: usize = 8;
pub const MAX_SESSION_BYTES: u64 = 64 * 1024 * 1024;

/// What a mutation replaced, for its undo step.
pub enum Before<'a> {
    /// The file did not exist: undo removes it.
    Missing,
    /// The old content.
    Bytes(&'a [u8]),
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
}

impl<'a> History<'a> {
    pub fn new(dir: &Path, warnings: &'a Warnings) -> History<'a> {
        History {
            dir: dir.to_path_buf(),
            warnings,
        }
    }

    /// Record one mutation of `key` (inside `SessionFile::update`): keep the old content and
    /// push the step, then enforce the bounds. Failures to keep a blob only cost the undo (a
    /// warning).
    pub fn push(&self, session: &mut Session, key: &str, before: Before, after: &str) {
        push(self, session, key, before, after)
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

fn push(h: &History, session: &mut Session, key: &str, before: Before, after: &str) {
    let dir = &h.dir;
    let (before_hash, size) = match before {
        Before::Unchanged => return,
        Before::Missing => (None, 0),
        Before::TooLarge => {
            h.warnings.push(format!(
                "the old content is larger than the {} MiB undo history; undo is not available for this change",
                MAX_SESSION_BYTES >> 20
            ));
            let dropped = session.history.remove(key).unwrap_or_default();
            collect(dir, session, dropped);
            return;
        }
        Before::Bytes(bytes) if bytes.len() as u64 > MAX_SESSION_BYTES => {
            return push(h, session, key, Before::TooLarge, after);
        }
        Before::Bytes(bytes) => {
            let hash = sha256_bytes(bytes);
            if let Err(e) = store_blob(dir, &hash, bytes) {
                h.warnings.push(format!(
                    "cannot keep the old content for undo ({e}); undo is not available for this change"
                ));
                let dropped = session.history.remove(key).unwrap_or_default();
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
    };
    let steps = session.history.entry(key.to_string()).or_default();
    steps.push(step);
    let mut dropped = Vec::new();
    while steps.len() > MAX_STEPS {
        dropped.push(steps.remove(0));
    }
    // The session's bound: drop the oldest steps of any file until the blobs fit.
    while referenced_bytes(session) > MAX_SESSION_BYTES {
        let Some((k, _)) = session
            .history
            .iter()
            .filter_map(|(k, v)| v.first().map(|s| (k.clone(), s.at)))
            .min_by_key(|(_, at)| *at)
        else {
            break;
        };
        if let Some(steps) = session.history.get_mut(&k) {
            dropped.push(steps.remove(0));
            if steps.is_empty() {
                session.history.remove(&k);
            }
        }
    }
    collect(dir, session, dropped);
}

fn pop(dir: &Path, session: &mut Session, key: &str, expected: &UndoStep) {
    let Some(steps) = session.history.get_mut(key) else {
        return;
    };
    if steps.last() != Some(expected) {
        return;
    }
    let dropped = steps.pop().into_iter().collect();
    if steps.is_empty() {
        session.history.remove(key);
    }
    collect(dir, session, dropped);
}

fn referenced_bytes(session: &Session) -> u64 {
    let mut seen = BTreeSet::new();
    session
        .history
        .values()
        .flatten()
        .filter(|s| s.before.as_ref().is_some_and(|h| seen.insert(h.clone())))
        .map(|s| s.size)
        // Sizes come from the state file: saturate (past any bound) rather than overflow.
        .fold(0, u64::saturating_add)
}

/// Delete the blobs of `dropped` steps that no remaining step refers to.
fn collect(dir: &Path, session: &Session, dropped: Vec<UndoStep>) {
    for step in dropped {
        let Some(hash) = step.before else { continue };
        let used = session
            .history
            .values()
            .flatten()
            .any(|s| s.before.as_deref() == Some(hash.as_str()));
        if !used {
            let _ = fs::remove_file(dir.join(&hash));
        }
    }
}

fn store_blob(dir: &Path, hash: &str, bytes: &[u8]) -> io::Result<()> {
    let path = dir.join(hash);
    if fs::metadata(&path).is_ok_and(|m| m.len() == bytes.len() as u64) {
        return Ok(());
    }
    DirBuilder::new().recursive(true).mode(0o700).create(dir)?;
    let mut tmp = tempfile::Builder::new()
        .prefix(".blob-")
        .suffix(".tmp")
        .tempfile_in(dir)?;
    tmp.write_all(bytes)?;
    tmp.persist(&path).map_err(|e| e.error)?;
    Ok(())
}

fn load_blob(dir: &Path, target: &Path, hash: &str) -> Result<Vec<u8>> {
    let path = dir.join(hash);
    let bytes = fs::read(&path).map_err(|e| Error::StateUnavailable {
        message: format!(
            "the undo history of {} is missing ({}: {e})",
            target.display(),
            path.display()
        ),
        path: path.clone(),
    })?;
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
        assert_eq!(s.history["/a"].last().map(|step| step.at), Some(u64::MAX));
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
        assert_eq!(s.history.keys().collect::<Vec<_>>(), ["/a"]);
    }
}
