//! Applying hunks: placement, anchors, line endings, BOM, final newlines, fuzzy, misses.

use super::*;

fn ok(body: &[u8], hunks: &[Hunk]) -> Applied {
    match apply(body, hunks, &ApplyOptions::default()) {
        Ok(a) => a,
        Err(e) => panic!("{e:?}"),
    }
}

fn new_body(body: &str, hunks: &[Hunk]) -> String {
    String::from_utf8(ok(body.as_bytes(), hunks).new_body).expect("utf-8")
}

fn failures(body: &str, hunks: &[Hunk], fuzzy: bool) -> Vec<HunkFailure> {
    match apply(body.as_bytes(), hunks, &ApplyOptions { fuzzy }) {
        Ok(a) => panic!("applied: {:?}", String::from_utf8_lossy(&a.new_body)),
        Err(e) => e,
    }
}

fn span(start_line: usize, end_line: usize) -> LineSpan {
    LineSpan {
        start_line,
        end_line,
    }
}

#[test]
fn hunks_apply_in_order_with_their_spans() {
    let hunks = unified_hunks("@@ -1,2 +1,2 @@\n a\n-b\n+B\n@@ -6,2 +6,3 @@\n f\n g\n+h\n");
    let a = ok(b"a\nb\nc\nd\ne\nf\ng\n", &hunks);
    assert_eq!(a.new_body, b"a\nB\nc\nd\ne\nf\ng\nh\n");
    assert_eq!(a.spans, vec![span(1, 2), span(6, 8)]);
    assert!(!a.matched_fuzzily);
    // A hunk that only removes has an empty span at the line after the removal.
    let a = ok(b"a\nb\nc\n", &unified_hunks("@@ -2 +1,0 @@\n-b\n"));
    assert_eq!(a.new_body, b"a\nc\n");
    assert_eq!(a.spans, vec![span(2, 1)]);
    assert_eq!(ok(b"x\n", &[]).new_body, b"x\n");
}

#[test]
fn the_match_nearest_the_hint_wins_and_a_tie_goes_to_the_earlier() {
    let body = "k\nv\n-\nk\nv\n";
    assert_eq!(
        new_body(body, &unified_hunks("@@ -4,2 +4,2 @@\n k\n-v\n+V\n")),
        "k\nv\n-\nk\nV\n"
    );
    assert_eq!(
        new_body(body, &unified_hunks("@@ -1,2 +1,2 @@\n k\n-v\n+V\n")),
        "k\nV\n-\nk\nv\n"
    );
    let body = "k\nv\nq\nq\nk\nv\n";
    assert_eq!(
        new_body(body, &unified_hunks("@@ -3,2 +3,2 @@\n k\n-v\n+V\n")),
        "k\nV\nq\nq\nk\nv\n"
    );
}

#[test]
fn later_hints_follow_where_earlier_hunks_landed() {
    // The file has two lines more above than the patch knew: the first hunk lands two lines
    // late, so the second's hint (line 6) moves to line 8, the second k/v pair.
    let body = "x\ny\ntop\nz\nk\nv\nq\nk\nv\n";
    let hunks = unified_hunks("@@ -1 +1 @@\n-top\n+TOP\n@@ -6,2 +6,2 @@\n k\n-v\n+V\n");
    assert_eq!(new_body(body, &hunks), "x\ny\nTOP\nz\nk\nv\nq\nk\nV\n");
}

