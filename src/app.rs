//! The run loop: parse the command line, resolve the global options and the environment
//! into `Settings`, have the command resolve its own arguments into a checked request, run
//! it, and hand the report or error to `output`. This is the only place that turns a result
//! into an exit code.

use std::env;
use std::ffi::OsString;
use std::io::{self, IsTerminal};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

use clap::Parser;

use crate::cli::{Cli, ColorChoice, Command};
use crate::cmd;
use crate::error::{Error, Result, exit};
use crate::output::{self, Format, OutputConfig};
use crate::paths::Root;
use crate::report::Report;
use crate::settings::Settings;
use crate::warnings::Warnings;

pub fn main() -> ExitCode {
    let args: Vec<OsString> = env::args_os().collect();
    let code = match Cli::try_parse_from(&args) {
        Ok(cli) => run(cli),
        Err(err) => parse_failure(&args, err),
    };
    ExitCode::from(code)
}

fn parse_failure(args: &[OsString], err: clap::Error) -> u8 {
    use clap::error::ErrorKind;
    if matches!(
        err.kind(),
        ErrorKind::DisplayHelp | ErrorKind::DisplayVersion
    ) {
        let _ = err.print();
        return exit::SUCCESS;
    }
    if wants_json(args) {
        let op = guess_op(args);
        let e = Error::usage(one_line(&err.to_string()));
        output::print_json_error(op, &e, &[]);
    } else {
        let _ = err.print();
    }
    exit::USAGE
}

/// clap's message on one line: the error and its details, without the usage block.
fn one_line(s: &str) -> String {
    s.lines()
        .map(str::trim)
        .take_while(|l| !l.starts_with("Usage:") && !l.starts_with("For more information"))
        .filter(|l| !l.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
        .trim_start_matches("error: ")
        .to_string()
}

fn wants_json(args: &[OsString]) -> bool {
    let mut json = env::var("QUILL_FORMAT").is_ok_and(|v| v.eq_ignore_ascii_case("json"));
    for a in args.iter().skip(1) {
        if a == "--json" {
            json = true;
        } else if a == "--text" {
            json = false;
        } else if a == "--" {
            break;
        }
    }
    json
}

fn guess_op(args: &[OsString]) -> &'static str {
    const OPS: [&str; 10] = [
        "read",
        "write",
        "edit",
        "glob",
        "grep",
        "transfer",
        "undo",
        "state",
        "completions",
        "man",
    ];
    args.iter()
        .skip(1)
        .find_map(|a| OPS.iter().find(|op| a.to_str() == Some(op)).copied())
        .unwrap_or("usage")
}

fn run(cli: Cli) -> u8 {
    let op = cli.command.op();
    let settings = match settings(&cli) {
        Ok(s) => s,
        Err(e) => {
            let cfg = OutputConfig {
                format: format_of(&cli),
                color: false,
                color_stderr: false,
                cwd: PathBuf::from("/"),
                stdout_is_terminal: io::stdout().is_terminal(),
            };
            return output::emit_error(&cfg, op, &e, &[]);
        }
    };
    let result = dispatch(&settings, cli.command);
    let warnings = settings.warnings.take();
    match result {
        Ok(report) => output::emit(&settings.output, op, &report, &warnings),
        Err(e) => {
            let code = output::emit_error(&settings.output, op, &e, &warnings);
            if matches!(e, Error::Interrupted) {
                // Abandoned cleanly and said so: now die by the signal (SPEC §2.1).
                crate::signals::die_if_caught();
            }
            code
        }
    }
}

/// Resolve the command's arguments into its request (no guarded I/O yet), then run it.
fn dispatch(s: &Settings, command: Command) -> Result<Report> {
    if matches!(
        command,
        Command::Write(_) | Command::Edit(_) | Command::Undo(_) | Command::Transfer(_)
    ) {
        crate::signals::install();
    }
    match command {
        Command::Read(args) => cmd::read::run(s, args.resolve(s)?),
        Command::Write(args) => cmd::write::run(s, args.resolve(s)?),
        Command::Edit(args) => cmd::edit::run(s, args.resolve(s)?),
        Command::Glob(args) => cmd::glob::run(s, args.resolve(s)?),
        Command::Grep(args) => cmd::grep::run(s, args.resolve(s)?),
        Command::Transfer(args) => cmd::transfer::run(s, args.resolve(s)?),
        Command::Undo(args) => cmd::undo::run(s, args.resolve(s)?),
        Command::State(args) => cmd::state::run(s, args.resolve(s)?),
        Command::Completions(args) => cmd::generate::completions(&args),
        Command::Man(args) => cmd::generate::man(&args),
    }
}

fn format_of(cli: &Cli) -> Format {
    if cli.global.json {
        Format::Json
    } else if cli.global.text {
        Format::Text
    } else if env::var("QUILL_FORMAT").is_ok_and(|v| v.eq_ignore_ascii_case("json")) {
        Format::Json
    } else {
        Format::Text
    }
}

/// A variable of the environment; set but empty counts as unset (`export QUILL_ROOT=` is how
/// a shell script says "no root").
fn env_var(name: &str) -> Option<OsString> {
    env::var_os(name).filter(|v| !v.is_empty())
}

