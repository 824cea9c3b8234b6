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

/// The JSON Schema of a key that names files and its `Bytes` sibling: one name (`one`),
/// one that may be absent (`opt`), a list (`list`), a list that may be absent (`opt_list`).
/// Used with `#[schemars(schema_with = "crate::text::names::one::path")]` beside the serde
/// attribute, so the schema says exactly what the serializer writes.
pub(crate) mod shape {
    use schemars::{Schema, json_schema};

    /// How a key's value is shaped.
    #[derive(Clone, Copy)]
    pub(crate) enum Shape {
        One,
        Opt,
        List,
        OptList,
    }

    /// The object schema (to be flattened) of `key` and `<key>Bytes`.
    pub(crate) fn names(key: &str, about: &str, shape: Shape) -> Schema {
        let bytes_key = format!("{key}Bytes");
        let (value, bytes) = match shape {
            Shape::One | Shape::Opt => (
                json_schema!({
                    "type": "string",
                    "description": format!("{about} Absolute; a name that is not UTF-8 shows U+FFFD \
                        for its bad bytes here and is exact in `{bytes_key}`."),
                }),
                json_schema!({
                    "type": "string",
                    "contentEncoding": "base64",
                    "description": format!("The exact bytes of `{key}` in standard padded base64; \
                        present only when the name is not valid UTF-8."),
                }),
            ),
            Shape::List | Shape::OptList => (
                json_schema!({
                    "type": "array",
                    "items": {"type": "string"},
                    "description": format!("{about} Absolute; a name that is not UTF-8 shows U+FFFD \
                        for its bad bytes here and is exact in `{bytes_key}`."),
                }),
                json_schema!({
                    "type": "object",
                    "propertyNames": {"pattern": "^(0|[1-9][0-9]*)$"},
                    "additionalProperties": {"type": "string", "contentEncoding": "base64"},
                    "description": format!("For each name of `{key}` that is not valid UTF-8: its \
                        index (a string) → its exact bytes in standard padded base64; present only \
                        when some name needs it."),
                }),
            ),
        };
        let required: &[&str] = match shape {
            Shape::One | Shape::List => &[key],
            Shape::Opt | Shape::OptList => &[],
        };
        json_schema!({
            "type": "object",
            "properties": { key: value, bytes_key: bytes },
            "required": required,
        })
    }
}

/// `schema_with` functions, one per key and shape (see `shape`).
macro_rules! schemas {
    ($shape:ident, $variant:ident: $($name:ident => $key:literal, $about:literal;)*) => {
        pub(crate) mod $shape {
            use schemars::{Schema, SchemaGenerator};
            $(
                pub(crate) fn $name(_: &mut SchemaGenerator) -> Schema {
                    super::shape::names($key, $about, super::shape::Shape::$variant)
                }
            )*
        }
    };
}

schemas! { one, One:
    path => "path", "The file (or directory) this is about.";
    source => "source", "The source file (symbolic links resolved).";
    destination => "destination", "The destination file.";
    target => "target", "Where the path resolves to.";
    root => "root", "The `--root` directory.";
}

schemas! { opt, Opt:
    path => "path", "The file this is about.";
    via_symlink => "viaSymlink", "The path as named, when it is a symbolic link (present only then).";
    source => "source", "A move's old path (present only for `moved`).";
    existing_ancestor => "existingAncestor", "The deepest ancestor of `path` that exists, when its parent does not (present only then).";
}

schemas! { list, List:
    files => "files", "The files.";
    similar => "similar", "Up to 3 names in the same directory that look like the missing one.";
    missing_paths => "missingPaths", "PATHs named among others that do not exist.";
    unreadable_directories => "unreadableDirectories", "Directories that could not be read (skipped), sorted.";
    unreadable_files => "unreadableFiles", "Files that could not be opened or read (skipped), sorted.";
    nearby => "nearby", "Files of the same name one or two directories away, nearest first, at most 3.";
    examples => "examples", "Up to 3 of them, in path order.";
}

schemas! { opt_list, OptList:
    files => "files", "Files mode: the matching files of this page, in path order (present only in files mode).";
}

#[cfg(test)]
mod tests {
    use serde::Serialize;

    use super::*;

    fn bad(bytes: &[u8]) -> PathBuf {
        PathBuf::from(crate::sys::os_string(bytes.to_vec()))
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
