//! What an agent's `old` may carry that the file never had: the line-number prefixes
//! `quill read` prints (`     12\t`), copied along with the lines, and escapes written out
//! (`\n`, `\t`, `\"`, `\uXXXX` as two or six characters) where the shell passed them
//! literally. It spots them, takes them out of `old` and `new`, and words what it found; it
//! matches nothing itself.

/// A way `old` (and `new`) can be read again.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Rewrite {
    /// Without the line-number prefix that starts every line.
    Unnumbered,
    /// With its escapes read as the characters they stand for.
    Unescaped,
}

/// How many escapes a sentence names.
const MAX_NAMED_ESCAPES: usize = 4;

impl Rewrite {
    /// `old` rewritten, when it has what this rewrite takes out.
    pub(super) fn rewrite_old(self, old: &str) -> Option<String> {
        match self {
            Rewrite::Unnumbered => unnumbered(old),
            Rewrite::Unescaped => {
                let (s, found) = unescape(old);
                (!found.is_empty()).then_some(s)
            }
        }
    }

    /// `new` as it is to be written once `old` was rewritten: without its line numbers when
    /// every line has one, as it is when none has; `None` when only some lines have one
    /// (then it cannot be told what is text). Escapes are always read.
    pub(crate) fn rewrite_new(self, new: &str) -> Option<String> {
        match self {
            Rewrite::Unnumbered => match unnumbered(new) {
                Some(s) => Some(s),
                None if lines_of(new).all(|l| prefix_len(l).is_none()) => Some(new.to_string()),
                None => None,
            },
            Rewrite::Unescaped => Some(unescape(new).0),
        }
    }

    /// The `difference` of a miss that matches once rewritten, at the given 1-based lines
    /// (the first few of `count`).
    pub(super) fn difference(self, old: &str, lines: &[usize], count: usize) -> String {
        let place = match (count, lines.first()) {
            (1, Some(l)) => format!("line {l}"),
            _ => {
                let shown: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
                format!("{count} places (lines {})", shown.join(", "))
            }
        };
        match self {
            Rewrite::Unnumbered => format!(
                "every line of old starts with a line number and a tab, as quill read shows \
                 them; without them, old matches {place}"
            ),
            Rewrite::Unescaped => {
                let (names, n) = named_escapes(old);
                let (what, it) = if n == 1 {
                    ("the escape", "it stands")
                } else {
                    ("the escapes", "they stand")
                };
                format!(
                    "old has {what} {names} as text; read as what {it} for, old matches {place}"
                )
            }
        }
    }

    /// What an edit applied through this rewrite says about it.
    pub(crate) fn note(self) -> &'static str {
        match self {
            Rewrite::Unnumbered => {
                "old's line-number prefixes (as quill read shows them) were left out, and new's \
                 where every line had one"
            }
            Rewrite::Unescaped => {
                "old and new were matched and written with their escapes read as the characters \
                 they stand for"
            }
        }
    }
}

/// A note for a miss whose old writes out a line break or tab it never has: `\n` or `\t`
/// as text and no real one.
pub(super) fn escape_note(old: &str) -> Option<String> {
    let spelled: Vec<&str> = ["\\n", "\\t"]
        .into_iter()
        .filter(|e| old.contains(e) && !old.contains(if *e == "\\n" { '\n' } else { '\t' }))
        .collect();
    (!spelled.is_empty()).then(|| {
        format!(
            "old has {} as text (a backslash and a letter), not as {}",
            spelled.join(" and "),
            if spelled.len() == 2 {
                "a line break and a tab"
            } else if spelled[0] == "\\n" {
                "a line break"
            } else {
                "a tab"
            }
        )
    })
}

/// The lines of `s`, without the empty one after a final newline, and without `\r`.
fn lines_of(s: &str) -> impl Iterator<Item = &str> {
    s.strip_suffix('\n')
        .unwrap_or(s)
        .split('\n')
        .map(|l| l.strip_suffix('\r').unwrap_or(l))
}

/// `(number, prefix length)` of a line that starts like a line of `quill read`'s output:
/// spaces, digits, then a tab (or nothing: an empty line whose tab was trimmed).
fn prefix_len(line: &str) -> Option<(u64, usize)> {
    let digits_at = line.len() - line.trim_start_matches(' ').len();
    let rest = &line[digits_at..];
    let digits = rest.len() - rest.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    if digits == 0 {
        return None;
    }
    let n: u64 = rest[..digits].parse().ok()?;
    let after = &rest[digits..];
    if after.starts_with('\t') {
        Some((n, digits_at + digits + 1))
    } else if after.is_empty() {
        Some((n, digits_at + digits))
    } else {
        None
    }
}

