//! The result of `quill transfer` (docs/commands/transfer.md). Data only.

use std::path::PathBuf;
use std::time::Duration;

use schemars::JsonSchema;
use serde::Serialize;

use super::{AsTyped, FileAccess};

/// One line of `transfer --progress json` on stderr (not an answer: no envelope).
#[derive(Debug, Serialize, JsonSchema)]
pub(crate) struct ProgressEvent {
    /// Always `progress`.
    #[schemars(extend("const" = "progress"))]
    pub event: &'static str,
    /// Bytes written to the destination so far.
    pub bytes: u64,
    /// The source's size in bytes (the final line has `bytes == total` for a file that did
    /// not change during the copy).
    pub total: u64,
}

/// The result of a transfer.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct TransferReport {
    /// The file copied or moved (symlinks resolved).
    #[serde(flatten, serialize_with = "crate::text::names::source")]
    #[schemars(schema_with = "crate::text::names::one::source")]
    pub source: PathBuf,
    /// The source as named, when it is a symbolic link (the file it points to was transferred).
    #[serde(flatten, serialize_with = "crate::text::names::via_symlink")]
    #[schemars(schema_with = "crate::text::names::opt::via_symlink")]
    pub via_symlink: Option<PathBuf>,
    /// The file created or replaced.
    #[serde(flatten, serialize_with = "crate::text::names::destination")]
    #[schemars(schema_with = "crate::text::names::one::destination")]
    pub destination: PathBuf,
    /// Bytes transferred.
    pub bytes: u64,
    /// SHA-256 of what was transferred; `null` for a rename, which reads nothing (unless
    /// `--expect-sha256` made it hash the source first).
    #[schemars(regex(pattern = r"^[0-9a-f]{64}$"))]
    pub sha256: Option<String>,
    /// `copy` (streamed, hashed, fsync'ed) or `rename` (a move within one file system).
    #[schemars(extend("enum" = ["copy", "rename"]))]
    pub method: &'static str,
    /// Whether an existing destination was replaced (`--replace-sha256`).
    pub replaced: bool,
    /// A move removed the source (only after the destination was committed).
    pub source_removed: bool,
    /// A move kept the source: why (e.g. it changed during the copy).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source_kept_reason: Option<String>,
    /// A transfer across machines: the other machine and which side it holds. The path on
    /// that side (`source` or `destination`) is written `host:/absolute/path`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub remote: Option<RemoteSide>,
    /// The destination, access `write`.
    pub file_access: FileAccess,
    /// Text output: how long the transfer took.
    #[serde(skip)]
    pub elapsed: Duration,
    /// Text output: the source and the destination as typed.
    #[serde(skip)]
    pub typed: AsTyped,
}

/// The other machine of a transfer over ssh.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct RemoteSide {
    /// The host as typed (`user@host` or `host`).
    pub host: String,
    /// Which end is on that host.
    #[schemars(extend("enum" = ["source", "destination"]))]
    pub side: &'static str,
    /// The version of the quill that answered there.
    pub version: String,
}
