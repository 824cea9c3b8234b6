//! The command line parser built only as far as one command line needs: quill's root and
//! global options, the subcommand the line names with all its arguments, and every other
//! subcommand with only its name and help line (clap's `defer`: building the arguments of all
//! 17 subcommands, and freeing them, was a fifth of a short call's time — 0.3 ms of an edit).
//! It says exactly what `command()` says: a test builds it for every subcommand and compares
//! each help text, usage and argument with the derived one's.

use clap::{Args, Command};

use super::{
    ABOUT, GlobalArgs, LONG_ABOUT, MAIN_EXAMPLES, TERM_WIDTH, VERSION, grep_type_names,
    hidden_guards, read_vocabulary,
};
use super::{
    APPLY_ABOUT, APPLY_EXAMPLES, CALL_ABOUT, CALL_EXAMPLES, COMPLETIONS_ABOUT,
    COMPLETIONS_EXAMPLES, EDIT_ABOUT, EDIT_EXAMPLES, GLOB_ABOUT, GLOB_EXAMPLES, GREP_ABOUT,
    GREP_EXAMPLES, GUIDE_ABOUT, GUIDE_EXAMPLES, MAN_ABOUT, MAN_EXAMPLES, MCP_ABOUT, MCP_EXAMPLES,
    READ_ABOUT, READ_EXAMPLES, RM_ABOUT, RM_EXAMPLES, SCHEMA_ABOUT, SCHEMA_EXAMPLES, STATE_ABOUT,
    STATE_EXAMPLES, TOOLS_ABOUT, TOOLS_EXAMPLES, TRANSFER_ABOUT, TRANSFER_EXAMPLES, UNDO_ABOUT,
    UNDO_EXAMPLES, WRITE_ABOUT, WRITE_EXAMPLES,
};
use super::{
    ApplyArgs, CallArgs, CompletionsArgs, EditArgs, GlobArgs, GrepArgs, GuideArgs, ManArgs,
    McpArgs, ReadArgs, RmArgs, SchemaArgs, StateArgs, ToolsArgs, TransferArgs, UndoArgs, WriteArgs,
};

/// One subcommand: its name, help line, examples, and its arguments as `command()` has them.
struct Sub {
    name: &'static str,
    about: &'static str,
    examples: &'static str,
    args: fn(Command) -> Command,
}

/// The subcommands in `Command`'s order (the order help lists them in).
const SUBS: [Sub; 17] = [
    Sub {
        name: "read",
        about: READ_ABOUT,
        examples: READ_EXAMPLES,
        args: |c| read_vocabulary(ReadArgs::augment_args(c)),
    },
    Sub {
        name: "write",
        about: WRITE_ABOUT,
        examples: WRITE_EXAMPLES,
        args: WriteArgs::augment_args,
    },
    Sub {
        name: "edit",
        about: EDIT_ABOUT,
        examples: EDIT_EXAMPLES,
        args: EditArgs::augment_args,
    },
    Sub {
        name: "glob",
        about: GLOB_ABOUT,
        examples: GLOB_EXAMPLES,
        args: GlobArgs::augment_args,
    },
    Sub {
        name: "grep",
        about: GREP_ABOUT,
        examples: GREP_EXAMPLES,
        args: |c| grep_type_names(GrepArgs::augment_args(c)),
    },
    Sub {
        name: "transfer",
        about: TRANSFER_ABOUT,
        examples: TRANSFER_EXAMPLES,
        args: TransferArgs::augment_args,
    },
    Sub {
        name: "apply",
        about: APPLY_ABOUT,
        examples: APPLY_EXAMPLES,
        args: ApplyArgs::augment_args,
    },
    Sub {
        name: "undo",
        about: UNDO_ABOUT,
        examples: UNDO_EXAMPLES,
        args: UndoArgs::augment_args,
    },
    Sub {
        name: "rm",
        about: RM_ABOUT,
        examples: RM_EXAMPLES,
        args: RmArgs::augment_args,
    },
    Sub {
        name: "state",
        about: STATE_ABOUT,
        examples: STATE_EXAMPLES,
        args: StateArgs::augment_args,
    },
    Sub {
        name: "tools",
        about: TOOLS_ABOUT,
        examples: TOOLS_EXAMPLES,
        args: ToolsArgs::augment_args,
    },
    Sub {
        name: "call",
        about: CALL_ABOUT,
        examples: CALL_EXAMPLES,
        args: CallArgs::augment_args,
    },
    Sub {
        name: "mcp",
        about: MCP_ABOUT,
        examples: MCP_EXAMPLES,
        args: McpArgs::augment_args,
    },
    Sub {
        name: "guide",
        about: GUIDE_ABOUT,
        examples: GUIDE_EXAMPLES,
        args: GuideArgs::augment_args,
    },
    Sub {
        name: "completions",
        about: COMPLETIONS_ABOUT,
        examples: COMPLETIONS_EXAMPLES,
        args: CompletionsArgs::augment_args,
    },
    Sub {
        name: "man",
        about: MAN_ABOUT,
        examples: MAN_EXAMPLES,
        args: ManArgs::augment_args,
    },
    Sub {
        name: "schema",
        about: SCHEMA_ABOUT,
        examples: SCHEMA_EXAMPLES,
        args: SchemaArgs::augment_args,
    },
];

