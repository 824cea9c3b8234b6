//! Which directory confines a `quill mcp` connection, decided once from what the server was
//! started with and what the client says: `--root` (or `QUILL_ROOT`) always wins; else the
//! client's MCP roots, when it offers them — one root is taken (quill confines to one
//! directory): the one that holds the server's working directory, else the first the client
//! lists; else nothing confines. Relative paths start from the working directory when it is
//! inside the root, else from the root. Pure: parses `file://` URIs and compares paths; no
//! I/O (the root is opened, symlinks resolved, by `paths::Root` in each call).

use std::path::{Component, Path, PathBuf};

use crate::sys;

/// What confines the calls of a connection, and the sentence that says so (the log line, and
/// docs/mcp.md).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Confinement {
    /// The root handed to each call as `--root`; `None`: the server's own (flag, environment)
    /// or none.
    pub root: Option<PathBuf>,
    /// Where relative paths start, when not the server's working directory.
    pub cwd: Option<PathBuf>,
    pub said: String,
}

impl Confinement {
    /// `--root` or `QUILL_ROOT` confines; the client's roots are not asked for.
    pub(crate) fn from_flag(root: &Path) -> Confinement {
        Confinement {
            root: None,
            cwd: None,
            said: format!("confined to {} (--root)", root.display()),
        }
    }

    /// Nothing confines: no `--root`, and the client offers no roots (or none that is a local
    /// directory).
    pub(crate) fn none(why: &str) -> Confinement {
        Confinement {
            root: None,
            cwd: None,
            said: format!("not confined: {why} (start the server with --root DIR to confine it)"),
        }
    }
}

/// The confinement the client's roots (their URIs, in the client's order) give a server whose
/// working directory is `cwd`.
pub(crate) fn from_client(uris: &[String], cwd: &Path) -> Confinement {
    let dirs: Vec<PathBuf> = uris.iter().filter_map(|u| file_path(u)).collect();
    let Some(first) = dirs.first() else {
        return Confinement::none(if uris.is_empty() {
            "the client lists no roots"
        } else {
            "none of the client's roots is a local file:// directory"
        });
    };
    if !crate::sys::CONTAINMENT {
        return Confinement::none(&format!(
            "the client's root {} cannot be kept on this system (README: Platforms)",
            first.display()
        ));
    }
    let holding = dirs.iter().find(|d| cwd.starts_with(d));
    let root = holding.unwrap_or(first).clone();
    let others = dirs.len() - 1;
    let mut said = format!("confined to {} (the client's root", root.display());
    if others > 0 {
        said.push_str(&format!(
            "; {others} other root{} not used: quill confines to one",
            if others == 1 { "" } else { "s" }
        ));
    }
    said.push(')');
    let cwd = match holding {
        Some(_) => None,
        None => {
            said.push_str(&format!("; relative paths start from {}", root.display()));
            Some(root.clone())
        }
    };
    Confinement {
        root: Some(root),
        cwd,
        said,
    }
}

/// The absolute local path a `file://` URI names (`file:///home/a%20b` → `/home/a b`), lexically
/// normalized (`.` and `..` taken out); `None` for another scheme, a remote host, a relative or
/// malformed URI.
pub(crate) fn file_path(uri: &str) -> Option<PathBuf> {
    let rest = uri
        .strip_prefix("file://")
        .or_else(|| uri.strip_prefix("FILE://"))?;
    let path = match rest.find('/') {
        Some(0) => rest,
        Some(i) if &rest[..i] == "localhost" => &rest[i..],
        _ => return None,
    };
    let path = path.split(['?', '#']).next().unwrap_or_default();
    let bytes = percent_decode(path.as_bytes())?;
    if bytes.contains(&0) {
        return None;
    }
    // The URI's path as this system writes it (`/C:/x` is `C:/x` on Windows).
    let path = sys::path_of_uri(bytes);
    let mut out = PathBuf::new();
    for c in path.components() {
        match c {
            Component::Normal(n) => out.push(n),
            Component::ParentDir => {
                out.pop();
            }
            Component::Prefix(_) | Component::RootDir => out.push(c.as_os_str()),
            Component::CurDir => {}
        }
    }
    out.is_absolute().then_some(out)
}

fn percent_decode(s: &[u8]) -> Option<Vec<u8>> {
    let mut out = Vec::with_capacity(s.len());
    let mut i = 0;
    while i < s.len() {
        if s[i] == b'%' {
            let hex = s.get(i + 1..i + 3)?;
            let hex = std::str::from_utf8(hex).ok()?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(s[i]);
            i += 1;
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_uris_become_paths() {
        let p = |u: &str| file_path(u).map(|p| p.display().to_string());
        assert_eq!(p("file:///home/a").as_deref(), Some("/home/a"));
        assert_eq!(p("file:///home/a%20b/").as_deref(), Some("/home/a b"));
        assert_eq!(p("file://localhost/srv/x").as_deref(), Some("/srv/x"));
        assert_eq!(p("file:///a/b/../c/./d").as_deref(), Some("/a/c/d"));
        assert_eq!(p("file:///../..").as_deref(), Some("/"));
        assert_eq!(p("file:///a?x=1").as_deref(), Some("/a"));
        assert_eq!(p("file://host/share"), None);
        assert_eq!(p("https://example.com/a"), None);
        assert_eq!(p("file:///bad%zz"), None);
        assert_eq!(p("file:///nul%00byte"), None);
        assert_eq!(p("file://"), None);
        assert_eq!(
            file_path("file:///x/%FF")
                .unwrap()
                .as_os_str()
                .as_encoded_bytes(),
            b"/x/\xff"
        );
    }

    #[test]
    fn one_root_is_chosen_and_said() {
        let uris = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        let c = from_client(
            &uris(&["file:///ws/a", "file:///ws/b"]),
            Path::new("/ws/b/src"),
        );
        assert_eq!(c.root.as_deref(), Some(Path::new("/ws/b")));
        assert_eq!(c.cwd, None);
        assert!(c.said.contains("1 other root not used"), "{}", c.said);
        let c = from_client(&uris(&["file:///ws/a"]), Path::new("/elsewhere"));
        assert_eq!(c.root.as_deref(), Some(Path::new("/ws/a")));
        assert_eq!(c.cwd.as_deref(), Some(Path::new("/ws/a")));
        assert!(
            c.said.contains("relative paths start from /ws/a"),
            "{}",
            c.said
        );
        // `/ws2` is not inside `/ws`: components, not string prefixes.
        let c = from_client(&uris(&["file:///ws", "file:///ws2"]), Path::new("/ws2/x"));
        assert_eq!(c.root.as_deref(), Some(Path::new("/ws2")));
        let c = from_client(&[], Path::new("/x"));
        assert_eq!(c.root, None);
        assert!(c.said.starts_with("not confined"));
        let c = from_client(&uris(&["https://x"]), Path::new("/x"));
        assert_eq!(c.root, None);
    }
}
