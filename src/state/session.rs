//! One session's state as data (docs/model.md): the read baselines (at most 512, least
//! recently used evicted), the undo steps and the removals an undo has begun, in the
//! versioned JSON format of the first line of
//! `sessions/<sha256 of the name>.json`. It also keeps, unstored, which entries changed since
//! it was loaded (`Changes`), so that an update can append just those (`state::delta`).
//! Pure: parsing, lookups and eviction only; reading and writing the file under its lock is
//! `state`'s job, the undo blobs `state::history`'s.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;

use crate::fs::probe::Identity;
use crate::sys;

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
    /// When the session's last change of the file was an edit that left it at `sha256`: that
    /// edit's fingerprint (so a re-sent edit is not applied twice).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub edit: Option<String>,
    /// The content is the session's own change of the file (a write, an edit, an undo), not
    /// what a read showed: the line numbers the caller holds are those of the version it read,
    /// so a line-addressed edit needs a read first. A read clears it; absent (older state
    /// files) means read.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub written: bool,
    /// A newer version of the file whose change since this baseline a `stale` answer showed
    /// the session as a diff: for edits, that version counts as seen (docs/model.md#a-living-
    /// tree). A read or a change of the session's own replaces the baseline and clears it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shown: Option<ShownVersion>,
}

/// A version of a file shown to a session as a diff, and the call that was answered with it.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct ShownVersion {
    pub sha256: String,
    /// The fingerprint of the line-addressed call answered, and the version whose line numbers
    /// it used: the same call re-sent still numbers lines of that version.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub call: Option<(String, String)>,
    /// The fingerprint of a call refused because its lines meet the change: sent again as it
    /// was, it is refused again (the others go ahead against this version).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub refused: Option<String>,
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
            edit: None,
            written: false,
            shown: None,
        }
    }
}

/// One undo step: the content before a mutation (None: the file did not exist) and after.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct UndoStep {
    pub before: Option<String>,
    /// What the file held after the mutation (its SHA-256); empty when the mutation removed it.
    pub after: String,
    pub size: u64,
    /// The mutation removed the file (`quill rm`): undo recreates it, only where nothing is.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub removed: bool,
    /// The removed file's permission bits, which undo gives it back.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mode: Option<u32>,
    /// The session clock when the step was taken (the oldest step is dropped first).
    #[serde(default)]
    pub at: u64,
    /// The steps one multi-file change (`apply`) took share this: `quill undo` without a path
    /// reverts them together.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub group: Option<u64>,
}

/// A session's state file.
///
/// Baselines are kept as raw JSON and parsed only when one is looked at: a read or an edit
/// touches one entry of up to 512, and copying the others through unparsed keeps the per-call
/// cost of a full session small (the goals in the README's Benchmarks).
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Session {
    pub version: u32,
    pub session: String,
    #[serde(default)]
    pub clock: u64,
    /// Baselines keyed by `path_key` of the canonical path.
    #[serde(default, deserialize_with = "sorted_files")]
    pub(super) files: BTreeMap<String, Box<RawValue>>,
    /// Undo history keyed like `files`, oldest step first. Changed only through the methods
    /// below, which note the change (`Changes`).
    #[serde(default)]
    pub(super) history: BTreeMap<String, Vec<UndoStep>>,
    /// Files an undo of their creation is removing, keyed like `files`: the SHA-256 of the
    /// content being removed. Recorded before the unlink and cleared with the baseline after
    /// it, so that a mark found with the file gone means that undo was carried out (and killed
    /// before it could record so), not that someone else deleted the file.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub(super) removing: BTreeMap<String, String>,
    /// The key of the lines appended to this version of the file (`state::delta`), new each
    /// time it is written whole: a line counts only when its hash covers the key, so that no
    /// line of another file, or of an earlier version of this one, is ever replayed (a power
    /// cut can leave their blocks in a file). None: no line may follow (a file of an earlier
    /// quill).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(super) lines: Option<String>,
    /// What changed since the session was loaded or last saved (not stored).
    #[serde(skip)]
    pub(super) changes: Changes,
}

