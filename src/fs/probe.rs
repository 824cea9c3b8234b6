//! The guarded open (docs/model.md), in three layers that each stand alone: the metadata gate
//! (`regular_metadata`/`check_regular`: directory → `is_directory`, FIFO, socket or device →
//! `irregular_file`, never opened), the open itself (`open_flagged`: `O_NONBLOCK|O_NOFOLLOW`
//! and, under `--root`, `openat2(RESOLVE_BENEATH|NO_MAGICLINKS)` from the root), and the
//! identity re-check (`verify_opened`: the opened file is a regular file and the very inode
//! that was checked). `open_regular` composes them; grep uses the open layer alone; `open_input`
//! is the same guard for files the caller names as input (links followed, a FIFO admitted).
//! Also the no-follow walk beneath a root (`walk`, `open_file_walking`: one component at a
//! time with `openat(O_DIRECTORY|O_NOFOLLOW)`, where `openat2` is missing and to create
//! directories with `mkdirat`), the stat identity used to detect a file changing under a
//! read, an EINTR-retrying read, and a streaming SHA-256. No policy about sessions lives here.

use std::fs::{self, File, Metadata};
use std::io::{self, Read};
use std::path::{Component, Path, PathBuf};

use sha2::{Digest, Sha256};

use crate::error::{Error, Result};
use crate::fs::paths::{Root, not_found};
use crate::sys::{self, Beneath, Dir, FileTypeExt, MetadataExt};
use crate::text::hex;

/// Buffer size of streaming passes: large enough for full-speed hashing, small enough to keep
/// peak memory far below the 16 MiB goal.
pub(crate) const CHUNK: usize = 256 * 1024;

/// What identifies one version of a file without reading it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Identity {
    pub dev: u64,
    pub ino: u64,
    pub size: u64,
    pub mtime_ns: i128,
    pub ctime_ns: i128,
}

impl Identity {
    pub fn of(m: &Metadata) -> Identity {
        Identity {
            dev: m.dev(),
            ino: m.ino(),
            size: m.size(),
            mtime_ns: m.mtime_ns(),
            ctime_ns: m.ctime_ns(),
        }
    }
}

/// Layer 1, the metadata gate: metadata of an existing path (links followed), with the
/// contract's errors for anything that is not a regular file.
pub(crate) fn regular_metadata(path: &Path) -> Result<Metadata> {
    let meta = metadata_of(path)?;
    check_regular(path, &meta)?;
    Ok(meta)
}

/// Metadata of `path`, links followed; a missing path is `not_found`.
fn metadata_of(path: &Path) -> Result<Metadata> {
    fs::metadata(path).map_err(|e| match e.kind() {
        io::ErrorKind::NotFound => not_found(path),
        _ => Error::io("inspect", path, e),
    })
}

/// `is_directory` or `irregular_file` unless `meta` is a regular file's.
pub(crate) fn check_regular(path: &Path, meta: &Metadata) -> Result<()> {
    let ft = meta.file_type();
    if ft.is_dir() {
        return Err(Error::IsDirectory {
            path: path.to_path_buf(),
        });
    }
    if !ft.is_file() {
        let file_type = if ft.is_fifo() {
            "FIFO"
        } else if ft.is_socket() {
            "socket"
        } else {
            ft.is_device().unwrap_or("special file")
        };
        return Err(Error::IrregularFile {
            path: path.to_path_buf(),
            file_type,
        });
    }
    Ok(())
}

/// Open a regular file for reading, safely: the three layers in order. `path` must be a
/// resolved (canonical) path.
pub(crate) fn open_regular(root: Option<&Root>, path: &Path) -> Result<(File, Metadata)> {
    let checked = regular_metadata(path)?;
    open_checked(root, path, &checked)
}

/// Layers 2 and 3: open `path`, which passed the metadata gate as `checked`, and make sure the
/// opened file is still that regular file (a FIFO, device or other file swapped in after the
/// gate is refused without a read).
pub(crate) fn open_checked(
    root: Option<&Root>,
    path: &Path,
    checked: &Metadata,
) -> Result<(File, Metadata)> {
    let file = match root.and_then(|r| path.strip_prefix(&r.dir).ok().map(|rel| (r, rel))) {
        Some((root, rel)) => match open_beneath(root, rel, path)? {
            Some(file) => file,
            // Kernels without openat2 (or seccomp filters that hide it): one component at a
            // time from the root, never following a link.
            None => open_file_walking(root, rel)?,
        },
        None => open_flagged(path, false).map_err(|e| open_error(path, e))?,
    };
    let opened = file.metadata().map_err(|e| Error::io("inspect", path, e))?;
    verify_opened(path, checked, &opened)?;
    Ok((file, opened))
}

