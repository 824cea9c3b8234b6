//! Whether the session may change a file as it is now (docs/model.md): the one freshness
//! decision of every mutation — write, edit by text or by line, rm, undo, and each file of
//! apply — and the one place a `stale` answer is made. The rule says what the caller's
//! knowledge must match: the session's baseline (or `--expect-sha256`), a read's baseline for
//! line numbers, exactly what quill last wrote (undo), or nothing at all (an undone removal).
//!
//! A living tree (docs/model.md#a-living-tree): when the file changed since the version the
//! session knows and quill kept that version (`state::kept`), the `stale` answer carries the
//! change as a diff, and — for edits, never for a whole-file write — the version shown counts
//! as seen: the same call sent again goes ahead against the current file. With `--merge` an
//! edit goes ahead at once (`Judged::since`), and its caller checks that the change leaves the
//! edit's lines alone (`conflict` when it does not).

use std::borrow::Cow;
use std::path::Path;

use super::current::Current;
use crate::edit::outside;
use crate::error::{Error, Result};
use crate::fs::{paths, probe};
use crate::report::{LineSpan, OutsideChange};
use crate::settings::Settings;
use crate::state::Baseline;
use crate::state::session::{Session, ShownVersion};
use crate::text::diff::{self, PatchTarget};
use crate::text::encoding::{self, Encoding};
use crate::text::sniff::{self, Sniffed};

/// What the file must be for the change to go ahead.
#[derive(Clone, Copy)]
pub(crate) enum Rule<'a> {
    /// The session's baseline of the file matches it, or `--expect-sha256` does. A file that
    /// is not there must be unknown to both: the session read it, or the caller expected a
    /// version of it, and someone deleted it since — `stale`. `edit`: the call changes some
    /// lines (edit, apply), so a change shown to the session counts as seen and `--merge` may
    /// land it over an outside change; false: it replaces the whole file (write, rm), which
    /// only a read of the current content authorizes. `call` fingerprints the call: refused
    /// for meeting a change, it is refused again when sent as it was.
    Baseline {
        expect: Option<&'a str>,
        edit: bool,
        call: Option<&'a str>,
    },
    /// `Baseline`, and the baseline is a read's: after the session's own change of the file
    /// the lines the caller numbered (`around`: first, last) have moved — `stale`, whose hint
    /// reads them again. `--expect-sha256` stands in for the read. A file that is not there
    /// has no lines: `not_found`. `call` fingerprints the call: sent again after a `stale`
    /// that showed a change, its numbers are still those of the version it was made against.
    Lines {
        expect: Option<&'a str>,
        around: (usize, usize),
        numbered: (usize, usize),
        call: &'a str,
    },
    /// The file holds exactly this content (by SHA-256): what the session's last change of it
    /// wrote (undo). Gone or changed: `stale`.
    Holds(&'a str),
    /// Nothing is at the path (an undone removal puts the file back): something there is
    /// `stale`.
    Absent,
}

impl<'a> Rule<'a> {
    /// `Baseline` for a change of the whole file (write, rm, a section of apply that creates,
    /// deletes or moves one): no diff authorizes it.
    pub(crate) fn whole(expect: Option<&'a str>) -> Rule<'a> {
        Rule::Baseline {
            expect,
            edit: false,
            call: None,
        }
    }
}

/// What the judgement found out about the caller's knowledge of the file.
#[derive(Debug, Default)]
pub(crate) struct Judged {
    /// The caller knows the whole file (the new baseline's `complete`).
    pub complete: bool,
    /// The fingerprint of the edit that was the session's last change of the file, when the
    /// file still holds what that edit wrote (none with `--expect-sha256`).
    pub last_edit: Option<String>,
    /// The file is not the version the call was made against, and the call goes ahead anyway
    /// against the current file: that version's bytes, for the caller to move line numbers
    /// through the change and — `merge` — to check the change leaves its lines alone.
    pub since: Option<Since>,
}

/// The version a call was made against, when the file has changed since.
#[derive(Debug)]
pub(crate) struct Since {
    pub known: Vec<u8>,
    /// `read`, `write` or `shown` (`OutsideChange::since`).
    pub from: &'static str,
    pub mode: Mode,
    /// For a line-addressed call: its fingerprint and the version its numbers are of.
    pub call: Option<(String, String)>,
    /// The call's fingerprint (an edit by text, a patch), recorded when it is refused for
    /// meeting the change.
    pub fingerprint: Option<String>,
}

/// What a call made against an older version does on the current file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Mode {
    /// `--merge`: it lands when the change leaves its lines alone (the caller checks, and
    /// reports the change: `outsideChange`, warning `merged`); else `conflict`.
    Merge,
    /// It never lands: the caller works out where its lines are, then answers `stale` with the
    /// change (`show`: the same call sent again lands) or the conflict (`conflict`).
    Show,
    /// The change was shown to the session before: it lands (its line numbers moved).
    Seen,
}

