//! Legacy encodings through the real binary: a file that is not UTF-8 is decoded with a
//! detected encoding (or `--encoding NAME`), shown as text, and edited in that encoding —
//! byte-exact outside the change, checked against hand-encoded bytes; UTF-8, ASCII and binary
//! files are never re-detected; a character the encoding lacks is refused and the suggested
//! conversion works.

use crate::util::*;

/// windows-1251 by hand (ASCII and А..я only), so the expected bytes do not come from the
/// codec under test.
fn cp1251(text: &str) -> Vec<u8> {
    text.chars()
        .map(|c| match c as u32 {
            0..=0x7F => c as u8,
            0x410..=0x44F => (c as u32 - 0x410 + 0xC0) as u8,
            _ => panic!("{c:?} is not in this test's windows-1251 table"),
        })
        .collect()
}

const RUSSIAN: &str = "Привет, мир!\nЭто обычный русский текст в старой кодировке.\nКонец.\n";

#[test]
fn a_cp1251_file_is_shown_decoded_with_its_encoding() {
    let env = TestEnv::new();
    let bytes = cp1251(RUSSIAN);
    let p = env.write("ru.txt", &bytes);
    let warning = format!(
        "{} is not UTF-8: shown decoded from windows-1251 (detected; --encoding NAME reads it as another); edits write it back in windows-1251",
        p.display()
    );
    env.text(&["read", "ru.txt"])
        .ok()
        .assert_stdout(
            "     1\tПривет, мир!\n     2\tЭто обычный русский текст в старой кодировке.\n     3\tКонец.\n",
        )
        .assert_stderr(&format!("quill: warning: {warning}\n"));
    let r = env.json(&["read", "ru.txt"]).ok().read();
    assert_eq!(r.content, RUSSIAN);
    assert_eq!(r.encoding.as_deref(), Some("windows-1251"));
    assert!(!r.lossy && !r.bom && r.complete);
    assert_eq!(r.size, bytes.len() as u64);
    assert_eq!(r.sha256, Some(sha256_hex(&bytes)));
    assert_eq!(
        r.warnings,
        [Warning {
            kind: "encoding_detected".into(),
            message: warning
        }]
    );
}

#[test]
fn a_cp1251_edit_changes_only_the_edited_bytes() {
    let env = TestEnv::new();
    let p = env.write("ru.txt", cp1251(RUSSIAN));
    env.json(&["read", "ru.txt"]).ok();
    env.text(&["edit", "ru.txt", "--old", "мир", "--new", "свет"])
        .ok()
        .assert_stdout(
            "@@ -1,3 +1,3 @@\n-Привет, мир!\n+Привет, свет!\n Это обычный русский текст в старой кодировке.\n Конец.\n\
             wrote ru.txt: 67 bytes, +1 -1 lines, 1 replacement, in windows-1251\n",
        );
    env.assert_file("ru.txt", cp1251(&RUSSIAN.replace("мир", "свет")));
    // Edited again on the recorded baseline, in JSON.
    let m = env
        .json(&["edit", "ru.txt", "--old", "Конец.", "--new", "Ωмега."])
        .err("encoding", 3)
        .failure()
        .error;
    assert_eq!(m.field("encoding"), "windows-1251");
    assert_eq!(m.field("character"), "Ω");
    assert_eq!(m.field("codePoint"), "U+03A9");
    env.assert_file("ru.txt", cp1251(&RUSSIAN.replace("мир", "свет")));
    let m = env
        .json(&["edit", "ru.txt", "--old", "Конец.", "--new", "Все."])
        .ok()
        .mutation();
    assert_eq!(m.encoding.as_deref(), Some("windows-1251"));
    assert!(m.patch.is_none());
    assert!(m.patch_unavailable.unwrap().contains("decoded text"));
    assert!(m.diff.contains("-Конец.\n+Все.\n"), "{}", m.diff);
    let want = cp1251(&RUSSIAN.replace("мир", "свет").replace("Конец.", "Все."));
    env.assert_file("ru.txt", &want);
    assert_eq!(m.sha256, Some(sha256_hex(&want)));
    assert_eq!(m.path, p.to_str().unwrap());
}

/// Greek in windows-1253 by hand (Α..ώ, ASCII).
fn cp1253(text: &str) -> Vec<u8> {
    text.chars()
        .map(|c| match c as u32 {
            0..=0x7F => c as u8,
            0x391..=0x3CE => (c as u32 - 0x391 + 0xC1) as u8,
            _ => panic!("{c:?} is not in this test's windows-1253 table"),
        })
        .collect()
}

