//! `quill completions SHELL` and `quill man [COMMAND]`: generated from the clap definitions in
//! `cli`, the one source of truth. The committed copies under `completions/` and `man/` are
//! checked against these by a test.

use clap::CommandFactory;

use crate::cli::{Cli, CompletionsArgs, ManArgs};
use crate::error::{Error, Result};
use crate::report::Report;

pub fn completions(args: &CompletionsArgs) -> Result<Report> {
    Ok(Report::Generated(completion_script(args.shell)))
}

pub fn completion_script(shell: clap_complete::Shell) -> String {
    let mut cmd = Cli::command();
    let mut out = Vec::new();
    clap_complete::generate(shell, &mut cmd, "quill", &mut out);
    String::from_utf8_lossy(&out).into_owned()
}

pub fn man(args: &ManArgs) -> Result<Report> {
    man_page(args.command.as_deref()).map(Report::Generated)
}

/// The roff page of quill, or of one subcommand (`quill-edit(1)`).
pub fn man_page(command: Option<&str>) -> Result<String> {
    let root = Cli::command();
    let cmd = match command {
        None => root,
        Some(name) => {
            let sub = root
                .get_subcommands()
                .find(|c| c.get_name() == name)
                .cloned()
                .ok_or_else(|| Error::invalid_argument(format!("no command named {name:?}")))?;
            sub.name(format!("quill-{name}"))
        }
    };
    let mut out = Vec::new();
    clap_mangen::Man::new(cmd)
        .render(&mut out)
        .map_err(|e| Error::invalid_argument(e.to_string()))?;
    Ok(String::from_utf8_lossy(&out).into_owned())
}
