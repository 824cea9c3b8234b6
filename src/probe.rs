//! The guarded open (SPEC §1.4), in three layers that each stand alone: the metadata gate
//! (`regular_metadata`/`check_regular`: directory → `is_directory`, FIFO, socket or device →
//! `irregular_file`, never opened), the open itself (`open_flagged`: `O_NONBLOCK|O_NOFOLLOW`
//! and, under `--root`, `openat2(RESOLVE_BENEATH|NO_MAGICLINKS)` from the root), and the
//! identity re-check (`verify_opened`: the opened file is a regular file and the very inode
//! that was checked). `open_regular` composes them; grep uses the open layer alone; `open_input`
//! is the same guard for files the caller names as input (links followed). Also the stat
//! identity used to detect a file changing under a read, an EINTR-retrying read, and a
//! streaming SHA-256. No policy about sessions lives here.

use std::fs::{self, File, Metadata};
use std::io::{self, Read};
use std::os::unix::fs::{FileTypeExt, MetadataExt};
use std::path::Path;

use rustix::fs::{Mode, OFlags, ResolveFlags};
use sha2::{Digest, Sha256};

use crate::error::{Error, Result};
use crate::lock::hex;
use crate::paths::{Root, not_found};

/// Buffer size of streaming passes: large enough for full-speed hashing, small enough to keep
/// peak memory far below the 16 MiB goal.
pub const CHUNK: usize = 256 * 1024;

/// What identifies one version of a file without reading it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Identity {
    pub dev: u64,
    pub ino: u64,
    pub size: u64,
    pub mtime_ns: i128,
    pub ctime_ns: i128,
}

impl Identity {
    pub fn of(m: &Metadata) -> Identity {
        Identity {
            dev: m.dev(),
            ino: m.ino(),
            size: m.size(),
            mtime_ns: m.mtime() as i128 * 1_000_000_000 + m.mtime_nsec() as i128,
            ctime_ns: m.ctime() as i128 * 1_000_000_000 + m.ctime_nsec() as i128,
        }
    }
}

/// Layer 1, the metadata gate: metadata of an existing path (links followed), with the
/// contract's errors for anything that is not a regular file.
pub fn regular_metadata(path: &Path) -> Result<Metadata> {
    let meta = fs::metadata(path).map_err(|e| match e.kind() {
        io::ErrorKind::NotFound => not_found(path),
        _ => Error::io("inspect", path, e),
    })?;
    check_regular(path, &meta)?;
    Ok(meta)
}

/// `is_directory` or `irregular_file` unless `meta` is a regular file's.
pub(crate) fn check_regular(path: &Path, meta: &Metadata) -> Result<()> {
    let ft = meta.file_type();
    if ft.is_dir() {
        return Err(Error::IsDirectory {
            path: path.to_path_buf(),
        });
    }
    if !ft.is_file() {
        let file_type = if ft.is_fifo() {
            "FIFO"
        } else if ft.is_socket() {
            "socket"
        } else if ft.is_char_device() {
            "character device"
        } else if ft.is_block_device() {
            "block device"
        } else {
            "special file"
        };
        return Err(Error::IrregularFile {
            path: path.to_path_buf(),
            file_type,
        });
    }
    Ok(())
}

/// Open a regular file for reading, safely: the three layers in order. `path` must be a
/// resolved (canonical) path.
pub fn open_regular(root: Option<&Root>, path: &Path) -> Result<(File, Metadata)> {
    let checked = regular_metadata(path)?;
    open_checked(root, path, &checked)
}

