//! `quill transfer SRC DST [--move]` (docs/commands/transfer.md): copy or move one regular file without ever
//! losing it or half-publishing it. The destination is create-only unless `--replace-sha256`
//! names its current content (hashed under the lock). A copy streams the source through a
//! small pool of buffers — a reader thread reads and hashes while this thread writes the
//! temporary file in the destination's directory — so memory stays bounded and the SHA-256
//! costs no second pass; the source's stat identity is compared before and after, then the
//! temporary file is fsync'ed and published with a no-replace rename. A move within one
//! filesystem is one atomic no-replace rename (`method: "rename"`, no read at all unless
//! `--expect-sha256` asks for a hash); across filesystems it is a copy followed by removing
//! the source only if it is still the version that was copied. Both paths are locked, in
//! sorted order, from the first check to the state update. This module never prints; progress
//! goes through `output::progress`.

use crate::sys::MetadataExt;
use std::ffi::OsStr;
use std::fs::{self, File, FileTimes, Metadata};
use std::io;
use std::path::Path;

use crate::cli::{ProgressMode, TransferArgs};
use crate::error::{Error, Result};
use crate::fs::paths::{self, Resolved};
use crate::fs::probe::{self, Identity};
use crate::guard;
use crate::guard::parent::{NoReplace, NoReplaceError, Parent, Parents};
use crate::guard::publish::Staged;
use crate::output::progress::Progress;
use crate::report::{AsTyped, FileAccess, Report, TransferReport, TypedRoot};
use crate::settings::Settings;
use crate::signals;
use crate::state::history::{Before, MAX_SESSION_BYTES};
use crate::state::{Baseline, now_ns, path_key};
use crate::warnings::WarningKind;

pub mod endpoint;
mod pull;
mod receive;
mod remote;
mod serve;
mod source;
mod ssh;
mod stream;
pub mod wire;

use stream::stream;

/// `quill transfer`: between two local paths, to or from another machine (`host:path`), or
/// the far side of such a transfer (`--serve`).
pub(crate) fn dispatch(s: &Settings, args: TransferArgs) -> Result<Report> {
    use endpoint::Endpoint::{Local, Remote};
    if let Some(protocol) = args.serve {
        return serve::run(s, protocol);
    }
    let end = |p: &Path| endpoint::parse(p.as_os_str()).map_err(Error::invalid_argument);
    match (end(&args.source)?, end(&args.destination)?) {
        (Local(_), Local(_)) => run(s, args.resolve(s)?),
        (Local(local), Remote(far)) => remote::push(s, &args, &local, &far),
        (Remote(far), Local(local)) => pull::pull(s, &args, &far, &local),
        (Remote(_), Remote(_)) => Err(Error::invalid_argument(
            "both ends are on other machines: quill transfers between this machine and one other; run it on one of them (`ssh HOST quill transfer …`)",
        )),
    }
}

/// A checked `quill transfer`: both ends resolved, the hashes parsed.
pub(crate) struct TransferRequest {
    src: Resolved,
    dst: Resolved,
    move_: bool,
    replace: Option<String>,
    expect: Option<String>,
    /// `--no-parents`: the destination's directory must exist.
    no_parents: bool,
    progress: ProgressMode,
    /// Text output: both ends as typed.
    typed: AsTyped,
}

impl TransferArgs {
    /// Check the flags, refuse read-only runs, resolve the source (an existing regular file)
    /// and the destination (a new file, or one inside an existing directory).
    pub(crate) fn resolve(self, s: &Settings) -> Result<TransferRequest> {
        let args = self;
        let replace = args
            .replace_sha256
            .as_deref()
            .map(|h| probe::parse_sha256("--replace-sha256", h))
            .transpose()?;
        let expect = args
            .expect_sha256
            .as_deref()
            .map(|h| probe::parse_sha256("--expect-sha256", h))
            .transpose()?;
        if s.read_only {
            let dst = paths::normalize_lexically(&s.cwd.join(&args.destination));
            s.check_writable(&dst, "transfer to")?;
        }
        let src = source::resolve(s, &args.source)?;
        // `--parents` is the default said out loud (clap refuses it with --no-parents).
        let no_parents = args.no_parents && !args.parents;
        let name = src
            .requested
            .file_name()
            .or_else(|| src.target.file_name())
            .unwrap_or(OsStr::new(""));
        let dst = destination(s, &args.destination, name, Some(&src.target), no_parents)?;
        if src.target == dst.target {
            return Err(same_file(&src, &dst));
        }
        // Into a directory: the destination as typed is that directory's name joined with
        // the file's.
        let typed_dst = match dst.target.file_name() {
            Some(name) if s.cwd.join(&args.destination).is_dir() => args.destination.join(name),
            _ => args.destination.clone(),
        };
        let typed = AsTyped {
            roots: vec![
                TypedRoot {
                    resolved: src.target.clone(),
                    typed: args.source.clone(),
                },
                TypedRoot {
                    resolved: dst.target.clone(),
                    typed: typed_dst,
                },
            ],
        };
        Ok(TransferRequest {
            src,
            dst,
            move_: args.move_,
            replace,
            expect,
            no_parents,
            progress: args.progress,
            typed,
        })
    }
}

