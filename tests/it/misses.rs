//! Edit misses that name what an agent cannot see — invisible and decomposed characters,
//! escapes sent literally, `read`'s line numbers copied into `old`, blank-line counts,
//! several differing lines, an `old` like nothing in the file, a failed `--edits` batch —
//! through the binary: the exact text answer, the JSON fields, the file left as it was, and
//! for each fix the answer suggests, the next call made exactly as suggested succeeds.

use std::fs;

use crate::util::{ErrorBody, Mutation, TestEnv, Warning, kinds};

/// `quill read REL`, then the text-mode `quill edit REL ARGS…`: a miss (exit 3) that left the
/// file as it was. Returns stderr, which must name no JSON field.
#[track_caller]
fn text_miss(env: &TestEnv, rel: &str, args: &[&str]) -> String {
    let before = env.read(rel);
    env.json(&["read", rel]).ok();
    let mut full = vec!["edit", rel];
    full.extend_from_slice(args);
    let out = env.text(&full);
    out.exit(3);
    assert_eq!(out.stdout, "", "a miss prints nothing on stdout");
    for field in ["window", "difference", "reason", "editIndex"] {
        out.check(
            !out.stderr.contains(field),
            format!("text mode names the JSON field {field:?}"),
        );
    }
    env.assert_file(rel, &before);
    out.stderr.clone()
}

/// The same edit with `--json`: the `edit_no_match` error.
#[track_caller]
fn json_miss(env: &TestEnv, rel: &str, args: &[&str]) -> ErrorBody {
    let before = env.read(rel);
    let mut full = vec!["edit", rel];
    full.extend_from_slice(args);
    let e = env.json(&full).err("edit_no_match", 3).failure().error;
    env.assert_file(rel, &before);
    // The message does not repeat the difference.
    let d = e.field("difference").as_str().unwrap();
    assert!(!e.message.contains(d), "{} repeats {d}", e.message);
    e
}

/// `quill edit REL ARGS…` succeeds and leaves `want` on disk.
#[track_caller]
fn edit_ok(env: &TestEnv, rel: &str, args: &[&str], want: &[u8]) -> Mutation {
    let mut full = vec!["edit", rel];
    full.extend_from_slice(args);
    let out = env.json(&full);
    let m = out.ok().mutation();
    env.assert_file(rel, want);
    m
}

#[test]
fn an_invisible_char_is_named_by_code_point_and_column() {
    let env = TestEnv::new();
    let text = "let total = price\u{200B} * qty;\n";
    env.write("z.rs", text);
    let p = env.path("z.rs");
    let args = [
        "--old",
        "let total = price * qty;",
        "--new",
        "let total = price * qty * 2;",
    ];
    assert_eq!(
        text_miss(&env, "z.rs", &args),
        format!(
            "quill: error: `old` was not found in {}\n  line 1, column 18: file has an invisible \
             U+200B (zero-width space) that old lacks\n  closest passage in the file:\n     1\t{}  \
             hint: rerun with --fuzzy: it applies there, keeping the file's characters\n",
            p.display(),
            text
        )
    );
    let e = json_miss(&env, "z.rs", &args);
    assert_eq!(e.field("reason"), "whitespace");
    assert_eq!(e.field("window")["text"], text);
    assert_eq!(
        e.hint.as_deref(),
        Some("rerun with --fuzzy: it applies there, keeping the file's characters")
    );
    // The fix, as suggested: the invisible char stays where new repeats old.
    let mut fixed = args.to_vec();
    fixed.push("--fuzzy");
    edit_ok(
        &env,
        "z.rs",
        &fixed,
        "let total = price\u{200B} * qty * 2;\n".as_bytes(),
    );
}

#[test]
fn a_bom_inside_text_and_a_soft_hyphen_are_named() {
    let env = TestEnv::new();
    env.write("b.txt", "alpha\u{FEFF}beta\nco\u{AD}operate\n");
    env.json(&["read", "b.txt"]).ok();
    let e = json_miss(&env, "b.txt", &["--old", "alphabeta", "--new", "x"]);
    assert_eq!(
        e.field("difference"),
        "line 1, column 6: file has an invisible U+FEFF (byte order mark) that old lacks"
    );
    let e = json_miss(&env, "b.txt", &["--old", "cooperate", "--new", "x"]);
    assert_eq!(
        e.field("difference"),
        "line 2, column 3: file has an invisible U+00AD (soft hyphen) that old lacks"
    );
    // And a zero-width joiner that old has and the file lacks.
    let e = json_miss(
        &env,
        "b.txt",
        &["--old", "co\u{AD}oper\u{200D}ate", "--new", "x"],
    );
    assert_eq!(
        e.field("difference"),
        "line 2, column 8: old has an invisible U+200D (zero-width joiner) that the file lacks"
    );
}

