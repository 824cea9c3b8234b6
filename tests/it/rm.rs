//! `quill rm` (docs/commands/rm.md): a file the session read and that is unchanged since is
//! deleted under the lock and can be brought back by `undo`; every guard of edit refuses it
//! with the file kept byte for byte; a link is refused; two processes never both win.

use std::fs;
use std::os::unix::fs::symlink;
use std::process::Command;
use std::sync::Arc;
use std::thread;

use crate::util::{TestEnv, sha256_hex};

#[test]
fn a_read_file_is_deleted_with_a_deletion_diff() {
    let env = TestEnv::new();
    env.write("old.rs", "fn a() {}\nfn b() {}\n");
    env.json(&["read", "old.rs"]).ok();
    let out = env.json(&["rm", "old.rs"]);
    let m = out.ok().mutation();
    assert_eq!(m.op, "rm");
    assert_eq!(m.deleted, Some(true));
    assert_eq!(m.sha256, None, "no file is left: no new content's hash");
    assert_eq!(
        m.previous_sha256.as_deref(),
        Some(&sha256_hex(b"fn a() {}\nfn b() {}\n")[..])
    );
    assert_eq!((m.bytes, m.added, m.removed, m.created), (0, 0, 2, false));
    assert!(m.file_access.is_some() && !m.dry_run);
    let patch = m.patch.unwrap();
    assert!(
        patch.contains("deleted file mode 100644\n") && patch.contains("+++ /dev/null\n"),
        "{patch}"
    );
    assert!(!env.path("old.rs").exists());
    // The baseline went with the file: a new file of that name is a creation, not `stale`.
    env.json(&["write", "old.rs", "--content", "new\n"]).ok();
}

#[test]
fn text_output_says_removed() {
    let env = TestEnv::new();
    env.write("a.txt", "x\n");
    env.json(&["read", "a.txt"]).ok();
    env.text(&["rm", "a.txt", "--dry-run"])
        .ok()
        .stdout_has("would remove");
    env.text(&["rm", "a.txt"]).ok().stdout_has("removed");
}

#[test]
fn a_file_not_read_or_changed_since_is_kept() {
    let env = TestEnv::new();
    env.write("a.txt", "one\n");
    env.json(&["rm", "a.txt"]).err("not_read", 3);
    env.assert_file("a.txt", "one\n");
    env.json(&["read", "a.txt"]).ok();
    env.write("a.txt", "one\nmore\n");
    env.json(&["rm", "a.txt"]).err("stale", 3);
    env.assert_file("a.txt", "one\nmore\n");
    // Another session's read is not this one's.
    env.json(&["--session", "other", "read", "a.txt"]).ok();
    env.json(&["rm", "a.txt"]).err("stale", 3);
    env.assert_file("a.txt", "one\nmore\n");
}

#[test]
fn expect_sha256_stands_in_for_the_read() {
    let env = TestEnv::new();
    env.write("a.txt", "one\n");
    let wrong = sha256_hex(b"two\n");
    env.json(&["rm", "a.txt", "--expect-sha256", &wrong])
        .err("stale", 3);
    env.assert_file("a.txt", "one\n");
    env.json(&["rm", "a.txt", "--expect-sha256", "abc"])
        .err("invalid_argument", 2);
    env.assert_file("a.txt", "one\n");
    let right = sha256_hex(b"one\n");
    env.json(&["rm", "a.txt", "--expect-sha256", &right]).ok();
    assert!(!env.path("a.txt").exists());
}

#[test]
fn directories_pipes_and_missing_files_are_refused() {
    let env = TestEnv::new();
    env.write("d/f.txt", "x\n");
    env.json(&["rm", "d"]).err("is_directory", 3);
    assert!(env.path("d/f.txt").exists());
    let fifo = env.path("pipe");
    let made = Command::new("mkfifo").arg(&fifo).status().unwrap();
    assert!(made.success());
    env.json(&["rm", "pipe"]).err("irregular_file", 3);
    assert!(fifo.exists());
    // Never read: not_found, with the names that look like it.
    env.write("notes.txt", "n\n");
    let out = env.json(&["rm", "note.txt"]);
    out.err("not_found", 4);
    assert!(
        out.j("error").to_string().contains("notes.txt"),
        "{}",
        out.report()
    );
    // Read, then deleted behind the session's back: stale (deleted).
    env.json(&["read", "notes.txt"]).ok();
    fs::remove_file(env.path("notes.txt")).unwrap();
    let out = env.json(&["rm", "notes.txt"]);
    out.err("stale", 3);
}

