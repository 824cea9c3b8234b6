//! `quill edit` through the binary: exact matching, ambiguity, repair reasons and `--fuzzy`,
//! encodings and line endings kept byte for byte, multi-edit rollback, creation, caps, locks.
//! Every successful edit's patch is applied (see `patching`).

use std::fs;

use crate::patching::{assert_patch_applies, assert_tool_applies};
use crate::util::{Mutation, TestEnv, utf16le};

/// Read `rel`, edit it with `args`, expect success and `want` on disk, and check the patch.
#[track_caller]
fn edit_ok(env: &TestEnv, rel: &str, args: &[&str], want: &[u8]) -> Mutation {
    let before = env.read(rel);
    env.json(&["read", rel]).ok();
    let mut full = vec!["edit", rel];
    full.extend_from_slice(args);
    let out = env.json(&full);
    let m = out.ok().mutation();
    env.assert_file(rel, want);
    assert_eq!(m.bytes, want.len() as u64);
    assert_eq!(m.sha256, Some(crate::util::sha256_hex(want)));
    assert_eq!(
        m.previous_sha256.as_deref(),
        Some(crate::util::sha256_hex(&before).as_str())
    );
    if m.patch.is_some() {
        assert_patch_applies(&out, Some(&before), Some(want));
    } else {
        assert!(m.patch_unavailable.is_some(), "no patch and no reason");
    }
    m
}

#[test]
fn replaces_a_unique_passage() {
    let env = TestEnv::new();
    env.write("a.rs", "fn a() {\n    let x = 1;\n}\n");
    let m = edit_ok(
        &env,
        "a.rs",
        &["--old", "let x = 1;", "--new", "let x = 2;"],
        b"fn a() {\n    let x = 2;\n}\n",
    );
    assert_eq!(m.replacements, Some(1));
    assert_eq!(m.matched_fuzzily, Some(false));
    assert!(m.diff.starts_with("@@ -1,3 +1,3 @@"), "{}", m.diff);
    assert_eq!((m.added, m.removed), (1, 1));
    assert_eq!(
        m.spans,
        Some(vec![crate::util::Span {
            start_line: 2,
            end_line: 2
        }])
    );
}

#[test]
fn ambiguous_matches_count_overlaps_and_name_lines() {
    let env = TestEnv::new();
    env.write("f.txt", "aaa\nx\naaa\n");
    env.json(&["read", "f.txt"]).ok();
    let e = env
        .json(&["edit", "f.txt", "--old", "aa", "--new", "b"])
        .err("edit_ambiguous", 3)
        .failure()
        .error;
    assert_eq!(e.field("count"), 4);
    assert_eq!(e.field("lines"), &serde_json::json!([1, 1, 3, 3]));
    env.assert_file("f.txt", "aaa\nx\naaa\n");
    edit_ok(
        &env,
        "f.txt",
        &["--old", "aaa", "--new", "b", "--replace-all"],
        b"b\nx\nb\n",
    );
}

#[test]
fn expect_count_must_match() {
    let env = TestEnv::new();
    env.write("f.txt", "x y x y x\n");
    env.json(&["read", "f.txt"]).ok();
    let out = env.json(&[
        "edit",
        "f.txt",
        "--old",
        "x",
        "--new",
        "z",
        "--replace-all",
        "--expect-count",
        "2",
    ]);
    out.err("edit_ambiguous", 3);
    env.assert_file("f.txt", "x y x y x\n");
    // The answer names the count asked for and the one found, and does not suggest the
    // --replace-all the call already has.
    let e = &out.json["error"];
    assert_eq!(
        (e["count"].as_u64(), e["expectCount"].as_u64()),
        (Some(3), Some(2))
    );
    let hint = e["hint"].as_str().unwrap_or_default();
    assert!(hint.contains("--expect-count 3"), "{hint}");
    assert!(!hint.contains("--replace-all"), "{hint}");
    assert!(
        e["message"]
            .as_str()
            .unwrap_or_default()
            .contains("asked for 2")
    );
    // Without --expect-count the key is absent.
    let plain = env.json(&["edit", "f.txt", "--old", "x", "--new", "z"]);
    plain.err("edit_ambiguous", 3);
    assert!(plain.json["error"].get("expectCount").is_none());
    let m = edit_ok(
        &env,
        "f.txt",
        &["--old", "x", "--new", "z", "--expect-count", "3"],
        b"z y z y z\n",
    );
    assert_eq!(m.replacements, Some(3));
}

