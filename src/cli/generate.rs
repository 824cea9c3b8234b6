//! The arguments and examples of the commands that print quill's reference: `completions`,
//! `man` and `schema`.

use clap::Args;

pub(super) const COMPLETIONS_EXAMPLES: &str = "Examples:\n  quill completions bash > ~/.local/share/bash-completion/completions/quill\n  quill completions zsh > ~/.zfunc/_quill";
pub(super) const MAN_EXAMPLES: &str =
    "Examples:\n  quill man | man -l -\n  quill man edit > quill-edit.1";

#[derive(Debug, Args)]
pub(crate) struct CompletionsArgs {
    /// The shell.
    #[arg(value_enum)]
    pub shell: clap_complete::Shell,
}

#[derive(Debug, Args)]
pub(crate) struct ManArgs {
    /// A subcommand's page instead of the main one.
    pub command: Option<String>,
}

pub(super) const SCHEMA_EXAMPLES: &str = "\
Examples:
  quill schema edit > edit.schema.json      # what `quill --json edit` answers on success
  quill schema error                        # the failure object of every command
  quill schema | jq 'keys'                  # all of them, keyed by name

The same files are committed under schema/ in quill's repository.";

#[derive(Debug, Args)]
pub(crate) struct SchemaArgs {
    /// The op (read, write, edit, undo, glob, grep, transfer, state, version), `error`, or
    /// `progress` (transfer's JSON progress lines); without it, every schema keyed by name.
    #[arg(value_parser = clap::builder::PossibleValuesParser::new(crate::schema::NAMES))]
    pub name: Option<String>,
}
