//! A living tree (docs/model.md#a-living-tree), deterministic, through the real binary: a
//! `stale` answer carries the change made since the session's read (or its own last change),
//! an edit sent again after it is judged against the current file, `--merge` lands an edit
//! over a change elsewhere in one call and refuses one over its own lines, a whole-file change
//! always needs a read, and the kept versions live in the state directory as the contract
//! says. Every test checks the exit code, the JSON and the bytes left on disk.

use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

use serde::Deserialize;
use serde_json::Value;

use crate::util::{Envelope, Out, Span, TestEnv, exists, sha256_hex};

const F: &str = "f.txt";

/// `error.change` of a `stale` answer, `outsideChange` of a merged change.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct Change {
    since: String,
    diff: String,
    added: u64,
    removed: u64,
    diff_truncated: bool,
    resend: bool,
    overlap: Option<Span>,
    lines_now: Option<Span>,
}

impl Change {
    /// The diff has `needle`.
    #[track_caller]
    fn shows(&self, needle: &str) -> &Change {
        assert!(self.diff.contains(needle), "{needle:?}: {self:#?}");
        self
    }
}

fn span(start_line: u64, end_line: u64) -> Option<Span> {
    Some(Span {
        start_line,
        end_line,
    })
}

fn parse_change(v: &Value) -> Change {
    serde_json::from_value(v.clone()).unwrap_or_else(|e| panic!("not a change: {e}: {v:#}"))
}

/// A `stale` answer (exit 3) that shows the change.
#[track_caller]
fn stale(out: &Out) -> Change {
    out.err("stale", 3);
    parse_change(out.failure().error.field("change"))
}

/// A `stale` answer (exit 3) without a change: today's answer.
#[track_caller]
fn bare_stale(out: &Out) {
    out.err("stale", 3);
    let f = out.failure();
    let read = f.error.hint.is_some_and(|h| h.contains("quill read"));
    out.check(
        read && !f.error.fields.contains_key("change"),
        "not today's stale",
    );
}

/// An ok change merged over an outside change: its `outsideChange` (of the one file of an
/// edit, or of `files[i]` of an apply), checked against its one `merged` warning.
#[track_caller]
fn merged(out: &Out, file: Option<usize>) -> Change {
    let at = match file {
        Some(i) => &out.ok().json["files"][i],
        None => &out.ok().json,
    };
    let change = parse_change(&at["outsideChange"]);
    let path = at["path"].as_str().unwrap();
    let warnings = out.typed::<Envelope>("an answer").warnings;
    let w: Vec<_> = warnings.iter().filter(|w| w.says("merged", path)).collect();
    let mut changed = change.diff.lines().filter(|l| l.starts_with(['+', '-']));
    let carried = w.len() == 1 && changed.all(|line| w[0].message.contains(line));
    out.check(carried, "not one `merged` warning that carries the diff");
    change
}

fn numbered(n: usize) -> Vec<String> {
    (1..=n).map(|k| format!("line {k}")).collect()
}

fn text_of(lines: &[String]) -> String {
    lines.iter().map(|l| format!("{l}\n")).collect()
}

/// A file of `line 1` … `line 12`, read by the session.
fn read_twelve(env: &TestEnv, rel: &str) -> Vec<String> {
    let lines = numbered(12);
    env.write(rel, text_of(&lines));
    env.json(&["read", rel]).ok();
    lines
}

/// Someone else sets line `n` (1-based) of `lines` and writes the file; returns its text.
fn outside(env: &TestEnv, rel: &str, lines: &mut [String], n: usize, to: &str) -> String {
    lines[n - 1] = to.to_string();
    let text = text_of(lines);
    env.write(rel, &text);
    text
}

/// `read_twelve`, then someone else inserts two lines at the top: the file's lines now.
fn shifted(env: &TestEnv) -> Vec<String> {
    let mut now = read_twelve(env, F);
    now.splice(0..0, ["top A".to_string(), "top B".to_string()]);
    env.write(F, text_of(&now));
    now
}

fn edit<'a>(old: &'a str, new: &'a str) -> Vec<&'a str> {
    vec!["edit", F, "--old", old, "--new", new]
}

fn at_lines<'a>(flag: &'a str, n: &'a str, new: &'a str) -> Vec<&'a str> {
    vec!["edit", F, flag, n, "--new", new]
}

