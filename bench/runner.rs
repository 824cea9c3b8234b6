// bench/runner.rs: the one measuring loop behind bench/lib.sh (built by it with plain `rustc`,
// std only, into ${CARGO_TARGET_DIR:-target}/bench-runner/). Not part of the quill crate.
//
//   runner [--runs N] [--warmup N] [--prepare SH] [--ignore-failure] [--raw FILE] CMD...
//
// Runs the sample N times after the warmups and prints one line:
//   WALL_MEDIAN_MS WALL_MIN_MS CPU_MEDIAN_MS CPU_MIN_MS PEAK_RSS_KIB RUNS
// CPU is user + system time of the sample's processes and everything they waited for; peak RSS
// is the largest ru_maxrss of any process of any measured run. Both come from wait4(2).
//
// Each CMD is a command line split like a shell's words ('single', "double" and \ quoting; no
// expansion, no redirection, no pipes: the calling shell has already expanded it). It is run
// directly, without a shell (write `sh -c '...'` when one is wanted), stdin and stdout on
// /dev/null, stderr kept aside and shown if the command fails. An unquoted `&&` splits a CMD into
// steps run one after another as one sample (wall time spans them all, CPU adds up, RSS is the
// largest). Several CMDs are alternatives taken in turn, run i doing CMD[i mod k] (for edits
// that toggle a file back and forth); warmups count in that cycle, and extra untimed runs
// complete the last cycle so the files are left as they were found.
//
// --prepare SH runs `sh -c SH` before every run, warmups included, untimed.
//
// Why not a Python or shell loop: the kernel records the high-water RSS of the process that
// spawns a command into the command's ru_maxrss (at exec), so a Python parent would put its own
// ~14 MB in every figure; this runner's own floor is about 1-2 MB, like /usr/bin/time's.

use std::fs::{File, OpenOptions};
use std::io::{Read, Seek, SeekFrom, Write};
use std::os::raw::{c_int, c_long};
use std::os::unix::process::CommandExt;
use std::process::{exit, Command, Stdio};
use std::time::Instant;

#[repr(C)]
struct Timeval {
    sec: c_long,
    usec: c_long,
}

#[repr(C)]
struct Rusage {
    utime: Timeval,
    stime: Timeval,
    maxrss: c_long,
    rest: [c_long; 13],
}

extern "C" {
    fn wait4(pid: c_int, status: *mut c_int, options: c_int, rusage: *mut Rusage) -> c_int;
}

fn die(msg: &str) -> ! {
    eprintln!("bench runner: {msg}");
    exit(2)
}

/// Shell-like word splitting; an unquoted `&&` word separates steps.
fn split(line: &str) -> Vec<Vec<String>> {
    let mut steps = vec![Vec::new()];
    let mut word = String::new();
    let mut in_word = false; // a word has started (so '' is an empty argument)
    let mut quoted = false; // the current word has a quoted part (so '&&' is an argument)
    let mut chars = line.chars().peekable();
    let end_word =
        |word: &mut String, in_word: &mut bool, quoted: &mut bool, steps: &mut Vec<Vec<String>>| {
            if *in_word {
                if !*quoted && word == "&&" {
                    steps.push(Vec::new());
                } else {
                    steps.last_mut().unwrap().push(std::mem::take(word));
                }
            }
            word.clear();
            *in_word = false;
            *quoted = false;
        };
    while let Some(c) = chars.next() {
        match c {
            ' ' | '\t' | '\n' => end_word(&mut word, &mut in_word, &mut quoted, &mut steps),
            '\'' => {
                in_word = true;
                quoted = true;
                loop {
                    match chars.next() {
                        Some('\'') => break,
                        Some(c) => word.push(c),
                        None => die(&format!("unterminated ' in: {line}")),
                    }
                }
            }
            '"' => {
                in_word = true;
                quoted = true;
                loop {
                    match chars.next() {
                        Some('"') => break,
                        Some('\\') => match chars.peek() {
                            Some(&n @ ('"' | '\\' | '$' | '`')) => {
                                word.push(n);
                                chars.next();
                            }
                            _ => word.push('\\'),
                        },
                        Some(c) => word.push(c),
                        None => die(&format!("unterminated \" in: {line}")),
                    }
                }
            }
            '\\' => {
                in_word = true;
                quoted = true;
                match chars.next() {
                    Some(c) => word.push(c),
                    None => die(&format!("trailing \\ in: {line}")),
                }
            }
            c => {
                in_word = true;
                word.push(c);
            }
        }
    }
    end_word(&mut word, &mut in_word, &mut quoted, &mut steps);
    if steps.iter().any(|s| s.is_empty()) {
        die(&format!("empty command (or a stray &&) in: {line}"));
    }
    steps
}

struct Sample {
    wall_ms: f64,
    cpu_ms: f64,
    rss_kib: i64,
}

fn describe(status: c_int) -> String {
    if status & 0x7f == 0 {
        format!("exit status {}", (status >> 8) & 0xff)
    } else {
        format!("signal {}", status & 0x7f)
    }
}

fn show_stderr(err: &mut File) {
    let mut text = String::new();
    let _ = err.seek(SeekFrom::Start(0));
    let _ = err.read_to_string(&mut text);
    let tail: String = text
        .chars()
        .rev()
        .take(2000)
        .collect::<Vec<_>>()
        .into_iter()
        .rev()
        .collect();
    if !tail.is_empty() {
        eprintln!("--- its stderr (tail) ---\n{}", tail.trim_end());
    }
}

