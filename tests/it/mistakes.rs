//! The mistakes agents really make, replayed as an agent types them: a `write` without its
//! content, `write -`, emptying a file by accident, a re-sent edit, the same edit twice in a
//! batch, other tools' flag names, a misspelled flag, a flag taken as a text, an omission
//! placeholder. Each answer is checked word for word, the bytes on disk are checked, and every
//! call an answer suggests is then made exactly as suggested and must succeed.

use std::path::Path;
use std::time::Duration;

use crate::util::*;

/// The commands of a hint: its `backticked` parts.
fn calls(hint: &str) -> Vec<&str> {
    hint.split('`').skip(1).step_by(2).collect()
}

/// Run a hint's command exactly as written, with bash in the work dir and quill on PATH.
fn paste(env: &TestEnv, call: &str) -> Out {
    let bin = Path::new(BIN).parent().unwrap();
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    env.program("bash")
        .args(["-c", call])
        .env("PATH", path)
        .run()
}

fn hint_of(out: &Out) -> String {
    out.failure().error.hint.unwrap_or_default()
}

// ---------------------------------------------------------------------------------------
// 1. write: one explicit source, never `-`, never empty by accident

#[test]
fn write_without_a_source_is_usage_and_reads_no_stdin() {
    let env = TestEnv::new();
    env.write("notes.md", "keep\n");
    env.json(&["read", "notes.md"]).ok();
    let message = "write needs the new content from one of --content TEXT, --from FILE or --stdin (stdin is never read unless asked)";
    let fix = "`quill write notes.md --content TEXT`, `quill write notes.md --from FILE`, or `CMD | quill write notes.md --stdin`";
    // stdin /dev/null (it used to empty the file), stdin with bytes (it used to write them).
    let out = env.json(&["write", "notes.md"]);
    let f = out.err("usage", 2).failure();
    assert_eq!(f.error.message, message);
    assert_eq!(f.error.hint.as_deref(), Some(fix));
    env.json_stdin(&["write", "notes.md"], b"new\n")
        .err("usage", 2);
    env.text(&["write", "notes.md"])
        .exit(2)
        .assert_stderr(&format!("quill: error: {message}\n  hint: {fix}\n"));
    // A pipe held open (it used to hang): answered at once.
    let mut child = env
        .cmd(["--json", "write", "notes.md"])
        .stdin_pipe()
        .spawn();
    let stdin = child.take_stdin();
    child.wait_at_most(Duration::from_secs(20)).err("usage", 2);
    drop(stdin);
    env.assert_file("notes.md", "keep\n");

    // Each suggested call, its placeholders filled in, works.
    let [content, from, stdin] = calls(fix)[..] else {
        panic!("three calls in {fix}")
    };
    paste(&env, &content.replace("TEXT", "one")).ok();
    env.assert_file("notes.md", "one");
    env.write("new.txt", "two\n");
    paste(&env, &from.replace("FILE", "new.txt")).ok();
    env.assert_file("notes.md", "two\n");
    paste(&env, &stdin.replace("CMD", "printf 'three\\n'")).ok();
    env.assert_file("notes.md", "three\n");
    env.json_stdin(&["write", "notes.md", "--from", "-"], b"four\n")
        .ok();
    env.assert_file("notes.md", "four\n");
}

#[test]
fn write_takes_one_source_only_and_content_may_start_with_a_dash() {
    let env = TestEnv::new();
    let out = env.json_stdin(&["write", "a.txt", "--content", "x", "--stdin"], b"y");
    out.err("usage", 2);
    env.json(&["write", "a.txt", "--from", "-", "--stdin"])
        .err("usage", 2);
    assert!(!exists(&env.path("a.txt")));
    // A markdown list is a text, not a flag.
    env.json(&["write", "a.txt", "--content", "- one\n- two\n"])
        .ok();
    env.assert_file("a.txt", "- one\n- two\n");
}

