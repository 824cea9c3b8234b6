//! Unix systems other than Linux (macOS first): no `openat2`, so a path beneath a root is
//! walked one component at a time with `O_NOFOLLOW` (the caller's portable path); no `O_PATH`,
//! so a descriptor that names a file is opened read-only and non-blocking; no `syncfs`, so
//! files are flushed one by one; a durable flush is `F_FULLFSYNC` on Apple systems, where a
//! plain `fsync` does not reach the disk.

use std::fs::File;
use std::io;
use std::os::fd::{AsFd, OwnedFd};
use std::path::Path;

use rustix::fs::{Mode, OFlags};

/// Open flags for a descriptor that only names a file: read-only (a directory, or a file the
/// user may read) and non-blocking (a FIFO is never waited on).
pub(crate) const PATH_ONLY: OFlags = OFlags::RDONLY.union(OFlags::NONBLOCK);

/// No call makes one file system durable at once: the caller fsyncs each file.
pub(crate) const SYNCFS: bool = false;

/// No `openat2`: the caller walks the path (`NOSYS`).
pub(crate) fn open_beneath(
    _dir: impl AsFd,
    _rel: &Path,
    _flags: OFlags,
    _mode: Mode,
) -> rustix::io::Result<OwnedFd> {
    Err(rustix::io::Errno::NOSYS)
}

/// Never called while `SYNCFS` is false; says so if it is.
pub(crate) fn sync_filesystem(_fd: impl AsFd) -> io::Result<()> {
    Err(io::ErrorKind::Unsupported.into())
}

/// A directory's entries made durable: `F_FULLFSYNC` on Apple systems, `fsync` elsewhere.
pub(crate) fn durable_flush(fd: impl AsFd) -> io::Result<()> {
    #[cfg(target_vendor = "apple")]
    return rustix::fs::fcntl_fullfsync(fd).map_err(io::Error::from);
    #[cfg(not(target_vendor = "apple"))]
    return rustix::fs::fsync(fd).map_err(io::Error::from);
}

/// No early write-back hint: the fsync before publication does it all.
pub(crate) fn start_writeback(_file: &File, _offset: u64, _len: u64) {}

/// Whether standard input is a pipe made for this process by a pipeline: not known without
/// `/proc` (Linux's), so never claimed.
pub(crate) fn stdin_is_pipeline() -> bool {
    false
}
