//! The result of `quill transfer` (SPEC §3.7). Data only.

use std::path::PathBuf;

use serde::Serialize;

use super::FileAccess;

/// The result of a transfer.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TransferReport {
    pub source: PathBuf,
    /// The source as named, when it is a symbolic link (the file it points to was transferred).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub via_symlink: Option<PathBuf>,
    pub destination: PathBuf,
    pub bytes: u64,
    /// SHA-256 of what was transferred; `null` for a rename, which reads nothing (unless
    /// `--expect-sha256` made it hash the source first).
    pub sha256: Option<String>,
    /// `"copy"` or `"rename"`.
    pub method: &'static str,
    /// Whether an existing destination was replaced (`--replace-sha256`).
    pub replaced: bool,
    pub source_removed: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source_kept_reason: Option<String>,
    /// The destination, access `write`.
    pub file_access: FileAccess,
}
