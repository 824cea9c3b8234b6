//! File names that are not UTF-8, through every command: the JSON names them losslessly (the
//! field as a lossy string, and `<field>Bytes` with the exact bytes in base64; for a list,
//! `<field>Bytes` maps the index to the bytes), text output prints their exact bytes on
//! stdout (as rg and fd do, so `| xargs` gets the file), errors about them answer with the
//! right kind and a hint that names that very file, and the bytes on disk are what was asked.

use std::ffi::{OsStr, OsString};
use std::fs;
use std::os::unix::ffi::{OsStrExt, OsStringExt};
use std::path::{Path, PathBuf};

use base64::Engine;
use serde_json::Value;

use crate::util::{Out, TestEnv, assert_bytes, exists, fail, sha256_hex};

/// A name that is not UTF-8 (0xff is never valid).
const BAD: &[u8] = b"bad\xffname.txt";
/// Another one (a lone 0xfe, and a truncated two-byte sequence).
const BAD2: &[u8] = b"d\xfe\xc3.txt";

fn os(bytes: &[u8]) -> &OsStr {
    OsStr::from_bytes(bytes)
}

/// `bytes` in the work dir (absolute).
fn at(env: &TestEnv, bytes: &[u8]) -> PathBuf {
    env.dir.join(os(bytes))
}

/// What the JSON's string field shows for `path`: U+FFFD for each invalid sequence.
fn lossy(path: &Path) -> String {
    path.to_string_lossy().into_owned()
}

fn decode(v: &Value, what: &str) -> Vec<u8> {
    let Some(s) = v.as_str() else {
        fail(&format!("{what} is not a string: {v}"))
    };
    base64::engine::general_purpose::STANDARD
        .decode(s)
        .unwrap_or_else(|e| fail(&format!("{what} is not standard base64 ({s:?}): {e}")))
}

/// `obj[key]` is `path` shown lossily and `obj[keyBytes]` decodes to its exact bytes.
#[track_caller]
fn assert_named(obj: &Value, key: &str, path: &Path) {
    assert_eq!(obj[key], Value::from(lossy(path)), "{key} in {obj}");
    let raw = decode(&obj[format!("{key}Bytes")], &format!("{key}Bytes in {obj}"));
    assert_bytes(&format!("{key}Bytes"), &raw, path.as_os_str().as_bytes());
}

/// `obj[key]` is a list of names whose `keyBytes` map gives each name's exact bytes back:
/// returns the names.
#[track_caller]
fn names_of(obj: &Value, key: &str) -> Vec<PathBuf> {
    let Some(list) = obj[key].as_array() else {
        fail(&format!("{key} is not a list in {obj}"))
    };
    let bytes = &obj[format!("{key}Bytes")];
    list.iter()
        .enumerate()
        .map(|(i, s)| {
            let s = s
                .as_str()
                .unwrap_or_else(|| fail(&format!("{key}[{i}] is no string")));
            let raw = &bytes[i.to_string()];
            if raw.is_null() {
                assert!(
                    !s.contains('\u{fffd}'),
                    "{key}[{i}] = {s:?} has no {key}Bytes"
                );
                PathBuf::from(s)
            } else {
                let b = decode(raw, &format!("{key}Bytes[{i}]"));
                assert_eq!(
                    s,
                    String::from_utf8_lossy(&b),
                    "{key}[{i}] is its bytes, lossy"
                );
                PathBuf::from(OsString::from_vec(b))
            }
        })
        .collect()
}

/// No name of the answer is lost: every string that shows U+FFFD in a field that names a
/// file has its bytes beside it (`…Bytes`), and a UTF-8 name has none.
#[track_caller]
fn assert_lossless(v: &Value) {
    const TEXT: [&str; 7] = [
        "message", "hint", "diff", "patch", "content", "text", "warnings",
    ];
    match v {
        Value::Object(m) => {
            for (k, x) in m {
                if TEXT.contains(&k.as_str()) || k.ends_with("Bytes") {
                    continue;
                }
                let bytes = m.get(&format!("{k}Bytes"));
                match x {
                    Value::String(s) if s.contains('\u{fffd}') => {
                        assert!(bytes.is_some(), "{k} = {s:?} has no {k}Bytes in {v}")
                    }
                    Value::String(_) => assert!(bytes.is_none(), "{k} is UTF-8 but has {k}Bytes"),
                    Value::Array(items) if items.iter().all(Value::is_string) => {
                        for (i, s) in items.iter().enumerate() {
                            let lossy = s.as_str().is_some_and(|s| s.contains('\u{fffd}'));
                            let raw = bytes.map(|b| &b[i.to_string()]);
                            assert_eq!(
                                lossy,
                                raw.is_some_and(|r| !r.is_null()),
                                "{k}[{i}] and {k}Bytes in {v}"
                            );
                        }
                    }
                    other => assert_lossless(other),
                }
            }
        }
        Value::Array(items) => items.iter().for_each(assert_lossless),
        _ => {}
    }
}

