//! `quill edit` through the binary: exact matching, ambiguity, repair reasons and `--fuzzy`,
//! encodings and line endings kept byte for byte, multi-edit rollback, creation, caps, locks.
//! Every successful edit's patch is applied with git and patch.

use std::fs;
use std::process::{Command, Stdio};

use crate::patching::assert_patch_applies;
use crate::util::{Out, TestEnv, have, utf16le};

/// Read `rel`, edit it with `args`, expect success and `want` on disk, and check the patch.
#[track_caller]
fn edit_ok(env: &TestEnv, rel: &str, args: &[&str], want: &[u8]) -> Out {
    let before = env.read(rel);
    env.json(&["read", rel]).ok();
    let mut full = vec!["edit", rel];
    full.extend_from_slice(args);
    let out = env.json(&full);
    out.ok();
    assert_eq!(
        env.read(rel),
        want,
        "on disk: {:?}",
        String::from_utf8_lossy(&env.read(rel))
    );
    if out.j("patch").is_string() {
        assert_patch_applies(&out, Some(&before), Some(want));
    }
    out
}

#[test]
fn replaces_a_unique_passage() {
    let env = TestEnv::new();
    env.write("a.rs", "fn a() {\n    let x = 1;\n}\n");
    let out = edit_ok(
        &env,
        "a.rs",
        &["--old", "let x = 1;", "--new", "let x = 2;"],
        b"fn a() {\n    let x = 2;\n}\n",
    );
    assert_eq!(out.j("replacements"), 1);
    assert_eq!(out.j("matchedFuzzily"), false);
    assert!(
        out.j("diff")
            .as_str()
            .unwrap()
            .starts_with("@@ -1,3 +1,3 @@")
    );
}

#[test]
fn ambiguous_matches_count_overlaps_and_name_lines() {
    let env = TestEnv::new();
    env.write("f.txt", "aaa\nx\naaa\n");
    env.json(&["read", "f.txt"]).ok();
    let out = env.json(&["edit", "f.txt", "--old", "aa", "--new", "b"]);
    out.err("edit_ambiguous", 3);
    assert_eq!(out.json["error"]["count"], 4);
    assert_eq!(out.json["error"]["lines"], serde_json::json!([1, 1, 3, 3]));
    assert_eq!(env.read("f.txt"), b"aaa\nx\naaa\n");
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
    env.json(&[
        "edit",
        "f.txt",
        "--old",
        "x",
        "--new",
        "z",
        "--expect-count",
        "2",
    ])
    .err("edit_ambiguous", 3);
    let out = edit_ok(
        &env,
        "f.txt",
        &["--old", "x", "--new", "z", "--expect-count", "3"],
        b"z y z y z\n",
    );
    assert_eq!(out.j("replacements"), 3);
}

#[test]
fn tabs_versus_spaces_is_a_whitespace_miss_and_fuzzy_keeps_the_tabs() {
    let env = TestEnv::new();
    let text = "fn f() {\n\tif x {\n\t\treturn 1;\n\t}\n}\n";
    env.write("f.rs", text);
    env.json(&["read", "f.rs"]).ok();
    let old = "    if x {\n        return 1;\n    }\n";
    let new = "    if x {\n        return 2;\n    }\n";
    let out = env.json(&["edit", "f.rs", "--old", old, "--new", new]);
    out.err("edit_no_match", 3);
    let e = &out.json["error"];
    assert_eq!(e["reason"], "whitespace");
    let diff = e["difference"].as_str().unwrap();
    assert!(diff.contains("tab"), "{diff}");
    assert!(diff.contains("line 2"), "{diff}");
    assert!(e["window"]["startLine"].as_u64().unwrap() <= 2);
    assert!(
        e["window"]["text"]
            .as_str()
            .unwrap()
            .contains("\treturn 1;")
    );
    assert_eq!(env.read("f.rs"), text.as_bytes());

    let out = edit_ok(
        &env,
        "f.rs",
        &["--old", old, "--new", new, "--fuzzy"],
        b"fn f() {\n\tif x {\n\t\treturn 2;\n\t}\n}\n",
    );
    assert_eq!(out.j("matchedFuzzily"), true);
    assert_eq!(out.j("spans")[0]["startLine"], 2);
    assert_eq!(out.j("spans")[0]["endLine"], 4);
}

#[test]
fn curly_quotes_are_named_and_fuzzy_applies() {
    let env = TestEnv::new();
    env.write("q.md", "He said \u{201c}hi\u{201d} and left.\n");
    env.json(&["read", "q.md"]).ok();
    let out = env.json(&[
        "edit",
        "q.md",
        "--old",
        "said \"hi\"",
        "--new",
        "said \"bye\"",
    ]);
    out.err("edit_no_match", 3);
    assert_eq!(out.json["error"]["reason"], "whitespace");
    let d = out.json["error"]["difference"].as_str().unwrap();
    assert!(d.contains("quote"), "{d}");
    let out = edit_ok(
        &env,
        "q.md",
        &["--old", "said \"hi\"", "--new", "said \"bye\"", "--fuzzy"],
        "He said \"bye\" and left.\n".as_bytes(),
    );
    assert_eq!(out.j("matchedFuzzily"), true);
}

