//! One file section of `quill apply`, judged under its mutation lock (docs/commands/apply.md):
//! what the section does (modify, create, delete, move), whether the session may do it (a
//! fresh baseline or `--expect-sha256`; a creation only where nothing is; a deletion or move
//! only of a file unchanged since read, never through a link), and the new content from
//! `patch::apply`. Every problem becomes a `PatchProblem`; a hunk that misses gets `edit`'s miss
//! diagnosis, a patch already applied is named as such. Nothing here writes.

use crate::sys::MetadataExt;
use std::borrow::Cow;
use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

use crate::edit::miss::MissFix;
use crate::edit::patch::{self, ApplyOptions, FilePatch, Hunk, HunkError, HunkLine, LineSpan};
use crate::error::{Error, PatchProblem};
use crate::fs::paths::{self, Resolved};
use crate::fs::probe::sha256_bytes;
use crate::guard::fresh::{self, Rule};
use crate::guard::parent::Parent;
use crate::guard::{self, Current, Gone};
use crate::report::OutsideChange;
use crate::settings::Settings;
use crate::state::session::Session;
use crate::text::encoding::Encoding;
use crate::text::placeholder;
use crate::text::sniff::{self, Sniffed};

/// The options every section shares.
pub(crate) struct Options<'a> {
    /// The session, loaded once under the locks.
    pub session: Option<&'a Session>,
    pub fuzzy: bool,
    pub max_file_bytes: u64,
    pub allow_placeholder: bool,
    /// `--unidiff-zero`: a unified hunk with nothing but added lines may be placed by its
    /// line number.
    pub unidiff_zero: bool,
    /// The SHA-256 of the patch: the session's last change of a file that was this patch
    /// makes a re-sent apply `already_applied`.
    pub fingerprint: String,
    /// The patch's format, for hints that name its sections.
    pub format: patch::Format,
    /// `--check` or `--dry-run`: a `stale` answer records nothing.
    pub dry_run: bool,
}

/// What a section does to its file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum FileAction {
    Modified,
    Created,
    Deleted,
    Moved,
}

impl FileAction {
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            FileAction::Modified => "modified",
            FileAction::Created => "created",
            FileAction::Deleted => "deleted",
            FileAction::Moved => "moved",
        }
    }
}

/// A move's source: resolved, its directory held, its current content.
pub(crate) struct Source {
    pub resolved: Resolved,
    pub parent: Option<Parent>,
    pub cur: Current,
}

/// A section that may land.
pub(crate) struct Planned {
    pub action: FileAction,
    /// The file written (created, modified, moved to) or deleted.
    pub target: Resolved,
    /// Its directory, held (None: a created file's missing directories, made at landing).
    pub parent: Option<Parent>,
    /// What the target holds now (None: it does not exist).
    pub cur: Option<Current>,
    pub source: Option<Source>,
    pub new_bytes: Vec<u8>,
    pub sha256: String,
    /// The permission bits of a created file (a move keeps the source's).
    pub mode: Option<u32>,
    /// The new baseline's `complete`: the caller's knowledge of the old file was whole.
    pub complete: bool,
    pub hunks: usize,
    pub spans: Vec<LineSpan>,
    pub matched_fuzzily: bool,
    /// `--merge`: the change made outside since the version the session knows, which the
    /// hunks landed over (`outsideChange`, warning `merged`).
    pub outside: Option<Box<OutsideChange>>,
}

type Problems = Vec<PatchProblem>;

