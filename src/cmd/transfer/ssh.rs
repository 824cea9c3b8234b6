//! The connection to another machine: `--rsh`'s command (default `ssh`, its options and config
//! the user's) runs the far quill, `--remote-quill … --session S transfer --serve 1 - -`, with
//! its stdin and stdout as the protocol's pipes. ssh gets `-oBatchMode=yes` unless a terminal is
//! there to answer a prompt, so a password or host-key question fails at once instead of
//! hanging. Its stderr is collected (the last few KiB) and quoted in the errors that explain a
//! failure before the handshake: ssh's own exit status 255 is `connection_failed`, the shell's
//! 127 `remote_quill_missing`, a usage error about `--serve` or another protocol in the hello
//! `remote_version`. Every wait here also watches for Ctrl-C (and an MCP cancel), and dropping
//! the link kills ssh, which ends the far side's input: the far side then publishes nothing.

use std::io::{self, BufReader, BufWriter, IsTerminal, Read};
use std::process::{Child, ChildStdin, ChildStdout, Command, ExitStatus, Stdio};
use std::sync::mpsc::{RecvTimeoutError, channel};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use super::endpoint::split_words;
use super::wire::{self, Hello};
use crate::error::{Error, Result};
use crate::signals;
use crate::text::shell::shell_word;

/// How much of ssh's stderr is kept for an error message.
const STDERR_KEPT: usize = 4096;
/// How long a finished or abandoned ssh is given to exit before it is killed.
const EXIT_GRACE: Duration = Duration::from_secs(10);
/// How often a wait looks for Ctrl-C.
const TICK: Duration = Duration::from_millis(100);

/// What it takes to reach the far side.
pub(super) struct Dial<'a> {
    pub rsh: &'a str,
    pub remote_quill: &'a str,
    pub host: &'a str,
    pub session: &'a str,
}

/// A running ssh with the far quill's answer to the handshake.
pub(super) struct Link {
    child: Child,
    pub host: String,
    pub version: String,
    input: Option<BufWriter<ChildStdin>>,
    pub output: Option<BufReader<ChildStdout>>,
    stderr: Arc<Mutex<Vec<u8>>>,
    stderr_reader: Option<JoinHandle<()>>,
    /// The words of `--rsh`, for the check command of `commit_unknown`.
    pub rsh: Vec<String>,
}

/// The command line that reaches `d.host`.
pub(super) fn command_line(d: &Dial<'_>, interactive: bool) -> Result<Vec<String>> {
    let mut words = split_words(d.rsh)
        .map_err(|e| Error::invalid_argument(format!("--rsh {:?}: {e}", d.rsh)))?;
    let program = std::path::Path::new(&words[0])
        .file_stem()
        .is_some_and(|n| n == "ssh");
    if program && !interactive {
        words.push("-oBatchMode=yes".into());
    }
    if program {
        // A link that dies without a word (a laptop's lid, a dropped route) ends within a
        // minute instead of holding the transfer forever. The user's own `-o`s come first
        // and win.
        words.push("-oServerAliveInterval=15".into());
        words.push("-oServerAliveCountMax=4".into());
    }
    words.push(d.host.to_string());
    words.push(format!(
        "{} --session {} transfer --serve {} - -",
        d.remote_quill,
        shell_word(d.session),
        wire::PROTOCOL
    ));
    Ok(words)
}

/// Start ssh and read the far side's hello.
pub(super) fn connect(d: &Dial<'_>) -> Result<Link> {
    let interactive = io::stdin().is_terminal() && io::stderr().is_terminal();
    let words = command_line(d, interactive)?;
    let mut child = Command::new(&words[0])
        .args(&words[1..])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| spawn_failed(d, &words[0], e))?;
    let stderr = Arc::new(Mutex::new(Vec::new()));
    let stderr_reader = child.stderr.take().map(|pipe| {
        let kept = Arc::clone(&stderr);
        std::thread::spawn(move || collect(pipe, &kept))
    });
    let (Some(input), Some(output)) = (child.stdin.take(), child.stdout.take()) else {
        let _ = child.kill();
        return Err(Error::io(
            "start",
            std::path::Path::new(&words[0]),
            io::Error::other("no pipes"),
        ));
    };
    // The user's own words, for the commands a hint names (run at a terminal: no BatchMode).
    let rsh_words = split_words(d.rsh).unwrap_or_default();
    let mut link = Link {
        child,
        host: d.host.to_string(),
        version: String::new(),
        input: Some(BufWriter::with_capacity(super::stream::BUF + 64, input)),
        output: None,
        stderr,
        stderr_reader,
        rsh: rsh_words,
    };
    let (hello, output) = link.hello(output)?;
    match hello {
        Some(h) if h.protocol == wire::PROTOCOL => {
            link.version = h.version;
            link.output = Some(output);
            Ok(link)
        }
        Some(h) => Err(link.wrong_version(Some(h))),
        None => Err(link.before_hello(d)),
    }
}

