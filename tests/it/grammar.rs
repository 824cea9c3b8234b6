//! A command line that behaves like rg: grep's flags (an unknown one is a usage error, never
//! the pattern; GNU grep's flags without a quill meaning teach the fix; `-e`, `-l`, `-c`, `-v`,
//! `-o`, `-m`, `-x`, `-H`, `--no-filename`), standard input for grep and read, and several
//! PATHs with one missing.

use crate::util::*;

fn fixture() -> TestEnv {
    let env = TestEnv::new();
    env.write("a.txt", "foo -l bar\nTODO one\nfoo foo\n");
    env.write("b.txt", "nothing here\nfoo\n");
    env.write("src/c.rs", "// TODO two\nlet x = 1;\n");
    env
}

fn abs(env: &TestEnv, rel: &str) -> String {
    env.path(rel).display().to_string()
}

/// A GNU grep flag quill has no meaning for: `usage` (exit 2), in JSON one error object
/// whose message names the flag and whose hint is the fix, in text the same on stderr.
#[track_caller]
fn teaches(env: &TestEnv, args: &[&str], flag: &str, fix: &str) {
    let mut all = vec!["grep"];
    all.extend_from_slice(args);
    let out = env.json(&all);
    let f = out.err("usage", 2).failure();
    out.check(
        f.error.message.contains(&format!("has no {flag}")),
        format!("the message names {flag}"),
    );
    out.check(
        f.error.hint.as_deref().is_some_and(|h| h.contains(fix)),
        format!("the hint says {fix:?}"),
    );
    let out = env.text(&all);
    out.exit(2)
        .check(out.stdout.is_empty(), "nothing on stdout")
        .stderr_has(&format!("has no {flag}"))
        .stderr_has(&format!("hint: {fix}"));
}

/// The habits agents bring from GNU grep that mean what quill does anyway: `-r`/`-R`
/// (recursion is the default), `-n` (line numbers are), `-E` (the pattern is an extended
/// regex): the same answer as without them.
#[test]
fn gnu_habits_just_work() {
    let env = fixture();
    let plain = env.text(&["grep", "TODO", "."]);
    plain.ok();
    for args in [
        &["-rn", "TODO", "."][..],
        &["-r", "TODO", "."],
        &["-R", "TODO", "."],
        &["--recursive", "TODO", "."],
        &["-rnE", "TODO", "."],
        &["-n", "-R", "TODO", "."],
    ] {
        let mut all = vec!["grep"];
        all.extend_from_slice(args);
        let out = env.text(&all);
        out.ok();
        assert_eq!(out.stdout, plain.stdout, "{}", out.report());
    }
    let alt = env.json(&["grep", "-rE", "TODO|FIXME", "."]);
    alt.ok();
    // -r alone still needs a pattern.
    env.json(&["grep", "-r"]).err("usage", 2);
}

#[test]
fn gnu_flags_teach_the_fix() {
    let env = fixture();
    teaches(&env, &["-P", "(?<=a)b"], "-P", "drop -P");
    teaches(
        &env,
        &["--include=*.ts", "foo"],
        "--include",
        "use --glob '*.ts'",
    );
    teaches(
        &env,
        &["--include", "main.rs", "foo"],
        "--include",
        "use --glob main.rs",
    );
    teaches(
        &env,
        &["--exclude=*.ts", "foo"],
        "--exclude",
        "use --glob '!*.ts'",
    );
    teaches(
        &env,
        &["--exclude-dir=node_modules", "foo"],
        "--exclude-dir",
        "use --glob '!node_modules/'",
    );
}

#[test]
fn an_unknown_flag_is_a_usage_error_not_the_pattern() {
    let env = fixture();
    for flag in ["-q", "--files-without-match", "-I", "-Z", "--foo=bar"] {
        let out = env.json(&["grep", flag, "foo", "."]);
        let f = out.err("usage", 2).failure();
        out.check(
            f.error.message.contains(flag.split('=').next().unwrap()),
            "the message names the flag",
        );
        env.text(&["grep", flag, "foo", "."])
            .exit(2)
            .stderr_has("unexpected argument");
    }
    // A dashed pattern needs -e or `--`: without, a usage error saying so, never a search.
    let out = env.text(&["grep", "-foo", "a.txt"]);
    out.exit(2)
        .stderr_has("unexpected argument")
        .check(out.stdout.is_empty(), "nothing searched");
    env.json(&["grep", "-nope", "a.txt"]).err("usage", 2);
}

