//! Why a glob or grep found nothing, or less than a page. After the search — which this never
//! slows — a bounded second look (10,000 entries per walk, 200 ms in all) counts what the
//! filters hid (ignore files, hidden names) and, for glob, what the pattern matches one `**/`
//! deeper, and names the flags or the pattern that find them, with the call that does. It
//! also decides when a `[...]` glob that matched nothing is better taken literally. The
//! answer's `why` (`report::search::Why`) says it in one line.

use std::collections::HashSet;
use std::ffi::{OsStr, OsString};
use std::io::Read as _;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use globset::{Candidate, GlobSet};
use grep_regex::RegexMatcher;
use grep_searcher::{SearcherBuilder, sinks};
use ignore::overrides::Override;
use ignore::types::Types;

use crate::fs::paths::{self, Root};
use crate::fs::probe;
use crate::report::search::Why;
use crate::search::walk::{self, WalkOptions};
use crate::text::shell;

/// Entries one walk of the second look may visit, and how long the whole look may take.
const MAX_ENTRIES: usize = 10_000;
const MAX_TIME: Duration = Duration::from_millis(200);
/// How much of one file grep's second look reads.
const MAX_FILE_BYTES: u64 = 4 << 20;

/// Where and how the search walked.
pub(crate) struct Walked<'a> {
    pub paths: &'a [PathBuf],
    pub opts: WalkOptions,
    pub root: Option<&'a Root>,
    /// grep's `--glob` and `--type` selection (kept: they are not filters to lift).
    pub overrides: Option<Override>,
    pub types: Option<Types>,
}

/// What a hint needs from the command line.
pub(crate) struct Line<'a> {
    pub cwd: &'a Path,
    pub argv: &'a [OsString],
}

/// The glob that was searched, as `why` needs it.
pub(crate) struct GlobSearch<'a> {
    /// The pattern as matched (relative to the base).
    pub pattern: &'a str,
    pub ignore_case: bool,
    pub matcher: &'a GlobSet,
    /// Every match of the search (not only the page).
    pub found: &'a [PathBuf],
    pub limit: usize,
    /// The pattern's word on the command line, and what was typed before the relative
    /// pattern (the directory of an absolute one).
    pub word: Option<(usize, Option<String>)>,
}

/// Whether ignore files or hidden names were in force.
fn filtering(opts: WalkOptions) -> bool {
    !opts.hidden || !opts.no_ignore
}

