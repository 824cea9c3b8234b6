//! Text paging as a pure, streaming state machine (docs/commands/read.md). `Pager` is fed a file's bytes
//! in chunks (any size, any boundaries) and, in one pass and bounded memory, counts every line,
//! classifies line endings, checks UTF-8 validity, and keeps only the lines of the requested
//! page: complete lines, stopping before the first line that would pass the byte budget, long
//! lines cut in the display with a marker. It never does I/O and never holds more than the page
//! plus one capped line.

use memchr::{memchr, memchr_iter};

/// What page to show.
#[derive(Debug, Clone, Copy)]
pub struct PageSpec {
    /// 1-based first line.
    pub offset: u64,
    pub limit: u64,
    pub max_bytes: u64,
    /// 0 = no cap.
    pub max_line_chars: u64,
}

/// One shown line: its display text (terminator included as in the file, cut if long).
#[derive(Debug, Clone, PartialEq)]
pub struct ShownLine {
    pub text: String,
    /// Characters removed from the display (0 when whole).
    pub cut_chars: u64,
}

/// Why the page ended before `limit` lines.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stop {
    /// The next line would pass the byte budget.
    Budget,
    /// The first line alone passes the budget: its number, the bytes its display needs (the
    /// `max_bytes` that shows it as it is now shown), its real size in the input, terminator
    /// included, and whether the display cut it (`max_line_chars`).
    FirstLineTooLong {
        line: u64,
        bytes: u64,
        line_bytes: u64,
        cut: bool,
    },
}

/// The result of a finished pass.
#[derive(Debug, Clone, PartialEq)]
pub struct Page {
    pub lines: Vec<ShownLine>,
    pub total_lines: u64,
    pub stop: Option<Stop>,
    pub line_ending: &'static str,
    /// The whole input was valid UTF-8.
    pub valid_utf8: bool,
    /// Some shown line had bytes replaced by U+FFFD.
    pub lossy_page: bool,
    pub size: u64,
}

pub struct Pager {
    spec: PageSpec,
    sep: Option<u8>,
    /// Number of the line being accumulated (1-based).
    line_no: u64,
    /// Bytes of the current line kept for display (capped).
    cur: Vec<u8>,
    /// Characters of the current line seen beyond the kept bytes.
    cur_extra_chars: u64,
    /// Bytes of the current line left out of the display.
    cur_extra_bytes: u64,
    /// The current line has been cut in the display.
    cur_cut: bool,
    /// The current line is longer than what is kept and the cap is a byte cap (no char cap).
    cur_overflow: bool,
    cur_chars: u64,
    /// Bytes of the current line in the input, all of them.
    cur_raw: u64,
    /// The display size of the current line when whole (no char cap), counted past the cap.
    cur_shown: LossyLen,
    lines: Vec<ShownLine>,
    page_bytes: u64,
    stop: Option<Stop>,
    collecting_done: bool,
    /// Undecided separator and the input so far ends in `\r`.
    pending_cr: bool,
    /// The last two bytes of the current line.
    tail: [u8; 2],
    seps: u64,
    cr: u64,
    crlf: u64,
    lf: u64,
    prev_cr: bool,
    last_byte: Option<u8>,
    size: u64,
    utf8_ok: bool,
    utf8_carry: Vec<u8>,
    lossy_page: bool,
}

const MARKER_MAX: usize = 48;

impl Pager {
    pub fn new(spec: PageSpec) -> Pager {
        Pager {
            spec,
            sep: None,
            line_no: 1,
            cur: Vec::new(),
            cur_extra_chars: 0,
            cur_extra_bytes: 0,
            cur_cut: false,
            cur_overflow: false,
            cur_chars: 0,
            cur_raw: 0,
            cur_shown: LossyLen::default(),
            lines: Vec::new(),
            page_bytes: 0,
            stop: None,
            collecting_done: spec.limit == 0,
            pending_cr: false,
            tail: [0; 2],
            seps: 0,
            cr: 0,
            crlf: 0,
            lf: 0,
            prev_cr: false,
            last_byte: None,
            size: 0,
            utf8_ok: true,
            utf8_carry: Vec::new(),
            lossy_page: false,
        }
    }

    /// Feed the next bytes of the input.
    pub fn feed(&mut self, chunk: &[u8]) {
        if chunk.is_empty() {
            return;
        }
        self.size += chunk.len() as u64;
        self.count_endings(chunk);
        self.check_utf8(chunk);
        self.last_byte = chunk.last().copied();
        self.split(chunk);
    }

