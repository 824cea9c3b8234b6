//! An `old` or `new` that is not UTF-8 (a shell's `$'caf\xe9'`, a passage copied from a
//! legacy-encoded file into `--old-file`): kept as its bytes until the file's encoding is
//! known, then read in that encoding — a byte-for-byte match in a legacy-encoded file — or
//! refused (`invalid_argument`) when the file is UTF-8 or UTF-16, or the bytes are not text in
//! its encoding, with the call that works: the text typed as UTF-8, which quill writes in the
//! file's encoding. Nothing here is ever decoded lossily, so no U+FFFD can reach a file.

use std::ffi::{OsStr, OsString};
use std::path::Path;

use crate::error::Error;
use crate::sys::arg_bytes;
use crate::text::encoding::{Encoding, legacy};
use crate::text::shell;

use crate::edit::lines::Address;
use crate::edit::plan::Edit;

/// Which text of the request the bytes stand for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Slot {
    Old,
    New,
}

/// Bytes given for `old` or `new` that are not UTF-8.
#[derive(Debug)]
pub(super) struct Undecoded {
    slot: Slot,
    /// How it was given: `--old`, `--new`, `--old-file F`, `--new-file F`.
    flag: String,
    /// Given inline (a word of the command line), not in a file.
    inline: bool,
    bytes: Vec<u8>,
}

impl Undecoded {
    pub(super) fn new(slot: Slot, flag: String, inline: bool, bytes: Vec<u8>) -> Undecoded {
        Undecoded {
            slot,
            flag,
            inline,
            bytes,
        }
    }

    /// What stands in until the encoding is known: never planned with, but empty exactly
    /// when the bytes are (they never are: empty bytes are UTF-8).
    pub(super) fn stand_in(&self) -> String {
        String::from_utf8_lossy(&self.bytes).into_owned()
    }
}

/// Reads every undecoded `old` and `new` in the file's `encoding` and puts the text in its
/// place (the one edit of `--old`/`--new`, or the `new` of a line-addressed edit), or says why
/// it cannot be read.
pub(super) fn decode_into(
    target: &Path,
    encoding: Encoding,
    argv: &[OsString],
    undecoded: Vec<Undecoded>,
    edits: &mut [Edit],
    at: &mut Option<(Address, String)>,
) -> Result<(), Error> {
    for u in undecoded {
        let text = decode(target, encoding, argv, &u)?;
        match (u.slot, at.as_mut(), edits.first_mut()) {
            (Slot::New, Some((_, new)), _) => *new = text,
            (Slot::Old, _, Some(e)) => e.old = text,
            (Slot::New, None, Some(e)) => e.new = text,
            // Undecoded bytes always belong to an edit or an addressed `new`.
            (_, _, None) => {}
        }
    }
    Ok(())
}

/// The text of `u` in the file's encoding: only a legacy encoding can read bytes that are
/// not UTF-8, and only when they are valid in it.
fn decode(
    target: &Path,
    encoding: Encoding,
    argv: &[OsString],
    u: &Undecoded,
) -> Result<String, Error> {
    if let Encoding::Legacy(codec) = encoding
        && let Some(text) = codec.decode_without_bom_handling_and_without_replacement(&u.bytes)
    {
        return Ok(text.into_owned());
    }
    Err(undecodable(target, encoding, argv, u))
}

/// Why `u` cannot be read, with the call that works.
fn undecodable(target: &Path, encoding: Encoding, argv: &[OsString], u: &Undecoded) -> Error {
    let at = std::str::from_utf8(&u.bytes)
        .err()
        .map_or(0, |e| e.valid_up_to());
    let byte = u.bytes.get(at).copied().unwrap_or(0);
    let file = target.display();
    let why = match encoding {
        Encoding::Legacy(codec) => format!(
            "and is not {} text either, the encoding of {file}",
            codec.name()
        ),
        _ => format!(
            "and {file} is {}, so these bytes are not text of it",
            encoding.as_str()
        ),
    };
    let message = format!(
        "{} is not UTF-8 (byte 0x{byte:02X} at offset {at}) {why}; nothing was written",
        u.flag
    );
    let (codec, text) = guess(&u.bytes);
    let writes = format!(
        "quill writes it in the file's encoding ({})",
        encoding.as_str()
    );
    let fix = match (u.inline, text) {
        (true, Some(text)) => match retyped(argv, &u.bytes, &text) {
            Some(call) => format!(
                "type the text as UTF-8 — read as {}, these bytes are {text:?}: `{call}`; {writes}",
                codec.name()
            ),
            None => format!(
                "type the text as UTF-8 — read as {}, these bytes are {text:?}; {writes}",
                codec.name()
            ),
        },
        (true, None) => format!("type the text as UTF-8 ({} 'TEXT'); {writes}", u.flag),
        (false, _) => format!(
            "convert the file to UTF-8 first (if it is {0}: `iconv -f {0} -t UTF-8`) and pass that; {writes}",
            codec.name()
        ),
    };
    Error::invalid_argument_fix(message, fix)
}

