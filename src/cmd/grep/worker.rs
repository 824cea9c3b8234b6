//! The worker threads of `quill grep`: each owns a `Searcher`, a matcher and a `Collector`,
//! takes one file at a time from the ordered pipeline (`ordered`), opens it through
//! `probe::open_flagged` (never blocking, not following links unless asked), searches it and
//! hands back what the answer needs of it: its count, and its stored lines (a page), or its
//! output already rendered (text, or JSON entries, when the whole answer is streamed). Once
//! the page is full, a file is only counted, so `total` stays exact at little cost.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::Ordering;

use grep_regex::RegexMatcher;
use grep_searcher::Searcher;

use grep_searcher::{Sink, SinkContext, SinkFinish, SinkMatch};

use super::entries::{Shape, file_entries};
use super::gather::Gather;
use super::lines::{FileLines, FileResult};
use super::sink::{Collector, DirectRender, Printed, Settled};
use super::{Render, Shared};
use crate::cli::GrepMode;
use crate::fs::probe;
use crate::output::search::LineWindow;
use crate::report::search::{ContextLine, Text};
use crate::search::ordered::Ahead;

/// What standard input is called in results (text and JSON): not a path any file can have
/// (JSON paths are absolute).
pub(super) const STDIN_NAME: &str = "<stdin>";

/// One file the walk found, and whether it was named as a PATH.
pub(super) struct Item {
    pub path: PathBuf,
    pub explicit: bool,
}

/// One worker thread: its own searcher, matcher and sink.
pub(super) struct Worker<'a> {
    shared: &'a Shared,
    searcher: Searcher,
    matcher: RegexMatcher,
    sink: Collector,
}

