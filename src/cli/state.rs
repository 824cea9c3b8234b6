//! `quill state`'s arguments, subcommands and examples.

use std::path::PathBuf;

use clap::{Args, Subcommand};

pub(super) const STATE_EXAMPLES: &str = "\
Examples:
  quill state                      # this session's baselines
  quill state --all-sessions       # every session
  quill state forget src/a.rs      # drop one baseline
  QUILL_SESSION=agent-2 quill state clear";

#[derive(Debug, Args)]
#[command(args_conflicts_with_subcommands = true)]
pub(crate) struct StateArgs {
    #[command(subcommand)]
    pub action: Option<StateAction>,
    /// List every session instead of this one's baselines.
    #[arg(long)]
    pub all_sessions: bool,
}

#[derive(Debug, Subcommand)]
pub(crate) enum StateAction {
    /// List the session's baselines.
    Show,
    /// Forget the baseline of one file.
    Forget {
        /// The file to forget.
        path: PathBuf,
    },
    /// Forget every baseline of the session.
    Clear,
}
