//! `quill transfer`'s arguments and examples.

use std::path::PathBuf;

use clap::{Args, ValueEnum};

pub(super) const TRANSFER_EXAMPLES: &str = "\
Examples:
  quill transfer build/app dist/             # copy into a directory (create-only)
  quill transfer a.bin b.bin --move          # rename, or copy then remove the source
  quill transfer new.db live.db --replace-sha256 HEX   # replace a known version
  quill transfer big.iso /mnt/usb/ --progress json
  quill transfer dist/app.tar build-box:releases/     # push over ssh (create-only there too)
  quill transfer me@host:/var/log/app.log . --rsh 'ssh -p 2222'   # pull";

#[derive(Debug, Args)]
pub(crate) struct TransferArgs {
    /// The file to copy or move; `[user@]host:path` is on another machine (reached by ssh).
    pub source: PathBuf,
    /// The destination file, or an existing directory; `[user@]host:path` is on another machine.
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
    /// The command that reaches another machine, split like a shell would (`ssh -p 2222`).
    #[arg(long, value_name = "CMD", env = "QUILL_RSH", default_value = "ssh")]
    pub rsh: String,
    /// The command that runs quill on the other machine, given to its shell as it is
    /// (`/opt/bin/quill`; global options for that side may follow, such as its root).
    #[arg(
        long,
        value_name = "CMD",
        env = "QUILL_REMOTE_QUILL",
        default_value = "quill"
    )]
    pub remote_quill: String,
    /// The far side of a transfer across machines: speak this protocol version on stdin and
    /// stdout (`ssh HOST quill transfer --serve 1 - -`; SRC and DST are not used).
    #[arg(long, hide = true, value_name = "PROTOCOL")]
    pub serve: Option<u32>,
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
