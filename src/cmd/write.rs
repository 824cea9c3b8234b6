//! `quill write` (docs/commands/write.md): whole-file replacement or creation from exactly one explicit
//! source — `--content`, `--from FILE` or `--stdin` (`--from -`); none is `usage`, stdin is
//! never read unless asked. Under the mutation lock, the target's directory is opened once
//! (missing parents created beneath `--root`), the new content is streamed into a temporary
//! file in it and hashed on the way; then the target is re-hashed and judged fresh, the content
//! is judged (empty over a non-empty file needs `--allow-empty`; an omission placeholder the
//! file does not have needs `--allow-placeholder`), and the stage is published (replace, or
//! no-replace for a new file) in that same directory. A slow producer holds the lock of this one
//! file while it writes (other writers of it wait up to `--lock-timeout`). `--dry-run` streams
//! into memory only.

use std::io::{self, IsTerminal, Read};

use sha2::{Digest, Sha256};

use std::path::PathBuf;

use crate::cli::WriteArgs;
use crate::error::{Error, Result, shell_quote};
use crate::fs::paths::Resolved;
use crate::fs::probe::{self, parse_sha256};
use crate::guard::publish::Staged;
use crate::guard::{self, Change, DIFF_INPUT_MAX};
use crate::input::Input;
use crate::report::Report;
use crate::settings::Settings;
use crate::signals;
use crate::state::history::{Before, MAX_SESSION_BYTES};
use crate::text::hex;
use crate::text::placeholder;

const CHUNK: usize = 1024 * 1024;

/// A checked `quill write`: where, from what, and under which conditions.
pub(crate) struct WriteRequest {
    resolved: Resolved,
    source: Box<dyn Read>,
    /// Names the source in errors.
    source_name: PathBuf,
    create_only: bool,
    expect_sha256: Option<String>,
    no_parents: bool,
    allow_empty: bool,
    allow_placeholder: bool,
    dry_run: bool,
}

impl WriteArgs {
    /// Check the flags, resolve the path (read-only refused), open the content's source.
    pub(crate) fn resolve(self, s: &Settings) -> Result<WriteRequest> {
        explicit_source(&self)?;
        let expect_sha256 = self
            .expect_sha256
            .as_deref()
            .map(|h| parse_sha256("--expect-sha256", h))
            .transpose()?;
        let resolved = guard::resolve(s, &self.path, "write")?;
        if self.create_only && resolved.exists {
            return Err(Error::CreateConflict {
                path: resolved.target,
            });
        }
        let source = open_source(s, &self)?;
        Ok(WriteRequest {
            resolved,
            source,
            source_name: source_name(&self),
            create_only: self.create_only,
            expect_sha256,
            // `--parents` is the default said out loud (clap refuses it with --no-parents).
            no_parents: self.no_parents && !self.parents,
            allow_empty: self.allow_empty,
            allow_placeholder: self.allow_placeholder,
            dry_run: self.dry_run,
        })
    }
}

pub(crate) fn run(s: &Settings, req: WriteRequest) -> Result<Report> {
    let WriteRequest {
        resolved,
        mut source,
        source_name,
        create_only,
        expect_sha256,
        no_parents,
        allow_empty,
        allow_placeholder,
        dry_run,
    } = req;
    let target = resolved.target.clone();

    // Under the lock from here on: the parent directory is opened once (created if missing),
    // the content streamed into a temporary file in it, then freshness judged and the stage
    // published — every step relative to that directory.
    let locked = guard::lock(s, resolved)?;
    let held = guard::parent(s, &target)?;
    let parent = match (held, dry_run) {
        (held, true) => held,
        (held, false) => Some(guard::parent_to_publish(s, &target, held, no_parents)?),
    };
    let mut staged = match (&parent, dry_run) {
        (Some(p), false) => Some(Staged::new(p)?),
        _ => None,
    };
    let mut hasher = Sha256::new();
    let mut kept: Option<Vec<u8>> = Some(Vec::new());
    let mut total = 0u64;
    let mut buf = vec![0u8; CHUNK];
    loop {
        signals::check()?;
        let n = probe::read_retrying(&mut source, &mut buf)
            .map_err(|e| Error::io("read the new content from", &source_name, e))?;
        if n == 0 {
            break;
        }
        let chunk = &buf[..n];
        hasher.update(chunk);
        total += n as u64;
        if let Some(s) = staged.as_mut() {
            s.write_all(chunk)?;
        }
        if let Some(k) = kept.as_mut() {
            if k.len() + n > DIFF_INPUT_MAX {
                kept = None;
            } else {
                k.extend_from_slice(chunk);
            }
        }
    }
    let sha256 = hex(&hasher.finalize());

    // Freshness, judged after the content arrived (right before publication), then the state.
    let cur = guard::current(parent.as_ref(), MAX_SESSION_BYTES, None)?;
    match &cur {
        Some(_) if create_only => return Err(Error::CreateConflict { path: target }),
        Some(cur) => {
            guard::check_fresh(s, &target, cur, expect_sha256.as_deref())?;
        }
        None => guard::check_missing(s, &target, expect_sha256.as_deref())?,
    }
    if let Some(c) = cur.as_ref().filter(|c| total == 0 && c.meta.len() > 0)
        && !allow_empty
    {
        return Err(Error::invalid_argument_fix(
            format!(
                "refusing to replace {} ({} bytes) with empty content",
                target.display(),
                c.meta.len()
            ),
            format!(
                "to empty it on purpose: `quill write {} --content '' --allow-empty`",
                shell_quote(&target)
            ),
        ));
    }
    if !allow_placeholder && let Some(new) = kept.as_deref() {
        check_placeholder(&target, new, cur.as_ref().and_then(|c| c.bytes.as_deref()))?;
    }
    // The caller gave every byte, so its knowledge of the new content is complete.
    let complete = true;
    let unchanged = cur.as_ref().is_some_and(|c| c.sha256 == sha256);
    let published = match staged {
        Some(staged) if !unchanged => {
            Some(guard::commit(s, staged, cur.as_ref().map(|c| &c.meta))?)
        }
        // Same bytes: nothing to publish, nothing to undo (the stage is dropped).
        _ => None,
    };
    if !dry_run {
        let before = match &cur {
            _ if unchanged => Before::Unchanged,
            None => Before::Missing,
            Some(c) => c.before(),
        };
        let meta = published.as_ref().or(cur.as_ref().map(|c| &c.meta));
        if let Some(meta) = meta {
            guard::record(s, &target, &sha256, complete, before, meta);
        }
    }
    let old = cur.as_ref().and_then(|c| c.bytes.as_deref());
    let report = guard::report(
        s,
        Change {
            op: "write",
            resolved: &locked.resolved,
            created: cur.is_none(),
            deleted: None,
            dry_run,
            old: old.filter(|o| o.len() <= DIFF_INPUT_MAX),
            new: kept.as_deref(),
            bytes: total,
            sha256: Some(sha256),
            previous_sha256: cur.as_ref().map(|c| c.sha256.clone()),
            patch_unavailable: None,
        },
    );
    drop(locked);
    Ok(Report::Mutation(report))
}

