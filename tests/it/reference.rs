//! The reference in `docs/` cannot drift from the binary. Every command `quill --help` lists
//! has a page; every long flag a command's `--help` lists is named on that page (the global
//! options on the global options page), and so is every subcommand (`state show`); every
//! error kind — the exit-code table of `src/error/mod.rs`, which its unit test checks against
//! `Error::exit_code` — has its row and its section in `docs/errors.md` and its place in the
//! exit-code table of `docs/json.md`, and a few errors the binary really answers have the
//! exit code the pages give. No page links outside the repository or names the contract
//! quill was built from. This module only reads files and runs `--help`; it changes nothing.

use std::collections::BTreeSet;
use std::fs;
use std::path::{Component, Path, PathBuf};

use serde_json::Value;

use crate::util::*;

fn repo() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn page(rel: &str) -> String {
    fs::read_to_string(repo().join(rel)).unwrap_or_else(|e| {
        fail(&format!(
            "{rel} cannot be read ({e}): every command needs a page"
        ))
    })
}

/// The page that documents `command`'s flags and results.
fn page_of(command: &str) -> String {
    match command {
        "schema" | "tools" | "call" | "guide" => "docs/harness.md".into(),
        "mcp" => "docs/mcp.md".into(),
        c => format!("docs/commands/{c}.md"),
    }
}

const GLOBAL_PAGE: &str = "docs/commands/global.md";

/// The help of `quill ARGS… --help`, whatever its exit code says.
fn help(env: &TestEnv, args: &[&str]) -> String {
    let out = env.cmd(args).arg("--help").env_remove("QUILL_FORMAT").run();
    out.ok();
    out.stdout.clone()
}

/// The help split by its headings (`Options:`, `Global options:`, `Commands:`, …): each
/// heading with its lines.
fn sections(help: &str) -> Vec<(String, Vec<String>)> {
    let mut out: Vec<(String, Vec<String>)> = Vec::new();
    for line in help.lines() {
        let heading = !line.starts_with(' ') && line.ends_with(':') && !line.is_empty();
        if heading {
            out.push((line.trim_end_matches(':').to_string(), Vec::new()));
        } else if let Some((_, lines)) = out.last_mut() {
            lines.push(line.to_string());
        }
    }
    out
}

/// The long flags a section defines: the lines that start (indented at most 6) with `-`,
/// and on them the first word that starts with `--` (`-e, --regexp <PATTERN>` → `--regexp`).
/// Descriptions and possible values (`- mtime: …`) are indented further.
fn long_flags(lines: &[String]) -> Vec<String> {
    let mut flags = Vec::new();
    for line in lines {
        let indent = line.len() - line.trim_start().len();
        if indent > 6 || !line.trim_start().starts_with('-') {
            continue;
        }
        let long = line
            .split([' ', ',', '='])
            .find(|w| w.starts_with("--") && w.len() > 2);
        if let Some(flag) = long {
            flags.push(flag.to_string());
        }
    }
    flags
}

/// The names a `Commands:` section lists (`  read   Show a page…` → `read`), `help` left out.
fn command_names(lines: &[String]) -> Vec<String> {
    lines
        .iter()
        .filter(|l| l.starts_with("  ") && !l.starts_with("   "))
        .filter_map(|l| l.split_whitespace().next())
        .filter(|n| *n != "help")
        .map(str::to_string)
        .collect()
}

fn section<'a>(all: &'a [(String, Vec<String>)], name: &str) -> &'a [String] {
    all.iter()
        .find(|(h, _)| h == name)
        .map(|(_, l)| l.as_slice())
        .unwrap_or(&[])
}

/// `name` as the pages write a flag or a name: in backticks.
fn named(text: &str, name: &str) -> bool {
    text.contains(&format!("`{name}`"))
}

