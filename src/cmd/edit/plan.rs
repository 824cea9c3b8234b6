//! The pure edit planner behind `quill edit` (SPEC §3.3): given a file's bytes (UTF-8-ish,
//! BOM already stripped by the caller) and an ordered list of `old → new` edits, it decides
//! where each edit lands and builds the new body, all or nothing. It owns the matching rules —
//! exact uniqueness with overlapping occurrences, `replace_all`, `expect_count`, the CRLF
//! retry for an LF `old`, the U+FFFD refusal — and byte-exactness: every byte outside the
//! replaced spans is copied through untouched. Miss diagnosis and fuzzy (whitespace and
//! look-alike) matching live in `repair`, the reported reason and window in `miss` (re-exported
//! here); `repair` never calls back into this module. This module must not do I/O, print, or panic on
//! any input; line numbers it reports are 1-based lines of the text each edit was applied to
//! (for a multi-edit request, the text as left by the edits before it).

pub use super::miss::{MissReason, Window};
use super::repair;
use memchr::memmem;

/// One requested replacement.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Edit {
    pub old: String,
    pub new: String,
    pub replace_all: bool,
}

/// Options shared by every edit of one request.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PlanOptions {
    /// Apply a unique whitespace / look-alike match instead of reporting it.
    pub fuzzy: bool,
    /// `Some(n)`: every edit must find exactly `n` occurrences (overlapping ones counted;
    /// non-overlapping ones with `replace_all`) and then replaces all `n`. Some but not `n`
    /// → `Ambiguous` with the real count; none → `NoMatch`; `Some(0)`, or `n` occurrences
    /// that overlap → `InvalidArgument`. A fuzzy match is applied only when `n == 1`.
    pub expect_count: Option<usize>,
}

/// What a successful [`plan`] gives: the new body and what changed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EditPlan {
    pub new_body: Vec<u8>,
    /// Total replacements over all edits.
    pub replacements: usize,
    /// True when at least one edit was applied through a fuzzy match.
    pub matched_fuzzily: bool,
    /// One per applied replacement, in edit order then file order. Filling an empty body
    /// (empty `old`) reports line 1.
    pub spans: Vec<LineSpan>,
}

/// A 1-based inclusive line span in the text an edit was applied to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LineSpan {
    pub start_line: usize,
    pub end_line: usize,
}

/// How many occurrence lines an `Ambiguous` error lists.
pub const AMBIGUOUS_MAX_LINES: usize = 20;

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PlanError {
    NoMatch {
        edit_index: usize,
        reason: MissReason,
        /// `None` when nothing resembles `old`, or when the candidate line alone exceeds
        /// the window's byte limit.
        window: Option<Window>,
        difference: String,
    },
    Ambiguous {
        edit_index: usize,
        count: usize,
        /// 1-based start lines of the first 20 occurrences.
        lines: Vec<usize>,
        /// The occurrences are fuzzy matches (their count stops at 10 000).
        fuzzy: bool,
    },
    /// `old` or `new` holds U+FFFD and `old` is not in the file as is. (When `old` does
    /// match exactly, a U+FFFD in `new` is written as the character it is.)
    Encoding {
        edit_index: usize,
        message: String,
    },
    InvalidArgument {
        edit_index: usize,
        message: String,
    },
}

impl PlanError {
    pub fn edit_index(&self) -> usize {
        match self {
            PlanError::NoMatch { edit_index, .. }
            | PlanError::Ambiguous { edit_index, .. }
            | PlanError::Encoding { edit_index, .. }
            | PlanError::InvalidArgument { edit_index, .. } => *edit_index,
        }
    }
}

/// Applies `edits` in order to `body`; the first failing edit aborts the whole plan.
///
/// Per edit: exact bytes first; then, if `old` has bare `\n`s, the same text with `\r\n`
/// (inserting `new` with `\r\n` too); then the U+FFFD refusal; then `repair` diagnoses
/// the miss, and with `fuzzy` applies a unique whitespace / look-alike match, re-indented
/// and using the region's majority line ending (ties: its first line's).
pub fn plan(body: &[u8], edits: &[Edit], opts: &PlanOptions) -> Result<EditPlan, PlanError> {
    let mut cur: Vec<u8> = body.to_vec();
    let mut out = EditPlan {
        new_body: Vec::new(),
        replacements: 0,
        matched_fuzzily: false,
        spans: Vec::new(),
    };
    for (index, edit) in edits.iter().enumerate() {
        let step = plan_one(&cur, edit, opts).map_err(|e| e.at(index))?;
        cur = step.body;
        out.replacements += step.spans.len();
        out.matched_fuzzily |= step.matched_fuzzily;
        out.spans.extend(step.spans);
    }
    out.new_body = cur;
    Ok(out)
}

