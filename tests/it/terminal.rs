//! The command line as a terminal user and a script see it (rg, fd and git's conventions):
//! color decided by the terminal, `TERM`, `NO_COLOR`, `CLICOLOR`, `CLICOLOR_FORCE` and
//! `--color` (runs under a pseudo-terminal through util-linux `script` where it matters);
//! glob's paths colored from `LS_COLORS`; whole results for scripts (`QUILL_LIMIT`, `--all`)
//! and a truncation note they cannot miss; paths printed as typed; transfer's summary and
//! progress for people and harnesses.

use std::fs;

use crate::util::*;

const ESC: &str = "\x1b[";

/// `quill args…` under a pseudo-terminal (stdout and stderr both the pty, merged), with
/// `TERM=xterm` unless `vars` sets it.
fn on_tty(env: &TestEnv, args: &[&str], vars: &[(&str, &str)]) -> Out {
    require("script", "util-linux");
    let mut line = shell_quote(BIN);
    for a in args {
        line.push(' ');
        line.push_str(&shell_quote(a));
    }
    let mut run = env
        .program("script")
        .args(["-qec", &line, "/dev/null"])
        .env("TERM", "xterm");
    for (k, v) in vars {
        run = run.env(k, v);
    }
    run.run()
}

fn shell_quote(s: &str) -> String {
    format!("'{}'", s.replace('\'', r"'\''"))
}

fn fixture() -> TestEnv {
    let env = TestEnv::new();
    env.write("src/a.rs", "fn a() { todo!() }\n");
    env.write("src/b.rs", "fn b() { todo!() }\n");
    env.write("notes.txt", "todo: colors\n");
    env
}

#[test]
fn color_on_a_terminal_unless_term_dumb_no_color_or_clicolor_0() {
    let env = fixture();
    let colored = on_tty(&env, &["grep", "todo", "src"], &[]);
    colored.ok().stdout_has(ESC).stdout_has("todo");
    for (k, v) in [("TERM", "dumb"), ("NO_COLOR", "1"), ("CLICOLOR", "0")] {
        let out = on_tty(&env, &["grep", "todo", "src"], &[(k, v)]);
        out.ok()
            .stdout_has("todo")
            .check(!out.stdout.contains(ESC), format!("no color with {k}={v}"));
    }
    // An empty NO_COLOR is unset (no-color.org).
    on_tty(&env, &["grep", "todo", "src"], &[("NO_COLOR", "")])
        .ok()
        .stdout_has(ESC);
    // The flag beats the environment.
    on_tty(
        &env,
        &["--color", "always", "grep", "todo", "src"],
        &[("NO_COLOR", "1")],
    )
    .ok()
    .stdout_has(ESC);
    let never = on_tty(&env, &["--color", "never", "grep", "todo", "src"], &[]);
    never
        .ok()
        .check(!never.stdout.contains(ESC), "no color with --color never");
}

#[test]
fn clicolor_force_colors_without_a_terminal() {
    let env = fixture();
    let piped = env.text(&["grep", "todo", "src"]);
    piped
        .ok()
        .check(!piped.stdout.contains(ESC), "no color into a pipe");
    env.cmd(["grep", "todo", "src"])
        .env("CLICOLOR_FORCE", "1")
        .run()
        .ok()
        .stdout_has(ESC);
    for (k, v, args) in [
        ("CLICOLOR_FORCE", "0", vec!["grep", "todo", "src"]),
        ("CLICOLOR_FORCE", "", vec!["grep", "todo", "src"]),
        (
            "CLICOLOR_FORCE",
            "1",
            vec!["--color", "never", "grep", "todo", "src"],
        ),
    ] {
        let out = env.cmd(&args).env(k, v).env("NO_COLOR", "").run();
        out.ok().check(
            !out.stdout.contains(ESC),
            format!("no color with {k}={v:?} {args:?}"),
        );
    }
    // NO_COLOR wins over CLICOLOR_FORCE (as anstream decides).
    let out = env
        .cmd(["grep", "todo", "src"])
        .env("CLICOLOR_FORCE", "1")
        .env("NO_COLOR", "1")
        .run();
    out.ok().check(!out.stdout.contains(ESC), "NO_COLOR wins");
}