/// Judge one section and plan its new content.
pub(crate) fn plan(
    s: &Settings,
    fp: &FilePatch,
    old: Option<Resolved>,
    new: Option<Resolved>,
    expects: &BTreeMap<PathBuf, String>,
    opts: &Options,
) -> Result<Planned, Problems> {
    let one = |path: &Path, e: Error| vec![PatchProblem::of(path, fp.line, &e)];
    if fp.binary {
        let path = new.as_ref().or(old.as_ref()).map(|r| r.target.clone());
        let path = path.unwrap_or_default();
        return Err(one(
            &path,
            Error::invalid_argument_fix(
                format!(
                    "the patch's section for {} is a binary patch, which quill cannot apply",
                    path.display()
                ),
                "leave binary files out of the patch (`git diff --no-binary`), and change them with `quill write` or `quill transfer`",
            ),
        ));
    }
    let expect = |r: &Resolved| expects.get(&r.target).map(String::as_str);
    match (old, new) {
        (None, None) => Err(Vec::new()),
        (None, Some(new)) => create(s, fp, new, expect, opts),
        (Some(old), None) => delete(s, fp, old, expect, opts),
        (Some(old), Some(new)) if old.target == new.target => modify(s, fp, new, expect, opts),
        (Some(old), Some(new)) if fp.renamed => moved(s, fp, old, new, expect, opts),
        // Two names on a plain `---`/`+++` pair (`diff -u a.txt a.txt.new`): one file changed
        // in place, the one that exists (the old name first, as GNU patch does).
        (Some(old), Some(new)) if !old.exists && new.exists => modify(s, fp, new, expect, opts),
        (Some(old), Some(_)) => modify(s, fp, old, expect, opts),
    }
}

/// The file's directory held and its current content, or the problem.
fn load(
    s: &Settings,
    fp: &FilePatch,
    r: &Resolved,
    opts: &Options,
) -> Result<(Option<Parent>, Option<Current>), Problems> {
    let one = |e: Error| vec![PatchProblem::of(&r.target, fp.line, &e)];
    let parent = guard::parent(s, &r.target).map_err(one)?;
    let cur = guard::current(
        parent.as_ref(),
        opts.max_file_bytes,
        Some(opts.max_file_bytes),
    )
    .map_err(one)?;
    Ok((parent, cur))
}

/// A file the section changes, deletes or moves: its directory held, its content, and whether
/// the caller's knowledge of it is complete — or the problem (missing, not fresh, not text).
fn existing(
    s: &Settings,
    fp: &FilePatch,
    r: &Resolved,
    expect: Option<&str>,
    opts: &Options,
) -> Result<(Option<Parent>, Current, bool), Problems> {
    let (parent, cur) = load(s, fp, r, opts)?;
    let Some(cur) = cur else {
        return Err(missing(s, opts.session, fp, r, expect));
    };
    let judged = check_existing(s, fp, r, &cur, expect, opts, false)?;
    Ok((parent, cur, judged.complete))
}

/// The existing file must be fresh, and text quill can patch byte for byte.
fn check_existing(
    s: &Settings,
    fp: &FilePatch,
    r: &Resolved,
    cur: &Current,
    expect: Option<&str>,
    opts: &Options,
    edit: bool,
) -> Result<fresh::Judged, Problems> {
    let one = |e: Error| vec![PatchProblem::of(&r.target, fp.line, &e)];
    let bytes = cur.bytes.as_deref().unwrap_or(&[]);
    match sniff::sniff(&bytes[..bytes.len().min(sniff::SNIFF_LEN)]) {
        Sniffed::Text {
            encoding: Encoding::Utf16Le | Encoding::Utf16Be,
        } => {
            return Err(one(Error::encoding(
                &r.target,
                format!(
                    "{} is UTF-16, which a text patch cannot change byte for byte; change it with `quill edit`",
                    r.target.display()
                ),
            )));
        }
        Sniffed::Text { .. } => {}
        Sniffed::Binary { guess } => {
            return Err(one(Error::BinaryFile {
                path: r.target.clone(),
                size: bytes.len() as u64,
                guess,
            }));
        }
        Sniffed::Image { mime } => {
            return Err(one(Error::BinaryFile {
                path: r.target.clone(),
                size: bytes.len() as u64,
                guess: mime,
            }));
        }
        Sniffed::Pdf => {
            return Err(one(Error::BinaryFile {
                path: r.target.clone(),
                size: bytes.len() as u64,
                guess: "PDF document",
            }));
        }
    }
    let call = edit.then_some(opts.fingerprint.as_str());
    let rule = Rule::Baseline { expect, edit, call };
    fresh::judge(s, opts.session, &r.target, Some(cur), rule, opts.dry_run).map_err(one)
}

