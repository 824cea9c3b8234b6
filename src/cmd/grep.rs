//! `quill grep PATTERN [PATH…]` (SPEC §3.6): search file contents in-process with ripgrep's
//! crates — grep-regex for the matcher, grep-searcher for line-oriented search with context
//! and binary detection, ignore's parallel walker with one `Searcher` per thread — then sort
//! by path and line and page. Memory stays bounded by the page: each thread keeps the text of
//! only the files that can still reach the first `offset + limit` entries (a per-thread top-k
//! by path), and counts everything else, so `total` is exact. It never touches the state
//! directory.

use std::collections::BinaryHeap;
use std::fs::{File, OpenOptions};
use std::io;
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

use grep_matcher::Matcher;
use grep_regex::{RegexMatcher, RegexMatcherBuilder};
use grep_searcher::{
    BinaryDetection, Searcher, SearcherBuilder, Sink, SinkContext, SinkContextKind, SinkMatch,
};
use ignore::overrides::OverrideBuilder;
use ignore::types::TypesBuilder;
use ignore::{DirEntry, ParallelVisitor, ParallelVisitorBuilder, WalkState};
use serde::{Serialize, Serializer};

use super::walk::{self, WalkOptions, WalkProblems, WalkSummary};
use crate::app::Context;
use crate::cli::{GrepArgs, GrepMode};
use crate::error::{Error, Result};
use crate::output::Report;
use crate::output::search::{file_block, file_heading, match_line};
use crate::output::text::Palette;
use crate::paths::display;

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct GrepReport {
    /// Entries in the whole result: matches (content), files (files, count), or known types.
    pub total: usize,
    #[serde(flatten)]
    pub body: GrepBody,
    #[serde(skip)]
    pub view: View,
}

#[derive(Debug, Serialize)]
#[serde(untagged)]
pub enum GrepBody {
    Search(Box<SearchResult>),
    Types { types: Vec<TypeDef> },
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SearchResult {
    pub mode: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub matches: Option<Vec<GrepMatch>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub files: Option<Vec<PathBuf>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub counts: Option<Vec<FileCount>>,
    /// Text output of a whole result (`--limit 0`, no offset): each file's printed bytes,
    /// rendered by the worker threads, in path order. Not part of the JSON.
    #[serde(skip)]
    pub rendered: Option<Vec<Box<[u8]>>>,
    pub truncated: bool,
    pub next_offset: Option<usize>,
    pub offset: usize,
    pub files_searched: usize,
    pub skipped_binary: usize,
    #[serde(flatten)]
    pub walk: WalkSummary,
}

/// One matching line (or, with `-U`, one match spanning `line..=endLine`).
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct GrepMatch {
    #[serde(serialize_with = "ser_path")]
    pub path: Arc<Path>,
    pub line: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub end_line: Option<u64>,
    /// 1-based byte column of the first match in the line.
    pub column: usize,
    pub text: Text,
    pub before: Vec<ContextLine>,
    pub after: Vec<ContextLine>,
    /// Byte spans of the matches in `text`, for coloring (text output only).
    #[serde(skip)]
    pub spans: Vec<(usize, usize)>,
}

#[derive(Debug, Serialize)]
pub struct ContextLine {
    pub line: u64,
    pub text: Text,
}

/// A line's display text: a slice of its file's shared text arena, so a page of many
/// matches is not copied line by line.
#[derive(Debug, Clone)]
pub struct Text {
    arena: Arc<str>,
    start: usize,
    end: usize,
}

impl std::ops::Deref for Text {
    type Target = str;
    fn deref(&self) -> &str {
        &self.arena[self.start..self.end]
    }
}

impl Serialize for Text {
    fn serialize<S: Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        s.serialize_str(self)
    }
}

#[derive(Debug, Serialize)]
pub struct FileCount {
    pub path: PathBuf,
    pub count: u64,
}

#[derive(Debug, Serialize)]
pub struct TypeDef {
    pub name: String,
    pub globs: Vec<String>,
}

