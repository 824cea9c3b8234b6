//! The run loop: parse the command line, resolve the global options and the environment
//! into `Settings`, have the command resolve its own arguments into a checked request, run
//! it, and hand the report or error to `output`. This is the only place that turns a result
//! into an exit code. It hands the commands that stream (glob, grep) and `output` the stream
//! they write to (`output::stream::Out`): standard output for the binary, none for a run
//! whose answer is held whole (`quill mcp`'s calls, `embed`). What a run may do to the
//! process — catch signals, leave its memory unfreed at exit — is the binary's choice, made
//! in `run_line`; a run inside another program does neither.

use std::env;
use std::ffi::OsString;
use std::io::{self, IsTerminal};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

use clap::FromArgMatches;

use crate::agent;
use crate::cli::drift;
use crate::cli::{self, Cli, ColorChoice, Command};
use crate::cmd;
use crate::error::{Error, Result, UsageDetail, exit};
use crate::fs::paths::Root;
use crate::output::stream::Out;
use crate::output::{self, Format, OutputConfig};
use crate::report::{Report, VersionReport};
use crate::settings::{Origin, Settings};
use crate::warnings::{Warning, Warnings};

pub fn main() -> ExitCode {
    ExitCode::from(run_line(env::args_os().collect(), Origin::process()))
}

/// What one command line came to, for `output` to print or `capture`.
pub(crate) struct Answer {
    /// The op of the envelope: null when no subcommand was identified.
    op: Option<String>,
    result: Result<Report>,
    warnings: Vec<Warning>,
    output: OutputConfig,
}

/// What a run built besides its answer: clap's command, and the settings with the session
/// the run kept (up to 512 baselines). Every lock and temporary file was released with its
/// own guard; this is memory only, and the caller decides what becomes of it.
pub(crate) struct Built {
    command: clap::Command,
    settings: Option<Settings>,
}

/// Parse one command line and run it as the binary: the process's own, or the one `quill
/// call` made. The process is the binary's: the answer goes to standard output, a command
/// that changes files runs with Ctrl-C and SIGTERM caught (`own`), and the process dies by
/// a signal caught once it has answered.
fn run_line(args: Vec<OsString>, origin: Origin) -> u8 {
    let out = Out::stdout();
    let (answer, built) = match answer(args, origin, Some(&out), |cli| own(cli, &out)) {
        Ok(answered) => answered,
        Err(code) => return code,
    };
    let Answer {
        op,
        result,
        warnings,
        output,
    } = answer;
    let code = match result {
        Ok(report) => output::emit(
            &out,
            &output,
            op.as_deref().unwrap_or_default(),
            &report,
            &warnings,
        ),
        Err(e) => output::emit_error(&out, &output, op.as_deref(), &e, &warnings),
    };
    // A typed command ends with this answer: what it built goes with the process's memory,
    // unfreed (freeing clap's hundreds of arguments cost ~3% of an edit's user time).
    std::mem::forget(built);
    // Abandoned cleanly (or, if the signal came too late for that, done) and said so: now die
    // by the signal (docs/json.md), whatever the answer, so that a shell loop stops.
    crate::signals::die_if_caught();
    code
}

/// The binary's own part of a parsed command line: it runs the commands that are a loop of
/// their own (`call`, `mcp`) and returns their exit code; for a command that changes files
/// it catches SIGINT and SIGTERM from now on (`signals`), so that an interruption is
/// abandoned cleanly; the others keep the default actions.
fn own(cli: &Cli, out: &Out) -> Option<u8> {
    match cli.command {
        Command::Call(_) => Some(call(&cli.global, out)),
        Command::Mcp(_) => {
            // Every call in flight is abandoned cleanly, then the server stops.
            crate::signals::install();
            Some(crate::agent::mcp::serve(&cli.global, run_embedded))
        }
        ref command => {
            if changes_files(command) {
                crate::signals::install();
            }
            None
        }
    }
}

/// The commands that change files.
fn changes_files(command: &Command) -> bool {
    matches!(
        command,
        Command::Write(_)
            | Command::Edit(_)
            | Command::Undo(_)
            | Command::Rm(_)
            | Command::Apply(_)
            | Command::Transfer(_)
    )
}