#[test]
fn glob_colors_paths_from_ls_colors_like_fd() {
    let env = TestEnv::new();
    env.write("sub/a.c", "x\n");
    let out = env
        .cmd(["glob", "**/*.c"])
        .env("CLICOLOR_FORCE", "1")
        .env("LS_COLORS", "di=4:*.c=38;5;208")
        .run();
    // The directory part in the directory style, the name in its extension's.
    out.ok()
        .assert_stdout("\x1b[4msub/\x1b[0m\x1b[38;5;208ma.c\x1b[0m\n");
    // No LS_COLORS: the dircolors defaults (directories bold blue); a plain file is plain.
    env.cmd(["glob", "**/*.c"])
        .env("CLICOLOR_FORCE", "1")
        .run()
        .ok()
        .assert_stdout("\x1b[1m\x1b[34msub/\x1b[0ma.c\n");
    // Executables and links by their kind.
    let exe = env.write("run.sh", "#!/bin/sh\n");
    use std::os::unix::fs::PermissionsExt;
    fs::set_permissions(&exe, fs::Permissions::from_mode(0o755)).unwrap();
    env.cmd(["glob", "*.sh"])
        .env("CLICOLOR_FORCE", "1")
        .env("LS_COLORS", "ex=01;32")
        .run()
        .ok()
        .assert_stdout("\x1b[1m\x1b[32mrun.sh\x1b[0m\n");
    // Under a terminal too; and plain into a pipe.
    on_tty(&env, &["glob", "**/*.c"], &[("LS_COLORS", "*.c=31")])
        .ok()
        .stdout_has("\x1b[31ma.c\x1b[0m");
    env.text(&["glob", "**/*.c"])
        .ok()
        .assert_stdout("sub/a.c\n");
}

fn many(env: &TestEnv, n: usize) {
    for i in 0..n {
        env.write(&format!("f{i:03}.c"), "int x;\n");
    }
}

#[test]
fn quill_limit_and_all_give_scripts_everything() {
    let env = TestEnv::new();
    many(&env, 120);
    let lines = |out: &Out| out.stdout.lines().count();
    // The bounded default, with a note a script's author cannot miss.
    let capped = env.text(&["glob", "*.c", "--sort", "path"]);
    capped
        .ok()
        .check(lines(&capped) == 100, "glob's default limit is 100")
        .stderr_has("quill: warning: output incomplete: 1-100 of 120 files")
        .stderr_has("all of them: --all (or QUILL_LIMIT=0)")
        .stderr_has("next page: --offset 100");
    for run in [
        env.cmd(["glob", "*.c"]).env("QUILL_LIMIT", "0"),
        env.cmd(["glob", "*.c", "--all"]),
        env.cmd(["glob", "*.c", "--limit", "0"]),
    ] {
        let out = run.run();
        out.ok()
            .check(lines(&out) == 120, "every file")
            .assert_stderr("");
    }
    let three = env.cmd(["glob", "*.c"]).env("QUILL_LIMIT", "3").run();
    three.ok().check(lines(&three) == 3, "QUILL_LIMIT=3");
    // An explicit --limit wins over QUILL_LIMIT; --all and --limit conflict.
    let one = env
        .cmd(["glob", "*.c", "--limit", "1"])
        .env("QUILL_LIMIT", "0")
        .run();
    one.ok()
        .check(lines(&one) == 1, "--limit beats QUILL_LIMIT");
    env.text(&["glob", "*.c", "--all", "--limit", "1"]).exit(2);
    env.cmd(["glob", "*.c"])
        .env("QUILL_LIMIT", "lots")
        .run()
        .exit(2)
        .stderr_has("QUILL_LIMIT");
    // An empty QUILL_LIMIT is unset.
    let unset = env.cmd(["glob", "*.c"]).env("QUILL_LIMIT", "").run();
    unset.ok().check(lines(&unset) == 100, "empty = unset");
    // grep: 200 by default, the same switches.
    for i in 0..3 {
        env.write(&format!("g{i}.txt"), "hit\n".repeat(100));
    }
    let g = env.text(&["grep", "hit", "--no-heading"]);
    g.ok()
        .check(lines(&g) == 200, "grep's default limit is 200")
        .stderr_has("1-200 of 300 matches")
        .stderr_has("--all");
    let all = env.cmd(["grep", "hit"]).env("QUILL_LIMIT", "0").run();
    all.ok()
        .check(lines(&all) == 300, "QUILL_LIMIT=0")
        .assert_stderr("");
    let all = env.text(&["grep", "hit", "--all"]);
    all.ok()
        .check(lines(&all) == 300, "--all")
        .assert_stderr("");
    // JSON: the same limits, the note is the answer's `truncated`.
    let j = env
        .cmd(["--json", "glob", "*.c"])
        .env("QUILL_LIMIT", "0")
        .run();
    j.ok();
    assert_eq!(j.glob().files.len(), 120);
    // QUILL_LIMIT does not touch read's --limit (lines of a page).
    env.write("long.txt", "l\n".repeat(3000));
    let r = env.cmd(["read", "long.txt"]).env("QUILL_LIMIT", "5").run();
    r.ok().check(lines(&r) > 5, "read keeps its own limit");
}

