//! `quill grep PATTERN [PATH…]` (docs/commands/grep.md): search file contents in-process with ripgrep's
//! crates — grep-regex for the matcher, grep-searcher for line-oriented search with context
//! and binary detection, ignore's walker in path order handing files to a pool of worker
//! threads with one `Searcher` each (`ordered`, `worker`, `sink`) — and takes their results
//! back in path order (`gather`): into a page (`entries`), or, for the whole answer, straight
//! to stdout as each file's turn comes (`output::stream`), so memory is bounded by the files
//! in flight, not by the answer. `GrepArgs::resolve` compiles the matcher, globs and types and
//! resolves the paths before anything is searched. It never touches the state directory.

mod entries;
mod gather;
mod lines;
mod sink;
mod stdin;
mod worker;

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicUsize};

use grep_regex::{RegexMatcher, RegexMatcherBuilder};
use grep_searcher::{BinaryDetection, SearcherBuilder};
use ignore::overrides::{Override, OverrideBuilder};
use ignore::types::{Types, TypesBuilder};

use crate::cli::{GrepArgs, GrepMode};
use crate::error::{Error, Result};
use crate::output::Format;
use crate::output::search::GrepPrinter;
use crate::report::search::{FileCount, GrepBody, GrepReport, SearchResult, TypeDef, View};
use crate::report::{AsTyped, Report, TypedRoot};
use crate::search::walk::{self, WalkOptions, WalkProblems};
use crate::search::why::Reading;
use crate::settings::Settings;
use crate::text::shell::shell_word;
use crate::warnings::WarningKind;

use crate::search::ordered::{self, Window};
use entries::{Shape, content_page};
use gather::{Gather, Target};
use worker::{Item, Worker};

/// What every worker thread shares.
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
    matcher: RegexMatcher,
    /// Other readings of the pattern, tried when it finds nothing (`why::grep_reading`).
    readings: Vec<Reading>,
    targets: Vec<PathBuf>,
    /// Search standard input too (`-`, or no PATH with stdin a pipe or a file).
    stdin: bool,
    /// Standard input was chosen for want of a PATH (not `-`): an empty one is said.
    stdin_implicit: bool,
    /// PATHs that do not exist, when others were given (reported, exit 2).
    missing: Vec<Error>,
    invert: bool,
    only_matching: bool,
    max_count: Option<u64>,
    walk: WalkOptions,
    overrides: Option<Override>,
    types: Option<Types>,
    mode: GrepMode,
    before: usize,
    after: usize,
    multiline: bool,
    max_columns: usize,
    limit: usize,
    offset: usize,
    max_walk: usize,
    view: View,
    /// The path arguments as typed (text output names files by them).
    typed: AsTyped,
    /// How the workers render each file (`Render::None`: a page is stored).
    render: Render,
    /// JSON wants each match's column.
    want_column: bool,
    /// Colored text: match spans are computed.
    spans: bool,
}