/// Parse one command line and run it to its answer, printing nothing but what streams to
/// `out` (none: the answer is held whole) — and, outside `quill mcp`, help and version,
/// which clap prints itself (`Err` with the exit code). `own` runs the commands that are a
/// loop of their own (`call`, `mcp`) and returns their exit code (`Err` too); it answers
/// `None` for the others.
pub(crate) fn answer(
    args: Vec<OsString>,
    origin: Origin,
    out: Option<&Out>,
    own: impl FnOnce(&Cli) -> Option<u8>,
) -> std::result::Result<(Answer, Built), u8> {
    let embedded = origin.embedded;
    // A server's calls on this thread parse with one built command (building and freeing
    // clap's hundreds of arguments was most of a call's CPU time).
    let mut command = match embedded {
        true => BUILT
            .with(|b| b.borrow_mut().take())
            .unwrap_or_else(cli::command),
        false => parser(&args),
    };
    let args = drift::path_flag_as_positional(args, &command);
    let parsed = command.try_get_matches_from_mut(&args).and_then(|m| {
        let mut cli = Cli::from_arg_matches(&m)?;
        cli::take_vocabulary(&mut cli, &m);
        Ok(cli)
    });
    let (answer, settings) = match parsed {
        Ok(cli) => match drift::flag_taken_as_value(&args, &command) {
            None => match own(&cli) {
                Some(code) => return Err(code),
                None => run(cli, origin, out),
            },
            Some(e) => (early_error(&args, Some(cli.command.op()), e), None),
        },
        Err(err) => (parse_failure(&args, err, !embedded)?, None),
    };
    Ok((answer, Built { command, settings }))
}

/// The parser of one typed command line: built only as far as it needs (`cli::command_for`),
/// or whole when its subcommand word is not a subcommand's own name.
fn parser(args: &[OsString]) -> clap::Command {
    let root = cli::root();
    drift::subcommand_word(args, &root)
        .map(str::to_owned)
        .and_then(|op| cli::command_for(root, &op))
        .unwrap_or_else(cli::command)
}

thread_local! {
    /// The command line parser a `quill mcp` call on this thread used last.
    static BUILT: std::cell::RefCell<Option<clap::Command>> = const { std::cell::RefCell::new(None) };
}

/// One tool call of `quill mcp` (or one `embed` call): its command line run to the answer,
/// held whole in both forms (`output::capture`), printing nothing. Clap's command is kept
/// for the thread's next call; the settings are dropped.
fn run_embedded(args: Vec<OsString>, origin: Origin) -> output::Captured {
    run_held(args, origin).0
}

/// `run_embedded`, and the answer's exit code.
pub(crate) fn run_held(args: Vec<OsString>, origin: Origin) -> (output::Captured, u8) {
    match answer(args, origin, None, |_| None) {
        Ok((a, Built { command, settings })) => {
            BUILT.with(|b| *b.borrow_mut() = Some(command));
            drop(settings);
            let code = match &a.result {
                Ok(report) => report.exit_code(),
                Err(e) => e.exit_code(),
            };
            let captured = output::capture(&a.output, a.op.as_deref(), &a.result, &a.warnings);
            (captured, code)
        }
        // A tool's command line asks for no help, version, call or server.
        Err(_) => {
            let e = Error::usage("the call asked for something that is not a tool's answer");
            let code = e.exit_code();
            (output::capture_refusal("call", e), code)
        }
    }
}

/// `quill call`: the request on stdin as the command line the CLI would get, parsed and run
/// by `run_line` like any other (never `call` again: the request names a tool).
fn call(global: &cli::GlobalArgs, out: &Out) -> u8 {
    match agent::call::command_line(global) {
        Ok((args, stdin)) => run_line(
            args.clone(),
            Origin {
                argv: args,
                stdin: Some(stdin),
                ..Origin::default()
            },
        ),
        Err(r) => output::emit_error(out, &plain_output(Format::Json), Some(r.op), &r.error, &[]),
    }
}

/// An error found before `Settings` exist, in the format and colors the command line asks for.
fn early_error(args: &[OsString], op: Option<&str>, e: Error) -> Answer {
    let format = if wants_json(args) {
        Format::Json
    } else {
        Format::Text
    };
    let mut cfg = plain_output(format);
    cfg.color_stderr = color_for(color_arg(args), io::stderr().is_terminal());
    Answer {
        op: op.map(str::to_string),
        result: Err(e),
        warnings: Vec::new(),
        output: cfg,
    }
}