/// Layer 3, the identity re-check: the opened file (`opened`, from its descriptor) is a regular
/// file and the inode that passed the gate (`checked`), else `changed_during_read`.
pub(crate) fn verify_opened(path: &Path, checked: &Metadata, opened: &Metadata) -> Result<()> {
    check_regular(path, opened)?;
    same_inode(path, checked, opened)
}

/// `changed_during_read` unless `opened` is the inode `checked` was (device and number).
fn same_inode(path: &Path, checked: &Metadata, opened: &Metadata) -> Result<()> {
    if opened.dev() != checked.dev() || opened.ino() != checked.ino() {
        return Err(Error::ChangedDuringRead {
            path: path.to_path_buf(),
        });
    }
    Ok(())
}

/// Layer 2 alone: open `path` read-only, never blocking (a FIFO or device swapped in after the
/// walk or the gate), never becoming the controlling terminal, closed on exec and, unless
/// `follow`, failing on a final symbolic link — no gate before, no check after. grep opens
/// the files of its walk with this (the walker has typed each entry already, and a stat more
/// per file would cost it measurably).
pub(crate) fn open_flagged(path: &Path, follow: bool) -> io::Result<File> {
    sys::open_read(path, follow)
}

/// Layer 2 under a root: `openat2` of `rel` from the root directory. `None` when the kernel
/// has no `openat2` (the caller then walks the path with `parent::open_file_walking`).
pub(crate) fn open_beneath(root: &Root, rel: &Path, path: &Path) -> Result<Option<File>> {
    let dir = Dir::open(&root.dir).map_err(|e| Error::io("open", &root.dir, e))?;
    let rel = if rel.as_os_str().is_empty() {
        Path::new(".")
    } else {
        rel
    };
    match dir.open_file_beneath(rel) {
        Ok(file) => Ok(Some(file)),
        Err(Beneath::Outside) => Err(Error::OutsideRoot {
            requested: path.to_path_buf(),
            target: path.to_path_buf(),
            root: root.dir.clone(),
        }),
        Err(Beneath::Walk) => Ok(None),
        Err(Beneath::Io(e)) => Err(open_error(path, e)),
    }
}

fn open_error(path: &Path, e: io::Error) -> Error {
    // ELOOP with O_NOFOLLOW: the final component became a link after resolution.
    if sys::is_link_error(&e) {
        return Error::ChangedDuringRead {
            path: path.to_path_buf(),
        };
    }
    match e.kind() {
        io::ErrorKind::NotFound => not_found(path),
        _ => Error::io("open", path, e),
    }
}

/// Open a file the caller names as input (`--old-file`, `--new-file`, `--edits FILE`, `write
/// --from`; read through `input::Input`): the same three layers, following links (the caller
/// chose the name, it is not a target). A FIFO or pipe the caller named (`--from <(cmd)`,
/// `/dev/stdin` on a pipe) is opened too, non-blocking like every guarded open, so it never
/// waits for a writer here (its reader waits, interruptibly). Devices, sockets and
/// directories are refused without being opened. Returns the file and its metadata.
/// `op` names the operation in an error ("read the edits from").
pub(crate) fn open_input(path: &Path, op: &'static str) -> Result<(File, Metadata)> {
    let checked = metadata_of(path)?;
    open_input_checked(path, op, &checked)
}

/// `open_input` after its gate (`checked`, the metadata of `path`): open it and re-check that
/// the opened file is that inode (for a regular file, `verify_opened`).
fn open_input_checked(
    path: &Path,
    op: &'static str,
    checked: &Metadata,
) -> Result<(File, Metadata)> {
    let pipe = checked.file_type().is_fifo();
    if !pipe {
        check_regular(path, checked)?;
    }
    let file = open_flagged(path, true).map_err(|e| Error::io(op, path, e))?;
    let opened = file.metadata().map_err(|e| Error::io("inspect", path, e))?;
    if pipe {
        // The same inode is the same FIFO.
        same_inode(path, checked, &opened)?;
    } else {
        verify_opened(path, checked, &opened)?;
    }
    Ok((file, opened))
}

