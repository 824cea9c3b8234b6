//! The result of `quill apply` (docs/commands/apply.md), and of `quill undo` without a path
//! (docs/commands/undo.md): one entry per file the patch changed
//! (what happened to it, its hashes, its lines), the combined display diff and the combined
//! git-style patch. Data only.

use std::path::PathBuf;

use schemars::JsonSchema;
use serde::Serialize;

use super::{AsTyped, FileAccess, LineSpan};

/// The result of `apply`.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct ApplyReport {
    /// `apply`, or `undo` (of a whole apply): text output's verb.
    #[serde(skip)]
    pub op: &'static str,
    /// apply: the patch's format, `unified` (a git-style diff) or `codex` (`*** Begin
    /// Patch`); absent for `undo`.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(extend("enum" = ["unified", "codex"]))]
    pub format: Option<&'static str>,
    /// `--check`: the patch was only checked (no diff, no patch, nothing written).
    pub check: bool,
    /// `--dry-run`: nothing was written.
    pub dry_run: bool,
    /// Every file the patch changes, in patch order.
    pub files: Vec<ApplyFile>,
    /// The combined display diff: each file's `--- a/P` / `+++ b/P` header and its hunks (each
    /// file's part at most 200 lines); empty with `--check`.
    pub diff: String,
    /// Some file's part of the diff was cut (or not made: content over 16 MiB).
    pub diff_truncated: bool,
    /// One git-style patch of the whole change (`git apply` takes it); null with `--check`, or
    /// when some file's part is unavailable (over 800 lines, content over 16 MiB).
    pub patch: Option<String>,
    /// Some file's part of the patch was left out.
    pub patch_truncated: bool,
    /// Why there is no patch though there is a diff (a file's content is not UTF-8, or UTF-16).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub patch_unavailable: Option<&'static str>,
    /// Lines added, over all files.
    pub added: usize,
    /// Lines removed, over all files.
    pub removed: usize,
    /// Some hunk was located through a whitespace / look-alike match (`--fuzzy`).
    pub matched_fuzzily: bool,
}

/// One file of an apply.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct ApplyFile {
    /// The file written, created, moved to or deleted (symbolic links resolved).
    #[serde(flatten, serialize_with = "crate::text::names::path")]
    #[schemars(schema_with = "crate::text::names::one::path")]
    pub path: PathBuf,
    /// A move's old path (present only for `moved`).
    #[serde(flatten, serialize_with = "crate::text::names::source")]
    #[schemars(schema_with = "crate::text::names::opt::source")]
    pub source: Option<PathBuf>,
    /// What happened to it.
    #[schemars(extend("enum" = ["modified", "created", "deleted", "moved"]))]
    pub action: &'static str,
    /// A `created` or `moved` file took the place of a file the session had read (or whose
    /// `--expect-sha256` it gave), which it replaced; present only when true.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub replaced: bool,
    /// The file, access `write`; absent for `--check` and `--dry-run`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub file_access: Option<FileAccess>,
    /// Size of the new content in bytes (0 for a deletion).
    pub bytes: u64,
    /// SHA-256 of the new content; null for a deletion.
    #[schemars(regex(pattern = r"^[0-9a-f]{64}$"))]
    pub sha256: Option<String>,
    /// SHA-256 of the content replaced at `path` (a move to a new path: the source's); null for
    /// a creation of a new file.
    #[schemars(regex(pattern = r"^[0-9a-f]{64}$"))]
    pub previous_sha256: Option<String>,
    /// Lines added to this file (0 with `--check`).
    pub added: usize,
    /// Lines removed from it (0 with `--check`).
    pub removed: usize,
    /// How many hunks its section had.
    pub hunks: usize,
    /// Per hunk, the 1-based inclusive lines of the new content it produced (a hunk that only
    /// removes: `startLine` = `endLine` + 1, the line after the removal).
    pub spans: Vec<LineSpan>,
    /// One of its hunks was located through a fuzzy match.
    pub matched_fuzzily: bool,
    /// `--merge`: the change made since the session's read of this file (or its own last
    /// change), away from the lines the patch changes, which the patch landed over (also in
    /// the warning `merged`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub outside_change: Option<Box<super::OutsideChange>>,
    /// Text output: the path as typed.
    #[serde(skip)]
    pub typed: AsTyped,
    /// Text output: this file's part of the display diff (without its header).
    #[serde(skip)]
    pub diff: String,
}