/// `quill --json ARGS… NAME…`: a run whose last arguments are names as bytes.
fn json(env: &TestEnv, args: &[&str], names: &[&OsStr]) -> Out {
    env.cmd(["--json"]).args(args).args(names).run()
}

fn text(env: &TestEnv, args: &[&str], names: &[&OsStr]) -> Out {
    env.cmd(args).args(names).run()
}

/// stdout holds `needle` byte for byte.
#[track_caller]
fn stdout_has_bytes(out: &Out, needle: &[u8]) {
    let found = out.stdout_bytes.windows(needle.len()).any(|w| w == needle);
    out.check(
        found,
        format!(
            "stdout lacks the bytes {:?}",
            String::from_utf8_lossy(needle)
        ),
    );
}

/// Only the named file exists for a name: nothing was created under its lossy spelling.
#[track_caller]
fn no_lossy_twin(path: &Path) {
    let twin = PathBuf::from(lossy(path));
    assert!(!exists(&twin), "{} was created", twin.display());
}

fn cat(parts: &[&[u8]]) -> Vec<u8> {
    parts.concat()
}

#[test]
fn read_names_the_file_by_its_bytes() {
    let env = TestEnv::new();
    let file = at(&env, BAD);
    fs::write(&file, "hello\n").unwrap();

    let out = json(&env, &["read"], &[os(BAD)]);
    out.ok();
    assert_named(&out.json, "path", &file);
    assert_named(&out.json["fileAccess"], "path", &file);
    assert_lossless(&out.json);
    assert_eq!(out.read().content, "hello\n");
    assert_bytes("the file", &fs::read(&file).unwrap(), b"hello\n");
}

#[test]
fn read_text_shows_the_file() {
    let env = TestEnv::new();
    fs::write(at(&env, BAD), "hello\n").unwrap();
    text(&env, &["read"], &[os(BAD)])
        .ok()
        .assert_stdout("     1\thello\n");
}

#[test]
fn read_through_a_link_whose_name_is_not_utf8() {
    let env = TestEnv::new();
    let file = at(&env, BAD);
    fs::write(&file, "x\n").unwrap();
    let link = at(&env, b"link\xff");
    std::os::unix::fs::symlink(os(BAD), &link).unwrap();

    let out = json(&env, &["read"], &[link.as_os_str()]);
    out.ok();
    assert_named(&out.json, "path", &file);
    assert_named(&out.json, "viaSymlink", &link);
    assert_lossless(&out.json);
}

#[test]
fn write_creates_the_file_of_exactly_that_name() {
    let env = TestEnv::new();
    let file = at(&env, BAD);

    let out = json(&env, &["write", "--content", "new\n"], &[os(BAD)]);
    out.ok();
    assert_named(&out.json, "path", &file);
    assert_named(&out.json["fileAccess"], "path", &file);
    assert_lossless(&out.json);
    assert!(out.mutation().created);
    assert_bytes("the file", &fs::read(&file).unwrap(), b"new\n");
    no_lossy_twin(&file);
}

#[test]
fn write_text_names_the_file_by_its_bytes() {
    let env = TestEnv::new();
    let other = at(&env, BAD2);
    let out = text(&env, &["write", "--content", "two\n"], &[os(BAD2)]);
    out.ok();
    stdout_has_bytes(&out, &cat(&[b"created ", BAD2, b": 4 bytes"]));
    assert_bytes("the other file", &fs::read(&other).unwrap(), b"two\n");
    no_lossy_twin(&other);
}