/// `s` without the prefix of each line, when every line has one and their numbers follow
/// each other.
fn unnumbered(s: &str) -> Option<String> {
    let mut out = String::with_capacity(s.len());
    let mut expect: Option<u64> = None;
    for piece in s.split_inclusive('\n') {
        let line = piece.trim_end_matches(['\n', '\r']);
        let (n, len) = prefix_len(line)?;
        if expect.is_some_and(|e| e != n) {
            return None;
        }
        expect = n.checked_add(1);
        out.push_str(&piece[len..]);
    }
    // Not a single line with text after its number: nothing was copied from a read.
    (expect.is_some() && out.trim() != "").then_some(out)
}

/// `s` with `\n`, `\t`, `\r`, `\"`, `\'`, `\\`, `\uXXXX` (surrogate pairs joined) and
/// `\u{X…}` read as what they stand for, and the escapes found (other backslashes stay). A
/// lone `\\` is not counted as found: it proves nothing.
fn unescape(s: &str) -> (String, Vec<String>) {
    let mut out = String::with_capacity(s.len());
    let mut found: Vec<String> = Vec::new();
    let mut rest = s;
    while let Some(i) = rest.find('\\') {
        out.push_str(&rest[..i]);
        let tail = &rest[i..];
        let (ch, len) = escape_at(tail);
        match ch {
            Some(c) => {
                if !tail.starts_with("\\\\") {
                    found.push(tail[..len].to_string());
                }
                out.push(c);
                rest = &tail[len..];
            }
            None => {
                out.push('\\');
                rest = &tail[1..];
            }
        }
    }
    out.push_str(rest);
    (out, found)
}

/// The char the escape at the start of `t` (which starts with a backslash) stands for, and
/// its length in bytes.
fn escape_at(t: &str) -> (Option<char>, usize) {
    let simple = match t.as_bytes().get(1) {
        Some(b'n') => Some('\n'),
        Some(b't') => Some('\t'),
        Some(b'r') => Some('\r'),
        Some(b'"') => Some('"'),
        Some(b'\'') => Some('\''),
        Some(b'\\') => Some('\\'),
        _ => None,
    };
    if simple.is_some() {
        return (simple, 2);
    }
    if !t[1..].starts_with('u') {
        return (None, 1);
    }
    if let Some(braced) = t.get(2..).and_then(|r| r.strip_prefix('{')) {
        let Some(end) = braced.find('}') else {
            return (None, 1);
        };
        let hex = &braced[..end];
        let c = (!hex.is_empty() && hex.len() <= 6)
            .then(|| u32::from_str_radix(hex, 16).ok())
            .flatten()
            .and_then(char::from_u32);
        return (c, 4 + end);
    }
    let unit = |at: usize| {
        t.get(at..at + 4)
            .filter(|h| h.bytes().all(|b| b.is_ascii_hexdigit()))
            .and_then(|h| u32::from_str_radix(h, 16).ok())
    };
    let Some(u) = unit(2) else {
        return (None, 1);
    };
    if (0xD800..0xDC00).contains(&u) {
        // A high surrogate: only with its low one is it a char.
        if t.get(6..8) == Some("\\u")
            && let Some(lo) = unit(8).filter(|l| (0xDC00..0xE000).contains(l))
        {
            let c = char::from_u32(0x10000 + ((u - 0xD800) << 10) + (lo - 0xDC00));
            return (c, 12);
        }
        return (None, 1);
    }
    (char::from_u32(u), 6)
}

