//! The command line itself: help headings, what `completions` and `man` list, the man pages'
//! sections and cross references, completion of `grep --type`, one error style for usage
//! errors (text and JSON), `QUILL_FORMAT` values, and `--version`.

use std::fs;
use std::path::Path;

use crate::util::*;

const COMMANDS: [&str; 9] = [
    "read", "write", "edit", "glob", "grep", "transfer", "undo", "rm", "state",
];
const GUARD_OPTIONS: [&str; 6] = [
    "--session",
    "--state-dir",
    "--root",
    "--read-only",
    "--strict",
    "--lock-timeout",
];

/// The lines of `help` under `heading`, up to the next heading (`Examples:`, …).
fn section<'a>(help: &'a str, heading: &str) -> Vec<&'a str> {
    help.lines()
        .skip_while(|l| *l != heading)
        .skip(1)
        .take_while(|l| l.is_empty() || l.starts_with(' '))
        .collect()
}

#[test]
fn global_options_have_their_own_heading_in_every_help() {
    let env = TestEnv::new();
    let mut helps = vec![vec!["--help"]];
    helps.extend(COMMANDS.iter().map(|c| vec![*c, "--help"]));
    for args in helps {
        let out = env.text(&args);
        out.ok().stdout_has("\nGlobal options:\n");
        let globals = section(&out.stdout, "Global options:").join("\n");
        let options = section(&out.stdout, "Options:").join("\n");
        for flag in GUARD_OPTIONS.iter().chain(&["--json", "--color"]) {
            out.check(
                globals.contains(flag),
                format!("{args:?}: {flag} under Global options"),
            );
            out.check(
                !options.contains(flag),
                format!("{args:?}: {flag} not under Options"),
            );
        }
    }
}

#[test]
fn completions_and_man_do_not_list_the_guard_options_but_take_them() {
    let env = TestEnv::new();
    for cmd in ["completions", "man"] {
        let out = env.text(&[cmd, "--help"]);
        out.ok().stdout_has("--json");
        for flag in GUARD_OPTIONS {
            out.check(
                !out.stdout.contains(flag),
                format!("{cmd} --help lists {flag}"),
            );
        }
        let page = env.text(&["man", cmd]);
        for flag in GUARD_OPTIONS {
            let roff = flag.replace('-', "\\-");
            page.check(
                !page.stdout.contains(&roff),
                format!("quill-{cmd}(1) lists {flag}"),
            );
        }
    }
    // Global options go anywhere, these two commands included.
    env.text(&["completions", "bash", "--strict", "--session", "s"])
        .ok()
        .stdout_has("_quill()");
    env.text(&["--lock-timeout", "3", "man", "read"])
        .ok()
        .stdout_has(".TH quill-read");
}

/// Every page `quill man` writes, by file name.
fn pages(env: &TestEnv) -> Vec<(String, String)> {
    let mut pages = vec![(
        "quill.1".to_string(),
        env.text(&["man"]).ok().stdout.clone(),
    )];
    for cmd in COMMANDS.iter().chain(&["completions", "man"]) {
        let out = env.text(&["man", cmd]);
        pages.push((format!("quill-{cmd}.1"), out.ok().stdout.clone()));
    }
    pages
}

