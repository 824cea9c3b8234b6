//! Display diff and git-style patch for one file's change (write, edit, undo).
//!
//! This module owns turning an old and a new byte buffer into the two diff texts quill
//! reports: the capped, human-readable `diff` (bare `@@` hunks, true 1-based line numbers,
//! lossy UTF-8) and the byte-faithful `patch` that `git apply` / `patch -p1` (or `patch -p0`
//! for absolute paths) turn from the old file into the new one. Lines are split after `\n`
//! only, so a `\r` stays part of its line and CRLF files round-trip; a last line without
//! `\n` gets git's `\ No newline at end of file` marker. A UTF-8 BOM both versions start
//! with is left out of the display diff (as `read` leaves it out) but kept in the patch. It
//! must stay pure: no I/O, no
//! panics on any input, and fast on huge files with a small change, which is why the common
//! leading and trailing lines are trimmed by byte comparison before `similar` sees anything.

use std::path::Path;

use similar::{Algorithm, DiffOp, DiffTag, capture_diff_slices, group_diff_ops};

/// Lines of the display diff kept before it is cut (`diff_truncated`).
pub const DIFF_MAX_LINES: usize = 200;
/// Lines a patch may have (headers included); past this the patch is dropped (`patch_truncated`).
pub const PATCH_MAX_LINES: usize = 800;
/// Unchanged lines shown around each change, as `diff -u` and git do.
pub const CONTEXT_LINES: usize = 3;
/// The reason given in [`Rendered::patch_unavailable`] when a hunk holds invalid UTF-8.
pub const INVALID_UTF8: &str = "content is not valid UTF-8";

const NO_NEWLINE: &[u8] = b"\\ No newline at end of file\n";
/// The UTF-8 byte order mark.
const BOM: &[u8] = b"\xef\xbb\xbf";

/// Where the patch says the file lives.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PatchTarget<'a> {
    /// The path as the patch names it: relative to the root or current directory when
    /// `prefixed` (headers `a/P` and `b/P`, for `git apply` / `patch -p1`), else absolute
    /// (headers `/abs/P` on both sides, for `patch -p0` run from `/`, or `git apply -p1`).
    /// Any bytes: a name that is not UTF-8 is C-quoted with octal escapes, as git does.
    pub path: &'a Path,
    /// Whether the path gets git's `a/` and `b/` prefixes.
    pub prefixed: bool,
}

/// Both diff texts of one change, with their caps and line counts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rendered {
    /// Bare unified hunks (no `---`/`+++` header), at most [`DIFF_MAX_LINES`] lines, every
    /// line ending in `\n`; invalid UTF-8 is shown with U+FFFD. Empty when nothing changed.
    pub diff: String,
    /// True when `diff` was cut at [`DIFF_MAX_LINES`].
    pub diff_truncated: bool,
    /// The complete git-style patch; `Some("")` when nothing changed (and the file was not
    /// created); `None` when truncated or unavailable.
    pub patch: Option<String>,
    /// True when the patch would exceed [`PATCH_MAX_LINES`] and was dropped.
    pub patch_truncated: bool,
    /// Why `patch` is `None` when it was not truncated (today only [`INVALID_UTF8`]).
    pub patch_unavailable: Option<&'static str>,
    /// Lines present only in the new content.
    pub added: usize,
    /// Lines present only in the old content.
    pub removed: usize,
}

/// Diffs `old` against `new` line by line and renders the display diff and the patch.
///
/// When both start with a UTF-8 BOM, the display diff shows line 1 without it (`read` hides
/// it); the patch keeps it, byte for byte. A BOM added or removed is shown: it is the change.
///
/// With `created`, the file did not exist before: `old` is ignored (taken as empty) and the
/// patch adds the file against `/dev/null` with `new file mode 100644`, even when `new` is
/// empty.
pub fn render(old: &[u8], new: &[u8], target: &PatchTarget, created: bool) -> Rendered {
    render_near(old, new, target, created, None)
}

/// `render`, the display diff's hunks nearest the new file's lines `near` (1-based,
/// inclusive) first — the ones a reader needs first when the diff is cut — and the patch in
/// file order, as ever.
pub fn render_near(
    old: &[u8],
    new: &[u8],
    target: &PatchTarget,
    created: bool,
    near: Option<(usize, usize)>,
) -> Rendered {
    let old: &[u8] = if created { &[] } else { old };
    let mut out = Rendered {
        diff: String::new(),
        diff_truncated: false,
        patch: Some(String::new()),
        patch_truncated: false,
        patch_unavailable: None,
        added: 0,
        removed: 0,
    };
    if old == new && !created {
        return out;
    }

    let window = Middle::new(old, new);
    let hide_bom = old.starts_with(BOM) && new.starts_with(BOM);
    let ops = window.ops();
    for op in &ops {
        match op.tag() {
            DiffTag::Equal => {}
            DiffTag::Delete => out.removed += op.old_range().len(),
            DiffTag::Insert => out.added += op.new_range().len(),
            DiffTag::Replace => {
                out.removed += op.old_range().len();
                out.added += op.new_range().len();
            }
        }
    }

    let mut display = Capped::new(DIFF_MAX_LINES);
    let mut patch = Capped::new(PATCH_MAX_LINES);
    write_patch_header(&mut patch, target, created);
    let hunks = group_diff_ops(ops, CONTEXT_LINES);
    match near {
        None => {
            for hunk in &hunks {
                if display.full && patch.full {
                    break;
                }
                write_hunk(&mut display, &mut patch, &window, hunk, hide_bom);
            }
        }
        Some(near) => {
            let mut unused = Capped::new(0);
            for hunk in &hunks {
                write_hunk(&mut unused, &mut patch, &window, hunk, hide_bom);
            }
            let mut order: Vec<&Vec<DiffOp>> = hunks.iter().collect();
            order.sort_by_key(|h| distance(h, window.first_line, near));
            let mut unused = Capped::new(0);
            for hunk in order {
                write_hunk(&mut display, &mut unused, &window, hunk, hide_bom);
            }
        }
    }

    out.diff = String::from_utf8_lossy(&display.buf).into_owned();
    out.diff_truncated = display.full;
    if patch.full {
        out.patch = None;
        out.patch_truncated = true;
    } else {
        // Headers are ASCII or come from a `&str`, so this checks exactly the hunks' bytes:
        // invalid UTF-8 elsewhere in the file does not cost the patch.
        match String::from_utf8(patch.buf) {
            Ok(text) => out.patch = Some(text),
            Err(_) => {
                out.patch = None;
                out.patch_unavailable = Some(INVALID_UTF8);
            }
        }
    }
    out
}

