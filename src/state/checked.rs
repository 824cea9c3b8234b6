//! Checked access to the entries of the state directory: nothing in it is opened blindly.
//! Every state file (session file, lock file, undo blob) is opened `O_NOFOLLOW|O_NONBLOCK`
//! and must then be a regular file owned by the effective user with exactly one link; every
//! subdirectory (`sessions/`, `locks/`, `history/`, `history/<session>/`) must be a real
//! directory the user owns, not a symbolic link. Anything else — a FIFO planted as a session
//! file, a lock file hard-linked to a file elsewhere, a symlinked `locks/` — is
//! `state_unavailable` at once, naming the entry: never a hang, never a read or write outside
//! the state directory. Temporary files are created `O_EXCL|O_NOFOLLOW`. The top-level
//! directory's own check (owner, mode) stays with `state::Store`; `state` and `lock` open
//! their files through here.

use std::fs::{self, File, Metadata, OpenOptions};
use std::io;
use std::path::Path;

use tempfile::NamedTempFile;

use crate::error::{Error, Result, UNTRUSTED};
use crate::sys::{self, FileTypeExt, MetadataExt};

/// Open options of every state file: a link at its name is never followed (`ELOOP`), a FIFO
/// or device never blocks the open, the descriptor is not inherited, and a file it creates
/// is the user's alone (0600).
pub(crate) fn options() -> OpenOptions {
    let mut o = OpenOptions::new();
    sys::no_follow(&mut o, 0o600);
    o
}

/// Open the state file at `path` for reading and check it; `None` when there is none.
pub(crate) fn open_read(path: &Path) -> Result<Option<File>> {
    match options().read(true).open(path) {
        Ok(file) => {
            check_file(&file, path)?;
            Ok(Some(file))
        }
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(open_failed(path, e)),
    }
}

/// Open the state file at `path` to read it and append to it, and check it, with its
/// metadata; `None` when there is none. A file this user may not write (its mode) is opened
/// for reading alone (`false`): it can still be replaced whole.
pub(crate) fn open_append(path: &Path) -> Result<Option<(File, Metadata, bool)>> {
    let open = |append: bool| options().read(true).append(append).open(path);
    let (file, writable) = match open(true) {
        Ok(file) => (file, true),
        Err(e) if e.kind() == io::ErrorKind::PermissionDenied => match open(false) {
            Ok(file) => (file, false),
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(open_failed(path, e)),
        },
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(open_failed(path, e)),
    };
    let meta = check_file(&file, path)?;
    Ok(Some((file, meta, writable)))
}

/// A state file that failed to open: a symbolic link at its name (`ELOOP`) is refused as
/// untrusted, anything else is named with its error.
pub(crate) fn open_failed(path: &Path, e: io::Error) -> Error {
    if sys::is_link_error(&e) {
        return untrusted(path, "is a symbolic link");
    }
    if sys::is_no_reader_error(&e) {
        // O_WRONLY|O_NONBLOCK of a FIFO nobody reads.
        return untrusted(path, "is a FIFO, not a regular file");
    }
    Error::StateUnavailable {
        message: format!("cannot open {}: {e}", path.display()),
        path: path.to_path_buf(),
    }
}

/// Check an opened state file: a regular file, owned by the effective user, one link; its
/// metadata.
pub(crate) fn check_file(file: &File, path: &Path) -> Result<Metadata> {
    let meta = file.metadata().map_err(|e| Error::StateUnavailable {
        message: format!("cannot inspect {}: {e}", path.display()),
        path: path.to_path_buf(),
    })?;
    check_meta(&meta, path)?;
    Ok(meta)
}

/// The checks of `check_file` on metadata taken without following a link (`lstat`).
pub(crate) fn check_meta(meta: &Metadata, path: &Path) -> Result<()> {
    if !meta.file_type().is_file() {
        return Err(untrusted(
            path,
            &format!("is {}, not a regular file", kind(meta)),
        ));
    }
    check_owner(meta, path)?;
    if meta.nlink() != 1 {
        return Err(untrusted(
            path,
            &format!("has {} hard links (a state file has one)", meta.nlink()),
        ));
    }
    Ok(())
}

/// Check the subdirectory `path`: `Ok(false)` when it is not there, `Ok(true)` when it is a
/// real directory of the effective user, an error for anything else (a symbolic link to a
/// directory included).
pub(crate) fn check_dir(path: &Path) -> Result<bool> {
    let meta = match fs::symlink_metadata(path) {
        Ok(m) => m,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(false),
        Err(e) => {
            return Err(Error::StateUnavailable {
                message: format!("cannot inspect {}: {e}", path.display()),
                path: path.to_path_buf(),
            });
        }
    };
    if !meta.file_type().is_dir() {
        return Err(untrusted(
            path,
            &format!("is {}, not a directory", kind(&meta)),
        ));
    }
    check_owner(&meta, path)?;
    Ok(true)
}

/// `check_dir`, creating the directory (0700) when it is missing.
pub(crate) fn ensure_dir(path: &Path) -> Result<()> {
    if check_dir(path)? {
        return Ok(());
    }
    match sys::private_dir().create(path) {
        Ok(()) => {}
        // Created by another process a moment ago: checked below like any other.
        Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {}
        Err(e) => {
            return Err(Error::StateUnavailable {
                message: format!("cannot create {}: {e}", path.display()),
                path: path.to_path_buf(),
            });
        }
    }
    if check_dir(path)? {
        Ok(())
    } else {
        Err(Error::StateUnavailable {
            message: format!("{} vanished right after it was created", path.display()),
            path: path.to_path_buf(),
        })
    }
}

