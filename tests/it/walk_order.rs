//! The sorted walk that lists directories in parallel (`src/walk/parallel.rs`, with the rules
//! of `src/walk/rules.rs`) held to the `ignore` crate's sorted walker, which
//! `QUILL_SEQUENTIAL_WALK=1` selects: on random trees with `.gitignore`, `.ignore`,
//! `.git/info/exclude`, a global gitignore, repositories (`.git`, `.jj`) at any level and
//! above the root, hidden and oddly named entries, `grep --limit 0 -l` lists the same files
//! in the same order — for roots given as `.`, relative, `./`-prefixed, absolute and several
//! at once, with `--hidden`, `--no-ignore`, `--glob` and `--type`.

use std::fs;
use std::path::Path;

use crate::util::TestEnv;

const NAMES: &[&str] = &[
    "a",
    "b",
    "src",
    "build",
    "target",
    ".h",
    "x.log",
    "keep.log",
    "c.txt",
    "d.rs",
    "Deep",
    "e f",
    ".gitkeep",
    "node_modules",
    "a.b",
];

const PATTERNS: &[&str] = &[
    "*.log",
    "!keep.log",
    "build/",
    "/a",
    "src/*.txt",
    "Deep",
    "**/b",
    "*.rs",
    "!d.rs",
    ".h",
    "c.*",
    "/src/b",
    "a/",
    "target",
    "!/target",
    "*",
    "!*/",
    "e f",
    "**/src/**",
    "!.h",
    "a.b/",
    "# a comment",
    "",
];

fn patterns(rng: &mut fastrand::Rng) -> String {
    let n = rng.usize(1..4);
    (0..n)
        .map(|_| format!("{}\n", PATTERNS[rng.usize(..PATTERNS.len())]))
        .collect()
}

/// A random directory below `dir`, `depth` levels down at most. A worktree's `.git` file
/// points into `gitdirs`.
fn fill(rng: &mut fastrand::Rng, dir: &Path, depth: u32, gitdirs: &Path) {
    fs::create_dir_all(dir).unwrap();
    for _ in 0..rng.usize(0..6) {
        let p = dir.join(NAMES[rng.usize(..NAMES.len())]);
        if p.exists() {
            continue;
        }
        if depth > 0 && rng.u8(..3) == 0 {
            fill(rng, &p, depth - 1, gitdirs);
        } else {
            fs::write(&p, "x\n").unwrap();
        }
    }
    if rng.u8(..3) == 0 {
        fs::write(dir.join(".gitignore"), patterns(rng)).unwrap();
    }
    if rng.u8(..5) == 0 {
        fs::write(dir.join(".ignore"), patterns(rng)).unwrap();
    }
    match rng.u8(..12) {
        0 => {
            fs::create_dir_all(dir.join(".git/info")).unwrap();
            fs::write(dir.join(".git/info/exclude"), patterns(rng)).unwrap();
            fs::write(dir.join(".git/HEAD"), "x\n").unwrap();
        }
        1 => fs::create_dir_all(dir.join(".jj")).unwrap(),
        2 => fs::create_dir_all(dir.join(".git")).unwrap(),
        3 => {
            // A worktree: `.git` is a file naming its git directory, whose `commondir`
            // holds `info/exclude`.
            let n = rng.u32(..);
            let real = gitdirs.join(format!("worktrees/w{n}"));
            fs::create_dir_all(&real).unwrap();
            fs::write(real.join("commondir"), "../..\n").unwrap();
            fs::create_dir_all(gitdirs.join("info")).unwrap();
            fs::write(gitdirs.join("info/exclude"), patterns(rng)).unwrap();
            fs::write(dir.join(".git"), format!("gitdir: {}\n", real.display())).unwrap();
        }
        _ => {}
    }
}

/// `grep --limit 0 -l x ARGS…` in `cwd` with each walker: the same answer.
#[track_caller]
fn same(env: &TestEnv, cwd: &Path, args: &[&str], seed: u64) {
    same_for(env, cwd, &["grep", "--limit", "0", "-l", "x"], args, seed);
}

/// `quill COMMAND… ARGS…` in `cwd` with each walker: the same answer.
#[track_caller]
fn same_for(env: &TestEnv, cwd: &Path, command: &[&str], args: &[&str], seed: u64) {
    let run = |sequential: &str| {
        let mut all = vec!["--color", "never"];
        all.extend_from_slice(command);
        all.extend_from_slice(args);
        env.cmd(&all)
            .current_dir(cwd)
            .env("QUILL_SEQUENTIAL_WALK", sequential)
            .run()
    };
    let (parallel, sequential) = (run("0"), run("1"));
    assert_eq!(
        (parallel.code, &parallel.stdout),
        (sequential.code, &sequential.stdout),
        "seed {seed}, {command:?} {args:?} in {}: the parallel walk (left) and ignore's walk \
         (right) differ",
        cwd.display()
    );
}

