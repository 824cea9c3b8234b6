//! Atomic publication (docs/model.md), every step relative to the target's held parent directory
//! (`parent::Parent`): new content is staged in a temporary file in the target's own directory
//! (`.<name>.quill-<random>.tmp`, created with `O_CREAT|O_EXCL|O_NOFOLLOW`), flushed and
//! fsync'ed, given the original file's permission bits and owner (`copy_owner`, where the
//! process may), then renamed over the target — or, for a file that must not exist yet,
//! published with `Parent::rename_noreplace` (`renameat2 RENAME_NOREPLACE`, falling back to
//! `linkat` + `unlinkat`) so nothing is ever clobbered. The directory is fsync'ed afterwards; a
//! failure there is a warning, never a retry. Until the rename, every error or interruption
//! removes the temporary file and leaves the target as it was. This module knows nothing of
//! sessions or locks.

use std::ffi::OsString;
use std::fs::{File, Metadata};
use std::io::{self, Write};
use std::path::Path;

use crate::error::{Error, Result};
use crate::guard::parent::{NoReplace, NoReplaceError, Parent};
use crate::signals;
use crate::sys::{self, MetadataExt};
use crate::warnings::{Warning, WarningKind};

/// Bytes written between two checks for Ctrl-C / SIGTERM.
const WRITE_SLICE: usize = 1024 * 1024;

/// The longest part of the target's name kept in a temporary name (names are at most 255 bytes).
const NAME_KEPT: usize = 200;

/// A temporary file in `parent`'s directory, removed on drop unless published.
pub(crate) struct Staged<'p> {
    parent: &'p Parent,
    file: File,
    /// The temporary file's name in the directory.
    name: OsString,
    published: bool,
    /// The caller set the permission bits (`set_mode`): sealing keeps them.
    mode_chosen: bool,
}

/// What a commit has to tell besides success.
#[derive(Debug)]
pub(crate) struct Committed {
    pub warnings: Vec<Warning>,
    /// The published file's metadata, from its descriptor (never from its path, which another
    /// process may already have changed: a change that landed is never reported as failed).
    pub meta: Metadata,
}