#[test]
fn similar_and_none_misses() {
    let env = TestEnv::new();
    env.write("f.txt", "alpha\nbeta gamma delta\nepsilon\n");
    env.json(&["read", "f.txt"]).ok();
    let out = env.json(&["edit", "f.txt", "--old", "beta gamma delte", "--new", "x"]);
    out.err("edit_no_match", 3);
    assert_eq!(out.json["error"]["reason"], "similar");
    assert!(
        out.json["error"]["window"]["text"]
            .as_str()
            .unwrap()
            .contains("beta gamma delta")
    );
    let out = env.json(&["edit", "f.txt", "--old", "zzzz qqqq 12345", "--new", "x"]);
    out.err("edit_no_match", 3);
    assert_eq!(out.json["error"]["reason"], "none");
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
    let out = edit_ok(
        &env,
        "l.txt",
        &["--old", "price: 10", "--new", "price: 12"],
        b"caf\xe9 au lait\nprice: 12\nna\xefve\n",
    );
    // The hunk holds invalid UTF-8 only as context; either a patch or a stated reason.
    assert!(out.j("patch").is_string() || out.j("patchUnavailable").is_string());
    env.json(&[
        "edit",
        "l.txt",
        "--old",
        "caf\u{fffd} au",
        "--new",
        "cafe au",
    ])
    .err("encoding", 3);
    assert_eq!(env.read("l.txt"), b"caf\xe9 au lait\nprice: 12\nna\xefve\n");
}

#[test]
fn utf16_files_are_edited_in_utf16() {
    let env = TestEnv::new();
    env.write("u.txt", utf16le("hello\r\nworld\r\n"));
    let out = edit_ok(
        &env,
        "u.txt",
        &["--old", "world", "--new", "wörld"],
        &utf16le("hello\r\nwörld\r\n"),
    );
    assert!(out.j("diff").as_str().unwrap().contains("+wörld"));
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
    let out = env.json(&["edit", "f.txt", "--edits", "edits.json"]);
    out.err("edit_no_match", 3);
    assert_eq!(out.json["error"]["editIndex"], 1);
    assert_eq!(env.read("f.txt"), b"one\ntwo\nthree\n");
    // From stdin, all of them land in one publication.
    let edits = br#"[{"old":"one","new":"1"},{"old":"three","new":"3"},{"old":"1\ntwo","new":"1\n2","replaceAll":false}]"#;
    let out = env.json_stdin(&["edit", "f.txt", "--edits", "-"], edits);
    out.ok();
    assert_eq!(out.j("replacements"), 3);
    assert_eq!(env.read("f.txt"), b"1\n2\n3\n");
    assert_patch_applies(&out, Some(b"one\ntwo\nthree\n"), Some(b"1\n2\n3\n"));
    env.json_stdin(
        &["edit", "f.txt", "--edits", "-"],
        br#"[{"old":"1","neu":"x"}]"#,
    )
    .err("invalid_argument", 2);
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
    out.ok();
    assert_eq!(out.j("created"), true);
    assert_eq!(env.read("dir/new.rs"), b"fn main() {}\n");
    assert_patch_applies(&out, None, Some(b"fn main() {}\n"));
    env.json(&["edit", "dir/new.rs", "--old", "", "--new", "x"])
        .err("invalid_argument", 2);
    env.json(&["edit", "dir/new.rs", "--old", "main", "--new", "main"])
        .err("invalid_argument", 2);
    env.json(&["edit", "missing.rs", "--old", "a", "--new", "b"])
        .err("not_found", 4);
    env.json(&["edit", "dir/new.rs", "--old", "main"])
        .err("usage", 2);
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
}

#[test]
fn dry_run_shows_the_diff_and_changes_nothing() {
    let env = TestEnv::new();
    env.write("f.txt", "a\nb\n");
    env.json(&["read", "f.txt"]).ok();
    let out = env.json(&["edit", "f.txt", "--old", "b", "--new", "c", "--dry-run"]);
    out.ok();
    assert!(out.j("fileAccess").is_null());
    assert!(out.j("diff").as_str().unwrap().contains("-b\n+c\n"));
    assert_eq!(env.read("f.txt"), b"a\nb\n");
}

#[test]
fn a_held_lock_times_out() {
    if !have("flock") {
        eprintln!("skipping: flock (util-linux) is not installed");
        return;
    }
    let env = TestEnv::new();
    let p = env.write("f.txt", "a\n");
    env.json(&["read", "f.txt"]).ok();
    let lock = env.state.join("locks").join(format!(
        "{}.lock",
        crate::util::sha256_hex(p.to_str().unwrap().as_bytes())
    ));
    let mut holder = Command::new("flock")
        .arg("-o")
        .arg(&lock)
        .args(["sleep", "5"])
        .stdout(Stdio::null())
        .spawn()
        .unwrap();
    // Wait until the holder has the lock.
    for _ in 0..100 {
        if Command::new("flock")
            .args(["-n"])
            .arg(&lock)
            .arg("true")
            .status()
            .unwrap()
            .success()
        {
            std::thread::sleep(std::time::Duration::from_millis(20));
        } else {
            break;
        }
    }
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
    assert_eq!(env.read("f.txt"), b"a\n");
    let _ = holder.kill();
    let _ = holder.wait();
    env.json(&["edit", "f.txt", "--old", "a", "--new", "b"])
        .ok();
}
