//! Fuzz target for the transfer protocol's readers and scp's endpoint rule on arbitrary bytes:
//! nothing may panic; the hello reader stops within its noise bound; every frame read is at
//! most `MAX_FRAME` bytes and, written again, gives back the bytes it was read from; a remote
//! endpoint's `display` parses back to the same endpoint; split words never come back empty.
#![no_main]

use std::ffi::OsStr;
use std::io::BufReader;

use libfuzzer_sys::fuzz_target;
use quill::cmd::transfer::endpoint::{Endpoint, parse, split_words};
use quill::cmd::transfer::wire::{self, MAX_FRAME, MAX_NOISE, Msg, Request};

fuzz_target!(|data: &[u8]| {
    let mut r = BufReader::new(data);
    let (_, noise) = wire::read_hello(&mut r).unwrap();
    assert!(noise.len() <= 2 * MAX_NOISE + 4 * data.len().min(MAX_NOISE));

    let mut r = data;
    let mut buf = Vec::new();
    let mut used = 0;
    while let Ok(Some(tag)) = wire::read_frame(&mut r, &mut buf) {
        assert!(buf.len() <= MAX_FRAME);
        let mut again = Vec::new();
        wire::write_frame(&mut again, tag, &buf).unwrap();
        assert_eq!(&data[used..used + again.len()], &again[..]);
        used += again.len();
        let _ = wire::parse::<Msg>(&buf);
        let _ = wire::parse::<Request>(&buf);
        let _ = wire::ack_value(&buf);
    }

    if let Ok(text) = std::str::from_utf8(data) {
        if let Ok(Endpoint::Remote(far)) = parse(OsStr::new(text)) {
            let shown = far.display();
            assert_eq!(parse(OsStr::new(&shown)), Ok(Endpoint::Remote(far)));
        }
        if let Ok(words) = split_words(text) {
            assert!(!words.is_empty());
        }
    }
});
