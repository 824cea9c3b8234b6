//! `quill transfer` to and from `host:path` (the contract of issue 29) through a real OpenSSH
//! server on 127.0.0.1 (`sshd.rs`): the far side is the binary under test with its own state
//! directory, reached only through `ssh -F <config> quilltest`, in a `far/` directory beside
//! the test's work dir. Pushes and pulls publish the same bytes and mode and answer
//! `host:/absolute/path` with a `remote` object; into a directory, with parents made, as moves;
//! the far side refuses as the near side would (create-only, a wrong version, a changed source,
//! outside `--root`); progress lines are the far side's acknowledgements; and `quill mcp` runs
//! through ssh. The failures of the connection itself are in `remote_faults.rs`. Every test
//! needs sshd (`#[ignore]`d; CI runs them).

use std::fs;
use std::io::{BufRead, BufReader, Write};
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::time::Duration;

use serde::Deserialize;
use serde_json::{Value, json};

use crate::sshd::{HOST, Sshd};
use crate::util::{BIN, Out, Run, TestEnv, Transfer, exists, fail, quill_temps, sha256_hex};

pub const MIB: u64 = 1024 * 1024;

/// The `remote` object of a transfer answer.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RemoteSide {
    pub host: String,
    pub side: String,
    pub version: String,
}

/// A test's two sides: the near one (`env`, where quill runs) and the far one (`far/`, with
/// its own state directory), reached through `sshd`.
pub struct Far {
    pub env: TestEnv,
    pub sshd: Sshd,
    /// The far side's directory (absolute, canonical).
    pub far: PathBuf,
    /// The far quill's state directory.
    pub far_state: PathBuf,
}

impl Far {
    #[track_caller]
    pub fn new() -> Far {
        let env = TestEnv::new();
        let sshd = Sshd::start();
        let far = env.base.join("far");
        fs::create_dir(&far).unwrap();
        let far_state = env.base.join("far-state");
        Far {
            env,
            sshd,
            far,
            far_state,
        }
    }

    /// `far/rel` as the far side's absolute path.
    pub fn path(&self, rel: &str) -> PathBuf {
        self.far.join(rel)
    }

    /// `quilltest:/abs/far/rel`.
    pub fn at(&self, rel: &str) -> String {
        format!("{HOST}:{}", self.path(rel).display())
    }

    /// Write `bytes` to `far/rel` (parents made) on the far side's disk.
    pub fn put(&self, rel: &str, bytes: impl AsRef<[u8]>) -> PathBuf {
        let p = self.path(rel);
        fs::create_dir_all(p.parent().unwrap()).unwrap();
        fs::write(&p, bytes).unwrap();
        p
    }

    /// The far quill command line (`--remote-quill`).
    pub fn remote_quill(&self) -> String {
        self.sshd.remote_quill(&self.far_state)
    }

    /// `quill --json transfer ARGS… --rsh RSH --remote-quill REMOTE`, not started.
    pub fn run_with(&self, args: &[&str], rsh: &str, remote: &str) -> Run {
        self.env.cmd(["--json", "transfer"]).args(args).args([
            "--rsh",
            rsh,
            "--remote-quill",
            remote,
        ])
    }

    /// `run_with` the server's own `--rsh` and the far quill, not started.
    pub fn run(&self, args: &[&str]) -> Run {
        self.run_with(args, &self.sshd.rsh(), &self.remote_quill())
    }

    /// Run it (at most 60 s).
    pub fn transfer(&self, args: &[&str]) -> Out {
        self.run(args).spawn().wait_at_most(Duration::from_secs(60))
    }

    /// A successful transfer: the typed answer and its `remote` object.
    #[track_caller]
    pub fn ok(&self, args: &[&str]) -> (Transfer, RemoteSide) {
        let out = self.transfer(args);
        out.ok();
        (out.transfer(), remote_side(&out))
    }

    /// Nothing of quill's is left in `far/dir`: no staging file (`.NAME.quill-*.tmp`).
    #[track_caller]
    pub fn assert_no_far_temps(&self, dir: &str) {
        let temps = quill_temps(&self.path(dir));
        if !temps.is_empty() {
            fail(&format!("staging files left on the far side: {temps:?}"));
        }
    }
}

