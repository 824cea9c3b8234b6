//! The pure edit planner behind `quill edit` (docs/commands/edit.md): given a file's bytes (UTF-8-ish,
//! BOM already stripped by the caller) and an ordered list of `old → new` edits, it decides
//! where each edit lands and builds the new body, all or nothing. It owns the matching rules —
//! exact uniqueness with overlapping occurrences, `replace_all`, `expect_count`, the CRLF
//! retry for an LF `old`, the U+FFFD refusal — and byte-exactness: every byte outside the
//! replaced spans is copied through untouched. Miss diagnosis and fuzzy (whitespace and
//! look-alike) matching live in `repair`, the reported reason and window in `miss` (re-exported
//! here); `repair` never calls back into this module. This module must not do I/O, print, or panic on
//! any input; line numbers it reports are 1-based lines of the text each edit was applied to
//! (for a multi-edit request, the text as left by the edits before it).

pub use super::miss::{MissFix, MissReason, MissWindow};
use super::repair;
use memchr::memmem;

/// One requested replacement.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Edit {
    pub old: String,
    pub new: String,
    pub replace_all: bool,
}

/// Options shared by every edit of one request.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PlanOptions {
    /// Apply a unique whitespace / look-alike match instead of reporting it.
    pub fuzzy: bool,
    /// `Some(n)`: every edit must find exactly `n` occurrences (overlapping ones counted;
    /// non-overlapping ones with `replace_all`) and then replaces all `n`. Some but not `n`
    /// → `Ambiguous` with the real count; none → `NoMatch`; `Some(0)`, or `n` occurrences
    /// that overlap → `InvalidArgument`. A fuzzy match is applied only when `n == 1`.
    pub expect_count: Option<usize>,
}

/// What a successful [`plan`] gives: the new body and what changed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EditPlan {
    pub new_body: Vec<u8>,
    /// Total replacements over all edits.
    pub replacements: usize,
    /// True when at least one edit was applied through a fuzzy match.
    pub matched_fuzzily: bool,
    /// One per applied replacement, in edit order then file order. Filling an empty body
    /// (empty `old`) reports line 1.
    pub spans: Vec<LineSpan>,
    /// What a fuzzy apply read differently (line numbers left out, escapes read), once each.
    pub notes: Vec<&'static str>,
}

/// A 1-based inclusive line span.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct LineSpan {
    pub start_line: usize,
    pub end_line: usize,
}

/// How many occurrence lines an `Ambiguous` error lists.
pub const AMBIGUOUS_MAX_LINES: usize = 20;

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PlanError {
    NoMatch {
        edit_index: usize,
        reason: MissReason,
        /// The file's real lines around the best candidate (for an edit after the first of
        /// a batch too); `None` for an empty file, or when the candidate line alone exceeds
        /// the window's byte limit.
        window: Option<MissWindow>,
        difference: String,
        fix: MissFix,
    },
    Ambiguous {
        edit_index: usize,
        count: usize,
        /// 1-based start lines of the first 20 occurrences.
        lines: Vec<usize>,
        /// The occurrences are fuzzy matches (their count stops at 10 000).
        fuzzy: bool,
    },
    /// `old` or `new` holds U+FFFD and `old` is not in the file as is. (When `old` does
    /// match exactly, a U+FFFD in `new` is written as the character it is.)
    Encoding {
        edit_index: usize,
        message: String,
    },
    InvalidArgument {
        edit_index: usize,
        message: String,
    },
}

impl PlanError {
    pub fn edit_index(&self) -> usize {
        match self {
            PlanError::NoMatch { edit_index, .. }
            | PlanError::Ambiguous { edit_index, .. }
            | PlanError::Encoding { edit_index, .. }
            | PlanError::InvalidArgument { edit_index, .. } => *edit_index,
        }
    }
}

