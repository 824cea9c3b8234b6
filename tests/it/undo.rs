//! `quill undo`: steps restore what quill replaced, never clobber someone else's change, stop
//! at 8, stay in their session, and undoing a creation removes the file.

use std::fs;

use crate::patching::assert_patch_applies;
use crate::util::{TestEnv, exists, sha256_hex, utf16le};

#[test]
fn undo_restores_the_previous_content_with_a_patch() {
    let env = TestEnv::new();
    env.write("f.txt", "v0\n");
    env.json(&["read", "f.txt"]).ok();
    env.json(&["edit", "f.txt", "--old", "v0", "--new", "v1"])
        .ok();
    env.json(&["write", "f.txt", "--content", "v2\n"]).ok();
    let out = env.json(&["undo", "f.txt"]);
    let m = out.ok().mutation();
    assert_eq!(m.op, "undo");
    assert_eq!(m.sha256, Some(sha256_hex(b"v1\n")));
    assert_eq!(m.previous_sha256, Some(sha256_hex(b"v2\n")));
    assert_eq!(m.file_access.unwrap().access, "write");
    env.assert_file("f.txt", "v1\n");
    assert_patch_applies(&out, Some(b"v2\n"), Some(b"v1\n"));
    env.json(&["undo", "f.txt"]).ok();
    env.assert_file("f.txt", "v0\n");
    env.json(&["undo", "f.txt"]).err("nothing_to_undo", 3);
    // The restored content is the baseline.
    env.json(&["edit", "f.txt", "--old", "v0", "--new", "again"])
        .ok();
    env.assert_file("f.txt", "again\n");
}

#[test]
fn undo_never_clobbers_a_foreign_change() {
    let env = TestEnv::new();
    env.write("f.txt", "a\n");
    env.json(&["read", "f.txt"]).ok();
    env.json(&["edit", "f.txt", "--old", "a", "--new", "b"])
        .ok();
    fs::write(env.path("f.txt"), "theirs\n").unwrap();
    env.json(&["undo", "f.txt"]).err("stale", 3);
    env.assert_file("f.txt", "theirs\n");
}

#[test]
fn undo_is_per_session_and_dry_run_changes_nothing() {
    let env = TestEnv::new();
    env.write("f.txt", "a\n");
    env.json(&["--session", "A", "read", "f.txt"]).ok();
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
    env.json(&["--session", "B", "undo", "f.txt"])
        .err("nothing_to_undo", 3);
    let m = env
        .json(&["--session", "A", "undo", "f.txt", "--dry-run"])
        .ok()
        .mutation();
    assert!(m.dry_run);
    assert!(m.diff.contains("-b\n+a\n"), "{}", m.diff);
    env.assert_file("f.txt", "b\n");
    env.json(&["--session", "A", "undo", "f.txt"]).ok();
    env.assert_file("f.txt", "a\n");
}

#[test]
fn undo_of_a_creation_removes_the_file() {
    let env = TestEnv::new();
    env.json(&["write", "n.txt", "--content", "new\n"]).ok();
    let out = env.json(&["undo", "n.txt"]);
    let m = out.ok().mutation();
    assert_eq!(m.deleted, Some(true));
    assert!(!exists(&env.path("n.txt")));
    let patch = m.patch.unwrap();
    assert!(patch.contains("deleted file mode"), "{patch}");
    assert_patch_applies(&out, Some(b"new\n"), None);
    env.json(&["undo", "n.txt"]).err("nothing_to_undo", 3);
}

#[test]
fn undo_of_an_empty_created_file_gives_a_deletion_patch() {
    let env = TestEnv::new();
    env.json(&["write", "e.txt", "--content", ""]).ok();
    let out = env.json(&["undo", "e.txt"]);
    let m = out.ok().mutation();
    assert_eq!(m.deleted, Some(true));
    assert!(!exists(&env.path("e.txt")));
    let patch = m.patch.unwrap();
    assert!(patch.contains("deleted file mode"), "{patch}");
    assert_patch_applies(&out, Some(b""), None);
}

