//! File names in unified diff headers: git's C-quoted names (`"a/sp ace\303\251"`) read back
//! into bytes, the tab and timestamp `diff -u` writes after a name cut off, the two names of a
//! `diff --git` line told apart, and `-p N` stripping. Pure; no I/O, no panics.

/// The name at the start of a `---`/`+++`/`rename from` value: C-quoted (escapes read) or
/// bare, up to a tab (`diff -u` puts a timestamp after it) or the end of the line.
pub(super) fn header_name(value: &[u8]) -> Result<Vec<u8>, String> {
    if value.first() == Some(&b'"') {
        return unquote(value).map(|(name, _)| name);
    }
    let end = memchr::memchr(b'\t', value).unwrap_or(value.len());
    Ok(value[..end].to_vec())
}

/// A C-quoted name at the start of `s` (which begins with `"`): its bytes and the rest of `s`
/// after the closing quote.
pub(super) fn unquote(s: &[u8]) -> Result<(Vec<u8>, &[u8]), String> {
    let mut out = Vec::with_capacity(s.len());
    let mut i = 1;
    while i < s.len() {
        match s[i] {
            b'"' => return Ok((out, &s[i + 1..])),
            b'\\' => {
                let Some(&c) = s.get(i + 1) else { break };
                i += 2;
                let byte = match c {
                    b'a' => 0x07,
                    b'b' => 0x08,
                    b't' => b'\t',
                    b'n' => b'\n',
                    b'v' => 0x0b,
                    b'f' => 0x0c,
                    b'r' => b'\r',
                    b'"' => b'"',
                    b'\\' => b'\\',
                    b'0'..=b'3' => {
                        let digits = s
                            .get(i..i + 2)
                            .filter(|d| d.iter().all(|b| (b'0'..=b'7').contains(b)));
                        let Some(d) = digits else {
                            return Err(format!(
                                "the quoted name has `\\{}` where an escape needs three octal digits",
                                char::from(c)
                            ));
                        };
                        i += 2;
                        ((c - b'0') << 6) | ((d[0] - b'0') << 3) | (d[1] - b'0')
                    }
                    other => {
                        return Err(format!(
                            "the quoted name has an unknown escape `\\{}`",
                            char::from(other).escape_default()
                        ));
                    }
                };
                out.push(byte);
            }
            b => {
                out.push(b);
                i += 1;
            }
        }
    }
    Err("the quoted name has no closing `\"`".into())
}

/// A `diff --git` line's old and new names.
pub(super) type NamePair = (Vec<u8>, Vec<u8>);

/// The two names of a `diff --git A B` line (after `diff --git `), prefixes still on. Bare
/// names may hold spaces: the split chosen is the one where both names agree once their first
/// component (`a/`, `b/`) is left out, as git reads it. `Ok(None)` when they cannot be told
/// apart (a rename with spaces in its names: `rename from`/`rename to` then name them).
pub(super) fn git_line_names(rest: &[u8]) -> Result<Option<NamePair>, String> {
    if rest.first() == Some(&b'"') {
        let (a, after) = unquote(rest)?;
        let Some(b) = after.strip_prefix(b" ") else {
            return Err(
                "the quoted first name is not followed by a space and a second name".into(),
            );
        };
        return Ok(Some((a, second_name(b)?)));
    }
    if let Some(i) = memchr::memmem::find(rest, b" \"") {
        return Ok(Some((rest[..i].to_vec(), second_name(&rest[i + 1..])?)));
    }
    let spaces: Vec<usize> = memchr::memchr_iter(b' ', rest).collect();
    let tail = |name: &[u8]| -> Vec<u8> {
        match memchr::memchr(b'/', name) {
            Some(i) => name[i + 1..].to_vec(),
            None => name.to_vec(),
        }
    };
    for &i in &spaces {
        let (a, b) = (&rest[..i], &rest[i + 1..]);
        if !a.is_empty() && !b.is_empty() && tail(a) == tail(b) {
            return Ok(Some((a.to_vec(), b.to_vec())));
        }
    }
    match spaces.as_slice() {
        [i] if *i > 0 && *i + 1 < rest.len() => {
            Ok(Some((rest[..*i].to_vec(), rest[*i + 1..].to_vec())))
        }
        _ => Ok(None),
    }
}