#[test]
fn dashed_patterns_with_e_or_double_dash() {
    let env = fixture();
    let a = abs(&env, "a.txt");
    let g = env.json(&["grep", "--", "-l", "a.txt"]).ok().grep();
    assert_eq!(g.total, 1);
    assert_eq!(g.matches()[0].text, "foo -l bar");
    // -e takes a value starting with `-`; then the first positional is a PATH.
    let g = env.json(&["grep", "-e", "-l", "a.txt"]).ok().grep();
    assert_eq!(g.total, 1);
    assert_eq!(g.matches()[0].path, a);
    // Repeated -e: lines matching any of them, in line order.
    let g = env
        .json(&["grep", "-e", "-l", "--regexp", "TODO", "a.txt", "src"])
        .ok()
        .grep();
    let got: Vec<(String, u64)> = g
        .matches()
        .iter()
        .map(|m| (m.path.clone(), m.line))
        .collect();
    assert_eq!(
        got,
        [(a.clone(), 1), (a, 2), (abs(&env, "src/c.rs"), 1)],
        "{got:?}"
    );
    env.text(&["grep", "-e", "-l", "-e", "TODO", "a.txt"])
        .ok()
        .assert_stdout("a.txt:1:foo -l bar\na.txt:2:TODO one\n");
    // A bad one of several is named.
    let out = env.json(&["grep", "-e", "ok", "-e", "a(b", "a.txt"]);
    let f = out.err("invalid_pattern", 2).failure();
    out.check(f.error.message.contains("\"a(b\""), "names the bad -e");
    assert_eq!(f.error.field("position"), 2);
}

#[test]
fn short_flags_like_rg() {
    let env = fixture();
    // -l / --files-with-matches = --mode files.
    for l in ["-l", "--files-with-matches"] {
        let g = env.json(&["grep", l, "foo"]).ok().grep();
        assert_eq!(g.mode, "files");
        assert_eq!(g.files(), [abs(&env, "a.txt"), abs(&env, "b.txt")]);
    }
    env.text(&["grep", "-l", "TODO"])
        .ok()
        .assert_stdout("a.txt\nsrc/c.rs\n");
    env.json(&["grep", "-l", "--mode", "count", "foo"])
        .err("usage", 2);
    // -c / --count = --mode count (lines); with -o, matches (like rg).
    let g = env.json(&["grep", "-c", "foo"]).ok().grep();
    assert_eq!(g.mode, "count");
    let counts: Vec<u64> = g.counts.as_ref().unwrap().iter().map(|c| c.count).collect();
    assert_eq!(counts, [2, 1]);
    env.text(&["grep", "--count", "-o", "foo", "a.txt"])
        .ok()
        .assert_stdout("a.txt:3\n");
    // -v: the lines that do not match.
    let g = env.json(&["grep", "-v", "foo", "a.txt"]).ok().grep();
    let lines: Vec<u64> = g.matches().iter().map(|m| m.line).collect();
    assert_eq!(lines, [2]);
    env.text(&["grep", "--invert-match", "-c", "foo", "a.txt", "b.txt"])
        .ok()
        .assert_stdout("a.txt:1\nb.txt:1\n");
    // -o: the matched part only, one entry per match, its column where it starts.
    let g = env.json(&["grep", "-o", "fo+", "a.txt"]).ok().grep();
    let parts: Vec<(u64, u64, &str)> = g
        .matches()
        .iter()
        .map(|m| (m.line, m.column, m.text.as_str()))
        .collect();
    assert_eq!(parts, [(1, 1, "foo"), (3, 1, "foo"), (3, 5, "foo")]);
    assert_eq!(g.total, 3);
    env.text(&["grep", "--only-matching", "-e", "-l", "-e", "TODO", "a.txt"])
        .ok()
        .assert_stdout("a.txt:1:-l\na.txt:2:TODO\n");
    // Paged output (the page keeps the lines) says the same.
    env.text(&["grep", "-o", "foo", "a.txt", "--limit", "2"])
        .ok()
        .assert_stdout("a.txt:1:foo\na.txt:3:foo\n");
    env.json(&["grep", "-o", "-v", "foo"]).err("usage", 2);
    env.json(&["grep", "-o", "-C", "1", "foo"]).err("usage", 2);
    // -m NUM: at most NUM matching lines per file.
    let g = env.json(&["grep", "-m", "1", "foo"]).ok().grep();
    let got: Vec<(String, u64)> = g
        .matches()
        .iter()
        .map(|m| (m.path.clone(), m.line))
        .collect();
    assert_eq!(got, [(abs(&env, "a.txt"), 1), (abs(&env, "b.txt"), 2)]);
    env.text(&["grep", "--max-count=1", "-c", "foo", "a.txt"])
        .ok()
        .assert_stdout("a.txt:1\n");
    env.json(&["grep", "-m", "0", "foo"]).found_nothing();
    // -x: whole lines only.
    env.text(&["grep", "-x", "foo", "a.txt", "b.txt"])
        .ok()
        .assert_stdout("b.txt:2:foo\n");
    // -H is what quill always does; --no-filename drops the paths (content and count).
    env.text(&["grep", "-H", "TODO", "a.txt"])
        .ok()
        .assert_stdout("a.txt:2:TODO one\n");
    env.text(&["grep", "--no-filename", "TODO"])
        .ok()
        .assert_stdout("2:TODO one\n1:// TODO two\n");
    env.text(&["grep", "--no-filename", "--heading", "-N", "TODO", "a.txt"])
        .ok()
        .assert_stdout("TODO one\n");
    env.text(&["grep", "--no-filename", "-c", "foo"])
        .ok()
        .assert_stdout("2\n1\n");
    env.text(&["grep", "--no-filename", "-H", "TODO", "a.txt"])
        .ok()
        .assert_stdout("a.txt:2:TODO one\n");
}