/// `quill --json ARGS…` with `var=value`.
fn with_var(env: &TestEnv, args: &[&str], var: &str, value: &str) -> Out {
    env.cmd(["--json"]).args(args).env(var, value).run()
}

/// `quill --json --merge ARGS…`.
fn merging(env: &TestEnv, args: &[&str]) -> Out {
    env.cmd(["--json", "--merge"]).args(args).run()
}

#[test]
fn a_stale_edit_shows_the_change_and_the_same_edit_sent_again_lands() {
    let env = TestEnv::new();
    let mut lines = read_twelve(&env, F);
    let changed = outside(&env, F, &mut lines, 2, "OUTSIDE 2");
    let call = edit("line 9\n", "line 9 edited\n");

    let first = env.json(&call);
    let c = stale(&first);
    assert_eq!(c.since, "read");
    c.shows("\n-line 2\n+OUTSIDE 2\n");
    assert_eq!((c.added, c.removed, c.diff_truncated), (1, 1, false));
    assert!(c.resend && c.overlap.is_none() && c.lines_now.is_none());
    let hint = first.failure().error.hint.unwrap();
    assert!(hint.contains("send the same call again"), "{hint}");
    env.assert_file(F, &changed);

    let m = env.json(&call).ok().mutation();
    lines[8] = "line 9 edited".into();
    let text = text_of(&lines);
    env.assert_file(F, &text);
    assert_eq!(m.sha256, Some(sha256_hex(text.as_bytes())));

    // Changed again between the answer and the re-send: only the new change is shown.
    outside(&env, F, &mut lines, 4, "OUTSIDE 4");
    let call = edit("line 6\n", "line 6 edited\n");
    assert!(stale(&env.json(&call)).resend);
    let changed = outside(&env, F, &mut lines, 1, "OUTSIDE 1");
    let c = stale(&env.json(&call));
    assert_eq!(c.since, "shown");
    assert!(!c.shows("-line 1\n+OUTSIDE 1\n").diff.contains("-line 4"));
    env.assert_file(F, &changed);
    env.json(&call).ok();
    lines[5] = "line 6 edited".into();
    env.assert_file(F, text_of(&lines));

    // Text mode: the diff on stderr, after the error line, and the hint.
    let changed = outside(&env, F, &mut lines, 3, "OUTSIDE 3");
    let out = env.text(&edit("line 11\n", "line 11 edited\n"));
    out.exit(3);
    out.check(out.stdout.is_empty(), "stdout is not empty")
        .stderr_has("quill: error: ")
        .stderr_has("changed since session 'default' last changed it\n")
        .stderr_has("(+1 -1 lines):\n")
        .stderr_has("\n  -line 3\n  +OUTSIDE 3\n")
        .stderr_has("hint: the change above now counts as seen");
    let at = |s: &str| out.stderr.find(s).unwrap();
    out.check(at("quill: error:") < at("+OUTSIDE 3"), "the diff first");
    env.assert_file(F, &changed);
}

#[test]
fn merge_lands_an_edit_over_a_change_elsewhere_in_one_call() {
    let env = TestEnv::new();
    let mut lines = read_twelve(&env, F);
    outside(&env, F, &mut lines, 2, "OUTSIDE 2");
    let out = env
        .cmd(["--json"])
        .args(edit("line 9", "nine"))
        .arg("--merge")
        .run();
    let c = merged(&out, None);
    assert_eq!((c.since.as_str(), c.added, c.removed), ("read", 1, 1));
    assert!(c.shows("+OUTSIDE 2\n").overlap.is_none());
    lines[8] = "nine".into();
    env.assert_file(F, text_of(&lines));

    // QUILL_MERGE=1, over a change since the session's own edit.
    outside(&env, F, &mut lines, 12, "OUTSIDE 12");
    let out = with_var(&env, &edit("line 5", "five"), "QUILL_MERGE", "1");
    assert_eq!(
        merged(&out, None).shows("-line 12\n+OUTSIDE 12\n").since,
        "write"
    );
    lines[4] = "five".into();
    env.assert_file(F, text_of(&lines));

    // QUILL_MERGE=0 is off: the change is shown, nothing written.
    let changed = outside(&env, F, &mut lines, 1, "OUTSIDE 1");
    let out = with_var(&env, &edit("line 7", "seven"), "QUILL_MERGE", "0");
    assert!(stale(&out).resend);
    env.assert_file(F, &changed);
}

