//! The state directory (SPEC §1.2): one JSON file per session (`sessions/<sha256 of the
//! name>.json`, the data in `session`), the per-path mutation lock files (`locks/`) and the undo
//! blobs (`history/`, in `history`). `Store::open` takes a directory, a lock timeout and a
//! warnings sink — nothing of the command line. Updates are read-modify-write under an
//! exclusive lock on the session's lock file, written to a temporary file and renamed into
//! place, so readers never see half a file and concurrent writers lose no entry. At most 64
//! sessions (least recently modified removed). A file that cannot be parsed is moved aside and
//! the session starts empty (fail closed); a file of a newer format version is left untouched
//! and reported as `state_unavailable`. A state directory someone else owns, or others may
//! write, is refused.

pub mod history;
pub mod session;

use std::fs::{self, DirBuilder};
use std::io::{self, Write};
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::{DirBuilderExt, MetadataExt};
use std::path::{Path, PathBuf};
use std::time::Duration;

use serde::Deserialize;
use sha2::{Digest, Sha256};

use crate::error::{Error, Result};
use crate::lock::{self, LockGuard};
use crate::warnings::Warnings;

pub use history::History;
pub use session::{
    Baseline, MAX_FILES, MAX_SESSIONS, Session, UndoStep, VERSION, now_ns, path_from_key, path_key,
};

/// The state directory of one run.
pub struct Store<'a> {
    dir: &'a Path,
    lock_timeout: Duration,
    warnings: &'a Warnings,
}

impl<'a> Store<'a> {
    /// The store in `dir` (created on first update), waiting at most `lock_timeout` for a
    /// lock, reporting what it repairs to `warnings`.
    pub fn open(dir: &'a Path, lock_timeout: Duration, warnings: &'a Warnings) -> Store<'a> {
        Store {
            dir,
            lock_timeout,
            warnings,
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
        }
    }

    /// Create the state directory (0700) and its `sessions/` and `locks/` folders.
    pub fn ensure_dirs(&self) -> Result<()> {
        check_owner(self.dir)?;
        let mut b = DirBuilder::new();
        b.recursive(true).mode(0o700);
        for sub in ["sessions", "locks"] {
            let dir = self.dir.join(sub);
            if !dir.is_dir() {
                b.create(&dir).map_err(|e| unavailable(&dir, "create", e))?;
            }
        }
        Ok(())
    }

    /// The mutation locks of `targets` (canonical paths), taken in one sorted order so that
    /// two processes locking the same paths can never deadlock (SPEC §1.3). Duplicates are
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

    /// Every session file in the state directory: (session name, files, last modified ns),
    /// most recently used first.
    pub fn list_sessions(&self) -> Vec<(String, usize, i128)> {
        let Ok(entries) = fs::read_dir(self.dir.join("sessions")) else {
            return Vec::new();
        };
        let mut out: Vec<(String, usize, i128)> = entries
            .filter_map(|e| e.ok())
            .filter(|e| e.file_name().as_bytes().ends_with(b".json"))
            .filter_map(|e| {
                let m = e.metadata().ok()?;
                let s: Session = serde_json::from_slice(&fs::read(e.path()).ok()?).ok()?;
                let files = s.len();
                Some((s.session, files, mtime_ns(&m)))
            })
            .collect();
        out.sort_by(|a, b| b.2.cmp(&a.2).then(a.0.cmp(&b.0)));
        out
    }
}

/// The hex name of a session's files.
fn session_id(name: &str) -> String {
    lock::hex(&Sha256::digest(name.as_bytes()))
}

fn mtime_ns(m: &fs::Metadata) -> i128 {
    m.mtime() as i128 * 1_000_000_000 + m.mtime_nsec() as i128
}

/// One session's file in a store.
pub struct SessionFile<'s> {
    store: &'s Store<'s>,
    name: String,
    file: PathBuf,
    lock_file: PathBuf,
    history: PathBuf,
}

