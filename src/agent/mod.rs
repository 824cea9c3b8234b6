//! What a harness wires into an agent's tool loop: `quill tools` (function-calling definitions),
//! `quill call` (one JSON tool call on stdin, run as the command line the CLI would get) and
//! `quill guide` (a compact text for a shell-only agent's system prompt). This module owns
//! the one model both `tools` and `call` read the clap definitions through — `params`: every
//! argument of a tool's subcommand with its JSON key, its JSON type and the names a call may
//! give it — so the schema a model is shown and the keys a call accepts cannot disagree. It
//! never runs a command (`app` does), never does I/O besides `call` reading its stdin, and
//! never imports `app`.

pub(crate) mod call;
pub(crate) mod guide;
pub(crate) mod mcp;
pub(crate) mod tools;

use std::any::TypeId;

use clap::ArgAction;

use crate::cli;

/// The subcommands offered as tools, in the order `quill tools` lists them.
pub(crate) const TOOLS: [&str; 10] = [
    "read", "write", "edit", "apply", "glob", "grep", "transfer", "undo", "rm", "state",
];

/// Tool names are the op with this prefix (`quill_read`): a harness's own `read` or `edit`
/// keeps its name, and the model sees whose tool it calls. `quill call` takes both spellings.
pub(crate) const PREFIX: &str = "quill_";

/// The arguments a tool's schema leaves out: they shape only text output or stderr, or name
/// standard input (which, under `quill call`, carried the call). `quill call` still takes
/// them (the mapping stays one-to-one with the CLI); a model is not shown them.
const NOT_SHOWN: [(&str, &str); 12] = [
    ("write", "stdin"),
    ("glob", "null"),
    ("grep", "null"),
    ("grep", "heading"),
    ("grep", "no_heading"),
    ("grep", "with_filename"),
    ("grep", "no_filename"),
    ("grep", "line_number"),
    ("grep", "no_line_number"),
    ("transfer", "progress"),
    // The commands a transfer across machines runs are the server's to choose (QUILL_RSH,
    // QUILL_REMOTE_QUILL in its environment), never a call's: `call::words` refuses them.
    ("transfer", "rsh"),
    ("transfer", "remote_quill"),
];

/// Arguments a call may not give: they would run a command of the caller's choosing.
pub(crate) const NOT_CALLABLE: [(&str, &str); 3] = [
    ("transfer", "rsh"),
    ("transfer", "remote_quill"),
    ("transfer", "serve"),
];

/// The op of a tool name (`quill_read` or `read`), if it is one.
pub(crate) fn op_of(name: &str) -> Option<&'static str> {
    let bare = name.strip_prefix(PREFIX).unwrap_or(name);
    TOOLS.into_iter().find(|op| *op == bare)
}

/// The params of tool `op` (one of `TOOLS`), made once per process from the CLI definition:
/// `quill mcp` answers many calls with them.
pub(crate) fn tool_params(op: &str) -> &'static [Param] {
    static ALL: std::sync::OnceLock<Vec<Vec<Param>>> = std::sync::OnceLock::new();
    let all = ALL.get_or_init(|| {
        let cmd = crate::cli::command();
        TOOLS.iter().map(|op| params(&cmd, op)).collect()
    });
    TOOLS
        .iter()
        .position(|t| *t == op)
        .map_or(&[], |i| all[i].as_slice())
}

/// The JSON type of one value of an argument.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Kind {
    /// A flag: `true` gives it, `false` leaves it out.
    Flag,
    /// A whole number ≥ 0.
    Integer,
    /// Any text (a path, a pattern, a file's content).
    Text,
    /// One of these words.
    Choice(Vec<String>),
}

/// One argument of a tool's subcommand, as a JSON key. `state`'s own subcommand (show,
/// forget PATH, clear) is its `action` param, a choice, and forget's PATH its `path`.
#[derive(Debug, Clone)]
pub(crate) struct Param {
    /// clap's id (`max_line_chars`, `move_`).
    pub id: String,
    /// The JSON key: the long flag (or the positional's name) in camelCase (`maxLineChars`).
    pub key: String,
    /// The long flag without dashes (`max-line-chars`); `None` for a positional.
    pub long: Option<String>,
    pub kind: Kind,
    /// Repeatable (a JSON array).
    pub many: bool,
    /// A positional that must be given.
    pub required: bool,
    /// The clap ids of the arguments any of which, given, make a `required` one optional
    /// (grep's PATTERN and `regexp`); empty for one that is always required.
    pub unless: &'static [&'static str],
    /// A word of the command line before the positionals rather than after `--`: the
    /// subcommand `state` takes (`state forget -- PATH`).
    pub subcommand: bool,
    /// The help line of `--help`.
    pub help: String,
    /// clap's default, as text.
    pub default: Option<String>,
    /// Shown in the tool's schema (not hidden, not in `NOT_SHOWN`).
    pub shown: bool,
    /// Every spelling a call may use, normalized by `normalize`: the key, the long flag and
    /// its aliases, the id, and for the file positional the other tools' path words.
    pub names: Vec<String>,
}