#[test]
fn merge_refuses_an_edit_whose_lines_the_change_touched() {
    let env = TestEnv::new();
    let mut lines = read_twelve(&env, F);
    // `old` still matches, inside the line changed outside: merging would mix the two.
    let changed = outside(&env, F, &mut lines, 9, "line 9 and more");
    let out = merging(&env, &edit("line 9", "line nine"));
    let c = stale(&out);
    c.shows("-line 9\n+line 9 and more\n");
    assert_eq!(
        (c.since.as_str(), c.resend, c.overlap),
        ("read", false, span(9, 9))
    );
    let f = out.failure();
    assert!(f.error.message.contains("nothing was written"), "{f:?}");
    assert!(f.error.hint.unwrap().contains("lines 9-9 now"));
    assert!(f.warnings.is_empty());
    env.assert_file(F, &changed);

    // An insertion where the change inserted: which goes first is not quill's to decide.
    let env = TestEnv::new();
    let mut now = read_twelve(&env, F);
    now.insert(9, "OUTSIDE".into());
    env.write(F, text_of(&now));
    let c = stale(&merging(&env, &edit("line 9\n", "line 9\nmine\n")));
    assert!(!c.resend && c.overlap == span(10, 10), "{c:?}");
    env.assert_file(F, text_of(&now));
}

// A conflict records the version shown with the refused call's fingerprint: that call, sent
// again as it was, is worked out against the read once more and refused again.
#[test]
fn a_call_refused_for_a_conflict_stays_refused_until_a_read() {
    // `resend: false` means read first (a line-addressed edit keeps to it).
    for apply in [false, true] {
        let env = TestEnv::new();
        let mut now = read_twelve(&env, F);
        now.insert(9, "OUTSIDE".into());
        env.write(F, text_of(&now));
        let patch = patch_of(&[(F, HUNK_B)]);
        let call = || match apply {
            true => env.json_stdin(&["--merge", "apply", "-"], patch.as_bytes()),
            false => merging(&env, &edit("line 9\n", "line 9\nmine\n")),
        };
        let kind = if apply { "patch_rejected" } else { "stale" };
        call().err(kind, 3);
        call().err(kind, 3);
        env.assert_file(F, text_of(&now));
    }
}

// A diff cut at 200 lines does not show the whole change: it does not count as seen, and a
// re-send never writes over lines the session was not shown.
#[test]
fn a_change_cut_from_the_diff_is_not_counted_as_seen() {
    let env = TestEnv::new();
    let lines: Vec<String> = (1..=400).map(|k| format!("line {k}")).collect();
    env.write(F, text_of(&lines));
    env.json(&["read", F]).ok();
    let now: Vec<String> = (1..=400).map(|k| format!("OUTSIDE {k}")).collect();
    env.write(F, text_of(&now));
    let call = edit("OUTSIDE 390\n", "mine\n");
    let c = stale(&env.json(&call));
    assert!(c.diff_truncated && !c.diff.contains("OUTSIDE 390"));
    // Line 390 was never shown to the session: the call must not write over it.
    env.json(&call).err("stale", 3);
    env.assert_file(F, text_of(&now));
}

// A cut diff keeps the hunks a line-addressed call needs first: those around its lines.
#[test]
fn a_cut_diff_shows_the_hunks_near_the_call_first() {
    let env = TestEnv::new();
    let lines: Vec<String> = (1..=400).map(|k| format!("line {k}")).collect();
    env.write(F, text_of(&lines));
    env.json(&["read", F]).ok();
    // Every tenth line changed outside: 40 hunks, more than 200 lines of diff.
    let now: Vec<String> = (1..=400)
        .map(|k| match k % 10 {
            0 => format!("LINE {k}"),
            _ => format!("line {k}"),
        })
        .collect();
    env.write(F, text_of(&now));
    let c = stale(&env.json(&at_lines("--lines", "395-395", "X")));
    assert!(c.diff_truncated, "{}", c.diff);
    assert!(
        c.diff.contains("+LINE 390\n") && c.diff.contains("+LINE 400\n"),
        "{}",
        c.diff
    );
    assert!(!c.diff.contains("+LINE 10\n"), "{}", c.diff);
    // An edit by text: the hunks around the lines it would change.
    let c = stale(&env.json(&edit("line 385\n", "mine\n")));
    assert!(
        c.diff_truncated && c.diff.contains("+LINE 380\n"),
        "{}",
        c.diff
    );
    assert!(!c.diff.contains("+LINE 10\n"), "{}", c.diff);
    env.assert_file(F, text_of(&now));
}

