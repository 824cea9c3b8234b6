//! The text a `--fuzzy` match writes in place of the matched span. `new` is aligned against
//! `old` — a diff of their lines, then of the characters of the lines that differ — and
//! wherever `new` repeats `old`, the file's own bytes for that part of `old` are written: its
//! indentation, quotes, dashes, spaces, invisible characters and line endings, line by line.
//! Only what the caller changed comes from `new`: changed indentation re-indented into the
//! file's style (`reindent`), an added line break with the ending of the file's nearest line
//! (new's own when the passage has none). It builds the replacement bytes; where they go is
//! the caller's.

use std::ops::Range;

use similar::{Algorithm, DiffOp, capture_diff_slices};

use super::FuzzyMatch;
use super::lines::{FLine, OldLine, file_lines, old_lines};
use super::normalize::{fold, normalize};
use super::reindent::Reindent;

/// A hunk whose alignment would cost more than this (old tokens × new tokens) is replaced
/// whole, so a huge rewrite stays cheap.
const MAX_ALIGN_WORK: usize = 4_000_000;

/// What old and new are aligned by: each line's indentation, each char of its content, its
/// trailing whitespace, and its line ending (any ending equals any other: which one is
/// written is the file's business).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
enum Tok<'s> {
    Indent(&'s str),
    Char(char),
    Trail(&'s str),
    Eol,
}

/// The tokens of some lines, with the line each belongs to and where each line starts.
#[derive(Default)]
struct Tokens<'s> {
    toks: Vec<Tok<'s>>,
    line: Vec<usize>,
    line_start: Vec<usize>,
}

impl<'s> Tokens<'s> {
    fn push(&mut self, t: Tok<'s>, line: usize) {
        self.toks.push(t);
        self.line.push(line);
    }

    /// Line `j`'s tokens, its line ending included when `eol`.
    fn push_line(&mut self, j: usize, l: &OldLine<'s>, eol: bool) {
        self.line_start.push(self.toks.len());
        self.push(Tok::Indent(l.indent), j);
        for c in l.content.chars() {
            self.push(Tok::Char(c), j);
        }
        self.push(Tok::Trail(l.trailing), j);
        if eol {
            self.push(Tok::Eol, j);
        }
    }

    /// Token range of lines `lines`.
    fn range(&self, lines: Range<usize>) -> Range<usize> {
        let at = |j: usize| self.line_start.get(j).copied().unwrap_or(self.toks.len());
        at(lines.start)..at(lines.end)
    }
}

/// A run of old's tokens and the bytes of the file they matched.
struct Atom {
    toks: Range<usize>,
    bytes: Range<usize>,
}

