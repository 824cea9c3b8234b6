//! Fuzz target for the edit planner: arbitrary bodies (any bytes, including invalid UTF-8)
//! and arbitrary edits must never panic; a successful plan must be self-consistent, and an
//! exact single edit undone by its inverse must give the body back.
#![no_main]

use libfuzzer_sys::fuzz_target;
use quill::edit::plan::{Edit, PlanOptions, plan};

fuzz_target!(|input: (u8, Vec<u8>, Vec<(String, String, bool)>)| {
    let (flags, body, raw_edits) = input;
    let opts = PlanOptions {
        fuzzy: flags & 1 == 1,
        expect_count: (flags & 2 == 2).then_some(usize::from(flags >> 2)),
    };
    let edits: Vec<Edit> = raw_edits
        .into_iter()
        .take(4)
        .map(|(old, new, replace_all)| Edit { old, new, replace_all })
        .collect();
    if let Ok(p) = plan(&body, &edits, &opts) {
        assert_eq!(p.replacements, p.spans.len());
        for s in &p.spans {
            assert!(s.start_line >= 1 && s.start_line <= s.end_line);
        }
        if let [e] = edits.as_slice() {
            let plain = !e.old.contains('\n') && !e.new.contains('\n') && !e.old.is_empty();
            if plain && !opts.fuzzy && !e.replace_all && opts.expect_count.is_none() {
                let inverse = Edit { old: e.new.clone(), new: e.old.clone(), replace_all: false };
                if let Ok(back) = plan(&p.new_body, &[inverse], &PlanOptions::default()) {
                    assert_eq!(back.new_body, body);
                }
            }
        }
    }
});
