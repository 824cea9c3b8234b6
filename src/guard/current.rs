//! The file a mutation changes, as it is now: its directory held open (every later step names
//! the file relative to it, so a directory swapped for a link after the resolution redirects
//! none of them), the missing directories made when a new file needs them, and the content
//! loaded and hashed under the lock (`Current`).

use crate::sys::MetadataExt;
use std::fs::Metadata;
use std::io::Read;
use std::path::Path;

use super::parent::{Parent, Parents};
use crate::error::{Error, Result};
use crate::fs::paths;
use crate::fs::probe::{self, sha256_bytes};
use crate::settings::Settings;
use crate::state::history::Before;

/// The target as it is now, under the lock.
pub(crate) struct Current {
    pub meta: Metadata,
    pub sha256: String,
    /// The whole content, when it is at most the load limit.
    pub bytes: Option<Vec<u8>>,
}

impl Current {
    /// What a change replacing (or removing) this content leaves to undo: the bytes with the
    /// hash already taken of them, or `TooLarge` when they were not kept.
    pub(crate) fn before(&self) -> Before<'_> {
        match &self.bytes {
            Some(bytes) => Before::Bytes {
                bytes,
                sha256: &self.sha256,
            },
            None => Before::TooLarge,
        }
    }
}

/// The target's parent directory, held open from here on (None: it does not exist yet). Every
/// later step of the change names the target relative to it (`parent`), so a directory swapped
/// for a link after the resolution can redirect none of them.
pub(crate) fn parent(s: &Settings, target: &Path) -> Result<Option<Parent>> {
    match Parent::open(s.root.as_ref(), target, Parents::Existing) {
        Ok(p) => Ok(Some(p)),
        Err(Error::NotFound { .. }) => Ok(None),
        Err(e) => Err(e),
    }
}

/// The directory to publish in: the one held, or — when it did not exist — the missing
/// directories created now, one `mkdirat` at a time beneath the root (`no_parents`: refused
/// as `not_found` instead).
pub(crate) fn parent_to_publish(
    s: &Settings,
    target: &Path,
    held: Option<Parent>,
    no_parents: bool,
) -> Result<Parent> {
    match held {
        Some(p) => Ok(p),
        None if no_parents => Err(paths::not_found(target.parent().unwrap_or(target))),
        None => Parent::open(s.root.as_ref(), target, Parents::Create),
    }
}

/// Open and hash the target in its held directory (None: it, or its directory, does not
/// exist). Content up to `keep` bytes is kept in memory; with `refuse_above`, a larger file is
/// `file_too_large`.
pub(crate) fn current(
    parent: Option<&Parent>,
    keep: u64,
    refuse_above: Option<u64>,
) -> Result<Option<Current>> {
    let Some(parent) = parent else {
        return Ok(None);
    };
    let target = parent.target();
    let Some((mut file, meta)) = parent.open_target()? else {
        return Ok(None);
    };
    if let Some(limit) = refuse_above.filter(|l| meta.size() > *l) {
        return Err(Error::FileTooLarge {
            path: target.to_path_buf(),
            size: meta.size(),
            limit,
        });
    }
    if meta.size() <= keep {
        let bytes = read_sized(&mut file, meta.size() as usize)
            .map_err(|e| Error::io("read", target, e))?;
        if bytes.len() as u64 > keep || bytes.len() as u64 != meta.size() {
            // It grew (or shrank) while we read it: whoever writes it is not a quill process.
            return Err(Error::ChangedDuringRead {
                path: target.to_path_buf(),
            });
        }
        let sha256 = sha256_bytes(&bytes);
        return Ok(Some(Current {
            meta,
            sha256,
            bytes: Some(bytes),
        }));
    }
    let (sha256, _) = probe::sha256_stream(&mut file, target)?;
    Ok(Some(Current {
        meta,
        sha256,
        bytes: None,
    }))
}

