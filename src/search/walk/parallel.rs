//! The sorted walk whose directories are listed in parallel: a pool of threads lists
//! directories ahead of the caller — the smallest path first, which is the order the caller
//! will want them in — filters each listing with ripgrep's rules (`walk::rules`) and sorts
//! it; the caller goes depth first through the listings in path order, waiting only for one
//! not listed yet (or listing it itself). So the entries come out exactly as `ignore`'s
//! sorted walker gives them, with the listing and the rule matching spread over the cores and
//! no probe per directory for files it does not hold. Memory: the listings that wait for the
//! caller hold at most `READY` entries; directories found and not yet listed are kept as
//! paths.

use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::fs::{self, FileType};
use std::io;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::thread::JoinHandle;

use super::rules::{Found, Level, Top};
use super::{Entry, path_order};
use crate::sys;

/// Entries of the listings done and not yet taken by the caller, at most (a directory larger
/// than that is still listed, alone).
const READY: usize = 4096;

/// Entries ready that wake a waiting caller (see `work`).
const WAKE: usize = READY / 8;

/// Listings kept for reuse, at most.
const SPARE: usize = 64;

/// One directory's listing, or why it could not be read.
type Listing = Result<Names, io::Error>;

/// The entries of a directory that the rules keep, sorted: their names in one buffer, each
/// directory with the slot its own listing will fill. A few allocations per directory, not
/// one per entry: what a worker allocates the caller frees, and glibc frees another thread's
/// memory under that thread's arena lock (perf counted 12,809 waits on it for 61,000
/// directories when each entry was a `PathBuf` of its own).
#[derive(Default)]
struct Names {
    bytes: Vec<u8>,
    children: Vec<Child>,
}

struct Child {
    /// The name: `bytes[start..end]`.
    start: usize,
    end: usize,
    file_type: FileType,
    /// For a directory: where its listing comes.
    slot: Option<Arc<Slot>>,
}

/// A directory the caller is in: its path, its listing, the next entry to give.
struct Open {
    dir: PathBuf,
    names: Names,
    next: usize,
    depth: usize,
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
    /// The slot the caller waits for (only its listing wakes the caller).
    awaited: Option<Arc<Slot>>,
    /// Workers waiting for a job.
    idle: usize,
    /// Listings the caller is done with, for the workers to fill again (their buffers
    /// grown already, and freed by the thread that made them).
    spare: Vec<Names>,
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
    /// Workers to start once there is a directory to list besides the root's (a search of
    /// one directory starts none).
    to_start: usize,
    /// The root's entry, until it is given.
    root: Option<Entry>,
    /// The directory given last (its slot, path and depth), whose listing comes next.
    enter: Option<(Arc<Slot>, PathBuf, usize)>,
    /// The open directories, innermost last.
    stack: Vec<Open>,
    /// Listings done with, to give back (see `State::spare`).
    spare: Vec<Names>,
}

impl ParallelWalk {
    pub(crate) fn new(top: Top, root: &Path, threads: usize) -> ParallelWalk {
        let slot = Arc::new(Slot::default());
        // A stand-in: the root's level is built from its listing (`Job::root`).
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
                awaited: None,
                idle: 0,
                spare: Vec::new(),
            }),
            work: Condvar::new(),
            done: Condvar::new(),
        });
        let root_type = fs::symlink_metadata(root).map(|m| m.file_type());
        ParallelWalk {
            shared,
            threads: Vec::new(),
            to_start: threads,
            root: root_type.ok().map(|file_type| Entry {
                path: root.to_path_buf(),
                depth: 0,
                file_type: Some(file_type),
            }),
            enter: Some((slot, root.to_path_buf(), 0)),
            stack: Vec::new(),
            spare: Vec::new(),
        }
    }

    /// The listing of the directory given last: taken when done, listed here when no worker
    /// has started it, else waited for.
    fn listing(&mut self, slot: &Arc<Slot>) -> Listing {
        let mut st = self.shared.lock();
        while st.spare.len() < SPARE
            && let Some(names) = self.spare.pop()
        {
            st.spare.push(names);
        }
        self.spare.clear();
        loop {
            let mut s = slot.listing.lock().unwrap_or_else(|e| e.into_inner());
            match std::mem::take(&mut *s) {
                SlotState::Done(listing) => {
                    *s = SlotState::Taken;
                    drop(s);
                    let was = st.ready;
                    st.ready -= entries(&listing);
                    // Woken at half, not at each one taken: they list in runs.
                    if was > READY / 2 && st.ready <= READY / 2 {
                        self.shared.work.notify_all();
                    }
                    return listing;
                }
                SlotState::Queued => {
                    *s = SlotState::Queued;
                    drop(s);
                    // Every directory before this one was taken, so it is the first queued
                    // (searched for all the same: a walk must not hang on a broken rule).
                    let mut before = Vec::new();
                    while let Some(Reverse(job)) = st.queue.pop() {
                        if Arc::ptr_eq(&job.slot, slot) {
                            st.queue.extend(before);
                            *job.slot.listing.lock().unwrap_or_else(|e| e.into_inner()) =
                                SlotState::Listing;
                            drop(st);
                            let (listing, jobs) = list(&self.shared.top, &job, Names::default());
                            if !jobs.is_empty() {
                                self.start();
                            }
                            queue_jobs(&self.shared, jobs);
                            return listing;
                        }
                        before.push(Reverse(job));
                    }
                    st.queue.extend(before);
                }
                other => {
                    *s = other;
                    drop(s);
                }
            }
            st.awaited = Some(slot.clone());
            st = self.shared.done.wait(st).unwrap_or_else(|e| e.into_inner());
            st.awaited = None;
        }
    }
}

