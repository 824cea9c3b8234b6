//! Miss diagnosis and fuzzy matching for `quill edit` (SPEC §3.3): when `old` is not in the
//! file byte for byte, this module finds where it was probably meant to go. It owns the
//! line normalization (indentation, trailing whitespace, `\r`, curly quotes, non-breaking and
//! other Unicode spaces, dashes, the ellipsis), the whitespace-equivalent matches `--fuzzy`
//! may apply (with the new text re-indented and re-ended to the file's own style), the
//! `similar` / `none` verdicts, the one-sentence `difference` and the bounded candidate
//! `window`. It works in one streaming pass over the file's lines plus bounded verification
//! of candidates, so a miss in a large file stays cheap. It must not do I/O, print, or panic
//! on any input; it never changes bytes outside the span it reports.

use super::miss::{WINDOW_MAX_BYTES, WINDOW_MAX_LINES, Window};
use std::collections::HashMap;

/// A place where `old` matches once whitespace and look-alikes are ignored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct FuzzyMatch {
    /// Byte range of the text to replace.
    pub start: usize,
    pub end: usize,
    /// 0-based index of the line holding `start`.
    pub first_line: usize,
    /// Byte offset where that line starts.
    pub line_start: usize,
    /// The match begins at the start of its line (indentation included), so the first line
    /// of `new` is re-indented too.
    pub at_line_start: bool,
    /// old ends with a newline where the file ends without one; `new` loses its final
    /// newline so the file keeps that shape.
    pub missing_final_newline: bool,
}

pub(crate) enum Diagnosis {
    Whitespace {
        matches: Vec<FuzzyMatch>,
        window: Option<Window>,
        difference: String,
    },
    Similar {
        window: Option<Window>,
        difference: String,
    },
    Nothing {
        difference: String,
    },
}

/// Candidate lines kept from the scan and fuzzy matches verified; beyond these, the count
/// of an ambiguous fuzzy match is a lower bound.
const MAX_ANCHOR_HITS: usize = 100_000;
const MAX_MATCHES: usize = 10_000;
const MAX_VOTE_HITS: usize = 1_000_000;
/// File lines kept for edit-distance scoring when no line of `old` matches outright.
const TOP_SIMILAR: usize = 16;
const MIN_SIMILARITY: f64 = 0.6;
const QUOTE_MAX_CHARS: usize = 120;
const WINDOW_CONTEXT: usize = 2;
/// Lines longer than this are never fuzzy candidates.
const MAX_FUZZY_LINE: usize = 256 * 1024;

// ---------------------------------------------------------------------------------------
// Normalization

/// The look-alike folding: `(folded char, how many times)`.
fn fold(c: char) -> (char, usize) {
    match c {
        '\u{2018}' | '\u{2019}' | '\u{201A}' | '\u{201B}' | '\u{2032}' => ('\'', 1),
        '\u{201C}' | '\u{201D}' | '\u{201E}' | '\u{201F}' | '\u{2033}' => ('"', 1),
        '\u{2010}'..='\u{2015}' | '\u{2212}' => ('-', 1),
        '\u{00A0}' | '\u{2000}'..='\u{200A}' | '\u{202F}' | '\u{205F}' | '\u{3000}' => (' ', 1),
        '\u{2026}' => ('.', 3),
        _ => (c, 1),
    }
}

fn is_ws(c: char) -> bool {
    matches!(c, ' ' | '\t' | '\u{0B}' | '\u{0C}')
}

/// Calls `f(char, byte_start, byte_end)` for every char of `line`; invalid bytes become
/// U+FFFD (one per invalid sequence).
fn for_each_char(line: &[u8], mut f: impl FnMut(char, usize, usize)) {
    let mut at = 0;
    for chunk in line.utf8_chunks() {
        for (i, c) in chunk.valid().char_indices() {
            f(c, at + i, at + i + c.len_utf8());
        }
        at += chunk.valid().len();
        let bad = chunk.invalid().len();
        if bad > 0 {
            f('\u{FFFD}', at, at + bad);
            at += bad;
        }
    }
}

/// A normalized char and the bytes of the line it came from.
#[derive(Clone, Copy)]
struct NChar {
    c: char,
    start: usize,
    end: usize,
}

