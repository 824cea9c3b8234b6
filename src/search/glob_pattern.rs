//! A glob pattern compiled the way quill matches it (`quill glob`, and the second look of an
//! empty search in `why`): `/` is never matched by `*`, `\\` escapes, an optional leading
//! `./` is dropped, and a pattern that does not compile is `invalid_pattern` with the syntax
//! in its hint.

use globset::{GlobBuilder, GlobSet, GlobSetBuilder};

use crate::error::{Error, Result};

/// Compile PATTERN with globset: `*` and `?` stay within one path component, `**` crosses.
pub(crate) fn compile(pattern: &str, ignore_case: bool) -> Result<GlobSet> {
    let pattern = pattern.strip_prefix("./").unwrap_or(pattern);
    let glob = GlobBuilder::new(pattern)
        .literal_separator(true)
        .case_insensitive(ignore_case)
        .backslash_escape(true)
        .build()
        .map_err(|e| Error::InvalidPattern {
            message: e.kind().to_string(),
            position: None,
            fix: Some(GLOB_SYNTAX.into()),
        })?;
    GlobSetBuilder::new()
        .add(glob)
        .build()
        .map_err(|e| Error::InvalidPattern {
            message: e.to_string(),
            position: None,
            fix: Some(GLOB_SYNTAX.into()),
        })
}

/// The hint of a glob that does not compile.
pub(crate) const GLOB_SYNTAX: &str = "glob syntax: `*` and `?` within a directory, `**` across, `{a,b}`, `[abc]`; `\\` escapes a special character";
