//! `quill state` (docs/commands/state.md): show the session's baselines, forget one, clear the session, or
//! list every session. Reading the state never creates it.

use std::path::PathBuf;

use crate::cli::{StateAction, StateArgs};
use crate::error::{Error, Result};
use crate::fs::paths;
use crate::report::Report;
use crate::report::state::{KeptSummary, SessionSummary, StateFile, StateReport};
use crate::settings::Settings;
use crate::state::{Kept, kept};
use crate::time::rfc3339;

/// A checked `quill state`.
pub(crate) enum StateRequest {
    Sessions,
    Show,
    /// The file to forget (resolved; it may be gone) and the name as given, made absolute.
    Forget {
        target: PathBuf,
        requested: PathBuf,
    },
    Clear,
}

impl StateArgs {
    pub(crate) fn resolve(self, s: &Settings) -> Result<StateRequest> {
        if self.all_sessions {
            return Ok(StateRequest::Sessions);
        }
        Ok(match self.action {
            None | Some(StateAction::Show) => StateRequest::Show,
            Some(StateAction::Forget { path }) => {
                // A file that is gone (or a link to one) can still be forgotten: that is how
                // a caller says "create it anew".
                let (target, requested) = match paths::resolve(&s.cwd, s.root.as_ref(), &path) {
                    Ok(r) => (r.target, r.requested),
                    Err(Error::NotFound { path: missing, .. }) => (missing, s.cwd.join(&path)),
                    Err(e) => return Err(e),
                };
                StateRequest::Forget { target, requested }
            }
            Some(StateAction::Clear) => StateRequest::Clear,
        })
    }
}

pub(crate) fn run(s: &Settings, req: StateRequest) -> Result<Report> {
    let store = s.store();
    let file = store.session(&s.session);
    let mut report = StateReport {
        session: s.session.clone(),
        action: "show",
        baselines: None,
        sessions: None,
        path: None,
        forgotten: None,
        cleared: None,
        message: None,
        kept: None,
    };
    match req {
        StateRequest::Sessions => {
            report.action = "sessions";
            report.sessions = Some(
                store
                    .list_sessions()?
                    .into_iter()
                    .map(|(session, baselines, ns)| SessionSummary {
                        session,
                        baselines,
                        last_used: rfc3339(ns),
                    })
                    .collect(),
            );
        }
        StateRequest::Show => {
            let session = file.load()?;
            let mut baselines: Vec<StateFile> = session
                .baselines()
                .into_iter()
                .map(|b| StateFile {
                    path: b.path,
                    sha256: b.sha256,
                    size: b.size,
                    read_at: rfc3339(b.read_at_ns),
                    complete: b.complete,
                })
                .collect();
            baselines.sort_by(|a, b| a.path.cmp(&b.path));
            report.baselines = Some(baselines);
        }
        StateRequest::Forget { target, requested } => {
            report.action = "forget";
            let forgotten = file.update(|session| {
                let a = session.forget(&target);
                // Also a baseline recorded under the unresolved name, should there be one.
                let b = session.forget(&requested);
                // Forgotten means gone from the disk too, not only masked by a later line.
                if a || b {
                    session.write_whole();
                }
                a || b
            })?;
            report.forgotten = Some(forgotten);
            report.path = Some(target.clone());
            let verb = if forgotten {
                "forgot"
            } else {
                "no baseline for"
            };
            report.message = Some(format!("{verb} {}", paths::display(&s.cwd, &target)));
        }
        StateRequest::Clear => {
            report.action = "clear";
            let cleared = file.clear()?;
            report.cleared = Some(cleared);
            report.message = Some(format!("cleared session '{}'", s.session));
        }
    }
    if matches!(report.action, "show" | "sessions") {
        let (bytes, versions) = Kept::total(&s.state_dir);
        report.kept = Some(KeptSummary {
            versions,
            bytes,
            budget: kept::BUDGET,
            on: s.keep_reads,
        });
    }
    Ok(Report::State(report))
}
