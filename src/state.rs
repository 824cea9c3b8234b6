//! Sessions and their read baselines, kept in the state directory (SPEC §1.1, §1.2): one JSON
//! file per session (`sessions/<sha256 of the name>.json`), at most 512 files each and 64
//! sessions in all, least recently used evicted. Updates are read-modify-write under an
//! exclusive lock on the session's lock file, written to a temporary file and renamed into
//! place, so readers never see half a file and concurrent writers lose no entry. A file that
//! cannot be parsed is moved aside and the session starts empty (fail closed); a file of a newer
//! format version is left untouched and reported as `state_unavailable`.

use std::collections::BTreeMap;
use std::fs::{self, DirBuilder};
use std::io::{self, Write};
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::{DirBuilderExt, MetadataExt};
use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;
use sha2::{Digest, Sha256};

use crate::app::Context;
use crate::error::{Error, Result};
use crate::lock;
use crate::probe::Identity;

pub const VERSION: u32 = 1;
pub const MAX_FILES: usize = 512;
pub const MAX_SESSIONS: usize = 64;

/// What quill remembers about one file a session has read or written.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct Baseline {
    /// Not stored: the map key is the path (`path_key`); filled in on load.
    #[serde(skip)]
    pub path: PathBuf,
    pub sha256: String,
    pub size: u64,
    pub dev: u64,
    pub ino: u64,
    pub mtime_ns: i128,
    pub ctime_ns: i128,
    /// Unix time of the read, in nanoseconds.
    pub read_at_ns: i128,
    pub complete: bool,
    /// The session clock when last used (LRU order).
    pub used: u64,
}

impl Baseline {
    /// The baseline of `path` whose content hashes to `sha256`, identified by `id`, read now.
    pub fn new(path: &Path, sha256: String, id: &Identity, complete: bool) -> Baseline {
        Baseline {
            path: path.to_path_buf(),
            sha256,
            size: id.size,
            dev: id.dev,
            ino: id.ino,
            mtime_ns: id.mtime_ns,
            ctime_ns: id.ctime_ns,
            read_at_ns: now_ns(),
            complete,
            used: 0,
        }
    }
}

/// One undo step: the content before a mutation (None: the file did not exist) and after.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct UndoStep {
    pub before: Option<String>,
    pub after: String,
    pub size: u64,
    /// The session clock when the step was taken (the oldest step is dropped first).
    #[serde(default)]
    pub at: u64,
}

/// A session's state file.
///
/// Baselines are kept as raw JSON and parsed only when one is looked at: a read or an edit
/// touches one entry of up to 512, and copying the others through unparsed keeps the per-call
/// cost of a full session small (SPEC §4).
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Session {
    pub version: u32,
    pub session: String,
    #[serde(default)]
    pub clock: u64,
    /// Baselines keyed by `path_key` of the canonical path.
    #[serde(default)]
    files: BTreeMap<String, Box<RawValue>>,
    /// Undo history keyed like `files`, oldest step first.
    #[serde(default)]
    pub history: BTreeMap<String, Vec<UndoStep>>,
}

impl Session {
    pub fn empty(name: &str) -> Session {
        Session {
            version: VERSION,
            session: name.to_string(),
            clock: 0,
            files: BTreeMap::new(),
            history: BTreeMap::new(),
        }
    }

    /// The baseline of `path`; an entry that does not parse counts as none (fail closed).
    pub fn baseline(&self, path: &Path) -> Option<Baseline> {
        let key = path_key(path);
        let raw = self.files.get(&key)?;
        let mut b: Baseline = serde_json::from_str(raw.get()).ok()?;
        b.path = path_from_key(&key);
        Some(b)
    }

    /// Every baseline that parses, in key order.
    pub fn baselines(&self) -> Vec<Baseline> {
        self.files
            .iter()
            .filter_map(|(key, raw)| {
                let mut b: Baseline = serde_json::from_str(raw.get()).ok()?;
                b.path = path_from_key(key);
                Some(b)
            })
            .collect()
    }

    pub fn len(&self) -> usize {
        self.files.len()
    }

    pub fn is_empty(&self) -> bool {
        self.files.is_empty()
    }

