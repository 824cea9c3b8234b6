//! `quill glob PATTERN [PATH]` (docs/commands/glob.md): list the files below PATH whose path relative to
//! PATH matches a globset pattern, walking in parallel with ripgrep's ignore rules, then sort
//! (newest first by default) and page. It never opens a file and never touches the state
//! directory; only the matches are stat'ed, and only for the mtime sort. With a limit, each
//! walker thread keeps only the best `offset + limit` matches (`best`), so memory follows the
//! page, not the tree; every match is still counted for `total`. `--limit 0` in text, sorted
//! by path or not at all, prints each match as it is found (`stream`) to the `Out` that `app`
//! handed the request.

mod best;

use std::fs;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use self::best::{Best, Run};
use crate::cli::{GlobArgs, SortKey};
use crate::error::{Error, Result};
use crate::output::search::GlobPrinter;
use crate::output::stream::{Out, Stream};
use crate::report::{AsTyped, GlobReport, Report};
use crate::search::glob_pattern::compile;
use crate::search::walk::{self, WalkOptions, WalkProblems};
use crate::search::why;
use crate::settings::Settings;
use crate::sys::{self, Dir};
use globset::{Candidate, GlobSet};
use ignore::{DirEntry, ParallelVisitor, ParallelVisitorBuilder, WalkState};

/// A checked `quill glob`: the compiled pattern and the directory below which it matches.
pub(crate) struct GlobRequest {
    matcher: GlobSet,
    /// The pattern as matched: relative to `base`.
    pattern: String,
    ignore_case: bool,
    /// The pattern's word on the command line, and the directory typed before the relative
    /// pattern (of an absolute one), for the calls of `why`.
    word: Option<(usize, Option<String>)>,
    base: PathBuf,
    walk: WalkOptions,
    sort: SortKey,
    limit: usize,
    offset: usize,
    max_walk: usize,
    null: bool,
    typed: AsTyped,
    /// Where a text answer of every match streams (none: the answer is held whole).
    out: Option<Out>,
}

impl GlobArgs {
    /// Compile the pattern, then resolve PATH (an existing, readable directory); `out` is where
    /// the answer may stream.
    pub(crate) fn resolve(self, s: &Settings, out: Option<Out>) -> Result<GlobRequest> {
        let mut args = self;
        if args.pattern.trim().is_empty() {
            return Err(Error::invalid_argument(
                "the glob pattern is empty: name the files to list, e.g. `quill glob '**/*.rs'`",
            ));
        }
        let argv = s.origin.argv.clone();
        let word = argv.iter().position(|w| w == "glob").and_then(|sub| {
            let after = argv.iter().skip(sub + 1).position(|w| *w == *args.pattern);
            after.map(|i| sub + 1 + i)
        });
        // An absolute pattern names its own directory: walk that, match the rest.
        let split = split_root(&args.pattern);
        if let Some((dir, rest)) = &split {
            if let Some(p) = &args.path {
                return Err(Error::invalid_argument(format!(
                    "the pattern {} names its own directory, and PATH {} is given too: drop PATH \
                     (`quill glob {}`) or make the pattern relative to PATH",
                    args.pattern,
                    p.display(),
                    crate::text::shell::shell_word(&args.pattern)
                )));
            }
            args.path = Some(PathBuf::from(dir));
            args.pattern = rest.clone();
        }
        let pattern = args.pattern.strip_prefix("./").unwrap_or(&args.pattern);
        let matcher = compile(pattern, args.ignore_case)?;
        let base = search_dir(s, args.path.as_deref().unwrap_or(Path::new(".")))?;
        // No PATH typed: files are shown relative to the current directory, without `./`.
        let typed = match &args.path {
            Some(p) => AsTyped::one(&base, p),
            None => AsTyped::default(),
        };
        Ok(GlobRequest {
            matcher,
            pattern: pattern.to_string(),
            ignore_case: args.ignore_case,
            word: word.map(|i| (i, split.map(|(dir, _)| dir))),
            base,
            walk: WalkOptions {
                hidden: args.hidden,
                no_ignore: args.no_ignore,
                follow: args.follow,
            },
            sort: args.sort,
            limit: s.limit(args.limit, args.all, 100),
            offset: args.offset,
            max_walk: args.max_walk,
            null: args.null,
            typed,
            out,
        })
    }
}