/// The bytes that replace `text[m.start..m.end]` when `old` matched there fuzzily and the
/// caller asked for `new`.
pub(crate) fn render_replacement(text: &[u8], m: &FuzzyMatch, old: &str, new: &str) -> Vec<u8> {
    let strip = |s: &'_ str| -> String {
        match s.strip_suffix('\n') {
            Some(s) => s.strip_suffix('\r').unwrap_or(s).to_string(),
            None => s.to_string(),
        }
    };
    // old's final newline stood for the end of the file: neither side has it.
    let (old, new) = if m.missing_final_newline {
        (strip(old), strip(new))
    } else {
        (old.to_string(), new.to_string())
    };
    let olds = old_lines(&old);
    let news = old_lines(&new);
    let k = olds.len();
    let Some(fl) = file_lines(text, m.line_start, k) else {
        return new.into_bytes();
    };

    let mut ot = Tokens::default();
    let mut atoms: Vec<Atom> = Vec::new();
    for (j, (o, f)) in olds.iter().zip(&fl).enumerate() {
        let first = ot.toks.len();
        ot.push_line(j, o, j + 1 < k);
        line_atoms(text, m, (j, k), o, f, first, &mut atoms);
    }
    let mut nt = Tokens::default();
    for (i, l) in news.iter().enumerate() {
        nt.push_line(i, l, i + 1 < news.len());
    }

    let ops = align(&olds, &news, &ot, &nt);
    // An atom is the file's only when all its tokens sit in one equal run of the alignment.
    let mut atom_of = vec![0; ot.toks.len()];
    for (a, atom) in atoms.iter().enumerate() {
        for t in atom.toks.clone() {
            if let Some(slot) = atom_of.get_mut(t) {
                *slot = a;
            }
        }
    }
    // Both are in old's order: one walk decides every atom.
    let equal: Vec<Range<usize>> = ops
        .iter()
        .filter_map(|op| match *op {
            DiffOp::Equal { old_index, len, .. } => Some(old_index..old_index + len),
            _ => None,
        })
        .collect();
    let mut e = 0;
    let kept: Vec<bool> = atoms
        .iter()
        .map(|a| {
            while equal.get(e).is_some_and(|r| r.end <= a.toks.start) {
                e += 1;
            }
            equal
                .get(e)
                .is_some_and(|r| r.start <= a.toks.start && a.toks.end <= r.end)
        })
        .collect();

    // Lines whose ending belongs to the passage (old's last line, when old ends with a
    // newline, is the start of the line after it).
    let kr = if k >= 2 && olds[k - 1].raw.is_empty() {
        k - 1
    } else {
        k
    };
    let reindent = Reindent::new(text, m, &olds, &fl, &news);
    let mut out: Vec<u8> = Vec::with_capacity(new.len() + 16);
    let emit_new = |out: &mut Vec<u8>, u: usize, at_old: usize| {
        let line = nt.line[u];
        match nt.toks[u] {
            Tok::Indent(ind) => {
                let raw = news.get(line).map_or("", |l| l.raw);
                out.extend_from_slice(reindent.indent(line, raw, ind).as_bytes());
            }
            Tok::Char(c) => out.extend_from_slice(c.encode_utf8(&mut [0; 4]).as_bytes()),
            Tok::Trail(s) => out.extend_from_slice(s.as_bytes()),
            Tok::Eol => {
                let near = if at_old > 0 { ot.line[at_old - 1] } else { 0 };
                let own = news.get(line).is_some_and(|l| l.cr);
                let cr = nearest_ending(&fl[..kr.min(fl.len())], near).unwrap_or(own);
                out.extend_from_slice(if cr { b"\r\n" } else { b"\n" });
            }
        }
    };
    for op in &ops {
        match *op {
            DiffOp::Equal {
                old_index,
                new_index,
                len,
            } => {
                for d in 0..len {
                    let t = old_index + d;
                    let a = atom_of[t];
                    if kept[a] {
                        if atoms[a].toks.start == t {
                            out.extend_from_slice(&text[atoms[a].bytes.clone()]);
                        }
                    } else {
                        emit_new(&mut out, new_index + d, t);
                    }
                }
            }
            DiffOp::Delete { .. } => {}
            DiffOp::Insert {
                old_index,
                new_index,
                new_len,
            }
            | DiffOp::Replace {
                old_index,
                new_index,
                new_len,
                ..
            } => {
                for u in new_index..new_index + new_len {
                    emit_new(&mut out, u, old_index);
                }
            }
        }
    }
    out
}

