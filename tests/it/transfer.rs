//! `quill transfer` (docs/commands/transfer.md): create-only publication, verified replacement, same-file and
//! link refusals, moves by rename and across filesystems, bounded memory with JSON progress,
//! and the failure paths — kill -9 and SIGINT mid-move, injected ENOSPC and EIO, a source
//! appended to during the copy. Big files live on tmpfs (/dev/shm, which these tests need)
//! and are removed at the end; the strace tests are `#[ignore]`d (CI runs them).

use std::fs;
use std::io::{BufRead, BufReader, Write};
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use crate::util::{
    Out, TestEnv, Transfer, exists, fail, hold_lock, kinds, lock_is_held, quill_temps,
    require_strace, sha256_hex, wait_until,
};

const MIB: u64 = 1024 * 1024;

/// `quill --json transfer args…`, successful: the typed answer.
#[track_caller]
fn ok_transfer(env: &TestEnv, args: &[&str]) -> Transfer {
    let mut a = vec!["transfer"];
    a.extend_from_slice(args);
    env.json(&a).ok().transfer()
}

fn transfer(env: &TestEnv, args: &[&str]) -> Out {
    let mut a = vec!["transfer"];
    a.extend_from_slice(args);
    env.json(&a)
}

/// A scratch directory on tmpfs (another filesystem than the test's work dir, and cheap for
/// big files); removed on drop. Every Linux has /dev/shm: without one the test fails.
#[track_caller]
pub(crate) fn shm_dir() -> tempfile::TempDir {
    tempfile::Builder::new()
        .prefix("quill-it-")
        .tempdir_in("/dev/shm")
        .unwrap_or_else(|e| {
            fail(&format!(
                "these tests need a writable /dev/shm (tmpfs): {e}"
            ))
        })
}

/// A scratch directory on another filesystem than the work dir (tmpfs), for the
/// cross-filesystem tests; fails when /dev/shm is the work dir's filesystem (TMPDIR there).
#[track_caller]
fn other_fs_dir(env: &TestEnv) -> tempfile::TempDir {
    let shm = shm_dir();
    if fs::metadata(&env.dir).unwrap().dev() == fs::metadata(shm.path()).unwrap().dev() {
        fail("/dev/shm is on the work dir's filesystem: set TMPDIR to a disk directory");
    }
    shm
}

/// Write `size` bytes of a deterministic, non-repeating pattern; returns its SHA-256.
fn big_file(path: &Path, size: u64) -> String {
    use sha2::{Digest, Sha256};
    let mut f = std::io::BufWriter::with_capacity(MIB as usize, fs::File::create(path).unwrap());
    let mut h = Sha256::new();
    let mut block = vec![0u8; MIB as usize];
    let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
    for b in block.chunks_mut(8) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        b.copy_from_slice(&x.to_le_bytes()[..b.len()]);
    }
    let mut left = size;
    let mut i = 0u64;
    while left > 0 {
        block[..8].copy_from_slice(&i.to_le_bytes());
        let n = left.min(MIB) as usize;
        f.write_all(&block[..n]).unwrap();
        h.update(&block[..n]);
        left -= n as u64;
        i += 1;
    }
    f.flush().unwrap();
    h.finalize().iter().map(|b| format!("{b:02x}")).collect()
}

fn file_sha(path: &Path) -> String {
    use sha2::{Digest, Sha256};
    let mut f = fs::File::open(path).unwrap();
    let mut h = Sha256::new();
    let mut buf = vec![0u8; MIB as usize];
    loop {
        let n = std::io::Read::read(&mut f, &mut buf).unwrap();
        if n == 0 {
            break;
        }
        h.update(&buf[..n]);
    }
    h.finalize().iter().map(|b| format!("{b:02x}")).collect()
}

/// A `--progress json` line.
#[derive(serde::Deserialize)]
struct Progress {
    event: String,
    bytes: u64,
    total: u64,
}

/// A cheap varying number for "random moments" (no rand dependency).
fn jitter(i: u64, modulo: u64) -> u64 {
    let t = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .subsec_nanos() as u64;
    (t ^ (i.wrapping_mul(0x9e37_79b9))) % modulo
}

#[test]
fn copy_publishes_the_same_bytes_and_reports_them() {
    let env = TestEnv::new();
    env.write("a.txt", "hello\n");
    let t = ok_transfer(&env, &["a.txt", "b.txt"]);
    env.assert_file("b.txt", "hello\n");
    env.assert_file("a.txt", "hello\n");
    assert_eq!(t.source, env.path("a.txt").to_str().unwrap());
    assert_eq!(t.destination, env.path("b.txt").to_str().unwrap());
    assert_eq!(t.bytes, 6);
    assert_eq!(t.sha256, Some(sha256_hex(b"hello\n")));
    assert_eq!(t.method, "copy");
    assert!(!t.source_removed && !t.replaced);
    assert_eq!(t.file_access.path, env.path("b.txt").to_str().unwrap());
    assert_eq!(t.file_access.access, "write");
    assert!(t.warnings.is_empty());
    assert!(quill_temps(&env.dir).is_empty());
}