/// An error before it knows which edit it belongs to.
enum StepError {
    NoMatch {
        reason: MissReason,
        window: Option<Window>,
        difference: String,
    },
    Ambiguous {
        count: usize,
        lines: Vec<usize>,
        fuzzy: bool,
    },
    Encoding(String),
    Invalid(String),
}

impl StepError {
    fn at(self, edit_index: usize) -> PlanError {
        match self {
            StepError::NoMatch {
                reason,
                window,
                difference,
            } => PlanError::NoMatch {
                edit_index,
                reason,
                window,
                difference,
            },
            StepError::Ambiguous {
                count,
                lines,
                fuzzy,
            } => PlanError::Ambiguous {
                edit_index,
                count,
                lines,
                fuzzy,
            },
            StepError::Encoding(message) => PlanError::Encoding {
                edit_index,
                message,
            },
            StepError::Invalid(message) => PlanError::InvalidArgument {
                edit_index,
                message,
            },
        }
    }
}

/// One edit applied: the text it leaves and the spans it replaced.
struct Step {
    body: Vec<u8>,
    spans: Vec<LineSpan>,
    matched_fuzzily: bool,
}

fn plan_one(cur: &[u8], edit: &Edit, opts: &PlanOptions) -> Result<Step, StepError> {
    if edit.old == edit.new {
        return Err(StepError::Invalid(
            "old and new are identical, so the edit would change nothing".into(),
        ));
    }
    if opts.expect_count == Some(0) {
        return Err(StepError::Invalid("expect_count must be at least 1".into()));
    }
    if edit.old.is_empty() {
        if cur.is_empty() {
            return Ok(Step {
                body: edit.new.as_bytes().to_vec(),
                spans: vec![LineSpan {
                    start_line: 1,
                    end_line: 1,
                }],
                matched_fuzzily: false,
            });
        }
        return Err(StepError::Invalid(
            "old is empty, which only fills an empty file; this file is not empty, so quote \
             the text to replace"
                .into(),
        ));
    }

    let old = edit.old.as_bytes();
    let new = edit.new.as_bytes();
    if let Some(step) = exact(cur, old, new, edit.replace_all, opts.expect_count)? {
        return Ok(step);
    }
    if let Some(old_crlf) = to_crlf(old) {
        let new_crlf = to_crlf(new).unwrap_or_else(|| new.to_vec());
        if let Some(step) = exact(
            cur,
            &old_crlf,
            &new_crlf,
            edit.replace_all,
            opts.expect_count,
        )? {
            return Ok(step);
        }
    }
    if edit.old.contains('\u{FFFD}') || edit.new.contains('\u{FFFD}') {
        let which = if edit.old.contains('\u{FFFD}') {
            "old"
        } else {
            "new"
        };
        return Err(StepError::Encoding(format!(
            "{which} contains U+FFFD (\u{FFFD}), the character a lossy read shows in place of \
             bytes that are not valid UTF-8; the edit would need the file's invalid bytes, which \
             cannot be written as text. Choose an old that stops before them and a new without \
             U+FFFD"
        )));
    }

    match repair::diagnose(cur, &edit.old) {
        repair::Diagnosis::Whitespace {
            matches,
            window,
            difference,
        } => {
            if !opts.fuzzy {
                return Err(StepError::NoMatch {
                    reason: MissReason::Whitespace,
                    window,
                    difference,
                });
            }
            let want = opts.expect_count.unwrap_or(1);
            if matches.len() != 1 || want != 1 {
                return Err(StepError::Ambiguous {
                    count: matches.len(),
                    lines: matches
                        .iter()
                        .take(AMBIGUOUS_MAX_LINES)
                        .map(|m| m.first_line + 1)
                        .collect(),
                    fuzzy: true,
                });
            }
            let Some(m) = matches.first() else {
                return Err(StepError::NoMatch {
                    reason: MissReason::Whitespace,
                    window,
                    difference,
                });
            };
            let replacement = repair::render_replacement(cur, m, &edit.old, &edit.new);
            let (start, end) = (m.start.min(cur.len()), m.end.min(cur.len()));
            let (start, end) = (start.min(end), end);
            let span = line_span(cur, start, end);
            let mut body = Vec::with_capacity(cur.len() + replacement.len());
            body.extend_from_slice(&cur[..start]);
            body.extend_from_slice(&replacement);
            body.extend_from_slice(&cur[end..]);
            Ok(Step {
                body,
                spans: vec![span],
                matched_fuzzily: true,
            })
        }
        repair::Diagnosis::Similar { window, difference } => Err(StepError::NoMatch {
            reason: MissReason::Similar,
            window,
            difference,
        }),
        repair::Diagnosis::Nothing { difference } => Err(StepError::NoMatch {
            reason: MissReason::None,
            window: None,
            difference,
        }),
    }
}

