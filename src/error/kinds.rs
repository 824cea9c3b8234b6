//! Making an `Error` and naming it: the constructors (an `io::Error` classified into the
//! kind the contract names for it), the stable JSON `kind` string of each variant, and its
//! exit code (docs/errors.md).

use std::io;
use std::path::Path;

use super::{Error, UsageDetail, exit};

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
            Error::ConnectionFailed { .. } => "connection_failed",
            Error::RemoteQuillMissing { .. } => "remote_quill_missing",
            Error::RemoteVersion { .. } => "remote_version",
            Error::ConnectionLost { .. } => "connection_lost",
            Error::CommitUnknown { .. } => "commit_unknown",
            Error::Remote { kind, .. } => kind,
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
            | Error::ConnectionFailed { .. }
            | Error::RemoteQuillMissing { .. }
            | Error::RemoteVersion { .. }
            | Error::ConnectionLost { .. }
            | Error::CommitUnknown { .. }
            | Error::Interrupted => exit::SYSTEM,
            Error::Remote { exit, .. } => *exit,
        }
    }
}
