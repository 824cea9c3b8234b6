//! Where the two ends of `quill transfer` are (docs/commands/transfer.md, "Across machines"):
//! scp's rule decides whether an argument names another machine — a colon before the first
//! slash, with something before it, makes `[user@]host:path` remote, so `./a:b`, `/x/a:b` and
//! `:b` stay local — and `--rsh`'s command is split into words as a shell would split it
//! (quotes and backslashes, no expansion), as rsync splits `-e`. Pure: no I/O.

use std::ffi::OsStr;
use std::path::PathBuf;

/// One end of a transfer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Endpoint {
    Local(PathBuf),
    Remote(RemotePath),
}

/// `[user@]host:path` on another machine.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RemotePath {
    /// `user@host` or `host` as typed (brackets of an IPv6 address removed).
    pub host: String,
    /// The path on that machine as typed: relative paths are relative to the remote user's
    /// home directory, and an empty path is that directory (as scp).
    pub path: String,
}

impl RemotePath {
    /// `host:path`, as the user would type it back.
    pub fn display(&self) -> String {
        if self.host.contains(':') {
            format!("[{}]:{}", self.host, self.path)
        } else {
            format!("{}:{}", self.host, self.path)
        }
    }
}

/// Which machine `arg` names, by scp's rule. A remote argument must be UTF-8 (it travels as
/// JSON) and its host must not start with `-` (ssh would take it for an option).
pub fn parse(arg: &OsStr) -> Result<Endpoint, String> {
    let bytes = arg.as_encoded_bytes();
    let Some(split) = remote_split(bytes) else {
        return Ok(Endpoint::Local(PathBuf::from(arg)));
    };
    let Some(text) = arg.to_str() else {
        return Err(format!(
            "{} names another machine, but is not valid UTF-8",
            arg.to_string_lossy()
        ));
    };
    let (host, path) = (&text[..split.host_end], &text[split.path_start..]);
    let host = host
        .strip_prefix('[')
        .and_then(|h| h.strip_suffix(']'))
        .map_or(host, |h| h);
    let name = host.rsplit('@').next().unwrap_or(host);
    if host.starts_with('-') || name.is_empty() {
        return Err(format!("{text}: {host:?} is not a host name"));
    }
    Ok(Endpoint::Remote(RemotePath {
        host: host.to_string(),
        path: path.to_string(),
    }))
}

struct Split {
    host_end: usize,
    path_start: usize,
}

/// Where a remote argument's host ends and its path starts, or None for a local one.
fn remote_split(bytes: &[u8]) -> Option<Split> {
    if cfg!(windows) && is_drive(bytes) {
        return None;
    }
    // `[v6::addr]:path` or `user@[v6::addr]:path`.
    let open = bytes
        .iter()
        .position(|&b| b == b'[' || b == b'/' || b == b':')?;
    if bytes[open] == b'[' {
        let close = open + bytes[open..].iter().position(|&b| b == b']')?;
        return (bytes.get(close + 1) == Some(&b':') && !bytes[..open].contains(&b'/')).then(
            || Split {
                host_end: close + 1,
                path_start: close + 2,
            },
        );
    }
    (bytes[open] == b':' && open > 0).then_some(Split {
        host_end: open,
        path_start: open + 1,
    })
}

/// `C:\…` or `C:/…`, a Windows drive (local there).
fn is_drive(bytes: &[u8]) -> bool {
    bytes.len() >= 2 && bytes[0].is_ascii_alphabetic() && bytes[1] == b':'
}

/// Split a command line into words as a POSIX shell would, without expanding anything:
/// whitespace separates, single quotes keep everything, double quotes keep everything but
/// `\"`, `\\`, `\$` and `` \` ``, a backslash outside quotes keeps the next character.
pub fn split_words(line: &str) -> Result<Vec<String>, String> {
    let mut words = Vec::new();
    let mut word: Option<String> = None;
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        match c {
            c if c.is_whitespace() => words.extend(word.take()),
            '\'' => {
                let w = word.get_or_insert_with(String::new);
                loop {
                    match chars.next() {
                        Some('\'') => break,
                        Some(c) => w.push(c),
                        None => return Err(format!("unmatched ' in {line:?}")),
                    }
                }
            }
            '"' => {
                let w = word.get_or_insert_with(String::new);
                loop {
                    match chars.next() {
                        Some('"') => break,
                        Some('\\') => match chars.next() {
                            Some(c @ ('"' | '\\' | '$' | '`')) => w.push(c),
                            Some(c) => {
                                w.push('\\');
                                w.push(c);
                            }
                            None => return Err(format!("unmatched \" in {line:?}")),
                        },
                        Some(c) => w.push(c),
                        None => return Err(format!("unmatched \" in {line:?}")),
                    }
                }
            }
            '\\' => match chars.next() {
                Some(c) => word.get_or_insert_with(String::new).push(c),
                None => return Err(format!("{line:?} ends with a backslash")),
            },
            c => word.get_or_insert_with(String::new).push(c),
        }
    }
    words.extend(word);
    if words.is_empty() {
        return Err("the command is empty".to_string());
    }
    Ok(words)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn remote(arg: &str) -> Option<(String, String)> {
        match parse(OsStr::new(arg)).unwrap() {
            Endpoint::Remote(r) => Some((r.host, r.path)),
            Endpoint::Local(_) => None,
        }
    }

    #[test]
    fn scp_rule_decides_which_machine() {
        assert_eq!(remote("host:a/b"), Some(("host".into(), "a/b".into())));
        assert_eq!(
            remote("me@host:/abs"),
            Some(("me@host".into(), "/abs".into()))
        );
        assert_eq!(remote("host:"), Some(("host".into(), String::new())));
        assert_eq!(remote("host:a:b"), Some(("host".into(), "a:b".into())));
        assert_eq!(remote("[::1]:x"), Some(("::1".into(), "x".into())));
        assert_eq!(
            remote("me@[fe80::1]:x"),
            Some(("me@[fe80::1]".into(), "x".into()))
        );
        for local in [
            "./a:b", "/x/a:b", ":b", "plain", "dir/a:b", "[x]y:z/", "a/[b]:c",
        ] {
            assert_eq!(remote(local), None, "{local}");
        }
    }

    #[test]
    fn a_host_that_looks_like_an_option_is_refused() {
        assert!(parse(OsStr::new("-oProxyCommand=x:y")).is_err());
        assert!(parse(OsStr::new("me@:y")).is_err());
    }

    #[test]
    fn remote_display_brackets_v6() {
        let r = RemotePath {
            host: "::1".into(),
            path: "x".into(),
        };
        assert_eq!(r.display(), "[::1]:x");
    }

    #[test]
    fn words_split_like_a_shell() {
        let w = |s: &str| split_words(s).unwrap();
        assert_eq!(w("ssh -p 2222"), ["ssh", "-p", "2222"]);
        assert_eq!(w("ssh -F '/a b/c'"), ["ssh", "-F", "/a b/c"]);
        assert_eq!(w(r#"ssh -o "X=\"y\"""#), ["ssh", "-o", "X=\"y\""]);
        assert_eq!(w(r"a\ b  c"), ["a b", "c"]);
        assert_eq!(w("a ''"), ["a", ""]);
        assert!(split_words("ssh 'x").is_err());
        assert!(split_words("  ").is_err());
    }
}
