//! Fuzz target for the legacy-encoding codec: any bytes in any of a few encodings, decoded,
//! edited (a span of characters replaced by any text) and written back must never panic, and
//! a written-back result must decode to the edited text; detection never panics.
#![no_main]

use libfuzzer_sys::fuzz_target;
use quill::text::encoding::legacy::{decode, detect, reencode};

const CODECS: [&encoding_rs::Encoding; 6] = [
    encoding_rs::WINDOWS_1251,
    encoding_rs::WINDOWS_1253,
    encoding_rs::SHIFT_JIS,
    encoding_rs::GBK,
    encoding_rs::BIG5,
    encoding_rs::EUC_KR,
];

fuzz_target!(|input: (u8, u16, u8, String, Vec<u8>)| {
    let (which, at, len, insert, data) = input;
    let _ = detect(&data);
    let codec = CODECS[usize::from(which) % CODECS.len()];
    let (text, _) = decode(&data, codec);
    let chars: Vec<char> = text.chars().collect();
    let at = usize::from(at).min(chars.len());
    let end = (at + usize::from(len % 16)).min(chars.len());
    let new: String = chars[..at]
        .iter()
        .copied()
        .chain(insert.chars())
        .chain(chars[end..].iter().copied())
        .collect();
    if let Ok(out) = reencode(codec, &data, &text, &new) {
        assert_eq!(codec.decode_without_bom_handling(&out).0, new);
    }
});
