//! Failure injection: `kill -9` mid-write, SIGTERM mid-write, ENOSPC/EIO injected with strace
//! on write, fsync and rename, a full tmpfs, a read-only directory for an unprivileged user.
//! In every case the target holds the old bytes or (kill -9 after the rename) the new ones,
//! never a mix, and the error kind is the contract's. Tools missing here are skipped with a
//! printed reason.

use std::fs;
use std::io::Write;
use std::os::unix::fs::PermissionsExt;
use std::process::{Command, Stdio};
use std::thread;
use std::time::Duration;

use crate::util::{BIN, TestEnv, have, quill_temps, run, sha256_hex};

fn pseudo_random(seed: u64) -> u64 {
    let mut x = seed
        .wrapping_mul(6364136223846793005)
        .wrapping_add(1442695040888963407);
    x ^= x >> 33;
    x
}

#[test]
fn kill_9_during_a_256_mb_write_leaves_old_or_new() {
    let env = TestEnv::new();
    let big: Vec<u8> = (0..256u32 * 1024 * 1024 / 64)
        .flat_map(|i| format!("{:063}\n", i).into_bytes())
        .collect();
    env.write("big.src", &big);
    let new_sha = sha256_hex(&big);
    let old = b"the old content\n";
    let seed = std::process::id() as u64;
    for round in 0..4u64 {
        env.write("target.txt", old);
        let mut c = env.command([
            "--json",
            "write",
            "target.txt",
            "--from",
            "big.src",
            "--expect-sha256",
            &sha256_hex(old),
        ]);
        c.stdout(Stdio::null()).stderr(Stdio::null());
        let mut child = c.spawn().unwrap();
        let delay = 20 + pseudo_random(seed + round) % 1200;
        thread::sleep(Duration::from_millis(delay));
        let _ = child.kill(); // SIGKILL
        let status = child.wait().unwrap();
        let now = env.read("target.txt");
        let whole_old = now == old;
        let whole_new = now.len() == big.len() && sha256_hex(&now) == new_sha;
        assert!(
            whole_old || whole_new,
            "round {round} (killed after {delay} ms, {status:?}): a torn file of {} bytes",
            now.len()
        );
        for t in quill_temps(&env.dir) {
            fs::remove_file(env.path(&t)).unwrap();
        }
    }
}

#[test]
fn sigterm_mid_write_removes_the_temp_file() {
    let env = TestEnv::new();
    env.write("f.txt", "old\n");
    env.json(&["read", "f.txt"]).ok();
    let mut c = env.command(["--json", "write", "f.txt"]);
    c.stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = c.spawn().unwrap();
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(&vec![b'x'; 1 << 20]).unwrap();
    thread::sleep(Duration::from_millis(400));
    assert_eq!(
        quill_temps(&env.dir).len(),
        1,
        "the stage exists while input streams"
    );
    let pid = child.id().to_string();
    assert!(
        Command::new("kill")
            .args(["-TERM", &pid])
            .status()
            .unwrap()
            .success()
    );
    // stdin stays open and silent: quill must notice the signal while it waits for input.
    let o = child.wait_with_output().unwrap();
    drop(stdin);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(o.status.code(), Some(4), "{v}");
    assert_eq!(v["error"]["kind"], "interrupted");
    assert!(quill_temps(&env.dir).is_empty());
    assert_eq!(env.read("f.txt"), b"old\n");
}

fn strace_works() -> bool {
    have("strace")
        && Command::new("strace")
            .args(["-f", "-o", "/dev/null", "true"])
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success())
}

