//! The pure core of `quill apply` (docs/commands/apply.md): parsing a patch — a git-style
//! unified diff or the Codex `*** Begin Patch` format, told apart by the first line — into
//! file sections and hunks, and applying one file's hunks to its bytes, all or nothing, every
//! hunk located by its context (exactly first, then with `fuzzy` tolerating what `edit
//! --fuzzy` tolerates), never by a line number alone. It does no I/O, prints nothing, and never
//! panics on any input: the guarded layer (`cmd::apply`) decides which files may change and
//! publishes them.
//!
//! This file is the interface (the types, [`parse`], [`apply`], [`created_content`]) and the
//! map of its parts: `unified` and `codex` parse the two formats (`names` reads unified header
//! names), `apply` places hunks and builds the new body, `locate` finds a hunk's lines in a
//! body, `fuzzy` is the `--fuzzy` fallback and `miss` the diagnosis of a hunk not found (both
//! through `edit`'s planner), `text` the line splitting they share.

pub use crate::edit::miss::{MissFix, MissReason, MissWindow};
pub use crate::edit::plan::LineSpan;

/// Which of the two formats a patch is in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// `diff --git` / `--- a/P` / `+++ b/P` / `@@ -a,b +c,d @@`.
    Unified,
    /// `*** Begin Patch` … `*** End Patch`.
    Codex,
}

/// A parsed patch: its format and its file sections, in patch order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Patch {
    pub format: Format,
    pub files: Vec<FilePatch>,
}

/// One file's section of a patch. `old_path: None` creates `new_path`; `new_path: None`
/// deletes `old_path`; both and different: a move (with the hunks applied on the way).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FilePatch {
    /// The 1-based line of the patch where this section starts (`diff --git`, `---`, or
    /// `*** … File:`).
    pub line: usize,
    /// The path as the patch names it, after `-p N` stripping (unified) — bytes, since a name
    /// need not be UTF-8. Never empty, never `/dev/null`.
    pub old_path: Option<Vec<u8>>,
    pub new_path: Option<Vec<u8>>,
    /// The section moves the file: a git rename (`rename from`/`rename to`) or a Codex `***
    /// Move to:`. Two different names on a plain `---`/`+++` pair are not a move (`diff -u
    /// a.txt a.txt.new`): the caller changes one file in place.
    pub renamed: bool,
    /// git's `new file mode` / `new mode` (e.g. 0o100755), when the patch gives one.
    pub new_mode: Option<u32>,
    /// The hunks, in patch order. A created file's content is its one hunk's added lines; a
    /// unified deletion's one hunk removes the whole content (which must then match); a Codex
    /// deletion has none.
    pub hunks: Vec<Hunk>,
    /// The section is a binary patch (`GIT binary patch`, `Binary files … differ`): it cannot
    /// be applied as text.
    pub binary: bool,
}

/// One hunk (unified) or chunk (Codex).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Hunk {
    /// The 1-based line of the patch where it starts (its `@@` line; for a Codex chunk with no
    /// `@@`, its first line).
    pub line: usize,
    /// Unified: the old side's start line from `@@ -a,b` (1-based; 0 for an empty old side),
    /// a hint that orders candidates, never a location by itself. Codex: None.
    pub old_start: Option<usize>,
    /// Codex: the `@@ TEXT` lines before this chunk, in order (each locates a line at or after
    /// the previous one; the chunk is then sought after the last). Unified: empty.
    pub anchors: Vec<Vec<u8>>,
    /// The lines, without their `\n` (a `\r` before it is content and stays).
    pub lines: Vec<HunkLine>,
    /// The old side's last line has no line break (`\ No newline at end of file` after it).
    pub old_no_eol: bool,
    /// The new side's last line has no line break.
    pub new_no_eol: bool,
    /// The hunk must end at the end of the file (Codex `*** End of File`).
    pub end_of_file: bool,
}

/// A line of a hunk.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum HunkLine {
    Context(Vec<u8>),
    Remove(Vec<u8>),
    Add(Vec<u8>),
}

/// A patch that cannot be parsed: where, what, and what would fix it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseError {
    /// The 1-based line of the patch.
    pub line: usize,
    pub message: String,
    /// The next step, worded for the hint.
    pub fix: String,
}

/// How hunks are located.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ApplyOptions {
    /// Tolerate what `edit --fuzzy` tolerates (whitespace, look-alike characters) when no
    /// exact match is found; the file's characters stay wherever the hunk keeps a line.
    pub fuzzy: bool,
}

