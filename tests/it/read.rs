//! `quill read` (docs/commands/read.md) through the real binary: paging, budgets, encodings, special files,
//! containment, images, PDFs, notebooks, identity and memory.

use std::fs;
use std::os::unix::fs::symlink;
use std::process::Command;
use std::time::{Duration, Instant};

use crate::util::*;

/// `quill --json read args…`, successful: the typed answer.
#[track_caller]
fn read_ok(env: &TestEnv, args: &[&str]) -> ReadAnswer {
    let mut full = vec!["read"];
    full.extend_from_slice(args);
    env.json(&full).ok().read()
}

/// The paths of the session's baselines.
fn baselines(env: &TestEnv) -> Vec<String> {
    env.json(&["state"]).ok().state().paths()
}

#[test]
fn reads_lines_exactly_with_tabs_and_trailing_spaces() {
    let env = TestEnv::new();
    let p = env.write("a.txt", "a\tb\nline2  \n");
    let r = read_ok(&env, &["a.txt"]);
    assert_text("content", &r.content, "a\tb\nline2  \n");
    assert_eq!((r.start_line, r.end_line, r.total_lines), (1, 2, 2));
    assert!(r.complete);
    assert_eq!(r.kind, "text");
    assert_eq!(r.encoding.as_deref(), Some("utf-8"));
    assert_eq!(r.line_ending, "lf");
    assert_eq!(r.next_offset, None);
    assert_eq!(r.size, 12);
    assert_eq!(r.sha256, Some(sha256_hex(b"a\tb\nline2  \n")));
    assert_eq!(r.path, p.to_str().unwrap());
    assert_eq!(
        r.file_access,
        Some(FileAccess {
            path: p.to_str().unwrap().into(),
            access: "read".into()
        })
    );
    env.text(&["read", "a.txt"])
        .ok()
        .assert_stdout("     1\ta\tb\n     2\tline2  \n");
}

#[test]
fn pages_across_a_5000_line_file() {
    let env = TestEnv::new();
    let body: String = (1..=5000).map(|i| format!("line {i}\n")).collect();
    env.write("big.txt", &body);
    let first = read_ok(&env, &["big.txt"]);
    assert_eq!(
        (first.start_line, first.end_line, first.total_lines),
        (1, 2000, 5000)
    );
    assert_eq!(first.next_offset, Some(2001));
    assert!(!first.complete);
    assert_eq!(
        first.sha256,
        Some(sha256_hex(body.as_bytes())),
        "the whole file is hashed"
    );
    let mut all = String::new();
    let mut offset = 1u64;
    loop {
        let r = read_ok(&env, &["big.txt", "--offset", &offset.to_string()]);
        assert_eq!(r.start_line, offset);
        all.push_str(&r.content);
        match r.next_offset {
            Some(n) => offset = n,
            None => break,
        }
    }
    assert_text("the pages joined", &all, &body);
    env.text(&["read", "big.txt", "--offset", "10", "--limit", "2"])
        .ok()
        .assert_stdout(
            "    10\tline 10\n    11\tline 11\n(lines 10-11 of 5000; next: --offset 12)\n",
        );
}

#[test]
fn a_page_stops_before_a_line_that_would_pass_the_budget() {
    let env = TestEnv::new();
    env.write("a.txt", "aaaa\nbbbb\ncccc\n");
    let r = read_ok(&env, &["a.txt", "--max-bytes", "12"]);
    assert_eq!(r.content, "aaaa\nbbbb\n");
    assert_eq!(r.next_offset, Some(3));
    // The default budget is 50 KiB of complete lines.
    let line = "x".repeat(99) + "\n";
    env.write("b.txt", line.repeat(1000));
    let r = read_ok(&env, &["b.txt"]);
    assert_eq!(r.end_line, 512);
    assert_eq!(r.content.len(), 51200);
}

