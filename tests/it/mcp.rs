//! `quill mcp` through a real MCP client (rmcp's, spawning the binary over stdio): the tools
//! are `quill tools`' definitions, a call answers what `quill --json` answers (validated
//! against the schema) plus the text a terminal shows, failures are tool errors with the same
//! kind and hint, the session and its baselines are shared with the CLI, roots confine,
//! cancelled calls leave nothing behind, and malformed requests are JSON-RPC errors. Every
//! test checks the bytes left on disk.
#![allow(deprecated)] // MCP roots: deprecated in the newest protocol, used by every other

use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use rmcp::model::{
    CallToolRequest, CallToolRequestParams, CallToolResult, ClientCapabilities, ClientConfig,
    ClientRequest, Implementation, ListRootsResult, ProgressNotificationParam, ProtocolVersion,
    Root,
};
use rmcp::service::{NotificationContext, PeerRequestOptions, RequestContext, RunningService};
use rmcp::transport::{ConfigureCommandExt, TokioChildProcess};
use rmcp::{ClientHandler, ErrorData, RoleClient, ServiceExt};
use serde_json::{Value, json};

use crate::util::{BIN, TestEnv, hold_lock};

/// The test's client: offers `roots` when given, records progress notifications.
#[derive(Clone, Default)]
struct Client {
    roots: Option<Vec<String>>,
    progress: Arc<Mutex<Vec<ProgressNotificationParam>>>,
}

impl ClientHandler for Client {
    fn get_info(&self) -> ClientConfig {
        let caps = match self.roots {
            Some(_) => ClientCapabilities::builder().enable_roots().build(),
            None => ClientCapabilities::default(),
        };
        ClientConfig::new(caps, Implementation::new("quill-tests", "1"))
            .with_protocol_version(ProtocolVersion::V_2025_06_18)
    }

    async fn list_roots(
        &self,
        _context: RequestContext<RoleClient>,
    ) -> Result<ListRootsResult, ErrorData> {
        let roots = self.roots.clone().unwrap_or_default();
        Ok(ListRootsResult::new(
            roots.into_iter().map(Root::new).collect(),
        ))
    }

    async fn on_progress(
        &self,
        params: ProgressNotificationParam,
        _context: NotificationContext<RoleClient>,
    ) {
        self.progress.lock().unwrap().push(params);
    }
}

type Session = RunningService<RoleClient, Client>;

/// `quill [flags] mcp` in the test's directory, with its private state directory, connected.
async fn connect(env: &TestEnv, flags: &[&str], client: Client) -> Session {
    let cmd = tokio::process::Command::new(BIN).configure(|c| {
        c.env_clear()
            .env("PATH", std::env::var_os("PATH").unwrap_or_default())
            .env("HOME", &env.base)
            .env("QUILL_STATE_DIR", &env.state)
            .current_dir(&env.dir)
            .args(flags)
            .arg("mcp");
    });
    let transport = TokioChildProcess::builder(cmd)
        .stderr(Stdio::null())
        .spawn()
        .expect("spawn quill mcp")
        .0;
    client.serve(transport).await.expect("initialize quill mcp")
}

/// The request of a call of `tool` with `arguments` (a JSON object).
fn request(tool: &str, arguments: Value) -> CallToolRequestParams {
    let Value::Object(args) = arguments else {
        panic!("arguments must be an object")
    };
    CallToolRequestParams::new(tool.to_string()).with_arguments(args)
}

/// Call `tool` with `arguments`; the answer's JSON is checked against the schema.
async fn call(s: &Session, tool: &str, arguments: Value) -> Answer {
    let r = s
        .call_tool(request(tool, arguments))
        .await
        .unwrap_or_else(|e| panic!("{tool}: {e}"));
    Answer::of(tool, r)
}

/// A tool result: its `structuredContent`, its text and `isError`.
#[derive(Debug)]
struct Answer {
    json: Value,
    text: String,
    is_error: bool,
}

impl Answer {
    fn of(tool: &str, r: CallToolResult) -> Answer {
        let json = r.structured_content.clone().expect("structuredContent");
        if let Err(e) = crate::schema::validate_answer(&json) {
            panic!("{tool}: the answer does not fit the schema: {e}\n{json:#}");
        }
        let text = r
            .content
            .iter()
            .filter_map(|c| c.as_text().map(|t| t.text.clone()))
            .collect::<Vec<_>>()
            .join("");
        let is_error = r.is_error.unwrap_or(false);
        assert_eq!(is_error, json["ok"] == false, "isError is !ok: {json:#}");
        Answer {
            json,
            text,
            is_error,
        }
    }

