//! `quill glob` and `quill grep` through the real binary (SPEC §3.5, §3.6): a fixture tree
//! with a `.git`, ignore files, hidden directories, a binary file, quill temp files and set
//! modification times; an unreadable directory under `setpriv` (the tests run as root); and
//! agreement with ripgrep on a real tree. No timing here: speed lives in `bench/search.sh`.

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, SystemTime};

use serde_json::Value;

use crate::util::{BIN, TestEnv};

struct Env {
    _env: TestEnv,
    /// The fixture tree (a git work tree).
    work: PathBuf,
    state: PathBuf,
}

struct Out {
    code: i32,
    stdout: String,
    stderr: String,
}

impl Out {
    fn json(&self) -> Value {
        serde_json::from_str(&self.stdout).unwrap_or_else(|e| {
            panic!(
                "stdout is not one JSON object ({e}):\n{}\nstderr:\n{}",
                self.stdout, self.stderr
            )
        })
    }
}

impl Env {
    /// An empty work directory.
    fn empty() -> Env {
        let env = TestEnv::new();
        Env {
            state: env.state.clone(),
            work: env.dir.clone(),
            _env: env,
        }
    }

    /// The fixture tree.
    fn fixture() -> Env {
        let env = Env::empty();
        let files: &[(&str, &[u8])] = &[
            (".git/HEAD", b"ref: refs/heads/main\n"),
            (".git/info/exclude", b"excluded.txt\n"),
            (".gitignore", b"ignored.txt\nbuild/\n"),
            (".ignore", b"skipme.md\n"),
            ("top.rs", b"fn top() { needle(); }\n"),
            ("src/main.rs", b"fn main() {\n    let x = 1;\n    needle(x);\n}\n"),
            (
                "src/lib.rs",
                b"// Needle in a comment\npub fn needle() {}\nline three\nline four\nneedle again\n",
            ),
            ("src/util/mod.rs", b"pub mod deep; // needle_deep\n"),
            ("docs/readme.md", b"# Readme\nFind the needle here.\n"),
            ("docs/guide.txt", b"a guide without it\n"),
            ("ignored.txt", b"needle ignored\n"),
            ("excluded.txt", b"needle excluded\n"),
            ("skipme.md", b"needle skipped\n"),
            ("build/out.rs", b"needle in build\n"),
            (".hidden/secret.rs", b"needle hidden\n"),
            ("src/.a.rs.quill-x7Yz.tmp", b"needle temp\n"),
            ("data.bin", b"needle\0binary\0"),
        ];
        for (name, content) in files {
            env.write(name, content);
        }
        // Modification times: lib.rs newest, then main.rs, the rest equal and older.
        let base = SystemTime::UNIX_EPOCH + Duration::from_secs(1_600_000_000);
        for (name, _) in files {
            env.set_mtime(name, base);
        }
        env.set_mtime("src/main.rs", base + Duration::from_secs(100));
        env.set_mtime("src/lib.rs", base + Duration::from_secs(200));
        env
    }

    fn write(&self, name: &str, content: &[u8]) {
        let p = self.work.join(name);
        fs::create_dir_all(p.parent().expect("parent")).expect("mkdir");
        fs::write(&p, content).expect("write fixture");
    }

    fn set_mtime(&self, name: &str, t: SystemTime) {
        let f = fs::File::options()
            .write(true)
            .open(self.work.join(name))
            .expect("open for set_modified");
        f.set_modified(t).expect("set_modified");
    }

    fn run_in(&self, cwd: &Path, args: &[&str]) -> Out {
        self.run_cmd(Command::new(BIN), cwd, args)
    }

    fn run_cmd(&self, mut cmd: Command, cwd: &Path, args: &[&str]) -> Out {
        let out = cmd
            .env_clear()
            .env("PATH", std::env::var_os("PATH").unwrap_or_default())
            .current_dir(cwd)
            .arg("--state-dir")
            .arg(&self.state)
            .args(args)
            .output()
            .expect("run quill");
        Out {
            code: out.status.code().unwrap_or(-1),
            stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        }
    }

    fn run(&self, args: &[&str]) -> Out {
        self.run_in(&self.work, args)
    }

    /// `--json` run; asserts the exit code.
    fn json(&self, args: &[&str], code: i32) -> Value {
        let mut all = vec!["--json"];
        all.extend_from_slice(args);
        let out = self.run(&all);
        assert_eq!(
            out.code, code,
            "quill {all:?}\nstdout: {}\nstderr: {}",
            out.stdout, out.stderr
        );
        out.json()
    }

