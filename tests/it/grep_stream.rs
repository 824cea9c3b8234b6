//! `quill grep --limit 0` streams (docs/commands/grep.md, "Order and memory"): files are
//! searched in parallel and printed in path order as each one's turn comes, a long output in
//! parts. These tests hold the streamed answer to the stored one (a page as large as the
//! answer, which is kept and sorted whole): the same bytes in text, with headings and with
//! context, the same matches in JSON; PATHs inside other PATHs searched once and in order;
//! a closed pipe ends it quietly; and a file with a huge output streams in bounded memory.

use std::fs;

use crate::util::TestEnv;

/// A tree of many small files over several directories, a few with many matches, one with
/// more than one part (64 KiB) of output, one with matches in groups far apart.
fn tree() -> TestEnv {
    let env = TestEnv::new();
    for d in 0..6 {
        for f in 0..40 {
            let body: String = (0..(f % 7))
                .map(|k| {
                    if (k + f + d) % 3 == 0 {
                        format!("line {k} has the needle {d}/{f}\n")
                    } else {
                        format!("line {k} is plain\n")
                    }
                })
                .collect();
            env.write(&format!("d{d}/s{}/f{f:02}.txt", f % 3), body);
        }
    }
    let big: String = (0..6000)
        .map(|i| format!("{i:05} needle, a line long enough to make parts of the output\n"))
        .collect();
    env.write("d3/big.txt", big);
    let groups: String = (0..9000)
        .map(|i| {
            if i % 50 == 0 {
                format!("{i} needle in a group of its own {}\n", "x".repeat(40))
            } else {
                format!("{i} filler\n")
            }
        })
        .collect();
    env.write("d4/groups.txt", groups);
    env
}

/// Text output of `grep ARGS… needle`, streamed (`--limit 0`) and stored (a page that holds
/// everything), which must be the same bytes.
#[track_caller]
fn same_text(env: &TestEnv, args: &[&str]) -> String {
    let run = |limit: &str| {
        let mut all = vec!["--text", "--color", "never", "grep"];
        all.extend_from_slice(args);
        if !args.contains(&"-U") {
            all.push("needle");
        }
        all.extend_from_slice(&["--limit", limit]);
        let out = env.text(&all);
        out.ok();
        out.stdout.clone()
    };
    let streamed = run("0");
    let stored = run("100000000");
    assert!(
        streamed == stored,
        "grep {args:?}: streamed and stored text differ ({} vs {} bytes)",
        streamed.len(),
        stored.len()
    );
    streamed
}

#[test]
fn streamed_text_is_the_stored_text_byte_for_byte() {
    let env = tree();
    let plain = same_text(&env, &[]);
    // Sorted by path, every file once: big.txt's 6000 lines in one run, in order.
    let text = plain;
    let paths: Vec<&str> = text.lines().map(|l| l.split(':').next().unwrap()).collect();
    let mut sorted = paths.clone();
    sorted.sort();
    assert_eq!(paths, sorted);
    let big: Vec<&str> = text
        .lines()
        .filter(|l| l.starts_with("d3/big.txt:"))
        .collect();
    assert_eq!(big.len(), 6000);
    assert!(big[5999].starts_with("d3/big.txt:6000:05999 needle"));
    same_text(&env, &["--heading"]);
    same_text(&env, &["-C", "2"]);
    same_text(&env, &["-B", "1", "--heading"]);
    same_text(&env, &["-A", "3"]);
    same_text(&env, &["-o"]);
    same_text(&env, &["-l"]);
    same_text(&env, &["-c"]);
    same_text(&env, &["-U", "needle.*\\n.*plain"]);
}

#[test]
fn streamed_json_is_the_stored_answer() {
    let env = tree();
    for extra in [&[][..], &["-C", "1"][..], &["-o"][..]] {
        let run = |limit: &str| {
            let mut all = vec!["grep"];
            all.extend_from_slice(extra);
            all.extend_from_slice(&["needle", "--limit", limit]);
            env.json(&all).ok().grep()
        };
        let streamed = run("0");
        let stored = run("100000000");
        assert_eq!(streamed.total, stored.total, "{extra:?}");
        let (s, t) = (streamed.matches.unwrap(), stored.matches.unwrap());
        assert_eq!(s.len() as u64, streamed.total, "{extra:?}");
        assert!(s == t, "{extra:?}: streamed and stored matches differ");
        assert!(!streamed.truncated && streamed.next_offset.is_none());
    }
}