#[test]
fn line_numbers_follow_the_change_or_name_the_conflict() {
    let env = TestEnv::new();
    let mut now = shifted(&env);
    let call = at_lines("--lines", "10-10", "X");
    let c = stale(&env.json(&call));
    assert!(c.resend && c.overlap.is_none());
    assert_eq!((c.lines_now, c.added, c.removed), (span(12, 12), 2, 0));
    env.assert_file(F, text_of(&now));
    // Sent again: the numbers are those of the version read, moved with the change.
    let out = env.json(&call);
    assert_eq!(out.ok().mutation().spans.unwrap(), [span(12, 12).unwrap()]);
    assert_eq!(out.json["replaced"], "line 10\n");
    now[11] = "X".into();
    env.assert_file(F, text_of(&now));

    // Other numbers after the stale answer are the current file's.
    let env = TestEnv::new();
    let mut now = shifted(&env);
    stale(&env.json(&at_lines("--lines", "3-3", "Y")));
    env.json(&at_lines("--lines", "5-5", "Y")).ok();
    now[4] = "Y".into();
    env.assert_file(F, text_of(&now));

    // --merge: one call; --insert-after moves too.
    let env = TestEnv::new();
    let mut now = shifted(&env);
    let out = merging(&env, &at_lines("--lines", "10-10", "X"));
    assert_eq!(merged(&out, None).since, "read");
    now[11] = "X".into();
    env.assert_file(F, text_of(&now));
    env.json(&["read", F]).ok();
    now.insert(0, "top 0".into());
    env.write(F, text_of(&now));
    let call = at_lines("--insert-after", "5", "NEW");
    assert_eq!(stale(&env.json(&call)).lines_now, span(6, 6));
    env.json(&call).ok();
    now.insert(6, "NEW".into());
    env.assert_file(F, text_of(&now));

    // The lines it numbered were changed outside: a conflict, sent again or merged.
    let env = TestEnv::new();
    let mut lines = read_twelve(&env, F);
    let changed = outside(&env, F, &mut lines, 10, "OUTSIDE 10");
    let call = at_lines("--lines", "9-11", "X");
    for out in [env.json(&call), env.json(&call), merging(&env, &call)] {
        let c = stale(&out);
        assert_eq!((c.resend, c.overlap), (false, span(10, 10)));
    }
    env.assert_file(F, &changed);
}

#[test]
fn a_whole_file_change_or_undo_after_an_outside_change_needs_a_read() {
    let env = TestEnv::new();
    let mut lines = read_twelve(&env, F);
    let changed = outside(&env, F, &mut lines, 3, "OUTSIDE 3");
    let mut mine = numbered(12);
    mine[6] = "seven".into();
    let write = text_of(&mine);
    let write = ["write", F, "--content", &write];
    let by_var = with_var(&env, &write, "QUILL_MERGE", "1");
    let answers = [
        env.json(&write),
        env.json(&write),
        merging(&env, &write),
        by_var,
    ];
    for out in answers {
        assert!(!stale(&out).shows("+OUTSIDE 3\n").resend);
    }
    // Nor rm; nor a write after an edit's stale answer that counts the change as seen.
    assert!(!stale(&env.json(&["rm", F])).resend);
    assert!(stale(&env.json(&edit("line 9", "nine"))).resend);
    assert!(!stale(&merging(&env, &write)).resend);
    env.assert_file(F, &changed);

    // After a read, the write (with the outside change kept) goes ahead.
    env.json(&["read", F]).ok();
    lines[6] = "seven".into();
    let text = text_of(&lines);
    env.json(&["write", F, "--content", &text]).ok();
    env.assert_file(F, &text);

    // Nor undo, after an outside change since the session's own write.
    let changed = outside(&env, F, &mut lines, 11, "OUTSIDE 11");
    for out in [env.json(&["undo", F]), merging(&env, &["undo", F])] {
        let c = stale(&out);
        assert_eq!((c.since.as_str(), c.resend, c.added), ("write", false, 1));
        c.shows("-line 11\n+OUTSIDE 11\n");
    }
    env.assert_file(F, &changed);
}

