//! The platform layer: every call whose form or existence depends on the operating system,
//! each behind one name with the same meaning everywhere, so no other module asks which
//! system it runs on (nothing outside `src/sys/` names `libc`, `rustix` or `std::os`).
//!
//! - `unix/` (Linux and macOS): directories held open as descriptors and every name resolved
//!   from them (`openat`, `renameat2`/`linkat`, `mkdirat`); Linux adds `openat2`, `O_PATH`,
//!   `syncfs`, `sync_file_range`; macOS walks instead of `openat2`, flushes with `F_FULLFSYNC`.
//! - `windows.rs`: directories held by path (Windows has no descriptor-relative calls in its
//!   standard library), so containment beneath a root cannot be guaranteed and `--root` is
//!   refused (`CONTAINMENT`); no file identity, owners or Unix modes on stable Rust; no FIFOs.
//!
//! What differs is written in the README's Platforms section.

use std::io;

#[cfg(unix)]
mod unix;
#[cfg(unix)]
use unix as imp;
#[cfg(windows)]
mod windows;
#[cfg(windows)]
use windows as imp;

#[cfg(all(test, unix))]
pub(crate) use imp::testing;

pub(crate) use imp::{
    CONTAINMENT, Dir, IDENTITY, SYNCFS, arg_bytes, await_writer, canonicalize, copy_owner, euid,
    homeless_state_dir, is_cross_device_error, is_link_error, is_missing_dir_error,
    is_no_reader_error, mtime, no_follow, not_permitted, open_read, os_bytes, os_str, os_string,
    private_dir, read_at, read_exact_at, rename_noreplace, set_mode, start_writeback,
    stdin_is_pipeline, stdin_ready, system_state_dir, umask, write_all_at,
};

#[cfg(feature = "mcp")]
pub(crate) use imp::path_of_uri;

/// Whether the byte `b` of a path separates its components (`/`; also `\\` where it does).
pub(crate) fn is_separator_byte(b: u8) -> bool {
    b.is_ascii() && std::path::is_separator(b as char)
}

/// Why an open beneath a directory (`Dir::open_dir_beneath`, `Dir::open_file_beneath`) failed.
#[derive(Debug)]
#[cfg_attr(not(unix), allow(dead_code))] // Only Unix opens beneath a directory.
pub(crate) enum Beneath {
    /// The path leads out of the directory (`..`, an absolute link, a link that climbs out).
    Outside,
    /// The system cannot open beneath in one call: the caller walks one component at a time.
    Walk,
    /// Any other failure (a missing component is `NotFound`, a final link `is_link_error`).
    Io(io::Error),
}

/// What Unix metadata says that std's portable `Metadata` does not, with the same names as
/// std's Unix `MetadataExt`. Where a system has no such thing (Windows): device and inode 0,
/// one link, uid and gid 0, a mode made of the file type and the read-only flag.
pub(crate) trait MetadataExt {
    fn dev(&self) -> u64;
    fn ino(&self) -> u64;
    fn nlink(&self) -> u64;
    fn mode(&self) -> u32;
    fn uid(&self) -> u32;
    fn size(&self) -> u64;
    /// Modification time in nanoseconds since the Unix epoch.
    fn mtime_ns(&self) -> i128;
    /// Status change time (Windows: creation time) in nanoseconds since the Unix epoch.
    fn ctime_ns(&self) -> i128;
}

/// The special file types (none on Windows).
pub(crate) trait FileTypeExt {
    fn is_fifo(&self) -> bool;
    fn is_socket(&self) -> bool;
    /// "character device" or "block device".
    fn is_device(&self) -> Option<&'static str>;
}
