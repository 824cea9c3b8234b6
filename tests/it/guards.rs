//! The guarded layer seen from outside, one defense at a time: the directory fsync after each
//! publication (watched with strace), the umask default of a new file, the owner a replacement
//! keeps, a lock file planted as a symbolic link, and the input guard of `--old-file`,
//! `--edits FILE` and `write --from` (regular files or named pipes, never devices; capped).

use std::fs;
use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::path::Path;
use std::process::Command;

use crate::util::*;

fn mkfifo(path: &Path) {
    let ok = Command::new("mkfifo").arg(path).status().unwrap().success();
    assert!(ok, "mkfifo {}", path.display());
}

/// Run quill under `strace -f`, tracing renames, opens and fsyncs; returns (out, trace).
fn straced(env: &TestEnv, args: &[&str]) -> Option<(Out, String)> {
    require_strace();
    let log = env.dir.parent().unwrap().join("strace.log");
    let out = env
        .program("strace")
        .args([
            "-f",
            "-qq",
            "-y",
            "-e",
            "trace=openat,fsync,rename,renameat,renameat2,link,linkat,unlink,unlinkat",
            "-o",
        ])
        .args([log.as_os_str()])
        .args([BIN, "--json"])
        .args(args)
        .run();
    Some((out, fs::read_to_string(&log).unwrap()))
}

/// Whether, after the first trace line that mentions `after` (a rename or unlink of the
/// target), a descriptor of the directory `dir` is fsync'ed (`-y` shows `fsync(3</dir>)`).
fn dir_fsynced_after(trace: &str, after: &str, dir: &Path) -> bool {
    let lines: Vec<&str> = trace.lines().collect();
    let Some(start) = lines.iter().position(|l| l.contains(after)) else {
        panic!("no {after} in the trace:\n{trace}");
    };
    let synced = format!("<{}>) = 0", dir.display());
    lines[start..]
        .iter()
        .any(|l| l.contains("fsync(") && l.contains(&synced))
}

#[test]
#[ignore = "needs strace"]
fn each_publication_fsyncs_its_directory() {
    let env = TestEnv::new();
    let (out, trace) = straced(&env, &["write", "new.txt", "--content", "one\n"]).unwrap();
    out.ok();
    assert!(
        dir_fsynced_after(&trace, "new.txt\"", &env.dir),
        "create:\n{trace}"
    );

    env.json(&["read", "new.txt"]).ok();
    let (out, trace) = straced(&env, &["write", "new.txt", "--content", "two\n"]).unwrap();
    out.ok();
    assert!(
        dir_fsynced_after(&trace, "rename", &env.dir),
        "replace:\n{trace}"
    );

    // Undo of the creation removes the file: the removal is made durable too.
    let (out, _) = straced(&env, &["undo", "new.txt"]).unwrap();
    out.ok();
    let (out, trace) = straced(&env, &["undo", "new.txt"]).unwrap();
    out.ok();
    assert!(!exists(&env.path("new.txt")));
    assert!(
        dir_fsynced_after(&trace, "unlink", &env.dir),
        "undo:\n{trace}"
    );

    // A move within one file system: one rename, then the destination's directory.
    env.write("src.txt", "moved\n");
    fs::create_dir(env.path("sub")).unwrap();
    let (out, trace) = straced(&env, &["transfer", "src.txt", "sub/dst.txt", "--move"]).unwrap();
    out.ok();
    assert!(
        dir_fsynced_after(&trace, "dst.txt\"", &env.path("sub")),
        "move:\n{trace}"
    );
}

#[test]
fn a_new_file_gets_the_umask_default() {
    let env = TestEnv::new();
    env.program("sh")
        .args([
            "-c",
            "umask 027; exec \"$0\" --json write new.txt --content x",
            BIN,
        ])
        .run()
        .ok();
    let mode = fs::metadata(env.path("new.txt"))
        .unwrap()
        .permissions()
        .mode();
    assert_eq!(mode & 0o7777, 0o640);
}

#[test]
fn a_replacement_keeps_its_mode() {
    let env = TestEnv::new();
    let f = env.write("f.txt", "old\n");
    fs::set_permissions(&f, fs::Permissions::from_mode(0o751)).unwrap();
    env.json(&["read", "f.txt"]).ok();
    env.json(&["write", "f.txt", "--content", "new\n"]).ok();
    assert_eq!(fs::metadata(&f).unwrap().mode() & 0o7777, 0o751);
}

