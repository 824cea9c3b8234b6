//! `Error::hint`: what the caller can do next, one sentence per kind — a dispatcher over the
//! groups of kinds (usage, the guards, edit misses, files and paths, the system), each
//! worded by its own function. Pure: a hint names calls and flags, and quotes paths for the
//! shell (`text::shell`), but looks at nothing on disk.

use std::path::Path;

use super::{Error, UNTRUSTED, UsageDetail};
use crate::edit::miss::MissFix;
use crate::text::shell::shell_quote;

/// Lines of context on each side of the lines a `stale` line-addressed edit names, in the read
/// its hint gives.
const READ_AROUND: usize = 5;

impl Error {
    /// What the caller can do next; `None` where the message says it all.
    pub fn hint(&self) -> Option<String> {
        match self {
            Error::Usage { .. } | Error::InvalidPattern { .. } | Error::InvalidArgument { .. } => {
                usage_hint(self)
            }
            Error::SameFile { .. }
            | Error::NotRead { .. }
            | Error::Stale { .. }
            | Error::CreateConflict { .. }
            | Error::DestinationExists { .. }
            | Error::ReadOnly { .. }
            | Error::NothingToUndo { .. }
            | Error::SourceChanged { .. }
            | Error::AlreadyApplied { .. } => guard_hint(self),
            Error::EditNoMatch { .. }
            | Error::EditAmbiguous { .. }
            | Error::PatchRejected { .. } => edit_hint(self),
            Error::OffsetPastEnd { .. }
            | Error::OutsideRoot { .. }
            | Error::Symlink { .. }
            | Error::IrregularFile { .. }
            | Error::IsDirectory { .. }
            | Error::BinaryFile { .. }
            | Error::FileTooLarge { .. }
            | Error::LineTooLong { .. }
            | Error::Encoding { .. }
            | Error::ChangedDuringRead { .. }
            | Error::NotFound { .. } => file_hint(self),
            Error::PermissionDenied { .. }
            | Error::NoSpace { .. }
            | Error::Io { .. }
            | Error::LockTimeout { .. }
            | Error::StateUnavailable { .. }
            | Error::ConverterMissing { .. }
            | Error::Interrupted => system_hint(self),
            Error::ConnectionFailed { fix, .. }
            | Error::RemoteQuillMissing { fix, .. }
            | Error::RemoteVersion { fix, .. }
            | Error::CommitUnknown { fix, .. } => Some(fix.clone()),
            Error::ConnectionLost { .. } => Some(
                "nothing was published on either side and the source is kept: run the same call again".into(),
            ),
            Error::Remote { far, .. } => far.hint.clone(),
        }
    }
}

