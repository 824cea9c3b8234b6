//! The copy loop of `quill transfer`, in bounded memory: a reader thread fills a small pool of
//! buffers from the source and hashes them while the other side of the channel writes the
//! previous ones — into the temporary file of a local copy, or into the frames of a push to
//! another machine — so hashing overlaps writing and costs no second pass.

use std::fs::File;
use std::io::{self, Write};
use std::path::Path;
use std::sync::mpsc::{Receiver, SyncSender, sync_channel};

use sha2::{Digest, Sha256};

use crate::error::{Error, Result};
use crate::fs::probe::{self, Identity};
use crate::output::progress::Progress;
use crate::signals;
use crate::text::hex;

/// Size of one copy buffer. With `BUFFERS` of them in flight the copy holds 1 MiB, which stays
/// in the CPU's cache between the read, the hash and the write: measured against 1 MiB buffers
/// on the bench machine, 256 KiB took ~25% less CPU (512 KiB was as good, 2 MiB much worse).
pub(super) const BUF: usize = 256 * 1024;
/// Buffers circulating between the reader thread and the writer.
pub(super) const BUFFERS: usize = 4;
/// Writeback of the temporary file is started every this many bytes, so that the final fsync
/// finds little left to do (the kernel would otherwise hold a whole GiB dirty until then).
pub(super) const WRITEBACK_EVERY: u64 = 8 * 1024 * 1024;

/// One message from the reader thread.
pub(super) enum Chunk {
    Data(Vec<u8>, usize),
    /// End of file: the SHA-256 and byte count of everything sent, and the source's identity
    /// (from the open descriptor) after the last read.
    End(String, u64, Identity),
    Failed(Error),
}

/// Copy `source` into `out` in bounded memory: a reader thread fills buffers and hashes them
/// while this thread writes the previous ones, so hashing overlaps the writes. Checks for
/// Ctrl-C / SIGTERM between buffers. Returns (sha256, bytes, identity after the copy).
pub(super) fn stream(
    source: &File,
    source_path: &Path,
    out: &mut File,
    out_path: &Path,
    progress: &mut Progress,
) -> Result<(String, u64, Identity)> {
    let (data_tx, data_rx) = sync_channel::<Chunk>(BUFFERS);
    let (free_tx, free_rx) = sync_channel::<Vec<u8>>(BUFFERS);
    for _ in 0..BUFFERS {
        let _ = free_tx.send(vec![0u8; BUF]);
    }
    std::thread::scope(|scope| {
        scope.spawn(move || read_and_hash(source, source_path, &data_tx, &free_rx));
        write_all(data_rx, free_tx, out, out_path, progress)
    })
}

pub(super) fn read_and_hash(
    mut source: &File,
    path: &Path,
    data: &SyncSender<Chunk>,
    free: &Receiver<Vec<u8>>,
) {
    let mut hasher = Sha256::new();
    let mut total = 0u64;
    // A closed channel means the writer gave up (an error, Ctrl-C): stop quietly.
    while let Ok(mut buf) = free.recv() {
        let mut filled = 0;
        while filled < buf.len() {
            match probe::read_retrying(&mut source, &mut buf[filled..]) {
                Ok(0) => break,
                Ok(n) => filled += n,
                Err(e) => {
                    let _ = data.send(Chunk::Failed(Error::io("read", path, e)));
                    return;
                }
            }
        }
        if filled == 0 {
            let after = match source.metadata() {
                Ok(m) => Identity::of(&m),
                Err(e) => {
                    let _ = data.send(Chunk::Failed(Error::io("inspect", path, e)));
                    return;
                }
            };
            let _ = data.send(Chunk::End(hex(&hasher.finalize()), total, after));
            return;
        }
        hasher.update(&buf[..filled]);
        total += filled as u64;
        if data.send(Chunk::Data(buf, filled)).is_err() {
            return;
        }
    }
}

fn write_all(
    data: Receiver<Chunk>,
    free: SyncSender<Vec<u8>>,
    out: &mut File,
    out_path: &Path,
    progress: &mut Progress,
) -> Result<(String, u64, Identity)> {
    let mut written = 0u64;
    let mut flushed = 0u64;
    loop {
        signals::check()?;
        match data.recv() {
            Ok(Chunk::Data(buf, n)) => {
                out.write_all(&buf[..n])
                    .map_err(|e| Error::io("write", out_path, e))?;
                let _ = free.send(buf);
                written += n as u64;
                if written - flushed >= WRITEBACK_EVERY {
                    crate::sys::start_writeback(out, flushed, written - flushed);
                    flushed = written;
                }
                progress.advance(n as u64);
            }
            Ok(Chunk::End(sha256, bytes, after)) => return Ok((sha256, bytes, after)),
            Ok(Chunk::Failed(e)) => return Err(e),
            Err(_) => {
                return Err(Error::io(
                    "read",
                    out_path,
                    io::Error::other("the reader stopped unexpectedly"),
                ));
            }
        }
    }
}
