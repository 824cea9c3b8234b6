//! Checks the `patch` a mutation reports. Every test that changes a file applies its patch
//! with a strict applier here (exact positions, exact context, line counts as the hunk header
//! says, `\ No newline at end of file`, creation and deletion headers): applied to the old
//! bytes it must give exactly the new bytes. That needs no tool, so it runs everywhere.
//!
//! Whether `git apply` and `patch -p1` accept them too is checked by the ignored tests at the
//! end, over one scenario of every kind of patch the other tests produce (CI runs them).

use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::process::{Command, Stdio};

use crate::util::{Out, TestEnv, assert_bytes, require, utf16le};

/// `old`: the file before (None: it did not exist). `new`: after (None: deleted).
#[track_caller]
pub fn assert_patch_applies(out: &Out, old: Option<&[u8]>, new: Option<&[u8]>) {
    let m = out.mutation();
    let Some(patch) = m.patch else {
        out.fail("no patch in the answer")
    };
    if patch.is_empty() {
        if old != new {
            out.fail("an empty patch for a change");
        }
        return;
    }
    match apply(&patch, old) {
        Ok(Some(result)) => match new {
            Some(new) => assert_bytes("the patch applied to the old bytes", &result, new),
            None => out.fail("the patch keeps a file that was deleted"),
        },
        Ok(None) => {
            if new.is_some() {
                out.fail("the patch deletes a file that still exists");
            }
        }
        Err(e) => out.fail(&format!("the patch does not apply: {e}\npatch:\n{patch}")),
    }
}

/// Apply a one-file git-style unified diff to `old`; `Ok(None)` when it deletes the file.
pub fn apply(patch: &str, old: Option<&[u8]>) -> Result<Option<Vec<u8>>, String> {
    let mut lines = patch.split_inclusive('\n').peekable();
    let first = lines.next().ok_or("an empty patch")?;
    let names = first
        .strip_prefix("diff --git a/")
        .ok_or(format!("not a git patch header: {first:?}"))?;
    let names = names.trim_end_matches('\n');
    let half = names.len().saturating_sub(3) / 2;
    let (a_name, b_name) = (&names[..half], &names[half..]);
    if b_name != format!(" b/{a_name}") {
        return Err(format!("header names differ: {first:?}"));
    }
    // Extended headers up to `--- `.
    let (mut new_file, mut deleted_file) = (false, false);
    loop {
        let Some(l) = lines.next() else {
            // Headers only: git's form for creating or deleting an empty file.
            return match (new_file, deleted_file, old) {
                (true, false, None) => Ok(Some(Vec::new())),
                (false, true, Some(b"")) => Ok(None),
                _ => Err("no `---` line".into()),
            };
        };
        if l.starts_with("new file mode ") {
            new_file = true;
        } else if l.starts_with("deleted file mode ") {
            deleted_file = true;
        } else if let Some(from) = l.strip_prefix("--- ") {
            let to = lines.next().ok_or("no `+++` line")?;
            let to = to
                .strip_prefix("+++ ")
                .ok_or(format!("not a +++ line: {to:?}"))?;
            let (from, to) = (from.trim_end(), to.trim_end());
            let want_from = if new_file {
                "/dev/null".to_string()
            } else {
                format!("a/{a_name}")
            };
            let want_to = if deleted_file {
                "/dev/null".to_string()
            } else {
                format!("b/{a_name}")
            };
            if from != want_from || to != want_to {
                return Err(format!(
                    "--- {from} / +++ {to}: want {want_from} / {want_to}"
                ));
            }
            break;
        } else if !(l.starts_with("index ")
            || l.starts_with("old mode ")
            || l.starts_with("new mode "))
        {
            return Err(format!("unexpected header line {l:?}"));
        }
    }
    if new_file != old.is_none() {
        return Err(format!(
            "new file header: {new_file}, old file exists: {}",
            old.is_some()
        ));
    }
    let old_lines: Vec<&[u8]> = old
        .unwrap_or(b"")
        .split_inclusive(|&b| b == b'\n')
        .collect();
    let mut out: Vec<u8> = Vec::new();
    let mut at = 0usize; // old lines consumed
    while let Some(h) = lines.next() {
        let spec = h
            .strip_prefix("@@ -")
            .and_then(|r| r.split(" @@").next())
            .ok_or(format!("not a hunk header: {h:?}"))?;
        let (o, n) = spec
            .split_once(" +")
            .ok_or(format!("bad hunk header {h:?}"))?;
        let range = |r: &str| -> Result<(usize, usize), String> {
            let (s, c) = r.split_once(',').unwrap_or((r, "1"));
            Ok((
                s.parse().map_err(|_| format!("bad start in {h:?}"))?,
                c.parse().map_err(|_| format!("bad count in {h:?}"))?,
            ))
        };
        let ((o_start, o_count), (_, n_count)) = (range(o)?, range(n)?);
        // A hunk that removes nothing starts *after* line o_start.
        let begin = if o_count == 0 { o_start } else { o_start - 1 };
        if begin < at || begin > old_lines.len() {
            return Err(format!(
                "hunk {h:?} starts at old line {begin}, {at} consumed"
            ));
        }
        for l in &old_lines[at..begin] {
            out.extend_from_slice(l);
        }
        at = begin;
        let (mut seen_old, mut seen_new) = (0, 0);
        while seen_old < o_count || seen_new < n_count {
            let l = lines.next().ok_or(format!("hunk {h:?} ends early"))?;
            let (sign, body) = l.split_at(1);
            let mut text = body.as_bytes().to_vec();
            if lines.peek().is_some_and(|n| n.starts_with('\\')) {
                lines.next();
                if text.pop() != Some(b'\n') {
                    return Err("a `\\ No newline` marker after a cut line".into());
                }
            }
            if sign == " " || sign == "-" {
                let have = old_lines
                    .get(at)
                    .ok_or(format!("hunk {h:?} goes past the end of the old file"))?;
                if *have != text.as_slice() {
                    return Err(format!(
                        "old line {}: the patch has {:?}, the file {:?}",
                        at + 1,
                        String::from_utf8_lossy(&text),
                        String::from_utf8_lossy(have)
                    ));
                }
                at += 1;
                seen_old += 1;
            }
            if sign == " " || sign == "+" {
                out.extend_from_slice(&text);
                seen_new += 1;
            }
            if !matches!(sign, " " | "-" | "+") {
                return Err(format!("a hunk line {l:?}"));
            }
        }
        if seen_old != o_count || seen_new != n_count {
            return Err(format!("hunk {h:?} holds -{seen_old} +{seen_new} lines"));
        }
    }
    for l in &old_lines[at..] {
        out.extend_from_slice(l);
    }
    if deleted_file {
        if !out.is_empty() {
            return Err("a deletion patch leaves content".into());
        }
        return Ok(None);
    }
    Ok(Some(out))
}