    /// Split into lines. The separator is decided by the first line terminator: `\n` or
    /// `\r\n` make it `\n`; a `\r` followed by anything else makes it a classic Mac (CR)
    /// file whose lines end at `\r`. The decision depends on content only, never on chunking.
    fn split(&mut self, chunk: &[u8]) {
        let mut chunk = chunk;
        if self.sep.is_none() {
            if self.pending_cr {
                self.pending_cr = false;
                self.sep = Some(if chunk[0] == b'\n' { b'\n' } else { b'\r' });
                self.split_with(b"\r");
            } else {
                match memchr::memchr2(b'\r', b'\n', chunk) {
                    None => {
                        self.push_line_bytes(chunk);
                        return;
                    }
                    Some(i) if chunk[i] == b'\r' && i + 1 == chunk.len() => {
                        self.push_line_bytes(&chunk[..i]);
                        self.pending_cr = true;
                        return;
                    }
                    Some(i) => {
                        let cr_mode = chunk[i] == b'\r' && chunk[i + 1] != b'\n';
                        self.sep = Some(if cr_mode { b'\r' } else { b'\n' });
                        self.push_line_bytes(&chunk[..i]);
                        chunk = &chunk[i..];
                    }
                }
            }
        }
        self.split_with(chunk);
    }

    fn split_with(&mut self, chunk: &[u8]) {
        let sep = self.sep.unwrap_or(b'\n');
        let mut rest = chunk;
        while !self.collecting_done && !rest.is_empty() {
            match memchr(sep, rest) {
                Some(i) => {
                    self.push_line_bytes(&rest[..=i]);
                    self.end_line(true);
                    rest = &rest[i + 1..];
                }
                None => {
                    self.push_line_bytes(rest);
                    rest = &[];
                }
            }
        }
        if !rest.is_empty() {
            self.seps += memchr_iter(sep, rest).count() as u64;
        }
    }

    fn count_endings(&mut self, chunk: &[u8]) {
        let lf = memchr_iter(b'\n', chunk).count() as u64;
        self.lf += lf;
        let mut crs = memchr_iter(b'\r', chunk).peekable();
        if self.prev_cr && chunk.first() == Some(&b'\n') {
            self.crlf += 1;
        }
        if crs.peek().is_some() {
            for i in crs {
                self.cr += 1;
                if chunk.get(i + 1) == Some(&b'\n') {
                    self.crlf += 1;
                }
            }
        }
        self.prev_cr = chunk.last() == Some(&b'\r');
    }

    fn check_utf8(&mut self, chunk: &[u8]) {
        if !self.utf8_ok {
            return;
        }
        let mut data = chunk;
        if !self.utf8_carry.is_empty() {
            // A character split across chunks: complete it with the first bytes of this one.
            let carried = self.utf8_carry.len();
            let take = chunk.len().min(4 - carried.min(3));
            let mut buf = std::mem::take(&mut self.utf8_carry);
            buf.extend_from_slice(&chunk[..take]);
            match (1..=take).find(|&n| std::str::from_utf8(&buf[..carried + n]).is_ok()) {
                Some(used) => data = &chunk[used..],
                None => {
                    match std::str::from_utf8(&buf) {
                        Err(e) if e.error_len().is_none() && take == chunk.len() => {
                            self.utf8_carry = buf;
                        }
                        _ => self.utf8_ok = false,
                    }
                    return;
                }
            }
        }
        match std::str::from_utf8(data) {
            Ok(_) => {}
            Err(e) if e.error_len().is_none() => {
                self.utf8_carry = data[e.valid_up_to()..].to_vec();
            }
            Err(_) => self.utf8_ok = false,
        }
    }

    fn in_window(&self) -> bool {
        self.line_no >= self.spec.offset
    }

    /// Bytes kept for a line: enough for `max_line_chars` characters, or (no char cap) one
    /// byte more than the budget, which proves the line does not fit.
    fn keep_cap(&self) -> usize {
        if self.spec.max_line_chars > 0 {
            usize::MAX
        } else {
            (self.spec.max_bytes as usize).saturating_add(1)
        }
    }