#[test]
fn edit_answers_the_change_it_made() {
    let env = TestEnv::new();
    let file = at(&env, BAD);
    fs::write(&file, "hello\n").unwrap();
    text(&env, &["read"], &[os(BAD)]).ok();

    let out = json(
        &env,
        &["edit", "--old", "hello", "--new", "bye"],
        &[os(BAD)],
    );
    out.ok();
    assert_named(&out.json, "path", &file);
    assert_named(&out.json["fileAccess"], "path", &file);
    assert_lossless(&out.json);
    let m = out.mutation();
    assert_eq!(m.sha256, Some(sha256_hex(b"bye\n")));
    assert_bytes("the file", &fs::read(&file).unwrap(), b"bye\n");

    // The patch names the file as git does (C-quoted, `\377`), and applies to it.
    let patch = m.patch.unwrap_or_else(|| fail("no patch"));
    assert!(
        patch.starts_with("diff --git \"a/bad\\377name.txt\" \"b/bad\\377name.txt\"\n"),
        "{patch}"
    );
    let elsewhere = env.base.join("elsewhere");
    fs::create_dir(&elsewhere).unwrap();
    fs::write(elsewhere.join(os(BAD)), "hello\n").unwrap();
    fs::write(elsewhere.join("change.patch"), &patch).unwrap();
    env.program("git")
        .args(["apply", "change.patch"])
        .current_dir(&elsewhere)
        .run()
        .exit(0);
    assert_bytes(
        "the patched copy",
        &fs::read(elsewhere.join(os(BAD))).unwrap(),
        b"bye\n",
    );
}

#[test]
fn edit_text_names_the_file_by_its_bytes() {
    let env = TestEnv::new();
    let file = at(&env, BAD);
    fs::write(&file, "bye\n").unwrap();
    text(&env, &["read"], &[os(BAD)]).ok();
    let out = text(&env, &["edit", "--old", "bye", "--new", "ciao"], &[os(BAD)]);
    out.ok();
    stdout_has_bytes(&out, &cat(&[b"wrote ", BAD, b": 5 bytes, +1 -1 lines"]));
    assert_bytes("the file", &fs::read(&file).unwrap(), b"ciao\n");
}

#[test]
fn undo_restores_and_names_the_file() {
    let env = TestEnv::new();
    let file = at(&env, BAD);
    fs::write(&file, "one\n").unwrap();
    text(&env, &["read"], &[os(BAD)]).ok();
    text(&env, &["edit", "--old", "one", "--new", "two"], &[os(BAD)]).ok();
    text(
        &env,
        &["edit", "--old", "two", "--new", "three"],
        &[os(BAD)],
    )
    .ok();

    let out = json(&env, &["undo"], &[os(BAD)]);
    out.ok();
    assert_named(&out.json, "path", &file);
    assert_named(&out.json["fileAccess"], "path", &file);
    assert_lossless(&out.json);
    assert_bytes("the file", &fs::read(&file).unwrap(), b"two\n");
}

#[test]
fn undo_text_names_the_file_by_its_bytes() {
    let env = TestEnv::new();
    let file = at(&env, BAD);
    fs::write(&file, "one\n").unwrap();
    text(&env, &["read"], &[os(BAD)]).ok();
    text(&env, &["edit", "--old", "one", "--new", "two"], &[os(BAD)]).ok();
    let out = text(&env, &["undo"], &[os(BAD)]);
    out.ok();
    stdout_has_bytes(&out, &cat(&[b"restored ", BAD, b": 4 bytes"]));
    assert_bytes("the file", &fs::read(&file).unwrap(), b"one\n");
}

#[test]
fn glob_lists_names_by_their_bytes() {
    let env = TestEnv::new();
    fs::write(at(&env, BAD), "x").unwrap();
    fs::write(at(&env, BAD2), "x").unwrap();
    env.write("plain.txt", "x");

    let out = json(&env, &["glob", "*.txt"], &[]);
    out.ok();
    assert_lossless(&out.json);
    let mut found = names_of(&out.json, "files");
    found.sort();
    let mut want = vec![at(&env, BAD), at(&env, BAD2), env.path("plain.txt")];
    want.sort();
    assert_eq!(found, want);
    assert!(
        out.json["filesBytes"].as_object().unwrap().len() == 2,
        "only the names that are not UTF-8 have bytes: {}",
        out.json["filesBytes"]
    );

    // Below a directory named so.
    fs::create_dir(at(&env, b"dir\xff")).unwrap();
    fs::write(at(&env, b"dir\xff/f.txt"), "x").unwrap();
    let out = json(&env, &["glob", "*"], &[os(b"dir\xff")]);
    out.ok();
    assert_eq!(names_of(&out.json, "files"), [at(&env, b"dir\xff/f.txt")]);
}

