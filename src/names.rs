//! How a file name goes into JSON, losslessly (as ripgrep's JSON does it): the field keeps its
//! string (invalid UTF-8 shown as U+FFFD, so a reader that only wants text has it), and a name
//! that is not UTF-8 also gets its exact bytes as standard padded base64 in a sibling field,
//! `<field>Bytes` (`path` → `pathBytes`). A list of names keeps its list of strings, and
//! `<field>Bytes` maps the index of each name that is not UTF-8 (a string key) to its bytes
//! (`files` → `filesBytes: {"2": "…"}`). A `Bytes` field is there only when some name needs
//! it. Encoding a name can never fail, so no answer is ever lost to a file name.
//!
//! Use: `#[serde(flatten, serialize_with = "names::path")] path: PathBuf` — one function per
//! JSON key (it writes the key and its sibling), for `Path`, `PathBuf`, `Arc<Path>`, their
//! `Option` (absent when `None`) and lists.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use base64::Engine;
use serde::ser::{Serialize, SerializeMap, SerializeSeq, Serializer};

/// The exact bytes of a name as standard padded base64, when it is not UTF-8.
pub(crate) fn raw_bytes(path: &Path) -> Option<String> {
    let b = path.as_os_str().as_encoded_bytes();
    std::str::from_utf8(b)
        .is_err()
        .then(|| base64::engine::general_purpose::STANDARD.encode(b))
}

/// A value that names files: writes `key` (and `bytes_key` when needed) into a JSON object.
pub(crate) trait Names {
    fn entries<M: SerializeMap>(
        &self,
        m: &mut M,
        key: &str,
        bytes_key: &str,
    ) -> Result<(), M::Error>;
}

impl Names for Path {
    fn entries<M: SerializeMap>(
        &self,
        m: &mut M,
        key: &str,
        bytes_key: &str,
    ) -> Result<(), M::Error> {
        m.serialize_entry(key, &self.to_string_lossy())?;
        match raw_bytes(self) {
            Some(b) => m.serialize_entry(bytes_key, &b),
            None => Ok(()),
        }
    }
}

impl Names for PathBuf {
    fn entries<M: SerializeMap>(
        &self,
        m: &mut M,
        key: &str,
        bytes_key: &str,
    ) -> Result<(), M::Error> {
        self.as_path().entries(m, key, bytes_key)
    }
}

impl Names for Arc<Path> {
    fn entries<M: SerializeMap>(
        &self,
        m: &mut M,
        key: &str,
        bytes_key: &str,
    ) -> Result<(), M::Error> {
        (**self).entries(m, key, bytes_key)
    }
}

impl Names for [PathBuf] {
    fn entries<M: SerializeMap>(
        &self,
        m: &mut M,
        key: &str,
        bytes_key: &str,
    ) -> Result<(), M::Error> {
        m.serialize_entry(key, &LossyList(self))?;
        if self.iter().any(|p| raw_bytes(p).is_some()) {
            m.serialize_entry(bytes_key, &RawByIndex(self))?;
        }
        Ok(())
    }
}

impl Names for Vec<PathBuf> {
    fn entries<M: SerializeMap>(
        &self,
        m: &mut M,
        key: &str,
        bytes_key: &str,
    ) -> Result<(), M::Error> {
        self.as_slice().entries(m, key, bytes_key)
    }
}

/// `None` writes nothing (the key is absent).
impl<T: Names> Names for Option<T> {
    fn entries<M: SerializeMap>(
        &self,
        m: &mut M,
        key: &str,
        bytes_key: &str,
    ) -> Result<(), M::Error> {
        match self {
            Some(v) => v.entries(m, key, bytes_key),
            None => Ok(()),
        }
    }
}

/// A list of names as strings (lossy).
struct LossyList<'a>(&'a [PathBuf]);

impl Serialize for LossyList<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut seq = s.serialize_seq(Some(self.0.len()))?;
        for p in self.0 {
            seq.serialize_element(&p.to_string_lossy())?;
        }
        seq.end()
    }
}

/// The names of a list that are not UTF-8: index (as a string) → base64 of the bytes.
struct RawByIndex<'a>(&'a [PathBuf]);

