//! `quill glob` and `quill grep` through the real binary (docs/commands/glob.md; docs/commands/grep.md): a fixture tree
//! with a `.git`, ignore files, hidden directories, a binary file, quill temp files and set
//! modification times; an unreadable directory under `setpriv` (root only, ignored by default);
//! and agreement with ripgrep on a real tree (ignored by default: needs rg). No timing here:
//! speed lives in `bench/search.sh`.

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use crate::util::{ContextLine, Glob, Grep, Out, TestEnv, kinds, require, require_root};

/// The fixture tree in a fresh TestEnv's work dir (a git work tree).
fn fixture() -> TestEnv {
    let env = TestEnv::new();
    let files: &[(&str, &[u8])] = &[
        (".git/HEAD", b"ref: refs/heads/main\n"),
        (".git/info/exclude", b"excluded.txt\n"),
        (".gitignore", b"ignored.txt\nbuild/\n"),
        (".ignore", b"skipme.md\n"),
        ("top.rs", b"fn top() { needle(); }\n"),
        (
            "src/main.rs",
            b"fn main() {\n    let x = 1;\n    needle(x);\n}\n",
        ),
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

/// `quill --json glob args…`: exit 0, the typed answer.
#[track_caller]
fn glob(env: &TestEnv, args: &[&str]) -> Glob {
    let mut all = vec!["glob"];
    all.extend_from_slice(args);
    env.json(&all).ok().glob()
}

/// `quill --json glob args…`: nothing found (exit 1, `ok: true`).
#[track_caller]
fn glob_none(env: &TestEnv, args: &[&str]) -> Glob {
    let mut all = vec!["glob"];
    all.extend_from_slice(args);
    let g = env.json(&all).found_nothing().glob();
    assert_eq!((g.total, g.files.len()), (0, 0));
    g
}

/// `quill --json grep args…`: exit 0, the typed answer.
#[track_caller]
fn grep(env: &TestEnv, args: &[&str]) -> Grep {
    let mut all = vec!["grep"];
    all.extend_from_slice(args);
    env.json(&all).ok().grep()
}

/// `quill --json grep args…`: nothing found.
#[track_caller]
fn grep_none(env: &TestEnv, args: &[&str]) -> Grep {
    let mut all = vec!["grep"];
    all.extend_from_slice(args);
    let g = env.json(&all).found_nothing().grep();
    assert_eq!(g.total, 0);
    g
}

/// Absolute answer paths relative to the work dir.
#[track_caller]
fn rel(env: &TestEnv, paths: &[String]) -> Vec<String> {
    paths
        .iter()
        .map(|p| {
            assert!(p.starts_with('/'), "JSON paths are absolute: {p}");
            Path::new(p)
                .strip_prefix(&env.dir)
                .unwrap_or_else(|_| panic!("{p} is not below {}", env.dir.display()))
                .display()
                .to_string()
        })
        .collect()
}

fn sorted(mut v: Vec<String>) -> Vec<String> {
    v.sort();
    v
}

fn strs(v: &[&str]) -> Vec<String> {
    v.iter().map(|s| s.to_string()).collect()
}

/// Run `quill args…` as `nobody` through setpriv (the test runs as root; the tree is opened
/// up for nobody to walk).
#[track_caller]
fn as_nobody(env: &TestEnv, args: &[&str]) -> Out {
    env.cmd(args)
        .wrapped([
            "setpriv",
            "--reuid=65534",
            "--regid=65534",
            "--clear-groups",
        ])
        .run()
}

/// What the setpriv tests need, loudly.
#[track_caller]
fn require_nobody(env: &TestEnv) {
    require_root("to run quill as nobody");
    require("setpriv", "util-linux");
    env.open_up();
    env.cmd(["--version"])
        .wrapped([
            "setpriv",
            "--reuid=65534",
            "--regid=65534",
            "--clear-groups",
        ])
        .run()
        .ok()
        .stdout_has("quill");
}

// ---------------------------------------------------------------------------------------
// glob

#[test]
fn glob_star_stays_in_one_directory_and_doublestar_crosses() {
    let env = fixture();
    let files = |args: &[&str]| rel(&env, &glob(&env, args).files);
    assert_eq!(files(&["*.rs", "--sort", "path"]), strs(&["top.rs"]));
    assert_eq!(
        files(&["src/*.rs", "--sort", "path"]),
        strs(&["src/lib.rs", "src/main.rs"])
    );
    assert_eq!(
        files(&["**/*.rs", "--sort", "path"]),
        strs(&["src/lib.rs", "src/main.rs", "src/util/mod.rs", "top.rs"])
    );
    assert_eq!(files(&["s?c/*/mod.rs"]), strs(&["src/util/mod.rs"]));
    assert_eq!(
        files(&["**/*.{md,txt}", "--sort", "path"]),
        strs(&["docs/guide.txt", "docs/readme.md"])
    );
    assert_eq!(files(&["src/[l]*.rs"]), strs(&["src/lib.rs"]));
    glob_none(&env, &["**/README.MD"]);
    assert_eq!(
        files(&["**/README.MD", "--ignore-case"]),
        strs(&["docs/readme.md"])
    );
    // Relative to PATH, not to the current directory.
    assert_eq!(
        files(&["*.rs", "src", "--sort", "path"]),
        strs(&["src/lib.rs", "src/main.rs"])
    );
}

#[test]
fn glob_nothing_found_is_exit_1_with_an_empty_list() {
    let env = fixture();
    let g = glob_none(&env, &["**/*.zig"]);
    assert!(g.ok);
    assert!(!g.truncated);
    assert_eq!(g.next_offset, None);
}

#[test]
fn glob_honors_ignore_files_hidden_and_skips_quill_temp_files() {
    let env = fixture();
    let all = |extra: &[&str]| {
        let mut args = vec!["**/*", "--sort", "path", "--limit", "0"];
        args.extend_from_slice(extra);
        sorted(rel(&env, &glob(&env, &args).files))
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
    let env = fixture();
    fs::remove_dir_all(env.path(".git")).expect("rm .git");
    let files = sorted(rel(&env, &glob(&env, &["**/*.txt", "--limit", "0"]).files));
    // Like rg: .gitignore and .git/info/exclude need a repository; .ignore does not.
    assert!(files.contains(&"ignored.txt".to_string()), "{files:?}");
    assert!(files.contains(&"excluded.txt".to_string()), "{files:?}");
    // skipme.md stays ignored by .ignore.
    glob_none(&env, &["*.md", "--limit", "0"]);
}

#[test]
fn glob_sorts_newest_first_with_ties_by_path() {
    let env = fixture();
    assert_eq!(
        rel(&env, &glob(&env, &["**/*.rs"]).files),
        strs(&["src/lib.rs", "src/main.rs", "src/util/mod.rs", "top.rs"])
    );
    assert_eq!(
        rel(
            &env,
            &glob(&env, &["**/*", "--sort", "path", "--limit", "3"]).files
        ),
        strs(&["data.bin", "docs/guide.txt", "docs/readme.md"])
    );
    let g = glob(&env, &["**/*", "--sort", "none", "--limit", "0"]);
    assert_eq!((g.total, g.files.len()), (7, 7));
}

#[test]
fn glob_pages_are_stable_and_say_what_is_left() {
    let env = fixture();
    let all = rel(&env, &glob(&env, &["**/*", "--limit", "0"]).files);
    let p1 = glob(&env, &["**/*", "--limit", "3"]);
    assert_eq!(p1.total, 7);
    assert!(p1.truncated);
    assert_eq!(p1.next_offset, Some(3));
    let p2 = glob(&env, &["**/*", "--limit", "3", "--offset", "3"]);
    assert_eq!((p2.offset, p2.next_offset), (3, Some(6)));
    let p3 = glob(&env, &["**/*", "--limit", "3", "--offset", "6"]);
    assert!(!p3.truncated);
    assert_eq!(p3.next_offset, None);
    let mut joined = rel(&env, &p1.files);
    joined.extend(rel(&env, &p2.files));
    joined.extend(rel(&env, &p3.files));
    assert_eq!(joined, all);
    // Past the end: an empty page, still the true total.
    let past = glob(&env, &["**/*", "--offset", "50"]);
    assert_eq!(past.files, Vec::<String>::new());
    assert_eq!(past.total, 7);
}

#[test]
fn glob_text_is_relative_nul_separated_with_a_truncation_note() {
    let env = fixture();
    let out = env.text(&["glob", "**/*.rs", "--limit", "2"]);
    out.ok()
        .assert_stdout("src/lib.rs\nsrc/main.rs\n")
        .stderr_has("1-2 of 4")
        .stderr_has("--offset 2");
    env.text(&["glob", "**/*.rs", "-0", "--sort", "path"])
        .ok()
        .assert_stdout("src/lib.rs\0src/main.rs\0src/util/mod.rs\0top.rs\0")
        // no page note when everything was shown; what the filters hid is said
        .assert_stderr(
            "quill: 4 files; 2 more in ignored or hidden paths match (.hidden/secret.rs, \
             build/out.rs) — add --no-ignore --hidden: \
             `quill glob '**/*.rs' -0 --sort path --no-ignore --hidden`\n",
        );
    // A PATH argument: every file is shown below it as typed (as fd and rg do).
    env.cmd(["glob", "**/*.rs", "..", "--sort", "path"])
        .current_dir(env.path("src"))
        .run()
        .ok()
        .assert_stdout("../src/lib.rs\n../src/main.rs\n../src/util/mod.rs\n../top.rs\n");
    env.cmd(["glob", "*.rs", "../src", "--sort", "path"])
        .current_dir(env.path("docs"))
        .run()
        .ok()
        .assert_stdout("../src/lib.rs\n../src/main.rs\n");
}

#[test]
fn glob_does_not_follow_links_unless_asked() {
    let env = fixture();
    std::os::unix::fs::symlink(env.path("src"), env.path("linked")).expect("symlink");
    glob_none(&env, &["linked/*.rs"]);
    let g = glob(&env, &["linked/*.rs", "--follow", "--sort", "path"]);
    assert_eq!(
        rel(&env, &g.files),
        strs(&["linked/lib.rs", "linked/main.rs"])
    );
}

#[test]
fn glob_max_walk_marks_the_walk_incomplete() {
    let env = fixture();
    let g = glob(&env, &["**/*", "--max-walk", "3", "--limit", "0"]);
    assert!(g.walk_incomplete);
    assert!(g.total < 7, "{}", g.total);
    assert_eq!(kinds(&g.warnings), ["walk_limit"]);
    let g = glob(&env, &["**/*", "--limit", "0"]);
    assert!(!g.walk_incomplete);
    assert!(g.warnings.is_empty(), "{:?}", g.warnings);
}

#[test]
fn glob_errors_path_missing_not_a_directory_bad_pattern_outside_root() {
    let env = fixture();
    env.json(&["glob", "*", "nope"]).err("not_found", 4);
    env.json(&["glob", "*", "top.rs"])
        .err("invalid_argument", 2);
    env.json(&["glob", "src/[a-"]).err("invalid_pattern", 2);
    env.json(&["--root", "src", "glob", "*", ".."])
        .err("outside_root", 3);
    let g = glob(&env, &["--root", "src", "*.rs", "src", "--sort", "path"]);
    assert_eq!(rel(&env, &g.files), strs(&["src/lib.rs", "src/main.rs"]));
    // A link inside the root that leads out of it is not entered, even with --follow.
    std::os::unix::fs::symlink(env.path("docs"), env.path("src/out")).expect("link");
    let g = glob(
        &env,
        &["--root", "src", "**/*", "src", "--follow", "--limit", "0"],
    );
    assert_eq!(
        sorted(rel(&env, &g.files)),
        strs(&["src/lib.rs", "src/main.rs", "src/util/mod.rs"])
    );
}

#[test]
#[ignore = "needs root and setpriv (util-linux) to run as nobody"]
fn glob_lists_unreadable_directories_and_refuses_an_unreadable_path() {
    use std::os::unix::fs::PermissionsExt;
    let env = fixture();
    env.write("locked/inner.rs", b"fn x() {}\n");
    require_nobody(&env);
    fs::set_permissions(env.path("locked"), fs::Permissions::from_mode(0o000)).expect("chmod");
    let locked = env.path("locked").display().to_string();
    let out = as_nobody(&env, &["--json", "glob", "**/*.rs", "--limit", "0"]);
    let g = out.ok().glob();
    assert!(g.walk_incomplete);
    assert_eq!(g.unreadable_directories, std::slice::from_ref(&locked));
    assert_eq!(g.total, 4);
    as_nobody(&env, &["--json", "glob", "*", "locked"]).err("permission_denied", 4);
    let out = as_nobody(&env, &["--json", "grep", "fn", "--limit", "0"]);
    let g = out.ok().grep();
    assert!(g.walk_incomplete);
    assert_eq!(g.unreadable_directories, [locked]);
    fs::set_permissions(env.path("locked"), fs::Permissions::from_mode(0o755)).expect("chmod");
}

// ---------------------------------------------------------------------------------------
// grep

/// `(relative path, line)` of a grep result.
#[track_caller]
fn hits(env: &TestEnv, g: &Grep) -> Vec<(String, u64)> {
    g.matches()
        .iter()
        .map(|m| (rel(env, std::slice::from_ref(&m.path)).remove(0), m.line))
        .collect()
}

fn pairs(v: &[(&str, u64)]) -> Vec<(String, u64)> {
    v.iter().map(|(p, l)| (p.to_string(), *l)).collect()
}

fn ctx(line: u64, text: &str) -> ContextLine {
    ContextLine {
        line,
        text: text.to_string(),
    }
}

#[test]
fn grep_content_is_sorted_by_path_then_line_with_column_and_text() {
    let env = fixture();
    let g = grep(&env, &["needle", "--limit", "0"]);
    assert_eq!(
        hits(&env, &g),
        pairs(&[
            ("docs/readme.md", 2),
            ("src/lib.rs", 2),
            ("src/lib.rs", 5),
            ("src/main.rs", 3),
            ("src/util/mod.rs", 1),
            ("top.rs", 1),
        ])
    );
    assert_eq!(g.total, 6);
    assert_eq!(g.mode, "content");
    let m = &g.matches()[3];
    assert_eq!(m.column, 5);
    assert_eq!(m.text, "    needle(x);");
    assert_eq!(m.before, []);
    assert_eq!(g.files_searched, 7);
    assert_eq!(g.skipped_binary, 1, "data.bin");
    assert!(!g.walk_incomplete);
    let g = grep_none(&env, &["zebra"]);
    assert!(g.ok);
    assert!(g.matches().is_empty());
}

#[test]
fn grep_honors_ignore_files_hidden_and_searches_explicit_files() {
    let env = fixture();
    let files = |args: &[&str]| {
        let mut all = vec!["needle", "--mode", "files", "--limit", "0"];
        all.extend_from_slice(args);
        sorted(rel(&env, grep(&env, &all).files()))
    };
    let plain = files(&[]);
    assert_eq!(
        plain,
        strs(&[
            "docs/readme.md",
            "src/lib.rs",
            "src/main.rs",
            "src/util/mod.rs",
            "top.rs"
        ])
    );
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
    let env = fixture();
    let g = grep_none(&env, &["binary", "--limit", "0"]);
    assert_eq!(g.skipped_binary, 1);
}

#[test]
fn grep_cuts_long_lines_with_a_marker() {
    let env = TestEnv::new();
    let long = format!("{}needle{}\n", "x".repeat(20), "y".repeat(1000));
    env.write("long.txt", long.as_bytes());
    let g = grep(&env, &["needle", "--max-columns", "30"]);
    let m = &g.matches()[0];
    assert!(
        m.text.starts_with(&format!("{}needle", "x".repeat(20))),
        "{}",
        m.text
    );
    assert!(m.text.ends_with("[…996 more bytes]"), "{}", m.text);
    assert_eq!(m.column, 21);
    let g = grep(&env, &["needle", "--max-columns", "0"]);
    assert_eq!(g.matches()[0].text, long.trim_end());
    let g = grep(&env, &["needle"]);
    assert!(g.matches()[0].text.len() < 600, "default 500 cap");
}

#[test]
fn grep_context_lines_fill_before_and_after() {
    let env = TestEnv::new();
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
    let g = grep(&env, &["hit", "-C", "1"]);
    let m = g.matches();
    assert_eq!(m.len(), 3);
    assert_eq!(m[0].line, 4);
    assert_eq!(m[0].before, [ctx(3, "l3")]);
    assert_eq!(m[0].after, [ctx(5, "l5")]);
    assert_eq!(m[1].before, [ctx(5, "l5")]);
    assert_eq!(m[2].after, [ctx(12, "l12")]);
    let g = grep(&env, &["hit", "-A", "2", "-B", "0"]);
    assert_eq!(g.matches()[0].before, []);
    assert_eq!(g.matches()[0].after, [ctx(5, "l5"), ctx(6, "l6 hit")]);
    env.text(&["grep", "hit", "-C", "1"]).ok().assert_stdout(
        "c.txt-3-l3\nc.txt:4:l4 hit\nc.txt-5-l5\nc.txt:6:l6 hit\nc.txt-7-l7\n--\nc.txt-10-l10\nc.txt:11:l11 hit\nc.txt-12-l12\n",
    );
}

#[test]
fn grep_invalid_pattern_is_exit_2_naming_the_position() {
    let env = fixture();
    let e = env
        .json(&["grep", "foo(bar"])
        .err("invalid_pattern", 2)
        .failure()
        .error;
    assert_eq!(e.field("position"), 4);
    assert!(e.message.contains("character 4"), "{}", e.message);
    env.text(&["grep", "[z-a]"])
        .exit(2)
        .stderr_has("invalid pattern");
    // -F takes it literally.
    env.write("paren.txt", b"call foo(bar\n");
    let g = grep(&env, &["-F", "foo(bar", "--mode", "files"]);
    assert_eq!(rel(&env, g.files()), strs(&["paren.txt"]));
}

#[test]
fn grep_types_and_globs_select_files() {
    let env = fixture();
    let files = |args: &[&str]| {
        let mut all = vec!["needle", "--mode", "files", "--limit", "0"];
        all.extend_from_slice(args);
        sorted(rel(&env, grep(&env, &all).files()))
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
    env.json(&["grep", "x", "--type", "nosuchtype"])
        .err("invalid_argument", 2);
}

#[test]
fn grep_case_word_fixed_and_multiline_flags() {
    let env = TestEnv::new();
    env.write("f.txt", b"Needle\nneedle\nneedles\na.b\naxb\nstart\nend\n");
    let lines = |args: &[&str]| -> Vec<u64> {
        hits(&env, &grep(&env, args))
            .into_iter()
            .map(|(_, l)| l)
            .collect()
    };
    assert_eq!(lines(&["needle"]), vec![2, 3]);
    assert_eq!(lines(&["-i", "needle"]), vec![1, 2, 3]);
    assert_eq!(lines(&["-S", "needle"]), vec![1, 2, 3]);
    assert_eq!(lines(&["-S", "Needle"]), vec![1]);
    assert_eq!(lines(&["-w", "needle"]), vec![2]);
    assert_eq!(lines(&["-w", "-i", "needle"]), vec![1, 2]);
    assert_eq!(lines(&["a.b"]), vec![4, 5]);
    assert_eq!(lines(&["-F", "a.b"]), vec![4]);
    // \n needs -U.
    env.json(&["grep", "start\\nend"]).err("invalid_pattern", 2);
    let g = grep(&env, &["-U", "start\\nend"]);
    let m = &g.matches()[0];
    assert_eq!((m.line, m.end_line), (6, Some(7)));
    assert_eq!(m.text, "start\nend");
    env.text(&["grep", "-U", "start\\nend"])
        .ok()
        .assert_stdout("f.txt:6:start\nf.txt:7:end\n");
}

#[test]
fn grep_type_list_prints_types() {
    let env = TestEnv::new();
    let out = env.text(&["grep", "--type-list"]);
    out.ok()
        .check(out.stdout.lines().any(|l| l == "rust: *.rs"), "rust: *.rs");
    let t = env.json(&["grep", "--type-list"]).ok().type_list();
    assert_eq!(t.total as usize, t.types.len());
    assert!(
        t.types
            .iter()
            .any(|t| t.name == "rust" && t.globs == ["*.rs"])
    );
}

#[test]
fn grep_count_and_files_modes() {
    let env = fixture();
    let g = grep(&env, &["needle", "--mode", "count"]);
    let counts: Vec<(String, u64)> = g
        .counts
        .as_ref()
        .expect("counts")
        .iter()
        .map(|c| (rel(&env, std::slice::from_ref(&c.path)).remove(0), c.count))
        .collect();
    assert_eq!(
        counts,
        pairs(&[
            ("docs/readme.md", 1),
            ("src/lib.rs", 2),
            ("src/main.rs", 1),
            ("src/util/mod.rs", 1),
            ("top.rs", 1),
        ])
    );
    assert_eq!(g.total, 5, "count mode totals files");
    assert!(g.matches.is_none() && g.files.is_none());
    env.text(&["grep", "needle", "--mode", "count"])
        .ok()
        .stdout_has("src/lib.rs:2\n");
    env.text(&["grep", "needle", "--mode", "files"])
        .ok()
        .assert_stdout("docs/readme.md\nsrc/lib.rs\nsrc/main.rs\nsrc/util/mod.rs\ntop.rs\n");
    env.text(&["grep", "needle", "src", "--mode", "files", "-0"])
        .ok()
        .assert_stdout("src/lib.rs\0src/main.rs\0src/util/mod.rs\0");
    env.text(&["grep", "needle", "src/main.rs", "-0"])
        .ok()
        .assert_stdout("src/main.rs\x003:    needle(x);\n");
}

#[test]
fn grep_pages_are_stable_and_bounded() {
    let env = TestEnv::new();
    for i in 0..30 {
        let body: String = (0..(i % 4 + 1))
            .map(|k| format!("x{k} needle\nother\n"))
            .collect();
        env.write(&format!("d{}/f{i:02}.txt", i % 3), body.as_bytes());
    }
    let all = grep(&env, &["needle", "--limit", "0"]);
    let all_hits = hits(&env, &all);
    let total = all.total as usize;
    assert_eq!(all_hits.len(), total);
    let mut sorted_hits = all_hits.clone();
    sorted_hits.sort_by(|a, b| Path::new(&a.0).cmp(Path::new(&b.0)).then(a.1.cmp(&b.1)));
    assert_eq!(all_hits, sorted_hits);
    let mut joined = Vec::new();
    let mut offset = 0;
    loop {
        let o = offset.to_string();
        let page = grep(&env, &["needle", "--limit", "7", "--offset", &o, "-C", "1"]);
        assert_eq!(page.total as usize, total);
        assert_eq!(page.offset, offset as u64);
        joined.extend(hits(&env, &page));
        match page.next_offset {
            Some(n) => {
                assert!(page.truncated);
                offset = n as usize;
            }
            None => break,
        }
    }
    assert_eq!(joined, all_hits);
    let out = env.text(&["grep", "needle", "--limit", "5"]);
    out.ok()
        .check(out.stdout.lines().count() == 5, "5 lines")
        .stderr_has(&format!("1-5 of {total} matches"));
    // files mode pages too
    let p = grep(
        &env,
        &[
            "needle", "--mode", "files", "--limit", "4", "--offset", "28",
        ],
    );
    assert_eq!(p.files().len(), 2);
    assert_eq!(p.next_offset, None);
}

#[test]
fn grep_text_headings_and_colors() {
    let env = fixture();
    env.text(&["grep", "needle", "src", "--heading"]).ok().assert_stdout(
        "src/lib.rs\n2:pub fn needle() {}\n5:needle again\n\nsrc/main.rs\n3:    needle(x);\n\nsrc/util/mod.rs\n1:pub mod deep; // needle_deep\n",
    );
    env.text(&["grep", "needle", "src/main.rs", "-N"])
        .ok()
        .assert_stdout("src/main.rs:    needle(x);\n");
    env.text(&["--color", "always", "grep", "needle", "src/main.rs"])
        .ok()
        .stdout_has("\x1b[1m\x1b[31mneedle\x1b[0m");
}

#[test]
fn grep_paths_missing_and_outside_root() {
    let env = fixture();
    env.json(&["grep", "needle", "nope"]).err("not_found", 4);
    // Several PATHs, one missing: the others' results, the missing one reported, exit 2
    // (tests/it/grammar.rs has the rest).
    let g = env
        .json(&["grep", "needle", "nope", "top.rs"])
        .exit(2)
        .grep();
    assert_eq!(g.total, 1);
    assert_eq!(g.warnings.len(), 1);
    assert!(
        g.warnings[0].says("path_not_found", "nope"),
        "{:?}",
        g.warnings
    );
    env.json(&["--root", "src", "grep", "needle", "top.rs"])
        .err("outside_root", 3);
    let g = grep(&env, &["--root", "src", "needle", "src", "--mode", "files"]);
    assert_eq!(g.total, 3);
}

#[test]
#[ignore = "needs root and setpriv (util-linux) to run as nobody"]
fn grep_lists_unreadable_files() {
    use std::os::unix::fs::PermissionsExt;
    let env = fixture();
    require_nobody(&env);
    fs::set_permissions(env.path("src/lib.rs"), fs::Permissions::from_mode(0o000)).expect("chmod");
    let out = as_nobody(&env, &["--json", "grep", "needle", "--mode", "files"]);
    let g = out.ok().grep();
    let lib = env.path("src/lib.rs").display().to_string();
    assert_eq!(g.unreadable_files, [lib]);
    assert!(g.walk_incomplete);
    assert!(!rel(&env, g.files()).contains(&"src/lib.rs".to_string()));
}

// ---------------------------------------------------------------------------------------
// agreement with ripgrep

/// A real tree: the Rust docs' `std` (2,600 files, 120 MB) when installed, else a generated
/// one. Canonical, so rg's paths (as given) equal quill's (resolved).
fn real_tree(env: &TestEnv) -> PathBuf {
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
    env.path("gen")
}

#[test]
#[ignore = "needs rg (ripgrep)"]
fn grep_agrees_with_ripgrep_on_a_real_tree() {
    require("rg", "ripgrep");
    let env = TestEnv::new();
    let tree = real_tree(&env);
    let tree_s = tree.display().to_string();
    for pattern in ["HashMap", "(?i)unsafe", "^\\s*<a", "impl"] {
        let rg = env
            .program("rg")
            .args([
                "-n",
                "--no-heading",
                "--with-filename",
                "--no-config",
                "-e",
                pattern,
                &tree_s,
            ])
            .run();
        rg.ok();
        let mut want = BTreeSet::new();
        for line in rg.stdout.lines() {
            let mut parts = line.splitn(3, ':');
            let (Some(p), Some(n)) = (parts.next(), parts.next()) else {
                continue;
            };
            want.insert((p.to_string(), n.parse::<u64>().expect("line number")));
        }
        let g = grep(
            &env,
            &[pattern, &tree_s, "--limit", "0", "--max-columns", "1"],
        );
        let got: BTreeSet<(String, u64)> = g
            .matches()
            .iter()
            .map(|m| (m.path.clone(), m.line))
            .collect();
        assert_eq!(g.total, got.len() as u64);
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
