//! Empty searches that say why: a glob or grep that finds nothing (or, for glob, less than a
//! page) while ignore files or hidden names were in force counts what they hid and names the
//! flags; `*.ts` that matches only deeper names `**/*.ts`; a `[...]` glob that names a real
//! path is taken literally; an absolute pattern is split into a directory and a pattern; a
//! blank pattern is refused; a line break in a grep pattern points at `-U`. Every suggested
//! call is run here exactly as suggested.

use std::fs;

use crate::missing::{call_in, run_call};
use crate::util::*;

/// A git repository with a build directory and a dependency directory ignored, and hidden
/// files and directories.
fn fixture() -> TestEnv {
    let env = TestEnv::new();
    fs::create_dir(env.path(".git")).unwrap();
    env.write(".git/config", "[core]\n");
    env.write(".gitignore", "dist/\nnode_modules/\n");
    env.write("dist/app.js", "bundle\n");
    env.write("node_modules/x/index.js", "const SECRET = 1;\n");
    env.write(".env", "SECRET=1\n");
    env.write(".github/workflows/ci.yml", "on: push\n");
    env.write("src/main.ts", "main\n");
    env.write("src/lib/util.ts", "util\n");
    env
}

fn why_of(out: &Out) -> Why {
    out.glob().why.expect("a why")
}

#[test]
fn an_ignored_directory_is_counted_and_named_with_its_flag() {
    let env = fixture();
    let out = env.text(&["glob", "dist/*.js"]);
    out.exit(1).assert_stdout("").assert_stderr(
        "quill: 0 files; 1 file in ignored paths matches (dist/app.js) — add --no-ignore: \
         `quill glob 'dist/*.js' --no-ignore`\n",
    );
    run_call(&env, &call_in(&out.stderr))
        .ok()
        .assert_stdout("dist/app.js\n");

    let out = env.json(&["glob", "dist/*.js"]);
    out.found_nothing();
    let why = why_of(&out);
    assert_eq!(why.reason, "filtered");
    assert_eq!((why.count, why.complete), (1, true));
    assert_eq!(why.flags, ["--no-ignore"]);
    assert_eq!(why.pattern, None);
    assert_eq!(why.examples, [env.path("dist/app.js").to_str().unwrap()]);
    assert_eq!(
        why.call.as_deref(),
        Some("quill --json glob 'dist/*.js' --no-ignore")
    );
    let g = run_call(&env, why.call.as_deref().unwrap()).ok().glob();
    assert_eq!(g.files, [env.path("dist/app.js").to_str().unwrap()]);
    assert!(g.why.is_none());
}

#[test]
fn hidden_files_and_directories_need_hidden() {
    let env = fixture();
    for (pattern, found) in [
        (".env", ".env"),
        (".github/workflows/*.yml", ".github/workflows/ci.yml"),
    ] {
        let out = env.text(&["glob", pattern]);
        out.exit(1).assert_stderr(&format!(
            "quill: 0 files; 1 file in hidden paths matches ({found}) — add --hidden: \
             `quill glob {} --hidden`\n",
            if pattern.contains('*') {
                format!("'{pattern}'")
            } else {
                pattern.to_string()
            }
        ));
        run_call(&env, &call_in(&out.stderr))
            .ok()
            .assert_stdout(&format!("{found}\n"));
    }
}

#[test]
fn hidden_and_ignored_needs_both_flags() {
    let env = fixture();
    env.write(".gitignore", "dist/\nnode_modules/\n.env\n");
    let out = env.text(&["glob", ".env"]);
    out.exit(1).assert_stderr(
        "quill: 0 files; 1 file in ignored or hidden paths matches (.env) — add --no-ignore --hidden: \
         `quill glob .env --no-ignore --hidden`\n",
    );
    run_call(&env, &call_in(&out.stderr))
        .ok()
        .assert_stdout(".env\n");
    // `.git` is left out of the counts unless the pattern names it.
    let out = env.text(&["glob", ".git/config"]);
    out.exit(1).stderr_has("add --no-ignore --hidden");
    run_call(&env, &call_in(&out.stderr))
        .ok()
        .assert_stdout(".git/config\n");
    let g = env.json(&["glob", "**/config"]).found_nothing().glob();
    assert!(g.why.is_none(), "{:?}", g.why);
}

#[test]
fn a_short_answer_counts_the_rest() {
    let env = fixture();
    env.write("top.js", "x\n");
    env.write(".gitignore", "dist/\nnode_modules/\nlocal.js\n");
    env.write("local.js", "x\n");
    let out = env.text(&["glob", "*.js", "--sort", "path"]);
    out.ok().assert_stdout("top.js\n").assert_stderr(
        "quill: 1 file; 1 more in ignored paths matches (local.js) — add --no-ignore: \
         `quill glob '*.js' --sort path --no-ignore`\n",
    );
    run_call(&env, &call_in(&out.stderr))
        .ok()
        .assert_stdout("local.js\ntop.js\n");
    // A full page says nothing.
    env.text(&["glob", "*.js", "--limit", "1"])
        .ok()
        .assert_stderr("");
}

