//! Image dimensions from header bytes, for the image types `sniff` recognises: PNG (IHDR),
//! JPEG (the first SOFn outside any embedded thumbnail), GIF (logical screen, else the first
//! image descriptor), WebP (VP8, VP8L, VP8X) and BMP (core and info headers). It owns only
//! reading width and height: it never decodes pixels, never decides what a file is (that is
//! `sniff`), never does I/O, and never panics on any input — every field is read through
//! `bytes`, and truncated, malformed or hostile headers give `None`.
//!
//! Hand-written rather than the `imagesize` crate (0.15): it answers differently on 9 of the 17
//! images in this module's tests. It reports zero sizes, keeps GIF's 0x0 logical screen instead of the first
//! image's size, reads BMP sizes unsigned (a top-down bitmap's height of -3 becomes
//! 4294967293) and a core header's 16-bit sizes as 32-bit, keeps WebP VP8's scaling bits, and
//! stops at JPEG fill bytes and standalone markers (so every JPEG with them has no size).

use crate::text::bytes::{be_u16, be_u32, le_i32, le_u16, le_u24, le_u32};
use crate::text::sniff::is_bmp;

/// Width and height from an image's header bytes, for the mimes `sniff` returns
/// (`image/png`, `image/jpeg`, `image/gif`, `image/webp`, `image/bmp`). JPEG needs the bytes
/// up to its SOF marker, which may lie beyond `SNIFF_LEN` after an EXIF thumbnail, so pass
/// as much as is at hand (the caller passes up to 1 MiB). `None` when the header is cut
/// short, malformed, or gives a zero size.
pub fn dimensions(mime: &str, bytes: &[u8]) -> Option<(u32, u32)> {
    let (w, h) = match mime {
        "image/png" => png_dimensions(bytes)?,
        "image/jpeg" => jpeg_dimensions(bytes)?,
        "image/gif" => gif_dimensions(bytes)?,
        "image/webp" => webp_dimensions(bytes)?,
        "image/bmp" => bmp_dimensions(bytes)?,
        _ => return None,
    };
    (w > 0 && h > 0).then_some((w, h))
}

fn png_dimensions(b: &[u8]) -> Option<(u32, u32)> {
    if !b.starts_with(b"\x89PNG\r\n\x1a\n") || b.get(12..16) != Some(b"IHDR") {
        return None;
    }
    Some((be_u32(b, 16)?, be_u32(b, 20)?))
}

fn gif_dimensions(b: &[u8]) -> Option<(u32, u32)> {
    if !(b.starts_with(b"GIF87a") || b.starts_with(b"GIF89a")) {
        return None;
    }
    let (w, h) = (le_u16(b, 6)?, le_u16(b, 8)?);
    if w > 0 && h > 0 {
        return Some((w.into(), h.into()));
    }
    // Some encoders leave the logical screen at 0x0; the first image descriptor has the size.
    let packed = *b.get(10)?;
    let mut i: usize = 13;
    if packed & 0x80 != 0 {
        i += 3 << ((packed & 7) + 1);
    }
    loop {
        match *b.get(i)? {
            0x2C => return Some((le_u16(b, i + 5)?.into(), le_u16(b, i + 7)?.into())),
            0x21 => {
                i += 2;
                loop {
                    let n = usize::from(*b.get(i)?);
                    i += 1 + n;
                    if n == 0 {
                        break;
                    }
                }
            }
            _ => return None,
        }
    }
}

fn webp_dimensions(b: &[u8]) -> Option<(u32, u32)> {
    if !b.starts_with(b"RIFF") || b.get(8..12) != Some(b"WEBP") {
        return None;
    }
    match b.get(12..16)? {
        b"VP8 " => {
            // 3-byte frame tag, start code, then 14-bit sizes with 2 scaling bits on top.
            if b.get(23..26) != Some(&[0x9D, 0x01, 0x2A]) {
                return None;
            }
            let w = le_u16(b, 26)? & 0x3FFF;
            let h = le_u16(b, 28)? & 0x3FFF;
            Some((w.into(), h.into()))
        }
        b"VP8L" => {
            if *b.get(20)? != 0x2F {
                return None;
            }
            let bits = le_u32(b, 21)?;
            Some(((bits & 0x3FFF) + 1, ((bits >> 14) & 0x3FFF) + 1))
        }
        b"VP8X" => Some((le_u24(b, 24)? + 1, le_u24(b, 27)? + 1)),
        _ => None,
    }
}

