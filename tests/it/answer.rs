//! The JSON answers (docs/json.md) as the tests read them: one struct per op with the fields the
//! contract requires, so an answer that lacks one fails the test where it is parsed
//! (`Out::read()`, `Out::mutation()`, …) instead of comparing `Value::Null` with something.
//!
//! Field rules: a plain field must be present with that type; `#[serde(deserialize_with =
//! "present")] Option<T>` must be present and may be `null`; `#[serde(default)] Option<T>` may
//! be absent (a key the contract adds only in some cases). Unknown keys are ignored: new keys
//! may be added, none renamed.

#![allow(dead_code)] // each test reads the fields it checks

use serde::{Deserialize, Deserializer};
use serde_json::{Map, Value};

/// A key that must be there, `null` allowed (serde would take a missing `Option` as `None`).
fn present<'de, D, T>(d: D) -> Result<Option<T>, D::Error>
where
    D: Deserializer<'de>,
    T: Deserialize<'de>,
{
    Option::<T>::deserialize(d)
}

/// One of `warnings`: a stable kind and a message for people.
#[derive(Debug, Deserialize, Clone, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct Warning {
    pub kind: String,
    pub message: String,
}

impl Warning {
    /// A warning of `kind` whose message says `text`.
    pub fn says(&self, kind: &str, text: &str) -> bool {
        self.kind == kind && self.message.contains(text)
    }
}

/// The kinds of `warnings`, in order.
pub fn kinds(warnings: &[Warning]) -> Vec<&str> {
    warnings.iter().map(|w| w.kind.as_str()).collect()
}

/// What every answer has.
#[derive(Debug, Deserialize)]
pub struct Envelope {
    pub ok: bool,
    /// `null` only for a command line that names no subcommand.
    #[serde(deserialize_with = "present")]
    pub op: Option<String>,
    pub warnings: Vec<Warning>,
}

#[derive(Debug, Deserialize, PartialEq, Eq)]
pub struct FileAccess {
    pub path: String,
    pub access: String,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ReadAnswer {
    pub ok: bool,
    pub op: String,
    pub warnings: Vec<Warning>,
    pub path: String,
    /// Absent when nothing was recorded (an image not shown, part of a PDF).
    #[serde(default)]
    pub file_access: Option<FileAccess>,
    pub kind: String,
    #[serde(deserialize_with = "present")]
    pub encoding: Option<String>,
    pub bom: bool,
    pub line_ending: String,
    pub start_line: u64,
    pub end_line: u64,
    pub total_lines: u64,
    #[serde(deserialize_with = "present")]
    pub next_offset: Option<u64>,
    pub content: String,
    pub truncated_lines: Vec<u64>,
    pub size: u64,
    /// `null` when not all of the file was shown (images, partial PDFs).
    #[serde(deserialize_with = "present")]
    pub sha256: Option<String>,
    pub complete: bool,
    pub lossy: bool,
    #[serde(default)]
    pub via_symlink: Option<String>,
    // images
    #[serde(default)]
    pub mime: Option<String>,
    #[serde(default)]
    pub width: Option<u64>,
    #[serde(default)]
    pub height: Option<u64>,
    #[serde(default)]
    pub data: Option<String>,
    // PDFs
    #[serde(default)]
    pub page_count: Option<u64>,
}

/// `write`, `edit` and `undo`.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Mutation {
    pub ok: bool,
    pub op: String,
    pub warnings: Vec<Warning>,
    pub path: String,
    /// Absent on a dry run (nothing was written).
    #[serde(default)]
    pub file_access: Option<FileAccess>,
    pub created: bool,
    pub dry_run: bool,
    pub bytes: u64,
    /// `null` when no file is left (rm, undo of a creation).
    #[serde(deserialize_with = "present")]
    pub sha256: Option<String>,
    #[serde(deserialize_with = "present")]
    pub previous_sha256: Option<String>,
    pub diff: String,
    pub diff_truncated: bool,
    /// `null` with `patchUnavailable` saying why (UTF-16, invalid UTF-8).
    #[serde(deserialize_with = "present")]
    pub patch: Option<String>,
    pub patch_truncated: bool,
    #[serde(default)]
    pub patch_unavailable: Option<String>,
    pub added: u64,
    pub removed: u64,
    #[serde(default)]
    pub via_symlink: Option<String>,
    // edit
    #[serde(default)]
    pub replacements: Option<u64>,
    #[serde(default)]
    pub matched_fuzzily: Option<bool>,
    #[serde(default)]
    pub spans: Option<Vec<Span>>,
    /// edit of a file that is not UTF-8: the encoding it was written in.
    #[serde(default)]
    pub encoding: Option<String>,
    // undo
    #[serde(default)]
    pub deleted: Option<bool>,
}

