//! Text rendering of `glob` and `grep` results, shaped like fd's and ripgrep's output.

use std::io::{self, Write};

use crate::app::Context;
use crate::cmd::glob::GlobReport;
use crate::cmd::grep::GrepReport;
use crate::output::text::Palette;

pub fn render_glob(
    _w: &mut dyn Write,
    _ctx: &Context,
    _r: &GlobReport,
    _p: &Palette,
) -> io::Result<()> {
    Ok(())
}

pub fn render_grep(
    _w: &mut dyn Write,
    _ctx: &Context,
    _r: &GrepReport,
    _p: &Palette,
) -> io::Result<()> {
    Ok(())
}
