//! The source of a transfer, wherever the copy goes (a local file, the far side of a push, the
//! far side of a pull): resolved beneath `--root` as an existing regular file, opened through
//! its held parent once it is locked, and checked again by identity — that its path still names
//! the version opened — before the end of the data goes out and before a move removes it.
//! A move's source leaves the session (its baseline and its undo history) once removed.

use std::fs::{File, Metadata};
use std::path::Path;

use crate::error::Result;
use crate::fs::paths::{self, Resolved};
use crate::fs::probe::{self, Identity};
use crate::guard;
use crate::guard::parent::{Parent, Parents};
use crate::settings::Settings;
use crate::state::path_key;
use crate::sys::MetadataExt;
use crate::warnings::WarningKind;

/// `given` as an existing regular file (beneath `--root`); not yet opened.
pub(super) fn resolve(s: &Settings, given: &Path) -> Result<Resolved> {
    let src = paths::resolve(&s.cwd, s.root.as_ref(), given)?;
    if !src.exists {
        return Err(paths::not_found(src.target));
    }
    probe::regular_metadata(&src.target)?;
    Ok(src)
}

/// A source opened through its parent (call it under the source's lock).
pub(super) struct Opened {
    pub src: Resolved,
    pub parent: Parent,
    pub file: File,
    pub meta: Metadata,
    /// The version opened.
    pub before: Identity,
}

impl Opened {
    pub(super) fn open(s: &Settings, src: Resolved) -> Result<Opened> {
        let parent = Parent::open(s.root.as_ref(), &src.target, Parents::Existing)?;
        let (file, meta) = parent
            .open_target()?
            .ok_or_else(|| paths::not_found(&src.target))?;
        let before = Identity::of(&meta);
        Ok(Opened {
            src,
            parent,
            file,
            meta,
            before,
        })
    }

    /// How the source's path differs from the version opened; None when it is still that.
    pub(super) fn change(&self) -> Result<Option<&'static str>> {
        change(&self.parent, &self.before)
    }

    /// The last step of a move (the destination is committed): `remove_unchanged`, then the
    /// source leaves the session.
    pub(super) fn remove_for_move(&self, s: &Settings, after: &str) -> (bool, Option<String>) {
        let removed = remove_unchanged(s, &self.parent, &self.before, after);
        if removed.0 {
            forget(s, &self.src.target);
        }
        removed
    }

    /// The source's modification time, in nanoseconds since the epoch (a move keeps it).
    pub(super) fn mtime_ns(&self) -> Option<i64> {
        let since = self.meta.modified().ok()?;
        let d = since
            .duration_since(std::time::SystemTime::UNIX_EPOCH)
            .ok()?;
        i64::try_from(d.as_nanos()).ok()
    }

    /// The source's permission bits.
    pub(super) fn mode(&self) -> u32 {
        self.meta.mode() & 0o7777
    }
}

/// How the file at `parent`'s target differs from the version `before`; None when it is still
/// that file. A failure to look is that I/O error under its own kind: the source did not
/// change, the system failed.
pub(super) fn change(parent: &Parent, before: &Identity) -> Result<Option<&'static str>> {
    Ok(match parent.stat()? {
        Some(m) if Identity::of(&m) == *before => None,
        Some(m) if m.dev() != before.dev || m.ino() != before.ino => {
            Some("its path now names another file")
        }
        Some(_) => Some("it was modified during the transfer"),
        None => Some("it no longer exists"),
    })
}

/// Remove a move's source once the destination is committed, if it is still the version
/// `before` ("the source changed after it was `after`" otherwise). Never fails: the answer
/// says why the source was kept.
pub(super) fn remove_unchanged(
    s: &Settings,
    parent: &Parent,
    before: &Identity,
    after: &str,
) -> (bool, Option<String>) {
    match change(parent, before) {
        Ok(None) => {}
        Ok(Some(why)) => {
            return (
                false,
                Some(format!("the source changed after it was {after}: {why}")),
            );
        }
        Err(e) => return (false, Some(format!("it can no longer be inspected: {e}"))),
    }
    match parent.remove_target() {
        Ok(()) => {
            guard::sync_dir(s, parent);
            (true, None)
        }
        Err(e) => (false, Some(format!("cannot remove the source: {e}"))),
    }
}

/// A moved-away file leaves the session: its baseline and its undo history. A failure is a
/// warning (the transfer itself is done).
fn forget(s: &Settings, path: &Path) {
    let store = s.store();
    let file = store.session(&s.session);
    let history = file.history();
    let result = file.update(|session| {
        session.forget(path);
        history.cut(session, &path_key(path));
    });
    if let Err(e) = result {
        s.warn(
            WarningKind::SessionNotUpdated,
            format!("transferred, but the session was not updated: {e}"),
        );
    }
}