/// Judge whether the session may change `target`, which holds `cur` now (None: nothing is
/// there), under `rule`. `loaded` is the session when the caller loaded it already (a change
/// of many files loads it once); None loads it here. A `stale` answer that shows a change
/// records it as shown, unless `dry_run`.
pub(crate) fn judge(
    s: &Settings,
    loaded: Option<&Session>,
    target: &Path,
    cur: Option<&Current>,
    rule: Rule,
    dry_run: bool,
) -> Result<Judged> {
    let ask = Ask {
        s,
        loaded,
        target,
        dry_run,
    };
    match (rule, cur) {
        (Rule::Baseline { expect, .. }, None) => {
            check_missing(s, loaded, target, expect)?;
            // A new file: the caller gave every byte of it.
            Ok(Judged {
                complete: true,
                ..Judged::default()
            })
        }
        (Rule::Baseline { expect, edit, call }, Some(cur)) => ask.baseline(cur, expect, edit, call),
        (Rule::Lines { .. }, None) => Err(paths::not_found(target)),
        (
            Rule::Lines {
                expect,
                around,
                numbered,
                call,
            },
            Some(cur),
        ) => ask.lines(cur, expect, (around, numbered), call),
        (Rule::Holds(_), None) => Err(stale(s, target, Gone::Yes)),
        (Rule::Holds(sha256), Some(cur)) if cur.sha256 != sha256 => {
            let known = [Known {
                sha256,
                from: "write",
            }];
            Err(ask.showing(cur, &known, Show::refused("undo")))
        }
        (Rule::Holds(_), Some(_)) => Ok(Judged {
            complete: loaded
                .and_then(|session| session.baseline(target))
                .is_some_and(|b| b.complete),
            ..Judged::default()
        }),
        (Rule::Absent, Some(_)) => Err(stale(s, target, Gone::No)),
        (Rule::Absent, None) => Ok(Judged::default()),
    }
}

/// The `stale` answer of a call let through by `since` whose lines the change since meets
/// (`overlap`, lines of the current file): the change with the conflict named, recorded as
/// shown (unless `dry_run`). Nothing was written.
pub(crate) fn conflict(
    s: &Settings,
    target: &Path,
    cur: &Current,
    since: &Since,
    overlap: (usize, usize),
    dry_run: bool,
) -> Error {
    let show = Show {
        resend: false,
        record: true,
        call: since.call.clone(),
        overlap: Some(overlap),
        lines: None,
        refused: "",
        conflict: since.fingerprint.clone(),
        near: None,
    };
    answer(s, target, cur, since, show, dry_run)
}

/// The `stale` answer of a call made against `since` that would land on the current file
/// without meeting the change (`Mode::Show`): the change, recorded as shown (unless
/// `dry_run`), so that the same call sent again lands.
pub(crate) fn show(
    s: &Settings,
    target: &Path,
    cur: &Current,
    since: &Since,
    near: Option<(usize, usize)>,
    dry_run: bool,
) -> Error {
    let show = Show {
        resend: true,
        record: true,
        call: since.call.clone(),
        overlap: None,
        lines: None,
        refused: "",
        conflict: None,
        near,
    };
    answer(s, target, cur, since, show, dry_run)
}

/// `stale` for a call made against `since`, the change shown as `show` says.
fn answer(
    s: &Settings,
    target: &Path,
    cur: &Current,
    since: &Since,
    show: Show,
    dry_run: bool,
) -> Error {
    let ask = Ask {
        s,
        loaded: None,
        target,
        dry_run,
    };
    ask.describe(cur, &since.known, since.from, show)
        .unwrap_or_else(|| unshown(s, target, NOT_TEXT))
}

/// Why a `stale` answer shows no change although keeping is on.
const NOT_KEPT: &str = "the version the session knows is not kept (larger than 1 MiB, kept more than 24 hours ago, or dropped for the store's budget)";
const NOT_TEXT: &str = "the file is not text that quill can diff, or too large to hold";

