//! No lost update (the goals in the README's Benchmarks): 8 processes × 100 read→edit cycles on one file, each in its own
//! session and retrying on `stale` (and on a read that saw the file replaced under it). Every edit that reported success is in the final file
//! exactly once, nothing else is, and no run ended in `lock_timeout` or another error.

use std::sync::Arc;
use std::thread;

use crate::util::TestEnv;

const WORKERS: usize = 8;
const CYCLES: usize = 100;

#[test]
fn eight_processes_times_a_hundred_edits_lose_nothing() {
    let env = Arc::new(TestEnv::new());
    env.write("shared.txt", "# header\n");
    let handles: Vec<_> = (0..WORKERS)
        .map(|w| {
            let env = Arc::clone(&env);
            thread::spawn(move || {
                let session = format!("worker-{w}");
                let mut landed = Vec::new();
                let mut stale = 0usize;
                for i in 0..CYCLES {
                    let marker = format!("w{w}-c{i}");
                    loop {
                        let read = env.json(&[
                            "--session",
                            &session,
                            "read",
                            "shared.txt",
                            "--limit",
                            "1",
                        ]);
                        if read.code != 0 {
                            // The file was replaced under the read's identity check.
                            read.err("changed_during_read", 3);
                            continue;
                        }
                        assert_eq!(read.read().content, "# header\n");
                        let new = format!("# header\n{marker}\n");
                        let out = env.json(&[
                            "--session",
                            &session,
                            "edit",
                            "shared.txt",
                            "--old",
                            "# header\n",
                            "--new",
                            &new,
                        ]);
                        if out.code == 0 {
                            assert_eq!(out.ok().mutation().replacements, Some(1));
                            landed.push(marker);
                            break;
                        }
                        out.err("stale", 3);
                        stale += 1;
                    }
                }
                (landed, stale)
            })
        })
        .collect();
    let mut expected = Vec::new();
    let mut stale = 0;
    for h in handles {
        let (landed, s) = h.join().unwrap();
        expected.extend(landed);
        stale += s;
    }
    let text = String::from_utf8(env.read("shared.txt")).unwrap();
    let mut lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.remove(0), "# header");
    let mut got: Vec<String> = lines.iter().map(|s| s.to_string()).collect();
    got.sort();
    expected.sort();
    assert_eq!(got.len(), WORKERS * CYCLES);
    assert_eq!(got, expected, "every landed edit once, nothing else");
    assert!(text.ends_with('\n'));
    eprintln!(
        "{} edits landed, {stale} refused as stale and retried",
        got.len()
    );
}
