//! `quill undo` without a path (docs/commands/undo.md): the session's last change is undone.
//! A change of one file goes to the per-file undo; the steps of a multi-file change (`apply`,
//! sharing one `group`) are undone together — every file only while it still holds exactly
//! what the change wrote (a recreated file only where nothing is), as one transaction
//! (`journal::commit`), or not at all. Each restored content becomes the file's baseline and
//! each step is popped.

use crate::cmd::apply::files::{FileAction, Planned};
use crate::cmd::apply::{self};
use crate::error::{Error, Result};
use crate::fs::paths;
use crate::fs::probe::{Identity, sha256_bytes};
use crate::guard::fresh::{self, Rule};
use crate::guard::{self, Gone};
use crate::report::Report;
use crate::settings::Settings;
use crate::state::history::MAX_SESSION_BYTES;
use crate::state::session::{Session, UndoStep};
use crate::state::{Baseline, path_from_key};

/// One file's step: its key and the step.
type Step = (String, UndoStep);

/// The steps the session's last change took, and its group if it had one.
fn last_change(session: &Session) -> Option<(Vec<Step>, Option<u64>)> {
    let (key, step) = session
        .history()
        .iter()
        .filter_map(|(k, steps)| steps.last().map(|st| (k, st)))
        .max_by_key(|(_, st)| st.at)?;
    let Some(group) = step.group else {
        return Some((vec![(key.clone(), step.clone())], None));
    };
    let members = session
        .history()
        .iter()
        .filter_map(|(k, steps)| {
            steps
                .last()
                .filter(|st| st.group == Some(group))
                .map(|st| (k.clone(), st.clone()))
        })
        .collect();
    Some((members, Some(group)))
}

pub(crate) fn run_last(s: &Settings, dry_run: bool) -> Result<Report> {
    let store = s.store();
    let file = store.session(&s.session);
    let nothing = || Error::NothingToUndo {
        path: s.cwd.clone(),
        session: s.session.clone(),
    };
    let (members, group) = last_change(&file.load()?).ok_or_else(nothing)?;
    if group.is_none() {
        let path = path_from_key(&members[0].0);
        let resolved = guard::resolve(s, &path, "undo")?;
        return super::run_file(s, resolved, dry_run);
    }
    let mut resolved = Vec::with_capacity(members.len());
    for (key, _) in &members {
        let mut r = paths::resolve(&s.cwd, s.root.as_ref(), &path_from_key(key))?;
        // Text output names the files as the user would have typed them: from here.
        if let Ok(rel) = r.target.strip_prefix(&s.cwd) {
            r.typed = rel.to_path_buf();
        }
        resolved.push(r);
    }
    let targets: Vec<&std::path::Path> = resolved.iter().map(|r| r.target.as_path()).collect();
    let _locks = store.lock_mutations(&targets)?;
    // Under the locks: the steps as they are now (another process may have undone some).
    let session = file.load()?;
    let history = file.history();
    let mut planned = Vec::with_capacity(members.len());
    let mut popped = Vec::with_capacity(members.len());
    for (r, (key, step)) in resolved.into_iter().zip(members) {
        let now = session.history().get(&key).and_then(|st| st.last());
        if now != Some(&step) {
            continue;
        }
        let target = r.target.clone();
        let parent = guard::parent(s, &target)?;
        let cur = guard::current(parent.as_ref(), MAX_SESSION_BYTES, None)?;
        // A removal comes back only where nothing is; anything else is undone only while the
        // file holds what the change wrote.
        let rule = match step.removed {
            true => Rule::Absent,
            false => Rule::Holds(&step.after),
        };
        let judged = fresh::judge(s, Some(&session), &target, cur.as_ref(), rule, false)?;
        let (action, bytes, mode) = match (&step.before, step.removed) {
            (Some(hash), true) => (
                FileAction::Created,
                history.load_blob(&target, hash)?,
                step.mode.map(|m| m & 0o777),
            ),
            (None, true) => return Err(guard::stale(s, &target, Gone::Yes)),
            // The change created it: it goes.
            (None, false) => (FileAction::Deleted, Vec::new(), None),
            (Some(hash), false) => (
                FileAction::Modified,
                history.load_blob(&target, hash)?,
                None,
            ),
        };
        let complete = action == FileAction::Modified && judged.complete;
        planned.push(Planned {
            action,
            target: r,
            parent,
            cur,
            source: None,
            // A blob is verified against its name when loaded: that is its content's hash.
            sha256: match (&step.before, action) {
                (_, FileAction::Deleted) => String::new(),
                (Some(hash), _) => hash.clone(),
                (None, _) => sha256_bytes(&bytes),
            },
            new_bytes: bytes,
            mode,
            complete,
            hunks: 0,
            spans: Vec::new(),
            matched_fuzzily: false,
            outside: None,
        });
        popped.push((key, step));
    }
    if planned.is_empty() {
        return Err(nothing());
    }
    if !dry_run {
        let metas = apply::land(s, &mut planned)?;
        let updated = file.update(|session| {
            for ((p, meta), (key, step)) in planned.iter().zip(&metas).zip(&popped) {
                let target = &p.target.target;
                match meta {
                    Some(meta) => {
                        let id = Identity::of(meta);
                        session.record(Baseline {
                            written: true,
                            ..Baseline::new(target, p.sha256.clone(), &id, p.complete)
                        });
                    }
                    None => {
                        session.forget(target);
                    }
                }
                history.pop(session, key, step);
            }
        });
        guard::committed_anyway(s, &planned[0].target.target, updated);
    }
    let mut report = apply::report(s, None, &planned, false, dry_run);
    report.op = "undo";
    Ok(Report::Apply(report))
}
