//! The output contract (docs/json.md): one JSON object, the envelope, exit codes, global options
//! before or after the subcommand, environment variables, usage errors, closed stdout.

use crate::util::*;

#[test]
fn json_envelope_on_success_and_failure() {
    let env = TestEnv::new();
    env.write("a.txt", "x\n");
    let r = env.json(&["read", "a.txt"]).ok().read();
    assert_eq!((r.ok, r.op.as_str()), (true, "read"));
    assert!(r.warnings.is_empty());
    let f = env
        .json(&["read", "missing.txt"])
        .err("not_found", 4)
        .failure();
    assert_eq!((f.ok, f.op.as_deref()), (false, Some("read")));
}

#[test]
fn global_options_go_before_or_after_the_subcommand() {
    let env = TestEnv::new();
    env.write("a.txt", "x\n");
    let before = env.text(&["--json", "--session", "s1", "read", "a.txt"]);
    before.ok();
    let after = env.text(&["read", "a.txt", "--session", "s1", "--json"]);
    after.ok().assert_stdout(&before.stdout);
    assert_one_json_object(&after.stdout);
}

#[test]
fn quill_format_env_selects_json_and_text_flag_wins() {
    let env = TestEnv::new();
    env.write("a.txt", "x\n");
    let out = env.cmd(["read", "a.txt"]).env("QUILL_FORMAT", "json").run();
    assert_eq!(out.ok().read().content, "x\n");
    env.cmd(["read", "a.txt", "--text"])
        .env("QUILL_FORMAT", "json")
        .run()
        .ok()
        .assert_stdout("     1\tx\n");
}

#[test]
fn usage_errors_exit_2_and_are_json_when_asked() {
    let env = TestEnv::new();
    let f = env.json(&["read"]).err("usage", 2).failure();
    assert_eq!(f.op.as_deref(), Some("read"));
    env.json(&["read", "a.txt", "--offset", "x"])
        .err("usage", 2);
    env.text(&["frobnicate"]).exit(2).stderr_has("frobnicate");
    env.json(&["read", "a.txt", "--offset", "0"])
        .err("invalid_argument", 2);
}

#[test]
fn help_and_version_exit_0_with_examples() {
    let env = TestEnv::new();
    for cmd in [
        "read", "write", "edit", "glob", "grep", "transfer", "undo", "rm", "state",
    ] {
        env.text(&[cmd, "--help"]).ok().stdout_has("Examples:");
    }
    let out = env.text(&["--version"]);
    out.ok()
        .check(out.stdout.starts_with("quill "), "a version line");
}

#[test]
fn errors_in_text_mode_go_to_stderr_with_a_hint() {
    let env = TestEnv::new();
    env.write("main.rs", "fn main() {}\n");
    env.text(&["read", "mian.rs"])
        .exit(4)
        .assert_stdout("")
        .stderr_has("quill: error:")
        .stderr_has("did you mean")
        .stderr_has("main.rs");
}

#[test]
fn color_is_off_when_piped_and_forced_by_always_even_with_no_color() {
    let env = TestEnv::new();
    env.write("a.txt", "x\n");
    env.text(&["read", "a.txt"])
        .ok()
        .assert_stdout("     1\tx\n");
    let out = env
        .cmd(["read", "a.txt", "--color", "always"])
        .env("NO_COLOR", "1")
        .run();
    out.ok().check(
        out.stdout.contains('\x1b'),
        "--color always wins over NO_COLOR",
    );
}

#[test]
fn closed_stdout_is_a_quiet_success() {
    let env = TestEnv::new();
    let big: String = (0..50_000).map(|i| format!("line {i}\n")).collect();
    env.write("big.txt", big);
    let mut child = env
        .cmd([
            "read",
            "big.txt",
            "--limit",
            "50000",
            "--max-bytes",
            "10000000",
        ])
        .spawn();
    drop(child.take_stdout()); // like `| head` closing early
    child.wait().ok().assert_stderr("");
}

#[test]
fn usage_errors_in_json_name_what_is_missing() {
    let env = TestEnv::new();
    let f = env.json(&["read"]).err("usage", 2).failure();
    assert!(f.error.message.contains("<PATH>"), "{}", f.error.message);
}

#[test]
fn boolean_environment_variables_take_1_and_0() {
    let env = TestEnv::new();
    for (i, (value, refused)) in [
        ("1", true),
        ("true", true),
        ("0", false),
        ("false", false),
        ("", false),
    ]
    .into_iter()
    .enumerate()
    {
        let name = format!("x{i}.txt");
        let out = env
            .cmd(["--json", "write", &name, "--content", "x"])
            .env("QUILL_READ_ONLY", value)
            .run();
        if refused {
            out.err("read_only", 3);
            assert!(!env.path(&name).exists());
        } else {
            out.ok();
            env.assert_file(&name, "x");
        }
    }
}

#[test]
fn color_always_colors_errors_too() {
    let env = TestEnv::new();
    let out = env.text(&["--color", "always", "read", "missing.txt"]);
    out.exit(4)
        .check(out.stderr.contains('\x1b'), "colored stderr");
    let out = env.text(&["read", "missing.txt"]);
    out.exit(4)
        .check(!out.stderr.contains('\x1b'), "no color when piped");
}

#[test]
fn empty_environment_variables_count_as_unset() {
    let env = TestEnv::new();
    env.write("a.txt", "x\n");
    let mut run = env.cmd(["--json", "read", "a.txt"]);
    for var in [
        "QUILL_SESSION",
        "QUILL_ROOT",
        "QUILL_LOCK_TIMEOUT",
        "QUILL_READ_ONLY",
        "QUILL_STRICT",
    ] {
        run = run.env(var, "");
    }
    run.run().ok();
}

#[test]
fn a_deleted_current_directory_does_not_break_absolute_paths() {
    let env = TestEnv::new();
    let file = env.write("a.txt", "x\n");
    let gone = env.path("gone");
    std::fs::create_dir(&gone).unwrap();
    // A shell enters the directory, deletes it, then runs quill there.
    let script = format!(
        "cd {gone:?} && rmdir {gone:?} && exec {BIN:?} --json read {file:?}",
        gone = gone,
        file = file
    );
    let r = env.program("sh").args(["-c", &script]).run().ok().read();
    assert_eq!(r.content, "x\n");
}
