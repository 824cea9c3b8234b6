//! The text a `--fuzzy` match writes in place of the matched span: `new` re-indented from
//! `old`'s indentation to the file's (the file's own indentation where `old` uses the same,
//! else shifted by the difference in levels between the two styles, tabs or spaces of some
//! width), with the region's majority line ending, and without its final newline where the
//! file has none. It only builds the replacement bytes; where they go is the caller's.

use super::FuzzyMatch;
use super::lines::{file_lines, indent_len, lossy, old_lines};

/// The bytes that replace `text[m.start..m.end]`: `new` re-indented from old's indentation
/// to the file's, with the file's line ending in that region.
pub(crate) fn render_replacement(text: &[u8], m: &FuzzyMatch, old: &str, new: &str) -> Vec<u8> {
    let olds = old_lines(old);
    let k = olds.len() - usize::from(m.missing_final_newline);
    let new = if m.missing_final_newline {
        new.strip_suffix('\n')
            .map(|n| n.strip_suffix('\r').unwrap_or(n))
            .unwrap_or(new)
    } else {
        new
    };
    let Some(fl) = file_lines(text, m.line_start, k) else {
        return new.as_bytes().to_vec();
    };
    let (crs, lfs) =
        fl.iter().filter(|f| f.terminated).fold(
            (0, 0),
            |(c, l), f| if f.cr { (c + 1, l) } else { (c, l + 1) },
        );
    let crlf = match (crs, lfs) {
        (0, 0) => None,
        (c, l) if c != l => Some(c > l),
        _ => fl.iter().find(|f| f.terminated).map(|f| f.cr),
    };

    let mut map: Vec<(&str, String)> = Vec::new();
    for (j, (o, f)) in olds.iter().zip(&fl).enumerate() {
        if (j > 0 || m.at_line_start) && !o.content.is_empty() {
            let b = f.raw(text);
            let fi = lossy(&b[..indent_len(b)]);
            if !map.iter().any(|(oi, _)| *oi == o.indent) {
                map.push((o.indent, fi));
            }
        }
    }
    let news: Vec<&str> = new.split('\n').collect();
    let old_style = Style::of(
        olds.iter()
            .filter(|o| !o.content.is_empty())
            .map(|o| o.indent)
            .chain(
                news.iter()
                    .map(|l| leading(l.strip_suffix('\r').unwrap_or(l))),
            ),
    );
    let file_style = file_style(&map, &old_style);

    let mut out = String::with_capacity(new.len() + 16);
    for (i, line) in news.iter().enumerate() {
        let (line, had_cr) = match line.strip_suffix('\r') {
            Some(l) => (l, true),
            None => (*line, false),
        };
        if i > 0 {
            let cr = crlf.unwrap_or(had_cr);
            out.push_str(if cr { "\r\n" } else { "\n" });
        }
        if i == 0 && !m.at_line_start || map.is_empty() || line.is_empty() {
            out.push_str(line);
            continue;
        }
        let ind = leading(line);
        let rest = &line[ind.len()..];
        if let Some((_, fi)) = map.iter().find(|(oi, _)| *oi == ind) {
            out.push_str(fi);
        } else if let Some((oref, fref)) = map.first() {
            if !old_style.tabs && !file_style.tabs && old_style.unit == file_style.unit {
                // Same style: shift by the same number of columns.
                let cols = (fref.len() + ind.len()).saturating_sub(oref.len());
                out.push_str(&" ".repeat(cols));
            } else {
                let want = (file_style.level(fref).0 + old_style.level(ind).0)
                    .saturating_sub(old_style.level(oref).0);
                out.push_str(&file_style.render(want, old_style.level(ind).1));
            }
        }
        out.push_str(rest);
    }
    out.into_bytes()
}

fn leading(s: &str) -> &str {
    let t = s.trim_start_matches([' ', '\t']);
    &s[..s.len() - t.len()]
}

/// An indentation style: tabs, or spaces with a width per level.
struct Style {
    tabs: bool,
    unit: usize,
}

impl Style {
    fn of<'a>(indents: impl Iterator<Item = &'a str>) -> Style {
        let mut tabs = false;
        let mut unit = 0;
        for i in indents {
            tabs |= i.starts_with('\t');
            let spaces = i.chars().filter(|&c| c == ' ').count();
            if spaces > 0 && !i.contains('\t') {
                unit = gcd(unit, spaces);
            }
        }
        Style {
            tabs,
            unit: if unit == 0 { 4 } else { unit.min(8) },
        }
    }

    /// `(levels, leftover spaces)`.
    fn level(&self, indent: &str) -> (usize, usize) {
        let tabs = indent.chars().filter(|&c| c == '\t').count();
        let spaces = indent.chars().filter(|&c| c != '\t').count();
        (tabs + spaces / self.unit.max(1), spaces % self.unit.max(1))
    }

    fn render(&self, levels: usize, extra: usize) -> String {
        if self.tabs {
            format!("{}{}", "\t".repeat(levels), " ".repeat(extra))
        } else {
            " ".repeat(levels * self.unit + extra)
        }
    }
}

fn gcd(a: usize, b: usize) -> usize {
    if b == 0 { a } else { gcd(b, a % b) }
}

/// The file's style, inferred from the indentation it uses where old matched.
fn file_style(map: &[(&str, String)], old_style: &Style) -> Style {
    let tabs = map.iter().any(|(_, f)| f.starts_with('\t'));
    let mut widths: Vec<usize> = map
        .iter()
        .map(|(_, f)| f.chars().filter(|&c| c == ' ').count())
        .filter(|&w| w > 0)
        .collect();
    widths.sort_unstable();
    widths.dedup();
    let unit = if widths.len() >= 2 {
        widths.iter().fold(0, |g, &w| gcd(g, w))
    } else if let Some((o, f)) = map.iter().find(|(o, f)| {
        let lv = old_style.level(o).0;
        old_style.tabs && lv > 0 && !f.contains('\t') && f.len() % lv == 0 && !f.is_empty()
    }) {
        f.len() / old_style.level(o).0.max(1)
    } else {
        old_style.unit
    };
    Style {
        tabs,
        unit: unit.clamp(1, 8),
    }
}
