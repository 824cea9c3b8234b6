//! Applying one file's hunks to its bytes: each hunk placed at or after where the previous one
//! ended (unified: the exact match nearest its line-number hint; Codex: after its anchors, and
//! only a unique match when it has none), then the new body built with every byte outside the
//! replaced lines copied through. A CRLF file takes an LF hunk (its added lines get `\r\n`), a
//! BOM stays, a missing final newline is honoured as the hunk states it (or kept when the hunk
//! does not know of it). The fuzzy fallback is `fuzzy`, the miss diagnosis `miss`. Pure; no I/O,
//! no panics.

use super::fuzzy;
use super::locate::{Body, Found, Pass};
use super::miss;
use super::text::{BOM, body_lines};
use super::{Applied, ApplyOptions, Hunk, HunkError, HunkFailure, HunkLine, LineSpan};

/// Where one hunk goes and what replaces it.
struct Placement {
    /// The body bytes it replaces.
    start_byte: usize,
    end_byte: usize,
    replacement: Vec<u8>,
    /// The replacement opens with a line break ending the file's last line, which had none.
    lead_break: bool,
    /// Lines of the new side (the replacement's lines).
    new_lines: usize,
    /// The body line after the replaced lines: where the next hunk is sought from.
    cursor: usize,
    /// The body line where the replaced lines start.
    start_line: usize,
    fuzzy: bool,
}

pub(super) fn apply(
    bytes: &[u8],
    hunks: &[Hunk],
    opts: &ApplyOptions,
) -> Result<Applied, Vec<HunkFailure>> {
    let body = Body {
        bytes,
        lines: body_lines(bytes),
    };
    let mut cursor = 0;
    // Unified: how far the last placed hunk landed from the line its header gives (GNU patch's
    // offset), so that later hints follow a file that gained or lost lines above them.
    let mut offset: isize = 0;
    let mut placements = Vec::new();
    let mut failures = Vec::new();
    for (hunk_index, hunk) in hunks.iter().enumerate() {
        match place(&body, hunk, cursor, offset, opts) {
            Ok(p) => {
                cursor = p.cursor;
                if let Some(start) = hunk.old_start
                    && has_old_side(hunk)
                {
                    offset = signed(p.start_line) - signed(start.saturating_sub(1));
                }
                placements.push(p);
            }
            Err(error) => failures.push(HunkFailure {
                hunk_index,
                line: hunk.line,
                error,
            }),
        }
    }
    if !failures.is_empty() {
        return Err(failures);
    }
    Ok(build(&body, &placements))
}

fn signed(n: usize) -> isize {
    isize::try_from(n).unwrap_or(isize::MAX)
}

fn has_old_side(hunk: &Hunk) -> bool {
    hunk.lines.iter().any(|l| !matches!(l, HunkLine::Add(_)))
}

/// The old side's lines, in order.
fn old_side(hunk: &Hunk) -> Vec<&[u8]> {
    hunk.lines
        .iter()
        .filter_map(|l| match l {
            HunkLine::Context(c) | HunkLine::Remove(c) => Some(c.as_slice()),
            HunkLine::Add(_) => None,
        })
        .collect()
}

