//! The command-line surface, declared with clap derive and nothing else: raw values only, no
//! I/O, no validation beyond what clap does. `app` turns the global options into `Settings`;
//! each command's `XArgs::resolve` turns its own into a checked request. Completions and man
//! pages are generated from these definitions. `command()` is the one place that finishes
//! what derive cannot say: the type names `grep -t` completes, and the guard options hidden
//! where they mean nothing.

use std::ffi::{OsStr, OsString};
use std::path::PathBuf;

use clap::builder::{PossibleValue, StringValueParser, TypedValueParser};
use clap::{Args, CommandFactory, Parser, Subcommand, ValueEnum};

pub(crate) mod drift;
mod lazy;
pub(crate) use lazy::{command_for, root};

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
pub(crate) const GUARD_OPTIONS: [&str; 6] = [
    "session",
    "state_dir",
    "root",
    "read_only",
    "strict",
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

/// Options every command takes, before or after the subcommand; listed under their own heading.
#[derive(Debug, Args, Clone)]
#[command(next_help_heading = "Global options")]
pub(crate) struct GlobalArgs {
    /// Print exactly one JSON object on stdout (also QUILL_FORMAT=json).
    #[arg(long, global = true, overrides_with = "text")]
    pub json: bool,

    /// Print text for people, even when QUILL_FORMAT=json.
    #[arg(long, global = true, overrides_with = "json")]
    pub text: bool,

    /// The session whose read baselines guard changes (also QUILL_SESSION) [default: default].
    #[arg(long, global = true, value_name = "ID")]
    pub session: Option<String>,

    /// Where sessions, locks and undo history live (also QUILL_STATE_DIR) [default:
    /// $XDG_STATE_HOME/quill].
    #[arg(long, global = true, value_name = "DIR")]
    pub state_dir: Option<PathBuf>,

    /// Confine every path to this directory, symlinks resolved (also QUILL_ROOT).
    #[arg(long, global = true, value_name = "DIR")]
    pub root: Option<PathBuf>,

    /// Refuse every change (read_only).
    #[arg(long, global = true, env = "QUILL_READ_ONLY", value_parser = clap::builder::FalseyValueParser::new())]
    pub read_only: bool,

    /// Changes need a complete read (every line shown, none cut).
    #[arg(long, global = true, env = "QUILL_STRICT", value_parser = clap::builder::FalseyValueParser::new())]
    pub strict: bool,

    /// Seconds to wait for a lock before lock_timeout (also QUILL_LOCK_TIMEOUT) [default: 30].
    #[arg(long, global = true, value_name = "SECS")]
    pub lock_timeout: Option<f64>,

    /// When to color text output.
    #[arg(long, global = true, value_enum, value_name = "WHEN", default_value_t = ColorChoice::Auto)]
    pub color: ColorChoice,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum ColorChoice {
    Auto,
    Always,
    Never,
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

const GUIDE_EXAMPLES: &str = "Examples:\n  quill guide >> system-prompt.md";
const COMPLETIONS_EXAMPLES: &str = "Examples:\n  quill completions bash > ~/.local/share/bash-completion/completions/quill\n  quill completions zsh > ~/.zfunc/_quill";
const MAN_EXAMPLES: &str = "Examples:\n  quill man | man -l -\n  quill man edit > quill-edit.1";

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

const READ_EXAMPLES: &str = "\
Examples:
  quill read src/lib.rs                       # lines 1-2000 (at most 50 KiB)
  quill read src/lib.rs --offset 2001         # the next page
  quill read big.log --offset 100 --limit 20  # 20 lines from line 100
  quill --json read notes.ipynb               # notebook cells as text
  quill read paper.pdf --pages 1-3            # needs pdftotext (poppler-utils)
  quill read src                              # a directory: two levels, paged
  quill read old.txt --encoding windows-1251  # instead of the detected encoding";

#[derive(Debug, Args)]
pub(crate) struct ReadArgs {
    /// The file (or directory) to read.
    pub path: PathBuf,
    /// First line to show, 1-based: a line number (the previous page's nextOffset); for a
    /// directory, the first entry.
    #[arg(long, value_name = "N", default_value_t = 1, aliases = ["start-line", "start_line", "line"])]
    pub offset: u64,
    /// Most lines to show.
    #[arg(long, value_name = "N", default_value_t = 2000)]
    pub limit: u64,
    /// Byte budget of the page; the page ends before the line that would pass it.
    #[arg(long, value_name = "N", default_value_t = 51200)]
    pub max_bytes: u64,
    /// Cut longer lines in the display (0 = no cap).
    #[arg(long, value_name = "N", default_value_t = 2000)]
    pub max_line_chars: u64,
    /// PDF pages to show, e.g. 3 or 2-5 [default: all, up to 20].
    #[arg(long, value_name = "A-B")]
    pub pages: Option<String>,
    /// Include an image's bytes as base64 `data` (up to 5 MiB).
    #[arg(long)]
    pub inline_image: bool,
    /// Hidden `--end-line N` (other tools' vocabulary): the last line to show.
    #[arg(skip)]
    pub end_line: Option<u64>,
    /// Hidden `--view-range A,B` (other tools' vocabulary): the first and last line.
    #[arg(skip)]
    pub view_range: Option<String>,
    /// Decode text in this encoding (windows-1251, latin1, shift_jis, utf-8, …) instead of
    /// detecting it.
    #[arg(long, value_name = "NAME")]
    pub encoding: Option<String>,
    /// A directory: list hidden entries too.
    #[arg(long)]
    pub hidden: bool,
    /// A directory: list what .gitignore, .ignore and .git/info/exclude leave out.
    #[arg(long)]
    pub no_ignore: bool,
}

/// The bytes of a command-line argument as the caller gave them, UTF-8 or not. On Unix any
/// bytes; elsewhere arguments are UTF-16, and one that is not Unicode text gives `None`.
pub(crate) fn arg_bytes(arg: &OsStr) -> Option<Vec<u8>> {
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;
        Some(arg.as_bytes().to_vec())
    }
    #[cfg(not(unix))]
    {
        arg.to_str().map(|s| s.as_bytes().to_vec())
    }
}

const WRITE_EXAMPLES: &str = "\
Examples:
  quill write notes.txt --content 'hello'            # create (or replace after a read)
  printf 'x\\n' | quill write out.txt --stdin          # content from stdin
  quill write cfg.toml --from new.toml --dry-run     # show the diff, change nothing
  quill write lock.json --expect-sha256 HEX --from f  # replace a known version
  quill write log.txt --content '' --allow-empty     # empty a file on purpose";

#[derive(Debug, Args)]
pub(crate) struct WriteArgs {
    /// The file to write.
    pub path: PathBuf,
    /// The new content.
    #[arg(
        long,
        value_name = "TEXT",
        allow_hyphen_values = true,
        conflicts_with_all = ["from", "stdin"],
        aliases = ["file-text", "file_text"]
    )]
    pub content: Option<OsString>,
    /// Take the new content from this file ('-' = stdin).
    #[arg(long, value_name = "FILE", conflicts_with = "stdin")]
    pub from: Option<PathBuf>,
    /// Take the new content from stdin (never read unless asked).
    #[arg(long)]
    pub stdin: bool,
    /// Allow replacing a non-empty file with empty content.
    #[arg(long)]
    pub allow_empty: bool,
    /// Allow an omission placeholder (`// ... rest of the code ...`) the file does not have.
    #[arg(long)]
    pub allow_placeholder: bool,
    /// Refuse if the file exists (create_conflict).
    #[arg(long)]
    pub create_only: bool,
    /// Replace only this version (stands in for a read baseline).
    #[arg(long, value_name = "HEX")]
    pub expect_sha256: Option<String>,
    /// Do not create missing parent directories.
    #[arg(long)]
    pub no_parents: bool,
    /// Create missing parent directories: the default, accepted as `mkdir -p` and `cp
    /// --parents` users type it.
    #[arg(long, hide = true, conflicts_with = "no_parents")]
    pub parents: bool,
    /// Plan and show the diff; write nothing.
    #[arg(long)]
    pub dry_run: bool,
}

