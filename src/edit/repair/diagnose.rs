//! The verdict on a miss. One streaming pass over the file's lines collects anchor hits (file
//! lines that could be `old`'s most selective line) and votes for alignments where whole
//! normalized lines of `old` reappear. Anchor hits verified line by line become
//! whitespace-equivalent [`FuzzyMatch`]es; failing those, the same scan for `old` without
//! read's line numbers or with its escapes read (`rewrite`) may find them; else the
//! best-voted alignment, else the line closest to `old` by edit distance, makes a `similar`
//! verdict; else `nothing`, with the line sharing most words as its window. Every stage is
//! capped (hits, matches, votes, line length), so the cost stays linear in the file. It must
//! not word sentences (`describe`, `content`) or cut windows (`window`).

use super::content::similar_difference;
use super::describe::whitespace_difference;
use super::lines::{
    Cond, OldLine, cond_for, cond_holds_str, cond_positions, file_lines, fline_at, indent_len,
    line_start_back, old_lines,
};
use super::normalize::{NChar, is_combining, normalize, normalize_into};
use super::rewrite::{Rewrite, escape_note};
use super::window::{head_window, window_around};
use super::{Diagnosis, FuzzyMatch, MAX_FUZZY_LINE};
use std::collections::HashMap;

/// Candidate lines kept from the scan and fuzzy matches verified; beyond these, the count
/// of an ambiguous fuzzy match is a lower bound.
const MAX_ANCHOR_HITS: usize = 100_000;
const MAX_MATCHES: usize = 10_000;
const MAX_VOTE_HITS: usize = 1_000_000;
/// File lines kept for edit-distance scoring when no line of `old` matches outright.
const TOP_SIMILAR: usize = 16;
const MIN_SIMILARITY: f64 = 0.6;

/// The verdict on `old`, which is not in `text` byte for byte: a whitespace match, else
/// one after taking out line numbers or reading escapes (`rewrite`), else a similar passage,
/// else nothing (still with the best-effort window).
pub(crate) fn diagnose(text: &[u8], old: &str) -> Diagnosis {
    let first = scan(text, old, false);
    if matches!(first, Diagnosis::Whitespace { .. }) {
        return first;
    }
    for rewrite in [Rewrite::Unnumbered, Rewrite::Unescaped] {
        let Some(again) = rewrite.rewrite_old(old) else {
            continue;
        };
        if let Diagnosis::Whitespace {
            matches, window, ..
        } = scan(text, &again, true)
        {
            let lines: Vec<usize> = matches.iter().take(5).map(|m| m.first_line + 1).collect();
            return Diagnosis::Rewritten {
                rewrite,
                difference: rewrite.difference(old, &lines, matches.len()),
                old: again,
                matches,
                window,
            };
        }
    }
    let note = |d: String| match escape_note(old) {
        Some(n) => format!("{d}; {n}"),
        None => d,
    };
    match first {
        Diagnosis::Similar { window, difference } => Diagnosis::Similar {
            window,
            difference: note(difference),
        },
        Diagnosis::Nothing { window, difference } => Diagnosis::Nothing {
            window,
            difference: note(difference),
        },
        d => d,
    }
}

