//! `quill read` (SPEC §3.1) through the real binary: paging, budgets, encodings, special files,
//! containment, images, PDFs, notebooks, identity and memory.

use std::fs;
use std::os::unix::fs::symlink;
use std::process::Command;
use std::time::{Duration, Instant};

use crate::util::*;

#[test]
fn reads_lines_exactly_with_tabs_and_trailing_spaces() {
    let env = TestEnv::new();
    env.write("a.txt", "a\tb\nline2  \n");
    let out = env.json(&["read", "a.txt"]);
    out.ok();
    assert_eq!(out.j("content"), "a\tb\nline2  \n");
    assert_eq!(out.j("totalLines"), 2);
    assert_eq!(out.j("complete"), true);
    assert_eq!(out.j("kind"), "text");
    assert_eq!(out.j("lineEnding"), "lf");
    assert!(out.j("nextOffset").is_null());
    assert_eq!(out.j("sha256"), sha256_hex(b"a\tb\nline2  \n").as_str());
    assert_eq!(out.j("fileAccess")["access"], "read");
    assert_eq!(
        out.j("fileAccess")["path"],
        env.path("a.txt").to_str().unwrap()
    );
    let text = env.text(&["read", "a.txt"]);
    assert_eq!(text.stdout, "     1\ta\tb\n     2\tline2  \n");
}

#[test]
fn pages_across_a_5000_line_file() {
    let env = TestEnv::new();
    let body: String = (1..=5000).map(|i| format!("line {i}\n")).collect();
    env.write("big.txt", &body);
    let first = env.json(&["read", "big.txt"]);
    first.ok();
    assert_eq!(first.j("startLine"), 1);
    assert_eq!(first.j("endLine"), 2000);
    assert_eq!(first.j("totalLines"), 5000);
    assert_eq!(first.j("nextOffset"), 2001);
    assert_eq!(first.j("complete"), false);
    assert_eq!(
        first.j("sha256"),
        sha256_hex(body.as_bytes()).as_str(),
        "the whole file is hashed"
    );
    let mut all = String::new();
    let mut offset = 1u64;
    loop {
        let out = env.json(&["read", "big.txt", "--offset", &offset.to_string()]);
        out.ok();
        all.push_str(out.j("content").as_str().unwrap());
        match out.j("nextOffset").as_u64() {
            Some(n) => offset = n,
            None => break,
        }
    }
    assert_eq!(all, body);
    let text = env.text(&["read", "big.txt", "--offset", "10", "--limit", "2"]);
    assert_eq!(
        text.stdout,
        "    10\tline 10\n    11\tline 11\n(lines 10-11 of 5000; next: --offset 12)\n"
    );
}

#[test]
fn a_page_stops_before_a_line_that_would_pass_the_budget() {
    let env = TestEnv::new();
    env.write("a.txt", "aaaa\nbbbb\ncccc\n");
    let out = env.json(&["read", "a.txt", "--max-bytes", "12"]);
    out.ok();
    assert_eq!(out.j("content"), "aaaa\nbbbb\n");
    assert_eq!(out.j("nextOffset"), 3);
    // The default budget is 50 KiB of complete lines.
    let line = "x".repeat(99) + "\n";
    env.write("b.txt", line.repeat(1000));
    let out = env.json(&["read", "b.txt"]);
    assert_eq!(out.j("endLine"), 512);
    assert_eq!(out.j("content").as_str().unwrap().len(), 51200);
}

#[test]
fn a_200kb_single_line_is_cut_in_the_display_or_refused_without_a_cap() {
    let env = TestEnv::new();
    let line = "y".repeat(200_000);
    env.write("long.txt", format!("{line}\nshort\n"));
    let out = env.json(&["read", "long.txt"]);
    out.ok();
    let content = out.j("content").as_str().unwrap();
    assert!(content.starts_with(&"y".repeat(2000)));
    assert!(
        content.contains("… [198000 more chars]\nshort\n"),
        "{}",
        &content[1990..]
    );
    assert_eq!(out.j("truncatedLines"), &serde_json::json!([1]));
    assert_eq!(out.j("complete"), false);
    let out = env.json(&["read", "long.txt", "--max-line-chars", "0"]);
    out.err("line_too_long", 3);
    assert_eq!(out.j("error")["line"], 1);
    // With a budget that fits, the whole line is shown.
    let out = env.json(&[
        "read",
        "long.txt",
        "--max-line-chars",
        "0",
        "--max-bytes",
        "300000",
    ]);
    out.ok();
    assert_eq!(out.j("complete"), true);
}