    /// Paths of a glob result relative to the work tree.
    fn rel(&self, v: &Value, key: &str) -> Vec<String> {
        v[key]
            .as_array()
            .unwrap_or_else(|| panic!("no {key} in {v}"))
            .iter()
            .map(|p| {
                let p = p.as_str().expect("path string");
                assert!(p.starts_with('/'), "JSON paths are absolute: {p}");
                Path::new(p)
                    .strip_prefix(&self.work)
                    .expect("below work")
                    .display()
                    .to_string()
            })
            .collect()
    }
}

fn sorted(mut v: Vec<String>) -> Vec<String> {
    v.sort();
    v
}

fn strs(v: &[&str]) -> Vec<String> {
    v.iter().map(|s| s.to_string()).collect()
}

/// Run as `nobody` through setpriv, or say why not.
fn setpriv() -> Option<Command> {
    let ok = Command::new("setpriv")
        .args([
            "--reuid=65534",
            "--regid=65534",
            "--clear-groups",
            BIN,
            "--version",
        ])
        .output()
        .is_ok_and(|o| o.status.success());
    if !ok {
        eprintln!("skipped: setpriv missing or the quill binary is not reachable as uid 65534");
        return None;
    }
    let mut c = Command::new("setpriv");
    c.args(["--reuid=65534", "--regid=65534", "--clear-groups", BIN]);
    Some(c)
}

/// Make the temp tree traversable by `nobody`.
fn open_up(env: &Env) {
    use std::os::unix::fs::PermissionsExt;
    let mut p = env.work.clone();
    while p.pop() && p != Path::new("/") && p != Path::new("/tmp") {
        let _ = fs::set_permissions(&p, fs::Permissions::from_mode(0o755));
    }
}

// ---------------------------------------------------------------------------------------
// glob

#[test]
fn glob_star_stays_in_one_directory_and_doublestar_crosses() {
    let env = Env::fixture();
    let v = env.json(&["glob", "*.rs", "--sort", "path"], 0);
    assert_eq!(env.rel(&v, "files"), strs(&["top.rs"]));
    let v = env.json(&["glob", "src/*.rs", "--sort", "path"], 0);
    assert_eq!(env.rel(&v, "files"), strs(&["src/lib.rs", "src/main.rs"]));
    let v = env.json(&["glob", "**/*.rs", "--sort", "path"], 0);
    assert_eq!(
        env.rel(&v, "files"),
        strs(&["src/lib.rs", "src/main.rs", "src/util/mod.rs", "top.rs"])
    );
    let v = env.json(&["glob", "s?c/*/mod.rs"], 0);
    assert_eq!(env.rel(&v, "files"), strs(&["src/util/mod.rs"]));
    let v = env.json(&["glob", "**/*.{md,txt}", "--sort", "path"], 0);
    assert_eq!(
        env.rel(&v, "files"),
        strs(&["docs/guide.txt", "docs/readme.md"])
    );
    let v = env.json(&["glob", "src/[l]*.rs"], 0);
    assert_eq!(env.rel(&v, "files"), strs(&["src/lib.rs"]));
    env.json(&["glob", "**/README.MD"], 1);
    let v = env.json(&["glob", "**/README.MD", "--ignore-case"], 0);
    assert_eq!(env.rel(&v, "files"), strs(&["docs/readme.md"]));
    // Relative to PATH, not to the current directory.
    let v = env.json(&["glob", "*.rs", "src", "--sort", "path"], 0);
    assert_eq!(env.rel(&v, "files"), strs(&["src/lib.rs", "src/main.rs"]));
}

#[test]
fn glob_nothing_found_is_exit_1_with_an_empty_list() {
    let env = Env::fixture();
    let v = env.json(&["glob", "**/*.zig"], 1);
    assert_eq!(v["ok"], true);
    assert_eq!(v["total"], 0);
    assert_eq!(v["files"], serde_json::json!([]));
}

#[test]
fn glob_honors_ignore_files_hidden_and_skips_quill_temp_files() {
    let env = Env::fixture();
    let all = |extra: &[&str]| {
        let mut args = vec!["glob", "**/*", "--sort", "path", "--limit", "0"];
        args.extend_from_slice(extra);
        sorted(env.rel(&env.json(&args, 0), "files"))
    };
    let plain = all(&[]);
    assert_eq!(
        plain,
        strs(&[
            "data.bin",
            "docs/guide.txt",
            "docs/readme.md",
            "src/lib.rs",
            "src/main.rs",
            "src/util/mod.rs",
            "top.rs"
        ])
    );
    let hidden = all(&["--hidden"]);
    for f in [".hidden/secret.rs", ".gitignore", ".ignore"] {
        assert!(
            hidden.contains(&f.to_string()),
            "{f} with --hidden: {hidden:?}"
        );
    }
    assert!(!hidden.iter().any(|f| f.starts_with(".git/")), "{hidden:?}");
    assert!(!hidden.iter().any(|f| f.contains("quill-")), "{hidden:?}");
    let no_ignore = all(&["--no-ignore"]);
    for f in ["ignored.txt", "excluded.txt", "skipme.md", "build/out.rs"] {
        assert!(no_ignore.contains(&f.to_string()), "{f} with --no-ignore");
    }
    assert!(!no_ignore.iter().any(|f| f.starts_with('.')));
    let everything = all(&["--no-ignore", "--hidden"]);
    assert!(everything.contains(&".git/HEAD".to_string()));
    assert!(!everything.iter().any(|f| f.contains("quill-")));
}