/// How text output is laid out; not part of the JSON.
#[derive(Debug, Default, Clone, Copy)]
pub struct View {
    pub heading: bool,
    pub line_numbers: bool,
    pub context: bool,
    /// `-0`: a NUL after each path instead of `:` or a newline.
    pub null: bool,
}

fn ser_path<S: Serializer>(p: &Arc<Path>, s: S) -> std::result::Result<S::Ok, S::Error> {
    p.serialize(s)
}

pub fn run(ctx: &Context, args: &GrepArgs) -> Result<Report> {
    if args.type_list {
        return Ok(type_list());
    }
    let pattern = args.pattern.as_deref().unwrap_or_default();
    let matcher = build_matcher(pattern, args)?;
    let targets = resolve_paths(ctx, &args.paths)?;
    let before = args.before_context.or(args.context).unwrap_or(0);
    let after = args.after_context.or(args.context).unwrap_or(0);
    let content = args.mode == GrepMode::Content;

    let opts = WalkOptions {
        hidden: args.hidden,
        no_ignore: args.no_ignore,
        follow: args.follow,
    };
    let mut walker = walk::builder(&targets, &opts, ctx.root.as_ref());
    if !args.globs.is_empty() {
        let mut ob = OverrideBuilder::new(&ctx.cwd);
        for g in &args.globs {
            ob.add(g).map_err(|e| Error::InvalidPattern {
                message: format!("--glob {g}: {e}"),
                position: None,
            })?;
        }
        walker.overrides(ob.build().map_err(|e| Error::InvalidPattern {
            message: e.to_string(),
            position: None,
        })?);
    }
    if !args.types.is_empty() || !args.types_not.is_empty() {
        let mut tb = TypesBuilder::new();
        tb.add_defaults();
        for t in &args.types {
            tb.select(t);
        }
        for t in &args.types_not {
            tb.negate(t);
        }
        walker.types(tb.build().map_err(|e| {
            Error::invalid_argument(format!("{e}; `quill grep --type-list` shows the types"))
        })?);
    }

    let mut sb = SearcherBuilder::new();
    sb.line_number(true)
        .multi_line(args.multiline)
        .binary_detection(BinaryDetection::quit(b'\0'));
    if content {
        sb.before_context(before).after_context(after);
    }
    // Entries past offset + limit never reach the page, so their text need not be kept.
    let need = if args.limit == 0 {
        usize::MAX
    } else {
        args.offset.saturating_add(args.limit)
    };
    let heading = args.heading
        || (!args.no_heading && {
            use std::io::IsTerminal;
            io::stdout().is_terminal()
        });
    let view = View {
        heading,
        line_numbers: !args.no_line_number,
        context: content && (before > 0 || after > 0),
        null: args.null,
    };
    // Text output of everything: the worker threads render each file's bytes while they
    // search (in parallel, and without holding the lines twice); only the files' order is
    // left for the end. A page that may start or end inside a file keeps the lines instead.
    let render = (content
        && ctx.format == crate::output::Format::Text
        && args.limit == 0
        && args.offset == 0)
        .then(|| Render {
            view,
            color: ctx.color,
            cwd: ctx.cwd.clone(),
            direct: !args.multiline && before == 0 && after == 0,
        });
    let prerendered = render.is_some();
    let shared = Shared {
        matcher,
        searcher: sb,
        mode: args.mode,
        need,
        before,
        after,
        render,
        multiline: args.multiline,
        max_columns: args.max_columns,
        want_column: ctx.format == crate::output::Format::Json,
        follow: args.follow,
        max_walk: args.max_walk,
        problems: WalkProblems::default(),
        files_searched: AtomicUsize::new(0),
        skipped_binary: AtomicUsize::new(0),
        results: Mutex::new(Vec::new()),
    };
    walker
        .build_parallel()
        .visit(&mut Visitors { shared: &shared });

    let mut files: Vec<FileResult> = shared
        .results
        .into_inner()
        .unwrap_or_default()
        .into_iter()
        .flatten()
        .collect();
    files.sort_by(|a, b| walk::path_order(&a.path, &b.path));
    files.dedup_by(|a, b| a.path == b.path);

    let total = match args.mode {
        GrepMode::Content => files.iter().map(|f| f.count as usize).sum(),
        _ => files.len(),
    };
    let (start, end, next_offset) = walk::page(total, args.offset, args.limit);
    let mut result = SearchResult {
        mode: match args.mode {
            GrepMode::Content => "content",
            GrepMode::Files => "files",
            GrepMode::Count => "count",
        },
        matches: None,
        files: None,
        counts: None,
        rendered: None,
        truncated: next_offset.is_some(),
        next_offset,
        offset: args.offset,
        files_searched: shared.files_searched.into_inner(),
        skipped_binary: shared.skipped_binary.into_inner(),
        walk: shared.problems.finish(ctx),
    };
    match args.mode {
        GrepMode::Files => {
            result.files = Some(files.drain(start..end).map(|f| f.path).collect());
        }
        GrepMode::Count => {
            result.counts = Some(
                files
                    .drain(start..end)
                    .map(|f| FileCount {
                        path: f.path,
                        count: f.count,
                    })
                    .collect(),
            );
        }
        GrepMode::Content if prerendered => {
            result.rendered = Some(files.into_iter().filter_map(|f| f.rendered).collect());
        }
        GrepMode::Content => {
            let shape = Shape {
                matcher: &shared.matcher,
                before: before as u64,
                after: after as u64,
                spans: ctx.color,
            };
            result.matches = Some(content_page(files, start, end, &shape));
        }
    }
    Ok(Report::Grep(GrepReport {
        total,
        body: GrepBody::Search(Box::new(result)),
        view,
    }))
}