#[test]
#[ignore = "needs root (chown to another user)"]
fn a_replacement_keeps_its_owner() {
    require_root("to give the file another owner");
    let env = TestEnv::new();
    let f = env.write("f.txt", "old\n");
    std::os::unix::fs::chown(&f, Some(65534), Some(65534)).unwrap();
    env.json(&["read", "f.txt"]).ok();
    env.json(&["write", "f.txt", "--content", "new\n"]).ok();
    let m = fs::metadata(&f).unwrap();
    assert_eq!((m.uid(), m.gid()), (65534, 65534));
    assert_eq!(fs::read(&f).unwrap(), b"new\n");
}

#[test]
fn a_lock_file_planted_as_a_link_is_not_followed() {
    let env = TestEnv::new();
    env.write("f.txt", "old\n");
    env.json(&["read", "f.txt"]).ok();
    let victim = env.write("victim.txt", "keep me\n");
    let canonical = fs::canonicalize(env.path("f.txt")).unwrap();
    let lock = env.state.join("locks").join(format!(
        "{}.lock",
        sha256_hex(canonical.as_os_str().as_encoded_bytes())
    ));
    fs::create_dir_all(lock.parent().unwrap()).unwrap();
    std::os::unix::fs::symlink(&victim, &lock).unwrap();
    env.json(&["write", "f.txt", "--content", "new\n"])
        .err("state_unavailable", 4);
    assert_eq!(env.read("victim.txt"), b"keep me\n");
    assert_eq!(env.read("f.txt"), b"old\n");
}

#[test]
fn edit_inputs_are_files_or_named_pipes_under_the_cap() {
    let env = TestEnv::new();
    env.write("f.txt", "alpha\nbeta\n");
    env.json(&["read", "f.txt"]).ok();
    env.write("old.txt", "alpha");
    env.write("new.txt", "ALPHA");
    fs::create_dir(env.path("dir")).unwrap();

    let edit = |old: &str, extra: &[&str]| {
        let mut args = vec!["edit", "f.txt", "--old-file", old, "--new-file", "new.txt"];
        args.extend_from_slice(extra);
        env.json(&args)
    };
    edit("dir", &[]).err("is_directory", 3);
    edit("/dev/null", &[]).err("irregular_file", 3);
    edit("old.txt", &["--max-file-bytes", "4"]).err("file_too_large", 3);
    env.json_stdin(
        &["edit", "f.txt", "--edits", "-", "--max-file-bytes", "40"],
        br#"[{"old":"alpha","new":"ALPHA"},{"old":"beta","new":"BETA"}]"#,
    )
    .err("file_too_large", 3);
    assert_eq!(env.read("f.txt"), b"alpha\nbeta\n");

    // A FIFO the caller names is a pipe, read to its end (and under the cap).
    let fifo = env.path("fifo");
    mkfifo(&fifo);
    let feed = |bytes: &'static [u8]| {
        let fifo = fifo.clone();
        std::thread::spawn(move || fs::write(&fifo, bytes).unwrap())
    };
    let writer = feed(b"alpha");
    edit("fifo", &["--max-file-bytes", "4"]).err("file_too_large", 3);
    writer.join().unwrap();
    assert_eq!(env.read("f.txt"), b"alpha\nbeta\n");
    let writer = feed(b"alpha");
    edit("fifo", &["--max-file-bytes", "100"]).ok();
    writer.join().unwrap();
    assert_eq!(env.read("f.txt"), b"ALPHA\nbeta\n");
    let writer = feed(br#"[{"old":"beta","new":"BETA"}]"#);
    env.json(&["edit", "f.txt", "--edits", "fifo"]).ok();
    writer.join().unwrap();
    assert_eq!(env.read("f.txt"), b"ALPHA\nBETA\n");
}

#[test]
fn write_from_takes_files_and_named_pipes_not_devices() {
    let env = TestEnv::new();
    fs::create_dir(env.path("dir")).unwrap();
    env.json(&["write", "a.txt", "--from", "/dev/zero"])
        .err("irregular_file", 3);
    env.json(&["write", "a.txt", "--from", "dir"])
        .err("is_directory", 3);
    assert!(!exists(&env.path("a.txt")));
    assert!(quill_temps(&env.dir).is_empty());

    // A FIFO the caller names is a pipe, read to its end.
    let fifo = env.path("fifo");
    mkfifo(&fifo);
    let writer = std::thread::spawn(move || fs::write(&fifo, b"through a pipe\n").unwrap());
    env.json(&["write", "a.txt", "--from", "fifo"]).ok();
    writer.join().unwrap();
    assert_eq!(env.read("a.txt"), b"through a pipe\n");
}