/// The distinct escapes of `old`, as they are spelled there ("\n and \t"), and how many.
fn named_escapes(old: &str) -> (String, usize) {
    let mut names: Vec<String> = Vec::new();
    for e in unescape(old).1 {
        if !names.contains(&e) {
            names.push(e);
        }
    }
    let count = names.len();
    let more = count.saturating_sub(MAX_NAMED_ESCAPES);
    names.truncate(MAX_NAMED_ESCAPES);
    let mut s = match names.len() {
        0 => "escapes".to_string(),
        1 => names[0].clone(),
        n => format!("{} and {}", names[..n - 1].join(", "), names[n - 1]),
    };
    if more > 0 {
        s.push_str(&format!(" (and {more} more)"));
    }
    (s, count)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn read_line_numbers_come_off_every_line() {
        let old = "    12\tfn f() {\n    13\t    x();\n    14\t}\n";
        assert_eq!(
            Rewrite::Unnumbered.rewrite_old(old).as_deref(),
            Some("fn f() {\n    x();\n}\n")
        );
        // Past six digits read prints no padding; an empty line may have lost its tab.
        assert_eq!(
            unnumbered("1234567\ta\n1234568\n1234569\tb").as_deref(),
            Some("a\n\nb")
        );
        assert_eq!(
            unnumbered("  1\ta\r\n  2\tb\r\n").as_deref(),
            Some("a\r\nb\r\n")
        );
        // Every line, numbers in a row, and some text: else it is not a read's output.
        assert_eq!(unnumbered("  1\ta\nb"), None);
        assert_eq!(unnumbered("  1\ta\n  3\tb"), None);
        assert_eq!(unnumbered("  1\n  2\n"), None);
        assert_eq!(unnumbered("1 a"), None);
        assert_eq!(unnumbered(""), None);
    }

    #[test]
    fn new_loses_its_numbers_only_when_every_line_has_one() {
        let r = Rewrite::Unnumbered;
        assert_eq!(r.rewrite_new("  5\tx\n  6\ty\n").as_deref(), Some("x\ny\n"));
        assert_eq!(r.rewrite_new("x\ny\n").as_deref(), Some("x\ny\n"));
        assert_eq!(r.rewrite_new("  5\tx\ny\n"), None);
        assert_eq!(r.rewrite_new("").as_deref(), Some(""));
    }

    #[test]
    fn escapes_read_as_what_they_stand_for() {
        let (s, found) = unescape(r#"a\nb\tc\"d\'e\\f\u00e9\u{1F600}\ud83d\ude00"#);
        assert_eq!(s, "a\nb\tc\"d'e\\f\u{e9}\u{1F600}\u{1F600}");
        assert_eq!(
            found,
            [
                "\\n",
                "\\t",
                "\\\"",
                "\\'",
                "\\u00e9",
                "\\u{1F600}",
                "\\ud83d\\ude00"
            ]
        );
        // Unknown escapes, lone surrogates, bad hex and a trailing backslash stay as they are.
        let kept = r"\d \x \ud83d \u12 \u{} \u{110000} \";
        let (s, found) = unescape(kept);
        assert_eq!(s, kept);
        assert_eq!(found, Vec::<String>::new());
        // A doubled backslash alone proves nothing.
        assert_eq!(Rewrite::Unescaped.rewrite_old(r"C:\\dir"), None);
        assert_eq!(
            Rewrite::Unescaped.rewrite_old(r"a\nb").as_deref(),
            Some("a\nb")
        );
        assert_eq!(
            Rewrite::Unescaped.rewrite_new(r"x\ty").as_deref(),
            Some("x\ty")
        );
    }

    #[test]
    fn sentences() {
        assert_eq!(
            Rewrite::Unescaped.difference(r#"f(\"a\")\n\tg()\n"#, &[3], 1),
            "old has the escapes \\\", \\n and \\t as text; read as what they stand for, old \
             matches line 3"
        );
        assert_eq!(
            Rewrite::Unnumbered.difference("  1\ta", &[4, 9], 2),
            "every line of old starts with a line number and a tab, as quill read shows them; \
             without them, old matches 2 places (lines 4, 9)"
        );
        assert_eq!(
            Rewrite::Unescaped.difference(r"a\nb", &[1], 1),
            "old has the escape \\n as text; read as what it stands for, old matches line 1"
        );
        assert_eq!(
            named_escapes(r"\n\t\r\u0041\u0042"),
            ("\\n, \\t, \\r and \\u0041 (and 1 more)".to_string(), 5)
        );
        assert_eq!(
            escape_note(r"a\nb").as_deref(),
            Some("old has \\n as text (a backslash and a letter), not as a line break")
        );
        assert_eq!(
            escape_note(r"a\nb\tc").as_deref(),
            Some(
                "old has \\n and \\t as text (a backslash and a letter), not as a line break and a tab"
            )
        );
        assert_eq!(escape_note("a\\nb\nc"), None);
        assert_eq!(escape_note("plain"), None);
    }
}
