//! `quill apply` (docs/commands/apply.md): a unified diff or a Codex patch applied to many
//! files, all or nothing. It reads and parses the patch (`patch::parse`), resolves every path
//! it names (under `--root`), takes every file's mutation lock in one sorted order, judges each
//! file on its own — fresh baseline or `--expect-sha256 PATH=HEX`, no-replace for a creation,
//! unchanged since read for a deletion or a move, every hunk located by `patch::apply` — and
//! reports every problem of every file in one `patch_rejected` before anything is written
//! (`files`). Only then does the change land, through `journal::commit` (staged, sealed,
//! journaled, renamed), and the session records each file's new baseline and one undo step per
//! file, grouped so that `quill undo` reverts the whole apply.

pub(crate) mod files;
mod over;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use crate::cli::ApplyArgs;
use crate::edit::patch::{self, Format, Patch};
use crate::error::{Error, PatchProblem, Result};
use crate::fs::paths::{self, Resolved};
use crate::fs::probe::{Identity, parse_sha256};
use crate::guard;
use crate::guard::change::{self, Change, View};
use crate::guard::journal::{self, Action, Member};
use crate::input::Input;
use crate::report::apply::{ApplyFile, ApplyReport};
use crate::report::{AsTyped, FileAccess, Report};
use crate::settings::Settings;
use crate::state::history::Before;
use crate::state::{Baseline, path_key};
use crate::sys::{self, MetadataExt};

use files::{FileAction, Planned};

/// A checked `quill apply`: the parsed patch and how to apply it.
pub(crate) struct ApplyRequest {
    patch: Patch,
    /// `--expect-sha256 PATH=HEX`, by resolved path.
    expects: BTreeMap<PathBuf, String>,
    opts: files::Options<'static>,
    check: bool,
    dry_run: bool,
}

impl ApplyArgs {
    /// Read and parse the patch, check `--expect-sha256` (read-only runs are refused).
    pub(crate) fn resolve(self, s: &Settings) -> Result<ApplyRequest> {
        if !self.check && !self.dry_run {
            s.check_writable(&s.cwd, "apply a patch in")?;
        }
        let mut expects = BTreeMap::new();
        for pair in &self.expect_sha256 {
            let Some((path, hex)) = pair.rsplit_once('=') else {
                return Err(Error::invalid_argument_fix(
                    format!("--expect-sha256 takes PATH=HEX, not {pair:?}"),
                    "give the file and its SHA-256: --expect-sha256 src/a.rs=<64 hex digits>",
                ));
            };
            let hex = parse_sha256("--expect-sha256", hex)?;
            let resolved = paths::resolve(&s.cwd, s.root.as_ref(), Path::new(path))?;
            expects.insert(resolved.target, hex);
        }
        const OP: &str = "read the patch from";
        let input = if self.patch.as_os_str() == "-" {
            Input::stdin(&s.origin)
        } else {
            Input::open_in(s.root.as_ref(), &s.cwd, &self.patch, OP)?
        };
        let text = input.read_all(OP, self.max_file_bytes)?;
        let fingerprint = crate::fs::probe::sha256_bytes(&text);
        let patch = patch::parse(&text, self.strip).map_err(|e| {
            Error::invalid_argument_fix(
                format!(
                    "line {} of the patch: {}; nothing was written",
                    e.line, e.message
                ),
                e.fix,
            )
        })?;
        if patch.files.is_empty() {
            return Err(Error::invalid_argument_fix(
                "the patch changes no file; nothing was written",
                "give a unified diff (`git diff` output) or a `*** Begin Patch` patch",
            ));
        }
        let format = patch.format;
        Ok(ApplyRequest {
            patch,
            expects,
            opts: files::Options {
                session: None,
                fuzzy: self.fuzzy,
                max_file_bytes: self.max_file_bytes,
                allow_placeholder: self.allow_placeholder,
                unidiff_zero: self.unidiff_zero,
                fingerprint,
                format,
                dry_run: self.check || self.dry_run,
            },
            check: self.check,
            dry_run: self.dry_run,
        })
    }
}

/// The path a patch names, as the file system sees it (relative to the current directory).
fn named(bytes: &[u8]) -> PathBuf {
    PathBuf::from(sys::os_str(bytes).into_owned())
}