#[test]
fn glob_gitignore_counts_only_inside_a_git_repository() {
    let env = Env::fixture();
    fs::remove_dir_all(env.work.join(".git")).expect("rm .git");
    let v = env.json(&["glob", "**/*.txt", "--limit", "0"], 0);
    let files = sorted(env.rel(&v, "files"));
    // Like rg: .gitignore and .git/info/exclude need a repository; .ignore does not.
    assert!(files.contains(&"ignored.txt".to_string()), "{files:?}");
    let v = env.json(&["glob", "*.md", "--limit", "0"], 1);
    assert_eq!(v["total"], 0, "skipme.md stays ignored by .ignore");
}

#[test]
fn glob_sorts_newest_first_with_ties_by_path() {
    let env = Env::fixture();
    let v = env.json(&["glob", "**/*.rs"], 0);
    assert_eq!(
        env.rel(&v, "files"),
        strs(&["src/lib.rs", "src/main.rs", "src/util/mod.rs", "top.rs"])
    );
    let v = env.json(&["glob", "**/*", "--sort", "path", "--limit", "3"], 0);
    assert_eq!(
        env.rel(&v, "files"),
        strs(&["data.bin", "docs/guide.txt", "docs/readme.md"])
    );
    let v = env.json(&["glob", "**/*", "--sort", "none", "--limit", "0"], 0);
    assert_eq!(v["total"], 7);
}

#[test]
fn glob_pages_are_stable_and_say_what_is_left() {
    let env = Env::fixture();
    let all = env.json(&["glob", "**/*", "--limit", "0"], 0);
    let all = env.rel(&all, "files");
    let p1 = env.json(&["glob", "**/*", "--limit", "3"], 0);
    assert_eq!(p1["total"], 7);
    assert_eq!(p1["truncated"], true);
    assert_eq!(p1["nextOffset"], 3);
    let p2 = env.json(&["glob", "**/*", "--limit", "3", "--offset", "3"], 0);
    assert_eq!(p2["nextOffset"], 6);
    let p3 = env.json(&["glob", "**/*", "--limit", "3", "--offset", "6"], 0);
    assert_eq!(p3["truncated"], false);
    assert_eq!(p3["nextOffset"], Value::Null);
    let mut joined = env.rel(&p1, "files");
    joined.extend(env.rel(&p2, "files"));
    joined.extend(env.rel(&p3, "files"));
    assert_eq!(joined, all);
    // Past the end: an empty page, still the true total.
    let past = env.json(&["glob", "**/*", "--offset", "50"], 0);
    assert_eq!(past["files"], serde_json::json!([]));
    assert_eq!(past["total"], 7);
}

#[test]
fn glob_text_is_relative_nul_separated_with_a_truncation_note() {
    let env = Env::fixture();
    let out = env.run(&["glob", "**/*.rs", "--limit", "2"]);
    assert_eq!(out.code, 0);
    assert_eq!(out.stdout, "src/lib.rs\nsrc/main.rs\n");
    assert!(
        out.stderr.contains("1-2 of 4") && out.stderr.contains("--offset 2"),
        "{}",
        out.stderr
    );
    let out = env.run(&["glob", "**/*.rs", "-0", "--sort", "path"]);
    assert_eq!(
        out.stdout,
        "src/lib.rs\0src/main.rs\0src/util/mod.rs\0top.rs\0"
    );
    assert_eq!(out.stderr, "", "no note when everything was shown");
    // From a subdirectory: relative to the current directory below it, else absolute.
    let out = env.run_in(
        &env.work.join("src"),
        &["glob", "**/*.rs", "..", "--sort", "path"],
    );
    let top = env.work.join("top.rs");
    assert_eq!(
        out.stdout,
        format!("lib.rs\nmain.rs\nutil/mod.rs\n{}\n", top.display())
    );
    // Below cwd only: outside it, absolute.
    let out = env.run_in(
        &env.work.join("docs"),
        &["glob", "*.rs", "../src", "--sort", "path"],
    );
    let lib = env.work.join("src/lib.rs");
    assert!(
        out.stdout.starts_with(&format!("{}\n", lib.display())),
        "{}",
        out.stdout
    );
}

