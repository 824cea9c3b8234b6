//! Every input quill reads because the caller named it — `write --from FILE|-`, `edit
//! --old-file`, `--new-file` and `--edits FILE|-` — is read one way, by `Input`. Opening goes
//! through probe's input guard: a regular file, or a FIFO or pipe the caller named on purpose
//! (`<(cmd)`, `/dev/stdin` on a pipe), opened without blocking even when nobody writes to it
//! yet; a directory is `is_directory`, a device or socket `irregular_file`, never opened.
//! Reading happens on a helper thread (which, for a FIFO, first waits in `poll` for a writer),
//! because a signal handler restarts a blocking `open` or `read`, so a thread blocked in one
//! would never notice Ctrl-C or SIGTERM; the caller's thread waits for the helper's chunks
//! with a timeout and answers `interrupted` as soon as a signal has arrived — also when the
//! input ends after it (a producer killed by the same Ctrl-C: its half input is never used).
//! `read_all` holds a whole input in memory up to a cap (edit's `--max-file-bytes`), past
//! which it is `file_too_large`, so an endless pipe costs at most the cap.
//!
//! Under `quill call` and `quill mcp` standard input carries the call itself: the call brings
//! what the command is to read as its stdin (edit's `edits`, apply's patch, in memory) in
//! the run's `Origin`, and `Input::stdin(origin)` yields that instead; `Origin::stdin_taken`
//! tells grep not to search the spent pipe by default.

use std::fs::File;
use std::io::{self, Read};
use std::path::{Path, PathBuf};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, SyncSender};
use std::time::Duration;

use crate::error::{Error, Result};
use crate::fs::paths::{self, Root};
use crate::fs::probe::{self, CHUNK};
use crate::settings::Origin;
use crate::signals;
use crate::sys::{self, FileTypeExt, MetadataExt};

/// How often a waiting reader looks at the signal flag.
const TICK: Duration = Duration::from_millis(50);

/// One input, read on its helper thread; `Read` yields its bytes and reports a caught signal
/// as `ErrorKind::Interrupted` (which `Error::io` turns into `interrupted`).
pub(crate) struct Input {
    /// Names the input in errors (`<stdin>` for stdin).
    name: PathBuf,
    /// The size of a regular file when it was opened (a pipe's is not known).
    size: Option<u64>,
    chunks: Receiver<io::Result<Vec<u8>>>,
    pending: Vec<u8>,
    pos: usize,
    done: bool,
}

/// What the helper thread reads.
enum Source {
    File(File),
    /// Opened non-blocking: wait for a writer before reading.
    Fifo(File),
    Stdin,
}

impl Input {
    /// Open the input file `path` (links followed): a regular file or a FIFO, never waiting.
    /// `op` names the operation in an error ("read the edits from").
    pub(crate) fn open(path: &Path, op: &'static str) -> Result<Input> {
        let (file, meta) = probe::open_input(path, op)?;
        Ok(if meta.file_type().is_fifo() {
            Input::start(path.into(), None, Source::Fifo(file))
        } else {
            Input::start(path.into(), Some(meta.size()), Source::File(file))
        })
    }

    /// An input file named on the command line (`--from`, `--old-file`, `--new-file`,
    /// `--edits FILE`), confined like every other path: under `--root` it must resolve inside
    /// the root and is opened beneath it (`probe::open_regular`: no symbolic link swapped in
    /// can lead out), and it must be a regular file; without a root, `open`.
    pub(crate) fn open_in(
        root: Option<&Root>,
        cwd: &Path,
        path: &Path,
        op: &'static str,
    ) -> Result<Input> {
        let Some(root) = root else {
            return Input::open(path, op);
        };
        let resolved = paths::resolve(cwd, Some(root), path)?;
        if !resolved.exists {
            return Err(paths::not_found(resolved.target));
        }
        let (file, meta) = probe::open_regular(Some(root), &resolved.target)?;
        Ok(Input::start(
            resolved.target,
            Some(meta.size()),
            Source::File(file),
        ))
    }