/// PATH resolved inside the root: it must exist, be a directory, and be readable.
fn search_dir(s: &Settings, path: &Path) -> Result<PathBuf> {
    let dir = crate::fs::paths::resolve(&s.cwd, s.root.as_ref(), path)?;
    if !dir.exists {
        return Err(crate::fs::paths::not_found(dir.requested));
    }
    let base = dir.target;
    if !base.is_dir() {
        return Err(Error::invalid_argument(format!(
            "{} is not a directory; glob searches below a directory",
            base.display()
        )));
    }
    // An unreadable PATH is an error; unreadable directories below it are only listed.
    fs::read_dir(&base).map_err(|e| Error::io("read the directory", &base, e))?;
    Ok(base)
}

pub(crate) fn run(s: &Settings, req: GlobRequest) -> Result<Report> {
    let problems = WalkProblems::default();
    // Text output of every match not sorted by time: printed as found, nothing kept.
    let streams = req.limit == 0
        && req.offset == 0
        && req.sort != SortKey::Mtime
        && s.output.format == crate::output::Format::Text;
    let streamed = match &req.out {
        Some(out) if streams => Some(stream(s, &req, out, &problems)),
        _ => None,
    };
    let Run {
        items: mut kept,
        seen: mut total,
    } = match streamed {
        None => find(s, &req, &req.matcher, &problems),
        Some(n) => Run {
            items: Vec::new(),
            seen: n,
        },
    };
    let streamed = streamed.is_some_and(|n| n > 0);
    let argv = s.origin.argv.clone();
    let line = why::Line {
        cwd: &s.cwd,
        argv: &argv,
    };
    let mut search = why::GlobSearch {
        pattern: &req.pattern,
        ignore_case: req.ignore_case,
        matcher: &req.matcher,
        found: &[],
        limit: req.limit,
        word: req.word.clone(),
    };
    let mut reason = None;
    // Nothing matched a `[...]` that names a real path (Next.js `app/[id]/page.tsx`): take
    // the brackets literally.
    if total == 0
        && let Some(escaped) = why::literal_brackets(&req.pattern, &req.base)
        && let Ok(m) = compile(&escaped, req.ignore_case)
    {
        let literal = find(s, &req, &m, &WalkProblems::default());
        if literal.seen > 0 {
            reason = Some(why::literal(&search, &escaped, literal.seen, &line));
            (kept, total) = (literal.items, literal.seen);
        }
    }
    // Fewer matches than a page: all of them were kept, for `why` to compare with.
    if reason.is_none() && (total == 0 || (req.limit > 0 && total < req.limit)) {
        let found: Vec<PathBuf> = kept.iter().map(|f| f.path.clone()).collect();
        search.found = &found;
        let walked = why::Walked {
            paths: std::slice::from_ref(&req.base),
            opts: req.walk,
            root: s.root.as_ref(),
            overrides: None,
            types: None,
        };
        reason = why::glob(&walked, &search, &line);
    }
    // `kept` is the first `min(total, offset + limit)` of the sorted matches: the page is in it.
    let (start, end, next_offset) = walk::page(total, req.offset, req.limit);
    let files: Vec<PathBuf> = match streamed {
        true => Vec::new(),
        false => kept.drain(start..end).map(|f| f.path).collect(),
    };
    Ok(Report::Glob(GlobReport {
        files,
        total,
        truncated: next_offset.is_some(),
        next_offset,
        offset: req.offset,
        walk: problems.finish(&s.warnings),
        why: reason,
        null: req.null,
        typed: req.typed,
        streamed,
    }))
}