/// Why a glob's answer is empty or short: matches one `**/` deeper (empty answers only), or
/// matches that the filters hid.
pub(crate) fn glob(w: &Walked, g: &GlobSearch, line: &Line) -> Option<Why> {
    let total = g.found.len();
    if total > 0 && (g.limit == 0 || total >= g.limit) {
        return None;
    }
    let deadline = Instant::now() + MAX_TIME;
    let deep = (total == 0)
        .then(|| deeper(g.pattern))
        .flatten()
        .and_then(|p| {
            crate::search::glob_pattern::compile(&p, g.ignore_case)
                .ok()
                .map(|m| (p, m))
        });
    let base = &w.paths[0];
    let matches = |m: &GlobSet, path: &Path| {
        rel(base, path).is_some_and(|r| m.is_match_candidate(&Candidate::new(r)))
    };
    if let Some((pattern, m)) = &deep {
        let mut hits = Vec::new();
        let complete = each_file(w, w.opts, !w.opts.no_ignore, deadline, |p| {
            if matches(m, p) {
                hits.push(p.to_path_buf());
            }
            true
        });
        if !hits.is_empty() {
            let count = count_phrase(hits.len(), complete, "");
            let call = g.word.as_ref().and_then(|(i, prefix)| {
                shell::replaced(line.argv, *i, OsStr::new(&typed(prefix, pattern)))
            });
            let message = format!(
                "0 files at the top level; {count} below {} {pattern} (`*` does not cross `/`){}",
                verb(hits.len(), complete),
                call_tail(&call)
            );
            return Some(why(
                "deeper",
                hits,
                complete,
                vec![],
                Some(pattern.clone()),
                call,
                message,
            ));
        }
    }
    if !filtering(w.opts) {
        return None;
    }
    let all = WalkOptions {
        hidden: true,
        no_ignore: true,
        follow: w.opts.follow,
    };
    let skip_git = !names_git(g.pattern);
    let found: HashSet<&Path> = g.found.iter().map(PathBuf::as_path).collect();
    let (mut extra, mut extra_deep) = (Vec::new(), Vec::new());
    let complete = each_file(w, all, skip_git, deadline, |p| {
        if matches(g.matcher, p) {
            if !found.contains(p) {
                extra.push(p.to_path_buf());
            }
        } else if deep.as_ref().is_some_and(|(_, m)| matches(m, p)) {
            extra_deep.push(p.to_path_buf());
        }
        true
    });
    let (hits, pattern) = if !extra.is_empty() {
        (extra, None)
    } else if !extra_deep.is_empty() {
        (extra_deep, deep.map(|(p, _)| p))
    } else {
        return None;
    };
    let flags = flags_for(w, &hits, deadline);
    let call = match (&pattern, &g.word) {
        (Some(p), Some((i, prefix))) => {
            let mut argv = line.argv.to_vec();
            argv[*i] = OsString::from(typed(prefix, p));
            shell::with_flags(&argv, &flags)
        }
        (Some(_), None) => None,
        (None, _) => shell::with_flags(line.argv, &flags),
    };
    let head = if total == 0 {
        "0 files".to_string()
    } else {
        format!("{total} {}", if total == 1 { "file" } else { "files" })
    };
    let more = if total == 0 { "" } else { " more" };
    let message = format!(
        "{head}; {} in {} {}{} ({}) — add {}{}",
        count_phrase(hits.len(), complete, more),
        place(&flags),
        verb(hits.len(), complete),
        pattern
            .as_ref()
            .map(|p| format!(" {p}"))
            .unwrap_or_default(),
        examples(line.cwd, &hits),
        flags.join(" "),
        call_tail(&call)
    );
    Some(why(
        "filtered", hits, complete, flags, pattern, call, message,
    ))
}

/// Why a grep found nothing: files the filters hid that match.
pub(crate) fn grep(
    w: &Walked,
    matcher: &RegexMatcher,
    searcher: &SearcherBuilder,
    noun: &str,
    line: &Line,
) -> Option<Why> {
    if w.paths.is_empty() || !filtering(w.opts) {
        return None;
    }
    let deadline = Instant::now() + MAX_TIME;
    // The files the search read (none matched): not searched again.
    let mut seen = HashSet::new();
    each_file(w, w.opts, !w.opts.no_ignore, deadline, |p| {
        seen.insert(p.to_path_buf());
        true
    });
    let all = WalkOptions {
        hidden: true,
        no_ignore: true,
        follow: w.opts.follow,
    };
    let mut searcher = searcher.build();
    let mut hits = Vec::new();
    let complete = each_file(w, all, true, deadline, |p| {
        if seen.contains(p) {
            return true;
        }
        let Ok(file) = probe::open_flagged(p, w.opts.follow) else {
            return true;
        };
        let mut hit = false;
        let sink = sinks::Bytes(|_, _| {
            hit = true;
            Ok(false)
        });
        // A large ignored file (a log, a bundle) is searched only so far.
        let _ = searcher.search_reader(matcher, file.take(MAX_FILE_BYTES), sink);
        if hit {
            hits.push(p.to_path_buf());
        }
        true
    });
    if hits.is_empty() {
        return None;
    }
    let flags = flags_for(w, &hits, deadline);
    let call = shell::with_flags(line.argv, &flags);
    let message = format!(
        "0 {noun}; {} in {} {} ({}) — add {}{}",
        count_phrase(hits.len(), complete, ""),
        place(&flags),
        verb(hits.len(), complete),
        examples(line.cwd, &hits),
        flags.join(" "),
        call_tail(&call)
    );
    Some(why("filtered", hits, complete, flags, None, call, message))
}