pub(crate) fn run(s: &Settings, req: TransferRequest) -> Result<Report> {
    let TransferRequest {
        src,
        dst,
        move_,
        replace,
        expect,
        no_parents,
        progress,
        typed,
    } = req;
    let started = std::time::Instant::now();
    let _locks = s.store().lock_mutations(&[&src.target, &dst.target])?;

    // Everything below runs under both locks: the checks, the publication, the state update.
    // Both directories are opened once (beneath --root) and every step names the files in
    // them relative to those descriptors. The destination's missing directories are made as
    // `write` makes them (`--no-parents`: `not_found`), once the source is open.
    let src_parent = Parent::open(s.root.as_ref(), &src.target, Parents::Existing)?;
    let held = guard::parent(s, &dst.target)?;
    let (source_file, source_meta) = src_parent
        .open_target()?
        .ok_or_else(|| paths::not_found(&src.target))?;
    let before = Identity::of(&source_meta);
    let existing = match &held {
        Some(dst_parent) => check_destination(
            s,
            Some((&src, &source_meta)),
            &dst,
            dst_parent,
            replace.as_deref(),
            move_,
        )?,
        None => None,
    };
    let dst_parent = guard::parent_to_publish(s, &dst.target, held, no_parents)?;
    let dst_parent = &dst_parent;

    let job = Job {
        s,
        progress,
        src: &src,
        dst: &dst,
        src_parent: &src_parent,
        dst_parent,
        before,
        source_meta: &source_meta,
        existing: existing.as_ref(),
        expect: expect.as_deref(),
        move_,
    };
    let outcome = if move_ && same_filesystem(&source_meta, dst_parent) {
        match job.rename(source_file)? {
            Renamed::Done(outcome) => *outcome,
            Renamed::CrossDevice(file) => job.copy(file)?,
        }
    } else {
        job.copy(source_file)?
    };
    job.follow_in_session(&outcome);

    if let Some(reason) = &outcome.kept_reason {
        s.warn(
            WarningKind::SourceKept,
            format!("the destination is complete, but the source was kept: {reason}"),
        );
    }
    Ok(Report::Transfer(TransferReport {
        source: src.target.clone(),
        via_symlink: src.via_symlink.clone(),
        destination: dst.target.clone(),
        bytes: outcome.bytes,
        sha256: outcome.sha256,
        method: outcome.method,
        replaced: existing.is_some(),
        source_removed: outcome.source_removed,
        source_kept_reason: outcome.kept_reason,
        remote: None,
        file_access: FileAccess::write(&dst.target),
        elapsed: started.elapsed(),
        typed,
    }))
}

/// The destination file: `DST` itself, or `DST/<source name>` when `DST` is a directory. A
/// destination that is a symbolic link is refused (`symlink`), never followed and replaced.
/// Its directory may be missing (made at publication) unless `no_parents`.
pub(super) fn destination(
    s: &Settings,
    given: &Path,
    name: &OsStr,
    source: Option<&Path>,
    no_parents: bool,
) -> Result<Resolved> {
    // Not folded lexically: `link/..` means what the kernel says it means.
    let requested = s.cwd.join(given);
    let into_dir = fs::metadata(&requested).is_ok_and(|m| m.is_dir());
    let path = if into_dir {
        requested.join(name)
    } else if ends_with_slash(given) {
        return Err(paths::not_found(requested));
    } else {
        requested
    };
    // A destination link to the source itself is the same file (§3.7), not a link to refuse.
    if let Some(source) = source
        && crate::sys::canonicalize(&path).is_ok_and(|t| t == source)
    {
        return Err(Error::SameFile {
            source_path: source.to_path_buf(),
            destination: path,
        });
    }
    refuse_link(&path)?;
    let dst = paths::resolve(&s.cwd, s.root.as_ref(), &path)?;
    let parent = dst.target.parent().unwrap_or(Path::new("/"));
    match fs::metadata(parent) {
        Ok(m) if m.is_dir() => {}
        Err(e) if e.kind() == io::ErrorKind::NotFound && !no_parents => {}
        _ => return Err(paths::not_found(parent)),
    }
    Ok(dst)
}