/// Help and version (exit 0; clap prints them when `print`), or a usage error in quill's one
/// error style: text on stderr (`quill: error: …`, the usage line, the hint) or the JSON
/// error object.
fn parse_failure(
    args: &[OsString],
    err: clap::Error,
    print: bool,
) -> std::result::Result<Answer, u8> {
    use clap::error::ErrorKind;
    let json = wants_json(args);
    let shown = |err: &clap::Error| {
        if print {
            let _ = err.print();
        }
    };
    match err.kind() {
        ErrorKind::DisplayHelp => {
            shown(&err);
            return Err(exit::SUCCESS);
        }
        ErrorKind::DisplayVersion if json => {
            return Ok(Answer {
                op: Some("version".into()),
                result: Ok(Report::Version(VersionReport {
                    version: env!("CARGO_PKG_VERSION"),
                    commit: cli::COMMIT,
                    date: cli::COMMIT_DATE,
                })),
                warnings: Vec::new(),
                output: plain_output(Format::Json),
            });
        }
        ErrorKind::DisplayVersion => {
            shown(&err);
            return Err(exit::SUCCESS);
        }
        // `quill` alone: the help, on stderr, as clap prints it; exit 2.
        ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand if !json => {
            shown(&err);
            return Err(exit::USAGE);
        }
        _ => {}
    }
    // `op` is the subcommand clap identified; null when it found none (`quill frobnicate`).
    let op = drift::subcommand_named(args, &cli::command());
    let e = usage_error(args, &err, op.as_deref());
    Ok(early_error(args, op.as_deref(), e))
}

/// `Usage: quill OP [OPTIONS] …` of a subcommand (or of quill, for none).
fn usage_of(op: Option<&str>) -> Option<String> {
    let mut root = cli::command();
    root.build();
    let cmd = match op {
        None => &mut root,
        Some(op) => root.find_subcommand_mut(op)?,
    };
    Some(cmd.render_usage().to_string())
}

/// Output settings for what is printed before `Settings` exist.
fn plain_output(format: Format) -> OutputConfig {
    OutputConfig {
        format,
        color: false,
        color_stderr: false,
        cwd: PathBuf::from("/"),
        stdout_is_terminal: io::stdout().is_terminal(),
    }
}

/// `--color WHEN` as given on a command line clap could not parse (last one wins).
fn color_arg(args: &[OsString]) -> ColorChoice {
    let mut choice = ColorChoice::Auto;
    let mut it = args.iter().skip(1).map(|a| a.to_str().unwrap_or(""));
    while let Some(a) = it.next() {
        let value = match a {
            "--" => break,
            "--color" => it.next().unwrap_or(""),
            _ => match a.strip_prefix("--color=") {
                Some(v) => v,
                None => continue,
            },
        };
        choice = match value {
            "always" => ColorChoice::Always,
            "never" => ColorChoice::Never,
            _ => ColorChoice::Auto,
        };
    }
    choice
}

