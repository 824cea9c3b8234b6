//! `quill grep PATTERN` with no PATH, spawned the ways harnesses spawn it
//! (docs/commands/grep.md, "Standard input"): a pipe closed empty, a pipe held open and
//! silent, a slow pipeline, a slow writer the parent holds, a file, `/dev/null`, `-`, and a
//! reader that closes the output pipe early. Nothing may hang, nothing may read bytes it does
//! not search, and nothing may answer "no match" without saying what was searched.

use std::io::Write;
use std::time::{Duration, Instant};

use crate::util::TestEnv;

/// The grace's variable: the test harness sets it to 10 s (`TestEnv::program`); the tests of
/// the default remove it.
const GRACE: &str = "QUILL_STDIN_GRACE";

/// A tree with the word in one file.
fn tree() -> TestEnv {
    let env = TestEnv::new();
    env.write("src/lib.rs", "fn main() {}\n// needle here\n");
    env
}

/// The warnings' kinds of a JSON answer.
fn warning_kinds(out: &crate::util::Out) -> Vec<String> {
    out.j("warnings")
        .as_array()
        .map(|w| {
            w.iter()
                .filter_map(|w| w["kind"].as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default()
}

#[test]
fn a_pipe_closed_empty_is_said_not_a_silent_no_match() {
    let env = tree();
    // Python's `subprocess.run(input=b"")`, Node's `execSync`: a pipe closed with nothing.
    let out = env.json_stdin(&["grep", "needle"], b"");
    out.found_nothing();
    assert_eq!(warning_kinds(&out), ["stdin_empty"], "{}", out.report());
    let message = out.j("warnings")[0]["message"].as_str().unwrap();
    assert!(
        message.contains("grep needle .`"),
        "the warning names the call that searches the directory: {message}"
    );
    // The directory was not searched behind the caller's back.
    assert_eq!(out.j("filesSearched"), 1, "{}", out.report());
    // Text: one line on stderr says it.
    let text = env.cmd(["grep", "needle"]).stdin("").run();
    text.exit(1);
    text.stderr_has("standard input was empty");
    text.stderr_has("quill grep needle .");
    // Named on purpose (`-`), an empty stdin is an ordinary empty search.
    let named = env.json_stdin(&["grep", "needle", "-"], b"");
    named.found_nothing();
    assert!(warning_kinds(&named).is_empty(), "{}", named.report());
}

#[test]
fn a_pipe_held_open_and_silent_is_not_waited_on() {
    let env = tree();
    // A harness that spawned quill with a pipe it never writes to and keeps open.
    let mut child = env
        .cmd(["--json", "grep", "needle"])
        .env_remove(GRACE)
        .stdin_pipe()
        .spawn();
    let stdin = child.take_stdin();
    let started = Instant::now();
    let out = child.wait_at_most(Duration::from_secs(20));
    eprintln!("answered in {:?} with stdin held open", started.elapsed());
    drop(stdin);
    out.ok();
    assert_eq!(warning_kinds(&out), ["stdin_silent"], "{}", out.report());
    let g = out.grep();
    let matches = g.matches.unwrap();
    assert_eq!(matches.len(), 1, "{}", out.report());
    assert!(matches[0].path.ends_with("src/lib.rs"), "{}", out.report());
    let message = out.j("warnings")[0]["message"].as_str().unwrap();
    assert!(message.contains("grep needle .`"), "{message}");
    assert!(message.contains("grep needle -`"), "{message}");
}

#[test]
fn a_persistent_shells_next_input_is_never_swallowed() {
    let env = tree();
    // A harness's persistent shell: quill inherits the shell's stdin, the harness's pipe. What
    // the harness sends next is the shell's, not quill's: it must still be there for `cat`.
    let mut child = env
        .program("sh")
        .args(["-c", "\"$Q\" grep needle; echo \"rc=$?\"; cat"])
        .env("Q", env!("CARGO_BIN_EXE_quill"))
        .env_remove(GRACE)
        .stdin_pipe()
        .spawn();
    let mut stdin = child.take_stdin();
    // Long after quill answered (its grace is 100 ms), the harness speaks.
    std::thread::sleep(Duration::from_millis(1500));
    stdin.write_all(b"next command\n").unwrap();
    drop(stdin);
    let out = child.wait_at_most(Duration::from_secs(20));
    out.ok();
    assert!(
        out.stdout.contains("src/lib.rs:2:// needle here"),
        "{}",
        out.report()
    );
    assert!(out.stdout.contains("rc=0"), "{}", out.report());
    assert!(
        out.stdout.ends_with("next command\n"),
        "the shell's next input reached the shell: {}",
        out.report()
    );
    out.stderr_has("sent nothing in 100 ms");
}

#[test]
fn a_slow_pipeline_is_searched_however_long_it_takes() {
    let env = tree();
    // `producer | quill grep x`: the shell made the pipe and holds no end of it, so quill
    // waits for the producer (here 1.5 s, far past the grace) and searches only stdin.
    let out = env
        .program("sh")
        .args([
            "-c",
            "(sleep 1.5; echo 'a needle from the pipe') | \"$Q\" grep needle",
        ])
        .env("Q", env!("CARGO_BIN_EXE_quill"))
        .env_remove(GRACE)
        .run();
    out.ok();
    assert_eq!(
        out.stdout,
        "<stdin>:1:a needle from the pipe\n",
        "{}",
        out.report()
    );
    assert!(out.stderr.is_empty(), "{}", out.report());
}

#[test]
fn a_writer_within_the_grace_is_searched_and_the_grace_can_be_set() {
    let env = tree();
    // Bytes right after the spawn: stdin.
    let out = env.json_stdin(&["grep", "needle"], b"the needle on stdin\n");
    out.ok();
    let g = out.grep();
    assert_eq!(g.matches.unwrap()[0].path, "<stdin>", "{}", out.report());
    // A parent that writes after 2 s (20 times the grace: a slow start on a loaded machine
    // cannot make the bytes come first): past the default grace the directory is searched...
    let late = |grace: Option<&str>| {
        let mut run = env
            .cmd(["--json", "grep", "needle"])
            .env_remove(GRACE)
            .stdin_pipe();
        if let Some(g) = grace {
            run = run.env(GRACE, g);
        }
        let mut child = run.spawn();
        let mut stdin = child.take_stdin();
        let writer = std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(2000));
            let _ = stdin.write_all(b"late needle\n");
        });
        let out = child.wait_at_most(Duration::from_secs(20));
        writer.join().unwrap();
        out
    };
    let out = late(None);
    out.ok();
    assert_eq!(warning_kinds(&out), ["stdin_silent"], "{}", out.report());
    // ...and with a longer grace, stdin.
    let out = late(Some("5000"));
    out.ok();
    let g = out.grep();
    assert_eq!(g.matches.unwrap()[0].path, "<stdin>", "{}", out.report());
    assert!(warning_kinds(&out).is_empty(), "{}", out.report());
    // A grace that is not a number of milliseconds is a usage error.
    env.cmd(["--json", "grep", "needle"])
        .env(GRACE, "soon")
        .stdin_pipe()
        .spawn()
        .wait_at_most(Duration::from_secs(20))
        .err("usage", 2);
}

