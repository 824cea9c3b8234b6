//! The result of `write`, `edit`, `undo` and `rm` (docs/commands/write.md, edit.md, undo.md, rm.md): what changed, the hashes before
//! and after, the display diff and the git-style patch. Data only.

use std::path::PathBuf;

use schemars::JsonSchema;
use serde::Serialize;

use super::{AsTyped, FileAccess};
pub(crate) use crate::edit::outside::OutsideChange;
pub(crate) use crate::edit::plan::LineSpan;

/// The result of `write`, `edit`, `undo` and `rm`.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct MutationReport {
    /// `write`, `edit`, `undo` or `rm` (the envelope's `op`; text output's verb).
    #[serde(skip)]
    pub op: &'static str,
    /// The file changed (symlinks resolved).
    #[serde(flatten, serialize_with = "crate::text::names::path")]
    #[schemars(schema_with = "crate::text::names::one::path")]
    pub path: PathBuf,
    /// The path as named, when it is a symbolic link (the link is kept).
    #[serde(flatten, serialize_with = "crate::text::names::via_symlink")]
    #[schemars(schema_with = "crate::text::names::opt::via_symlink")]
    pub via_symlink: Option<PathBuf>,
    /// The file, access `write`; absent for a dry run.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub file_access: Option<FileAccess>,
    /// The file did not exist before.
    pub created: bool,
    /// Nothing was written (`--dry-run`).
    pub dry_run: bool,
    /// Size of the new content in bytes (0 when no file is left).
    pub bytes: u64,
    /// SHA-256 of the new content (64 hex digits); null when the change left no file (`rm`,
    /// `undo` of a creation).
    #[schemars(regex(pattern = r"^[0-9a-f]{64}$"))]
    pub sha256: Option<String>,
    /// SHA-256 of the content replaced; null for a creation.
    #[schemars(regex(pattern = r"^[0-9a-f]{64}$"))]
    pub previous_sha256: Option<String>,
    /// Unified diff for display (`@@ -a,b +c,d @@` hunks, 3 lines of context), at most 200
    /// lines.
    pub diff: String,
    /// The diff was cut (or not made: content over 16 MiB).
    pub diff_truncated: bool,
    /// git-style patch (`git apply`, `patch -p1`); null past 800 lines or when unavailable.
    pub patch: Option<String>,
    /// The patch was left out: over 800 lines (or content over 16 MiB).
    pub patch_truncated: bool,
    /// Why there is no patch though there is a diff (e.g. a UTF-16 file).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub patch_unavailable: Option<&'static str>,
    /// Lines added.
    pub added: usize,
    /// Lines removed.
    pub removed: usize,
    /// edit: how many occurrences were replaced.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub replacements: Option<usize>,
    /// edit: an edit was applied through a whitespace / look-alike match (`--fuzzy`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub matched_fuzzily: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    /// edit: the line spans replaced, in the text the edits applied to.
    pub spans: Option<Vec<LineSpan>>,
    /// edit `--lines A-B`: the exact text of the lines that went, line breaks included (bytes
    /// that are not valid UTF-8 as U+FFFD); `""` for `--insert-after`. Absent for an edit by
    /// `old` and `new`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub replaced: Option<String>,
    /// edit `--merge`: the file had changed since the session's read (or its own last change),
    /// outside the lines this edit changes; the edit was applied to the current file, and
    /// this is that outside change (also in the warning `merged`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub outside_change: Option<Box<OutsideChange>>,
    /// edit: the encoding the file was written in, when it is not UTF-8 (`utf-16le`,
    /// `windows-1251`, …).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub encoding: Option<&'static str>,
    /// The file was removed (`rm`, `undo` of a creation).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub deleted: bool,
    /// Text output: the path as typed.
    #[serde(skip)]
    pub typed: AsTyped,
}