#[test]
fn offset_past_the_end_records_nothing() {
    let env = TestEnv::new();
    env.write("a.txt", "1\n2\n");
    let out = env.json(&["read", "a.txt", "--offset", "3"]);
    out.err("offset_past_end", 1);
    assert_eq!(out.j("error")["totalLines"], 2);
    assert!(out.json.get("fileAccess").is_none());
    assert_eq!(env.json(&["state"]).j("files").as_array().unwrap().len(), 0);
}

#[test]
fn an_empty_file_records_a_baseline() {
    let env = TestEnv::new();
    env.write("e.txt", "");
    let out = env.json(&["read", "e.txt"]);
    out.ok();
    assert_eq!(out.j("totalLines"), 0);
    assert_eq!(out.j("content"), "");
    assert_eq!(out.j("complete"), true);
    assert_eq!(out.j("fileAccess")["access"], "read");
    assert_eq!(env.json(&["state"]).j("files").as_array().unwrap().len(), 1);
    assert_eq!(env.json(&["read", "e.txt", "--offset", "2"]).code, 1);
}

#[test]
fn missing_file_suggests_similar_names() {
    let env = TestEnv::new();
    env.write("config.toml", "x");
    env.write("other.txt", "x");
    let out = env.json(&["read", "confg.toml"]);
    out.err("not_found", 4);
    let similar = out.j("error")["similar"].as_array().unwrap();
    assert_eq!(similar.len(), 1);
    assert!(similar[0].as_str().unwrap().ends_with("config.toml"));
    assert!(
        out.j("error")["hint"]
            .as_str()
            .unwrap()
            .contains("config.toml")
    );
}

#[test]
fn directory_is_refused_with_a_glob_hint() {
    let env = TestEnv::new();
    fs::create_dir(env.path("d")).unwrap();
    let out = env.json(&["read", "d"]);
    out.err("is_directory", 3);
    assert!(out.j("error")["hint"].as_str().unwrap().contains("glob"));
}

#[test]
fn fifo_and_device_are_never_opened() {
    let env = TestEnv::new();
    let fifo = env.path("pipe");
    let st = Command::new("mkfifo").arg(&fifo).status().unwrap();
    assert!(st.success());
    let start = Instant::now();
    let out = env.json(&["read", "pipe"]);
    out.err("irregular_file", 3);
    assert_eq!(out.j("error")["fileType"], "FIFO");
    assert!(start.elapsed() < Duration::from_secs(5), "returns at once");
    let out = env.json(&["read", "/dev/null"]);
    out.err("irregular_file", 3);
}

#[test]
fn symlinks_are_followed_and_named() {
    let env = TestEnv::new();
    env.write("real.txt", "hello\n");
    symlink("real.txt", env.path("link.txt")).unwrap();
    let out = env.json(&["read", "link.txt"]);
    out.ok();
    assert_eq!(out.j("path"), env.path("real.txt").to_str().unwrap());
    assert_eq!(out.j("viaSymlink"), env.path("link.txt").to_str().unwrap());
    assert_eq!(
        out.j("fileAccess")["path"],
        env.path("real.txt").to_str().unwrap()
    );
    symlink("gone.txt", env.path("dangling")).unwrap();
    let out = env.json(&["read", "dangling"]);
    out.err("not_found", 4);
    assert_eq!(
        out.j("error")["path"],
        env.path("gone.txt").to_str().unwrap()
    );
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
        let out = env.json(&["--root", root, "read", &bad]);
        out.err("outside_root", 3);
        let msg = out.j("error")["message"].as_str().unwrap();
        assert!(msg.contains(root), "names the root: {msg}");
        assert!(out.j("error")["target"].is_string());
    }
    // The environment variable works too.
    let mut c = env.command(["--json", "read", "secret.txt"]);
    c.env("QUILL_ROOT", root);
    run(c, None).err("outside_root", 3);
}

