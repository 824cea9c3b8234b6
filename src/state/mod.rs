//! The state directory (docs/model.md): one file per session (`sessions/<sha256 of the
//! name>.json`: the session as one JSON line, the data in `session`, then a line per update
//! since, in `delta`), the per-path mutation lock files (`locks/`) and the undo blobs
//! (`history/`, in `history`). `Store::open` takes a directory, a lock timeout and a warnings
//! sink — nothing of the command line. Updates are read-modify-write under an exclusive lock
//! on the session's lock file: one appends the line of what it changed (a reader ignores a
//! line not yet whole), or — past a bound, or for a change a line cannot say — writes the
//! file whole to a temporary file renamed into place, so readers never see a torn session and
//! concurrent writers lose no entry. A file this process has read or written is kept
//! (`Cache`): an update that finds it unchanged under the lock parses nothing again. At most 64
//! sessions (least recently modified removed). A file that cannot be parsed is moved aside and
//! the session starts empty (fail closed); a file of a newer format version is left untouched
//! and reported as `state_unavailable`. A state directory someone else owns, or others may
//! write, is refused; every entry in it is opened and checked by `checked` (no FIFO, no link,
//! no file of another user is ever followed or waited on).

pub(crate) mod checked;
mod delta;
pub mod history;
pub mod kept;
pub(crate) mod lock;
pub mod session;

use std::cell::RefCell;
use std::fs::{self, File};
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};
use std::time::Duration;

use serde::Deserialize;
use sha2::{Digest, Sha256};

use crate::error::{Error, Result};
use crate::sys::{self, MetadataExt};
use crate::warnings::{WarningKind, Warnings};
use lock::LockGuard;

pub use history::History;
pub use kept::Kept;
pub use session::{
    Baseline, MAX_FILES, MAX_SESSIONS, Session, UndoStep, VERSION, now_ns, path_from_key, path_key,
};

/// The state directory of one run.
pub struct Store<'a> {
    dir: &'a Path,
    lock_timeout: Duration,
    warnings: &'a Warnings,
    cache: Option<&'a Cache>,
    /// Whether versions read are kept (`kept`).
    keep: bool,
}

/// The session file this process last read or wrote, with what it held: a later update (or
/// peek) that finds the file still the very one — the same inode, which cannot have been
/// reused since this descriptor holds it — and no shorter replays only the lines added since,
/// instead of reading and parsing the whole file again. A file is replaced only whole (a new
/// inode) and otherwise only grows, so that check is enough.
#[derive(Default)]
pub struct Cache(RefCell<Option<Loaded>>);

/// A session file as read (or written) through `file`.
struct Loaded {
    path: PathBuf,
    file: File,
    dev: u64,
    ino: u64,
    /// The bytes of the file seen.
    len: u64,
    /// Of them, the first line and the whole lines after it that were replayed.
    valid: u64,
    /// The first line's length (with its newline, when it has one).
    first: u64,
    /// The file ends in a newline after the first line, so a line may be appended.
    newline: bool,
    /// The descriptor may append (the file's mode lets this user write it).
    writable: bool,
    session: Session,
}

impl Loaded {
    /// Whether `line` may be appended rather than the file written whole: everything seen
    /// was whole and replayed, and the lines after the first stay within their bound.
    fn takes(&self, line: &str) -> bool {
        self.writable
            && self.newline
            && self.valid == self.len
            && self.len - self.first + line.len() as u64 <= appended_bound(self.first)
    }
}

/// How many bytes of lines may follow a session's first line before the next update writes
/// it whole: an eighth of the first line (a load replays at most that much more than it
/// parses anyway), and at least 8 KiB. Measured on the edit benchmark (512 baselines), a
/// quarter, an eighth and a sixteenth cost the same within the noise; writing whole every
/// time cost 0.35 ms more an edit.
fn appended_bound(first: u64) -> u64 {
    (first / 8).max(8 * 1024)
}