pub(crate) fn run(s: &Settings, req: ApplyRequest) -> Result<Report> {
    let ApplyRequest {
        patch,
        expects,
        opts: base_opts,
        check,
        dry_run,
    } = req;
    let mut problems = Vec::new();
    // Resolve every path first (containment, links); a path named by two sections is refused:
    // the second would apply to text the first has not written yet.
    let mut sections = Vec::with_capacity(patch.files.len());
    let mut seen: BTreeMap<PathBuf, usize> = BTreeMap::new();
    for (i, fp) in patch.files.iter().enumerate() {
        let mut resolve_one = |bytes: &Option<Vec<u8>>| -> Option<Option<Resolved>> {
            let Some(b) = bytes else {
                return Some(None);
            };
            let path = named(b);
            match guard::resolve(s, &path, "apply a patch to") {
                Ok(r) => Some(Some(r)),
                Err(e) => {
                    problems.push(PatchProblem::of(&s.cwd.join(&path), fp.line, &e));
                    None
                }
            }
        };
        let (Some(old), Some(new)) = (resolve_one(&fp.old_path), resolve_one(&fp.new_path)) else {
            continue;
        };
        for r in old.iter().chain(new.iter()) {
            if let Some(first) = seen.insert(r.target.clone(), i)
                && first != i
            {
                return Err(Error::invalid_argument_fix(
                    format!(
                        "{} is changed by two sections of the patch (lines {} and {}); nothing was written",
                        r.target.display(),
                        patch.files[first].line,
                        fp.line
                    ),
                    "merge the two sections into one (one section per file)",
                ));
            }
        }
        sections.push((i, old, new));
    }
    // Every file's lock, in one sorted order (two applies never deadlock), held to the end.
    let targets: Vec<&Path> = seen.keys().map(PathBuf::as_path).collect();
    let _locks = s.store().lock_mutations(&targets)?;
    let session = s.store().session(&s.session).load()?;
    let opts = files::Options {
        session: Some(&session),
        ..base_opts
    };

    let mut planned = Vec::with_capacity(sections.len());
    for (i, old, new) in sections {
        match files::plan(s, &patch.files[i], old, new, &expects, &opts) {
            Ok(p) => planned.push(p),
            Err(mut ps) => problems.append(&mut ps),
        }
    }
    if !problems.is_empty() {
        return Err(rejected(problems));
    }

    let landed = if check || dry_run {
        None
    } else {
        Some(land(s, &mut planned)?)
    };
    if let Some(metas) = &landed {
        record(s, &planned, metas, &opts.fingerprint);
    }
    Ok(Report::Apply(report(
        s,
        Some(patch.format),
        &planned,
        check,
        dry_run,
    )))
}

fn rejected(mut problems: Vec<PatchProblem>) -> Error {
    for p in problems.iter_mut().filter(|p| p.kind == "not_read") {
        let q = crate::text::shell::shell_quote(&p.path);
        p.hint = Some(format!(
            "run `quill read {q}` first (or pass --expect-sha256 {q}=HEX with its SHA-256)"
        ));
    }
    let mut files: Vec<&Path> = problems.iter().map(|p| p.path.as_path()).collect();
    files.sort();
    files.dedup();
    let n = problems.len();
    let first = &problems[0].message;
    let (k, plural) = (files.len(), if n == 1 { "" } else { "s" });
    Error::PatchRejected {
        message: format!(
            "the patch was not applied: {n} problem{plural} in {k} file{} (the first: {first}); nothing was written",
            if k == 1 { "" } else { "s" },
        ),
        problems,
    }
}

