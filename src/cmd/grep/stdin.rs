//! What `quill grep PATTERN` with no PATH searches (docs/commands/grep.md, "Standard input"):
//! standard input when something was sent to it, else the current directory. A harness
//! (Python's `subprocess`, Node's `spawn`, a persistent shell) nearly always gives its child a
//! pipe it never writes to; ripgrep's rule — search stdin whenever it is a pipe — then hangs
//! on a pipe held open, or answers "no match" for one closed empty. So a pipe or file is
//! searched when it has bytes or its end within a short grace (`QUILL_STDIN_GRACE`,
//! milliseconds, default `DEFAULT_GRACE_MS`), or when a pipeline made it (`producer | quill
//! grep x`, however slow the producer); an open pipe that stays silent and that the parent
//! still holds is a harness's and is left unread: the directory is searched and a warning
//! says so. Nothing is read here: a poll looks, the search reads. `-` always means stdin and
//! never reaches this. An empty stdin is not searched as a directory (a script's empty
//! pipeline must not turn into matches from elsewhere): it is said (`stdin_empty`) instead.

use std::ffi::{OsStr, OsString};
use std::time::Duration;

use crate::error::{Error, Result};

/// The grace an open, silent pipe gets before it is taken for a harness's. Data a caller
/// means to send is there within a millisecond or two (a harness writes it right after the
/// spawn); a pipeline's slow producer is never cut short by it (`stdin_is_pipeline`).
pub(super) const DEFAULT_GRACE_MS: u64 = 100;

/// The environment variable that sets the grace, in milliseconds.
pub(super) const GRACE_VAR: &str = "QUILL_STDIN_GRACE";

/// What a search with no PATH reads.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum NoPath {
    /// Standard input.
    Stdin,
    /// The current directory; `silent`: because stdin was a silent pipe, waited on this long.
    Directory { silent: Option<Duration> },
}

/// What can be seen of standard input, each looked at only when the rule needs it.
pub(super) trait Observe {
    /// A pipe, socket or file (not a terminal, not `/dev/null`, not closed), and not spent on
    /// a call (`quill call`, `quill mcp`).
    fn readable(&mut self) -> bool;
    /// Bytes or the end arrived within `grace`.
    fn ready(&mut self, grace: Duration) -> bool;
    /// A pipeline's pipe: the parent does not hold it.
    fn pipeline(&mut self) -> bool;
}

/// The rule, from what `o` sees.
pub(super) fn choose(o: &mut impl Observe, grace: Duration) -> NoPath {
    if !o.readable() {
        return NoPath::Directory { silent: None };
    }
    if o.ready(grace) || o.pipeline() {
        return NoPath::Stdin;
    }
    NoPath::Directory {
        silent: Some(grace),
    }
}

/// The process's own standard input.
pub(super) struct Process {
    /// Standard input carried a call and is spent.
    pub taken: bool,
}

impl Observe for Process {
    fn readable(&mut self) -> bool {
        !self.taken && grep_cli::is_readable_stdin()
    }
    fn ready(&mut self, grace: Duration) -> bool {
        crate::sys::stdin_ready(grace)
    }
    fn pipeline(&mut self) -> bool {
        crate::sys::stdin_is_pipeline()
    }
}

/// The grace from `QUILL_STDIN_GRACE` (whole milliseconds), else the default.
pub(super) fn grace() -> Result<Duration> {
    let Some(v) = std::env::var_os(GRACE_VAR) else {
        return Ok(Duration::from_millis(DEFAULT_GRACE_MS));
    };
    parse_grace(&v.to_string_lossy()).ok_or_else(|| {
        Error::usage(format!(
            "{GRACE_VAR} must be a whole number of milliseconds (0 or more), not {:?}",
            v.to_string_lossy()
        ))
    })
}

fn parse_grace(v: &str) -> Option<Duration> {
    v.trim().parse::<u64>().ok().map(Duration::from_millis)
}