#[test]
fn a_pattern_that_matches_only_deeper_names_the_doublestar() {
    let env = fixture();
    let out = env.text(&["glob", "*.ts", "--sort", "path"]);
    out.exit(1).assert_stderr(
        "quill: 0 files at the top level; 2 files below match **/*.ts (`*` does not cross `/`): \
         `quill glob '**/*.ts' --sort path`\n",
    );
    run_call(&env, &call_in(&out.stderr))
        .ok()
        .assert_stdout("src/lib/util.ts\nsrc/main.ts\n");
    let why = why_of(&env.json(&["glob", "*.ts"]));
    assert_eq!(why.reason, "deeper");
    assert_eq!(why.pattern.as_deref(), Some("**/*.ts"));
    assert_eq!(why.count, 2);
    // Deeper and hidden at once.
    let out = env.text(&["glob", "*.yml"]);
    out.exit(1).assert_stderr(
        "quill: 0 files; 1 file in hidden paths matches **/*.yml (.github/workflows/ci.yml) — add --hidden: \
         `quill glob '**/*.yml' --hidden`\n",
    );
    run_call(&env, &call_in(&out.stderr))
        .ok()
        .assert_stdout(".github/workflows/ci.yml\n");
}

#[test]
fn nothing_is_said_when_nothing_was_hidden_or_no_filter_was_on() {
    let env = fixture();
    let g = env.json(&["glob", "**/*.zig"]).found_nothing().glob();
    assert!(g.why.is_none());
    let g = env
        .json(&["glob", "dist/*.css", "--hidden", "--no-ignore"])
        .found_nothing()
        .glob();
    assert!(g.why.is_none());
    env.text(&["glob", "**/*.zig"]).exit(1).assert_stderr("");
    let g = env.json(&["grep", "nowhere"]).found_nothing().grep();
    assert!(g.why.is_none());
}

#[test]
fn brackets_that_name_a_real_path_are_taken_literally() {
    let env = fixture();
    env.write("app/[id]/page.tsx", "page\n");
    let out = env.text(&["glob", "app/[id]/page.tsx"]);
    out.ok().assert_stdout("app/[id]/page.tsx\n").assert_stderr(
        "quill: nothing matched app/[id]/page.tsx as a glob (`[...]` is a set of characters); \
         taken literally, 1 file matches — escaped: `quill glob 'app/\\[id\\]/page.tsx'`\n",
    );
    run_call(&env, &call_in(&out.stderr))
        .ok()
        .assert_stdout("app/[id]/page.tsx\n")
        .assert_stderr("");
    let out = env.json(&["glob", "app/[id]/*.tsx"]);
    let g = out.ok().glob();
    assert_eq!(g.files, [env.path("app/[id]/page.tsx").to_str().unwrap()]);
    let why = g.why.unwrap();
    assert_eq!(why.reason, "literal");
    assert_eq!(why.pattern.as_deref(), Some("app/\\[id\\]/*.tsx"));
    // A class that matches is a class.
    env.write("app/i/page.tsx", "i\n");
    env.text(&["glob", "app/[id]/page.tsx"])
        .ok()
        .assert_stdout("app/i/page.tsx\n")
        .assert_stderr("");
}

#[test]
fn an_absolute_pattern_is_a_directory_and_a_pattern() {
    let env = fixture();
    let abs = format!("{}/src/**/*.ts", env.dir.display());
    env.text(&["glob", &abs, "--sort", "path"])
        .ok()
        .assert_stdout(&format!(
            "{0}/src/lib/util.ts\n{0}/src/main.ts\n",
            env.dir.display()
        ));
    let g = env.json(&["glob", &abs]).ok().glob();
    assert_eq!(g.total, 2);
    let up = "../work/src/*.ts";
    env.text(&["glob", up])
        .ok()
        .assert_stdout("../work/src/main.ts\n");
    env.json(&["glob", &abs, "src"]).err("invalid_argument", 2);
}

#[test]
fn an_empty_or_blank_pattern_is_invalid() {
    let env = fixture();
    for p in ["", "  "] {
        let e = env
            .json(&["glob", p])
            .err("invalid_argument", 2)
            .failure()
            .error;
        assert_eq!(
            e.message,
            "the glob pattern is empty: name the files to list, e.g. `quill glob '**/*.rs'`"
        );
    }
}

#[test]
fn a_grep_that_finds_nothing_counts_ignored_and_hidden_files() {
    let env = fixture();
    let out = env.text(&["grep", "SECRET"]);
    out.exit(1).assert_stdout("").assert_stderr(
        "quill: 0 matches; 2 files in ignored or hidden paths match (.env, node_modules/x/index.js) — \
         add --no-ignore --hidden: `quill grep SECRET --no-ignore --hidden`\n",
    );
    run_call(&env, &call_in(&out.stderr))
        .ok()
        .assert_stdout(".env:1:SECRET=1\nnode_modules/x/index.js:1:const SECRET = 1;\n");
    let g = env
        .json(&["grep", "-l", "SECRET=", "src"])
        .found_nothing()
        .grep();
    assert!(g.why.is_none(), "nothing hidden below src");
    let out = env.json(&["grep", "-l", "SECRET="]);
    let why = out.found_nothing().grep().why.unwrap();
    assert_eq!(why.flags, ["--hidden"]);
    assert_eq!(why.examples, [env.path(".env").to_str().unwrap()]);
    assert_eq!(
        why.call.as_deref(),
        Some("quill --json grep -l SECRET= --hidden")
    );
    let g = run_call(&env, why.call.as_deref().unwrap()).ok().grep();
    assert_eq!(g.files(), [env.path(".env").to_str().unwrap()]);
}

