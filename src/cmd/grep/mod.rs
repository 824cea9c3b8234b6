//! `quill grep PATTERN [PATH…]` (docs/commands/grep.md): search file contents in-process with ripgrep's
//! crates — grep-regex for the matcher, grep-searcher for line-oriented search with context
//! and binary detection, ignore's walker in path order handing files to a pool of worker
//! threads with one `Searcher` each (`ordered`, `worker`, `sink`) — and takes their results
//! back in path order (`gather`): into a page (`entries`), or, for the whole answer, straight
//! to the `Out` that `app` handed the request as each file's turn comes (`output::stream`), so
//! memory is bounded by the files in flight, not by the answer. `GrepArgs::resolve` compiles
//! the matcher (`pattern`), globs and types, resolves the paths and builds the searcher the
//! workers share before anything is searched. It never touches the state directory.

mod entries;
mod gather;
mod lines;
mod pattern;
mod sink;
mod stdin;
mod worker;

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use grep_regex::RegexMatcher;
use grep_searcher::{BinaryDetection, SearcherBuilder};
use ignore::overrides::{Override, OverrideBuilder};
use ignore::types::{Types, TypesBuilder};

use crate::cli::{GrepArgs, GrepMode};
use crate::error::{Error, Result};
use crate::output::Format;
use crate::output::search::GrepPrinter;
use crate::output::stream::{Out, Stream};
use crate::report::search::{FileCount, GrepBody, GrepReport, SearchResult, TypeDef, View, Why};
use crate::report::{AsTyped, Report, TypedRoot};
use crate::search::walk::{self, WalkOptions, WalkProblems};
use crate::search::why::Reading;
use crate::settings::Settings;
use crate::warnings::WarningKind;

use crate::search::ordered::{self, Window};
use entries::{Shape, content_page};
use gather::{Gather, Target};
use pattern::{build_matcher, foreign_flags, readings};
use worker::{Item, Worker};

/// How every file is searched and rendered — the matcher, the searcher's settings, the
/// printer and the collector's — built once by `GrepArgs::resolve`, as ripgrep's `HiArgs`
/// builds its searcher and printer, and shared by the worker threads; and what they count
/// while they search (zero until then).
struct Shared {
    pub matcher: RegexMatcher,
    pub searcher: SearcherBuilder,
    pub mode: GrepMode,
    /// `-o`: one entry per match, its text the matched part.
    pub only_matching: bool,
    /// Entries a file's stored lines need hold: `offset + limit` of a page.
    pub need: usize,
    pub before: usize,
    pub after: usize,
    /// How the workers render each file when the whole answer streams.
    pub render: Render,
    /// With `Render::Text`: one line per match and nothing else (no context, no `-U`), so
    /// the collector prints each line as it is found instead of storing it.
    pub direct: bool,
    /// Compute match spans (colored text output).
    pub spans: bool,
    pub multiline: bool,
    pub max_columns: usize,
    /// JSON wants each match's column.
    pub want_column: bool,
    pub follow: bool,
    /// The working directory: a file below it is opened by its path from there (fewer
    /// components for the kernel to look up than from `/`).
    pub cwd: PathBuf,
    pub problems: WalkProblems,
    pub files_searched: AtomicUsize,
    pub skipped_binary: AtomicUsize,
    /// The page holds all it needs: later files are only counted.
    pub page_full: AtomicBool,
}

