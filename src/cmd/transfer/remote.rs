//! The near side of a transfer across machines (docs/transfer.md, "Across machines"). A push
//! locks and opens the local source, asks the far quill to lock and check its destination,
//! then streams the file in one go while a reader thread takes the far side's
//! acknowledgements (the progress shown is what the far side has written); the end frame, sent
//! only if the source did not change and matches `--expect-sha256`, is what lets the far side
//! commit. The source of a move is removed only after the far side answered that the
//! destination is published: a connection lost before that answer is `commit_unknown`, never
//! retried and never followed by a removal. A pull is the mirror image, the near side landing
//! the data through `receive` and asking the far side to remove its source once committed.

use std::ffi::OsStr;
use std::io::{self, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::ChildStdout;
use std::sync::mpsc::{Receiver, TryRecvError, channel, sync_channel};
use std::time::Instant;

use super::endpoint::RemotePath;
use super::source::{self, Opened};
use super::ssh::{self, Dial, Link};
use super::stream::{BUF, BUFFERS, Chunk, read_and_hash};
use super::wire::{self, End, Msg, Op, Request};
use crate::cli::{ProgressMode, TransferArgs};
use crate::error::{Error, Result};
use crate::fs::paths;
use crate::fs::probe::{self, Identity};
use crate::output::progress::Progress;
use crate::report::{AsTyped, FileAccess, RemoteSide, Report, TransferReport, TypedRoot};
use crate::settings::Settings;
use crate::signals;
use crate::warnings::WarningKind;

/// The checked flags of a transfer across machines.
pub(super) struct Flags {
    pub move_: bool,
    pub replace: Option<String>,
    pub expect: Option<String>,
    pub no_parents: bool,
    pub progress: ProgressMode,
}

impl Flags {
    pub(super) fn of(args: &TransferArgs) -> Result<Flags> {
        let hash = |flag: &str, h: &Option<String>| {
            h.as_deref()
                .map(|h| probe::parse_sha256(flag, h))
                .transpose()
        };
        Ok(Flags {
            move_: args.move_,
            replace: hash("--replace-sha256", &args.replace_sha256)?,
            expect: hash("--expect-sha256", &args.expect_sha256)?,
            no_parents: args.no_parents && !args.parents,
            progress: args.progress,
        })
    }
}

pub(super) fn dial<'a>(s: &'a Settings, args: &'a TransferArgs, far: &'a RemotePath) -> Dial<'a> {
    Dial {
        rsh: &args.rsh,
        remote_quill: &args.remote_quill,
        host: &far.host,
        session: &s.session,
    }
}

/// The far side's error, passed on under its own kind.
pub(super) fn remote_error(link: &Link, far: &RemotePath, msg: Msg) -> Error {
    let Msg::Failed { error, exit } = msg else {
        return protocol_error(link, "an unexpected message");
    };
    let mut body = match error {
        serde_json::Value::Object(map) => map,
        _ => serde_json::Map::new(),
    };
    let text = |v: Option<serde_json::Value>| v.and_then(|v| v.as_str().map(str::to_string));
    let message = text(body.remove("message")).unwrap_or_default();
    let mut hint = text(body.remove("hint"));
    let kind = text(body.get("kind").cloned()).unwrap_or_else(|| "io".into());
    if kind == "destination_exists" {
        let path = body
            .get("path")
            .and_then(|p| p.as_str())
            .unwrap_or(&far.path);
        hint = Some(format!(
            "{}:{path} is there already and transfer never overwrites it unless --replace-sha256 names its SHA-256 (`{}` prints it); or choose another destination",
            far.host,
            check_command(link, far, &body)
        ));
    }
    Error::Remote {
        kind: Box::leak(kind.into_boxed_str()),
        exit,
        host: link.host.clone(),
        far: Box::new(crate::error::FarError {
            message,
            hint,
            body,
        }),
    }
}