#[test]
fn binary_files_are_refused_with_a_guess() {
    let env = TestEnv::new();
    let mut elf = b"\x7fELF\x02\x01\x01\0\0\0\0\0\0\0\0\0".to_vec();
    elf.extend_from_slice(&[0u8; 100]);
    env.write("prog", &elf);
    let out = env.json(&["read", "prog"]);
    out.err("binary_file", 3);
    assert_eq!(out.j("error")["size"], 116);
    assert_eq!(out.j("error")["guess"], "ELF executable");
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

#[test]
fn png_dimensions_and_inline_data() {
    let env = TestEnv::new();
    let bytes = png(640, 480);
    env.write("pic.png", &bytes);
    let out = env.json(&["read", "pic.png"]);
    out.ok();
    assert_eq!(out.j("kind"), "image");
    assert_eq!(out.j("mime"), "image/png");
    assert_eq!(out.j("width"), 640);
    assert_eq!(out.j("height"), 480);
    assert!(
        out.json.get("fileAccess").is_none(),
        "not shown: no baseline"
    );
    assert!(out.json.get("data").is_none());
    let out = env.json(&["read", "pic.png", "--inline-image"]);
    out.ok();
    use base64::Engine;
    let data = base64::engine::general_purpose::STANDARD
        .decode(out.j("data").as_str().unwrap())
        .unwrap();
    assert_eq!(data, bytes);
    assert_eq!(out.j("fileAccess")["access"], "read");
    assert_eq!(out.j("sha256"), sha256_hex(&bytes).as_str());
    let text = env.text(&["read", "pic.png"]);
    assert!(
        text.stdout.contains("image/png, 640x480"),
        "{}",
        text.stdout
    );
}

#[test]
fn bom_and_crlf_are_reported_and_kept_out_of_the_display() {
    let env = TestEnv::new();
    env.write("w.txt", b"\xef\xbb\xbfone\r\ntwo\r\nthree");
    let out = env.json(&["read", "w.txt"]);
    out.ok();
    assert_eq!(out.j("bom"), true);
    assert_eq!(out.j("encoding"), "utf-8");
    assert_eq!(out.j("lineEnding"), "crlf");
    assert_eq!(out.j("content"), "one\r\ntwo\r\nthree");
    assert_eq!(out.j("totalLines"), 3);
    let text = env.text(&["read", "w.txt"]);
    assert_eq!(text.stdout, "     1\tone\n     2\ttwo\n     3\tthree\n");
    env.write("m.txt", "a\r\nb\nc\r");
    assert_eq!(env.json(&["read", "m.txt"]).j("lineEnding"), "mixed");
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
        let out = env.json(&["read", name]);
        out.ok();
        assert_eq!(out.j("content"), "héllo\nwörld\n");
        assert_eq!(out.j("encoding"), if be { "utf-16be" } else { "utf-16le" });
        assert_eq!(out.j("bom"), true);
        assert_eq!(out.j("sha256"), sha256_hex(&bytes).as_str());
    }
}