impl Shared {
    /// The searcher of `args` (its mode decided) for pages of `limit` entries (0: the whole
    /// answer), rendering as `render` says.
    fn new(
        args: &GrepArgs,
        s: &Settings,
        matcher: RegexMatcher,
        render: Render,
        limit: usize,
    ) -> Shared {
        let (before, after) = context(args);
        let content = args.mode == GrepMode::Content;
        let mut searcher = SearcherBuilder::new();
        searcher
            .line_number(true)
            .multi_line(args.multiline)
            .invert_match(args.invert_match)
            .max_matches(args.max_count)
            .binary_detection(BinaryDetection::quit(b'\0'));
        if content {
            searcher.before_context(before).after_context(after);
        }
        // Entries past offset + limit never reach the page, so their text need not be kept.
        let need = match limit {
            0 => usize::MAX,
            _ => args.offset.saturating_add(limit),
        };
        Shared {
            matcher,
            searcher,
            mode: args.mode,
            only_matching: args.only_matching,
            need,
            before,
            after,
            direct: matches!(render, Render::Text(_))
                && content
                && !args.multiline
                && before == 0
                && after == 0,
            render,
            spans: s.output.color,
            multiline: args.multiline,
            max_columns: args.max_columns,
            want_column: s.output.format != Format::Text,
            follow: args.follow,
            cwd: s.cwd.clone(),
            problems: WalkProblems::default(),
            files_searched: AtomicUsize::new(0),
            skipped_binary: AtomicUsize::new(0),
            page_full: AtomicBool::new(false),
        }
    }
}

/// The lines of context before and after each match (`-B`, `-A`, `-C`).
fn context(args: &GrepArgs) -> (usize, usize) {
    let before = args.before_context.or(args.context).unwrap_or(0);
    let after = args.after_context.or(args.context).unwrap_or(0);
    (before, after)
}

/// What the workers make of each file's matches.
pub(crate) enum Render {
    /// Stored lines, for a page.
    None,
    /// Text output (`--limit 0`, no offset), rendered while searching, in parallel.
    Text(GrepPrinter),
    /// JSON entries (`--limit 0`, no offset).
    Json,
}

/// A checked `quill grep`.
pub(crate) enum GrepRequest {
    /// `--type-list`.
    TypeList,
    Search(Box<Search>),
}

/// A search, everything compiled and resolved.
pub(crate) struct Search {
    /// The searcher the worker threads share.
    shared: Shared,
    /// Other readings of the pattern, tried when it finds nothing (`why::grep_reading`).
    readings: Vec<Reading>,
    targets: Vec<PathBuf>,
    /// Search standard input too (`-`, or no PATH with stdin a pipe or a file).
    stdin: bool,
    /// Standard input was chosen for want of a PATH (not `-`): an empty one is said.
    stdin_implicit: bool,
    /// PATHs that do not exist, when others were given (reported, exit 2).
    missing: Vec<Error>,
    walk: WalkOptions,
    overrides: Option<Override>,
    types: Option<Types>,
    limit: usize,
    offset: usize,
    max_walk: usize,
    view: View,
    /// The path arguments as typed (text output names files by them).
    typed: AsTyped,
    /// Where the whole answer streams, when it does (`shared.render` is not `None`).
    out: Option<Out>,
}