const EDIT_EXAMPLES: &str = "\
Examples:
  quill edit src/a.rs --old 'let x = 1;' --new 'let x = 2;'
  quill edit src/a.rs --old 'foo' --new 'bar' --replace-all
  quill edit src/a.rs --old-file old.txt --new-file new.txt
  quill edit src/a.rs --edits edits.json   # [{\"old\":…,\"new\":…,\"replaceAll\":false}], all or nothing
  quill edit new.rs --old '' --new 'fn main() {}'   # create a file
  quill edit src/a.rs --lines 3-5 --new 'fn b() {}'    # lines 3 to 5 of the version read
  quill edit src/a.rs --insert-after 0 --new '// top'  # line numbers as read showed them";

#[derive(Debug, Args)]
pub(crate) struct EditArgs {
    /// The file to edit.
    pub path: PathBuf,
    /// The exact text to replace.
    #[arg(
        long,
        value_name = "TEXT",
        allow_hyphen_values = true,
        aliases = ["old-string", "old_string", "old-str", "old_str"]
    )]
    pub old: Option<OsString>,
    /// The replacement text.
    #[arg(
        long,
        value_name = "TEXT",
        allow_hyphen_values = true,
        aliases = ["new-string", "new_string", "new-str", "new_str"]
    )]
    pub new: Option<OsString>,
    /// Read `old` from a file.
    #[arg(long, value_name = "FILE", conflicts_with = "old")]
    pub old_file: Option<PathBuf>,
    /// Read `new` from a file.
    #[arg(long, value_name = "FILE", conflicts_with = "new")]
    pub new_file: Option<PathBuf>,
    /// A JSON array of edits applied in order, all or nothing ('-' = stdin).
    #[arg(long, value_name = "FILE", conflicts_with_all = ["old", "new", "old_file", "new_file"])]
    pub edits: Option<PathBuf>,
    /// Insert `new` as whole lines after line N of the version read (0 = at the top, the line
    /// count = at the end).
    #[arg(long, value_name = "N", conflicts_with_all = LINE_CONFLICTS)]
    pub insert_after: Option<usize>,
    /// Replace lines A to B of the version read (1-based, inclusive: `A-B` or `A,B`) with
    /// `new`; an empty `new` deletes them.
    #[arg(long, value_name = "A-B", value_parser = parse_line_range, conflicts_with_all = LINE_CONFLICTS, conflicts_with = "insert_after")]
    pub lines: Option<LineRange>,
    /// Replace every non-overlapping occurrence.
    #[arg(long, alias = "replace_all")]
    pub replace_all: bool,
    /// Fail unless exactly N occurrences are found.
    #[arg(long, value_name = "N", aliases = ["expected-replacements", "expected_replacements"])]
    pub expect_count: Option<usize>,
    /// Apply a unique match that differs only in whitespace, look-alike or invisible
    /// characters, read's line numbers or written-out escapes; the file's characters stay.
    #[arg(long)]
    pub fuzzy: bool,
    /// Edit only this version (stands in for a read baseline).
    #[arg(long, value_name = "HEX")]
    pub expect_sha256: Option<String>,
    /// Refuse files larger than this.
    #[arg(long, value_name = "N", default_value_t = 64 * 1024 * 1024)]
    pub max_file_bytes: u64,
    /// Apply the edit even though the session's last change of the file was this same edit.
    #[arg(long)]
    pub again: bool,
    /// Allow an omission placeholder (`// ... existing code ...`) in `new` that `old` and the
    /// file do not have.
    #[arg(long)]
    pub allow_placeholder: bool,
    /// Edit the file in this encoding (windows-1251, latin1, shift_jis, utf-8, …) instead of
    /// the detected one.
    #[arg(long, value_name = "NAME")]
    pub encoding: Option<String>,
    /// Plan and show the diff; write nothing.
    #[arg(long)]
    pub dry_run: bool,
}

