//! The test harness: `TestEnv` gives every test a fresh temporary work directory with a
//! private state directory, and runs the real `quill` binary there with a cleared environment.
//! `Out` holds the exit code, stdout, stderr and (for --json runs) the parsed object, and
//! asserts on them with messages that show the whole run.

#![allow(dead_code)] // shared by every test module; not all use every helper

use std::ffi::OsStr;
use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use serde_json::Value;

pub const BIN: &str = env!("CARGO_BIN_EXE_quill");

pub struct TestEnv {
    _tmp: tempfile::TempDir,
    /// The working directory of every run.
    pub dir: PathBuf,
    pub state: PathBuf,
}

impl TestEnv {
    pub fn new() -> TestEnv {
        let tmp = tempfile::Builder::new()
            .prefix("quill-it-")
            .tempdir()
            .unwrap();
        let base = fs::canonicalize(tmp.path()).unwrap();
        let dir = base.join("work");
        let state = base.join("state");
        fs::create_dir(&dir).unwrap();
        TestEnv {
            _tmp: tmp,
            dir,
            state,
        }
    }

    pub fn path(&self, rel: &str) -> PathBuf {
        self.dir.join(rel)
    }

    pub fn write(&self, rel: &str, bytes: impl AsRef<[u8]>) -> PathBuf {
        let p = self.path(rel);
        if let Some(parent) = p.parent() {
            fs::create_dir_all(parent).unwrap();
        }
        fs::write(&p, bytes).unwrap();
        p
    }

    pub fn read(&self, rel: &str) -> Vec<u8> {
        fs::read(self.path(rel)).unwrap()
    }

    /// The one session file in the state dir (after a command recorded something), with the
    /// given extension: `json` for the state, `lock` for its lock.
    pub fn session_file(&self, ext: &str) -> PathBuf {
        fs::read_dir(self.state.join("sessions"))
            .unwrap()
            .map(|e| e.unwrap().path())
            .find(|p| p.extension().is_some_and(|e| e == ext))
            .unwrap_or_else(|| panic!("no .{ext} file in {}", self.state.display()))
    }

    /// A `quill` command in the work dir with a cleared environment and the private state dir.
    pub fn command<I, S>(&self, args: I) -> Command
    where
        I: IntoIterator<Item = S>,
        S: AsRef<OsStr>,
    {
        let mut c = Command::new(BIN);
        c.env_clear()
            .env("PATH", std::env::var_os("PATH").unwrap_or_default())
            .env("HOME", self.dir.parent().unwrap())
            .env("QUILL_STATE_DIR", &self.state)
            .current_dir(&self.dir)
            .args(args)
            .stdin(Stdio::null());
        c
    }

    /// Run with `--json` and parse the one object on stdout.
    pub fn json(&self, args: &[&str]) -> Out {
        let mut c = self.command(["--json"]);
        c.args(args);
        run(c, None)
    }

    /// Run with `--json`, feeding `stdin`.
    pub fn json_stdin(&self, args: &[&str], stdin: &[u8]) -> Out {
        let mut c = self.command(["--json"]);
        c.args(args);
        run(c, Some(stdin))
    }

    /// Run in text mode.
    pub fn text(&self, args: &[&str]) -> Out {
        run(self.command(args), None)
    }
}

pub fn run(mut c: Command, stdin: Option<&[u8]>) -> Out {
    c.stdout(Stdio::piped()).stderr(Stdio::piped());
    if stdin.is_some() {
        c.stdin(Stdio::piped());
    }
    let described = format!("{c:?}");
    let mut child = c.spawn().expect("spawn quill");
    if let Some(input) = stdin {
        let mut w = child.stdin.take().unwrap();
        w.write_all(input).unwrap();
    }
    let o = child.wait_with_output().unwrap();
    let stdout = String::from_utf8_lossy(&o.stdout).into_owned();
    let json = serde_json::from_str(stdout.trim_end()).unwrap_or(Value::Null);
    Out {
        code: o.status.code().unwrap_or(-1),
        stdout,
        stderr: String::from_utf8_lossy(&o.stderr).into_owned(),
        json,
        described,
    }
}

pub struct Out {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
    pub json: Value,
    pub described: String,
}

impl Out {
    fn context(&self) -> String {
        format!(
            "\ncommand: {}\nexit: {}\nstdout: {}\nstderr: {}",
            self.described, self.code, self.stdout, self.stderr
        )
    }

    /// Exit 0 with `ok: true` (JSON runs) — returns self for chaining.
    #[track_caller]
    pub fn ok(&self) -> &Out {
        assert_eq!(self.code, 0, "expected success{}", self.context());
        if !self.json.is_null() {
            assert_eq!(self.json["ok"], true, "{}", self.context());
            assert_one_json_object(&self.stdout);
        }
        self
    }

    /// A failure of `kind` with `code`.
    #[track_caller]
    pub fn err(&self, kind: &str, code: i32) -> &Out {
        assert_eq!(
            self.code,
            code,
            "expected exit {code} ({kind}){}",
            self.context()
        );
        assert_eq!(self.json["ok"], false, "{}", self.context());
        assert_eq!(self.json["error"]["kind"], kind, "{}", self.context());
        assert!(
            self.json["error"]["message"].is_string(),
            "{}",
            self.context()
        );
        assert!(
            self.json["error"].get("hint").is_some(),
            "{}",
            self.context()
        );
        assert_one_json_object(&self.stdout);
        self
    }

    pub fn j(&self, key: &str) -> &Value {
        &self.json[key]
    }
}

#[track_caller]
pub fn assert_one_json_object(stdout: &str) {
    assert!(
        stdout.ends_with('\n'),
        "JSON must end with a newline: {stdout:?}"
    );
    let mut it = serde_json::Deserializer::from_str(stdout).into_iter::<Value>();
    assert!(
        matches!(it.next(), Some(Ok(Value::Object(_)))),
        "not one object: {stdout:?}"
    );
    assert!(it.next().is_none(), "more than one JSON value: {stdout:?}");
}

/// Whether a tool is on PATH (for tests that need one; they print why they skip).
pub fn have(tool: &str) -> bool {
    Command::new("sh")
        .args(["-c", &format!("command -v {tool}")])
        .stdout(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
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
