//! The change made outside between a version of a file the session knows and the file as it is
//! now, as line hunks (docs/model.md#a-living-tree) — pure, no I/O. It answers the two
//! questions a merge asks: does a call's region (the lines it changes, in the current file)
//! meet that change (`Outside::meets`), and where are the lines a line-addressed edit numbered
//! in the known version now (`Outside::translate`, as `patch` applies a hunk at an offset).
//!
//! Lines are split after `\n` (a `\r` stays part of its line), as `text::diff` splits them.
//! Two regions meet when they share a line, when a deletion or insertion of one falls strictly
//! inside the other, or when both insert at the same place; a change on the line next to a
//! region does not meet it (git's merge counts adjacency as a conflict; quill does not, so a
//! formatter's change of the line above a function never blocks an edit inside it).

use std::ops::Range;

use schemars::JsonSchema;
use serde::Serialize;
use similar::{Algorithm, DiffTag, capture_diff_slices};

use super::plan::LineSpan;
use crate::text::diff::split_lines;

/// What changed in a file since the version a session knows (docs/model.md#a-living-tree): in
/// a `stale` answer (`error.change`) and in an edit `--merge` landed over it
/// (`outsideChange`).
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct OutsideChange {
    /// The version the diff starts from: `read` (the session's read), `write` (its own last
    /// change of the file), `shown` (the version an earlier `stale` answer showed).
    pub since: &'static str,
    /// Bare unified hunks from that version to the file as it is now, as a mutation's `diff`
    /// (at most 200 lines; UTF-16 and legacy encodings shown decoded). For a conflict or a
    /// line-addressed edit the hunks nearest the call's lines come first, so that a cut keeps
    /// the ones it needs.
    pub diff: String,
    /// Lines only in the current file.
    pub added: usize,
    /// Lines only in the version the session knows.
    pub removed: usize,
    /// `diff` was cut at 200 lines.
    pub diff_truncated: bool,
    /// The change now counts as seen by the session for edits: the same `edit` or `apply` sent
    /// again is judged against the current file (its `old` must still match, once), and a
    /// line-addressed edit sent again has its lines moved with the change. False: the call as
    /// sent cannot go on — it meets the change (`overlap`: redo it against the current text,
    /// which the diff shows and which now counts as seen), or it needs a read first (a
    /// whole-file `write`, `rm`; `--strict`; a line-addressed edit after the session's own
    /// change), or it is an `undo` (repair the file with an edit instead).
    pub resend: bool,
    /// The lines of the current file where the change meets the lines the call changes (a
    /// conflict: nothing was written).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub overlap: Option<LineSpan>,
    /// A line-addressed edit: where the lines it numbered (in the version read) are now.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lines_now: Option<LineSpan>,
    /// Why a call with `resend: false` and no `overlap` cannot go on from the change alone
    /// (for the hint): `whole` (write, rm), `strict`, `lines` (a line-addressed edit after
    /// the session's own change), `undo`, `cut` (the diff was cut: not all of the change was
    /// shown), `dry_run` (nothing recorded).
    #[serde(skip)]
    pub refused: &'static str,
}

impl OutsideChange {
    /// The version the change starts from, in words: "the session's …".
    pub(crate) fn since_words(&self) -> &'static str {
        match self.since {
            "write" => "own last change",
            "shown" => "last look",
            _ => "read",
        }
    }
}

/// One changed stretch: lines `old` of the known version became lines `new` of the current
/// one (0-based, half-open; an empty range is a point: an insertion or a deletion there).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Hunk {
    pub old: Range<usize>,
    pub new: Range<usize>,
}

/// The change between two versions, hunk by hunk in order.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub(crate) struct Outside {
    pub hunks: Vec<Hunk>,
}

