//! Paths that are almost right: a `not_found` answer names what is there instead — a file of
//! the same name one or two directories away, a path that differs only in letter case, an
//! unexpanded `~`, the deepest ancestor that exists — and its hint is the next call, which is
//! run here exactly as suggested.

use std::fs;

use crate::util::*;

/// The words of a hint's call, as a POSIX shell splits them (plain words and '…' quoting,
/// which is all a hint uses).
pub fn shell_words(call: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut chars = call.chars();
    while let Some(c) = chars.next() {
        match c {
            '\'' => {
                in_word = true;
                for q in chars.by_ref() {
                    if q == '\'' {
                        break;
                    }
                    word.push(q);
                }
            }
            '\\' => {
                in_word = true;
                word.extend(chars.next());
            }
            ' ' if in_word => {
                words.push(std::mem::take(&mut word));
                in_word = false;
            }
            ' ' => {}
            c => {
                in_word = true;
                word.push(c);
            }
        }
    }
    if in_word {
        words.push(word);
    }
    words
}

/// The call between the last pair of backticks of a text hint.
pub fn call_in(hint: &str) -> String {
    let end = hint.rfind('`').expect("a call in backticks");
    let start = hint[..end].rfind('`').expect("a call in backticks");
    hint[start + 1..end].to_string()
}

/// Run a suggested call (`quill …`) exactly as written.
pub fn run_call(env: &TestEnv, call: &str) -> Out {
    let words = shell_words(call);
    assert_eq!(words[0], "quill", "{call}");
    env.cmd(&words[1..]).run()
}

fn fixture() -> TestEnv {
    let env = TestEnv::new();
    env.write("src/lib/foo.rs", "fn foo() {}\n");
    env.write("src/main.rs", "fn main() {}\n");
    env
}

#[test]
fn the_same_name_one_directory_away_is_the_next_call() {
    let env = fixture();
    let dir = env.dir.display();
    let out = env.text(&["read", "src/foo.rs"]);
    out.exit(4).assert_stdout("").assert_stderr(&format!(
        "quill: error: {dir}/src/foo.rs does not exist\n  \
         hint: the same name is at src/lib/foo.rs: `quill read src/lib/foo.rs`\n"
    ));
    run_call(&env, &call_in(&out.stderr))
        .ok()
        .assert_stdout("     1\tfn foo() {}\n");

    let e = env
        .json(&["read", "src/foo.rs"])
        .err("not_found", 4)
        .failure()
        .error;
    let foo = env.path("src/lib/foo.rs");
    assert_eq!(
        e.field("suggestion"),
        &serde_json::json!({"path": foo, "reason": "nearby", "call": "quill --json read src/lib/foo.rs"})
    );
    assert_eq!(e.field("nearby"), &serde_json::json!([foo]));
    assert!(
        e.fields.get("existingAncestor").is_none(),
        "no ancestor is named when the parent exists"
    );
    assert_eq!(
        e.hint.as_deref(),
        Some("the same name is at src/lib/foo.rs: `quill --json read src/lib/foo.rs`")
    );
    let r = run_call(&env, "quill --json read src/lib/foo.rs").read();
    assert_eq!(r.file_access.unwrap().path, foo.to_str().unwrap());
}

#[test]
fn the_same_name_up_or_beside_is_found_and_two_levels_down_too() {
    let env = fixture();
    env.write("a/b/c/deep.rs", "x\n");
    // From src/lib/x/: foo.rs is one directory up.
    env.text(&["read", "src/lib/x/foo.rs"])
        .exit(4)
        .stderr_has("hint: the same name is at src/lib/foo.rs: `quill read src/lib/foo.rs`");
    // Beside: src/other/foo.rs for src/lib/foo.rs.
    env.text(&["read", "src/other/foo.rs"])
        .exit(4)
        .stderr_has("the same name is at src/lib/foo.rs");
    // Two directories below the current directory.
    let out = env.text(&["read", "foo.rs"]);
    out.exit(4)
        .stderr_has("the same name is at src/lib/foo.rs: `quill read src/lib/foo.rs`");
    // Three is too far: the hint is the glob that looks everywhere, and it finds it.
    let out = env.text(&["read", "deep.rs"]);
    out.exit(4).stderr_has(
        "hint: no deep.rs within two directories of the current directory; \
         `quill glob '**/deep.rs'` looks everywhere below\n",
    );
    run_call(&env, &call_in(&out.stderr))
        .ok()
        .assert_stdout("a/b/c/deep.rs\n");
}

