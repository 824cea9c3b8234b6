//! The arguments and examples of the commands that change files: `write`, `edit` (with its
//! `--lines A-B` range), `undo`, `rm` and `apply`.

use std::ffi::OsString;
use std::path::PathBuf;

use clap::Args;

pub(super) const WRITE_EXAMPLES: &str = "\
Examples:
  quill write notes.txt --content 'hello'            # create (or replace after a read)
  printf 'x\\n' | quill write out.txt --stdin          # content from stdin
  quill write cfg.toml --from new.toml --dry-run     # show the diff, change nothing
  quill write lock.json --expect-sha256 HEX --from f  # replace a known version
  quill write log.txt --content '' --allow-empty     # empty a file on purpose";

#[derive(Debug, Args)]
pub(crate) struct WriteArgs {
    /// The file to write.
    pub path: PathBuf,
    /// The new content.
    #[arg(
        long,
        value_name = "TEXT",
        allow_hyphen_values = true,
        conflicts_with_all = ["from", "stdin"],
        aliases = ["file-text", "file_text"]
    )]
    pub content: Option<OsString>,
    /// Take the new content from this file ('-' = stdin).
    #[arg(long, value_name = "FILE", conflicts_with = "stdin")]
    pub from: Option<PathBuf>,
    /// Take the new content from stdin (never read unless asked).
    #[arg(long)]
    pub stdin: bool,
    /// Allow replacing a non-empty file with empty content.
    #[arg(long)]
    pub allow_empty: bool,
    /// Allow an omission placeholder (`// ... rest of the code ...`) the file does not have.
    #[arg(long)]
    pub allow_placeholder: bool,
    /// Refuse if the file exists (create_conflict).
    #[arg(long)]
    pub create_only: bool,
    /// Replace only this version (stands in for a read baseline).
    #[arg(long, value_name = "HEX")]
    pub expect_sha256: Option<String>,
    /// Do not create missing parent directories.
    #[arg(long)]
    pub no_parents: bool,
    /// Create missing parent directories: the default, accepted as `mkdir -p` and `cp
    /// --parents` users type it.
    #[arg(long, hide = true, conflicts_with = "no_parents")]
    pub parents: bool,
    /// Plan and show the diff; write nothing.
    #[arg(long)]
    pub dry_run: bool,
}

pub(super) const EDIT_EXAMPLES: &str = "\
Examples:
  quill edit src/a.rs --old 'let x = 1;' --new 'let x = 2;'
  quill edit src/a.rs --old 'foo' --new 'bar' --replace-all
  quill edit src/a.rs --old-file old.txt --new-file new.txt
  quill edit src/a.rs --edits edits.json   # [{\"old\":…,\"new\":…,\"replaceAll\":false}], all or nothing
  quill edit new.rs --old '' --new 'fn main() {}'   # create a file
  quill edit src/a.rs --lines 3-5 --new 'fn b() {}'    # lines 3 to 5 of the version read
  quill edit src/a.rs --insert-after 0 --new '// top'  # line numbers as read showed them";

#[derive(Debug, Args)]
pub(crate) struct EditArgs {
    /// The file to edit.
    pub path: PathBuf,
    /// The exact text to replace.
    #[arg(
        long,
        value_name = "TEXT",
        allow_hyphen_values = true,
        aliases = ["old-string", "old_string", "old-str", "old_str"]
    )]
    pub old: Option<OsString>,
    /// The replacement text.
    #[arg(
        long,
        value_name = "TEXT",
        allow_hyphen_values = true,
        aliases = ["new-string", "new_string", "new-str", "new_str"]
    )]
    pub new: Option<OsString>,
    /// Read `old` from a file.
    #[arg(long, value_name = "FILE", conflicts_with = "old")]
    pub old_file: Option<PathBuf>,
    /// Read `new` from a file.
    #[arg(long, value_name = "FILE", conflicts_with = "new")]
    pub new_file: Option<PathBuf>,
    /// A JSON array of edits applied in order, all or nothing ('-' = stdin).
    #[arg(long, value_name = "FILE", conflicts_with_all = ["old", "new", "old_file", "new_file"])]
    pub edits: Option<PathBuf>,
    /// Insert `new` as whole lines after line N of the version read (0 = at the top, the line
    /// count = at the end).
    #[arg(long, value_name = "N", conflicts_with_all = LINE_CONFLICTS)]
    pub insert_after: Option<usize>,
    /// Replace lines A to B of the version read (1-based, inclusive: `A-B` or `A,B`) with
    /// `new`; an empty `new` deletes them.
    #[arg(long, value_name = "A-B", value_parser = parse_line_range, conflicts_with_all = LINE_CONFLICTS, conflicts_with = "insert_after")]
    pub lines: Option<LineRange>,
    /// Replace every non-overlapping occurrence.
    #[arg(long, alias = "replace_all")]
    pub replace_all: bool,
    /// Fail unless exactly N occurrences are found.
    #[arg(long, value_name = "N", aliases = ["expected-replacements", "expected_replacements"])]
    pub expect_count: Option<usize>,
    /// Apply a unique match that differs only in whitespace, look-alike or invisible
    /// characters, read's line numbers or written-out escapes; the file's characters stay.
    #[arg(long)]
    pub fuzzy: bool,
    /// Edit only this version (stands in for a read baseline).
    #[arg(long, value_name = "HEX")]
    pub expect_sha256: Option<String>,
    /// Refuse files larger than this.
    #[arg(long, value_name = "N", default_value_t = 64 * 1024 * 1024)]
    pub max_file_bytes: u64,
    /// Apply the edit even though the session's last change of the file was this same edit.
    #[arg(long)]
    pub again: bool,
    /// Allow an omission placeholder (`// ... existing code ...`) in `new` that `old` and the
    /// file do not have.
    #[arg(long)]
    pub allow_placeholder: bool,
    /// Edit the file in this encoding (windows-1251, latin1, shift_jis, utf-8, …) instead of
    /// the detected one.
    #[arg(long, value_name = "NAME")]
    pub encoding: Option<String>,
    /// Plan and show the diff; write nothing.
    #[arg(long)]
    pub dry_run: bool,
}