#[test]
fn copy_keeps_the_mode_bits() {
    use std::os::unix::fs::PermissionsExt;
    let env = TestEnv::new();
    let a = env.write("run.sh", "#!/bin/sh\n");
    fs::set_permissions(&a, fs::Permissions::from_mode(0o750)).unwrap();
    ok_transfer(&env, &["run.sh", "copy.sh"]);
    let mode = fs::metadata(env.path("copy.sh")).unwrap().mode() & 0o777;
    assert_eq!(mode & 0o700, 0o700, "{mode:o}");
    // A read-only private file: the mode is set before the data is written (never readable by
    // others through the temporary file), and writing still works through the open file.
    let secret = env.write("secret", "s3cret");
    fs::set_permissions(&secret, fs::Permissions::from_mode(0o400)).unwrap();
    ok_transfer(&env, &["secret", "secret.copy"]);
    env.assert_file("secret.copy", "s3cret");
    assert_eq!(
        fs::metadata(env.path("secret.copy")).unwrap().mode() & 0o777,
        0o400
    );
    // A move across filesystems keeps the mode and the modification time, as mv does.
    let shm = other_fs_dir(&env);
    let mtime = fs::metadata(&secret).unwrap().mtime();
    let dst = shm.path().join("secret");
    let t = ok_transfer(&env, &["secret", dst.to_str().unwrap(), "--move"]);
    assert_eq!(t.method, "copy");
    let m = fs::metadata(&dst).unwrap();
    assert_eq!((m.mode() & 0o777, m.mtime()), (0o400, mtime));
}

#[test]
fn empty_file() {
    let env = TestEnv::new();
    env.write("e", "");
    let t = ok_transfer(&env, &["e", "f"]);
    assert_eq!(t.bytes, 0);
    assert_eq!(t.sha256, Some(sha256_hex(b"")));
    env.assert_file("f", "");
}

#[test]
fn copy_into_a_directory_keeps_the_name() {
    let env = TestEnv::new();
    env.write("src/a.txt", "x");
    fs::create_dir(env.path("dist")).unwrap();
    let t = ok_transfer(&env, &["src/a.txt", "dist"]);
    env.assert_file("dist/a.txt", "x");
    assert_eq!(t.destination, env.path("dist/a.txt").to_str().unwrap());
}

#[test]
fn a_missing_directory_with_a_trailing_slash_is_not_found() {
    let env = TestEnv::new();
    env.write("a.txt", "x");
    transfer(&env, &["a.txt", "nowhere/"]).err("not_found", 4);
    transfer(&env, &["a.txt", "nowhere/b.txt", "--no-parents"]).err("not_found", 4);
    assert!(!exists(&env.path("nowhere")));
}

/// One rule with `write`: missing parent directories of the destination are made (`--parents`
/// says so out loud), `--no-parents` refuses with `not_found` and makes nothing.
#[test]
fn missing_parent_directories_are_made_as_write_makes_them() {
    let env = TestEnv::new();
    env.write("a.txt", "copied");
    let t = ok_transfer(&env, &["a.txt", "a/b/c/f.txt"]);
    assert_eq!(t.destination, env.path("a/b/c/f.txt").to_str().unwrap());
    assert!(!t.replaced);
    env.assert_file("a/b/c/f.txt", "copied");
    env.assert_file("a.txt", "copied");
    ok_transfer(&env, &["a.txt", "p/q/f.txt", "--parents"]);
    env.assert_file("p/q/f.txt", "copied");
    // A move too (a rename into the new directory).
    env.write("m.txt", "moved");
    let t = ok_transfer(&env, &["m.txt", "x/y/z/m.txt", "--move"]);
    assert!(t.source_removed);
    env.assert_file("x/y/z/m.txt", "moved");
    assert!(!exists(&env.path("m.txt")));

    // --no-parents: not_found naming the missing directory, a hint with the call that makes
    // it, and nothing made — also for a move, whose source stays.
    let out = transfer(&env, &["a.txt", "n/o/f.txt", "--no-parents"]);
    let e = out.err("not_found", 4).failure().error;
    assert_eq!(e.field("path"), env.path("n/o").to_str().unwrap());
    let hint = e.hint.unwrap();
    assert!(
        hint.contains("--no-parents forbids creating the missing directories")
            && hint.contains(" transfer a.txt n/o/f.txt`"),
        "{hint}"
    );
    transfer(&env, &["a.txt", "n/o/f.txt", "--no-parents", "--move"]).err("not_found", 4);
    assert!(!exists(&env.path("n")));
    env.assert_file("a.txt", "copied");
    // The hinted call works.
    ok_transfer(&env, &["a.txt", "n/o/f.txt"]);
    env.assert_file("n/o/f.txt", "copied");
    // Both at once is a usage error.
    transfer(&env, &["a.txt", "r/f.txt", "--parents", "--no-parents"]).err("usage", 2);
    assert!(!exists(&env.path("r")));
    // write: the same flags, the same rule.
    env.json(&["write", "w/v/f.txt", "--content", "w", "--parents"])
        .ok();
    env.assert_file("w/v/f.txt", "w");
    assert!(quill_temps(&env.dir).is_empty());
}

