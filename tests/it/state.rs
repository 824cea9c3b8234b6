//! Sessions and the state directory (docs/model.md; docs/commands/state.md).

use std::fs;

use crate::util::*;

/// The paths of the session's baselines (`state show`), sorted.
#[track_caller]
fn baselines(env: &TestEnv, session: &str) -> Vec<String> {
    let mut paths = env
        .json(&["--session", session, "state", "show"])
        .ok()
        .state()
        .paths();
    paths.sort();
    paths
}

fn abs(env: &TestEnv, rels: &[&str]) -> Vec<String> {
    rels.iter()
        .map(|r| env.path(r).to_str().unwrap().to_string())
        .collect()
}

/// The files the session file on disk holds baselines of, sorted; None when it is gone.
fn on_disk(env: &TestEnv) -> Option<Vec<String>> {
    let file = fs::read_dir(env.state.join("sessions"))
        .ok()?
        .map(|e| e.unwrap().path())
        .find(|p| p.extension().is_some_and(|e| e == "json"))?;
    let v: serde_json::Value = serde_json::from_slice(&fs::read(file).unwrap()).unwrap();
    let mut keys: Vec<String> = v["files"].as_object().unwrap().keys().cloned().collect();
    keys.sort();
    Some(keys)
}

#[test]
fn state_show_forget_clear() {
    let env = TestEnv::new();
    env.write("a.txt", "a\n");
    env.write("b.txt", "bb\n");
    env.write("c.txt", "c\n");
    for f in ["a.txt", "b.txt", "c.txt"] {
        env.json(&["read", f]).ok();
    }
    // `baselines`, each with the whole SHA-256 (`state()` checks there is no `files` and
    // no `message`).
    let st = env.json(&["state"]).ok().state();
    assert_eq!(
        (st.session.as_str(), st.action.as_str()),
        ("default", "show")
    );
    let b = st
        .baselines()
        .iter()
        .find(|f| f.path.ends_with("/b.txt"))
        .expect("b.txt");
    assert_eq!(b.sha256, sha256_hex(b"bb\n"));
    assert_eq!(b.sha256.len(), 64);
    assert_eq!((b.size, b.complete), (3, true));
    assert_eq!(
        baselines(&env, "default"),
        abs(&env, &["a.txt", "b.txt", "c.txt"])
    );
    // Text shows a 12-digit prefix.
    env.text(&["state"])
        .ok()
        .stdout_has(&format!("{}  ", &sha256_hex(b"bb\n")[..12]));
    // Forgetting b.txt removes exactly its baseline: a.txt and c.txt stay.
    let st = env.json(&["state", "forget", "b.txt"]).ok().state();
    assert_eq!((st.action.as_str(), st.forgotten), ("forget", Some(true)));
    assert_eq!(baselines(&env, "default"), abs(&env, &["a.txt", "c.txt"]));
    assert_eq!(on_disk(&env), Some(abs(&env, &["a.txt", "c.txt"])));
    // b.txt is unread again, a.txt still read.
    env.json(&["write", "b.txt", "--content", "x"])
        .err("not_read", 3);
    env.json(&["write", "a.txt", "--content", "x"]).ok();
    let st = env.json(&["state", "forget", "b.txt"]).ok().state();
    assert_eq!(st.forgotten, Some(false), "nothing left to forget");
    env.text(&["state", "forget", "b.txt"])
        .ok()
        .stdout_has("no baseline for");
    // Clear says how many baselines it dropped, and the session file is gone.
    let st = env.json(&["state", "clear"]).ok().state();
    assert_eq!((st.action.as_str(), st.cleared), ("clear", Some(2)));
    assert_eq!(st.forgotten, None);
    assert_eq!(on_disk(&env), None);
    assert_eq!(baselines(&env, "default"), Vec::<String>::new());
    let st = env.json(&["state", "clear"]).ok().state();
    assert_eq!(st.cleared, Some(0), "nothing left to clear");
    env.text(&["state", "clear"])
        .ok()
        .assert_stdout("cleared session 'default'\n");
}

#[test]
fn state_dir_is_created_0700() {
    use std::os::unix::fs::PermissionsExt;
    let env = TestEnv::new();
    env.write("a.txt", "a\n");
    env.json(&["read", "a.txt"]).ok();
    let mode = fs::metadata(&env.state).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o700);
}