#[test]
fn a_change_after_the_sessions_own_write_is_shown_since_the_write() {
    let env = TestEnv::new();
    let mut lines = read_twelve(&env, F);
    env.json(&edit("line 3", "line three")).ok();
    lines[2] = "line three".into();
    // A formatter-like rewrite of other lines.
    lines[10] = "line   11".into();
    let changed = outside(&env, F, &mut lines, 12, "line   12");
    let call = edit("line 5", "line five");
    let c = stale(&env.json(&call));
    c.shows("-line 11\n-line 12\n+line   11\n+line   12\n");
    assert_eq!(
        (c.since.as_str(), c.added, c.removed, c.resend),
        ("write", 2, 2, true)
    );
    env.assert_file(F, &changed);
    env.json(&call).ok();
    lines[4] = "line five".into();
    env.assert_file(F, text_of(&lines));
}

// The hint of a line-addressed edit refused after the session's own write names the read.
#[test]
fn a_line_edit_after_the_sessions_own_write_is_told_to_read_its_lines() {
    let env = TestEnv::new();
    let mut lines = read_twelve(&env, F);
    env.json(&edit("line 3", "three")).ok();
    let changed = outside(&env, F, &mut lines, 6, "OUTSIDE 6");
    let out = env.json(&at_lines("--lines", "11-11", "X"));
    let c = stale(&out);
    assert_eq!((c.since.as_str(), c.resend), ("write", false));
    let hint = out.failure().error.hint.unwrap();
    assert!(!hint.contains("whole-file"), "{hint}");
    env.assert_file(F, &changed);
}

const UGLY_RS: &str =
    "fn   ugly ( a:i32,b :i32)->i32{a+b}\n\nfn pretty(x: i32) -> i32 {\n    x * 2\n}\n";

#[test]
fn a_real_formatters_change_is_shown_then_resent_or_merged() {
    let env = TestEnv::new();
    for f in ["a.rs", "b.rs"] {
        env.write(f, UGLY_RS);
        env.json(&["read", f]).ok();
    }
    let status = std::process::Command::new("rustfmt")
        .args(["--edition", "2021", "a.rs", "b.rs"])
        .current_dir(&env.dir)
        .status()
        .expect("rustfmt must be on PATH (it comes with the toolchain)");
    assert!(status.success(), "rustfmt failed");
    let formatted = String::from_utf8(env.read("a.rs")).unwrap();
    assert!(formatted.contains("fn ugly(a: i32, b: i32) -> i32 {\n"));
    let expected = formatted.replace("x * 2", "x * 3");
    assert_ne!(expected, formatted);

    let call = ["edit", "a.rs", "--old", "x * 2", "--new", "x * 3"];
    let c = stale(&env.json(&call));
    c.shows("-fn   ugly ( a:i32,b :i32)->i32{a+b}\n");
    assert!(c.shows("+fn ugly(a: i32, b: i32) -> i32 {\n").resend);
    env.assert_file("a.rs", &formatted);
    env.json(&call).ok();
    env.assert_file("a.rs", &expected);

    let out = merging(&env, &["edit", "b.rs", "--old", "x * 2", "--new", "x * 3"]);
    assert!(merged(&out, None).diff.contains("+    a + b\n"));
    env.assert_file("b.rs", &expected);
}

fn patch_of(sections: &[(&str, &str)]) -> String {
    let section = |(f, hunk): &(&str, &str)| format!("--- a/{f}\n+++ b/{f}\n{hunk}");
    sections.iter().map(section).collect()
}

const HUNK_A: &str = "@@ -8,3 +8,3 @@\n line 8\n-line 9\n+line nine\n line 10\n";
/// Inserts a line after line 9.
const HUNK_B: &str = "@@ -8,2 +8,3 @@\n line 8\n line 9\n+mine\n";