#[test]
fn the_truncation_note_on_a_terminal_is_short() {
    let env = TestEnv::new();
    many(&env, 5);
    on_tty(&env, &["glob", "*.c", "--limit", "2"], &[])
        .ok()
        .stdout_has("quill: showing 1-2 of 5 files; next page: --offset 2; all: --all");
}

#[test]
fn paths_are_printed_as_typed() {
    let env = TestEnv::new();
    env.write("tour/src/main.rs", "fn main() { let x = 1; }\n");
    env.write("work/src/a.rs", "let x = 2;\n");
    let work = env.path("work");
    let tour = env.path("tour/src");
    let tour_abs = tour.display().to_string();
    let at = |args: &[&str]| env.cmd(args).current_dir(&work).run();
    at(&["glob", "*.rs", "../tour/src"])
        .ok()
        .assert_stdout("../tour/src/main.rs\n");
    at(&["glob", "*.rs", "./src"])
        .ok()
        .assert_stdout("./src/a.rs\n");
    at(&["glob", "*.rs", "src/"])
        .ok()
        .assert_stdout("src/a.rs\n");
    at(&["glob", "**/*.rs"]).ok().assert_stdout("src/a.rs\n");
    at(&["glob", "*.rs", &tour_abs])
        .ok()
        .assert_stdout(&format!("{tour_abs}/main.rs\n"));
    // grep: content (collected and worker-rendered), files, count, headings.
    at(&["grep", "x", "./src"])
        .ok()
        .assert_stdout("./src/a.rs:1:let x = 2;\n");
    at(&["grep", "x", "./src", "--all"])
        .ok()
        .assert_stdout("./src/a.rs:1:let x = 2;\n");
    at(&["grep", "x", "../tour", "src", "--heading", "--all"])
        .ok()
        .assert_stdout(
            "../tour/src/main.rs\n1:fn main() { let x = 1; }\n\nsrc/a.rs\n1:let x = 2;\n",
        );
    at(&["grep", "x", "../tour", "--mode", "files"])
        .ok()
        .assert_stdout("../tour/src/main.rs\n");
    at(&["grep", "x", "../tour/src/main.rs", "--mode", "count"])
        .ok()
        .assert_stdout("../tour/src/main.rs:1\n");
    at(&["grep", "x", &tour_abs, "--mode", "files"])
        .ok()
        .assert_stdout(&format!("{tour_abs}/main.rs\n"));
    at(&["grep", "x"])
        .ok()
        .assert_stdout("src/a.rs:1:let x = 2;\n");
    // JSON stays absolute.
    let j = at(&["--json", "glob", "*.rs", "../tour/src"]);
    j.ok();
    assert_eq!(j.glob().files, vec![format!("{tour_abs}/main.rs")]);
    // The summaries of changes name the file as typed.
    at(&["write", "./src/new.rs", "--content", "x\n"])
        .ok()
        .stdout_has("created ./src/new.rs:");
    at(&["read", "../tour/src/main.rs"]).ok();
    at(&[
        "edit",
        "../tour/src/main.rs",
        "--old",
        "let x = 1;",
        "--new",
        "let x = 3;",
    ])
    .ok()
    .stdout_has("wrote ../tour/src/main.rs:");
    fs::create_dir(env.path("dist")).unwrap();
    at(&["transfer", "./src/a.rs", "../dist/"])
        .ok()
        .stdout_has("copied ./src/a.rs -> ../dist/a.rs (11 B in ");
    at(&["transfer", "../dist/a.rs", "../dist/b.rs", "--move"])
        .ok()
        .assert_stdout("moved ../dist/a.rs -> ../dist/b.rs (11 B, rename)\n");
}

