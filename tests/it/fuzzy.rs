//! `quill edit --fuzzy` keeps the file's characters: wherever `new` repeats `old`, the file's
//! own indentation, quotes, dashes, no-break spaces, invisible chars and line endings stay,
//! line by line; only what the caller changed comes from `new`. Each case checks the bytes on
//! disk, that `matchedFuzzily` says so, and that the patch applies.

use crate::patching::assert_patch_applies;
use crate::util::{Mutation, TestEnv, sha256_hex};

/// Read `rel`, `edit --fuzzy` it with `old → new`, expect `want` on disk.
#[track_caller]
fn fuzzy_ok(env: &TestEnv, rel: &str, old: &str, new: &str, want: &[u8]) -> Mutation {
    let before = env.read(rel);
    env.json(&["read", rel]).ok();
    let out = env.json(&["edit", rel, "--old", old, "--new", new, "--fuzzy"]);
    let m = out.ok().mutation();
    env.assert_file(rel, want);
    assert_eq!(m.matched_fuzzily, Some(true));
    assert_eq!(m.sha256, Some(sha256_hex(want)));
    assert_patch_applies(&out, Some(&before), Some(want));
    m
}

#[test]
fn mixed_line_endings_stay_as_they_were() {
    let env = TestEnv::new();
    env.write("m.txt", "one\r\ntwo\nthree\r\nfour\n");
    let m = fuzzy_ok(
        &env,
        "m.txt",
        "one\ntwo\nthree\nfour\n",
        "one\ntwo\nTHREE\nfour\n",
        b"one\r\ntwo\nTHREE\r\nfour\n",
    );
    // Only the changed line is in the diff.
    assert_eq!((m.added, m.removed), (1, 1), "{}", m.diff);
}

#[test]
fn lookalikes_new_repeats_are_the_files() {
    let env = TestEnv::new();
    let text = "Price:\u{A0}\u{20AC}10 \u{2014} \u{201C}final\u{201D}\nnext\n";
    env.write("p.md", text);
    let m = fuzzy_ok(
        &env,
        "p.md",
        "Price: \u{20AC}10 - \"final\"",
        "Price: \u{20AC}12 - \"final\"",
        "Price:\u{A0}\u{20AC}12 \u{2014} \u{201C}final\u{201D}\nnext\n".as_bytes(),
    );
    assert_eq!(
        m.diff,
        "@@ -1,2 +1,2 @@\n-Price:\u{A0}\u{20AC}10 \u{2014} \u{201C}final\u{201D}\n+Price:\u{A0}\u{20AC}12 \u{2014} \u{201C}final\u{201D}\n next\n"
    );
}

#[test]
fn indentation_and_trailing_spaces_new_repeats_are_the_files() {
    let env = TestEnv::new();
    // Line 2 is indented with a tab, line 3 with 4 spaces and has trailing spaces.
    env.write("i.py", "def f():\n\ta = 1\n    b = 2  \n");
    fuzzy_ok(
        &env,
        "i.py",
        "def f():\n    a = 1\n    b = 2\n",
        "def f():\n    a = 10\n    b = 2\n    c = 3\n",
        b"def f():\n\ta = 10\n    b = 2  \n\tc = 3\n",
    );
}

#[test]
fn a_passage_without_a_line_ending_keeps_news_own() {
    let env = TestEnv::new();
    env.write("e.txt", "  a");
    fuzzy_ok(&env, "e.txt", "    a", "x\r\ny\r\nz", b"x\r\ny\r\nz");
}
