//! The lines `repair` compares: the lines of `old` split into indentation, content and trailing
//! whitespace ([`OldLine`]), the condition a file line must meet to stand for one of them
//! ([`Cond`]: the whole line, its start, its end or any part of it, by where the line sits in
//! `old`), and the physical lines of the file ([`FLine`]) with walking forwards and backwards
//! from a known line. It must not scan the whole file or decide anything about a match.

use super::normalize::{for_each_char, is_blank, normalize};

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
            let unindented = raw.trim_start_matches(is_blank);
            let indent = &raw[..raw.len() - unindented.len()];
            let content = unindented.trim_end_matches(is_blank);
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
        if !done && is_blank(c) {
            n = end;
        } else {
            done = true;
        }
    });
    n
}

/// End of the text of a line (without its line ending) before trailing whitespace (at least
/// `indent_len`).
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

#[cfg(test)]
mod tests {
    use super::*;

    fn parts<'a>(l: &OldLine<'a>) -> (&'a str, bool, &'a str, &'a str, &'a str, String) {
        (
            l.raw,
            l.cr,
            l.indent,
            l.content,
            l.trailing,
            l.norm.iter().collect(),
        )
    }

    #[test]
    fn old_lines_split_into_indent_content_trailing_and_cr() {
        let lines = old_lines("  \tfoo  bar \r\n\u{A0}x\u{2003}\n\n   ");
        assert_eq!(lines.len(), 4);
        assert_eq!(
            parts(&lines[0]),
            (
                "  \tfoo  bar ",
                true,
                "  \t",
                "foo  bar",
                " ",
                "foo  bar".into()
            )
        );
        // Unicode spaces are indentation and trailing whitespace too.
        assert_eq!(
            parts(&lines[1]),
            (
                "\u{A0}x\u{2003}",
                false,
                "\u{A0}",
                "x",
                "\u{2003}",
                "x".into()
            )
        );
        assert_eq!(parts(&lines[2]), ("", false, "", "", "", String::new()));
        // A blank line is all indentation: no content, no trailing part.
        assert_eq!(
            parts(&lines[3]),
            ("   ", false, "   ", "", "", String::new())
        );
        // A final newline leaves an empty last line; a lone \r is content, not an ending.
        assert_eq!(old_lines("a\n").len(), 2);
        assert_eq!(parts(&old_lines("a\rb")[0]).0, "a\rb");
    }

    #[test]
    fn cond_depends_on_where_the_line_sits_in_old() {
        let cond = |old: &str, j: usize| cond_for(&old_lines(old), j);
        // A single line: indentation pins its start, trailing whitespace its end.
        assert_eq!(cond("  x  ", 0), Cond::Equal);
        assert_eq!(cond("  x", 0), Cond::StartsWith);
        assert_eq!(cond("x  ", 0), Cond::EndsWith);
        assert_eq!(cond("x", 0), Cond::Contains);
        // First of several lines: it runs to the end of its line.
        assert_eq!(cond("  x\ny", 0), Cond::Equal);
        assert_eq!(cond("x\ny", 0), Cond::EndsWith);
        // Last of several: it starts its line.
        assert_eq!(cond("x\ny ", 1), Cond::Equal);
        assert_eq!(cond("x\ny", 1), Cond::StartsWith);
        // Middle lines are whole lines.
        assert_eq!(cond("x\ny\nz", 1), Cond::Equal);
        // Whitespace alone does not pin anything; past the end is Equal.
        assert_eq!(cond("   ", 0), Cond::Contains);
        assert_eq!(cond("x", 5), Cond::Equal);
    }

    #[test]
    fn cond_positions_and_cond_holds_str() {
        let c = |s: &str| s.chars().collect::<Vec<_>>();
        let hay = c("abab");
        assert_eq!(cond_positions(Cond::Contains, &hay, &c("ab")), vec![0, 2]);
        // Overlapping occurrences all count.
        assert_eq!(
            cond_positions(Cond::Contains, &c("aaaa"), &c("aa")),
            vec![0, 1, 2]
        );
        assert_eq!(cond_positions(Cond::StartsWith, &hay, &c("ab")), vec![0]);
        assert_eq!(cond_positions(Cond::EndsWith, &hay, &c("ab")), vec![2]);
        assert_eq!(
            cond_positions(Cond::Equal, &hay, &c("ab")),
            Vec::<usize>::new()
        );
        assert_eq!(cond_positions(Cond::Equal, &hay, &hay), vec![0]);
        assert_eq!(
            cond_positions(Cond::EndsWith, &c("a"), &c("ab")),
            Vec::<usize>::new()
        );
        // An empty needle is never "contained"; callers handle blank lines themselves.
        assert_eq!(
            cond_positions(Cond::Contains, &hay, &[]),
            Vec::<usize>::new()
        );
        assert_eq!(
            cond_positions(Cond::Contains, &c("a"), &c("ab")),
            Vec::<usize>::new()
        );

        assert!(cond_holds_str(Cond::Equal, "ab", "ab"));
        assert!(!cond_holds_str(Cond::Equal, "abc", "ab"));
        assert!(cond_holds_str(Cond::StartsWith, "abc", "ab"));
        assert!(!cond_holds_str(Cond::StartsWith, "cab", "ab"));
        assert!(cond_holds_str(Cond::EndsWith, "cab", "ab"));
        assert!(cond_holds_str(Cond::Contains, "cabc", "ab"));
        assert!(!cond_holds_str(Cond::Contains, "a b", "ab"));
    }

    fn shape(text: &[u8], l: &FLine) -> (String, bool, bool, Option<usize>) {
        (lossy(l.raw(text)), l.cr, l.terminated, l.next_start())
    }

    #[test]
    fn file_lines_know_crlf_lf_and_the_unterminated_last_line() {
        let text = b"a\r\nbb\n\r\nc";
        let ls = file_lines(text, 0, 4).unwrap();
        assert_eq!(shape(text, &ls[0]), ("a".into(), true, true, Some(3)));
        assert_eq!(shape(text, &ls[1]), ("bb".into(), false, true, Some(6)));
        // A CRLF blank line is empty, not "\r".
        assert_eq!(shape(text, &ls[2]), ("".into(), true, true, Some(8)));
        assert_eq!(shape(text, &ls[3]), ("c".into(), false, false, None));
        assert_eq!((ls[0].start, ls[0].raw_end), (0, 1));
        // The file ends first.
        assert!(file_lines(text, 0, 5).is_none());
        assert!(file_lines(text, 3, 3).is_some());
        // After a final newline there is one empty, unterminated line; past the end, none.
        let text = b"x\n";
        assert_eq!(
            shape(text, &fline_at(text, 2).unwrap()),
            ("".into(), false, false, None)
        );
        assert!(fline_at(text, 3).is_none());
        assert_eq!(file_lines(text, 0, 2).unwrap().len(), 2);
    }

    #[test]
    fn walking_lines_back_and_forth() {
        let text = b"l0\nl1\r\nl2\n\nl4";
        // Line starts: 0, 3, 7, 10, 11.
        assert_eq!(line_start_back(text, 11, 0), Some(11));
        assert_eq!(line_start_back(text, 11, 1), Some(10));
        assert_eq!(line_start_back(text, 11, 3), Some(3));
        assert_eq!(line_start_back(text, 11, 4), Some(0));
        assert_eq!(line_start_back(text, 11, 5), None);
        for (target, start) in [(0, 0), (1, 3), (2, 7), (3, 10), (4, 11)] {
            assert_eq!(locate(text, (2, 7), target), Some(start), "line {target}");
        }
        assert_eq!(locate(text, (4, 11), 0), Some(0));
        // No line 5: the last line has no newline.
        assert_eq!(locate(text, (0, 0), 5), None);
    }

    #[test]
    fn indentation_and_content_ends_in_bytes() {
        let line = "\u{A0}\tx y \u{2003}".as_bytes();
        // No-break space (2 bytes) and tab; content ends after y, before " \u{2003}".
        assert_eq!(indent_len(line), 3);
        assert_eq!(content_end(line), 6);
        assert_eq!(indent_len(b"x  "), 0);
        assert_eq!(content_end(b"x  "), 1);
        // A blank line is all indentation.
        assert_eq!(indent_len(b" \t "), 3);
        assert_eq!(content_end(b" \t "), 3);
        assert_eq!((indent_len(b""), content_end(b"")), (0, 0));
        assert_eq!(lossy(b"a\xffb"), "a\u{FFFD}b");
    }
}
