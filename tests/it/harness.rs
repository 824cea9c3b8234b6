//! What a harness loads: `quill tools` (the definitions' shapes, their schemas against the
//! examples their descriptions give and against the flags `--help` lists), `quill call`
//! (agreeing with the command line on a table of calls — the same JSON, the same bytes on
//! disk — and refusing malformed requests with `usage`), and `quill guide` (its size).

use std::collections::BTreeMap;
use std::fs;
use std::path::Path;

use serde_json::{Value, json};

use crate::util::*;

const TOOLS: [&str; 10] = [
    "read", "write", "edit", "apply", "glob", "grep", "transfer", "undo", "rm", "state",
];

/// The flags `--help` lists that a tool's schema leaves out on purpose: text output only,
/// stderr only, or standard input (which carries `quill call`'s request).
const NOT_SHOWN: [(&str, &str); 12] = [
    ("write", "stdin"),
    ("glob", "null"),
    ("grep", "null"),
    ("grep", "heading"),
    ("grep", "no-heading"),
    ("grep", "with-filename"),
    ("grep", "no-filename"),
    ("grep", "line-number"),
    ("grep", "no-line-number"),
    ("transfer", "progress"),
    // Commands to run: the server's environment chooses them, never a call.
    ("transfer", "rsh"),
    ("transfer", "remote-quill"),
];

fn tools(env: &TestEnv, format: &str) -> Vec<Value> {
    let out = env.text(&["tools", "--format", format]);
    out.ok();
    match serde_json::from_str(&out.stdout) {
        Ok(Value::Array(list)) => list,
        _ => out.fail("not a JSON array"),
    }
}

fn camel(kebab: &str) -> String {
    let mut out = String::new();
    let mut up = false;
    for c in kebab.chars() {
        if c == '-' {
            up = true;
        } else if up {
            out.extend(c.to_uppercase());
            up = false;
        } else {
            out.push(c);
        }
    }
    out
}

/// Every `{…}` JSON object written in a description.
fn examples(description: &str) -> Vec<Value> {
    let mut found = Vec::new();
    let mut rest = description;
    while let Some(at) = rest.find("{\"") {
        let mut stream = serde_json::Deserializer::from_str(&rest[at..]).into_iter::<Value>();
        match stream.next() {
            Some(Ok(v)) => {
                found.push(v);
                rest = &rest[at + stream.byte_offset()..];
            }
            _ => rest = &rest[at + 2..],
        }
    }
    found
}

#[test]
fn the_three_formats_have_their_providers_shapes() {
    let env = TestEnv::new();
    let names: Vec<String> = TOOLS.iter().map(|t| format!("quill_{t}")).collect();
    let openai = tools(&env, "openai");
    let anthropic = tools(&env, "anthropic");
    let own = tools(&env, "json");
    for (i, t) in openai.iter().enumerate() {
        assert_eq!(t["type"], "function");
        let f = &t["function"];
        assert_eq!(f["name"], names[i].as_str());
        assert!(f["description"].as_str().is_some_and(|d| d.len() > 200));
        assert_eq!(f["parameters"]["type"], "object");
        assert_eq!(t.as_object().unwrap().len(), 2, "{t}");
        assert_eq!(f.as_object().unwrap().len(), 3, "{f}");
    }
    for (i, t) in anthropic.iter().enumerate() {
        let keys: Vec<&String> = t.as_object().unwrap().keys().collect();
        assert_eq!(keys, ["name", "description", "input_schema"]);
        assert_eq!(t["name"], names[i].as_str());
        assert_eq!(t["input_schema"], openai[i]["function"]["parameters"]);
        assert_eq!(t["description"], openai[i]["function"]["description"]);
    }
    for (i, t) in own.iter().enumerate() {
        let keys: Vec<&String> = t.as_object().unwrap().keys().collect();
        assert_eq!(
            keys,
            ["name", "op", "description", "inputSchema", "annotations"]
        );
        assert_eq!(t["op"], TOOLS[i]);
        // MCP's hints, as `quill mcp` serves them: only the json format has them.
        let read_only = ["read", "glob", "grep", "state"].contains(&TOOLS[i]);
        assert_eq!(t["annotations"]["readOnlyHint"], read_only, "{t}");
        // Only transfer reaches beyond this machine (`host:path`).
        let open_world = TOOLS[i] == "transfer";
        assert_eq!(t["annotations"]["openWorldHint"], open_world, "{t}");
        assert_eq!(t["inputSchema"], openai[i]["function"]["parameters"]);
    }
    assert_eq!(openai.len(), TOOLS.len());
    assert_eq!(anthropic.len(), TOOLS.len());
    // The default is quill's own list.
    let out = env.text(&["tools"]);
    out.ok();
    assert_eq!(
        serde_json::from_str::<Value>(&out.stdout).unwrap(),
        json!(own)
    );
}