/// How far hunk `h` (of a window starting at line `base`, 0-based) is from the new file's
/// lines `near` (1-based, inclusive): 0 when they share a line.
fn distance(h: &[DiffOp], base: usize, (first, last): (usize, usize)) -> usize {
    let (Some(a), Some(b)) = (h.first(), h.last()) else {
        return usize::MAX;
    };
    let (start, end) = (base + a.new_range().start + 1, base + b.new_range().end);
    if end < first {
        first - end
    } else {
        start.saturating_sub(last)
    }
}

/// The part of both files the line diff has to look at: the differing middle plus up to
/// [`CONTEXT_LINES`] common lines on each side, split into lines. Everything before it is
/// byte-identical in both files, so `first_line` numbers old and new alike.
struct Middle<'a> {
    old: Vec<&'a [u8]>,
    new: Vec<&'a [u8]>,
    first_line: usize,
    /// Common lines at the start and at the end of the window (context only).
    before: usize,
    after: usize,
}

impl<'a> Middle<'a> {
    fn new(old: &'a [u8], new: &'a [u8]) -> Self {
        // The middle starts at the line holding the first differing byte.
        let prefix = common_prefix_len(old, new);
        let mid = line_start_before(old, prefix);
        let (old_rest, new_rest) = (&old[mid..], &new[mid..]);

        // The middle ends where the common byte suffix (not overlapping the common prefix)
        // reaches a line start in both files.
        let suffix = common_suffix_len(old_rest, new_rest);
        let (mut old_mid_end, mut new_mid_end) = (old_rest.len() - suffix, new_rest.len() - suffix);
        if !(is_line_start(old_rest, old_mid_end) && is_line_start(new_rest, new_mid_end)) {
            (old_mid_end, new_mid_end) =
                next_line_start(old_rest, old_mid_end, new_rest, new_mid_end);
        }

        // Up to CONTEXT_LINES whole common lines on each side.
        let mut start = mid;
        for _ in 0..CONTEXT_LINES {
            if start == 0 {
                break;
            }
            start = line_start_before(old, start - 1);
        }
        let (mut old_end, mut new_end) = (old_mid_end, new_mid_end);
        for _ in 0..CONTEXT_LINES {
            if old_end == old_rest.len() {
                break;
            }
            (old_end, new_end) = next_line_start(old_rest, old_end, new_rest, new_end);
        }

        let before = count_lines(&old[start..mid]);
        let after = count_lines(&old_rest[old_mid_end..old_end]);
        Middle {
            old: split_lines(&old[start..mid + old_end]),
            new: split_lines(&new[start..mid + new_end]),
            first_line: count_newlines(&old[..start]),
            before,
            after,
        }
    }

    /// The line diff of the window. Only the middle goes to `similar`, so a change can never
    /// slide into the context lines (runs of equal lines would let it) and lose its context.
    fn ops(&self) -> Vec<DiffOp> {
        let (old_len, new_len) = (self.old.len(), self.new.len());
        let old_mid = self
            .old
            .get(self.before..old_len.saturating_sub(self.after))
            .unwrap_or_default();
        let new_mid = self
            .new
            .get(self.before..new_len.saturating_sub(self.after))
            .unwrap_or_default();
        let mut ops = Vec::new();
        if self.before > 0 {
            ops.push(DiffOp::Equal {
                old_index: 0,
                new_index: 0,
                len: self.before,
            });
        }
        let shift = self.before;
        ops.extend(
            capture_diff_slices(Algorithm::Myers, old_mid, new_mid)
                .into_iter()
                .map(|op| shifted(op, shift)),
        );
        if self.after > 0 {
            ops.push(DiffOp::Equal {
                old_index: old_len.saturating_sub(self.after),
                new_index: new_len.saturating_sub(self.after),
                len: self.after,
            });
        }
        ops
    }
}

fn shifted(op: DiffOp, by: usize) -> DiffOp {
    match op {
        DiffOp::Equal {
            old_index,
            new_index,
            len,
        } => DiffOp::Equal {
            old_index: old_index + by,
            new_index: new_index + by,
            len,
        },
        DiffOp::Delete {
            old_index,
            old_len,
            new_index,
        } => DiffOp::Delete {
            old_index: old_index + by,
            old_len,
            new_index: new_index + by,
        },
        DiffOp::Insert {
            old_index,
            new_index,
            new_len,
        } => DiffOp::Insert {
            old_index: old_index + by,
            new_index: new_index + by,
            new_len,
        },
        DiffOp::Replace {
            old_index,
            old_len,
            new_index,
            new_len,
        } => DiffOp::Replace {
            old_index: old_index + by,
            old_len,
            new_index: new_index + by,
            new_len,
        },
    }
}

/// An output buffer that stops accepting lines past a cap and remembers that it did.
struct Capped {
    buf: Vec<u8>,
    lines: usize,
    max: usize,
    full: bool,
}

impl Capped {
    fn new(max: usize) -> Self {
        Capped {
            buf: Vec::new(),
            lines: 0,
            max,
            full: false,
        }
    }

    /// Appends one line given as parts (the last part ends in `\n`), unless the cap is hit.
    fn line(&mut self, parts: &[&[u8]]) {
        if self.full {
            return;
        }
        if self.lines == self.max {
            self.full = true;
            return;
        }
        for part in parts {
            self.buf.extend_from_slice(part);
        }
        self.lines += 1;
    }
}

