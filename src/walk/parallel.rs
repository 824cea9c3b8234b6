//! The sorted walk whose directories are listed in parallel: a pool of threads lists
//! directories ahead of the caller — the smallest path first, which is the order the caller
//! will want them in — filters each listing with ripgrep's rules (`walk::rules`) and sorts
//! it; the caller goes depth first through the listings in path order, waiting only for one
//! not listed yet (or listing it itself). So the entries come out exactly as `ignore`'s
//! sorted walker gives them, with the listing and the rule matching spread over the cores and
//! no probe per directory for files it does not hold. Memory: at most `READY` listings wait
//! for the caller; directories found and not yet listed are kept as paths.

use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::fs::{self, FileType};
use std::io;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::thread::JoinHandle;

use super::rules::{Found, Level, Top};
use super::{Entry, path_order};

/// Listings done and not yet taken by the caller, at most.
const READY: usize = 8;

/// One directory's listing: its entries kept, sorted, each directory with the slot its own
/// listing will fill; or why it could not be read.
type Listing = Result<Vec<Child>, io::Error>;

struct Child {
    path: PathBuf,
    file_type: FileType,
    /// For a directory: where its listing comes.
    slot: Option<Arc<Slot>>,
}

/// Where a directory's listing comes, guarded by `State`'s lock.
#[derive(Default)]
struct Slot {
    listing: Mutex<SlotState>,
}

#[derive(Default)]
enum SlotState {
    #[default]
    Queued,
    Listing,
    Done(Listing),
    Taken,
}

/// A directory to list.
struct Job {
    path: PathBuf,
    level: Arc<Level>,
    slot: Arc<Slot>,
    /// The root: its own level is built from its listing.
    root: bool,
}

impl PartialEq for Job {
    fn eq(&self, other: &Self) -> bool {
        self.path == other.path
    }
}
impl Eq for Job {}
impl PartialOrd for Job {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for Job {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        path_order(&self.path, &other.path)
    }
}

struct State {
    queue: BinaryHeap<Reverse<Job>>,
    ready: usize,
    stop: bool,
    caller_waits: bool,
}

struct Shared {
    top: Top,
    state: Mutex<State>,
    /// Workers wait here for a job (or for room).
    work: Condvar,
    /// The caller waits here for a listing.
    done: Condvar,
}

impl Shared {
    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// See the module's documentation. The root must be a directory (not a link to one).
pub(crate) struct ParallelWalk {
    shared: Arc<Shared>,
    threads: Vec<JoinHandle<()>>,
    /// The root's entry, until it is given.
    root: Option<Entry>,
    /// The directory given last (its slot, path and depth), whose listing comes next.
    enter: Option<(Arc<Slot>, PathBuf, usize)>,
    /// The open directories' entries still to give, innermost last, with their depth.
    stack: Vec<(std::vec::IntoIter<Child>, usize)>,
}

impl ParallelWalk {
    pub(crate) fn new(top: Top, root: &Path, threads: usize) -> ParallelWalk {
        let slot = Arc::new(Slot::default());
        let level = top.root_level(Found::default());
        let mut queue = BinaryHeap::new();
        queue.push(Reverse(Job {
            path: root.to_path_buf(),
            level,
            slot: slot.clone(),
            root: true,
        }));
        let shared = Arc::new(Shared {
            top,
            state: Mutex::new(State {
                queue,
                ready: 0,
                stop: false,
                caller_waits: false,
            }),
            work: Condvar::new(),
            done: Condvar::new(),
        });
        let threads = (0..threads)
            .filter_map(|_| {
                let shared = shared.clone();
                std::thread::Builder::new()
                    .name("quill-walk".into())
                    .spawn(move || work(&shared))
                    .ok()
            })
            .collect();
        let root_type = fs::symlink_metadata(root).map(|m| m.file_type());
        ParallelWalk {
            shared,
            threads,
            root: root_type.ok().map(|file_type| Entry {
                path: root.to_path_buf(),
                depth: 0,
                file_type: Some(file_type),
            }),
            enter: Some((slot, root.to_path_buf(), 0)),
            stack: Vec::new(),
        }
    }

    /// The listing of the directory given last: taken when done, listed here when no worker
    /// has started it, else waited for.
    fn listing(&self, slot: &Arc<Slot>) -> Listing {
        let mut st = self.shared.lock();
        loop {
            let mut s = slot.listing.lock().unwrap_or_else(|e| e.into_inner());
            match std::mem::take(&mut *s) {
                SlotState::Done(listing) => {
                    *s = SlotState::Taken;
                    drop(s);
                    st.ready -= 1;
                    // Woken at half, not at each one taken: they list in runs.
                    if st.ready == READY / 2 {
                        self.shared.work.notify_all();
                    }
                    return listing;
                }
                SlotState::Queued => {
                    *s = SlotState::Queued;
                    drop(s);
                    // Every directory before this one was taken: it is the first queued.
                    let first = st
                        .queue
                        .peek()
                        .is_some_and(|j| Arc::ptr_eq(&j.0.slot, slot));
                    if first && let Some(Reverse(job)) = st.queue.pop() {
                        *job.slot.listing.lock().unwrap_or_else(|e| e.into_inner()) =
                            SlotState::Listing;
                        drop(st);
                        let (listing, jobs) = list(&self.shared.top, &job);
                        queue_jobs(&self.shared, jobs);
                        return listing;
                    }
                }
                other => {
                    *s = other;
                    drop(s);
                }
            }
            st.caller_waits = true;
            st = self.shared.done.wait(st).unwrap_or_else(|e| e.into_inner());
            st.caller_waits = false;
        }
    }
}

impl Iterator for ParallelWalk {
    type Item = Result<Entry, ignore::Error>;