#[test]
fn nfd_against_nfc_is_named_and_fuzzy_keeps_the_files_form() {
    let env = TestEnv::new();
    env.write("n.py", "name = \"Rene\u{301}\"\n");
    let p = env.path("n.py");
    let args = [
        "--old",
        "name = \"Ren\u{E9}\"",
        "--new",
        "name = \"Ren\u{E9}e\"",
    ];
    assert_eq!(
        text_miss(&env, "n.py", &args),
        format!(
            "quill: error: `old` was not found in {}\n  line 1, column 12: file has \u{E9} as e + \
             U+0301 (decomposed) where old has U+00E9 (composed)\n  closest passage in the \
             file:\n     1\tname = \"Rene\u{301}\"\n  hint: rerun with --fuzzy: it applies \
             there, keeping the file's characters\n",
            p.display()
        )
    );
    let mut fixed = args.to_vec();
    fixed.push("--fuzzy");
    edit_ok(&env, "n.py", &fixed, "name = \"Rene\u{301}e\"\n".as_bytes());
}

#[test]
fn escapes_sent_literally_are_named_and_both_fixes_work() {
    let env = TestEnv::new();
    let text = "def f():\n    return \"a\"\n";
    env.write("e.py", text);
    let p = env.path("e.py");
    let old = r#"def f():\n    return \"a\""#;
    let new = r#"def f():\n    return \"b\""#;
    let args = ["--old", old, "--new", new];
    assert_eq!(
        text_miss(&env, "e.py", &args),
        format!(
            "quill: error: `old` was not found in {}\n  old has the escapes \\n and \\\" as text; \
             read as what they stand for, old matches line 1\n  closest passage in the file:\n     \
             1\tdef f():\n     2\t    return \"a\"\n  hint: use real line breaks (bash: \
             $'a\\nb'), or rerun with --fuzzy to read the escapes\n",
            p.display()
        )
    );
    let e = json_miss(&env, "e.py", &args);
    assert_eq!(e.field("reason"), "similar");
    // Fix one: --fuzzy reads the escapes, and says so.
    let m = edit_ok(
        &env,
        "e.py",
        &["--old", old, "--new", new, "--fuzzy"],
        b"def f():\n    return \"b\"\n",
    );
    assert_eq!(m.matched_fuzzily, Some(true));
    assert_eq!(
        m.warnings,
        [Warning {
            kind: "edit_rewritten".into(),
            message: "old and new were matched and written with their escapes read as the characters they stand for".into()
        }]
    );
    // Fix two: real line breaks, as bash's $'…' gives them.
    env.json(&["read", "e.py"]).ok();
    edit_ok(
        &env,
        "e.py",
        &[
            "--old",
            "def f():\n    return \"b\"",
            "--new",
            "def f():\n    return \"c\"",
        ],
        b"def f():\n    return \"c\"\n",
    );
}

#[test]
fn read_line_numbers_copied_into_old_are_named_and_both_fixes_work() {
    let env = TestEnv::new();
    env.write("r.py", "import os\n\ndef f():\n    return 1\n");
    // Copied from `quill read`'s own output.
    let shown = env.text(&["read", "r.py", "--offset", "3"]);
    shown.ok();
    let old = shown.stdout.trim_end_matches('\n').to_string();
    assert_eq!(old, "     3\tdef f():\n     4\t    return 1");
    let new = old.replace("return 1", "return 2");
    let p = env.path("r.py");
    let args = ["--old", old.as_str(), "--new", new.as_str()];
    assert_eq!(
        text_miss(&env, "r.py", &args),
        format!(
            "quill: error: `old` was not found in {}\n  every line of old starts with a line \
             number and a tab, as quill read shows them; without them, old matches line 3\n  \
             closest passage in the file:\n     1\timport os\n     2\t\n     3\tdef f():\n     \
             4\t    return 1\n  hint: drop the line numbers from old, or rerun with --fuzzy \
             to strip them\n",
            p.display()
        )
    );
    let mut fixed = args.to_vec();
    fixed.push("--fuzzy");
    let m = edit_ok(
        &env,
        "r.py",
        &fixed,
        b"import os\n\ndef f():\n    return 2\n",
    );
    assert_eq!(kinds(&m.warnings), ["edit_rewritten"]);
    // Numbers on some lines of new only: refused, nothing written, and the hint says why.
    env.json(&["read", "r.py"]).ok();
    let old = "     3\tdef f():\n     4\t    return 2";
    let mixed = "     3\tdef f():\n    return 3";
    let e = json_miss(&env, "r.py", &["--old", old, "--new", mixed, "--fuzzy"]);
    assert_eq!(
        e.hint.as_deref(),
        Some("drop the line numbers from old and new")
    );
    // Fix: without the numbers.
    edit_ok(
        &env,
        "r.py",
        &[
            "--old",
            "def f():\n    return 2",
            "--new",
            "def f():\n    return 3",
        ],
        b"import os\n\ndef f():\n    return 3\n",
    );
}

