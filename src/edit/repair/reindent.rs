//! The indentation a `--fuzzy` replacement writes on the lines the caller changed or added:
//! `new`'s indentation moved from `old`'s style to the file's (the file's own indentation
//! where `old` uses the same, else shifted by the difference in levels between the two
//! styles, tabs or spaces of some width). It only answers "what indentation for this line
//! of new"; `align` decides which lines ask and builds the replacement.

use super::FuzzyMatch;
use super::lines::{FLine, OldLine, indent_len, lossy};

/// What `old` and the file's matched lines teach about indentation.
pub(super) struct Reindent<'a> {
    /// old's indentation of a line with content → the file's indentation of that line.
    map: Vec<(&'a str, String)>,
    old_style: Style,
    file_style: Style,
    at_line_start: bool,
}

impl<'a> Reindent<'a> {
    /// Learns from `olds` matched against the file lines `fl` (old's line j is `fl[j]`) and
    /// from the indentation `news` (new's lines) uses.
    pub(super) fn new(
        text: &[u8],
        m: &FuzzyMatch,
        olds: &[OldLine<'a>],
        fl: &[FLine],
        news: &[OldLine<'_>],
    ) -> Reindent<'a> {
        let mut map: Vec<(&'a str, String)> = Vec::new();
        for (j, (o, f)) in olds.iter().zip(fl).enumerate() {
            if (j > 0 || m.at_line_start) && !o.content.is_empty() {
                let b = f.raw(text);
                let fi = lossy(&b[..indent_len(b)]);
                if !map.iter().any(|(oi, _)| *oi == o.indent) {
                    map.push((o.indent, fi));
                }
            }
        }
        let old_style = Style::of(
            olds.iter()
                .filter(|o| !o.content.is_empty())
                .map(|o| o.indent)
                .chain(news.iter().map(|l| leading(l.raw))),
        );
        let file_style = file_style(&map, &old_style);
        Reindent {
            map,
            old_style,
            file_style,
            at_line_start: m.at_line_start,
        }
    }

    /// The indentation to write for `ind`, the indentation of new's line `i`, whose text
    /// (without its line ending) is `raw`. The first line of a fragment, an empty line, and
    /// any line when nothing tells the file's indentation keep new's own.
    pub(super) fn indent(&self, i: usize, raw: &str, ind: &str) -> String {
        if i == 0 && !self.at_line_start || self.map.is_empty() || raw.is_empty() {
            return ind.to_string();
        }
        // Only tabs and spaces are re-indented; what follows them (a no-break space) stays.
        let lead = leading(ind);
        let rest = &ind[lead.len()..];
        let mut out = String::new();
        if let Some((_, fi)) = self.map.iter().find(|(oi, _)| *oi == lead) {
            out.push_str(fi);
        } else if let Some((oref, fref)) = self.map.first() {
            let (old_style, file_style) = (&self.old_style, &self.file_style);
            if !old_style.tabs && !file_style.tabs && old_style.unit == file_style.unit {
                // Same style: shift by the same number of columns.
                let cols = (fref.len() + lead.len()).saturating_sub(oref.len());
                out.push_str(&" ".repeat(cols));
            } else {
                let want = (file_style.level(fref).0 + old_style.level(lead).0)
                    .saturating_sub(old_style.level(oref).0);
                out.push_str(&file_style.render(want, old_style.level(lead).1));
            }
        }
        out.push_str(rest);
        out
    }
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::edit::repair::{Diagnosis, diagnose, render_replacement};

    /// `text` with the first whitespace match of `old` replaced by the rendered `new`.
    fn apply(text: &str, old: &str, new: &str) -> String {
        let Diagnosis::Whitespace { matches, .. } = diagnose(text.as_bytes(), old) else {
            panic!("expected a whitespace match of {old:?} in {text:?}");
        };
        let m = &matches[0];
        let mut out = text.as_bytes()[..m.start].to_vec();
        out.extend(render_replacement(text.as_bytes(), m, old, new));
        out.extend(&text.as_bytes()[m.end..]);
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn spaces_to_tabs_by_the_difference_in_levels() {
        let text = "fn f() {\n\tif x {\n\t\ty();\n\t}\n}\n";
        let old = "    if x {\n        y();\n    }\n";
        let new = "    if x {\n        y();\n        if w {\n            v();\n        }\n    }\n";
        assert_eq!(
            apply(text, old, new),
            "fn f() {\n\tif x {\n\t\ty();\n\t\tif w {\n\t\t\tv();\n\t\t}\n\t}\n}\n"
        );
        // Dedenting below old's first level stays at the file's level for it, minus the delta.
        let new = "    if x {\n        y();\n    }\nz();\n";
        assert_eq!(
            apply(text, old, new),
            "fn f() {\n\tif x {\n\t\ty();\n\t}\nz();\n}\n"
        );
    }

    #[test]
    fn tabs_to_spaces_at_the_files_width() {
        // The file indents by 2: learnt from the two widths old's lines matched.
        let text = "a:\n  b:\n    c\n";
        assert_eq!(
            apply(text, "\tb:\n\t\tc\n", "\tb:\n\t\tc\n\t\t\td\n"),
            "a:\n  b:\n    c\n      d\n"
        );
        // One matched line: its width over its level in old.
        assert_eq!(
            apply("x\n  y\n", "\ty\n", "\ty\n\t\tz\n"),
            "x\n  y\n    z\n"
        );
    }

    #[test]
    fn same_style_shifts_by_columns() {
        // old indents by 2 and 4 spaces, the file by 8: every line moves 4 columns right.
        let text = "if a:\n        x = 1\n";
        assert_eq!(
            apply(text, "    x = 1\n", "    x = 1\n    y = 2\n      z\n"),
            "if a:\n        x = 1\n        y = 2\n          z\n"
        );
        // Spaces past a whole level (a tab and 2 spaces in old's tab style) are kept.
        assert_eq!(
            apply("f:\n    g\n", "\tg\n", "\tg\n\t  h\n"),
            "f:\n    g\n      h\n"
        );
    }

    #[test]
    fn a_fragment_keeps_its_first_line_and_blank_lines_stay_blank() {
        // (The quotes new repeats are the file's: see `align`.)
        let text = "let s = \u{201C}hi\u{201D}; // x\n";
        assert_eq!(
            apply(text, "\"hi\";", "\"bye\";"),
            "let s = \u{201C}bye\u{201D}; // x\n"
        );
        // Nothing tells the file's indentation: new is written as given.
        assert_eq!(
            apply("\tcall(a);\n", "call(a);", "call(a);\n    call(b);"),
            "\tcall(a);\n    call(b);\n"
        );
        // Empty lines of new get no indentation.
        assert_eq!(
            apply("{\n\tx\n}\n", "    x\n", "    x\n\n    y\n"),
            "{\n\tx\n\n\ty\n}\n"
        );
    }

    #[test]
    fn styles_from_indentation() {
        let of = |v: &[&str]| {
            let s = Style::of(v.iter().copied());
            (s.tabs, s.unit)
        };
        assert_eq!(of(&["  ", "    ", "      "]), (false, 2));
        assert_eq!(of(&["   ", "      "]), (false, 3));
        assert_eq!(of(&["    ", "      "]), (false, 2));
        // No spaces to learn from: 4; wider than 8: 8; mixed lines do not count.
        assert_eq!(of(&[]), (false, 4));
        assert_eq!(of(&["\t", "\t\t"]), (true, 4));
        assert_eq!(of(&[&" ".repeat(16)]), (false, 8));
        assert_eq!(of(&["\t ", "   "]), (true, 3));

        let spaces = Style {
            tabs: false,
            unit: 4,
        };
        assert_eq!(spaces.level("\t      "), (2, 2));
        assert_eq!(spaces.level(""), (0, 0));
        assert_eq!(spaces.render(2, 1), " ".repeat(9));
        let tabs = Style {
            tabs: true,
            unit: 4,
        };
        assert_eq!(tabs.render(2, 1), "\t\t ");
        assert_eq!(gcd(12, 8), 4);
        assert_eq!(gcd(0, 6), 6);
    }

    #[test]
    fn the_files_style_from_what_old_matched() {
        let old_spaces = Style {
            tabs: false,
            unit: 4,
        };
        let old_tabs = Style {
            tabs: true,
            unit: 4,
        };
        let style = |map: &[(&str, &str)], old: &Style| {
            let map: Vec<(&str, String)> = map.iter().map(|(o, f)| (*o, f.to_string())).collect();
            let s = file_style(&map, old);
            (s.tabs, s.unit)
        };
        assert_eq!(
            style(&[("    ", "\t"), ("        ", "\t\t")], &old_spaces),
            (true, 4)
        );
        assert_eq!(
            style(&[("\t", "   "), ("\t\t", "      ")], &old_tabs),
            (false, 3)
        );
        assert_eq!(style(&[("\t\t", "    ")], &old_tabs), (false, 2));
        // One space-indented line and old in spaces: old's unit.
        assert_eq!(style(&[("  ", "      ")], &old_spaces), (false, 4));
        assert_eq!(style(&[], &old_spaces), (false, 4));
    }
}
