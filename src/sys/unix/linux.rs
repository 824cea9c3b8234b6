//! Linux: `openat2(RESOLVE_BENEATH)`, `O_PATH`, `syncfs`, `sync_file_range`.

use std::fs::File;
use std::io;
use std::os::fd::{AsFd, AsRawFd, OwnedFd};
use std::path::Path;

use rustix::fs::{Mode, OFlags, ResolveFlags};

/// Open flags for a descriptor that only names a file (to stat it, or to resolve beneath
/// it): no read permission needed, no FIFO opened for reading.
pub(crate) const PATH_ONLY: OFlags = OFlags::PATH;

/// Whether `sync_filesystem` makes a whole file system durable in one call.
pub(crate) const SYNCFS: bool = true;

/// Open `rel` beneath the directory `dir`: never above it (`..`, absolute links, links that
/// climb out all fail with `EXDEV`) and never through `/proc` magic links. `NOSYS` or `PERM`
/// (an old kernel, a seccomp filter): the caller walks the path itself.
pub(crate) fn open_beneath(
    dir: impl AsFd,
    rel: &Path,
    flags: OFlags,
    mode: Mode,
) -> rustix::io::Result<OwnedFd> {
    let resolve = ResolveFlags::BENEATH.union(ResolveFlags::NO_MAGICLINKS);
    rustix::fs::openat2(dir, rel, flags, mode, resolve)
}

/// Make everything written to `fd`'s file system durable (`syncfs`).
pub(crate) fn sync_filesystem(fd: impl AsFd) -> io::Result<()> {
    rustix::fs::syncfs(fd).map_err(io::Error::from)
}

/// Make a directory's entries durable after a rename, link or unlink in it.
pub(crate) fn durable_flush(fd: impl AsFd) -> io::Result<()> {
    rustix::fs::fsync(fd).map_err(io::Error::from)
}

/// Ask the kernel to start writing `len` bytes at `offset` to disk now, without waiting
/// (`sync_file_range(SYNC_FILE_RANGE_WRITE)`). Only a hint: the fsync before publication is
/// what makes the content durable, so a failure here is ignored.
pub(crate) fn start_writeback(file: &File, offset: u64, len: u64) {
    // SAFETY: a plain syscall on a descriptor we own; no memory is passed.
    unsafe {
        libc::sync_file_range(
            file.as_raw_fd(),
            offset as libc::off64_t,
            len as libc::off64_t,
            libc::SYNC_FILE_RANGE_WRITE,
        );
    }
}

/// Whether standard input is a pipe made for this process by a pipeline (`producer | quill
/// …`): a pipe the parent process no longer holds. A shell closes its copies of a pipeline's
/// pipe once it has started both sides; a harness that spawned the process (or a shell
/// that passed on its own standard input) still holds its end. Read from `/proc`: false
/// when that cannot be told (not a pipe, a socket — whose two ends are two inodes —, an
/// unreadable `/proc`).
pub(crate) fn stdin_is_pipeline() -> bool {
    let Ok(ours) = std::fs::read_link("/proc/self/fd/0") else {
        return false;
    };
    if !ours.as_os_str().as_encoded_bytes().starts_with(b"pipe:") {
        return false;
    }
    let parent = std::os::unix::process::parent_id();
    let Ok(fds) = std::fs::read_dir(format!("/proc/{parent}/fd")) else {
        return false;
    };
    !fds.flatten()
        .any(|fd| std::fs::read_link(fd.path()).is_ok_and(|target| target == ours))
}
