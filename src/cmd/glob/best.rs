//! The best `keep` items of a stream by an order (or its first `keep`, with no order), in
//! memory bounded by `keep` rather than by the stream: each walker thread of `quill glob`
//! keeps one, and their runs are merged into the page's prefix. It also counts every item
//! it was offered, kept or not, for the exact `total`. Pure: no I/O.

use std::cmp::Ordering;

/// How two items compare: `Less` is better (kept first).
pub(super) type Order<T> = fn(&T, &T) -> Ordering;

/// Below this many items, a `Best` never prunes: a small `keep` would prune on every few
/// pushes.
const SLACK: usize = 64;

/// The best `keep` of the items pushed so far, holding at most `max(2 × keep, 64)` of them:
/// items are appended, and when the buffer is full the `keep` best are selected
/// (`select_nth_unstable`, linear) and the rest dropped — amortized O(1) per item. With no
/// order, the first `keep` pushed are kept and the rest only counted.
pub(super) struct Best<T> {
    keep: usize,
    order: Option<Order<T>>,
    items: Vec<T>,
    seen: usize,
}

/// What a `Best` kept, best first (in push order with no order), and how many it was offered.
pub(super) struct Run<T> {
    pub(super) items: Vec<T>,
    pub(super) seen: usize,
}

impl<T> Best<T> {
    /// `keep = usize::MAX` keeps everything (`--limit 0`: the answer is the whole list, so
    /// holding it all is the point, not a leak).
    pub(super) fn new(keep: usize, order: Option<Order<T>>) -> Self {
        Best {
            keep,
            order,
            items: Vec::new(),
            seen: 0,
        }
    }

    pub(super) fn push(&mut self, item: T) {
        self.seen += 1;
        match self.order {
            None if self.items.len() >= self.keep => {}
            None => self.items.push(item),
            Some(order) => {
                self.items.push(item);
                if self.items.len() >= self.keep.saturating_mul(2).max(SLACK) {
                    prune(&mut self.items, self.keep, order);
                }
            }
        }
    }

    /// The kept items, best first, and the count offered.
    pub(super) fn finish(mut self) -> Run<T> {
        if let Some(order) = self.order {
            prune(&mut self.items, self.keep, order);
            self.items.sort_unstable_by(order);
        }
        Run {
            items: self.items,
            seen: self.seen,
        }
    }
}

/// The runs of several `Best`s of one `keep` and order as one: the `keep` best of all of them
/// (with no order, the first `keep` of their concatenation), and the sum of what they saw.
pub(super) fn merge<T>(runs: Vec<Run<T>>, keep: usize, order: Option<Order<T>>) -> Run<T> {
    let seen = runs.iter().map(|r| r.seen).sum();
    let mut items: Vec<T> = runs.into_iter().flat_map(|r| r.items).collect();
    // Each run is sorted: the stable sort finds them and merges.
    if let Some(order) = order {
        items.sort_by(order);
    }
    items.truncate(keep);
    Run { items, seen }
}

/// Keep only the `keep` best of `items` (in no particular order).
fn prune<T>(items: &mut Vec<T>, keep: usize, order: Order<T>) {
    if items.len() <= keep {
        return;
    }
    if keep > 0 {
        items.select_nth_unstable_by(keep - 1, order);
    }
    items.truncate(keep);
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Like glob's newest-first order: by key descending, ties by name ascending.
    fn newest_first(a: &(u8, u16), b: &(u8, u16)) -> Ordering {
        b.0.cmp(&a.0).then_with(|| a.1.cmp(&b.1))
    }

    fn run_all(
        threads: &[Vec<(u8, u16)>],
        keep: usize,
        order: Option<Order<(u8, u16)>>,
    ) -> Run<(u8, u16)> {
        let runs = threads
            .iter()
            .map(|items| {
                let mut b = Best::new(keep, order);
                for &i in items {
                    b.push(i);
                }
                b.finish()
            })
            .collect();
        merge(runs, keep, order)
    }

    #[test]
    fn keeps_the_best_with_ties_by_name_and_counts_all() {
        let items: Vec<(u8, u16)> = (0..500).map(|i| ((i % 3) as u8, 1000 - i)).collect();
        let r = run_all(std::slice::from_ref(&items), 4, Some(newest_first));
        assert_eq!(r.seen, 500);
        assert_eq!(r.items, [(2, 503), (2, 506), (2, 509), (2, 512)]);
        // Pruning happened: far fewer than 500 were ever held (checked through the bound).
        let mut b = Best::new(4, Some(newest_first as Order<_>));
        for &i in &items {
            b.push(i);
            assert!(b.items.len() < SLACK, "{}", b.items.len());
        }
    }

    #[test]
    fn no_order_keeps_the_first_of_the_concatenation_and_zero_keeps_nothing() {
        let a: Vec<(u8, u16)> = (0..5).map(|i| (0, i)).collect();
        let b: Vec<(u8, u16)> = (5..9).map(|i| (0, i)).collect();
        let r = run_all(&[a.clone(), b.clone()], 7, None);
        assert_eq!((r.seen, r.items.len()), (9, 7));
        assert_eq!(r.items, [a, b].concat()[..7]);
        let r = run_all(&[(0..100).map(|i| (1, i)).collect()], 0, Some(newest_first));
        assert_eq!((r.seen, r.items.len()), (100, 0));
    }

    proptest! {
        /// Split over any number of threads, the merged run is exactly the prefix of the
        /// fully sorted list (or of the concatenation, with no order), and `seen` is exact.
        #[test]
        fn equals_the_prefix_of_a_full_sort(
            threads in proptest::collection::vec(
                proptest::collection::vec((0u8..4, 0u16..2000), 0..300), 1..5),
            keep in 0usize..400,
            sorted in any::<bool>(),
        ) {
            // Names are unique across threads, as walked paths are.
            let mut n = 0u16;
            let threads: Vec<Vec<(u8, u16)>> = threads.into_iter().map(|t| t.into_iter().map(|(k, _)| { n += 1; (k, (u32::from(n) * 7919 % 2003) as u16) }).collect()).collect();
            let order: Option<Order<(u8, u16)>> = sorted.then_some(newest_first);
            let mut all: Vec<(u8, u16)> = threads.concat();
            if let Some(order) = order {
                all.sort_by(order);
            }
            let r = run_all(&threads, keep, order);
            prop_assert_eq!(r.seen, all.len());
            all.truncate(keep);
            prop_assert_eq!(r.items, all);
        }
    }
}
