//! What `glob` and `grep` share: the `ignore` walker configured like ripgrep's (gitignore,
//! `.ignore`, `.git/info/exclude`, hidden files, symlinks), the problems a walk runs into
//! (unreadable directories and files, loops, the `--max-walk` bound) and the paging of a
//! sorted result list. It never prints; commands turn a `WalkProblems` into report fields
//! and warnings.

use std::fs;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use ignore::WalkBuilder;
use ignore::overrides::Override;
use ignore::types::Types;

use crate::fs::paths::Root;
use crate::report::search::WalkSummary;
use crate::sys;
use crate::warnings::{WarningKind, Warnings};

#[cfg(unix)]
mod parallel;
#[cfg(unix)]
mod rules;

/// The walk options both commands take.
#[derive(Debug, Clone, Copy)]
pub(crate) struct WalkOptions {
    pub hidden: bool,
    pub no_ignore: bool,
    pub follow: bool,
}

/// A walker over `paths` with ripgrep's defaults: ignore files honored (a `.gitignore` only
/// inside a git repository, like rg), hidden entries skipped, links not followed. `.git`
/// directories are skipped even with `--hidden` (only `--no-ignore` shows them). With
/// `--follow` and a root, a link that leads outside the root is not entered.
pub(crate) fn builder(paths: &[PathBuf], opts: &WalkOptions, root: Option<&Root>) -> WalkBuilder {
    builder_skipping_git(paths, opts, root, !opts.no_ignore)
}

/// `builder`, with `.git` directories skipped or not whatever `--no-ignore` says (the counts
/// of what the filters hid leave `.git` out unless the pattern names it).
pub(crate) fn builder_skipping_git(
    paths: &[PathBuf],
    opts: &WalkOptions,
    root: Option<&Root>,
    skip_git: bool,
) -> WalkBuilder {
    let mut b = WalkBuilder::new(&paths[0]);
    for p in &paths[1..] {
        b.add(p);
    }
    let honor = !opts.no_ignore;
    b.hidden(!opts.hidden)
        .ignore(honor)
        .git_ignore(honor)
        .git_global(honor)
        .git_exclude(honor)
        .parents(honor)
        .require_git(true)
        .follow_links(opts.follow)
        .threads(0);
    let root = root.filter(|_| opts.follow).cloned();
    if skip_git || root.is_some() {
        b.filter_entry(move |e| {
            if skip_git && e.depth() > 0 && e.file_name() == ".git" {
                return false;
            }
            if let Some(root) = &root
                && e.path_is_symlink()
            {
                return crate::sys::canonicalize(e.path()).is_ok_and(|t| root.contains(&t));
            }
            true
        });
    }
    b
}

/// What a sorted walk keeps besides the walk options: grep's `--glob` and `--type`
/// selections, and how deep it goes.
#[derive(Default, Clone)]
pub(crate) struct Select {
    pub overrides: Option<Override>,
    pub types: Option<Types>,
    pub max_depth: Option<usize>,
}

/// One entry of a sorted walk.
#[derive(Debug, Clone)]
pub(crate) struct Entry {
    path: PathBuf,
    depth: usize,
    file_type: Option<fs::FileType>,
}

impl Entry {
    pub(crate) fn path(&self) -> &Path {
        &self.path
    }
    pub(crate) fn into_path(self) -> PathBuf {
        self.path
    }
    /// 0 for a PATH given.
    pub(crate) fn depth(&self) -> usize {
        self.depth
    }
    /// The entry's own type (a link is a link), None for stdin.
    pub(crate) fn file_type(&self) -> Option<fs::FileType> {
        self.file_type
    }
    pub(crate) fn file_name(&self) -> &std::ffi::OsStr {
        self.path.file_name().unwrap_or(self.path.as_os_str())
    }
    pub(crate) fn is_dir(&self) -> bool {
        self.file_type.is_some_and(|t| t.is_dir())
    }
}

impl From<ignore::DirEntry> for Entry {
    fn from(e: ignore::DirEntry) -> Entry {
        Entry {
            depth: e.depth(),
            file_type: e.file_type(),
            path: e.into_path(),
        }
    }
}