/// Print every match as it is found and count them: in path order from a sorted walk
/// (`--sort path`), or as the parallel walk finds them (`--sort none`), each thread
/// printing its matches in batches. Memory does not grow with the answer. A closed pipe
/// stops the walk (the rest of the answer then fails to print, quietly, as a stored one).
fn stream(s: &Settings, req: &GlobRequest, out: &Out, problems: &WalkProblems) -> usize {
    let printer = GlobPrinter::new(&s.output, req.typed.clone(), req.null);
    let base = std::slice::from_ref(&req.base);
    let out = Stream::lines(out.clone());
    if req.sort == SortKey::Path {
        if walk::lists_in_parallel(&req.base, &req.walk, &walk::Select::default()) {
            return stream_walk(s, req, out, problems, &printer);
        }
        return stream_sorted(s, req, out, problems, &printer);
    }
    let out = Mutex::new(out);
    let total = std::sync::atomic::AtomicUsize::new(0);
    let broken = std::sync::atomic::AtomicBool::new(false);
    let mut visitors = Printers {
        req,
        printer: &printer,
        problems,
        out: &out,
        total: &total,
        broken: &broken,
    };
    walk::builder(base, &req.walk, s.root.as_ref())
        .build_parallel()
        .visit(&mut visitors);
    if let Ok(out) = out.into_inner() {
        let _ = out.finish();
    }
    total.into_inner()
}

/// `--sort path` where the sorted walk lists directories in parallel (`walk::parallel`): its
/// entries matched and printed as they come, in batches.
fn stream_walk(
    s: &Settings,
    req: &GlobRequest,
    mut out: Stream,
    problems: &WalkProblems,
    printer: &GlobPrinter,
) -> usize {
    let mut text = Vec::new();
    let mut total = 0;
    let base = std::slice::from_ref(&req.base);
    let all = walk::sorted(base, &req.walk, s.root.as_ref(), &walk::Select::default());
    for entry in all.take_while(|_| problems.visit(req.max_walk)) {
        match entry {
            Ok(e) if matches(&req.base, &req.matcher, e.path(), e.file_type()) => {
                total += 1;
                printer.line(&mut text, e.path());
                if text.len() >= BATCH {
                    if out.part(&text, true).is_err() {
                        break;
                    }
                    text.clear();
                }
            }
            Ok(_) => {}
            Err(err) => problems.record(&err),
        }
    }
    let _ = out.part(&text, true);
    let _ = out.finish();
    total
}

/// `--sort path` elsewhere (`--follow`, not Unix): the entries of the base in path order (ignore files and hidden names
/// honored), each directory's subtree walked in path order by a worker, and their output
/// passed on in that order (`ordered`): sorted, parallel across subtrees, and nothing kept
/// but what waits for its turn. A base with only a few directories (`src`, `packages`: one
/// of them often holds most of the tree) hands out those of the second level instead.
fn stream_sorted(
    s: &Settings,
    req: &GlobRequest,
    out: Stream,
    problems: &WalkProblems,
    printer: &GlobPrinter,
) -> usize {
    use crate::search::ordered::{Ahead, Window, ordered_map};
    let workers = std::thread::available_parallelism().map_or(2, |n| n.get().min(12));
    // The entries of one directory, its own entry left out (counted where it was listed).
    let level = |dir: &Path| {
        let one_level = walk::Select {
            max_depth: Some(1),
            ..walk::Select::default()
        };
        walk::sorted(&[dir.to_path_buf()], &req.walk, s.root.as_ref(), &one_level)
            .take_while(|_| problems.visit(req.max_walk))
            .filter_map(|entry| match entry {
                Ok(e) if e.depth() == 1 => Some(e),
                Ok(_) => None,
                Err(err) => {
                    problems.record(&err);
                    None
                }
            })
    };
    // One directory's listing, held: is it worth going a level deeper?
    let first: Vec<walk::Entry> = level(&req.base).collect();
    let dirs = first.iter().filter(|e| is_dir(e)).count();
    let deeper = dirs < FEW_DIRECTORIES_PER_WORKER * workers;
    // (entry, walk its subtree): a directory of the first level whose entries come next as
    // items of their own is listed only.
    let items = first.into_iter().flat_map(|e| {
        let below = (deeper && is_dir(&e)).then(|| level(e.path()).map(|c| (c, true)));
        let walk = below.is_none();
        std::iter::once((e, walk)).chain(below.into_iter().flatten())
    });
    let window = Window {
        files: 1024,
        queued: 16,
        bytes: 4 << 20,
    };
    // The workers share the root, not the settings (their session cache is not `Sync`).
    let root = s.root.as_ref();
    let work = |_: &mut (), (e, walk): (walk::Entry, bool), ahead: &mut Ahead<'_, Lines>| {
        let mut out = Printed::default();
        if !is_dir(&e) {
            if matches(&req.base, &req.matcher, e.path(), e.file_type()) {
                out.count += 1;
                printer.line(&mut out.text, e.path());
            }
            return out;
        }
        if !walk {
            // Its entries are items of their own.
            return out;
        }
        let below = walk::sorted(&[e.into_path()], &req.walk, root, &walk::Select::default());
        for entry in below.take_while(|_| problems.visit(req.max_walk)) {
            match entry {
                // The subtree's root was counted and listed by the walk of the base.
                Ok(e) if e.depth() == 0 => {}
                Ok(e) if matches(&req.base, &req.matcher, e.path(), e.file_type()) => {
                    out.count += 1;
                    printer.line(&mut out.text, e.path());
                    if out.text.len() >= BATCH {
                        ahead.part(std::mem::take(&mut out.text));
                    }
                }
                Ok(_) => {}
                Err(err) => problems.record(&err),
            }
        }
        out
    };
    let (lines, _) = ordered_map(
        items,
        workers,
        window,
        Lines { out, total: 0 },
        || (),
        work,
        |lines, p| {
            lines.total += p.count;
            lines.out.part(&p.text, true).is_ok()
        },
    );
    let _ = lines.out.finish();
    lines.total
}

