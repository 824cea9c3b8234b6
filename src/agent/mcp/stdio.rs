//! The stdio transport of `quill mcp`: one JSON-RPC message a line on stdin and stdout. It
//! replaces rmcp's own line transport for two things that one does not do: a request that
//! parses as JSON and has an `id` but is not a valid MCP request (`"params": "oops"`) is
//! answered with an error that carries that id — rmcp's answers `Invalid request` without
//! one (`id` omitted: `transport/async_rw.rs`, `receive`, the `Category::Data` arm), so a
//! client waiting on the id never learns its request failed — and the end of stdin is told
//! to the server (`Closed`), which gives the calls in flight their grace and then cancels
//! them, instead of rmcp's five-second drain.
//!
//! What it keeps from rmcp's: a line that is not JSON is ignored (answering it could start
//! an error storm with a peer that echoes), and so is a notification that does not parse
//! (nothing may answer a notification); a line longer than rmcp's limit (16 MiB) is dropped
//! without being held in memory; a leading BOM and a trailing `\r` are ignored. Every
//! dropped line is said on stderr. Messages are written whole, one at a time.

use std::sync::Arc;

use rmcp::RoleServer;
use rmcp::model::{
    ClientJsonRpcMessage, ErrorCode, ErrorData, NumberOrString, ServerJsonRpcMessage,
};
use rmcp::transport::Transport;
use rmcp::transport::async_rw::DEFAULT_MAX_LINE_LENGTH;
use serde_json::Value;
use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncWrite, AsyncWriteExt, BufReader};
use tokio::sync::{Mutex, watch};

/// Set once stdin has ended (and never again unset).
pub(super) type Closed = watch::Receiver<bool>;

/// The methods a client sends as requests: a request of one of these whose params do not fit
/// is `-32602 Invalid params`; any other invalid request is `-32600 Invalid request`.
pub(super) const METHODS: [&str; 13] = [
    "initialize",
    "ping",
    "tools/list",
    "tools/call",
    "prompts/list",
    "prompts/get",
    "resources/list",
    "resources/templates/list",
    "resources/read",
    "resources/subscribe",
    "resources/unsubscribe",
    "completion/complete",
    "logging/setLevel",
];

pub(super) struct Stdio<R, W> {
    read: BufReader<R>,
    /// The line read so far (kept across a cancelled `receive`).
    line: Vec<u8>,
    /// Inside a line longer than the limit: its bytes are dropped up to its newline.
    dropping: bool,
    write: Arc<Mutex<Option<W>>>,
    closed: watch::Sender<bool>,
}

/// A transport on `read` and `write`, and what says when `read` has ended.
pub(super) fn transport<R, W>(read: R, write: W) -> (Stdio<R, W>, Closed)
where
    R: AsyncRead + Unpin + Send,
    W: AsyncWrite + Unpin + Send + 'static,
{
    let (closed, watch) = watch::channel(false);
    let stdio = Stdio {
        read: BufReader::new(read),
        line: Vec::new(),
        dropping: false,
        write: Arc::new(Mutex::new(Some(write))),
        closed,
    };
    (stdio, watch)
}

/// One line read.
enum Line {
    Whole,
    TooLong,
    End,
}

impl<R, W> Stdio<R, W>
where
    R: AsyncRead + Unpin + Send,
    W: AsyncWrite + Unpin + Send + 'static,
{
    /// The next line into `self.line`, never more than the limit held. Cancel-safe: bytes are
    /// consumed only once copied (or dropped), and `self.line` keeps a partial line.
    async fn next_line(&mut self) -> std::io::Result<Line> {
        loop {
            let available = self.read.fill_buf().await?;
            if available.is_empty() {
                return Ok(Line::End);
            }
            let newline = available.iter().position(|b| *b == b'\n');
            let take = newline.map_or(available.len(), |i| i + 1);
            if !self.dropping && self.line.len() + take > DEFAULT_MAX_LINE_LENGTH {
                self.dropping = true;
                self.line = Vec::new();
            }
            if !self.dropping {
                self.line.extend_from_slice(&available[..take]);
            }
            self.read.consume(take);
            if newline.is_some() {
                return Ok(match std::mem::take(&mut self.dropping) {
                    true => Line::TooLong,
                    false => Line::Whole,
                });
            }
        }
    }

    /// Write one message (a refusal of this transport's own) at once.
    async fn answer(&mut self, message: ServerJsonRpcMessage) {
        let write = Arc::clone(&self.write);
        if let Err(e) = write_message(&write, &message).await {
            eprintln!("quill mcp: could not write an answer: {e}");
        }
    }
}

