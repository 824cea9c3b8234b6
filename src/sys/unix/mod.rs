//! Unix (Linux and macOS): file descriptors and the `*at` calls. A `Dir` is an open directory
//! descriptor and every name in it is resolved relative to it (`openat`, `renameat`,
//! `linkat`, `unlinkat`, `mkdirat`), so a directory swapped for a link after it was opened
//! redirects nothing. Linux adds `openat2(RESOLVE_BENEATH)`, `O_PATH`, `syncfs` and
//! `sync_file_range` (`linux.rs`); other Unix systems get the nearest call that keeps the
//! guarantee or make the caller take its portable path (`other.rs`).

use std::borrow::Cow;
use std::ffi::{OsStr, OsString};
use std::fs::{DirBuilder, File, FileType, Metadata, OpenOptions, Permissions};
use std::io;
use std::os::fd::{AsFd, OwnedFd};
use std::os::unix::ffi::{OsStrExt, OsStringExt};
use std::os::unix::fs::{self as ufs, DirBuilderExt, OpenOptionsExt, PermissionsExt};
use std::path::{Path, PathBuf};

use rustix::fs::{AtFlags, Mode, OFlags, RenameFlags};
use rustix::io::Errno;

use super::{Beneath, FileTypeExt, MetadataExt};

#[cfg(target_os = "linux")]
mod linux;
#[cfg(target_os = "linux")]
use linux as os;
#[cfg(not(target_os = "linux"))]
mod other;
#[cfg(not(target_os = "linux"))]
use other as os;

pub(crate) use os::{SYNCFS, start_writeback, stdin_is_pipeline};

#[cfg(test)]
pub(crate) mod testing;

/// Device and inode name a file: two metadata with the same are the same file.
pub(crate) const IDENTITY: bool = true;

/// A path beneath a root can be opened without ever leaving it (`openat2`, or the no-follow
/// walk by descriptor).
pub(crate) const CONTAINMENT: bool = true;

impl MetadataExt for Metadata {
    fn dev(&self) -> u64 {
        ufs::MetadataExt::dev(self)
    }
    fn ino(&self) -> u64 {
        ufs::MetadataExt::ino(self)
    }
    fn nlink(&self) -> u64 {
        ufs::MetadataExt::nlink(self)
    }
    fn mode(&self) -> u32 {
        ufs::MetadataExt::mode(self)
    }
    fn uid(&self) -> u32 {
        ufs::MetadataExt::uid(self)
    }
    fn size(&self) -> u64 {
        ufs::MetadataExt::size(self)
    }
    fn mtime_ns(&self) -> i128 {
        ufs::MetadataExt::mtime(self) as i128 * 1_000_000_000
            + ufs::MetadataExt::mtime_nsec(self) as i128
    }
    fn ctime_ns(&self) -> i128 {
        ufs::MetadataExt::ctime(self) as i128 * 1_000_000_000
            + ufs::MetadataExt::ctime_nsec(self) as i128
    }
}

impl FileTypeExt for FileType {
    fn is_fifo(&self) -> bool {
        ufs::FileTypeExt::is_fifo(self)
    }
    fn is_socket(&self) -> bool {
        ufs::FileTypeExt::is_socket(self)
    }
    fn is_device(&self) -> Option<&'static str> {
        if ufs::FileTypeExt::is_char_device(self) {
            Some("character device")
        } else if ufs::FileTypeExt::is_block_device(self) {
            Some("block device")
        } else {
            None
        }
    }
}

/// The effective user id.
pub(crate) fn euid() -> u32 {
    rustix::process::geteuid().as_raw()
}

/// The real path of `path`: absolute, every link resolved.
pub(crate) fn canonicalize(path: &Path) -> io::Result<PathBuf> {
    std::fs::canonicalize(path)
}

/// The bytes of a command-line argument as the caller gave them: any bytes.
pub(crate) fn arg_bytes(arg: &OsStr) -> Option<Vec<u8>> {
    Some(arg.as_bytes().to_vec())
}

/// The raw bytes of an OS string.
pub(crate) fn os_bytes(s: &OsStr) -> Cow<'_, [u8]> {
    Cow::Borrowed(s.as_bytes())
}

/// The OS string of raw bytes (`os_bytes`' inverse).
pub(crate) fn os_string(bytes: Vec<u8>) -> OsString {
    OsString::from_vec(bytes)
}

/// The OS string of raw bytes, borrowed where the platform allows.
pub(crate) fn os_str(bytes: &[u8]) -> Cow<'_, OsStr> {
    Cow::Borrowed(OsStr::from_bytes(bytes))
}