/// Below this many directories per worker in the base, `stream_sorted` hands out the
/// second level's (each subtree walked on its own costs the probes of its parents' ignore
/// files: on the Rust docs tree, 317 of them made it 1.5x slower than its 40).
const FEW_DIRECTORIES_PER_WORKER: usize = 4;

fn is_dir(e: &walk::Entry) -> bool {
    e.is_dir()
}

/// What one entry of the base printed: its matches' lines (what did not go ahead), and how
/// many there were.
#[derive(Default)]
struct Printed {
    text: Vec<u8>,
    count: usize,
}

impl crate::search::ordered::Weigh for Printed {
    fn weight(&self) -> usize {
        self.text.capacity()
    }
}

/// `--sort path`'s output, and the matches printed.
struct Lines {
    out: Stream,
    total: usize,
}

impl crate::search::ordered::Output for Lines {
    fn part(&mut self, bytes: &[u8], _first: bool) -> bool {
        self.out.part(bytes, true).is_ok()
    }
}

/// Bytes of printed matches a thread gathers before it writes them out.
const BATCH: usize = 64 * 1024;

/// `--sort none`'s walker threads: each prints its matches, in batches.
struct Printers<'a> {
    req: &'a GlobRequest,
    printer: &'a GlobPrinter,
    problems: &'a WalkProblems,
    out: &'a Mutex<Stream>,
    total: &'a std::sync::atomic::AtomicUsize,
    broken: &'a std::sync::atomic::AtomicBool,
}

impl<'s> ParallelVisitorBuilder<'s> for Printers<'s> {
    fn build(&mut self) -> Box<dyn ParallelVisitor + 's> {
        Box::new(PrintVisitor {
            p: Printers { ..*self },
            buf: Vec::new(),
            count: 0,
        })
    }
}

struct PrintVisitor<'a> {
    p: Printers<'a>,
    buf: Vec<u8>,
    count: usize,
}

impl PrintVisitor<'_> {
    fn flush(&mut self) {
        use std::sync::atomic::Ordering::Relaxed;
        if self.buf.is_empty() {
            return;
        }
        let ok = match self.p.out.lock() {
            Ok(mut out) => out.part(&self.buf, true).is_ok(),
            Err(_) => false,
        };
        if !ok {
            self.p.broken.store(true, Relaxed);
        }
        self.buf.clear();
    }
}

