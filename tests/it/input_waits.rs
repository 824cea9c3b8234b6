//! Every wait for input can be interrupted (docs/json.md): whatever input quill is waiting for —
//! a FIFO nobody has opened yet, a FIFO or pipe whose writer stays silent, stdin — Ctrl-C and
//! SIGTERM end the wait at once: the `interrupted` answer, then death by the signal, the target
//! untouched and no temporary file left. And an endless input is refused at its cap instead of
//! filling memory; a device is refused without being opened.

use std::fs::{self, File, OpenOptions};
use std::os::unix::fs::OpenOptionsExt;
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::path::Path;
use std::process::{ChildStdin, Command, Stdio};
use std::time::Duration;

use crate::util::*;

fn mkfifo(path: &Path) {
    let ok = Command::new("mkfifo").arg(path).status().unwrap().success();
    assert!(ok, "mkfifo {}", path.display());
}

/// Whether the process `pid` runs quill and every one of its threads sleeps, three samples in
/// a row (20 ms apart): it waits for something. Polled for at most 10 s.
fn blocked(child: &Running) -> bool {
    let pid = child.id();
    let bin = fs::canonicalize(BIN).unwrap();
    let asleep = || -> bool {
        if fs::read_link(format!("/proc/{pid}/exe")).ok().as_ref() != Some(&bin) {
            return false; // not exec'd yet
        }
        let Ok(tasks) = fs::read_dir(format!("/proc/{pid}/task")) else {
            return false;
        };
        let mut any = false;
        for t in tasks.flatten() {
            let stat = fs::read_to_string(t.path().join("stat")).unwrap_or_default();
            // The state follows the command name, which is in parentheses.
            match stat
                .rsplit_once(") ")
                .and_then(|(_, rest)| rest.chars().next())
            {
                Some('S') => any = true,
                _ => return false,
            }
        }
        any
    };
    let mut streak = 0;
    wait_until(Duration::from_secs(10), || {
        streak = if asleep() { streak + 1 } else { 0 };
        if streak < 3 {
            std::thread::sleep(Duration::from_millis(15));
        }
        streak >= 3
    })
}

/// What the input of a case is fed by, held by the test while quill waits.
enum Feed {
    /// Nothing: the FIFO `fifo` has no writer yet (quill waits in the open, or for a writer).
    NoWriter,
    /// The FIFO `fifo` is held open for writing by the test, which never writes.
    SilentWriter,
    /// Stdin is a pipe held open by the test, which never writes.
    SilentStdin,
}

/// Start `quill [--json] ARGS` (`HASH` stands for `f.txt`'s SHA-256) fed as `feed`, wait until
/// it blocks, send `sig`, and check that it dies by `sig` within 2 s having printed the
/// `interrupted` answer, with `f.txt` as it was and no temporary file.
fn interrupt_while_waiting(args: &[&str], feed: Feed, sig: i32, json: bool) {
    let env = TestEnv::new();
    env.write("f.txt", "old\n");
    mkfifo(&env.path("fifo"));
    let hash = sha256_hex(b"old\n");
    let args: Vec<&str> = args
        .iter()
        .map(|a| if *a == "HASH" { hash.as_str() } else { a })
        .collect();
    let mut run = env
        .cmd(if json { &["--json"][..] } else { &[][..] })
        .args(&args);
    // The feed, held open (and silent) until quill has answered.
    let mut writer: Option<File> = None;
    let mut stdin: Option<ChildStdin> = None;
    match feed {
        Feed::NoWriter => {}
        Feed::SilentWriter => {
            // Read-write: a writer that never blocks this test in its open.
            let w = OpenOptions::new()
                .read(true)
                .write(true)
                .custom_flags(libc::O_NONBLOCK)
                .open(env.path("fifo"))
                .unwrap();
            writer = Some(w);
        }
        Feed::SilentStdin => run = run.stdin_pipe(),
    }
    let mut child = run.spawn();
    if matches!(feed, Feed::SilentStdin) {
        stdin = Some(child.take_stdin());
    }
    if !blocked(&child) {
        child.fail("quill never waited for its input");
    }
    child.signal(sig);
    let out = child.wait_at_most(Duration::from_secs(2));
    drop((writer, stdin));
    if json {
        out.interrupted_by(sig);
    } else {
        out.check(out.signal == Some(sig), format!("death by signal {sig}"))
            .stderr_has("interrupted");
    }
    env.assert_file("f.txt", "old\n");
    assert!(quill_temps(&env.dir).is_empty(), "a temporary file is left");
}