/// The path a `file:` URI's decoded path names.
#[cfg(feature = "mcp")]
pub(crate) fn path_of_uri(bytes: Vec<u8>) -> PathBuf {
    PathBuf::from(OsString::from_vec(bytes))
}

/// Open a file that must not be followed through a link nor wait on a FIFO: `O_NOFOLLOW`
/// (a link at the name fails with `ELOOP`), `O_NONBLOCK`, `O_NOCTTY`, `O_CLOEXEC`; a file
/// it creates gets `mode`.
pub(crate) fn no_follow(options: &mut OpenOptions, mode: u32) -> &mut OpenOptions {
    let flags = OFlags::NOFOLLOW | OFlags::NONBLOCK | OFlags::NOCTTY | OFlags::CLOEXEC;
    options.mode(mode).custom_flags(flags.bits() as i32)
}

/// A directory builder that makes directories only their owner may enter (0700).
pub(crate) fn private_dir() -> DirBuilder {
    let mut b = DirBuilder::new();
    b.mode(0o700);
    b
}

/// Give `file` the permission bits `mode`.
pub(crate) fn set_mode(file: &File, mode: u32) -> io::Result<()> {
    file.set_permissions(Permissions::from_mode(mode))
}

/// The process umask, read from /proc (reading it with umask(2) would change it); 022 where
/// there is no /proc.
pub(crate) fn umask() -> u32 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find_map(|l| l.strip_prefix("Umask:"))
                .and_then(|v| u32::from_str_radix(v.trim(), 8).ok())
        })
        .unwrap_or(0o022)
}

/// Give `file` the owner of `like` (uid and gid). Only root (or the owner, for its own groups)
/// may; otherwise the file silently keeps ours. Always attempted, even when the ids already
/// look like ours: a file created in a set-group-ID directory has that directory's group, not
/// ours. Call it before setting the mode: chown clears set-id bits.
pub(crate) fn copy_owner(file: &File, like: &Metadata) {
    let _ = rustix::fs::fchown(
        file,
        Some(rustix::fs::Uid::from_raw(like.uid())),
        Some(rustix::fs::Gid::from_raw(ufs::MetadataExt::gid(like))),
    );
}

/// Write all of `buf` at `offset` (the file position is not used).
pub(crate) fn write_all_at(file: &File, buf: &[u8], offset: u64) -> io::Result<()> {
    ufs::FileExt::write_all_at(file, buf, offset)
}

/// One read at `offset` (the file position is not used).
pub(crate) fn read_at(file: &File, buf: &mut [u8], offset: u64) -> io::Result<usize> {
    ufs::FileExt::read_at(file, buf, offset)
}

/// Fill `buf` from `offset` (the file position is not used).
pub(crate) fn read_exact_at(file: &File, buf: &mut [u8], offset: u64) -> io::Result<()> {
    ufs::FileExt::read_exact_at(file, buf, offset)
}

/// Rename `from` to `to` unless `to` exists (`AlreadyExists`), never as a second link.
pub(crate) fn rename_noreplace(from: &Path, to: &Path) -> io::Result<()> {
    let cwd = rustix::fs::CWD;
    rustix::fs::renameat_with(cwd, from, cwd, to, RenameFlags::NOREPLACE).map_err(io::Error::from)
}

/// A FIFO opened non-blocking: wait until a writer has written or come and gone (before that,
/// a read would see an end that is none), then make its reads blocking again.
pub(crate) fn await_writer(fifo: &File) -> io::Result<()> {
    use rustix::event::{PollFd, PollFlags};
    loop {
        let mut fds = [PollFd::new(fifo, PollFlags::IN)];
        match rustix::event::poll(&mut fds, None) {
            Ok(_) => break,
            Err(Errno::INTR) => continue,
            Err(e) => return Err(e.into()),
        }
    }
    let flags = rustix::fs::fcntl_getfl(fifo)?;
    rustix::fs::fcntl_setfl(fifo, flags.difference(OFlags::NONBLOCK))?;
    Ok(())
}

/// Whether standard input has something to say within `wait`: bytes, or its end (the writer
/// gone). Nothing is read. A descriptor that cannot be polled is taken as ready.
pub(crate) fn stdin_ready(wait: std::time::Duration) -> bool {
    use rustix::event::{PollFd, PollFlags, Timespec};
    let stdin = io::stdin();
    let deadline = std::time::Instant::now() + wait;
    loop {
        let left = deadline.saturating_duration_since(std::time::Instant::now());
        let timeout = Timespec::try_from(left).unwrap_or(Timespec {
            tv_sec: i64::MAX,
            tv_nsec: 0,
        });
        let mut fds = [PollFd::new(&stdin, PollFlags::IN)];
        match rustix::event::poll(&mut fds, Some(&timeout)) {
            Ok(0) => return false,
            Ok(_) => return true,
            Err(Errno::INTR) => continue,
            Err(_) => return true,
        }
    }
}

