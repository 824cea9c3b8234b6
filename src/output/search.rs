//! Text rendering of `glob` and `grep` results, shaped like fd's and ripgrep's output: one
//! path per line (or NUL-separated with `-0`); `path:line:text` without headings, or a path
//! heading followed by `line:text` lines; context lines with `-` and `--` between groups.
//! Paths are shown as typed below a PATH argument, else relative to the current directory
//! when below it (`output::Shown`); glob colors them as `ls` does (`LS_COLORS`). A note on
//! stderr says when a page is not the whole result, and how to get all of it.

use std::collections::BTreeMap;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use super::palette::{Palette, PathColors};
use super::{OutputConfig, Shown};
use crate::report::AsTyped;
use crate::report::search::{
    ContextLine, GlobReport, GrepBody, GrepMatch, GrepReport, SearchResult, View, Why,
};

/// How grep's worker threads print one file's matches while they search: the caller builds
/// it from the output configuration and hands it to the search (as ripgrep hands a printer
/// to each worker), so `cmd::grep` never decides what text output looks like.
#[derive(Debug, Clone)]
pub(crate) struct GrepPrinter {
    view: View,
    palette: Palette,
    cwd: PathBuf,
    typed: AsTyped,
}

impl GrepPrinter {
    pub(crate) fn new(view: View, color: bool, cwd: PathBuf, typed: AsTyped) -> GrepPrinter {
        GrepPrinter {
            view,
            palette: Palette::new(color),
            cwd,
            typed,
        }
    }

    /// How `path` is shown: as typed below a PATH argument, else relative to the current
    /// directory when below it (`Shown`).
    /// Its bytes as they are: a name need not be UTF-8, and `| xargs` must get it exact.
    pub(crate) fn shown_path(&self, path: &Path) -> Vec<u8> {
        let mut shown = Vec::new();
        let _ = Shown::new(&self.cwd, &self.typed, path).write_to(&mut shown);
        shown
    }

    /// A part of one file's block: all of it, or (`later`) a part after others, without
    /// the heading. Only the lines of `window` are printed (a part that ends inside a group
    /// of context leaves the rest to the next; that one starts after the lines printed),
    /// with `--` where a group starts. Returns the last line printed.
    /// `context`: lines to print as context besides those of `matches`.
    pub(crate) fn file_part(
        &self,
        out: &mut Vec<u8>,
        shown: &[u8],
        matches: &[GrepMatch],
        context: &[ContextLine],
        later: bool,
        window: LineWindow,
    ) -> Option<u64> {
        if !later && self.view.heading {
            let _ = file_heading(out, shown, &self.palette);
        }
        if later && matches.is_empty() && context.is_empty() {
            return window.after;
        }
        let lines = Lines {
            matches,
            context,
            window,
        };
        // Writing to a Vec cannot fail.
        file_lines(out, shown, &lines, &self.view, &self.palette).unwrap_or(None)
    }

    /// The heading of a file, when the view has headings and nothing was printed for it yet.
    pub(crate) fn heading(&self, out: &mut Vec<u8>, shown: &[u8]) {
        if self.view.heading {
            let _ = file_heading(out, shown, &self.palette);
        }
    }

    /// A matching file's line in files mode: its name and a newline (NUL with `-0`).
    pub(crate) fn file_line(&self, out: &mut Vec<u8>, path: &Path) {
        out.extend_from_slice(self.palette.magenta.as_bytes());
        out.extend_from_slice(&self.shown_path(path));
        out.extend_from_slice(self.palette.reset.as_bytes());
        out.push(if self.view.null { b'\0' } else { b'\n' });
    }

    /// A file's line in count mode: `path:count` (the count alone with `--no-filename`).
    pub(crate) fn count_line(&self, out: &mut Vec<u8>, path: &Path, count: u64) {
        if !self.view.no_filename {
            out.extend_from_slice(self.palette.magenta.as_bytes());
            out.extend_from_slice(&self.shown_path(path));
            out.extend_from_slice(self.palette.reset.as_bytes());
            out.push(if self.view.null { b'\0' } else { b':' });
        }
        out.extend_from_slice(itoa::Buffer::new().format(count).as_bytes());
        out.push(b'\n');
    }

    /// The start of an uncolored match line: `path:line:` (as the view says).
    pub(crate) fn line_prefix(&self, out: &mut Vec<u8>, shown: &[u8], line: u64) {
        let _ = line_prefix(out, shown, line, b':', &self.view, &self.palette);
    }