/// Keep the last `STDERR_KEPT` bytes of `pipe`.
fn collect(mut pipe: impl Read, kept: &Mutex<Vec<u8>>) {
    let mut buf = [0u8; 4096];
    while let Ok(n) = pipe.read(&mut buf) {
        if n == 0 {
            break;
        }
        if let Ok(mut k) = kept.lock() {
            k.extend_from_slice(&buf[..n]);
            let over = k.len().saturating_sub(STDERR_KEPT);
            k.drain(..over);
        }
    }
}

fn spawn_failed(d: &Dial<'_>, program: &str, e: io::Error) -> Error {
    Error::ConnectionFailed {
        message: format!("cannot run {program} to reach {}: {e}", d.host),
        fix: format!(
            "install OpenSSH's client, or name the command that reaches {} with --rsh (or QUILL_RSH)",
            d.host
        ),
        host: d.host.to_string(),
        status: None,
        ssh_message: e.to_string(),
    }
}

impl Link {
    /// Read the hello on a helper thread, so that Ctrl-C (or a cancel) is noticed while ssh
    /// connects; the reader comes back with it.
    fn hello(&mut self, output: ChildStdout) -> Result<(Option<Hello>, BufReader<ChildStdout>)> {
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            let mut reader = BufReader::with_capacity(super::stream::BUF + 64, output);
            let hello = wire::read_hello(&mut reader).map(|(h, _)| h);
            let _ = tx.send((hello, reader));
        });
        loop {
            if let Err(e) = signals::check() {
                self.kill();
                return Err(e);
            }
            match rx.recv_timeout(TICK) {
                Ok((hello, reader)) => return Ok((hello.unwrap_or(None), reader)),
                Err(RecvTimeoutError::Timeout) => {}
                Err(RecvTimeoutError::Disconnected) => {
                    return Err(Error::io(
                        "read",
                        std::path::Path::new("ssh"),
                        io::Error::other("reader lost"),
                    ));
                }
            }
        }
    }

    /// What ssh (and the far shell) said on stderr so far, trimmed.
    pub(super) fn said(&self) -> String {
        let kept = self.stderr.lock().map(|k| k.clone()).unwrap_or_default();
        String::from_utf8_lossy(&kept).trim().to_string()
    }

    /// Wait for ssh to exit (killing it after the grace period) and for its stderr to end.
    pub(super) fn wait(&mut self) -> Option<ExitStatus> {
        let started = Instant::now();
        let status = loop {
            match self.child.try_wait() {
                Ok(Some(status)) => break Some(status),
                Ok(None) if started.elapsed() < EXIT_GRACE && signals::check().is_ok() => {
                    std::thread::sleep(Duration::from_millis(10));
                }
                Ok(None) => {
                    self.kill();
                    break None;
                }
                Err(_) => break None,
            }
        };
        if let Some(reader) = self.stderr_reader.take() {
            let _ = reader.join();
        }
        status
    }

    /// Kill ssh now (the far side's input ends: it publishes nothing it has not committed).
    pub(super) fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }

    /// The far side's input (closed: a broken pipe).
    pub(super) fn input(&mut self) -> io::Result<&mut BufWriter<ChildStdin>> {
        self.input
            .as_mut()
            .ok_or_else(|| io::ErrorKind::BrokenPipe.into())
    }

    /// Close the far side's input and wait for the connection to end.
    pub(super) fn finish(mut self) {
        if let Some(mut input) = self.input.take() {
            let _ = std::io::Write::flush(&mut input);
        }
        self.wait();
    }

    fn wrong_version(&mut self, hello: Option<Hello>) -> Error {
        self.kill();
        let ours = env!("CARGO_PKG_VERSION");
        let remote_version = hello.map(|h| h.version);
        let theirs = remote_version.as_deref().unwrap_or("older");
        Error::RemoteVersion {
            message: format!(
                "the quill on {} ({theirs}) does not speak transfer protocol {} (quill {ours})",
                self.host,
                wire::PROTOCOL
            ),
            fix: format!(
                "install quill {ours} or later on {} (the same version is safest), or name such a quill with --remote-quill /path/to/quill",
                self.host
            ),
            host: self.host.clone(),
            remote_version,
            protocol: wire::PROTOCOL,
        }
    }

    /// ssh ended (or said something else) before the far quill's hello: why.
    fn before_hello(&mut self, d: &Dial<'_>) -> Error {
        let status = self.wait();
        let said = self.said();
        let code = status.and_then(|s| s.code());
        let last = said.lines().last().unwrap_or("").trim().to_string();
        if code == Some(127) || said.contains("command not found") {
            return Error::RemoteQuillMissing {
                fix: format!(
                    "install quill on {host} (from a checkout of quill there: `cargo install --locked --path .`), or name where it is: --remote-quill /path/to/quill",
                    host = self.host
                ),
                host: self.host.clone(),
                program: d.remote_quill.to_string(),
                ssh_message: said,
            };
        }
        if code == Some(2) && said.contains("--serve") {
            return self.wrong_version(None);
        }
        let auth = said.contains("Permission denied") || said.contains("Too many authentication");
        let host_key = said.contains("Host key verification failed")
            || said.contains("REMOTE HOST IDENTIFICATION HAS CHANGED");
        let check = format!("{} {} true", shell_words(&self.rsh), shell_word(&self.host));
        let fix = if auth {
            format!(
                "ssh must log in to {} without a prompt (it runs with BatchMode=yes when no terminal is attached): add a key with `ssh-copy-id {}`, load it into ssh-agent, or name one with --rsh 'ssh -i KEY'; `{check}` tests it",
                self.host, self.host
            )
        } else if host_key {
            format!(
                "check {}'s host key and accept it: run `{check}` once in a terminal",
                self.host
            )
        } else if said.contains("Could not resolve hostname") {
            format!(
                "a colon before the first slash names another machine (as in scp); for a local file named so, write ./{}:…; else `{check}` must work first",
                self.host
            )
        } else {
            format!("`{check}` must work first: it shows the same failure")
        };
        let why = if last.is_empty() {
            match code {
                Some(c) => format!("it exited with status {c} before quill answered"),
                None => "it ended before quill answered".into(),
            }
        } else {
            last
        };
        Error::ConnectionFailed {
            message: format!("cannot reach quill on {} through ssh: {why}", self.host),
            fix,
            host: self.host.clone(),
            status: code,
            ssh_message: said,
        }
    }
}

