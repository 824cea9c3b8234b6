//! Legacy encodings (windows-1251, ISO-8859-2, Shift_JIS, GBK, … — the WHATWG set of
//! `encoding_rs`): the conservative detection of a file that is not UTF-8 (chardetng, and only
//! when the bytes look like a legacy encoding rather than broken UTF-8), whole decoding for
//! display, and the edit codec. An edit is planned on the decoded text; `reencode` writes it
//! back by copying the original bytes of every line the edit left alone and encoding only the
//! changed part of the others, so every byte outside the change stays as it was, even bytes the
//! encoding cannot decode. Pure: no I/O, no panics on any input.

use std::ops::Range;
use std::time::{Duration, Instant};

use chardetng::{EncodingDetector, Iso2022JpDetection, Utf8Detection};
use encoding_rs::{EncoderResult, Encoding as Codec};
use similar::{Algorithm, DiffTag, capture_diff_slices_deadline};

/// Files above this size are never decoded with a detected encoding (they stay lossy UTF-8);
/// the same bound as every whole-file decoding of `read`.
pub const MAX_BYTES: u64 = 64 * 1024 * 1024;
/// How much of a file chardetng looks at.
const SAMPLE: usize = 1024 * 1024;
/// How long the line diff behind `reencode` may search for the smallest change.
const DIFF_DEADLINE: Duration = Duration::from_secs(1);

/// The legacy encoding of a whole file that is not UTF-8, or `None` to keep UTF-8 (lossy).
/// Conservative: valid UTF-8 (so plain ASCII), anything with a NUL byte, a file above
/// [`MAX_BYTES`], and text that is mostly UTF-8 with a few bad bytes are never re-detected;
/// a guess must decode the whole file without a single error.
pub fn detect(bytes: &[u8]) -> Option<&'static Codec> {
    if bytes.len() as u64 > MAX_BYTES
        || memchr::memchr(0, bytes).is_some()
        || std::str::from_utf8(bytes).is_ok()
    {
        return None;
    }
    let (mut multibyte, mut invalid) = (0usize, 0usize);
    for chunk in bytes.utf8_chunks() {
        multibyte += chunk.valid().chars().filter(|c| !c.is_ascii()).count();
        invalid += usize::from(!chunk.invalid().is_empty());
    }
    if multibyte >= invalid {
        return None;
    }
    let sample = &bytes[..bytes.len().min(SAMPLE)];
    let mut detector = EncodingDetector::new(Iso2022JpDetection::Deny);
    detector.feed(sample, sample.len() == bytes.len());
    let guess = detector.guess(None, Utf8Detection::Deny);
    if !editable(guess) {
        return None;
    }
    guess
        .decode_without_bom_handling_and_without_replacement(bytes)
        .map(|_| guess)
}

/// Whether quill reads and edits text in this encoding as a legacy one: an ASCII-compatible,
/// stateless encoding other than UTF-8 (so not UTF-16, ISO-2022-JP or the replacement one).
pub fn editable(codec: &'static Codec) -> bool {
    codec.is_ascii_compatible() && codec != encoding_rs::UTF_8 && codec != encoding_rs::ISO_2022_JP
}

/// The whole text, decoded; true when some bytes did not decode (shown as U+FFFD).
pub fn decode(bytes: &[u8], codec: &'static Codec) -> (String, bool) {
    let (text, lossy) = codec.decode_without_bom_handling(bytes);
    (text.into_owned(), lossy)
}

/// Why an edited text cannot be written back in its encoding.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EncodeError {
    /// The new text holds a character the encoding has no bytes for (its 1-based line in the
    /// edited text).
    Unencodable { ch: char, line: usize },
    /// The change touches a line whose bytes do not decode back to its text (its 1-based line
    /// in the old text), so where the change starts in the bytes is unknown.
    Unplaceable { line: usize },
}

