//! `quill completions SHELL` and `quill man [COMMAND]`: generated from the clap definitions in
//! `cli`, the one source of truth; `quill schema [NAME]`, generated from the report types
//! (`schema`). The committed copies under `completions/` and `man/` are
//! checked against these by a test.
//!
//! A man page is clap_mangen's sections (NAME, SYNOPSIS, DESCRIPTION, OPTIONS, GLOBAL OPTIONS)
//! and quill's own: COMMANDS (for `quill` and `quill state`), EXAMPLES (the `Examples:` of
//! `--help`), EXIT STATUS, ENVIRONMENT, SEE ALSO (only pages `quill man` writes) and VERSION.

use std::fmt::Write as _;

use crate::cli::{self, CompletionsArgs, ManArgs, SchemaArgs};
use crate::error::{Error, Result};
use crate::report::Report;

pub(crate) fn completions(args: &CompletionsArgs) -> Result<Report> {
    Ok(Report::Generated(completion_script(args.shell)))
}

pub(crate) fn completion_script(shell: clap_complete::Shell) -> String {
    let mut cmd = cli::canonical();
    let mut out = Vec::new();
    clap_complete::generate(shell, &mut cmd, "quill", &mut out);
    String::from_utf8_lossy(&out).into_owned()
}

/// `quill schema [NAME]`: pretty JSON, as committed under `schema/`.
pub(crate) fn schema(args: &SchemaArgs) -> Report {
    let value = match args.name.as_deref() {
        Some(name) => crate::schema::of(name).unwrap_or_default(),
        None => crate::schema::all(),
    };
    let mut text = serde_json::to_string_pretty(&value).unwrap_or_default();
    text.push('\n');
    Report::Generated(text)
}

pub(crate) fn man(args: &ManArgs) -> Result<Report> {
    man_page(args.command.as_deref()).map(Report::Generated)
}

/// The commands with a page of their own (`quill-NAME(1)`): every subcommand but clap's `help`.
pub(crate) fn page_commands() -> Vec<String> {
    cli::canonical()
        .get_subcommands()
        .map(|c| c.get_name().to_string())
        .filter(|n| n != "help")
        .collect()
}

/// The roff page of quill, or of one subcommand (`quill-edit(1)`).
pub(crate) fn man_page(command: Option<&str>) -> Result<String> {
    let mut root = cli::canonical();
    // Built, a subcommand has its page name (`quill-edit`), its bin name (`quill edit`) and
    // the global options.
    root.build();
    let cmd = match command {
        None => root.clone(),
        Some(name) => root
            .get_subcommands()
            .find(|c| c.get_name() == name && name != "help")
            .cloned()
            .ok_or_else(|| {
                Error::invalid_argument(format!(
                    "no command named {name:?}; pages: {}",
                    page_commands().join(", ")
                ))
            })?,
    };
    // The package version, never the commit: the committed pages must not change with HEAD.
    let version = env!("CARGO_PKG_VERSION");
    // The synopsis is the usage of `--help` (`quill read [OPTIONS] <PATH>`), not every flag.
    let mut cmd = cmd;
    let usage = cmd.render_usage().to_string();
    let usage: Vec<&str> = usage
        .lines()
        .map(|l| l.trim().trim_start_matches("Usage:").trim())
        .collect();
    let synopsis = cmd.clone().override_usage(usage.join("\n"));
    let man = clap_mangen::Man::new(synopsis).source(format!("quill {version}"));
    let mut out = Vec::new();
    let rendered = (|| -> std::io::Result<()> {
        man.render_title(&mut out)?;
        man.render_name_section(&mut out)?;
        man.render_synopsis_section(&mut out)?;
        man.render_description_section(&mut out)?;
        if cmd.get_arguments().any(|a| !a.is_hide_set()) {
            man.render_options_section(&mut out)?;
        }
        Ok(())
    })();
    rendered.map_err(|e| Error::invalid_argument(e.to_string()))?;
    // Each clap_mangen block starts with the same two-line preamble (the `Aq` string): once.
    let rendered = String::from_utf8_lossy(&out);
    let mut page = String::new();
    let mut preamble_seen = 0;
    for line in rendered.lines() {
        if line.starts_with(".ie \\n(.g .ds Aq") || line.starts_with(".el .ds Aq") {
            preamble_seen += 1;
            if preamble_seen > 2 {
                continue;
            }
        }
        page.push_str(line);
        page.push('\n');
    }
    commands_section(&mut page, &cmd);
    examples_section(&mut page, &cmd);
    exit_status_section(&mut page, command);
    environment_section(&mut page, command);
    see_also_section(&mut page, command);
    let _ = writeln!(page, ".SH VERSION\n{}", roff_text(version));
    Ok(page)
}

