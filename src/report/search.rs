//! The results of `quill glob` and `quill grep` (docs/commands/glob.md; docs/commands/grep.md): a sorted page of paths,
//! matches or counts with the exact total and the next offset, and what the walk could not
//! see. Data only; `output::search` prints them.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use schemars::JsonSchema;
use serde::{Serialize, Serializer};

use super::AsTyped;

/// The report fields about the walk itself.
#[derive(Debug, Default, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct WalkSummary {
    /// Some part of the tree was not searched (unreadable, or `--max-walk`).
    pub walk_incomplete: bool,
    /// Directories below PATH that could not be read (skipped), sorted.
    #[serde(flatten, serialize_with = "crate::text::names::unreadable_directories")]
    #[schemars(schema_with = "crate::text::names::list::unreadable_directories")]
    pub unreadable_directories: Vec<PathBuf>,
    /// Files that could not be opened or read (skipped), sorted.
    #[serde(flatten, serialize_with = "crate::text::names::unreadable_files")]
    #[schemars(schema_with = "crate::text::names::list::unreadable_files")]
    pub unreadable_files: Vec<PathBuf>,
}

/// Why an answer is empty or short although something would match: found by a bounded second
/// look after the search (`why`). Text output prints `message` on stderr.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Why {
    /// `filtered`: ignore files or hidden names hid matches (`flags` include them);
    /// `deeper`: the pattern matches nothing at the top but `pattern` (`**/…`) matches below;
    /// `literal`: a `[...]` glob matched nothing, and `pattern` (its brackets escaped) is what
    /// was matched instead; `fixed`: a grep regex with metacharacters matched nothing, but as a
    /// fixed string it matches (`flags`: `-F`); `rewritten`: it matches once GNU grep's `\|`
    /// is read as alternation (`pattern`).
    #[schemars(extend("enum" = ["filtered", "deeper", "literal", "fixed", "rewritten"]))]
    pub reason: &'static str,
    /// Files the second look found; a lower bound when not `complete`.
    pub count: usize,
    /// The second look saw everything (it stops after 10,000 entries or 200 ms).
    pub complete: bool,
    /// The flags that include them: `--no-ignore`, `--hidden`.
    pub flags: Vec<&'static str>,
    /// The pattern that finds them, when it is not the one given.
    pub pattern: Option<String>,
    /// Up to 3 of them, absolute, in path order (lossily decoded: never an error).
    #[serde(flatten, serialize_with = "crate::text::names::examples")]
    #[schemars(schema_with = "crate::text::names::list::examples")]
    pub examples: Vec<PathBuf>,
    /// The call that shows them; null when the command line cannot be repeated.
    pub call: Option<String>,
    /// The same in one line.
    pub message: String,
}

/// A page of `quill glob`.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct GlobReport {
    /// Absolute paths of this page.
    #[serde(flatten, serialize_with = "crate::text::names::files")]
    #[schemars(schema_with = "crate::text::names::list::files")]
    pub files: Vec<PathBuf>,
    /// Matches in the whole result.
    pub total: usize,
    /// This page is not the whole result.
    pub truncated: bool,
    /// The `--offset` of the next page; null on the last.
    pub next_offset: Option<usize>,
    /// The `--offset` of this page (entries skipped, 0-based).
    pub offset: usize,
    #[serde(flatten)]
    pub walk: WalkSummary,
    /// Why the answer is empty or short, when the second look found a reason; else null.
    pub why: Option<Why>,
    /// Text output: NUL-separated (`-0`).
    #[serde(skip)]
    pub null: bool,
    /// Text output: PATH as typed.
    #[serde(skip)]
    pub typed: AsTyped,
    /// Text output: the files were printed as they were found (`output::stream`).
    #[serde(skip)]
    pub streamed: bool,
}

/// A page of `quill grep` (or the list of file types).
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct GrepReport {
    /// A search's page, or `--type-list`'s types. First: a streamed answer's matches go out
    /// before `total` is known (`output::stream`).
    #[serde(flatten)]
    pub body: GrepBody,
    /// Entries in the whole result: matches (content), files (files, count), or known types.
    pub total: usize,
    /// How text output is laid out.
    #[serde(skip)]
    pub view: View,
    /// Text output: the PATH arguments as typed.
    #[serde(skip)]
    pub typed: AsTyped,
}

/// What a grep answers: a search, or the known file types.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(untagged)]
pub(crate) enum GrepBody {
    Search(Box<SearchResult>),
    Types { types: Vec<TypeDef> },
}