/// The baselines of a session file, built in one pass from the sorted run it holds (a map
/// is written in key order) rather than inserted one by one. Of a key given twice the last
/// counts, as it would inserted.
fn sorted_files<'de, D>(d: D) -> Result<BTreeMap<String, Box<RawValue>>, D::Error>
where
    D: serde::Deserializer<'de>,
{
    struct Entries;
    impl<'de> serde::de::Visitor<'de> for Entries {
        type Value = Vec<(String, Box<RawValue>)>;

        fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            f.write_str("a map of baselines")
        }

        fn visit_map<A: serde::de::MapAccess<'de>>(
            self,
            mut map: A,
        ) -> Result<Self::Value, A::Error> {
            let mut entries = Vec::with_capacity(map.size_hint().unwrap_or(0).min(4 * MAX_FILES));
            while let Some(entry) = map.next_entry()? {
                entries.push(entry);
            }
            Ok(entries)
        }
    }
    Ok(d.deserialize_map(Entries)?.into_iter().collect())
}

/// What changed in a session since it was loaded or saved: the keys of the baselines set or
/// removed, each file whose undo steps changed with its steps as they were before, the clock
/// then, and whether the file must be written whole (a change `state::delta` does not
/// express: the removal marks, `write_whole`).
#[derive(Debug, Clone, Default)]
pub(super) struct Changes {
    pub files: BTreeSet<String>,
    pub history: BTreeMap<String, Option<Vec<UndoStep>>>,
    pub clock: u64,
    pub whole: bool,
    /// The versions (SHA-256) that baselines named before they were replaced or removed: their
    /// kept bytes go once no baseline names them (`state::kept`).
    pub dropped: Vec<String>,
}

impl Session {
    pub fn empty(name: &str) -> Session {
        Session {
            version: VERSION,
            session: name.to_string(),
            clock: 0,
            files: BTreeMap::new(),
            history: BTreeMap::new(),
            removing: BTreeMap::new(),
            lines: None,
            changes: Changes::default(),
        }
    }

    /// From here on, changes are counted from the session as it is now (it was just loaded
    /// or saved).
    pub(super) fn settle_changes(&mut self) {
        self.changes = Changes {
            clock: self.clock,
            ..Changes::default()
        };
    }

    /// Have the next save write the file whole, leaving no trace of what was removed
    /// (`quill state forget`).
    pub fn write_whole(&mut self) {
        self.changes.whole = true;
    }

    /// Make every baseline's JSON one line (a file written by hand may spread one over
    /// several; the session is stored as one line).
    pub(super) fn compact_baselines(&mut self) {
        for raw in self.files.values_mut() {
            if raw.get().contains('\n')
                && let Ok(value) = serde_json::from_str::<serde_json::Value>(raw.get())
                && let Ok(compact) = serde_json::value::to_raw_value(&value)
            {
                *raw = compact;
            }
        }
    }

    /// The undo history: each file's steps, oldest first.
    pub fn history(&self) -> &BTreeMap<String, Vec<UndoStep>> {
        &self.history
    }

    /// The undo steps of `key`, created empty when there are none.
    pub fn steps_entry(&mut self, key: &str) -> &mut Vec<UndoStep> {
        self.note_steps(key);
        self.history.entry(key.to_string()).or_default()
    }

    /// The undo steps of `key`, when it has any.
    pub fn steps_mut(&mut self, key: &str) -> Option<&mut Vec<UndoStep>> {
        if !self.history.contains_key(key) {
            return None;
        }
        self.note_steps(key);
        self.history.get_mut(key)
    }

    /// Remove the undo steps of `key`; what they were.
    pub fn remove_steps(&mut self, key: &str) -> Option<Vec<UndoStep>> {
        if !self.history.contains_key(key) {
            return None;
        }
        self.note_steps(key);
        self.history.remove(key)
    }

    /// Note that the steps of `key` are about to change (keeping them as they were first).
    fn note_steps(&mut self, key: &str) {
        if !self.changes.history.contains_key(key) {
            let before = self.history.get(key).cloned();
            self.changes.history.insert(key.to_string(), before);
        }
    }

    /// The baseline of `path`; an entry that does not parse counts as none (fail closed).
    /// Record that a `stale` answer showed the session the change of `path` up to the version
    /// `shown` (with the line-addressed call it answered): for edits, that version counts as
    /// seen. Nothing when the session has no baseline of the file.
    pub fn note_shown(&mut self, path: &Path, shown: ShownVersion) {
        let Some(mut b) = self.baseline(path) else {
            return;
        };
        if let Some(prior) = b.shown.replace(shown)
            && Some(&prior.sha256) != b.shown.as_ref().map(|s| &s.sha256)
        {
            self.changes.dropped.push(prior.sha256);
        }
        let key = path_key(path);
        if let Ok(raw) = serde_json::value::to_raw_value(&b) {
            self.changes.files.insert(key.clone());
            self.files.insert(key, raw);
        }
    }

