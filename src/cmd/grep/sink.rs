//! The searcher's sink of `quill grep`: one `Collector` per worker thread receives one file's
//! matches and context lines at a time from grep-searcher, counts them, and keeps the display
//! text of those that can still reach the page (decoded and cut here, in parallel) — or, when
//! the worker renders text output directly, prints each match line into the file's buffer
//! through the caller's `GrepPrinter`. Binary files stop at the first NUL.

use std::io;
use std::path::PathBuf;

use grep_matcher::Matcher;
use grep_regex::RegexMatcher;
use grep_searcher::{Searcher, Sink, SinkContext, SinkContextKind, SinkMatch};

use super::Shared;
use super::entries::match_spans;
use super::lines::{FileLines, LineBuffers, LineRec};
use crate::cli::GrepMode;
use crate::output::search::GrepPrinter;

/// The searcher's sink for one file at a time.
#[derive(Default)]
pub(super) struct Collector {
    pub mode: Option<GrepMode>,
    pub need: usize,
    pub after: u64,
    pub count: u64,
    pub stored_entries: usize,
    /// Keep lines up to here (the after-context of the last stored entry).
    pub keep_until: u64,
    pub binary: bool,
    pub lines: LineBuffers,
    pub multiline: bool,
    pub max_columns: usize,
    /// Set when JSON needs `column` for lines stored only in part.
    pub column_matcher: Option<RegexMatcher>,
    /// Set when matches are rendered as they are found (see `Shared::direct`).
    pub direct: Option<Box<DirectRender>>,
    /// `-o`: each match of a matching line is an entry (counted, and shown alone).
    pub only: Option<RegexMatcher>,
    /// Where `take_settled` looks for the start of a group next.
    pub settled_scan: usize,
    /// Entries at the start of `lines` that went out in an earlier part already (kept for
    /// the context of the next ones).
    pub rendered_entries: usize,
    /// How far the text parts of this file have gone.
    pub printed: Printed,
    /// The stored text `take_settled` waits for before it looks inside a group again (each
    /// look goes over all the stored lines).
    pub look_inside_at: usize,
}

/// How far the text output of the file being searched has gone, over its parts.
#[derive(Debug, Default, Clone, Copy)]
pub(super) struct Printed {
    /// The last line printed.
    pub through: Option<u64>,
    /// Lines up to here are after-context of entries printed already: a later part prints
    /// them though none of its own entries shows them.
    pub owed: Option<u64>,
}

/// Stored lines taken out to be rendered now (`Collector::take_settled`).
pub(super) struct Settled {
    pub lines: FileLines,
    /// The entries (by index among the entries of `lines`) this part renders.
    pub entries: std::ops::Range<usize>,
    /// Text: the first line the next part prints, if that part starts inside this group.
    pub below: Option<u64>,
}

/// A collector's renderer of match lines, for `Shared::direct`.
pub(super) struct DirectRender {
    printer: GrepPrinter,
    /// For the match spans of colored output.
    matcher: Option<RegexMatcher>,
    /// The file being searched, and how it is shown (computed at its first match).
    file: PathBuf,
    shown: Option<Vec<u8>>,
    /// The file's output so far.
    out: Vec<u8>,
    /// The line being rendered.
    text: String,
}

impl DirectRender {
    pub(super) fn new(printer: GrepPrinter, matcher: Option<RegexMatcher>) -> DirectRender {
        DirectRender {
            printer,
            matcher,
            file: PathBuf::new(),
            shown: None,
            out: Vec::new(),
            text: String::new(),
        }
    }

    /// Start the next file.
    pub(super) fn start(&mut self, path: &std::path::Path) {
        self.file.clear();
        self.file.push(path);
    }

    /// Bytes of the file's output held.
    pub(super) fn len(&self) -> usize {
        self.out.len()
    }

    /// The file's output, taken.
    pub(super) fn take_output(&mut self) -> Vec<u8> {
        std::mem::take(&mut self.out)
    }

    /// Append one match line: the heading first (with `--heading`), then `path:line:text`,
    /// as the printer's `file_block` prints it.
    fn line(&mut self, line: u64, body: &[u8], max_columns: usize) {
        let printer = &self.printer;
        let file = &self.file;
        // The heading once, before the file's first line (parts may have gone ahead).
        let first = self.shown.is_none();
        let shown_path = self.shown.get_or_insert_with(|| printer.shown_path(file));
        if first {
            printer.heading(&mut self.out, shown_path);
        }
        let Some(m) = &self.matcher else {
            // No color: the text goes straight into the output, never copied twice.
            printer.line_prefix(&mut self.out, shown_path, line);
            push_display_bytes(&mut self.out, body, max_columns);
            self.out.push(b'\n');
            return;
        };
        self.text.clear();
        let shown = push_display(&mut self.text, body, max_columns);
        let spans = match_spans(m, &self.text, shown);
        printer.match_line(&mut self.out, shown_path, line, &self.text, &spans);
    }
}