#[test]
fn a_200kb_single_line_is_cut_in_the_display_or_refused_without_a_cap() {
    let env = TestEnv::new();
    let line = "y".repeat(200_000);
    env.write("long.txt", format!("{line}\nshort\n"));
    let r = read_ok(&env, &["long.txt"]);
    let content = r.content.as_str();
    assert!(content.starts_with(&"y".repeat(2000)));
    assert!(
        content.contains("… [198000 more chars]\nshort\n"),
        "{}",
        &content[1990..]
    );
    assert_eq!(r.truncated_lines, [1]);
    assert!(!r.complete);
    let e = env
        .json(&["read", "long.txt", "--max-line-chars", "0"])
        .err("line_too_long", 3)
        .failure()
        .error;
    assert_eq!(e.field("line"), 1);
    // With a budget that fits, the whole line is shown.
    let r = read_ok(
        &env,
        &["long.txt", "--max-line-chars", "0", "--max-bytes", "300000"],
    );
    assert!(r.complete);
    assert_eq!(r.content, format!("{line}\nshort\n"));
}

/// Issue: a 108 KB line was "51201 bytes" with "raise --max-bytes above 51201", which failed
/// again one byte higher each time. The answer gives the real size and a call that works.
#[test]
fn a_line_too_long_tells_its_real_size_and_the_call_that_shows_it() {
    let env = TestEnv::new();
    let line = "x".repeat(108_000);
    env.write("big.js", format!("{line}\n"));
    let p = env.path("big.js");
    let p = p.display();

    // Whole lines asked for (--max-line-chars 0): its size is the budget that shows it.
    env.text(&["read", "big.js", "--max-line-chars", "0"])
        .exit(3)
        .assert_stdout("")
        .assert_stderr(&format!(
            "quill: error: line 1 of {p} is 108001 bytes, more than the page budget of 51200 bytes\n  \
             hint: `quill read {p} --max-line-chars 0 --max-bytes 108001` shows it whole; without \
             --max-line-chars 0 long lines are cut to 2000 characters\n"
        ));
    let out = env.json(&["read", "big.js", "--max-line-chars", "0"]);
    let e = out.err("line_too_long", 3).failure().error;
    assert_eq!(
        (e.field("line"), e.field("bytes"), e.field("lineBytes")),
        (&1.into(), &108001.into(), &108001.into())
    );
    assert_eq!(
        (e.field("maxBytes"), e.field("maxLineChars")),
        (&51200.into(), &0.into())
    );
    let call = suggested_call(e.hint.as_deref().unwrap());
    let shown = env.shell(&format!("{call} --json"));
    let r = shown.ok().read();
    assert_eq!(r.content, format!("{line}\n"));
    assert!(r.complete);

    // A small budget with the display cut: the cut line's size, and the call that fits it.
    let out = env.json(&["read", "big.js", "--max-bytes", "100"]);
    let e = out.err("line_too_long", 3).failure().error;
    assert_eq!(
        e.message,
        format!(
            "line 1 of {p} is 108001 bytes; cut to 2000 characters it still takes 2024 bytes, more than the page budget of 100 bytes"
        )
    );
    assert_eq!(
        e.hint.as_deref(),
        Some(
            format!("`quill read {p} --max-line-chars 2000 --max-bytes 2024` shows it cut to 2000 characters")
                .as_str()
        )
    );
    let r = env
        .shell(&format!(
            "{} --json",
            suggested_call(e.hint.as_deref().unwrap())
        ))
        .ok()
        .read();
    assert!(r.content.ends_with("… [106000 more chars]\n"));
    assert_eq!(r.truncated_lines, [1]);
}