#[test]
fn tabs_versus_spaces_is_a_whitespace_miss_and_fuzzy_keeps_the_tabs() {
    let env = TestEnv::new();
    let text = "fn f() {\n\tif x {\n\t\treturn 1;\n\t}\n}\n";
    env.write("f.rs", text);
    env.json(&["read", "f.rs"]).ok();
    let old = "    if x {\n        return 1;\n    }\n";
    let new = "    if x {\n        return 2;\n    }\n";
    let e = env
        .json(&["edit", "f.rs", "--old", old, "--new", new])
        .err("edit_no_match", 3)
        .failure()
        .error;
    assert_eq!(e.field("reason"), "whitespace");
    assert_eq!(
        e.field("difference"),
        "lines 2-4: file indents with tabs where old indents with spaces"
    );
    let window = e.field("window");
    assert!(window["startLine"].as_u64().unwrap() <= 2, "{window}");
    assert!(
        window["text"].as_str().unwrap().contains("\treturn 1;"),
        "{window}"
    );
    env.assert_file("f.rs", text);

    let m = edit_ok(
        &env,
        "f.rs",
        &["--old", old, "--new", new, "--fuzzy"],
        b"fn f() {\n\tif x {\n\t\treturn 2;\n\t}\n}\n",
    );
    assert_eq!(m.matched_fuzzily, Some(true));
    assert_eq!(
        m.spans,
        Some(vec![crate::util::Span {
            start_line: 2,
            end_line: 4
        }])
    );
}

#[test]
fn curly_quotes_are_named_and_fuzzy_applies() {
    let env = TestEnv::new();
    env.write("q.md", "He said \u{201c}hi\u{201d} and left.\n");
    env.json(&["read", "q.md"]).ok();
    let e = env
        .json(&[
            "edit",
            "q.md",
            "--old",
            "said \"hi\"",
            "--new",
            "said \"bye\"",
        ])
        .err("edit_no_match", 3)
        .failure()
        .error;
    assert_eq!(e.field("reason"), "whitespace");
    let d = e.field("difference").as_str().unwrap();
    assert!(d.contains("quote"), "{d}");
    let m = edit_ok(
        &env,
        "q.md",
        &["--old", "said \"hi\"", "--new", "said \"bye\"", "--fuzzy"],
        // The curly quotes new repeats from old stay the file's.
        "He said \u{201c}bye\u{201d} and left.\n".as_bytes(),
    );
    assert_eq!(m.matched_fuzzily, Some(true));
}

#[test]
fn similar_and_none_misses() {
    let env = TestEnv::new();
    env.write("f.txt", "alpha\nbeta gamma delta\nepsilon\n");
    env.json(&["read", "f.txt"]).ok();
    let e = env
        .json(&["edit", "f.txt", "--old", "beta gamma delte", "--new", "x"])
        .err("edit_no_match", 3)
        .failure()
        .error;
    assert_eq!(e.field("reason"), "similar");
    let window = e.field("window");
    assert!(
        window["text"]
            .as_str()
            .unwrap()
            .contains("beta gamma delta"),
        "{window}"
    );
    let e = env
        .json(&["edit", "f.txt", "--old", "zzzz qqqq 12345", "--new", "x"])
        .err("edit_no_match", 3)
        .failure()
        .error;
    assert_eq!(e.field("reason"), "none");
    env.assert_file("f.txt", "alpha\nbeta gamma delta\nepsilon\n");
}

