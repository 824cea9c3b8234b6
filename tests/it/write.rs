//! `quill write` and the guards shared by every mutation: baselines, staleness by content,
//! sessions, symlinks, hard links, permissions, special files, containment, read-only.

use std::fs;
use std::os::unix::fs::{MetadataExt, PermissionsExt, symlink};

use crate::patching::assert_patch_applies;
use crate::util::{FileAccess, TestEnv, exists, quill_temps, sha256_hex};

#[test]
fn creates_a_file_with_its_parents_and_a_dev_null_patch() {
    let env = TestEnv::new();
    let out = env.json(&["write", "a/b/new.txt", "--content", "one\ntwo"]);
    let m = out.ok().mutation();
    env.assert_file("a/b/new.txt", "one\ntwo");
    let path = env.path("a/b/new.txt").to_str().unwrap().to_string();
    assert_eq!(m.path, path);
    assert!(m.created);
    assert!(!m.dry_run);
    assert_eq!(m.bytes, 7);
    assert_eq!(m.sha256, Some(sha256_hex(b"one\ntwo")));
    assert_eq!(m.previous_sha256, None);
    assert_eq!((m.added, m.removed), (2, 0));
    assert_eq!(
        m.file_access,
        Some(FileAccess {
            path,
            access: "write".into()
        })
    );
    let patch = m.patch.unwrap();
    let patch = patch.as_str();
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
    // A dry run foretells the refusal.
    env.json(&[
        "write",
        "x/y.txt",
        "--content",
        "a",
        "--no-parents",
        "--dry-run",
    ])
    .err("not_found", 4);
    env.json(&["write", "x/y.txt", "--content", "a", "--dry-run"])
        .ok();
    env.json(&["write", "y.txt", "--content", "a", "--no-parents"])
        .ok();
    env.assert_file("y.txt", "a");
    assert!(!exists(&env.path("x")));
}

#[test]
fn replacing_needs_a_fresh_read_and_is_byte_exact() {
    let env = TestEnv::new();
    env.write("f.txt", "old\r\ncontent\n");
    env.json(&["write", "f.txt", "--content", "new"])
        .err("not_read", 3);
    env.assert_file("f.txt", "old\r\ncontent\n");
    env.json(&["read", "f.txt"]).ok();
    let new = "tab\there  \r\nno newline";
    let out = env.json(&["write", "f.txt", "--content", new]);
    let m = out.ok().mutation();
    env.assert_file("f.txt", new);
    assert!(!m.created);
    assert_eq!(m.previous_sha256, Some(sha256_hex(b"old\r\ncontent\n")));
    assert_eq!(m.sha256, Some(sha256_hex(new.as_bytes())));
    assert_patch_applies(&out, Some(b"old\r\ncontent\n"), Some(new.as_bytes()));
    // The new content is the baseline: writing again needs no re-read.
    env.json(&["write", "f.txt", "--content", "third\n"]).ok();
    env.assert_file("f.txt", "third\n");
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
    env.assert_file("f.txt", "v2\n");
    // Someone else changes it: stale, and nothing is written.
    fs::write(&p, "theirs\n").unwrap();
    env.json(&["write", "f.txt", "--content", "v3\n"])
        .err("stale", 3);
    env.assert_file("f.txt", "theirs\n");
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
    env.assert_file("f.txt", "abc");
    env.json(&[
        "write",
        "f.txt",
        "--content",
        "x",
        "--expect-sha256",
        &sha256_hex(b"abc"),
    ])
    .ok();
    env.assert_file("f.txt", "x");
}

#[test]
fn create_only_never_replaces() {
    let env = TestEnv::new();
    env.write("f.txt", "keep");
    env.json(&["read", "f.txt"]).ok();
    env.json(&["write", "f.txt", "--content", "x", "--create-only"])
        .err("create_conflict", 3);
    env.assert_file("f.txt", "keep");
    let m = env
        .json(&["write", "g.txt", "--content", "x", "--create-only"])
        .ok()
        .mutation();
    assert!(m.created);
    env.assert_file("g.txt", "x");
}

#[test]
fn content_from_a_file_and_from_stdin() {
    let env = TestEnv::new();
    env.write("src.bin", b"\xff\xfe raw \x00 bytes\n");
    let m = env
        .json(&["write", "a.txt", "--from", "src.bin"])
        .ok()
        .mutation();
    assert_eq!(m.bytes, 15);
    env.assert_file("a.txt", b"\xff\xfe raw \x00 bytes\n");
    let out = env.json_stdin(&["write", "b.txt", "--stdin"], b"from stdin\n");
    out.ok();
    env.assert_file("b.txt", "from stdin\n");
    assert_patch_applies(&out, None, Some(b"from stdin\n"));
}

