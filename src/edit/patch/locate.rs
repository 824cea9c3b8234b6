//! Where a hunk's old side is in a file body: whole consecutive lines equal to it at or after a
//! line, exactly or (the CRLF pass) with the file's `\r` before `\n` ignored where the hunk's
//! line has none; a UTF-8 BOM on the file's first line matches with or without it. Also the
//! Codex anchor search. Pure; no I/O, no panics.

use super::text::{BOM, BodyLine, trim};

/// How lines are compared.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Pass {
    Exact,
    /// The file's line may have a `\r` the hunk's line lacks.
    Crlf,
}

/// A match of an old side starting at a body line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Found {
    pub start: usize,
    /// The first line matched without the file's BOM.
    pub bom_stripped: bool,
    /// Some line matched only with the file's `\r` ignored.
    pub crlf: bool,
}

/// A file body split into lines.
pub(super) struct Body<'a> {
    pub bytes: &'a [u8],
    pub lines: Vec<BodyLine>,
}

impl Body<'_> {
    pub(super) fn content(&self, i: usize) -> &[u8] {
        self.lines
            .get(i)
            .map_or(&[][..], |l| &self.bytes[l.start..l.content_end])
    }

    pub(super) fn has_bom(&self) -> bool {
        self.bytes.starts_with(BOM)
    }

    /// The body's last line has no `\n`.
    pub(super) fn unterminated(&self) -> bool {
        !self.bytes.is_empty() && !self.bytes.ends_with(b"\n")
    }

    pub(super) fn has_crlf(&self) -> bool {
        memchr::memmem::find(self.bytes, b"\r\n").is_some()
    }

    /// Whether body line `i` equals `want` under `pass`: `Some(used the \r tolerance)`.
    fn line_eq(&self, content: &[u8], want: &[u8], pass: Pass) -> Option<bool> {
        if content == want {
            return Some(false);
        }
        (pass == Pass::Crlf && content.strip_suffix(b"\r") == Some(want)).then_some(true)
    }

    /// Whether `old` matches at body line `start`.
    fn matches_at(&self, start: usize, old: &[&[u8]], pass: Pass) -> Option<Found> {
        let mut found = Found {
            start,
            bom_stripped: false,
            crlf: false,
        };
        for (k, want) in old.iter().enumerate() {
            let content = self.content(start + k);
            let crlf = match self.line_eq(content, want, pass) {
                Some(crlf) => crlf,
                None if start + k == 0 && self.has_bom() => {
                    found.bom_stripped = true;
                    self.line_eq(&content[BOM.len()..], want, pass)?
                }
                None => return None,
            };
            found.crlf |= crlf;
        }
        Some(found)
    }

    /// Every start at or after `from` where the non-empty `old` matches under `pass`.
    pub(super) fn candidates(&self, old: &[&[u8]], from: usize, pass: Pass) -> Vec<Found> {
        let n = self.lines.len();
        if old.is_empty() || old.len() > n {
            return Vec::new();
        }
        (from..=n - old.len())
            .filter_map(|s| self.matches_at(s, old, pass))
            .collect()
    }

    /// The first line at or after `from` equal to `anchor` (BOM aside), else the first equal
    /// to it once both are trimmed of whitespace.
    pub(super) fn anchor(&self, anchor: &[u8], from: usize) -> Option<usize> {
        let bare = |i: usize| {
            let c = self.content(i);
            if i == 0 {
                c.strip_prefix(BOM).unwrap_or(c)
            } else {
                c
            }
        };
        let range = from..self.lines.len();
        range
            .clone()
            .find(|&i| bare(i) == anchor)
            .or_else(|| range.clone().find(|&i| trim(bare(i)) == trim(anchor)))
    }
}

#[cfg(test)]
mod tests {
    use super::super::text::body_lines;
    use super::*;

    fn body(bytes: &[u8]) -> Body<'_> {
        Body {
            bytes,
            lines: body_lines(bytes),
        }
    }

    fn starts(b: &Body, old: &[&[u8]], from: usize, pass: Pass) -> Vec<usize> {
        b.candidates(old, from, pass)
            .iter()
            .map(|f| f.start)
            .collect()
    }

    #[test]
    fn candidates_are_whole_lines_at_or_after_from() {
        let b = body(b"a\nb\na\nb\nxa\n");
        assert_eq!(starts(&b, &[b"a", b"b"], 0, Pass::Exact), vec![0, 2]);
        assert_eq!(starts(&b, &[b"a", b"b"], 1, Pass::Exact), vec![2]);
        assert_eq!(starts(&b, &[b"a"], 3, Pass::Exact), Vec::<usize>::new());
        assert!(starts(&b, &[&b"a"[..]; 9], 0, Pass::Exact).is_empty());
        assert!(starts(&b, &[], 0, Pass::Exact).is_empty());
        assert!(starts(&b, &[b"a"], 99, Pass::Exact).is_empty());
    }

    #[test]
    fn crlf_pass_ignores_the_files_carriage_return_only() {
        let b = body(b"a\r\nb\r\n");
        assert!(starts(&b, &[b"a", b"b"], 0, Pass::Exact).is_empty());
        let found = b.candidates(&[b"a", b"b"], 0, Pass::Crlf);
        assert_eq!(found.len(), 1);
        assert!(found[0].crlf);
        assert_eq!(starts(&b, &[b"a\r"], 0, Pass::Exact), vec![0]);
        // A hunk line with a \r the file lacks does not match.
        assert!(starts(&body(b"a\n"), &[b"a\r"], 0, Pass::Crlf).is_empty());
    }

    #[test]
    fn a_bom_on_line_one_matches_with_or_without_it() {
        let b = body(b"\xef\xbb\xbfa\nb\n");
        let found = b.candidates(&[b"a", b"b"], 0, Pass::Exact);
        assert_eq!(found.len(), 1);
        assert!(found[0].bom_stripped);
        let found = b.candidates(&[b"\xef\xbb\xbfa"], 0, Pass::Exact);
        assert!(!found[0].bom_stripped);
        assert_eq!(b.anchor(b"a", 0), Some(0));
    }

    #[test]
    fn anchors_prefer_exact_then_trimmed() {
        let b = body(b"  def f():\nclass A\ndef f():\n");
        assert_eq!(b.anchor(b"def f():", 0), Some(2));
        assert_eq!(b.anchor(b"def f():  ", 0), Some(0));
        assert_eq!(b.anchor(b"class A", 2), None);
        assert_eq!(b.anchor(b"x", 0), None);
    }
}