/// Layers 2 and 3: open `path`, which passed the metadata gate as `checked`, and make sure the
/// opened file is still that regular file (a FIFO, device or other file swapped in after the
/// gate is refused without a read).
pub(crate) fn open_checked(
    root: Option<&Root>,
    path: &Path,
    checked: &Metadata,
) -> Result<(File, Metadata)> {
    let file = match root.and_then(|r| path.strip_prefix(&r.dir).ok().map(|rel| (r, rel))) {
        Some((root, rel)) => match open_beneath(root, rel, path)? {
            Some(file) => file,
            // Kernels without openat2 (or seccomp filters that hide it).
            None => open_flagged(path, false).map_err(|e| open_error(path, e))?,
        },
        None => open_flagged(path, false).map_err(|e| open_error(path, e))?,
    };
    let opened = file.metadata().map_err(|e| Error::io("inspect", path, e))?;
    verify_opened(path, checked, &opened)?;
    Ok((file, opened))
}

/// Layer 3, the identity re-check: the opened file (`opened`, from its descriptor) is a regular
/// file and the inode that passed the gate (`checked`), else `changed_during_read`.
pub(crate) fn verify_opened(path: &Path, checked: &Metadata, opened: &Metadata) -> Result<()> {
    check_regular(path, opened)?;
    if opened.dev() != checked.dev() || opened.ino() != checked.ino() {
        return Err(Error::ChangedDuringRead {
            path: path.to_path_buf(),
        });
    }
    Ok(())
}

/// The flags of every guarded open: read-only, never blocking (a FIFO or device swapped in
/// after the walk or the gate), never becoming the controlling terminal, closed on exec and,
/// unless `follow`, failing on a final symbolic link (`ELOOP`).
pub(crate) fn open_flags(follow: bool) -> OFlags {
    let mut flags = OFlags::RDONLY
        .union(OFlags::NONBLOCK)
        .union(OFlags::CLOEXEC)
        .union(OFlags::NOCTTY);
    if !follow {
        flags.insert(OFlags::NOFOLLOW);
    }
    flags
}

/// Layer 2 alone: open `path` with `open_flags(follow)` — no gate before, no check after.
/// grep opens the files of its walk with this (the walker has typed each entry already, and
/// a stat more per file would cost it measurably).
pub fn open_flagged(path: &Path, follow: bool) -> io::Result<File> {
    rustix::fs::open(path, open_flags(follow), Mode::empty())
        .map(File::from)
        .map_err(io::Error::from)
}

/// How `openat2` resolves a path under `--root`: never above the root (`..`, absolute links,
/// links that climb out all fail with `EXDEV`) and never through `/proc` magic links.
pub(crate) fn resolve_flags() -> ResolveFlags {
    ResolveFlags::BENEATH.union(ResolveFlags::NO_MAGICLINKS)
}

/// Layer 2 under a root: `openat2` of `rel` from the root directory. `None` when the kernel
/// has no `openat2` (the caller then opens by path, the resolution having been checked).
pub(crate) fn open_beneath(root: &Root, rel: &Path, path: &Path) -> Result<Option<File>> {
    let dir = File::open(&root.dir).map_err(|e| Error::io("open", &root.dir, e))?;
    let rel = if rel.as_os_str().is_empty() {
        Path::new(".")
    } else {
        rel
    };
    match rustix::fs::openat2(&dir, rel, open_flags(false), Mode::empty(), resolve_flags()) {
        Ok(fd) => Ok(Some(File::from(fd))),
        Err(rustix::io::Errno::XDEV) => Err(Error::OutsideRoot {
            requested: path.to_path_buf(),
            target: path.to_path_buf(),
            root: root.dir.clone(),
        }),
        Err(rustix::io::Errno::NOSYS) | Err(rustix::io::Errno::PERM) => Ok(None),
        Err(e) => Err(open_error(path, io::Error::from(e))),
    }
}

fn open_error(path: &Path, e: io::Error) -> Error {
    // ELOOP with O_NOFOLLOW: the final component became a link after resolution.
    if e.raw_os_error() == Some(libc::ELOOP) {
        return Error::ChangedDuringRead {
            path: path.to_path_buf(),
        };
    }
    match e.kind() {
        io::ErrorKind::NotFound => not_found(path),
        _ => Error::io("open", path, e),
    }
}

