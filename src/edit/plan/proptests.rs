//! Property tests of the planner: a unique exact edit changes only its span and its inverse
//! undoes it, an ambiguous one is reported with the true count, no input panics, and a
//! fuzzy edit changes only the lines it reports. The generators build `old` from the body
//! (a stretch of it, or a misquote of some of its lines) so that almost every case checks
//! a property rather than being thrown away. Tests only.

use super::tests::{ed, exact_opts, fuzzy_opts};
use super::*;
use proptest::prelude::*;

/// What bodies are made of: ASCII, whitespace, both line endings and look-alikes. An
/// invalid byte (`\xff`) comes as one piece in fourteen.
const VALID_PIECES: &[&str] = &[
    "a", "b", "foo", " ", "\t", "\n", "\r\n", "\u{2019}", "\u{A0}", "\u{2014}", "\u{2026}", "'",
    "-",
];

fn piece() -> impl Strategy<Value = &'static [u8]> {
    prop_oneof![
        13 => prop::sample::select(VALID_PIECES).prop_map(str::as_bytes),
        1 => Just(&b"\xff"[..]),
    ]
}

fn body_strategy() -> impl Strategy<Value = Vec<u8>> {
    prop::collection::vec(piece(), 0..40).prop_map(|v| v.concat())
}

/// A body and `start..end`, a non-empty stretch of it (at most 10 chars) that is valid
/// UTF-8 and cut at char boundaries, possibly inside a `\r\n`: the `old` of an exact
/// edit. The body holds at least one valid piece, so every case has a stretch.
fn body_and_stretch() -> impl Strategy<Value = (Vec<u8>, usize, usize)> {
    (
        prop::collection::vec(piece(), 0..40),
        prop::sample::select(VALID_PIECES),
        any::<prop::sample::Index>(),
        any::<prop::sample::Index>(),
        1usize..=10,
    )
        .prop_map(|(mut pieces, valid, at, first, len)| {
            pieces.insert(at.index(pieces.len() + 1), valid.as_bytes());
            let body = pieces.concat();
            // (valid run, start, end) of every valid char: a stretch stays in one run.
            let mut chars = Vec::new();
            let mut off = 0;
            for (run, chunk) in body.utf8_chunks().enumerate() {
                for (i, c) in chunk.valid().char_indices() {
                    chars.push((run, off + i, off + i + c.len_utf8()));
                }
                off += chunk.valid().len() + chunk.invalid().len();
            }
            let i = first.index(chars.len());
            let (run, start, mut end) = chars[i];
            for &(r, _, e) in chars[i..].iter().take(len) {
                if r != run {
                    break;
                }
                end = e;
            }
            (body, start, end)
        })
}

/// Text pieces for `old` and `new`; the last, U+FFFD, is left out of fuzzy `new`s.
const TEXT_PIECES: &[&str] = &[
    "a", "b", "foo", " ", "    ", "\t", "\n", "\r\n", "'", "\u{2018}", "\u{A0}", "-", "...",
    "\u{FFFD}",
];

fn text_strategy() -> impl Strategy<Value = String> {
    prop::collection::vec(prop::sample::select(TEXT_PIECES), 0..12).prop_map(|v| v.concat())
}

/// A `new` a fuzzy match can write: no U+FFFD, which is refused unless `old` is exact.
fn fuzzy_new_strategy() -> impl Strategy<Value = String> {
    let pieces = &TEXT_PIECES[..TEXT_PIECES.len() - 1];
    prop::collection::vec(prop::sample::select(pieces), 0..12).prop_map(|v| v.concat())
}

/// One line as a file has it: indentation, words and look-alikes, trailing whitespace,
/// LF or CRLF.
fn region_line() -> impl Strategy<Value = String> {
    let token = prop_oneof![
        3 => "[a-z]{1,6}",
        2 => prop::sample::select(
            &[
                "'", "\"", "\u{2019}", "\u{201C}", "-", "\u{2014}", "...", "\u{2026}",
                "\u{A0}", "(x)",
            ][..]
        )
        .prop_map(String::from),
    ];
    (
        prop::sample::select(&["", "\t", "\t\t", "  ", "    ", "\u{A0}"][..]),
        prop::collection::vec(token, 1..5),
        prop::sample::select(&["", "", " ", "\t", "  "][..]),
        prop::sample::select(&["\n", "\n", "\r\n"][..]),
    )
        .prop_map(|(indent, words, trailing, end)| {
            format!("{indent}{}{trailing}{end}", words.join(" "))
        })
}

/// Another way to write indentation `i`, for a line of old that must differ from the file.
fn other_indent(i: &str) -> String {
    match i {
        "" => " ".into(),
        i if i.contains('\t') => i.replace('\t', "    "),
        _ => "\t".into(),
    }
}