#[test]
fn an_existing_destination_is_refused_and_untouched() {
    let env = TestEnv::new();
    env.write("a.txt", "new");
    env.write("b.txt", "old");
    let out = transfer(&env, &["a.txt", "b.txt"]);
    out.err("destination_exists", 3);
    env.assert_file("b.txt", "old");
    // The message never shows a hash of a file the caller has not read.
    assert!(!out.stdout.contains(&sha256_hex(b"old")));
    transfer(&env, &["a.txt", "b.txt", "--move"]).err("destination_exists", 3);
    env.assert_file("a.txt", "new");
    env.assert_file("b.txt", "old");
    assert!(quill_temps(&env.dir).is_empty());
}

#[test]
fn replace_sha256_replaces_only_the_named_version() {
    let env = TestEnv::new();
    env.write("a.txt", "new");
    env.write("b.txt", "old");
    let wrong = sha256_hex(b"something else");
    transfer(&env, &["a.txt", "b.txt", "--replace-sha256", &wrong]).err("destination_exists", 3);
    env.assert_file("b.txt", "old");
    let right = sha256_hex(b"old");
    let t = ok_transfer(&env, &["a.txt", "b.txt", "--replace-sha256", &right]);
    assert!(t.replaced);
    env.assert_file("b.txt", "new");
    // The same for a move within one filesystem (a replacing rename).
    env.write("c.txt", "third");
    let current = sha256_hex(b"new");
    let t = ok_transfer(
        &env,
        &["c.txt", "b.txt", "--move", "--replace-sha256", &current],
    );
    assert_eq!(t.method, "rename");
    assert!(t.replaced && t.source_removed);
    env.assert_file("b.txt", "third");
    assert!(!exists(&env.path("c.txt")));
    transfer(&env, &["a.txt", "b.txt", "--replace-sha256", "xyz"]).err("invalid_argument", 2);
}

#[test]
fn expect_sha256_guards_the_source() {
    let env = TestEnv::new();
    env.write("a.txt", "content");
    let wrong = sha256_hex(b"other");
    transfer(&env, &["a.txt", "b.txt", "--expect-sha256", &wrong]).err("source_changed", 3);
    assert!(!exists(&env.path("b.txt")));
    transfer(
        &env,
        &["a.txt", "b.txt", "--move", "--expect-sha256", &wrong],
    )
    .err("source_changed", 3);
    env.assert_file("a.txt", "content");
    assert!(!exists(&env.path("b.txt")));
    let right = sha256_hex(b"content");
    ok_transfer(&env, &["a.txt", "b.txt", "--expect-sha256", &right]);
    env.assert_file("b.txt", "content");
    let t = ok_transfer(
        &env,
        &["a.txt", "c.txt", "--move", "--expect-sha256", &right],
    );
    assert_eq!(t.method, "rename");
    assert_eq!(t.sha256, Some(right));
    env.assert_file("c.txt", "content");
    assert!(!exists(&env.path("a.txt")));
    assert!(quill_temps(&env.dir).is_empty());
}

#[test]
fn same_file_is_refused_by_path_hard_link_and_symlink() {
    let env = TestEnv::new();
    env.write("a.txt", "x");
    transfer(&env, &["a.txt", "a.txt"]).err("same_file", 3);
    transfer(&env, &["a.txt", "."]).err("same_file", 3);
    fs::hard_link(env.path("a.txt"), env.path("hard.txt")).unwrap();
    for args in [
        &["a.txt", "hard.txt"][..],
        &["hard.txt", "a.txt", "--move"][..],
        &["a.txt", "hard.txt", "--replace-sha256", &sha256_hex(b"x")][..],
    ] {
        transfer(&env, args).err("same_file", 3);
    }
    std::os::unix::fs::symlink("a.txt", env.path("link")).unwrap();
    transfer(&env, &["link", "a.txt"]).err("same_file", 3);
    transfer(&env, &["link", "hard.txt", "--move"]).err("same_file", 3);
    transfer(&env, &["a.txt", "link"]).err("same_file", 3);
    env.assert_file("a.txt", "x");
    env.assert_file("hard.txt", "x");
}