fn place(
    body: &Body,
    hunk: &Hunk,
    cursor: usize,
    offset: isize,
    opts: &ApplyOptions,
) -> Result<Placement, HunkError> {
    let n = body.lines.len();
    let mut from = cursor;
    let mut last_anchor = None;
    for anchor in &hunk.anchors {
        let Some(i) = body.anchor(anchor, from) else {
            return Err(HunkError::AnchorNotFound {
                anchor: String::from_utf8_lossy(anchor).into_owned(),
            });
        };
        last_anchor = Some(i);
        from = i + 1;
    }
    let seek_from = last_anchor.unwrap_or(cursor);
    let old = old_side(hunk);

    if old.is_empty() {
        // Unified: after line `old_start` (the one case a line number places text, and only
        // safe when the caller knows the file is the one the patch was made from). Codex:
        // after the last anchor, else at the end, as Codex appends.
        let pos = if hunk.end_of_file {
            n
        } else if let Some(start) = hunk.old_start {
            let pos = usize::try_from(signed(start).saturating_add(offset)).unwrap_or(usize::MAX);
            if pos > n || pos < cursor {
                return Err(miss::insertion_out_of_range(body, pos, cursor));
            }
            pos
        } else {
            last_anchor.map_or(n, |i| i + 1)
        };
        return Ok(insertion(body, hunk, pos));
    }

    let passes: &[Pass] = if body.has_crlf() {
        &[Pass::Exact, Pass::Crlf]
    } else {
        &[Pass::Exact]
    };
    for &pass in passes {
        let candidates = body.candidates(&old, seek_from, pass);
        if candidates.is_empty() {
            continue;
        }
        let valid: Vec<Found> = candidates
            .into_iter()
            .filter(|f| ends_right(body, hunk, f.start + old.len()))
            .collect();
        let found = match (hunk.old_start, valid.as_slice()) {
            (_, []) => return Err(HunkError::NotAtEnd),
            (Some(start), _) => nearest(
                &valid,
                signed(start.saturating_sub(1)).saturating_add(offset),
            ),
            (None, [one]) => *one,
            (None, [first, ..]) if last_anchor.is_some() => *first,
            // Codex takes the first of several matches. quill does not guess: a hunk an agent
            // got slightly wrong must never change a place it did not mean, so several matches
            // with nothing (no line number, no `@@` anchor) to tell them apart is an error.
            (None, many) => {
                return Err(HunkError::Ambiguous {
                    count: many.len(),
                    lines: many
                        .iter()
                        .take(AMBIGUOUS_MAX_LINES)
                        .map(|f| f.start + 1)
                        .collect(),
                });
            }
        };
        return Ok(replacement(body, hunk, old.len(), found));
    }

    if opts.fuzzy
        && let Some(f) = fuzzy::locate(body, hunk, seek_from)?
    {
        if !ends_right(body, hunk, f.first_line + f.line_count) {
            return Err(HunkError::NotAtEnd);
        }
        return Ok(Placement {
            start_byte: f.start_byte,
            end_byte: f.end_byte,
            new_lines: count_lines(&f.replacement),
            replacement: f.replacement,
            lead_break: false,
            cursor: f.first_line + f.line_count,
            start_line: f.first_line,
            fuzzy: true,
        });
    }
    Err(miss::diagnose(body, hunk, &old, seek_from, opts.fuzzy))
}

/// How many occurrence lines an `Ambiguous` error lists.
const AMBIGUOUS_MAX_LINES: usize = 20;

/// `\ No newline` on the old side and `*** End of File` need the match to end the file.
fn ends_right(body: &Body, hunk: &Hunk, end_line: usize) -> bool {
    let at_end = end_line == body.lines.len();
    if hunk.end_of_file && !at_end {
        return false;
    }
    !hunk.old_no_eol || (at_end && body.unterminated())
}

/// The candidate nearest to `hint`; of two as near, the earlier.
fn nearest(valid: &[Found], hint: isize) -> Found {
    let mut best = valid[0];
    for f in &valid[1..] {
        if (signed(f.start) - hint).unsigned_abs() < (signed(best.start) - hint).unsigned_abs() {
            best = *f;
        }
    }
    best
}

/// The line terminator an added line gets: the file's `\r\n` when the hunk matched a CRLF
/// file through the CRLF pass (and the line has no `\r` of its own).
fn add_term(content: &[u8], crlf: bool) -> &'static [u8] {
    if crlf && !content.ends_with(b"\r") {
        b"\r\n"
    } else {
        b"\n"
    }
}

/// Whether the new side ends without a line break when the replaced lines end the file:
/// as the hunk says when it knows the file's last line lacks one (or the file has one),
/// else as the file is.
fn drops_final_break(body: &Body, hunk: &Hunk, takes_last_line: bool) -> bool {
    if body.unterminated() && takes_last_line {
        !hunk.old_no_eol || hunk.new_no_eol
    } else {
        hunk.new_no_eol
    }
}