/// What a line-addressed edit (`--insert-after`, `--lines`) cannot be combined with.
const LINE_CONFLICTS: [&str; 6] = [
    "old",
    "old_file",
    "edits",
    "replace_all",
    "expect_count",
    "fuzzy",
];

/// `--lines A-B`: the first and last line, 1-based and inclusive, as given (the range is
/// checked against the file).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct LineRange {
    pub first: usize,
    pub last: usize,
}

/// `A-B` or `A,B` (whole numbers); anything else names the accepted forms.
fn parse_line_range(s: &str) -> Result<LineRange, String> {
    let number = |n: &str| {
        (!n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
            .then(|| n.parse::<usize>().ok())
            .flatten()
    };
    s.split_once(['-', ','])
        .and_then(|(a, b)| {
            Some(LineRange {
                first: number(a)?,
                last: number(b)?,
            })
        })
        .ok_or_else(|| {
            "a line range is A-B or A,B: two line numbers, 1-based and inclusive (one line: 3-3)"
                .to_string()
        })
}

const GLOB_EXAMPLES: &str = "\
Examples:
  quill glob '**/*.rs'                   # newest first, at most 100
  quill glob '*.{md,txt}' docs --sort path
  quill glob '**/test_*' --all -0 | xargs -0 wc -l
  quill glob '**/*' --hidden --no-ignore --offset 100   # the next page";

#[derive(Debug, Args)]
pub(crate) struct GlobArgs {
    /// Glob over paths relative to PATH (`*` stays within a directory, `**` crosses).
    pub pattern: String,
    /// Where to search [default: .].
    pub path: Option<PathBuf>,
    /// Most entries to return, 0 = all [default: 100, or $QUILL_LIMIT].
    #[arg(long, value_name = "N")]
    pub limit: Option<usize>,
    /// Entries to skip, 0-based: 0 starts at the first (the previous page's nextOffset).
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub offset: usize,
    /// Order of the entries.
    #[arg(long, value_enum, default_value_t = SortKey::Mtime)]
    pub sort: SortKey,
    /// Match case-insensitively.
    #[arg(short = 'i', long)]
    pub ignore_case: bool,
    /// Include hidden files and directories.
    #[arg(long)]
    pub hidden: bool,
    /// Do not honor .gitignore, .ignore and .git/info/exclude.
    #[arg(long)]
    pub no_ignore: bool,
    /// Follow symbolic links.
    #[arg(short = 'L', long)]
    pub follow: bool,
    /// Stop the walk after this many entries.
    #[arg(long, value_name = "N", default_value_t = 1_000_000)]
    pub max_walk: usize,
    /// Separate paths with NUL instead of newline (text output).
    #[arg(short = '0', long = "null")]
    pub null: bool,
    /// Every entry: the same as --limit 0 (for scripts; also QUILL_LIMIT=0).
    #[arg(long, conflicts_with = "limit")]
    pub all: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum SortKey {
    /// Modification time, newest first; ties by path.
    Mtime,
    /// Path, in byte order.
    Path,
    /// Walk order (fastest).
    None,
}

const GREP_EXAMPLES: &str = "\
Examples:
  quill grep 'fn main' src
  quill grep -i -w todo --glob '*.rs' --glob '!target/**'
  quill grep -F 'a.b(c)' --mode files
  quill grep 'unsafe' -C 2 --limit 50 --offset 50   # the second page
  quill grep -U 'struct \\w+ \\{\\n\\s*pub' --type rust
  quill grep -e '-x' -e '--flag' src               # patterns starting with -
  cargo test 2>&1 | quill grep -c FAILED            # stdin, from a pipeline
  quill grep -rn TODO .                             # GNU habits: -r, -n, -E just work";

/// The arguments of grep any of which makes its PATTERN optional (clap keeps the list to
/// itself; `harness` checks a tool call against it too).
pub(crate) const GREP_PATTERN_UNLESS: [&str; 6] = [
    "type_list",
    "regexps",
    "perl_regexp",
    "include",
    "exclude",
    "exclude_dir",
];

#[derive(Debug, Args)]
pub(crate) struct GrepArgs {
    /// A Rust regex (or a literal with -F); one that starts with `-` needs -e or `--`.
    #[arg(required_unless_present_any = GREP_PATTERN_UNLESS)]
    pub pattern: Option<String>,
    /// Files or directories to search, `-` for stdin [default: stdin when something was sent
    /// to it within QUILL_STDIN_GRACE ms (100) or a pipeline feeds it, else .].
    pub paths: Vec<PathBuf>,
    /// A pattern (repeatable; lines matching any are found); then every positional is a PATH.
    #[arg(
        short = 'e',
        long = "regexp",
        value_name = "PATTERN",
        allow_hyphen_values = true
    )]
    pub regexps: Vec<String>,
    /// Treat the pattern as a literal string.
    #[arg(short = 'F', long)]
    pub fixed_strings: bool,
    /// Match case-insensitively.
    #[arg(short = 'i', long)]
    pub ignore_case: bool,
    /// Case-insensitive unless the pattern has an uppercase letter.
    #[arg(short = 'S', long)]
    pub smart_case: bool,
    /// Match whole words only.
    #[arg(short = 'w', long)]
    pub word_regexp: bool,
    /// Match whole lines only.
    #[arg(short = 'x', long)]
    pub line_regexp: bool,
    /// Find the lines that do not match.
    #[arg(short = 'v', long)]
    pub invert_match: bool,
    /// Show only the matched part of each line, one entry per match.
    #[arg(short = 'o', long, conflicts_with_all = ["invert_match", "context", "before_context", "after_context"])]
    pub only_matching: bool,
    /// Stop searching a file after NUM matching lines.
    #[arg(short = 'm', long, value_name = "NUM")]
    pub max_count: Option<u64>,
    /// Let matches span lines.
    #[arg(short = 'U', long)]
    pub multiline: bool,
    /// Include or (with !) exclude files by glob; repeatable.
    #[arg(short = 'g', long = "glob", value_name = "GLOB")]
    pub globs: Vec<String>,
    /// Only search files of this type (see --type-list); repeatable.
    #[arg(short = 't', long = "type", value_name = "TYPE")]
    pub types: Vec<String>,
    /// Skip files of this type; repeatable.
    #[arg(short = 'T', long = "type-not", value_name = "TYPE")]
    pub types_not: Vec<String>,
    /// List the known file types and exit.
    #[arg(long)]
    pub type_list: bool,
    /// Include hidden files and directories.
    #[arg(long)]
    pub hidden: bool,
    /// Do not honor .gitignore, .ignore and .git/info/exclude.
    #[arg(long)]
    pub no_ignore: bool,
    /// Follow symbolic links.
    #[arg(short = 'L', long)]
    pub follow: bool,
    /// What to report.
    #[arg(long, value_enum, default_value_t = GrepMode::Content)]
    pub mode: GrepMode,
    /// Only the paths of files with a match (= --mode files).
    #[arg(short = 'l', long, conflicts_with_all = ["mode", "count"])]
    pub files_with_matches: bool,
    /// Matching lines per file (= --mode count; with -o, matches).
    #[arg(short = 'c', long, conflicts_with = "mode")]
    pub count: bool,
    /// Show the path of every match (the default).
    #[arg(short = 'H', long, overrides_with = "no_filename")]
    pub with_filename: bool,
    /// Never show paths in content and count output (text output).
    #[arg(long, overrides_with = "with_filename")]
    pub no_filename: bool,
    /// Show line numbers (the default).
    #[arg(short = 'n', long, overrides_with = "no_line_number")]
    pub line_number: bool,
    /// Hide line numbers in text output.
    #[arg(short = 'N', long, overrides_with = "line_number")]
    pub no_line_number: bool,
    /// Lines of context after each match.
    #[arg(short = 'A', long, value_name = "NUM")]
    pub after_context: Option<usize>,
    /// Lines of context before each match.
    #[arg(short = 'B', long, value_name = "NUM")]
    pub before_context: Option<usize>,
    /// Lines of context before and after each match.
    #[arg(short = 'C', long, value_name = "NUM")]
    pub context: Option<usize>,
    /// Cut lines longer than this with a marker (0 = no cap).
    #[arg(long, value_name = "NUM", default_value_t = 500)]
    pub max_columns: usize,
    /// Most entries to return, 0 = all [default: 200, or $QUILL_LIMIT].
    #[arg(long, value_name = "N")]
    pub limit: Option<usize>,
    /// Entries to skip, 0-based: 0 starts at the first (the previous page's nextOffset).
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub offset: usize,
    /// Stop the walk after this many entries.
    #[arg(long, value_name = "N", default_value_t = 1_000_000)]
    pub max_walk: usize,
    /// Show the path above each file's matches (default on a terminal).
    #[arg(long, overrides_with = "no_heading")]
    pub heading: bool,
    /// Prefix every line with its path.
    #[arg(long, overrides_with = "heading")]
    pub no_heading: bool,
    /// Follow each path with NUL instead of `:` or a newline (text output), for xargs -0.
    #[arg(short = '0', long = "null")]
    pub null: bool,
    /// Every entry: the same as --limit 0 (for scripts; also QUILL_LIMIT=0).
    #[arg(long, conflicts_with = "limit")]
    pub all: bool,
    // GNU grep's flags: -r/-R and -E mean what quill does anyway and are accepted (agents type
    // `grep -rn`, `grep -rE` by habit); the others are parsed only so that `resolve` can say
    // what to type instead (a `usage` error whose hint is the fix). Hidden from help and man
    // pages; shell completions list them with these lines.
    /// GNU grep's -r/-R: accepted; directories are always searched recursively.
    #[arg(
        short = 'r',
        short_alias = 'R',
        long,
        alias = "dereference-recursive",
        hide = true
    )]
    pub recursive: bool,
    /// GNU grep's -E: accepted; the pattern is an extended (Rust) regex already.
    #[arg(short = 'E', long, hide = true)]
    pub extended_regexp: bool,
    /// GNU grep's -P: not supported, the pattern is a Rust regex.
    #[arg(short = 'P', long, hide = true)]
    pub perl_regexp: bool,
    /// GNU grep's --include: use --glob GLOB.
    #[arg(long, value_name = "GLOB", hide = true)]
    pub include: Vec<String>,
    /// GNU grep's --exclude: use --glob '!GLOB'.
    #[arg(long, value_name = "GLOB", hide = true)]
    pub exclude: Vec<String>,
    /// GNU grep's --exclude-dir: use --glob '!DIR/'.
    #[arg(long, value_name = "DIR", hide = true)]
    pub exclude_dir: Vec<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum GrepMode {
    /// Matching lines.
    Content,
    /// Paths of matching files.
    Files,
    /// Matching lines per file.
    Count,
}

