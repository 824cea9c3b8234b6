//! The vocabulary agents carry over from other file tools, and the slips of a command line
//! typed in one go. Three jobs, all pure:
//!
//! - `path_flag_as_positional`: `--file-path X` (Claude's `file_path`, OpenHands' `path`) is
//!   turned into the positional PATH of `read`, `write`, `edit`, `undo` and `rm` before clap parses,
//!   so help, man pages and completions keep the one canonical form;
//! - `flag_taken_as_value`: `--new --dry-run` gives `--new` the text `--dry-run` (its value is
//!   the next word, even one that starts with `-`) and would write it; a value of `--old`,
//!   `--new` or `--content` that is exactly one of quill's own flags is refused, and
//!   `--new=--dry-run` (one word) says it is meant;
//! - `unknown_flag`: the answer to a flag quill does not know names the canonical flag and its
//!   partner (`--old` and `--new`), or nothing — never clap's nearest spelling when it is
//!   unrelated (`--start-line` is not `--state-dir`).
//!
//! `read_window` maps read's hidden `--end-line` and `--view-range A,B` onto its offset and
//! limit.

use std::ffi::{OsStr, OsString};

use crate::error::{Error, Result};
use crate::text::shell::shell_word;

/// The commands whose one positional is the file.
pub(crate) const PATH_COMMANDS: [&str; 5] = ["read", "write", "edit", "undo", "rm"];
/// Flags of other tools that name the file.
pub(crate) const PATH_FLAGS: [&str; 6] = [
    "file-path",
    "file_path",
    "filepath",
    "path",
    "file",
    "filename",
];

/// The long options of the root command and of subcommand `op` (names and aliases), and
/// which of them take a value.
struct Longs {
    all: Vec<String>,
    valued: Vec<String>,
}

fn longs(cmd: &clap::Command, op: Option<&str>) -> Longs {
    let mut l = Longs {
        all: vec!["help".into(), "version".into()],
        valued: Vec::new(),
    };
    let sub = op.and_then(|op| cmd.find_subcommand(op));
    for arg in cmd
        .get_arguments()
        .chain(sub.into_iter().flat_map(|s| s.get_arguments()))
    {
        let Some(long) = arg.get_long() else { continue };
        let names: Vec<String> = std::iter::once(long)
            .chain(arg.get_all_aliases().unwrap_or_default())
            .map(str::to_string)
            .collect();
        if arg.get_action().takes_values() {
            l.valued.extend(names.iter().cloned());
        }
        l.all.extend(names);
    }
    l
}

/// The name of a long option word (`--old` or `--old=x` → `old`) and whether it holds its
/// value; None for anything else.
fn long_name(word: &OsStr) -> Option<(&str, bool)> {
    let rest = word.to_str()?.strip_prefix("--")?;
    if rest.is_empty() {
        return None;
    }
    Some(match rest.split_once('=') {
        Some((name, _)) => (name, true),
        None => (rest, false),
    })
}

/// The subcommand a command line names (its canonical name), the way clap finds it: the first
/// word that is neither a global option nor its value. None when that word is no subcommand
/// (`quill frobnicate`) or there is none (`quill`, `quill --bogus`).
pub(crate) fn subcommand_named(args: &[OsString], cmd: &clap::Command) -> Option<String> {
    let (_, word) = subcommand(args, &longs(cmd, None))?;
    cmd.find_subcommand(word)
        .map(|sub| sub.get_name().to_string())
}

/// The word of a command line where clap looks for the subcommand (after the global options
/// of `root` and their values), whatever it is.
pub(crate) fn subcommand_word<'a>(args: &'a [OsString], root: &clap::Command) -> Option<&'a str> {
    subcommand(args, &longs(root, None)).map(|(_, word)| word)
}