/// A byte the encoding has no character for (0xAA in windows-1253) reads as U+FFFD and is
/// kept exactly by an edit on its line.
#[test]
fn undecodable_bytes_outside_the_change_are_kept() {
    let env = TestEnv::new();
    let text = "Γεια σου κοσμε!\nδευτερη γραμμη\n";
    let with_bad = |t: &str| {
        let mut b = cp1253(t);
        let at = b.iter().position(|&x| x == b'!').unwrap();
        b.insert(at + 1, 0xAA);
        b
    };
    env.write("el.txt", with_bad(text));
    let named = ["--encoding", "windows-1253"];
    let r = env
        .json(&[&["read", "el.txt"][..], &named].concat())
        .ok()
        .read();
    assert!(r.lossy);
    assert_eq!(r.content, "Γεια σου κοσμε!\u{FFFD}\nδευτερη γραμμη\n");
    assert_eq!(kinds(&r.warnings), ["lossy_decoding"]);
    env.json(
        &[
            &["edit", "el.txt", "--old", "κοσμε", "--new", "κοσμακη"][..],
            &named,
        ]
        .concat(),
    )
    .ok();
    env.assert_file("el.txt", with_bad(&text.replace("κοσμε", "κοσμακη")));
}

/// Latin-1 text that gets a character windows-1252 lacks: refused, file untouched; the hint's
/// conversion works, and then the edit does.
#[test]
fn a_character_the_encoding_lacks_is_refused_and_the_conversion_works() {
    require("iconv", "libc-bin");
    let env = TestEnv::new();
    let latin = b"caf\xe9 cr\xe8me\nna\xefve\n".to_vec();
    let p = env.write("fr.txt", &latin);
    env.json(&["read", "fr.txt"]).ok();
    let out = env.json(&["edit", "fr.txt", "--old", "crème", "--new", "Жcrème"]);
    let e = out.err("encoding", 3).failure().error;
    assert_eq!(
        e.message,
        format!(
            "{} is windows-1252, which has no 'Ж' (U+0416, line 1 of the new text); nothing was written",
            p.display()
        )
    );
    assert_eq!(
        (
            e.field("encoding"),
            e.field("character"),
            e.field("codePoint")
        ),
        (&"windows-1252".into(), &"Ж".into(), &"U+0416".into())
    );
    env.assert_file("fr.txt", &latin);
    let call = suggested_call(e.hint.as_deref().unwrap());
    assert_eq!(
        call,
        format!(
            "iconv -f windows-1252 -t utf-8 {0} | quill write {0} --from -",
            p.display()
        )
    );
    env.shell(&call).ok();
    env.assert_file("fr.txt", "café crème\nnaïve\n");
    env.json(&["edit", "fr.txt", "--old", "crème", "--new", "Жcrème"])
        .ok();
    env.assert_file("fr.txt", "café Жcrème\nnaïve\n");
}

/// `--encoding NAME` forces an encoding for read and edit; an unknown name is a usage mistake.
#[test]
fn an_encoding_can_be_named() {
    let env = TestEnv::new();
    // KOI8-R "Да" is 0xE4 0xC1: read it as such, edit it as such.
    env.write("k.txt", b"\xe4\xc1 \xe4\xc1\n");
    let r = env
        .json(&["read", "k.txt", "--encoding", "koi8-r"])
        .ok()
        .read();
    assert_eq!(r.content, "Да Да\n");
    assert_eq!(r.encoding.as_deref(), Some("KOI8-R"));
    assert!(r.warnings.is_empty(), "{:?}", r.warnings);
    env.json(&[
        "edit",
        "k.txt",
        "--encoding",
        "koi8-r",
        "--old",
        "Да Да",
        "--new",
        "Да",
    ])
    .ok();
    env.assert_file("k.txt", b"\xe4\xc1\n");
    // A valid UTF-8 file read as windows-1252 on purpose.
    env.write("u.txt", "é\n");
    let r = env
        .json(&["read", "u.txt", "--encoding", "latin1"])
        .ok()
        .read();
    assert_eq!(
        (r.content.as_str(), r.encoding.as_deref()),
        ("Ã©\n", Some("windows-1252"))
    );
    let e = env
        .json(&["read", "k.txt", "--encoding", "klingon"])
        .err("invalid_argument", 2)
        .failure()
        .error;
    assert!(
        e.message
            .starts_with("--encoding klingon: not an encoding name"),
        "{}",
        e.message
    );
    env.json(&[
        "edit",
        "k.txt",
        "--encoding",
        "klingon",
        "--old",
        "a",
        "--new",
        "b",
    ])
    .err("invalid_argument", 2);
    env.assert_file("k.txt", b"\xe4\xc1\n");
}

