//! The Codex patch parser (`*** Begin Patch` … `*** End Patch`) with Codex's own leniencies:
//! whitespace around marker lines, a shell heredoc (`<<'EOF'` … `EOF`) around the patch, blank
//! lines between chunks, an empty line inside a chunk read as an empty context line, CRLF patch
//! text read as LF, and the first chunk of an update without its `@@`. Consecutive `@@ TEXT`
//! lines are nested anchors, and a unified `@@ -a,b +c,d @@ TEXT` header is read as `@@ TEXT`.
//! Pure; no I/O, no panics.

use super::text::{chomp_cr, shown, trim};
use super::unified::unified_range_tail;
use super::{FilePatch, Hunk, HunkLine, ParseError};

const BEGIN: &[u8] = b"*** Begin Patch";
const END: &[u8] = b"*** End Patch";
const EOF_MARKER: &[u8] = b"*** End of File";
const HEADERS: &str = "a Codex patch holds `*** Add File: PATH` (then `+` lines), `*** Delete File: PATH` \
                       and `*** Update File: PATH` (then an optional `*** Move to: PATH` and `@@` chunks \
                       of ' ', '-' and '+' lines, each optionally ending in `*** End of File`)";

fn err(line: usize, message: impl Into<String>, fix: impl Into<String>) -> ParseError {
    ParseError {
        line,
        message: message.into(),
        fix: fix.into(),
    }
}

/// Whether a trimmed first line opens a heredoc around a patch (`<<EOF`, `<<'EOF'`, `<<"EOF"`).
pub(super) fn is_heredoc(first: &[u8]) -> bool {
    matches!(first, b"<<EOF" | b"<<'EOF'" | b"<<\"EOF\"")
}

/// Whether `lines` open a Codex patch at their first non-blank line.
pub(super) fn detect(lines: &[&[u8]]) -> bool {
    let mut non_blank = lines.iter().map(|l| trim(l)).filter(|l| !l.is_empty());
    match non_blank.next() {
        Some(BEGIN) => true,
        Some(first) if is_heredoc(first) => non_blank.next() == Some(BEGIN),
        _ => false,
    }
}

/// The file sections of a Codex patch (which [`detect`] recognised).
pub(super) fn parse(raw: &[&[u8]]) -> Result<Vec<FilePatch>, ParseError> {
    let lines: Vec<&[u8]> = raw.iter().map(|l| chomp_cr(l)).collect();
    let blank = |i: &usize| trim(lines[*i]).is_empty();
    let mut first = (0..lines.len()).find(|i| !blank(i)).unwrap_or(0);
    let mut last = (0..lines.len()).rev().find(|i| !blank(i)).unwrap_or(0);
    if is_heredoc(trim(lines[first])) {
        first = (first + 1..lines.len())
            .find(|i| !blank(i))
            .unwrap_or(first);
        if trim(lines[last]).ends_with(b"EOF") && last > first {
            last = (first..last).rev().find(|i| !blank(i)).unwrap_or(first);
        }
    }
    if last <= first || trim(lines[last]) != END {
        return Err(err(
            last + 1,
            format!(
                "the Codex patch that starts at line {} does not end with `*** End Patch` \
                 (its last line is line {}: `{}`)",
                first + 1,
                last + 1,
                shown(lines[last], 60)
            ),
            "end the patch with a line `*** End Patch`",
        ));
    }
    let p = Parser {
        lines: &lines,
        end: last,
    };
    let mut files = Vec::new();
    let mut i = first + 1;
    loop {
        while i < p.end && trim(lines[i]).is_empty() {
            i += 1;
        }
        if i >= p.end {
            break;
        }
        let (file, next) = p.section(i)?;
        files.push(file);
        i = next;
    }
    if files.is_empty() {
        return Err(err(
            first + 1,
            format!("the Codex patch at line {} has no file section", first + 1),
            format!("put the changes between `*** Begin Patch` and `*** End Patch`: {HEADERS}"),
        ));
    }
    Ok(files)
}

struct Parser<'a> {
    lines: &'a [&'a [u8]],
    /// Index of the `*** End Patch` line.
    end: usize,
}

/// The path after a marker: trimmed; never empty, never with NUL.
fn path(line: usize, marker: &str, rest: &[u8]) -> Result<Vec<u8>, ParseError> {
    let rest = trim(rest);
    if rest.is_empty() {
        return Err(err(
            line,
            format!("line {line}: `{marker}` names no file"),
            format!("write the path after it: `{marker} src/main.rs`"),
        ));
    }
    if rest.contains(&0) {
        return Err(err(
            line,
            format!("line {line}: the path after `{marker}` holds a NUL byte"),
            "name the file by its real path",
        ));
    }
    Ok(rest.to_vec())
}

