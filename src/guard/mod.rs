//! The guarded mutation path shared by `write`, `edit`, `undo` and `rm` (docs/model.md):
//! resolve and refuse read-only runs, take the per-path mutation lock (held until the report is
//! built), load and re-hash the target, judge freshness against the session's baseline or an
//! explicit `--expect-sha256`, publish, record the new baseline and the undo step, and render
//! the diff into a `MutationReport`. The commands only decide *what* the new content is.

pub(crate) mod journal;
pub(crate) mod parent;
pub(crate) mod publish;

use crate::sys::MetadataExt;
use std::fs::Metadata;
use std::io::Read;
use std::path::Path;

use crate::error::{Error, Result};
use crate::fs::paths::{self, Resolved};
use crate::fs::probe::{self, Identity, sha256_bytes};
use crate::guard::parent::{Parent, Parents};
use crate::report::{AsTyped, FileAccess, MutationReport};
use crate::settings::Settings;
use crate::state::history::Before;
use crate::state::lock::LockGuard;
use crate::state::session::Session;
use crate::state::{Baseline, path_key};
use crate::text::diff::{self, PatchTarget};
use crate::warnings::{Warning, WarningKind};
use publish::Staged;

/// Content above this (old or new) gets no diff: the line diff would cost more than the change.
pub(crate) const DIFF_INPUT_MAX: usize = 16 * 1024 * 1024;

/// A resolved target with its mutation lock held.
pub(crate) struct Locked {
    pub resolved: Resolved,
    _guards: Vec<LockGuard>,
}

impl Locked {
    pub(crate) fn target(&self) -> &Path {
        &self.resolved.target
    }
}

/// Resolve `path` and refuse read-only runs (before any waiting or staging).
pub(crate) fn resolve(s: &Settings, path: &Path, action: &'static str) -> Result<Resolved> {
    let resolved = paths::resolve(&s.cwd, s.root.as_ref(), path)?;
    s.check_writable(&resolved.target, action)?;
    Ok(resolved)
}

/// Take the mutation lock of a resolved target (docs/model.md).
pub(crate) fn lock(s: &Settings, resolved: Resolved) -> Result<Locked> {
    let guards = s.store().lock_mutations(&[&resolved.target])?;
    Ok(Locked {
        resolved,
        _guards: guards,
    })
}

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

/// Judge whether the session may replace `cur` (docs/model.md). Returns whether the caller's
/// knowledge of the file is complete (the new baseline's `complete`).
pub(crate) fn check_fresh(
    s: &Settings,
    target: &Path,
    cur: &Current,
    expect: Option<&str>,
) -> Result<bool> {
    check_fresh_edit(s, target, cur, expect).map(|(complete, _)| complete)
}

/// `check_fresh`, and the fingerprint of the edit that was the session's last change of the
/// file when the file still holds what that edit wrote (none with `--expect-sha256`).
pub(crate) fn check_fresh_edit(
    s: &Settings,
    target: &Path,
    cur: &Current,
    expect: Option<&str>,
) -> Result<(bool, Option<String>)> {
    Ok(match fresh_baseline(s, target, cur, expect)? {
        Some(b) => (b.complete, b.edit),
        None => (false, None),
    })
}

/// `check_fresh` for a line-addressed edit: the baseline must also be a read's — after the
/// session's own change of the file the lines the caller numbered have moved — else `stale`,
/// whose hint reads lines `around` (first, last) again. `--expect-sha256` stands in for the
/// read.
pub(crate) fn check_fresh_lines(
    s: &Settings,
    target: &Path,
    cur: &Current,
    expect: Option<&str>,
    around: (usize, usize),
) -> Result<bool> {
    match fresh_baseline(s, target, cur, expect)? {
        Some(b) if b.written => Err(Error::Stale {
            path: target.to_path_buf(),
            session: s.session.clone(),
            deleted: false,
            reread: Some(around),
        }),
        Some(b) => Ok(b.complete),
        None => Ok(false),
    }
}

/// `check_fresh` against a session already loaded (a change of many files loads it once).
pub(crate) fn check_fresh_in(
    s: &Settings,
    session: &Session,
    target: &Path,
    cur: &Current,
    expect: Option<&str>,
) -> Result<bool> {
    Ok(fresh_baseline_in(s, Some(session), target, cur, expect)?.is_some_and(|b| b.complete))
}