/// What one line of the client is.
enum Verdict {
    Message(Box<ClientJsonRpcMessage>),
    /// Answer this, and read on.
    Refuse(Box<ServerJsonRpcMessage>),
    /// Nothing to answer: say why on stderr, and read on.
    Ignore(String),
}

/// Judge one line (without its newline).
fn judge(line: &[u8]) -> Verdict {
    const BOM: &[u8] = b"\xEF\xBB\xBF";
    let line = line.strip_prefix(BOM).unwrap_or(line);
    let line = line.strip_suffix(b"\r").unwrap_or(line);
    let error = match serde_json::from_slice::<ClientJsonRpcMessage>(line) {
        Ok(m) => return Verdict::Message(Box::new(m)),
        Err(e) => e,
    };
    let value: Value = match serde_json::from_slice(line) {
        Ok(v) => v,
        Err(e) => return Verdict::Ignore(format!("a line that is not JSON ({e})")),
    };
    let Value::Object(object) = &value else {
        return Verdict::Refuse(Box::new(refusal(
            None,
            ErrorCode::INVALID_REQUEST,
            format!("a JSON-RPC message is a JSON object, not {}", what(&value)),
        )));
    };
    let method = object.get("method").and_then(Value::as_str);
    let id = match object.get("id") {
        None if method.is_some() => {
            return Verdict::Ignore(format!(
                "a notification `{}` that does not fit ({error})",
                method.unwrap_or_default()
            ));
        }
        None | Some(Value::Null) => None,
        Some(id) => request_id(id),
    };
    if object.contains_key("result") || object.contains_key("error") {
        return Verdict::Ignore(format!("a response that does not fit ({error})"));
    }
    let params = object.get("params");
    let (code, message) = match method {
        Some(m) if params.is_some_and(|p| !p.is_object()) && METHODS.contains(&m) => (
            ErrorCode::INVALID_PARAMS,
            format!(
                "the params of `{m}` must be a JSON object, not {}",
                what(params.unwrap_or(&Value::Null))
            ),
        ),
        Some(m) if object.get("jsonrpc") == Some(&Value::from("2.0")) && METHODS.contains(&m) => (
            ErrorCode::INVALID_PARAMS,
            format!("the params of `{m}` do not fit: {error}"),
        ),
        Some(_) if object.get("jsonrpc") != Some(&Value::from("2.0")) => (
            ErrorCode::INVALID_REQUEST,
            "a request needs \"jsonrpc\": \"2.0\"".to_string(),
        ),
        Some(m) => (
            ErrorCode::INVALID_REQUEST,
            format!("the request `{m}` does not fit: {error}"),
        ),
        None => (
            ErrorCode::INVALID_REQUEST,
            "a request needs a \"method\" that is a string".to_string(),
        ),
    };
    Verdict::Refuse(Box::new(refusal(id, code, message)))
}

/// A JSON-RPC id: a string, or a whole number within i64 (anything else cannot be echoed).
fn request_id(id: &Value) -> Option<NumberOrString> {
    match id {
        Value::String(s) => Some(NumberOrString::String(Arc::from(s.as_str()))),
        Value::Number(n) => n.as_i64().map(NumberOrString::Number),
        _ => None,
    }
}

fn refusal(id: Option<NumberOrString>, code: ErrorCode, message: String) -> ServerJsonRpcMessage {
    ServerJsonRpcMessage::error(ErrorData::new(code, message, None), id)
}

fn what(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array (batches are not part of MCP)",
        Value::Object(_) => "an object",
    }
}