/// The `remote` object of a successful answer.
#[track_caller]
pub fn remote_side(out: &Out) -> RemoteSide {
    serde_json::from_value(out.j("remote").clone())
        .unwrap_or_else(|e| out.fail(&format!("the answer's `remote` object: {e}")))
}

/// The version `quill --json --version` answers (the far quill is the same binary).
fn our_version(env: &TestEnv) -> String {
    let out = env.json(&["--version"]);
    out.ok();
    out.j("version").as_str().unwrap().to_string()
}

fn mode(p: &Path) -> u32 {
    fs::metadata(p).unwrap().permissions().mode() & 0o7777
}

/// A failure answer's error body, with `host` naming the far side and the message prefixed by it.
#[track_caller]
pub fn far_error(out: &Out, kind: &str, code: i32) -> Value {
    out.err(kind, code);
    let e = out.j("error").clone();
    let host = e["host"]
        .as_str()
        .unwrap_or_else(|| out.fail("no `host` field"));
    out.check(host.contains(HOST), "`host` names the far host");
    let message = e["message"].as_str().unwrap();
    out.check(
        message.starts_with(&format!("{host}: ")) || message.starts_with(&format!("{HOST}: ")),
        "the message is prefixed with the host",
    );
    e
}

#[test]
#[ignore = "needs sshd (openssh-server)"]
fn a_push_publishes_the_bytes_and_mode_on_the_far_side() {
    let f = Far::new();
    let src = f.env.write("run.sh", "#!/bin/sh\necho hi\n");
    fs::set_permissions(&src, fs::Permissions::from_mode(0o750)).unwrap();
    let (t, remote) = f.ok(&["run.sh", &f.at("run.sh"), "--session", "s1"]);
    assert_eq!(fs::read(f.path("run.sh")).unwrap(), b"#!/bin/sh\necho hi\n");
    assert_eq!(mode(&f.path("run.sh")), 0o750);
    assert_eq!(t.source, src.to_str().unwrap());
    assert_eq!(t.destination, f.at("run.sh"));
    assert_eq!(t.file_access.path, t.destination);
    assert_eq!(t.bytes, 18);
    assert_eq!(t.sha256, Some(sha256_hex(b"#!/bin/sh\necho hi\n")));
    assert_eq!(t.method, "copy");
    assert!(!t.replaced && !t.source_removed);
    assert_eq!(remote.side, "destination");
    assert!(remote.host.contains(HOST), "{remote:?}");
    assert_eq!(remote.version, our_version(&f.env));
    f.env.assert_file("run.sh", "#!/bin/sh\necho hi\n");
    f.assert_no_far_temps("");
    // The far session recorded the copy as an undo step of the destination: undone there, the
    // created file is removed.
    let undo = f
        .env
        .cmd(["--json", "--state-dir"])
        .arg(&f.far_state)
        .args(["--session", "s1", "undo"])
        .arg(f.path("run.sh"))
        .run();
    undo.ok();
    assert_eq!(undo.j("deleted"), &json!(true));
    assert!(!exists(&f.path("run.sh")));
}

#[test]
#[ignore = "needs sshd (openssh-server)"]
fn a_pull_fetches_the_bytes_and_mode_from_the_far_side() {
    let f = Far::new();
    let far = f.put("data/report.txt", "remote bytes\n");
    fs::set_permissions(&far, fs::Permissions::from_mode(0o640)).unwrap();
    let (t, remote) = f.ok(&[&f.at("data/report.txt"), "copy.txt"]);
    f.env.assert_file("copy.txt", "remote bytes\n");
    assert_eq!(mode(&f.env.path("copy.txt")), 0o640);
    assert_eq!(t.source, f.at("data/report.txt"));
    assert_eq!(t.destination, f.env.path("copy.txt").to_str().unwrap());
    assert_eq!(t.file_access.path, t.destination);
    assert_eq!(t.sha256, Some(sha256_hex(b"remote bytes\n")));
    assert_eq!((t.bytes, t.source_removed, t.replaced), (13, false, false));
    assert_eq!(remote.side, "source");
    assert_eq!(fs::read(&far).unwrap(), b"remote bytes\n");
    // Into a local directory: the name is kept. Create-only here too.
    fs::create_dir(f.env.path("in")).unwrap();
    let (t, _) = f.ok(&[&f.at("data/report.txt"), "in/"]);
    assert_eq!(t.destination, f.env.path("in/report.txt").to_str().unwrap());
    f.env.assert_file("in/report.txt", "remote bytes\n");
    f.transfer(&[&f.at("data/report.txt"), "copy.txt"])
        .err("destination_exists", 3);
    // A missing far source: not_found, from the far side.
    far_error(
        &f.transfer(&[&f.at("nope.txt"), "nope.txt"]),
        "not_found",
        4,
    );
    assert!(!exists(&f.env.path("nope.txt")));
    assert!(crate::util::quill_temps(&f.env.dir).is_empty());
}

