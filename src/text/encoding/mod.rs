//! Text encodings of file content: the `Encoding` a file is read and written back in, its byte
//! order mark (recognising one at the start of a file, and the bytes to strip before decoding
//! and to write back before re-encoded content), the UTF-16 LE/BE codec, and legacy encodings
//! (`--encoding NAME`, or detected with chardetng for a file that is not UTF-8; their codec is
//! `legacy`). It owns only conversions between bytes and text: it never opens a file, never
//! decides whether a file is text (that is `sniff`), and never panics on any input —
//! malformed input decodes lossily and says so.

pub mod legacy;

use std::borrow::Cow;

/// The text encodings `quill read` decodes. UTF-16 is recognised only with a BOM.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Encoding {
    Utf8,
    Utf8Bom,
    Utf16Le,
    Utf16Be,
    /// A legacy (WHATWG) encoding: never UTF-8, UTF-16 or the replacement encoding. No BOM.
    Legacy(&'static encoding_rs::Encoding),
}

impl Encoding {
    /// The JSON `encoding` name; the BOM is reported separately (`has_bom`).
    pub fn as_str(self) -> &'static str {
        match self {
            Encoding::Utf8 | Encoding::Utf8Bom => "utf-8",
            Encoding::Utf16Le => "utf-16le",
            Encoding::Utf16Be => "utf-16be",
            Encoding::Legacy(e) => e.name(),
        }
    }

    /// Whether the file starts with a byte order mark (the JSON `bom`).
    pub fn has_bom(self) -> bool {
        !self.bom().is_empty()
    }

    /// The BOM bytes this encoding starts with (empty for plain UTF-8): strip them before
    /// decoding, write them back before re-encoded content.
    pub fn bom(self) -> &'static [u8] {
        match self {
            Encoding::Utf8 | Encoding::Legacy(_) => &[],
            Encoding::Utf8Bom => &[0xEF, 0xBB, 0xBF],
            Encoding::Utf16Le => &[0xFF, 0xFE],
            Encoding::Utf16Be => &[0xFE, 0xFF],
        }
    }

    /// The encoding whose BOM `prefix` starts with (`Utf8Bom`, `Utf16Le` or `Utf16Be`), or
    /// `None` for none. A UTF-32 LE BOM starts with the UTF-16 LE one: ask
    /// [`starts_with_utf32_bom`] first.
    pub(crate) fn from_bom(prefix: &[u8]) -> Option<Encoding> {
        [Encoding::Utf8Bom, Encoding::Utf16Le, Encoding::Utf16Be]
            .into_iter()
            .find(|encoding| prefix.starts_with(encoding.bom()))
    }
}

/// `--encoding NAME`: any WHATWG label, case-insensitive (`windows-1251`, `cp1251`, `latin1`
/// — which the web reads as windows-1252 —, `koi8-r`, `shift_jis`, `gbk`, `utf-8`, …).
pub fn parse_label(name: &str) -> Result<&'static encoding_rs::Encoding, String> {
    match encoding_rs::Encoding::for_label(name.trim().as_bytes()) {
        Some(codec) if codec != encoding_rs::REPLACEMENT && codec != encoding_rs::ISO_2022_JP => {
            Ok(codec)
        }
        Some(codec) => Err(format!(
            "--encoding {name}: quill does not read or edit {}",
            codec.name()
        )),
        None => Err(format!(
            "--encoding {name}: not an encoding name; try windows-1251, windows-1252 (latin1), iso-8859-2, koi8-r, shift_jis, gbk, big5 or utf-8"
        )),
    }
}

/// The encoding a text file is read and edited in, from its whole `bytes` and what `sniff`
/// said (`sniffed`, by its BOM): `--encoding` when given (UTF-16 only with its BOM), else the
/// BOM's, else UTF-8 when the bytes are valid UTF-8, else a detected legacy encoding, else
/// UTF-8 (shown lossily, edited where `old` matches its bytes). The flag says whether the
/// encoding was detected (not named by a BOM or `--encoding`).
pub fn of_text(
    bytes: &[u8],
    sniffed: Encoding,
    forced: Option<&'static encoding_rs::Encoding>,
) -> Result<(Encoding, bool), String> {
    if let Some(codec) = forced {
        return self::forced(codec, bytes).map(|e| (e, false));
    }
    if sniffed != Encoding::Utf8 {
        return Ok((sniffed, false));
    }
    Ok(match legacy::detect(bytes) {
        Some(codec) => (Encoding::Legacy(codec), true),
        None => (Encoding::Utf8, false),
    })
}

