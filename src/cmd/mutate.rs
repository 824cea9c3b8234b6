//! The guarded mutation path shared by `write`, `edit` and `undo` (SPEC §1.1, §1.3, §1.5):
//! resolve and refuse read-only runs, take the per-path mutation lock (held until the report is
//! built), load and re-hash the target, judge freshness against the session's baseline or an
//! explicit `--expect-sha256`, publish, record the new baseline and the undo step, and render
//! the diff into a `MutationReport`. The commands only decide *what* the new content is.

use std::fs::{self, File, Metadata};
use std::io::Read;
use std::os::unix::fs::MetadataExt;
use std::path::Path;

use crate::app::Context;
use crate::cmd::{FileAccess, MutationReport};
use crate::diff::{self, PatchTarget};
use crate::error::{Error, Result};
use crate::history::{self, Before};
use crate::lock::{self, LockGuard};
use crate::paths::{self, Resolved};
use crate::probe::{self, Identity, sha256_bytes};
use crate::publish::{self, Staged};
use crate::state::{self, Baseline, Store, path_key};

/// Content above this (old or new) gets no diff: the line diff would cost more than the change.
pub const DIFF_INPUT_MAX: usize = 16 * 1024 * 1024;

/// A resolved target with its mutation lock held.
pub struct Locked {
    pub resolved: Resolved,
    _guard: LockGuard,
}

impl Locked {
    pub fn target(&self) -> &Path {
        &self.resolved.target
    }
}

/// Resolve `path` and refuse read-only runs (before any waiting or staging).
pub fn resolve(ctx: &Context, path: &Path, action: &'static str) -> Result<Resolved> {
    let resolved = paths::resolve(&ctx.cwd, ctx.root.as_ref(), path)?;
    ctx.check_writable(&resolved.target, action)?;
    Ok(resolved)
}

/// Take the mutation lock of a resolved target (SPEC §1.3).
pub fn lock(ctx: &Context, resolved: Resolved) -> Result<Locked> {
    state::ensure_dirs(&ctx.state_dir)?;
    let file = lock::mutation_lock_path(&ctx.state_dir, &resolved.target);
    let guard = lock::acquire(&file, &resolved.target, ctx.lock_timeout)?;
    Ok(Locked {
        resolved,
        _guard: guard,
    })
}

/// The target as it is now, under the lock.
pub struct Current {
    pub meta: Metadata,
    pub sha256: String,
    /// The whole content, when it is at most the load limit.
    pub bytes: Option<Vec<u8>>,
}