impl<'a> Store<'a> {
    /// The store in `dir` (created on first update), waiting at most `lock_timeout` for a
    /// lock, reporting what it repairs to `warnings`.
    pub fn open(dir: &'a Path, lock_timeout: Duration, warnings: &'a Warnings) -> Store<'a> {
        Store {
            dir,
            lock_timeout,
            warnings,
            cache: None,
            keep: true,
        }
    }

    /// The store, keeping the versions read (`kept`) or not.
    pub fn keeping(self, keep: bool) -> Store<'a> {
        Store { keep, ..self }
    }

    /// The store, keeping the session file it last read or wrote in `cache` (a run's, so that
    /// its update does not parse again what its check parsed).
    pub fn with_cache(self, cache: &'a Cache) -> Store<'a> {
        Store {
            cache: Some(cache),
            ..self
        }
    }

    pub fn dir(&self) -> &Path {
        self.dir
    }

    /// The file of the session named `name`.
    pub fn session(&self, name: &str) -> SessionFile<'_> {
        let id = session_id(name);
        let sessions = self.dir.join("sessions");
        SessionFile {
            store: self,
            name: name.to_string(),
            file: sessions.join(format!("{id}.json")),
            lock_file: sessions.join(format!("{id}.lock")),
            history: self.dir.join("history").join(&id),
            kept: self.dir.join("kept").join(&id),
        }
    }

    /// Create the state directory (0700) and its `sessions/` and `locks/` folders; each, and
    /// `history/` when it is there, must be a real directory of this user.
    pub fn ensure_dirs(&self) -> Result<()> {
        check_owner(self.dir)?;
        if !self.dir.is_dir() {
            sys::private_dir()
                .recursive(true)
                .create(self.dir)
                .map_err(|e| unavailable(self.dir, "create", e))?;
        }
        checked::ensure_dir(&self.dir.join("sessions"))?;
        checked::ensure_dir(&self.dir.join("locks"))?;
        checked::check_dir(&self.dir.join("history"))?;
        checked::check_dir(&self.dir.join("kept"))?;
        Ok(())
    }

    /// The mutation locks of `targets` (canonical paths), taken in one sorted order so that
    /// two processes locking the same paths can never deadlock (docs/model.md). Duplicates are
    /// locked once. Held until the guards drop.
    pub fn lock_mutations(&self, targets: &[&Path]) -> Result<Vec<LockGuard>> {
        self.ensure_dirs()?;
        let mut sorted: Vec<&Path> = targets.to_vec();
        sorted.sort();
        sorted.dedup();
        sorted
            .into_iter()
            .map(|t| lock::acquire(&lock::mutation_lock_path(self.dir, t), t, self.lock_timeout))
            .collect()
    }

    /// Every session file in the state directory: (session name, baselines, last modified ns),
    /// most recently used first. An entry that `checked` refuses is left out, with a warning.
    pub fn list_sessions(&self) -> Result<Vec<(String, usize, i128)>> {
        check_owner(self.dir)?;
        let sessions = self.dir.join("sessions");
        if !checked::check_dir(&sessions)? {
            return Ok(Vec::new());
        }
        let Ok(entries) = fs::read_dir(&sessions) else {
            return Ok(Vec::new());
        };
        let mut out: Vec<(String, usize, i128)> = entries
            .filter_map(|e| e.ok())
            .filter(|e| sys::os_bytes(&e.file_name()).ends_with(b".json"))
            .filter_map(|e| {
                let path = e.path();
                let (bytes, m) = match read_checked(&path) {
                    Ok(Some(read)) => read,
                    Ok(None) => return None,
                    Err(err) => {
                        self.warnings
                            .push(WarningKind::StateSkipped, format!("{err}; left out"));
                        return None;
                    }
                };
                let s = parse_bytes(&bytes).ok()?.session;
                let files = s.len();
                Some((s.session, files, m.mtime_ns()))
            })
            .collect();
        out.sort_by(|a, b| b.2.cmp(&a.2).then(a.0.cmp(&b.0)));
        Ok(out)
    }
}

/// The bytes and metadata of the state file at `path`, opened and checked by `checked`;
/// `None` when it is not there.
fn read_checked(path: &Path) -> Result<Option<(Vec<u8>, fs::Metadata)>> {
    let Some(mut file) = checked::open_read(path)? else {
        return Ok(None);
    };
    let meta = file
        .metadata()
        .map_err(|e| unavailable(path, "inspect", e))?;
    let mut bytes = Vec::with_capacity(meta.len() as usize + 1);
    file.read_to_end(&mut bytes)
        .map_err(|e| unavailable(path, "read", e))?;
    Ok(Some((bytes, meta)))
}