/// What `--encoding` means for a file that starts with `prefix`.
pub fn forced(codec: &'static encoding_rs::Encoding, prefix: &[u8]) -> Result<Encoding, String> {
    let bom = Encoding::from_bom(prefix);
    if codec == encoding_rs::UTF_8 {
        return Ok(if bom == Some(Encoding::Utf8Bom) {
            Encoding::Utf8Bom
        } else {
            Encoding::Utf8
        });
    }
    for (utf16, ours) in [
        (encoding_rs::UTF_16LE, Encoding::Utf16Le),
        (encoding_rs::UTF_16BE, Encoding::Utf16Be),
    ] {
        if codec == utf16 {
            return if bom == Some(ours) {
                Ok(ours)
            } else {
                Err(format!(
                    "--encoding {}: quill reads UTF-16 only with its byte order mark, which this file does not start with",
                    codec.name()
                ))
            };
        }
    }
    Ok(Encoding::Legacy(codec))
}

/// A file's text in its `encoding`, as quill reads and edits it: for UTF-8 the bytes after the
/// BOM as they are (valid or not: nothing is decoded); UTF-16 and legacy encodings decoded,
/// with whether the decoding replaced anything by U+FFFD (`lossy`). `encode` is the way back.
pub(crate) fn decode(whole: &[u8], encoding: Encoding) -> (Cow<'_, [u8]>, bool) {
    let body = &whole[encoding.bom().len().min(whole.len())..];
    let (text, lossy) = match encoding {
        Encoding::Utf8 | Encoding::Utf8Bom => return (Cow::Borrowed(body), false),
        Encoding::Utf16Le => decode_utf16(body, false),
        Encoding::Utf16Be => decode_utf16(body, true),
        Encoding::Legacy(codec) => legacy::decode(whole, codec),
    };
    (Cow::Owned(text.into_bytes()), lossy)
}

/// Why edited text cannot be put back in its file's encoding.
#[derive(Debug)]
pub(crate) enum EncodeError {
    /// The edited text of a decoded file is not valid Unicode (a planner bug, never a panic).
    NotText,
    /// A legacy encoding cannot take it (`legacy::reencode`).
    Legacy(legacy::EncodeError),
}

/// `new_text` — the text `decode` gave for the file's `old` bytes (`old_text`), edited — in
/// the file's `encoding` again: the BOM put back, UTF-16 encoded, a legacy encoding
/// re-encoded byte for byte outside the change. UTF-8 text is the file's bytes already.
pub(crate) fn encode<'a>(
    encoding: Encoding,
    old: &[u8],
    old_text: &[u8],
    new_text: &'a [u8],
) -> Result<Cow<'a, [u8]>, EncodeError> {
    let as_str = |b| std::str::from_utf8(b).map_err(|_| EncodeError::NotText);
    Ok(match encoding {
        Encoding::Utf8 => Cow::Borrowed(new_text),
        Encoding::Utf8Bom => Cow::Owned([encoding.bom(), new_text].concat()),
        Encoding::Utf16Le | Encoding::Utf16Be => {
            let utf16 = encode_utf16(as_str(new_text)?, encoding == Encoding::Utf16Be);
            Cow::Owned([encoding.bom(), &utf16].concat())
        }
        Encoding::Legacy(codec) => Cow::Owned(
            legacy::reencode(codec, old, as_str(old_text)?, as_str(new_text)?)
                .map_err(EncodeError::Legacy)?,
        ),
    })
}

/// Whether `prefix` starts with a UTF-32 BOM (LE `FF FE 00 00`, BE `00 00 FE FF`). UTF-32 is
/// not decoded.
pub(crate) fn starts_with_utf32_bom(prefix: &[u8]) -> bool {
    prefix.starts_with(&[0xFF, 0xFE, 0, 0]) || prefix.starts_with(&[0, 0, 0xFE, 0xFF])
}

/// Decodes UTF-16 (BOM already stripped). An odd trailing byte or an unpaired surrogate
/// becomes U+FFFD and sets the second value (`lossy`).
pub fn decode_utf16(bytes_without_bom: &[u8], big_endian: bool) -> (String, bool) {
    let chunks = bytes_without_bom.chunks_exact(2);
    let odd_tail = !chunks.remainder().is_empty();
    let units = chunks.map(|pair| {
        let pair = [
            pair.first().copied().unwrap_or(0),
            pair.get(1).copied().unwrap_or(0),
        ];
        if big_endian {
            u16::from_be_bytes(pair)
        } else {
            u16::from_le_bytes(pair)
        }
    });
    let mut text = String::with_capacity(bytes_without_bom.len());
    let mut lossy = odd_tail;
    for unit in char::decode_utf16(units) {
        text.push(unit.unwrap_or_else(|_| {
            lossy = true;
            char::REPLACEMENT_CHARACTER
        }));
    }
    if odd_tail {
        text.push(char::REPLACEMENT_CHARACTER);
    }
    (text, lossy)
}