/// The long line is the third: the page before it ends there, and the hint's call starts at
/// it; bytes shown as U+FFFD count as what the display takes, not the file's bytes.
#[test]
fn a_long_line_further_down_is_named_by_its_offset() {
    let env = TestEnv::new();
    let mut bytes = b"a\nb\n".to_vec();
    bytes.extend(vec![b'x'; 30_000]);
    bytes.extend(vec![0xFF; 10_000]);
    bytes.push(b'\n');
    env.write("l.txt", &bytes);
    let args = [
        "read",
        "l.txt",
        "--max-line-chars",
        "0",
        "--encoding",
        "utf-8",
    ];
    let r = env.json(&args).ok().read();
    assert_eq!((r.end_line, r.next_offset), (2, Some(3)));
    let mut at_three = args.to_vec();
    at_three.extend(["--offset", "3"]);
    let e = env.json(&at_three).err("line_too_long", 3).failure().error;
    let p = env.path("l.txt");
    assert_eq!(
        e.message,
        format!(
            "line 3 of {} is 40001 bytes (60001 bytes as shown), more than the page budget of 51200 bytes",
            p.display()
        )
    );
    let call = suggested_call(e.hint.as_deref().unwrap());
    assert_eq!(
        call,
        format!(
            "quill read {} --encoding UTF-8 --offset 3 --max-line-chars 0 --max-bytes 60001",
            p.display()
        )
    );
    let r = env.shell(&format!("{call} --json")).ok().read();
    assert_eq!(r.start_line, 3);
    assert_eq!(r.content.len(), 60001);
}

/// Standard input: the hint names `-`.
#[test]
fn a_long_line_on_stdin_is_named_as_stdin() {
    let env = TestEnv::new();
    let input = format!("{}\n", "y".repeat(60_000));
    let e = env
        .json_stdin(&["read", "-", "--max-line-chars", "0"], input.as_bytes())
        .err("line_too_long", 3)
        .failure()
        .error;
    let call = suggested_call(e.hint.as_deref().unwrap());
    assert_eq!(call, "quill read - --max-line-chars 0 --max-bytes 60001");
    let r = env
        .cmd(["--json"])
        .args(call.split(' ').skip(1))
        .stdin(input.as_bytes())
        .run()
        .ok()
        .read();
    assert_eq!(r.content, input);
}

#[test]
fn offset_past_the_end_records_nothing() {
    let env = TestEnv::new();
    env.write("a.txt", "1\n2\n");
    let out = env.json(&["read", "a.txt", "--offset", "3"]);
    let e = out.err("offset_past_end", 1).failure().error;
    assert_eq!(e.field("totalLines"), 2);
    assert!(out.json.get("fileAccess").is_none());
    assert_eq!(baselines(&env), Vec::<String>::new());
}

#[test]
fn an_empty_file_records_a_baseline() {
    let env = TestEnv::new();
    let p = env.write("e.txt", "");
    let r = read_ok(&env, &["e.txt"]);
    assert_eq!((r.start_line, r.end_line, r.total_lines), (1, 0, 0));
    assert_eq!(r.content, "");
    assert!(r.complete);
    assert_eq!(r.file_access.unwrap().access, "read");
    assert_eq!(baselines(&env), [p.to_str().unwrap()]);
    env.json(&["read", "e.txt", "--offset", "2"])
        .err("offset_past_end", 1);
    env.text(&["read", "e.txt"]).ok().assert_stdout("");
}

#[test]
fn missing_file_suggests_similar_names() {
    let env = TestEnv::new();
    env.write("config.toml", "x");
    env.write("other.txt", "x");
    let e = env
        .json(&["read", "confg.toml"])
        .err("not_found", 4)
        .failure()
        .error;
    assert_eq!(
        e.field("similar"),
        &serde_json::json!([env.path("config.toml")])
    );
    assert!(e.hint.unwrap().contains("config.toml"));
}

#[test]
fn fifo_and_device_are_never_opened() {
    let env = TestEnv::new();
    let fifo = env.path("pipe");
    let st = Command::new("mkfifo").arg(&fifo).status().unwrap();
    assert!(st.success());
    let start = Instant::now();
    let e = env
        .json(&["read", "pipe"])
        .err("irregular_file", 3)
        .failure()
        .error;
    assert_eq!(e.field("fileType"), "FIFO");
    assert!(start.elapsed() < Duration::from_secs(5), "returns at once");
    env.json(&["read", "/dev/null"]).err("irregular_file", 3);
}