#[test]
fn man_pages_have_examples_exit_status_and_environment() {
    let env = TestEnv::new();
    for (name, page) in pages(&env) {
        for sh in [
            ".SH NAME",
            ".SH SYNOPSIS",
            ".SH EXAMPLES",
            ".SH \"EXIT STATUS\"",
            ".SH ENVIRONMENT",
            ".SH \"SEE ALSO\"",
        ] {
            assert!(page.contains(sh), "{name} lacks {sh}");
        }
        assert!(!page.contains(".SH EXTRA"), "{name} has an EXTRA section");
        assert!(page.contains("QUILL_FORMAT"), "{name}");
    }
    let main = env.text(&["man"]).ok().stdout.clone();
    for var in [
        "QUILL_FORMAT",
        "QUILL_SESSION",
        "QUILL_STATE_DIR",
        "QUILL_ROOT",
        "QUILL_READ_ONLY",
        "QUILL_STRICT",
        "QUILL_LOCK_TIMEOUT",
        "NO_COLOR",
        "XDG_STATE_HOME",
    ] {
        assert!(
            main.contains(&format!("\\fB{var}\\fR")),
            "quill(1) lacks {var}"
        );
    }
    for code in 0..=4 {
        assert!(
            main.contains(&format!(".TP\n\\fB{code}\\fR\n")),
            "exit {code}"
        );
    }
    assert!(main.contains(".SH \"GLOBAL OPTIONS\""));
    assert!(
        main.contains("quill edit src/main.rs \\-\\-old"),
        "an example"
    );
}

