//! The ordered parallel map behind `quill grep` and `glob --sort path`: the calling thread walks (items come in path
//! order) and hands each item to a pool of worker threads; their results come back in any
//! order and a reorder buffer passes each one on as soon as every earlier one has been. So
//! output starts at once, in order, while the files are searched in parallel.
//!
//! Memory is bounded by the work in flight, not by the answer: at most `Window::files`
//! items are out at once, at most `Window::queued` of them not yet taken by a worker, and no
//! new item goes out while the results that wait for an earlier one weigh more than
//! `Window::bytes`. A worker may also pass a long result on in parts while it works
//! (`Ahead`): the parts of the item whose turn it is go straight to the output, the others
//! wait (within the same bound: past it, a worker waits for its turn), so one huge file never
//! sits whole in memory. The pipeline knows nothing of files or searches (unit- and
//! property-tested with plain numbers).

use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Condvar, Mutex, MutexGuard, mpsc};

/// How much work may be in flight.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Window {
    /// Items handed out whose results have not been passed on yet.
    pub files: usize,
    /// Items handed out that no worker has taken yet.
    pub queued: usize,
    /// Bytes (as `Weigh` says) of finished results waiting for an earlier one, and again of
    /// parts passed ahead that wait.
    pub bytes: usize,
}

/// What a result weighs in the reorder buffer.
pub(crate) trait Weigh {
    fn weight(&self) -> usize;
}

impl<T: Weigh> Weigh for Option<T> {
    fn weight(&self) -> usize {
        self.as_ref().map_or(0, Weigh::weight)
    }
}

/// Where results go, in order: the caller's output.
pub(crate) trait Output {
    /// A part of an item's result passed ahead (`first`: its first part). False: the output
    /// is broken; nothing more is wanted.
    fn part(&mut self, bytes: &[u8], first: bool) -> bool;
}

/// The output and what waits for it, shared by the workers and the calling thread.
struct Turn<W> {
    out: W,
    /// The item whose turn it is: every earlier result was passed on.
    next: usize,
    /// Parts passed ahead by items whose turn has not come, by item.
    waiting: std::collections::BTreeMap<usize, Vec<(Vec<u8>, bool)>>,
    bytes: usize,
    broken: bool,
    /// Workers waiting for their turn (only then does a turn change wake anyone).
    sleepers: usize,
}

/// A worker's way to pass parts of the result of item `seq` ahead of it.
pub(crate) struct Ahead<'a, W> {
    turn: &'a (Mutex<Turn<W>>, Condvar),
    seq: usize,
    budget: usize,
    sent: bool,
    /// Sends the results this worker finished but holds (earlier items of its batch): they
    /// may be what the turn waits for, so they go before the worker waits.
    flush: &'a mut dyn FnMut(),
}

impl<W: Output> Ahead<'_, W> {
    /// Pass `bytes` on: out at once when it is this item's turn, else kept until it is —
    /// or, while the waiting parts weigh more than the window allows, wait for the turn.
    pub(crate) fn part(&mut self, bytes: Vec<u8>) {
        if bytes.is_empty() {
            return;
        }
        let first = !self.sent;
        self.sent = true;
        let (lock, cv) = self.turn;
        let mut t = lock_turn(lock);
        loop {
            if t.broken {
                return;
            }
            if t.next == self.seq {
                if !t.out.part(&bytes, first) {
                    t.broken = true;
                }
                return;
            }
            if t.bytes < self.budget {
                t.bytes += bytes.len();
                t.waiting.entry(self.seq).or_default().push((bytes, first));
                return;
            }
            drop(t);
            (self.flush)();
            t = lock_turn(lock);
            if t.next == self.seq || t.bytes < self.budget || t.broken {
                continue;
            }
            t.sleepers += 1;
            t = cv.wait(t).unwrap_or_else(|e| e.into_inner());
            t.sleepers -= 1;
        }
    }

    /// Some part of the result went ahead already.
    pub(crate) fn sent(&self) -> bool {
        self.sent
    }
}

