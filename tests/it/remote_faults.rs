//! `quill transfer` over SSH when the connection fails (the contract of issue 29): a far side
//! without quill, an older quill, a refused key, an unknown host key with no one to ask, a
//! connection cut in the middle of the data or after its end frame, and Ctrl-C mid-push. The
//! cuts go through `relay.py`, a Python 3 relay the test writes as `--rsh`: it runs the real
//! `ssh -F <config> …`, passes ssh's stdout and stderr back unchanged and our stdin to ssh,
//! parsing the frames going out (1 tag byte, 4-byte big-endian length, payload) to kill ssh at
//! the chosen moment. After every failure: nothing published, no staging file left on the far
//! side (once the far quill has exited, waited for at most 10 s), the source kept.

use std::fs;
use std::io::Write as _;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::time::Duration;

use serde_json::Value;

use crate::remote::{Far, MIB};
use crate::sshd::{HOST, keygen, rsh_with};
use crate::transfer::shm_dir;
use crate::util::{Out, exists, fail, quill_temps, require, sha256_hex, wait_until};

/// The relay (see the module comment). `relay.py MODE N CMD…`, MODE one of:
/// `pass` (relay only), `cut-after-bytes N` (after N data bytes went out, kill ssh and exit
/// 255), `cut-after-end` (send the `E` frame, then kill ssh and exit 255 relaying nothing
/// more from ssh), `cut-after-verdict` (the same, but ssh is killed only once the far side's
/// answer to `E` — its next `J` frame, not relayed — has come back, or after 5 s),
/// `slow N` (data in 64 KiB pieces, N ms apart); for pulls, the same coming back:
/// `slow-down N` (each read from ssh relayed N ms after the last), `cut-down-after-bytes N`
/// (after N bytes came back, kill ssh and exit 255).
const RELAY: &str = r#"import os, sys, signal, ctypes, threading, subprocess, time
mode, n, cmd = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
def orphan_dies():
    ctypes.CDLL(None).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG: ssh dies with the relay
ssh = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, bufsize=0,
                       preexec_fn=orphan_dies)
lock = threading.Lock()
state = {"cut": False}
def write_all(fd, b):
    while b:
        b = b[os.write(fd, b):]
verdict = threading.Event()
def down():
    buf, hello = b"", False
    while True:
        b = os.read(ssh.stdout.fileno(), 65536)
        if not b:
            return
        with lock:
            cut_already = state["cut"]
            if not cut_already:
                write_all(1, b)
        state["down"] = state.get("down", 0) + len(b)
        if mode == "slow-down":
            time.sleep(n / 1000)
        if mode == "cut-down-after-bytes" and state["down"] >= n:
            cut()
        if mode != "cut-after-verdict":
            continue
        buf += b
        while True:
            if not hello:
                i = buf.find(b"\n")
                if i < 0:
                    break
                hello, buf = buf[:i].startswith(b"QUILL-TRANSFER/"), buf[i + 1:]
                continue
            if len(buf) < 5 or len(buf) < 5 + int.from_bytes(buf[1:5], "big"):
                break
            tag, buf = buf[:1], buf[5 + int.from_bytes(buf[1:5], "big"):]
            if tag == b"J" and cut_already:
                verdict.set()
reader = threading.Thread(target=down, daemon=True)
reader.start()
def read_exact(k):
    b = b""
    while len(b) < k:
        c = os.read(0, k - len(b))
        if not c:
            break
        b += c
    return b
def send(b):
    try:
        write_all(ssh.stdin.fileno(), b)
    except BrokenPipeError:
        pass
def cut():
    ssh.kill()
    ssh.wait()
    os._exit(255)
sent = 0
while True:
    head = read_exact(5)
    if len(head) < 5:
        send(head)
        break
    tag, size = head[:1], int.from_bytes(head[1:], "big")
    if tag == b"E" and mode in ("cut-after-end", "cut-after-verdict"):
        payload = read_exact(size)
        with lock:
            state["cut"] = True
        send(head + payload)
        if mode == "cut-after-verdict":
            verdict.wait(5)
        cut()
    if tag == b"D" and mode == "slow":
        send(head)
        left = size
        while left:
            piece = read_exact(min(left, 65536))
            if not piece:
                break
            send(piece)
            left -= len(piece)
            time.sleep(n / 1000)
        if left:
            break
    else:
        payload = read_exact(size)
        send(head + payload)
        if len(payload) < size:
            break
    if tag == b"D":
        sent += size
        if mode == "cut-after-bytes" and sent >= n:
            cut()