/// Where the subcommand word is (skipping global options and their values), and its name.
fn subcommand<'a>(args: &'a [OsString], root: &Longs) -> Option<(usize, &'a str)> {
    let mut i = 1;
    while let Some(word) = args.get(i) {
        if word == "--" {
            return None;
        }
        if let Some((name, inline)) = long_name(word) {
            i += if !inline && root.valued.iter().any(|v| v == name) {
                2
            } else {
                1
            };
            continue;
        }
        let w = word.to_str()?;
        if w.starts_with('-') && w.len() > 1 {
            i += 1;
            continue;
        }
        return Some((i, w));
    }
    None
}

/// `quill edit --file-path a.rs …` → `quill edit … -- a.rs`: the first path flag of another
/// tool (`--file-path`, `--file_path`, `--path`, `--file`, …, also `--file-path=a.rs`) becomes
/// the positional PATH, placed after `--` so that a name starting with `-` stays a name.
/// Anything else (no such flag, `--` already there, a second one) is left for clap to judge.
pub(crate) fn path_flag_as_positional(args: Vec<OsString>, cmd: &clap::Command) -> Vec<OsString> {
    let root = longs(cmd, None);
    let Some((at, op)) = subcommand(&args, &root) else {
        return args;
    };
    if !PATH_COMMANDS.contains(&op) {
        return args;
    }
    let ours = longs(cmd, Some(op));
    let mut found: Option<(usize, usize, OsString)> = None; // (first word, words, value)
    let mut i = at + 1;
    while let Some(word) = args.get(i) {
        if word == "--" {
            return args;
        }
        let Some((name, inline)) = long_name(word) else {
            i += 1;
            continue;
        };
        if PATH_FLAGS.contains(&name) && !ours.all.iter().any(|l| l == name) {
            if found.is_some() {
                return args;
            }
            let value = if inline {
                let w = word.to_str().unwrap_or("");
                OsString::from(&w[w.find('=').map_or(w.len(), |e| e + 1)..])
            } else {
                match args.get(i + 1) {
                    Some(v) => v.clone(),
                    None => return args,
                }
            };
            let words = if inline { 1 } else { 2 };
            found = Some((i, words, value));
            i += words;
            continue;
        }
        i += if !inline && ours.valued.iter().any(|v| v == name) {
            2
        } else {
            1
        };
    }
    let Some((first, words, value)) = found else {
        return args;
    };
    let mut out: Vec<OsString> = args[..first].to_vec();
    out.extend_from_slice(&args[first + words..]);
    out.push("--".into());
    out.push(value);
    out
}

/// The text options whose value is written into a file.
const TEXT_OPTIONS: [(&str, &str, &str); 3] = [
    ("edit", "old", "--old-file FILE"),
    ("edit", "new", "--new-file FILE"),
    ("write", "content", "--from FILE"),
];

/// A value of `--old`, `--new` or `--content` (or an alias) given as a separate word that is
/// exactly one of quill's own flags (`--dry-run`, or `--expect-count=2`): `usage`, with the
/// fix. The one-word form `--new=--dry-run` is how such a text is given on purpose.
pub(crate) fn flag_taken_as_value(args: &[OsString], cmd: &clap::Command) -> Option<Error> {
    let root = longs(cmd, None);
    let (at, op) = subcommand(args, &root)?;
    let sub = cmd.find_subcommand(op)?;
    let ours = longs(cmd, Some(op));
    let mut i = at + 1;
    while let Some(word) = args.get(i) {
        if word == "--" {
            return None;
        }
        let Some((name, inline)) = long_name(word) else {
            i += 1;
            continue;
        };
        if inline || !ours.valued.iter().any(|v| v == name) {
            i += 1;
            continue;
        }
        let text_option = TEXT_OPTIONS.iter().find(|(o, id, _)| {
            *o == op
                && sub.get_arguments().any(|a| {
                    a.get_id() == *id
                        && (a.get_long() == Some(name)
                            || a.get_all_aliases().unwrap_or_default().contains(&name))
                })
        });
        if let (Some((_, id, file_form)), Some(value)) = (text_option, args.get(i + 1))
            && let Some((flag, _)) = long_name(value)
            && ours.all.iter().any(|l| l == flag)
        {
            let value = value.to_string_lossy();
            return Some(Error::usage_fix(
                format!(
                    "--{id} took `{value}` as its text (an option's value is the next word, even one that looks like a flag); nothing was written"
                ),
                format!(
                    "give --{id} its text first: `--{id} TEXT {value}`; for the literal text `{value}`, write `--{id}={value}` or use {file_form}"
                ),
            ));
        }
        i += 2;
    }
    None
}