const TRANSFER_EXAMPLES: &str = "\
Examples:
  quill transfer build/app dist/             # copy into a directory (create-only)
  quill transfer a.bin b.bin --move          # rename, or copy then remove the source
  quill transfer new.db live.db --replace-sha256 HEX   # replace a known version
  quill transfer big.iso /mnt/usb/ --progress json";

#[derive(Debug, Args)]
pub(crate) struct TransferArgs {
    /// The file to copy or move.
    pub source: PathBuf,
    /// The destination file, or an existing directory.
    pub destination: PathBuf,
    /// Remove the source once the destination is committed.
    #[arg(long = "move")]
    pub move_: bool,
    /// Replace an existing destination only if it has this SHA-256.
    #[arg(long, value_name = "HEX")]
    pub replace_sha256: Option<String>,
    /// The source must have this SHA-256 (checked on what was read).
    #[arg(long, value_name = "HEX")]
    pub expect_sha256: Option<String>,
    /// Do not create missing parent directories of the destination.
    #[arg(long)]
    pub no_parents: bool,
    /// Create missing parent directories: the default, accepted as `mkdir -p` and `cp
    /// --parents` users type it.
    #[arg(long, hide = true, conflicts_with = "no_parents")]
    pub parents: bool,
    /// Progress on stderr.
    #[arg(long, value_enum, default_value_t = ProgressMode::Auto)]
    pub progress: ProgressMode,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum ProgressMode {
    /// A bar when stderr is a terminal and the file is large.
    Auto,
    /// JSON lines on stderr.
    Json,
    /// Nothing.
    None,
}

const UNDO_EXAMPLES: &str = "\
Examples:
  quill undo src/a.rs            # revert quill's last change of it (up to 8 steps)
  quill undo                     # revert the session's last change, a whole apply included
  quill --json undo src/a.rs --dry-run";

#[derive(Debug, Args)]
pub(crate) struct UndoArgs {
    /// The file to restore; without it, the session's last change (every file of an apply).
    pub path: Option<PathBuf>,
    /// Show the diff; write nothing.
    #[arg(long)]
    pub dry_run: bool,
}

const RM_EXAMPLES: &str = "\
Examples:
  quill read old.rs && quill rm old.rs    # delete a file the session has read
  quill --json rm old.rs --dry-run        # the deletion as a diff; nothing removed
  quill undo old.rs                       # bring it back";

#[derive(Debug, Args)]
pub(crate) struct RmArgs {
    /// The file to delete (a symbolic link is refused).
    pub path: PathBuf,
    /// Delete only this version (stands in for a read baseline).
    #[arg(long, value_name = "HEX")]
    pub expect_sha256: Option<String>,
    /// Show the diff; remove nothing.
    #[arg(long)]
    pub dry_run: bool,
}

const APPLY_EXAMPLES: &str = "\
Examples:
  git diff > change.patch && quill apply change.patch   # every file read first (or --expect-sha256)
  quill apply --check change.patch        # would it apply? nothing written
  quill --json apply --dry-run - < change.patch         # the combined diff; nothing written
  quill apply codex.patch --fuzzy         # *** Begin Patch format; tolerate whitespace
  quill undo                              # revert the whole apply";

#[derive(Debug, Args)]
pub(crate) struct ApplyArgs {
    /// The patch file: a unified diff (git style) or a Codex `*** Begin Patch` ('-' = stdin).
    #[arg(value_name = "PATCH")]
    pub patch: PathBuf,
    /// Remove N leading components from the unified diff's paths (git's a/ and b/ are one).
    #[arg(short = 'p', long = "strip", value_name = "N", default_value_t = 1)]
    pub strip: usize,
    /// Locate hunks that differ only in whitespace or look-alike characters (unique matches).
    #[arg(long)]
    pub fuzzy: bool,
    /// PATH=HEX: change this file only at this version (stands in for a read baseline).
    #[arg(long, value_name = "PATH=HEX")]
    pub expect_sha256: Vec<String>,
    /// Refuse files (and the patch) larger than this.
    #[arg(long, value_name = "N", default_value_t = 64 * 1024 * 1024)]
    pub max_file_bytes: u64,
    /// Allow an omission placeholder (`// ... existing code ...`) in added lines that the file
    /// does not have.
    #[arg(long)]
    pub allow_placeholder: bool,
    /// Place a unified hunk without context lines (`git diff -U0`) by its line number alone.
    #[arg(long)]
    pub unidiff_zero: bool,
    /// Only check that the patch applies (as `git apply --check`); write nothing, show no diff.
    #[arg(long, conflicts_with = "dry_run")]
    pub check: bool,
    /// Plan and show the combined diff; write nothing.
    #[arg(long)]
    pub dry_run: bool,
}

const STATE_EXAMPLES: &str = "\
Examples:
  quill state                      # this session's baselines
  quill state --all-sessions       # every session
  quill state forget src/a.rs      # drop one baseline
  QUILL_SESSION=agent-2 quill state clear";

#[derive(Debug, Args)]
#[command(args_conflicts_with_subcommands = true)]
pub(crate) struct StateArgs {
    #[command(subcommand)]
    pub action: Option<StateAction>,
    /// List every session instead of this one's baselines.
    #[arg(long)]
    pub all_sessions: bool,
}

#[derive(Debug, Subcommand)]
pub(crate) enum StateAction {
    /// List the session's baselines.
    Show,
    /// Forget the baseline of one file.
    Forget {
        /// The file to forget.
        path: PathBuf,
    },
    /// Forget every baseline of the session.
    Clear,
}

const TOOLS_EXAMPLES: &str = "\
Examples:
  quill tools --format openai > tools.json     # [{\"type\": \"function\", \"function\": {…}}]
  quill tools --format anthropic               # [{\"name\", \"description\", \"input_schema\"}]
  quill tools | jq '.[].name'                  # quill_read, quill_write, …

Tool names are quill_OP; argument keys are camelCase (quill call also takes snake_case and
kebab-case). The session, root and other global options are not arguments: set them on
`quill call`'s command line or in the environment.";

#[derive(Debug, Args)]
pub(crate) struct ToolsArgs {
    /// The shape of the definitions.
    #[arg(long, value_enum, default_value_t = ToolFormat::Json)]
    pub format: ToolFormat,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum ToolFormat {
    /// Chat Completions `tools`: {"type": "function", "function": {name, description, parameters}}.
    Openai,
    /// Messages API `tools`: {name, description, input_schema}.
    Anthropic,
    /// quill's own: {name, op, description, inputSchema}.
    Json,
}

const CALL_EXAMPLES: &str = "\
Examples:
  echo '{\"tool\": \"quill_read\", \"arguments\": {\"path\": \"src/a.rs\"}}' | quill call
  quill --session agent-1 --root . call < request.json
  echo '{\"tool\":\"edit\",\"arguments\":{\"path\":\"a.rs\",\"edits\":[{\"old\":\"a\",\"new\":\"b\"}]}}' | quill call

The answer is always the JSON object of `quill --json OP …`. Keys are the tool's arguments
(`quill tools`) in any of camelCase, snake_case or kebab-case, and the aliases the flags take
(old_string, file_path, replace_all); write's content is `content`, edit's `edits` a JSON
array. `{\"name\", \"arguments\"}` (arguments as a JSON string too) and `{\"name\", \"input\"}`
are taken as well, so a model's tool call can be piped as it is.";

#[derive(Debug, Args)]
pub(crate) struct CallArgs {}

const MCP_EXAMPLES: &str = "\
Examples:
  claude mcp add quill -- quill mcp                 # Claude Code: register the server
  quill --root ~/src/app mcp                        # confined to one directory
  quill --session agent-1 mcp                       # share the CLI's session agent-1

The server speaks MCP (JSON-RPC, one message per line) on stdin and stdout and logs to
stderr. Its tools are those `quill tools` prints, each run exactly as `quill call` runs it:
the result's structuredContent is the JSON answer, its text the answer a terminal shows.
The session is --session (or QUILL_SESSION), else one made for the connection (mcp-…);
baselines live in the state directory the CLI uses. --root (or QUILL_ROOT) confines every
path; without it, the client's root (MCP roots) does, when it names one. The server exits
when stdin closes.";

#[derive(Debug, Args)]
pub(crate) struct McpArgs {}

#[derive(Debug, Args)]
pub(crate) struct GuideArgs {}

#[derive(Debug, Args)]
pub(crate) struct CompletionsArgs {
    /// The shell.
    #[arg(value_enum)]
    pub shell: clap_complete::Shell,
}

#[derive(Debug, Args)]
pub(crate) struct ManArgs {
    /// A subcommand's page instead of the main one.
    pub command: Option<String>,
}

const SCHEMA_EXAMPLES: &str = "\
Examples:
  quill schema edit > edit.schema.json      # what `quill --json edit` answers on success
  quill schema error                        # the failure object of every command
  quill schema | jq 'keys'                  # all of them, keyed by name

The same files are committed under schema/ in quill's repository.";

#[derive(Debug, Args)]
pub(crate) struct SchemaArgs {
    /// The op (read, write, edit, undo, glob, grep, transfer, state, version), `error`, or
    /// `progress` (transfer's JSON progress lines); without it, every schema keyed by name.
    #[arg(value_parser = clap::builder::PossibleValuesParser::new(crate::schema::NAMES))]
    pub name: Option<String>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn a_line_range_is_a_dash_b_or_a_comma_b() {
        let r = |first, last| Ok(LineRange { first, last });
        assert_eq!(parse_line_range("3-5"), r(3, 5));
        assert_eq!(parse_line_range("3,5"), r(3, 5));
        assert_eq!(parse_line_range("0-0"), r(0, 0));
        for bad in ["3", "3:5", "a-b", "-5", "3-", "1-2-3", "+1-2", " 1-2", ""] {
            let e = parse_line_range(bad).unwrap_err();
            assert!(e.contains("A-B or A,B"), "{bad:?}: {e}");
        }
    }

    #[test]
    fn cli_is_consistent() {
        Cli::command().debug_assert();
        canonical().debug_assert();
        command().debug_assert();
    }
}