#[test]
fn glob_text_prints_names_as_their_bytes() {
    let env = TestEnv::new();
    fs::write(at(&env, BAD), "x").unwrap();
    fs::write(at(&env, BAD2), "x").unwrap();
    env.write("plain.txt", "x");
    // One name per line, exactly its bytes; `-0` NUL-separated.
    let out = text(&env, &["glob", "*.txt"], &[]);
    out.ok();
    let mut lines: Vec<&[u8]> = out.stdout_bytes.split(|&b| b == b'\n').collect();
    assert_eq!(lines.pop(), Some(&b""[..]));
    lines.sort();
    let mut want: Vec<&[u8]> = vec![BAD, BAD2, b"plain.txt"];
    want.sort();
    assert_eq!(lines, want);
    let out = text(&env, &["glob", "-0", "bad*"], &[]);
    out.ok();
    assert_bytes("glob -0", &out.stdout_bytes, &cat(&[BAD, b"\0"]));

    // Below a directory named so, as typed.
    fs::create_dir(at(&env, b"dir\xff")).unwrap();
    fs::write(at(&env, b"dir\xff/f.txt"), "x").unwrap();
    let out = text(&env, &["glob", "*"], &[os(b"dir\xff")]);
    out.ok();
    assert_bytes("glob in dir", &out.stdout_bytes, b"dir\xff/f.txt\n");
}

#[test]
fn grep_names_matches_files_and_counts_by_their_bytes() {
    let env = TestEnv::new();
    let file = at(&env, BAD);
    fs::write(&file, "hello\nworld\n").unwrap();

    let out = json(&env, &["grep", "hello"], &[]);
    out.ok();
    assert_lossless(&out.json);
    let m = &out.json["matches"][0];
    assert_named(m, "path", &file);
    assert_eq!(m["line"], 1);

    let out = json(&env, &["grep", "-l", "world"], &[]);
    out.ok();
    assert_lossless(&out.json);
    assert_eq!(names_of(&out.json, "files"), std::slice::from_ref(&file));

    let out = json(&env, &["grep", "-c", "o"], &[]);
    out.ok();
    assert_lossless(&out.json);
    assert_named(&out.json["counts"][0], "path", &file);
    assert_eq!(out.json["counts"][0]["count"], 2);
    assert_bytes("the file", &fs::read(&file).unwrap(), b"hello\nworld\n");
}

#[test]
fn grep_text_prints_the_name_of_matching_lines_as_its_bytes() {
    let env = TestEnv::new();
    fs::write(at(&env, BAD), "hello\nworld\n").unwrap();
    let out = text(&env, &["grep", "hello"], &[]);
    out.ok();
    assert_bytes("grep", &out.stdout_bytes, &cat(&[BAD, b":1:hello\n"]));
    let out = text(&env, &["grep", "--heading", "hello"], &[]);
    out.ok();
    assert_bytes(
        "grep --heading",
        &out.stdout_bytes,
        &cat(&[BAD, b"\n1:hello\n"]),
    );
    // A page, and the whole result (printed by the search's worker threads): the same bytes.
    let out = text(
        &env,
        &["grep", "--limit", "1", "-e", "hello", "-e", "world"],
        &[],
    );
    out.ok();
    stdout_has_bytes(&out, &cat(&[BAD, b":1:hello\n"]));
    let out = text(&env, &["grep", "--all", "-e", "hello", "-e", "world"], &[]);
    out.ok();
    assert_bytes(
        "grep --all",
        &out.stdout_bytes,
        &cat(&[BAD, b":1:hello\n", BAD, b":2:world\n"]),
    );
}

#[test]
fn grep_text_prints_files_and_counts_as_their_bytes() {
    let env = TestEnv::new();
    fs::write(at(&env, BAD), "hello\nworld\n").unwrap();
    let out = text(&env, &["grep", "-l", "world"], &[]);
    out.ok();
    assert_bytes("grep -l", &out.stdout_bytes, &cat(&[BAD, b"\n"]));
    let out = text(&env, &["grep", "-c", "o"], &[]);
    out.ok();
    assert_bytes("grep -c", &out.stdout_bytes, &cat(&[BAD, b":2\n"]));
}