#[test]
fn at_most_eight_steps_and_their_blobs() {
    let env = TestEnv::new();
    env.write("f.txt", "0\n");
    env.json(&["read", "f.txt"]).ok();
    for i in 1..=10 {
        let (old, new) = (format!("{}\n", i - 1), format!("{i}\n"));
        env.json(&["edit", "f.txt", "--old", &old, "--new", &new])
            .ok();
    }
    let blobs: usize = fs::read_dir(env.state.join("history"))
        .unwrap()
        .map(|d| fs::read_dir(d.unwrap().path()).unwrap().count())
        .sum();
    assert_eq!(blobs, 8, "only the blobs of the kept steps remain");
    for _ in 0..8 {
        env.json(&["undo", "f.txt"]).ok();
    }
    env.assert_file("f.txt", "2\n");
    env.json(&["undo", "f.txt"]).err("nothing_to_undo", 3);
}

#[test]
fn undo_of_a_utf16_edit_shows_the_decoded_text() {
    let env = TestEnv::new();
    env.write("w.txt", utf16le("one\r\ntwo\r\n"));
    env.json(&["read", "w.txt"]).ok();
    env.json(&["edit", "w.txt", "--old", "two", "--new", "three"])
        .ok();
    env.assert_file("w.txt", utf16le("one\r\nthree\r\n"));
    let m = env.json(&["undo", "w.txt"]).ok().mutation();
    env.assert_file("w.txt", utf16le("one\r\ntwo\r\n"));
    let diff = m.diff.as_str();
    assert!(diff.contains("-three") && diff.contains("+two"), "{diff}");
    assert!(!diff.contains('\0'));
    assert_eq!(m.patch, None);
    assert!(m.patch_unavailable.unwrap().contains("UTF-16"));
}

#[test]
fn undo_of_a_created_script_names_its_executable_mode() {
    use std::os::unix::fs::PermissionsExt;
    let env = TestEnv::new();
    env.json(&["write", "run.sh", "--content", "#!/bin/sh\n"])
        .ok();
    fs::set_permissions(env.path("run.sh"), fs::Permissions::from_mode(0o755)).unwrap();
    let out = env.json(&["undo", "run.sh"]);
    let patch = out.ok().mutation().patch.unwrap();
    assert!(patch.contains("deleted file mode 100755"), "{patch}");
    assert_patch_applies(&out, Some(b"#!/bin/sh\n"), None);
}

/// `quill undo` of `rel` (a creation) killed by strace at the first fsync of the work dir:
/// the one right after the file's unlink, before the session could record the undo.
fn undo_killed_after_the_unlink(env: &TestEnv, rel: &str) {
    let out = env
        .cmd(["--json", "undo", rel])
        .wrapped([
            "strace",
            "-f",
            "-qq",
            "-o",
            "/dev/null",
            "-P",
            env.dir.to_str().unwrap(),
            "-e",
            "trace=fsync,fdatasync",
            "-e",
            "inject=fsync,fdatasync:signal=KILL",
        ])
        .spawn()
        .wait_at_most(std::time::Duration::from_secs(60));
    out.check(out.signal == Some(libc::SIGKILL), "killed by the injection");
    out.check(!exists(&env.path(rel)), "killed after the unlink");
}

