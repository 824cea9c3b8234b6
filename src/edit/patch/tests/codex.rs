//! Parsing Codex patches: sections, chunks, anchors, Codex's leniencies and the errors.

use super::*;

#[test]
fn every_section_kind_with_anchors_and_end_of_file() {
    let p = parsed(
        "*** Begin Patch\n\
         *** Add File: docs/new.md\n\
         +# Title\n\
         +\n\
         +text\n\
         *** Delete File: old.txt\n\
         *** Update File: src/lib.rs\n\
         *** Move to: src/core.rs\n\
         @@ impl A\n\
         @@ fn f()\n\
         -    1\n\
         +    2\n\
         @@\n \
         x\n\
         -y\n\
         +z\n\
         *** End of File\n\
         *** End Patch\n",
    );
    assert_eq!(p.format, Format::Codex);
    assert_eq!(p.files.len(), 3);
    let add_file = &p.files[0];
    assert_eq!((add_file.line, add_file.old_path.clone()), (2, None));
    assert_eq!(add_file.new_path.as_deref(), Some(&b"docs/new.md"[..]));
    assert_eq!(created_content(add_file), b"# Title\n\ntext\n");
    assert_eq!(add_file.hunks[0].line, 3);
    let del = &p.files[1];
    assert_eq!(del.old_path.as_deref(), Some(&b"old.txt"[..]));
    assert_eq!(
        (del.new_path.clone(), del.hunks.len(), del.line),
        (None, 0, 6)
    );
    let up = &p.files[2];
    assert_eq!(up.old_path.as_deref(), Some(&b"src/lib.rs"[..]));
    assert_eq!(up.new_path.as_deref(), Some(&b"src/core.rs"[..]));
    assert_eq!(up.hunks.len(), 2);
    let h = &up.hunks[0];
    assert_eq!(h.line, 9);
    assert_eq!(h.anchors, vec![b"impl A".to_vec(), b"fn f()".to_vec()]);
    assert_eq!(h.lines, vec![rem("    1"), add("    2")]);
    assert!(h.old_start.is_none() && !h.end_of_file);
    let h = &up.hunks[1];
    assert_eq!(h.line, 13);
    assert!(h.anchors.is_empty() && h.end_of_file);
    assert_eq!(h.lines, vec![ctx("x"), rem("y"), add("z")]);
}

#[test]
fn codex_leniencies() {
    // Whitespace around marker lines.
    let p =
        parsed(" *** Begin Patch \n  *** Update File: foo.txt  \n@@\n-old\n+new\n *** End Patch\n");
    assert_eq!(p.files[0].old_path.as_deref(), Some(&b"foo.txt"[..]));
    // A heredoc around the patch, blank lines before it.
    let p = parsed("\n<<'EOF'\n*** Begin Patch\n*** Delete File: a\n*** End Patch\nEOF\n");
    assert_eq!(p.files[0].old_path.as_deref(), Some(&b"a"[..]));
    assert_eq!(p.files[0].line, 4);
    // CRLF patch text reads as LF.
    let p = parsed("*** Begin Patch\r\n*** Update File: a\r\n@@\r\n-x\r\n+y\r\n*** End Patch\r\n");
    assert_eq!(p.files[0].hunks[0].lines, vec![rem("x"), add("y")]);
    // Blank lines between chunks are skipped; an empty line inside one is an empty context
    // line; blank lines ending a chunk are not part of it.
    let h = codex_hunks("\n@@\n a\n\n-b\n+B\n\n\n@@ c\n-d\n+D\n");
    assert_eq!(h.len(), 2);
    assert_eq!(h[0].lines, vec![ctx("a"), ctx(""), rem("b"), add("B")]);
    assert_eq!(h[1].anchors, vec![b"c".to_vec()]);
    assert_eq!(h[1].lines, vec![rem("d"), add("D")]);
    // Before `*** End of File` an empty line is the file's last line.
    let h = codex_hunks("@@\n a\n+b\n\n*** End of File");
    assert_eq!(h[0].lines, vec![ctx("a"), add("b"), ctx("")]);
    // The first chunk may leave out its `@@`.
    let h = codex_hunks(" x\n-y\n+z");
    assert_eq!((h[0].line, h[0].lines.len()), (3, 3));
    // A unified header reads as `@@ TEXT` with its section text.
    let h = codex_hunks("@@ -10,3 +10,3 @@ fn main() {\n-a\n+b\n@@ -20 +20 @@\n-c\n+d");
    assert_eq!(h[0].anchors, vec![b"fn main() {".to_vec()]);
    assert!(h[1].anchors.is_empty());
    // `@@` with no space keeps its text as the anchor; an anchor keeps its inner spaces.
    let h = codex_hunks("@@class A\n@@   def f\n-x\n+y");
    assert_eq!(h[0].anchors, vec![b"class A".to_vec(), b"  def f".to_vec()]);
}

#[test]
fn codex_errors_name_their_line() {
    let cases: &[(&str, usize, &str)] = &[
        ("*** Begin Patch\n*** End Patch\n", 1, "no file section"),
        (
            "*** Begin Patch\n*** Update File: a\n*** End Patch",
            2,
            "has no chunk",
        ),
        (
            "*** Begin Patch\n*** Update File: a\n*** Move to: b\n*** End Patch",
            2,
            "has no chunk",
        ),
        (
            "*** Begin Patch\n*** Frobnicate File: a\n*** End Patch",
            2,
            "not a Codex patch line",
        ),
        (
            "*** Begin Patch\nhello\n*** End Patch",
            2,
            "not a file header",
        ),
        (
            "*** Begin Patch\n*** Update File: a\n@@\n-x\n",
            4,
            "does not end with `*** End Patch`",
        ),
        ("*** Begin Patch\n", 1, "does not end with `*** End Patch`"),
        (
            "*** Begin Patch\n*** Update File: a\n@@\n-x\nfoo\n*** End Patch",
            5,
            "has no prefix",
        ),
        (
            "*** Begin Patch\n*** Update File: a\nfoo\n*** End Patch",
            3,
            "has no prefix",
        ),
        (
            "*** Begin Patch\n*** Update File: a\n*** End of File\n*** End Patch",
            3,
            "ends no chunk",
        ),
        (
            "*** Begin Patch\n*** Add File:   \n*** End Patch",
            2,
            "names no file",
        ),
        (
            "*** Begin Patch\n*** Update File: a\n@@\n*** End Patch",
            3,
            "has no lines",
        ),
        (
            "*** Begin Patch\n*** Update File: a\n@@\n\n\n*** End Patch",
            3,
            "has no lines",
        ),
        (
            "*** Begin Patch\n*** Add File: a\0b\n+x\n*** End Patch",
            2,
            "NUL",
        ),
        (
            "*** Begin Patch\n*** End Patch\n*** Delete File: a\n",
            3,
            "does not end with",
        ),
    ];
    for (text, line, says) in cases {
        let e = parse_error(text, 1);
        assert_eq!(e.line, *line, "{text:?}: {e:?}");
        assert!(e.message.contains(says), "{text:?}: {e:?}");
        assert!(!e.fix.is_empty());
    }
    let e = parse_error("*** Begin Patch\n*** Bogus: a\n*** End Patch", 1);
    assert!(e.fix.contains("*** Update File: PATH"), "{e:?}");
}