impl ParallelWalk {
    fn start(&mut self) {
        for _ in 0..std::mem::take(&mut self.to_start) {
            let shared = self.shared.clone();
            let spawned = std::thread::Builder::new()
                .name("quill-walk".into())
                .spawn(move || work(&shared));
            // Without threads the caller lists every directory itself.
            if let Ok(t) = spawned {
                self.threads.push(t);
            }
        }
    }
}

impl Iterator for ParallelWalk {
    type Item = Result<Entry, ignore::Error>;

    fn next(&mut self) -> Option<Self::Item> {
        if let Some(root) = self.root.take() {
            return Some(Ok(root));
        }
        if let Some((slot, dir, depth)) = self.enter.take() {
            match self.listing(&slot) {
                Ok(names) => self.stack.push(Open {
                    dir,
                    names,
                    next: 0,
                    depth: depth + 1,
                }),
                Err(err) => return Some(Err(dir_error(dir, err, depth))),
            }
        }
        loop {
            let open = self.stack.last_mut()?;
            let Some(child) = open.names.children.get_mut(open.next) else {
                if let Some(open) = self.stack.pop() {
                    self.spare.push(open.names);
                }
                continue;
            };
            open.next += 1;
            let name = &open.names.bytes[child.start..child.end];
            let path = open.dir.join(&*sys::os_str(name));
            if let Some(slot) = child.slot.take() {
                self.enter = Some((slot, path.clone(), open.depth));
            }
            return Some(Ok(Entry {
                path,
                depth: open.depth,
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
            let spare = st.spare.pop().unwrap_or_default();
            drop(st);
            // A listing that panicked is an error the caller reports, not a slot it waits
            // for forever.
            let (listing, jobs) = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                list(&shared.top, &job, spare)
            }))
            .unwrap_or_else(|_| (Err(io::Error::other("the walk failed here")), Vec::new()));
            st = shared.lock();
            push_jobs(shared, &mut st, jobs);
            st.ready += entries(&listing);
            *job.slot.listing.lock().unwrap_or_else(|e| e.into_inner()) = SlotState::Done(listing);
            // The caller is woken when what it waits for is listed and a run of listings
            // waits for it (or no more will come soon): a wake-up per directory costs more
            // than listing it.
            if let Some(a) = &st.awaited
                && (st.ready >= WAKE || st.queue.is_empty())
                && matches!(
                    *a.listing.lock().unwrap_or_else(|e| e.into_inner()),
                    SlotState::Done(_)
                )
            {
                shared.done.notify_one();
            }
            continue;
        }
        st.idle += 1;
        st = shared.work.wait(st).unwrap_or_else(|e| e.into_inner());
        st.idle -= 1;
    }
}

/// What a listing weighs against `READY`.
fn entries(listing: &Listing) -> usize {
    listing.as_ref().map_or(1, |n| n.children.len().max(1))
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
    let n = jobs.len();
    st.queue.extend(jobs.into_iter().map(Reverse));
    if st.ready < READY {
        for _ in 0..n.min(st.idle) {
            shared.work.notify_one();
        }
    }
}

/// List one directory: its rules read (from the files its listing shows), its entries
/// filtered by the rules and sorted, a job for each directory kept.
fn list(top: &Top, job: &Job, names: Names) -> (Listing, Vec<Job>) {
    let Names {
        mut bytes,
        children,
    } = names;
    bytes.clear();
    let mut children = children;
    children.clear();
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
        let Ok(file_type) = e.file_type() else {
            continue;
        };
        let name = e.file_name();
        found.see(&name);
        let start = bytes.len();
        bytes.extend_from_slice(&sys::os_bytes(&name));
        entries.push((start, bytes.len(), file_type));
    }
    let level = if job.root {
        top.root_level(found)
    } else {
        top.child_level(&job.level, &job.path, found)
    };
    // One path, each name pushed in turn, for the rules.
    let mut path = job.path.clone();
    entries.retain(|&(start, end, file_type)| {
        let name = &*sys::os_str(&bytes[start..end]);
        path.push(name);
        let keep = !top.skips(&level, &path, name, file_type.is_dir());
        path.pop();
        keep
    });
    entries.sort_unstable_by(|a, b| bytes[a.0..a.1].cmp(&bytes[b.0..b.1]));
    let mut jobs = Vec::new();
    children.extend(entries.into_iter().map(|(start, end, file_type)| {
        let slot = file_type.is_dir().then(|| {
            let slot = Arc::new(Slot::default());
            jobs.push(Job {
                path: job.path.join(&*sys::os_str(&bytes[start..end])),
                level: level.clone(),
                slot: slot.clone(),
                root: false,
            });
            slot
        });
        Child {
            start,
            end,
            file_type,
            slot,
        }
    }));
    (Ok(Names { bytes, children }), jobs)
}