impl<'p> Staged<'p> {
    /// Create the temporary file in `parent`'s directory, private (0600) until it is sealed:
    /// new content of a private file is never readable by others, even for a moment.
    pub(crate) fn new(parent: &'p Parent) -> Result<Staged<'p>> {
        let base = sys::os_bytes(parent.name());
        let base = &base[..base.len().min(NAME_KEPT)];
        let mut last = None;
        for _ in 0..32 {
            let mut name = Vec::with_capacity(base.len() + 20);
            name.push(b'.');
            name.extend_from_slice(base);
            name.extend_from_slice(b".quill-");
            name.extend((0..8).map(|_| fastrand::alphanumeric() as u8));
            name.extend_from_slice(b".tmp");
            let name = sys::os_string(name);
            match parent.create_exclusive(&name, 0o600) {
                Ok(file) => {
                    return Ok(Staged {
                        parent,
                        file,
                        name,
                        published: false,
                        mode_chosen: false,
                    });
                }
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists => last = Some(e),
                Err(e) => {
                    return Err(Error::io(
                        "create a temporary file in",
                        parent.dir_path(),
                        e,
                    ));
                }
            }
        }
        Err(Error::io(
            "create a temporary file in",
            parent.dir_path(),
            last.unwrap_or_else(|| io::Error::from(io::ErrorKind::AlreadyExists)),
        ))
    }

    /// Create the temporary file under a name the caller chose (a transaction's, recorded in
    /// its journal before the file exists: a crash can then always find it).
    pub(crate) fn with_name(parent: &'p Parent, name: OsString) -> Result<Staged<'p>> {
        let file = parent
            .create_exclusive(&name, 0o600)
            .map_err(|e| Error::io("create a temporary file in", parent.dir_path(), e))?;
        Ok(Staged {
            parent,
            file,
            name,
            published: false,
            mode_chosen: false,
        })
    }

    /// The name a transaction gives its temporary file `n` in `parent`'s directory:
    /// `.<name>.quill-<id>-<n>.tmp`.
    pub(crate) fn txn_name(parent: &Parent, id: &str, n: usize) -> OsString {
        let base = sys::os_bytes(parent.name());
        let base = &base[..base.len().min(NAME_KEPT)];
        let mut name = Vec::with_capacity(base.len() + id.len() + 16);
        name.push(b'.');
        name.extend_from_slice(base);
        name.extend_from_slice(format!(".quill-{id}-{n}.tmp").as_bytes());
        sys::os_string(name)
    }

    /// Seal the content now (fsync, and `like`'s permission bits and owner): a transaction
    /// seals every file before it renames any. With `fsync: false` the caller makes the
    /// content durable itself (`Parent::sync_fs`, one for many files).
    pub(crate) fn seal_now(&mut self, like: Option<&Metadata>, fsync: bool) -> Result<()> {
        if fsync {
            return self.seal(like);
        }
        self.set_owner_and_mode(like)
    }

    /// Rename the sealed file into place — over the target, or (`replace: false`) only where
    /// nothing is — without the directory fsync, which a transaction does once per directory.
    /// Returns the published file's metadata.
    pub(crate) fn rename_sealed(mut self, replace: bool) -> Result<Metadata> {
        if replace {
            self.parent
                .rename_over(&self.name)
                .map_err(|e| Error::io("rename over", self.parent.target(), e))?;
        } else {
            match self.parent.rename_noreplace(&self.name) {
                Ok(_) => {}
                Err(NoReplaceError::Exists) => {
                    return Err(Error::CreateConflict {
                        path: self.target().to_path_buf(),
                    });
                }
                Err(NoReplaceError::Rename(e)) => {
                    return Err(Error::io("rename to", self.target(), e));
                }
                Err(NoReplaceError::Link(e)) => return Err(Error::io("link", self.target(), e)),
            }
        }
        self.published = true;
        self.file
            .metadata()
            .map_err(|e| Error::io("inspect", self.parent.target(), e))
    }

    /// Keep the temporary file whatever happens from here on (a transaction past its commit
    /// point: recovery renames it).
    pub(crate) fn keep(mut self) {
        self.published = true;
    }

    #[cfg(test)]
    pub(crate) fn name(&self) -> &std::ffi::OsStr {
        &self.name
    }

    pub(crate) fn target(&self) -> &Path {
        self.parent.target()
    }

    pub(crate) fn file_mut(&mut self) -> &mut File {
        &mut self.file
    }

    /// Give the temporary file its final permission bits now (before any data, for a private
    /// file); a new file then keeps them instead of the umask default.
    pub(crate) fn set_mode(&mut self, mode: u32) -> Result<()> {
        self.mode_chosen = true;
        sys::set_mode(&self.file, mode)
            .map_err(|e| Error::io("set the permissions of", self.parent.target(), e))
    }

    /// Write all of `bytes`, checking for interruption between slices.
    pub(crate) fn write_all(&mut self, bytes: &[u8]) -> Result<()> {
        for slice in bytes.chunks(WRITE_SLICE) {
            signals::check()?;
            self.file
                .write_all(slice)
                .map_err(|e| Error::io("write", self.parent.target(), e))?;
        }
        Ok(())
    }

    /// fsync the content and give it `like`'s permission bits and owner (when allowed).
    fn seal(&mut self, like: Option<&Metadata>) -> Result<()> {
        self.set_owner_and_mode(like)?;
        let target = self.parent.target();
        self.file
            .sync_all()
            .map_err(|e| Error::io("fsync", target, e))?;
        signals::check()
    }

    /// `like`'s owner and permission bits, or a new file's.
    fn set_owner_and_mode(&mut self, like: Option<&Metadata>) -> Result<()> {
        signals::check()?;
        let target = self.parent.target();
        if let Some(meta) = like {
            sys::copy_owner(&self.file, meta);
            sys::set_mode(&self.file, meta.mode() & 0o7777)
                .map_err(|e| Error::io("set the permissions of", target, e))?;
        } else if !self.mode_chosen {
            // A new file gets what open(2) would give it: 0666 less the umask.
            sys::set_mode(&self.file, 0o666 & !sys::umask())
                .map_err(|e| Error::io("set the permissions of", target, e))?;
        }
        Ok(())
    }

    /// Replace the existing target (keeping `like`'s permissions), then fsync the directory.
    pub(crate) fn commit_replace(mut self, like: &Metadata) -> Result<Committed> {
        self.seal(Some(like))?;
        self.parent
            .rename_over(&self.name)
            .map_err(|e| Error::io("rename over", self.parent.target(), e))?;
        self.finish()
    }

    /// Publish a file that must not exist yet: `create_conflict` if someone created it first.
    pub(crate) fn commit_new(self) -> Result<Committed> {
        self.commit_new_with(Parent::rename_noreplace)
    }

    /// `commit_new` through `publish` (`rename_noreplace`, or its link fallback alone in tests).
    fn commit_new_with(
        mut self,
        publish: fn(&Parent, &std::ffi::OsStr) -> Result<NoReplace, NoReplaceError>,
    ) -> Result<Committed> {
        self.seal(None)?;
        match publish(self.parent, &self.name) {
            // After a link the temporary name was unlinked (a failure there leaves a stray
            // name, as a crash would; the drop guard below never touches it again).
            Ok(_) => self.finish(),
            Err(NoReplaceError::Exists) => Err(Error::CreateConflict {
                path: self.target().to_path_buf(),
            }),
            Err(NoReplaceError::Rename(e)) => Err(Error::io("rename to", self.target(), e)),
            Err(NoReplaceError::Link(e)) => Err(Error::io("link", self.target(), e)),
        }
    }

    fn finish(mut self) -> Result<Committed> {
        // The temporary name no longer exists: the drop guard must not touch it.
        self.published = true;
        let mut warnings = sync_dir(self.parent);
        // The descriptor is the published file: its metadata, whatever the path names now.
        let meta = match self.file.metadata() {
            Ok(meta) => meta,
            Err(e) => {
                // fstat of an open descriptor does not fail in practice; the directory's
                // metadata stands in rather than turning a landed change into an error.
                warnings.push(Warning::new(
                    WarningKind::MetadataUnavailable,
                    format!("committed, but its metadata could not be read: {e}"),
                ));
                self.parent
                    .dir_metadata()
                    .map_err(|_| Error::io("inspect", self.parent.target(), e))?
            }
        };
        Ok(Committed { warnings, meta })
    }
}

impl Drop for Staged<'_> {
    fn drop(&mut self) {
        if !self.published {
            let _ = self.parent.unlink(&self.name);
        }
    }
}

/// fsync `parent`'s directory after a rename, link or unlink in it; a failure is a warning
/// ("committed, durability unconfirmed"), never an error: the change has happened.
pub(crate) fn sync_dir(parent: &Parent) -> Vec<Warning> {
    match parent.sync() {
        Ok(()) => Vec::new(),
        Err(e) => vec![Warning::new(
            WarningKind::DurabilityUnconfirmed,
            format!(
                "committed, durability unconfirmed: fsync of {} failed: {e}",
                parent.dir_path().display()
            ),
        )],
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::guard::parent::Parents;
    use crate::sys::testing;
    use std::fs;

    fn parent_of(target: &Path) -> Parent {
        Parent::open(None, target, Parents::Existing).unwrap()
    }

    #[test]
    fn replace_keeps_mode_and_leaves_no_temp() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("f.txt");
        fs::write(&target, b"old").unwrap();
        testing::set_mode(&target, 0o640);
        let meta = fs::metadata(&target).unwrap();
        let p = parent_of(&target);
        let mut s = Staged::new(&p).unwrap();
        s.write_all(b"new").unwrap();
        let c = s.commit_replace(&meta).unwrap();
        assert_eq!(fs::read(&target).unwrap(), b"new");
        assert_eq!(fs::metadata(&target).unwrap().mode() & 0o777, 0o640);
        assert_eq!(c.meta.ino(), fs::metadata(&target).unwrap().ino());
        assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 1);
    }

