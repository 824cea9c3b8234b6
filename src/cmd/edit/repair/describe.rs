//! The one-sentence `difference` of a miss: for a whitespace match, the first line where the
//! file and `old` differ and how (indentation, trailing whitespace, a look-alike character, a
//! line ending, the final newline); for a similar passage, the first line whose content
//! differs, quoted from both sides (each quote cut at 120 chars). It reads only the lines it
//! describes and must not search the file or choose candidates.

use super::lines::{
    Cond, FLine, OldLine, cond_for, cond_positions, content_end, file_lines, fline_at, indent_len,
    locate, lossy,
};
use super::normalize::{is_blank, normalize};
use super::{FuzzyMatch, MAX_FUZZY_LINE};

const QUOTE_MAX_CHARS: usize = 120;

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
        c if is_blank(c) => format!("a Unicode space (U+{:04X})", c as u32),
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

/// `(0-based focus line, sentence)` for a whitespace match.
pub(super) fn whitespace_difference(
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
        let b = f.raw(text);
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

/// `(0-based focus line, sentence)` for old aligned so that its line 0 is file line `shift`
/// (negative: old starts above the file).
pub(super) fn similar_difference(
    text: &[u8],
    olds: &[OldLine<'_>],
    shift: isize,
    hint: (usize, usize),
) -> (usize, String) {
    for (j, o) in olds.iter().enumerate() {
        let li = shift + j as isize;
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
        let b = f.raw(text);
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
    let li = shift.max(0) as usize;
    let fb = locate(text, hint, li)
        .and_then(|off| fline_at(text, off))
        .map(|f| {
            let b = f.raw(text);
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cmd::edit::repair::lines::old_lines;
    use crate::cmd::edit::repair::{Diagnosis, diagnose};

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
    fn describing_every_kind_of_whitespace() {
        assert_eq!(describe_ws("\t\t"), "2 tabs");
        assert_eq!(describe_ws(" "), "a space");
        assert_eq!(describe_ws("\u{A0}"), "a non-breaking space");
        assert_eq!(describe_ws("\u{A0}\u{A0}"), "2 non-breaking spaces");
        assert_eq!(describe_ws("\u{2003}"), "a other whitespace character");
        assert_eq!(
            describe_ws("\t \u{A0}\u{3000}\u{2009}"),
            "a tab and a space and a non-breaking space and 2 other whitespace characters"
        );
        assert_eq!(describe_trailing("\t"), "a trailing tab");
        assert_eq!(
            describe_trailing("\t "),
            "trailing whitespace (a tab and a space)"
        );
        assert_eq!(plural(1, "x", "xs"), "a x");
        assert_eq!(plural(0, "x", "xs"), "0 xs");
    }

    #[test]
    fn describing_lookalike_chars() {
        let cases = [
            ('\'', "a straight quote (')"),
            ('"', "a straight quote (\")"),
            ('\u{2018}', "a curly quote (\u{2018})"),
            ('\u{201D}', "a curly quote (\u{201D})"),
            ('\u{201E}', "a curly quote (\u{201E})"),
            ('\u{2032}', "a prime (\u{2032})"),
            ('\u{2033}', "a prime (\u{2033})"),
            (' ', "a space"),
            ('\u{A0}', "a non-breaking space"),
            ('\u{202F}', "a narrow non-breaking space"),
            ('\u{2009}', "a Unicode space (U+2009)"),
            ('\u{3000}', "a Unicode space (U+3000)"),
            ('-', "a hyphen (-)"),
            ('\u{2013}', "an en dash (–)"),
            ('\u{2014}', "an em dash (—)"),
            ('\u{2212}', "a minus sign (−)"),
            ('\u{2011}', "\u{2011} (U+2011)"),
            ('\u{2026}', "an ellipsis (…)"),
            ('.', "three dots (...)"),
        ];
        for (c, want) in cases {
            assert_eq!(describe_char(c), want, "{c:?}");
        }
    }

    #[test]
    fn first_differing_char() {
        assert_eq!(
            char_difference("a\u{2019}b'", "a'b\u{2019}"),
            Some(('\u{2019}', '\''))
        );
        assert_eq!(char_difference("ab", "ab"), None);
        // A difference in length is not a look-alike.
        assert_eq!(char_difference("ab", "abc"), None);
        assert_eq!(char_difference("", "a"), None);
    }

    #[test]
    fn quotes_are_cut_at_120_chars() {
        assert_eq!(QUOTE_MAX_CHARS, 120);
        let q = quote(&"é".repeat(120));
        assert_eq!(q, format!("\"{}\"", "é".repeat(120)));
        let q = quote(&"é".repeat(121));
        assert_eq!(q, format!("\"{}…\"", "é".repeat(120)));
        assert_eq!(quote(""), "\"\"");
    }

    /// `(focus, sentence)` for the first whitespace match of `old` in `text`.
    fn ws(text: &str, old: &str) -> (usize, String) {
        let olds = old_lines(old);
        match diagnose(text.as_bytes(), old) {
            Diagnosis::Whitespace { matches, .. } => {
                whitespace_difference(text.as_bytes(), &olds, &matches[0], matches.len())
            }
            _ => panic!("expected a whitespace match of {old:?} in {text:?}"),
        }
    }

    fn say(focus: usize, s: &str) -> (usize, String) {
        (focus, s.to_string())
    }

    #[test]
    fn whitespace_sentences_for_indentation() {
        assert_eq!(
            ws("fn f() {\n\tx();\n}\n", "fn f() {\n    x();\n}"),
            say(1, "line 2: file has a tab where old has 4 spaces")
        );
        assert_eq!(
            ws("\t  x\n", "    x"),
            say(
                0,
                "line 1: file has a tab and 2 spaces where old has 4 spaces"
            )
        );
        assert_eq!(
            ws("x = 1\ny\n", "  x = 1\ny"),
            say(0, "line 1: file has no indentation where old has 2 spaces")
        );
        assert_eq!(
            ws("a\n\u{A0}b\n", "a\n b"),
            say(
                1,
                "line 2: file has a non-breaking space where old has a space"
            )
        );
    }

    #[test]
    fn whitespace_sentences_for_trailing_whitespace() {
        assert_eq!(
            ws("a  \nb\n", "a\nb"),
            say(
                0,
                "line 1: file has trailing whitespace (2 spaces) that old lacks"
            )
        );
        assert_eq!(
            ws("a\nb\n", "a \nb"),
            say(0, "line 1: old has a trailing space that the file lacks")
        );
        assert_eq!(
            ws("a\t\nb\n", "a \nb"),
            say(
                0,
                "line 1: file has trailing a tab where old has trailing a space"
            )
        );
        // Lines after the first are compared from their start, indentation included.
        assert_eq!(
            ws("a\n  b \n", "a\nb "),
            say(1, "line 2: file has 2 spaces where old has no indentation")
        );
    }

    #[test]
    fn whitespace_sentences_for_blank_lines() {
        assert_eq!(
            ws("a\n  \nb\n", "a\n\nb"),
            say(
                1,
                "line 2: file has trailing whitespace (2 spaces) that old lacks"
            )
        );
        assert_eq!(
            ws("a\n\nb\n", "a\n\t\nb"),
            say(1, "line 2: old has a trailing tab that the file lacks")
        );
        assert_eq!(
            ws("a\n\t\nb\n", "a\n  \nb"),
            say(
                1,
                "line 2: file has a blank line of a tab where old has 2 spaces"
            )
        );
    }

    #[test]
    fn whitespace_sentences_for_line_endings() {
        assert_eq!(
            ws("a\r\nb\n", "a\nb"),
            say(0, "line 1: file has CRLF line endings where old has LF")
        );
        assert_eq!(
            ws("x\na\nb\r\n", "a\r\nb"),
            say(1, "line 2: file has LF line endings where old has CRLF")
        );
        assert_eq!(
            ws("x\na\nb", "a\nb\n"),
            say(
                2,
                "line 3: the file ends without a final newline where old has one"
            )
        );
        // Indentation is reported before the line ending of the same line.
        assert_eq!(
            ws("\ta\r\nb\n", "    a\nb"),
            say(0, "line 1: file has a tab where old has 4 spaces")
        );
    }

    #[test]
    fn whitespace_sentences_for_lookalikes_and_counts() {
        assert_eq!(
            ws("let x = a \u{2014} b; // c\n", "a - b"),
            say(
                0,
                "line 1: file has an em dash (—) where old has a hyphen (-)"
            )
        );
        assert_eq!(
            ws("\tx = 1;\n\ty = 2;\n\tx = 1;\n", "    x = 1;"),
            say(
                0,
                "line 1: file has a tab where old has 4 spaces (2 places match when whitespace \
                 and look-alikes are ignored)"
            )
        );
        // Nothing to point at: old would even match byte for byte (plan never asks then).
        assert_eq!(
            ws("  foo\n", "foo\n"),
            say(0, "line 1: old matches only when whitespace is ignored")
        );
    }

    fn sim(text: &str, old: &str, shift: isize) -> (usize, String) {
        similar_difference(text.as_bytes(), &old_lines(old), shift, (0, 0))
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
            say(1, "line 3: the file ends where old continues with \"c\"")
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
}
