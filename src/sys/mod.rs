//! The platform layer: the calls whose form or existence depends on the operating system,
//! each behind one function with the same meaning everywhere, so the modules that use them
//! never ask which system they run on. Linux is the reference (`linux.rs`); other Unix
//! systems (macOS first, `unix.rs`) get the nearest call that keeps the guarantee, or an
//! answer that makes the caller take its portable path (the walk instead of `openat2`, an
//! fsync per file instead of `syncfs`). What differs is written in the README's Platforms.
//!
//! This is the first step of the layer: it owns the calls that exist only on Linux. Plain
//! POSIX calls (rustix `openat`, `renameat`, `std::os::unix`) are still named where they
//! are used.

#[cfg(target_os = "linux")]
mod linux;
#[cfg(target_os = "linux")]
use linux as imp;
#[cfg(not(target_os = "linux"))]
mod unix;
#[cfg(not(target_os = "linux"))]
use unix as imp;

pub(crate) use imp::{
    PATH_ONLY, SYNCFS, durable_flush, open_beneath, start_writeback, sync_filesystem,
};
