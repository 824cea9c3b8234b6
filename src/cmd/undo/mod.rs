//! `quill undo` (docs/commands/undo.md): restore the content a file had before the last quill mutation
//! of it in this session, under the same mutation lock as write and edit, and only if the file
//! still holds exactly what quill wrote (else `stale`; never clobbered). The step is popped
//! (no redo), the restored content becomes the baseline. Undoing a creation removes the file —
//! again only while it still holds what quill created. Undoing a removal (`quill rm`) recreates
//! the file with its old bytes — only while nothing is at the path (else `stale`), published
//! no-replace so that a file created meanwhile is never clobbered. Without a path, the
//! session's last change is undone: one file's, or every file of a multi-file change
//! (`apply`) at once, as one transaction (`group`).

mod group;

use crate::cli::UndoArgs;
use crate::error::{Error, Result};
use crate::fs::paths::Resolved;
use crate::fs::probe::sha256_bytes;
use crate::guard::parent::Parent;
use crate::guard::publish::Staged;
use crate::guard::{self, Change, DIFF_INPUT_MAX};
use crate::report::Report;
use crate::settings::Settings;
use crate::state::history::MAX_SESSION_BYTES;
use crate::state::session::UndoStep;
use crate::state::{Baseline, path_key};

/// A checked `quill undo`.
pub(crate) struct UndoRequest {
    /// The file; None: the session's last change.
    resolved: Option<Resolved>,
    dry_run: bool,
}

impl UndoArgs {
    /// Resolve the path (read-only refused).
    pub(crate) fn resolve(self, s: &Settings) -> Result<UndoRequest> {
        let resolved = match &self.path {
            Some(path) => Some(guard::resolve(s, path, "undo")?),
            None => {
                s.check_writable(&s.cwd, "undo the last change in")?;
                None
            }
        };
        Ok(UndoRequest {
            resolved,
            dry_run: self.dry_run,
        })
    }
}

pub(crate) fn run(s: &Settings, req: UndoRequest) -> Result<Report> {
    match req.resolved {
        Some(resolved) => run_file(s, resolved, req.dry_run),
        None => group::run_last(s, req.dry_run),
    }
}

/// Undo the last change of one file.
fn run_file(s: &Settings, resolved: Resolved, dry_run: bool) -> Result<Report> {
    let locked = guard::lock(s, resolved)?;
    let target = locked.target().to_path_buf();
    let key = path_key(&target);
    let store = s.store();
    let file = store.session(&s.session);
    let history = file.history();
    // A removal this session's undo began and was killed in: finished first (as if that
    // undo had recorded it), then the steps are what they would be after it.
    let parent = guard::parent(s, &target)?;
    let session = file.load_settled(&target, || match &parent {
        Some(p) => p.stat().is_ok_and(|m| m.is_none()),
        None => true,
    })?;
    let Some(step) = session.history().get(&key).and_then(|s| s.last()).cloned() else {
        return Err(Error::NothingToUndo {
            path: target,
            session: s.session.clone(),
        });
    };
    let stale = |deleted| Error::Stale {
        path: target.clone(),
        session: s.session.clone(),
        deleted,
        reread: None,
    };
    if step.removed {
        return restore_removed(s, &locked, parent, &step, dry_run);
    }
    let cur =
        guard::current(parent.as_ref(), MAX_SESSION_BYTES, None)?.ok_or_else(|| stale(true))?;
    // The file exists, so its directory does.
    let Some(parent) = parent else {
        return Err(stale(true));
    };
    if cur.sha256 != step.after {
        return Err(stale(false));
    }
    let restored = match &step.before {
        Some(hash) => Some(history.load_blob(&target, hash)?),
        None => None,
    };
    let complete = session.baseline(&target).is_some_and(|b| b.complete);

    if !dry_run {
        let published = match &restored {
            Some(bytes) => {
                let staged = guard::stage(&parent, bytes)?;
                Some(guard::commit(s, staged, Some(&cur.meta))?)
            }
            None => {
                // Recorded first: killed after the unlink, the next call can tell this undo
                // from someone else's deletion (`SessionFile::load_settled`).
                file.update(|session| session.mark_removing(&target, &step.after))?;
                if let Err(e) = parent.remove_target() {
                    let _ = file.update(|session| session.unmark_removing(&target));
                    return Err(e);
                }
                guard::sync_dir(s, &parent);
                None
            }
        };
        let baseline = match (&restored, &published) {
            (Some(bytes), Some(meta)) => {
                let id = crate::fs::probe::Identity::of(meta);
                Some(Baseline {
                    written: true,
                    ..Baseline::new(&target, sha256_bytes(bytes), &id, complete)
                })
            }
            _ => None,
        };
        let updated = file.update(|session| {
            match baseline {
                Some(b) => session.record(b),
                None => {
                    session.forget(&target);
                }
            }
            history.pop(session, &key, &step);
        });
        guard::committed_anyway(s, &target, updated);
    }

    let new: &[u8] = restored.as_deref().unwrap_or(&[]);
    let report = guard::report(
        s,
        Change {
            op: "undo",
            resolved: &locked.resolved,
            created: false,
            deleted: restored
                .is_none()
                .then(|| crate::sys::MetadataExt::mode(&cur.meta)),
            dry_run,
            old: cur.bytes.as_deref().filter(|b| b.len() <= DIFF_INPUT_MAX),
            new: Some(new),
            bytes: new.len() as u64,
            sha256: restored.is_some().then(|| sha256_bytes(new)),
            previous_sha256: Some(cur.sha256.clone()),
            patch_unavailable: None,
        },
    );
    drop(locked);
    Ok(Report::Mutation(report))
}

