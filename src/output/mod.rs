//! Output: turns a command's `Report` (or an `Error`) into exactly one JSON object on stdout,
//! or into text for people (stdout for results, stderr for warnings and errors). The JSON
//! envelope is `{"ok": true, "op": OP, …report fields…, "warnings": [{"kind", "message"}…]}`
//! on success and `{"ok": false, "op": OP, "error": {"kind", "message", "hint", …fields},
//! "warnings": […]}` on failure (`op` null when no subcommand was identified), written straight from typed structs with serde. It depends on
//! `report` and `error`, never on `cmd` or `app`, and never touches the file system. It
//! prints to the `Out` that `app` hands it (`stream::Out`: standard output), where glob and
//! grep have streamed the start of the answer; a closed stdout (`| head`) is a quiet success.

pub(crate) mod palette;
pub(crate) mod progress;
pub(crate) mod search;
pub(crate) mod stream;
pub(crate) mod text;

use std::io::{self, Write};
use std::path::{Path, PathBuf};

use serde::Serialize;

use self::stream::Out;
use crate::error::{Error, exit};
use crate::report::{AsTyped, Report};
use crate::warnings::Warning;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Format {
    Text,
    Json,
}

/// How results are printed.
#[derive(Debug, Clone)]
pub(crate) struct OutputConfig {
    pub format: Format,
    /// Color on stdout (text results).
    pub color: bool,
    /// Color on stderr (errors and warnings in text mode).
    pub color_stderr: bool,
    /// Text output shows paths below this directory relative to it (unless below a path
    /// argument, shown as typed: see `Shown`).
    pub cwd: PathBuf,
    /// Stdout is a terminal (a person reads it, not a script).
    pub stdout_is_terminal: bool,
}

/// How text output names a file, as rg and fd do: below (or at) a path argument, as typed
/// followed by the rest (`quill glob '*.rs' ../tour` prints `../tour/main.rs`, `quill grep x
/// ./src` prints `./src/a.rs`, an absolute argument prints absolute paths); otherwise relative
/// to the current directory when below it, else absolute. Raw bytes: a name need not be UTF-8,
/// and every name text output prints on stdout is its exact bytes (as rg and fd print them,
/// so `| xargs` gets the file); messages on stderr show it lossily.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Shown<'a> {
    head: &'a [u8],
    slash: bool,
    tail: &'a [u8],
}

impl<'a> Shown<'a> {
    pub(crate) fn new(cwd: &Path, typed: &'a AsTyped, path: &'a Path) -> Shown<'a> {
        let full = path.as_os_str().as_encoded_bytes();
        let mut best: Option<(usize, Shown<'a>)> = None;
        for root in &typed.roots {
            let r = root.resolved.as_os_str().as_encoded_bytes();
            let Some(rest) = full.strip_prefix(r) else {
                continue;
            };
            let tail = if rest.is_empty() || ends_with_separator(r) {
                rest
            } else if let Some(t) = strip_separator(rest) {
                t
            } else {
                continue;
            };
            if best.as_ref().is_some_and(|(len, _)| *len >= r.len()) {
                continue;
            }
            let head = root.typed.as_os_str().as_encoded_bytes();
            let slash = !tail.is_empty() && !ends_with_separator(head);
            best = Some((r.len(), Shown { head, slash, tail }));
        }
        if let Some((_, shown)) = best {
            return shown;
        }
        let base = cwd.as_os_str().as_encoded_bytes();
        let tail = match full.strip_prefix(base) {
            // The current directory is a file system's root (`/`, `C:\`).
            Some(rest) if ends_with_separator(base) && !rest.is_empty() => rest,
            Some(rest) => strip_separator(rest)
                .filter(|t| !t.is_empty())
                .unwrap_or(full),
            None => full,
        };
        Shown {
            head: b"",
            slash: false,
            tail,
        }
    }

    pub(crate) fn write_to(&self, w: &mut (impl Write + ?Sized)) -> io::Result<()> {
        w.write_all(self.head)?;
        if self.slash {
            w.write_all(std::path::MAIN_SEPARATOR_STR.as_bytes())?;
        }
        w.write_all(self.tail)
    }
}

