//! Content sniffing for `quill read`: decides from a file's first bytes whether it is text
//! (and in which encoding, by its BOM), an image (PNG, JPEG, GIF, WebP, BMP by magic bytes), a
//! PDF, or binary data with a short type guess (`"ELF executable"`, `"zip archive"` … or
//! `"data"`). It owns only that decision: it never opens a file, never prints, never decodes
//! text (`encoding`), reads image sizes (`image`) or renders notebooks (`notebook`), and never
//! panics on any input — the caller passes the first `SNIFF_LEN` bytes, and every header field
//! is read through `bytes` with bounds checks, because the bytes come from arbitrary files.

use crate::text::bytes::{be_u32, le_u32};
use crate::text::encoding::{self, Encoding};

/// How many leading bytes `sniff` looks at; more are allowed and ignored.
pub const SNIFF_LEN: usize = 8192;

/// What the first bytes of a file say it is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Sniffed {
    /// No NUL in the first `SNIFF_LEN` bytes, or UTF-16 with a BOM. Not necessarily valid
    /// UTF-8: the caller decodes lossily.
    Text { encoding: Encoding },
    /// PNG, JPEG, GIF, WebP or BMP by magic bytes.
    Image { mime: &'static str },
    /// `%PDF-` magic.
    Pdf,
    /// A NUL byte in the first `SNIFF_LEN` bytes; `guess` is a short type name, or `"data"`.
    Binary { guess: &'static str },
}

/// Classifies a file from its first bytes (`prefix` = the first up to `SNIFF_LEN` bytes).
pub fn sniff(prefix: &[u8]) -> Sniffed {
    let prefix = prefix.get(..SNIFF_LEN).unwrap_or(prefix);
    if let Some(mime) = image_mime(prefix) {
        return Sniffed::Image { mime };
    }
    if prefix.starts_with(b"%PDF-") {
        return Sniffed::Pdf;
    }
    // A UTF-32 BOM starts like a UTF-16 LE one; UTF-32 is not decoded, so call it binary.
    if encoding::starts_with_utf32_bom(prefix) {
        return Sniffed::Binary {
            guess: "UTF-32 text",
        };
    }
    let bom = Encoding::from_bom(prefix);
    if let Some(encoding @ (Encoding::Utf16Le | Encoding::Utf16Be)) = bom {
        return Sniffed::Text { encoding };
    }
    if prefix.contains(&0) {
        return Sniffed::Binary {
            guess: binary_guess(prefix),
        };
    }
    // A UTF-8 BOM does not excuse a NUL (checked above): only UTF-16 needs them.
    let encoding = bom.unwrap_or(Encoding::Utf8);
    Sniffed::Text { encoding }
}

fn image_mime(b: &[u8]) -> Option<&'static str> {
    if b.starts_with(b"\x89PNG\r\n\x1a\n") {
        Some("image/png")
    } else if b.starts_with(&[0xFF, 0xD8, 0xFF]) {
        Some("image/jpeg")
    } else if b.starts_with(b"GIF87a") || b.starts_with(b"GIF89a") {
        Some("image/gif")
    } else if b.starts_with(b"RIFF") && b.get(8..12) == Some(b"WEBP") {
        Some("image/webp")
    } else if is_bmp(b) {
        Some("image/bmp")
    } else {
        None
    }
}

/// "BM" alone is too weak (a text file may start with it), so the DIB header size must be
/// one of the known header versions and the pixel data must start after the headers.
pub(crate) fn is_bmp(b: &[u8]) -> bool {
    const DIB_SIZES: [u32; 8] = [12, 16, 40, 52, 56, 64, 108, 124];
    if !b.starts_with(b"BM") {
        return false;
    }
    match (le_u32(b, 10), le_u32(b, 14)) {
        (Some(data_offset), Some(dib)) => {
            DIB_SIZES.contains(&dib) && u64::from(data_offset) >= 14 + u64::from(dib)
        }
        _ => false,
    }
}