/// The hint of a call that could not be taken: the fix quill knows, else the help to run.
fn usage_hint(e: &Error) -> Option<String> {
    Some(match e {
        Error::Usage { detail, .. } if detail.fix.is_some() => {
            detail.fix.clone().unwrap_or_default()
        }
        Error::Usage { detail, .. } => {
            let UsageDetail { usage, tip, .. } = &**detail;
            let help = match usage
                .as_deref()
                .map(command_of_usage)
                .filter(|c| !c.is_empty())
            {
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
        Error::InvalidArgument { fix, .. } => return fix.clone(),
        // Routed here by `Error::hint`: any other kind has no hint of this group.
        _ => return None,
    })
}

/// The hint of a change a guard refused: what to read (or pass) so that it may go through.
fn guard_hint(e: &Error) -> Option<String> {
    Some(match e {
        Error::SameFile { .. } => "choose a different destination".into(),
        Error::NotRead { path, .. } => format!(
            "run `quill read {}` first (or pass --expect-sha256 with the content's hash)",
            shell_quote(path)
        ),
        Error::Stale {
            change: Some(change),
            path,
            ..
        } => change_hint(path, change),
        Error::Stale {
            path,
            deleted,
            reread,
            ..
        } => stale_hint(path, *deleted, *reread),
        Error::CreateConflict { path } => format!(
            "someone created it first; `quill read {}` it, then write or edit it",
            shell_quote(path)
        ),
        Error::DestinationExists { .. } => {
            "pass --replace-sha256 with its current SHA-256 to replace it, or choose another destination".into()
        }
        Error::ReadOnly { .. } => "unset QUILL_READ_ONLY / drop --read-only to allow changes".into(),
        Error::NothingToUndo { .. } => "undo only reverts changes quill made in this session".into(),
        Error::SourceChanged { .. } => "read the source again and retry".into(),
        Error::AlreadyApplied { .. } => {
            "nothing was written: an earlier call made this change; to apply it once more on purpose, repeat the call with --again".into()
        }
        // Routed here by `Error::hint`: any other kind has no hint of this group.
        _ => return None,
    })
}

/// `stale` that shows the change since the version the session knows: send the call again,
/// redo it where the change met it, or read the file whole.
fn change_hint(path: &Path, change: &crate::edit::outside::OutsideChange) -> String {
    let path = shell_quote(path);
    match (&change.overlap, &change.lines_now, change.resend) {
        (Some(o), _, _) => format!(
            "the change meets the lines this call changes (lines {}-{} now): redo the call against the current text shown above (it counts as seen), or `quill read {path} --offset {} --limit {}` first",
            o.start_line,
            o.end_line,
            o.start_line.saturating_sub(READ_AROUND).max(1),
            o.end_line - o.start_line + 1 + 2 * READ_AROUND,
        ),
        (None, Some(l), true) => format!(
            "the change above now counts as seen: send the same call again and its lines move with the change (they are lines {}-{} now), or give the current numbers; --merge lands such edits in one call; `quill read {path}` shows the whole file",
            l.start_line, l.end_line
        ),
        (None, None, true) => format!(
            "the change above now counts as seen: send the same call again to apply it to the current file (old must still match, once); --merge lands such edits in one call; `quill read {path}` shows the whole file"
        ),
        (None, _, false) => match change.refused {
            "strict" => format!(
                "--strict wants a complete read of the current version: `quill read {path}` whole, then redo the change"
            ),
            "lines" => format!(
                "line numbers must come from a read of the current version: `quill read {path}`, then redo the edit with the numbers it shows"
            ),
            "cut" => format!(
                "the change is longer than the diff shown (cut at 200 lines), so it does not count as seen: `quill read {path}`, then redo the change on the current content"
            ),
            "dry_run" => "a dry run records nothing: the same call without --dry-run is answered with this change first, which then counts as seen".to_string(),
            "undo" => format!(
                "undo restores only while the file holds what quill wrote; keep the change above and repair the file with an edit: `quill read {path}`, then `quill edit`"
            ),
            _ => format!(
                "a whole-file change needs the current content: `quill read {path}`, then redo the change with the change above kept"
            ),
        },
    }
}

/// `stale`: create a deleted file anew, re-read around a line-addressed edit, or read again.
fn stale_hint(path: &Path, deleted: bool, reread: Option<(usize, usize)>) -> String {
    if deleted {
        return format!(
            "it was deleted after it was read; to create it anew, `quill state forget {}` first",
            shell_quote(path)
        );
    }
    match reread {
        Some((first, last)) => {
            let offset = first.saturating_sub(READ_AROUND).max(1);
            let limit = last + READ_AROUND + 1 - offset;
            format!(
                "run `quill read {} --offset {offset} --limit {limit}`, then repeat the edit with the line numbers it shows",
                shell_quote(path)
            )
        }
        None => format!(
            "run `quill read {}` again and redo the change on the current content",
            shell_quote(path)
        ),
    }
}

/// The hint of an edit (or a patch) that did not find its one place.
fn edit_hint(e: &Error) -> Option<String> {
    Some(match e {
        Error::EditNoMatch { fix, path, .. } => miss_hint(*fix, path),
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
        // Routed here by `Error::hint`: any other kind has no hint of this group.
        _ => return None,
    })
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

/// The hint of a path or file quill cannot take as named: the path, read or call that works.
fn file_hint(e: &Error) -> Option<String> {
    Some(match e {
        Error::OffsetPastEnd { total_lines, .. } => {
            if *total_lines == 0 {
                "the file is empty; read it without --offset".into()
            } else {
                format!("use an --offset from 1 to {total_lines}")
            }
        }
        Error::OutsideRoot { root, .. } => {
            format!("only paths inside {} may be used", root.display())
        }
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
        } => line_too_long_hint(path, *line, *bytes, *max_line_chars, *cut, *encoding),
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
        Error::ChangedDuringRead { .. } => {
            "another process is writing it; wait and read again".into()
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
        // Routed here by `Error::hint`: any other kind has no hint of this group.
        _ => return None,
    })
}

/// `line_too_long`: the read that shows the line, cut as it was or whole.
fn line_too_long_hint(
    path: &Path,
    line: u64,
    bytes: u64,
    max_line_chars: u64,
    cut: bool,
    encoding: Option<&str>,
) -> String {
    let mut call = format!("quill read {}", stdin_or(path));
    if let Some(name) = encoding {
        call.push_str(&format!(" --encoding {name}"));
    }
    if line > 1 {
        call.push_str(&format!(" --offset {line}"));
    }
    if cut || max_line_chars == 0 {
        call.push_str(&format!(" --max-line-chars {max_line_chars}"));
    }
    call.push_str(&format!(" --max-bytes {bytes}"));
    if cut {
        format!("`{call}` shows it cut to {max_line_chars} characters")
    } else if max_line_chars == 0 {
        format!(
            "`{call}` shows it whole; without --max-line-chars 0 long lines are cut to 2000 characters"
        )
    } else {
        format!("`{call}` shows it whole")
    }
}

/// The hint of a failure of the system or of quill's state: what to free, fix or wait for.
fn system_hint(e: &Error) -> Option<String> {
    Some(match e {
        Error::PermissionDenied { .. } => {
            "check the permissions of the file and its directory".into()
        }
        Error::NoSpace { .. } => "free some disk space and retry; nothing was changed".into(),
        Error::Io { .. } => return None,
        Error::LockTimeout { .. } => {
            "another quill process holds the lock; retry, or raise --lock-timeout".into()
        }
        Error::StateUnavailable { message, .. } if message.contains("newer than this quill") => {
            "a newer quill wrote this state: upgrade quill, or use another --state-dir or --session"
                .into()
        }
        Error::StateUnavailable { message, path } if message.ends_with(UNTRUSTED) => {
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
        // Routed here by `Error::hint`: any other kind has no hint of this group.
        _ => return None,
    })
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