/// Folded chars of `line` (no `\r`) with leading and trailing whitespace trimmed.
fn normalize(line: &[u8]) -> Vec<NChar> {
    let mut out: Vec<NChar> = Vec::with_capacity(line.len());
    for_each_char(line, |c, start, end| {
        let (f, n) = fold(c);
        if out.is_empty() && is_ws(f) {
            return;
        }
        for _ in 0..n {
            out.push(NChar { c: f, start, end });
        }
    });
    while out.last().is_some_and(|n| is_ws(n.c)) {
        out.pop();
    }
    out
}

/// Same as [`normalize`] into a reused string, for the scan.
fn normalize_into(line: &[u8], out: &mut String) {
    out.clear();
    if line.is_ascii() {
        // Folding only touches non-ASCII chars: trimming is all there is to do.
        let ws = |b: &u8| matches!(b, b' ' | b'\t' | 0x0B | 0x0C);
        let start = line.iter().position(|b| !ws(b)).unwrap_or(line.len());
        let end = line.iter().rposition(|b| !ws(b)).map_or(start, |i| i + 1);
        out.extend(line[start..end.max(start)].iter().map(|&b| char::from(b)));
        return;
    }
    for_each_char(line, |c, _, _| {
        let (f, n) = fold(c);
        if out.is_empty() && is_ws(f) {
            return;
        }
        for _ in 0..n {
            out.push(f);
        }
    });
    let kept = out.trim_end_matches(is_ws).len();
    out.truncate(kept);
}

// ---------------------------------------------------------------------------------------
// Lines of old and of the file

/// One line of `old`, split into raw parts.
struct OldLine<'a> {
    raw: &'a str,
    cr: bool,
    indent: &'a str,
    content: &'a str,
    trailing: &'a str,
    norm: Vec<char>,
}

fn old_lines(old: &str) -> Vec<OldLine<'_>> {
    old.split('\n')
        .map(|l| {
            let (raw, cr) = match l.strip_suffix('\r') {
                Some(r) => (r, true),
                None => (l, false),
            };
            let body = raw.trim_start_matches(|c| is_ws(fold(c).0));
            let indent = &raw[..raw.len() - body.len()];
            let content = body.trim_end_matches(|c| is_ws(fold(c).0));
            let trailing = &body[content.len()..];
            let norm = normalize(raw.as_bytes()).iter().map(|n| n.c).collect();
            OldLine {
                raw,
                cr,
                indent,
                content,
                trailing,
                norm,
            }
        })
        .collect()
}

/// How a file line must relate to one normalized line of `old`.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Cond {
    Equal,
    StartsWith,
    EndsWith,
    Contains,
}

