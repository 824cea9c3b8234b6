//! `quill write` and the guards shared by every mutation: baselines, staleness by content,
//! sessions, symlinks, hard links, permissions, special files, containment, read-only.

use std::fs;
use std::os::unix::fs::{MetadataExt, PermissionsExt, symlink};

use crate::patching::assert_patch_applies;
use crate::util::{TestEnv, exists, have, quill_temps, sha256_hex};

#[test]
fn creates_a_file_with_its_parents_and_a_dev_null_patch() {
    let env = TestEnv::new();
    let out = env.json(&["write", "a/b/new.txt", "--content", "one\ntwo"]);
    out.ok();
    assert_eq!(env.read("a/b/new.txt"), b"one\ntwo");
    assert_eq!(out.j("created"), true);
    assert_eq!(out.j("bytes"), 7);
    assert_eq!(out.j("sha256"), sha256_hex(b"one\ntwo").as_str());
    assert!(out.j("previousSha256").is_null());
    assert_eq!(out.j("fileAccess")["access"], "write");
    let patch = out.j("patch").as_str().unwrap();
    assert!(
        patch.contains("--- /dev/null\n+++ b/a/b/new.txt\n"),
        "{patch}"
    );
    assert!(patch.ends_with("\\ No newline at end of file\n"), "{patch}");
    assert_patch_applies(&out, None, Some(b"one\ntwo"));
}

#[test]
fn no_parents_refuses_a_missing_directory() {
    let env = TestEnv::new();
    env.json(&["write", "x/y.txt", "--content", "a", "--no-parents"])
        .err("not_found", 4);
    assert!(!exists(&env.path("x")));
}

#[test]
fn replacing_needs_a_fresh_read_and_is_byte_exact() {
    let env = TestEnv::new();
    env.write("f.txt", "old\r\ncontent\n");
    env.json(&["write", "f.txt", "--content", "new"])
        .err("not_read", 3);
    env.json(&["read", "f.txt"]).ok();
    let new = "tab\there  \r\nno newline";
    let out = env.json(&["write", "f.txt", "--content", new]);
    out.ok();
    assert_eq!(env.read("f.txt"), new.as_bytes());
    assert_eq!(out.j("created"), false);
    assert_eq!(
        out.j("previousSha256"),
        sha256_hex(b"old\r\ncontent\n").as_str()
    );
    assert_patch_applies(&out, Some(b"old\r\ncontent\n"), Some(new.as_bytes()));
    // The new content is the baseline: writing again needs no re-read.
    env.json(&["write", "f.txt", "--content", "third\n"]).ok();
    assert_eq!(env.read("f.txt"), b"third\n");
}

#[test]
fn a_changed_byte_is_stale_a_touch_is_not() {
    let env = TestEnv::new();
    let p = env.write("f.txt", "v1\n");
    env.json(&["read", "f.txt"]).ok();
    // Touch and rewrite with the same bytes: still fresh.
    let f = fs::File::options().write(true).open(&p).unwrap();
    f.set_modified(std::time::SystemTime::UNIX_EPOCH).unwrap();
    drop(f);
    fs::write(&p, "v1\n").unwrap();
    env.json(&["write", "f.txt", "--content", "v2\n"]).ok();
    // Someone else changes it: stale, and nothing is written.
    fs::write(&p, "theirs\n").unwrap();
    env.json(&["write", "f.txt", "--content", "v3\n"])
        .err("stale", 3);
    assert_eq!(env.read("f.txt"), b"theirs\n");
}

#[test]
fn expect_sha256_stands_in_for_a_baseline() {
    let env = TestEnv::new();
    env.write("f.txt", "abc");
    env.json(&[
        "write",
        "f.txt",
        "--content",
        "x",
        "--expect-sha256",
        &sha256_hex(b"other"),
    ])
    .err("stale", 3);
    env.json(&["write", "f.txt", "--content", "x", "--expect-sha256", "zz"])
        .err("invalid_argument", 2);
    env.json(&[
        "write",
        "f.txt",
        "--content",
        "x",
        "--expect-sha256",
        &sha256_hex(b"abc"),
    ])
    .ok();
    assert_eq!(env.read("f.txt"), b"x");
}

#[test]
fn create_only_never_replaces() {
    let env = TestEnv::new();
    env.write("f.txt", "keep");
    env.json(&["read", "f.txt"]).ok();
    env.json(&["write", "f.txt", "--content", "x", "--create-only"])
        .err("create_conflict", 3);
    assert_eq!(env.read("f.txt"), b"keep");
    env.json(&["write", "g.txt", "--content", "x", "--create-only"])
        .ok();
}

#[test]
fn content_from_a_file_and_from_stdin() {
    let env = TestEnv::new();
    env.write("src.bin", b"\xff\xfe raw \x00 bytes\n");
    env.json(&["write", "a.txt", "--from", "src.bin"]).ok();
    assert_eq!(env.read("a.txt"), b"\xff\xfe raw \x00 bytes\n");
    let out = env.json_stdin(&["write", "b.txt"], b"from stdin\n");
    out.ok();
    assert_eq!(env.read("b.txt"), b"from stdin\n");
    assert_patch_applies(&out, None, Some(b"from stdin\n"));
}