#[test]
fn crlf_with_bom_and_no_final_newline_stays_byte_exact() {
    let env = TestEnv::new();
    let text = b"\xef\xbb\xbfline one\r\nline two\r\nline three";
    env.write("w.txt", text);
    edit_ok(
        &env,
        "w.txt",
        &["--old", "line one\nline two", "--new", "first\nsecond"],
        b"\xef\xbb\xbffirst\r\nsecond\r\nline three",
    );
    edit_ok(
        &env,
        "w.txt",
        &["--old", "three", "--new", "3"],
        b"\xef\xbb\xbffirst\r\nsecond\r\nline 3",
    );
}

#[test]
fn latin1_bytes_elsewhere_are_kept_and_fffd_is_refused() {
    let env = TestEnv::new();
    let text = b"caf\xe9 au lait\nprice: 10\nna\xefve\n";
    env.write("l.txt", text);
    // The hunk holds invalid UTF-8 only as context; either a patch or a stated reason
    // (edit_ok checks that).
    edit_ok(
        &env,
        "l.txt",
        &["--old", "price: 10", "--new", "price: 12"],
        b"caf\xe9 au lait\nprice: 12\nna\xefve\n",
    );
    env.json(&[
        "edit",
        "l.txt",
        "--old",
        "caf\u{fffd} au",
        "--new",
        "cafe au",
    ])
    .err("encoding", 3);
    env.assert_file("l.txt", b"caf\xe9 au lait\nprice: 12\nna\xefve\n");
}

#[test]
fn utf16_files_are_edited_in_utf16() {
    let env = TestEnv::new();
    env.write("u.txt", utf16le("hello\r\nworld\r\n"));
    let m = edit_ok(
        &env,
        "u.txt",
        &["--old", "world", "--new", "wörld"],
        &utf16le("hello\r\nwörld\r\n"),
    );
    assert!(m.diff.contains("+wörld"), "{}", m.diff);
    assert!(m.patch_unavailable.unwrap().contains("UTF-16"));
}

/// The display diff shows a kept BOM as `read` shows the file (without it); the patch keeps
/// it, byte for byte, and `git apply` turns the old file into the new one with it.
#[test]
fn a_kept_bom_is_out_of_the_diff_and_in_the_patch() {
    let env = TestEnv::new();
    let before = b"\xef\xbb\xbfusing System;\r\nclass A {}\r\n";
    env.write("a.cs", before);
    let after = b"\xef\xbb\xbfusing System.IO;\r\nclass B {}\r\n";
    let args = [
        "--old",
        "using System;\nclass A",
        "--new",
        "using System.IO;\nclass B",
    ];
    let m = edit_ok(&env, "a.cs", &args, after);
    assert_eq!(
        m.diff,
        "@@ -1,2 +1,2 @@\n-using System;\r\n-class A {}\r\n+using System.IO;\r\n+class B {}\r\n"
    );
    let patch = m.patch.unwrap();
    assert!(patch.contains("\n-\u{feff}using System;\r\n"), "{patch}");
    assert!(patch.contains("\n+\u{feff}using System.IO;\r\n"), "{patch}");
    // Line 1 as context.
    env.write("a.cs", before);
    env.json(&["read", "a.cs"]).ok();
    let out = env.json(&["edit", "a.cs", "--old", "class A", "--new", "class B"]);
    let m = out.ok().mutation();
    assert_eq!(
        m.diff,
        "@@ -1,2 +1,2 @@\n using System;\r\n-class A {}\r\n+class B {}\r\n"
    );
    assert!(m.patch.unwrap().contains("\n \u{feff}using System;\r\n"));
    let want = b"\xef\xbb\xbfusing System;\r\nclass B {}\r\n";
    env.assert_file("a.cs", want);
    if crate::util::have("git") {
        assert_tool_applies("git", &out, Some(before), Some(want));
    }
    // UTF-16 is diffed as its decoded text, which has no BOM.
    env.write("u.txt", utf16le("one\r\ntwo\r\n"));
    let m = edit_ok(
        &env,
        "u.txt",
        &["--old", "one", "--new", "1"],
        &utf16le("1\r\ntwo\r\n"),
    );
    assert_eq!(m.diff, "@@ -1,2 +1,2 @@\n-one\r\n+1\r\n two\r\n");
}

