//! quill: read, write, edit, find and move files safely. The binary is a thin `main` over
//! `app::main`; this library exposes `embed` (a command line run in-process to its JSON
//! answer, docs/embed.md) and what the fuzz targets need — the pure cores (paging, sniffing,
//! encodings, images, notebooks, edit planning, diffing, patch parsing and applying, the
//! session file) — and keeps everything else crate-private, so the compiler finds dead code.

#![warn(unreachable_pub)]

pub(crate) mod agent;
pub mod app;
pub(crate) mod cli;
pub mod cmd;
pub mod edit;
pub mod embed;
pub(crate) mod error;
pub(crate) mod fs;
pub(crate) mod guard;
pub(crate) mod input;
pub(crate) mod output;
pub(crate) mod report;
pub(crate) mod schema;
pub(crate) mod search;
pub(crate) mod settings;
pub(crate) mod signals;
pub mod state;
pub(crate) mod sys;
pub mod text;
pub mod time;
pub(crate) mod warnings;