#[test]
fn every_schema_accepts_the_examples_in_its_description_and_so_does_call() {
    let env = TestEnv::new();
    for t in tools(&env, "json") {
        let schema = &t["inputSchema"];
        let validator = jsonschema::validator_for(schema)
            .unwrap_or_else(|e| panic!("{}: not a valid schema: {e}", t["name"]));
        let given = examples(t["description"].as_str().unwrap());
        assert!(!given.is_empty(), "{}: no example", t["name"]);
        for example in &given {
            let errors: Vec<String> = validator
                .iter_errors(example)
                .map(|e| e.to_string())
                .collect();
            assert!(
                errors.is_empty(),
                "{}: {example} fails: {errors:?}",
                t["name"]
            );
            // `quill call` takes it too: whatever the files make of it, never `usage`.
            let request = json!({"tool": t["name"], "arguments": example}).to_string();
            let out = env.cmd(["call"]).stdin(request).run();
            assert_one_json_object(&out.stdout);
            assert_eq!(out.j("op"), &t["op"]);
            if out.j("ok") == false {
                let kind = &out.json["error"]["kind"];
                out.check(kind != "usage", format!("{example}: usage"));
            }
        }
        // The schema can say no: an unknown key, a mistyped value.
        assert!(!validator.is_valid(&json!({"bogus": 1})), "{}", t["name"]);
    }
    let read = &tools(&env, "json")[0]["inputSchema"];
    let v = jsonschema::validator_for(read).unwrap();
    assert!(!v.is_valid(&json!({"limit": 3})), "path is required");
    assert!(!v.is_valid(&json!({"path": "a", "limit": "3"})));
}

/// The options and arguments `quill OP --help` lists (not the global ones): long flag
/// names, and positionals as `<NAME>` lowercased.
fn help_names(env: &TestEnv, op: &str) -> Vec<String> {
    let out = env.text(&[op, "--help"]);
    out.ok();
    let mut names = Vec::new();
    let mut section = "";
    for line in out.stdout.lines() {
        if !line.starts_with(' ') && line.ends_with(':') {
            section = line;
            continue;
        }
        let word = line.trim_start();
        match section {
            "Arguments:" if word.starts_with('[') || word.starts_with('<') => {
                let name = word[1..].split(['>', ']']).next().unwrap();
                names.push(name.trim_end_matches("...").to_lowercase());
            }
            "Options:" => {
                if let Some(at) = word.find("--") {
                    let name: String = word[at + 2..]
                        .chars()
                        .take_while(|c| c.is_ascii_alphanumeric() || *c == '-')
                        .collect();
                    if !["help", "version", ""].contains(&name.as_str()) {
                        names.push(name);
                    }
                }
            }
            // A subcommand's own subcommands (state's show, forget PATH, clear) are its
            // `action`, and forget's PATH its `path`.
            "Commands:" if !names.contains(&"action".to_string()) => {
                names.extend(["action".to_string(), "path".to_string()]);
            }
            _ => {}
        }
    }
    names
}

