//! The write protocol (docs/model.md). Every change of one file — write, edit, rm, undo — is a
//! `Mutation`, which owns the guarded sequence, in this order: the path resolved and read-only
//! runs refused (`resolve`); the path's mutation lock taken and its directory held open
//! (`Mutation::begin`, `current`); the file loaded and re-hashed (`load`); its freshness judged
//! (`judge` — the one decision, in `fresh`); the new content published or the file unlinked
//! (`land`, `replace`, `unlink`); the new baseline and the undo step recorded in one state
//! update (`Record`); the report built (`report` — the one place, in `change`). A command only
//! decides *what* the new content is. `apply` locks all its files at once and lands them as one
//! transaction (`journal`), but judges each with `fresh::judge` and reports each with
//! `change::report`; `transfer` publishes through `parent` and `publish` directly.

pub(crate) mod change;
mod current;
pub(crate) mod fresh;
pub(crate) mod journal;
pub(crate) mod parent;
pub(crate) mod publish;

use std::fs::Metadata;
use std::path::Path;

use crate::error::Result;
use crate::fs::paths::{self, Resolved};
use crate::fs::probe::Identity;
use crate::report::MutationReport;
use crate::settings::Settings;
use crate::state::history::{Before, History};
use crate::state::lock::LockGuard;
use crate::state::session::{Session, UndoStep};
use crate::state::{Baseline, path_key};
use crate::sys::MetadataExt;
use crate::warnings::{Warning, WarningKind};

pub(crate) use change::{Change, DIFF_INPUT_MAX, View};
pub(crate) use current::{Current, current, parent, parent_to_publish};
pub(crate) use fresh::{Gone, Judged, Rule, Since, stale};
use parent::Parent;
use publish::Staged;

/// One guarded change of one file: the lock held and the directory open from `begin` until
/// the mutation is dropped (after its report is built).
pub(crate) struct Mutation<'s> {
    s: &'s Settings,
    op: &'static str,
    dry_run: bool,
    resolved: Resolved,
    /// The target's directory, held open (None: it does not exist, yet).
    parent: Option<Parent>,
    _locks: Vec<LockGuard>,
}

/// What the session learns when new content lands.
pub(crate) enum Record<'a> {
    /// A change of the session's own: its undo step pushed, the new content the baseline —
    /// marked as the session's own (`written`: a line-addressed edit needs a read first) — with
    /// the fingerprint of the edit that made it (a re-sent edit is `already_applied`).
    Change {
        complete: bool,
        edit: Option<String>,
    },
    /// An undo: its step popped, the restored content the baseline.
    Undo { complete: bool, step: &'a UndoStep },
}

/// What a report shows besides what the mutation knows (the file before, the operation).
#[derive(Default)]
pub(crate) struct Shown<'a> {
    /// The new content (None: not kept, too large to diff).
    pub new: Option<&'a [u8]>,
    /// The old content, when what is shown is not the file's bytes (edit's decoded text).
    pub old: Option<&'a [u8]>,
    /// The new content's size.
    pub bytes: u64,
    /// The new content's hash; None when no file is left.
    pub sha256: Option<String>,
    /// The file is deleted: its permission bits, for git's header.
    pub deleted: Option<u32>,
    pub view: View,
}

impl<'s> Mutation<'s> {
    /// Take `resolved`'s mutation lock and hold its directory (docs/model.md).
    pub(crate) fn begin(
        s: &'s Settings,
        resolved: Resolved,
        op: &'static str,
        dry_run: bool,
    ) -> Result<Self> {
        let locks = s.store().lock_mutations(&[&resolved.target])?;
        let parent = current::parent(s, &resolved.target)?;
        Ok(Mutation {
            s,
            op,
            dry_run,
            resolved,
            parent,
            _locks: locks,
        })
    }

    pub(crate) fn target(&self) -> &Path {
        &self.resolved.target
    }

