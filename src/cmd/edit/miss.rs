//! What a miss is reported as (SPEC §3.3): the reason `old` was not found and the bounded
//! `window` of the file's real lines, with its caps. It is the vocabulary `plan` and `repair`
//! share, so that `plan` can depend on `repair` without `repair` depending on `plan`. It must
//! hold data only: no matching, no I/O, and it depends on no other part of `edit`.

/// Why `old` was not found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
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

/// A bounded excerpt of the file's real lines (lossy-decoded, line endings kept): at most
/// [`WINDOW_MAX_LINES`] whole lines and [`WINDOW_MAX_BYTES`] bytes of text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Window {
    pub start_line: usize,
    pub end_line: usize,
    pub text: String,
}

pub(crate) const WINDOW_MAX_LINES: usize = 16;
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
