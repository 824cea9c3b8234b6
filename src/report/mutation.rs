//! The result of `write`, `edit` and `undo` (SPEC §3.2–3.4): what changed, the hashes before
//! and after, the display diff and the git-style patch. Data only.

use std::path::PathBuf;

use serde::Serialize;

use super::FileAccess;

/// The result of `write`, `edit` and `undo`.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct MutationReport {
    #[serde(skip)]
    pub op: &'static str,
    /// The file changed (symlinks resolved).
    pub path: PathBuf,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub via_symlink: Option<PathBuf>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub file_access: Option<FileAccess>,
    /// The file did not exist before.
    pub created: bool,
    /// Nothing was written (`--dry-run`).
    pub dry_run: bool,
    /// Size of the new content.
    pub bytes: u64,
    /// SHA-256 of the new content.
    pub sha256: String,
    /// SHA-256 of the content replaced; null for a creation.
    pub previous_sha256: Option<String>,
    /// Unified display diff, at most 200 lines.
    pub diff: String,
    pub diff_truncated: bool,
    /// git-style patch (`git apply`, `patch -p1`); null past 800 lines or when unavailable.
    pub patch: Option<String>,
    pub patch_truncated: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub patch_unavailable: Option<&'static str>,
    /// Lines added and removed.
    pub added: usize,
    pub removed: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub replacements: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub matched_fuzzily: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    /// edit: the line spans replaced, in the text the edits applied to.
    pub spans: Option<Vec<LineSpan>>,
    /// `undo` of a creation removed the file.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub deleted: bool,
}

/// A 1-based inclusive line span.
#[derive(Debug, Clone, Copy, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct LineSpan {
    pub start_line: usize,
    pub end_line: usize,
}