impl GrepArgs {
    /// Compile the pattern, the globs and the types, resolve the paths, decide the layout.
    pub(crate) fn resolve(self, s: &Settings) -> Result<GrepRequest> {
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
        let before = args.before_context.or(args.context).unwrap_or(0);
        let after = args.after_context.or(args.context).unwrap_or(0);
        let content = args.mode == GrepMode::Content;
        let heading = !args.no_filename
            && (args.heading || (!args.no_heading && s.output.stdout_is_terminal));
        let view = View {
            heading,
            line_numbers: !args.no_line_number,
            context: content && (before > 0 || after > 0),
            null: args.null,
            no_filename: args.no_filename,
        };
        let text = s.output.format == Format::Text;
        // The whole answer streams: the worker threads render each file's output while they
        // search. A page that may start or end inside a file keeps the lines instead. Inside
        // `quill mcp` the answer is one message, held whole.
        let whole = limit == 0 && args.offset == 0 && !s.origin.embedded;
        let render = match (whole, text) {
            (true, true) => Render::Text(GrepPrinter::new(
                view,
                s.output.color,
                s.output.cwd.clone(),
                typed.clone(),
            )),
            (true, false) => Render::Json,
            _ => Render::None,
        };
        Ok(GrepRequest::Search(Box::new(Search {
            matcher,
            readings,
            targets,
            stdin,
            stdin_implicit,
            missing,
            invert: args.invert_match,
            only_matching: args.only_matching,
            max_count: args.max_count,
            walk: WalkOptions {
                hidden: args.hidden,
                no_ignore: args.no_ignore,
                follow: args.follow,
            },
            overrides,
            types,
            mode: args.mode,
            before,
            after,
            multiline: args.multiline,
            max_columns: args.max_columns,
            limit,
            offset: args.offset,
            max_walk: args.max_walk,
            view,
            typed,
            render,
            want_column: !text,
            spans: s.output.color,
        })))
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
    let content = q.mode == GrepMode::Content;
    let mut sb = SearcherBuilder::new();
    sb.line_number(true)
        .multi_line(q.multiline)
        .invert_match(q.invert)
        .max_matches(q.max_count)
        .binary_detection(BinaryDetection::quit(b'\0'));
    if content {
        sb.before_context(q.before).after_context(q.after);
    }
    // Entries past offset + limit never reach the page, so their text need not be kept.
    let need = if q.limit == 0 {
        usize::MAX
    } else {
        q.offset.saturating_add(q.limit)
    };
    let to = match &q.render {
        Render::None => Target::Page(gather::Page {
            offset: q.offset,
            end: need,
            first: 0,
            kept: Vec::new(),
        }),
        Render::Text(_) => Target::Stream(crate::output::stream::Stream::text(
            &q.view, q.spans, content,
        )),
        Render::Json => Target::Stream(
            crate::output::stream::Stream::json("grep", mode_name(q.mode)).map_err(|e| {
                Error::io("write the result to", std::path::Path::new("<stdout>"), e)
            })?,
        ),
    };
    let streamed = matches!(to, Target::Stream(_));
    let direct = matches!(q.render, Render::Text(_))
        && content
        && !q.multiline
        && q.before == 0
        && q.after == 0;
    let shared = Shared {
        matcher: q.matcher,
        searcher: sb,
        mode: q.mode,
        only_matching: q.only_matching,
        need,
        before: q.before,
        after: q.after,
        render: q.render,
        direct,
        spans: q.spans,
        multiline: q.multiline,
        max_columns: q.max_columns,
        want_column: q.want_column,
        follow: q.walk.follow,
        cwd: s.cwd.clone(),
        problems: WalkProblems::default(),
        files_searched: AtomicUsize::new(0),
        skipped_binary: AtomicUsize::new(0),
        page_full: AtomicBool::new(false),
    };
    let mut gather = Gather { total: 0, to };
    // Kept for the second look of an empty answer (`why`).
    let selection = (q.overrides.clone(), q.types.clone());
    let mut going = true;
    if !q.targets.is_empty() {
        let select = walk::Select {
            overrides: q.overrides,
            types: q.types,
            max_depth: None,
        };
        let walk = walk::sorted(&q.targets, &q.walk, s.root.as_ref(), &select);
        let items = files_of(walk, &shared.problems, q.max_walk);
        (gather, going) = ordered::ordered_map(
            items,
            workers(),
            WINDOW,
            gather,
            || Worker::new(&shared),
            |w, item, ahead| w.search(item, ahead),
            |gather, f| match f {
                Some(f) => gather.take(f, shared.mode, &shared.page_full),
                None => true,
            },
        );
    }
    // Standard input is named `<stdin>`, which sorts after every absolute path.
    if q.stdin && going {
        let (found, bytes) = Worker::new(&shared).search_stdin();
        if let Some(f) = found {
            gather.take(f, shared.mode, &shared.page_full);
        }
        if bytes == 0 && q.stdin_implicit {
            s.warn(
                WarningKind::StdinEmpty,
                stdin::empty_message(&s.origin.argv),
            );
        }
    }
    let total = gather.total;
    let mut raw_names = None;
    let kept = match gather.to {
        Target::Stream(out) => {
            // A write error (a closed pipe) shows again, and is judged, with the rest.
            (_, raw_names) = out.finish();
            None
        }
        Target::Page(p) => Some(p),
    };
    // Among several PATHs, the missing ones: JSON lists them (and warns); text prints each
    // as an error line after the results. Either way the exit code is 2.
    let missing_paths: Vec<PathBuf> = q
        .missing
        .iter()
        .filter_map(|e| match e {
            Error::NotFound { path, .. } => Some(path.clone()),
            _ => None,
        })
        .collect();
    if s.output.format == Format::Json {
        for e in &q.missing {
            s.warn(WarningKind::PathNotFound, e.to_string());
        }
    }
    let why = if total == 0 {
        let walked = crate::search::why::Walked {
            paths: &q.targets,
            opts: q.walk,
            root: s.root.as_ref(),
            overrides: selection.0,
            types: selection.1,
        };
        let argv = s.origin.argv.clone();
        let line = crate::search::why::Line {
            cwd: &s.cwd,
            argv: &argv,
        };
        let noun = if content { "matches" } else { "files" };
        crate::search::why::grep_reading(&walked, &q.readings, &shared.searcher).or_else(|| {
            crate::search::why::grep(&walked, &shared.matcher, &shared.searcher, noun, &line)
        })
    } else {
        None
    };
    let (start, end, next_offset) = walk::page(total, q.offset, q.limit);
    let mut result = SearchResult {
        mode: mode_name(q.mode),
        matches: None,
        files: None,
        counts: None,
        truncated: next_offset.is_some(),
        next_offset,
        offset: q.offset,
        files_searched: shared.files_searched.into_inner(),
        skipped_binary: shared.skipped_binary.into_inner(),
        walk: shared.problems.finish(&s.warnings),
        missing_paths,
        why,
        missing: q.missing,
        streamed,
        streamed_raw_names: raw_names,
    };
    let Some(page) = kept else {
        if s.output.format == Format::Json {
            // The entries went out; an empty list marks where (`output::stream`).
            match q.mode {
                GrepMode::Content => result.matches = Some(Vec::new()),
                GrepMode::Files => result.files = Some(Vec::new()),
                GrepMode::Count => result.counts = Some(Vec::new()),
            }
        }
        return Ok(grep_report(total, result, q.view, q.typed));
    };
    // The files kept hold exactly the entries [start, end) (files and counts: one each).
    let skip = start - page.first.min(start);
    match q.mode {
        GrepMode::Files => {
            result.files = Some(
                page.kept
                    .into_iter()
                    .skip(skip)
                    .take(end - start)
                    .map(|f| f.path)
                    .collect(),
            );
        }
        GrepMode::Count => {
            result.counts = Some(
                page.kept
                    .into_iter()
                    .skip(skip)
                    .take(end - start)
                    .map(|f| FileCount {
                        path: f.path,
                        count: f.count,
                    })
                    .collect(),
            );
        }
        GrepMode::Content => {
            let shape = Shape {
                matcher: &shared.matcher,
                before: q.before as u64,
                after: q.after as u64,
                spans: q.spans,
                once: s.output.format == Format::Text,
            };
            result.matches = Some(content_page(page.kept, page.first, start, end, &shape));
        }
    }
    Ok(grep_report(total, result, q.view, q.typed))
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

/// The regex matcher, configured like rg's (several `-e` patterns: any of them); a bad
/// pattern names its position.
/// The matcher's options as the flags set them (`fixed`: -F).
fn matcher_builder(args: &GrepArgs, fixed: bool) -> RegexMatcherBuilder {
    let mut b = RegexMatcherBuilder::new();
    b.case_insensitive(args.ignore_case)
        .case_smart(args.smart_case && !args.ignore_case)
        .word(args.word_regexp)
        .whole_line(args.line_regexp)
        .fixed_strings(fixed)
        .multi_line(true)
        .unicode(true)
        .octal(false);
    if !args.multiline {
        b.line_terminator(Some(b'\n'));
    }
    b
}

/// The other readings of one regex with metacharacters, for an empty answer's second look
/// (`why::grep_reading`): GNU grep's `\|` as alternation (its habit in a Rust regex, where
/// `\|` is a literal `|`), then the pattern as a fixed string (`row_to_json(t)`).
fn readings(patterns: &[String], args: &GrepArgs, argv: &[std::ffi::OsString]) -> Vec<Reading> {
    let [p] = patterns else { return Vec::new() };
    if args.fixed_strings || args.invert_match || regex_syntax::escape(p) == *p {
        return Vec::new();
    }
    let mut out = Vec::new();
    if p.contains(r"\|") {
        let alt = p.replace(r"\|", "|");
        let at = argv
            .iter()
            .skip(2)
            .position(|w| w == p.as_str())
            .map(|i| i + 2);
        if let Ok(matcher) = matcher_builder(args, false).build(&alt) {
            out.push(Reading {
                matcher,
                reason: "rewritten",
                flags: Vec::new(),
                call: at.and_then(|i| crate::text::shell::replaced(argv, i, alt.as_ref())),
                pattern: Some(alt),
                said: r"with `\|` read as alternation (GNU grep's; here it is `|`),".into(),
            });
        }
    }
    if let Ok(matcher) = matcher_builder(args, true).build(p) {
        out.push(Reading {
            matcher,
            reason: "fixed",
            flags: vec!["-F"],
            pattern: None,
            call: crate::text::shell::with_flags(argv, &["-F"]),
            said: "as a fixed string".into(),
        });
    }
    out
}

fn build_matcher(
    patterns: &[String],
    args: &GrepArgs,
    argv: &[std::ffi::OsString],
) -> Result<RegexMatcher> {
    matcher_builder(args, args.fixed_strings)
        .build_many(patterns)
        .map_err(|e| {
            if !args.multiline && first_line(&e).contains(r#""\n""#) {
                // A line break, typed or as `\n`: -F does not help, -U does.
                let fix = match crate::text::shell::with_flags(argv, &["-U"]) {
                    Some(call) => format!("add -U to let a match span lines: `{call}`"),
                    None => "add -U (--multiline) to let a match span lines".into(),
                };
                return Error::InvalidPattern {
                    message:
                        "the pattern matches a line break, and a match spans lines only with -U"
                            .into(),
                    position: None,
                    fix: Some(fix),
                };
            }
            // The pattern the parser rejects (with several, the first such one).
            let bad = (!args.fixed_strings)
                .then(|| {
                    patterns
                        .iter()
                        .find_map(|p| pattern_error_position(p).map(|at| (p, at)))
                })
                .flatten();
            let message = match bad {
                Some((p, at)) if patterns.len() > 1 => {
                    format!("{} (at character {at} of -e {p:?})", first_line(&e))
                }
                Some((_, at)) => format!("{} (at character {at} of the pattern)", first_line(&e)),
                None => first_line(&e),
            };
            Error::InvalidPattern {
                message,
                position: bad.map(|(_, at)| at),
                fix: None,
            }
        })
}

/// GNU grep's flags that mean something else to quill: parsed only to say what to type
/// instead, before anything is searched.
fn foreign_flags(args: &GrepArgs) -> Result<()> {
    let teach = |flag: &str, why: &str, fix: String| {
        Err(Error::usage_fix(
            format!("quill grep has no {flag}: {why}"),
            fix,
        ))
    };
    // -r/-R (recursion is the default) and -E (the pattern is an extended regex already) are
    // habits that mean what quill does anyway: accepted and ignored.
    if args.perl_regexp {
        return teach(
            "-P",
            "the pattern is a Rust regex: no look-around or backreferences",
            "drop -P and rewrite look-arounds (e.g. match the context and use -o), or use -F for a literal".into(),
        );
    }
    if let Some(g) = args.include.first() {
        return teach(
            "--include",
            "files are selected with --glob",
            format!("use --glob {}", shell_word(g)),
        );
    }
    if let Some(g) = args.exclude.first() {
        return teach(
            "--exclude",
            "files are excluded with a negated --glob",
            format!("use --glob {}", shell_word(&format!("!{g}"))),
        );
    }
    if let Some(d) = args.exclude_dir.first() {
        let d = d.trim_end_matches('/');
        return teach(
            "--exclude-dir",
            "directories are excluded with a negated --glob",
            format!("use --glob {}", shell_word(&format!("!{d}/"))),
        );
    }
    Ok(())
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

    #[test]
    fn error_positions_are_one_based_chars() {
        assert_eq!(pattern_error_position("ab(c"), Some(3));
        assert_eq!(pattern_error_position("é[z"), Some(2));
        assert_eq!(pattern_error_position("ok"), None);
    }
}
