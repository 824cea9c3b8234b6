//! Why a hunk was not found, worded as `edit` words a miss: the planner's diagnosis of the
//! hunk's old side against the whole file (reason, the file's real lines around the best
//! candidate, the difference, the fix), or, when the old side is in the file but not where it
//! may go, where it is. Also the bounded window of real lines those reports show. Pure; no I/O,
//! no panics.

use crate::edit::plan::{Edit, PlanError, PlanOptions, plan};

use super::fuzzy::side_text;
use super::locate::{Body, Pass};
use super::text::BOM;
use super::{Hunk, HunkError, MissFix, MissReason, MissWindow};

/// A window holds at most this many whole lines…
const WINDOW_MAX_LINES: usize = 16;
/// …and at most this many bytes of text.
const WINDOW_MAX_BYTES: usize = 2048;

/// The body's lines `first..=last` (0-based), cut to the caps; `None` for an empty body or a
/// first line over the byte cap.
pub(super) fn window(body: &Body, first: usize, last: usize) -> Option<MissWindow> {
    let n = body.lines.len();
    if n == 0 {
        return None;
    }
    let first = first.min(n - 1);
    let last = last.clamp(first, (first + WINDOW_MAX_LINES - 1).min(n - 1));
    let start = body.lines[first].start;
    let mut end_line = first;
    for i in first..=last {
        if body.lines[i].end - start > WINDOW_MAX_BYTES {
            break;
        }
        end_line = i;
    }
    let end = body.lines[end_line].end;
    if end - start > WINDOW_MAX_BYTES {
        return None;
    }
    Some(MissWindow {
        start_line: first + 1,
        end_line: end_line + 1,
        text: String::from_utf8_lossy(&body.bytes[start..end]).into_owned(),
    })
}

fn no_match(
    body: &Body,
    lines: Option<(usize, usize)>,
    reason: MissReason,
    difference: String,
    fix: MissFix,
) -> HunkError {
    HunkError::NoMatch {
        reason,
        window: lines.and_then(|(first, last)| window(body, first, last)),
        difference,
        fix,
    }
}

/// A hunk with no old side that would go after line `pos` (its header's line, shifted),
/// outside the file or before where the hunk before it ended (`cursor`).
pub(super) fn insertion_out_of_range(body: &Body, pos: usize, cursor: usize) -> HunkError {
    let n = body.lines.len();
    let difference = if pos > n {
        format!("the hunk adds its lines after line {pos}, but the file has {n} lines")
    } else {
        format!(
            "the hunk adds its lines after line {pos}, but the hunk before it ends at line \
             {cursor}: hunks apply in file order"
        )
    };
    let around = n.saturating_sub(3);
    no_match(
        body,
        Some((around, n.saturating_sub(1))),
        MissReason::None,
        difference,
        MissFix::Read,
    )
}

/// Why `hunk` (old side `old`, sought at or after body line `from`) is not in the file.
///
/// With `fuzzy` on, a fuzzy match the planner finds in the whole file was not where the hunk
/// may go (it would have been applied, or reported ambiguous): the fix is the order.
pub(super) fn diagnose(
    body: &Body,
    hunk: &Hunk,
    old: &[&[u8]],
    from: usize,
    fuzzy: bool,
) -> HunkError {
    for pass in [Pass::Exact, Pass::Crlf] {
        if let Some(f) = body.candidates(old, 0, pass).first() {
            return no_match(
                body,
                Some((f.start, f.start + old.len() - 1)),
                MissReason::Similar,
                format!(
                    "the hunk's old lines are at line {}, before line {}, where it may go \
                     (after the hunk before it and its `@@` anchors): hunks of a file apply \
                     in file order",
                    f.start + 1,
                    from + 1
                ),
                MissFix::InOrder,
            );
        }
    }
    let fallback = |difference: &str| {
        no_match(
            body,
            Some((0, 4)),
            MissReason::None,
            difference.to_string(),
            MissFix::Read,
        )
    };
    let Ok(old_text) = String::from_utf8(side_text(hunk, true)) else {
        return fallback("the hunk's old lines are not valid UTF-8 and are not in the file");
    };
    let text = body.bytes.strip_prefix(BOM).unwrap_or(body.bytes);
    let edit = Edit {
        old: old_text,
        new: String::new(),
        replace_all: false,
    };
    match plan(text, &[edit], &PlanOptions::default()) {
        Err(PlanError::NoMatch {
            reason,
            window,
            difference,
            fix,
            ..
        }) => {
            let fuzzy_fix = matches!(
                fix,
                MissFix::Fuzzy | MissFix::FuzzyUnnumbered | MissFix::FuzzyUnescaped
            );
            let (difference, fix) = if fuzzy && fuzzy_fix {
                let place = format!(
                    "{difference}; that passage is before line {}, where the hunk may go \
                     (after the hunk before it and its `@@` anchors)",
                    from + 1
                );
                (place, MissFix::InOrder)
            } else {
                (difference, fix)
            };
            HunkError::NoMatch {
                reason,
                window,
                difference,
                fix,
            }
        }
        Ok(_) | Err(PlanError::Ambiguous { .. }) => no_match(
            body,
            None,
            MissReason::Similar,
            "the hunk's old lines occur in the file only inside longer lines".to_string(),
            MissFix::Quote,
        ),
        Err(_) => fallback("the hunk's old lines are not in the file"),
    }
}