/// Exact byte search with the counting rules. `Ok(None)` means zero occurrences.
fn exact(
    cur: &[u8],
    old: &[u8],
    new: &[u8],
    replace_all: bool,
    expect: Option<usize>,
) -> Result<Option<Step>, StepError> {
    let finder = memmem::Finder::new(old);
    // Overlapping occurrences count for uniqueness; replace_all steps over each match.
    let stride = if replace_all { old.len() } else { 1 };
    let finder = &finder;
    let occurrences = || {
        let mut pos = 0;
        std::iter::from_fn(move || {
            let i = finder.find(cur.get(pos..)?)?;
            let at = pos + i;
            pos = at + stride;
            Some(at)
        })
    };
    let count = occurrences().count();
    if count == 0 {
        return Ok(None);
    }
    let want = expect.unwrap_or(if replace_all { count } else { 1 });
    if count != want {
        let firsts: Vec<usize> = occurrences().take(AMBIGUOUS_MAX_LINES).collect();
        return Err(StepError::Ambiguous {
            count,
            lines: start_lines(cur, &firsts),
            fuzzy: false,
        });
    }
    let mut body = Vec::with_capacity(
        (cur.len().saturating_sub(count.saturating_mul(old.len())))
            .saturating_add(count.saturating_mul(new.len())),
    );
    let mut spans = Vec::with_capacity(count);
    let mut last = 0;
    let mut line = 1;
    // A one-line `old` inside a CRLF line, replaced by a multi-line `new` with bare LFs: the
    // new lines take the file's CRLF, so the edit adds no mixed endings.
    let new_crlf = (!old.contains(&b'\n')).then(|| to_crlf(new)).flatten();
    for s in occurrences() {
        if s < last {
            return Err(StepError::Invalid(format!(
                "old occurs {count} times as expected, but the occurrences overlap, so they \
                 cannot all be replaced; quote a longer old"
            )));
        }
        let before = &cur[last..s];
        line += memchr::memchr_iter(b'\n', before).count();
        body.extend_from_slice(before);
        match &new_crlf {
            Some(crlf) if line_ends_in_crlf(cur, s + old.len()) => body.extend_from_slice(crlf),
            _ => body.extend_from_slice(new),
        }
        let span = span_from(line, &cur[s..s + old.len()]);
        line = span.start_line + memchr::memchr_iter(b'\n', &cur[s..s + old.len()]).count();
        spans.push(span);
        last = s + old.len();
    }
    body.extend_from_slice(&cur[last..]);
    Ok(Some(Step {
        body,
        spans,
        matched_fuzzily: false,
    }))
}

/// 1-based start lines of the given sorted occurrence offsets.
fn start_lines(text: &[u8], starts: &[usize]) -> Vec<usize> {
    let mut line = 1;
    let mut at = 0;
    let mut out = Vec::new();
    for &s in starts {
        let s = s.min(text.len());
        if s >= at {
            line += memchr::memchr_iter(b'\n', &text[at..s]).count();
            at = s;
        }
        out.push(line);
    }
    out
}