/// The old and new names of a patch's `diff --git` line: `a/P` and `b/P` (or the absolute
/// path twice), quoted as git quotes them.
pub fn header_names(target: &PatchTarget) -> (String, String) {
    if target.prefixed {
        (quote_path("a/", target.path), quote_path("b/", target.path))
    } else {
        let same = quote_path("", target.path);
        (same.clone(), same)
    }
}

fn write_patch_header(patch: &mut Capped, target: &PatchTarget, created: bool) {
    let (a, b) = header_names(target);
    // Git ends `---`/`+++` names holding a space with a tab so GNU patch reads them whole.
    let tab: &[u8] = if target.path.as_os_str().as_encoded_bytes().contains(&b' ') {
        b"\t"
    } else {
        b""
    };
    patch.line(&[b"diff --git ", a.as_bytes(), b" ", b.as_bytes(), b"\n"]);
    if created {
        patch.line(&[b"new file mode 100644\n"]);
        patch.line(&[b"--- /dev/null\n"]);
    } else {
        patch.line(&[b"--- ", a.as_bytes(), tab, b"\n"]);
    }
    patch.line(&[b"+++ ", b.as_bytes(), tab, b"\n"]);
}

/// One hunk into both texts; with `hide_bom`, the display shows line 1 without its BOM.
fn write_hunk(
    display: &mut Capped,
    patch: &mut Capped,
    window: &Middle,
    hunk: &[DiffOp],
    hide_bom: bool,
) {
    let (Some(first), Some(last)) = (hunk.first(), hunk.last()) else {
        return;
    };
    let old = first.old_range().start..last.old_range().end;
    let new = first.new_range().start..last.new_range().end;
    let base = window.first_line;
    let git_header = format!(
        "@@ -{} +{} @@\n",
        git_range(base + old.start, old.len()),
        git_range(base + new.start, new.len())
    );
    let display_header = format!(
        "@@ -{},{} +{},{} @@\n",
        range_start(base + old.start, old.len()),
        old.len(),
        range_start(base + new.start, new.len()),
        new.len()
    );
    display.line(&[display_header.as_bytes()]);
    patch.line(&[git_header.as_bytes()]);

    let mut emit = |sign: &'static [u8], line: &[u8], index: usize| {
        let first = hide_bom && base + index == 0;
        let shown = if first { line.strip_prefix(BOM) } else { None };
        for (out, line) in [(&mut *display, shown.unwrap_or(line)), (&mut *patch, line)] {
            if line.ends_with(b"\n") {
                out.line(&[sign, line]);
            } else {
                out.line(&[sign, line, b"\n"]);
                out.line(&[NO_NEWLINE]);
            }
        }
    };
    for op in hunk {
        let (tag, old_range, new_range) = op.as_tag_tuple();
        let (old_start, new_start) = (old_range.start, new_range.start);
        let old_lines = window.old.get(old_range).unwrap_or_default();
        let new_lines = window.new.get(new_range).unwrap_or_default();
        let old_lines = old_lines
            .iter()
            .enumerate()
            .map(|(i, l)| (old_start + i, l));
        let new_lines = new_lines
            .iter()
            .enumerate()
            .map(|(i, l)| (new_start + i, l));
        match tag {
            DiffTag::Equal => old_lines.for_each(|(i, l)| emit(b" ", l, i)),
            DiffTag::Delete => old_lines.for_each(|(i, l)| emit(b"-", l, i)),
            DiffTag::Insert => new_lines.for_each(|(i, l)| emit(b"+", l, i)),
            DiffTag::Replace => {
                old_lines.for_each(|(i, l)| emit(b"-", l, i));
                new_lines.for_each(|(i, l)| emit(b"+", l, i));
            }
        }
    }
}

/// The 1-based first line of a range; an empty range names the line before it (0 at the
/// top of the file), as git and `diff -u` do.
fn range_start(start0: usize, len: usize) -> usize {
    if len == 0 { start0 } else { start0 + 1 }
}

/// A hunk range exactly as git writes it: `,1` is left out, `,0` is kept.
fn git_range(start0: usize, len: usize) -> String {
    let start = range_start(start0, len);
    if len == 1 {
        start.to_string()
    } else {
        format!("{start},{len}")
    }
}

/// `prefix` + `path`, C-quoted the way git quotes names it cannot write bare (control
/// characters, `"` and `\`, and bytes that are not UTF-8, as `\377`); other bytes, UTF-8
/// included, stay as they are.
fn quote_path(prefix: &str, path: &Path) -> String {
    let bytes = path.as_os_str().as_encoded_bytes();
    let text = std::str::from_utf8(bytes).ok();
    let needs_quotes = text.is_none()
        || bytes
            .iter()
            .any(|&b| b < 0x20 || b == 0x7f || b == b'"' || b == b'\\');
    if let (false, Some(path)) = (needs_quotes, text) {
        return format!("{prefix}{path}");
    }
    let mut out = String::with_capacity(bytes.len() + prefix.len() + 4);
    out.push('"');
    out.push_str(prefix);
    for chunk in bytes.utf8_chunks() {
        quote_chars(&mut out, chunk.valid());
        for b in chunk.invalid() {
            out.push_str(&format!("\\{b:03o}"));
        }
    }
    out.push('"');
    out
}

/// The characters of a C-quoted name.
fn quote_chars(out: &mut String, path: &str) {
    for c in path.chars() {
        match c {
            '\x07' => out.push_str("\\a"),
            '\x08' => out.push_str("\\b"),
            '\t' => out.push_str("\\t"),
            '\n' => out.push_str("\\n"),
            '\x0b' => out.push_str("\\v"),
            '\x0c' => out.push_str("\\f"),
            '\r' => out.push_str("\\r"),
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if (c as u32) < 0x20 || c == '\x7f' => out.push_str(&format!("\\{:03o}", c as u32)),
            c => out.push(c),
        }
    }
}

/// Lines of `buf`, each with its `\n` (the last may have none): the one way quill splits a
/// file into lines for a diff (`edit::outside` too).
pub(crate) fn split_lines(buf: &[u8]) -> Vec<&[u8]> {
    buf.split_inclusive(|&b| b == b'\n').collect()
}

