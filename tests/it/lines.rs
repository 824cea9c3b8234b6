//! Line-addressed edits through the binary (`edit --insert-after N`, `--lines A-B`): where the
//! text lands, byte for byte (line endings, no final newline, BOM, UTF-16, latin1), the guard
//! (not read, changed by someone else, changed by the session itself until a read), ranges
//! and malformed values, flag conflicts, `--dry-run`, `undo`, `replaced` and the tool call.
//! Every successful edit's patch is applied where the file has one (see `patching`).

use crate::patching::assert_patch_applies;
use crate::util::{Mutation, Span, TestEnv, sha256_hex, utf16le};

/// Read `rel` whole, edit it with `args`, expect success and `want` on disk.
#[track_caller]
fn lines_ok(env: &TestEnv, rel: &str, args: &[&str], want: &[u8]) -> Mutation {
    let before = env.read(rel);
    env.json(&["read", rel]).ok();
    let mut full = vec!["edit", rel];
    full.extend_from_slice(args);
    let out = env.json(&full);
    let m = out.ok().mutation();
    env.assert_file(rel, want);
    assert_eq!(m.sha256, Some(sha256_hex(want)));
    assert_eq!(m.previous_sha256, Some(sha256_hex(&before)));
    assert_eq!(m.replacements, Some(1));
    assert_eq!(m.matched_fuzzily, Some(false));
    if m.patch.is_some() {
        assert_patch_applies(&out, Some(&before), Some(want));
    }
    m
}

fn span(start_line: u64, end_line: u64) -> Option<Vec<Span>> {
    Some(vec![Span {
        start_line,
        end_line,
    }])
}

/// The edit's `replaced`, which a line-addressed edit always has.
#[track_caller]
fn replaced(env: &TestEnv, rel: &str, args: &[&str]) -> String {
    env.json(&["read", rel]).ok();
    let mut full = vec!["edit", rel];
    full.extend_from_slice(args);
    let out = env.json(&full);
    out.ok();
    out.json["replaced"]
        .as_str()
        .unwrap_or_else(|| panic!("no `replaced`: {}", out.stdout))
        .to_string()
}

#[test]
fn inserts_at_the_top_in_the_middle_and_at_the_end() {
    let env = TestEnv::new();
    env.write("f.txt", "a\nb\n");
    let m = lines_ok(
        &env,
        "f.txt",
        &["--insert-after", "0", "--new", "top"],
        b"top\na\nb\n",
    );
    assert_eq!(m.spans, span(1, 1));
    assert_eq!((m.added, m.removed), (1, 0));
    let m = lines_ok(
        &env,
        "f.txt",
        &["--insert-after", "2", "--new", "x\ny"],
        b"top\na\nx\ny\nb\n",
    );
    assert_eq!(m.spans, span(3, 4));
    let m = lines_ok(
        &env,
        "f.txt",
        &["--insert-after", "5", "--new", "end\n"],
        b"top\na\nx\ny\nb\nend\n",
    );
    assert_eq!(m.spans, span(6, 6));
    // An empty file takes --insert-after 0.
    env.write("e.txt", "");
    lines_ok(
        &env,
        "e.txt",
        &["--insert-after", "0", "--new", "first"],
        b"first\n",
    );
}

#[test]
fn replaces_one_line_and_several() {
    let env = TestEnv::new();
    env.write("f.txt", "one\ntwo\nthree\nfour\n");
    let m = lines_ok(
        &env,
        "f.txt",
        &["--lines", "2-2", "--new", "TWO"],
        b"one\nTWO\nthree\nfour\n",
    );
    assert_eq!(m.spans, span(2, 2));
    assert_eq!((m.added, m.removed), (1, 1));
    // A,B is the same as A-B; more lines than went.
    let m = lines_ok(
        &env,
        "f.txt",
        &["--lines", "2,3", "--new", "b1\nb2\nb3"],
        b"one\nb1\nb2\nb3\nfour\n",
    );
    assert_eq!(m.spans, span(2, 4));
    assert_eq!(
        replaced(&env, "f.txt", &["--lines", "1-5", "--new", "all"]),
        "one\nb1\nb2\nb3\nfour\n"
    );
    env.assert_file("f.txt", "all\n");
}