#[test]
fn symlinks_are_followed_and_named() {
    let env = TestEnv::new();
    env.write("real.txt", "hello\n");
    symlink("real.txt", env.path("link.txt")).unwrap();
    let r = read_ok(&env, &["link.txt"]);
    let real = env.path("real.txt").to_str().unwrap().to_string();
    assert_eq!(r.path, real);
    assert_eq!(r.via_symlink.as_deref(), env.path("link.txt").to_str());
    assert_eq!(r.file_access.unwrap().path, real);
    assert_eq!(baselines(&env), [real]);
    symlink("gone.txt", env.path("dangling")).unwrap();
    let e = env
        .json(&["read", "dangling"])
        .err("not_found", 4)
        .failure()
        .error;
    assert_eq!(e.field("path"), env.path("gone.txt").to_str().unwrap());
}

#[test]
fn root_confines_dotdot_absolute_and_symlink_escapes() {
    let env = TestEnv::new();
    env.write("ws/in.txt", "in\n");
    env.write("ws2/out.txt", "out\n");
    env.write("secret.txt", "s\n");
    symlink(env.path("secret.txt"), env.path("ws/escape")).unwrap();
    fs::create_dir_all(env.path("ws/sub")).unwrap();
    symlink(env.path("ws2"), env.path("ws/sub/dirlink")).unwrap();
    let root = env.path("ws");
    let root = root.to_str().unwrap();
    env.json(&["--root", root, "read", "ws/in.txt"]).ok();
    for bad in [
        "ws/../secret.txt".to_string(),
        env.path("secret.txt").display().to_string(),
        "ws/escape".to_string(),
        "ws/sub/dirlink/out.txt".to_string(),
        env.path("ws2/out.txt").display().to_string(), // /ws2 is not inside /ws
    ] {
        let e = env
            .json(&["--root", root, "read", &bad])
            .err("outside_root", 3)
            .failure()
            .error;
        assert!(e.message.contains(root), "names the root: {}", e.message);
        assert!(e.field("target").is_string());
    }
    // The environment variable works too.
    env.cmd(["--json", "read", "secret.txt"])
        .env("QUILL_ROOT", root)
        .run()
        .err("outside_root", 3);
    assert_eq!(baselines(&env), [env.path("ws/in.txt").to_str().unwrap()]);
}

#[test]
fn binary_files_are_refused_with_a_guess() {
    let env = TestEnv::new();
    let mut elf = b"\x7fELF\x02\x01\x01\0\0\0\0\0\0\0\0\0".to_vec();
    elf.extend_from_slice(&[0u8; 100]);
    env.write("prog", &elf);
    let out = env.json(&["read", "prog"]);
    let e = out.err("binary_file", 3).failure().error;
    assert_eq!(e.field("size"), 116);
    assert_eq!(e.field("guess"), "ELF executable");
    assert!(
        !out.stdout.contains(&sha256_hex(&elf)),
        "no hash of an unread file"
    );
}

fn png(width: u32, height: u32) -> Vec<u8> {
    let mut v = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR".to_vec();
    v.extend_from_slice(&width.to_be_bytes());
    v.extend_from_slice(&height.to_be_bytes());
    v.extend_from_slice(&[8, 6, 0, 0, 0, 0, 0, 0, 0]);
    v.extend_from_slice(b"\0\0\0\0IEND\xaeB`\x82");
    v
}

/// What every image answer says, shown or not: an image has no lines.
#[track_caller]
fn assert_no_lines(r: &ReadAnswer) {
    assert_eq!(r.kind, "image");
    assert_eq!(r.mime.as_deref(), Some("image/png"));
    assert_eq!((r.width, r.height), (Some(640), Some(480)));
    assert_eq!((r.start_line, r.end_line, r.total_lines), (0, 0, 0));
    assert_eq!(r.next_offset, None);
    assert_eq!(r.content, "");
    assert!(r.truncated_lines.is_empty());
    assert_eq!(r.encoding, None);
    assert_eq!(r.line_ending, "none");
    assert!(!r.bom && !r.lossy);
}

