//! The results of `quill glob` and `quill grep` (SPEC §3.5, §3.6): a sorted page of paths,
//! matches or counts with the exact total and the next offset, and what the walk could not
//! see. Data only; `output::search` prints them.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde::{Serialize, Serializer};

/// The report fields about the walk itself.
#[derive(Debug, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct WalkSummary {
    /// Some part of the tree was not searched (unreadable, or `--max-walk`).
    pub walk_incomplete: bool,
    pub unreadable_directories: Vec<PathBuf>,
    pub unreadable_files: Vec<PathBuf>,
}

/// A page of `quill glob`.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct GlobReport {
    /// Absolute paths of this page.
    pub files: Vec<PathBuf>,
    /// Matches in the whole result.
    pub total: usize,
    /// This page is not the whole result.
    pub truncated: bool,
    /// The `--offset` of the next page; null on the last.
    pub next_offset: Option<usize>,
    /// The `--offset` of this page.
    pub offset: usize,
    #[serde(flatten)]
    pub walk: WalkSummary,
    /// Text output: NUL-separated (`-0`).
    #[serde(skip)]
    pub null: bool,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct GrepReport {
    /// Entries in the whole result: matches (content), files (files, count), or known types.
    pub total: usize,
    #[serde(flatten)]
    pub body: GrepBody,
    #[serde(skip)]
    pub view: View,
}

#[derive(Debug, Serialize)]
#[serde(untagged)]
pub enum GrepBody {
    Search(Box<SearchResult>),
    Types { types: Vec<TypeDef> },
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SearchResult {
    pub mode: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub matches: Option<Vec<GrepMatch>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub files: Option<Vec<PathBuf>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub counts: Option<Vec<FileCount>>,
    /// Text output of a whole result (`--limit 0`, no offset): each file's printed bytes,
    /// rendered by the worker threads, in path order. Not part of the JSON.
    #[serde(skip)]
    pub rendered: Option<Vec<Box<[u8]>>>,
    pub truncated: bool,
    pub next_offset: Option<usize>,
    pub offset: usize,
    pub files_searched: usize,
    pub skipped_binary: usize,
    #[serde(flatten)]
    pub walk: WalkSummary,
}

/// One matching line (or, with `-U`, one match spanning `line..=endLine`).
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct GrepMatch {
    #[serde(serialize_with = "ser_path")]
    pub path: Arc<Path>,
    pub line: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub end_line: Option<u64>,
    /// 1-based byte column of the first match in the line.
    pub column: usize,
    pub text: Text,
    pub before: Vec<ContextLine>,
    pub after: Vec<ContextLine>,
    /// Byte spans of the matches in `text`, for coloring (text output only).
    #[serde(skip)]
    pub spans: Vec<(usize, usize)>,
}

#[derive(Debug, Serialize)]
pub struct ContextLine {
    pub line: u64,
    pub text: Text,
}

/// A line's display text: a slice of its file's shared text arena, so a page of many
/// matches is not copied line by line.
#[derive(Debug, Clone)]
pub struct Text {
    arena: Arc<str>,
    start: usize,
    end: usize,
}

impl Text {
    /// Bytes `start..end` of `arena` (which must be character boundaries).
    pub fn new(arena: Arc<str>, start: usize, end: usize) -> Text {
        Text { arena, start, end }
    }
}

impl std::ops::Deref for Text {
    type Target = str;
    fn deref(&self) -> &str {
        &self.arena[self.start..self.end]
    }
}

impl Serialize for Text {
    fn serialize<S: Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        s.serialize_str(self)
    }
}

#[derive(Debug, Serialize)]
pub struct FileCount {
    pub path: PathBuf,
    pub count: u64,
}

#[derive(Debug, Serialize)]
pub struct TypeDef {
    pub name: String,
    pub globs: Vec<String>,
}

/// How text output is laid out; not part of the JSON.
#[derive(Debug, Default, Clone, Copy)]
pub struct View {
    pub heading: bool,
    pub line_numbers: bool,
    pub context: bool,
    /// `-0`: a NUL after each path instead of `:` or a newline.
    pub null: bool,
}

fn ser_path<S: Serializer>(p: &Arc<Path>, s: S) -> std::result::Result<S::Ok, S::Error> {
    p.serialize(s)
}