#[test]
fn every_flag_of_every_command_is_on_its_page() {
    let env = TestEnv::new();
    let top = sections(&help(&env, &[]));
    let commands = command_names(section(&top, "Commands"));
    assert!(
        commands.len() >= 10,
        "`quill --help` lists too few commands: {commands:?}"
    );
    let global = page(GLOBAL_PAGE);
    let mut missing = Vec::new();
    for flag in long_flags(section(&top, "Options")) {
        if !named(&global, &flag) {
            missing.push(format!("{GLOBAL_PAGE}: `{flag}` (quill --help)"));
        }
    }
    for command in &commands {
        let rel = page_of(command);
        let text = page(&rel);
        let own = sections(&help(&env, &[command]));
        for flag in long_flags(section(&own, "Options")) {
            // Every command has them; the global page says what they do.
            let (where_, text) = match flag.as_str() {
                "--help" | "--version" => (GLOBAL_PAGE, &global),
                _ => (rel.as_str(), &text),
            };
            if !named(text, &flag) {
                missing.push(format!("{where_}: `{flag}` (quill {command} --help)"));
            }
        }
        for flag in long_flags(section(&own, "Global options")) {
            if !named(&global, &flag) {
                missing.push(format!("{GLOBAL_PAGE}: `{flag}` (quill {command} --help)"));
            }
        }
        for sub in command_names(section(&own, "Commands")) {
            if !named(&text, &sub) {
                missing.push(format!("{rel}: `{sub}` (quill {command} --help)"));
            }
        }
    }
    if !missing.is_empty() {
        fail(&format!(
            "the reference does not name these (write each in backticks on its page):\n  {}",
            missing.join("\n  ")
        ));
    }
}

/// (exit code, kind) for every error kind: the table of `src/error/mod.rs`'s tests, which a unit
/// test there checks against `Error::exit_code` and the serde tag of every variant.
fn error_table() -> Vec<(u8, String)> {
    let src = page("src/error/mod.rs");
    let start = src
        .find("const TABLE")
        .unwrap_or_else(|| fail("src/error/mod.rs has no exit-code TABLE"));
    let end = src[start..].find("];").map_or(src.len(), |e| start + e);
    let mut code = None;
    let mut out = Vec::new();
    for line in src[start..end].lines() {
        // `(1, &["…"]),` or, as rustfmt breaks longer entries, `(` then `3,` on a line of its own.
        let line = line.trim();
        let rest = line.strip_prefix('(').unwrap_or(line);
        let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
        if !digits.is_empty() && rest[digits.len()..].starts_with(',') {
            code = digits.parse::<u8>().ok();
        }
        for (i, part) in line.split('"').enumerate() {
            if i % 2 == 1 {
                let c = code.unwrap_or_else(|| fail(&format!("{part}: no exit code before it")));
                out.push((c, part.to_string()));
            }
        }
    }
    assert!(
        out.len() >= 30,
        "too few kinds parsed from src/error/mod.rs: {out:?}"
    );
    out
}

/// The cells of a markdown table row (`| a | b |` → `["a", "b"]`).
fn cells(line: &str) -> Vec<String> {
    let line = line.trim();
    if !line.starts_with('|') {
        return Vec::new();
    }
    line.trim_matches('|')
        .split(" | ")
        .map(|c| c.trim().to_string())
        .collect()
}

#[test]
fn every_error_kind_is_in_the_reference_with_its_exit_code() {
    let errors = page("docs/errors.md");
    let json = page("docs/json.md");
    let exit_codes = json
        .split("\n## ")
        .find(|s| s.starts_with("Exit codes"))
        .unwrap_or_else(|| fail("docs/json.md has no \"## Exit codes\" section"));
    let mut wrong = Vec::new();
    for (code, kind) in error_table() {
        let code = code.to_string();
        // The summary table of errors.md: `| [`kind`](#kind) | code | fields |`.
        let row = errors.lines().map(cells).find(|c| {
            c.first()
                .is_some_and(|first| first.starts_with(&format!("[`{kind}`]")))
        });
        match row {
            None => wrong.push(format!("docs/errors.md: no table row for `{kind}`")),
            Some(c) if c.get(1) != Some(&code) => wrong.push(format!(
                "docs/errors.md: `{kind}` has exit {:?}, the code says {code}",
                c.get(1)
            )),
            Some(_) => {}
        }
        if !errors.contains(&format!("### `{kind}`\n")) {
            wrong.push(format!("docs/errors.md: no section `### `{kind}``"));
        }
        // The exit-code table of json.md: the kind in the row of its code, and in no other.
        let rows: Vec<String> = exit_codes
            .lines()
            .map(cells)
            .filter(|c| c.iter().skip(2).any(|k| named(k, &kind)))
            .map(|c| c[0].clone())
            .collect();
        if rows != [code.clone()] {
            wrong.push(format!(
                "docs/json.md: `{kind}` is in the exit-code rows {rows:?}, the code says {code}"
            ));
        }
    }
    if !wrong.is_empty() {
        fail(&wrong.join("\n"));
    }
}

/// The exit code docs/errors.md gives `kind`.
fn documented_exit(kind: &str) -> Option<i32> {
    let errors = page("docs/errors.md");
    errors
        .lines()
        .map(cells)
        .find(|c| {
            c.first()
                .is_some_and(|f| f.starts_with(&format!("[`{kind}`]")))
        })
        .and_then(|c| c.get(1).and_then(|code| code.parse().ok()))
}