fn type_list() -> Report {
    let mut tb = TypesBuilder::new();
    tb.add_defaults();
    let types: Vec<TypeDef> = tb
        .definitions()
        .into_iter()
        .map(|d| TypeDef {
            name: d.name().to_string(),
            globs: d.globs().to_vec(),
        })
        .collect();
    Report::Grep(GrepReport {
        total: types.len(),
        body: GrepBody::Types { types },
        view: View::default(),
    })
}

/// The regex matcher, configured like rg's; a bad pattern names its position.
pub fn build_matcher(pattern: &str, args: &GrepArgs) -> Result<RegexMatcher> {
    let mut b = RegexMatcherBuilder::new();
    b.case_insensitive(args.ignore_case)
        .case_smart(args.smart_case && !args.ignore_case)
        .word(args.word_regexp)
        .fixed_strings(args.fixed_strings)
        .multi_line(true)
        .unicode(true)
        .octal(false);
    if !args.multiline {
        b.line_terminator(Some(b'\n'));
    }
    b.build(pattern).map_err(|e| {
        let position = if args.fixed_strings {
            None
        } else {
            pattern_error_position(pattern)
        };
        let message = match position {
            Some(p) => format!("{} (at character {p} of the pattern)", first_line(&e)),
            None => first_line(&e),
        };
        Error::InvalidPattern { message, position }
    })
}

/// The 1-based character position of a syntax error in `pattern`, when the parser names one.
fn pattern_error_position(pattern: &str) -> Option<usize> {
    let offset = match regex_syntax::Parser::new().parse(pattern) {
        Err(regex_syntax::Error::Parse(e)) => e.span().start.offset,
        Err(regex_syntax::Error::Translate(e)) => e.span().start.offset,
        _ => return None,
    };
    Some(pattern.get(..offset).map_or(offset, |s| s.chars().count()) + 1)
}

/// The regex crate's messages draw the pattern with a caret over several lines; keep the
/// sentence that says what is wrong.
fn first_line(e: &grep_regex::Error) -> String {
    let s = e.to_string();
    s.lines()
        .map(str::trim)
        .rfind(|l| l.starts_with("error:"))
        .map(|l| l.trim_start_matches("error:").trim().to_string())
        .unwrap_or_else(|| s.lines().next().unwrap_or("").trim().to_string())
}