#[test]
fn glob_does_not_follow_links_unless_asked() {
    let env = Env::fixture();
    std::os::unix::fs::symlink(env.work.join("src"), env.work.join("linked")).expect("symlink");
    let v = env.json(&["glob", "linked/*.rs"], 1);
    assert_eq!(v["total"], 0);
    let v = env.json(&["glob", "linked/*.rs", "--follow", "--sort", "path"], 0);
    assert_eq!(
        env.rel(&v, "files"),
        strs(&["linked/lib.rs", "linked/main.rs"])
    );
}

#[test]
fn glob_max_walk_marks_the_walk_incomplete() {
    let env = Env::fixture();
    let v = env.json(&["glob", "**/*", "--max-walk", "3", "--limit", "0"], 0);
    assert_eq!(v["walkIncomplete"], true);
    assert!(v["total"].as_u64().expect("total") < 7);
    assert!(!v["warnings"].as_array().expect("warnings").is_empty());
    let v = env.json(&["glob", "**/*", "--limit", "0"], 0);
    assert_eq!(v["walkIncomplete"], false);
}

#[test]
fn glob_errors_path_missing_not_a_directory_bad_pattern_outside_root() {
    let env = Env::fixture();
    let v = env.json(&["glob", "*", "nope"], 4);
    assert_eq!(v["error"]["kind"], "not_found");
    let v = env.json(&["glob", "*", "top.rs"], 2);
    assert_eq!(v["error"]["kind"], "invalid_argument");
    let v = env.json(&["glob", "src/[a-"], 2);
    assert_eq!(v["error"]["kind"], "invalid_pattern");
    let v = env.json(&["--root", "src", "glob", "*", ".."], 3);
    assert_eq!(v["error"]["kind"], "outside_root");
    let v = env.json(
        &["--root", "src", "glob", "*.rs", "src", "--sort", "path"],
        0,
    );
    assert_eq!(v["total"], 2);
    // A link inside the root that leads out of it is not entered, even with --follow.
    std::os::unix::fs::symlink(env.work.join("docs"), env.work.join("src/out")).expect("link");
    let v = env.json(
        &[
            "--root", "src", "glob", "**/*", "src", "--follow", "--limit", "0",
        ],
        0,
    );
    assert!(!v.to_string().contains("readme"), "{v}");
}

#[test]
fn glob_lists_unreadable_directories_and_refuses_an_unreadable_path() {
    use std::os::unix::fs::PermissionsExt;
    let env = Env::fixture();
    env.write("locked/inner.rs", b"fn x() {}\n");
    open_up(&env);
    fs::set_permissions(env.work.join("locked"), fs::Permissions::from_mode(0o000)).expect("chmod");
    let Some(cmd) = setpriv() else { return };
    let out = env.run_cmd(
        cmd,
        &env.work,
        &["--json", "glob", "**/*.rs", "--limit", "0"],
    );
    assert_eq!(out.code, 0, "{}{}", out.stdout, out.stderr);
    let v = out.json();
    assert_eq!(v["walkIncomplete"], true);
    let locked = env.work.join("locked").display().to_string();
    assert_eq!(v["unreadableDirectories"], serde_json::json!([locked]));
    assert_eq!(v["total"], 4);
    let Some(cmd) = setpriv() else { return };
    let out = env.run_cmd(cmd, &env.work, &["--json", "glob", "*", "locked"]);
    assert_eq!(out.code, 4, "{}", out.stdout);
    assert_eq!(out.json()["error"]["kind"], "permission_denied");
    let Some(cmd) = setpriv() else { return };
    let out = env.run_cmd(cmd, &env.work, &["--json", "grep", "fn", "--limit", "0"]);
    let v = out.json();
    assert_eq!(v["walkIncomplete"], true);
    assert_eq!(v["unreadableDirectories"], serde_json::json!([locked]));
    fs::set_permissions(env.work.join("locked"), fs::Permissions::from_mode(0o755)).expect("chmod");
}

// ---------------------------------------------------------------------------------------
// grep

/// `(relative path, line)` of a grep result.
fn hits(env: &Env, v: &Value) -> Vec<(String, u64)> {
    v["matches"]
        .as_array()
        .unwrap_or_else(|| panic!("no matches in {v}"))
        .iter()
        .map(|m| {
            let p = Path::new(m["path"].as_str().expect("path"));
            let rel = p
                .strip_prefix(&env.work)
                .expect("below work")
                .display()
                .to_string();
            (rel, m["line"].as_u64().expect("line"))
        })
        .collect()
}

