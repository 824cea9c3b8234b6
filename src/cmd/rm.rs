//! `quill rm` (docs/commands/rm.md): delete one regular file the session has read and that is
//! unchanged since (else `not_read` / `stale`; `--expect-sha256` stands in for the read), on
//! the guarded path of write and edit: under the file's mutation lock, its directory held open,
//! the file re-hashed, then unlinked relative to that directory. A symbolic link is refused
//! (`symlink`): removing its target would leave a dangling link, removing the link is not
//! deleting the file the session read. The removal is one undo step (`quill undo` recreates
//! the file with its bytes) and the file's baseline is dropped. `--dry-run` shows the diff.

use crate::sys::MetadataExt;
use std::fs;

use crate::cli::RmArgs;
use crate::error::{Error, Result};
use crate::fs::paths::{self, Resolved};
use crate::fs::probe::parse_sha256;
use crate::guard::{self, Change, DIFF_INPUT_MAX};
use crate::report::Report;
use crate::settings::Settings;
use crate::state::history::MAX_SESSION_BYTES;
use crate::state::path_key;
use crate::warnings::WarningKind;

/// A checked `quill rm`.
pub(crate) struct RmRequest {
    resolved: Resolved,
    expect_sha256: Option<String>,
    dry_run: bool,
}

impl RmArgs {
    /// Check `--expect-sha256`, resolve the path (read-only refused, links refused).
    pub(crate) fn resolve(self, s: &Settings) -> Result<RmRequest> {
        let expect_sha256 = self
            .expect_sha256
            .as_deref()
            .map(|h| parse_sha256("--expect-sha256", h))
            .transpose()?;
        // A link, even one that leads nowhere (which would resolve as `not_found`).
        let named = s.cwd.join(&self.path);
        if fs::symlink_metadata(&named).is_ok_and(|m| m.file_type().is_symlink()) {
            return Err(Error::Symlink {
                path: named,
                reason: "rm never removes through a link (its target would go and the link dangle) nor the link itself",
            });
        }
        let resolved = guard::resolve(s, &self.path, "remove")?;
        Ok(RmRequest {
            resolved,
            expect_sha256,
            dry_run: self.dry_run,
        })
    }
}

pub(crate) fn run(s: &Settings, req: RmRequest) -> Result<Report> {
    let RmRequest {
        resolved,
        expect_sha256,
        dry_run,
    } = req;
    let locked = guard::lock(s, resolved)?;
    let target = locked.target().to_path_buf();
    let parent = guard::parent(s, &target)?;
    let cur = guard::current(parent.as_ref(), MAX_SESSION_BYTES, None)?;
    let (Some(cur), Some(parent)) = (cur, parent) else {
        // Gone: `stale` when the session knew it (someone deleted it since), else not_found.
        guard::check_missing(s, &target, expect_sha256.as_deref())?;
        return Err(paths::not_found(&target));
    };
    guard::check_fresh(s, &target, &cur, expect_sha256.as_deref())?;

    if !dry_run {
        // The name must still be the file just hashed (only a process outside quill's lock
        // could have swapped it).
        let same = parent
            .stat()?
            .is_some_and(|m| (m.dev(), m.ino()) == (cur.meta.dev(), cur.meta.ino()));
        if !same {
            return Err(Error::Stale {
                path: target,
                session: s.session.clone(),
                deleted: false,
                reread: None,
            });
        }
        parent.remove_target()?;
        guard::sync_dir(s, &parent);
        if cur.meta.nlink() > 1 {
            s.warn(
                WarningKind::HardLinks,
                format!(
                    "{} had {} hard links; its other names keep the content",
                    target.display(),
                    cur.meta.nlink()
                ),
            );
        }
        let before = cur.before();
        let key = path_key(&target);
        let store = s.store();
        let file = store.session(&s.session);
        let history = file.history();
        let updated = file.update(|session| {
            session.forget(&target);
            history.push_removal(session, &key, before, cur.meta.mode() & 0o777);
        });
        guard::committed_anyway(s, &target, updated);
    }

    let report = guard::report(
        s,
        Change {
            op: "rm",
            resolved: &locked.resolved,
            created: false,
            deleted: Some(cur.meta.mode()),
            dry_run,
            old: cur.bytes.as_deref().filter(|b| b.len() <= DIFF_INPUT_MAX),
            new: Some(&[]),
            bytes: 0,
            sha256: None,
            previous_sha256: Some(cur.sha256.clone()),
            patch_unavailable: None,
        },
    );
    drop(locked);
    Ok(Report::Mutation(report))
}
