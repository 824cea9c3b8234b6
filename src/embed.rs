//! quill inside a Rust program (docs/embed.md): `run` takes one command line — the words
//! after `quill`, as a shell would pass them — runs it in this process, and returns its
//! answer: the JSON object `quill --json` prints (docs/json.md) and the exit code the binary
//! would end with. The answer is held whole, as `quill mcp` holds each tool call's: nothing is
//! printed, no signal handler is installed, the process is not ended, and a command that
//! reads standard input gets `Options::stdin`. Errors are answers too
//! (`"ok": false`, with their `kind`), never panics or `Err`. A typed API — requests and
//! reports as Rust types — may follow; until then the JSON, and its schemas under `schema/`,
//! are the contract.

use std::ffi::OsString;
use std::path::PathBuf;

use crate::settings::Origin;

/// Where a command runs, besides its words.
#[derive(Debug, Clone, Default)]
pub struct Options {
    /// The directory relative paths start from; `None`: the process's current directory.
    pub cwd: Option<PathBuf>,
    /// What the command reads as standard input (`write --stdin`, `edit --edits -`, …).
    pub stdin: Vec<u8>,
}

/// One command's answer.
#[derive(Debug, Clone)]
pub struct Answer {
    /// The object `quill --json …` prints: `{"ok": true, "op": …, …}`, or `{"ok": false,
    /// "op": …, "error": {"kind", "message", "hint", …}}`; `warnings` in both.
    pub json: serde_json::Value,
    /// The exit code the binary would end with (docs/json.md#exit-codes).
    pub code: u8,
}

/// Run one command line, given as the words after `quill` (`["read", "src/main.rs"]`), to
/// its answer. Global options go among the words as on a command line (`--session`,
/// `--state-dir`, `--root`); the environment's `QUILL_*` variables apply as they do to the
/// binary. Help, version and the commands that are a loop of their own (`call`, `mcp`) are
/// not answers: they are refused as usage errors.
pub fn run<I, S>(args: I, options: &Options) -> Answer
where
    I: IntoIterator<Item = S>,
    S: Into<OsString>,
{
    let argv: Vec<OsString> = std::iter::once(OsString::from("quill"))
        .chain(args.into_iter().map(Into::into))
        .collect();
    let origin = Origin {
        argv: argv.clone(),
        stdin: Some(options.stdin.clone()),
        embedded: true,
        progress: None,
        cwd: options.cwd.clone(),
    };
    let (captured, code) = crate::app::run_held(argv, origin);
    // The object `output` encoded: it always parses.
    let json = serde_json::from_slice(&captured.json).unwrap_or(serde_json::Value::Null);
    Answer { json, code }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run_in(dir: &std::path::Path, args: &[&str]) -> Answer {
        let state = dir.join(".state");
        let mut words = vec!["--state-dir", state.to_str().unwrap()];
        words.extend_from_slice(args);
        let options = Options {
            cwd: Some(dir.to_path_buf()),
            ..Options::default()
        };
        run(words, &options)
    }

    #[test]
    fn reads_then_edits_in_process() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("a.txt"), "one\ntwo\n").unwrap();
        let read = run_in(dir.path(), &["read", "a.txt"]);
        assert_eq!(read.code, 0, "{}", read.json);
        assert_eq!(read.json["ok"], true);
        assert_eq!(read.json["op"], "read");
        let edit = run_in(dir.path(), &["edit", "a.txt", "--old", "two", "--new", "2"]);
        assert_eq!(edit.code, 0, "{}", edit.json);
        assert_eq!(edit.json["op"], "edit");
        let bytes = std::fs::read_to_string(dir.path().join("a.txt")).unwrap();
        assert_eq!(bytes, "one\n2\n");
        // A change in-process leaves the program's signals alone.
        assert!(!crate::signals::installed());
    }

    #[test]
    fn errors_and_usage_are_answers() {
        let dir = tempfile::tempdir().unwrap();
        let missing = run_in(dir.path(), &["read", "nope.txt"]);
        assert_eq!(missing.json["ok"], false);
        assert_eq!(missing.json["error"]["kind"], "not_found");
        assert_ne!(missing.code, 0);
        let help = run_in(dir.path(), &["--help"]);
        assert_eq!(help.json["ok"], false);
        assert_eq!(help.code, 2);
    }

    #[test]
    fn writes_what_stdin_holds() {
        let dir = tempfile::tempdir().unwrap();
        let state = dir.path().join(".state");
        let options = Options {
            cwd: Some(dir.path().to_path_buf()),
            stdin: b"hello\n".to_vec(),
        };
        let args = [
            "--state-dir",
            state.to_str().unwrap(),
            "write",
            "new.txt",
            "--stdin",
        ];
        let answer = run(args, &options);
        assert_eq!(answer.code, 0, "{}", answer.json);
        let bytes = std::fs::read(dir.path().join("new.txt")).unwrap();
        assert_eq!(bytes, b"hello\n");
    }

    #[test]
    fn grep_searches_what_stdin_holds() {
        let dir = tempfile::tempdir().unwrap();
        let options = Options {
            cwd: Some(dir.path().to_path_buf()),
            stdin: b"one\na needle here\n".to_vec(),
        };
        let answer = run(["grep", "needle", "-"], &options);
        assert_eq!(answer.code, 0, "{}", answer.json);
        let text = answer.json.to_string();
        assert!(text.contains("a needle here"), "{text}");
    }
}