#[test]
fn ignored_and_hidden_copies_are_not_suggested() {
    let env = fixture();
    fs::create_dir(env.path(".git")).unwrap();
    env.write(".gitignore", "target/\n");
    env.write("target/debug/foo.rs", "built\n");
    env.write(".cache/foo.rs", "cached\n");
    fs::remove_file(env.path("src/lib/foo.rs")).unwrap();
    let e = env
        .json(&["read", "foo.rs"])
        .err("not_found", 4)
        .failure()
        .error;
    assert_eq!(e.field("nearby"), &serde_json::json!([]));
    assert_eq!(e.field("suggestion"), &serde_json::Value::Null);
}

#[test]
fn a_case_only_difference_is_named_component_by_component() {
    let env = fixture();
    let out = env.text(&["read", "Src/LIB/Foo.rs"]);
    out.exit(4).stderr_has(
        "hint: only the letter case differs from src/lib/foo.rs: `quill read src/lib/foo.rs`\n",
    );
    run_call(&env, &call_in(&out.stderr)).ok();
    let e = env
        .json(&["read", "Src/LIB/Foo.rs"])
        .err("not_found", 4)
        .failure()
        .error;
    assert_eq!(e.field("suggestion")["reason"], "case");
    assert_eq!(
        e.field("suggestion")["path"],
        env.path("src/lib/foo.rs").to_str().unwrap()
    );
}

#[test]
fn an_unexpanded_tilde_means_home() {
    let env = fixture();
    // The harness sets HOME to the directory above the working directory.
    let home = env.base.join("notes.md");
    fs::write(&home, "mine\n").unwrap();
    let out = env.text(&["read", "~/notes.md"]);
    out.exit(4).assert_stderr(&format!(
        "quill: error: {}/~/notes.md does not exist\n  \
         hint: the shell did not expand `~` (it does not inside quotes): $HOME/notes.md is {}: \
         `quill read {}`\n",
        env.dir.display(),
        home.display(),
        home.display()
    ));
    run_call(&env, &call_in(&out.stderr))
        .ok()
        .assert_stdout("     1\tmine\n");
    let e = env
        .json(&["read", "~/notes.md"])
        .err("not_found", 4)
        .failure()
        .error;
    assert_eq!(e.field("suggestion")["reason"], "tilde");
    assert_eq!(e.field("suggestion")["path"], home.to_str().unwrap());

    // Not there either: said, and what is near $HOME/… is named.
    env.text(&["read", "~/notes.txt"]).exit(4).stderr_has(&format!(
        "hint: the shell did not expand `~` (it does not inside quotes): $HOME/notes.txt is {}/notes.txt, \
         which does not exist either; did you mean {}? `quill read {}`\n",
        env.base.display(),
        home.display(),
        home.display()
    ));
}

#[test]
fn a_missing_directory_names_the_deepest_one_that_exists() {
    let env = fixture();
    let out = env.text(&["read", "src/utils/x/zz.rs"]);
    out.exit(4).stderr_has(
        "hint: src/utils does not exist (src does), and no zz.rs within two directories of src; \
         `quill glob '**/zz.rs'` looks everywhere below\n",
    );
    let e = env
        .json(&["read", "src/utils/x/zz.rs"])
        .err("not_found", 4)
        .failure()
        .error;
    assert_eq!(
        e.field("existingAncestor"),
        env.path("src").to_str().unwrap()
    );
    assert_eq!(e.field("suggestion"), &serde_json::Value::Null);
    // Below an existing ancestor, the same name still counts.
    env.text(&["read", "src/utils/foo.rs"])
        .exit(4)
        .stderr_has("the same name is at src/lib/foo.rs: `quill read src/lib/foo.rs`");
}

