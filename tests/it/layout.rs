//! The README's layout section and the tree cannot drift apart: every module of `src/` — each
//! entry at the top as `src/NAME.rs` or `src/NAME/`, each child of a directory module by its
//! name on its parent's lines — is in the layout block, and every `src/…` path the block names
//! exists. Test code (`tests.rs`, `proptests.rs`, `*_tests.rs`, `tests/` folders) is left out.
//! This module only reads files.

use std::fs;
use std::path::{Path, PathBuf};

use crate::util::fail;

fn repo() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The code block of the README's `## Layout` section.
fn layout_block() -> String {
    let readme = fs::read_to_string(repo().join("README.md")).expect("README.md");
    let section = readme
        .split("\n## Layout")
        .nth(1)
        .unwrap_or_else(|| fail("README.md has no `## Layout` section"));
    let section = section.split("\n## ").next().unwrap_or_default();
    section
        .split("```")
        .nth(1)
        .unwrap_or_else(|| fail("the layout section has no code block"))
        .to_string()
}

fn is_test(name: &str) -> bool {
    name == "tests.rs" || name == "proptests.rs" || name.ends_with("_tests.rs") || name == "tests"
}

/// Every module under `dir` (relative to src/): `a.rs` and `a/` (its `mod.rs` not listed).
fn modules(dir: &Path, rel: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<_> = fs::read_dir(dir).unwrap().map(|e| e.unwrap()).collect();
    entries.sort_by_key(|e| e.file_name());
    for e in entries {
        let name = e.file_name().to_string_lossy().into_owned();
        if is_test(&name) || name == "mod.rs" {
            continue;
        }
        let path = rel.join(&name);
        if e.file_type().unwrap().is_dir() {
            out.push(path.clone());
            modules(&e.path(), &path, out);
        } else if name.ends_with(".rs") {
            out.push(path);
        }
    }
}

/// The name a module goes by: `walk` for `search/walk/` and `search/walk.rs`.
fn stem(p: &Path) -> String {
    let name = p.file_name().unwrap().to_string_lossy();
    name.strip_suffix(".rs").unwrap_or(&name).to_string()
}

fn words(text: &str) -> Vec<&str> {
    text.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .filter(|w| !w.is_empty())
        .collect()
}

#[test]
fn every_module_is_in_the_readme_layout() {
    let block = layout_block();
    let mut all = Vec::new();
    modules(&repo().join("src"), Path::new(""), &mut all);
    let mut missing = Vec::new();
    for m in &all {
        let top = m.components().count() == 1;
        let found = if top {
            let is_dir = repo().join("src").join(m).is_dir();
            let shown = format!("src/{}{}", m.display(), if is_dir { "/" } else { "" });
            block.contains(&shown)
        } else {
            // A child: named on a line of the block that names its top-level folder or one
            // of the lines that follow it (the folder's own paragraph).
            let top = m.components().next().unwrap().as_os_str().to_string_lossy();
            let folder = format!("src/{top}/");
            let name = stem(m);
            paragraph(&block, &folder).is_some_and(|text| words(&text).contains(&name.as_str()))
        };
        if !found {
            missing.push(m.display().to_string());
        }
    }
    assert!(
        missing.is_empty(),
        "modules missing from the README's layout section: {missing:?}"
    );
}

/// The lines of `block` from the one that starts with `folder` to the next line that starts
/// another `src/` entry.
fn paragraph(block: &str, folder: &str) -> Option<String> {
    let mut lines = block.lines().skip_while(|l| !l.starts_with(folder));
    let first = lines.next()?;
    let rest = lines.take_while(|l| !l.starts_with("src/") && !l.starts_with("tests/"));
    Some(
        std::iter::once(first)
            .chain(rest)
            .collect::<Vec<_>>()
            .join("\n"),
    )
}

#[test]
fn every_path_in_the_readme_layout_exists() {
    let block = layout_block();
    let mut gone = Vec::new();
    for w in block.split_whitespace() {
        let w = w.trim_matches(|c: char| !(c.is_ascii_alphanumeric() || "/._".contains(c)));
        if w.starts_with("src/") && !repo().join(w).exists() {
            gone.push(w.to_string());
        }
    }
    assert!(
        gone.is_empty(),
        "paths in the README's layout section that do not exist: {gone:?}"
    );
}
