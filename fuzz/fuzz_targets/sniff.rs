//! Fuzz target for content sniffing, image dimensions and the UTF-16 codec on arbitrary bytes:
//! nothing may panic; only the first `SNIFF_LEN` bytes may decide the type; a size is never
//! zero; a cut-short header gives no size or the same size (`quill read` passes only a
//! prefix); and UTF-16 that decodes without loss encodes back to the same bytes.
#![no_main]

use libfuzzer_sys::fuzz_target;
use quill::text::encoding::{Encoding, decode_utf16, encode_utf16};
use quill::text::image;
use quill::text::sniff::{SNIFF_LEN, Sniffed, sniff};

const MIMES: [&str; 6] = [
    "image/png",
    "image/jpeg",
    "image/gif",
    "image/webp",
    "image/bmp",
    "text/plain",
];

fuzz_target!(|data: &[u8]| {
    let sniffed = sniff(data);
    assert_eq!(sniffed, sniff(&data[..data.len().min(SNIFF_LEN)]));

    // The last byte picks where a shorter read would have stopped.
    let cut = data
        .last()
        .map_or(0, |&b| data.len() * usize::from(b) / 256);
    for mime in MIMES {
        let whole = image::dimensions(mime, data);
        if let Some((w, h)) = whole {
            assert!(w > 0 && h > 0, "{mime}: zero size {w}x{h}");
        }
        let part = image::dimensions(mime, &data[..cut]);
        assert!(
            part.is_none() || part == whole,
            "{mime}: the first {cut} bytes give {part:?}, all give {whole:?}"
        );
    }

    if let Sniffed::Text {
        encoding: encoding @ (Encoding::Utf16Le | Encoding::Utf16Be),
    } = sniffed
    {
        assert!(data.starts_with(encoding.bom()));
        let big_endian = encoding == Encoding::Utf16Be;
        let rest = &data[encoding.bom().len()..];
        let (text, lossy) = decode_utf16(rest, big_endian);
        if !lossy {
            assert_eq!(encode_utf16(&text, big_endian), rest);
        }
    }
    for big_endian in [false, true] {
        let (text, lossy) = decode_utf16(data, big_endian);
        if lossy {
            assert!(text.contains(char::REPLACEMENT_CHARACTER));
        } else {
            assert_eq!(encode_utf16(&text, big_endian), data);
        }
    }
});