/// `stale` without the change, saying why (unless keeping is off: then the answer is the
/// guard's as it was).
fn unshown(s: &Settings, target: &Path, why: &'static str) -> Error {
    Error::Stale {
        path: target.to_path_buf(),
        session: s.session.clone(),
        deleted: false,
        reread: None,
        change: None,
        change_unavailable: s.keep_reads.then_some(why),
    }
}

/// A version the session knows, by its hash, and how it came to know it.
struct Known<'a> {
    sha256: &'a str,
    from: &'static str,
}

/// How a `stale` answer shows a change.
struct Show {
    /// `OutsideChange::resend`.
    resend: bool,
    /// The version shown counts as seen (for edits) from now on.
    record: bool,
    /// The line-addressed call answered, and the version its numbers are of.
    call: Option<(String, String)>,
    overlap: Option<(usize, usize)>,
    /// A line-addressed call's lines (`Address::numbered`), to say where they are now.
    lines: Option<(usize, usize)>,
    /// `OutsideChange::refused`.
    refused: &'static str,
    /// The fingerprint of the call refused for meeting the change (`ShownVersion::refused`).
    conflict: Option<String>,
    /// The current lines the call changes: a cut diff keeps the hunks nearest them first.
    near: Option<(usize, usize)>,
}

impl Show {
    /// The change, recorded as shown when `record` (an edit: the same call may follow).
    fn plain(record: bool) -> Show {
        Show {
            resend: record,
            record,
            call: None,
            overlap: None,
            lines: None,
            refused: "",
            conflict: None,
            near: None,
        }
    }

    /// The change, for a call it cannot let through (`OutsideChange::refused`).
    fn refused(why: &'static str) -> Show {
        Show {
            refused: why,
            ..Show::plain(false)
        }
    }
}

struct Ask<'a> {
    s: &'a Settings,
    loaded: Option<&'a Session>,
    target: &'a Path,
    dry_run: bool,
}

