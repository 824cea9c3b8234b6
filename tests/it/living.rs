//! The promise of issue 28 (kept reads, `stale` with the change, re-send, `--merge`) as a
//! property, black box through the real binary: no sequence of calls an agent can make —
//! plausible or adversarial, repeated, after a timeout, from two sessions — may write over a
//! change that quill has not shown to that session, and a whole-file write re-sent after an
//! outside change keeps being refused until the session has seen the current content.
//!
//! The model on the test side: a text file of unique lines; outside steps change it behind the
//! agent's back (a marker line `OUTSIDE-<n>` inserted or put in place of a line by a plain file
//! write, or by a second quill session that reads and edits); agent steps are the calls an
//! agent makes (read, `edit --old`, `edit --lines`, `write`, `apply`, `undo`, the previous
//! call re-sent, a call sent twice as after a timeout, with or without merging). What the
//! session was shown is the concatenation of every answer it got (stdout and stderr: a read's
//! content, a stale answer's diff, a merge warning); the versions it saw whole are the hashes
//! of its complete reads and of its own successful changes. After every agent call:
//! 1. a marker that was in the file before the call and is gone after it was shown before it;
//! 2. a successful `write` that changed the file replaced a version the session had seen whole;
//! 3. no call panicked (exit 101), died by a signal or hung (each run is bounded);
//! 4. the file is the content before the call, or the content the answer reports (its hash).
//!
//! Without kept reads (`QUILL_KEEP_READS=0`: every outside change makes a change `stale` until
//! a read) and with them (the change shown, the same call let through, `--merge`) quill keeps
//! these.
//! `QUILL_PROP_CASES` raises the number of cases (48 by default).

use std::cell::Cell;
use std::collections::HashSet;
use std::fmt::Write as _;
use std::time::Duration;

use proptest::prelude::*;
use proptest::test_runner::{Config, TestCaseError, TestError, TestRunner};
use serde_json::Value;

use crate::util::{Out, TestEnv, sha256_hex};

const FILE: &str = "f.txt";
const AGENT: &str = "agent";
const OTHER: &str = "other";
/// Longest a single call may take: past it the call is killed and the case fails (a hang).
const LIMIT: Duration = Duration::from_secs(20);
const MARKER: &str = "OUTSIDE-";

const WORDS: &[&str] = &[
    "alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india", "juliet",
    "kilo", "lima", "mike", "november", "oscar", "papa", "quebec", "romeo", "sierra", "tango",
    "uniform", "victor", "whiskey", "xray", "yankee", "zulu",
];

// ---------------------------------------------------------------------------------------
// Steps

/// How a change asks to be merged: not at all, `--merge` (edit and apply), `QUILL_MERGE=1`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Merge {
    Off,
    Flag,
    Env,
}

/// Where an `edit --old` takes its line from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Target {
    /// Any line of the agent's view.
    View,
    /// A marker line of the agent's view (any line when it has none): an outside change it was
    /// shown, edited away.
    Marker,
    /// A line of the file as it is now: an adversarial agent naming text it may never have
    /// been shown.
    Guess,
}

#[derive(Clone, Debug)]
enum Step {
    /// Outside, a plain file write: a new marker line before line `at` (modulo the length).
    Insert {
        at: usize,
    },
    /// Outside, a plain file write: line `at` becomes a new marker.
    Replace {
        at: usize,
    },
    /// Outside, session `other`: reads, then `edit --lines` line `at` into a new marker.
    Other {
        at: usize,
    },
    /// The agent reads the whole file.
    Read,
    /// `edit --old LINE --new LINE-edited-<n>`, LINE picked by `target`.
    Edit {
        at: usize,
        target: Target,
        merge: Merge,
        twice: bool,
    },
    /// `edit --lines A-B` with the numbers of the agent's last read.
    Lines {
        at: usize,
        len: usize,
        merge: Merge,
        twice: bool,
    },
    /// `write` of the agent's view with one line changed.
    Write {
        at: usize,
        merge: bool,
        twice: bool,
    },
    /// `apply` of a unified diff made from the agent's view (stdin).
    Apply {
        at: usize,
        merge: Merge,
        twice: bool,
    },
    Undo {
        merge: bool,
        twice: bool,
    },
    /// The agent's previous call, exactly (a read when there was none).
    Resend,
}

