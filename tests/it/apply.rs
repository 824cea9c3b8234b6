//! `quill apply` (docs/commands/apply.md): the scenarios under `tests/fixtures/apply/` — an
//! input tree, a patch (Codex or unified), and the expected tree or the error kinds — run
//! through the real binary with every input file read first; then the guards (not read,
//! stale, `--expect-sha256`), `--check` and `--dry-run`, the combined patch `git apply`
//! accepts, a `git diff` of a real tree applied back, and the undo of a whole apply.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::util::{TestEnv, exists, sha256_hex};

const FIXTURES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/apply");

/// Every regular file under `dir`, by path relative to it.
fn tree(dir: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    let mut out = BTreeMap::new();
    if !dir.exists() {
        return out;
    }
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else {
                out.insert(
                    p.strip_prefix(dir).unwrap().to_path_buf(),
                    fs::read(&p).unwrap(),
                );
            }
        }
    }
    out
}

fn copy_tree(from: &Path, to: &Path) {
    for (rel, bytes) in tree(from) {
        let p = to.join(rel);
        fs::create_dir_all(p.parent().unwrap()).unwrap();
        fs::write(p, bytes).unwrap();
    }
}

/// The work dir's files, without the state dir.
fn work_tree(env: &TestEnv) -> BTreeMap<PathBuf, Vec<u8>> {
    tree(&env.dir)
}

fn assert_tree(env: &TestEnv, expected: &BTreeMap<PathBuf, Vec<u8>>, what: &str) {
    let got = work_tree(env);
    if &got != expected {
        let show = |t: &BTreeMap<PathBuf, Vec<u8>>| {
            t.iter()
                .map(|(p, b)| format!("  {}: {:?}", p.display(), String::from_utf8_lossy(b)))
                .collect::<Vec<_>>()
                .join("\n")
        };
        panic!(
            "{what}: the tree is\n{}\nexpected\n{}",
            show(&got),
            show(expected)
        );
    }
}

/// Set up a scenario in a fresh env: its input tree copied in and every file read.
fn scenario(name: &str) -> (TestEnv, PathBuf) {
    let env = TestEnv::new();
    let dir = Path::new(FIXTURES).join(name);
    copy_tree(&dir.join("input"), &env.dir);
    for rel in tree(&dir.join("input")).keys() {
        env.json(&["read", rel.to_str().unwrap()]).ok();
    }
    fs::copy(dir.join("patch"), env.base.join("change.patch")).unwrap();
    (env, dir)
}

fn run_scenario(name: &str) {
    let (env, dir) = scenario(name);
    let before = work_tree(&env);
    let args: Vec<String> = fs::read_to_string(dir.join("args"))
        .map(|a| a.split_whitespace().map(String::from).collect())
        .unwrap_or_default();
    let patch = env.base.join("change.patch");
    let mut argv = vec!["apply".to_string(), patch.to_str().unwrap().to_string()];
    argv.extend(args);
    let argv: Vec<&str> = argv.iter().map(String::as_str).collect();
    let out = env.json(&argv);
    match fs::read_to_string(dir.join("error")) {
        Ok(kinds) => {
            let mut kinds = kinds.split_whitespace();
            let top = kinds.next().unwrap();
            out.err(top, 3);
            let problems = out.json["error"]["problems"].as_array().unwrap().clone();
            let got: Vec<&str> = problems
                .iter()
                .map(|p| p["kind"].as_str().unwrap())
                .collect();
            for k in kinds {
                assert!(
                    got.contains(&k),
                    "{name}: no {k} problem in {got:?}\n{}",
                    out.report()
                );
            }
            for p in &problems {
                assert!(
                    p["hint"].is_string(),
                    "{name}: every problem names its fix: {p}"
                );
            }
            assert_tree(
                &env,
                &before,
                &format!("{name}: a rejected patch writes nothing"),
            );
        }
        Err(_) => {
            out.ok();
            assert_tree(&env, &tree(&dir.join("expected")), name);
            // The combined patch is one `git apply` takes: on a copy of the input it makes the
            // expected tree too.
            if dir.join("no_patch").exists() {
                // Content that is not UTF-8 has no patch in a JSON string.
                assert!(out.json["patch"].is_null() && out.json["patchUnavailable"].is_string());
                return;
            }
            let patch_out = out.json["patch"].as_str().expect("a patch").to_string();
            let copy = env.base.join("copy");
            fs::create_dir_all(&copy).unwrap();
            copy_tree(&dir.join("input"), &copy);
            fs::write(env.base.join("quill.patch"), &patch_out).unwrap();
            let st = Command::new("git")
                .args(["apply", "--unsafe-paths"])
                .arg(env.base.join("quill.patch"))
                .current_dir(&copy)
                .output()
                .unwrap();
            assert!(
                st.status.success(),
                "{name}: git apply refused quill's patch: {}\n{patch_out}",
                String::from_utf8_lossy(&st.stderr)
            );
            assert_eq!(
                tree(&copy),
                tree(&dir.join("expected")),
                "{name}: git apply of quill's patch"
            );
        }
    }
}

