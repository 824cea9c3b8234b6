//! The run loop: parse the command line, resolve the global options into a `Context`
//! (session, state directory, root, format, lock timeout), dispatch to the command, and hand
//! the report or error to `output`. This is the only place that turns a result into an exit
//! code.

use std::env;
use std::ffi::OsString;
use std::io::{self, IsTerminal};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Mutex;
use std::time::Duration;

use clap::Parser;

use crate::cli::{Cli, ColorChoice, Command};
use crate::error::{Error, Result, exit};
use crate::output::{self, Format, Report};
use crate::paths::Root;

/// Everything a command needs to know besides its own arguments.
pub struct Context {
    pub format: Format,
    /// Color on stdout.
    pub color: bool,
    pub session: String,
    pub state_dir: PathBuf,
    pub root: Option<Root>,
    pub read_only: bool,
    pub strict: bool,
    pub lock_timeout: Duration,
    pub cwd: PathBuf,
    pub stderr_is_terminal: bool,
    /// Color on stderr (errors and warnings in text mode).
    pub color_stderr: bool,
    warnings: Mutex<Vec<String>>,
}

impl Context {
    pub fn warn(&self, message: impl Into<String>) {
        if let Ok(mut w) = self.warnings.lock() {
            w.push(message.into());
        }
    }

    pub fn take_warnings(&self) -> Vec<String> {
        self.warnings
            .lock()
            .map(|mut w| std::mem::take(&mut *w))
            .unwrap_or_default()
    }

    /// Refuse a mutation when running read-only.
    pub fn check_writable(&self, path: &Path, action: &'static str) -> Result<()> {
        if self.read_only {
            return Err(Error::ReadOnly {
                path: path.to_path_buf(),
                action,
            });
        }
        Ok(())
    }

    /// A context for tests and benches: JSON, no color, the given state dir.
    pub fn for_tests(state_dir: PathBuf) -> Context {
        Context {
            format: Format::Json,
            color: false,
            session: "default".into(),
            state_dir,
            root: None,
            read_only: false,
            strict: false,
            lock_timeout: Duration::from_secs(30),
            cwd: env::current_dir().unwrap_or_else(|_| PathBuf::from("/")),
            stderr_is_terminal: false,
            color_stderr: false,
            warnings: Mutex::new(Vec::new()),
        }
    }
}

pub fn main() -> ExitCode {
    // `export QUILL_ROOT=` means "unset" to a shell script; clap would call it a missing value.
    for var in [
        "QUILL_SESSION",
        "QUILL_STATE_DIR",
        "QUILL_ROOT",
        "QUILL_LOCK_TIMEOUT",
        "QUILL_FORMAT",
    ] {
        if env::var_os(var).is_some_and(|v| v.is_empty()) {
            // SAFETY: nothing else runs yet: no thread reads the environment concurrently.
            unsafe { env::remove_var(var) };
        }
    }
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
    let ctx = match context(&cli) {
        Ok(ctx) => ctx,
        Err(e) => {
            let format = format_of(&cli);
            return output::emit_error(format, false, op, &e, &[]);
        }
    };
    let result = dispatch(&ctx, cli.command);
    let warnings = ctx.take_warnings();
    match result {
        Ok(report) => output::emit(&ctx, op, &report, &warnings),
        Err(e) => output::emit_error(ctx.format, ctx.color_stderr, op, &e, &warnings),
    }
}

fn dispatch(ctx: &Context, command: Command) -> Result<Report> {
    use crate::cmd;
    if matches!(
        command,
        Command::Write(_) | Command::Edit(_) | Command::Undo(_) | Command::Transfer(_)
    ) {
        crate::signals::install();
    }
    match command {
        Command::Read(args) => cmd::read::run(ctx, &args),
        Command::Write(args) => cmd::write::run(ctx, &args),
        Command::Edit(args) => cmd::edit::run(ctx, &args),
        Command::Glob(args) => cmd::glob::run(ctx, &args),
        Command::Grep(args) => cmd::grep::run(ctx, &args),
        Command::Transfer(args) => cmd::transfer::run(ctx, &args),
        Command::Undo(args) => cmd::undo::run(ctx, &args),
        Command::State(args) => cmd::state::run(ctx, &args),
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

fn context(cli: &Cli) -> Result<Context> {
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
    let session = match g.session.as_deref() {
        Some("") => {
            return Err(Error::invalid_argument(
                "the session name must not be empty",
            ));
        }
        Some(s) => s.to_string(),
        None => "default".to_string(),
    };
    let lock_timeout = match g.lock_timeout {
        None => Duration::from_secs(30),
        Some(s) if s.is_finite() && s >= 0.0 => Duration::from_secs_f64(s.min(86_400.0)),
        Some(s) => {
            return Err(Error::invalid_argument(format!(
                "--lock-timeout must be a number of seconds >= 0, not {s}"
            )));
        }
    };
    let root = match &g.root {
        Some(dir) => Some(Root::new(&cwd.join(dir))?),
        None => None,
    };
    Ok(Context {
        format,
        color,
        session,
        state_dir: state_dir(g.state_dir.as_deref(), &cwd),
        root,
        read_only: g.read_only,
        strict: g.strict,
        lock_timeout,
        cwd,
        stderr_is_terminal: io::stderr().is_terminal(),
        color_stderr,
        warnings: Mutex::new(Vec::new()),
    })
}

/// Whether to color a stream: `--color always` wins over NO_COLOR (no-color.org), `never`
/// never, `auto` only on a terminal without NO_COLOR.
fn color_for(choice: ColorChoice, terminal: bool) -> bool {
    match choice {
        ColorChoice::Always => true,
        ColorChoice::Never => false,
        ColorChoice::Auto => env::var_os("NO_COLOR").is_none_or(|v| v.is_empty()) && terminal,
    }
}

/// `--state-dir`, else `$QUILL_STATE_DIR` (both via clap), else `$XDG_STATE_HOME/quill`, else
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
        // No home: a per-user directory; `state::ensure_dirs` refuses it unless we own it.
        None => PathBuf::from(format!(
            "/tmp/quill-state-{}",
            rustix::process::geteuid().as_raw()
        )),
    }
}
