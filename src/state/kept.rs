//! Kept reads (docs/model.md#kept-reads): the bytes of the versions a session knows — what a
//! read showed, what its own change wrote, what a `stale` answer showed as a diff — kept so
//! that a later answer can say what changed since. Content-addressed under
//! `<state-dir>/kept/<sha256 of the session name>/<sha256 of the content>` (0600 files in
//! 0700 folders, opened through `checked` like every state file). Text files up to
//! `MAX_FILE` only; at most `BUDGET` bytes for the whole state directory (checked when about
//! one new version in sixteen is kept), the least recently kept going first; nothing older
//! than `LIFETIME` is used, and such versions go at the next sweep. Written without fsync: a blob that is
//! torn, missing or expired only costs the diff (it is verified against its name before use),
//! never a wrong authorization — authorization is the baselines' hashes alone. A session's
//! blob goes with the last baseline that names it, with `state forget` and `state clear`, and
//! with the session. Best effort throughout: a failure here never fails a command.

use std::fs;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use super::checked;
use crate::fs::probe::sha256_bytes;

/// The largest file whose bytes are kept.
pub const MAX_FILE: u64 = 1 << 20;
/// The most bytes kept in one state directory, all sessions together.
pub const BUDGET: u64 = 32 << 20;
/// How long a kept version is used after it was last kept.
pub const LIFETIME: Duration = Duration::from_secs(24 * 3600);

/// One session's kept versions.
pub struct Kept {
    /// `kept/<session id>`.
    dir: PathBuf,
    on: bool,
}

impl Kept {
    /// The kept versions in `dir` (`kept/<session id>`); `on: false` keeps and finds nothing.
    pub fn new(dir: PathBuf, on: bool) -> Kept {
        Kept { dir, on }
    }

    /// Keep `bytes`, whose SHA-256 is `sha256` (too large: nothing). A version kept already
    /// is only marked as used now.
    pub fn keep(&self, sha256: &str, bytes: &[u8]) {
        if !self.on || bytes.len() as u64 > MAX_FILE || !is_name(sha256) {
            return;
        }
        let path = self.dir.join(sha256);
        if let Ok(Some(file)) = checked::open_read(&path) {
            let _ = file.set_modified(SystemTime::now());
            return;
        }
        // The sweep lists every kept version: about one new version in sixteen pays for it
        // (by its hash, so no state is needed), and the budget is held within a few versions.
        if self.write(&path, bytes).is_some() && sha256.starts_with('0') {
            sweep(self.dir.parent().unwrap_or(Path::new(".")), BUDGET);
        }
    }

    fn write(&self, path: &Path, bytes: &[u8]) -> Option<()> {
        checked::ensure_dir(self.dir.parent()?).ok()?;
        checked::ensure_dir(&self.dir).ok()?;
        let mut tmp = checked::temp_in(&self.dir, ".kept-").ok()?;
        tmp.write_all(bytes).ok()?;
        tmp.persist(path).ok()?;
        Some(())
    }

    /// The kept version of hash `sha256`, when it is there, whole and not expired.
    pub fn load(&self, sha256: &str) -> Option<Vec<u8>> {
        if !self.on || !is_name(sha256) || !self.real() {
            return None;
        }
        let mut file = checked::open_read(&self.dir.join(sha256)).ok()??;
        let meta = file.metadata().ok()?;
        if meta.len() > MAX_FILE || expired(&meta) {
            return None;
        }
        let mut bytes = Vec::with_capacity(meta.len() as usize);
        file.read_to_end(&mut bytes).ok()?;
        (sha256_bytes(&bytes) == sha256).then_some(bytes)
    }

    /// Drop the version `sha256` (no baseline names it any more).
    pub fn drop_version(&self, sha256: &str) {
        if is_name(sha256) && self.real() {
            let _ = fs::remove_file(self.dir.join(sha256));
        }
    }

    /// Drop every version of the session.
    pub fn clear(&self) {
        if self.real() {
            let _ = fs::remove_dir_all(&self.dir);
        }
    }

    /// Whether `kept/` and the session's folder in it are real directories of this user
    /// (never a link to elsewhere).
    fn real(&self) -> bool {
        let parent = self.dir.parent().unwrap_or(Path::new("."));
        matches!(checked::check_dir(parent), Ok(true))
            && matches!(checked::check_dir(&self.dir), Ok(true))
    }