/// Resolve PATH arguments (default `.`) inside the root. With several paths, a missing one is
/// a warning and an unreadable directory is listed like any other; when nothing is left to
/// search (or only one path was given), its error.
fn resolve_paths(ctx: &Context, paths: &[PathBuf]) -> Result<Vec<PathBuf>> {
    let default = [PathBuf::from(".")];
    let paths = if paths.is_empty() {
        &default[..]
    } else {
        paths
    };
    let several = paths.len() > 1;
    let mut out = Vec::new();
    let mut first_err = None;
    for p in paths {
        let r = crate::paths::resolve(&ctx.cwd, ctx.root.as_ref(), p)?;
        if !r.exists {
            let e = Error::NotFound {
                similar: crate::paths::similar_names(&r.requested),
                path: r.requested,
            };
            if several {
                ctx.warn(e.to_string());
            }
            first_err.get_or_insert(e);
            continue;
        }
        if !several && r.target.is_dir() {
            std::fs::read_dir(&r.target)
                .map_err(|e| Error::io("read the directory", &r.target, e))?;
        }
        out.push(r.target);
    }
    match first_err {
        Some(e) if out.is_empty() => Err(e),
        _ => Ok(out),
    }
}

/// What every walker thread shares.
struct Shared {
    matcher: RegexMatcher,
    searcher: SearcherBuilder,
    mode: GrepMode,
    need: usize,
    before: usize,
    after: usize,
    /// Set when the worker threads render the text output.
    render: Option<Render>,
    multiline: bool,
    max_columns: usize,
    want_column: bool,
    follow: bool,
    max_walk: usize,
    problems: WalkProblems,
    files_searched: AtomicUsize,
    skipped_binary: AtomicUsize,
    results: Mutex<Vec<Vec<FileResult>>>,
}

/// How the worker threads render text output.
struct Render {
    view: View,
    color: bool,
    cwd: PathBuf,
    /// One line per match and nothing else (no context, no `-U`): the collector renders each
    /// line as it is found instead of storing it.
    direct: bool,
}

/// A file with at least one match.
struct FileResult {
    path: PathBuf,
    /// Matching lines (content, count) — or 1 (files mode, which stops at the first).
    count: u64,
    /// Content mode: the stored lines, unless evicted because they cannot reach the page.
    lines: Option<Box<FileLines>>,
    /// Text output rendered by the worker thread (see `Render`), instead of `lines`.
    rendered: Option<Box<[u8]>>,
}

/// One file's stored match and context lines, in line order, their display text in one
/// arena (decoded and cut by the worker threads, in parallel).
struct FileLines {
    arena: Arc<str>,
    recs: Vec<LineRec>,
}

/// The collector's growing buffers for the file being searched.
#[derive(Default)]
struct LineBuffers {
    arena: String,
    recs: Vec<LineRec>,
}

#[derive(Clone)]
struct LineRec {
    line: u64,
    end_line: u64,
    /// The display text in the arena: the line without its terminator, lossily decoded,
    /// cut after `max_columns` bytes with a marker.
    start: usize,
    end: usize,
    /// Bytes of the text before the marker (match spans beyond it are not shown).
    shown: usize,
    /// The 1-based byte column of the first match (JSON only, else 0).
    column: usize,
    /// A match that is an entry of the result (the first `need` matches of the file).
    entry: bool,
}

struct Visitors<'a> {
    shared: &'a Shared,
}

impl<'s> ParallelVisitorBuilder<'s> for Visitors<'s> {
    fn build(&mut self) -> Box<dyn ParallelVisitor + 's> {
        Box::new(Worker {
            shared: self.shared,
            searcher: self.shared.searcher.build(),
            matcher: self.shared.matcher.clone(),
            sink: Collector {
                direct: self.shared.render.as_ref().filter(|r| r.direct).map(|r| {
                    Box::new(DirectRender {
                        view: r.view,
                        palette: Palette::new(r.color),
                        cwd: r.cwd.clone(),
                        matcher: r.color.then(|| self.shared.matcher.clone()),
                        file: PathBuf::new(),
                        shown: None,
                        out: Vec::new(),
                        text: String::new(),
                    })
                }),
                ..Collector::default()
            },
            files: Vec::new(),
            heap: BinaryHeap::new(),
            stored: 0,
        })
    }
}