/// A deleted or moved file is the file itself, never a link to it.
fn refuse_link(fp: &FilePatch, r: &Resolved, what: &'static str) -> Result<(), Problems> {
    let named = r.via_symlink.as_ref().or_else(|| {
        fs::symlink_metadata(&r.requested)
            .is_ok_and(|m| m.file_type().is_symlink())
            .then_some(&r.requested)
    });
    match named {
        Some(link) => Err(vec![PatchProblem::of(
            link,
            fp.line,
            &Error::Symlink {
                path: link.clone(),
                reason: what,
            },
        )]),
        None => Ok(()),
    }
}

fn modify<'e>(
    s: &Settings,
    fp: &FilePatch,
    r: Resolved,
    expect: impl Fn(&Resolved) -> Option<&'e str>,
    opts: &Options,
) -> Result<Planned, Problems> {
    // Hunks change some lines: a change shown counts as seen, and --merge may land them
    // over a change elsewhere in the file.
    let (parent, cur) = load(s, fp, &r, opts)?;
    let Some(cur) = cur else {
        return Err(missing(s, opts.session, fp, &r, expect(&r)));
    };
    let judged = check_existing(s, fp, &r, &cur, expect(&r), opts, true)?;
    let complete = judged.complete;
    let last_was_this_patch = expect(&r).is_none()
        && opts
            .session
            .and_then(|ss| ss.baseline(&r.target))
            .is_some_and(|b| b.edit.as_deref() == Some(opts.fingerprint.as_str()));
    if last_was_this_patch {
        return Err(vec![already_applied(fp, &r.target)]);
    }
    let body = cur.bytes.as_deref().unwrap_or(&[]);
    let applied = hunks(fp, &r.target, body, opts, true);
    let since = judged.since.as_ref();
    let (applied, outside) =
        super::over::over(s, fp, &r.target, &cur, since, applied, opts.dry_run)?;
    let sha256 = sha256_bytes(&applied.new_body);
    // git's `new mode`: the execute bits follow it (the rest stays the file's).
    let mode = fp.new_mode.map(|m| {
        let now = cur.meta.mode() & 0o7777;
        if m & 0o111 != 0 {
            now | ((now & 0o444) >> 2)
        } else {
            now & !0o111
        }
    });
    Ok(Planned {
        action: FileAction::Modified,
        parent,
        cur: Some(cur),
        source: None,
        sha256,
        mode,
        complete,
        hunks: fp.hunks.len(),
        spans: applied.spans,
        matched_fuzzily: applied.matched_fuzzily,
        new_bytes: applied.new_body,
        target: r,
        outside,
    })
}

fn create<'e>(
    s: &Settings,
    fp: &FilePatch,
    r: Resolved,
    expect: impl Fn(&Resolved) -> Option<&'e str>,
    opts: &Options,
) -> Result<Planned, Problems> {
    let (parent, cur) = destination(s, fp, &r, expect(&r), opts, Onto::Added)?;
    if fp
        .hunks
        .iter()
        .any(|h| h.lines.iter().any(|l| !matches!(l, HunkLine::Add(_))))
    {
        return Err(vec![PatchProblem::of(
            &r.target,
            fp.line,
            &Error::invalid_argument(String::new()),
        )
        .reworded(
            format!(
                "the patch creates {}, but its hunk has context or removed lines: a new file depends on no old content",
                r.target.display()
            ),
            "give a created file's lines as `+` lines only (or change an existing file with an update section)",
        )]);
    }
    let content = patch::created_content(fp);
    if !opts.allow_placeholder {
        placeholders(fp, &r.target, "")?;
    }
    let sha256 = sha256_bytes(&content);
    let mode = fp
        .new_mode
        .map(|m| if m & 0o111 != 0 { 0o777 } else { 0o666 } & !crate::sys::umask());
    Ok(Planned {
        action: FileAction::Created,
        parent,
        cur,
        source: None,
        sha256,
        mode,
        complete: true,
        hunks: fp.hunks.len(),
        spans: vec![LineSpan {
            start_line: 1,
            end_line: content.split_inclusive(|b| *b == b'\n').count(),
        }],
        matched_fuzzily: false,
        new_bytes: content,
        target: r,
        outside: None,
    })
}