/// Open and hash the target (None: it does not exist). Content up to `keep` bytes is kept in
/// memory; with `refuse_above`, a larger file is `file_too_large`.
pub fn current(
    ctx: &Context,
    target: &Path,
    keep: u64,
    refuse_above: Option<u64>,
) -> Result<Option<Current>> {
    match fs::symlink_metadata(target) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        _ => {}
    }
    let (mut file, meta) = probe::open_regular(ctx.root.as_ref(), target)?;
    if let Some(limit) = refuse_above.filter(|l| meta.size() > *l) {
        return Err(Error::FileTooLarge {
            path: target.to_path_buf(),
            size: meta.size(),
            limit,
        });
    }
    if meta.size() <= keep {
        let mut bytes = Vec::with_capacity(meta.size() as usize);
        (&mut file)
            .take(keep + 1)
            .read_to_end(&mut bytes)
            .map_err(|e| Error::io("read", target, e))?;
        if bytes.len() as u64 > keep {
            // It grew while we read it: whoever writes it is not a quill process.
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

/// Judge whether the session may replace `cur` (SPEC §1.1). Returns whether the caller's
/// knowledge of the file is complete (the new baseline's `complete`).
pub fn check_fresh(
    ctx: &Context,
    target: &Path,
    cur: &Current,
    expect: Option<&str>,
) -> Result<bool> {
    if let Some(expect) = expect {
        let expect = probe::parse_sha256("--expect-sha256", expect)?;
        if expect != cur.sha256 {
            return Err(Error::Stale {
                path: target.to_path_buf(),
                session: ctx.session.clone(),
            });
        }
        return Ok(false);
    }
    let session = Store::new(ctx).load()?;
    let Some(baseline) = session.baseline(target) else {
        return Err(Error::NotRead {
            path: target.to_path_buf(),
            session: ctx.session.clone(),
        });
    };
    if baseline.sha256 != cur.sha256 {
        return Err(Error::Stale {
            path: target.to_path_buf(),
            session: ctx.session.clone(),
        });
    }
    if ctx.strict && !baseline.complete {
        return Err(Error::NotRead {
            path: target.to_path_buf(),
            session: ctx.session.clone(),
        });
    }
    Ok(baseline.complete)
}

/// Warn about hard links before replacing a file.
pub fn warn_hard_links(ctx: &Context, target: &Path, meta: &Metadata) {
    if meta.nlink() > 1 {
        ctx.warn(format!(
            "{} has {} hard links; its other names keep the old content",
            target.display(),
            meta.nlink()
        ));
    }
}

/// Publish `staged` over the existing file (`Some(meta)`) or as a new file (`None`).
pub fn commit(
    ctx: &Context,
    target: &Path,
    staged: Staged,
    existing: Option<&Metadata>,
) -> Result<()> {
    let committed = match existing {
        Some(meta) => {
            warn_hard_links(ctx, target, meta);
            staged.commit_replace(meta)?
        }
        None => staged.commit_new()?,
    };
    for w in committed.warnings {
        ctx.warn(w);
    }
    Ok(())
}

/// Stage `bytes` next to `target` (creating parents unless `no_parents`).
pub fn stage(target: &Path, bytes: &[u8], no_parents: bool) -> Result<Staged> {
    ensure_parent(target, no_parents)?;
    let mut staged = Staged::new(target)?;
    staged.write_all(bytes)?;
    Ok(staged)
}

pub fn ensure_parent(target: &Path, no_parents: bool) -> Result<()> {
    let parent = target.parent().unwrap_or(Path::new("/"));
    if parent.is_dir() {
        return Ok(());
    }
    if no_parents {
        return Err(Error::NotFound {
            path: parent.to_path_buf(),
            similar: paths::similar_names(parent),
        });
    }
    publish::create_parents(target)
}

/// After publication: the new content becomes the session's baseline and the undo step is
/// kept, in one state update.
pub fn record(
    ctx: &Context,
    target: &Path,
    new_sha256: &str,
    complete: bool,
    before: Before,
) -> Result<()> {
    let meta = fs::metadata(target).map_err(|e| Error::io("inspect", target, e))?;
    let id = Identity::of(&meta);
    let baseline = Baseline::new(target, new_sha256.to_string(), &id, complete);
    let key = path_key(target);
    let updated = Store::new(ctx).update(|s| {
        s.record(baseline);
        history::push(ctx, s, &key, before, new_sha256);
    });
    committed_anyway(ctx, target, updated);
    Ok(())
}

/// The change is on disk whatever the state update says: a failure there is a warning (the
/// next change is refused as stale until the file is read again — failing closed), never an
/// error that would make the caller believe nothing happened.
pub fn committed_anyway(ctx: &Context, target: &Path, updated: Result<()>) {
    if let Err(e) = updated {
        ctx.warn(format!(
            "{} was changed, but the session could not record it ({e}); read it again before the next change",
            target.display()
        ));
    }
}

/// Creating a file that is not there: refused as `stale` when the caller expected a version
/// of it (`--expect-sha256`) or the session has read it — someone deleted it since, and a
/// change never lands on top of a change the caller has not seen.
pub fn check_missing(ctx: &Context, target: &Path, expect: Option<&str>) -> Result<()> {
    let known = expect.is_some() || Store::new(ctx).load()?.baseline(target).is_some();
    if known {
        return Err(Error::Stale {
            path: target.to_path_buf(),
            session: ctx.session.clone(),
        });
    }
    Ok(())
}

/// The path a patch names (SPEC §3.2): relative to `--root`, else to the current directory
/// when below it (prefixed `a/`, `b/`), else absolute.
pub fn patch_path(ctx: &Context, target: &Path) -> (String, bool) {
    let base = ctx
        .root
        .as_ref()
        .map_or(ctx.cwd.as_path(), |r| r.dir.as_path());
    match target.strip_prefix(base) {
        Ok(rel) if !rel.as_os_str().is_empty() => (rel.to_string_lossy().into_owned(), true),
        _ => (target.to_string_lossy().into_owned(), false),
    }
}

/// What a mutation did, for its report.
pub struct Outcome<'a> {
    pub op: &'static str,
    pub resolved: &'a Resolved,
    pub created: bool,
    /// The file was deleted (undo of a creation): its permission bits, for git's header.
    pub deleted: Option<u32>,
    pub dry_run: bool,
    /// Old content (None: the file did not exist or was too large to diff).
    pub old: Option<&'a [u8]>,
    /// New content (None: too large to diff).
    pub new: Option<&'a [u8]>,
    pub bytes: u64,
    pub sha256: String,
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
        crate::encoding::decode_utf16(&bytes[2..], big_endian)
            .0
            .into_bytes(),
    )
}

pub fn report(ctx: &Context, mut o: Outcome) -> MutationReport {
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
    let (path, prefixed) = patch_path(ctx, target);
    let pt = PatchTarget {
        path: &path,
        prefixed,
    };
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
                        let (a, b) = if prefixed {
                            (format!("a/{path}"), format!("b/{path}"))
                        } else {
                            (path.clone(), path.clone())
                        };
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
        deleted: o.deleted.is_some(),
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

/// Read a whole file named by the caller (for `--from`, `--old-file`…), streaming-safe.
pub fn read_input(path: &Path, what: &'static str) -> Result<Vec<u8>> {
    let mut f = File::open(path).map_err(|e| Error::io(what, path, e))?;
    let mut v = Vec::new();
    f.read_to_end(&mut v)
        .map_err(|e| Error::io(what, path, e))?;
    Ok(v)
}
