//! What the unit tests need to set up Unix situations (FIFOs, links, owners, modes) and to
//! look at what the layer did (descriptor flags, error numbers). Tests only.

use std::fs::{self, File, OpenOptions};
use std::io;
use std::os::fd::AsRawFd;
use std::os::unix::fs::{self as ufs, OpenOptionsExt, PermissionsExt};
use std::path::{Path, PathBuf};

use rustix::fs::{Mode, OFlags};
use rustix::io::Errno;

/// Make a FIFO at `path` (0600).
pub(crate) fn mkfifo(path: &Path) {
    rustix::fs::mknodat(
        rustix::fs::CWD,
        path,
        rustix::fs::FileType::Fifo,
        Mode::from_raw_mode(0o600),
        0,
    )
    .unwrap();
}

/// Make a symbolic link at `link` to `target`.
pub(crate) fn symlink(target: impl AsRef<Path>, link: impl AsRef<Path>) -> io::Result<()> {
    ufs::symlink(target, link)
}

/// Give `path` the owner `uid` and, when given, the group `gid`.
pub(crate) fn chown(path: &Path, uid: u32, gid: Option<u32>) {
    ufs::chown(path, Some(uid), gid).unwrap();
}

/// The owner and group of `path`.
pub(crate) fn owner(path: &Path) -> (u32, u32) {
    let m = fs::metadata(path).unwrap();
    (ufs::MetadataExt::uid(&m), ufs::MetadataExt::gid(&m))
}

/// Give `path` the permission bits `mode`.
pub(crate) fn set_mode(path: &Path, mode: u32) {
    fs::set_permissions(path, fs::Permissions::from_mode(mode)).unwrap();
}

/// Whether the tests run as root (who may do what others may not).
pub(crate) fn is_root() -> bool {
    rustix::process::geteuid().is_root()
}

/// The process umask, by umask(2) (put back at once).
pub(crate) fn umask_now() -> u32 {
    // SAFETY: umask(2) only swaps the process mask; it is put back at once.
    let old = unsafe { libc::umask(0o022) };
    unsafe { libc::umask(old) };
    old as u32
}

/// Open `path` for writing without waiting for a reader (a FIFO's writer).
pub(crate) fn open_writer_nonblocking(path: &Path) -> io::Result<File> {
    OpenOptions::new()
        .write(true)
        .custom_flags(OFlags::NONBLOCK.bits() as i32)
        .open(path)
}

/// Whether reads of `file` never block.
pub(crate) fn is_nonblocking(file: &File) -> bool {
    rustix::fs::fcntl_getfl(file)
        .unwrap()
        .contains(OFlags::NONBLOCK)
}

/// Whether `file` is closed on exec.
pub(crate) fn is_cloexec(file: &File) -> bool {
    rustix::io::fcntl_getfd(file)
        .unwrap()
        .contains(rustix::io::FdFlags::CLOEXEC)
}

/// The path that names `file`'s descriptor in `/proc/self` (a magic link).
pub(crate) fn proc_fd(file: &File) -> PathBuf {
    PathBuf::from(format!("fd/{}", file.as_raw_fd()))
}

/// An input/output error (`EIO`).
pub(crate) fn eio() -> io::Error {
    Errno::IO.into()
}

/// A missing file (`ENOENT`).
pub(crate) fn enoent() -> io::Error {
    Errno::NOENT.into()
}

/// A final component that is a link, opened without following (`ELOOP`).
pub(crate) fn eloop() -> io::Error {
    Errno::LOOP.into()
}

/// Whether `e` is `EIO`.
pub(crate) fn is_eio(e: &io::Error) -> bool {
    e.raw_os_error() == Some(Errno::IO.raw_os_error())
}