impl GrepArgs {
    /// Compile the pattern, the globs and the types, resolve the paths, decide the layout,
    /// build the searcher. `out` is where the whole answer may stream.
    pub(crate) fn resolve(self, s: &Settings, out: Option<Out>) -> Result<GrepRequest> {
        let mut args = self;
        foreign_flags(&args)?;
        if args.type_list {
            return Ok(GrepRequest::TypeList);
        }
        // With -e, every positional is a PATH (like rg and grep).
        let mut paths = std::mem::take(&mut args.paths);
        let patterns = if args.regexps.is_empty() {
            vec![args.pattern.take().unwrap_or_default()]
        } else {
            if let Some(p) = args.pattern.take() {
                paths.insert(0, PathBuf::from(p));
            }
            std::mem::take(&mut args.regexps)
        };
        if args.files_with_matches {
            args.mode = GrepMode::Files;
        } else if args.count {
            args.mode = GrepMode::Count;
        }
        let matcher = build_matcher(&patterns, &args, &s.origin.argv)?;
        let readings = readings(&patterns, &args, &s.origin.argv);
        let overrides = overrides(s, &args.globs)?;
        let types = types(&args.types, &args.types_not)?;
        let limit = s.limit(args.limit, args.all, 200);
        let Targets {
            paths: targets,
            stdin,
            stdin_implicit,
            missing,
            typed,
        } = resolve_paths(s, &paths)?;
        let view = view(&args, s);
        // The whole answer streams, when there is somewhere to stream it: the worker threads
        // render each file's output while they search. A page that may start or end inside
        // a file keeps the lines instead. Inside `quill mcp` (no `out`) the answer is one
        // message, held whole.
        let out = out.filter(|_| limit == 0 && args.offset == 0);
        let render = match (&out, s.output.format) {
            (None, _) => Render::None,
            (Some(_), Format::Text) => Render::Text(GrepPrinter::new(
                view,
                s.output.color,
                s.output.cwd.clone(),
                typed.clone(),
            )),
            (Some(_), Format::Json) => Render::Json,
        };
        Ok(GrepRequest::Search(Box::new(Search {
            shared: Shared::new(&args, s, matcher, render, limit),
            readings,
            targets,
            stdin,
            stdin_implicit,
            missing,
            walk: WalkOptions {
                hidden: args.hidden,
                no_ignore: args.no_ignore,
                follow: args.follow,
            },
            overrides,
            types,
            limit,
            offset: args.offset,
            max_walk: args.max_walk,
            view,
            typed,
            out,
        })))
    }
}

/// How text output is laid out: headings, line numbers, context separators, names.
fn view(args: &GrepArgs, s: &Settings) -> View {
    let (before, after) = context(args);
    let content = args.mode == GrepMode::Content;
    let heading =
        !args.no_filename && (args.heading || (!args.no_heading && s.output.stdout_is_terminal));
    View {
        heading,
        line_numbers: !args.no_line_number,
        context: content && (before > 0 || after > 0),
        null: args.null,
        no_filename: args.no_filename,
    }
}

/// `--glob` patterns (relative to the current directory, `!` negates).
fn overrides(s: &Settings, globs: &[String]) -> Result<Option<Override>> {
    if globs.is_empty() {
        return Ok(None);
    }
    let mut ob = OverrideBuilder::new(&s.cwd);
    for g in globs {
        ob.add(g).map_err(|e| Error::InvalidPattern {
            message: format!("--glob {g}: {e}"),
            position: None,
            fix: Some(crate::search::glob_pattern::GLOB_SYNTAX.into()),
        })?;
    }
    ob.build().map(Some).map_err(|e| Error::InvalidPattern {
        message: e.to_string(),
        position: None,
        fix: Some(crate::search::glob_pattern::GLOB_SYNTAX.into()),
    })
}

/// `--type` / `--type-not` over ripgrep's default type definitions.
fn types(select: &[String], negate: &[String]) -> Result<Option<Types>> {
    if select.is_empty() && negate.is_empty() {
        return Ok(None);
    }
    let mut tb = TypesBuilder::new();
    tb.add_defaults();
    for t in select {
        tb.select(t);
    }
    for t in negate {
        tb.negate(t);
    }
    tb.build().map(Some).map_err(|e| {
        Error::invalid_argument(format!("{e}; `quill grep --type-list` shows the types"))
    })
}