/// The encoding the bytes most likely are (windows-1252 when nothing is detected), and their
/// text in it when they are valid there.
fn guess(bytes: &[u8]) -> (&'static encoding_rs::Encoding, Option<String>) {
    let codec = legacy::detect(bytes).unwrap_or(encoding_rs::WINDOWS_1252);
    let text = codec
        .decode_without_bom_handling_and_without_replacement(bytes)
        .map(|t| t.into_owned());
    (codec, text)
}

/// The command line with the word that gave `bytes` (`--old BYTES` or `--old=BYTES`) given
/// as `text` instead, quoted for a shell; `None` when no single word did.
fn retyped(argv: &[OsString], bytes: &[u8], text: &str) -> Option<String> {
    let mut found = None;
    for (i, word) in argv.iter().enumerate().skip(1) {
        let Some(word) = arg_bytes(word) else {
            continue;
        };
        let replacement = if word == bytes {
            OsString::from(text)
        } else {
            let eq = word.iter().position(|&b| b == b'=');
            let flag = eq
                .filter(|&eq| word.starts_with(b"--") && word.get(eq + 1..) == Some(bytes))
                .and_then(|eq| std::str::from_utf8(&word[..=eq]).ok());
            let Some(flag) = flag else {
                continue;
            };
            OsString::from(format!("{flag}{text}"))
        };
        if found.is_some() {
            return None;
        }
        found = Some((i, replacement));
    }
    let (i, replacement) = found?;
    shell::replaced(argv, i, OsStr::new(&replacement))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn argv(words: &[&[u8]]) -> Vec<OsString> {
        words
            .iter()
            .map(|w| crate::sys::os_string(w.to_vec()))
            .collect()
    }

    #[test]
    fn the_word_that_gave_the_bytes_is_retyped() {
        let a = argv(&[
            b"quill", b"edit", b"l.txt", b"--old", b"caf\xe9", b"--new", b"tea",
        ]);
        assert_eq!(
            retyped(&a, b"caf\xe9", "café").as_deref(),
            Some("quill edit l.txt --old 'café' --new tea")
        );
        let a = argv(&[b"quill", b"edit", b"l.txt", b"--old=caf\xe9", b"--new=x"]);
        assert_eq!(
            retyped(&a, b"caf\xe9", "café").as_deref(),
            Some("quill edit l.txt '--old=café' --new=x")
        );
        // Two words with these bytes: which one is meant is not known.
        let a = argv(&[b"q", b"edit", b"f", b"--old", b"\xe9", b"--new", b"\xe9"]);
        assert_eq!(retyped(&a, b"\xe9", "é"), None);
    }

    #[test]
    fn only_a_legacy_encoding_reads_the_bytes() {
        let u = Undecoded::new(Slot::Old, "--old".into(), true, b"caf\xe9".to_vec());
        let t = Path::new("l.txt");
        let latin = Encoding::Legacy(encoding_rs::WINDOWS_1252);
        assert_eq!(decode(t, latin, &[], &u).unwrap(), "café");
        for e in [Encoding::Utf8, Encoding::Utf8Bom, Encoding::Utf16Le] {
            let err = decode(t, e, &[], &u).unwrap_err().to_string();
            assert!(
                err.contains("--old is not UTF-8 (byte 0xE9 at offset 3)"),
                "{err}"
            );
        }
        // Not Shift_JIS either: refused, never decoded lossily.
        let sjis = Encoding::Legacy(encoding_rs::SHIFT_JIS);
        let u = Undecoded::new(Slot::New, "--new".into(), true, b"\x81".to_vec());
        let err = decode(t, sjis, &[], &u).unwrap_err().to_string();
        assert!(err.contains("is not Shift_JIS text either"), "{err}");
    }
}
