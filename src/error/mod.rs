//! The one error type of quill. Every failure a command can report is a variant here; the
//! variant decides the stable JSON `kind` (the serde tag), the exit code (docs/errors.md, an
//! exhaustive match), the human message (`Display`), a `hint` that says what to do next, and
//! the kind-specific JSON fields (the variant's fields, derived). Nothing here does I/O — not
//! even `hint`; `output` turns an `Error` into text or the JSON envelope. This file holds the
//! variants and their messages; `kinds` makes errors and names their kind and exit code,
//! `hint` words the hints, `problem` is one problem of a rejected patch.

mod hint;
mod kinds;
pub(crate) mod near;
mod problem;

use std::io;
use std::path::{Path, PathBuf};

use schemars::JsonSchema;
use serde::Serialize;

use crate::edit::miss::{MissFix, MissReason, MissWindow};
use crate::text::names;

/// Hints quote paths as `text::shell` does (the callers that name it here keep working).
pub(crate) use problem::PatchProblem;

/// Exit codes of docs/errors.md.
pub(crate) mod exit {
    pub(crate) const SUCCESS: u8 = 0;
    pub(crate) const NOTHING_FOUND: u8 = 1;
    pub(crate) const USAGE: u8 = 2;
    pub(crate) const REFUSED: u8 = 3;
    pub(crate) const SYSTEM: u8 = 4;
}

pub(crate) type Result<T, E = Error> = std::result::Result<T, E>;

/// Ends the message of a `state_unavailable` for an entry of the state directory that
/// `checked` refuses (a FIFO, a link, a foreign or hard-linked file); its hint keys on it.
pub(crate) const UNTRUSTED: &str = "quill does not trust it";

/// Every failure quill reports. The variant is the JSON `kind` (snake_case, the serde tag);
/// its fields, except the ones marked `skip`, are the kind-specific fields of the JSON
/// `error` object (camelCase), derived rather than listed by hand.
#[derive(Debug, thiserror::Error, Serialize, JsonSchema)]
#[serde(
    tag = "kind",
    rename_all = "snake_case",
    rename_all_fields = "camelCase"
)]
pub enum Error {
    // --- usage (exit 2)
    /// Exit 2. The command line could not be taken: an unknown command or flag, a missing or
    /// malformed value, conflicting flags, a bad environment variable. `argument`, `suggestion` and
    /// `usage` are always present (null when unknown). Fix the call as the hint says; nothing was
    /// done.
    #[error("{message}")]
    Usage {
        #[serde(skip)]
        message: String,
        /// Boxed: a usage error is rare, and every `Result` would pay for its size.
        #[serde(flatten)]
        detail: Box<UsageDetail>,
    },
    /// Exit 2. The regex (grep) or glob could not be compiled; `position` is the byte offset of the
    /// problem when known. Escape the pattern, or use `-F` for a literal string.
    #[error("invalid pattern: {message}")]
    InvalidPattern {
        #[serde(skip)]
        message: String,
        position: Option<usize>,
        /// The hint, when the pattern is not a regex or `-F` would not help.
        #[serde(skip)]
        fix: Option<String>,
    },
    /// Exit 2. The call is well formed but its values cannot work together (e.g. `old` equal to
    /// `new`, an omission placeholder in `new`, `--old ''` on a non-empty file). The hint names the
    /// call that works; nothing was done.
    #[error("{message}")]
    InvalidArgument {
        #[serde(skip)]
        message: String,
        /// The next call that works, when quill knows it (the hint).
        #[serde(skip)]
        fix: Option<String>,
    },

    // --- nothing found (exit 1)
    /// Exit 1. `--offset` is past the last line (`totalLines`); nothing was shown and no baseline
    /// was recorded. Read from an offset at most `totalLines`.
    #[error("offset {offset} is past the end of {} ({total_lines} lines)", path.display())]
    OffsetPastEnd {
        #[serde(flatten, serialize_with = "names::path")]
        #[schemars(schema_with = "crate::text::names::one::path")]
        path: PathBuf,
        offset: u64,
        total_lines: u64,
    },

