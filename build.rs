//! Stamps the version with the git commit it was built from, like ripgrep:
//! `quill 0.1.0 (abc1234 2026-12-01)`. Sets `QUILL_VERSION` (what `--version` prints after the
//! name), `QUILL_COMMIT` and `QUILL_COMMIT_DATE` (empty when unknown). A build outside a git
//! checkout of this package (a crate tarball, no git installed) prints just `quill 0.1.0`.

use std::path::{Path, PathBuf};
use std::process::Command;

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    let version = env!("CARGO_PKG_VERSION");
    let (commit, date) = git_info().unwrap_or_default();
    let full = match (commit.is_empty(), date.is_empty()) {
        (true, _) => version.to_string(),
        (false, true) => format!("{version} ({commit})"),
        (false, false) => format!("{version} ({commit} {date})"),
    };
    println!("cargo:rustc-env=QUILL_VERSION={full}");
    println!("cargo:rustc-env=QUILL_COMMIT={commit}");
    println!("cargo:rustc-env=QUILL_COMMIT_DATE={date}");
}

/// `git` run in the package directory; its trimmed stdout when it succeeds.
fn git(args: &[&str]) -> Option<String> {
    let out = Command::new("git")
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .ok()?;
    if !out.status.success() {
        return None;
    }
    let s = String::from_utf8(out.stdout).ok()?.trim().to_string();
    (!s.is_empty()).then_some(s)
}

/// The short commit and its date, when the package directory is the top of a git work tree
/// (not a tarball unpacked inside some other repository). Also tells cargo to rerun when HEAD
/// moves: `HEAD` itself, the branch ref it points to, and `packed-refs`.
fn git_info() -> Option<(String, String)> {
    let top = PathBuf::from(git(&["rev-parse", "--show-toplevel"])?);
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    if top.canonicalize().ok()? != manifest.canonicalize().ok()? {
        return None;
    }
    let git_dir = absolute(manifest, git(&["rev-parse", "--git-dir"])?);
    let common_dir = absolute(manifest, git(&["rev-parse", "--git-common-dir"])?);
    rerun_if_exists(&git_dir.join("HEAD"));
    if let Some(reference) = git(&["symbolic-ref", "-q", "HEAD"]) {
        rerun_if_exists(&git_dir.join(&reference));
        rerun_if_exists(&common_dir.join(&reference));
    }
    rerun_if_exists(&common_dir.join("packed-refs"));
    let commit = git(&["rev-parse", "--short", "HEAD"])?;
    let date = git(&["log", "-1", "--format=%cs"]).unwrap_or_default();
    Some((commit, date))
}

fn absolute(base: &Path, p: String) -> PathBuf {
    let p = PathBuf::from(p);
    if p.is_absolute() { p } else { base.join(p) }
}

/// A path cargo watches; a missing one would make cargo rerun the script on every build.
fn rerun_if_exists(p: &Path) {
    if p.exists() {
        println!("cargo:rerun-if-changed={}", p.display());
    }
}