#[test]
#[ignore = "needs sshd (openssh-server)"]
fn a_push_into_a_far_directory_keeps_the_name_and_parents_are_made() {
    let f = Far::new();
    f.env.write("a.txt", "into a dir\n");
    fs::create_dir(f.path("dir")).unwrap();
    let (t, _) = f.ok(&["a.txt", &format!("{}/", f.at("dir"))]);
    assert_eq!(t.destination, f.at("dir/a.txt"));
    assert_eq!(fs::read(f.path("dir/a.txt")).unwrap(), b"into a dir\n");
    // An existing directory named without the slash: into it as well.
    fs::create_dir(f.path("dir2")).unwrap();
    let (t, _) = f.ok(&["a.txt", &f.at("dir2")]);
    assert_eq!(t.destination, f.at("dir2/a.txt"));
    // A path relative to where the far shell starts (scp's home): `quilltest:dir/`.
    let in_far = format!("cd {} && {}", f.far.display(), f.remote_quill());
    let out = f
        .run_with(&["a.txt", &format!("{HOST}:dir3/")], &f.sshd.rsh(), &in_far)
        .run();
    far_error(&out, "not_found", 4); // dir3/ does not exist: a trailing slash needs one
    fs::create_dir(f.path("dir3")).unwrap();
    let out = f
        .run_with(&["a.txt", &format!("{HOST}:dir3/")], &f.sshd.rsh(), &in_far)
        .run();
    out.ok();
    assert_eq!(out.transfer().destination, f.at("dir3/a.txt"));
    assert_eq!(fs::read(f.path("dir3/a.txt")).unwrap(), b"into a dir\n");
    // Missing parents are made on the far side; --no-parents refuses and makes nothing.
    let (t, _) = f.ok(&["a.txt", &f.at("x/y/z.txt")]);
    assert_eq!(t.destination, f.at("x/y/z.txt"));
    assert_eq!(fs::read(f.path("x/y/z.txt")).unwrap(), b"into a dir\n");
    far_error(
        &f.transfer(&["a.txt", &f.at("p/q/r.txt"), "--no-parents"]),
        "not_found",
        4,
    );
    assert!(!exists(&f.path("p")));
    f.assert_no_far_temps("dir");
    f.assert_no_far_temps("x/y");
}

#[test]
#[ignore = "needs sshd (openssh-server)"]
fn a_move_removes_its_source_only_after_the_far_side_committed() {
    let f = Far::new();
    // Push: the local source goes once the far copy is committed.
    f.env.write("push.bin", "moved out\n");
    let (t, remote) = f.ok(&["push.bin", &f.at("push.bin"), "--move"]);
    assert!(t.source_removed, "{t:?}");
    assert_eq!(t.method, "copy");
    assert_eq!(remote.side, "destination");
    assert!(!exists(&f.env.path("push.bin")));
    assert_eq!(fs::read(f.path("push.bin")).unwrap(), b"moved out\n");
    // A refused push (the far file exists) keeps the source.
    f.env.write("push.bin", "second\n");
    far_error(
        &f.transfer(&["push.bin", &f.at("push.bin"), "--move"]),
        "destination_exists",
        3,
    );
    f.env.assert_file("push.bin", "second\n");
    assert_eq!(fs::read(f.path("push.bin")).unwrap(), b"moved out\n");
    // Pull: the far source goes once the local copy is committed.
    f.put("pull.bin", "moved in\n");
    let (t, remote) = f.ok(&[&f.at("pull.bin"), "pull.bin", "--move"]);
    assert!(t.source_removed, "{t:?}");
    assert_eq!(remote.side, "source");
    assert!(!exists(&f.path("pull.bin")));
    f.env.assert_file("pull.bin", "moved in\n");
    f.assert_no_far_temps("");
    assert!(quill_temps(&f.env.dir).is_empty());
}

