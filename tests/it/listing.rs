//! `quill read DIR` through the real binary: the directory is listed two levels deep,
//! directories first, with sizes; hidden and ignored entries are counted and the call that
//! shows them works; pages follow `--offset`/`--limit`/`--max-bytes`; nothing is recorded;
//! write and edit of a directory stay `is_directory`.

use std::ffi::OsStr;
use std::fs;
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::symlink;

use crate::util::*;

/// A small project: a git repository with ignored, hidden and nested entries.
fn project(env: &TestEnv) {
    env.write(".git/HEAD", "ref: refs/heads/main\n");
    env.write(".gitignore", "node_modules/\n*.log\n");
    env.write(".env", "");
    env.write("README.md", "# project\n");
    env.write("build.log", "");
    env.write("node_modules/pkg/index.js", "x");
    env.write("src/main.rs", "fn main() { run() }\n");
    env.write("src/cmd/read.rs", "x");
    env.write("src/.hidden", "");
    fs::create_dir(env.path("docs")).unwrap();
    symlink("src/main.rs", env.path("link")).unwrap();
}

fn paths(l: &Listing, env: &TestEnv) -> Vec<String> {
    let base = format!("{}/", env.dir.display());
    l.entries
        .iter()
        .map(|e| e.path.strip_prefix(&base).unwrap_or(&e.path).to_string())
        .collect()
}

#[test]
fn a_directory_is_listed_two_levels_deep_directories_first() {
    let env = TestEnv::new();
    project(&env);
    env.text(&["read", "."]).ok().assert_stdout(
        "docs/\nsrc/\nsrc/cmd/\nsrc/main.rs  20 B\nREADME.md  10 B\nlink -> src/main.rs\n\
         (left out: 5 hidden, 3 ignored; `quill read . --hidden --no-ignore` shows them)\n",
    );
    env.text(&["read", "src"]).ok().assert_stdout(
        "src/cmd/\nsrc/cmd/read.rs  1 B\nsrc/main.rs  20 B\n\
         (left out: 1 hidden; `quill read src --hidden` shows them)\n",
    );

    let out = env.json(&["read", "."]);
    let l = out.ok().listing();
    assert_eq!(l.kind, "directory");
    assert_eq!(l.path, env.dir.to_str().unwrap());
    assert_eq!(
        paths(&l, &env),
        ["docs", "src", "src/cmd", "src/main.rs", "README.md", "link"]
    );
    let main = &l.entries[3];
    assert_eq!(
        (main.kind.as_str(), main.size, main.depth),
        ("file", Some(20), 2)
    );
    assert_eq!(
        (l.entries[0].kind.as_str(), l.entries[0].size),
        ("dir", None)
    );
    assert_eq!(l.entries[5].kind, "symlink");
    assert_eq!(l.entries[5].target.as_deref(), Some("src/main.rs"));
    assert_eq!((l.start_entry, l.end_entry, l.total_entries), (1, 6, 6));
    assert_eq!((l.hidden_left_out, l.ignored_left_out), (Some(5), Some(3)));
    assert_eq!(
        (l.next_offset, l.depth, l.walk_incomplete),
        (None, 2, false)
    );
    // Nothing of a file was shown: no fileAccess, no hash, no baseline.
    assert!(l.file_access.is_none() && l.sha256.is_none());
    assert!(out.json.get("fileAccess").is_none());
    assert_eq!(
        env.json(&["state"]).ok().state().paths(),
        Vec::<String>::new()
    );
}

#[test]
fn the_call_that_shows_what_was_left_out_shows_it() {
    let env = TestEnv::new();
    project(&env);
    let out = env.text(&["read", "."]);
    let call = suggested_call(out.ok().stdout.lines().last().unwrap());
    assert_eq!(call, "quill read . --hidden --no-ignore");
    let l = env.shell(&format!("{call} --json")).ok().listing();
    assert_eq!(
        paths(&l, &env),
        [
            ".git",
            ".git/HEAD",
            "docs",
            "node_modules",
            "node_modules/pkg",
            "src",
            "src/cmd",
            "src/.hidden",
            "src/main.rs",
            ".env",
            ".gitignore",
            "README.md",
            "build.log",
            "link"
        ]
    );
    assert_eq!((l.hidden_left_out, l.ignored_left_out), (Some(0), Some(0)));
    // Only hidden ones asked for: the ignored ones (and .git) are still counted.
    let l = env.json(&["read", ".", "--hidden"]).ok().listing();
    assert_eq!((l.hidden_left_out, l.ignored_left_out), (Some(0), Some(5)));
    env.shell(&call).ok().check(
        !env.shell(&call).stdout.contains("left out"),
        "nothing left out",
    );
}

