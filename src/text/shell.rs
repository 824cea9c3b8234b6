//! The calls hints are made of, quoted for a POSIX shell so they can be pasted as they are:
//! any text or path as one shell word (the one quoting rule of every hint), and this run's
//! own command line with a word replaced or flags added — or nothing when a word is not
//! text, holds a line break, or the line is too long to be a hint.

use std::ffi::{OsStr, OsString};
use std::path::Path;

/// The longest call a hint writes out.
const MAX_CALL: usize = 240;

/// `quill` followed by `words` (the command line after the program's name), quoted.
pub(crate) fn render<'a>(words: impl IntoIterator<Item = &'a OsStr>) -> Option<String> {
    let mut out = String::from("quill");
    for w in words {
        let w = w.to_str().filter(|w| !w.contains('\n'))?;
        out.push(' ');
        out.push_str(&shell_word(w));
    }
    (out.len() <= MAX_CALL).then_some(out)
}

/// `argv` with `flags` added: before a `--` that ends the options, else at the end.
pub(crate) fn with_flags(argv: &[OsString], flags: &[&str]) -> Option<String> {
    let mut words: Vec<&OsStr> = argv.iter().skip(1).map(OsString::as_os_str).collect();
    let at = words.iter().position(|w| *w == "--").unwrap_or(words.len());
    for (i, f) in flags.iter().enumerate() {
        words.insert(at + i, OsStr::new(f));
    }
    render(words)
}

/// `argv` without the word `flag`; None when it has no such word.
pub(crate) fn without_flag(argv: &[OsString], flag: &str) -> Option<String> {
    let words: Vec<&OsStr> = argv.iter().skip(1).map(OsString::as_os_str).collect();
    let at = words.iter().position(|w| *w == flag)?;
    let end = words.iter().position(|w| *w == "--").unwrap_or(words.len());
    if at > end {
        return None;
    }
    render(
        words
            .iter()
            .enumerate()
            .filter(|(i, _)| *i != at)
            .map(|(_, w)| *w),
    )
}

/// `argv` with word `index` replaced by `word`.
pub(crate) fn replaced(argv: &[OsString], index: usize, word: &OsStr) -> Option<String> {
    render(
        argv.iter()
            .enumerate()
            .skip(1)
            .map(|(i, w)| if i == index { word } else { w.as_os_str() }),
    )
}

/// `s` as one POSIX shell word: as it is when that is safe, else single-quoted. `=` stays
/// bare: it means an assignment only in a command's first word, and a hint's words all
/// follow `quill` (or another command).
pub(crate) fn shell_word(s: &str) -> String {
    let plain = !s.is_empty()
        && s.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"-_./=:,+@%".contains(&b));
    if plain {
        s.to_string()
    } else {
        format!("'{}'", s.replace('\'', "'\\''"))
    }
}

/// A path as one shell word, so a hint's command can be pasted as it is. A name that is not
/// UTF-8 is spelled in ANSI-C quotes (`$'bad\xffname'`: bash, zsh, ksh, POSIX sh 2024), byte
/// for byte, so the command names that very file.
pub(crate) fn shell_quote(path: &Path) -> String {
    let bytes = path.as_os_str().as_encoded_bytes();
    if std::str::from_utf8(bytes).is_ok() {
        return shell_word(&path.to_string_lossy());
    }
    let mut q = String::from("$'");
    for chunk in bytes.utf8_chunks() {
        for c in chunk.valid().chars() {
            match c {
                '\\' | '\'' => {
                    q.push('\\');
                    q.push(c);
                }
                c if c.is_ascii_control() => q.push_str(&format!("\\x{:02x}", c as u32)),
                c => q.push(c),
            }
        }
        for b in chunk.invalid() {
            q.push_str(&format!("\\x{b:02x}"));
        }
    }
    q.push('\'');
    q
}

/// `name` with globset's special characters escaped.
pub(crate) fn glob_escape(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    for c in name.chars() {
        if "*?[]{}\\".contains(c) {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;

    fn args(words: &[&str]) -> Vec<OsString> {
        words.iter().map(OsString::from).collect()
    }

    #[test]
    fn words_and_globs_are_quoted() {
        assert_eq!(shell_word("src/a.rs"), "src/a.rs");
        assert_eq!(shell_word("--limit=5"), "--limit=5");
        assert_eq!(shell_word("a b"), "'a b'");
        assert_eq!(shell_word("it's"), "'it'\\''s'");
        assert_eq!(shell_word(""), "''");
        assert_eq!(glob_escape("[id].tsx"), "\\[id\\].tsx");
    }

    #[test]
    fn paths_are_quoted_byte_for_byte() {
        assert_eq!(shell_quote(Path::new("/a/b.rs")), "/a/b.rs");
        assert_eq!(shell_quote(Path::new("/a b/it's")), "'/a b/it'\\''s'");
        assert_eq!(shell_quote(Path::new("/w/a=b.txt")), "/w/a=b.txt");
        let bad = |b: &[u8]| shell_quote(&PathBuf::from(crate::sys::os_string(b.to_vec())));
        assert_eq!(bad(b"/w/bad\xffname"), "$'/w/bad\\xffname'");
        assert_eq!(
            bad(b"/w/it's \\\xfe\tx\xc3\xa9"),
            "$'/w/it\\'s \\\\\\xfe\\x09x\u{e9}'"
        );
    }

    #[test]
    fn calls_are_the_command_line_changed() {
        let a = args(&["/bin/quill", "grep", "-e", "x y", "--", "-p"]);
        assert_eq!(
            with_flags(&a, &["--hidden"]).unwrap(),
            "quill grep -e 'x y' --hidden -- -p"
        );
        let a = args(&["q", "glob", "*.rs"]);
        assert_eq!(
            with_flags(&a, &["--no-ignore", "--hidden"]).unwrap(),
            "quill glob '*.rs' --no-ignore --hidden"
        );
        assert_eq!(
            replaced(&a, 2, OsStr::new("**/*.rs")).unwrap(),
            "quill glob '**/*.rs'"
        );
        assert_eq!(render([OsStr::new("a\nb")]), None);
        assert_eq!(render([OsStr::new(&"x".repeat(300))]), None);
    }
}