#[test]
fn dash_waits_for_stdin_however_slow() {
    let env = tree();
    let mut child = env
        .cmd(["--json", "grep", "needle", "-"])
        .stdin_pipe()
        .spawn();
    let mut stdin = child.take_stdin();
    std::thread::sleep(Duration::from_millis(700));
    stdin.write_all(b"a late needle\n").unwrap();
    drop(stdin);
    let out = child.wait_at_most(Duration::from_secs(20));
    out.ok();
    let g = out.grep();
    let m = g.matches.unwrap();
    assert_eq!(m.len(), 1, "{}", out.report());
    assert_eq!(m[0].path, "<stdin>", "{}", out.report());
}

#[test]
fn a_file_and_dev_null_as_stdin() {
    let env = tree();
    env.write("input.txt", "needle in a file\n");
    let out = env.shell("quill grep needle < input.txt");
    out.ok();
    assert_eq!(
        out.stdout,
        "<stdin>:1:needle in a file\n",
        "{}",
        out.report()
    );
    // /dev/null is no input: the directory, without a word about stdin.
    let out = env.shell("quill grep needle < /dev/null");
    out.ok();
    assert!(out.stdout.contains("src/lib.rs:2:"), "{}", out.report());
    assert!(out.stdout.contains("input.txt:1:"), "{}", out.report());
    assert!(out.stderr.is_empty(), "{}", out.report());
    // A closed stdin likewise.
    let out = env.shell("quill grep needle <&-");
    out.ok();
    assert!(out.stdout.contains("src/lib.rs:2:"), "{}", out.report());
}

#[test]
fn a_reader_that_closes_the_pipe_early_is_not_no_match() {
    let env = TestEnv::new();
    // One file with many matches: the pipe closes in the middle of its output.
    let big: String = (0..200_000).map(|i| format!("x {i}\n")).collect();
    env.write("big.txt", &big);
    for args in [
        "x --limit 0 .",
        "x --limit 0 big.txt",
        "x --limit 0 -C1 .",
        "x --limit 0 -l .",
        "x --limit 0 --json .",
        "x",
    ] {
        let out = env
            .program("bash")
            .args([
                "-c",
                &format!(
                    "set -o pipefail; \"$Q\" grep {args} | head -n 1 >/dev/null; echo \"rc=$?\""
                ),
            ])
            .env("Q", env!("CARGO_BIN_EXE_quill"))
            .run();
        out.ok();
        assert_eq!(out.stdout, "rc=0\n", "grep {args}: {}", out.report());
    }
    let out = env
        .program("bash")
        .args([
            "-c",
            "set -o pipefail; \"$Q\" glob '**' --limit 0 | head -n 0; echo \"rc=$?\"",
        ])
        .env("Q", env!("CARGO_BIN_EXE_quill"))
        .run();
    assert_eq!(out.stdout, "rc=0\n", "glob: {}", out.report());
}
