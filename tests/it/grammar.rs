//! A command line that behaves like rg: standard input for read.

use crate::util::*;

fn fixture() -> TestEnv {
    let env = TestEnv::new();
    env.write("a.txt", "foo -l bar\nTODO one\nfoo foo\n");
    env.write("b.txt", "nothing here\nfoo\n");
    env.write("src/c.rs", "// TODO two\nlet x = 1;\n");
    env
}

#[test]
fn read_dash_reads_a_pipe_as_a_page_without_baseline() {
    let env = fixture();
    let input: String = (1..=5000).map(|i| format!("line {i}\n")).collect();
    for name in ["-", "/dev/stdin"] {
        let r = env
            .json_stdin(
                &["read", name, "--offset", "3", "--limit", "2"],
                input.as_bytes(),
            )
            .ok()
            .read();
        assert_eq!(r.path, "<stdin>");
        assert_eq!(r.content, "line 3\nline 4\n");
        assert_eq!(r.total_lines, 5000);
        assert_eq!(r.next_offset, Some(5));
        assert_eq!(r.size, input.len() as u64);
        assert_eq!(
            r.sha256.as_deref(),
            Some(sha256_hex(input.as_bytes()).as_str())
        );
        assert!(r.file_access.is_none(), "nothing to guard: no fileAccess");
    }
    env.cmd(["read", "-"])
        .stdin("a\nb\n")
        .run()
        .ok()
        .stdout_has("1\ta\n")
        .stdout_has("2\tb\n");
    // Nothing recorded in the session.
    let st = env.json(&["state"]).ok().state();
    assert!(st.files().is_empty(), "{:?}", st.files());
    env.json_stdin(&["read", "-", "--offset", "9"], b"one\n")
        .err("offset_past_end", 1);
    env.json_stdin(&["read", "-"], b"a\0b")
        .err("binary_file", 3);
}