#[test]
fn an_empty_new_deletes_the_lines() {
    let env = TestEnv::new();
    env.write("f.txt", "a\nb\nc\nd\n");
    let m = lines_ok(&env, "f.txt", &["--lines", "2-3", "--new", ""], b"a\nd\n");
    assert_eq!((m.added, m.removed), (0, 2));
    assert_eq!(m.spans, span(2, 2));
    lines_ok(&env, "f.txt", &["--lines", "1-2", "--new", ""], b"");
}

#[test]
fn a_crlf_file_gets_crlf_lines() {
    let env = TestEnv::new();
    env.write("w.txt", "a\r\nb\r\nc\r\n");
    lines_ok(
        &env,
        "w.txt",
        &["--lines", "2-2", "--new", "B"],
        b"a\r\nB\r\nc\r\n",
    );
    // The new text's bare LFs are written as CRLF.
    lines_ok(
        &env,
        "w.txt",
        &["--insert-after", "1", "--new", "x\ny"],
        b"a\r\nx\r\ny\r\nB\r\nc\r\n",
    );
}

#[test]
fn a_file_without_a_final_newline_keeps_none() {
    let env = TestEnv::new();
    env.write("n.txt", "a\nb");
    // After the last line the break goes between.
    let m = lines_ok(
        &env,
        "n.txt",
        &["--insert-after", "2", "--new", "c"],
        b"a\nb\nc",
    );
    assert_eq!(m.spans, span(3, 3));
    // Replacing the last line: as given.
    lines_ok(&env, "n.txt", &["--lines", "3-3", "--new", "C"], b"a\nb\nC");
    // Deleting it: the line above loses its break.
    lines_ok(&env, "n.txt", &["--lines", "2-3", "--new", ""], b"a");
    // Elsewhere the new text is a whole line.
    lines_ok(
        &env,
        "n.txt",
        &["--insert-after", "0", "--new", "top"],
        b"top\na",
    );
}

#[test]
fn a_bom_and_odd_bytes_outside_the_lines_stay() {
    let env = TestEnv::new();
    env.write("b.txt", b"\xEF\xBB\xBFfirst\nsecond\nthird \xFF\n");
    lines_ok(
        &env,
        "b.txt",
        &["--lines", "2-2", "--new", "2nd"],
        b"\xEF\xBB\xBFfirst\n2nd\nthird \xFF\n",
    );
    lines_ok(
        &env,
        "b.txt",
        &["--insert-after", "0", "--new", "zero"],
        b"\xEF\xBB\xBFzero\nfirst\n2nd\nthird \xFF\n",
    );
}

#[test]
fn utf16_and_legacy_files_are_edited_in_their_encoding() {
    let env = TestEnv::new();
    env.write("u.txt", utf16le("a\r\nb\r\nc\r\n"));
    let m = lines_ok(
        &env,
        "u.txt",
        &["--lines", "2-2", "--new", "β"],
        &utf16le("a\r\nβ\r\nc\r\n"),
    );
    assert_eq!(m.encoding.as_deref(), Some("utf-16le"));
    // latin1, named: byte-exact outside the line.
    env.write("l.txt", b"caf\xE9\nna\xEFve\nend\n");
    env.json(&["read", "l.txt", "--encoding", "latin1"]).ok();
    let out = env.json(&[
        "edit",
        "l.txt",
        "--encoding",
        "latin1",
        "--lines",
        "2-2",
        "--new",
        "d\u{e9}j\u{e0}",
    ]);
    out.ok();
    assert_eq!(out.json["replaced"], "na\u{ef}ve\n");
    env.assert_file("l.txt", b"caf\xE9\nd\xE9j\xE0\nend\n");
}