/// Create missing directories of created files, then commit every change as one transaction.
/// Returns per planned file the metadata of what it published (target; None for a deletion).
pub(crate) fn land(
    s: &Settings,
    planned: &mut [Planned],
) -> Result<Vec<Option<std::fs::Metadata>>> {
    for p in planned.iter_mut() {
        if p.parent.is_none() {
            p.parent = Some(guard::parent_to_publish(s, &p.target.target, None, false)?);
        }
    }
    let mut members = Vec::new();
    // Per planned file: the index of its target's member.
    let mut index = Vec::with_capacity(planned.len());
    for p in planned.iter() {
        let parent = p.parent.as_ref().expect("opened above");
        if let FileAction::Moved = p.action {
            let src = p.source.as_ref().expect("a move has a source");
            members.push(Member {
                parent: src.parent.as_ref().expect("an existing file's directory"),
                action: Action::Delete,
                bytes: &[],
                like: Some(&src.cur.meta),
                mode: None,
                old_sha256: Some(&src.cur.sha256),
                new_sha256: None,
            });
        }
        index.push(members.len());
        members.push(match p.action {
            FileAction::Modified => Member {
                parent,
                action: Action::Replace,
                bytes: &p.new_bytes,
                like: p.cur.as_ref().map(|c| &c.meta),
                mode: p.mode,
                old_sha256: p.cur.as_ref().map(|c| c.sha256.as_str()),
                new_sha256: Some(&p.sha256),
            },
            // A file at the destination that the session may replace (`files::destination`)
            // is replaced; otherwise nothing is ever replaced.
            FileAction::Created | FileAction::Moved => Member {
                parent,
                action: match p.cur {
                    Some(_) => Action::Replace,
                    None => Action::Create,
                },
                bytes: &p.new_bytes,
                like: p.cur.as_ref().map(|c| &c.meta),
                mode: p.mode,
                old_sha256: p.cur.as_ref().map(|c| c.sha256.as_str()),
                new_sha256: Some(&p.sha256),
            },
            FileAction::Deleted => Member {
                parent,
                action: Action::Delete,
                bytes: &[],
                like: p.cur.as_ref().map(|c| &c.meta),
                mode: None,
                old_sha256: p.cur.as_ref().map(|c| c.sha256.as_str()),
                new_sha256: None,
            },
        });
    }
    let metas = journal::commit(s, &members)?;
    for p in planned.iter() {
        if let (FileAction::Modified | FileAction::Created | FileAction::Moved, Some(c)) =
            (p.action, &p.cur)
        {
            guard::warn_hard_links(s, &p.target.target, &c.meta);
        }
    }
    Ok(index.into_iter().map(|i| metas[i].clone()).collect())
}

/// The session learns every file's new content (its baseline) and keeps one undo step per
/// file, all in one group, in one state update. A failure there is a warning: the change has
/// landed (the next change of those files is refused as stale until they are read again).
fn record(
    s: &Settings,
    planned: &[Planned],
    metas: &[Option<std::fs::Metadata>],
    fingerprint: &str,
) {
    let store = s.store();
    let file = store.session(&s.session);
    let history = file.history();
    let updated = file.update(|session| {
        history.batch();
        let mut keys = Vec::with_capacity(planned.len() + 1);
        let group = session.clock.saturating_add(1);
        for (p, meta) in planned.iter().zip(metas) {
            let target = &p.target.target;
            let key = path_key(target);
            if let Some(src) = &p.source {
                let skey = path_key(&src.resolved.target);
                session.forget(&src.resolved.target);
                let before = src.cur.before();
                history.push_in_group(
                    session,
                    &skey,
                    before,
                    "",
                    Some(src.cur.meta.mode() & 0o777),
                    group,
                );
            }
            match (&p.action, meta) {
                (FileAction::Deleted, _) => {
                    session.forget(target);
                    let cur = p.cur.as_ref().expect("a deleted file existed");
                    let before = cur.before();
                    history.push_in_group(
                        session,
                        &key,
                        before,
                        "",
                        Some(cur.meta.mode() & 0o777),
                        group,
                    );
                }
                (_, Some(meta)) => {
                    let id = Identity::of(meta);
                    session.record(Baseline {
                        // A re-sent patch is known by it (`already_applied`).
                        edit: Some(fingerprint.to_string()),
                        // The session's own change: line numbers need a read first.
                        written: true,
                        ..Baseline::new(target, p.sha256.clone(), &id, p.complete)
                    });
                    let before = match &p.cur {
                        None => Before::Missing,
                        Some(c) => c.before(),
                    };
                    history.push_in_group(session, &key, before, &p.sha256, None, group);
                }
                (_, None) => {
                    // Not published (cannot happen once commit succeeded): no step.
                    session.forget(target);
                    continue;
                }
            }
            keys.push(key);
        }
        let mut all: Vec<&str> = keys.iter().map(String::as_str).collect();
        let sources: Vec<String> = planned
            .iter()
            .filter_map(|p| p.source.as_ref().map(|src| path_key(&src.resolved.target)))
            .collect();
        all.extend(sources.iter().map(String::as_str));
        // Every step of the apply, or none (a bound may have dropped one).
        history.seal_group(session, &all, group);
        // Every blob durable at once, before the session naming them is saved.
        history.sync_batch(session, &all);
    });
    if let Some(first) = planned.first() {
        guard::committed_anyway(s, &first.target.target, updated);
    }
    // What each file holds now, kept so that a later `stale` can show the change since.
    let kept = file.kept();
    for p in planned.iter().filter(|p| p.action != FileAction::Deleted) {
        kept.keep(&p.sha256, &p.new_bytes);
    }
}

