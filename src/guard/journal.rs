//! Multi-file changes that land whole or not at all, even across a crash (docs/model.md,
//! "Transactions"): `commit` stages every new content as a temporary file beside its target,
//! under a name written beforehand into a journal in `<state-dir>/journal/<id>.json` (fsync'ed,
//! and locked by the committing process for as long as it lives); seals (fsyncs) every one;
//! then creates the commit marker `<id>.commit` — the commit point — and renames each file
//! into place (or unlinks it, for a deletion), fsyncs each directory once, and removes the
//! marker and the journal. `recover`, run by every quill process that touches files before it
//! touches them, finds journals whose owner is gone (their lock is free): with a marker it
//! rolls them forward (each temporary file still there is renamed into place, each deletion
//! not yet done is done — only where the target still holds what the transaction expected),
//! without one it rolls them back (the temporary files go; no target was touched). Either way
//! it says so in a `journal_recovered` warning. The callers decide what changes and hold the
//! files' mutation locks; this module knows nothing of patches or sessions' baselines.

use std::collections::BTreeSet;
use std::ffi::OsString;
use std::fs::{self, File, Metadata, TryLockError};
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};
use crate::fs::paths::Root;
use crate::fs::probe::{self, sha256_bytes};
use crate::guard::parent::{Parent, Parents};
use crate::guard::publish::{self, Staged};
use crate::settings::Settings;
use crate::state::checked;
use crate::state::{path_from_key, path_key};
use crate::sys::{self, MetadataExt};
use crate::warnings::WarningKind;

/// What a transaction does to one file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub(crate) enum Action {
    /// Replace the existing file (keeping its permission bits and owner).
    Replace,
    /// Create a file where none is (never replacing one that appeared meanwhile).
    Create,
    /// Remove the file.
    Delete,
}

/// One file of a transaction, as the caller planned it (under the file's mutation lock).
pub(crate) struct Member<'a> {
    pub parent: &'a Parent,
    pub action: Action,
    /// The new content (empty for a deletion).
    pub bytes: &'a [u8],
    /// Replace: the replaced file's metadata (its mode and owner go to the new file; its
    /// identity must still be at the name).
    pub like: Option<&'a Metadata>,
    /// Create: the permission bits (else 0666 less the umask).
    pub mode: Option<u32>,
    /// What the target holds now (Replace, Delete) — recovery touches only such a target.
    pub old_sha256: Option<&'a str>,
    /// The SHA-256 of `bytes` (Replace, Create), which the caller has already computed.
    pub new_sha256: Option<&'a str>,
}

/// The journal of one transaction, as written to `<id>.json`.
#[derive(Debug, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct Journal {
    version: u32,
    id: String,
    pid: u32,
    session: String,
    /// The `--root` the transaction ran under: recovery opens the directories beneath it.
    root: Option<String>,
    entries: Vec<Entry>,
}

#[derive(Debug, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct Entry {
    /// The target (`path_key`).
    target: String,
    /// The temporary file's name in the target's directory (`path_key`); none for a deletion.
    temp: Option<String>,
    action: Action,
    old_sha256: Option<String>,
    new_sha256: Option<String>,
}

const VERSION: u32 = 1;

fn journal_dir(s: &Settings) -> PathBuf {
    s.state_dir.join("journal")
}

/// The journal file, held (locked) by its transaction until it is removed.
struct Held {
    file: File,
    path: PathBuf,
    marker: PathBuf,
}

impl Held {
    /// Remove the marker and the journal: the transaction is over.
    fn finish(self) {
        let _ = fs::remove_file(&self.marker);
        let _ = fs::remove_file(&self.path);
        drop(self.file);
    }
}