fn cond_for(lines: &[OldLine<'_>], j: usize) -> Cond {
    let k = lines.len();
    let Some(l) = lines.get(j) else {
        return Cond::Equal;
    };
    let lead = !l.indent.is_empty() && !l.content.is_empty();
    let trail = !l.trailing.is_empty() && !l.content.is_empty();
    match (j == 0, j + 1 == k) {
        (true, true) => match (lead, trail) {
            (true, true) => Cond::Equal,
            (true, false) => Cond::StartsWith,
            (false, true) => Cond::EndsWith,
            (false, false) => Cond::Contains,
        },
        (true, false) => {
            if lead {
                Cond::Equal
            } else {
                Cond::EndsWith
            }
        }
        (false, true) => {
            if trail {
                Cond::Equal
            } else {
                Cond::StartsWith
            }
        }
        (false, false) => Cond::Equal,
    }
}

fn cond_holds_str(cond: Cond, hay: &str, needle: &str) -> bool {
    match cond {
        Cond::Equal => hay == needle,
        Cond::StartsWith => hay.starts_with(needle),
        Cond::EndsWith => hay.ends_with(needle),
        Cond::Contains => hay.contains(needle),
    }
}

/// Char positions in `hay` where `needle` satisfies `cond` (all overlapping ones for
/// `Contains`).
fn cond_positions(cond: Cond, hay: &[char], needle: &[char]) -> Vec<usize> {
    let fits = |p: usize| hay.get(p..p + needle.len()) == Some(needle);
    match cond {
        Cond::Equal => (hay == needle).then_some(0).into_iter().collect(),
        Cond::StartsWith => fits(0).then_some(0).into_iter().collect(),
        Cond::EndsWith => hay
            .len()
            .checked_sub(needle.len())
            .filter(|&p| fits(p))
            .into_iter()
            .collect(),
        Cond::Contains => {
            if needle.is_empty() || needle.len() > hay.len() {
                return Vec::new();
            }
            (0..=hay.len() - needle.len())
                .filter(|&p| fits(p))
                .collect()
        }
    }
}

/// One physical line of the file.
#[derive(Clone, Copy, Debug)]
struct FLine {
    start: usize,
    /// End of the line's text, before `\r\n` / `\n`.
    body_end: usize,
    cr: bool,
    terminated: bool,
}

fn fline_at(text: &[u8], start: usize) -> Option<FLine> {
    if start > text.len() {
        return None;
    }
    let rest = &text[start..];
    let (end, terminated) = match memchr::memchr(b'\n', rest) {
        Some(i) => (start + i, true),
        None => (text.len(), false),
    };
    let cr = end > start && text[end - 1] == b'\r';
    Some(FLine {
        start,
        body_end: if cr { end - 1 } else { end },
        cr,
        terminated,
    })
}

impl FLine {
    fn next_start(&self) -> Option<usize> {
        self.terminated
            .then_some(self.body_end + usize::from(self.cr) + 1)
    }
}

/// `k` consecutive lines from `start`, or `None` if the file ends first.
fn file_lines(text: &[u8], start: usize, k: usize) -> Option<Vec<FLine>> {
    let mut out = Vec::with_capacity(k);
    let mut at = start;
    for i in 0..k {
        let l = fline_at(text, at)?;
        out.push(l);
        if i + 1 < k {
            at = l.next_start()?;
        }
    }
    Some(out)
}

/// Start offset of the line `back` lines above the line starting at `start`.
fn line_start_back(text: &[u8], mut start: usize, back: usize) -> Option<usize> {
    for _ in 0..back {
        if start == 0 {
            return None;
        }
        let before = text.get(..start - 1)?;
        start = memchr::memrchr(b'\n', before).map_or(0, |i| i + 1);
    }
    Some(start)
}

fn body<'t>(text: &'t [u8], l: &FLine) -> &'t [u8] {
    text.get(l.start..l.body_end).unwrap_or(&[])
}

/// End of the leading whitespace of a line body.
fn indent_len(line: &[u8]) -> usize {
    let mut n = 0;
    let mut done = false;
    for_each_char(line, |c, _, end| {
        if !done && is_ws(fold(c).0) {
            n = end;
        } else {
            done = true;
        }
    });
    n
}

/// End of the text of a line body before trailing whitespace (at least `indent_len`).
fn content_end(line: &[u8]) -> usize {
    let n = normalize(line);
    n.last().map_or(line.len(), |c| c.end)
}

// ---------------------------------------------------------------------------------------
// Diagnosis

