//! Things planted in the state directory (docs/model.md): a FIFO as a session file or an undo
//! blob, a lock file hard-linked to a file elsewhere, `sessions/`, `locks/` or `history/` as a
//! symbolic link to elsewhere, a session file of another user. Each is `state_unavailable`
//! (exit 4) at once, with a hint naming the entry — never a hang (every run here is bounded by
//! `wait_at_most` and fails, killed, past it), never a read or write outside the state dir.

use std::fs;
use std::os::unix::fs::symlink;
use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::util::*;

/// Far above the immediate answer, far below a hang.
const BOUND: Duration = Duration::from_secs(10);

fn mkfifo(path: &Path) {
    let c = std::ffi::CString::new(path.as_os_str().as_encoded_bytes()).unwrap();
    // SAFETY: a valid NUL-terminated path.
    assert_eq!(
        unsafe { libc::mkfifo(c.as_ptr(), 0o600) },
        0,
        "mkfifo {path:?}"
    );
}

/// `quill --json args…`, killed (and the test failed) if it runs past `BOUND`.
fn bounded(env: &TestEnv, args: &[&str]) -> Out {
    env.cmd(["--json"]).args(args).spawn().wait_at_most(BOUND)
}

/// Refused as an untrusted entry: `state_unavailable`, the hint says to remove `entry`.
#[track_caller]
fn refused(out: &Out, entry: &Path) {
    out.err("state_unavailable", 4);
    let f = out.failure();
    let hint = f.error.hint.clone().unwrap_or_default();
    out.check(
        hint.contains(&format!("remove {}", entry.display())),
        format!("the hint names {}: {hint:?}", entry.display()),
    );
    out.check(
        f.error.message.contains("quill does not trust it"),
        "the message says why",
    );
}

/// Every file under `dir` with its bytes (to show nothing outside the state dir changed).
fn contents(dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    let mut out = Vec::new();
    let mut todo = vec![dir.to_path_buf()];
    while let Some(d) = todo.pop() {
        for e in fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                todo.push(p);
            } else {
                out.push((p.clone(), fs::read(&p).unwrap()));
            }
        }
    }
    out.sort();
    out
}

/// f.txt read and edited once (a baseline, an undo step, a blob); returns the blob's path.
fn read_and_edit(env: &TestEnv) -> PathBuf {
    env.write("f.txt", "one\n");
    env.json(&["read", "f.txt"]).ok();
    env.json(&["edit", "f.txt", "--old", "one", "--new", "two"])
        .ok();
    let history = env.state.join("history");
    let session = fs::read_dir(&history)
        .unwrap()
        .next()
        .unwrap()
        .unwrap()
        .path();
    session.join(sha256_hex(b"one\n"))
}

#[test]
fn a_fifo_as_the_session_file_is_refused_at_once() {
    let env = TestEnv::new();
    read_and_edit(&env);
    let file = env.session_file("json");
    fs::remove_file(&file).unwrap();
    mkfifo(&file);
    let runs: [&[&str]; 5] = [
        &["read", "f.txt"],
        &["edit", "f.txt", "--old", "two", "--new", "three"],
        &["write", "f.txt", "--content", "x"],
        &["state", "show"],
        &["undo", "f.txt"],
    ];
    for args in runs {
        refused(&bounded(&env, args), &file);
    }
    env.assert_file("f.txt", "two\n");
    // Listing all sessions leaves it out, with a warning, and answers.
    let st = bounded(&env, &["state", "--all-sessions"]).ok().state();
    assert_eq!(st.sessions.as_ref().map(Vec::len), Some(0));
    assert!(
        st.warnings[0].says("state_skipped", "is a FIFO"),
        "{:?}",
        st.warnings
    );
    // `state clear` removes it (never opening it), and the session works again.
    bounded(&env, &["state", "clear"]).ok();
    bounded(&env, &["read", "f.txt"]).ok();
}