fn count_lines(buf: &[u8]) -> usize {
    buf.split_inclusive(|&b| b == b'\n').count()
}

fn count_newlines(buf: &[u8]) -> usize {
    buf.iter().filter(|&&b| b == b'\n').count()
}

fn is_line_start(buf: &[u8], pos: usize) -> bool {
    pos == 0 || buf.get(pos - 1) == Some(&b'\n')
}

/// The start of the line holding byte `pos` (or of the line after a `\n` ending at `pos-1`).
fn line_start_before(buf: &[u8], pos: usize) -> usize {
    buf.get(..pos)
        .and_then(|head| head.iter().rposition(|&b| b == b'\n'))
        .map_or(0, |i| i + 1)
}

/// Moves two equal-tailed positions to the next line start (or both ends). `old[old_pos..]`
/// and `new[new_pos..]` are byte-identical, so one search serves both.
fn next_line_start(old: &[u8], old_pos: usize, new: &[u8], new_pos: usize) -> (usize, usize) {
    match old
        .get(old_pos..)
        .and_then(|tail| tail.iter().position(|&b| b == b'\n'))
    {
        Some(i) => (old_pos + i + 1, new_pos + i + 1),
        None => (old.len(), new.len()),
    }
}

/// Chunked so the common case (megabytes of equal bytes) runs as `memcmp`.
const CHUNK: usize = 4096;

fn common_prefix_len(a: &[u8], b: &[u8]) -> usize {
    let mut len = 0;
    for (x, y) in a.chunks(CHUNK).zip(b.chunks(CHUNK)) {
        if x != y {
            return len + x.iter().zip(y).take_while(|(p, q)| p == q).count();
        }
        len += x.len();
    }
    len
}

fn common_suffix_len(a: &[u8], b: &[u8]) -> usize {
    let mut len = 0;
    for (x, y) in a.rchunks(CHUNK).zip(b.rchunks(CHUNK)) {
        if x != y {
            return len
                + x.iter()
                    .rev()
                    .zip(y.iter().rev())
                    .take_while(|(p, q)| p == q)
                    .count();
        }
        len += x.len();
    }
    len
}