/// Detection is conservative: UTF-8 and ASCII are never re-detected, a file with a NUL stays
/// binary (or, past the sniffed start, lossy UTF-8), and mostly-UTF-8 text with a bad byte is
/// broken UTF-8, edited where `old` matches its bytes.
#[test]
fn utf8_ascii_binary_and_broken_utf8_are_never_re_detected() {
    let env = TestEnv::new();
    env.write("a.txt", "plain ascii\n");
    env.write("u.txt", "déjà vu, naïve café\n");
    for name in ["a.txt", "u.txt"] {
        let r = env.json(&["read", name]).ok().read();
        assert_eq!(r.encoding.as_deref(), Some("utf-8"), "{name}");
        assert!(r.warnings.is_empty(), "{name}: {:?}", r.warnings);
    }
    env.write("bin.dat", b"caf\xe9\0\x01\x02");
    env.json(&["read", "bin.dat"]).err("binary_file", 3);
    let mut late_nul = vec![b'a'; 10_000];
    late_nul.extend_from_slice(b"\0caf\xe9\n");
    env.write("late.dat", &late_nul);
    let r = env.json(&["read", "late.dat"]).ok().read();
    assert_eq!((r.encoding.as_deref(), r.lossy), (Some("utf-8"), true));
    env.write("broken.txt", b"d\xc3\xa9j\xc3\xa0 vu \xff\n");
    let r = env.json(&["read", "broken.txt"]).ok().read();
    assert_eq!((r.encoding.as_deref(), r.lossy), (Some("utf-8"), true));
    assert_eq!(r.content, "déjà vu \u{FFFD}\n");
    env.json(&["edit", "broken.txt", "--old", "vu", "--new", "VU"])
        .ok();
    env.assert_file("broken.txt", b"d\xc3\xa9j\xc3\xa0 VU \xff\n");
}

/// A file whose first 64 KiB are ASCII and whose legacy text comes later: read (streamed,
/// then read again whole) and edit decide alike.
#[test]
fn legacy_text_after_a_long_ascii_start_is_detected_by_read_and_edit() {
    let env = TestEnv::new();
    let mut bytes = "// ascii header\n".repeat(5000).into_bytes();
    let tail = "Привет, мир! Это обычный русский текст.\n";
    bytes.extend(cp1251(tail));
    env.write("big.txt", &bytes);
    let r = env
        .json(&["read", "big.txt", "--offset", "5001"])
        .ok()
        .read();
    assert_eq!(r.content, tail);
    assert_eq!(r.encoding.as_deref(), Some("windows-1251"));
    assert_eq!(r.sha256, Some(sha256_hex(&bytes)));
    env.json(&["edit", "big.txt", "--old", "мир", "--new", "свет"])
        .ok();
    let mut want = "// ascii header\n".repeat(5000).into_bytes();
    want.extend(cp1251(&tail.replace("мир", "свет")));
    env.assert_file("big.txt", &want);
}

/// Shift_JIS has two byte pairs for some characters (ⅰ is 0xEEEF and 0xFA40; an encoder
/// writes 0xFA40): an edit next to the other pair keeps it, because kept characters keep
/// their bytes rather than being encoded again.
#[test]
fn a_character_with_two_byte_forms_keeps_the_one_the_file_has() {
    let env = TestEnv::new();
    // "ⅰ abc\n日本\n" with ⅰ as 0xEEEF; 日 0x93FA, 本 0x967B.
    let old = b"\xee\xef abc\n\x93\xfa\x96\x7b\n";
    env.write("j.txt", old);
    let named = ["--encoding", "shift_jis"];
    let r = env
        .json(&[&["read", "j.txt"][..], &named].concat())
        .ok()
        .read();
    assert_eq!(r.content, "ⅰ abc\n日本\n");
    assert_eq!(r.encoding.as_deref(), Some("Shift_JIS"));
    env.json(
        &[
            &["edit", "j.txt", "--old", "abc\n日本", "--new", "xyz\n日本"][..],
            &named,
        ]
        .concat(),
    )
    .ok();
    env.assert_file("j.txt", b"\xee\xef xyz\n\x93\xfa\x96\x7b\n");
}

/// A command-line word as raw bytes, as a shell's `$'caf\xe9'` gives it.
fn raw(bytes: &[u8]) -> std::ffi::OsString {
    use std::os::unix::ffi::OsStringExt;
    std::ffi::OsString::from_vec(bytes.to_vec())
}