    /// One match line without context.
    pub(crate) fn match_line(
        &self,
        out: &mut Vec<u8>,
        shown: &[u8],
        line: u64,
        text: &str,
        spans: &[(usize, usize)],
    ) {
        let _ = match_line(out, shown, line, text, spans, &self.view, &self.palette);
    }
}

/// How a glob match is printed while the walk goes on (`--limit 0`, not newest first): the
/// caller builds it from the output configuration, as `GrepPrinter`.
pub(crate) struct GlobPrinter {
    cwd: PathBuf,
    typed: AsTyped,
    colors: Option<PathColors>,
    null: bool,
}

impl GlobPrinter {
    pub(crate) fn new(cfg: &OutputConfig, typed: AsTyped, null: bool) -> GlobPrinter {
        GlobPrinter {
            cwd: cfg.cwd.clone(),
            typed,
            colors: cfg.color.then(PathColors::from_env),
            null,
        }
    }

    /// One match: its name as `render_glob` prints it, and a newline (NUL with `-0`).
    pub(crate) fn line(&self, out: &mut Vec<u8>, path: &Path) {
        let shown = Shown::new(&self.cwd, &self.typed, path);
        match &self.colors {
            Some(colors) => {
                let mut line = Vec::new();
                let _ = shown.write_to(&mut line);
                let _ = colors.paint(out, &line, path);
            }
            None => {
                let _ = shown.write_to(out);
            }
        }
        out.push(if self.null { b'\0' } else { b'\n' });
    }
}

pub(crate) fn render_glob(
    w: &mut dyn Write,
    cfg: &OutputConfig,
    r: &GlobReport,
    _p: &Palette,
) -> io::Result<()> {
    if r.streamed {
        // The files went out as they were found; only the notes are left.
        return why_note(w, r.why.as_ref());
    }
    let sep: &[u8] = if r.null { b"\0" } else { b"\n" };
    // Colored: as `ls` colors the file (LS_COLORS), which costs a stat per printed path.
    let colors = cfg.color.then(PathColors::from_env);
    let mut line = Vec::new();
    for f in &r.files {
        let shown = Shown::new(&cfg.cwd, &r.typed, f);
        match &colors {
            Some(colors) => {
                line.clear();
                shown.write_to(&mut line)?;
                colors.paint(w, &line, f)?;
            }
            None => shown.write_to(w)?,
        }
        w.write_all(sep)?;
    }
    let page = Page {
        offset: r.offset,
        shown: r.files.len(),
        total: r.total,
        next: r.next_offset,
        what: "files",
    };
    page.note(w, cfg)?;
    why_note(w, r.why.as_ref())
}

pub(crate) fn render_grep(
    w: &mut dyn Write,
    cfg: &OutputConfig,
    r: &GrepReport,
    p: &Palette,
) -> io::Result<()> {
    let s = match &r.body {
        GrepBody::Types { types } => {
            for t in types {
                writeln!(w, "{}: {}", t.name, t.globs.join(", "))?;
            }
            return Ok(());
        }
        GrepBody::Search(s) => s,
    };
    let shown = if let Some(files) = &s.files {
        for f in files {
            w.write_all(p.magenta.as_bytes())?;
            Shown::new(&cfg.cwd, &r.typed, f).write_to(w)?;
            w.write_all(p.reset.as_bytes())?;
            w.write_all(if r.view.null { b"\0" } else { b"\n" })?;
        }
        files.len()
    } else if let Some(counts) = &s.counts {
        for c in counts {
            if r.view.no_filename {
                writeln!(w, "{}", c.count)?;
                continue;
            }
            let sep = if r.view.null { b'\0' } else { b':' };
            w.write_all(p.magenta.as_bytes())?;
            Shown::new(&cfg.cwd, &r.typed, &c.path).write_to(w)?;
            w.write_all(p.reset.as_bytes())?;
            w.write_all(&[sep])?;
            writeln!(w, "{}", c.count)?;
        }
        counts.len()
    } else if let Some(matches) = &s.matches {
        content(w, cfg, &r.typed, matches, &r.view, p)?;
        matches.len()
    } else {
        0
    };
    let page = Page {
        offset: s.offset,
        shown,
        total: r.total,
        next: s.next_offset,
        what: noun(s),
    };
    page.note(w, cfg)?;
    why_note(w, s.why.as_ref())
}