/// Test input: `(text, crlf)` lines joined with `\r\n` or `\n`, the last one only with
/// `final_newline` (the property tests of the diff and of the patch core share it).
#[cfg(test)]
pub(crate) fn test_join(lines: &[(&str, bool)], final_newline: bool) -> Vec<u8> {
    let mut out = Vec::new();
    for (i, (text, crlf)) in lines.iter().enumerate() {
        out.extend_from_slice(text.as_bytes());
        if i + 1 < lines.len() || final_newline {
            out.extend_from_slice(if *crlf { b"\r\n" } else { b"\n" });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    //! Round trips through the real `git apply` and GNU `patch`, exact header checks, the
    //! caps, and property tests. I/O lives here only.

    use super::*;
    use proptest::prelude::*;
    use std::fs;
    use std::path::Path;
    use std::process::Command;

    const REL: &str = "src/file.txt";

    fn rel() -> PatchTarget<'static> {
        PatchTarget {
            path: Path::new(REL),
            prefixed: true,
        }
    }

    #[test]
    fn a_cut_diff_keeps_the_hunks_nearest_the_lines_asked_for_first() {
        // 300 lines, every tenth changed: 30 hunks, far more than the display keeps.
        let old: String = (1..=300).map(|i| format!("line {i}\n")).collect();
        let new: String = (1..=300)
            .map(|i| {
                if i % 10 == 0 {
                    format!("LINE {i}\n")
                } else {
                    format!("line {i}\n")
                }
            })
            .collect();
        let plain = render(old.as_bytes(), new.as_bytes(), &rel(), false);
        let near = render_near(
            old.as_bytes(),
            new.as_bytes(),
            &rel(),
            false,
            Some((280, 280)),
        );
        assert!(plain.diff_truncated && near.diff_truncated);
        assert!(plain.diff.contains("+LINE 10\n") && !plain.diff.contains("+LINE 280\n"));
        assert!(
            near.diff.starts_with("@@ -277,7 +277,7 @@\n"),
            "{}",
            near.diff
        );
        assert!(near.diff.contains("+LINE 280\n"));
        // The patch stays in file order, whole or not at all, as `render`'s.
        assert_eq!(near.patch, plain.patch);
        assert_eq!((near.added, near.removed), (plain.added, plain.removed));
    }

    /// A command isolated from the user's git configuration (autocrlf and friends).
    fn tool(program: &str, cwd: &Path) -> Command {
        let mut cmd = Command::new(program);
        cmd.current_dir(cwd)
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .env("GIT_CONFIG_GLOBAL", "/dev/null")
            .env("LC_ALL", "C");
        cmd
    }

    fn run(mut cmd: Command, patch: &str) {
        let out = cmd.output().expect("tool runs");
        assert!(
            out.status.success(),
            "{cmd:?} failed\nstdout: {}\nstderr: {}\npatch:\n{patch}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
    }

    /// Writes `old` (unless the file is created) at `path` in a fresh git repository,
    /// applies `patch` with `git apply` (`tool == "git"`) or `patch -p1`, returns the bytes.
    fn apply_rel(
        tool_name: &str,
        old: Option<&[u8]>,
        patch: &str,
        path: impl AsRef<Path>,
    ) -> Vec<u8> {
        let tmp = tempfile::tempdir().expect("tempdir");
        let repo = tmp.path().join("repo");
        fs::create_dir(&repo).expect("mkdir");
        let mut init = tool("git", &repo);
        init.args(["init", "-q", "."]);
        run(init, patch);
        let file = repo.join(path);
        if let Some(old) = old {
            fs::create_dir_all(file.parent().expect("parent")).expect("mkdir -p");
            fs::write(&file, old).expect("write old");
        }
        let patch_file = tmp.path().join("change.patch");
        fs::write(&patch_file, patch).expect("write patch");
        let mut cmd = tool(tool_name, &repo);
        if tool_name == "git" {
            cmd.arg("apply").arg("--whitespace=nowarn").arg(&patch_file);
        } else {
            cmd.args([
                "-p1",
                "--batch",
                "--fuzz=0",
                "--no-backup-if-mismatch",
                "-i",
            ])
            .arg(&patch_file);
        }
        run(cmd, patch);
        fs::read(&file).expect("read result")
    }

    /// Renders, then checks that both `git apply` and `patch -p1` turn old into new.
    fn roundtrip(old: &[u8], new: &[u8], created: bool) -> Rendered {
        let r = render(old, new, &rel(), created);
        let patch = r.patch.as_deref().expect("a patch");
        if patch.is_empty() {
            assert_eq!(old, new);
            return r;
        }
        let old = (!created).then_some(old);
        for tool_name in ["git", "patch"] {
            let got = apply_rel(tool_name, old, patch, REL);
            assert_eq!(
                String::from_utf8_lossy(&got),
                String::from_utf8_lossy(new),
                "{tool_name} result differs; patch:\n{patch}"
            );
            assert_eq!(got, new, "{tool_name} result differs in bytes");
        }
        r
    }

    fn numbered(range: std::ops::RangeInclusive<usize>) -> Vec<u8> {
        range
            .map(|i| format!("l{i}\n"))
            .collect::<String>()
            .into_bytes()
    }

    #[test]
    fn single_line_change_has_true_line_numbers() {
        let old = numbered(1..=20);
        let new = String::from_utf8(old.clone())
            .unwrap()
            .replace("l10\n", "L10\n");
        let r = roundtrip(&old, new.as_bytes(), false);
        assert_eq!(
            r.diff,
            "@@ -7,7 +7,7 @@\n l7\n l8\n l9\n-l10\n+L10\n l11\n l12\n l13\n"
        );
        assert_eq!(
            r.patch.as_deref(),
            Some(
                "diff --git a/src/file.txt b/src/file.txt\n--- a/src/file.txt\n+++ b/src/file.txt\n\
                 @@ -7,7 +7,7 @@\n l7\n l8\n l9\n-l10\n+L10\n l11\n l12\n l13\n"
            )
        );
        assert_eq!((r.added, r.removed), (1, 1));
        assert!(!r.diff_truncated && !r.patch_truncated && r.patch_unavailable.is_none());
    }

    #[test]
    fn hunks_match_git_diff_output() {
        let cases: &[(&[u8], &[u8])] = &[
            (b"a\nb\nc\n", b"a\nB\nc\n"),
            (b"a\nb\nc", b"a\nb\nC"),
            (b"a\n", b"a"),
            (b"x\n", b""),
            (
                b"1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n",
                b"0\n1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n",
            ),
            (b"1\n2\n3\n", b"1\n3\n"),
        ];
        for (old, new) in cases {
            let tmp = tempfile::tempdir().expect("tempdir");
            fs::write(tmp.path().join("old"), old).expect("write");
            fs::write(tmp.path().join("new"), new).expect("write");
            let mut cmd = tool("git", tmp.path());
            cmd.args(["diff", "--no-index", "--no-color", "-U3", "old", "new"]);
            let out = cmd.output().expect("git diff runs");
            let git = String::from_utf8(out.stdout).expect("utf-8");
            let git_hunks = &git[git.find("\n@@").expect("a hunk") + 1..];
            let ours = render(old, new, &rel(), false).patch.expect("patch");
            let our_hunks = &ours[ours.find("\n@@").expect("a hunk") + 1..];
            assert_eq!(our_hunks, git_hunks);
        }
    }

    #[test]
    fn edits_round_trip_through_git_and_patch() {
        let base = numbered(1..=30);
        let base_str = String::from_utf8(base.clone()).unwrap();
        let cases: Vec<(&str, Vec<u8>, Vec<u8>)> = vec![
            (
                "insert at top",
                base.clone(),
                [b"top\n".as_slice(), &base].concat(),
            ),
            (
                "insert at bottom",
                base.clone(),
                [base.as_slice(), b"end\n"].concat(),
            ),
            (
                "delete",
                base.clone(),
                base_str.replace("l15\n", "").into_bytes(),
            ),
            (
                "last line without newline changed",
                b"a\nb\nc".to_vec(),
                b"a\nb\nC".to_vec(),
            ),
            (
                "add final newline",
                b"a\nb\nc".to_vec(),
                b"a\nb\nc\n".to_vec(),
            ),
            (
                "remove final newline",
                b"a\nb\nc\n".to_vec(),
                b"a\nb\nc".to_vec(),
            ),
            (
                "crlf",
                b"one\r\ntwo\r\nthree\r\nfour\r\n".to_vec(),
                b"one\r\nTWO\r\nthree\r\nfour\r\nfive\r\n".to_vec(),
            ),
            (
                "crlf without final newline",
                b"one\r\ntwo\r\nthree".to_vec(),
                b"one\r\ntwo\r\nthree\r\n".to_vec(),
            ),
            (
                "mixed endings",
                b"a\r\nb\nc\r\nd\n".to_vec(),
                b"a\nb\r\nc\r\nd\n".to_vec(),
            ),
            (
                "tabs and trailing spaces",
                b"\tfn x() {  \n\t\tbody \t\n}\n".to_vec(),
                b"\tfn x() {\n\t\tbody \t \n}   \n".to_vec(),
            ),
            ("content to empty", base.clone(), Vec::new()),
            (
                "empty to content (existing empty file)",
                Vec::new(),
                base.clone(),
            ),
            (
                "many hunks",
                base.clone(),
                base_str
                    .replace("l2\n", "L2\n")
                    .replace("l12\n", "")
                    .replace("l20\n", "l20\nnew\n")
                    .replace("l30\n", "L30")
                    .into_bytes(),
            ),
            (
                "lone carriage returns",
                b"a\rb\nc\r".to_vec(),
                b"a\rB\nc\r\r".to_vec(),
            ),
            ("blank lines", b"\n\n\n".to_vec(), b"\n\n\n\n".to_vec()),
            (
                "unicode",
                "é\nß\n".as_bytes().to_vec(),
                "é\nẞ\n".as_bytes().to_vec(),
            ),
        ];
        for (name, old, new) in cases {
            eprintln!("case: {name}");
            let r = roundtrip(&old, &new, false);
            assert!(r.patch_unavailable.is_none(), "{name}");
        }
    }

    #[test]
    fn no_newline_marker_is_written_where_due() {
        let r = roundtrip(b"a\nb", b"a\nc", false);
        assert_eq!(
            r.diff,
            "@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+c\n\\ No newline at end of file\n"
        );
        let r = roundtrip(b"a\nb", b"a\nb\n", false);
        assert_eq!(
            r.diff,
            "@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+b\n"
        );
    }

    #[test]
    fn creation_is_against_dev_null() {
        let r = roundtrip(b"", b"hello\nworld", true);
        assert_eq!(
            r.patch.as_deref(),
            Some(
                "diff --git a/src/file.txt b/src/file.txt\nnew file mode 100644\n\
                 --- /dev/null\n+++ b/src/file.txt\n@@ -0,0 +1,2 @@\n+hello\n+world\n\
                 \\ No newline at end of file\n"
            )
        );
        assert_eq!(
            r.diff,
            "@@ -0,0 +1,2 @@\n+hello\n+world\n\\ No newline at end of file\n"
        );
        assert_eq!((r.added, r.removed), (2, 0));
        // An empty new file still gets a creation patch (header only), which both tools take.
        let r = roundtrip(b"", b"", true);
        assert_eq!(r.diff, "");
        assert!(
            r.patch
                .as_deref()
                .is_some_and(|p| p.contains("new file mode"))
        );
        // `old` is ignored for a creation.
        let r = roundtrip(b"ignored\n", b"x\n", true);
        assert_eq!((r.added, r.removed), (1, 0));
    }

    #[test]
    fn no_change_gives_empty_diff_and_empty_patch() {
        let r = render(b"same\n", b"same\n", &rel(), false);
        assert_eq!(r.diff, "");
        assert_eq!(r.patch.as_deref(), Some(""));
        assert_eq!((r.added, r.removed), (0, 0));
        assert!(!r.diff_truncated && !r.patch_truncated && r.patch_unavailable.is_none());
        assert_eq!(render(b"", b"", &rel(), false).patch.as_deref(), Some(""));
    }

    #[test]
    fn paths_with_spaces_and_special_characters_apply() {
        for path in [
            "dir with space/f ile.txt",
            "tab\there.txt",
            "quote\"back\\slash.txt",
            "ünï.txt",
        ] {
            let target = PatchTarget {
                path: Path::new(path),
                prefixed: true,
            };
            let r = render(b"a\nb\n", b"a\nc\n", &target, false);
            let patch = r.patch.expect("patch");
            for tool_name in ["git", "patch"] {
                assert_eq!(
                    apply_rel(tool_name, Some(b"a\nb\n"), &patch, path),
                    b"a\nc\n",
                    "{tool_name} {path}"
                );
            }
            let r = render(b"", b"new\n", &target, true);
            let patch = r.patch.expect("patch");
            for tool_name in ["git", "patch"] {
                assert_eq!(
                    apply_rel(tool_name, None, &patch, path),
                    b"new\n",
                    "{tool_name} {path}"
                );
            }
        }
    }

    /// A name that is not UTF-8 is C-quoted byte for byte (`\377`), as git writes it, and
    /// both tools patch the file of exactly that name.
    #[test]
    fn a_name_that_is_not_utf8_is_quoted_and_applies() {
        let path = &std::path::PathBuf::from(crate::sys::os_string(
            b"d\xfe/bad\xffname \xc3\xa9.txt".to_vec(),
        ));
        let target = PatchTarget {
            path,
            prefixed: true,
        };
        let r = render(b"a\nb\n", b"a\nc\n", &target, false);
        let patch = r.patch.expect("patch");
        assert!(
            patch.starts_with(
                "diff --git \"a/d\\376/bad\\377name \u{e9}.txt\" \"b/d\\376/bad\\377name \u{e9}.txt\"\n\
                 --- \"a/d\\376/bad\\377name \u{e9}.txt\"\t\n"
            ),
            "{patch}"
        );
        for tool_name in ["git", "patch"] {
            assert_eq!(
                apply_rel(tool_name, Some(b"a\nb\n"), &patch, path),
                b"a\nc\n",
                "{tool_name}"
            );
        }
        let r = render(b"", b"new\n", &target, true);
        let patch = r.patch.expect("patch");
        assert_eq!(apply_rel("git", None, &patch, path), b"new\n");
    }

    #[test]
    fn absolute_mode_applies_with_patch_p0_from_root() {
        let tmp = tempfile::tempdir().expect("tempdir");
        let dir = tmp.path().canonicalize().expect("canonical");
        let cases: &[(&[u8], &[u8], bool)] = &[
            (b"a\nb\nc\n", b"a\nB\nc\n", false),
            (b"x\r\ny", b"x\r\ny\r\nz\r\n", false),
            (b"", b"created\n", true),
        ];
        for (i, (old, new, created)) in cases.iter().enumerate() {
            let file = dir.join(format!("f{i}.txt"));
            let path = file.to_str().expect("utf-8 temp path");
            let target = PatchTarget {
                path: Path::new(path),
                prefixed: false,
            };
            let r = render(old, new, &target, *created);
            let patch = r.patch.expect("patch");
            let old_header = if *created {
                "--- /dev/null\n".to_string()
            } else {
                format!("--- {path}\n")
            };
            assert!(patch.contains(&old_header) && patch.contains(&format!("+++ {path}\n")));
            let patch_file = dir.join("abs.patch");
            fs::write(&patch_file, &patch).expect("write patch");
            // GNU patch refuses absolute names ("potentially dangerous") unless run from `/`;
            // git refuses them outside -p1 from `/`.
            let mut cmds = Vec::new();
            let mut p0 = tool("patch", Path::new("/"));
            p0.args([
                "-p0",
                "--batch",
                "--fuzz=0",
                "--no-backup-if-mismatch",
                "-i",
            ])
            .arg(&patch_file);
            cmds.push(p0);
            let mut git = tool("git", Path::new("/"));
            git.args(["apply", "-p1", "--whitespace=nowarn"])
                .arg(&patch_file);
            cmds.push(git);
            for cmd in cmds {
                if *created {
                    let _ = fs::remove_file(&file);
                } else {
                    fs::write(&file, old).expect("write old");
                }
                let shown = format!("{cmd:?}");
                run(cmd, &patch);
                assert_eq!(fs::read(&file).expect("read"), *new, "{shown}");
            }
        }
    }

    #[test]
    fn far_away_invalid_utf8_keeps_the_patch() {
        let mut old = b"\xff\xfe binary-ish header\n".to_vec();
        old.extend(numbered(1..=20));
        let new = [old.as_slice(), b"tail\n"].concat();
        let r = roundtrip(&old, &new, false);
        assert!(r.patch_unavailable.is_none());
        assert_eq!(r.diff, "@@ -19,3 +19,4 @@\n l18\n l19\n l20\n+tail\n");
    }

    #[test]
    fn a_kept_bom_is_shown_as_read_shows_it_and_patched_as_it_is() {
        // Line 1 changes; then only line 2 (line 1 as context).
        let r = roundtrip(b"\xef\xbb\xbfa\r\nb\r\n", b"\xef\xbb\xbfA\r\nb\r\n", false);
        assert_eq!(r.diff, "@@ -1,2 +1,2 @@\n-a\r\n+A\r\n b\r\n");
        assert!(
            r.patch
                .unwrap()
                .ends_with("@@ -1,2 +1,2 @@\n-\u{feff}a\r\n+\u{feff}A\r\n b\r\n")
        );
        let r = roundtrip(b"\xef\xbb\xbfa\nb\n", b"\xef\xbb\xbfa\nB", false);
        assert_eq!(
            r.diff,
            "@@ -1,2 +1,2 @@\n a\n-b\n+B\n\\ No newline at end of file\n"
        );
        assert!(r.patch.unwrap().contains("\n \u{feff}a\n-b\n"));
        // A BOM added or removed is the change: shown.
        let r = roundtrip(b"a\n", b"\xef\xbb\xbfa\n", false);
        assert_eq!(r.diff, "@@ -1,1 +1,1 @@\n-a\n+\u{feff}a\n");
        let r = roundtrip(b"\xef\xbb\xbfa\n", b"a\n", false);
        assert_eq!(r.diff, "@@ -1,1 +1,1 @@\n-\u{feff}a\n+a\n");
        // Only line 1's: a U+FEFF further down is text.
        let r = roundtrip(
            b"\xef\xbb\xbfa\n\xef\xbb\xbfb\n",
            b"\xef\xbb\xbfa\n\xef\xbb\xbfc\n",
            false,
        );
        assert_eq!(r.diff, "@@ -1,2 +1,2 @@\n a\n-\u{feff}b\n+\u{feff}c\n");
    }

    #[test]
    fn invalid_utf8_inside_a_hunk_drops_the_patch() {
        let r = render(b"a\nb\xff\nc\n", b"a\nB\nc\n", &rel(), false);
        assert_eq!(r.patch, None);
        assert_eq!(r.patch_unavailable, Some(INVALID_UTF8));
        assert!(!r.patch_truncated);
        assert_eq!(r.diff, "@@ -1,3 +1,3 @@\n a\n-b\u{fffd}\n+B\n c\n");
        // Invalid bytes in a context line count too: they are part of the hunk.
        let r = render(b"\xff\nb\n", b"\xff\nB\n", &rel(), false);
        assert_eq!(r.patch_unavailable, Some(INVALID_UTF8));
    }

    #[test]
    fn display_diff_is_capped_at_200_lines() {
        // A creation of N lines shows 1 + N display lines.
        let r = render(b"", &numbered(1..=199), &rel(), true);
        assert!(!r.diff_truncated);
        assert_eq!(r.diff.lines().count(), DIFF_MAX_LINES);
        let r = render(b"", &numbered(1..=200), &rel(), true);
        assert!(r.diff_truncated);
        assert_eq!(r.diff.lines().count(), DIFF_MAX_LINES);
        assert!(r.diff.ends_with("+l199\n"));
        assert_eq!(r.added, 200);
        // The patch is not affected by the display cap.
        let old = numbered(1..=300);
        let new = String::from_utf8(old.clone()).unwrap().replace('l', "L");
        let r = roundtrip(&old, new.as_bytes(), false);
        assert!(r.diff_truncated && !r.patch_truncated);
        assert_eq!(r.diff.lines().count(), DIFF_MAX_LINES);
        assert_eq!((r.added, r.removed), (300, 300));
    }

    #[test]
    fn patch_is_dropped_past_800_lines() {
        // A creation of N lines is a patch of 4 header + 1 hunk header + N lines.
        let r = roundtrip(b"", &numbered(1..=795), true);
        assert_eq!(
            r.patch.as_deref().map(|p| p.lines().count()),
            Some(PATCH_MAX_LINES)
        );
        let r = render(b"", &numbered(1..=796), &rel(), true);
        assert_eq!(r.patch, None);
        assert!(r.patch_truncated && r.patch_unavailable.is_none() && r.diff_truncated);
        assert_eq!(r.added, 796);
        // Truncation wins over invalid UTF-8: the reason is the size.
        let mut big = numbered(1..=900);
        big.push(0xff);
        let r = render(b"", &big, &rel(), true);
        assert!(r.patch_truncated && r.patch_unavailable.is_none());
    }

    #[test]
    fn large_file_keeps_true_line_numbers() {
        let old = numbered(1..=100_000);
        let new = String::from_utf8(old.clone())
            .unwrap()
            .replace("\nl50000\n", "\nchanged\n");
        let r = roundtrip(&old, new.as_bytes(), false);
        assert_eq!(
            r.diff,
            "@@ -49997,7 +49997,7 @@\n l49997\n l49998\n l49999\n-l50000\n+changed\n l50001\n l50002\n l50003\n"
        );
    }

    /// Checks every display line against the files at the line numbers the hunk headers
    /// claim, and that each header's counts match its body.
    fn check_display_numbers(old: &[u8], new: &[u8], diff: &str) {
        let lossy = |buf: &[u8]| -> Vec<String> {
            split_lines(buf)
                .iter()
                .map(|l| {
                    String::from_utf8_lossy(l)
                        .trim_end_matches('\n')
                        .to_string()
                })
                .collect()
        };
        let (old, new) = (lossy(old), lossy(new));
        let mut hunk: Option<(usize, usize, usize, usize)> = None; // next old/new index, counts left
        let finish = |h: Option<(usize, usize, usize, usize)>| {
            if let Some((_, _, o, n)) = h {
                assert_eq!(
                    (o, n),
                    (0, 0),
                    "hunk body does not match its header\n{diff}"
                );
            }
        };
        // Not `str::lines`: a `\r` before the `\n` belongs to the line.
        for line in diff.split_terminator('\n') {
            if let Some(rest) = line.strip_prefix("@@ -") {
                finish(hunk);
                let nums: Vec<usize> = rest
                    .trim_end_matches(" @@")
                    .split([' ', ',', '+'])
                    .filter(|s| !s.is_empty())
                    .map(|s| s.parse().expect("number"))
                    .collect();
                let [os, oc, ns, nc] = nums[..] else {
                    panic!("bad header {line}")
                };
                let first = |start: usize, count: usize| if count == 0 { start } else { start - 1 };
                hunk = Some((first(os, oc), first(ns, nc), oc, nc));
                continue;
            }
            let (o, n, oc, nc) = hunk.as_mut().expect("line inside a hunk");
            let (sign, text) = line.split_at(1);
            match sign {
                " " => {
                    assert_eq!(old[*o], text, "{diff}");
                    assert_eq!(new[*n], text, "{diff}");
                    (*o, *n, *oc, *nc) = (*o + 1, *n + 1, *oc - 1, *nc - 1);
                }
                "-" => {
                    assert_eq!(old[*o], text, "{diff}");
                    (*o, *oc) = (*o + 1, *oc - 1);
                }
                "+" => {
                    assert_eq!(new[*n], text, "{diff}");
                    (*n, *nc) = (*n + 1, *nc - 1);
                }
                "\\" => assert_eq!(line, "\\ No newline at end of file"),
                _ => panic!("unexpected line {line:?}"),
            }
        }
        finish(hunk);
    }

    use super::test_join as join;

    fn line() -> impl Strategy<Value = (&'static str, bool)> {
        (
            prop::sample::select(vec!["a", "b", "c", "", "a b", "\t", " x "]),
            prop::bool::weighted(0.3),
        )
    }

    type Edit = (prop::sample::Index, u8, (&'static str, bool));

    fn apply_edits(lines: &[(&'static str, bool)], edits: &[Edit]) -> Vec<(&'static str, bool)> {
        let mut out = lines.to_vec();
        for (at, kind, l) in edits {
            let i = at.index(out.len() + 1);
            match kind {
                0 => out.insert(i, *l),
                1 if i < out.len() => {
                    out.remove(i);
                }
                _ if i < out.len() => out[i] = *l,
                _ => out.push(*l),
            }
        }
        out
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]

        #[test]
        fn random_edits_apply_exactly(
            old_lines in prop::collection::vec(line(), 0..30),
            edits in prop::collection::vec((any::<prop::sample::Index>(), 0..3u8, line()), 0..6),
            old_nl in any::<bool>(),
            new_nl in any::<bool>(),
        ) {
            let new_lines = apply_edits(&old_lines, &edits);
            let old = join(&old_lines, old_nl);
            let new = join(&new_lines, new_nl);
            let r = roundtrip(&old, &new, false);
            check_display_numbers(&old, &new, &r.diff);
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(512))]

        #[test]
        fn arbitrary_bytes_never_panic_and_stay_consistent(
            old in prop::collection::vec(prop::sample::select(b"ab\n\r\xff\xc3".to_vec()), 0..300),
            new in prop::collection::vec(prop::sample::select(b"ab\n\r\xff\xc3".to_vec()), 0..300),
            prefixed in any::<bool>(),
            created in any::<bool>(),
        ) {
            let target = PatchTarget { path: Path::new("p"), prefixed };
            let r = render(&old, &new, &target, created);
            let old: &[u8] = if created { &[] } else { &old };
            let lines = |b: &[u8]| split_lines(b).len();
            prop_assert_eq!(lines(old) + r.added - r.removed, lines(&new));
            prop_assert!(r.diff.lines().count() <= DIFF_MAX_LINES);
            prop_assert!(r.diff.is_empty() || r.diff.ends_with('\n'));
            prop_assert_eq!(r.patch.is_none(), r.patch_truncated || r.patch_unavailable.is_some());
            if !r.diff_truncated {
                check_display_numbers(old, &new, &r.diff);
            }
        }
    }

    /// `cargo test --release -- --ignored --nocapture sixty_four` prints the time.
    #[test]
    #[ignore = "slow: diffs 64 MiB (CI runs it)"]
    fn sixty_four_mib_one_line_changed() {
        let mut old = Vec::with_capacity(64 << 20);
        let mut i = 0usize;
        while old.len() < 64 << 20 {
            old.extend_from_slice(
                format!("line {i:09} lorem ipsum dolor sit amet, consectetur\n").as_bytes(),
            );
            i += 1;
        }
        let mut new = old.clone();
        let mid = new.len() / 2;
        let at = mid
            + new[mid..]
                .iter()
                .position(|&b| b == b'\n')
                .expect("newline")
            + 1;
        new[at] = b'L';
        let started = std::time::Instant::now();
        let r = render(&old, &new, &rel(), false);
        let took = started.elapsed();
        eprintln!("64 MiB ({i} lines), one line changed: {took:?}");
        assert_eq!((r.added, r.removed), (1, 1));
        assert_eq!(r.diff.lines().count(), 9);
    }
}