#[test]
fn a_destination_that_is_a_link_is_refused() {
    let env = TestEnv::new();
    env.write("a.txt", "new");
    env.write("target.txt", "old");
    std::os::unix::fs::symlink("target.txt", env.path("link")).unwrap();
    let sha = sha256_hex(b"old");
    transfer(&env, &["a.txt", "link"]).err("symlink", 3);
    transfer(&env, &["a.txt", "link", "--replace-sha256", &sha]).err("symlink", 3);
    std::os::unix::fs::symlink("missing", env.path("dangling")).unwrap();
    transfer(&env, &["a.txt", "dangling"]).err("symlink", 3);
    env.assert_file("target.txt", "old");
    assert!(
        fs::symlink_metadata(env.path("link"))
            .unwrap()
            .file_type()
            .is_symlink()
    );
}

#[test]
fn a_source_link_transfers_the_file_it_points_to() {
    let env = TestEnv::new();
    env.write("real.txt", "data");
    std::os::unix::fs::symlink("real.txt", env.path("link")).unwrap();
    let t = ok_transfer(&env, &["link", "copy.txt"]);
    assert_eq!(t.source, env.path("real.txt").to_str().unwrap());
    assert_eq!(t.via_symlink.as_deref(), env.path("link").to_str());
    env.assert_file("copy.txt", "data");
}

#[test]
fn special_and_missing_sources() {
    let env = TestEnv::new();
    fs::create_dir(env.path("dir")).unwrap();
    transfer(&env, &["dir", "x"]).err("is_directory", 3);
    env.program("mkfifo").arg(env.path("fifo")).run().ok();
    // Never opened: a FIFO without a writer would block forever.
    let e = transfer(&env, &["fifo", "x"])
        .err("irregular_file", 3)
        .failure()
        .error;
    assert_eq!(e.field("fileType"), "FIFO");
    transfer(&env, &["missing.txt", "x"]).err("not_found", 4);
    assert!(!exists(&env.path("x")));
    env.write("a.txt", "x");
    fs::create_dir(env.path("out")).unwrap();
    fs::create_dir(env.path("out/a.txt")).unwrap();
    transfer(&env, &["a.txt", "out"]).err("is_directory", 3);
}

#[test]
fn read_only_refuses() {
    let env = TestEnv::new();
    env.write("a.txt", "x");
    transfer(&env, &["--read-only", "a.txt", "b.txt"]).err("read_only", 3);
    transfer(&env, &["a.txt", "b.txt", "--move", "--read-only"]).err("read_only", 3);
    assert!(!exists(&env.path("b.txt")));
    assert!(exists(&env.path("a.txt")));
}

#[test]
fn move_within_one_filesystem_is_a_rename() {
    let env = TestEnv::new();
    env.write("a.txt", "moved");
    let ino = fs::metadata(env.path("a.txt")).unwrap().ino();
    let t = ok_transfer(&env, &["a.txt", "b.txt", "--move"]);
    assert_eq!(t.method, "rename");
    assert!(t.source_removed);
    assert_eq!(t.bytes, 5);
    assert_eq!(t.sha256, None, "a rename reads nothing");
    assert!(!exists(&env.path("a.txt")));
    assert_eq!(fs::metadata(env.path("b.txt")).unwrap().ino(), ino);
    let text = env.text(&["transfer", "b.txt", "c.txt", "--move"]);
    text.ok().check(
        text.stdout.starts_with("moved b.txt -> c.txt"),
        "a `moved` line",
    );
    env.assert_file("c.txt", "moved");
}

#[test]
fn move_across_filesystems_copies_then_removes_the_source() {
    let env = TestEnv::new();
    let shm = other_fs_dir(&env);
    let data = vec![7u8; 3 * MIB as usize + 11];
    env.write("a.bin", &data);
    let dst = shm.path().join("a.bin");
    let t = ok_transfer(&env, &["a.bin", dst.to_str().unwrap(), "--move"]);
    assert_eq!(t.method, "copy");
    assert!(t.source_removed);
    assert_eq!(t.sha256, Some(sha256_hex(&data)));
    assert_eq!(t.bytes, data.len() as u64);
    assert!(fs::read(&dst).unwrap() == data, "the moved bytes differ");
    assert!(!exists(&env.path("a.bin")));
    assert!(quill_temps(shm.path()).is_empty());
}

