//! The transfer protocol between two quills over one ssh connection (docs/transfer.md, "Across
//! machines"). The far side (`quill transfer --serve 1`) first prints one text line,
//! `QUILL-TRANSFER/<protocol> quill <version>`, which the near side finds even behind a noisy
//! login shell; after it both directions carry frames: a tag byte, a big-endian u32 length and
//! the payload. `Q` is the request and `J` a message (JSON, `Msg`), `D` data, `E` the end of the
//! data (its byte count and SHA-256), `A` an acknowledgement (a u64: bytes the receiver has
//! written). Data flows in one stream with no per-chunk round trip; acknowledgements flow back
//! as the receiver writes. The far side commits only after `E`: an end of input before it is a
//! cancellation. Pure framing and message types: the callers own the pipes.

use std::io::{self, BufRead, Read, Write};

use serde::{Deserialize, Serialize};

/// The protocol this quill speaks (the only one, so far).
pub const PROTOCOL: u32 = 1;
/// The start of the far side's first line.
pub const MAGIC: &str = "QUILL-TRANSFER/";
/// The most a frame may carry: a peer that says more is not a quill.
pub const MAX_FRAME: usize = 4 * 1024 * 1024;
/// Bytes of other output (a login shell's greeting) skipped before the first line.
pub const MAX_NOISE: usize = 64 * 1024;

pub const REQUEST: u8 = b'Q';
pub const JSON: u8 = b'J';
pub const DATA: u8 = b'D';
pub const END: u8 = b'E';
pub const ACK: u8 = b'A';

/// The far side's first line.
pub fn hello(version: &str) -> String {
    format!("{MAGIC}{PROTOCOL} quill {version}\n")
}

/// What the far side said it is: (protocol, quill version).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Hello {
    pub protocol: u32,
    pub version: String,
}

/// Read lines until the hello line; None if the stream ended (or grew past `MAX_NOISE`)
/// without one. The lines skipped are returned, for an error message.
pub fn read_hello(r: &mut impl BufRead) -> io::Result<(Option<Hello>, String)> {
    let mut noise = String::new();
    let mut line = Vec::new();
    loop {
        line.clear();
        let n = r
            .by_ref()
            .take(MAX_NOISE as u64)
            .read_until(b'\n', &mut line)?;
        if n == 0 {
            return Ok((None, noise));
        }
        let text = String::from_utf8_lossy(&line);
        if let Some(hello) = parse_hello(&text) {
            return Ok((Some(hello), noise));
        }
        noise.push_str(&text);
        if noise.len() > MAX_NOISE {
            return Ok((None, noise));
        }
    }
}

/// `QUILL-TRANSFER/<protocol> quill <version>`, exactly; any other line is noise.
fn parse_hello(line: &str) -> Option<Hello> {
    let rest = line.trim_end().strip_prefix(MAGIC)?;
    let mut words = rest.split(' ');
    let protocol = words.next()?.parse().ok()?;
    let version = match (words.next(), words.next(), words.next()) {
        (Some("quill"), Some(v), None) if !v.is_empty() => v.to_string(),
        _ => return None,
    };
    Some(Hello { protocol, version })
}

