//! `quill transfer`'s arguments and examples.

use std::path::PathBuf;

use clap::{Args, ValueEnum};

pub(super) const TRANSFER_EXAMPLES: &str = "\
Examples:
  quill transfer build/app dist/             # copy into a directory (create-only)
  quill transfer a.bin b.bin --move          # rename, or copy then remove the source
  quill transfer new.db live.db --replace-sha256 HEX   # replace a known version
  quill transfer big.iso /mnt/usb/ --progress json";

#[derive(Debug, Args)]
pub(crate) struct TransferArgs {
    /// The file to copy or move.
    pub source: PathBuf,
    /// The destination file, or an existing directory.
    pub destination: PathBuf,
    /// Remove the source once the destination is committed.
    #[arg(long = "move")]
    pub move_: bool,
    /// Replace an existing destination only if it has this SHA-256.
    #[arg(long, value_name = "HEX")]
    pub replace_sha256: Option<String>,
    /// The source must have this SHA-256 (checked on what was read).
    #[arg(long, value_name = "HEX")]
    pub expect_sha256: Option<String>,
    /// Do not create missing parent directories of the destination.
    #[arg(long)]
    pub no_parents: bool,
    /// Create missing parent directories: the default, accepted as `mkdir -p` and `cp
    /// --parents` users type it.
    #[arg(long, hide = true, conflicts_with = "no_parents")]
    pub parents: bool,
    /// Progress on stderr.
    #[arg(long, value_enum, default_value_t = ProgressMode::Auto)]
    pub progress: ProgressMode,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum ProgressMode {
    /// A bar when stderr is a terminal and the file is large.
    Auto,
    /// JSON lines on stderr.
    Json,
    /// Nothing.
    None,
}
