//! `quill guide`: a compact text for the system prompt of an agent that has only a shell —
//! the workflow (read → edit → verify), the rules, and the error kinds that need action with
//! the exact next command. Kept under 1,500 tokens (a test checks a conservative estimate).
//! Pure text; no I/O.

use crate::error::Result;
use crate::report::Report;

pub(crate) const GUIDE: &str = r#"# Editing files with quill

Use quill for every file you read, create or change; use the shell for everything else.
Add --json to any command to get one JSON object you can parse (`ok`, `op`, and on failure
`error.kind`, `error.message`, `error.hint`). Exit codes: 0 done, 1 nothing found, 2 usage,
3 refused by a guard, 4 system error.

## Workflow: read -> edit -> verify
1. Find:   quill glob '**/*.py'            quill grep -n 'def load' src
2. Read:   quill read src/app.py           (records what you saw; needed before any change)
3. Change: quill edit src/app.py --old 'x = 1' --new 'x = 2'
           quill write notes.md --content '...'   (new files, or whole-file rewrites)
4. Verify: run the tests or build, or `quill read` the changed lines again.

## Rules
- Read first. write and edit refuse a file you have not read in this session, or that
  changed since you read it.
- `--old` must occur exactly once in the file, character for character, indentation and
  line breaks included. Add neighbouring lines until it is unique, or pass --replace-all.
- read prints each line as `   N<TAB>text`. Copy `--old` from the text after the tab, never
  the line number. With --json, `content` holds the lines without numbers.
- Long files come in pages (2000 lines, 50 KiB). When read ends with `next: --offset N`
  (JSON: `nextOffset` is not null), continue with `quill read FILE --offset N` (N is the
  first line to show, 1-based). glob and grep page with --offset too (entries to skip, from 0).
- Several changes to one file: `quill edit FILE --edits -` with a JSON array
  `[{"old": "...", "new": "...", "replaceAll": false}]` on stdin, applied all or nothing.
- By line number, as read showed them: `quill edit FILE --lines 3-5 --new TEXT` replaces
  lines 3 to 5 (`--new ''` deletes them); `--insert-after N --new TEXT` inserts after line
  N (0 = the top). After your own change of the file, read it again first: the lines moved.
- Quote text for the shell: single quotes, and '\'' for a quote inside. For text with many
  quotes or lines, put it in a file: edit --old-file FILE --new-file FILE, write --from FILE.
- Write whole text. A line like `// ... rest unchanged ...` is refused: quill writes
  literally.
- Changes to several files at once: `quill apply - <<'EOF'` with a unified diff or a
  `*** Begin Patch` patch; every file must be read first; all change or none does.
- Preview with --dry-run. Undo quill's last change to a file: `quill undo FILE`; the last
  change of the session (a whole apply): `quill undo`.
- Delete a file you have read with `quill rm FILE` (undoable), not rm.
- Copy or move files with `quill transfer SRC DEST [--move]`, not cp/mv.

## Errors that need action (kind: what to do next)
- not_read: `quill read FILE`, then repeat the change.
- stale: the file changed since you read it. When the answer shows the change (a diff;
  `change.resend: true`), it now counts as seen: send the same edit or apply again. When it
  names an `overlap`, redo the call against the current text the diff shows. Otherwise
  (no diff, or a whole-file write) `quill read FILE` again and redo the change on the current
  text. `--merge` (or QUILL_MERGE=1) lands an edit clear of the change in one call.
- edit_no_match: `--old` is not in the file. The error shows the closest real lines
  (`window`) and what differs (`difference`): copy `--old` from those lines exactly.
  If the hint says so, repeat with --fuzzy.
- edit_ambiguous: `--old` occurs several times (`count`, `lines`). Add neighbouring lines
  to `--old`, or pass --replace-all if every one should change.
- already_applied: that same edit was already made; nothing was written. Move on (pass
  --again only to apply it twice on purpose).
- create_conflict: the file exists now. `quill read FILE`, then edit it.
- offset_past_end: the file has fewer lines; use an --offset from 1 to `totalLines`.
- line_too_long: one line is bigger than the page. Run the command the hint names (it
  raises --max-bytes).
- not_found: check the path; the hint may name a similar file; `quill glob` finds names.
- invalid_pattern: grep's pattern is a Rust regex; escape it or pass -F for literal text.
- destination_exists: transfer will not overwrite; pass --replace-sha256 HEX (the
  destination's sha256) or choose another name.
- patch_rejected: apply wrote nothing; `error.problems` lists each file's problem with its
  own kind and hint (the kinds above): fix them all, then apply again.
- nothing_to_undo: quill has not changed that file in this session.
- lock_timeout: another process holds the file; retry.
- usage, invalid_argument: the command is wrong; the hint gives the call that works.
Every other kind: read `error.hint`; it says what to do.
"#;

pub(crate) fn run() -> Result<Report> {
    Ok(Report::Generated(GUIDE.to_string()))
}
