//! The arguments and examples of the commands that search: `glob` (file names) and `grep`
//! (contents, with the GNU grep flags it takes or explains).

use std::path::PathBuf;

use clap::{Args, ValueEnum};

pub(super) const GLOB_EXAMPLES: &str = "\
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

pub(super) const GREP_EXAMPLES: &str = "\
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
/// itself; `agent` checks a tool call against it too).
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