/// Why an empty or short answer is so, on stderr after the results.
fn why_note(w: &mut dyn Write, why: Option<&Why>) -> io::Result<()> {
    if let Some(why) = why {
        w.flush()?;
        eprintln!("quill: {}", why.message);
    }
    Ok(())
}

fn noun(s: &SearchResult) -> &'static str {
    if s.matches.is_some() || (s.streamed && s.mode == "content") {
        "matches"
    } else {
        "files"
    }
}

/// Which part of a result a page is.
struct Page {
    offset: usize,
    shown: usize,
    total: usize,
    next: Option<usize>,
    what: &'static str,
}

impl Page {
    /// Say on stderr which part of the result this page is, when it is not all of it, and
    /// how to get the rest. When stdout is not a terminal a script reads it (`$(quill glob
    /// …)`, a Makefile) and would lose the rest without noticing: the note is then a warning
    /// that names the switch for everything first. The exit code stays 0 either way: the
    /// page is the answer to what was asked, and agents page on purpose.
    fn note(&self, w: &mut dyn Write, cfg: &OutputConfig) -> io::Result<()> {
        let Some(next) = self.next else {
            return Ok(());
        };
        w.flush()?;
        let Page {
            offset,
            shown,
            total,
            what,
            ..
        } = *self;
        let first = if shown == 0 { offset } else { offset + 1 };
        let last = offset + shown;
        if cfg.stdout_is_terminal {
            eprintln!(
                "quill: showing {first}-{last} of {total} {what}; next page: --offset {next}; all: --all"
            );
        } else {
            eprintln!(
                "quill: warning: output incomplete: {first}-{last} of {total} {what}; \
                 all of them: --all (or QUILL_LIMIT=0); next page: --offset {next}"
            );
        }
        Ok(())
    }
}

/// A line of one file as printed: its text and whether it is a match (else context).
struct Printed<'a> {
    text: &'a str,
    spans: &'a [(usize, usize)],
    is_match: bool,
}

fn content(
    w: &mut dyn Write,
    cfg: &OutputConfig,
    typed: &AsTyped,
    matches: &[GrepMatch],
    view: &View,
    p: &Palette,
) -> io::Result<()> {
    let mut i = 0;
    let mut first_file = true;
    while i < matches.len() {
        let path = &matches[i].path;
        let mut j = i;
        while j < matches.len() && &matches[j].path == path {
            j += 1;
        }
        let mut shown = Vec::new();
        Shown::new(&cfg.cwd, typed, path).write_to(&mut shown)?;
        if !first_file {
            file_separator(w, view, p)?;
        }
        first_file = false;
        file_block(w, &shown, &matches[i..j], view, p)?;
        i = j;
    }
    Ok(())
}

/// What goes before every file but the first: a blank line under headings, else `--` when
/// context is shown.
pub(super) fn file_separator<W: Write + ?Sized>(
    w: &mut W,
    view: &View,
    p: &Palette,
) -> io::Result<()> {
    if view.heading {
        writeln!(w)?;
    } else if view.context {
        writeln!(w, "{}--{}", p.dim, p.reset)?;
    }
    Ok(())
}

/// The heading line of a file (with `--heading`).
fn file_heading<W: Write + ?Sized>(w: &mut W, path: &[u8], p: &Palette) -> io::Result<()> {
    w.write_all(p.magenta.as_bytes())?;
    w.write_all(path)?;
    writeln!(w, "{}", p.reset)
}

/// Everything printed for one file's matches — its heading (with `--heading`), then its
/// lines — but not the separator before it.
fn file_block<W: Write + ?Sized>(
    w: &mut W,
    path: &[u8],
    matches: &[GrepMatch],
    view: &View,
    p: &Palette,
) -> io::Result<()> {
    if view.heading {
        file_heading(w, path, p)?;
    }
    let lines = Lines {
        matches,
        context: &[],
        window: LineWindow::ALL,
    };
    file_lines(w, path, &lines, view, p).map(|_| ())
}

/// What `file_lines` prints: the lines of `matches` and `context` within `window`.
struct Lines<'a> {
    matches: &'a [GrepMatch],
    context: &'a [ContextLine],
    window: LineWindow,
}

/// The lines a part of a file's output prints: those after `after` (the last line an
/// earlier part printed) and before `below` (the first line the next part prints).
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct LineWindow {
    pub after: Option<u64>,
    pub below: Option<u64>,
}