pub(crate) fn run(s: &Settings, req: GrepRequest) -> Result<Report> {
    let q = match req {
        GrepRequest::TypeList => return Ok(type_list()),
        GrepRequest::Search(q) => *q,
    };
    let gather = Gather {
        total: 0,
        to: target(&q)?,
    };
    let streamed = matches!(gather.to, Target::Stream(_));
    let (mut gather, going) = search_files(s, &q, gather);
    // Standard input is named `<stdin>`, which sorts after every absolute path.
    if q.stdin && going {
        search_stdin(s, &q, &mut gather);
    }
    let total = gather.total;
    let (kept, raw_names) = match gather.to {
        // A write error (a closed pipe) shows again, and is judged, with the rest.
        Target::Stream(out) => (None, out.finish().1),
        Target::Page(p) => (Some(p), None),
    };
    // Among several PATHs, the missing ones: JSON lists them (and warns); text prints each
    // as an error line after the results. Either way the exit code is 2.
    if s.output.format == Format::Json {
        for e in &q.missing {
            s.warn(WarningKind::PathNotFound, e.to_string());
        }
    }
    let why = (total == 0).then(|| why_empty(s, &q)).flatten();
    let (start, end, next_offset) = walk::page(total, q.offset, q.limit);
    let mut result = SearchResult {
        mode: mode_name(q.shared.mode),
        matches: None,
        files: None,
        counts: None,
        truncated: next_offset.is_some(),
        next_offset,
        offset: q.offset,
        files_searched: q.shared.files_searched.load(Ordering::Relaxed),
        skipped_binary: q.shared.skipped_binary.load(Ordering::Relaxed),
        walk: q.shared.problems.finish(&s.warnings),
        missing_paths: missing_paths(&q.missing),
        why,
        missing: q.missing,
        streamed,
        streamed_raw_names: raw_names,
    };
    let text = s.output.format == Format::Text;
    let shape = Shape {
        matcher: &q.shared.matcher,
        before: q.shared.before as u64,
        after: q.shared.after as u64,
        spans: q.shared.spans,
        once: text,
    };
    match kept {
        // The entries went out; in JSON an empty list marks where (`output::stream`).
        None if !text => streamed_mark(&mut result, q.shared.mode),
        None => {}
        Some(page) => fill_page(&mut result, page, (start, end), q.shared.mode, &shape),
    }
    Ok(grep_report(total, result, q.view, q.typed))
}

/// Where the results go: the stream the request was handed (the whole answer), or a page.
fn target(q: &Search) -> Result<Target> {
    let content = q.shared.mode == GrepMode::Content;
    Ok(match (&q.shared.render, q.out.clone()) {
        (Render::Text(_), Some(out)) => {
            Target::Stream(Stream::text(out, &q.view, q.shared.spans, content))
        }
        (Render::Json, Some(out)) => Target::Stream(
            Stream::json(out, "grep", mode_name(q.shared.mode))
                .map_err(|e| Error::io("write the result to", Path::new("<stdout>"), e))?,
        ),
        _ => Target::Page(gather::Page {
            offset: q.offset,
            end: q.shared.need,
            first: 0,
            kept: Vec::new(),
        }),
    })
}

/// Search the walked PATHs on the worker threads, each file's results taken in path order.
/// False when the stream can no longer be written.
fn search_files(s: &Settings, q: &Search, gather: Gather) -> (Gather, bool) {
    if q.targets.is_empty() {
        return (gather, true);
    }
    let select = walk::Select {
        overrides: q.overrides.clone(),
        types: q.types.clone(),
        max_depth: None,
    };
    let walk = walk::sorted(&q.targets, &q.walk, s.root.as_ref(), &select);
    let shared = &q.shared;
    let items = files_of(walk, &shared.problems, q.max_walk);
    ordered::ordered_map(
        items,
        workers(),
        WINDOW,
        gather,
        || Worker::new(shared),
        |w, item, ahead| w.search(item, ahead),
        |gather, f| match f {
            Some(f) => gather.take(f, shared.mode, &shared.page_full),
            None => true,
        },
    )
}

/// Search standard input; an empty one chosen for want of a PATH is said.
fn search_stdin(s: &Settings, q: &Search, gather: &mut Gather) {
    let mut worker = Worker::new(&q.shared);
    let (found, bytes) = match &s.origin.stdin {
        // A run that brought what stands for stdin (`quill::embed`; `quill call` and `quill
        // mcp` refuse a `-` path before): the process's own is not this run's.
        Some(bytes) => worker.search_stdin(&bytes[..]),
        None => worker.search_stdin(std::io::stdin().lock()),
    };
    if let Some(f) = found {
        gather.take(f, q.shared.mode, &q.shared.page_full);
    }
    if bytes == 0 && q.stdin_implicit {
        s.warn(
            WarningKind::StdinEmpty,
            stdin::empty_message(&s.origin.argv),
        );
    }
}

