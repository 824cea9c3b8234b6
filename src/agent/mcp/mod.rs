//! `quill mcp`: an MCP server on stdin and stdout (JSON-RPC, one message a line) whose tools
//! are `quill tools`' definitions and whose calls run through the very path `quill call`
//! takes — `harness::call::words` makes the command line, `app` parses, resolves, guards and
//! answers it, `output::capture` renders the answer as JSON (the result's
//! `structuredContent`) and as the text a terminal would show (its text content). Every call
//! runs on its own blocking thread, so calls on one connection proceed in parallel and are
//! ordered per file by the same locks as separate processes.
//!
//! This module owns the connection: the session (`--session`, `QUILL_SESSION`, else one made
//! for the connection), the confinement (`roots`), the log on stderr, cancellation (a
//! cancelled request is abandoned like Ctrl-C: `signals::cancellable`), the lines themselves
//! (`stdio`: a malformed request is answered with its id) and the end (stdin closed: the calls
//! in flight get `server::EOF_GRACE`, then are abandoned cleanly; SIGINT/SIGTERM: they are
//! abandoned at once, then the server dies by the signal). The async runtime is built here
//! and nowhere else, so no other command pays for it. It never imports `app`: `app` hands it
//! the function that runs one call.

#[cfg(feature = "mcp")]
pub(crate) mod roots;
#[cfg(feature = "mcp")]
mod server;
#[cfg(feature = "mcp")]
mod stdio;

use std::ffi::OsString;

use crate::cli::GlobalArgs;
use crate::output::Captured;
use crate::settings::Origin;

/// Runs one call's command line to its captured answer (`app::run_embedded`).
pub(crate) type RunCall = fn(Vec<OsString>, Origin) -> Captured;

/// Serve until stdin closes; returns the exit code.
#[cfg(feature = "mcp")]
pub(crate) fn serve(global: &GlobalArgs, run: RunCall) -> u8 {
    server::serve(global, run)
}

/// A quill built without the `mcp` feature says so.
#[cfg(not(feature = "mcp"))]
pub(crate) fn serve(_global: &GlobalArgs, _run: RunCall) -> u8 {
    eprintln!(
        "quill: error: this quill was built without the mcp feature\n  hint: build it with `cargo install --locked --path . --features mcp`"
    );
    crate::error::exit::USAGE
}