/// One file's hunks applied.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Applied {
    pub new_body: Vec<u8>,
    /// Per hunk, in patch order: the 1-based inclusive lines of the new body it produced (an
    /// empty span — a hunk that only removes — is `start_line == end_line + 1`, at the line
    /// after the removal).
    pub spans: Vec<LineSpan>,
    /// Some hunk was located through a fuzzy match.
    pub matched_fuzzily: bool,
}

/// Why a hunk cannot be applied.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum HunkError {
    /// Its old side is not in the file (at or after the previous hunk): the diagnosis `edit`
    /// gives for a miss, against the whole file.
    NoMatch {
        reason: MissReason,
        window: Option<MissWindow>,
        difference: String,
        fix: MissFix,
    },
    /// Its old side occurs several times where it may go and nothing tells them apart (no
    /// line-number hint nearer one of them, no `@@` anchor): the 1-based lines (at most 20).
    Ambiguous { count: usize, lines: Vec<usize> },
    /// A Codex `@@ TEXT` anchor that is not in the file (at or after the previous one).
    AnchorNotFound { anchor: String },
    /// `*** End of File` (or `\ No newline` on the old side) but the match does not end there.
    NotAtEnd,
}

/// A hunk that failed: which, where in the patch, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HunkFailure {
    /// 0-based index of the hunk in its file section.
    pub hunk_index: usize,
    /// The hunk's patch line.
    pub line: usize,
    pub error: HunkError,
}

/// Parse `text` as a patch, its format told by its first non-blank line. `strip` is `-p N`
/// (unified only: leading path components removed; git's `a/` `b/` are one; git's `rename
/// from`/`rename to` names, written without them, lose one fewer). Names are checked only for
/// shape here (non-empty; no NUL); containment is the caller's.
pub fn parse(text: &[u8], strip: usize) -> Result<Patch, ParseError> {
    let lines = text::patch_lines(text);
    let Some(first) = lines.iter().position(|l| !text::trim(l).is_empty()) else {
        return Err(ParseError {
            line: 1,
            message: "the patch is empty".into(),
            fix: format!("pass {FORMATS}"),
        });
    };
    if codex::detect(&lines) {
        return Ok(Patch {
            format: Format::Codex,
            files: codex::parse(&lines)?,
        });
    }
    let files = unified::parse(&lines, strip)?;
    if files.is_empty() {
        return Err(ParseError {
            line: first + 1,
            message: format!(
                "this is not a patch quill can read: no `diff --git`, no `---`/`+++` file \
                 header and no `*** Begin Patch` (its first line is `{}`)",
                text::shown(text::chomp_cr(lines[first]), 60)
            ),
            fix: format!("pass {FORMATS}"),
        });
    }
    Ok(Patch {
        format: Format::Unified,
        files,
    })
}

/// The two formats, as error fixes name them.
const FORMATS: &str = "a unified diff (`--- a/PATH`, `+++ b/PATH`, `@@ -START,COUNT \
                       +START,COUNT @@` hunks, as git diff and diff -u write it) or a Codex patch \
                       (`*** Begin Patch`, `*** Update File: PATH`, ..., `*** End Patch`)";

/// Apply one file's `hunks` to `body`, in order: each is sought at or after where the previous
/// one ended. Every failing hunk is reported (not only the first); nothing partial is ever
/// returned.
pub fn apply(
    body: &[u8],
    hunks: &[Hunk],
    opts: &ApplyOptions,
) -> Result<Applied, Vec<HunkFailure>> {
    apply::apply(body, hunks, opts)
}

/// The content a created file gets from its section: the added lines of its hunks (the last
/// without its line break when the patch says it has none).
pub fn created_content(file: &FilePatch) -> Vec<u8> {
    let mut out = Vec::new();
    let mut drop_break = false;
    for hunk in &file.hunks {
        for line in &hunk.lines {
            if let HunkLine::Add(content) = line {
                out.extend_from_slice(content);
                out.push(b'\n');
                drop_break = hunk.new_no_eol;
            }
        }
    }
    if drop_break {
        out.pop();
    }
    out
}

mod apply;
mod codex;
mod fuzzy;
mod locate;
mod miss;
mod names;
mod text;
mod unified;

#[cfg(test)]
mod tests;
