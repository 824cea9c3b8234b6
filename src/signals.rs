//! Ctrl-C and SIGTERM during a mutation: instead of dying with a temporary file left behind,
//! quill notes the signal, and the next `check()` (between write slices, before fsync and
//! rename, while waiting for a lock or for input) turns it into the `interrupted` error, whose
//! unwinding removes the temporary file. Every wait quill does checks the flag, so a second
//! Ctrl-C is never needed, and never leaves a temporary file behind by killing the process.
//! Once the `interrupted` answer is printed, `die_if_caught` restores the default action and
//! re-raises the signal, so quill dies by it (status 130/143 in a shell) and a shell loop
//! `for f in …; do quill …; done` stops at Ctrl-C instead of going on to the next file.

use std::sync::Arc;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicUsize, Ordering};

use crate::error::{Error, Result};

/// The signal caught (0: none).
static CAUGHT: OnceLock<Arc<AtomicUsize>> = OnceLock::new();

/// Catch SIGINT and SIGTERM from now on (for commands that change files).
pub(crate) fn install() {
    let caught = CAUGHT.get_or_init(|| Arc::new(AtomicUsize::new(0)));
    for sig in [signal_hook::consts::SIGINT, signal_hook::consts::SIGTERM] {
        let _ = signal_hook::flag::register_usize(sig, Arc::clone(caught), sig as usize);
    }
}

/// The signal caught so far, if any.
pub(crate) fn caught() -> Option<i32> {
    match CAUGHT.get().map(|c| c.load(Ordering::Relaxed)) {
        Some(0) | None => None,
        Some(sig) => Some(sig as i32),
    }
}

/// `interrupted` once a signal has arrived.
pub(crate) fn check() -> Result<()> {
    match caught() {
        Some(_) => Err(Error::Interrupted),
        None => Ok(()),
    }
}

/// After the answer to an interruption is printed: die by the signal that was caught, as the
/// default action would have (returns only when none was).
pub(crate) fn die_if_caught() {
    if let Some(sig) = caught() {
        let _ = signal_hook::low_level::emulate_default_handler(sig);
    }
}

/// Whether a signal has arrived.
pub(crate) fn interrupted() -> bool {
    check().is_err()
}

/// A reader that reads its source on a helper thread, so that Ctrl-C or SIGTERM is noticed
/// while the source blocks (a pipe that stays silent): signal handlers restart blocking reads,
/// so the reading thread itself would never see them. A noticed signal reads as
/// `ErrorKind::Interrupted`; the caller's `check()` then turns it into `interrupted`.
pub(crate) struct InterruptibleReader {
    rx: std::sync::mpsc::Receiver<std::io::Result<Vec<u8>>>,
    pending: Vec<u8>,
    pos: usize,
    done: bool,
}

impl InterruptibleReader {
    pub(crate) fn new(mut inner: impl std::io::Read + Send + 'static) -> InterruptibleReader {
        let (tx, rx) = std::sync::mpsc::sync_channel(4);
        std::thread::spawn(move || {
            loop {
                let mut buf = vec![0u8; 256 * 1024];
                let msg = match inner.read(&mut buf) {
                    Ok(n) => {
                        buf.truncate(n);
                        Ok(buf)
                    }
                    Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                    Err(e) => Err(e),
                };
                let last = !matches!(&msg, Ok(b) if !b.is_empty());
                if tx.send(msg).is_err() || last {
                    break;
                }
            }
        });
        InterruptibleReader {
            rx,
            pending: Vec::new(),
            pos: 0,
            done: false,
        }
    }
}

impl std::io::Read for InterruptibleReader {
    fn read(&mut self, out: &mut [u8]) -> std::io::Result<usize> {
        use std::sync::mpsc::RecvTimeoutError;
        loop {
            if self.pos < self.pending.len() {
                let n = out.len().min(self.pending.len() - self.pos);
                out[..n].copy_from_slice(&self.pending[self.pos..self.pos + n]);
                self.pos += n;
                return Ok(n);
            }
            if self.done {
                return Ok(0);
            }
            match self.rx.recv_timeout(std::time::Duration::from_millis(50)) {
                Ok(Ok(chunk)) if chunk.is_empty() => self.done = true,
                Ok(Ok(chunk)) => {
                    self.pending = chunk;
                    self.pos = 0;
                }
                Ok(Err(e)) => {
                    self.done = true;
                    return Err(e);
                }
                Err(RecvTimeoutError::Disconnected) => self.done = true,
                Err(RecvTimeoutError::Timeout) if interrupted() => {
                    return Err(std::io::ErrorKind::Interrupted.into());
                }
                Err(RecvTimeoutError::Timeout) => {}
            }
        }
    }
}