#[test]
fn the_count_is_bounded_and_says_so() {
    let env = fixture();
    for i in 0..10_050 {
        env.write(&format!("dist/gen/f{i}.js"), "");
    }
    let why = why_of(&env.json(&["glob", "dist/gen/*.js"]));
    assert!(!why.complete);
    assert!(why.count < 10_050, "{}", why.count);
    assert!(why.message.contains("at least"), "{}", why.message);
}

#[test]
fn a_line_break_in_a_grep_pattern_points_at_multiline() {
    let env = fixture();
    env.write("two.txt", "one\ntwo\n");
    let e = env
        .json(&["grep", "-F", "one\ntwo"])
        .err("invalid_pattern", 2)
        .failure()
        .error;
    assert_eq!(
        e.message,
        "invalid pattern: the pattern matches a line break, and a match spans lines only with -U"
    );
    assert_eq!(
        e.hint.as_deref(),
        Some("add -U (--multiline) to let a match span lines")
    );
    let out = env.text(&["grep", "one\\ntwo"]);
    out.exit(2)
        .stderr_has("hint: add -U to let a match span lines: `quill grep 'one\\ntwo' -U`\n");
    run_call(&env, &call_in(&out.stderr))
        .ok()
        .assert_stdout("two.txt:1:one\ntwo.txt:2:two\n");
    env.text(&["grep", "-U", "-F", "one\ntwo"])
        .ok()
        .assert_stdout("two.txt:1:one\ntwo.txt:2:two\n");
}

#[test]
fn a_name_that_is_not_utf8_still_makes_an_answer() {
    use std::os::unix::ffi::OsStrExt;
    let env = fixture();
    fs::write(
        env.dir.join(std::ffi::OsStr::from_bytes(b".bad\xffname")),
        "x",
    )
    .unwrap();
    let out = env.json(&["glob", ".bad*"]);
    let why = out.found_nothing().glob().why.unwrap();
    assert_eq!(
        why.examples,
        [format!("{}/.bad\u{fffd}name", env.dir.display())]
    );
    assert_eq!(why.flags, ["--hidden"]);
}

#[test]
fn a_regex_that_matches_only_as_a_fixed_string_says_add_f() {
    let env = TestEnv::new();
    env.write("q.sql", "select row_to_json(t) from t;\nselect 1;\n");
    env.write("r.sql", "-- row_to_json(t) again\n");
    // `(t)` is a group: the regex looks for `row_to_jsont`, which is nowhere.
    let out = env.text(&["grep", "row_to_json(t)", "."]);
    out.exit(1).assert_stdout("").assert_stderr(
        "quill: 0 matches; as a fixed string it matches 2 lines in 2 files — add -F: \
         `quill grep 'row_to_json(t)' . -F`\n",
    );
    run_call(&env, &call_in(&out.stderr))
        .ok()
        .stdout_has("q.sql:1:select row_to_json(t) from t;");
    let out = env.json(&["grep", "row_to_json(t)"]);
    out.found_nothing();
    let why = out.grep().why.expect("a why");
    assert_eq!(why.reason, "fixed");
    assert_eq!((why.count, why.complete), (2, true));
    assert_eq!(why.flags, ["-F"]);
    assert_eq!(
        why.call.as_deref(),
        Some("quill --json grep 'row_to_json(t)' -F")
    );
    // A pattern with no metacharacter, or -F already, has nothing to say.
    let out = env.json(&["grep", "absent_word"]);
    out.found_nothing();
    assert!(out.grep().why.is_none(), "{}", out.report());
    env.json(&["grep", "-F", "row_to_json(x)"]).found_nothing();
}

#[test]
fn gnu_alternation_is_named_when_it_would_match() {
    let env = TestEnv::new();
    env.write("a.txt", "alpha\nbeta\n");
    // In a Rust regex `\|` is a literal `|`: GNU grep's habit finds nothing.
    let out = env.text(&["grep", r"alpha\|beta", "a.txt"]);
    out.exit(1).assert_stderr(
        "quill: 0 matches; with `\\|` read as alternation (GNU grep's; here it is `|`), it \
         matches 2 lines in 1 file — search for 'alpha|beta': `quill grep 'alpha|beta' a.txt`\n",
    );
    run_call(&env, &call_in(&out.stderr))
        .ok()
        .assert_stdout("a.txt:1:alpha\na.txt:2:beta\n");
    let why = env
        .json(&["grep", r"alpha\|beta", "a.txt"])
        .grep()
        .why
        .unwrap();
    assert_eq!(why.reason, "rewritten");
    assert_eq!(why.pattern.as_deref(), Some("alpha|beta"));
}