/// `RSH HOST sha256sum -- PATH`: the command that prints the far file's SHA-256.
fn check_command(
    link: &Link,
    far: &RemotePath,
    body: &serde_json::Map<String, serde_json::Value>,
) -> String {
    let path = body
        .get("path")
        .and_then(|p| p.as_str())
        .unwrap_or(&far.path);
    let remote = format!("sha256sum -- {}", ssh::shell_words(&[path.to_string()]));
    format!(
        "{} {} {}",
        ssh::shell_words(&link.rsh),
        ssh::shell_words(std::slice::from_ref(&link.host)),
        ssh::shell_words(&[remote])
    )
}

pub(super) fn protocol_error(link: &Link, what: &str) -> Error {
    Error::io(
        "talk to",
        Path::new(&link.host),
        io::Error::new(
            io::ErrorKind::InvalidData,
            format!("{what} from the far quill"),
        ),
    )
}

/// The connection ended (or failed) before the end frame went out: nothing was published.
pub(super) fn lost(link: &mut Link, acked: u64) -> Error {
    link.kill();
    link.wait();
    Error::ConnectionLost {
        message: format!(
            "the connection to {} was lost after {acked} bytes were written there: nothing was published",
            link.host
        ),
        host: link.host.clone(),
        bytes_acknowledged: acked,
        ssh_message: link.said(),
    }
}

/// What the far side said, as the reader thread passes it on.
enum Heard {
    Ack(u64),
    Said(Msg),
    /// The connection ended (or the stream broke).
    Gone,
}

/// Read the far side's frames on a thread until they end.
fn listen(mut output: BufReader<ChildStdout>) -> Receiver<Heard> {
    let (tx, rx) = channel();
    std::thread::spawn(move || {
        let mut buf = Vec::new();
        loop {
            let heard = match wire::read_frame(&mut output, &mut buf) {
                Ok(Some(wire::ACK)) => wire::ack_value(&buf).map_or(Heard::Gone, Heard::Ack),
                Ok(Some(wire::JSON)) => wire::parse(&buf).map_or(Heard::Gone, Heard::Said),
                _ => Heard::Gone,
            };
            let gone = matches!(heard, Heard::Gone);
            if tx.send(heard).is_err() || gone {
                return;
            }
        }
    });
    rx
}

/// The first message after the request: the far side is ready, or says why not.
fn first_answer(link: &mut Link, far: &RemotePath, heard: &Receiver<Heard>) -> Result<Msg> {
    loop {
        if let Err(e) = signals::check() {
            link.kill();
            return Err(e);
        }
        match heard.recv_timeout(std::time::Duration::from_millis(100)) {
            Ok(Heard::Said(msg @ Msg::Failed { .. })) => return Err(remote_error(link, far, msg)),
            Ok(Heard::Said(msg)) => return Ok(msg),
            Ok(Heard::Ack(_)) => return Err(protocol_error(link, "an early acknowledgement")),
            Ok(Heard::Gone) | Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => {
                return Err(lost(link, 0));
            }
            Err(std::sync::mpsc::RecvTimeoutError::Timeout) => {}
        }
    }
}

impl Opened {
    fn source_changed(&self, reason: &str) -> Error {
        Error::SourceChanged {
            path: self.src.target.clone(),
            reason: reason.into(),
        }
    }
}

