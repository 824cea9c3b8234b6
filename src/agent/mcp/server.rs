//! The rmcp side of `quill mcp`: the runtime, the handler that lists the tools and runs a
//! call on a blocking thread, the client's roots asked for once (again after the client says
//! they changed), progress notifications for a client that sent a progress token, and the
//! watch that turns a cancelled request or a caught signal into the call's `interrupted`.
// MCP roots are deprecated in the newest protocol (2026-07-28), which this server does not
// offer; for every version it does, they are how a client names its workspace.
#![allow(deprecated)]

use std::borrow::Cow;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, CustomRequest,
    CustomResult, ErrorCode, Implementation, InitializeRequestParams, InitializeResult,
    ListToolsResult, PaginatedRequestParams, ProgressNotificationParam, ProgressToken,
    ProtocolVersion, ServerCapabilities, ServerConfig, Tool, ToolAnnotations,
};
use rmcp::service::{NotificationContext, RequestContext};
use rmcp::{ErrorData, Peer, RoleServer, ServerHandler, ServiceExt};
use serde_json::Value;

use super::RunCall;
use super::roots::{self, Confinement};
use super::stdio::{self, Closed};
use crate::agent::{self, call, tools};
use crate::cli::GlobalArgs;
use crate::error::exit;
use crate::output::Captured;
use crate::output::progress::ProgressSink;
use crate::settings::Origin;
use crate::signals;

/// How long the client may take to list its roots.
const ROOTS_WAIT: Duration = Duration::from_secs(10);
/// How long one progress notification may wait for the connection.
const PROGRESS_WAIT: Duration = Duration::from_secs(2);
/// Once stdin has closed, how long a call still running may go on before it is cancelled.
/// Clients wait 2 s for the server to exit after closing its stdin, then send SIGTERM (the
/// TypeScript and Python SDKs): a call finishes within this, or is abandoned cleanly (as
/// Ctrl-C abandons one: no temporary file left) well before the signal.
pub(crate) const EOF_GRACE: Duration = Duration::from_secs(1);
/// What the server tells the client about itself.
const INSTRUCTIONS: &str = "quill's file tools with guards: a file can be changed only after quill_read has read it in this session, and only while it is still what was read (else `not_read`: read it; or `stale`: when error.change shows the diff with resend true, send the same edit again, else read it again; a server started with --merge lands edits clear of the change in one call). Every answer is quill's JSON object (structuredContent) and the text a terminal shows; a failure has isError with error.kind and error.hint naming the next call.";

pub(super) fn serve(global: &GlobalArgs, run: RunCall) -> u8 {
    let mut global = global.clone();
    let made = global.session.is_none() && env_var("QUILL_SESSION").is_none();
    if made {
        global.session = Some(format!("mcp-{:08x}", fastrand::u32(..)));
    }
    let session = global
        .session
        .clone()
        .or_else(|| env_var("QUILL_SESSION"))
        .unwrap_or_default();
    let fixed = global
        .root
        .clone()
        .filter(|r| !r.as_os_str().is_empty())
        .or_else(|| env_var("QUILL_ROOT").map(PathBuf::from))
        .map(|r| Confinement::from_flag(&r));
    let cwd = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("/"));
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("quill: error: cannot start the MCP server's runtime: {e}");
            return exit::SYSTEM;
        }
    };
    // SIGINT and SIGTERM (caught by the binary, `app::own`): every call in flight is
    // abandoned cleanly, then the server stops.
    eprintln!(
        "quill mcp: session '{session}'{}; {}",
        if made {
            " (made for this connection)"
        } else {
            ""
        },
        match &fixed {
            Some(c) => c.said.clone(),
            None => "confinement: the client's roots, if it offers them".into(),
        }
    );
    let code = runtime.block_on(async move {
        let (read, write) = rmcp::transport::stdio_pipes();
        let (transport, closed) = stdio::transport(read, write);
        let server = Server {
            global: Arc::new(global),
            run,
            cwd,
            tools: Arc::new(definitions()),
            confinement: Arc::new(tokio::sync::Mutex::new(fixed.clone())),
            fixed: fixed.is_some(),
            closed,
        };
        let running = tokio::select! {
            started = server.serve(transport) => match started {
                Ok(running) => running,
                Err(e) => {
                    eprintln!("quill mcp: no session was started: {e}");
                    return exit::USAGE;
                }
            },
            // A signal before the client's `initialize`: nothing runs yet.
            () = signalled() => return exit::SUCCESS,
        };
        let stop = running.cancellation_token();
        let watch = tokio::spawn(async move {
            signalled().await;
            stop.cancel();
        });
        let _ = running.waiting().await;
        watch.abort();
        exit::SUCCESS
    });
    // Every call has answered by now (stdin closed: within `EOF_GRACE`, cancelled if need
    // be); what may be left is a read of stdin blocked on a thread (a signal's end).
    runtime.shutdown_timeout(Duration::from_secs(1));
    signals::die_if_caught();
    code
}