#[test]
fn dry_run_writes_nothing() {
    let env = TestEnv::new();
    env.write("f.txt", "a\n");
    env.json(&["read", "f.txt"]).ok();
    let out = env.json(&["write", "f.txt", "--content", "b\n", "--dry-run"]);
    out.ok();
    assert_eq!(out.j("dryRun"), true);
    assert!(out.j("diff").as_str().unwrap().contains("+b"));
    assert_eq!(env.read("f.txt"), b"a\n");
    env.json(&["write", "new.txt", "--content", "b", "--dry-run"])
        .ok();
    assert!(!exists(&env.path("new.txt")));
}

#[test]
fn permission_bits_are_kept() {
    let env = TestEnv::new();
    let p = env.write("f.sh", "#!/bin/sh\n");
    fs::set_permissions(&p, fs::Permissions::from_mode(0o750)).unwrap();
    env.json(&["read", "f.sh"]).ok();
    env.json(&["write", "f.sh", "--content", "#!/bin/sh\necho\n"])
        .ok();
    assert_eq!(fs::metadata(&p).unwrap().mode() & 0o7777, 0o750);
}

#[test]
fn a_symlinked_target_is_changed_in_place_and_the_link_kept() {
    let env = TestEnv::new();
    let real = env.write("real/target.txt", "one\n");
    symlink("real/target.txt", env.path("link.txt")).unwrap();
    env.json(&["read", "link.txt"]).ok();
    let out = env.json(&["write", "link.txt", "--content", "two\n"]);
    out.ok();
    assert!(
        fs::symlink_metadata(env.path("link.txt"))
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert_eq!(fs::read(&real).unwrap(), b"two\n");
    assert_eq!(out.j("path"), real.to_str().unwrap());
    assert_eq!(out.j("viaSymlink"), env.path("link.txt").to_str().unwrap());
    assert_patch_applies(&out, Some(b"one\n"), Some(b"two\n"));
}

#[test]
fn hard_links_get_a_warning() {
    let env = TestEnv::new();
    let p = env.write("a.txt", "x\n");
    fs::hard_link(&p, env.path("b.txt")).unwrap();
    env.json(&["read", "a.txt"]).ok();
    let out = env.json(&["write", "a.txt", "--content", "y\n"]);
    out.ok();
    let w = out.j("warnings").to_string();
    assert!(w.contains("other names keep the old content"), "{w}");
    assert_eq!(env.read("b.txt"), b"x\n");
}

#[test]
fn directories_and_fifos_are_refused() {
    let env = TestEnv::new();
    fs::create_dir(env.path("d")).unwrap();
    env.json(&["write", "d", "--content", "x"])
        .err("is_directory", 3);
    let fifo = env.path("p");
    assert!(
        std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap()
            .success()
    );
    env.json(&[
        "write",
        "p",
        "--content",
        "x",
        "--expect-sha256",
        &"0".repeat(64),
    ])
    .err("irregular_file", 3);
    env.json(&["edit", "p", "--old", "a", "--new", "b"])
        .err("irregular_file", 3);
}

#[test]
fn read_only_and_outside_root_are_refused() {
    let env = TestEnv::new();
    env.write("f.txt", "a");
    env.json(&["--read-only", "write", "f.txt", "--content", "b"])
        .err("read_only", 3);
    env.json(&["--read-only", "undo", "f.txt"])
        .err("read_only", 3);
    fs::create_dir(env.path("ws")).unwrap();
    env.json(&["--root", "ws", "write", "f.txt", "--content", "b"])
        .err("outside_root", 3);
    assert_eq!(env.read("f.txt"), b"a");
}

#[test]
fn sessions_are_isolated() {
    let env = TestEnv::new();
    env.write("f.txt", "a\n");
    env.json(&["--session", "A", "read", "f.txt"]).ok();
    env.json(&[
        "--session",
        "B",
        "edit",
        "f.txt",
        "--old",
        "a",
        "--new",
        "b",
    ])
    .err("not_read", 3);
    env.json(&[
        "--session",
        "A",
        "edit",
        "f.txt",
        "--old",
        "a",
        "--new",
        "b",
    ])
    .ok();
    assert_eq!(env.read("f.txt"), b"b\n");
}

#[test]
fn strict_needs_a_complete_read() {
    let env = TestEnv::new();
    env.write("f.txt", "1\n2\n3\n");
    env.json(&["read", "f.txt", "--limit", "1"]).ok();
    env.json(&[
        "--strict", "edit", "f.txt", "--old", "1\n", "--new", "one\n",
    ])
    .err("not_read", 3);
    env.json(&["edit", "f.txt", "--old", "1\n", "--new", "one\n"])
        .ok();
    env.json(&["read", "f.txt"]).ok();
    env.json(&[
        "--strict", "edit", "f.txt", "--old", "2\n", "--new", "two\n",
    ])
    .ok();
    assert_eq!(env.read("f.txt"), b"one\ntwo\n3\n");
}

#[test]
fn a_corrupt_state_file_authorizes_nothing() {
    let env = TestEnv::new();
    env.write("f.txt", "a\n");
    env.json(&["read", "f.txt"]).ok();
    for e in fs::read_dir(env.state.join("sessions")).unwrap() {
        let p = e.unwrap().path();
        if p.extension().is_some_and(|x| x == "json") {
            fs::write(&p, "{not json").unwrap();
        }
    }
    let out = env.json(&["edit", "f.txt", "--old", "a", "--new", "b"]);
    out.err("not_read", 3);
    assert_eq!(env.read("f.txt"), b"a\n");
    // A fresh read recovers: the corrupt file is moved aside and the session works again.
    let out = env.json(&["read", "f.txt"]);
    out.ok();
    assert!(out.j("warnings")[0].as_str().unwrap().contains("corrupt"));
    env.json(&["edit", "f.txt", "--old", "a", "--new", "b"])
        .ok();
    assert_eq!(env.read("f.txt"), b"b\n");
}

#[test]
fn text_mode_prints_the_diff_and_a_summary() {
    let env = TestEnv::new();
    let out = env.text(&["write", "n.txt", "--content", "hello\n"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(out.stdout.contains("+hello"), "{}", out.stdout);
}

#[test]
fn a_deleted_file_is_not_recreated_over_a_version_the_caller_expected() {
    let env = TestEnv::new();
    env.write("f.txt", "old\n");
    env.json(&["read", "f.txt"]).ok();
    fs::remove_file(env.path("f.txt")).unwrap();
    env.json(&["write", "f.txt", "--content", "new\n"])
        .err("stale", 3);
    let sha = sha256_hex(b"old\n");
    env.json(&["write", "g.txt", "--content", "x", "--expect-sha256", &sha])
        .err("stale", 3);
    assert!(!env.path("f.txt").exists() && !env.path("g.txt").exists());
    // Forgetting the baseline says: create it anew.
    env.json(&["state", "forget", "f.txt"]).ok();
    env.json(&["write", "f.txt", "--content", "new\n"]).ok();
}

#[test]
fn a_change_that_landed_is_reported_even_if_the_session_cannot_record_it() {
    if !have("flock") {
        eprintln!("skipped: flock (util-linux) is not installed");
        return;
    }
    let env = TestEnv::new();
    env.write("f.txt", "one\n");
    env.json(&["read", "f.txt"]).ok();
    let lock = env.session_file("lock");
    let mut holder = std::process::Command::new("flock")
        .arg("-x")
        .arg(&lock)
        .args(["sleep", "3"])
        .spawn()
        .unwrap();
    std::thread::sleep(std::time::Duration::from_millis(300));
    let out = env.json(&[
        "--lock-timeout",
        "0.5",
        "write",
        "f.txt",
        "--content",
        "two\n",
    ]);
    holder.wait().unwrap();
    out.ok();
    assert!(
        out.j("warnings")[0]
            .as_str()
            .unwrap()
            .contains("could not record")
    );
    assert_eq!(env.read("f.txt"), b"two\n");
}

#[test]
fn new_files_follow_the_umask() {
    let env = TestEnv::new();
    env.json(&["write", "new.txt", "--content", "x"]).ok();
    let mode = fs::metadata(env.path("new.txt"))
        .unwrap()
        .permissions()
        .mode()
        & 0o777;
    let mut c = std::process::Command::new("sh");
    let umask = c.args(["-c", "umask"]).output().unwrap();
    let umask = u32::from_str_radix(String::from_utf8_lossy(&umask.stdout).trim(), 8).unwrap();
    assert_eq!(mode, 0o666 & !umask);
}

#[test]
fn new_content_of_a_private_file_is_never_readable_by_others() {
    use std::io::Write;
    let env = TestEnv::new();
    env.write("secret.env", "TOKEN=old\n");
    fs::set_permissions(env.path("secret.env"), fs::Permissions::from_mode(0o600)).unwrap();
    env.json(&["read", "secret.env"]).ok();
    let mut child = env
        .command(["--json", "write", "secret.env"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(b"TOKEN=new\n").unwrap();
    stdin.flush().unwrap();
    // While quill waits for the rest of stdin, its temporary file exists: it must be 0600.
    let mut seen = false;
    for _ in 0..100 {
        if let Some(t) = quill_temps(&env.dir).first() {
            let mode = fs::metadata(env.dir.join(t)).unwrap().permissions().mode() & 0o777;
            assert_eq!(mode, 0o600, "temporary file {t} is {mode:o}");
            seen = true;
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    drop(stdin);
    assert!(child.wait().unwrap().success());
    assert!(seen, "the temporary file was never seen");
    let mode = fs::metadata(env.path("secret.env"))
        .unwrap()
        .permissions()
        .mode()
        & 0o777;
    assert_eq!(mode, 0o600);
    assert_eq!(env.read("secret.env"), b"TOKEN=new\n");
}