    // --- refused by a guard (exit 3)
    /// Exit 3. transfer: the source and the destination are the same file (same device and inode,
    /// also through links). Nothing was done.
    #[error("{} and {} are the same file", source_path.display(), destination.display())]
    SameFile {
        #[serde(flatten, serialize_with = "names::source")]
        #[schemars(schema_with = "crate::text::names::one::source")]
        source_path: PathBuf,
        #[serde(flatten, serialize_with = "names::destination")]
        #[schemars(schema_with = "crate::text::names::one::destination")]
        destination: PathBuf,
    },
    /// Exit 3. The file has no baseline in this session: it was never read (or its baseline was
    /// forgotten or evicted). Read it, then repeat the change.
    #[error("{} has not been read in session '{session}'", path.display())]
    NotRead {
        #[serde(flatten, serialize_with = "names::path")]
        #[schemars(schema_with = "crate::text::names::one::path")]
        path: PathBuf,
        #[serde(skip)]
        session: String,
    },
    /// Exit 3. The file changed since this session read it (its SHA-256 differs from the baseline),
    /// or it no longer exists. Read it again, then redo the change against what it holds now.
    /// Nothing was written.
    #[error("{}", stale_message(path, session, *reread, change.as_deref()))]
    Stale {
        #[serde(flatten, serialize_with = "names::path")]
        #[schemars(schema_with = "crate::text::names::one::path")]
        path: PathBuf,
        #[serde(skip)]
        session: String,
        /// The file no longer exists (decided where it was found missing, so `hint` stays
        /// pure).
        #[serde(skip)]
        deleted: bool,
        /// A line-addressed edit of the session's own version of the file (unchanged since,
        /// but not read since): the first and last line it addressed, for the read the hint
        /// names.
        #[serde(skip)]
        reread: Option<(usize, usize)>,
        /// What changed since the version the session knows, when quill kept that version
        /// (docs/model.md#a-living-tree); absent when it did not (then read the file again).
        #[serde(skip_serializing_if = "Option::is_none")]
        change: Option<Box<crate::edit::outside::OutsideChange>>,
        /// Why there is no `change` although quill keeps the versions read (the version is no
        /// longer kept, the file is not text); absent when keeping is off.
        #[serde(skip_serializing_if = "Option::is_none")]
        change_unavailable: Option<&'static str>,
    },
    /// Exit 3. The file exists, but the call may only create it (`--create-only`, `edit --old ''`,
    /// or another process created it first). Read it and edit it instead. Nothing was clobbered.
    #[error("{} already exists", path.display())]
    CreateConflict {
        #[serde(flatten, serialize_with = "names::path")]
        #[schemars(schema_with = "crate::text::names::one::path")]
        path: PathBuf,
    },
    /// Exit 3. transfer: the destination exists. Pass `--replace-sha256 HEX` with its current
    /// SHA-256 to replace it, or choose another destination.
    #[error("destination {} already exists", path.display())]
    DestinationExists {
        #[serde(flatten, serialize_with = "names::path")]
        #[schemars(schema_with = "crate::text::names::one::path")]
        path: PathBuf,
    },
    /// Exit 3. `old` does not occur in the file. `reason` says how close the best candidate came,
    /// `window` shows the file's real lines there and `difference` names the first difference; copy
    /// `old` from those lines (or the hint's call, e.g. with `--fuzzy`). Nothing was written.
    #[error("{message}")]
    EditNoMatch {
        #[serde(skip)]
        message: String,
        #[serde(flatten, serialize_with = "names::path")]
        #[schemars(schema_with = "crate::text::names::one::path")]
        path: PathBuf,
        /// Which edit of the request missed (0-based).
        edit_index: usize,
        reason: MissReason,
        /// The best candidate passage: the file's real lines (at most 16 lines, 2 KiB).
        window: Option<MissWindow>,
        /// One sentence naming each difference (bounded) and its line.
        difference: String,
        /// What fixes this miss: the hint is worded from it.
        #[serde(skip)]
        fix: MissFix,
    },
    /// Exit 3. `old` occurs `count` times (at `lines`), but must occur exactly once — or
    /// exactly `expectCount` times, when `--expect-count` was given: add surrounding lines to
    /// `old` to make it unique, pass `--replace-all`, or repeat with the count that was found.
    /// Nothing was written.
    #[error("{message}")]
    EditAmbiguous {
        #[serde(skip)]
        message: String,
        #[serde(flatten, serialize_with = "names::path")]
        #[schemars(schema_with = "crate::text::names::one::path")]
        path: PathBuf,
        edit_index: usize,
        count: usize,
        /// 1-based start lines of the first 20 occurrences.
        lines: Vec<usize>,
        /// The occurrences are whitespace-insensitive matches.
        fuzzy: bool,
        /// The count `--expect-count` asked for (present only then).
        #[serde(skip_serializing_if = "Option::is_none")]
        expect_count: Option<usize>,
    },
    /// Exit 3. `quill apply` found problems in the
    /// patch's files or hunks — every one of them, listed in `problems` with the kind each
    /// would have alone (`not_read`, `stale`, `edit_no_match`, …), its message and hint, and for
    /// a hunk its index, patch line and miss diagnosis. Fix them all and apply again. Nothing
    /// was written.
    #[error("{message}")]
    PatchRejected {
        #[serde(skip)]
        message: String,
        /// Every problem found, in patch order.
        problems: Vec<PatchProblem>,
    },
    /// Exit 3. The path resolves (by `..`, an absolute path or a symbolic link) to `target`,
    /// outside `--root`. Use a path inside the root.
    #[error("{} resolves to {}, outside the root {}", requested.display(), target.display(), root.display())]
    OutsideRoot {
        #[serde(flatten, serialize_with = "names::path")]
        #[schemars(schema_with = "crate::text::names::one::path")]
        requested: PathBuf,
        #[serde(flatten, serialize_with = "names::target")]
        #[schemars(schema_with = "crate::text::names::one::target")]
        target: PathBuf,
        #[serde(flatten, serialize_with = "names::root")]
        #[schemars(schema_with = "crate::text::names::one::root")]
        root: PathBuf,
    },
    /// Exit 3. quill runs read-only (`--read-only` or `QUILL_READ_ONLY`): every change is refused.
    #[error("refusing to {action} {}: quill runs read-only", path.display())]
    ReadOnly {
        #[serde(flatten, serialize_with = "names::path")]
        #[schemars(schema_with = "crate::text::names::one::path")]
        path: PathBuf,
        #[serde(skip)]
        action: &'static str,
    },
    /// Exit 3. A symbolic link where quill will not follow or replace one (e.g. a transfer
    /// destination that is a link). Name the file itself.
    #[error("{} is a symbolic link; {reason}", path.display())]
    Symlink {
        #[serde(flatten, serialize_with = "names::path")]
        #[schemars(schema_with = "crate::text::names::one::path")]
        path: PathBuf,
        #[serde(skip)]
        reason: &'static str,
    },
    /// Exit 3. A FIFO, socket or device (`fileType`): quill never opens one.
    #[error("{} is a {file_type}, not a regular file", path.display())]
    IrregularFile {
        #[serde(flatten, serialize_with = "names::path")]
        #[schemars(schema_with = "crate::text::names::one::path")]
        path: PathBuf,
        file_type: &'static str,
    },
    /// Exit 3. A directory where a file is needed (any change). `read` lists a directory instead.
    #[error("{} is a directory", path.display())]
    IsDirectory {
        #[serde(flatten, serialize_with = "names::path")]
        #[schemars(schema_with = "crate::text::names::one::path")]
        path: PathBuf,
    },
    /// Exit 3. The file holds NUL bytes (and is not an image, PDF or UTF-16 text): `guess` names
    /// its type. It cannot be read or edited as text.
    #[error("{} is a binary file ({guess}, {size} bytes)", path.display())]
    BinaryFile {
        #[serde(flatten, serialize_with = "names::path")]
        #[schemars(schema_with = "crate::text::names::one::path")]
        path: PathBuf,
        size: u64,
        guess: &'static str,
    },
    /// Exit 3. The file is larger than `limit` bytes (`--max-file-bytes` for edits). Raise the
    /// limit or use `write`.
    #[error("{} is {size} bytes, over the limit of {limit} bytes", path.display())]
    FileTooLarge {
        #[serde(flatten, serialize_with = "names::path")]
        #[schemars(schema_with = "crate::text::names::one::path")]
        path: PathBuf,
        size: u64,
        limit: u64,
    },
    /// Exit 3. read: the first line of the page alone is larger than the page's byte budget
    /// (`maxBytes`). Repeat with `--max-bytes` at least `bytes`, or cut long lines with `--max-
    /// line-chars`.
    #[error("{}", line_too_long(path, *line, *bytes, *line_bytes, *budget, *max_line_chars, *cut))]
    LineTooLong {
        #[serde(flatten, serialize_with = "names::path")]
        #[schemars(schema_with = "crate::text::names::one::path")]
        path: PathBuf,
        line: u64,
        /// The `--max-bytes` that shows the line as it is displayed now (cut or whole).
        bytes: u64,
        /// The line's real size in the file, terminator included.
        line_bytes: u64,
        #[serde(rename = "maxBytes")]
        budget: u64,
        max_line_chars: u64,
        /// The display cut the line (`--max-line-chars`).
        #[serde(skip)]
        cut: bool,
        /// The `--encoding` the read named (the hint's call names it again).
        #[serde(skip)]
        encoding: Option<&'static str>,
    },
    /// Exit 3. The change needs bytes the file's encoding cannot hold, or `old`/`new` carries
    /// U+FFFD copied from a lossy read of invalid bytes. Quote only the valid parts, or name the
    /// encoding with `--encoding`.
    #[error("{message}")]
    Encoding {
        #[serde(flatten, serialize_with = "names::path")]
        #[schemars(schema_with = "crate::text::names::one::path")]
        path: PathBuf,
        #[serde(skip)]
        message: String,
        /// The file's encoding, when a character of the new text has no bytes in it.
        #[serde(skip_serializing_if = "Option::is_none")]
        encoding: Option<&'static str>,
        /// That character, and its code point (`U+0416`).
        #[serde(skip_serializing_if = "Option::is_none")]
        character: Option<String>,
        #[serde(skip_serializing_if = "Option::is_none")]
        code_point: Option<String>,
    },
    /// Exit 3. quill kept no earlier version of this file in this session: there is nothing to
    /// undo.
    #[error("nothing to undo for {} in session '{session}'", path.display())]
    NothingToUndo {
        #[serde(flatten, serialize_with = "names::path")]
        #[schemars(schema_with = "crate::text::names::one::path")]
        path: PathBuf,
        #[serde(skip)]
        session: String,
    },
    /// Exit 3. The file kept changing while it was read (twice): nothing was shown or recorded.
    /// Read it again once it is quiet.
    #[error("{} kept changing while it was read", path.display())]
    ChangedDuringRead {
        #[serde(flatten, serialize_with = "names::path")]
        #[schemars(schema_with = "crate::text::names::one::path")]
        path: PathBuf,
    },
    /// Exit 3. transfer: the source changed during the copy, or is not the version `--expect-
    /// sha256` named (`reason`). Nothing was published.
    #[error("source {} changed: {reason}", path.display())]
    SourceChanged {
        #[serde(flatten, serialize_with = "names::path")]
        #[schemars(schema_with = "crate::text::names::one::path")]
        path: PathBuf,
        reason: String,
    },
    /// Exit 3. A re-sent edit: the session's last change of this file was this same edit, and the
    /// file still holds what it wrote. Nothing to do; `--again` repeats it on purpose.
    #[error("{} already holds this edit: it was the session's last change of the file, which is unchanged since", path.display())]
    AlreadyApplied {
        #[serde(flatten, serialize_with = "names::path")]
        #[schemars(schema_with = "crate::text::names::one::path")]
        path: PathBuf,
    },