#[derive(Clone, Debug)]
struct Case {
    lines: usize,
    first_read: bool,
    steps: Vec<Step>,
}

fn merge() -> impl Strategy<Value = Merge> {
    prop_oneof![2 => Just(Merge::Off), 1 => Just(Merge::Flag), 1 => Just(Merge::Env)]
}

fn target() -> impl Strategy<Value = Target> {
    prop_oneof![3 => Just(Target::View), 1 => Just(Target::Marker), 1 => Just(Target::Guess)]
}

fn step() -> impl Strategy<Value = Step> {
    let at = 0usize..40;
    let twice = prop::bool::weighted(0.25);
    prop_oneof![
        2 => at.clone().prop_map(|at| Step::Insert { at }),
        2 => at.clone().prop_map(|at| Step::Replace { at }),
        1 => at.clone().prop_map(|at| Step::Other { at }),
        3 => Just(Step::Read),
        4 => (at.clone(), target(), merge(), twice)
            .prop_map(|(at, target, merge, twice)| Step::Edit { at, target, merge, twice }),
        2 => (at.clone(), 0usize..3, merge(), twice)
            .prop_map(|(at, len, merge, twice)| Step::Lines { at, len, merge, twice }),
        2 => (at.clone(), any::<bool>(), twice)
            .prop_map(|(at, merge, twice)| Step::Write { at, merge, twice }),
        2 => (at, merge(), twice)
            .prop_map(|(at, merge, twice)| Step::Apply { at, merge, twice }),
        2 => (any::<bool>(), twice).prop_map(|(merge, twice)| Step::Undo { merge, twice }),
        2 => Just(Step::Resend),
    ]
}

fn case() -> impl Strategy<Value = Case> {
    (
        12usize..=30,
        prop::bool::weighted(0.8),
        prop::collection::vec(step(), 1..=16),
    )
        .prop_map(|(lines, first_read, steps)| Case {
            lines,
            first_read,
            steps,
        })
}

// ---------------------------------------------------------------------------------------
// Calls

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Read,
    Edit,
    Write,
    Apply,
    Undo,
}

/// One call of the agent, kept whole so that it can be sent again exactly.
#[derive(Clone, Debug)]
struct Call {
    kind: Kind,
    args: Vec<String>,
    stdin: Option<String>,
    merge_env: bool,
}

impl Call {
    fn new(kind: Kind, args: &[&str], merge: Merge) -> Call {
        let mut args: Vec<String> = args.iter().map(|a| a.to_string()).collect();
        if merge == Merge::Flag {
            args.push("--merge".into());
        }
        Call {
            kind,
            args,
            stdin: None,
            merge_env: merge == Merge::Env,
        }
    }

    fn show(&self) -> String {
        let mut s = String::new();
        if self.merge_env {
            s.push_str("QUILL_MERGE=1 ");
        }
        s.push_str(&format!("{:?}", self.args));
        if let Some(stdin) = &self.stdin {
            s.push_str(&format!(" <<< {stdin:?}"));
        }
        s
    }
}

fn run(env: &TestEnv, session: &str, call: &Call) -> Out {
    let mut r = env.cmd(["--json", "--session", session]).args(&call.args);
    if call.merge_env {
        r = r.env("QUILL_MERGE", "1");
    }
    if let Some(stdin) = &call.stdin {
        r = r.stdin(stdin.as_bytes());
    }
    r.spawn().wait_at_most(LIMIT)
}

fn lines_of(text: &str) -> Vec<String> {
    text.lines().map(str::to_string).collect()
}

fn text_of(lines: &[String]) -> String {
    lines.iter().map(|l| format!("{l}\n")).collect()
}

