//! `quill read DIR`: a directory is shown, not refused. A bounded listing two levels deep —
//! the directory's entries, then each subdirectory's, directories first and names in byte
//! order at each level — with file sizes, paged by `--offset`/`--limit`/`--max-bytes` like the
//! lines of a file. Hidden and ignored entries are left out as glob leaves them out (the
//! shared `walk` rules, `--hidden`, `--no-ignore`), and counted, so the answer says what the
//! flags would add. Nothing is opened but directories: no baseline, no `fileAccess`. Symbolic
//! links are listed as links, never followed; under `--root` a directory that no longer
//! resolves inside the root is not entered.

use std::collections::HashSet;
use std::fs;
use std::path::{Path, PathBuf};

use crate::error::{Error, Result};
use crate::fs::paths::{Resolved, Root};
use crate::output::text::human_bytes;
use crate::report::{ListingEntry, ListingReport, Report};
use crate::search::walk::{self, WalkOptions};
use crate::settings::Settings;
use crate::text::page::PageSpec;
use crate::warnings::WarningKind;

/// How deep a listing goes.
const DEPTH: usize = 2;
/// The most entries one listing looks at (each of its two walks); then it stops, incomplete.
const MAX_SCAN: usize = 10_000;

/// `--hidden`, `--no-ignore`.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct ListingOptions {
    pub hidden: bool,
    pub no_ignore: bool,
}

/// What one scan found.
struct Scan {
    entries: Vec<ListingEntry>,
    complete: bool,
    unreadable: Vec<PathBuf>,
}

pub(crate) fn run(
    s: &Settings,
    resolved: &Resolved,
    spec: PageSpec,
    opts: &ListingOptions,
) -> Result<Report> {
    let dir = &resolved.target;
    let root = s.root.as_ref();
    let asked = WalkOptions {
        hidden: opts.hidden,
        no_ignore: opts.no_ignore,
        follow: false,
    };
    let mut shown = scan(dir, &asked, root);
    shown.entries.sort_by_cached_key(|e| order_key(dir, e));
    // What the filters left out: everything, less what was shown (only for a whole listing).
    let (mut hidden, mut ignored) = (Some(0u64), Some(0u64));
    if !(opts.hidden && opts.no_ignore) {
        let all = scan(
            dir,
            &WalkOptions {
                hidden: true,
                no_ignore: true,
                follow: false,
            },
            root,
        );
        if shown.complete && all.complete {
            let seen: HashSet<&Path> = shown.entries.iter().map(|e| e.path.as_path()).collect();
            let (mut h, mut i) = (0, 0);
            for e in all
                .entries
                .iter()
                .filter(|e| !seen.contains(e.path.as_path()))
            {
                if !opts.hidden && is_hidden(dir, &e.path) {
                    h += 1;
                } else {
                    i += 1;
                }
            }
            (hidden, ignored) = (Some(h), Some(i));
        } else {
            (hidden, ignored) = (None, None);
        }
    }

    let total = shown.entries.len() as u64;
    if spec.offset > total && !(total == 0 && spec.offset == 1) {
        return Err(Error::OffsetPastEnd {
            path: dir.clone(),
            offset: spec.offset,
            total_lines: total,
        });
    }
    let typed = typed_prefix(&resolved.typed);
    let mut lines = Vec::new();
    let mut page = Vec::new();
    let mut bytes = 0u64;
    let skip = (spec.offset - 1) as usize;
    for e in shown.entries.into_iter().skip(skip) {
        if page.len() as u64 >= spec.limit {
            break;
        }
        let line = display_line(dir, &typed, &e);
        let cost = line.len() as u64 + 1;
        // Like a page of lines: stop before the entry that would pass the budget, but always
        // show one.
        if !page.is_empty() && bytes + cost > spec.max_bytes {
            break;
        }
        bytes += cost;
        lines.push(line);
        page.push(e);
    }
    let shown_n = page.len() as u64;
    let end = spec.offset + shown_n - 1;
    if !shown.complete {
        s.warn(WarningKind::WalkLimit, format!(
            "the listing of {} stopped after {MAX_SCAN} entries; read a subdirectory, or `quill glob`, for the rest",
            dir.display()
        ));
    }
    for d in shown.unreadable.iter().take(20) {
        s.warn(
            WarningKind::UnreadableSkipped,
            format!("cannot read directory {} (skipped)", d.display()),
        );
    }
    let mut unreadable = shown.unreadable;
    unreadable.sort();
    Ok(Report::Listing(ListingReport {
        path: dir.clone(),
        via_symlink: resolved.via_symlink.clone(),
        kind: "directory",
        entries: page,
        start_entry: spec.offset,
        end_entry: if shown_n == 0 { spec.offset - 1 } else { end },
        total_entries: total,
        next_offset: (end < total).then_some(end + 1),
        depth: DEPTH,
        hidden_left_out: hidden,
        ignored_left_out: ignored,
        walk_incomplete: !shown.complete || !unreadable.is_empty(),
        unreadable_directories: unreadable,
        lines,
        typed: typed_call(&resolved.typed),
    }))
}