/// Applies `edits` in order to `body`; the first failing edit aborts the whole plan.
///
/// Per edit: exact bytes first; then, if `old` has bare `\n`s, the same text with `\r\n`
/// (inserting `new` with `\r\n` too); then the U+FFFD refusal; then `repair` diagnoses
/// the miss, and with `fuzzy` applies a unique whitespace / look-alike match (or one found
/// once read's line numbers are left out or escapes read), keeping the file's characters
/// wherever `new` repeats `old`.
pub fn plan(body: &[u8], edits: &[Edit], opts: &PlanOptions) -> Result<EditPlan, PlanError> {
    let mut cur: Vec<u8> = body.to_vec();
    let mut out = EditPlan {
        new_body: Vec::new(),
        replacements: 0,
        matched_fuzzily: false,
        spans: Vec::new(),
        notes: Vec::new(),
    };
    for (index, edit) in edits.iter().enumerate() {
        let step = match plan_one(&cur, edit, opts) {
            Ok(step) => step,
            Err(e @ StepError::NoMatch { .. }) if index > 0 => {
                return Err(batch_miss(body, edits, index, opts, e));
            }
            Err(e) => return Err(e.at(index)),
        };
        cur = step.body;
        out.replacements += step.spans.len();
        out.matched_fuzzily |= step.matched_fuzzily;
        out.spans.extend(step.spans);
        if let Some(note) = step.note
            && !out.notes.contains(&note)
        {
            out.notes.push(note);
        }
    }
    out.new_body = cur;
    Ok(out)
}

/// The miss of edit `index` (> 0) of a batch, told from the file as it is on disk: the
/// window shows its real lines, not the text the edits before left in memory. An `old`
/// that is in the file but was changed by an earlier edit says so.
fn batch_miss(
    body: &[u8],
    edits: &[Edit],
    index: usize,
    opts: &PlanOptions,
    missed: StepError,
) -> PlanError {
    let StepError::NoMatch {
        reason,
        difference,
        fix,
        ..
    } = missed
    else {
        return missed.at(index);
    };
    let old = edits[index].old.as_bytes();
    if let Some(pos) = memmem::find(body, old) {
        // Replay the batch to name the edit that took it away.
        let mut text = body.to_vec();
        let mut by = None;
        for (j, e) in edits[..index].iter().enumerate() {
            let Ok(step) = plan_one(&text, e, opts) else {
                break;
            };
            text = step.body;
            if memmem::find(&text, old).is_none() {
                by = Some(j);
                break;
            }
        }
        let span = line_span(body, pos, pos + old.len());
        let by = by.map_or("an earlier edit".to_string(), |j| format!("edit {}", j + 1));
        return PlanError::NoMatch {
            edit_index: index,
            reason: MissReason::Similar,
            window: repair::window_at(body, span.start_line - 1, span.end_line - 1),
            difference: format!(
                "line {}: old is in the file, but {by} of this batch changes it first; each \
                 edit applies to the text the edits before it leave",
                span.start_line
            ),
            fix: MissFix::InOrder,
        };
    }
    let (file_reason, file_window, file_difference) =
        match repair::diagnose(body, &edits[index].old) {
            repair::Diagnosis::Whitespace {
                window, difference, ..
            } => (MissReason::Whitespace, window, difference),
            repair::Diagnosis::Rewritten {
                window, difference, ..
            }
            | repair::Diagnosis::Similar { window, difference } => {
                (MissReason::Similar, window, difference)
            }
            repair::Diagnosis::Nothing { window, difference } => {
                (MissReason::None, window, difference)
            }
        };
    let difference = if file_reason == reason {
        file_difference
    } else {
        // The candidate is text an earlier edit wrote: its lines are not on disk.
        format!(
            "{difference} (in the text as edit{} {} leave{} it)",
            if index > 1 { "s 1 to" } else { "" },
            index,
            if index > 1 { "" } else { "s" }
        )
    };
    PlanError::NoMatch {
        edit_index: index,
        reason,
        window: file_window,
        difference,
        fix,
    }
}

