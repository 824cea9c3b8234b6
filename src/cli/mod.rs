//! The command-line surface, declared with clap derive and nothing else: raw values only, no
//! I/O, no validation beyond what clap does. `app` turns the global options into `Settings`;
//! each command's `XArgs::resolve` turns its own into a checked request. Completions and man
//! pages are generated from these definitions. `command()` is the one place that finishes
//! what derive cannot say: the type names `grep -t` completes, and the guard options hidden
//! where they mean nothing. This file holds the root command, the list of subcommands and
//! their help lines; each group of commands declares its arguments and examples in a file of
//! its own (`read`, `mutate`, `search`, `transfer`, `state`, `tools`, `generate`, and the
//! `global` options).

use std::ffi::OsStr;

use clap::builder::{PossibleValue, StringValueParser, TypedValueParser};
use clap::{CommandFactory, Parser, Subcommand};

pub(crate) mod drift;
mod generate;
mod global;
mod lazy;
mod mutate;
mod read;
mod search;
mod state;
mod tools;
mod transfer;

pub(crate) use generate::{CompletionsArgs, ManArgs, SchemaArgs};
pub(crate) use global::{ColorChoice, GlobalArgs};
pub(crate) use lazy::{command_for, root};
pub(crate) use mutate::{ApplyArgs, EditArgs, RmArgs, UndoArgs, WriteArgs};
pub(crate) use read::ReadArgs;
pub(crate) use search::{GREP_PATTERN_UNLESS, GlobArgs, GrepArgs, GrepMode, SortKey};
pub(crate) use state::{StateAction, StateArgs};
pub(crate) use tools::{CallArgs, GuideArgs, McpArgs, ToolFormat, ToolsArgs};
pub(crate) use transfer::{ProgressMode, TransferArgs};

use generate::{COMPLETIONS_EXAMPLES, MAN_EXAMPLES, SCHEMA_EXAMPLES};
use mutate::{APPLY_EXAMPLES, EDIT_EXAMPLES, RM_EXAMPLES, UNDO_EXAMPLES, WRITE_EXAMPLES};
use read::READ_EXAMPLES;
use search::{GLOB_EXAMPLES, GREP_EXAMPLES};
use state::STATE_EXAMPLES;
use tools::{CALL_EXAMPLES, GUIDE_EXAMPLES, MCP_EXAMPLES, TOOLS_EXAMPLES};
use transfer::TRANSFER_EXAMPLES;

/// `quill --version`: the package version and, when built from a git checkout, the commit and
/// its date (`0.1.0 (abc1234 2026-12-01)`; set by `build.rs`).
pub(crate) const VERSION: &str = env!("QUILL_VERSION");
/// The short commit quill was built from, if known.
pub(crate) const COMMIT: Option<&str> = non_empty(env!("QUILL_COMMIT"));
/// That commit's date (YYYY-MM-DD), if known.
pub(crate) const COMMIT_DATE: Option<&str> = non_empty(env!("QUILL_COMMIT_DATE"));