#[test]
fn an_image_described_records_nothing_and_shown_inline_records_a_baseline() {
    let env = TestEnv::new();
    let bytes = png(640, 480);
    let p = env.write("pic.png", &bytes);
    // Described, not shown: no fileAccess (absent), no hash (null), not complete, no
    // baseline — and `--offset` changes nothing of that.
    for args in [&["pic.png"][..], &["pic.png", "--offset", "5"]] {
        let out = env.json(&[&["read"][..], args].concat());
        let r = out.ok().read();
        assert_no_lines(&r);
        assert!(out.json.get("fileAccess").is_none(), "{}", out.stdout);
        assert!(out.json["sha256"].is_null(), "{}", out.stdout);
        assert!(out.json.get("data").is_none(), "{}", out.stdout);
        assert!(!r.complete);
        assert_eq!(r.size, bytes.len() as u64);
        assert!(r.warnings.is_empty(), "{:?}", r.warnings);
    }
    assert_eq!(baselines(&env), Vec::<String>::new());
    env.json(&["write", "pic.png", "--content", "x"])
        .err("not_read", 3);
    env.text(&["read", "pic.png"])
        .ok()
        .stdout_has("image/png, 640x480");
    // Shown whole: the bytes, a baseline of the whole file, fileAccess, the hash, complete.
    let r = read_ok(&env, &["pic.png", "--inline-image"]);
    assert_no_lines(&r);
    use base64::Engine;
    let data = base64::engine::general_purpose::STANDARD
        .decode(r.data.as_deref().unwrap())
        .unwrap();
    assert_eq!(data, bytes);
    assert_eq!(
        r.file_access,
        Some(FileAccess {
            path: p.to_str().unwrap().into(),
            access: "read".into()
        })
    );
    assert_eq!(r.sha256, Some(sha256_hex(&bytes)));
    assert!(r.complete);
    let st = env.json(&["state"]).ok().state();
    let b = &st.baselines()[0];
    assert_eq!((b.path.as_str(), b.complete), (p.to_str().unwrap(), true));
    assert_eq!(b.sha256, sha256_hex(&bytes));
    // The baseline is a real one: the image can be replaced now.
    env.json(&["write", "pic.png", "--content", "x"]).ok();
    env.assert_file("pic.png", "x");
}

#[test]
fn an_image_over_the_inline_limit_is_described_with_a_warning() {
    let env = TestEnv::new();
    let mut bytes = png(640, 480);
    bytes.resize(5 * 1024 * 1024 + 1, 0);
    env.write("big.png", &bytes);
    let out = env.json(&["read", "big.png", "--inline-image"]);
    let r = out.ok().read();
    assert_no_lines(&r);
    assert_eq!(kinds(&r.warnings), ["image_not_inlined"]);
    assert!(out.json.get("data").is_none() && out.json.get("fileAccess").is_none());
    assert_eq!((r.sha256.as_deref(), r.complete), (None, false));
    assert_eq!(baselines(&env), Vec::<String>::new());
    env.text(&["read", "big.png", "--inline-image"])
        .ok()
        .stderr_has("quill: warning: the image is 5242881 bytes");
}

#[test]
fn bom_and_crlf_are_reported_and_kept_out_of_the_display() {
    let env = TestEnv::new();
    env.write("w.txt", b"\xef\xbb\xbfone\r\ntwo\r\nthree");
    let r = read_ok(&env, &["w.txt"]);
    assert!(r.bom);
    assert_eq!(r.encoding.as_deref(), Some("utf-8"));
    assert_eq!(r.line_ending, "crlf");
    assert_text("content", &r.content, "one\r\ntwo\r\nthree");
    assert_eq!(r.total_lines, 3);
    env.text(&["read", "w.txt"])
        .ok()
        .assert_stdout("     1\tone\n     2\ttwo\n     3\tthree\n");
    env.write("m.txt", "a\r\nb\nc\r");
    assert_eq!(read_ok(&env, &["m.txt"]).line_ending, "mixed");
}