/// The bytes of `new_text` in `codec`, given the file's `old_bytes` and their decoded
/// `old_text` (as [`decode`] gave it): lines the edit left alone keep their original bytes,
/// in the changed lines every character the edit kept keeps its bytes, and only what was
/// inserted is encoded. The result is checked to decode to `new_text`.
pub fn reencode(
    codec: &'static Codec,
    old_bytes: &[u8],
    old_text: &str,
    new_text: &str,
) -> Result<Vec<u8>, EncodeError> {
    let old_b = line_starts(old_bytes, b'\n');
    let old_t = line_starts(old_text.as_bytes(), b'\n');
    let new_t = line_starts(new_text.as_bytes(), b'\n');
    if !editable(codec) || old_b.len() != old_t.len() {
        return Err(EncodeError::Unplaceable { line: 1 });
    }
    let lines = |text: &str, starts: &[usize]| -> Vec<u64> {
        // Lines are compared by content; a hash keeps the diff cheap on long lines.
        starts
            .windows(2)
            .map(|w| fxhash(&text.as_bytes()[w[0]..w[1]]))
            .collect()
    };
    let (old_lines, new_lines) = (lines(old_text, &old_t), lines(new_text, &new_t));
    let sides = Sides {
        codec,
        old_bytes,
        old_text,
        new_text,
        old_b: &old_b,
        old_t: &old_t,
        new_t: &new_t,
    };
    let deadline = Instant::now() + DIFF_DEADLINE;
    let ops: Vec<_> =
        capture_diff_slices_deadline(Algorithm::Myers, &old_lines, &new_lines, Some(deadline))
            .iter()
            .map(|op| op.as_tag_tuple())
            .collect();
    let out = match sides.assemble(&ops) {
        Ok(out) => out,
        // The line diff may have split one change in two (a kept U+FFFD deleted in one hunk
        // and inserted in the next): once more as one hunk from the first changed line to
        // the last.
        Err(first) => {
            let (old_n, new_n) = (old_lines.len(), new_lines.len());
            let head = old_lines
                .iter()
                .zip(&new_lines)
                .take_while(|(a, b)| a == b)
                .count();
            let tail = old_lines[head..]
                .iter()
                .rev()
                .zip(new_lines[head..].iter().rev())
                .take_while(|(a, b)| a == b)
                .count();
            let ops = [
                (DiffTag::Equal, 0..head, 0..head),
                (DiffTag::Replace, head..old_n - tail, head..new_n - tail),
                (DiffTag::Equal, old_n - tail..old_n, new_n - tail..new_n),
            ];
            match sides.assemble(&ops) {
                Ok(out) => out,
                Err(EncodeError::Unencodable { ch, line }) if ch != char::REPLACEMENT_CHARACTER => {
                    return Err(EncodeError::Unencodable { ch, line });
                }
                Err(_) => return Err(first),
            }
        }
    };
    if codec.decode_without_bom_handling(&out).0 != new_text {
        return Err(EncodeError::Unplaceable {
            line: first_difference_line(old_text, new_text),
        });
    }
    Ok(out)
}

/// Both sides of a re-encoding, with their line starts (each ends with the length).
struct Sides<'a> {
    codec: &'static Codec,
    old_bytes: &'a [u8],
    old_text: &'a str,
    new_text: &'a str,
    old_b: &'a [usize],
    old_t: &'a [usize],
    new_t: &'a [usize],
}

