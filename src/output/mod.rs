//! Output: turns a command's `Report` (or an `Error`) into exactly one JSON object on stdout,
//! or into text for people (stdout for results, stderr for warnings and errors). The JSON
//! envelope is `{"ok": true, "op": OP, …report fields…, "warnings": [..]}` on success and
//! `{"ok": false, "op": OP, "error": {"kind", "message", "hint", …fields}, "warnings": [..]}`
//! on failure (SPEC §2), written straight from typed structs with serde. It depends on
//! `report` and `error`, never on `cmd` or `app`, and never touches the file system; a closed
//! stdout (`| head`) is a quiet success.

pub mod palette;
pub mod progress;
pub mod search;
pub mod text;

use std::io::{self, BufWriter, Write};
use std::path::PathBuf;

use serde::Serialize;

use crate::error::{Error, exit};
use crate::report::Report;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Text,
    Json,
}

/// How results are printed.
#[derive(Debug, Clone)]
pub struct OutputConfig {
    pub format: Format,
    /// Color on stdout (text results).
    pub color: bool,
    /// Color on stderr (errors and warnings in text mode).
    pub color_stderr: bool,
    /// Text output shows paths below this directory relative to it.
    pub cwd: PathBuf,
}

/// The success envelope.
#[derive(Serialize)]
struct Success<'a, R: Serialize> {
    ok: bool,
    op: &'a str,
    #[serde(flatten)]
    report: &'a R,
    warnings: &'a [String],
}

/// The failure envelope.
#[derive(Serialize)]
struct Failure<'a> {
    ok: bool,
    op: &'a str,
    error: ErrorBody<'a>,
    warnings: &'a [String],
}

/// `kind` and the kind's own fields (derived from the variant), then `message` and `hint`.
#[derive(Serialize)]
struct ErrorBody<'a> {
    #[serde(flatten)]
    error: &'a Error,
    message: String,
    hint: Option<String>,
}

/// Print a successful report; returns the exit code.
pub fn emit(cfg: &OutputConfig, op: &str, report: &Report, warnings: &[String]) -> u8 {
    let code = report.exit_code();
    let result = match (report, cfg.format) {
        (Report::Generated(s), _) => write_stdout(|w| w.write_all(s.as_bytes())),
        (_, Format::Json) => match success_json(op, report, warnings) {
            Ok(bytes) => write_stdout(|w| w.write_all(&bytes)),
            Err(e) => {
                // Never a silent or partial object: say what could not be encoded.
                let err = Error::Io {
                    path: PathBuf::from("<stdout>"),
                    op: "encode the result as JSON for",
                    source: io::Error::other(e),
                };
                return emit_error(cfg, op, &err, warnings);
            }
        },
        (_, Format::Text) => {
            print_warnings(warnings);
            let palette = palette::Palette::new(cfg.color);
            write_stdout(|w| text::render(w, cfg, report, &palette))
        }
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

/// The whole JSON object and its newline, encoded before anything is printed.
fn success_json(op: &str, report: &Report, warnings: &[String]) -> serde_json::Result<Vec<u8>> {
    fn encode<R: Serialize>(op: &str, r: &R, warnings: &[String]) -> serde_json::Result<Vec<u8>> {
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
        Report::Mutation(r) => encode(op, r, warnings),
        Report::Glob(r) => encode(op, r, warnings),
        Report::Grep(r) => encode(op, r, warnings),
        Report::Transfer(r) => encode(op, r, warnings),
        Report::State(r) => encode(op, r, warnings),
        Report::Generated(s) => encode(op, s, warnings),
        Report::Version(r) => encode(op, r, warnings),
    }
}

/// Print an error; returns its exit code.
pub fn emit_error(cfg: &OutputConfig, op: &str, err: &Error, warnings: &[String]) -> u8 {
    match cfg.format {
        Format::Json => print_json_error(op, err, warnings),
        Format::Text => {
            print_warnings(warnings);
            text::render_error(err, &palette::Palette::new(cfg.color_stderr));
        }
    }
    err.exit_code()
}

pub fn print_json_error(op: &str, err: &Error, warnings: &[String]) {
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
    // An error object holds only strings, numbers and lossy paths: it always encodes.
    let _ = write_stdout(|w| {
        serde_json::to_writer(&mut *w, &failure).map_err(|e| {
            e.io_error_kind()
                .map_or_else(|| io::Error::other(e), io::Error::from)
        })?;
        w.write_all(b"\n")
    });
}

fn print_warnings(warnings: &[String]) {
    for w in warnings {
        eprintln!("quill: warning: {w}");
    }
}

fn write_stdout(f: impl FnOnce(&mut dyn Write) -> io::Result<()>) -> io::Result<()> {
    let stdout = io::stdout();
    let mut w = BufWriter::with_capacity(64 * 1024, stdout.lock());
    f(&mut w)?;
    w.flush()
}
