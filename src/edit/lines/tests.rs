//! Unit tests of the line-addressed edit core: numbering as `read` does, the range checks,
//! the line break the new text gets, and files without a final line break. Tests only.

use super::*;

fn ins(body: &str, n: usize, new: &str) -> String {
    let p = apply(body.as_bytes(), Address::InsertAfter(n), new.as_bytes()).unwrap();
    String::from_utf8(p.new_body).unwrap()
}

fn rep(body: &str, a: usize, b: usize, new: &str) -> (String, String) {
    let p = apply(body.as_bytes(), Address::Lines(a, b), new.as_bytes()).unwrap();
    (
        String::from_utf8(p.new_body).unwrap(),
        String::from_utf8(p.replaced).unwrap(),
    )
}

#[test]
fn lines_are_counted_as_read_counts_them() {
    assert_eq!(count_lines(b""), 0);
    assert_eq!(count_lines(b"a"), 1);
    assert_eq!(count_lines(b"a\n"), 1);
    assert_eq!(count_lines(b"a\nb"), 2);
    assert_eq!(count_lines(b"a\r\nb\r\n"), 2);
    assert_eq!(count_lines(b"\n\n"), 2);
    // A lone CR first: a classic Mac file, split at CR.
    assert_eq!(count_lines(b"a\rb\rc"), 3);
    assert_eq!(separator(b"a\rb\nc"), b'\r');
    // LF first: a CR later is part of a line.
    assert_eq!(count_lines(b"a\nb\rc\n"), 2);
    // A CR at the very end decides nothing: LF.
    assert_eq!(separator(b"a\r"), b'\n');
    assert_eq!(count_lines(b"a\r"), 1);
}

#[test]
fn inserts_at_the_top_the_middle_and_the_end() {
    assert_eq!(ins("a\nb\n", 0, "x"), "x\na\nb\n");
    assert_eq!(ins("a\nb\n", 1, "x"), "a\nx\nb\n");
    assert_eq!(ins("a\nb\n", 2, "x"), "a\nb\nx\n");
    assert_eq!(ins("a\nb\n", 1, "x\ny\n"), "a\nx\ny\nb\n");
    assert_eq!(ins("", 0, "x"), "x\n");
    let p = apply(b"a\nb\n", Address::InsertAfter(1), b"x\ny").unwrap();
    assert_eq!((p.start_line, p.end_line), (2, 3));
    assert!(p.replaced.is_empty());
}

#[test]
fn replaces_and_deletes_lines() {
    assert_eq!(
        rep("a\nb\nc\n", 2, 2, "X"),
        ("a\nX\nc\n".into(), "b\n".into())
    );
    assert_eq!(
        rep("a\nb\nc\n", 1, 2, "X\nY\nZ"),
        ("X\nY\nZ\nc\n".into(), "a\nb\n".into())
    );
    assert_eq!(rep("a\nb\nc\n", 2, 3, ""), ("a\n".into(), "b\nc\n".into()));
    assert_eq!(rep("a\nb\nc\n", 1, 3, ""), ("".into(), "a\nb\nc\n".into()));
    let p = apply(b"a\nb\nc\n", Address::Lines(2, 3), b"").unwrap();
    assert_eq!((p.start_line, p.end_line), (2, 2));
    let p = apply(b"a\nb\nc\n", Address::Lines(1, 1), b"x\ny\nz\n").unwrap();
    assert_eq!((p.start_line, p.end_line), (1, 3));
}

#[test]
fn the_new_text_gets_the_files_line_break() {
    assert_eq!(ins("a\r\nb\r\n", 1, "x"), "a\r\nx\r\nb\r\n");
    // Bare LFs in the new text are written as CRLF in a CRLF file.
    assert_eq!(ins("a\r\nb\r\n", 0, "x\ny"), "x\r\ny\r\na\r\nb\r\n");
    // A new text with CRs of its own is written as given.
    assert_eq!(ins("a\r\nb\r\n", 0, "x\ny\r\n"), "x\ny\r\na\r\nb\r\n");
    assert_eq!(
        rep("a\r\nb\r\n", 2, 2, "x"),
        ("a\r\nx\r\n".into(), "b\r\n".into())
    );
    assert_eq!(ins("a\rb\r", 1, "x"), "a\rx\rb\r");
    // Mixed: the break of the line at the edit.
    assert_eq!(ins("a\nb\r\nc\n", 2, "x"), "a\nb\r\nx\r\nc\n");
    assert_eq!(ins("a\nb\r\nc\n", 1, "x"), "a\nx\nb\r\nc\n");
}

