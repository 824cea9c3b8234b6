//! `quill tools --format openai|anthropic|json`: the function-calling definitions of read,
//! write, edit, apply, glob, grep, transfer, undo, rm and state — a name (`quill_read`, …), a paragraph written
//! for a model, and an argument JSON Schema generated from the clap definitions
//! (`cli::canonical()`, through `harness::params`), so a property is a flag or positional of
//! the command, typed by its action and value parser, described by its help line. Keys are
//! camelCase like every key of quill's JSON (`maxLineChars`, and `replaceAll` inside
//! `edits`). The global options (session, state directory, root, guards, lock timeout, format,
//! color) are not arguments: the harness sets them on `quill call`'s command line or in the
//! environment, never the model. Pure: builds a string.

use serde_json::{Map, Value, json};

use super::{Kind, PREFIX, Param, TOOLS, params};
use crate::cli::{self, ToolFormat, ToolsArgs};
use crate::error::Result;
use crate::report::Report;

/// The closing sentences every description shares: how answers and errors look.
const ANSWERS: &str = "Every answer is one JSON object with `ok` and `op`; a failure has `error.kind`, `error.message` and `error.hint` (the hint is written for quill's command line: a flag `--replace-all` there is the argument `replaceAll` here).";

/// One tool: its name, the op it runs, the paragraph for the model, the argument schema and
/// the hints a host may approve calls by.
pub(crate) struct Definition {
    pub name: String,
    pub op: &'static str,
    pub description: String,
    pub parameters: Value,
    pub hints: Hints,
}

/// MCP's tool annotations (`readOnlyHint`, `destructiveHint`, `idempotentHint`,
/// `openWorldHint`): what a call may do to its environment, so that a host can let reads run
/// without asking. `openWorldHint` is true for transfer alone, which may reach another
/// machine (`host:path`, over ssh); every other tool works on local files only.
/// The table and its reasons are in docs/mcp.md.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Hints {
    /// Changes no file (read and state touch only the session's baselines in the state
    /// directory, which is quill's bookkeeping, not the workspace).
    pub read_only: bool,
    /// May replace or remove what is there, not only add.
    pub destructive: bool,
    /// A second identical call changes nothing more.
    pub idempotent: bool,
    /// May reach beyond this machine (transfer's `host:path`).
    pub open_world: bool,
}

impl Hints {
    /// The annotations object as MCP spells it.
    pub(crate) fn to_json(self) -> Value {
        json!({
            "readOnlyHint": self.read_only,
            "destructiveHint": self.destructive,
            "idempotentHint": self.idempotent,
            "openWorldHint": self.open_world,
        })
    }
}

/// The hints of tool `op`.
pub(crate) fn hints(op: &str) -> Hints {
    let (read_only, destructive, idempotent) = match op {
        // Listing, searching, reading, and the session's own baselines.
        "read" | "glob" | "grep" | "state" => (true, false, true),
        // The same whole content again leaves the same file; so does deleting a deleted one.
        "write" | "rm" => (false, true, true),
        // Replaces text or files; a second call may change more (a line range, a move, one
        // more step back) or be refused — not promised to be a no-op.
        _ => (false, true, false),
    };
    Hints {
        read_only,
        destructive,
        idempotent,
        open_world: op == "transfer",
    }
}

pub(crate) fn run(args: &ToolsArgs) -> Result<Report> {
    let list: Vec<Value> = definitions()
        .into_iter()
        .map(|d| match args.format {
            ToolFormat::Openai => json!({
                "type": "function",
                "function": {
                    "name": d.name,
                    "description": d.description,
                    "parameters": d.parameters,
                },
            }),
            ToolFormat::Anthropic => json!({
                "name": d.name,
                "description": d.description,
                "input_schema": d.parameters,
            }),
            ToolFormat::Json => json!({
                "name": d.name,
                "op": d.op,
                "description": d.description,
                "inputSchema": d.parameters,
                "annotations": d.hints.to_json(),
            }),
        })
        .collect();
    let mut text = serde_json::to_string_pretty(&list).unwrap_or_default();
    text.push('\n');
    Ok(Report::Generated(text))
}