#[test]
fn every_flag_of_each_command_is_in_its_schema() {
    let env = TestEnv::new();
    for (t, op) in tools(&env, "json").iter().zip(TOOLS) {
        let props = t["inputSchema"]["properties"].as_object().unwrap();
        let names = help_names(&env, op);
        assert!(names.len() >= 2, "{op}: {names:?}");
        for name in &names {
            let key = camel(name);
            let left_out = NOT_SHOWN.contains(&(op, name.as_str()));
            assert_eq!(
                props.contains_key(&key),
                !left_out,
                "{op}: --{name} ({key}) in the schema: {}",
                !left_out
            );
        }
        // And nothing else: no global option, no property without its flag.
        for key in props.keys() {
            assert!(
                names.iter().any(|n| camel(n) == *key),
                "{op}: {key} is no flag of --help"
            );
        }
        for global in ["session", "stateDir", "root", "readOnly", "strict", "json"] {
            assert!(!props.contains_key(global), "{op}: {global}");
        }
    }
    // Types follow the flags: a switch is a boolean, a count an integer, a repeatable flag
    // an array, a closed set of values an enum, a default is the CLI's.
    let grep = &tools(&env, "json")[5]["inputSchema"]["properties"];
    assert_eq!(grep["ignoreCase"]["type"], "boolean");
    assert_eq!(grep["context"]["type"], "integer");
    assert_eq!(grep["glob"]["type"], "array");
    assert_eq!(grep["mode"]["enum"], json!(["content", "files", "count"]));
    assert_eq!(grep["maxColumns"]["default"], 500);
    let edit = &tools(&env, "json")[2]["inputSchema"];
    assert_eq!(edit["required"], json!(["path"]));
    assert_eq!(
        edit["properties"]["edits"]["items"]["required"],
        json!(["old", "new"])
    );
}

/// One row of the table: the files, the commands run first (in both, as they are), then the
/// same call typed (`cli`, with `stdin`) and as JSON (`call`), both under `globals`.
struct Case {
    name: &'static str,
    files: &'static [(&'static str, &'static str)],
    globals: &'static [&'static str],
    before: &'static [&'static [&'static str]],
    cli: &'static [&'static str],
    stdin: Option<&'static str>,
    call: &'static str,
}