    /// Record (or refresh) a baseline, evicting the least recently used past `MAX_FILES`.
    pub fn record(&mut self, mut baseline: Baseline) {
        // The clock comes from the file: one at u64::MAX stays there rather than overflow.
        self.clock = self.clock.saturating_add(1);
        baseline.used = self.clock;
        let Ok(raw) = serde_json::value::to_raw_value(&baseline) else {
            return;
        };
        self.files.insert(path_key(&baseline.path), raw);
        if self.files.len() > MAX_FILES {
            #[derive(Deserialize)]
            struct Used {
                #[serde(default)]
                used: u64,
            }
            let mut by_age: Vec<(u64, String)> = self
                .files
                .iter()
                .map(|(k, raw)| {
                    let used = serde_json::from_str::<Used>(raw.get()).map_or(0, |u| u.used);
                    (used, k.clone())
                })
                .collect();
            by_age.sort_unstable();
            let excess = self.files.len() - MAX_FILES;
            for (_, key) in by_age.into_iter().take(excess) {
                self.files.remove(&key);
            }
        }
    }

    pub fn forget(&mut self, path: &Path) -> bool {
        self.files.remove(&path_key(path)).is_some()
    }
}

/// The map key of a path: the path itself when it is UTF-8, else a tagged hex of its bytes
/// (so that two different non-UTF-8 paths never share a key).
pub fn path_key(path: &Path) -> String {
    match path.to_str() {
        Some(s) => s.to_string(),
        None => format!("\u{0}hex:{}", lock::hex(path.as_os_str().as_bytes())),
    }
}

/// The inverse of `path_key`.
pub fn path_from_key(key: &str) -> PathBuf {
    use std::ffi::OsString;
    use std::os::unix::ffi::OsStringExt;
    match key.strip_prefix("\u{0}hex:") {
        Some(hex) if hex.len() % 2 == 0 => {
            let bytes: Option<Vec<u8>> = (0..hex.len())
                .step_by(2)
                .map(|i| u8::from_str_radix(hex.get(i..i + 2)?, 16).ok())
                .collect();
            bytes.map_or_else(
                || PathBuf::from(key),
                |b| PathBuf::from(OsString::from_vec(b)),
            )
        }
        _ => PathBuf::from(key),
    }
}

pub fn now_ns() -> i128 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as i128)
}

/// The session store of one context.
pub struct Store<'a> {
    ctx: &'a Context,
    file: PathBuf,
    lock_file: PathBuf,
}