fn run(steps: &[Vec<String>], line: &str, err: &mut File, ignore_failure: bool) -> Sample {
    let _ = err.set_len(0);
    let mut cpu_us: i64 = 0;
    let mut rss: i64 = 0;
    let t0 = Instant::now();
    for argv in steps {
        let mut cmd = Command::new(&argv[0]);
        // A no-op pre_exec makes std fork instead of posix_spawn (vfork): a forked child's
        // high-water RSS before exec is only the pages it copied, a vfork child's is all of ours.
        unsafe { cmd.pre_exec(|| Ok(())) };
        let child = cmd
            .args(&argv[1..])
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(
                err.try_clone()
                    .unwrap_or_else(|e| die(&format!("stderr file: {e}"))),
            )
            .spawn()
            .unwrap_or_else(|e| die(&format!("cannot run {:?}: {e}", argv[0])));
        let mut status: c_int = 0;
        let mut ru: Rusage = unsafe { std::mem::zeroed() };
        let pid = child.id() as c_int;
        let r = loop {
            let r = unsafe { wait4(pid, &mut status, 0, &mut ru) };
            if r == -1 && std::io::Error::last_os_error().raw_os_error() == Some(4) {
                continue; // EINTR
            }
            break r;
        };
        if r != pid {
            die(&format!("wait4: {}", std::io::Error::last_os_error()));
        }
        cpu_us += (ru.utime.sec as i64 + ru.stime.sec as i64) * 1_000_000
            + ru.utime.usec as i64
            + ru.stime.usec as i64;
        rss = rss.max(ru.maxrss as i64);
        if status != 0 && !ignore_failure {
            eprintln!(
                "bench runner: {:?} failed ({}) in: {line}",
                argv[0],
                describe(status)
            );
            show_stderr(err);
            exit(1);
        }
    }
    let wall = t0.elapsed();
    Sample {
        wall_ms: wall.as_secs_f64() * 1e3,
        cpu_ms: cpu_us as f64 / 1e3,
        rss_kib: rss,
    }
}

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(|a, b| a.partial_cmp(b).unwrap());
    let n = v.len();
    if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    }
}

fn main() {
    let mut args = std::env::args().skip(1);
    let (mut runs, mut warmup) = (10usize, 1usize);
    let mut prepare: Option<String> = None;
    let mut raw: Option<String> = None;
    let mut ignore_failure = false;
    let mut cmds: Vec<String> = Vec::new();
    let num = |v: Option<String>, what: &str| -> usize {
        v.and_then(|s| s.parse().ok())
            .unwrap_or_else(|| die(&format!("{what} needs a number")))
    };
    while let Some(a) = args.next() {
        match a.as_str() {
            "--runs" => runs = num(args.next(), "--runs"),
            "--warmup" => warmup = num(args.next(), "--warmup"),
            "--prepare" => {
                prepare = Some(
                    args.next()
                        .unwrap_or_else(|| die("--prepare needs a command")),
                )
            }
            "--raw" => raw = Some(args.next().unwrap_or_else(|| die("--raw needs a file"))),
            "--ignore-failure" => ignore_failure = true,
            "--" => {
                cmds.extend(args.by_ref());
            }
            _ if a.starts_with("--") => die(&format!("unknown option {a}")),
            _ => cmds.push(a),
        }
    }
    if cmds.is_empty() || runs == 0 {
        die("usage: runner [--runs N] [--warmup N] [--prepare SH] [--ignore-failure] [--raw FILE] CMD...");
    }
    let parsed: Vec<Vec<Vec<String>>> = cmds.iter().map(|c| split(c)).collect();
    let k = parsed.len();
    let timed = warmup + runs;
    let total = timed + (k - timed % k) % k;

    let err_path =
        std::env::temp_dir().join(format!("quill-bench-runner.{}.stderr", std::process::id()));
    let mut err = OpenOptions::new()
        .read(true)
        .append(true)
        .create(true)
        .open(&err_path)
        .unwrap_or_else(|e| die(&format!("{}: {e}", err_path.display())));
    let _ = std::fs::remove_file(&err_path); // unlinked: the open file lives until we exit

    let mut samples = Vec::with_capacity(runs);
    for i in 0..total {
        if let Some(p) = &prepare {
            let ok = Command::new("sh")
                .arg("-c")
                .arg(p)
                .stdin(Stdio::null())
                .stdout(Stdio::null())
                .status();
            if !matches!(ok, Ok(s) if s.success()) {
                die(&format!("prepare failed: {p}"));
            }
        }
        let s = run(&parsed[i % k], &cmds[i % k], &mut err, ignore_failure);
        if i >= warmup && i < timed {
            samples.push(s);
        }
    }

    if let Some(path) = raw {
        let mut f = OpenOptions::new()
            .append(true)
            .create(true)
            .open(&path)
            .unwrap_or_else(|e| die(&format!("{path}: {e}")));
        for s in &samples {
            let _ = writeln!(f, "{:.4} {:.4} {}", s.wall_ms, s.cpu_ms, s.rss_kib);
        }
    }
    let mut wall: Vec<f64> = samples.iter().map(|s| s.wall_ms).collect();
    let mut cpu: Vec<f64> = samples.iter().map(|s| s.cpu_ms).collect();
    let rss = samples.iter().map(|s| s.rss_kib).max().unwrap_or(0);
    let (wmed, cmed) = (median(&mut wall), median(&mut cpu));
    println!(
        "{:.4} {:.4} {:.4} {:.4} {} {}",
        wmed,
        wall[0],
        cmed,
        cpu[0],
        rss,
        samples.len()
    );
}