/// The file name a patch is about (`diff --git a/NAME b/NAME`).
fn patch_path(patch: &str) -> String {
    let first = patch.lines().next().unwrap();
    let rest = first
        .strip_prefix("diff --git a/")
        .expect("a prefixed git patch");
    let half = rest.len().saturating_sub(3) / 2;
    rest[..half].to_string()
}

/// `tool` (git or patch) applies the patch of `out` to `old` and gives `new`.
#[track_caller]
pub fn assert_tool_applies(tool: &str, out: &Out, old: Option<&[u8]>, new: Option<&[u8]>) {
    let patch = out.mutation().patch.expect("a patch");
    let path = patch_path(&patch);
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join(&path);
    if let Some(old) = old {
        fs::create_dir_all(file.parent().unwrap()).unwrap();
        fs::write(&file, old).unwrap();
    }
    let mut c = if tool == "git" {
        let mut c = Command::new("git");
        c.args(["apply", "--whitespace=nowarn", "-"]);
        c
    } else {
        let mut c = Command::new("patch");
        c.args(["-p1", "-s", "--batch", "--no-backup-if-mismatch"]);
        c
    };
    c.current_dir(dir.path())
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("HOME", dir.path())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = c.spawn().unwrap();
    {
        use std::io::Write;
        child
            .stdin
            .take()
            .unwrap()
            .write_all(patch.as_bytes())
            .unwrap();
    }
    let o = child.wait_with_output().unwrap();
    if !o.status.success() {
        out.fail(&format!(
            "{tool} failed to apply the patch:\n{patch}\n{tool}'s stderr: {}",
            String::from_utf8_lossy(&o.stderr)
        ));
    }
    match new {
        Some(new) => assert_bytes(
            &format!("the file after `{tool}` applied the patch"),
            &fs::read(&file).unwrap(),
            new,
        ),
        None => {
            if file.exists() && !fs::read(&file).unwrap().is_empty() {
                out.fail(&format!("{tool} left the deleted file"));
            }
        }
    }
}

