//! The far side of a transfer across machines: `quill transfer --serve 1 - -`, started by the
//! near quill through ssh, speaks `wire`'s protocol on stdin and stdout and nothing else there
//! (its own failures before the request go to stderr, which ssh carries back). A push lands
//! through `receive` with acknowledgements as the data is written; a pull streams the source
//! with the reader thread of a local copy, checks it did not change, and removes it on request
//! only once the near side has committed, and only if it is still the version sent. Errors
//! are sent back as quill's own error objects; an end of input is a cancellation.

use std::ffi::OsStr;
use std::io::{self, BufReader, BufWriter, Read, Write};
use std::path::Path;
use std::sync::mpsc::sync_channel;

use super::receive::{self, Incoming, Wire};
use super::source::{self, Opened};
use super::stream::{BUF, BUFFERS, Chunk, read_and_hash};
use super::wire::{self, End, Msg, Op, Request};
use crate::error::{Error, Result};
use crate::fs::probe::{self, Identity};
use crate::report::Report;
use crate::settings::Settings;
use crate::signals;

/// Acknowledge at most once per this many bytes (and at the end).
const ACK_EVERY: u64 = 1024 * 1024;

type Out<'a> = BufWriter<io::StdoutLock<'a>>;

/// Serve one transfer on stdin/stdout. Prints nothing as a report.
pub(super) fn run(s: &Settings, protocol: u32) -> Result<Report> {
    if s.origin.embedded {
        return Err(Error::usage(
            "--serve is the far side of a transfer across machines, started through ssh; it is not a tool call",
        ));
    }
    // Small messages are gathered; a data frame, larger than this, leaves in one vectored
    // write straight from its buffer (`wire::write_frame`).
    let mut out = BufWriter::with_capacity(64 * 1024, io::stdout().lock());
    let sent = out
        .write_all(wire::hello(env!("CARGO_PKG_VERSION")).as_bytes())
        .and_then(|()| out.flush());
    if sent.is_err() || protocol != wire::PROTOCOL {
        // The near side reads the hello line and names the versions.
        return Ok(Report::Generated(String::new()));
    }
    // Smaller than a data frame, so a frame's payload is read straight into its buffer.
    let mut input = BufReader::with_capacity(64 * 1024, io::stdin().lock());
    let mut buf = Vec::new();
    let req: Request = match wire::read_frame(&mut input, &mut buf) {
        Ok(Some(wire::REQUEST)) => {
            wire::parse(&buf).map_err(|e| Error::io("read", Path::new("-"), e))?
        }
        _ => return Ok(Report::Generated(String::new())),
    };
    let result = match req.op {
        Op::Push => push(s, &req, &mut input, &mut out),
        Op::Pull => pull(s, &req, &mut input, &mut out),
    };
    if let Err(e) = result {
        // The connection may be gone already (a cancellation): then there is no one to tell.
        let _ = send(&mut out, &failed(&e));
    }
    Ok(Report::Generated(String::new()))
}

/// The error as a message for the near side.
fn failed(e: &Error) -> Msg {
    Msg::Failed {
        error: crate::output::error_object(e),
        exit: e.exit_code(),
    }
}

fn send(out: &mut Out<'_>, msg: &Msg) -> io::Result<()> {
    wire::write_json(out, wire::JSON, msg)?;
    out.flush()
}

/// The far path as typed; an empty one is the home directory the shell started in.
fn far_path(path: &str) -> &Path {
    Path::new(if path.is_empty() { "." } else { path })
}

fn push(s: &Settings, req: &Request, input: &mut impl Read, out: &mut Out<'_>) -> Result<()> {
    let replace = req
        .replace_sha256
        .as_deref()
        .map(|h| probe::parse_sha256("--replace-sha256", h))
        .transpose()?;
    let name = OsStr::new(req.name.as_deref().unwrap_or(""));
    let landing = receive::prepare(
        s,
        far_path(&req.path),
        name,
        replace.as_deref(),
        req.no_parents,
        req.move_,
    )?;
    let lost = |_: io::Error| Error::Interrupted;
    let destination = landing.dst.target.to_string_lossy().into_owned();
    send(out, &Msg::Ready { destination }).map_err(lost)?;
    let incoming = Incoming {
        mode: req.mode.unwrap_or(0o644),
        mtime_ns: req.mtime_ns,
        move_: req.move_,
    };
    let mut acked = 0u64;
    let mut ack = |n: u64| -> Result<()> {
        if n - acked >= ACK_EVERY || n == req.size {
            acked = n;
            wire::write_ack(out, n)
                .and_then(|()| out.flush())
                .map_err(lost)?;
        }
        Ok(())
    };
    let received = landing.receive(
        s,
        &incoming,
        None,
        Wire {
            input,
            written: &mut ack,
            failed: &|_| Error::Interrupted,
            cut: &|_, _| Error::Interrupted,
        },
    )?;
    let committed = Msg::Committed {
        destination: landing.dst.target.to_string_lossy().into_owned(),
        bytes: received.bytes,
        sha256: received.sha256,
        replaced: received.replaced,
    };
    // Published: a lost answer is the near side's `commit_unknown`.
    let _ = send(out, &committed);
    Ok(())
}