fn delete<'e>(
    s: &Settings,
    fp: &FilePatch,
    r: Resolved,
    expect: impl Fn(&Resolved) -> Option<&'e str>,
    opts: &Options,
) -> Result<Planned, Problems> {
    refuse_link(
        fp,
        &r,
        "a patch never deletes through a link (its target would go and the link dangle)",
    )?;
    let (parent, cur, complete) = existing(s, fp, &r, expect(&r), opts)?;
    // A unified deletion spells the content out: it must be what the file holds.
    if !fp.hunks.is_empty() {
        let body = cur.bytes.as_deref().unwrap_or(&[]);
        let applied = hunks(fp, &r.target, body, opts, false)?;
        if !applied.new_body.is_empty() {
            return Err(vec![PatchProblem::of(
                &r.target,
                fp.line,
                &guard::stale(s, &r.target, Gone::No),
            )
            .reworded(
                format!(
                    "the patch deletes {}, but the file holds more than the patch removes",
                    r.target.display()
                ),
                "the patch was made from another version of the file: make it again from the current file",
            )]);
        }
    }
    Ok(Planned {
        action: FileAction::Deleted,
        parent,
        sha256: String::new(),
        cur: Some(cur),
        source: None,
        mode: None,
        complete,
        hunks: fp.hunks.len(),
        spans: Vec::new(),
        matched_fuzzily: false,
        new_bytes: Vec::new(),
        target: r,
        outside: None,
    })
}

fn moved<'e>(
    s: &Settings,
    fp: &FilePatch,
    old: Resolved,
    new: Resolved,
    expect: impl Fn(&Resolved) -> Option<&'e str>,
    opts: &Options,
) -> Result<Planned, Problems> {
    refuse_link(
        fp,
        &old,
        "a patch never moves a link's target away (the link would dangle)",
    )?;
    let mut problems = Vec::new();
    let source = existing(s, fp, &old, expect(&old), opts);
    let dest = destination(s, fp, &new, expect(&new), opts, Onto::MovedTo(&old.target));
    let (source, (parent, cur)) = match (source, dest) {
        (Ok(src), Ok(dest)) => (src, dest),
        (a, b) => {
            problems.extend(a.err().unwrap_or_default());
            problems.extend(b.err().unwrap_or_default());
            return Err(problems);
        }
    };
    let (sparent, scur, complete) = source;
    let body = scur.bytes.as_deref().unwrap_or(&[]);
    let applied = hunks(fp, &old.target, body, opts, true)?;
    let sha256 = sha256_bytes(&applied.new_body);
    Ok(Planned {
        action: FileAction::Moved,
        parent,
        cur,
        mode: Some(scur.meta.mode() & 0o7777),
        source: Some(Source {
            resolved: old,
            parent: sparent,
            cur: scur,
        }),
        sha256,
        complete,
        hunks: fp.hunks.len(),
        spans: applied.spans,
        matched_fuzzily: applied.matched_fuzzily,
        new_bytes: applied.new_body,
        target: new,
        outside: None,
    })
}