/// One page of a search.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct SearchResult {
    /// `content`, `files` or `count` (`--mode`).
    #[schemars(extend("enum" = ["content", "files", "count"]))]
    pub mode: &'static str,
    /// Content mode: the matches of this page, by path then line.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub matches: Option<Vec<GrepMatch>>,
    /// Files mode: absolute paths of the matching files of this page.
    #[serde(flatten, serialize_with = "crate::text::names::files")]
    #[schemars(schema_with = "crate::text::names::opt_list::files")]
    pub files: Option<Vec<PathBuf>>,
    /// Count mode: matching lines per file.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub counts: Option<Vec<FileCount>>,
    /// This page is not the whole result.
    pub truncated: bool,
    /// The `--offset` of the next page; null on the last.
    pub next_offset: Option<usize>,
    /// The `--offset` of this page.
    pub offset: usize,
    /// Files opened and searched.
    pub files_searched: usize,
    /// Files skipped because they hold a NUL byte.
    pub skipped_binary: usize,
    #[serde(flatten)]
    pub walk: WalkSummary,
    /// PATHs named among others that do not exist (the others were searched; exit 2).
    #[serde(flatten, serialize_with = "crate::text::names::missing_paths")]
    #[schemars(schema_with = "crate::text::names::list::missing_paths")]
    pub missing_paths: Vec<PathBuf>,
    /// Why nothing matched, when the second look found matches the filters hid; else null.
    pub why: Option<Why>,
    /// Their `not_found` errors, which text output prints after the results.
    #[serde(skip)]
    pub missing: Vec<crate::error::Error>,
    /// The entries were printed as they were found (`output::stream`); the rest of the
    /// answer is printed as usual.
    #[serde(skip)]
    pub streamed: bool,
    /// Streamed JSON files mode: the `filesBytes` of the names printed (`output::stream`).
    #[serde(skip)]
    pub streamed_raw_names: Option<String>,
}

/// One matching line (or, with `-U`, one match spanning `line..=endLine`).
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct GrepMatch {
    /// The file (absolute), shared by its matches.
    #[serde(flatten, serialize_with = "crate::text::names::path")]
    #[schemars(schema_with = "crate::text::names::one::path")]
    pub path: Arc<Path>,
    /// 1-based line number.
    pub line: u64,
    /// With `-U`: the last line the match spans, when it is not `line`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub end_line: Option<u64>,
    /// 1-based byte column of the first match in the line.
    pub column: usize,
    /// The line, lossily decoded, cut after `--max-columns` bytes with a marker.
    pub text: Text,
    /// `-B`/`-C` context lines before the match, in order.
    pub before: Vec<ContextLine>,
    /// `-A`/`-C` context lines after the match, in order.
    pub after: Vec<ContextLine>,
    /// Byte spans of the matches in `text`, for coloring (text output only).
    #[serde(skip)]
    pub spans: Vec<(usize, usize)>,
}

/// A context line around a match.
#[derive(Debug, Serialize, JsonSchema)]
pub(crate) struct ContextLine {
    /// 1-based line number.
    pub line: u64,
    /// The line, shown like a match's.
    pub text: Text,
}

/// A line's display text: a slice of its file's shared text arena, so a page of many
/// matches is not copied line by line.
#[derive(Debug, Clone)]
pub(crate) struct Text {
    arena: Arc<str>,
    start: usize,
    end: usize,
}

impl Text {
    /// Bytes `start..end` of `arena` (which must be character boundaries).
    pub(crate) fn new(arena: Arc<str>, start: usize, end: usize) -> Text {
        Text { arena, start, end }
    }
}

impl std::ops::Deref for Text {
    type Target = str;
    fn deref(&self) -> &str {
        &self.arena[self.start..self.end]
    }
}

impl JsonSchema for Text {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Text".into()
    }
    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "type": "string",
            "description": "The line, lossily decoded (U+FFFD for bytes that are not UTF-8), \
                without its line terminator; cut after `--max-columns` bytes with a marker."
        })
    }
}

impl Serialize for Text {
    fn serialize<S: Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        s.serialize_str(self)
    }
}

/// Count mode: one file's matching lines.
#[derive(Debug, Serialize, JsonSchema)]
pub(crate) struct FileCount {
    /// The file (absolute).
    #[serde(flatten, serialize_with = "crate::text::names::path")]
    #[schemars(schema_with = "crate::text::names::one::path")]
    pub path: PathBuf,
    /// Its matching lines.
    pub count: u64,
}

/// A file type of `--type`, as ripgrep defines it.
#[derive(Debug, Serialize, JsonSchema)]
pub(crate) struct TypeDef {
    /// The name `--type` takes.
    pub name: String,
    /// The globs that select its files.
    pub globs: Vec<String>,
}

/// How text output is laid out; not part of the JSON.
#[derive(Debug, Default, Clone, Copy)]
pub(crate) struct View {
    /// A path heading above each file's lines (else the path prefixes every line).
    pub heading: bool,
    /// `line:` before each line.
    pub line_numbers: bool,
    /// Context is shown: `--` between groups that are not adjacent.
    pub context: bool,
    /// `-0`: a NUL after each path instead of `:` or a newline.
    pub null: bool,
    /// `--no-filename`: no path before lines or counts, no headings.
    pub no_filename: bool,
}