/// The freshness judgement: the session's baseline of `target` when it matches `cur`; None
/// when `--expect-sha256` matches instead.
fn fresh_baseline(
    s: &Settings,
    target: &Path,
    cur: &Current,
    expect: Option<&str>,
) -> Result<Option<Baseline>> {
    fresh_baseline_in(s, None, target, cur, expect)
}

/// `fresh_baseline` with the session loaded by the caller, or (None) loaded here.
fn fresh_baseline_in(
    s: &Settings,
    loaded: Option<&Session>,
    target: &Path,
    cur: &Current,
    expect: Option<&str>,
) -> Result<Option<Baseline>> {
    let stale = || Error::Stale {
        path: target.to_path_buf(),
        session: s.session.clone(),
        deleted: false,
        reread: None,
    };
    if let Some(expect) = expect {
        let expect = probe::parse_sha256("--expect-sha256", expect)?;
        if expect != cur.sha256 {
            return Err(stale());
        }
        return Ok(None);
    }
    // Loaded here, the session is kept for the update that records the change.
    let baseline = match loaded {
        Some(session) => session.baseline(target),
        None => s
            .store()
            .session(&s.session)
            .peek(|session| session.baseline(target))?,
    };
    let Some(baseline) = baseline else {
        return Err(Error::NotRead {
            path: target.to_path_buf(),
            session: s.session.clone(),
        });
    };
    if baseline.sha256 != cur.sha256 {
        return Err(stale());
    }
    if s.strict && !baseline.complete {
        return Err(Error::NotRead {
            path: target.to_path_buf(),
            session: s.session.clone(),
        });
    }
    Ok(Some(baseline))
}

/// Warn about hard links before replacing a file.
pub(crate) fn warn_hard_links(s: &Settings, target: &Path, meta: &Metadata) {
    if meta.nlink() > 1 {
        s.warn(
            WarningKind::HardLinks,
            format!(
                "{} has {} hard links; its other names keep the old content",
                target.display(),
                meta.nlink()
            ),
        );
    }
}

/// Publish `staged` over the existing file (`Some(meta)`) or as a new file (`None`); returns
/// the published file's metadata (from its descriptor).
pub(crate) fn commit(
    s: &Settings,
    staged: Staged,
    existing: Option<&Metadata>,
) -> Result<Metadata> {
    let committed = match existing {
        Some(meta) => {
            warn_hard_links(s, staged.target(), meta);
            staged.commit_replace(meta)?
        }
        None => staged.commit_new()?,
    };
    warn_all(s, committed.warnings);
    Ok(committed.meta)
}

/// fsync `parent`'s directory after a change in it (a removal, a rename), a failure being a
/// warning: `publish::sync_dir` with its warnings handed to the run.
pub(crate) fn sync_dir(s: &Settings, parent: &Parent) {
    warn_all(s, publish::sync_dir(parent));
}

fn warn_all(s: &Settings, warnings: Vec<Warning>) {
    for w in warnings {
        s.warnings.add(w);
    }
}

/// Stage `bytes` in `parent`'s directory.
pub(crate) fn stage<'p>(parent: &'p Parent, bytes: &[u8]) -> Result<Staged<'p>> {
    let mut staged = Staged::new(parent)?;
    staged.write_all(bytes)?;
    Ok(staged)
}

/// After publication: the new content becomes the session's baseline — marked as its own
/// (`written`), so a line-addressed edit needs a read first — and the undo step is kept, in
/// one state update.
pub(crate) fn record(
    s: &Settings,
    target: &Path,
    new_sha256: &str,
    complete: bool,
    before: Before,
    published: &Metadata,
) {
    record_edit(s, target, new_sha256, complete, before, published, None)
}