/// `quill transfer LOCAL HOST:PATH`.
pub(super) fn push(
    s: &Settings,
    args: &TransferArgs,
    local: &Path,
    far: &RemotePath,
) -> Result<Report> {
    let flags = Flags::of(args)?;
    let started = Instant::now();
    if s.read_only && flags.move_ {
        s.check_writable(&paths::normalize_lexically(&s.cwd.join(local)), "move")?;
    }
    let src = source::resolve(s, local)?;
    let _locks = s.store().lock_mutations(&[&src.target])?;
    let src = Opened::open(s, src)?;
    let mut link = ssh::connect(&dial(s, args, far))?;
    let name = src
        .src
        .requested
        .file_name()
        .or_else(|| src.src.target.file_name());
    let req = Request {
        op: Op::Push,
        path: far.path.clone(),
        name: name.map(|n| n.to_string_lossy().into_owned()),
        size: src.before.size,
        mode: Some(src.mode()),
        mtime_ns: src.mtime_ns().filter(|_| flags.move_),
        move_: flags.move_,
        replace_sha256: flags.replace.clone(),
        expect_sha256: None,
        no_parents: flags.no_parents,
    };
    let heard = {
        let sent = link
            .input()
            .and_then(|w| wire::write_json(w, wire::REQUEST, &req).and_then(|()| w.flush()));
        let output = link.output.take();
        if sent.is_err() || output.is_none() {
            return Err(lost(&mut link, 0));
        }
        listen(output.unwrap_or_else(|| unreachable!()))
    };
    let destination = match first_answer(&mut link, far, &heard)? {
        Msg::Ready { destination } => destination,
        _ => return Err(protocol_error(&link, "an unexpected answer")),
    };
    let label = name
        .unwrap_or(OsStr::new(""))
        .to_string_lossy()
        .into_owned();
    let mut progress = Progress::new(
        flags.progress,
        src.before.size,
        s.stderr_is_terminal,
        &label,
        s.output.color_stderr,
        s.origin.progress.as_ref(),
    );
    let sent = send(&src, &flags, far, &mut link, &heard, &mut progress);
    let (sha256, bytes, mut acked) = match sent {
        Ok(done) => done,
        Err(e) => {
            progress.abandon();
            return Err(e);
        }
    };
    // The end frame is out: from here on a lost connection is `commit_unknown`.
    let committed = loop {
        let now = match signals::check() {
            Ok(()) => match heard.recv_timeout(std::time::Duration::from_millis(100)) {
                Err(std::sync::mpsc::RecvTimeoutError::Timeout) => continue,
                now => now.ok(),
            },
            Err(_) => None,
        };
        match now {
            Some(Heard::Ack(n)) => {
                progress.advance(n.saturating_sub(acked));
                acked = acked.max(n);
            }
            Some(Heard::Said(Msg::Committed {
                destination,
                bytes,
                sha256,
                replaced,
            })) => break (destination, bytes, sha256, replaced),
            Some(Heard::Said(msg @ Msg::Failed { .. })) => {
                progress.abandon();
                return Err(remote_error(&link, far, msg));
            }
            // The connection ended, or Ctrl-C came too late to cancel (the far side may be
            // committing): either way nobody knows, and the source is kept.
            _ => {
                progress.abandon();
                let sent = Sent {
                    local,
                    destination: &destination,
                    sha256: &sha256,
                    bytes,
                };
                let e = commit_unknown(&mut link, far, args, &sent);
                return Err(e);
            }
        }
    };
    progress.advance(committed.1.saturating_sub(acked));
    progress.finish();
    let version = link.version.clone();
    link.finish();
    let removed = if flags.move_ {
        src.remove_for_move(s, "sent")
    } else {
        (false, None)
    };
    let far_dest = PathBuf::from(format!("{}:{}", far.host, committed.0));
    Ok(answer(
        s,
        Done {
            source: src.src.target.clone(),
            via_symlink: src.src.via_symlink.clone(),
            typed_source: local.to_path_buf(),
            destination: far_dest.clone(),
            typed_destination: far_dest,
            bytes: committed.1,
            sha256: committed.2,
            replaced: committed.3,
            removed,
            remote: RemoteSide {
                host: far.host.clone(),
                side: "destination",
                version,
            },
            started,
        },
    ))
}

/// Why streaming stopped early.
enum Stop {
    /// Here: Ctrl-C, a read error.
    Failed(Box<Error>),
    /// There: the far side said something (its failure) or the connection broke.
    Broken(Option<Box<Msg>>),
}