#[test]
fn blank_line_counts_and_several_lines_are_named() {
    let env = TestEnv::new();
    let text = "a = 1\n\n\nb = 2\n";
    env.write("k.py", text);
    let p = env.path("k.py");
    let args = ["--old", "a = 1\n\nb = 2", "--new", "a = 1\n\nb = 3"];
    assert_eq!(
        text_miss(&env, "k.py", &args),
        format!(
            "quill: error: `old` was not found in {}\n  line 2: file has 2 blank lines where \
             old has 1 blank line\n  closest passage in the file:\n     1\ta = 1\n     2\t\n     \
             3\t\n     4\tb = 2\n  hint: copy old exactly from the file's lines shown\n",
            p.display()
        )
    );
    // The fix: old copied from the lines shown.
    edit_ok(
        &env,
        "k.py",
        &["--old", "a = 1\n\n\nb = 2", "--new", "a = 1\n\nb = 3"],
        b"a = 1\n\nb = 3\n",
    );

    env.write("s.txt", "one = 1\ntwo = 2\nthree = 3\nfour = 4\nfive = 5\n");
    env.json(&["read", "s.txt"]).ok();
    let e = json_miss(
        &env,
        "s.txt",
        &[
            "--old",
            "one = 1\ntwo = 22\nthree = 3\nfour = 44",
            "--new",
            "x",
        ],
    );
    assert_eq!(e.field("reason"), "similar");
    assert_eq!(
        e.field("difference"),
        "line 2: file has \"two = 2\" where old has \"two = 22\"; line 4: file has \"four = 4\" \
         where old has \"four = 44\""
    );
    assert_eq!(e.field("window")["startLine"], 1);
    assert_eq!(e.field("window")["endLine"], 5);
}

#[test]
fn an_old_like_nothing_still_shows_a_window() {
    let env = TestEnv::new();
    env.write("w.txt", "alpha\nbeta gamma delta\nepsilon\n");
    let p = env.path("w.txt");
    let args = ["--old", "zzzz qqqq 12345", "--new", "x"];
    assert_eq!(
        text_miss(&env, "w.txt", &args),
        format!(
            "quill: error: `old` was not found in {0}\n  no line of old appears in the file, even \
             ignoring whitespace\n  closest passage in the file:\n     1\talpha\n     2\tbeta gamma \
             delta\n     3\tepsilon\n  hint: `quill read {0}`, then copy old from it\n",
            p.display()
        )
    );
    let e = json_miss(&env, "w.txt", &args);
    assert_eq!(e.field("reason"), "none");
    assert_eq!(
        e.field("window")["text"],
        "alpha\nbeta gamma delta\nepsilon\n"
    );
    // The fix, as suggested: read it, then copy old from it.
    let read = env.text(&["read", p.to_str().unwrap()]);
    read.ok();
    assert!(read.stdout.contains("beta gamma delta"));
    edit_ok(
        &env,
        "w.txt",
        &["--old", "beta gamma delta", "--new", "x"],
        b"alpha\nx\nepsilon\n",
    );
}

#[test]
fn several_whitespace_matches_do_not_offer_fuzzy() {
    let env = TestEnv::new();
    env.write("t.rs", "\tx();\n\ty();\n\tx();\n");
    env.json(&["read", "t.rs"]).ok();
    let e = json_miss(&env, "t.rs", &["--old", "    x();", "--new", "z();"]);
    assert_eq!(e.field("reason"), "whitespace");
    assert_eq!(
        e.hint.as_deref(),
        Some("add neighbouring lines to old so that it matches one place")
    );
    // The fix: one more line makes it unique.
    edit_ok(
        &env,
        "t.rs",
        &["--old", "\ty();\n\tx();", "--new", "\ty();\n\tz();"],
        b"\tx();\n\ty();\n\tz();\n",
    );
}

