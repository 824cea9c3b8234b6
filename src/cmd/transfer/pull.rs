//! `quill transfer HOST:PATH LOCAL`: the far quill opens and locks its source and says what it
//! is; the near side resolves, locks and checks its destination (create-only, or the version
//! `--replace-sha256` names), then asks for the data and lands it through `receive` — staged,
//! hashed, compared with the far side's end frame, fsync'ed, published without replacing. The
//! progress shown is what was written here. With `--move`, the far source is removed only
//! after the destination here is committed, and only if it is still the version sent.

use std::ffi::OsStr;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Instant;

use super::endpoint::RemotePath;
use super::receive::{self, Incoming, Wire};
use super::remote::{Done, Flags, answer, dial, lost, protocol_error, remote_error};
use super::ssh::{self, Link};
use super::wire::{self, Msg, Op, Request};
use crate::cli::TransferArgs;
use crate::error::{Error, Result};
use crate::fs::paths;
use crate::output::progress::Progress;
use crate::report::{RemoteSide, Report};
use crate::settings::Settings;

/// What the far side says of its source.
struct Meta {
    source: String,
    size: u64,
    mode: u32,
    mtime_ns: Option<i64>,
}

pub(super) fn pull(
    s: &Settings,
    args: &TransferArgs,
    far: &RemotePath,
    local: &Path,
) -> Result<Report> {
    let flags = Flags::of(args)?;
    let started = Instant::now();
    if s.read_only {
        let dst = paths::normalize_lexically(&s.cwd.join(local));
        s.check_writable(&dst, "transfer to")?;
    }
    let mut link = ssh::connect(&dial(s, args, far))?;
    let req = Request {
        op: Op::Pull,
        path: far.path.clone(),
        name: None,
        size: 0,
        mode: None,
        mtime_ns: None,
        move_: flags.move_,
        replace_sha256: None,
        expect_sha256: flags.expect.clone(),
        no_parents: false,
    };
    let mut output = match (send(&mut link, wire::REQUEST, &req), link.output.take()) {
        (true, Some(output)) => output,
        _ => return Err(lost(&mut link, 0)),
    };
    let mut buf = Vec::new();
    let meta = match wire::read_frame(&mut output, &mut buf) {
        Ok(Some(wire::JSON)) => match wire::parse::<Msg>(&buf) {
            Ok(Msg::Meta {
                source,
                size,
                mode,
                mtime_ns,
            }) => Meta {
                source,
                size,
                mode,
                mtime_ns,
            },
            Ok(msg @ Msg::Failed { .. }) => return Err(remote_error(&link, far, msg)),
            _ => return Err(protocol_error(&link, "an unexpected answer")),
        },
        _ => return Err(lost(&mut link, 0)),
    };
    let name = Path::new(&meta.source)
        .file_name()
        .unwrap_or(OsStr::new(""))
        .to_os_string();
    let landing = receive::prepare(
        s,
        local,
        &name,
        flags.replace.as_deref(),
        flags.no_parents,
        flags.move_,
    )?;
    if !send(&mut link, wire::JSON, &Msg::Go) {
        return Err(lost(&mut link, 0));
    }
    let mut progress = Progress::new(
        flags.progress,
        meta.size,
        s.stderr_is_terminal,
        &name.to_string_lossy(),
        s.output.color_stderr,
        s.origin.progress.as_ref(),
    );
    let mut shown = 0u64;
    let mut written = |n: u64| {
        progress.advance(n - shown);
        shown = n;
        Ok(())
    };
    let incoming = Incoming {
        mode: meta.mode,
        mtime_ns: meta.mtime_ns,
        move_: flags.move_,
    };
    let host = link.host.clone();
    let received = landing.receive(
        s,
        &incoming,
        flags.expect.as_deref(),
        Wire {
            input: &mut output,
            written: &mut written,
            failed: &|msg| remote_error(&link, far, msg),
            cut: &|_, n| Error::ConnectionLost {
                message: String::new(),
                host: host.clone(),
                bytes_acknowledged: n,
                ssh_message: String::new(),
            },
        },
    );
    let received = match received {
        Ok(r) => r,
        Err(e) => {
            progress.abandon();
            return Err(match e {
                Error::ConnectionLost {
                    bytes_acknowledged, ..
                } => lost(&mut link, bytes_acknowledged),
                other => other,
            });
        }
    };
    progress.finish();
    let removed = if flags.move_ {
        remove_far(&mut link, far, &mut output, &mut buf)
    } else {
        (false, None)
    };
    let version = link.version.clone();
    link.finish();
    let typed_destination = if s.cwd.join(local).is_dir() {
        local.join(&name)
    } else {
        local.to_path_buf()
    };
    Ok(answer(
        s,
        Done {
            source: PathBuf::from(format!("{}:{}", far.host, meta.source)),
            via_symlink: None,
            typed_source: PathBuf::from(far.display()),
            destination: landing.dst.target.clone(),
            typed_destination,
            bytes: received.bytes,
            sha256: received.sha256,
            replaced: received.replaced,
            removed,
            remote: RemoteSide {
                host: far.host.clone(),
                side: "source",
                version,
            },
            started,
        },
    ))
}

/// Send one JSON frame; false if the connection is gone.
fn send<T: serde::Serialize>(link: &mut Link, tag: u8, msg: &T) -> bool {
    link.input()
        .and_then(|w| wire::write_json(w, tag, msg).and_then(|()| w.flush()))
        .is_ok()
}

/// Ask the far side to remove its source (committed here): its answer, or why it is unknown.
fn remove_far(
    link: &mut Link,
    far: &RemotePath,
    output: &mut impl std::io::Read,
    buf: &mut Vec<u8>,
) -> (bool, Option<String>) {
    let unknown = || {
        Some(format!(
            "the connection ended before {} confirmed the removal: {} may still be there",
            far.host,
            far.display()
        ))
    };
    if !send(link, wire::JSON, &Msg::Remove) {
        return (false, unknown());
    }
    match wire::read_frame(output, buf) {
        Ok(Some(wire::JSON)) => match wire::parse::<Msg>(buf) {
            Ok(Msg::Removed { removed, reason }) => (removed, reason),
            _ => (false, unknown()),
        },
        _ => (false, unknown()),
    }
}