/// What to say about a flag quill does not know.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct Advice {
    /// The canonical flag meant (`--old`, `--limit`, `<PATH>`), if quill can tell.
    pub suggestion: Option<String>,
    /// The hint: what the flag is and the call that works — the command line as typed with
    /// every unknown flag replaced, when that parses; else a template.
    pub fix: Option<String>,
}

/// Another tool's word (or a near spelling) for one of quill's flags.
struct Meaning {
    /// The canonical flag (`<PATH>` for the positional).
    flag: String,
    /// The word that replaces the unknown one in the corrected call (None: no such word).
    replace: Option<String>,
    /// What the flag is: `edit takes --old TEXT and --new TEXT`.
    explain: String,
    /// A call to show when the corrected one does not parse.
    template: Option<String>,
}

/// Advice for the unknown long flag `typed` of the command line `args` (command `op`): a near
/// spelling of a flag is that flag, another tool's word names the canonical flag and its
/// partner, anything else gets no suggestion (never an unrelated flag).
pub(crate) fn unknown_flag(
    args: &[OsString],
    cmd: &clap::Command,
    op: Option<&str>,
    typed: &str,
) -> Advice {
    // No subcommand identified: quill's own flags, and no other tool's words.
    let Some(m) = meaning(cmd, op.unwrap_or(""), typed) else {
        return Advice {
            suggestion: None,
            fix: None,
        };
    };
    let fix = match op.and_then(|op| corrected_call(args, cmd, op)) {
        Some(call) => format!("{}: `{call}`", m.explain),
        None => match (&m.template, op) {
            (Some(t), _) => format!("{}: {t}", m.explain),
            (None, Some(op)) => format!("{}; run `quill {op} --help`", m.explain),
            (None, None) => format!("{}; run `quill --help`", m.explain),
        },
    };
    Advice {
        suggestion: Some(m.flag),
        fix: Some(fix),
    }
}

/// The lowercase name of a long flag as typed, `_` as `-`: `--Old_String=x` → `old-string`.
fn flag_name(typed: &str) -> String {
    typed
        .trim_start_matches('-')
        .split('=')
        .next()
        .unwrap_or("")
        .to_lowercase()
        .replace('_', "-")
}

/// What the unknown flag `typed` of `op` means: a near spelling of a flag (at most one edit,
/// or the start of a flag's name), another tool's word for one, or a spelling two edits away.
fn meaning(cmd: &clap::Command, op: &str, typed: &str) -> Option<Meaning> {
    let name = flag_name(typed);
    let canonical: Vec<&str> = {
        let sub = cmd.find_subcommand(op);
        cmd.get_arguments()
            .chain(sub.into_iter().flat_map(|s| s.get_arguments()))
            .filter(|a| !a.is_hide_set())
            .filter_map(|a| a.get_long())
            .chain(["help"])
            .collect()
    };
    let near = |max: usize| {
        canonical
            .iter()
            .map(|c| (osa_distance(&name, c), *c))
            .filter(|(d, c)| *d <= max || (name.len() >= 4 && c.starts_with(&name)))
            .min_by_key(|(d, _)| *d)
            .map(|(_, c)| format!("--{c}"))
    };
    let spelled = |flag: String| {
        // A near spelling of a paired flag is explained with its partner.
        vocabulary(op, flag.trim_start_matches('-'))
            .filter(|m| m.flag == flag)
            .unwrap_or(Meaning {
                explain: format!("the flag is {flag}"),
                replace: Some(flag.clone()),
                template: None,
                flag,
            })
    };
    if let Some(flag) = near(1) {
        return Some(spelled(flag));
    }
    if let Some(m) = vocabulary(op, &name) {
        return Some(m);
    }
    near(if name.len() >= 5 { 2 } else { 1 }).map(spelled)
}