#[test]
fn latin1_is_shown_lossy_with_a_warning_not_as_binary() {
    let env = TestEnv::new();
    env.write("l.txt", b"caf\xe9\nok\n");
    let out = env.json(&["read", "l.txt"]);
    out.ok();
    assert_eq!(out.j("content"), "caf\u{FFFD}\nok\n");
    assert_eq!(out.j("lossy"), true);
    assert_eq!(out.j("warnings").as_array().unwrap().len(), 1);
    let text = env.text(&["read", "l.txt"]);
    assert!(text.stderr.contains("warning"), "{}", text.stderr);
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
fn pdf_text_through_pdftotext() {
    if !have("pdftotext") {
        eprintln!("skipped: pdftotext (poppler-utils) is not installed");
        return;
    }
    let env = TestEnv::new();
    let bytes = pdf();
    env.write("doc.pdf", &bytes);
    let out = env.json(&["read", "doc.pdf"]);
    out.ok();
    assert_eq!(out.j("kind"), "pdf");
    assert_eq!(out.j("pageCount"), 2);
    let content = out.j("content").as_str().unwrap();
    assert!(
        content.contains("Hello first page") && content.contains("Second page here"),
        "{content}"
    );
    assert_eq!(
        out.j("fileAccess")["access"],
        "read",
        "every page shown: a baseline"
    );
    let out = env.json(&["read", "doc.pdf", "--pages", "2"]);
    out.ok();
    let content = out.j("content").as_str().unwrap();
    assert!(
        !content.contains("Hello first page") && content.contains("Second page"),
        "{content}"
    );
    assert!(
        out.json.get("fileAccess").is_none(),
        "one page of two: no baseline"
    );
}

#[test]
fn pdf_without_converter_says_how_to_install_it() {
    let env = TestEnv::new();
    env.write("doc.pdf", pdf());
    let empty = env.path("emptybin");
    fs::create_dir(&empty).unwrap();
    let mut c = env.command(["--json", "read", "doc.pdf"]);
    c.env("PATH", &empty);
    let out = run(c, None);
    out.err("converter_missing", 4);
    assert!(
        out.j("error")["install"]
            .as_str()
            .unwrap()
            .contains("poppler")
    );
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
    let out = env.json(&["read", "n.ipynb"]);
    out.ok();
    assert_eq!(out.j("kind"), "notebook");
    let content = out.j("content").as_str().unwrap();
    let title = content.find("# Title").unwrap();
    let code = content.find("print('hi')").unwrap();
    let output = content.rfind("hi\n").unwrap();
    assert!(title < code && code < output, "{content}");
    assert!(
        content.contains("[code]") && content.contains("[markdown]"),
        "{content}"
    );
    assert_eq!(
        out.j("sha256"),
        sha256_hex(nb.to_string().as_bytes()).as_str()
    );
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
    if !std::path::Path::new("/usr/bin/time").exists() {
        eprintln!("skipped: /usr/bin/time is not installed");
        return;
    }
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
    let mut c = Command::new("/usr/bin/time");
    c.args(["-f", "%M"]).arg(BIN);
    c.env_clear()
        .env("QUILL_STATE_DIR", &env.state)
        .current_dir(&env.dir)
        .args([
            "--json", "read", "huge.txt", "--offset", "3000000", "--limit", "10",
        ]);
    let out = run(c, None);
    out.ok();
    assert_eq!(out.j("totalLines"), 6_553_600);
    assert_eq!(out.j("startLine"), 3_000_000);
    let kib: u64 = out
        .stderr
        .trim()
        .lines()
        .last()
        .unwrap()
        .trim()
        .parse()
        .unwrap();
    assert!(kib < 32 * 1024, "peak RSS {kib} KiB");
    fs::remove_file(path).unwrap();
}

#[test]
fn a_line_of_stray_bytes_is_cut_in_bounded_memory() {
    let env = TestEnv::new();
    let mut bytes = vec![0x80u8; 8 << 20];
    bytes.push(b'\n');
    env.write("cp1252.txt", &bytes);
    let out = env.json(&["read", "cp1252.txt"]);
    out.ok();
    let content = out.j("content").as_str().unwrap();
    assert!(content.len() < 51200, "{}", content.len());
    assert!(
        content.ends_with("more bytes]\n"),
        "{}",
        &content[content.len() - 40..]
    );
    assert_eq!(out.j("lossy"), true);
}

#[test]
fn dotdot_after_a_symlink_is_resolved_as_the_kernel_does() {
    let env = TestEnv::new();
    env.write("ws/a.txt", "inside\n");
    env.write("other/x", "");
    env.write("a.txt", "PARENT\n");
    symlink("../other", env.path("ws/lnk")).unwrap();
    // ws/lnk/.. is `other/..`, the work dir: a.txt there is "PARENT", as `cat` would show.
    let out = env.json(&["read", "ws/lnk/../a.txt"]);
    out.ok();
    assert_eq!(out.j("content"), "PARENT\n");
    let root = env.path("ws");
    env.json(&["--root", root.to_str().unwrap(), "read", "ws/lnk/../a.txt"])
        .err("outside_root", 3);
}

#[test]
fn a_pdf_page_not_shown_whole_records_no_baseline() {
    if !have("pdftotext") {
        eprintln!("skipped: pdftotext (poppler-utils) is not installed");
        return;
    }
    let env = TestEnv::new();
    env.write("doc.pdf", pdf());
    let out = env.json(&["read", "doc.pdf", "--limit", "1"]);
    out.ok();
    assert_eq!(out.j("complete"), false);
    assert!(out.json.get("fileAccess").is_none());
}

#[test]
fn a_text_file_that_starts_like_a_pdf_is_read_as_text() {
    if !have("pdfinfo") {
        eprintln!("skipped: pdfinfo (poppler-utils) is not installed");
        return;
    }
    let env = TestEnv::new();
    env.write("notes.md", "%PDF-1.7 header notes\nsecond line\n");
    let out = env.json(&["read", "notes.md"]);
    out.ok();
    assert_eq!(out.j("kind"), "text");
    assert_eq!(out.j("content"), "%PDF-1.7 header notes\nsecond line\n");
}
