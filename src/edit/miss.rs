//! What a miss is reported as (docs/commands/edit.md): the reason `old` was not found and the bounded
//! `window` of the file's real lines (at most 16 lines and 2 KiB: the caps are here). It is the vocabulary `plan` and `repair`
//! share, so that `plan` can depend on `repair` without `repair` depending on `plan`. It must
//! hold data only: no matching, no I/O, and it depends on no other part of `edit`. The reason,
//! the window and the fix (which the hint is worded from) travel in `error`'s `no_match` as
//! they are, so these types are defined here and `error` imports them.

use schemars::JsonSchema;
use serde::Serialize;

/// The one next call that fixes a miss, as far as the planner can tell: the hint is worded
/// from it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MissFix {
    /// `--fuzzy` applies the edit to its one whitespace / look-alike match.
    Fuzzy,
    /// `--fuzzy` applies it once the line numbers copied from a read are left out.
    FuzzyUnnumbered,
    /// `--fuzzy` applies it once its escapes are read as the characters they stand for.
    FuzzyUnescaped,
    /// old (and new) carry read's line numbers on some lines only: leave them out.
    Unnumber,
    /// Several places match once whitespace is ignored: old needs more lines.
    Unique,
    /// A passage differs in content: quote it as the file has it.
    Quote,
    /// Nothing alike: read the file and quote from it.
    Read,
    /// old is in the file, but an earlier edit of the batch changes it first.
    InOrder,
}

/// How close the best candidate came: `whitespace`, `similar` or `none`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum MissReason {
    /// `old` matches once whitespace, line endings and look-alike characters are ignored.
    Whitespace,
    /// A passage is close but differs in content.
    Similar,
    /// Nothing resembles `old`.
    None,
}

impl MissReason {
    pub fn as_str(self) -> &'static str {
        match self {
            MissReason::Whitespace => "whitespace",
            MissReason::Similar => "similar",
            MissReason::None => "none",
        }
    }
}

/// The candidate passage of an edit miss: the file's real lines `start_line..=end_line`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct MissWindow {
    /// Its first line (1-based).
    pub start_line: usize,
    /// Its last line.
    pub end_line: usize,
    /// The lines as the file has them (line terminators included).
    pub text: String,
}

/// A window holds at most this many whole lines…
pub(crate) const WINDOW_MAX_LINES: usize = 16;
/// …and at most this many bytes of text.
pub(crate) const WINDOW_MAX_BYTES: usize = 2048;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reasons_as_reported() {
        // These strings are the `reason` field of the JSON error: they must not change.
        assert_eq!(MissReason::Whitespace.as_str(), "whitespace");
        assert_eq!(MissReason::Similar.as_str(), "similar");
        assert_eq!(MissReason::None.as_str(), "none");
    }

    #[test]
    fn window_caps() {
        assert_eq!(WINDOW_MAX_LINES, 16);
        assert_eq!(WINDOW_MAX_BYTES, 2 * 1024);
    }
}