#[test]
fn codex_needs_a_unique_match_or_an_anchor() {
    let f = failures("k\nv\nk\nv\n", &codex_hunks("@@\n k\n-v\n+V"), false);
    assert_eq!(f.len(), 1);
    assert_eq!((f[0].hunk_index, f[0].line), (0, 3));
    assert_eq!(
        f[0].error,
        HunkError::Ambiguous {
            count: 2,
            lines: vec![1, 3]
        }
    );
    let body = "class A\nk\nv\nclass B\nk\nv\n";
    assert_eq!(
        new_body(body, &codex_hunks("@@ class B\n k\n-v\n+V")),
        "class A\nk\nv\nclass B\nk\nV\n"
    );
    // With an anchor the first match after it is taken.
    assert_eq!(
        new_body(body, &codex_hunks("@@ class A\n k\n-v\n+V")),
        "class A\nk\nV\nclass B\nk\nv\n"
    );
    // Nested anchors, and an anchor found only once trimmed.
    let body = "class A\n  def f\n    x\nclass B\n  def f\n    x\n";
    let hunks = codex_hunks("@@ class B\n@@ def f\n-    x\n+    y");
    assert_eq!(
        new_body(body, &hunks),
        "class A\n  def f\n    x\nclass B\n  def f\n    y\n"
    );
    // The chunk may start on its anchor line.
    assert_eq!(new_body("a\nb\n", &codex_hunks("@@ a\n-a\n+A")), "A\nb\n");
    let f = failures(body, &codex_hunks("@@ class C\n-x\n+y"), false);
    assert_eq!(
        f[0].error,
        HunkError::AnchorNotFound {
            anchor: "class C".into()
        }
    );
    // Several matches after the cursor of the previous chunk still count.
    let f = failures(
        "a\nk\nk\nk\n",
        &codex_hunks("@@\n-a\n+A\n@@\n-k\n+K"),
        false,
    );
    assert_eq!(
        f[0].error,
        HunkError::Ambiguous {
            count: 3,
            lines: vec![2, 3, 4]
        }
    );
}

#[test]
fn pure_additions() {
    let a = ok(b"a\nb\n", &unified_hunks("@@ -1,0 +2 @@\n+x\n"));
    assert_eq!(
        (a.new_body.as_slice(), a.spans.as_slice()),
        (&b"a\nx\nb\n"[..], &[span(2, 2)][..])
    );
    assert_eq!(
        new_body("a\nb\n", &unified_hunks("@@ -0,0 +1 @@\n+x\n")),
        "x\na\nb\n"
    );
    assert_eq!(
        new_body("", &unified_hunks("@@ -0,0 +1,2 @@\n+x\n+y\n")),
        "x\ny\n"
    );
    let f = failures("a\nb\n", &unified_hunks("@@ -5,0 +6 @@\n+x\n"), false);
    let HunkError::NoMatch {
        reason,
        difference,
        fix,
        window,
    } = &f[0].error
    else {
        panic!("{f:?}");
    };
    assert_eq!((*reason, *fix), (MissReason::None, MissFix::Read));
    assert!(
        difference.contains("after line 5, but the file has 2 lines"),
        "{difference}"
    );
    assert_eq!(window.as_ref().map(|w| w.text.as_str()), Some("a\nb\n"));
    // Codex appends at the end, or adds after the anchor.
    assert_eq!(new_body("a\nb\n", &codex_hunks("@@\n+c")), "a\nb\nc\n");
    assert_eq!(new_body("a\nb\n", &codex_hunks("@@ a\n+x")), "a\nx\nb\n");
    assert_eq!(
        new_body("a\nb\n", &codex_hunks("@@ a\n+x\n*** End of File")),
        "a\nb\nx\n"
    );
}

#[test]
fn end_of_file_and_no_newline_need_the_match_to_end_the_file() {
    let hunks = codex_hunks("@@\n-a\n+A\n*** End of File");
    let f = failures("a\nb\n", &hunks, false);
    assert_eq!(f[0].error, HunkError::NotAtEnd);
    assert_eq!(new_body("a\nb\na\n", &hunks), "a\nb\nA\n");
    let hunks = unified_hunks("@@ -1 +1 @@\n-a\n\\ No newline at end of file\n+A\n");
    assert_eq!(
        failures("a\nb", &hunks, false)[0].error,
        HunkError::NotAtEnd
    );
    assert_eq!(failures("a\n", &hunks, false)[0].error, HunkError::NotAtEnd);
    assert_eq!(new_body("a", &hunks), "A\n");
}

