//! Progress reporting on stderr for long operations: an indicatif bar on a terminal (the file's
//! name, percentage, bytes, rate, ETA) for large files, cleared when the copy ends or fails
//! (Ctrl-C included) so an error stands alone; JSON lines for harnesses (`--progress json`:
//! `{"event":"progress","bytes":N,"total":N}`, at most every 64 MiB or 200 ms, and the final
//! line — the only one with `bytes == total` for a file that did not change — once the copy
//! is complete), or nothing. Inside `quill mcp` the same events, throttled the same way, go to
//! the run's `ProgressSink` instead (the client's progress notifications). Stdout is never
//! touched: it carries the one result object. A failed write to stderr is ignored — progress
//! is never worth failing a transfer for.

use std::io::Write;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use crate::cli::ProgressMode;
use crate::report::transfer::ProgressEvent;

/// Progress of a long copy for a caller that is not a terminal (`quill mcp`): bytes written
/// so far and the total.
pub(crate) type ProgressSink = std::sync::Arc<dyn Fn(u64, u64) + Send + Sync>;

/// Files smaller than this get no bar in `auto` mode (they finish before one is useful).
pub(crate) const BAR_THRESHOLD: u64 = 8 * 1024 * 1024;
/// JSON lines are throttled to one per this many bytes…
const JSON_EVERY_BYTES: u64 = 64 * 1024 * 1024;
/// …or one per this much time, whichever comes first.
const JSON_EVERY: Duration = Duration::from_millis(200);

/// A progress sink for one stream of `total` bytes.
pub(crate) enum Progress {
    None,
    Bar(ProgressBar),
    Json {
        total: u64,
        done: u64,
        last_bytes: u64,
        last_at: Instant,
        /// Where the events go: JSON lines on stderr when `None`.
        sink: Option<ProgressSink>,
    },
}

impl Progress {
    /// Choose the sink: a run's `sink` (`quill mcp`) takes the events unless `mode` is
    /// `none`; else `auto` draws a bar only when stderr is a terminal and the file is large;
    /// the bar is labeled `label` (the file's name) and colored when `color`.
    pub(crate) fn new(
        mode: ProgressMode,
        total: u64,
        stderr_is_terminal: bool,
        label: &str,
        color: bool,
        sink: Option<&ProgressSink>,
    ) -> Progress {
        match mode {
            ProgressMode::None => Progress::None,
            _ if sink.is_some() => Progress::Json {
                total,
                done: 0,
                last_bytes: 0,
                last_at: Instant::now(),
                sink: sink.cloned(),
            },
            ProgressMode::Auto if !stderr_is_terminal || total < BAR_THRESHOLD => Progress::None,
            ProgressMode::Auto => {
                let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr());
                let template = if color {
                    "{prefix:.bold} {bar:20.cyan/blue} {percent:>3}% {binary_bytes}/{binary_total_bytes} {binary_bytes_per_sec} ETA {eta}"
                } else {
                    "{prefix} {bar:20} {percent:>3}% {binary_bytes}/{binary_total_bytes} {binary_bytes_per_sec} ETA {eta}"
                };
                let style = ProgressStyle::with_template(template)
                    .unwrap_or_else(|_| ProgressStyle::default_bar())
                    .progress_chars("=> ");
                bar.set_style(style);
                bar.set_prefix(label.to_string());
                Progress::Bar(bar)
            }
            ProgressMode::Json => Progress::Json {
                total,
                done: 0,
                last_bytes: 0,
                last_at: Instant::now(),
                sink: None,
            },
        }
    }

    /// `bytes` more were written.
    pub(crate) fn advance(&mut self, bytes: u64) {
        match self {
            Progress::None => {}
            Progress::Bar(bar) => bar.inc(bytes),
            Progress::Json {
                total,
                done,
                last_bytes,
                last_at,
                sink,
            } => {
                *done += bytes;
                // The line with everything is `finish`'s, once the copy is complete.
                if *done < *total
                    && (*done - *last_bytes >= JSON_EVERY_BYTES || last_at.elapsed() >= JSON_EVERY)
                {
                    event(sink.as_ref(), *done, *total);
                    *last_bytes = *done;
                    *last_at = Instant::now();
                }
            }
        }
    }

    /// The stream is complete: the final JSON line (once: the sink is spent), or the bar
    /// cleared.
    pub(crate) fn finish(&mut self) {
        match self {
            Progress::None => {}
            Progress::Bar(bar) => bar.finish_and_clear(),
            Progress::Json {
                total, done, sink, ..
            } => event(sink.as_ref(), *done, *total),
        }
        *self = Progress::None;
    }
}

impl Progress {
    /// The stream stopped short: clear the bar, print no final JSON line.
    pub(crate) fn abandon(&mut self) {
        if let Progress::Bar(bar) = self {
            bar.finish_and_clear();
        }
        *self = Progress::None;
    }
}

impl Drop for Progress {
    /// An abandoned bar (an error or Ctrl-C) is cleared, so the error message stands alone.
    fn drop(&mut self) {
        if let Progress::Bar(bar) = self {
            bar.finish_and_clear();
        }
    }
}

fn event(sink: Option<&ProgressSink>, bytes: u64, total: u64) {
    if let Some(sink) = sink {
        return sink(bytes, total);
    }
    let event = ProgressEvent {
        event: "progress",
        bytes,
        total,
    };
    if let Ok(mut line) = serde_json::to_vec(&event) {
        line.push(b'\n');
        let _ = std::io::stderr().lock().write_all(&line);
    }
}