/// The second look of an empty answer: another reading of the pattern, or the files the
/// filters hid.
fn why_empty(s: &Settings, q: &Search) -> Option<Why> {
    let walked = crate::search::why::Walked {
        paths: &q.targets,
        opts: q.walk,
        root: s.root.as_ref(),
        overrides: q.overrides.clone(),
        types: q.types.clone(),
    };
    let argv = s.origin.argv.clone();
    let line = crate::search::why::Line {
        cwd: &s.cwd,
        argv: &argv,
    };
    let noun = match q.shared.mode {
        GrepMode::Content => "matches",
        _ => "files",
    };
    let searcher = &q.shared.searcher;
    crate::search::why::grep_reading(&walked, &q.readings, searcher)
        .or_else(|| crate::search::why::grep(&walked, &q.shared.matcher, searcher, noun, &line))
}

/// The PATHs of `not_found` errors.
fn missing_paths(missing: &[Error]) -> Vec<PathBuf> {
    missing
        .iter()
        .filter_map(|e| match e {
            Error::NotFound { path, .. } => Some(path.clone()),
            _ => None,
        })
        .collect()
}

/// A streamed JSON answer's entries went out before it: an empty list marks where.
fn streamed_mark(result: &mut SearchResult, mode: GrepMode) {
    match mode {
        GrepMode::Content => result.matches = Some(Vec::new()),
        GrepMode::Files => result.files = Some(Vec::new()),
        GrepMode::Count => result.counts = Some(Vec::new()),
    }
}

/// The page's entries `[start, end)`, which the files kept hold exactly (files and counts:
/// one each), matches shaped as `shape` says.
fn fill_page(
    result: &mut SearchResult,
    page: gather::Page,
    (start, end): (usize, usize),
    mode: GrepMode,
    shape: &Shape<'_>,
) {
    let skip = start - page.first.min(start);
    match mode {
        GrepMode::Files => {
            let kept = page.kept.into_iter().skip(skip).take(end - start);
            result.files = Some(kept.map(|f| f.path).collect());
        }
        GrepMode::Count => {
            let kept = page.kept.into_iter().skip(skip).take(end - start);
            let count = |f: lines::FileResult| FileCount {
                path: f.path,
                count: f.count,
            };
            result.counts = Some(kept.map(count).collect());
        }
        GrepMode::Content => {
            result.matches = Some(content_page(page.kept, page.first, start, end, shape));
        }
    }
}

/// `--mode` as the answer's `mode` says it.
fn mode_name(mode: GrepMode) -> &'static str {
    match mode {
        GrepMode::Content => "content",
        GrepMode::Files => "files",
        GrepMode::Count => "count",
    }
}

fn grep_report(total: usize, result: SearchResult, view: View, typed: AsTyped) -> Report {
    Report::Grep(GrepReport {
        body: GrepBody::Search(Box::new(result)),
        total,
        view,
        typed,
    })
}

/// Files in flight at most, waiting results' bytes at most, and files queued for the
/// workers: enough that a directory read by the walk does not leave them idle, and that
/// they take files in batches (`ordered`); a queued file is only its path.
const WINDOW: Window = Window {
    files: 4096,
    queued: 512,
    bytes: 4 << 20,
};

/// Worker threads: one per core, at most 12 (as ignore's walker).
fn workers() -> usize {
    std::thread::available_parallelism().map_or(2, |n| n.get().min(12))
}

