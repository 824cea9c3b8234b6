//! The colors of text output, defined once as `anstyle` styles (the crate clap and the other
//! ecosystem tools use) and rendered to their ANSI codes once per process, so printers write
//! plain strings — or empty ones when color is off — without a branch per line. Whether
//! color is on is decided once, in `app`. Paths listed by glob are colored as `ls` colors
//! them, from `LS_COLORS` (`PathColors`).

use std::io::{self, Write};
use std::path::Path;
use std::sync::LazyLock;

use anstyle::{Ansi256Color, AnsiColor, Color, Effects, Reset, RgbColor, Style};
use lscolors::{Indicator, LsColors};

/// The ANSI codes of each style, empty strings when color is off.
#[derive(Debug, Clone)]
pub(crate) struct Palette {
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
    pub(crate) fn new(color: bool) -> Palette {
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

/// The colors of a listing of paths, as `ls` and fd show them: `LS_COLORS` (directories,
/// links, executables, extensions…), else the built-in defaults of `dircolors` (lscolors'
/// own: directories bold blue, symbolic links bold cyan, executables bold green, …).
pub(crate) struct PathColors {
    ls: LsColors,
    /// The style of the directory part of every path.
    dir: Style,
}

impl PathColors {
    pub(crate) fn from_env() -> PathColors {
        let ls = LsColors::from_env().unwrap_or_default();
        let dir = ls
            .style_for_indicator(Indicator::Directory)
            .map(to_anstyle)
            .unwrap_or_default();
        PathColors { ls, dir }
    }

    /// Write `shown` (how `path` is printed) as fd does: its directory part in the style of
    /// directories, its file name in the style of the file `path` is (stat'ed, not followed).
    pub(crate) fn paint(&self, w: &mut dyn Write, shown: &[u8], path: &Path) -> io::Result<()> {
        let cut = shown
            .iter()
            .rposition(|&b| crate::sys::is_separator_byte(b))
            .map_or(0, |i| i + 1);
        let (dir, name) = shown.split_at(cut);
        if !dir.is_empty() {
            styled(w, self.dir, dir)?;
        }
        let meta = std::fs::symlink_metadata(path).ok();
        let style = self
            .ls
            .style_for_path_with_metadata(path, meta.as_ref())
            .map(to_anstyle)
            .unwrap_or_default();
        styled(w, style, name)
    }
}

fn styled(w: &mut dyn Write, style: Style, text: &[u8]) -> io::Result<()> {
    if style == Style::new() {
        return w.write_all(text);
    }
    write!(w, "{}", style.render())?;
    w.write_all(text)?;
    write!(w, "{}", style.render_reset())
}

/// An `LS_COLORS` style as an anstyle one.
fn to_anstyle(s: &lscolors::Style) -> Style {
    let f = s.font_style;
    let mut effects = Effects::new();
    for (on, e) in [
        (f.bold, Effects::BOLD),
        (f.dimmed, Effects::DIMMED),
        (f.italic, Effects::ITALIC),
        (f.underline, Effects::UNDERLINE),
        (f.slow_blink || f.rapid_blink, Effects::BLINK),
        (f.reverse, Effects::INVERT),
        (f.hidden, Effects::HIDDEN),
        (f.strikethrough, Effects::STRIKETHROUGH),
    ] {
        if on {
            effects |= e;
        }
    }
    Style::new()
        .fg_color(s.foreground.map(color))
        .bg_color(s.background.map(color))
        .underline_color(s.underline.map(color))
        .effects(effects)
}

fn color(c: lscolors::Color) -> Color {
    use lscolors::Color as L;
    let ansi = |a: AnsiColor| Color::Ansi(a);
    match c {
        L::Black => ansi(AnsiColor::Black),
        L::Red => ansi(AnsiColor::Red),
        L::Green => ansi(AnsiColor::Green),
        L::Yellow => ansi(AnsiColor::Yellow),
        L::Blue => ansi(AnsiColor::Blue),
        L::Magenta => ansi(AnsiColor::Magenta),
        L::Cyan => ansi(AnsiColor::Cyan),
        L::White => ansi(AnsiColor::White),
        L::BrightBlack => ansi(AnsiColor::BrightBlack),
        L::BrightRed => ansi(AnsiColor::BrightRed),
        L::BrightGreen => ansi(AnsiColor::BrightGreen),
        L::BrightYellow => ansi(AnsiColor::BrightYellow),
        L::BrightBlue => ansi(AnsiColor::BrightBlue),
        L::BrightMagenta => ansi(AnsiColor::BrightMagenta),
        L::BrightCyan => ansi(AnsiColor::BrightCyan),
        L::BrightWhite => ansi(AnsiColor::BrightWhite),
        L::Fixed(n) => Color::Ansi256(Ansi256Color(n)),
        L::RGB(r, g, b) => Color::Rgb(RgbColor(r, g, b)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ls_colors_become_sgr_codes() {
        let ls = LsColors::from_string("di=01;34:*.rs=38;5;208:ln=4");
        let rs = ls.style_for_str("main.rs").map(to_anstyle).unwrap();
        assert_eq!(rs.render().to_string(), "\x1b[38;5;208m");
        let di = ls.style_for_indicator(Indicator::Directory).map(to_anstyle);
        assert_eq!(di.unwrap().render().to_string(), "\x1b[1m\x1b[34m");
    }

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
