//! The pure core of line-addressed edits (`quill edit --insert-after N`, `--lines A-B`;
//! docs/commands/edit.md, "Line-addressed edits"): on a decoded body it numbers the lines as
//! `read` does (the first line break decides the separator: `\n` and `\r\n` split at `\n`, a
//! lone `\r` splits at `\r`), checks the address against the line count, picks the line break
//! the new text is written with, and builds the new body — every byte outside the addressed
//! lines copied through. No I/O, no panics on any input.

use memchr::{memchr_iter, memchr2};

/// Where the new text goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Address {
    /// After line N (0: at the top; the line count: at the end).
    InsertAfter(usize),
    /// Lines A to B, 1-based and inclusive.
    Lines(usize, usize),
}

impl Address {
    /// The first and last line the address touches, for a read around them (an insertion
    /// touches the line it follows and the one after).
    pub(crate) fn around(self) -> (usize, usize) {
        match self {
            Address::InsertAfter(n) => (n.max(1), n + 1),
            Address::Lines(a, b) => (a.max(1), b.max(a).max(1)),
        }
    }

    /// The lines numbered, as `edit::outside::Outside::translate` takes them: `(A, B)`, or
    /// for an insertion after line N the point `(N + 1, N)`.
    pub(crate) fn numbered(self) -> (usize, usize) {
        match self {
            Address::InsertAfter(n) => (n + 1, n),
            Address::Lines(a, b) => (a, b),
        }
    }

    /// The same address with its lines moved to `to` (a `numbered` pair).
    pub(crate) fn moved(self, (first, last): (usize, usize)) -> Address {
        match self {
            Address::InsertAfter(_) => Address::InsertAfter(last),
            Address::Lines(..) => Address::Lines(first, last),
        }
    }
}

/// Why an address does not fit the body; each names the body's line count.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum RangeError {
    /// `--lines 0-B`: lines are numbered from 1.
    Zero { total: usize },
    /// `--lines A-B` with A > B.
    Reversed { total: usize },
    /// B, or N, past the last line.
    PastEnd { total: usize },
    /// `--insert-after N --new ''`: nothing to insert.
    NothingToInsert { total: usize },
}

/// What a line-addressed edit makes of a body.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct LinePlan {
    pub new_body: Vec<u8>,
    /// The bytes of lines A to B as they were, terminators included (empty for an insertion).
    pub replaced: Vec<u8>,
    /// The 1-based, inclusive lines of the new body that hold the new text; a deletion
    /// reports the line where the lines were (`start_line == end_line == A`), as an edit
    /// with an empty `new` does.
    pub start_line: usize,
    pub end_line: usize,
}

/// The separator `read` splits `body` at.
pub(crate) fn separator(body: &[u8]) -> u8 {
    match memchr2(b'\r', b'\n', body) {
        Some(i) if body[i] == b'\r' && body.get(i + 1).is_some_and(|&b| b != b'\n') => b'\r',
        _ => b'\n',
    }
}

/// How many lines `read` counts in `body` (a last line without a break counts).
pub(crate) fn count_lines(body: &[u8]) -> usize {
    let sep = separator(body);
    memchr_iter(sep, body).count() + usize::from(body.last().is_some_and(|&b| b != sep))
}

/// The byte offset where line `n` (1-based) starts; past the last line, the body's length.
fn line_start(body: &[u8], sep: u8, n: usize) -> usize {
    if n <= 1 {
        return 0;
    }
    memchr_iter(sep, body)
        .nth(n - 2)
        .map_or(body.len(), |i| i + 1)
}

/// The line break that ends line `n` (empty for a last line without one, or no such line).
fn terminator(body: &[u8], sep: u8, n: usize) -> &[u8] {
    let (start, end) = (line_start(body, sep, n), line_start(body, sep, n + 1));
    let line = &body[start..end];
    match line {
        [.., b'\r', b'\n'] if sep == b'\n' => b"\r\n",
        [.., last] if *last == sep => &line[line.len() - 1..],
        _ => b"",
    }
}

