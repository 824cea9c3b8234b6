//! `quill glob` pages over a tree larger than a page (docs/commands/glob.md): 300 files over
//! ten directories (so the parallel walk spreads them over its threads), with distinct and
//! equal modification times. Each thread keeps only the best `offset + limit`; every page must
//! still be exactly the slice of the fully sorted list, with the exact `total`.

use std::time::{Duration, SystemTime};

use crate::util::{Glob, TestEnv};

const FILES: usize = 300;

/// The tree, and every file (relative) with its modification time.
fn tree() -> (TestEnv, Vec<(String, SystemTime)>) {
    let env = TestEnv::new();
    let base = SystemTime::UNIX_EPOCH + Duration::from_secs(1_600_000_000);
    let mut files = Vec::new();
    for i in 0..FILES {
        let rel = format!("d{}/f{:03}.txt", i % 10, (i * 7) % FILES);
        // Even: distinct times (some differing only in nanoseconds); odd: four groups of
        // equal times, their order left to the path.
        let t = if i % 2 == 0 {
            base + Duration::new(i as u64 / 3, (i as u32 % 3) * 1000)
        } else {
            base + Duration::from_secs(1000 * (i as u64 % 4))
        };
        env.write(&rel, b"x\n");
        env.set_mtime(&rel, t);
        files.push((rel, t));
    }
    (env, files)
}

#[track_caller]
fn glob(env: &TestEnv, args: &[&str]) -> Glob {
    let mut all = vec!["glob", "**/*.txt"];
    all.extend_from_slice(args);
    env.json(&all).ok().glob()
}

/// The answer's absolute paths, relative to the work dir.
fn rel(env: &TestEnv, g: &Glob) -> Vec<String> {
    let prefix = format!("{}/", env.dir.display());
    g.files
        .iter()
        .map(|p| p.strip_prefix(&prefix).unwrap_or(p).to_string())
        .collect()
}

#[test]
fn glob_pages_are_slices_of_the_full_sort_with_the_exact_total() {
    let (env, files) = tree();
    // Names of equal length: string order is glob's component order here.
    let mut by_path: Vec<String> = files.iter().map(|(p, _)| p.clone()).collect();
    by_path.sort();
    let mut newest = files.clone();
    newest.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    let newest: Vec<String> = newest.into_iter().map(|(p, _)| p).collect();

    for (sort, expected) in [("mtime", &newest), ("path", &by_path)] {
        for (offset, limit) in [(0usize, 10usize), (95, 10), (290, 20), (0, 0), (150, 0)] {
            let (o, l) = (offset.to_string(), limit.to_string());
            let g = glob(&env, &["--sort", sort, "--offset", &o, "--limit", &l]);
            let end = if limit == 0 {
                FILES
            } else {
                (offset + limit).min(FILES)
            };
            let what = format!("--sort {sort} --offset {offset} --limit {limit}");
            assert_eq!(rel(&env, &g), expected[offset..end], "{what}");
            assert_eq!(g.total, FILES as u64, "{what}");
            assert_eq!(g.offset, offset as u64, "{what}");
            let next = (end < FILES).then_some(end as u64);
            assert_eq!(
                (g.next_offset, g.truncated),
                (next, next.is_some()),
                "{what}"
            );
            assert!(g.why.is_none(), "{what}");
        }
    }
    // The default: newest first, a page of 100.
    let g = glob(&env, &[]);
    assert_eq!(rel(&env, &g), newest[..100]);
    assert_eq!((g.total, g.next_offset), (FILES as u64, Some(100)));
}

#[test]
fn glob_sort_none_pages_are_distinct_files_with_the_exact_total() {
    let (env, files) = tree();
    let g = glob(&env, &["--sort", "none", "--limit", "10"]);
    assert_eq!((g.total, g.next_offset), (FILES as u64, Some(10)));
    let mut got = rel(&env, &g);
    got.sort();
    got.dedup();
    assert_eq!(got.len(), 10);
    assert!(
        got.iter().all(|p| files.iter().any(|(f, _)| f == p)),
        "{got:?}"
    );
    let g = glob(&env, &["--sort", "none", "--limit", "0"]);
    assert_eq!((g.total as usize, g.files.len()), (FILES, FILES));
}