/// `region` as someone might misquote it: `front` / `back` chars cut off (and the
/// whitespace the cut leaves at either end), the indentation of the second line (or of
/// the first, when it is whole and alone) written another way, and `flags` picking more
/// differences: 1 tabs to spaces and 64 four spaces to a tab in indentation, 16 no
/// trailing whitespace, 32 LF for CRLF, 2 straight for curly quotes, 128 curly for
/// straight, 4 ASCII for dashes and ellipses, 8 spaces for no-break spaces.
fn misquote(region: &str, flags: u8, front: usize, back: usize) -> String {
    let chars: Vec<char> = region.chars().collect();
    let back = back.min(chars.len());
    let front = front.min(chars.len() - back);
    let mut cut: String = chars[front..chars.len() - back].iter().collect();
    let ws = [' ', '\t', '\u{A0}'];
    if back > 0 {
        cut.truncate(cut.trim_end_matches(ws).len());
    }
    if front > 0 {
        cut = cut.trim_start_matches(ws).to_string();
    }
    let lines: Vec<&str> = cut.split_inclusive('\n').collect();
    let forced = if lines.len() > 1 {
        1
    } else if front == 0 {
        0
    } else {
        usize::MAX
    };
    let mut out = String::new();
    for (j, line) in lines.iter().enumerate() {
        let (raw, end) = match line.strip_suffix("\r\n") {
            Some(r) => (r, if flags & 32 != 0 { "\n" } else { "\r\n" }),
            None => line.strip_suffix('\n').map_or((*line, ""), |r| (r, "\n")),
        };
        let raw = if flags & 16 != 0 {
            raw.trim_end_matches([' ', '\t'])
        } else {
            raw
        };
        let content = raw.trim_start_matches(ws);
        let indent = &raw[..raw.len() - content.len()];
        if j == forced {
            out.push_str(&other_indent(indent));
        } else if flags & 1 != 0 {
            out.push_str(&indent.replace('\t', "    ").replace('\u{A0}', " "));
        } else if flags & 64 != 0 {
            out.push_str(&indent.replace("    ", "\t"));
        } else {
            out.push_str(indent);
        }
        for c in content.chars() {
            match c {
                '\u{2019}' if flags & 2 != 0 => out.push('\''),
                '\u{201C}' if flags & 2 != 0 => out.push('"'),
                '\'' if flags & 128 != 0 => out.push('\u{2018}'),
                '\u{2014}' if flags & 4 != 0 => out.push('-'),
                '\u{2026}' if flags & 4 != 0 => out.push_str("..."),
                '\u{A0}' if flags & 8 != 0 => out.push(' '),
                c => out.push(c),
            }
        }
        out.push_str(end);
    }
    out
}