    fn push_line_bytes(&mut self, bytes: &[u8]) {
        if !self.in_window() || bytes.is_empty() {
            return;
        }
        match bytes {
            [.., a, b] => self.tail = [*a, *b],
            [b] => self.tail = [self.tail[1], *b],
            [] => {}
        }
        self.cur_raw += bytes.len() as u64;
        let max_chars = self.spec.max_line_chars;
        if max_chars > 0 {
            if self.cur_cut {
                // Already cut: only count what the display leaves out.
                self.cur_extra_chars += count_chars(bytes);
                self.cur_extra_bytes += bytes.len() as u64;
                return;
            }
            // Keep bytes until a character beyond `max_chars` starts (a character's
            // continuation bytes stay with it, even across chunks), and never more than four
            // bytes a character: a line of stray continuation bytes (0x80-0xBF, common in
            // CP1252 text) starts no character at all and must not be kept whole.
            let byte_cap = (max_chars as usize).saturating_mul(4);
            let mut kept = bytes.len();
            for (i, &b) in bytes.iter().enumerate() {
                let over_chars = is_char_start(b) && self.cur_chars == max_chars;
                if over_chars || self.cur.len() + i >= byte_cap {
                    kept = i;
                    self.cur_cut = true;
                    self.cur_extra_chars += count_chars(&bytes[i..]);
                    self.cur_extra_bytes += (bytes.len() - i) as u64;
                    break;
                }
                if is_char_start(b) {
                    self.cur_chars += 1;
                }
            }
            self.cur.extend_from_slice(&bytes[..kept]);
        } else {
            self.cur_shown.feed(bytes);
            let cap = self.keep_cap();
            let room = cap.saturating_sub(self.cur.len());
            if bytes.len() > room {
                self.cur.extend_from_slice(&bytes[..room]);
                self.cur_overflow = true;
            } else {
                self.cur.extend_from_slice(bytes);
            }
        }
    }

    /// The current line is complete (`terminated`: it ended with the separator).
    fn end_line(&mut self, terminated: bool) {
        if terminated {
            self.seps += 1;
        }
        if self.in_window() && !self.collecting_done {
            self.finish_shown_line(terminated);
        }
        self.line_no += 1;
        self.cur.clear();
        self.cur_chars = 0;
        self.cur_raw = 0;
        self.cur_shown = LossyLen::default();
        self.cur_extra_chars = 0;
        self.cur_extra_bytes = 0;
        self.cur_cut = false;
        self.cur_overflow = false;
        self.tail = [0; 2];
    }

    fn finish_shown_line(&mut self, terminated: bool) {
        let first = self.lines.is_empty();
        if self.cur_overflow {
            self.stop = Some(if first {
                Stop::FirstLineTooLong {
                    line: self.line_no,
                    bytes: std::mem::take(&mut self.cur_shown).finish(),
                    line_bytes: self.cur_raw,
                    cut: false,
                }
            } else {
                Stop::Budget
            });
            self.collecting_done = true;
            return;
        }
        let extra = self.cur_extra_chars;
        let (body, term, term_cut): (&[u8], &[u8], u64) = if !self.cur_cut {
            (&self.cur, b"", 0)
        } else {
            // The line was cut: show its kept characters, the marker, then its terminator
            // (which is not a character of the line, whether or not it was kept).
            let sep = self.sep.unwrap_or(b'\n');
            let term: &[u8] = match (terminated, sep, self.tail) {
                (false, _, _) => b"",
                (true, b'\n', [b'\r', b'\n']) => b"\r\n",
                (true, b'\n', _) => b"\n",
                (true, _, _) => b"\r",
            };
            let in_cur = (0..=term.len())
                .rev()
                .find(|&k| self.cur.ends_with(&term[..k]))
                .unwrap_or(0);
            let term_cut = (term.len() - in_cur) as u64;
            (&self.cur[..self.cur.len() - in_cur], term, term_cut)
        };
        let mut cut = extra.saturating_sub(term_cut);
        let cut_bytes = self.cur_extra_bytes.saturating_sub(term_cut);
        let (mut text, lossy) = match String::from_utf8_lossy(body) {
            std::borrow::Cow::Borrowed(s) => (s.to_string(), false),
            std::borrow::Cow::Owned(s) => (s, true),
        };
        if cut > 0 {
            text.push_str(&format!("… [{cut} more chars]"));
        } else if cut_bytes > 0 {
            // Only stray bytes were left out: say how many.
            text.push_str(&format!("… [{cut_bytes} more bytes]"));
            cut = cut_bytes;
        }
        text.push_str(std::str::from_utf8(term).unwrap_or(""));
        let bytes = text.len() as u64;
        if self.page_bytes + bytes > self.spec.max_bytes {
            self.stop = Some(if first {
                Stop::FirstLineTooLong {
                    line: self.line_no,
                    bytes,
                    line_bytes: self.cur_raw,
                    cut: self.cur_cut,
                }
            } else {
                Stop::Budget
            });
            self.collecting_done = true;
            return;
        }
        debug_assert!(text.len() <= self.cur.len() * 3 + MARKER_MAX + 1);
        self.lossy_page |= lossy;
        self.page_bytes += bytes;
        self.lines.push(ShownLine {
            text,
            cut_chars: cut,
        });
        if self.lines.len() as u64 >= self.spec.limit {
            self.collecting_done = true;
        }
    }