#[test]
fn a_file_not_read_is_not_read() {
    let env = TestEnv::new();
    env.write("f.txt", "a\nb\n");
    env.json(&["edit", "f.txt", "--lines", "1-1", "--new", "x"])
        .err("not_read", 3);
    env.assert_file("f.txt", "a\nb\n");
    env.json(&["edit", "missing.txt", "--insert-after", "0", "--new", "x"])
        .err("not_found", 4);
    assert!(!env.path("missing.txt").exists());
}

#[test]
fn a_file_changed_by_someone_else_is_stale() {
    let env = TestEnv::new();
    env.write("f.txt", "a\nb\n");
    env.json(&["read", "f.txt"]).ok();
    env.write("f.txt", "new\na\nb\n");
    let e = env
        .json(&["edit", "f.txt", "--lines", "2-2", "--new", "x"])
        .err("stale", 3)
        .failure()
        .error;
    assert!(e.message.contains("changed since"), "{}", e.message);
    env.assert_file("f.txt", "new\na\nb\n");
}

/// After the session's own change the numbers it holds are those of the version it read:
/// `stale`, with the read to make; after it (a page is enough) the edit works.
#[test]
fn after_the_sessions_own_change_a_read_comes_first() {
    let env = TestEnv::new();
    let body: String = (1..=20).map(|i| format!("l{i}\n")).collect();
    env.write("f.txt", &body);
    env.json(&["read", "f.txt"]).ok();
    env.json(&["edit", "f.txt", "--old", "l1\n", "--new", "l0\nl1\n"])
        .ok();
    let after_edit = env.read("f.txt");
    let e = env
        .json(&["edit", "f.txt", "--lines", "12-13", "--new", "x"])
        .err("stale", 3)
        .failure()
        .error;
    assert!(e.message.contains("must come from a read"), "{}", e.message);
    let hint = e.hint.unwrap();
    assert!(
        hint.contains("`quill read f.txt --offset 7 --limit 12`")
            || hint.contains(&format!(
                "`quill read {} --offset 7 --limit 12`",
                env.path("f.txt").display()
            )),
        "{hint}"
    );
    env.assert_file("f.txt", &after_edit);
    // The read the hint names, then the edit.
    env.json(&["read", "f.txt", "--offset", "7", "--limit", "12"])
        .ok();
    env.json(&["edit", "f.txt", "--lines", "12-13", "--new", "x"])
        .ok();
    assert!(
        String::from_utf8(env.read("f.txt"))
            .unwrap()
            .contains("l10\nx\nl13\n")
    );
    // A line-addressed edit is an own change too; so are write and undo.
    env.json(&["edit", "f.txt", "--lines", "1-1", "--new", "y"])
        .err("stale", 3);
    env.json(&["undo", "f.txt"]).ok();
    env.json(&["edit", "f.txt", "--lines", "1-1", "--new", "y"])
        .err("stale", 3);
    env.json(&["read", "f.txt"]).ok();
    env.json(&["write", "f.txt", "--content", "w\n"]).ok();
    env.json(&["edit", "f.txt", "--insert-after", "0", "--new", "y"])
        .err("stale", 3);
    // --expect-sha256 stands in for the read.
    env.json(&[
        "edit",
        "f.txt",
        "--insert-after",
        "0",
        "--new",
        "y",
        "--expect-sha256",
        &sha256_hex(b"w\n"),
    ])
    .ok();
    env.assert_file("f.txt", "y\nw\n");
    // An edit by text is not held to it.
    env.json(&["edit", "f.txt", "--old", "w", "--new", "v"])
        .ok();
}