/// The change from `known` to `now`. Common leading and trailing lines are matched first, so
/// the diff proper only sees the middle.
pub(crate) fn between(known: &[u8], now: &[u8]) -> Outside {
    let (a, b) = (split_lines(known), split_lines(now));
    let head = a.iter().zip(&b).take_while(|(x, y)| x == y).count();
    let tail = a[head..]
        .iter()
        .rev()
        .zip(b[head..].iter().rev())
        .take_while(|(x, y)| x == y)
        .count();
    let (mid_a, mid_b) = (&a[head..a.len() - tail], &b[head..b.len() - tail]);
    let mut hunks: Vec<Hunk> = Vec::new();
    for op in capture_diff_slices(Algorithm::Myers, mid_a, mid_b) {
        if op.tag() == DiffTag::Equal {
            continue;
        }
        let (o, n) = (op.old_range(), op.new_range());
        let hunk = Hunk {
            old: o.start + head..o.end + head,
            new: n.start + head..n.end + head,
        };
        // Adjacent ops (a delete next to an insert) are one hunk.
        match hunks.last_mut() {
            Some(last) if last.old.end == hunk.old.start && last.new.end == hunk.new.start => {
                last.old.end = hunk.old.end;
                last.new.end = hunk.new.end;
            }
            _ => hunks.push(hunk),
        }
    }
    Outside { hunks }
}

/// Whether two line ranges of one version meet (see the module comment).
fn meet(x: &Range<usize>, y: &Range<usize>) -> bool {
    match (x.is_empty(), y.is_empty()) {
        (false, false) => x.start < y.end && y.start < x.end,
        (true, false) => y.start < x.start && x.start < y.end,
        (false, true) => x.start < y.start && y.start < x.end,
        (true, true) => x.start == y.start,
    }
}

/// Whether hunk `h` meets `region`, a range of the current version: as `meet`, and an
/// insertion of the call's right before or after lines the outside change inserted (both
/// inserted at one place: which goes first is not quill's to decide).
fn meets_now(h: &Hunk, region: &Range<usize>) -> bool {
    meet(&h.new, region)
        || (h.old.is_empty()
            && region.is_empty()
            && (region.start == h.new.start || region.start == h.new.end))
}

/// A range of lines as people number them: 1-based, inclusive (a point shows as the two
/// lines around it).
fn shown(r: &Range<usize>) -> (usize, usize) {
    if r.is_empty() {
        (r.start.max(1), r.start + 1)
    } else {
        (r.start + 1, r.end)
    }
}

impl Outside {
    /// The first outside hunk that meets one of `regions` (lines of the current version),
    /// as the current version's lines (1-based, inclusive) it covers.
    pub(crate) fn meets(&self, regions: &[Range<usize>]) -> Option<(usize, usize)> {
        self.hunks
            .iter()
            .find(|h| regions.iter().any(|r| meets_now(h, r)))
            .map(|h| shown(&h.new))
    }

    /// The current lines the whole change spans (None: nothing changed).
    pub(crate) fn span(&self) -> Option<(usize, usize)> {
        let (first, last) = (self.hunks.first()?, self.hunks.last()?);
        Some(shown(&(first.new.start..last.new.end.max(first.new.start))))
    }

    /// Where lines `first..=last` of the known version (1-based; `last = first - 1` is the
    /// point after line `first - 1`: an insertion there) are in the current one — or, when the
    /// outside change touched them, the current lines of the hunk that did.
    pub(crate) fn translate(
        &self,
        first: usize,
        last: usize,
    ) -> Result<(usize, usize), (usize, usize)> {
        let region = first.saturating_sub(1)..last;
        let mut shift: isize = 0;
        for h in &self.hunks {
            if meet(&h.old, &region) {
                return Err(shown(&h.new));
            }
            // A hunk wholly before the region (an insertion right at its start included).
            let before = if h.old.is_empty() {
                h.old.start < region.start || (h.old.start == region.start && !region.is_empty())
            } else {
                h.old.end <= region.start
            };
            if before {
                shift += h.new.len() as isize - h.old.len() as isize;
            }
        }
        let at = |n: usize| (n as isize + shift).max(0) as usize;
        Ok((at(first), at(last)))
    }
}

/// The lines `regions` span, as people number them (None: no region).
pub(crate) fn around(regions: &[Range<usize>]) -> Option<(usize, usize)> {
    let first = regions.iter().map(|r| r.start).min()?;
    let last = regions.iter().map(|r| r.end).max()?;
    Some((first + 1, last.max(first + 1)))
}

/// The lines of `before` that `after` changes, as ranges of `before` (the region of a call:
/// what it rewrote, in the version it applied to).
pub(crate) fn changed_regions(before: &[u8], after: &[u8]) -> Vec<Range<usize>> {
    between(before, after)
        .hunks
        .into_iter()
        .map(|h| h.old)
        .collect()
}

#[cfg(test)]
#[allow(clippy::single_range_in_vec_init)] // one region per call is the common case
mod tests {
    use super::*;

