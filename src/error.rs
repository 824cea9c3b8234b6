//! The one error type of quill. Every failure a command can report is a variant here; the
//! variant decides the stable JSON `kind`, the exit code (SPEC §2.3), the human message
//! (`Display`), a `hint` that says what to do next, and any kind-specific JSON fields.
//! Nothing here does I/O; `output` turns an `Error` into text or the JSON envelope.

use std::io;
use std::path::{Path, PathBuf};

use serde_json::{Map, Value, json};

/// Exit codes of SPEC §2.3.
pub mod exit {
    pub const SUCCESS: u8 = 0;
    pub const NOTHING_FOUND: u8 = 1;
    pub const USAGE: u8 = 2;
    pub const REFUSED: u8 = 3;
    pub const SYSTEM: u8 = 4;
}

pub type Result<T, E = Error> = std::result::Result<T, E>;

#[derive(Debug, thiserror::Error)]
pub enum Error {
    // --- usage (exit 2)
    #[error("{message}")]
    Usage { message: String },
    #[error("invalid pattern: {message}")]
    InvalidPattern {
        message: String,
        position: Option<usize>,
    },
    #[error("{message}")]
    InvalidArgument { message: String },

    // --- nothing found (exit 1)
    #[error("offset {offset} is past the end of {} ({total_lines} lines)", path.display())]
    OffsetPastEnd {
        path: PathBuf,
        offset: u64,
        total_lines: u64,
    },