impl Collector {
    /// Once the stored lines hold `at_least` bytes of text: the first of them, taken out to
    /// be rendered now, so that a file's output never waits whole in memory. They end where
    /// a new group of lines starts (with context, a gap in the line numbers; without, any
    /// line): nothing after them can add to their entries or their context. With `context`
    /// (`-B`, `-A`) and no gap — every line near a match — they end before the first entry
    /// whose after-context is not all stored yet, and the lines the next entries need as
    /// their before-context stay too (`rendered_entries` says which entries went out) — for
    /// JSON (`whole_entries`), whose entries each carry all their context. Text prints each
    /// line once, and every line stored is printed: there, all of them go but the
    /// before-context of a match still to come.
    pub(super) fn take_settled(
        &mut self,
        at_least: usize,
        context: Option<(u64, u64)>,
        whole_entries: bool,
    ) -> Option<Settled> {
        if self.lines.arena.len() < at_least {
            return None;
        }
        let recs = &self.lines.recs;
        // Only lines stored since the last look can start a new group: linear in the file.
        let from = self.settled_scan.max(1);
        self.settled_scan = recs.len();
        let gap = (from..recs.len())
            .rev()
            .find(|&c| context.is_none() || recs[c].line > recs[c - 1].end_line + 1);
        let Some(cut) = gap else {
            let (before, after) = context?;
            if self.lines.arena.len() < self.look_inside_at {
                return None;
            }
            let taken = match whole_entries {
                true => self.take_inside_group(before, after),
                false => self.take_all(after),
            };
            // Each look goes over what stays: the next one waits for as much again.
            let kept = self.lines.arena.len();
            self.look_inside_at = (2 * kept).max(kept + at_least);
            return taken;
        };
        self.settled_scan = 1;
        self.look_inside_at = 0;
        let entries = self.rendered_entries..usize::MAX;
        self.rendered_entries = 0;
        Some(Settled {
            lines: self.split_at(cut, cut),
            entries,
            below: None,
        })
    }

    /// `take_settled` for text in a group with no gap: every line stored, but those after
    /// the last entry's after-context (the before-context of a match still to come).
    fn take_all(&mut self, after: u64) -> Option<Settled> {
        let recs = &self.lines.recs;
        let reach = recs
            .iter()
            .filter(|r| r.entry)
            .map(|r| r.end_line + after)
            .max()?;
        let cut = recs.partition_point(|r| r.line <= reach);
        let next = recs.get(cut).map_or(recs.last()?.end_line + 1, |r| r.line);
        let entries = self.rendered_entries..usize::MAX;
        self.rendered_entries = 0;
        self.settled_scan = 1;
        Some(Settled {
            lines: self.split_at(cut, cut),
            entries,
            below: Some(next),
        })
    }

    /// `take_settled` in a group with no gap, for JSON (see there).
    fn take_inside_group(&mut self, before: u64, after: u64) -> Option<Settled> {
        let recs = &self.lines.recs;
        let last = recs.last()?.end_line;
        // The first entry not yet out whose after-context may still grow.
        let mut k = 0usize;
        let mut open = recs.len();
        for (i, r) in recs.iter().enumerate().filter(|(_, r)| r.entry) {
            if k >= self.rendered_entries && r.end_line + after > last {
                open = i;
                break;
            }
            k += 1;
        }
        if k <= self.rendered_entries {
            return None;
        }
        // The next part starts at that entry (or after the lines stored); what it needs
        // before it stays.
        let next = recs.get(open).map_or(last + 1, |r| r.line);
        let keep = recs.partition_point(|r| r.line + before < next);
        let overlap = recs[keep..open].iter().filter(|r| r.entry).count();
        let entries = self.rendered_entries..k;
        self.rendered_entries = overlap;
        self.settled_scan = 1;
        Some(Settled {
            lines: self.split_at(keep, recs.len()),
            entries,
            below: Some(next),
        })
    }

