//! Every result quill reports, as data: one type per command's success, documented field by
//! field — this is the JSON contract (camelCase keys; `#[serde(skip)]` fields only shape text
//! output). `cmd` builds them, `output` prints them; nothing here does I/O or knows either.

pub(crate) mod apply;
pub(crate) mod mutation;
pub(crate) mod read;
pub(crate) mod search;
pub(crate) mod state;
pub(crate) mod transfer;

use std::path::{Path, PathBuf};

use schemars::JsonSchema;
use serde::Serialize;

use crate::error::exit;

pub(crate) use apply::ApplyReport;
pub(crate) use mutation::{LineSpan, MutationReport, OutsideChange};
pub(crate) use read::{ListingEntry, ListingReport, ReadReport};
pub(crate) use search::{GlobReport, GrepBody, GrepReport, SearchResult};
pub(crate) use state::StateReport;
pub(crate) use transfer::{RemoteSide, TransferReport};

/// What a successful command hands to output.
pub(crate) enum Report {
    Read(ReadReport),
    /// `quill read DIR`.
    Listing(ListingReport),
    Mutation(MutationReport),
    Apply(ApplyReport),
    Glob(GlobReport),
    Grep(GrepReport),
    Transfer(TransferReport),
    State(StateReport),
    /// Completions and man pages: printed as they are, in every format.
    Generated(String),
    /// `quill --json --version` (text `--version` is clap's own line).
    Version(VersionReport),
}

/// The build: `{"version":"0.1.0","commit":"abc1234","date":"2026-12-01"}`; `commit` and
/// `date` are null for a build outside a git checkout.
#[derive(Debug, Serialize, JsonSchema)]
pub(crate) struct VersionReport {
    /// The package version (`0.1.0`).
    pub version: &'static str,
    /// The short commit it was built from; null outside a git checkout.
    pub commit: Option<&'static str>,
    /// That commit's date (`YYYY-MM-DD`); null outside a git checkout.
    pub date: Option<&'static str>,
}

impl Report {
    /// A grep answer whose entries were printed while they were found (`output::stream`).
    pub(crate) fn streamed(&self) -> Option<&SearchResult> {
        match self {
            Report::Grep(GrepReport {
                body: GrepBody::Search(s),
                ..
            }) if s.streamed => Some(s),
            _ => None,
        }
    }

    /// 0, or 1 for a search that found nothing (docs/errors.md).
    pub(crate) fn exit_code(&self) -> u8 {
        match self {
            Report::Glob(r) if r.total == 0 => exit::NOTHING_FOUND,
            // Several PATHs, some missing: the results stand, the exit code says it (as rg).
            Report::Grep(GrepReport {
                body: GrepBody::Search(s),
                ..
            }) if !s.missing_paths.is_empty() => exit::USAGE,
            Report::Grep(r) if r.total == 0 => exit::NOTHING_FOUND,
            _ => exit::SUCCESS,
        }
    }
}

/// Which file a result showed or changed, and how.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub(crate) struct FileAccess {
    #[serde(flatten, serialize_with = "crate::text::names::path")]
    #[schemars(schema_with = "crate::text::names::one::path")]
    pub path: PathBuf,
    /// `read` (a read showed it) or `write` (a change wrote it).
    #[schemars(extend("enum" = ["read", "write"]))]
    pub access: &'static str,
}

impl FileAccess {
    pub(crate) fn read(path: &Path) -> FileAccess {
        FileAccess {
            path: path.to_path_buf(),
            access: "read",
        }
    }

    pub(crate) fn write(path: &Path) -> FileAccess {
        FileAccess {
            path: path.to_path_buf(),
            access: "write",
        }
    }
}

/// The path arguments as the user typed them, so text output names files as rg and fd do
/// (`../src/a.rs`, `./src/a.rs`, `/abs/a.rs`): each argument as resolved (symlinks
/// followed, absolute) with its spelling. Empty when no path was typed. Only shapes text
/// output; the JSON names every file by its absolute path.
#[derive(Debug, Default, Clone)]
pub(crate) struct AsTyped {
    pub roots: Vec<TypedRoot>,
}

/// One path argument: where it resolved to, and how it was typed.
#[derive(Debug, Clone)]
pub(crate) struct TypedRoot {
    pub resolved: PathBuf,
    pub typed: PathBuf,
}

impl AsTyped {
    /// One path argument.
    pub(crate) fn one(resolved: &Path, typed: &Path) -> AsTyped {
        AsTyped {
            roots: vec![TypedRoot {
                resolved: resolved.to_path_buf(),
                typed: typed.to_path_buf(),
            }],
        }
    }
}
