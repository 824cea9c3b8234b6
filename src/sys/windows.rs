//! Windows: no descriptor-relative calls in the standard library, so a `Dir` is held by its
//! path and every name is joined to it — a directory swapped for a junction after it was
//! opened would redirect what follows, which is why containment beneath a root is not
//! offered here (`CONTAINMENT`) and `--root` is refused. A link at a target's name is opened
//! as itself (`FILE_FLAG_OPEN_REPARSE_POINT`) and refused as one. Stable Rust exposes no file
//! index, link count or owner, so those read as one file, one link, no owner (`IDENTITY`);
//! there are no FIFOs, sockets or devices to refuse; the permission bits are the read-only
//! flag; a rename that never replaces is `MoveFileExW` without `MOVEFILE_REPLACE_EXISTING`.

use std::borrow::Cow;
use std::ffi::{OsStr, OsString};
use std::fs::{self, DirBuilder, File, FileType, Metadata, OpenOptions};
use std::io;
use std::os::windows::fs::{FileExt, MetadataExt as _, OpenOptionsExt};
use std::path::{Component, Path, PathBuf};
use std::time::UNIX_EPOCH;

use super::{Beneath, FileTypeExt, MetadataExt};

/// `CreateFileW` opens a reparse point (a symbolic link, a junction) itself.
const FILE_FLAG_OPEN_REPARSE_POINT: u32 = 0x0020_0000;
/// The attribute of a file that carries a reparse point (a link, a junction, a placeholder).
const FILE_ATTRIBUTE_REPARSE_POINT: u32 = 0x400;
/// `CreateFileW` opens a directory (for its handle: to flush it).
const FILE_FLAG_BACKUP_SEMANTICS: u32 = 0x0200_0000;
/// `ERROR_NOT_SAME_DEVICE`: a rename across volumes.
const ERROR_NOT_SAME_DEVICE: i32 = 17;
/// `ERROR_DIRECTORY`: the directory name is invalid (a file in the way).
const ERROR_DIRECTORY: i32 = 267;
/// `ERROR_CANT_RESOLVE_FILENAME`: what an open that met a link it must not follow answers.
const ERROR_CANT_RESOLVE_FILENAME: i32 = 1921;
/// 100-nanosecond intervals between 1601-01-01 (FILETIME's epoch) and 1970-01-01.
const FILETIME_UNIX_EPOCH: i128 = 116_444_736_000_000_000;

/// No device and inode: metadata cannot tell two files apart.
pub(crate) const IDENTITY: bool = false;

/// No way to open a path beneath a directory without following links: `--root` is refused.
pub(crate) const CONTAINMENT: bool = false;

/// No call makes one file system durable at once: the caller flushes each file.
pub(crate) const SYNCFS: bool = false;

fn filetime_ns(t: u64) -> i128 {
    (t as i128 - FILETIME_UNIX_EPOCH) * 100
}

impl MetadataExt for Metadata {
    fn dev(&self) -> u64 {
        0
    }
    fn ino(&self) -> u64 {
        0
    }
    fn nlink(&self) -> u64 {
        1
    }
    fn mode(&self) -> u32 {
        let ft = self.file_type();
        let mode = if ft.is_dir() {
            0o040_755
        } else if ft.is_symlink() {
            0o120_777
        } else {
            0o100_644
        };
        if self.permissions().readonly() {
            mode & !0o222
        } else {
            mode
        }
    }
    fn uid(&self) -> u32 {
        0
    }
    fn size(&self) -> u64 {
        self.len()
    }
    fn mtime_ns(&self) -> i128 {
        filetime_ns(self.last_write_time())
    }
    fn ctime_ns(&self) -> i128 {
        filetime_ns(self.creation_time())
    }
}

impl FileTypeExt for FileType {
    fn is_fifo(&self) -> bool {
        false
    }
    fn is_socket(&self) -> bool {
        false
    }
    fn is_device(&self) -> Option<&'static str> {
        None
    }
}

/// No user ids: every file reads as this user's.
pub(crate) fn euid() -> u32 {
    0
}

