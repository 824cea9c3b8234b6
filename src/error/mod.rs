//! The one error type of quill. Every failure a command can report is a variant here; the
//! variant decides the stable JSON `kind` (the serde tag), the exit code (docs/errors.md, an
//! exhaustive match), the human message (`Display`), a `hint` that says what to do next, and
//! the kind-specific JSON fields (the variant's fields, derived). Nothing here does I/O — not
//! even `hint`; `output` turns an `Error` into text or the JSON envelope.

pub(crate) mod near;

use std::io;
use std::path::{Path, PathBuf};

use schemars::JsonSchema;
use serde::Serialize;

use crate::edit::miss::{MissFix, MissReason, MissWindow};
use crate::text::names;

/// Hints quote paths as `text::shell` does (the callers that name it here keep working).
pub(crate) use crate::text::shell::shell_quote;

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
    #[error("{}", stale_message(path, session, *reread))]
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
    /// Exit 4 in JSON; the process then dies by the signal (exit 130 or 143 in a shell). Ctrl-C or
    /// SIGTERM abandoned the operation cleanly: nothing half-written.
    #[error("interrupted")]
    Interrupted,
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

impl Error {
    pub fn usage(message: impl Into<String>) -> Error {
        Error::Usage {
            message: message.into(),
            detail: Box::default(),
        }
    }

    /// A usage mistake quill recognizes (a flag of another tool): the hint says what to type.
    pub fn usage_fix(message: impl Into<String>, fix: impl Into<String>) -> Error {
        Error::Usage {
            message: message.into(),
            detail: Box::new(UsageDetail {
                fix: Some(fix.into()),
                ..UsageDetail::default()
            }),
        }
    }

    /// An `encoding` error without a character to name.
    pub fn encoding(path: &Path, message: impl Into<String>) -> Error {
        Error::Encoding {
            path: path.to_path_buf(),
            message: message.into(),
            encoding: None,
            character: None,
            code_point: None,
        }
    }

    pub fn invalid_argument(message: impl Into<String>) -> Error {
        Error::InvalidArgument {
            message: message.into(),
            fix: None,
        }
    }

    /// An argument quill refuses whose fix it knows: the hint is the next call that works.
    pub fn invalid_argument_fix(message: impl Into<String>, fix: impl Into<String>) -> Error {
        Error::InvalidArgument {
            message: message.into(),
            fix: Some(fix.into()),
        }
    }

    /// Map an I/O error to the kind the contract names for it: `not_found`,
    /// `permission_denied`, `no_space` or `io`, with the operation named.
    pub fn io(op: &'static str, path: &Path, err: io::Error) -> Error {
        let path = path.to_path_buf();
        match err.kind() {
            io::ErrorKind::NotFound => Error::NotFound {
                path,
                similar: Vec::new(),
                near: Box::default(),
            },
            io::ErrorKind::PermissionDenied => Error::PermissionDenied { path, op },
            io::ErrorKind::StorageFull | io::ErrorKind::QuotaExceeded => {
                Error::NoSpace { path, op }
            }
            io::ErrorKind::Interrupted => Error::Interrupted,
            _ => Error::Io {
                path,
                op,
                source: err,
            },
        }
    }