/// A new temporary file (0600) in the state subdirectory `dir`, created
/// `O_CREAT|O_EXCL|O_NOFOLLOW` under a fresh random name; removed on drop unless persisted.
pub(crate) fn temp_in(dir: &Path, prefix: &str) -> io::Result<NamedTempFile> {
    tempfile::Builder::new()
        .prefix(prefix)
        .suffix(".tmp")
        .make_in(dir, |path| {
            options().write(true).create_new(true).open(path)
        })
}

fn check_owner(meta: &Metadata, path: &Path) -> Result<()> {
    let me = sys::euid();
    if meta.uid() != me {
        return Err(untrusted(
            path,
            &format!(
                "is owned by uid {}, not by this user (uid {me})",
                meta.uid()
            ),
        ));
    }
    Ok(())
}

fn kind(meta: &Metadata) -> &'static str {
    let t = meta.file_type();
    if t.is_symlink() {
        "a symbolic link"
    } else if t.is_fifo() {
        "a FIFO"
    } else if t.is_socket() {
        "a socket"
    } else if t.is_device().is_some() {
        "a device"
    } else if t.is_dir() {
        "a directory"
    } else if t.is_file() {
        "a regular file"
    } else {
        "an unknown kind of file"
    }
}

fn untrusted(path: &Path, what: &str) -> Error {
    Error::StateUnavailable {
        message: format!("{} {what}; {UNTRUSTED}", path.display()),
        path: path.to_path_buf(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sys::testing::{self, symlink};

    fn message(e: Error) -> String {
        assert_eq!(e.kind(), "state_unavailable");
        e.to_string()
    }

    #[test]
    fn a_regular_file_of_ours_with_one_link_is_opened() {
        let dir = tempfile::tempdir().unwrap();
        let f = dir.path().join("s.json");
        assert!(open_read(&f).unwrap().is_none(), "missing is none");
        fs::write(&f, b"{}").unwrap();
        assert!(open_read(&f).unwrap().is_some());
    }

    #[test]
    fn a_fifo_a_link_and_a_hard_link_are_refused() {
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("fifo.json");
        testing::mkfifo(&fifo);
        let m = message(open_read(&fifo).unwrap_err());
        assert!(
            m.contains("is a FIFO, not a regular file") && m.contains(UNTRUSTED),
            "{m}"
        );
        let outside = dir.path().join("outside");
        fs::write(&outside, b"keep").unwrap();
        let link = dir.path().join("link.json");
        symlink(&outside, &link).unwrap();
        assert!(message(open_read(&link).unwrap_err()).contains("is a symbolic link"));
        let hard = dir.path().join("hard.json");
        fs::hard_link(&outside, &hard).unwrap();
        assert!(message(open_read(&hard).unwrap_err()).contains("has 2 hard links"));
        let sub = dir.path().join("sub");
        fs::create_dir(&sub).unwrap();
        assert!(message(open_read(&sub).unwrap_err()).contains("is a directory"));
    }

    #[test]
    fn a_file_is_opened_to_append_and_one_we_may_not_write_to_read() {
        use std::io::{Read, Write};
        let dir = tempfile::tempdir().unwrap();
        let f = dir.path().join("s.json");
        assert!(open_append(&f).unwrap().is_none(), "missing is none");
        fs::write(&f, b"one\n").unwrap();
        let (mut file, meta, writable) = open_append(&f).unwrap().unwrap();
        assert!(writable && meta.len() == 4);
        let mut first = String::new();
        file.read_to_string(&mut first).unwrap();
        assert_eq!(first, "one\n", "reads from the start");
        file.write_all(b"two\n").unwrap();
        let mut all = [0; 8];
        sys::read_exact_at(&file, &mut all, 0).unwrap();
        assert_eq!(&all, b"one\ntwo\n", "writes at the end");
        let fifo = dir.path().join("fifo.json");
        testing::mkfifo(&fifo);
        assert!(message(open_append(&fifo).unwrap_err()).contains("is a FIFO"));
        let link = dir.path().join("link.json");
        symlink(&f, &link).unwrap();
        assert!(message(open_append(&link).unwrap_err()).contains("is a symbolic link"));
        if !testing::is_root() {
            testing::set_mode(&f, 0o400);
            let (_, _, writable) = open_append(&f).unwrap().unwrap();
            assert!(!writable);
        }
    }

    #[test]
    fn subdirectories_must_be_real_directories() {
        let dir = tempfile::tempdir().unwrap();
        let sub = dir.path().join("sessions");
        assert!(!check_dir(&sub).unwrap());
        ensure_dir(&sub).unwrap();
        assert!(check_dir(&sub).unwrap());
        ensure_dir(&sub).unwrap();
        let elsewhere = dir.path().join("elsewhere");
        fs::create_dir(&elsewhere).unwrap();
        let link = dir.path().join("locks");
        symlink(&elsewhere, &link).unwrap();
        assert!(message(check_dir(&link).unwrap_err()).contains("is a symbolic link"));
        assert!(message(ensure_dir(&link).unwrap_err()).contains("not a directory"));
        let file = dir.path().join("history");
        fs::write(&file, b"").unwrap();
        assert!(message(ensure_dir(&file).unwrap_err()).contains("is a regular file"));
    }

    #[test]
    fn temporary_files_are_new_and_private() {
        let dir = tempfile::tempdir().unwrap();
        let t = temp_in(dir.path(), ".x-").unwrap();
        let name = t.path().file_name().unwrap().to_string_lossy().into_owned();
        assert!(name.starts_with(".x-") && name.ends_with(".tmp"), "{name}");
        let mode = t.as_file().metadata().unwrap().mode();
        assert_eq!(mode & 0o777, 0o600);
    }
}