/// A clap error as `Error::Usage`: clap's message (without its tips and usage block), the
/// offending argument and clap's suggestion as fields, clap's tip as the hint. An unknown
/// long flag is judged by `drift` instead: the flag meant and the corrected call, or no
/// suggestion at all.
fn usage_error(args: &[OsString], err: &clap::Error, op: Option<&str>) -> Error {
    use clap::error::{ContextKind, ContextValue};
    let rendered = err.to_string();
    let message = rendered
        .split("\n\n")
        .next()
        .unwrap_or("")
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect::<Vec<_>>()
        .join(" ");
    let message = message
        .strip_prefix("error: ")
        .unwrap_or(&message)
        .to_string();
    let tips: Vec<&str> = rendered
        .lines()
        .filter_map(|l| l.trim().strip_prefix("tip: "))
        .collect();
    let text = |kind: ContextKind| match err.get(kind)? {
        ContextValue::String(s) => Some(s.clone()),
        ContextValue::Strings(v) if !v.is_empty() => Some(v.join(" ")),
        ContextValue::StyledStr(s) => Some(s.to_string()),
        _ => None,
    };
    // An option as typed: `--sort`, not clap's `--sort <SORT>`.
    let argument = text(ContextKind::InvalidArg)
        .map(|a| match a.split_whitespace().next() {
            Some(flag) if a.starts_with('-') => flag.to_string(),
            _ => a,
        })
        .or_else(|| text(ContextKind::InvalidSubcommand));
    let mut suggestion = text(ContextKind::SuggestedArg)
        .or_else(|| text(ContextKind::SuggestedSubcommand))
        .or_else(|| text(ContextKind::SuggestedValue));
    let mut tips = (!tips.is_empty()).then(|| tips.join("; "));
    let mut fix = None;
    // clap names the usage for some errors only; else the usage of the command at hand.
    let mut usage = text(ContextKind::Usage);
    // An unknown flag: the canonical flag and its partner, or nothing unrelated (clap's usage
    // line is built around its suggestion, so it goes with it).
    if err.kind() == clap::error::ErrorKind::UnknownArgument
        && let Some(flag) = argument.as_deref().filter(|a| a.starts_with("--"))
    {
        let advice = drift::unknown_flag(args, &cli::command(), op, flag);
        if advice.suggestion != suggestion {
            usage = None;
        }
        suggestion = advice.suggestion;
        fix = advice.fix;
        tips = None;
    }
    let usage = usage.or_else(|| usage_of(op)).map(|u| {
        u.lines()
            .map(|l| l.trim())
            .map(|l| l.strip_prefix("Usage:").unwrap_or(l).trim())
            .filter(|l| !l.is_empty())
            .collect::<Vec<_>>()
            .join("\n")
    });
    Error::Usage {
        message: if message.is_empty() {
            err.kind().to_string()
        } else {
            message
        },
        detail: Box::new(UsageDetail {
            argument,
            suggestion,
            usage: usage.filter(|u| !u.is_empty()),
            tip: tips,
            fix,
        }),
    }
}