fn lock_turn<W>(m: &Mutex<Turn<W>>) -> MutexGuard<'_, Turn<W>> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// Map `items` through `work` on `threads` workers (each with its own `init()` state) and
/// pass the results to `emit`, with the output, in the order of the items. `emit` returns
/// false to stop: no further item is handed out and no further result passed on (as when
/// the output breaks). Returns the output, and false if stopped.
pub(crate) fn ordered_map<I, T, S, W>(
    items: impl Iterator<Item = I>,
    threads: usize,
    window: Window,
    out: W,
    init: impl Fn() -> S + Sync,
    work: impl Fn(&mut S, I, &mut Ahead<'_, W>) -> T + Sync,
    mut emit: impl FnMut(&mut W, T) -> bool,
) -> (W, bool)
where
    I: Send,
    T: Send + Weigh,
    W: Output + Send,
{
    let threads = threads.max(1);
    let turn = (
        Mutex::new(Turn {
            out,
            next: 0,
            waiting: Default::default(),
            bytes: 0,
            broken: false,
            sleepers: 0,
        }),
        Condvar::new(),
    );
    // Items go to the workers, and results come back, in batches of consecutive items: a
    // hand-over costs a wake-up or two, too much to pay per small file. Never full: at most
    // `window.files` items are out at once.
    let (work_tx, work_rx) = mpsc::sync_channel::<Vec<(usize, I)>>(window.files.max(1));
    let work_rx = Mutex::new(work_rx);
    let (done_tx, done_rx) = mpsc::channel::<Vec<(usize, T)>>();
    let stop = AtomicBool::new(false);
    let finished = std::thread::scope(|scope| {
        for _ in 0..threads {
            let done_tx = done_tx.clone();
            let (work_rx, stop, init, work, turn) = (&work_rx, &stop, &init, &work, &turn);
            scope.spawn(move || serve(work_rx, &done_tx, stop, init(), work, turn, window.bytes));
        }
        drop(done_tx);
        let mut feed = Feed {
            items: items.fuse(),
            work_tx: Some(work_tx),
            batch: Vec::new(),
            buf: Reorder::default(),
            completed: 0,
            threads,
            window,
        };
        let going = feed.run(&done_rx, &mut |outs, buf, completed| {
            pass(buf, completed, outs, &turn, &mut emit)
        });
        if !going {
            stop.store(true, Ordering::Relaxed);
            // A worker waiting for its turn gives up.
            lock_turn(&turn.0).broken = true;
            turn.1.notify_all();
        }
        // Workers blocked on the queue see it closed and end.
        drop(feed);
        going
    });
    let t = turn.0.into_inner().unwrap_or_else(|e| e.into_inner());
    (t.out, finished)
}

/// A worker: take batches of items off the queue, map each through `work` (which may pass
/// parts of its result ahead), and send the batch's results back, until the queue closes or
/// `stop` is set.
fn serve<I, T, S, W>(
    work_rx: &Mutex<mpsc::Receiver<Vec<(usize, I)>>>,
    done_tx: &mpsc::Sender<Vec<(usize, T)>>,
    stop: &AtomicBool,
    mut state: S,
    work: &impl Fn(&mut S, I, &mut Ahead<'_, W>) -> T,
    turn: &(Mutex<Turn<W>>, Condvar),
    budget: usize,
) {
    loop {
        let next = match work_rx.lock() {
            Ok(rx) => rx.recv(),
            Err(_) => return,
        };
        let Ok(batch) = next else { return };
        let mut outs = Vec::with_capacity(batch.len());
        for (seq, item) in batch {
            if stop.load(Ordering::Relaxed) {
                return;
            }
            let mut flush = || {
                if !outs.is_empty() {
                    let _ = done_tx.send(std::mem::take(&mut outs));
                }
            };
            let mut ahead = Ahead {
                turn,
                seq,
                budget,
                sent: false,
                flush: &mut flush,
            };
            let out = work(&mut state, item, &mut ahead);
            outs.push((seq, out));
        }
        if done_tx.send(outs).is_err() {
            return;
        }
    }
}

/// Pass results that came back to the reorder buffer, and every result now in order on to
/// `emit`. False once `emit` said stop or the output broke.
fn pass<T: Weigh, W: Output>(
    buf: &mut Reorder<T>,
    completed: &mut usize,
    outs: Vec<(usize, T)>,
    turn: &(Mutex<Turn<W>>, Condvar),
    emit: &mut impl FnMut(&mut W, T) -> bool,
) -> bool {
    for (seq, out) in outs {
        *completed += 1;
        let more = buf.place(seq, out, &mut |seq, out| emit_in_turn(turn, emit, seq, out));
        if !more {
            return false;
        }
    }
    true
}

/// Emit the result of item `seq`, whose turn it is; then it is the next item's turn, and
/// what that one passed ahead goes out first. False when there is to be no more.
fn emit_in_turn<T, W: Output>(
    turn: &(Mutex<Turn<W>>, Condvar),
    emit: &mut impl FnMut(&mut W, T) -> bool,
    seq: usize,
    out: T,
) -> bool {
    let (lock, cv) = turn;
    let mut t = lock_turn(lock);
    let more = !t.broken && emit(&mut t.out, out);
    t.next = seq + 1;
    if let Some(parts) = t.waiting.remove(&(seq + 1)) {
        for (bytes, first) in parts {
            t.bytes -= bytes.len();
            if !t.broken && !t.out.part(&bytes, first) {
                t.broken = true;
            }
        }
    }
    let more = more && !t.broken;
    let wake = t.sleepers > 0;
    drop(t);
    if wake {
        cv.notify_all();
    }
    more
}

/// The calling thread's side: it hands the items out in batches while the window has room,
/// and passes on the results that come back (`pass`, with the turn and `emit` bound).
struct Feed<I, T, It> {
    items: std::iter::Fuse<It>,
    /// Closed (`None`) once every item was handed out.
    work_tx: Option<mpsc::SyncSender<Vec<(usize, I)>>>,
    batch: Vec<(usize, I)>,
    buf: Reorder<T>,
    /// Items whose result came back.
    completed: usize,
    threads: usize,
    window: Window,
}

impl<I, T: Weigh, It: Iterator<Item = I>> Feed<I, T, It> {
    /// Hand out items and pass results on until every result was passed on (true) or
    /// `pass` said stop (false).
    fn run(
        &mut self,
        done_rx: &mpsc::Receiver<Vec<(usize, T)>>,
        pass: &mut impl FnMut(Vec<(usize, T)>, &mut Reorder<T>, &mut usize) -> bool,
    ) -> bool {
        loop {
            let going = self.hand_out(done_rx, pass);
            // Nothing may stay unsent while waiting for results.
            if let Some(tx) = &self.work_tx
                && !self.batch.is_empty()
            {
                let _ = tx.send(std::mem::take(&mut self.batch));
            }
            if !going {
                return false;
            }
            if self.work_tx.is_none() && self.buf.next == self.buf.sent {
                return true;
            }
            let Ok(outs) = done_rx.recv() else {
                // Every worker is gone (one panicked: the scope re-raises it).
                return true;
            };
            if !pass(outs, &mut self.buf, &mut self.completed) {
                return false;
            }
        }
    }

    /// Hand out items while the window has room, passing on what is ready without waiting
    /// (so a long walk does not hold it). False when `pass` said stop.
    fn hand_out(
        &mut self,
        done_rx: &mpsc::Receiver<Vec<(usize, T)>>,
        pass: &mut impl FnMut(Vec<(usize, T)>, &mut Reorder<T>, &mut usize) -> bool,
    ) -> bool {
        let max_files = self.window.files.max(1);
        let max_queued = self.window.queued.max(1);
        while let Some(tx) = &self.work_tx {
            let buf = &self.buf;
            let out = buf.sent - buf.next;
            let queued = buf.sent - self.completed;
            // With nothing out, one item always goes (else nothing would come back).
            let heavy = out > 0 && buf.bytes >= self.window.bytes;
            if out >= max_files || queued >= max_queued || heavy {
                break;
            }
            match self.items.next() {
                Some(item) => {
                    self.batch.push((self.buf.sent, item));
                    self.buf.push_slot();
                    // A full batch goes; so does a short one while the workers have little
                    // else to do.
                    let handed = queued + 1 - self.batch.len();
                    if self.batch.len() >= BATCH || handed < 2 * self.threads {
                        // The receivers live until the scope ends.
                        let _ = tx.send(std::mem::take(&mut self.batch));
                    }
                }
                None => {
                    if !self.batch.is_empty() {
                        let _ = tx.send(std::mem::take(&mut self.batch));
                    }
                    self.work_tx = None;
                }
            }
            while let Ok(outs) = done_rx.try_recv() {
                if !pass(outs, &mut self.buf, &mut self.completed) {
                    return false;
                }
            }
        }
        true
    }
}

/// Items per hand-over to a worker, at most.
const BATCH: usize = 128;

/// Results that came back before an earlier one.
struct Reorder<T> {
    /// Slot k holds the result of item `next + k`, once it came back.
    slots: VecDeque<Option<T>>,
    /// The first item whose result is not passed on yet.
    next: usize,
    /// Items handed out.
    sent: usize,
    /// Weight of the results in `slots`.
    bytes: usize,
}

impl<T> Default for Reorder<T> {
    fn default() -> Self {
        Reorder {
            slots: VecDeque::new(),
            next: 0,
            sent: 0,
            bytes: 0,
        }
    }
}

impl<T: Weigh> Reorder<T> {
    fn push_slot(&mut self) {
        self.slots.push_back(None);
        self.sent += 1;
    }

    /// Store the result of item `seq`, then pass on every result now in order. False once
    /// `emit` said stop.
    fn place(&mut self, seq: usize, out: T, emit: &mut impl FnMut(usize, T) -> bool) -> bool {
        self.bytes += out.weight();
        self.slots[seq - self.next] = Some(out);
        while let Some(Some(_)) = self.slots.front() {
            let Some(Some(out)) = self.slots.pop_front() else {
                unreachable!("the front slot was just seen full")
            };
            self.bytes -= out.weight();
            let seq = self.next;
            self.next += 1;
            if !emit(seq, out) {
                return false;
            }
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use std::sync::atomic::AtomicUsize;

    struct N(u64, usize);
    impl Weigh for N {
        fn weight(&self) -> usize {
            self.1
        }
    }

    /// What reached the output, in order: parts as text, results as numbers.
    #[derive(Default)]
    struct Log(Vec<String>);
    impl Output for Log {
        fn part(&mut self, bytes: &[u8], first: bool) -> bool {
            let mark = if first { "^" } else { "" };
            self.0
                .push(format!("{mark}{}", String::from_utf8_lossy(bytes)));
            true
        }
    }

    const WIDE: Window = Window {
        files: 8,
        queued: 4,
        bytes: usize::MAX,
    };

    fn squares(n: u64, threads: usize, window: Window) -> Vec<u64> {
        let (_, done) = ordered_map(
            0..n,
            threads,
            window,
            Vec::new(),
            || (),
            |_, i, _: &mut Ahead<'_, Vec<u64>>| {
                // Later items finish first now and then.
                if i % 7 == 0 {
                    std::thread::sleep(std::time::Duration::from_micros(200));
                }
                N(i * i, 1)
            },
            |got, r| {
                got.push(r.0);
                true
            },
        );
        assert!(done);
        let (got, _) = ordered_map(
            0..n,
            threads,
            window,
            Vec::new(),
            || (),
            |_, i, _: &mut Ahead<'_, Vec<u64>>| N(i * i, 1),
            |got, r| {
                got.push(r.0);
                true
            },
        );
        got
    }

    impl Output for Vec<u64> {
        fn part(&mut self, _: &[u8], _: bool) -> bool {
            true
        }
    }

    #[test]
    fn results_come_in_item_order() {
        let want: Vec<u64> = (0..500).map(|i| i * i).collect();
        assert_eq!(squares(500, 3, WIDE), want);
        assert_eq!(squares(500, 1, WIDE), want);
        assert!(squares(0, 2, WIDE).is_empty());
    }

    #[test]
    fn stopping_hands_out_nothing_more() {
        let taken = AtomicUsize::new(0);
        let (got, done) = ordered_map(
            0..10_000u64,
            2,
            WIDE,
            Vec::new(),
            || (),
            |_, i, _: &mut Ahead<'_, Vec<u64>>| {
                taken.fetch_add(1, Ordering::Relaxed);
                N(i, 0)
            },
            |got, r| {
                got.push(r.0);
                r.0 < 9
            },
        );
        assert!(!done);
        assert_eq!(got, (0..10).collect::<Vec<_>>());
        // Only what was in flight when it stopped was searched.
        assert!(taken.load(Ordering::Relaxed) <= 10 + WIDE.files);
    }

    #[test]
    fn the_window_bounds_the_items_out() {
        let out = AtomicUsize::new(0);
        let most = AtomicUsize::new(0);
        let window = Window {
            files: 5,
            queued: 5,
            bytes: usize::MAX,
        };
        let items = (0..300u64).inspect(|_| {
            let now = out.fetch_add(1, Ordering::SeqCst) + 1;
            most.fetch_max(now, Ordering::SeqCst);
        });
        ordered_map(
            items,
            3,
            window,
            Vec::new(),
            || (),
            |_, i, _: &mut Ahead<'_, Vec<u64>>| N(i, 0),
            |_, _| {
                out.fetch_sub(1, Ordering::SeqCst);
                true
            },
        );
        assert!(most.load(Ordering::SeqCst) <= 5, "{most:?}");
    }

    #[test]
    fn heavy_waiting_results_hold_the_walk() {
        // Item 0 is slow; the others are heavy: once a few wait behind it, no more go out.
        let started = AtomicUsize::new(0);
        let window = Window {
            files: 1000,
            queued: 4,
            bytes: 3,
        };
        let seen_when_first_done = AtomicUsize::new(0);
        ordered_map(
            0..100u64,
            2,
            window,
            Vec::new(),
            || (),
            |_, i, _: &mut Ahead<'_, Vec<u64>>| {
                started.fetch_add(1, Ordering::SeqCst);
                if i == 0 {
                    std::thread::sleep(std::time::Duration::from_millis(50));
                    seen_when_first_done.store(started.load(Ordering::SeqCst), Ordering::SeqCst);
                }
                N(i, 1)
            },
            |_, _| true,
        );
        // Items are handed out only while fewer than 3 bytes wait and fewer than 4 are
        // queued: 3 waiting, 4 queued, 2 being searched, and one seen late.
        assert!(seen_when_first_done.load(Ordering::SeqCst) <= 10);
    }

    /// Items that pass parts ahead (item i: "i.0" … "i.{i%4}"), then a result "i".
    fn with_parts(n: u64, threads: usize, window: Window) -> Vec<String> {
        let (log, done) = ordered_map(
            0..n,
            threads,
            window,
            Log::default(),
            || (),
            |_, i, ahead: &mut Ahead<'_, Log>| {
                for k in 0..i % 4 {
                    if (i + k) % 5 == 0 {
                        std::thread::sleep(std::time::Duration::from_micros(100));
                    }
                    ahead.part(format!("{i}.{k}").into_bytes());
                }
                N(i, 1)
            },
            |log, r| {
                log.0.push(format!("={}", r.0));
                true
            },
        );
        assert!(done);
        log.0
    }

    fn parts_want(n: u64) -> Vec<String> {
        let mut want = Vec::new();
        for i in 0..n {
            for k in 0..i % 4 {
                want.push(format!("{}{i}.{k}", if k == 0 { "^" } else { "" }));
            }
            want.push(format!("={i}"));
        }
        want
    }

    #[test]
    fn parts_passed_ahead_keep_their_place() {
        assert_eq!(with_parts(300, 3, WIDE), parts_want(300));
        // A budget of nothing: every part that is not on its turn waits for it.
        let tight = Window {
            files: 8,
            queued: 4,
            bytes: 0,
        };
        assert_eq!(with_parts(300, 3, tight), parts_want(300));
    }

    proptest! {
        #[test]
        fn any_window_any_threads_keeps_order(n in 0u64..200, threads in 1usize..5,
                files in 1usize..20, queued in 1usize..20, bytes in 0usize..8) {
            let window = Window { files, queued, bytes };
            prop_assert_eq!(with_parts(n, threads, window), parts_want(n));
        }
    }
}
