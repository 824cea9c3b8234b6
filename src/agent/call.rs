//! `quill call`: one tool call as a JSON object on stdin — `{"tool": NAME, "arguments":
//! {...}}` — turned into the command line the CLI would get, which `app` then parses and runs
//! exactly as a typed one (same parse, resolve, guards and JSON answer). This module only
//! reads and checks the request and builds the words; it never runs a command.
//!
//! - Each key names a param of the tool (`harness::params`), in any spelling (`replaceAll`,
//!   `replace_all`, `replace-all`) and by any alias the CLI takes (`old_string`, `file_path`);
//!   a value becomes `--flag=VALUE` (one word, so a text that looks like a flag is the text),
//!   a flag `true` becomes `--flag`, positionals follow `--`. `null` is the same as leaving
//!   the key out. A value of the wrong JSON type, an unknown key or tool, or a malformed
//!   request is `usage`, with the fix in the hint.
//! - Standard input carried the call, so what the CLI takes from stdin comes from the JSON:
//!   `content` is write's `--content`; `edits` (an array, or that array as a JSON string) is
//!   handed to edit as its standard input (`input::hand_over_stdin`) and the command line says
//!   `--edits -`: the same reader, cap and parser as `quill edit --edits -`, in memory, with
//!   no shell and no temporary file. The CLI's own ways of naming stdin (`stdin`, `from: "-"`,
//!   a path `-`) are refused.
//! - The global options come from `quill call`'s own command line and the environment; the
//!   answer is always JSON.

use std::ffi::OsString;
use std::io::IsTerminal;

use serde_json::{Map, Value};

use super::{Kind, Param, TOOLS, normalize, op_of};
use crate::cli::{self, GlobalArgs};
use crate::error::{Error, UsageDetail};
use crate::input::Input;

/// The largest request read from stdin: edit's default `--max-file-bytes`, so any file edit
/// takes whole can be written in one call.
pub(crate) const MAX_REQUEST: u64 = 64 * 1024 * 1024;

/// The shape of a request, for hints.
const SHAPE: &str =
    r#"echo '{"tool": "quill_read", "arguments": {"path": "src/main.rs"}}' | quill call"#;

/// A request `call` refuses before anything runs: the op to answer with (`call` while the
/// tool is unknown) and why.
#[derive(Debug)]
pub(crate) struct Refusal {
    pub op: &'static str,
    /// Boxed: an `Error` is large, and the `Ok` side is a few words.
    pub error: Box<Error>,
}

fn refuse(op: &'static str, error: Error) -> Refusal {
    Refusal {
        op,
        error: Box::new(error),
    }
}

/// Read the request on stdin and make it the command line the CLI would get —
/// `quill --json GLOBALS… OP FLAGS… -- POSITIONALS…` — and what that command reads as its
/// standard input.
pub(crate) fn command_line(global: &GlobalArgs) -> Result<(Vec<OsString>, Vec<u8>), Refusal> {
    if std::io::stdin().is_terminal() {
        return Err(refuse(
            "call",
            Error::usage_fix(
                "quill call reads one JSON object on stdin, and stdin is a terminal",
                format!("pipe the request in: `{SHAPE}`"),
            ),
        ));
    }
    const OP: &str = "read the call from";
    let bytes = Input::stdin(&crate::settings::Origin::default())
        .read_all(OP, MAX_REQUEST)
        .map_err(|e| match e {
            Error::FileTooLarge { size, .. } => Error::usage_fix(
                format!("the call on stdin is more than {MAX_REQUEST} bytes ({size} read)"),
                "pass a large content by file: write takes `from` (a file to copy the content from), edit takes `oldFile` and `newFile`",
            ),
            e => e,
        })
        .map_err(|e| refuse("call", e))?;
    let (op, words) = request_words(&bytes)?;
    // The request was stdin; what the command may read as stdin is what it handed on.
    Ok(argv_of(global, op, words))
}

/// The command line of a checked request, and the standard input it hands on.
pub(crate) fn argv_of(global: &GlobalArgs, op: &str, words: Words) -> (Vec<OsString>, Vec<u8>) {
    let mut argv: Vec<OsString> = vec!["quill".into(), "--json".into()];
    argv.extend(globals(global));
    argv.push(op.into());
    argv.extend(words.flags);
    argv.extend(words.subcommand);
    if !words.positionals.is_empty() {
        argv.push("--".into());
        argv.extend(words.positionals);
    }
    (argv, words.stdin)
}