fn pairs(v: &[(&str, u64)]) -> Vec<(String, u64)> {
    v.iter().map(|(p, l)| (p.to_string(), *l)).collect()
}

#[test]
fn grep_content_is_sorted_by_path_then_line_with_column_and_text() {
    let env = Env::fixture();
    let v = env.json(&["grep", "needle", "--limit", "0"], 0);
    assert_eq!(
        hits(&env, &v),
        pairs(&[
            ("docs/readme.md", 2),
            ("src/lib.rs", 2),
            ("src/lib.rs", 5),
            ("src/main.rs", 3),
            ("src/util/mod.rs", 1),
            ("top.rs", 1),
        ])
    );
    assert_eq!(v["total"], 6);
    assert_eq!(v["mode"], "content");
    let m = &v["matches"][3];
    assert_eq!(m["column"], 5);
    assert_eq!(m["text"], "    needle(x);");
    assert_eq!(m["before"], serde_json::json!([]));
    assert_eq!(v["filesSearched"], 7);
    assert_eq!(v["skippedBinary"], 1, "data.bin");
    assert_eq!(v["walkIncomplete"], false);
    let v = env.json(&["grep", "zebra"], 1);
    assert_eq!(v["ok"], true);
    assert_eq!(v["total"], 0);
}

#[test]
fn grep_honors_ignore_files_hidden_and_searches_explicit_files() {
    let env = Env::fixture();
    let files = |args: &[&str]| {
        let mut all = vec!["grep", "needle", "--mode", "files", "--limit", "0"];
        all.extend_from_slice(args);
        sorted(env.rel(&env.json(&all, 0), "files"))
    };
    let plain = files(&[]);
    assert_eq!(plain.len(), 5, "{plain:?}");
    let hidden = files(&["--hidden"]);
    assert!(hidden.contains(&".hidden/secret.rs".to_string()));
    assert!(!hidden.iter().any(|f| f.contains("quill-")), "{hidden:?}");
    let no_ignore = files(&["--no-ignore"]);
    for f in ["ignored.txt", "excluded.txt", "skipme.md", "build/out.rs"] {
        assert!(no_ignore.contains(&f.to_string()), "{f}: {no_ignore:?}");
    }
    // An ignored file named on the command line is searched, like rg.
    assert_eq!(files(&["ignored.txt"]), strs(&["ignored.txt"]));
}

#[test]
fn grep_skips_binary_files_and_counts_them() {
    let env = Env::fixture();
    let v = env.json(&["grep", "binary", "--limit", "0"], 1);
    assert_eq!(v["skippedBinary"], 1);
    assert_eq!(v["total"], 0);
}

#[test]
fn grep_cuts_long_lines_with_a_marker() {
    let env = Env::empty();
    let long = format!("{}needle{}\n", "x".repeat(20), "y".repeat(1000));
    env.write("long.txt", long.as_bytes());
    let v = env.json(&["grep", "needle", "--max-columns", "30"], 0);
    let text = v["matches"][0]["text"].as_str().expect("text");
    assert!(
        text.starts_with(&format!("{}needle", "x".repeat(20))),
        "{text}"
    );
    assert!(text.ends_with("[…996 more bytes]"), "{text}");
    assert_eq!(v["matches"][0]["column"], 21);
    let v = env.json(&["grep", "needle", "--max-columns", "0"], 0);
    assert_eq!(v["matches"][0]["text"].as_str().map(str::len), Some(1026));
    let v = env.json(&["grep", "needle"], 0);
    assert!(
        v["matches"][0]["text"].as_str().expect("t").len() < 600,
        "default 500 cap"
    );
}

#[test]
fn grep_context_lines_fill_before_and_after() {
    let env = Env::empty();
    let body: String = (1..=12)
        .map(|i| {
            format!(
                "l{i}{}\n",
                if i == 4 || i == 6 || i == 11 {
                    " hit"
                } else {
                    ""
                }
            )
        })
        .collect();
    env.write("c.txt", body.as_bytes());
    let v = env.json(&["grep", "hit", "-C", "1"], 0);
    let m = &v["matches"];
    assert_eq!(m[0]["line"], 4);
    assert_eq!(
        m[0]["before"],
        serde_json::json!([{"line": 3, "text": "l3"}])
    );
    assert_eq!(
        m[0]["after"],
        serde_json::json!([{"line": 5, "text": "l5"}])
    );
    assert_eq!(
        m[1]["before"],
        serde_json::json!([{"line": 5, "text": "l5"}])
    );
    assert_eq!(
        m[2]["after"],
        serde_json::json!([{"line": 12, "text": "l12"}])
    );
    let v = env.json(&["grep", "hit", "-A", "2", "-B", "0"], 0);
    assert_eq!(v["matches"][0]["before"], serde_json::json!([]));
    assert_eq!(v["matches"][0]["after"][1]["text"], "l6 hit");
    let out = env.run(&["grep", "hit", "-C", "1"]);
    assert_eq!(
        out.stdout,
        "c.txt-3-l3\nc.txt:4:l4 hit\nc.txt-5-l5\nc.txt:6:l6 hit\nc.txt-7-l7\n--\nc.txt-10-l10\nc.txt:11:l11 hit\nc.txt-12-l12\n"
    );
}