/// Whether a path's bytes end with a separator (`/`; also `\` where it is one).
fn ends_with_separator(bytes: &[u8]) -> bool {
    bytes
        .last()
        .is_some_and(|&b| crate::sys::is_separator_byte(b))
}

/// The bytes after a leading separator, if there is one.
fn strip_separator(bytes: &[u8]) -> Option<&[u8]> {
    match bytes.split_first() {
        Some((&b, rest)) if crate::sys::is_separator_byte(b) => Some(rest),
        _ => None,
    }
}

/// The success envelope.
#[derive(Serialize)]
struct Success<'a, R: Serialize> {
    ok: bool,
    op: &'a str,
    #[serde(flatten)]
    report: &'a R,
    warnings: &'a [Warning],
}

/// The failure envelope.
#[derive(Serialize)]
struct Failure<'a> {
    ok: bool,
    /// None (null) when the command line names no subcommand quill knows.
    op: Option<&'a str>,
    error: ErrorBody<'a>,
    warnings: &'a [Warning],
}

/// `kind` and the kind's own fields (derived from the variant), then `message` and `hint`.
#[derive(Serialize)]
struct ErrorBody<'a> {
    #[serde(flatten)]
    error: &'a Error,
    message: String,
    hint: Option<String>,
}

/// Print a successful report to `out`; returns the exit code.
pub(crate) fn emit(
    out: &Out,
    cfg: &OutputConfig,
    op: &str,
    report: &Report,
    warnings: &[Warning],
) -> u8 {
    let code = report.exit_code();
    let result = match (report, cfg.format) {
        (Report::Generated(s), _) => out.print(|w| w.write_all(s.as_bytes())),
        (_, Format::Json) => match success_json(op, report, warnings) {
            // The start of the object is out already (`stream`): the rest of it.
            Ok(bytes) if let Some(s) = report.streamed() => {
                match stream::json_tail(op, s.mode, &bytes) {
                    Some(tail) => out.print(|w| {
                        // `]` closes the entries; a files list's `filesBytes` follows it.
                        w.write_all(&tail[..1])?;
                        w.write_all(s.streamed_raw_names.as_deref().unwrap_or("").as_bytes())?;
                        w.write_all(&tail[1..])
                    }),
                    None => unreachable!("a streamed grep object starts with its entries"),
                }
            }
            Ok(bytes) => out.print(|w| w.write_all(&bytes)),
            Err(e) => return emit_error(out, cfg, Some(op), &not_encoded(e), warnings),
        },
        (_, Format::Text) => {
            print_warnings(warnings);
            let palette = palette::Palette::new(cfg.color);
            let mut err = io::stderr();
            out.print(|w| text::render(w, &mut err, cfg, report, &palette))
        }
    };
    // What streamed before the rest of the answer may have failed already.
    let result = match out.failed() {
        Some(kind) => result.and(Err(io::Error::from(kind))),
        None => result,
    };
    match result {
        Ok(()) => code,
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => exit::SUCCESS,
        Err(e) => {
            eprintln!("quill: cannot write output: {e}");
            exit::SYSTEM
        }
    }
}

/// A result that could not be encoded: never a silent or partial object, but an error that
/// says so.
fn not_encoded(e: serde_json::Error) -> Error {
    Error::Io {
        path: PathBuf::from("<stdout>"),
        op: "encode the result as JSON for",
        source: io::Error::other(e),
    }
}

/// The whole JSON object and its newline, encoded before anything is printed.
fn success_json(op: &str, report: &Report, warnings: &[Warning]) -> serde_json::Result<Vec<u8>> {
    fn encode<R: Serialize>(op: &str, r: &R, warnings: &[Warning]) -> serde_json::Result<Vec<u8>> {
        let mut out = serde_json::to_vec(&Success {
            ok: true,
            op,
            report: r,
            warnings,
        })?;
        out.push(b'\n');
        Ok(out)
    }
    match report {
        Report::Read(r) => encode(op, r, warnings),
        Report::Listing(r) => encode(op, r, warnings),
        Report::Mutation(r) => encode(op, r, warnings),
        Report::Apply(r) => encode(op, r, warnings),
        Report::Glob(r) => encode(op, r, warnings),
        Report::Grep(r) => encode(op, r, warnings),
        Report::Transfer(r) => encode(op, r, warnings),
        Report::State(r) => encode(op, r, warnings),
        Report::Generated(s) => encode(op, s, warnings),
        Report::Version(r) => encode(op, r, warnings),
    }
}