/// The content comes from exactly one explicit source (clap refuses two); none, or `-` as the
/// file to write, is `usage` with the calls that work.
fn explicit_source(args: &WriteArgs) -> Result<()> {
    if args.path.as_os_str() == "-" {
        return Err(Error::usage_fix(
            "`-` is not a file to write: write takes stdin only with --stdin, and the file by its name",
            "`CMD | quill write PATH --stdin` (a file named `-` is written as `./-`)",
        ));
    }
    if args.content.is_none() && args.from.is_none() && !args.stdin {
        let p = shell_quote(&args.path);
        return Err(Error::usage_fix(
            "write needs the new content from one of --content TEXT, --from FILE or --stdin (stdin is never read unless asked)",
            format!(
                "`quill write {p} --content TEXT`, `quill write {p} --from FILE`, or `CMD | quill write {p} --stdin`"
            ),
        ));
    }
    Ok(())
}

/// An omission placeholder in the new content that the file does not have: `invalid_argument`.
fn check_placeholder(target: &std::path::Path, new: &[u8], old: Option<&[u8]>) -> Result<()> {
    let new = String::from_utf8_lossy(new);
    if placeholder::introduced(&new, &[]).is_none() {
        return Ok(());
    }
    let old = String::from_utf8_lossy(old.unwrap_or_default());
    let Some(p) = placeholder::introduced(&new, &[&old]) else {
        return Ok(());
    };
    Err(Error::invalid_argument_fix(
        format!(
            "line {} of the new content is an omission placeholder, `{}`, that {} does not have: quill writes text literally, so the lines it stands for would be lost",
            p.line,
            p.text,
            target.display()
        ),
        "write the whole content, with the real lines in place of the placeholder; if the line is meant literally, repeat the call with --allow-placeholder",
    ))
}

fn open_source(s: &Settings, args: &WriteArgs) -> Result<Box<dyn Read>> {
    if let Some(text) = &args.content {
        // The bytes as given, UTF-8 or not (as `--from` takes them): write never re-encodes.
        let bytes = crate::cli::arg_bytes(text).ok_or_else(|| {
            Error::invalid_argument("--content is not Unicode text; give it with --from FILE")
        })?;
        return Ok(Box::new(io::Cursor::new(bytes)));
    }
    if let Some(from) = args.from.as_ref().filter(|f| f.as_os_str() != "-") {
        // `--from FILE` streams, uncapped as before: the content goes to the temporary file,
        // not to memory. It is an input (`input::Input`): a regular file, or a FIFO or pipe
        // the caller named on purpose (`--from <(cmd)`, `--from /dev/stdin`), opened without
        // waiting for its writer and read where Ctrl-C is noticed. A directory is
        // `is_directory`; a device (`/dev/zero` would never end, `/dev/tty` would wait for a
        // person) or a socket is `irregular_file`, refused without being opened.
        return Ok(Box::new(Input::open_in(
            s.root.as_ref(),
            &s.cwd,
            from,
            "open",
        )?));
    }
    if s.origin.stdin.is_none() && io::stdin().is_terminal() {
        return Err(Error::usage_fix(
            "--stdin is a terminal: write reads its content from a pipe or a file, never from typing",
            "`CMD | quill write PATH --stdin`, or --content TEXT, or --from FILE",
        ));
    }
    Ok(Box::new(Input::stdin(&s.origin)))
}

fn source_name(args: &WriteArgs) -> PathBuf {
    match &args.from {
        Some(p) if p.as_os_str() != "-" => p.clone(),
        _ => "<stdin>".into(),
    }
}