/// Stream the source to the far side, taking acknowledgements as they come; then the end frame
/// — only if the source is unchanged and is what `--expect-sha256` names. Returns (sha256,
/// bytes, bytes acknowledged so far).
fn send(
    src: &Opened,
    flags: &Flags,
    far: &RemotePath,
    link: &mut Link,
    heard: &Receiver<Heard>,
    progress: &mut Progress,
) -> Result<(String, u64, u64)> {
    let (data_tx, data_rx) = sync_channel::<Chunk>(BUFFERS);
    let (free_tx, free_rx) = sync_channel::<Vec<u8>>(BUFFERS);
    for _ in 0..BUFFERS {
        let _ = free_tx.send(vec![0u8; BUF]);
    }
    let mut acked = 0u64;
    let streamed = std::thread::scope(|scope| {
        scope.spawn(move || read_and_hash(&src.file, &src.src.target, &data_tx, &free_rx));
        pump(data_rx, free_tx, link, heard, progress, &mut acked)
    });
    let (sha256, bytes, after) = match streamed {
        Ok(done) => done,
        Err(Stop::Failed(e)) => {
            link.kill();
            return Err(*e);
        }
        Err(Stop::Broken(said)) => return Err(broken(link, far, heard, said.map(|m| *m), acked)),
    };
    let why = if after != src.before || bytes != src.before.size {
        Some("it was modified while it was sent")
    } else {
        src.change()?
    };
    if let Some(why) = why {
        link.kill();
        return Err(src.source_changed(&format!("{why}; nothing was published")));
    }
    if flags.expect.as_deref().is_some_and(|want| want != sha256) {
        link.kill();
        return Err(src.source_changed(
            "its SHA-256 is not the one --expect-sha256 names; nothing was published",
        ));
    }
    let end = End {
        bytes,
        sha256: sha256.clone(),
    };
    let sent = link
        .input()
        .and_then(|w| wire::write_json(w, wire::END, &end).and_then(|()| w.flush()));
    if sent.is_err() {
        return Err(broken(link, far, heard, None, acked));
    }
    Ok((sha256, bytes, acked))
}

/// The writing half of `send`: data frames out, acknowledgements in.
fn pump(
    data: Receiver<Chunk>,
    free: std::sync::mpsc::SyncSender<Vec<u8>>,
    link: &mut Link,
    heard: &Receiver<Heard>,
    progress: &mut Progress,
    acked: &mut u64,
) -> std::result::Result<(String, u64, Identity), Stop> {
    loop {
        signals::check().map_err(|e| Stop::Failed(Box::new(e)))?;
        loop {
            match heard.try_recv() {
                Ok(Heard::Ack(n)) => {
                    progress.advance(n.saturating_sub(*acked));
                    *acked = (*acked).max(n);
                }
                Ok(Heard::Said(msg)) => return Err(Stop::Broken(Some(Box::new(msg)))),
                Ok(Heard::Gone) | Err(TryRecvError::Disconnected) => {
                    return Err(Stop::Broken(None));
                }
                Err(TryRecvError::Empty) => break,
            }
        }
        match data.recv() {
            Ok(Chunk::Data(buf, n)) => {
                let wrote = link
                    .input()
                    .and_then(|w| wire::write_frame(w, wire::DATA, &buf[..n]));
                let _ = free.send(buf);
                if wrote.is_err() {
                    return Err(Stop::Broken(None));
                }
            }
            Ok(Chunk::End(sha256, bytes, after)) => {
                let flushed = link.input().and_then(|w| w.flush());
                return match flushed {
                    Ok(()) => Ok((sha256, bytes, after)),
                    Err(_) => Err(Stop::Broken(None)),
                };
            }
            Ok(Chunk::Failed(e)) => return Err(Stop::Failed(Box::new(e))),
            Err(_) => {
                let e = io::Error::other("the reader stopped unexpectedly");
                let e = Error::io("read", Path::new("source"), e);
                return Err(Stop::Failed(Box::new(e)));
            }
        }
    }
}

/// The stream broke before the end frame: the far side's failure if it said one (it may still
/// be on its way), else `connection_lost`. Nothing was published.
fn broken(
    link: &mut Link,
    far: &RemotePath,
    heard: &Receiver<Heard>,
    said: Option<Msg>,
    acked: u64,
) -> Error {
    let mut said = said;
    let deadline = Instant::now() + std::time::Duration::from_secs(5);
    while said.is_none() && Instant::now() < deadline {
        match heard.recv_timeout(std::time::Duration::from_millis(100)) {
            Ok(Heard::Said(msg)) => said = Some(msg),
            Ok(Heard::Ack(_)) => {}
            Ok(Heard::Gone) | Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => break,
            Err(std::sync::mpsc::RecvTimeoutError::Timeout) => {
                if signals::check().is_err() {
                    break;
                }
            }
        }
    }
    match said {
        Some(msg @ Msg::Failed { .. }) => {
            let e = remote_error(link, far, msg);
            link.kill();
            e
        }
        _ => lost(link, acked),
    }
}

