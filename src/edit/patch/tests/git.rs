//! Patches the real tool writes: `git diff --no-index` of two directories (edits, CRLF, final
//! newlines added and removed, a quoted name, a creation, a deletion, a binary file), parsed
//! and applied back.

use super::*;
use std::fs;
use std::process::Command;

/// A file's name, its bytes in `a/` and in `b/` (`None`: absent).
type Pair = (&'static str, Option<Vec<u8>>, Option<Vec<u8>>);

#[test]
fn git_diff_no_index_output_applies() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let (a, b) = (tmp.path().join("a"), tmp.path().join("b"));
    fs::create_dir(&a).unwrap();
    fs::create_dir(&b).unwrap();
    let numbered = |change: &[(usize, &str)]| -> String {
        (1..=40)
            .map(|i| {
                change
                    .iter()
                    .find(|(n, _)| *n == i)
                    .map_or(format!("line {i}\n"), |(_, s)| s.to_string())
            })
            .collect()
    };
    let pairs: Vec<Pair> = vec![
        (
            "edit.txt",
            Some(numbered(&[]).into_bytes()),
            Some(numbered(&[(3, "three\n"), (30, "thirty\nand more\n"), (38, "")]).into_bytes()),
        ),
        (
            "crlf.txt",
            Some(b"a\r\nb\r\nc\r\n".to_vec()),
            Some(b"a\r\nB\r\nc\r\nd\r\n".to_vec()),
        ),
        (
            "noeol.txt",
            Some(b"x\ny".to_vec()),
            Some(b"x\ny\n".to_vec()),
        ),
        (
            "dropeol.txt",
            Some(b"x\ny\n".to_vec()),
            Some(b"x\nz".to_vec()),
        ),
        (
            "sp ace \u{e9}.txt",
            Some(b"a\nb\n".to_vec()),
            Some(b"a\nc\n".to_vec()),
        ),
        ("gone.txt", Some(b"bye\n".to_vec()), None),
        ("new.txt", None, Some(b"hello\nworld\n".to_vec())),
        (
            "bin.dat",
            Some(b"\0\x01".to_vec()),
            Some(b"\0\x02".to_vec()),
        ),
        (
            "same.txt",
            Some(b"same\n".to_vec()),
            Some(b"same\n".to_vec()),
        ),
    ];
    for (name, old, new) in &pairs {
        if let Some(old) = old {
            fs::write(a.join(name), old).unwrap();
        }
        if let Some(new) = new {
            fs::write(b.join(name), new).unwrap();
        }
    }
    let out = Command::new("git")
        .args(["diff", "--no-index", "--no-color", "--no-renames", "a", "b"])
        .current_dir(tmp.path())
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .env("LC_ALL", "C")
        .output()
        .expect("git runs");
    assert_eq!(
        out.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = out.stdout;
    // git names them a/a/NAME and b/b/NAME: -p 2 leaves NAME.
    let patch =
        parse(&text, 2).unwrap_or_else(|e| panic!("{e:?}\n{}", String::from_utf8_lossy(&text)));
    assert_eq!(patch.format, Format::Unified);
    assert_eq!(
        patch.files.len(),
        pairs.len() - 1,
        "{}",
        String::from_utf8_lossy(&text)
    );
    for (name, old, new) in &pairs {
        if old == new {
            continue;
        }
        let name = name.as_bytes();
        let file = patch
            .files
            .iter()
            .find(|f| f.old_path.as_deref() == Some(name) || f.new_path.as_deref() == Some(name))
            .unwrap_or_else(|| panic!("no section for {}", String::from_utf8_lossy(name)));
        match (old, new) {
            (Some(_), Some(_)) if name == b"bin.dat" => assert!(file.binary),
            (Some(old), Some(new)) => {
                assert_eq!(file.new_path.as_deref(), Some(name));
                let applied = apply(old, &file.hunks, &ApplyOptions::default()).expect("applies");
                assert_eq!(applied.new_body, *new, "{}", String::from_utf8_lossy(name));
            }
            (None, Some(new)) => {
                assert_eq!(file.old_path, None);
                assert_eq!(created_content(file), *new);
            }
            (Some(old), None) => {
                assert_eq!(file.new_path, None);
                let applied = apply(old, &file.hunks, &ApplyOptions::default()).expect("applies");
                assert!(applied.new_body.is_empty());
            }
            (None, None) => unreachable!(),
        }
    }
}