    fn text(lines: &[&str]) -> Vec<u8> {
        lines
            .iter()
            .map(|l| format!("{l}\n"))
            .collect::<String>()
            .into_bytes()
    }

    #[test]
    fn hunks_of_a_change_elsewhere() {
        let known = text(&["a", "b", "c", "d", "e"]);
        let now = text(&["a", "B", "c", "d", "e", "f"]);
        let o = between(&known, &now);
        assert_eq!(
            o.hunks,
            vec![
                Hunk {
                    old: 1..2,
                    new: 1..2
                },
                Hunk {
                    old: 5..5,
                    new: 5..6
                }
            ]
        );
        // The edit of line 4 ("d") in the current file does not meet either.
        assert_eq!(o.meets(&[3..4]), None);
        // Of line 2, it does.
        assert_eq!(o.meets(&[1..2]), Some((2, 2)));
        // An insertion at the end meets an insertion at the end.
        assert_eq!(o.meets(&[5..5]), Some((6, 6)));
        assert!(between(&known, &known).hunks.is_empty());
    }

    #[test]
    fn adjacent_changes_do_not_meet() {
        let known = text(&["a", "b", "c"]);
        let now = text(&["A", "b", "C"]);
        let o = between(&known, &now);
        assert_eq!(o.meets(&[1..2]), None);
        // An insertion between two changed lines does not meet them.
        assert_eq!(o.meets(&[1..1]), None);
        // A deletion strictly inside a region meets it.
        let gone = between(&text(&["a", "b", "c", "d"]), &text(&["a", "b", "d"]));
        assert_eq!(gone.meets(&[1..3]), Some((2, 3)));
        assert_eq!(gone.meets(&[0..2]), None);
    }

    #[test]
    fn line_numbers_follow_lines_inserted_above() {
        let known = text(&["a", "b", "c", "d", "e"]);
        let now = text(&["x", "y", "a", "b", "c", "d", "e"]);
        let o = between(&known, &now);
        assert_eq!(o.translate(3, 4), Ok((5, 6)));
        // The point at the top (insert after line 0) meets the insertion there.
        assert_eq!(o.translate(1, 0), Err((1, 2)));
        // An insertion after line 2.
        assert_eq!(o.translate(3, 2), Ok((5, 4)));
    }

    #[test]
    fn line_numbers_through_a_change_inside_are_refused() {
        let known = text(&["a", "b", "c", "d", "e"]);
        let now = text(&["a", "b", "C", "d", "e"]);
        let o = between(&known, &now);
        assert_eq!(o.translate(2, 4), Err((3, 3)));
        assert_eq!(o.translate(4, 5), Ok((4, 5)));
        assert_eq!(o.translate(1, 2), Ok((1, 2)));
        // Lines removed above shift up.
        let o = between(&known, &text(&["c", "d", "e"]));
        assert_eq!(o.translate(4, 5), Ok((2, 3)));
        assert_eq!(o.translate(2, 3), Err((1, 1)));
        // A point shows as the lines around it.
        assert_eq!(shown(&(0..0)), (1, 1));
    }

    #[test]
    fn around_spans_the_regions() {
        assert_eq!(around(&[3..4, 9..9]), Some((4, 9)));
        assert_eq!(around(&[5..5]), Some((6, 6)));
        assert_eq!(around(&[]), None);
    }

    #[test]
    fn a_call_region_is_what_it_changed() {
        let before = text(&["a", "b", "c"]);
        let after = text(&["a", "B", "c", "d"]);
        assert_eq!(changed_regions(&before, &after), vec![1..2, 3..3]);
    }

    proptest::proptest! {
        /// Lines untouched by the change translate onto equal lines; `between` never panics.
        #[test]
        fn translation_lands_on_the_same_line(
            known in proptest::collection::vec(0u8..6, 0..30),
            now in proptest::collection::vec(0u8..6, 0..30),
            line in 1usize..30,
        ) {
            let k: Vec<u8> = known.iter().flat_map(|b| [b'a' + b, b'\n']).collect();
            let n: Vec<u8> = now.iter().flat_map(|b| [b'a' + b, b'\n']).collect();
            let o = between(&k, &n);
            if line <= known.len()
                && let Ok((a, b)) = o.translate(line, line)
            {
                proptest::prop_assert_eq!(a, b);
                proptest::prop_assert_eq!(known[line - 1], now[a - 1]);
            }
        }
    }
}