    // --- refused by a guard (exit 3)
    #[error("{} and {} are the same file", source_path.display(), destination.display())]
    SameFile {
        source_path: PathBuf,
        destination: PathBuf,
    },
    #[error("{} has not been read in session '{session}'", path.display())]
    NotRead { path: PathBuf, session: String },
    #[error("{} changed since session '{session}' read it", path.display())]
    Stale { path: PathBuf, session: String },
    #[error("{} already exists", path.display())]
    CreateConflict { path: PathBuf },
    #[error("destination {} already exists", path.display())]
    DestinationExists { path: PathBuf },
    #[error("{message}")]
    EditNoMatch {
        message: String,
        fields: Map<String, Value>,
    },
    #[error("{message}")]
    EditAmbiguous {
        message: String,
        fields: Map<String, Value>,
    },
    #[error("{} resolves to {}, outside the root {}", requested.display(), target.display(), root.display())]
    OutsideRoot {
        requested: PathBuf,
        target: PathBuf,
        root: PathBuf,
    },
    #[error("refusing to {action} {}: quill runs read-only", path.display())]
    ReadOnly { path: PathBuf, action: &'static str },
    #[error("{} is a symbolic link; {reason}", path.display())]
    Symlink { path: PathBuf, reason: &'static str },
    #[error("{} is a {file_type}, not a regular file", path.display())]
    IrregularFile {
        path: PathBuf,
        file_type: &'static str,
    },
    #[error("{} is a directory", path.display())]
    IsDirectory { path: PathBuf },
    #[error("{} is a binary file ({guess}, {size} bytes)", path.display())]
    BinaryFile {
        path: PathBuf,
        size: u64,
        guess: &'static str,
    },
    #[error("{} is {size} bytes, over the limit of {limit} bytes", path.display())]
    FileTooLarge {
        path: PathBuf,
        size: u64,
        limit: u64,
    },
    #[error("line {line} of {} is {bytes} bytes, more than the page budget of {budget} bytes", path.display())]
    LineTooLong {
        path: PathBuf,
        line: u64,
        bytes: u64,
        budget: u64,
    },
    #[error("{message}")]
    Encoding { path: PathBuf, message: String },
    #[error("nothing to undo for {} in session '{session}'", path.display())]
    NothingToUndo { path: PathBuf, session: String },
    #[error("{} kept changing while it was read", path.display())]
    ChangedDuringRead { path: PathBuf },
    #[error("source {} changed: {reason}", path.display())]
    SourceChanged { path: PathBuf, reason: String },

    // --- system or I/O (exit 4)
    #[error("{} does not exist", path.display())]
    NotFound { path: PathBuf, similar: Vec<String> },
    #[error("permission denied: cannot {op} {}", path.display())]
    PermissionDenied { path: PathBuf, op: &'static str },
    #[error("no space left on device: cannot {op} {}", path.display())]
    NoSpace { path: PathBuf, op: &'static str },
    #[error("cannot {op} {}: {source}", path.display())]
    Io {
        path: PathBuf,
        op: &'static str,
        source: io::Error,
    },
    #[error("timed out after {seconds}s waiting for the lock on {}", path.display())]
    LockTimeout { path: PathBuf, seconds: f64 },
    #[error("state unavailable: {message}")]
    StateUnavailable { message: String, path: PathBuf },
    #[error("{converter} is not installed; it is needed to read {}", path.display())]
    ConverterMissing {
        converter: &'static str,
        install: &'static str,
        path: PathBuf,
    },
    #[error("interrupted")]
    Interrupted,
}

impl Error {
    pub fn usage(message: impl Into<String>) -> Error {
        Error::Usage {
            message: message.into(),
        }
    }

    pub fn invalid_argument(message: impl Into<String>) -> Error {
        Error::InvalidArgument {
            message: message.into(),
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
            },
            io::ErrorKind::PermissionDenied => Error::PermissionDenied { path, op },
            io::ErrorKind::StorageFull | io::ErrorKind::QuotaExceeded => {
                Error::NoSpace { path, op }
            }
            io::ErrorKind::Interrupted => Error::Interrupted,
            _ if err.raw_os_error() == Some(libc_eperm()) => Error::PermissionDenied { path, op },
            _ => Error::Io {
                path,
                op,
                source: err,
            },
        }
    }

    /// The stable `error.kind` string of the JSON envelope.
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

    pub fn exit_code(&self) -> u8 {
        match self {
            Error::Usage { .. } | Error::InvalidPattern { .. } | Error::InvalidArgument { .. } => {
                exit::USAGE
            }
            Error::OffsetPastEnd { .. } => exit::NOTHING_FOUND,
            Error::NotFound { .. }
            | Error::PermissionDenied { .. }
            | Error::NoSpace { .. }
            | Error::Io { .. }
            | Error::LockTimeout { .. }
            | Error::StateUnavailable { .. }
            | Error::ConverterMissing { .. }
            | Error::Interrupted => exit::SYSTEM,
            _ => exit::REFUSED,
        }
    }

    /// What the caller can do next; `None` where the message says it all.
    pub fn hint(&self) -> Option<String> {
        Some(match self {
            Error::Usage { .. } => "run `quill --help` or `quill COMMAND --help`".into(),
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
            Error::Stale { path, .. } if !path.exists() => format!(
                "it was deleted after it was read; to create it anew, `quill state forget {}` first",
                shell_quote(path)
            ),
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
            Error::EditNoMatch { .. } => {
                "copy `old` exactly from a fresh `quill read` (see `window`); --fuzzy applies a unique whitespace-only match".into()
            }
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
                format!("list it with `quill glob '*' {}`", shell_quote(path))
            }
            Error::BinaryFile { .. } => "quill shows text, images, PDFs and notebooks only".into(),
            Error::FileTooLarge { .. } => {
                "edit takes --max-file-bytes to raise its limit; read decodes UTF-16 files and notebooks whole only up to 64 MiB".into()
            }
            Error::LineTooLong { bytes, .. } => format!(
                "raise --max-bytes above {bytes}, or lower --max-line-chars so long lines are cut in the display"
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
            Error::NotFound { similar, .. } => {
                if similar.is_empty() {
                    "check the path; `quill glob` finds files by name".into()
                } else {
                    format!("did you mean: {}?", similar.join(", "))
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
            Error::StateUnavailable { .. } => {
                "point --state-dir (or QUILL_STATE_DIR) at a writable directory you own".into()
            }
            Error::ConverterMissing { install, .. } => format!("install it: {install}"),
            Error::Interrupted => "nothing was changed; run the command again".into(),
            Error::InvalidArgument { .. } => return None,
        })
    }

    /// Kind-specific fields merged into the JSON `error` object.
    pub fn fields(&self) -> Map<String, Value> {
        let v = match self {
            Error::InvalidPattern { position, .. } => json!({ "position": position }),
            Error::OffsetPastEnd {
                path,
                offset,
                total_lines,
            } => json!({ "path": path, "offset": offset, "totalLines": total_lines }),
            Error::SameFile {
                source_path,
                destination,
            } => json!({ "source": source_path, "destination": destination }),
            Error::EditNoMatch { fields, .. } | Error::EditAmbiguous { fields, .. } => {
                return fields.clone();
            }
            Error::OutsideRoot {
                requested,
                target,
                root,
            } => json!({ "path": requested, "target": target, "root": root }),
            Error::BinaryFile { path, size, guess } => {
                json!({ "path": path, "size": size, "guess": guess })
            }
            Error::FileTooLarge { path, size, limit } => {
                json!({ "path": path, "size": size, "limit": limit })
            }
            Error::LineTooLong {
                path,
                line,
                bytes,
                budget,
            } => json!({ "path": path, "line": line, "bytes": bytes, "maxBytes": budget }),
            Error::NotFound { path, similar } => json!({ "path": path, "similar": similar }),
            Error::PermissionDenied { path, op }
            | Error::NoSpace { path, op }
            | Error::Io { path, op, .. } => json!({ "path": path, "operation": op }),
            Error::IrregularFile { path, file_type } => {
                json!({ "path": path, "fileType": file_type })
            }
            Error::LockTimeout { path, seconds } => json!({ "path": path, "seconds": seconds }),
            Error::ConverterMissing {
                converter,
                install,
                path,
            } => json!({ "path": path, "converter": converter, "install": install }),
            Error::SourceChanged { path, reason } => json!({ "path": path, "reason": reason }),
            Error::StateUnavailable { path, .. } => json!({ "path": path }),
            Error::NotRead { path, .. }
            | Error::Stale { path, .. }
            | Error::CreateConflict { path }
            | Error::DestinationExists { path }
            | Error::ReadOnly { path, .. }
            | Error::Symlink { path, .. }
            | Error::IsDirectory { path }
            | Error::Encoding { path, .. }
            | Error::NothingToUndo { path, .. }
            | Error::ChangedDuringRead { path } => json!({ "path": path }),
            Error::Usage { .. } | Error::InvalidArgument { .. } | Error::Interrupted => json!({}),
        };
        match v {
            Value::Object(map) => map,
            _ => Map::new(),
        }
    }
}

/// A path as a shell word, so a hint's command can be pasted as it is.
fn shell_quote(path: &Path) -> String {
    let s = path.to_string_lossy();
    let plain = |c: char| c.is_ascii_alphanumeric() || "/._-+,:@%".contains(c);
    if !s.is_empty() && s.chars().all(plain) {
        s.into_owned()
    } else {
        format!("'{}'", s.replace('\'', "'\\''"))
    }
}

const fn libc_eperm() -> i32 {
    1
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exit_codes_follow_the_table() {
        assert_eq!(Error::usage("x").exit_code(), 2);
        let p = PathBuf::from("/x");
        assert_eq!(
            Error::OffsetPastEnd {
                path: p.clone(),
                offset: 9,
                total_lines: 1
            }
            .exit_code(),
            1
        );
        assert_eq!(
            Error::Stale {
                path: p.clone(),
                session: "s".into()
            }
            .exit_code(),
            3
        );
        assert_eq!(
            Error::io("read", &p, io::Error::from(io::ErrorKind::NotFound)).kind(),
            "not_found"
        );
        assert_eq!(
            Error::io("write", &p, io::Error::from_raw_os_error(28)).kind(),
            "no_space"
        );
        assert_eq!(Error::Interrupted.exit_code(), 4);
    }

    #[test]
    fn hints_quote_paths_for_the_shell() {
        assert_eq!(shell_quote(Path::new("/a/b.rs")), "/a/b.rs");
        assert_eq!(shell_quote(Path::new("/a b/it's")), "'/a b/it'\\''s'");
    }
}