const CASES: &[Case] = &[
    Case {
        name: "read",
        files: &[("a.txt", "one\ntwo\nthree\n")],
        globals: &[],
        before: &[],
        cli: &["read", "a.txt", "--limit", "2"],
        stdin: None,
        call: r#"{"tool": "quill_read", "arguments": {"path": "a.txt", "limit": 2}}"#,
    },
    Case {
        name: "write with content",
        files: &[],
        globals: &[],
        before: &[],
        cli: &["write", "d/new.txt", "--content", "hi\nthere\n"],
        stdin: None,
        call: r#"{"tool": "write", "arguments": {"path": "d/new.txt", "content": "hi\nthere\n"}}"#,
    },
    Case {
        name: "write a text that looks like a flag",
        files: &[],
        globals: &[],
        before: &[],
        cli: &["write", "n.txt", "--content=--dry-run"],
        stdin: None,
        call: r#"{"tool": "write", "arguments": {"path": "n.txt", "content": "--dry-run"}}"#,
    },
    Case {
        name: "edit",
        files: &[("a.txt", "one\ntwo\nthree\n")],
        globals: &["--session", "s1"],
        before: &[&["--session", "s1", "read", "a.txt"]],
        cli: &["edit", "a.txt", "--old", "two", "--new", "2"],
        stdin: None,
        call: r#"{"tool": "quill_edit", "arguments": {"path": "a.txt", "old": "two", "new": "2"}}"#,
    },
    Case {
        name: "edit with an edits array",
        files: &[("a.txt", "one\ntwo\none\n")],
        globals: &[],
        before: &[&["read", "a.txt"]],
        cli: &["edit", "a.txt", "--edits", "-"],
        stdin: Some(
            r#"[{"old": "one", "new": "1", "replaceAll": true}, {"old": "two", "new": "2"}]"#,
        ),
        call: r#"{"tool": "edit", "arguments": {"path": "a.txt", "edits": [{"old": "one", "new": "1", "replace_all": true}, {"old_string": "two", "new": "2"}]}}"#,
    },
    Case {
        name: "alias keys",
        files: &[("a.txt", "one\ntwo\n")],
        globals: &[],
        before: &[&["read", "a.txt"]],
        cli: &[
            "edit",
            "--file-path",
            "a.txt",
            "--old-string",
            "one",
            "--new-string",
            "1",
            "--expected-replacements",
            "1",
        ],
        stdin: None,
        call: r#"{"tool": "edit", "arguments": {"file_path": "a.txt", "old_string": "one", "newString": "1", "expected_replacements": 1, "dry-run": false}}"#,
    },
    Case {
        name: "glob",
        files: &[("a.txt", "a"), ("s/b.txt", "b"), ("s/c.md", "c")],
        globals: &[],
        before: &[],
        cli: &["glob", "**/*.txt", "--sort", "path"],
        stdin: None,
        call: r#"{"tool": "glob", "arguments": {"pattern": "**/*.txt", "sort": "path", "limit": null}}"#,
    },
    Case {
        name: "grep without paths searches the directory, not the spent stdin",
        files: &[
            ("a.txt", "One\ntwo\n"),
            ("s/b.txt", "zero\n"),
            ("c.md", "one\n"),
        ],
        globals: &[],
        before: &[],
        cli: &["grep", "o", "-i", "--glob", "*.txt", "-C", "1"],
        stdin: None,
        call: r#"{"tool": "grep", "arguments": {"pattern": "o", "ignoreCase": true, "glob": ["*.txt"], "context": 1}}"#,
    },
    Case {
        name: "grep with -e patterns and paths",
        files: &[("s/a.txt", "-x\ny\n"), ("t/b.txt", "-x\n")],
        globals: &[],
        before: &[],
        cli: &["grep", "-e", "-x", "-e", "y", "s"],
        stdin: None,
        call: r#"{"tool": "grep", "arguments": {"regexp": ["-x", "y"], "paths": ["s"]}}"#,
    },
    Case {
        name: "transfer",
        files: &[("a.txt", "data\n"), ("dist/.keep", "")],
        globals: &[],
        before: &[],
        cli: &["transfer", "a.txt", "dist/", "--move"],
        stdin: None,
        call: r#"{"tool": "transfer", "arguments": {"source": "a.txt", "destination": "dist/", "move": true}}"#,
    },
    Case {
        name: "undo",
        files: &[("a.txt", "one\n")],
        globals: &[],
        before: &[
            &["read", "a.txt"],
            &["edit", "a.txt", "--old", "one", "--new", "1"],
        ],
        cli: &["undo", "a.txt"],
        stdin: None,
        call: r#"{"tool": "undo", "arguments": {"path": "a.txt"}}"#,
    },
    Case {
        name: "rm",
        files: &[("a.txt", "one\n")],
        globals: &[],
        before: &[&["read", "a.txt"]],
        cli: &["rm", "a.txt"],
        stdin: None,
        call: r#"{"tool": "rm", "arguments": {"path": "a.txt"}}"#,
    },
    Case {
        name: "an edit without a read is refused",
        files: &[("a.txt", "one\n")],
        globals: &[],
        before: &[],
        cli: &["edit", "a.txt", "--old", "one", "--new", "1"],
        stdin: None,
        call: r#"{"tool": "edit", "arguments": {"path": "a.txt", "old": "one", "new": "1"}}"#,
    },
    Case {
        name: "an edit in another session is refused",
        files: &[("a.txt", "one\n")],
        globals: &["--session", "other"],
        before: &[&["--session", "s1", "read", "a.txt"]],
        cli: &["edit", "a.txt", "--old", "one", "--new", "1"],
        stdin: None,
        call: r#"{"tool": "edit", "arguments": {"path": "a.txt", "old": "one", "new": "1"}}"#,
    },
    Case {
        name: "an edit that misses",
        files: &[("a.txt", "one\n")],
        globals: &[],
        before: &[&["read", "a.txt"]],
        cli: &["edit", "a.txt", "--old", "once", "--new", "1"],
        stdin: None,
        call: r#"{"tool": "edit", "arguments": {"path": "a.txt", "old": "once", "new": "1"}}"#,
    },
    Case {
        name: "the root confines the call",
        files: &[("a.txt", "one\n"), ("sub/b.txt", "b\n")],
        globals: &["--root", "sub"],
        before: &[],
        cli: &["read", "a.txt"],
        stdin: None,
        call: r#"{"tool": "read", "arguments": {"path": "a.txt"}}"#,
    },
];

/// The work directory's files and their bytes.
fn tree(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    fn walk(base: &Path, dir: &Path, out: &mut BTreeMap<String, Vec<u8>>) {
        for e in fs::read_dir(dir).unwrap() {
            let p = e.unwrap().path();
            let rel = p.strip_prefix(base).unwrap().to_string_lossy().into_owned();
            if p.is_dir() {
                out.insert(format!("{rel}/"), Vec::new());
                walk(base, &p, out);
            } else {
                out.insert(rel, fs::read(&p).unwrap());
            }
        }
    }
    let mut out = BTreeMap::new();
    walk(dir, dir, &mut out);
    out
}

