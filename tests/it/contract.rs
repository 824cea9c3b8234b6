//! The output contract (SPEC §2): one JSON object, the envelope, exit codes, global options
//! before or after the subcommand, environment variables, usage errors, closed stdout.

use crate::util::*;

#[test]
fn json_envelope_on_success_and_failure() {
    let env = TestEnv::new();
    env.write("a.txt", "x\n");
    let out = env.json(&["read", "a.txt"]);
    out.ok();
    assert_eq!(out.j("op"), "read");
    assert!(out.j("warnings").is_array());
    let out = env.json(&["read", "missing.txt"]);
    out.err("not_found", 4);
    assert_eq!(out.j("op"), "read");
}

#[test]
fn global_options_go_before_or_after_the_subcommand() {
    let env = TestEnv::new();
    env.write("a.txt", "x\n");
    let before = env.text(&["--json", "--session", "s1", "read", "a.txt"]);
    let after = env.text(&["read", "a.txt", "--session", "s1", "--json"]);
    assert_eq!(before.code, 0);
    assert_eq!(before.stdout, after.stdout);
    assert_one_json_object(&after.stdout);
}

#[test]
fn quill_format_env_selects_json_and_text_flag_wins() {
    let env = TestEnv::new();
    env.write("a.txt", "x\n");
    let mut c = env.command(["read", "a.txt"]);
    c.env("QUILL_FORMAT", "json");
    let out = run(c, None);
    assert_one_json_object(&out.stdout);
    let mut c = env.command(["read", "a.txt", "--text"]);
    c.env("QUILL_FORMAT", "json");
    let out = run(c, None);
    assert!(out.stdout.starts_with("     1\tx"), "{}", out.stdout);
}

#[test]
fn usage_errors_exit_2_and_are_json_when_asked() {
    let env = TestEnv::new();
    let out = env.json(&["read"]);
    out.err("usage", 2);
    assert_eq!(out.j("op"), "read");
    let out = env.json(&["read", "a.txt", "--offset", "x"]);
    out.err("usage", 2);
    let out = env.text(&["frobnicate"]);
    assert_eq!(out.code, 2);
    assert!(out.stderr.contains("frobnicate"));
    let out = env.json(&["read", "a.txt", "--offset", "0"]);
    out.err("invalid_argument", 2);
}

#[test]
fn help_and_version_exit_0_with_examples() {
    let env = TestEnv::new();
    for cmd in [
        "read", "write", "edit", "glob", "grep", "transfer", "undo", "state",
    ] {
        let out = env.text(&[cmd, "--help"]);
        assert_eq!(out.code, 0, "{cmd}");
        assert!(
            out.stdout.contains("Examples:"),
            "{cmd} --help has examples"
        );
    }
    let out = env.text(&["--version"]);
    assert_eq!(out.code, 0);
    assert!(out.stdout.starts_with("quill "));
}

#[test]
fn errors_in_text_mode_go_to_stderr_with_a_hint() {
    let env = TestEnv::new();
    env.write("main.rs", "fn main() {}\n");
    let out = env.text(&["read", "mian.rs"]);
    assert_eq!(out.code, 4);
    assert!(out.stdout.is_empty());
    assert!(out.stderr.contains("quill: error:"), "{}", out.stderr);
    assert!(out.stderr.contains("did you mean"), "{}", out.stderr);
    assert!(out.stderr.contains("main.rs"), "{}", out.stderr);
}

#[test]
fn color_is_off_when_piped_and_forced_by_always_even_with_no_color() {
    let env = TestEnv::new();
    env.write("a.txt", "x\n");
    let out = env.text(&["read", "a.txt"]);
    assert!(!out.stdout.contains('\x1b'));
    let mut c = env.command(["read", "a.txt", "--color", "always"]);
    c.env("NO_COLOR", "1");
    let out = run(c, None);
    assert!(
        out.stdout.contains('\x1b'),
        "--color always wins over NO_COLOR"
    );
}

#[test]
fn closed_stdout_is_a_quiet_success() {
    let env = TestEnv::new();
    let big: String = (0..50_000).map(|i| format!("line {i}\n")).collect();
    env.write("big.txt", big);
    let mut c = env.command([
        "read",
        "big.txt",
        "--limit",
        "50000",
        "--max-bytes",
        "10000000",
    ]);
    c.stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped());
    let mut child = c.spawn().unwrap();
    drop(child.stdout.take()); // like `| head` closing early
    let o = child.wait_with_output().unwrap();
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(
        o.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
}

#[test]
fn usage_errors_in_json_name_what_is_missing() {
    let env = TestEnv::new();
    let out = env.json(&["read"]);
    out.err("usage", 2);
    assert!(
        out.j("error")["message"]
            .as_str()
            .unwrap()
            .contains("<PATH>"),
        "{}",
        out.stdout
    );
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
        let mut c = env.command(["--json", "write", &name, "--content", "x"]);
        c.env("QUILL_READ_ONLY", value);
        let out = run(c, None);
        if refused {
            out.err("read_only", 3);
        } else {
            out.ok();
        }
    }
}

#[test]
fn color_always_colors_errors_too() {
    let env = TestEnv::new();
    let out = env.text(&["--color", "always", "read", "missing.txt"]);
    assert_eq!(out.code, 4);
    assert!(out.stderr.contains('\x1b'), "{:?}", out.stderr);
    let out = env.text(&["read", "missing.txt"]);
    assert!(!out.stderr.contains('\x1b'), "{:?}", out.stderr);
}

#[test]
fn empty_environment_variables_count_as_unset() {
    let env = TestEnv::new();
    env.write("a.txt", "x\n");
    let mut c = env.command(["--json", "read", "a.txt"]);
    for var in [
        "QUILL_SESSION",
        "QUILL_ROOT",
        "QUILL_LOCK_TIMEOUT",
        "QUILL_READ_ONLY",
        "QUILL_STRICT",
    ] {
        c.env(var, "");
    }
    run(c, None).ok();
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
    let mut c = std::process::Command::new("sh");
    c.args(["-c", &script])
        .env("QUILL_STATE_DIR", &env.state)
        .env("PATH", std::env::var_os("PATH").unwrap_or_default());
    let out = run(c, None);
    out.ok();
    assert_eq!(out.j("content"), "x\n");
}
