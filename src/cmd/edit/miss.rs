//! What a miss is reported as (docs/commands/edit.md): the reason `old` was not found and the bounded
//! `window` of the file's real lines (at most 16 lines and 2 KiB: the caps are here). It is the vocabulary `plan` and `repair`
//! share, so that `plan` can depend on `repair` without `repair` depending on `plan`. It must
//! hold data only: no matching, no I/O, and it depends on no other part of `edit`.

/// The reason, the window and the fix (which the hint is worded from) are reported in the
/// error as they are: one type each, defined with the error they travel in.
pub use crate::error::{MissFix, MissReason, MissWindow};

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