impl<'a> Worker<'a> {
    pub(super) fn new(shared: &'a Shared) -> Worker<'a> {
        let direct = match &shared.render {
            Render::Text(p) if shared.direct => {
                let spans = shared.spans.then(|| shared.matcher.clone());
                Some(Box::new(DirectRender::new(p.clone(), spans)))
            }
            _ => None,
        };
        Worker {
            shared,
            searcher: shared.searcher.build(),
            matcher: shared.matcher.clone(),
            sink: Collector {
                direct,
                ..Collector::default()
            },
        }
    }

    /// Search one walked file; `None` when it has no match. Text rendered while searching
    /// goes `ahead` in parts as it grows.
    pub(super) fn search(
        &mut self,
        item: Item,
        ahead: &mut Ahead<'_, Gather>,
    ) -> Option<FileResult> {
        // The guarded open's flags alone (`O_NONBLOCK`, `O_NOFOLLOW` unless links are followed):
        // no FIFO swapped in after the walk listed a file can block a worker.
        let short = crate::search::walk::below(&item.path, &self.shared.cwd).unwrap_or(&item.path);
        let file = match probe::open_flagged(short, self.shared.follow || item.explicit) {
            Ok(f) => f,
            Err(_) => {
                self.shared.problems.unreadable_file(&item.path);
                return None;
            }
        };
        self.begin(&item.path);
        let mut sink = PassAhead {
            sink: &mut self.sink,
            ahead,
            part: Part {
                shared: self.shared,
                matcher: &self.matcher,
                path: &item.path,
            },
        };
        let result = self.searcher.search_file(&self.matcher, &file, &mut sink);
        let sent = ahead.sent();
        self.finish(item.path, result.is_err(), sent)
    }

    /// Search standard input (`input`: the process's, or what a call brought in its place);
    /// also how many bytes it gave.
    pub(super) fn search_stdin(&mut self, input: impl std::io::Read) -> (Option<FileResult>, u64) {
        let path = Path::new(STDIN_NAME);
        self.begin(path);
        let mut counted = Counted {
            inner: input,
            bytes: 0,
        };
        let result = self
            .searcher
            .search_reader(&self.matcher, &mut counted, &mut self.sink);
        let bytes = counted.bytes;
        (
            self.finish(path.to_path_buf(), result.is_err(), false),
            bytes,
        )
    }

    /// Before searching one file (or stdin).
    fn begin(&mut self, path: &Path) {
        self.shared.files_searched.fetch_add(1, Ordering::Relaxed);
        self.sink.reset(self.shared);
        if self.shared.page_full.load(Ordering::Relaxed) {
            // It comes after a full page: only its count matters.
            self.sink.need = 0;
        }
        if let Some(d) = &mut self.sink.direct {
            d.start(path);
        }
    }

    /// After searching `path`: what the answer keeps of it, if it has matches.
    fn finish(&mut self, path: PathBuf, failed: bool, ahead: bool) -> Option<FileResult> {
        if failed {
            self.shared.problems.unreadable_file(&path);
        }
        if self.sink.binary {
            self.shared.skipped_binary.fetch_add(1, Ordering::Relaxed);
        }
        if self.sink.count == 0 {
            return None;
        }
        let rendered = self.render(&path, ahead);
        let lines = (self.shared.mode == GrepMode::Content
            && rendered.is_none()
            && self.sink.stored_entries > 0)
            .then(|| Box::new(self.stored()));
        Some(FileResult {
            path,
            count: self.sink.count,
            lines,
            rendered,
            ahead,
        })
    }

    /// The lines the collector stored for the file just searched, as exact-size copies: the
    /// collector keeps its grown buffers for the next file.
    fn stored(&self) -> FileLines {
        FileLines {
            arena: self.sink.lines.arena.as_str().into(),
            recs: self.sink.lines.recs.clone(),
        }
    }

    /// The streamed output of the file just searched (what is left of it, when parts went
    /// ahead): its text, or its JSON entries.
    fn render(&mut self, path: &Path, ahead: bool) -> Option<Vec<u8>> {
        if let Some(d) = &mut self.sink.direct {
            // Handed over, not copied: the next file starts a buffer of its own.
            return Some(d.take_output());
        }
        let part = Part {
            shared: self.shared,
            matcher: &self.matcher,
            path,
        };
        let mut out = Vec::new();
        match &self.shared.render {
            Render::None => return None,
            Render::Text(printer) => match self.shared.mode {
                GrepMode::Files => printer.file_line(&mut out, path),
                GrepMode::Count => printer.count_line(&mut out, path, self.sink.count),
                GrepMode::Content => return Some(self.rest(&part, ahead)),
            },
            Render::Json => match self.shared.mode {
                // As a stored list has them (`crate::text::names`): the name, lossily, and a count
                // as `FileCount`; the bytes of a name that is not UTF-8 go after the list.
                // Writing to a Vec cannot fail.
                GrepMode::Files => {
                    let _ = serde_json::to_writer(&mut out, &path.to_string_lossy());
                }
                GrepMode::Count => {
                    let count = crate::report::search::FileCount {
                        path: path.to_path_buf(),
                        count: self.sink.count,
                    };
                    let _ = serde_json::to_writer(&mut out, &count);
                }
                GrepMode::Content => return Some(self.rest(&part, ahead)),
            },
        }
        Some(out)
    }

    /// The rendered output of the lines stored last, after the parts that went ahead.
    fn rest(&self, part: &Part<'_>, ahead: bool) -> Vec<u8> {
        let settled = Settled {
            lines: self.stored(),
            entries: self.sink.rendered_entries..usize::MAX,
            below: None,
        };
        part.render(&settled, ahead, self.sink.printed).0
    }
}

/// What rendering a file's stored lines needs.
struct Part<'a> {
    shared: &'a Shared,
    matcher: &'a RegexMatcher,
    path: &'a Path,
}

