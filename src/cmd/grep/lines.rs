//! What `quill grep` keeps of a file with matches: its count, and (content mode) the display
//! text of its stored match and context lines in one arena, or the text output the worker
//! already rendered for it. Data only.

use std::path::PathBuf;
use std::sync::Arc;

/// A file with at least one match.
pub(super) struct FileResult {
    pub path: PathBuf,
    /// Matching lines (content, count) — or 1 (files mode, which stops at the first).
    pub count: u64,
    /// Content mode: the stored lines, unless evicted because they cannot reach the page.
    pub lines: Option<Box<FileLines>>,
    /// Output rendered by the worker thread (see `Render`), instead of `lines`: all of it,
    /// or what is left once earlier parts went ahead.
    pub rendered: Option<Vec<u8>>,
    /// Parts of `rendered` went out ahead of it (`ordered::Ahead`).
    pub ahead: bool,
}

/// One file's stored match and context lines, in line order, their display text in one
/// arena (decoded and cut by the worker threads, in parallel).
pub(super) struct FileLines {
    pub arena: Arc<str>,
    pub recs: Vec<LineRec>,
}

/// The collector's growing buffers for the file being searched.
#[derive(Default)]
pub(super) struct LineBuffers {
    pub arena: String,
    pub recs: Vec<LineRec>,
}

#[derive(Clone)]
pub(super) struct LineRec {
    pub line: u64,
    pub end_line: u64,
    /// The display text in the arena: the line without its terminator, lossily decoded,
    /// cut after `max_columns` bytes with a marker.
    pub start: usize,
    pub end: usize,
    /// Bytes of the text before the marker (match spans beyond it are not shown).
    pub shown: usize,
    /// The 1-based byte column of the first match (JSON only, else 0).
    pub column: usize,
    /// A match that is an entry of the result (the first `need` matches of the file).
    pub entry: bool,
}

impl crate::search::ordered::Weigh for FileResult {
    /// The bytes it holds: rendered output, or stored text and line records.
    fn weight(&self) -> usize {
        let lines = self.lines.as_ref().map_or(0, |l| {
            l.arena.len() + l.recs.len() * std::mem::size_of::<LineRec>()
        });
        self.rendered.as_ref().map_or(0, Vec::capacity) + lines
    }
}
