//! The edit engine, pure (no I/O): `plan` applies `old`/`new` edits to a file's text, `lines`
//! addresses lines by number, `repair` diagnoses and repairs a miss (normalization, NFD,
//! re-indentation, the nearest window), `miss` is the vocabulary a miss is reported in, and
//! `patch` parses and applies unified and Codex patches. `cmd::edit` and `cmd::apply` are the
//! runners around it.

pub(crate) mod lines;
pub(crate) mod miss;
pub(crate) mod outside;
pub mod patch;
pub mod plan;
pub(crate) mod repair;
