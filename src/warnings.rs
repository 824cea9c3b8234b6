//! The warnings of one run: things that went wrong without failing the command (a corrupt
//! state file moved aside, an unreadable directory skipped, a durability fsync that failed
//! after a commit). Each has a stable `kind` a caller can act on and a `message` for people.
//! Any layer may push one; `app` hands them to `output`, which prints the messages on stderr
//! in text mode and the objects as `warnings` in JSON. Shared by worker threads, so it locks.

use std::sync::Mutex;

/// One warning: `{"kind": …, "message": …}` in JSON.
#[derive(Debug, Clone, serde::Serialize, schemars::JsonSchema)]
pub struct Warning {
    /// What happened, as a stable name.
    pub kind: WarningKind,
    /// What happened, in words (the file, the cause); not stable.
    pub message: String,
}

/// What a warning is about. New kinds may be added; a caller should treat one it does not
/// know as worth showing to a person.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum WarningKind {
    /// A session's state file could not be parsed: the session starts empty (a run that
    /// changes the session first moves the file aside). Every baseline of the session is lost:
    /// read the files again before changing them.
    StateCorrupt,
    /// `state --all-sessions`: a session file was refused (a symbolic link, not a regular
    /// file, not ours, more than one hard link, unreadable) and left out of the list. Nothing
    /// to do unless that session is needed.
    StateSkipped,
    /// The change landed, but the session could not record it: the next change of the file is
    /// refused as `stale` until it is read again. Read it again before changing it.
    SessionNotUpdated,
    /// The change landed, but no undo step was kept for it (the old content is over the
    /// history's size, or could not be stored): `undo` will not restore what it replaced.
    UndoUnavailable,
    /// The change landed, but an fsync after it failed: it may not survive a power loss.
    /// Check the file system; the result stands.
    DurabilityUnconfirmed,
    /// The change landed, but the new file's metadata could not be read: the result's details
    /// of it may be the directory's. Nothing to redo.
    MetadataUnavailable,
    /// A multi-file change (`apply`, an undo of one) was interrupted by a crash, and this run
    /// finished it (it had reached its commit point) or rolled it back (it had not) before
    /// touching any file. The message names the files; read them again before changing them.
    JournalRecovered,
    /// The file replaced had other hard links: those names still show the old content.
    /// Change them separately if they should follow.
    HardLinks,
    /// `transfer --move`: the destination is complete, but the source could not be removed
    /// (the reason is in the message and in `sourceKeptReason`). Remove it yourself if
    /// needed.
    SourceKept,
    /// `edit`: `old` and `new` were rewritten before matching (line-number prefixes as `read`
    /// shows them left out, or escapes read as the characters they stand for). Check the diff;
    /// send the file's text as it is next time.
    EditRewritten,
    /// `edit` or `apply` with `--merge`: the file had changed since the session's read (or its
    /// own last change), away from the lines the call changes, and the call was applied to the
    /// current file. The message carries that change as a diff (also `outsideChange`): it now
    /// counts as seen.
    Merged,
    /// `read`: the file is not UTF-8 and was decoded from the encoding that the `encoding`
    /// field names (detected, not asked for). Pass `--encoding NAME` if that is wrong; edits
    /// write the file back in that encoding.
    EncodingDetected,
    /// `read`: bytes invalid in the file's encoding are shown as U+FFFD. Copying such a line
    /// into `old` will not match those bytes; edits keep them as they are.
    LossyDecoding,
    /// `read`: a notebook could not be rendered as cells and is shown as plain text.
    NotebookAsText,
    /// `read --inline-image`: the image is over the size limit for inline data, so `data` is
    /// left out and nothing was recorded.
    ImageNotInlined,
    /// A file or directory could not be read and was skipped (listed in
    /// `unreadableDirectories`/`unreadableFiles`): results may be missing entries. Check its
    /// permissions.
    UnreadableSkipped,
    /// A directory walk stopped at its limit (`--max-walk` for glob and grep, a fixed bound
    /// for `read DIR`): results are incomplete. Narrow the path or raise the limit.
    WalkLimit,
    /// Something else went wrong during a directory walk (a symbolic link loop, an ignore
    /// file that cannot be parsed): results may be missing entries.
    WalkProblem,
    /// `grep` with several paths: one of them does not exist (also in `missingPaths`; the
    /// exit code is 2). Check the name.
    PathNotFound,
    /// `grep` with no PATH: standard input is an open pipe that sent nothing within the grace
    /// (`QUILL_STDIN_GRACE`) and that a pipeline did not make — a harness's —, so the current
    /// directory was searched instead and stdin left unread. Pass `-` to wait for stdin.
    StdinSilent,
    /// `grep` with no PATH: standard input (a pipe or a file) was empty, so nothing was
    /// searched. Pass `.` to search the current directory.
    StdinEmpty,
}

/// A sink of warnings, filled during a run and drained once at the end.
#[derive(Debug, Default)]
pub struct Warnings(Mutex<Vec<Warning>>);

impl Warnings {
    pub fn push(&self, kind: WarningKind, message: impl Into<String>) {
        self.add(Warning::new(kind, message));
    }

    /// A warning made earlier (one handed up from a layer without the sink).
    pub fn add(&self, warning: Warning) {
        if let Ok(mut w) = self.0.lock() {
            w.push(warning);
        }
    }

    /// Every warning so far, in the order they came; the sink is left empty.
    pub fn take(&self) -> Vec<Warning> {
        self.0
            .lock()
            .map(|mut w| std::mem::take(&mut *w))
            .unwrap_or_default()
    }
}

impl Warning {
    pub fn new(kind: WarningKind, message: impl Into<String>) -> Warning {
        Warning {
            kind,
            message: message.into(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn take_drains_in_order() {
        let w = Warnings::default();
        w.push(WarningKind::HardLinks, "a");
        w.push(WarningKind::WalkLimit, String::from("b"));
        let taken: Vec<(WarningKind, String)> =
            w.take().into_iter().map(|w| (w.kind, w.message)).collect();
        assert_eq!(
            taken,
            [
                (WarningKind::HardLinks, "a".to_string()),
                (WarningKind::WalkLimit, "b".to_string())
            ]
        );
        assert!(w.take().is_empty());
    }

    #[test]
    fn encodes_as_kind_and_message() {
        let w = Warning::new(WarningKind::StateCorrupt, "x");
        assert_eq!(
            serde_json::to_value(&w).unwrap(),
            serde_json::json!({"kind": "state_corrupt", "message": "x"})
        );
    }
}
