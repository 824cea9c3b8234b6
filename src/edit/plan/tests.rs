//! Example tests of the planner: exact matching and counting, byte exactness, line endings
//! and encoding, and miss diagnosis and fuzzy application as `plan` reports them (repair's
//! own rules are tested in `repair`). The helpers shared with `proptests` live here. Tests
//! only: nothing here may be used by the planner itself.

use super::*;
use crate::edit::miss::{WINDOW_MAX_BYTES, WINDOW_MAX_LINES};

#[test]
fn a_multi_line_new_in_a_crlf_line_takes_crlf() {
    let p = plan(b"a\r\nb\r\n", &[ed("a", "x\ny")], &PlanOptions::default()).unwrap();
    assert_eq!(p.new_body, b"x\r\ny\r\nb\r\n");
    let p = plan(b"a\nb\n", &[ed("a", "x\ny")], &PlanOptions::default()).unwrap();
    assert_eq!(p.new_body, b"x\ny\nb\n");
}

pub(super) fn ed(old: &str, new: &str) -> Edit {
    Edit {
        old: old.into(),
        new: new.into(),
        replace_all: false,
    }
}

fn all(old: &str, new: &str) -> Edit {
    Edit {
        replace_all: true,
        ..ed(old, new)
    }
}

pub(super) fn exact_opts() -> PlanOptions {
    PlanOptions::default()
}

pub(super) fn fuzzy_opts() -> PlanOptions {
    PlanOptions {
        fuzzy: true,
        expect_count: None,
    }
}

fn one(body: &str, old: &str, new: &str) -> Result<EditPlan, PlanError> {
    plan(body.as_bytes(), &[ed(old, new)], &exact_opts())
}

fn fuzzy(body: &str, old: &str, new: &str) -> Result<EditPlan, PlanError> {
    plan(body.as_bytes(), &[ed(old, new)], &fuzzy_opts())
}

fn body_of(r: Result<EditPlan, PlanError>) -> String {
    match r {
        Ok(p) => String::from_utf8(p.new_body).expect("utf8 in test"),
        Err(e) => panic!("expected a plan, got {e:?}"),
    }
}

fn miss(r: Result<EditPlan, PlanError>) -> (MissReason, Option<MissWindow>, String) {
    match r {
        Err(PlanError::NoMatch {
            reason,
            window,
            difference,
            ..
        }) => (reason, window, difference),
        other => panic!("expected NoMatch, got {other:?}"),
    }
}

// ---- exact matching and counting

#[test]
fn unique_replacement_and_span() {
    let p = one("a\nfoo\nb\n", "foo", "bar").unwrap();
    assert_eq!(p.new_body, b"a\nbar\nb\n");
    assert_eq!(p.replacements, 1);
    assert!(!p.matched_fuzzily);
    assert_eq!(
        p.spans,
        vec![LineSpan {
            start_line: 2,
            end_line: 2
        }]
    );
}

#[test]
fn span_of_multiline_old_ending_in_newline() {
    let p = one("a\nb\nc\nd\n", "b\nc\n", "x\n").unwrap();
    assert_eq!(p.new_body, b"a\nx\nd\n");
    assert_eq!(
        p.spans,
        vec![LineSpan {
            start_line: 2,
            end_line: 3
        }]
    );
}

#[test]
fn overlapping_occurrences_are_ambiguous() {
    let r = one("aaa", "aa", "b");
    assert_eq!(
        r,
        Err(PlanError::Ambiguous {
            edit_index: 0,
            count: 2,
            lines: vec![1, 1],
            fuzzy: false
        })
    );
}