#[test]
fn final_newlines_are_added_and_removed_as_git_says() {
    let add_eol = unified_hunks("@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+b\n");
    assert_eq!(new_body("a\nb", &add_eol), "a\nb\n");
    let drop_eol = unified_hunks("@@ -1,2 +1,2 @@\n a\n-b\n+b\n\\ No newline at end of file\n");
    assert_eq!(new_body("a\nb\n", &drop_eol), "a\nb");
    let both = unified_hunks("@@ -1,2 +1,2 @@\n-a\n+A\n b\n\\ No newline at end of file\n");
    assert_eq!(new_body("a\nb", &both), "A\nb");
    // A hunk that does not know the last line lacks its break keeps the file so.
    assert_eq!(new_body("a\nb", &codex_hunks("@@\n a\n-b\n+B")), "a\nB");
    assert_eq!(new_body("a\nb", &codex_hunks("@@\n a\n b\n+c")), "a\nb\nc");
    assert_eq!(new_body("a", &codex_hunks("@@\n+b")), "a\nb");
    assert_eq!(new_body("a\nb", &codex_hunks("@@\n a\n-b")), "a");
}

#[test]
fn an_lf_hunk_applies_to_a_crlf_file_in_its_line_endings() {
    let a = ok(b"a\r\nb\r\nc\r\n", &codex_hunks("@@\n a\n-b\n+B\n+B2"));
    assert_eq!(a.new_body, b"a\r\nB\r\nB2\r\nc\r\n");
    assert_eq!(a.spans, vec![span(1, 3)]);
    // A patch of the CRLF file itself matches exactly.
    let hunks = unified_hunks("@@ -1,2 +1,2 @@\n a\r\n-b\r\n+X\r\n");
    assert_eq!(ok(b"a\r\nb\r\nc\r\n", &hunks).new_body, b"a\r\nX\r\nc\r\n");
    // Mixed endings: each context line stays as the file has it.
    assert_eq!(
        ok(b"a\nb\r\nc\n", &codex_hunks("@@\n a\n-b\n+B\n c")).new_body,
        b"a\nB\r\nc\n"
    );
    assert_eq!(
        ok(b"a\r\nb\r\n", &codex_hunks("@@\n+c")).new_body,
        b"a\r\nb\r\nc\r\n"
    );
}

#[test]
fn a_bom_stays_where_it_is() {
    let bom = "\u{feff}";
    assert_eq!(
        new_body(&format!("{bom}a\nb\n"), &codex_hunks("@@\n a\n-b\n+B")),
        format!("{bom}a\nB\n")
    );
    assert_eq!(
        new_body(&format!("{bom}a\nb\n"), &codex_hunks("@@\n-a\n+A")),
        format!("{bom}A\nb\n")
    );
    assert_eq!(
        new_body(
            &format!("{bom}a\nb\n"),
            &unified_hunks("@@ -0,0 +1 @@\n+top\n")
        ),
        format!("{bom}top\na\nb\n")
    );
    assert_eq!(
        new_body(&format!("{bom}a\nb\n"), &codex_hunks("@@ a\n+x")),
        format!("{bom}a\nx\nb\n")
    );
    // A hunk that has the BOM in its line is taken at its word.
    let hunks = unified_hunks(&format!("@@ -1 +1 @@\n-{bom}a\n+a\n"));
    assert_eq!(new_body(&format!("{bom}a\nb\n"), &hunks), "a\nb\n");
}

#[test]
fn bytes_outside_the_changed_lines_are_copied_through() {
    let body = b"\xff\xfe\n\r\nmid\nx \t\n\xc3";
    let a = ok(body, &unified_hunks("@@ -3 +3 @@\n-mid\n+MID\n"));
    assert_eq!(a.new_body, b"\xff\xfe\n\r\nMID\nx \t\n\xc3");
}