/// Encodes text as UTF-16 without a BOM (write `Encoding::bom()` first).
pub fn encode_utf16(text: &str, big_endian: bool) -> Vec<u8> {
    let mut out = Vec::with_capacity(text.len() * 2);
    for unit in text.encode_utf16() {
        let bytes = if big_endian {
            unit.to_be_bytes()
        } else {
            unit.to_le_bytes()
        };
        out.extend_from_slice(&bytes);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn names_and_boms() {
        assert_eq!(Encoding::Utf8.as_str(), "utf-8");
        assert_eq!(Encoding::Utf8Bom.as_str(), "utf-8");
        assert_eq!(Encoding::Utf16Le.as_str(), "utf-16le");
        assert_eq!(Encoding::Utf16Be.as_str(), "utf-16be");
        assert!(!Encoding::Utf8.has_bom());
        assert!(Encoding::Utf8Bom.has_bom());
        assert!(Encoding::Utf16Le.has_bom());
        assert_eq!(Encoding::Utf8.bom(), b"");
        assert_eq!(Encoding::Utf8Bom.bom(), b"\xef\xbb\xbf");
        assert_eq!(Encoding::Utf16Le.bom(), b"\xff\xfe");
        assert_eq!(Encoding::Utf16Be.bom(), b"\xfe\xff");
    }

    #[test]
    fn bom_at_the_start() {
        assert_eq!(
            Encoding::from_bom(b"\xef\xbb\xbfhi"),
            Some(Encoding::Utf8Bom)
        );
        assert_eq!(Encoding::from_bom(b"\xff\xfeh\0"), Some(Encoding::Utf16Le));
        assert_eq!(Encoding::from_bom(b"\xfe\xff\0h"), Some(Encoding::Utf16Be));
        assert_eq!(Encoding::from_bom(b"\xfe\xff"), Some(Encoding::Utf16Be));
        assert_eq!(Encoding::from_bom(b"\xef\xbb"), None);
        assert_eq!(Encoding::from_bom(b"hi \xef\xbb\xbf"), None);
        assert_eq!(Encoding::from_bom(b""), None);
        assert!(starts_with_utf32_bom(b"\xff\xfe\0\0h\0\0\0"));
        assert!(starts_with_utf32_bom(b"\0\0\xfe\xff\0\0\0h"));
        assert!(!starts_with_utf32_bom(b"\xff\xfeh\0"));
        assert!(!starts_with_utf32_bom(b"\xff\xfe\0"));
    }

    #[test]
    fn utf16_round_trip() {
        let text = "héllo, wörld\r\n😀 日本語\n";
        for big_endian in [false, true] {
            let bytes = encode_utf16(text, big_endian);
            assert_eq!(bytes.len(), text.encode_utf16().count() * 2);
            assert_eq!(decode_utf16(&bytes, big_endian), (text.to_string(), false));
        }
        assert_eq!(encode_utf16("hi", false), b"h\0i\0");
        assert_eq!(encode_utf16("hi", true), b"\0h\0i");
        assert_eq!(encode_utf16("", true), b"");
    }

    #[test]
    fn utf16_surrogate_pairs() {
        // U+1F600 is D83D DE00 in UTF-16.
        assert_eq!(encode_utf16("😀", true), b"\xd8\x3d\xde\x00");
        assert_eq!(encode_utf16("😀", false), b"\x3d\xd8\x00\xde");
        assert_eq!(
            decode_utf16(b"\x3d\xd8\x00\xde", false),
            ("😀".into(), false)
        );
        // The same units in the other byte order are two unrelated BMP characters.
        assert_eq!(
            decode_utf16(b"\x3d\xd8\x00\xde", true),
            ("\u{3dd8}\u{00de}".into(), false)
        );
    }

    #[test]
    fn utf16_lossy() {
        assert_eq!(decode_utf16(b"h\0i\0!", false), ("hi\u{fffd}".into(), true));
        assert_eq!(decode_utf16(b"\0h\0", true), ("h\u{fffd}".into(), true));
        assert_eq!(decode_utf16(b"!", true), ("\u{fffd}".into(), true));
        // An unpaired high surrogate, then a lone low surrogate.
        assert_eq!(
            decode_utf16(b"\xd8\x3d\0a\xde\0", true),
            ("\u{fffd}a\u{fffd}".into(), true)
        );
        // A high surrogate at the very end.
        assert_eq!(
            decode_utf16(b"a\0\x3d\xd8", false),
            ("a\u{fffd}".into(), true)
        );
        assert_eq!(decode_utf16(b"", true), (String::new(), false));
    }

    #[test]
    fn encoding_names_and_what_they_force() {
        use encoding_rs::{UTF_8, UTF_16LE, WINDOWS_1251, WINDOWS_1252};
        assert_eq!(parse_label("CP1251"), Ok(WINDOWS_1251));
        assert_eq!(parse_label(" latin1 "), Ok(WINDOWS_1252));
        assert!(
            parse_label("klingon")
                .unwrap_err()
                .contains("not an encoding name")
        );
        assert!(
            parse_label("iso-2022-jp")
                .unwrap_err()
                .contains("does not read or edit")
        );
        assert!(parse_label("iso-2022-kr").is_err()); // the replacement encoding
        assert_eq!(forced(UTF_8, b"\xef\xbb\xbfx"), Ok(Encoding::Utf8Bom));
        assert_eq!(forced(UTF_8, b"x"), Ok(Encoding::Utf8));
        assert_eq!(forced(UTF_16LE, b"\xff\xfex\0"), Ok(Encoding::Utf16Le));
        assert!(
            forced(UTF_16LE, b"x\0")
                .unwrap_err()
                .contains("byte order mark")
        );
        assert_eq!(
            forced(WINDOWS_1251, b"\xef\xbb\xbf"),
            Ok(Encoding::Legacy(WINDOWS_1251))
        );
        assert_eq!(Encoding::Legacy(WINDOWS_1251).as_str(), "windows-1251");
        assert!(!Encoding::Legacy(WINDOWS_1251).has_bom());
    }

    #[test]
    fn the_encoding_of_a_text() {
        use encoding_rs::{KOI8_R, WINDOWS_1252};
        let latin = b"caf\xe9 cr\xe8me br\xfbl\xe9e\n";
        assert_eq!(
            of_text(latin, Encoding::Utf8, None),
            Ok((Encoding::Legacy(WINDOWS_1252), true))
        );
        assert_eq!(
            of_text(latin, Encoding::Utf8, Some(KOI8_R)),
            Ok((Encoding::Legacy(KOI8_R), false))
        );
        assert_eq!(
            of_text(latin, Encoding::Utf8, Some(encoding_rs::UTF_8)),
            Ok((Encoding::Utf8, false))
        );
        // A BOM decides; valid UTF-8 is UTF-8.
        assert_eq!(
            of_text(b"\xef\xbb\xbfcaf\xe9", Encoding::Utf8Bom, None),
            Ok((Encoding::Utf8Bom, false))
        );
        assert_eq!(
            of_text("café".as_bytes(), Encoding::Utf8, None),
            Ok((Encoding::Utf8, false))
        );
    }

    proptest! {
        #[test]
        fn utf16_round_trips(text in ".*", big_endian in any::<bool>()) {
            let (decoded, lossy) = decode_utf16(&encode_utf16(&text, big_endian), big_endian);
            prop_assert_eq!(decoded, text);
            prop_assert!(!lossy);
        }

        #[test]
        fn decoding_is_exact_unless_lossy(
            bytes in prop::collection::vec(any::<u8>(), 0..512),
            big_endian in any::<bool>(),
        ) {
            let (text, lossy) = decode_utf16(&bytes, big_endian);
            if !lossy {
                prop_assert_eq!(encode_utf16(&text, big_endian), bytes);
            } else {
                prop_assert!(text.contains(char::REPLACEMENT_CHARACTER));
            }
        }
    }

    #[test]
    fn decode_and_encode_are_a_round_trip() {
        let cases: [(Encoding, &[u8]); 4] = [
            (Encoding::Utf8, b"a\xffb\n"),
            (Encoding::Utf8Bom, b"\xef\xbb\xbfab\n"),
            (Encoding::Utf16Le, b"\xff\xfea\0b\0"),
            (Encoding::Utf16Be, b"\xfe\xff\0a\0b"),
        ];
        for (encoding, whole) in cases {
            let (text, lossy) = decode(whole, encoding);
            assert!(!lossy, "{encoding:?}");
            let back = encode(encoding, whole, &text, &text).unwrap();
            assert_eq!(back, whole, "{encoding:?}");
        }
        assert!(decode(b"\xff\xfea\0b", Encoding::Utf16Le).1, "odd tail");
        let utf16 = encode(Encoding::Utf16Le, b"", b"", b"\xff");
        assert!(matches!(utf16, Err(EncodeError::NotText)));
    }
}