/// Carry out `members` as one transaction (docs/model.md): all of them land, or — for any
/// failure before the commit point — none does and every temporary file is gone. Returns,
/// per member, the published file's metadata (None for a deletion).
pub(crate) fn commit(s: &Settings, members: &[Member]) -> Result<Vec<Option<Metadata>>> {
    let id: String = (0..12).map(|_| fastrand::alphanumeric()).collect();
    let names: Vec<Option<OsString>> = members
        .iter()
        .enumerate()
        .map(|(n, m)| Some(Staged::txn_name(m.parent, &id, n)))
        .collect();
    let journal = Journal {
        version: VERSION,
        id: id.clone(),
        pid: std::process::id(),
        session: s.session.clone(),
        root: s.root.as_ref().map(|r| path_key(&r.dir)),
        entries: members
            .iter()
            .zip(&names)
            .map(|(m, name)| Entry {
                target: path_key(m.parent.target()),
                temp: name.as_ref().map(|n| path_key(Path::new(n))),
                action: m.action,
                old_sha256: m.old_sha256.map(str::to_string),
                new_sha256: match m.action {
                    Action::Delete => None,
                    _ => Some(
                        m.new_sha256
                            .map_or_else(|| sha256_bytes(m.bytes), str::to_string),
                    ),
                },
            })
            .collect(),
    };
    let held = write_journal(s, &journal)?;

    // Stage and seal every file; any failure drops the staged files (removing them) and the
    // journal: nothing was touched.
    let staged = match stage_all(members, &names) {
        Ok(staged) => staged,
        Err(e) => {
            held.finish();
            return Err(e);
        }
    };
    // The commit point: from here on the change happens, now or at the next recovery.
    if let Err(e) = create_marker(&held) {
        drop(staged);
        held.finish();
        return Err(e);
    }
    // Every new content lands first; the deletions (a move's source among them) follow only
    // when all of it has landed, so no content is ever only in a temporary file.
    let mut metas: Vec<Option<Metadata>> = (0..members.len()).map(|_| None).collect();
    let mut staged: Vec<Option<Staged>> = staged;
    let mut failure: Option<Error> = None;
    for (i, m) in members.iter().enumerate() {
        if m.action == Action::Delete {
            continue;
        }
        let Some(st) = staged[i].take() else { continue };
        if failure.is_some() {
            // After a failure the rest is left to recovery, which completes it.
            st.keep();
            continue;
        }
        match st.rename_sealed(m.action == Action::Replace) {
            Ok(meta) => metas[i] = Some(meta),
            Err(e) => failure = Some(e),
        }
    }
    for (i, m) in members.iter().enumerate() {
        if m.action != Action::Delete {
            continue;
        }
        // The probe that proved the directory writable; it goes now (or with recovery).
        let probe = staged[i].take();
        if failure.is_some() {
            if let Some(p) = probe {
                p.keep();
            }
            continue;
        }
        if let Err(e) = delete(m) {
            failure = Some(e);
            if let Some(p) = probe {
                p.keep();
            }
        }
    }
    // Each directory once (a failure is a warning: the change has happened).
    let mut synced = BTreeSet::new();
    for m in members {
        if synced.insert(m.parent.dir_path().to_path_buf()) {
            for w in publish::sync_dir(m.parent) {
                s.warnings.add(w);
            }
        }
    }
    match failure {
        None => {
            held.finish();
            Ok(metas)
        }
        Some(e) => {
            // The journal and its marker stay: the next quill process finishes the change
            // (this one's lock goes with the descriptor).
            drop(held.file);
            Err(Error::io(
                "finish a multi-file change (the next quill command completes it from its journal)",
                &held.path,
                io::Error::other(e.to_string()),
            ))
        }
    }
}

/// Above this many staged files, one `syncfs` per file system makes them durable instead of
/// one fsync each (which costs a journal commit each on ext4 and XFS).
const SYNCFS_ABOVE: usize = 4;

