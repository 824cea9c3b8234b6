//! The lines `repair` compares: the lines of `old` split into indentation, content and trailing
//! whitespace ([`OldLine`]), the condition a file line must meet to stand for one of them
//! ([`Cond`]: the whole line, its start, its end or any part of it, by where the line sits in
//! `old`), and the physical lines of the file ([`FLine`]) with walking forwards and backwards
//! from a known line. It must not scan the whole file or decide anything about a match.

use super::normalize::{fold, for_each_char, is_ws, normalize};

/// One line of `old`, split into raw parts.
pub(super) struct OldLine<'a> {
    /// The line without its `\n` / `\r\n`.
    pub(super) raw: &'a str,
    pub(super) cr: bool,
    pub(super) indent: &'a str,
    pub(super) content: &'a str,
    pub(super) trailing: &'a str,
    pub(super) norm: Vec<char>,
}

pub(super) fn old_lines(old: &str) -> Vec<OldLine<'_>> {
    old.split('\n')
        .map(|l| {
            let (raw, cr) = match l.strip_suffix('\r') {
                Some(r) => (r, true),
                None => (l, false),
            };
            let unindented = raw.trim_start_matches(|c| is_ws(fold(c).0));
            let indent = &raw[..raw.len() - unindented.len()];
            let content = unindented.trim_end_matches(|c| is_ws(fold(c).0));
            let trailing = &unindented[content.len()..];
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
pub(super) enum Cond {
    Equal,
    StartsWith,
    EndsWith,
    Contains,
}

pub(super) fn cond_for(lines: &[OldLine<'_>], j: usize) -> Cond {
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

pub(super) fn cond_holds_str(cond: Cond, hay: &str, needle: &str) -> bool {
    match cond {
        Cond::Equal => hay == needle,
        Cond::StartsWith => hay.starts_with(needle),
        Cond::EndsWith => hay.ends_with(needle),
        Cond::Contains => hay.contains(needle),
    }
}

/// Char positions in `hay` where `needle` satisfies `cond` (all overlapping ones for
/// `Contains`).
pub(super) fn cond_positions(cond: Cond, hay: &[char], needle: &[char]) -> Vec<usize> {
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
pub(super) struct FLine {
    pub(super) start: usize,
    /// End of the line's text, before `\r\n` / `\n`.
    pub(super) raw_end: usize,
    pub(super) cr: bool,
    pub(super) terminated: bool,
}

pub(super) fn fline_at(text: &[u8], start: usize) -> Option<FLine> {
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
        raw_end: if cr { end - 1 } else { end },
        cr,
        terminated,
    })
}

impl FLine {
    /// The line's bytes without its line ending.
    pub(super) fn raw<'t>(&self, text: &'t [u8]) -> &'t [u8] {
        text.get(self.start..self.raw_end).unwrap_or(&[])
    }

    pub(super) fn next_start(&self) -> Option<usize> {
        self.terminated
            .then_some(self.raw_end + usize::from(self.cr) + 1)
    }
}

/// `k` consecutive lines from `start`, or `None` if the file ends first.
pub(super) fn file_lines(text: &[u8], start: usize, k: usize) -> Option<Vec<FLine>> {
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
pub(super) fn line_start_back(text: &[u8], mut start: usize, back: usize) -> Option<usize> {
    for _ in 0..back {
        if start == 0 {
            return None;
        }
        let before = text.get(..start - 1)?;
        start = memchr::memrchr(b'\n', before).map_or(0, |i| i + 1);
    }
    Some(start)
}

/// End of the leading whitespace of a line (without its line ending).
pub(super) fn indent_len(line: &[u8]) -> usize {
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

/// End of the text of a line (without its line ending) before trailing whitespace (at least `indent_len`).
pub(super) fn content_end(line: &[u8]) -> usize {
    let n = normalize(line);
    n.last().map_or(line.len(), |c| c.end)
}

/// Start offset of 0-based line `target`, walking from a known `(line, offset)`.
pub(super) fn locate(text: &[u8], hint: (usize, usize), target: usize) -> Option<usize> {
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

pub(super) fn lossy(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}
