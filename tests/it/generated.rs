//! docs/commands/completions.md, man.md: the committed completions and man pages are what the binary generates now.
//! Regenerate with `QUILL_BLESS=1 cargo test generated`.

use std::fs;
use std::path::Path;

use crate::util::*;

/// The committed `path` is `fresh`, else fail naming the command that regenerates it (with
/// `QUILL_BLESS` set, write it instead).
pub fn check_generated(path: &Path, fresh: &str) {
    if std::env::var_os("QUILL_BLESS").is_some() {
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(path, fresh).unwrap();
        return;
    }
    let committed = fs::read_to_string(path).unwrap_or_default();
    if committed != fresh {
        fail(&format!(
            "{} is stale: run `QUILL_BLESS=1 cargo test --test it generated` and commit\n{}",
            path.display(),
            text_diff(&committed, fresh)
        ));
    }
}

#[test]
fn completions_are_fresh() {
    let env = TestEnv::new();
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    for (shell, file) in [
        ("bash", "quill.bash"),
        ("zsh", "_quill"),
        ("fish", "quill.fish"),
        ("elvish", "quill.elv"),
        ("powershell", "_quill.ps1"),
    ] {
        let out = env.text(&["completions", shell]);
        out.ok();
        check_generated(&root.join("completions").join(file), &out.stdout);
    }
}

#[test]
fn man_pages_are_fresh() {
    let env = TestEnv::new();
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let out = env.text(&["man"]);
    out.ok().stdout_has(".TH quill");
    check_generated(&root.join("man/quill.1"), &out.stdout);
    for cmd in [
        "read",
        "write",
        "edit",
        "apply",
        "glob",
        "grep",
        "transfer",
        "undo",
        "rm",
        "state",
        "tools",
        "call",
        "mcp",
        "guide",
        "completions",
        "man",
        "schema",
    ] {
        let out = env.text(&["man", cmd]);
        out.ok();
        check_generated(&root.join(format!("man/quill-{cmd}.1")), &out.stdout);
    }
}