#[test]
fn grep_reads_a_pipe_but_not_dev_null() {
    let env = fixture();
    // No PATH, stdin a pipe: stdin is searched (not the directory).
    let out = env.cmd(["grep", "foo"]).stdin("x foo\ny\nfoo z\n").run();
    out.ok().assert_stdout("<stdin>:1:x foo\n<stdin>:3:foo z\n");
    let g = env
        .json_stdin(&["grep", "-c", "foo"], b"foo\nfoo\n")
        .ok()
        .grep();
    assert_eq!(g.counts.as_ref().unwrap()[0].path, "<stdin>");
    assert_eq!(g.counts.as_ref().unwrap()[0].count, 2);
    assert_eq!(g.files_searched, 1);
    env.json_stdin(&["grep", "absent"], b"foo\n")
        .found_nothing();
    // stdin /dev/null (the harness's default): the current directory, as rg.
    let g = env.json(&["grep", "TODO", "--mode", "files"]).ok().grep();
    assert_eq!(g.files(), [abs(&env, "a.txt"), abs(&env, "src/c.rs")]);
    // stdin a regular file: searched.
    env.write("input.log", "TODO from a file\n");
    env.cmd(["grep", "TODO"])
        .wrapped(["sh", "-c", "exec \"$0\" \"$@\" < input.log"])
        .run()
        .ok()
        .assert_stdout("<stdin>:1:TODO from a file\n");
    // `-` names stdin explicitly, also among files (stdin sorts after absolute paths).
    env.cmd(["grep", "TODO", "-", "a.txt"])
        .stdin("TODO piped\n")
        .run()
        .ok()
        .assert_stdout("a.txt:2:TODO one\n<stdin>:1:TODO piped\n");
    // A PATH given: the pipe is not read.
    env.cmd(["grep", "foo", "b.txt"])
        .stdin("foo piped\n")
        .run()
        .ok()
        .assert_stdout("b.txt:2:foo\n");
}

#[test]
fn read_dash_reads_a_pipe_as_a_page_without_baseline() {
    let env = fixture();
    let input: String = (1..=5000).map(|i| format!("line {i}\n")).collect();
    for name in ["-", "/dev/stdin"] {
        let r = env
            .json_stdin(
                &["read", name, "--offset", "3", "--limit", "2"],
                input.as_bytes(),
            )
            .ok()
            .read();
        assert_eq!(r.path, "<stdin>");
        assert_eq!(r.content, "line 3\nline 4\n");
        assert_eq!(r.total_lines, 5000);
        assert_eq!(r.next_offset, Some(5));
        assert_eq!(r.size, input.len() as u64);
        assert_eq!(
            r.sha256.as_deref(),
            Some(sha256_hex(input.as_bytes()).as_str())
        );
        assert!(r.file_access.is_none(), "nothing to guard: no fileAccess");
    }
    env.cmd(["read", "-"])
        .stdin("a\nb\n")
        .run()
        .ok()
        .stdout_has("1\ta\n")
        .stdout_has("2\tb\n");
    // Nothing recorded in the session.
    let st = env.json(&["state"]).ok().state();
    assert!(st.baselines().is_empty(), "{:?}", st.baselines());
    env.json_stdin(&["read", "-", "--offset", "9"], b"one\n")
        .err("offset_past_end", 1);
    env.json_stdin(&["read", "-"], b"a\0b")
        .err("binary_file", 3);
}

#[test]
fn several_paths_one_missing_results_and_exit_2() {
    let env = fixture();
    // Text: the results on stdout, the missing path as an error line on stderr, exit 2.
    let out = env.text(&["grep", "TODO", "a.txt", "nope.txt", "src"]);
    out.exit(2)
        .assert_stdout("a.txt:2:TODO one\nsrc/c.rs:1:// TODO two\n")
        .stderr_has("quill: error: ")
        .stderr_has("nope.txt does not exist")
        .check(
            !out.stderr.contains("warning"),
            "an error line, not a warning",
        );
    // JSON: ok with the results, the missing PATHs listed and warned about, exit 2.
    let out = env.json(&["grep", "TODO", "a.txt", "nope.txt", "src"]);
    out.exit(2);
    let g = out.grep();
    assert!(g.ok);
    assert_eq!(g.total, 2);
    assert_eq!(g.missing_paths, [abs(&env, "nope.txt")]);
    assert_eq!(g.warnings.len(), 1);
    assert!(
        g.warnings[0].says("path_not_found", "nope.txt does not exist"),
        "{:?}",
        g.warnings
    );
    // Nothing found in the others: still 2 (the error wins, as rg).
    env.json(&["grep", "absent", "a.txt", "nope.txt"]).exit(2);
    // Every PATH missing: not_found; all PATHs present: no missingPaths.
    env.json(&["grep", "TODO", "nope.txt", "gone.txt"])
        .err("not_found", 4);
    let g = env.json(&["grep", "TODO", "a.txt", "src"]).ok().grep();
    assert!(g.missing_paths.is_empty());
}