/// The verdict from `old` as it is; `whitespace_only` stops after the whitespace matches
/// (a rewritten old is only wanted when it matches).
fn scan(text: &[u8], old: &str, whitespace_only: bool) -> Diagnosis {
    let olds = old_lines(old);
    let k = olds.len();
    let Some(anchor) = pick_anchor(&olds) else {
        return Diagnosis::Nothing {
            window: head_window(text),
            difference: "old is only whitespace, so there is nothing to look for".into(),
        };
    };
    let anchor_cond = cond_for(&olds, anchor);
    let anchor_norm: String = olds[anchor].norm.iter().collect();

    let mut index: HashMap<String, Vec<usize>> = HashMap::new();
    let mut nontrivial = 0;
    for (j, l) in olds.iter().enumerate() {
        if l.norm.iter().filter(|c| c.is_alphanumeric()).count() >= 3 {
            nontrivial += 1;
            index.entry(l.norm.iter().collect()).or_default().push(j);
        }
    }

    // One pass over the file's lines: anchor hits (whitespace candidates) and votes for
    // alignments where whole normalized lines of old reappear (similar candidates).
    let mut anchor_hits: Vec<(usize, usize)> = Vec::new();
    let mut votes: HashMap<isize, (usize, usize, usize)> = HashMap::new();
    let mut vote_hits = 0;
    let mut buf = String::new();
    let mut line_count = 0;
    let mut at = Some(0);
    while let Some(start) = at {
        let Some(l) = fline_at(text, start) else {
            break;
        };
        let li = line_count;
        line_count += 1;
        // Giant lines (minified files) are not fuzzy candidates: they would cost memory
        // proportional to the line for a match no window could show.
        if l.raw(text).len() > MAX_FUZZY_LINE {
            buf.clear();
            buf.push('\u{FFFD}');
        } else {
            normalize_into(l.raw(text), &mut buf);
        }
        if anchor_hits.len() < MAX_ANCHOR_HITS && cond_holds_str(anchor_cond, &buf, &anchor_norm) {
            anchor_hits.push((li, start));
        }
        if vote_hits < MAX_VOTE_HITS
            && let Some(js) = index.get(buf.as_str())
        {
            for &j in js {
                vote_hits += 1;
                let e = votes
                    .entry(li as isize - j as isize)
                    .or_insert((0, li, start));
                e.0 += 1;
            }
        }
        at = l.next_start();
    }
    let shown_lines = if text.last() == Some(&b'\n') || text.is_empty() {
        line_count.saturating_sub(1)
    } else {
        line_count
    };

    let matches = verify(text, &olds, anchor, &anchor_hits);
    if let Some(first) = matches.first() {
        let (focus, difference) = whitespace_difference(text, &olds, first, matches.len());
        let window = window_around(
            text,
            (first.first_line, first.line_start),
            (first.first_line, first.first_line + k.saturating_sub(1)),
            focus,
            shown_lines,
        );
        return Diagnosis::Whitespace {
            matches,
            window,
            difference,
        };
    }
    if whitespace_only {
        return Diagnosis::Nothing {
            window: None,
            difference: String::new(),
        };
    }

    // Similar: the alignment most lines of old agree with, else the line closest to the
    // anchor by edit distance.
    let best_vote = votes
        .iter()
        .map(|(&shift, &(n, li, off))| (n, std::cmp::Reverse(shift), li, off))
        .max();
    let mut alignment = None;
    if let Some((n, std::cmp::Reverse(shift), li, off)) = best_vote
        && n * 2 >= nontrivial.max(1)
    {
        alignment = Some((shift, li, off));
    }
    let closest = if alignment.is_none() {
        closest_line(text, &olds)
    } else {
        None
    };
    if let Some((j, li, off, ratio)) = closest
        && ratio >= MIN_SIMILARITY
    {
        alignment = Some((li as isize - j as isize, li, off));
    }
    let Some((shift, hint_line, hint_off)) = alignment else {
        // Nothing alike: the line that shares most words with old, else the file's start.
        let window = match closest {
            Some((_, li, off, _)) => window_around(text, (li, off), (li, li), li, shown_lines),
            None => head_window(text),
        };
        return Diagnosis::Nothing {
            window,
            difference: "no line of old appears in the file, even ignoring whitespace".into(),
        };
    };
    let c = similar_difference(text, &olds, shift, (hint_line, hint_off));
    let window = window_around(text, (hint_line, hint_off), c.lines, c.focus, shown_lines);
    Diagnosis::Similar {
        window,
        difference: c.difference,
    }
}