impl ParallelVisitor for PrintVisitor<'_> {
    fn visit(&mut self, entry: std::result::Result<DirEntry, ignore::Error>) -> WalkState {
        if !self.p.problems.visit(self.p.req.max_walk)
            || self.p.broken.load(std::sync::atomic::Ordering::Relaxed)
        {
            return WalkState::Quit;
        }
        match entry {
            Ok(e)
                if matches(
                    &self.p.req.base,
                    &self.p.req.matcher,
                    e.path(),
                    e.file_type(),
                ) =>
            {
                self.count += 1;
                self.p.printer.line(&mut self.buf, e.path());
                if self.buf.len() >= BATCH {
                    self.flush();
                }
            }
            Ok(_) => {}
            Err(err) => self.p.problems.record(&err),
        }
        WalkState::Continue
    }
}

impl Drop for PrintVisitor<'_> {
    fn drop(&mut self) {
        self.flush();
        self.p
            .total
            .fetch_add(self.count, std::sync::atomic::Ordering::Relaxed);
    }
}

/// Whether a walked entry is a match: a file (not a directory, not quill's own temporary
/// file) whose path relative to `base` matches.
fn matches(
    base: &Path,
    matcher: &GlobSet,
    path: &Path,
    file_type: Option<std::fs::FileType>,
) -> bool {
    let name = path.file_name().unwrap_or_default();
    if file_type.is_none_or(|t| t.is_dir()) || walk::is_quill_temp(name) {
        return false;
    }
    // Entries are `base` joined with a relative path: cut the prefix as bytes (cheaper
    // than `Path::strip_prefix`, which compares component by component).
    let full = path.as_os_str().as_encoded_bytes();
    let skip = base.as_os_str().len() + usize::from(!base.ends_with("/"));
    let Some(rel) = full
        .get(skip..)
        .filter(|_| full.starts_with(base.as_os_str().as_encoded_bytes()))
    else {
        return false;
    };
    matcher.is_match_candidate(&Candidate::new(Path::new(&*crate::sys::os_str(rel))))
}

/// The first `offset + limit` matches of `matcher` below the request's base, sorted as asked
/// (with `--sort none`, the first found), and the count of all of them. `--limit 0` keeps
/// every match: that answer holds them all by definition.
fn find(s: &Settings, req: &GlobRequest, matcher: &GlobSet, problems: &WalkProblems) -> Run<Found> {
    let base = &req.base;
    let walker = walk::builder(std::slice::from_ref(base), &req.walk, s.root.as_ref());
    let keep = match req.limit {
        0 => usize::MAX,
        n => req.offset.saturating_add(n),
    };
    let found: Mutex<Vec<Run<Found>>> = Mutex::new(Vec::new());
    let mut visitors = Visitors {
        base,
        matcher,
        stat: req.sort == SortKey::Mtime,
        order: order(req.sort),
        keep,
        follow: req.walk.follow,
        max_walk: req.max_walk,
        problems,
        found: &found,
    };
    walker.build_parallel().visit(&mut visitors);
    // Each thread sorted its own run (in parallel); the merge keeps the best of them.
    best::merge(
        found.into_inner().unwrap_or_default(),
        keep,
        order(req.sort),
    )
}

/// An absolute pattern (or one that climbs with `../`) as a directory and a pattern relative
/// to it: its leading components without glob syntax are the directory (all but the last, for
/// a pattern without any).
fn split_root(pattern: &str) -> Option<(String, String)> {
    let parts: Vec<&str> = pattern.split('/').collect();
    // A drive or share prefix (`C:/src/**/*.rs` where there are such things).
    let prefix = Path::new(parts[0])
        .components()
        .next()
        .is_some_and(|c| matches!(c, std::path::Component::Prefix(_)));
    if !pattern.starts_with('/') && !pattern.starts_with("../") && !prefix {
        return None;
    }
    let special = |c: &&str| c.contains(['*', '?', '[', ']', '{', '}', '\\']);
    let mut n = parts.iter().take_while(|c| !special(c)).count();
    if n == parts.len() {
        n -= 1;
    }
    let dir = match parts[..n].join("/") {
        d if d.is_empty() => "/".to_string(),
        // `C:` alone is the drive's current directory; `C:/` its root.
        d if prefix && n == 1 => d + "/",
        d => d,
    };
    let rest = parts[n..].join("/");
    (!rest.is_empty()).then_some((dir, rest))
}

