//! The `difference` of a passage that differs from `old` in content (a `similar` miss). The
//! lines of `old` and the file's lines around the candidate are compared as fuzzy matching
//! sees them (look-alikes, indentation and invisible chars folded) by a diff of lines, so
//! that each differing line is named — changed, missing or extra lines, blank-line counts
//! ("file has 2 blank lines where old has 1") — bounded like every listing (`describe`). It
//! reads only the lines around the candidate and must not search the file or choose it.

use std::ops::Range;

use similar::{Algorithm, DiffOp, capture_diff_slices};

use super::MAX_FUZZY_LINE;
use super::describe::{Item, QUOTE_MAX_CHARS, listed, quote};
use super::lines::{Cond, FLine, OldLine, cond_for, cond_holds_str, fline_at, locate, lossy};
use super::normalize::normalize;

/// File lines compared beyond the `k` lines old would cover, after them (and 2 before).
const EXTRA_LINES: usize = 8;

/// What a similar passage tells: the 0-based line to focus on, the sentence, and the
/// 0-based file lines old was aligned with (for the window).
pub(super) struct Contrast {
    pub(super) focus: usize,
    pub(super) difference: String,
    pub(super) lines: (usize, usize),
}

/// Old aligned so that its line 0 is near file line `shift` (negative: old starts above the
/// file); `hint` is a known `(line, offset)` of the file.
pub(super) fn similar_difference(
    text: &[u8],
    olds: &[OldLine<'_>],
    shift: isize,
    hint: (usize, usize),
) -> Contrast {
    let (olds, shift) = without_empty_ends(olds, shift);
    let region = Region::around(text, olds, shift, hint);
    let ops = capture_diff_slices(Algorithm::Myers, &region.onorm, &region.fnorm);
    let first_eq = ops.iter().position(|op| matches!(op, DiffOp::Equal { .. }));
    let last_eq = ops
        .iter()
        .rposition(|op| matches!(op, DiffOp::Equal { .. }));
    let mut tally = Tally::default();
    match (first_eq, last_eq) {
        (Some(fe), Some(le)) => region.diffed(&ops, fe, le, &mut tally),
        _ => region.aligned(shift, &mut tally),
    }
    region.contrast(tally, shift)
}

/// A first or last line of old that is empty is the end of the line before or the start of
/// the line after: not a line to compare. Old without them, and the shift of its new line 0.
fn without_empty_ends<'o, 'a>(olds: &'o [OldLine<'a>], shift: isize) -> (&'o [OldLine<'a>], isize) {
    let mut olds = olds;
    if olds.len() > 1 && olds.last().is_some_and(|o| o.raw.is_empty()) {
        olds = &olds[..olds.len() - 1];
    }
    let mut shift = shift;
    if olds.len() > 1 && olds[0].raw.is_empty() {
        olds = &olds[1..];
        shift += 1;
    }
    (olds, shift)
}

/// What the comparison found: the differences, and the region's lines that stand for a line
/// of old (the window shows them).
#[derive(Default)]
struct Tally {
    items: Vec<Item>,
    used: Vec<usize>,
}

/// Old's lines and the file's lines around the candidate (from 2 lines above where old would
/// start to `EXTRA_LINES` below where it would end), normalized as fuzzy matching sees them.
struct Region<'o, 'a, 't> {
    text: &'t [u8],
    olds: &'o [OldLine<'a>],
    /// The file line (0-based) of the region's first line.
    lo: usize,
    flines: Vec<FLine>,
    /// The region is shorter than wanted: it ends with the file.
    at_eof: bool,
    onorm: Vec<String>,
    fnorm: Vec<String>,
}