    /// End of input: close the last line and report.
    pub fn finish(mut self) -> Page {
        if self.pending_cr {
            self.pending_cr = false;
            self.sep = Some(b'\n');
            self.split_with(b"\r");
        }
        let unterminated_tail = self.size > 0 && self.last_byte != self.sep;
        if unterminated_tail && !self.collecting_done {
            self.end_line(false);
        }
        if !self.utf8_carry.is_empty() {
            self.utf8_ok = false;
        }
        let total_lines = self.seps + u64::from(unterminated_tail);
        let lone_lf = self.lf - self.crlf;
        let lone_cr = self.cr - self.crlf;
        let kinds = [(self.crlf, "crlf"), (lone_lf, "lf"), (lone_cr, "cr")];
        let present: Vec<&str> = kinds
            .iter()
            .filter(|(n, _)| *n > 0)
            .map(|(_, k)| *k)
            .collect();
        let line_ending = match present.as_slice() {
            [] => "none",
            [one] => one,
            _ => "mixed",
        };
        Page {
            lines: self.lines,
            total_lines,
            stop: self.stop,
            line_ending,
            valid_utf8: self.utf8_ok,
            lossy_page: self.lossy_page,
            size: self.size,
        }
    }
}

/// The length of bytes decoded as lossy UTF-8 (each maximal invalid sequence becomes the
/// three bytes of U+FFFD, as `String::from_utf8_lossy` does), fed in pieces of any size.
#[derive(Debug, Default, Clone, PartialEq)]
struct LossyLen {
    /// The start of a character split across pieces (at most 3 bytes).
    carry: Vec<u8>,
    total: u64,
}

impl LossyLen {
    fn feed(&mut self, bytes: &[u8]) {
        let joined;
        let mut data = bytes;
        if !self.carry.is_empty() {
            let mut v = std::mem::take(&mut self.carry);
            v.extend_from_slice(bytes);
            joined = v;
            data = &joined;
        }
        loop {
            match std::str::from_utf8(data) {
                Ok(valid) => {
                    self.total += valid.len() as u64;
                    return;
                }
                Err(e) => {
                    self.total += e.valid_up_to() as u64;
                    match e.error_len() {
                        Some(bad) => {
                            self.total += 3;
                            data = &data[e.valid_up_to() + bad..];
                        }
                        None => {
                            // A character cut at the end of this piece: the next completes it.
                            self.carry = data[e.valid_up_to()..].to_vec();
                            return;
                        }
                    }
                }
            }
        }
    }

    fn finish(self) -> u64 {
        self.total + if self.carry.is_empty() { 0 } else { 3 }
    }
}

fn is_char_start(b: u8) -> bool {
    b & 0xC0 != 0x80
}

/// Characters in UTF-8-ish bytes (each byte that does not continue a sequence starts one).
fn count_chars(bytes: &[u8]) -> u64 {
    bytes.iter().filter(|&&b| is_char_start(b)).count() as u64
}