#[test]
fn the_parallel_walk_finds_what_ignores_walker_finds_in_its_order() {
    for seed in 0..24u64 {
        let env = TestEnv::new();
        let mut rng = fastrand::Rng::with_seed(seed);
        // Rules above the walk's root: a repository at the top, a global gitignore.
        if rng.u8(..4) > 0 {
            fs::create_dir_all(env.path(".git")).unwrap();
        }
        // Anchored patterns mean something else from `top` than from `top/src`.
        let anchored = [
            "/a",
            "/src",
            "src/b",
            "top/b",
            "/top/src/",
            "/top/a/",
            "/top/*/b",
        ];
        let above = patterns(&mut rng) + anchored[rng.usize(..anchored.len())] + "\n";
        fs::write(env.path(".gitignore"), above).unwrap();
        let global = env.base.join(".config/git");
        fs::create_dir_all(&global).unwrap();
        fs::write(global.join("ignore"), patterns(&mut rng)).unwrap();
        let gitdirs = env.base.join("gitdirs");
        fill(&mut rng, &env.path("top"), 4, &gitdirs);
        for name in ["src", "a", "b"] {
            let dir = env.path(&format!("top/{name}"));
            if dir.is_file() {
                fs::remove_file(&dir).unwrap();
            }
            fill(&mut rng, &dir, 2, &gitdirs);
        }
        let top = env.path("top");
        let abs = top.to_str().unwrap().to_string();
        let flags: &[&[&str]] = &[
            &[],
            &["--hidden"],
            &["--no-ignore"],
            &["--hidden", "--no-ignore"],
            &["--glob", "!*.txt"],
            &["--glob", "*.log", "--hidden"],
            &["--type", "rust"],
        ];
        for f in flags {
            same(&env, &env.dir, &[&["top"], *f].concat(), seed);
            same(&env, &top, f, seed);
            same(&env, &top, &[&["./src", "b"], *f].concat(), seed);
        }
        same(&env, &env.dir, &[abs.as_str()], seed);
        // glob --sort path streams from the same walk (and from subtree walks without it).
        let glob = ["glob", "**", "--sort", "path", "--limit", "0"];
        for f in [&[][..], &["--hidden"], &["--no-ignore"]] {
            same_for(&env, &env.dir, &glob, &[&["top"], f].concat(), seed);
            same_for(&env, &top, &glob, f, seed);
        }
        same(&env, &env.path("top/src"), &[".", "../a"], seed);
        same(&env, &env.path("top/src"), &["--hidden", "../b/"], seed);
    }
}

/// Names that are not UTF-8, a directory that cannot be read, a link to a directory (not
/// entered without `--follow`): the same answer and the same problems reported.
#[cfg(unix)]
#[test]
fn the_parallel_walk_reports_what_ignores_walker_reports() {
    use std::os::unix::ffi::OsStrExt;
    let env = TestEnv::new();
    env.write("t/a/x.txt", "x\n");
    env.write("t/b/y.txt", "x\n");
    let odd = env
        .path("t")
        .join(std::ffi::OsStr::from_bytes(b"\xff\xfe.txt"));
    fs::write(&odd, "x\n").unwrap();
    std::os::unix::fs::symlink(env.path("t/a"), env.path("t/link")).unwrap();
    std::os::unix::fs::symlink(env.path("t/a/x.txt"), env.path("t/file-link")).unwrap();
    fs::create_dir_all(env.path("t/closed")).unwrap();
    env.write("t/closed/z.txt", "x\n");
    // 0o000 hides nothing from root, which runs CI: then this is one more readable directory.
    use std::os::unix::fs::PermissionsExt;
    fs::set_permissions(env.path("t/closed"), fs::Permissions::from_mode(0o000)).unwrap();
    let json = |sequential: &str| {
        env.cmd(["--json", "grep", "--limit", "0", "-l", "x", "t"])
            .env("QUILL_SEQUENTIAL_WALK", sequential)
            .run()
    };
    let (p, s) = (json("0"), json("1"));
    fs::set_permissions(env.path("t/closed"), fs::Permissions::from_mode(0o755)).unwrap();
    assert_eq!(p.code, s.code);
    let strip = |o: &crate::util::Out| {
        let mut v = o.json.clone();
        v.as_object_mut().unwrap().remove("elapsedMs");
        v
    };
    assert_eq!(strip(&p), strip(&s));
    for flags in [&["--hidden"][..], &["--no-ignore"], &[]] {
        same(&env, &env.dir, &[&["t"], flags].concat(), 0);
    }
}