/// Every tool's definition, in `TOOLS` order.
pub(crate) fn definitions() -> Vec<Definition> {
    let cmd = cli::canonical();
    TOOLS
        .into_iter()
        .map(|op| Definition {
            name: format!("{PREFIX}{op}"),
            op,
            description: format!("{} {ANSWERS}", description(op)),
            parameters: schema(&params(&cmd, op), op),
            hints: hints(op),
        })
        .collect()
}

/// The argument schema of `op`: an object whose properties are its shown params.
fn schema(params: &[Param], op: &str) -> Value {
    let mut properties = Map::new();
    let mut required = Vec::new();
    for p in params.iter().filter(|p| p.shown) {
        properties.insert(p.key.clone(), property(p, op));
        if p.required && p.unless.is_empty() {
            required.push(Value::from(p.key.clone()));
        }
    }
    json!({
        "type": "object",
        "properties": properties,
        "required": required,
        "additionalProperties": false,
    })
}

fn property(p: &Param, op: &str) -> Value {
    if op == "apply" && p.id == "patch" {
        return json!({
            "type": "string",
            "description": "The patch itself (not a file name): a unified diff as `git diff` writes it, or a Codex patch from `*** Begin Patch` to `*** End Patch`.",
        });
    }
    if op == "edit" && p.id == "edits" {
        return json!({
            "type": "array",
            "description": "Several edits applied in order, all or nothing, instead of old/new: each `old` must occur exactly once in the text the edits before it leave (unless its `replaceAll`).",
            "items": {
                "type": "object",
                "properties": {
                    "old": {"type": "string", "description": "The exact text to replace."},
                    "new": {"type": "string", "description": "The replacement text."},
                    "replaceAll": {"type": "boolean", "description": "Replace every occurrence.", "default": false},
                },
                "required": ["old", "new"],
                "additionalProperties": false,
            },
            "minItems": 1,
        });
    }
    let one = match &p.kind {
        Kind::Flag => json!({"type": "boolean"}),
        Kind::Integer => json!({"type": "integer", "minimum": 0}),
        Kind::Text => json!({"type": "string"}),
        Kind::Choice(words) => json!({"type": "string", "enum": words}),
    };
    let mut prop = if p.many {
        json!({"type": "array", "items": one})
    } else {
        one
    };
    let mut description = p.help.trim().to_string();
    if let Some(d) = &p.default {
        let typed = match p.kind {
            Kind::Integer => d.parse::<u64>().map(Value::from).ok(),
            _ => Some(Value::from(d.clone())),
        };
        if let (Some(v), false) = (typed, p.many) {
            prop["default"] = v;
        }
    }
    if description.is_empty() {
        description = p.key.clone();
    }
    prop["description"] = Value::from(description);
    prop
}