#[test]
fn the_session_baseline_follows_a_move() {
    let env = TestEnv::new();
    env.write("a.txt", "one\n");
    env.json(&["read", "a.txt"]).ok();
    ok_transfer(&env, &["a.txt", "b.txt", "--move"]);
    let files = || env.json(&["state", "show"]).ok().state().paths();
    let b = env.path("b.txt").to_str().unwrap().to_string();
    assert_eq!(files(), vec![b.clone()]);
    // Across filesystems too (copy method): the baseline is carried to the new path.
    let shm = other_fs_dir(&env);
    let dst = shm.path().join("c.txt");
    assert_eq!(
        ok_transfer(&env, &["b.txt", dst.to_str().unwrap(), "--move"]).method,
        "copy"
    );
    assert_eq!(files(), vec![dst.to_str().unwrap().to_string()]);
    // A copy of a file the session never read gives no baseline.
    env.write("unread.txt", "u");
    ok_transfer(&env, &["unread.txt", "copy.txt"]);
    assert_eq!(files(), vec![dst.to_str().unwrap().to_string()]);
}

#[test]
fn hard_linked_source_and_destination_with_move_keep_both() {
    let env = TestEnv::new();
    env.write("a.txt", "x");
    fs::hard_link(env.path("a.txt"), env.path("b.txt")).unwrap();
    transfer(&env, &["a.txt", "b.txt", "--move"]).err("same_file", 3);
    assert!(exists(&env.path("a.txt")) && exists(&env.path("b.txt")));
}

#[test]
fn a_512_mib_copy_runs_in_bounded_memory_with_json_progress() {
    let env = TestEnv::new();
    let shm = shm_dir();
    let src = shm.path().join("big.bin");
    let dst = shm.path().join("copy.bin");
    let sha = big_file(&src, 512 * MIB);
    let (out, peak_kib) = env
        .cmd([
            "--json",
            "transfer",
            src.to_str().unwrap(),
            dst.to_str().unwrap(),
            "--progress",
            "json",
        ])
        .spawn()
        .wait_peak_rss();
    let t = out.ok().transfer();
    assert_eq!(t.sha256, Some(sha.clone()));
    assert_eq!(t.bytes, 512 * MIB);
    eprintln!("peak RSS of a 512 MiB copy: {peak_kib} KiB");
    out.check(
        peak_kib > 0 && peak_kib < 16 * 1024,
        format!("peak RSS {peak_kib} KiB"),
    );
    let events: Vec<Progress> = out
        .stderr
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| out.fail(&format!("{l:?}: {e}"))))
        .collect();
    out.check(events.len() >= 2, "at least two progress events");
    let mut last = 0;
    for e in &events {
        assert_eq!(e.event, "progress");
        assert_eq!(e.total, 512 * MIB);
        out.check(e.bytes >= last, "progress goes forward");
        last = e.bytes;
    }
    assert_eq!(last, 512 * MIB);
    assert_eq!(file_sha(&dst), sha);
    fs::remove_file(&dst).unwrap();
    assert_eq!(fs::metadata(&src).unwrap().len(), 512 * MIB);
}

