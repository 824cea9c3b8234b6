//! A throwaway OpenSSH server for one test: `Sshd::start()` makes a temporary directory with a
//! host key, a client key and its `authorized_keys`, an `sshd_config` listening on a free port
//! of 127.0.0.1, starts `/usr/sbin/sshd -D -e` on it and waits (at most 10 s) until it greets;
//! then writes an `ssh_config` whose `Host quilltest` reaches it as the current user with that
//! key and a prefilled `known_hosts` (strict checking, batch mode). `rsh()` is the `--rsh` for
//! quill, `remote_quill(dir)` the `--remote-quill` that runs the binary under test on the far
//! side. Dropping it kills the server and every process it started (the far quills), and waits.
//! Tests using it are `#[ignore = "needs sshd (openssh-server)"]` and fail loudly when sshd or
//! ssh-keygen is missing. The module's own tests check the harness with a plain `ssh … true`.

#![allow(dead_code)] // shared by the modules that need a server; not all use every helper

use std::fs;
use std::io::Read as _;
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::thread;
use std::time::{Duration, Instant};

use crate::util::{BIN, is_root, require};

pub const SSHD: &str = "/usr/sbin/sshd";
/// The `Host` the client config names.
pub const HOST: &str = "quilltest";

pub struct Sshd {
    _tmp: tempfile::TempDir,
    /// The server's directory: keys, configs, `known_hosts`, the log.
    pub dir: PathBuf,
    pub port: u16,
    /// The client config (`ssh -F`).
    pub config: PathBuf,
    /// The client's private key (in `authorized_keys`).
    pub key: PathBuf,
    /// `[127.0.0.1]:PORT ssh-ed25519 AAAA…`: the known_hosts line of the server.
    pub known_line: String,
    pub user: String,
    child: Option<Child>,
}

/// Fail loudly when the server or the key tool is missing.
#[track_caller]
pub fn require_sshd() {
    require(SSHD, "openssh-server");
    require("ssh-keygen", "openssh-client");
    require("ssh", "openssh-client");
}

