//! The directory a change lands in, held open. A mutation resolves its target once
//! (`paths::resolve`), then opens the target's **parent directory** once — under `--root` with
//! `openat2(RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS)` from the root's descriptor — and from then
//! on names every file relative to that descriptor: the read of the current version, the
//! temporary file (`openat(O_CREAT|O_EXCL|O_NOFOLLOW)`), the publication (`renameat`,
//! `renameat2(RENAME_NOREPLACE)` or `linkat`), a removal (`unlinkat`) and the directory fsync.
//! A directory swapped for a symbolic link after the resolution can therefore not redirect any
//! of them: the descriptor is the directory that was inside the root when it was opened, wherever
//! it has been renamed to since. Missing parents are created the same way, one `mkdirat` at a
//! time under a descriptor opened beneath the root. Where `openat2` is missing (Linux before
//! 5.6, or a seccomp filter that hides it), the parent is opened one component at a time with
//! `openat(O_DIRECTORY|O_NOFOLLOW)` from the root's descriptor — every component of a resolved
//! path is a real directory, so a link met on the way is a swap, and refused — which gives the
//! same guarantee. Without `--root`, the same descriptors are used (the change lands in the
//! directory that was checked), with no containment to keep.

use std::ffi::{OsStr, OsString};
use std::fs::{File, Metadata};
use std::io;
use std::path::{Path, PathBuf};

use crate::error::{Error, Result};
use crate::fs::paths::Root;
use crate::fs::probe::{self, dir_error, walk};
use crate::sys::{self, Beneath, Dir};

/// Whether missing parent directories are created.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Parents {
    /// They must exist (`not_found` otherwise).
    Existing,
    /// Create what is missing (mode 0777 less the umask).
    Create,
}

/// A target file named by its parent directory's descriptor and its name in it.
#[derive(Debug)]
pub(crate) struct Parent {
    dir: Dir,
    /// The directory's path, for messages.
    dir_path: PathBuf,
    name: OsString,
    /// The target's resolved path, for messages and state keys.
    target: PathBuf,
}

/// How `rename_noreplace` published.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum NoReplace {
    /// One `renameat2(RENAME_NOREPLACE)`.
    Renamed,
    /// The fallback: `linkat` then `unlinkat` of the old name. `unlinked` is the unlink's
    /// error, if any (the new name exists either way).
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

impl Parent {
    /// Open the parent directory of `target` (a path from `paths::resolve`), beneath `root`
    /// when there is one.
    pub(crate) fn open(root: Option<&Root>, target: &Path, parents: Parents) -> Result<Parent> {
        let (Some(dir_path), Some(name)) = (target.parent(), target.file_name()) else {
            return Err(Error::IsDirectory {
                path: target.to_path_buf(),
            });
        };
        let dir = match root {
            Some(root) => {
                if target == root.dir {
                    return Err(Error::IsDirectory {
                        path: target.to_path_buf(),
                    });
                }
                let rel = dir_path
                    .strip_prefix(&root.dir)
                    .map_err(|_| outside(root, target))?;
                open_beneath(root, rel, dir_path, parents).map_err(|e| match e {
                    Error::OutsideRoot { .. } => outside(root, target),
                    other => other,
                })?
            }
            None => open_plain(dir_path, parents)?,
        };
        Ok(Parent {
            dir,
            dir_path: dir_path.to_path_buf(),
            name: name.to_os_string(),
            target: target.to_path_buf(),
        })
    }

    /// The target's resolved path.
    pub(crate) fn target(&self) -> &Path {
        &self.target
    }

    /// The directory's path.
    pub(crate) fn dir_path(&self) -> &Path {
        &self.dir_path
    }

    /// The metadata of the directory itself (its device, for a rename's chances).
    pub(crate) fn dir_metadata(&self) -> Result<Metadata> {
        self.dir
            .metadata()
            .map_err(|e| Error::io("inspect", &self.dir_path, e))
    }