fn ends_with_slash(p: &Path) -> bool {
    p.as_os_str()
        .as_encoded_bytes()
        .last()
        .is_some_and(|&b| crate::sys::is_separator_byte(b))
}

fn refuse_link(path: &Path) -> Result<()> {
    if fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink()) {
        return Err(link_refused(path));
    }
    Ok(())
}

fn link_refused(path: &Path) -> Error {
    Error::Symlink {
        path: path.to_path_buf(),
        reason: "transfer never replaces a link (it would replace the link, not its target)",
    }
}

fn same_file(src: &Resolved, dst: &Resolved) -> Error {
    Error::SameFile {
        source_path: src.target.clone(),
        destination: dst.target.clone(),
    }
}

/// An existing destination the caller may replace: its metadata, hash and — for a copy, up to
/// the undo history's bound — its bytes, which the undo step keeps.
pub(super) struct Existing {
    pub(super) cur: guard::Current,
}

/// Under the lock: the destination must be absent, or hold exactly `replace`'s content.
pub(super) fn check_destination(
    s: &Settings,
    source: Option<(&Resolved, &Metadata)>,
    dst: &Resolved,
    dst_parent: &Parent,
    replace: Option<&str>,
    move_: bool,
) -> Result<Option<Existing>> {
    let Some(meta) = dst_parent.stat()? else {
        return Ok(None);
    };
    if meta.file_type().is_symlink() {
        return Err(link_refused(&dst.target));
    }
    // Another name of the source (a hard link), where metadata can tell (`sys::IDENTITY`).
    if let Some((src, source_meta)) = source
        && crate::sys::IDENTITY
        && meta.dev() == source_meta.dev()
        && meta.ino() == source_meta.ino()
    {
        return Err(same_file(src, dst));
    }
    probe::check_regular(&dst.target, &meta)?;
    let Some(want) = replace else {
        return Err(Error::DestinationExists {
            path: dst.target.clone(),
        });
    };
    // A move is no undo step (it cuts the history): its old content is hashed, not kept.
    let keep = if move_ { 0 } else { MAX_SESSION_BYTES };
    let cur = guard::current(Some(dst_parent), keep, None)?
        .ok_or_else(|| paths::not_found(&dst.target))?;
    if cur.sha256 != want {
        return Err(Error::DestinationExists {
            path: dst.target.clone(),
        });
    }
    // Replacing it gives its path new content; its other hard links keep the old.
    guard::warn_hard_links(s, &dst.target, &cur.meta);
    Ok(Some(Existing { cur }))
}

/// Whether the destination's directory is on the source's filesystem (a rename may work).
fn same_filesystem(source_meta: &Metadata, dst: &Parent) -> bool {
    dst.dir_metadata()
        .is_ok_and(|m| m.dev() == source_meta.dev())
}

/// What happened, for the report and the session.
struct Moved {
    bytes: u64,
    sha256: Option<String>,
    method: &'static str,
    source_removed: bool,
    kept_reason: Option<String>,
    /// The destination's metadata right after publication.
    dest_meta: Option<Metadata>,
}

enum Renamed {
    Done(Box<Moved>),
    /// The rename crossed a mount point after all: copy instead (with the open source).
    CrossDevice(File),
}

/// One transfer under way: both ends locked and checked.
struct Job<'a> {
    s: &'a Settings,
    progress: ProgressMode,
    src: &'a Resolved,
    dst: &'a Resolved,
    src_parent: &'a Parent,
    dst_parent: &'a Parent,
    before: Identity,
    source_meta: &'a Metadata,
    existing: Option<&'a Existing>,
    expect: Option<&'a str>,
    move_: bool,
}