/// The table parsed from the source is what the binary does: one real error of each exit
/// code, and (once `quill schema error` exists) every kind of the table in the schema of the
/// error object.
#[test]
fn the_binary_answers_with_the_documented_exit_codes() {
    let env = TestEnv::new();
    env.write("a.txt", "one\n");
    let runs: [(&str, &[&str]); 4] = [
        ("usage", &["frobnicate"]),
        ("offset_past_end", &["read", "a.txt", "--offset", "5"]),
        (
            "not_read",
            &["edit", "a.txt", "--old", "one", "--new", "two"],
        ),
        ("not_found", &["read", "missing.txt"]),
    ];
    for (kind, args) in runs {
        let code = documented_exit(kind)
            .unwrap_or_else(|| fail(&format!("docs/errors.md gives `{kind}` no exit code")));
        env.json(args).err(kind, code);
    }
    let schema = env.json(&["schema", "error"]);
    if schema.code != 0 {
        return; // no `quill schema` in this build yet
    }
    let mut kinds = BTreeSet::new();
    collect_kinds(&schema.json, &mut kinds);
    let missing: Vec<String> = error_table()
        .into_iter()
        .map(|(_, k)| k)
        .filter(|k| !kinds.contains(k))
        .collect();
    assert!(
        missing.is_empty(),
        "kinds of src/error/mod.rs missing from `quill schema error`: {missing:?}"
    );
}

/// Every string a `kind` property of a schema can take (`const` or `enum`), anywhere in it.
fn collect_kinds(v: &Value, out: &mut BTreeSet<String>) {
    match v {
        Value::Object(m) => {
            if let Some(kind) = m.get("properties").and_then(|p| p.get("kind")) {
                if let Some(s) = kind.get("const").and_then(Value::as_str) {
                    out.insert(s.to_string());
                }
                for s in kind
                    .get("enum")
                    .and_then(Value::as_array)
                    .into_iter()
                    .flatten()
                {
                    if let Some(s) = s.as_str() {
                        out.insert(s.to_string());
                    }
                }
            }
            m.values().for_each(|v| collect_kinds(v, out));
        }
        Value::Array(a) => a.iter().for_each(|v| collect_kinds(v, out)),
        _ => {}
    }
}

/// README.md and every page under docs/.
fn pages() -> Vec<PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        let Ok(entries) = fs::read_dir(dir) else {
            return;
        };
        for e in entries.flatten() {
            let p = e.path();
            if p.is_dir() {
                walk(&p, out);
            } else if p.extension().is_some_and(|x| x == "md") {
                out.push(p);
            }
        }
    }
    let mut out = vec![repo().join("README.md")];
    walk(&repo().join("docs"), &mut out);
    out.sort();
    out
}

#[test]
fn the_reference_stays_inside_the_repository() {
    let mut wrong = Vec::new();
    for path in pages() {
        let rel = path.strip_prefix(repo()).unwrap_or(&path).to_path_buf();
        let text = fs::read_to_string(&path).unwrap_or_default();
        if text.contains("SPEC") || text.contains("../shared") {
            wrong.push(format!(
                "{}: names a document outside the repository",
                rel.display()
            ));
        }
        // Every markdown link: `](target)`.
        for (i, _) in text.match_indices("](") {
            let target: String = text[i + 2..].chars().take_while(|c| *c != ')').collect();
            let target = target.split('#').next().unwrap_or_default();
            if target.is_empty() {
                continue;
            }
            if target.contains("://") {
                wrong.push(format!("{}: links outside: {target}", rel.display()));
                continue;
            }
            // Relative to the page; it must not climb out of the repository.
            let mut depth: i32 = 0;
            let base = rel.parent().map(Path::to_path_buf).unwrap_or_default();
            for c in base.join(target).components() {
                match c {
                    Component::ParentDir => depth -= 1,
                    Component::Normal(_) => depth += 1,
                    Component::RootDir | Component::Prefix(_) => depth = -1000,
                    Component::CurDir => {}
                }
                if depth < 0 {
                    wrong.push(format!("{}: links outside: {target}", rel.display()));
                    break;
                }
            }
        }
    }
    if !wrong.is_empty() {
        fail(&wrong.join("\n"));
    }
}