/// The atoms of old's line `j` (of `k`), matched against the file line `f`; its tokens start
/// at `first`. When the line's normalized chars are the file's, each char maps to the bytes
/// it matched (chars that fold into one file char share one atom; invisible file chars go
/// with the char before them); otherwise the whole line is one atom.
fn line_atoms(
    text: &[u8],
    m: &FuzzyMatch,
    (j, k): (usize, usize),
    o: &OldLine<'_>,
    f: &FLine,
    first: usize,
    atoms: &mut Vec<Atom>,
) {
    let ls = if j == 0 { m.start } else { f.start };
    let le = if j + 1 == k { m.end } else { f.raw_end };
    let le = le.clamp(ls.min(text.len()), text.len());
    let ls = ls.min(le);
    let norm = normalize(&text[ls..le]);
    let mut content: Vec<(usize, char)> = Vec::new();
    for (d, c) in o.content.chars().enumerate() {
        fold(c, |f| content.push((d, f)));
    }
    let n_content = o.content.chars().count();
    let trail_tok = first + 1 + n_content;
    let same = norm.len() == content.len() && norm.iter().zip(&content).all(|(n, c)| n.c == c.1);
    if same {
        let cstart = ls + norm.first().map_or(le - ls, |n| n.start);
        let cend = ls + norm.last().map_or(le - ls, |n| n.end);
        atoms.push(Atom {
            toks: first..first + 1,
            bytes: ls..cstart,
        });
        let mut cur: Option<Atom> = None;
        let mut i = 0;
        for d in 0..n_content {
            let t = first + 1 + d;
            let n = content[i..].iter().take_while(|c| c.0 == d).count();
            if n == 0 {
                // An invisible char of old stands for nothing in the file.
                match &mut cur {
                    Some(a) => a.toks.end = t + 1,
                    None => {
                        cur = Some(Atom {
                            toks: t..t + 1,
                            bytes: cstart..cstart,
                        })
                    }
                }
                continue;
            }
            let (fs, fe) = (ls + norm[i].start, ls + norm[i + n - 1].end);
            i += n;
            match &mut cur {
                Some(a) if fs < a.bytes.end => {
                    a.toks.end = t + 1;
                    a.bytes.end = a.bytes.end.max(fe);
                }
                _ => {
                    if let Some(mut a) = cur.take() {
                        a.bytes.end = fs;
                        atoms.push(a);
                    }
                    cur = Some(Atom {
                        toks: t..t + 1,
                        bytes: fs..fe,
                    });
                }
            }
        }
        if let Some(mut a) = cur.take() {
            a.bytes.end = cend;
            atoms.push(a);
        }
        atoms.push(Atom {
            toks: trail_tok..trail_tok + 1,
            bytes: cend..le,
        });
    } else {
        atoms.push(Atom {
            toks: first..trail_tok + 1,
            bytes: ls..le,
        });
    }
    if j + 1 < k {
        let end = f.next_start().unwrap_or(f.raw_end).min(text.len());
        atoms.push(Atom {
            toks: trail_tok + 1..trail_tok + 2,
            bytes: f.raw_end.min(end)..end,
        });
    }
}

