//! quill: read, write, edit, find and move files safely. The binary is a thin `main` over
//! `app::main`; this library exposes the modules so tests, benches and fuzz targets can reach
//! the pure cores (paging, sniffing, edit planning, diffing).

pub mod app;
pub(crate) mod bytes;
pub mod cli;
pub mod cmd;
pub mod diff;
pub mod encoding;
pub mod error;
pub mod guard;
pub mod image;
pub mod lock;
pub mod notebook;
pub mod output;
pub mod page;
pub mod paths;
pub mod probe;
pub mod publish;
pub mod report;
pub mod settings;
pub mod signals;
pub mod sniff;
pub mod state;
pub mod walk;
pub mod warnings;
