//! Line normalization for fuzzy matching: the look-alike folding (curly quotes and primes to
//! straight quotes, dashes and the minus sign to `-`, non-breaking and other Unicode spaces to
//! a space, the ellipsis to three dots), invisible characters (zero-width space and joiners,
//! a BOM inside text, the soft hyphen, direction marks) dropped, precomposed letters
//! decomposed (`nfd`), so that NFC and NFD text compare equal, invalid bytes read as U+FFFD,
//! and leading and trailing whitespace trimmed, with each normalized char mapped back to the
//! bytes it came from. It works on one line at a time (no `\n`, no `\r`) and must not know
//! about `old`, the file, or matching.

use super::nfd::decompose;

/// The look-alike folding: what `c` stands for when matching, passed to `push` (nothing for
/// an invisible char, three dots for an ellipsis, the base letter and its marks for a
/// precomposed letter).
pub(super) fn fold(c: char, mut push: impl FnMut(char)) {
    match c {
        '\u{2018}' | '\u{2019}' | '\u{201A}' | '\u{201B}' | '\u{2032}' => push('\''),
        '\u{201C}' | '\u{201D}' | '\u{201E}' | '\u{201F}' | '\u{2033}' => push('"'),
        '\u{2010}'..='\u{2015}' | '\u{2212}' => push('-'),
        c if is_unicode_space(c) => push(' '),
        '\u{2026}' => {
            push('.');
            push('.');
            push('.');
        }
        c if is_invisible(c) => {}
        c => match decompose(c) {
            Some(d) => d.chars().for_each(push),
            None => push(c),
        },
    }
}

/// `c` folded, as a string.
#[cfg(test)]
pub(super) fn folded(c: char) -> String {
    let mut s = String::new();
    fold(c, |f| s.push(f));
    s
}

fn is_unicode_space(c: char) -> bool {
    matches!(
        c,
        '\u{00A0}' | '\u{2000}'..='\u{200A}' | '\u{202F}' | '\u{205F}' | '\u{3000}'
    )
}

/// Characters that take no room on screen, so a caller cannot see them to copy them: the
/// soft hyphen, zero-width space, non-joiner and joiner, direction marks and controls, the
/// word joiner and invisible operators, and U+FEFF (a BOM inside text).
pub(super) fn is_invisible(c: char) -> bool {
    matches!(
        c,
        '\u{00AD}'
            | '\u{200B}'..='\u{200F}'
            | '\u{202A}'..='\u{202E}'
            | '\u{2060}'..='\u{2064}'
            | '\u{2066}'..='\u{2069}'
            | '\u{FEFF}'
    )
}

/// A combining mark of the block precomposed letters decompose into.
pub(super) fn is_combining(c: char) -> bool {
    ('\u{0300}'..='\u{036F}').contains(&c)
}

pub(super) fn is_ws(c: char) -> bool {
    matches!(c, ' ' | '\t' | '\u{0B}' | '\u{0C}')
}