    // --- system or I/O (exit 4)
    /// Exit 4. The path does not exist. `similar`, `nearby`, `existingAncestor` and `suggestion`
    /// say what does; the hint is the call with the likely path.
    #[error("{} does not exist", path.display())]
    NotFound {
        #[serde(flatten, serialize_with = "names::path")]
        #[schemars(schema_with = "crate::text::names::one::path")]
        path: PathBuf,
        #[serde(flatten, serialize_with = "names::similar")]
        #[schemars(schema_with = "crate::text::names::list::similar")]
        similar: Vec<PathBuf>,
        /// What a look around the path found (`missing::explain`); empty until then.
        #[serde(flatten)]
        near: Box<crate::error::near::Near>,
    },
    /// Exit 4. The operating system refused `operation` on the path. Nothing was changed.
    #[error("permission denied: cannot {op} {}", path.display())]
    PermissionDenied {
        #[serde(flatten, serialize_with = "names::path")]
        #[schemars(schema_with = "crate::text::names::one::path")]
        path: PathBuf,
        #[serde(rename = "operation")]
        op: &'static str,
    },
    /// Exit 4. The disk (or quota) is full: `operation` failed before anything was published. Free
    /// space and repeat.
    #[error("no space left on device: cannot {op} {}", path.display())]
    NoSpace {
        #[serde(flatten, serialize_with = "names::path")]
        #[schemars(schema_with = "crate::text::names::one::path")]
        path: PathBuf,
        #[serde(rename = "operation")]
        op: &'static str,
    },
    /// Exit 4. Another I/O error during `operation`; the message has the system's words. Nothing
    /// was published.
    #[error("cannot {op} {}: {source}", path.display())]
    Io {
        #[serde(flatten, serialize_with = "names::path")]
        #[schemars(schema_with = "crate::text::names::one::path")]
        path: PathBuf,
        #[serde(rename = "operation")]
        op: &'static str,
        #[serde(skip)]
        source: io::Error,
    },
    /// Exit 4. Another quill process held the file's lock (or the session's) for `seconds`. Repeat
    /// later, or raise `--lock-timeout`.
    #[error("timed out after {seconds}s waiting for the lock on {}", path.display())]
    LockTimeout {
        #[serde(flatten, serialize_with = "names::path")]
        #[schemars(schema_with = "crate::text::names::one::path")]
        path: PathBuf,
        seconds: f64,
    },
    /// Exit 4. The state directory (at `path`) cannot be used: unwritable, a newer format, or an
    /// entry quill does not trust (a link, a FIFO, a foreign file). Fix it or choose another with
    /// `--state-dir`.
    #[error("state unavailable: {message}")]
    StateUnavailable {
        #[serde(skip)]
        message: String,
        #[serde(flatten, serialize_with = "names::path")]
        #[schemars(schema_with = "crate::text::names::one::path")]
        path: PathBuf,
    },
    /// Exit 4. Reading this file needs `converter`, which is not installed; `install` is the
    /// command that installs it.
    #[error("{converter} is not installed; it is needed to read {}", path.display())]
    ConverterMissing {
        converter: &'static str,
        install: &'static str,
        #[serde(flatten, serialize_with = "names::path")]
        #[schemars(schema_with = "crate::text::names::one::path")]
        path: PathBuf,
    },
    /// Exit 4. transfer across machines: ssh could not connect or log in, or the far side's shell
    /// failed before quill answered. `sshMessage` is what ssh (or that shell) said; `status` its
    /// exit status. Nothing was sent.
    #[error("{message}")]
    ConnectionFailed {
        #[serde(skip)]
        message: String,
        #[serde(skip)]
        fix: String,
        host: String,
        status: Option<i32>,
        ssh_message: String,
    },
    /// Exit 4. transfer across machines: the far side has no `program` (the shell's "not found");
    /// the hint names the install command and `--remote-quill`. Nothing was sent.
    #[error("{program} was not found on {host}: quill must be installed there")]
    RemoteQuillMissing {
        #[serde(skip)]
        fix: String,
        host: String,
        program: String,
        ssh_message: String,
    },
    /// Exit 4. transfer across machines: the quill on the far side is `remoteVersion` (null: too
    /// old to say) and does not speak transfer `protocol`. Update it there. Nothing was sent.
    #[error("{message}")]
    RemoteVersion {
        #[serde(skip)]
        message: String,
        #[serde(skip)]
        fix: String,
        host: String,
        remote_version: Option<String>,
        protocol: u32,
    },
    /// Exit 4. transfer across machines: the connection ended before all the data was sent:
    /// nothing was published on either side and the source is kept. Run the call again.
    #[error("{message}")]
    ConnectionLost {
        #[serde(skip)]
        message: String,
        host: String,
        bytes_acknowledged: u64,
        ssh_message: String,
    },
    /// Exit 4. transfer across machines: the connection ended after all the data was sent and
    /// before the far side confirmed the commit, so `destination` may or may not hold the file
    /// (`sha256`, `bytes`). quill never retries it, and `--move` kept the source. `check` is the
    /// command that tells: it prints `sha256` when the file was published.
    #[error("{message}")]
    CommitUnknown {
        #[serde(skip)]
        message: String,
        #[serde(skip)]
        fix: String,
        /// Boxed: rare, and every `Result` would pay for its size.
        #[serde(flatten)]
        detail: Box<CommitDetail>,
    },
    /// transfer across machines: the far side's quill refused or failed; its error object (its
    /// `kind`, fields and exit code) is passed on with `host` added and the message prefixed by
    /// the host. Never serialized by derive: `output` writes `body`.
    #[error("{host}: {}", far.message)]
    #[schemars(skip)]
    Remote {
        #[serde(skip)]
        kind: &'static str,
        #[serde(skip)]
        exit: u8,
        host: String,
        #[serde(skip)]
        far: Box<FarError>,
    },
    /// Exit 4 in JSON; the process then dies by the signal (exit 130 or 143 in a shell). Ctrl-C or
    /// SIGTERM abandoned the operation cleanly: nothing half-written.
    #[error("interrupted")]
    Interrupted,
}