#[test]
fn injected_enospc_and_eio_leave_the_target_untouched() {
    if !strace_works() {
        eprintln!("skipping: strace is not installed or cannot trace here");
        return;
    }
    let env = TestEnv::new();
    let content: Vec<u8> = vec![b'n'; 4 << 20];
    env.write("new.src", &content);
    let cases: [(&str, &str, &str); 4] = [
        // The stage is written in 1 MiB slices before anything else is written.
        ("write", "inject=write:error=ENOSPC:when=2", "no_space"),
        ("fsync", "inject=fsync:error=EIO", "io"),
        (
            "fsync-enospc",
            "inject=fsync,fdatasync:error=ENOSPC",
            "no_space",
        ),
        (
            "rename",
            "inject=rename,renameat,renameat2:error=EIO:when=1",
            "io",
        ),
    ];
    for (name, inject, kind) in cases {
        env.write("f.txt", "old\n");
        let mut c = Command::new("strace");
        c.args(["-f", "-qq", "-o", "/dev/null", "-e"])
            .arg(inject)
            .args([
                BIN,
                "--json",
                "write",
                "f.txt",
                "--from",
                "new.src",
                "--expect-sha256",
            ])
            .arg(sha256_hex(b"old\n"))
            .current_dir(&env.dir)
            .env("QUILL_STATE_DIR", &env.state);
        let out = run(c, None);
        assert_eq!(
            out.json["error"]["kind"], kind,
            "{name}: {}{}",
            out.stdout, out.stderr
        );
        assert_eq!(out.code, 4, "{name}");
        assert_eq!(env.read("f.txt"), b"old\n", "{name}");
        assert!(quill_temps(&env.dir).is_empty(), "{name}: temp left");
    }
}

#[test]
fn a_full_tmpfs_is_no_space() {
    let env = TestEnv::new();
    let mnt = env.path("small");
    fs::create_dir(&mnt).unwrap();
    let mounted = Command::new("mount")
        .args(["-t", "tmpfs", "-o", "size=1m", "tmpfs"])
        .arg(&mnt)
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if !mounted {
        eprintln!("skipping: cannot mount a tmpfs here (needs root)");
        return;
    }
    fs::write(mnt.join("f.txt"), "old\n").unwrap();
    env.json(&["read", "small/f.txt"]).ok();
    env.write("two-mib.src", vec![b'z'; 2 << 20]);
    let out = env.json(&["write", "small/f.txt", "--from", "two-mib.src"]);
    let kind = out.json["error"]["kind"].clone();
    let left = fs::read(mnt.join("f.txt")).unwrap();
    let temps = quill_temps(&mnt);
    let _ = Command::new("umount").arg(&mnt).status();
    assert_eq!(kind, "no_space", "{}", out.stdout);
    assert_eq!(out.code, 4);
    assert_eq!(left, b"old\n");
    assert!(temps.is_empty());
}

#[test]
fn a_read_only_directory_is_permission_denied() {
    if !have("setpriv") || !rustix_is_root() {
        eprintln!("skipping: needs setpriv (util-linux) and root to switch to nobody");
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let base = tmp.path();
    fs::set_permissions(base, fs::Permissions::from_mode(0o755)).unwrap();
    let dir = base.join("ro");
    fs::create_dir(&dir).unwrap();
    fs::write(dir.join("f.txt"), "old\n").unwrap();
    fs::set_permissions(dir.join("f.txt"), fs::Permissions::from_mode(0o666)).unwrap();
    fs::set_permissions(&dir, fs::Permissions::from_mode(0o755)).unwrap();
    let state = base.join("state");
    fs::create_dir(&state).unwrap();
    fs::set_permissions(&state, fs::Permissions::from_mode(0o777)).unwrap();
    // The binary must be reachable by nobody.
    let bin = base.join("quill");
    // Copied by `cp`: a file this process had open for writing could be inherited by a
    // child another test forks meanwhile, and exec would then fail with ETXTBSY.
    assert!(
        Command::new("cp")
            .arg(BIN)
            .arg(&bin)
            .status()
            .unwrap()
            .success()
    );
    fs::set_permissions(&bin, fs::Permissions::from_mode(0o755)).unwrap();
    let as_nobody = |args: &[&str]| {
        let mut c = Command::new("setpriv");
        c.args(["--reuid=65534", "--regid=65534", "--clear-groups"])
            .arg(&bin)
            .args(["--json", "--state-dir"])
            .arg(state.join("nobody"))
            .args(args)
            .current_dir(&dir)
            .env_clear()
            .env("HOME", base);
        run(c, None)
    };
    as_nobody(&["read", "f.txt"]).ok();
    let out = as_nobody(&["write", "f.txt", "--content", "new\n"]);
    out.err("permission_denied", 4);
    assert_eq!(fs::read(dir.join("f.txt")).unwrap(), b"old\n");
    as_nobody(&["edit", "f.txt", "--old", "old", "--new", "new"]).err("permission_denied", 4);
    assert_eq!(fs::read(dir.join("f.txt")).unwrap(), b"old\n");
}

fn rustix_is_root() -> bool {
    Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|o| o.stdout.starts_with(b"0\n"))
}