/// Undo a removal: the file comes back with its old bytes, published no-replace (something
/// created at the path meanwhile is `stale` before, `create_conflict` at the publication), and
/// with the permission bits it had; they become the session's baseline — partial, since the session's knowledge of the removed
/// file went with it (a `--strict` session reads it again).
fn restore_removed(
    s: &Settings,
    locked: &guard::Locked,
    parent: Option<Parent>,
    step: &UndoStep,
    dry_run: bool,
) -> Result<Report> {
    let target = locked.target().to_path_buf();
    if guard::current(parent.as_ref(), 0, None)?.is_some() {
        return Err(Error::Stale {
            path: target,
            session: s.session.clone(),
            deleted: false,
            reread: None,
        });
    }
    let store = s.store();
    let file = store.session(&s.session);
    let history = file.history();
    let Some(hash) = &step.before else {
        return Err(Error::NothingToUndo {
            path: target,
            session: s.session.clone(),
        });
    };
    let bytes = history.load_blob(&target, hash)?;
    if !dry_run {
        let parent = guard::parent_to_publish(s, &target, parent, false)?;
        let mut staged = Staged::new(&parent)?;
        if let Some(mode) = step.mode {
            staged.set_mode(mode & 0o777)?;
        }
        staged.write_all(&bytes)?;
        let published = guard::commit(s, staged, None)?;
        let id = crate::fs::probe::Identity::of(&published);
        let baseline = Baseline {
            written: true,
            ..Baseline::new(&target, hash.clone(), &id, false)
        };
        let key = path_key(&target);
        let updated = file.update(|session| {
            session.record(baseline);
            history.pop(session, &key, step);
        });
        guard::committed_anyway(s, &target, updated);
    }
    let report = guard::report(
        s,
        Change {
            op: "undo",
            resolved: &locked.resolved,
            created: true,
            deleted: None,
            dry_run,
            old: None,
            new: Some(&bytes)
                .filter(|b| b.len() <= DIFF_INPUT_MAX)
                .map(|b| &b[..]),
            bytes: bytes.len() as u64,
            sha256: Some(hash.clone()),
            previous_sha256: None,
            patch_unavailable: None,
        },
    );
    Ok(Report::Mutation(report))
}