/// One walker thread: its own searcher, matcher and results.
struct Worker<'a> {
    shared: &'a Shared,
    searcher: Searcher,
    matcher: RegexMatcher,
    sink: Collector,
    files: Vec<FileResult>,
    /// Files whose lines are stored, largest path on top, for eviction.
    heap: BinaryHeap<HeapItem>,
    /// Entries stored over all those files.
    stored: usize,
}

struct HeapItem {
    path: PathBuf,
    index: usize,
    entries: usize,
}

impl PartialEq for HeapItem {
    fn eq(&self, other: &Self) -> bool {
        self.path == other.path
    }
}
impl Eq for HeapItem {}
impl PartialOrd for HeapItem {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for HeapItem {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        walk::path_order(&self.path, &other.path)
    }
}

impl Worker<'_> {
    fn search(&mut self, entry: DirEntry) {
        let explicit = entry.depth() == 0;
        let is_file = entry.file_type().is_some_and(|t| t.is_file());
        if !is_file || (!explicit && walk::is_quill_temp(entry.file_name())) {
            if explicit && !entry.file_type().is_some_and(|t| t.is_dir()) {
                self.shared.problems.unreadable_file(entry.path());
            }
            return;
        }
        let file = match open(entry.path(), self.shared.follow || explicit) {
            Ok(f) => f,
            Err(_) => {
                self.shared.problems.unreadable_file(entry.path());
                return;
            }
        };
        self.shared.files_searched.fetch_add(1, Ordering::Relaxed);
        self.sink.reset(self.shared);
        if let Some(d) = &mut self.sink.direct {
            d.file.clear();
            d.file.push(entry.path());
        }
        let result = self
            .searcher
            .search_file(&self.matcher, &file, &mut self.sink);
        if result.is_err() {
            self.shared.problems.unreadable_file(entry.path());
        }
        if self.sink.binary {
            self.shared.skipped_binary.fetch_add(1, Ordering::Relaxed);
        }
        if self.sink.count == 0 {
            return;
        }
        let rendered = self
            .shared
            .render
            .as_ref()
            .map(|r| self.render(r, entry.path()));
        let lines = (self.shared.mode == GrepMode::Content && rendered.is_none()).then(|| {
            // Exact-size copies; the collector keeps its grown buffers for the next file.
            Box::new(FileLines {
                arena: self.sink.lines.arena.as_str().into(),
                recs: self.sink.lines.recs.clone(),
            })
        });
        let entries = self.sink.stored_entries;
        let index = self.files.len();
        let path = entry.into_path();
        if lines.is_some() && self.shared.need != usize::MAX {
            self.heap.push(HeapItem {
                path: path.clone(),
                index,
                entries,
            });
            self.stored += entries;
        }
        self.files.push(FileResult {
            path,
            count: self.sink.count,
            lines,
            rendered,
        });
        self.evict();
    }

    /// The text output of the file just searched: what `output::search` prints for it.
    fn render(&self, r: &Render, path: &Path) -> Box<[u8]> {
        if let Some(d) = &self.sink.direct {
            return d.out.as_slice().into();
        }
        let lines = FileLines {
            arena: self.sink.lines.arena.as_str().into(),
            recs: self.sink.lines.recs.clone(),
        };
        let shape = Shape {
            matcher: &self.matcher,
            before: self.shared.before as u64,
            after: self.shared.after as u64,
            spans: r.color,
        };
        let path: Arc<Path> = Arc::from(path);
        let mut entries = Vec::new();
        file_entries(&path, &lines, 0..usize::MAX, &shape, &mut entries);
        let mut out = Vec::new();
        let shown = display(&r.cwd, &path);
        let palette = Palette::new(r.color);
        // Writing to a Vec cannot fail.
        let _ = file_block(&mut out, &shown, &entries, &r.view, &palette);
        out.into_boxed_slice()
    }

    /// Drop the stored lines of the files with the largest paths while the others alone
    /// already hold `need` entries: those files cannot reach the page.
    fn evict(&mut self) {
        while let Some(top) = self.heap.peek() {
            if self.stored - top.entries < self.shared.need {
                break;
            }
            let top = self.heap.pop().expect("peeked");
            self.stored -= top.entries;
            self.files[top.index].lines = None;
        }
    }
}

