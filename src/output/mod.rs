//! Output: turns a command's `Report` (or an `Error`) into exactly one JSON object on stdout,
//! or into text for people (stdout for results, stderr for warnings and errors). The JSON
//! envelope is `{"ok": bool, "op": OP, …report fields…, "warnings": [..]}` on success and
//! `{"ok": false, "op": OP, "error": {"kind", "message", "hint", …fields}, "warnings": [..]}`
//! on failure (SPEC §2). This module never touches the file system; a closed stdout (`| head`)
//! is a quiet success.

pub mod progress;
pub mod search;
pub mod text;

use std::io::{self, BufWriter, Write};

use serde::Serialize;
use serde_json::{Map, Value};

use crate::app::Context;
use crate::error::{Error, exit};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Text,
    Json,
}

/// What a successful command hands to output.
pub enum Report {
    Read(crate::cmd::read::ReadReport),
    Mutation(crate::cmd::MutationReport),
    Glob(crate::cmd::glob::GlobReport),
    Grep(crate::cmd::grep::GrepReport),
    Transfer(crate::cmd::transfer::TransferReport),
    State(crate::cmd::state::StateReport),
    /// Completions and man pages: printed as they are, in every format.
    Generated(String),
}

impl Report {
    fn exit_code(&self) -> u8 {
        match self {
            Report::Glob(r) if r.total == 0 => exit::NOTHING_FOUND,
            Report::Grep(r) if r.total == 0 => exit::NOTHING_FOUND,
            _ => exit::SUCCESS,
        }
    }

    fn to_json(&self) -> Value {
        fn v(x: &impl Serialize) -> Value {
            serde_json::to_value(x).unwrap_or(Value::Null)
        }
        match self {
            Report::Read(r) => v(r),
            Report::Mutation(r) => v(r),
            Report::Glob(r) => v(r),
            Report::Grep(r) => v(r),
            Report::Transfer(r) => v(r),
            Report::State(r) => v(r),
            Report::Generated(s) => Value::String(s.clone()),
        }
    }
}

/// Print a successful report; returns the exit code.
pub fn emit(ctx: &Context, op: &str, report: &Report, warnings: &[String]) -> u8 {
    let code = report.exit_code();
    let result = match (report, ctx.format) {
        (Report::Generated(s), _) => write_stdout(|w| w.write_all(s.as_bytes())),
        (_, Format::Json) => {
            let mut obj = Map::new();
            obj.insert("ok".into(), Value::Bool(true));
            obj.insert("op".into(), Value::String(op.into()));
            if let Value::Object(fields) = report.to_json() {
                obj.extend(fields);
            }
            obj.insert("warnings".into(), warnings_json(warnings));
            print_json(&Value::Object(obj))
        }
        (_, Format::Text) => {
            print_warnings(warnings);
            let palette = text::Palette::new(ctx.color);
            write_stdout(|w| text::render(w, ctx, report, &palette))
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

/// Print an error; returns its exit code.
pub fn emit_error(format: Format, color: bool, op: &str, err: &Error, warnings: &[String]) -> u8 {
    match format {
        Format::Json => print_json_error(op, err, warnings),
        Format::Text => {
            print_warnings(warnings);
            text::render_error(err, &text::Palette::new(color));
        }
    }
    err.exit_code()
}

pub fn print_json_error(op: &str, err: &Error, warnings: &[String]) {
    let mut e = Map::new();
    e.insert("kind".into(), Value::String(err.kind().into()));
    e.insert("message".into(), Value::String(err.to_string()));
    e.insert("hint".into(), err.hint().map_or(Value::Null, Value::String));
    e.extend(err.fields());
    let mut obj = Map::new();
    obj.insert("ok".into(), Value::Bool(false));
    obj.insert("op".into(), Value::String(op.into()));
    obj.insert("error".into(), Value::Object(e));
    obj.insert("warnings".into(), warnings_json(warnings));
    let _ = print_json(&Value::Object(obj));
}

fn warnings_json(warnings: &[String]) -> Value {
    Value::Array(warnings.iter().cloned().map(Value::String).collect())
}

fn print_warnings(warnings: &[String]) {
    for w in warnings {
        eprintln!("quill: warning: {w}");
    }
}

fn print_json(v: &Value) -> io::Result<()> {
    write_stdout(|w| {
        // Keep the I/O error's kind (a closed pipe is a quiet success).
        serde_json::to_writer(&mut *w, v).map_err(|e| {
            e.io_error_kind()
                .map_or_else(|| io::Error::other(e), io::Error::from)
        })?;
        w.write_all(b"\n")
    })
}

fn write_stdout(f: impl FnOnce(&mut dyn Write) -> io::Result<()>) -> io::Result<()> {
    let stdout = io::stdout();
    let mut w = BufWriter::with_capacity(64 * 1024, stdout.lock());
    f(&mut w)?;
    w.flush()
}