macro_rules! scenarios {
    ($($name:ident),* $(,)?) => {$(
        #[test]
        fn $name() {
            run_scenario(stringify!($name));
        }
    )*};
}

scenarios! {
    c01_add_file,
    c02_multiple_operations,
    c03_multiple_chunks,
    c04_move_to_new_directory,
    c05_end_of_file,
    c06_pure_addition,
    c07_anchor,
    c08_ambiguous,
    c09_third_file_misses,
    c10_delete_missing,
    c11_crlf,
    c12_fuzzy,
    c13_needs_fuzzy,
    c14_add_existing,
    u01_several_hunks,
    u02_create_delete,
    u03_rename,
    u04_no_newline,
    u05_bytes,
    u06_third_file_misses,
    u07_already_applied,
}

/// Every fixture directory has its test above.
#[test]
fn every_scenario_is_run() {
    let src = include_str!("apply.rs");
    for e in fs::read_dir(FIXTURES).unwrap() {
        let name = e.unwrap().file_name().into_string().unwrap();
        assert!(
            src.contains(&format!("    {name},")),
            "scenario {name} has no test"
        );
    }
}

const TWO_FILES: &str = "\
*** Begin Patch
*** Update File: a.txt
@@
-a
+A
*** Update File: b.txt
@@
-b
+B
*** End Patch
";

fn two_files() -> TestEnv {
    let env = TestEnv::new();
    env.write("a.txt", "a\n");
    env.write("b.txt", "b\n");
    env
}

fn problems(out: &crate::util::Out) -> Vec<(String, String)> {
    out.json["error"]["problems"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            let path = p["path"].as_str().unwrap();
            let name = Path::new(path)
                .file_name()
                .unwrap()
                .to_str()
                .unwrap()
                .to_string();
            (name, p["kind"].as_str().unwrap().to_string())
        })
        .collect()
}

#[test]
fn a_file_not_read_refuses_the_whole_patch_and_names_it() {
    let env = two_files();
    env.json(&["read", "a.txt"]).ok();
    let out = env.json_stdin(&["apply", "-"], TWO_FILES.as_bytes());
    out.err("patch_rejected", 3);
    assert_eq!(problems(&out), vec![("b.txt".into(), "not_read".into())]);
    assert!(
        out.json["error"]["hint"]
            .as_str()
            .unwrap()
            .contains("quill read"),
        "{}",
        out.report()
    );
    env.assert_file("a.txt", "a\n");
    env.assert_file("b.txt", "b\n");
}

#[test]
fn a_stale_file_refuses_the_whole_patch() {
    let env = two_files();
    env.json(&["read", "a.txt"]).ok();
    env.json(&["read", "b.txt"]).ok();
    env.write("b.txt", "b changed by someone\n");
    let out = env.json_stdin(&["apply", "-"], TWO_FILES.as_bytes());
    out.err("patch_rejected", 3);
    assert_eq!(problems(&out), vec![("b.txt".into(), "stale".into())]);
    env.assert_file("a.txt", "a\n");
    env.assert_file("b.txt", "b changed by someone\n");
}

#[test]
fn every_problem_of_every_file_is_reported_at_once() {
    let env = two_files();
    env.write("c.txt", "c\n");
    let patch = format!(
        "{}*** Update File: c.txt\n@@\n-nope\n+C\n*** End Patch\n",
        TWO_FILES.trim_end_matches("*** End Patch\n")
    );
    env.json(&["read", "c.txt"]).ok();
    env.write("b.txt", "b\n");
    let out = env.json_stdin(&["apply", "-"], patch.as_bytes());
    out.err("patch_rejected", 3);
    let got = problems(&out);
    assert_eq!(
        got,
        vec![
            ("a.txt".into(), "not_read".into()),
            ("b.txt".into(), "not_read".into()),
            ("c.txt".into(), "edit_no_match".into()),
        ]
    );
    let miss = &out.json["error"]["problems"][2];
    assert_eq!(miss["hunkIndex"], 0);
    assert!(miss["line"].as_u64().unwrap() > 1);
    assert!(miss.get("window").is_some(), "{miss}");
}