/// One change of every kind the tests make: (its answer, the bytes before, the bytes after).
type Case = (Out, Option<Vec<u8>>, Option<Vec<u8>>);

fn every_kind_of_patch(env: &TestEnv) -> Vec<Case> {
    let mut cases = Vec::new();
    let mut edit = |rel: &str, before: &[u8], args: &[&str]| {
        env.write(rel, before);
        env.json(&["read", rel]).ok();
        let mut full = vec!["edit", rel];
        full.extend_from_slice(args);
        let out = env.json(&full);
        out.ok();
        let after = env.read(rel);
        cases.push((out, Some(before.to_vec()), Some(after)));
    };
    edit(
        "unique.rs",
        b"fn a() {\n    let x = 1;\n}\n",
        &["--old", "let x = 1;", "--new", "let x = 2;"],
    );
    edit(
        "all.txt",
        b"aaa\nx\naaa\n",
        &["--old", "aaa", "--new", "b", "--replace-all"],
    );
    edit(
        "bom-crlf.txt",
        b"\xef\xbb\xbfline one\r\nline two\r\nline three",
        &["--old", "line one\nline two", "--new", "first\nsecond"],
    );
    edit(
        "no-final-newline.txt",
        b"first\r\nsecond\r\nline three",
        &["--old", "three", "--new", "3"],
    );
    edit(
        "tabs.rs",
        b"fn f() {\n\tif x {\n\t\treturn 1;\n\t}\n}\n",
        &[
            "--old",
            "    if x {\n        return 1;\n    }\n",
            "--new",
            "    if x {\n        return 2;\n    }\n",
            "--fuzzy",
        ],
    );
    edit(
        "quotes.md",
        "He said \u{201c}hi\u{201d} and left.\n".as_bytes(),
        &["--old", "said \"hi\"", "--new", "said \"bye\"", "--fuzzy"],
    );
    let long: String = (1..=3000).map(|i| format!("line {i}\n")).collect();
    edit(
        "long.txt",
        long.as_bytes(),
        &["--old", "line 1500\n", "--new", "changed\nand added\n"],
    );
    // Two hunks far apart, one a pure removal, from an edit list on stdin.
    env.write("two-hunks.txt", &long);
    env.json(&["read", "two-hunks.txt"]).ok();
    let out = env.json_stdin(
        &["edit", "two-hunks.txt", "--edits", "-"],
        br#"[{"old":"line 10\n","new":"ten\n"},{"old":"line 2990\n","new":""}]"#,
    );
    out.ok();
    cases.push((
        out,
        Some(long.as_bytes().to_vec()),
        Some(env.read("two-hunks.txt")),
    ));
    // Edits from stdin, in one publication.
    env.write("multi.txt", "one\ntwo\nthree\n");
    env.json(&["read", "multi.txt"]).ok();
    let out = env.json_stdin(
        &["edit", "multi.txt", "--edits", "-"],
        br#"[{"old":"one","new":"1"},{"old":"three","new":"3"}]"#,
    );
    out.ok();
    cases.push((
        out,
        Some(b"one\ntwo\nthree\n".to_vec()),
        Some(env.read("multi.txt")),
    ));
    // Creations: with parents and no final newline, by edit, from stdin.
    let out = env.json(&["write", "a/b/new.txt", "--content", "one\ntwo"]);
    out.ok();
    cases.push((out, None, Some(b"one\ntwo".to_vec())));
    let out = env.json(&["edit", "dir/new.rs", "--old", "", "--new", "fn main() {}\n"]);
    out.ok();
    cases.push((out, None, Some(b"fn main() {}\n".to_vec())));
    let out = env.json_stdin(&["write", "stdin.txt", "--stdin"], b"from stdin\n");
    out.ok();
    cases.push((out, None, Some(b"from stdin\n".to_vec())));
    // A whole-file replacement, CRLF to no final newline.
    env.write("f.txt", "old\r\ncontent\n");
    env.json(&["read", "f.txt"]).ok();
    let new = "tab\there  \r\nno newline";
    let out = env.json(&["write", "f.txt", "--content", new]);
    out.ok();
    cases.push((
        out,
        Some(b"old\r\ncontent\n".to_vec()),
        Some(new.as_bytes().to_vec()),
    ));
    // Through a symlink: the patch names the real file.
    env.write("real/target.txt", "one\n");
    std::os::unix::fs::symlink("real/target.txt", env.path("link.txt")).unwrap();
    env.json(&["read", "link.txt"]).ok();
    let out = env.json(&["write", "link.txt", "--content", "two\n"]);
    out.ok();
    cases.push((out, Some(b"one\n".to_vec()), Some(b"two\n".to_vec())));
    // Undo: back to the previous content, a creation undone (with content, empty, executable).
    env.write("u.txt", "v1\n");
    env.json(&["read", "u.txt"]).ok();
    env.json(&["write", "u.txt", "--content", "v2\n"]).ok();
    let out = env.json(&["undo", "u.txt"]);
    out.ok();
    cases.push((out, Some(b"v2\n".to_vec()), Some(b"v1\n".to_vec())));
    env.json(&["write", "n.txt", "--content", "new\n"]).ok();
    let out = env.json(&["undo", "n.txt"]);
    out.ok();
    cases.push((out, Some(b"new\n".to_vec()), None));
    env.json(&["write", "e.txt", "--content", ""]).ok();
    let out = env.json(&["undo", "e.txt"]);
    out.ok();
    cases.push((out, Some(Vec::new()), None));
    env.json(&["write", "run.sh", "--content", "#!/bin/sh\n"])
        .ok();
    fs::set_permissions(env.path("run.sh"), fs::Permissions::from_mode(0o755)).unwrap();
    let out = env.json(&["undo", "run.sh"]);
    out.ok();
    cases.push((out, Some(b"#!/bin/sh\n".to_vec()), None));
    // rm: a deletion patch (with content, CRLF without a final newline, empty, executable).
    for (name, bytes) in [
        ("gone.txt", &b"a\nb\n"[..]),
        ("crlf.txt", b"one\r\ntwo"),
        ("empty.txt", b""),
        ("tool.sh", b"#!/bin/sh\n"),
    ] {
        env.write(name, bytes);
        if name.ends_with(".sh") {
            fs::set_permissions(env.path(name), fs::Permissions::from_mode(0o755)).unwrap();
        }
        env.json(&["read", name]).ok();
        let out = env.json(&["rm", name]);
        out.ok();
        cases.push((out, Some(bytes.to_vec()), None));
    }
    // UTF-16 has no patch (the diff shows decoded text): nothing for the tools.
    env.write("w16.txt", utf16le("one\r\ntwo\r\n"));
    env.json(&["read", "w16.txt"]).ok();
    let out = env.json(&["edit", "w16.txt", "--old", "two", "--new", "three"]);
    out.ok();
    assert!(out.mutation().patch.is_none());
    cases
}