#[test]
fn utf16_is_decoded() {
    let env = TestEnv::new();
    for (name, bom, be) in [
        ("le.txt", [0xFF, 0xFE], false),
        ("be.txt", [0xFE, 0xFF], true),
    ] {
        let mut bytes = bom.to_vec();
        for unit in "héllo\nwörld\n".encode_utf16() {
            bytes.extend_from_slice(&if be {
                unit.to_be_bytes()
            } else {
                unit.to_le_bytes()
            });
        }
        env.write(name, &bytes);
        let r = read_ok(&env, &[name]);
        assert_eq!(r.content, "héllo\nwörld\n");
        assert_eq!(
            r.encoding.as_deref(),
            Some(if be { "utf-16be" } else { "utf-16le" })
        );
        assert!(r.bom);
        assert_eq!(r.sha256, Some(sha256_hex(&bytes)));
        assert_eq!(r.size, bytes.len() as u64);
    }
}

#[test]
fn latin1_is_decoded_with_a_warning_not_as_binary() {
    let env = TestEnv::new();
    env.write("l.txt", b"caf\xe9\nok\n");
    let r = read_ok(&env, &["l.txt"]);
    assert_eq!(r.content, "café\nok\n");
    assert_eq!(r.encoding.as_deref(), Some("windows-1252"));
    assert!(!r.lossy);
    assert_eq!(kinds(&r.warnings), ["encoding_detected"]);
    env.text(&["read", "l.txt"]).ok().stderr_has("warning");
    // Read as UTF-8 on purpose, it is shown with U+FFFD for the bad byte.
    let r = read_ok(&env, &["l.txt", "--encoding", "utf-8"]);
    assert_eq!(r.content, "caf\u{FFFD}\nok\n");
    assert_eq!(r.encoding.as_deref(), Some("utf-8"));
    assert!(r.lossy);
    assert_eq!(kinds(&r.warnings), ["lossy_decoding"]);
}

/// A minimal two-page PDF with one line of text per page.
fn pdf() -> Vec<u8> {
    let mut objs = vec![
        "<< /Type /Catalog /Pages 2 0 R >>".to_string(),
        "<< /Type /Pages /Kids [3 0 R 5 0 R] /Count 2 >>".to_string(),
        "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 300 200] /Contents 4 0 R /Resources << /Font << /F1 7 0 R >> >> >>".to_string(),
    ];
    let page = |text: &str| {
        let s = format!("BT /F1 18 Tf 20 100 Td ({text}) Tj ET");
        format!("<< /Length {} >>\nstream\n{s}\nendstream", s.len())
    };
    objs.push(page("Hello first page"));
    objs.push("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 300 200] /Contents 6 0 R /Resources << /Font << /F1 7 0 R >> >> >>".to_string());
    objs.push(page("Second page here"));
    objs.push("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>".to_string());
    let mut out = b"%PDF-1.4\n".to_vec();
    let mut offsets = Vec::new();
    for (i, o) in objs.iter().enumerate() {
        offsets.push(out.len());
        out.extend_from_slice(format!("{} 0 obj\n{o}\nendobj\n", i + 1).as_bytes());
    }
    let xref = out.len();
    out.extend_from_slice(format!("xref\n0 {}\n0000000000 65535 f \n", objs.len() + 1).as_bytes());
    for off in offsets {
        out.extend_from_slice(format!("{off:010} 00000 n \n").as_bytes());
    }
    out.extend_from_slice(
        format!(
            "trailer\n<< /Size {} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n",
            objs.len() + 1
        )
        .as_bytes(),
    );
    out
}

