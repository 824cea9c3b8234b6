//! Page entries of `quill grep`'s content mode, built from the lines the workers stored:
//! each match with its before/after context (context shared by neighbours is kept once in
//! the stored lines and copied per entry only as a slice of the file's text arena), its
//! column and its match spans for coloring. Pure: no I/O.

use std::path::Path;
use std::sync::Arc;

use grep_matcher::Matcher;
use grep_regex::RegexMatcher;

use super::lines::{FileLines, FileResult, LineRec};
use crate::report::search::{ContextLine, GrepMatch, Text};

/// How page entries are shaped.
pub(super) struct Shape<'a> {
    pub matcher: &'a RegexMatcher,
    pub before: u64,
    pub after: u64,
    /// Compute match spans (colored text).
    pub spans: bool,
    /// For text: each context line goes to the first entry that shows it, and no other
    /// (text prints a line once however many entries share it; with `-C 100000` a copy per
    /// entry would be quadratic). JSON gives each entry all of its context.
    pub once: bool,
}

/// Entries `[start, end)` of the sorted result, built from the stored lines of the files
/// kept for the page, the first of which starts at entry `first`.
/// Each file's stored lines are dropped as soon as its entries are built, so the text is
/// not held twice.
pub(super) fn content_page(
    files: Vec<FileResult>,
    first: usize,
    start: usize,
    end: usize,
    shape: &Shape,
) -> Vec<GrepMatch> {
    let mut out = Vec::with_capacity(end - start);
    let mut first = first;
    for f in files {
        let count = f.count as usize;
        let (lo, hi) = (start.max(first), end.min(first + count));
        if lo < hi
            && let Some(lines) = &f.lines
        {
            let path: Arc<Path> = Arc::from(f.path.as_path());
            let wanted = (lo - first)..(hi - first);
            file_entries(&path, lines, wanted, shape, &mut |m| out.push(m));
        }
        first += count;
        if first >= end {
            break;
        }
    }
    out
}

pub(super) fn file_entries(
    path: &Arc<Path>,
    lines: &FileLines,
    wanted: std::ops::Range<usize>,
    shape: &Shape,
    out: &mut dyn FnMut(GrepMatch),
) {
    let recs = &lines.recs;
    let text = |r: &LineRec| Text::new(Arc::clone(&lines.arena), r.start, r.end);
    let mut k = 0usize;
    // `once`: the records given to an entry already.
    let mut given = 0usize;
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
        if shape.once {
            j = j.max(given.min(i));
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
        given = given.max(i + 1);
        if shape.after > 0 {
            let from = if shape.once { given } else { i + 1 };
            for (n, c) in recs.iter().enumerate().skip(from) {
                if c.line > r.end_line + shape.after {
                    break;
                }
                after.push(ContextLine {
                    line: c.line,
                    text: text(c),
                });
                given = n + 1;
            }
        }
        let shown = text(r);
        let spans = if shape.spans {
            match_spans(shape.matcher, &shown, r.shown)
        } else {
            Vec::new()
        };
        out(GrepMatch {
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
pub(super) fn match_spans(matcher: &RegexMatcher, text: &str, shown: usize) -> Vec<(usize, usize)> {
    let mut spans = Vec::new();
    let _ = matcher.find_iter(text.as_bytes(), |m| {
        if m.start() < shown && m.end() > m.start() {
            spans.push((m.start(), m.end().min(shown)));
        }
        true
    });
    spans
}