impl Ask<'_> {
    /// `Rule::Baseline` of a file that is there.
    fn baseline(
        &self,
        cur: &Current,
        expect: Option<&str>,
        edit: bool,
        call: Option<&str>,
    ) -> Result<Judged> {
        if let Some(expect) = expect {
            return self.expected(cur, expect);
        }
        let b = self.baseline_of()?;
        if b.sha256 == cur.sha256 {
            self.complete_enough(&b)?;
            return Ok(Judged {
                complete: b.complete,
                last_edit: b.edit,
                since: None,
            });
        }
        // Keeping off is today's guard: no change is shown, none counts as seen.
        let edit = edit && !self.s.strict && self.s.keep_reads;
        let shown_now = b.shown.as_ref().filter(|v| v.sha256 == cur.sha256);
        // The call refused for meeting this very change, sent again: worked out once more
        // against what the session read (and refused again, unless it now fits).
        let refused_again =
            shown_now.is_some_and(|v| v.refused.is_some() && v.refused.as_deref() == call);
        if edit && shown_now.is_some() && !refused_again {
            return Ok(Judged::default());
        }
        let mut known = latest(&b);
        if refused_again {
            known.remove(0);
        }
        if edit {
            let kept = self.s.store().session(&self.s.session).kept();
            if let Some((bytes, from)) = known
                .iter()
                .find_map(|k| Some((kept.load(k.sha256)?, k.from)))
            {
                return Ok(Judged {
                    since: Some(Since {
                        known: bytes,
                        from,
                        mode: if self.s.merge {
                            Mode::Merge
                        } else {
                            Mode::Show
                        },
                        call: None,
                        fingerprint: call.map(str::to_string),
                    }),
                    ..Judged::default()
                });
            }
        }
        // A whole-file change needs what the session knows whole: the change since its read.
        let known = if edit {
            &known[..]
        } else {
            &known[known.len() - 1..]
        };
        let show = match (edit, self.s.strict) {
            (true, _) => Show::plain(true),
            (false, true) => Show::refused("strict"),
            (false, false) => Show::refused("whole"),
        };
        Err(self.showing(cur, known, show))
    }

    /// `Rule::Lines` of a file that is there.
    fn lines(
        &self,
        cur: &Current,
        expect: Option<&str>,
        (around, numbered): ((usize, usize), (usize, usize)),
        call: &str,
    ) -> Result<Judged> {
        if let Some(expect) = expect {
            return self.expected(cur, expect);
        }
        let b = self.baseline_of()?;
        if b.written {
            if b.sha256 == cur.sha256 {
                return Err(stale_lines(self.s, self.target, around));
            }
            return Err(self.showing(cur, &latest(&b), Show::refused("lines")));
        }
        if b.sha256 == cur.sha256 {
            self.complete_enough(&b)?;
            return Ok(Judged {
                complete: b.complete,
                ..Judged::default()
            });
        }
        if self.s.strict {
            return Err(self.showing(cur, &latest(&b), Show::refused("strict")));
        }
        if !self.s.keep_reads {
            return Err(stale(self.s, self.target, Gone::No));
        }
        // The version whose lines the call numbers: the one read, or — a call made after a
        // change was shown — the version shown, or the one it was made against before.
        let numbering = match &b.shown {
            Some(ShownVersion {
                call: Some((c, of)),
                ..
            }) if c == call => of.clone(),
            Some(v) => v.sha256.clone(),
            None => b.sha256.clone(),
        };
        if numbering == cur.sha256 {
            return Ok(Judged::default());
        }
        let kept = self.s.store().session(&self.s.session).kept();
        let shown_now = b.shown.as_ref().is_some_and(|v| v.sha256 == cur.sha256);
        let from = if numbering == b.sha256 {
            "read"
        } else {
            "shown"
        };
        let call = Some((call.to_string(), numbering.clone()));
        if (shown_now || self.s.merge)
            && let Some(known) = kept.load(&numbering)
        {
            return Ok(Judged {
                since: Some(Since {
                    known,
                    from,
                    mode: if shown_now { Mode::Seen } else { Mode::Merge },
                    call,
                    fingerprint: None,
                }),
                ..Judged::default()
            });
        }
        let show = Show {
            resend: true,
            record: true,
            call,
            overlap: None,
            lines: Some(numbered),
            refused: "",
            conflict: None,
            near: None,
        };
        let known = [Known {
            sha256: &numbering,
            from,
        }];
        Err(self.showing(cur, &known, show))
    }

    /// `--expect-sha256` stands in for a baseline: it must name the content.
    fn expected(&self, cur: &Current, expect: &str) -> Result<Judged> {
        let expect = probe::parse_sha256("--expect-sha256", expect)?;
        if expect != cur.sha256 {
            return Err(stale(self.s, self.target, Gone::No));
        }
        Ok(Judged::default())
    }

    /// The session's baseline of the file; none is `not_read`.
    fn baseline_of(&self) -> Result<Baseline> {
        let baseline = match self.loaded {
            Some(session) => session.baseline(self.target),
            None => self
                .s
                .store()
                .session(&self.s.session)
                .peek(|session| session.baseline(self.target))?,
        };
        baseline.ok_or_else(|| not_read(self.s, self.target))
    }

    /// `--strict` wants a complete read.
    fn complete_enough(&self, b: &Baseline) -> Result<()> {
        if self.s.strict && !b.complete {
            return Err(not_read(self.s, self.target));
        }
        Ok(())
    }

    /// `stale` for `cur`, showing the change since the first of `known` whose bytes are kept
    /// (none: today's bare answer).
    fn showing(&self, cur: &Current, known: &[Known], show: Show) -> Error {
        let kept = self.s.store().session(&self.s.session).kept();
        let Some((bytes, from)) = known
            .iter()
            .find_map(|k| Some((kept.load(k.sha256)?, k.from)))
        else {
            return unshown(self.s, self.target, NOT_KEPT);
        };
        self.describe(cur, &bytes, from, show)
            .unwrap_or_else(|| unshown(self.s, self.target, NOT_TEXT))
    }

    /// `stale` with the change from `known` to `cur` (None: it cannot be shown as text), the
    /// version shown recorded as seen when `show.record` says so.
    fn describe(
        &self,
        cur: &Current,
        known: &[u8],
        from: &'static str,
        show: Show,
    ) -> Option<Error> {
        let now = cur.bytes.as_deref()?;
        // A line-addressed call's lines now (an insertion after line N shows as N..N), or
        // the lines of the change that touched them.
        let lines = show
            .lines
            .map(|(first, last)| through(known, now, first, last).map(|(a, b)| (a.min(b), b)));
        // The hunks a cut diff keeps first: those nearest the call's lines.
        let near = (show.overlap.or(show.near)).or(lines.map(|l| l.unwrap_or_else(|hit| hit)));
        let mut change = outside_change_near(self.target, known, now, from, near)?;
        change.resend = show.resend;
        change.refused = show.refused;
        change.overlap = show.overlap.map(span);
        match lines {
            Some(Ok(moved)) => change.lines_now = Some(span(moved)),
            Some(Err(hit)) => {
                change.overlap = Some(span(hit));
                change.resend = false;
            }
            None => {}
        }
        // A cut diff does not show the whole change: it cannot count as seen.
        if change.diff_truncated && change.resend {
            change.resend = false;
            change.refused = "cut";
        }
        let record = show.record && !change.diff_truncated;
        // A dry run records nothing: the change is shown, but does not count as seen.
        if self.dry_run && record && change.resend {
            change.resend = false;
            change.refused = "dry_run";
        }
        if record && !self.dry_run {
            let store = self.s.store();
            let file = store.session(&self.s.session);
            file.kept().keep(&cur.sha256, now);
            let shown = ShownVersion {
                sha256: cur.sha256.clone(),
                call: show.call,
                refused: show.conflict,
            };
            // A failure costs only the shortcut: the next call is shown the change again.
            let _ = file.update(|session| session.note_shown(self.target, shown));
        }
        Some(Error::Stale {
            path: self.target.to_path_buf(),
            session: self.s.session.clone(),
            deleted: false,
            reread: None,
            change: Some(Box::new(change)),
            change_unavailable: None,
        })
    }
}