pub(crate) fn report(
    s: &Settings,
    format: Option<Format>,
    planned: &[Planned],
    check: bool,
    dry_run: bool,
) -> ApplyReport {
    let mut files = Vec::with_capacity(planned.len());
    let mut diff = String::new();
    let mut combined = Some(String::new());
    let (mut diff_truncated, mut patch_truncated, mut fuzzy) = (false, false, false);
    let mut patch_unavailable = None;
    let (mut added, mut removed) = (0, 0);
    let written = !(check || dry_run);
    for p in planned {
        let mut parts = Vec::new();
        let deleted = matches!(p.action, FileAction::Deleted);
        let cur = p.cur.as_ref();
        // `--check` shows no diff: none is made.
        if let (false, Some(src)) = (check, &p.source) {
            parts.push(change::report(
                s,
                Change {
                    op: "apply",
                    resolved: &src.resolved,
                    created: false,
                    deleted: Some(src.cur.meta.mode()),
                    dry_run: !written,
                    old: src.cur.bytes.as_deref(),
                    new: Some(&[]),
                    bytes: 0,
                    sha256: None,
                    previous_sha256: Some(src.cur.sha256.clone()),
                    view: View::Bytes,
                },
            ));
        }
        if !check {
            parts.push(change::report(
                s,
                Change {
                    op: "apply",
                    resolved: &p.target,
                    created: cur.is_none(),
                    deleted: deleted.then(|| cur.map_or(0o100644, |c| c.meta.mode())),
                    dry_run: !written,
                    old: cur.and_then(|c| c.bytes.as_deref()),
                    new: Some(&p.new_bytes),
                    bytes: p.new_bytes.len() as u64,
                    sha256: (!deleted).then(|| p.sha256.clone()),
                    previous_sha256: cur.map(|c| c.sha256.clone()),
                    view: View::Bytes,
                },
            ));
        }
        let (mut fa, mut fr) = (0, 0);
        let mut own_diff = String::new();
        if !check {
            for part in &parts {
                let (shown, _) = change::patch_path(s, &part.path);
                let name = shown.display();
                diff.push_str(&format!("--- a/{name}\n+++ b/{name}\n"));
                diff.push_str(&part.diff);
                own_diff.push_str(&part.diff);
                diff_truncated |= part.diff_truncated;
                patch_truncated |= part.patch_truncated;
                patch_unavailable = patch_unavailable.or(part.patch_unavailable);
                match (&mut combined, &part.patch) {
                    (Some(c), Some(pt)) => c.push_str(pt),
                    _ => combined = None,
                }
                fa += part.added;
                fr += part.removed;
            }
        }
        added += fa;
        removed += fr;
        fuzzy |= p.matched_fuzzily;
        files.push(ApplyFile {
            path: p.target.target.clone(),
            source: p.source.as_ref().map(|src| src.resolved.target.clone()),
            action: p.action.as_str(),
            replaced: matches!(p.action, FileAction::Created | FileAction::Moved) && cur.is_some(),
            file_access: written.then(|| FileAccess::write(&p.target.target)),
            bytes: p.new_bytes.len() as u64,
            sha256: (!deleted).then(|| p.sha256.clone()),
            previous_sha256: cur
                .map(|c| c.sha256.clone())
                .or_else(|| p.source.as_ref().map(|src| src.cur.sha256.clone())),
            added: fa,
            removed: fr,
            hunks: p.hunks,
            spans: p
                .spans
                .iter()
                .map(|sp| crate::report::LineSpan {
                    start_line: sp.start_line,
                    end_line: sp.end_line,
                })
                .collect(),
            matched_fuzzily: p.matched_fuzzily,
            outside_change: p.outside.clone(),
            typed: AsTyped::one(&p.target.target, &p.target.typed),
            diff: own_diff,
        });
        if let Some(change) = &p.outside {
            s.warn(
                crate::warnings::WarningKind::Merged,
                guard::fresh::merged_message(&p.target.target, change, !written),
            );
        }
    }
    ApplyReport {
        op: "apply",
        format: format.map(|f| match f {
            Format::Unified => "unified",
            Format::Codex => "codex",
        }),
        check,
        dry_run,
        files,
        diff,
        diff_truncated,
        patch: if check { None } else { combined },
        patch_truncated,
        patch_unavailable,
        added,
        removed,
        matched_fuzzily: fuzzy,
    }
}