#[test]
fn grep_names_a_missing_path_by_its_bytes() {
    let env = TestEnv::new();
    env.write("a.txt", "hello\n");
    let missing = at(&env, b"gone\xff");

    let out = json(&env, &["grep", "hello", "a.txt"], &[missing.as_os_str()]);
    out.exit(2);
    assert_lossless(&out.json);
    assert_eq!(names_of(&out.json, "missingPaths"), [missing]);
}

#[test]
fn transfer_copies_and_moves_from_and_to_such_names() {
    let env = TestEnv::new();
    let src = at(&env, BAD);
    fs::write(&src, "payload\n").unwrap();

    // copy: the name as source.
    let dst = env.path("plain.txt");
    let out = json(&env, &["transfer"], &[os(BAD), dst.as_os_str()]);
    out.ok();
    assert_lossless(&out.json);
    assert_named(&out.json, "source", &src);
    assert_eq!(out.json["destination"], lossy(&dst));
    assert_bytes("the copy", &fs::read(&dst).unwrap(), b"payload\n");
    assert!(exists(&src), "a copy keeps its source");

    // copy: the name as destination.
    let dst2 = at(&env, BAD2);
    let out = json(&env, &["transfer"], &[dst.as_os_str(), os(BAD2)]);
    out.ok();
    assert_lossless(&out.json);
    assert_named(&out.json, "destination", &dst2);
    assert_named(&out.json["fileAccess"], "path", &dst2);
    assert_bytes("the copy", &fs::read(&dst2).unwrap(), b"payload\n");
    no_lossy_twin(&dst2);

    // move: from one such name to another.
    let moved = at(&env, b"moved\xfe");
    let out = json(&env, &["transfer", "--move"], &[os(BAD), moved.as_os_str()]);
    out.ok();
    assert_lossless(&out.json);
    assert_named(&out.json, "source", &src);
    assert_named(&out.json, "destination", &moved);
    assert_eq!(out.json["sourceRemoved"], true);
    assert_bytes("the moved file", &fs::read(&moved).unwrap(), b"payload\n");
    assert!(!exists(&src), "the move removed its source");
    no_lossy_twin(&moved);
}

#[test]
fn transfer_text_names_both_files_by_their_bytes() {
    let env = TestEnv::new();
    let src = at(&env, BAD);
    fs::write(at(&env, b"moved\xfe"), "payload\n").unwrap();
    let out = text(&env, &["transfer", "--move"], &[os(b"moved\xfe"), os(BAD)]);
    out.ok();
    stdout_has_bytes(&out, &cat(&[b"moved moved\xfe -> ", BAD, b" ("]));
    assert_bytes("moved back", &fs::read(&src).unwrap(), b"payload\n");
    let out = text(&env, &["transfer"], &[os(BAD), os(b"copy\xfe")]);
    out.ok();
    stdout_has_bytes(&out, &cat(&[b"copied ", BAD, b" -> copy\xfe ("]));
    assert_bytes(
        "the copy",
        &fs::read(at(&env, b"copy\xfe")).unwrap(),
        b"payload\n",
    );
}

#[test]
fn state_shows_and_forgets_such_names() {
    let env = TestEnv::new();
    let file = at(&env, BAD);
    fs::write(&file, "x\n").unwrap();
    env.write("plain.txt", "y\n");
    text(&env, &["read"], &[os(BAD)]).ok();
    json(&env, &["read", "plain.txt"], &[]).ok();

    let out = json(&env, &["state", "show"], &[]);
    out.ok();
    assert_lossless(&out.json);
    let files = out.json["baselines"].as_array().unwrap();
    let entry = files
        .iter()
        .find(|f| f["pathBytes"].is_string())
        .unwrap_or_else(|| fail("no baseline with pathBytes"));
    assert_named(entry, "path", &file);
    assert_eq!(files.len(), 2);

    let out = json(&env, &["state", "forget"], &[os(BAD)]);
    out.ok();
    assert_lossless(&out.json);
    assert_named(&out.json, "path", &file);
    assert_eq!(out.json["forgotten"], true);
    let left: Vec<String> = out_paths(&json(&env, &["state", "show"], &[]));
    assert_eq!(left, [lossy(&env.path("plain.txt"))]);
    assert_bytes("the file", &fs::read(&file).unwrap(), b"x\n");
}

