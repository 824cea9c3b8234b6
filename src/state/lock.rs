//! Advisory locks that order quill processes (docs/model.md). A lock is an exclusive `flock` on a
//! lock file in the state directory, taken with `std::fs::File::try_lock` in a bounded wait;
//! the kernel drops it when the holder exits or dies, so there are no stale locks. The target
//! itself is never locked and lock files are never unlinked: both would let two holders lock
//! different inodes. Lock files are opened `O_NOFOLLOW|O_NONBLOCK` and checked (a regular
//! file of this user with one link, `checked`) before they are locked or written, and
//! carry the holder's pid.

use std::fs::{File, TryLockError};
use std::path::{Path, PathBuf};
use std::thread;
use std::time::{Duration, Instant};

use sha2::{Digest, Sha256};

use crate::error::{Error, Result};
use crate::state::checked;
use crate::sys;
use crate::text::hex;

/// A held lock; released when dropped. The release is an explicit unlock, not just the close:
/// a child another thread is starting holds a copy of the descriptor until it execs, and the
/// lock would live as long as that copy.
#[derive(Debug)]
pub struct LockGuard {
    file: File,
}

impl Drop for LockGuard {
    fn drop(&mut self) {
        let _ = self.file.unlock();
    }
}

/// Take an exclusive lock on `lock_file`, waiting at most `timeout`. `subject` is what the
/// lock protects, named in a `lock_timeout` error.
pub(crate) fn acquire(lock_file: &Path, subject: &Path, timeout: Duration) -> Result<LockGuard> {
    // The options of every state file: a link planted at its name is never followed (the open
    // fails), a FIFO never blocks, and the descriptor is not inherited.
    let file = checked::options()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .open(lock_file)
        .map_err(|e| checked::open_failed(lock_file, e))?;
    // A FIFO or a hard link to a file elsewhere planted at the name is refused before it is
    // locked, and before the pid is written into it.
    checked::check_file(&file, lock_file)?;
    let start = Instant::now();
    let mut pause = Duration::from_micros(200);
    loop {
        match file.try_lock() {
            Ok(()) => break,
            Err(TryLockError::WouldBlock) => {
                // Ctrl-C while waiting: give up at once (nothing was changed yet).
                crate::signals::check()?;
                let waited = start.elapsed();
                if waited >= timeout {
                    return Err(Error::LockTimeout {
                        path: subject.to_path_buf(),
                        seconds: timeout.as_secs_f64(),
                    });
                }
                thread::sleep(pause.min(timeout - waited));
                pause = (pause * 2).min(Duration::from_millis(10));
            }
            Err(TryLockError::Error(e)) => {
                return Err(Error::StateUnavailable {
                    message: format!("cannot lock {}: {e}", lock_file.display()),
                    path: lock_file.to_path_buf(),
                });
            }
        }
    }
    // Diagnostics only: who holds it. Failure to write this is harmless. Overwritten in place
    // at a fixed width, never truncated: on ext4 a truncate-to-zero forces a data flush at close
    // (auto_da_alloc), which cost milliseconds per lock.
    let _ = sys::write_all_at(&file, format!("{:<10}\n", std::process::id()).as_bytes(), 0);
    Ok(LockGuard { file })
}

/// The lock file that orders mutations of `canonical` (a resolved path).
pub(crate) fn mutation_lock_path(state_dir: &Path, canonical: &Path) -> PathBuf {
    let digest = Sha256::digest(sys::os_bytes(canonical.as_os_str()));
    state_dir
        .join("locks")
        .join(format!("{}.lock", hex(&digest)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sys::testing;

    #[test]
    fn second_acquire_times_out_then_succeeds_after_release() {
        let dir = tempfile::tempdir().unwrap();
        let lock = dir.path().join("x.lock");
        let first = acquire(&lock, Path::new("/f"), Duration::from_secs(1)).unwrap();
        let err = acquire(&lock, Path::new("/f"), Duration::from_millis(30)).unwrap_err();
        assert_eq!(err.kind(), "lock_timeout");
        drop(first);
        acquire(&lock, Path::new("/f"), Duration::from_millis(30)).unwrap();
        assert!(lock.exists(), "lock files are never unlinked");
    }

    #[test]
    fn a_waiter_gets_the_lock_when_the_holder_releases_it() {
        let dir = tempfile::tempdir().unwrap();
        let lock = dir.path().join("x.lock");
        let first = acquire(&lock, Path::new("/f"), Duration::from_secs(1)).unwrap();
        let releaser = thread::spawn(move || {
            thread::sleep(Duration::from_millis(60));
            drop(first);
        });
        let start = Instant::now();
        acquire(&lock, Path::new("/f"), Duration::from_secs(5)).unwrap();
        assert!(start.elapsed() >= Duration::from_millis(50));
        releaser.join().unwrap();
    }

    #[test]
    fn a_lock_file_that_is_a_link_is_not_followed() {
        let dir = tempfile::tempdir().unwrap();
        let victim = dir.path().join("victim");
        std::fs::write(&victim, b"keep me").unwrap();
        let lock = dir.path().join("x.lock");
        testing::symlink(&victim, &lock).unwrap();
        let err = acquire(&lock, Path::new("/f"), Duration::from_millis(30)).unwrap_err();
        assert_eq!(err.kind(), "state_unavailable");
        assert_eq!(std::fs::read(&victim).unwrap(), b"keep me");
        // A dangling link is not followed to create its target either.
        let dangling = dir.path().join("y.lock");
        testing::symlink(dir.path().join("created"), &dangling).unwrap();
        assert!(acquire(&dangling, Path::new("/f"), Duration::from_millis(30)).is_err());
        assert!(!dir.path().join("created").exists());
    }

    #[test]
    fn a_lock_file_with_another_name_elsewhere_is_refused_and_left_alone() {
        let dir = tempfile::tempdir().unwrap();
        let outside = dir.path().join("outside");
        std::fs::write(&outside, b"keep me").unwrap();
        let lock = dir.path().join("x.lock");
        std::fs::hard_link(&outside, &lock).unwrap();
        let err = acquire(&lock, Path::new("/f"), Duration::from_millis(30)).unwrap_err();
        assert_eq!(err.kind(), "state_unavailable");
        assert!(err.to_string().contains("has 2 hard links"), "{err}");
        assert_eq!(std::fs::read(&outside).unwrap(), b"keep me");
        // A FIFO is refused at once, never waited on.
        let fifo = dir.path().join("f.lock");
        testing::mkfifo(&fifo);
        let err = acquire(&fifo, Path::new("/f"), Duration::from_millis(30)).unwrap_err();
        assert!(err.to_string().contains("is a FIFO"), "{err}");
    }

    #[test]
    fn the_holder_writes_its_pid() {
        let dir = tempfile::tempdir().unwrap();
        let lock = dir.path().join("x.lock");
        let _held = acquire(&lock, Path::new("/f"), Duration::from_secs(1)).unwrap();
        let text = std::fs::read_to_string(&lock).unwrap();
        assert_eq!(text.trim(), std::process::id().to_string());
    }

    #[test]
    fn mutation_locks_are_named_by_the_paths_sha256() {
        let p = mutation_lock_path(Path::new("/state"), Path::new("abc"));
        assert_eq!(
            p,
            Path::new("/state/locks")
                .join("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad.lock")
        );
    }
}
