//! The guarded open (SPEC §1.4): check metadata first (directory → `is_directory`, FIFO,
//! socket or device → `irregular_file`, never opened), open with `O_NONBLOCK|O_NOFOLLOW` (and,
//! under `--root`, `openat2(RESOLVE_BENEATH)` from the root), then check that the opened file is
//! the one that was checked. Also the stat identity used to detect a file changing under a
//! read, and a streaming SHA-256. No policy about sessions lives here.

use std::fs::{self, File, Metadata};
use std::io::{self, Read};
use std::os::unix::fs::{FileTypeExt, MetadataExt, OpenOptionsExt};
use std::path::Path;

use rustix::fs::{Mode, OFlags, ResolveFlags};
use sha2::{Digest, Sha256};

use crate::error::{Error, Result};
use crate::lock::hex;
use crate::paths::{Root, similar_names};

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

/// Metadata of an existing path (links followed), with the contract's errors for anything that
/// is not a regular file.
pub fn regular_metadata(path: &Path) -> Result<Metadata> {
    let meta = fs::metadata(path).map_err(|e| match e.kind() {
        io::ErrorKind::NotFound => Error::NotFound {
            path: path.to_path_buf(),
            similar: similar_names(path),
        },
        _ => Error::io("inspect", path, e),
    })?;
    check_regular(path, &meta)?;
    Ok(meta)
}

fn check_regular(path: &Path, meta: &Metadata) -> Result<()> {
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

/// Open a regular file for reading, safely. `path` must be a resolved (canonical) path.
pub fn open_regular(root: Option<&Root>, path: &Path) -> Result<(File, Metadata)> {
    let checked = regular_metadata(path)?;
    let file = open_nofollow(root, path)?;
    let opened = file.metadata().map_err(|e| Error::io("inspect", path, e))?;
    check_regular(path, &opened)?;
    if opened.dev() != checked.dev() || opened.ino() != checked.ino() {
        return Err(Error::ChangedDuringRead {
            path: path.to_path_buf(),
        });
    }
    Ok((file, opened))
}

fn open_nofollow(root: Option<&Root>, path: &Path) -> Result<File> {
    let flags =
        OFlags::RDONLY | OFlags::NONBLOCK | OFlags::NOFOLLOW | OFlags::CLOEXEC | OFlags::NOCTTY;
    if let Some((root, rel)) = root.and_then(|r| path.strip_prefix(&r.dir).ok().map(|rel| (r, rel)))
    {
        {
            let dir = File::open(&root.dir).map_err(|e| Error::io("open", &root.dir, e))?;
            let rel = if rel.as_os_str().is_empty() {
                Path::new(".")
            } else {
                rel
            };
            match rustix::fs::openat2(
                &dir,
                rel,
                flags,
                Mode::empty(),
                ResolveFlags::BENEATH | ResolveFlags::NO_MAGICLINKS,
            ) {
                Ok(fd) => return Ok(File::from(fd)),
                Err(rustix::io::Errno::XDEV) => {
                    return Err(Error::OutsideRoot {
                        requested: path.to_path_buf(),
                        target: path.to_path_buf(),
                        root: root.dir.clone(),
                    });
                }
                // Kernels without openat2 (or seccomp filters that hide it): fall through.
                Err(rustix::io::Errno::NOSYS) | Err(rustix::io::Errno::PERM) => {}
                Err(e) => return Err(open_error(path, io::Error::from(e))),
            }
        }
    }
    fs::OpenOptions::new()
        .read(true)
        .custom_flags((OFlags::NONBLOCK | OFlags::NOFOLLOW | OFlags::NOCTTY).bits() as i32)
        .open(path)
        .map_err(|e| open_error(path, e))
}

fn open_error(path: &Path, e: io::Error) -> Error {
    // ELOOP with O_NOFOLLOW: the final component became a link after resolution.
    if e.raw_os_error() == Some(40) {
        return Error::ChangedDuringRead {
            path: path.to_path_buf(),
        };
    }
    match e.kind() {
        io::ErrorKind::NotFound => Error::NotFound {
            path: path.to_path_buf(),
            similar: similar_names(path),
        },
        _ => Error::io("open", path, e),
    }
}

/// SHA-256 of everything `reader` yields, in `CHUNK` pieces; returns (hex, bytes).
pub fn sha256_stream(reader: &mut impl Read, path: &Path) -> Result<(String, u64)> {
    let mut hasher = Sha256::new();
    let mut buf = vec![0u8; CHUNK];
    let mut total = 0u64;
    loop {
        let n = match reader.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(Error::io("read", path, e)),
        };
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