/// `command()`'s root alone: quill's settings and the global options, no subcommand (what
/// finding the subcommand word of a command line needs).
pub(crate) fn root() -> Command {
    // After the global options: their struct's doc comment would be the about text.
    GlobalArgs::augment_args(Command::new("quill"))
        .version(VERSION)
        .about(ABOUT)
        .long_about(LONG_ABOUT)
        .after_help(MAIN_EXAMPLES)
        .propagate_version(true)
        .max_term_width(TERM_WIDTH)
        .subcommand_required(true)
        .arg_required_else_help(true)
}

/// `command()` for a command line whose subcommand is `op`: `root` with `op` built whole and
/// every other subcommand named only (built if something asks for it). None when `op` is no
/// subcommand's name (an alias, a typo: the caller builds `command()`).
pub(crate) fn command_for(root: Command, op: &str) -> Option<Command> {
    let used = SUBS.iter().position(|s| s.name == op)?;
    // `completions` and `man` carry hidden copies of the guard options, which must be there
    // before the globals are propagated (a deferred one would get both); they are small.
    let guards = hidden_guards(&root);
    let subs = SUBS.iter().enumerate().map(|(i, s)| {
        let sub = Command::new(s.name).about(s.about).after_help(s.examples);
        match s.name {
            "completions" | "man" => (s.args)(sub).args(guards.iter().cloned()),
            _ if i == used => (s.args)(sub),
            _ => sub.defer(s.args),
        }
    });
    Some(root.subcommands(subs))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Everything a user or a caller can see of a built command, recursively.
    fn describe(cmd: &mut Command, out: &mut Vec<String>) {
        out.push(format!("== {}", cmd.get_name()));
        out.push(cmd.render_long_help().to_string());
        out.push(cmd.render_help().to_string());
        out.push(cmd.render_usage().to_string());
        out.push(format!("{:?}", cmd.get_about().map(ToString::to_string)));
        // As a set: a deferred subcommand gets the global options before its own (help
        // orders them by display order either way, compared above).
        let mut args: Vec<String> = cmd
            .get_arguments()
            .map(|a| {
                format!(
                    "{} {:?} {:?} {:?} {} {} {:?} {:?}",
                    a.get_id(),
                    a.get_long(),
                    a.get_short(),
                    a.get_all_aliases(),
                    a.is_hide_set(),
                    a.is_global_set(),
                    a.get_value_names(),
                    a.get_possible_values()
                        .iter()
                        .map(|v| v.get_name().to_string())
                        .collect::<Vec<_>>(),
                )
            })
            .collect();
        args.sort();
        out.extend(args);
        // By name: `command()` re-adds `read` last (its order in help is its display order).
        let mut subs: Vec<&mut Command> = cmd.get_subcommands_mut().collect();
        subs.sort_by_key(|s| s.get_name().to_string());
        for sub in subs {
            // The `help` subcommand's tree copies the subcommands as they were when the root
            // was built (a deferred `state` without its own); `quill help …` parses with
            // `command()`, since `help` is not in `SUBS`.
            if sub.get_name() == "help" {
                continue;
            }
            describe(sub, out);
        }
    }

    #[test]
    fn each_lazy_command_says_what_the_derived_one_says() {
        let mut full = crate::cli::command();
        full.build();
        let mut want = Vec::new();
        describe(&mut full, &mut want);
        let mut names: Vec<&str> = full.get_subcommands().map(|s| s.get_name()).collect();
        let mut ours: Vec<&str> = SUBS.iter().map(|s| s.name).chain(["help"]).collect();
        names.sort_unstable();
        ours.sort_unstable();
        assert_eq!(names, ours);
        for sub in &SUBS {
            let mut lazy = command_for(root(), sub.name).unwrap();
            lazy.build();
            let mut got = Vec::new();
            describe(&mut lazy, &mut got);
            let heads = |v: &[String]| {
                v.iter()
                    .filter(|l| l.starts_with("== "))
                    .cloned()
                    .collect::<Vec<_>>()
            };
            assert_eq!(heads(&got), heads(&want), "built for {}", sub.name);
            for (g, w) in got.iter().zip(&want) {
                assert_eq!(g, w, "built for {}", sub.name);
            }
            assert_eq!(got.len(), want.len(), "{}", sub.name);
        }
        assert!(command_for(root(), "cat").is_none());
    }

    #[test]
    fn only_the_named_subcommand_is_built() {
        let cmd = command_for(root(), "edit").unwrap();
        let args = |name: &str| cmd.find_subcommand(name).unwrap().get_arguments().count();
        assert!(args("edit") > 3);
        assert_eq!(args("grep"), 0);
        command_for(root(), "grep").unwrap().debug_assert();
    }
}
