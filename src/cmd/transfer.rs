//! `quill transfer`: not implemented yet (see the issue tracker).

use crate::app::Context;
use crate::error::Result;
use crate::output::Report;

pub fn run(_ctx: &Context, _args: &crate::cli::TransferArgs) -> Result<Report> {
    Err(super::not_implemented("transfer"))
}

/// The result of a transfer.
#[derive(Debug, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TransferReport {
    pub source: std::path::PathBuf,
    pub destination: std::path::PathBuf,
    pub bytes: u64,
    pub sha256: String,
    pub method: &'static str,
    pub source_removed: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source_kept_reason: Option<String>,
    pub file_access: super::FileAccess,
}