/// Page a whole in-memory text in one go (decoded UTF-16, notebooks, PDF text).
pub fn page_all(spec: PageSpec, bytes: &[u8]) -> Page {
    let mut p = Pager::new(spec);
    p.feed(bytes);
    p.finish()
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn spec(offset: u64, limit: u64) -> PageSpec {
        PageSpec {
            offset,
            limit,
            max_bytes: 51200,
            max_line_chars: 2000,
        }
    }

    fn texts(p: &Page) -> Vec<&str> {
        p.lines.iter().map(|l| l.text.as_str()).collect()
    }

    #[test]
    fn pages_and_counts() {
        let p = page_all(spec(2, 2), b"a\nb\nc\nd");
        assert_eq!(texts(&p), ["b\n", "c\n"]);
        assert_eq!(p.total_lines, 4);
        assert_eq!(p.line_ending, "lf");
    }

    #[test]
    fn empty_input() {
        let p = page_all(spec(1, 10), b"");
        assert_eq!(p.total_lines, 0);
        assert!(p.lines.is_empty());
        assert_eq!(p.line_ending, "none");
    }

    #[test]
    fn line_endings() {
        assert_eq!(page_all(spec(1, 9), b"a\r\nb\r\n").line_ending, "crlf");
        assert_eq!(page_all(spec(1, 9), b"a\r\nb\n").line_ending, "mixed");
        let cr = page_all(spec(1, 9), b"a\rb\rc");
        assert_eq!(cr.line_ending, "cr");
        assert_eq!(cr.total_lines, 3);
        assert_eq!(texts(&cr), ["a\r", "b\r", "c"]);
    }

    #[test]
    fn budget_stops_before_a_line_that_would_pass_it() {
        let s = PageSpec {
            max_bytes: 10,
            ..spec(1, 100)
        };
        let p = page_all(s, b"aaaa\nbbbb\ncccc\n");
        assert_eq!(texts(&p), ["aaaa\n", "bbbb\n"]);
        assert_eq!(p.stop, Some(Stop::Budget));
        assert_eq!(p.total_lines, 3);
    }

    #[test]
    fn first_line_too_long() {
        let s = PageSpec {
            max_bytes: 10,
            max_line_chars: 0,
            ..spec(1, 100)
        };
        let p = page_all(s, &[b'x'; 100]);
        assert!(matches!(
            p.stop,
            Some(Stop::FirstLineTooLong { line: 1, .. })
        ));
        assert!(p.lines.is_empty());
    }

    #[test]
    fn long_lines_are_cut_with_a_marker() {
        let s = PageSpec {
            max_line_chars: 5,
            ..spec(1, 100)
        };
        let p = page_all(s, "héllo wörld\nok\n".as_bytes());
        assert_eq!(texts(&p), ["héllo… [6 more chars]\n", "ok\n"]);
        assert_eq!(p.lines[0].cut_chars, 6);
    }

    #[test]
    fn utf8_validity_across_chunks() {
        let bytes = "aé€😀z".as_bytes();
        for split in 0..bytes.len() {
            let mut p = Pager::new(spec(1, 10));
            p.feed(&bytes[..split]);
            p.feed(&bytes[split..]);
            assert!(p.finish().valid_utf8, "split at {split}");
        }
        let mut p = Pager::new(spec(1, 10));
        p.feed(b"ok\xff\n");
        let page = p.finish();
        assert!(!page.valid_utf8);
        assert!(page.lossy_page);
    }

    #[test]
    fn crlf_split_across_chunks() {
        let mut p = Pager::new(spec(1, 10));
        p.feed(b"a\r");
        p.feed(b"\nb\r\n");
        let page = p.finish();
        assert_eq!(page.line_ending, "crlf");
        assert_eq!(texts(&page), ["a\r\n", "b\r\n"]);
    }

    #[test]
    fn stray_continuation_bytes_are_capped_too() {
        let s = PageSpec {
            max_line_chars: 5,
            ..spec(1, 10)
        };
        let mut data = vec![0x80u8; 100_000];
        data.push(b'\n');
        let p = page_all(s, &data);
        assert_eq!(p.lines.len(), 1);
        assert!(p.lines[0].text.len() < 100, "{}", p.lines[0].text.len());
        assert!(
            p.lines[0].text.ends_with("… [99980 more bytes]\n"),
            "{}",
            p.lines[0].text
        );
        assert!(p.lines[0].cut_chars > 0);
    }

    #[test]
    fn a_cut_never_separates_continuation_bytes_across_chunks() {
        let data = [
            10, 10, 10, 10, 10, 10, 10, 10, 10, 10, 13, 10, 10, 13, 13, 10, 32, 13, 32, 13, 169,
            13, 169,
        ];
        let s = PageSpec {
            offset: 3,
            limit: 12,
            max_bytes: 22,
            max_line_chars: 5,
        };
        let mut p = Pager::new(s);
        p.feed(&data[..22]);
        p.feed(&data[22..]);
        assert_eq!(p.finish(), page_all(s, &data));
    }

    #[test]
    fn a_line_too_long_reports_its_real_size() {
        let mut data = vec![b'x'; 100];
        data.extend_from_slice(b"\nok\n");
        let whole = PageSpec {
            max_bytes: 10,
            max_line_chars: 0,
            ..spec(1, 100)
        };
        let stop = Stop::FirstLineTooLong {
            line: 1,
            bytes: 101,
            line_bytes: 101,
            cut: false,
        };
        assert_eq!(page_all(whole, &data).stop, Some(stop));
        // Cut to 20 characters: 20 + "… [80 more chars]" (19 bytes) + "\n".
        let cut = PageSpec {
            max_line_chars: 20,
            ..whole
        };
        let stop = Stop::FirstLineTooLong {
            line: 1,
            bytes: 40,
            line_bytes: 101,
            cut: true,
        };
        assert_eq!(page_all(cut, &data).stop, Some(stop));
        for (spec, bytes) in [(whole, 101), (cut, 40)] {
            let p = page_all(
                PageSpec {
                    max_bytes: bytes,
                    ..spec
                },
                &data,
            );
            assert_eq!(p.lines.len(), 1, "{spec:?}");
            assert_eq!(p.lines[0].text.len() as u64, bytes);
        }
    }

    proptest! {
        #[test]
        fn lossy_len_is_the_length_of_the_lossy_text(
            data in proptest::collection::vec(prop_oneof![Just(b'a'), Just(0xC3u8), Just(0xA9u8), Just(0xE2u8), Just(0x82u8), Just(0xF0u8), Just(0x9Fu8), Just(0xFFu8)], 0..64),
            cuts in proptest::collection::vec(0usize..64, 0..6),
        ) {
            let mut cuts: Vec<usize> = cuts.into_iter().map(|c| c.min(data.len())).collect();
            cuts.sort();
            let mut n = LossyLen::default();
            let mut at = 0;
            for c in cuts { n.feed(&data[at..c]); at = c; }
            n.feed(&data[at..]);
            prop_assert_eq!(n.finish(), String::from_utf8_lossy(&data).len() as u64);
        }

        /// The size a too-long first line reports is a budget that shows it.
        #[test]
        fn the_reported_size_of_a_long_line_is_a_budget_that_fits(
            data in proptest::collection::vec(prop_oneof![Just(b'\n'), Just(b'a'), Just(0xC3u8), Just(0xA9u8), Just(0xFFu8)], 1..300),
            max_bytes in 1u64..40, max_line_chars in 0u64..30, offset in 1u64..4,
        ) {
            let s = PageSpec { offset, limit: 5, max_bytes, max_line_chars };
            if let Some(Stop::FirstLineTooLong { line, bytes, line_bytes, .. }) = page_all(s, &data).stop {
                prop_assert_eq!(line, offset);
                prop_assert!(line_bytes > 0);
                let p = page_all(PageSpec { max_bytes: bytes, ..s }, &data);
                prop_assert!(!p.lines.is_empty());
                prop_assert_eq!(p.lines[0].text.len() as u64, bytes);
            }
        }

        #[test]
        fn chunking_never_changes_the_page(
            data in proptest::collection::vec(prop_oneof![Just(b'\n'), Just(b'\r'), Just(b'a'), Just(0xC3u8), Just(0xA9u8), Just(b' ')], 0..300),
            cuts in proptest::collection::vec(0usize..300, 0..6),
            offset in 1u64..20, limit in 1u64..20, max_bytes in 1u64..200, max_line_chars in 0u64..20,
        ) {
            let s = PageSpec { offset, limit, max_bytes, max_line_chars };
            let whole = page_all(s, &data);
            let mut cuts: Vec<usize> = cuts.into_iter().map(|c| c.min(data.len())).collect();
            cuts.sort();
            let mut p = Pager::new(s);
            let mut at = 0;
            for c in cuts { p.feed(&data[at..c]); at = c; }
            p.feed(&data[at..]);
            prop_assert_eq!(p.finish(), whole.clone());
            prop_assert_eq!(whole.valid_utf8, std::str::from_utf8(&data).is_ok());
            // Uncut pages reproduce the file's lines exactly.
            if max_line_chars == 0 && whole.stop.is_none() && offset == 1 && std::str::from_utf8(&data).is_ok() {
                let joined: String = whole.lines.iter().map(|l| l.text.as_str()).collect();
                prop_assert!(std::str::from_utf8(&data).unwrap().starts_with(&joined));
            }
        }
    }
}
