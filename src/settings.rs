//! What every command needs besides its own arguments, resolved once from the global options
//! and the environment by `app`: the session, the state directory, the root, the guards'
//! switches (read-only, strict), the lock timeout, the current directory, how output is
//! shaped, and the run's warnings. Plain data plus two small conveniences; no I/O.

use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::error::{Error, Result};
use crate::output::OutputConfig;
use crate::paths::Root;
use crate::state::{Cache, Store};
use crate::warnings::{WarningKind, Warnings};

pub(crate) struct Settings {
    pub session: String,
    pub state_dir: PathBuf,
    pub root: Option<Root>,
    pub read_only: bool,
    pub strict: bool,
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
    }
}
