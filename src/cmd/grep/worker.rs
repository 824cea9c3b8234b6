//! The worker threads of `quill grep`: ignore's parallel walker hands each thread entries;
//! the thread opens the file through `probe::open_flagged` (never blocking, not following links
//! unless asked), runs its own `Searcher` into its `Collector`, and keeps the files with
//! matches. Memory stays bounded by the page: each thread keeps the text of only the files that
//! can still reach the first `offset + limit` entries (a per-thread top-k by path) and counts
//! everything else, so `total` stays exact. Each thread sorts its own run when it ends.

use std::collections::BinaryHeap;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::Ordering;

use grep_regex::RegexMatcher;
use grep_searcher::Searcher;
use ignore::{DirEntry, ParallelVisitor, ParallelVisitorBuilder, WalkState};

use super::Shared;
use super::entries::{Shape, file_entries};
use super::lines::{FileLines, FileResult};
use super::sink::{Collector, DirectRender};
use crate::cli::GrepMode;
use crate::output::search::GrepPrinter;
use crate::probe;
use crate::walk;

pub(super) struct Visitors<'a> {
    pub shared: &'a Shared,
}

impl<'s> ParallelVisitorBuilder<'s> for Visitors<'s> {
    fn build(&mut self) -> Box<dyn ParallelVisitor + 's> {
        Box::new(Worker::new(self.shared))
    }
}

/// What standard input is called in results (text and JSON): not a path any file can have
/// (JSON paths are absolute).
pub(super) const STDIN_NAME: &str = "<stdin>";

/// Search standard input on this thread, into the shared results like a walked file.
pub(super) fn search_stdin(shared: &Shared) {
    let mut w = Worker::new(shared);
    let path = Path::new(STDIN_NAME);
    w.begin(path);
    let result = w
        .searcher
        .search_reader(&w.matcher, std::io::stdin().lock(), &mut w.sink);
    w.finish(path.to_path_buf(), result.is_err());
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

impl<'a> Worker<'a> {
    fn new(shared: &'a Shared) -> Worker<'a> {
        Worker {
            shared,
            searcher: shared.searcher.build(),
            matcher: shared.matcher.clone(),
            sink: Collector {
                direct: shared.printer.as_ref().filter(|_| shared.direct).map(|p| {
                    let spans = shared.spans.then(|| shared.matcher.clone());
                    Box::new(DirectRender::new(p.clone(), spans))
                }),
                ..Collector::default()
            },
            files: Vec::new(),
            heap: BinaryHeap::new(),
            stored: 0,
        }
    }

    fn search(&mut self, entry: DirEntry) {
        let explicit = entry.depth() == 0;
        let is_file = entry.file_type().is_some_and(|t| t.is_file());
        if !is_file || (!explicit && walk::is_quill_temp(entry.file_name())) {
            if explicit && !entry.file_type().is_some_and(|t| t.is_dir()) {
                self.shared.problems.unreadable_file(entry.path());
            }
            return;
        }
        // The guarded open's flags alone (`O_NONBLOCK`, `O_NOFOLLOW` unless links are followed):
        // no FIFO swapped in after the walk listed a file can block a worker.
        let file = match probe::open_flagged(entry.path(), self.shared.follow || explicit) {
            Ok(f) => f,
            Err(_) => {
                self.shared.problems.unreadable_file(entry.path());
                return;
            }
        };
        self.begin(entry.path());
        let result = self
            .searcher
            .search_file(&self.matcher, &file, &mut self.sink);
        self.finish(entry.into_path(), result.is_err());
    }

    /// Before searching one file (or stdin).
    fn begin(&mut self, path: &Path) {
        self.shared.files_searched.fetch_add(1, Ordering::Relaxed);
        self.sink.reset(self.shared);
        if let Some(d) = &mut self.sink.direct {
            d.start(path);
        }
    }

    /// After searching `path`: keep its result if it has matches.
    fn finish(&mut self, path: PathBuf, failed: bool) {
        if failed {
            self.shared.problems.unreadable_file(&path);
        }
        if self.sink.binary {
            self.shared.skipped_binary.fetch_add(1, Ordering::Relaxed);
        }
        if self.sink.count == 0 {
            return;
        }
        let rendered = self.shared.printer.as_ref().map(|p| self.render(p, &path));
        let lines = (self.shared.mode == GrepMode::Content && rendered.is_none()).then(|| {
            // Exact-size copies; the collector keeps its grown buffers for the next file.
            Box::new(FileLines {
                arena: self.sink.lines.arena.as_str().into(),
                recs: self.sink.lines.recs.clone(),
            })
        });
        let entries = self.sink.stored_entries;
        let index = self.files.len();
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

    /// The text output of the file just searched: what the printer prints for it.
    fn render(&self, printer: &GrepPrinter, path: &Path) -> Box<[u8]> {
        if let Some(d) = &self.sink.direct {
            return d.output().into();
        }
        let lines = FileLines {
            arena: self.sink.lines.arena.as_str().into(),
            recs: self.sink.lines.recs.clone(),
        };
        let shape = Shape {
            matcher: &self.matcher,
            before: self.shared.before as u64,
            after: self.shared.after as u64,
            spans: self.shared.spans,
        };
        let path: Arc<Path> = Arc::from(path);
        let mut entries = Vec::new();
        file_entries(&path, &lines, 0..usize::MAX, &shape, &mut entries);
        let mut out = Vec::new();
        printer.file_block(&mut out, &printer.shown_path(&path), &entries);
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