/// The subcommands, each with its synopsis word and about (clap's `help` left out).
fn commands_section(page: &mut String, cmd: &clap::Command) {
    let subs: Vec<&clap::Command> = cmd
        .get_subcommands()
        .filter(|s| s.get_name() != "help" && !s.is_hide_set())
        .collect();
    if subs.is_empty() {
        return;
    }
    page.push_str(".SH COMMANDS\n");
    let parent = cmd.get_bin_name().unwrap_or(cmd.get_name());
    for sub in subs {
        let _ = writeln!(
            page,
            ".TP\n\\fB{}\\fR\n{}",
            roff_text(&format!("{parent} {}", sub.get_name())),
            roff_text(&sub.get_about().map(|a| a.to_string()).unwrap_or_default())
        );
    }
}

/// The `Examples:` block of the command's `--help`, one example a line, as it is printed.
fn examples_section(page: &mut String, cmd: &clap::Command) {
    let Some(after) = cmd.get_after_help().map(|a| a.to_string()) else {
        return;
    };
    let examples: Vec<&str> = after
        .lines()
        .skip_while(|l| l.trim() != "Examples:")
        .skip(1)
        .take_while(|l| !l.trim().is_empty())
        .map(str::trim)
        .collect();
    if examples.is_empty() {
        return;
    }
    page.push_str(".SH EXAMPLES\n.RS 4\n.nf\n");
    for e in examples {
        let _ = writeln!(page, "{}", roff_text(e));
    }
    page.push_str(".fi\n.RE\n");
}

const EXIT_STATUS: [(&str, &str); 5] = [
    ("0", "Success (grep and glob: something was found)."),
    (
        "1",
        "Nothing found: grep or glob found no match, or read's --offset is past the end.",
    ),
    (
        "2",
        "Usage: a command line, option value or environment variable quill cannot take.",
    ),
    (
        "3",
        "Refused by a guard (not read, stale, outside the root, read-only, …); nothing changed.",
    ),
    (
        "4",
        "System or I/O error (not found, permission, no space, lock timeout, …).",
    ),
];

fn exit_status_section(page: &mut String, command: Option<&str>) {
    page.push_str(".SH \"EXIT STATUS\"\n");
    let generator = matches!(command, Some("completions" | "man"));
    for (code, meaning) in EXIT_STATUS {
        if generator && !matches!(code, "0" | "2" | "4") {
            continue;
        }
        let _ = writeln!(page, ".TP\n\\fB{code}\\fR\n{}", roff_text(meaning));
    }
}

/// Every variable quill reads, and whether it belongs to a guard option (`cli::GUARD_OPTIONS`):
/// those are left off the pages of `completions` and `man`.
const ENVIRONMENT: [(&str, bool, &str); 9] = [
    (
        "QUILL_FORMAT",
        false,
        "text or json (any case; empty is unset): the output format when neither --json nor --text is given. Any other value is a usage error.",
    ),
    (
        "QUILL_SESSION",
        true,
        "The session whose read baselines guard changes, when --session is not given (default: default).",
    ),
    (
        "QUILL_STATE_DIR",
        true,
        "Where sessions, locks and undo history live, when --state-dir is not given.",
    ),
    (
        "QUILL_ROOT",
        true,
        "Confine every path to this directory, when --root is not given.",
    ),
    (
        "QUILL_READ_ONLY",
        true,
        "1 or true: refuse every change, as --read-only does (0, false or empty: off).",
    ),
    (
        "QUILL_STRICT",
        true,
        "1 or true: changes need a complete read, as --strict does.",
    ),
    (
        "QUILL_LOCK_TIMEOUT",
        true,
        "Seconds to wait for a file's lock, when --lock-timeout is not given (default: 30).",
    ),
    (
        "NO_COLOR",
        false,
        "Set and not empty: no color with --color auto (--color always still colors).",
    ),
    (
        "XDG_STATE_HOME",
        true,
        "The state directory is $XDG_STATE_HOME/quill (else ~/.local/state/quill) unless --state-dir or QUILL_STATE_DIR says otherwise.",
    ),
];

fn environment_section(page: &mut String, command: Option<&str>) {
    let guard = !matches!(command, Some("completions" | "man"));
    page.push_str(".SH ENVIRONMENT\n");
    for (name, guarded, meaning) in ENVIRONMENT {
        if guarded && !guard {
            continue;
        }
        let _ = writeln!(page, ".TP\n\\fB{name}\\fR\n{}", roff_text(meaning));
    }
}

/// The main page names every command's page; a command's page names the main one.
fn see_also_section(page: &mut String, command: Option<&str>) {
    let refs: Vec<String> = match command {
        None => page_commands()
            .iter()
            .map(|c| format!("\\fBquill\\-{}\\fR(1)", roff_text(c)))
            .collect(),
        Some(_) => vec!["\\fBquill\\fR(1)".to_string()],
    };
    let _ = writeln!(page, ".SH \"SEE ALSO\"\n{}", refs.join(", "));
}

/// Text as roff: backslashes and dashes escaped, a leading `.` or `'` made literal.
fn roff_text(s: &str) -> String {
    let escaped = s.replace('\\', "\\e").replace('-', "\\-");
    if escaped.starts_with(['.', '\'']) {
        format!("\\&{escaped}")
    } else {
        escaped
    }
}