/// Files and counts stream too (nothing of the list is kept but the bytes of names that are
/// not UTF-8): the object is byte for byte the stored one, `filesBytes` indices included.
#[test]
fn streamed_json_files_and_counts_are_the_stored_object() {
    use std::os::unix::ffi::OsStrExt;
    let env = tree();
    for (dir, name) in [("d1", &b"z\xff.txt"[..]), ("d5", &b"a\xc3.txt"[..])] {
        let path = env.dir.join(dir).join(std::ffi::OsStr::from_bytes(name));
        fs::write(path, "a needle here\n").unwrap();
    }
    for mode in ["-l", "-c"] {
        let run = |limit: &str| env.json(&["grep", mode, "needle", "--limit", limit]);
        let streamed = run("0");
        streamed.ok();
        let stored = run("100000000");
        assert!(
            streamed.stdout_bytes == stored.stdout_bytes,
            "{mode}: streamed and stored objects differ:\n{}\n{}",
            streamed.stdout,
            stored.stdout
        );
        let v: serde_json::Value = serde_json::from_slice(&streamed.stdout_bytes).unwrap();
        if mode == "-l" {
            let files = v["files"].as_array().unwrap();
            assert_eq!(files.len() as u64, v["total"].as_u64().unwrap());
            let raw = v["filesBytes"].as_object().unwrap();
            assert_eq!(raw.len(), 2, "{v}");
            for (i, _) in raw {
                let f = files[i.parse::<usize>().unwrap()].as_str().unwrap();
                assert!(f.contains('\u{fffd}'), "{i} names {f}");
            }
        } else {
            let counts = v["counts"].as_array().unwrap();
            assert_eq!(counts.len() as u64, v["total"].as_u64().unwrap());
            assert!(counts.len() > 100, "{}", counts.len());
            assert_eq!(
                counts
                    .iter()
                    .filter(|c| c.get("pathBytes").is_some())
                    .count(),
                2
            );
        }
    }
}

#[test]
fn paths_inside_paths_are_searched_once_in_path_order() {
    let env = TestEnv::new();
    env.write(".git/HEAD", "ref: refs/heads/main\n");
    env.write(".gitignore", "gen.txt\n");
    env.write("a/x.txt", "needle a/x\n");
    env.write("a/b/y.txt", "needle a/b/y\n");
    env.write("a/b/gen.txt", "needle ignored but named\n");
    env.write("a/.hid/z.txt", "needle hidden but named\n");
    env.write("c.txt", "needle c\n");
    let out = env.text(&[
        "--text",
        "grep",
        "needle",
        "a/b",
        ".",
        "a/b/gen.txt",
        "a/.hid",
        "a",
        "--limit",
        "0",
    ]);
    out.ok();
    let mut lines: Vec<String> = out
        .stdout
        .lines()
        .map(|l| l.rsplit(':').next().unwrap().to_string())
        .collect();
    let want = [
        "needle hidden but named",
        "needle ignored but named",
        "needle a/b/y",
        "needle a/x",
        "needle c",
    ];
    assert_eq!(lines, want, "{}", out.report());
    // The same set and order as JSON's stored page.
    let g = env
        .json(&["grep", "needle", "a/b", ".", "a/b/gen.txt", "a/.hid", "a"])
        .ok()
        .grep();
    lines = g.matches.unwrap().into_iter().map(|m| m.text).collect();
    assert_eq!(lines, want);
}

#[test]
fn a_closed_pipe_ends_a_stream_quietly() {
    let env = tree();
    let out = env
        .program("sh")
        .args([
            "-c",
            "\"$Q\" --text grep needle --limit 0 | head -n 3; echo \"rc=${PIPESTATUS:-}\"",
        ])
        .env("Q", env!("CARGO_BIN_EXE_quill"))
        .run();
    out.ok();
    let text = &out.stdout;
    assert_eq!(text.lines().count(), 4, "{}", out.report());
    assert!(out.stderr.is_empty(), "{}", out.report());
}