#[test]
fn a_fifo_as_an_undo_blob_is_refused_at_once() {
    let env = TestEnv::new();
    let blob = read_and_edit(&env);
    assert!(blob.is_file(), "the edit kept the old content as {blob:?}");
    fs::remove_file(&blob).unwrap();
    mkfifo(&blob);
    refused(&bounded(&env, &["undo", "f.txt"]), &blob);
    env.assert_file("f.txt", "two\n");
    // The next mutation keeping that content replaces the FIFO by the blob.
    bounded(&env, &["write", "f.txt", "--content", "one\n"]).ok();
    bounded(&env, &["write", "f.txt", "--content", "three\n"]).ok();
    bounded(&env, &["undo", "f.txt"]).ok();
    env.assert_file("f.txt", "one\n");
}

#[test]
fn a_lock_file_linked_to_a_file_elsewhere_is_refused_and_that_file_kept() {
    let env = TestEnv::new();
    env.write("f.txt", "one\n");
    env.json(&["read", "f.txt"]).ok();
    let outside = env.write("outside.txt", "keep these bytes\n");
    // The mutation lock of f.txt.
    let lock = env.lock_file(&env.path("f.txt"));
    let _ = fs::remove_file(&lock);
    fs::hard_link(&outside, &lock).unwrap();
    refused(
        &bounded(&env, &["write", "f.txt", "--content", "two\n"]),
        &lock,
    );
    env.assert_file("outside.txt", "keep these bytes\n");
    env.assert_file("f.txt", "one\n");
    fs::remove_file(&lock).unwrap();
    // The session's lock.
    let session_lock = env.session_file("lock");
    fs::remove_file(&session_lock).unwrap();
    fs::hard_link(&outside, &session_lock).unwrap();
    refused(&bounded(&env, &["read", "f.txt"]), &session_lock);
    env.assert_file("outside.txt", "keep these bytes\n");
    // A FIFO as a lock file.
    fs::remove_file(&session_lock).unwrap();
    mkfifo(&session_lock);
    refused(&bounded(&env, &["read", "f.txt"]), &session_lock);
}

#[test]
fn symlinked_state_subdirectories_are_refused() {
    for sub in ["sessions", "locks", "history"] {
        let env = TestEnv::new();
        read_and_edit(&env);
        let real = env.state.join(sub);
        let elsewhere = env.base.join(format!("elsewhere-{sub}"));
        fs::rename(&real, &elsewhere).unwrap();
        symlink(&elsewhere, &real).unwrap();
        let before = contents(&elsewhere);
        let runs: [&[&str]; 4] = [
            &["read", "f.txt"],
            &["edit", "f.txt", "--old", "two", "--new", "three"],
            &["undo", "f.txt"],
            &["state", "clear"],
        ];
        for args in runs {
            let out = bounded(&env, args);
            out.check(
                out.failure()
                    .error
                    .message
                    .contains(&real.display().to_string()),
                format!("{sub}: the message names the link"),
            );
            refused(&out, &real);
        }
        assert_eq!(contents(&elsewhere), before, "{sub}: nothing changed there");
        env.assert_file("f.txt", "two\n");
    }
}

#[test]
#[ignore = "needs root to chown a session file to another user"]
fn a_session_file_of_another_user_is_refused() {
    require_root("to chown a session file to nobody");
    let env = TestEnv::new();
    read_and_edit(&env);
    let file = env.session_file("json");
    std::os::unix::fs::chown(&file, Some(65534), None).unwrap();
    refused(&bounded(&env, &["state", "show"]), &file);
    refused(
        &bounded(&env, &["edit", "f.txt", "--old", "two", "--new", "three"]),
        &file,
    );
    let out = bounded(&env, &["read", "f.txt"]);
    refused(&out, &file);
    out.check(
        out.failure().error.message.contains("owned by uid 65534"),
        "the message names the owner",
    );
    env.assert_file("f.txt", "two\n");
}