/// Another reading of a regex that found nothing: as a fixed string (`-F`), or with GNU
/// grep's `\|` taken as alternation.
pub(crate) struct Reading {
    pub matcher: RegexMatcher,
    /// `fixed` (flags: `-F`) or `rewritten` (`pattern`: the pattern to type).
    pub reason: &'static str,
    pub flags: Vec<&'static str>,
    pub pattern: Option<String>,
    /// The call that searches so.
    pub call: Option<String>,
    /// How the reading is named in the message ("as a fixed string").
    pub said: String,
}

/// Why a regex with metacharacters found nothing although another reading of it matches
/// (`readings`, tried in order): the same files walked the same way, each read only so far,
/// within the second look's bounds. Names the reading's matching lines and the call.
pub(crate) fn grep_reading(
    w: &Walked,
    readings: &[Reading],
    searcher: &SearcherBuilder,
) -> Option<Why> {
    if w.paths.is_empty() {
        return None;
    }
    let deadline = Instant::now() + MAX_TIME;
    let mut searcher = searcher.build();
    for r in readings {
        let mut hits = Vec::new();
        let mut lines = 0usize;
        let complete = each_file(w, w.opts, !w.opts.no_ignore, deadline, |p| {
            let Ok(file) = probe::open_flagged(p, w.opts.follow) else {
                return true;
            };
            let mut n = 0usize;
            let sink = sinks::Bytes(|_, _| {
                n += 1;
                Ok(true)
            });
            let _ = searcher.search_reader(&r.matcher, file.take(MAX_FILE_BYTES), sink);
            if n > 0 {
                lines += n;
                hits.push(p.to_path_buf());
            }
            Instant::now() <= deadline
        });
        if hits.is_empty() {
            continue;
        }
        let message = format!(
            "0 matches; {} it matches {} in {} — {}{}",
            r.said,
            counted(lines, complete, "line"),
            counted(hits.len(), complete, "file"),
            match &r.pattern {
                Some(p) => format!("search for {}", shell::shell_word(p)),
                None => format!("add {}", r.flags.join(" ")),
            },
            call_tail(&r.call)
        );
        let why = why(
            r.reason,
            hits,
            complete,
            r.flags.clone(),
            r.pattern.clone(),
            r.call.clone(),
            message,
        );
        return Some(why);
    }
    None
}

/// The flags that include `hits`, files the filtered walk did not see: `--hidden` when one
/// lies in a hidden path, `--no-ignore` when one does not (it was ignored) or when `--hidden`
/// alone does not show the hidden ones (ignored too). Only flags not already given.
fn flags_for(w: &Walked, hits: &[PathBuf], deadline: Instant) -> Vec<&'static str> {
    let hidden: HashSet<&Path> = hits
        .iter()
        .filter(|p| is_hidden(w.paths, p))
        .map(PathBuf::as_path)
        .collect();
    let mut need_ignore = !w.opts.no_ignore && hidden.len() < hits.len();
    if !w.opts.no_ignore && !w.opts.hidden && !need_ignore && !hidden.is_empty() {
        // All hidden: does --hidden alone show them?
        let mut shown = 0;
        let opts = WalkOptions {
            hidden: true,
            ..w.opts
        };
        let complete = each_file(w, opts, true, deadline, |p| {
            shown += usize::from(hidden.contains(p));
            shown < hidden.len()
        });
        need_ignore = shown < hidden.len() || !complete;
    }
    let mut flags = Vec::new();
    if need_ignore {
        flags.push("--no-ignore");
    }
    if !w.opts.hidden && !hidden.is_empty() {
        flags.push("--hidden");
    }
    flags
}

