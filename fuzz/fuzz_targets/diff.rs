//! Fuzz target for the display diff and git patch of two arbitrary byte strings (any bytes,
//! invalid UTF-8 and `\r` included, or files made of a few repeated lines so that changes
//! split into hunks and pass the caps; with and without `created`, any path). Nothing may panic,
//! and the result must hold together: no change renders empty; both texts keep their caps
//! and end every line in `\n`; the `+`/`-` lines of an uncut diff or a patch match `added`
//! and `removed` and the hunk headers' counts; a patch is `None` exactly when it is cut or
//! unavailable (and unavailable only for invalid UTF-8); and a patch, applied to the old
//! bytes, gives exactly the new bytes.
#![no_main]

use libfuzzer_sys::fuzz_target;
use quill::text::diff::{DIFF_MAX_LINES, INVALID_UTF8, PATCH_MAX_LINES, PatchTarget, Rendered, render};

const NO_NEWLINE: &[u8] = b"\\ No newline at end of file\n";

/// Lines that `as_lines` builds files from: mostly a few repeated ones (so changes have
/// context and split into hunks), with CRLF, no final newline, non-ASCII and invalid UTF-8.
const LINES: [&[u8]; 16] = [
    b"a\n",
    b"a\n",
    b"a\n",
    b"a\n",
    b"b\n",
    b"b\n",
    b"c\n",
    b"\n",
    b"\r\n",
    b"d\r\n",
    b"e",
    b"\xc3\xa9\n",
    b"\xff\n",
    b"-- x\n",
    b"+++ y\n",
    b"@@ -1 +1 @@\n",
];

/// Each byte picks a line: whole-line edits, many lines and many hunks from short inputs.
fn as_lines(picks: &[u8]) -> Vec<u8> {
    picks
        .iter()
        .flat_map(|&p| LINES[usize::from(p) % LINES.len()])
        .copied()
        .collect()
}

fuzz_target!(|input: (bool, bool, bool, String, Vec<u8>, Vec<u8>)| {
    let (created, prefixed, by_line, path, old, new) = input;
    let (old, new) = if by_line {
        (as_lines(&old), as_lines(&new))
    } else {
        (old, new)
    };
    let target = PatchTarget {
        path: std::path::Path::new(&path),
        prefixed,
    };
    let r = render(&old, &new, &target, created);
    let old: &[u8] = if created { &[] } else { &old };

    if old == new && !created {
        let none = Rendered {
            diff: String::new(),
            diff_truncated: false,
            patch: Some(String::new()),
            patch_truncated: false,
            patch_unavailable: None,
            added: 0,
            removed: 0,
        };
        assert_eq!(r, none);
        return;
    }
    assert!(r.added <= lines(&new).len() && r.removed <= lines(old).len());
    assert!(
        r.added + r.removed > 0 || created,
        "a change with no changed line"
    );

    let diff = lines(r.diff.as_bytes());
    assert!(diff.len() <= DIFF_MAX_LINES);
    assert!(diff.iter().all(|l| l.ends_with(b"\n")));
    assert!(!r.diff_truncated || diff.len() == DIFF_MAX_LINES);
    if !r.diff_truncated {
        let hunks = hunks(&diff);
        assert_eq!(counts(&hunks), (r.added, r.removed));
    }

    match (&r.patch, r.patch_truncated, r.patch_unavailable) {
        (Some(patch), false, None) => {
            let patch = lines(patch.as_bytes());
            assert!(patch.len() <= PATCH_MAX_LINES);
            let header = if created { 4 } else { 3 };
            assert!(patch.len() >= header && patch.iter().all(|l| l.ends_with(b"\n")));
            assert!(patch[0].starts_with(b"diff --git "));
            if created {
                assert_eq!(patch[1], b"new file mode 100644\n");
                assert_eq!(patch[2], b"--- /dev/null\n");
            }
            let hunks = hunks(&patch[header..]);
            assert_eq!(counts(&hunks), (r.added, r.removed));
            assert_eq!(
                apply(old, &hunks),
                new,
                "the patch does not give the new bytes"
            );
        }
        (None, true, None) => {}
        (None, false, Some(why)) => {
            assert_eq!(why, INVALID_UTF8);
            assert!(std::str::from_utf8(old).is_err() || std::str::from_utf8(&new).is_err());
        }
        other => panic!("inconsistent patch state {other:?}"),
    }
});

