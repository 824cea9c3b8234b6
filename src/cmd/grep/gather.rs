//! Where `quill grep`'s results go, in path order, as the ordered pipeline passes them on:
//! into a page (the files whose entries fall in `[offset, offset + limit)` are kept, every
//! other one only counted, and the workers told once the page is full), or straight out to
//! the caller's stream (the whole answer, each file's output as soon as it is in order).
//! Either way `total` counts every entry.

use std::sync::atomic::{AtomicBool, Ordering};

use super::lines::FileResult;
use crate::cli::GrepMode;
use crate::output::stream::Stream;
use crate::search::ordered::Output;

/// The results so far.
pub(super) struct Gather {
    /// Entries so far: matches (content mode) or files.
    pub total: usize,
    pub to: Target,
}

pub(super) enum Target {
    Page(Page),
    Stream(Stream),
}

/// The files of one page.
pub(super) struct Page {
    pub offset: usize,
    /// `offset + limit` (`usize::MAX`: no limit).
    pub end: usize,
    /// The index of the first entry of `kept[0]`.
    pub first: usize,
    pub kept: Vec<FileResult>,
}

impl Gather {
    /// Take the next file in order. False to stop (the stream cannot be written).
    pub(super) fn take(&mut self, f: FileResult, mode: GrepMode, page_full: &AtomicBool) -> bool {
        let n = match mode {
            GrepMode::Content => f.count as usize,
            _ => 1,
        };
        let lo = self.total;
        self.total += n;
        match &mut self.to {
            Target::Stream(s) => {
                if mode == GrepMode::Files {
                    s.name(lo, &f.path);
                }
                s.part(f.rendered.as_deref().unwrap_or_default(), !f.ahead)
                    .is_ok()
            }
            Target::Page(p) => {
                if lo < p.end && self.total > p.offset {
                    if p.kept.is_empty() {
                        p.first = lo;
                    }
                    p.kept.push(f);
                }
                if self.total >= p.end {
                    page_full.store(true, Ordering::Relaxed);
                }
                true
            }
        }
    }
}

impl Output for Gather {
    /// A long file's output, passed on while it is searched (pages take none).
    fn part(&mut self, bytes: &[u8], first: bool) -> bool {
        match &mut self.to {
            Target::Stream(s) => s.part(bytes, first).is_ok(),
            Target::Page(_) => true,
        }
    }
}