/// One `read`, retried while it is interrupted (`EINTR`) — unless the interruption is a
/// Ctrl-C or SIGTERM quill caught (`signals`): then the `Interrupted` error is returned, which
/// `Error::io` turns into `interrupted`. (`input::Input` reports a caught
/// signal exactly so; retrying it would wait forever on a silent pipe.)
pub(crate) fn read_retrying(reader: &mut impl Read, buf: &mut [u8]) -> io::Result<usize> {
    loop {
        match reader.read(buf) {
            Err(e) if e.kind() == io::ErrorKind::Interrupted && !crate::signals::interrupted() => {}
            other => return other,
        }
    }
}

/// SHA-256 of everything `reader` yields, in `CHUNK` pieces; returns (hex, bytes).
pub(crate) fn sha256_stream(reader: &mut impl Read, path: &Path) -> Result<(String, u64)> {
    let mut hasher = Sha256::new();
    let mut buf = vec![0u8; CHUNK];
    let mut total = 0u64;
    loop {
        let n = read_retrying(reader, &mut buf).map_err(|e| Error::io("read", path, e))?;
        if n == 0 {
            break;
        }
        hasher.update(&buf[..n]);
        total += n as u64;
    }
    Ok((hex(&hasher.finalize()), total))
}

/// SHA-256 of a byte slice, as hex.
pub(crate) fn sha256_bytes(bytes: &[u8]) -> String {
    hex(&Sha256::digest(bytes))
}

/// Check that `hex` looks like a SHA-256 (64 hex digits); returns it lower-cased.
pub(crate) fn parse_sha256(flag: &str, value: &str) -> Result<String> {
    if value.len() == 64 && value.bytes().all(|b| b.is_ascii_hexdigit()) {
        Ok(value.to_ascii_lowercase())
    } else {
        Err(Error::invalid_argument(format!(
            "{flag} takes a SHA-256 as 64 hex digits, not {value:?}"
        )))
    }
}

// ---------------------------------------------------------------------------------------
// The no-follow walk beneath a root (where openat2 is missing, and to create directories)

/// Open the file `rel` below the root for reading (`open_flagged`, no link followed), one
/// component at a time: the read side's fallback where `openat2` is missing, with the walk's
/// guarantee.
pub(crate) fn open_file_walking(root: &Root, rel: &Path) -> Result<File> {
    let path = root.dir.join(rel);
    let (Some(dir_rel), Some(name)) = (rel.parent(), rel.file_name()) else {
        // The root itself.
        return open_flagged(&root.dir, false).map_err(|e| Error::io("open", &root.dir, e));
    };
    let root_dir = Dir::open(&root.dir).map_err(|e| Error::io("open", &root.dir, e))?;
    let dir_path = root.dir.join(dir_rel);
    let dir = walk(root_dir, dir_rel, &dir_path, false)?;
    match dir.open_file(name) {
        Ok(file) => Ok(file),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Err(not_found(&path)),
        Err(e) if sys::is_link_error(&e) => Err(Error::ChangedDuringRead { path }),
        Err(e) => Err(Error::io("open", &path, e)),
    }
}

/// Open `rel` from `start` one component at a time, never following a link, creating a
/// missing directory when asked. `rel` comes from a resolved path: it has no `..`, and every
/// existing component is a directory, so a link met here was swapped in.
pub(crate) fn walk(start: Dir, rel: &Path, dir: &Path, create: bool) -> Result<Dir> {
    let mut current = start;
    let mut walked = PathBuf::from(dir.ancestors().nth(rel.components().count()).unwrap_or(dir));
    for component in rel.components() {
        let Component::Normal(name) = component else {
            return Err(Error::invalid_argument(format!(
                "{} is not a resolved path",
                dir.display()
            )));
        };
        walked.push(name);
        let next = match current.child(name) {
            Err(e) if create && e.kind() == io::ErrorKind::NotFound => {
                match current.mkdir(name) {
                    Ok(()) => {}
                    Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {}
                    Err(e) => return Err(Error::io("create the directory", &walked, e)),
                }
                current.child(name)
            }
            other => other,
        };
        current = match next {
            Ok(dir) => dir,
            // A no-follow directory open of a link fails with ENOTDIR (or ELOOP): tell it
            // apart from a file in the way.
            Err(e)
                if (sys::is_link_error(&e) || e.kind() == io::ErrorKind::NotADirectory)
                    && current.is_link(name) =>
            {
                return Err(link_on_the_way(&walked));
            }
            Err(e) => return Err(dir_error(&walked, e)),
        };
    }
    Ok(current)
}