/// An error before it knows which edit it belongs to.
enum StepError {
    NoMatch {
        reason: MissReason,
        window: Option<MissWindow>,
        difference: String,
        fix: MissFix,
    },
    Ambiguous {
        count: usize,
        lines: Vec<usize>,
        fuzzy: bool,
    },
    Encoding(String),
    Invalid(String),
}

impl StepError {
    fn at(self, edit_index: usize) -> PlanError {
        match self {
            StepError::NoMatch {
                reason,
                window,
                difference,
                fix,
            } => PlanError::NoMatch {
                edit_index,
                reason,
                window,
                difference,
                fix,
            },
            StepError::Ambiguous {
                count,
                lines,
                fuzzy,
            } => PlanError::Ambiguous {
                edit_index,
                count,
                lines,
                fuzzy,
            },
            StepError::Encoding(message) => PlanError::Encoding {
                edit_index,
                message,
            },
            StepError::Invalid(message) => PlanError::InvalidArgument {
                edit_index,
                message,
            },
        }
    }
}

/// One edit applied: the text it leaves and the spans it replaced.
struct Step {
    body: Vec<u8>,
    spans: Vec<LineSpan>,
    matched_fuzzily: bool,
    /// What a fuzzy apply read differently.
    note: Option<&'static str>,
}

fn plan_one(cur: &[u8], edit: &Edit, opts: &PlanOptions) -> Result<Step, StepError> {
    if edit.old == edit.new {
        return Err(StepError::Invalid(
            "old and new are identical, so the edit would change nothing".into(),
        ));
    }
    if opts.expect_count == Some(0) {
        return Err(StepError::Invalid("expect_count must be at least 1".into()));
    }
    if edit.old.is_empty() {
        if cur.is_empty() {
            return Ok(Step {
                body: edit.new.as_bytes().to_vec(),
                spans: vec![LineSpan {
                    start_line: 1,
                    end_line: 1,
                }],
                matched_fuzzily: false,
                note: None,
            });
        }
        return Err(StepError::Invalid(
            "old is empty, which only fills an empty file; this file is not empty, so quote \
             the text to replace"
                .into(),
        ));
    }

    let old = edit.old.as_bytes();
    let new = edit.new.as_bytes();
    if let Some(step) = exact(cur, old, new, edit.replace_all, opts.expect_count)? {
        return Ok(step);
    }
    if let Some(old_crlf) = to_crlf(old) {
        let new_crlf = to_crlf(new).unwrap_or_else(|| new.to_vec());
        if let Some(step) = exact(
            cur,
            &old_crlf,
            &new_crlf,
            edit.replace_all,
            opts.expect_count,
        )? {
            return Ok(step);
        }
    }
    if edit.old.contains('\u{FFFD}') || edit.new.contains('\u{FFFD}') {
        let which = if edit.old.contains('\u{FFFD}') {
            "old"
        } else {
            "new"
        };
        return Err(StepError::Encoding(format!(
            "{which} contains U+FFFD (\u{FFFD}), the character a lossy read shows in place of \
             bytes that are not valid UTF-8; the edit would need the file's invalid bytes, which \
             cannot be written as text. Choose an old that stops before them and a new without \
             U+FFFD"
        )));
    }

    match repair::diagnose(cur, &edit.old) {
        repair::Diagnosis::Whitespace {
            matches,
            window,
            difference,
        } => fuzzy(cur, edit, opts, (matches, window, difference), None),
        repair::Diagnosis::Rewritten {
            rewrite,
            old,
            matches,
            window,
            difference,
        } => fuzzy(
            cur,
            edit,
            opts,
            (matches, window, difference),
            Some((rewrite, old)),
        ),
        repair::Diagnosis::Similar { window, difference } => Err(StepError::NoMatch {
            reason: MissReason::Similar,
            window,
            difference,
            fix: MissFix::Quote,
        }),
        repair::Diagnosis::Nothing { window, difference } => Err(StepError::NoMatch {
            reason: MissReason::None,
            window,
            difference,
            fix: MissFix::Read,
        }),
    }
}