/// A file the section changes is not there: `stale` when the session knew it (someone deleted
/// it since), else `not_found`.
fn missing(
    s: &Settings,
    session: Option<&Session>,
    fp: &FilePatch,
    r: &Resolved,
    expect: Option<&str>,
) -> Problems {
    let e = match fresh::judge(s, session, &r.target, None, Rule::whole(expect), true) {
        Err(e) => e,
        Ok(_) => paths::not_found(&r.target),
    };
    vec![PatchProblem::of(&r.target, fp.line, &e)]
}

/// What puts content at a path that may already hold a file.
#[derive(Clone, Copy)]
enum Onto<'a> {
    /// A created file (`*** Add File`, `--- /dev/null`).
    Added,
    /// The destination of a move from this path.
    MovedTo(&'a Path),
}

/// The path a section creates or moves a file to: its directory held and what it holds now.
/// Nothing there: it must be missing for the session too (`check_missing`). A file there: the
/// section replaces it only as `write` would — the session's fresh baseline of it, or its
/// `--expect-sha256` (a changed file is `stale`); without either, `create_conflict`.
fn destination(
    s: &Settings,
    fp: &FilePatch,
    r: &Resolved,
    expect: Option<&str>,
    opts: &Options,
    onto: Onto,
) -> Result<(Option<Parent>, Option<Current>), Problems> {
    let one = |e: Error| vec![PatchProblem::of(&r.target, fp.line, &e)];
    let (parent, cur) = load(s, fp, r, opts)?;
    match &cur {
        None if r.exists => return Err(vec![exists(fp, &r.target, onto, opts.format)]),
        None => {
            fresh::judge(
                s,
                opts.session,
                &r.target,
                None,
                Rule::whole(expect),
                opts.dry_run,
            )
            .map_err(one)?;
        }
        Some(c) => {
            let rule = Rule::whole(expect);
            let fresh = fresh::judge(s, opts.session, &r.target, Some(c), rule, opts.dry_run);
            let last_was_this_patch = expect.is_none()
                && opts
                    .session
                    .and_then(|ss| ss.baseline(&r.target))
                    .is_some_and(|b| b.edit.as_deref() == Some(opts.fingerprint.as_str()));
            match fresh {
                Ok(_) if last_was_this_patch => return Err(vec![already_applied(fp, &r.target)]),
                Ok(_) => {}
                Err(Error::NotRead { .. }) => {
                    return Err(vec![exists(fp, &r.target, onto, opts.format)]);
                }
                Err(e) => return Err(one(e)),
            }
        }
    }
    Ok((parent, cur))
}

/// A file the section creates (or moves a file to) is already there, and the session has not
/// read it: replacing it would lose content no one has seen.
fn exists(fp: &FilePatch, target: &Path, onto: Onto, format: patch::Format) -> PatchProblem {
    let q = crate::text::shell::shell_quote(target);
    let update = match format {
        patch::Format::Codex => "use an Update File section",
        patch::Format::Unified => {
            "make the patch against its content (a change, not `--- /dev/null`)"
        }
    };
    let (message, hint) = match onto {
        Onto::Added => (
            format!(
                "the patch creates {}, which exists and was not read in this session",
                target.display()
            ),
            format!(
                "{} exists; read it first (`quill read {q}`) to replace it, or {update}",
                target.display()
            ),
        ),
        Onto::MovedTo(from) => (
            format!(
                "the patch moves {} to {}, which exists and was not read in this session",
                from.display(),
                target.display()
            ),
            format!(
                "{} is the destination of a move and exists; read it first (`quill read {q}`) to replace it, or move to a path that does not exist",
                target.display()
            ),
        ),
    };
    PatchProblem::of(
        target,
        fp.line,
        &Error::CreateConflict {
            path: target.to_path_buf(),
        },
    )
    .reworded(message, &hint)
}