/// Resolves `EOF_GRACE` after stdin has closed.
async fn grace_after_the_end(mut closed: Closed) {
    // An error: the transport is gone, which is the end too.
    let _ = closed.wait_for(|ended| *ended).await;
    tokio::time::sleep(EOF_GRACE).await;
}

/// Resolves once SIGINT or SIGTERM has arrived.
async fn signalled() {
    while signals::caught().is_none() {
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

fn env_var(name: &str) -> Option<String> {
    std::env::var(name).ok().filter(|v| !v.is_empty())
}

/// `quill tools`' definitions (`--format json`) as MCP tools.
fn definitions() -> Vec<Tool> {
    tools::definitions()
        .into_iter()
        .map(|d| {
            let schema = match d.parameters {
                Value::Object(m) => m,
                _ => Default::default(),
            };
            let hints = ToolAnnotations::new()
                .read_only(d.hints.read_only)
                .destructive(d.hints.destructive)
                .idempotent(d.hints.idempotent)
                .open_world(d.hints.open_world);
            Tool::new(d.name, d.description, Arc::new(schema)).with_annotations(hints)
        })
        .collect()
}

#[derive(Clone)]
struct Server {
    /// `quill mcp`'s global options, the session filled in: every call's.
    global: Arc<GlobalArgs>,
    run: RunCall,
    cwd: PathBuf,
    tools: Arc<Vec<Tool>>,
    /// `None` until decided: `--root`, or the client's roots once asked for.
    confinement: Arc<tokio::sync::Mutex<Option<Confinement>>>,
    /// `--root` (or `QUILL_ROOT`) decided it: the client's roots are never asked for.
    fixed: bool,
    /// Set once stdin has closed: the calls in flight then have `EOF_GRACE` to finish.
    closed: Closed,
}

impl Server {
    /// The confinement of this connection: decided at the first call (asking the client for
    /// its roots when it offers them), again after the client says its roots changed.
    async fn confinement(&self, context: &RequestContext<RoleServer>) -> Confinement {
        let mut slot = self.confinement.lock().await;
        if let Some(c) = slot.as_ref() {
            return c.clone();
        }
        let offers = context
            .peer
            .peer_info()
            .is_some_and(|p| p.capabilities.roots.is_some());
        let decided = if !offers {
            Confinement::none("the client offers no roots")
        } else {
            match tokio::time::timeout(ROOTS_WAIT, context.peer.list_roots()).await {
                Ok(Ok(list)) => {
                    let uris: Vec<String> = list.roots.into_iter().map(|r| r.uri).collect();
                    roots::from_client(&uris, &self.cwd)
                }
                Ok(Err(e)) => Confinement::none(&format!("the client's roots/list failed: {e}")),
                Err(_) => Confinement::none("the client did not list its roots in time"),
            }
        };
        eprintln!("quill mcp: {}", decided.said);
        *slot = Some(decided.clone());
        decided
    }

    async fn call(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResult, ErrorData> {
        let name = request.name.to_string();
        let Some(op) = agent::op_of(&name) else {
            let names: Vec<&str> = self.tools.iter().map(|t| t.name.as_ref()).collect();
            return Err(ErrorData::invalid_params(
                format!("no tool named `{name}`: the tools are {}", names.join(", ")),
                None,
            ));
        };
        let arguments = request.arguments.unwrap_or_default();
        let confinement = self.confinement(&context).await;
        let mut global = (*self.global).clone();
        if let Some(root) = &confinement.root {
            global.root = Some(root.clone());
        }
        let progress = context
            .meta
            .get_progress_token()
            .map(|token| progress_sink(context.peer.clone(), token, self.closed.clone()));
        let cancel = Arc::new(AtomicBool::new(false));
        let flag = Arc::clone(&cancel);
        let ct = context.ct.clone();
        let closed = self.closed.clone();
        let watch = tokio::spawn(async move {
            tokio::select! {
                () = ct.cancelled() => {}
                () = grace_after_the_end(closed) => {}
            }
            flag.store(true, Ordering::Relaxed);
        });
        let run = self.run;
        let cwd = confinement.cwd.clone();
        let job = tokio::task::spawn_blocking(move || {
            signals::cancellable(cancel, || {
                let words = match call::words(op, &arguments) {
                    Ok(words) => words,
                    Err(e) => return crate::output::capture_refusal(op, e),
                };
                let (argv, stdin) = call::argv_of(&global, op, words);
                let origin = Origin {
                    argv: argv.clone(),
                    stdin: Some(stdin),
                    embedded: true,
                    progress,
                    cwd,
                };
                run(argv, origin)
            })
        });
        let captured = job.await;
        watch.abort();
        let captured = captured.map_err(|e| {
            ErrorData::internal_error(format!("the call did not finish: {e}"), None)
        })?;
        Ok(result(captured))
    }
}

/// A captured answer as a tool result: the JSON object as `structuredContent`, the text a
/// terminal shows as the text content (the JSON itself when that text is empty), `isError`
/// for a failure.
fn result(c: Captured) -> CallToolResult {
    let json: Value = serde_json::from_slice(&c.json).unwrap_or(Value::Null);
    let text = match String::from_utf8_lossy(&c.text).trim_end() {
        "" => String::from_utf8_lossy(&c.json).trim_end().to_string(),
        t => t.to_string(),
    };
    let mut r = if c.ok {
        CallToolResult::structured(json)
    } else {
        CallToolResult::structured_error(json)
    };
    r.content = vec![ContentBlock::text(text)];
    r
}

/// Progress of a long copy as `notifications/progress` with the client's token; each waits
/// for the connection at most `PROGRESS_WAIT`, and none is sent once stdin has closed (the
/// server then no longer sends notifications, and a copy held waiting for one would not see
/// its cancellation).
fn progress_sink(peer: Peer<RoleServer>, token: ProgressToken, closed: Closed) -> ProgressSink {
    let handle = tokio::runtime::Handle::current();
    Arc::new(move |bytes, total| {
        if *closed.borrow() {
            return;
        }
        let note = ProgressNotificationParam::new(token.clone(), bytes as f64)
            .with_total(total as f64)
            .with_message(format!("{bytes} of {total} bytes"));
        let mut end = closed.clone();
        handle.block_on(async {
            tokio::select! {
                _ = tokio::time::timeout(PROGRESS_WAIT, peer.notify_progress(note)) => {}
                _ = end.wait_for(|ended| *ended) => {}
            }
        });
    })
}

impl ServerHandler for Server {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(Implementation::new("quill", env!("CARGO_PKG_VERSION")))
            .with_instructions(INSTRUCTIONS)
            .with_protocol_version(ProtocolVersion::V_2025_11_25)
    }

    /// Up to 2025-11-25: the next version has no roots and no requests to the client.
    fn supported_protocol_versions(&self) -> Cow<'static, [ProtocolVersion]> {
        Cow::Borrowed(ProtocolVersion::known_up_to(&ProtocolVersion::V_2025_11_25))
    }

    async fn initialize(
        &self,
        request: InitializeRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<InitializeResult, ErrorData> {
        eprintln!(
            "quill mcp: client {} {}",
            request.client_info.name, request.client_info.version
        );
        context.peer.set_peer_info(request.clone());
        self.negotiate_initialize(&request)
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        Ok(ListToolsResult::with_all_items(self.tools.to_vec()))
    }

    fn get_tool(&self, name: &str) -> Option<Tool> {
        self.tools.iter().find(|t| t.name == name).cloned()
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        self.call(request, context)
            .await
            .map(CallToolResponse::from)
    }

    /// The client's roots changed: the next call asks for them again (never under `--root`).
    async fn on_roots_list_changed(&self, _context: NotificationContext<RoleServer>) {
        if !self.fixed {
            *self.confinement.lock().await = None;
        }
    }

    /// A request of a method MCP has whose params do not fit (a `tools/call` without a
    /// string `name`) reaches here: say so as an invalid-params error rather than "method not
    /// found".
    async fn on_custom_request(
        &self,
        request: CustomRequest,
        _context: RequestContext<RoleServer>,
    ) -> Result<CustomResult, ErrorData> {
        if request.method == "tools/call" {
            return Err(ErrorData::invalid_params(
                "tools/call takes {\"name\": TOOL, \"arguments\": {...}}",
                None,
            ));
        }
        if stdio::METHODS.contains(&request.method.as_str()) {
            return Err(ErrorData::invalid_params(
                format!("the params of `{}` do not fit", request.method),
                None,
            ));
        }
        Err(ErrorData::new(
            ErrorCode::METHOD_NOT_FOUND,
            format!("no method {}", request.method),
            None,
        ))
    }
}