/// The command line with every unknown long flag after the subcommand replaced by the flag it
/// means, as one line to paste — only when that line parses (and takes no flag as a text).
fn corrected_call(args: &[OsString], cmd: &clap::Command, op: &str) -> Option<String> {
    let root = longs(cmd, None);
    let (at, _) = subcommand(args, &root)?;
    let ours = longs(cmd, Some(op));
    let mut out: Vec<OsString> = args.to_vec();
    let mut changed = false;
    let mut i = at + 1;
    while let Some(word) = args.get(i) {
        if word == "--" {
            break;
        }
        let Some((name, inline)) = long_name(word) else {
            i += 1;
            continue;
        };
        if ours.all.iter().any(|l| l == name) {
            i += if !inline && ours.valued.iter().any(|v| v == name) {
                2
            } else {
                1
            };
            continue;
        }
        let flag = meaning(cmd, op, name)?.replace?;
        let text = word.to_str()?;
        out[i] = match text.find('=') {
            Some(eq) => format!("{flag}{}", &text[eq..]).into(),
            None => flag.clone().into(),
        };
        changed = true;
        let takes_value = ours.valued.iter().any(|v| *v == flag[2..]);
        i += if !inline && takes_value { 2 } else { 1 };
    }
    let Ok(matches) = cmd.clone().try_get_matches_from(&out) else {
        return None;
    };
    // An edit needs both sides: `--old a` alone parses, and fails at once.
    let complete = match matches.subcommand() {
        Some(("edit", m)) => {
            let given = |id: &str| m.contains_id(id) && m.value_source(id).is_some();
            given("edits")
                || ((given("old") || given("old_file")) && (given("new") || given("new_file")))
        }
        _ => true,
    };
    if !changed || !complete || flag_taken_as_value(&out, cmd).is_some() {
        return None;
    }
    let words: Vec<String> = std::iter::once("quill".to_string())
        .chain(out[1..].iter().map(|w| shell_word(&w.to_string_lossy())))
        .collect();
    Some(words.join(" "))
}

/// Optimal string alignment distance (Levenshtein with adjacent swaps).
pub(crate) fn osa_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let mut d: Vec<Vec<usize>> = (0..=a.len())
        .map(|i| {
            (0..=b.len())
                .map(|j| if i == 0 { j } else { i * usize::from(j == 0) })
                .collect()
        })
        .collect();
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut v = (d[i - 1][j] + 1)
                .min(d[i][j - 1] + 1)
                .min(d[i - 1][j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                v = v.min(d[i - 2][j - 2] + 1);
            }
            d[i][j] = v;
        }
    }
    d[a.len()][b.len()]
}

