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

use std::path::{Path, PathBuf};

use crate::cli::WriteArgs;
use crate::error::{Error, Result};
use crate::fs::paths::Resolved;
use crate::fs::probe::{self, parse_sha256};
use crate::guard::publish::Staged;
use crate::guard::{self, DIFF_INPUT_MAX, Mutation, Record, Rule, Shown};
use crate::input::Input;
use crate::report::Report;
use crate::settings::Settings;
use crate::signals;
use crate::state::history::MAX_SESSION_BYTES;
use crate::text::hex;
use crate::text::placeholder;
use crate::text::shell::shell_quote;

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
    let mut m = Mutation::begin(s, resolved, "write", dry_run)?;
    m.make_parents(no_parents)?;
    let mut staged = m.stage()?;
    let (sha256, total, kept) = stream(&mut source, &source_name, staged.as_mut())?;

    // Freshness, judged after the content arrived (right before publication), then the state.
    let cur = m.load(MAX_SESSION_BYTES, None)?;
    if create_only && cur.is_some() {
        return Err(Error::CreateConflict { path: target });
    }
    let expect = expect_sha256.as_deref();
    m.judge(cur.as_ref(), Rule::whole(expect))?;
    if let Some(c) = cur.as_ref().filter(|c| total == 0 && c.meta.len() > 0)
        && !allow_empty
    {
        return Err(refuse_empty(&target, c.meta.len()));
    }
    if !allow_placeholder && let Some(new) = kept.as_deref() {
        check_placeholder(&target, new, cur.as_ref().and_then(|c| c.bytes.as_deref()))?;
    }
    // The caller gave every byte, so its knowledge of the new content is complete.
    let record = Record::Change {
        complete: true,
        edit: None,
    };
    m.land(cur.as_ref(), staged, &sha256, record)?;
    if let Some(new) = kept.as_deref() {
        m.keep(&sha256, new);
    }
    let shown = Shown {
        new: kept.as_deref(),
        bytes: total,
        sha256: Some(sha256),
        ..Shown::default()
    };
    Ok(Report::Mutation(m.report(cur.as_ref(), shown)))
}

/// Stream `source` into `staged` (None: a dry run) and hash it on the way: its SHA-256, its
/// size, and the content itself while it is small enough to diff.
fn stream(
    source: &mut impl Read,
    source_name: &Path,
    mut staged: Option<&mut Staged>,
) -> Result<(String, u64, Option<Vec<u8>>)> {
    let mut hasher = Sha256::new();
    let mut kept: Option<Vec<u8>> = Some(Vec::new());
    let mut total = 0u64;
    let mut buf = vec![0u8; CHUNK];
    loop {
        signals::check()?;
        let n = probe::read_retrying(source, &mut buf)
            .map_err(|e| Error::io("read the new content from", source_name, e))?;
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
    Ok((hex(&hasher.finalize()), total, kept))
}

/// Empty content over a non-empty file is refused unless `--allow-empty` says it is meant.
fn refuse_empty(target: &Path, size: u64) -> Error {
    Error::invalid_argument_fix(
        format!(
            "refusing to replace {} ({size} bytes) with empty content",
            target.display()
        ),
        format!(
            "to empty it on purpose: `quill write {} --content '' --allow-empty`",
            shell_quote(target)
        ),
    )
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
        let bytes = crate::sys::arg_bytes(text).ok_or_else(|| {
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