impl Part<'_> {
    /// The output of settled lines: a text block (a later part: no heading, and only the
    /// lines after those `printed` before), or JSON entries (a later part: a comma first).
    /// Returns how far the text has gone then.
    fn render(&self, settled: &Settled, later: bool, printed: Printed) -> (Vec<u8>, Printed) {
        let lines = &settled.lines;
        let shape = Shape {
            matcher: self.matcher,
            before: self.shared.before as u64,
            after: self.shared.after as u64,
            spans: self.shared.spans,
            once: matches!(self.shared.render, Render::Text(_)),
        };
        let path: Arc<Path> = Arc::from(self.path);
        let mut out = Vec::new();
        let mut now = printed;
        match &self.shared.render {
            Render::Text(printer) => {
                // Each context line once (`Shape::once`): linear in the lines.
                let mut entries = Vec::new();
                file_entries(&path, lines, settled.entries.clone(), &shape, &mut |m| {
                    entries.push(m)
                });
                // The after-context of entries printed before, which no entry here shows.
                let owed: Vec<ContextLine> = match printed.owed {
                    Some(owed) => lines
                        .recs
                        .iter()
                        .take_while(|r| r.line <= owed)
                        .filter(|r| !r.entry)
                        .map(|r| ContextLine {
                            line: r.line,
                            text: Text::new(Arc::clone(&lines.arena), r.start, r.end),
                        })
                        .collect(),
                    None => Vec::new(),
                };
                let shown = printer.shown_path(self.path);
                let window = LineWindow {
                    after: printed.through,
                    below: settled.below,
                };
                now.through = printer.file_part(&mut out, &shown, &entries, &owed, later, window);
                let reach = lines
                    .recs
                    .iter()
                    .filter(|r| r.entry)
                    .map(|r| r.end_line + shape.after)
                    .max();
                now.owed = now.owed.max(reach);
            }
            _ => {
                // One entry at a time: with a wide context (`-C 100000`) each entry carries
                // its own copy of its lines, too many to hold for all entries at once.
                let mut first = !later;
                file_entries(&path, lines, settled.entries.clone(), &shape, &mut |m| {
                    if !first {
                        out.push(b',');
                    }
                    first = false;
                    // Names never fail to encode (`crate::text::names`), nor does writing to a Vec.
                    let _ = serde_json::to_writer(&mut out, &m);
                });
            }
        }
        (out, now)
    }
}

/// Bytes of a file's output gathered before they go ahead as a part.
const PART: usize = 64 * 1024;

/// The collector, for one file, passing its output ahead in parts of about `PART` bytes
/// while the whole answer streams, so a file with a huge output is never held whole.
struct PassAhead<'s, 'a, 't> {
    sink: &'s mut Collector,
    ahead: &'a mut Ahead<'t, Gather>,
    part: Part<'s>,
}

impl PassAhead<'_, '_, '_> {
    fn pass(&mut self) {
        if let Some(d) = &mut self.sink.direct {
            if d.len() >= PART {
                self.ahead.part(d.take_output());
            }
            return;
        }
        let shared = self.part.shared;
        if matches!(shared.render, Render::None) || shared.mode != GrepMode::Content {
            return;
        }
        let context = (shared.before > 0 || shared.after > 0)
            .then_some((shared.before as u64, shared.after as u64));
        let json = !matches!(shared.render, Render::Text(_));
        if let Some(settled) = self.sink.take_settled(PART, context, json) {
            let later = self.ahead.sent();
            let (out, printed) = self.part.render(&settled, later, self.sink.printed);
            self.sink.printed = printed;
            self.ahead.part(out);
        }
    }
}

impl Sink for PassAhead<'_, '_, '_> {
    type Error = std::io::Error;

    fn matched(&mut self, s: &Searcher, m: &SinkMatch<'_>) -> Result<bool, Self::Error> {
        let more = self.sink.matched(s, m)?;
        self.pass();
        Ok(more)
    }

    fn context(&mut self, s: &Searcher, c: &SinkContext<'_>) -> Result<bool, Self::Error> {
        let more = self.sink.context(s, c)?;
        self.pass();
        Ok(more)
    }

    fn binary_data(&mut self, s: &Searcher, offset: u64) -> Result<bool, Self::Error> {
        self.sink.binary_data(s, offset)
    }

    fn finish(&mut self, s: &Searcher, f: &SinkFinish) -> Result<(), Self::Error> {
        self.sink.finish(s, f)
    }
}

/// A reader that counts what it gave.
struct Counted<R> {
    inner: R,
    bytes: u64,
}

impl<R: std::io::Read> std::io::Read for Counted<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.bytes += n as u64;
        Ok(n)
    }
}
