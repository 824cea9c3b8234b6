//! The test harness. `TestEnv` gives every test a fresh temporary directory — `work/` (the
//! working directory of every run) and `state/` (a private state directory) — and builds runs
//! of the real `quill` binary (or of a wrapper around it: strace, setpriv, sh) there with a
//! cleared environment. A run's `Out` holds the exit status, stdout, stderr and the parsed JSON
//! answer, and checks them; `Out::read()`, `mutation()`, … deserialize the answer into the
//! typed structs of `answer.rs`, so a missing field fails the test.
//!
//! Failing loudly: every failed check through the harness panics with a report of the run —
//! the command line, its cwd, the environment it got, the exit status, stdout, stderr and a
//! recursive listing of the test directory with sizes — and, for text compared with text, a
//! line diff of expected against actual. A panic hook adds the report of the thread's last run
//! to any other failure (a plain `assert_eq!` on a typed field), so no failure comes without
//! its context. Runs and their results are `#[must_use]`: a run nobody checks is a warning.

#![allow(dead_code)] // shared by every test module; not all use every helper

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::ffi::{OsStr, OsString};
use std::fmt::Write as _;
use std::fs;
use std::io::{Read as _, Write as _};
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::{FileTypeExt, PermissionsExt};
use std::os::unix::process::ExitStatusExt;
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStderr, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::{Arc, Once};
use std::thread;
use std::time::{Duration, Instant, SystemTime};

use serde::de::DeserializeOwned;
use serde_json::Value;

pub use crate::answer::*;
pub use crate::generated::check_generated;

pub const BIN: &str = env!("CARGO_BIN_EXE_quill");

/// Starts every run report; the panic hook leaves alone a message that already has one.
const REPORT_MARK: &str = "──── quill run ────";

// ---------------------------------------------------------------------------------------
// TestEnv

pub struct TestEnv {
    _tmp: tempfile::TempDir,
    /// The canonical temporary directory that holds `work/` and `state/` (listed on failure).
    pub base: PathBuf,
    /// The working directory of every run.
    pub dir: PathBuf,
    /// The private state directory (`QUILL_STATE_DIR`), created by quill on first use.
    pub state: PathBuf,
}

impl TestEnv {
    pub fn new() -> TestEnv {
        install_panic_hook();
        let tmp = tempfile::Builder::new()
            .prefix("quill-it-")
            .tempdir()
            .unwrap();
        let base = fs::canonicalize(tmp.path()).unwrap();
        let dir = base.join("work");
        let state = base.join("state");
        fs::create_dir(&dir).unwrap();
        LAST_RUN.with(|l| *l.borrow_mut() = None);
        CURRENT_BASE.with(|b| *b.borrow_mut() = Some(base.clone()));
        TestEnv {
            _tmp: tmp,
            base,
            dir,
            state,
        }
    }

    pub fn path(&self, rel: &str) -> PathBuf {
        self.dir.join(rel)
    }

    /// Write `bytes` to `rel` in the work dir (parents created); returns the path.
    pub fn write(&self, rel: &str, bytes: impl AsRef<[u8]>) -> PathBuf {
        let p = self.path(rel);
        if let Some(parent) = p.parent() {
            fs::create_dir_all(parent).unwrap();
        }
        fs::write(&p, bytes).unwrap();
        p
    }

    pub fn read(&self, rel: &str) -> Vec<u8> {
        fs::read(self.path(rel)).unwrap_or_else(|e| fail(&format!("cannot read {rel}: {e}")))
    }

    pub fn set_mtime(&self, rel: &str, t: SystemTime) {
        let f = fs::File::options()
            .write(true)
            .open(self.path(rel))
            .expect("open for set_modified");
        f.set_modified(t).expect("set_modified");
    }

    /// `rel` holds exactly `expected`; else a line diff, the last run and the listing.
    #[track_caller]
    pub fn assert_file(&self, rel: &str, expected: impl AsRef<[u8]>) {
        assert_bytes(
            &format!("{rel} on disk"),
            &self.read(rel),
            expected.as_ref(),
        );
    }

    /// The one session file in the state dir (after a command recorded something), with the
    /// given extension: `json` for the state, `lock` for its lock.
    pub fn session_file(&self, ext: &str) -> PathBuf {
        fs::read_dir(self.state.join("sessions"))
            .unwrap()
            .map(|e| e.unwrap().path())
            .find(|p| p.extension().is_some_and(|e| e == ext))
            .unwrap_or_else(|| fail(&format!("no .{ext} file in {}", self.state.display())))
    }

    /// The mutation lock file of a file (docs/model.md): `<state>/locks/<sha256 of the canonical
    /// path bytes>.lock`.
    pub fn lock_file(&self, canonical: &Path) -> PathBuf {
        self.state.join("locks").join(format!(
            "{}.lock",
            sha256_hex(canonical.as_os_str().as_bytes())
        ))
    }

    /// Make the test tree reachable by other users (for runs as `nobody`): its ancestors up to
    /// the temp dir and the base get mode 0755.
    pub fn open_up(&self) {
        let mut p = self.dir.clone();
        while p.pop() && p != Path::new("/") && p != std::env::temp_dir() {
            let _ = fs::set_permissions(&p, fs::Permissions::from_mode(0o755));
        }
        let _ = fs::set_permissions(&self.dir, fs::Permissions::from_mode(0o755));
    }