/// Whether a command line clap could not parse asked for JSON (an invalid `QUILL_FORMAT`
/// counts as text here: the usage error at hand comes first).
fn wants_json(args: &[OsString]) -> bool {
    let mut json = matches!(env_format(), Ok(Some(Format::Json)));
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

/// Resolve the settings and run the command, streaming to `out` if it streams.
fn run(cli: Cli, origin: Origin, out: Option<&Out>) -> (Answer, Option<Settings>) {
    let op = cli.command.op();
    let settings = match settings(&cli, origin) {
        Ok(s) => s,
        Err(e) => {
            let answer = Answer {
                op: Some(op.into()),
                result: Err(e),
                warnings: Vec::new(),
                output: plain_output(format_of(&cli).unwrap_or(Format::Text)),
            };
            return (answer, None);
        }
    };
    let result = dispatch(&settings, cli.command, out).map_err(|mut e| {
        crate::search::missing::explain(&settings, op, &mut e);
        e
    });
    let answer = Answer {
        op: Some(op.into()),
        result,
        warnings: settings.warnings.take(),
        output: settings.output.clone(),
    };
    (answer, Some(settings))
}

/// Resolve the command's arguments into its request (no guarded I/O yet), then run it; glob
/// and grep get `out` to stream to.
fn dispatch(s: &Settings, command: Command, out: Option<&Out>) -> Result<Report> {
    // A multi-file change a crash interrupted is finished (or rolled back) before any file is
    // read or changed (docs/model.md).
    if matches!(
        command,
        Command::Read(_)
            | Command::Write(_)
            | Command::Edit(_)
            | Command::Undo(_)
            | Command::Rm(_)
            | Command::Apply(_)
            | Command::Transfer(_)
            | Command::State(_)
    ) {
        crate::guard::journal::recover(s);
    }
    match command {
        Command::Read(args) => cmd::read::run(s, args.resolve(s)?),
        Command::Write(args) => cmd::write::run(s, args.resolve(s)?),
        Command::Edit(args) => cmd::edit::run(s, args.resolve(s)?),
        Command::Glob(args) => cmd::glob::run(s, args.resolve(s, out.cloned())?),
        Command::Grep(args) => cmd::grep::run(s, args.resolve(s, out.cloned())?),
        Command::Transfer(args) => cmd::transfer::dispatch(s, args),
        Command::Undo(args) => cmd::undo::run(s, args.resolve(s)?),
        Command::Rm(args) => cmd::rm::run(s, args.resolve(s)?),
        Command::Apply(args) => cmd::apply::run(s, args.resolve(s)?),
        Command::State(args) => cmd::state::run(s, args.resolve(s)?),
        Command::Tools(args) => agent::tools::run(&args),
        Command::Guide(_) => agent::guide::run(),
        // Run by `call` before any `Settings`: the request's command line is the one run.
        Command::Call(_) => Err(Error::usage("quill call takes its request on stdin")),
        Command::Mcp(_) => Err(Error::usage("quill mcp serves tool calls; it is not one")),
        Command::Completions(args) => cmd::generate::completions(&args),
        Command::Man(args) => cmd::generate::man(&args),
        Command::Schema(args) => Ok(cmd::generate::schema(&args)),
    }
}

/// `--json` or `--text`, else `QUILL_FORMAT`, else text. Like every variable with a flag, the
/// variable is read only when no flag decides; then a value other than `text` or `json`
/// (any case; empty counts as unset) is a usage error.
fn format_of(cli: &Cli) -> Result<Format> {
    if cli.global.json {
        Ok(Format::Json)
    } else if cli.global.text {
        Ok(Format::Text)
    } else {
        Ok(env_format()?.unwrap_or(Format::Text))
    }
}

/// `QUILL_FORMAT`: `None` when unset or empty.
fn env_format() -> Result<Option<Format>> {
    let Some(v) = env_var("QUILL_FORMAT") else {
        return Ok(None);
    };
    match v.to_str() {
        Some(v) if v.eq_ignore_ascii_case("json") => Ok(Some(Format::Json)),
        Some(v) if v.eq_ignore_ascii_case("text") => Ok(Some(Format::Text)),
        _ => Err(Error::Usage {
            message: format!(
                "invalid value '{}' for QUILL_FORMAT: use 'text' or 'json'",
                v.to_string_lossy()
            ),
            detail: Box::new(UsageDetail {
                argument: Some("QUILL_FORMAT".into()),
                tip: Some("unset QUILL_FORMAT or set it to text or json".into()),
                ..UsageDetail::default()
            }),
        }),
    }
}

/// A variable of the environment; set but empty counts as unset (`export QUILL_ROOT=` is how
/// a shell script says "no root").
fn env_var(name: &str) -> Option<OsString> {
    env::var_os(name).filter(|v| !v.is_empty())
}

fn settings(cli: &Cli, origin: Origin) -> Result<Settings> {
    let g = &cli.global;
    let format = format_of(cli)?;
    // Inside `quill mcp` stdout is the protocol's and stderr its log: no terminal there.
    let stdout_is_terminal = !origin.embedded && io::stdout().is_terminal();
    let stderr_is_terminal = !origin.embedded && io::stderr().is_terminal();
    let color = color_for(g.color, stdout_is_terminal) && format == Format::Text;
    let color_stderr = color_for(g.color, stderr_is_terminal);
    // A deleted current directory has no name: use the shell's $PWD, so absolute paths still
    // work (relative ones then fail as not_found, naming the path they meant).
    let cwd = match origin.cwd.clone() {
        Some(dir) => Ok(dir),
        None => env::current_dir(),
    };
    let cwd = cwd.or_else(|e| {
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
        merge: g.merge,
        keep_reads: !g.no_keep_reads && !env_off("QUILL_KEEP_READS"),
        lock_timeout,
        output: OutputConfig {
            format,
            color,
            color_stderr,
            cwd: cwd.clone(),
            stdout_is_terminal,
        },
        list_limit: list_limit()?,
        cwd,
        stderr_is_terminal,
        warnings: Warnings::default(),
        state_cache: Default::default(),
        origin,
    })
}
/// Whether the environment variable `name` turns a switch off (`0`, `f`, `false`, `n`, `no`,
/// `off`, as clap's falsey values; empty counts as unset).
fn env_off(name: &str) -> bool {
    env::var(name).is_ok_and(|v| {
        matches!(
            v.trim().to_ascii_lowercase().as_str(),
            "0" | "f" | "false" | "n" | "no" | "off"
        )
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

/// `--state-dir`, else `$QUILL_STATE_DIR`, else the system's own place (Windows:
/// `%LOCALAPPDATA%\quill\state`), else `$XDG_STATE_HOME/quill`, else `~/.local/state/quill`.
fn state_dir(explicit: Option<&Path>, cwd: &Path) -> PathBuf {
    if let Some(dir) = explicit.filter(|d| !d.as_os_str().is_empty()) {
        return cwd.join(dir);
    }
    if let Some(dir) = crate::sys::system_state_dir() {
        return dir;
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
        None => crate::sys::homeless_state_dir(),
    }
}
