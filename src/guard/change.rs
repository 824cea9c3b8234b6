//! The report of a change (docs/commands/write.md): what a mutation did, with its display diff
//! and the patch `git apply` takes — made in one place for write, edit, rm, undo and every file
//! of apply. Content above `DIFF_INPUT_MAX` gets no diff; UTF-16 is diffed as decoded text.

use std::path::Path;

use crate::fs::paths::Resolved;
use crate::report::{AsTyped, FileAccess, MutationReport};
use crate::settings::Settings;
use crate::text::diff::{self, PatchTarget};
use crate::text::encoding::{self, Encoding};

/// Content above this (old or new) gets no diff: the line diff would cost more than the change.
pub(crate) const DIFF_INPUT_MAX: usize = 16 * 1024 * 1024;

/// The path a patch names (docs/commands/write.md): relative to `--root`, else to the current directory
/// when below it (prefixed `a/`, `b/`), else absolute.
pub(crate) fn patch_path<'a>(s: &Settings, target: &'a Path) -> (&'a Path, bool) {
    let base = s.root.as_ref().map_or(s.cwd.as_path(), |r| r.dir.as_path());
    match target.strip_prefix(base) {
        Ok(rel) if !rel.as_os_str().is_empty() => (rel, true),
        _ => (target, false),
    }
}

/// What a mutation did, for its report.
pub(crate) struct Change<'a> {
    pub op: &'static str,
    pub resolved: &'a Resolved,
    pub created: bool,
    /// The file was deleted (rm, undo of a creation): its permission bits, for git's header.
    pub deleted: Option<u32>,
    pub dry_run: bool,
    /// Old content (None: the file did not exist or was too large to diff).
    pub old: Option<&'a [u8]>,
    /// New content (None: too large to diff).
    pub new: Option<&'a [u8]>,
    pub bytes: u64,
    /// The new content's hash; None when no file is left.
    pub sha256: Option<String>,
    pub previous_sha256: Option<String>,
    /// What `old` and `new` are.
    pub view: View,
}