#[test]
#[ignore = "needs pdftotext and pdfinfo (poppler-utils)"]
fn pdf_text_through_pdftotext() {
    require("pdftotext", "poppler-utils");
    require("pdfinfo", "poppler-utils");
    let env = TestEnv::new();
    let bytes = pdf();
    env.write("doc.pdf", &bytes);
    let r = read_ok(&env, &["doc.pdf"]);
    assert_eq!(r.kind, "pdf");
    assert_eq!(r.page_count, Some(2));
    assert!(
        r.content.contains("Hello first page") && r.content.contains("Second page here"),
        "{}",
        r.content
    );
    assert_eq!(
        r.file_access.map(|a| a.access).as_deref(),
        Some("read"),
        "every page shown: a baseline"
    );
    env.json(&["state", "clear"]).ok();
    let r = read_ok(&env, &["doc.pdf", "--pages", "2"]);
    assert!(
        !r.content.contains("Hello first page") && r.content.contains("Second page"),
        "{}",
        r.content
    );
    assert_eq!(r.file_access, None, "one page of two: no baseline");
    assert_eq!(baselines(&env), Vec::<String>::new());
}

#[test]
fn pdf_without_converter_says_how_to_install_it() {
    let env = TestEnv::new();
    env.write("doc.pdf", pdf());
    let empty = env.path("emptybin");
    fs::create_dir(&empty).unwrap();
    let e = env
        .cmd(["--json", "read", "doc.pdf"])
        .env("PATH", &empty)
        .run()
        .err("converter_missing", 4)
        .failure()
        .error;
    assert!(e.field("install").as_str().unwrap().contains("poppler"));
}

#[test]
fn notebooks_are_rendered_as_cells() {
    let env = TestEnv::new();
    let nb = serde_json::json!({
        "nbformat": 4, "nbformat_minor": 5, "metadata": {},
        "cells": [
            {"cell_type": "markdown", "metadata": {}, "source": ["# Title\n", "Some text"]},
            {"cell_type": "code", "metadata": {}, "execution_count": 1, "source": "print('hi')",
             "outputs": [{"output_type": "stream", "name": "stdout", "text": ["hi\n"]}]}
        ]
    });
    env.write("n.ipynb", nb.to_string());
    let r = read_ok(&env, &["n.ipynb"]);
    assert_eq!(r.kind, "notebook");
    let content = r.content.as_str();
    let title = content.find("# Title").unwrap();
    let code = content.find("print('hi')").unwrap();
    let output = content.rfind("hi\n").unwrap();
    assert!(title < code && code < output, "{content}");
    assert!(
        content.contains("[code]") && content.contains("[markdown]"),
        "{content}"
    );
    assert_eq!(r.sha256, Some(sha256_hex(nb.to_string().as_bytes())));
}

#[test]
fn a_file_that_keeps_changing_is_reported() {
    let env = TestEnv::new();
    let path = env.write("grow.log", "x".repeat(1 << 20));
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let writer = {
        let stop = stop.clone();
        let path = path.clone();
        std::thread::spawn(move || {
            use std::io::Write;
            let mut f = fs::OpenOptions::new().append(true).open(path).unwrap();
            // Small appends every 200 µs, for at most 10 s: the file changes during every read,
            // and stays small (a few MiB) whatever happens to the reader.
            let start = std::time::Instant::now();
            while !stop.load(std::sync::atomic::Ordering::Relaxed)
                && start.elapsed() < std::time::Duration::from_secs(10)
            {
                f.write_all(&[b'y'; 64]).unwrap();
                std::thread::sleep(std::time::Duration::from_micros(200));
            }
        })
    };
    let mut seen = false;
    for _ in 0..20 {
        let out = env.json(&["read", "grow.log", "--limit", "1"]);
        if out.code == 3 {
            out.err("changed_during_read", 3);
            seen = true;
            break;
        }
        out.ok();
    }
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    writer.join().unwrap();
    assert!(
        seen,
        "a file appended to without pause is changed_during_read"
    );
    assert!(fs::metadata(&path).unwrap().len() > 1 << 20);
}