#[test]
fn fuzzy_applies_a_unique_whitespace_match_only_when_asked() {
    let body = "fn f() {\n\tlet x = 1;\n}\ntail\n";
    let hunks = codex_hunks("@@\n fn f() {\n-    let x = 1;\n+    let x = 2;\n }");
    let f = failures(body, &hunks, false);
    let HunkError::NoMatch {
        reason,
        window,
        fix,
        ..
    } = &f[0].error
    else {
        panic!("{f:?}");
    };
    assert_eq!((*reason, *fix), (MissReason::Whitespace, MissFix::Fuzzy));
    assert!(
        window
            .as_ref()
            .is_some_and(|w| w.text.contains("\tlet x = 1;")),
        "{window:?}"
    );
    let a = apply(body.as_bytes(), &hunks, &ApplyOptions { fuzzy: true }).unwrap();
    assert!(a.matched_fuzzily);
    assert_eq!(
        String::from_utf8(a.new_body).unwrap(),
        "fn f() {\n\tlet x = 2;\n}\ntail\n"
    );
    assert_eq!(a.spans, vec![span(1, 3)]);
    // Two fuzzy matches: ambiguous, with their lines.
    let body = "\tx\ny\n\tx\ny\n";
    let f = failures(body, &codex_hunks("@@\n-  x\n+  z\n y"), true);
    assert_eq!(
        f[0].error,
        HunkError::Ambiguous {
            count: 2,
            lines: vec![1, 3]
        }
    );
    // Fuzzy is sought only after the cursor.
    let body = "\tx\ny\n\tq\n";
    let hunks = codex_hunks("@@\n-y\n+Y\n@@\n-  x\n+  z");
    let f = failures(body, &hunks, true);
    let HunkError::NoMatch {
        fix, difference, ..
    } = &f[0].error
    else {
        panic!("{f:?}");
    };
    assert_eq!(*fix, MissFix::InOrder);
    assert!(difference.contains("before line 3"), "{difference}");
}

#[test]
fn every_failing_hunk_is_reported_with_a_diagnosis() {
    let hunks = unified_hunks(
        "@@ -1 +1 @@\n-x\n+y\n@@ -2 +2 @@\n-b\n+B\n@@ -3 +3 @@\n-let totl = 10;\n+Z\n",
    );
    let f = failures("a\nb\nlet total = 10;\n", &hunks, false);
    assert_eq!(
        f.iter().map(|f| (f.hunk_index, f.line)).collect::<Vec<_>>(),
        vec![(0, 3), (2, 9)]
    );
    let HunkError::NoMatch { reason, window, .. } = &f[1].error else {
        panic!("{f:?}");
    };
    assert_eq!(*reason, MissReason::Similar);
    let w = window.as_ref().expect("a window");
    assert!(
        w.text.contains("let total") && w.start_line <= 3 && w.end_line >= 3,
        "{w:?}"
    );
    // Out of order: the lines are there, before where the hunk may go.
    let hunks = unified_hunks("@@ -3 +3 @@\n-c\n+C\n@@ -1 +1 @@\n-a\n+A\n");
    let f = failures("a\nb\nc\n", &hunks, false);
    assert_eq!(f.len(), 1);
    let HunkError::NoMatch {
        fix,
        window,
        difference,
        ..
    } = &f[0].error
    else {
        panic!("{f:?}");
    };
    assert_eq!(*fix, MissFix::InOrder);
    assert!(
        difference.contains("at line 1, before line 4"),
        "{difference}"
    );
    assert_eq!(
        window.as_ref().map(|w| (w.start_line, w.end_line)),
        Some((1, 1))
    );
    // Lines found only inside longer lines are no match.
    let f = failures("xa\nb\n", &codex_hunks("@@\n-a\n+A"), false);
    assert!(
        matches!(&f[0].error, HunkError::NoMatch { difference, .. } if difference.contains("inside longer lines")),
        "{f:?}"
    );
    // Hunk lines that are not UTF-8 still get a diagnosis.
    let hunks = vec![Hunk {
        line: 1,
        old_start: None,
        anchors: Vec::new(),
        lines: vec![HunkLine::Remove(b"\xff".to_vec())],
        old_no_eol: false,
        new_no_eol: false,
        end_of_file: false,
    }];
    assert!(matches!(
        failures("a\n", &hunks, true)[0].error,
        HunkError::NoMatch { .. }
    ));
}

#[test]
fn a_crlf_file_without_a_final_newline_keeps_both() {
    let body = b"a\r\nb\r\nc";
    assert_eq!(
        ok(body, &codex_hunks("@@\n b\n c\n+d")).new_body,
        b"a\r\nb\r\nc\r\nd"
    );
    assert_eq!(
        ok(body, &codex_hunks("@@\n+d")).new_body,
        b"a\r\nb\r\nc\r\nd"
    );
    assert_eq!(ok(body, &codex_hunks("@@\n b\n-c")).new_body, b"a\r\nb");
}