pub(crate) fn diagnose(text: &[u8], old: &str) -> Diagnosis {
    let olds = old_lines(old);
    let k = olds.len();
    let Some(anchor) = pick_anchor(&olds) else {
        return Diagnosis::Nothing {
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
        if body(text, &l).len() > MAX_FUZZY_LINE {
            buf.clear();
            buf.push('\u{FFFD}');
        } else {
            normalize_into(body(text, &l), &mut buf);
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
        let window = window(
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

    // Similar: the alignment most lines of old agree with, else the line closest to the
    // anchor by edit distance.
    let best_vote = votes
        .iter()
        .map(|(&s, &(n, li, off))| (n, std::cmp::Reverse(s), li, off))
        .max();
    let mut alignment = None;
    if let Some((n, std::cmp::Reverse(s), li, off)) = best_vote
        && n * 2 >= nontrivial.max(1)
    {
        alignment = Some((s, li, off));
    }
    if alignment.is_none() {
        alignment =
            closest_line(text, &olds).map(|(j, li, off)| (li as isize - j as isize, li, off));
    }
    let Some((s, hint_line, hint_off)) = alignment else {
        return Diagnosis::Nothing {
            difference: "no line of old appears in the file, even ignoring whitespace".into(),
        };
    };
    let (focus, difference) = similar_difference(text, &olds, s, (hint_line, hint_off));
    let lo = s.max(0) as usize;
    let hi = (s + k as isize - 1).max(0) as usize;
    let window = window(text, (hint_line, hint_off), (lo, hi), focus, shown_lines);
    Diagnosis::Similar { window, difference }
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
        if f.body_end - f.start > MAX_FUZZY_LINE {
            return;
        }
        let cond = cond_of(j);
        let norm = normalize(body(text, f));
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
    let first_norm = normalize(body(text, first));
    let at_line_start = !o0.indent.is_empty() && !o0.content.is_empty();
    for &p in &first_positions {
        let start = if o0.raw.is_empty() {
            first.body_end
        } else if at_line_start {
            first.start
        } else {
            first.start + char_offset(&first_norm, p, first.body_end - first.start)
        };
        let last_p = if k == 1 { p } else { last_pos };
        let end = if at_eof {
            text.len()
        } else if k > 1 && ol.raw.is_empty() {
            last.start
        } else if !ol.trailing.is_empty() && !ol.content.is_empty() {
            last.body_end
        } else if ol.content.is_empty() {
            last.start + indent_len(body(text, last))
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
fn char_offset(norm: &[NChar], p: usize, body_len: usize) -> usize {
    match norm.get(p) {
        Some(n) => n.start,
        None => norm.last().map_or(body_len, |n| n.end),
    }
}

// ---------------------------------------------------------------------------------------
// Describing differences

fn plural(n: usize, one: &str, many: &str) -> String {
    if n == 1 {
        format!("a {one}")
    } else {
        format!("{n} {many}")
    }
}

fn describe_ws(s: &str) -> String {
    let tabs = s.chars().filter(|&c| c == '\t').count();
    let spaces = s.chars().filter(|&c| c == ' ').count();
    let nbsp = s.chars().filter(|&c| c == '\u{A0}').count();
    let other = s.chars().count() - tabs - spaces - nbsp;
    let mut parts = Vec::new();
    if tabs > 0 {
        parts.push(plural(tabs, "tab", "tabs"));
    }
    if spaces > 0 {
        parts.push(plural(spaces, "space", "spaces"));
    }
    if nbsp > 0 {
        parts.push(plural(nbsp, "non-breaking space", "non-breaking spaces"));
    }
    if other > 0 {
        parts.push(plural(
            other,
            "other whitespace character",
            "other whitespace characters",
        ));
    }
    if parts.is_empty() {
        "no indentation".into()
    } else {
        parts.join(" and ")
    }
}

fn describe_trailing(s: &str) -> String {
    match s {
        " " => "a trailing space".into(),
        "\t" => "a trailing tab".into(),
        _ => format!("trailing whitespace ({})", describe_ws(s)),
    }
}

fn describe_char(c: char) -> String {
    match c {
        '\'' => "a straight quote (')".into(),
        '"' => "a straight quote (\")".into(),
        '\u{2018}' | '\u{2019}' | '\u{201A}' | '\u{201B}' | '\u{201C}' | '\u{201D}'
        | '\u{201E}' | '\u{201F}' => format!("a curly quote ({c})"),
        '\u{2032}' | '\u{2033}' => format!("a prime ({c})"),
        ' ' => "a space".into(),
        '\u{A0}' => "a non-breaking space".into(),
        '\u{202F}' => "a narrow non-breaking space".into(),
        '-' => "a hyphen (-)".into(),
        '\u{2013}' => "an en dash (–)".into(),
        '\u{2014}' => "an em dash (—)".into(),
        '\u{2212}' => "a minus sign (−)".into(),
        '\u{2026}' => "an ellipsis (…)".into(),
        '.' => "three dots (...)".into(),
        c if is_ws(fold(c).0) => format!("a Unicode space (U+{:04X})", c as u32),
        c => format!("{c} (U+{:04X})", c as u32),
    }
}

/// The first look-alike difference between the file's and old's raw text of a line.
fn char_difference(file: &str, old: &str) -> Option<(char, char)> {
    let mut f = file.chars().peekable();
    let mut o = old.chars().peekable();
    loop {
        match (f.next(), o.next()) {
            (Some(a), Some(b)) if a == b => {}
            (Some(a), Some(b)) => return Some((a, b)),
            _ => return None,
        }
    }
}

fn lossy(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// `(0-based focus line, sentence)` for a whitespace match.
fn whitespace_difference(
    text: &[u8],
    olds: &[OldLine<'_>],
    m: &FuzzyMatch,
    count: usize,
) -> (usize, String) {
    let eof = m.missing_final_newline;
    let k = olds.len() - usize::from(eof);
    let suffix = if count > 1 {
        format!(" ({count} places match when whitespace and look-alikes are ignored)")
    } else {
        String::new()
    };
    let Some(fl) = file_lines(text, m.line_start, k) else {
        return (
            m.first_line,
            format!("line {}: whitespace differs{suffix}", m.first_line + 1),
        );
    };
    for (j, (o, f)) in olds.iter().zip(&fl).enumerate() {
        let n = m.first_line + j + 1;
        let b = body(text, f);
        let ind = indent_len(b);
        let cend = content_end(b).max(ind);
        let full_start = j > 0 || m.at_line_start;
        let trail = j + 1 < k || eof || (!o.trailing.is_empty() && !o.content.is_empty());
        let say = |s: String| (n - 1, format!("line {n}: {s}{suffix}"));
        if o.content.is_empty() {
            // A blank line of old against a blank line of the file.
            let fw = lossy(b);
            if trail && full_start && fw != o.raw {
                let s = if o.raw.is_empty() {
                    format!("file has {} that old lacks", describe_trailing(&fw))
                } else if fw.is_empty() {
                    format!("old has {} that the file lacks", describe_trailing(o.raw))
                } else {
                    format!(
                        "file has a blank line of {} where old has {}",
                        describe_ws(&fw),
                        describe_ws(o.raw)
                    )
                };
                return say(s);
            }
        } else {
            let f_indent = lossy(&b[..ind]);
            if full_start && f_indent != o.indent {
                return say(format!(
                    "file has {} where old has {}",
                    describe_ws(&f_indent),
                    describe_ws(o.indent)
                ));
            }
            let seg_start = if j == 0 {
                m.start.saturating_sub(f.start).max(ind)
            } else {
                ind
            };
            let seg_end = if j + 1 == k && !trail {
                m.end.saturating_sub(f.start).min(b.len())
            } else {
                cend
            };
            let seg = lossy(b.get(seg_start..seg_end.max(seg_start)).unwrap_or(&[]));
            if let Some((fc, oc)) = char_difference(&seg, o.content) {
                return say(format!(
                    "file has {} where old has {}",
                    describe_char(fc),
                    describe_char(oc)
                ));
            }
            if trail {
                let ft = lossy(b.get(cend..).unwrap_or(&[]));
                if ft != o.trailing {
                    let s = if o.trailing.is_empty() {
                        format!("file has {} that old lacks", describe_trailing(&ft))
                    } else if ft.is_empty() {
                        format!(
                            "old has {} that the file lacks",
                            describe_trailing(o.trailing)
                        )
                    } else {
                        format!(
                            "file has trailing {} where old has trailing {}",
                            describe_ws(&ft),
                            describe_ws(o.trailing)
                        )
                    };
                    return say(s);
                }
            }
        }
        if j + 1 < k && f.cr != o.cr {
            return say(if f.cr {
                "file has CRLF line endings where old has LF".into()
            } else {
                "file has LF line endings where old has CRLF".into()
            });
        }
    }
    if eof {
        let n = m.first_line + k;
        return (
            n - 1,
            format!("line {n}: the file ends without a final newline where old has one{suffix}"),
        );
    }
    (
        m.first_line,
        format!(
            "line {}: old matches only when whitespace is ignored{suffix}",
            m.first_line + 1
        ),
    )
}

fn quote(s: &str) -> String {
    let mut out: String = s.chars().take(QUOTE_MAX_CHARS).collect();
    if s.chars().nth(QUOTE_MAX_CHARS).is_some() {
        out.push('…');
    }
    format!("\"{out}\"")
}

/// `(0-based focus line, sentence)` for old aligned so that its line 0 is file line `s`.
fn similar_difference(
    text: &[u8],
    olds: &[OldLine<'_>],
    s: isize,
    hint: (usize, usize),
) -> (usize, String) {
    for (j, o) in olds.iter().enumerate() {
        let li = s + j as isize;
        if li < 0 {
            if o.norm.is_empty() {
                continue;
            }
            return (
                0,
                format!(
                    "line 1: old has {} before the file's first line",
                    quote(o.raw)
                ),
            );
        }
        let li = li as usize;
        // The empty "line" after a final newline is the end of the file, not a line.
        let real = |f: &FLine| f.start < text.len() || f.start == 0 && !text.is_empty();
        let found = locate(text, hint, li)
            .and_then(|off| fline_at(text, off))
            .filter(|f| real(f) || o.raw.is_empty());
        let Some(f) = found else {
            return (
                li.saturating_sub(1),
                format!(
                    "line {}: the file ends where old continues with {}",
                    li + 1,
                    quote(o.raw)
                ),
            );
        };
        let b = body(text, &f);
        let hay: Vec<char> = normalize(&b[..b.len().min(MAX_FUZZY_LINE)])
            .iter()
            .map(|n| n.c)
            .collect();
        let cond = cond_for(olds, j);
        let same = !cond_positions(cond, &hay, &o.norm).is_empty()
            || (o.norm.is_empty() && (hay.is_empty() || cond != Cond::Equal));
        if !same {
            return (
                li,
                format!(
                    "line {}: file has {} where old has {}",
                    li + 1,
                    quote(&lossy(&b[..b.len().min(QUOTE_MAX_CHARS * 5)])),
                    quote(o.raw)
                ),
            );
        }
    }
    let li = s.max(0) as usize;
    let fb = locate(text, hint, li)
        .and_then(|off| fline_at(text, off))
        .map(|f| {
            let b = body(text, &f);
            lossy(&b[..b.len().min(QUOTE_MAX_CHARS * 5)])
        })
        .unwrap_or_default();
    let first = olds.first().map_or("", |o| o.raw);
    (
        li,
        format!(
            "line {}: file has {} where old has {}",
            li + 1,
            quote(&fb),
            quote(first)
        ),
    )
}

/// Start offset of 0-based line `target`, walking from a known `(line, offset)`.
fn locate(text: &[u8], hint: (usize, usize), target: usize) -> Option<usize> {
    let (mut li, mut off) = hint;
    if target < li {
        return line_start_back(text, off, li - target);
    }
    while li < target {
        off = fline_at(text, off)?.next_start()?;
        li += 1;
    }
    Some(off)
}

/// The file line closest (by edit distance) to the longest line of old:
/// `(old line index, file line index, file line offset)`.
fn closest_line(text: &[u8], olds: &[OldLine<'_>]) -> Option<(usize, usize, usize)> {
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
        let b = body(text, &l);
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
        let hay: Vec<char> = normalize(body(text, &l))
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
    (ratio >= MIN_SIMILARITY).then_some((j, li, off))
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

// ---------------------------------------------------------------------------------------
// The window

/// Whole lines around `focus` within `[range.0 - context, range.1 + context]`, at most
/// [`WINDOW_MAX_LINES`] lines and [`WINDOW_MAX_BYTES`] bytes; `None` when even the focus
/// line does not fit.
fn window(
    text: &[u8],
    hint: (usize, usize),
    range: (usize, usize),
    focus: usize,
    shown_lines: usize,
) -> Option<Window> {
    let last = shown_lines.checked_sub(1)?;
    let lo = range.0.saturating_sub(WINDOW_CONTEXT).min(last);
    let hi = range.1.saturating_add(WINDOW_CONTEXT).min(last);
    let focus = focus.clamp(lo, hi.max(lo));
    let line_text = |li: usize| -> Option<String> {
        let f = fline_at(text, locate(text, hint, li)?)?;
        let end = f.next_start().unwrap_or(text.len());
        // Lossy decoding never shrinks, so an oversized raw line cannot fit (None stops
        // the window growing that way).
        if end - f.start > WINDOW_MAX_BYTES {
            return None;
        }
        Some(lossy(text.get(f.start..end)?))
    };
    let first = line_text(focus)?;
    if first.len() > WINDOW_MAX_BYTES {
        return None;
    }
    let (mut a, mut b) = (focus, focus);
    let mut above: Vec<String> = Vec::new();
    let mut below: Vec<String> = Vec::new();
    let mut size = first.len();
    let (mut up, mut down) = (true, true);
    while (up || down) && b - a + 1 < WINDOW_MAX_LINES {
        if down {
            match (b < hi).then(|| line_text(b + 1)).flatten() {
                Some(t) if size + t.len() <= WINDOW_MAX_BYTES => {
                    size += t.len();
                    below.push(t);
                    b += 1;
                }
                _ => down = false,
            }
        }
        if up && b - a + 1 < WINDOW_MAX_LINES {
            match (a > lo).then(|| line_text(a - 1)).flatten() {
                Some(t) if size + t.len() <= WINDOW_MAX_BYTES => {
                    size += t.len();
                    above.push(t);
                    a -= 1;
                }
                _ => up = false,
            }
        }
    }
    let mut out = String::with_capacity(size);
    for t in above.iter().rev() {
        out.push_str(t);
    }
    out.push_str(&first);
    for t in &below {
        out.push_str(t);
    }
    Some(Window {
        start_line: a + 1,
        end_line: b + 1,
        text: out,
    })
}

// ---------------------------------------------------------------------------------------
// Applying a fuzzy match

/// The bytes that replace `text[m.start..m.end]`: `new` re-indented from old's indentation
/// to the file's, with the file's line ending in that region.
pub(crate) fn render_replacement(text: &[u8], m: &FuzzyMatch, old: &str, new: &str) -> Vec<u8> {
    let olds = old_lines(old);
    let k = olds.len() - usize::from(m.missing_final_newline);
    let new = if m.missing_final_newline {
        new.strip_suffix('\n')
            .map(|n| n.strip_suffix('\r').unwrap_or(n))
            .unwrap_or(new)
    } else {
        new
    };
    let Some(fl) = file_lines(text, m.line_start, k) else {
        return new.as_bytes().to_vec();
    };
    let (crs, lfs) =
        fl.iter().filter(|f| f.terminated).fold(
            (0, 0),
            |(c, l), f| if f.cr { (c + 1, l) } else { (c, l + 1) },
        );
    let crlf = match (crs, lfs) {
        (0, 0) => None,
        (c, l) if c != l => Some(c > l),
        _ => fl.iter().find(|f| f.terminated).map(|f| f.cr),
    };

    let mut map: Vec<(&str, String)> = Vec::new();
    for (j, (o, f)) in olds.iter().zip(&fl).enumerate() {
        if (j > 0 || m.at_line_start) && !o.content.is_empty() {
            let b = body(text, f);
            let fi = lossy(&b[..indent_len(b)]);
            if !map.iter().any(|(oi, _)| *oi == o.indent) {
                map.push((o.indent, fi));
            }
        }
    }
    let news: Vec<&str> = new.split('\n').collect();
    let old_style = Style::of(
        olds.iter()
            .filter(|o| !o.content.is_empty())
            .map(|o| o.indent)
            .chain(
                news.iter()
                    .map(|l| leading(l.strip_suffix('\r').unwrap_or(l))),
            ),
    );
    let file_style = file_style(&map, &old_style);

    let mut out = String::with_capacity(new.len() + 16);
    for (i, line) in news.iter().enumerate() {
        let (line, had_cr) = match line.strip_suffix('\r') {
            Some(l) => (l, true),
            None => (*line, false),
        };
        if i > 0 {
            let cr = crlf.unwrap_or(had_cr);
            out.push_str(if cr { "\r\n" } else { "\n" });
        }
        if i == 0 && !m.at_line_start || map.is_empty() || line.is_empty() {
            out.push_str(line);
            continue;
        }
        let ind = leading(line);
        let rest = &line[ind.len()..];
        if let Some((_, fi)) = map.iter().find(|(oi, _)| *oi == ind) {
            out.push_str(fi);
        } else if let Some((oref, fref)) = map.first() {
            if !old_style.tabs && !file_style.tabs && old_style.unit == file_style.unit {
                // Same style: shift by the same number of columns.
                let cols = (fref.len() + ind.len()).saturating_sub(oref.len());
                out.push_str(&" ".repeat(cols));
            } else {
                let want = (file_style.level(fref).0 + old_style.level(ind).0)
                    .saturating_sub(old_style.level(oref).0);
                out.push_str(&file_style.render(want, old_style.level(ind).1));
            }
        }
        out.push_str(rest);
    }
    out.into_bytes()
}

fn leading(s: &str) -> &str {
    let t = s.trim_start_matches([' ', '\t']);
    &s[..s.len() - t.len()]
}

/// An indentation style: tabs, or spaces with a width per level.
struct Style {
    tabs: bool,
    unit: usize,
}

impl Style {
    fn of<'a>(indents: impl Iterator<Item = &'a str>) -> Style {
        let mut tabs = false;
        let mut unit = 0;
        for i in indents {
            tabs |= i.starts_with('\t');
            let spaces = i.chars().filter(|&c| c == ' ').count();
            if spaces > 0 && !i.contains('\t') {
                unit = gcd(unit, spaces);
            }
        }
        Style {
            tabs,
            unit: if unit == 0 { 4 } else { unit.min(8) },
        }
    }

    /// `(levels, leftover spaces)`.
    fn level(&self, indent: &str) -> (usize, usize) {
        let tabs = indent.chars().filter(|&c| c == '\t').count();
        let spaces = indent.chars().filter(|&c| c != '\t').count();
        (tabs + spaces / self.unit.max(1), spaces % self.unit.max(1))
    }

    fn render(&self, levels: usize, extra: usize) -> String {
        if self.tabs {
            format!("{}{}", "\t".repeat(levels), " ".repeat(extra))
        } else {
            " ".repeat(levels * self.unit + extra)
        }
    }
}

fn gcd(a: usize, b: usize) -> usize {
    if b == 0 { a } else { gcd(b, a % b) }
}

/// The file's style, inferred from the indentation it uses where old matched.
fn file_style(map: &[(&str, String)], old: &Style) -> Style {
    let tabs = map.iter().any(|(_, f)| f.starts_with('\t'));
    let mut widths: Vec<usize> = map
        .iter()
        .map(|(_, f)| f.chars().filter(|&c| c == ' ').count())
        .filter(|&w| w > 0)
        .collect();
    widths.sort_unstable();
    widths.dedup();
    let unit = if widths.len() >= 2 {
        widths.iter().fold(0, |g, &w| gcd(g, w))
    } else if let Some((o, f)) = map.iter().find(|(o, f)| {
        let lv = old.level(o).0;
        old.tabs && lv > 0 && !f.contains('\t') && f.len() % lv == 0 && !f.is_empty()
    }) {
        f.len() / old.level(o).0.max(1)
    } else {
        old.unit
    };
    Style {
        tabs,
        unit: unit.clamp(1, 8),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn norm(s: &str) -> String {
        normalize(s.as_bytes()).iter().map(|n| n.c).collect()
    }

    #[test]
    fn normalization_folds_lookalikes_and_trims() {
        assert_eq!(
            norm("\t  say(\u{201C}a\u{2019}s\u{201D})\u{A0}\u{2014}\u{2026}  \t"),
            "say(\"a's\") -..."
        );
        assert_eq!(norm("\u{A0}\u{A0}x"), "x");
        assert_eq!(norm("   "), "");
        let mut buf = String::new();
        normalize_into(b"  a\xffb\t", &mut buf);
        assert_eq!(buf, "a\u{FFFD}b");
    }

    #[test]
    fn spans_point_back_into_raw_bytes() {
        let n = normalize("  x\u{2026}y".as_bytes());
        // x, ., ., ., y — the three dots share the ellipsis's bytes.
        assert_eq!(n.len(), 5);
        assert_eq!((n[1].start, n[1].end), (3, 6));
        assert_eq!((n[3].start, n[3].end), (3, 6));
        assert_eq!(n[4].start, 6);
    }

    #[test]
    fn describing_whitespace() {
        assert_eq!(describe_ws("\t"), "a tab");
        assert_eq!(describe_ws("    "), "4 spaces");
        assert_eq!(describe_ws("\t  "), "a tab and 2 spaces");
        assert_eq!(describe_ws(""), "no indentation");
        assert_eq!(describe_trailing(" "), "a trailing space");
        assert_eq!(describe_trailing("  "), "trailing whitespace (2 spaces)");
    }

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
                "line 2: file has \"    let total_count = items.len();\" where old has \"    let total_cnt = items.len();\""
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
}