#[test]
fn grep_invalid_pattern_is_exit_2_naming_the_position() {
    let env = Env::fixture();
    let v = env.json(&["grep", "foo(bar"], 2);
    assert_eq!(v["error"]["kind"], "invalid_pattern");
    assert_eq!(v["error"]["position"], 4);
    assert!(
        v["error"]["message"]
            .as_str()
            .expect("msg")
            .contains("character 4")
    );
    let out = env.run(&["grep", "[z-a]"]);
    assert_eq!(out.code, 2);
    assert!(out.stderr.contains("invalid pattern"), "{}", out.stderr);
    // -F takes it literally.
    env.write("paren.txt", b"call foo(bar\n");
    let v = env.json(&["grep", "-F", "foo(bar", "--mode", "files"], 0);
    assert_eq!(env.rel(&v, "files"), strs(&["paren.txt"]));
}

#[test]
fn grep_types_and_globs_select_files() {
    let env = Env::fixture();
    let files = |args: &[&str]| {
        let mut all = vec!["grep", "needle", "--mode", "files", "--limit", "0"];
        all.extend_from_slice(args);
        let out = env.json(&all, 0);
        sorted(env.rel(&out, "files"))
    };
    assert_eq!(
        files(&["--type", "rust"]),
        strs(&["src/lib.rs", "src/main.rs", "src/util/mod.rs", "top.rs"])
    );
    assert_eq!(files(&["--type-not", "rust"]), strs(&["docs/readme.md"]));
    assert_eq!(files(&["-t", "markdown"]), strs(&["docs/readme.md"]));
    // Like rg, a --glob overrides the ignore files: skipme.md (in .ignore) is searched.
    assert_eq!(
        files(&["--glob", "*.md"]),
        strs(&["docs/readme.md", "skipme.md"])
    );
    assert_eq!(
        files(&["--glob", "!src/**", "--glob", "!*.md"]),
        strs(&["top.rs"])
    );
    assert_eq!(
        files(&["-g", "src/**", "-g", "!**/util/**"]),
        strs(&["src/lib.rs", "src/main.rs"])
    );
    let v = env.json(&["grep", "x", "--type", "nosuchtype"], 2);
    assert_eq!(v["error"]["kind"], "invalid_argument");
}

#[test]
fn grep_case_word_fixed_and_multiline_flags() {
    let env = Env::empty();
    env.write("f.txt", b"Needle\nneedle\nneedles\na.b\naxb\nstart\nend\n");
    let lines = |args: &[&str], code: i32| -> Vec<u64> {
        let mut all = vec!["grep"];
        all.extend_from_slice(args);
        let v = env.json(&all, code);
        hits(&env, &v).into_iter().map(|(_, l)| l).collect()
    };
    assert_eq!(lines(&["needle"], 0), vec![2, 3]);
    assert_eq!(lines(&["-i", "needle"], 0), vec![1, 2, 3]);
    assert_eq!(lines(&["-S", "needle"], 0), vec![1, 2, 3]);
    assert_eq!(lines(&["-S", "Needle"], 0), vec![1]);
    assert_eq!(lines(&["-w", "needle"], 0), vec![2]);
    assert_eq!(lines(&["-w", "-i", "needle"], 0), vec![1, 2]);
    assert_eq!(lines(&["a.b"], 0), vec![4, 5]);
    assert_eq!(lines(&["-F", "a.b"], 0), vec![4]);
    let v = env.json(&["grep", "start\\nend"], 2);
    assert_eq!(v["error"]["kind"], "invalid_pattern", "\\n needs -U");
    let v = env.json(&["grep", "-U", "start\\nend"], 0);
    assert_eq!(v["matches"][0]["line"], 6);
    assert_eq!(v["matches"][0]["endLine"], 7);
    assert_eq!(v["matches"][0]["text"], "start\nend");
    let out = env.run(&["grep", "-U", "start\\nend"]);
    assert_eq!(out.stdout, "f.txt:6:start\nf.txt:7:end\n");
}