/// Print an error (JSON: to `out`); returns its exit code.
pub(crate) fn emit_error(
    out: &Out,
    cfg: &OutputConfig,
    op: Option<&str>,
    err: &Error,
    warnings: &[Warning],
) -> u8 {
    match cfg.format {
        Format::Json => {
            let _ = out.print(|w| w.write_all(&error_json(op, err, warnings)));
        }
        Format::Text => {
            print_warnings(warnings);
            let palette = palette::Palette::new(cfg.color_stderr);
            text::render_error(&mut io::stderr().lock(), err, &palette);
        }
    }
    err.exit_code()
}

/// The `error` object of `err` (its kind, fields, message and hint), as `--json` prints it:
/// what the far side of a transfer sends back.
pub(crate) fn error_object(err: &Error) -> serde_json::Value {
    let body = ErrorBody {
        error: err,
        message: err.to_string(),
        hint: err.hint(),
    };
    serde_json::to_value(&body).unwrap_or_default()
}

/// The failure object of `err` and its newline.
fn error_json(op: Option<&str>, err: &Error, warnings: &[Warning]) -> Vec<u8> {
    if let Error::Remote { far, host, .. } = err {
        // The far side's error object, passed on: its kind and fields, our message and hint.
        let mut error = far.body.clone();
        error.insert("host".into(), host.clone().into());
        error.insert("message".into(), err.to_string().into());
        error.insert("hint".into(), err.hint().into());
        let failure = serde_json::json!({
            "ok": false, "op": op, "error": error, "warnings": warnings,
        });
        let mut out = serde_json::to_vec(&failure).unwrap_or_default();
        out.push(b'\n');
        return out;
    }
    let failure = Failure {
        ok: false,
        op,
        error: ErrorBody {
            error: err,
            message: err.to_string(),
            hint: err.hint(),
        },
        warnings,
    };
    // An error object holds only strings, numbers and names (`crate::text::names`, which never
    // fail): it always encodes.
    let mut out = serde_json::to_vec(&failure).unwrap_or_default();
    out.push(b'\n');
    out
}

/// One answer held whole, as `quill mcp` returns it: the JSON object `--json` prints, and the
/// text a terminal shows without color (the warnings, then the result or the error).
#[cfg_attr(not(feature = "mcp"), allow(dead_code))]
pub(crate) struct Captured {
    /// The JSON object, with its newline.
    pub json: Vec<u8>,
    pub text: Vec<u8>,
    pub ok: bool,
}

/// A call refused before it ran (its arguments do not fit the tool), held whole.
pub(crate) fn capture_refusal(op: &str, e: Error) -> Captured {
    let cfg = OutputConfig {
        format: Format::Json,
        color: false,
        color_stderr: false,
        cwd: PathBuf::from("/"),
        stdout_is_terminal: false,
    };
    capture(&cfg, Some(op), &Err(e), &[])
}

/// Render an answer whole in both forms (`cfg`'s format is not consulted; no color).
pub(crate) fn capture(
    cfg: &OutputConfig,
    op: Option<&str>,
    result: &Result<Report, Error>,
    warnings: &[Warning],
) -> Captured {
    let plain = palette::Palette::new(false);
    let mut text = Vec::new();
    for w in warnings {
        let _ = writeln!(text, "quill: warning: {}", w.message);
    }
    let failed = |e: &Error, mut text: Vec<u8>| {
        text::render_error(&mut text, e, &plain);
        Captured {
            json: error_json(op, e, warnings),
            text,
            ok: false,
        }
    };
    match result {
        Ok(report) => match success_json(op.unwrap_or_default(), report, warnings) {
            Ok(json) => {
                let mut missing = Vec::new();
                let _ = text::render(&mut text, &mut missing, cfg, report, &plain);
                text.extend_from_slice(&missing);
                Captured {
                    json,
                    text,
                    ok: true,
                }
            }
            Err(e) => failed(&not_encoded(e), text),
        },
        Err(e) => failed(e, text),
    }
}

fn print_warnings(warnings: &[Warning]) {
    for w in warnings {
        eprintln!("quill: warning: {}", w.message);
    }
}
