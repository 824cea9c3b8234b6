//! One module per subcommand. Each has a `run(ctx, args) -> Result<Report>` that resolves its
//! arguments, does its guarded I/O through `probe`, `lock`, `state` and `publish`, and returns a
//! report; none prints. Shared result pieces (`FileAccess`, `MutationReport`) live here.

use std::path::{Path, PathBuf};

use serde::Serialize;

pub mod edit;
pub mod generate;
pub mod glob;
pub mod grep;
pub mod mutate;
pub mod read;
pub mod state;
pub mod transfer;
pub mod undo;
pub mod walk;
pub mod write;

/// `fileAccess` of the JSON envelope: which file a result showed or changed.
#[derive(Debug, Clone, Serialize)]
pub struct FileAccess {
    pub path: PathBuf,
    pub access: &'static str,
}

impl FileAccess {
    pub fn read(path: &Path) -> FileAccess {
        FileAccess {
            path: path.to_path_buf(),
            access: "read",
        }
    }

    pub fn write(path: &Path) -> FileAccess {
        FileAccess {
            path: path.to_path_buf(),
            access: "write",
        }
    }
}

/// The result of `write`, `edit` and `undo`.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct MutationReport {
    #[serde(skip)]
    pub op: &'static str,
    pub path: PathBuf,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub via_symlink: Option<PathBuf>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub file_access: Option<FileAccess>,
    pub created: bool,
    pub dry_run: bool,
    pub bytes: u64,
    pub sha256: String,
    pub previous_sha256: Option<String>,
    pub diff: String,
    pub diff_truncated: bool,
    pub patch: Option<String>,
    pub patch_truncated: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub patch_unavailable: Option<&'static str>,
    pub added: usize,
    pub removed: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub replacements: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub matched_fuzzily: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub spans: Option<Vec<serde_json::Value>>,
    /// `undo` of a creation removed the file.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub deleted: bool,
}