/// What a line-addressed edit (`--insert-after`, `--lines`) cannot be combined with.
const LINE_CONFLICTS: [&str; 6] = [
    "old",
    "old_file",
    "edits",
    "replace_all",
    "expect_count",
    "fuzzy",
];

/// `--lines A-B`: the first and last line, 1-based and inclusive, as given (the range is
/// checked against the file).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct LineRange {
    pub first: usize,
    pub last: usize,
}

/// `A-B` or `A,B` (whole numbers); anything else names the accepted forms.
fn parse_line_range(s: &str) -> Result<LineRange, String> {
    let number = |n: &str| {
        (!n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
            .then(|| n.parse::<usize>().ok())
            .flatten()
    };
    s.split_once(['-', ','])
        .and_then(|(a, b)| {
            Some(LineRange {
                first: number(a)?,
                last: number(b)?,
            })
        })
        .ok_or_else(|| {
            "a line range is A-B or A,B: two line numbers, 1-based and inclusive (one line: 3-3)"
                .to_string()
        })
}

pub(super) const UNDO_EXAMPLES: &str = "\
Examples:
  quill undo src/a.rs            # revert quill's last change of it (up to 8 steps)
  quill undo                     # revert the session's last change, a whole apply included
  quill --json undo src/a.rs --dry-run";

#[derive(Debug, Args)]
pub(crate) struct UndoArgs {
    /// The file to restore; without it, the session's last change (every file of an apply).
    pub path: Option<PathBuf>,
    /// Show the diff; write nothing.
    #[arg(long)]
    pub dry_run: bool,
}

pub(super) const RM_EXAMPLES: &str = "\
Examples:
  quill read old.rs && quill rm old.rs    # delete a file the session has read
  quill --json rm old.rs --dry-run        # the deletion as a diff; nothing removed
  quill undo old.rs                       # bring it back";

#[derive(Debug, Args)]
pub(crate) struct RmArgs {
    /// The file to delete (a symbolic link is refused).
    pub path: PathBuf,
    /// Delete only this version (stands in for a read baseline).
    #[arg(long, value_name = "HEX")]
    pub expect_sha256: Option<String>,
    /// Show the diff; remove nothing.
    #[arg(long)]
    pub dry_run: bool,
}

pub(super) const APPLY_EXAMPLES: &str = "\
Examples:
  git diff > change.patch && quill apply change.patch   # every file read first (or --expect-sha256)
  quill apply --check change.patch        # would it apply? nothing written
  quill --json apply --dry-run - < change.patch         # the combined diff; nothing written
  quill apply codex.patch --fuzzy         # *** Begin Patch format; tolerate whitespace
  quill undo                              # revert the whole apply";

#[derive(Debug, Args)]
pub(crate) struct ApplyArgs {
    /// The patch file: a unified diff (git style) or a Codex `*** Begin Patch` ('-' = stdin).
    #[arg(value_name = "PATCH")]
    pub patch: PathBuf,
    /// Remove N leading components from the unified diff's paths (git's a/ and b/ are one).
    #[arg(short = 'p', long = "strip", value_name = "N", default_value_t = 1)]
    pub strip: usize,
    /// Locate hunks that differ only in whitespace or look-alike characters (unique matches).
    #[arg(long)]
    pub fuzzy: bool,
    /// PATH=HEX: change this file only at this version (stands in for a read baseline).
    #[arg(long, value_name = "PATH=HEX")]
    pub expect_sha256: Vec<String>,
    /// Refuse files (and the patch) larger than this.
    #[arg(long, value_name = "N", default_value_t = 64 * 1024 * 1024)]
    pub max_file_bytes: u64,
    /// Allow an omission placeholder (`// ... existing code ...`) in added lines that the file
    /// does not have.
    #[arg(long)]
    pub allow_placeholder: bool,
    /// Place a unified hunk without context lines (`git diff -U0`) by its line number alone.
    #[arg(long)]
    pub unidiff_zero: bool,
    /// Only check that the patch applies (as `git apply --check`); write nothing, show no diff.
    #[arg(long, conflicts_with = "dry_run")]
    pub check: bool,
    /// Plan and show the combined diff; write nothing.
    #[arg(long)]
    pub dry_run: bool,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_range_is_a_dash_b_or_a_comma_b() {
        let r = |first, last| Ok(LineRange { first, last });
        assert_eq!(parse_line_range("3-5"), r(3, 5));
        assert_eq!(parse_line_range("3,5"), r(3, 5));
        assert_eq!(parse_line_range("0-0"), r(0, 0));
        for bad in ["3", "3:5", "a-b", "-5", "3-", "1-2-3", "+1-2", " 1-2", ""] {
            let e = parse_line_range(bad).unwrap_err();
            assert!(e.contains("A-B or A,B"), "{bad:?}: {e}");
        }
    }
}
