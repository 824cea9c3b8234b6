//! `quill undo` (SPEC §3.4): restore the content a file had before the last quill mutation
//! of it in this session, under the same mutation lock as write and edit, and only if the file
//! still holds exactly what quill wrote (else `stale`; never clobbered). The step is popped
//! (no redo), the restored content becomes the baseline. Undoing a creation removes the file —
//! again only while it still holds what quill created.

use std::fs;

use crate::app::Context;
use crate::cli::UndoArgs;
use crate::cmd::mutate::{self, DIFF_INPUT_MAX, Outcome};
use crate::error::{Error, Result};
use crate::history;
use crate::output::Report;
use crate::probe::sha256_bytes;
use crate::state::{Baseline, Store, path_key};

pub fn run(ctx: &Context, args: &UndoArgs) -> Result<Report> {
    let resolved = mutate::resolve(ctx, &args.path, "undo")?;
    let locked = mutate::lock(ctx, resolved)?;
    let target = locked.target().to_path_buf();
    let key = path_key(&target);
    let session = Store::new(ctx).load()?;
    let Some(step) = session.history.get(&key).and_then(|s| s.last()).cloned() else {
        return Err(Error::NothingToUndo {
            path: target,
            session: ctx.session.clone(),
        });
    };
    let stale = || Error::Stale {
        path: target.clone(),
        session: ctx.session.clone(),
    };
    let cur = mutate::current(ctx, &target, history::MAX_SESSION_BYTES, None)?.ok_or_else(stale)?;
    if cur.sha256 != step.after {
        return Err(stale());
    }
    let restored = match &step.before {
        Some(hash) => Some(history::load_blob(ctx, &target, hash)?),
        None => None,
    };
    let complete = session.baseline(&target).is_some_and(|b| b.complete);

    if !args.dry_run {
        match &restored {
            Some(bytes) => {
                let staged = mutate::stage(&target, bytes, true)?;
                mutate::commit(ctx, &target, staged, Some(&cur.meta))?;
            }
            None => {
                fs::remove_file(&target).map_err(|e| Error::io("remove", &target, e))?;
                if let Some(dir) = target.parent()
                    && let Err(e) = fs::File::open(dir).and_then(|d| d.sync_all())
                {
                    {
                        ctx.warn(format!(
                            "committed, durability unconfirmed: fsync of {} failed: {e}",
                            dir.display()
                        ));
                    }
                }
            }
        }
        let baseline = match &restored {
            Some(bytes) => {
                let meta = fs::metadata(&target).map_err(|e| Error::io("inspect", &target, e))?;
                let id = crate::probe::Identity::of(&meta);
                Some(Baseline::new(&target, sha256_bytes(bytes), &id, complete))
            }
            None => None,
        };
        let updated = Store::new(ctx).update(|s| {
            match baseline {
                Some(b) => s.record(b),
                None => {
                    s.forget(&target);
                }
            }
            history::pop(ctx, s, &key, &step);
        });
        mutate::committed_anyway(ctx, &target, updated);
    }

    let new: &[u8] = restored.as_deref().unwrap_or(&[]);
    let report = mutate::report(
        ctx,
        Outcome {
            op: "undo",
            resolved: &locked.resolved,
            created: false,
            deleted: restored
                .is_none()
                .then(|| std::os::unix::fs::MetadataExt::mode(&cur.meta)),
            dry_run: args.dry_run,
            old: cur.bytes.as_deref().filter(|b| b.len() <= DIFF_INPUT_MAX),
            new: Some(new),
            bytes: new.len() as u64,
            sha256: sha256_bytes(new),
            previous_sha256: Some(cur.sha256.clone()),
            patch_unavailable: None,
        },
    );
    drop(locked);
    Ok(Report::Mutation(report))
}