    /// A run of `program` in the work dir with a cleared environment: only `PATH`, `HOME` (the
    /// base dir), `QUILL_STATE_DIR` (the private state dir) and `QUILL_STDIN_GRACE` (10 s: a
    /// test that feeds grep's stdin from a thread must not lose the race against grep's
    /// 100 ms grace on a loaded machine; `grep_stdin` removes it to test the default) are set.
    pub fn program(&self, program: impl AsRef<OsStr>) -> Run {
        let mut vars = BTreeMap::new();
        vars.insert(
            OsString::from("PATH"),
            std::env::var_os("PATH").unwrap_or_default(),
        );
        vars.insert(OsString::from("HOME"), self.base.clone().into_os_string());
        vars.insert(
            OsString::from("QUILL_STATE_DIR"),
            self.state.clone().into_os_string(),
        );
        vars.insert(OsString::from("QUILL_STDIN_GRACE"), OsString::from("10000"));
        Run {
            program: program.as_ref().to_owned(),
            args: Vec::new(),
            cwd: self.dir.clone(),
            vars,
            stdin: Input::Null,
            listing: Some(self.base.clone()),
        }
    }

    /// A run of `quill args…` (see `program`).
    pub fn cmd<I, S>(&self, args: I) -> Run
    where
        I: IntoIterator<Item = S>,
        S: AsRef<OsStr>,
    {
        self.program(BIN).args(args)
    }

    /// Run `quill --json args…`.
    pub fn json(&self, args: &[&str]) -> Out {
        self.cmd(["--json"]).args(args).run()
    }

    /// Run `quill --json args…`, feeding `stdin`.
    pub fn json_stdin(&self, args: &[&str], stdin: &[u8]) -> Out {
        self.cmd(["--json"]).args(args).stdin(stdin).run()
    }

    /// Run `quill args…` in text mode.
    pub fn text(&self, args: &[&str]) -> Out {
        self.cmd(args).run()
    }
}

// ---------------------------------------------------------------------------------------
// Run: a command to be run, and what it was (for the report)

enum Input {
    Null,
    Bytes(Vec<u8>),
    Pipe,
}

/// A command to run; nothing happens until `run()` or `spawn()`.
#[must_use = "a run that is never started tests nothing: call .run() or .spawn()"]
pub struct Run {
    program: OsString,
    args: Vec<OsString>,
    cwd: PathBuf,
    vars: BTreeMap<OsString, OsString>,
    stdin: Input,
    listing: Option<PathBuf>,
}

impl Run {
    pub fn arg(mut self, arg: impl AsRef<OsStr>) -> Run {
        self.args.push(arg.as_ref().to_owned());
        self
    }

    pub fn args<I, S>(mut self, args: I) -> Run
    where
        I: IntoIterator<Item = S>,
        S: AsRef<OsStr>,
    {
        self.args
            .extend(args.into_iter().map(|a| a.as_ref().to_owned()));
        self
    }

    pub fn env(mut self, key: impl AsRef<OsStr>, value: impl AsRef<OsStr>) -> Run {
        self.vars
            .insert(key.as_ref().to_owned(), value.as_ref().to_owned());
        self
    }

    pub fn env_remove(mut self, key: impl AsRef<OsStr>) -> Run {
        self.vars.remove(key.as_ref());
        self
    }

    pub fn current_dir(mut self, dir: impl AsRef<Path>) -> Run {
        self.cwd = dir.as_ref().to_owned();
        self
    }

    /// Feed these bytes on stdin (then close it).
    pub fn stdin(mut self, bytes: impl AsRef<[u8]>) -> Run {
        self.stdin = Input::Bytes(bytes.as_ref().to_vec());
        self
    }

    /// Give the spawned child a stdin pipe for the test to write (`Running::take_stdin`).
    pub fn stdin_pipe(mut self) -> Run {
        self.stdin = Input::Pipe;
        self
    }

    /// Run the command through a wrapper: `wrapper[0] wrapper[1..]… program args…` (strace,
    /// setpriv, …). The environment and cwd stay.
    pub fn wrapped<I, S>(mut self, wrapper: I) -> Run
    where
        I: IntoIterator<Item = S>,
        S: AsRef<OsStr>,
    {
        let mut w: Vec<OsString> = wrapper.into_iter().map(|a| a.as_ref().to_owned()).collect();
        assert!(!w.is_empty(), "an empty wrapper");
        let program = std::mem::replace(&mut self.program, w.remove(0));
        w.push(program);
        w.append(&mut self.args);
        self.args = w;
        self
    }

    fn info(&self) -> RunInfo {
        let mut line = shell_word(&self.program);
        for a in &self.args {
            line.push(' ');
            line.push_str(&shell_word(a));
        }
        let format_json = self.vars.get(OsStr::new("QUILL_FORMAT")) == Some(&"json".into());
        let json_flag = self.args.iter().any(|a| a == "--json");
        let text_flag = self.args.iter().any(|a| a == "--text");
        RunInfo {
            command: line,
            cwd: self.cwd.clone(),
            vars: self
                .vars
                .iter()
                .map(|(k, v)| {
                    (
                        k.to_string_lossy().into_owned(),
                        v.to_string_lossy().into_owned(),
                    )
                })
                .collect(),
            listing: self.listing.clone(),
            expect_json: (json_flag || format_json) && !text_flag,
        }
    }