/// Open for reading without blocking on a FIFO swapped in after the walk listed a file, and,
/// unless links are followed, without following one.
fn open(path: &Path, follow: bool) -> io::Result<File> {
    let mut flags = rustix::fs::OFlags::NONBLOCK;
    if !follow {
        flags |= rustix::fs::OFlags::NOFOLLOW;
    }
    OpenOptions::new()
        .read(true)
        .custom_flags(flags.bits() as i32)
        .open(path)
}

impl ParallelVisitor for Worker<'_> {
    fn visit(&mut self, entry: std::result::Result<DirEntry, ignore::Error>) -> WalkState {
        if !self.shared.problems.visit(self.shared.max_walk) {
            return WalkState::Quit;
        }
        match entry {
            Ok(entry) => self.search(entry),
            Err(err) => self.shared.problems.record(&err),
        }
        WalkState::Continue
    }
}

impl Drop for Worker<'_> {
    fn drop(&mut self) {
        // Sort this thread's run here, in parallel; the final stable sort merges the runs.
        self.files
            .sort_unstable_by(|a, b| walk::path_order(&a.path, &b.path));
        if let Ok(mut all) = self.shared.results.lock() {
            all.push(std::mem::take(&mut self.files));
        }
    }
}

/// The searcher's sink for one file at a time.
#[derive(Default)]
struct Collector {
    mode: Option<GrepMode>,
    need: usize,
    after: u64,
    count: u64,
    stored_entries: usize,
    /// Keep lines up to here (the after-context of the last stored entry).
    keep_until: u64,
    binary: bool,
    lines: LineBuffers,
    multiline: bool,
    max_columns: usize,
    /// Set when JSON needs `column` for lines stored only in part.
    column_matcher: Option<RegexMatcher>,
    /// Set when matches are rendered as they are found (see `Render::direct`).
    direct: Option<Box<DirectRender>>,
}

/// A collector's renderer of match lines, for `Render::direct`.
struct DirectRender {
    view: View,
    palette: Palette,
    cwd: PathBuf,
    /// For the match spans of colored output.
    matcher: Option<RegexMatcher>,
    /// The file being searched, and how it is shown (computed at its first match).
    file: PathBuf,
    shown: Option<String>,
    /// The file's output so far.
    out: Vec<u8>,
    /// The line being rendered.
    text: String,
}

impl DirectRender {
    /// Append one match line: the heading first (with `--heading`), then `path:line:text`,
    /// as `output::search::file_block` prints it.
    fn line(&mut self, line: u64, body: &[u8], max_columns: usize) {
        let shown_path = self
            .shown
            .get_or_insert_with(|| display(&self.cwd, &self.file));
        // Writing to a Vec cannot fail.
        if self.out.is_empty() && self.view.heading {
            let _ = file_heading(&mut self.out, shown_path, &self.palette);
        }
        self.text.clear();
        let shown = push_display(&mut self.text, body, max_columns);
        let spans = match &self.matcher {
            Some(m) => match_spans(m, &self.text, shown),
            None => Vec::new(),
        };
        let _ = match_line(
            &mut self.out,
            shown_path,
            line,
            &self.text,
            &spans,
            &self.view,
            &self.palette,
        );
    }
}