ssh.stdin.close()
code = ssh.wait()
reader.join(10)
os._exit(code if code >= 0 else 255)
"#;

/// The Python 3 to run the relay with (the system's when there is one).
fn python() -> &'static str {
    if Path::new("/usr/bin/python3").is_file() {
        "/usr/bin/python3"
    } else {
        require("python3", "python3");
        "python3"
    }
}

/// Write the relay into the server's directory; the `--rsh` that runs it in `mode`.
pub fn relay(f: &Far, mode: &str, n: u64) -> String {
    let script = f.sshd.dir.join("relay.py");
    fs::write(&script, RELAY).unwrap();
    format!(
        "{} {} {mode} {n} {}",
        python(),
        script.display(),
        f.sshd.rsh()
    )
}

/// Write `size` bytes of a non-repeating pattern; returns its SHA-256.
pub fn big_file(path: &Path, size: u64) -> String {
    let mut bytes = Vec::with_capacity(size as usize);
    let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
    while (bytes.len() as u64) < size {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        bytes.extend_from_slice(&x.to_le_bytes());
    }
    bytes.truncate(size as usize);
    fs::File::create(path).unwrap().write_all(&bytes).unwrap();
    sha256_hex(&bytes)
}

pub fn file_sha(path: &Path) -> String {
    sha256_hex(&fs::read(path).unwrap())
}

/// After a failed push to `far/name`: the far quill exits (within 10 s), and leaves neither
/// the destination nor a staging file.
#[track_caller]
fn assert_far_untouched(f: &Far, name: &str) {
    if !f.sshd.wait_far_quills_gone(Duration::from_secs(10)) {
        fail("the far quill still runs 10 s after the connection ended");
    }
    f.assert_no_far_temps("");
    if exists(&f.path(name)) {
        fail(&format!("far/{name} was published"));
    }
}

/// An error field that must be there.
#[track_caller]
fn field<'a>(out: &Out, e: &'a Value, key: &str) -> &'a Value {
    match e.get(key) {
        Some(v) => v,
        None => out.fail(&format!("the error has no `{key}`")),
    }
}

#[test]
#[ignore = "needs sshd (openssh-server)"]
fn a_far_side_without_quill_names_the_install() {
    let f = Far::new();
    f.env.write("a.txt", "x\n");
    let rsh = f.sshd.rsh();
    for program in ["/nonexistent/quill", "quill-not-installed-here"] {
        let out = f
            .run_with(&["a.txt", &f.at("a.txt")], &rsh, program)
            .spawn()
            .wait_at_most(Duration::from_secs(20));
        out.err("remote_quill_missing", 4);
        let e = out.j("error");
        assert_eq!(field(&out, e, "program"), program);
        assert!(field(&out, e, "host").as_str().unwrap().contains(HOST));
        let hint = e["hint"].as_str().unwrap_or("");
        out.check(hint.contains("install"), "the hint names the install");
        out.check(
            hint.contains("--remote-quill"),
            "the hint names --remote-quill",
        );
        assert!(!exists(&f.path("a.txt")));
    }
}

/// An executable shell script in the server's directory, standing in for the far quill.
fn fake_quill(f: &Far, name: &str, body: &str) -> PathBuf {
    let path = f.sshd.dir.join(name);
    fs::write(&path, format!("#!/bin/sh\n{body}")).unwrap();
    fs::set_permissions(&path, fs::Permissions::from_mode(0o755)).unwrap();
    path
}

