//! Sessions and the state directory (SPEC §1.1, §1.2, §3.8).

use std::fs;

use crate::util::*;

#[test]
fn state_show_forget_clear() {
    let env = TestEnv::new();
    env.write("a.txt", "a\n");
    env.write("b.txt", "b\n");
    env.json(&["read", "a.txt"]).ok();
    env.json(&["read", "b.txt"]).ok();
    let out = env.json(&["state"]);
    out.ok();
    assert_eq!(out.j("files").as_array().unwrap().len(), 2);
    let out = env.json(&["state", "forget", "a.txt"]);
    out.ok();
    assert_eq!(out.j("forgotten"), true);
    assert_eq!(
        env.json(&["state", "show"])
            .j("files")
            .as_array()
            .unwrap()
            .len(),
        1
    );
    env.json(&["state", "clear"]).ok();
    assert_eq!(env.json(&["state"]).j("files").as_array().unwrap().len(), 0);
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