#[test]
fn apply_merges_all_or_nothing() {
    let env = TestEnv::new();
    let mut a = read_twelve(&env, "a.txt");
    let b = read_twelve(&env, "b.txt");
    let a_changed = outside(&env, "a.txt", &mut a, 1, "OUTSIDE A");
    let mut b_now = b.clone();
    b_now.insert(9, "OUTSIDE B".into());
    env.write("b.txt", text_of(&b_now));
    let patch = patch_of(&[("a.txt", HUNK_A), ("b.txt", HUNK_B)]);

    let out = env.json_stdin(&["--merge", "apply", "-"], patch.as_bytes());
    out.err("patch_rejected", 3);
    let problems = out.failure().error.field("problems").clone();
    assert_eq!(problems.as_array().unwrap().len(), 1, "{problems:#}");
    assert_eq!(problems[0]["kind"], "stale");
    assert!(problems[0]["path"].as_str().unwrap().ends_with("/b.txt"));
    let c = parse_change(&problems[0]["change"]);
    assert!(!c.resend && c.overlap == span(10, 10), "{c:?}");
    c.shows("+OUTSIDE B\n");
    env.assert_file("a.txt", &a_changed);
    env.assert_file("b.txt", text_of(&b_now));

    // Without the conflict, both land: a over its outside change, b as read.
    env.write("b.txt", text_of(&b));
    let out = env.json_stdin(&["--merge", "apply", "-"], patch.as_bytes());
    let c = merged(&out, Some(0));
    assert_eq!((c.since.as_str(), c.added, c.removed), ("read", 1, 1));
    c.shows("+OUTSIDE A\n");
    assert!(out.json["files"][1].get("outsideChange").is_none());
    a[8] = "line nine".into();
    let mut b_done = b.clone();
    b_done.insert(9, "mine".into());
    env.assert_file("a.txt", text_of(&a));
    env.assert_file("b.txt", text_of(&b_done));
}

#[test]
fn with_keeping_off_a_stale_answer_is_todays() {
    for off in ["--no-keep-reads", "QUILL_KEEP_READS"] {
        let run = |env: &TestEnv, args: &[&str]| {
            let r = env.cmd(["--json"]).args(args);
            match off {
                "QUILL_KEEP_READS" => r.env(off, "0"),
                flag => r.arg(flag),
            }
            .run()
        };
        let env = TestEnv::new();
        let mut lines = numbered(12);
        env.write(F, text_of(&lines));
        run(&env, &["read", F]).ok();
        assert!(!exists(&env.state.join("kept")), "{off}");
        let changed = outside(&env, F, &mut lines, 2, "OUTSIDE 2");
        let call = edit("line 9", "nine");
        let merge = [&call[..], &["--merge"]].concat();
        for out in [run(&env, &call), run(&env, &call), run(&env, &merge)] {
            bare_stale(&out);
        }
        env.assert_file(F, &changed);
        let st = run(&env, &["state"]);
        let kept = &st.ok().json["kept"];
        assert!(kept["on"] == false && kept["versions"] == 0, "{kept}");

        // Kept by a read with keeping on, not used by a call with it off.
        let env = TestEnv::new();
        let mut lines = read_twelve(&env, F);
        let changed = outside(&env, F, &mut lines, 2, "OUTSIDE 2");
        bare_stale(&run(&env, &call));
        env.assert_file(F, &changed);
    }
}

fn kept_dir(env: &TestEnv) -> PathBuf {
    env.state.join("kept").join(sha256_hex(b"default"))
}

fn mode(p: &Path) -> u32 {
    fs::symlink_metadata(p).unwrap().permissions().mode() & 0o7777
}

#[test]
fn the_kept_store_holds_what_was_read_privately_and_goes_with_forget_and_clear() {
    let env = TestEnv::new();
    let text = text_of(&numbered(12));
    read_twelve(&env, F);
    let blob = kept_dir(&env).join(sha256_hex(text.as_bytes()));
    assert_eq!(fs::read(&blob).unwrap(), text.as_bytes());
    assert_eq!(mode(&blob), 0o600);
    assert_eq!(mode(&env.state.join("kept")), 0o700);
    assert_eq!(mode(&kept_dir(&env)), 0o700);
    let st = env.json(&["state"]);
    let kept = &st.ok().json["kept"];
    assert!(kept["on"] == true && kept["versions"] == 1, "{kept}");
    assert_eq!(kept["bytes"], text.len());

    // The session's own change is kept too; a version another file still has stays.
    read_twelve(&env, "same.txt");
    env.json(&edit("line 2", "two")).ok();
    let edited = String::from_utf8(env.read(F)).unwrap();
    let mine = kept_dir(&env).join(sha256_hex(edited.as_bytes()));
    assert_eq!(fs::read(&mine).unwrap(), edited.as_bytes());
    env.json(&["state", "forget", F]).ok();
    assert!(!exists(&mine), "forget left the kept version");
    assert!(exists(&blob), "forget removed a version same.txt still has");
    env.json(&["state", "clear"]).ok();
    assert!(!exists(&kept_dir(&env)), "clear left the kept versions");
    assert_eq!(env.json(&["state"]).ok().json["kept"]["versions"], 0);

    // Over 1 MiB: not kept; a change is stale without a diff, also when sent again.
    let row = |k| format!("line {k:06} {}\n", "x".repeat(60));
    let big: String = (0..16_000).map(row).collect();
    assert!(big.len() > 1 << 20);
    env.write("big.txt", &big);
    env.json(&["read", "big.txt"]).ok();
    assert!(!exists(&kept_dir(&env).join(sha256_hex(big.as_bytes()))));
    let changed = big.replacen("line 000001 ", "LINE 000001 ", 1);
    env.write("big.txt", &changed);
    let call = ["edit", "big.txt", "--old", "line 000005 ", "--new", "five "];
    let first = env.json(&call);
    bare_stale(&first);
    // ... and says why there is no diff.
    let why = first.json["error"]["changeUnavailable"]
        .as_str()
        .unwrap_or_default();
    assert!(why.contains("not kept"), "{}", first.json);
    bare_stale(&env.json(&call));
    env.assert_file("big.txt", &changed);
}