    /// The stable `error.kind` string of the JSON envelope (the serde tag; a test checks the
    /// two agree for every kind).
    pub fn kind(&self) -> &'static str {
        match self {
            Error::Usage { .. } => "usage",
            Error::InvalidPattern { .. } => "invalid_pattern",
            Error::InvalidArgument { .. } => "invalid_argument",
            Error::OffsetPastEnd { .. } => "offset_past_end",
            Error::SameFile { .. } => "same_file",
            Error::NotRead { .. } => "not_read",
            Error::Stale { .. } => "stale",
            Error::CreateConflict { .. } => "create_conflict",
            Error::DestinationExists { .. } => "destination_exists",
            Error::EditNoMatch { .. } => "edit_no_match",
            Error::EditAmbiguous { .. } => "edit_ambiguous",
            Error::PatchRejected { .. } => "patch_rejected",
            Error::OutsideRoot { .. } => "outside_root",
            Error::ReadOnly { .. } => "read_only",
            Error::Symlink { .. } => "symlink",
            Error::IrregularFile { .. } => "irregular_file",
            Error::IsDirectory { .. } => "is_directory",
            Error::BinaryFile { .. } => "binary_file",
            Error::FileTooLarge { .. } => "file_too_large",
            Error::LineTooLong { .. } => "line_too_long",
            Error::Encoding { .. } => "encoding",
            Error::NothingToUndo { .. } => "nothing_to_undo",
            Error::ChangedDuringRead { .. } => "changed_during_read",
            Error::SourceChanged { .. } => "source_changed",
            Error::AlreadyApplied { .. } => "already_applied",
            Error::NotFound { .. } => "not_found",
            Error::PermissionDenied { .. } => "permission_denied",
            Error::NoSpace { .. } => "no_space",
            Error::Io { .. } => "io",
            Error::LockTimeout { .. } => "lock_timeout",
            Error::StateUnavailable { .. } => "state_unavailable",
            Error::ConverterMissing { .. } => "converter_missing",
            Error::Interrupted => "interrupted",
        }
    }

    /// The exit code of docs/errors.md; every kind is listed, so a new one must choose.
    pub fn exit_code(&self) -> u8 {
        match self {
            Error::Usage { .. } | Error::InvalidPattern { .. } | Error::InvalidArgument { .. } => {
                exit::USAGE
            }
            Error::OffsetPastEnd { .. } => exit::NOTHING_FOUND,
            Error::SameFile { .. }
            | Error::NotRead { .. }
            | Error::Stale { .. }
            | Error::CreateConflict { .. }
            | Error::DestinationExists { .. }
            | Error::EditNoMatch { .. }
            | Error::EditAmbiguous { .. }
            | Error::OutsideRoot { .. }
            | Error::ReadOnly { .. }
            | Error::Symlink { .. }
            | Error::IrregularFile { .. }
            | Error::IsDirectory { .. }
            | Error::BinaryFile { .. }
            | Error::FileTooLarge { .. }
            | Error::LineTooLong { .. }
            | Error::Encoding { .. }
            | Error::NothingToUndo { .. }
            | Error::ChangedDuringRead { .. }
            | Error::SourceChanged { .. }
            | Error::AlreadyApplied { .. }
            | Error::PatchRejected { .. } => exit::REFUSED,
            Error::NotFound { .. }
            | Error::PermissionDenied { .. }
            | Error::NoSpace { .. }
            | Error::Io { .. }
            | Error::LockTimeout { .. }
            | Error::StateUnavailable { .. }
            | Error::ConverterMissing { .. }
            | Error::Interrupted => exit::SYSTEM,
        }
    }

    /// What the caller can do next; `None` where the message says it all.
    pub fn hint(&self) -> Option<String> {
        Some(match self {
            Error::Usage { detail, .. } if detail.fix.is_some() => {
                detail.fix.clone().unwrap_or_default()
            }
            Error::Usage { detail, .. } => {
                let UsageDetail { usage, tip, .. } = &**detail;
                let help = match usage.as_deref().map(command_of_usage).filter(|c| !c.is_empty()) {
                    Some(cmd) => format!("run `{cmd} --help`"),
                    None => "run `quill --help` or `quill COMMAND --help`".into(),
                };
                match tip {
                    Some(tip) => format!("{tip}; {help}"),
                    None => help,
                }
            }
            Error::InvalidPattern { fix: Some(fix), .. } => fix.clone(),
            Error::InvalidPattern { .. } => {
                "the pattern is a Rust regex; use -F to search for it literally".into()
            }
            Error::OffsetPastEnd { total_lines, .. } => {
                if *total_lines == 0 {
                    "the file is empty; read it without --offset".into()
                } else {
                    format!("use an --offset from 1 to {total_lines}")
                }
            }
            Error::SameFile { .. } => "choose a different destination".into(),
            Error::NotRead { path, .. } => format!(
                "run `quill read {}` first (or pass --expect-sha256 with the content's hash)",
                shell_quote(path)
            ),
            Error::Stale {
                path,
                deleted: true,
                ..
            } => format!(
                "it was deleted after it was read; to create it anew, `quill state forget {}` first",
                shell_quote(path)
            ),
            Error::Stale {
                path,
                reread: Some((first, last)),
                ..
            } => {
                let offset = first.saturating_sub(READ_AROUND).max(1);
                let limit = last + READ_AROUND + 1 - offset;
                format!(
                    "run `quill read {} --offset {offset} --limit {limit}`, then repeat the edit with the line numbers it shows",
                    shell_quote(path)
                )
            }
            Error::Stale { path, .. } => format!(
                "run `quill read {}` again and redo the change on the current content",
                shell_quote(path)
            ),
            Error::CreateConflict { path } => format!(
                "someone created it first; `quill read {}` it, then write or edit it",
                shell_quote(path)
            ),
            Error::DestinationExists { .. } => {
                "pass --replace-sha256 with its current SHA-256 to replace it, or choose another destination".into()
            }
            Error::EditNoMatch { fix, path, .. } => miss_hint(*fix, path),
            Error::PatchRejected { problems, .. } => {
                let first = problems.first().and_then(|p| p.hint.clone());
                match (problems.len(), first) {
                    (1, Some(h)) => format!("{h}; then apply the patch again"),
                    (n, Some(h)) => format!(
                        "fix all {n} problems listed, then apply the patch again; the first: {h}"
                    ),
                    (_, None) => "fix the problems listed, then apply the patch again".into(),
                }
            }
            Error::EditAmbiguous {
                expect_count: Some(n),
                count,
                ..
            } => format!(
                "--expect-count {n} was given and `old` occurs {count} times: if all {count} are \
                 meant, repeat with --expect-count {count}; else add surrounding lines to `old` \
                 so that it matches only the ones you mean"
            ),
            Error::EditAmbiguous { .. } => {
                "add surrounding lines to `old` to make it unique, or pass --replace-all".into()
            }
            Error::OutsideRoot { root, .. } => {
                format!("only paths inside {} may be used", root.display())
            }
            Error::ReadOnly { .. } => "unset QUILL_READ_ONLY / drop --read-only to allow changes".into(),
            Error::Symlink { .. } => "name the link's target instead".into(),
            Error::IrregularFile { .. } => "quill only reads and writes regular files".into(),
            Error::IsDirectory { path } => {
                format!(
                    "name a file in it; `quill read {}` lists them",
                    shell_quote(path)
                )
            }
            Error::BinaryFile { .. } => "quill shows text, images, PDFs and notebooks only".into(),
            Error::FileTooLarge { .. } => {
                "edit takes --max-file-bytes to raise its limit; read decodes UTF-16 files and notebooks whole only up to 64 MiB".into()
            }
            Error::LineTooLong {
                path,
                line,
                bytes,
                max_line_chars,
                cut,
                encoding,
                ..
            } => {
                let mut call = format!("quill read {}", stdin_or(path));
                if let Some(name) = encoding {
                    call.push_str(&format!(" --encoding {name}"));
                }
                if *line > 1 {
                    call.push_str(&format!(" --offset {line}"));
                }
                if *cut || *max_line_chars == 0 {
                    call.push_str(&format!(" --max-line-chars {max_line_chars}"));
                }
                call.push_str(&format!(" --max-bytes {bytes}"));
                if *cut {
                    format!("`{call}` shows it cut to {max_line_chars} characters")
                } else if *max_line_chars == 0 {
                    format!(
                        "`{call}` shows it whole; without --max-line-chars 0 long lines are cut to 2000 characters"
                    )
                } else {
                    format!("`{call}` shows it whole")
                }
            }
            Error::Encoding {
                path,
                encoding: Some(encoding),
                character: Some(_),
                ..
            } => format!(
                "use characters {encoding} has, or convert the file to UTF-8 first: `iconv -f {encoding} -t utf-8 {p} | quill write {p} --from -`",
                p = shell_quote(path)
            ),
            Error::Encoding { .. } => {
                "`old` and `new` must not contain U+FFFD (�) from a lossy read; match only the valid text around the invalid bytes".into()
            }
            Error::NothingToUndo { .. } => {
                "undo only reverts changes quill made in this session".into()
            }
            Error::ChangedDuringRead { .. } => {
                "another process is writing it; wait and read again".into()
            }
            Error::SourceChanged { .. } => "read the source again and retry".into(),
            Error::AlreadyApplied { .. } => {
                "nothing was written: an earlier call made this change; to apply it once more on purpose, repeat the call with --again".into()
            }
            Error::NotFound { near, .. } if near.hint.is_some() => near.hint.clone().unwrap_or_default(),
            Error::NotFound { similar, .. } => {
                if similar.is_empty() {
                    "check the path; `quill glob` finds files by name".into()
                } else {
                    let names: Vec<_> = similar.iter().map(|p| p.to_string_lossy()).collect();
                    format!("did you mean: {}?", names.join(", "))
                }
            }
            Error::PermissionDenied { .. } => {
                "check the permissions of the file and its directory".into()
            }
            Error::NoSpace { .. } => "free some disk space and retry; nothing was changed".into(),
            Error::Io { .. } => return None,
            Error::LockTimeout { .. } => {
                "another quill process holds the lock; retry, or raise --lock-timeout".into()
            }
            Error::StateUnavailable { message, .. } if message.contains("newer than this quill") => {
                "a newer quill wrote this state: upgrade quill, or use another --state-dir or --session".into()
            }
            Error::StateUnavailable { message, path }
                if message.ends_with(UNTRUSTED) =>
            {
                format!(
                    "quill never makes such an entry: remove {} and retry, or point --state-dir (or QUILL_STATE_DIR) at another directory",
                    shell_quote(path)
                )
            }
            Error::StateUnavailable { .. } => {
                "point --state-dir (or QUILL_STATE_DIR) at a writable directory you own".into()
            }
            Error::ConverterMissing { install, .. } => format!("install it: {install}"),
            Error::Interrupted => "nothing was changed; run the command again".into(),
            Error::InvalidArgument { fix, .. } => return fix.clone(),
        })
    }
}