    #[test]
    fn commit_new_never_clobbers() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("f.txt");
        fs::write(&target, b"theirs").unwrap();
        let p = parent_of(&target);
        let mut s = Staged::new(&p).unwrap();
        s.write_all(b"ours").unwrap();
        assert_eq!(s.commit_new().unwrap_err().kind(), "create_conflict");
        assert_eq!(fs::read(&target).unwrap(), b"theirs");
        assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 1);
    }

    #[test]
    fn a_new_file_gets_the_umask_default_or_the_chosen_mode() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("new.txt");
        let p = parent_of(&target);
        let mut s = Staged::new(&p).unwrap();
        s.write_all(b"x").unwrap();
        s.commit_new().unwrap();
        assert_eq!(
            fs::metadata(&target).unwrap().mode() & 0o7777,
            0o666 & !testing::umask_now()
        );
        let chosen = dir.path().join("chosen.txt");
        let p = parent_of(&chosen);
        let mut s = Staged::new(&p).unwrap();
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
        let p = parent_of(&target);
        let mut s = Staged::new(&p).unwrap();
        s.write_all(&data).unwrap();
        s.commit_new().unwrap();
        assert_eq!(fs::read(&target).unwrap(), data);
    }

    #[test]
    fn rename_noreplace_renames_or_refuses() {
        let dir = tempfile::tempdir().unwrap();
        let a = std::ffi::OsStr::new("a");
        fs::write(dir.path().join("a"), b"A").unwrap();
        let b = parent_of(&dir.path().join("b"));
        assert_eq!(b.rename_noreplace(a).unwrap(), NoReplace::Renamed);
        assert_eq!(fs::read(dir.path().join("b")).unwrap(), b"A");
        fs::write(dir.path().join("a"), b"A2").unwrap();
        assert!(matches!(b.rename_noreplace(a), Err(NoReplaceError::Exists)));
        assert_eq!(fs::read(dir.path().join("b")).unwrap(), b"A");
        let c = parent_of(&dir.path().join("c"));
        assert!(matches!(
            c.rename_noreplace(std::ffi::OsStr::new("missing")),
            Err(NoReplaceError::Rename(_))
        ));
    }

    /// The fallback for file systems without RENAME_NOREPLACE, forced.
    #[test]
    fn link_fallback_publishes_or_refuses() {
        let dir = tempfile::tempdir().unwrap();
        let a = std::ffi::OsStr::new("a");
        fs::write(dir.path().join("a"), b"A").unwrap();
        let b = parent_of(&dir.path().join("b"));
        assert_eq!(
            b.link_noreplace(&b, a).unwrap(),
            NoReplace::Linked { unlinked: None }
        );
        assert!(!dir.path().join("a").exists(), "the old name is unlinked");
        assert_eq!(fs::read(dir.path().join("b")).unwrap(), b"A");
        fs::write(dir.path().join("a"), b"A2").unwrap();
        assert!(matches!(
            b.link_noreplace(&b, a),
            Err(NoReplaceError::Exists)
        ));
        assert_eq!(
            (
                fs::read(dir.path().join("a")).unwrap(),
                fs::read(dir.path().join("b")).unwrap()
            ),
            (b"A2".to_vec(), b"A".to_vec())
        );
        assert!(matches!(
            b.link_noreplace(&b, std::ffi::OsStr::new("missing")),
            Err(NoReplaceError::Link(_))
        ));
    }

    fn link_only(p: &Parent, from: &std::ffi::OsStr) -> Result<NoReplace, NoReplaceError> {
        p.link_noreplace(p, from)
    }

    #[test]
    fn commit_new_through_the_link_fallback() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("f.txt");
        let p = parent_of(&target);
        let mut s = Staged::new(&p).unwrap();
        s.write_all(b"ours").unwrap();
        s.commit_new_with(link_only).unwrap();
        assert_eq!(fs::read(&target).unwrap(), b"ours");
        assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 1);
        let mut s = Staged::new(&p).unwrap();
        s.write_all(b"again").unwrap();
        let e = s.commit_new_with(link_only).unwrap_err();
        assert_eq!(e.kind(), "create_conflict");
        assert_eq!(fs::read(&target).unwrap(), b"ours");
        assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 1);
    }

    fn is_root() -> bool {
        testing::is_root()
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
            testing::chown(&target, uid, Some(gid));
            let meta = fs::metadata(&target).unwrap();
            let p = parent_of(&target);
            let mut s = Staged::new(&p).unwrap();
            s.write_all(b"new").unwrap();
            s.commit_replace(&meta).unwrap();
            assert_eq!(testing::owner(&target), (uid, gid));
            assert_eq!(fs::read(&target).unwrap(), b"new");
        }
    }

    #[test]
    fn dropped_stage_removes_its_temp() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("f.txt");
        let p = parent_of(&target);
        let mut s = Staged::new(&p).unwrap();
        s.write_all(b"x").unwrap();
        let name = s.name().to_string_lossy().into_owned();
        assert!(
            name.starts_with(".f.txt.quill-") && name.ends_with(".tmp"),
            "{name}"
        );
        drop(s);
        assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 0);
    }

    #[test]
    fn a_long_name_gets_a_temporary_name_that_fits() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("n".repeat(255));
        let p = parent_of(&target);
        let mut s = Staged::new(&p).unwrap();
        s.write_all(b"x").unwrap();
        s.commit_new().unwrap();
        assert_eq!(fs::read(&target).unwrap(), b"x");
    }
}