/// Every file under `dir`, recursively.
fn files_under(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for p in fs::read_dir(dir).unwrap().flatten().map(|e| e.path()) {
        match p.is_dir() {
            true => out.extend(files_under(&p)),
            false => out.push(p),
        }
    }
    out
}

#[test]
fn a_planted_link_in_the_kept_store_is_never_followed() {
    for planted in ["kept", "session"] {
        let env = TestEnv::new();
        let elsewhere = env.base.join("elsewhere");
        fs::create_dir(&elsewhere).unwrap();
        let mut lines = read_twelve(&env, F);
        let at = match planted {
            "kept" => env.state.join("kept"),
            _ => kept_dir(&env),
        };
        fs::remove_dir_all(&at).unwrap();
        std::os::unix::fs::symlink(&elsewhere, &at).unwrap();

        // Read again, change the file outside, edit: the state dir check may refuse, and
        // nothing goes through the link.
        let refused = |out: &Out| {
            out.err("state_unavailable", 4).stdout_has("symbolic link");
        };
        let out = env.json(&["read", F]);
        match out.code {
            0 => assert!(out.ok().read().complete),
            _ => refused(&out),
        }
        let changed = outside(&env, F, &mut lines, 2, "OUTSIDE 2");
        let out = env.json(&edit("line 9", "nine"));
        match out.failure().error.kind.as_str() {
            "stale" => bare_stale(&out),
            _ => refused(&out),
        }
        env.assert_file(F, &changed);
        assert!(files_under(&elsewhere).is_empty(), "{planted}: followed");
    }
}

fn edit_request(old: &str, new: &str) -> String {
    let args = serde_json::json!({"path": F, "old": old, "new": new});
    serde_json::json!({"tool": "quill_edit", "arguments": args}).to_string()
}

#[test]
fn quill_call_shows_the_change_and_takes_the_same_call_again() {
    let env = TestEnv::new();
    let mut lines = read_twelve(&env, F);
    let changed = outside(&env, F, &mut lines, 2, "OUTSIDE 2");
    let call =
        |flags: &[&str], req: String| env.cmd(["--json", "call"]).args(flags).stdin(req).run();
    let c = stale(&call(&[], edit_request("line 9", "nine")));
    assert!(c.shows("+OUTSIDE 2\n").resend);
    env.assert_file(F, &changed);
    call(&[], edit_request("line 9", "nine")).ok();
    lines[8] = "nine".into();
    env.assert_file(F, text_of(&lines));

    // `quill call --merge`: one call.
    outside(&env, F, &mut lines, 12, "OUTSIDE 12");
    let out = call(&["--merge"], edit_request("line 5", "five"));
    assert_eq!(merged(&out, None).since, "write");
    lines[4] = "five".into();
    env.assert_file(F, text_of(&lines));
}

#[cfg(feature = "mcp")]
mod mcp {
    use std::process::Stdio;

    use rmcp::model::CallToolRequestParams;
    use rmcp::service::RunningService;
    use rmcp::transport::{ConfigureCommandExt, TokioChildProcess};
    use rmcp::{RoleClient, ServiceExt};
    use serde_json::{Value, json};