/// Walk the files below the search's paths with `opts`, at most `MAX_ENTRIES` entries and
/// until `deadline`, while `f` says to go on; false when a bound cut the walk short.
fn each_file(
    w: &Walked,
    opts: WalkOptions,
    skip_git: bool,
    deadline: Instant,
    mut f: impl FnMut(&Path) -> bool,
) -> bool {
    let mut b = walk::builder_skipping_git(w.paths, &opts, w.root, skip_git);
    if let Some(o) = &w.overrides {
        b.overrides(o.clone());
    }
    if let Some(t) = &w.types {
        b.types(t.clone());
    }
    for (n, entry) in b.build().enumerate() {
        if n >= MAX_ENTRIES || Instant::now() > deadline {
            return false;
        }
        let Ok(e) = entry else { continue };
        if e.file_type().is_none_or(|t| t.is_dir()) || walk::is_quill_temp(e.file_name()) {
            continue;
        }
        if !f(e.path()) {
            return true;
        }
    }
    true
}

/// `path` relative to `base`.
fn rel<'p>(base: &Path, path: &'p Path) -> Option<&'p Path> {
    path.strip_prefix(base).ok()
}

/// Whether `path` lies in a hidden path below the search path it was found under.
fn is_hidden(paths: &[PathBuf], path: &Path) -> bool {
    paths.iter().filter_map(|b| rel(b, path)).any(|r| {
        r.components()
            .any(|c| c.as_os_str().as_encoded_bytes().starts_with(b"."))
    })
}

/// `**/PATTERN` when PATTERN does not already start with `**`.
fn deeper(pattern: &str) -> Option<String> {
    (!pattern.starts_with("**") && !pattern.is_empty()).then(|| format!("**/{pattern}"))
}

/// Whether the pattern names `.git` (then the counts look inside it).
fn names_git(pattern: &str) -> bool {
    pattern.split('/').any(|c| c == ".git")
}

/// The pattern as it would be typed: after the directory of an absolute pattern.
fn typed(prefix: &Option<String>, pattern: &str) -> String {
    match prefix {
        Some(p) => format!("{}/{pattern}", p.trim_end_matches('/')),
        None => pattern.to_string(),
    }
}

/// `[` and `]` of PATTERN escaped, when that makes a difference and the result's leading
/// literal part names something that exists below `base` (Next.js `app/[id]/page.tsx`).
pub(crate) fn literal_brackets(pattern: &str, base: &Path) -> Option<String> {
    if !pattern.contains('[') || pattern.contains('\\') {
        return None;
    }
    let literal: Vec<&str> = pattern
        .split('/')
        .take_while(|c| !c.contains(['*', '?', '{', '}']))
        .collect();
    if literal.is_empty() || std::fs::symlink_metadata(base.join(literal.join("/"))).is_err() {
        return None;
    }
    Some(pattern.replace('[', "\\[").replace(']', "\\]"))
}

/// The `why` of a `[...]` glob taken literally after it matched nothing.
pub(crate) fn literal(g: &GlobSearch, escaped: &str, count: usize, line: &Line) -> Why {
    let pattern = g.pattern;
    let call = g.word.as_ref().and_then(|(i, prefix)| {
        shell::replaced(line.argv, *i, OsStr::new(&typed(prefix, escaped)))
    });
    let message = format!(
        "nothing matched {pattern} as a glob (`[...]` is a set of characters); taken literally, \
         {} — escaped{}",
        if count == 1 {
            "1 file matches".to_string()
        } else {
            format!("{count} files match")
        },
        call_tail(&call)
    );
    why(
        "literal",
        Vec::new(),
        true,
        vec![],
        Some(escaped.to_string()),
        call,
        message,
    )
    .with_count(count)
}