/// Lines covered by `text[start..end]`; a final `\n` belongs to the line it ends.
pub(crate) fn line_span(text: &[u8], start: usize, end: usize) -> LineSpan {
    let start = start.min(text.len());
    let end = end.clamp(start, text.len());
    let start_line = 1 + memchr::memchr_iter(b'\n', &text[..start]).count();
    span_from(start_line, &text[start..end])
}

/// The span of `inner`, which starts on `start_line`.
fn span_from(start_line: usize, inner: &[u8]) -> LineSpan {
    let mut nl = memchr::memchr_iter(b'\n', inner).count();
    if inner.last() == Some(&b'\n') {
        nl = nl.saturating_sub(1);
    }
    LineSpan {
        start_line,
        end_line: start_line + nl,
    }
}

/// `s` with every bare `\n` turned into `\r\n`, or `None` when it has no bare `\n`.
/// Whether the line holding byte `at` ends in `\r\n`.
fn line_ends_in_crlf(cur: &[u8], at: usize) -> bool {
    let rest = cur.get(at..).unwrap_or(&[]);
    memchr::memchr(b'\n', rest).is_some_and(|i| i > 0 && rest[i - 1] == b'\r')
}

fn to_crlf(s: &[u8]) -> Option<Vec<u8>> {
    let mut out = Vec::with_capacity(s.len() + 8);
    let mut changed = false;
    for (i, &b) in s.iter().enumerate() {
        if b == b'\n' && (i == 0 || s[i - 1] != b'\r') {
            out.push(b'\r');
            changed = true;
        }
        out.push(b);
    }
    changed.then_some(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cmd::edit::miss::{WINDOW_MAX_BYTES, WINDOW_MAX_LINES};
    use proptest::prelude::*;

    #[test]
    fn a_multi_line_new_in_a_crlf_line_takes_crlf() {
        let p = plan(b"a\r\nb\r\n", &[ed("a", "x\ny")], &PlanOptions::default()).unwrap();
        assert_eq!(p.new_body, b"x\r\ny\r\nb\r\n");
        let p = plan(b"a\nb\n", &[ed("a", "x\ny")], &PlanOptions::default()).unwrap();
        assert_eq!(p.new_body, b"x\ny\nb\n");
    }

    fn ed(old: &str, new: &str) -> Edit {
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

    fn exact_opts() -> PlanOptions {
        PlanOptions::default()
    }

    fn fuzzy_opts() -> PlanOptions {
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

    fn miss(r: Result<EditPlan, PlanError>) -> (MissReason, Option<Window>, String) {
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
        assert_eq!(diff, "line 2: file has a tab where old has 4 spaces");
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
        assert_eq!(diff, "line 2: file has CRLF line endings where old has LF");
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
        assert_eq!(body_of(Ok(p)), "let s = \"bye\"; // x\n");
    }

    #[test]
    fn fuzzy_trailing_whitespace_and_no_final_newline() {
        let p = fuzzy("a  \nb\t", "a\nb", "c\nd").unwrap();
        assert_eq!(body_of(Ok(p)), "c\nd\t");
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
        assert!(window.is_none());
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

        // Window over many mid-sized lines stays under 2 KiB.
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
            body.extend_from_slice(
                format!("    let value_{i} = compute({i}, \"x\");\n").as_bytes(),
            );
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

    // ---- properties

    /// What bodies are made of: ASCII, whitespace, both line endings and look-alikes. An
    /// invalid byte (`\xff`) comes as one piece in fourteen.
    const VALID_PIECES: &[&str] = &[
        "a", "b", "foo", " ", "\t", "\n", "\r\n", "\u{2019}", "\u{A0}", "\u{2014}", "\u{2026}",
        "'", "-",
    ];

    fn piece() -> impl Strategy<Value = &'static [u8]> {
        prop_oneof![
            13 => prop::sample::select(VALID_PIECES).prop_map(str::as_bytes),
            1 => Just(&b"\xff"[..]),
        ]
    }

    fn body_strategy() -> impl Strategy<Value = Vec<u8>> {
        prop::collection::vec(piece(), 0..40).prop_map(|v| v.concat())
    }

    /// A body and `start..end`, a non-empty stretch of it (at most 10 chars) that is valid
    /// UTF-8 and cut at char boundaries, possibly inside a `\r\n`: the `old` of an exact
    /// edit. The body holds at least one valid piece, so every case has a stretch.
    fn body_and_stretch() -> impl Strategy<Value = (Vec<u8>, usize, usize)> {
        (
            prop::collection::vec(piece(), 0..40),
            prop::sample::select(VALID_PIECES),
            any::<prop::sample::Index>(),
            any::<prop::sample::Index>(),
            1usize..=10,
        )
            .prop_map(|(mut pieces, valid, at, first, len)| {
                pieces.insert(at.index(pieces.len() + 1), valid.as_bytes());
                let body = pieces.concat();
                // (valid run, start, end) of every valid char: a stretch stays in one run.
                let mut chars = Vec::new();
                let mut off = 0;
                for (run, chunk) in body.utf8_chunks().enumerate() {
                    for (i, c) in chunk.valid().char_indices() {
                        chars.push((run, off + i, off + i + c.len_utf8()));
                    }
                    off += chunk.valid().len() + chunk.invalid().len();
                }
                let i = first.index(chars.len());
                let (run, start, mut end) = chars[i];
                for &(r, _, e) in chars[i..].iter().take(len) {
                    if r != run {
                        break;
                    }
                    end = e;
                }
                (body, start, end)
            })
    }

    /// Text pieces for `old` and `new`; the last, U+FFFD, is left out of fuzzy `new`s.
    const TEXT_PIECES: &[&str] = &[
        "a", "b", "foo", " ", "    ", "\t", "\n", "\r\n", "'", "\u{2018}", "\u{A0}", "-", "...",
        "\u{FFFD}",
    ];

    fn text_strategy() -> impl Strategy<Value = String> {
        prop::collection::vec(prop::sample::select(TEXT_PIECES), 0..12).prop_map(|v| v.concat())
    }

    /// A `new` a fuzzy match can write: no U+FFFD, which is refused unless `old` is exact.
    fn fuzzy_new_strategy() -> impl Strategy<Value = String> {
        let pieces = &TEXT_PIECES[..TEXT_PIECES.len() - 1];
        prop::collection::vec(prop::sample::select(pieces), 0..12).prop_map(|v| v.concat())
    }

    /// One line as a file has it: indentation, words and look-alikes, trailing whitespace,
    /// LF or CRLF.
    fn region_line() -> impl Strategy<Value = String> {
        let token = prop_oneof![
            3 => "[a-z]{1,6}",
            2 => prop::sample::select(
                &[
                    "'", "\"", "\u{2019}", "\u{201C}", "-", "\u{2014}", "...", "\u{2026}",
                    "\u{A0}", "(x)",
                ][..]
            )
            .prop_map(String::from),
        ];
        (
            prop::sample::select(&["", "\t", "\t\t", "  ", "    ", "\u{A0}"][..]),
            prop::collection::vec(token, 1..5),
            prop::sample::select(&["", "", " ", "\t", "  "][..]),
            prop::sample::select(&["\n", "\n", "\r\n"][..]),
        )
            .prop_map(|(indent, words, trailing, end)| {
                format!("{indent}{}{trailing}{end}", words.join(" "))
            })
    }

    /// Another way to write indentation `i`, for a line of old that must differ from the file.
    fn other_indent(i: &str) -> String {
        match i {
            "" => " ".into(),
            i if i.contains('\t') => i.replace('\t', "    "),
            _ => "\t".into(),
        }
    }

    /// `region` as someone might misquote it: `front` / `back` chars cut off (and the
    /// whitespace the cut leaves at either end), the indentation of the second line (or of
    /// the first, when it is whole and alone) written another way, and `flags` picking more
    /// differences: 1 tabs to spaces and 64 four spaces to a tab in indentation, 16 no
    /// trailing whitespace, 32 LF for CRLF, 2 straight for curly quotes, 128 curly for
    /// straight, 4 ASCII for dashes and ellipses, 8 spaces for no-break spaces.
    fn misquote(region: &str, flags: u8, front: usize, back: usize) -> String {
        let chars: Vec<char> = region.chars().collect();
        let back = back.min(chars.len());
        let front = front.min(chars.len() - back);
        let mut cut: String = chars[front..chars.len() - back].iter().collect();
        let ws = [' ', '\t', '\u{A0}'];
        if back > 0 {
            cut.truncate(cut.trim_end_matches(ws).len());
        }
        if front > 0 {
            cut = cut.trim_start_matches(ws).to_string();
        }
        let lines: Vec<&str> = cut.split_inclusive('\n').collect();
        let forced = if lines.len() > 1 {
            1
        } else if front == 0 {
            0
        } else {
            usize::MAX
        };
        let mut out = String::new();
        for (j, line) in lines.iter().enumerate() {
            let (raw, end) = match line.strip_suffix("\r\n") {
                Some(r) => (r, if flags & 32 != 0 { "\n" } else { "\r\n" }),
                None => line.strip_suffix('\n').map_or((*line, ""), |r| (r, "\n")),
            };
            let raw = if flags & 16 != 0 {
                raw.trim_end_matches([' ', '\t'])
            } else {
                raw
            };
            let content = raw.trim_start_matches(ws);
            let indent = &raw[..raw.len() - content.len()];
            if j == forced {
                out.push_str(&other_indent(indent));
            } else if flags & 1 != 0 {
                out.push_str(&indent.replace('\t', "    ").replace('\u{A0}', " "));
            } else if flags & 64 != 0 {
                out.push_str(&indent.replace("    ", "\t"));
            } else {
                out.push_str(indent);
            }
            for c in content.chars() {
                match c {
                    '\u{2019}' if flags & 2 != 0 => out.push('\''),
                    '\u{201C}' if flags & 2 != 0 => out.push('"'),
                    '\'' if flags & 128 != 0 => out.push('\u{2018}'),
                    '\u{2014}' if flags & 4 != 0 => out.push('-'),
                    '\u{2026}' if flags & 4 != 0 => out.push_str("..."),
                    '\u{A0}' if flags & 8 != 0 => out.push(' '),
                    c => out.push(c),
                }
            }
            out.push_str(end);
        }
        out
    }

    /// A body with whole lines in the middle and an `old` misquoting some of them, so that
    /// most cases are a whitespace / look-alike match that `--fuzzy` applies. A region whose
    /// last line has no line ending ends the file.
    fn body_and_misquote() -> impl Strategy<Value = (Vec<u8>, String)> {
        (
            body_strategy(),
            prop::collection::vec(region_line(), 1..4),
            any::<bool>(),
            body_strategy(),
            any::<u8>(),
            // A cut front makes a fragment, which can differ in look-alikes only: keep it rarer.
            prop_oneof![3 => Just(0usize), 1 => 1usize..3],
            0usize..3,
        )
            .prop_map(|(head, lines, last_ended, tail, flags, front, back)| {
                let mut region = lines.concat();
                let mut body = head;
                if !body.is_empty() && body.last() != Some(&b'\n') {
                    body.push(b'\n');
                }
                if last_ended {
                    body.extend_from_slice(region.as_bytes());
                    body.extend_from_slice(&tail);
                } else {
                    region.truncate(region.trim_end_matches(['\r', '\n']).len());
                    body.extend_from_slice(region.as_bytes());
                }
                (body, misquote(&region, flags, front, back))
            })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(
            std::env::var("PROPTEST_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(512),
        ))]

        #[test]
        fn roundtrip_and_bytes_outside_span_unchanged(
            (body, start, end) in body_and_stretch(),
            new in "[a-z\n ]{1,8}",
        ) {
            let old = std::str::from_utf8(&body[start..end]).expect("a valid stretch");
            let r = plan(&body, &[ed(old, &new)], &exact_opts());
            if old == new {
                prop_assert!(matches!(r, Err(PlanError::InvalidArgument { .. })), "{:?}", r);
                return Ok(());
            }
            let p = match r {
                Ok(p) => p,
                Err(PlanError::Ambiguous { count, lines, fuzzy, .. }) => {
                    // Not unique: the count is every occurrence, overlapping ones included,
                    // and the lines are where the first twenty start.
                    let starts: Vec<usize> = (0..=body.len() - old.len())
                        .filter(|&i| body[i..].starts_with(old.as_bytes()))
                        .collect();
                    prop_assert!(starts.len() >= 2 && starts.contains(&start));
                    prop_assert_eq!(count, starts.len());
                    prop_assert!(!fuzzy);
                    let want: Vec<usize> = starts
                        .iter()
                        .take(AMBIGUOUS_MAX_LINES)
                        .map(|&i| 1 + body[..i].iter().filter(|&&b| b == b'\n').count())
                        .collect();
                    prop_assert_eq!(lines, want);
                    return Ok(());
                }
                Err(e) => return Err(TestCaseError::fail(format!("{e:?}"))),
            };
            prop_assert_eq!(p.replacements, 1);
            // A one-line old in a CRLF line inserts new's line breaks as CRLF.
            let inserted = match to_crlf(new.as_bytes()) {
                Some(crlf) if !old.contains('\n') && line_ends_in_crlf(&body, end) => crlf,
                _ => new.as_bytes().to_vec(),
            };
            // The only occurrence must be the one we picked; everything else is untouched.
            prop_assert_eq!(&p.new_body[..start], &body[..start]);
            prop_assert_eq!(&p.new_body[start..start + inserted.len()], &inserted[..]);
            prop_assert_eq!(&p.new_body[start + inserted.len()..], &body[end..]);
            // Inverse edit restores the body when new is unique in the result (and was inserted
            // as given: after a CRLF conversion, `new` may match elsewhere instead).
            // The same holds for the inverse: a one-line `new` put back as a multi-line `old`
            // takes the line's CRLF.
            if inserted != new.as_bytes() || (old.contains('\n') && !new.contains('\n')) {
                return Ok(());
            }
            if let Ok(back) = plan(&p.new_body, &[ed(&new, old)], &exact_opts()) {
                prop_assert_eq!(&back.new_body, &body, "old {:?} new {:?}", old, new);
            }
        }

        #[test]
        fn never_panics_on_bytes(
            body in prop::collection::vec(any::<u8>(), 0..200),
            old in ".{0,12}",
            new in ".{0,12}",
            flags in 0u8..16,
        ) {
            let opts = PlanOptions {
                fuzzy: flags & 1 == 1,
                expect_count: if flags & 2 == 2 { Some(usize::from(flags >> 2)) } else { None },
            };
            let e = Edit { old, new, replace_all: flags & 4 == 4 };
            let _ = plan(&body, &[e.clone(), e], &opts);
        }

        #[test]
        fn never_panics_on_lookalike_soup(
            body in body_strategy(),
            old in text_strategy(),
            new in text_strategy(),
            flags in 0u8..16,
        ) {
            let opts = PlanOptions {
                fuzzy: flags & 1 == 1,
                expect_count: if flags & 2 == 2 { Some(usize::from(flags >> 2)) } else { None },
            };
            let e = Edit { old, new, replace_all: flags & 4 == 4 };
            if let Ok(p) = plan(&body, &[e], &opts) {
                for s in &p.spans {
                    prop_assert!(s.start_line >= 1 && s.start_line <= s.end_line);
                }
            }
        }

        #[test]
        fn fuzzy_changes_only_the_reported_lines(
            (body, old) in body_and_misquote(),
            new in fuzzy_new_strategy(),
        ) {
            if let Ok(p) = plan(&body, &[ed(&old, &new)], &fuzzy_opts())
                && p.matched_fuzzily
            {
                let span = p.spans[0];
                // Bytes before the span's first line and after its last line (with that
                // line's newline) are unchanged.
                let line_starts: Vec<usize> = std::iter::once(0)
                    .chain(body.iter().enumerate().filter(|b| *b.1 == b'\n').map(|(i, _)| i + 1))
                    .collect();
                let head = line_starts[span.start_line - 1];
                let tail = line_starts.get(span.end_line).copied().unwrap_or(body.len());
                prop_assert!(p.new_body.len() >= head + (body.len() - tail));
                prop_assert_eq!(&p.new_body[..head], &body[..head]);
                prop_assert_eq!(&p.new_body[p.new_body.len() - (body.len() - tail)..], &body[tail..]);
            }
        }
    }
}
