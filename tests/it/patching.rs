//! Checks every `patch` a mutation reports: applied with `git apply` and with `patch -p1` to
//! the old bytes, it must give exactly the new bytes (or remove the file for a deletion).

use std::fs;
use std::process::{Command, Stdio};

use crate::util::{Out, have};

/// `old`: the file before (None: it did not exist). `new`: after (None: deleted).
#[track_caller]
pub fn assert_patch_applies(out: &Out, old: Option<&[u8]>, new: Option<&[u8]>) {
    let Some(patch) = out.json["patch"].as_str() else {
        panic!("no patch in {}", out.stdout);
    };
    if patch.is_empty() {
        assert_eq!(old, new, "an empty patch means no change");
        return;
    }
    let path = patch_path(patch);
    for tool in ["git", "patch"] {
        if !have(tool) {
            eprintln!("skipping the {tool} check of a patch: {tool} is not installed");
            continue;
        }
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join(&path);
        if let Some(old) = old {
            fs::create_dir_all(file.parent().unwrap()).unwrap();
            fs::write(&file, old).unwrap();
        }
        let mut c = if tool == "git" {
            let mut c = Command::new("git");
            c.args(["apply", "--whitespace=nowarn", "-"]);
            c
        } else {
            let mut c = Command::new("patch");
            c.args(["-p1", "-s", "--batch", "--no-backup-if-mismatch"]);
            c
        };
        c.current_dir(dir.path())
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .env("HOME", dir.path())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        let mut child = c.spawn().unwrap();
        {
            use std::io::Write;
            child
                .stdin
                .take()
                .unwrap()
                .write_all(patch.as_bytes())
                .unwrap();
        }
        let o = child.wait_with_output().unwrap();
        assert!(
            o.status.success(),
            "{tool} failed to apply the patch:\n{patch}\nstderr: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        match new {
            Some(new) => assert_eq!(
                fs::read(&file).unwrap(),
                new,
                "{tool} applied the patch to a different result:\n{patch}"
            ),
            None => assert!(
                !file.exists() || fs::read(&file).unwrap().is_empty(),
                "{tool} left the deleted file"
            ),
        }
    }
}

fn patch_path(patch: &str) -> String {
    let first = patch.lines().next().unwrap();
    let rest = first
        .strip_prefix("diff --git a/")
        .expect("a prefixed git patch");
    let half = rest.len().saturating_sub(3) / 2;
    rest[..half].to_string()
}