#[test]
fn transfer_summary_in_human_units_json_raw() {
    let env = TestEnv::new();
    let f = fs::File::create(env.path("a.bin")).unwrap();
    f.set_len(3 << 20).unwrap();
    let out = env.text(&["transfer", "a.bin", "b.bin"]);
    out.ok().stdout_has("copied a.bin -> b.bin (3.0 MiB in ");
    let summary = out.stdout.trim_end();
    assert!(
        summary.ends_with(" s, copy)") || summary.ends_with(" ms, copy)"),
        "{summary}"
    );
    let j = env.json(&["transfer", "a.bin", "c.bin"]);
    j.ok();
    assert_eq!(j.transfer().bytes, 3 << 20);
}

#[test]
fn progress_json_emits_the_complete_event_exactly_once() {
    let env = TestEnv::new();
    // 64 MiB: the throttle's byte step lands exactly on the end.
    for (name, size) in [
        ("a.bin", 64u64 << 20),
        ("empty.bin", 0),
        ("small.bin", 1000),
    ] {
        let f = fs::File::create(env.path(name)).unwrap();
        f.set_len(size).unwrap();
        let out = env.json(&[
            "transfer",
            name,
            &format!("{name}.copy"),
            "--progress",
            "json",
        ]);
        out.ok();
        let events: Vec<serde_json::Value> = out
            .stderr
            .lines()
            .map(|l| serde_json::from_str(l).expect("a JSON line"))
            .collect();
        let complete = events
            .iter()
            .filter(|e| e["event"] == "progress" && e["bytes"] == e["total"])
            .count();
        assert_eq!(complete, 1, "{name}: {events:?}");
        assert_eq!(
            events.last().unwrap()["bytes"],
            size,
            "{name}: last is complete"
        );
        assert!(events.iter().all(|e| e["total"] == size));
    }
}

#[test]
fn the_progress_bar_names_the_file_and_is_cleared() {
    let env = TestEnv::new();
    let f = fs::File::create(env.path("big.bin")).unwrap();
    f.set_len(64 << 20).unwrap();
    let out = on_tty(&env, &["transfer", "big.bin", "copy.bin"], &[]);
    out.ok().stdout_has("big.bin").stdout_has("%");
    // The bar's line is erased before the summary is printed.
    let tail = out.stdout.rsplit("\x1b[2K").next().unwrap_or_default();
    let tail = tail.trim_start_matches("\x1b[1A").trim();
    assert!(
        tail.starts_with("copied big.bin -> copy.bin (64.0 MiB in "),
        "after the bar: {tail:?}"
    );
}

/// The pid of `parent`'s child that runs `exe` (after its exec), from `/proc`.
fn child_running(parent: u32, exe: &std::path::Path) -> Option<i32> {
    fs::read_dir("/proc").ok()?.find_map(|e| {
        let pid: i32 = e.ok()?.file_name().to_str()?.parse().ok()?;
        let stat = fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
        // `pid (comm) state ppid …`: comm may hold spaces, so split after its `)`.
        let ppid: u32 = stat
            .rsplit_once(')')?
            .1
            .split_whitespace()
            .nth(1)?
            .parse()
            .ok()?;
        let runs = fs::read_link(format!("/proc/{pid}/exe")).ok()?;
        (ppid == parent && runs == exe).then_some(pid)
    })
}

fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}

fn rfind(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).rposition(|w| w == needle)
}

/// `bytes` without SGR sequences (`ESC [ … m`) and carriage returns: what is left is text.
fn without_sgr(bytes: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i..].starts_with(b"\x1b[")
            && let Some(end) = bytes[i + 2..].iter().position(|&b| b == b'm')
            && bytes[i + 2..i + 2 + end]
                .iter()
                .all(|b| b.is_ascii_digit() || *b == b';')
        {
            i += 2 + end + 1;
            continue;
        }
        if bytes[i] != b'\r' {
            out.push(bytes[i]);
        }
        i += 1;
    }
    out
}

