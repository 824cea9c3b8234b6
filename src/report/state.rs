//! The result of `quill state` (SPEC §3.8): a session's baselines, the sessions, or what a
//! forget or clear did. Data only.

use std::path::PathBuf;

use serde::Serialize;

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct StateReport {
    pub session: String,
    pub action: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub files: Option<Vec<StateFile>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sessions: Option<Vec<SessionSummary>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub forgotten: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct StateFile {
    pub path: PathBuf,
    /// The first 12 hex digits of the baseline's SHA-256.
    pub sha256: String,
    pub size: u64,
    pub read_at: String,
    pub complete: bool,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SessionSummary {
    pub session: String,
    pub files: usize,
    pub last_used: String,
}
