//! Atomic publication (SPEC §1.5) and the file-system primitives it is made of, each written
//! once for all of quill: new content is staged in a temporary file in the target's own
//! directory (`.<name>.quill-<random>.tmp`), flushed and fsync'ed, given the original file's
//! permission bits and owner (`copy_owner`, where the process may), then renamed over the
//! target — or, for a file that must not exist yet, published with `rename_noreplace`
//! (`renameat2 RENAME_NOREPLACE`, falling back to `link` + `unlink`) so nothing is ever
//! clobbered. The directory is fsync'ed afterwards (`sync_dir`); a failure there is a warning,
//! never a retry. Until the rename, every error or interruption removes the temporary file and
//! leaves the target as it was. This module knows nothing of sessions or locks.

use std::fs::{self, File, Metadata, Permissions};
use std::io::{self, Write};
use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};

use rustix::fs::{CWD, RenameFlags};
use rustix::io::Errno;
use tempfile::NamedTempFile;

use crate::error::{Error, Result};
use crate::signals;

/// Bytes written between two checks for Ctrl-C / SIGTERM.
const WRITE_SLICE: usize = 1024 * 1024;

/// A temporary file next to `target`, removed on drop unless committed.
pub(crate) struct Staged {
    tmp: NamedTempFile,
    target: PathBuf,
    /// The caller set the permission bits (`set_mode`): sealing keeps them.
    mode_chosen: bool,
}

/// What a commit has to tell besides success.
#[derive(Debug, Default)]
pub(crate) struct Committed {
    pub warnings: Vec<String>,
}

impl Staged {
    /// Create the temporary file in `target`'s directory, private (0600) until it is sealed:
    /// new content of a private file is never readable by others, even for a moment.
    pub(crate) fn new(target: &Path) -> Result<Staged> {
        let dir = target.parent().unwrap_or(Path::new("/"));
        let name = target
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let tmp = tempfile::Builder::new()
            .prefix(&format!(".{name}.quill-"))
            .suffix(".tmp")
            .rand_bytes(8)
            .permissions(Permissions::from_mode(0o600))
            .tempfile_in(dir)
            .map_err(|e| Error::io("create a temporary file in", dir, e))?;
        Ok(Staged {
            tmp,
            target: target.to_path_buf(),
            mode_chosen: false,
        })
    }

    #[cfg(test)]
    pub(crate) fn path(&self) -> &Path {
        self.tmp.path()
    }

    pub(crate) fn file_mut(&mut self) -> &mut File {
        self.tmp.as_file_mut()
    }

    /// Give the temporary file its final permission bits now (before any data, for a private
    /// file); a new file then keeps them instead of the umask default.
    pub(crate) fn set_mode(&mut self, mode: u32) -> Result<()> {
        self.mode_chosen = true;
        self.tmp
            .as_file()
            .set_permissions(Permissions::from_mode(mode))
            .map_err(|e| Error::io("set the permissions of", &self.target, e))
    }

    /// Write all of `bytes`, checking for interruption between slices.
    pub(crate) fn write_all(&mut self, bytes: &[u8]) -> Result<()> {
        for slice in bytes.chunks(WRITE_SLICE) {
            signals::check()?;
            self.tmp
                .as_file_mut()
                .write_all(slice)
                .map_err(|e| Error::io("write", &self.target, e))?;
        }
        Ok(())
    }

    /// fsync the content and give it `like`'s permission bits and owner (when allowed).
    fn seal(&mut self, like: Option<&Metadata>) -> Result<()> {
        signals::check()?;
        let file = self.tmp.as_file_mut();
        if let Some(meta) = like {
            copy_owner(file, meta);
            file.set_permissions(Permissions::from_mode(meta.mode() & 0o7777))
                .map_err(|e| Error::io("set the permissions of", &self.target, e))?;
        } else if !self.mode_chosen {
            // A new file gets what open(2) would give it: 0666 less the umask.
            file.set_permissions(Permissions::from_mode(0o666 & !umask()))
                .map_err(|e| Error::io("set the permissions of", &self.target, e))?;
        }
        file.sync_all()
            .map_err(|e| Error::io("fsync", &self.target, e))?;
        signals::check()
    }

    /// Replace the existing target (keeping `like`'s permissions), then fsync the directory.
    pub(crate) fn commit_replace(mut self, like: &Metadata) -> Result<Committed> {
        self.seal(Some(like))?;
        fs::rename(self.tmp.path(), &self.target)
            .map_err(|e| Error::io("rename over", &self.target, e))?;
        self.finish()
    }