    /// The versions in `dropped` that no baseline names any more.
    pub(super) fn unnamed(&self, dropped: &[String]) -> Vec<String> {
        dropped
            .iter()
            .filter(|sha| {
                !self
                    .files
                    .values()
                    .any(|raw| raw.get().contains(sha.as_str()))
            })
            .cloned()
            .collect()
    }

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

    /// Record (or refresh) a baseline, evicting the least recently used past `MAX_FILES`. A
    /// baseline of the same content as the one it replaces keeps that one's `edit`: a read
    /// (or a write of identical bytes) is not a change of the file.
    pub fn record(&mut self, mut baseline: Baseline) {
        // The clock comes from the file: one at u64::MAX stays there rather than overflow.
        self.clock = self.clock.saturating_add(1);
        baseline.used = self.clock;
        let key = path_key(&baseline.path);
        if let Some(prior) = self.files.get(&key) {
            let prior = Versions::of(prior);
            if baseline.edit.is_none() && prior.sha256 == baseline.sha256 {
                baseline.edit = prior.edit.clone();
            }
            self.changes.dropped.extend(prior.named());
        }
        let Ok(raw) = serde_json::value::to_raw_value(&baseline) else {
            return;
        };
        // The file is there: an undo that meant to remove it did not (or is long settled).
        if !self.removing.is_empty() && self.removing.remove(&key).is_some() {
            self.changes.whole = true;
        }
        self.changes.files.insert(key.clone());
        self.files.insert(key, raw);
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
                if let Some(raw) = self.files.remove(&key) {
                    self.changes.dropped.extend(Versions::of(&raw).named());
                }
                self.changes.files.insert(key);
            }
        }
    }

    pub fn forget(&mut self, path: &Path) -> bool {
        let key = path_key(path);
        if self.removing.remove(&key).is_some() {
            self.changes.whole = true;
        }
        let had = self.files.remove(&key);
        if let Some(raw) = &had {
            self.changes.dropped.extend(Versions::of(raw).named());
        }
        self.changes.files.insert(key);
        had.is_some()
    }

    /// Mark `path` as being removed by an undo of its creation; `sha256` is what it holds.
    pub fn mark_removing(&mut self, path: &Path, sha256: &str) {
        self.removing.insert(path_key(path), sha256.to_string());
        self.changes.whole = true;
    }

    /// Drop the mark of `mark_removing` (the removal failed: the file is still there).
    pub fn unmark_removing(&mut self, path: &Path) {
        self.removing.remove(&path_key(path));
        self.changes.whole = true;
    }

    /// Whether an undo of `path`'s creation was begun and not recorded as finished.
    pub fn is_removing(&self, path: &Path) -> bool {
        self.removing.contains_key(&path_key(path))
    }

    /// Finish the undo of `path`'s creation that was marked, for a caller that found the file
    /// gone: the mark and the baseline go, and the undone step (a creation of that content)
    /// is popped. Whether there was a mark.
    pub fn settle_removal(&mut self, path: &Path) -> bool {
        let key = path_key(path);
        let Some(sha256) = self.removing.remove(&key) else {
            return false;
        };
        self.changes.whole = true;
        self.files.remove(&key);
        if let Some(steps) = self.steps_mut(&key) {
            if steps
                .last()
                .is_some_and(|s| s.before.is_none() && s.after == sha256)
            {
                steps.pop();
            }
            if steps.is_empty() {
                self.remove_steps(&key);
            }
        }
        true
    }
}

/// The versions one stored baseline names: its own and the one a diff showed.
#[derive(Deserialize)]
struct Versions {
    sha256: String,
    #[serde(default)]
    edit: Option<String>,
    #[serde(default)]
    shown: Option<ShownVersion>,
}

impl Versions {
    fn of(raw: &RawValue) -> Versions {
        serde_json::from_str(raw.get()).unwrap_or(Versions {
            sha256: String::new(),
            edit: None,
            shown: None,
        })
    }

