//! Fuzz target for `quill apply`'s pure core: arbitrary bytes parsed as a patch (either
//! format, any `-p`), every parsed section's hunks applied to a fixed body (CRLF and LF lines,
//! a BOM, repeated lines, invalid UTF-8, no final newline), exactly and fuzzily. Nothing may
//! panic, and the result must hold together: a parse error names a line of the patch and a
//! fix; a parsed section names a non-empty path without NUL on at least one side; an applied
//! file has one span per hunk, each inside the new body; failures are reported in hunk order,
//! each naming its hunk's patch line.
#![no_main]

use libfuzzer_sys::fuzz_target;
use quill::edit::patch::{ApplyOptions, apply, created_content, parse};

const BODY: &[u8] = b"\xef\xbb\xbffn main() {\r\n    let x = 1;\r\n}\r\n\nfn f() {\n\tlet x = 1;\n}\n\
                      a\na\nb\n\xff\xfe\n\n  def f():\n      pass\nlast line";

fuzz_target!(|input: (u8, bool, Vec<u8>)| {
    let (strip, fuzzy, text) = input;
    let lines = text.split(|&b| b == b'\n').count();
    let patch = match parse(&text, usize::from(strip % 4)) {
        Ok(patch) => patch,
        Err(e) => {
            assert!(e.line >= 1 && e.line <= lines.max(1), "{e:?}");
            assert!(!e.message.is_empty() && !e.fix.is_empty());
            return;
        }
    };
    assert!(!patch.files.is_empty());
    for file in &patch.files {
        assert!(file.old_path.is_some() || file.new_path.is_some());
        for name in file.old_path.iter().chain(&file.new_path) {
            assert!(!name.is_empty() && !name.contains(&0));
        }
        let _ = created_content(file);
        for hunk in &file.hunks {
            assert!(hunk.line >= 1 && hunk.line <= lines);
        }
        match apply(BODY, &file.hunks, &ApplyOptions { fuzzy }) {
            Ok(applied) => {
                assert_eq!(applied.spans.len(), file.hunks.len());
                let new_lines = applied.new_body.split_inclusive(|&b| b == b'\n').count();
                for span in &applied.spans {
                    assert!(span.start_line >= 1 && span.end_line + 1 >= span.start_line);
                    assert!(span.end_line <= new_lines, "{span:?} past {new_lines} lines");
                }
                assert!(fuzzy || !applied.matched_fuzzily);
            }
            Err(failures) => {
                assert!(!failures.is_empty());
                assert!(failures.windows(2).all(|w| w[0].hunk_index < w[1].hunk_index));
                for f in &failures {
                    assert_eq!(f.line, file.hunks[f.hunk_index].line);
                }
            }
        }
    }
});