#[test]
fn the_strict_applier_takes_every_kind_of_patch() {
    let env = TestEnv::new();
    for (out, old, new) in every_kind_of_patch(&env) {
        assert_patch_applies(&out, old.as_deref(), new.as_deref());
    }
}

#[test]
fn the_strict_applier_refuses_a_patch_that_does_not_fit() {
    let patch = "diff --git a/f b/f\n--- a/f\n+++ b/f\n@@ -2,2 +2,2 @@\n b\n-c\n+C\n";
    assert_eq!(
        apply(patch, Some(b"a\nb\nc\n")).unwrap().as_deref(),
        Some(&b"a\nb\nC\n"[..])
    );
    // Off by one line, wrong context, a lost final newline, a wrong count: all refused.
    assert!(apply(&patch.replace("-2,2", "-1,2"), Some(b"a\nb\nc\n")).is_err());
    assert!(apply(patch, Some(b"a\nB\nc\n")).is_err());
    assert!(apply(patch, Some(b"a\nb\nc")).is_err());
    assert!(apply(&patch.replace("+2,2", "+2,3"), Some(b"a\nb\nc\n")).is_err());
    assert!(apply(patch, None).is_err(), "no `new file` header");
}

#[test]
#[ignore = "needs git"]
fn git_apply_takes_every_kind_of_patch() {
    require("git", "git");
    let env = TestEnv::new();
    for (out, old, new) in every_kind_of_patch(&env) {
        assert_tool_applies("git", &out, old.as_deref(), new.as_deref());
    }
}

#[test]
#[ignore = "needs patch"]
fn patch_p1_takes_every_kind_of_patch() {
    require("patch", "patch");
    let env = TestEnv::new();
    for (out, old, new) in every_kind_of_patch(&env) {
        assert_tool_applies("patch", &out, old.as_deref(), new.as_deref());
    }
}