#[test]
#[ignore = "needs sshd (openssh-server)"]
fn an_older_quill_or_another_protocol_is_remote_version() {
    let f = Far::new();
    f.env.write("a.txt", "x\n");
    // clap's answer to a flag it does not know, as a quill before `--serve` gives it.
    let old = fake_quill(
        &f,
        "old-quill",
        "echo \"error: unexpected argument '--serve' found\" >&2\necho >&2\n\
         echo 'Usage: quill transfer [OPTIONS] <SRC> <DST>' >&2\necho >&2\n\
         echo \"For more information, try '--help'.\" >&2\nexit 2\n",
    );
    let rsh = f.sshd.rsh();
    let out = f
        .run_with(&["a.txt", &f.at("a.txt")], &rsh, old.to_str().unwrap())
        .spawn()
        .wait_at_most(Duration::from_secs(20));
    out.err("remote_version", 4);
    let e = out.j("error");
    assert_eq!(field(&out, e, "protocol"), 1);
    let v = field(&out, e, "remoteVersion");
    assert!(v.is_null() || v.is_string(), "{v}");
    // A quill that speaks a later protocol.
    let later = fake_quill(
        &f,
        "later-quill",
        "echo 'QUILL-TRANSFER/2 quill 9.9.9'\nexit 0\n",
    );
    let out = f
        .run_with(&["a.txt", &f.at("a.txt")], &rsh, later.to_str().unwrap())
        .spawn()
        .wait_at_most(Duration::from_secs(20));
    out.err("remote_version", 4);
    let e = out.j("error");
    assert_eq!(field(&out, e, "protocol"), 1);
    assert_eq!(field(&out, e, "remoteVersion"), "9.9.9");
    assert!(!exists(&f.path("a.txt")));
}

#[test]
#[ignore = "needs sshd (openssh-server)"]
fn a_refused_key_is_connection_failed_in_ssh_s_words() {
    let f = Far::new();
    f.env.write("a.txt", "x\n");
    let stranger = f.sshd.dir.join("stranger_ed25519");
    keygen(&stranger);
    let cfg = f.sshd.client_config(
        "stranger_config",
        &[("IdentityFile", stranger.to_str().unwrap())],
    );
    let out = f
        .run_with(
            &["a.txt", &f.at("a.txt")],
            &rsh_with(&cfg),
            &f.remote_quill(),
        )
        .spawn()
        .wait_at_most(Duration::from_secs(20));
    out.err("connection_failed", 4);
    let e = out.j("error");
    let said = field(&out, e, "sshMessage").as_str().unwrap_or("");
    out.check(said.contains("Permission denied"), "sshMessage quotes ssh");
    assert_eq!(field(&out, e, "status"), 255);
    out.check(
        e["message"].as_str().unwrap().contains("Permission denied"),
        "the message quotes ssh",
    );
    assert!(!exists(&f.path("a.txt")));
}

#[test]
#[ignore = "needs sshd (openssh-server)"]
fn an_unknown_host_key_with_no_one_to_ask_fails_at_once() {
    let f = Far::new();
    f.env.write("a.txt", "x\n");
    let empty = f.sshd.dir.join("empty_known_hosts");
    fs::write(&empty, "").unwrap();
    // ssh would ask; quill's `-oBatchMode=yes` (stdin is not a terminal) forbids it.
    let cfg = f.sshd.client_config(
        "asking_config",
        &[
            ("UserKnownHostsFile", empty.to_str().unwrap()),
            ("StrictHostKeyChecking", "ask"),
            ("BatchMode", "no"),
        ],
    );
    // A graphical "askpass" stands in for the terminal: it notes that it was asked, says no.
    let asked = f.sshd.dir.join("asked");
    let askpass = f.sshd.dir.join("askpass");
    fs::write(
        &askpass,
        format!("#!/bin/sh\necho \"$*\" >> {}\necho no\n", asked.display()),
    )
    .unwrap();
    fs::set_permissions(&askpass, fs::Permissions::from_mode(0o755)).unwrap();
    let with_askpass = |run: crate::util::Run| {
        run.env("SSH_ASKPASS", &askpass)
            .env("SSH_ASKPASS_REQUIRE", "force")
            .env("DISPLAY", ":0")
    };
    // The control: ssh itself, so configured, asks.
    let plain = with_askpass(f.env.program("ssh"))
        .args(["-F", cfg.to_str().unwrap(), HOST, "true"])
        .spawn()
        .wait_at_most(Duration::from_secs(20));
    plain.exit(255);
    plain.check(exists(&asked), "ssh without BatchMode asked its askpass");
    fs::remove_file(&asked).unwrap();
    let out = with_askpass(f.run_with(
        &["a.txt", &f.at("a.txt")],
        &rsh_with(&cfg),
        &f.remote_quill(),
    ))
    .spawn()
    .wait_at_most(Duration::from_secs(20));
    out.err("connection_failed", 4);
    out.check(
        !exists(&asked),
        "quill's ssh asked someone (no -oBatchMode=yes)",
    );
    let said = field(&out, out.j("error"), "sshMessage")
        .as_str()
        .unwrap_or("");
    out.check(
        said.contains("Host key verification failed"),
        "sshMessage quotes ssh",
    );
    assert_eq!(fs::read(&empty).unwrap(), b"", "nothing was learned");
    assert!(!exists(&f.path("a.txt")));
}