    use super::{F, numbered, outside, parse_change, text_of};
    use crate::util::{BIN, TestEnv};

    type Client = RunningService<RoleClient, ()>;

    /// `quill mcp FLAGS…` in the test's directory, connected.
    async fn connect(env: &TestEnv, flags: &[&str]) -> Client {
        let cmd = tokio::process::Command::new(BIN).configure(|c| {
            c.env_clear()
                .env("PATH", std::env::var_os("PATH").unwrap_or_default())
                .env("HOME", &env.base)
                .env("QUILL_STATE_DIR", &env.state)
                .current_dir(&env.dir)
                .arg("mcp")
                .args(flags);
        });
        let (transport, _) = TokioChildProcess::builder(cmd)
            .stderr(Stdio::null())
            .spawn()
            .expect("spawn quill mcp");
        ().serve(transport).await.expect("initialize quill mcp")
    }

    /// An edit through MCP: its structured answer (checked against the schema) and text.
    async fn edit(s: &Client, old: &str, new: &str) -> (Value, String) {
        let Value::Object(args) = json!({"path": F, "old": old, "new": new}) else {
            unreachable!()
        };
        let params = CallToolRequestParams::new("quill_edit".to_string()).with_arguments(args);
        let r = s.call_tool(params).await.expect("quill_edit");
        let json = r.structured_content.clone().expect("structuredContent");
        crate::schema::validate_answer(&json).unwrap_or_else(|e| panic!("{e}\n{json:#}"));
        assert_eq!(r.is_error.unwrap_or(false), json["ok"] == false, "{json:#}");
        let text = r
            .content
            .iter()
            .filter_map(|c| c.as_text().map(|t| t.text.clone()))
            .collect();
        (json, text)
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn mcp_shows_the_change_then_takes_the_call_again_and_merges_with_merge() {
        let env = TestEnv::new();
        let mut lines = numbered(12);
        env.write(F, text_of(&lines));
        // The server's session is its own unless named: the CLI reads in it.
        env.json(&["--session", "agent", "read", F]).ok();
        let changed = outside(&env, F, &mut lines, 2, "OUTSIDE 2");
        let s = connect(&env, &["--session", "agent"]).await;
        let (json, text) = edit(&s, "line 9", "nine").await;
        assert_eq!(json["error"]["kind"], "stale", "{json:#}");
        let c = parse_change(&json["error"]["change"]);
        assert!(c.shows("+OUTSIDE 2\n").resend);
        assert!(text.contains("+OUTSIDE 2"), "{text}");
        env.assert_file(F, &changed);
        let (json, _) = edit(&s, "line 9", "nine").await;
        assert_eq!(json["ok"], true, "{json:#}");
        lines[8] = "nine".into();
        env.assert_file(F, text_of(&lines));
        s.cancel().await.unwrap();

        // A server started with --merge lands it in one call.
        outside(&env, F, &mut lines, 12, "OUTSIDE 12");
        let s = connect(&env, &["--session", "agent", "--merge"]).await;
        let (json, _) = edit(&s, "line 5", "five").await;
        assert_eq!(json["ok"], true, "{json:#}");
        assert_eq!(parse_change(&json["outsideChange"]).since, "write");
        let warnings = json["warnings"].as_array().unwrap();
        assert!(warnings.iter().any(|w| w["kind"] == "merged"), "{json:#}");
        lines[4] = "five".into();
        env.assert_file(F, text_of(&lines));
        s.cancel().await.unwrap();
    }
}

#[test]
fn a_dry_run_shows_the_change_but_records_nothing() {
    let env = TestEnv::new();
    let mut lines = read_twelve(&env, F);
    let changed = outside(&env, F, &mut lines, 2, "OUTSIDE 2");
    let call = edit("line 9", "nine");
    let dry = [&call[..], &["--dry-run"]].concat();
    let dry_lines = [&at_lines("--lines", "9-9", "X")[..], &["--dry-run"]].concat();
    for out in [env.json(&dry), env.json(&dry), env.json(&dry_lines)] {
        stale(&out).shows("+OUTSIDE 2\n");
        env.assert_file(F, &changed);
    }
    // Not counted as seen: the real call is stale first, then lands.
    assert!(stale(&env.json(&call)).resend);
    env.assert_file(F, &changed);
    env.json(&call).ok();
    lines[8] = "nine".into();
    env.assert_file(F, text_of(&lines));
}