/// The warning for a silent pipe: what happened and the two calls that say what is meant.
pub(super) fn silent_message(waited: Duration, argv: &[OsString]) -> String {
    format!(
        "standard input is an open pipe that sent nothing in {} ms (a harness's, not a \
         pipeline's), so it was not read: searched the current directory instead; to say so \
         and not wait: {}; to search stdin, waiting for it: {} (or set {GRACE_VAR})",
        waited.as_millis(),
        with_path(argv, "."),
        with_path(argv, "-"),
    )
}

/// The warning for an empty stdin.
pub(super) fn empty_message(argv: &[OsString]) -> String {
    format!(
        "standard input was empty (0 bytes), so nothing was searched — not even the current \
         directory; to search the current directory: {}",
        with_path(argv, ".")
    )
}

/// This command line with `path` added at its end, quoted in backticks (or how to add it,
/// when the line cannot be repeated).
fn with_path(argv: &[OsString], path: &str) -> String {
    let mut words: Vec<&OsStr> = argv.iter().skip(1).map(OsString::as_os_str).collect();
    words.push(OsStr::new(path));
    crate::text::shell::render(words).map_or_else(|| format!("add `{path}`"), |c| format!("`{c}`"))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What a test says stdin is, and which looks were taken.
    struct Seen {
        readable: bool,
        ready: bool,
        pipeline: bool,
        looked: Vec<&'static str>,
    }

    impl Observe for Seen {
        fn readable(&mut self) -> bool {
            self.looked.push("readable");
            self.readable
        }
        fn ready(&mut self, _: Duration) -> bool {
            self.looked.push("ready");
            self.ready
        }
        fn pipeline(&mut self) -> bool {
            self.looked.push("pipeline");
            self.pipeline
        }
    }

    fn seen(readable: bool, ready: bool, pipeline: bool) -> Seen {
        Seen {
            readable,
            ready,
            pipeline,
            looked: Vec::new(),
        }
    }

    const G: Duration = Duration::from_millis(100);

    #[test]
    fn a_terminal_or_dev_null_searches_the_directory_without_waiting() {
        let mut s = seen(false, true, true);
        assert_eq!(choose(&mut s, G), NoPath::Directory { silent: None });
        assert_eq!(s.looked, ["readable"]);
    }

    #[test]
    fn bytes_or_an_end_within_the_grace_search_stdin() {
        let mut s = seen(true, true, false);
        assert_eq!(choose(&mut s, G), NoPath::Stdin);
        assert_eq!(s.looked, ["readable", "ready"]);
    }

    #[test]
    fn a_slow_pipeline_is_waited_for() {
        let mut s = seen(true, false, true);
        assert_eq!(choose(&mut s, G), NoPath::Stdin);
        assert_eq!(s.looked, ["readable", "ready", "pipeline"]);
    }

    #[test]
    fn a_silent_pipe_the_parent_holds_is_left_unread() {
        let mut s = seen(true, false, false);
        assert_eq!(choose(&mut s, G), NoPath::Directory { silent: Some(G) });
    }

    #[test]
    fn the_grace_is_whole_milliseconds() {
        assert_eq!(parse_grace("250"), Some(Duration::from_millis(250)));
        assert_eq!(parse_grace(" 0 "), Some(Duration::ZERO));
        assert_eq!(parse_grace("-1"), None);
        assert_eq!(parse_grace("1.5"), None);
        assert_eq!(parse_grace("soon"), None);
    }

    #[test]
    fn the_messages_name_the_calls_that_work() {
        let argv: Vec<OsString> = ["quill", "grep", "-n", "a b"].map(Into::into).into();
        let m = silent_message(G, &argv);
        assert!(m.contains("100 ms"), "{m}");
        assert!(m.contains("`quill grep -n 'a b' .`"), "{m}");
        assert!(m.contains("`quill grep -n 'a b' -`"), "{m}");
        let e = empty_message(&argv);
        assert!(e.contains("`quill grep -n 'a b' .`"), "{e}");
    }
}