/// The answer with the test directory's own path replaced, so two directories compare.
fn neutral(out: &Out, env: &TestEnv) -> Value {
    assert_one_json_object(&out.stdout);
    let text = out.stdout.replace(env.base.to_str().unwrap(), "<BASE>");
    serde_json::from_str(&text).unwrap()
}

fn prepared(case: &Case) -> TestEnv {
    let env = TestEnv::new();
    for (rel, text) in case.files {
        env.write(rel, text);
    }
    for step in case.before {
        let out = env.cmd(["--json"]).args(*step).run();
        out.check(
            out.code == 0,
            format!("{}: a step before failed", case.name),
        );
    }
    env
}

#[test]
fn call_agrees_with_the_cli() {
    for case in CASES {
        let typed = prepared(case);
        let mut run = typed.cmd(case.globals).arg("--json").args(case.cli);
        if let Some(stdin) = case.stdin {
            run = run.stdin(stdin);
        }
        let cli = run.run();
        let called = prepared(case);
        let call = called.cmd(case.globals).arg("call").stdin(case.call).run();
        assert_eq!(call.code, cli.code, "{}: exit codes", case.name);
        assert_eq!(
            neutral(&call, &called),
            neutral(&cli, &typed),
            "{}: the answers differ",
            case.name
        );
        assert_eq!(
            tree(&called.dir),
            tree(&typed.dir),
            "{}: the files differ",
            case.name
        );
    }
}