#[test]
fn a_listing_is_paged_like_lines() {
    let env = TestEnv::new();
    project(&env);
    env.text(&["read", ".", "--limit", "2"]).ok().assert_stdout(
        "docs/\nsrc/\n(entries 1-2 of 6; next: --offset 3)\n\
         (left out: 5 hidden, 3 ignored; `quill read . --hidden --no-ignore` shows them)\n",
    );
    let l = env
        .json(&["read", ".", "--limit", "2", "--offset", "3"])
        .ok()
        .listing();
    assert_eq!(paths(&l, &env), ["src/cmd", "src/main.rs"]);
    assert_eq!((l.start_entry, l.end_entry, l.next_offset), (3, 4, Some(5)));
    // The byte budget ends a page before the entry that would pass it (one is always shown).
    let l = env.json(&["read", ".", "--max-bytes", "12"]).ok().listing();
    assert_eq!(paths(&l, &env), ["docs", "src"]);
    assert_eq!(l.next_offset, Some(3));
    let l = env.json(&["read", ".", "--max-bytes", "1"]).ok().listing();
    assert_eq!(paths(&l, &env), ["docs"]);
    let e = env
        .json(&["read", ".", "--offset", "7"])
        .err("offset_past_end", 1)
        .failure()
        .error;
    assert_eq!(e.field("totalLines"), 6);
}

#[test]
fn an_empty_directory_says_so() {
    let env = TestEnv::new();
    fs::create_dir(env.path("empty")).unwrap();
    env.text(&["read", "empty"])
        .ok()
        .assert_stdout("(empty directory)\n");
    let l = env.json(&["read", "empty"]).ok().listing();
    assert_eq!((l.total_entries, l.start_entry, l.end_entry), (0, 1, 0));
    assert!(l.entries.is_empty());
}

#[test]
fn write_and_edit_of_a_directory_stay_is_directory() {
    let env = TestEnv::new();
    project(&env);
    env.json(&["read", "src"]).ok();
    let e = env
        .json(&["write", "src", "--content", "x"])
        .err("is_directory", 3)
        .failure()
        .error;
    let call = suggested_call(e.hint.as_deref().unwrap());
    assert_eq!(call, format!("quill read {}", env.path("src").display()));
    assert_eq!(env.shell(&call).ok().stdout.lines().count(), 4);
    env.json(&["edit", "src", "--old", "a", "--new", "b"])
        .err("is_directory", 3);
    assert!(env.path("src").is_dir());
    assert_eq!(env.read("src/main.rs"), b"fn main() { run() }\n");
}

/// Links are listed as links and never entered, so under `--root` a link out of the root shows
/// only its name; names that are not UTF-8 keep their bytes.
#[test]
fn links_are_not_followed_and_names_keep_their_bytes() {
    let env = TestEnv::new();
    env.write("ws/a.txt", "a");
    env.write("outside/secret.txt", "s");
    symlink("../outside", env.path("ws/out")).unwrap();
    let odd = env.path("ws").join(OsStr::from_bytes(b"caf\xe9.txt"));
    fs::write(&odd, "x").unwrap();
    let root = env.path("ws");
    let l = env
        .json(&["--root", root.to_str().unwrap(), "read", "ws"])
        .ok()
        .listing();
    assert_eq!(l.entries.len(), 3, "{:?}", l.entries);
    let names: Vec<&str> = l.entries.iter().map(|e| e.path.as_str()).collect();
    assert!(!names.iter().any(|n| n.contains("secret")), "{names:?}");
    let out_link = l.entries.iter().find(|e| e.kind == "symlink").unwrap();
    assert_eq!(out_link.target.as_deref(), Some("../outside"));
    let odd_entry = l
        .entries
        .iter()
        .find(|e| e.path_bytes.is_some())
        .expect("an entry with pathBytes");
    assert_eq!(
        odd_entry.path,
        format!("{}/caf\u{FFFD}.txt", root.display())
    );
    use base64::Engine;
    let bytes = base64::engine::general_purpose::STANDARD
        .decode(odd_entry.path_bytes.as_ref().unwrap())
        .unwrap();
    assert_eq!(bytes, odd.as_os_str().as_bytes());
    env.text(&["read", "ws"])
        .ok()
        .stdout_has("ws/caf\u{FFFD}.txt  1 B\n")
        .stdout_has("ws/out -> ../outside\n");
}
