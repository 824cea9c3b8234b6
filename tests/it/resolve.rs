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