#[test]
fn a_result_op_is_the_tools_and_globals_may_follow_call() {
    let env = TestEnv::new();
    env.write("a.txt", "one\n");
    let out = env
        .cmd(["call", "--session", "s9"])
        .stdin(r#"{"name": "quill_read", "arguments": "{\"path\": \"a.txt\"}"}"#)
        .run();
    out.ok();
    assert_eq!(out.j("op"), "read");
    // Anthropic's tool_use block as it is: the read was recorded in session s9.
    let out = env
        .cmd(["--session", "s9", "call"])
        .stdin(r#"{"type": "tool_use", "id": "toolu_1", "name": "quill_edit", "input": {"path": "a.txt", "old": "one", "new": "1"}}"#)
        .run();
    out.ok();
    env.assert_file("a.txt", "1\n");
    // `--text` does not apply: the answer is JSON.
    let out = env
        .cmd(["--text", "call"])
        .stdin(r#"{"tool": "glob", "arguments": {"pattern": "*.txt"}}"#)
        .run();
    out.ok();
    assert_eq!(out.j("op"), "glob");
}

/// A refused request: exit 2, kind `usage`, `op` as given, a hint; nothing written.
fn refused(env: &TestEnv, request: impl AsRef<[u8]>, op: &str) -> Failure {
    let out = env.cmd(["call"]).stdin(request).run();
    out.exit(2);
    assert_one_json_object(&out.stdout);
    assert_eq!(out.j("ok"), false);
    assert_eq!(out.j("op"), op, "{}", out.report());
    let f = out.failure();
    assert_eq!(f.error.kind, "usage", "{}", out.report());
    assert!(
        out.json["error"]["hint"]
            .as_str()
            .is_some_and(|h| !h.is_empty()),
        "{}",
        out.report()
    );
    f
}

#[test]
fn malformed_requests_are_usage_with_the_fix() {
    let env = TestEnv::new();
    env.write("a.txt", "one\n");
    let hint = |f: &Failure| f.error.hint.clone().unwrap_or_default();
    let f = refused(&env, "read a.txt", "call");
    assert!(
        hint(&f).contains(r#"{"tool": "quill_read""#),
        "{}",
        hint(&f)
    );
    refused(&env, "[1, 2]", "call");
    refused(&env, r#""quill_read""#, "call");
    refused(&env, "", "call");
    refused(&env, r#"{"arguments": {"path": "a.txt"}}"#, "call");
    refused(&env, r#"{"tool": 7}"#, "call");
    refused(&env, r#"{"tool": "read", "args": {}}"#, "call");
    let out = env.cmd(["call"]).stdin(r#"{"tool": "quill_raed"}"#).run();
    out.err("usage", 2);
    assert_eq!(out.j("op"), "call");
    assert_eq!(out.json["error"]["suggestion"], "quill_read");
    assert!(
        out.json["error"]["hint"]
            .as_str()
            .unwrap()
            .contains("quill_undo")
    );
    // Known tool: the op is the tool's.
    let f = refused(
        &env,
        r#"{"tool": "edit", "arguments": {"path": "a.txt", "old_text": "one", "new": "1"}}"#,
        "edit",
    );
    let out = env
        .cmd(["call"])
        .stdin(r#"{"tool": "edit", "arguments": {"path": "a.txt", "old_text": "one", "new": "1"}}"#)
        .run();
    assert_eq!(out.json["error"]["suggestion"], "old");
    assert_eq!(out.json["error"]["argument"], "old_text");
    assert!(hint(&f).contains("`old`"), "{}", hint(&f));
    let f = refused(
        &env,
        r#"{"tool": "read", "arguments": {"path": "a.txt", "limt": 3}}"#,
        "read",
    );
    assert!(hint(&f).contains("`limit`"), "{}", hint(&f));
    let f = refused(
        &env,
        r#"{"tool": "read", "arguments": {"path": "a.txt", "limit": "ten"}}"#,
        "read",
    );
    assert!(hint(&f).contains(r#""limit": 10"#), "{}", hint(&f));
    refused(
        &env,
        r#"{"tool": "read", "arguments": {"path": 3}}"#,
        "read",
    );
    refused(
        &env,
        r#"{"tool": "read", "arguments": {"path": "a.txt", "limit": 1.5}}"#,
        "read",
    );
    refused(
        &env,
        r#"{"tool": "edit", "arguments": {"path": "a.txt", "replaceAll": "yes"}}"#,
        "edit",
    );
    refused(
        &env,
        r#"{"tool": "glob", "arguments": {"pattern": "*", "sort": "size"}}"#,
        "glob",
    );
    refused(&env, r#"{"tool": "read", "arguments": [1]}"#, "read");
    refused(
        &env,
        r#"{"tool": "read", "arguments": {"path": "a.txt", "file_path": "a.txt"}}"#,
        "read",
    );
    refused(
        &env,
        r#"{"tool": "grep", "arguments": {"paths": ["."]}}"#,
        "grep",
    );
    // What the CLI would take from stdin: stdin carried the call.
    refused(
        &env,
        r#"{"tool": "write", "arguments": {"path": "b.txt", "stdin": true}}"#,
        "write",
    );
    refused(
        &env,
        r#"{"tool": "write", "arguments": {"path": "b.txt", "from": "-"}}"#,
        "write",
    );
    refused(
        &env,
        r#"{"tool": "edit", "arguments": {"path": "a.txt", "edits": "-"}}"#,
        "edit",
    );
    refused(
        &env,
        r#"{"tool": "read", "arguments": {"path": "-"}}"#,
        "read",
    );
    refused(
        &env,
        r#"{"tool": "grep", "arguments": {"pattern": "x", "paths": ["-"]}}"#,
        "grep",
    );
    // What the CLI's parser refuses, the call's run refuses the same way.
    let out = env
        .cmd(["call"])
        .stdin(r#"{"tool": "read", "arguments": {"path": "a.txt", "offset": 1, "limit": 1, "viewRange": "1,2"}}"#)
        .run();
    out.err("usage", 2);
    assert_eq!(out.j("op"), "read");
    assert!(!exists(&env.path("b.txt")));
    env.assert_file("a.txt", "one\n");
}

#[test]
fn an_edits_array_sent_as_a_string_is_the_array() {
    let env = TestEnv::new();
    env.write("a.txt", "one\ntwo\n");
    env.json(&["read", "a.txt"]).ok();
    let out = env
        .cmd(["call"])
        .stdin(r#"{"tool": "edit", "arguments": {"path": "a.txt", "edits": "[{\"old\": \"two\", \"new\": \"2\"}]"}}"#)
        .run();
    out.ok();
    env.assert_file("a.txt", "one\n2\n");
    // A wrong edit inside the array is edit's own refusal, all or nothing.
    let out = env
        .cmd(["call"])
        .stdin(r#"{"tool": "edit", "arguments": {"path": "a.txt", "edits": [{"old": "one", "new": "1"}, {"old": "one", "neu": "x"}]}}"#)
        .run();
    out.err("invalid_argument", 2);
    env.assert_file("a.txt", "one\n2\n");
}

#[test]
fn a_huge_request_is_refused_at_its_cap() {
    let env = TestEnv::new();
    let mut big =
        b"{\"tool\": \"write\", \"arguments\": {\"path\": \"big.txt\", \"content\": \"".to_vec();
    big.resize(64 * 1024 * 1024 + 1, b'x');
    big.extend_from_slice(b"\"}}");
    let f = refused(&env, &big, "call");
    assert!(
        f.error.message.contains("67108864 bytes"),
        "{}",
        f.error.message
    );
    assert!(!exists(&env.path("big.txt")));
}

#[test]
fn the_guide_fits_a_system_prompt() {
    let env = TestEnv::new();
    let out = env.text(&["guide"]);
    out.ok();
    let text = &out.stdout;
    let by_chars = text.chars().count() / 4;
    let by_words = text.split_whitespace().count() * 14 / 10;
    assert!(by_chars <= 1500, "{by_chars} tokens by characters");
    assert!(by_words <= 1500, "{by_words} tokens by words");
    for needle in [
        "quill read",
        "--offset",
        "--json",
        "exactly once",
        "line number",
        "not_read",
        "stale",
        "edit_no_match",
        "edit_ambiguous",
        "already_applied",
        "offset_past_end",
        "line_too_long",
    ] {
        assert!(text.contains(needle), "the guide lacks {needle:?}");
    }
    // Text, whatever the format asked.
    let json = env.json(&["guide"]);
    json.exit(0);
    assert_eq!(json.stdout, *text);
}

/// The model cannot widen what the harness allowed: a global option is no argument, and a
/// value that looks like one is a value.
#[test]
fn the_arguments_cannot_set_a_global_option() {
    let env = TestEnv::new();
    env.write("sub/a.txt", "one\n");
    env.write("secret.txt", "s\n");
    for key in [
        "root",
        "session",
        "stateDir",
        "read_only",
        "strict",
        "lockTimeout",
        "json",
    ] {
        let request = json!({"tool": "read", "arguments": {"path": "a.txt", key: true}});
        let f = refused(&env, request.to_string(), "read");
        assert_eq!(f.error.fields["argument"], key);
    }
    // Confined to sub/: a path that spells a global flag is a path (inside the root, missing).
    let out = env
        .cmd(["--root"])
        .arg(env.path("sub"))
        .arg("call")
        .current_dir(env.path("sub"))
        .stdin(r#"{"tool": "read", "arguments": {"path": "--root=/"}}"#)
        .run();
    out.err("not_found", 4);
    assert!(
        out.json["error"]["path"]
            .as_str()
            .unwrap()
            .ends_with("sub/--root="),
        "{}",
        out.report()
    );
    let out = env
        .cmd(["--root"])
        .arg(env.path("sub"))
        .arg("call")
        .current_dir(env.path("sub"))
        .stdin(r#"{"tool": "read", "arguments": {"path": "../secret.txt"}}"#)
        .run();
    out.err("outside_root", 3);
    // Read-only from call's command line holds for the call.
    let out = env
        .cmd(["--read-only", "call"])
        .stdin(r#"{"tool": "write", "arguments": {"path": "new.txt", "content": "x"}}"#)
        .run();
    out.err("read_only", 3);
    assert!(!exists(&env.path("new.txt")));
}

/// A call cannot name the command a transfer runs to reach another machine: `rsh` and
/// `remoteQuill` are the server's to choose (its environment), and `serve` is the far side's.
#[test]
fn a_call_cannot_choose_the_command_a_transfer_runs() {
    let env = TestEnv::new();
    env.write("a.txt", "a\n");
    for (key, value) in [
        ("rsh", "sh -c 'touch pwned' x"),
        ("remoteQuill", "touch pwned"),
        ("serve", "1"),
    ] {
        let call = format!(
            r#"{{"tool": "transfer", "arguments": {{"source": "a.txt", "destination": "h:b", "{key}": "{value}"}}}}"#
        );
        let out = env.cmd(["call"]).stdin(call).run();
        out.err("usage", 2);
        assert!(!env.path("pwned").exists(), "{key}");
    }
}