/// `--old`/`--new` (and `--old-file`) given as bytes that are not UTF-8 are read in the
/// file's own legacy encoding: a byte-for-byte match, and bytes written as given.
#[test]
fn bytes_typed_in_the_files_encoding_match_byte_for_byte() {
    let env = TestEnv::new();
    let latin = b"caf\xe9 cr\xe8me\nna\xefve\n";
    env.write("fr.txt", latin);
    env.json(&["read", "fr.txt"]).ok();
    let m = env
        .cmd(["--json", "edit", "fr.txt", "--old"])
        .arg(raw(b"cr\xe8me"))
        .arg("--new")
        .arg(raw(b"br\xfbl\xe9e"))
        .run()
        .ok()
        .mutation();
    assert_eq!(m.encoding.as_deref(), Some("windows-1252"));
    assert!(m.diff.contains("-café crème\n+café brûlée\n"), "{}", m.diff);
    env.assert_file("fr.txt", b"caf\xe9 br\xfbl\xe9e\nna\xefve\n");
    // `--old=BYTES`, and UTF-8 text for new in the same call.
    env.cmd(["--json", "edit", "fr.txt"])
        .arg(raw(b"--old=na\xefve"))
        .args(["--new", "naïf"])
        .run()
        .ok();
    env.assert_file("fr.txt", b"caf\xe9 br\xfbl\xe9e\nna\xeff\n");
    // A passage copied from the file into --old-file.
    env.write("old.txt", b"caf\xe9");
    env.json(&["edit", "fr.txt", "--old-file", "old.txt", "--new", "thé"])
        .ok();
    env.assert_file("fr.txt", b"th\xe9 br\xfbl\xe9e\nna\xeff\n");
}

/// Bytes that are not UTF-8 cannot be text of a UTF-8 (or UTF-16) file, nor of a legacy file
/// they are not valid in: `invalid_argument` naming the file's encoding, nothing written,
/// and the suggested call — the text typed as UTF-8 — works.
#[test]
fn bytes_that_are_not_text_of_the_file_are_refused_with_the_call_that_works() {
    let env = TestEnv::new();
    let p = env.write("u.txt", "café crème\n");
    env.json(&["read", "u.txt"]).ok();
    let out = env
        .cmd(["--json", "edit", "u.txt", "--old"])
        .arg(raw(b"caf\xe9"))
        .args(["--new", "thé"])
        .run();
    let e = out.err("invalid_argument", 2).failure().error;
    assert_eq!(
        e.message,
        format!(
            "--old is not UTF-8 (byte 0xE9 at offset 3) and {} is utf-8, so these bytes are not text of it; nothing was written",
            p.display()
        )
    );
    env.assert_file("u.txt", "café crème\n");
    let call = suggested_call(e.hint.as_deref().unwrap());
    assert_eq!(call, "quill --json edit u.txt --old 'café' --new 'thé'");
    env.shell(&call).ok();
    env.assert_file("u.txt", "thé crème\n");
    // UTF-16 too.
    env.write("w.txt", utf16le("café\n"));
    env.json(&["read", "w.txt"]).ok();
    let e = env
        .cmd(["--json", "edit", "w.txt", "--old", "café", "--new"])
        .arg(raw(b"th\xe9"))
        .run()
        .err("invalid_argument", 2)
        .failure()
        .error;
    assert!(
        e.message.contains("is utf-16le, so these bytes"),
        "{}",
        e.message
    );
    env.assert_file("w.txt", utf16le("café\n"));
    // Bytes that are not Shift_JIS (0x81 starts a pair and ends the word).
    env.write("j.txt", b"\x93\xfa\x96\x7b abc\n");
    let named = ["--encoding", "shift_jis"];
    env.json(&[&["read", "j.txt"][..], &named].concat()).ok();
    let e = env
        .cmd([
            "--json",
            "edit",
            "j.txt",
            "--encoding",
            "shift_jis",
            "--old",
            "abc",
            "--new",
        ])
        .arg(raw(b"x\x81"))
        .run()
        .err("invalid_argument", 2)
        .failure()
        .error;
    assert!(
        e.message.contains("is not Shift_JIS text either"),
        "{}",
        e.message
    );
    env.assert_file("j.txt", b"\x93\xfa\x96\x7b abc\n");
    // A missing file is created as UTF-8: its new text must be UTF-8.
    env.cmd(["--json", "edit", "new.txt", "--old", "", "--new"])
        .arg(raw(b"\xe9"))
        .run()
        .err("invalid_argument", 2);
    assert!(!env.path("new.txt").exists());
}

/// `write --content` takes bytes that are not UTF-8 as given, as `--from` does: write never
/// re-encodes.
#[test]
fn write_content_takes_bytes_as_given() {
    let env = TestEnv::new();
    let m = env
        .cmd(["--json", "write", "l.txt", "--content"])
        .arg(raw(b"caf\xe9\n"))
        .run()
        .ok()
        .mutation();
    env.assert_file("l.txt", b"caf\xe9\n");
    assert_eq!(m.bytes, 5);
    assert_eq!(m.sha256, Some(sha256_hex(b"caf\xe9\n")));
}