impl Sides<'_> {
    /// The new bytes from a line diff: equal lines copied, the others spliced.
    fn assemble(
        &self,
        ops: &[(DiffTag, Range<usize>, Range<usize>)],
    ) -> Result<Vec<u8>, EncodeError> {
        let mut out = Vec::with_capacity(self.old_bytes.len() + self.new_text.len() / 4);
        let mut hunk: Option<(Range<usize>, Range<usize>)> = None;
        for (tag, o, n) in ops.iter().cloned() {
            if tag != DiffTag::Equal {
                hunk = Some(match hunk {
                    Some((ho, hn)) => (ho.start..o.end, hn.start..n.end),
                    None => (o, n),
                });
                continue;
            }
            if let Some((o, n)) = hunk.take() {
                self.splice(&mut out, o, n)?;
            }
            // Equal hashes: the texts must be equal too, or the line is rewritten.
            for (i, j) in o.zip(n) {
                if self.old_line(i) == self.new_line(j) {
                    out.extend_from_slice(&self.old_bytes[self.old_b[i]..self.old_b[i + 1]]);
                } else {
                    self.splice(&mut out, i..i + 1, j..j + 1)?;
                }
            }
        }
        if let Some((o, n)) = hunk {
            self.splice(&mut out, o, n)?;
        }
        Ok(out)
    }

    fn old_line(&self, i: usize) -> &str {
        &self.old_text[self.old_t[i]..self.old_t[i + 1]]
    }

    fn new_line(&self, j: usize) -> &str {
        &self.new_text[self.new_t[j]..self.new_t[j + 1]]
    }

    /// Old lines `o` become new lines `n`: a character diff of the two keeps the bytes of
    /// every character they share and encodes only the inserted ones.
    fn splice(
        &self,
        out: &mut Vec<u8>,
        o: Range<usize>,
        n: Range<usize>,
    ) -> Result<(), EncodeError> {
        let ob = &self.old_bytes[self.old_b[o.start]..self.old_b[o.end]];
        let ot: Vec<char> = self.old_text[self.old_t[o.start]..self.old_t[o.end]]
            .chars()
            .collect();
        let nt: Vec<char> = self.new_text[self.new_t[n.start]..self.new_t[n.end]]
            .chars()
            .collect();
        let unplaceable = EncodeError::Unplaceable { line: o.start + 1 };
        let deadline = Instant::now() + DIFF_DEADLINE;
        let mut at = 0;
        for op in capture_diff_slices_deadline(Algorithm::Myers, &ot, &nt, Some(deadline)) {
            let (tag, old, new) = op.as_tag_tuple();
            // The old characters of this op: their bytes are kept (equal) or skipped.
            let len = self
                .byte_len(&ot[old], &ob[at..])
                .ok_or_else(|| unplaceable.clone())?;
            if tag == DiffTag::Equal {
                out.extend_from_slice(&ob[at..at + len]);
            }
            at += len;
            if tag == DiffTag::Insert || tag == DiffTag::Replace {
                let inserted: String = nt[new.clone()].iter().collect();
                let encoded = encode(self.codec, &inserted).map_err(|(ch, offset)| {
                    let before = nt[..new.start].iter().filter(|&&c| c == '\n').count()
                        + inserted[..offset].matches('\n').count();
                    EncodeError::Unencodable {
                        ch,
                        line: n.start + 1 + before,
                    }
                })?;
                out.extend_from_slice(&encoded);
            }
        }
        if at == ob.len() {
            Ok(())
        } else {
            Err(unplaceable)
        }
    }

    /// How many of the bytes `ob` start with the characters `chars`: one byte a character in
    /// a single-byte encoding; else the bytes that decode to exactly those characters, fed one
    /// at a time (a character is out once its last byte is in). `None` when no prefix of the
    /// bytes decodes to them.
    fn byte_len(&self, chars: &[char], ob: &[u8]) -> Option<usize> {
        if self.codec.is_single_byte() {
            return (chars.len() <= ob.len()).then_some(chars.len());
        }
        if chars.is_empty() {
            return Some(0);
        }
        let mut decoder = self.codec.new_decoder_without_bom_handling();
        let mut got = String::new();
        let mut count = 0;
        for (k, byte) in ob.iter().enumerate() {
            let before = got.len();
            got.reserve(decoder.max_utf8_buffer_length(1).unwrap_or(16).max(16));
            let (_, read, _) =
                decoder.decode_to_string(std::slice::from_ref(byte), &mut got, false);
            if read != 1 {
                return None;
            }
            count += got[before..].chars().count();
            if count >= chars.len() {
                let same = count == chars.len() && got.chars().eq(chars.iter().copied());
                return same.then_some(k + 1);
            }
        }
        None
    }
}