fn stage_all<'p>(
    members: &[Member<'p>],
    names: &[Option<OsString>],
) -> Result<Vec<Option<Staged<'p>>>> {
    let staging = members
        .iter()
        .filter(|m| m.action != Action::Delete)
        .count();
    let fsync_each = staging <= SYNCFS_ABOVE || !crate::sys::SYNCFS;
    let mut staged = Vec::with_capacity(members.len());
    for (m, name) in members.iter().zip(names) {
        let Some(name) = name else {
            staged.push(None);
            continue;
        };
        // A deletion stages an empty probe beside its target: the directory takes a new name
        // (so it will let one go), checked before the commit point, not after it.
        let st = Staged::with_name(m.parent, name.clone())?;
        if m.action == Action::Delete {
            check_sticky(m)?;
            staged.push(Some(st));
            continue;
        }
        let mut st = st;
        if let (Action::Create, Some(mode)) = (m.action, m.mode) {
            st.set_mode(mode & 0o7777)?;
        }
        st.write_all(m.bytes)?;
        match (m.action, m.mode) {
            // A replacement with its own bits (git's `new mode`): the owner is the old file's.
            (Action::Replace, Some(mode)) => {
                st.seal_now(m.like, false)?;
                st.set_mode(mode & 0o7777)?;
                if fsync_each {
                    st.seal_now(None, true)?;
                }
            }
            _ => st.seal_now(m.like, fsync_each)?,
        }
        staged.push(Some(st));
    }
    if !fsync_each {
        let mut devices = BTreeSet::new();
        for m in members.iter().filter(|m| m.action != Action::Delete) {
            let dev = m.parent.dir_metadata()?.dev();
            if devices.insert(dev) {
                m.parent
                    .sync_fs()
                    .map_err(|e| Error::io("sync the file system of", m.parent.dir_path(), e))?;
            }
        }
    }
    Ok(staged)
}

/// In a sticky directory (`/tmp`) only the file's or the directory's owner may remove a file:
/// refused before the commit point, as `permission_denied`.
fn check_sticky(m: &Member) -> Result<()> {
    let dir = m.parent.dir_metadata()?;
    let euid = sys::euid();
    let owner = m.like.map(|l| l.uid());
    if dir.mode() & 0o1000 != 0 && euid != 0 && dir.uid() != euid && owner != Some(euid) {
        return Err(Error::io(
            "remove (the directory is sticky and neither it nor the file is ours)",
            m.parent.target(),
            sys::not_permitted(),
        ));
    }
    Ok(())
}

/// Remove a member's target, only while the name is still the file the caller hashed.
fn delete(m: &Member) -> Result<()> {
    let same = match (m.parent.stat()?, m.like) {
        (Some(now), Some(like)) => (now.dev(), now.ino()) == (like.dev(), like.ino()),
        (Some(_), None) => true,
        (None, _) => false,
    };
    if !same {
        return Err(Error::Stale {
            path: m.parent.target().to_path_buf(),
            session: String::new(),
            deleted: false,
            reread: None,
            change: None,
            change_unavailable: None,
        });
    }
    m.parent.remove_target()
}

fn write_journal(s: &Settings, journal: &Journal) -> Result<Held> {
    let dir = journal_dir(s);
    s.store().ensure_dirs()?;
    checked::ensure_dir(&dir)?;
    let path = dir.join(format!("{}.json", journal.id));
    let marker = dir.join(format!("{}.commit", journal.id));
    let unavailable = |what: &str, e: io::Error| Error::StateUnavailable {
        message: format!("cannot {what} the journal {}: {e}", path.display()),
        path: path.clone(),
    };
    // Written under another name and renamed into place once whole and locked: a recovering
    // process never sees a journal its live owner has not locked yet.
    let fresh = dir.join(format!("{}.new", journal.id));
    let mut file = checked::options()
        .read(true)
        .write(true)
        .create_new(true)
        .open(&fresh)
        .map_err(|e| unavailable("create", e))?;
    if let Err(e) = file.try_lock() {
        let _ = fs::remove_file(&fresh);
        return Err(unavailable("lock", io::Error::other(format!("{e:?}"))));
    }
    let bytes = serde_json::to_vec(journal).map_err(|e| unavailable("encode", e.into()))?;
    let written = file
        .write_all(&bytes)
        .and_then(|()| file.sync_all())
        .and_then(|()| fs::rename(&fresh, &path));
    if let Err(e) = written {
        let _ = fs::remove_file(&fresh);
        return Err(unavailable("write", e));
    }
    let held = Held {
        file,
        path: path.clone(),
        marker,
    };
    if let Err(e) = sync_path(&dir) {
        held.finish();
        return Err(unavailable("write", e));
    }
    Ok(held)
}