    /// The bytes kept in the whole state directory and how many versions.
    pub fn total(state_dir: &Path) -> (u64, usize) {
        let all = entries(&state_dir.join("kept"));
        (all.iter().map(|e| e.1).sum(), all.len())
    }
}

fn expired(meta: &fs::Metadata) -> bool {
    meta.modified()
        .ok()
        .and_then(|t| SystemTime::now().duration_since(t).ok())
        .is_some_and(|age| age > LIFETIME)
}

/// A blob's name: 64 lower-case hex digits.
fn is_name(name: &str) -> bool {
    name.len() == 64 && name.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
}

/// Every kept version under `kept` (`kept/<session>/<sha256>`): its last use, size and path.
fn entries(kept: &Path) -> Vec<(SystemTime, u64, PathBuf)> {
    if !matches!(checked::check_dir(kept), Ok(true)) {
        return Vec::new();
    }
    let mut out = Vec::new();
    for session in fs::read_dir(kept).into_iter().flatten().flatten() {
        let dir = session.path();
        if !matches!(checked::check_dir(&dir), Ok(true)) {
            continue;
        }
        for blob in fs::read_dir(&dir).into_iter().flatten().flatten() {
            let Ok(meta) = blob.metadata() else { continue };
            if meta.is_file() {
                let used = meta.modified().unwrap_or(SystemTime::UNIX_EPOCH);
                out.push((used, meta.len(), blob.path()));
            }
        }
    }
    out
}

/// Remove what expired, then the least recently kept until `kept` holds at most `budget`.
fn sweep(kept: &Path, budget: u64) {
    let mut all = entries(kept);
    all.sort();
    let mut total: u64 = all.iter().map(|e| e.1).sum();
    let now = SystemTime::now();
    for (used, size, path) in all {
        let old = now.duration_since(used).is_ok_and(|age| age > LIFETIME);
        if !old && total <= budget {
            break;
        }
        if fs::remove_file(&path).is_ok() {
            total -= size;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_finds_and_drops_a_version() {
        let dir = tempfile::tempdir().unwrap();
        let kept = Kept::new(dir.path().join("kept").join("s"), true);
        let sha = sha256_bytes(b"hello\n");
        assert_eq!(kept.load(&sha), None);
        kept.keep(&sha, b"hello\n");
        assert_eq!(kept.load(&sha).as_deref(), Some(&b"hello\n"[..]));
        assert_eq!(Kept::total(dir.path()), (6, 1));
        kept.drop_version(&sha);
        assert_eq!(kept.load(&sha), None);
        // Off: nothing kept, nothing found.
        let off = Kept::new(dir.path().join("kept").join("s"), false);
        off.keep(&sha, b"hello\n");
        assert_eq!(Kept::total(dir.path()), (0, 0));
    }

    #[test]
    fn a_torn_or_misnamed_blob_is_not_used() {
        let dir = tempfile::tempdir().unwrap();
        let kept = Kept::new(dir.path().join("kept").join("s"), true);
        let sha = sha256_bytes(b"whole\n");
        kept.keep(&sha, b"whole\n");
        fs::write(dir.path().join("kept/s").join(&sha), b"who").unwrap();
        assert_eq!(kept.load(&sha), None);
        assert_eq!(kept.load("../../etc/passwd"), None);
    }

    #[test]
    fn the_budget_removes_the_least_recently_kept() {
        let dir = tempfile::tempdir().unwrap();
        let kept_dir = dir.path().join("kept");
        let a = Kept::new(kept_dir.join("a"), true);
        let b = Kept::new(kept_dir.join("b"), true);
        let (x, y) = (vec![b'x'; 100], vec![b'y'; 100]);
        a.keep(&sha256_bytes(&x), &x);
        let old = SystemTime::now() - Duration::from_secs(60);
        let file = fs::File::options()
            .write(true)
            .open(kept_dir.join("a").join(sha256_bytes(&x)))
            .unwrap();
        file.set_modified(old).unwrap();
        b.keep(&sha256_bytes(&y), &y);
        sweep(&kept_dir, 150);
        assert_eq!(a.load(&sha256_bytes(&x)), None);
        assert_eq!(b.load(&sha256_bytes(&y)), Some(y));
    }

    #[test]
    fn too_large_is_not_kept() {
        let dir = tempfile::tempdir().unwrap();
        let kept = Kept::new(dir.path().join("kept").join("s"), true);
        let big = vec![b'a'; MAX_FILE as usize + 1];
        kept.keep(&sha256_bytes(&big), &big);
        assert_eq!(Kept::total(dir.path()).1, 0);
    }
}