    fn command(&self) -> Command {
        let mut c = Command::new(&self.program);
        c.args(&self.args)
            .env_clear()
            .envs(&self.vars)
            .current_dir(&self.cwd)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        c.stdin(match self.stdin {
            Input::Null => Stdio::null(),
            Input::Bytes(_) | Input::Pipe => Stdio::piped(),
        });
        c
    }

    /// Start the command (stdout and stderr piped); the child is killed if the `Running` is
    /// dropped without a wait.
    pub fn spawn(self) -> Running {
        let info = Arc::new(self.info());
        let mut child = self
            .command()
            .spawn()
            .unwrap_or_else(|e| fail_with(&format!("cannot start: {e}"), &info.render_start()));
        let feeder = match self.stdin {
            Input::Bytes(bytes) => {
                let mut w = child.stdin.take().unwrap();
                // A writer thread: a child that does not read all of stdin must not hang us.
                Some(thread::spawn(move || {
                    let _ = w.write_all(&bytes);
                }))
            }
            _ => None,
        };
        Running {
            child: Some(child),
            program: self.program,
            info,
            feeder,
        }
    }

    /// Run to completion and collect the result.
    pub fn run(self) -> Out {
        self.spawn().wait()
    }
}

struct RunInfo {
    command: String,
    cwd: PathBuf,
    vars: Vec<(String, String)>,
    listing: Option<PathBuf>,
    expect_json: bool,
}

impl RunInfo {
    fn render_start(&self) -> String {
        let mut s = format!(
            "\n{REPORT_MARK}\ncommand: {}\ncwd:     {}\nenv:     (cleared)",
            self.command,
            self.cwd.display()
        );
        for (k, v) in &self.vars {
            let _ = write!(s, " {k}={}", shell_word(OsStr::new(v)));
        }
        s.push('\n');
        s
    }
}

// ---------------------------------------------------------------------------------------
// Running: a started child

#[must_use = "wait for the child (.wait()); a dropped Running kills it"]
pub struct Running {
    child: Option<Child>,
    program: OsString,
    info: Arc<RunInfo>,
    feeder: Option<thread::JoinHandle<()>>,
}

impl Running {
    pub fn id(&self) -> u32 {
        self.child.as_ref().unwrap().id()
    }

    /// The stdin pipe (after `Run::stdin_pipe`).
    pub fn take_stdin(&mut self) -> ChildStdin {
        self.child
            .as_mut()
            .unwrap()
            .stdin
            .take()
            .expect("stdin_pipe")
    }

    /// The stdout pipe, to read (or close) while the child runs.
    pub fn take_stdout(&mut self) -> std::process::ChildStdout {
        self.child.as_mut().unwrap().stdout.take().expect("stdout")
    }

    /// The stderr pipe, to read while the child runs; the result then has what is left.
    pub fn take_stderr(&mut self) -> ChildStderr {
        self.child.as_mut().unwrap().stderr.take().expect("stderr")
    }

    /// Send a signal (`libc::SIGTERM`, …).
    pub fn signal(&self, sig: i32) {
        let pid = self.id() as libc::pid_t;
        // SAFETY: kill(2) on our own child, not yet reaped (a zombie at worst).
        let r = unsafe { libc::kill(pid, sig) };
        assert_eq!(
            r,
            0,
            "kill({pid}, {sig}): {}",
            std::io::Error::last_os_error()
        );
    }

    /// Whether the child still runs (it has not exited).
    pub fn is_running(&mut self) -> bool {
        matches!(self.child.as_mut().unwrap().try_wait(), Ok(None))
    }

    /// The paths of the child's open files (`/proc/<pid>/fd`).
    pub fn open_files(&self) -> Vec<PathBuf> {
        fs::read_dir(format!("/proc/{}/fd", self.id()))
            .map(|rd| {
                rd.filter_map(|e| fs::read_link(e.ok()?.path()).ok())
                    .collect()
            })
            .unwrap_or_default()
    }

    /// A report of this run while it runs (for a failure before it ends).
    pub fn report(&self) -> String {
        let mut s = self.info.render_start();
        let _ = writeln!(s, "status:  still running (pid {})", self.id());
        if let Some(base) = &self.info.listing {
            s.push_str(&dir_listing(base));
        }
        s
    }

    /// Fail the test now, with this run's report (the child is killed on drop).
    #[track_caller]
    pub fn fail(&self, what: &str) -> ! {
        fail_with(what, &self.report())
    }

    /// Wait for the child to exit.
    pub fn wait(mut self) -> Out {
        let child = self.child.take().unwrap();
        let o = child.wait_with_output().unwrap();
        if let Some(f) = self.feeder.take() {
            let _ = f.join();
        }
        Out::new(self.info.clone(), o.status, o.stdout, o.stderr)
    }