/// The hex name of a session's files.
fn session_id(name: &str) -> String {
    crate::text::hex(&Sha256::digest(name.as_bytes()))
}

/// One session's file in a store.
pub struct SessionFile<'s> {
    store: &'s Store<'s>,
    name: String,
    file: PathBuf,
    lock_file: PathBuf,
    history: PathBuf,
    kept: PathBuf,
}

impl SessionFile<'_> {
    /// The session's undo blobs.
    pub fn history(&self) -> History<'_> {
        History::new(&self.history, self.store.warnings)
    }

    /// The versions of files the session knows, kept (`kept`).
    pub fn kept(&self) -> Kept {
        Kept::new(self.kept.clone(), self.store.keep)
    }

    /// A snapshot of the session, without taking the lock (the file is always whole).
    pub fn load(&self) -> Result<Session> {
        Ok(match self.read_unlocked()? {
            Some(loaded) => loaded.session,
            None => Session::empty(&self.name),
        })
    }

    /// `f` of a snapshot of the session (`load`), which is kept in the store's cache for the
    /// update that may follow.
    pub fn peek<T>(&self, f: impl FnOnce(&Session) -> T) -> Result<T> {
        Ok(match self.read_unlocked()? {
            Some(loaded) => {
                let out = f(&loaded.session);
                self.keep(loaded);
                out
            }
            None => f(&Session::empty(&self.name)),
        })
    }

    /// The session file read without the lock; None when it is missing or corrupt (with a
    /// warning: the session starts empty).
    fn read_unlocked(&self) -> Result<Option<Loaded>> {
        if !self.dirs_checked()? {
            return Ok(None);
        }
        let Some(file) = checked::open_read(&self.file)? else {
            return Ok(None);
        };
        let meta = file
            .metadata()
            .map_err(|e| unavailable(&self.file, "inspect", e))?;
        match self.read(file, &meta, false)? {
            Parsed::Ok(loaded) => Ok(Some(*loaded)),
            Parsed::Missing => Ok(None),
            Parsed::Corrupt(why) => {
                self.store.warnings.push(
                    WarningKind::StateCorrupt,
                    format!(
                        "state file {} is corrupt ({why}); the session starts empty",
                        self.file.display()
                    ),
                );
                Ok(None)
            }
        }
    }

    /// `load`, for a caller holding `target`'s mutation lock: when an undo of `target`'s
    /// creation was begun and not recorded as finished (`Session::is_removing`) and `gone()`
    /// says the file is not there, that undo was carried out — quill was killed between the
    /// unlink and the state update — and it is finished now (`Session::settle_removal`), so
    /// the file counts as never read rather than as deleted by someone else.
    pub fn load_settled(&self, target: &Path, gone: impl FnOnce() -> bool) -> Result<Session> {
        let session = self.load()?;
        if !session.is_removing(target) || !gone() {
            return Ok(session);
        }
        self.update(|session| {
            session.settle_removal(target);
            session.clone()
        })
    }

    /// Read-modify-write the session under its lock: what `f` changed is appended as one line
    /// (`delta`), or the file is written whole.
    pub fn update<T>(&self, f: impl FnOnce(&mut Session) -> T) -> Result<T> {
        self.store.ensure_dirs()?;
        let _guard = lock::acquire(&self.lock_file, &self.file, self.store.lock_timeout)?;
        let parsed = match checked::open_append(&self.file)? {
            Some((file, meta, writable)) => self.read(file, &meta, writable)?,
            None => Parsed::Missing,
        };
        let mut loaded = match parsed {
            Parsed::Ok(loaded) => Some(loaded),
            Parsed::Missing => {
                self.make_room_for_new_session();
                None
            }
            Parsed::Corrupt(why) => {
                let aside = self.quarantine();
                self.store.warnings.push(WarningKind::StateCorrupt, format!(
                    "state file {} is corrupt ({why}); moved aside to {}; the session starts empty",
                    self.file.display(),
                    aside.display()
                ));
                None
            }
        };
        let mut fresh = Session::empty(&self.name);
        let session = loaded.as_mut().map_or(&mut fresh, |l| &mut l.session);
        let out = f(session);
        let dropped = session.unnamed(&session.changes.dropped);
        let line = delta::line(session);
        match (loaded, line) {
            (Some(mut l), Some(line)) if l.takes(&line) => {
                if !line.is_empty() {
                    // One write of a whole line: a reader sees it all or, while it is being
                    // written, a line that is not whole yet and ignored.
                    (&l.file)
                        .write_all(line.as_bytes())
                        .map_err(|e| unavailable(&self.file, "append to", e))?;
                    l.len += line.len() as u64;
                    l.valid = l.len;
                }
                l.session.settle_changes();
                self.keep(*l);
            }
            (loaded, _) => {
                let mut session = loaded.map_or(fresh, |l| l.session);
                let written = self.save(&mut session)?;
                session.settle_changes();
                if let Some((file, meta)) = written {
                    self.keep(Loaded {
                        path: self.file.clone(),
                        dev: meta.dev(),
                        ino: meta.ino(),
                        len: meta.len(),
                        valid: meta.len(),
                        first: meta.len(),
                        newline: true,
                        // The temporary file's descriptor: a later update opens the file
                        // anew to append (and this is replaced by that).
                        file,
                        writable: false,
                        session,
                    });
                }
            }
        }
        let kept = self.kept();
        for sha in dropped {
            kept.drop_version(&sha);
        }
        Ok(out)
    }

    /// Remove the session's file (under its lock) and its undo blobs; returns how many
    /// baselines it held (0 for a file that cannot be read as a session: nothing usable was
    /// dropped).
    pub fn clear(&self) -> Result<usize> {
        self.store.ensure_dirs()?;
        let _guard = lock::acquire(&self.lock_file, &self.file, self.store.lock_timeout)?;
        let held = self.count_baselines();
        match fs::remove_file(&self.file) {
            Ok(()) => {}
            Err(e) if e.kind() == io::ErrorKind::NotFound => {}
            Err(e) => return Err(unavailable(&self.file, "remove", e)),
        }
        // Never through a `history/` that is a link to elsewhere (`ensure_dirs` checked it).
        let _ = fs::remove_dir_all(&self.history);
        Kept::new(self.kept.clone(), true).clear();
        Ok(held)
    }

    /// How many baselines the session file holds, counted as `list_sessions` counts them;
    /// anything but a regular file is never opened (a FIFO, a device planted there).
    fn count_baselines(&self) -> usize {
        if !fs::symlink_metadata(&self.file).is_ok_and(|m| m.is_file()) {
            return 0;
        }
        match read_checked(&self.file) {
            Ok(Some((bytes, _))) => parse_bytes(&bytes).map_or(0, |p| p.session.len()),
            _ => 0,
        }
    }

    /// The state directory is this user's and `sessions/` a real directory of it; false when
    /// `sessions/` is not there (no session file either).
    fn dirs_checked(&self) -> Result<bool> {
        check_owner(self.store.dir)?;
        let sessions = self.file.parent().unwrap_or(Path::new("."));
        checked::check_dir(sessions)
    }

    /// Keep `loaded` in the store's cache (when it has one).
    fn keep(&self, loaded: Loaded) {
        if let Some(cache) = self.store.cache {
            *cache.0.borrow_mut() = Some(loaded);
        }
    }

    /// The session in `file` (opened and checked, of metadata `meta`): the cached one when
    /// `file` is the very file cached and no shorter — with the lines added since replayed —
    /// else the whole file read and parsed.
    fn read(&self, file: File, meta: &fs::Metadata, writable: bool) -> Result<Parsed> {
        let cached = self.store.cache.and_then(|c| {
            let mut slot = c.0.borrow_mut();
            let same = slot.as_ref().is_some_and(|l| {
                // Without a file identity (`sys::IDENTITY`) a file replaced meanwhile could
                // not be told from the cached one: read whole.
                sys::IDENTITY
                    && l.path == self.file
                    && (l.dev, l.ino) == (meta.dev(), meta.ino())
                    && meta.len() >= l.len
            });
            // Taken either way: an entry that does not match is of no use, and it would keep
            // the old file open.
            slot.take().filter(|_| same)
        });
        if let Some(mut loaded) = cached {
            let mut tail = vec![0; (meta.len() - loaded.valid) as usize];
            // A tail that cannot be read whole (the file cut meanwhile, by hand): read it all.
            if sys::read_exact_at(&file, &mut tail, loaded.valid).is_ok() {
                if !tail.is_empty() {
                    loaded.valid += delta::replay(&mut loaded.session, &tail) as u64;
                    loaded.newline = loaded.newline && tail.last() == Some(&b'\n');
                }
                loaded.len = meta.len();
                loaded.session.settle_changes();
                loaded.file = file;
                loaded.writable = writable;
                return Ok(Parsed::Ok(Box::new(loaded)));
            }
        }
        let mut bytes = Vec::with_capacity(meta.len() as usize + 1);
        (&file)
            .read_to_end(&mut bytes)
            .map_err(|e| unavailable(&self.file, "read", e))?;
        let parsed = match parse_bytes(&bytes) {
            Ok(p) => p,
            Err(ParseError::Newer(version)) => {
                return Err(Error::StateUnavailable {
                    message: format!(
                        "{} has format version {version}, newer than this quill knows ({VERSION}); it was left untouched",
                        self.file.display()
                    ),
                    path: self.file.clone(),
                });
            }
            Err(ParseError::Corrupt(why)) => return Ok(Parsed::Corrupt(why)),
        };
        Ok(Parsed::Ok(Box::new(Loaded {
            path: self.file.clone(),
            file,
            dev: meta.dev(),
            ino: meta.ino(),
            len: bytes.len() as u64,
            valid: parsed.valid as u64,
            first: parsed.first as u64,
            newline: parsed.appendable,
            writable,
            session: parsed.session,
        })))
    }

    fn quarantine(&self) -> PathBuf {
        let secs = now_ns() / 1_000_000_000;
        let name = self
            .file
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        // Never over an earlier quarantined copy: a second corruption in the same second gets
        // its own name.
        for n in 0..100 {
            let suffix = if n == 0 {
                String::new()
            } else {
                format!(".{n}")
            };
            let aside = self
                .file
                .with_file_name(format!("{name}.corrupt-{secs}{suffix}"));
            // Renamed without replacing (never a second link: a reader would refuse the
            // file for its two links meanwhile).
            match sys::rename_noreplace(&self.file, &aside) {
                Ok(()) => return aside,
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists => continue,
                Err(_) => break,
            }
        }
        let aside = self.file.with_file_name(format!("{name}.corrupt-{secs}"));
        let _ = fs::rename(&self.file, &aside);
        aside
    }

    /// Write the session whole: its one line, under a new key for the lines that will follow
    /// it (`Session::lines`), to a temporary file renamed over the session file. The file
    /// written and its metadata, for the cache (None when it cannot be inspected).
    fn save(&self, session: &mut Session) -> Result<Option<(File, fs::Metadata)>> {
        session.lines = Some(format!("{:016x}", fastrand::u64(..)));
        let dir = self.file.parent().unwrap_or(Path::new("."));
        let mut tmp = checked::temp_in(dir, ".session-")
            .map_err(|e| unavailable(dir, "create a temporary file in", e))?;
        let mut w = io::BufWriter::with_capacity(256 * 1024, tmp.as_file_mut());
        serde_json::to_writer(&mut w, session)
            .map_err(io::Error::from)
            .and_then(|()| w.write_all(b"\n"))
            .and_then(|()| w.flush())
            .map_err(|e| unavailable(&self.file, "write", e))?;
        drop(w);
        // Not fsync'ed: every read saves its session, and an fsync there costs more than the
        // rest of the read; a torn session fails closed (quarantined). See the README.
        let file = tmp
            .persist(&self.file)
            .map_err(|e| unavailable(&self.file, "replace", e.error))?;
        Ok(file.metadata().ok().map(|meta| (file, meta)))
    }

    /// Keep at most `MAX_SESSIONS` session files: remove the least recently modified.
    fn make_room_for_new_session(&self) {
        let Some(dir) = self.file.parent() else {
            return;
        };
        let Ok(entries) = fs::read_dir(dir) else {
            return;
        };
        let mut sessions: Vec<(i128, PathBuf)> = entries
            .filter_map(|e| e.ok())
            .filter(|e| sys::os_bytes(&e.file_name()).ends_with(b".json"))
            .filter_map(|e| {
                let m = e.metadata().ok()?;
                Some((m.mtime_ns(), e.path()))
            })
            .collect();
        if sessions.len() < MAX_SESSIONS {
            return;
        }
        sessions.sort();
        for (_, path) in sessions.iter().take(sessions.len() + 1 - MAX_SESSIONS) {
            let _ = fs::remove_file(path);
            // Its undo blobs live under history/<the same hex name> (`ensure_dirs`, before
            // this, checked `history/` is no link to elsewhere).
            if let Some(stem) = path.file_stem() {
                let _ = fs::remove_dir_all(self.store.dir.join("history").join(stem));
                Kept::new(self.store.dir.join("kept").join(stem), true).clear();
            }
        }
    }
}