/// A component that was a directory when the path was resolved is a link now.
fn link_on_the_way(dir: &Path) -> Error {
    Error::Symlink {
        path: dir.to_path_buf(),
        reason: "a directory on the way became a symbolic link after the path was resolved",
    }
}

pub(crate) fn dir_error(dir: &Path, e: io::Error) -> Error {
    if sys::is_missing_dir_error(&e) {
        not_found(dir)
    } else if sys::is_link_error(&e) {
        link_on_the_way(dir)
    } else {
        Error::io("open the directory", dir, e)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sys::testing::{self, mkfifo, symlink};
    use std::sync::mpsc;
    use std::time::{Duration, UNIX_EPOCH};

    /// Run `f` on a thread; `None` if it has not returned within two seconds (it blocked).
    fn within_2s<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> Option<T> {
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            let _ = tx.send(f());
        });
        rx.recv_timeout(Duration::from_secs(2)).ok()
    }

    /// A FIFO with nobody writing: a blocked open on it returns once this writer opens it.
    fn unblock(fifo: &Path) {
        let _ = testing::open_writer_nonblocking(fifo);
    }

    #[test]
    fn sha256_of_abc() {
        assert_eq!(
            sha256_bytes(b"abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
        let (h, n) = sha256_stream(&mut &b"abc"[..], Path::new("x")).unwrap();
        assert_eq!((h.as_str(), n), (sha256_bytes(b"abc").as_str(), 3));
    }

    #[test]
    fn sha256_stream_spans_chunks() {
        let data: Vec<u8> = (0..CHUNK * 2 + 7).map(|i| i as u8).collect();
        let (h, n) = sha256_stream(&mut &data[..], Path::new("x")).unwrap();
        assert_eq!((h, n), (sha256_bytes(&data), data.len() as u64));
    }

    #[test]
    fn sha256_flag_validation() {
        assert_eq!(
            parse_sha256("--x", &"A".repeat(64)).unwrap(),
            "a".repeat(64)
        );
        assert!(parse_sha256("--x", "abc").is_err());
        assert!(parse_sha256("--x", &"g".repeat(64)).is_err());
        assert!(parse_sha256("--x", &"a".repeat(65)).is_err());
    }

    #[test]
    fn identity_nanoseconds() {
        let dir = tempfile::tempdir().unwrap();
        let f = dir.path().join("f");
        fs::write(&f, b"12345").unwrap();
        let file = File::options().write(true).open(&f).unwrap();
        file.set_modified(UNIX_EPOCH + Duration::new(1_700_000_000, 123_456_789))
            .unwrap();
        let m = fs::metadata(&f).unwrap();
        let id = Identity::of(&m);
        assert_eq!(id.mtime_ns, 1_700_000_000_123_456_789);
        assert_eq!(id.ctime_ns, m.ctime_ns());
        assert_eq!((id.dev, id.ino, id.size), (m.dev(), m.ino(), 5));
    }

    /// An EINTR from `read` is retried, never reported.
    #[test]
    fn reads_are_retried_after_eintr() {
        struct Flaky(u32);
        impl Read for Flaky {
            fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
                self.0 += 1;
                match self.0 {
                    1 | 2 => Err(io::ErrorKind::Interrupted.into()),
                    3 => {
                        buf[0] = b'x';
                        Ok(1)
                    }
                    _ => Ok(0),
                }
            }
        }
        let mut buf = [0u8; 4];
        assert_eq!(read_retrying(&mut Flaky(0), &mut buf).unwrap(), 1);
        assert_eq!(read_retrying(&mut &b""[..], &mut buf).unwrap(), 0);
        let (h, n) = sha256_stream(&mut Flaky(0), Path::new("x")).unwrap();
        assert_eq!((h, n), (sha256_bytes(b"x"), 1));
    }

    /// Any other error is returned at once, never retried.
    #[test]
    fn other_read_errors_are_not_retried() {
        struct FailsOnce(bool);
        impl Read for FailsOnce {
            fn read(&mut self, _: &mut [u8]) -> io::Result<usize> {
                if std::mem::replace(&mut self.0, true) {
                    Ok(0)
                } else {
                    Err(testing::eio())
                }
            }
        }
        let e = read_retrying(&mut FailsOnce(false), &mut [0u8; 4]).unwrap_err();
        assert!(testing::is_eio(&e), "{e:?}");
        let e = sha256_stream(&mut FailsOnce(false), Path::new("x")).unwrap_err();
        assert_eq!(e.kind(), "io");
    }

    // --- layer 1, the metadata gate, alone

    #[test]
    fn gate_refuses_directories_fifos_and_devices() {
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("fifo");
        mkfifo(&fifo);
        let kind = |p: &Path| regular_metadata(p).unwrap_err().kind();
        assert_eq!(kind(dir.path()), "is_directory");
        assert_eq!(kind(&fifo), "irregular_file");
        assert_eq!(kind(Path::new("/dev/null")), "irregular_file");
        assert_eq!(kind(&dir.path().join("missing")), "not_found");
        let f = dir.path().join("f");
        fs::write(&f, b"x").unwrap();
        assert!(regular_metadata(&f).unwrap().is_file());
        let file_type = |p: &Path| match check_regular(p, &fs::metadata(p).unwrap()) {
            Err(Error::IrregularFile { file_type, .. }) => file_type,
            other => panic!("{other:?}"),
        };
        assert_eq!(file_type(&fifo), "FIFO");
        assert_eq!(file_type(Path::new("/dev/null")), "character device");
    }

    /// A missing file is `not_found` with the similar names of its directory, whichever
    /// layer notices it.
    #[test]
    fn missing_files_list_similar_names() {
        let dir = tempfile::tempdir().unwrap();
        fs::write(dir.path().join("f"), b"x").unwrap();
        let missing = dir.path().join("g");
        let similar = |e: Error| match e {
            Error::NotFound { similar, .. } => similar,
            other => panic!("{other:?}"),
        };
        let want = [dir.path().join("f")];
        assert_eq!(similar(regular_metadata(&missing).unwrap_err()), want);
        assert_eq!(similar(open_input(&missing, "read").unwrap_err()), want);
        let enoent = testing::enoent();
        assert_eq!(similar(open_error(&missing, enoent)), want);
    }

    // --- layer 2, the open's flags, alone

    #[test]
    fn open_of_a_fifo_does_not_block() {
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("fifo");
        mkfifo(&fifo);
        let f2 = fifo.clone();
        let opened = within_2s(move || open_flagged(&f2, false).map(|_| ()));
        if opened.is_none() {
            unblock(&fifo);
        }
        assert!(opened.expect("open of a FIFO blocked").is_ok());
    }

    #[test]
    fn open_does_not_follow_a_final_link_unless_asked() {
        let dir = tempfile::tempdir().unwrap();
        let real = dir.path().join("real");
        fs::write(&real, b"x").unwrap();
        let link = dir.path().join("link");
        symlink(&real, &link).unwrap();
        let e = open_flagged(&link, false).unwrap_err();
        assert!(sys::is_link_error(&e), "{e:?}");
        assert!(open_flagged(&link, true).is_ok());
        let fd = open_flagged(&real, false).unwrap();
        assert!(testing::is_cloexec(&fd) && testing::is_nonblocking(&fd));
    }

    #[test]
    fn open_error_names_the_failure() {
        let p = Path::new("/x");
        assert_eq!(
            open_error(p, testing::eloop()).kind(),
            "changed_during_read"
        );
        assert_eq!(open_error(p, testing::enoent()).kind(), "not_found");
        assert_eq!(open_error(p, testing::eio()).kind(), "io");
    }

    // --- layer 2 under a root

    fn root_with_escape() -> (tempfile::TempDir, Root) {
        let dir = tempfile::tempdir().unwrap();
        let base = fs::canonicalize(dir.path()).unwrap();
        fs::create_dir(base.join("root")).unwrap();
        fs::create_dir(base.join("outside")).unwrap();
        fs::write(base.join("outside/f"), b"secret").unwrap();
        fs::write(base.join("root/in"), b"fine").unwrap();
        // A directory link swapped in after resolution, climbing out of the root.
        symlink("../outside", base.join("root/sub")).unwrap();
        let root = Root::new(&base.join("root")).unwrap();
        (dir, root)
    }

    #[test]
    fn beneath_refuses_a_link_out_of_the_root() {
        let (_dir, root) = root_with_escape();
        let path = root.dir.join("sub/f");
        let e = open_beneath(&root, Path::new("sub/f"), &path).unwrap_err();
        assert_eq!(e.kind(), "outside_root");
        let e = open_checked(Some(&root), &path, &fs::metadata(&path).unwrap()).unwrap_err();
        assert_eq!(e.kind(), "outside_root");
        let inside = open_beneath(&root, Path::new("in"), &root.dir.join("in")).unwrap();
        let mut text = String::new();
        inside.unwrap().read_to_string(&mut text).unwrap();
        assert_eq!(text, "fine");
        let (_, m) = open_regular(Some(&root), &root.dir.join("in")).unwrap();
        assert_eq!(m.size(), 4);
    }

    #[test]
    fn beneath_flags_and_magic_links() {
        // /proc/self/fd/N is a magic link: refused even below the root it is in.
        let dir = tempfile::tempdir().unwrap();
        let f = dir.path().join("f");
        fs::write(&f, b"x").unwrap();
        let held = File::open(&f).unwrap();
        let root = Root::new(Path::new("/proc/self")).unwrap();
        let rel = testing::proc_fd(&held);
        let opened = open_beneath(&root, &rel, &root.dir.join(&rel));
        assert!(opened.is_err(), "a magic link was followed");
    }

    #[test]
    fn beneath_opens_the_root_itself_as_dot() {
        let dir = tempfile::tempdir().unwrap();
        let root = Root::new(dir.path()).unwrap();
        let opened = open_beneath(&root, Path::new(""), &root.dir)
            .unwrap()
            .unwrap();
        assert!(opened.metadata().unwrap().is_dir());
    }

    // --- layer 3, the identity re-check, alone

    #[test]
    fn verify_compares_device_and_inode() {
        let dir = tempfile::tempdir().unwrap();
        let (a, b) = (dir.path().join("a"), dir.path().join("b"));
        fs::write(&a, b"x").unwrap();
        fs::write(&b, b"x").unwrap();
        let (ma, mb) = (fs::metadata(&a).unwrap(), fs::metadata(&b).unwrap());
        assert!(verify_opened(&a, &ma, &ma).is_ok());
        assert_eq!(
            verify_opened(&a, &ma, &mb).unwrap_err().kind(),
            "changed_during_read"
        );
        // Another file system, possibly the same inode number: still another file.
        let other_dev = fs::metadata("/proc/self/status").unwrap();
        assert_ne!(other_dev.dev(), ma.dev());
        assert_eq!(
            verify_opened(&a, &other_dev, &ma).unwrap_err().kind(),
            "changed_during_read"
        );
        let dir_meta = fs::metadata(dir.path()).unwrap();
        assert_eq!(
            verify_opened(&a, &dir_meta, &dir_meta).unwrap_err().kind(),
            "is_directory"
        );
    }

    /// A FIFO that passes the gate because it is swapped in after it: the open does not
    /// block and the re-check refuses it, without a read.
    #[test]
    fn fifo_swapped_in_after_the_gate() {
        let dir = tempfile::tempdir().unwrap();
        let f = dir.path().join("f");
        fs::write(&f, b"x").unwrap();
        let checked = regular_metadata(&f).unwrap();
        fs::remove_file(&f).unwrap();
        mkfifo(&f);
        let f2 = f.clone();
        let r = within_2s(move || open_checked(None, &f2, &checked).map(|_| ()));
        if r.is_none() {
            unblock(&f);
        }
        let e = r.expect("the open blocked on the FIFO").unwrap_err();
        assert_eq!(e.kind(), "irregular_file");
    }

    /// The file replaced by another one after the gate: the inode differs.
    #[test]
    fn file_replaced_after_the_gate() {
        let dir = tempfile::tempdir().unwrap();
        let (f, other) = (dir.path().join("f"), dir.path().join("other"));
        fs::write(&f, b"x").unwrap();
        fs::write(&other, b"y").unwrap();
        let checked = regular_metadata(&f).unwrap();
        fs::rename(&other, &f).unwrap();
        let e = open_checked(None, &f, &checked).unwrap_err();
        assert_eq!(e.kind(), "changed_during_read");
    }

    /// A symbolic link swapped in after resolution, pointing at the very file that was
    /// checked: only `O_NOFOLLOW` refuses it (the inode would match).
    #[test]
    fn link_swapped_in_after_resolution() {
        let dir = tempfile::tempdir().unwrap();
        let (f, moved) = (dir.path().join("f"), dir.path().join("moved"));
        fs::write(&f, b"x").unwrap();
        let checked = regular_metadata(&f).unwrap();
        fs::rename(&f, &moved).unwrap();
        symlink(&moved, &f).unwrap();
        let e = open_checked(None, &f, &checked).unwrap_err();
        assert_eq!(e.kind(), "changed_during_read");
        // Under a root too.
        let root = Root::new(dir.path()).unwrap();
        let e = open_checked(Some(&root), &root.dir.join("f"), &checked).unwrap_err();
        assert_eq!(e.kind(), "changed_during_read");
    }

    #[test]
    fn open_regular_returns_the_opened_metadata() {
        let dir = tempfile::tempdir().unwrap();
        let f = dir.path().join("f");
        fs::write(&f, b"abc").unwrap();
        let (mut file, m) = open_regular(None, &f).unwrap();
        assert_eq!(m.ino(), fs::metadata(&f).unwrap().ino());
        let mut s = String::new();
        file.read_to_string(&mut s).unwrap();
        assert_eq!(s, "abc");
        assert_eq!(
            open_regular(None, dir.path()).unwrap_err().kind(),
            "is_directory"
        );
    }

    // --- inputs the caller names

    #[test]
    fn input_follows_links_and_refuses_devices() {
        let dir = tempfile::tempdir().unwrap();
        let real = dir.path().join("real");
        fs::write(&real, b"x").unwrap();
        let link = dir.path().join("link");
        symlink(&real, &link).unwrap();
        let (_, m) = open_input(&link, "read").unwrap();
        assert_eq!(m.ino(), fs::metadata(&real).unwrap().ino());
        assert_eq!(
            open_input(Path::new("/dev/zero"), "read")
                .unwrap_err()
                .kind(),
            "irregular_file"
        );
        assert_eq!(
            open_input(dir.path(), "read").unwrap_err().kind(),
            "is_directory"
        );
        assert_eq!(
            open_input(&dir.path().join("nope"), "read")
                .unwrap_err()
                .kind(),
            "not_found"
        );
    }

    /// A FIFO the caller names opens at once, though nobody writes to it, and non-blocking
    /// (its reader, `input::Input`, waits for the writer where a signal is noticed).
    #[test]
    fn input_fifo_opens_without_waiting_for_a_writer() {
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("fifo");
        mkfifo(&fifo);
        let f2 = fifo.clone();
        let r = within_2s(move || open_input(&f2, "read").map(|(f, m)| (f, m.file_type())));
        if r.is_none() {
            unblock(&fifo);
        }
        let (file, ft) = r.expect("the open of a FIFO waited for a writer").unwrap();
        assert!(ft.is_fifo());
        assert!(testing::is_nonblocking(&file));
    }

    /// Another FIFO swapped in after the gate, or a regular file: not the pipe that was
    /// checked.
    #[test]
    fn input_fifo_swapped_after_the_gate() {
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("fifo");
        mkfifo(&fifo);
        let checked = fs::metadata(&fifo).unwrap();
        // Held open, the first FIFO keeps its inode number: nothing below can reuse it.
        let _first = open_flagged(&fifo, false).unwrap();
        let other = dir.path().join("other");
        mkfifo(&other);
        fs::rename(&other, &fifo).unwrap();
        let e = open_input_checked(&fifo, "read", &checked).unwrap_err();
        assert_eq!(e.kind(), "changed_during_read");
        fs::write(&other, b"x").unwrap();
        fs::rename(&other, &fifo).unwrap();
        let e = open_input_checked(&fifo, "read", &checked).unwrap_err();
        assert_eq!(e.kind(), "changed_during_read");
        // A regular file's gate metadata: the FIFO check does not apply.
        let regular = fs::metadata(&fifo).unwrap();
        assert!(open_input_checked(&fifo, "read", &regular).is_ok());
        // A FIFO swapped in for a regular file after its gate: refused as what it is.
        fs::remove_file(&fifo).unwrap();
        mkfifo(&fifo);
        let e = open_input_checked(&fifo, "read", &regular).unwrap_err();
        assert_eq!(e.kind(), "irregular_file");
    }
}