/// An `old` copied with the BOM (`cat`, `git diff` show it as U+FEFF) means the file's BOM:
/// it matches at line 1, and the BOM stays exactly once whether `new` repeats it or not.
#[test]
fn an_old_copied_with_the_bom_matches_at_line_one() {
    let env = TestEnv::new();
    let before = b"\xef\xbb\xbfusing System;\r\nclass A {}\r\n";
    let want = b"\xef\xbb\xbfusing Foo;\r\nclass A {}\r\n";
    for new in ["\u{feff}using Foo;", "using Foo;"] {
        env.write("a.cs", before);
        let m = edit_ok(
            &env,
            "a.cs",
            &["--old", "\u{feff}using System;", "--new", new],
            want,
        );
        assert_eq!(m.spans.unwrap()[0].start_line, 1);
        assert_eq!(
            m.diff,
            "@@ -1,2 +1,2 @@\n-using System;\r\n+using Foo;\r\n class A {}\r\n"
        );
    }
    // Over several lines with LF, in an --edits batch with an edit that lacks it.
    env.write("a.cs", before);
    env.json(&["read", "a.cs"]).ok();
    let edits = r#"[{"old":"\ufeffusing System;\nclass A","new":"using Foo;\nclass B"},{"old":"{}","new":"{ }"}]"#;
    env.json_stdin(&["edit", "a.cs", "--edits", "-"], edits.as_bytes())
        .ok();
    env.assert_file("a.cs", b"\xef\xbb\xbfusing Foo;\r\nclass B { }\r\n");
    // Not elsewhere: the text after line 1's start is not the BOM.
    env.write("b.txt", b"\xef\xbb\xbfx\nusing\n");
    env.json(&["read", "b.txt"]).ok();
    env.json(&["edit", "b.txt", "--old", "\u{feff}using", "--new", "y"])
        .err("edit_no_match", 3);
    env.assert_file("b.txt", b"\xef\xbb\xbfx\nusing\n");
    // A BOM is not removed by an edit: old and new differ only by it.
    env.write("a.cs", before);
    env.json(&["read", "a.cs"]).ok();
    env.json(&["edit", "a.cs", "--old", "\u{feff}using", "--new", "using"])
        .err("invalid_argument", 2);
    env.assert_file("a.cs", before);
    // UTF-16 with its BOM: the same.
    env.write("u.txt", utf16le("one\r\ntwo\r\n"));
    edit_ok(
        &env,
        "u.txt",
        &["--old", "\u{feff}one", "--new", "1"],
        &utf16le("1\r\ntwo\r\n"),
    );
    // A file without a BOM: U+FEFF in old is still a difference, named as such.
    env.write("c.txt", "using\n");
    env.json(&["read", "c.txt"]).ok();
    let e = env
        .json(&["edit", "c.txt", "--old", "\u{feff}using", "--new", "x"])
        .err("edit_no_match", 3)
        .failure()
        .error;
    assert!(e.field("difference").as_str().unwrap().contains("U+FEFF"));
}

#[test]
fn a_failing_edit_rolls_back_the_whole_request() {
    let env = TestEnv::new();
    env.write("f.txt", "one\ntwo\nthree\n");
    env.json(&["read", "f.txt"]).ok();
    fs::write(
        env.path("edits.json"),
        r#"[{"old":"one","new":"1"},{"old":"nope","new":"x"}]"#,
    )
    .unwrap();
    let e = env
        .json(&["edit", "f.txt", "--edits", "edits.json"])
        .err("edit_no_match", 3)
        .failure()
        .error;
    assert_eq!(e.field("editIndex"), 1);
    env.assert_file("f.txt", "one\ntwo\nthree\n");
    // From stdin, all of them land in one publication.
    let edits = br#"[{"old":"one","new":"1"},{"old":"three","new":"3"},{"old":"1\ntwo","new":"1\n2","replaceAll":false}]"#;
    let out = env.json_stdin(&["edit", "f.txt", "--edits", "-"], edits);
    assert_eq!(out.ok().mutation().replacements, Some(3));
    env.assert_file("f.txt", "1\n2\n3\n");
    assert_patch_applies(&out, Some(b"one\ntwo\nthree\n"), Some(b"1\n2\n3\n"));
    env.json_stdin(
        &["edit", "f.txt", "--edits", "-"],
        br#"[{"old":"1","neu":"x"}]"#,
    )
    .err("invalid_argument", 2);
    env.assert_file("f.txt", "1\n2\n3\n");
}