impl Drop for Link {
    fn drop(&mut self) {
        if matches!(self.child.try_wait(), Ok(None)) {
            self.kill();
        }
    }
}

/// The words of a command line, quoted for a shell.
pub(super) fn shell_words(words: &[String]) -> String {
    words
        .iter()
        .map(|w| shell_word(w))
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn batch_mode_is_added_to_ssh_only_without_a_terminal() {
        let d = Dial {
            rsh: "ssh -F '/a b'",
            remote_quill: "/opt/quill",
            host: "me@box",
            session: "it's",
        };
        let line = command_line(&d, false).unwrap();
        assert_eq!(
            line,
            [
                "ssh",
                "-F",
                "/a b",
                "-oBatchMode=yes",
                "-oServerAliveInterval=15",
                "-oServerAliveCountMax=4",
                "me@box",
                "/opt/quill --session 'it'\\''s' transfer --serve 1 - -"
            ]
        );
        assert!(
            !command_line(&d, true)
                .unwrap()
                .contains(&"-oBatchMode=yes".to_string())
        );
        let other = Dial {
            rsh: "docker exec -i box",
            ..d
        };
        assert!(
            !command_line(&other, false)
                .unwrap()
                .iter()
                .any(|w| w.contains("Batch"))
        );
    }
}
