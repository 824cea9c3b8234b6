//! `quill grep`: not implemented yet (see the issue tracker).

use crate::app::Context;
use crate::error::Result;
use crate::output::Report;

pub fn run(_ctx: &Context, _args: &crate::cli::GrepArgs) -> Result<Report> {
    Err(super::not_implemented("grep"))
}

#[derive(Debug, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct GrepReport {
    pub total: usize,
}