#[test]
fn out_of_range_numbers_name_the_line_count() {
    let env = TestEnv::new();
    env.write("f.txt", "a\nb\nc\n");
    env.json(&["read", "f.txt"]).ok();
    for (args, hint) in [
        (&["--lines", "0-1"][..], "--lines 1-1"),
        (&["--lines", "3-2"], "--lines 2-3"),
        (&["--lines", "2-4"], "--lines 2-3"),
        (&["--lines", "4,4"], "--lines 3-3"),
        (&["--insert-after", "4"], "--insert-after 3"),
    ] {
        let mut full = vec!["edit", "f.txt"];
        full.extend_from_slice(args);
        full.extend_from_slice(&["--new", "x"]);
        let e = env.json(&full).err("invalid_argument", 2).failure().error;
        assert!(e.message.contains("has 3 lines"), "{args:?}: {}", e.message);
        let h = e.hint.unwrap();
        assert!(h.contains(hint), "{args:?}: {h}");
    }
    let e = env
        .json(&["edit", "f.txt", "--insert-after", "1", "--new", ""])
        .err("invalid_argument", 2)
        .failure()
        .error;
    assert!(e.message.contains("inserts nothing"), "{}", e.message);
    env.assert_file("f.txt", "a\nb\nc\n");
    env.write("e.txt", "");
    env.json(&["read", "e.txt"]).ok();
    let e = env
        .json(&["edit", "e.txt", "--lines", "1-1", "--new", "x"])
        .err("invalid_argument", 2)
        .failure()
        .error;
    assert!(e.message.contains("is empty (0 lines)"), "{}", e.message);
    assert!(e.hint.unwrap().contains("--insert-after 0"));
    env.assert_file("e.txt", "");
}

#[test]
fn malformed_ranges_are_usage_naming_the_forms() {
    let env = TestEnv::new();
    env.write("f.txt", "a\n");
    env.json(&["read", "f.txt"]).ok();
    for bad in ["3", "3:5", "a-b", "1-", "-2", "1-2-3", ""] {
        let value = format!("--lines={bad}");
        let e = env
            .json(&["edit", "f.txt", &value, "--new", "x"])
            .err("usage", 2)
            .failure()
            .error;
        assert!(e.message.contains("A-B or A,B"), "{bad:?}: {}", e.message);
    }
    env.json(&["edit", "f.txt", "--insert-after", "x", "--new", "x"])
        .err("usage", 2);
    env.json(&["edit", "f.txt", "--lines", "1-1"])
        .err("usage", 2);
    env.assert_file("f.txt", "a\n");
}