/// The content a change report is given.
#[derive(Clone, Copy, Default, PartialEq, Eq)]
pub(crate) enum View {
    /// The file's bytes: UTF-16 (known by its BOM) is decoded here for the diff, which then
    /// has no patch (write, rm, undo, apply).
    #[default]
    Bytes,
    /// Text the caller decoded already (edit, for UTF-16 and legacy encodings): diffed as it
    /// is, with no patch, for this reason.
    Decoded(&'static str),
}

/// UTF-16 content (by its BOM) decoded for the display diff.
fn utf16_text(bytes: &[u8]) -> Option<Vec<u8>> {
    match Encoding::from_bom(bytes)? {
        e @ (Encoding::Utf16Le | Encoding::Utf16Be) => {
            Some(encoding::decode(bytes, e).0.into_owned())
        }
        Encoding::Utf8 | Encoding::Utf8Bom | Encoding::Legacy(_) => None,
    }
}

/// The report of a change: what it did, and its diff and patch (none for content above
/// `DIFF_INPUT_MAX`). The one place a `MutationReport` is made.
pub(crate) fn report(s: &Settings, o: Change) -> MutationReport {
    let small = |b: &&[u8]| b.len() <= DIFF_INPUT_MAX;
    let (old, new) = (o.old.filter(small), o.new.filter(small));
    // UTF-16 bytes: diff the decoded text, which a person can read; a byte-exact text patch
    // of UTF-16 cannot exist.
    let (old16, new16) = match o.view {
        View::Bytes => (old.and_then(utf16_text), new.and_then(utf16_text)),
        View::Decoded(_) => (None, None),
    };
    let patch_unavailable = match o.view {
        View::Decoded(why) => Some(why),
        View::Bytes if old16.is_some() || new16.is_some() => {
            Some("the file is UTF-16; the diff shows the decoded text")
        }
        View::Bytes => None,
    };
    let old_view = old16.as_deref().or(old);
    let new_view = new16.as_deref().or(new);
    let target = &o.resolved.target;
    let (path, prefixed) = patch_path(s, target);
    let pt = PatchTarget { path, prefixed };
    let old_known = o.created || old_view.is_some();
    let rendered = match (new_view, old_known) {
        (Some(new), true) => {
            let old = old_view.unwrap_or(&[]);
            let mut r = diff::render(old, new, &pt, o.created);
            if let Some(mode) = o.deleted {
                // git knows two modes for regular files.
                let git_mode = if mode & 0o111 != 0 {
                    "100755"
                } else {
                    "100644"
                };
                r.patch = r.patch.map(|p| {
                    if p.is_empty() {
                        // An empty file: git's deletion patch is the header alone.
                        let (a, b) = diff::header_names(&pt);
                        format!("diff --git {a} {b}\ndeleted file mode {git_mode}\n")
                    } else {
                        deletion_patch(&p, git_mode)
                    }
                });
            }
            Some(r)
        }
        _ => None,
    };
    let mut m = MutationReport {
        op: o.op,
        path: target.clone(),
        via_symlink: o.resolved.via_symlink.clone(),
        file_access: (!o.dry_run).then(|| FileAccess::write(target)),
        created: o.created,
        dry_run: o.dry_run,
        bytes: o.bytes,
        sha256: o.sha256,
        previous_sha256: o.previous_sha256,
        diff: String::new(),
        diff_truncated: false,
        patch: None,
        patch_truncated: false,
        patch_unavailable: None,
        added: 0,
        removed: 0,
        replacements: None,
        matched_fuzzily: None,
        spans: None,
        replaced: None,
        outside_change: None,
        encoding: None,
        deleted: o.deleted.is_some(),
        typed: AsTyped::one(target, &o.resolved.typed),
    };
    match rendered {
        Some(r) => {
            m.diff = r.diff;
            m.diff_truncated = r.diff_truncated;
            m.patch = r.patch;
            m.patch_truncated = r.patch_truncated;
            m.patch_unavailable = r.patch_unavailable;
            m.added = r.added;
            m.removed = r.removed;
        }
        None => {
            m.diff_truncated = true;
            m.patch_truncated = true;
        }
    }
    if let Some(why) = patch_unavailable {
        m.patch = None;
        m.patch_unavailable = Some(why);
    }
    m
}

/// Turn a patch that empties a file into one that deletes it (git's `deleted file mode`).
fn deletion_patch(patch: &str, git_mode: &str) -> String {
    let mut out = String::with_capacity(patch.len() + 32);
    for (i, line) in patch.split_inclusive('\n').enumerate() {
        if i == 0 {
            out.push_str(line);
            out.push_str(&format!("deleted file mode {git_mode}\n"));
        } else if line.starts_with("+++ ") && !out.contains("\n+++ ") {
            out.push_str("+++ /dev/null\n");
        } else {
            out.push_str(line);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fs::paths;
    use std::fs;
    use std::path::PathBuf;
    fn settings(dir: &Path, root: bool) -> Settings {
        crate::settings::for_tests(dir, root)
    }

    fn tmp() -> (tempfile::TempDir, PathBuf) {
        let t = tempfile::tempdir().unwrap();
        let dir = fs::canonicalize(t.path()).unwrap();
        (t, dir)
    }

    #[test]
    fn utf16_is_decoded_by_its_bom() {
        assert_eq!(utf16_text(&[0xFF, 0xFE, b'h', 0, b'i', 0]).unwrap(), b"hi");
        assert_eq!(utf16_text(&[0xFE, 0xFF, 0, b'h', 0, b'i']).unwrap(), b"hi");
        assert!(utf16_text(b"hi").is_none());
        assert!(utf16_text(&[0xFF]).is_none());
    }

    #[test]
    fn patch_paths_are_relative_to_the_root_or_cwd() {
        let (_t, dir) = tmp();
        let s = settings(&dir, false);
        let ab = dir.join("a/b");
        assert_eq!(patch_path(&s, &ab), (Path::new("a/b"), true));
        // The directory itself: nothing relative is left, so the absolute path.
        assert_eq!(patch_path(&s, &dir), (dir.as_path(), false));
        assert_eq!(
            patch_path(&s, Path::new("/elsewhere/x")),
            (Path::new("/elsewhere/x"), false)
        );
        let mut rooted = settings(&dir, true);
        rooted.cwd = dir.join("sub");
        let x = dir.join("x");
        assert_eq!(patch_path(&rooted, &x), (Path::new("x"), true));
    }

    fn change_report(
        dir: &Path,
        old: Option<&[u8]>,
        new: &[u8],
        deleted: Option<u32>,
    ) -> MutationReport {
        let s = settings(dir, false);
        let resolved = paths::resolve(dir, None, Path::new("f")).unwrap();
        report(
            &s,
            Change {
                op: "undo",
                resolved: &resolved,
                created: old.is_none(),
                deleted,
                dry_run: true,
                old,
                new: Some(new),
                bytes: new.len() as u64,
                sha256: None,
                previous_sha256: None,
                view: View::Bytes,
            },
        )
    }

    /// One side in UTF-16 is enough: no byte-exact text patch can exist.
    #[test]
    fn a_change_to_or_from_utf16_has_no_patch() {
        let (_t, dir) = tmp();
        let utf16 = [0xFF, 0xFE, b'h', 0, b'i', 0, b'\n', 0];
        let to = change_report(&dir, Some(b"hi\n"), &utf16, None);
        assert!(to.patch.is_none() && to.patch_unavailable.is_some());
        let from = change_report(&dir, Some(&utf16), b"hi\n", None);
        assert!(from.patch.is_none() && from.patch_unavailable.is_some());
        let plain = change_report(&dir, Some(b"hi\n"), b"ho\n", None);
        assert!(plain.patch.is_some() && plain.patch_unavailable.is_none());
    }

    /// An undone creation's patch deletes the file with its git mode: 100755 only when an
    /// execute bit is set.
    #[test]
    fn a_deletion_patch_names_the_git_mode() {
        let (_t, dir) = tmp();
        for (mode, git) in [
            (0o100644, "100644"),
            (0o100600, "100644"),
            (0o100755, "100755"),
            (0o100700, "100755"),
        ] {
            let r = change_report(&dir, Some(b"x\n"), b"", Some(mode));
            let patch = r.patch.unwrap();
            assert!(
                patch.contains(&format!("deleted file mode {git}\n")),
                "{mode:o}: {patch}"
            );
        }
    }

    #[test]
    fn content_over_the_diff_cap_gets_no_diff() {
        let (_t, dir) = tmp();
        let s = settings(&dir, false);
        let resolved = paths::resolve(&dir, None, Path::new("f")).unwrap();
        let big = vec![b'x'; DIFF_INPUT_MAX + 1];
        let change = |old: Option<&'static [u8]>, new: &[u8]| {
            report(
                &s,
                Change {
                    op: "write",
                    resolved: &resolved,
                    created: old.is_none(),
                    deleted: None,
                    dry_run: true,
                    old,
                    new: Some(new),
                    bytes: new.len() as u64,
                    sha256: None,
                    previous_sha256: None,
                    view: View::Bytes,
                },
            )
        };
        let m = change(None, &big);
        assert!(m.diff_truncated && m.diff.is_empty());
        let m = change(None, b"small\n");
        assert!(!m.diff_truncated && m.added == 1, "{}", m.diff);
        // The cap is 16 MiB (the contract: content above it gets no diff), and content at it gets one.
        assert_eq!(DIFF_INPUT_MAX, 16 << 20);
        let at_cap = vec![b'x'; DIFF_INPUT_MAX];
        let m = change(None, &at_cap);
        assert!(!m.diff_truncated && m.added == 1);
        let big_old: &'static [u8] = Box::leak(big.clone().into_boxed_slice());
        let m = change(Some(big_old), b"small\n");
        assert!(m.diff_truncated);
    }
}