#[test]
fn write_dash_is_refused_and_dot_slash_dash_is_the_file_named_dash() {
    let env = TestEnv::new();
    let out = env.json_stdin(&["write", "-", "--content", "x"], b"y");
    let f = out.err("usage", 2).failure();
    assert_eq!(
        f.error.message,
        "`-` is not a file to write: write takes stdin only with --stdin, and the file by its name"
    );
    let fix = "`CMD | quill write PATH --stdin` (a file named `-` is written as `./-`)";
    assert_eq!(f.error.hint.as_deref(), Some(fix));
    env.json_stdin(&["write", "-", "--stdin"], b"y")
        .err("usage", 2);
    assert!(!exists(&env.path("-")), "no file named -");
    let [stdin, _, dash] = calls(fix)[..] else {
        panic!("a call and a name in {fix}")
    };
    paste(
        &env,
        &stdin
            .replace("CMD", "printf 'piped\\n'")
            .replace("PATH", "out.txt"),
    )
    .ok();
    env.assert_file("out.txt", "piped\n");
    assert_eq!(dash, "./-");
    env.json(&["write", dash, "--content", "dash\n"]).ok();
    env.assert_file("-", "dash\n");
}

#[test]
fn emptying_a_file_needs_allow_empty_and_the_hint_is_the_call() {
    let env = TestEnv::new();
    env.write("data.txt", "precious\n");
    env.write("empty.src", "");
    env.json(&["read", "data.txt"]).ok();
    let abs = env.path("data.txt").display().to_string();
    let message = format!("refusing to replace {abs} (9 bytes) with empty content");
    let fix = format!("to empty it on purpose: `quill write {abs} --content '' --allow-empty`");
    for args in [
        &["write", "data.txt", "--content", ""][..],
        &["write", "data.txt", "--from", "empty.src"],
        &["write", "data.txt", "--content", "", "--dry-run"],
    ] {
        let f = env.json(args).err("invalid_argument", 2).failure();
        assert_eq!(f.error.message, message);
        assert_eq!(f.error.hint.as_deref(), Some(fix.as_str()));
    }
    env.json_stdin(&["write", "data.txt", "--stdin"], b"")
        .err("invalid_argument", 2);
    env.text(&["write", "data.txt", "--content", ""])
        .exit(2)
        .assert_stderr(&format!("quill: error: {message}\n  hint: {fix}\n"));
    env.assert_file("data.txt", "precious\n");
    assert!(quill_temps(&env.dir).is_empty(), "no stage left behind");

    paste(&env, calls(&fix)[0]).ok();
    env.assert_file("data.txt", "");
    // An empty file stays empty without the flag, and a new empty file needs none.
    env.json(&["write", "data.txt", "--content", ""]).ok();
    env.json(&["write", "new.txt", "--content", ""]).ok();
    env.assert_file("new.txt", "");
}

#[test]
fn a_flag_taken_as_a_text_writes_nothing_and_the_one_word_form_is_literal() {
    let env = TestEnv::new();
    env.write("a.txt", "old\n");
    env.json(&["read", "a.txt"]).ok();
    // `--new --dry-run` used to write the text `--dry-run` into the file.
    let out = env.json(&["edit", "a.txt", "--old", "old", "--new", "--dry-run"]);
    let f = out.err("usage", 2).failure();
    assert_eq!(
        f.error.message,
        "--new took `--dry-run` as its text (an option's value is the next word, even one that looks like a flag); nothing was written"
    );
    let fix = "give --new its text first: `--new TEXT --dry-run`; for the literal text `--dry-run`, write `--new=--dry-run` or use --new-file FILE";
    assert_eq!(f.error.hint.as_deref(), Some(fix));
    env.text(&["edit", "a.txt", "--old", "old", "--new", "--dry-run"])
        .exit(2)
        .assert_stderr(&format!(
            "quill: error: {}\n  hint: {fix}\n",
            f.error.message
        ));
    env.json(&["write", "a.txt", "--content", "--json"])
        .err("usage", 2);
    env.json(&[
        "edit",
        "a.txt",
        "--old-string",
        "--replace-all",
        "--new",
        "x",
    ])
    .err("usage", 2);
    env.assert_file("a.txt", "old\n");

    // Both suggested forms do what they say.
    let [first, _, literal] = calls(fix)[..] else {
        panic!("three parts in {fix}")
    };
    let first: Vec<&str> = first.replace("TEXT", "new").leak().split(' ').collect();
    let mut args = vec!["edit", "a.txt", "--old", "old"];
    args.extend(first);
    let m = env.json(&args).ok().mutation();
    assert!(m.dry_run);
    env.assert_file("a.txt", "old\n");
    env.json(&["edit", "a.txt", "--old", "old", literal]).ok();
    env.assert_file("a.txt", "--dry-run\n");
    env.json(&["write", "a.txt", "--content=--json"]).ok();
    env.assert_file("a.txt", "--json");
}

// ---------------------------------------------------------------------------------------
// 2. a re-sent edit is not applied twice

