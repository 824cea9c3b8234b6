//! Whether the session may change a file as it is now (docs/model.md): the one freshness
//! decision of every mutation — write, edit by text or by line, rm, undo, and each file of
//! apply — and the one place a `stale` answer is made. The rule says what the caller's
//! knowledge must match: the session's baseline (or `--expect-sha256`), a read's baseline for
//! line numbers, exactly what quill last wrote (undo), or nothing at all (an undone removal).

use std::path::Path;

use super::current::Current;
use crate::error::{Error, Result};
use crate::fs::{paths, probe};
use crate::settings::Settings;
use crate::state::Baseline;
use crate::state::session::Session;

/// What the file must be for the change to go ahead.
#[derive(Clone, Copy)]
pub(crate) enum Rule<'a> {
    /// The session's baseline of the file matches it, or `--expect-sha256` does. A file that
    /// is not there must be unknown to both: the session read it, or the caller expected a
    /// version of it, and someone deleted it since — `stale`.
    Baseline { expect: Option<&'a str> },
    /// `Baseline`, and the baseline is a read's: after the session's own change of the file
    /// the lines the caller numbered (`around`: first, last) have moved — `stale`, whose hint
    /// reads them again. `--expect-sha256` stands in for the read. A file that is not there
    /// has no lines: `not_found`.
    Lines {
        expect: Option<&'a str>,
        around: (usize, usize),
    },
    /// The file holds exactly this content (by SHA-256): what the session's last change of it
    /// wrote (undo). Gone or changed: `stale`.
    Holds(&'a str),
    /// Nothing is at the path (an undone removal puts the file back): something there is
    /// `stale`.
    Absent,
}

/// What the judgement found out about the caller's knowledge of the file.
#[derive(Debug, Default)]
pub(crate) struct Judged {
    /// The caller knows the whole file (the new baseline's `complete`).
    pub complete: bool,
    /// The fingerprint of the edit that was the session's last change of the file, when the
    /// file still holds what that edit wrote (none with `--expect-sha256`).
    pub last_edit: Option<String>,
}

/// Judge whether the session may change `target`, which holds `cur` now (None: nothing is
/// there), under `rule`. `loaded` is the session when the caller loaded it already (a change
/// of many files loads it once); None loads it here.
pub(crate) fn judge(
    s: &Settings,
    loaded: Option<&Session>,
    target: &Path,
    cur: Option<&Current>,
    rule: Rule,
) -> Result<Judged> {
    match (rule, cur) {
        (Rule::Baseline { expect }, None) => {
            check_missing(s, loaded, target, expect)?;
            // A new file: the caller gave every byte of it.
            Ok(Judged {
                complete: true,
                last_edit: None,
            })
        }
        (Rule::Baseline { expect }, Some(cur)) => {
            Ok(match fresh_baseline(s, loaded, target, cur, expect)? {
                Some(b) => Judged {
                    complete: b.complete,
                    last_edit: b.edit,
                },
                None => Judged::default(),
            })
        }
        (Rule::Lines { .. }, None) => Err(paths::not_found(target)),
        (Rule::Lines { expect, around }, Some(cur)) => {
            match fresh_baseline(s, loaded, target, cur, expect)? {
                Some(b) if b.written => Err(stale_lines(s, target, around)),
                Some(b) => Ok(Judged {
                    complete: b.complete,
                    last_edit: None,
                }),
                None => Ok(Judged::default()),
            }
        }
        (Rule::Holds(_), None) => Err(stale(s, target, Gone::Yes)),
        (Rule::Holds(sha256), Some(cur)) if cur.sha256 != sha256 => Err(stale(s, target, Gone::No)),
        (Rule::Holds(_), Some(_)) => Ok(Judged {
            complete: loaded
                .and_then(|session| session.baseline(target))
                .is_some_and(|b| b.complete),
            last_edit: None,
        }),
        (Rule::Absent, Some(_)) => Err(stale(s, target, Gone::No)),
        (Rule::Absent, None) => Ok(Judged::default()),
    }
}

/// Whether a `stale` file is still there.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Gone {
    Yes,
    No,
}

/// `stale`: `target` is not what the session knows of it (`Gone::Yes`: it is not there).
pub(crate) fn stale(s: &Settings, target: &Path, gone: Gone) -> Error {
    Error::Stale {
        path: target.to_path_buf(),
        session: s.session.clone(),
        deleted: gone == Gone::Yes,
        reread: None,
    }
}

/// `stale` for a line-addressed change after the session's own change: the hint reads the
/// lines `around` again.
fn stale_lines(s: &Settings, target: &Path, around: (usize, usize)) -> Error {
    Error::Stale {
        path: target.to_path_buf(),
        session: s.session.clone(),
        deleted: false,
        reread: Some(around),
    }
}

/// The session's baseline of `target` when it matches `cur`; None when `--expect-sha256`
/// matches instead.
fn fresh_baseline(
    s: &Settings,
    loaded: Option<&Session>,
    target: &Path,
    cur: &Current,
    expect: Option<&str>,
) -> Result<Option<Baseline>> {
    if let Some(expect) = expect {
        let expect = probe::parse_sha256("--expect-sha256", expect)?;
        if expect != cur.sha256 {
            return Err(stale(s, target, Gone::No));
        }
        return Ok(None);
    }
    let baseline = match loaded {
        Some(session) => session.baseline(target),
        None => s
            .store()
            .session(&s.session)
            .peek(|session| session.baseline(target))?,
    };
    let Some(baseline) = baseline else {
        return Err(not_read(s, target));
    };
    if baseline.sha256 != cur.sha256 {
        return Err(stale(s, target, Gone::No));
    }
    if s.strict && !baseline.complete {
        return Err(not_read(s, target));
    }
    Ok(Some(baseline))
}

fn not_read(s: &Settings, target: &Path) -> Error {
    Error::NotRead {
        path: target.to_path_buf(),
        session: s.session.clone(),
    }
}

/// Creating a file that is not there: refused as `stale` when the caller expected a version
/// of it (`--expect-sha256`) or the session has read it — someone deleted it since, and a
/// change never lands on top of a change the caller has not seen. (An undo of its creation
/// that was killed after the unlink is no one else's deletion: `load_settled` finishes it, so
/// a removal to settle is judged from a fresh load.)
fn check_missing(
    s: &Settings,
    loaded: Option<&Session>,
    target: &Path,
    expect: Option<&str>,
) -> Result<()> {
    let known = expect.is_some()
        || match loaded {
            Some(session) if !session.is_removing(target) => session.baseline(target).is_some(),
            _ => s
                .store()
                .session(&s.session)
                .load_settled(target, || true)?
                .baseline(target)
                .is_some(),
        };
    if known {
        return Err(stale(s, target, Gone::Yes));
    }
    Ok(())
}