/// The walk `sorted` runs for a PATH that is a directory: `parallel`'s, which lists
/// directories on several threads (Unix, links not followed, no depth bound; the `ignore`
/// crate's sorted walker otherwise). `QUILL_SEQUENTIAL_WALK=1` asks for `ignore`'s walker
/// everywhere: the reference the tests compare the parallel walk with.
pub(crate) fn lists_in_parallel(path: &Path, opts: &WalkOptions, select: &Select) -> bool {
    cfg!(unix)
        && !opts.follow
        && select.max_depth.is_none()
        && !sequential_asked()
        && fs::symlink_metadata(path).is_ok_and(|m| m.is_dir())
}

/// `QUILL_SEQUENTIAL_WALK` is set and on (off, as for `QUILL_STRICT`: empty, `0`, `false`,
/// `no`, `off`, `n`, `f`, in any case).
fn sequential_asked() -> bool {
    std::env::var_os("QUILL_SEQUENTIAL_WALK").is_some_and(|v| {
        let v = v.to_string_lossy().to_ascii_lowercase();
        !["", "0", "false", "no", "off", "n", "f"].contains(&v.as_str())
    })
}

/// `parallel`'s walk of `p`, on one thread per core (8 at most).
#[cfg(unix)]
fn parallel_walk(p: &Path, opts: &WalkOptions, select: &Select) -> Walks {
    let rules = std::sync::Arc::new(rules::Rules::new(
        !opts.no_ignore,
        !opts.hidden,
        !opts.no_ignore,
        select.overrides.clone(),
        select.types.clone(),
    ));
    let top = rules::Top::new(rules, p);
    let threads = std::thread::available_parallelism().map_or(2, |n| n.get().min(8));
    Box::new(parallel::ParallelWalk::new(top, p, threads))
}

type Walks = Box<dyn Iterator<Item = Result<Entry, ignore::Error>>>;

/// The sorted walk of one PATH.
fn walk_one(p: &Path, opts: &WalkOptions, root: Option<&Root>, select: &Select) -> Walks {
    #[cfg(unix)]
    if lists_in_parallel(p, opts, select) {
        return parallel_walk(p, opts, select);
    }
    let mut b = builder(&[p.to_path_buf()], opts, root);
    b.sort_by_file_path(path_order);
    if let Some(o) = &select.overrides {
        b.overrides(o.clone());
    }
    if let Some(t) = &select.types {
        b.types(t.clone());
    }
    b.max_depth(select.max_depth);
    Box::new(b.build().map(|r| r.map(Entry::from)))
}

/// The entries under `paths` one at a time, in path order (`path_order`), as `builder`s
/// walk them with `select`: each directory's entries sorted, the PATHs taken in order. A
/// PATH inside another is walked on its own and merged in, an entry that both reach given
/// once, so the answer is the same set as the parallel walker's.
pub(crate) fn sorted(
    paths: &[PathBuf],
    opts: &WalkOptions,
    root: Option<&Root>,
    select: &Select,
) -> SortedWalk {
    let mut paths = paths.to_vec();
    paths.sort_by(|a, b| path_order(a, b));
    paths.dedup();
    let nested = paths.windows(2).any(|w| w[1].starts_with(&w[0]));
    let walks: Vec<_> = if nested {
        paths
            .iter()
            .map(|p| walk_one(p, opts, root, select).peekable())
            .collect()
    } else {
        // Sorted PATHs none inside another: one after the other is in order, each walk
        // started when the one before it ends.
        let (opts, select, root) = (*opts, select.clone(), root.cloned());
        let chained: Walks = Box::new(
            paths
                .into_iter()
                .flat_map(move |p| walk_one(&p, &opts, root.as_ref(), &select)),
        );
        vec![chained.peekable()]
    };
    SortedWalk { walks, last: None }
}

/// See `sorted`.
pub(crate) struct SortedWalk {
    walks: Vec<std::iter::Peekable<Walks>>,
    /// The path given last (an entry reached from two PATHs comes twice in a row).
    last: Option<PathBuf>,
}

impl Iterator for SortedWalk {
    type Item = Result<Entry, ignore::Error>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.walks.len() == 1 {
            return self.walks[0].next();
        }
        loop {
            // Errors first; then the walk whose next entry comes first.
            let mut best: Option<(usize, Option<&Path>)> = None;
            for (i, w) in self.walks.iter_mut().enumerate() {
                match w.peek() {
                    None => {}
                    Some(Err(_)) => {
                        best = Some((i, None));
                        break;
                    }
                    Some(Ok(e)) => {
                        let better = match best {
                            None => true,
                            Some((_, Some(b))) => path_order(e.path(), b).is_lt(),
                            Some((_, None)) => false,
                        };
                        if better {
                            best = Some((i, Some(e.path())));
                        }
                    }
                }
            }
            let i = best?.0;
            let item = self.walks[i].next()?;
            if let Ok(e) = &item {
                if self.last.as_deref() == Some(e.path()) {
                    continue;
                }
                self.last = Some(e.path().to_path_buf());
            }
            return Some(item);
        }
    }
}

