//! Fuzz target for the streaming pager: any bytes, any chunking and any page spec must never
//! panic, and chunking must never change the page.
#![no_main]

use libfuzzer_sys::fuzz_target;
use quill::text::page::{PageSpec, Pager, page_all};

fuzz_target!(|input: (u8, u8, u8, u8, Vec<u16>, Vec<u8>)| {
    let (offset, limit, max_bytes, max_line_chars, cuts, data) = input;
    let spec = PageSpec {
        offset: u64::from(offset.max(1)),
        limit: u64::from(limit.max(1)),
        max_bytes: u64::from(max_bytes.max(1)) * 4,
        max_line_chars: u64::from(max_line_chars % 32),
    };
    let whole = page_all(spec, &data);
    let mut cuts: Vec<usize> = cuts.into_iter().map(|c| usize::from(c).min(data.len())).collect();
    cuts.sort_unstable();
    let mut pager = Pager::new(spec);
    let mut at = 0;
    for c in cuts {
        pager.feed(&data[at..c]);
        at = c;
    }
    pager.feed(&data[at..]);
    assert_eq!(pager.finish(), whole);
});