#[test]
#[ignore = "needs sshd (openssh-server)"]
fn a_connection_cut_mid_stream_is_connection_lost_and_leaves_nothing() {
    let f = Far::new();
    let shm = shm_dir();
    let src = shm.path().join("big.bin");
    let sha = big_file(&src, 8 * MIB);
    let rsh = relay(&f, "cut-after-bytes", MIB);
    let out = f
        .run_with(
            &[src.to_str().unwrap(), &f.at("big.bin"), "--move"],
            &rsh,
            &f.remote_quill(),
        )
        .spawn()
        .wait_at_most(Duration::from_secs(30));
    out.err("connection_lost", 4);
    let e = out.j("error");
    let acked = field(&out, e, "bytesAcknowledged").as_u64();
    out.check(
        acked.is_some_and(|b| b < 8 * MIB),
        "bytesAcknowledged < the size",
    );
    out.check(
        field(&out, e, "sshMessage").is_string(),
        "sshMessage is text",
    );
    out.check(e["host"].as_str().is_some_and(|h| h.contains(HOST)), "host");
    assert_eq!(file_sha(&src), sha, "the source is kept, whole");
    assert_far_untouched(&f, "big.bin");
}

#[test]
#[ignore = "needs sshd (openssh-server)"]
fn a_connection_cut_after_the_data_is_commit_unknown_and_keeps_the_source() {
    // Cut at once (the far side most likely never saw the end frame: nothing published), and
    // cut once the far side answered it (published: only the answer was lost).
    cut_after_the_data("cut-after-end");
    assert!(
        cut_after_the_data("cut-after-verdict"),
        "the far side's verdict came back"
    );
}