    /// Wait at most `limit`; a child still running then is killed and the test fails.
    pub fn wait_at_most(mut self, limit: Duration) -> Out {
        let start = Instant::now();
        let (stdout, stderr) = self.collect_output();
        loop {
            match self.child.as_mut().unwrap().try_wait().unwrap() {
                Some(status) => {
                    let (stdout, stderr) = (stdout.join().unwrap(), stderr.join().unwrap());
                    return Out::new(self.info.clone(), status, stdout, stderr);
                }
                None if start.elapsed() > limit => {
                    let report = self.report();
                    drop(self); // kills the child
                    fail_with(&format!("still running after {limit:?}: killed"), &report);
                }
                None => thread::sleep(Duration::from_millis(5)),
            }
        }
    }

    /// Wait for the child and measure its peak resident set size in KiB: the kernel's
    /// high-water mark of the exec'd program (`VmHWM`), read every millisecond until it exits.
    /// A lower bound that misses only growth in its last millisecond; `wait4`'s `ru_maxrss`
    /// would be exact but counts the address space the child had before exec — ours, the
    /// test binary's, often far over 16 MiB.
    pub fn wait_peak_rss(mut self) -> (Out, u64) {
        let (stdout, stderr) = self.collect_output();
        let pid = self.id();
        let program = fs::canonicalize(&self.program).ok();
        let mut peak = 0u64;
        let status = loop {
            // Only once the child runs the program (never the pre-exec copy of this process).
            let exe = fs::read_link(format!("/proc/{pid}/exe")).ok();
            if exe.is_some()
                && exe == program
                && let Ok(s) = fs::read_to_string(format!("/proc/{pid}/status"))
                && let Some(kib) = s
                    .lines()
                    .find_map(|l| l.strip_prefix("VmHWM:"))
                    .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
            {
                peak = peak.max(kib);
            }
            if let Some(status) = self.child.as_mut().unwrap().try_wait().unwrap() {
                break status;
            }
            thread::sleep(Duration::from_millis(1));
        };
        let (stdout, stderr) = (stdout.join().unwrap(), stderr.join().unwrap());
        (Out::new(self.info.clone(), status, stdout, stderr), peak)
    }

