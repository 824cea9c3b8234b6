//! The colors of text output: plain ANSI SGR codes, or empty strings when color is off, so
//! printers write them unconditionally. Whether color is on is decided once, in `app`.

/// ANSI styles, empty strings when color is off.
#[derive(Debug, Clone)]
pub struct Palette {
    pub red: &'static str,
    pub green: &'static str,
    pub cyan: &'static str,
    pub magenta: &'static str,
    pub bold: &'static str,
    pub dim: &'static str,
    pub match_: &'static str,
    pub reset: &'static str,
}

impl Palette {
    pub fn new(color: bool) -> Palette {
        if color {
            Palette {
                red: "\x1b[31m",
                green: "\x1b[32m",
                cyan: "\x1b[36m",
                magenta: "\x1b[35m",
                bold: "\x1b[1m",
                dim: "\x1b[2m",
                match_: "\x1b[1;31m",
                reset: "\x1b[0m",
            }
        } else {
            Palette {
                red: "",
                green: "",
                cyan: "",
                magenta: "",
                bold: "",
                dim: "",
                match_: "",
                reset: "",
            }
        }
    }
}