#[test]
fn kill_9_and_sigint_mid_move_never_lose_or_half_publish() {
    let env = TestEnv::new();
    let shm = other_fs_dir(&env);
    let size = 768 * MIB;
    let src = env.path("big.bin");
    let dst = shm.path().join("big.bin");
    let sha = big_file(&src, size);
    // Calibrate: how long does a whole move take here?
    let t = Instant::now();
    ok_transfer(
        &env,
        &[src.to_str().unwrap(), dst.to_str().unwrap(), "--move"],
    );
    let whole = t.elapsed().as_millis().max(50) as u64;
    fs::rename(&dst, &src).unwrap_or_else(|_| {
        fs::copy(&dst, &src).unwrap();
        fs::remove_file(&dst).unwrap();
    });
    let signals = ["KILL", "INT", "KILL", "INT", "TERM", "KILL"];
    for (i, sig) in signals.iter().enumerate() {
        if !exists(&src) {
            // The previous round completed the move: put the file back.
            fs::copy(&dst, &src).unwrap();
            fs::remove_file(&dst).unwrap();
        }
        let child = env
            .cmd([
                "--json",
                "transfer",
                src.to_str().unwrap(),
                dst.to_str().unwrap(),
                "--move",
            ])
            .spawn();
        let delay = jitter(i as u64, whole + whole / 4);
        std::thread::sleep(Duration::from_millis(delay));
        let signal = match *sig {
            "KILL" => libc::SIGKILL,
            "INT" => libc::SIGINT,
            _ => libc::SIGTERM,
        };
        child.signal(signal);
        let out = child.wait();
        let why = format!(
            "round {i}: SIG{sig} after {delay} ms; exit {}, signal {:?}; {}",
            out.code, out.signal, out.stdout
        );
        let dst_complete = exists(&dst);
        eprintln!(
            "{why}: destination {}, source {}",
            if dst_complete { "complete" } else { "absent" },
            if exists(&src) { "present" } else { "removed" }
        );
        if dst_complete {
            assert_eq!(file_sha(&dst), sha, "partial destination: {why}");
        }
        if exists(&src) {
            assert_eq!(file_sha(&src), sha, "source damaged: {why}");
        } else {
            assert!(dst_complete, "source lost: {why}");
        }
        // A signal that lands before quill installs its handler ends it like kill -9 would:
        // no answer. A handled one gets its answer, then quill dies by it.
        let handled = !out.stdout.trim().is_empty();
        if *sig != "KILL" && handled {
            if out.json["ok"] == true {
                // Done before the signal (exit 0), or too late to abandon: answered as done,
                // then quill dies by the signal all the same (a shell loop stops).
                assert!(out.code == 0 || out.signal == Some(signal), "{why}");
                assert!(dst_complete && !exists(&src), "{why}");
            } else {
                out.interrupted_by(signal);
                assert!(!dst_complete, "{why}");
                assert!(quill_temps(shm.path()).is_empty(), "temp left: {why}");
            }
        }
        // Files a killed process left behind may stay (docs/model.md); clean up for the next round.
        for t in quill_temps(shm.path()) {
            fs::remove_file(shm.path().join(t)).unwrap();
        }
        if dst_complete && exists(&src) {
            fs::remove_file(&dst).unwrap();
        }
    }
    let _ = fs::remove_file(&src);
}

/// `strace -f -qq -o /dev/null <options> quill --json args…`; `options` is split at spaces,
/// `x=y` words get a `-e`.
fn strace_run(env: &TestEnv, options: &str, args: &[&str]) -> Out {
    let mut wrapper = vec!["strace", "-f", "-qq", "-o", "/dev/null"];
    for a in options.split(' ') {
        if !a.starts_with('-') && a.contains('=') {
            wrapper.push("-e");
        }
        wrapper.push(a);
    }
    env.cmd(["--json"]).args(args).wrapped(wrapper).run()
}

#[test]
#[ignore = "needs strace"]
fn injected_enospc_and_eio_publish_nothing() {
    require_strace();
    let env = TestEnv::new();
    let data = vec![3u8; 8 * MIB as usize];
    env.write("a.bin", &data);
    // Find which write(2) of the copying thread is the second chunk (earlier writes belong to
    // the lock files), then fail exactly that one.
    let trace = env.path("trace.txt");
    let traced = strace_run(
        &env,
        &format!("trace=write -o {}", trace.display()),
        &["transfer", "a.bin", "traced.bin"],
    );
    traced.ok();
    let lines = fs::read_to_string(&trace).unwrap();
    let first_chunk = lines
        .lines()
        .find(|l| {
            l.contains(" write(")
                && l.rsplit("= ")
                    .next()
                    .and_then(|n| n.trim().parse::<u64>().ok())
                    .is_some_and(|n| n >= 64 * 1024)
        })
        .expect("a chunk write in the trace");
    let pid = first_chunk.split_whitespace().next().unwrap();
    let nth = lines
        .lines()
        .filter(|l| l.starts_with(pid) && l.contains(" write("))
        .position(|l| l == first_chunk)
        .unwrap()
        + 2;
    fs::remove_file(&trace).unwrap();
    fs::remove_file(env.path("traced.bin")).unwrap();
    let out = strace_run(
        &env,
        &format!("inject=write:error=ENOSPC:when={nth}"),
        &["transfer", "a.bin", "b.bin"],
    );
    let e = out.err("no_space", 4).failure().error;
    assert_eq!(e.field("operation"), "write");
    // EIO on the fsync of the temporary file, for a copy and a move across filesystems.
    let out = strace_run(
        &env,
        "inject=fsync:error=EIO:when=1",
        &["transfer", "a.bin", "b.bin"],
    );
    let e = out.err("io", 4).failure().error;
    assert_eq!(e.field("operation"), "fsync");
    let shm = other_fs_dir(&env);
    let dst = shm.path().join("b.bin");
    let out = strace_run(
        &env,
        "inject=fsync:error=EIO:when=1",
        &["transfer", "a.bin", dst.to_str().unwrap(), "--move"],
    );
    out.err("io", 4);
    assert!(!exists(&dst));
    assert!(quill_temps(shm.path()).is_empty());
    assert!(!exists(&env.path("b.bin")));
    env.assert_file("a.bin", &data);
    assert!(quill_temps(&env.dir).is_empty());
}