    /// Standard input, whatever it is (`--from -`, `--edits -`), or what a call (`origin`)
    /// brought in its place.
    pub(crate) fn stdin(origin: &Origin) -> Input {
        match &origin.stdin {
            Some(bytes) => {
                // Already whole: no helper thread, no channel to wait on.
                let (_, chunks) = mpsc::sync_channel(0);
                Input {
                    name: "<stdin>".into(),
                    size: Some(bytes.len() as u64),
                    chunks,
                    pending: bytes.clone(),
                    pos: 0,
                    done: true,
                }
            }
            None => Input::start("<stdin>".into(), None, Source::Stdin),
        }
    }

    fn start(name: PathBuf, size: Option<u64>, source: Source) -> Input {
        let (tx, chunks) = mpsc::sync_channel(4);
        std::thread::spawn(move || pump(source, tx));
        Input {
            name,
            size,
            chunks,
            pending: Vec::new(),
            pos: 0,
            done: false,
        }
    }

    /// The whole input, at most `cap` bytes: a larger one is `file_too_large` (a regular file
    /// from its size, before any read; a pipe once it has yielded more). `op` names the
    /// operation in errors.
    pub(crate) fn read_all(mut self, op: &'static str, cap: u64) -> Result<Vec<u8>> {
        let too_large = |name: &Path, size: u64| Error::FileTooLarge {
            path: name.to_path_buf(),
            size,
            limit: cap,
        };
        if let Some(size) = self.size.filter(|&s| s > cap) {
            return Err(too_large(&self.name, size));
        }
        let mut bytes = Vec::with_capacity(self.size.unwrap_or(0) as usize);
        let mut buf = vec![0u8; CHUNK];
        loop {
            signals::check()?;
            let n = probe::read_retrying(&mut self, &mut buf)
                .map_err(|e| Error::io(op, &self.name, e))?;
            if n == 0 {
                return Ok(bytes);
            }
            let total = bytes.len() as u64 + n as u64;
            if total > cap {
                return Err(too_large(&self.name, total));
            }
            bytes.extend_from_slice(&buf[..n]);
        }
    }
}

impl Read for Input {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        loop {
            if self.pos < self.pending.len() {
                let n = out.len().min(self.pending.len() - self.pos);
                out[..n].copy_from_slice(&self.pending[self.pos..self.pos + n]);
                self.pos += n;
                return Ok(n);
            }
            if self.done {
                // The end of an input that came after a signal may be a producer killed by
                // the same Ctrl-C: a half input, never to be used.
                if signals::interrupted() {
                    return Err(io::ErrorKind::Interrupted.into());
                }
                return Ok(0);
            }
            match self.chunks.recv_timeout(TICK) {
                Ok(Ok(chunk)) if chunk.is_empty() => self.done = true,
                Ok(Ok(chunk)) => {
                    self.pending = chunk;
                    self.pos = 0;
                }
                Ok(Err(e)) => {
                    self.done = true;
                    return Err(e);
                }
                Err(RecvTimeoutError::Disconnected) => self.done = true,
                Err(RecvTimeoutError::Timeout) if signals::interrupted() => {
                    return Err(io::ErrorKind::Interrupted.into());
                }
                Err(RecvTimeoutError::Timeout) => {}
            }
        }
    }
}