/// The files of a sorted walk, as the workers take them: walk errors filed, directories
/// passed over, a PATH that is neither file nor directory reported, quill's own temporary
/// files never searched; ends after `max_walk` entries.
fn files_of<'a>(
    walk: walk::SortedWalk,
    problems: &'a WalkProblems,
    max_walk: usize,
) -> impl Iterator<Item = Item> + 'a {
    walk.take_while(move |_| problems.visit(max_walk))
        .filter_map(move |entry| {
            let entry = match entry {
                Ok(e) => e,
                Err(err) => {
                    problems.record(&err);
                    return None;
                }
            };
            let explicit = entry.depth() == 0;
            let is_file = entry.file_type().is_some_and(|t| t.is_file());
            if !is_file || (!explicit && walk::is_quill_temp(entry.file_name())) {
                if explicit && !entry.file_type().is_some_and(|t| t.is_dir()) {
                    problems.unreadable_file(entry.path());
                }
                return None;
            }
            Some(Item {
                explicit,
                path: entry.into_path(),
            })
        })
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
    let total = types.len();
    Report::Grep(GrepReport {
        body: GrepBody::Types { types },
        total,
        view: View::default(),
        typed: AsTyped::default(),
    })
}

/// What a search reads: walked PATHs (and how each was typed), standard input, and the PATHs
/// that do not exist.
struct Targets {
    paths: Vec<PathBuf>,
    stdin: bool,
    stdin_implicit: bool,
    missing: Vec<Error>,
    typed: AsTyped,
}

/// Resolve PATH arguments inside the root, and keep how they were typed. No PATH: standard
/// input when something was sent to it (`stdin::choose`), else `.` (files then shown
/// relative to the current directory, without `./`); `-` is standard input. With several PATHs, the missing ones are kept to be
/// reported after the others are searched, and an unreadable directory is listed like any
/// other; when nothing is left to search (or only one PATH was given), its error.
fn resolve_paths(s: &Settings, paths: &[PathBuf]) -> Result<Targets> {
    let mut t = Targets {
        paths: Vec::new(),
        stdin: false,
        stdin_implicit: false,
        missing: Vec::new(),
        typed: AsTyped::default(),
    };
    let default = [PathBuf::from(".")];
    let typed_any = !paths.is_empty();
    let paths = if !paths.is_empty() {
        paths
    } else {
        let mut observe = stdin::Process {
            taken: s.origin.stdin_taken(),
        };
        match stdin::choose(&mut observe, stdin::grace()?) {
            stdin::NoPath::Stdin => {
                t.stdin = true;
                t.stdin_implicit = true;
                return Ok(t);
            }
            stdin::NoPath::Directory { silent } => {
                if let Some(waited) = silent {
                    let message = stdin::silent_message(waited, &s.origin.argv);
                    s.warn(WarningKind::StdinSilent, message);
                }
                &default[..]
            }
        }
    };
    let several = paths.len() > 1;
    for p in paths {
        if p.as_os_str() == "-" {
            t.stdin = true;
            continue;
        }
        let r = crate::fs::paths::resolve(&s.cwd, s.root.as_ref(), p)?;
        if !r.exists {
            let mut e = crate::fs::paths::not_found(r.requested);
            crate::search::missing::explain(s, "grep", &mut e);
            t.missing.push(e);
            continue;
        }
        if !several && r.target.is_dir() {
            std::fs::read_dir(&r.target)
                .map_err(|e| Error::io("read the directory", &r.target, e))?;
        }
        if typed_any {
            t.typed.roots.push(TypedRoot {
                resolved: r.target.clone(),
                typed: p.clone(),
            });
        }
        t.paths.push(r.target);
    }
    if t.paths.is_empty() && !t.stdin {
        // `missing` is not empty: every PATH was checked and none is left.
        return Err(t.missing.remove(0));
    }
    Ok(t)
}

#[cfg(test)]
mod tests {
    use super::*;
    use sink::push_display;

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
}