/// `record`, for a change made by the edit of fingerprint `edit`.
pub(crate) fn record_edit(
    s: &Settings,
    target: &Path,
    new_sha256: &str,
    complete: bool,
    before: Before,
    published: &Metadata,
    edit: Option<String>,
) {
    let id = Identity::of(published);
    let unchanged = matches!(before, Before::Unchanged);
    let key = path_key(target);
    let store = s.store();
    let file = store.session(&s.session);
    let history = file.history();
    let updated = file.update(|session| {
        // The session's own content, unless nothing changed: then the lines are still the
        // ones the baseline had.
        let written = !unchanged || session.baseline(target).is_none_or(|b| b.written);
        session.record(Baseline {
            edit,
            written,
            ..Baseline::new(target, new_sha256.to_string(), &id, complete)
        });
        history.push(session, &key, before, new_sha256);
    });
    committed_anyway(s, target, updated);
}

/// The change is on disk whatever the state update says: a failure there is a warning (the
/// next change is refused as stale until the file is read again — failing closed), never an
/// error that would make the caller believe nothing happened.
pub(crate) fn committed_anyway(s: &Settings, target: &Path, updated: Result<()>) {
    if let Err(e) = updated {
        s.warn(WarningKind::SessionNotUpdated, format!(
            "{} was changed, but the session could not record it ({e}); read it again before the next change",
            target.display()
        ));
    }
}

/// Creating a file that is not there: refused as `stale` when the caller expected a version
/// of it (`--expect-sha256`) or the session has read it — someone deleted it since, and a
/// change never lands on top of a change the caller has not seen. (An undo of its creation
/// that was killed after the unlink is no one else's deletion: `load_settled` finishes it.)
pub(crate) fn check_missing(s: &Settings, target: &Path, expect: Option<&str>) -> Result<()> {
    check_missing_in(s, None, target, expect)
}

/// `check_missing` against a session already loaded (a change of many files loads it once),
/// or (None) loaded here. A removal to settle is settled from a fresh load either way.
pub(crate) fn check_missing_in(
    s: &Settings,
    loaded: Option<&Session>,
    target: &Path,
    expect: Option<&str>,
) -> Result<()> {
    let known = expect.is_some()
        || match loaded {
            Some(session) if !session.is_removing(target) => session.baseline(target).is_some(),
            _ => s
                .store()
                .session(&s.session)
                .load_settled(target, || true)?
                .baseline(target)
                .is_some(),
        };
    if known {
        return Err(Error::Stale {
            path: target.to_path_buf(),
            session: s.session.clone(),
            deleted: true,
            reread: None,
        });
    }
    Ok(())
}

/// The path a patch names (docs/commands/write.md): relative to `--root`, else to the current directory
/// when below it (prefixed `a/`, `b/`), else absolute.
pub(crate) fn patch_path<'a>(s: &Settings, target: &'a Path) -> (&'a Path, bool) {
    let base = s.root.as_ref().map_or(s.cwd.as_path(), |r| r.dir.as_path());
    match target.strip_prefix(base) {
        Ok(rel) if !rel.as_os_str().is_empty() => (rel, true),
        _ => (target, false),
    }
}

/// What a mutation did, for its report.
pub(crate) struct Change<'a> {
    pub op: &'static str,
    pub resolved: &'a Resolved,
    pub created: bool,
    /// The file was deleted (rm, undo of a creation): its permission bits, for git's header.
    pub deleted: Option<u32>,
    pub dry_run: bool,
    /// Old content (None: the file did not exist or was too large to diff).
    pub old: Option<&'a [u8]>,
    /// New content (None: too large to diff).
    pub new: Option<&'a [u8]>,
    pub bytes: u64,
    /// The new content's hash; None when no file is left.
    pub sha256: Option<String>,
    pub previous_sha256: Option<String>,
    /// Why the patch cannot be given even though the diff can (e.g. UTF-16).
    pub patch_unavailable: Option<&'static str>,
}

/// UTF-16 content (by its BOM) decoded for the display diff.
fn utf16_text(bytes: &[u8]) -> Option<Vec<u8>> {
    let big_endian = match bytes {
        [0xFF, 0xFE, ..] => false,
        [0xFE, 0xFF, ..] => true,
        _ => return None,
    };
    Some(
        crate::text::encoding::decode_utf16(&bytes[2..], big_endian)
            .0
            .into_bytes(),
    )
}

