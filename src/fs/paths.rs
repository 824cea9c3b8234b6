//! Paths quill may touch. `resolve` is the only way to turn a user's path into one: it makes it
//! absolute, follows symbolic links to the real file (or, for a file about to be created, to
//! its real parent), and refuses anything that lands outside `--root` (`outside_root`).
//! Containment is decided on the resolved path, component by component, never by string
//! prefix. `probe` adds `openat2(RESOLVE_BENEATH)` at open time so a link swapped in after
//! this check cannot escape either.

use std::fs;
use std::io;
use std::path::{Component, Path, PathBuf};

use crate::error::{Error, Result};

/// The confinement directory, canonical.
#[derive(Debug, Clone)]
pub(crate) struct Root {
    pub dir: PathBuf,
}

impl Root {
    pub(crate) fn new(dir: &Path) -> Result<Root> {
        if !crate::sys::CONTAINMENT {
            // Refused rather than pretended: a check by path could be raced by a link.
            return Err(Error::invalid_argument(format!(
                "--root {} cannot be kept on this system: it has no way to open a path beneath a directory without following links (README: Platforms); run without --root",
                dir.display()
            )));
        }
        let canonical =
            crate::sys::canonicalize(dir).map_err(|e| Error::io("resolve the root", dir, e))?;
        if !canonical.is_dir() {
            return Err(Error::invalid_argument(format!(
                "--root {} is not a directory",
                dir.display()
            )));
        }
        Ok(Root { dir: canonical })
    }

    pub(crate) fn contains(&self, path: &Path) -> bool {
        path.starts_with(&self.dir)
    }
}

/// A path after resolution.
#[derive(Debug, Clone)]
pub(crate) struct Resolved {
    /// The path exactly as given (text output names the file this way).
    pub typed: PathBuf,
    /// The path as given, made absolute (not resolved).
    pub requested: PathBuf,
    /// The real file: every symlink resolved. For a missing file, its real parent joined with
    /// the remaining components.
    pub target: PathBuf,
    /// The requested path when it is itself a symbolic link.
    pub via_symlink: Option<PathBuf>,
    /// Whether `target` existed when resolved.
    pub exists: bool,
}

/// Resolve `path` against `cwd`, following symlinks, and check it against `root`.
pub(crate) fn resolve(cwd: &Path, root: Option<&Root>, path: &Path) -> Result<Resolved> {
    if path.as_os_str().is_empty() {
        return Err(Error::invalid_argument("the path is empty"));
    }
    // Not folded lexically: `link/..` is the link target's parent, as the kernel sees it.
    let requested = cwd.join(path);
    let is_link = fs::symlink_metadata(&requested).is_ok_and(|m| m.file_type().is_symlink());
    let via_symlink = is_link.then(|| requested.clone());
    let (target, exists) = match crate::sys::canonicalize(&requested) {
        Ok(t) => (t, true),
        Err(e) if e.kind() == io::ErrorKind::NotFound => {
            if is_link {
                // A dangling link: name the missing target.
                let missing = dangling_target(&requested);
                check_root(root, &requested, &missing)?;
                return Err(not_found(missing));
            }
            (resolve_missing(&requested)?, false)
        }
        Err(e) if e.kind() == io::ErrorKind::NotADirectory => {
            // A parent component is a file (so no names are listed: its parent is
            // not a directory either).
            return Err(not_found(requested));
        }
        Err(e) => return Err(Error::io("resolve", &requested, e)),
    };
    check_root(root, &requested, &target)?;
    Ok(Resolved {
        typed: path.to_path_buf(),
        requested,
        target,
        via_symlink,
        exists,
    })
}

fn check_root(root: Option<&Root>, requested: &Path, target: &Path) -> Result<()> {
    match root {
        Some(root) if !root.contains(target) => Err(Error::OutsideRoot {
            requested: requested.to_path_buf(),
            target: target.to_path_buf(),
            root: root.dir.clone(),
        }),
        _ => Ok(()),
    }
}

/// Follow a chain of links as far as it goes and return the first missing path.
fn dangling_target(link: &Path) -> PathBuf {
    let mut current = link.to_path_buf();
    for _ in 0..40 {
        match fs::read_link(&current) {
            Ok(next) => {
                let parent = current.parent().unwrap_or(Path::new("/"));
                let next = normalize_lexically(&parent.join(next));
                // Resolve the parent of the next hop so the reported path is real.
                current = match (next.parent(), next.file_name()) {
                    (Some(p), Some(name)) => crate::sys::canonicalize(p)
                        .map(|p| p.join(name))
                        .unwrap_or(next.clone()),
                    _ => next,
                };
            }
            Err(_) => return current,
        }
    }
    current
}