/// The helper thread: read `source` to its end (or first error) in chunks, sent to the
/// `Input`; stops early when the `Input` is dropped. It may stay blocked for good on a silent
/// pipe; it holds nothing but the pipe, and the process ends without it.
fn pump(source: Source, tx: SyncSender<io::Result<Vec<u8>>>) {
    let mut reader: Box<dyn Read> = match source {
        Source::File(file) => Box::new(file),
        Source::Fifo(file) => match sys::await_writer(&file) {
            Ok(()) => Box::new(file),
            Err(e) => {
                let _ = tx.send(Err(e));
                return;
            }
        },
        Source::Stdin => Box::new(io::stdin()),
    };
    loop {
        let mut buf = vec![0u8; CHUNK];
        let msg = match reader.read(&mut buf) {
            Ok(n) => {
                buf.truncate(n);
                Ok(buf)
            }
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => Err(e),
        };
        let last = !matches!(&msg, Ok(b) if !b.is_empty());
        if tx.send(msg).is_err() || last {
            return;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sys::testing::{self, mkfifo};
    use std::fs;

    #[test]
    fn a_regular_file_is_read_whole_under_its_cap() {
        let dir = tempfile::tempdir().unwrap();
        let f = dir.path().join("in");
        fs::write(&f, b"12345").unwrap();
        assert_eq!(
            Input::open(&f, "read")
                .unwrap()
                .read_all("read", 5)
                .unwrap(),
            b"12345"
        );
        let e = Input::open(&f, "read")
            .unwrap()
            .read_all("read", 4)
            .unwrap_err();
        assert!(
            matches!(
                e,
                Error::FileTooLarge {
                    size: 5,
                    limit: 4,
                    ..
                }
            ),
            "{e:?}"
        );
        let big: Vec<u8> = (0..CHUNK * 3 + 5).map(|i| i as u8).collect();
        fs::write(&f, &big).unwrap();
        let mut streamed = Vec::new();
        Input::open(&f, "read")
            .unwrap()
            .read_to_end(&mut streamed)
            .unwrap();
        assert_eq!(streamed, big);
    }

    #[test]
    fn directories_and_devices_are_refused_unopened() {
        let dir = tempfile::tempdir().unwrap();
        let kind = |p: &Path| Input::open(p, "read").err().unwrap().kind();
        assert_eq!(kind(dir.path()), "is_directory");
        assert_eq!(kind(Path::new("/dev/zero")), "irregular_file");
        assert_eq!(kind(&dir.path().join("missing")), "not_found");
    }

    /// A FIFO opens at once, with nobody writing; its reader waits for the writer, who may
    /// come later, and reads everything it writes.
    #[test]
    fn a_fifo_opens_at_once_and_waits_for_its_writer() {
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("fifo");
        mkfifo(&fifo);
        let input = Input::open(&fifo, "read").unwrap();
        let f2 = fifo.clone();
        let writer = std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(150));
            let mut w = fs::OpenOptions::new().write(true).open(&f2).unwrap();
            std::io::Write::write_all(&mut w, b"piped").unwrap();
        });
        assert_eq!(input.read_all("read", 5).unwrap(), b"piped");
        writer.join().unwrap();
    }

    /// A writer that opens and closes without writing: an empty input, not a wait forever.
    #[test]
    fn a_fifo_whose_writer_leaves_is_empty() {
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("fifo");
        mkfifo(&fifo);
        let input = Input::open(&fifo, "read").unwrap();
        drop(testing::open_writer_nonblocking(&fifo).unwrap());
        assert_eq!(input.read_all("read", 5).unwrap(), b"");
    }

    /// A pipe past the cap: refused once it has yielded more.
    #[test]
    fn an_endless_fifo_stops_at_the_cap() {
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("fifo");
        mkfifo(&fifo);
        let input = Input::open(&fifo, "read").unwrap();
        let f2 = fifo.clone();
        std::thread::spawn(move || {
            let mut w = fs::OpenOptions::new().write(true).open(&f2).unwrap();
            while std::io::Write::write_all(&mut w, &[b'y'; 4096]).is_ok() {}
        });
        let e = input.read_all("read", 100_000).unwrap_err();
        assert!(
            matches!(e, Error::FileTooLarge { size, limit: 100_000, .. } if size > 100_000),
            "{e:?}"
        );
    }
}