#[test]
#[ignore = "needs sshd (openssh-server)"]
fn the_far_side_is_create_only_unless_the_version_to_replace_is_named() {
    let f = Far::new();
    f.env.write("new.txt", "new version\n");
    f.put("live.txt", "old version\n");
    let e = far_error(
        &f.transfer(&["new.txt", &f.at("live.txt")]),
        "destination_exists",
        3,
    );
    assert!(
        e["hint"]
            .as_str()
            .is_some_and(|h| h.contains("--replace-sha256")),
        "{e}"
    );
    assert_eq!(fs::read(f.path("live.txt")).unwrap(), b"old version\n");
    // A wrong version: refused, untouched.
    let wrong = sha256_hex(b"some other version\n");
    far_error(
        &f.transfer(&["new.txt", &f.at("live.txt"), "--replace-sha256", &wrong]),
        "destination_exists",
        3,
    );
    assert_eq!(fs::read(f.path("live.txt")).unwrap(), b"old version\n");
    // The right one: replaced.
    let right = sha256_hex(b"old version\n");
    let (t, _) = f.ok(&["new.txt", &f.at("live.txt"), "--replace-sha256", &right]);
    assert!(t.replaced);
    assert_eq!(fs::read(f.path("live.txt")).unwrap(), b"new version\n");
    // Pulling over a local file follows the same rule.
    f.env.write("here.txt", "mine\n");
    f.transfer(&[&f.at("live.txt"), "here.txt"])
        .err("destination_exists", 3);
    let (t, _) = f.ok(&[
        &f.at("live.txt"),
        "here.txt",
        "--replace-sha256",
        &sha256_hex(b"mine\n"),
    ]);
    assert!(t.replaced);
    f.env.assert_file("here.txt", "new version\n");
    f.assert_no_far_temps("");
}

#[test]
#[ignore = "needs sshd (openssh-server)"]
fn a_source_that_is_not_the_expected_version_is_not_sent() {
    let f = Far::new();
    f.env.write("a.txt", "actual\n");
    let wrong = sha256_hex(b"expected\n");
    f.transfer(&["a.txt", &f.at("a.txt"), "--expect-sha256", &wrong, "--move"])
        .err("source_changed", 3);
    assert!(!exists(&f.path("a.txt")));
    f.env.assert_file("a.txt", "actual\n");
    // Pulling: the far source is checked.
    f.put("b.txt", "far actual\n");
    far_error(
        &f.transfer(&[&f.at("b.txt"), "b.txt", "--expect-sha256", &wrong]),
        "source_changed",
        3,
    );
    assert!(!exists(&f.env.path("b.txt")));
    let right = sha256_hex(b"far actual\n");
    f.ok(&[&f.at("b.txt"), "b.txt", "--expect-sha256", &right]);
    f.env.assert_file("b.txt", "far actual\n");
    f.assert_no_far_temps("");
    assert!(quill_temps(&f.env.dir).is_empty());
}

#[test]
#[ignore = "needs sshd (openssh-server)"]
fn the_far_root_confines_the_far_side() {
    let f = Far::new();
    fs::create_dir(f.path("inside")).unwrap();
    f.put("secret.txt", "outside the root\n");
    f.env.write("a.txt", "x\n");
    let confined = format!("{} --root {}", f.remote_quill(), f.path("inside").display());
    let rsh = f.sshd.rsh();
    let out = f
        .run_with(&["a.txt", &f.at("escaped.txt")], &rsh, &confined)
        .run();
    far_error(&out, "outside_root", 3);
    assert!(!exists(&f.path("escaped.txt")));
    let out = f
        .run_with(&[&f.at("secret.txt"), "stolen.txt"], &rsh, &confined)
        .run();
    far_error(&out, "outside_root", 3);
    assert!(!exists(&f.env.path("stolen.txt")));
    // Inside: allowed.
    let out = f
        .run_with(&["a.txt", &f.at("inside/a.txt")], &rsh, &confined)
        .run();
    out.ok();
    assert_eq!(fs::read(f.path("inside/a.txt")).unwrap(), b"x\n");
}