    fn collect_output(&mut self) -> (thread::JoinHandle<Vec<u8>>, thread::JoinHandle<Vec<u8>>) {
        let child = self.child.as_mut().unwrap();
        let reader = |r: Option<Box<dyn std::io::Read + Send>>| {
            thread::spawn(move || {
                let mut v = Vec::new();
                if let Some(mut r) = r {
                    let _ = r.read_to_end(&mut v);
                }
                v
            })
        };
        let so = child
            .stdout
            .take()
            .map(|s| Box::new(s) as Box<dyn std::io::Read + Send>);
        let se = child
            .stderr
            .take()
            .map(|s| Box::new(s) as Box<dyn std::io::Read + Send>);
        (reader(so), reader(se))
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

// ---------------------------------------------------------------------------------------
// Out: the result of a run

/// What a run did. Check it: `.ok()`, `.found_nothing()`, `.err(kind, code)`, `.exit(code)`,
/// `.assert_stdout(…)`, or a typed answer (`.read()`, `.mutation()`, …).
#[must_use = "a run whose result is never checked tests nothing"]
pub struct Out {
    /// The exit code; -1 when a signal ended the process (`signal`).
    pub code: i32,
    pub signal: Option<i32>,
    /// stdout as text (lossy); `stdout_bytes` is exactly what was printed.
    pub stdout: String,
    pub stdout_bytes: Vec<u8>,
    pub stderr: String,
    /// The parsed stdout when it is JSON, else `Value::Null`.
    pub json: Value,
    report: Arc<Report>,
}

struct Report {
    info: Arc<RunInfo>,
    status: ExitStatus,
    stdout: String,
    stderr: String,
}

impl Report {
    fn render(&self) -> String {
        let mut s = self.info.render_start();
        let _ = writeln!(s, "status:  {}", describe_status(self.status));
        let _ = writeln!(s, "stdout:{}", block(&self.stdout));
        let _ = writeln!(s, "stderr:{}", block(&self.stderr));
        if let Some(base) = &self.info.listing {
            s.push_str(&dir_listing(base));
        }
        s
    }
}

impl Out {
    fn new(info: Arc<RunInfo>, status: ExitStatus, stdout: Vec<u8>, stderr: Vec<u8>) -> Out {
        let stdout_bytes = stdout;
        let stdout = String::from_utf8_lossy(&stdout_bytes).into_owned();
        let stderr = String::from_utf8_lossy(&stderr).into_owned();
        let json = serde_json::from_str(stdout.trim_end()).unwrap_or(Value::Null);
        let report = Arc::new(Report {
            info,
            status,
            stdout: stdout.clone(),
            stderr: stderr.clone(),
        });
        // Every JSON answer any test sees is checked against the committed schema, and so is
        // every progress line on stderr.
        if json.get("ok").is_some()
            && let Err(e) = crate::schema::validate_answer(&json)
        {
            fail_with(&e, &report.render());
        }
        for line in stderr.lines().filter(|l| l.starts_with("{\"event\"")) {
            let event = serde_json::from_str(line).unwrap_or(Value::Null);
            if let Err(e) = crate::schema::validate_event(&event) {
                fail_with(&e, &report.render());
            }
        }
        LAST_RUN.with(|l| *l.borrow_mut() = Some(report.clone()));
        Out {
            code: status.code().unwrap_or(-1),
            signal: status.signal(),
            stdout,
            stdout_bytes,
            stderr,
            json,
            report,
        }
    }

    /// The full report of this run (command, cwd, env, status, output, listing).
    pub fn report(&self) -> String {
        self.report.render()
    }

    /// Fail the test with `what` and this run's report.
    #[track_caller]
    pub fn fail(&self, what: &str) -> ! {
        fail_with(what, &self.report())
    }

    /// Check `cond`, else fail with `what` and the report.
    #[track_caller]
    pub fn check(&self, cond: bool, what: impl std::fmt::Display) -> &Out {
        if !cond {
            self.fail(&what.to_string());
        }
        self
    }

    /// Exit `code`, whatever the output.
    #[track_caller]
    pub fn exit(&self, code: i32) -> &Out {
        if self.code != code {
            self.fail(&format!("expected exit {code}, got {}", self.code));
        }
        self
    }

    /// Exit 0, and for a JSON run exactly one object with `ok: true`.
    #[track_caller]
    pub fn ok(&self) -> &Out {
        self.exit(0);
        if self.report.info.expect_json {
            self.assert_envelope(true);
        }
        self
    }

    /// Exit 1 with `ok: true`: grep or glob found nothing.
    #[track_caller]
    pub fn found_nothing(&self) -> &Out {
        self.exit(1);
        self.assert_envelope(true);
        self
    }

    /// A failure of `kind` with exit `code`: `ok: false`, `error.kind`, a message and a hint.
    #[track_caller]
    pub fn err(&self, kind: &str, code: i32) -> &Out {
        if self.code != code {
            self.fail(&format!("expected exit {code} ({kind}), got {}", self.code));
        }
        self.assert_envelope(false);
        let f = self.failure();
        if f.error.kind != kind {
            self.fail(&format!(
                "expected error kind {kind:?}, got {:?}",
                f.error.kind
            ));
        }
        self
    }

    /// Abandoned on a signal: the `interrupted` answer was printed, then quill died by that
    /// signal (docs/json.md), so that a shell loop stops.
    #[track_caller]
    pub fn interrupted_by(&self, signal: i32) -> &Out {
        if self.signal != Some(signal) {
            self.fail(&format!(
                "expected death by signal {signal} after the answer, got exit {} / signal {:?}",
                self.code, self.signal
            ));
        }
        self.assert_envelope(false);
        let f = self.failure();
        if f.error.kind != "interrupted" {
            self.fail(&format!(
                "expected error kind \"interrupted\", got {:?}",
                f.error.kind
            ));
        }
        self
    }

    #[track_caller]
    fn assert_envelope(&self, ok: bool) {
        if let Err(e) = check_one_json_object(&self.stdout) {
            self.fail(&e);
        }
        let env: Envelope = self.typed("the JSON envelope");
        if env.ok != ok {
            self.fail(&format!("expected \"ok\": {ok}"));
        }
    }

    /// The JSON answer as `T`: a missing or mistyped field fails the test.
    #[track_caller]
    pub fn typed<T: DeserializeOwned>(&self, what: &str) -> T {
        if self.json.is_null() {
            self.fail(&format!("{what}: stdout is not a JSON object"));
        }
        serde_json::from_value(self.json.clone()).unwrap_or_else(|e| {
            self.fail(&format!(
                "{what}: the JSON answer lacks what the test needs: {e}"
            ))
        })
    }

    #[track_caller]
    fn typed_op<T: DeserializeOwned>(&self, ops: &[&str]) -> T {
        let env: Envelope = self.typed("the JSON envelope");
        if !env.op.as_deref().is_some_and(|op| ops.contains(&op)) {
            self.fail(&format!("expected op {ops:?}, got {:?}", env.op));
        }
        self.typed(&format!("a {} answer", ops[0]))
    }

    /// A successful `read` answer.
    #[track_caller]
    pub fn read(&self) -> ReadAnswer {
        self.typed_op(&["read"])
    }

    /// A successful `read` of a directory.
    #[track_caller]
    pub fn listing(&self) -> Listing {
        self.typed_op(&["read"])
    }

    /// A successful `write`, `edit` or `undo` answer.
    #[track_caller]
    pub fn mutation(&self) -> Mutation {
        self.typed_op(&["write", "edit", "undo", "rm"])
    }

    #[track_caller]
    pub fn glob(&self) -> Glob {
        self.typed_op(&["glob"])
    }

    #[track_caller]
    pub fn grep(&self) -> Grep {
        self.typed_op(&["grep"])
    }

    #[track_caller]
    pub fn type_list(&self) -> TypeList {
        self.typed_op(&["grep"])
    }

    #[track_caller]
    pub fn transfer(&self) -> Transfer {
        self.typed_op(&["transfer"])
    }

    #[track_caller]
    pub fn state(&self) -> StateAnswer {
        let st = self.typed_op(&["state"]);
        // `files` is glob's and grep's list of paths; the sentence is for text output.
        for key in ["files", "message"] {
            if self.json.get(key).is_some() {
                self.fail(&format!("a state answer has no `{key}`"));
            }
        }
        st
    }

    /// A failure answer (`ok: false` and its `error`).
    #[track_caller]
    pub fn failure(&self) -> Failure {
        self.typed("an error answer")
    }

    /// stdout is exactly `expected`; else a line diff and the report.
    #[track_caller]
    pub fn assert_stdout(&self, expected: &str) -> &Out {
        if self.stdout != expected {
            self.fail(&format!(
                "stdout is not what was expected:\n{}",
                text_diff(expected, &self.stdout)
            ));
        }
        self
    }

    /// stderr is exactly `expected`.
    #[track_caller]
    pub fn assert_stderr(&self, expected: &str) -> &Out {
        if self.stderr != expected {
            self.fail(&format!(
                "stderr is not what was expected:\n{}",
                text_diff(expected, &self.stderr)
            ));
        }
        self
    }

    #[track_caller]
    pub fn stdout_has(&self, needle: &str) -> &Out {
        self.check(
            self.stdout.contains(needle),
            format!("stdout lacks {needle:?}"),
        )
    }

    #[track_caller]
    pub fn stderr_has(&self, needle: &str) -> &Out {
        self.check(
            self.stderr.contains(needle),
            format!("stderr lacks {needle:?}"),
        )
    }

    /// A field of the JSON answer, untyped.
    pub fn j(&self, key: &str) -> &Value {
        &self.json[key]
    }
}

// ---------------------------------------------------------------------------------------
// Failing loudly

thread_local! {
    /// The last finished run of this thread, for the panic hook.
    static LAST_RUN: RefCell<Option<Arc<Report>>> = const { RefCell::new(None) };
    /// The base dir of this thread's latest TestEnv, listed when no run is known.
    static CURRENT_BASE: RefCell<Option<PathBuf>> = const { RefCell::new(None) };
}

/// After the default hook's message, print the report of the thread's last run (unless the
/// message carries a report already): a plain `assert_eq!` fails with its context too.
fn install_panic_hook() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let default = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            default(info);
            let payload = info
                .payload()
                .downcast_ref::<String>()
                .map(String::as_str)
                .or_else(|| info.payload().downcast_ref::<&str>().copied())
                .unwrap_or("");
            if payload.contains(REPORT_MARK) {
                return;
            }
            let last = LAST_RUN.try_with(|l| l.borrow().clone()).ok().flatten();
            if let Some(r) = last {
                eprintln!("the last quill run of this test:{}", r.render());
            } else if let Some(base) = CURRENT_BASE.try_with(|b| b.borrow().clone()).ok().flatten()
            {
                eprintln!("no quill run yet in this test\n{}", dir_listing(&base));
            }
        }));
    });
}