/// `text` in `codec`, or the first character it has no bytes for and its byte offset.
pub fn encode(codec: &'static Codec, text: &str) -> Result<Vec<u8>, (char, usize)> {
    let mut encoder = codec.new_encoder();
    let mut out = Vec::new();
    let mut done = 0;
    loop {
        let rest = &text[done..];
        let need = encoder
            .max_buffer_length_from_utf8_without_replacement(rest.len())
            .unwrap_or(rest.len().saturating_mul(4))
            .max(16);
        out.reserve(need);
        let (result, read) =
            encoder.encode_from_utf8_to_vec_without_replacement(rest, &mut out, true);
        done += read;
        match result {
            EncoderResult::InputEmpty => return Ok(out),
            EncoderResult::OutputFull => continue,
            EncoderResult::Unmappable(ch) => return Err((ch, done - ch.len_utf8())),
        }
    }
}

/// Offsets where each line starts, then the length (a line ends after `sep`).
fn line_starts(bytes: &[u8], sep: u8) -> Vec<usize> {
    let mut v = Vec::with_capacity(bytes.len() / 32 + 2);
    v.push(0);
    v.extend(memchr::memchr_iter(sep, bytes).map(|i| i + 1));
    if v.last() != Some(&bytes.len()) {
        v.push(bytes.len());
    }
    v
}

/// Length in bytes of the longest common start of `a` and `b`, on a character boundary.
fn common_prefix(a: &str, b: &str) -> usize {
    a.char_indices()
        .zip(b.chars())
        .find(|((_, x), y)| x != y)
        .map_or(a.len().min(b.len()), |((i, _), _)| i)
        .min(a.len().min(b.len()))
}

fn first_difference_line(a: &str, b: &str) -> usize {
    let p = common_prefix(a, b);
    memchr::memchr_iter(b'\n', &a.as_bytes()[..p]).count() + 1
}