#[test]
fn grep_type_list_prints_types() {
    let env = Env::empty();
    let out = env.run(&["grep", "--type-list"]);
    assert_eq!(out.code, 0);
    assert!(
        out.stdout.lines().any(|l| l == "rust: *.rs"),
        "{}",
        &out.stdout[..200]
    );
    let v = env.json(&["grep", "--type-list"], 0);
    let types = v["types"].as_array().expect("types");
    assert!(
        types
            .iter()
            .any(|t| t["name"] == "rust" && t["globs"] == serde_json::json!(["*.rs"]))
    );
}

#[test]
fn grep_count_and_files_modes() {
    let env = Env::fixture();
    let v = env.json(&["grep", "needle", "--mode", "count"], 0);
    let counts: Vec<(String, u64)> = v["counts"]
        .as_array()
        .expect("counts")
        .iter()
        .map(|c| {
            let p = Path::new(c["path"].as_str().expect("p"));
            (
                p.strip_prefix(&env.work)
                    .expect("rel")
                    .display()
                    .to_string(),
                c["count"].as_u64().expect("n"),
            )
        })
        .collect();
    assert_eq!(counts[1], ("src/lib.rs".to_string(), 2));
    assert_eq!(v["total"], 5, "count mode totals files");
    assert!(v.get("matches").is_none());
    let out = env.run(&["grep", "needle", "--mode", "count"]);
    assert!(out.stdout.contains("src/lib.rs:2\n"), "{}", out.stdout);
    let out = env.run(&["grep", "needle", "--mode", "files"]);
    assert_eq!(
        out.stdout,
        "docs/readme.md\nsrc/lib.rs\nsrc/main.rs\nsrc/util/mod.rs\ntop.rs\n"
    );
    let out = env.run(&["grep", "needle", "src", "--mode", "files", "-0"]);
    assert_eq!(out.stdout, "src/lib.rs\0src/main.rs\0src/util/mod.rs\0");
    let out = env.run(&["grep", "needle", "src/main.rs", "-0"]);
    assert_eq!(out.stdout, "src/main.rs\x003:    needle(x);\n");
}

#[test]
fn grep_pages_are_stable_and_bounded() {
    let env = Env::empty();
    for i in 0..30 {
        let body: String = (0..(i % 4 + 1))
            .map(|k| format!("x{k} needle\nother\n"))
            .collect();
        env.write(&format!("d{}/f{i:02}.txt", i % 3), body.as_bytes());
    }
    let all = env.json(&["grep", "needle", "--limit", "0"], 0);
    let all_hits = hits(&env, &all);
    let total = all["total"].as_u64().expect("total") as usize;
    assert_eq!(all_hits.len(), total);
    let mut sorted_hits = all_hits.clone();
    sorted_hits.sort_by(|a, b| Path::new(&a.0).cmp(Path::new(&b.0)).then(a.1.cmp(&b.1)));
    assert_eq!(all_hits, sorted_hits);
    let mut joined = Vec::new();
    let mut offset = 0;
    loop {
        let o = offset.to_string();
        let page = env.json(
            &["grep", "needle", "--limit", "7", "--offset", &o, "-C", "1"],
            0,
        );
        assert_eq!(page["total"].as_u64(), Some(total as u64));
        joined.extend(hits(&env, &page));
        match page["nextOffset"].as_u64() {
            Some(n) => {
                assert_eq!(page["truncated"], true);
                offset = n as usize;
            }
            None => break,
        }
    }
    assert_eq!(joined, all_hits);
    let out = env.run(&["grep", "needle", "--limit", "5"]);
    assert_eq!(out.stdout.lines().count(), 5);
    assert!(
        out.stderr.contains(&format!("1-5 of {total} matches")),
        "{}",
        out.stderr
    );
    // files mode pages too
    let p = env.json(
        &[
            "grep", "needle", "--mode", "files", "--limit", "4", "--offset", "28",
        ],
        0,
    );
    assert_eq!(p["files"].as_array().map(Vec::len), Some(2));
    assert_eq!(p["nextOffset"], Value::Null);
}

#[test]
fn grep_text_headings_and_colors() {
    let env = Env::fixture();
    let out = env.run(&["grep", "needle", "src", "--heading"]);
    assert_eq!(
        out.stdout,
        "src/lib.rs\n2:pub fn needle() {}\n5:needle again\n\nsrc/main.rs\n3:    needle(x);\n\nsrc/util/mod.rs\n1:pub mod deep; // needle_deep\n"
    );
    let out = env.run(&["grep", "needle", "src/main.rs", "-N"]);
    assert_eq!(out.stdout, "src/main.rs:    needle(x);\n");
    let out = env.run(&["--color", "always", "grep", "needle", "src/main.rs"]);
    assert!(
        out.stdout.contains("\x1b[1m\x1b[31mneedle\x1b[0m"),
        "{:?}",
        out.stdout
    );
}

