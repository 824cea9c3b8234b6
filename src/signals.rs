//! Ctrl-C and SIGTERM during a mutation: instead of dying with a temporary file left behind,
//! quill notes the signal, and the next `check()` (between write slices, before fsync and
//! rename, while waiting for a lock, and while waiting for input — `input::Input` reads on a
//! helper thread so that the wait itself notices) turns it into the `interrupted` error, whose
//! unwinding removes the temporary file. Every wait quill does checks the flag, so a second
//! Ctrl-C is never needed, and never leaves a temporary file behind by killing the process.
//! Once the answer is printed, `die_if_caught` restores the default action and re-raises the
//! signal, so quill dies by it (status 130/143 in a shell) and a shell loop
//! `for f in …; do quill …; done` stops at Ctrl-C instead of going on to the next file.
//!
//! Inside `quill mcp` one process runs many calls, each on its own thread: a call the client
//! cancels is abandoned the same way. Its thread runs under `cancellable(flag, …)`, and
//! `check()` on that thread also answers `interrupted` once the flag is set; the process's
//! signals still reach every call.

use std::cell::RefCell;
use std::sync::Arc;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use crate::error::{Error, Result};

/// The signal caught (0: none).
static CAUGHT: OnceLock<Arc<AtomicUsize>> = OnceLock::new();

thread_local! {
    /// The cancel flag of the call this thread runs (`quill mcp`), if any.
    static CANCEL: RefCell<Option<Arc<AtomicBool>>> = const { RefCell::new(None) };
}

/// Run `f` on this thread as a call that is abandoned (`interrupted`) once `flag` is set.
#[cfg_attr(not(feature = "mcp"), allow(dead_code))]
pub(crate) fn cancellable<T>(flag: Arc<AtomicBool>, f: impl FnOnce() -> T) -> T {
    struct Reset(Option<Arc<AtomicBool>>);
    impl Drop for Reset {
        fn drop(&mut self) {
            CANCEL.with(|c| *c.borrow_mut() = self.0.take());
        }
    }
    let _reset = Reset(CANCEL.with(|c| c.borrow_mut().replace(flag)));
    f()
}

/// Whether the call this thread runs was cancelled.
fn cancelled() -> bool {
    CANCEL.with(|c| {
        c.borrow()
            .as_ref()
            .is_some_and(|f| f.load(Ordering::Relaxed))
    })
}

/// Catch SIGINT and SIGTERM from now on (for commands that change files, and `quill mcp`).
/// Once per process: a server runs many mutations.
pub(crate) fn install() {
    let mut fresh = false;
    let caught = CAUGHT.get_or_init(|| {
        fresh = true;
        Arc::new(AtomicUsize::new(0))
    });
    if fresh {
        for sig in [signal_hook::consts::SIGINT, signal_hook::consts::SIGTERM] {
            let _ = signal_hook::flag::register_usize(sig, Arc::clone(caught), sig as usize);
        }
    }
}

/// Whether `install` ran in this process.
#[cfg(test)]
pub(crate) fn installed() -> bool {
    CAUGHT.get().is_some()
}

/// The signal caught so far, if any.
pub(crate) fn caught() -> Option<i32> {
    match CAUGHT.get().map(|c| c.load(Ordering::Relaxed)) {
        Some(0) | None => None,
        Some(sig) => Some(sig as i32),
    }
}

/// `interrupted` once a signal has arrived, or this thread's call was cancelled.
pub(crate) fn check() -> Result<()> {
    match caught().is_some() || cancelled() {
        true => Err(Error::Interrupted),
        false => Ok(()),
    }
}

/// After the answer to an interruption is printed: die by the signal that was caught, as the
/// default action would have (returns only when none was).
pub(crate) fn die_if_caught() {
    if let Some(sig) = caught() {
        let _ = signal_hook::low_level::emulate_default_handler(sig);
    }
}

/// Whether a signal has arrived (or this thread's call was cancelled).
pub(crate) fn interrupted() -> bool {
    check().is_err()
}