#[test]
fn a_resent_edit_is_already_applied_and_again_repeats_it() {
    let env = TestEnv::new();
    env.write("conf.py", "TIMEOUT = 1\n");
    env.json(&["read", "conf.py"]).ok();
    let edit = [
        "edit",
        "conf.py",
        "--old",
        "TIMEOUT = 1",
        "--new",
        "TIMEOUT = 10",
    ];
    env.json(&edit).ok();
    env.assert_file("conf.py", "TIMEOUT = 10\n");

    // The answer was lost; the agent sends the same call again.
    let out = env.json(&edit);
    let f = out.err("already_applied", 3).failure();
    let abs = env.path("conf.py").display().to_string();
    let message = format!(
        "{abs} already holds this edit: it was the session's last change of the file, which is unchanged since"
    );
    let fix = "nothing was written: an earlier call made this change; to apply it once more on purpose, repeat the call with --again";
    assert_eq!(f.error.message, message);
    assert_eq!(f.error.hint.as_deref(), Some(fix));
    assert_eq!(f.error.field("path"), abs.as_str());
    env.text(&edit)
        .exit(3)
        .assert_stderr(&format!("quill: error: {message}\n  hint: {fix}\n"));
    env.json(&[&edit[..], &["--dry-run"]].concat())
        .err("already_applied", 3);
    // A read in between is not a change: still the same answer.
    env.json(&["read", "conf.py"]).ok();
    env.json(&edit).err("already_applied", 3);
    env.assert_file("conf.py", "TIMEOUT = 10\n");

    // The fix, as suggested: the same call with --again.
    env.json(&[&edit[..], &["--again"]].concat()).ok();
    env.assert_file("conf.py", "TIMEOUT = 100\n");
    env.json(&edit).err("already_applied", 3);
    // After an undo the last change is the undo: the edit is new again.
    env.json(&["undo", "conf.py"]).ok();
    env.assert_file("conf.py", "TIMEOUT = 10\n");
    env.json(&edit).ok();
    env.assert_file("conf.py", "TIMEOUT = 100\n");
    // Another edit, then the first one: not the last change, so it applies.
    env.json(&["edit", "conf.py", "--old", "TIMEOUT", "--new", "LIMIT"])
        .ok();
    env.json(&["edit", "conf.py", "--old", "LIMIT", "--new", "TIMEOUT"])
        .ok();
    env.json(&edit).ok();
    env.assert_file("conf.py", "TIMEOUT = 1000\n");
}

#[test]
fn the_record_of_the_last_edit_is_per_session_and_per_request() {
    let env = TestEnv::new();
    env.write("a.txt", "x\n");
    env.json(&["read", "a.txt"]).ok();
    // A dry run records nothing.
    let edit = ["edit", "a.txt", "--old", "x", "--new", "xy"];
    env.json(&[&edit[..], &["--dry-run"]].concat()).ok();
    env.json(&edit).ok();
    env.assert_file("a.txt", "xy\n");
    // The same old/new with --replace-all is another request.
    env.json(&[&edit[..], &["--replace-all"]].concat()).ok();
    env.assert_file("a.txt", "xyy\n");
    // Another session never sent it.
    env.json(&["--session", "other", "read", "a.txt"]).ok();
    let mut other = vec!["--session", "other"];
    other.extend(edit);
    other.push("--replace-all");
    env.json(&other).ok();
    env.assert_file("a.txt", "xyyy\n");
    // A creation through edit, re-sent.
    let create = ["edit", "new.rs", "--old", "", "--new", "fn main() {}\n"];
    env.json(&create).ok();
    env.json(&create).err("already_applied", 3);
    env.assert_file("new.rs", "fn main() {}\n");
    // A batch, re-sent whole.
    env.write(
        "batch.json",
        r#"[{"old":"fn","new":"pub fn"},{"old":"{}","new":"{ }"}]"#,
    );
    env.json(&["edit", "new.rs", "--edits", "batch.json"]).ok();
    env.json(&["edit", "new.rs", "--edits", "batch.json"])
        .err("already_applied", 3);
    env.assert_file("new.rs", "pub fn main() { }\n");
}

