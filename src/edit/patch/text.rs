//! Byte-level helpers the patch parsers and the applier share: splitting text into lines (the
//! patch's, and a file body's with where each line starts and ends), ASCII trimming, and the
//! UTF-8 byte order mark. Pure; no I/O, no panics.

/// The UTF-8 byte order mark.
pub(super) const BOM: &[u8] = b"\xef\xbb\xbf";

/// The lines of a patch, each without its `\n` (a `\r` before it stays). A final line without
/// `\n` is a line too; text ending in `\n` has no empty line after it.
pub(super) fn patch_lines(text: &[u8]) -> Vec<&[u8]> {
    let mut lines: Vec<&[u8]> = text.split(|&b| b == b'\n').collect();
    if text.is_empty() || text.ends_with(b"\n") {
        lines.pop();
    }
    lines
}

/// `line` without one trailing `\r`.
pub(super) fn chomp_cr(line: &[u8]) -> &[u8] {
    line.strip_suffix(b"\r").unwrap_or(line)
}

/// `s` without leading and trailing ASCII whitespace.
pub(super) fn trim(s: &[u8]) -> &[u8] {
    s.trim_ascii()
}

/// One line of a file body: `bytes[start..content_end]` is its content (a `\r` before the
/// `\n` included), `bytes[content_end..end]` its `\n` (empty for a last line without one).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct BodyLine {
    pub start: usize,
    pub content_end: usize,
    pub end: usize,
}

/// The lines of a file body, split after each `\n`.
pub(super) fn body_lines(body: &[u8]) -> Vec<BodyLine> {
    let mut out = Vec::new();
    let mut start = 0;
    for i in memchr::memchr_iter(b'\n', body) {
        out.push(BodyLine {
            start,
            content_end: i,
            end: i + 1,
        });
        start = i + 1;
    }
    if start < body.len() {
        out.push(BodyLine {
            start,
            content_end: body.len(),
            end: body.len(),
        });
    }
    out
}

/// Text for a message: lossy UTF-8, at most `max` characters (an ellipsis marks a cut).
pub(super) fn shown(bytes: &[u8], max: usize) -> String {
    let text = String::from_utf8_lossy(bytes);
    let mut out: String = text.chars().take(max).collect();
    if text.chars().count() > max {
        out.push('…');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn patch_lines_split_after_newlines() {
        assert!(patch_lines(b"").is_empty());
        assert_eq!(patch_lines(b"a\n"), vec![&b"a"[..]]);
        assert_eq!(patch_lines(b"a\r\n\nb"), vec![&b"a\r"[..], b"", b"b"]);
    }

    #[test]
    fn body_lines_keep_their_carriage_returns() {
        let body = b"a\r\nb\nc";
        let lines = body_lines(body);
        assert_eq!(lines.len(), 3);
        assert_eq!(&body[lines[0].start..lines[0].content_end], b"a\r");
        assert_eq!(&body[lines[2].start..lines[2].end], b"c");
        assert_eq!(lines[2].content_end, lines[2].end);
        assert!(body_lines(b"").is_empty());
        assert_eq!(body_lines(b"\n").len(), 1);
    }

    #[test]
    fn shown_cuts_long_text() {
        assert_eq!(shown(b"abc", 2), "ab…");
        assert_eq!(shown(b"ab\xff", 5), "ab\u{fffd}");
    }
}