impl<'a> Store<'a> {
    pub fn new(ctx: &'a Context) -> Store<'a> {
        Store::for_session(ctx, &ctx.session)
    }

    pub fn for_session(ctx: &'a Context, session: &str) -> Store<'a> {
        let id = lock::hex(&Sha256::digest(session.as_bytes()));
        let dir = ctx.state_dir.join("sessions");
        Store {
            ctx,
            file: dir.join(format!("{id}.json")),
            lock_file: dir.join(format!("{id}.lock")),
        }
    }

    /// A snapshot of the session, without taking the lock (the file is always whole).
    pub fn load(&self) -> Result<Session> {
        match self.parse()? {
            Parsed::Ok(s) => Ok(s),
            Parsed::Missing => Ok(Session::empty(&self.ctx.session)),
            Parsed::Corrupt(why) => {
                self.ctx.warn(format!(
                    "state file {} is corrupt ({why}); the session starts empty",
                    self.file.display()
                ));
                Ok(Session::empty(&self.ctx.session))
            }
        }
    }

    /// Read-modify-write the session under its lock.
    pub fn update<T>(&self, f: impl FnOnce(&mut Session) -> T) -> Result<T> {
        ensure_dirs(&self.ctx.state_dir)?;
        let _guard = lock::acquire(&self.lock_file, &self.file, self.ctx.lock_timeout)?;
        let mut session = match self.parse()? {
            Parsed::Ok(s) => s,
            Parsed::Missing => {
                self.make_room_for_new_session();
                Session::empty(&self.ctx.session)
            }
            Parsed::Corrupt(why) => {
                let aside = self.quarantine();
                self.ctx.warn(format!(
                    "state file {} is corrupt ({why}); moved aside to {}; the session starts empty",
                    self.file.display(),
                    aside.display()
                ));
                Session::empty(&self.ctx.session)
            }
        };
        let out = f(&mut session);
        self.save(&session)?;
        Ok(out)
    }

    /// Remove the session's file (under its lock).
    pub fn clear(&self) -> Result<()> {
        ensure_dirs(&self.ctx.state_dir)?;
        let _guard = lock::acquire(&self.lock_file, &self.file, self.ctx.lock_timeout)?;
        match fs::remove_file(&self.file) {
            Ok(()) => {}
            Err(e) if e.kind() == io::ErrorKind::NotFound => {}
            Err(e) => return Err(unavailable(&self.file, "remove", e)),
        }
        // The undo blobs belong to the session: they go with it.
        let _ = fs::remove_dir_all(crate::history::dir(self.ctx));
        Ok(())
    }

    fn parse(&self) -> Result<Parsed> {
        check_owner(&self.ctx.state_dir)?;
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
                Some((
                    m.mtime() as i128 * 1_000_000_000 + m.mtime_nsec() as i128,
                    e.path(),
                ))
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
                let _ = fs::remove_dir_all(self.ctx.state_dir.join("history").join(stem));
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

/// Create the state directory (0700) and its `sessions/` and `locks/` folders.
pub fn ensure_dirs(state_dir: &Path) -> Result<()> {
    check_owner(state_dir)?;
    let mut b = DirBuilder::new();
    b.recursive(true).mode(0o700);
    for sub in ["sessions", "locks"] {
        let dir = state_dir.join(sub);
        if !dir.is_dir() {
            b.create(&dir).map_err(|e| unavailable(&dir, "create", e))?;
        }
    }
    Ok(())
}

/// Every session file in the state directory: (session name, files, last modified ns).
pub fn list_sessions(state_dir: &Path) -> Vec<(String, usize, i128)> {
    let Ok(entries) = fs::read_dir(state_dir.join("sessions")) else {
        return Vec::new();
    };
    let mut out: Vec<(String, usize, i128)> = entries
        .filter_map(|e| e.ok())
        .filter(|e| e.file_name().as_bytes().ends_with(b".json"))
        .filter_map(|e| {
            let m = e.metadata().ok()?;
            let s: Session = serde_json::from_slice(&fs::read(e.path()).ok()?).ok()?;
            let files = s.len();
            Some((
                s.session,
                files,
                m.mtime() as i128 * 1_000_000_000 + m.mtime_nsec() as i128,
            ))
        })
        .collect();
    out.sort_by(|a, b| b.2.cmp(&a.2).then(a.0.cmp(&b.0)));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn baseline(path: &str) -> Baseline {
        Baseline {
            path: PathBuf::from(path),
            sha256: "00".into(),
            size: 0,
            dev: 0,
            ino: 0,
            mtime_ns: 0,
            ctime_ns: 0,
            read_at_ns: 0,
            complete: true,
            used: 0,
        }
    }

    #[test]
    fn lru_evicts_the_least_recently_used() {
        let mut s = Session::empty("t");
        for i in 0..MAX_FILES {
            s.record(baseline(&format!("/f{i}")));
        }
        s.record(baseline("/f0")); // refresh the oldest
        s.record(baseline("/new"));
        assert_eq!(s.len(), MAX_FILES);
        assert!(s.baseline(Path::new("/f0")).is_some());
        assert!(s.baseline(Path::new("/f1")).is_none());
        assert!(s.baseline(Path::new("/new")).is_some());
    }

    #[test]
    fn a_state_file_clock_at_its_maximum_does_not_overflow() {
        let file = format!(r#"{{"version":1,"session":"t","clock":{}}}"#, u64::MAX);
        let mut s: Session = serde_json::from_str(&file).unwrap_or_else(|_| Session::empty("t"));
        assert_eq!(s.clock, u64::MAX);
        s.record(baseline("/a"));
        assert_eq!(s.clock, u64::MAX);
        assert_eq!(s.baseline(Path::new("/a")).map(|b| b.used), Some(u64::MAX));
    }

    #[test]
    fn non_utf8_paths_get_distinct_keys() {
        use std::ffi::OsStr;
        let a = Path::new(OsStr::from_bytes(b"/a\xff"));
        let b = Path::new(OsStr::from_bytes(b"/a\xfe"));
        assert_ne!(path_key(a), path_key(b));
        assert_eq!(path_from_key(&path_key(a)), a);
        assert_eq!(path_from_key("/x/y"), Path::new("/x/y"));
    }
}