/// Write one frame: header and payload in one vectored write, so a large payload goes
/// straight from its buffer to the pipe (a `BufWriter` smaller than it does not copy it).
pub fn write_frame(w: &mut impl Write, tag: u8, payload: &[u8]) -> io::Result<()> {
    let len = u32::try_from(payload.len()).map_err(io::Error::other)?;
    let mut head = [0u8; 5];
    head[0] = tag;
    head[1..].copy_from_slice(&len.to_be_bytes());
    let mut slices = [io::IoSlice::new(&head), io::IoSlice::new(payload)];
    let mut rest = &mut slices[..];
    while !rest.is_empty() {
        match w.write_vectored(rest) {
            Ok(0) => return Err(io::ErrorKind::WriteZero.into()),
            Ok(n) => io::IoSlice::advance_slices(&mut rest, n),
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(())
}

/// Write one JSON message frame (`tag` is `REQUEST`, `JSON` or `END`).
pub fn write_json<T: Serialize>(w: &mut impl Write, tag: u8, msg: &T) -> io::Result<()> {
    let body = serde_json::to_vec(msg).map_err(io::Error::other)?;
    write_frame(w, tag, &body)
}

/// Write an acknowledgement of `written` bytes.
pub fn write_ack(w: &mut impl Write, written: u64) -> io::Result<()> {
    write_frame(w, ACK, &written.to_be_bytes())
}

/// Read one frame into `buf` (reused); None at a clean end of input (between frames). An end
/// inside a frame is `UnexpectedEof`; a frame over `MAX_FRAME` is `InvalidData`.
pub fn read_frame(r: &mut impl Read, buf: &mut Vec<u8>) -> io::Result<Option<u8>> {
    let mut head = [0u8; 5];
    let mut got = 0;
    while got < head.len() {
        match r.read(&mut head[got..]) {
            Ok(0) if got == 0 => return Ok(None),
            Ok(0) => return Err(io::ErrorKind::UnexpectedEof.into()),
            Ok(n) => got += n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    let len = u32::from_be_bytes([head[1], head[2], head[3], head[4]]) as usize;
    if len > MAX_FRAME {
        return Err(io::Error::new(
            io::ErrorKind::InvalidData,
            format!("a frame of {len} bytes (at most {MAX_FRAME})"),
        ));
    }
    buf.resize(len, 0);
    r.read_exact(buf)?;
    Ok(Some(head[0]))
}

/// The bytes written, from an `ACK` payload.
pub fn ack_value(payload: &[u8]) -> Option<u64> {
    Some(u64::from_be_bytes(payload.try_into().ok()?))
}

/// Parse a JSON payload.
pub fn parse<T: for<'de> Deserialize<'de>>(payload: &[u8]) -> io::Result<T> {
    serde_json::from_slice(payload).map_err(|e| io::Error::new(io::ErrorKind::InvalidData, e))
}

/// What the near side asks for.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct Request {
    pub op: Op,
    /// The far side's path, as typed (relative to its home directory).
    pub path: String,
    /// Push: the file's name (the destination's name inside a directory).
    #[serde(default)]
    pub name: Option<String>,
    /// Push: the source's size and permission bits; its modification time for a move.
    #[serde(default)]
    pub size: u64,
    #[serde(default)]
    pub mode: Option<u32>,
    #[serde(default)]
    pub mtime_ns: Option<i64>,
    #[serde(default, rename = "move")]
    pub move_: bool,
    #[serde(default)]
    pub replace_sha256: Option<String>,
    #[serde(default)]
    pub expect_sha256: Option<String>,
    #[serde(default)]
    pub no_parents: bool,
}

#[derive(Debug, Clone, Copy, Serialize, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum Op {
    /// The near side sends, the far side publishes.
    Push,
    /// The far side sends, the near side publishes.
    Pull,
}

/// A JSON message after the request, either way.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(
    tag = "type",
    rename_all = "camelCase",
    rename_all_fields = "camelCase"
)]
pub enum Msg {
    /// Push, far side: the destination is checked and locked; send the data.
    Ready { destination: String },
    /// Pull, far side: the source, ready to be sent once the near side says `Go`.
    Meta {
        source: String,
        size: u64,
        mode: u32,
        mtime_ns: Option<i64>,
    },
    /// Pull, near side: the destination is checked; send the data.
    Go,
    /// Push, far side: the destination is published.
    Committed {
        destination: String,
        bytes: u64,
        sha256: String,
        replaced: bool,
    },
    /// Pull with `--move`, near side: the destination is committed; remove the source if it
    /// is still the version sent.
    Remove,
    /// Pull, far side: the answer to `Remove`.
    Removed {
        removed: bool,
        reason: Option<String>,
    },
    /// Either side: the call failed there. `error` is quill's error object (kind, message,
    /// hint and the kind's fields); `exit` its exit code.
    Failed { error: serde_json::Value, exit: u8 },
}

/// The `E` frame.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
pub struct End {
    pub bytes: u64,
    pub sha256: String,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frames_round_trip_and_end_cleanly() {
        let mut out = Vec::new();
        write_frame(&mut out, DATA, b"abc").unwrap();
        write_ack(&mut out, 7).unwrap();
        write_json(&mut out, JSON, &Msg::Go).unwrap();
        let mut r = &out[..];
        let mut buf = Vec::new();
        assert_eq!(read_frame(&mut r, &mut buf).unwrap(), Some(DATA));
        assert_eq!(buf, b"abc");
        assert_eq!(read_frame(&mut r, &mut buf).unwrap(), Some(ACK));
        assert_eq!(ack_value(&buf), Some(7));
        assert_eq!(read_frame(&mut r, &mut buf).unwrap(), Some(JSON));
        assert_eq!(parse::<Msg>(&buf).unwrap(), Msg::Go);
        assert_eq!(read_frame(&mut r, &mut buf).unwrap(), None);
    }