/// A failure to look at the source again (its third `openat`: after the stat and the open of
/// the copy, the check that it is unchanged) is that I/O error's own kind — the source did not
/// change, so `source_changed` ("read it again") would send the caller the wrong way.
#[test]
#[ignore = "needs strace"]
fn an_io_error_looking_at_the_source_again_is_not_source_changed() {
    require_strace();
    let env = TestEnv::new();
    env.write("a.txt", "data");
    let src = env.path("a.txt");
    let src = src.to_str().unwrap();
    // strace's -P matches a path argument as written: quill opens the source by its name in
    // its directory's descriptor.
    for (errno, kind, args) in [
        ("EIO", "io", &["transfer", "a.txt", "b.txt"][..]),
        ("EDQUOT", "no_space", &["transfer", "a.txt", "b.txt"][..]),
        ("ENOSPC", "no_space", &["transfer", "a.txt", "b.txt"][..]),
        ("EIO", "io", &["transfer", "a.txt", "b.txt", "--move"][..]),
    ] {
        let out = strace_run(
            &env,
            &format!("-P a.txt inject=openat:error={errno}:when=3"),
            args,
        );
        let e = out.err(kind, 4).failure().error;
        assert_eq!(e.field("operation"), "inspect", "{errno}");
        assert_eq!(e.field("path"), src);
        assert!(!exists(&env.path("b.txt")), "{errno}: nothing published");
        env.assert_file("a.txt", "data");
        assert!(quill_temps(&env.dir).is_empty(), "{errno}: temp left");
    }
}

#[test]
fn a_source_appended_to_during_the_copy_is_source_changed() {
    let env = TestEnv::new();
    let shm = other_fs_dir(&env);
    // A move across filesystems: a copy whose source must survive the refusal.
    let src = env.path("grow.bin");
    let dst = shm.path().join("copy.bin");
    big_file(&src, 256 * MIB);
    let mut child = env
        .cmd([
            "--json",
            "transfer",
            src.to_str().unwrap(),
            dst.to_str().unwrap(),
            "--move",
            "--progress",
            "json",
        ])
        .spawn();
    // Append as soon as the first progress event shows the copy is under way (events come
    // every 64 MiB or 200 ms: the first one is never the last of 256 MiB).
    let mut stderr = BufReader::new(child.take_stderr());
    let mut line = String::new();
    stderr.read_line(&mut line).unwrap();
    let first: Progress = serde_json::from_str(&line)
        .unwrap_or_else(|e| child.fail(&format!("first progress line {line:?}: {e}")));
    if let Err(e) = crate::schema::validate_event(&serde_json::from_str(&line).unwrap()) {
        child.fail(&e);
    }
    if first.bytes >= first.total {
        child.fail(&format!(
            "the copy was done at its first progress event: {line}"
        ));
    }
    let mut f = fs::OpenOptions::new().append(true).open(&src).unwrap();
    f.write_all(b"appended").unwrap();
    drop(f);
    let mut rest = String::new();
    std::io::Read::read_to_string(&mut stderr, &mut rest).unwrap();
    let out = child.wait();
    out.err("source_changed", 3);
    assert!(!exists(&dst));
    assert!(quill_temps(shm.path()).is_empty());
    assert_eq!(fs::metadata(&src).unwrap().len(), 256 * MIB + 8);
}