pub(crate) fn report(s: &Settings, mut o: Change) -> MutationReport {
    // UTF-16 (write and undo see raw bytes; edit decodes itself): diff the decoded text, which a
    // person can read; a byte-exact text patch of UTF-16 cannot exist.
    let (old16, new16) = if o.patch_unavailable.is_none() {
        (o.old.and_then(utf16_text), o.new.and_then(utf16_text))
    } else {
        (None, None)
    };
    if old16.is_some() || new16.is_some() {
        o.patch_unavailable = Some("the file is UTF-16; the diff shows the decoded text");
    }
    let old_view = old16.as_deref().or(o.old);
    let new_view = new16.as_deref().or(o.new);
    let target = &o.resolved.target;
    let (path, prefixed) = patch_path(s, target);
    let pt = PatchTarget { path, prefixed };
    let old_known = o.created || old_view.is_some();
    let rendered = match (new_view, old_known) {
        (Some(new), true)
            if new.len() <= DIFF_INPUT_MAX
                && old_view.is_none_or(|b| b.len() <= DIFF_INPUT_MAX) =>
        {
            let old = old_view.unwrap_or(&[]);
            let mut r = diff::render(old, new, &pt, o.created);
            if let Some(mode) = o.deleted {
                // git knows two modes for regular files.
                let git_mode = if mode & 0o111 != 0 {
                    "100755"
                } else {
                    "100644"
                };
                r.patch = r.patch.map(|p| {
                    if p.is_empty() {
                        // An empty file: git's deletion patch is the header alone.
                        let (a, b) = diff::header_names(&pt);
                        format!("diff --git {a} {b}\ndeleted file mode {git_mode}\n")
                    } else {
                        deletion_patch(&p, git_mode)
                    }
                });
            }
            Some(r)
        }
        _ => None,
    };
    let mut m = MutationReport {
        op: o.op,
        path: target.clone(),
        via_symlink: o.resolved.via_symlink.clone(),
        file_access: (!o.dry_run).then(|| FileAccess::write(target)),
        created: o.created,
        dry_run: o.dry_run,
        bytes: o.bytes,
        sha256: o.sha256,
        previous_sha256: o.previous_sha256,
        diff: String::new(),
        diff_truncated: false,
        patch: None,
        patch_truncated: false,
        patch_unavailable: None,
        added: 0,
        removed: 0,
        replacements: None,
        matched_fuzzily: None,
        spans: None,
        replaced: None,
        encoding: None,
        deleted: o.deleted.is_some(),
        typed: AsTyped::one(target, &o.resolved.typed),
    };
    match rendered {
        Some(r) => {
            m.diff = r.diff;
            m.diff_truncated = r.diff_truncated;
            m.patch = r.patch;
            m.patch_truncated = r.patch_truncated;
            m.patch_unavailable = r.patch_unavailable;
            m.added = r.added;
            m.removed = r.removed;
        }
        None => {
            m.diff_truncated = true;
            m.patch_truncated = true;
        }
    }
    if let Some(why) = o.patch_unavailable {
        m.patch = None;
        m.patch_unavailable = Some(why);
    }
    m
}