/// The modification time of `path` as (seconds, nanoseconds), following a final link when
/// `follow`.
pub(crate) fn mtime(path: &Path, follow: bool) -> io::Result<(i64, i64)> {
    mtime_at(rustix::fs::CWD, path, follow)
}

/// The modification time of `path` relative to `dir`.
fn mtime_at(dir: impl AsFd, path: &Path, follow: bool) -> io::Result<(i64, i64)> {
    let at = if follow {
        AtFlags::empty()
    } else {
        AtFlags::SYMLINK_NOFOLLOW
    };
    let st = rustix::fs::statat(dir, path, at)?;
    Ok((st.st_mtime as i64, st.st_mtime_nsec as i64))
}

/// No system-wide convention before `XDG_STATE_HOME` and `HOME`.
pub(crate) fn system_state_dir() -> Option<PathBuf> {
    None
}

/// A per-user state directory for a user without a home directory.
pub(crate) fn homeless_state_dir() -> PathBuf {
    PathBuf::from(format!("/tmp/quill-state-{}", euid()))
}

/// Whether an open failed because the final component is a symbolic link (`O_NOFOLLOW`).
pub(crate) fn is_link_error(e: &io::Error) -> bool {
    e.raw_os_error() == Some(Errno::LOOP.raw_os_error())
}

/// Whether a non-blocking open for writing failed because a FIFO has no reader.
pub(crate) fn is_no_reader_error(e: &io::Error) -> bool {
    e.raw_os_error() == Some(Errno::NXIO.raw_os_error())
}

/// Whether a rename failed because source and destination are on different file systems.
pub(crate) fn is_cross_device_error(e: &io::Error) -> bool {
    e.raw_os_error() == Some(Errno::XDEV.raw_os_error())
}

/// The error of an operation the system does not permit (`EPERM`).
pub(crate) fn not_permitted() -> io::Error {
    io::Error::from(Errno::PERM)
}

// ---------------------------------------------------------------------------------------
// Directories held open

/// How a directory is opened: read-only, a directory, never a controlling terminal.
const DIR_FLAGS: OFlags = OFlags::RDONLY
    .union(OFlags::DIRECTORY)
    .union(OFlags::CLOEXEC)
    .union(OFlags::NOCTTY);

/// The flags of every guarded open of a file: read-only, never blocking, closed on exec and,
/// unless `follow`, failing on a final symbolic link.
fn read_flags(follow: bool) -> OFlags {
    let mut flags = OFlags::RDONLY
        .union(OFlags::NONBLOCK)
        .union(OFlags::CLOEXEC)
        .union(OFlags::NOCTTY);
    if !follow {
        flags.insert(OFlags::NOFOLLOW);
    }
    flags
}

/// Open `path` for reading the guarded way: never blocking on a FIFO or device, never
/// becoming the controlling terminal and, unless `follow`, failing on a final link.
pub(crate) fn open_read(path: &Path, follow: bool) -> io::Result<File> {
    rustix::fs::open(path, read_flags(follow), Mode::empty())
        .map(File::from)
        .map_err(io::Error::from)
}

/// Whether a failure to open a directory component means a missing one (`NotFound`) or a
/// file in the way: both read as "not there" to the walk's callers.
pub(crate) fn is_missing_dir_error(e: &io::Error) -> bool {
    e.kind() == io::ErrorKind::NotFound || e.kind() == io::ErrorKind::NotADirectory
}

/// An open directory; every name below it is resolved from it.
#[derive(Debug)]
pub(crate) struct Dir(OwnedFd);

impl Dir {
    /// Open the directory at `path` (links followed: the caller resolved it).
    pub(crate) fn open(path: &Path) -> io::Result<Dir> {
        rustix::fs::open(path, DIR_FLAGS, Mode::empty())
            .map(Dir)
            .map_err(io::Error::from)
    }

    /// Open the directory at `path` only to look up the metadata of its entries (`O_PATH`
    /// where there is one).
    pub(crate) fn open_to_stat(path: &Path) -> io::Result<Dir> {
        let flags = os::PATH_ONLY | OFlags::DIRECTORY | OFlags::CLOEXEC;
        rustix::fs::open(path, flags, Mode::empty())
            .map(Dir)
            .map_err(io::Error::from)
    }