#[test]
fn line_flags_conflict_with_text_matching() {
    let env = TestEnv::new();
    env.write("f.txt", "a\n");
    env.write("old.txt", "a");
    env.write("edits.json", r#"[{"old":"a","new":"b"}]"#);
    env.json(&["read", "f.txt"]).ok();
    for flag in [&["--lines", "1-1"][..], &["--insert-after", "0"]] {
        for other in [
            &["--old", "a"][..],
            &["--old-file", "old.txt"],
            &["--edits", "edits.json"],
            &["--replace-all"],
            &["--expect-count", "1"],
            &["--fuzzy"],
        ] {
            let mut full = vec!["edit", "f.txt"];
            full.extend_from_slice(flag);
            full.extend_from_slice(other);
            full.extend_from_slice(&["--new", "x"]);
            let e = env.json(&full).err("usage", 2).failure().error;
            assert!(
                e.message.contains("cannot be used with"),
                "{full:?}: {}",
                e.message
            );
        }
    }
    env.json(&[
        "edit",
        "f.txt",
        "--lines",
        "1-1",
        "--insert-after",
        "0",
        "--new",
        "x",
    ])
    .err("usage", 2);
    env.assert_file("f.txt", "a\n");
}

#[test]
fn dry_run_writes_nothing_and_undo_restores() {
    let env = TestEnv::new();
    env.write("f.txt", "a\r\nb\r\nc");
    env.json(&["read", "f.txt"]).ok();
    let out = env.json(&["edit", "f.txt", "--lines", "2-3", "--new", "", "--dry-run"]);
    let m = out.ok().mutation();
    assert!(m.dry_run);
    assert_eq!(m.sha256, Some(sha256_hex(b"a")));
    assert_eq!(out.json["replaced"], "b\r\nc");
    env.assert_file("f.txt", "a\r\nb\r\nc");
    // A dry run records nothing: the baseline is still the read's.
    env.json(&["edit", "f.txt", "--lines", "2-3", "--new", ""])
        .ok();
    env.assert_file("f.txt", "a");
    env.json(&["undo", "f.txt"]).ok();
    env.assert_file("f.txt", "a\r\nb\r\nc");
    env.json(&["undo", "f.txt"]).err("nothing_to_undo", 3);
}

#[test]
fn new_file_is_a_source_and_placeholders_are_refused() {
    let env = TestEnv::new();
    env.write("f.txt", "a\nb\n");
    env.write("new.txt", "from\nfile\n");
    lines_ok(
        &env,
        "f.txt",
        &["--lines", "1-1", "--new-file", "new.txt"],
        b"from\nfile\nb\n",
    );
    env.json(&["read", "f.txt"]).ok();
    env.json(&[
        "edit",
        "f.txt",
        "--lines",
        "1-2",
        "--new",
        "// ... rest of the code ...",
    ])
    .err("invalid_argument", 2);
    env.assert_file("f.txt", "from\nfile\nb\n");
}

#[test]
fn a_notebook_takes_no_line_addressed_edit() {
    let env = TestEnv::new();
    let nb = r#"{"cells":[{"cell_type":"code","source":["x = 1\n"],"metadata":{},"outputs":[],"execution_count":null}],"metadata":{},"nbformat":4,"nbformat_minor":5}"#;
    env.write("n.ipynb", nb);
    env.json(&["read", "n.ipynb"]).ok();
    let e = env
        .json(&["edit", "n.ipynb", "--lines", "1-1", "--new", "x"])
        .err("invalid_argument", 2)
        .failure()
        .error;
    assert!(e.message.contains("notebook"), "{}", e.message);
    env.assert_file("n.ipynb", nb);
}

#[test]
fn text_output_shows_the_diff() {
    let env = TestEnv::new();
    env.write("f.txt", "a\nb\n");
    env.json(&["read", "f.txt"]).ok();
    env.text(&["edit", "f.txt", "--lines", "2-2", "--new", "B"])
        .ok()
        .stdout_has("-b\n+B\n");
    env.assert_file("f.txt", "a\nB\n");
}

/// An edit by text has no `replaced`.
#[test]
fn replaced_is_only_for_line_addressed_edits() {
    let env = TestEnv::new();
    env.write("f.txt", "a\nb\n");
    env.json(&["read", "f.txt"]).ok();
    let out = env.json(&["edit", "f.txt", "--old", "a", "--new", "x"]);
    out.ok();
    assert!(out.json.get("replaced").is_none(), "{}", out.stdout);
    env.json(&["read", "f.txt"]).ok();
    let out = env.json(&["edit", "f.txt", "--insert-after", "1", "--new", "y"]);
    out.ok();
    assert_eq!(out.json["replaced"], "");
}

#[test]
fn the_edit_tool_takes_lines_and_insert_after() {
    let env = TestEnv::new();
    env.write("f.txt", "a\nb\n");
    env.json(&["read", "f.txt"]).ok();
    env.cmd(["call"])
        .stdin(
            r#"{"name": "quill_edit", "arguments": {"path": "f.txt", "lines": "2-2", "new": "B"}}"#,
        )
        .run()
        .ok();
    env.assert_file("f.txt", "a\nB\n");
    env.json(&["read", "f.txt"]).ok();
    env.cmd(["call"])
        .stdin(r#"{"name": "quill_edit", "arguments": {"path": "f.txt", "insertAfter": 0, "new": "top"}}"#)
        .run()
        .ok();
    env.assert_file("f.txt", "top\na\nB\n");
}
