//! The global options: what every command takes, before or after the subcommand (the
//! output format, the session and state directory, the guards, color).

use std::path::PathBuf;

use clap::{Args, ValueEnum};

/// Options every command takes, before or after the subcommand; listed under their own heading.
#[derive(Debug, Args, Clone)]
#[command(next_help_heading = "Global options")]
pub(crate) struct GlobalArgs {
    /// Print exactly one JSON object on stdout (also QUILL_FORMAT=json).
    #[arg(long, global = true, overrides_with = "text")]
    pub json: bool,

    /// Print text for people, even when QUILL_FORMAT=json.
    #[arg(long, global = true, overrides_with = "json")]
    pub text: bool,

    /// The session whose read baselines guard changes (also QUILL_SESSION) [default: default].
    #[arg(long, global = true, value_name = "ID")]
    pub session: Option<String>,

    /// Where sessions, locks and undo history live (also QUILL_STATE_DIR) [default:
    /// $XDG_STATE_HOME/quill].
    #[arg(long, global = true, value_name = "DIR")]
    pub state_dir: Option<PathBuf>,

    /// Confine every path to this directory, symlinks resolved (also QUILL_ROOT).
    #[arg(long, global = true, value_name = "DIR")]
    pub root: Option<PathBuf>,

    /// Refuse every change (read_only).
    #[arg(long, global = true, env = "QUILL_READ_ONLY", value_parser = clap::builder::FalseyValueParser::new())]
    pub read_only: bool,

    /// Changes need a complete read (every line shown, none cut).
    #[arg(long, global = true, env = "QUILL_STRICT", value_parser = clap::builder::FalseyValueParser::new())]
    pub strict: bool,

    /// edit and apply: when the file changed since the read and the change leaves the edit's
    /// lines alone, apply the edit to the current file and show the change in a warning (also
    /// QUILL_MERGE).
    #[arg(long, global = true, env = "QUILL_MERGE", value_parser = clap::builder::FalseyValueParser::new())]
    pub merge: bool,

    /// Keep no copy of what is read, so a stale answer cannot show the change since the read
    /// (also QUILL_KEEP_READS=0).
    #[arg(long, global = true)]
    pub no_keep_reads: bool,

    /// Seconds to wait for a lock before lock_timeout (also QUILL_LOCK_TIMEOUT) [default: 30].
    #[arg(long, global = true, value_name = "SECS")]
    pub lock_timeout: Option<f64>,

    /// When to color text output.
    #[arg(long, global = true, value_enum, value_name = "WHEN", default_value_t = ColorChoice::Auto)]
    pub color: ColorChoice,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum ColorChoice {
    Auto,
    Always,
    Never,
}