/// A new ed25519 key pair at `path` (and `path.pub`), no passphrase; the public line.
pub fn keygen(path: &Path) -> String {
    let out = Command::new("ssh-keygen")
        .args(["-q", "-t", "ed25519", "-N", "", "-C", "quill-test", "-f"])
        .arg(path)
        .stdin(Stdio::null())
        .output()
        .unwrap_or_else(|e| panic!("cannot run ssh-keygen: {e}"));
    assert!(
        out.status.success(),
        "ssh-keygen -f {} failed: {}",
        path.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    let public = fs::read_to_string(path.with_extension("pub")).unwrap();
    public.trim().to_string()
}

/// The name of the user this process runs as.
pub fn current_user() -> String {
    // SAFETY: getpwuid returns a pointer into static storage (or null); read at once.
    unsafe {
        let pw = libc::getpwuid(libc::geteuid());
        assert!(!pw.is_null(), "no passwd entry for uid {}", libc::geteuid());
        std::ffi::CStr::from_ptr((*pw).pw_name)
            .to_string_lossy()
            .into_owned()
    }
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

impl Sshd {
    /// Start a server (see the module comment); panics with sshd's log when it does not come up
    /// within 10 s. A port found free may be taken before sshd binds it: then another try.
    #[track_caller]
    pub fn start() -> Sshd {
        require_sshd();
        if is_root() {
            // sshd's privilege separation directory (the package makes it at boot).
            fs::create_dir_all("/run/sshd").unwrap();
        }
        let mut why = String::new();
        for _ in 0..3 {
            match Sshd::try_start() {
                Ok(sshd) => return sshd,
                Err((e, port_taken)) => {
                    why = e;
                    if !port_taken {
                        break;
                    }
                }
            }
        }
        panic!("sshd did not come up: {why}");
    }

    /// One try of `start`: Err(why, whether the port was taken).
    fn try_start() -> Result<Sshd, (String, bool)> {
        let tmp = tempfile::Builder::new()
            .prefix("quill-sshd-")
            .tempdir()
            .unwrap();
        let dir = fs::canonicalize(tmp.path()).unwrap();
        let host_key = dir.join("host_ed25519");
        let host_pub = keygen(&host_key);
        let key = dir.join("client_ed25519");
        let client_pub = keygen(&key);
        fs::write(dir.join("authorized_keys"), format!("{client_pub}\n")).unwrap();
        let port = free_port();
        let cfg = dir.join("sshd_config");
        fs::write(
            &cfg,
            format!(
                "ListenAddress 127.0.0.1\nPort {port}\nHostKey {}\nAuthorizedKeysFile {}\n\
                 PidFile {}\nStrictModes no\nUsePAM no\nPasswordAuthentication no\n\
                 KbdInteractiveAuthentication no\nPermitRootLogin prohibit-password\n\
                 PubkeyAuthentication yes\nUseDNS no\nPrintMotd no\nPrintLastLog no\n\
                 X11Forwarding no\nAllowTcpForwarding no\nMaxStartups 64\nLogLevel ERROR\n",
                host_key.display(),
                dir.join("authorized_keys").display(),
                dir.join("sshd.pid").display(),
            ),
        )
        .unwrap();
        let log = fs::File::create(dir.join("sshd.log")).unwrap();
        let child = Command::new(SSHD)
            .arg("-D")
            .arg("-e")
            .arg("-f")
            .arg(&cfg)
            .stdin(Stdio::null())
            .stdout(log.try_clone().unwrap())
            .stderr(log)
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {SSHD}: {e}"));
        let mut sshd = Sshd {
            _tmp: tmp,
            config: dir.join("ssh_config"),
            known_line: format!("[127.0.0.1]:{port} {}", first_two_words(&host_pub)),
            dir,
            port,
            key,
            user: current_user(),
            child: Some(child),
        };
        if let Err(e) = sshd.wait_ready(Duration::from_secs(10)) {
            let log = sshd.log();
            sshd.stop();
            let taken = log.contains("Address already in use");
            return Err((format!("{e}; sshd's log:\n{log}"), taken));
        }
        fs::write(
            sshd.dir.join("known_hosts"),
            format!("{}\n", sshd.known_line),
        )
        .unwrap();
        sshd.client_config("ssh_config", &[]);
        Ok(sshd)
    }

    /// Wait until the server greets with its `SSH-2.0-` banner, or fail: it exited, or `limit`
    /// passed.
    fn wait_ready(&mut self, limit: Duration) -> Result<(), String> {
        let start = Instant::now();
        loop {
            if let Some(status) = self.child.as_mut().unwrap().try_wait().unwrap() {
                return Err(format!("sshd exited: {status}"));
            }
            if let Ok(mut s) = TcpStream::connect(("127.0.0.1", self.port)) {
                s.set_read_timeout(Some(Duration::from_secs(2))).unwrap();
                let mut banner = [0u8; 8];
                if s.read_exact(&mut banner).is_ok() && &banner == b"SSH-2.0-" {
                    return Ok(());
                }
            }
            if start.elapsed() > limit {
                return Err(format!(
                    "sshd does not greet on port {} after {limit:?}",
                    self.port
                ));
            }
            thread::sleep(Duration::from_millis(20));
        }
    }

    /// Write a client config named `name` in the server's directory: `Host quilltest` with the
    /// defaults of the module comment, each of `overrides` (option, value) replacing the
    /// default of that option or added. Returns its path.
    pub fn client_config(&self, name: &str, overrides: &[(&str, &str)]) -> PathBuf {
        let port = self.port.to_string();
        let key = self.key.display().to_string();
        let known = self.dir.join("known_hosts").display().to_string();
        let mut options: Vec<(&str, &str)> = vec![
            ("HostName", "127.0.0.1"),
            ("Port", &port),
            ("User", &self.user),
            ("IdentityFile", &key),
            ("IdentitiesOnly", "yes"),
            ("UserKnownHostsFile", &known),
            ("GlobalKnownHostsFile", "/dev/null"),
            ("StrictHostKeyChecking", "yes"),
            ("BatchMode", "yes"),
            ("ConnectTimeout", "10"),
            ("LogLevel", "ERROR"),
        ];
        for (k, v) in overrides {
            match options.iter_mut().find(|(o, _)| o.eq_ignore_ascii_case(k)) {
                Some(slot) => slot.1 = v,
                None => options.push((k, v)),
            }
        }
        // `::1` too: a bracketed IPv6 host (`[::1]:path`) reaches the same server.
        let mut text = format!("Host {HOST} ::1\n");
        for (k, v) in options {
            text.push_str(&format!("  {k} {v}\n"));
        }
        let path = self.dir.join(name);
        fs::write(&path, text).unwrap();
        path
    }

    /// The `--rsh` for quill: `ssh -F <config>`.
    pub fn rsh(&self) -> String {
        rsh_with(&self.config)
    }

    /// The host name the config knows.
    pub fn host(&self) -> &'static str {
        HOST
    }

    /// The `--remote-quill`: the binary under test with its own state directory on the far side.
    pub fn remote_quill(&self, state_dir: &Path) -> String {
        format!("{BIN} --state-dir {}", state_dir.display())
    }

    /// `ssh -F <config> quilltest ARGS…`, not started (stdin null, output piped).
    pub fn ssh(&self, args: &[&str]) -> Command {
        let mut c = Command::new("ssh");
        c.arg("-F")
            .arg(&self.config)
            .arg(HOST)
            .args(args)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        c
    }

    /// What sshd logged (its stderr) so far.
    pub fn log(&self) -> String {
        fs::read_to_string(self.dir.join("sshd.log")).unwrap_or_default()
    }

    /// The pids of the processes sshd started (sessions, shells, far quills), deepest last.
    pub fn descendants(&self) -> Vec<i32> {
        match &self.child {
            Some(c) => descendants(c.id() as i32),
            None => Vec::new(),
        }
    }

    /// The far quills still running (descendants of sshd that run the binary under test).
    pub fn far_quills(&self) -> Vec<i32> {
        let bin = fs::canonicalize(BIN).ok();
        self.descendants()
            .into_iter()
            .filter(|pid| fs::read_link(format!("/proc/{pid}/exe")).ok() == bin)
            .collect()
    }

    /// Wait (at most `limit`) until no far quill runs; whether none does.
    pub fn wait_far_quills_gone(&self, limit: Duration) -> bool {
        crate::util::wait_until(limit, || self.far_quills().is_empty())
    }

    fn stop(&mut self) {
        if let Some(mut child) = self.child.take() {
            // The sessions setsid() away from sshd: kill the whole tree, found through /proc.
            // Each is known by its start time too: a pid that ended meanwhile and was given to
            // another test's process is left alone.
            let tree: Vec<(i32, Option<u64>)> = descendants(child.id() as i32)
                .into_iter()
                .map(|pid| (pid, start_time(pid)))
                .collect();
            let _ = child.kill();
            for (pid, started) in tree {
                if started.is_some() && start_time(pid) == started {
                    // SAFETY: kill(2) of a process this server started (same pid, same start).
                    unsafe { libc::kill(pid, libc::SIGKILL) };
                }
            }
            let _ = child.wait();
        }
    }
}

impl Drop for Sshd {
    fn drop(&mut self) {
        self.stop();
    }
}

/// `ssh -F <config>`, for `--rsh`.
pub fn rsh_with(config: &Path) -> String {
    format!("ssh -F {}", config.display())
}

fn first_two_words(line: &str) -> String {
    line.split_whitespace()
        .take(2)
        .collect::<Vec<_>>()
        .join(" ")
}

/// The fields of `/proc/PID/stat` after the command name (its state first).
fn stat_fields(pid: i32) -> Option<Vec<String>> {
    let stat = fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // "pid (comm) state ppid …": comm may hold spaces and parentheses.
    let rest = &stat[stat.rfind(')')? + 1..];
    Some(rest.split_whitespace().map(str::to_string).collect())
}

/// When `pid` started (clock ticks after boot: field 22 of its stat).
fn start_time(pid: i32) -> Option<u64> {
    stat_fields(pid)?.get(19)?.parse().ok()
}

/// Every descendant of `root` (children before grandchildren), from /proc's parent links.
pub fn descendants(root: i32) -> Vec<i32> {
    let mut parents: Vec<(i32, i32)> = Vec::new();
    if let Ok(rd) = fs::read_dir("/proc") {
        for e in rd.flatten() {
            let Some(pid) = e.file_name().to_str().and_then(|s| s.parse::<i32>().ok()) else {
                continue;
            };
            if let Some(ppid) = stat_fields(pid).and_then(|f| f.get(1)?.parse().ok()) {
                parents.push((pid, ppid));
            }
        }
    }
    let mut out = Vec::new();
    let mut frontier = vec![root];
    while let Some(p) = frontier.pop() {
        for &(pid, ppid) in &parents {
            if ppid == p && !out.contains(&pid) {
                out.push(pid);
                frontier.push(pid);
            }
        }
    }
    out
}

#[test]
#[ignore = "needs sshd (openssh-server)"]
fn a_command_runs_through_the_server_as_the_current_user() {
    let sshd = Sshd::start();
    let out = sshd.ssh(&["true"]).output().unwrap();
    assert!(
        out.status.success(),
        "ssh … true: {}\n{}\nsshd's log:\n{}",
        out.status,
        String::from_utf8_lossy(&out.stderr),
        sshd.log()
    );
    let out = sshd.ssh(&["id", "-un"]).output().unwrap();
    assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), current_user());
    // The far side runs the binary under test.
    let out = sshd.ssh(&[BIN, "--version"]).output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8_lossy(&out.stdout).contains("quill"));
}