#[test]
#[ignore = "needs strace"]
fn an_undo_of_a_creation_killed_after_the_unlink_is_finished_by_the_next_call() {
    crate::util::require_strace();
    let env = TestEnv::new();
    env.json(&["write", "n.txt", "--content", "new\n"]).ok();
    undo_killed_after_the_unlink(&env, "n.txt");
    // Not someone else's deletion: the undo happened, and the file may be created again.
    let m = env
        .json(&["write", "n.txt", "--content", "again\n"])
        .ok()
        .mutation();
    assert!(m.created);
    env.assert_file("n.txt", "again\n");
    // Its one step is that new creation: the undone one is gone.
    env.json(&["undo", "n.txt"]).ok();
    assert!(!exists(&env.path("n.txt")));
    env.json(&["undo", "n.txt"]).err("nothing_to_undo", 3);
    // Retried, the killed undo finds nothing left to undo, as if it had completed.
    env.json(&["write", "r.txt", "--content", "new\n"]).ok();
    undo_killed_after_the_unlink(&env, "r.txt");
    env.json(&["undo", "r.txt"]).err("nothing_to_undo", 3);
    let state = fs::read_to_string(env.session_file("json")).unwrap();
    assert!(!state.contains("removing"), "settled: {state}");
    // A created file someone else deleted is still theirs to explain: stale.
    env.json(&["write", "d.txt", "--content", "new\n"]).ok();
    fs::remove_file(env.path("d.txt")).unwrap();
    env.json(&["write", "d.txt", "--content", "x\n"])
        .err("stale", 3);
    env.json(&["undo", "d.txt"]).err("stale", 3);
    assert!(!exists(&env.path("d.txt")));
}

/// The session's last change of a file bounds what undo may do: a copy onto it is an undo
/// step of its own, so when the content comes back to what an older step wrote (A, B, A),
/// undo takes back the copy — it never jumps over it to what was there before the first step.
#[test]
fn a_transfer_onto_a_file_is_an_undo_step_that_undo_never_skips() {
    let env = TestEnv::new();
    env.json(&["write", "f.txt", "--content", "A"]).ok();
    env.write("b.txt", "B");
    env.write("a.txt", "A");
    let a = sha256_hex(b"A");
    let b = sha256_hex(b"B");
    env.json(&["transfer", "b.txt", "f.txt", "--replace-sha256", &a])
        .ok();
    env.json(&["transfer", "a.txt", "f.txt", "--replace-sha256", &b])
        .ok();
    env.assert_file("f.txt", "A");
    // Undo takes back the last copy: B again, shown as a diff from A.
    let m = env.json(&["undo", "f.txt"]).ok().mutation();
    assert_eq!(m.previous_sha256, Some(a.clone()));
    assert_eq!(m.sha256, Some(b.clone()));
    env.assert_file("f.txt", "B");
    // Then the first copy, then the write (which created the file).
    env.json(&["undo", "f.txt"]).ok();
    env.assert_file("f.txt", "A");
    env.json(&["undo", "f.txt"]).ok();
    assert!(!exists(&env.path("f.txt")));
    env.json(&["undo", "f.txt"]).err("nothing_to_undo", 3);
    // A copy that creates its destination: undo removes the copy, the source stays.
    env.json(&["transfer", "a.txt", "c.txt"]).ok();
    env.json(&["undo"]).ok();
    assert!(!exists(&env.path("c.txt")));
    env.assert_file("a.txt", "A");
}

/// A move cannot be undone without its source, so it ends the undo history of both paths: no
/// older step of either is restored after it, even when the content comes back.
#[test]
fn a_move_cuts_the_undo_history_of_both_paths() {
    let env = TestEnv::new();
    env.json(&["write", "f.txt", "--content", "A"]).ok();
    env.json(&["write", "g.txt", "--content", "G"]).ok();
    let a = sha256_hex(b"A");
    env.json(&[
        "transfer",
        "g.txt",
        "f.txt",
        "--move",
        "--replace-sha256",
        &a,
    ])
    .ok();
    env.json(&["transfer", "f.txt", "g.txt", "--move"]).ok();
    env.json(&["undo", "f.txt"]).err("nothing_to_undo", 3);
    env.json(&["undo", "g.txt"]).err("nothing_to_undo", 3);
    env.assert_file("g.txt", "G");
    assert!(!exists(&env.path("f.txt")));
}