    /// Publish a file that must not exist yet: `create_conflict` if someone created it first.
    pub(crate) fn commit_new(self) -> Result<Committed> {
        self.commit_new_with(rename_noreplace)
    }

    /// `commit_new` through `publish` (`rename_noreplace`, or its link fallback alone in tests).
    fn commit_new_with(
        mut self,
        publish: fn(&Path, &Path) -> Result<NoReplace, NoReplaceError>,
    ) -> Result<Committed> {
        self.seal(None)?;
        match publish(self.tmp.path(), &self.target) {
            // After a link the temporary name was unlinked (a failure there leaves a stray
            // name, as a crash would; the drop guard below never touches it again).
            Ok(_) => self.finish(),
            Err(NoReplaceError::Exists) => Err(Error::CreateConflict {
                path: self.target.clone(),
            }),
            Err(NoReplaceError::Rename(e)) => Err(Error::io("rename to", &self.target, e)),
            Err(NoReplaceError::Link(e)) => Err(Error::io("link", &self.target, e)),
        }
    }

    fn finish(self) -> Result<Committed> {
        // The temporary name no longer exists: stop the drop guard from touching the path.
        let target = self.target.clone();
        let _ = self.tmp.into_temp_path().keep();
        Ok(sync_dir(&target))
    }
}

/// The process umask, read from /proc (reading it with umask(2) would change it).
pub(crate) fn umask() -> u32 {
    fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find_map(|l| l.strip_prefix("Umask:"))
                .and_then(|v| u32::from_str_radix(v.trim(), 8).ok())
        })
        .unwrap_or(0o022)
}

/// Give `file` the owner of `like` (uid and gid). Only root (or the owner, for its own
/// groups) may; otherwise the file silently keeps ours. Always attempted, even when the ids
/// already look like ours: a file created in a set-group-ID directory has that directory's
/// group, not ours. Call it before setting the mode: chown clears set-id bits.
pub(crate) fn copy_owner(file: &File, like: &Metadata) {
    let _ = rustix::fs::fchown(
        file,
        Some(rustix::fs::Uid::from_raw(like.uid())),
        Some(rustix::fs::Gid::from_raw(like.gid())),
    );
}

/// How `rename_noreplace` published.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum NoReplace {
    /// One `renameat2(RENAME_NOREPLACE)`.
    Renamed,
    /// The fallback: `link` then `unlink` of the old name. `unlinked` is the unlink's error,
    /// if any (the new name exists either way).
    Linked { unlinked: Option<String> },
}

/// Why `rename_noreplace` did not publish.
#[derive(Debug)]
pub(crate) enum NoReplaceError {
    /// The new name exists: nothing was changed.
    Exists,
    /// The rename failed (e.g. `EXDEV`): nothing was changed.
    Rename(io::Error),
    /// The link fallback failed (no hard links here, another mount): nothing was changed.
    Link(io::Error),
}

/// Give `from` the name `to` unless `to` exists — never replacing anything, even a name
/// created a moment before. Filesystems without `RENAME_NOREPLACE` (`EINVAL`, `ENOSYS`,
/// `ENOTSUP`) get `link_noreplace`.
pub(crate) fn rename_noreplace(from: &Path, to: &Path) -> Result<NoReplace, NoReplaceError> {
    match rustix::fs::renameat_with(CWD, from, CWD, to, RenameFlags::NOREPLACE) {
        Ok(()) => Ok(NoReplace::Renamed),
        Err(Errno::EXIST) => Err(NoReplaceError::Exists),
        Err(Errno::INVAL | Errno::NOSYS | Errno::NOTSUP) => link_noreplace(from, to),
        Err(e) => Err(NoReplaceError::Rename(io::Error::from(e))),
    }
}

/// The fallback of `rename_noreplace`, callable alone: `link(2)` never replaces either; the
/// old name is unlinked afterwards.
pub(crate) fn link_noreplace(from: &Path, to: &Path) -> Result<NoReplace, NoReplaceError> {
    match fs::hard_link(from, to) {
        Ok(()) => Ok(NoReplace::Linked {
            unlinked: fs::remove_file(from).err().map(|e| e.to_string()),
        }),
        Err(e) if e.kind() == io::ErrorKind::AlreadyExists => Err(NoReplaceError::Exists),
        Err(e) => Err(NoReplaceError::Link(e)),
    }
}