/// The real path of `path`: absolute, every link resolved, without the `\\?\` prefix where
/// the path does not need it (`C:\x`, as people and other programs write it).
pub(crate) fn canonicalize(path: &Path) -> io::Result<PathBuf> {
    dunce::canonicalize(path)
}

/// The bytes of a command-line argument as the caller gave them: arguments are UTF-16, and
/// one that is not Unicode text gives `None`.
pub(crate) fn arg_bytes(arg: &OsStr) -> Option<Vec<u8>> {
    arg.to_str().map(|s| s.as_bytes().to_vec())
}

/// The bytes of an OS string (WTF-8; UTF-8 for any valid name).
pub(crate) fn os_bytes(s: &OsStr) -> Cow<'_, [u8]> {
    Cow::Borrowed(s.as_encoded_bytes())
}

/// The OS string of bytes; bytes that are not UTF-8 (from another system) lossily.
pub(crate) fn os_string(bytes: Vec<u8>) -> OsString {
    match String::from_utf8(bytes) {
        Ok(s) => s.into(),
        Err(e) => String::from_utf8_lossy(e.as_bytes()).into_owned().into(),
    }
}

/// The OS string of bytes, borrowed when they are UTF-8.
pub(crate) fn os_str(bytes: &[u8]) -> Cow<'_, OsStr> {
    match std::str::from_utf8(bytes) {
        Ok(s) => Cow::Borrowed(OsStr::new(s)),
        Err(_) => Cow::Owned(String::from_utf8_lossy(bytes).into_owned().into()),
    }
}

/// The path a `file:` URI's decoded path names: `/C:/x` is `C:/x`.
#[cfg(feature = "mcp")]
pub(crate) fn path_of_uri(bytes: Vec<u8>) -> PathBuf {
    let s = os_string(bytes);
    let b = s.as_encoded_bytes();
    if b.len() >= 3 && b[0] == b'/' && b[1].is_ascii_alphabetic() && b[2] == b':' {
        return PathBuf::from(String::from_utf8_lossy(&b[1..]).into_owned());
    }
    PathBuf::from(s)
}

/// Open a link at the name as itself (the caller's checks refuse it); `mode` has no meaning.
pub(crate) fn no_follow(options: &mut OpenOptions, _mode: u32) -> &mut OpenOptions {
    options.custom_flags(FILE_FLAG_OPEN_REPARSE_POINT)
}

/// A directory builder (its ACL is inherited from its parent).
pub(crate) fn private_dir() -> DirBuilder {
    DirBuilder::new()
}

/// Give `file` the permission bits `mode` as far as they exist here: read-only when no one
/// may write.
pub(crate) fn set_mode(file: &File, mode: u32) -> io::Result<()> {
    let mut p = file.metadata()?.permissions();
    p.set_readonly(mode & 0o222 == 0);
    file.set_permissions(p)
}

/// No umask: new files get what 022 would leave.
pub(crate) fn umask() -> u32 {
    0o022
}

/// No owners to copy.
pub(crate) fn copy_owner(_file: &File, _like: &Metadata) {}