/// The paragraph a model reads about tool `op`: what it does, the rules, the error kinds
/// that need action and the next call for each, and one or two examples of arguments (a test
/// checks the schema accepts every `{…}` written here).
pub(crate) fn description(op: &str) -> &'static str {
    match op {
        "read" => {
            "Show a page of a file (text, or a directory listing, notebook, PDF, image) and record its SHA-256 as this session's baseline: quill_write and quill_edit change only files read this way, and only while they are still what was read. `content` holds the lines exactly as in the file, without line numbers; `startLine`, `endLine` and `totalLines` say which lines. A page ends after `limit` lines or `maxBytes` bytes: when `nextOffset` is not null, call again with `offset` set to it (`offset` is a 1-based line number). Errors that need action: offset_past_end — use an `offset` from 1 to `totalLines`; line_too_long — one line is larger than the page budget: repeat with the `maxBytes` (and `offset`) the hint names; not_found — check the path (the hint may name a similar file; quill_glob finds files by name); binary_file — it is not text. Examples: {\"path\": \"src/main.rs\"}, {\"path\": \"src/main.rs\", \"offset\": 2001, \"limit\": 500}."
        }
        "write" => {
            "Create a file, or replace a whole file with `content`, written exactly as given (missing parent directories are created). Replacing an existing file needs a quill_read of it in this session, and the file must still be what was read; to change part of a file use quill_edit. Write the whole text: a line that only stands for omitted code (`// ... rest unchanged ...`) is refused unless `allowPlaceholder`. Errors that need action: not_read — call quill_read on the path first, then repeat; stale — the file changed since it was read (`error.change` shows the diff): quill_read it again and redo the change on the current content, keeping that change; create_conflict — with `createOnly`, the file already exists: read it, then write or edit it. Examples: {\"path\": \"notes/todo.md\", \"content\": \"# Todo\\n- ship it\\n\"}, {\"path\": \"out.txt\", \"content\": \"x\\n\", \"dryRun\": true}."
        }
        "edit" => {
            "Replace one exact passage of a file read in this session with quill_read. `old` must occur exactly once, character for character (indentation and line breaks included): copy it from quill_read's `content` (never with the line-number prefix of its text display), with enough neighbouring lines to be unique; `new` replaces it. `replaceAll` replaces every occurrence; `edits` applies several {old, new, replaceAll} in order, all or nothing; an empty `old` creates a new file. Or by line number, instead of `old`: `lines` \"A-B\" replaces lines A to B (1-based, inclusive, as `startLine` counts; `new` \"\" deletes them), `insertAfter` N inserts `new` after line N (0 = at the top), the numbers from a quill_read of the current version. Errors that need action: not_read — quill_read the file first; stale — the file changed since the read: `error.change` with `resend` true: send the same edit again; with an `overlap`: redo it on the text the diff shows; else quill_read it again (the hint names the lines) and redo it; invalid_argument — `lines`/`insertAfter` outside the file (the message gives its line count); edit_no_match — `old` is not in the file: the error's `window` shows the closest real lines and `difference` what differs; copy `old` from them (or add `fuzzy` when the hint says so); edit_ambiguous — `old` occurs `count` times (at `lines`): add neighbouring lines, or set `replaceAll`; already_applied — the same edit was already made, nothing written: move on (`again` repeats it on purpose). Examples: {\"path\": \"src/lib.rs\", \"old\": \"let x = 1;\", \"new\": \"let x = 2;\"}, {\"path\": \"src/lib.rs\", \"edits\": [{\"old\": \"foo()\", \"new\": \"bar()\", \"replaceAll\": true}, {\"old\": \"use a;\", \"new\": \"use b;\"}]}, {\"path\": \"src/lib.rs\", \"lines\": \"3-5\", \"new\": \"fn b() {}\"}."
        }
        "glob" => {
            "Find files by glob pattern over paths relative to `path` (default: the current directory): `*` stays within a directory, `**` crosses directories, `{a,b}` is either. Newest first by default; hidden files and what .gitignore excludes are left out unless `hidden` or `noIgnore`. `files` lists the paths. At most `limit` entries (100 by default): when `nextOffset` is not null, call again with `offset` set to it (`offset` counts entries skipped, from 0). Nothing found is ok with `total` 0. Examples: {\"pattern\": \"**/*.rs\"}, {\"pattern\": \"*.md\", \"path\": \"docs\", \"sort\": \"path\"}."
        }
        "grep" => {
            "Search file contents with a Rust regex (a literal string with `fixedStrings`), like ripgrep, in `paths` (default: the current directory), sorted by path. Hidden files and what .gitignore excludes are skipped unless `hidden` or `noIgnore`; `glob` and `type` narrow the files. `mode` content lists `matches` (`path`, `line`, `text`, and `before`/`after` with `context`), files lists paths, count counts per file. At most `limit` entries (200 by default): when `nextOffset` is not null, call again with `offset` set to it (`offset` counts entries skipped, from 0). Nothing found is ok with `total` 0. Errors that need action: invalid_pattern — escape the regex's special characters, or set `fixedStrings` to search the text literally; not_found — a path does not exist. Examples: {\"pattern\": \"fn main\", \"paths\": [\"src\"]}, {\"pattern\": \"todo\", \"ignoreCase\": true, \"glob\": [\"*.rs\"], \"context\": 2}."
        }
        "transfer" => {
            "Copy one file (or with `move`, move it) to `destination`, a file name or an existing directory, durably and checked by SHA-256; the destination is never half-written; missing parent directories are created. Either end may be `[user@]host:path` on another machine, reached by ssh (the server's QUILL_RSH), where quill must be installed. An existing destination is not replaced unless `replaceSha256` gives its current SHA-256. Errors that need action: destination_exists — pass `replaceSha256` with the destination's `sha256` (from quill_read), or choose another destination; same_file — source and destination are one file; source_changed — the source changed while it was copied: repeat the call. Examples: {\"source\": \"build/app\", \"destination\": \"dist/\"}, {\"source\": \"draft.txt\", \"destination\": \"final.txt\", \"move\": true}."
        }
        "undo" => {
            "Restore a file to what it was before quill's last change to it in this session (write, edit, transfer; up to 8 steps, one per call). `dryRun` shows the diff and changes nothing. Errors that need action: nothing_to_undo — quill made no change to this file in this session; stale — the file changed after quill's change (`error.change` shows how): quill_read it and repair it with quill_edit. Examples: {\"path\": \"src/lib.rs\"}, {\"path\": \"src/lib.rs\", \"dryRun\": true}."
        }
        "apply" => {
            "Apply a patch to several files at once: all of them change, or none. `patch` is the patch text: a unified diff (`--- a/P`, `+++ b/P`, `@@` hunks; `/dev/null` creates or deletes) or a Codex patch (`*** Begin Patch`, `*** Update File: P` with `@@` chunks, `*** Add File: P`, `*** Delete File: P`, `*** Move to: Q`, `*** End Patch`). Every file it changes must have been read in this session with quill_read and be unchanged since; a file it creates (or moves a file to) must not exist, unless it was read and is unchanged: then it is replaced. Hunks are found by their lines, not line numbers; a chunk whose lines occur twice needs an `@@ LINE` naming its function or class. `check` only tests it; `dryRun` shows the diff. quill_undo without a path reverts the whole apply. Errors that need action: patch_rejected — `error.problems` lists every problem with its file, kind and hint (not_read: quill_read the file; stale: when the problem's `change` shows the diff with `resend` true, send the same patch again; else read the file again and redo the patch from its current lines; edit_no_match: the hunk's lines are not in the file, `window` shows what is there; edit_ambiguous: add an @@ line or context); invalid_argument — the patch is malformed at the line named. Example: {\"patch\": \"*** Begin Patch\\n*** Update File: src/a.py\\n@@ def f():\\n-    return 1\\n+    return 2\\n*** End Patch\\n\"}."
        }
        "rm" => {
            "Delete one file that was read in this session with quill_read and is unchanged since; quill_undo brings it back. A directory or a symbolic link is refused. `dryRun` shows the deletion as a diff and removes nothing. Errors that need action: not_read — call quill_read on the file first; stale — the file changed since it was read: quill_read it again and decide whether it should still go; is_directory — rm deletes files only; symlink — name the link's target. Examples: {\"path\": \"src/old.rs\"}, {\"path\": \"src/old.rs\", \"dryRun\": true}."
        }
        "state" => {
            "Show what this session has read: every file with a baseline (path, SHA-256 prefix, when it was read, whether every line was shown), so you know which files quill_write, quill_edit, quill_apply and quill_rm will accept without a new quill_read. `action` forget drops the baseline of `path` (a later change of it then needs a new read); clear drops them all; `allSessions` lists the sessions instead. Nothing here changes a file. Examples: {}, {\"action\": \"forget\", \"path\": \"src/lib.rs\"}."
        }
        _ => "",
    }
}