/// Another tool's word for one of quill's flags (`name` lowercase, `-` for `_`).
fn vocabulary(op: &str, name: &str) -> Option<Meaning> {
    let words: Vec<&str> = name.split('-').filter(|w| !w.is_empty()).collect();
    let has = |set: &[&str]| words.iter().any(|w| set.contains(w));
    let starts = |p: &str| words.iter().any(|w| w.starts_with(p));
    let m = |flag: &str, replace: Option<&str>, explain: &str, template: &str| Meaning {
        flag: flag.to_string(),
        replace: replace.map(str::to_string),
        explain: explain.to_string(),
        template: Some(template.to_string()),
    };
    let path = || {
        m(
            "<PATH>",
            None,
            "the file is the positional PATH",
            &format!("`quill {op} PATH …`"),
        )
    };
    let is_path = has(&["file", "path", "filename", "filepath", "target"]);
    match op {
        "edit" => {
            let file = is_path && words.len() > 1;
            let pair = |side: &str| {
                if file {
                    let flag = format!("--{side}-file");
                    m(
                        &flag,
                        Some(&flag),
                        "edit takes --old-file FILE and --new-file FILE",
                        "`quill edit PATH --old-file FILE --new-file FILE`",
                    )
                } else {
                    let flag = format!("--{side}");
                    m(
                        &flag,
                        Some(&flag),
                        "edit takes --old TEXT and --new TEXT",
                        "`quill edit PATH --old TEXT --new TEXT`",
                    )
                }
            };
            let one = |flag: &str, template: &str| {
                m(flag, Some(flag), &format!("the flag is {flag}"), template)
            };
            if name.contains("all") || has(&["global", "every", "everywhere"]) {
                Some(one(
                    "--replace-all",
                    "`quill edit PATH --old TEXT --new TEXT --replace-all`",
                ))
            } else if starts("old")
                || has(&[
                    "search", "find", "original", "orig", "before", "from", "match", "pattern",
                ])
            {
                Some(pair("old"))
            } else if starts("new")
                || has(&[
                    "replace",
                    "replacement",
                    "after",
                    "with",
                    "to",
                    "substitute",
                    "subst",
                    "content",
                    "text",
                ])
            {
                Some(pair("new"))
            } else if has(&["count", "expected", "occurrences", "replacements", "times"]) {
                Some(one(
                    "--expect-count",
                    "`quill edit PATH --old TEXT --new TEXT --expect-count N`",
                ))
            } else if has(&["dry", "preview", "dryrun"]) {
                Some(one(
                    "--dry-run",
                    "`quill edit PATH --old TEXT --new TEXT --dry-run`",
                ))
            } else if is_path {
                Some(path())
            } else {
                None
            }
        }
        "read" => {
            let explain =
                "read takes --offset N (the first line, 1-based) and --limit N (how many lines)";
            let template = "`quill read PATH --offset N --limit N`";
            if has(&[
                "start",
                "from",
                "first",
                "begin",
                "skip",
                "startline",
                "offset",
            ]) {
                Some(m("--offset", Some("--offset"), explain, template))
            } else if has(&["end", "last", "until", "stop", "to", "endline"]) {
                // The last line: `--end-line` (accepted, hidden) says it without arithmetic.
                Some(m("--limit", Some("--end-line"), explain, template))
            } else if has(&[
                "limit", "count", "lines", "num", "number", "n", "length", "len", "max", "head",
            ]) {
                Some(m("--limit", Some("--limit"), explain, template))
            } else if has(&["range", "view"]) {
                Some(m("--offset", None, explain, template))
            } else if is_path {
                Some(path())
            } else {
                None
            }
        }
        "write" => {
            let explain =
                "write takes its content from one of --content TEXT, --from FILE or --stdin";
            let template = "`quill write PATH --content TEXT`";
            if has(&[
                "content", "contents", "text", "data", "body", "value", "string", "str",
            ]) {
                Some(m("--content", Some("--content"), explain, template))
            } else if has(&["from", "input", "source", "src", "in"]) {
                Some(m("--from", Some("--from"), explain, template))
            } else if has(&["stdin", "pipe"]) {
                Some(m("--stdin", Some("--stdin"), explain, template))
            } else if is_path {
                Some(path())
            } else {
                None
            }
        }
        _ => None,
    }
}