/// A fuzzy match of `old` (or of `old` rewritten): applied with `opts.fuzzy` when it is the
/// only one, else reported with what would fix it.
fn fuzzy(
    cur: &[u8],
    edit: &Edit,
    opts: &PlanOptions,
    (matches, window, difference): (Vec<repair::FuzzyMatch>, Option<MissWindow>, String),
    rewrite: Option<(repair::Rewrite, String)>,
) -> Result<Step, StepError> {
    let unique = matches.len() == 1 && opts.expect_count.unwrap_or(1) == 1;
    let (old, new, reason, fix) = match &rewrite {
        None => (
            edit.old.clone(),
            Some(edit.new.clone()),
            MissReason::Whitespace,
            MissFix::Fuzzy,
        ),
        Some((r, old)) => (
            old.clone(),
            r.rewrite_new(&edit.new),
            MissReason::Similar,
            match r {
                repair::Rewrite::Unnumbered => MissFix::FuzzyUnnumbered,
                repair::Rewrite::Unescaped => MissFix::FuzzyUnescaped,
            },
        ),
    };
    let fix = match (unique, &new) {
        (false, _) => MissFix::Unique,
        (true, None) => MissFix::Unnumber,
        (true, Some(_)) => fix,
    };
    let miss = |difference: String| StepError::NoMatch {
        reason,
        window: window.clone(),
        difference,
        fix,
    };
    if !opts.fuzzy {
        return Err(miss(difference));
    }
    if !unique {
        return Err(StepError::Ambiguous {
            count: matches.len(),
            lines: matches
                .iter()
                .take(AMBIGUOUS_MAX_LINES)
                .map(|m| m.first_line + 1)
                .collect(),
            fuzzy: true,
        });
    }
    let (Some(m), Some(new)) = (matches.first(), new) else {
        return Err(miss(format!(
            "{difference}; new has line numbers on some lines only, so they cannot be told \
             from its text"
        )));
    };
    if old == new {
        return Err(StepError::Invalid(
            "old and new are identical once read as the file has them, so the edit would \
             change nothing"
                .into(),
        ));
    }
    let replacement = repair::render_replacement(cur, m, &old, &new);
    let (start, end) = (m.start.min(cur.len()), m.end.min(cur.len()));
    let (start, end) = (start.min(end), end);
    let span = line_span(cur, start, end);
    let mut body = Vec::with_capacity(cur.len() + replacement.len());
    body.extend_from_slice(&cur[..start]);
    body.extend_from_slice(&replacement);
    body.extend_from_slice(&cur[end..]);
    Ok(Step {
        body,
        spans: vec![span],
        matched_fuzzily: true,
        note: rewrite.map(|(r, _)| r.note()),
    })
}

