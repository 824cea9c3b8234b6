//! The resolve step: every command checks its flags and paths before any guarded I/O, in one
//! order (flag values first, then paths), so one bad input gets one answer from every command.

use std::fs;

use crate::util::*;

#[test]
fn a_bad_hash_on_a_path_outside_the_root_is_the_same_answer_everywhere() {
    let env = TestEnv::new();
    env.write("root/in.txt", "inside\n");
    let outside = env.write("elsewhere/out.txt", "outside\n");
    let root = env.path("root");
    let root = root.to_str().unwrap();
    let out = outside.to_str().unwrap();
    let bad = "not-a-hash";
    let runs: [Vec<&str>; 4] = [
        vec![
            "--root",
            root,
            "write",
            out,
            "--content",
            "x",
            "--expect-sha256",
            bad,
        ],
        vec![
            "--root",
            root,
            "edit",
            out,
            "--old",
            "outside",
            "--new",
            "x",
            "--expect-sha256",
            bad,
        ],
        vec![
            "--root",
            root,
            "transfer",
            out,
            "root/copy.txt",
            "--expect-sha256",
            bad,
        ],
        vec![
            "--root",
            root,
            "transfer",
            "root/in.txt",
            out,
            "--replace-sha256",
            bad,
        ],
    ];
    for args in &runs {
        let o = env.json(args);
        o.err("invalid_argument", 2);
        assert!(
            o.j("error")["message"]
                .as_str()
                .unwrap()
                .contains("64 hex digits"),
            "{args:?}: {}",
            o.stdout
        );
    }
    // Nothing was touched, inside or out.
    assert_eq!(fs::read(&outside).unwrap(), b"outside\n");
    assert!(!exists(&env.path("root/copy.txt")));
    assert!(quill_temps(&env.path("root")).is_empty());
}

#[test]
fn a_good_hash_still_meets_the_root() {
    let env = TestEnv::new();
    env.write("root/in.txt", "inside\n");
    let outside = env.write("elsewhere/out.txt", "outside\n");
    let root = env.path("root");
    let hash = sha256_hex(b"outside\n");
    for cmd in ["write", "edit"] {
        let mut args = vec![
            "--root",
            root.to_str().unwrap(),
            cmd,
            outside.to_str().unwrap(),
        ];
        if cmd == "write" {
            args.extend(["--content", "x"]);
        } else {
            args.extend(["--old", "outside", "--new", "x"]);
        }
        args.extend(["--expect-sha256", &hash]);
        env.json(&args).err("outside_root", 3);
    }
    assert_eq!(fs::read(&outside).unwrap(), b"outside\n");
}

#[test]
fn read_checks_its_page_flags_before_the_path() {
    let env = TestEnv::new();
    env.json(&["read", "missing.txt", "--offset", "0"])
        .err("invalid_argument", 2);
    env.json(&["read", "missing.txt", "--pages", "5-2"])
        .err("invalid_argument", 2);
    env.json(&["read", "missing.txt"]).err("not_found", 4);
}

/// `--root` confines the files a change reads its text from too (`write --from`, `edit
/// --old-file/--new-file/--edits FILE`): else a caller confined to the root — a model behind
/// `quill call` — could copy any file it may read into the root. Stdin stays open to all.
#[test]
fn the_root_confines_the_files_a_change_reads_its_text_from() {
    let env = TestEnv::new();
    env.write("root/in.txt", "inside\n");
    env.write("root/text.txt", "inside\n");
    env.write(
        "root/edits.json",
        r#"[{"old": "inside", "new": "changed"}]"#,
    );
    let secret = env.write("elsewhere/secret.txt", "secret\n");
    env.write(
        "elsewhere/edits.json",
        r#"[{"old": "inside", "new": "secret"}]"#,
    );
    std::os::unix::fs::symlink(&secret, env.path("root/link.txt")).unwrap();
    let root = env.path("root");
    let root = root.to_str().unwrap();
    let hash = sha256_hex(b"inside\n");
    let secret = secret.to_str().unwrap();
    let outside_edits = env.path("elsewhere/edits.json");
    let outside_edits = outside_edits.to_str().unwrap();
    for source in [secret, "../elsewhere/secret.txt", "link.txt"] {
        let calls: [Vec<&str>; 4] = [
            vec!["write", "new.txt", "--from", source],
            vec!["edit", "in.txt", "--old-file", source, "--new", "x"],
            vec!["edit", "in.txt", "--old", "inside", "--new-file", source],
            vec!["edit", "in.txt", "--edits", outside_edits],
        ];
        for call in calls {
            let mut args = vec!["--root", root];
            args.extend(&call);
            if call[0] == "edit" {
                args.extend(["--expect-sha256", &hash]);
            }
            env.cmd(["--json"])
                .args(&args)
                .current_dir(env.path("root"))
                .run()
                .err("outside_root", 3);
        }
    }
    // A model's tool call is held the same way.
    let call = format!(
        r#"{{"tool": "quill_write", "arguments": {{"path": "new.txt", "from": "{secret}"}}}}"#
    );
    env.cmd(["--root", root, "call"])
        .current_dir(env.path("root"))
        .stdin(call)
        .run()
        .err("outside_root", 3);
    assert_eq!(env.read("root/in.txt"), b"inside\n");
    assert!(!exists(&env.path("root/new.txt")));
    // Inside the root, and from stdin, the same calls work.
    let inside = |args: &[&str]| {
        let mut all = vec!["--json", "--root", root];
        all.extend(args);
        env.cmd(all).current_dir(env.path("root")).run()
    };
    inside(&["write", "new.txt", "--from", "text.txt"]).ok();
    assert_eq!(env.read("root/new.txt"), b"inside\n");
    inside(&[
        "edit",
        "in.txt",
        "--edits",
        "edits.json",
        "--expect-sha256",
        &hash,
    ])
    .ok();
    assert_eq!(env.read("root/in.txt"), b"changed\n");
    env.cmd(["--json", "--root", root, "write", "std.txt", "--stdin"])
        .current_dir(env.path("root"))
        .stdin(b"piped\n")
        .run()
        .ok();
    assert_eq!(env.read("root/std.txt"), b"piped\n");
    // Without a root, nothing is confined (as before).
    env.json(&["write", "free.txt", "--from", secret]).ok();
    assert_eq!(env.read("free.txt"), b"secret\n");
}