    fn named(self) -> impl Iterator<Item = String> {
        std::iter::once(self.sha256)
            .chain(self.shown.map(|s| s.sha256))
            .filter(|s| !s.is_empty())
    }
}

/// The map key of a path: the path itself when it is UTF-8, else a tagged hex of its bytes
/// (so that two different non-UTF-8 paths never share a key).
pub fn path_key(path: &Path) -> String {
    match path.to_str() {
        Some(s) => s.to_string(),
        None => format!(
            "\u{0}hex:{}",
            crate::text::hex(&sys::os_bytes(path.as_os_str()))
        ),
    }
}

/// The inverse of `path_key`.
pub fn path_from_key(key: &str) -> PathBuf {
    match key.strip_prefix("\u{0}hex:") {
        Some(hex) if hex.len() % 2 == 0 => {
            let bytes: Option<Vec<u8>> = (0..hex.len())
                .step_by(2)
                .map(|i| u8::from_str_radix(hex.get(i..i + 2)?, 16).ok())
                .collect();
            bytes.map_or_else(|| PathBuf::from(key), |b| PathBuf::from(sys::os_string(b)))
        }
        _ => PathBuf::from(key),
    }
}

pub fn now_ns() -> i128 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as i128)
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
            edit: None,
            written: false,
            shown: None,
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
    fn record_forget_and_list() {
        let mut s = Session::empty("t");
        assert!(s.is_empty() && s.baselines().is_empty());
        assert_eq!(s.len(), 0);
        s.record(baseline("/b"));
        s.record(baseline("/a"));
        assert!(!s.is_empty());
        assert_eq!(s.len(), 2);
        let paths: Vec<PathBuf> = s.baselines().into_iter().map(|b| b.path).collect();
        assert_eq!(paths, [PathBuf::from("/a"), PathBuf::from("/b")]);
        assert_eq!(s.baseline(Path::new("/a")).unwrap().used, 2);
        assert!(s.forget(Path::new("/a")));
        assert!(!s.forget(Path::new("/a")));
        assert_eq!(s.len(), 1);
    }

    /// A file over the bound (written by another version, or by hand) is trimmed back to it
    /// at the next record, oldest first.
    #[test]
    fn an_overfull_session_is_trimmed_to_the_bound() {
        let mut s = Session::empty("t");
        for i in 0..MAX_FILES + 3 {
            let mut b = baseline(&format!("/f{i}"));
            b.used = i as u64 + 1;
            let raw = serde_json::value::to_raw_value(&b).unwrap();
            s.files.insert(path_key(&b.path), raw);
        }
        s.clock = (MAX_FILES + 3) as u64;
        s.record(baseline("/new"));
        assert_eq!(s.len(), MAX_FILES);
        assert!(s.baseline(Path::new("/f3")).is_none());
        assert!(s.baseline(Path::new("/f4")).is_some());
        assert!(s.baseline(Path::new("/new")).is_some());
    }

    #[test]
    fn a_marked_removal_is_settled_only_once_and_only_when_marked() {
        let mut s = Session::empty("t");
        let created = UndoStep {
            before: None,
            after: "c1".into(),
            size: 0,
            at: 1,
            removed: false,
            mode: None,
            group: None,
        };
        let older = UndoStep {
            before: Some("b0".into()),
            after: "c0".into(),
            size: 1,
            at: 0,
            removed: false,
            mode: None,
            group: None,
        };
        s.record(baseline("/f"));
        s.steps_entry(&path_key(Path::new("/f")))
            .extend([older.clone(), created]);
        assert!(
            !s.settle_removal(Path::new("/f")),
            "no mark: nothing settled"
        );
        assert!(s.baseline(Path::new("/f")).is_some());
        s.mark_removing(Path::new("/f"), "c1");
        assert!(s.is_removing(Path::new("/f")) && !s.is_removing(Path::new("/g")));
        let json = serde_json::to_string(&s).unwrap();
        let mut s: Session = serde_json::from_str(&json).unwrap();
        assert!(s.settle_removal(Path::new("/f")));
        assert!(s.baseline(Path::new("/f")).is_none());
        assert_eq!(s.history[&path_key(Path::new("/f"))], [older]);
        assert!(!s.is_removing(Path::new("/f")));
        assert!(!s.settle_removal(Path::new("/f")), "settled once");
        // A mark whose step is not the last creation leaves the steps alone.
        s.mark_removing(Path::new("/f"), "other");
        assert!(s.settle_removal(Path::new("/f")));
        assert_eq!(s.history[&path_key(Path::new("/f"))].len(), 1);
        // A recorded baseline (the file is there) or a forget clears a mark.
        s.mark_removing(Path::new("/f"), "c0");
        s.record(baseline("/f"));
        assert!(!s.is_removing(Path::new("/f")));
        s.mark_removing(Path::new("/f"), "c0");
        s.forget(Path::new("/f"));
        assert!(!s.is_removing(Path::new("/f")));
        assert!(!serde_json::to_string(&s).unwrap().contains("removing"));
    }

    #[test]
    fn a_baseline_of_the_same_content_keeps_the_last_edit_and_other_content_drops_it() {
        let mut s = Session::empty("t");
        let mut edited = baseline("/a");
        edited.edit = Some("fp".into());
        s.record(edited);
        s.record(baseline("/a")); // a read of what the edit wrote
        assert_eq!(
            s.baseline(Path::new("/a")).unwrap().edit.as_deref(),
            Some("fp")
        );
        let mut other = baseline("/a");
        other.sha256 = "11".into(); // a write of other content
        s.record(other);
        assert_eq!(s.baseline(Path::new("/a")).unwrap().edit, None);
        s.record(baseline("/a")); // back to the first content: the edit is not the last change
        assert_eq!(s.baseline(Path::new("/a")).unwrap().edit, None);
    }

    /// `written` is stored only when set, an entry without it (older quill) loads as a read's,
    /// and a read's baseline of the same content clears it.
    #[test]
    fn written_is_stored_only_when_set_and_a_read_clears_it() {
        let mut s = Session::empty("t");
        s.record(baseline("/a"));
        assert!(!serde_json::to_string(&s).unwrap().contains("written"));
        let mut own = baseline("/a");
        own.written = true;
        s.record(own);
        let json = serde_json::to_string(&s).unwrap();
        assert!(json.contains(r#""written":true"#), "{json}");
        let s2: Session = serde_json::from_str(&json).unwrap();
        assert!(s2.baseline(Path::new("/a")).unwrap().written);
        s.record(baseline("/a"));
        assert!(!s.baseline(Path::new("/a")).unwrap().written);
        let old = r#"{"version":1,"session":"t","files":{"/o":{"sha256":"00","size":0,"dev":0,"ino":0,"mtimeNs":0,"ctimeNs":0,"readAtNs":0,"complete":true,"used":1}}}"#;
        let s3: Session = serde_json::from_str(old).unwrap();
        assert!(!s3.baseline(Path::new("/o")).unwrap().written);
    }

    /// Baselines are read in any order, and of a key given twice the last counts.
    #[test]
    fn baselines_of_a_file_in_any_order_and_a_repeated_key() {
        let entry = |sha: &str| {
            format!(
                r#"{{"sha256":"{sha}","size":0,"dev":0,"ino":0,"mtimeNs":0,"ctimeNs":0,"readAtNs":0,"complete":true,"used":1}}"#
            )
        };
        let file = format!(
            r#"{{"version":1,"session":"t","files":{{"/b":{},"/a":{},"/b":{}}}}}"#,
            entry("b1"),
            entry("a1"),
            entry("b2")
        );
        let s: Session = serde_json::from_str(&file).unwrap();
        assert_eq!(s.len(), 2);
        assert_eq!(s.baseline(Path::new("/b")).unwrap().sha256, "b2");
        let paths: Vec<PathBuf> = s.baselines().into_iter().map(|b| b.path).collect();
        assert_eq!(paths, [PathBuf::from("/a"), PathBuf::from("/b")]);
    }

    #[test]
    fn now_is_after_2020() {
        assert!(now_ns() > 1_577_836_800 * 1_000_000_000);
        assert!(now_ns() < 4_102_444_800 * 1_000_000_000);
    }

    #[test]
    fn non_utf8_paths_get_distinct_keys() {
        let a = &PathBuf::from(sys::os_string(b"/a\xff".to_vec()));
        let b = &PathBuf::from(sys::os_string(b"/a\xfe".to_vec()));
        assert_ne!(path_key(a), path_key(b));
        assert_eq!(&path_from_key(&path_key(a)), a);
        assert_eq!(path_from_key("/x/y"), Path::new("/x/y"));
    }
}