impl SessionFile<'_> {
    /// The session's undo blobs.
    pub fn history(&self) -> History<'_> {
        History::new(&self.history, self.store.warnings)
    }

    /// A snapshot of the session, without taking the lock (the file is always whole).
    pub fn load(&self) -> Result<Session> {
        match self.parse()? {
            Parsed::Ok(s) => Ok(s),
            Parsed::Missing => Ok(Session::empty(&self.name)),
            Parsed::Corrupt(why) => {
                self.store.warnings.push(format!(
                    "state file {} is corrupt ({why}); the session starts empty",
                    self.file.display()
                ));
                Ok(Session::empty(&self.name))
            }
        }
    }

    /// Read-modify-write the session under its lock.
    pub fn update<T>(&self, f: impl FnOnce(&mut Session) -> T) -> Result<T> {
        self.store.ensure_dirs()?;
        let _guard = lock::acquire(&self.lock_file, &self.file, self.store.lock_timeout)?;
        let mut session = match self.parse()? {
            Parsed::Ok(s) => s,
            Parsed::Missing => {
                self.make_room_for_new_session();
                Session::empty(&self.name)
            }
            Parsed::Corrupt(why) => {
                let aside = self.quarantine();
                self.store.warnings.push(format!(
                    "state file {} is corrupt ({why}); moved aside to {}; the session starts empty",
                    self.file.display(),
                    aside.display()
                ));
                Session::empty(&self.name)
            }
        };
        let out = f(&mut session);
        self.save(&session)?;
        Ok(out)
    }

    /// Remove the session's file (under its lock) and its undo blobs.
    pub fn clear(&self) -> Result<()> {
        self.store.ensure_dirs()?;
        let _guard = lock::acquire(&self.lock_file, &self.file, self.store.lock_timeout)?;
        match fs::remove_file(&self.file) {
            Ok(()) => {}
            Err(e) if e.kind() == io::ErrorKind::NotFound => {}
            Err(e) => return Err(unavailable(&self.file, "remove", e)),
        }
        let _ = fs::remove_dir_all(&self.history);
        Ok(())
    }

    fn parse(&self) -> Result<Parsed> {
        check_owner(self.store.dir)?;
        let bytes = match fs::read(&self.file) {
            Ok(b) => b,
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(Parsed::Missing),
            Err(e) => return Err(unavailable(&self.file, "read", e)),
        };
        // One parse on the hot path; the header is looked at only when that fails, to tell a
        // newer format (left untouched) from a corrupt file (moved aside).
        let newer = |version: u32| Error::StateUnavailable {
            message: format!(
                "{} has format version {version}, newer than this quill knows ({VERSION}); it was left untouched",
                self.file.display()
            ),
            path: self.file.clone(),
        };
        match serde_json::from_slice::<Session>(&bytes) {
            Ok(s) if s.version > VERSION => Err(newer(s.version)),
            Ok(s) => Ok(Parsed::Ok(s)),
            Err(e) => {
                #[derive(Deserialize)]
                struct Header {
                    version: u32,
                }
                match serde_json::from_slice::<Header>(&bytes) {
                    Ok(h) if h.version > VERSION => Err(newer(h.version)),
                    _ => Ok(Parsed::Corrupt(e.to_string())),
                }
            }
        }
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
            if fs::hard_link(&self.file, &aside).is_ok() {
                let _ = fs::remove_file(&self.file);
                return aside;
            }
        }
        let aside = self.file.with_file_name(format!("{name}.corrupt-{secs}"));
        let _ = fs::rename(&self.file, &aside);
        aside
    }

    fn save(&self, session: &Session) -> Result<()> {
        let dir = self.file.parent().unwrap_or(Path::new("."));
        let mut tmp = tempfile::Builder::new()
            .prefix(".session-")
            .suffix(".tmp")
            .tempfile_in(dir)
            .map_err(|e| unavailable(dir, "create a temporary file in", e))?;
        let mut w = io::BufWriter::with_capacity(256 * 1024, tmp.as_file_mut());
        serde_json::to_writer(&mut w, session)
            .map_err(io::Error::from)
            .and_then(|()| w.flush())
            .map_err(|e| unavailable(&self.file, "write", e))?;
        drop(w);
        tmp.persist(&self.file)
            .map_err(|e| unavailable(&self.file, "replace", e.error))?;
        Ok(())
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
            .filter(|e| e.file_name().as_bytes().ends_with(b".json"))
            .filter_map(|e| {
                let m = e.metadata().ok()?;
                Some((mtime_ns(&m), e.path()))
            })
            .collect();
        if sessions.len() < MAX_SESSIONS {
            return;
        }
        sessions.sort();
        for (_, path) in sessions.iter().take(sessions.len() + 1 - MAX_SESSIONS) {
            let _ = fs::remove_file(path);
            // Its undo blobs live under history/<the same hex name>.
            if let Some(stem) = path.file_stem() {
                let _ = fs::remove_dir_all(self.store.dir.join("history").join(stem));
            }
        }
    }
}

enum Parsed {
    Ok(Session),
    Missing,
    Corrupt(String),
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
    use std::os::unix::fs::PermissionsExt;
    let Ok(meta) = fs::metadata(state_dir) else {
        return Ok(()); // not there yet: it will be created 0700
    };
    let me = rustix::process::geteuid().as_raw();
    let mode = meta.permissions().mode();
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
mod tests;