    /// The top of an absolute path and the rest of it below: `/` and the path without it.
    pub(crate) fn top(path: &Path) -> io::Result<(Dir, &Path)> {
        let rel = path.strip_prefix("/").unwrap_or(path);
        Ok((Dir::open(Path::new("/"))?, rel))
    }

    /// Open the directory `rel` beneath this one in one call, never above it (`..`, absolute
    /// links and links that climb out are `Outside`) and never through `/proc` magic links.
    /// `Walk` when the system cannot (no `openat2`): the caller walks.
    pub(crate) fn open_dir_beneath(&self, rel: &Path) -> Result<Dir, Beneath> {
        os::open_beneath(&self.0, rel, DIR_FLAGS, Mode::empty())
            .map(Dir)
            .map_err(beneath_error)
    }

    /// Open the file `rel` beneath this directory for reading (final link not followed), as
    /// `open_dir_beneath` does.
    pub(crate) fn open_file_beneath(&self, rel: &Path) -> Result<File, Beneath> {
        os::open_beneath(&self.0, rel, read_flags(false), Mode::empty())
            .map(File::from)
            .map_err(beneath_error)
    }

    /// Open the subdirectory `name`, never through a link (`is_link_error`, or
    /// `NotADirectory` on some systems: `is_link` tells them apart).
    pub(crate) fn child(&self, name: &OsStr) -> io::Result<Dir> {
        let flags = DIR_FLAGS | OFlags::NOFOLLOW;
        rustix::fs::openat(&self.0, name, flags, Mode::empty())
            .map(Dir)
            .map_err(io::Error::from)
    }

    /// Make the subdirectory `name` (0777 less the umask); `AlreadyExists` if there is one.
    pub(crate) fn mkdir(&self, name: &OsStr) -> io::Result<()> {
        rustix::fs::mkdirat(&self.0, name, Mode::from_raw_mode(0o777)).map_err(io::Error::from)
    }

    /// Whether `name` is a symbolic link.
    pub(crate) fn is_link(&self, name: &OsStr) -> bool {
        rustix::fs::statat(&self.0, name, AtFlags::SYMLINK_NOFOLLOW).is_ok_and(|st| {
            rustix::fs::FileType::from_raw_mode(st.st_mode) == rustix::fs::FileType::Symlink
        })
    }

    /// Open the file `name` for reading, the final link not followed (`is_link_error`).
    pub(crate) fn open_file(&self, name: &OsStr) -> io::Result<File> {
        rustix::fs::openat(&self.0, name, read_flags(false), Mode::empty())
            .map(File::from)
            .map_err(io::Error::from)
    }

    /// The metadata of `name`, a final link not followed (opened `O_PATH` where there is one:
    /// no permission needed, no FIFO opened for reading).
    pub(crate) fn stat(&self, name: &OsStr) -> io::Result<Metadata> {
        let flags = os::PATH_ONLY | OFlags::NOFOLLOW | OFlags::CLOEXEC;
        let fd = rustix::fs::openat(&self.0, name, flags, Mode::empty())?;
        File::from(fd).metadata()
    }

    /// The modification time of `name` as (seconds, nanoseconds), following a final link
    /// when `follow`.
    pub(crate) fn mtime(&self, name: &OsStr, follow: bool) -> io::Result<(i64, i64)> {
        mtime_at(&self.0, Path::new(name), follow)
    }

    /// Create the file `name` exclusively (never an existing name, never through a link),
    /// write-only, with `mode`.
    pub(crate) fn create_new(&self, name: &OsStr, mode: u32) -> io::Result<File> {
        let flags = OFlags::WRONLY
            .union(OFlags::CREATE)
            .union(OFlags::EXCL)
            .union(OFlags::NOFOLLOW)
            .union(OFlags::CLOEXEC);
        rustix::fs::openat(&self.0, name, flags, Mode::from_raw_mode(mode as _))
            .map(File::from)
            .map_err(io::Error::from)
    }

    /// Whether `name` exists (a link is not followed).
    pub(crate) fn has(&self, name: &OsStr) -> bool {
        rustix::fs::statat(&self.0, name, AtFlags::SYMLINK_NOFOLLOW).is_ok()
    }

    /// Remove the file `name`.
    pub(crate) fn unlink(&self, name: &OsStr) -> io::Result<()> {
        rustix::fs::unlinkat(&self.0, name, AtFlags::empty()).map_err(io::Error::from)
    }

    /// Rename `from` here to `to` in `dest`, replacing it.
    pub(crate) fn rename(&self, from: &OsStr, dest: &Dir, to: &OsStr) -> io::Result<()> {
        rustix::fs::renameat(&self.0, from, &dest.0, to).map_err(io::Error::from)
    }