#[test]
fn every_command_that_answers_not_found_gets_its_own_call_back() {
    let env = fixture();
    env.json(&["read", "src/lib/foo.rs"]).ok();
    // edit: the same call with the path replaced, and it applies.
    let out = env.text(&["edit", "src/foo.rs", "--old", "foo", "--new", "bar"]);
    out.exit(4).stderr_has(
        "hint: the same name is at src/lib/foo.rs: `quill edit src/lib/foo.rs --old foo --new bar`\n",
    );
    run_call(&env, &call_in(&out.stderr)).ok();
    env.assert_file("src/lib/foo.rs", "fn bar() {}\n");

    // transfer: the source.
    let out = env.text(&["transfer", "main.rs", "copy.rs"]);
    out.exit(4)
        .stderr_has("`quill transfer src/main.rs copy.rs`");
    run_call(&env, &call_in(&out.stderr)).ok();
    env.assert_file("copy.rs", "fn main() {}\n");

    // write --no-parents: the missing parent, with the file name kept.
    let out = env.text(&["write", "SRC/new.rs", "--no-parents", "--content", "x"]);
    out.exit(4).stderr_has(
        "hint: only the letter case differs from src: `quill write src/new.rs --no-parents --content x`\n",
    );
    assert!(!env.path("SRC").exists());
    run_call(&env, &call_in(&out.stderr)).ok();
    env.assert_file("src/new.rs", "x");

    // glob PATH: a directory of that name.
    let out = env.text(&["glob", "*.rs", "lib"]);
    out.exit(4)
        .stderr_has("hint: the same name is at src/lib: `quill glob '*.rs' src/lib`\n");
    run_call(&env, &call_in(&out.stderr))
        .ok()
        .assert_stdout("src/lib/foo.rs\n");

    // grep PATH, alone and among others (searched, exit 2, the hint on the missing one).
    let out = env.text(&["grep", "bar", "lib/foo.rs"]);
    out.exit(4).stderr_has("`quill grep bar src/lib/foo.rs`");
    run_call(&env, &call_in(&out.stderr))
        .ok()
        .assert_stdout("src/lib/foo.rs:1:fn bar() {}\n");
    env.text(&["grep", "main", "src/main.rs", "lib/foo.rs"])
        .exit(2)
        .assert_stdout("src/main.rs:1:fn main() {}\n")
        .stderr_has("hint: the same name is at src/lib/foo.rs: `quill grep main src/main.rs src/lib/foo.rs`");
}

#[test]
fn a_call_too_long_to_repeat_names_the_replacement() {
    let env = fixture();
    env.json(&["read", "src/lib/foo.rs"]).ok();
    let out = env.text(&["edit", "src/foo.rs", "--old", "fn foo()\n{}", "--new", "x"]);
    out.exit(4).stderr_has(
        "hint: the same name is at src/lib/foo.rs; repeat the call with src/lib/foo.rs in place of src/foo.rs\n",
    );
    let e = env
        .json(&["edit", "src/foo.rs", "--old", "fn foo()\n{}", "--new", "x"])
        .err("not_found", 4)
        .failure()
        .error;
    assert_eq!(e.field("suggestion")["call"], serde_json::Value::Null);
    env.assert_file("src/lib/foo.rs", "fn foo() {}\n");
}

#[test]
fn nothing_outside_the_root_is_suggested() {
    let env = fixture();
    env.write("box/readme.md", "in\n");
    env.write("outside/notes.md", "out\n");
    let e = env
        .json(&["--root", "box", "read", "box/notes.md"])
        .err("not_found", 4)
        .failure()
        .error;
    assert_eq!(e.field("nearby"), &serde_json::json!([]));
    assert_eq!(e.field("suggestion"), &serde_json::Value::Null);
    // Inside it, the search still works.
    env.write("box/docs/notes.md", "in\n");
    let out = env.text(&["--root", "box", "read", "box/notes.md"]);
    out.exit(4)
        .stderr_has("`quill --root box read box/docs/notes.md`");
    run_call(&env, &call_in(&out.stderr)).ok();
}