#[test]
fn state_text_shows_and_forgets_names_by_their_bytes() {
    let env = TestEnv::new();
    let file = at(&env, BAD);
    fs::write(&file, "x\n").unwrap();
    text(&env, &["read"], &[os(BAD)]).ok();
    let out = text(&env, &["state", "show"], &[]);
    out.ok();
    stdout_has_bytes(&out, &cat(&[b"  complete  ", BAD, b"\n"]));
    // Forget, and again: nothing left to forget.
    let out = text(&env, &["state", "forget"], &[os(BAD)]);
    out.ok();
    assert_bytes("forget", &out.stdout_bytes, &cat(&[b"forgot ", BAD, b"\n"]));
    let out = text(&env, &["state", "forget"], &[os(BAD)]);
    out.ok();
    assert_bytes(
        "forget again",
        &out.stdout_bytes,
        &cat(&[b"no baseline for ", BAD, b"\n"]),
    );
    assert_bytes("the file", &fs::read(&file).unwrap(), b"x\n");
}

fn out_paths(out: &Out) -> Vec<String> {
    out.ok();
    out.state().paths()
}

#[test]
fn not_found_names_the_missing_file_and_its_look_alikes_exactly() {
    let env = TestEnv::new();
    let near = at(&env, BAD);
    fs::write(&near, "x").unwrap();
    let missing = at(&env, b"bad\xffnam.txt");

    let out = json(&env, &["read"], &[missing.as_os_str()]);
    out.err("not_found", 4);
    let e = &out.json["error"];
    assert_lossless(e);
    assert_named(e, "path", &missing);
    assert_eq!(names_of(e, "similar"), [near]);

    let out = text(&env, &["read"], &[missing.as_os_str()]);
    out.exit(4);
    out.stderr_has("does not exist");
    assert!(out.stdout_bytes.is_empty());
    assert!(!exists(&missing));
}

#[test]
fn stale_names_the_file_and_the_hint_reads_that_very_file() {
    let env = TestEnv::new();
    let file = at(&env, BAD);
    fs::write(&file, "one\n").unwrap();
    text(&env, &["read"], &[os(BAD)]).ok();
    fs::write(&file, "changed behind quill\n").unwrap();

    // Without a kept read (today's bare answer, which shows no change), the text names the
    // file too.
    let text_err = text(
        &env,
        &["--no-keep-reads", "edit", "--old", "one", "--new", "two"],
        &[os(BAD)],
    );
    text_err.exit(3);
    text_err.stderr_has("changed since session");

    let out = json(&env, &["edit", "--old", "one", "--new", "two"], &[os(BAD)]);
    out.err("stale", 3);
    let e = &out.json["error"];
    assert_lossless(e);
    assert_named(e, "path", &file);
    assert_bytes(
        "the file",
        &fs::read(&file).unwrap(),
        b"changed behind quill\n",
    );

    // The hint's command, pasted into a shell, reads the file of that name.
    let hint = out.failure().error.hint.unwrap_or_default();
    let cmd = hint
        .split('`')
        .nth(1)
        .unwrap_or_else(|| fail(&format!("no command in the hint {hint:?}")));
    assert!(cmd.starts_with("quill read $'"), "{cmd}");
    let script = format!("quill() {{ \"$QUILL\" --json \"$@\"; }}; {cmd}");
    let out = env
        .program("bash")
        .args(["-c", &script])
        .env("QUILL", crate::util::BIN)
        .run();
    out.exit(0);
    assert_named(&out.json, "path", &file);
    json(
        &env,
        &["edit", "--old", "behind", "--new", "before"],
        &[os(BAD)],
    )
    .ok();
    assert_bytes(
        "the file",
        &fs::read(&file).unwrap(),
        b"changed before quill\n",
    );
}

#[test]
fn a_directory_named_so_is_refused_by_name() {
    let env = TestEnv::new();
    let dir = at(&env, b"dir\xff");
    fs::create_dir(&dir).unwrap();

    // read lists it, with its bytes; a change to it is refused by name.
    let out = json(&env, &["read"], &[dir.as_os_str()]);
    out.ok();
    assert_named(&out.json, "path", &dir);
    let out = json(&env, &["write", "--content", "x"], &[dir.as_os_str()]);
    out.exit(3);
    assert_named(&out.json["error"], "path", &dir);
    assert!(dir.is_dir());
}