type Order = best::Order<Found>;

/// How to order the matches: newest first then by path, by path, or not at all.
fn order(key: SortKey) -> Option<Order> {
    match key {
        SortKey::Mtime => Some(|a, b| {
            b.mtime
                .cmp(&a.mtime)
                .then_with(|| walk::path_order(&a.path, &b.path))
        }),
        SortKey::Path => Some(|a, b| walk::path_order(&a.path, &b.path)),
        SortKey::None => None,
    }
}

struct Found {
    path: PathBuf,
    /// Modification time (seconds, nanoseconds); zero unless sorting by it.
    mtime: (i64, i64),
}

struct Visitors<'a> {
    base: &'a Path,
    matcher: &'a GlobSet,
    stat: bool,
    order: Option<Order>,
    /// How many matches each thread keeps: `offset + limit` (all, for `--limit 0`).
    keep: usize,
    follow: bool,
    max_walk: usize,
    problems: &'a WalkProblems,
    found: &'a Mutex<Vec<Run<Found>>>,
}

impl<'s> ParallelVisitorBuilder<'s> for Visitors<'s> {
    fn build(&mut self) -> Box<dyn ParallelVisitor + 's> {
        Box::new(Visitor {
            base: self.base,
            matcher: self.matcher,
            stat: self.stat,
            follow: self.follow,
            max_walk: self.max_walk,
            problems: self.problems,
            sink: self.found,
            found: Best::new(self.keep, self.order),
            dir: None,
        })
    }
}

struct Visitor<'a> {
    base: &'a Path,
    matcher: &'a GlobSet,
    stat: bool,
    follow: bool,
    max_walk: usize,
    problems: &'a WalkProblems,
    sink: &'a Mutex<Vec<Run<Found>>>,
    /// This thread's best matches so far, and the count of all it found.
    found: Best<Found>,
    /// The directory of the last stat'ed match, kept open: a thread mostly visits the
    /// entries of one directory in a row, and `fstatat` on a name is much cheaper than
    /// `stat` on a long path.
    dir: Option<(PathBuf, Dir)>,
}

impl Visitor<'_> {
    fn consider(&mut self, entry: DirEntry) {
        if !matches(self.base, self.matcher, entry.path(), entry.file_type()) {
            return;
        }
        let mtime = if self.stat {
            match self.mtime(entry.path()) {
                Some(t) => t,
                // Vanished or unreadable since the directory was listed: skip it.
                None => return,
            }
        } else {
            (0, 0)
        };
        self.found.push(Found {
            path: entry.into_path(),
            mtime,
        });
    }
}

impl Visitor<'_> {
    fn mtime(&mut self, path: &Path) -> Option<(i64, i64)> {
        let (parent, name) = (path.parent()?, path.file_name()?);
        if self.dir.as_ref().is_none_or(|(d, _)| d != parent) {
            self.dir = Dir::open_to_stat(parent)
                .ok()
                .map(|d| (parent.to_path_buf(), d));
        }
        let st = match &self.dir {
            Some((_, dir)) => dir.mtime(name, self.follow),
            None => sys::mtime(path, self.follow),
        };
        match st {
            Ok(t) => Some(t),
            Err(e) => {
                if e.kind() != io::ErrorKind::NotFound {
                    self.problems.unreadable_file(path);
                }
                None
            }
        }
    }
}

impl ParallelVisitor for Visitor<'_> {
    fn visit(&mut self, entry: std::result::Result<DirEntry, ignore::Error>) -> WalkState {
        if !self.problems.visit(self.max_walk) {
            return WalkState::Quit;
        }
        match entry {
            Ok(entry) => self.consider(entry),
            Err(err) => self.problems.record(&err),
        }
        WalkState::Continue
    }
}

impl Drop for Visitor<'_> {
    fn drop(&mut self) {
        let found = std::mem::replace(&mut self.found, Best::new(0, None));
        let run = found.finish();
        if let Ok(mut all) = self.sink.lock() {
            all.push(run);
        }
    }
}