#[test]
#[ignore = "needs sshd (openssh-server)"]
fn a_strange_key_is_refused_and_dropping_the_server_ends_its_sessions() {
    let sshd = Sshd::start();
    let stranger = sshd.dir.join("stranger_ed25519");
    keygen(&stranger);
    let cfg = sshd.client_config(
        "stranger_config",
        &[("IdentityFile", stranger.to_str().unwrap())],
    );
    let out = Command::new("ssh")
        .arg("-F")
        .arg(&cfg)
        .args([HOST, "true"])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(255));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("Permission denied"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // A session that would last: dropping the server ends it (and the client sees the end).
    let mut long = sshd.ssh(&["sleep", "60"]).spawn().unwrap();
    assert!(
        crate::util::wait_until(Duration::from_secs(10), || sshd
            .descendants()
            .iter()
            .any(|p| fs::read_to_string(format!("/proc/{p}/comm"))
                .is_ok_and(|c| c.trim() == "sleep"))),
        "the far sleep never ran"
    );
    let tree = sshd.descendants();
    drop(sshd);
    for pid in tree {
        assert!(
            crate::util::wait_until(Duration::from_secs(5), || {
                fs::read_to_string(format!("/proc/{pid}/stat")).map_or(true, |s| s.contains(") Z "))
            }),
            "process {pid} of the server outlived it"
        );
    }
    let deadline = Instant::now() + Duration::from_secs(10);
    while long.try_wait().unwrap().is_none() {
        assert!(
            Instant::now() < deadline,
            "the client did not see its session end"
        );
        thread::sleep(Duration::from_millis(20));
    }
}