    pub(crate) fn settings(&self) -> &'s Settings {
        self.s
    }

    /// The target's directory, held (None: it does not exist).
    pub(crate) fn parent(&self) -> Option<&Parent> {
        self.parent.as_ref()
    }

    /// The file as it is now (None: it is not there): content up to `keep` bytes kept in
    /// memory; with `refuse_above`, a larger file is `file_too_large`.
    pub(crate) fn load(&self, keep: u64, refuse_above: Option<u64>) -> Result<Option<Current>> {
        current::current(self.parent.as_ref(), keep, refuse_above)
    }

    /// Whether the session may change the file, which holds `cur` (`fresh::judge`).
    pub(crate) fn judge(&self, cur: Option<&Current>, rule: Rule) -> Result<Judged> {
        fresh::judge(self.s, None, self.target(), cur, rule, self.dry_run)
    }

    /// `judge` against the session the caller loaded.
    pub(crate) fn judge_in(
        &self,
        session: &Session,
        cur: Option<&Current>,
        rule: Rule,
    ) -> Result<Judged> {
        fresh::judge(
            self.s,
            Some(session),
            self.target(),
            cur,
            rule,
            self.dry_run,
        )
    }

    /// The directory to publish in: made now when it is missing (one `mkdirat` at a time
    /// beneath the root), or — `no_parents` — refused as `not_found`, in a dry run too (which
    /// foretells the real run, but makes nothing).
    pub(crate) fn make_parents(&mut self, no_parents: bool) -> Result<()> {
        if self.parent.is_none() && (no_parents || !self.dry_run) {
            let target = &self.resolved.target;
            self.parent = Some(current::parent_to_publish(
                self.s, target, None, no_parents,
            )?);
        }
        Ok(())
    }

    /// An empty temporary file beside the target, for content streamed into it (None in a
    /// dry run, or before `make_parents` made the directory).
    pub(crate) fn stage(&self) -> Result<Option<Staged<'_>>> {
        match (&self.parent, self.dry_run) {
            (Some(parent), false) => Ok(Some(Staged::new(parent)?)),
            _ => Ok(None),
        }
    }

    /// Put `new` (of hash `sha256`) in place of `cur` and record it; the directories a new
    /// file needs are made. Same bytes: nothing is published.
    pub(crate) fn replace(
        &mut self,
        cur: Option<&Current>,
        new: &[u8],
        sha256: &str,
        record: Record,
    ) -> Result<()> {
        self.replace_with_mode(cur, new, None, sha256, record)
    }

    /// `replace`, the new file given the permission bits `mode` (an undone removal).
    pub(crate) fn replace_with_mode(
        &mut self,
        cur: Option<&Current>,
        new: &[u8],
        mode: Option<u32>,
        sha256: &str,
        record: Record,
    ) -> Result<()> {
        if self.dry_run || cur.is_some_and(|c| c.sha256 == sha256) {
            self.land(cur, None, sha256, record)?;
            self.keep(sha256, new);
            return Ok(());
        }
        self.make_parents(false)?;
        let mut staged = self.stage()?;
        if let Some(staged) = staged.as_mut() {
            if let Some(mode) = mode {
                staged.set_mode(mode & 0o777)?;
            }
            staged.write_all(new)?;
        }
        self.land(cur, staged, sha256, record)?;
        self.keep(sha256, new);
        Ok(())
    }

    /// Keep the new content `bytes` (of hash `sha256`), now the session's baseline, so that
    /// a later `stale` can show what changed since (`state::kept`). Nothing in a dry run.
    pub(crate) fn keep(&self, sha256: &str, bytes: &[u8]) {
        if !self.dry_run {
            let store = self.s.store();
            store.session(&self.s.session).kept().keep(sha256, bytes);
        }
    }

    /// Publish `staged` — the new content, of hash `sha256` — in place of `cur` (None: as a
    /// new file, never replacing one), and record it in the session. Same bytes as `cur`:
    /// nothing is published (the stage is dropped). Nothing at all in a dry run.
    pub(crate) fn land(
        &self,
        cur: Option<&Current>,
        staged: Option<Staged<'_>>,
        sha256: &str,
        record: Record,
    ) -> Result<()> {
        if self.dry_run {
            return Ok(());
        }
        let unchanged = cur.is_some_and(|c| c.sha256 == sha256);
        let published = match staged {
            Some(staged) if !unchanged => Some(commit(self.s, staged, cur.map(|c| &c.meta))?),
            _ => None,
        };
        if let Some(meta) = published.as_ref().or(cur.map(|c| &c.meta)) {
            let before = match cur {
                _ if unchanged => Before::Unchanged,
                None => Before::Missing,
                Some(c) => c.before(),
            };
            self.record(sha256, meta, before, record);
        }
        Ok(())
    }

    /// The new baseline (of the content `sha256`, published as `meta`) and the undo step, in
    /// one state update.
    fn record(&self, sha256: &str, meta: &Metadata, before: Before, record: Record) {
        let id = Identity::of(meta);
        let target = self.target();
        let key = path_key(target);
        self.update_session(|session, history| match record {
            Record::Change { complete, edit } => {
                // The session's own content, unless nothing changed: then the lines are still
                // the ones the baseline had.
                let unchanged = matches!(before, Before::Unchanged);
                let written = !unchanged || session.baseline(target).is_none_or(|b| b.written);
                session.record(Baseline {
                    edit,
                    written,
                    ..Baseline::new(target, sha256.to_string(), &id, complete)
                });
                history.push(session, &key, before, sha256);
            }
            Record::Undo { complete, step } => {
                session.record(Baseline {
                    written: true,
                    ..Baseline::new(target, sha256.to_string(), &id, complete)
                });
                history.pop(session, &key, step);
            }
        });
    }

    /// Unlink the target, relative to its held directory, and fsync the directory.
    pub(crate) fn unlink(&self) -> Result<()> {
        let parent = self
            .parent
            .as_ref()
            .ok_or_else(|| paths::not_found(self.target()))?;
        parent.remove_target()?;
        sync_dir(self.s, parent);
        Ok(())
    }

    /// One update of the session's state after the change landed (`committed_anyway`: a
    /// failure there is a warning).
    pub(crate) fn update_session(&self, f: impl FnOnce(&mut Session, &History)) {
        let store = self.s.store();
        let file = store.session(&self.s.session);
        let history = file.history();
        let updated = file.update(|session| f(session, &history));
        committed_anyway(self.s, self.target(), updated);
    }

    /// The report of the change from `cur` (None: there was no file) to what `shown` says.
    pub(crate) fn report(&self, cur: Option<&Current>, shown: Shown) -> MutationReport {
        change::report(
            self.s,
            Change {
                op: self.op,
                resolved: &self.resolved,
                created: cur.is_none(),
                deleted: shown.deleted,
                dry_run: self.dry_run,
                old: shown.old.or(cur.and_then(|c| c.bytes.as_deref())),
                new: shown.new,
                bytes: shown.bytes,
                sha256: shown.sha256,
                previous_sha256: cur.map(|c| c.sha256.clone()),
                view: shown.view,
            },
        )
    }
}

/// Resolve `path` and refuse read-only runs (before any waiting or staging).
pub(crate) fn resolve(s: &Settings, path: &Path, action: &'static str) -> Result<Resolved> {
    let resolved = paths::resolve(&s.cwd, s.root.as_ref(), path)?;
    s.check_writable(&resolved.target, action)?;
    Ok(resolved)
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