#[test]
fn corrupt_state_is_moved_aside_and_the_session_starts_empty() {
    let env = TestEnv::new();
    env.write("a.txt", "a\n");
    env.json(&["read", "a.txt"]).ok();
    let sessions = env.state.join("sessions");
    let file = env.session_file("json");
    fs::write(&file, b"{ not json").unwrap();
    let st = env.json(&["state"]).ok().state();
    assert!(st.baselines().is_empty(), "fails closed");
    assert_eq!(st.warnings.len(), 1, "{:?}", st.warnings);
    assert!(
        st.warnings[0].says("state_corrupt", "the session starts empty"),
        "{:?}",
        st.warnings
    );
    // The next update quarantines it and recovers.
    let r = env.json(&["read", "a.txt"]).ok().read();
    assert_eq!(r.warnings.len(), 1, "{:?}", r.warnings);
    assert!(
        r.warnings[0].says("state_corrupt", "moved aside"),
        "{:?}",
        r.warnings
    );
    let aside: Vec<_> = fs::read_dir(&sessions)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.contains(".corrupt-"))
        .collect();
    assert_eq!(aside.len(), 1, "{aside:?}");
    assert_eq!(baselines(&env, "default"), abs(&env, &["a.txt"]));
}

#[test]
fn a_newer_state_version_is_left_untouched() {
    let env = TestEnv::new();
    env.write("a.txt", "a\n");
    env.json(&["read", "a.txt"]).ok();
    let file = env.session_file("json");
    let future = br#"{"version": 99, "session": "default", "files": {}}"#;
    fs::write(&file, future).unwrap();
    env.json(&["read", "a.txt"]).err("state_unavailable", 4);
    assert_eq!(fs::read(&file).unwrap(), future);
}

#[test]
fn an_unwritable_state_dir_is_state_unavailable() {
    let env = TestEnv::new();
    env.write("a.txt", "a\n");
    env.write("not-a-dir", "x");
    env.cmd(["--json", "read", "a.txt"])
        .env("QUILL_STATE_DIR", env.path("not-a-dir"))
        .run()
        .err("state_unavailable", 4);
}

#[test]
fn sessions_are_isolated_and_named_by_flag_or_env() {
    let env = TestEnv::new();
    env.write("a.txt", "a\n");
    env.json(&["--session", "one", "read", "a.txt"]).ok();
    assert_eq!(baselines(&env, "one"), abs(&env, &["a.txt"]));
    assert_eq!(baselines(&env, "two"), Vec::<String>::new());
    let st = env
        .cmd(["--json", "state"])
        .env("QUILL_SESSION", "one")
        .run()
        .ok()
        .state();
    assert_eq!(st.session, "one");
    assert_eq!(st.paths(), abs(&env, &["a.txt"]));
    let out = env.json(&["state", "--all-sessions"]);
    let st = out.ok().state();
    let sessions = st.sessions();
    assert!(
        out.json["sessions"][0].get("files").is_none(),
        "`baselines`"
    );
    assert_eq!(sessions.len(), 1);
    assert_eq!(
        (sessions[0].session.as_str(), sessions[0].baselines),
        ("one", 1)
    );
    // Text says the same word as the JSON.
    let text = env.text(&["state", "--all-sessions"]);
    text.ok().stdout_has("one\t1 baselines\tlast used ");
}

#[test]
fn a_session_keeps_the_512_most_recently_used_files() {
    let env = TestEnv::new();
    for i in 0..520 {
        env.write(&format!("f/{i:03}.txt"), format!("{i}\n"));
    }
    // Read in one process each is slow; 520 reads still run in a few seconds.
    for i in 0..520 {
        env.json(&["read", &format!("f/{i:03}.txt")]).ok();
    }
    let files = baselines(&env, "default");
    assert_eq!(files.len(), 512);
    for i in 0..8 {
        assert!(
            !files.iter().any(|f| f.ends_with(&format!("f/{i:03}.txt"))),
            "{i} evicted"
        );
    }
    assert!(files.iter().any(|f| f.ends_with("f/519.txt")));
}