/// The content of `file`, which its metadata says holds `size` bytes: one read of them and
/// one that finds the end, never more than one byte past `size` (a file that grew since).
fn read_sized(file: &mut impl Read, size: usize) -> std::io::Result<Vec<u8>> {
    let mut bytes = vec![0; size + 1];
    let mut filled = 0;
    while filled < bytes.len() {
        match file.read(&mut bytes[filled..]) {
            Ok(0) => break,
            Ok(n) => filled += n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    bytes.truncate(filled);
    Ok(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;
    use std::path::PathBuf;
    fn settings(dir: &Path, root: bool) -> Settings {
        crate::settings::for_tests(dir, root)
    }

    fn cur(s: &Settings, path: &Path, keep: u64, refuse: Option<u64>) -> Result<Option<Current>> {
        current(parent(s, path)?.as_ref(), keep, refuse)
    }

    fn tmp() -> (tempfile::TempDir, PathBuf) {
        let t = tempfile::tempdir().unwrap();
        let dir = fs::canonicalize(t.path()).unwrap();
        (t, dir)
    }

    #[test]
    fn current_of_a_missing_file_is_none_of_anything_else_an_error() {
        let (_t, dir) = tmp();
        let s = settings(&dir, false);
        assert!(cur(&s, &dir.join("missing"), 100, None).unwrap().is_none());
        assert!(cur(&s, &dir.join("no/such"), 100, None).unwrap().is_none());
        fs::write(dir.join("f"), b"x").unwrap();
        // A component that is a file: nothing to read, and nothing can be created there.
        assert!(cur(&s, &dir.join("f/x"), 100, None).unwrap().is_none());
        let e = parent_to_publish(&s, &dir.join("f/x"), None, false).unwrap_err();
        assert_eq!(e.kind(), "not_found");
        let e = cur(&s, &dir, 100, None).err().unwrap();
        assert_eq!(e.kind(), "is_directory");
    }

    #[test]
    fn current_keeps_up_to_keep_bytes_and_refuses_above_the_limit() {
        let (_t, dir) = tmp();
        let s = settings(&dir, false);
        let f = dir.join("f");
        fs::write(&f, b"0123456789").unwrap();
        let whole = sha256_bytes(b"0123456789");
        let c = cur(&s, &f, 10, Some(10)).unwrap().unwrap();
        assert_eq!(c.bytes.as_deref(), Some(&b"0123456789"[..]));
        assert_eq!(c.sha256, whole);
        let c = cur(&s, &f, 9, None).unwrap().unwrap();
        assert_eq!((c.bytes, c.sha256), (None, whole.clone()));
        let e = cur(&s, &f, 100, Some(9)).err().unwrap();
        assert!(
            matches!(
                e,
                Error::FileTooLarge {
                    size: 10,
                    limit: 9,
                    ..
                }
            ),
            "{e:?}"
        );
        let c = cur(&s, &f, 11, Some(11)).unwrap().unwrap();
        assert_eq!(c.meta.size(), 10);
    }

    #[test]
    fn a_sized_read_stops_one_byte_past_the_size() {
        let data = b"0123456789";
        assert_eq!(read_sized(&mut &data[..], 10).unwrap(), data);
        assert_eq!(
            read_sized(&mut &data[..], 4).unwrap(),
            b"01234",
            "grown: one more"
        );
        assert_eq!(
            read_sized(&mut &data[..], 20).unwrap(),
            data,
            "shrunk: what is there"
        );
        assert_eq!(read_sized(&mut &b""[..], 0).unwrap(), b"");
    }

    /// A file that holds more than its size said when it was opened (it grew meanwhile) is
    /// `changed_during_read`, never hashed short. /proc files say 0 and hold more.
    #[test]
    fn a_file_longer_than_its_size_is_changed_during_read() {
        let (_t, dir) = tmp();
        let s = settings(&dir, false);
        let _ = s;
        let parent = Parent::open(None, Path::new("/proc/self/status"), Parents::Existing).unwrap();
        match current(Some(&parent), 0, None) {
            Err(e) => assert_eq!(e.kind(), "changed_during_read"),
            Ok(_) => panic!("a file longer than its size was hashed"),
        }
    }

    #[test]
    fn the_parent_to_publish_in_is_created_or_refused() {
        let (_t, dir) = tmp();
        let s = settings(&dir, false);
        let nested = dir.join("a/b/f");
        assert!(parent(&s, &nested).unwrap().is_none());
        assert_eq!(
            parent_to_publish(&s, &nested, None, true)
                .unwrap_err()
                .kind(),
            "not_found"
        );
        assert!(!dir.join("a").exists());
        let p = parent_to_publish(&s, &nested, None, false).unwrap();
        assert!(dir.join("a/b").is_dir());
        assert_eq!(p.target(), nested);
        // Beneath a root too.
        let rooted = settings(&dir, true);
        let deeper = dir.join("c/d/f");
        parent_to_publish(&rooted, &deeper, None, false).unwrap();
        assert!(dir.join("c/d").is_dir());
    }
}