fn create_marker(held: &Held) -> Result<()> {
    let made = checked::options()
        .write(true)
        .create_new(true)
        .open(&held.marker)
        .and_then(|f| f.sync_all());
    let dir = held.path.parent().unwrap_or(Path::new("."));
    made.and_then(|()| sync_path(dir))
        .map_err(|e| Error::StateUnavailable {
            message: format!("cannot commit {}: {e}", held.path.display()),
            path: held.marker.clone(),
        })
}

fn sync_path(dir: &Path) -> io::Result<()> {
    sys::Dir::open(dir)?.sync()
}

/// Finish or undo every transaction whose process is gone (docs/model.md), before this run
/// touches any file; what was done is a `journal_recovered` warning. Cheap when there is
/// nothing to do: one failed `open` of the journal directory.
pub(crate) fn recover(s: &Settings) {
    let dir = journal_dir(s);
    let entries = match fs::read_dir(&dir) {
        Ok(entries) => entries,
        Err(_) => return,
    };
    // A journal directory quill does not trust is left alone (and named by the command that
    // uses the state directory next).
    if !matches!(checked::check_dir(&dir), Ok(true)) {
        return;
    }
    let mut journals: Vec<PathBuf> = Vec::new();
    for path in entries.filter_map(|e| e.ok()).map(|e| e.path()) {
        match path.extension().and_then(|x| x.to_str()) {
            Some("json") => journals.push(path),
            // A journal killed before it was whole (nothing was staged yet): removed once its
            // owner is gone.
            Some("new") => {
                if let Ok(f) = checked::options().read(true).open(&path)
                    && checked::check_file(&f, &path).is_ok()
                    && f.try_lock().is_ok()
                {
                    let _ = fs::remove_file(&path);
                }
            }
            _ => {}
        }
    }
    journals.sort();
    for path in journals {
        if let Some(message) = recover_one(s, &path) {
            s.warn(WarningKind::JournalRecovered, message);
        }
    }
}