/// The line of `old` whose normalized form is most selective: prefer lines that must match
/// whole, then the longest.
fn pick_anchor(olds: &[OldLine<'_>]) -> Option<usize> {
    (0..olds.len())
        .filter(|&j| !olds[j].norm.is_empty())
        .max_by_key(|&j| {
            (
                cond_for(olds, j) == Cond::Equal,
                olds[j].norm.len(),
                std::cmp::Reverse(j),
            )
        })
}

/// Full checks of every anchor hit; matches in file order.
fn verify(
    text: &[u8],
    olds: &[OldLine<'_>],
    anchor: usize,
    hits: &[(usize, usize)],
) -> Vec<FuzzyMatch> {
    let mut out = Vec::new();
    for &(li, off) in hits {
        if out.len() >= MAX_MATCHES {
            break;
        }
        let Some(first_line) = li.checked_sub(anchor) else {
            continue;
        };
        let Some(s_off) = line_start_back(text, off, anchor) else {
            continue;
        };
        verify_at(text, olds, s_off, first_line, false, &mut out);
        // old ends with a newline the file's last line lacks.
        if olds.len() >= 2
            && olds.last().is_some_and(|o| o.raw.is_empty())
            && anchor + 1 < olds.len()
        {
            verify_at(text, olds, s_off, first_line, true, &mut out);
        }
    }
    out
}

/// Checks old against the lines from `s_off`; with `at_eof`, old's final empty line stands
/// for the missing final newline of the file.
fn verify_at(
    text: &[u8],
    olds: &[OldLine<'_>],
    s_off: usize,
    first_line: usize,
    at_eof: bool,
    out: &mut Vec<FuzzyMatch>,
) {
    let k = if at_eof { olds.len() - 1 } else { olds.len() };
    let Some(fl) = file_lines(text, s_off, k) else {
        return;
    };
    let (Some(first), Some(last)) = (fl.first(), fl.last()) else {
        return;
    };
    if at_eof && last.terminated {
        return;
    }
    let cond_of = |j: usize| {
        if at_eof && j + 1 == k {
            let o = &olds[j];
            if j == 0 && !(!o.indent.is_empty() && !o.content.is_empty()) {
                Cond::EndsWith
            } else {
                Cond::Equal
            }
        } else {
            cond_for(olds, j)
        }
    };
    let mut first_positions = Vec::new();
    let mut last_norm = Vec::new();
    let mut last_pos = 0;
    for (j, (o, f)) in olds.iter().zip(&fl).enumerate() {
        if f.raw_end - f.start > MAX_FUZZY_LINE {
            return;
        }
        let cond = cond_of(j);
        let norm = normalize(f.raw(text));
        let hay: Vec<char> = norm.iter().map(|n| n.c).collect();
        let pos = if o.norm.is_empty() {
            // An empty needle fits any line unless the line must be blank.
            if cond == Cond::Equal && !hay.is_empty() {
                return;
            }
            vec![if cond == Cond::EndsWith { hay.len() } else { 0 }]
        } else {
            cond_positions(cond, &hay, &o.norm)
        };
        if pos.is_empty() {
            return;
        }
        if j + 1 == k {
            last_pos = pos.first().copied().unwrap_or(0);
            last_norm = norm;
        }
        if j == 0 {
            first_positions = pos;
        }
    }
    let o0 = &olds[0];
    let ol = &olds[k - 1];
    let first_norm = normalize(first.raw(text));
    let at_line_start = !o0.indent.is_empty() && !o0.content.is_empty();
    // A match must not begin or end inside a char the normalization spelled as several (an
    // ellipsis, a precomposed letter) or before a combining mark: `cafe` is not in `café`.
    let splits = |norm: &[NChar], at: usize| {
        at > 0
            && norm
                .get(at)
                .is_some_and(|n| n.start == norm[at - 1].start || is_combining(n.c))
    };
    for &p in &first_positions {
        if !at_line_start && !o0.raw.is_empty() && splits(&first_norm, p) {
            continue;
        }
        let last_p = if k == 1 { p } else { last_pos };
        let pinned_end = at_eof
            || (k > 1 && ol.raw.is_empty())
            || (!ol.trailing.is_empty() && !ol.content.is_empty())
            || ol.content.is_empty();
        if !pinned_end && splits(&last_norm, last_p + ol.norm.len()) {
            continue;
        }
        let start = if o0.raw.is_empty() {
            first.raw_end
        } else if at_line_start {
            first.start
        } else {
            first.start + char_offset(&first_norm, p, first.raw_end - first.start)
        };
        let end = if at_eof {
            text.len()
        } else if k > 1 && ol.raw.is_empty() {
            last.start
        } else if !ol.trailing.is_empty() && !ol.content.is_empty() {
            last.raw_end
        } else if ol.content.is_empty() {
            last.start + indent_len(last.raw(text))
        } else {
            let end_char = last_p + ol.norm.len();
            let rel = end_char
                .checked_sub(1)
                .and_then(|i| last_norm.get(i))
                .map_or(0, |n| n.end);
            last.start + rel
        };
        if end < start {
            continue;
        }
        out.push(FuzzyMatch {
            start,
            end,
            first_line,
            line_start: first.start,
            at_line_start,
            missing_final_newline: at_eof,
        });
    }
}

/// Byte offset (within the line) of normalized char `p`, or the content end past the last.
fn char_offset(norm: &[NChar], p: usize, raw_len: usize) -> usize {
    match norm.get(p) {
        Some(n) => n.start,
        None => norm.last().map_or(raw_len, |n| n.end),
    }
}

/// The file line closest (by edit distance) to the longest line of old, among those that
/// share most words with it: `(old line index, file line index, file line offset,
/// similarity)`.
fn closest_line(text: &[u8], olds: &[OldLine<'_>]) -> Option<(usize, usize, usize, f64)> {
    let j = (0..olds.len()).max_by_key(|&j| (olds[j].norm.len(), std::cmp::Reverse(j)))?;
    let needle: Vec<char> = olds[j].norm.iter().take(300).copied().collect();
    if needle.len() < 4 {
        return None;
    }
    let mut ids: HashMap<String, usize> = HashMap::new();
    for t in tokens(&needle.iter().collect::<String>()) {
        let n = ids.len();
        ids.entry(t.to_string()).or_insert(n);
    }
    if ids.is_empty() {
        return None;
    }
    let mut seen = vec![usize::MAX; ids.len()];
    let mut top: Vec<(usize, usize, usize)> = Vec::new(); // (score, line, offset)
    let mut buf = String::new();
    let mut li = 0;
    let mut at = Some(0);
    while let Some(start) = at {
        let Some(l) = fline_at(text, start) else {
            break;
        };
        let b = l.raw(text);
        if b.len() <= MAX_FUZZY_LINE {
            normalize_into(b, &mut buf);
        } else {
            buf.clear();
        }
        if !buf.is_empty() && buf.len() * 2 >= needle.len() {
            let mut score = 0;
            for t in tokens(&buf) {
                if let Some(&id) = ids.get(t)
                    && seen[id] != li
                {
                    seen[id] = li;
                    score += 1;
                }
            }
            if score > 0 {
                if top.len() < TOP_SIMILAR {
                    top.push((score, li, start));
                } else if let Some(min) =
                    top.iter_mut().min_by_key(|t| (t.0, std::cmp::Reverse(t.1)))
                    && min.0 < score
                {
                    *min = (score, li, start);
                }
            }
        }
        li += 1;
        at = l.next_start();
    }
    let mut best: Option<(f64, usize, usize)> = None;
    for &(_, li, off) in &top {
        let Some(l) = fline_at(text, off) else {
            continue;
        };
        let hay: Vec<char> = normalize(l.raw(text))
            .iter()
            .map(|n| n.c)
            .take(1000)
            .collect();
        let d = substring_distance(&needle, &hay);
        let ratio = 1.0 - d as f64 / needle.len() as f64;
        if best.is_none_or(|(r, bl, _)| ratio > r || (ratio == r && li < bl)) {
            best = Some((ratio, li, off));
        }
    }
    let (ratio, li, off) = best?;
    Some((j, li, off, ratio))
}

fn tokens(s: &str) -> impl Iterator<Item = &str> {
    s.split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .filter(|t| !t.is_empty())
}

/// Edit distance from `needle` to the closest substring of `hay`.
fn substring_distance(needle: &[char], hay: &[char]) -> usize {
    let mut prev = vec![0usize; hay.len() + 1];
    let mut cur = vec![0usize; hay.len() + 1];
    for (i, &nc) in needle.iter().enumerate() {
        cur[0] = i + 1;
        for (x, &hc) in hay.iter().enumerate() {
            let sub = prev[x] + usize::from(nc != hc);
            cur[x + 1] = sub.min(prev[x + 1] + 1).min(cur[x] + 1);
        }
        std::mem::swap(&mut prev, &mut cur);
    }
    prev.iter().copied().min().unwrap_or(needle.len())
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn substring_edit_distance() {
        let c = |s: &str| s.chars().collect::<Vec<_>>();
        assert_eq!(
            substring_distance(&c("foo(a)"), &c("let x = foo(a, b);")),
            1
        );
        assert_eq!(substring_distance(&c("abc"), &c("xxabcxx")), 0);
        assert_eq!(substring_distance(&c("abc"), &c("")), 3);
    }

    #[test]
    fn renamed_everywhere_is_similar() {
        let text = b"fn a() {\n    let total_count = items.len();\n    report(total_count);\n}\n";
        let old = "fn a() {\n    let total_cnt = items.len();\n    report(total_cnt);\n}\n";
        match diagnose(text, old) {
            Diagnosis::Similar { difference, .. } => assert_eq!(
                difference,
                "line 2: file has \"    let total_count = items.len();\" where old has \"    let total_cnt = items.len();\"; line 3: file has \"    report(total_count);\" where old has \"    report(total_cnt);\"",
            ),
            _ => panic!("expected similar"),
        }
    }

    #[test]
    fn only_whitespace_old_is_nothing() {
        assert!(matches!(
            diagnose(b"a\n", "  \n\t"),
            Diagnosis::Nothing { .. }
        ));
    }

    proptest! {
        /// Edit distance to the best substring is plain Levenshtein (strsim's) against the
        /// closest of all substrings, computed in one pass.
        #[test]
        fn substring_distance_is_levenshtein_to_the_closest_substring(
            needle in prop::collection::vec(prop::sample::select(vec!['a', 'b', 'c']), 0..7),
            hay in prop::collection::vec(prop::sample::select(vec!['a', 'b', 'c', 'd']), 0..9),
        ) {
            let mut best = needle.len();
            for i in 0..=hay.len() {
                for j in i..=hay.len() {
                    best = best.min(strsim::generic_levenshtein(&needle, &hay[i..j].to_vec()));
                }
            }
            prop_assert_eq!(substring_distance(&needle, &hay), best);
        }
    }

    fn whitespace_matches(text: &str, old: &str) -> Vec<FuzzyMatch> {
        match diagnose(text.as_bytes(), old) {
            Diagnosis::Whitespace { matches, .. } => matches,
            _ => panic!("expected a whitespace match of {old:?} in {text:?}"),
        }
    }

    fn fm(
        (start, end): (usize, usize),
        (first_line, line_start): (usize, usize),
        at_line_start: bool,
        missing_final_newline: bool,
    ) -> FuzzyMatch {
        FuzzyMatch {
            start,
            end,
            first_line,
            line_start,
            at_line_start,
            missing_final_newline,
        }
    }

    #[test]
    fn whitespace_matches_cover_exactly_the_text_to_replace() {
        // Indented old: from the start of the line, indentation included, to the end of `;`.
        let text = "fn f() {\n\tx();\n}\n";
        assert_eq!(
            whitespace_matches(text, "    x();"),
            vec![fm((9, 14), (1, 9), true, false)]
        );
        // A fragment inside a line: from the curly quote to the `;`, nothing else.
        let text = "let s = \u{201C}hi\u{201D}; // x\n";
        let m = whitespace_matches(text, "\"hi\";");
        assert_eq!(m, vec![fm((8, 17), (0, 0), false, false)]);
        assert_eq!(&text[8..17], "\u{201C}hi\u{201D};");
        // Several lines with a final newline: up to the start of the line after.
        let text = "a\n\tb\n\tc\nd\n";
        assert_eq!(
            whitespace_matches(text, "    b\n    c\n"),
            vec![fm((2, 8), (1, 2), true, false)]
        );
        // old's final newline where the file has none: to the end of the file.
        assert_eq!(
            whitespace_matches("x\na\nb", "a\nb\n"),
            vec![fm((2, 5), (1, 2), false, true)]
        );
        // Every place, in file order.
        let m = whitespace_matches("\tx = 1;\n\ty = 2;\n\tx = 1;\n", "    x = 1;");
        let firsts: Vec<usize> = m.iter().map(|m| m.first_line).collect();
        assert_eq!(firsts, vec![0, 2]);
    }

    #[test]
    fn matches_never_split_a_char() {
        // "cafe" is not in "café", composed or decomposed, nor ".." in an ellipsis.
        for text in ["x = caf\u{E9};\n", "x = cafe\u{301};\n"] {
            assert!(
                !matches!(
                    diagnose(text.as_bytes(), "= cafe"),
                    Diagnosis::Whitespace { .. }
                ),
                "{text:?}"
            );
            assert_eq!(
                whitespace_matches(text, "= caf\u{E9};").len(),
                1,
                "{text:?}"
            );
        }
        assert!(!matches!(
            diagnose("wait\u{2026}\n".as_bytes(), "t.."),
            Diagnosis::Whitespace { .. }
        ));
        assert!(!matches!(
            diagnose("x \u{301}y\n".as_bytes(), "\u{301}y"),
            Diagnosis::Whitespace { .. }
        ));
        assert_eq!(whitespace_matches("wait\u{2026}\n", "t...").len(), 1);
        // Invisible chars inside the passage are skipped, at either end they stay outside.
        let text = "\u{200B}ab\u{200B}cd\u{200B}\n";
        let m = whitespace_matches(text, "abcd");
        assert_eq!(&text[m[0].start..m[0].end], "ab\u{200B}cd");
    }

    #[test]
    fn a_whitespace_match_reports_its_window() {
        let text = "a\nb\nc\n\tkey = 1;\nd\ne\nf\n";
        match diagnose(text.as_bytes(), "    key = 1;") {
            Diagnosis::Whitespace { window, .. } => {
                let w = window.unwrap();
                assert_eq!((w.start_line, w.end_line), (2, 6));
                assert_eq!(w.text, "b\nc\n\tkey = 1;\nd\ne\n");
            }
            _ => panic!("expected whitespace"),
        }
    }

    #[test]
    fn giant_lines_are_never_candidates() {
        let line = |len: usize| format!("a\n\tkey = 1;{}\n", "x".repeat(len - 9));
        // A line of exactly MAX_FUZZY_LINE bytes is still looked at; one byte more is not.
        assert!(matches!(
            diagnose(line(MAX_FUZZY_LINE).as_bytes(), "    key = 1;"),
            Diagnosis::Whitespace { .. }
        ));
        assert!(matches!(
            diagnose(line(MAX_FUZZY_LINE + 1).as_bytes(), "    key = 1;"),
            Diagnosis::Nothing { .. }
        ));
    }

    fn similar(text: &str, old: &str) -> (Option<(usize, usize)>, String) {
        match diagnose(text.as_bytes(), old) {
            Diagnosis::Similar { window, difference } => {
                (window.map(|w| (w.start_line, w.end_line)), difference)
            }
            _ => panic!("expected similar for {old:?}"),
        }
    }

    #[test]
    fn similar_follows_the_alignment_most_lines_agree_with() {
        // Lines 11-14 hold old with one line changed; a decoy repeats one of its lines earlier.
        let mut text: String = (1..=10).map(|i| format!("filler {i}\n")).collect();
        text.insert_str(0, "let second = 2;\n");
        text.push_str("let first = 1;\nlet second = 2;\nlet third = 3;\nlet fourth = 4;\n");
        let old = "let first = 1;\nlet second = 2;\nlet THIRD = 3;\nlet fourth = 4;";
        let (window, difference) = similar(&text, old);
        assert_eq!(
            difference,
            "line 14: file has \"let third = 3;\" where old has \"let THIRD = 3;\""
        );
        assert_eq!(window, Some((10, 15)));
        // Half the lines agreeing is enough.
        let old = "let first = 1;\nlet second = 2;\nlet THIRD = 3;\nlet FOURTH = 4;";
        assert!(similar(&text, old).1.starts_with("line 14: "));
    }

    #[test]
    fn closest_line_needs_sixty_percent_similarity() {
        assert_eq!(MIN_SIMILARITY, 0.6);
        // "abc defghi" is 10 chars: 4 edits away is 60 % similar, 5 edits is not.
        let (_, difference) = similar("x\nabc xyzwhi\ny\n", "abc defghi");
        assert_eq!(
            difference,
            "line 2: file has \"abc xyzwhi\" where old has \"abc defghi\""
        );
        assert!(matches!(
            diagnose(b"x\nabc xyzwvi\ny\n", "abc defghi"),
            Diagnosis::Nothing { .. }
        ));
        // The closest of several candidates wins; ties go to the first.
        let (_, difference) = similar("abc dxxxhi\nabc defgxi\nabc defgxi\n", "abc defghi");
        assert!(difference.starts_with("line 2: "), "{difference}");
        // Under four chars, a line of old is too short to judge by edit distance.
        assert!(similar("ab c\n", "ab d").1.starts_with("line 1: "));
        assert!(matches!(
            diagnose(b"a c\n", "a d"),
            Diagnosis::Nothing { .. }
        ));
    }
}