#[track_caller]
fn fail_with(what: &str, report: &str) -> ! {
    panic!("{what}\n{report}")
}

/// Fail with the report of this thread's last run (or the test dir's listing).
#[track_caller]
pub fn fail(what: &str) -> ! {
    let last = LAST_RUN.with(|l| l.borrow().clone());
    match last {
        Some(r) => fail_with(what, &format!("the last run:{}", r.render())),
        None => {
            let base = CURRENT_BASE.with(|b| b.borrow().clone());
            let listing = base.map(|b| dir_listing(&b)).unwrap_or_default();
            fail_with(what, &format!("\n{REPORT_MARK}\n(no run yet)\n{listing}"))
        }
    }
}

/// `actual` equals `expected`; else a line diff and the last run's report.
#[track_caller]
pub fn assert_text(what: &str, actual: &str, expected: &str) {
    if actual != expected {
        fail(&format!(
            "{what} is not what was expected:\n{}",
            text_diff(expected, actual)
        ));
    }
}

/// Bytes compared as text when they are (a line diff), else by length and first difference.
#[track_caller]
pub fn assert_bytes(what: &str, actual: &[u8], expected: &[u8]) {
    if actual == expected {
        return;
    }
    let first = actual
        .iter()
        .zip(expected)
        .position(|(a, b)| a != b)
        .unwrap_or(actual.len().min(expected.len()));
    let detail = match (std::str::from_utf8(expected), std::str::from_utf8(actual)) {
        (Ok(e), Ok(a)) => text_diff(e, a),
        _ => format!(
            "(not UTF-8; shown lossily)\n{}",
            text_diff(
                &String::from_utf8_lossy(expected),
                &String::from_utf8_lossy(actual)
            )
        ),
    };
    fail(&format!(
        "{what} differs: {} bytes, expected {}; first difference at byte {first}\n{detail}",
        actual.len(),
        expected.len()
    ));
}

/// A line diff of `expected` (-) against `actual` (+), control characters escaped, a missing
/// final newline marked.
pub fn text_diff(expected: &str, actual: &str) -> String {
    const MAX_LINES: usize = 400;
    let diff = similar::TextDiff::from_lines(expected, actual);
    let mut s = String::from("--- expected\n+++ actual\n");
    for (n, change) in diff.iter_all_changes().enumerate() {
        if n == MAX_LINES {
            s.push_str("… (diff cut)\n");
            break;
        }
        let sign = match change.tag() {
            similar::ChangeTag::Delete => '-',
            similar::ChangeTag::Insert => '+',
            similar::ChangeTag::Equal => ' ',
        };
        let line = change.value();
        let (body, newline) = match line.strip_suffix('\n') {
            Some(b) => (b, true),
            None => (line, false),
        };
        let _ = write!(s, "{sign}{}", escape_controls(body));
        s.push_str(if newline {
            "\n"
        } else {
            "⏎ (no newline at end)\n"
        });
    }
    s
}