/// The marker lines of `text` (exactly `OUTSIDE-<digits>`).
fn markers(text: &str) -> Vec<&str> {
    text.lines()
        .filter(|l| {
            l.strip_prefix(MARKER)
                .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
        })
        .collect()
}

/// The hash the answer reports for the file: `sha256` of a write, edit or undo, the file's
/// entry of an apply.
fn reported_sha(out: &Out) -> Option<String> {
    let j = &out.json;
    let sha = if j["op"] == "apply" {
        j["files"]
            .as_array()?
            .iter()
            .find(|f| f["path"].as_str().is_some_and(|p| p.ends_with(FILE)))?
            .get("sha256")?
    } else {
        &j["sha256"]
    };
    sha.as_str().map(str::to_string)
}

fn summary(out: &Out) -> String {
    let j = &out.json;
    let mut s = match j["ok"].as_bool() {
        Some(true) => "ok".to_string(),
        Some(false) => {
            let e = &j["error"];
            let mut s = e["kind"].as_str().unwrap_or("?").to_string();
            if let Some(p) = e["problems"].as_array() {
                for p in p {
                    s.push_str(&format!(" [{}]", p["kind"].as_str().unwrap_or("?")));
                }
            }
            if let Some(c) = e.get("change") {
                s.push_str(&format!(" change(resend={})", c["resend"]));
            }
            s
        }
        None => "no JSON answer".to_string(),
    };
    if let Some(w) = j["warnings"].as_array()
        && !w.is_empty()
    {
        let kinds: Vec<&str> = w.iter().filter_map(|w| w["kind"].as_str()).collect();
        s.push_str(&format!(" warnings {kinds:?}"));
    }
    s
}

// ---------------------------------------------------------------------------------------
// The world of one case

/// Counts over all cases, to show the property is not vacuous.
#[derive(Default)]
struct Stats {
    calls: Cell<usize>,
    refused: Cell<usize>,
    usage: Cell<usize>,
    edits: Cell<usize>,
    writes: Cell<usize>,
    applies: Cell<usize>,
    undos: Cell<usize>,
    merged: Cell<usize>,
    markers_made: Cell<usize>,
    markers_removed: Cell<usize>,
    changes_shown: Cell<usize>,
}

fn bump(c: &Cell<usize>) {
    c.set(c.get() + 1);
}

struct World<'s> {
    env: TestEnv,
    stats: &'s Stats,
    /// Every answer the agent's session got, stdout and stderr.
    seen: String,
    /// Hashes of the versions the session saw whole (complete reads, its own results).
    whole: HashSet<String>,
    /// The latest version the agent knows whole, as lines.
    view: Vec<String>,
    /// The agent's last read, as lines (the numbering of a line-addressed edit).
    last_read: Vec<String>,
    last_call: Option<Call>,
    /// For fresh markers and texts.
    counter: usize,
    log: String,
}