    /// The stored lines out: records `..whole` (at least `..keep`) to be rendered, those from
    /// `keep` on staying, re-based (both, where `keep < whole`: the overlap).
    fn split_at(&mut self, keep: usize, whole: usize) -> FileLines {
        let base = self
            .lines
            .recs
            .get(keep)
            .map_or(self.lines.arena.len(), |r| r.start);
        let rest = self.lines.arena[base..].to_string();
        let mut done = std::mem::replace(&mut self.lines.arena, rest);
        let mut recs: Vec<LineRec> = self.lines.recs[keep..].to_vec();
        for r in &mut recs {
            r.start -= base;
            r.end -= base;
        }
        let mut done_recs = std::mem::replace(&mut self.lines.recs, recs);
        done_recs.truncate(whole);
        if whole == keep {
            done.truncate(base);
        }
        FileLines {
            arena: done.into(),
            recs: done_recs,
        }
    }

    pub(super) fn reset(&mut self, shared: &Shared) {
        self.mode = Some(shared.mode);
        self.multiline = shared.multiline;
        self.max_columns = shared.max_columns;
        if shared.want_column && self.column_matcher.is_none() {
            self.column_matcher = Some(shared.matcher.clone());
        }
        if shared.only_matching && self.only.is_none() {
            self.only = Some(shared.matcher.clone());
        }
        self.need = shared.need;
        self.after = shared.after as u64;
        self.count = 0;
        self.stored_entries = 0;
        self.settled_scan = 0;
        self.rendered_entries = 0;
        self.printed = Printed::default();
        self.look_inside_at = 0;
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
        self.store_at(line, bytes, entry, None);
    }

    /// `store`, with the entry's column given (`-o`: where the match starts in its line).
    fn store_at(&mut self, line: u64, bytes: &[u8], entry: bool, column: Option<usize>) {
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
        let column = match (&self.column_matcher, column) {
            (_, Some(c)) if entry => c,
            (Some(m), _) if entry => first_column(m, body),
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

impl Collector {
    /// `-o`: every non-empty match in the matching line(s) is an entry of its own, its text
    /// the matched part, its line and column where the match starts (as rg prints them).
    fn matched_parts(&mut self, m: &SinkMatch<'_>) {
        let Some(matcher) = self.only.take() else {
            return;
        };
        let bytes = m.bytes();
        let first_line = m.line_number().unwrap_or(0);
        let content = self.mode == Some(GrepMode::Content);
        let _ = matcher.find_iter(bytes, |found| {
            let (start, end) = (found.start(), found.end());
            if start == end {
                return true;
            }
            self.count += 1;
            if !content || self.stored_entries >= self.need {
                return true;
            }
            let before = &bytes[..start];
            let line = first_line + memchr::memchr_iter(b'\n', before).count() as u64;
            let line_start = memchr::memrchr(b'\n', before).map_or(0, |i| i + 1);
            self.store_at(line, &bytes[start..end], true, Some(start - line_start + 1));
            self.stored_entries += 1;
            true
        });
        self.only = Some(matcher);
    }
}

impl Sink for Collector {
    type Error = io::Error;

    fn matched(&mut self, _: &Searcher, m: &SinkMatch<'_>) -> std::result::Result<bool, io::Error> {
        if self.only.is_some() && self.mode != Some(GrepMode::Files) {
            self.matched_parts(m);
            return Ok(true);
        }
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

pub(super) fn first_column(matcher: &RegexMatcher, line: &[u8]) -> usize {
    matcher
        .find(line)
        .ok()
        .flatten()
        .map_or(1, |m| m.start() + 1)
}

/// Append the line (without terminator) for display: lossily decoded, cut after
/// `max_columns` bytes (0 = no cap) on a character boundary with a marker saying how much
/// was left out. Returns the length of the text before the marker.
pub(super) fn push_display(out: &mut String, body: &[u8], max_columns: usize) -> usize {
    let before = out.len();
    let cut = display_cut(body, max_columns);
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

/// `push_display` into bytes.
pub(super) fn push_display_bytes(out: &mut Vec<u8>, body: &[u8], max_columns: usize) {
    let cut = display_cut(body, max_columns);
    match std::str::from_utf8(&body[..cut]) {
        Ok(_) => out.extend_from_slice(&body[..cut]),
        Err(_) => out.extend_from_slice(String::from_utf8_lossy(&body[..cut]).as_bytes()),
    }
    if cut < body.len() {
        use std::io::Write as _;
        let _ = write!(out, " […{} more bytes]", body.len() - cut);
    }
}

/// Where a displayed line is cut: after `max_columns` bytes (0 = no cap), backed up to a
/// UTF-8 boundary.
fn display_cut(body: &[u8], max_columns: usize) -> usize {
    let mut cut = body.len();
    if max_columns > 0 && body.len() > max_columns {
        cut = max_columns;
        // Back up to a UTF-8 boundary (a continuation byte is 0b10xx_xxxx).
        while cut > 0 && (body[cut] & 0xC0) == 0x80 {
            cut -= 1;
        }
    }
    cut
}