#[test]
fn the_same_edit_twice_in_a_batch_is_refused() {
    let env = TestEnv::new();
    env.write("conf.py", "TIMEOUT = 1\nRETRIES = 2\n");
    env.json(&["read", "conf.py"]).ok();
    env.write(
        "edits.json",
        r#"[{"old":"TIMEOUT = 1","new":"TIMEOUT = 10"},{"old":"RETRIES = 2","new":"RETRIES = 3"},{"old":"TIMEOUT = 1","new":"TIMEOUT = 10"}]"#,
    );
    let f = env
        .json(&["edit", "conf.py", "--edits", "edits.json"])
        .err("invalid_argument", 2)
        .failure();
    assert_eq!(
        f.error.message,
        "edits 1 and 3 of 3 are the same edit; a batch applies each edit to the text the ones before it left, so it would be applied twice; nothing was written"
    );
    assert_eq!(
        f.error.hint.as_deref(),
        Some("remove edit 3 from the batch")
    );
    env.assert_file("conf.py", "TIMEOUT = 1\nRETRIES = 2\n");
    // The fix: the batch without edit 3.
    env.write(
        "edits.json",
        r#"[{"old":"TIMEOUT = 1","new":"TIMEOUT = 10"},{"old":"RETRIES = 2","new":"RETRIES = 3"}]"#,
    );
    env.json(&["edit", "conf.py", "--edits", "edits.json"]).ok();
    env.assert_file("conf.py", "TIMEOUT = 10\nRETRIES = 3\n");
}

// ---------------------------------------------------------------------------------------
// 8. the vocabulary of other tools

#[test]
fn other_tools_flag_names_are_accepted() {
    let env = TestEnv::new();
    env.write("a.rs", "one\ntwo\nthree\nfour\n");
    env.json(&["read", "a.rs"]).ok();
    for (old, new) in [
        ("--old-string", "--new-string"),
        ("--old_string", "--new_string"),
        ("--old-str", "--new-str"),
    ] {
        env.json(&["edit", "a.rs", old, "two", new, "TWO"]).ok();
        env.json(&["edit", "a.rs", old, "TWO", new, "two"]).ok();
    }
    env.json(&[
        "edit",
        "--file-path",
        "a.rs",
        "--old_string",
        "o",
        "--new_string",
        "0",
        "--replace_all",
    ])
    .ok();
    env.assert_file("a.rs", "0ne\ntw0\nthree\nf0ur\n");
    env.json(&["edit", "--file_path=a.rs", "--old", "0ne", "--new", "one"])
        .ok();
    env.json(&[
        "edit",
        "--path",
        "a.rs",
        "--old",
        "tw0",
        "--new",
        "two",
        "--expected-replacements",
        "1",
    ])
    .ok();
    env.assert_file("a.rs", "one\ntwo\nthree\nf0ur\n");
    env.json(&["write", "--file-path", "b.txt", "--file_text", "b\n"])
        .ok();
    env.assert_file("b.txt", "b\n");

    let page = |args: &[&str]| {
        let r = env.json(args).ok().read();
        (r.start_line, r.end_line, r.content)
    };
    let two_three = (2, 3, "two\nthree\n".to_string());
    assert_eq!(
        page(&["read", "a.rs", "--start-line", "2", "--end-line", "3"]),
        two_three
    );
    assert_eq!(
        page(&["read", "a.rs", "--line", "2", "--limit", "2"]),
        two_three
    );
    assert_eq!(page(&["read", "a.rs", "--view-range", "2,3"]), two_three);
    assert_eq!(
        page(&["read", "--file_path", "a.rs", "--view_range", "[2, 3]"]),
        two_three
    );
    assert_eq!(
        page(&["read", "a.rs", "--view-range", "[3, -1]"]),
        (3, 4, "three\nf0ur\n".to_string())
    );
    assert_eq!(
        page(&["read", "a.rs", "--end-line", "1"]),
        (1, 1, "one\n".to_string())
    );
    let f = env
        .json(&["read", "a.rs", "--view-range", "3"])
        .err("invalid_argument", 2)
        .failure();
    assert_eq!(
        f.error.message,
        "--view-range takes the first and last line, A,B (B = -1: to the end), not `3`"
    );
    env.json(&["read", "a.rs", "--view-range", "2,3", "--offset", "2"])
        .err("usage", 2);
    env.json(&["read", "a.rs", "--end-line", "1", "--offset", "2"])
        .err("invalid_argument", 2);
}