    fn ok(&self) -> &Answer {
        assert!(!self.is_error, "expected success: {:#}", self.json);
        self
    }

    fn err(&self, kind: &str) -> &Answer {
        assert!(self.is_error, "expected {kind}: {:#}", self.json);
        assert_eq!(self.json["error"]["kind"], kind, "{:#}", self.json);
        self
    }
}

fn quill_json(env: &TestEnv, args: &[&str]) -> Value {
    env.json(args).json.clone()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_tools_are_those_quill_tools_prints() {
    let env = TestEnv::new();
    let s = connect(&env, &[], Client::default()).await;
    let listed = s.list_all_tools().await.unwrap();
    let printed = env.cmd(["tools", "--format", "json"]).run();
    let printed: Vec<Value> = serde_json::from_str(&printed.stdout).unwrap();
    assert_eq!(listed.len(), printed.len());
    assert_eq!(printed.len(), 10, "read … rm and state");
    for (tool, def) in listed.iter().zip(&printed) {
        assert_eq!(tool.name, def["name"].as_str().unwrap());
        assert_eq!(
            tool.description.as_deref(),
            def["description"].as_str(),
            "{}",
            tool.name
        );
        assert_eq!(
            Value::Object((*tool.input_schema).clone()),
            def["inputSchema"],
            "{}",
            tool.name
        );
        assert_eq!(
            serde_json::to_value(&tool.annotations).unwrap(),
            def["annotations"],
            "{}",
            tool.name
        );
    }
    let info = s.peer_info().unwrap();
    assert_eq!(info.server_info.as_ref().unwrap().name, "quill");
    s.cancel().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn read_edit_and_a_change_behind_the_sessions_back() {
    let env = TestEnv::new();
    env.write("a.txt", "one\r\n\ttwo\r\n");
    let s = connect(&env, &[], Client::default()).await;
    // Not read yet: refused, the hint names the read.
    let a = call(
        &s,
        "quill_edit",
        json!({"path": "a.txt", "old": "two", "new": "2"}),
    )
    .await;
    a.err("not_read");
    assert!(a.text.contains("quill: error:"), "{}", a.text);
    env.assert_file("a.txt", "one\r\n\ttwo\r\n");
    let a = call(&s, "quill_read", json!({"path": "a.txt"})).await;
    a.ok();
    assert_eq!(a.json["lineEnding"], "crlf");
    assert_eq!(a.text, "     1\tone\n     2\t\ttwo");
    let a = call(
        &s,
        "quill_edit",
        json!({"path": "a.txt", "old": "two", "new": "2"}),
    )
    .await;
    a.ok();
    assert!(a.text.contains("wrote a.txt"), "{}", a.text);
    assert!(a.json["patch"].as_str().unwrap().contains("+\t2"));
    env.assert_file("a.txt", "one\r\n\t2\r\n");
    // Someone else changes it: the next edit is stale, and nothing is written.
    env.write("a.txt", "one\r\n\t2\r\nthree\r\n");
    let a = call(
        &s,
        "quill_edit",
        json!({"path": "a.txt", "old": "one", "new": "1"}),
    )
    .await;
    a.err("stale");
    assert!(
        a.json["error"]["hint"]
            .as_str()
            .unwrap()
            .contains("quill read")
    );
    env.assert_file("a.txt", "one\r\n\t2\r\nthree\r\n");
    // Undo goes back to what quill replaced, not past the other writer's change.
    call(&s, "quill_read", json!({"path": "a.txt"})).await.ok();
    call(
        &s,
        "quill_edit",
        json!({"path": "a.txt", "old": "three", "new": "3"}),
    )
    .await
    .ok();
    call(&s, "quill_undo", json!({"path": "a.txt"})).await.ok();
    env.assert_file("a.txt", "one\r\n\t2\r\nthree\r\n");
    s.cancel().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_edit_miss_is_a_tool_error_with_its_window() {
    let env = TestEnv::new();
    env.write("f.py", "def f():\n\treturn 1\n");
    let s = connect(&env, &[], Client::default()).await;
    call(&s, "quill_read", json!({"file_path": "f.py"}))
        .await
        .ok();
    let a = call(
        &s,
        "quill_edit",
        json!({"path": "f.py", "old_string": "    return 1", "new_string": "    return 2"}),
    )
    .await;
    a.err("edit_no_match");
    let e = &a.json["error"];
    assert_eq!(e["reason"], "whitespace");
    assert_eq!(e["window"]["text"], "def f():\n\treturn 1\n");
    assert!(e["hint"].as_str().unwrap().contains("--fuzzy"), "{e:#}");
    assert!(
        a.text.contains("closest passage in the file:"),
        "{}",
        a.text
    );
    env.assert_file("f.py", "def f():\n\treturn 1\n");
    // Arguments that do not fit the tool: a usage error as a tool error, nothing run.
    let a = call(&s, "quill_edit", json!({"path": "f.py", "bogus": 1})).await;
    a.err("usage");
    assert!(a.json["error"]["hint"].is_string());
    let a = call(&s, "quill_read", json!({"path": "-"})).await;
    a.err("usage");
    // An unknown tool is a protocol error (invalid params), and the server goes on.
    let e = s
        .call_tool(CallToolRequestParams::new("quill_frob"))
        .await
        .unwrap_err();
    assert!(e.to_string().contains("no tool named"), "{e}");
    call(&s, "quill_state", json!({})).await.ok();
    s.cancel().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_cli_in_the_same_session_sees_the_mcp_read() {
    let env = TestEnv::new();
    env.write("a.txt", "alpha\n");
    let s = connect(&env, &["--session", "shared"], Client::default()).await;
    call(&s, "quill_read", json!({"path": "a.txt"})).await.ok();
    let out = env.json(&[
        "--session",
        "shared",
        "edit",
        "a.txt",
        "--old",
        "alpha",
        "--new",
        "beta",
    ]);
    out.ok();
    env.assert_file("a.txt", "beta\n");
    // …and the server sees the CLI's change as its own session's: no new read needed.
    call(
        &s,
        "quill_edit",
        json!({"path": "a.txt", "old": "beta", "new": "gamma"}),
    )
    .await
    .ok();
    env.assert_file("a.txt", "gamma\n");
    // Another session has no baseline.
    env.json(&[
        "--session",
        "other",
        "edit",
        "a.txt",
        "--old",
        "gamma",
        "--new",
        "x",
    ])
    .err("not_read", 3);
    s.cancel().await.unwrap();

    // No --session: one made for the connection, named by `state`, usable from the CLI.
    let s = connect(&env, &[], Client::default()).await;
    call(&s, "quill_read", json!({"path": "a.txt"})).await.ok();
    let state = call(&s, "quill_state", json!({})).await;
    let session = state.ok().json["session"].as_str().unwrap().to_string();
    assert!(session.starts_with("mcp-"), "{session}");
    let listed = quill_json(&env, &["--session", &session, "state"]);
    assert_eq!(
        listed["baselines"][0]["path"],
        env.path("a.txt").to_str().unwrap()
    );
    assert_eq!(quill_json(&env, &["state"])["baselines"], json!([]));
    s.cancel().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_clients_editing_one_file_lose_no_update() {
    let env = TestEnv::new();
    env.write("log.txt", "");
    let a = connect(&env, &["--session", "a"], Client::default()).await;
    let b = connect(&env, &["--session", "b"], Client::default()).await;
    async fn appender(s: &Session, name: &str, rounds: usize) -> Vec<String> {
        let mut landed = Vec::new();
        for i in 0..rounds {
            let line = format!("{name}{i}\n");
            // Read, then append by rewriting what was read; a stale answer loses nothing.
            let r = call(s, "quill_read", json!({"path": "log.txt"})).await;
            // The other client writing it twice while it is read: a documented answer under
            // contention (read again), not a lost update.
            if r.json["error"]["kind"] == "changed_during_read" {
                continue;
            }
            let content = r.ok().json["content"].as_str().unwrap_or("").to_string();
            let w = call(
                s,
                "quill_write",
                json!({"path": "log.txt", "content": format!("{content}{line}")}),
            )
            .await;
            match w.json["ok"].as_bool() {
                Some(true) => landed.push(line),
                _ => {
                    w.err("stale");
                }
            }
        }
        landed
    }
    let (la, lb) = tokio::join!(appender(&a, "a", 25), appender(&b, "b", 25));
    let text = String::from_utf8(env.read("log.txt")).unwrap();
    for line in la.iter().chain(&lb) {
        assert!(
            text.contains(line.as_str()),
            "{line:?} was reported written but is lost:\n{text}"
        );
    }
    assert_eq!(text.lines().count(), la.len() + lb.len(), "{text}");
    assert!(!la.is_empty() && !lb.is_empty());
    a.cancel().await.unwrap();
    b.cancel().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn calls_on_one_connection_run_side_by_side() {
    let env = TestEnv::new();
    env.write("busy.txt", "x\n");
    env.write("free.txt", "y\n");
    let s = connect(&env, &["--session", "t"], Client::default()).await;
    call(&s, "quill_read", json!({"path": "busy.txt"}))
        .await
        .ok();
    // busy.txt's lock is held elsewhere: its edit waits, and a read of another file does not.
    let held = hold_lock(&env.lock_file(&env.path("busy.txt")));
    let slow = s.call_tool(request(
        "quill_edit",
        json!({"path": "busy.txt", "old": "x", "new": "z"}),
    ));
    let quick = async {
        tokio::time::sleep(Duration::from_millis(300)).await;
        let a = call(&s, "quill_read", json!({"path": "free.txt"})).await;
        drop(held);
        a
    };
    let (slow, quick) = tokio::join!(slow, quick);
    quick.ok();
    Answer::of("quill_edit", slow.unwrap()).ok();
    env.assert_file("busy.txt", "z\n");
    s.cancel().await.unwrap();
}

/// Files in `dir` whose name marks a quill temporary file.
fn temporaries(dir: &Path) -> Vec<String> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.contains(".quill-"))
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_cancelled_lock_wait_is_abandoned_at_once() {
    let env = TestEnv::new();
    env.write("a.txt", "x\n");
    let s = connect(
        &env,
        &["--session", "t", "--lock-timeout", "60"],
        Client::default(),
    )
    .await;
    call(&s, "quill_read", json!({"path": "a.txt"})).await.ok();
    let held = hold_lock(&env.lock_file(&env.path("a.txt")));
    let started = Instant::now();
    // The client gives up after 300 ms: rmcp sends notifications/cancelled.
    let r = tokio::time::timeout(
        Duration::from_millis(300),
        s.call_tool(request(
            "quill_edit",
            json!({"path": "a.txt", "old": "x", "new": "y"}),
        )),
    )
    .await;
    assert!(r.is_err(), "the call was to wait for the lock");
    // The abandoned call lets go: once the lock is free, the same edit goes through at once,
    // and the cancelled one never wrote.
    tokio::time::sleep(Duration::from_millis(200)).await;
    drop(held);
    // Time enough for a waiter that was not abandoned to take the lock and write.
    tokio::time::sleep(Duration::from_millis(600)).await;
    env.assert_file("a.txt", "x\n");
    call(
        &s,
        "quill_edit",
        json!({"path": "a.txt", "old": "x", "new": "y"}),
    )
    .await
    .ok();
    assert!(
        started.elapsed() < Duration::from_secs(30),
        "waited for the lock timeout"
    );
    env.assert_file("a.txt", "y\n");
    assert_eq!(temporaries(&env.dir), Vec::<String>::new());
    s.cancel().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_cancelled_transfer_leaves_no_temporary_file_and_reports_progress() {
    let env = TestEnv::new();
    // 1 GiB, sparse: fast to make, long enough to copy that progress comes before the end.
    let src = env.path("big.bin");
    std::fs::File::create(&src)
        .unwrap()
        .set_len(1 << 30)
        .unwrap();
    std::fs::create_dir(env.path("out")).unwrap();
    let client = Client::default();
    let progress = Arc::clone(&client.progress);
    let s = connect(&env, &[], client).await;
    let params = request(
        "quill_transfer",
        json!({"source": "big.bin", "destination": "out/"}),
    );
    let handle = s
        .send_cancellable_request(
            ClientRequest::CallToolRequest(CallToolRequest::new(params)),
            PeerRequestOptions::no_options(),
        )
        .await
        .unwrap();
    // Cancel once the first progress notification shows the copy under way.
    let deadline = Instant::now() + Duration::from_secs(60);
    while progress.lock().unwrap().is_empty() {
        assert!(Instant::now() < deadline, "no progress notification");
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    let first = progress.lock().unwrap()[0].clone();
    assert_eq!(first.total, Some((1u64 << 30) as f64));
    assert!(first.progress < (1u64 << 30) as f64);
    handle.cancel(Some("test".into())).await.unwrap();
    // The server abandons the copy: no temporary file, no destination, the source kept.
    let deadline = Instant::now() + Duration::from_secs(20);
    while !temporaries(&env.path("out")).is_empty() {
        assert!(Instant::now() < deadline, "the temporary file stayed");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert!(!env.path("out/big.bin").exists());
    assert_eq!(std::fs::metadata(&src).unwrap().len(), 1 << 30);
    // The server goes on.
    call(&s, "quill_glob", json!({"pattern": "*.bin"}))
        .await
        .ok();
    s.cancel().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_clients_root_confines_unless_root_is_given() {
    let env = TestEnv::new();
    std::fs::create_dir(env.path("ws")).unwrap();
    env.write("ws/in.txt", "in\n");
    env.write("out.txt", "out\n");
    let uri = format!("file://{}", env.path("ws").display());
    let client = Client {
        roots: Some(vec![uri]),
        ..Client::default()
    };
    let s = connect(&env, &[], client.clone()).await;
    // The server's directory is outside the root: relative paths start from the root.
    call(&s, "quill_read", json!({"path": "in.txt"})).await.ok();
    let out = env.path("out.txt");
    call(&s, "quill_read", json!({"path": out.to_str().unwrap()}))
        .await
        .err("outside_root");
    call(&s, "quill_read", json!({"path": "../out.txt"}))
        .await
        .err("outside_root");
    call(
        &s,
        "quill_write",
        json!({"path": "../escape.txt", "content": "x"}),
    )
    .await
    .err("outside_root");
    assert!(!env.path("escape.txt").exists());
    // A symbolic link inside the root that points out of it is refused too.
    std::os::unix::fs::symlink(&out, env.path("ws/link.txt")).unwrap();
    call(&s, "quill_read", json!({"path": "link.txt"}))
        .await
        .err("outside_root");
    env.assert_file("out.txt", "out\n");
    s.cancel().await.unwrap();
    // --root wins over the client's roots.
    let s = connect(&env, &["--root", "."], client).await;
    call(&s, "quill_read", json!({"path": "out.txt"}))
        .await
        .ok();
    s.cancel().await.unwrap();
    // A client without roots: nothing confines.
    let s = connect(&env, &[], Client::default()).await;
    call(&s, "quill_read", json!({"path": "out.txt"}))
        .await
        .ok();
    s.cancel().await.unwrap();
}

/// `quill mcp` without a client library: raw lines in, raw lines out.
struct Raw {
    child: std::process::Child,
    stdin: Option<std::process::ChildStdin>,
    lines: std::io::Lines<BufReader<std::process::ChildStdout>>,
}

impl Raw {
    fn start(env: &TestEnv) -> Raw {
        Raw::start_with(env, &["mcp"], &[("QUILL_STATE_DIR", env.state.as_os_str())])
    }

    /// `quill ARGS…` with only PATH and `vars` in its environment.
    fn start_with(env: &TestEnv, args: &[&str], vars: &[(&str, &std::ffi::OsStr)]) -> Raw {
        let mut child = Command::new(BIN)
            .env_clear()
            .env("PATH", std::env::var_os("PATH").unwrap_or_default())
            .envs(vars.iter().copied())
            .current_dir(&env.dir)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let stdin = child.stdin.take();
        let lines = BufReader::new(child.stdout.take().unwrap()).lines();
        Raw {
            child,
            stdin,
            lines,
        }
    }

    fn send(&mut self, line: &str) {
        let stdin = self.stdin.as_mut().unwrap();
        stdin.write_all(line.as_bytes()).unwrap();
        stdin.write_all(b"\n").unwrap();
        stdin.flush().unwrap();
    }

    fn answer(&mut self) -> Value {
        serde_json::from_str(&self.lines.next().unwrap().unwrap()).unwrap()
    }

    fn initialize(&mut self) {
        self.send(
            r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}"#,
        );
        assert_eq!(self.answer()["result"]["serverInfo"]["name"], "quill");
        self.send(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#);
    }

    /// The exit status, within 10 s; then its log.
    fn exit(mut self, what: &str) -> (std::process::ExitStatus, String) {
        let (status, log, _) = self.exit_timed(what);
        (status, log)
    }

    /// `exit`, and how long the server took to exit once its stdin closed.
    fn exit_timed(&mut self, what: &str) -> (std::process::ExitStatus, String, Duration) {
        drop(self.stdin.take());
        let closed = Instant::now();
        let deadline = closed + Duration::from_secs(10);
        let status = loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                break status;
            }
            assert!(Instant::now() < deadline, "quill mcp did not stop: {what}");
            std::thread::sleep(Duration::from_millis(5));
        };
        let took = closed.elapsed();
        let mut log = String::new();
        let mut stderr = self.child.stderr.take().unwrap();
        std::io::Read::read_to_string(&mut stderr, &mut log).unwrap();
        (status, log, took)
    }

    /// The lines the server wrote after the last one read, up to its end.
    fn rest(&mut self) -> Vec<Value> {
        self.lines
            .by_ref()
            .map(|l| serde_json::from_str(&l.unwrap()).unwrap())
            .collect()
    }
}

#[test]
fn malformed_requests_are_json_rpc_errors_and_eof_ends_the_server() {
    let env = TestEnv::new();
    let mut s = Raw::start(&env);
    s.initialize();
    s.send("this is not json");
    s.send(r#"{"jsonrpc":"2.0","id":2,"method":"no/such/method"}"#);
    let e = s.answer();
    assert_eq!(
        (&e["id"], &e["error"]["code"]),
        (&json!(2), &json!(-32601)),
        "{e}"
    );
    s.send(r#"{"jsonrpc":"2.0","id":3,"method":"tools/call"}"#);
    let e = s.answer();
    assert_eq!(
        (&e["id"], &e["error"]["code"]),
        (&json!(3), &json!(-32602)),
        "{e}"
    );
    s.send(
        r#"{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"quill_read","arguments":"nope"}}"#,
    );
    let e = s.answer();
    assert_eq!(
        (&e["id"], &e["error"]["code"]),
        (&json!(4), &json!(-32602)),
        "{e}"
    );
    s.send(r#"[1, 2]"#);
    assert_eq!(s.answer()["error"]["code"], -32600);
    s.send(
        r#"{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"quill_glob","arguments":{"pattern":"*"}}}"#,
    );
    let r = s.answer();
    assert_eq!(r["id"], 5);
    assert_eq!(r["result"]["structuredContent"]["ok"], true, "{r}");
    // stdin closes: the server exits by itself, successfully.
    let (status, log) = s.exit("stdin closed");
    assert!(status.success(), "{status}");
    assert!(log.contains("session 'mcp-"), "{log}");
    assert!(log.contains("not confined"), "{log}");
}

#[test]
fn sigterm_abandons_the_calls_in_flight_and_ends_the_server_by_the_signal() {
    use std::os::unix::process::ExitStatusExt;
    let env = TestEnv::new();
    // Before any client: it stops all the same.
    let s = Raw::start(&env);
    std::thread::sleep(Duration::from_millis(300));
    unsafe { libc::kill(s.child.id() as i32, libc::SIGTERM) };
    let (status, _) = s.exit("SIGTERM before initialize");
    assert_eq!(status.signal(), Some(libc::SIGTERM), "{status}");
    // During a long copy: the copy is abandoned, its temporary file removed.
    std::fs::File::create(env.path("big.bin"))
        .unwrap()
        .set_len(4 << 30)
        .unwrap();
    std::fs::create_dir(env.path("out")).unwrap();
    let mut s = Raw::start(&env);
    s.initialize();
    s.send(
        r#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"quill_transfer","arguments":{"source":"big.bin","destination":"out/"},"_meta":{"progressToken":"t"}}}"#,
    );
    let note = s.answer();
    assert_eq!(note["method"], "notifications/progress", "{note}");
    unsafe { libc::kill(s.child.id() as i32, libc::SIGTERM) };
    let (status, _) = s.exit("SIGTERM during a transfer");
    assert_eq!(status.signal(), Some(libc::SIGTERM), "{status}");
    assert_eq!(temporaries(&env.path("out")), Vec::<String>::new());
    assert!(!env.path("out/big.bin").exists());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn grep_without_paths_searches_the_directory_not_the_protocol() {
    let env = TestEnv::new();
    env.write("src/a.rs", "fn main() {}\n");
    let s = connect(&env, &[], Client::default()).await;
    // stdin carries the protocol: a grep with no path searches the working directory, as a
    // typed `quill grep` with a terminal for stdin would.
    let a = call(&s, "quill_grep", json!({"pattern": "fn main"})).await;
    a.ok();
    assert_eq!(
        a.json["matches"][0]["path"],
        env.path("src/a.rs").to_str().unwrap()
    );
    assert_eq!(a.text, "src/a.rs:1:fn main() {}");
    // limit 0 answers whole (never streamed onto the protocol's stdout).
    let a = call(&s, "quill_grep", json!({"pattern": "main", "limit": 0})).await;
    assert_eq!(a.ok().json["total"], 1);
    let a = call(
        &s,
        "quill_glob",
        json!({"pattern": "**/*.rs", "limit": 0, "sort": "path"}),
    )
    .await;
    assert_eq!(
        a.ok().json["files"][0],
        env.path("src/a.rs").to_str().unwrap()
    );
    // The server still answers: nothing it read was taken for a search.
    call(&s, "quill_state", json!({})).await.ok();
    s.cancel().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_tools_carry_hints_a_host_can_approve_reads_by() {
    let env = TestEnv::new();
    let s = connect(&env, &[], Client::default()).await;
    let listed = s.list_all_tools().await.unwrap();
    for tool in &listed {
        let hints = tool
            .annotations
            .as_ref()
            .unwrap_or_else(|| panic!("{}", tool.name));
        let reads = ["quill_read", "quill_glob", "quill_grep", "quill_state"];
        let read_only = reads.contains(&tool.name.as_ref());
        assert_eq!(hints.read_only_hint, Some(read_only), "{}", tool.name);
        assert_eq!(hints.destructive_hint, Some(!read_only), "{}", tool.name);
        // Only transfer may reach another machine (`host:path`, over ssh).
        assert_eq!(
            hints.open_world_hint,
            Some(tool.name == "quill_transfer"),
            "{}: local files, or another machine",
            tool.name
        );
        let idempotent = read_only || ["quill_write", "quill_rm"].contains(&tool.name.as_ref());
        assert_eq!(hints.idempotent_hint, Some(idempotent), "{}", tool.name);
    }
    s.cancel().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_served_tool_is_short_and_its_schemas_pass_a_strict_validator() {
    let env = TestEnv::new();
    let s = connect(&env, &[], Client::default()).await;
    let listed = s.list_all_tools().await.unwrap();
    assert_eq!(listed.len(), 10);
    for tool in &listed {
        let description = tool.description.as_deref().unwrap_or_default();
        println!("{}: {} bytes of description", tool.name, description.len());
        assert!(
            description.len() <= 2048,
            "{}: {} bytes of description",
            tool.name,
            description.len()
        );
        let mut schemas = vec![Value::Object((*tool.input_schema).clone())];
        schemas.extend(
            tool.output_schema
                .as_ref()
                .map(|o| Value::Object((**o).clone())),
        );
        for schema in &schemas {
            let problems = crate::schema::strict_problems(schema);
            assert!(problems.is_empty(), "{}: {problems:?}", tool.name);
        }
    }
    s.cancel().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_missing_required_argument_is_named_by_its_json_key() {
    let env = TestEnv::new();
    let s = connect(&env, &[], Client::default()).await;
    let a = call(&s, "quill_read", json!({})).await;
    let e = &a.err("usage").json["error"];
    assert_eq!(e["message"], "missing required argument `path`", "{e}");
    assert_eq!(e["argument"], "path", "{e}");
    let hint = e["hint"].as_str().unwrap();
    assert!(hint.contains(r#""path": "#), "{hint}");
    assert!(
        !a.text.contains("<PATH>") && !a.text.contains("--help"),
        "{}",
        a.text
    );
    // grep's pattern may come as `regexp` instead: the hint says so.
    let a = call(&s, "quill_grep", json!({"paths": ["."]})).await;
    let e = &a.err("usage").json["error"];
    assert_eq!(e["message"], "missing required argument `pattern`", "{e}");
    assert!(e["hint"].as_str().unwrap().contains("`regexp`"), "{e}");
    call(&s, "quill_grep", json!({"regexp": ["x"]})).await.ok();
    s.cancel().await.unwrap();
    // `quill call` takes the same path.
    let out = env
        .cmd(["call"])
        .stdin(r#"{"tool": "quill_transfer", "arguments": {"source": "a"}}"#)
        .run();
    out.err("usage", 2);
    assert_eq!(
        out.json["error"]["message"],
        "missing required argument `destination`"
    );
    assert_eq!(out.json["error"]["argument"], "destination");
    assert!(!out.stdout.contains("<DESTINATION>") && !out.stdout.contains("--help"));
}

#[test]
fn a_malformed_request_with_an_id_is_answered_with_that_id() {
    let env = TestEnv::new();
    let mut s = Raw::start(&env);
    s.initialize();
    for (line, id, code) in [
        (
            r#"{"jsonrpc":"2.0","id":7,"method":"tools/call","params":"oops"}"#,
            json!(7),
            -32602,
        ),
        (
            r#"{"jsonrpc":"2.0","id":"eight","method":"tools/list","params":[1]}"#,
            json!("eight"),
            -32602,
        ),
        (
            r#"{"jsonrpc":"2.0","id":9,"method":"initialize","params":{}}"#,
            json!(9),
            -32602,
        ),
        (
            r#"{"jsonrpc":"1.0","id":10,"method":"ping"}"#,
            json!(10),
            -32600,
        ),
        (r#"{"id":11,"method":"ping"}"#, json!(11), -32600),
        (r#"{"jsonrpc":"2.0","id":12,"method":7}"#, json!(12), -32600),
    ] {
        s.send(line);
        let e = s.answer();
        println!("-> {line}\n<- {e}");
        assert_eq!(
            (&e["id"], &e["error"]["code"]),
            (&id, &json!(code)),
            "{line}: {e}"
        );
    }
    // Unanswerable: a line that is not JSON, a notification that does not fit; the server
    // reads on and answers the next request.
    s.send("{\"jsonrpc\":\"2.0\",\"id\":");
    s.send(r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":"x"}"#);
    s.send(r#"{"jsonrpc":"2.0","id":13,"method":"ping"}"#);
    let r = s.answer();
    assert_eq!((&r["id"], &r["result"]), (&json!(13), &json!({})), "{r}");
    let (status, log) = s.exit("stdin closed");
    assert!(status.success(), "{status}");
    assert!(
        log.contains("quill mcp: refused a request: the params of `tools/call`"),
        "{log}"
    );
    assert!(
        log.contains("quill mcp: ignored a line that is not JSON"),
        "{log}"
    );
}

#[test]
fn session_and_state_dir_are_arguments_of_mcp_as_clients_pass_them() {
    // An SDK client passes the server only HOME, LOGNAME, PATH, SHELL, TERM and USER unless
    // told otherwise: the session and the state directory come as arguments after `mcp`.
    let env = TestEnv::new();
    env.write("a.txt", "one\n");
    let state = env.base.join("elsewhere");
    let mut s = Raw::start_with(
        &env,
        &[
            "mcp",
            "--session",
            "agent-1",
            "--state-dir",
            state.to_str().unwrap(),
        ],
        &[("HOME", env.base.as_os_str())],
    );
    s.initialize();
    s.send(
        r#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"quill_read","arguments":{"path":"a.txt"}}}"#,
    );
    let r = s.answer();
    assert_eq!(r["result"]["structuredContent"]["ok"], true, "{r}");
    let (status, log) = s.exit("stdin closed");
    assert!(status.success(), "{status}");
    assert!(log.contains("session 'agent-1';"), "{log}");
    let out = env.json(&[
        "--state-dir",
        state.to_str().unwrap(),
        "--session",
        "agent-1",
        "state",
    ]);
    out.ok();
    assert_eq!(
        out.json["baselines"][0]["path"],
        env.path("a.txt").to_str().unwrap(),
        "{}",
        out.stdout
    );
    assert!(
        !env.state.exists(),
        "nothing in the default state directory"
    );
}

#[test]
fn closed_stdin_ends_the_server_within_the_clients_two_seconds() {
    let env = TestEnv::new();
    // Idle: at once.
    let mut s = Raw::start(&env);
    s.initialize();
    let (status, _, took) = s.exit_timed("stdin closed, idle");
    println!("idle: exited {took:?} after stdin closed");
    assert!(status.success(), "{status}");
    // A long copy in flight: it has its grace, then is abandoned cleanly and answered.
    std::fs::File::create(env.path("big.bin"))
        .unwrap()
        .set_len(4 << 30)
        .unwrap();
    std::fs::create_dir(env.path("out")).unwrap();
    let mut s = Raw::start(&env);
    s.initialize();
    s.send(
        r#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"quill_transfer","arguments":{"source":"big.bin","destination":"out/"},"_meta":{"progressToken":"t"}}}"#,
    );
    assert_eq!(s.answer()["method"], "notifications/progress");
    let (status, log, took) = s.exit_timed("stdin closed during a transfer");
    println!("a transfer in flight: exited {took:?} after stdin closed");
    assert!(status.success(), "{status}\n{log}");
    let answer = s
        .rest()
        .into_iter()
        .find(|m| m["id"] == 2)
        .expect("the call is answered");
    let json = &answer["result"]["structuredContent"];
    crate::schema::validate_answer(json).unwrap();
    match json["ok"].as_bool() {
        // Under heavy load the copy may have finished within the grace: then it is whole.
        Some(true) => assert_eq!(env.path("out/big.bin").metadata().unwrap().len(), 4 << 30),
        _ => {
            assert_eq!(json["error"]["kind"], "interrupted", "{json}");
            assert!(!env.path("out/big.bin").exists());
        }
    }
    assert_eq!(temporaries(&env.path("out")), Vec::<String>::new());
}
