//! The `window` of a miss: whole, lossy-decoded lines of the file around the line the
//! difference points at, no further than two lines beyond the candidate passage, and at most
//! [`WINDOW_MAX_LINES`] lines and [`WINDOW_MAX_BYTES`] bytes. Lines are never cut: when the
//! focus line alone is over the byte cap there is no window. It must not choose the
//! candidate, only show it.

use super::lines::{fline_at, locate, lossy};
use crate::edit::miss::{MissWindow, WINDOW_MAX_BYTES, WINDOW_MAX_LINES};

/// Lines of context kept on each side of the candidate passage.
const WINDOW_CONTEXT: usize = 2;

/// Lines of `text` as a read shows them (the empty "line" after a final newline is none).
fn count_shown_lines(text: &[u8]) -> usize {
    let n = memchr::memchr_iter(b'\n', text).count();
    if text.is_empty() || text.last() == Some(&b'\n') {
        n
    } else {
        n + 1
    }
}

/// The file's first lines, when nothing better can be shown.
pub(super) fn head_window(text: &[u8]) -> Option<MissWindow> {
    window_at(text, 0, 0)
}

/// The window around the 0-based lines `first..=last` of `text`, focused on the first.
pub(crate) fn window_at(text: &[u8], first: usize, last: usize) -> Option<MissWindow> {
    window_around(text, (0, 0), (first, last), first, count_shown_lines(text))
}

/// Whole lines around `focus` within `[range.0 - context, range.1 + context]`, at most
/// [`WINDOW_MAX_LINES`] lines and [`WINDOW_MAX_BYTES`] bytes; `None` when even the focus
/// line does not fit.
pub(super) fn window_around(
    text: &[u8],
    hint: (usize, usize),
    range: (usize, usize),
    focus: usize,
    shown_lines: usize,
) -> Option<MissWindow> {
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
    Some(MissWindow {
        start_line: a + 1,
        end_line: b + 1,
        text: out,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `n` lines `"line {i}\n"` (0-based i), each padded to `width` bytes with its newline.
    fn numbered(n: usize, width: usize) -> String {
        (0..n)
            .map(|i| {
                let l = format!("line {i}");
                format!("{l}{}\n", "-".repeat(width.saturating_sub(l.len() + 1)))
            })
            .collect()
    }

    fn lines_of(w: &MissWindow) -> Vec<&str> {
        w.text.split_inclusive('\n').collect()
    }

    #[test]
    fn two_lines_of_context_around_the_candidate() {
        let text = numbered(30, 0);
        let w = window_around(text.as_bytes(), (0, 0), (10, 12), 11, 30).unwrap();
        assert_eq!((w.start_line, w.end_line), (9, 15));
        assert_eq!(lines_of(&w).first(), Some(&"line 8\n"));
        assert_eq!(lines_of(&w).last(), Some(&"line 14\n"));
        assert_eq!(lines_of(&w).len(), 7);
        // Clipped at the start and at the end of the file.
        let w = window_around(text.as_bytes(), (0, 0), (0, 0), 0, 30).unwrap();
        assert_eq!((w.start_line, w.end_line), (1, 3));
        // Walking back from a hint on the last line (line 29 starts at byte 70 + 19 * 8).
        let w = window_around(text.as_bytes(), (29, 222), (29, 35), 29, 30).unwrap();
        assert_eq!((w.start_line, w.end_line), (28, 30));
        assert_eq!(w.text, "line 27\nline 28\nline 29\n");
    }

    #[test]
    fn at_most_sixteen_lines_balanced_around_the_focus() {
        assert_eq!(WINDOW_MAX_LINES, 16);
        let text = numbered(100, 0);
        let w = window_around(text.as_bytes(), (0, 0), (0, 99), 50, 100).unwrap();
        assert_eq!(w.end_line - w.start_line + 1, 16);
        assert_eq!(lines_of(&w).len(), 16);
        // It grows below first, then above: 8 lines after the focus, 7 before.
        assert_eq!((w.start_line, w.end_line), (51 - 7, 51 + 8));
        // Near the file's start it cannot grow up, so it grows down instead.
        let w = window_around(text.as_bytes(), (0, 0), (0, 99), 1, 100).unwrap();
        assert_eq!((w.start_line, w.end_line), (1, 16));
    }

    #[test]
    fn at_most_two_kib_of_whole_lines() {
        assert_eq!(WINDOW_MAX_BYTES, 2048);
        // 300-byte lines: six fit (1800 bytes), a seventh would not (2100).
        let text = numbered(40, 300);
        let w = window_around(text.as_bytes(), (0, 0), (0, 39), 20, 40).unwrap();
        assert_eq!(lines_of(&w).len(), 6);
        assert_eq!(w.text.len(), 1800);
        assert!(
            lines_of(&w)
                .iter()
                .all(|l| l.len() == 300 && l.ends_with('\n'))
        );
        assert!(lines_of(&w).contains(&&*format!("line 20{}\n", "-".repeat(292))));

        // A line of exactly 2048 bytes (newline included) is shown alone; one more byte is not.
        let text = format!("a\n{}\nb\n", "x".repeat(2047));
        let w = window_around(text.as_bytes(), (0, 0), (0, 2), 1, 3).unwrap();
        assert_eq!((w.start_line, w.end_line, w.text.len()), (2, 2, 2048));
        let text = format!("a\n{}\nb\n", "x".repeat(2048));
        assert!(window_around(text.as_bytes(), (0, 0), (0, 2), 1, 3).is_none());
        // An oversized neighbour is left out; the window stops growing that way.
        let text = format!("{}\nfocus\nnext\n", "h".repeat(3000));
        let w = window_around(text.as_bytes(), (0, 0), (0, 2), 1, 3).unwrap();
        assert_eq!((w.start_line, w.end_line), (2, 3));
        assert_eq!(w.text, "focus\nnext\n");
    }

    #[test]
    fn the_byte_cap_counts_decoded_text() {
        // 700 invalid bytes are 701 raw bytes but 2101 bytes once each is U+FFFD.
        let mut text = b"a\n".to_vec();
        text.extend(std::iter::repeat_n(0xFF, 700));
        text.extend(b"\nb\n");
        assert!(window_around(&text, (0, 0), (0, 2), 1, 3).is_none());
        let w = window_around(&text, (0, 0), (0, 2), 0, 3).unwrap();
        assert_eq!((w.start_line, w.end_line, w.text.as_str()), (1, 1, "a\n"));
    }

    #[test]
    fn line_endings_are_kept_as_they_are() {
        let text = b"a\r\nb\nc\r\nd";
        let w = window_around(text, (2, 5), (2, 2), 2, 4).unwrap();
        assert_eq!((w.start_line, w.end_line), (1, 4));
        assert_eq!(w.text, "a\r\nb\nc\r\nd");
    }

    #[test]
    fn focus_and_range_are_clamped_to_the_file() {
        let text = b"a\nb\nc\n";
        // shown_lines excludes the empty "line" after the final newline.
        let w = window_around(text, (0, 0), (1, 9), 9, 3).unwrap();
        assert_eq!(
            (w.start_line, w.end_line, w.text.as_str()),
            (1, 3, "a\nb\nc\n")
        );
        // Outside the candidate range, the focus is pulled into it.
        let text = numbered(30, 0);
        let w = window_around(text.as_bytes(), (0, 0), (20, 20), 2, 30).unwrap();
        assert_eq!((w.start_line, w.end_line), (19, 23));
        // An empty file has nothing to show.
        assert!(window_around(b"", (0, 0), (0, 0), 0, 0).is_none());
    }
}