impl<'o, 'a, 't> Region<'o, 'a, 't> {
    fn around(
        text: &'t [u8],
        olds: &'o [OldLine<'a>],
        shift: isize,
        hint: (usize, usize),
    ) -> Region<'o, 'a, 't> {
        let k = olds.len();
        let lo = shift.saturating_sub(2).max(0) as usize;
        let want = (shift.max(0) as usize - lo) + k + EXTRA_LINES;
        let mut flines: Vec<FLine> = Vec::new();
        let mut at = locate(text, hint, lo);
        while let Some(off) = at {
            if flines.len() >= want || off >= text.len() {
                break;
            }
            let Some(f) = fline_at(text, off) else { break };
            flines.push(f);
            at = f.next_start();
        }
        let at_eof = flines.len() < want;
        let onorm: Vec<String> = olds.iter().map(|o| o.norm.iter().collect()).collect();
        let mut fnorm: Vec<String> = flines
            .iter()
            .map(|f| {
                let b = f.raw(text);
                normalize(&b[..b.len().min(MAX_FUZZY_LINE)])
                    .iter()
                    .map(|n| n.c)
                    .collect()
            })
            .collect();
        fold_partial_ends(olds, &onorm, &mut fnorm);
        Region {
            text,
            olds,
            lo,
            flines,
            at_eof,
            onorm,
            fnorm,
        }
    }

    /// The differences where the diff of lines found some line that agrees: each operation
    /// before the first agreeing line, after the last, or between.
    fn diffed(&self, ops: &[DiffOp], fe: usize, le: usize, tally: &mut Tally) {
        for (idx, op) in ops.iter().enumerate() {
            let (or, fr) = (op.old_range(), op.new_range());
            if matches!(op, DiffOp::Equal { .. }) {
                tally.used.extend(fr);
                continue;
            }
            let ob: Vec<usize> = or.clone().filter(|&j| !self.onorm[j].is_empty()).collect();
            let fb: Vec<usize> = fr.clone().filter(|&i| !self.fnorm[i].is_empty()).collect();
            if idx < fe {
                self.before_agreement(or, fr, &ob, &fb, tally);
            } else if idx > le {
                self.after_agreement(or, fr, &ob, &fb, tally);
            } else {
                self.between_agreements(or, fr, &ob, &fb, tally);
            }
        }
    }

    /// Before old's first agreeing line: pair from the end; file lines above are not part of
    /// the passage. `ob` and `fb` are the non-blank lines of `or` (old) and `fr` (the file).
    fn before_agreement(
        &self,
        or: Range<usize>,
        fr: Range<usize>,
        ob: &[usize],
        fb: &[usize],
        tally: &mut Tally,
    ) {
        let n = ob.len().min(fb.len());
        for (&j, &i) in ob.iter().rev().zip(fb.iter().rev()) {
            tally.items.push(self.changed(j, i));
            tally.used.push(i);
        }
        if n > 0 {
            let (j0, i0) = (ob[ob.len() - n], fb[fb.len() - n]);
            tally.items.extend(self.blank_count(j0..or.end, i0..fr.end));
        }
        let at = fb.len().checked_sub(n).and_then(|x| fb.get(x)).copied();
        let at = at.unwrap_or(fr.end) as isize;
        for &j in &ob[..ob.len() - n] {
            tally.items.push(self.missing(j, at));
        }
    }

    /// After old's last agreeing line: pair from the start; file lines below are not part of
    /// it.
    fn after_agreement(
        &self,
        or: Range<usize>,
        fr: Range<usize>,
        ob: &[usize],
        fb: &[usize],
        tally: &mut Tally,
    ) {
        for (&j, &i) in ob.iter().zip(fb) {
            tally.items.push(self.changed(j, i));
            tally.used.push(i);
        }
        let n = ob.len().min(fb.len());
        if n > 0 {
            let (j1, i1) = (ob[n - 1] + 1, fb[n - 1] + 1);
            tally
                .items
                .extend(self.blank_count(or.start..j1, fr.start..i1));
        }
        let at = fb
            .get(ob.len().min(fb.len()).saturating_sub(1))
            .map_or(fr.start, |&i| i + 1);
        for (d, &j) in ob.iter().skip(fb.len()).enumerate() {
            tally.items.push(self.missing(j, (at + d) as isize));
            if self.at_eof && at + d >= self.flines.len() {
                break;
            }
        }
    }

    /// Between two agreeing lines: lines changed, missing from the file, or extra in it.
    fn between_agreements(
        &self,
        or: Range<usize>,
        fr: Range<usize>,
        ob: &[usize],
        fb: &[usize],
        tally: &mut Tally,
    ) {
        tally.used.extend(fr.clone());
        for (&j, &i) in ob.iter().zip(fb) {
            tally.items.push(self.changed(j, i));
        }
        for &j in ob.iter().skip(fb.len()) {
            tally.items.push(self.missing(j, fr.end as isize));
        }
        for &i in fb.iter().skip(ob.len()) {
            tally.items.push(Item::new(
                self.lo + i + 1,
                format!("file has {} that old lacks", self.quote_file(i)),
            ));
        }
        tally.items.extend(self.blank_count(or, fr));
    }

    /// No line agrees: old line j stands where the alignment put it.
    fn aligned(&self, shift: isize, tally: &mut Tally) {
        let base = shift - self.lo as isize;
        for (j, o) in self.onorm.iter().enumerate() {
            let i = base + j as isize;
            match usize::try_from(i).ok().filter(|&i| i < self.flines.len()) {
                Some(i) => {
                    tally.used.push(i);
                    if *o != self.fnorm[i] {
                        tally.items.push(self.changed(j, i));
                    }
                }
                None if o.is_empty() => {}
                None => {
                    tally.items.push(self.missing(j, i));
                    if i >= 0 && self.at_eof {
                        break;
                    }
                }
            }
        }
    }

    /// The sentence, its line, and the file lines old was aligned with.
    fn contrast(&self, mut tally: Tally, shift: isize) -> Contrast {
        let lo = self.lo;
        tally.items.sort_by_key(|i| i.line);
        let lines = match (tally.used.iter().min(), tally.used.iter().max()) {
            (Some(&a), Some(&b)) => (lo + a, lo + b),
            _ => (lo, lo),
        };
        match tally.items.first() {
            Some(first) => Contrast {
                focus: first.line - 1,
                difference: listed(&tally.items),
                lines,
            },
            None => {
                // Every line agrees as compared here (old's ends inside longer lines).
                let li = shift.max(0) as usize;
                Contrast {
                    focus: li,
                    difference: format!(
                        "line {}: old is close to the file here but not the same",
                        li + 1
                    ),
                    lines,
                }
            }
        }
    }

    /// The region's file line `i`, quoted.
    fn quote_file(&self, i: usize) -> String {
        let b = self.flines[i].raw(self.text);
        quote(&lossy(&b[..b.len().min(QUOTE_MAX_CHARS * 5)]))
    }

    /// Old's line `j`, which no file line stands for, at file line `i` of the region.
    fn missing(&self, j: usize, i: isize) -> Item {
        let q = quote(self.olds[j].raw);
        if i < 0 || (i == 0 && self.lo == 0) {
            Item::new(1, format!("old has {q} before the file's first line"))
        } else if self.at_eof && i as usize >= self.flines.len() {
            Item::new(
                self.lo + self.flines.len() + 1,
                format!("the file ends where old continues with {q}"),
            )
        } else {
            Item::new(
                self.lo + i as usize + 1,
                format!("old has {q} that the file lacks"),
            )
        }
    }

    /// Old's line `j` stands at the region's file line `i`, which differs.
    fn changed(&self, j: usize, i: usize) -> Item {
        Item::new(
            self.lo + i + 1,
            format!(
                "file has {} where old has {}",
                self.quote_file(i),
                quote(self.olds[j].raw)
            ),
        )
    }

    fn blank_count(&self, or: Range<usize>, fr: Range<usize>) -> Option<Item> {
        blank_count(&self.onorm, &self.fnorm, or, fr, self.lo)
    }
}