/// Exact byte search with the counting rules. `Ok(None)` means zero occurrences.
fn exact(
    cur: &[u8],
    old: &[u8],
    new: &[u8],
    replace_all: bool,
    expect: Option<usize>,
) -> Result<Option<Step>, StepError> {
    let finder = memmem::Finder::new(old);
    // Overlapping occurrences count for uniqueness; replace_all steps over each match.
    let stride = if replace_all { old.len() } else { 1 };
    let finder = &finder;
    let occurrences = || {
        let mut pos = 0;
        std::iter::from_fn(move || {
            let i = finder.find(cur.get(pos..)?)?;
            let at = pos + i;
            pos = at + stride;
            Some(at)
        })
    };
    let count = occurrences().count();
    if count == 0 {
        return Ok(None);
    }
    let want = expect.unwrap_or(if replace_all { count } else { 1 });
    if count != want {
        let firsts: Vec<usize> = occurrences().take(AMBIGUOUS_MAX_LINES).collect();
        return Err(StepError::Ambiguous {
            count,
            lines: start_lines(cur, &firsts),
            fuzzy: false,
        });
    }
    let mut body = Vec::with_capacity(
        (cur.len().saturating_sub(count.saturating_mul(old.len())))
            .saturating_add(count.saturating_mul(new.len())),
    );
    let mut spans = Vec::with_capacity(count);
    let mut last = 0;
    let mut line = 1;
    // A one-line `old` inside a CRLF line, replaced by a multi-line `new` with bare LFs: the
    // new lines take the file's CRLF, so the edit adds no mixed endings.
    let new_crlf = (!old.contains(&b'\n')).then(|| to_crlf(new)).flatten();
    for s in occurrences() {
        if s < last {
            return Err(StepError::Invalid(format!(
                "old occurs {count} times as expected, but the occurrences overlap, so they \
                 cannot all be replaced; quote a longer old"
            )));
        }
        let before = &cur[last..s];
        line += memchr::memchr_iter(b'\n', before).count();
        body.extend_from_slice(before);
        match &new_crlf {
            Some(crlf) if line_ends_in_crlf(cur, s + old.len()) => body.extend_from_slice(crlf),
            _ => body.extend_from_slice(new),
        }
        let span = span_from(line, &cur[s..s + old.len()]);
        line = span.start_line + memchr::memchr_iter(b'\n', &cur[s..s + old.len()]).count();
        spans.push(span);
        last = s + old.len();
    }
    body.extend_from_slice(&cur[last..]);
    Ok(Some(Step {
        body,
        spans,
        matched_fuzzily: false,
        note: None,
    }))
}

/// 1-based start lines of the given sorted occurrence offsets.
fn start_lines(text: &[u8], starts: &[usize]) -> Vec<usize> {
    let mut line = 1;
    let mut at = 0;
    let mut out = Vec::new();
    for &s in starts {
        let s = s.min(text.len());
        if s >= at {
            line += memchr::memchr_iter(b'\n', &text[at..s]).count();
            at = s;
        }
        out.push(line);
    }
    out
}

/// Lines covered by `text[start..end]`; a final `\n` belongs to the line it ends.
pub(crate) fn line_span(text: &[u8], start: usize, end: usize) -> LineSpan {
    let start = start.min(text.len());
    let end = end.clamp(start, text.len());
    let start_line = 1 + memchr::memchr_iter(b'\n', &text[..start]).count();
    span_from(start_line, &text[start..end])
}

/// The span of `inner`, which starts on `start_line`.
fn span_from(start_line: usize, inner: &[u8]) -> LineSpan {
    let mut nl = memchr::memchr_iter(b'\n', inner).count();
    if inner.last() == Some(&b'\n') {
        nl = nl.saturating_sub(1);
    }
    LineSpan {
        start_line,
        end_line: start_line + nl,
    }
}

/// Whether the line holding byte `at` ends in `\r\n`.
fn line_ends_in_crlf(cur: &[u8], at: usize) -> bool {
    let rest = cur.get(at..).unwrap_or(&[]);
    memchr::memchr(b'\n', rest).is_some_and(|i| i > 0 && rest[i - 1] == b'\r')
}

/// `s` with every bare `\n` turned into `\r\n`, or `None` when it has no bare `\n`.
fn to_crlf(s: &[u8]) -> Option<Vec<u8>> {
    let mut out = Vec::with_capacity(s.len() + 8);
    let mut changed = false;
    for (i, &b) in s.iter().enumerate() {
        if b == b'\n' && (i == 0 || s[i - 1] != b'\r') {
            out.push(b'\r');
            changed = true;
        }
        out.push(b);
    }
    changed.then_some(out)
}

#[cfg(test)]
mod proptests;
#[cfg(test)]
mod tests;