/// Apply the section's hunks to `body`; every failing hunk is a problem (and a patch whose
/// every hunk is already there is `already_applied`).
pub(super) fn hunks(
    fp: &FilePatch,
    target: &Path,
    body: &[u8],
    opts: &Options,
    may_be_applied: bool,
) -> Result<patch::Applied, Problems> {
    if !opts.allow_placeholder {
        placeholders(fp, target, &String::from_utf8_lossy(body))?;
    }
    if !opts.unidiff_zero && !body.is_empty() {
        zero_context(fp, target)?;
    }
    let aopts = ApplyOptions { fuzzy: opts.fuzzy };
    match patch::apply(body, &fp.hunks, &aopts) {
        Ok(a) => Ok(a),
        Err(failures) => {
            // Already there: only when every hunk adds lines (its undoing has an old side to
            // find) and every failure is a plain miss — an ambiguous or remove-only hunk, undone,
            // would "apply" anywhere.
            let eligible = may_be_applied
                && !fp.hunks.is_empty()
                && fp
                    .hunks
                    .iter()
                    .all(|h| h.lines.iter().any(|l| matches!(l, HunkLine::Add(_))))
                && failures
                    .iter()
                    .all(|f| matches!(f.error, HunkError::NoMatch { .. }));
            if eligible && patch::apply(body, &reversed(&fp.hunks), &aopts).is_ok() {
                return Err(vec![already_applied(fp, target)]);
            }
            Err(failures
                .into_iter()
                .map(|f| hunk_problem(target, f))
                .collect())
        }
    }
}

/// A unified hunk of added lines alone (`git diff -U0`) has nothing but its line number to
/// say where it goes — a number that is right only for the version the patch was made from.
/// As `git apply`, quill refuses it unless `--unidiff-zero`.
fn zero_context(fp: &FilePatch, target: &Path) -> Result<(), Problems> {
    let problems: Problems = fp
        .hunks
        .iter()
        .enumerate()
        .filter(|(_, h)| {
            h.old_start.is_some() && h.lines.iter().all(|l| matches!(l, HunkLine::Add(_)))
        })
        .map(|(i, h)| {
            let mut p = PatchProblem::of(target, h.line, &Error::invalid_argument(String::new()))
                .reworded(
                    format!(
                        "hunk {} (line {} of the patch) adds lines with no context lines around them, so only its line number says where they go in {}",
                        i + 1,
                        h.line,
                        target.display()
                    ),
                    "make the patch with context (`git diff` without -U0, or `diff -u`), or apply again with --unidiff-zero to place it by its line number",
                );
            p.hunk_index = Some(i);
            p
        })
        .collect();
    if problems.is_empty() {
        Ok(())
    } else {
        Err(problems)
    }
}

/// The hunks undone: what the file holds when the patch is already applied.
fn reversed(hunks: &[Hunk]) -> Vec<Hunk> {
    hunks
        .iter()
        .map(|h| Hunk {
            lines: h
                .lines
                .iter()
                .map(|l| match l {
                    HunkLine::Add(b) => HunkLine::Remove(b.clone()),
                    HunkLine::Remove(b) => HunkLine::Add(b.clone()),
                    HunkLine::Context(b) => HunkLine::Context(b.clone()),
                })
                .collect(),
            old_no_eol: h.new_no_eol,
            new_no_eol: h.old_no_eol,
            old_start: None,
            ..h.clone()
        })
        .collect()
}

fn already_applied(fp: &FilePatch, target: &Path) -> PatchProblem {
    PatchProblem::of(
        target,
        fp.line,
        &Error::AlreadyApplied {
            path: target.to_path_buf(),
        },
    )
    .reworded(
        format!(
            "{} already holds what this section of the patch makes (it was applied before)",
            target.display()
        ),
        "nothing to do for this file: leave its section out of the patch",
    )
}

