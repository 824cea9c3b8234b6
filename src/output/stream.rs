//! A result printed while it is being found (`quill grep --limit 0`, and `quill glob
//! --limit 0` in text unless newest first): each file's output goes
//! to stdout as soon as every earlier file's did, so memory does not grow with the answer.
//! Text: the blocks with the separators a stored answer has between files. JSON: the
//! envelope up to the entries' array (`matches`, `files` or `counts`) is written first, then
//! each file's entries, and `emit` closes it with the rest of the same object (`json_tail`),
//! encoded as a stored answer is — so a streamed object is byte for byte the one a stored
//! answer would be. A files list's names that are not UTF-8 are the one thing kept: their
//! `filesBytes` (index → base64) go after the list.

use std::io::{self, BufWriter, IsTerminal, Stdout, Write};

use super::palette::Palette;
use super::search::file_separator;
use crate::report::search::View;

/// The kind of the first write to standard output that failed while a result streamed, for
/// the exit code (`emit`): a reader that closed the pipe (`head`) is a quiet success, as in
/// rg — never "nothing found" — and any other failure is `cannot write output`. Standard
/// output is the process's, so this is too.
static STDOUT_FAILED: std::sync::OnceLock<io::ErrorKind> = std::sync::OnceLock::new();

/// The first failed write of a streamed result to standard output, if one failed.
pub(crate) fn failed() -> Option<io::ErrorKind> {
    STDOUT_FAILED.get().copied()
}

/// Standard output while a result streams.
pub(crate) struct Stream {
    out: BufWriter<Stdout>,
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
    pub(crate) fn text(view: &View, color: bool, content: bool) -> Stream {
        let mut sep = Vec::new();
        if content {
            let _ = file_separator(&mut sep, view, &Palette::new(color));
        }
        Stream::new(sep)
    }

    /// JSON (`mode`: `content`, `files` or `count`): the envelope so far is written at once.
    pub(crate) fn json(op: &str, mode: &str) -> io::Result<Stream> {
        let mut s = Stream::new(b",".to_vec());
        s.out.write_all(json_prefix(op, mode).as_bytes())?;
        s.raw_names = (mode == "files").then(String::new);
        Ok(s)
    }

    /// Lines (glob's files): nothing between them.
    pub(crate) fn lines() -> Stream {
        Stream::new(Vec::new())
    }

    fn new(sep: Vec<u8>) -> Stream {
        let stdout = io::stdout();
        let flush_each = stdout.is_terminal();
        Stream {
            out: BufWriter::with_capacity(64 * 1024, stdout),
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
        noted(self.write_part(bytes, first))
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
        (noted(self.out.flush()), raw)
    }
}

/// A write's result, its failure kept for the exit code (`STDOUT_FAILED`).
fn noted(written: io::Result<()>) -> io::Result<()> {
    if let Err(e) = &written {
        let _ = STDOUT_FAILED.set(e.kind());
    }
    written
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