#[test]
fn every_page_see_also_names_is_in_man() {
    let env = TestEnv::new();
    let man_dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("man");
    let committed: Vec<String> = fs::read_dir(&man_dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    let pages = pages(&env);
    for (name, _) in &pages {
        assert!(committed.contains(name), "man/{name} is not committed");
    }
    let mut named = 0;
    for (name, page) in &pages {
        let see_also = page
            .split(".SH \"SEE ALSO\"\n")
            .nth(1)
            .and_then(|s| s.split("\n.SH").next())
            .unwrap_or_else(|| panic!("{name} has no SEE ALSO"));
        for reference in see_also.split(", ") {
            let target = reference
                .trim()
                .replace("\\fB", "")
                .replace("\\fR", "")
                .replace("\\-", "-")
                .replace("(1)", ".1");
            assert!(
                committed.contains(&target),
                "{name} names {target}, which man/ lacks"
            );
            named += 1;
        }
        assert!(!page.contains("quill\\-help"), "{name} names quill-help");
    }
    assert!(named >= 20, "SEE ALSO names the pages ({named})");
}

#[test]
fn grep_type_completes_type_names_in_every_static_script() {
    let env = TestEnv::new();
    let bash = env.text(&["completions", "bash"]);
    let branch = bash
        .ok()
        .stdout
        .split("--type)")
        .nth(1)
        .unwrap_or_else(|| bash.fail("no --type branch"))
        .lines()
        .nth(1)
        .unwrap_or("");
    bash.check(
        branch.contains("compgen -W \"") && branch.contains(" rust ") && branch.contains(" py "),
        format!("bash completes --type with type names: {branch:.200}"),
    );
    env.text(&["completions", "zsh"])
        .ok()
        .stdout_has(":TYPE:(ada ")
        .stdout_has(" rust ");
    env.text(&["completions", "fish"])
        .ok()
        .stdout_has("rust\\t");
    // Help does not list the hundreds of names, and grep still takes any name and judges it.
    let help = env.text(&["grep", "--help"]);
    help.ok()
        .check(!help.stdout.contains("asciidoc"), "no type names in --help");
}

#[test]
fn usage_errors_in_text_are_quill_errors_with_usage_and_hint() {
    let env = TestEnv::new();
    let out = env.text(&["glob", "x", "--limt", "3"]);
    out.exit(2).assert_stdout("").assert_stderr(
        "quill: error: unexpected argument '--limt' found\n\
         \x20 usage: quill glob --limit <N> <PATTERN> [PATH]\n\
         \x20 hint: the flag is --limit: `quill glob x --limit 3`\n",
    );
    for args in [
        &["raed", "a.txt"][..],
        &["read"],
        &["read", "a.txt", "--offset", "x"],
        &["state", "forget"],
        &["--json", "--text", "grep"],
    ] {
        let out = env.text(args);
        out.exit(2).assert_stdout("");
        out.check(
            out.stderr.starts_with("quill: error: "),
            "starts with `quill: error:`",
        )
        .check(!out.stderr.contains("\nerror:"), "no clap `error:` line")
        .check(!out.stderr.contains("tip:"), "clap's tip is the hint")
        .check(
            out.stderr
                .lines()
                .last()
                .unwrap_or("")
                .starts_with("  hint: "),
            "ends with the hint",
        );
    }
    env.text(&["read", "a.txt", "--offset", "x"])
        .exit(2)
        .stderr_has("  hint: run `quill read --help`");
}

#[test]
fn usage_errors_in_json_carry_the_argument_and_the_suggestion() {
    let env = TestEnv::new();
    let out = env.json(&["glob", "x", "--limt", "3"]);
    let f = out.err("usage", 2).failure();
    assert_eq!(f.op.as_deref(), Some("glob"));
    assert_eq!(f.error.message, "unexpected argument '--limt' found");
    let u: UsageFields = serde_json::from_value(out.json["error"].clone()).unwrap();
    assert_eq!(u.argument.as_deref(), Some("--limt"));
    assert_eq!(u.suggestion.as_deref(), Some("--limit"));
    assert!(u.usage.unwrap().starts_with("quill glob "));
    assert_eq!(
        f.error.hint.as_deref(),
        Some("the flag is --limit: `quill --json glob x --limit 3`")
    );

    let out = env.json(&["raed", "a.txt"]);
    out.err("usage", 2);
    let u: UsageFields = serde_json::from_value(out.json["error"].clone()).unwrap();
    assert_eq!(
        (u.argument.as_deref(), u.suggestion.as_deref()),
        (Some("raed"), Some("read"))
    );

    // No tip pasted into the message; a missing argument is named; no suggestion is null.
    let out = env.json(&["read", "--bogus", "a.txt"]);
    let f = out.err("usage", 2).failure();
    assert!(!f.error.message.contains("tip"), "{}", f.error.message);
    let out = env.json(&["read"]);
    out.err("usage", 2);
    let u: UsageFields = serde_json::from_value(out.json["error"].clone()).unwrap();
    assert_eq!(
        (u.argument.as_deref(), u.suggestion),
        (Some("<PATH>"), None)
    );
    let out = env.json(&["glob", "x", "--sort", "paht"]);
    out.err("usage", 2);
    let u: UsageFields = serde_json::from_value(out.json["error"].clone()).unwrap();
    assert_eq!(
        (u.argument.as_deref(), u.suggestion.as_deref()),
        (Some("--sort"), Some("path"))
    );
}

#[test]
fn op_is_null_when_no_subcommand_was_identified_and_the_subcommand_when_one_was() {
    let env = TestEnv::new();
    env.write("a.txt", "a\n");
    // Nothing clap could call a subcommand: `op` is there, and null.
    for args in [
        &["frobnicate"][..],
        &["frobnicate", "read", "a.txt"],
        &["--bogus"],
        &["--session", "read"],
        &[],
    ] {
        let out = env.json(args);
        let f = out.err("usage", 2).failure();
        out.check(
            out.json.get("op") == Some(&serde_json::Value::Null),
            "`op` is present and null",
        );
        assert_eq!(f.op, None);
    }
    // The usage shown for none is quill's own, and an unknown global flag's advice names
    // `quill --help`, never a subcommand called `usage`.
    let out = env.json(&["--jsno"]);
    let u: UsageFields = serde_json::from_value(out.json["error"].clone()).unwrap();
    assert!(u.usage.unwrap().starts_with("quill "), "{}", out.stdout);
    out.check(!out.stdout.contains("quill usage"), "no `quill usage`");
    // A subcommand clap identified keeps its name, also behind global options.
    for (args, op) in [
        (&["edit", "--bogus"][..], "edit"),
        (&["--session", "s", "read", "--bogus", "a.txt"], "read"),
        (&["--color", "never", "grep"], "grep"),
    ] {
        let f = env.json(args).err("usage", 2).failure();
        assert_eq!(f.op.as_deref(), Some(op), "{args:?}");
    }
    // Text mode is unchanged: the error on stderr, nothing on stdout.
    env.text(&["frobnicate"])
        .exit(2)
        .assert_stdout("")
        .stderr_has("quill: error: ");
}

#[test]
fn every_offset_help_says_where_it_counts_from() {
    let env = TestEnv::new();
    let offset_help = |op: &str| {
        let help = env.text(&[op, "--help"]);
        help.ok();
        let at = help
            .stdout
            .find("--offset")
            .unwrap_or_else(|| help.fail("no --offset in the help"));
        let rest = &help.stdout[at..];
        rest[..rest.find("\n\n").unwrap_or(rest.len())].to_string()
    };
    let read = offset_help("read");
    assert!(read.contains("1-based") && read.contains("line"), "{read}");
    for op in ["glob", "grep"] {
        let h = offset_help(op);
        assert!(h.contains("0-based") && h.contains("skip"), "{op}: {h}");
        assert!(h.contains("nextOffset"), "{op}: {h}");
    }
}

#[test]
fn quill_format_takes_text_or_json_in_any_case_else_is_a_usage_error() {
    let env = TestEnv::new();
    env.write("a.txt", "x\n");
    let read = |value: &str| env.cmd(["read", "a.txt"]).env("QUILL_FORMAT", value).run();
    assert_eq!(read("JSON").ok().read().content, "x\n");
    read("Text").ok().assert_stdout("     1\tx\n");
    read("").ok().assert_stdout("     1\tx\n");
    for bad in ["yaml", "jsonl", " json"] {
        read(bad)
            .exit(2)
            .assert_stdout("")
            .stderr_has("quill: error: invalid value")
            .stderr_has("QUILL_FORMAT")
            .stderr_has("'text' or 'json'");
    }
    // A flag decides without the variable (as --lock-timeout does for QUILL_LOCK_TIMEOUT).
    let out = env
        .cmd(["--json", "read", "a.txt"])
        .env("QUILL_FORMAT", "yaml")
        .run();
    out.ok();
}

#[test]
fn version_names_the_commit_in_text_and_json() {
    let env = TestEnv::new();
    let text = env.text(&["--version"]);
    let line = text.ok().stdout.trim_end().to_string();
    let json = env.json(&["--version"]);
    json.ok();
    let v: VersionAnswer = json.typed("a version answer");
    assert_eq!((v.ok, v.op.as_str()), (true, "version"));
    assert!(v.warnings.is_empty());
    assert_eq!(v.version, env!("CARGO_PKG_VERSION"));
    let expected = match (&v.commit, &v.date) {
        (Some(c), Some(d)) => format!("quill {} ({c} {d})", v.version),
        (Some(c), None) => format!("quill {} ({c})", v.version),
        _ => format!("quill {}", v.version),
    };
    assert_text("quill --version", &line, &expected);
    // Built from this git checkout: the commit is HEAD's (when git is here to say so).
    let root = env!("CARGO_MANIFEST_DIR");
    if let Ok(head) = std::process::Command::new("git")
        .args(["-C", root, "rev-parse", "--short", "HEAD"])
        .output()
        && head.status.success()
    {
        let head = String::from_utf8_lossy(&head.stdout).trim().to_string();
        let commit = v.commit.as_deref().unwrap_or("(none)");
        assert!(
            head.starts_with(commit) || commit.starts_with(&head),
            "--version says {commit}, HEAD is {head} (rebuild after a commit?)"
        );
        let date = v.date.expect("a commit date");
        assert!(date.len() == 10 && date.as_bytes()[4] == b'-', "{date}");
    }
    // After the subcommand too, and the JSON object is the only output.
    let out = env.text(&["read", "--version", "--json"]);
    out.ok();
    assert_one_json_object(&out.stdout);
}