const fn non_empty(s: &'static str) -> Option<&'static str> {
    if s.is_empty() { None } else { Some(s) }
}

/// The global options that guard or locate file access. `completions` and `man` take them
/// (global options go anywhere, and scripts set `QUILL_*` for every command) but they mean
/// nothing there, so those two commands' help, man pages and completions leave them out.
pub(crate) const GUARD_OPTIONS: [&str; 8] = [
    "session",
    "state_dir",
    "root",
    "read_only",
    "strict",
    "merge",
    "no_keep_reads",
    "lock_timeout",
];

/// The command quill parses with: `canonical()` and the flags that exist only for the
/// vocabulary of other tools (read's `--end-line` and `--view-range`), hidden from help and
/// left out of completions and man pages, which are generated from `canonical()`. Their
/// values land in `ReadArgs` through `take_vocabulary`.
pub(crate) fn command() -> clap::Command {
    canonical().mut_subcommand("read", read_vocabulary)
}

/// Read's hidden flags from other tools' vocabulary (see `command`).
fn read_vocabulary(read: clap::Command) -> clap::Command {
    use clap::{Arg, value_parser};
    read.arg(
        Arg::new("end_line")
            .long("end-line")
            .alias("end_line")
            .value_name("N")
            .value_parser(value_parser!(u64))
            .conflicts_with("limit")
            .hide(true),
    )
    .arg(
        Arg::new("view_range")
            .long("view-range")
            .alias("view_range")
            .value_name("A,B")
            .allow_hyphen_values(true)
            .conflicts_with_all(["offset", "limit", "end_line"])
            .hide(true),
    )
}

/// Move the values of the vocabulary-only flags of `command()` into the parsed `Cli`.
pub(crate) fn take_vocabulary(cli: &mut Cli, matches: &clap::ArgMatches) {
    if let Command::Read(read) = &mut cli.command
        && let Some(m) = matches.subcommand_matches("read")
    {
        read.end_line = m.get_one::<u64>("end_line").copied();
        read.view_range = m.get_one::<String>("view_range").cloned();
    }
}

/// The clap command of quill, finished: `grep -t/-T` offer ripgrep's default type names to
/// the completion scripts (hidden from help: there are hundreds), and `completions` and `man`
/// hide the guard options. Help, completions and man pages use this.
pub(crate) fn canonical() -> clap::Command {
    let root = Cli::command();
    let guards = hidden_guards(&root);
    // `mut_subcommands`/`mut_args` keep the order (the listings of completions and man pages).
    root.mut_subcommands(|sub| match sub.get_name() {
        "grep" => grep_type_names(sub),
        "completions" | "man" => sub.args(guards.iter().cloned()),
        _ => sub,
    })
}

/// Copies of the guard options, hidden: a subcommand that has an argument of a global's id
/// does not get the global's copy, and parses the option all the same.
fn hidden_guards(root: &clap::Command) -> Vec<clap::Arg> {
    root.get_arguments()
        .filter(|a| GUARD_OPTIONS.contains(&a.get_id().as_str()))
        .map(|a| a.clone().hide(true))
        .collect()
}

/// `grep -t/-T` take any name, and complete ripgrep's type names.
fn grep_type_names(grep: clap::Command) -> clap::Command {
    grep.mut_args(|a| match a.get_id().as_str() {
        "types" | "types_not" => a.value_parser(TypeName).hide_possible_values(true),
        _ => a,
    })
}

/// A file type name for `grep -t/-T`: any string (grep itself says which names it knows),
/// with ripgrep's default types as the possible values completions offer.
#[derive(Clone)]
struct TypeName;

impl TypedValueParser for TypeName {
    type Value = String;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        arg: Option<&clap::Arg>,
        value: &OsStr,
    ) -> Result<String, clap::Error> {
        StringValueParser::new().parse_ref(cmd, arg, value)
    }

    fn possible_values(&self) -> Option<Box<dyn Iterator<Item = PossibleValue> + '_>> {
        let defs = ignore::types::TypesBuilder::new()
            .add_defaults()
            .definitions();
        Some(Box::new(
            defs.into_iter()
                .map(|d| PossibleValue::new(d.name().to_string())),
        ))
    }
}

/// Help is wrapped to the terminal, at most this wide.
const TERM_WIDTH: usize = 100;

const ABOUT: &str =
    "Read, write, edit, find and move files safely: you can only change what you have read.";

const LONG_ABOUT: &str = "\
Read, write, edit, find and move files safely.

`quill read` records a SHA-256 baseline of the file in a per-session state file; `write` and
`edit` refuse (`not_read`, `stale`) unless the file still is what was read. Changes land
atomically and byte-exact, ordered by an advisory lock per file, and come back with a diff and
a patch that `git apply` accepts. Every result can be one JSON object (--json).";

const MAIN_EXAMPLES: &str = "\
Examples:
  quill read src/main.rs                      # line-numbered page, records a baseline
  quill edit src/main.rs --old 'a' --new 'b'  # exact, unique replacement
  quill --json grep -i 'todo' src             # one JSON object on stdout
  quill glob '**/*.rs' --sort path            # find files like fd

Exit codes: 0 success, 1 nothing found, 2 usage, 3 refused by a guard, 4 system or I/O.";