impl Parser<'_> {
    fn section(&self, i: usize) -> Result<(FilePatch, usize), ParseError> {
        let line = trim(self.lines[i]);
        let n = i + 1;
        let file = |old_path: Option<Vec<u8>>, new_path: Option<Vec<u8>>, hunks| FilePatch {
            line: n,
            renamed: matches!((&old_path, &new_path), (Some(a), Some(b)) if a != b),
            old_path,
            new_path,
            new_mode: None,
            hunks,
            binary: false,
        };
        if let Some(rest) = line.strip_prefix(b"*** Add File:") {
            let p = path(n, "*** Add File:", rest)?;
            let mut j = i + 1;
            let mut added = Vec::new();
            while j < self.end
                && let Some(content) = self.lines[j].strip_prefix(b"+")
            {
                added.push(HunkLine::Add(content.to_vec()));
                j += 1;
            }
            let hunks = if added.is_empty() {
                Vec::new()
            } else {
                vec![chunk(i + 2, Vec::new(), added, false)]
            };
            return Ok((file(None, Some(p), hunks), j));
        }
        if let Some(rest) = line.strip_prefix(b"*** Delete File:") {
            let p = path(n, "*** Delete File:", rest)?;
            return Ok((file(Some(p), None, Vec::new()), i + 1));
        }
        if let Some(rest) = line.strip_prefix(b"*** Update File:") {
            let p = path(n, "*** Update File:", rest)?;
            let mut j = i + 1;
            let mut to = None;
            if j < self.end
                && let Some(rest) = trim(self.lines[j]).strip_prefix(b"*** Move to:")
            {
                to = Some(path(j + 1, "*** Move to:", rest)?);
                j += 1;
            }
            let (hunks, next) = self.chunks(j)?;
            if hunks.is_empty() {
                return Err(err(
                    n,
                    format!(
                        "line {n}: `*** Update File: {}` has no chunk",
                        shown(&p, 80)
                    ),
                    "give the changes as `@@` chunks of ' ' (context), '-' (remove) and '+' (add) \
                     lines; to move a file unchanged use `quill transfer SRC DEST --move`",
                ));
            }
            let new = to.unwrap_or_else(|| p.clone());
            return Ok((file(Some(p), Some(new), hunks), next));
        }
        let message = if line.starts_with(b"***") {
            format!("line {n}: `{}` is not a Codex patch line", shown(line, 60))
        } else {
            format!("line {n}: `{}` is not a file header", shown(line, 60))
        };
        Err(err(n, message, HEADERS))
    }

    /// The chunks of an update from line `i`, and the line after them.
    fn chunks(&self, mut i: usize) -> Result<(Vec<Hunk>, usize), ParseError> {
        let mut hunks = Vec::new();
        loop {
            while i < self.end && trim(self.lines[i]).is_empty() {
                i += 1;
            }
            if i >= self.end {
                return Ok((hunks, i));
            }
            let line = self.lines[i];
            if trim(line) == EOF_MARKER {
                return Err(err(
                    i + 1,
                    format!("line {}: `*** End of File` ends no chunk", i + 1),
                    "put `*** End of File` right after the last line of the chunk that must end the file",
                ));
            }
            if line.starts_with(b"*") {
                return Ok((hunks, i));
            }
            let (hunk, next) = self.chunk(i)?;
            hunks.push(hunk);
            i = next;
        }
    }

    /// One chunk starting at line `i` (its `@@` lines, if any, then its lines).
    fn chunk(&self, start: usize) -> Result<(Hunk, usize), ParseError> {
        let mut i = start;
        let mut anchors = Vec::new();
        while i < self.end
            && let Some(text) = self.lines[i].strip_prefix(b"@@")
        {
            let text = unified_range_tail(trim(text)).unwrap_or(text);
            let text = text.strip_prefix(b" ").unwrap_or(text);
            if !trim(text).is_empty() {
                anchors.push(text.to_vec());
            }
            i += 1;
        }
        let mut lines = Vec::new();
        let mut bare_empty = 0;
        let mut end_of_file = false;
        while i < self.end {
            let line = self.lines[i];
            let parsed = match line.split_first() {
                None => Some(HunkLine::Context(Vec::new())),
                Some((b' ', rest)) => Some(HunkLine::Context(rest.to_vec())),
                Some((b'-', rest)) => Some(HunkLine::Remove(rest.to_vec())),
                Some((b'+', rest)) => Some(HunkLine::Add(rest.to_vec())),
                Some(_) => None,
            };
            if let Some(parsed) = parsed {
                bare_empty = if line.is_empty() { bare_empty + 1 } else { 0 };
                lines.push(parsed);
                i += 1;
                continue;
            }
            if trim(line) == EOF_MARKER {
                end_of_file = true;
                i += 1;
                break;
            }
            if line.starts_with(b"@@") || line.starts_with(b"*") {
                break;
            }
            return Err(err(
                i + 1,
                format!(
                    "line {} (`{}`) in an update chunk has no prefix",
                    i + 1,
                    shown(line, 60)
                ),
                "start each chunk line with ' ' (context), '-' (remove) or '+' (add)",
            ));
        }
        // Blank lines that end a chunk separate it from what follows (Codex retries without
        // them); before `*** End of File` they are the file's last lines.
        if !end_of_file {
            lines.truncate(lines.len() - bare_empty);
        }
        if lines.is_empty() {
            return Err(err(
                start + 1,
                format!("the chunk at line {} has no lines", start + 1),
                "follow `@@` with the chunk's ' ' (context), '-' (remove) and '+' (add) lines",
            ));
        }
        Ok((chunk(start + 1, anchors, lines, end_of_file), i))
    }
}

fn chunk(line: usize, anchors: Vec<Vec<u8>>, lines: Vec<HunkLine>, end_of_file: bool) -> Hunk {
    Hunk {
        line,
        old_start: None,
        anchors,
        lines,
        old_no_eol: false,
        new_no_eol: false,
        end_of_file,
    }
}
