//! The one-sentence `difference` of a whitespace miss: each line where the file and `old`
//! differ and how — indentation, trailing whitespace, a look-alike character, an invisible
//! or a decomposed char (with its code point and column), a line ending, the final newline —
//! and the words every listing shares: how lines are listed ([`listed`], bounded and merged)
//! and quoted (cut at 120 chars). It reads only the lines it describes and must not search
//! the file or choose candidates.

use super::FuzzyMatch;
use super::lines::{FLine, OldLine, content_end, file_lines, indent_len, lossy};
use super::nfd::decompose;
use super::normalize::{is_blank, is_invisible};

pub(super) const QUOTE_MAX_CHARS: usize = 120;

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

/// The first difference between a file's and old's text of one line, which fuzzy matching
/// ignores: at `col` (0-based, in chars of the file's text).
#[derive(Debug, PartialEq, Eq)]
pub(super) enum CharDiff {
    /// Two chars that fold alike (curly and straight quotes, dashes, spaces, an ellipsis).
    Lookalike(char, char),
    /// An invisible char of the file that old lacks, or of old that the file lacks.
    FileInvisible(char),
    OldInvisible(char),
    /// A letter old has precomposed and the file decomposed (base + marks), or the reverse.
    FileDecomposed(char),
    OldDecomposed(char),
}

pub(super) fn char_difference(file: &str, old: &str) -> Option<(usize, CharDiff)> {
    let f: Vec<char> = file.chars().collect();
    let o: Vec<char> = old.chars().collect();
    let (mut i, mut j) = (0, 0);
    let spelled = |seq: &[char], d: &str| {
        let n = d.chars().count();
        seq.len() >= n && seq[..n].iter().copied().eq(d.chars())
    };
    while i < f.len() && j < o.len() {
        let (a, b) = (f[i], o[j]);
        if a == b {
            i += 1;
            j += 1;
            continue;
        }
        let d = if is_invisible(a) {
            CharDiff::FileInvisible(a)
        } else if is_invisible(b) {
            CharDiff::OldInvisible(b)
        } else if decompose(b).is_some_and(|d| spelled(&f[i..], d)) {
            CharDiff::FileDecomposed(b)
        } else if decompose(a).is_some_and(|d| spelled(&o[j..], d)) {
            CharDiff::OldDecomposed(a)
        } else {
            CharDiff::Lookalike(a, b)
        };
        return Some((i, d));
    }
    match (f.get(i), o.get(j)) {
        (Some(&a), _) if is_invisible(a) => Some((i, CharDiff::FileInvisible(a))),
        (_, Some(&b)) if is_invisible(b) => Some((i, CharDiff::OldInvisible(b))),
        _ => None,
    }
}

fn invisible(c: char) -> String {
    let name = match c {
        '\u{AD}' => "soft hyphen",
        '\u{200B}' => "zero-width space",
        '\u{200C}' => "zero-width non-joiner",
        '\u{200D}' => "zero-width joiner",
        '\u{200E}' => "left-to-right mark",
        '\u{200F}' => "right-to-left mark",
        '\u{2060}' => "word joiner",
        '\u{FEFF}' => "byte order mark",
        '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}' => "direction control",
        _ => "invisible operator",
    };
    format!("an invisible U+{:04X} ({name})", c as u32)
}

/// `e + U+0301`: a decomposed letter spelled out.
fn spelled_out(d: &str) -> String {
    let parts: Vec<String> = d
        .chars()
        .enumerate()
        .map(|(i, c)| {
            if i == 0 {
                c.to_string()
            } else {
                format!("U+{:04X}", c as u32)
            }
        })
        .collect();
    parts.join(" + ")
}

fn describe_char_diff(d: &CharDiff) -> String {
    let composed = |c: char| {
        let d = decompose(c).unwrap_or_default();
        (format!("U+{:04X}", c as u32), spelled_out(d))
    };
    match *d {
        CharDiff::Lookalike(f, o) => {
            format!(
                "file has {} where old has {}",
                describe_char(f),
                describe_char(o)
            )
        }
        CharDiff::FileInvisible(c) => format!("file has {} that old lacks", invisible(c)),
        CharDiff::OldInvisible(c) => format!("old has {} that the file lacks", invisible(c)),
        CharDiff::FileDecomposed(c) => {
            let (nfc, nfd) = composed(c);
            format!("file has {c} as {nfd} (decomposed) where old has {nfc} (composed)")
        }
        CharDiff::OldDecomposed(c) => {
            let (nfc, nfd) = composed(c);
            format!("file has {c} as {nfc} (composed) where old has {nfd} (decomposed)")
        }
    }
}

