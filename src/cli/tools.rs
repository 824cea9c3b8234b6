//! The arguments and examples of the commands that serve quill to agents: `tools`, `call`,
//! `mcp` and `guide`.

use clap::{Args, ValueEnum};

pub(super) const TOOLS_EXAMPLES: &str = "\
Examples:
  quill tools --format openai > tools.json     # [{\"type\": \"function\", \"function\": {…}}]
  quill tools --format anthropic               # [{\"name\", \"description\", \"input_schema\"}]
  quill tools | jq '.[].name'                  # quill_read, quill_write, …

Tool names are quill_OP; argument keys are camelCase (quill call also takes snake_case and
kebab-case). The session, root and other global options are not arguments: set them on
`quill call`'s command line or in the environment.";

#[derive(Debug, Args)]
pub(crate) struct ToolsArgs {
    /// The shape of the definitions.
    #[arg(long, value_enum, default_value_t = ToolFormat::Json)]
    pub format: ToolFormat,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum ToolFormat {
    /// Chat Completions `tools`: {"type": "function", "function": {name, description, parameters}}.
    Openai,
    /// Messages API `tools`: {name, description, input_schema}.
    Anthropic,
    /// quill's own: {name, op, description, inputSchema}.
    Json,
}

pub(super) const CALL_EXAMPLES: &str = "\
Examples:
  echo '{\"tool\": \"quill_read\", \"arguments\": {\"path\": \"src/a.rs\"}}' | quill call
  quill --session agent-1 --root . call < request.json
  echo '{\"tool\":\"edit\",\"arguments\":{\"path\":\"a.rs\",\"edits\":[{\"old\":\"a\",\"new\":\"b\"}]}}' | quill call

The answer is always the JSON object of `quill --json OP …`. Keys are the tool's arguments
(`quill tools`) in any of camelCase, snake_case or kebab-case, and the aliases the flags take
(old_string, file_path, replace_all); write's content is `content`, edit's `edits` a JSON
array. `{\"name\", \"arguments\"}` (arguments as a JSON string too) and `{\"name\", \"input\"}`
are taken as well, so a model's tool call can be piped as it is.";

#[derive(Debug, Args)]
pub(crate) struct CallArgs {}

pub(super) const MCP_EXAMPLES: &str = "\
Examples:
  claude mcp add quill -- quill mcp                 # Claude Code: register the server
  quill --root ~/src/app mcp                        # confined to one directory
  quill --session agent-1 mcp                       # share the CLI's session agent-1

The server speaks MCP (JSON-RPC, one message per line) on stdin and stdout and logs to
stderr. Its tools are those `quill tools` prints, each run exactly as `quill call` runs it:
the result's structuredContent is the JSON answer, its text the answer a terminal shows.
The session is --session (or QUILL_SESSION), else one made for the connection (mcp-…);
baselines live in the state directory the CLI uses. --root (or QUILL_ROOT) confines every
path; without it, the client's root (MCP roots) does, when it names one. The server exits
when stdin closes.";

#[derive(Debug, Args)]
pub(crate) struct McpArgs {}

#[derive(Debug, Args)]
pub(crate) struct GuideArgs {}

pub(super) const GUIDE_EXAMPLES: &str = "Examples:\n  quill guide >> system-prompt.md";