#[test]
fn grep_paths_missing_outside_root_and_unreadable_files() {
    let env = Env::fixture();
    let v = env.json(&["grep", "needle", "nope"], 4);
    assert_eq!(v["error"]["kind"], "not_found");
    let v = env.json(&["grep", "needle", "nope", "top.rs"], 0);
    assert_eq!(v["total"], 1);
    assert!(v["warnings"][0].as_str().expect("warning").contains("nope"));
    let v = env.json(&["--root", "src", "grep", "needle", "top.rs"], 3);
    assert_eq!(v["error"]["kind"], "outside_root");
    let v = env.json(
        &["--root", "src", "grep", "needle", "src", "--mode", "files"],
        0,
    );
    assert_eq!(v["total"], 3);

    use std::os::unix::fs::PermissionsExt;
    open_up(&env);
    fs::set_permissions(
        env.work.join("src/lib.rs"),
        fs::Permissions::from_mode(0o000),
    )
    .expect("chmod");
    let Some(cmd) = setpriv() else { return };
    let out = env.run_cmd(
        cmd,
        &env.work,
        &["--json", "grep", "needle", "--mode", "files"],
    );
    let v = out.json();
    assert_eq!(out.code, 0);
    let lib = env.work.join("src/lib.rs").display().to_string();
    assert_eq!(v["unreadableFiles"], serde_json::json!([lib]));
    assert_eq!(v["walkIncomplete"], true);
}

// ---------------------------------------------------------------------------------------
// agreement with ripgrep

/// A real tree: the Rust docs' `std` (2,600 files, 120 MB) when installed, else a generated
/// one. Canonical, so rg's paths (as given) equal quill's (resolved).
fn real_tree(env: &Env) -> PathBuf {
    let docs = std::env::var_os("HOME")
        .map(PathBuf::from)
        .unwrap_or_default()
        .join(".rustup/toolchains");
    if let Ok(rd) = fs::read_dir(&docs) {
        for tc in rd.flatten() {
            let p = tc.path().join("share/doc/rust/html/std");
            if p.is_dir() {
                return fs::canonicalize(&p).expect("canonical docs");
            }
        }
    }
    eprintln!("Rust docs not found; generating a tree");
    let words = [
        "alpha", "needle", "HashMap", "fn main", "unsafe", "beta", "gamma",
    ];
    for i in 0..3000usize {
        let body: String = (0..(i % 40))
            .map(|k| {
                format!(
                    "{} {} {k}\n",
                    words[(i * 7 + k) % words.len()],
                    words[(i + k * 3) % words.len()]
                )
            })
            .collect();
        env.write(
            &format!("gen/d{}/e{}/f{i}.txt", i % 17, i % 5),
            body.as_bytes(),
        );
    }
    env.work.join("gen")
}

#[test]
fn grep_agrees_with_ripgrep_on_a_real_tree() {
    if Command::new("rg").arg("--version").output().is_err() {
        eprintln!("skipped: rg is not installed");
        return;
    }
    let env = Env::empty();
    let tree = real_tree(&env);
    let tree_s = tree.display().to_string();
    for pattern in ["HashMap", "(?i)unsafe", "^\\s*<a", "impl"] {
        let rg = Command::new("rg")
            .env_clear()
            .args([
                "-n",
                "--no-heading",
                "--with-filename",
                "--no-config",
                "-e",
                pattern,
                &tree_s,
            ])
            .output()
            .expect("rg");
        let mut want = BTreeSet::new();
        for line in String::from_utf8_lossy(&rg.stdout).lines() {
            let mut parts = line.splitn(3, ':');
            let (Some(p), Some(n)) = (parts.next(), parts.next()) else {
                continue;
            };
            want.insert((p.to_string(), n.parse::<u64>().expect("line number")));
        }
        let out = env.run(&[
            "--json",
            "grep",
            pattern,
            &tree_s,
            "--limit",
            "0",
            "--max-columns",
            "1",
        ]);
        let v = out.json();
        let got: BTreeSet<(String, u64)> = v["matches"]
            .as_array()
            .expect("matches")
            .iter()
            .map(|m| {
                (
                    m["path"].as_str().expect("p").to_string(),
                    m["line"].as_u64().expect("l"),
                )
            })
            .collect();
        assert_eq!(v["total"].as_u64(), Some(got.len() as u64));
        assert!(
            !want.is_empty(),
            "rg found nothing for {pattern}; pick another pattern"
        );
        assert_eq!(
            got.len(),
            want.len(),
            "pattern {pattern}: quill {} vs rg {}",
            got.len(),
            want.len()
        );
        assert!(
            got == want,
            "pattern {pattern}: sets differ: {:?}",
            got.symmetric_difference(&want).take(5).collect::<Vec<_>>()
        );
    }
}
