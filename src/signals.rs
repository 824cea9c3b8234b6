//! Ctrl-C and SIGTERM during a mutation: instead of dying with a temporary file left behind,
//! quill notes the signal, and the next `check()` (between write slices, before fsync and
//! rename) turns it into the `interrupted` error, whose unwinding removes the temporary file.
//! A second Ctrl-C ends the process at once, as people expect.

use std::sync::Arc;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicBool, Ordering};

use crate::error::{Error, Result};

static FLAG: OnceLock<Arc<AtomicBool>> = OnceLock::new();

/// Catch SIGINT and SIGTERM from now on (for commands that change files).
pub fn install() {
    let flag = FLAG.get_or_init(|| Arc::new(AtomicBool::new(false)));
    for sig in [signal_hook::consts::SIGINT, signal_hook::consts::SIGTERM] {
        // The conditional shutdown must be registered first: it fires on the second signal.
        let _ = signal_hook::flag::register_conditional_shutdown(sig, 130, Arc::clone(flag));
        let _ = signal_hook::flag::register(sig, Arc::clone(flag));
    }
}

/// `interrupted` once a signal has arrived.
pub fn check() -> Result<()> {
    match FLAG.get() {
        Some(flag) if flag.load(Ordering::Relaxed) => Err(Error::Interrupted),
        _ => Ok(()),
    }
}