/// old's first line may end a file line and its last begin one: such a file line counts as
/// that line of old.
fn fold_partial_ends(olds: &[OldLine<'_>], onorm: &[String], fnorm: &mut [String]) {
    let k = olds.len();
    for (j, cond) in [(0, cond_for(olds, 0)), (k - 1, cond_for(olds, k - 1))] {
        let Some(o) = onorm.get(j) else { continue };
        if cond == Cond::Equal || o.is_empty() {
            continue;
        }
        for f in fnorm.iter_mut() {
            if cond_holds_str(cond, f, o) {
                f.clone_from(o);
            }
        }
    }
}

/// "file has 2 blank lines where old has 1" when the blank lines of `or` (old) and `fr`
/// (the region's file lines, which start at file line `lo`) differ in number; the counts
/// are of the whole blank runs around them.
fn blank_count(
    onorm: &[String],
    fnorm: &[String],
    or: Range<usize>,
    fr: Range<usize>,
    lo: usize,
) -> Option<Item> {
    let blank = |t: &[String]| t.iter().filter(|t| t.is_empty()).count();
    if blank(&onorm[or.clone()]) == blank(&fnorm[fr.clone()]) {
        return None;
    }
    let (_, run_o) = blank_run(onorm, or.start, or.len());
    let (start_f, run_f) = blank_run(fnorm, fr.start, fr.len());
    Some(Item::new(
        lo + start_f + 1,
        format!("file has {} where old has {}", blanks(run_f), blanks(run_o)),
    ))
}

/// `(first line, length)` of the run of blank tokens around `toks[at..at + len]`.
fn blank_run(toks: &[String], at: usize, len: usize) -> (usize, usize) {
    let before = toks[..at].iter().rev().take_while(|t| t.is_empty()).count();
    let inside = toks[at..at + len].iter().filter(|t| t.is_empty()).count();
    let after = toks[at + len..].iter().take_while(|t| t.is_empty()).count();
    (at - before, before + inside + after)
}

fn blanks(n: usize) -> String {
    match n {
        0 => "no blank line".into(),
        1 => "1 blank line".into(),
        n => format!("{n} blank lines"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::edit::repair::lines::old_lines;

    fn sim(text: &str, old: &str, shift: isize) -> (usize, String) {
        let c = similar_difference(text.as_bytes(), &old_lines(old), shift, (0, 0));
        (c.focus, c.difference)
    }

    fn say(focus: usize, s: &str) -> (usize, String) {
        (focus, s.to_string())
    }

    #[test]
    fn similar_sentences() {
        assert_eq!(
            sim("a\nb\nc\n", "a\nB\nc", 0),
            say(1, "line 2: file has \"b\" where old has \"B\"")
        );
        assert_eq!(
            sim("first\nsecond\n", "zero\nfirst", -1),
            say(0, "line 1: old has \"zero\" before the file's first line")
        );
        // A blank line of old above the file is no difference.
        assert_eq!(
            sim("first\nsecond\n", "\nfirst\nthird", -1),
            say(1, "line 2: file has \"second\" where old has \"third\"")
        );
        assert_eq!(
            sim("a\nb\n", "a\nb\nc", 0),
            say(2, "line 3: the file ends where old continues with \"c\"")
        );
        // Lines are compared as fuzzy matching would: look-alikes and indentation fold.
        assert_eq!(
            sim("\tsay(\u{2018}a\u{2019})\nb\n", "say('a')\nc", 0),
            say(1, "line 2: file has \"b\" where old has \"c\"")
        );
        // Both sides are quoted raw and cut at 120 chars.
        let long = "x".repeat(200);
        let (_, s) = sim(&format!("{long}1\n"), &format!("{long}2"), 0);
        assert_eq!(
            s,
            format!(
                "line 1: file has \"{0}…\" where old has \"{0}…\"",
                "x".repeat(120)
            )
        );
    }

    #[test]
    fn every_differing_line_is_named() {
        let text = "one = 1\ntwo = 2\nthree = 3\nfour = 4\nfive = 5\n";
        assert_eq!(
            sim(text, "one = 1\ntwo = 22\nthree = 3\nfour = 44", 0),
            say(
                1,
                "line 2: file has \"two = 2\" where old has \"two = 22\"; line 4: file has \
                 \"four = 4\" where old has \"four = 44\""
            )
        );
        // A line old lacks and a line the file lacks.
        assert_eq!(
            sim(text, "one = 1\nthree = 3\nfour = 4\nsix = 6\nfive = 5", 0),
            say(
                1,
                "line 2: file has \"two = 2\" that old lacks; line 5: old has \"six = 6\" that \
                 the file lacks"
            )
        );
    }

    #[test]
    fn blank_line_counts() {
        assert_eq!(
            sim("a = 1\n\n\nb = 2\n", "a = 1\n\nb = 2", 0),
            say(
                1,
                "line 2: file has 2 blank lines where old has 1 blank line"
            )
        );
        assert_eq!(
            sim("a = 1\nb = 2\n", "a = 1\n\nb = 2", 0),
            say(
                1,
                "line 2: file has no blank line where old has 1 blank line"
            )
        );
        assert_eq!(
            sim("a = 1\n\nb = 2\nc\n", "a = 1\n\n\n\nb = 3", 0),
            say(
                1,
                "line 2: file has 1 blank line where old has 3 blank lines; line 3: file has \
                 \"b = 2\" where old has \"b = 3\""
            )
        );
    }

    #[test]
    fn the_passage_is_what_old_was_aligned_with() {
        let text = "x\ny\na = 1\n\n\nb = 2\nz\nw\n";
        let c = similar_difference(text.as_bytes(), &old_lines("a = 1\n\nb = 2\n"), 2, (0, 0));
        assert_eq!(c.lines, (2, 5));
        assert_eq!(c.focus, 3);
    }
}