fn escape_controls(s: &str) -> String {
    s.chars()
        .map(|c| {
            if c.is_control() {
                c.escape_default().to_string()
            } else {
                c.to_string()
            }
        })
        .collect()
}

/// Output for a report: indented, cut in the middle past 16 KiB.
fn block(text: &str) -> String {
    const KEEP: usize = 8 * 1024;
    if text.is_empty() {
        return " (empty)".to_string();
    }
    let cut;
    let shown = if text.len() > 2 * KEEP {
        let mut a = KEEP;
        while !text.is_char_boundary(a) {
            a -= 1;
        }
        let mut b = text.len() - KEEP;
        while !text.is_char_boundary(b) {
            b += 1;
        }
        cut = format!("{}\n… ({} bytes cut) …\n{}", &text[..a], b - a, &text[b..]);
        &cut
    } else {
        text
    };
    let mut s = String::from("\n");
    for line in shown.lines() {
        s.push_str("  | ");
        s.push_str(&escape_controls(line));
        s.push('\n');
    }
    if !text.ends_with('\n') {
        s.push_str("  (no newline at end)\n");
    }
    s.pop();
    s
}

fn describe_status(status: ExitStatus) -> String {
    match (status.code(), status.signal()) {
        (Some(c), _) => format!("exit {c}"),
        (None, Some(sig)) => format!("killed by signal {sig}"),
        _ => format!("{status:?}"),
    }
}

/// A recursive listing of `base` with kinds and sizes, like ripgrep's test `dir_list`.
pub fn dir_listing(base: &Path) -> String {
    const MAX: usize = 300;
    let mut lines = Vec::new();
    let mut more = 0usize;
    fn walk(dir: &Path, base: &Path, lines: &mut Vec<String>, more: &mut usize) {
        let mut entries: Vec<_> = match fs::read_dir(dir) {
            Ok(rd) => rd.filter_map(|e| e.ok()).collect(),
            Err(e) => {
                lines.push(format!("  (cannot list {}: {e})", dir.display()));
                return;
            }
        };
        entries.sort_by_key(|e| e.file_name());
        for e in entries {
            let p = e.path();
            let rel = p.strip_prefix(base).unwrap_or(&p).display().to_string();
            let Ok(m) = fs::symlink_metadata(&p) else {
                continue;
            };
            if lines.len() >= MAX {
                *more += 1;
                if m.is_dir() {
                    walk(&p, base, lines, more);
                }
                continue;
            }
            let mode = m.permissions().mode() & 0o7777;
            let t = m.file_type();
            if t.is_dir() {
                lines.push(format!("  d {mode:04o} {:>10}  {rel}/", ""));
                walk(&p, base, lines, more);
            } else if t.is_symlink() {
                let to = fs::read_link(&p).map(|t| t.display().to_string());
                lines.push(format!(
                    "  l {mode:04o} {:>10}  {rel} -> {}",
                    "",
                    to.unwrap_or_else(|e| format!("({e})"))
                ));
            } else {
                let kind = if t.is_fifo() {
                    'p'
                } else if t.is_file() {
                    'f'
                } else {
                    '?'
                };
                lines.push(format!("  {kind} {mode:04o} {:>10}  {rel}", m.len()));
            }
        }
    }
    walk(base, base, &mut lines, &mut more);
    let mut s = format!("test dir {} ({} entries):\n", base.display(), lines.len());
    if lines.is_empty() {
        s.push_str("  (empty or gone)\n");
    }
    for l in lines {
        s.push_str(&l);
        s.push('\n');
    }
    if more > 0 {
        let _ = writeln!(s, "  … and {more} more");
    }
    s
}

fn shell_word(w: &OsStr) -> String {
    let s = w.to_string_lossy();
    if !s.is_empty()
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_./=:,+@%".contains(c))
    {
        s.into_owned()
    } else {
        format!("'{}'", escape_controls(&s).replace('\'', r"'\''"))
    }
}

// ---------------------------------------------------------------------------------------
// Tools the ignored tests need