/// Open a file the caller names as input (`--old-file`, `--edits FILE`, `write --from`):
/// the same three layers, following links (the caller chose the name, it is not a target).
/// With `allow_fifo`, a FIFO or pipe the caller named (`--from <(cmd)`, `/dev/stdin`) is opened
/// too — blocking, as a reader of a pipe must, so its writer's data is not mistaken for an
/// empty file. Devices, sockets and directories are refused without being opened.
/// `op` names the operation in an error ("read the edits from").
pub(crate) fn open_input(path: &Path, op: &'static str, allow_fifo: bool) -> Result<File> {
    let checked = fs::metadata(path).map_err(|e| match e.kind() {
        io::ErrorKind::NotFound => not_found(path),
        _ => Error::io("inspect", path, e),
    })?;
    if allow_fifo && checked.file_type().is_fifo() {
        let file = File::open(path).map_err(|e| Error::io(op, path, e))?;
        let opened = file.metadata().map_err(|e| Error::io("inspect", path, e))?;
        if !opened.file_type().is_fifo()
            || opened.dev() != checked.dev()
            || opened.ino() != checked.ino()
        {
            return Err(Error::ChangedDuringRead {
                path: path.to_path_buf(),
            });
        }
        return Ok(file);
    }
    check_regular(path, &checked)?;
    let file = open_flagged(path, true).map_err(|e| Error::io(op, path, e))?;
    let opened = file.metadata().map_err(|e| Error::io("inspect", path, e))?;
    verify_opened(path, &checked, &opened)?;
    Ok(file)
}

/// One `read`, retried while it is interrupted (`EINTR`) — unless the interruption is a
/// Ctrl-C or SIGTERM quill caught (`signals`): then the `Interrupted` error is returned, which
/// `Error::io` turns into `interrupted`. (`signals::InterruptibleReader` reports a caught
/// signal exactly so; retrying it would wait forever on a silent pipe.)
pub(crate) fn read_retrying(reader: &mut impl Read, buf: &mut [u8]) -> io::Result<usize> {
    loop {
        match reader.read(buf) {
            Err(e) if e.kind() == io::ErrorKind::Interrupted && !crate::signals::interrupted() => {}
            other => return other,
        }
    }
}

/// SHA-256 of everything `reader` yields, in `CHUNK` pieces; returns (hex, bytes).
pub fn sha256_stream(reader: &mut impl Read, path: &Path) -> Result<(String, u64)> {
    let mut hasher = Sha256::new();
    let mut buf = vec![0u8; CHUNK];
    let mut total = 0u64;
    loop {
        let n = read_retrying(reader, &mut buf).map_err(|e| Error::io("read", path, e))?;
        if n == 0 {
            break;
        }
        hasher.update(&buf[..n]);
        total += n as u64;
    }
    Ok((hex(&hasher.finalize()), total))
}

/// SHA-256 of a byte slice, as hex.
pub fn sha256_bytes(bytes: &[u8]) -> String {
    hex(&Sha256::digest(bytes))
}

/// Check that `hex` looks like a SHA-256 (64 hex digits); returns it lower-cased.
pub fn parse_sha256(flag: &str, value: &str) -> Result<String> {
    if value.len() == 64 && value.bytes().all(|b| b.is_ascii_hexdigit()) {
        Ok(value.to_ascii_lowercase())
    } else {
        Err(Error::invalid_argument(format!(
            "{flag} takes a SHA-256 as 64 hex digits, not {value:?}"
        )))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sha256_of_abc() {
        assert_eq!(
            sha256_bytes(b"abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
        let (h, n) = sha256_stream(&mut &b"abc"[..], Path::new("x")).unwrap();
        assert_eq!((h.as_str(), n), (sha256_bytes(b"abc").as_str(), 3));
    }

    #[test]
    fn sha256_flag_validation() {
        assert!(parse_sha256("--x", &"A".repeat(64)).is_ok());
        assert!(parse_sha256("--x", "abc").is_err());
    }
}