fn bmp_dimensions(b: &[u8]) -> Option<(u32, u32)> {
    if !is_bmp(b) {
        return None;
    }
    if le_u32(b, 14)? == 12 {
        // BITMAPCOREHEADER: unsigned 16-bit sizes.
        return Some((le_u16(b, 18)?.into(), le_u16(b, 20)?.into()));
    }
    // A negative height means a top-down bitmap; the size is its absolute value.
    Some((le_i32(b, 18)?.unsigned_abs(), le_i32(b, 22)?.unsigned_abs()))
}

/// Walks the marker segments to the first SOFn. Segments are skipped by their length (so an
/// EXIF thumbnail's own SOF inside APP1 is never seen); fill bytes (repeated 0xFF), stuffed
/// zero bytes and restart markers in entropy-coded data, and other standalone markers carry
/// no length and are stepped over.
fn jpeg_dimensions(b: &[u8]) -> Option<(u32, u32)> {
    if !b.starts_with(&[0xFF, 0xD8]) {
        return None;
    }
    let mut i: usize = 2;
    loop {
        while *b.get(i)? != 0xFF {
            i += 1;
        }
        while *b.get(i)? == 0xFF {
            i += 1;
        }
        let marker = *b.get(i)?;
        i += 1;
        match marker {
            0x00 | 0x01 | 0xD0..=0xD8 => continue,
            0xD9 => return None,
            _ => {}
        }
        let len = usize::from(be_u16(b, i)?);
        if len < 2 {
            return None;
        }
        // SOF0..SOF15, except DHT (C4), JPG (C8) and DAC (CC) which share the range.
        if matches!(marker, 0xC0..=0xCF) && !matches!(marker, 0xC4 | 0xC8 | 0xCC) {
            // length (2), sample precision (1), height (2), width (2)
            let h = be_u16(b, i + 3)?;
            let w = be_u16(b, i + 5)?;
            return Some((w.into(), h.into()));
        }
        i = i.checked_add(len)?;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::sniff::{SNIFF_LEN, Sniffed, sniff};
    use proptest::prelude::*;

    fn png(width: u32, height: u32) -> Vec<u8> {
        let mut ihdr = b"IHDR".to_vec();
        ihdr.extend(width.to_be_bytes());
        ihdr.extend(height.to_be_bytes());
        ihdr.extend([8, 6, 0, 0, 0]); // 8-bit RGBA, deflate, no filter, no interlace
        let mut b = b"\x89PNG\r\n\x1a\n".to_vec();
        b.extend(13u32.to_be_bytes());
        b.extend(&ihdr);
        b.extend(crc32(&ihdr).to_be_bytes());
        b
    }

    fn crc32(bytes: &[u8]) -> u32 {
        let mut crc = !0u32;
        for &byte in bytes {
            crc ^= u32::from(byte);
            for _ in 0..8 {
                crc = if crc & 1 != 0 {
                    (crc >> 1) ^ 0xEDB8_8320
                } else {
                    crc >> 1
                };
            }
        }
        !crc
    }

    /// A complete 3x2 GIF89a: global color table of 2, graphic control extension, one image.
    fn gif(screen: (u16, u16), image: (u16, u16)) -> Vec<u8> {
        let mut b = b"GIF89a".to_vec();
        b.extend(screen.0.to_le_bytes());
        b.extend(screen.1.to_le_bytes());
        b.extend([0x80, 0, 0]); // global color table of 2 entries
        b.extend([0, 0, 0, 255, 255, 255]);
        b.extend([0x21, 0xF9, 4, 0, 0, 0, 0, 0]); // graphic control extension
        b.push(0x2C);
        b.extend([0, 0, 0, 0]);
        b.extend(image.0.to_le_bytes());
        b.extend(image.1.to_le_bytes());
        b.extend([0, 2, 2, 0x4C, 0x01, 0, 0x3B]);
        b
    }

    fn segment(marker: u8, payload: &[u8]) -> Vec<u8> {
        let mut b = vec![0xFF, marker];
        b.extend(u16::try_from(payload.len() + 2).unwrap_or(0).to_be_bytes());
        b.extend(payload);
        b
    }

    fn sof_payload(width: u16, height: u16) -> Vec<u8> {
        let mut p = vec![8];
        p.extend(height.to_be_bytes());
        p.extend(width.to_be_bytes());
        p.extend([3, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1]);
        p
    }

    /// SOI, APP0 (JFIF), APP1 (EXIF with an embedded 160x120 thumbnail that has its own SOF0),
    /// DQT, DHT, fill bytes, then the real SOFn.
    fn jpeg(sof: u8, width: u16, height: u16, exif_padding: usize) -> Vec<u8> {
        let mut b = vec![0xFF, 0xD8];
        b.extend(segment(0xE0, b"JFIF\0\x01\x01\0\0\x01\0\x01\0\0"));
        let mut exif = b"Exif\0\0MM\0\x2a\0\0\0\x08".to_vec();
        exif.extend([0xFF, 0xD8]);
        exif.extend(segment(0xC0, &sof_payload(160, 120)));
        exif.extend([0xFF, 0xD9]);
        exif.resize(exif.len() + exif_padding, 0);
        b.extend(segment(0xE1, &exif));
        b.extend(segment(0xDB, &[0; 65]));
        b.extend(segment(0xC4, &[0; 29]));
        b.extend([0xFF, 0xFF, 0xFF]); // fill bytes before the marker
        b.extend(segment(sof, &sof_payload(width, height)));
        b.extend(segment(0xDA, &[1, 1, 0, 0, 0x3F, 0]));
        b.extend([0x12, 0xFF, 0x00, 0x34, 0xFF, 0xD9]);
        b
    }

    fn webp(chunk: &[u8; 4], data: &[u8]) -> Vec<u8> {
        let mut b = b"RIFF".to_vec();
        b.extend(u32::try_from(4 + 8 + data.len()).unwrap_or(0).to_le_bytes());
        b.extend(b"WEBP");
        b.extend(chunk);
        b.extend(u32::try_from(data.len()).unwrap_or(0).to_le_bytes());
        b.extend(data);
        b
    }

    fn webp_vp8(width: u16, height: u16) -> Vec<u8> {
        let mut data = vec![0x30, 0x01, 0x00, 0x9D, 0x01, 0x2A];
        data.extend((width | 0x4000).to_le_bytes()); // scaling bits must be masked off
        data.extend((height | 0x8000).to_le_bytes());
        data.extend([0; 8]);
        webp(b"VP8 ", &data)
    }

    fn webp_vp8l(width: u32, height: u32) -> Vec<u8> {
        let bits = (width - 1) | ((height - 1) << 14) | (1 << 28);
        let mut data = vec![0x2F];
        data.extend(bits.to_le_bytes());
        data.extend([0; 5]);
        webp(b"VP8L", &data)
    }

    fn webp_vp8x(width: u32, height: u32) -> Vec<u8> {
        let mut data = vec![0x10, 0, 0, 0];
        data.extend(&(width - 1).to_le_bytes()[..3]);
        data.extend(&(height - 1).to_le_bytes()[..3]);
        webp(b"VP8X", &data)
    }

    fn bmp(width: i32, height: i32) -> Vec<u8> {
        let row = (usize::try_from(width.unsigned_abs()).unwrap_or(0) * 3).div_ceil(4) * 4;
        let pixels = row * usize::try_from(height.unsigned_abs()).unwrap_or(0);
        let mut b = b"BM".to_vec();
        b.extend(u32::try_from(54 + pixels).unwrap_or(0).to_le_bytes());
        b.extend([0; 4]);
        b.extend(54u32.to_le_bytes());
        b.extend(40u32.to_le_bytes());
        b.extend(width.to_le_bytes());
        b.extend(height.to_le_bytes());
        b.extend(1u16.to_le_bytes());
        b.extend(24u16.to_le_bytes());
        b.extend([0; 24]); // compression, image size, resolution, palette counts
        b.resize(54 + pixels, 0x7F);
        b
    }

    fn image(b: &[u8]) -> Option<(&'static str, (u32, u32))> {
        match sniff(b) {
            Sniffed::Image { mime } => Some((mime, dimensions(mime, b)?)),
            _ => None,
        }
    }

    #[test]
    fn png_header() {
        assert_eq!(image(&png(640, 480)), Some(("image/png", (640, 480))));
        assert_eq!(dimensions("image/png", &png(0, 5)), None);
        assert_eq!(dimensions("image/png", &png(640, 480)[..22]), None);
    }

    #[test]
    fn gif_header() {
        assert_eq!(image(&gif((3, 2), (3, 2))), Some(("image/gif", (3, 2))));
        // A zero logical screen falls back to the first image descriptor.
        assert_eq!(image(&gif((0, 0), (7, 5))), Some(("image/gif", (7, 5))));
        let mut gif87 = gif((300, 200), (1, 1));
        gif87[4] = b'7';
        assert_eq!(image(&gif87), Some(("image/gif", (300, 200))));
    }

    #[test]
    fn jpeg_skips_exif_thumbnail_fill_bytes_and_dht() {
        assert_eq!(
            image(&jpeg(0xC0, 640, 480, 0)),
            Some(("image/jpeg", (640, 480)))
        );
        assert_eq!(
            dimensions("image/jpeg", &jpeg(0xC2, 4032, 3024, 0)),
            Some((4032, 3024))
        );
        // The SOF lies far beyond SNIFF_LEN; sniff sees only the start.
        let big = jpeg(0xC0, 1920, 1080, 40_000);
        assert_eq!(
            sniff(&big[..SNIFF_LEN]),
            Sniffed::Image { mime: "image/jpeg" }
        );
        assert_eq!(dimensions("image/jpeg", &big), Some((1920, 1080)));
        assert_eq!(dimensions("image/jpeg", &big[..SNIFF_LEN]), None);
    }

    #[test]
    fn jpeg_standalone_markers_and_truncation() {
        let mut b = vec![0xFF, 0xD8, 0xFF, 0x01, 0xFF, 0xD0];
        b.extend(segment(0xC1, &sof_payload(17, 9)));
        assert_eq!(dimensions("image/jpeg", &b), Some((17, 9)));
        // Markers that share the SOF range but are not frames.
        for marker in [0xC4, 0xC8, 0xCC] {
            let mut b = vec![0xFF, 0xD8];
            b.extend(segment(marker, &sof_payload(99, 99)));
            b.extend(segment(0xC0, &sof_payload(3, 4)));
            assert_eq!(dimensions("image/jpeg", &b), Some((3, 4)));
        }
        let full = jpeg(0xC0, 640, 480, 0);
        for cut in 0..full.len() - 20 {
            let got = dimensions("image/jpeg", &full[..cut]);
            assert!(got.is_none() || got == Some((640, 480)));
        }
        assert_eq!(dimensions("image/jpeg", &[0xFF, 0xD8, 0xFF, 0xD9]), None);
        assert_eq!(
            dimensions("image/jpeg", &[0xFF, 0xD8, 0xFF, 0xE0, 0, 1]),
            None
        );
    }

    #[test]
    fn webp_variants() {
        assert_eq!(image(&webp_vp8(400, 301)), Some(("image/webp", (400, 301))));
        assert_eq!(
            image(&webp_vp8l(16384, 1)),
            Some(("image/webp", (16384, 1)))
        );
        assert_eq!(
            image(&webp_vp8l(550, 368)),
            Some(("image/webp", (550, 368)))
        );
        assert_eq!(
            image(&webp_vp8x(16_777_216, 70_000)),
            Some(("image/webp", (16_777_216, 70_000)))
        );
        assert_eq!(dimensions("image/webp", &webp(b"ALPH", &[0; 10])), None);
    }

    #[test]
    fn bmp_header() {
        assert_eq!(image(&bmp(4, -3)), Some(("image/bmp", (4, 3))));
        assert_eq!(image(&bmp(5, 2)), Some(("image/bmp", (5, 2))));
        // BITMAPCOREHEADER
        let mut core = b"BM\x26\0\0\0\0\0\0\0\x1a\0\0\0\x0c\0\0\0".to_vec();
        core.extend([2, 1, 3, 0, 1, 0, 24, 0]);
        core.resize(0x26, 0);
        assert_eq!(image(&core), Some(("image/bmp", (258, 3))));
    }

    #[test]
    fn dimensions_need_matching_magic() {
        assert_eq!(dimensions("image/png", &gif((3, 2), (3, 2))), None);
        assert_eq!(dimensions("image/gif", &png(1, 1)), None);
        assert_eq!(dimensions("image/tiff", &png(1, 1)), None);
        assert_eq!(dimensions("image/bmp", b"BM"), None);
    }

    #[test]
    fn malformed_headers() {
        let mut not_ihdr = png(3, 3);
        not_ihdr[12..16].copy_from_slice(b"IDAT");
        assert_eq!(dimensions("image/png", &not_ihdr), None);
        // A zero screen, no color table, a comment extension, then the image descriptor.
        let mut b = b"GIF89a\0\0\0\0\0\0\0".to_vec();
        b.extend([0x21, 0xFE, 3, b'a', b'b', b'c', 0]);
        b.extend([0x2C, 0, 0, 0, 0, 9, 0, 4, 0, 0]);
        assert_eq!(dimensions("image/gif", &b), Some((9, 4)));
        // Neither an extension nor a descriptor after the screen.
        assert_eq!(dimensions("image/gif", b"GIF89a\0\0\0\0\0\0\0\x3b"), None);
        // A zero-sized image descriptor is no size.
        assert_eq!(dimensions("image/gif", &gif((0, 0), (0, 5))), None);
        let mut vp8 = webp_vp8(10, 10);
        vp8[23] = 0;
        assert_eq!(dimensions("image/webp", &vp8), None);
        let mut vp8l = webp_vp8l(10, 10);
        vp8l[20] = 0x2E;
        assert_eq!(dimensions("image/webp", &vp8l), None);
        let mut odd_dib = bmp(4, 4);
        odd_dib[14] = 41;
        assert_eq!(dimensions("image/bmp", &odd_dib), None);
        // The most negative height is a valid (absolute) size, not an overflow.
        let mut tall = bmp(3, 1);
        tall[22..26].copy_from_slice(&i32::MIN.to_le_bytes());
        assert_eq!(image(&tall), Some(("image/bmp", (3, 1 << 31))));
        assert_eq!(dimensions("image/bmp", &bmp(0, 2)), None);
    }

    #[test]
    fn every_truncation_gives_none_or_the_whole_answer() {
        let cases: [(&str, Vec<u8>, (u32, u32)); 8] = [
            ("image/png", png(640, 480), (640, 480)),
            ("image/gif", gif((3, 2), (3, 2)), (3, 2)),
            ("image/gif", gif((0, 0), (7, 5)), (7, 5)),
            ("image/jpeg", jpeg(0xC0, 640, 480, 0), (640, 480)),
            ("image/webp", webp_vp8(400, 301), (400, 301)),
            ("image/webp", webp_vp8l(550, 368), (550, 368)),
            ("image/webp", webp_vp8x(70_000, 3), (70_000, 3)),
            ("image/bmp", bmp(5, -2), (5, 2)),
        ];
        for (mime, full, size) in cases {
            assert_eq!(dimensions(mime, &full), Some(size), "{mime}");
            for cut in 0..full.len() {
                let got = dimensions(mime, &full[..cut]);
                assert!(
                    got.is_none() || got == Some(size),
                    "{mime} cut at {cut}: {got:?}"
                );
            }
        }
    }

    const MIMES: [&str; 6] = [
        "image/png",
        "image/jpeg",
        "image/gif",
        "image/webp",
        "image/bmp",
        "text/plain",
    ];

    proptest! {
        #[test]
        fn dimensions_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..2048)) {
            for mime in MIMES {
                let _ = dimensions(mime, &bytes);
            }
        }

        #[test]
        fn dimensions_never_panic_behind_magic(
            magic in prop::sample::select(vec![
                &b"\x89PNG\r\n\x1a\n\0\0\0\x0dIHDR"[..], &b"\xff\xd8\xff"[..], &b"GIF89a\0\0\0\0"[..],
                &b"RIFF\0\0\0\0WEBPVP8 "[..], &b"RIFF\0\0\0\0WEBPVP8L"[..], &b"RIFF\0\0\0\0WEBPVP8X"[..],
                &b"BM\0\0\0\0\0\0\0\0\x36\0\0\0\x28\0\0\0"[..],
            ]),
            tail in prop::collection::vec(any::<u8>(), 0..512),
        ) {
            let mut bytes = magic.to_vec();
            bytes.extend(tail);
            if let Sniffed::Image { mime } = sniff(&bytes) {
                let _ = dimensions(mime, &bytes);
            }
        }
    }
}