/// Whether `tool` runs (a name on PATH or an absolute path).
pub fn have(tool: &str) -> bool {
    if tool.starts_with('/') {
        return Path::new(tool).is_file();
    }
    Command::new("sh")
        .args(["-c", &format!("command -v {tool}")])
        .stdout(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

/// For an `#[ignore = "needs …"]` test: fail loudly when `tool` is missing (never skip).
#[track_caller]
pub fn require(tool: &str, package: &str) {
    if !have(tool) {
        panic!(
            "this test needs `{tool}` (Debian package {package}) and it is not installed; \
             `.ci/run` installs what the ignored tests need"
        );
    }
}

/// Whether this process runs as root.
pub fn is_root() -> bool {
    // SAFETY: geteuid has no preconditions.
    unsafe { libc::geteuid() == 0 }
}

#[track_caller]
pub fn require_root(why: &str) {
    if !is_root() {
        panic!("this test must run as root ({why}); CI runs it as root");
    }
}

/// strace must be installed and allowed to trace here.
#[track_caller]
pub fn require_strace() {
    require("strace", "strace");
    let traced = Command::new("strace")
        .args(["-f", "-o", "/dev/null", "true"])
        .stderr(Stdio::piped())
        .output()
        .unwrap();
    assert!(
        traced.status.success(),
        "strace is installed but cannot trace here (ptrace forbidden?): {}",
        String::from_utf8_lossy(&traced.stderr)
    );
}

// ---------------------------------------------------------------------------------------
// Small helpers

pub fn check_one_json_object(stdout: &str) -> Result<(), String> {
    if !stdout.ends_with('\n') {
        return Err("the JSON answer must end with a newline".into());
    }
    let mut it = serde_json::Deserializer::from_str(stdout).into_iter::<Value>();
    if !matches!(it.next(), Some(Ok(Value::Object(_)))) {
        return Err("stdout is not one JSON object".into());
    }
    if it.next().is_some() {
        return Err("stdout holds more than one JSON value".into());
    }
    Ok(())
}

#[track_caller]
pub fn assert_one_json_object(stdout: &str) {
    if let Err(e) = check_one_json_object(stdout) {
        fail(&format!("{e}: {stdout:?}"));
    }
    // An answer a test read from a file (a shell loop's `> out.json`) is checked like one
    // read from a pipe.
    if let Ok(answer) = serde_json::from_str::<Value>(stdout)
        && let Err(e) = crate::schema::validate_answer(&answer)
    {
        fail(&format!("{e}\n{stdout}"));
    }
}

pub fn sha256_hex(bytes: &[u8]) -> String {
    use sha2::{Digest, Sha256};
    let d = Sha256::digest(bytes);
    d.iter().map(|b| format!("{b:02x}")).collect()
}

pub fn exists(p: &Path) -> bool {
    fs::symlink_metadata(p).is_ok()
}

/// Names in `dir` that look like quill temporary files (`.<name>.quill-<random>.tmp`).
pub fn quill_temps(dir: &Path) -> Vec<String> {
    fs::read_dir(dir)
        .unwrap()
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.contains(".quill-") && n.ends_with(".tmp"))
        .collect()
}

/// `text` as UTF-16 LE with its BOM.
pub fn utf16le(text: &str) -> Vec<u8> {
    let mut v = vec![0xFF, 0xFE];
    for unit in text.encode_utf16() {
        v.extend_from_slice(&unit.to_le_bytes());
    }
    v
}

/// Take the flock on `lock` (created if missing) in this process, as quill's lock
/// (`std::fs::File::try_lock`, flock(2)) would; released when the file is dropped.
pub fn hold_lock(lock: &Path) -> fs::File {
    fs::create_dir_all(lock.parent().unwrap()).unwrap();
    let f = fs::OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .open(lock)
        .unwrap();
    f.try_lock()
        .unwrap_or_else(|e| fail(&format!("cannot take {}: {e}", lock.display())));
    f
}

/// Whether someone (another open file) holds the flock on `lock`.
pub fn lock_is_held(lock: &Path) -> bool {
    match fs::File::open(lock) {
        Ok(f) => match f.try_lock() {
            Ok(()) => false, // released when f is closed
            Err(fs::TryLockError::WouldBlock) => true,
            Err(fs::TryLockError::Error(e)) => fail(&format!("try_lock {}: {e}", lock.display())),
        },
        Err(_) => false,
    }
}

/// Poll `cond` every 5 ms for at most `limit`; whether it became true.
pub fn wait_until(limit: Duration, mut cond: impl FnMut() -> bool) -> bool {
    let start = Instant::now();
    loop {
        if cond() {
            return true;
        }
        if start.elapsed() > limit {
            return false;
        }
        thread::sleep(Duration::from_millis(5));
    }
}

// ---------------------------------------------------------------------------------------
// Hints: the call an answer suggests, run exactly as suggested

/// The first command quoted in backticks in `hint` (what an agent would paste).
#[track_caller]
pub fn suggested_call(hint: &str) -> String {
    let mut parts = hint.split('`');
    parts.next();
    match parts.next() {
        Some(call) if parts.next().is_some() => call.to_string(),
        _ => fail(&format!("the hint suggests no `call`: {hint:?}")),
    }
}

impl TestEnv {
    /// Run `command` with `sh -c` in the work dir, `quill` on PATH being the binary under test
    /// (a call exactly as a hint suggests it, pipes included).
    pub fn shell(&self, command: &str) -> Out {
        let bin_dir = Path::new(BIN).parent().unwrap().to_path_buf();
        let mut path = bin_dir.into_os_string();
        path.push(":");
        path.push(std::env::var_os("PATH").unwrap_or_default());
        self.program("sh")
            .args(["-c", command])
            .env("PATH", path)
            .run()
    }
}

/// What a terminal does on Ctrl-C: SIGINT to the whole foreground job (`pgid`: a shell loop and
/// the quill it runs), then wait for `child` — at most 10 s, after which the group is killed
/// and the test fails.
pub fn ctrl_c_the_group(child: &mut Child, pgid: i32) -> ExitStatus {
    // SAFETY: kill(2) of a process group this test started.
    unsafe { libc::kill(-pgid, libc::SIGINT) };
    let start = Instant::now();
    loop {
        if let Some(s) = child.try_wait().unwrap() {
            return s;
        }
        if start.elapsed() > Duration::from_secs(10) {
            // SAFETY: as above.
            unsafe { libc::kill(-pgid, libc::SIGKILL) };
            let _ = child.wait();
            panic!("the loop did not stop after Ctrl-C");
        }
        thread::sleep(Duration::from_millis(20));
    }
}