#[derive(Debug, Parser)]
#[command(
    name = "quill",
    version = VERSION,
    about = ABOUT,
    long_about = LONG_ABOUT,
    after_help = MAIN_EXAMPLES,
    propagate_version = true,
    max_term_width = TERM_WIDTH
)]
pub(crate) struct Cli {
    #[command(flatten)]
    pub global: GlobalArgs,

    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands. Each one's help line and examples are constants that `lazy` shares,
/// so the command quill parses with (`command_for`) says exactly what this one says.
#[derive(Debug, Subcommand)]
pub(crate) enum Command {
    #[command(about = READ_ABOUT, after_help = READ_EXAMPLES)]
    Read(ReadArgs),
    #[command(about = WRITE_ABOUT, after_help = WRITE_EXAMPLES)]
    Write(WriteArgs),
    #[command(about = EDIT_ABOUT, after_help = EDIT_EXAMPLES)]
    Edit(EditArgs),
    #[command(about = GLOB_ABOUT, after_help = GLOB_EXAMPLES)]
    Glob(GlobArgs),
    #[command(about = GREP_ABOUT, after_help = GREP_EXAMPLES)]
    Grep(GrepArgs),
    #[command(about = TRANSFER_ABOUT, after_help = TRANSFER_EXAMPLES)]
    Transfer(TransferArgs),
    #[command(about = APPLY_ABOUT, after_help = APPLY_EXAMPLES)]
    Apply(ApplyArgs),
    #[command(about = UNDO_ABOUT, after_help = UNDO_EXAMPLES)]
    Undo(UndoArgs),
    #[command(about = RM_ABOUT, after_help = RM_EXAMPLES)]
    Rm(RmArgs),
    #[command(about = STATE_ABOUT, after_help = STATE_EXAMPLES)]
    State(StateArgs),
    #[command(about = TOOLS_ABOUT, after_help = TOOLS_EXAMPLES)]
    Tools(ToolsArgs),
    #[command(about = CALL_ABOUT, after_help = CALL_EXAMPLES)]
    Call(CallArgs),
    #[command(about = MCP_ABOUT, after_help = MCP_EXAMPLES)]
    Mcp(McpArgs),
    #[command(about = GUIDE_ABOUT, after_help = GUIDE_EXAMPLES)]
    Guide(GuideArgs),
    #[command(about = COMPLETIONS_ABOUT, after_help = COMPLETIONS_EXAMPLES)]
    Completions(CompletionsArgs),
    #[command(about = MAN_ABOUT, after_help = MAN_EXAMPLES)]
    Man(ManArgs),
    #[command(about = SCHEMA_ABOUT, after_help = SCHEMA_EXAMPLES)]
    Schema(SchemaArgs),
}

const READ_ABOUT: &str = "Show a page of a file with line numbers and record a baseline";
const WRITE_ABOUT: &str =
    "Replace or create a whole file (needs a read baseline for an existing file)";
const EDIT_ABOUT: &str = "Replace an exact, unique passage of a file";
const GLOB_ABOUT: &str = "Find files by glob pattern, newest first";
const GREP_ABOUT: &str = "Search file contents with a regex, like ripgrep, sorted and paged";
const TRANSFER_ABOUT: &str = "Copy or move one file without ever losing or half-publishing it";
const APPLY_ABOUT: &str =
    "Apply a unified diff or a Codex patch to many files: all of them change, or none";
const UNDO_ABOUT: &str = "Restore a file to what it was before quill's last change in this session";
const RM_ABOUT: &str = "Delete a file the session has read and that is unchanged since; undoable";
const STATE_ABOUT: &str = "Show or change the session's read baselines";
const TOOLS_ABOUT: &str =
    "Print function-calling tool definitions for a harness (OpenAI, Anthropic, or quill's)";
const CALL_ABOUT: &str =
    "Run one tool call given as JSON on stdin, exactly as the command line would";
const MCP_ABOUT: &str = "Serve the tools over the Model Context Protocol on stdin and stdout, for agents that load tools from MCP servers";
const GUIDE_ABOUT: &str = "Print a compact guide to quill for a shell-only agent's system prompt";
const COMPLETIONS_ABOUT: &str = "Print a shell completion script";
const MAN_ABOUT: &str = "Print a roff man page";
const SCHEMA_ABOUT: &str =
    "Print the JSON Schema (draft 2020-12) of an op's JSON answer, or of the error object";

impl Command {
    /// The `op` of the JSON envelope.
    pub(crate) fn op(&self) -> &'static str {
        match self {
            Command::Read(_) => "read",
            Command::Write(_) => "write",
            Command::Edit(_) => "edit",
            Command::Glob(_) => "glob",
            Command::Grep(_) => "grep",
            Command::Transfer(_) => "transfer",
            Command::Undo(_) => "undo",
            Command::Rm(_) => "rm",
            Command::Apply(_) => "apply",
            Command::State(_) => "state",
            Command::Tools(_) => "tools",
            Command::Call(_) => "call",
            Command::Mcp(_) => "mcp",
            Command::Guide(_) => "guide",
            Command::Completions(_) => "completions",
            Command::Man(_) => "man",
            Command::Schema(_) => "schema",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn cli_is_consistent() {
        Cli::command().debug_assert();
        canonical().debug_assert();
        command().debug_assert();
    }
}