fn second_name(s: &[u8]) -> Result<Vec<u8>, String> {
    if s.first() == Some(&b'"') {
        unquote(s).map(|(name, _)| name)
    } else {
        Ok(s.to_vec())
    }
}

/// `name` without its first `n` components (`/`-separated; a run of `/` counts as one, a
/// leading `/` ends an empty first component), as `patch -p N` strips them. `None` when that
/// leaves nothing.
pub(super) fn strip(name: &[u8], n: usize) -> Option<Vec<u8>> {
    let mut s = name;
    for _ in 0..n {
        let i = memchr::memchr(b'/', s)?;
        s = &s[i + 1..];
        while let Some(rest) = s.strip_prefix(b"/") {
            s = rest;
        }
    }
    (!s.is_empty()).then(|| s.to_vec())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quoted_names_read_octal_and_c_escapes() {
        assert_eq!(
            header_name(b"\"a/sp ace\\303\\251\"").unwrap(),
            "a/sp ace\u{e9}".as_bytes()
        );
        assert_eq!(
            header_name(b"\"a/t\\tq\\\"b\\\\\\377\"\t").unwrap(),
            b"a/t\tq\"b\\\xff"
        );
        assert!(header_name(b"\"a/open").unwrap_err().contains("closing"));
        assert!(
            header_name(b"\"a\\q\"")
                .unwrap_err()
                .contains("unknown escape")
        );
        assert!(header_name(b"\"a\\3x\"").unwrap_err().contains("octal"));
        assert!(header_name(b"\"a\\").is_err());
    }

    #[test]
    fn bare_names_stop_at_a_tab() {
        assert_eq!(
            header_name(b"a/f.txt\t2024-01-01 10:00:00.000000000 +0100").unwrap(),
            b"a/f.txt"
        );
        assert_eq!(
            header_name(b"a/with space.txt\t").unwrap(),
            b"a/with space.txt"
        );
        assert_eq!(header_name(b"a/f").unwrap(), b"a/f");
    }

    #[test]
    fn git_line_names_are_told_apart() {
        let names = |s: &[u8]| git_line_names(s).unwrap();
        assert_eq!(
            names(b"a/x y b/x y"),
            Some((b"a/x y".to_vec(), b"b/x y".to_vec()))
        );
        assert_eq!(names(b"a/x b/y"), Some((b"a/x".to_vec(), b"b/y".to_vec())));
        assert_eq!(
            names(b"\"a/\\303\\251\" \"b/\\303\\251\""),
            Some(("a/\u{e9}".into(), "b/\u{e9}".into()))
        );
        assert_eq!(
            names(b"a/x \"b/y z\""),
            Some((b"a/x".to_vec(), b"b/y z".to_vec()))
        );
        assert_eq!(names(b"a/p q b/r s"), None);
        assert_eq!(names(b"single"), None);
        assert!(git_line_names(b"\"a/x\"b/x").is_err());
    }

    #[test]
    fn strip_removes_leading_components() {
        assert_eq!(strip(b"a/src/f.rs", 1), Some(b"src/f.rs".to_vec()));
        assert_eq!(strip(b"a/src/f.rs", 0), Some(b"a/src/f.rs".to_vec()));
        assert_eq!(strip(b"a//src/f.rs", 1), Some(b"src/f.rs".to_vec()));
        assert_eq!(strip(b"/abs/f", 1), Some(b"abs/f".to_vec()));
        assert_eq!(strip(b"a/f", 2), None);
        assert_eq!(strip(b"f", 1), None);
        assert_eq!(strip(b"a/", 1), None);
    }
}