fn lines(b: &[u8]) -> Vec<&[u8]> {
    b.split_inclusive(|&c| c == b'\n').collect()
}

/// One hunk: 1-based old start, old and new line counts from its header, and its lines as
/// (sign, content) with `\ No newline at end of file` folded into the line before it.
struct Hunk {
    old_start: usize,
    old_len: usize,
    new_len: usize,
    body: Vec<(u8, Vec<u8>)>,
}

/// Parses hunks (display `@@ -a,b +c,d @@` or git's form without `,1`) and checks that each
/// header's counts match its body.
fn hunks(lines: &[&[u8]]) -> Vec<Hunk> {
    let mut out: Vec<Hunk> = Vec::new();
    for &line in lines {
        if let Some(header) = line.strip_prefix(b"@@ -") {
            let header = std::str::from_utf8(header).expect("hunk header is ASCII");
            let (ranges, rest) = header.split_once(" @@").expect("hunk header ends in @@");
            assert_eq!(rest, "\n");
            let (old, new) = ranges.split_once(" +").expect("hunk header has +");
            let range = |s: &str| -> (usize, usize) {
                match s.split_once(',') {
                    Some((start, len)) => (start.parse().unwrap(), len.parse().unwrap()),
                    None => (s.parse().unwrap(), 1),
                }
            };
            let ((old_start, old_len), (_, new_len)) = (range(old), range(new));
            out.push(Hunk {
                old_start,
                old_len,
                new_len,
                body: Vec::new(),
            });
            continue;
        }
        let hunk = out.last_mut().expect("a line before the first hunk header");
        if line == NO_NEWLINE {
            let (_, last) = hunk
                .body
                .last_mut()
                .expect("a marker with no line before it");
            assert_eq!(last.pop(), Some(b'\n'));
            continue;
        }
        let (&sign, content) = line.split_first().expect("an empty line");
        assert!(matches!(sign, b' ' | b'-' | b'+'), "line {line:?}");
        hunk.body.push((sign, content.to_vec()));
    }
    for h in &out {
        let old = h.body.iter().filter(|(s, _)| *s != b'+').count();
        let new = h.body.iter().filter(|(s, _)| *s != b'-').count();
        assert_eq!((old, new), (h.old_len, h.new_len), "hunk header counts");
    }
    out
}

/// (`+` lines, `-` lines) over all hunks.
fn counts(hunks: &[Hunk]) -> (usize, usize) {
    let lines = hunks.iter().flat_map(|h| &h.body);
    let added = lines.clone().filter(|(s, _)| *s == b'+').count();
    (added, lines.filter(|(s, _)| *s == b'-').count())
}

/// Applies the hunks to `old` strictly: context and removed lines must match byte for byte.
fn apply(old: &[u8], hunks: &[Hunk]) -> Vec<u8> {
    let old = lines(old);
    let mut out = Vec::new();
    let mut at = 0;
    for h in hunks {
        // An empty old range names the line before it.
        let start = if h.old_len == 0 {
            h.old_start
        } else {
            h.old_start - 1
        };
        assert!(
            start >= at && start <= old.len(),
            "hunk at line {start} out of order"
        );
        old[at..start].iter().for_each(|l| out.extend_from_slice(l));
        at = start;
        for (sign, content) in &h.body {
            if *sign != b'+' {
                assert_eq!(
                    old.get(at).copied(),
                    Some(&content[..]),
                    "old line {at} differs"
                );
                at += 1;
            }
            if *sign != b'-' {
                out.extend_from_slice(content);
            }
        }
    }
    old[at..].iter().for_each(|l| out.extend_from_slice(l));
    out
}