impl Collector {
    fn reset(&mut self, shared: &Shared) {
        self.mode = Some(shared.mode);
        self.multiline = shared.multiline;
        self.max_columns = shared.max_columns;
        if shared.want_column && self.column_matcher.is_none() {
            self.column_matcher = Some(shared.matcher.clone());
        }
        self.need = shared.need;
        self.after = shared.after as u64;
        self.count = 0;
        self.stored_entries = 0;
        self.keep_until = 0;
        self.binary = false;
        self.lines.arena.clear();
        self.lines.recs.clear();
        if let Some(d) = &mut self.direct {
            d.shown = None;
            d.out.clear();
        }
    }

    fn store(&mut self, line: u64, bytes: &[u8], entry: bool) {
        let mut body = bytes.strip_suffix(b"\n").unwrap_or(bytes);
        body = body.strip_suffix(b"\r").unwrap_or(body);
        if let Some(d) = &mut self.direct {
            d.line(line, body, self.max_columns);
            return;
        }
        let extra = if self.multiline {
            memchr::memchr_iter(b'\n', body).count() as u64
        } else {
            0
        };
        let column = match &self.column_matcher {
            Some(m) if entry => first_column(m, body),
            _ => 0,
        };
        let start = self.lines.arena.len();
        let shown = push_display(&mut self.lines.arena, body, self.max_columns);
        self.lines.recs.push(LineRec {
            line,
            end_line: line + extra,
            start,
            end: self.lines.arena.len(),
            shown,
            column,
            entry,
        });
    }
}

impl Sink for Collector {
    type Error = io::Error;

    fn matched(&mut self, _: &Searcher, m: &SinkMatch<'_>) -> std::result::Result<bool, io::Error> {
        self.count += 1;
        match self.mode {
            Some(GrepMode::Files) => Ok(false),
            Some(GrepMode::Count) | None => Ok(true),
            Some(GrepMode::Content) => {
                let line = m.line_number().unwrap_or(0);
                if self.stored_entries < self.need {
                    self.store(line, m.bytes(), true);
                    self.stored_entries += 1;
                    let last = self.lines.recs.last().map_or(line, |r| r.end_line);
                    self.keep_until = last + self.after;
                } else if line <= self.keep_until {
                    self.store(line, m.bytes(), false);
                }
                Ok(true)
            }
        }
    }

    fn context(
        &mut self,
        _: &Searcher,
        c: &SinkContext<'_>,
    ) -> std::result::Result<bool, io::Error> {
        let line = c.line_number().unwrap_or(0);
        let wanted = match c.kind() {
            SinkContextKind::After => line <= self.keep_until,
            _ => self.stored_entries < self.need,
        };
        if wanted {
            self.store(line, c.bytes(), false);
        }
        Ok(true)
    }

    fn binary_data(&mut self, _: &Searcher, _: u64) -> std::result::Result<bool, io::Error> {
        self.binary = true;
        Ok(false)
    }
}

/// How page entries are shaped.
struct Shape<'a> {
    matcher: &'a RegexMatcher,
    before: u64,
    after: u64,
    /// Compute match spans (colored text).
    spans: bool,
}

/// Entries `[start, end)` of the sorted result, built from the stored lines.
/// Each file's stored lines are dropped as soon as its entries are built, so the text is
/// not held twice.
fn content_page(files: Vec<FileResult>, start: usize, end: usize, shape: &Shape) -> Vec<GrepMatch> {
    let mut out = Vec::with_capacity(end - start);
    let mut first = 0usize;
    for f in files {
        let count = f.count as usize;
        let (lo, hi) = (start.max(first), end.min(first + count));
        if lo < hi
            && let Some(lines) = &f.lines
        {
            let path: Arc<Path> = Arc::from(f.path.as_path());
            let wanted = (lo - first)..(hi - first);
            file_entries(&path, lines, wanted, shape, &mut out);
        }
        first += count;
        if first >= end {
            break;
        }
    }
    out
}

