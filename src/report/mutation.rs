//! The result of `write`, `edit`, `undo` and `rm` (docs/commands/write.md, edit.md, undo.md, rm.md): what changed, the hashes before
//! and after, the display diff and the git-style patch. Data only.

use std::path::PathBuf;

use schemars::JsonSchema;
use serde::Serialize;

use super::{AsTyped, FileAccess};

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

/// What changed in a file since the version a session knows (docs/model.md#a-living-tree): in
/// a `stale` answer (`error.change`) and in an edit `--merge` landed over it
/// (`outsideChange`).
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct OutsideChange {
    /// The version the diff starts from: `read` (the session's read), `write` (its own last
    /// change of the file), `shown` (the version an earlier `stale` answer showed).
    pub since: &'static str,
    /// Bare unified hunks from that version to the file as it is now, as a mutation's `diff`
    /// (at most 200 lines; UTF-16 and legacy encodings shown decoded).
    pub diff: String,
    /// Lines only in the current file.
    pub added: usize,
    /// Lines only in the version the session knows.
    pub removed: usize,
    /// `diff` was cut at 200 lines.
    pub diff_truncated: bool,
    /// The change now counts as seen by the session for edits: the same `edit` or `apply` sent
    /// again is judged against the current file (its `old` must still match, once), and a
    /// line-addressed edit sent again has its lines moved with the change. False: the call as
    /// sent cannot go on — it meets the change (`overlap`: redo it against the current text,
    /// which the diff shows and which now counts as seen), or it needs a read first (a
    /// whole-file `write`, `rm`; `--strict`; a line-addressed edit after the session's own
    /// change), or it is an `undo` (repair the file with an edit instead).
    pub resend: bool,
    /// The lines of the current file where the change meets the lines the call changes (a
    /// conflict: nothing was written).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub overlap: Option<LineSpan>,
    /// A line-addressed edit: where the lines it numbered (in the version read) are now.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lines_now: Option<LineSpan>,
    /// Why a call with `resend: false` and no `overlap` cannot go on from the change alone
    /// (for the hint): `whole` (write, rm), `strict`, `lines` (a line-addressed edit after
    /// the session's own change), `undo`.
    #[serde(skip)]
    pub refused: &'static str,
}

/// A 1-based inclusive line span.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct LineSpan {
    pub start_line: usize,
    pub end_line: usize,
}