enum Parsed {
    Ok(Box<Loaded>),
    Missing,
    Corrupt(String),
}

/// A session file's bytes as data: the session, the length of its first line, and of the
/// first line with the whole lines replayed after it.
struct ParsedBytes {
    session: Session,
    first: usize,
    valid: usize,
    /// The first line is one and the file ends in a newline: a line may be appended.
    appendable: bool,
}

enum ParseError {
    /// A format version newer than this quill's: the file is left untouched.
    Newer(u32),
    Corrupt(String),
}

/// Parse a session file: its first line is the session, each whole line after it one
/// update's changes (`delta`). A file of one line without a newline is what quill wrote
/// before lines were appended; one that is JSON over several lines (written by hand) is read
/// whole, with nothing to replay.
fn parse_bytes(bytes: &[u8]) -> std::result::Result<ParsedBytes, ParseError> {
    let first = memchr::memchr(b'\n', bytes).map_or(bytes.len(), |i| i + 1);
    // One parse on the hot path (of the line checked as UTF-8 once, not string by string);
    // the header is looked at only when that fails, to tell a newer format (left untouched)
    // from a corrupt file (moved aside).
    let parsed = match std::str::from_utf8(&bytes[..first]) {
        Ok(line) => serde_json::from_str::<Session>(line).map_err(|e| e.to_string()),
        Err(e) => Err(e.to_string()),
    };
    let (mut session, first) = match parsed {
        Ok(s) => (s, first),
        Err(why) => match serde_json::from_slice::<Session>(bytes) {
            Ok(mut s) => {
                // Its baselines as one line each, so that the file is written as one.
                s.compact_baselines();
                (s, bytes.len())
            }
            Err(_) => {
                #[derive(Deserialize)]
                struct Header {
                    version: u32,
                }
                return Err(match serde_json::from_slice::<Header>(&bytes[..first]) {
                    Ok(h) if h.version > VERSION => ParseError::Newer(h.version),
                    _ => ParseError::Corrupt(why),
                });
            }
        },
    };
    if session.version > VERSION {
        return Err(ParseError::Newer(session.version));
    }
    let valid = first + delta::replay(&mut session, &bytes[first..]);
    session.settle_changes();
    Ok(ParsedBytes {
        session,
        first,
        valid,
        // Lines follow only a first line of the session as quill writes it.
        appendable: bytes.last() == Some(&b'\n') && bytes[..first].ends_with(b"\n"),
    })
}

