//! `quill state` (SPEC §3.8): show the session's baselines, forget one, clear the session, or
//! list every session. Reading the state never creates it.

use std::path::PathBuf;

use serde::Serialize;

use crate::app::Context;
use crate::cli::{StateAction, StateArgs};
use crate::error::Result;
use crate::output::Report;
use crate::paths;
use crate::state::{self, Store};

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct StateReport {
    pub session: String,
    pub action: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub files: Option<Vec<StateFile>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sessions: Option<Vec<SessionSummary>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub forgotten: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct StateFile {
    pub path: PathBuf,
    /// The first 12 hex digits of the baseline's SHA-256.
    pub sha256: String,
    pub size: u64,
    pub read_at: String,
    pub complete: bool,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SessionSummary {
    pub session: String,
    pub files: usize,
    pub last_used: String,
}

pub fn run(ctx: &Context, args: &StateArgs) -> Result<Report> {
    let mut report = StateReport {
        session: ctx.session.clone(),
        action: "show",
        files: None,
        sessions: None,
        forgotten: None,
        message: None,
    };
    if args.all_sessions {
        report.action = "sessions";
        report.sessions = Some(
            state::list_sessions(&ctx.state_dir)
                .into_iter()
                .map(|(session, files, ns)| SessionSummary {
                    session,
                    files,
                    last_used: rfc3339(ns),
                })
                .collect(),
        );
        return Ok(Report::State(report));
    }
    match &args.action {
        None | Some(StateAction::Show) => {
            let session = Store::new(ctx).load()?;
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
        Some(StateAction::Forget { path }) => {
            report.action = "forget";
            // A file that is gone (or a link to one) can still be forgotten: that is how a
            // caller says "create it anew".
            let (target, requested) = match paths::resolve(&ctx.cwd, ctx.root.as_ref(), path) {
                Ok(r) => (r.target, r.requested),
                Err(crate::error::Error::NotFound { path: missing, .. }) => {
                    (missing, ctx.cwd.join(path))
                }
                Err(e) => return Err(e),
            };
            let forgotten = Store::new(ctx).update(|s| {
                let a = s.forget(&target);
                // Also a baseline recorded under the unresolved name, should there be one.
                let b = s.forget(&requested);
                a || b
            })?;
            report.forgotten = Some(forgotten);
            let verb = if forgotten {
                "forgot"
            } else {
                "no baseline for"
            };
            report.message = Some(format!("{verb} {}", paths::display(&ctx.cwd, &target)));
        }
        Some(StateAction::Clear) => {
            report.action = "clear";
            Store::new(ctx).clear()?;
            report.message = Some(format!("cleared session '{}'", ctx.session));
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