/// For a file that does not exist yet: canonicalize the deepest existing ancestor and append
/// the rest (which, not existing, contains no links).
fn resolve_missing(path: &Path) -> Result<PathBuf> {
    let mut existing = path.to_path_buf();
    let mut rest: Vec<Component> = Vec::new();
    let comps: Vec<Component> = path.components().collect();
    let mut i = comps.len();
    while i > 0 {
        match fs::symlink_metadata(&existing) {
            Ok(_) => break,
            Err(_) => {
                rest.push(comps[i - 1]);
                i -= 1;
                existing = comps[..i].iter().collect();
            }
        }
    }
    let mut base =
        crate::sys::canonicalize(&existing).map_err(|e| Error::io("resolve", &existing, e))?;
    if !rest.is_empty() && !base.is_dir() {
        // A component is a file: the listing of `path`'s parent fails, so no names are listed.
        return Err(not_found(path));
    }
    // Below the first missing component nothing exists, so nothing is a link: `..` and `.`
    // fold lexically there.
    for c in rest.into_iter().rev() {
        match c {
            Component::Normal(name) => base.push(name),
            Component::ParentDir => {
                base.pop();
            }
            _ => {}
        }
    }
    Ok(base)
}

/// `path` (absolute) with its existing part resolved as `resolve` does, or folded lexically
/// when that fails: the one spelling of a path that may not exist, for comparing paths.
pub(crate) fn absolute_missing(path: &Path) -> PathBuf {
    match crate::sys::canonicalize(path) {
        Ok(p) => p,
        Err(_) => resolve_missing(path).unwrap_or_else(|_| normalize_lexically(path)),
    }
}

/// Remove `.` and fold `..` without touching the file system (on an absolute path).
pub(crate) fn normalize_lexically(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in path.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                if !out.pop() {
                    out.push("/");
                }
                if out.as_os_str().is_empty() {
                    out.push("/");
                }
            }
            other => out.push(other.as_os_str()),
        }
    }
    out
}

/// A path for people: relative to `cwd` when below it, else absolute.
pub(crate) fn display(cwd: &Path, path: &Path) -> String {
    match path.strip_prefix(cwd) {
        Ok(rel) if !rel.as_os_str().is_empty() => rel.display().to_string(),
        _ => path.display().to_string(),
    }
}

/// The `not_found` error of `path`, listing the names in its directory that look like it.
/// Every "does not exist" quill reports is built here.
pub(crate) fn not_found(path: impl Into<PathBuf>) -> Error {
    let path = path.into();
    Error::NotFound {
        similar: similar_names(&path),
        path,
        near: Box::default(),
    }
}

/// Up to 3 names in `path`'s directory that look like its file name.
pub(crate) fn similar_names(path: &Path) -> Vec<PathBuf> {
    let (Some(dir), Some(name)) = (path.parent(), path.file_name()) else {
        return Vec::new();
    };
    let name = name.to_string_lossy().to_lowercase();
    let Ok(entries) = fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut scored: Vec<(usize, PathBuf)> = entries
        .filter_map(|e| e.ok())
        .take(10_000)
        .filter_map(|e| {
            let raw = e.file_name();
            let candidate = raw.to_string_lossy();
            let d = strsim::levenshtein(&name, &candidate.to_lowercase());
            let limit = (name.chars().count().max(3) / 3).max(2);
            let same_stem = stem(&candidate).eq_ignore_ascii_case(stem(&name));
            // Scored by the name as text, named by its exact bytes.
            (d <= limit || same_stem).then(|| (d, dir.join(&raw)))
        })
        .collect();
    scored.sort();
    scored.into_iter().take(3).map(|(_, s)| s).collect()
}

fn stem(name: &str) -> &str {
    match name.rfind('.') {
        Some(i) if i > 0 => &name[..i],
        _ => name,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lexical_normalization() {
        assert_eq!(
            normalize_lexically(Path::new("/a/./b/../c")),
            PathBuf::from("/a/c")
        );
        assert_eq!(normalize_lexically(Path::new("/../x")), PathBuf::from("/x"));
    }

    #[test]
    fn containment_is_by_component() {
        let root = Root {
            dir: PathBuf::from("/ws"),
        };
        assert!(root.contains(Path::new("/ws/a")));
        assert!(!root.contains(Path::new("/ws2/a")));
    }

    #[test]
    fn similar_names_by_distance_or_stem() {
        let dir = tempfile::tempdir().unwrap();
        for name in ["main.rs", "main.c", "other.txt"] {
            fs::write(dir.path().join(name), b"").unwrap();
        }
        let Error::NotFound { path, similar, .. } = not_found(dir.path().join("mian.rs")) else {
            panic!("not a not_found");
        };
        assert_eq!(path, dir.path().join("mian.rs"));
        assert_eq!(similar, [dir.path().join("main.rs")]);
        let Error::NotFound { similar, .. } = not_found(dir.path().join("main.h")) else {
            panic!("not a not_found");
        };
        assert_eq!(similar.len(), 2, "{similar:?}");
    }

    #[test]
    fn display_relative_below_cwd() {
        assert_eq!(display(Path::new("/w"), Path::new("/w/a/b")), "a/b");
        assert_eq!(display(Path::new("/w"), Path::new("/x/b")), "/x/b");
    }
}