    #[test]
    fn a_cut_frame_or_a_huge_one_is_an_error() {
        let mut out = Vec::new();
        write_frame(&mut out, DATA, b"abcdef").unwrap();
        let mut cut = &out[..out.len() - 2];
        let mut buf = Vec::new();
        let e = read_frame(&mut cut, &mut buf).unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::UnexpectedEof);
        let mut cut = &out[..3];
        assert!(read_frame(&mut cut, &mut buf).is_err());
        let huge = [DATA, 0xff, 0xff, 0xff, 0xff];
        let e = read_frame(&mut &huge[..], &mut buf).unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::InvalidData);
    }

    #[test]
    fn the_hello_is_found_behind_a_noisy_shell() {
        let text = format!("Welcome!\nmotd\n{}", hello("1.2.3"));
        let mut r = io::BufReader::new(text.as_bytes());
        let (h, noise) = read_hello(&mut r).unwrap();
        assert_eq!(
            h,
            Some(Hello {
                protocol: PROTOCOL,
                version: "1.2.3".into()
            })
        );
        assert_eq!(noise, "Welcome!\nmotd\n");
        let mut r = io::BufReader::new(&b"bash: quill: command not found\n"[..]);
        assert_eq!(read_hello(&mut r).unwrap().0, None);
        // A line that only starts like a hello is noise too.
        let text = format!(
            "{MAGIC} is not a hello\n{MAGIC}x quill 1\n{}",
            hello("2.0.0")
        );
        let mut r = io::BufReader::new(text.as_bytes());
        assert_eq!(read_hello(&mut r).unwrap().0.unwrap().version, "2.0.0");
    }

    proptest::proptest! {
        /// Any frames written are read back as written, and a stream cut anywhere reads as
        /// the whole frames before the cut and then an error or a clean end — never a frame
        /// made of what was cut.
        #[test]
        fn frames_round_trip_and_cuts_are_never_frames(
            frames in proptest::collection::vec(
                (proptest::sample::select(vec![REQUEST, JSON, DATA, END, ACK]),
                 proptest::collection::vec(proptest::num::u8::ANY, 0..300)),
                0..8,
            ),
            cut in 0usize..4000,
        ) {
            let mut out = Vec::new();
            for (tag, payload) in &frames {
                write_frame(&mut out, *tag, payload).unwrap();
            }
            let mut buf = Vec::new();
            let mut r = &out[..];
            for (tag, payload) in &frames {
                proptest::prop_assert_eq!(read_frame(&mut r, &mut buf).unwrap(), Some(*tag));
                proptest::prop_assert_eq!(&buf, payload);
            }
            proptest::prop_assert_eq!(read_frame(&mut r, &mut buf).unwrap(), None);
            let cut = cut.min(out.len());
            let mut r = &out[..cut];
            let mut whole = 0;
            let mut at = 0;
            loop {
                match read_frame(&mut r, &mut buf) {
                    Ok(Some(tag)) => {
                        at += 5 + buf.len();
                        proptest::prop_assert!(at <= cut);
                        proptest::prop_assert_eq!(tag, frames[whole].0);
                        whole += 1;
                    }
                    Ok(None) => {
                        proptest::prop_assert_eq!(at, cut);
                        break;
                    }
                    Err(_) => break,
                }
            }
        }

        /// Arbitrary bytes never panic the readers, and no frame is larger than the bound.
        #[test]
        fn any_bytes_are_read_without_panic(bytes in proptest::collection::vec(proptest::num::u8::ANY, 0..64)) {
            let mut r = io::BufReader::new(&bytes[..]);
            let _ = read_hello(&mut r);
            let mut r = &bytes[..];
            let mut buf = Vec::new();
            while let Ok(Some(_)) = read_frame(&mut r, &mut buf) {
                proptest::prop_assert!(buf.len() <= MAX_FRAME);
                let _ = parse::<Msg>(&buf);
                let _ = parse::<Request>(&buf);
            }
        }
    }

    #[test]
    fn messages_are_tagged_json() {
        let m = Msg::Removed {
            removed: false,
            reason: Some("x".into()),
        };
        let text = serde_json::to_string(&m).unwrap();
        assert_eq!(text, r#"{"type":"removed","removed":false,"reason":"x"}"#);
        let req: Request =
            serde_json::from_str(r#"{"op":"push","path":"a","size":3,"move":true}"#).unwrap();
        assert!(req.move_ && req.op == Op::Push && req.replace_sha256.is_none());
    }
}