#[test]
fn ambiguous_lists_first_twenty_lines() {
    let body: String = (0..30).map(|_| "x\n").collect();
    match one(&body, "x", "y") {
        Err(PlanError::Ambiguous { count, lines, .. }) => {
            assert_eq!(count, 30);
            assert_eq!(lines, (1..=20).collect::<Vec<_>>());
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn replace_all_is_non_overlapping_left_to_right() {
    let p = plan(b"aaaa\naa", &[all("aa", "b")], &exact_opts()).unwrap();
    assert_eq!(p.new_body, b"bb\nb");
    assert_eq!(p.replacements, 3);
    assert_eq!(
        p.spans.iter().map(|s| s.start_line).collect::<Vec<_>>(),
        vec![1, 1, 2]
    );
    let p = plan(b"aaa", &[all("aa", "b")], &exact_opts()).unwrap();
    assert_eq!(p.new_body, b"ba");
}

#[test]
fn replace_all_needs_at_least_one() {
    let (reason, _, _) = miss(plan(b"abc", &[all("zzz", "y")], &exact_opts()));
    assert_eq!(reason, MissReason::None);
}

#[test]
fn expect_count_exact() {
    let opts = PlanOptions {
        fuzzy: false,
        expect_count: Some(2),
    };
    let p = plan(b"x y x", &[ed("x", "z")], &opts).unwrap();
    assert_eq!(p.new_body, b"z y z");
    assert_eq!(p.replacements, 2);
    match plan(b"x y x x", &[ed("x", "z")], &opts) {
        Err(PlanError::Ambiguous { count: 3, .. }) => {}
        other => panic!("{other:?}"),
    }
    match plan(b"x y", &[ed("x", "z")], &opts) {
        Err(PlanError::Ambiguous { count: 1, .. }) => {}
        other => panic!("{other:?}"),
    }
    let (reason, _, _) = miss(plan(b"y", &[ed("x", "z")], &opts));
    assert_eq!(reason, MissReason::None);
    // Overlapping occurrences cannot all be replaced.
    assert!(matches!(
        plan(b"aaa", &[ed("aa", "b")], &opts),
        Err(PlanError::InvalidArgument { .. })
    ));
    let zero = PlanOptions {
        fuzzy: false,
        expect_count: Some(0),
    };
    assert!(matches!(
        plan(b"x", &[ed("x", "y")], &zero),
        Err(PlanError::InvalidArgument { .. })
    ));
}

#[test]
fn expect_count_with_replace_all() {
    let opts = PlanOptions {
        fuzzy: false,
        expect_count: Some(2),
    };
    let p = plan(b"aaaa", &[all("aa", "b")], &opts).unwrap();
    assert_eq!(p.new_body, b"bb");
    assert!(matches!(
        plan(b"aaaaaa", &[all("aa", "b")], &opts),
        Err(PlanError::Ambiguous { count: 3, .. })
    ));
}

#[test]
fn old_equal_new_is_invalid() {
    assert!(matches!(
        one("abc", "b", "b"),
        Err(PlanError::InvalidArgument { edit_index: 0, .. })
    ));
}

#[test]
fn empty_old_fills_only_an_empty_body() {
    let p = one("", "", "hello\n").unwrap();
    assert_eq!(p.new_body, b"hello\n");
    assert_eq!(p.replacements, 1);
    assert!(matches!(
        one("x", "", "hello"),
        Err(PlanError::InvalidArgument { .. })
    ));
}

#[test]
fn multi_edit_applies_in_order() {
    let p = plan(
        b"one two three",
        &[ed("one", "1"), ed("1 two", "12")],
        &exact_opts(),
    )
    .unwrap();
    assert_eq!(p.new_body, b"12 three");
    assert_eq!(p.replacements, 2);
}

#[test]
fn multi_edit_is_all_or_nothing() {
    let r = plan(
        b"one two three",
        &[ed("one", "1"), ed("two", "2"), ed("four", "4")],
        &exact_opts(),
    );
    match r {
        Err(e) => assert_eq!(e.edit_index(), 2),
        Ok(p) => panic!("{p:?}"),
    }
    let r = plan(b"ab", &[ed("a", "b"), ed("b", "c")], &exact_opts());
    assert!(matches!(
        r,
        Err(PlanError::Ambiguous {
            edit_index: 1,
            count: 2,
            ..
        })
    ));
}

// ---- byte exactness, line endings, encoding

#[test]
fn crlf_region_with_lf_old() {
    let p = one("a\r\nb\r\nc\r\n", "a\nb\n", "x\ny\nz\n").unwrap();
    assert_eq!(p.new_body, b"x\r\ny\r\nz\r\nc\r\n");
    assert!(!p.matched_fuzzily);
    assert_eq!(
        p.spans,
        vec![LineSpan {
            start_line: 1,
            end_line: 2
        }]
    );
}

#[test]
fn crlf_without_final_newline() {
    let p = one("a\r\nb\r\nc", "b\nc", "B\nC").unwrap();
    assert_eq!(p.new_body, b"a\r\nB\r\nC");
}

#[test]
fn mixed_endings_kept() {
    let body = "a\r\nb\nc\r\nd\n";
    let p = one(body, "b\nc", "B\nC").unwrap();
    assert_eq!(p.new_body, b"a\r\nB\nC\r\nd\n");
    let p = one(body, "c\nd", "C\nD").unwrap();
    assert_eq!(p.new_body, b"a\r\nb\nC\r\nD\n");
}

#[test]
fn crlf_conversion_counts_for_uniqueness() {
    match one("a\r\nb\r\na\r\nb\r\n", "a\nb", "x") {
        Err(PlanError::Ambiguous {
            count: 2,
            lines,
            fuzzy: false,
            ..
        }) => assert_eq!(lines, vec![1, 3]),
        other => panic!("{other:?}"),
    }
}

#[test]
fn invalid_utf8_elsewhere_is_kept() {
    let body = b"\xff\xfe head\nfoo = 1\n\x80tail\xc3";
    let p = plan(body, &[ed("foo = 1", "foo = 2")], &exact_opts()).unwrap();
    assert_eq!(p.new_body, b"\xff\xfe head\nfoo = 2\n\x80tail\xc3");
}

#[test]
fn replacement_char_is_refused() {
    let body = b"name: caf\xe9\n";
    let r = plan(body, &[ed("caf\u{FFFD}", "cafe")], &exact_opts());
    assert!(matches!(r, Err(PlanError::Encoding { edit_index: 0, .. })));
    let r = plan(body, &[ed("nope", "caf\u{FFFD}")], &exact_opts());
    assert!(matches!(r, Err(PlanError::Encoding { .. })));
    // A literal U+FFFD that is really in the file matches.
    let p = one("x \u{FFFD} y", "\u{FFFD}", "z").unwrap();
    assert_eq!(p.new_body, b"x z y");
}

#[test]
fn bom_free_tabs_and_trailing_spaces_outside_span_kept() {
    let body = "\tkeep  \nfoo\n\t\tend\t";
    let p = one(body, "foo", "bar").unwrap();
    assert_eq!(p.new_body, b"\tkeep  \nbar\n\t\tend\t");
}

// ---- miss diagnosis

#[test]
fn tabs_vs_spaces_diagnosis() {
    let body = "fn main() {\n\tlet x = 1;\n\tlet y = 2;\n}\n";
    let (reason, window, diff) = miss(one(body, "    let x = 1;\n    let y = 2;", "z"));
    assert_eq!(reason, MissReason::Whitespace);
    assert_eq!(
        diff,
        "lines 2-3: file indents with tabs where old indents with spaces"
    );
    let w = window.unwrap();
    assert_eq!((w.start_line, w.end_line), (1, 4));
    assert_eq!(w.text, body);
}

#[test]
fn trailing_space_diagnosis() {
    let body = "a\nfoo \nbar\n";
    let (reason, _, diff) = miss(one(body, "foo\nbar", "z"));
    assert_eq!(reason, MissReason::Whitespace);
    assert_eq!(diff, "line 2: file has a trailing space that old lacks");
}

#[test]
fn curly_quote_diagnosis() {
    let body = "x\ny\nsay(\u{2019}hi\u{2019});\n";
    let (reason, window, diff) = miss(one(body, "say('hi');", "z"));
    assert_eq!(reason, MissReason::Whitespace);
    assert_eq!(
        diff,
        "line 3: file has a curly quote (\u{2019}) where old has a straight quote (')"
    );
    assert_eq!(window.unwrap().start_line, 1);
    let (_, _, diff) = miss(one("p = \u{201C}q\u{201D}\n", "p = \"q\"", "z"));
    assert_eq!(
        diff,
        "line 1: file has a curly quote (\u{201C}) where old has a straight quote (\")"
    );
}

#[test]
fn nbsp_diagnosis() {
    let (reason, _, diff) = miss(one("a\u{A0}b\n", "a b", "z"));
    assert_eq!(reason, MissReason::Whitespace);
    assert_eq!(
        diff,
        "line 1: file has a non-breaking space where old has a space"
    );
}

#[test]
fn dash_and_ellipsis_diagnosis() {
    let (_, _, diff) = miss(one("x\nrange 1\u{2013}5\n", "range 1-5", "z"));
    assert_eq!(
        diff,
        "line 2: file has an en dash (–) where old has a hyphen (-)"
    );
    let (_, _, diff) = miss(one("a \u{2014} b", "a - b", "z"));
    assert_eq!(
        diff,
        "line 1: file has an em dash (—) where old has a hyphen (-)"
    );
    let (_, _, diff) = miss(one("y = \u{2212}1", "y = -1", "z"));
    assert_eq!(
        diff,
        "line 1: file has a minus sign (−) where old has a hyphen (-)"
    );
    let (r, _, diff) = miss(one("wait\u{2026} ok", "wait... ok", "z"));
    assert_eq!(r, MissReason::Whitespace);
    assert_eq!(
        diff,
        "line 1: file has an ellipsis (…) where old has three dots (...)"
    );
}

#[test]
fn crlf_vs_lf_diagnosis() {
    // old has CRLF, the file LF: no exact retry applies, so it is a whitespace miss.
    let (reason, _, diff) = miss(one("a\nb\nc\n", "a\r\nb", "z"));
    assert_eq!(reason, MissReason::Whitespace);
    assert_eq!(diff, "line 1: file has LF line endings where old has CRLF");
    // Mixed file: old LF spans a CRLF line and an LF line.
    let (reason, _, diff) = miss(one("a\nb\r\nc  \n", "a\nb\nc\n", "z"));
    assert_eq!(reason, MissReason::Whitespace);
    assert_eq!(
        diff,
        "line 2: file has CRLF line endings where old has LF; line 3: file has trailing \
         whitespace (2 spaces) that old lacks"
    );
}

#[test]
fn fuzzy_apply_keeps_tabs_and_crlf() {
    let body = "fn f() {\r\n\tif x {\r\n\t\ty();\r\n\t}\r\n}\r\n";
    let old = "    if x {\n        y();\n    }\n";
    let new = "    if x {\n        y();\n        z();\n    } else {\n        w();\n    }\n";
    let p = fuzzy(body, old, new).unwrap();
    assert!(p.matched_fuzzily);
    assert_eq!(
        String::from_utf8(p.new_body).unwrap(),
        "fn f() {\r\n\tif x {\r\n\t\ty();\r\n\t\tz();\r\n\t} else {\r\n\t\tw();\r\n\t}\r\n}\r\n"
    );
    assert_eq!(
        p.spans,
        vec![LineSpan {
            start_line: 2,
            end_line: 4
        }]
    );
}

#[test]
fn fuzzy_reindents_by_delta_with_spaces() {
    // old written without the enclosing indentation; the file nests it 8 deep.
    let body = "class A:\n    def f(self):\n        a = 1\n        b = 2\n";
    let old = "a = 1\nb = 2\n";
    let new = "a = 1\nif a:\n    b = 3\n";
    let p = fuzzy(body, old, new).unwrap();
    assert_eq!(
        body_of(Ok(p)),
        "class A:\n    def f(self):\n        a = 1\n        if a:\n            b = 3\n"
    );
}

#[test]
fn fuzzy_same_style_shifts_by_columns() {
    let body = "if a:\n        x = 1\n        y = 2\n";
    let old = "    x = 1\n    y = 2\n";
    let new = "    x = 1\n    if y:\n        y = 2\n";
    assert_eq!(
        body_of(fuzzy(body, old, new)),
        "if a:\n        x = 1\n        if y:\n            y = 2\n"
    );
}

#[test]
fn fuzzy_missing_final_newline() {
    let (reason, _, diff) = miss(one("x\na\nb", "a\nb\n", "c\n"));
    assert_eq!(reason, MissReason::Whitespace);
    assert_eq!(
        diff,
        "line 3: the file ends without a final newline where old has one"
    );
    let p = fuzzy("x\na\nb", "a\nb\n", "c\n").unwrap();
    assert_eq!(p.new_body, b"x\nc");
    assert_eq!(
        p.spans,
        vec![LineSpan {
            start_line: 2,
            end_line: 3
        }]
    );
}

#[test]
fn fuzzy_respects_expect_count() {
    let opts = PlanOptions {
        fuzzy: true,
        expect_count: Some(2),
    };
    assert!(matches!(
        plan(b"\tx = 1;\n", &[ed("    x = 1;", "y")], &opts),
        Err(PlanError::Ambiguous {
            count: 1,
            fuzzy: true,
            ..
        })
    ));
}

#[test]
fn similar_old_starts_before_the_file() {
    let (reason, _, diff) = miss(one(
        "let first = 1;\nlet second = 2;\n",
        "let zeroth = 0;\nlet first = 1;\nlet second = 2;",
        "z",
    ));
    assert_eq!(reason, MissReason::Similar);
    assert_eq!(
        diff,
        "line 1: old has \"let zeroth = 0;\" before the file's first line"
    );
    let (_, _, diff) = miss(one(
        "let first = 1;\nlet second = 2;\n",
        "let first = 1;\nlet second = 2;\nlet third = 3;",
        "z",
    ));
    assert_eq!(
        diff,
        "line 3: the file ends where old continues with \"let third = 3;\""
    );
}

#[test]
fn fuzzy_fragment_with_curly_quotes() {
    let p = fuzzy("let s = \u{201C}hi\u{201D}; // x\n", "\"hi\";", "\"bye\";").unwrap();
    assert!(p.matched_fuzzily);
    // The quotes new repeats from old are the file's.
    assert_eq!(body_of(Ok(p)), "let s = \u{201C}bye\u{201D}; // x\n");
}

#[test]
fn fuzzy_trailing_whitespace_and_no_final_newline() {
    // Trailing whitespace new does not touch is the file's, on every line.
    let p = fuzzy("a  \nb\t", "a\nb", "c\nd").unwrap();
    assert_eq!(body_of(Ok(p)), "c  \nd\t");
}

#[test]
fn fuzzy_ambiguous() {
    let body = "\tx = 1;\n\ty = 2;\n\tx = 1;\n";
    match fuzzy(body, "    x = 1;", "x = 3;") {
        Err(PlanError::Ambiguous {
            count: 2,
            lines,
            fuzzy: true,
            ..
        }) => assert_eq!(lines, vec![1, 3]),
        other => panic!("{other:?}"),
    }
}

#[test]
fn fuzzy_off_reports_instead_of_applying() {
    let (reason, _, _) = miss(one("\tx = 1;\n", "    x = 1;", "x = 3;"));
    assert_eq!(reason, MissReason::Whitespace);
}

#[test]
fn similar_quotes_first_differing_line() {
    let mut body = String::new();
    for i in 0..20 {
        body.push_str(&format!("line {i}\n"));
    }
    body.push_str("fn go() {\n    let x = foo(a, b);\n    done(x);\n}\n");
    let old = "fn go() {\n    let x = foo(a);\n    done(x);\n}\n";
    let (reason, window, diff) = miss(one(&body, old, "z"));
    assert_eq!(reason, MissReason::Similar);
    assert_eq!(
        diff,
        "line 22: file has \"    let x = foo(a, b);\" where old has \"    let x = foo(a);\""
    );
    let w = window.unwrap();
    assert!(w.start_line <= 21 && w.end_line >= 24, "{w:?}");
}

#[test]
fn similar_single_line() {
    let body = "alpha\nlet total = compute(items, 3);\nomega\n";
    let (reason, _, diff) = miss(one(body, "let total = compute(items, 4);", "z"));
    assert_eq!(reason, MissReason::Similar);
    assert_eq!(
        diff,
        "line 2: file has \"let total = compute(items, 3);\" where old has \"let total = compute(items, 4);\""
    );
}

#[test]
fn similar_quote_is_cut() {
    let long = "word ".repeat(60);
    let body = format!("{long}1\n");
    let (reason, _, diff) = miss(one(&body, &format!("{long}2"), "z"));
    assert_eq!(reason, MissReason::Similar);
    assert!(diff.contains('…'));
    assert!(diff.len() < 300, "{diff}");
}

#[test]
fn nothing_resembles() {
    let (reason, window, diff) = miss(one("alpha\nbeta\n", "completely different text", "z"));
    assert_eq!(reason, MissReason::None);
    // Still a window: the file's first lines when no line shares a word with old.
    let w = window.unwrap();
    assert_eq!(
        (w.start_line, w.end_line, w.text.as_str()),
        (1, 2, "alpha\nbeta\n")
    );
    // The line sharing most words with old, when one does.
    let body = "a\nb\nc\nd\nthe quick fox\ne\nf\ng\nh\n";
    let (reason, window, _) = miss(one(body, "a slow brown fox jumps", "z"));
    assert_eq!(reason, MissReason::None);
    let w = window.unwrap();
    assert_eq!((w.start_line, w.end_line), (3, 7));
    assert_eq!(
        diff,
        "no line of old appears in the file, even ignoring whitespace"
    );
}

#[test]
fn window_bounds_with_many_and_huge_lines() {
    // 40 matching lines plus one differing line: at most 16 lines in the window.
    let mut body = String::new();
    let mut old = String::new();
    for i in 0..40 {
        body.push_str(&format!("\tstatement_{i}();\n"));
        old.push_str(&format!("    statement_{i}();\n"));
    }
    let (_, w, _) = miss(one(&body, &old, "z"));
    let w = w.unwrap();
    assert!(w.end_line - w.start_line < WINDOW_MAX_LINES);
    assert!(w.text.len() <= WINDOW_MAX_BYTES);
    assert_eq!(w.text.lines().count(), w.end_line - w.start_line + 1);

    // Huge neighbouring lines are left out; the window still holds whole lines only.
    let huge = "h".repeat(5000);
    let body = format!("{huge}\n\tkey = 1;\n{huge}\n");
    let (reason, w, _) = miss(one(&body, "    key = 1;", "z"));
    assert_eq!(reason, MissReason::Whitespace);
    let w = w.unwrap();
    assert_eq!((w.start_line, w.end_line), (2, 2));
    assert_eq!(w.text, "\tkey = 1;\n");

    // A candidate line that alone exceeds the limit gives no window.
    let body = format!("\tkey = 1; {huge}\n");
    let (_, w, _) = miss(one(&body, "    key = 1;", "z"));
    assert!(w.is_none());

    // MissWindow over many mid-sized lines stays under 2 KiB.
    let mut body = String::new();
    for i in 0..30 {
        body.push_str(&format!("\tv{i} = {};\n", "y".repeat(300)));
    }
    let (_, w, _) = miss(one(&body, "    v10 = ", "z"));
    let w = w.unwrap();
    assert!(w.text.len() <= WINDOW_MAX_BYTES, "{}", w.text.len());
    assert!(w.start_line <= 11 && 11 <= w.end_line);
}

#[test]
fn large_body_miss_is_fast() {
    let mut body = Vec::with_capacity(10 << 20);
    let mut i = 0u64;
    while body.len() < 10 << 20 {
        body.extend_from_slice(format!("    let value_{i} = compute({i}, \"x\");\n").as_bytes());
        i += 1;
    }
    let t = std::time::Instant::now();
    let r = plan(
        &body,
        &[ed("let nothing_like_this = 1;\nfoo();", "z")],
        &exact_opts(),
    );
    assert!(matches!(r, Err(PlanError::NoMatch { .. })));
    let r = plan(
        &body,
        &[ed("let value_777 = compute(778, \"x\");", "z")],
        &exact_opts(),
    );
    assert!(
        matches!(
            r,
            Err(PlanError::NoMatch {
                reason: MissReason::Similar,
                ..
            })
        ),
        "{r:?}"
    );
    let limit = if cfg!(debug_assertions) { 30.0 } else { 1.0 };
    assert!(t.elapsed().as_secs_f64() < limit, "{:?}", t.elapsed());
}

// ---- what an agent cannot see, and what fixes it

fn fix_of(r: Result<EditPlan, PlanError>) -> (MissReason, MissFix, String) {
    match r {
        Err(PlanError::NoMatch {
            reason,
            fix,
            difference,
            ..
        }) => (reason, fix, difference),
        other => panic!("expected NoMatch, got {other:?}"),
    }
}

#[test]
fn each_miss_names_the_fix_that_works() {
    let body = "fn f() {\n\tx();\n}\n";
    assert_eq!(fix_of(one(body, "    x();", "y();")).1, MissFix::Fuzzy);
    assert_eq!(fix_of(one(body, "    x(1);", "y();")).1, MissFix::Quote);
    assert_eq!(
        fix_of(one(body, "nothing like it at all", "y")).1,
        MissFix::Read
    );
    // Several whitespace matches: --fuzzy would not apply, so it is not offered.
    let twice = "\tx();\n\tx();\n";
    assert_eq!(fix_of(one(twice, "    x();", "y();")).1, MissFix::Unique);
    assert!(matches!(
        fuzzy(twice, "    x();", "y();"),
        Err(PlanError::Ambiguous {
            count: 2,
            fuzzy: true,
            ..
        })
    ));
}

#[test]
fn invisible_and_decomposed_chars_are_whitespace_misses_fuzzy_applies() {
    let body = "let total = price\u{200B} * qty;\nname = \"Rene\u{301}\"\n";
    let (reason, fix, diff) = fix_of(one(body, "let total = price * qty;", "x"));
    assert_eq!((reason, fix), (MissReason::Whitespace, MissFix::Fuzzy));
    assert_eq!(
        diff,
        "line 1, column 18: file has an invisible U+200B (zero-width space) that old lacks"
    );
    // Applied, the file keeps its own chars where new repeats old.
    assert_eq!(
        body_of(fuzzy(body, "name = \"Ren\u{E9}\"", "name = \"Ren\u{E9}e\"")),
        "let total = price\u{200B} * qty;\nname = \"Rene\u{301}e\"\n"
    );
}

#[test]
fn read_line_numbers_in_old_are_named_and_fuzzy_strips_them() {
    let body = "def f():\n    return 1\n";
    let old = "     1\tdef f():\n     2\t    return 1";
    let (reason, fix, diff) = fix_of(one(body, old, "     1\tdef f():\n     2\t    return 2"));
    assert_eq!(
        (reason, fix),
        (MissReason::Similar, MissFix::FuzzyUnnumbered)
    );
    assert_eq!(
        diff,
        "every line of old starts with a line number and a tab, as quill read shows them; \
         without them, old matches line 1"
    );
    // new numbered on every line, or on none: both are stripped / kept as they are.
    for new in [
        "     1\tdef f():\n     2\t    return 2",
        "def f():\n    return 2",
    ] {
        let p = fuzzy(body, old, new).unwrap();
        assert!(p.matched_fuzzily);
        assert_eq!(p.notes.len(), 1);
        assert_eq!(
            String::from_utf8(p.new_body).unwrap(),
            "def f():\n    return 2\n"
        );
    }
    // new numbered on some lines only: nothing is written.
    let mixed = "     1\tdef f():\n    return 2";
    assert_eq!(fix_of(one(body, old, mixed)).1, MissFix::Unnumber);
    let (_, fix, diff) = fix_of(fuzzy(body, old, mixed));
    assert_eq!(fix, MissFix::Unnumber);
    assert!(
        diff.ends_with(
            "new has line numbers on some lines only, so they cannot be told from its text"
        ),
        "{diff}"
    );
}

#[test]
fn escapes_written_out_are_named_and_fuzzy_reads_them() {
    let body = "say(\"hi\")\n\tnext()\n";
    let old = r#"say(\"hi\")\n\tnext()"#;
    let (reason, fix, diff) = fix_of(one(body, old, r#"say(\"yo\")\n\tnext()"#));
    assert_eq!(
        (reason, fix),
        (MissReason::Similar, MissFix::FuzzyUnescaped)
    );
    assert_eq!(
        diff,
        "old has the escapes \\\", \\n and \\t as text; read as what they stand for, old \
         matches line 1"
    );
    let p = fuzzy(body, old, r#"say(\"yo\")\n\tnext()\n\tlast()"#).unwrap();
    assert_eq!(
        String::from_utf8(p.new_body).unwrap(),
        "say(\"yo\")\n\tnext()\n\tlast()\n"
    );
    assert_eq!(p.notes.len(), 1);
    // Unescaped, old and new are the same: nothing to do, said so.
    assert!(matches!(
        fuzzy(body, old, "say(\"hi\")\n\tnext()"),
        Err(PlanError::InvalidArgument { .. })
    ));
    // Escapes that do not make old match are only noted.
    let (reason, _, diff) = fix_of(one(body, r#"say(\"ho\")\nnext"#, "x"));
    assert_eq!(reason, MissReason::None);
    assert!(
        diff.ends_with("; old has \\n as text (a backslash and a letter), not as a line break"),
        "{diff}"
    );
}

#[test]
fn a_batch_miss_shows_the_files_lines() {
    let body = "one = 1\ntwo = 2\nthree = 3\nfour = 4\n";
    let edits = [
        ed("one = 1", "one = 10"),
        ed("two = 22", "x"),
        ed("four = 4", "y"),
    ];
    match plan(body.as_bytes(), &edits, &exact_opts()) {
        Err(PlanError::NoMatch {
            edit_index,
            window,
            difference,
            fix,
            ..
        }) => {
            assert_eq!(edit_index, 1);
            assert_eq!(fix, MissFix::Quote);
            assert_eq!(
                difference,
                "line 2: file has \"two = 2\" where old has \"two = 22\""
            );
            // Line 1 as it is on disk, not as edit 1 left it in memory.
            assert_eq!(window.unwrap().text, body);
        }
        other => panic!("expected NoMatch, got {other:?}"),
    }
}

#[test]
fn a_batch_edit_quoting_what_an_earlier_edit_changed_says_so() {
    let body = "a = 1\nb = 2\nc = 3\n";
    let edits = [
        ed("b = 2", "b = 20"),
        ed("c = 3", "c = 30"),
        ed("b = 2\nc", "x"),
    ];
    match plan(body.as_bytes(), &edits, &exact_opts()) {
        Err(PlanError::NoMatch {
            edit_index,
            window,
            difference,
            fix,
            ..
        }) => {
            assert_eq!((edit_index, fix), (2, MissFix::InOrder));
            assert_eq!(
                difference,
                "line 2: old is in the file, but edit 1 of this batch changes it first; each \
                 edit applies to the text the edits before it leave"
            );
            let w = window.unwrap();
            assert_eq!((w.start_line, w.end_line), (1, 3));
        }
        other => panic!("expected NoMatch, got {other:?}"),
    }
}

#[test]
fn a_batch_miss_near_text_an_earlier_edit_wrote_says_where_that_text_is() {
    let body = "alpha = 1\nomega = 9\n";
    let edits = [
        ed("alpha = 1", "alpha = 1\nbeta_value = 2"),
        ed("beta_value = 3", "x"),
    ];
    match plan(body.as_bytes(), &edits, &exact_opts()) {
        Err(PlanError::NoMatch {
            edit_index,
            reason,
            window,
            difference,
            ..
        }) => {
            assert_eq!((edit_index, reason), (1, MissReason::Similar));
            // The close line exists only in memory: said so; the window is still the file's.
            assert_eq!(
                difference,
                "line 2: file has \"beta_value = 2\" where old has \"beta_value = 3\" (in the \
                 text as edit 1 leaves it)"
            );
            assert_eq!(window.unwrap().text, body);
        }
        other => panic!("expected NoMatch, got {other:?}"),
    }
}