/// fsync the directory holding `target`, after a rename, link or unlink in it; a failure is a
/// warning ("committed, durability unconfirmed"), never an error: the change has happened.
pub(crate) fn sync_dir(target: &Path) -> Committed {
    let dir = target.parent().unwrap_or(Path::new("/"));
    let mut c = Committed::default();
    if let Err(e) = fsync_dir(dir) {
        c.warnings.push(format!(
            "committed, durability unconfirmed: fsync of {} failed: {e}",
            dir.display()
        ));
    }
    c
}

/// fsync a directory (opened read-only: a directory cannot be opened for writing).
fn fsync_dir(dir: &Path) -> io::Result<()> {
    File::open(dir)?.sync_all()
}

/// Create missing parent directories of `target` (mode 0777 less the umask).
pub(crate) fn create_parents(target: &Path) -> Result<()> {
    if let Some(dir) = target.parent().filter(|d| !d.exists()) {
        fs::create_dir_all(dir).map_err(|e| Error::io("create the directory", dir, e))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replace_keeps_mode_and_leaves_no_temp() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("f.txt");
        fs::write(&target, b"old").unwrap();
        fs::set_permissions(&target, Permissions::from_mode(0o640)).unwrap();
        let meta = fs::metadata(&target).unwrap();
        let mut s = Staged::new(&target).unwrap();
        s.write_all(b"new").unwrap();
        s.commit_replace(&meta).unwrap();
        assert_eq!(fs::read(&target).unwrap(), b"new");
        assert_eq!(fs::metadata(&target).unwrap().mode() & 0o777, 0o640);
        assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 1);
    }

    #[test]
    fn commit_new_never_clobbers() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("f.txt");
        fs::write(&target, b"theirs").unwrap();
        let mut s = Staged::new(&target).unwrap();
        s.write_all(b"ours").unwrap();
        assert_eq!(s.commit_new().unwrap_err().kind(), "create_conflict");
        assert_eq!(fs::read(&target).unwrap(), b"theirs");
        assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 1);
    }

    fn umask_now() -> u32 {
        // SAFETY: umask(2) only swaps the process mask; it is put back at once.
        let old = unsafe { libc::umask(0o022) };
        unsafe { libc::umask(old) };
        old as u32
    }

    #[test]
    fn umask_is_the_process_umask() {
        assert_eq!(umask(), umask_now());
    }

    #[test]
    fn a_new_file_gets_the_umask_default_or_the_chosen_mode() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("new.txt");
        let mut s = Staged::new(&target).unwrap();
        s.write_all(b"x").unwrap();
        s.commit_new().unwrap();
        assert_eq!(
            fs::metadata(&target).unwrap().mode() & 0o7777,
            0o666 & !umask_now()
        );
        let chosen = dir.path().join("chosen.txt");
        let mut s = Staged::new(&chosen).unwrap();
        s.set_mode(0o604).unwrap();
        s.write_all(b"x").unwrap();
        s.commit_new().unwrap();
        assert_eq!(fs::metadata(&chosen).unwrap().mode() & 0o7777, 0o604);
        assert_eq!(fs::read(&chosen).unwrap(), b"x");
    }

    #[test]
    fn big_content_is_written_whole() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("big");
        let data: Vec<u8> = (0..WRITE_SLICE * 2 + 3).map(|i| (i % 251) as u8).collect();
        let mut s = Staged::new(&target).unwrap();
        s.write_all(&data).unwrap();
        s.commit_new().unwrap();
        assert_eq!(fs::read(&target).unwrap(), data);
    }

    #[test]
    fn rename_noreplace_renames_or_refuses() {
        let dir = tempfile::tempdir().unwrap();
        let (a, b) = (dir.path().join("a"), dir.path().join("b"));
        fs::write(&a, b"A").unwrap();
        assert_eq!(rename_noreplace(&a, &b).unwrap(), NoReplace::Renamed);
        assert_eq!(fs::read(&b).unwrap(), b"A");
        fs::write(&a, b"A2").unwrap();
        assert!(matches!(
            rename_noreplace(&a, &b),
            Err(NoReplaceError::Exists)
        ));
        assert_eq!(fs::read(&b).unwrap(), b"A");
        let missing = dir.path().join("no/such");
        assert!(matches!(
            rename_noreplace(&missing, &dir.path().join("c")),
            Err(NoReplaceError::Rename(_))
        ));
    }

    /// The fallback for file systems without RENAME_NOREPLACE, forced.
    #[test]
    fn link_fallback_publishes_or_refuses() {
        let dir = tempfile::tempdir().unwrap();
        let (a, b) = (dir.path().join("a"), dir.path().join("b"));
        fs::write(&a, b"A").unwrap();
        assert_eq!(
            link_noreplace(&a, &b).unwrap(),
            NoReplace::Linked { unlinked: None }
        );
        assert!(!a.exists(), "the old name is unlinked");
        assert_eq!(fs::read(&b).unwrap(), b"A");
        fs::write(&a, b"A2").unwrap();
        assert!(matches!(
            link_noreplace(&a, &b),
            Err(NoReplaceError::Exists)
        ));
        assert_eq!(
            (fs::read(&a).unwrap(), fs::read(&b).unwrap()),
            (b"A2".to_vec(), b"A".to_vec())
        );
        assert!(matches!(
            link_noreplace(&a, &dir.path().join("no/such")),
            Err(NoReplaceError::Link(_))
        ));
    }

    #[test]
    fn commit_new_through_the_link_fallback() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("f.txt");
        let mut s = Staged::new(&target).unwrap();
        s.write_all(b"ours").unwrap();
        s.commit_new_with(link_noreplace).unwrap();
        assert_eq!(fs::read(&target).unwrap(), b"ours");
        assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 1);
        let mut s = Staged::new(&target).unwrap();
        s.write_all(b"again").unwrap();
        let e = s.commit_new_with(link_noreplace).unwrap_err();
        assert_eq!(e.kind(), "create_conflict");
        assert_eq!(fs::read(&target).unwrap(), b"ours");
        assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 1);
    }

    fn is_root() -> bool {
        rustix::process::geteuid().is_root()
    }

    /// The replacement keeps the original's owner (as root, who may give it).
    #[test]
    #[ignore = "needs root (chown to other users)"]
    fn replace_keeps_the_owner() {
        assert!(is_root(), "this test must run as root; CI runs it as root");
        let dir = tempfile::tempdir().unwrap();
        for (uid, gid) in [(65534, 65534), (65534, 0), (0, 65534)] {
            let target = dir.path().join(format!("f-{uid}-{gid}"));
            fs::write(&target, b"old").unwrap();
            std::os::unix::fs::chown(&target, Some(uid), Some(gid)).unwrap();
            let meta = fs::metadata(&target).unwrap();
            let mut s = Staged::new(&target).unwrap();
            s.write_all(b"new").unwrap();
            s.commit_replace(&meta).unwrap();
            let after = fs::metadata(&target).unwrap();
            assert_eq!((after.uid(), after.gid()), (uid, gid));
            assert_eq!(fs::read(&target).unwrap(), b"new");
        }
    }

    #[test]
    fn a_failed_directory_fsync_is_a_warning() {
        let c = sync_dir(Path::new("/nonexistent-quill-dir/f"));
        assert_eq!(c.warnings.len(), 1);
        assert!(
            c.warnings[0].starts_with(
                "committed, durability unconfirmed: fsync of /nonexistent-quill-dir failed"
            ),
            "{:?}",
            c.warnings
        );
        let dir = tempfile::tempdir().unwrap();
        assert!(sync_dir(&dir.path().join("f")).warnings.is_empty());
        assert!(fsync_dir(dir.path()).is_ok());
        assert!(fsync_dir(Path::new("/nonexistent-quill-dir")).is_err());
    }

    #[test]
    fn create_parents_creates_only_what_is_missing() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("a/b/c/f.txt");
        create_parents(&target).unwrap();
        assert!(dir.path().join("a/b/c").is_dir());
        create_parents(&target).unwrap();
        create_parents(&dir.path().join("g")).unwrap();
    }

    #[test]
    fn dropped_stage_removes_its_temp() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("f.txt");
        let mut s = Staged::new(&target).unwrap();
        s.write_all(b"x").unwrap();
        let name = s.path().file_name().unwrap().to_string_lossy().into_owned();
        assert!(
            name.starts_with(".f.txt.quill-") && name.ends_with(".tmp"),
            "{name}"
        );
        drop(s);
        assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 0);
    }
}