/// One message and its newline, whole, under the lock (messages are sent concurrently).
async fn write_message<W: AsyncWrite + Unpin>(
    write: &Mutex<Option<W>>,
    message: &ServerJsonRpcMessage,
) -> std::io::Result<()> {
    let mut bytes = serde_json::to_vec(message)?;
    bytes.push(b'\n');
    let mut slot = write.lock().await;
    let Some(w) = slot.as_mut() else {
        return Err(std::io::Error::new(
            std::io::ErrorKind::NotConnected,
            "the connection is closed",
        ));
    };
    w.write_all(&bytes).await?;
    w.flush().await
}

impl<R, W> Transport<RoleServer> for Stdio<R, W>
where
    R: AsyncRead + Unpin + Send,
    W: AsyncWrite + Unpin + Send + 'static,
{
    type Error = std::io::Error;

    fn send(
        &mut self,
        item: ServerJsonRpcMessage,
    ) -> impl Future<Output = Result<(), Self::Error>> + Send + 'static {
        let write = Arc::clone(&self.write);
        async move { write_message(&write, &item).await }
    }

    async fn receive(&mut self) -> Option<ClientJsonRpcMessage> {
        loop {
            match self.next_line().await {
                Ok(Line::Whole) => {}
                Ok(Line::TooLong) => {
                    eprintln!(
                        "quill mcp: dropped a message longer than {DEFAULT_MAX_LINE_LENGTH} bytes"
                    );
                    continue;
                }
                Ok(Line::End) => {
                    self.closed.send_replace(true);
                    return None;
                }
                Err(e) => {
                    eprintln!("quill mcp: stdin failed: {e}");
                    self.closed.send_replace(true);
                    return None;
                }
            }
            let line = std::mem::take(&mut self.line);
            let body = line.strip_suffix(b"\n").unwrap_or(&line);
            if body.iter().all(u8::is_ascii_whitespace) {
                continue;
            }
            match judge(body) {
                Verdict::Message(m) => return Some(*m),
                Verdict::Refuse(answer) => {
                    if let Some(e) = answer.clone().into_error() {
                        eprintln!("quill mcp: refused a request: {}", e.0.message);
                    }
                    self.answer(*answer).await;
                }
                Verdict::Ignore(why) => eprintln!("quill mcp: ignored {why}"),
            }
        }
    }

    async fn close(&mut self) -> Result<(), Self::Error> {
        if let Some(mut w) = self.write.lock().await.take() {
            w.flush().await?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn answer_of(line: &str) -> Option<Value> {
        match judge(line.as_bytes()) {
            Verdict::Refuse(m) => Some(serde_json::to_value(&*m).unwrap()),
            _ => None,
        }
    }

    #[test]
    fn a_malformed_request_is_answered_with_its_id() {
        let a =
            answer_of(r#"{"jsonrpc":"2.0","id":7,"method":"tools/call","params":"oops"}"#).unwrap();
        assert_eq!(
            (&a["id"], &a["error"]["code"]),
            (&7.into(), &(-32602).into())
        );
        let a =
            answer_of(r#"{"jsonrpc":"2.0","id":"x","method":"tools/list","params":[1]}"#).unwrap();
        assert_eq!(a["id"], "x");
        let a = answer_of(r#"{"jsonrpc":"1.0","id":3,"method":"ping"}"#).unwrap();
        assert_eq!(
            (&a["id"], &a["error"]["code"]),
            (&3.into(), &(-32600).into())
        );
        let a = answer_of(r#"{"jsonrpc":"2.0","id":4.5,"method":"ping"}"#).unwrap();
        assert!(a.get("id").is_none(), "{a}");
        let a = answer_of("[1, 2]").unwrap();
        assert_eq!(a["error"]["code"], -32600);
    }

    #[test]
    fn what_cannot_be_answered_is_ignored() {
        for line in [
            "not json",
            r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":7}"#,
            r#"{"jsonrpc":"2.0","id":1,"result":7,"error":{}}"#,
        ] {
            assert!(
                matches!(judge(line.as_bytes()), Verdict::Ignore(_)),
                "{line}"
            );
        }
        assert!(matches!(
            judge(br#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#),
            Verdict::Message(_)
        ));
        assert!(matches!(
            judge(b"\xEF\xBB\xBF{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}\r"),
            Verdict::Message(_)
        ));
    }
}