/// Recover one journal; the warning's message, or None when its owner is alive (or it is
/// not ours to touch).
fn recover_one(s: &Settings, path: &Path) -> Option<String> {
    let mut file = checked::options().read(true).open(path).ok()?;
    checked::check_file(&file, path).ok()?;
    match file.try_lock() {
        Ok(()) => {}
        Err(TryLockError::WouldBlock) => return None,
        Err(TryLockError::Error(_)) => return None,
    }
    let marker = path.with_extension("commit");
    let committed = fs::symlink_metadata(&marker).is_ok();
    let mut bytes = Vec::new();
    let parsed = (&mut file)
        .take(16 << 20)
        .read_to_end(&mut bytes)
        .ok()
        .and_then(|_| serde_json::from_slice::<Journal>(&bytes).ok())
        .filter(|j| j.version == VERSION);
    let Some(journal) = parsed else {
        if committed {
            return Some(format!(
                "an interrupted multi-file change left the journal {}, which cannot be read; it was left in place: check the files it names",
                path.display()
            ));
        }
        // Killed while the journal was written: nothing was staged yet.
        let _ = fs::remove_file(path);
        return None;
    };
    let root = journal
        .root
        .as_deref()
        .and_then(|r| Root::new(&path_from_key(r)).ok());
    let targets: Vec<PathBuf> = journal
        .entries
        .iter()
        .map(|e| path_from_key(&e.target))
        .collect();
    let refs: Vec<&Path> = targets.iter().map(PathBuf::as_path).collect();
    // Nothing else touches those files while they are set right.
    let _locks = s.store().lock_mutations(&refs).ok()?;
    let mut skipped = Vec::new();
    // New content first; the deletions only when all of it is in place (a move's source goes
    // only once its destination is there).
    let mut landed = true;
    for pass in [false, true] {
        for (entry, target) in journal.entries.iter().zip(&targets) {
            if (entry.action == Action::Delete) != pass {
                continue;
            }
            let parent = match Parent::open(root.as_ref(), target, Parents::Existing) {
                Ok(p) => p,
                Err(_) => {
                    skipped.push(target.display().to_string());
                    landed &= entry.action == Action::Delete;
                    continue;
                }
            };
            let ok = if !committed || (pass && !landed) {
                roll_back(&parent, entry);
                !committed
            } else {
                roll_forward(&parent, entry)
            };
            if !ok {
                skipped.push(target.display().to_string());
                landed &= entry.action == Action::Delete;
            }
            let _ = parent.sync();
        }
    }
    let _ = fs::remove_file(&marker);
    let _ = fs::remove_file(path);
    let names: Vec<String> = targets.iter().map(|t| t.display().to_string()).collect();
    let what = if committed {
        "finished"
    } else {
        "rolled back (nothing had changed)"
    };
    let mut message = format!(
        "a multi-file change interrupted in process {} (session {}) was {what}: {}",
        journal.pid,
        journal.session,
        names.join(", ")
    );
    if !skipped.is_empty() {
        message.push_str(&format!(
            "; left as they were (they no longer hold what the change expected, cannot be changed, or a file the change needed first could not be put in place): {}",
            skipped.join(", ")
        ));
    }
    if committed {
        message.push_str("; read the files again before changing them");
    }
    Some(message)
}

/// The hash of the target now (None: missing or unreadable).
fn target_sha256(parent: &Parent) -> Option<String> {
    let (mut file, _) = parent.open_target().ok()??;
    probe::sha256_stream(&mut file, parent.target())
        .ok()
        .map(|(h, _)| h)
}

fn temp_name(entry: &Entry) -> Option<OsString> {
    entry
        .temp
        .as_deref()
        .map(|t| path_from_key(t).into_os_string())
        // One component of the target's directory, hidden (a name quill made).
        .filter(|n| {
            Path::new(n).file_name() == Some(n.as_os_str()) && sys::os_bytes(n).starts_with(b".")
        })
}

/// Complete one entry of a committed transaction; false when the target holds something the
/// transaction did not expect (it is then left alone, and its temporary file removed).
fn roll_forward(parent: &Parent, entry: &Entry) -> bool {
    let now = target_sha256(parent);
    match entry.action {
        Action::Delete => {
            let done = match now {
                None => true,
                Some(h) if Some(&h) == entry.old_sha256.as_ref() => parent.remove_target().is_ok(),
                Some(_) => false,
            };
            if let Some(probe) = temp_name(entry) {
                let _ = parent.unlink(&probe);
            }
            done
        }
        Action::Replace | Action::Create => {
            let Some(temp) = temp_name(entry) else {
                return false;
            };
            let temp_there = parent.has(&temp);
            if !temp_there {
                // Renamed before the crash, or never staged (then the target is unchanged).
                return now.is_some() && now == entry.new_sha256;
            }
            let expected_before = match entry.action {
                Action::Replace => now.is_some() && now == entry.old_sha256,
                _ => now.is_none(),
            };
            if !expected_before {
                let _ = parent.unlink(&temp);
                return now.is_some() && now == entry.new_sha256;
            }
            let renamed = match entry.action {
                Action::Replace => parent.rename_over(&temp).is_ok(),
                _ => parent.rename_noreplace(&temp).is_ok(),
            };
            if !renamed {
                let _ = parent.unlink(&temp);
            }
            renamed
        }
    }
}

