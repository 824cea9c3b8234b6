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
use crate::guard::{self, Gone, Mutation, Record, Rule, Shown};
use crate::report::Report;
use crate::settings::Settings;
use crate::state::history::History;
use crate::state::history::MAX_SESSION_BYTES;
use crate::state::path_key;
use crate::state::session::{Session, UndoStep};
use crate::sys::MetadataExt;

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
    let mut m = Mutation::begin(s, resolved, "undo", dry_run)?;
    let target = m.target().to_path_buf();
    let key = path_key(&target);
    let store = s.store();
    let file = store.session(&s.session);
    let history = file.history();
    // A removal this session's undo began and was killed in: finished first (as if that
    // undo had recorded it), then the steps are what they would be after it.
    let session = file.load_settled(&target, || match m.parent() {
        Some(p) => p.stat().is_ok_and(|m| m.is_none()),
        None => true,
    })?;
    let Some(step) = session.history().get(&key).and_then(|s| s.last()).cloned() else {
        return Err(Error::NothingToUndo {
            path: target,
            session: s.session.clone(),
        });
    };
    if step.removed {
        return restore_removed(m, &session, &step, &history);
    }
    let cur = m.load(MAX_SESSION_BYTES, None)?;
    let judged = m.judge_in(&session, cur.as_ref(), Rule::Holds(&step.after))?;
    let Some(cur) = cur else {
        return Err(guard::stale(s, &target, Gone::Yes));
    };
    let restored = match &step.before {
        Some(hash) => Some(history.load_blob(&target, hash)?),
        None => None,
    };
    // A blob is verified against its name when loaded: that is its content's hash.
    let sha256 = restored.as_ref().and(step.before.clone());
    if !dry_run {
        match (&restored, &sha256) {
            (Some(bytes), Some(sha256)) => {
                let record = Record::Undo {
                    complete: judged.complete,
                    step: &step,
                };
                m.replace(Some(&cur), bytes, sha256, record)?;
            }
            _ => remove_created(&m, &step)?,
        }
    }
    let new: &[u8] = restored.as_deref().unwrap_or(&[]);
    let shown = Shown {
        new: Some(new),
        bytes: new.len() as u64,
        sha256,
        deleted: restored.is_none().then(|| cur.meta.mode()),
        ..Shown::default()
    };
    Ok(Report::Mutation(m.report(Some(&cur), shown)))
}

/// Undo a creation: the file quill created (and judged unchanged since) is unlinked. Marked
/// in the session first: killed after the unlink, the next call can tell this undo from
/// someone else's deletion (`SessionFile::load_settled`).
fn remove_created(m: &Mutation, step: &UndoStep) -> Result<()> {
    let s = m.settings();
    let target = m.target();
    let store = s.store();
    let file = store.session(&s.session);
    file.update(|session| session.mark_removing(target, &step.after))?;
    if let Err(e) = m.unlink() {
        let _ = file.update(|session| session.unmark_removing(target));
        return Err(e);
    }
    let key = path_key(target);
    m.update_session(|session, history| {
        session.forget(target);
        history.pop(session, &key, step);
    });
    Ok(())
}

/// Undo a removal: the file comes back with its old bytes, published no-replace (something
/// created at the path meanwhile is `stale` before, `create_conflict` at the publication), and
/// with the permission bits it had; they become the session's baseline — partial, since the
/// session's knowledge of the removed file went with it (a `--strict` session reads it again).
fn restore_removed(
    mut m: Mutation,
    session: &Session,
    step: &UndoStep,
    history: &History,
) -> Result<Report> {
    let cur = m.load(0, None)?;
    m.judge_in(session, cur.as_ref(), Rule::Absent)?;
    let Some(hash) = &step.before else {
        return Err(Error::NothingToUndo {
            path: m.target().to_path_buf(),
            session: m.settings().session.clone(),
        });
    };
    let bytes = history.load_blob(m.target(), hash)?;
    let record = Record::Undo {
        complete: false,
        step,
    };
    m.replace_with_mode(None, &bytes, step.mode, hash, record)?;
    let shown = Shown {
        new: Some(&bytes),
        bytes: bytes.len() as u64,
        sha256: Some(hash.clone()),
        ..Shown::default()
    };
    Ok(Report::Mutation(m.report(None, shown)))
}