/// Lines of context on each side of the lines a `stale` line-addressed edit names, in the read
/// its hint gives.
const READ_AROUND: usize = 5;

/// `stale`'s message: the file changed, or — a line-addressed edit — the session's own change
/// is the version at hand, which the caller's line numbers do not describe.
fn stale_message(path: &Path, session: &str, reread: Option<(usize, usize)>) -> String {
    match reread {
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

/// The path a `quill read` hint names: `-` for standard input.
fn stdin_or(path: &Path) -> String {
    if path == Path::new("<stdin>") {
        "-".into()
    } else {
        shell_quote(path)
    }
}

/// The command a usage line is about: its leading words (`quill state forget` of
/// `quill state forget [OPTIONS] <PATH>`).
fn command_of_usage(usage: &str) -> String {
    usage
        .lines()
        .next()
        .unwrap_or("")
        .split_whitespace()
        .take_while(|w| !w.starts_with(['[', '<', '-']))
        .collect::<Vec<_>>()
        .join(" ")
}

/// One problem of a rejected patch (`patch_rejected`): the file (and hunk) it is in, the
/// kind of error it would be alone, and what to do about it.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct PatchProblem {
    /// The file (resolved; for a hunk, the file the hunk applies to).
    #[serde(flatten, serialize_with = "names::path")]
    #[schemars(schema_with = "crate::text::names::one::path")]
    pub path: PathBuf,
    /// The error kind the problem would have alone (`not_read`, `stale`, `not_found`,
    /// `create_conflict`, `edit_no_match`, `edit_ambiguous`, `already_applied`,
    /// `binary_file`, `invalid_argument`, …; see docs/errors.md).
    pub kind: &'static str,
    pub message: String,
    /// What to do about it; null where the message says it all.
    pub hint: Option<String>,
    /// The 1-based line of the patch where the file's section (or the hunk) starts.
    pub line: usize,
    /// The hunk (0-based, within its file's section), when the problem is a hunk's.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hunk_index: Option<usize>,
    /// `edit_no_match`: how close the best candidate came.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<MissReason>,
    /// `edit_no_match`: the file's real lines around the best candidate (at most 16 lines, 2 KiB).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub window: Option<MissWindow>,
    /// `edit_no_match`: the first difference, in one sentence.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub difference: Option<String>,
    /// `edit_ambiguous`: how many places the hunk matches.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub count: Option<usize>,
    /// `edit_ambiguous`: their 1-based first lines (at most 20).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lines: Option<Vec<usize>>,
}

impl PatchProblem {
    /// The problem an error of the file `path` is, at patch line `line`.
    pub(crate) fn of(path: &Path, line: usize, e: &Error) -> PatchProblem {
        let mut p = PatchProblem {
            path: path.to_path_buf(),
            kind: e.kind(),
            message: e.to_string(),
            hint: e.hint(),
            line,
            hunk_index: None,
            reason: None,
            window: None,
            difference: None,
            count: None,
            lines: None,
        };
        if let Error::EditNoMatch {
            reason,
            window,
            difference,
            ..
        } = e
        {
            p.reason = Some(*reason);
            p.window = window.clone();
            p.difference = Some(difference.clone());
        }
        if let Error::EditAmbiguous { count, lines, .. } = e {
            p.count = Some(*count);
            p.lines = Some(lines.clone());
        }
        p
    }

    /// The same problem in apply's own words.
    pub(crate) fn reworded(mut self, message: String, hint: &str) -> PatchProblem {
        self.message = message;
        self.hint = Some(hint.to_string());
        self
    }

    /// A problem no single error kind's fields describe: its kind named here.
    pub(crate) fn reworded_as(
        mut self,
        kind: &'static str,
        message: String,
        hint: &str,
    ) -> PatchProblem {
        self.kind = kind;
        self.reworded(message, hint)
    }
}

/// The hint of an edit miss: the one next call that fixes it. It names flags and commands
/// only, never a JSON field, so it reads the same in text and JSON.
fn miss_hint(fix: MissFix, path: &Path) -> String {
    match fix {
        MissFix::Fuzzy => {
            "rerun with --fuzzy: it applies there, keeping the file's characters".into()
        }
        MissFix::FuzzyUnnumbered => {
            "drop the line numbers from old, or rerun with --fuzzy to strip them".into()
        }
        MissFix::FuzzyUnescaped => {
            "use real line breaks (bash: $'a\\nb'), or rerun with --fuzzy to read the escapes"
                .into()
        }
        MissFix::Unnumber => "drop the line numbers from old and new".into(),
        MissFix::Unique => "add neighbouring lines to old so that it matches one place".into(),
        MissFix::Quote => "copy old exactly from the file's lines shown".into(),
        MissFix::Read => format!("`quill read {}`, then copy old from it", shell_quote(path)),
        MissFix::InOrder => {
            "quote old as the edits before it leave the text, or merge the two edits".into()
        }
    }
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
        };
        assert!(changed.hint().unwrap().contains("quill read /w/gone.txt"));
        // A line-addressed edit of the session's own version: a read around its lines.
        let renumbered = |first, last| Error::Stale {
            path: PathBuf::from("/w/a.txt"),
            session: "s".into(),
            deleted: false,
            reread: Some((first, last)),
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
            Error::io("write", Path::new("/x"), io::Error::from_raw_os_error(28)).kind(),
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