/// The alignment of new's tokens against old's: lines first (whole lines that new repeats),
/// then the tokens of each run of lines that differ.
fn align(
    olds: &[OldLine<'_>],
    news: &[OldLine<'_>],
    ot: &Tokens<'_>,
    nt: &Tokens<'_>,
) -> Vec<DiffOp> {
    let key = |ls: &[OldLine<'_>]| -> Vec<(String, bool)> {
        ls.iter()
            .enumerate()
            .map(|(j, l)| (l.raw.to_string(), j + 1 < ls.len()))
            .collect()
    };
    let line_ops = if olds.len().saturating_mul(news.len()) <= MAX_ALIGN_WORK {
        capture_diff_slices(Algorithm::Myers, &key(olds), &key(news))
    } else {
        vec![DiffOp::Replace {
            old_index: 0,
            old_len: olds.len(),
            new_index: 0,
            new_len: news.len(),
        }]
    };
    let mut ops = Vec::new();
    let mut pending: Option<(Range<usize>, Range<usize>)> = None;
    let flush = |pending: &mut Option<(Range<usize>, Range<usize>)>, ops: &mut Vec<DiffOp>| {
        let Some((ol, nl)) = pending.take() else {
            return;
        };
        let (or, nr) = (ot.range(ol), nt.range(nl));
        if or.len().saturating_mul(nr.len()) <= MAX_ALIGN_WORK {
            let sub =
                capture_diff_slices(Algorithm::Myers, &ot.toks[or.clone()], &nt.toks[nr.clone()]);
            ops.extend(sub.into_iter().map(|op| shift(op, or.start, nr.start)));
        } else {
            ops.push(DiffOp::Replace {
                old_index: or.start,
                old_len: or.len(),
                new_index: nr.start,
                new_len: nr.len(),
            });
        }
    };
    for op in line_ops {
        let (ol, nl) = (op.old_range(), op.new_range());
        if let DiffOp::Equal { .. } = op {
            flush(&mut pending, &mut ops);
            let (or, nr) = (ot.range(ol), nt.range(nl));
            ops.push(DiffOp::Equal {
                old_index: or.start,
                new_index: nr.start,
                len: or.len(),
            });
        } else {
            pending = Some(match pending.take() {
                Some((po, pn)) => (po.start..ol.end, pn.start..nl.end),
                None => (ol, nl),
            });
        }
    }
    flush(&mut pending, &mut ops);
    ops
}

fn shift(op: DiffOp, o: usize, n: usize) -> DiffOp {
    match op {
        DiffOp::Equal {
            old_index,
            new_index,
            len,
        } => DiffOp::Equal {
            old_index: old_index + o,
            new_index: new_index + n,
            len,
        },
        DiffOp::Delete {
            old_index,
            old_len,
            new_index,
        } => DiffOp::Delete {
            old_index: old_index + o,
            old_len,
            new_index: new_index + n,
        },
        DiffOp::Insert {
            old_index,
            new_index,
            new_len,
        } => DiffOp::Insert {
            old_index: old_index + o,
            new_index: new_index + n,
            new_len,
        },
        DiffOp::Replace {
            old_index,
            old_len,
            new_index,
            new_len,
        } => DiffOp::Replace {
            old_index: old_index + o,
            old_len,
            new_index: new_index + n,
            new_len,
        },
    }
}

/// Whether the file line nearest to `near` (that line, then those above, then below) that
/// has a line ending ends in CRLF; `None` when none has one.
fn nearest_ending(fl: &[FLine], near: usize) -> Option<bool> {
    let near = near.min(fl.len().saturating_sub(1));
    let below = fl.get(near..).into_iter().flatten();
    let above = fl.get(..near).into_iter().flatten().rev();
    let mut order = below.clone().take(1).chain(above).chain(below.skip(1));
    order.find(|f| f.terminated).map(|f| f.cr)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::edit::repair::{Diagnosis, diagnose};
    use proptest::prelude::*;

    /// `text` with the only whitespace match of `old` replaced by the rendered `new`.
    fn apply(text: &str, old: &str, new: &str) -> String {
        let Diagnosis::Whitespace { matches, .. } = diagnose(text.as_bytes(), old) else {
            panic!("expected a whitespace match of {old:?} in {text:?}");
        };
        assert_eq!(matches.len(), 1, "{old:?} in {text:?}");
        let m = &matches[0];
        let mut out = text.as_bytes()[..m.start].to_vec();
        out.extend(render_replacement(text.as_bytes(), m, old, new));
        out.extend(&text.as_bytes()[m.end..]);
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn what_new_repeats_keeps_the_files_characters() {
        // Curly quotes, a no-break space and an em dash stay where new repeats old.
        let text = "say(\u{201C}hi\u{201D});\u{A0}// a \u{2014} b\n";
        assert_eq!(
            apply(text, "say(\"hi\"); // a - b", "say(\"hi\", 2); // a - b"),
            "say(\u{201C}hi\u{201D}, 2);\u{A0}// a \u{2014} b\n"
        );
        // What the caller changed is new's: here the straight quotes of a new word.
        assert_eq!(
            apply(text, "say(\"hi\");", "say('yo');"),
            "say('yo');\u{A0}// a \u{2014} b\n"
        );
        // Invisible and decomposed chars of the file stay too.
        assert_eq!(
            apply(
                "x = caf\u{65}\u{301}\u{200B}s;\n",
                "x = caf\u{E9}s;",
                "x = caf\u{E9}s + 1;"
            ),
            "x = cafe\u{301}\u{200B}s + 1;\n"
        );
        // An ellipsis that old wrote as three dots stays one char; changing it takes new's.
        assert_eq!(
            apply("wait\u{2026} go\n", "wait... go", "wait... stop"),
            "wait\u{2026} stop\n"
        );
        assert_eq!(
            apply("wait\u{2026} go\n", "wait... go", "wait.. go"),
            "wait.. go\n"
        );
    }

    #[test]
    fn indentation_new_repeats_is_the_files_line_by_line() {
        // The file indents line 2 with a tab and line 3 with 4 spaces; old with 4 spaces
        // both. Each line keeps its own.
        let text = "f {\n\ta = 1;\n    b = 2;\n}\n";
        assert_eq!(
            apply(
                text,
                "    a = 1;\n    b = 2;\n",
                "    a = 10;\n    b = 2;\n"
            ),
            "f {\n\ta = 10;\n    b = 2;\n}\n"
        );
        // Trailing whitespace new does not touch stays.
        assert_eq!(
            apply(
                "\tx = 1;  \n\ty = 2;\n",
                "    x = 1;\n    y = 2;",
                "    x = 1;\n    y = 3;"
            ),
            "\tx = 1;  \n\ty = 3;\n"
        );
    }

    #[test]
    fn line_endings_stay_line_by_line() {
        // Mixed endings: untouched lines keep theirs, the changed line keeps its own.
        assert_eq!(
            apply(
                "one\r\ntwo\nthree\r\nfour\n",
                "one\ntwo\nthree\nfour\n",
                "one\ntwo\nTHREE\nfour\n"
            ),
            "one\r\ntwo\nTHREE\r\nfour\n"
        );
        // An added line takes the ending of the line it follows.
        assert_eq!(
            apply(
                "a\r\nb\nc\n",
                "  a\n  b\n  c\n",
                "  a\n  a2\n  b\n  b2\n  c\n"
            ),
            "a\r\na2\r\nb\nb2\nc\n"
        );
        // new's own endings do not override the file's.
        assert_eq!(
            apply("a\nb\nc\r\nd\n", "  a\n  b\n  c\n", "x\r\ny\r\nz\r\n"),
            "x\ny\nz\r\nd\n"
        );
        // A passage with no line ending to follow (one unterminated line) writes new's own,
        // CRLF or LF, line by line.
        assert_eq!(apply("  a", "    a", "x\ny\nz"), "x\ny\nz");
        assert_eq!(apply("  a", "    a", "x\r\ny\r\nz"), "x\r\ny\r\nz");
        assert_eq!(apply("  a", "    a", "x\r\ny\nz"), "x\r\ny\nz");
        // A one-line match inside a CRLF line: new's line breaks take CRLF.
        assert_eq!(
            apply("\tab;\r\n", "    ab;", "    ab;\n    cd;"),
            "\tab;\r\n\tcd;\r\n"
        );
    }

    #[test]
    fn new_loses_its_final_newline_where_the_file_has_none() {
        assert_eq!(apply("x\na\nb", "a\nb\n", "c\nd\n"), "x\nc\nd");
        assert_eq!(apply("x\r\na\r\nb", "a\nb\n", "c\r\nd\r\n"), "x\r\nc\r\nd");
        // A new without a final newline is left as it is.
        assert_eq!(apply("x\na\nb", "a\nb\n", "c"), "x\nc");
    }

    #[test]
    fn nearest_ending_looks_at_the_line_then_above_then_below() {
        let text = b"a\r\nb\nc";
        let fl = file_lines(text, 0, 3).unwrap();
        assert_eq!(nearest_ending(&fl, 0), Some(true));
        assert_eq!(nearest_ending(&fl, 1), Some(false));
        // The last line has none: the one above.
        assert_eq!(nearest_ending(&fl, 2), Some(false));
        assert_eq!(nearest_ending(&fl, 9), Some(false));
        assert_eq!(nearest_ending(&fl[2..], 0), None);
        assert_eq!(nearest_ending(&[], 0), None);
    }

    /// Pieces of a file line: words, look-alikes, invisible and decomposed chars.
    fn piece() -> impl Strategy<Value = &'static str> {
        prop::sample::select(
            &[
                "a", "bc", "x1", " ", "(", ";", "'", "\"", "-", "\u{2019}", "\u{201C}", "\u{2014}",
                "\u{A0}", "\u{200B}", "\u{E9}", "e\u{301}", "\u{2026}", "...",
            ][..],
        )
    }

    /// A file of 1-4 lines (some indentation, some trailing whitespace, LF or CRLF each)
    /// and an `old` that misquotes them: indentation rewritten, look-alikes straightened,
    /// invisible chars dropped, endings as LF.
    fn file_and_old() -> impl Strategy<Value = (String, String)> {
        let line = (
            prop::sample::select(&["", "\t", "  ", "    ", "\t\t"][..]),
            "[a-z]{1,4}",
            prop::collection::vec(piece(), 0..6),
            prop::sample::select(&["", " ", "\t"][..]),
            prop::sample::select(&["\n", "\r\n"][..]),
        );
        prop::collection::vec(line, 1..5).prop_map(|lines| {
            let mut text = String::from("head\n");
            let mut old = String::new();
            for (indent, word, pieces, trail, end) in lines {
                let content = format!("{word}{}", pieces.concat());
                text.push_str(&format!("{indent}{content}{trail}{end}"));
                let quoted: String = content
                    .chars()
                    .filter_map(|c| match c {
                        '\u{2019}' => Some('\''),
                        '\u{201C}' => Some('"'),
                        '\u{2014}' => Some('-'),
                        '\u{A0}' => Some(' '),
                        '\u{200B}' => None,
                        c => Some(c),
                    })
                    .collect();
                let indent = indent.replace('\t', "    ");
                old.push_str(&format!("{indent}{}\n", quoted.trim_end()));
            }
            text.push_str("tail\n");
            (text, old)
        })
    }

    fn the_match(text: &str, old: &str) -> Option<FuzzyMatch> {
        match diagnose(text.as_bytes(), old) {
            Diagnosis::Whitespace { matches, .. } if matches.len() == 1 => matches.first().cloned(),
            _ => None,
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(
            std::env::var("PROPTEST_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(512),
        ))]

        /// new == old writes the file's matched bytes back exactly, whatever old misquoted.
        #[test]
        fn repeating_old_writes_the_files_bytes((text, old) in file_and_old()) {
            if let Some(m) = the_match(&text, &old) {
                let got = render_replacement(text.as_bytes(), &m, &old, &old);
                prop_assert_eq!(
                    String::from_utf8_lossy(&got),
                    String::from_utf8_lossy(&text.as_bytes()[m.start..m.end])
                );
            }
        }

        /// A word inserted into new comes from new, once, and everything new repeats is the
        /// file's: removing the word gives the file's matched bytes back.
        #[test]
        fn what_new_adds_comes_from_new(
            (text, old) in file_and_old(),
            line in any::<prop::sample::Index>(),
            at in any::<prop::sample::Index>(),
        ) {
            let Some(m) = the_match(&text, &old) else {
                return Ok(());
            };
            // Insert "ZQ" after a char of some line's content (not its indentation).
            let lines: Vec<&str> = old.split_inclusive('\n').collect();
            let li = line.index(lines.len());
            let l = lines[li];
            let indent = l.len() - l.trim_start().len();
            let body: Vec<(usize, char)> = l[indent..].trim_end().char_indices().collect();
            let (off, c) = body[at.index(body.len())];
            let cut = indent + off + c.len_utf8();
            let mut new: String = lines[..li].concat();
            new.push_str(&l[..cut]);
            new.push_str("ZQ");
            new.push_str(&l[cut..]);
            new.push_str(&lines[li + 1..].concat());
            let got = String::from_utf8(render_replacement(text.as_bytes(), &m, &old, &new)).unwrap();
            prop_assert_eq!(got.matches("ZQ").count(), 1, "{:?}", got);
            let matched = &text[m.start..m.end];
            // Inside a char the file spells as several (an ellipsis for "..."), the split
            // char comes from new: only then may the rest differ.
            if !matched.contains('\u{2026}') {
                prop_assert_eq!(got.replace("ZQ", ""), matched);
            }
        }
    }
}