fn settings(cli: &Cli) -> Result<Settings> {
    let g = &cli.global;
    let format = format_of(cli);
    let color = color_for(g.color, io::stdout().is_terminal()) && format == Format::Text;
    let color_stderr = color_for(g.color, io::stderr().is_terminal());
    // A deleted current directory has no name: use the shell's $PWD, so absolute paths still
    // work (relative ones then fail as not_found, naming the path they meant).
    let cwd = env::current_dir().or_else(|e| {
        env::var_os("PWD")
            .map(PathBuf::from)
            .filter(|p| p.is_absolute())
            .ok_or_else(|| {
                Error::io(
                    "get the current directory (was it deleted?) of",
                    Path::new("."),
                    e,
                )
            })
    })?;
    let session = match &g.session {
        Some(s) if s.is_empty() => {
            return Err(Error::invalid_argument(
                "the session name must not be empty",
            ));
        }
        Some(s) => s.clone(),
        None => match env_var("QUILL_SESSION") {
            Some(v) => v
                .into_string()
                .map_err(|_| Error::invalid_argument("QUILL_SESSION must be valid UTF-8"))?,
            None => "default".to_string(),
        },
    };
    let lock_timeout = match g.lock_timeout {
        Some(secs) => Some(secs),
        None => match env_var("QUILL_LOCK_TIMEOUT") {
            Some(v) => Some(
                v.to_str()
                    .and_then(|v| v.trim().parse::<f64>().ok())
                    .ok_or_else(|| {
                        Error::usage(format!(
                            "invalid value '{}' for QUILL_LOCK_TIMEOUT: a number of seconds",
                            v.to_string_lossy()
                        ))
                    })?,
            ),
            None => None,
        },
    };
    let lock_timeout = match lock_timeout {
        None => Duration::from_secs(30),
        Some(s) if s.is_finite() && s >= 0.0 => Duration::from_secs_f64(s.min(86_400.0)),
        Some(s) => {
            return Err(Error::invalid_argument(format!(
                "--lock-timeout must be a number of seconds >= 0, not {s}"
            )));
        }
    };
    let root_dir = g
        .root
        .clone()
        .filter(|d| !d.as_os_str().is_empty())
        .or_else(|| env_var("QUILL_ROOT").map(PathBuf::from));
    let root = match root_dir {
        Some(dir) => Some(Root::new(&cwd.join(dir))?),
        None => None,
    };
    let explicit_state = g
        .state_dir
        .clone()
        .filter(|d| !d.as_os_str().is_empty())
        .or_else(|| env_var("QUILL_STATE_DIR").map(PathBuf::from));
    Ok(Settings {
        session,
        state_dir: state_dir(explicit_state.as_deref(), &cwd),
        root,
        read_only: g.read_only,
        strict: g.strict,
        lock_timeout,
        output: OutputConfig {
            format,
            color,
            color_stderr,
            cwd: cwd.clone(),
            stdout_is_terminal: io::stdout().is_terminal(),
        },
        list_limit: list_limit()?,
        cwd,
        stderr_is_terminal: io::stderr().is_terminal(),
        warnings: Warnings::default(),
    })
}
/// Whether to color a stream, decided as anstream's `AutoStream::choice` does, with one
/// difference (`TERM=dumb` always wins in `auto`). In order, the first that applies:
///
/// 1. `--color always` colors, `--color never` does not (the flag beats the environment);
/// 2. `NO_COLOR` set and non-empty: no color (no-color.org);
/// 3. `CLICOLOR_FORCE` set, non-empty and not `0`: color, even when not a terminal;
/// 4. `CLICOLOR=0`: no color;
/// 5. not a terminal: no color;
/// 6. `TERM=dumb`: no color; `TERM` unset: color only with `CLICOLOR` (non-zero) or `CI`;
/// 7. otherwise color.
fn color_for(choice: ColorChoice, terminal: bool) -> bool {
    match choice {
        ColorChoice::Always => true,
        ColorChoice::Never => false,
        ColorChoice::Auto => {
            let clicolor = anstyle_query::clicolor();
            if anstyle_query::no_color() {
                false
            } else if env::var_os("CLICOLOR_FORCE").is_some_and(|v| !v.is_empty() && v != "0") {
                true
            } else if clicolor == Some(false) || !terminal {
                false
            } else {
                match env::var_os("TERM") {
                    Some(t) if t == "dumb" => false,
                    Some(_) => true,
                    None => clicolor == Some(true) || anstyle_query::is_ci(),
                }
            }
        }
    }
}

/// `QUILL_LIMIT`: the `--limit` of glob and grep when the command line gives none (0 = no
/// limit), so a script can ask for whole results once for every call.
fn list_limit() -> Result<Option<usize>> {
    let Some(v) = env_var("QUILL_LIMIT") else {
        return Ok(None);
    };
    v.to_str()
        .and_then(|v| v.trim().parse::<usize>().ok())
        .map(Some)
        .ok_or_else(|| {
            Error::usage(format!(
                "invalid value '{}' for QUILL_LIMIT: a number of entries (0 = all)",
                v.to_string_lossy()
            ))
        })
}

/// `--state-dir`, else `$QUILL_STATE_DIR`, else `$XDG_STATE_HOME/quill`, else
/// `~/.local/state/quill`.
fn state_dir(explicit: Option<&Path>, cwd: &Path) -> PathBuf {
    if let Some(dir) = explicit.filter(|d| !d.as_os_str().is_empty()) {
        return cwd.join(dir);
    }
    if let Some(xdg) = env::var_os("XDG_STATE_HOME").filter(|v| !v.is_empty()) {
        let xdg = PathBuf::from(xdg);
        if xdg.is_absolute() {
            return xdg.join("quill");
        }
    }
    match env::var_os("HOME").filter(|v| !v.is_empty()) {
        Some(home) => PathBuf::from(home).join(".local/state/quill"),
        // No home: a per-user directory; `Store::ensure_dirs` refuses it unless we own it.
        None => PathBuf::from(format!(
            "/tmp/quill-state-{}",
            rustix::process::geteuid().as_raw()
        )),
    }
}