impl World<'_> {
    fn fresh(&mut self) -> usize {
        self.counter += 1;
        self.counter
    }

    fn marker(&mut self) -> String {
        bump(&self.stats.markers_made);
        format!("{MARKER}{}", self.fresh())
    }

    fn disk(&self) -> String {
        String::from_utf8(self.env.read(FILE)).expect("the file stays UTF-8")
    }

    fn fail(&self, what: impl std::fmt::Display) -> TestCaseError {
        TestCaseError::fail(format!(
            "{what}\n── transcript ──\n{}── file now ──\n{}",
            self.log,
            self.disk()
        ))
    }

    // -- outside

    fn outside_write(&mut self, lines: Vec<String>, what: String) {
        let _ = writeln!(self.log, "outside: {what}");
        self.env.write(FILE, text_of(&lines));
    }

    fn other_session(&mut self, at: usize) -> Result<(), TestCaseError> {
        let read = run(
            &self.env,
            OTHER,
            &Call::new(Kind::Read, &["read", FILE], Merge::Off),
        );
        if read.code != 0 {
            return Err(self.fail(format!("session other's read: exit {}", read.code)));
        }
        let n = lines_of(&read.read().content).len().max(1);
        let line = at % n + 1;
        let marker = self.marker();
        let range = format!("{line}-{line}");
        let call = Call::new(
            Kind::Edit,
            &[
                "edit",
                FILE,
                "--lines",
                &range,
                "--new",
                &format!("{marker}\n"),
            ],
            Merge::Off,
        );
        let out = run(&self.env, OTHER, &call);
        let _ = writeln!(
            self.log,
            "outside: session other edits line {line} into {marker}: exit {} {}",
            out.code,
            summary(&out)
        );
        if out.code != 0 {
            return Err(self.fail("session other's edit right after its read failed"));
        }
        Ok(())
    }

    // -- the agent

    fn view_line(&self, at: usize) -> Option<String> {
        (!self.view.is_empty()).then(|| self.view[at % self.view.len()].clone())
    }

    fn agent_step(&mut self, step: &Step) -> Result<(), TestCaseError> {
        let (call, twice) = match *step {
            Step::Read => (Call::new(Kind::Read, &["read", FILE], Merge::Off), false),
            Step::Resend => match self.last_call.clone() {
                Some(c) => (c, false),
                None => (Call::new(Kind::Read, &["read", FILE], Merge::Off), false),
            },
            Step::Edit {
                at,
                target,
                merge,
                twice,
            } => {
                let marked: Vec<&String> = self
                    .view
                    .iter()
                    .filter(|l| !markers(l).is_empty())
                    .collect();
                let old = if target == Target::Guess {
                    let now = lines_of(&self.disk());
                    now[at % now.len()].clone()
                } else if target == Target::Marker && !marked.is_empty() {
                    marked[at % marked.len()].clone()
                } else {
                    self.view_line(at)
                        .unwrap_or_else(|| "a line never shown".to_string())
                };
                let new = format!("{old}-edited-{}\n", self.fresh());
                let old = format!("{old}\n");
                let args = ["edit", FILE, "--old", &old, "--new", &new];
                (Call::new(Kind::Edit, &args, merge), twice)
            }
            Step::Lines {
                at,
                len,
                merge,
                twice,
            } => {
                let n = self.last_read.len().max(1);
                let a = at % n + 1;
                let b = (a + len).min(n);
                let k = self.fresh();
                let new: String = (a..=b)
                    .map(|i| match self.last_read.get(i - 1) {
                        Some(l) => format!("{l}-lined-{k}\n"),
                        None => format!("lined-{k}\n"),
                    })
                    .collect();
                let range = format!("{a}-{b}");
                let args = ["edit", FILE, "--lines", &range, "--new", &new];
                (Call::new(Kind::Edit, &args, merge), twice)
            }
            Step::Write { at, merge, twice } => {
                let k = self.fresh();
                let mut lines = self.view.clone();
                if lines.is_empty() {
                    lines.push(format!("written-{k}"));
                } else {
                    let i = at % lines.len();
                    lines[i] = format!("{}-written-{k}", lines[i]);
                }
                let content = text_of(&lines);
                let m = if merge { Merge::Env } else { Merge::Off };
                (
                    Call::new(Kind::Write, &["write", FILE, "--content", &content], m),
                    twice,
                )
            }
            Step::Apply { at, merge, twice } => {
                let view = if self.view.is_empty() {
                    vec!["a line never shown".to_string()]
                } else {
                    self.view.clone()
                };
                let i = at % view.len();
                let (lo, hi) = (i.saturating_sub(2), (i + 3).min(view.len()));
                let count = hi - lo;
                let mut patch = format!(
                    "--- a/{FILE}\n+++ b/{FILE}\n@@ -{},{count} +{},{count} @@\n",
                    lo + 1,
                    lo + 1
                );
                let k = self.fresh();
                for (j, line) in view.iter().enumerate().take(hi).skip(lo) {
                    if j == i {
                        let _ = write!(patch, "-{line}\n+{line}-applied-{k}\n");
                    } else {
                        let _ = writeln!(patch, " {line}");
                    }
                }
                let mut call = Call::new(Kind::Apply, &["apply", "-"], merge);
                call.stdin = Some(patch);
                (call, twice)
            }
            Step::Undo { merge, twice } => {
                let m = if merge { Merge::Env } else { Merge::Off };
                (Call::new(Kind::Undo, &["undo", FILE], m), twice)
            }
            Step::Insert { .. } | Step::Replace { .. } | Step::Other { .. } => unreachable!(),
        };
        self.agent_call(&call)?;
        if twice {
            self.agent_call(&call)?;
        }
        self.last_call = Some(call);
        Ok(())
    }

    fn agent_call(&mut self, call: &Call) -> Result<(), TestCaseError> {
        let before = self.disk();
        let out = run(&self.env, AGENT, call);
        let after = self.disk();
        bump(&self.stats.calls);
        let _ = writeln!(
            self.log,
            "agent: {}: exit {} {}",
            call.show(),
            out.code,
            summary(&out)
        );
        self.check(call, &out, &before, &after)?;
        self.learn(call, &out, &after);
        Ok(())
    }

    fn check(
        &self,
        call: &Call,
        out: &Out,
        before: &str,
        after: &str,
    ) -> Result<(), TestCaseError> {
        // (3) No panic, no death by a signal (a hang failed the run already), one answer.
        if out.signal.is_some() || out.code == 101 {
            return Err(self.fail(format!(
                "the call died (exit {}, signal {:?}):\n{}{}",
                out.code, out.signal, out.stdout, out.stderr
            )));
        }
        let ok = out.json["ok"].as_bool();
        let expected = match out.code {
            0 => ok == Some(true),
            3 => ok == Some(false) && call.kind != Kind::Read,
            // --merge is a flag of every change: never a usage error.
            _ => false,
        };
        if !expected {
            return Err(self.fail(format!(
                "unexpected answer: exit {}:\n{}{}",
                out.code, out.stdout, out.stderr
            )));
        }
        // (4) The file is what it was, or what the answer reports.
        let sha_after = sha256_hex(after.as_bytes());
        if out.code == 0 && call.kind != Kind::Read {
            if reported_sha(out).as_deref() != Some(sha_after.as_str()) {
                return Err(self.fail(format!(
                    "the answer reports sha256 {:?}, the file on disk is {sha_after}",
                    reported_sha(out)
                )));
            }
        } else if after != before {
            return Err(self.fail(format!(
                "exit {} ({}) and yet the file changed:\n── before ──\n{before}",
                out.code,
                summary(out)
            )));
        }
        // (1) A marker gone by this call was shown to the session before it.
        let kept = markers(after);
        for m in markers(before) {
            if !kept.contains(&m) && !self.seen.contains(m) {
                return Err(self.fail(format!(
                    "{m} was never shown to session {AGENT}, and this call wrote over it\n\
                     ── before ──\n{before}"
                )));
            }
        }
        // (2) A whole-file write replaced only a version seen whole.
        let sha_before = sha256_hex(before.as_bytes());
        if call.kind == Kind::Write
            && out.code == 0
            && after != before
            && !self.whole.contains(&sha_before)
        {
            return Err(self.fail(format!(
                "a whole-file write replaced {sha_before}, a version session {AGENT} never saw \
                 whole (it saw {:?})\n── before ──\n{before}",
                self.whole
            )));
        }
        Ok(())
    }

    fn learn(&mut self, call: &Call, out: &Out, after: &str) {
        let s = self.stats;
        self.seen.push_str(&out.stdout);
        self.seen.push_str(&out.stderr);
        if out.json["error"].get("change").is_some() {
            bump(&s.changes_shown);
        }
        if out.code == 2 {
            bump(&s.usage);
        }
        if out.code != 0 {
            if out.code == 3 {
                bump(&s.refused);
            }
            return;
        }
        if let Some(w) = out.json["warnings"].as_array()
            && w.iter().any(|w| w["kind"] == "merged")
        {
            bump(&s.merged);
        }
        match call.kind {
            Kind::Read => {
                let r = out.read();
                if r.complete
                    && r.content == after
                    && r.sha256.as_deref() == Some(sha256_hex(after.as_bytes()).as_str())
                {
                    self.whole.insert(sha256_hex(after.as_bytes()));
                }
                self.view = lines_of(&r.content);
                self.last_read = self.view.clone();
            }
            kind => {
                match kind {
                    Kind::Edit => bump(&s.edits),
                    Kind::Write => bump(&s.writes),
                    Kind::Apply => bump(&s.applies),
                    _ => bump(&s.undos),
                }
                // Checked in `check`: the reported hash is the file's.
                self.whole.insert(sha256_hex(after.as_bytes()));
                self.view = lines_of(after);
            }
        }
    }

    fn count_removed(&self, before: &str) {
        let now = self.disk();
        let kept = markers(&now);
        for m in markers(before) {
            if !kept.contains(&m) {
                bump(&self.stats.markers_removed);
            }
        }
    }

    fn step(&mut self, step: &Step) -> Result<(), TestCaseError> {
        match *step {
            Step::Insert { at } => {
                let mut lines = lines_of(&self.disk());
                let at = at % (lines.len() + 1);
                let m = self.marker();
                lines.insert(at, m.clone());
                self.outside_write(lines, format!("{m} inserted as line {}", at + 1));
                Ok(())
            }
            Step::Replace { at } => {
                let mut lines = lines_of(&self.disk());
                let at = at % lines.len();
                let m = self.marker();
                let old = std::mem::replace(&mut lines[at], m.clone());
                self.outside_write(lines, format!("line {} {old:?} replaced by {m}", at + 1));
                Ok(())
            }
            Step::Other { at } => self.other_session(at),
            _ => {
                let before = self.disk();
                self.agent_step(step)?;
                self.count_removed(&before);
                Ok(())
            }
        }
    }
}