#[test]
fn dry_run_writes_nothing() {
    let env = TestEnv::new();
    env.write("f.txt", "a\n");
    env.json(&["read", "f.txt"]).ok();
    let m = env
        .json(&["write", "f.txt", "--content", "b\n", "--dry-run"])
        .ok()
        .mutation();
    assert!(m.dry_run);
    assert_eq!(m.file_access, None, "nothing written");
    assert!(m.diff.contains("-a\n+b\n"), "{}", m.diff);
    env.assert_file("f.txt", "a\n");
    let m = env
        .json(&["write", "new.txt", "--content", "b", "--dry-run"])
        .ok()
        .mutation();
    assert!(m.dry_run && m.created);
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
    env.assert_file("f.sh", "#!/bin/sh\necho\n");
    assert_eq!(fs::metadata(&p).unwrap().mode() & 0o7777, 0o750);
}

#[test]
fn a_symlinked_target_is_changed_in_place_and_the_link_kept() {
    let env = TestEnv::new();
    let real = env.write("real/target.txt", "one\n");
    symlink("real/target.txt", env.path("link.txt")).unwrap();
    env.json(&["read", "link.txt"]).ok();
    let out = env.json(&["write", "link.txt", "--content", "two\n"]);
    let m = out.ok().mutation();
    assert!(
        fs::symlink_metadata(env.path("link.txt"))
            .unwrap()
            .file_type()
            .is_symlink()
    );
    env.assert_file("real/target.txt", "two\n");
    assert_eq!(m.path, real.to_str().unwrap());
    assert_eq!(m.via_symlink.as_deref(), env.path("link.txt").to_str());
    assert_patch_applies(&out, Some(b"one\n"), Some(b"two\n"));
}

#[test]
fn hard_links_get_a_warning() {
    let env = TestEnv::new();
    let p = env.write("a.txt", "x\n");
    fs::hard_link(&p, env.path("b.txt")).unwrap();
    env.json(&["read", "a.txt"]).ok();
    let m = env
        .json(&["write", "a.txt", "--content", "y\n"])
        .ok()
        .mutation();
    assert_eq!(m.warnings.len(), 1, "{:?}", m.warnings);
    assert!(
        m.warnings[0].says("hard_links", "other names keep the old content"),
        "{:?}",
        m.warnings
    );
    env.assert_file("a.txt", "y\n");
    env.assert_file("b.txt", "x\n");
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
    env.assert_file("f.txt", "a");
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
    env.assert_file("f.txt", "b\n");
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
    env.assert_file("f.txt", "one\ntwo\n3\n");
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
    env.json(&["edit", "f.txt", "--old", "a", "--new", "b"])
        .err("not_read", 3);
    env.assert_file("f.txt", "a\n");
    // A fresh read recovers: the corrupt file is moved aside and the session works again.
    let r = env.json(&["read", "f.txt"]).ok().read();
    assert!(
        r.warnings[0].says("state_corrupt", "corrupt"),
        "{:?}",
        r.warnings
    );
    env.json(&["edit", "f.txt", "--old", "a", "--new", "b"])
        .ok();
    env.assert_file("f.txt", "b\n");
}

#[test]
fn text_mode_prints_the_diff_and_a_summary() {
    let env = TestEnv::new();
    env.text(&["write", "n.txt", "--content", "hello\n"])
        .ok()
        .assert_stdout("@@ -0,0 +1,1 @@\n+hello\ncreated n.txt: 6 bytes, +1 -0 lines\n")
        .assert_stderr("");
    env.assert_file("n.txt", "hello\n");
    env.text(&["write", "n.txt", "--content", "hello\nworld\n"])
        .ok()
        .assert_stdout("@@ -1,1 +1,2 @@\n hello\n+world\nwrote n.txt: 12 bytes, +1 -0 lines\n")
        .assert_stderr("");
    env.assert_file("n.txt", "hello\nworld\n");
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
    let m = env
        .json(&["write", "f.txt", "--content", "new\n"])
        .ok()
        .mutation();
    assert!(m.created);
    env.assert_file("f.txt", "new\n");
}

#[test]
fn a_change_that_landed_is_reported_even_if_the_session_cannot_record_it() {
    let env = TestEnv::new();
    env.write("f.txt", "one\n");
    env.json(&["read", "f.txt"]).ok();
    // The session's lock, held here (flock(2), as quill takes it) for the whole write.
    let held = crate::util::hold_lock(&env.session_file("lock"));
    let m = env
        .json(&[
            "--lock-timeout",
            "0.5",
            "write",
            "f.txt",
            "--content",
            "two\n",
        ])
        .ok()
        .mutation();
    drop(held);
    assert_eq!(m.warnings.len(), 1, "{:?}", m.warnings);
    assert!(
        m.warnings[0].says("session_not_updated", "could not record"),
        "{:?}",
        m.warnings
    );
    env.assert_file("f.txt", "two\n");
    // Fail closed: the next change is refused until the file is read again.
    env.json(&["write", "f.txt", "--content", "three\n"])
        .err("stale", 3);
    env.assert_file("f.txt", "two\n");
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
        .cmd(["--json", "write", "secret.env", "--stdin"])
        .stdin_pipe()
        .spawn();
    let mut stdin = child.take_stdin();
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
    child.wait().ok();
    assert!(seen, "the temporary file was never seen");
    let mode = fs::metadata(env.path("secret.env"))
        .unwrap()
        .permissions()
        .mode()
        & 0o777;
    assert_eq!(mode, 0o600);
    env.assert_file("secret.env", "TOKEN=new\n");
}