fn unavailable(path: &Path, op: &str, e: io::Error) -> Error {
    Error::StateUnavailable {
        message: format!("cannot {op} {}: {e}", path.display()),
        path: path.to_path_buf(),
    }
}

/// A state directory that someone else owns, or that others may write to, could hold
/// planted baselines (authorizing changes to files never read): refuse it.
fn check_owner(state_dir: &Path) -> Result<()> {
    let Ok(meta) = fs::metadata(state_dir) else {
        return Ok(()); // not there yet: it will be created 0700
    };
    let me = sys::euid();
    let mode = meta.mode();
    if meta.uid() != me || mode & 0o022 != 0 {
        return Err(Error::StateUnavailable {
            message: format!(
                "{} is owned by uid {} with mode {:o}; quill uses only a state directory it owns that others cannot write",
                state_dir.display(),
                meta.uid(),
                mode & 0o7777
            ),
            path: state_dir.to_path_buf(),
        });
    }
    Ok(())
}

#[cfg(test)]
mod lines_tests;
#[cfg(test)]
mod tests;

/// The guarded layer's unit tests (written for mutation testing).
#[cfg(test)]
mod layer_tests {
    use super::*;
    use std::fs::File;
    use std::time::UNIX_EPOCH;

    struct Fixture {
        _tmp: tempfile::TempDir,
        dir: PathBuf,
        warnings: Warnings,
    }

