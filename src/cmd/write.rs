//! `quill write`: not implemented yet (see the issue tracker).

use crate::app::Context;
use crate::error::Result;
use crate::output::Report;

pub fn run(_ctx: &Context, _args: &crate::cli::WriteArgs) -> Result<Report> {
    Err(super::not_implemented("write"))
}
