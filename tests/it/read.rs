//! `quill read` (SPEC §3.1) through the real binary.

use crate::util::*;

#[test]
fn reads_lines_exactly_with_tabs_and_trailing_spaces() {
    let env = TestEnv::new();
    env.write("a.txt", "a\tb\nline2  \n");
    let out = env.json(&["read", "a.txt"]);
    out.ok();
    assert_eq!(out.j("content"), "a\tb\nline2  \n");
    assert_eq!(out.j("totalLines"), 2);
    assert_eq!(out.j("complete"), true);
    assert_eq!(out.j("sha256"), sha256_hex(b"a\tb\nline2  \n").as_str());
    assert_eq!(out.j("fileAccess")["access"], "read");
    let text = env.text(&["read", "a.txt"]);
    assert_eq!(text.stdout, "     1\ta\tb\n     2\tline2  \n");
}
