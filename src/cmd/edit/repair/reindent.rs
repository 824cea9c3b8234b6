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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cmd::edit::repair::{Diagnosis, diagnose};

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
        let text = "let s = \u{201C}hi\u{201D}; // x\n";
        assert_eq!(
            apply(text, "\"hi\";", "\"bye\";"),
            "let s = \"bye\"; // x\n"
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
    fn line_endings_follow_the_regions_majority() {
        // Two CRLF lines to one LF line: CRLF everywhere in new.
        assert_eq!(
            apply("a\r\nb\r\nc\nd\n", "  a\n  b\n  c\n", "x\ny\nz\nw\n"),
            "x\r\ny\r\nz\r\nw\r\nd\n"
        );
        assert_eq!(
            apply("a\nb\nc\r\nd\n", "  a\n  b\n  c\n", "x\r\ny\r\n"),
            "x\ny\nd\n"
        );
        // A tie goes to the region's first line.
        assert_eq!(apply("a\r\nb\nc", "  a\n  b\n", "x\ny\n"), "x\r\ny\r\nc");
        assert_eq!(apply("a\nb\r\nc", "  a\n  b\n", "x\r\ny\r\n"), "x\ny\nc");
        // A region with no line ending to follow (one unterminated line) writes new's LFs.
        assert_eq!(apply("  a", "    a", "x\ny\nz"), "x\ny\nz");
    }

    #[test]
    fn new_loses_its_final_newline_where_the_file_has_none() {
        assert_eq!(apply("x\na\nb", "a\nb\n", "c\nd\n"), "x\nc\nd");
        assert_eq!(apply("x\r\na\r\nb", "a\nb\n", "c\r\nd\r\n"), "x\r\nc\r\nd");
        // A new without a final newline is left as it is.
        assert_eq!(apply("x\na\nb", "a\nb\n", "c"), "x\nc");
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
