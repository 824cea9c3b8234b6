//! What quill found around a path that does not exist: the data `missing::explain` fills in
//! and a `not_found` error carries (`nearby`, `existingAncestor`, `suggestion`). Data only, so
//! the error type can hold it without depending on the look-around itself.

use std::path::PathBuf;

use schemars::JsonSchema;
use serde::Serialize;

/// What quill found around a path that does not exist (the fields of a `not_found` error
/// beyond `path` and `similar`).
#[derive(Debug, Default, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Near {
    /// The deepest ancestor of `path` that exists, when its parent does not.
    #[serde(flatten, serialize_with = "crate::text::names::existing_ancestor")]
    #[schemars(schema_with = "crate::text::names::opt::existing_ancestor")]
    pub(crate) existing_ancestor: Option<PathBuf>,
    /// Files (or directories) of the same name one or two directories away, nearest first,
    /// at most 3 (absolute).
    #[serde(flatten, serialize_with = "crate::text::names::nearby")]
    #[schemars(schema_with = "crate::text::names::list::nearby")]
    pub(crate) nearby: Vec<PathBuf>,
    /// The path that was most likely meant, why, and the call that uses it.
    pub(crate) suggestion: Option<Suggestion>,
    /// The one-line hint made of the above.
    #[serde(skip)]
    pub(crate) hint: Option<String>,
}

/// A path that exists in place of one that does not.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Suggestion {
    /// The existing path meant in place of the error's `path` (absolute).
    #[serde(flatten, serialize_with = "crate::text::names::path")]
    #[schemars(schema_with = "crate::text::names::one::path")]
    pub(crate) path: PathBuf,
    /// `tilde` (an unexpanded `~`), `case` (only letter case differs), `nearby` (the same name
    /// one or two directories away) or `similar` (a name in the same directory that looks alike).
    #[schemars(extend("enum" = ["tilde", "case", "nearby", "similar"]))]
    pub(crate) reason: &'static str,
    /// The call made again with that path; null when it cannot be written out (too long).
    pub(crate) call: Option<String>,
}