fn run_case(case: &Case, stats: &Stats) -> Result<(), TestCaseError> {
    let env = TestEnv::new();
    let lines: Vec<String> = (0..case.lines)
        .map(|k| format!("{k:02} {}", WORDS[k % WORDS.len()]))
        .collect();
    env.write(FILE, text_of(&lines));
    let mut w = World {
        env,
        stats,
        seen: String::new(),
        whole: HashSet::new(),
        view: Vec::new(),
        last_read: Vec::new(),
        last_call: None,
        counter: 99, // markers are OUTSIDE-100 and up: three digits, none a prefix of another
        log: String::new(),
    };
    let _ = writeln!(w.log, "a file of {} lines", case.lines);
    if case.first_read {
        w.step(&Step::Read)?;
    }
    for step in &case.steps {
        w.step(step)?;
    }
    Ok(())
}

fn cases() -> u32 {
    std::env::var("QUILL_PROP_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(48)
}

#[test]
fn no_call_writes_over_a_change_the_session_was_not_shown() {
    let cases = cases();
    let mut runner = TestRunner::new(Config {
        cases,
        failure_persistence: None,
        max_shrink_iters: 512,
        max_shrink_time: 120_000,
        ..Config::default()
    });
    let stats = Stats::default();
    match runner.run(&case(), |case| run_case(&case, &stats)) {
        Ok(()) => {}
        Err(TestError::Fail(why, case)) => {
            panic!("the promise is broken; minimal case:\n{case:#?}\n{why}")
        }
        Err(e) => panic!("{e}"),
    }
    let s = &stats;
    eprintln!(
        "living: {cases} cases, {} agent calls: {} refused, {} usage, ok: \
         {} edits, {} writes, {} applies, {} undos, {} merged; {} markers made, {} removed \
         after being shown, {} stale answers with the change",
        s.calls.get(),
        s.refused.get(),
        s.usage.get(),
        s.edits.get(),
        s.writes.get(),
        s.applies.get(),
        s.undos.get(),
        s.merged.get(),
        s.markers_made.get(),
        s.markers_removed.get(),
        s.changes_shown.get(),
    );
    if cases >= 32 {
        // Not vacuous: every kind of change landed somewhere, and some were refused.
        for (what, n) in [
            ("refusals", &s.refused),
            ("edits", &s.edits),
            ("writes", &s.writes),
            ("applies", &s.applies),
            ("undos", &s.undos),
        ] {
            assert!(n.get() > 0, "no {what} in {cases} cases");
        }
    }
}

// ---------------------------------------------------------------------------------------
// The two fixed cases

fn numbered(n: usize) -> Vec<String> {
    (1..=n).map(|k| format!("line {k}")).collect()
}

fn agent(env: &TestEnv, args: &[&str]) -> Out {
    env.cmd(["--json", "--session", AGENT])
        .args(args)
        .spawn()
        .wait_at_most(LIMIT)
}

#[test]
fn a_whole_file_write_resent_after_an_outside_change_stays_refused_until_a_read() {
    let env = TestEnv::new();
    let mut lines = numbered(12);
    env.write(FILE, text_of(&lines));
    agent(&env, &["read", FILE]).ok();
    // What the agent means to write: its view with line 7 changed.
    let mut mine = lines.clone();
    mine[6] = "line 7 written".into();
    let mine = text_of(&mine);
    // Outside, elsewhere in the file.
    lines[2] = "OUTSIDE-100".into();
    let changed = text_of(&lines);
    env.write(FILE, &changed);

    for attempt in 0..5 {
        let mut run =
            env.cmd(["--json", "--session", AGENT])
                .args(["write", FILE, "--content", &mine]);
        if attempt % 2 == 1 {
            run = run.env("QUILL_MERGE", "1");
        }
        let out = run.spawn().wait_at_most(LIMIT);
        out.err("stale", 3);
        // A diff never authorizes a whole-file write.
        if let Some(change) = out.json["error"].get("change") {
            assert_eq!(change["resend"], Value::Bool(false), "attempt {attempt}");
        }
        env.assert_file(FILE, &changed);
    }

    let read = agent(&env, &["read", FILE]);
    assert_eq!(read.ok().read().content, changed);
    lines[6] = "line 7 written".into();
    let mine = text_of(&lines);
    agent(&env, &["write", FILE, "--content", &mine]).ok();
    env.assert_file(FILE, &mine);
}

#[test]
fn an_edit_after_an_outside_change_elsewhere_is_refused_or_shown_then_resent() {
    let env = TestEnv::new();
    let mut lines = numbered(12);
    env.write(FILE, text_of(&lines));
    agent(&env, &["read", FILE]).ok();
    lines[1] = "OUTSIDE-100".into();
    let changed = text_of(&lines);
    env.write(FILE, &changed);

    let edit = [
        "edit",
        FILE,
        "--old",
        "line 9\n",
        "--new",
        "line 9 edited\n",
    ];
    let first = agent(&env, &edit);
    first.err("stale", 3);
    env.assert_file(FILE, &changed);
    match first.json["error"].get("change") {
        // Today (or with keeping off): the change is not shown, so the same call stays refused.
        None => {
            agent(&env, &edit).err("stale", 3);
            env.assert_file(FILE, &changed);
        }
        // The change is shown; the edit's line is untouched by it, so the contract allows
        // only a re-send that is judged against the current file.
        Some(change) => {
            assert_eq!(change["resend"], Value::Bool(true), "{change}");
            assert!(change.get("overlap").is_none(), "{change}");
            let diff = change["diff"].as_str().unwrap_or_default();
            assert!(diff.contains("+OUTSIDE-100"), "{diff}");
            agent(&env, &edit).ok();
            lines[8] = "line 9 edited".into();
            env.assert_file(FILE, text_of(&lines));
        }
    }
}