/// The versions to show a change from, most recent first: the one a `stale` answer showed,
/// then the baseline's own.
fn latest(b: &Baseline) -> Vec<Known<'_>> {
    let own = Known {
        sha256: &b.sha256,
        from: if b.written { "write" } else { "read" },
    };
    match &b.shown {
        Some(v) => vec![
            Known {
                sha256: &v.sha256,
                from: "shown",
            },
            own,
        ],
        None => vec![own],
    }
}

fn span((start_line, end_line): (usize, usize)) -> LineSpan {
    LineSpan {
        start_line,
        end_line,
    }
}

/// The text of a version as edits and diffs see it: UTF-16 decoded, anything else as it is.
pub(crate) fn as_text(bytes: &[u8]) -> Option<Cow<'_, [u8]>> {
    match sniff::sniff(bytes) {
        Sniffed::Text {
            encoding: e @ (Encoding::Utf16Le | Encoding::Utf16Be),
        } => Some(encoding::decode(bytes, e).0),
        Sniffed::Text { .. } => Some(Cow::Borrowed(bytes)),
        _ => None,
    }
}

/// The change from `known` to `now` as a `stale` answer shows it (None: not text).
pub(crate) fn outside_change(
    target: &Path,
    known: &[u8],
    now: &[u8],
    from: &'static str,
) -> Option<OutsideChange> {
    outside_change_near(target, known, now, from, None)
}

/// `outside_change`, the hunks nearest the current lines `near` first (a cut diff keeps the
/// ones the call needs).
fn outside_change_near(
    target: &Path,
    known: &[u8],
    now: &[u8],
    from: &'static str,
    near: Option<(usize, usize)>,
) -> Option<OutsideChange> {
    let (old, new) = (as_text(known)?, as_text(now)?);
    let place = PatchTarget {
        path: target,
        prefixed: false,
    };
    let rendered = diff::render_near(&old, &new, &place, false, near);
    Some(OutsideChange {
        since: from,
        diff: rendered.diff,
        added: rendered.added,
        removed: rendered.removed,
        diff_truncated: rendered.diff_truncated,
        resend: true,
        overlap: None,
        lines_now: None,
        refused: "",
    })
}

/// The `merged` warning: what changed outside, and the diff.
pub(crate) fn merged_message(target: &Path, change: &OutsideChange, dry_run: bool) -> String {
    format!(
        "{} changed since this session's {} of it (+{} -{} lines), away from the lines this call changes; the call {} to the current file. The change:\n{}",
        target.display(),
        change.since_words(),
        change.added,
        change.removed,
        if dry_run {
            "would be applied"
        } else {
            "was applied"
        },
        change.diff.trim_end()
    )
}

/// Where lines `first..=last` of `known` are in `now` (or the lines of `now` that changed
/// them), both seen as text.
pub(crate) fn through(
    known: &[u8],
    now: &[u8],
    first: usize,
    last: usize,
) -> std::result::Result<(usize, usize), (usize, usize)> {
    match (as_text(known), as_text(now)) {
        (Some(k), Some(n)) => outside::between(&k, &n).translate(first, last),
        _ => Err((first, last)),
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
        change: None,
        change_unavailable: None,
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
        change: None,
        change_unavailable: None,
    }
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