#[test]
fn a_file_without_a_final_line_break_keeps_none() {
    // After the last line: the break goes between.
    assert_eq!(ins("a\nb", 2, "x"), "a\nb\nx");
    assert_eq!(ins("a\r\nb", 2, "x"), "a\r\nb\r\nx");
    assert_eq!(ins("b", 1, "x"), "b\nx");
    // A break the caller gives is kept.
    assert_eq!(ins("a\nb", 2, "x\n"), "a\nb\nx\n");
    // Elsewhere the new text is whole lines as usual.
    assert_eq!(ins("a\nb", 1, "x"), "a\nx\nb");
    assert_eq!(ins("a\nb", 0, "x"), "x\na\nb");
    // Replacing through the last line: as given.
    assert_eq!(rep("a\nb", 2, 2, "x"), ("a\nx".into(), "b".into()));
    assert_eq!(rep("a\nb", 1, 2, "x\ny"), ("x\ny".into(), "a\nb".into()));
    // Deleting through it: the line above loses its break.
    assert_eq!(rep("a\nb\nc", 2, 3, ""), ("a".into(), "b\nc".into()));
    assert_eq!(rep("a\r\nb", 2, 2, ""), ("a".into(), "b".into()));
    assert_eq!(rep("a", 1, 1, ""), ("".into(), "a".into()));
    let p = apply(b"a\nb", Address::InsertAfter(2), b"x\ny").unwrap();
    assert_eq!((p.start_line, p.end_line), (3, 4));
}

#[test]
fn bytes_outside_the_lines_are_kept() {
    let body = b"\xff\xfe odd\r\nkeep \x00 me\nlast";
    let p = apply(body, Address::Lines(2, 2), b"new").unwrap();
    assert_eq!(p.new_body, b"\xff\xfe odd\r\nnew\nlast".to_vec());
    assert_eq!(p.replaced, b"keep \x00 me\n".to_vec());
}

#[test]
fn out_of_range_addresses_name_the_line_count() {
    let body = b"a\nb\nc\n";
    let err = |addr, new: &[u8]| apply(body, addr, new).unwrap_err();
    assert_eq!(
        err(Address::Lines(0, 1), b"x"),
        RangeError::Zero { total: 3 }
    );
    assert_eq!(
        err(Address::Lines(3, 2), b"x"),
        RangeError::Reversed { total: 3 }
    );
    assert_eq!(
        err(Address::Lines(2, 4), b"x"),
        RangeError::PastEnd { total: 3 }
    );
    assert_eq!(
        err(Address::Lines(4, 4), b""),
        RangeError::PastEnd { total: 3 }
    );
    assert_eq!(
        err(Address::InsertAfter(4), b"x"),
        RangeError::PastEnd { total: 3 }
    );
    assert_eq!(
        err(Address::InsertAfter(1), b""),
        RangeError::NothingToInsert { total: 3 }
    );
    assert_eq!(
        apply(b"", Address::Lines(1, 1), b"x").unwrap_err(),
        RangeError::PastEnd { total: 0 }
    );
    assert!(apply(body, Address::Lines(3, 3), b"x").is_ok());
    assert!(apply(body, Address::InsertAfter(3), b"x").is_ok());
}

#[test]
fn around_names_the_lines_touched() {
    assert_eq!(Address::InsertAfter(0).around(), (1, 1));
    assert_eq!(Address::InsertAfter(5).around(), (5, 6));
    assert_eq!(Address::Lines(3, 7).around(), (3, 7));
}