/// The global options of `quill call`'s own command line, as words for the tool's.
fn globals(g: &GlobalArgs) -> Vec<OsString> {
    let mut out: Vec<OsString> = Vec::new();
    let mut valued = |flag: &str, value: OsString| {
        let mut w = OsString::from(format!("--{flag}="));
        w.push(value);
        out.push(w);
    };
    if let Some(s) = &g.session {
        valued("session", s.into());
    }
    if let Some(d) = &g.state_dir {
        valued("state-dir", d.into());
    }
    if let Some(r) = &g.root {
        valued("root", r.into());
    }
    if let Some(t) = g.lock_timeout {
        valued("lock-timeout", t.to_string().into());
    }
    if g.read_only {
        out.push("--read-only".into());
    }
    if g.strict {
        out.push("--strict".into());
    }
    if g.merge {
        out.push("--merge".into());
    }
    if g.no_keep_reads {
        out.push("--no-keep-reads".into());
    }
    out
}

/// What a request's arguments become.
#[derive(Debug, Default, PartialEq)]
pub(crate) struct Words {
    pub flags: Vec<OsString>,
    /// The subcommand of the op (`state forget`), after the flags.
    pub subcommand: Option<OsString>,
    pub positionals: Vec<OsString>,
    /// What the command reads as its standard input (edit's `edits`), else empty.
    pub stdin: Vec<u8>,
}