fn pull(s: &Settings, req: &Request, input: &mut impl Read, out: &mut Out<'_>) -> Result<()> {
    let expect = req
        .expect_sha256
        .as_deref()
        .map(|h| probe::parse_sha256("--expect-sha256", h))
        .transpose()?;
    let src = source::resolve(s, far_path(&req.path))?;
    let _locks = s.store().lock_mutations(&[&src.target])?;
    let source = Opened::open(s, src)?;
    let lost = |_: io::Error| Error::Interrupted;
    let meta_msg = Msg::Meta {
        source: source.src.target.to_string_lossy().into_owned(),
        size: source.before.size,
        mode: source.mode(),
        mtime_ns: source.mtime_ns(),
    };
    send(out, &meta_msg).map_err(lost)?;
    let mut buf = Vec::new();
    match wire::read_frame(input, &mut buf) {
        Ok(Some(wire::JSON)) if matches!(wire::parse(&buf), Ok(Msg::Go)) => {}
        // The near side refused its destination (or went away): nothing to do.
        _ => return Ok(()),
    }
    send_file(&source, expect.as_deref(), out)?;
    match wire::read_frame(input, &mut buf) {
        Ok(Some(wire::JSON)) if matches!(wire::parse(&buf), Ok(Msg::Remove)) => {
            let (removed, reason) = source.remove_for_move(s, "sent");
            let _ = send(out, &Msg::Removed { removed, reason });
        }
        _ => {}
    }
    Ok(())
}

/// Stream the source as data frames and end frame; a source that changed on the way (or is
/// not `expect`) is an error instead of the end frame, so nothing is published.
fn send_file(src: &Opened, expect: Option<&str>, out: &mut Out<'_>) -> Result<String> {
    let (data_tx, data_rx) = sync_channel::<Chunk>(BUFFERS);
    let (free_tx, free_rx) = sync_channel::<Vec<u8>>(BUFFERS);
    for _ in 0..BUFFERS {
        let _ = free_tx.send(vec![0u8; BUF]);
    }
    let lost = |_: io::Error| Error::Interrupted;
    let (sha256, bytes, after) = std::thread::scope(|scope| {
        scope.spawn(move || read_and_hash(&src.file, &src.src.target, &data_tx, &free_rx));
        // The channels are moved in: when this returns early, dropping them stops the reader.
        frames(data_rx, free_tx, out)
    })?;
    let changed = |reason: &str| Error::SourceChanged {
        path: src.src.target.clone(),
        reason: reason.into(),
    };
    if after != src.before || bytes != src.before.size || src.change()?.is_some() {
        return Err(changed(
            "it was modified while it was sent; nothing was published",
        ));
    }
    if expect.is_some_and(|want| want != sha256) {
        return Err(changed(
            "its SHA-256 is not the one --expect-sha256 names; nothing was published",
        ));
    }
    let end = End {
        bytes,
        sha256: sha256.clone(),
    };
    wire::write_json(out, wire::END, &end)
        .and_then(|()| out.flush())
        .map_err(lost)?;
    Ok(sha256)
}

/// Write the reader's buffers as data frames until the end of the file.
fn frames(
    data: std::sync::mpsc::Receiver<Chunk>,
    free: std::sync::mpsc::SyncSender<Vec<u8>>,
    out: &mut Out<'_>,
) -> Result<(String, u64, Identity)> {
    loop {
        signals::check()?;
        match data.recv() {
            Ok(Chunk::Data(buf, n)) => {
                wire::write_frame(out, wire::DATA, &buf[..n]).map_err(|_| Error::Interrupted)?;
                let _ = free.send(buf);
            }
            Ok(Chunk::End(sha256, bytes, after)) => return Ok((sha256, bytes, after)),
            Ok(Chunk::Failed(e)) => return Err(e),
            Err(_) => return Err(Error::Interrupted),
        }
    }
}