/// The directory's entries, then its subdirectories' (breadth first, so a large
/// subdirectory cannot hide the directory's own entries), at most `MAX_SCAN`.
fn scan(dir: &Path, opts: &WalkOptions, root: Option<&Root>) -> Scan {
    let mut out = Scan {
        entries: Vec::new(),
        complete: true,
        unreadable: Vec::new(),
    };
    children(dir, 1, opts, root, &mut out);
    let subdirs: Vec<PathBuf> = out
        .entries
        .iter()
        .filter(|e| e.kind == "dir")
        .map(|e| e.path.clone())
        .collect();
    for sub in subdirs {
        if !out.complete {
            break;
        }
        // Entered by path: it must still be a directory (not a link swapped in), inside the
        // root.
        let still_dir = fs::symlink_metadata(&sub).is_ok_and(|m| m.is_dir());
        let inside =
            root.is_none_or(|r| crate::sys::canonicalize(&sub).is_ok_and(|c| r.contains(&c)));
        if still_dir && inside {
            children(&sub, 2, opts, root, &mut out);
        }
    }
    out
}

/// The entries of one directory, as the shared walker filters them.
fn children(dir: &Path, depth: usize, opts: &WalkOptions, root: Option<&Root>, out: &mut Scan) {
    let mut b = walk::builder(&[dir.to_path_buf()], opts, root);
    b.max_depth(Some(1));
    for item in b.build() {
        let entry = match item {
            Ok(e) => e,
            Err(e) => {
                if let Some(p) = e_path(&e) {
                    out.unreadable.push(p);
                }
                continue;
            }
        };
        if entry.depth() == 0 || walk::is_quill_temp(entry.file_name()) {
            continue;
        }
        if out.entries.len() >= MAX_SCAN {
            out.complete = false;
            return;
        }
        let ft = entry.file_type();
        let kind = match ft {
            Some(t) if t.is_dir() => "dir",
            Some(t) if t.is_file() => "file",
            Some(t) if t.is_symlink() => "symlink",
            _ => "other",
        };
        let size = (kind == "file")
            .then(|| entry.metadata().ok().map(|m| m.len()))
            .flatten();
        let target = (kind == "symlink")
            .then(|| fs::read_link(entry.path()).ok())
            .flatten();
        out.entries.push(ListingEntry {
            path: entry.path().to_path_buf(),
            kind,
            size,
            depth,
            target,
        });
    }
}

/// The path a walker error is about, when it names one.
fn e_path(e: &ignore::Error) -> Option<PathBuf> {
    match e {
        ignore::Error::WithPath { path, .. } => Some(path.clone()),
        ignore::Error::WithDepth { err, .. } | ignore::Error::WithLineNumber { err, .. } => {
            e_path(err)
        }
        _ => None,
    }
}

/// Listing order: directories before the rest at each level, then names in byte order; a
/// subdirectory's entries right after it.
fn order_key(dir: &Path, e: &ListingEntry) -> Vec<(bool, Vec<u8>)> {
    let rel = e.path.strip_prefix(dir).unwrap_or(&e.path);
    let parts: Vec<&std::ffi::OsStr> = rel.iter().collect();
    parts
        .iter()
        .enumerate()
        .map(|(i, part)| {
            let is_last = i + 1 == parts.len();
            // Every component but the last is a directory.
            let not_dir = is_last && e.kind != "dir";
            (not_dir, part.as_encoded_bytes().to_vec())
        })
        .collect()
}