#[derive(Debug, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct Span {
    pub start_line: u64,
    pub end_line: u64,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Glob {
    pub ok: bool,
    pub op: String,
    pub warnings: Vec<Warning>,
    pub files: Vec<String>,
    pub total: u64,
    pub truncated: bool,
    #[serde(deserialize_with = "present")]
    pub next_offset: Option<u64>,
    pub offset: u64,
    pub walk_incomplete: bool,
    pub unreadable_directories: Vec<String>,
    pub unreadable_files: Vec<String>,
    #[serde(deserialize_with = "present")]
    pub why: Option<Why>,
}

/// Why a glob or grep answer is empty or short.
#[derive(Debug, Deserialize)]
pub struct Why {
    pub reason: String,
    pub count: u64,
    pub complete: bool,
    pub flags: Vec<String>,
    #[serde(deserialize_with = "present")]
    pub pattern: Option<String>,
    pub examples: Vec<String>,
    #[serde(deserialize_with = "present")]
    pub call: Option<String>,
    pub message: String,
}

/// A grep search; `matches`, `files` or `counts` by `mode`.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Grep {
    pub ok: bool,
    pub op: String,
    pub warnings: Vec<Warning>,
    pub mode: String,
    pub total: u64,
    #[serde(default)]
    pub matches: Option<Vec<GrepMatch>>,
    #[serde(default)]
    pub files: Option<Vec<String>>,
    #[serde(default)]
    pub counts: Option<Vec<GrepCount>>,
    pub truncated: bool,
    #[serde(deserialize_with = "present")]
    pub next_offset: Option<u64>,
    pub offset: u64,
    pub files_searched: u64,
    pub skipped_binary: u64,
    pub walk_incomplete: bool,
    pub unreadable_directories: Vec<String>,
    pub unreadable_files: Vec<String>,
    /// PATHs named among others that do not exist (exit 2).
    pub missing_paths: Vec<String>,
    #[serde(deserialize_with = "present")]
    pub why: Option<Why>,
}

impl Grep {
    /// The matches of a content-mode answer.
    #[track_caller]
    pub fn matches(&self) -> &[GrepMatch] {
        self.matches
            .as_deref()
            .unwrap_or_else(|| panic!("no `matches` in a {} mode answer", self.mode))
    }

    /// The files of a files-mode answer.
    #[track_caller]
    pub fn files(&self) -> &[String] {
        self.files
            .as_deref()
            .unwrap_or_else(|| panic!("no `files` in a {} mode answer", self.mode))
    }
}

#[derive(Debug, Deserialize, Clone, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct GrepMatch {
    pub path: String,
    pub line: u64,
    pub column: u64,
    pub text: String,
    pub before: Vec<ContextLine>,
    pub after: Vec<ContextLine>,
    /// Multiline (`-U`) matches only.
    #[serde(default)]
    pub end_line: Option<u64>,
}

#[derive(Debug, Deserialize, Clone, PartialEq, Eq)]
pub struct ContextLine {
    pub line: u64,
    pub text: String,
}

#[derive(Debug, Deserialize)]
pub struct GrepCount {
    pub path: String,
    pub count: u64,
}

/// `grep --type-list`.
#[derive(Debug, Deserialize)]
pub struct TypeList {
    pub ok: bool,
    pub op: String,
    pub warnings: Vec<Warning>,
    pub total: u64,
    pub types: Vec<FileTypeDef>,
}