#[test]
fn old_and_new_from_files() {
    let env = TestEnv::new();
    env.write("f.txt", "a -- b\n");
    env.write("old.txt", "a -- b");
    env.write("new.txt", "a - b");
    edit_ok(
        &env,
        "f.txt",
        &["--old-file", "old.txt", "--new-file", "new.txt"],
        b"a - b\n",
    );
}

#[test]
fn create_with_empty_old_and_refusals() {
    let env = TestEnv::new();
    let out = env.json(&["edit", "dir/new.rs", "--old", "", "--new", "fn main() {}\n"]);
    let m = out.ok().mutation();
    assert!(m.created);
    assert_eq!(m.previous_sha256, None);
    env.assert_file("dir/new.rs", "fn main() {}\n");
    assert_patch_applies(&out, None, Some(b"fn main() {}\n"));
    env.json(&["edit", "dir/new.rs", "--old", "", "--new", "x"])
        .err("invalid_argument", 2);
    env.json(&["edit", "dir/new.rs", "--old", "main", "--new", "main"])
        .err("invalid_argument", 2);
    env.json(&["edit", "missing.rs", "--old", "a", "--new", "b"])
        .err("not_found", 4);
    env.json(&["edit", "dir/new.rs", "--old", "main"])
        .err("usage", 2);
    env.assert_file("dir/new.rs", "fn main() {}\n");
    assert!(!env.path("missing.rs").exists());
}

#[test]
fn binary_and_oversized_files_are_refused() {
    let env = TestEnv::new();
    env.write("b.bin", b"ab\x00cd");
    env.json(&[
        "edit",
        "b.bin",
        "--old",
        "ab",
        "--new",
        "x",
        "--expect-sha256",
        &"0".repeat(64),
    ])
    .err("binary_file", 3);
    env.write("big.txt", "0123456789abcdef\n");
    env.json(&["read", "big.txt"]).ok();
    env.json(&[
        "edit",
        "big.txt",
        "--old",
        "0",
        "--new",
        "x",
        "--max-file-bytes",
        "10",
    ])
    .err("file_too_large", 3);
    env.assert_file("b.bin", b"ab\x00cd");
    env.assert_file("big.txt", "0123456789abcdef\n");
}

#[test]
fn dry_run_shows_the_diff_and_changes_nothing() {
    let env = TestEnv::new();
    env.write("f.txt", "a\nb\n");
    env.json(&["read", "f.txt"]).ok();
    let m = env
        .json(&["edit", "f.txt", "--old", "b", "--new", "c", "--dry-run"])
        .ok()
        .mutation();
    assert!(m.dry_run);
    assert_eq!(m.file_access, None);
    assert!(m.diff.contains("-b\n+c\n"), "{}", m.diff);
    env.assert_file("f.txt", "a\nb\n");
}

#[test]
fn a_held_lock_times_out() {
    let env = TestEnv::new();
    let p = env.write("f.txt", "a\n");
    env.json(&["read", "f.txt"]).ok();
    // Held here, in the test process: an flock(2) on the lock file quill uses for f.txt (the
    // kernel arbitrates between open files, whichever process holds them).
    let held = crate::util::hold_lock(&env.lock_file(&p));
    let out = env.json(&[
        "--lock-timeout",
        "0.3",
        "edit",
        "f.txt",
        "--old",
        "a",
        "--new",
        "b",
    ]);
    out.err("lock_timeout", 4);
    env.assert_file("f.txt", "a\n");
    drop(held);
    env.json(&["edit", "f.txt", "--old", "a", "--new", "b"])
        .ok();
    env.assert_file("f.txt", "b\n");
}
