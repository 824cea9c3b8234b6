//! Property tests of the line-addressed edit core: the bytes outside the addressed lines
//! stay, an insertion is undone by deleting the lines it reports, and no input panics. Bodies
//! are made of both line endings, lone CRs and an invalid byte, so every numbering `read` knows
//! comes up. Tests only.

use super::*;
use proptest::prelude::*;

const BODY_PIECES: &[&[u8]] = &[
    b"a",
    b"b",
    b"foo",
    b" ",
    b"\t",
    b"\n",
    b"\n",
    b"\r\n",
    b"\r",
    b"\xff",
    b"\xc3\xa9",
];
const NEW_PIECES: &[&[u8]] = &[b"x", b"y", b" ", b"\n", b"\xc3\xa9"];

fn text(pieces: &'static [&'static [u8]], max: usize) -> impl Strategy<Value = Vec<u8>> {
    prop::collection::vec(prop::sample::select(pieces), 0..max).prop_map(|v| v.concat())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    /// `--lines A-B`: the bytes before line A and after line B are the body's, and
    /// `replaced` is exactly lines A to B.
    #[test]
    fn lines_outside_the_range_stay(
        body in text(BODY_PIECES, 30),
        new in text(NEW_PIECES, 8),
        a in any::<prop::sample::Index>(),
        len in 0usize..4,
    ) {
        let total = count_lines(&body);
        prop_assume!(total > 0);
        let a = a.index(total) + 1;
        let b = (a + len).min(total);
        let p = apply(&body, Address::Lines(a, b), &new).unwrap();
        let sep = separator(&body);
        let (start, end) = (line_start(&body, sep, a), line_start(&body, sep, b + 1));
        prop_assert_eq!(&p.replaced[..], &body[start..end]);
        prop_assert!(p.new_body.ends_with(&body[end..]));
        // Only a deletion through an open last line takes the break of the line above.
        let kept = if new.is_empty() && b == total && a > 1 && body.last() != Some(&sep) {
            start - terminator(&body, sep, a - 1).len()
        } else {
            start
        };
        prop_assert_eq!(&p.new_body[..kept], &body[..kept]);
        prop_assert!(p.start_line == a && p.end_line >= p.start_line);
    }

    /// `--insert-after N` then `--lines S-E` of the span it reports, with an empty text,
    /// gives the body back. (A body that ends in a lone CR is left out: the line break put
    /// after it joins it into one CRLF, which a deletion cannot tell apart.)
    #[test]
    fn an_insertion_is_undone_by_deleting_its_lines(
        body in text(BODY_PIECES, 30),
        new in text(NEW_PIECES, 8),
        n in any::<prop::sample::Index>(),
    ) {
        prop_assume!(!new.is_empty() && !new.ends_with(b"\n"));
        prop_assume!(body.last() != Some(&b'\r') || separator(&body) == b'\r');
        let total = count_lines(&body);
        let n = n.index(total + 1);
        let inserted = apply(&body, Address::InsertAfter(n), &new).unwrap();
        let back = apply(
            &inserted.new_body,
            Address::Lines(inserted.start_line, inserted.end_line),
            b"",
        )
        .unwrap();
        prop_assert_eq!(back.new_body, body);
    }

    /// Any body, any address, any text: an answer, never a panic; a plan's span is in the new body.
    #[test]
    fn no_input_panics(
        body in prop::collection::vec(any::<u8>(), 0..40),
        new in prop::collection::vec(any::<u8>(), 0..10),
        x in 0usize..12,
        y in 0usize..12,
        insert in any::<bool>(),
    ) {
        let addr = if insert { Address::InsertAfter(x) } else { Address::Lines(x, y) };
        if let Ok(p) = apply(&body, addr, &new) {
            prop_assert!(p.start_line >= 1);
            if !new.is_empty() {
                prop_assert!(p.end_line <= count_lines(&p.new_body).max(1));
            }
        }
    }
}