fn binary_guess(b: &[u8]) -> &'static str {
    const MAGIC: [(&[u8], &str); 18] = [
        (b"\x7fELF", "ELF executable"),
        (b"\x1f\x8b", "gzip archive"),
        (b"PK\x03\x04", "zip archive"),
        (b"PK\x05\x06", "zip archive"),
        (b"PK\x07\x08", "zip archive"),
        (b"SQLite format 3\0", "SQLite database"),
        (b"\xfe\xed\xfa\xce", "Mach-O"),
        (b"\xfe\xed\xfa\xcf", "Mach-O"),
        (b"\xce\xfa\xed\xfe", "Mach-O"),
        (b"\xcf\xfa\xed\xfe", "Mach-O"),
        (b"MZ", "PE executable"),
        (b"\0asm", "WebAssembly"),
        (b"7z\xbc\xaf\x27\x1c", "7z"),
        (b"\xfd7zXZ\0", "xz"),
        (b"\x28\xb5\x2f\xfd", "zstd"),
        (b"BZh", "bzip2"),
        (b"OggS", "Ogg media"),
        (b"\x1aE\xdf\xa3", "Matroska/WebM media"),
    ];
    if let Some((_, guess)) = MAGIC.iter().find(|(magic, _)| b.starts_with(magic)) {
        return guess;
    }
    // CAFEBABE is both a Java class file and a universal Mach-O: a class file has its major
    // version (>= 45) where a fat binary has its (small) architecture count.
    if b.starts_with(b"\xca\xfe\xba\xbe") {
        return match be_u32(b, 4) {
            Some(n) if n < 45 => "Mach-O",
            _ => "class file",
        };
    }
    if b.get(4..8) == Some(b"ftyp") {
        return "ISO media (MP4/MOV/HEIF)";
    }
    if b.get(257..262) == Some(b"ustar") {
        return "tar archive";
    }
    "data"
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn pdf_and_binary_guesses() {
        assert_eq!(sniff(b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n"), Sniffed::Pdf);
        let guess = |b: &[u8]| match sniff(b) {
            Sniffed::Binary { guess } => guess,
            other => panic!("{other:?} is not binary"),
        };
        assert_eq!(
            guess(b"\x7fELF\x02\x01\x01\0\0\0\0\0\0\0\0\0\x03\0>\0"),
            "ELF executable"
        );
        assert_eq!(
            guess(b"\x1f\x8b\x08\0\0\0\0\0\0\x03\xcbH\xcd\xc9\xc9\xe7\x02\0"),
            "gzip archive"
        );
        assert_eq!(
            guess(b"PK\x03\x04\x14\0\0\0\x08\0\xa1\x5b\x2d\x58"),
            "zip archive"
        );
        assert_eq!(guess(b"SQLite format 3\0\x10\0\x01\x01"), "SQLite database");
        assert_eq!(guess(b"\xcf\xfa\xed\xfe\x0c\0\0\x01"), "Mach-O");
        assert_eq!(guess(b"\xca\xfe\xba\xbe\0\0\0\x02\x01\0"), "Mach-O");
        assert_eq!(guess(b"\xca\xfe\xba\xbe\0\0\0\x41\0"), "class file");
        assert_eq!(guess(b"MZ\x90\0\x03\0\0\0"), "PE executable");
        assert_eq!(guess(b"\0asm\x01\0\0\0"), "WebAssembly");
        assert_eq!(guess(b"7z\xbc\xaf\x27\x1c\0\x04"), "7z");
        assert_eq!(guess(b"\xfd7zXZ\0\0\x04"), "xz");
        assert_eq!(guess(b"\x28\xb5\x2f\xfd\x24\0"), "zstd");
        assert_eq!(guess(b"BZh91AY&SY\0"), "bzip2");
        let mut tar = b"hello.txt".to_vec();
        tar.resize(257, 0);
        tar.extend(b"ustar\x0000");
        tar.resize(512, 0);
        assert_eq!(guess(&tar), "tar archive");
        assert_eq!(guess(b"hello\0world"), "data");
        assert_eq!(guess(b"\xff\xfe\0\0h\0\0\0"), "UTF-32 text");
    }

    #[test]
    fn nul_only_counts_in_the_first_8_kib() {
        let mut b = vec![b'a'; SNIFF_LEN];
        b.push(0);
        let text = Sniffed::Text {
            encoding: Encoding::Utf8,
        };
        assert_eq!(sniff(&b), text);
        b[SNIFF_LEN - 1] = 0;
        assert_eq!(sniff(&b), Sniffed::Binary { guess: "data" });
        assert_eq!(sniff(b""), text);
        // Not valid UTF-8 but no NUL: still text (shown lossily by the caller).
        assert_eq!(sniff(b"caf\xe9 cr\xe8me\r\n"), text);
    }

    #[test]
    fn boms() {
        let text = |encoding| Sniffed::Text { encoding };
        assert_eq!(sniff(b"\xef\xbb\xbfhello"), text(Encoding::Utf8Bom));
        assert_eq!(
            sniff(b"\xef\xbb\xbfhe\0llo"),
            Sniffed::Binary { guess: "data" }
        );
        assert_eq!(sniff(b"\xff\xfeh\0i\0"), text(Encoding::Utf16Le));
        assert_eq!(sniff(b"\xfe\xff\0h\0i"), text(Encoding::Utf16Be));
        assert_eq!(sniff(b"\xff\xfe"), text(Encoding::Utf16Le));
        assert_eq!(sniff(b"\xfe\xff"), text(Encoding::Utf16Be));
        // UTF-16 needs its NULs; a big-endian UTF-32 BOM is caught before the NUL check.
        assert_eq!(sniff(b"\xfe\xff\0h\0\0"), text(Encoding::Utf16Be));
        assert_eq!(
            sniff(b"\0\0\xfe\xff\0\0\0h"),
            Sniffed::Binary {
                guess: "UTF-32 text"
            }
        );
        let mut file = Encoding::Utf16Le.bom().to_vec();
        file.extend(crate::text::encoding::encode_utf16("héllo 😀\n", false));
        assert_eq!(sniff(&file), text(Encoding::Utf16Le));
    }

    #[test]
    fn image_magic() {
        let mime = |b: &[u8]| match sniff(b) {
            Sniffed::Image { mime } => Some(mime),
            _ => None,
        };
        // Magic alone decides the type; the header need not be complete (sizes may be unknown).
        assert_eq!(mime(b"\x89PNG\r\n\x1a\n"), Some("image/png"));
        assert_eq!(mime(b"\xff\xd8\xff\xe0"), Some("image/jpeg"));
        assert_eq!(mime(b"GIF87a"), Some("image/gif"));
        assert_eq!(mime(b"GIF89a\x01\0\x01\0"), Some("image/gif"));
        assert_eq!(mime(b"RIFF\0\0\0\0WEBPVP8 "), Some("image/webp"));
        let mut bmp = b"BM\0\0\0\0\0\0\0\0\x36\0\0\0\x28\0\0\0".to_vec();
        assert_eq!(mime(&bmp), Some("image/bmp"));
        // Near misses: another RIFF type, a cut PNG signature, GIF of no known version, and
        // BMP headers with an unknown DIB size or pixel data inside the headers.
        assert_eq!(mime(b"RIFF\x24\0\0\0WAVEfmt "), None);
        assert_eq!(mime(b"RIFF\0\0\0\0AVI LIST"), None);
        assert_eq!(mime(b"\x89PNG\r\n"), None);
        assert_eq!(mime(b"GIF88a"), None);
        assert_eq!(mime(b"\xff\xd8"), None);
        bmp[14] = 41;
        assert_eq!(mime(&bmp), None);
        bmp[14] = 40;
        bmp[10] = 0x35;
        assert_eq!(mime(&bmp), None);
        assert_eq!(mime(b"BM\0\0\0\0\0\0\0\0\x36\0\0\0\x28\0"), None);
        // Text that happens to start with "BM" is not an image.
        assert_eq!(
            sniff(b"BMW and Mercedes are car makers.\n"),
            Sniffed::Text {
                encoding: Encoding::Utf8
            }
        );
        // An image signature wins over a NUL, a PDF over nothing else.
        assert_eq!(mime(b"\x89PNG\r\n\x1a\n\0\0\0\x0dIHDR"), Some("image/png"));
        assert_eq!(
            sniff(b"%PDF"),
            Sniffed::Text {
                encoding: Encoding::Utf8
            }
        );
    }

    #[test]
    fn more_binary_guesses() {
        let guess = |b: &[u8]| match sniff(b) {
            Sniffed::Binary { guess } => guess,
            other => panic!("{other:?} is not binary"),
        };
        // CAFEBABE: fewer than 45 is a fat Mach-O's architecture count, else a class version.
        assert_eq!(guess(b"\xca\xfe\xba\xbe\0\0\0\x2c"), "Mach-O");
        assert_eq!(guess(b"\xca\xfe\xba\xbe\0\0\0\x2d"), "class file");
        assert_eq!(guess(b"\xca\xfe\xba\xbe\0\0"), "class file");
        assert_eq!(guess(b"\0\0\0\x18ftypisom"), "ISO media (MP4/MOV/HEIF)");
        assert_eq!(guess(b"OggS\0\x02"), "Ogg media");
        assert_eq!(guess(b"\x1aE\xdf\xa3\x01\0"), "Matroska/WebM media");
        assert_eq!(guess(b"PK\x05\x06\0\0"), "zip archive");
        assert_eq!(guess(b"\xfe\xed\xfa\xce\0"), "Mach-O");
        // A tar header cut before its magic is just data.
        let mut tar = b"hello.txt".to_vec();
        tar.resize(260, 0);
        assert_eq!(guess(&tar), "data");
    }

    #[test]
    fn only_the_first_sniff_len_bytes_count() {
        // A UTF-32 BOM, an image or PDF signature is looked for at the start only.
        let mut b = b"plain text ".to_vec();
        b.extend(b"\x89PNG\r\n\x1a\n%PDF-");
        assert_eq!(
            sniff(&b),
            Sniffed::Text {
                encoding: Encoding::Utf8
            }
        );
        let mut long = vec![b'x'; SNIFF_LEN * 2];
        long[SNIFF_LEN + 10] = 0;
        assert_eq!(
            sniff(&long),
            Sniffed::Text {
                encoding: Encoding::Utf8
            }
        );
    }

    proptest! {
        #[test]
        fn sniff_never_panics(bytes in prop::collection::vec(any::<u8>(), 0..2048)) {
            let _ = sniff(&bytes);
        }

        #[test]
        fn text_without_nul_and_bom_is_utf8(text in "[^\u{0}]*") {
            let magic = ["GIF8", "%PDF-", "BM", "RIFF", "\u{feff}"];
            prop_assume!(!magic.iter().any(|m| text.starts_with(m)));
            prop_assert_eq!(sniff(text.as_bytes()), Sniffed::Text { encoding: Encoding::Utf8 });
        }
    }
}
