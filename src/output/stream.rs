//! A result printed while it is being found (`quill grep --limit 0`, and `quill glob
//! --limit 0` in text unless newest first): each file's output goes to the command's `Out`
//! (the process's standard output, as `app` hands it down) as soon as every earlier file's
//! did, so memory does not grow with the answer. A run whose answer is held whole (`quill
//! mcp`, `embed`) is handed no `Out`, and nothing streams.
//! Text: the blocks with the separators a stored answer has between files. JSON: the
//! envelope up to the entries' array (`matches`, `files` or `counts`) is written first, then
//! each file's entries, and `emit` closes it with the rest of the same object (`json_tail`),
//! encoded as a stored answer is — so a streamed object is byte for byte the one a stored
//! answer would be. A files list's names that are not UTF-8 are the one thing kept: their
//! `filesBytes` (index → base64) go after the list.

use std::io::{self, BufWriter, IsTerminal, Write};
use std::sync::{Arc, Mutex, OnceLock};

use super::palette::Palette;
use super::search::file_separator;
use crate::report::search::View;

/// Where a command's output goes: chosen by `app` (the process's standard output) and handed
/// to the commands that stream (glob, grep) and to `emit`, which writes the rest of the
/// answer. Clones share one writer, and one note of the first write that failed, for the
/// exit code (`emit`): a reader that closed the pipe (`head`) is a quiet success, as in rg —
/// never "nothing found" — and any other failure is `cannot write output`.
#[derive(Clone)]
pub(crate) struct Out(Arc<Shared>);

struct Shared {
    writer: Mutex<Box<dyn Write + Send>>,
    /// A person reads it: each file's output is flushed as soon as it is written.
    terminal: bool,
    /// The kind of the first write that failed.
    failed: OnceLock<io::ErrorKind>,
}

impl Out {
    /// The process's standard output.
    pub(crate) fn stdout() -> Out {
        let stdout = io::stdout();
        let terminal = stdout.is_terminal();
        Out(Arc::new(Shared {
            writer: Mutex::new(Box::new(stdout)),
            terminal,
            failed: OnceLock::new(),
        }))
    }

    /// The first failed write of a streamed result, if one failed.
    pub(crate) fn failed(&self) -> Option<io::ErrorKind> {
        self.0.failed.get().copied()
    }

    /// Write through a 64 KiB buffer, then flush (the answer `emit` prints).
    pub(crate) fn print(&self, f: impl FnOnce(&mut dyn Write) -> io::Result<()>) -> io::Result<()> {
        let mut w = BufWriter::with_capacity(64 * 1024, self.clone());
        f(&mut w)?;
        w.flush()
    }

    /// A write's result, its failure kept for the exit code.
    fn noted(&self, written: io::Result<()>) -> io::Result<()> {
        if let Err(e) = &written {
            let _ = self.0.failed.set(e.kind());
        }
        written
    }

    /// The writer (a writer a panicking thread held is still the writer).
    fn lock(&self) -> std::sync::MutexGuard<'_, Box<dyn Write + Send>> {
        self.0.writer.lock().unwrap_or_else(|e| e.into_inner())
    }
}

impl Write for Out {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.lock().write(buf)
    }

    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        self.lock().write_all(buf)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.lock().flush()
    }
}

/// A command's `Out` while a result streams.
pub(crate) struct Stream {
    out: BufWriter<Out>,
    /// What goes between two files' output.
    sep: Vec<u8>,
    any: bool,
    /// A terminal sees each file as soon as it is found.
    flush_each: bool,
    /// JSON files mode: `"index":"base64"` of each name that is not UTF-8, so far.
    raw_names: Option<String>,
}

impl Stream {
    /// Text: `content` blocks are separated as `render_grep` separates them; file and count
    /// lines are not.
    pub(crate) fn text(out: Out, view: &View, color: bool, content: bool) -> Stream {
        let mut sep = Vec::new();
        if content {
            let _ = file_separator(&mut sep, view, &Palette::new(color));
        }
        Stream::new(out, sep)
    }

    /// JSON (`mode`: `content`, `files` or `count`): the envelope so far is written at once.
    pub(crate) fn json(out: Out, op: &str, mode: &str) -> io::Result<Stream> {
        let mut s = Stream::new(out, b",".to_vec());
        s.out.write_all(json_prefix(op, mode).as_bytes())?;
        s.raw_names = (mode == "files").then(String::new);
        Ok(s)
    }

    /// Lines (glob's files): nothing between them.
    pub(crate) fn lines(out: Out) -> Stream {
        Stream::new(out, Vec::new())
    }

    fn new(out: Out, sep: Vec<u8>) -> Stream {
        let flush_each = out.0.terminal;
        Stream {
            out: BufWriter::with_capacity(64 * 1024, out),
            sep,
            any: false,
            flush_each,
            raw_names: None,
        }
    }

    /// JSON files mode: entry `index` names `path` (its bytes are kept if it is not UTF-8).
    pub(crate) fn name(&mut self, index: usize, path: &std::path::Path) {
        if let Some(raw) = &mut self.raw_names
            && let Some(b) = crate::text::names::raw_bytes(path)
        {
            // Base64 and a number need no escaping.
            let comma = if raw.is_empty() { "" } else { "," };
            raw.push_str(&format!("{comma}\"{index}\":\"{b}\""));
        }
    }

    /// A part of one file's output (`first`: its first part), in order.
    pub(crate) fn part(&mut self, bytes: &[u8], first: bool) -> io::Result<()> {
        let written = self.write_part(bytes, first);
        self.out.get_ref().noted(written)
    }

    fn write_part(&mut self, bytes: &[u8], first: bool) -> io::Result<()> {
        if bytes.is_empty() {
            return Ok(());
        }
        if first && self.any {
            self.out.write_all(&self.sep)?;
        }
        self.any = true;
        self.out.write_all(bytes)?;
        if self.flush_each {
            self.out.flush()?;
        }
        Ok(())
    }

    /// Everything written out; the rest of the answer is `emit`'s. JSON files mode: the
    /// `filesBytes` member that follows the list, if some name needs it.
    pub(crate) fn finish(mut self) -> (io::Result<()>, Option<String>) {
        let raw = self
            .raw_names
            .take()
            .filter(|r| !r.is_empty())
            .map(|r| format!(r#","filesBytes":{{{r}}}"#));
        let flushed = self.out.flush();
        (self.out.get_ref().noted(flushed), raw)
    }
}

/// The start of a streamed grep object: the envelope's first keys, then the result's `mode`
/// and the opening of its entries (the order `Success` and `GrepReport` serialize in).
fn json_prefix(op: &str, mode: &str) -> String {
    let op = serde_json::to_string(op).unwrap_or_else(|_| "\"grep\"".into());
    let key = match mode {
        "files" => "files",
        "count" => "counts",
        _ => "matches",
    };
    format!(r#"{{"ok":true,"op":{op},"mode":"{mode}","{key}":["#)
}

/// The rest of a streamed object, from the whole object as it encodes with no entries:
/// everything after the prefix `json` wrote, from the `]` that closes the entries. None if
/// the object does not start so (a bug: the field order changed).
pub(crate) fn json_tail<'a>(op: &str, mode: &str, whole: &'a [u8]) -> Option<&'a [u8]> {
    whole
        .strip_prefix(json_prefix(op, mode).as_bytes())
        .filter(|rest| rest.starts_with(b"]"))
}
