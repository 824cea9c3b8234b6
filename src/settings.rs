//! What every command needs besides its own arguments, resolved once from the global options
//! and the environment by `app`: the session, the state directory, the root, the guards'
//! switches (read-only, strict), the lock timeout, the current directory, how output is
//! shaped, where the run came from (`Origin`: the process's own command line and streams, or
//! a call that `quill call` or `quill mcp` carried), and the run's warnings. Plain data plus
//! a few small conveniences; no I/O.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::error::{Error, Result};
use crate::fs::paths::Root;
use crate::output::OutputConfig;
use crate::output::progress::ProgressSink;
use crate::state::{Cache, Store};
use crate::warnings::{WarningKind, Warnings};

pub(crate) struct Settings {
    pub session: String,
    pub state_dir: PathBuf,
    pub root: Option<Root>,
    pub read_only: bool,
    pub strict: bool,
    /// `--merge`: an edit lands over an outside change that leaves its lines alone.
    pub merge: bool,
    /// Versions read are kept, so a `stale` answer can show the change since (`state::kept`).
    pub keep_reads: bool,
    pub lock_timeout: Duration,
    pub cwd: PathBuf,
    /// How results are printed (format, color, the directory paths are shown relative to).
    pub output: OutputConfig,
    /// `QUILL_LIMIT`: glob's and grep's `--limit` when the command line gives none.
    pub list_limit: Option<usize>,
    /// Whether stderr is a terminal (progress bars).
    pub stderr_is_terminal: bool,
    pub warnings: Warnings,
    /// The session file this run last read or wrote (`state::Cache`).
    pub state_cache: Cache,
    /// Where the run came from: its command line, its standard input, its output's way out.
    pub origin: Origin,
}

/// Where a run came from. A command typed in a shell has the process's own command line and
/// streams; a call (`quill call`, a tool call of `quill mcp`) brings its own command line —
/// the one hints quote — and what the command reads as standard input, since the real one
/// carried the call.
#[derive(Clone, Default)]
pub(crate) struct Origin {
    /// The command line hints quote (the process's own for a typed command).
    pub argv: Vec<OsString>,
    /// What the command reads as standard input; `None`: the process's own.
    pub stdin: Option<Vec<u8>>,
    /// Set inside `quill mcp`: the answer is returned whole, never printed as it is found
    /// (stdout is the protocol's).
    pub embedded: bool,
    /// Where a long copy reports progress (`quill mcp`, when the client asked for it).
    pub progress: Option<ProgressSink>,
    /// The directory relative paths start from, when not the process's own (`quill mcp`
    /// confined to a client's root that does not hold its working directory).
    pub cwd: Option<PathBuf>,
}

impl Origin {
    /// A command typed in a shell: the process's own command line and streams.
    pub(crate) fn process() -> Origin {
        Origin {
            argv: std::env::args_os().collect(),
            ..Origin::default()
        }
    }

    /// Whether standard input was spent on the call (`quill call`, `quill mcp`): nothing of
    /// the process's own is there to search.
    pub(crate) fn stdin_taken(&self) -> bool {
        self.stdin.is_some() || self.embedded
    }
}

impl Settings {
    pub(crate) fn warn(&self, kind: WarningKind, message: impl Into<String>) {
        self.warnings.push(kind, message);
    }

    /// Refuse a mutation when running read-only.
    pub(crate) fn check_writable(&self, path: &Path, action: &'static str) -> Result<()> {
        if self.read_only {
            return Err(Error::ReadOnly {
                path: path.to_path_buf(),
                action,
            });
        }
        Ok(())
    }

    /// The `--limit` of a listing (glob, grep): `--limit N` as given, else `--all` (0 = no
    /// limit), else `QUILL_LIMIT`, else the command's default.
    pub(crate) fn limit(&self, flag: Option<usize>, all: bool, default: usize) -> usize {
        match (flag, all) {
            (Some(n), _) => n,
            (None, true) => 0,
            (None, false) => self.list_limit.unwrap_or(default),
        }
    }

    /// The state directory, opened for this run's lock timeout and warnings.
    pub(crate) fn store(&self) -> Store<'_> {
        Store::open(&self.state_dir, self.lock_timeout, &self.warnings)
            .with_cache(&self.state_cache)
            .keeping(self.keep_reads)
    }
}

/// Settings for unit tests: session `t`, the state in `dir/.state`, `dir` as the current
/// directory (and as the root, with `root`), JSON output, a 1 s lock timeout.
#[cfg(test)]
pub(crate) fn for_tests(dir: &Path, root: bool) -> Settings {
    use crate::output::Format;
    Settings {
        session: "t".into(),
        state_dir: dir.join(".state"),
        root: root.then(|| Root::new(dir).unwrap()),
        read_only: false,
        strict: false,
        merge: false,
        keep_reads: true,
        lock_timeout: Duration::from_secs(1),
        cwd: dir.to_path_buf(),
        output: OutputConfig {
            format: Format::Json,
            color: false,
            color_stderr: false,
            cwd: dir.to_path_buf(),
            stdout_is_terminal: false,
        },
        stderr_is_terminal: false,
        list_limit: None,
        warnings: Default::default(),
        state_cache: Default::default(),
        origin: Origin::default(),
    }
}