    fn next(&mut self) -> Option<Self::Item> {
        if let Some(root) = self.root.take() {
            return Some(Ok(root));
        }
        if let Some((slot, path, depth)) = self.enter.take() {
            match self.listing(&slot) {
                Ok(children) => self.stack.push((children.into_iter(), depth + 1)),
                Err(err) => return Some(Err(dir_error(path, err, depth))),
            }
        }
        loop {
            let (children, depth) = self.stack.last_mut()?;
            let depth = *depth;
            let Some(child) = children.next() else {
                self.stack.pop();
                continue;
            };
            if let Some(slot) = child.slot {
                self.enter = Some((slot, child.path.clone(), depth));
            }
            return Some(Ok(Entry {
                path: child.path,
                depth,
                file_type: Some(child.file_type),
            }));
        }
    }
}

impl Drop for ParallelWalk {
    fn drop(&mut self) {
        self.shared.lock().stop = true;
        self.shared.work.notify_all();
        for t in self.threads.drain(..) {
            let _ = t.join();
        }
    }
}

/// The error of a directory that could not be listed, with its path and depth (as the
/// `ignore` walker gives it).
fn dir_error(path: PathBuf, err: io::Error, depth: usize) -> ignore::Error {
    ignore::Error::WithDepth {
        depth,
        err: Box::new(ignore::Error::WithPath {
            path,
            err: Box::new(ignore::Error::Io(err)),
        }),
    }
}

fn work(shared: &Shared) {
    let mut st = shared.lock();
    loop {
        if st.stop {
            return;
        }
        if st.ready < READY
            && let Some(Reverse(job)) = st.queue.pop()
        {
            *job.slot.listing.lock().unwrap_or_else(|e| e.into_inner()) = SlotState::Listing;
            drop(st);
            let (listing, jobs) = list(&shared.top, &job);
            st = shared.lock();
            push_jobs(shared, &mut st, jobs);
            *job.slot.listing.lock().unwrap_or_else(|e| e.into_inner()) = SlotState::Done(listing);
            st.ready += 1;
            if st.caller_waits {
                shared.done.notify_one();
            }
            continue;
        }
        st = shared.work.wait(st).unwrap_or_else(|e| e.into_inner());
    }
}

fn queue_jobs(shared: &Shared, jobs: Vec<Job>) {
    if jobs.is_empty() {
        return;
    }
    let mut st = shared.lock();
    push_jobs(shared, &mut st, jobs);
}

fn push_jobs(shared: &Shared, st: &mut State, jobs: Vec<Job>) {
    if jobs.is_empty() {
        return;
    }
    st.queue.extend(jobs.into_iter().map(Reverse));
    shared.work.notify_all();
}

/// List one directory: its rules read (from the files its listing shows), its entries
/// filtered by the rules and sorted, a job for each directory kept.
fn list(top: &Top, job: &Job) -> (Listing, Vec<Job>) {
    let read = match fs::read_dir(&job.path) {
        Ok(r) => r,
        Err(e) => return (Err(e), Vec::new()),
    };
    let mut entries = Vec::new();
    let mut found = Found::default();
    for e in read {
        // An entry that vanished while listed is passed over, as walkdir's listing would
        // never have seen it.
        let Ok(e) = e else { continue };
        found.see(&e.file_name());
        entries.push(e);
    }
    let level = if job.root {
        top.root_level(found)
    } else {
        top.child_level(&job.level, &job.path, found)
    };
    let mut kept: Vec<(std::ffi::OsString, PathBuf, FileType)> = Vec::with_capacity(entries.len());
    for e in entries {
        let name = e.file_name();
        let Ok(file_type) = e.file_type() else {
            continue;
        };
        let path = job.path.join(&name);
        if !top.skips(&level, &path, &name, file_type.is_dir()) {
            kept.push((name, path, file_type));
        }
    }
    kept.sort_unstable_by(|a, b| a.0.as_encoded_bytes().cmp(b.0.as_encoded_bytes()));
    let mut jobs = Vec::new();
    let children = kept
        .into_iter()
        .map(|(_, path, file_type)| {
            let slot = file_type.is_dir().then(|| {
                let slot = Arc::new(Slot::default());
                jobs.push(Job {
                    path: path.clone(),
                    level: level.clone(),
                    slot: slot.clone(),
                    root: false,
                });
                slot
            });
            Child {
                path,
                file_type,
                slot,
            }
        })
        .collect();
    (Ok(children), jobs)
}
