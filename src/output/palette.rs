//! The colors of text output, defined once as `anstyle` styles (the crate clap and the other
//! ecosystem tools use) and rendered to their ANSI codes once per process, so printers write
//! plain strings — or empty ones when color is off — without a branch per line. Whether
//! color is on is decided once, in `app`.

use std::sync::LazyLock;

use anstyle::{AnsiColor, Reset, Style};

/// The ANSI codes of each style, empty strings when color is off.
#[derive(Debug, Clone)]
pub struct Palette {
    /// Removed lines of a diff; errors.
    pub red: &'static str,
    /// Added lines; line numbers of grep.
    pub green: &'static str,
    /// Hunk headers.
    pub cyan: &'static str,
    /// Paths of grep.
    pub magenta: &'static str,
    pub bold: &'static str,
    /// Line numbers of read, notes, hints.
    pub dim: &'static str,
    /// A match inside a line.
    pub match_: &'static str,
    pub reset: &'static str,
}

const RED: Style = AnsiColor::Red.on_default();
const GREEN: Style = AnsiColor::Green.on_default();
const CYAN: Style = AnsiColor::Cyan.on_default();
const MAGENTA: Style = AnsiColor::Magenta.on_default();
const BOLD: Style = Style::new().bold();
const DIM: Style = Style::new().dimmed();
const MATCH: Style = AnsiColor::Red.on_default().bold();

static COLORED: LazyLock<Palette> = LazyLock::new(|| Palette {
    red: code(RED),
    green: code(GREEN),
    cyan: code(CYAN),
    magenta: code(MAGENTA),
    bold: code(BOLD),
    dim: code(DIM),
    match_: code(MATCH),
    reset: Box::leak(Reset.render().to_string().into_boxed_str()),
});

/// A style's codes, rendered once for the life of the process.
fn code(style: Style) -> &'static str {
    Box::leak(style.render().to_string().into_boxed_str())
}

impl Palette {
    pub fn new(color: bool) -> Palette {
        if color {
            COLORED.clone()
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_ansi_sgr_and_empty_without_color() {
        let p = Palette::new(true);
        assert_eq!(p.red, "\x1b[31m");
        assert_eq!(p.match_, "\x1b[1m\x1b[31m");
        assert_eq!(p.reset, "\x1b[0m");
        let plain = Palette::new(false);
        assert!(plain.red.is_empty() && plain.reset.is_empty());
    }
}