    /// The target's metadata, the final component not followed (None: it does not exist).
    pub(crate) fn stat(&self) -> Result<Option<Metadata>> {
        match self.dir.stat(&self.name) {
            Ok(meta) => Ok(Some(meta)),
            Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(None),
            Err(e) => Err(Error::io("inspect", &self.target, e)),
        }
    }

    /// Open the target for reading with the guarded open's flags (never blocking, never
    /// following a final link), checked to be a regular file (None: it does not exist). As in
    /// `probe`, a directory, FIFO, socket or device is refused from its metadata, never opened,
    /// and the opened file must be the inode that was checked.
    pub(crate) fn open_target(&self) -> Result<Option<(File, Metadata)>> {
        let Some(checked) = self.stat()? else {
            return Ok(None);
        };
        if checked.file_type().is_symlink() {
            // The resolved name became a link after it was resolved.
            return Err(Error::ChangedDuringRead {
                path: self.target.clone(),
            });
        }
        probe::check_regular(&self.target, &checked)?;
        match self.dir.open_file(&self.name) {
            Ok(file) => {
                let opened = file
                    .metadata()
                    .map_err(|e| Error::io("inspect", &self.target, e))?;
                probe::verify_opened(&self.target, &checked, &opened)?;
                Ok(Some((file, opened)))
            }
            Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(None),
            // O_NOFOLLOW met a link: the name became one after it was checked.
            Err(e) if sys::is_link_error(&e) => Err(Error::ChangedDuringRead {
                path: self.target.clone(),
            }),
            Err(e) => Err(Error::io("open", &self.target, e)),
        }
    }

    /// Create a new file `name` in the directory, exclusively (never an existing name, never
    /// through a link), write-only, with `mode`.
    pub(crate) fn create_exclusive(&self, name: &OsStr, mode: u32) -> io::Result<File> {
        self.dir.create_new(name, mode)
    }

    /// Whether `name` exists in the directory (a link is not followed).
    pub(crate) fn has(&self, name: &OsStr) -> bool {
        self.dir.has(name)
    }

    /// Remove `name` from the directory (a temporary file).
    pub(crate) fn unlink(&self, name: &OsStr) -> io::Result<()> {
        self.dir.unlink(name)
    }

    /// Remove the target itself.
    pub(crate) fn remove_target(&self) -> Result<()> {
        self.unlink(&self.name.clone())
            .map_err(|e| Error::io("remove", &self.target, e))
    }

    /// Give `from` (a name in this directory) the target's name, replacing it.
    pub(crate) fn rename_over(&self, from: &OsStr) -> io::Result<()> {
        self.dir.rename(from, &self.dir, &self.name)
    }

    /// Give `from` (a name in this directory) the target's name unless it exists — never
    /// replacing anything, even a name created a moment before. Filesystems without
    /// `RENAME_NOREPLACE` (`EINVAL`, `ENOSYS`, `ENOTSUP`) get `link_noreplace`.
    pub(crate) fn rename_noreplace(&self, from: &OsStr) -> Result<NoReplace, NoReplaceError> {
        self.move_noreplace(self, from)
    }

    /// Give the name `from` of directory `src` the target's name here unless it exists.
    fn move_noreplace(&self, src: &Parent, from: &OsStr) -> Result<NoReplace, NoReplaceError> {
        match src.dir.rename_noreplace(from, &self.dir, &self.name) {
            Ok(()) => Ok(NoReplace::Renamed),
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => Err(NoReplaceError::Exists),
            Err(e) if e.kind() == io::ErrorKind::Unsupported => self.link_noreplace(src, from),
            Err(e) => Err(NoReplaceError::Rename(e)),
        }
    }

    /// The fallback of `rename_noreplace`, callable alone: `linkat(2)` never replaces either;
    /// the old name is unlinked afterwards.
    pub(crate) fn link_noreplace(
        &self,
        src: &Parent,
        from: &OsStr,
    ) -> Result<NoReplace, NoReplaceError> {
        match src.dir.link(from, &self.dir, &self.name) {
            Ok(()) => Ok(NoReplace::Linked {
                unlinked: src.unlink(from).err().map(|e| e.to_string()),
            }),
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => Err(NoReplaceError::Exists),
            Err(e) => Err(NoReplaceError::Link(e)),
        }
    }