fn why(
    reason: &'static str,
    mut hits: Vec<PathBuf>,
    complete: bool,
    flags: Vec<&'static str>,
    pattern: Option<String>,
    call: Option<String>,
    message: String,
) -> Why {
    hits.sort_by(|a, b| walk::path_order(a, b));
    let count = hits.len();
    hits.truncate(3);
    Why {
        reason,
        count,
        complete,
        flags,
        pattern,
        examples: hits,
        call,
        message,
    }
}

impl Why {
    fn with_count(mut self, count: usize) -> Why {
        self.count = count;
        self
    }
}

/// "1 file", "3 files", "at least 3 files" (with `more`: "3 more").
fn count_phrase(n: usize, complete: bool, more: &str) -> String {
    let least = if complete { "" } else { "at least " };
    if !more.is_empty() {
        return format!("{least}{n}{more}");
    }
    counted(n, complete, "file")
}

/// "3 lines", "1 file", "at least 10,000 lines" (when the look stopped early).
fn counted(n: usize, complete: bool, noun: &str) -> String {
    let least = if complete { "" } else { "at least " };
    let s = if n == 1 { "" } else { "s" };
    format!("{least}{n} {noun}{s}")
}

fn verb(n: usize, complete: bool) -> &'static str {
    if n == 1 && complete {
        "matches"
    } else {
        "match"
    }
}

/// Where the flags look: "ignored paths", "hidden paths" or "ignored or hidden paths".
fn place(flags: &[&str]) -> &'static str {
    match (flags.contains(&"--no-ignore"), flags.contains(&"--hidden")) {
        (true, true) => "ignored or hidden paths",
        (true, false) => "ignored paths",
        _ => "hidden paths",
    }
}

/// The first two hits for people, and `…` when there are more.
fn examples(cwd: &Path, hits: &[PathBuf]) -> String {
    let mut sorted: Vec<&PathBuf> = hits.iter().collect();
    sorted.sort_by(|a, b| walk::path_order(a, b));
    let mut shown: Vec<String> = sorted
        .iter()
        .take(2)
        .map(|p| paths::display(cwd, p))
        .collect();
    if hits.len() > 2 {
        shown.push("…".into());
    }
    shown.join(", ")
}

fn call_tail(call: &Option<String>) -> String {
    call.as_ref()
        .map(|c| format!(": `{c}`"))
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn deeper_patterns_and_git() {
        assert_eq!(deeper("*.ts").as_deref(), Some("**/*.ts"));
        assert_eq!(deeper("src/*.ts").as_deref(), Some("**/src/*.ts"));
        assert_eq!(deeper("**/*.ts"), None);
        assert!(names_git(".git/config"));
        assert!(!names_git(".github/workflows/*.yml"));
    }

    #[test]
    fn brackets_are_escaped_only_for_an_existing_literal_path() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("app/[id]")).unwrap();
        std::fs::write(dir.path().join("app/[id]/page.tsx"), "").unwrap();
        assert_eq!(
            literal_brackets("app/[id]/page.tsx", dir.path()).as_deref(),
            Some("app/\\[id\\]/page.tsx")
        );
        assert_eq!(
            literal_brackets("app/[id]/*.tsx", dir.path()).as_deref(),
            Some("app/\\[id\\]/*.tsx")
        );
        assert_eq!(literal_brackets("app/[xy]/page.tsx", dir.path()), None);
        assert_eq!(literal_brackets("*.tsx", dir.path()), None);
    }

    #[test]
    fn counts_read_as_sentences() {
        assert_eq!(count_phrase(1, true, ""), "1 file");
        assert_eq!(count_phrase(3, false, ""), "at least 3 files");
        assert_eq!(count_phrase(2, true, " more"), "2 more");
        assert_eq!(
            place(&["--no-ignore", "--hidden"]),
            "ignored or hidden paths"
        );
        assert_eq!(place(&["--hidden"]), "hidden paths");
    }
}