/// Undo one entry of a transaction that never reached its commit point: its temporary file
/// goes; the target was never touched.
fn roll_back(parent: &Parent, entry: &Entry) {
    if let Some(temp) = temp_name(entry) {
        let _ = parent.unlink(&temp);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn settings(dir: &Path) -> Settings {
        crate::settings::for_tests(dir, false)
    }

    fn tmp() -> (tempfile::TempDir, PathBuf) {
        let t = tempfile::tempdir().unwrap();
        let dir = fs::canonicalize(t.path()).unwrap();
        (t, dir)
    }

    fn parent(dir: &Path, name: &str) -> Parent {
        Parent::open(None, &dir.join(name), Parents::Existing).unwrap()
    }

    #[test]
    fn a_commit_lands_every_member_and_leaves_no_journal() {
        let (_t, dir) = tmp();
        let s = settings(&dir);
        fs::write(dir.join("a"), "old a\n").unwrap();
        fs::write(dir.join("gone"), "bye\n").unwrap();
        let (pa, pn, pg) = (parent(&dir, "a"), parent(&dir, "new"), parent(&dir, "gone"));
        let meta_a = fs::metadata(dir.join("a")).unwrap();
        let meta_g = fs::metadata(dir.join("gone")).unwrap();
        let old_a = sha256_bytes(b"old a\n");
        let old_g = sha256_bytes(b"bye\n");
        let members = [
            Member {
                parent: &pa,
                action: Action::Replace,
                bytes: b"new a\n",
                like: Some(&meta_a),
                mode: None,
                old_sha256: Some(&old_a),
                new_sha256: None,
            },
            Member {
                parent: &pn,
                action: Action::Create,
                bytes: b"created\n",
                like: None,
                mode: Some(0o640),
                old_sha256: None,
                new_sha256: None,
            },
            Member {
                parent: &pg,
                action: Action::Delete,
                bytes: b"",
                like: Some(&meta_g),
                mode: None,
                old_sha256: Some(&old_g),
                new_sha256: None,
            },
        ];
        let metas = commit(&s, &members).unwrap();
        assert!(metas[0].is_some() && metas[1].is_some() && metas[2].is_none());
        assert_eq!(fs::read(dir.join("a")).unwrap(), b"new a\n");
        assert_eq!(fs::read(dir.join("new")).unwrap(), b"created\n");
        assert_eq!(fs::metadata(dir.join("new")).unwrap().mode() & 0o777, 0o640);
        assert!(!dir.join("gone").exists());
        assert_eq!(fs::read_dir(dir.join(".state/journal")).unwrap().count(), 0);
        let left: Vec<_> = fs::read_dir(&dir)
            .unwrap()
            .flatten()
            .filter(|e| e.file_name().to_string_lossy().contains(".quill-"))
            .collect();
        assert!(left.is_empty(), "{left:?}");
    }

    /// A journal as a killed process leaves it: temporary files staged, maybe the marker.
    fn crashed(dir: &Path, committed: bool, pid: u32) -> PathBuf {
        let jdir = dir.join(".state/journal");
        fs::create_dir_all(&jdir).unwrap();
        fs::write(dir.join(".a.quill-x-0.tmp"), "new a\n").unwrap();
        fs::write(dir.join(".new.quill-x-1.tmp"), "created\n").unwrap();
        let journal = Journal {
            version: VERSION,
            id: "x".into(),
            pid,
            session: "t".into(),
            root: None,
            entries: vec![
                Entry {
                    target: path_key(&dir.join("a")),
                    temp: Some(".a.quill-x-0.tmp".into()),
                    action: Action::Replace,
                    old_sha256: Some(sha256_bytes(b"old a\n")),
                    new_sha256: Some(sha256_bytes(b"new a\n")),
                },
                Entry {
                    target: path_key(&dir.join("new")),
                    temp: Some(".new.quill-x-1.tmp".into()),
                    action: Action::Create,
                    old_sha256: None,
                    new_sha256: Some(sha256_bytes(b"created\n")),
                },
                Entry {
                    target: path_key(&dir.join("gone")),
                    temp: None,
                    action: Action::Delete,
                    old_sha256: Some(sha256_bytes(b"bye\n")),
                    new_sha256: None,
                },
            ],
        };
        let path = jdir.join("x.json");
        fs::write(&path, serde_json::to_vec(&journal).unwrap()).unwrap();
        if committed {
            fs::write(jdir.join("x.commit"), "").unwrap();
        }
        path
    }

    fn start(dir: &Path) {
        fs::write(dir.join("a"), "old a\n").unwrap();
        fs::write(dir.join("gone"), "bye\n").unwrap();
        let _ = fs::remove_file(dir.join("new"));
    }

    #[test]
    fn recovery_rolls_a_committed_journal_forward_and_another_back() {
        let (_t, dir) = tmp();
        let s = settings(&dir);
        s.store().ensure_dirs().unwrap();
        start(&dir);
        let j = crashed(&dir, true, 4_000_000);
        recover(&s);
        assert_eq!(fs::read(dir.join("a")).unwrap(), b"new a\n");
        assert_eq!(fs::read(dir.join("new")).unwrap(), b"created\n");
        assert!(!dir.join("gone").exists() && !j.exists());
        let w = s.warnings.take();
        assert_eq!(w.len(), 1);
        assert!(w[0].message.contains("was finished"), "{}", w[0].message);

        start(&dir);
        let j = crashed(&dir, false, 4_000_000);
        recover(&s);
        assert_eq!(fs::read(dir.join("a")).unwrap(), b"old a\n");
        assert!(!dir.join("new").exists() && dir.join("gone").exists() && !j.exists());
        assert!(!dir.join(".a.quill-x-0.tmp").exists() && !dir.join(".new.quill-x-1.tmp").exists());
        assert!(s.warnings.take()[0].message.contains("rolled back"));
    }

    /// Roll-forward touches only targets that hold what the transaction expected.
    #[test]
    fn recovery_leaves_a_file_changed_since_alone_and_names_it() {
        let (_t, dir) = tmp();
        let s = settings(&dir);
        s.store().ensure_dirs().unwrap();
        start(&dir);
        fs::write(dir.join("a"), "someone else\n").unwrap();
        fs::write(dir.join("new"), "made meanwhile\n").unwrap();
        crashed(&dir, true, 4_000_000);
        recover(&s);
        assert_eq!(fs::read(dir.join("a")).unwrap(), b"someone else\n");
        assert_eq!(fs::read(dir.join("new")).unwrap(), b"made meanwhile\n");
        // Some new content could not be put in place: nothing is deleted (a move's source
        // stays while its destination is missing).
        assert!(
            dir.join("gone").exists(),
            "a deletion after a failed creation"
        );
        let m = &s.warnings.take()[0].message;
        assert!(m.contains("left as they were") && m.contains("/a"), "{m}");
        assert!(!dir.join(".a.quill-x-0.tmp").exists());
    }

    /// A journal whose owner still holds its lock is not touched.
    #[test]
    fn a_live_transaction_is_left_alone() {
        let (_t, dir) = tmp();
        let s = settings(&dir);
        s.store().ensure_dirs().unwrap();
        start(&dir);
        let j = crashed(&dir, true, std::process::id());
        let held = File::open(&j).unwrap();
        held.lock().unwrap();
        recover(&s);
        assert_eq!(fs::read(dir.join("a")).unwrap(), b"old a\n");
        assert!(j.exists() && s.warnings.take().is_empty());
        // Unlocked, not just closed: a child another test is spawning may hold a copy of the
        // descriptor (and with it the lock) until it execs.
        held.unlock().unwrap();
        drop(held);
        // A journal cut short by a crash while it was written (no marker): removed quietly.
        fs::write(&j, "{\"version\":1,").unwrap();
        fs::remove_file(j.with_extension("commit")).unwrap();
        recover(&s);
        assert!(!j.exists() && s.warnings.take().is_empty());
    }
}