/// Read's page from its flags: `--offset`/`--limit`, or `--end-line M` (the last line:
/// `limit = M - offset + 1`), or `--view-range A,B` (`[A, B]`, `A B` and `A:B` too; B = -1:
/// to the end, paged as usual).
pub(crate) fn read_window(
    offset: u64,
    limit: u64,
    end_line: Option<u64>,
    view_range: Option<&str>,
) -> Result<(u64, u64)> {
    if let Some(range) = view_range {
        let bad = || {
            Error::invalid_argument_fix(
                format!(
                    "--view-range takes the first and last line, A,B (B = -1: to the end), not `{range}`"
                ),
                "`quill read PATH --offset A --limit N` (N lines from line A)",
            )
        };
        let parts: Vec<&str> = range
            .trim_matches(|c: char| c == '[' || c == ']' || c.is_whitespace())
            .split([',', ' ', ':'])
            .filter(|p| !p.is_empty())
            .collect();
        let [a, b] = parts[..] else {
            return Err(bad());
        };
        let a: u64 = a.parse().map_err(|_| bad())?;
        let b: i64 = b.parse().map_err(|_| bad())?;
        return match b {
            -1 => Ok((a, limit)),
            b if b >= 0 && (b as u64) >= a => Ok((a, b as u64 - a + 1)),
            _ => Err(bad()),
        };
    }
    match end_line {
        Some(end) if end < offset => Err(Error::invalid_argument(format!(
            "--end-line {end} is before the first line shown, {offset}"
        ))),
        Some(end) => Ok((offset, end - offset + 1)),
        None => Ok((offset, limit)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn os(args: &[&str]) -> Vec<OsString> {
        args.iter().map(OsString::from).collect()
    }

    #[test]
    fn a_path_flag_becomes_the_positional() {
        let cmd = crate::cli::command();
        let moved = |a: &[&str]| path_flag_as_positional(os(a), &cmd);
        assert_eq!(
            moved(&[
                "quill",
                "edit",
                "--file-path",
                "a.rs",
                "--old",
                "x",
                "--new",
                "y"
            ]),
            os(&["quill", "edit", "--old", "x", "--new", "y", "--", "a.rs"])
        );
        assert_eq!(
            moved(&["quill", "--session", "s", "read", "--file_path=-x.rs"]),
            os(&["quill", "--session", "s", "read", "--", "-x.rs"])
        );
        // The value of another option is not a flag; other commands and `--` are left alone.
        for args in [
            &["quill", "edit", "a.rs", "--old", "--path", "--new", "y"][..],
            &["quill", "glob", "--path", "x"],
            &["quill", "read", "--", "--path"],
            &["quill", "read", "--path", "a", "--file", "b"],
            &["quill", "read", "--path"],
        ] {
            assert_eq!(moved(args), os(args), "{args:?}");
        }
    }

    #[test]
    fn a_flag_given_as_a_text_value_is_refused_unless_in_one_word() {
        let cmd = crate::cli::command();
        let refused = |a: &[&str]| flag_taken_as_value(&os(a), &cmd).map(|e| e.hint().unwrap());
        let hint = refused(&["quill", "edit", "f", "--old", "a", "--new", "--dry-run"]).unwrap();
        assert!(hint.contains("`--new=--dry-run`"), "{hint}");
        assert!(refused(&["quill", "write", "f", "--content", "--json"]).is_some());
        assert!(
            refused(&[
                "quill",
                "edit",
                "f",
                "--old-string",
                "--replace-all",
                "--new",
                "x"
            ])
            .is_some()
        );
        assert!(
            refused(&[
                "quill",
                "edit",
                "f",
                "--old",
                "a",
                "--new",
                "--expect-count=2"
            ])
            .is_some()
        );
        for ok in [
            &["quill", "edit", "f", "--old", "a", "--new=--dry-run"][..],
            &["quill", "edit", "f", "--old", "a", "--new", "--not-a-flag"],
            &["quill", "edit", "f", "--old", "a", "--new", "-x"],
            &[
                "quill",
                "edit",
                "f",
                "--old",
                "a",
                "--new",
                "b",
                "--dry-run",
            ],
            &["quill", "write", "f", "--content", "- item"],
            &["quill", "edit", "f", "--", "--new", "--dry-run"],
        ] {
            assert_eq!(refused(ok), None, "{ok:?}");
        }
    }

    #[test]
    fn unknown_flags_get_the_canonical_flag_and_its_partner_or_nothing() {
        let cmd = crate::cli::command();
        let advice = |a: &[&str]| {
            let args = os(a);
            let typed = a
                .iter()
                .find(|w| w.starts_with("--") && !cmd_knows(&cmd, a[1], w));
            unknown_flag(&args, &cmd, Some(a[1]), typed.unwrap())
        };
        let a = advice(&[
            "quill",
            "edit",
            "f.rs",
            "--old-text",
            "a",
            "--new-text",
            "b",
        ]);
        assert_eq!(a.suggestion.as_deref(), Some("--old"));
        assert_eq!(
            a.fix.as_deref(),
            Some("edit takes --old TEXT and --new TEXT: `quill edit f.rs --old a --new b`")
        );
        let a = advice(&["quill", "edit", "f.rs", "--search", "a b"]);
        assert_eq!(
            a.fix.as_deref(),
            Some("edit takes --old TEXT and --new TEXT: `quill edit PATH --old TEXT --new TEXT`")
        );
        let s = |a: &[&str]| advice(a).suggestion;
        assert_eq!(
            s(&["quill", "edit", "f", "--replacement", "x"]).as_deref(),
            Some("--new")
        );
        assert_eq!(
            s(&["quill", "edit", "f", "--search-file", "x"]).as_deref(),
            Some("--old-file")
        );
        assert_eq!(
            s(&["quill", "edit", "f", "--replaceAll"]).as_deref(),
            Some("--replace-all")
        );
        assert_eq!(
            s(&["quill", "edit", "f", "--all"]).as_deref(),
            Some("--replace-all")
        );
        assert_eq!(
            s(&["quill", "read", "f", "--to-line", "3"]).as_deref(),
            Some("--limit")
        );
        assert_eq!(
            s(&["quill", "read", "f", "--from-line", "3"]).as_deref(),
            Some("--offset")
        );
        assert_eq!(
            s(&["quill", "write", "f", "--data", "x"]).as_deref(),
            Some("--content")
        );
        assert_eq!(
            s(&["quill", "read", "f", "--max-byte", "9"]).as_deref(),
            Some("--max-bytes")
        );
        assert_eq!(
            s(&["quill", "edit", "f", "--fuzy"]).as_deref(),
            Some("--fuzzy")
        );
        assert_eq!(
            s(&["quill", "read", "f", "--offest", "2"]).as_deref(),
            Some("--offset")
        );
        // `--to-line 3` is corrected to the accepted `--end-line 3`, not `--limit 3`.
        assert_eq!(
            advice(&["quill", "read", "f", "--from-line", "2", "--to-line", "3"])
                .fix
                .as_deref(),
            Some(
                "read takes --offset N (the first line, 1-based) and --limit N (how many lines): `quill read f --offset 2 --end-line 3`"
            )
        );
        // A near spelling of a paired flag names the partner.
        let a = advice(&["quill", "edit", "f", "--od", "a", "--new", "b"]);
        assert_eq!(a.suggestion.as_deref(), Some("--old"));
        assert!(a.fix.unwrap().contains("--old TEXT and --new TEXT"));
        let a = advice(&["quill", "glob", "x", "--limt", "3"]);
        assert_eq!(
            a.fix.as_deref(),
            Some("the flag is --limit: `quill glob x --limit 3`")
        );
        // Nothing unrelated.
        assert_eq!(
            advice(&["quill", "edit", "f", "--start-line", "3"]),
            Advice {
                suggestion: None,
                fix: None
            }
        );
    }

    fn cmd_knows(cmd: &clap::Command, op: &str, word: &str) -> bool {
        let name = long_name(OsStr::new(word)).unwrap().0;
        longs(cmd, Some(op)).all.iter().any(|l| l == name)
    }

    #[test]
    fn osa_counts_a_swap_as_one() {
        assert_eq!(osa_distance("offest", "offset"), 1);
        assert_eq!(osa_distance("limt", "limit"), 1);
        assert!(osa_distance("start-line", "state-dir") > 2);
    }

    #[test]
    fn read_windows() {
        assert_eq!(read_window(1, 2000, None, None).unwrap(), (1, 2000));
        assert_eq!(read_window(10, 2000, Some(20), None).unwrap(), (10, 11));
        assert!(read_window(10, 2000, Some(9), None).is_err());
        assert_eq!(read_window(1, 2000, None, Some("5,7")).unwrap(), (5, 3));
        assert_eq!(
            read_window(1, 2000, None, Some("[5, -1]")).unwrap(),
            (5, 2000)
        );
        assert_eq!(read_window(1, 2000, None, Some("5:5")).unwrap(), (5, 1));
        for bad in ["5", "7,5", "a,b", "5,-2", "1,2,3"] {
            assert!(read_window(1, 2000, None, Some(bad)).is_err(), "{bad}");
        }
    }
}