fn render(lines: &[(&[u8], &'static [u8])], drop_final_break: bool) -> Vec<u8> {
    let mut out = Vec::new();
    for (i, (content, term)) in lines.iter().enumerate() {
        out.extend_from_slice(content);
        if !(drop_final_break && i + 1 == lines.len()) {
            out.extend_from_slice(term);
        }
    }
    out
}

/// The hunk's old side matched at `found`: its new side, context lines as the file has them.
fn replacement(body: &Body, hunk: &Hunk, old_len: usize, found: Found) -> Placement {
    let s = found.start;
    let bom = if found.bom_stripped { BOM.len() } else { 0 };
    let mut new: Vec<(&[u8], &'static [u8])> = Vec::new();
    let mut k = s;
    for line in &hunk.lines {
        match line {
            HunkLine::Context(want) => {
                let c = body.content(k);
                let c = if k == 0 { &c[bom.min(c.len())..] } else { c };
                // Through the CRLF pass the file's `\r` is part of the line break, which a
                // last line may lose.
                // A last line without a break that lines now follow gets the hunk's.
                let unterminated = body.lines[k].end == body.lines[k].content_end;
                match c.strip_suffix(b"\r") {
                    Some(bare) if found.crlf && !want.ends_with(b"\r") => new.push((bare, b"\r\n")),
                    _ if unterminated && found.crlf => new.push((c, b"\r\n")),
                    _ => new.push((c, b"\n")),
                }
                k += 1;
            }
            HunkLine::Remove(_) => k += 1,
            HunkLine::Add(c) => new.push((c, add_term(c, found.crlf))),
        }
    }
    let end_line = s + old_len;
    let at_end = end_line == body.lines.len();
    let drop = at_end && drops_final_break(body, hunk, true);
    let start_byte = body.lines[s].start + bom;
    Placement {
        start_byte,
        end_byte: body.lines[end_line - 1].end,
        new_lines: new.len(),
        replacement: render(&new, drop),
        lead_break: false,
        cursor: end_line,
        start_line: s,
        fuzzy: false,
    }
}

/// A hunk with no old side, inserted before body line `pos` (at the end when `pos` is the
/// line count; after a BOM at the top).
fn insertion(body: &Body, hunk: &Hunk, pos: usize) -> Placement {
    let n = body.lines.len();
    let mut start_byte = body.lines.get(pos).map_or(body.bytes.len(), |l| l.start);
    if pos == 0 && body.has_bom() {
        start_byte = BOM.len();
    }
    // The added lines end as the nearest line with a break ends: the one before, else the
    // one before that (the one before may be a last line without a break), else the next.
    let crlf_line = |i: usize| {
        body.lines
            .get(i)
            .filter(|l| l.end > l.content_end)
            .map(|_| body.content(i).ends_with(b"\r"))
    };
    let crlf = [pos.checked_sub(1), pos.checked_sub(2), Some(pos)]
        .into_iter()
        .flatten()
        .find_map(crlf_line)
        .unwrap_or(false);
    let new: Vec<(&[u8], &'static [u8])> = hunk
        .lines
        .iter()
        .filter_map(|l| match l {
            HunkLine::Add(c) => Some((c.as_slice(), add_term(c, crlf))),
            _ => None,
        })
        .collect();
    let at_end = pos == n;
    let lead_break = at_end && body.unterminated() && !new.is_empty();
    let drop = at_end && drops_final_break(body, hunk, lead_break);
    let mut replacement = match (lead_break, crlf) {
        (false, _) => Vec::new(),
        (true, false) => b"\n".to_vec(),
        (true, true) => b"\r\n".to_vec(),
    };
    replacement.extend(render(&new, drop));
    Placement {
        start_byte,
        end_byte: start_byte,
        new_lines: new.len(),
        replacement,
        lead_break,
        cursor: pos,
        start_line: pos,
        fuzzy: false,
    }
}

fn count_lines(text: &[u8]) -> usize {
    let breaks = memchr::memchr_iter(b'\n', text).count();
    breaks + usize::from(!text.is_empty() && !text.ends_with(b"\n"))
}

fn build(body: &Body, placements: &[Placement]) -> Applied {
    let bytes = body.bytes;
    let mut out = Vec::with_capacity(bytes.len());
    let mut spans = Vec::with_capacity(placements.len());
    let mut at = 0;
    let mut breaks = 0;
    for p in placements {
        let start = p.start_byte.clamp(at, bytes.len());
        let kept = &bytes[at..start];
        breaks += memchr::memchr_iter(b'\n', kept).count();
        out.extend_from_slice(kept);
        let start_line = breaks + 1 + usize::from(p.lead_break);
        spans.push(LineSpan {
            start_line,
            end_line: start_line + p.new_lines - 1,
        });
        breaks += memchr::memchr_iter(b'\n', &p.replacement).count();
        out.extend_from_slice(&p.replacement);
        at = p.end_byte.clamp(start, bytes.len());
    }
    out.extend_from_slice(&bytes[at..]);
    Applied {
        new_body: out,
        spans,
        matched_fuzzily: placements.iter().any(|p| p.fuzzy),
    }
}