impl Param {
    pub(crate) fn positional(&self) -> bool {
        self.long.is_none()
    }
}

/// The arguments of subcommand `op` of `cmd`, positionals first (in their order), then the
/// flags in the order of `--help`. Global options are not the subcommand's (an unbuilt
/// command keeps them on the root), so none is listed.
pub(crate) fn params(cmd: &clap::Command, op: &str) -> Vec<Param> {
    let Some(sub) = cmd.find_subcommand(op) else {
        return Vec::new();
    };
    let mut out: Vec<Param> = Vec::new();
    if op == "state" {
        out.extend(state_params(sub));
    }
    for arg in sub.get_arguments() {
        let id = arg.get_id().as_str().to_string();
        let long = arg.get_long().map(str::to_string);
        if long.is_none() && !arg.is_positional() {
            continue;
        }
        let kind = match arg.get_action() {
            ArgAction::SetTrue | ArgAction::SetFalse => Kind::Flag,
            _ => value_kind(arg),
        };
        let key = camel(long.as_deref().unwrap_or(id.trim_end_matches('_')));
        let mut names = vec![normalize(&key), normalize(&id)];
        if let Some(l) = &long {
            names.push(normalize(l));
        }
        names.extend(
            arg.get_all_aliases()
                .unwrap_or_default()
                .into_iter()
                .map(normalize),
        );
        if arg.is_positional() && id == "path" && crate::cli::drift::PATH_COMMANDS.contains(&op) {
            names.extend(crate::cli::drift::PATH_FLAGS.iter().map(|n| normalize(n)));
        }
        names.sort();
        names.dedup();
        let default = match kind {
            Kind::Flag => None,
            _ => arg
                .get_default_values()
                .first()
                .map(|v| v.to_string_lossy().into_owned()),
        };
        // clap says only that an argument is required outright; grep's PATTERN is required
        // unless another argument gives the patterns (`cli::GREP_PATTERN_UNLESS`).
        let unless: &'static [&'static str] = match (op, id.as_str()) {
            ("grep", "pattern") => &cli::GREP_PATTERN_UNLESS,
            _ => &[],
        };
        out.push(Param {
            shown: !arg.is_hide_set() && !NOT_SHOWN.contains(&(op, id.as_str())),
            help: arg.get_help().map(|h| h.to_string()).unwrap_or_default(),
            many: matches!(arg.get_action(), ArgAction::Append),
            required: arg.is_positional() && (arg.is_required_set() || !unless.is_empty()),
            unless,
            subcommand: false,
            id,
            key,
            long,
            kind,
            default,
            names,
        });
    }
    out.sort_by_key(|p| !p.positional());
    out
}

/// `state`'s subcommand as a param `action` (show, forget, clear; show when left out), and
/// forget's PATH as `path`.
fn state_params(state: &clap::Command) -> Vec<Param> {
    let actions: Vec<String> = state
        .get_subcommands()
        .map(|s| s.get_name().to_string())
        .filter(|n| n != "help")
        .collect();
    let path_help = state
        .find_subcommand("forget")
        .and_then(|f| f.get_arguments().find(|a| a.get_id() == "path"))
        .and_then(|a| a.get_help())
        .map(|h| h.to_string())
        .unwrap_or_default();
    vec![
        Param {
            id: "action".into(),
            key: "action".into(),
            long: None,
            kind: Kind::Choice(actions),
            many: false,
            required: false,
            unless: &[],
            subcommand: true,
            help: "show lists the session's baselines; forget drops the one of `path`; clear drops them all.".into(),
            default: Some("show".into()),
            shown: true,
            names: vec!["action".into()],
        },
        Param {
            id: "path".into(),
            key: "path".into(),
            long: None,
            kind: Kind::Text,
            many: false,
            required: false,
            unless: &[],
            subcommand: false,
            help: format!("{path_help} (with action forget)"),
            default: None,
            shown: true,
            names: vec!["path".into(), "file-path".into()],
        },
    ]
}