#[test]
#[ignore = "needs sshd (openssh-server)"]
fn the_environment_names_the_connection_and_an_empty_far_path_is_where_the_shell_starts() {
    let f = Far::new();
    f.env.write("a.txt", "to the far home\n");
    // The far shell starts in far/ (scp's home); QUILL_RSH and QUILL_REMOTE_QUILL stand in
    // for the flags.
    let in_far = format!("cd {} && {}", f.far.display(), f.remote_quill());
    let run = |args: &[&str]| {
        f.env
            .cmd(["--json", "transfer"])
            .args(args)
            .env("QUILL_RSH", f.sshd.rsh())
            .env("QUILL_REMOTE_QUILL", &in_far)
            .run()
    };
    let out = run(&["a.txt", &format!("{HOST}:")]);
    out.ok();
    assert_eq!(out.transfer().destination, f.at("a.txt"));
    assert_eq!(fs::read(f.path("a.txt")).unwrap(), b"to the far home\n");
    // A relative far source: from there too.
    let out = run(&[&format!("{HOST}:a.txt"), "back.txt"]);
    out.ok();
    assert_eq!(out.transfer().source, f.at("a.txt"));
    f.env.assert_file("back.txt", "to the far home\n");
    // A flag wins over the environment.
    let out = run(&[
        "a.txt",
        &f.at("b.txt"),
        "--remote-quill",
        "/nonexistent/quill",
    ]);
    out.err("remote_quill_missing", 4);
    assert!(!exists(&f.path("b.txt")));
}

#[test]
#[ignore = "needs sshd (openssh-server)"]
fn a_push_leaves_what_rsync_leaves() {
    crate::util::require("rsync", "rsync");
    let f = Far::new();
    let src = f.env.write("tool.sh", "#!/bin/sh\nexit 0\n");
    fs::set_permissions(&src, fs::Permissions::from_mode(0o754)).unwrap();
    f.env
        .program("rsync")
        .args(["-p", "-e", &f.sshd.rsh(), "tool.sh"])
        .arg(f.at("by-rsync.sh"))
        .run()
        .ok();
    f.ok(&["tool.sh", &f.at("by-quill.sh")]);
    assert_eq!(
        fs::read(f.path("by-quill.sh")).unwrap(),
        fs::read(f.path("by-rsync.sh")).unwrap()
    );
    assert_eq!(mode(&f.path("by-quill.sh")), mode(&f.path("by-rsync.sh")));
}

#[test]
#[ignore = "needs sshd (openssh-server)"]
fn a_noisy_far_shell_and_a_bracketed_ipv6_host_are_understood() {
    let f = Far::new();
    f.env.write("a.txt", "x\n");
    // Lines a login shell prints before quill starts are skipped (up to 64 KiB).
    let noisy = format!(
        "echo 'Welcome to the far side'; echo 'Last login: never'; \
         head -c 30000 /dev/zero | tr '\\0' 'x'; echo; {}",
        f.remote_quill()
    );
    let out = f
        .run_with(&["a.txt", &f.at("noisy.txt")], &f.sshd.rsh(), &noisy)
        .run();
    out.ok();
    assert_eq!(fs::read(f.path("noisy.txt")).unwrap(), b"x\n");
    // `[::1]:path` names the host ::1 (the client config sends it to the same server).
    let far = f.path("v6.txt");
    let out = f.transfer(&["a.txt", &format!("[::1]:{}", far.display())]);
    out.ok();
    let t = out.transfer();
    assert!(
        t.destination.contains("::1") && t.destination.ends_with(&format!(":{}", far.display())),
        "{}",
        t.destination
    );
    assert_eq!(fs::read(&far).unwrap(), b"x\n");
}

/// A `--progress json` line.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Progress {
    event: String,
    bytes: u64,
    total: u64,
}

/// The progress lines of a run's stderr, checked: non-decreasing, ending at the total.
#[track_caller]
fn progress_lines(out: &Out, total: u64) -> Vec<Progress> {
    let lines: Vec<Progress> = out
        .stderr
        .lines()
        .filter(|l| l.starts_with('{'))
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| out.fail(&format!("{l}: {e}"))))
        .collect();
    out.check(!lines.is_empty(), "no progress lines");
    for w in lines.windows(2) {
        out.check(
            w[0].bytes <= w[1].bytes,
            format!("progress went back: {w:?}"),
        );
    }
    for p in &lines {
        out.check(
            p.event == "progress" && p.total == total && p.bytes <= total,
            format!("{p:?}"),
        );
    }
    out.check(
        lines.last().unwrap().bytes == total,
        "the last progress line is not the total",
    );
    lines
}