#[test]
fn eight_processes_reading_160_files_lose_no_baseline() {
    let env = TestEnv::new();
    for i in 0..160 {
        env.write(&format!("f/{i:03}.txt"), format!("{i}\n"));
    }
    let children: Vec<_> = (0..8)
        .map(|p| {
            let files: Vec<String> = (0..20)
                .map(|i| format!("f/{:03}.txt", p * 20 + i))
                .collect();
            // One process per file, 20 in a row per worker: a shell loop keeps it simple.
            let script = files
                .iter()
                .map(|f| format!("{BIN:?} read {f} >/dev/null || exit 1"))
                .collect::<Vec<_>>()
                .join("\n");
            env.program("sh").args(["-c", &script]).spawn()
        })
        .collect();
    for ch in children {
        ch.wait().ok();
    }
    assert_eq!(baselines(&env, "default").len(), 160);
}

#[test]
fn at_most_64_sessions_are_kept() {
    let env = TestEnv::new();
    env.write("a.txt", "a\n");
    for i in 0..66 {
        env.json(&["--session", &format!("s{i}"), "read", "a.txt"])
            .ok();
    }
    let st = env.json(&["state", "--all-sessions"]).ok().state();
    let names: Vec<&str> = st.sessions().iter().map(|s| s.session.as_str()).collect();
    assert_eq!(names.len(), 64);
    assert!(
        !names.contains(&"s0"),
        "least recently used removed: {names:?}"
    );
    assert!(names.contains(&"s65"), "the newest kept: {names:?}");
}

#[test]
fn a_state_dir_others_own_or_may_write_is_refused() {
    use std::os::unix::fs::PermissionsExt;
    let env = TestEnv::new();
    env.write("a.txt", "a\n");
    env.json(&["read", "a.txt"]).ok();
    fs::set_permissions(&env.state, fs::Permissions::from_mode(0o777)).unwrap();
    env.json(&["read", "a.txt"]).err("state_unavailable", 4);
    env.json(&["write", "a.txt", "--content", "b\n"])
        .err("state_unavailable", 4);
    env.assert_file("a.txt", "a\n");
    fs::set_permissions(&env.state, fs::Permissions::from_mode(0o720)).unwrap();
    env.json(&["read", "a.txt"]).err("state_unavailable", 4);
    fs::set_permissions(&env.state, fs::Permissions::from_mode(0o700)).unwrap();
    env.json(&["read", "a.txt"]).ok();
}

#[test]
#[ignore = "needs root (to give the state dir to another user)"]
fn a_state_dir_another_user_owns_is_refused() {
    require_root("to chown the state dir to nobody");
    let env = TestEnv::new();
    env.write("a.txt", "a\n");
    env.json(&["read", "a.txt"]).ok();
    std::os::unix::fs::chown(&env.state, Some(65534), Some(65534)).unwrap();
    env.json(&["read", "a.txt"]).err("state_unavailable", 4);
    env.json(&["write", "a.txt", "--content", "b\n"])
        .err("state_unavailable", 4);
    env.assert_file("a.txt", "a\n");
}

#[test]
fn a_second_corruption_does_not_overwrite_the_first_quarantined_copy() {
    let env = TestEnv::new();
    env.write("a.txt", "a\n");
    env.json(&["read", "a.txt"]).ok();
    let sessions = env.state.join("sessions");
    let file = env.session_file("json");
    for garbage in ["{first", "{second"] {
        fs::write(&file, garbage).unwrap();
        env.json(&["read", "a.txt"]).ok();
    }
    let mut kept: Vec<String> = fs::read_dir(&sessions)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.to_string_lossy().contains(".corrupt-"))
        .map(|p| fs::read_to_string(p).unwrap())
        .collect();
    kept.sort();
    assert_eq!(kept, ["{first", "{second"]);
}

#[test]
fn all_sessions_does_not_combine_with_an_action() {
    let env = TestEnv::new();
    env.json(&["state", "--all-sessions", "clear"])
        .err("usage", 2);
}

#[test]
fn forget_works_through_a_dangling_link() {
    let env = TestEnv::new();
    env.write("t.txt", "t\n");
    std::os::unix::fs::symlink("t.txt", env.path("link")).unwrap();
    env.json(&["read", "link"]).ok();
    fs::remove_file(env.path("t.txt")).unwrap();
    let st = env.json(&["state", "forget", "link"]).ok().state();
    assert_eq!(st.forgotten, Some(true));
    assert_eq!(baselines(&env, "default"), Vec::<String>::new());
}