/// The JSON type of an argument that takes a value: from its value parser.
fn value_kind(arg: &clap::Arg) -> Kind {
    let t = arg.get_value_parser().type_id();
    let integers = [
        TypeId::of::<u64>(),
        TypeId::of::<usize>(),
        TypeId::of::<u32>(),
        TypeId::of::<u16>(),
        TypeId::of::<u8>(),
    ];
    if integers.iter().any(|i| t == *i) {
        return Kind::Integer;
    }
    let choices = arg.get_possible_values();
    if !choices.is_empty() && !arg.is_hide_possible_values_set() {
        return Kind::Choice(
            choices
                .iter()
                .filter(|c| !c.is_hide_set())
                .map(|c| c.get_name().to_string())
                .collect(),
        );
    }
    Kind::Text
}

/// `max-line-chars` (or `max_line_chars`) → `maxLineChars`.
pub(crate) fn camel(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    let mut upper = false;
    for c in name.chars() {
        if c == '-' || c == '_' {
            upper = !out.is_empty();
        } else if upper {
            out.extend(c.to_uppercase());
            upper = false;
        } else {
            out.push(c);
        }
    }
    out
}

/// One spelling of every key: camelCase, snake_case and kebab-case all become kebab-case
/// lowercase (`replaceAll`, `replace_all`, `Replace-All` → `replace-all`).
pub(crate) fn normalize(key: &str) -> String {
    let mut out = String::with_capacity(key.len() + 4);
    let mut prev_lower = false;
    for c in key.chars() {
        if c == '_' || c == '-' {
            if !out.ends_with('-') && !out.is_empty() {
                out.push('-');
            }
            prev_lower = false;
        } else if c.is_uppercase() {
            if prev_lower && !out.ends_with('-') {
                out.push('-');
            }
            out.extend(c.to_lowercase());
            prev_lower = false;
        } else {
            out.push(c);
            prev_lower = c.is_lowercase() || c.is_ascii_digit();
        }
    }
    out.trim_end_matches('-').to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_spelling_of_a_key_is_one() {
        for k in [
            "replaceAll",
            "replace_all",
            "replace-all",
            "REPLACE_ALL",
            "ReplaceAll",
        ] {
            assert_eq!(normalize(k), "replace-all", "{k}");
        }
        assert_eq!(normalize("expectSha256"), "expect-sha256");
        assert_eq!(normalize("expect_sha256"), "expect-sha256");
        assert_eq!(normalize("file_path"), "file-path");
        assert_eq!(camel("max-line-chars"), "maxLineChars");
        assert_eq!(camel("expect-sha256"), "expectSha256");
        assert_eq!(camel("path"), "path");
    }

    #[test]
    fn params_follow_the_clap_definitions() {
        let cmd = crate::cli::canonical();
        let read = params(&cmd, "read");
        assert_eq!(read[0].key, "path");
        assert!(read[0].required && read[0].positional());
        assert!(read[0].names.contains(&"file-path".to_string()));
        let limit = read.iter().find(|p| p.key == "limit").unwrap();
        assert_eq!(limit.kind, Kind::Integer);
        assert_eq!(limit.default.as_deref(), Some("2000"));
        let grep = params(&cmd, "grep");
        let glob = grep.iter().find(|p| p.key == "glob").unwrap();
        assert!(glob.many && glob.kind == Kind::Text);
        let mode = grep.iter().find(|p| p.key == "mode").unwrap();
        assert_eq!(
            mode.kind,
            Kind::Choice(vec!["content".into(), "files".into(), "count".into()])
        );
        assert!(!grep.iter().find(|p| p.key == "recursive").unwrap().shown);
        let types = grep.iter().find(|p| p.key == "type").unwrap();
        assert_eq!(types.kind, Kind::Text, "hundreds of names: no enum");
        let transfer = params(&cmd, "transfer");
        assert!(
            transfer
                .iter()
                .any(|p| p.key == "move" && p.kind == Kind::Flag)
        );
        assert!(params(&cmd, "edit").iter().all(|p| p.key != "json"));
    }
}