/// FNV-1a: a line's identity for the diff (collisions are caught by comparing the text).
fn fxhash(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use encoding_rs::{GBK, SHIFT_JIS, WINDOWS_1251, WINDOWS_1252, WINDOWS_1253};
    use proptest::prelude::*;

    fn cp1251(text: &str) -> Vec<u8> {
        encode(WINDOWS_1251, text).unwrap()
    }

    #[test]
    fn cyrillic_and_latin1_are_detected() {
        let text = "Привет, мир! Это обычный русский текст в кодировке Windows.\nВторая строка.\n";
        assert_eq!(detect(&cp1251(text)), Some(WINDOWS_1251));
        let latin = encode(WINDOWS_1252, "Café crème, déjà vu, naïve façade.\n").unwrap();
        assert_eq!(detect(&latin), Some(WINDOWS_1252));
    }

    #[test]
    fn utf8_ascii_binary_and_broken_utf8_are_never_detected() {
        assert_eq!(detect(b"plain ascii\n"), None);
        assert_eq!(detect("déjà vu\n".as_bytes()), None);
        assert_eq!(detect(b""), None);
        assert_eq!(detect(b"caf\xe9\0binary"), None);
        // Mostly UTF-8 with one bad byte: broken UTF-8, not a legacy encoding.
        assert_eq!(detect(b"d\xc3\xa9j\xc3\xa0 vu \xff\n"), None);
    }

    #[test]
    fn an_edit_rewrites_only_the_changed_bytes() {
        let old = cp1251("один\nдва\nтри\n");
        let (text, lossy) = decode(&old, WINDOWS_1251);
        assert!(!lossy);
        let new = text.replace("два", "двадцать");
        let bytes = reencode(WINDOWS_1251, &old, &text, &new).unwrap();
        assert_eq!(bytes, cp1251("один\nдвадцать\nтри\n"));
    }

    #[test]
    fn undecodable_bytes_outside_the_change_are_kept() {
        // 0xAA has no character in windows-1253: it reads as U+FFFD and must survive.
        let greek = |t: &str| encode(WINDOWS_1253, t).unwrap();
        let bytes = |parts: &[&[u8]]| parts.concat();
        let old = bytes(&[
            &greek("ενα "),
            &[0xAA],
            &greek(" δυο\nτρια\n"),
            &[0xAA],
            b"x\n",
        ]);
        let (text, lossy) = decode(&old, WINDOWS_1253);
        assert!(lossy);
        assert_eq!(text, "ενα \u{FFFD} δυο\nτρια\n\u{FFFD}x\n");
        let new = text.replace("δυο", "2").replace("τρια", "3");
        let out = reencode(WINDOWS_1253, &old, &text, &new).unwrap();
        let want = bytes(&[&greek("ενα "), &[0xAA], b" 2\n3\n", &[0xAA], b"x\n"]);
        assert_eq!(out, want);
    }

    #[test]
    fn a_character_the_encoding_lacks_is_named_with_its_line() {
        let old = encode(WINDOWS_1252, "a\nb\n").unwrap();
        let (text, _) = decode(&old, WINDOWS_1252);
        let err = reencode(WINDOWS_1252, &old, &text, "a\nЖ\n").unwrap_err();
        assert_eq!(err, EncodeError::Unencodable { ch: 'Ж', line: 2 });
    }

    #[test]
    fn multibyte_encodings_keep_their_bytes() {
        for (codec, src) in [
            (SHIFT_JIS, "日本語のテキスト\n二行目\n三行目\n"),
            (GBK, "中文文本\n第二行目\n第三行\n"),
        ] {
            let old = encode(codec, src).unwrap();
            let (text, _) = decode(&old, codec);
            let new = text.replace("二行目", "2行目");
            let bytes = reencode(codec, &old, &text, &new).unwrap();
            assert_eq!(bytes, encode(codec, &new).unwrap(), "{}", codec.name());
        }
        // A bad byte on the changed line, in a multibyte encoding, is kept too.
        let mut old = encode(SHIFT_JIS, "日本\n").unwrap();
        old.insert(0, 0xFD);
        let (text, lossy) = decode(&old, SHIFT_JIS);
        assert!(lossy);
        let new = text.replace('本', "語");
        let mut want = encode(SHIFT_JIS, "日語\n").unwrap();
        want.insert(0, 0xFD);
        assert_eq!(reencode(SHIFT_JIS, &old, &text, &new), Ok(want));
        // A change between a bad lead byte and the ASCII byte after it (which the decoder
        // reads again, so both characters come out of one byte): refused, never guessed.
        let old = b"\x81 x\n";
        let (text, _) = decode(old, SHIFT_JIS);
        assert_eq!(text, "\u{FFFD} x\n");
        assert_eq!(
            reencode(SHIFT_JIS, old, &text, "\u{FFFD}Z x\n"),
            Err(EncodeError::Unplaceable { line: 1 })
        );
    }

    #[test]
    fn stateful_and_unicode_encodings_are_not_legacy() {
        assert!(!editable(encoding_rs::UTF_8));
        assert!(!editable(encoding_rs::UTF_16LE));
        assert!(!editable(encoding_rs::ISO_2022_JP));
        assert!(!editable(encoding_rs::REPLACEMENT));
        assert!(editable(WINDOWS_1251));
        assert!(editable(SHIFT_JIS));
    }

    proptest! {
        /// Any single-byte file: an edit of its decoded text changes only the bytes of the
        /// characters that changed.
        #[test]
        fn single_byte_edits_are_byte_exact(
            bytes in prop::collection::vec(prop_oneof![Just(b'\n'), Just(b'a'), Just(0xAAu8), 0xC1u8..=0xD1], 0..200),
            at in 0usize..200, len in 0usize..5, insert in "[a-zΑ-Ρ\n]{0,6}",
        ) {
            let (text, _) = decode(&bytes, WINDOWS_1253);
            let chars: Vec<char> = text.chars().collect();
            let at = at.min(chars.len());
            let end = (at + len).min(chars.len());
            let new: String = chars[..at].iter().chain(insert.chars().collect::<Vec<_>>().iter()).chain(chars[end..].iter()).collect();
            let out = reencode(WINDOWS_1253, &bytes, &text, &new).unwrap();
            let mut want = bytes[..at].to_vec();
            want.extend(encode(WINDOWS_1253, &insert).unwrap());
            want.extend_from_slice(&bytes[end..]);
            // Where the text repeats the diff may place the change elsewhere, but one byte is
            // one character and only 0xAA reads as U+FFFD, so the bytes are the same.
            prop_assert_eq!(out, want);
        }
    }
}