#[test]
fn locks_and_state_dir_are_used() {
    let env = TestEnv::new();
    env.write("a.txt", "x");
    ok_transfer(&env, &["a.txt", "b.txt"]);
    let mut locks: Vec<PathBuf> = fs::read_dir(env.state.join("locks"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    locks.sort();
    let mut want = vec![
        env.lock_file(&env.path("a.txt")),
        env.lock_file(&env.path("b.txt")),
    ];
    want.sort();
    assert_eq!(locks, want);
}

#[test]
fn racing_transfers_to_one_destination_publish_exactly_one() {
    let env = TestEnv::new();
    let sources: Vec<String> = (0..4)
        .map(|i| {
            let name = format!("s{i}.txt");
            env.write(&name, format!("source {i}\n").repeat(1000));
            name
        })
        .collect();
    let children: Vec<_> = sources
        .iter()
        .map(|s| env.cmd(["--json", "transfer", s, "dst.txt"]).spawn())
        .collect();
    let mut winners = Vec::new();
    for (i, child) in children.into_iter().enumerate() {
        let out = child.wait();
        if out.code == 0 {
            out.ok().transfer();
            winners.push(i);
        } else {
            out.err("destination_exists", 3);
        }
    }
    assert_eq!(winners.len(), 1, "{winners:?}");
    env.assert_file("dst.txt", env.read(&sources[winners[0]]));
    assert!(quill_temps(&env.dir).is_empty());
}

#[test]
fn progress_none_and_small_files_print_nothing_on_stderr() {
    let env = TestEnv::new();
    env.write("a.txt", "x".repeat(100_000));
    env.json(&["transfer", "a.txt", "b.txt", "--progress", "none"])
        .ok()
        .assert_stderr("");
    // auto, not a terminal
    env.json(&["transfer", "a.txt", "c.txt"])
        .ok()
        .assert_stderr("");
    let out = env.json(&["transfer", "a.txt", "d.txt", "--progress", "json"]);
    out.ok();
    let last: Progress = serde_json::from_str(out.stderr.lines().last().unwrap_or(""))
        .unwrap_or_else(|e| out.fail(&format!("the last progress line: {e}")));
    assert_eq!((last.bytes, last.total), (100_000, 100_000));
    for f in ["b.txt", "c.txt", "d.txt"] {
        env.assert_file(f, "x".repeat(100_000));
    }
}

#[test]
#[ignore = "needs strace"]
fn a_source_changed_after_the_copy_is_kept_and_the_result_says_why() {
    require_strace();
    let env = TestEnv::new();
    let shm = other_fs_dir(&env);
    let data = b"version 1\n".repeat(1000);
    env.write("a.txt", &data);
    let dst = shm.path().join("a.txt");
    // Hold quill for a moment right after it publishes (renameat2), and change the source then.
    let child = env
        .cmd(["--json", "transfer", "a.txt"])
        .arg(&dst)
        .arg("--move")
        .wrapped([
            "strace",
            "-f",
            "-qq",
            "-o",
            "/dev/null",
            "-e",
            "inject=renameat2:delay_exit=800000",
        ])
        .spawn();
    if !wait_until(Duration::from_secs(20), || exists(&dst)) {
        child.fail("the destination never appeared");
    }
    fs::OpenOptions::new()
        .append(true)
        .open(env.path("a.txt"))
        .unwrap()
        .write_all(b"version 2\n")
        .unwrap();
    let out = child.wait();
    let t = out.ok().transfer();
    assert!(!t.source_removed);
    assert!(
        t.source_kept_reason
            .as_deref()
            .is_some_and(|r| r.contains("modified")),
        "{:?}",
        t.source_kept_reason
    );
    assert_eq!(kinds(&t.warnings), ["source_kept"]);
    assert!(fs::read(&dst).unwrap() == data, "the destination differs");
    assert!(env.read("a.txt").ends_with(b"version 2\n"));
}

/// Two transfers in opposite directions lock the two paths in one (sorted) order, or they could
/// deadlock. Made observable: the test holds the lock of the path that sorts *second*; quill,
/// blocked on it, must already hold the lock of the path that sorts *first* — for A→B and for
/// B→A. Taking the locks in argument order would leave one direction waiting for the second
/// path's lock with the first one free.
#[test]
fn opposite_transfers_take_the_locks_in_one_order() {
    let env = TestEnv::new();
    let (a, b) = (env.write("a.txt", "A"), env.write("b.txt", "B"));
    assert!(a < b, "a.txt sorts first");
    let (first, second) = (env.lock_file(&a), env.lock_file(&b));
    for (from, to) in [("a.txt", "b.txt"), ("b.txt", "a.txt")] {
        let held = hold_lock(&second);
        let current = sha256_hex(&env.read(to));
        let mut child = env
            .cmd([
                "--json",
                "--lock-timeout",
                "30",
                "transfer",
                from,
                to,
                "--replace-sha256",
                &current,
            ])
            .spawn();
        // quill is at the second lock once it has that file open (it opens a lock file only
        // to take it, and holds none of ours).
        if !wait_until(Duration::from_secs(20), || {
            child.open_files().contains(&second)
        }) {
            child.fail(&format!(
                "{from} -> {to}: quill never opened the second lock"
            ));
        }
        if !child.is_running() {
            child.fail(&format!(
                "{from} -> {to}: quill ended while the lock was held"
            ));
        }
        if !lock_is_held(&first) {
            child.fail(&format!(
                "{from} -> {to}: waiting for the lock of {} without holding the lock of {}: \
                 the locks are not taken in sorted order",
                b.display(),
                a.display()
            ));
        }
        drop(held);
        let t = child.wait_at_most(Duration::from_secs(30)).ok().transfer();
        assert!(t.replaced);
        env.assert_file(to, env.read(from));
    }
}