#[test]
fn expect_sha256_stands_in_for_a_read() {
    let env = two_files();
    env.json(&["read", "a.txt"]).ok();
    let good = format!("b.txt={}", sha256_hex(b"b\n"));
    env.json_stdin(
        &["apply", "-", "--expect-sha256", &good],
        TWO_FILES.as_bytes(),
    )
    .ok();
    env.assert_file("a.txt", "A\n");
    env.assert_file("b.txt", "B\n");
    let env = two_files();
    env.json(&["read", "a.txt"]).ok();
    let bad = format!("b.txt={}", sha256_hex(b"other\n"));
    let out = env.json_stdin(
        &["apply", "-", "--expect-sha256", &bad],
        TWO_FILES.as_bytes(),
    );
    out.err("patch_rejected", 3);
    assert_eq!(problems(&out), vec![("b.txt".into(), "stale".into())]);
    let out = env.json_stdin(
        &["apply", "-", "--expect-sha256", "b.txt"],
        TWO_FILES.as_bytes(),
    );
    out.err("invalid_argument", 2);
    env.assert_file("a.txt", "a\n");
}

#[test]
fn check_and_dry_run_write_nothing() {
    let env = two_files();
    env.json(&["read", "a.txt"]).ok();
    env.json(&["read", "b.txt"]).ok();
    let out = env.json_stdin(&["apply", "--check", "-"], TWO_FILES.as_bytes());
    out.ok();
    assert_eq!(out.json["check"], true);
    assert_eq!(out.json["diff"], "");
    assert!(out.json["patch"].is_null());
    let out = env.json_stdin(&["apply", "--dry-run", "-"], TWO_FILES.as_bytes());
    out.ok();
    assert_eq!(out.json["dryRun"], true);
    let diff = out.json["diff"].as_str().unwrap();
    assert!(
        diff.contains("--- a/a.txt\n+++ b/a.txt\n") && diff.contains("+B\n"),
        "{diff}"
    );
    for f in out.json["files"].as_array().unwrap() {
        assert!(
            f.get("fileAccess").is_none(),
            "a dry run wrote nothing: {f}"
        );
        assert_eq!(f["action"], "modified");
    }
    env.assert_file("a.txt", "a\n");
    env.assert_file("b.txt", "b\n");
    // And then for real.
    let out = env.json_stdin(&["apply", "-"], TWO_FILES.as_bytes());
    out.ok();
    assert_eq!(out.json["format"], "codex");
    assert_eq!(
        (out.json["added"].as_u64(), out.json["removed"].as_u64()),
        (Some(2), Some(2))
    );
    let f = &out.json["files"][1];
    assert_eq!(f["sha256"], sha256_hex(b"B\n"));
    assert_eq!(f["previousSha256"], sha256_hex(b"b\n"));
    assert_eq!(f["fileAccess"]["access"], "write");
    env.assert_file("a.txt", "A\n");
    env.assert_file("b.txt", "B\n");
    // The new content is the baseline: a second patch on top needs no read.
    let again = TWO_FILES
        .replace("-a\n+A", "-A\n+AA")
        .replace("-b\n+B", "-B\n+BB");
    env.json_stdin(&["apply", "-"], again.as_bytes()).ok();
    env.assert_file("a.txt", "AA\n");
}

#[test]
fn text_output_lists_the_files_and_the_diff() {
    let env = two_files();
    env.json(&["read", "a.txt"]).ok();
    env.json(&["read", "b.txt"]).ok();
    let out = env.cmd(["apply", "-"]).stdin(TWO_FILES).run();
    out.ok();
    assert!(
        out.stdout.contains("modified a.txt: +1 -1 lines"),
        "{}",
        out.report()
    );
    assert!(out.stdout.contains("applied: 2 files"), "{}", out.report());
    assert!(out.stdout.contains("+A\n"), "{}", out.report());
}

#[test]
fn a_malformed_patch_is_invalid_argument_naming_the_line() {
    let env = two_files();
    let out = env.json_stdin(
        &["apply", "-"],
        b"*** Begin Patch\n*** Frobnicate: a.txt\n*** End Patch\n",
    );
    out.err("invalid_argument", 2);
    assert!(
        out.json["error"]["message"]
            .as_str()
            .unwrap()
            .contains("line 2"),
        "{}",
        out.report()
    );
    let out = env.json_stdin(&["apply", "-"], b"hello\n");
    out.err("invalid_argument", 2);
    env.json(&["apply", "missing.patch"]).err("not_found", 4);
}

#[test]
fn read_only_refuses_before_reading_the_patch() {
    let env = two_files();
    env.cmd(["--json", "--read-only", "apply", "-"])
        .stdin(TWO_FILES)
        .run()
        .err("read_only", 3);
    env.assert_file("a.txt", "a\n");
}

