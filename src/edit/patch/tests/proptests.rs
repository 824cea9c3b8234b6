//! Property tests: a patch quill's own renderer writes (and a Codex patch rendered here from
//! the same line diff) turns a file into exactly the other, CRLF lines and a missing final
//! newline included; nothing panics on arbitrary patch text, hunks or bodies.

use super::*;
use crate::text::diff::{PatchTarget, render, test_join as join};
use proptest::prelude::*;
use similar::{Algorithm, DiffTag, capture_diff_slices, group_diff_ops};
use std::path::Path;

fn line() -> impl Strategy<Value = (&'static str, bool)> {
    (
        prop::sample::select(vec!["a", "b", "c", "", "a b", "\t", " x ", "-", "+", "@@"]),
        prop::bool::weighted(0.3),
    )
}

type Edit = (prop::sample::Index, u8, (&'static str, bool));

fn apply_edits<T: Clone>(lines: &[T], edits: &[(prop::sample::Index, u8, T)]) -> Vec<T> {
    let mut out = lines.to_vec();
    for (at, kind, l) in edits {
        let i = at.index(out.len() + 1);
        match kind {
            0 => out.insert(i, l.clone()),
            1 if i < out.len() => {
                out.remove(i);
            }
            _ if i < out.len() => out[i] = l.clone(),
            _ => out.push(l.clone()),
        }
    }
    out
}

/// A Codex update of `old` into `new` (both made of lines ending in `eol`), from their line
/// diff with three lines of context.
fn codex_patch(old: &[String], new: &[String]) -> String {
    let mut out = String::from("*** Begin Patch\n*** Update File: f\n");
    let ops = capture_diff_slices(Algorithm::Myers, old, new);
    for group in group_diff_ops(ops, 3) {
        out.push_str("@@\n");
        for op in group {
            let (tag, o, n) = op.as_tag_tuple();
            let mut emit = |sign: char, lines: &[String]| {
                for l in lines {
                    out.push(sign);
                    out.push_str(l);
                    out.push('\n');
                }
            };
            match tag {
                DiffTag::Equal => emit(' ', &old[o]),
                DiffTag::Delete => emit('-', &old[o]),
                DiffTag::Insert => emit('+', &new[n]),
                DiffTag::Replace => {
                    emit('-', &old[o]);
                    emit('+', &new[n]);
                }
            }
        }
    }
    out.push_str("*** End Patch\n");
    out
}

fn text_of(lines: &[String], crlf: bool, final_newline: bool) -> Vec<u8> {
    let pairs: Vec<(&str, bool)> = lines.iter().map(|l| (l.as_str(), crlf)).collect();
    join(&pairs, final_newline)
}

const PATCH_PIECES: &[&[u8]] = &[
    b"diff --git a/f b/f\n",
    b"--- a/f\n",
    b"+++ b/f\n",
    b"--- /dev/null\n",
    b"+++ /dev/null\n",
    b"@@ -1 +1 @@\n",
    b"@@ -1,2 +1,3 @@\n",
    b"@@ -0,0 +1 @@\n",
    b"@@ -3,0 +4 @@",
    b" a\n",
    b"-a\n",
    b"+b\n",
    b"\n",
    b"\\ No newline at end of file\n",
    b"rename from x\n",
    b"rename to y\n",
    b"new file mode 100644\n",
    b"GIT binary patch\n",
    b"\"a/\\303\\251\"",
    b"*** Begin Patch\n",
    b"*** End Patch\n",
    b"*** Update File: f\n",
    b"*** Add File: g\n",
    b"*** Delete File: h\n",
    b"*** Move to: i\n",
    b"@@\n",
    b"@@ a\n",
    b"*** End of File\n",
    b" ",
    b"\r\n",
    b"\t",
    b"\xff",
    b"<<'EOF'\n",
    b"EOF\n",
];

fn hunk_strategy() -> impl Strategy<Value = Hunk> {
    let text = prop::sample::select(vec!["a", "b", "", "a\r", " a", "\u{feff}a", "\t"]);
    (
        prop::collection::vec((0..3u8, text.clone()), 0..6),
        prop::option::of(0usize..8),
        prop::collection::vec(text, 0..2),
        any::<(bool, bool, bool)>(),
    )
        .prop_map(
            |(lines, old_start, anchors, (old_no_eol, new_no_eol, end_of_file))| Hunk {
                line: 1,
                old_start,
                anchors: anchors.into_iter().map(|a| a.as_bytes().to_vec()).collect(),
                lines: lines
                    .into_iter()
                    .map(|(k, t)| {
                        let t = t.as_bytes().to_vec();
                        match k {
                            0 => HunkLine::Context(t),
                            1 => HunkLine::Remove(t),
                            _ => HunkLine::Add(t),
                        }
                    })
                    .collect(),
                old_no_eol,
                new_no_eol,
                end_of_file,
            },
        )
}

fn body_strategy() -> impl Strategy<Value = Vec<u8>> {
    let piece = prop::sample::select(vec![
        &b"a"[..],
        b"b",
        b"\n",
        b"\r\n",
        b" ",
        b"\t",
        b"\xef\xbb\xbf",
        b"\xff",
    ]);
    prop::collection::vec(piece, 0..24).prop_map(|v| v.concat())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn quills_own_patch_turns_old_into_new(
        old_lines in prop::collection::vec(line(), 0..30),
        edits in prop::collection::vec((any::<prop::sample::Index>(), 0..3u8, line()), 0..6),
        old_nl in any::<bool>(),
        new_nl in any::<bool>(),
    ) {
        let edits: Vec<Edit> = edits;
        let new_lines = apply_edits(&old_lines, &edits);
        let old = join(&old_lines, old_nl);
        let new = join(&new_lines, new_nl);
        prop_assume!(old != new);
        let target = PatchTarget { path: Path::new("f"), prefixed: true };
        let rendered = render(&old, &new, &target, false);
        let text = rendered.patch.expect("a small ASCII patch is rendered");
        let patch = parse(text.as_bytes(), 1).map_err(|e| TestCaseError::fail(format!("{e:?}\n{text}")))?;
        prop_assert_eq!(patch.files.len(), 1);
        let file = &patch.files[0];
        prop_assert_eq!(file.old_path.as_deref(), Some(&b"f"[..]));
        prop_assert_eq!(file.new_path.as_deref(), Some(&b"f"[..]));
        let applied = apply(&old, &file.hunks, &ApplyOptions::default())
            .map_err(|e| TestCaseError::fail(format!("{e:?}\n{text}")))?;
        prop_assert_eq!(applied.new_body, new, "{}", text);
        prop_assert_eq!(applied.spans.len(), file.hunks.len());

        // The same change as a creation gives the new content.
        let created = render(b"", &join(&new_lines, new_nl), &target, true);
        let text = created.patch.expect("patch");
        let patch = parse(text.as_bytes(), 1).map_err(|e| TestCaseError::fail(format!("{e:?}\n{text}")))?;
        prop_assert_eq!(patch.files[0].old_path.clone(), None);
        prop_assert_eq!(created_content(&patch.files[0]), join(&new_lines, new_nl));
    }

    #[test]
    fn a_codex_patch_of_the_line_diff_turns_old_into_new(
        count in 1usize..25,
        edits in prop::collection::vec((any::<prop::sample::Index>(), 0..3u8, 0u32..1000), 0..6),
        crlf in any::<bool>(),
        final_newline in any::<bool>(),
    ) {
        // Distinct lines, so that every chunk matches in one place.
        let old: Vec<String> = (0..count).map(|i| format!("line {i}")).collect();
        let edits: Vec<(prop::sample::Index, u8, String)> = edits
            .into_iter()
            .enumerate()
            .map(|(j, (at, kind, n))| (at, kind, format!("new {j} {n}")))
            .collect();
        let new = apply_edits(&old, &edits);
        let (old_text, new_text) = (text_of(&old, crlf, final_newline), text_of(&new, crlf, final_newline));
        prop_assume!(old_text != new_text);
        // A file of one line without a break has no line ending to follow.
        prop_assume!(!crlf || old_text.windows(2).any(|w| w == b"\r\n"));
        let text = codex_patch(&old, &new);
        let patch = parse(text.as_bytes(), 1).map_err(|e| TestCaseError::fail(format!("{e:?}\n{text}")))?;
        prop_assert_eq!(patch.format, Format::Codex);
        let applied = apply(&old_text, &patch.files[0].hunks, &ApplyOptions::default())
            .map_err(|e| TestCaseError::fail(format!("{e:?}\n{text}")))?;
        prop_assert_eq!(
            String::from_utf8_lossy(&applied.new_body),
            String::from_utf8_lossy(&new_text),
            "{}", text
        );
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1024))]

    #[test]
    fn parsing_arbitrary_text_never_panics(
        pieces in prop::collection::vec(prop::sample::select(PATCH_PIECES), 0..30),
        strip in 0usize..3,
        body in body_strategy(),
    ) {
        let text = pieces.concat();
        if let Ok(patch) = parse(&text, strip) {
            prop_assert!(!patch.files.is_empty());
            for file in &patch.files {
                prop_assert!(file.old_path.is_some() || file.new_path.is_some());
                for name in file.old_path.iter().chain(&file.new_path) {
                    prop_assert!(!name.is_empty() && !name.contains(&0));
                }
                let _ = created_content(file);
                for fuzzy in [false, true] {
                    let _ = apply(&body, &file.hunks, &ApplyOptions { fuzzy });
                }
            }
        }
    }

    #[test]
    fn applying_arbitrary_hunks_never_panics(
        hunks in prop::collection::vec(hunk_strategy(), 0..4),
        body in body_strategy(),
        fuzzy in any::<bool>(),
    ) {
        match apply(&body, &hunks, &ApplyOptions { fuzzy }) {
            Ok(a) => prop_assert_eq!(a.spans.len(), hunks.len()),
            Err(failures) => {
                prop_assert!(!failures.is_empty());
                prop_assert!(failures.windows(2).all(|w| w[0].hunk_index < w[1].hunk_index));
            }
        }
    }

    #[test]
    fn parsing_arbitrary_bytes_never_panics(bytes in prop::collection::vec(any::<u8>(), 0..200)) {
        let _ = parse(&bytes, 1);
    }
}