/// Every input case, each with SIGINT and SIGTERM, in JSON mode.
fn both_signals(args: &[&str], feed: fn() -> Feed) {
    for sig in [libc::SIGINT, libc::SIGTERM] {
        interrupt_while_waiting(args, feed(), sig, true);
    }
}

const WRITE: [&str; 4] = ["write", "f.txt", "--expect-sha256", "HASH"];
const EDIT: [&str; 4] = ["edit", "f.txt", "--expect-sha256", "HASH"];

fn with(base: [&'static str; 4], more: &[&'static str]) -> Vec<&'static str> {
    let mut v = base.to_vec();
    v.extend_from_slice(more);
    v
}

#[test]
fn write_from_a_fifo_nobody_opened() {
    both_signals(&with(WRITE, &["--from", "fifo"]), || Feed::NoWriter);
}

#[test]
fn write_from_a_silent_fifo() {
    both_signals(&with(WRITE, &["--from", "fifo"]), || Feed::SilentWriter);
}

#[test]
fn write_from_dev_stdin_on_a_silent_pipe() {
    both_signals(&with(WRITE, &["--from", "/dev/stdin"]), || {
        Feed::SilentStdin
    });
}

#[test]
fn write_from_stdin_on_a_silent_pipe() {
    both_signals(&with(WRITE, &["--from", "-"]), || Feed::SilentStdin);
}

#[test]
fn edit_old_file_a_fifo_nobody_opened() {
    both_signals(&with(EDIT, &["--old-file", "fifo", "--new", "x"]), || {
        Feed::NoWriter
    });
}

#[test]
fn edit_new_file_a_silent_fifo() {
    both_signals(&with(EDIT, &["--old", "old", "--new-file", "fifo"]), || {
        Feed::SilentWriter
    });
}

#[test]
fn edit_old_file_dev_stdin_on_a_silent_pipe() {
    both_signals(
        &with(EDIT, &["--old-file", "/dev/stdin", "--new", "x"]),
        || Feed::SilentStdin,
    );
}

#[test]
fn edit_edits_from_a_silent_stdin() {
    both_signals(&with(EDIT, &["--edits", "-"]), || Feed::SilentStdin);
}

#[test]
fn edit_edits_from_a_fifo_nobody_opened() {
    both_signals(&with(EDIT, &["--edits", "fifo"]), || Feed::NoWriter);
}

/// In text mode too: the message on stderr, then death by the signal.
#[test]
fn text_mode_dies_by_the_signal_too() {
    interrupt_while_waiting(
        &with(WRITE, &["--from", "fifo"]),
        Feed::NoWriter,
        libc::SIGINT,
        false,
    );
    interrupt_while_waiting(
        &with(EDIT, &["--edits", "-"]),
        Feed::SilentStdin,
        libc::SIGINT,
        false,
    );
}