/// Write all of `buf` at `offset` (unlike `pwrite`, the file position moves).
pub(crate) fn write_all_at(file: &File, mut buf: &[u8], mut offset: u64) -> io::Result<()> {
    while !buf.is_empty() {
        match file.seek_write(buf, offset) {
            Ok(0) => return Err(io::ErrorKind::WriteZero.into()),
            Ok(n) => {
                buf = &buf[n..];
                offset += n as u64;
            }
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(())
}

/// One read at `offset` (unlike `pread`, the file position moves).
pub(crate) fn read_at(file: &File, buf: &mut [u8], offset: u64) -> io::Result<usize> {
    file.seek_read(buf, offset)
}

/// Fill `buf` from `offset`.
pub(crate) fn read_exact_at(file: &File, mut buf: &mut [u8], mut offset: u64) -> io::Result<()> {
    while !buf.is_empty() {
        match file.seek_read(buf, offset) {
            Ok(0) => return Err(io::ErrorKind::UnexpectedEof.into()),
            Ok(n) => {
                buf = &mut buf[n..];
                offset += n as u64;
            }
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(())
}

/// Rename `from` to `to` unless `to` exists (`AlreadyExists`): `MoveFileExW` without
/// `MOVEFILE_REPLACE_EXISTING`, which fails on an existing name in the same call.
pub(crate) fn rename_noreplace(from: &Path, to: &Path) -> io::Result<()> {
    use std::os::windows::ffi::OsStrExt;
    use windows_sys::Win32::Storage::FileSystem::{MOVEFILE_WRITE_THROUGH, MoveFileExW};
    let wide = |p: &Path| -> Vec<u16> {
        let p = long(p);
        p.as_os_str().encode_wide().chain(Some(0)).collect()
    };
    let (from, to) = (wide(from), wide(to));
    // SAFETY: two NUL-terminated UTF-16 strings that outlive the call.
    if unsafe { MoveFileExW(from.as_ptr(), to.as_ptr(), MOVEFILE_WRITE_THROUGH) } == 0 {
        // ERROR_FILE_EXISTS and ERROR_ALREADY_EXISTS read as `AlreadyExists`.
        return Err(io::Error::last_os_error());
    }
    Ok(())
}

/// A path past the classic 260-character limit in the `\\?\` form the wide calls accept at
/// any length (std does the same for its own calls): made absolute and normalized first
/// (`/`, `.` and `..` mean nothing after the prefix), a UNC path as `\\?\UNC\`.
fn long(p: &Path) -> Cow<'_, Path> {
    if p.as_os_str().len() < 248 || p.as_os_str().as_encoded_bytes().starts_with(b"\\\\?\\") {
        return Cow::Borrowed(p);
    }
    let Ok(full) = std::path::absolute(p) else {
        return Cow::Borrowed(p);
    };
    let bytes = full.as_os_str().as_encoded_bytes();
    let mut v = match bytes.strip_prefix(b"\\\\") {
        Some(unc) => {
            let mut v = OsString::from("\\\\?\\UNC\\");
            v.push(String::from_utf8_lossy(unc).as_ref());
            return Cow::Owned(PathBuf::from(v));
        }
        None => OsString::from("\\\\?\\"),
    };
    v.push(full.as_os_str());
    Cow::Owned(PathBuf::from(v))
}

/// No FIFOs: nothing to wait for.
pub(crate) fn await_writer(_fifo: &File) -> io::Result<()> {
    Ok(())
}

/// Whether standard input has something to say within `wait`: Windows' pipes cannot be
/// polled with std, so it is taken as ready (grep then waits for it, as rg does).
pub(crate) fn stdin_ready(_wait: std::time::Duration) -> bool {
    true
}

/// Whether standard input is a pipe a pipeline made for this process: not known here.
pub(crate) fn stdin_is_pipeline() -> bool {
    false
}

/// The state directory of this system, before `XDG_STATE_HOME` and `HOME` are asked: under
/// `%LOCALAPPDATA%`, so a shell that sets `HOME` (Git Bash) and one that does not
/// (PowerShell) share one store.
pub(crate) fn system_state_dir() -> Option<PathBuf> {
    std::env::var_os("LOCALAPPDATA")
        .filter(|v| !v.is_empty())
        .map(|local| PathBuf::from(local).join("quill").join("state"))
}

/// The state directory of a user without `HOME`: under `%LOCALAPPDATA%`.
pub(crate) fn homeless_state_dir() -> PathBuf {
    match std::env::var_os("LOCALAPPDATA").filter(|v| !v.is_empty()) {
        Some(local) => PathBuf::from(local).join("quill").join("state"),
        None => std::env::temp_dir().join("quill-state"),
    }
}

/// Whether an open met a link it must not follow.
pub(crate) fn is_link_error(e: &io::Error) -> bool {
    e.raw_os_error() == Some(ERROR_CANT_RESOLVE_FILENAME)
}

/// No FIFOs.
pub(crate) fn is_no_reader_error(_e: &io::Error) -> bool {
    false
}

/// Whether a rename failed because the names are on different volumes.
pub(crate) fn is_cross_device_error(e: &io::Error) -> bool {
    e.raw_os_error() == Some(ERROR_NOT_SAME_DEVICE)
}

/// Whether a directory component is missing, or a file is in its way.
pub(crate) fn is_missing_dir_error(e: &io::Error) -> bool {
    matches!(
        e.kind(),
        io::ErrorKind::NotFound | io::ErrorKind::NotADirectory
    ) || e.raw_os_error() == Some(ERROR_DIRECTORY)
}

/// The error of an operation the system does not permit.
pub(crate) fn not_permitted() -> io::Error {
    io::ErrorKind::PermissionDenied.into()
}

fn link_error() -> io::Error {
    io::Error::from_raw_os_error(ERROR_CANT_RESOLVE_FILENAME)
}

/// The modification time of `path` as (seconds, nanoseconds) since the epoch, following a
/// final link when `follow`.
pub(crate) fn mtime(path: &Path, follow: bool) -> io::Result<(i64, i64)> {
    let m = if follow {
        fs::metadata(path)?
    } else {
        fs::symlink_metadata(path)?
    };
    let t = m.modified()?;
    Ok(match t.duration_since(UNIX_EPOCH) {
        Ok(d) => (d.as_secs() as i64, d.subsec_nanos() as i64),
        Err(e) => {
            let d = e.duration();
            let ns = -(d.as_nanos() as i128);
            (
                ns.div_euclid(1_000_000_000) as i64,
                ns.rem_euclid(1_000_000_000) as i64,
            )
        }
    })
}

/// Open `path` for reading; unless `follow`, a link at the name is refused (`is_link_error`).
pub(crate) fn open_read(path: &Path, follow: bool) -> io::Result<File> {
    let mut options = OpenOptions::new();
    options.read(true);
    if follow {
        return options.open(path);
    }
    let file = no_follow(&mut options, 0).open(path)?;
    let meta = file.metadata()?;
    if meta.file_type().is_symlink() {
        return Err(link_error());
    }
    if meta.file_attributes() & FILE_ATTRIBUTE_REPARSE_POINT != 0 {
        // A reparse point that is not a link (a cloud placeholder, a deduplicated file):
        // its content is what its filter gives, so it is opened through the filter.
        drop(file);
        return OpenOptions::new().read(true).open(path);
    }
    Ok(file)
}

/// Nothing to start early: the flush before publication does it all.
pub(crate) fn start_writeback(_file: &File, _offset: u64, _len: u64) {}

/// A directory, held by its path.
#[derive(Debug)]
pub(crate) struct Dir(PathBuf);

impl Dir {
    /// The directory at `path`.
    pub(crate) fn open(path: &Path) -> io::Result<Dir> {
        if fs::metadata(path)?.is_dir() {
            Ok(Dir(path.to_path_buf()))
        } else {
            Err(io::ErrorKind::NotADirectory.into())
        }
    }

    /// The directory at `path`, to look up its entries.
    pub(crate) fn open_to_stat(path: &Path) -> io::Result<Dir> {
        Dir::open(path)
    }

    /// The top of an absolute path (`C:\`) and the rest of it below.
    pub(crate) fn top(path: &Path) -> io::Result<(Dir, &Path)> {
        let mut top = PathBuf::new();
        for c in path.components() {
            match c {
                Component::Prefix(_) | Component::RootDir => top.push(c.as_os_str()),
                _ => break,
            }
        }
        let rel = path.strip_prefix(&top).unwrap_or(path);
        Ok((Dir::open(&top)?, rel))
    }

    /// Not offered (`CONTAINMENT`): `--root` is refused before anything is opened beneath it.
    pub(crate) fn open_dir_beneath(&self, _rel: &Path) -> Result<Dir, Beneath> {
        Err(Beneath::Io(io::ErrorKind::Unsupported.into()))
    }

    /// Not offered (`CONTAINMENT`).
    pub(crate) fn open_file_beneath(&self, _rel: &Path) -> Result<File, Beneath> {
        Err(Beneath::Io(io::ErrorKind::Unsupported.into()))
    }

    /// The subdirectory `name`; a link there is refused (`is_link_error`).
    pub(crate) fn child(&self, name: &OsStr) -> io::Result<Dir> {
        let path = self.0.join(name);
        let meta = fs::symlink_metadata(&path)?;
        if meta.file_type().is_symlink() {
            Err(link_error())
        } else if meta.is_dir() {
            Ok(Dir(path))
        } else {
            Err(io::ErrorKind::NotADirectory.into())
        }
    }

    /// Make the subdirectory `name`.
    pub(crate) fn mkdir(&self, name: &OsStr) -> io::Result<()> {
        fs::create_dir(self.0.join(name))
    }

    /// Whether `name` is a symbolic link (or another reparse point std reads as one).
    pub(crate) fn is_link(&self, name: &OsStr) -> bool {
        fs::symlink_metadata(self.0.join(name)).is_ok_and(|m| m.file_type().is_symlink())
    }

    /// Open the file `name` for reading; a link there is refused.
    pub(crate) fn open_file(&self, name: &OsStr) -> io::Result<File> {
        open_read(&self.0.join(name), false)
    }

    /// The metadata of `name`, a link not followed.
    pub(crate) fn stat(&self, name: &OsStr) -> io::Result<Metadata> {
        fs::symlink_metadata(self.0.join(name))
    }

    /// The modification time of `name`.
    pub(crate) fn mtime(&self, name: &OsStr, follow: bool) -> io::Result<(i64, i64)> {
        mtime(&self.0.join(name), follow)
    }

    /// Create the file `name` exclusively, write-only (no link followed).
    pub(crate) fn create_new(&self, name: &OsStr, _mode: u32) -> io::Result<File> {
        let mut options = OpenOptions::new();
        options.write(true).create_new(true);
        no_follow(&mut options, 0).open(self.0.join(name))
    }

    /// Whether `name` exists (a link is not followed).
    pub(crate) fn has(&self, name: &OsStr) -> bool {
        fs::symlink_metadata(self.0.join(name)).is_ok()
    }

    /// Remove the file `name`.
    pub(crate) fn unlink(&self, name: &OsStr) -> io::Result<()> {
        fs::remove_file(self.0.join(name))
    }

    /// Rename `from` here to `to` in `dest`, replacing it.
    pub(crate) fn rename(&self, from: &OsStr, dest: &Dir, to: &OsStr) -> io::Result<()> {
        fs::rename(self.0.join(from), dest.0.join(to))
    }

    /// Rename `from` here to `to` in `dest` unless `to` exists (`AlreadyExists`).
    pub(crate) fn rename_noreplace(&self, from: &OsStr, dest: &Dir, to: &OsStr) -> io::Result<()> {
        rename_noreplace(&self.0.join(from), &dest.0.join(to))
    }

    /// Link `from` here as `to` in `dest`, never replacing (`AlreadyExists`).
    pub(crate) fn link(&self, from: &OsStr, dest: &Dir, to: &OsStr) -> io::Result<()> {
        fs::hard_link(self.0.join(from), dest.0.join(to))
    }

    /// The directory's own metadata.
    pub(crate) fn metadata(&self) -> io::Result<Metadata> {
        fs::metadata(&self.0)
    }

    /// Flush the directory's entries where Windows lets a directory be opened for writing
    /// (`FlushFileBuffers` on its handle); where it does not, they are left to the file
    /// system's journal (NTFS writes it lazily: a rename can be lost to a power cut).
    pub(crate) fn sync(&self) -> io::Result<()> {
        let opened = OpenOptions::new()
            .write(true)
            .custom_flags(FILE_FLAG_BACKUP_SEMANTICS)
            .open(&self.0);
        match opened {
            Ok(dir) => dir.sync_all(),
            Err(_) => Ok(()),
        }
    }

    /// Not offered (`SYNCFS` is false).
    pub(crate) fn sync_fs(&self) -> io::Result<()> {
        Err(io::ErrorKind::Unsupported.into())
    }
}