    /// Move the target of `src` (another directory, or this one) here: replacing this target
    /// when `replace`, else never replacing anything.
    pub(crate) fn move_from(
        &self,
        src: &Parent,
        replace: bool,
    ) -> Result<NoReplace, NoReplaceError> {
        if replace {
            return src
                .dir
                .rename(&src.name, &self.dir, &self.name)
                .map(|()| NoReplace::Renamed)
                .map_err(NoReplaceError::Rename);
        }
        self.move_noreplace(src, &src.name)
    }

    /// fsync the directory, after a rename, link or unlink in it.
    pub(crate) fn sync(&self) -> io::Result<()> {
        self.dir.sync()
    }

    /// Make everything written to the directory's file system durable (`syncfs`): one call
    /// for a transaction's many staged files instead of an fsync each. (Linux reports the
    /// write-back errors of the file system since 5.8.)
    pub(crate) fn sync_fs(&self) -> io::Result<()> {
        self.dir.sync_fs()
    }

    /// The name of the target in its directory.
    pub(crate) fn name(&self) -> &OsStr {
        &self.name
    }
}

fn outside(root: &Root, target: &Path) -> Error {
    Error::OutsideRoot {
        requested: target.to_path_buf(),
        target: target.to_path_buf(),
        root: root.dir.clone(),
    }
}

/// Open `dir` (`rel` below the root) beneath the root's directory, creating what is missing
/// when asked.
fn open_beneath(root: &Root, rel: &Path, dir: &Path, parents: Parents) -> Result<Dir> {
    let root_dir = Dir::open(&root.dir).map_err(|e| Error::io("open", &root.dir, e))?;
    let rel_or_dot = if rel.as_os_str().is_empty() {
        Path::new(".")
    } else {
        rel
    };
    let create = parents == Parents::Create;
    match root_dir.open_dir_beneath(rel_or_dot) {
        Ok(d) => Ok(d),
        Err(Beneath::Outside) => Err(outside(root, dir)),
        // A missing component: made one at a time (or refused) by the walk below.
        Err(Beneath::Io(e)) if create && e.kind() == io::ErrorKind::NotFound => {
            walk(root_dir, rel, dir, create)
        }
        // Systems without openat2 (or seccomp filters that hide it).
        Err(Beneath::Walk) => walk(root_dir, rel, dir, create),
        Err(Beneath::Io(e)) => Err(dir_error(dir, e)),
    }
}

