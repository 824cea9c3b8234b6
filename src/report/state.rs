//! The result of `quill state` (docs/commands/state.md): a session's baselines, the sessions, or what a
//! forget or clear did. Data only.

use std::path::PathBuf;

use schemars::JsonSchema;
use serde::Serialize;

/// What `quill state` shows or did.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct StateReport {
    /// The session shown or changed.
    pub session: String,
    /// `show`, `sessions`, `forget` or `clear`.
    #[schemars(extend("enum" = ["show", "sessions", "forget", "clear"]))]
    pub action: &'static str,
    /// show: the session's baselines, by path.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub baselines: Option<Vec<StateFile>>,
    /// `--all-sessions`: every session, most recently used first.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sessions: Option<Vec<SessionSummary>>,
    /// forget: the file whose baseline it was (resolved).
    #[serde(flatten, serialize_with = "crate::text::names::path")]
    #[schemars(schema_with = "crate::text::names::opt::path")]
    pub path: Option<PathBuf>,
    /// forget: whether there was a baseline to forget.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub forgotten: Option<bool>,
    /// clear: how many baselines the session held (and no longer does).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cleared: Option<usize>,
    /// forget, clear: what was done, in words (text output only).
    #[serde(skip)]
    pub message: Option<String>,
    /// show, `--all-sessions`: the versions of files kept so that a `stale` answer can show
    /// what changed since (docs/model.md#kept-reads), for the whole state directory.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub kept: Option<KeptSummary>,
}

/// The kept versions of a state directory.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct KeptSummary {
    /// How many versions are kept, all sessions together.
    pub versions: usize,
    /// Their size in bytes.
    pub bytes: u64,
    /// The most bytes kept before the least recently kept go.
    pub budget: u64,
    /// Whether this run keeps versions (`--no-keep-reads`, `QUILL_KEEP_READS=0`: no).
    pub on: bool,
}

/// One baseline of a session.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct StateFile {
    /// The file (canonical).
    #[serde(flatten, serialize_with = "crate::text::names::path")]
    #[schemars(schema_with = "crate::text::names::one::path")]
    pub path: PathBuf,
    /// The baseline's SHA-256 (64 hex digits).
    #[schemars(regex(pattern = r"^[0-9a-f]{64}$"))]
    pub sha256: String,
    /// Its size when read.
    pub size: u64,
    /// When it was read (RFC 3339, UTC).
    pub read_at: String,
    /// Every line was shown, none cut.
    pub complete: bool,
}

/// One session of the state directory.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct SessionSummary {
    /// Its name.
    pub session: String,
    /// How many baselines it holds.
    pub baselines: usize,
    /// When its file last changed (RFC 3339, UTC).
    pub last_used: String,
}