#[test]
fn a_path_outside_the_root_is_a_problem_and_nothing_lands() {
    let env = two_files();
    env.json(&["read", "a.txt"]).ok();
    let patch = "*** Begin Patch\n*** Update File: a.txt\n@@\n-a\n+A\n*** Add File: ../escape.txt\n+x\n*** End Patch\n";
    let out = env
        .cmd(["--json", "--root", "."])
        .args(["apply", "-"])
        .stdin(patch)
        .run();
    out.err("patch_rejected", 3);
    assert_eq!(problems(&out)[0].1, "outside_root");
    env.assert_file("a.txt", "a\n");
    assert!(!env.base.join("escape.txt").exists());
}

#[test]
fn deleting_or_moving_a_link_is_refused() {
    let env = two_files();
    std::os::unix::fs::symlink("a.txt", env.path("link.txt")).unwrap();
    env.json(&["read", "a.txt"]).ok();
    let out = env.json_stdin(
        &["apply", "-"],
        b"*** Begin Patch\n*** Delete File: link.txt\n*** End Patch\n",
    );
    out.err("patch_rejected", 3);
    assert_eq!(problems(&out)[0].1, "symlink");
    assert!(env.path("link.txt").exists() && env.path("a.txt").exists());
}

#[test]
fn undo_reverts_the_whole_apply_and_undo_path_one_file() {
    let (env, _) = scenario("c02_multiple_operations");
    let patch = env.base.join("change.patch");
    let before = work_tree(&env);
    env.json(&["apply", patch.to_str().unwrap()]).ok();
    assert_ne!(work_tree(&env), before);
    let out = env.json(&["undo"]);
    out.ok();
    assert_eq!(out.json["op"], "undo");
    let actions: Vec<&str> = out.json["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["action"].as_str().unwrap())
        .collect();
    assert_eq!(actions.len(), 3, "{}", out.report());
    assert_tree(&env, &before, "undo of the whole apply");
    // The files are the session's again: the patch applies anew without a read.
    env.json(&["apply", patch.to_str().unwrap()]).ok();
    // One file alone.
    env.json(&["undo", "modify.txt"]).ok();
    env.assert_file("modify.txt", "line1\nline2\nline3\n");
    env.assert_file("nested/new.txt", "created\n");
    // The rest of the apply is still the last change.
    env.json(&["undo"]).ok();
    assert_tree(&env, &before, "the rest undone");
    env.json(&["undo"]).err("nothing_to_undo", 3);
}

#[test]
fn undo_of_a_move_brings_the_source_back() {
    let (env, _) = scenario("c04_move_to_new_directory");
    let before = work_tree(&env);
    let patch = env.base.join("change.patch");
    let out = env.json(&["apply", patch.to_str().unwrap()]);
    out.ok();
    let f = &out.json["files"][0];
    assert_eq!(f["action"], "moved");
    assert!(f["source"].as_str().unwrap().ends_with("old/name.txt"));
    env.json(&["undo"]).ok();
    let mut got = work_tree(&env);
    got.retain(|_, _| true);
    assert_tree(&env, &before, "undo of a move");
}

#[test]
fn undo_of_an_apply_refuses_when_a_file_changed_since() {
    let env = two_files();
    env.json(&["read", "a.txt"]).ok();
    env.json(&["read", "b.txt"]).ok();
    env.json_stdin(&["apply", "-"], TWO_FILES.as_bytes()).ok();
    env.write("b.txt", "someone else\n");
    env.json(&["undo"]).err("stale", 3);
    env.assert_file("a.txt", "A\n");
    env.assert_file("b.txt", "someone else\n");
}

/// A real change: a tree of quill's own sources, changed as a refactoring would (a rename
/// across files, a file deleted, one added, one moved), `git diff` of it applied back by
/// quill leaves exactly the changed tree (`git diff --quiet` against it).
#[test]
fn a_git_diff_of_a_real_tree_applies_back() {
    let env = TestEnv::new();
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let repo = &env.dir;
    let git = |args: &[&str]| {
        let out = Command::new("git")
            .args(["-c", "user.email=t@t", "-c", "user.name=t"])
            .args(args)
            .current_dir(repo)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "git {args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        out.stdout
    };
    git(&["init", "-q"]);
    let mut names = Vec::new();
    for e in fs::read_dir(&src).unwrap() {
        let p = e.unwrap().path();
        if p.extension().is_some_and(|x| x == "rs") {
            let name = p.file_name().unwrap().to_str().unwrap().to_string();
            fs::copy(&p, repo.join(&name)).unwrap();
            names.push(name);
        }
    }
    names.sort();
    git(&["add", "-A"]);
    git(&["commit", "-qm", "before"]);
    // The change.
    for name in &names[..names.len() / 2] {
        let text = fs::read_to_string(repo.join(name)).unwrap();
        fs::write(
            repo.join(name),
            text.replace("Error", "Failure").replace("fn ", "fn  "),
        )
        .unwrap();
    }
    fs::remove_file(repo.join(&names[names.len() - 1])).unwrap();
    fs::write(repo.join("added.rs"), "//! new\npub fn added() {}\n").unwrap();
    git(&["mv", &names[names.len() - 2], "moved.rs"]);
    git(&["add", "-A"]);
    git(&["commit", "-qm", "after"]);
    let after = String::from_utf8(git(&["rev-parse", "HEAD"])).unwrap();
    let patch = git(&["diff", "-M", "HEAD~1", "HEAD"]);
    fs::write(env.base.join("real.patch"), &patch).unwrap();
    git(&["checkout", "-q", "HEAD~1"]);
    for name in &names {
        env.json(&["read", name]).ok();
    }
    let out = env.json(&["apply", env.base.join("real.patch").to_str().unwrap()]);
    out.ok();
    let files = out.json["files"].as_array().unwrap();
    let actions: Vec<&str> = files
        .iter()
        .map(|f| f["action"].as_str().unwrap())
        .collect();
    for a in ["modified", "created", "deleted", "moved"] {
        assert!(actions.contains(&a), "no {a} file among {actions:?}");
    }
    // Untracked files count too: everything is staged, then compared with the commit.
    git(&["add", "-A"]);
    let st = Command::new("git")
        .args(["diff", "--cached", "--quiet", after.trim()])
        .current_dir(repo)
        .status()
        .unwrap();
    assert!(
        st.success(),
        "the tree differs from the commit the patch was made from"
    );
}

/// Text mode lists every problem with its kind, the file's closest lines and its fix.
#[test]
fn text_errors_list_every_problem() {
    let env = two_files();
    env.json(&["read", "b.txt"]).ok();
    let patch = TWO_FILES.replace("-b\n+B", "-nope\n+B");
    let out = env.cmd(["apply", "-"]).stdin(patch).run();
    out.exit(3);
    for needle in [
        "not_read: ",
        "edit_no_match: hunk 1 (line ",
        "closest passage in the file:",
        "fix: run `quill read",
        "hint: fix all 2 problems",
    ] {
        assert!(
            out.stderr.contains(needle),
            "no {needle:?} in\n{}",
            out.report()
        );
    }
    env.assert_file("b.txt", "b\n");
}

/// `-p 0`: the paths as they are; `-p 2` strips one more component.
#[test]
fn strip_takes_path_components_off() {
    let env = TestEnv::new();
    env.write("src/a.txt", "a\n");
    env.json(&["read", "src/a.txt"]).ok();
    let p0 = "--- src/a.txt\n+++ src/a.txt\n@@ -1 +1 @@\n-a\n+A\n";
    env.json_stdin(&["apply", "-p", "0", "-"], p0.as_bytes())
        .ok();
    env.assert_file("src/a.txt", "A\n");
    let p2 = "--- x/y/src/a.txt\n+++ x/y/src/a.txt\n@@ -1 +1 @@\n-A\n+AA\n";
    env.json_stdin(&["apply", "--strip", "2", "-"], p2.as_bytes())
        .ok();
    // More components than the path has: the patch is refused, naming the line.
    let p3 = "--- a/a.txt\n+++ b/a.txt\n@@ -1 +1 @@\n-AA\n+A\n";
    env.json_stdin(&["apply", "-p", "3", "-"], p3.as_bytes())
        .err("invalid_argument", 2);
    env.assert_file("src/a.txt", "AA\n");
}

/// The harness's `quill_apply` takes the patch text itself.
#[test]
fn the_tool_call_takes_the_patch_text() {
    let env = two_files();
    env.json(&["read", "a.txt"]).ok();
    env.json(&["read", "b.txt"]).ok();
    let call = serde_json::json!({"tool": "quill_apply", "arguments": {"patch": TWO_FILES}});
    let out = env.cmd(["call"]).stdin(call.to_string()).run();
    out.ok();
    assert_eq!(out.json["op"], "apply");
    env.assert_file("a.txt", "A\n");
    env.assert_file("b.txt", "B\n");
}

/// A unified hunk with added lines and no context is placed by nothing but its line number:
/// refused unless --unidiff-zero (as `git apply`).
#[test]
fn a_zero_context_addition_needs_unidiff_zero() {
    let env = TestEnv::new();
    env.write("a.txt", "one\ntwo\n");
    env.json(&["read", "a.txt"]).ok();
    let patch = "--- a/a.txt\n+++ b/a.txt\n@@ -1,0 +2 @@\n+between\n";
    let out = env.json_stdin(&["apply", "-"], patch.as_bytes());
    out.err("patch_rejected", 3);
    assert!(
        out.json["error"]["problems"][0]["hint"]
            .as_str()
            .unwrap()
            .contains("--unidiff-zero")
    );
    env.assert_file("a.txt", "one\ntwo\n");
    env.json_stdin(&["apply", "--unidiff-zero", "-"], patch.as_bytes())
        .ok();
    env.assert_file("a.txt", "one\nbetween\ntwo\n");
}

/// Two names on a plain `---`/`+++` pair change one file in place (the one that exists), as
/// GNU patch does; only a git rename or a Codex `Move to` moves a file.
#[test]
fn a_plain_diff_with_two_names_changes_the_file_in_place() {
    let env = TestEnv::new();
    env.write("a.txt", "one\ntwo\n");
    env.json(&["read", "a.txt"]).ok();
    let patch = "--- a.txt\t2026-01-01 00:00:00\n+++ a.txt.new\t2026-01-01 00:00:01\n@@ -1,2 +1,2 @@\n one\n-two\n+TWO\n";
    let out = env.json_stdin(&["apply", "-p", "0", "-"], patch.as_bytes());
    out.ok();
    assert_eq!(out.json["files"][0]["action"], "modified");
    env.assert_file("a.txt", "one\nTWO\n");
    assert!(!env.path("a.txt.new").exists());
    // `diff -u f.orig f`: the new name is the one that exists.
    let patch = "--- a.txt.orig\n+++ a.txt\n@@ -1,2 +1,2 @@\n one\n-TWO\n+2\n";
    env.json_stdin(&["apply", "-p", "0", "-"], patch.as_bytes())
        .ok();
    env.assert_file("a.txt", "one\n2\n");
}

/// `diff -ruN` names a missing side by the epoch: a creation and a deletion.
#[test]
fn diff_n_epoch_timestamps_create_and_delete() {
    let env = TestEnv::new();
    env.write("gone.txt", "bye\n");
    env.json(&["read", "gone.txt"]).ok();
    let patch = "\
diff -ruN o/gone.txt n/gone.txt
--- o/gone.txt\t2026-01-01 10:00:00.000000000 +0100
+++ n/gone.txt\t1970-01-01 01:00:00.000000000 +0100
@@ -1 +0,0 @@
-bye
diff -ruN o/new.txt n/new.txt
--- o/new.txt\t1970-01-01 01:00:00.000000000 +0100
+++ n/new.txt\t2026-01-01 10:00:00.000000000 +0100
@@ -0,0 +1 @@
+hello
";
    let out = env.json_stdin(&["apply", "-"], patch.as_bytes());
    out.ok();
    assert!(!env.path("gone.txt").exists());
    env.assert_file("new.txt", "hello\n");
}

/// `already_applied` only when the change is there: not for an ambiguous hunk, a
/// remove-only hunk that misses, or a deletion of other content.
#[test]
fn already_applied_is_said_only_when_it_is_true() {
    let env = TestEnv::new();
    env.write("m.py", "import os\nx = 1\nimport os\n");
    env.json(&["read", "m.py"]).ok();
    let kind = |out: &crate::util::Out| {
        out.json["error"]["problems"][0]["kind"]
            .as_str()
            .unwrap()
            .to_string()
    };
    let amb = "*** Begin Patch\n*** Update File: m.py\n@@\n-import os\n*** End Patch\n";
    let out = env.json_stdin(&["apply", "-"], amb.as_bytes());
    assert_eq!(kind(&out), "edit_ambiguous", "{}", out.report());
    let miss = "--- a/m.py\n+++ b/m.py\n@@ -2 +1,0 @@\n-x = 2\n";
    let out = env.json_stdin(&["apply", "--unidiff-zero", "-"], miss.as_bytes());
    assert_eq!(kind(&out), "edit_no_match", "{}", out.report());
    let del = "--- a/m.py\n+++ /dev/null\n@@ -1 +0,0 @@\n-other content\n";
    let out = env.json_stdin(&["apply", "-"], del.as_bytes());
    assert_ne!(kind(&out), "already_applied", "{}", out.report());
    env.assert_file("m.py", "import os\nx = 1\nimport os\n");
}

/// The same patch sent again is `already_applied` — also when its hunks only add lines,
/// which would otherwise be added twice.
#[test]
fn a_resent_patch_is_already_applied() {
    let env = TestEnv::new();
    env.write("g.txt", "a\n");
    env.json(&["read", "g.txt"]).ok();
    let patch = "*** Begin Patch\n*** Update File: g.txt\n@@\n+appended\n*** End Patch\n";
    env.json_stdin(&["apply", "-"], patch.as_bytes()).ok();
    let out = env.json_stdin(&["apply", "-"], patch.as_bytes());
    out.err("patch_rejected", 3);
    assert_eq!(out.json["error"]["problems"][0]["kind"], "already_applied");
    env.assert_file("g.txt", "a\nappended\n");
}

/// A created file depends on no old content: context lines in its hunk are refused. git's
/// `new mode` is applied.
#[test]
fn creation_with_context_is_refused_and_new_mode_is_applied() {
    use std::os::unix::fs::PermissionsExt;
    let env = TestEnv::new();
    let patch = "--- /dev/null\n+++ b/n.txt\n@@ -1,2 +1,3 @@\n line one\n+added\n line two\n";
    let out = env.json_stdin(&["apply", "-"], patch.as_bytes());
    assert_ne!(out.code, 0, "{}", out.report());
    assert!(!env.path("n.txt").exists());
    env.write("s.sh", "echo hi\n");
    fs::set_permissions(env.path("s.sh"), fs::Permissions::from_mode(0o644)).unwrap();
    env.json(&["read", "s.sh"]).ok();
    let patch = "diff --git a/s.sh b/s.sh\nold mode 100644\nnew mode 100755\n";
    env.json_stdin(&["apply", "-"], patch.as_bytes()).ok();
    let mode = fs::metadata(env.path("s.sh")).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o755);
    env.assert_file("s.sh", "echo hi\n");
}