/// How many differing lines a `difference` names before it only counts the rest.
const MAX_LISTED: usize = 3;

/// One line's difference: the file's 1-based line, the 1-based column when it is about one
/// char, and the words. `indent` is (file, old) when both indentations are one kind of
/// char each, so that a whole passage indented another way can be said once.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Item {
    pub(super) line: usize,
    pub(super) col: Option<usize>,
    pub(super) text: String,
    pub(super) indent: Option<(char, char)>,
}

impl Item {
    pub(super) fn new(line: usize, text: String) -> Item {
        Item {
            line,
            col: None,
            text,
            indent: None,
        }
    }
}

/// The items as one sentence: lines in a row that differ alike merged ("lines 2-4: …"), at
/// most [`MAX_LISTED`] of them named, the rest counted.
pub(super) fn listed(items: &[Item]) -> String {
    let contiguous = items.windows(2).all(|w| w[1].line == w[0].line + 1);
    if let (Some(first), Some(last)) = (items.first(), items.last())
        && items.len() >= 2
        && contiguous
        && let Some((f, o)) = first.indent
        && f != o
        && items.iter().all(|i| i.indent == first.indent)
    {
        let name = |c: char| if c == '\t' { "tabs" } else { "spaces" };
        return format!(
            "lines {}-{}: file indents with {} where old indents with {}",
            first.line,
            last.line,
            name(f),
            name(o)
        );
    }
    let mut groups: Vec<(usize, usize, &Item)> = Vec::new();
    for it in items {
        match groups.last_mut() {
            Some((_, end, g))
                if it.col.is_none()
                    && g.col.is_none()
                    && *end + 1 == it.line
                    && g.text == it.text =>
            {
                *end = it.line;
            }
            _ => groups.push((it.line, it.line, it)),
        }
    }
    let mut parts: Vec<String> = groups
        .iter()
        .take(MAX_LISTED)
        .map(|&(a, b, it)| match (a == b, it.col) {
            (true, Some(c)) => format!("line {a}, column {c}: {}", it.text),
            (true, None) => format!("line {a}: {}", it.text),
            (false, _) => format!("lines {a}-{b}: {}", it.text),
        })
        .collect();
    let rest: usize = groups
        .iter()
        .skip(MAX_LISTED)
        .map(|&(a, b, _)| b - a + 1)
        .sum();
    if rest > 0 {
        parts.push(format!(
            "{rest} more {} differ{}",
            if rest == 1 { "line" } else { "lines" },
            if rest == 1 { "s" } else { "" }
        ));
    }
    parts.join("; ")
}

/// One kind of char throughout, or `None`.
fn one_kind(s: &str) -> Option<char> {
    let c = s.chars().next()?;
    s.chars().all(|x| x == c).then_some(c)
}

/// `(0-based focus line, sentence)` for a whitespace match: each line where the file and old
/// differ, and how (bounded, see [`listed`]).
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
    let mut items: Vec<Item> = Vec::new();
    for (j, (o, f)) in olds.iter().zip(&fl).enumerate() {
        if let Some(it) = line_difference(text, m, (j, k), o, f) {
            items.push(it);
        }
    }
    if eof {
        items.push(Item::new(
            m.first_line + k,
            "the file ends without a final newline where old has one".into(),
        ));
    }
    let Some(first) = items.first() else {
        return (
            m.first_line,
            format!(
                "line {}: old matches only when whitespace is ignored{suffix}",
                m.first_line + 1
            ),
        );
    };
    (first.line - 1, format!("{}{suffix}", listed(&items)))
}