impl LineWindow {
    pub(crate) const ALL: LineWindow = LineWindow {
        after: None,
        below: None,
    };

    fn holds(&self, n: u64) -> bool {
        self.after.is_none_or(|a| n > a) && self.below.is_none_or(|b| n < b)
    }
}

/// One match line without context: `path:line:text` (as the view says) and a newline.
fn match_line<W: Write + ?Sized>(
    w: &mut W,
    path: &[u8],
    line: u64,
    text: &str,
    spans: &[(usize, usize)],
    view: &View,
    p: &Palette,
) -> io::Result<()> {
    line_prefix(w, path, line, b':', view, p)?;
    write_highlighted(w, text, spans, p)?;
    w.write_all(b"\n")
}

/// One file's lines in order (those of `window`); context shared by neighboring matches
/// printed once, `--` between groups that are not adjacent (also after `window.after`).
/// Returns the last line printed.
fn file_lines<W: Write + ?Sized>(
    w: &mut W,
    path: &[u8],
    lines: &Lines,
    view: &View,
    p: &Palette,
) -> io::Result<Option<u64>> {
    let Lines {
        matches,
        context,
        window,
    } = *lines;
    if !view.context && matches.iter().all(|m| m.end_line.is_none()) {
        // The common case: one line per match, nothing shared; no map needed.
        for m in matches {
            match_line(w, path, m.line, &m.text, &m.spans, view, p)?;
        }
        return Ok(matches.last().map(|m| m.line).or(window.after));
    }
    let mut lines: BTreeMap<u64, Printed> = BTreeMap::new();
    for c in context {
        lines.entry(c.line).or_insert(Printed {
            text: &c.text,
            spans: &[],
            is_match: false,
        });
    }
    for m in matches {
        for c in m.before.iter().chain(&m.after) {
            lines.entry(c.line).or_insert(Printed {
                text: &c.text,
                spans: &[],
                is_match: false,
            });
        }
        // A multi-line match prints each of its lines with its own number.
        for (k, part) in m.text.split('\n').enumerate() {
            let spans: &[(usize, usize)] = if k == 0 { &m.spans } else { &[] };
            lines.insert(
                m.line + k as u64,
                Printed {
                    text: part,
                    spans,
                    is_match: true,
                },
            );
        }
    }
    let mut last: Option<u64> = window.after;
    for (n, l) in lines.into_iter().filter(|(n, _)| window.holds(*n)) {
        if view.context && last.is_some_and(|last| n > last + 1) {
            writeln!(w, "{}--{}", p.dim, p.reset)?;
        }
        last = Some(n);
        let sep = if l.is_match { b':' } else { b'-' };
        line_prefix(w, path, n, sep, view, p)?;
        write_highlighted(w, l.text, l.spans, p)?;
        w.write_all(b"\n")?;
    }
    Ok(last)
}

/// `path:` (without headings) and `line:` (with line numbers), `-` for context lines.
fn line_prefix<W: Write + ?Sized>(
    w: &mut W,
    path: &[u8],
    n: u64,
    sep: u8,
    view: &View,
    p: &Palette,
) -> io::Result<()> {
    if !view.heading && !view.no_filename {
        w.write_all(p.magenta.as_bytes())?;
        w.write_all(path)?;
        w.write_all(p.reset.as_bytes())?;
        w.write_all(&[if view.null { 0 } else { sep }])?;
    }
    if view.line_numbers {
        let mut buf = itoa::Buffer::new();
        w.write_all(p.green.as_bytes())?;
        w.write_all(buf.format(n).as_bytes())?;
        w.write_all(p.reset.as_bytes())?;
        w.write_all(&[sep])?;
    }
    Ok(())
}

fn write_highlighted<W: Write + ?Sized>(
    w: &mut W,
    text: &str,
    spans: &[(usize, usize)],
    p: &Palette,
) -> io::Result<()> {
    let mut at = 0;
    for &(s, e) in spans {
        // Spans are byte offsets into the raw line; a lossy or cut display may differ, so
        // only highlight spans that land on character boundaries of the shown text.
        if s < at || !text.is_char_boundary(s) || !text.is_char_boundary(e.min(text.len())) {
            continue;
        }
        let e = e.min(text.len());
        w.write_all(&text.as_bytes()[at..s])?;
        write!(w, "{}{}{}", p.match_, &text[s..e], p.reset)?;
        at = e;
    }
    w.write_all(&text.as_bytes()[at..])
}