/// Whitespace once folded: indentation and trailing whitespace are made of these.
pub(super) fn is_blank(c: char) -> bool {
    is_ws(c) || is_unicode_space(c)
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
        fold(c, |f| {
            if !(out.is_empty() && is_ws(f)) {
                out.push(NChar { c: f, start, end });
            }
        });
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
        fold(c, |f| {
            if !(out.is_empty() && is_ws(f)) {
                out.push(f);
            }
        });
    });
    let kept = out.trim_end_matches(is_ws).len();
    out.truncate(kept);
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

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
    fn invisible_chars_vanish_and_letters_decompose() {
        // NFC and NFD spell the same line; a zero-width space and a soft hyphen are nothing.
        assert_eq!(norm("caf\u{E9}"), norm("cafe\u{301}"));
        assert_eq!(norm("a\u{200B}b\u{AD}c\u{FEFF}"), "abc");
        // Both chars of a decomposed é point at its two bytes; the invisible char at none.
        let n = normalize("\u{E9}\u{200B}x".as_bytes());
        let got: Vec<(char, usize, usize)> = n.iter().map(|n| (n.c, n.start, n.end)).collect();
        assert_eq!(got, vec![('e', 0, 2), ('\u{301}', 0, 2), ('x', 5, 6)]);
        // An invisible char before the indentation does not stop its trimming.
        assert_eq!(norm("\u{200B}  x"), "x");
    }

    #[test]
    fn every_lookalike_folds_to_its_ascii_form() {
        for c in ['\u{2018}', '\u{2019}', '\u{201A}', '\u{201B}', '\u{2032}'] {
            assert_eq!(folded(c), "'", "{c:?}");
        }
        for c in ['\u{201C}', '\u{201D}', '\u{201E}', '\u{201F}', '\u{2033}'] {
            assert_eq!(folded(c), "\"", "{c:?}");
        }
        for c in ('\u{2010}'..='\u{2015}').chain(['\u{2212}']) {
            assert_eq!(folded(c), "-", "{c:?}");
        }
        let spaces =
            ('\u{2000}'..='\u{200A}').chain(['\u{A0}', '\u{202F}', '\u{205F}', '\u{3000}']);
        for c in spaces {
            assert_eq!(folded(c), " ", "{c:?}");
            assert!(is_blank(c) && !is_invisible(c), "{c:?}");
        }
        assert_eq!(folded('\u{2026}'), "...");
        // Invisible chars stand for nothing; precomposed letters for their decomposition.
        for c in [
            '\u{AD}', '\u{200B}', '\u{200C}', '\u{200D}', '\u{200E}', '\u{202A}', '\u{2060}',
            '\u{2066}', '\u{FEFF}',
        ] {
            assert_eq!(folded(c), "", "{c:?}");
            assert!(is_invisible(c), "{c:?}");
        }
        assert_eq!(folded('é'), "e\u{301}");
        assert_eq!(folded('\u{1EC7}'), "e\u{323}\u{302}");
        // Anything else is itself: a combining mark, the replacement char, other punctuation.
        for c in [
            'a', '\'', '\u{301}', '\u{FFFD}', '\u{2016}', '\u{2027}', '\u{180E}',
        ] {
            assert_eq!(folded(c), c.to_string(), "{c:?}");
        }
        assert!(is_combining('\u{301}') && !is_combining('e'));
    }

    #[test]
    fn whitespace_is_space_tab_vt_ff_only() {
        for c in [' ', '\t', '\u{0B}', '\u{0C}'] {
            assert!(is_ws(c), "{c:?}");
        }
        // Unicode spaces count only once folded; line endings never reach normalization.
        for c in ['\u{A0}', '\u{3000}', '\r', '\n', 'x'] {
            assert!(!is_ws(c), "{c:?}");
        }
        for c in ['\r', '\n', 'x', '\u{200B}'] {
            assert!(!is_blank(c), "{c:?}");
        }
        assert_eq!(norm("\u{0B}\u{0C} x \u{0C}"), "x");
    }

    #[test]
    fn unicode_spaces_are_trimmed_at_the_ends_and_folded_inside() {
        assert_eq!(norm("\u{3000}\u{2003}a\u{2009}b\u{202F}\u{205F}"), "a b");
        // Inner runs are kept as they are: only the ends are trimmed.
        assert_eq!(norm("a \t b"), "a \t b");
        assert_eq!(norm("\t\u{2014}x\u{2026}"), "-x...");
    }

    #[test]
    fn invalid_bytes_read_as_one_replacement_char_per_sequence() {
        // \xff and \xfe are two sequences; \xe2\x80 is one truncated sequence.
        let n = normalize(b"a\xff\xfe\xe2\x80b");
        let got: Vec<(char, usize, usize)> = n.iter().map(|n| (n.c, n.start, n.end)).collect();
        assert_eq!(
            got,
            vec![
                ('a', 0, 1),
                ('\u{FFFD}', 1, 2),
                ('\u{FFFD}', 2, 3),
                ('\u{FFFD}', 3, 5),
                ('b', 5, 6),
            ]
        );
        // A replacement char is content, never whitespace.
        assert_eq!(norm_bytes(b" \xff "), "\u{FFFD}");
    }

    #[test]
    fn spans_skip_the_trimmed_indentation() {
        let n = normalize("\u{A0}\tx y\u{2003}".as_bytes());
        // The no-break space is 2 bytes and the tab 1, so x sits at byte 3.
        let got: Vec<(char, usize, usize)> = n.iter().map(|n| (n.c, n.start, n.end)).collect();
        assert_eq!(got, vec![('x', 3, 4), (' ', 4, 5), ('y', 5, 6)]);
    }

    fn norm_bytes(b: &[u8]) -> String {
        normalize(b).iter().map(|n| n.c).collect()
    }

    fn norm_into(b: &[u8]) -> String {
        let mut buf = String::from("left over from the last line");
        normalize_into(b, &mut buf);
        buf
    }

    #[test]
    fn normalize_into_ascii_fast_path() {
        assert_eq!(norm_into(b" \t\x0b\x0cfoo  bar\t \x0c"), "foo  bar");
        assert_eq!(norm_into(b" \t "), "");
        assert_eq!(norm_into(b""), "");
    }

    proptest! {
        /// The scan's string form and the verifier's char form never disagree, on the ASCII
        /// fast path or off it.
        #[test]
        fn normalize_into_agrees_with_normalize(
            pieces in prop::collection::vec(
                prop_oneof![
                    Just(&b" "[..]), Just(&b"\t"[..]), Just(&b"\x0b"[..]), Just(&b"\x0c"[..]),
                    Just(&b"a"[..]), Just(&b"'"[..]), Just(&b"\xff"[..]), Just(&b"\xe2\x80"[..]),
                    Just("\u{A0}".as_bytes()), Just("\u{2019}".as_bytes()),
                    Just("\u{2014}".as_bytes()), Just("\u{2026}".as_bytes()),
                    Just("\u{3000}".as_bytes()), Just("é".as_bytes()),
                    Just("\u{200B}".as_bytes()), Just("\u{301}".as_bytes()),
                ],
                0..12,
            ),
        ) {
            let line = pieces.concat();
            prop_assert_eq!(norm_into(&line), norm_bytes(&line));
        }
    }
}