/// The line break the new text is written with: that of line `at` (the last line replaced,
/// the line inserted after, line 1 at the top), else — `at` is a last line without one — that
/// of the line above, else `\n`.
fn ending(body: &[u8], sep: u8, at: usize) -> &[u8] {
    let at = at.max(1);
    match terminator(body, sep, at) {
        [] if at > 1 => match terminator(body, sep, at - 1) {
            [] => b"\n",
            t => t,
        },
        [] => b"\n",
        t => t,
    }
}

/// Check `addr` against `total` lines.
pub(crate) fn check(addr: Address, total: usize, new_is_empty: bool) -> Result<(), RangeError> {
    match addr {
        Address::Lines(0, _) => Err(RangeError::Zero { total }),
        Address::Lines(a, b) if a > b => Err(RangeError::Reversed { total }),
        Address::Lines(_, b) if b > total => Err(RangeError::PastEnd { total }),
        Address::InsertAfter(n) if n > total => Err(RangeError::PastEnd { total }),
        Address::InsertAfter(_) if new_is_empty => Err(RangeError::NothingToInsert { total }),
        _ => Ok(()),
    }
}

/// `new` as lines of the file: when it has no `\r` at all and the file's break is not `\n`,
/// each `\n` becomes that break (as `edit` writes `new` in a CRLF file); then, unless
/// `keep_open`, a break is added when it does not end in one.
fn whole_lines(new: &[u8], ending: &[u8], sep: u8, keep_open: bool) -> Vec<u8> {
    let mut text = if ending != b"\n" && !new.contains(&b'\r') {
        let mut v = Vec::with_capacity(new.len() + new.len() / 8);
        for &b in new {
            if b == b'\n' {
                v.extend_from_slice(ending);
            } else {
                v.push(b);
            }
        }
        v
    } else {
        new.to_vec()
    };
    if !keep_open && text.last().is_some_and(|&b| b != sep) {
        text.extend_from_slice(ending);
    }
    text
}

/// Apply a line-addressed edit to `body`.
///
/// The new text is whole lines: a line break (the file's, see `ending`) is added when it
/// lacks one. One exception keeps a file that does not end in a line break that way: when the
/// new text becomes the file's end there, nothing is added to it — inserted after the last
/// line, the break goes between that line and the new text; replacing through the last
/// line, the new text is written as given; and deleting through it, the line above loses its
/// break.
pub(crate) fn apply(body: &[u8], addr: Address, new: &[u8]) -> Result<LinePlan, RangeError> {
    let sep = separator(body);
    let total = count_lines(body);
    check(addr, total, new.is_empty())?;
    // Lines `first..=last` go (none for an insertion: last = first - 1).
    let (first, last) = match addr {
        Address::InsertAfter(n) => (n + 1, n),
        Address::Lines(a, b) => (a, b),
    };
    let start = line_start(body, sep, first);
    let end = line_start(body, sep, last + 1);
    let replaced = body[start..end].to_vec();
    let open_end = last == total && body.last().is_some_and(|&b| b != sep);
    let ending = ending(body, sep, last.max(1));
    let mut out = Vec::with_capacity(body.len() + new.len() + 2);
    let text = whole_lines(new, ending, sep, open_end);
    match addr {
        Address::InsertAfter(_) if open_end => {
            out.extend_from_slice(body);
            out.extend_from_slice(ending);
        }
        Address::Lines(..) if open_end && text.is_empty() && first > 1 => {
            let above = terminator(body, sep, first - 1).len();
            out.extend_from_slice(&body[..start - above]);
        }
        _ => out.extend_from_slice(&body[..start]),
    }
    out.extend_from_slice(&text);
    out.extend_from_slice(&body[end..]);
    let lines =
        memchr_iter(sep, &text).count() + usize::from(text.last().is_some_and(|&b| b != sep));
    Ok(LinePlan {
        new_body: out,
        replaced,
        start_line: first,
        end_line: first + lines.max(1) - 1,
    })
}

#[cfg(test)]
mod proptests;

#[cfg(test)]
mod tests;