impl Job<'_> {
    fn source_changed(&self, reason: impl Into<String>) -> Error {
        Error::SourceChanged {
            path: self.src.target.clone(),
            reason: reason.into(),
        }
    }

    /// How the source at its path differs from the file (and version) that was opened: None
    /// when it is still that file. A failure to look (EIO, ENOSPC, EDQUOT…) is that I/O error,
    /// under its own kind — the source did not change, the system failed.
    fn source_change(&self) -> Result<Option<&'static str>> {
        source::change(self.src_parent, &self.before)
    }

    /// A move within one filesystem: one atomic rename, never replacing anything but a
    /// verified destination.
    fn rename(&self, mut source: File) -> Result<Renamed> {
        let sha256 = match self.expect {
            Some(want) => {
                let (have, _) = probe::sha256_stream(&mut source, &self.src.target)?;
                if have != want {
                    return Err(self.source_changed(
                        "its SHA-256 is not the one --expect-sha256 names; nothing was moved",
                    ));
                }
                Some(have)
            }
            None => None,
        };
        if let Some(why) = self.source_change()? {
            return Err(self.source_changed(why));
        }
        signals::check()?;
        let (from, to) = (&self.src.target, &self.dst.target);
        let mut kept = None;
        // A verified version is replaced atomically; otherwise nothing is ever replaced.
        match self
            .dst_parent
            .move_from(self.src_parent, self.existing.is_some())
        {
            Ok(NoReplace::Renamed) => {}
            Ok(NoReplace::Linked { unlinked }) => {
                kept = unlinked.map(|e| format!("cannot remove the source: {e}"));
            }
            Err(NoReplaceError::Exists) => {
                return Err(Error::DestinationExists { path: to.clone() });
            }
            Err(NoReplaceError::Rename(e)) if crate::sys::is_cross_device_error(&e) => {
                return Ok(Renamed::CrossDevice(rewind(source, from)?));
            }
            Err(NoReplaceError::Rename(e)) => return Err(Error::io("rename to", to, e)),
            // No hard links here (or another mount): copy instead.
            Err(NoReplaceError::Link(_)) => {
                return Ok(Renamed::CrossDevice(rewind(source, from)?));
            }
        }
        // One directory fsync: the rename is one journal transaction, and the destination's
        // entry is what must be durable (at worst a crash leaves the file under its old name).
        guard::sync_dir(self.s, self.dst_parent);
        Ok(Renamed::Done(Box::new(Moved {
            bytes: self.before.size,
            sha256,
            method: "rename",
            source_removed: kept.is_none(),
            kept_reason: kept,
            // The moved inode itself, from its descriptor.
            dest_meta: source.metadata().ok(),
        })))
    }

    /// Stream the source into a temporary file next to the destination, hashing on the way,
    /// then publish it; for a move, remove the source if it is still the copied version.
    fn copy(&self, source: File) -> Result<Moved> {
        let to = &self.dst.target;
        let mut staged = Staged::new(self.dst_parent)?;
        self.restrict(&mut staged)?;
        let label = self
            .src
            .typed
            .file_name()
            .unwrap_or(self.src.typed.as_os_str());
        let mut progress = Progress::new(
            self.progress,
            self.before.size,
            self.s.stderr_is_terminal,
            &label.to_string_lossy(),
            self.s.output.color_stderr,
            self.s.origin.progress.as_ref(),
        );
        let streamed = stream(
            &source,
            &self.src.target,
            staged.file_mut(),
            to,
            &mut progress,
        );
        if streamed.is_err() {
            // Interrupted (Ctrl-C, SIGTERM) or failed: clear the bar now, before the error
            // is printed, rather than whenever `progress` is dropped.
            progress.abandon();
        }
        let (sha256, bytes, after) = streamed?;
        if after != self.before || bytes != self.before.size {
            return Err(
                self.source_changed("it was modified while it was copied; nothing was published")
            );
        }
        if let Some(why) = self.source_change()? {
            return Err(self.source_changed(format!("{why}; nothing was published")));
        }
        if let Some(want) = self.expect
            && sha256 != want
        {
            return Err(self.source_changed(
                "its SHA-256 is not the one --expect-sha256 names; nothing was published",
            ));
        }
        self.keep_times(staged.file_mut());
        let committed = match self.existing {
            // A copy over a verified version keeps the destination's mode, like cp; a move
            // brings the source's.
            Some(_) if self.move_ => staged.commit_replace(self.source_meta),
            Some(existing) => staged.commit_replace(&existing.cur.meta),
            None => staged.commit_new().map_err(|e| match e {
                Error::CreateConflict { path } => Error::DestinationExists { path },
                other => other,
            }),
        }?;
        progress.finish();
        for w in committed.warnings {
            self.s.warnings.add(w);
        }
        let dest_meta = Some(committed.meta);

        // Committed: from here on nothing fails and nothing is retried.
        let (source_removed, kept_reason) = if self.move_ {
            self.remove_source()
        } else {
            (false, None)
        };
        Ok(Moved {
            bytes,
            sha256: Some(sha256),
            method: "copy",
            source_removed,
            kept_reason,
            dest_meta,
        })
    }

    /// Give the temporary file its final owner and mode *before* any data is written, so a
    /// private source is never readable by others through the temporary file. New copies get
    /// the source's permission bits less the umask (as cp); a copy over a verified destination
    /// keeps the destination's mode (as cp); a move keeps the source's owner (where allowed)
    /// and mode (as mv). The owner goes first: chown clears set-id bits.
    fn restrict(&self, staged: &mut Staged) -> Result<()> {
        let source_mode = self.source_meta.mode() & 0o7777;
        let mode = match (self.move_, self.existing) {
            (true, _) => {
                crate::sys::copy_owner(staged.file_mut(), self.source_meta);
                source_mode
            }
            (false, Some(existing)) => existing.cur.meta.mode() & 0o7777,
            (false, None) => source_mode & 0o777 & !crate::sys::umask(),
        };
        staged.set_mode(mode)
    }

    /// A move keeps the source's access and modification times, as mv does (set after the
    /// last write, which would update them).
    fn keep_times(&self, file: &File) {
        if !self.move_ {
            return;
        }
        let m = self.source_meta;
        let mut times = FileTimes::new();
        if let Ok(t) = m.accessed() {
            times = times.set_accessed(t);
        }
        if let Ok(t) = m.modified() {
            times = times.set_modified(t);
        }
        let _ = file.set_times(times);
    }

    /// The last step of a cross-filesystem move. Never fails: the destination is committed.
    fn remove_source(&self) -> (bool, Option<String>) {
        source::remove_unchanged(self.s, self.src_parent, &self.before, "copied")
    }

    /// The session's knowledge follows the file: a baseline of the source whose content is what
    /// was transferred becomes the destination's (and, after a move, leaves the source's path).
    /// `--expect-sha256` stands in for a baseline. The undo history follows the change
    /// (docs/commands/undo.md): a copy is an undo step of the destination, as a `write` is
    /// (undo removes a created copy, or puts a replaced destination's old content back); a
    /// move, which undo cannot revert without the source, cuts the history of both paths. A
    /// failure here is a warning: the transfer itself is done and must not be reported as
    /// failed (a retry would be refused).
    fn follow_in_session(&self, outcome: &Moved) {
        let store = self.s.store();
        let file = store.session(&self.s.session);
        let history = file.history();
        let Some(dest_meta) = &outcome.dest_meta else {
            return;
        };
        let id = Identity::of(dest_meta);
        let dest = self.dst.target.clone();
        let source = self.src.target.clone();
        // A move the session knows nothing of — no baseline to carry, no history to cut —
        // leaves the state as it is: no state write on the rename's fast path.
        let untouched = |session: &crate::state::session::Session| {
            self.expect.is_none()
                && session.baseline(&source).is_none()
                && !session.history().contains_key(&path_key(&source))
                && !session.history().contains_key(&path_key(&dest))
        };
        if self.move_ && file.peek(untouched).unwrap_or(true) {
            return;
        }
        let result = file.update(|session| {
            let known = session.baseline(&source);
            let carried = match (&known, &outcome.sha256) {
                // A rename moves the inode itself: its baseline stays as true (or as stale) as
                // it was.
                (Some(b), None) => Some((b.sha256.clone(), b.complete, b.read_at_ns, b.written)),
                (Some(b), Some(h)) if &b.sha256 == h => {
                    Some((h.clone(), b.complete, b.read_at_ns, b.written))
                }
                // Not a read of it: a line-addressed edit reads it first.
                (_, Some(h)) if self.expect.is_some() => Some((h.clone(), false, now_ns(), true)),
                _ => None,
            };
            if outcome.source_removed {
                session.forget(&source);
                history.cut(session, &path_key(&source));
            }
            if let Some((sha256, complete, read_at_ns, written)) = carried {
                // The read happened when the source was read, not now.
                session.record(Baseline {
                    read_at_ns,
                    written,
                    ..Baseline::new(&dest, sha256, &id, complete)
                });
            }
            let key = path_key(&dest);
            match (&outcome.sha256, self.move_) {
                (Some(after), false) => {
                    let before = match self.existing {
                        None => Before::Missing,
                        Some(e) if &e.cur.sha256 == after => Before::Unchanged,
                        Some(e) => e.cur.before(),
                    };
                    history.push(session, &key, before, after);
                }
                _ => history.cut(session, &key),
            }
        });
        if let Err(e) = result {
            self.s.warn(
                WarningKind::SessionNotUpdated,
                format!("transferred, but the session was not updated: {e}"),
            );
        }
    }
}

/// The source file, from its start again (after a rename that could not happen).
fn rewind(mut file: File, path: &Path) -> Result<File> {
    use std::io::Seek;
    file.rewind().map_err(|e| Error::io("read", path, e))?;
    Ok(file)
}