#[test]
fn a_400mb_file_is_paged_in_bounded_memory() {
    let env = TestEnv::new();
    let path = env.path("huge.txt");
    {
        use std::io::Write;
        let mut f = std::io::BufWriter::new(fs::File::create(&path).unwrap());
        let line = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcde\n"; // 64 bytes
        for _ in 0..(400 << 20) / 64 {
            f.write_all(line.as_bytes()).unwrap();
        }
    }
    // The peak RSS is the kernel's figure for the child (wait4's ru_maxrss), not a sample.
    let (out, kib) = env
        .cmd([
            "--json", "read", "huge.txt", "--offset", "3000000", "--limit", "10",
        ])
        .spawn()
        .wait_peak_rss();
    let r = out.ok().read();
    assert_eq!(r.total_lines, 6_553_600);
    assert_eq!((r.start_line, r.end_line), (3_000_000, 3_000_009));
    assert_eq!(r.size, 400 << 20);
    eprintln!("peak RSS of a 400 MB read: {kib} KiB");
    // The contract: a page of any file in at most 16 MiB.
    out.check(kib > 0 && kib < 16 * 1024, format!("peak RSS {kib} KiB"));
    fs::remove_file(path).unwrap();
}

#[test]
fn a_line_of_stray_bytes_is_cut_in_bounded_memory() {
    let env = TestEnv::new();
    let mut bytes = vec![0x80u8; 8 << 20];
    bytes.push(b'\n');
    env.write("cp1252.txt", &bytes);
    // As UTF-8 (named: detected, 0x80 is windows-1252's euro sign) the stray bytes are cut.
    let r = read_ok(&env, &["cp1252.txt", "--encoding", "utf-8"]);
    let content = r.content.as_str();
    assert!(content.len() < 51200, "{}", content.len());
    assert!(
        content.ends_with("more bytes]\n"),
        "{}",
        &content[content.len() - 40..]
    );
    assert!(r.lossy);
}

#[test]
fn dotdot_after_a_symlink_is_resolved_as_the_kernel_does() {
    let env = TestEnv::new();
    env.write("ws/a.txt", "inside\n");
    env.write("other/x", "");
    env.write("a.txt", "PARENT\n");
    symlink("../other", env.path("ws/lnk")).unwrap();
    // ws/lnk/.. is `other/..`, the work dir: a.txt there is "PARENT", as `cat` would show.
    let r = read_ok(&env, &["ws/lnk/../a.txt"]);
    assert_eq!(r.content, "PARENT\n");
    assert_eq!(r.path, env.path("a.txt").to_str().unwrap());
    let root = env.path("ws");
    env.json(&["--root", root.to_str().unwrap(), "read", "ws/lnk/../a.txt"])
        .err("outside_root", 3);
}

#[test]
#[ignore = "needs pdftotext and pdfinfo (poppler-utils)"]
fn a_pdf_page_not_shown_whole_records_no_baseline() {
    require("pdftotext", "poppler-utils");
    require("pdfinfo", "poppler-utils");
    let env = TestEnv::new();
    env.write("doc.pdf", pdf());
    let r = read_ok(&env, &["doc.pdf", "--limit", "1"]);
    assert_eq!(r.kind, "pdf");
    assert!(!r.complete);
    assert_eq!(r.file_access, None);
    assert_eq!(r.sha256, None);
    assert_eq!(baselines(&env), Vec::<String>::new());
}

#[test]
#[ignore = "needs pdfinfo (poppler-utils)"]
fn a_text_file_that_starts_like_a_pdf_is_read_as_text() {
    // With pdfinfo there, quill asks it, and it says "not a PDF".
    require("pdfinfo", "poppler-utils");
    let env = TestEnv::new();
    env.write("notes.md", "%PDF-1.7 header notes\nsecond line\n");
    let r = read_ok(&env, &["notes.md"]);
    assert_eq!(r.kind, "text");
    assert_eq!(r.content, "%PDF-1.7 header notes\nsecond line\n");
}