fn file_entries(
    path: &Arc<Path>,
    lines: &FileLines,
    wanted: std::ops::Range<usize>,
    shape: &Shape,
    out: &mut Vec<GrepMatch>,
) {
    let recs = &lines.recs;
    let text = |r: &LineRec| Text {
        arena: Arc::clone(&lines.arena),
        start: r.start,
        end: r.end,
    };
    let mut k = 0usize;
    for (i, r) in recs.iter().enumerate() {
        if !r.entry {
            continue;
        }
        let this = k;
        k += 1;
        if this < wanted.start {
            continue;
        }
        if this >= wanted.end {
            break;
        }
        let mut before = Vec::new();
        let mut j = i;
        while shape.before > 0 && j > 0 && recs[j - 1].line + shape.before >= r.line {
            j -= 1;
        }
        for c in &recs[j..i] {
            if c.end_line < r.line {
                before.push(ContextLine {
                    line: c.line,
                    text: text(c),
                });
            }
        }
        let mut after = Vec::new();
        if shape.after > 0 {
            for c in &recs[i + 1..] {
                if c.line > r.end_line + shape.after {
                    break;
                }
                after.push(ContextLine {
                    line: c.line,
                    text: text(c),
                });
            }
        }
        let shown = text(r);
        let spans = if shape.spans {
            match_spans(shape.matcher, &shown, r.shown)
        } else {
            Vec::new()
        };
        out.push(GrepMatch {
            path: Arc::clone(path),
            line: r.line,
            end_line: (r.end_line > r.line).then_some(r.end_line),
            column: r.column,
            text: shown,
            before,
            after,
            spans,
        });
    }
}

/// Byte spans of the matches in a displayed line, for coloring: those that start in its
/// first `shown` bytes (before a cut marker), clipped there.
fn match_spans(matcher: &RegexMatcher, text: &str, shown: usize) -> Vec<(usize, usize)> {
    let mut spans = Vec::new();
    let _ = matcher.find_iter(text.as_bytes(), |m| {
        if m.start() < shown && m.end() > m.start() {
            spans.push((m.start(), m.end().min(shown)));
        }
        true
    });
    spans
}

fn first_column(matcher: &RegexMatcher, line: &[u8]) -> usize {
    matcher
        .find(line)
        .ok()
        .flatten()
        .map_or(1, |m| m.start() + 1)
}

/// Append the line (without terminator) for display: lossily decoded, cut after
/// `max_columns` bytes (0 = no cap) on a character boundary with a marker saying how much
/// was left out. Returns the length of the text before the marker.
fn push_display(out: &mut String, body: &[u8], max_columns: usize) -> usize {
    let before = out.len();
    let mut cut = body.len();
    if max_columns > 0 && body.len() > max_columns {
        cut = max_columns;
        // Back up to a UTF-8 boundary (a continuation byte is 0b10xx_xxxx).
        while cut > 0 && (body[cut] & 0xC0) == 0x80 {
            cut -= 1;
        }
    }
    match std::str::from_utf8(&body[..cut]) {
        Ok(t) => out.push_str(t),
        Err(_) => out.push_str(&String::from_utf8_lossy(&body[..cut])),
    }
    let shown = out.len() - before;
    if cut < body.len() {
        use std::fmt::Write as _;
        let _ = write!(out, " […{} more bytes]", body.len() - cut);
    }
    shown
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cut_on_char_boundary_with_marker() {
        let show = |b: &[u8], max| {
            let mut s = String::new();
            let n = push_display(&mut s, b, max);
            (s, n)
        };
        assert_eq!(
            show("aé b".as_bytes(), 2),
            ("a […4 more bytes]".to_string(), 1)
        );
        assert_eq!(show(b"abc", 500), ("abc".to_string(), 3));
        assert_eq!(show(b"abcd", 0), ("abcd".to_string(), 4));
        assert_eq!(show(b"a\xffb", 0), ("a\u{fffd}b".to_string(), 5));
    }

    #[test]
    fn error_positions_are_one_based_chars() {
        assert_eq!(pattern_error_position("ab(c"), Some(3));
        assert_eq!(pattern_error_position("é[z"), Some(2));
        assert_eq!(pattern_error_position("ok"), None);
    }
}