/// Turn a patch that empties a file into one that deletes it (git's `deleted file mode`).
fn deletion_patch(patch: &str, git_mode: &str) -> String {
    let mut out = String::with_capacity(patch.len() + 32);
    for (i, line) in patch.split_inclusive('\n').enumerate() {
        if i == 0 {
            out.push_str(line);
            out.push_str(&format!("deleted file mode {git_mode}\n"));
        } else if line.starts_with("+++ ") && !out.contains("\n+++ ") {
            out.push_str("+++ /dev/null\n");
        } else {
            out.push_str(line);
        }
    }
    out
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

    #[test]
    fn utf16_is_decoded_by_its_bom() {
        assert_eq!(utf16_text(&[0xFF, 0xFE, b'h', 0, b'i', 0]).unwrap(), b"hi");
        assert_eq!(utf16_text(&[0xFE, 0xFF, 0, b'h', 0, b'i']).unwrap(), b"hi");
        assert!(utf16_text(b"hi").is_none());
        assert!(utf16_text(&[0xFF]).is_none());
    }

    #[test]
    fn patch_paths_are_relative_to_the_root_or_cwd() {
        let (_t, dir) = tmp();
        let s = settings(&dir, false);
        let ab = dir.join("a/b");
        assert_eq!(patch_path(&s, &ab), (Path::new("a/b"), true));
        // The directory itself: nothing relative is left, so the absolute path.
        assert_eq!(patch_path(&s, &dir), (dir.as_path(), false));
        assert_eq!(
            patch_path(&s, Path::new("/elsewhere/x")),
            (Path::new("/elsewhere/x"), false)
        );
        let mut rooted = settings(&dir, true);
        rooted.cwd = dir.join("sub");
        let x = dir.join("x");
        assert_eq!(patch_path(&rooted, &x), (Path::new("x"), true));
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

    fn change_report(
        dir: &Path,
        old: Option<&[u8]>,
        new: &[u8],
        deleted: Option<u32>,
    ) -> MutationReport {
        let s = settings(dir, false);
        let resolved = paths::resolve(dir, None, Path::new("f")).unwrap();
        report(
            &s,
            Change {
                op: "undo",
                resolved: &resolved,
                created: old.is_none(),
                deleted,
                dry_run: true,
                old,
                new: Some(new),
                bytes: new.len() as u64,
                sha256: None,
                previous_sha256: None,
                patch_unavailable: None,
            },
        )
    }

    /// One side in UTF-16 is enough: no byte-exact text patch can exist.
    #[test]
    fn a_change_to_or_from_utf16_has_no_patch() {
        let (_t, dir) = tmp();
        let utf16 = [0xFF, 0xFE, b'h', 0, b'i', 0, b'\n', 0];
        let to = change_report(&dir, Some(b"hi\n"), &utf16, None);
        assert!(to.patch.is_none() && to.patch_unavailable.is_some());
        let from = change_report(&dir, Some(&utf16), b"hi\n", None);
        assert!(from.patch.is_none() && from.patch_unavailable.is_some());
        let plain = change_report(&dir, Some(b"hi\n"), b"ho\n", None);
        assert!(plain.patch.is_some() && plain.patch_unavailable.is_none());
    }

    /// An undone creation's patch deletes the file with its git mode: 100755 only when an
    /// execute bit is set.
    #[test]
    fn a_deletion_patch_names_the_git_mode() {
        let (_t, dir) = tmp();
        for (mode, git) in [
            (0o100644, "100644"),
            (0o100600, "100644"),
            (0o100755, "100755"),
            (0o100700, "100755"),
        ] {
            let r = change_report(&dir, Some(b"x\n"), b"", Some(mode));
            let patch = r.patch.unwrap();
            assert!(
                patch.contains(&format!("deleted file mode {git}\n")),
                "{mode:o}: {patch}"
            );
        }
    }

    #[test]
    fn content_over_the_diff_cap_gets_no_diff() {
        let (_t, dir) = tmp();
        let s = settings(&dir, false);
        let resolved = paths::resolve(&dir, None, Path::new("f")).unwrap();
        let big = vec![b'x'; DIFF_INPUT_MAX + 1];
        let change = |old: Option<&'static [u8]>, new: &[u8]| {
            report(
                &s,
                Change {
                    op: "write",
                    resolved: &resolved,
                    created: old.is_none(),
                    deleted: None,
                    dry_run: true,
                    old,
                    new: Some(new),
                    bytes: new.len() as u64,
                    sha256: None,
                    previous_sha256: None,
                    patch_unavailable: None,
                },
            )
        };
        let m = change(None, &big);
        assert!(m.diff_truncated && m.diff.is_empty());
        let m = change(None, b"small\n");
        assert!(!m.diff_truncated && m.added == 1, "{}", m.diff);
        // The cap is 16 MiB (the contract: content above it gets no diff), and content at it gets one.
        assert_eq!(DIFF_INPUT_MAX, 16 << 20);
        let at_cap = vec![b'x'; DIFF_INPUT_MAX];
        let m = change(None, &at_cap);
        assert!(!m.diff_truncated && m.added == 1);
        let big_old: &'static [u8] = Box::leak(big.clone().into_boxed_slice());
        let m = change(Some(big_old), b"small\n");
        assert!(m.diff_truncated);
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