#[test]
fn help_man_pages_and_completions_show_only_the_canonical_names() {
    let env = TestEnv::new();
    let hidden = [
        "old-string",
        "old_string",
        "old-str",
        "new-string",
        "new_string",
        "new-str",
        "replace_all",
        "file-path",
        "file_path",
        "start-line",
        "end-line",
        "view-range",
        "file-text",
        "expected-replacements",
    ];
    let mut texts = Vec::new();
    for cmd in ["read", "write", "edit"] {
        texts.push(env.text(&[cmd, "--help"]).ok().stdout.clone());
        texts.push(env.text(&["man", cmd]).ok().stdout.clone());
    }
    for shell in ["bash", "zsh", "fish", "elvish", "powershell"] {
        texts.push(env.text(&["completions", shell]).ok().stdout.clone());
    }
    for text in &texts {
        for name in hidden {
            assert!(!text.contains(name), "{name} shown in:\n{text}");
        }
    }
    // The canonical names are there.
    assert!(texts[4].contains("--old <TEXT>") && texts[4].contains("--new <TEXT>"));
}

#[test]
fn a_misspelled_flag_names_the_canonical_flag_and_its_partner_and_the_call() {
    let env = TestEnv::new();
    env.write("f.rs", "let a = 1;\n");
    env.json(&["read", "f.rs"]).ok();
    let out = env.json(&["edit", "f.rs", "--old-text", "1;", "--new-text", "2;"]);
    let f = out.err("usage", 2).failure();
    assert_eq!(f.error.message, "unexpected argument '--old-text' found");
    let u: UsageFields = serde_json::from_value(out.json["error"].clone()).unwrap();
    assert_eq!(u.argument.as_deref(), Some("--old-text"));
    assert_eq!(u.suggestion.as_deref(), Some("--old"));
    let fix =
        "edit takes --old TEXT and --new TEXT: `quill --json edit f.rs --old '1;' --new '2;'`";
    assert_eq!(f.error.hint.as_deref(), Some(fix));
    env.assert_file("f.rs", "let a = 1;\n");
    paste(&env, calls(fix)[0]).ok();
    env.assert_file("f.rs", "let a = 2;\n");

    // Text mode: the usage of the command, not one built around an unrelated flag.
    env.text(&["edit", "f.rs", "--start-line", "1"])
        .exit(2)
        .assert_stderr(
            "quill: error: unexpected argument '--start-line' found\n\
             \x20 usage: quill edit [OPTIONS] <PATH>\n\
             \x20 hint: run `quill edit --help`\n",
        );
    let out = env.json(&["edit", "f.rs", "--start-line", "1"]);
    let u: UsageFields = serde_json::from_value(out.json["error"].clone()).unwrap();
    assert_eq!(u.suggestion, None, "never --state-dir");

    // read: the start and the end of a range, corrected to a call that works.
    env.write("g.txt", "1\n2\n3\n4\n");
    let f = env
        .json(&["read", "g.txt", "--from-line", "2", "--to-line", "3"])
        .err("usage", 2)
        .failure();
    let fix = f.error.hint.unwrap();
    assert_eq!(
        fix,
        "read takes --offset N (the first line, 1-based) and --limit N (how many lines): `quill --json read g.txt --offset 2 --end-line 3`"
    );
    let r = paste(&env, calls(&fix)[0]).ok().read();
    assert_eq!((r.start_line, r.end_line), (2, 3));
    // write: another tool's word for the content.
    let f = env
        .json(&["write", "h.txt", "--data", "hello"])
        .err("usage", 2)
        .failure();
    let fix = f.error.hint.unwrap();
    assert_eq!(
        fix,
        "write takes its content from one of --content TEXT, --from FILE or --stdin: `quill --json write h.txt --content hello`"
    );
    paste(&env, calls(&fix)[0]).ok();
    env.assert_file("h.txt", "hello");
    // Only one side given: the template, since the call would fail.
    let hint = hint_of(
        env.json(&["edit", "f.rs", "--search", "2;"])
            .err("usage", 2),
    );
    assert_eq!(
        hint,
        "edit takes --old TEXT and --new TEXT: `quill edit PATH --old TEXT --new TEXT`"
    );
    // A near spelling of a paired flag names its partner too.
    let hint = hint_of(
        env.json(&["edit", "f.rs", "--od", "2;", "--new", "3;"])
            .err("usage", 2),
    );
    assert_eq!(
        hint,
        "edit takes --old TEXT and --new TEXT: `quill --json edit f.rs --old '2;' --new '3;'`"
    );
}

// ---------------------------------------------------------------------------------------
// 10. placeholders are not content