#[test]
fn a_failed_batch_names_its_edit_and_shows_the_files_lines() {
    let env = TestEnv::new();
    let text = "one = 1\ntwo = 2\nthree = 3\nfour = 4\n";
    env.write("b.txt", text);
    let p = env.path("b.txt");
    fs::write(
        env.path("edits.json"),
        r#"[{"old":"one = 1","new":"one = 10"},{"old":"two = 22","new":"x"},{"old":"four = 4","new":"y"}]"#,
    )
    .unwrap();
    // The window shows line 1 as it is on disk ("one = 1"), not as edit 1 left it in memory.
    assert_eq!(
        text_miss(&env, "b.txt", &["--edits", "edits.json"]),
        format!(
            "quill: error: edit 2 of 3 did not match in {}; nothing was written\n  line 2: file \
             has \"two = 2\" where old has \"two = 22\"\n  closest passage in the file:\n     \
             1\tone = 1\n     2\ttwo = 2\n     3\tthree = 3\n     4\tfour = 4\n  hint: copy old \
             exactly from the file's lines shown\n",
            p.display()
        )
    );
    let e = json_miss(&env, "b.txt", &["--edits", "edits.json"]);
    assert_eq!(e.field("editIndex"), 1);
    assert_eq!(e.field("window")["text"], text);
    // The fix: edit 2's old copied from the lines shown.
    fs::write(
        env.path("edits.json"),
        r#"[{"old":"one = 1","new":"one = 10"},{"old":"two = 2","new":"x"},{"old":"four = 4","new":"y"}]"#,
    )
    .unwrap();
    edit_ok(
        &env,
        "b.txt",
        &["--edits", "edits.json"],
        b"one = 10\nx\nthree = 3\ny\n",
    );
}

#[test]
fn a_batch_edit_quoting_what_an_earlier_one_changed_says_so() {
    let env = TestEnv::new();
    env.write("o.txt", "a = 1\nb = 2\nc = 3\n");
    env.json(&["read", "o.txt"]).ok();
    fs::write(
        env.path("edits.json"),
        r#"[{"old":"b = 2","new":"b = 20"},{"old":"b = 2\nc = 3","new":"b = 2\nc = 30"}]"#,
    )
    .unwrap();
    let e = json_miss(&env, "o.txt", &["--edits", "edits.json"]);
    assert_eq!(
        e.message,
        format!(
            "edit 2 of 2 did not match in {}; nothing was written",
            env.path("o.txt").display()
        )
    );
    assert_eq!(
        e.field("difference"),
        "line 2: old is in the file, but edit 1 of this batch changes it first; each edit \
         applies to the text the edits before it leave"
    );
    assert_eq!(
        e.hint.as_deref(),
        Some("quote old as the edits before it leave the text, or merge the two edits")
    );
    // The fix: edit 2 quotes the text as edit 1 leaves it.
    fs::write(
        env.path("edits.json"),
        r#"[{"old":"b = 2","new":"b = 20"},{"old":"b = 20\nc = 3","new":"b = 20\nc = 30"}]"#,
    )
    .unwrap();
    edit_ok(
        &env,
        "o.txt",
        &["--edits", "edits.json"],
        b"a = 1\nb = 20\nc = 30\n",
    );
}

#[test]
fn the_tab_miss_is_said_once_and_fuzzy_fixes_it() {
    let env = TestEnv::new();
    env.write("f.rs", "fn f() {\n\tif x {\n\t\treturn 1;\n\t}\n}\n");
    let p = env.path("f.rs");
    let args = [
        "--old",
        "    if x {\n        return 1;\n    }",
        "--new",
        "    if x {\n        return 2;\n    }",
    ];
    assert_eq!(
        text_miss(&env, "f.rs", &args),
        format!(
            "quill: error: `old` was not found in {}\n  lines 2-4: file indents with tabs where \
             old indents with spaces\n  closest passage in the file:\n     1\tfn f() {{\n     \
             2\t\tif x {{\n     3\t\t\treturn 1;\n     4\t\t}}\n     5\t}}\n  hint: rerun with \
             --fuzzy: it applies there, keeping the file's characters\n",
            p.display()
        )
    );
    let mut fixed = args.to_vec();
    fixed.push("--fuzzy");
    edit_ok(
        &env,
        "f.rs",
        &fixed,
        b"fn f() {\n\tif x {\n\t\treturn 2;\n\t}\n}\n",
    );
}
