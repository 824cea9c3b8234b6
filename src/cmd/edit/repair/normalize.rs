//! Line normalization for fuzzy matching: the look-alike folding (curly quotes and primes to
//! straight quotes, dashes and the minus sign to `-`, non-breaking and other Unicode spaces to
//! a space, the ellipsis to three dots), invalid bytes read as U+FFFD, and leading and
//! trailing whitespace trimmed, with each normalized char mapped back to the bytes it came
//! from. It works on one line at a time (no `\n`, no `\r`) and must not know about `old`,
//! the file, or matching.

/// The look-alike folding: `(folded char, how many times)`.
pub(super) fn fold(c: char) -> (char, usize) {
    match c {
        '\u{2018}' | '\u{2019}' | '\u{201A}' | '\u{201B}' | '\u{2032}' => ('\'', 1),
        '\u{201C}' | '\u{201D}' | '\u{201E}' | '\u{201F}' | '\u{2033}' => ('"', 1),
        '\u{2010}'..='\u{2015}' | '\u{2212}' => ('-', 1),
        '\u{00A0}' | '\u{2000}'..='\u{200A}' | '\u{202F}' | '\u{205F}' | '\u{3000}' => (' ', 1),
        '\u{2026}' => ('.', 3),
        _ => (c, 1),
    }
}

pub(super) fn is_ws(c: char) -> bool {
    matches!(c, ' ' | '\t' | '\u{0B}' | '\u{0C}')
}

/// Calls `f(char, byte_start, byte_end)` for every char of `line`; invalid bytes become
/// U+FFFD (one per invalid sequence).
pub(super) fn for_each_char(line: &[u8], mut f: impl FnMut(char, usize, usize)) {
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
pub(super) struct NChar {
    pub(super) c: char,
    pub(super) start: usize,
    pub(super) end: usize,
}

/// Folded chars of `line` (no `\r`) with leading and trailing whitespace trimmed.
pub(super) fn normalize(line: &[u8]) -> Vec<NChar> {
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
pub(super) fn normalize_into(line: &[u8], out: &mut String) {
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
}