/// `--limit 0` in text, by path or unsorted, prints each match as it is found: the same
/// bytes as a page that holds everything (by path), the same set (unsorted).
#[test]
fn streamed_glob_text_is_the_stored_text() {
    let (env, _) = tree();
    let run = |args: &[&str]| {
        let mut all = vec!["--text", "--color", "never", "glob", "**/*.txt"];
        all.extend_from_slice(args);
        let out = env.text(&all);
        out.ok();
        out.stdout.clone()
    };
    for null in [&[][..], &["-0"][..]] {
        let streamed = run(&[&["--sort", "path", "--limit", "0"], null].concat());
        let stored = run(&[&["--sort", "path", "--limit", "100000"], null].concat());
        assert_eq!(streamed, stored);
        let sep = if null.is_empty() { '\n' } else { '\0' };
        assert_eq!(streamed.split_terminator(sep).count(), FILES);
        let unsorted = run(&[&["--sort", "none", "--limit", "0"], null].concat());
        let mut a: Vec<&str> = unsorted.split_terminator(sep).collect();
        a.sort();
        let mut b: Vec<&str> = stored.split_terminator(sep).collect();
        b.sort();
        assert_eq!(a, b);
    }
    // Nothing found still says so (exit 1), streamed or not.
    env.text(&[
        "--text",
        "glob",
        "**/*.none",
        "--sort",
        "path",
        "--limit",
        "0",
    ])
    .exit(1);
}

/// Streamed by path, each directory two levels below the base is walked on its own: ignore
/// files of the base and below (those above a subtree too), hidden names and `.git` must
/// still be honored exactly as one walk does.
#[test]
fn streamed_glob_by_path_honors_ignore_files_at_every_level() {
    let env = TestEnv::new();
    for (name, body) in [
        (".git/HEAD", "ref: refs/heads/main\n"),
        (".gitignore", "build/\n*.log\n"),
        ("a/.ignore", "skip.txt\n"),
        ("a/keep.txt", "x"),
        ("a/skip.txt", "x"),
        ("a/b/deep.log", "x"),
        ("a/b/deep.txt", "x"),
        ("build/out.txt", "x"),
        (".hidden/h.txt", "x"),
        ("top.txt", "x"),
        ("top.log", "x"),
        ("z/.gitignore", "!*.log\n"),
        ("z/kept.log", "x"),
        ("a/b/c/skip.txt", "x"),
        ("a/b/c/d/e.txt", "x"),
        ("a/b/.gitignore", "/c/d/\n"),
        ("a/b/c/d/f.txt", "x"),
        ("a/b/.h/g.txt", "x"),
        ("z/y/x/w.log", "x"),
        ("z/y/build/v.txt", "x"),
    ] {
        env.write(name, body);
    }
    for extra in [&[][..], &["--hidden"][..], &["--no-ignore"][..]] {
        let run = |limit: &str| {
            let mut all = vec![
                "--text", "--color", "never", "glob", "**/*", "--sort", "path",
            ];
            all.extend_from_slice(extra);
            all.extend_from_slice(&["--limit", limit]);
            let out = env.text(&all);
            out.ok();
            out.stdout.clone()
        };
        assert_eq!(run("0"), run("1000"), "{extra:?}");
    }
    let out = env.text(&["--text", "glob", "**/*", "--sort", "path", "--limit", "0"]);
    assert_eq!(
        out.stdout,
        "a/b/deep.txt\na/keep.txt\ntop.txt\nz/kept.log\nz/y/x/w.log\n",
        "{}",
        out.report()
    );
}