/// A body with whole lines in the middle and an `old` misquoting some of them, so that
/// most cases are a whitespace / look-alike match that `--fuzzy` applies. A region whose
/// last line has no line ending ends the file.
fn body_and_misquote() -> impl Strategy<Value = (Vec<u8>, String)> {
    (
        body_strategy(),
        prop::collection::vec(region_line(), 1..4),
        any::<bool>(),
        body_strategy(),
        any::<u8>(),
        // A cut front makes a fragment, which can differ in look-alikes only: keep it rarer.
        prop_oneof![3 => Just(0usize), 1 => 1usize..3],
        0usize..3,
    )
        .prop_map(|(head, lines, last_ended, tail, flags, front, back)| {
            let mut region = lines.concat();
            let mut body = head;
            if !body.is_empty() && body.last() != Some(&b'\n') {
                body.push(b'\n');
            }
            if last_ended {
                body.extend_from_slice(region.as_bytes());
                body.extend_from_slice(&tail);
            } else {
                region.truncate(region.trim_end_matches(['\r', '\n']).len());
                body.extend_from_slice(region.as_bytes());
            }
            (body, misquote(&region, flags, front, back))
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(
        std::env::var("PROPTEST_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(512),
    ))]

    #[test]
    fn roundtrip_and_bytes_outside_span_unchanged(
        (body, start, end) in body_and_stretch(),
        new in "[a-z\n ]{1,8}",
    ) {
        let old = std::str::from_utf8(&body[start..end]).expect("a valid stretch");
        let r = plan(&body, &[ed(old, &new)], &exact_opts());
        if old == new {
            prop_assert!(matches!(r, Err(PlanError::InvalidArgument { .. })), "{:?}", r);
            return Ok(());
        }
        let p = match r {
            Ok(p) => p,
            Err(PlanError::Ambiguous { count, lines, fuzzy, .. }) => {
                // Not unique: the count is every occurrence, overlapping ones included,
                // and the lines are where the first twenty start.
                let starts: Vec<usize> = (0..=body.len() - old.len())
                    .filter(|&i| body[i..].starts_with(old.as_bytes()))
                    .collect();
                prop_assert!(starts.len() >= 2 && starts.contains(&start));
                prop_assert_eq!(count, starts.len());
                prop_assert!(!fuzzy);
                let want: Vec<usize> = starts
                    .iter()
                    .take(AMBIGUOUS_MAX_LINES)
                    .map(|&i| 1 + body[..i].iter().filter(|&&b| b == b'\n').count())
                    .collect();
                prop_assert_eq!(lines, want);
                return Ok(());
            }
            Err(e) => return Err(TestCaseError::fail(format!("{e:?}"))),
        };
        prop_assert_eq!(p.replacements, 1);
        // A one-line old in a CRLF line inserts new's line breaks as CRLF.
        let inserted = match to_crlf(new.as_bytes()) {
            Some(crlf) if !old.contains('\n') && line_ends_in_crlf(&body, end) => crlf,
            _ => new.as_bytes().to_vec(),
        };
        // The only occurrence must be the one we picked; everything else is untouched.
        prop_assert_eq!(&p.new_body[..start], &body[..start]);
        prop_assert_eq!(&p.new_body[start..start + inserted.len()], &inserted[..]);
        prop_assert_eq!(&p.new_body[start + inserted.len()..], &body[end..]);
        // Inverse edit restores the body when new is unique in the result (and was inserted
        // as given: after a CRLF conversion, `new` may match elsewhere instead).
        // The same holds for the inverse: a one-line `new` put back as a multi-line `old`
        // takes the line's CRLF.
        if inserted != new.as_bytes() || (old.contains('\n') && !new.contains('\n')) {
            return Ok(());
        }
        if let Ok(back) = plan(&p.new_body, &[ed(&new, old)], &exact_opts()) {
            prop_assert_eq!(&back.new_body, &body, "old {:?} new {:?}", old, new);
        }
    }

    #[test]
    fn never_panics_on_bytes(
        body in prop::collection::vec(any::<u8>(), 0..200),
        old in ".{0,12}",
        new in ".{0,12}",
        flags in 0u8..16,
    ) {
        let opts = PlanOptions {
            fuzzy: flags & 1 == 1,
            expect_count: if flags & 2 == 2 { Some(usize::from(flags >> 2)) } else { None },
        };
        let e = Edit { old, new, replace_all: flags & 4 == 4 };
        let _ = plan(&body, &[e.clone(), e], &opts);
    }

    #[test]
    fn never_panics_on_lookalike_soup(
        body in body_strategy(),
        old in text_strategy(),
        new in text_strategy(),
        flags in 0u8..16,
    ) {
        let opts = PlanOptions {
            fuzzy: flags & 1 == 1,
            expect_count: if flags & 2 == 2 { Some(usize::from(flags >> 2)) } else { None },
        };
        let e = Edit { old, new, replace_all: flags & 4 == 4 };
        if let Ok(p) = plan(&body, &[e], &opts) {
            for s in &p.spans {
                prop_assert!(s.start_line >= 1 && s.start_line <= s.end_line);
            }
        }
    }

    #[test]
    fn fuzzy_changes_only_the_reported_lines(
        (body, old) in body_and_misquote(),
        new in fuzzy_new_strategy(),
    ) {
        if let Ok(p) = plan(&body, &[ed(&old, &new)], &fuzzy_opts())
            && p.matched_fuzzily
        {
            let span = p.spans[0];
            // Bytes before the span's first line and after its last line (with that
            // line's newline) are unchanged.
            let line_starts: Vec<usize> = std::iter::once(0)
                .chain(body.iter().enumerate().filter(|b| *b.1 == b'\n').map(|(i, _)| i + 1))
                .collect();
            let head = line_starts[span.start_line - 1];
            let tail = line_starts.get(span.end_line).copied().unwrap_or(body.len());
            prop_assert!(p.new_body.len() >= head + (body.len() - tail));
            prop_assert_eq!(&p.new_body[..head], &body[..head]);
            prop_assert_eq!(&p.new_body[p.new_body.len() - (body.len() - tail)..], &body[tail..]);
        }
    }
}

/// `out` with the line holding "ZQ" taken out (its indentation and one line ending, the one
/// after it or the one before it), each way it can be.
fn without_marker_line(out: &[u8]) -> Vec<Vec<u8>> {
    let Some(i) = out.windows(2).position(|w| w == b"ZQ") else {
        return Vec::new();
    };
    let mut a = i;
    while a > 0 && matches!(out[a - 1], b' ' | b'\t') {
        a -= 1;
    }
    let end = i + 2;
    let mut ways = Vec::new();
    for eol in [&b"\r\n"[..], b"\n"] {
        if out[end..].starts_with(eol) {
            ways.push([&out[..a], &out[end + eol.len()..]].concat());
        }
        if out[..a].ends_with(eol) {
            ways.push([&out[..a - eol.len()], &out[end..]].concat());
        }
    }
    ways
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(
        std::env::var("PROPTEST_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(512),
    ))]

    /// A fuzzy edit whose new repeats old and adds one line writes the file's own bytes for
    /// all of old: taking the added line out gives the body back, byte for byte.
    #[test]
    fn fuzzy_keeps_the_files_bytes_where_new_repeats_old((body, old) in body_and_misquote()) {
        let new = if old.ends_with('\n') {
            format!("{old}ZQ\n")
        } else {
            format!("{old}\nZQ")
        };
        if let Ok(p) = plan(&body, &[ed(&old, &new)], &fuzzy_opts())
            && p.matched_fuzzily
        {
            let ways = without_marker_line(&p.new_body);
            prop_assert!(
                ways.contains(&body),
                "body {:?}\nold {:?}\nout {:?}",
                String::from_utf8_lossy(&body),
                old,
                String::from_utf8_lossy(&p.new_body)
            );
        }
    }
}
