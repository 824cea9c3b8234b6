//! The `window` of a miss: whole, lossy-decoded lines of the file around the line the
//! difference points at, no further than two lines beyond the candidate passage, and at most
//! [`WINDOW_MAX_LINES`] lines and [`WINDOW_MAX_BYTES`] bytes. Lines are never cut: when the
//! focus line alone is over the byte cap there is no window. It must not choose the
//! candidate, only show it.

use super::lines::{fline_at, locate, lossy};
use crate::cmd::edit::miss::{WINDOW_MAX_BYTES, WINDOW_MAX_LINES, Window};

/// Lines of context kept on each side of the candidate passage.
const WINDOW_CONTEXT: usize = 2;

/// Whole lines around `focus` within `[range.0 - context, range.1 + context]`, at most
/// [`WINDOW_MAX_LINES`] lines and [`WINDOW_MAX_BYTES`] bytes; `None` when even the focus
/// line does not fit.
pub(super) fn window_around(
    text: &[u8],
    hint: (usize, usize),
    range: (usize, usize),
    focus: usize,
    shown_lines: usize,
) -> Option<Window> {
    let last = shown_lines.checked_sub(1)?;
    let lo = range.0.saturating_sub(WINDOW_CONTEXT).min(last);
    let hi = range.1.saturating_add(WINDOW_CONTEXT).min(last);
    let focus = focus.clamp(lo, hi.max(lo));
    let line_text = |li: usize| -> Option<String> {
        let f = fline_at(text, locate(text, hint, li)?)?;
        let end = f.next_start().unwrap_or(text.len());
        // Lossy decoding never shrinks, so an oversized raw line cannot fit (None stops
        // the window growing that way).
        if end - f.start > WINDOW_MAX_BYTES {
            return None;
        }
        Some(lossy(text.get(f.start..end)?))
    };
    let first = line_text(focus)?;
    if first.len() > WINDOW_MAX_BYTES {
        return None;
    }
    let (mut a, mut b) = (focus, focus);
    let mut above: Vec<String> = Vec::new();
    let mut below: Vec<String> = Vec::new();
    let mut size = first.len();
    let (mut up, mut down) = (true, true);
    while (up || down) && b - a + 1 < WINDOW_MAX_LINES {
        if down {
            match (b < hi).then(|| line_text(b + 1)).flatten() {
                Some(t) if size + t.len() <= WINDOW_MAX_BYTES => {
                    size += t.len();
                    below.push(t);
                    b += 1;
                }
                _ => down = false,
            }
        }
        if up && b - a + 1 < WINDOW_MAX_LINES {
            match (a > lo).then(|| line_text(a - 1)).flatten() {
                Some(t) if size + t.len() <= WINDOW_MAX_BYTES => {
                    size += t.len();
                    above.push(t);
                    a -= 1;
                }
                _ => up = false,
            }
        }
    }
    let mut out = String::with_capacity(size);
    for t in above.iter().rev() {
        out.push_str(t);
    }
    out.push_str(&first);
    for t in &below {
        out.push_str(t);
    }
    Some(Window {
        start_line: a + 1,
        end_line: b + 1,
        text: out,
    })
}