/// When the apply's old content does not fit the undo history together, no part of it is
/// kept: `quill undo` never reverts half an apply.
#[test]
fn an_apply_too_large_to_undo_whole_keeps_no_step() {
    let env = TestEnv::new();
    let line = "x".repeat(99) + "\n";
    env.write("a.txt", format!("a-first\n{}", line.repeat(400_000)));
    env.write("b.txt", format!("b-first\n{}", line.repeat(400_000)));
    env.json(&["read", "a.txt"]).ok();
    env.json(&["read", "b.txt"]).ok();
    let patch = "*** Begin Patch\n*** Update File: a.txt\n@@\n-a-first\n+a-second\n*** Update File: b.txt\n@@\n-b-first\n+b-second\n*** End Patch\n";
    let out = env.json_stdin(&["apply", "-"], patch.as_bytes());
    out.ok();
    assert!(
        out.json["warnings"]
            .as_array()
            .unwrap()
            .iter()
            .any(|w| w["kind"] == "undo_unavailable"),
        "{}",
        out.report()
    );
    env.json(&["undo"]).err("nothing_to_undo", 3);
    assert!(
        env.read("a.txt").starts_with(b"a-second\n")
            && env.read("b.txt").starts_with(b"b-second\n")
    );
}

const ADD_DUP: &str = "*** Begin Patch\n*** Add File: dup.txt\n+new content\n*** End Patch\n";

