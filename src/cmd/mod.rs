//! One module per subcommand. Each turns its raw clap arguments into a checked request
//! (`XArgs::resolve(&Settings) -> XRequest`: flags parsed, paths resolved and contained,
//! matchers compiled — before any guarded I/O), and has a `run(&Settings, XRequest) ->
//! Result<Report>` that does the guarded I/O through `probe`, `guard`, `lock`, `state` and
//! `publish` and returns a report. Glob and grep also stream their results, through the
//! output stream that `app` hands them; no other command prints, and none imports `app`.

pub mod apply;
pub mod edit;
pub(crate) mod generate;
pub(crate) mod glob;
pub(crate) mod grep;
pub(crate) mod listing;
pub(crate) mod read;
pub(crate) mod rm;
pub(crate) mod state;
pub mod transfer;
pub(crate) mod undo;
pub(crate) mod write;
