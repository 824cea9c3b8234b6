//! Parsing unified diffs: every header form, names, hunks and the errors with their lines.

use super::*;

const MAIL: &str = "\
From 1234 Mon Sep 17 00:00:00 2001
From: A <a@example.com>
Subject: [PATCH] change

body text
--- not a header: no +++ after it
---
 src/a.rs | 2 +-
 1 file changed

diff --git a/src/a.rs b/src/a.rs
index 83db48f..bf269f4 100644
--- a/src/a.rs
+++ b/src/a.rs
@@ -1,3 +1,3 @@ fn main() {
 one
-two
+TWO
 three
@@ -10 +10,2 @@
 ten
+eleven
diff --git a/new.txt b/new.txt
new file mode 100755
index 0000000..e69de29
--- /dev/null
+++ b/new.txt
@@ -0,0 +1,2 @@
+x
+y
\\ No newline at end of file
-- 
2.43.0
";

#[test]
fn a_format_patch_mail_parses_past_its_message_and_signature() {
    let p = parsed(MAIL);
    assert_eq!(p.format, Format::Unified);
    assert_eq!(p.files.len(), 2);
    let f = &p.files[0];
    assert_eq!(f.line, 11);
    assert_eq!(f.old_path.as_deref(), Some(&b"src/a.rs"[..]));
    assert_eq!(f.new_path.as_deref(), Some(&b"src/a.rs"[..]));
    assert_eq!((f.new_mode, f.binary), (None, false));
    assert_eq!(f.hunks.len(), 2);
    let h = &f.hunks[0];
    assert_eq!((h.line, h.old_start), (15, Some(1)));
    assert_eq!(
        h.lines,
        vec![ctx("one"), rem("two"), add("TWO"), ctx("three")]
    );
    assert!(h.anchors.is_empty() && !h.old_no_eol && !h.new_no_eol && !h.end_of_file);
    let h = &f.hunks[1];
    assert_eq!((h.line, h.old_start), (20, Some(10)));
    assert_eq!(h.lines, vec![ctx("ten"), add("eleven")]);

    let f = &p.files[1];
    assert_eq!(f.line, 23);
    assert_eq!(f.old_path, None);
    assert_eq!(f.new_path.as_deref(), Some(&b"new.txt"[..]));
    assert_eq!(f.new_mode, Some(0o100755));
    assert!(f.hunks[0].new_no_eol && !f.hunks[0].old_no_eol);
    assert_eq!(created_content(f), b"x\ny");
}

#[test]
fn deletions_renames_and_mode_changes() {
    let p = parsed(
        "diff --git a/gone.txt b/gone.txt\n\
         deleted file mode 100644\n\
         index e69de29..0000000\n\
         diff --git a/old name.txt b/new name.txt\n\
         similarity index 100%\n\
         rename from old name.txt\n\
         rename to new name.txt\n\
         diff --git a/run.sh b/run.sh\n\
         old mode 100644\n\
         new mode 100755\n\
         diff --git a/bye.txt b/bye.txt\n\
         deleted file mode 100644\n\
         --- a/bye.txt\n\
         +++ /dev/null\n\
         @@ -1 +0,0 @@\n\
         -bye\n\
         diff --git a/d/x.rs b/e/y.rs\n\
         similarity index 90%\n\
         rename from d/x.rs\n\
         rename to e/y.rs\n\
         --- a/d/x.rs\n\
         +++ b/e/y.rs\n\
         @@ -1 +1 @@\n\
         -a\n\
         +b\n",
    );
    let names: Vec<_> = p
        .files
        .iter()
        .map(|f| {
            (
                f.old_path.clone(),
                f.new_path.clone(),
                f.hunks.len(),
                f.new_mode,
            )
        })
        .collect();
    let s = |s: &str| Some(s.as_bytes().to_vec());
    assert_eq!(
        names,
        vec![
            (s("gone.txt"), None, 0, None),
            (s("old name.txt"), s("new name.txt"), 0, None),
            (s("run.sh"), s("run.sh"), 0, Some(0o100755)),
            (s("bye.txt"), None, 1, None),
            (s("d/x.rs"), s("e/y.rs"), 1, None),
        ]
    );
    assert_eq!(p.files[3].hunks[0].lines, vec![rem("bye")]);
    assert_eq!(p.files[1].line, 4);
}

#[test]
fn copies_are_refused_and_binary_patches_marked() {
    let e = parse_error(
        "diff --git a/x b/y\nsimilarity index 100%\ncopy from x\ncopy to y\n",
        1,
    );
    assert_eq!(e.line, 3);
    assert!(e.message.contains("copies"), "{e:?}");
    let p = parsed(
        "diff --git a/img.png b/img.png\n\
         index 1111111..2222222 100644\n\
         GIT binary patch\n\
         literal 5\n\
         McmZ?wbYf-|0001\n\
         \n\
         literal 0\n\
         HcmV?d00001\n\
         \n\
         diff --git a/a/bin.dat b/b/bin.dat\n\
         index bdc955b..8835708 100644\n\
         Binary files a/a/bin.dat and b/b/bin.dat differ\n\
         diff --git a/t b/t\n\
         --- a/t\n\
         +++ b/t\n\
         @@ -1 +1 @@\n\
         -a\n\
         +b\n",
    );
    assert_eq!(p.files.len(), 3);
    assert!(p.files[0].binary && p.files[0].hunks.is_empty());
    assert!(p.files[1].binary);
    assert_eq!(p.files[1].old_path.as_deref(), Some(&b"a/bin.dat"[..]));
    assert_eq!(p.files[1].new_path.as_deref(), Some(&b"b/bin.dat"[..]));
    assert!(!p.files[2].binary && p.files[2].hunks.len() == 1);
}

#[test]
fn diff_u_names_lose_their_timestamps_and_strip_counts_components() {
    let text = "--- old.txt\t2024-01-01 10:00:00.000000000 +0100\n\
                +++ new.txt\t2024-01-01 10:00:01.000000000 +0100\n\
                @@ -1,2 +1,2 @@\n a\n-b\n+c\n";
    let p = parse(text.as_bytes(), 0).unwrap();
    assert_eq!(p.files[0].old_path.as_deref(), Some(&b"old.txt"[..]));
    assert_eq!(p.files[0].new_path.as_deref(), Some(&b"new.txt"[..]));
    let e = parse_error(text, 1);
    assert_eq!(e.line, 1);
    assert!(
        e.message
            .contains("-p 1 strips every component of `old.txt`"),
        "{e:?}"
    );
    assert!(e.fix.contains("-p 0"));
    let p = parse(b"--- a/x/y/z\n+++ b/x/y/z\n@@ -1 +1 @@\n-a\n+b\n", 3).unwrap();
    assert_eq!(p.files[0].new_path.as_deref(), Some(&b"z"[..]));
    // A rename's names carry no a/ b/: -p 2 strips one component from them.
    let p = parse(
        b"diff --git a/d/x b/d/y\nsimilarity index 100%\nrename from d/x\nrename to d/y\n",
        2,
    )
    .unwrap();
    assert_eq!(p.files[0].old_path.as_deref(), Some(&b"x"[..]));
}

#[test]
fn quoted_names_are_read_into_bytes() {
    let p = parsed(
        "diff --git \"a/sp ace\\303\\251\" \"b/sp ace\\303\\251\"\n\
         index 1..2 100644\n\
         --- \"a/sp ace\\303\\251\"\t\n\
         +++ \"b/sp ace\\303\\251\"\t\n\
         @@ -1 +1 @@\n-a\n+b\n\
         diff --git \"a/bad\\377\" \"b/bad\\377\"\n\
         new file mode 100644\n",
    );
    assert_eq!(
        p.files[0].new_path.as_deref(),
        Some("sp ace\u{e9}".as_bytes())
    );
    assert_eq!(p.files[1].new_path.as_deref(), Some(&b"bad\xff"[..]));
    assert_eq!(p.files[1].old_path, None);
    let e = parse_error("--- \"a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n", 1);
    assert_eq!(e.line, 1);
    assert!(e.message.contains("closing"), "{e:?}");
}

#[test]
fn hunk_lines_counts_and_markers() {
    // Counts left out are 1; an empty line is an empty context line; `\` marks a side.
    let h = unified_hunks("@@ -3 +3 @@ section text\n-a\n+b\n");
    assert_eq!((h[0].old_start, h[0].lines.len()), (Some(3), 2));
    let h = unified_hunks("@@ -1,3 +1,3 @@\n a\n\n-c\n+C\n");
    assert_eq!(h[0].lines, vec![ctx("a"), ctx(""), rem("c"), add("C")]);
    let h = unified_hunks("@@ -1 +1 @@\n-a\n\\ No newline at end of file\n+b\n");
    assert!(h[0].old_no_eol && !h[0].new_no_eol);
    let h = unified_hunks("@@ -1 +1 @@\n a\n\\ No newline at end of file\n");
    assert!(h[0].old_no_eol && h[0].new_no_eol);
    // A \r before the \n is content; header lines lose theirs.
    let h = unified_hunks("@@ -1 +1 @@\r\n-a\r\n+b\r\n");
    assert_eq!(h[0].lines, vec![rem("a\r"), add("b\r")]);
    let h = unified_hunks("@@ -0,0 +1 @@\n+x\n");
    assert_eq!(h[0].old_start, Some(0));
}

#[test]
fn a_truncated_or_overlong_hunk_names_its_line_and_counts() {
    let e = parse_error("--- a/f\n+++ b/f\n@@ -1,3 +1,3 @@\n a\n-b\n+B\n", 1);
    assert_eq!(e.line, 6);
    assert!(
        e.message.contains("line 3")
            && e.message.contains("promises 3 old and 3 new lines")
            && e.message.contains("1 old and 1 new lines still to come"),
        "{e:?}"
    );
    let e = parse_error("--- a/f\n+++ b/f\n@@ -1,3 +1,3 @@\n a\nb\n c\n", 1);
    assert_eq!(e.line, 5);
    assert!(e.message.contains("is not a hunk line"), "{e:?}");
    let e = parse_error("--- a/f\n+++ b/f\n@@ -1 +1 @@\n-a\n+b\n+c\n", 1);
    assert_eq!(e.line, 6);
    assert!(e.message.contains("header counts fewer lines"), "{e:?}");
    let e = parse_error("--- a/f\n+++ b/f\n@@ -1 +1,2 @@\n-a\n-b\n+c\n+d\n", 1);
    assert_eq!(e.line, 5);
    assert!(
        e.message.contains("longer than its 1 old and 2 new lines"),
        "{e:?}"
    );
    let e = parse_error(
        "--- a/f\n+++ b/f\n@@ -1,2 +1 @@\n-a\n\\ No newline at end of file\n-b\n+c\n",
        1,
    );
    assert_eq!(e.line, 6);
    let e = parse_error(
        "--- a/f\n+++ b/f\n@@ -1 +1 @@\n\\ No newline at end of file\n-a\n+b\n",
        1,
    );
    assert_eq!(e.line, 4);
    let e = parse_error("--- a/f\n+++ b/f\n@@ -x +1 @@\n-a\n+b\n", 1);
    assert_eq!(e.line, 3);
    assert!(e.message.contains("not a hunk header"), "{e:?}");
}

#[test]
fn header_errors() {
    let e = parse_error("diff --git a/f b/f\n--- a/f\nxx\n", 1);
    assert_eq!(e.line, 3);
    assert!(e.message.contains("not followed by a `+++`"), "{e:?}");
    let e = parse_error("--- /dev/null\n+++ /dev/null\n@@ -0,0 +1 @@\n+a\n", 1);
    assert!(e.message.contains("both sides"), "{e:?}");
    let e = parse_error("--- a/f\n+++ b/f\nnot a hunk\n", 1);
    assert!(e.message.contains("no hunk"), "{e:?}");
    let e = parse_error("diff --git a/p q b/r s\nindex 1..2\n", 1);
    assert!(e.message.contains("cannot be told apart"), "{e:?}");
    let e = parse_error("--- a/f\0g\n+++ b/f\0g\n@@ -1 +1 @@\n-a\n+b\n", 1);
    assert!(e.message.contains("NUL"), "{e:?}");
    let e = parse_error("diff --git a/f b/f\nnew file mode 12x\n", 1);
    assert_eq!(e.line, 2);
    assert!(e.message.contains("octal"), "{e:?}");
}

#[test]
fn neither_format_is_an_error_naming_both() {
    for text in ["hello\nworld\n", "--- a\n--- b\n"] {
        let e = parse_error(text, 1);
        assert_eq!(e.line, 1);
        assert!(e.message.contains("not a patch"), "{e:?}");
        assert!(
            e.fix.contains("unified diff") && e.fix.contains("Codex patch"),
            "{e:?}"
        );
    }
    let e = parse_error("\n  \n\t\n", 1);
    assert!(e.message.contains("empty"), "{e:?}");
    assert!(parse(b"", 1).is_err());
    let e = parse_error("\n\nsome words\n", 1);
    assert_eq!(e.line, 3);
}