/// Whether some component below `dir` starts with a dot.
fn is_hidden(dir: &Path, path: &Path) -> bool {
    path.strip_prefix(dir)
        .unwrap_or(path)
        .iter()
        .any(|c| c.as_encoded_bytes().first() == Some(&b'.'))
}

/// What text output puts before an entry's path below the directory: the directory as typed
/// and a slash (nothing for `.`).
fn typed_prefix(typed: &Path) -> String {
    let t = typed.to_string_lossy();
    let t = t.trim_end_matches('/');
    match t {
        "." | "" if typed.as_os_str() != "/" => String::new(),
        "" => "/".into(),
        _ => format!("{t}/"),
    }
}

/// The directory as a `quill read` argument in a hint.
fn typed_call(typed: &Path) -> String {
    let s = typed.to_string_lossy();
    let plain = |c: char| c.is_ascii_alphanumeric() || "/._-+,:@%".contains(c);
    if !s.is_empty() && s.chars().all(plain) {
        s.into_owned()
    } else {
        format!("'{}'", s.replace('\'', "'\\''"))
    }
}

/// One entry as text output shows it: `src/cmd/`, `src/main.rs  1.2 KiB`, `link -> target`.
fn display_line(dir: &Path, typed: &str, e: &ListingEntry) -> String {
    let rel = e.path.strip_prefix(dir).unwrap_or(&e.path);
    let name = format!("{typed}{}", rel.to_string_lossy());
    match (e.kind, e.size, &e.target) {
        ("dir", _, _) => format!("{name}/"),
        ("file", Some(n), _) => format!("{name}  {}", human_bytes(n)),
        ("symlink", _, Some(t)) => format!("{name} -> {}", t.to_string_lossy()),
        ("other", _, _) => format!("{name}  (special file)"),
        _ => name,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(path: &str, kind: &'static str) -> ListingEntry {
        ListingEntry {
            path: PathBuf::from(path),
            kind,
            size: (kind == "file").then_some(1536),
            depth: path.matches('/').count() - 1,
            target: (kind == "symlink").then(|| PathBuf::from("../x")),
        }
    }

    #[test]
    fn directories_come_first_and_children_follow_their_parent() {
        let dir = Path::new("/d");
        let mut v = [
            entry("/d/z.txt", "file"),
            entry("/d/b/y.rs", "file"),
            entry("/d/a", "file"),
            entry("/d/b", "dir"),
            entry("/d/b/sub", "dir"),
            entry("/d/c", "dir"),
            entry("/d/ln", "symlink"),
        ];
        v.sort_by_cached_key(|e| order_key(dir, e));
        let order: Vec<&str> = v.iter().map(|e| e.path.to_str().unwrap()).collect();
        assert_eq!(
            order,
            [
                "/d/b",
                "/d/b/sub",
                "/d/b/y.rs",
                "/d/c",
                "/d/a",
                "/d/ln",
                "/d/z.txt"
            ]
        );
    }

    #[test]
    fn lines_name_entries_as_typed() {
        let dir = Path::new("/w/src");
        assert_eq!(typed_prefix(Path::new("src")), "src/");
        assert_eq!(typed_prefix(Path::new("src/")), "src/");
        assert_eq!(typed_prefix(Path::new(".")), "");
        assert_eq!(typed_prefix(Path::new("/")), "/");
        let line = |p, k| display_line(dir, "src/", &entry(p, k));
        assert_eq!(line("/w/src/cmd", "dir"), "src/cmd/");
        assert_eq!(line("/w/src/main.rs", "file"), "src/main.rs  1.5 KiB");
        assert_eq!(line("/w/src/ln", "symlink"), "src/ln -> ../x");
        assert_eq!(line("/w/src/p", "other"), "src/p  (special file)");
        assert!(is_hidden(dir, Path::new("/w/src/.git/config")));
        assert!(!is_hidden(dir, Path::new("/w/src/a/b")));
        assert_eq!(typed_call(Path::new("my dir")), "'my dir'");
    }
}