/// Temporary files of an interrupted quill publication (`.<name>.quill-<random>.tmp`):
/// never listed or searched.
pub(crate) fn is_quill_temp(name: &std::ffi::OsStr) -> bool {
    let b = name.as_encoded_bytes();
    b.first() == Some(&b'.')
        && b.ends_with(b".tmp")
        && memchr::memmem::find(b, b".quill-").is_some()
}

/// What a walk could not see, shared by the walker threads.
#[derive(Default)]
pub(crate) struct WalkProblems {
    pub unreadable_directories: Mutex<Vec<PathBuf>>,
    pub unreadable_files: Mutex<Vec<PathBuf>>,
    pub other: Mutex<Vec<String>>,
    pub visited: AtomicUsize,
    pub walk_limit_hit: AtomicBool,
}

impl WalkProblems {
    /// Count one visited entry; false once `max_walk` entries were seen (the walk must stop).
    pub(crate) fn visit(&self, max_walk: usize) -> bool {
        let n = self.visited.fetch_add(1, Ordering::Relaxed);
        if n >= max_walk {
            self.walk_limit_hit.store(true, Ordering::Relaxed);
            return false;
        }
        true
    }

    /// File a walker error under the right heading.
    pub(crate) fn record(&self, err: &ignore::Error) {
        match (error_path(err), err.io_error()) {
            (Some(path), Some(_)) => {
                let is_dir = fs::symlink_metadata(path).is_ok_and(|m| m.is_dir())
                    || fs::metadata(path).is_ok_and(|m| m.is_dir());
                let list = if is_dir {
                    &self.unreadable_directories
                } else {
                    &self.unreadable_files
                };
                push(list, path.to_path_buf());
            }
            _ => push(&self.other, err.to_string()),
        }
    }

    pub(crate) fn unreadable_file(&self, path: &Path) {
        push(&self.unreadable_files, path.to_path_buf());
    }

    /// Sorted lists, and warnings for people (at most 20 lines per list).
    pub(crate) fn finish(self, warnings: &Warnings) -> WalkSummary {
        let take = |m: Mutex<Vec<PathBuf>>| {
            let mut v = m.into_inner().unwrap_or_default();
            v.sort_unstable();
            v.dedup();
            v
        };
        let dirs = take(self.unreadable_directories);
        let files = take(self.unreadable_files);
        let other = self.other.into_inner().unwrap_or_default();
        let limit_hit = self.walk_limit_hit.into_inner();
        warn_list(warnings, "cannot read directory (skipped)", &dirs);
        warn_list(warnings, "cannot read file (skipped)", &files);
        for o in other.iter().take(20) {
            warnings.push(WarningKind::WalkProblem, o.clone());
        }
        if limit_hit {
            warnings.push(
                WarningKind::WalkLimit,
                "the walk stopped at --max-walk entries; results are incomplete",
            );
        }
        WalkSummary {
            walk_incomplete: limit_hit || !dirs.is_empty() || !files.is_empty(),
            unreadable_directories: dirs,
            unreadable_files: files,
        }
    }
}

fn push<T>(m: &Mutex<Vec<T>>, v: T) {
    if let Ok(mut list) = m.lock() {
        list.push(v);
    }
}

fn warn_list(warnings: &Warnings, what: &str, paths: &[PathBuf]) {
    for p in paths.iter().take(20) {
        warnings.push(
            WarningKind::UnreadableSkipped,
            format!("{what}: {}", p.display()),
        );
    }
    if paths.len() > 20 {
        warnings.push(
            WarningKind::UnreadableSkipped,
            format!("… and {} more", paths.len() - 20),
        );
    }
}

/// The innermost path an `ignore::Error` names.
fn error_path(err: &ignore::Error) -> Option<&Path> {
    match err {
        ignore::Error::WithPath { path, err } => error_path(err).or(Some(path)),
        ignore::Error::WithDepth { err, .. } | ignore::Error::WithLineNumber { err, .. } => {
            error_path(err)
        }
        ignore::Error::Partial(errs) => errs.iter().find_map(error_path),
        _ => None,
    }
}