/// The end frame went out but no answer came back: the far side may or may not have published.
/// What a push sent, for `commit_unknown`.
struct Sent<'a> {
    local: &'a Path,
    destination: &'a str,
    sha256: &'a str,
    bytes: u64,
}

fn commit_unknown(
    link: &mut Link,
    far: &RemotePath,
    args: &TransferArgs,
    sent: &Sent<'_>,
) -> Error {
    let Sent {
        local,
        destination,
        sha256,
        bytes,
    } = *sent;
    link.kill();
    link.wait();
    let mut body = serde_json::Map::new();
    body.insert("path".into(), destination.into());
    let check = check_command(link, far, &body);
    // The same connection as this call's: its --rsh and --remote-quill when not the defaults.
    let mut retry = format!(
        "quill transfer {} {} --replace-sha256 {sha256}",
        crate::text::shell::shell_quote(local),
        ssh::shell_words(&[format!("{}:{destination}", far.host)])
    );
    for (flag, value, default) in [
        ("--rsh", &args.rsh, "ssh"),
        ("--remote-quill", &args.remote_quill, "quill"),
    ] {
        if value != default {
            retry.push_str(&format!(
                " {flag} {}",
                ssh::shell_words(std::slice::from_ref(value))
            ));
        }
    }
    Error::CommitUnknown {
        message: format!(
            "the connection to {} was lost after all {bytes} bytes were sent, before it confirmed the commit: {destination} there may or may not hold the file; the source was kept",
            link.host
        ),
        fix: format!(
            "do not repeat the call blindly: `{check}` prints {sha256} when the file was published (the transfer is then complete; a --move's source was kept); if it does not, `{retry}` finishes it safely (it creates the file, or replaces only that very version)"
        ),
        detail: Box::new(crate::error::CommitDetail {
            host: link.host.clone(),
            destination: format!("{}:{destination}", far.host),
            sha256: sha256.to_string(),
            bytes,
            check,
        }),
    }
}

/// What a transfer across machines did, for its answer.
pub(super) struct Done {
    pub source: PathBuf,
    pub via_symlink: Option<PathBuf>,
    pub typed_source: PathBuf,
    /// `host:/path` when it is the far one.
    pub destination: PathBuf,
    pub typed_destination: PathBuf,
    pub bytes: u64,
    pub sha256: String,
    pub replaced: bool,
    /// A move: whether the source was removed, and if not, why.
    pub removed: (bool, Option<String>),
    pub remote: RemoteSide,
    pub started: Instant,
}

/// The answer of a transfer across machines (a kept source of a move is also a warning).
pub(super) fn answer(s: &Settings, done: Done) -> Report {
    let (source_removed, kept_reason) = done.removed;
    if let Some(reason) = &kept_reason {
        s.warn(
            WarningKind::SourceKept,
            format!("the destination is complete, but the source was kept: {reason}"),
        );
    }
    let typed = AsTyped {
        roots: vec![
            TypedRoot {
                resolved: done.source.clone(),
                typed: done.typed_source,
            },
            TypedRoot {
                resolved: done.destination.clone(),
                typed: done.typed_destination,
            },
        ],
    };
    Report::Transfer(TransferReport {
        source: done.source,
        via_symlink: done.via_symlink,
        file_access: FileAccess::write(&done.destination),
        destination: done.destination,
        bytes: done.bytes,
        sha256: Some(done.sha256),
        method: "copy",
        replaced: done.replaced,
        source_removed,
        source_kept_reason: kept_reason,
        remote: Some(done.remote),
        elapsed: done.started.elapsed(),
        typed,
    })
}