impl Serialize for RawByIndex<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(None)?;
        let mut index = itoa::Buffer::new();
        for (i, p) in self.0.iter().enumerate() {
            if let Some(b) = raw_bytes(p) {
                map.serialize_entry(index.format(i), &b)?;
            }
        }
        map.end()
    }
}

/// Write `value` under `key` (and `bytes_key`) into the flattened object `s`.
fn flat<S: Serializer, T: Names + ?Sized>(
    value: &T,
    s: S,
    key: &str,
    bytes_key: &str,
) -> Result<S::Ok, S::Error> {
    let mut m = s.serialize_map(None)?;
    value.entries(&mut m, key, bytes_key)?;
    m.end()
}

/// One `serialize_with` function per JSON key that names files.
macro_rules! keys {
    ($($name:ident => $key:literal),* $(,)?) => {$(
        #[doc = concat!("`", $key, "` and `", $key, "Bytes` (use with `#[serde(flatten)]`).")]
        pub(crate) fn $name<S: Serializer, T: Names + ?Sized>(
            value: &T,
            s: S,
        ) -> Result<S::Ok, S::Error> {
            flat(value, s, $key, concat!($key, "Bytes"))
        }
    )*};
}

keys! {
    path => "path",
    via_symlink => "viaSymlink",
    source => "source",
    destination => "destination",
    target => "target",
    root => "root",
    files => "files",
    similar => "similar",
    missing_paths => "missingPaths",
    unreadable_directories => "unreadableDirectories",
    unreadable_files => "unreadableFiles",
    existing_ancestor => "existingAncestor",
    nearby => "nearby",
    examples => "examples",
}

#[cfg(test)]
mod tests {
    use std::ffi::OsStr;
    use std::os::unix::ffi::OsStrExt;

    use serde::Serialize;

    use super::*;

    fn bad(bytes: &[u8]) -> PathBuf {
        PathBuf::from(OsStr::from_bytes(bytes))
    }

    #[derive(Serialize)]
    struct One {
        #[serde(flatten, serialize_with = "path")]
        path: PathBuf,
        #[serde(flatten, serialize_with = "via_symlink")]
        via_symlink: Option<PathBuf>,
        #[serde(flatten, serialize_with = "files")]
        files: Vec<PathBuf>,
        after: u8,
    }

    #[test]
    fn a_utf8_name_is_a_plain_string() {
        let v = serde_json::to_string(&One {
            path: "/w/a b.txt".into(),
            via_symlink: None,
            files: vec!["/w/x".into()],
            after: 1,
        })
        .unwrap();
        assert_eq!(v, r#"{"path":"/w/a b.txt","files":["/w/x"],"after":1}"#);
    }

    #[test]
    fn a_name_that_is_not_utf8_gets_its_bytes_beside_it() {
        let v = serde_json::to_string(&One {
            path: bad(b"/w/bad\xffname"),
            via_symlink: Some(bad(b"/w/l\xfe")),
            files: vec!["/w/x".into(), bad(b"/w/\x80"), bad(b"/\xc3")],
            after: 1,
        })
        .unwrap();
        assert_eq!(
            v,
            concat!(
                r#"{"path":"/w/bad\u{fffd}name","pathBytes":"L3cvYmFk/25hbWU=","#,
                r#""viaSymlink":"/w/l\u{fffd}","viaSymlinkBytes":"L3cvbP4=","#,
                r#""files":["/w/x","/w/\u{fffd}","/\u{fffd}"],"#,
                r#""filesBytes":{"1":"L3cvgA==","2":"L8M="},"after":1}"#
            )
            .replace("\\u{fffd}", "\u{fffd}")
        );
    }

    #[test]
    fn the_base64_is_standard_and_padded() {
        for (raw, b64) in [
            (&b"\xff"[..], "/w=="),
            (b"a\xff", "Yf8="),
            (b"ab\xff", "YWL/"),
            (b"\xfb\xef\xbe", "++++"),
        ] {
            assert_eq!(raw_bytes(&bad(raw)).as_deref(), Some(b64));
        }
        assert_eq!(raw_bytes(Path::new("plain/ünï")), None);
    }
}