/// A link is refused whatever it points to: removing its target would leave it dangling, and
/// removing the link itself is not deleting the file the session read.
#[test]
fn a_symbolic_link_is_refused_and_both_ends_kept() {
    let env = TestEnv::new();
    env.write("real.txt", "r\n");
    symlink("real.txt", env.path("link.txt")).unwrap();
    env.json(&["read", "link.txt"]).ok();
    let out = env.json(&["rm", "link.txt"]);
    out.err("symlink", 3);
    env.assert_file("real.txt", "r\n");
    assert!(fs::symlink_metadata(env.path("link.txt")).is_ok_and(|m| m.is_symlink()));
    symlink("nowhere", env.path("dangling")).unwrap();
    env.json(&["rm", "dangling"]).err("symlink", 3);
    assert!(fs::symlink_metadata(env.path("dangling")).is_ok());
    // The target by its own name is an ordinary file.
    env.json(&["rm", "real.txt"]).ok();
    assert!(!env.path("real.txt").exists());
}

#[test]
fn read_only_and_outside_the_root_are_refused() {
    let env = TestEnv::new();
    env.write("a.txt", "one\n");
    env.write("sub/b.txt", "two\n");
    env.json(&["read", "a.txt"]).ok();
    env.json(&["--read-only", "rm", "a.txt"])
        .err("read_only", 3);
    env.assert_file("a.txt", "one\n");
    env.json(&["--root", "sub", "rm", "a.txt"])
        .err("outside_root", 3);
    env.assert_file("a.txt", "one\n");
    env.json(&["read", "sub/b.txt"]).ok();
    env.json(&["--root", "sub", "rm", "sub/b.txt"]).ok();
    assert!(!env.path("sub/b.txt").exists());
}

#[test]
fn a_dry_run_removes_nothing_and_keeps_the_baseline() {
    let env = TestEnv::new();
    env.write("a.txt", "one\ntwo\n");
    env.json(&["read", "a.txt"]).ok();
    let m = env.json(&["rm", "a.txt", "--dry-run"]).ok().mutation();
    assert!(m.dry_run && m.file_access.is_none());
    assert_eq!(m.diff, "@@ -1,2 +0,0 @@\n-one\n-two\n");
    env.assert_file("a.txt", "one\ntwo\n");
    env.json(&["undo", "a.txt"]).err("nothing_to_undo", 3);
    env.json(&["rm", "a.txt"]).ok();
}

#[test]
fn undo_brings_the_bytes_back_exactly() {
    let env = TestEnv::new();
    let bytes: &[u8] = b"\xEF\xBB\xBFline one\r\nline two\r\nno final newline";
    env.write("a.txt", bytes);
    env.json(&["read", "a.txt"]).ok();
    env.json(&["rm", "a.txt"]).ok();
    assert!(!env.path("a.txt").exists());
    let m = env.json(&["undo", "a.txt", "--dry-run"]).ok().mutation();
    assert!(m.dry_run && m.created);
    assert!(!env.path("a.txt").exists());
    let m = env.json(&["undo", "a.txt"]).ok().mutation();
    assert!(m.created && m.deleted.is_none());
    assert_eq!(m.sha256.as_deref(), Some(&sha256_hex(bytes)[..]));
    assert_eq!(m.previous_sha256, None);
    assert_eq!(env.read("a.txt"), bytes);
    // The restored content is the baseline again: the file can be changed at once.
    env.json(&["edit", "a.txt", "--old", "line one", "--new", "LINE ONE"])
        .ok();
    env.json(&["undo", "a.txt"]).ok();
    assert_eq!(env.read("a.txt"), bytes);
    env.json(&["undo", "a.txt"]).err("nothing_to_undo", 3);
}