#[derive(Debug, Deserialize)]
pub struct FileTypeDef {
    pub name: String,
    pub globs: Vec<String>,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Transfer {
    pub ok: bool,
    pub op: String,
    pub warnings: Vec<Warning>,
    pub source: String,
    pub destination: String,
    pub bytes: u64,
    /// `null` for a rename (nothing was read).
    #[serde(deserialize_with = "present")]
    pub sha256: Option<String>,
    pub method: String,
    pub replaced: bool,
    pub source_removed: bool,
    pub file_access: FileAccess,
    #[serde(default)]
    pub via_symlink: Option<String>,
    #[serde(default)]
    pub source_kept_reason: Option<String>,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct StateAnswer {
    pub ok: bool,
    pub op: String,
    pub warnings: Vec<Warning>,
    pub session: String,
    /// `show`, `sessions`, `forget`, `clear`.
    pub action: String,
    #[serde(default)]
    pub baselines: Option<Vec<Baseline>>,
    #[serde(default)]
    pub sessions: Option<Vec<SessionInfo>>,
    /// `forget`: whether there was a baseline to forget.
    #[serde(default)]
    pub forgotten: Option<bool>,
    /// `clear`: how many baselines were dropped.
    #[serde(default)]
    pub cleared: Option<u64>,
}

impl StateAnswer {
    /// The baselines of a `show` answer.
    #[track_caller]
    pub fn baselines(&self) -> &[Baseline] {
        self.baselines
            .as_deref()
            .unwrap_or_else(|| panic!("no `baselines` in a state {} answer", self.action))
    }

    /// The paths of a `show` answer's baselines.
    #[track_caller]
    pub fn paths(&self) -> Vec<String> {
        self.baselines().iter().map(|f| f.path.clone()).collect()
    }

    #[track_caller]
    pub fn sessions(&self) -> &[SessionInfo] {
        self.sessions
            .as_deref()
            .unwrap_or_else(|| panic!("no `sessions` in a state {} answer", self.action))
    }
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Baseline {
    pub path: String,
    /// 64 hex digits.
    pub sha256: String,
    pub size: u64,
    pub read_at: String,
    pub complete: bool,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SessionInfo {
    pub session: String,
    pub baselines: u64,
    pub last_used: String,
}

/// `{"ok": false, "op": …, "error": {…}, "warnings": […]}`.
#[derive(Debug, Deserialize)]
pub struct Failure {
    pub ok: bool,
    /// `null` when no subcommand was identified (`quill frobnicate`).
    #[serde(deserialize_with = "present")]
    pub op: Option<String>,
    pub warnings: Vec<Warning>,
    pub error: ErrorBody,
}

#[derive(Debug, Deserialize)]
pub struct ErrorBody {
    pub kind: String,
    pub message: String,
    #[serde(deserialize_with = "present")]
    pub hint: Option<String>,
    /// The kind-specific fields (`path`, `similar`, `window`, `count`, …).
    #[serde(flatten)]
    pub fields: Map<String, Value>,
}

impl ErrorBody {
    /// A kind-specific field that must be there.
    #[track_caller]
    pub fn field(&self, key: &str) -> &Value {
        self.fields
            .get(key)
            .unwrap_or_else(|| panic!("the {} error has no `{key}`: {:?}", self.kind, self.fields))
    }
}

/// The fields every `usage` error carries (null when clap names none).
#[derive(Debug, Deserialize)]
pub struct UsageFields {
    #[serde(deserialize_with = "present")]
    pub argument: Option<String>,
    #[serde(deserialize_with = "present")]
    pub suggestion: Option<String>,
    #[serde(deserialize_with = "present")]
    pub usage: Option<String>,
}

/// `quill --json --version`.
#[derive(Debug, Deserialize)]
pub struct VersionAnswer {
    pub ok: bool,
    pub op: String,
    pub warnings: Vec<Warning>,
    pub version: String,
    #[serde(deserialize_with = "present")]
    pub commit: Option<String>,
    #[serde(deserialize_with = "present")]
    pub date: Option<String>,
}

/// `quill read DIR`.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Listing {
    pub ok: bool,
    pub op: String,
    pub warnings: Vec<Warning>,
    pub path: String,
    pub kind: String,
    pub entries: Vec<ListingEntry>,
    pub start_entry: u64,
    pub end_entry: u64,
    pub total_entries: u64,
    #[serde(deserialize_with = "present")]
    pub next_offset: Option<u64>,
    pub depth: u64,
    #[serde(deserialize_with = "present")]
    pub hidden_left_out: Option<u64>,
    #[serde(deserialize_with = "present")]
    pub ignored_left_out: Option<u64>,
    pub walk_incomplete: bool,
    pub unreadable_directories: Vec<String>,
    /// A listing shows no file: it must not have these.
    #[serde(default)]
    pub file_access: Option<Value>,
    #[serde(default)]
    pub sha256: Option<Value>,
}

#[derive(Debug, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct ListingEntry {
    pub path: String,
    #[serde(default)]
    pub path_bytes: Option<String>,
    #[serde(rename = "type")]
    pub kind: String,
    #[serde(deserialize_with = "present")]
    pub size: Option<u64>,
    pub depth: u64,
    #[serde(default)]
    pub target: Option<String>,
}