#[test]
fn an_edit_that_puts_a_placeholder_for_real_lines_is_refused() {
    let env = TestEnv::new();
    let src = "fn main() {\n    setup();\n    run();\n    teardown();\n}\n";
    env.write("main.rs", src);
    env.json(&["read", "main.rs"]).ok();
    let old = "    setup();\n    run();\n    teardown();\n";
    let new = "    // ... existing code ...\n    run_fast();\n";
    let out = env.json(&["edit", "main.rs", "--old", old, "--new", new]);
    let f = out.err("invalid_argument", 2).failure();
    let abs = env.path("main.rs").display().to_string();
    assert_eq!(
        f.error.message,
        format!(
            "line 1 of `new` is an omission placeholder, `// ... existing code ...`, that neither `old` nor {abs} has: quill writes text literally, so the lines it stands for would be lost"
        )
    );
    let fix = "put the real lines in `new` instead of the placeholder (only the lines that change need to be in `old` and `new`); if the line is meant literally, repeat the call with --allow-placeholder";
    assert_eq!(f.error.hint.as_deref(), Some(fix));
    env.assert_file("main.rs", src);
    // In a batch, the edit is named.
    env.write(
        "edits.json",
        serde_json::json!([{"old": "fn main", "new": "pub fn main"}, {"old": old, "new": new}])
            .to_string(),
    );
    let f = env
        .json(&["edit", "main.rs", "--edits", "edits.json"])
        .err("invalid_argument", 2)
        .failure();
    assert!(
        f.error.message.starts_with("edit 2 of 2: line 1 of `new`"),
        "{}",
        f.error.message
    );
    env.assert_file("main.rs", src);

    // The fix, as suggested: the call again with --allow-placeholder.
    env.json(&[
        "edit",
        "main.rs",
        "--old",
        old,
        "--new",
        new,
        "--allow-placeholder",
    ])
    .ok();
    env.assert_file(
        "main.rs",
        "fn main() {\n    // ... existing code ...\n    run_fast();\n}\n",
    );
    // Now the file has the placeholder: editing next to it needs no flag.
    env.json(&[
        "edit",
        "main.rs",
        "--old",
        "    run_fast();\n",
        "--new",
        "    // ...existing code...\n    run();\n",
    ])
    .ok();
    // A placeholder already in `old` is kept without the flag, too.
    env.write("b.py", "# existing code here\nx = 1\n");
    env.json(&["read", "b.py"]).ok();
    env.json(&[
        "edit",
        "b.py",
        "--old",
        "# existing code here\nx = 1",
        "--new",
        "# existing code here\nx = 2",
    ])
    .ok();
    env.assert_file("b.py", "# existing code here\nx = 2\n");
}

#[test]
fn a_write_with_a_placeholder_the_file_does_not_have_is_refused() {
    let env = TestEnv::new();
    let src = "def a():\n    return 1\n\ndef b():\n    return 2\n";
    env.write("m.py", src);
    env.json(&["read", "m.py"]).ok();
    let new = "def a():\n    return 10\n\n# rest of the file unchanged\n";
    let f = env
        .json(&["write", "m.py", "--content", new])
        .err("invalid_argument", 2)
        .failure();
    let abs = env.path("m.py").display().to_string();
    assert_eq!(
        f.error.message,
        format!(
            "line 4 of the new content is an omission placeholder, `# rest of the file unchanged`, that {abs} does not have: quill writes text literally, so the lines it stands for would be lost"
        )
    );
    let fix = "write the whole content, with the real lines in place of the placeholder; if the line is meant literally, repeat the call with --allow-placeholder";
    assert_eq!(f.error.hint.as_deref(), Some(fix));
    env.json_stdin(&["write", "m.py", "--stdin"], new.as_bytes())
        .err("invalid_argument", 2);
    env.assert_file("m.py", src);
    assert!(quill_temps(&env.dir).is_empty(), "no stage left behind");
    // A new file with `<!-- ... -->` for the rest of a page.
    env.json(&[
        "write",
        "page.html",
        "--content",
        "<h1>Hi</h1>\n<!-- ... -->\n",
    ])
    .err("invalid_argument", 2);
    assert!(!exists(&env.path("page.html")));
    // Python's `...` and a real comment are content.
    env.json(&[
        "write",
        "stub.pyi",
        "--content",
        "def f() -> int: ...\nclass C:\n    ...\n# Existing code\n",
    ])
    .ok();

    // The fix, as suggested.
    env.json(&["write", "m.py", "--content", new, "--allow-placeholder"])
        .ok();
    env.assert_file("m.py", new);
    // The file has it now: rewriting it with the same placeholder needs no flag.
    env.json(&["write", "m.py", "--content", &new.replace("10", "11")])
        .ok();
}
