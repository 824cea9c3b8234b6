//! `PatchProblem`: one problem of a rejected patch (`patch_rejected`), an error of one file
//! or hunk told with the kind, message, hint and miss diagnosis it would have alone.

use std::path::{Path, PathBuf};

use schemars::JsonSchema;
use serde::Serialize;

use super::Error;
use crate::edit::miss::{MissReason, MissWindow};
use crate::text::names;

/// One problem of a rejected patch (`patch_rejected`): the file (and hunk) it is in, the
/// kind of error it would be alone, and what to do about it.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct PatchProblem {
    /// The file (resolved; for a hunk, the file the hunk applies to).
    #[serde(flatten, serialize_with = "names::path")]
    #[schemars(schema_with = "crate::text::names::one::path")]
    pub path: PathBuf,
    /// The error kind the problem would have alone (`not_read`, `stale`, `not_found`,
    /// `create_conflict`, `edit_no_match`, `edit_ambiguous`, `already_applied`,
    /// `binary_file`, `invalid_argument`, …; see docs/errors.md).
    pub kind: &'static str,
    pub message: String,
    /// What to do about it; null where the message says it all.
    pub hint: Option<String>,
    /// The 1-based line of the patch where the file's section (or the hunk) starts.
    pub line: usize,
    /// The hunk (0-based, within its file's section), when the problem is a hunk's.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hunk_index: Option<usize>,
    /// `edit_no_match`: how close the best candidate came.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<MissReason>,
    /// `edit_no_match`: the file's real lines around the best candidate (at most 16 lines, 2 KiB).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub window: Option<MissWindow>,
    /// `edit_no_match`: the first difference, in one sentence.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub difference: Option<String>,
    /// `edit_ambiguous`: how many places the hunk matches.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub count: Option<usize>,
    /// `edit_ambiguous`: their 1-based first lines (at most 20).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lines: Option<Vec<usize>>,
    /// `stale`: what changed since the version the session knows, when quill kept it (as a
    /// `stale` error's `change`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub change: Option<Box<crate::edit::outside::OutsideChange>>,
}

impl PatchProblem {
    /// The problem an error of the file `path` is, at patch line `line`.
    pub(crate) fn of(path: &Path, line: usize, e: &Error) -> PatchProblem {
        let mut p = PatchProblem {
            path: path.to_path_buf(),
            kind: e.kind(),
            message: e.to_string(),
            hint: e.hint(),
            line,
            hunk_index: None,
            reason: None,
            window: None,
            difference: None,
            count: None,
            lines: None,
            change: None,
        };
        if let Error::Stale { change, .. } = e {
            p.change = change.clone();
        }
        if let Error::EditNoMatch {
            reason,
            window,
            difference,
            ..
        } = e
        {
            p.reason = Some(*reason);
            p.window = window.clone();
            p.difference = Some(difference.clone());
        }
        if let Error::EditAmbiguous { count, lines, .. } = e {
            p.count = Some(*count);
            p.lines = Some(lines.clone());
        }
        p
    }

    /// The same problem in apply's own words.
    pub(crate) fn reworded(mut self, message: String, hint: &str) -> PatchProblem {
        self.message = message;
        self.hint = Some(hint.to_string());
        self
    }

    /// A problem no single error kind's fields describe: its kind named here.
    pub(crate) fn reworded_as(
        mut self,
        kind: &'static str,
        message: String,
        hint: &str,
    ) -> PatchProblem {
        self.kind = kind;
        self.reworded(message, hint)
    }
}