/// The far side's error object, passed on by `Error::Remote`.
#[derive(Debug)]
pub struct FarError {
    pub message: String,
    pub hint: Option<String>,
    /// Its `kind` and fields, without `message` and `hint`.
    pub body: serde_json::Map<String, serde_json::Value>,
}

/// What a `commit_unknown` knows: where, what, and the command that tells.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct CommitDetail {
    /// The other machine, as typed.
    pub host: String,
    /// `host:/absolute/path` of the destination there.
    pub destination: String,
    /// SHA-256 of what was sent.
    pub sha256: String,
    /// Bytes sent.
    pub bytes: u64,
    /// The command that prints the destination's SHA-256 there.
    pub check: String,
}

/// What a usage error knows besides its message.
#[derive(Debug, Default, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct UsageDetail {
    /// The offending argument as given (`--ful`, `frobnicate`, `<PATH>`), if one is named.
    pub argument: Option<String>,
    /// What was probably meant (`--full`, a subcommand, a value), if quill can tell.
    pub suggestion: Option<String>,
    /// The usage line of the command (`quill read [OPTIONS] <PATH>`), if known.
    pub usage: Option<String>,
    /// clap's tip, shown as the hint (not repeated as a field).
    #[serde(skip)]
    pub tip: Option<String>,
    /// What to type instead, when the mistake is a known one (the hint).
    #[serde(skip)]
    pub fix: Option<String>,
}