    fn fixture() -> Fixture {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("state");
        Fixture {
            _tmp: tmp,
            dir,
            warnings: Warnings::default(),
        }
    }

    impl Fixture {
        fn store(&self) -> Store<'_> {
            Store::open(&self.dir, Duration::from_millis(50), &self.warnings)
        }
    }

    fn set_mtime(path: &Path, secs: u64, nanos: u32) {
        let f = File::options().write(true).open(path).unwrap();
        f.set_modified(UNIX_EPOCH + Duration::new(secs, nanos))
            .unwrap();
    }

    #[test]
    fn mutation_locks_are_held_and_taken_once_per_path() {
        let f = fixture();
        let store = f.store();
        let (a, b) = (Path::new("/a"), Path::new("/b"));
        let held = store.lock_mutations(&[b, a, b]).unwrap();
        assert_eq!(held.len(), 2, "duplicates are locked once");
        assert!(f.dir.join("locks").is_dir() && f.dir.join("sessions").is_dir());
        let e = store.lock_mutations(&[a]).unwrap_err();
        assert_eq!(e.kind(), "lock_timeout");
        drop(held);
        store.lock_mutations(&[a]).unwrap();
    }

    #[test]
    fn sessions_are_separate_files() {
        let f = fixture();
        let store = f.store();
        store.session("a").update(|s| s.clock = 7).unwrap();
        assert_eq!(store.session("a").load().unwrap().clock, 7);
        assert_eq!(store.session("b").load().unwrap().clock, 0);
        assert_eq!(store.session("b").load().unwrap().session, "b");
        assert_ne!(session_id("a"), session_id("b"));
        assert_eq!(session_id("a").len(), 64);
    }

    #[test]
    fn sessions_are_listed_most_recent_first() {
        let f = fixture();
        let store = f.store();
        for name in ["x", "y", "z"] {
            store
                .session(name)
                .update(|s| {
                    let id = crate::fs::probe::Identity {
                        dev: 0,
                        ino: 0,
                        size: 0,
                        mtime_ns: 0,
                        ctime_ns: 0,
                    };
                    s.record(Baseline::new(Path::new("/f"), "00".into(), &id, true));
                })
                .unwrap();
        }
        // Same second apart by nanoseconds, and a second apart against the nanoseconds:
        // names sort the other way, so any wrong arithmetic shows.
        set_mtime(&store.session("x").file, 100, 1);
        set_mtime(&store.session("y").file, 100, 2);
        set_mtime(&store.session("z").file, 101, 0);
        let listed = store.list_sessions().unwrap();
        assert_eq!(
            listed,
            [
                ("z".to_string(), 1, 101_000_000_000),
                ("y".to_string(), 1, 100_000_000_002),
                ("x".to_string(), 1, 100_000_000_001),
            ]
        );
    }

    #[test]
    fn clear_removes_the_file_and_tolerates_none() {
        let f = fixture();
        let store = f.store();
        assert_eq!(store.session("never").clear().unwrap(), 0);
        let file = store.session("a");
        file.update(|s| s.clock = 1).unwrap();
        assert!(file.file.exists());
        assert_eq!(file.clear().unwrap(), 0);
        assert!(!file.file.exists());
        assert_eq!(file.load().unwrap().clock, 0);
        // Something that cannot be removed as a file is an error, not "already gone".
        fs::create_dir(&file.file).unwrap();
        assert_eq!(file.clear().unwrap_err().kind(), "state_unavailable");
    }

    #[test]
    fn an_unreadable_session_file_is_an_error_not_a_missing_one() {
        let f = fixture();
        let store = f.store();
        store.ensure_dirs().unwrap();
        let file = store.session("a");
        fs::create_dir(&file.file).unwrap();
        assert_eq!(file.load().unwrap_err().kind(), "state_unavailable");
    }

    #[test]
    fn newer_formats_are_left_alone_corrupt_files_moved_aside() {
        let f = fixture();
        let store = f.store();
        store.ensure_dirs().unwrap();
        let file = store.session("a");
        let newer = format!(r#"{{"version":{},"session":"a"}}"#, VERSION + 1);
        fs::write(&file.file, &newer).unwrap();
        assert_eq!(file.load().unwrap_err().kind(), "state_unavailable");
        assert_eq!(file.update(|_| ()).unwrap_err().kind(), "state_unavailable");
        // Newer and not even parseable as this version's session: still left alone.
        let odd = format!(r#"{{"version":{},"files":5}}"#, VERSION + 1);
        fs::write(&file.file, &odd).unwrap();
        assert_eq!(file.load().unwrap_err().kind(), "state_unavailable");
        assert_eq!(fs::read_to_string(&file.file).unwrap(), odd);
        // This version, corrupt: the session starts empty, the file is moved aside.
        let corrupt = format!(r#"{{"version":{VERSION},"files":5}}"#);
        fs::write(&file.file, &corrupt).unwrap();
        assert_eq!(file.load().unwrap().clock, 0);
        assert_eq!(f.warnings.take().len(), 1);
        let before = now_ns() / 1_000_000_000;
        file.update(|s| s.clock = 3).unwrap();
        let after = now_ns() / 1_000_000_000;
        assert_eq!(file.load().unwrap().clock, 3);
        let asides: Vec<String> = fs::read_dir(file.file.parent().unwrap())
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|n| n.contains(".corrupt-"))
            .collect();
        assert_eq!(asides.len(), 1, "{asides:?}");
        let secs: i128 = asides[0]
            .rsplit("corrupt-")
            .next()
            .unwrap()
            .parse()
            .unwrap();
        assert!((before..=after).contains(&secs), "{asides:?}");
        assert_eq!(
            fs::read_to_string(file.file.with_file_name(&asides[0])).unwrap(),
            corrupt
        );
        // Current-version files are parsed, not refused.
        let ok = format!(r#"{{"version":{VERSION},"session":"a","clock":9}}"#);
        fs::write(&file.file, ok).unwrap();
        assert_eq!(file.load().unwrap().clock, 9);
    }

    /// At most `MAX_SESSIONS` files: a new session removes the least recently modified
    /// (more than one when there are too many already), with their undo blobs.
    #[test]
    fn a_new_session_makes_room() {
        let f = fixture();
        let store = f.store();
        store.ensure_dirs().unwrap();
        let extra = 2;
        for i in 0..MAX_SESSIONS + extra {
            let name = format!("s{i}");
            let file = store.session(&name);
            fs::write(&file.file, format!(r#"{{"version":1,"session":"{name}"}}"#)).unwrap();
            set_mtime(&file.file, 1_000 + i as u64, 0);
            fs::create_dir_all(&file.history).unwrap();
        }
        store.session("new").update(|_| ()).unwrap();
        let count = |dir: &Path| fs::read_dir(dir).map_or(0, |d| d.count());
        let jsons = fs::read_dir(f.dir.join("sessions"))
            .unwrap()
            .filter(|e| {
                e.as_ref()
                    .unwrap()
                    .path()
                    .extension()
                    .is_some_and(|x| x == "json")
            })
            .count();
        assert_eq!(jsons, MAX_SESSIONS);
        for i in 0..=extra {
            let gone = store.session(&format!("s{i}"));
            assert!(!gone.file.exists(), "s{i} is among the oldest");
            assert!(!gone.history.exists());
        }
        assert!(store.session(&format!("s{}", extra + 1)).file.exists());
        assert_eq!(
            count(&f.dir.join("history")),
            MAX_SESSIONS + extra - (extra + 1)
        );
        // Below the bound nothing goes.
        let g = fixture();
        let small = g.store();
        small.session("a").update(|_| ()).unwrap();
        small.session("b").update(|_| ()).unwrap();
        assert!(small.session("a").file.exists());
    }

    #[test]
    fn a_state_directory_others_may_write_is_refused() {
        use crate::sys::testing;
        let f = fixture();
        let store = f.store();
        store.ensure_dirs().unwrap();
        testing::set_mode(&f.dir, 0o770);
        assert_eq!(store.ensure_dirs().unwrap_err().kind(), "state_unavailable");
        testing::set_mode(&f.dir, 0o702);
        assert_eq!(
            store.session("a").load().unwrap_err().kind(),
            "state_unavailable"
        );
        testing::set_mode(&f.dir, 0o755);
        store.ensure_dirs().unwrap();
        if testing::is_root() {
            testing::chown(&f.dir, 65534, None);
            assert_eq!(store.ensure_dirs().unwrap_err().kind(), "state_unavailable");
        }
    }
}