#[test]
fn ctrl_c_mid_copy_clears_the_bar_before_the_error_and_dies_by_sigint() {
    use std::io::{Read as _, Write as _};
    use std::sync::{Arc, Mutex};
    use std::time::{Duration, Instant};

    require("script", "util-linux");
    let env = TestEnv::new();
    let bin = fs::canonicalize(BIN).unwrap();
    // A real (not sparse) file, so the copy takes time; grown when a fast machine finished the
    // copy before the signal arrived (at most 3 tries).
    let mut size: u64 = 128 << 20;
    let mut written: u64 = 0;
    let chunk: Vec<u8> = (0..1u32 << 20).map(|i| (i % 251) as u8 + 1).collect();
    for attempt in 1..=3 {
        {
            let mut f = fs::OpenOptions::new()
                .append(true)
                .create(true)
                .open(env.path("big.bin"))
                .unwrap();
            while written < size {
                f.write_all(&chunk).unwrap();
                written += chunk.len() as u64;
            }
        }
        // `exec`: quill is script's child, and `script -e` reports its status.
        let line = format!("exec {} transfer big.bin out.bin", shell_quote(BIN));
        let mut running = env
            .program("script")
            .args(["-qec", &line, "/dev/null"])
            .env("TERM", "xterm")
            .spawn();
        let script_pid = running.id();
        let mut pty = running.take_stdout();
        let typescript = Arc::new(Mutex::new(Vec::new()));
        let reader = {
            let typescript = Arc::clone(&typescript);
            std::thread::spawn(move || {
                let mut buf = [0u8; 8192];
                while let Ok(n) = pty.read(&mut buf) {
                    if n == 0 {
                        break;
                    }
                    typescript.lock().unwrap().extend_from_slice(&buf[..n]);
                }
            })
        };
        // Ctrl-C while the bar is showing: quill runs, its temp file exists, a bar was drawn.
        let mut quill = None;
        let mut signaled = false;
        let start = Instant::now();
        while start.elapsed() < Duration::from_secs(10) && running.is_running() {
            quill = quill.or_else(|| child_running(script_pid, &bin));
            if let Some(pid) = quill
                && !quill_temps(&env.dir).is_empty()
                && find(&typescript.lock().unwrap(), b"% ").is_some()
            {
                // SAFETY: kill(2) on quill, the child of our not-yet-reaped script.
                assert_eq!(unsafe { libc::kill(pid, libc::SIGINT) }, 0, "kill {pid}");
                signaled = true;
                break;
            }
            std::thread::sleep(Duration::from_millis(2));
        }
        if !signaled && running.is_running() {
            if let Some(pid) = quill {
                unsafe { libc::kill(pid, libc::SIGKILL) };
            }
            running.fail("the bar never showed while quill copied");
        }
        let out = running.wait_at_most(Duration::from_secs(10));
        reader.join().unwrap();
        let ts = typescript.lock().unwrap().clone();
        let shown = String::from_utf8_lossy(&ts).into_owned();
        if out.code == 0 && exists(&env.path("out.bin")) && attempt < 3 {
            // The copy won the race: again, with a larger file.
            fs::remove_file(env.path("out.bin")).unwrap();
            size *= 2;
            continue;
        }
        // 130: death by SIGINT as `script -e` reports it (quill's own `interrupted` exit is 4).
        out.check(
            out.code == 128 + libc::SIGINT,
            format!(
                "quill dies by SIGINT (script -e: 130), got {}; pty: {shown:?}",
                out.code
            ),
        );
        let err = find(&ts, b"quill: error")
            .unwrap_or_else(|| out.fail(&format!("no error line; pty: {shown:?}")));
        let err_line = ts[err..].split(|&b| b == b'\n').next().unwrap();
        out.check(
            without_sgr(err_line) == b"quill: error: interrupted",
            format!("the error line: {:?}", String::from_utf8_lossy(err_line)),
        );
        let (before, after) = ts.split_at(err);
        let last_draw = rfind(before, b"% ")
            .unwrap_or_else(|| out.fail(&format!("no bar drawn; pty: {shown:?}")));
        out.check(
            find(&before[..last_draw], b"big.bin").is_some(),
            format!("the bar names the file; pty: {shown:?}"),
        );
        // The bar's line is erased after its last draw, and nothing but color codes follows
        // the erase before the error.
        let clear = rfind(before, b"\x1b[2K")
            .filter(|&c| c > last_draw)
            .unwrap_or_else(|| {
                out.fail(&format!(
                    "the bar is not cleared before the error; pty: {shown:?}"
                ))
            });
        out.check(
            without_sgr(&before[clear + 4..]).is_empty(),
            format!("only the error after the erase; pty: {shown:?}"),
        );
        out.check(
            [&b"%"[..], b"big.bin", b"MiB", b"\x1b[2K", b"ETA"]
                .iter()
                .all(|bar| find(after, bar).is_none()),
            format!("nothing bar-like after the error; pty: {shown:?}"),
        );
        out.check(quill_temps(&env.dir).is_empty(), "no temp file is left");
        out.check(!exists(&env.path("out.bin")), "out.bin does not exist");
        let len = fs::metadata(env.path("big.bin")).unwrap().len();
        out.check(len == written, format!("big.bin is unchanged: {len} bytes"));
        return;
    }
}