/// The window `[offset, offset + limit)` of `total` entries (`limit` 0 = all), and the
/// `nextOffset` after it (None on the last page).
pub(crate) fn page(total: usize, offset: usize, limit: usize) -> (usize, usize, Option<usize>) {
    let start = offset.min(total);
    let end = if limit == 0 {
        total
    } else {
        start.saturating_add(limit).min(total)
    };
    let next = (end < total).then_some(end);
    (start, end, next)
}

/// `path` from `dir` when it lies below it, else None. On Unix a byte comparison (`path` was
/// made by joining names to `dir`).
#[cfg(unix)]
pub(crate) fn below<'a>(path: &'a Path, dir: &Path) -> Option<&'a Path> {
    use std::borrow::Cow;
    // Borrowed on Unix, where this is compiled: the bytes are the path's own.
    let Cow::Borrowed(p) = sys::os_bytes(path.as_os_str()) else {
        return None;
    };
    let d = sys::os_bytes(dir.as_os_str());
    let rest = p.strip_prefix(&d[..])?;
    let rest = match rest.split_first() {
        Some((b'/', rest)) => rest,
        _ if d.ends_with(b"/") => rest,
        _ => return None,
    };
    match sys::os_str(rest) {
        Cow::Borrowed(rest) if !rest.is_empty() => Some(Path::new(rest)),
        _ => None,
    }
}

#[cfg(not(unix))]
pub(crate) fn below<'a>(path: &'a Path, dir: &Path) -> Option<&'a Path> {
    path.strip_prefix(dir)
        .ok()
        .filter(|p| !p.as_os_str().is_empty())
}

/// Order paths component by component (`a/b` before `a.b`), like `Path`'s own ordering and
/// rg's `--sort path`, but on raw bytes: a separator sorts before every other byte.
pub(crate) fn path_order(a: &Path, b: &Path) -> std::cmp::Ordering {
    let (a, b) = (
        a.as_os_str().as_encoded_bytes(),
        b.as_os_str().as_encoded_bytes(),
    );
    let common = a.len().min(b.len());
    // Paths below one directory share a long prefix: skip it eight bytes at a time.
    let mut n = 0;
    while n + 8 <= common && a[n..n + 8] == b[n..n + 8] {
        n += 8;
    }
    while n < common && a[n] == b[n] {
        n += 1;
    }
    let key = |s: &[u8]| {
        s.get(n).map(|&c| {
            if crate::sys::is_separator_byte(c) {
                0
            } else {
                c
            }
        })
    };
    match (key(a), key(b)) {
        (Some(x), Some(y)) => x.cmp(&y),
        (x, y) => x.is_some().cmp(&y.is_some()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cmp::Ordering::*;

    #[test]
    fn paging_windows() {
        assert_eq!(page(10, 0, 3), (0, 3, Some(3)));
        assert_eq!(page(10, 9, 3), (9, 10, None));
        assert_eq!(page(10, 20, 3), (10, 10, None));
        assert_eq!(page(10, 2, 0), (2, 10, None));
        assert_eq!(page(0, 0, 100), (0, 0, None));
    }

    #[test]
    fn path_order_is_by_component() {
        let o = |a: &str, b: &str| path_order(Path::new(a), Path::new(b));
        assert_eq!(o("a/b", "a.b"), Less);
        assert_eq!(o("a", "a/b"), Less);
        assert_eq!(o("a/b", "a/b"), Equal);
        assert_eq!(o("b", "a/z"), Greater);
        for (a, b) in [("x/y-z", "x/y/z"), ("ab", "a/b"), ("a/bc", "a/b/c")] {
            assert_eq!(o(a, b), Path::new(a).cmp(Path::new(b)), "{a} vs {b}");
        }
    }

    #[test]
    fn below_a_directory() {
        let b = |p: &str, d: &str| below(Path::new(p), Path::new(d)).map(|p| p.to_path_buf());
        assert_eq!(b("/w/a/b.rs", "/w"), Some("a/b.rs".into()));
        assert_eq!(b("/w/a", "/w/"), Some("a".into()));
        assert_eq!(b("/wx/a", "/w"), None);
        assert_eq!(b("/w", "/w"), None);
        assert_eq!(b("/v/a", "/w"), None);
    }

    #[test]
    fn quill_temp_names() {
        assert!(is_quill_temp(".a.rs.quill-x1y2.tmp".as_ref()));
        assert!(!is_quill_temp("a.rs".as_ref()));
        assert!(!is_quill_temp(".hidden.tmp".as_ref()));
    }
}