#[test]
#[ignore = "needs sshd (openssh-server)"]
fn progress_lines_count_what_the_receiving_side_wrote() {
    use crate::remote_faults::{big_file, file_sha, relay};
    use crate::transfer::shm_dir;
    let f = Far::new();
    let shm = shm_dir();
    let size = 9 * MIB;
    let big = shm.path().join("big.bin");
    let sha = big_file(&big, size);
    let far_dir = shm.path().join("far");
    fs::create_dir(&far_dir).unwrap();
    let dst = format!("{HOST}:{}/big.bin", far_dir.display());
    // Lines come every 200 ms: the relay makes each way last about 1.5 s (64 KiB per 10 ms).
    let q = f.remote_quill();
    let out = f
        .run_with(
            &[big.to_str().unwrap(), &dst, "--progress", "json"],
            &relay(&f, "slow", 10),
            &q,
        )
        .spawn()
        .wait_at_most(Duration::from_secs(60));
    out.ok();
    let t = out.transfer();
    assert_eq!((t.bytes, t.sha256.as_deref()), (size, Some(sha.as_str())));
    let lines = progress_lines(&out, size);
    assert!(lines.len() >= 3, "{lines:?}");
    assert_eq!(file_sha(&far_dir.join("big.bin")), sha);
    // And pulled back.
    let back = shm.path().join("back.bin");
    let out = f
        .run_with(
            &[&dst, back.to_str().unwrap(), "--progress", "json"],
            &relay(&f, "slow-down", 10),
            &q,
        )
        .spawn()
        .wait_at_most(Duration::from_secs(60));
    out.ok();
    let lines = progress_lines(&out, size);
    assert!(lines.len() >= 3, "{lines:?}");
    assert_eq!(file_sha(&back), sha);
    // Without --progress json (stderr is not a terminal): no progress at all.
    let out = f.transfer(&[&dst, shm.path().join("quiet.bin").to_str().unwrap()]);
    out.ok();
    out.check(out.stderr.is_empty(), "stderr is quiet");
}

/// A line of the far `quill mcp` (read by a thread), at most 10 s away.
fn next_line(lines: &mpsc::Receiver<String>) -> Value {
    let line = lines
        .recv_timeout(Duration::from_secs(10))
        .expect("quill mcp through ssh answered nothing in 10 s");
    serde_json::from_str(&line).unwrap_or_else(|e| panic!("{line}: {e}"))
}

#[test]
#[ignore = "needs sshd (openssh-server)"]
#[cfg(feature = "mcp")]
fn quill_mcp_serves_through_ssh() {
    let f = Far::new();
    let file = f.put("notes.txt", "far notes\nline two\n");
    let mut child = f
        .sshd
        .ssh(&[BIN, "mcp", "--state-dir", f.far_state.to_str().unwrap()])
        .stdin(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let stdout = child.stdout.take().unwrap();
    let (tx, lines) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    let mut send = |v: Value| {
        writeln!(stdin, "{v}").unwrap();
        stdin.flush().unwrap();
    };
    send(
        json!({"jsonrpc":"2.0","id":1,"method":"initialize","params":{
        "protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"ssh","version":"1"}}}),
    );
    let init = next_line(&lines);
    assert_eq!(init["result"]["serverInfo"]["name"], "quill", "{init}");
    send(json!({"jsonrpc":"2.0","method":"notifications/initialized"}));
    send(
        json!({"jsonrpc":"2.0","id":2,"method":"tools/call","params":{
        "name":"quill_read","arguments":{"path": file}}}),
    );
    let r = next_line(&lines);
    assert_eq!(r["id"], 2, "{r}");
    let answer = &r["result"]["structuredContent"];
    crate::schema::validate_answer(answer).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(answer["ok"], true, "{r}");
    assert_eq!(answer["content"], "far notes\nline two\n", "{r}");
    let text = r["result"]["content"][0]["text"].as_str().unwrap_or("");
    assert!(text.contains("far notes"), "{r}");
    // stdin closed: the far server ends, and ssh with it.
    drop(stdin);
    let deadline = std::time::Instant::now() + Duration::from_secs(10);
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        if std::time::Instant::now() > deadline {
            let _ = child.kill();
            panic!("ssh … quill mcp did not end after its stdin closed");
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    assert!(status.success(), "{status}");
}