/// How old's line `j` (of `k`) differs from the file's line `f` it matched, if it does.
fn line_difference(
    text: &[u8],
    m: &FuzzyMatch,
    (j, k): (usize, usize),
    o: &OldLine<'_>,
    f: &FLine,
) -> Option<Item> {
    let eof = m.missing_final_newline;
    let n = m.first_line + j + 1;
    let b = f.raw(text);
    let ind = indent_len(b);
    let cend = content_end(b).max(ind);
    let full_start = j > 0 || m.at_line_start;
    let trail = j + 1 < k || eof || (!o.trailing.is_empty() && !o.content.is_empty());
    let say = |s: String| Some(Item::new(n, s));
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
            let mut it = Item::new(
                n,
                format!(
                    "file has {} where old has {}",
                    describe_ws(&f_indent),
                    describe_ws(o.indent)
                ),
            );
            it.indent = one_kind(&f_indent)
                .zip(one_kind(o.indent))
                .filter(|&(f, o)| matches!((f, o), ('\t', ' ') | (' ', '\t')));
            return Some(it);
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
        let seg_bytes = b.get(seg_start..seg_end.max(seg_start)).unwrap_or(&[]);
        if let Some((col, d)) = char_difference(&lossy(seg_bytes), o.content) {
            let before = lossy(b.get(..seg_start).unwrap_or(&[])).chars().count();
            let mut it = Item::new(n, describe_char_diff(&d));
            if !matches!(d, CharDiff::Lookalike(..)) {
                it.col = Some(before + col + 1);
            }
            return Some(it);
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
    None
}

pub(super) fn quote(s: &str) -> String {
    let mut out: String = s.chars().take(QUOTE_MAX_CHARS).collect();
    if s.chars().nth(QUOTE_MAX_CHARS).is_some() {
        out.push('…');
    }
    format!("\"{out}\"")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::edit::repair::lines::old_lines;
    use crate::edit::repair::{Diagnosis, diagnose};

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
        use CharDiff::*;
        assert_eq!(
            char_difference("a\u{2019}b'", "a'b\u{2019}"),
            Some((1, Lookalike('\u{2019}', '\'')))
        );
        assert_eq!(char_difference("ab", "ab"), None);
        // A difference in length is not a look-alike.
        assert_eq!(char_difference("ab", "abc"), None);
        assert_eq!(char_difference("", "a"), None);
        // Invisible chars on either side, even at the end.
        assert_eq!(
            char_difference("ab\u{200B}c", "abc"),
            Some((2, FileInvisible('\u{200B}')))
        );
        assert_eq!(
            char_difference("abc", "a\u{AD}bc"),
            Some((1, OldInvisible('\u{AD}')))
        );
        assert_eq!(
            char_difference("ab\u{FEFF}", "ab"),
            Some((2, FileInvisible('\u{FEFF}')))
        );
        // A letter composed on one side and decomposed on the other.
        assert_eq!(
            char_difference("Rene\u{301}e", "Ren\u{E9}e"),
            Some((3, FileDecomposed('\u{E9}')))
        );
        assert_eq!(
            char_difference("Ren\u{E9}e", "Rene\u{301}e"),
            Some((3, OldDecomposed('\u{E9}')))
        );
        // An ellipsis is a look-alike, not a letter.
        assert_eq!(
            char_difference("a\u{2026}", "a..."),
            Some((1, Lookalike('\u{2026}', '.')))
        );
    }

    #[test]
    fn describing_invisible_and_composed_chars() {
        use CharDiff::*;
        let cases = [
            (
                FileInvisible('\u{200B}'),
                "file has an invisible U+200B (zero-width space) that old lacks",
            ),
            (
                OldInvisible('\u{200D}'),
                "old has an invisible U+200D (zero-width joiner) that the file lacks",
            ),
            (
                FileInvisible('\u{FEFF}'),
                "file has an invisible U+FEFF (byte order mark) that old lacks",
            ),
            (
                FileInvisible('\u{AD}'),
                "file has an invisible U+00AD (soft hyphen) that old lacks",
            ),
            (
                FileInvisible('\u{2067}'),
                "file has an invisible U+2067 (direction control) that old lacks",
            ),
            (
                FileDecomposed('\u{E9}'),
                "file has \u{E9} as e + U+0301 (decomposed) where old has U+00E9 (composed)",
            ),
            (
                OldDecomposed('\u{1EC7}'),
                "file has \u{1EC7} as U+1EC7 (composed) where old has e + U+0323 + U+0302 \
                 (decomposed)",
            ),
            (
                Lookalike('\u{2014}', '-'),
                "file has an em dash (—) where old has a hyphen (-)",
            ),
        ];
        for (d, want) in cases {
            assert_eq!(describe_char_diff(&d), want, "{d:?}");
        }
    }

    fn item(line: usize, text: &str) -> Item {
        Item::new(line, text.into())
    }

    #[test]
    fn several_lines_are_listed_merged_and_bounded() {
        assert_eq!(listed(&[item(2, "x")]), "line 2: x");
        // Lines in a row with the same words are one range; a column keeps its line apart.
        let mut col = item(5, "x");
        col.col = Some(3);
        assert_eq!(
            listed(&[item(2, "x"), item(3, "x"), item(4, "y"), col]),
            "lines 2-3: x; line 4: y; line 5, column 3: x"
        );
        // At most three are named; the lines after them are counted.
        let many: Vec<Item> = (1..=6).map(|i| item(i * 2, "x")).collect();
        assert_eq!(
            listed(&many),
            "line 2: x; line 4: x; line 6: x; 3 more lines differ"
        );
        assert_eq!(
            listed(&many[..4]),
            "line 2: x; line 4: x; line 6: x; 1 more line differs"
        );
        // A passage indented another way throughout is said once.
        let ind = |line: usize, f: char, o: char| Item {
            indent: Some((f, o)),
            ..item(line, "indent")
        };
        assert_eq!(
            listed(&[ind(2, '\t', ' '), ind(3, '\t', ' '), ind(4, '\t', ' ')]),
            "lines 2-4: file indents with tabs where old indents with spaces"
        );
        // Not when the lines are apart or differ in other ways.
        assert_eq!(
            listed(&[ind(2, '\t', ' '), ind(4, '\t', ' ')]),
            "line 2: indent; line 4: indent"
        );
        assert_eq!(
            listed(&[ind(2, '\t', ' '), item(3, "y")]),
            "line 2: indent; line 3: y"
        );
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
    fn whitespace_sentences_name_invisible_and_composed_chars_by_column() {
        assert_eq!(
            ws(
                "let total = price\u{200B} * qty;\n",
                "let total = price * qty;"
            ),
            say(
                0,
                "line 1, column 18: file has an invisible U+200B (zero-width space) that old lacks"
            )
        );
        // A fragment: the column counts from the line's start, indentation included.
        assert_eq!(
            ws("\tname = \"Rene\u{301}\"\n", "\"Ren\u{E9}\""),
            say(
                0,
                "line 1, column 13: file has \u{E9} as e + U+0301 (decomposed) where old has \
                 U+00E9 (composed)"
            )
        );
        assert_eq!(
            ws("a\nx\u{FEFF}y\n", "a\nxy"),
            say(
                1,
                "line 2, column 2: file has an invisible U+FEFF (byte order mark) that old lacks"
            )
        );
    }

    #[test]
    fn whitespace_sentences_list_each_line() {
        // Indented another way throughout: said once.
        assert_eq!(
            ws(
                "f {\n\ta;\n\t\tb;\n\tc;\n}\n",
                "f {\n    a;\n        b;\n    c;\n}"
            ),
            say(
                1,
                "lines 2-4: file indents with tabs where old indents with spaces"
            )
        );
        // Different differences on several lines: each named.
        assert_eq!(
            ws("a \u{2014} b\n\tc\nd  \ne\n", "a - b\n  c\nd\ne"),
            say(
                0,
                "line 1: file has an em dash (—) where old has a hyphen (-); line 2: file has a \
                 tab where old has 2 spaces; line 3: file has trailing whitespace (2 spaces) \
                 that old lacks"
            )
        );
        // CRLF on every line: one range.
        assert_eq!(
            ws("a\r\nb\r\nc\r\nd\n", "a\nb\nc\nd"),
            say(0, "lines 1-3: file has CRLF line endings where old has LF")
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
}
