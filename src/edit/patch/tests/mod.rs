//! Tests of the patch core: parsing each header form and leniency, errors with their lines,
//! applying (hints, anchors, CRLF, BOM, final newlines, fuzzy, misses), property tests through
//! quill's own patch renderer, and patches `git diff --no-index` writes. I/O (temporary files,
//! running git) lives here only.

mod apply;
mod codex;
mod git;
mod proptests;
mod unified;

use super::*;

/// The patch `text` parses to (with `-p 1`).
pub(super) fn parsed(text: &str) -> Patch {
    match parse(text.as_bytes(), 1) {
        Ok(p) => p,
        Err(e) => panic!("{e:?}\n{text}"),
    }
}

/// The error `text` gives (with `-p strip`).
pub(super) fn parse_error(text: &str, strip: usize) -> ParseError {
    match parse(text.as_bytes(), strip) {
        Ok(p) => panic!("parsed: {p:?}\n{text}"),
        Err(e) => e,
    }
}

/// The hunks of a one-file unified patch made of `hunks` under `--- a/f` / `+++ b/f`.
pub(super) fn unified_hunks(hunks: &str) -> Vec<Hunk> {
    parsed(&format!("--- a/f\n+++ b/f\n{hunks}"))
        .files
        .remove(0)
        .hunks
}

/// The hunks of a one-file Codex update made of `chunks`.
pub(super) fn codex_hunks(chunks: &str) -> Vec<Hunk> {
    parsed(&format!(
        "*** Begin Patch\n*** Update File: f\n{chunks}\n*** End Patch\n"
    ))
    .files
    .remove(0)
    .hunks
}

pub(super) fn ctx(s: &str) -> HunkLine {
    HunkLine::Context(s.as_bytes().to_vec())
}
pub(super) fn rem(s: &str) -> HunkLine {
    HunkLine::Remove(s.as_bytes().to_vec())
}
pub(super) fn add(s: &str) -> HunkLine {
    HunkLine::Add(s.as_bytes().to_vec())
}

#[test]
fn created_content_is_the_added_lines() {
    let p =
        parsed("--- /dev/null\n+++ b/n\n@@ -0,0 +1,2 @@\n+x\n+y\n\\ No newline at end of file\n");
    assert_eq!(created_content(&p.files[0]), b"x\ny");
    let p = parsed("*** Begin Patch\n*** Add File: n\n+x\n+\n*** End Patch\n");
    assert_eq!(created_content(&p.files[0]), b"x\n\n");
    let p = parsed("*** Begin Patch\n*** Add File: n\n*** End Patch\n");
    assert_eq!(created_content(&p.files[0]), b"");
}