#[test]
fn a_huge_output_streams_in_bounded_memory() {
    let env = TestEnv::new();
    let path = env.path("huge.txt");
    let write = |mib: usize| {
        use std::io::Write;
        let mut f = std::io::BufWriter::new(fs::File::create(&path).unwrap());
        // 64 bytes each; `needle 0` matches every other one.
        let lines = [
            "needle 0123456789abcdef0123456789abcdef0123456789abcdef012345\n",
            "needle 1123456789abcdef0123456789abcdef0123456789abcdef012345\n",
        ];
        for i in 0..(mib << 20) / 64 {
            f.write_all(lines[i % 2].as_bytes()).unwrap();
        }
    };
    // Text: 96 MiB of matching lines, stored whole they alone would be over 96 MiB.
    // JSON: 32 MiB of them, some 80 MiB of answer (validated whole by this test). With
    // context: 64 MiB of lines that are all one group (every other line matches).
    for (mib, args) in [
        (
            96,
            &[
                "--text", "--color", "never", "grep", "needle", "--limit", "0",
            ][..],
        ),
        (32, &["--json", "grep", "needle", "--limit", "0"][..]),
        (
            64,
            &[
                "--text", "--color", "never", "grep", "-C1", "needle 0", "--limit", "0",
            ][..],
        ),
    ] {
        write(mib);
        let (out, kib) = env.cmd(args).spawn().wait_peak_rss();
        out.ok();
        assert!(out.stdout.len() > mib << 20, "{}", out.stdout.len());
        eprintln!("peak RSS of {args:?} over {mib} MiB of matches: {kib} KiB");
        out.check(kib > 0 && kib < 24 * 1024, format!("peak RSS {kib} KiB"));
    }
    fs::remove_file(path).unwrap();
}

/// A file whose every line is near a match is one group of context: it goes out in parts
/// all the same, cut inside the group, and the parts are byte for byte the stored answer —
/// text (no line twice, no `--` inside the group) and JSON (each entry's context whole).
#[test]
fn a_group_of_context_with_no_gap_streams_in_parts() {
    let env = TestEnv::new();
    let body: String = (0..40_000u32)
        .map(|i| {
            if i % 7 == 0 || i % 7 == 3 || i % 11 == 0 {
                format!("{i} needle {}\n", "n".repeat((i % 40) as usize))
            } else {
                format!("{i} plain {}\n", "p".repeat((i % 30) as usize))
            }
        })
        .collect();
    env.write("one.txt", body);
    env.write("two.txt", "needle\nplain\nneedle\n");
    let shapes: [&[&str]; 8] = [
        &["-A", "100000"],
        &["-B", "100000"],
        &["-C", "2"],
        &["-C", "1", "--heading"],
        &["-A", "3"],
        &["-B", "4"],
        &["-A", "1", "-B", "3"],
        &["-U", "-C", "2", "needle.*\\n[0-9]+ plain"],
    ];
    for args in shapes {
        let pattern: &[&str] = if args.contains(&"-U") {
            &[]
        } else {
            &["needle"]
        };
        let run = |format: &str, limit: &str| {
            let mut all = vec![format, "--color", "never", "grep"];
            all.extend_from_slice(args);
            all.extend_from_slice(pattern);
            all.extend_from_slice(&["--limit", limit]);
            let out = env.cmd(&all).run();
            out.ok();
            out.stdout_bytes.clone()
        };
        for format in ["--text", "--json"] {
            if format == "--json" && args.contains(&"100000") {
                // Every entry with the rest of the file as its context: too big for JSON.
                continue;
            }
            let (streamed, stored) = (run(format, "0"), run(format, "100000000"));
            assert!(streamed.len() > 300_000, "{args:?}: {}", streamed.len());
            assert!(
                streamed == stored,
                "{format} {args:?}: streamed and stored differ ({} vs {} bytes)",
                streamed.len(),
                stored.len()
            );
        }
    }
}

/// JSON files and counts of 30,000 files with long names: some 7 MiB of paths, which a stored
/// answer holds twice (the list, then the object: 25-27 MiB peak); streamed, 11-12 MiB.
#[test]
fn a_long_list_of_files_streams_in_bounded_memory() {
    let env = TestEnv::new();
    let long = "n".repeat(180);
    for d in 0..20 {
        let dir = env.path(&format!("dir{d:02}"));
        fs::create_dir(&dir).unwrap();
        for f in 0..1500 {
            fs::write(dir.join(format!("{long}{f:05}.txt")), "needle\n").unwrap();
        }
    }
    for mode in ["-l", "-c"] {
        let (out, kib) = env
            .cmd(["--json", "grep", mode, "needle", "--limit", "0"])
            .spawn()
            .wait_peak_rss();
        out.ok();
        let v: serde_json::Value = serde_json::from_slice(&out.stdout_bytes).unwrap();
        assert_eq!(v["total"], 30_000);
        eprintln!("peak RSS of grep {mode} over 30,000 files: {kib} KiB");
        out.check(kib > 0 && kib < 18 * 1024, format!("peak RSS {kib} KiB"));
    }
}
