//! Miss diagnosis and fuzzy matching for `quill edit` (docs/commands/edit.md): when `old` is not in the
//! file byte for byte, `repair` finds where it was probably meant to go. This file is its
//! interface to `plan` — the verdict ([`Diagnosis`]), the [`FuzzyMatch`] `--fuzzy` may apply,
//! [`diagnose`] and [`render_replacement`] — and the map of its parts: `normalize` (the line
//! folding, with `nfd` its table of decomposed letters), `lines` (the lines of `old` and of
//! the file), `diagnose` (the scan and the verdicts), `describe` (the one-sentence
//! `difference`), `window` (the bounded excerpt), `align` (the replacement: new aligned
//! against old, the file's bytes wherever new repeats old) and `reindent` (the indentation of
//! the lines the caller changed). Together they work in one streaming pass over the file's
//! lines plus bounded verification of candidates, so a miss in a large file stays cheap. No
//! part may do I/O, print, or panic on any input, or change bytes outside the span it reports;
//! none imports `plan` (what both need is in `miss`).

mod align;
mod content;
mod describe;
mod diagnose;
mod lines;
mod nfd;
mod normalize;
mod reindent;
mod rewrite;
mod window;

pub(crate) use align::render_replacement;
pub(crate) use diagnose::diagnose;
pub(crate) use rewrite::Rewrite;
pub(crate) use window::window_at;

use crate::edit::miss::MissWindow;

/// A place where `old` matches once whitespace and look-alikes are ignored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct FuzzyMatch {
    /// Byte range of the text to replace.
    pub start: usize,
    pub end: usize,
    /// 0-based index of the line holding `start`.
    pub first_line: usize,
    /// Byte offset where that line starts.
    pub line_start: usize,
    /// The match begins at the start of its line (indentation included), so the first line
    /// of `new` is re-indented too.
    pub at_line_start: bool,
    /// old ends with a newline where the file ends without one; `new` loses its final
    /// newline so the file keeps that shape.
    pub missing_final_newline: bool,
}

pub(crate) enum Diagnosis {
    Whitespace {
        matches: Vec<FuzzyMatch>,
        window: Option<MissWindow>,
        difference: String,
    },
    Similar {
        window: Option<MissWindow>,
        difference: String,
    },
    /// `old` matches once its line numbers are taken out or its escapes read (`rewrite`):
    /// `old` is the rewritten text, which `matches` found.
    Rewritten {
        rewrite: Rewrite,
        old: String,
        matches: Vec<FuzzyMatch>,
        window: Option<MissWindow>,
        difference: String,
    },
    /// Nothing resembles `old`; the window is the best effort (the line sharing most words
    /// with old, else the file's first lines).
    Nothing {
        window: Option<MissWindow>,
        difference: String,
    },
}

/// Lines longer than this are never fuzzy candidates.
const MAX_FUZZY_LINE: usize = 256 * 1024;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_verdict_per_kind_of_miss() {
        let text = b"fn main() {\n\tlet x = 1;\n}\n";
        assert!(matches!(
            diagnose(text, "    let x = 1;"),
            Diagnosis::Whitespace { ref matches, window: Some(_), .. } if matches.len() == 1
        ));
        assert!(matches!(
            diagnose(text, "let x = 2;"),
            Diagnosis::Similar {
                window: Some(_),
                ..
            }
        ));
        assert!(matches!(
            diagnose(text, "nothing like it"),
            Diagnosis::Nothing { .. }
        ));
    }

    #[test]
    fn a_rendered_match_touches_only_its_span() {
        // Invalid bytes and odd whitespace around the match stay as they are.
        let text = b"\xff\xfe head \t\n\tif x {\n\t\ty();\n\t}\n\x80tail\xc3";
        let old = "    if x {\n        y();\n    }\n";
        let Diagnosis::Whitespace { matches, .. } = diagnose(text, old) else {
            panic!("expected a whitespace match");
        };
        let m = &matches[0];
        assert_eq!((m.start, m.end), (10, 28));
        let replacement = render_replacement(text, m, old, "    z();\n");
        let mut out = text[..m.start].to_vec();
        out.extend(&replacement);
        out.extend(&text[m.end..]);
        assert_eq!(out, b"\xff\xfe head \t\n\tz();\n\x80tail\xc3");
    }
}
