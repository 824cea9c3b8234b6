//! The warnings of one run: things that went wrong without failing the command (a corrupt
//! state file moved aside, an unreadable directory skipped, a durability fsync that failed
//! after a commit). Any layer may push one; `app` hands them to `output`, which prints them on
//! stderr in text mode and as `warnings` in JSON. Shared by worker threads, so it locks.

use std::sync::Mutex;

/// A sink of warnings, filled during a run and drained once at the end.
#[derive(Debug, Default)]
pub struct Warnings(Mutex<Vec<String>>);

impl Warnings {
    pub fn push(&self, message: impl Into<String>) {
        if let Ok(mut w) = self.0.lock() {
            w.push(message.into());
        }
    }

    /// Every warning so far, in the order they came; the sink is left empty.
    pub fn take(&self) -> Vec<String> {
        self.0
            .lock()
            .map(|mut w| std::mem::take(&mut *w))
            .unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn take_drains_in_order() {
        let w = Warnings::default();
        w.push("a");
        w.push(String::from("b"));
        assert_eq!(w.take(), ["a", "b"]);
        assert!(w.take().is_empty());
    }
}