fn hunk_problem(target: &Path, f: patch::HunkFailure) -> PatchProblem {
    let n = f.hunk_index + 1;
    let at = |m: String| format!("hunk {n} (line {} of the patch): {m}", f.line);
    let shown = target.display();
    let quoted = crate::text::shell::shell_quote(target);
    let mut p = match f.error {
        HunkError::NoMatch {
            reason,
            window,
            difference,
            fix,
        } => {
            let hint = match fix {
                MissFix::Fuzzy | MissFix::FuzzyUnnumbered | MissFix::FuzzyUnescaped => {
                    "apply again with --fuzzy: the hunk matches there once whitespace and look-alike characters are ignored".to_string()
                }
                MissFix::Unique => {
                    "add context lines to the hunk (or an `@@ LINE` anchor) so that it matches one place".to_string()
                }
                _ => format!(
                    "the file's lines differ from the hunk's context and removed lines (see `window`): make the patch again from the current file (`quill read {quoted}`)"
                ),
            };
            let e = Error::EditNoMatch {
                message: String::new(),
                path: target.to_path_buf(),
                edit_index: f.hunk_index,
                reason,
                window,
                difference,
                fix,
            };
            PatchProblem::of(target, f.line, &e)
                .reworded(at(format!("its lines are not in {shown}")), &hint)
        }
        HunkError::Ambiguous { count, lines } => {
            let shown_lines: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
            let e = Error::EditAmbiguous {
                message: String::new(),
                path: target.to_path_buf(),
                edit_index: f.hunk_index,
                count,
                lines,
                fuzzy: false,
                expect_count: None,
            };
            PatchProblem::of(target, f.line, &e).reworded(
                at(format!(
                    "its lines occur {count} times in {shown} (lines {}), and nothing tells which is meant",
                    shown_lines.join(", ")
                )),
                "add an `@@ LINE` line above the hunk naming the function or class it is in, or more context lines",
            )
        }
        HunkError::AnchorNotFound { anchor } => {
            PatchProblem::of(target, f.line, &Error::invalid_argument(String::new())).reworded_as(
                "edit_no_match",
                at(format!("its `@@ {anchor}` line is not in {shown}")),
                &format!("name a line {shown} has (`quill read {quoted}`), or leave the @@ line bare"),
            )
        }
        HunkError::NotAtEnd => PatchProblem::of(target, f.line, &Error::invalid_argument(String::new()))
            .reworded_as(
                "edit_no_match",
                at(format!("it must end at the end of {shown}, but its lines match earlier")),
                "drop `*** End of File` (or the `\\ No newline at end of file` line) from the hunk, or make the patch again",
            ),
    };
    p.hunk_index = Some(f.hunk_index);
    p
}

/// An omission placeholder (`// ... existing code ...`) among a section's added lines that
/// neither its removed lines nor the file have: the lines it stands for would be lost.
fn placeholders(fp: &FilePatch, target: &Path, file: &str) -> Result<(), Problems> {
    let mut problems = Vec::new();
    for (i, h) in fp.hunks.iter().enumerate() {
        let mut added = Vec::new();
        let mut old = Vec::new();
        for l in &h.lines {
            match l {
                HunkLine::Add(b) => {
                    added.extend_from_slice(b);
                    added.push(b'\n');
                }
                HunkLine::Remove(b) | HunkLine::Context(b) => {
                    old.extend_from_slice(b);
                    old.push(b'\n');
                }
            }
        }
        let added: Cow<str> = String::from_utf8_lossy(&added);
        let old: Cow<str> = String::from_utf8_lossy(&old);
        if let Some(p) = placeholder::introduced(&added, &[&old, file]) {
            let mut problem = PatchProblem::of(target, h.line, &Error::invalid_argument(String::new()))
                .reworded(
                    format!(
                        "hunk {} (line {} of the patch) adds an omission placeholder, `{}`, that {} does not have: quill writes lines literally, so the lines it stands for would be lost",
                        i + 1,
                        h.line,
                        p.text,
                        target.display()
                    ),
                    "put the real lines in the hunk instead of the placeholder; if the line is meant literally, apply again with --allow-placeholder",
                );
            problem.hunk_index = Some(i);
            problems.push(problem);
        }
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(problems)
    }
}
