//! One integration test binary: every behavior of the contract (docs/) through the real `quill` binary, in a
//! temporary directory with a private state directory, checking the exit code, the JSON and
//! the bytes left on disk. One module per command or concern.

mod answer;
mod apply;
mod apply_crash;
mod util;

mod cli;
mod concurrency;
mod containment;
mod contract;
mod edit;
mod encodings;
mod faults;
mod fuzzy;
mod generated;
mod glob_pages;
mod grammar;
mod grep_stdin;
mod grep_stream;
mod guards;
mod harness;
mod input_waits;
mod layout;
mod lines;
mod listing;
mod living;
#[cfg(feature = "mcp")]
mod mcp;
mod merging;
mod misses;
mod missing;
mod mistakes;
mod names;
mod patching;
mod planted;
mod read;
mod reference;
mod remote;
mod remote_faults;
mod resolve;
mod rm;
mod schema;
mod search;
mod signals;
mod sshd;
mod state;
mod terminal;
mod tour;
mod transfer;
mod undo;
mod walk_order;
mod why;
mod write;