/// The code, the tests, the benchmarks and the schema cite the reference in `docs/`, never a
/// contract document outside the repository.
#[test]
fn no_source_names_a_document_outside_the_repository() {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        for e in fs::read_dir(dir).into_iter().flatten().flatten() {
            let p = e.path();
            if p.is_dir() {
                walk(&p, out);
            } else {
                out.push(p);
            }
        }
    }
    let mut files = Vec::new();
    for dir in [
        "src",
        "tests",
        "bench",
        "scripts",
        "schema",
        "man",
        "completions",
    ] {
        walk(&repo().join(dir), &mut files);
    }
    let this = Path::new(file!()).file_name().unwrap_or_default();
    let mut wrong = Vec::new();
    for path in files {
        if path.file_name() == Some(this) {
            continue;
        }
        let text = fs::read_to_string(&path).unwrap_or_default();
        let spec = ["SPEC", " §"].concat();
        let shared = ["..", "/shared"].concat();
        if text.contains(&spec) || text.contains(&shared) {
            wrong.push(path.display().to_string());
        }
    }
    assert!(wrong.is_empty(), "cite docs/ instead: {wrong:?}");
}

/// Every key the schema of a command's answer names (at any depth) is named on its reference
/// page, or on the page it points to for the keys it shares: a field added to a report type
/// must be documented before the suite passes. `<key>Bytes` siblings are documented once, in
/// names.md; the envelope's keys in json.md.
#[test]
fn every_result_key_of_the_schema_is_on_its_page() {
    fn keys(v: &Value, out: &mut BTreeSet<String>) {
        match v {
            Value::Object(o) => {
                for (k, x) in o {
                    if k == "properties"
                        && let Value::Object(props) = x
                    {
                        for (name, sub) in props {
                            out.insert(name.clone());
                            keys(sub, out);
                        }
                    } else {
                        keys(x, out);
                    }
                }
            }
            Value::Array(a) => a.iter().for_each(|x| keys(x, out)),
            _ => {}
        }
    }
    let docs = repo().join("docs");
    let page = |p: &str| fs::read_to_string(docs.join(p)).unwrap_or_default();
    let envelope = page("json.md");
    const MUTATION: &[&str] = &["commands/write.md", "commands/edit.md", "commands/undo.md"];
    let mut missing = Vec::new();
    for (op, pages) in [
        ("read", &["commands/read.md"][..]),
        // write, edit and undo answer with one type; edit's own keys are on edit's page.
        ("write", MUTATION),
        ("edit", MUTATION),
        ("undo", MUTATION),
        // rm answers with the same type; its own page names what it sets.
        (
            "rm",
            &["commands/rm.md", "commands/write.md", "commands/edit.md"],
        ),
        ("glob", &["commands/glob.md", "commands/grep.md"]),
        ("grep", &["commands/grep.md"]),
        ("transfer", &["commands/transfer.md"]),
        ("state", &["commands/state.md"]),
    ] {
        let schema: Value = serde_json::from_str(
            &fs::read_to_string(repo().join(format!("schema/{op}.json"))).unwrap(),
        )
        .unwrap();
        let mut names = BTreeSet::new();
        keys(&schema, &mut names);
        let text: String = pages.iter().map(|p| page(p)).collect();
        // The words inside code spans: `fileAccess.path`, `{startLine, endLine}`, `types`.
        let words: BTreeSet<&str> = text
            .split('`')
            .skip(1)
            .step_by(2)
            .flat_map(|span| span.split(|c: char| !c.is_ascii_alphanumeric()))
            .collect();
        for name in names {
            let named = words.contains(name.as_str())
                || (name.ends_with("Bytes") && page("names.md").contains("Bytes"))
                || envelope.contains(&format!("`{name}`"));
            if !named {
                missing.push(format!("{op}: `{name}`"));
            }
        }
    }
    assert!(
        missing.is_empty(),
        "keys of schema/ that docs/commands/ does not name: {missing:?}"
    );
}

/// A failure's `op` may be any command `quill --help` lists (or null): a new subcommand must
/// join the error schema's list, else its failures would not validate.
#[test]
fn the_error_schema_knows_every_command() {
    let env = TestEnv::new();
    let top = sections(&help(&env, &[]));
    let mut commands: BTreeSet<String> = command_names(section(&top, "Commands"))
        .into_iter()
        .collect();
    commands.insert("null".into());
    let schema: Value =
        serde_json::from_str(&fs::read_to_string(repo().join("schema/error.json")).unwrap())
            .unwrap();
    let ops: BTreeSet<String> = schema["properties"]["op"]["enum"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap_or("null").to_string())
        .collect();
    assert!(commands.len() > 10, "{commands:?}");
    assert_eq!(ops, commands);
}