/// The op and the words of a request (the bytes read from stdin).
pub(crate) fn request_words(bytes: &[u8]) -> Result<(&'static str, Words), Refusal> {
    let value: Value = serde_json::from_slice(bytes).map_err(|e| {
        refuse(
            "call",
            Error::usage_fix(
                format!("the call on stdin is not JSON: {e}"),
                format!("send one JSON object: `{SHAPE}`"),
            ),
        )
    })?;
    let Value::Object(request) = value else {
        return Err(refuse(
            "call",
            Error::usage_fix(
                format!(
                    "the call on stdin is a JSON {}, not an object",
                    type_name(&value)
                ),
                format!("send one JSON object: `{SHAPE}`"),
            ),
        ));
    };
    let mut tool: Option<&Value> = None;
    let mut arguments: Option<&Value> = None;
    for (key, value) in &request {
        match key.as_str() {
            // OpenAI's function call and Anthropic's tool_use block, piped as they are.
            "tool" | "name" if tool.is_none() => tool = Some(value),
            "arguments" | "input" if arguments.is_none() => arguments = Some(value),
            "type" | "id" => {}
            other => {
                return Err(refuse(
                    "call",
                    Error::usage_fix(
                        format!(
                            "the call has an unknown key `{other}` (or a second tool or arguments key)"
                        ),
                        format!("a call is {{\"tool\": NAME, \"arguments\": {{...}}}}: `{SHAPE}`"),
                    ),
                ));
            }
        }
    }
    let known = || {
        TOOLS
            .iter()
            .map(|t| format!("{}{t}", super::PREFIX))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let name = match tool {
        Some(Value::String(name)) => name.as_str(),
        Some(other) => {
            return Err(refuse(
                "call",
                Error::usage_fix(
                    format!(
                        "`tool` must be a tool's name, not a JSON {}",
                        type_name(other)
                    ),
                    format!("the tools are {}: `{SHAPE}`", known()),
                ),
            ));
        }
        None => {
            return Err(refuse(
                "call",
                Error::usage_fix(
                    "the call names no tool",
                    format!("add `\"tool\"`, one of {}: `{SHAPE}`", known()),
                ),
            ));
        }
    };
    let Some(op) = op_of(name) else {
        return Err(refuse(
            "call",
            Error::Usage {
                message: format!("no tool named `{name}`"),
                detail: Box::new(UsageDetail {
                    argument: Some(name.to_string()),
                    suggestion: nearest_tool(name),
                    fix: Some(format!(
                        "the tools are {} (`quill tools` prints their definitions)",
                        known()
                    )),
                    ..UsageDetail::default()
                }),
            },
        ));
    };
    let parsed;
    let arguments = match arguments {
        None | Some(Value::Null) => None,
        Some(Value::Object(m)) => Some(m),
        // OpenAI hands `arguments` over as a JSON string.
        Some(Value::String(s)) => {
            parsed = serde_json::from_str::<Value>(s).ok();
            match &parsed {
                Some(Value::Object(m)) => Some(m),
                _ => return Err(bad_arguments(op, "a string that is not a JSON object")),
            }
        }
        Some(other) => return Err(bad_arguments(op, &format!("a JSON {}", type_name(other)))),
    };
    let empty = Map::new();
    let words = words(op, arguments.unwrap_or(&empty)).map_err(|e| refuse(op, e))?;
    Ok((op, words))
}

fn bad_arguments(op: &'static str, what: &str) -> Refusal {
    refuse(
        op,
        Error::usage_fix(
            format!("`arguments` must be a JSON object, not {what}"),
            format!("`quill tools` prints the arguments of quill_{op}: `{SHAPE}`"),
        ),
    )
}

/// The tool a misspelt name means, if one is near (at most two edits away).
fn nearest_tool(name: &str) -> Option<String> {
    let bare = name
        .strip_prefix(super::PREFIX)
        .unwrap_or(name)
        .to_lowercase();
    TOOLS
        .iter()
        .map(|t| (crate::cli::drift::osa_distance(&bare, t), t))
        .filter(|(d, _)| *d <= 2)
        .min_by_key(|(d, _)| *d)
        .map(|(_, t)| format!("{}{t}", super::PREFIX))
}

/// The words of a tool's arguments.
pub(crate) fn words(op: &'static str, arguments: &Map<String, Value>) -> Result<Words, Error> {
    let params = super::tool_params(op);
    let mut given: Vec<(&Param, &str, &Value)> = Vec::new();
    for (key, value) in arguments {
        let name = normalize(key);
        let Some(p) = params.iter().find(|p| p.names.contains(&name)) else {
            return Err(unknown_key(&cli::command(), op, key, params));
        };
        if super::NOT_CALLABLE.contains(&(op, p.id.as_str())) {
            return Err(Error::usage_fix(
                format!("`{key}` cannot be given in a call: it names a command to run"),
                "set it where the server starts: QUILL_RSH and QUILL_REMOTE_QUILL in its environment; the call gives only `source` and `destination` (`host:path`)",
            ));
        }
        if let Some((_, first, _)) = given.iter().find(|(q, _, _)| q.id == p.id) {
            return Err(Error::usage_fix(
                format!("`{first}` and `{key}` both give `{}`", p.key),
                format!("give `{}` once", p.key),
            ));
        }
        if !value.is_null() {
            given.push((p, key, value));
        }
    }
    if let Some(missing) = params.iter().find(|p| {
        p.required
            && !given
                .iter()
                .any(|(q, _, _)| q.id == p.id || p.unless.contains(&q.id.as_str()))
    }) {
        return Err(missing_argument(op, missing, params));
    }
    let mut out = Words::default();
    // Positionals in their order: one left out before one given would shift the others.
    let mut skipped: Option<&Param> = None;
    for p in params.iter().filter(|p| p.positional()) {
        let Some((_, key, value)) = given.iter().find(|(q, _, _)| q.id == p.id) else {
            skipped = skipped.or(Some(p));
            continue;
        };
        // grep's pattern may be left out when `regexp` gives the patterns: then every
        // positional is a path, as on the command line.
        let shifts = op == "grep" && given.iter().any(|(q, _, _)| q.id == "regexps");
        if let (Some(missing), false) = (skipped, shifts) {
            return Err(Error::usage_fix(
                format!("`{key}` is given without `{}`", missing.key),
                format!("give `{}` too", missing.key),
            ));
        }
        // state's action is its subcommand, a word before `--`.
        if p.subcommand {
            out.subcommand = Some(scalar(p, key, value)?.into());
            continue;
        }
        // apply's `patch` is the patch itself, handed over as the standard input `-` reads.
        if op == "apply" && p.id == "patch" {
            out.stdin = text(key, value)?.into_bytes();
            out.positionals.push("-".into());
            continue;
        }
        for v in values(p, key, value)? {
            refuse_stdin_name(op, p, &v)?;
            out.positionals.push(v.into());
        }
    }
    for (p, key, value) in given.iter().filter(|(p, _, _)| !p.positional()) {
        let long = p.long.as_deref().unwrap_or_default();
        if op == "edit" && p.id == "edits" {
            match edits_json(key, value)? {
                Some(json) => {
                    out.stdin = json;
                    out.flags.push("--edits=-".into());
                }
                None => out
                    .flags
                    .push(format!("--edits={}", text(key, value)?).into()),
            }
            continue;
        }
        if p.kind == Kind::Flag {
            match value {
                Value::Bool(true) => {
                    if op == "write" && p.id == "stdin" {
                        return Err(stdin_taken(
                            "write's `stdin`",
                            "`content` (the text itself) or `from` (a file)",
                        ));
                    }
                    out.flags.push(format!("--{long}").into());
                }
                Value::Bool(false) => {}
                other => return Err(mistyped(p, key, other)),
            }
            continue;
        }
        for v in values(p, key, value)? {
            if op == "write" && p.id == "from" && v == "-" {
                return Err(stdin_taken("`from: \"-\"`", "`content` (the text itself)"));
            }
            let mut w = OsString::from(format!("--{long}="));
            w.push(&v);
            out.flags.push(w);
        }
    }
    Ok(out)
}

/// The text values of one key: one, or each element of an array for a repeatable param (a
/// single value stands for a list of one).
fn values(p: &Param, key: &str, value: &Value) -> Result<Vec<String>, Error> {
    match value {
        Value::Array(items) if p.many => items.iter().map(|v| scalar(p, key, v)).collect(),
        v => Ok(vec![scalar(p, key, v)?]),
    }
}

/// One value as the word the CLI gets, if its JSON type is the param's.
fn scalar(p: &Param, key: &str, value: &Value) -> Result<String, Error> {
    match (&p.kind, value) {
        (Kind::Integer, Value::Number(n)) if n.is_u64() => Ok(n.to_string()),
        (Kind::Text, Value::String(s)) => Ok(s.clone()),
        (Kind::Choice(words), Value::String(s)) if words.contains(s) => Ok(s.clone()),
        (Kind::Choice(words), Value::String(s)) => Err(Error::usage_fix(
            format!("`{key}` is one of {}, not `{s}`", words.join(", ")),
            format!("give `{}` one of: {}", p.key, words.join(", ")),
        )),
        _ => Err(mistyped(p, key, value)),
    }
}

fn text(key: &str, value: &Value) -> Result<String, Error> {
    match value {
        Value::String(s) if s == "-" => Err(stdin_taken(
            "`edits: \"-\"`",
            "the edits themselves, as a JSON array",
        )),
        Value::String(s) => Ok(s.clone()),
        other => Err(Error::usage_fix(
            format!(
                "`{key}` must be an array of {{\"old\", \"new\"}} objects, not a JSON {}",
                type_name(other)
            ),
            r#"give `edits` as [{"old": "a", "new": "b"}, {"old": "c", "new": "d", "replaceAll": true}]"#,
        )),
    }
}

/// edit's `edits` as the JSON text `--edits -` reads: an array (or the array as a JSON
/// string, as some models send it), each edit's keys in edit's spelling (`old_string` is
/// `old`, `replace_all` is `replaceAll`). `None`: a string naming a file.
fn edits_json(key: &str, value: &Value) -> Result<Option<Vec<u8>>, Error> {
    let parsed;
    let items = match value {
        Value::Array(items) => items,
        Value::String(s) if s.trim_start().starts_with('[') => {
            parsed = serde_json::from_str::<Value>(s).map_err(|e| {
                Error::usage_fix(
                    format!("`{key}` is a string that is not a JSON array: {e}"),
                    r#"give `edits` as a JSON array: [{"old": "a", "new": "b"}]"#,
                )
            })?;
            match &parsed {
                Value::Array(items) => items,
                _ => return Ok(None),
            }
        }
        _ => return Ok(None),
    };
    let respelled: Vec<Value> = items
        .iter()
        .map(|item| match item {
            Value::Object(m) => Value::Object(
                m.iter()
                    .map(|(k, v)| {
                        let k = match normalize(k).as_str() {
                            "old" | "old-string" | "old-str" => "old".to_string(),
                            "new" | "new-string" | "new-str" => "new".to_string(),
                            "replace-all" => "replaceAll".to_string(),
                            _ => k.clone(),
                        };
                        (k, v.clone())
                    })
                    .collect(),
            ),
            other => other.clone(),
        })
        .collect();
    Ok(Some(serde_json::to_vec(&respelled).unwrap_or_default()))
}

/// A path that names standard input (read's or grep's), which carried the call.
fn refuse_stdin_name(op: &str, p: &Param, v: &str) -> Result<(), Error> {
    const STDIN_NAMES: [&str; 4] = ["-", "/dev/stdin", "/dev/fd/0", "/proc/self/fd/0"];
    if matches!(op, "read" | "grep") && STDIN_NAMES.contains(&v) {
        return Err(stdin_taken(
            &format!("`{}: \"{v}\"`", p.key),
            "a file's path",
        ));
    }
    Ok(())
}

fn stdin_taken(what: &str, instead: &str) -> Error {
    Error::usage_fix(
        format!("{what} names standard input, which carried the call"),
        format!("give {instead} in the arguments"),
    )
}

fn mistyped(p: &Param, key: &str, value: &Value) -> Error {
    let (want, example) = match (&p.kind, p.many) {
        (_, true) => ("an array of values (or one value)", "[\"…\"]".to_string()),
        (Kind::Flag, _) => ("true or false", "true".to_string()),
        (Kind::Integer, _) => ("a whole number (a JSON integer ≥ 0)", "10".to_string()),
        (Kind::Text, _) => ("a string", "\"…\"".to_string()),
        (Kind::Choice(words), _) => (
            "one of these strings",
            format!("\"{}\"", words.first().map_or("", |w| w)),
        ),
    };
    Error::usage_fix(
        format!(
            "`{key}` must be {want}, not a JSON {} ({value})",
            type_name(value)
        ),
        format!("give `\"{}\": {example}`", p.key),
    )
}

/// A required argument the call left out, by its JSON key (clap would name `<PATH>` and
/// point at `--help`, which a tool call has not got).
fn missing_argument(op: &str, missing: &Param, params: &[Param]) -> Error {
    let key = &missing.key;
    let example = match missing.kind {
        Kind::Integer => "1",
        _ => "\"…\"",
    };
    let instead: Vec<String> = params
        .iter()
        .filter(|p| p.shown && missing.unless.contains(&p.id.as_str()))
        .map(|p| format!("`{}`", p.key))
        .collect();
    let instead = match instead.is_empty() {
        true => String::new(),
        false => format!(" (or {})", instead.join(", ")),
    };
    let keys: Vec<&str> = params
        .iter()
        .filter(|p| p.shown)
        .map(|p| p.key.as_str())
        .collect();
    Error::Usage {
        message: format!("missing required argument `{key}`"),
        detail: Box::new(UsageDetail {
            argument: Some(key.clone()),
            fix: Some(format!(
                "add `\"{key}\": {example}`{instead} to the arguments; quill_{op} takes {}",
                keys.join(", ")
            )),
            ..UsageDetail::default()
        }),
    }
}

/// An argument the tool does not have: the key meant, when quill can tell (a near spelling,
/// or another tool's word for it, as `drift` judges flags), and the keys there are.
fn unknown_key(cmd: &clap::Command, op: &str, key: &str, params: &[Param]) -> Error {
    let flag = format!("--{}", normalize(key));
    let args: Vec<OsString> = vec!["quill".into(), op.into(), flag.clone().into()];
    let advice = crate::cli::drift::unknown_flag(&args, cmd, Some(op), &flag);
    let meant = advice.suggestion.and_then(|s| {
        let name = normalize(s.trim_start_matches("--").trim_matches(['<', '>']));
        params
            .iter()
            .find(|p| p.names.contains(&name))
            .map(|p| p.key.clone())
    });
    let keys: Vec<&str> = params
        .iter()
        .filter(|p| p.shown)
        .map(|p| p.key.as_str())
        .collect();
    let fix = match &meant {
        Some(m) => format!("the key is `{m}`; quill_{op} takes {}", keys.join(", ")),
        None => format!("quill_{op} takes {}", keys.join(", ")),
    };
    Error::Usage {
        message: format!("quill_{op} has no argument `{key}`"),
        detail: Box::new(UsageDetail {
            argument: Some(key.to_string()),
            suggestion: meant,
            fix: Some(fix),
            ..UsageDetail::default()
        }),
    }
}

fn type_name(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words_of(json: &str) -> Result<(&'static str, Vec<String>), &'static str> {
        match request_words(json.as_bytes()) {
            Ok((op, w)) => Ok((
                op,
                w.flags
                    .iter()
                    .chain(std::iter::once(&OsString::from("|")))
                    .chain(&w.positionals)
                    .map(|w| w.to_string_lossy().into_owned())
                    .collect(),
            )),
            Err(r) => Err(r.error.kind()),
        }
    }

    #[test]
    fn keys_in_any_spelling_become_the_flags() {
        let (op, w) = words_of(
            r#"{"tool": "quill_edit", "arguments": {"file_path": "a.rs", "old_string": "--x", "new_string": "", "replace_all": true, "dryRun": false, "expect-count": 2}}"#,
        )
        .unwrap();
        assert_eq!(op, "edit");
        assert_eq!(
            w,
            [
                "--old=--x",
                "--new=",
                "--replace-all",
                "--expect-count=2",
                "|",
                "a.rs"
            ]
        );
        let (_, w) = words_of(
            r#"{"name": "grep", "arguments": "{\"regexp\": [\"a\", \"-b\"], \"paths\": [\"src\", \"lib\"], \"glob\": \"*.rs\"}"}"#,
        )
        .unwrap();
        assert_eq!(
            w,
            [
                "--regexp=a",
                "--regexp=-b",
                "--glob=*.rs",
                "|",
                "src",
                "lib"
            ]
        );
    }

    #[test]
    fn edits_are_handed_on_as_stdin() {
        let r = request_words(
            br#"{"tool": "edit", "arguments": {"path": "a", "edits": [{"old_string": "a", "new": "b", "replace_all": true}]}}"#,
        )
        .unwrap();
        assert_eq!(r.1.flags, [OsString::from("--edits=-")]);
        assert_eq!(
            String::from_utf8(r.1.stdin).unwrap(),
            r#"[{"old":"a","new":"b","replaceAll":true}]"#
        );
    }

    #[test]
    fn malformed_requests_are_usage() {
        for bad in [
            "not json",
            "[1]",
            r#"{"arguments": {}}"#,
            r#"{"tool": "delete"}"#,
            r#"{"tool": "read", "arguments": {"path": "a", "bogus": 1}}"#,
            r#"{"tool": "read", "arguments": {"path": "a", "limit": "ten"}}"#,
            r#"{"tool": "read", "arguments": {"path": "a", "limit": -1}}"#,
            r#"{"tool": "glob", "arguments": {"pattern": "*", "sort": "size"}}"#,
            r#"{"tool": "grep", "arguments": {"paths": ["src"]}}"#,
            r#"{"tool": "write", "arguments": {"path": "a", "stdin": true}}"#,
            r#"{"tool": "read", "arguments": {"path": "-"}}"#,
            r#"{"tool": "read", "arguments": {"path": "a", "file_path": "b"}}"#,
            r#"{"tool": "read", "arguments": [1]}"#,
            r#"{"tool": "read", "extra": 1}"#,
            r#"{"tool": "read", "arguments": {}}"#,
            r#"{"tool": "transfer", "arguments": {"source": "a"}}"#,
        ] {
            assert_eq!(words_of(bad), Err("usage"), "{bad}");
        }
    }

    #[test]
    fn a_missing_argument_is_named_by_its_key() {
        let refused = |json: &str| request_words(json.as_bytes()).unwrap_err().error;
        let e = refused(r#"{"tool": "read", "arguments": {"offset": 3}}"#);
        assert_eq!(e.to_string(), "missing required argument `path`");
        let e = refused(r#"{"tool": "grep", "arguments": {"paths": ["src"]}}"#);
        assert_eq!(e.to_string(), "missing required argument `pattern`");
        // `regexp` gives grep's patterns: then `pattern` may be left out.
        assert!(request_words(br#"{"tool": "grep", "arguments": {"regexp": "a"}}"#).is_ok());
    }
}
