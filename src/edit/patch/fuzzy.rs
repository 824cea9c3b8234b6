//! The `--fuzzy` fallback of `apply`: a hunk whose old side is not in the file line for line is
//! handed to `edit`'s planner as one `old → new` edit on the part of the file at and after where
//! it may go, which accepts a unique whitespace / look-alike match and keeps the file's
//! characters wherever the hunk keeps a line. Only a fuzzy match spanning whole lines counts:
//! an exact match inside longer lines is no line match. Pure; no I/O, no panics.

use crate::edit::plan::{Edit, PlanError, PlanOptions, plan};

use super::locate::Body;
use super::text::BOM;
use super::{Hunk, HunkError, HunkLine};

/// A fuzzy placement: body lines `first_line..first_line + line_count` (bytes
/// `start_byte..end_byte`) become `replacement`.
pub(super) struct FuzzyPlace {
    pub start_byte: usize,
    pub end_byte: usize,
    pub replacement: Vec<u8>,
    pub first_line: usize,
    pub line_count: usize,
}

/// The text of one side of a hunk: its lines, each with `\n` but a last one marked as
/// having none.
pub(super) fn side_text(hunk: &Hunk, old: bool) -> Vec<u8> {
    let lines: Vec<&[u8]> = hunk
        .lines
        .iter()
        .filter_map(|l| match (l, old) {
            (HunkLine::Context(c), _) | (HunkLine::Remove(c), true) | (HunkLine::Add(c), false) => {
                Some(c.as_slice())
            }
            _ => None,
        })
        .collect();
    let no_eol = if old {
        hunk.old_no_eol
    } else {
        hunk.new_no_eol
    };
    let mut out = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        out.extend_from_slice(line);
        if !(no_eol && i + 1 == lines.len()) {
            out.push(b'\n');
        }
    }
    out
}

/// The unique fuzzy match of `hunk` at or after body line `from`; `Ok(None)` when there is
/// none (or the hunk is not text the planner can take); `Err(Ambiguous)` when several.
pub(super) fn locate(
    body: &Body,
    hunk: &Hunk,
    from: usize,
) -> Result<Option<FuzzyPlace>, HunkError> {
    let (Ok(old), Ok(new)) = (
        String::from_utf8(side_text(hunk, true)),
        String::from_utf8(side_text(hunk, false)),
    ) else {
        return Ok(None);
    };
    let n = body.lines.len();
    if old.is_empty() || old == new || from >= n {
        return Ok(None);
    }
    let bom = if from == 0 && body.has_bom() {
        BOM.len()
    } else {
        0
    };
    let tail_start = body.lines[from].start + bom;
    let tail = &body.bytes[tail_start..];
    let edit = Edit {
        old,
        new,
        replace_all: false,
    };
    let opts = PlanOptions {
        fuzzy: true,
        expect_count: None,
    };
    let planned = match plan(tail, &[edit], &opts) {
        Ok(p) => p,
        Err(PlanError::Ambiguous { count, lines, .. }) => {
            return Err(HunkError::Ambiguous {
                count,
                lines: lines.into_iter().map(|l| l + from).collect(),
            });
        }
        Err(_) => return Ok(None),
    };
    let [span] = planned.spans.as_slice() else {
        return Ok(None);
    };
    if !planned.matched_fuzzily || span.start_line == 0 || span.end_line < span.start_line {
        return Ok(None);
    }
    let first = from + span.start_line - 1;
    let last = from + span.end_line - 1;
    let (Some(first_l), Some(last_l)) = (body.lines.get(first), body.lines.get(last)) else {
        return Ok(None);
    };
    // The replaced lines, in tail coordinates; everything around them must be untouched.
    let ls = first_l.start.max(tail_start) - tail_start;
    let le = last_l.end - tail_start;
    let after = tail.len() - le;
    let out = &planned.new_body;
    if out.len() < ls + after || out[..ls] != tail[..ls] || out[out.len() - after..] != tail[le..] {
        return Ok(None);
    }
    Ok(Some(FuzzyPlace {
        start_byte: tail_start + ls,
        end_byte: tail_start + le,
        replacement: out[ls..out.len() - after].to_vec(),
        first_line: first,
        line_count: last - first + 1,
    }))
}