/// The one problem of a rejected patch: its kind and hint.
fn only_problem(out: &crate::util::Out) -> (String, String) {
    out.err("patch_rejected", 3);
    let ps = out.json["error"]["problems"].as_array().unwrap();
    assert_eq!(ps.len(), 1, "{}", out.report());
    (
        ps[0]["kind"].as_str().unwrap().to_string(),
        ps[0]["hint"].as_str().unwrap().to_string(),
    )
}

/// An Add File onto a file the session has read (and that is unchanged since) replaces it, as
/// `write` over a read file does; unread it is `create_conflict` with the read to make, changed
/// since the read it is `stale`; undo puts the old content back.
#[test]
fn adding_a_file_the_session_read_replaces_it_and_undo_restores_it() {
    let env = TestEnv::new();
    env.write("dup.txt", "old content\n");
    let (kind, hint) = only_problem(&env.json_stdin(&["apply", "-"], ADD_DUP.as_bytes()));
    assert_eq!(kind, "create_conflict");
    assert!(
        hint.contains("exists; read it first (`quill read ")
            && hint.contains("to replace it, or use an Update File section"),
        "{hint}"
    );
    env.assert_file("dup.txt", "old content\n");
    // Read, then changed by someone else: stale.
    env.json(&["read", "dup.txt"]).ok();
    env.write("dup.txt", "changed since\n");
    let (kind, _) = only_problem(&env.json_stdin(&["apply", "-"], ADD_DUP.as_bytes()));
    assert_eq!(kind, "stale");
    env.assert_file("dup.txt", "changed since\n");
    // Read as it is now: replaced.
    env.json(&["read", "dup.txt"]).ok();
    let out = env.json_stdin(&["apply", "-"], ADD_DUP.as_bytes());
    out.ok();
    let f = &out.json["files"][0];
    assert_eq!(f["action"], "created");
    assert_eq!(f["replaced"], true);
    assert_eq!(f["previousSha256"], sha256_hex(b"changed since\n"));
    assert_eq!(f["removed"], 1);
    env.assert_file("dup.txt", "new content\n");
    // Sent again: already there.
    let (kind, _) = only_problem(&env.json_stdin(&["apply", "-"], ADD_DUP.as_bytes()));
    assert_eq!(kind, "already_applied");
    env.json(&["undo", "dup.txt"]).ok();
    env.assert_file("dup.txt", "changed since\n");
    // --expect-sha256 stands in for the read.
    let env = TestEnv::new();
    env.write("dup.txt", "old content\n");
    let expect = format!("dup.txt={}", sha256_hex(b"old content\n"));
    env.json_stdin(
        &["apply", "-", "--expect-sha256", &expect],
        ADD_DUP.as_bytes(),
    )
    .ok();
    env.assert_file("dup.txt", "new content\n");
}

