//! The README's 60-second tour is a script that runs: this test takes the first ```console
//! block after "## A 60-second tour", runs every `$ ` line with bash in a fresh directory
//! (quill on PATH, a private state directory, the tour's directory shown as /tmp/tour), and
//! checks that each command prints exactly the lines the README shows under it.

use std::path::Path;
use std::process::Command;

use crate::util::*;

/// (command, expected output) pairs of the tour's console block.
fn tour_steps(readme: &str) -> Vec<(String, String)> {
    let start = readme
        .find("## A 60-second tour")
        .expect("the README has a tour");
    let block = &readme[start..];
    let open = block.find("```console\n").expect("a console block") + "```console\n".len();
    let close = block[open..].find("\n```").expect("the block ends") + open;
    let mut steps: Vec<(String, String)> = Vec::new();
    for line in block[open..close].lines() {
        if let Some(cmd) = line.strip_prefix("$ ") {
            steps.push((cmd.to_string(), String::new()));
        } else if let Some((_, out)) = steps.last_mut() {
            out.push_str(line);
            out.push('\n');
        } else {
            panic!("output before the first command: {line:?}");
        }
    }
    for (_, out) in &mut steps {
        // A blank line separates the tour's paragraphs; it is not output.
        while out.ends_with("\n\n") || out == "\n" {
            out.pop();
        }
    }
    steps
}

#[test]
fn the_readme_tour_runs_as_written() {
    let readme = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md"))
        .expect("README.md");
    let steps = tour_steps(&readme);
    assert!(steps.len() >= 8, "the tour has its steps");
    let env = TestEnv::new();
    let bin_dir = Path::new(BIN).parent().unwrap();
    let path = format!(
        "{}:{}",
        bin_dir.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let shown = env.dir.to_str().unwrap().to_string();
    for (cmd, want) in &steps {
        let out = Command::new("bash")
            .args(["-c", &format!("exec 2>&1\n{cmd}")])
            .current_dir(&env.dir)
            .env_clear()
            .env("PATH", &path)
            .env("HOME", &env.dir)
            .env("QUILL_STATE_DIR", &env.state)
            .output()
            .unwrap();
        let got = String::from_utf8_lossy(&out.stdout).replace(&shown, "/tmp/tour");
        if &got != want {
            panic!(
                "README tour: `$ {cmd}` printed something else.\n{}",
                text_diff(want, &got)
            );
        }
    }
}

#[test]
fn the_tour_parser_keeps_output_with_its_command() {
    let readme = "## A 60-second tour\n\n```console\n$ a\none\n\n$ b\n$ c\ntwo\n```\n";
    assert_eq!(
        tour_steps(readme),
        [
            ("a".to_string(), "one\n".to_string()),
            ("b".to_string(), String::new()),
            ("c".to_string(), "two\n".to_string()),
        ]
    );
}