/// Open `dir` by path (no root to stay beneath), creating what is missing when asked.
fn open_plain(dir: &Path, parents: Parents) -> Result<Dir> {
    match Dir::open(dir) {
        Ok(d) => Ok(d),
        Err(e) if parents == Parents::Create && e.kind() == io::ErrorKind::NotFound => {
            let (top, rel) = Dir::top(dir).map_err(|e| Error::io("open", dir, e))?;
            walk(top, rel, dir, true)
        }
        Err(e) => Err(dir_error(dir, e)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fs::probe::open_file_walking;
    use crate::sys::testing::symlink;
    use std::fs;

    fn root() -> (tempfile::TempDir, Root) {
        let tmp = tempfile::tempdir().unwrap();
        fs::create_dir_all(tmp.path().join("r/sub")).unwrap();
        fs::create_dir_all(tmp.path().join("out")).unwrap();
        let root = Root::new(&tmp.path().join("r")).unwrap();
        (tmp, root)
    }

    #[test]
    fn opens_the_parent_beneath_the_root() {
        let (_tmp, root) = root();
        let p = Parent::open(Some(&root), &root.dir.join("sub/f"), Parents::Existing).unwrap();
        assert_eq!(p.name(), "f");
        assert!(p.open_target().unwrap().is_none());
        assert!(p.stat().unwrap().is_none());
    }

    #[test]
    fn a_parent_swapped_for_a_link_out_is_refused() {
        let (tmp, root) = root();
        fs::remove_dir(root.dir.join("sub")).unwrap();
        symlink(tmp.path().join("out"), root.dir.join("sub")).unwrap();
        let e = Parent::open(Some(&root), &root.dir.join("sub/f"), Parents::Existing).unwrap_err();
        assert!(matches!(e, Error::OutsideRoot { .. }), "{e:?}");
        let e = Parent::open(Some(&root), &root.dir.join("sub/d/f"), Parents::Create).unwrap_err();
        assert!(
            matches!(e, Error::OutsideRoot { .. } | Error::Symlink { .. }),
            "{e:?}"
        );
        assert!(!tmp.path().join("out/d").exists());
    }

    #[test]
    fn the_walk_refuses_links_and_creates_directories() {
        let (tmp, root) = root();
        let top = Dir::open(&root.dir).unwrap();
        let dir = root.dir.join("a/b");
        walk(top, Path::new("a/b"), &dir, true).unwrap();
        assert!(dir.is_dir());
        symlink(tmp.path().join("out"), root.dir.join("lnk")).unwrap();
        let top = Dir::open(&root.dir).unwrap();
        let e = walk(top, Path::new("lnk/c"), &root.dir.join("lnk/c"), true).unwrap_err();
        assert!(matches!(e, Error::Symlink { .. }), "{e:?}");
        assert!(!tmp.path().join("out/c").exists());
        let top = Dir::open(&root.dir).unwrap();
        let e = walk(top, Path::new("x/y"), &root.dir.join("x/y"), false).unwrap_err();
        assert!(matches!(e, Error::NotFound { .. }), "{e:?}");
    }

    #[test]
    fn the_read_fallback_walks_and_refuses_links() {
        let (tmp, root) = root();
        fs::write(root.dir.join("sub/f"), b"in").unwrap();
        fs::write(tmp.path().join("out/f"), b"out").unwrap();
        let mut f = open_file_walking(&root, Path::new("sub/f")).unwrap();
        let mut s = String::new();
        std::io::Read::read_to_string(&mut f, &mut s).unwrap();
        assert_eq!(s, "in");
        symlink(tmp.path().join("out"), root.dir.join("lnk")).unwrap();
        let e = open_file_walking(&root, Path::new("lnk/f")).unwrap_err();
        assert!(matches!(e, Error::Symlink { .. }), "{e:?}");
        symlink(tmp.path().join("out/f"), root.dir.join("sub/g")).unwrap();
        let e = open_file_walking(&root, Path::new("sub/g")).unwrap_err();
        assert!(matches!(e, Error::ChangedDuringRead { .. }), "{e:?}");
        let e = open_file_walking(&root, Path::new("sub/none")).unwrap_err();
        assert!(matches!(e, Error::NotFound { .. }), "{e:?}");
    }

    #[test]
    fn the_root_itself_is_a_directory_not_a_target() {
        let (_tmp, root) = root();
        let e = Parent::open(Some(&root), &root.dir, Parents::Existing).unwrap_err();
        assert!(matches!(e, Error::IsDirectory { .. }), "{e:?}");
    }

    #[test]
    fn renames_stay_in_the_held_directory() {
        let (tmp, root) = root();
        let p = Parent::open(Some(&root), &root.dir.join("sub/f"), Parents::Existing).unwrap();
        // The directory moves away and a link to the outside takes its name.
        fs::rename(root.dir.join("sub"), root.dir.join("moved")).unwrap();
        symlink(tmp.path().join("out"), root.dir.join("sub")).unwrap();
        let tmpname = OsStr::new(".f.quill-x.tmp");
        let mut f = p.create_exclusive(tmpname, 0o600).unwrap();
        std::io::Write::write_all(&mut f, b"new").unwrap();
        assert_eq!(p.rename_noreplace(tmpname).unwrap(), NoReplace::Renamed);
        assert_eq!(fs::read(root.dir.join("moved/f")).unwrap(), b"new");
        assert_eq!(fs::read_dir(tmp.path().join("out")).unwrap().count(), 0);
        assert!(matches!(
            p.rename_noreplace(tmpname),
            Err(NoReplaceError::Rename(_))
        ));
        p.remove_target().unwrap();
        assert!(!root.dir.join("moved/f").exists());
    }
}
