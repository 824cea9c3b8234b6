//! quill: read, write, edit, find and move files safely. The binary is a thin `main` over
//! `app::main`; this library exposes only what the fuzz targets need — the pure cores
//! (paging, sniffing, encodings, images, notebooks, edit planning, diffing, patch parsing and
//! applying, the session file) — and keeps everything else crate-private, so the compiler
//! finds dead code.

#![warn(unreachable_pub)]

pub mod app;
pub(crate) mod bytes;
pub(crate) mod call;
pub(crate) mod checked;
pub(crate) mod cli;
pub mod cmd;
pub mod diff;
pub(crate) mod drift;
pub mod encoding;
pub(crate) mod error;
pub(crate) mod glob_pattern;
pub(crate) mod guard;
pub(crate) mod harness;
pub mod image;
pub(crate) mod input;
pub(crate) mod journal;
pub(crate) mod lock;
pub(crate) mod mcp;
pub(crate) mod missing;
pub(crate) mod names;
pub(crate) mod near;
pub mod notebook;
pub(crate) mod ordered;
pub(crate) mod output;
pub mod page;
pub(crate) mod parent;
pub(crate) mod paths;
pub(crate) mod placeholder;
pub(crate) mod probe;
pub(crate) mod publish;
pub(crate) mod report;
pub(crate) mod schema;
pub(crate) mod settings;
pub(crate) mod signals;
pub mod sniff;
pub mod state;
pub(crate) mod sys;
pub mod time;
pub(crate) mod walk;
pub(crate) mod warnings;
pub(crate) mod why;
