//! `quill grep`'s pattern: the regex matcher built from PATTERN (or the `-e` patterns) and
//! the flags, as rg configures it; the other readings of a pattern that found nothing (tried
//! by `why`); an invalid pattern's error, naming its position; and GNU grep's flags that mean
//! something else here, refused with what to type instead.

use grep_regex::{RegexMatcher, RegexMatcherBuilder};

use crate::cli::GrepArgs;
use crate::error::{Error, Result};
use crate::search::why::Reading;
use crate::text::shell::shell_word;

/// The matcher's options as the flags set them (`fixed`: -F).
fn matcher_builder(args: &GrepArgs, fixed: bool) -> RegexMatcherBuilder {
    let mut b = RegexMatcherBuilder::new();
    b.case_insensitive(args.ignore_case)
        .case_smart(args.smart_case && !args.ignore_case)
        .word(args.word_regexp)
        .whole_line(args.line_regexp)
        .fixed_strings(fixed)
        .multi_line(true)
        .unicode(true)
        .octal(false);
    if !args.multiline {
        b.line_terminator(Some(b'\n'));
    }
    b
}

/// The other readings of one regex with metacharacters, for an empty answer's second look
/// (`why::grep_reading`): GNU grep's `\|` as alternation (its habit in a Rust regex, where
/// `\|` is a literal `|`), then the pattern as a fixed string (`row_to_json(t)`).
pub(super) fn readings(
    patterns: &[String],
    args: &GrepArgs,
    argv: &[std::ffi::OsString],
) -> Vec<Reading> {
    let [p] = patterns else { return Vec::new() };
    if args.fixed_strings || args.invert_match || regex_syntax::escape(p) == *p {
        return Vec::new();
    }
    let mut out = Vec::new();
    if p.contains(r"\|") {
        let alt = p.replace(r"\|", "|");
        let at = argv
            .iter()
            .skip(2)
            .position(|w| w == p.as_str())
            .map(|i| i + 2);
        if let Ok(matcher) = matcher_builder(args, false).build(&alt) {
            out.push(Reading {
                matcher,
                reason: "rewritten",
                flags: Vec::new(),
                call: at.and_then(|i| crate::text::shell::replaced(argv, i, alt.as_ref())),
                pattern: Some(alt),
                said: r"with `\|` read as alternation (GNU grep's; here it is `|`),".into(),
            });
        }
    }
    if let Ok(matcher) = matcher_builder(args, true).build(p) {
        out.push(Reading {
            matcher,
            reason: "fixed",
            flags: vec!["-F"],
            pattern: None,
            call: crate::text::shell::with_flags(argv, &["-F"]),
            said: "as a fixed string".into(),
        });
    }
    out
}

/// The regex matcher, configured like rg's (several `-e` patterns: any of them); a bad
/// pattern names its position.
pub(super) fn build_matcher(
    patterns: &[String],
    args: &GrepArgs,
    argv: &[std::ffi::OsString],
) -> Result<RegexMatcher> {
    matcher_builder(args, args.fixed_strings)
        .build_many(patterns)
        .map_err(|e| {
            if !args.multiline && first_line(&e).contains(r#""\n""#) {
                // A line break, typed or as `\n`: -F does not help, -U does.
                let fix = match crate::text::shell::with_flags(argv, &["-U"]) {
                    Some(call) => format!("add -U to let a match span lines: `{call}`"),
                    None => "add -U (--multiline) to let a match span lines".into(),
                };
                return Error::InvalidPattern {
                    message:
                        "the pattern matches a line break, and a match spans lines only with -U"
                            .into(),
                    position: None,
                    fix: Some(fix),
                };
            }
            // The pattern the parser rejects (with several, the first such one).
            let bad = (!args.fixed_strings)
                .then(|| {
                    patterns
                        .iter()
                        .find_map(|p| pattern_error_position(p).map(|at| (p, at)))
                })
                .flatten();
            let message = match bad {
                Some((p, at)) if patterns.len() > 1 => {
                    format!("{} (at character {at} of -e {p:?})", first_line(&e))
                }
                Some((_, at)) => format!("{} (at character {at} of the pattern)", first_line(&e)),
                None => first_line(&e),
            };
            Error::InvalidPattern {
                message,
                position: bad.map(|(_, at)| at),
                fix: None,
            }
        })
}

/// GNU grep's flags that mean something else to quill: parsed only to say what to type
/// instead, before anything is searched.
pub(super) fn foreign_flags(args: &GrepArgs) -> Result<()> {
    let teach = |flag: &str, why: &str, fix: String| {
        Err(Error::usage_fix(
            format!("quill grep has no {flag}: {why}"),
            fix,
        ))
    };
    // -r/-R (recursion is the default) and -E (the pattern is an extended regex already) are
    // habits that mean what quill does anyway: accepted and ignored.
    if args.perl_regexp {
        return teach(
            "-P",
            "the pattern is a Rust regex: no look-around or backreferences",
            "drop -P and rewrite look-arounds (e.g. match the context and use -o), or use -F for a literal".into(),
        );
    }
    if let Some(g) = args.include.first() {
        return teach(
            "--include",
            "files are selected with --glob",
            format!("use --glob {}", shell_word(g)),
        );
    }
    if let Some(g) = args.exclude.first() {
        return teach(
            "--exclude",
            "files are excluded with a negated --glob",
            format!("use --glob {}", shell_word(&format!("!{g}"))),
        );
    }
    if let Some(d) = args.exclude_dir.first() {
        let d = d.trim_end_matches('/');
        return teach(
            "--exclude-dir",
            "directories are excluded with a negated --glob",
            format!("use --glob {}", shell_word(&format!("!{d}/"))),
        );
    }
    Ok(())
}

/// The 1-based character position of a syntax error in `pattern`, when the parser names one.
fn pattern_error_position(pattern: &str) -> Option<usize> {
    let offset = match regex_syntax::Parser::new().parse(pattern) {
        Err(regex_syntax::Error::Parse(e)) => e.span().start.offset,
        Err(regex_syntax::Error::Translate(e)) => e.span().start.offset,
        _ => return None,
    };
    Some(pattern.get(..offset).map_or(offset, |s| s.chars().count()) + 1)
}

/// The regex crate's messages draw the pattern with a caret over several lines; keep the
/// sentence that says what is wrong.
fn first_line(e: &grep_regex::Error) -> String {
    let s = e.to_string();
    s.lines()
        .map(str::trim)
        .rfind(|l| l.starts_with("error:"))
        .map(|l| l.trim_start_matches("error:").trim().to_string())
        .unwrap_or_else(|| s.lines().next().unwrap_or("").trim().to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn error_positions_are_one_based_chars() {
        assert_eq!(pattern_error_position("ab(c"), Some(3));
        assert_eq!(pattern_error_position("é[z"), Some(2));
        assert_eq!(pattern_error_position("ok"), None);
    }
}