    /// Rename `from` here to `to` in `dest` unless `to` exists (`AlreadyExists`); a file
    /// system that cannot is `Unsupported` (the caller links instead).
    pub(crate) fn rename_noreplace(&self, from: &OsStr, dest: &Dir, to: &OsStr) -> io::Result<()> {
        match rustix::fs::renameat_with(&self.0, from, &dest.0, to, RenameFlags::NOREPLACE) {
            Ok(()) => Ok(()),
            Err(Errno::INVAL | Errno::NOSYS | Errno::NOTSUP) => {
                Err(io::ErrorKind::Unsupported.into())
            }
            Err(e) => Err(e.into()),
        }
    }

    /// Link `from` here as `to` in `dest`, never replacing (`AlreadyExists`).
    pub(crate) fn link(&self, from: &OsStr, dest: &Dir, to: &OsStr) -> io::Result<()> {
        rustix::fs::linkat(&self.0, from, &dest.0, to, AtFlags::empty()).map_err(io::Error::from)
    }

    /// The directory's own metadata.
    pub(crate) fn metadata(&self) -> io::Result<Metadata> {
        File::from(self.0.as_fd().try_clone_to_owned()?).metadata()
    }

    /// Make the directory's entries durable after a rename, link or unlink in it.
    pub(crate) fn sync(&self) -> io::Result<()> {
        os::durable_flush(&self.0)
    }

    /// Make everything written to the directory's file system durable in one call; only
    /// where `SYNCFS` is true.
    pub(crate) fn sync_fs(&self) -> io::Result<()> {
        os::sync_filesystem(&self.0)
    }
}

fn beneath_error(e: Errno) -> Beneath {
    match e {
        Errno::XDEV => Beneath::Outside,
        Errno::NOSYS | Errno::PERM => Beneath::Walk,
        e => Beneath::Io(e.into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn read_flags_never_block_never_follow_unless_asked() {
        let flags = read_flags(false);
        for f in [
            OFlags::NONBLOCK,
            OFlags::NOFOLLOW,
            OFlags::CLOEXEC,
            OFlags::NOCTTY,
        ] {
            assert!(flags.contains(f), "{f:?} missing from {flags:?}");
        }
        assert!(!flags.intersects(OFlags::WRONLY | OFlags::RDWR | OFlags::CREATE));
        assert!(!read_flags(true).contains(OFlags::NOFOLLOW));
        assert!(read_flags(true).contains(OFlags::NONBLOCK));
    }

    #[test]
    fn no_follow_opens_are_not_inherited_never_block_and_get_their_mode() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("f");
        let file = no_follow(&mut OpenOptions::new(), 0o600)
            .write(true)
            .create_new(true)
            .open(&path)
            .unwrap();
        let fd = rustix::io::fcntl_getfd(&file).unwrap();
        assert!(fd.contains(rustix::io::FdFlags::CLOEXEC));
        let fl = rustix::fs::fcntl_getfl(&file).unwrap();
        assert!(fl.contains(OFlags::NONBLOCK));
        assert_eq!(file.metadata().unwrap().mode() & 0o777, 0o600);
        let link = dir.path().join("l");
        ufs::symlink(&path, &link).unwrap();
        let e = no_follow(&mut OpenOptions::new(), 0o600)
            .read(true)
            .open(&link)
            .unwrap_err();
        assert!(is_link_error(&e), "{e:?}");
    }

    #[test]
    fn umask_is_the_process_umask() {
        assert_eq!(umask(), testing::umask_now());
    }

    #[test]
    fn times_are_nanoseconds_since_the_epoch() {
        let dir = tempfile::tempdir().unwrap();
        let f = dir.path().join("f");
        std::fs::write(&f, b"x").unwrap();
        let m = std::fs::metadata(&f).unwrap();
        let ns = |s: i64, n: i64| s as i128 * 1_000_000_000 + n as i128;
        assert_eq!(
            m.ctime_ns(),
            ns(
                ufs::MetadataExt::ctime(&m),
                ufs::MetadataExt::ctime_nsec(&m)
            )
        );
        assert_eq!(
            m.mtime_ns(),
            ns(
                ufs::MetadataExt::mtime(&m),
                ufs::MetadataExt::mtime_nsec(&m)
            )
        );
        assert_eq!(
            mtime(&f, false).unwrap(),
            (
                ufs::MetadataExt::mtime(&m),
                ufs::MetadataExt::mtime_nsec(&m)
            )
        );
    }
}