/// A push of a 100 KiB file with `--move` through the relay in `mode`, then the check and the
/// finish the answer suggests; whether the far side had published the file.
fn cut_after_the_data(mode: &str) -> bool {
    let f = Far::new();
    let src = f.env.path("a.bin");
    let sha = big_file(&src, 100 * 1024);
    let rsh = relay(&f, mode, 0);
    let out = f
        .run_with(
            &["a.bin", &f.at("a.bin"), "--move"],
            &rsh,
            &f.remote_quill(),
        )
        .spawn()
        .wait_at_most(Duration::from_secs(30));
    out.err("commit_unknown", 4);
    let e = out.j("error").clone();
    assert_eq!(field(&out, &e, "destination"), &Value::from(f.at("a.bin")));
    assert_eq!(field(&out, &e, "sha256"), &Value::from(sha.clone()));
    assert_eq!(field(&out, &e, "bytes"), 100 * 1024);
    let check = field(&out, &e, "check").as_str().unwrap().to_string();
    // `<rsh words> HOST sha256sum -- PATH` (the far command may be one quoted word: ssh joins
    // its words with spaces for the far shell all the same).
    let far_command = format!("sha256sum -- {}", f.path("a.bin").display());
    out.check(
        check.starts_with(&format!("{rsh} {HOST} "))
            && check.replace('\'', "").ends_with(&far_command),
        "check is `<rsh> HOST sha256sum -- PATH`",
    );
    let hint = e["hint"].as_str().unwrap_or("");
    out.check(
        hint.contains("--replace-sha256"),
        "the hint names the safe finish",
    );
    // Never removed on an unknown outcome, even with --move.
    assert_eq!(file_sha(&src), sha, "the source is kept, whole");
    // Whatever the far side did, it did it whole: the file complete, or nothing.
    if !f.sshd.wait_far_quills_gone(Duration::from_secs(10)) {
        fail("the far quill still runs 10 s after the connection ended");
    }
    f.assert_no_far_temps("");
    let published = exists(&f.path("a.bin"));
    eprintln!("{mode}: the far side had published: {published}");
    if published {
        assert_eq!(file_sha(&f.path("a.bin")), sha, "a partial far file");
    }
    // The check command, run as given, tells which.
    let checked = f.env.shell(&check);
    if published {
        checked.ok().stdout_has(&sha);
    } else {
        checked.check(checked.code != 0, "the check of a missing file fails");
    }
    // The hint's safe finish, run as given (the connection named by the environment): it
    // creates the file, or replaces only that very version.
    let finish = hint
        .split('`')
        .skip(1)
        .step_by(2)
        .find(|c| c.starts_with("quill transfer"))
        .unwrap_or_else(|| out.fail("the hint names no `quill transfer …` to finish"))
        .to_string();
    out.check(
        finish.contains(&format!("--replace-sha256 {sha}")),
        "the finish names the hash",
    );
    // It names the call's own connection: here the relay that cut it, so the finish is run
    // over the plain connection the environment names instead.
    out.check(
        finish.contains("--rsh ") && finish.contains("relay.py"),
        "the finish names the call's own --rsh",
    );
    let finish = finish
        .split(" --rsh ")
        .next()
        .unwrap_or_default()
        .to_string();
    let bin_dir = Path::new(crate::util::BIN).parent().unwrap();
    let path = format!(
        "{}:{}",
        bin_dir.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let done = f
        .env
        .program("sh")
        .args(["-c", &finish])
        .env("PATH", path)
        .env("QUILL_FORMAT", "json")
        .env("QUILL_RSH", f.sshd.rsh())
        .env("QUILL_REMOTE_QUILL", f.remote_quill())
        .run();
    done.ok();
    assert_eq!(done.transfer().replaced, published);
    assert_eq!(file_sha(&f.path("a.bin")), sha);
    assert_eq!(file_sha(&src), sha);
    published
}

#[test]
#[ignore = "needs sshd (openssh-server)"]
fn ctrl_c_mid_push_is_interrupted_and_leaves_nothing_on_either_side() {
    let f = Far::new();
    let shm = shm_dir();
    let src = shm.path().join("big.bin");
    let sha = big_file(&src, 8 * MIB);
    // 64 KiB every 20 ms: ~2.7 s for the file, time enough to interrupt it in the middle.
    let rsh = relay(&f, "slow", 20);
    let running = f
        .run_with(
            &[src.to_str().unwrap(), &f.at("big.bin"), "--move"],
            &rsh,
            &f.remote_quill(),
        )
        .spawn();
    // Data is flowing: the far staging file grows.
    let flowing = wait_until(Duration::from_secs(10), || {
        quill_temps(&f.far)
            .iter()
            .any(|t| fs::metadata(f.far.join(t)).is_ok_and(|m| m.len() >= 256 * 1024))
    });
    if !flowing {
        running.fail("no far staging file grew within 10 s");
    }
    running.signal(libc::SIGINT);
    let out = running.wait_at_most(Duration::from_secs(15));
    out.interrupted_by(libc::SIGINT);
    assert_eq!(file_sha(&src), sha, "the source is untouched");
    assert_far_untouched(&f, "big.bin");
}

#[test]
#[ignore = "needs sshd (openssh-server)"]
fn a_connection_cut_mid_pull_is_connection_lost_and_leaves_nothing() {
    let f = Far::new();
    let sha = big_file(&f.path("big.bin"), 8 * MIB);
    let rsh = relay(&f, "cut-down-after-bytes", MIB);
    let out = f
        .run_with(
            &[&f.at("big.bin"), "big.bin", "--move"],
            &rsh,
            &f.remote_quill(),
        )
        .spawn()
        .wait_at_most(Duration::from_secs(30));
    out.err("connection_lost", 4);
    out.check(
        out.j("error")["host"]
            .as_str()
            .is_some_and(|h| h.contains(HOST)),
        "host",
    );
    assert_pull_left_nothing(&f, &sha);
}

#[test]
#[ignore = "needs sshd (openssh-server)"]
fn ctrl_c_mid_pull_is_interrupted_and_leaves_nothing_on_either_side() {
    let f = Far::new();
    let sha = big_file(&f.path("big.bin"), 8 * MIB);
    // Each read from ssh (at most 64 KiB) 20 ms after the last: seconds for the file.
    let rsh = relay(&f, "slow-down", 20);
    let running = f
        .run_with(
            &[&f.at("big.bin"), "big.bin", "--move"],
            &rsh,
            &f.remote_quill(),
        )
        .spawn();
    let flowing = wait_until(Duration::from_secs(10), || {
        quill_temps(&f.env.dir)
            .iter()
            .any(|t| fs::metadata(f.env.dir.join(t)).is_ok_and(|m| m.len() >= 256 * 1024))
    });
    if !flowing {
        running.fail("no local staging file grew within 10 s");
    }
    running.signal(libc::SIGINT);
    let out = running.wait_at_most(Duration::from_secs(15));
    out.interrupted_by(libc::SIGINT);
    assert_pull_left_nothing(&f, &sha);
}

/// A pull that failed or was interrupted: nothing published or staged here, the far quill
/// gone within 10 s, the far source (`big.bin`) whole.
fn assert_pull_left_nothing(f: &Far, sha: &str) {
    assert!(
        !exists(&f.env.path("big.bin")),
        "a partial pull was published"
    );
    assert!(
        quill_temps(&f.env.dir).is_empty(),
        "a staging file was left here"
    );
    if !f.sshd.wait_far_quills_gone(Duration::from_secs(10)) {
        fail("the far quill still runs 10 s after the pull ended");
    }
    assert_eq!(
        file_sha(&f.path("big.bin")),
        sha,
        "the far source is kept, whole"
    );
}

#[test]
fn a_host_that_looks_like_an_option_or_two_remote_sides_are_refused() {
    let f = crate::util::TestEnv::new();
    f.write("a.txt", "x\n");
    // No slash before the colon: a host, were it not for the dash (ssh would run the command).
    let canary = f.path("pwned");
    f.json(&["transfer", "--", "a.txt", "-oProxyCommand=touch pwned:x"])
        .err("invalid_argument", 2);
    assert!(!exists(&canary));
    f.json(&["transfer", "h1:/a", "h2:/b"])
        .err("invalid_argument", 2);
}

/// A frame as the protocol writes it: tag, 4-byte big-endian length, payload.
fn frame(tag: u8, payload: &[u8]) -> Vec<u8> {
    let mut v = vec![tag];
    v.extend_from_slice(&(payload.len() as u32).to_be_bytes());
    v.extend_from_slice(payload);
    v
}

/// The relay itself, with `cat` as the far side: frames come back unchanged; a cut ends it
/// with 255 where told.
#[test]
#[ignore = "needs sshd (openssh-server)"]
fn the_relay_passes_frames_unchanged_and_cuts_where_told() {
    let f = Far::new();
    let mut frames = frame(b'Q', br#"{"op":"push"}"#);
    for i in 0..4u8 {
        frames.extend(frame(b'D', &vec![i; 300 * 1024]));
    }
    let end = frame(b'E', br#"{"bytes":1228800,"sha256":"x"}"#);
    frames.extend(&end);
    let through = |mode: &str, n: u64| {
        let rsh = relay(&f, mode, n);
        let mut words: Vec<&str> = rsh.split(' ').collect();
        words.extend([HOST, "cat"]);
        let mut child = std::process::Command::new(words[0])
            .args(&words[1..])
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        let mut stdin = child.stdin.take().unwrap();
        let input = frames.clone();
        let feeder = std::thread::spawn(move || {
            let _ = stdin.write_all(&input);
        });
        let out = child.wait_with_output().unwrap();
        feeder.join().unwrap();
        out
    };
    let out = through("pass", 0);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        out.stdout == frames,
        "pass changed the bytes ({} of {})",
        out.stdout.len(),
        frames.len()
    );
    let out = through("slow", 1);
    assert_eq!(out.status.code(), Some(0));
    assert!(out.stdout == frames, "slow changed the bytes");
    let out = through("cut-after-bytes", 500 * 1024);
    assert_eq!(out.status.code(), Some(255));
    assert!(frames.starts_with(&out.stdout));
    assert!(
        out.stdout.len() <= 5 + 13 + 2 * (5 + 300 * 1024),
        "{}",
        out.stdout.len()
    );
    let out = through("cut-after-end", 0);
    assert_eq!(out.status.code(), Some(255));
    assert!(frames.starts_with(&out.stdout));
    assert!(
        out.stdout.len() <= frames.len() - end.len(),
        "{}",
        out.stdout.len()
    );
}