/// `producer | quill edit --edits -` in a shell loop, Ctrl-C: the terminal's SIGINT kills the
/// producer too, so quill may see the end of a half-sent input before it sees the signal.
/// That half input is never used: quill answers `interrupted`, dies by SIGINT, and the loop
/// stops (before, the half JSON was `invalid_argument`, exit 2, and the loop went on).
#[test]
fn a_producer_killed_by_the_same_ctrl_c_is_not_half_read() {
    let env = TestEnv::new();
    for i in 1..=2 {
        env.write(&format!("f{i}.txt"), "old\n");
    }
    let script = r#"
        for i in 1 2; do
            { printf '[{"old":"old","new":'; sleep 100; } | "$Q" --json edit "f$i.txt" --expect-sha256 "$H" --edits - >"out$i.json"
            echo "after $i: $?" >> log
        done
    "#;
    let mut child = Command::new("bash")
        .args(["-c", script])
        .current_dir(&env.dir)
        .env_clear()
        .env("PATH", std::env::var_os("PATH").unwrap_or_default())
        .env("Q", BIN)
        .env("H", sha256_hex(b"old\n"))
        .env("QUILL_STATE_DIR", &env.state)
        .stdin(Stdio::null())
        .process_group(0)
        .spawn()
        .unwrap();
    let pgid = child.id() as i32;
    // quill runs (its answer file exists) and waits: give it a moment to read what was sent.
    let started = wait_until(Duration::from_secs(10), || exists(&env.path("out1.json")));
    std::thread::sleep(Duration::from_millis(200));
    if !started {
        unsafe { libc::kill(-pgid, libc::SIGKILL) };
        let _ = child.wait();
        panic!("quill never started");
    }
    let status = ctrl_c_the_group(&mut child, pgid);
    let log = fs::read_to_string(env.path("log")).unwrap_or_default();
    let answer = fs::read_to_string(env.path("out1.json")).unwrap();
    assert!(
        status.signal() == Some(libc::SIGINT) || status.code() == Some(130),
        "the shell stops as if interrupted: {status:?}, log {log:?}, answer {answer}"
    );
    assert!(!exists(&env.path("out2.json")), "log: {log:?}");
    assert!(answer.contains(r#""kind":"interrupted""#), "{answer}");
    for i in 1..=2 {
        env.assert_file(&format!("f{i}.txt"), "old\n");
    }
}

/// An endless input — a pipe or FIFO that never ends — is read up to the cap
/// (`--max-file-bytes`) and refused as `file_too_large`, in memory bounded by the cap; a
/// device such as `/dev/zero` is refused without being opened.
#[test]
fn endless_inputs_end_at_the_cap() {
    const CAP: u64 = 8 << 20;
    let cap = CAP.to_string();
    let env = TestEnv::new();
    env.write("f.txt", "old\n");
    mkfifo(&env.path("fifo"));
    let hash = sha256_hex(b"old\n");
    let edit = |more: &[&str]| -> Vec<String> {
        let mut v: Vec<String> = ["--json", "edit", "f.txt", "--expect-sha256", &hash]
            .iter()
            .map(|s| s.to_string())
            .collect();
        v.extend(more.iter().map(|s| s.to_string()));
        v.extend(["--max-file-bytes".to_string(), cap.clone()]);
        v
    };
    // `yes` feeds the input: stdin, or the FIFO (its open waits for quill's).
    let cases: [(&str, Vec<String>); 4] = [
        ("yes | exec \"$0\" \"$@\"", edit(&["--edits", "-"])),
        (
            "yes | exec \"$0\" \"$@\"",
            edit(&["--old-file", "/dev/stdin", "--new", "x"]),
        ),
        (
            "yes > fifo & exec \"$0\" \"$@\"",
            edit(&["--old", "old", "--new-file", "fifo"]),
        ),
        (
            "yes > fifo & exec \"$0\" \"$@\"",
            edit(&["--old-file", "fifo", "--new", "x"]),
        ),
    ];
    for (feeder, args) in cases {
        let (out, peak_kib) = env
            .cmd(&args)
            .wrapped(["sh", "-c", feeder])
            .spawn()
            .wait_peak_rss();
        out.err("file_too_large", 3);
        assert_eq!(out.j("error")["limit"], CAP, "{args:?}");
        assert!(
            peak_kib < 4 * (CAP >> 10) + 32 * 1024,
            "{args:?}: peak RSS {peak_kib} KiB for a cap of {CAP} bytes"
        );
        env.assert_file("f.txt", "old\n");
    }
    for args in [
        edit(&["--old-file", "/dev/zero", "--new", "x"]),
        edit(&["--edits", "/dev/zero"]),
    ] {
        env.cmd(&args).run().err("irregular_file", 3);
    }
    env.json(&[
        "write",
        "f.txt",
        "--expect-sha256",
        &hash,
        "--from",
        "/dev/zero",
    ])
    .err("irregular_file", 3);
    env.assert_file("f.txt", "old\n");
    assert!(quill_temps(&env.dir).is_empty());
}