#[test]
fn undo_gives_back_the_permission_bits() {
    use std::os::unix::fs::PermissionsExt;
    let env = TestEnv::new();
    env.write("run.sh", "#!/bin/sh\n");
    fs::set_permissions(env.path("run.sh"), fs::Permissions::from_mode(0o750)).unwrap();
    env.json(&["read", "run.sh"]).ok();
    env.json(&["rm", "run.sh"]).ok();
    env.json(&["undo", "run.sh"]).ok();
    let mode = fs::metadata(env.path("run.sh"))
        .unwrap()
        .permissions()
        .mode();
    assert_eq!(mode & 0o777, 0o750);
}

#[test]
fn the_removal_is_one_step_of_the_files_history() {
    let env = TestEnv::new();
    env.write("a.txt", "v1\n");
    env.json(&["read", "a.txt"]).ok();
    env.json(&["write", "a.txt", "--content", "v2\n"]).ok();
    env.json(&["rm", "a.txt"]).ok();
    env.json(&["write", "a.txt", "--content", "v3\n"]).ok();
    // Back through each: the creation, the removal, the write.
    env.json(&["undo", "a.txt"]).ok();
    assert!(!env.path("a.txt").exists());
    env.json(&["undo", "a.txt"]).ok();
    env.assert_file("a.txt", "v2\n");
    env.json(&["undo", "a.txt"]).ok();
    env.assert_file("a.txt", "v1\n");
}

#[test]
fn undo_never_replaces_a_file_created_since() {
    let env = TestEnv::new();
    env.write("a.txt", "mine\n");
    env.json(&["read", "a.txt"]).ok();
    env.json(&["rm", "a.txt"]).ok();
    env.write("a.txt", "someone else's\n");
    env.json(&["undo", "a.txt"]).err("stale", 3);
    env.assert_file("a.txt", "someone else's\n");
    fs::remove_file(env.path("a.txt")).unwrap();
    fs::create_dir(env.path("a.txt")).unwrap();
    env.json(&["undo", "a.txt"]).err("is_directory", 3);
    fs::remove_dir(env.path("a.txt")).unwrap();
    // Gone again: the step is still there.
    env.json(&["undo", "a.txt"]).ok();
    env.assert_file("a.txt", "mine\n");
}

#[test]
fn a_hard_linked_file_keeps_its_other_name() {
    let env = TestEnv::new();
    env.write("a.txt", "shared\n");
    fs::hard_link(env.path("a.txt"), env.path("b.txt")).unwrap();
    env.json(&["read", "a.txt"]).ok();
    let m = env.json(&["rm", "a.txt"]).ok().mutation();
    assert!(
        m.warnings.iter().any(|w| w.kind == "hard_links"),
        "{:?}",
        m.warnings
    );
    assert!(!env.path("a.txt").exists());
    env.assert_file("b.txt", "shared\n");
}

/// One process removes, another edits, each having read the file: never both succeed, and an
/// edit that reported success is never lost to the removal.
#[test]
fn a_removal_and_an_edit_racing_never_both_win() {
    let env = Arc::new(TestEnv::new());
    for round in 0..12 {
        let name = format!("f{round}.txt");
        env.write(&name, "base\n");
        env.json(&["--session", "rm", "read", &name]).ok();
        env.json(&["--session", "ed", "read", &name]).ok();
        let remover = {
            let env = Arc::clone(&env);
            let name = name.clone();
            thread::spawn(move || env.json(&["--session", "rm", "rm", &name]))
        };
        let editor = {
            let env = Arc::clone(&env);
            let name = name.clone();
            thread::spawn(move || {
                env.json(&[
                    "--session",
                    "ed",
                    "edit",
                    &name,
                    "--old",
                    "base",
                    "--new",
                    "edited",
                ])
            })
        };
        let (removed, edited) = (remover.join().unwrap(), editor.join().unwrap());
        match (removed.code, edited.code) {
            (0, _) => {
                // The edit found the file gone: refused, nothing written.
                let kind = edited.j("error")["kind"]
                    .as_str()
                    .unwrap_or_default()
                    .to_string();
                assert!(
                    matches!(kind.as_str(), "stale" | "not_found"),
                    "{}",
                    edited.report()
                );
                assert!(!env.path(&name).exists());
            }
            (_, 0) => {
                removed.err("stale", 3);
                env.assert_file(&name, "edited\n");
            }
            _ => panic!("neither won:\n{}\n{}", removed.report(), edited.report()),
        }
    }
}