/// `stale`'s message: the file changed, or — a line-addressed edit — the session's own change
/// is the version at hand, which the caller's line numbers do not describe.
fn stale_message(
    path: &Path,
    session: &str,
    reread: Option<(usize, usize)>,
    change: Option<&crate::edit::outside::OutsideChange>,
) -> String {
    match reread {
        None if change.is_some_and(|c| c.since == "write") => format!(
            "{} changed since session '{session}' last changed it",
            path.display()
        ),
        None if change.is_some_and(|c| c.overlap.is_some()) => format!(
            "{} changed since session '{session}' read it, in the lines this call changes; nothing was written",
            path.display()
        ),
        None => format!(
            "{} changed since session '{session}' read it",
            path.display()
        ),
        Some(_) => format!(
            "{} was last changed by session '{session}' itself, after it was read: the line numbers of a line-addressed edit must come from a read of the current version; nothing was written",
            path.display()
        ),
    }
}

/// `line_too_long`'s message: the line's real size, and what the display made of it.
fn line_too_long(
    path: &Path,
    line: u64,
    bytes: u64,
    line_bytes: u64,
    budget: u64,
    max_line_chars: u64,
    cut: bool,
) -> String {
    let shown = if cut {
        format!("; cut to {max_line_chars} characters it still takes {bytes} bytes,")
    } else if bytes != line_bytes {
        format!(" ({bytes} bytes as shown),")
    } else {
        ",".into()
    };
    format!(
        "line {line} of {} is {line_bytes} bytes{shown} more than the page budget of {budget} bytes",
        path.display()
    )
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// EPERM is a permission problem: std files it under `PermissionDenied` with EACCES, so no
    /// raw code is compared (a bare 1 was, which on Windows is ERROR_INVALID_FUNCTION).
    #[test]
    fn operation_not_permitted_is_permission_denied() {
        let p = Path::new("f");
        let e = Error::io("write", p, crate::sys::not_permitted());
        assert_eq!(e.kind(), "permission_denied");
        let other = Error::io("write", p, io::Error::other("something else"));
        assert_eq!(other.kind(), "io");
    }

    /// The classification reads `io::ErrorKind` alone, never a raw code, so it means the same
    /// on every platform: raw OS error 1 is EPERM on Unix but ERROR_INVALID_FUNCTION on
    /// Windows, and 28 is ENOSPC but ERROR_OUT_OF_PAPER.
    #[test]
    fn an_io_error_is_classified_by_its_kind_alone() {
        let p = Path::new("f");
        let kind_of = |e: io::Error| Error::io("write", p, e).kind();
        let of = |k: io::ErrorKind| kind_of(io::Error::from(k));
        assert_eq!(of(io::ErrorKind::PermissionDenied), "permission_denied");
        assert_eq!(of(io::ErrorKind::NotFound), "not_found");
        assert_eq!(of(io::ErrorKind::StorageFull), "no_space");
        assert_eq!(of(io::ErrorKind::QuotaExceeded), "no_space");
        assert_eq!(of(io::ErrorKind::Interrupted), "interrupted");
        for k in [
            io::ErrorKind::Unsupported,
            io::ErrorKind::InvalidInput,
            io::ErrorKind::Other,
        ] {
            assert_eq!(of(k), "io", "{k:?}");
        }
        let (one, twenty_eight) = (
            kind_of(io::Error::from_raw_os_error(1)),
            kind_of(io::Error::from_raw_os_error(28)),
        );
        if cfg!(unix) {
            assert_eq!((one, twenty_eight), ("permission_denied", "no_space"));
        } else {
            assert_ne!(one, "permission_denied");
            assert_ne!(twenty_eight, "no_space");
        }
    }

    /// Exit code → kinds, written out.
    pub(crate) const TABLE: [(u8, &[&str]); 4] = [
        (1, &["offset_past_end"]),
        (2, &["usage", "invalid_pattern", "invalid_argument"]),
        (
            3,
            &[
                "same_file",
                "not_read",
                "stale",
                "create_conflict",
                "destination_exists",
                "edit_no_match",
                "edit_ambiguous",
                "outside_root",
                "read_only",
                "symlink",
                "irregular_file",
                "is_directory",
                "binary_file",
                "file_too_large",
                "line_too_long",
                "encoding",
                "nothing_to_undo",
                "changed_during_read",
                "source_changed",
                "already_applied",
            ],
        ),
        (
            4,
            &[
                "not_found",
                "permission_denied",
                "no_space",
                "io",
                "lock_timeout",
                "state_unavailable",
                "converter_missing",
                "connection_failed",
                "remote_quill_missing",
                "remote_version",
                "connection_lost",
                "commit_unknown",
                "interrupted",
            ],
        ),
    ];

    /// One error of every kind.
    fn one_of_each() -> Vec<Error> {
        every_kind(Path::new("/w"))
    }

    /// One error of every kind, every path of it in `dir`.
    fn every_kind(dir: &Path) -> Vec<Error> {
        let p = || dir.join("a b.txt");
        let s = || "default".to_string();
        vec![
            Error::usage("bad flag"),
            Error::InvalidPattern {
                message: "unclosed group".into(),
                position: Some(3),
                fix: None,
            },
            Error::invalid_argument("bad value"),
            Error::OffsetPastEnd {
                path: p(),
                offset: 9,
                total_lines: 1,
            },
            Error::SameFile {
                source_path: p(),
                destination: p(),
            },
            Error::NotRead {
                path: p(),
                session: s(),
            },
            Error::Stale {
                path: p(),
                session: s(),
                deleted: false,
                reread: None,
                change: None,
                change_unavailable: None,
            },
            Error::CreateConflict { path: p() },
            Error::DestinationExists { path: p() },
            Error::EditNoMatch {
                message: "`old` was not found".into(),
                path: p(),
                edit_index: 0,
                reason: MissReason::Whitespace,
                window: Some(MissWindow {
                    start_line: 2,
                    end_line: 2,
                    text: "\tx\n".into(),
                }),
                difference: "line 2: file has a tab where old has 4 spaces".into(),
                fix: MissFix::Fuzzy,
            },
            Error::EditAmbiguous {
                message: "`old` occurs 2 times".into(),
                path: p(),
                edit_index: 0,
                count: 2,
                lines: vec![1, 5],
                fuzzy: false,
                expect_count: None,
            },
            Error::OutsideRoot {
                requested: p(),
                target: dir.join("outside"),
                root: dir.to_path_buf(),
            },
            Error::ReadOnly {
                path: p(),
                action: "write",
            },
            Error::Symlink {
                path: p(),
                reason: "never replaced",
            },
            Error::IrregularFile {
                path: p(),
                file_type: "FIFO",
            },
            Error::IsDirectory { path: p() },
            Error::BinaryFile {
                path: p(),
                size: 10,
                guess: "ELF executable",
            },
            Error::FileTooLarge {
                path: p(),
                size: 10,
                limit: 5,
            },
            Error::LineTooLong {
                path: p(),
                line: 1,
                bytes: 100,
                line_bytes: 100,
                budget: 50,
                max_line_chars: 0,
                cut: false,
                encoding: None,
            },
            Error::Encoding {
                path: p(),
                message: "not UTF-16".into(),
                encoding: None,
                character: None,
                code_point: None,
            },
            Error::NothingToUndo {
                path: p(),
                session: s(),
            },
            Error::ChangedDuringRead { path: p() },
            Error::SourceChanged {
                path: p(),
                reason: "modified".into(),
            },
            Error::AlreadyApplied { path: p() },
            Error::NotFound {
                path: p(),
                similar: vec![dir.join("a.txt")],
                near: Box::default(),
            },
            Error::PermissionDenied {
                path: p(),
                op: "open",
            },
            Error::NoSpace {
                path: p(),
                op: "write",
            },
            Error::Io {
                path: p(),
                op: "read",
                source: io::Error::other("EIO"),
            },
            Error::LockTimeout {
                path: p(),
                seconds: 30.0,
            },
            Error::StateUnavailable {
                message: "cannot write".into(),
                path: p(),
            },
            Error::ConverterMissing {
                converter: "pdftotext",
                install: "apt-get install poppler-utils",
                path: p(),
            },
            Error::ConnectionFailed {
                message: "cannot reach quill on box through ssh: Permission denied".into(),
                fix: "ssh-copy-id box".into(),
                host: "box".into(),
                status: Some(255),
                ssh_message: "Permission denied (publickey).".into(),
            },
            Error::RemoteQuillMissing {
                fix: "install quill on box".into(),
                host: "box".into(),
                program: "quill".into(),
                ssh_message: "bash: quill: command not found".into(),
            },
            Error::RemoteVersion {
                message: "the quill on box (older) does not speak transfer protocol 1".into(),
                fix: "install quill there".into(),
                host: "box".into(),
                remote_version: None,
                protocol: 1,
            },
            Error::ConnectionLost {
                message: "the connection to box was lost".into(),
                host: "box".into(),
                bytes_acknowledged: 1024,
                ssh_message: String::new(),
            },
            Error::CommitUnknown {
                message: "the connection to box was lost after all 3 bytes were sent".into(),
                fix: "check it".into(),
                detail: Box::new(CommitDetail {
                    host: "box".into(),
                    destination: "box:/w/a".into(),
                    sha256: "0".repeat(64),
                    bytes: 3,
                    check: "ssh box 'sha256sum -- /w/a'".into(),
                }),
            },
            Error::Interrupted,
        ]
    }

    #[test]
    fn every_kind_has_the_exit_code_of_the_table_and_its_serde_tag() {
        let all = one_of_each();
        let listed: usize = TABLE.iter().map(|(_, kinds)| kinds.len()).sum();
        assert_eq!(all.len(), listed, "one example per kind of the table");
        let mut seen = std::collections::BTreeSet::new();
        for e in &all {
            let kind = e.kind();
            assert!(seen.insert(kind), "{kind} twice");
            let (code, _) = TABLE
                .iter()
                .find(|(_, kinds)| kinds.contains(&kind))
                .unwrap_or_else(|| panic!("{kind} is not in the table"));
            assert_eq!(e.exit_code(), *code, "{kind}");
            let json = serde_json::to_value(e).unwrap();
            assert_eq!(json["kind"], kind, "serde tag of {kind}");
            // Fields are camelCase, and never repeat the message or hint.
            for key in json.as_object().unwrap().keys() {
                assert!(!key.contains('_'), "{kind}: {key}");
                assert!(key != "message" && key != "hint", "{kind}: {key}");
            }
            assert!(!e.to_string().is_empty());
            // Every kind reaches the hint function of its group.
            let _ = e.hint();
        }
    }

    #[test]
    fn kind_specific_fields_keep_their_json_names() {
        let all = one_of_each();
        let field = |kind: &str, key: &str| {
            let e = all.iter().find(|e| e.kind() == kind).unwrap();
            serde_json::to_value(e).unwrap()[key].clone()
        };
        assert_eq!(field("same_file", "source"), "/w/a b.txt");
        assert_eq!(field("outside_root", "path"), "/w/a b.txt");
        assert_eq!(field("outside_root", "target"), "/w/outside");
        assert_eq!(field("line_too_long", "maxBytes"), 50);
        assert_eq!(field("line_too_long", "lineBytes"), 100);
        assert_eq!(field("line_too_long", "maxLineChars"), 0);
        assert_eq!(field("io", "operation"), "read");
        assert_eq!(field("irregular_file", "fileType"), "FIFO");
        assert_eq!(field("edit_no_match", "reason"), "whitespace");
        assert_eq!(field("edit_no_match", "editIndex"), 0);
        assert_eq!(field("edit_no_match", "window")["startLine"], 2);
        assert_eq!(field("edit_ambiguous", "lines"), serde_json::json!([1, 5]));
        assert_eq!(field("not_found", "similar")[0], "/w/a.txt");
        assert_eq!(field("invalid_pattern", "position"), 3);
    }

    /// Every path of every kind, in a directory whose name is not UTF-8: the field shows it
    /// lossily and `<field>Bytes` holds its bytes (lists: by index), so nothing is lost and
    /// the error object always encodes.
    #[test]
    fn every_path_of_every_kind_keeps_its_bytes() {
        use base64::Engine;
        let dir = &PathBuf::from(crate::sys::os_string(b"/w/bad\xffdir".to_vec()));
        let decode = |v: &serde_json::Value| {
            let b = base64::engine::general_purpose::STANDARD
                .decode(v.as_str().unwrap())
                .unwrap();
            PathBuf::from(crate::sys::os_string(b))
        };
        let mut checked = 0;
        for e in every_kind(dir) {
            let json = serde_json::to_value(&e).unwrap();
            for (key, v) in json.as_object().unwrap() {
                let bytes = &json[format!("{key}Bytes")];
                let lossy =
                    |v: &serde_json::Value| v.as_str().is_some_and(|s| s.contains('\u{fffd}'));
                if lossy(v) {
                    let path = decode(bytes);
                    assert!(path.starts_with(dir), "{}: {key}", e.kind());
                    assert_eq!(path.to_string_lossy(), v.as_str().unwrap());
                    checked += 1;
                } else if let Some(list) = v.as_array().filter(|l| l.iter().any(lossy)) {
                    for (i, item) in list.iter().enumerate() {
                        let path = decode(&bytes[i.to_string()]);
                        assert!(path.starts_with(dir), "{}: {key}[{i}]", e.kind());
                        assert_eq!(path.to_string_lossy(), item.as_str().unwrap());
                        checked += 1;
                    }
                }
            }
        }
        // 28 kinds with a path; same_file and outside_root have more, not_found a look-alike.
        assert_eq!(checked, 28 + 1 + 2 + 1);
        let utf8 = serde_json::to_string(&one_of_each()).unwrap();
        assert!(
            !utf8.contains("Bytes\":\"") && !utf8.contains("Bytes\":{"),
            "a UTF-8 name has no bytes field: {utf8}"
        );
    }

    #[test]
    fn hints_are_pure_and_say_what_to_do() {
        let deleted = Error::Stale {
            path: PathBuf::from("/w/gone.txt"),
            session: "s".into(),
            deleted: true,
            reread: None,
            change: None,
            change_unavailable: None,
        };
        assert!(
            deleted
                .hint()
                .unwrap()
                .contains("quill state forget /w/gone.txt")
        );
        let changed = Error::Stale {
            path: PathBuf::from("/w/gone.txt"),
            session: "s".into(),
            deleted: false,
            reread: None,
            change: None,
            change_unavailable: None,
        };
        assert!(changed.hint().unwrap().contains("quill read /w/gone.txt"));
        // A line-addressed edit of the session's own version: a read around its lines.
        let renumbered = |first, last| Error::Stale {
            path: PathBuf::from("/w/a.txt"),
            session: "s".into(),
            deleted: false,
            reread: Some((first, last)),
            change: None,
            change_unavailable: None,
        };
        assert!(
            renumbered(12, 14)
                .hint()
                .unwrap()
                .contains("`quill read /w/a.txt --offset 7 --limit 13`")
        );
        assert!(
            renumbered(2, 2)
                .hint()
                .unwrap()
                .contains("`quill read /w/a.txt --offset 1 --limit 7`")
        );
        assert!(
            renumbered(2, 2)
                .to_string()
                .contains("must come from a read")
        );
        assert_eq!(
            Error::io(
                "read",
                Path::new("/x"),
                io::Error::from(io::ErrorKind::NotFound)
            )
            .kind(),
            "not_found"
        );
        assert_eq!(
            Error::io(
                "write",
                Path::new("/x"),
                io::Error::from(io::ErrorKind::StorageFull)
            )
            .kind(),
            "no_space"
        );
    }

    #[test]
    fn a_usage_hint_names_the_command_of_its_usage_line() {
        let e = Error::Usage {
            message: "unexpected argument '--limt' found".into(),
            detail: Box::new(UsageDetail {
                argument: Some("--limt".into()),
                suggestion: Some("--limit".into()),
                usage: Some("quill state forget [OPTIONS] <PATH>".into()),
                tip: Some("a similar argument exists: '--limit'".into()),
                fix: None,
            }),
        };
        assert_eq!(
            e.hint().unwrap(),
            "a similar argument exists: '--limit'; run `quill state forget --help`"
        );
        assert_eq!(
            Error::usage("bad").hint().unwrap(),
            "run `quill --help` or `quill COMMAND --help`"
        );
    }

    #[test]
    fn a_line_too_long_hint_is_the_call_that_shows_it() {
        let e = |line, bytes, line_bytes, max_line_chars, cut, encoding, path: &str| {
            Error::LineTooLong {
                path: PathBuf::from(path),
                line,
                bytes,
                line_bytes,
                budget: 100,
                max_line_chars,
                cut,
                encoding,
            }
        };
        let whole = e(1, 500, 500, 0, false, None, "/w/a b.js");
        assert_eq!(
            whole.to_string(),
            "line 1 of /w/a b.js is 500 bytes, more than the page budget of 100 bytes"
        );
        assert_eq!(
            whole.hint().unwrap(),
            "`quill read '/w/a b.js' --max-line-chars 0 --max-bytes 500` shows it whole; without --max-line-chars 0 long lines are cut to 2000 characters"
        );
        let cut = e(7, 140, 9000, 120, true, Some("windows-1251"), "/w/x");
        assert_eq!(
            cut.to_string(),
            "line 7 of /w/x is 9000 bytes; cut to 120 characters it still takes 140 bytes, more than the page budget of 100 bytes"
        );
        assert_eq!(
            cut.hint().unwrap(),
            "`quill read /w/x --encoding windows-1251 --offset 7 --max-line-chars 120 --max-bytes 140` shows it cut to 120 characters"
        );
        let short = e(2, 300, 200, 2000, false, None, "<stdin>");
        assert_eq!(
            short.to_string(),
            "line 2 of <stdin> is 200 bytes (300 bytes as shown), more than the page budget of 100 bytes"
        );
        assert_eq!(
            short.hint().unwrap(),
            "`quill read - --offset 2 --max-bytes 300` shows it whole"
        );
    }

    #[test]
    fn an_unencodable_character_hints_at_the_conversion() {
        let e = Error::Encoding {
            path: PathBuf::from("/w/f.txt"),
            message: "no Ж".into(),
            encoding: Some("windows-1252"),
            character: Some("Ж".into()),
            code_point: Some("U+0416".into()),
        };
        assert_eq!(
            e.hint().unwrap(),
            "use characters windows-1252 has, or convert the file to UTF-8 first: `iconv -f windows-1252 -t utf-8 /w/f.txt | quill write /w/f.txt --from -`"
        );
        let json = serde_json::to_value(&e).unwrap();
        assert_eq!(json["codePoint"], "U+0416");
        let plain = serde_json::to_value(Error::encoding(Path::new("/w"), "x")).unwrap();
        assert!(plain.get("encoding").is_none() && plain.get("character").is_none());
        assert!(
            Error::encoding(Path::new("/w"), "x")
                .hint()
                .unwrap()
                .contains("U+FFFD")
        );
    }
}
