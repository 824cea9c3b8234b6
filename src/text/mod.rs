//! Text and bytes, pure: what a file's first bytes say it is (`sniff`, `image`, `bytes`), its
//! encodings (`encoding`: BOMs, UTF-16, legacy codecs), a notebook as text (`notebook`), paging
//! (`page`), the display diff and git patch (`diff`), omission placeholders (`placeholder`), a
//! file name in JSON (`names`), and the command lines hints are made of, quoted for a shell
//! (`shell`). Nothing here does I/O or knows about commands.

pub(crate) mod bytes;
pub mod diff;
pub mod encoding;
pub mod image;
pub(crate) mod names;
pub mod notebook;
pub mod page;
pub(crate) mod placeholder;
pub(crate) mod shell;
pub mod sniff;

/// `bytes` as lowercase hexadecimal (a SHA-256 digest, a name's bytes in a key).
pub(crate) fn hex(bytes: &[u8]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut s = String::with_capacity(bytes.len() * 2);
    for b in bytes {
        s.push(DIGITS[(b >> 4) as usize] as char);
        s.push(DIGITS[(b & 15) as usize] as char);
    }
    s
}

#[cfg(test)]
mod tests {
    #[test]
    fn hex_is_lowercase() {
        assert_eq!(super::hex(&[0, 255, 16]), "00ff10");
    }
}
