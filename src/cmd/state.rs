//! `quill state` (SPEC §3.8): show the session's baselines, forget one, clear the session, or
//! list every session. Reading the state never creates it.

use std::path::PathBuf;

use crate::cli::{StateAction, StateArgs};
use crate::error::{Error, Result};
use crate::paths;
use crate::report::Report;
use crate::report::state::{SessionSummary, StateFile, StateReport};
use crate::settings::Settings;

/// A checked `quill state`.
pub enum StateRequest {
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
    pub fn resolve(self, s: &Settings) -> Result<StateRequest> {
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

pub fn run(s: &Settings, req: StateRequest) -> Result<Report> {
    let store = s.store();
    let file = store.session(&s.session);
    let mut report = StateReport {
        session: s.session.clone(),
        action: "show",
        files: None,
        sessions: None,
        forgotten: None,
        message: None,
    };
    match req {
        StateRequest::Sessions => {
            report.action = "sessions";
            report.sessions = Some(
                store
                    .list_sessions()
                    .into_iter()
                    .map(|(session, files, ns)| SessionSummary {
                        session,
                        files,
                        last_used: rfc3339(ns),
                    })
                    .collect(),
            );
        }
        StateRequest::Show => {
            let session = file.load()?;
            let mut files: Vec<StateFile> = session
                .baselines()
                .into_iter()
                .map(|b| StateFile {
                    path: b.path,
                    sha256: b.sha256.chars().take(12).collect(),
                    size: b.size,
                    read_at: rfc3339(b.read_at_ns),
                    complete: b.complete,
                })
                .collect();
            files.sort_by(|a, b| a.path.cmp(&b.path));
            report.files = Some(files);
        }
        StateRequest::Forget { target, requested } => {
            report.action = "forget";
            let forgotten = file.update(|session| {
                let a = session.forget(&target);
                // Also a baseline recorded under the unresolved name, should there be one.
                let b = session.forget(&requested);
                a || b
            })?;
            report.forgotten = Some(forgotten);
            let verb = if forgotten {
                "forgot"
            } else {
                "no baseline for"
            };
            report.message = Some(format!("{verb} {}", paths::display(&s.cwd, &target)));
        }
        StateRequest::Clear => {
            report.action = "clear";
            file.clear()?;
            report.message = Some(format!("cleared session '{}'", s.session));
        }
    }
    Ok(Report::State(report))
}

/// Unix nanoseconds as an RFC 3339 UTC time with seconds.
pub fn rfc3339(ns: i128) -> String {
    let secs = ns.div_euclid(1_000_000_000) as i64;
    let days = secs.div_euclid(86_400);
    let rem = secs.rem_euclid(86_400);
    let (y, m, d) = civil_from_days(days);
    format!(
        "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}Z",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60
    )
}

/// Howard Hinnant's days-to-civil algorithm.
fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_times() {
        assert_eq!(rfc3339(0), "1970-01-01T00:00:00Z");
        assert_eq!(
            rfc3339(1_796_000_000 * 1_000_000_000),
            "2026-11-30T00:53:20Z"
        );
    }
}