/// A git-style creation (`--- /dev/null`) over an existing file follows the same rule.
#[test]
fn a_unified_creation_over_a_read_file_replaces_it() {
    let env = TestEnv::new();
    env.write("u.txt", "old\n");
    let patch = "--- /dev/null\n+++ b/u.txt\n@@ -0,0 +1 @@\n+new\n";
    let (kind, hint) = only_problem(&env.json_stdin(&["apply", "-"], patch.as_bytes()));
    assert_eq!(kind, "create_conflict");
    assert!(
        hint.contains("read it first") && hint.contains("not `--- /dev/null`"),
        "{hint}"
    );
    env.json(&["read", "u.txt"]).ok();
    let out = env.json_stdin(&["apply", "-"], patch.as_bytes());
    out.ok();
    assert_eq!(out.json["files"][0]["replaced"], true);
    env.assert_file("u.txt", "new\n");
    env.json(&["undo"]).ok();
    env.assert_file("u.txt", "old\n");
}

const MOVE_ONTO: &str = "\
*** Begin Patch
*** Update File: old/name.txt
*** Move to: renamed/dir/name.txt
@@
-from
+new
*** Update File: other.txt
@@
-other
+OTHER
*** End Patch
";

/// A move onto a file the session has read replaces it, inside the apply's transaction: all
/// or nothing with the other files, and one undo puts the source and the replaced destination
/// back. Unread, the destination is `create_conflict` named as a move's destination.
#[test]
fn a_move_onto_a_read_file_replaces_it_all_or_nothing() {
    let env = TestEnv::new();
    env.write("old/name.txt", "from\n");
    env.write("renamed/dir/name.txt", "existing\n");
    env.write("other.txt", "other\n");
    env.json(&["read", "old/name.txt"]).ok();
    env.json(&["read", "other.txt"]).ok();
    let before = work_tree(&env);
    let (kind, hint) = only_problem(&env.json_stdin(&["apply", "-"], MOVE_ONTO.as_bytes()));
    assert_eq!(kind, "create_conflict");
    assert!(
        hint.contains("is the destination of a move and exists; read it first")
            && !hint.contains("update section"),
        "{hint}"
    );
    assert_tree(&env, &before, "an unread destination");
    // Read, but another section fails: nothing lands.
    env.json(&["read", "renamed/dir/name.txt"]).ok();
    env.write("other.txt", "changed\n");
    let out = env.json_stdin(&["apply", "-"], MOVE_ONTO.as_bytes());
    out.err("patch_rejected", 3);
    assert_eq!(problems(&out), vec![("other.txt".into(), "stale".into())]);
    env.write("other.txt", "other\n");
    assert_tree(&env, &before, "all or nothing");
    // Everything fresh: it lands.
    let out = env.json_stdin(&["apply", "-"], MOVE_ONTO.as_bytes());
    out.ok();
    let f = &out.json["files"][0];
    assert_eq!(f["action"], "moved");
    assert_eq!(f["replaced"], true);
    assert_eq!(f["previousSha256"], sha256_hex(b"existing\n"));
    env.assert_file("renamed/dir/name.txt", "new\n");
    env.assert_file("other.txt", "OTHER\n");
    assert!(!exists(&env.path("old/name.txt")));
    env.json(&["undo"]).ok();
    assert_tree(&env, &before, "undo of the whole apply");
}
