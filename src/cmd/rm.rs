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
use crate::guard::{self, Current, Gone, Mutation, Rule, Shown};
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
    let m = Mutation::begin(s, resolved, "rm", dry_run)?;
    let rule = Rule::whole(expect_sha256.as_deref());
    let Some(cur) = m.load(MAX_SESSION_BYTES, None)? else {
        // Gone: `stale` when the session knew it (someone deleted it since), else not_found.
        m.judge(None, rule)?;
        return Err(paths::not_found(m.target()));
    };
    m.judge(Some(&cur), rule)?;
    if !dry_run {
        remove(s, &m, &cur)?;
    }
    let shown = Shown {
        new: Some(&[]),
        deleted: Some(cur.meta.mode()),
        ..Shown::default()
    };
    Ok(Report::Mutation(m.report(Some(&cur), shown)))
}

/// Unlink the file just judged — only if its name is still that file (only a process outside
/// quill's lock could have swapped it) — and record the removal as one undo step.
fn remove(s: &Settings, m: &Mutation, cur: &Current) -> Result<()> {
    let target = m.target();
    let same = match m.parent() {
        Some(parent) => parent
            .stat()?
            .is_some_and(|n| (n.dev(), n.ino()) == (cur.meta.dev(), cur.meta.ino())),
        None => false,
    };
    if !same {
        return Err(guard::stale(s, target, Gone::No));
    }
    m.unlink()?;
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
    let key = path_key(target);
    m.update_session(|session, history| {
        session.forget(target);
        history.push_removal(session, &key, cur.before(), cur.meta.mode() & 0o777);
    });
    Ok(())
}
