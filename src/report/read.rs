//! The result of `quill read` (docs/commands/read.md): which file, how it was decoded, which lines this
//! page holds and how to get the next, and the whole file's hash and size; for a directory,
//! a page of its listing. Data only.

use std::path::PathBuf;

use schemars::JsonSchema;
use serde::Serialize;

use super::FileAccess;

/// One page of a file. `lines` and `summary` are for text output only.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct ReadReport {
    /// The file shown (symlinks resolved).
    #[serde(flatten, serialize_with = "crate::text::names::path")]
    #[schemars(schema_with = "crate::text::names::one::path")]
    pub path: PathBuf,
    /// The path as named, when it is a symbolic link.
    #[serde(flatten, serialize_with = "crate::text::names::via_symlink")]
    #[schemars(schema_with = "crate::text::names::opt::via_symlink")]
    pub via_symlink: Option<PathBuf>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub file_access: Option<FileAccess>,
    /// `text`, `image`, `pdf` or `notebook`.
    #[schemars(extend("enum" = ["text", "image", "pdf", "notebook"]))]
    pub kind: &'static str,
    /// `utf-8`, `utf-16le`, `utf-16be`, or a legacy encoding's WHATWG name (`windows-1251`,
    /// `ISO-8859-2`, `Shift_JIS`, …); null for images.
    pub encoding: Option<&'static str>,
    /// The file starts with a byte-order mark (not shown in `content`; kept by every change).
    pub bom: bool,
    /// The file's line endings: `lf`, `crlf`, `cr`, `mixed` or `none` (no line break).
    #[schemars(extend("enum" = ["lf", "crlf", "cr", "mixed", "none"]))]
    pub line_ending: &'static str,
    /// The first line shown (1-based); 0 when no line is shown (an image has no lines).
    pub start_line: u64,
    /// The last line shown; 0 when no line is shown.
    pub end_line: u64,
    /// The lines of the whole file.
    pub total_lines: u64,
    /// The `--offset` of the next page; null on the last.
    pub next_offset: Option<u64>,
    /// The lines shown, without numbers.
    pub content: String,
    /// Lines cut in the display by `--max-line-chars`.
    pub truncated_lines: Vec<u64>,
    /// The whole file's size in bytes.
    pub size: u64,
    /// The whole file's SHA-256 (64 hex digits); null when nothing was recorded (nothing
    /// shown: an image without `--inline-image`, part of a PDF).
    #[schemars(regex(pattern = r"^[0-9a-f]{64}$"))]
    pub sha256: Option<String>,
    /// Every line was shown, none cut (an image: its bytes were shown, `--inline-image`).
    pub complete: bool,
    /// Bytes invalid in `encoding` were shown as U+FFFD.
    pub lossy: bool,
    /// Images only: the MIME type (`image/png`, …).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mime: Option<&'static str>,
    /// Images only: the width in pixels.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub width: Option<u32>,
    /// Images only: the height in pixels.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub height: Option<u32>,
    /// Images with `--inline-image` only: the file's bytes, standard base64.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(extend("contentEncoding" = "base64"))]
    pub data: Option<String>,
    /// PDFs only: the pages shown (`A-B`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pages: Option<String>,
    /// PDFs only: how many pages the document has.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub page_count: Option<u32>,
    /// The shown lines (text output numbers them).
    #[serde(skip)]
    pub lines: Vec<String>,
    /// A one-line description instead of lines (images).
    #[serde(skip)]
    pub summary: Option<String>,
}

impl ReadReport {
    /// A text page of `path` that shows nothing yet: the reader fills it in.
    pub(crate) fn blank(path: PathBuf, via_symlink: Option<PathBuf>, start_line: u64) -> Self {
        ReadReport {
            path,
            via_symlink,
            file_access: None,
            kind: "text",
            encoding: None,
            bom: false,
            line_ending: "none",
            start_line,
            end_line: 0,
            total_lines: 0,
            next_offset: None,
            content: String::new(),
            truncated_lines: Vec::new(),
            size: 0,
            sha256: None,
            complete: false,
            lossy: false,
            mime: None,
            width: None,
            height: None,
            data: None,
            pages: None,
            page_count: None,
            lines: Vec::new(),
            summary: None,
        }
    }
}

/// `quill read DIR`: a page of the directory's listing, two levels deep, directories first.
/// No baseline is recorded and there is no `fileAccess`: nothing of a file was shown.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct ListingReport {
    /// The directory listed (symlinks resolved).
    #[serde(flatten, serialize_with = "crate::text::names::path")]
    #[schemars(schema_with = "crate::text::names::one::path")]
    pub path: PathBuf,
    #[serde(flatten, serialize_with = "crate::text::names::via_symlink")]
    #[schemars(schema_with = "crate::text::names::opt::via_symlink")]
    pub via_symlink: Option<PathBuf>,
    /// Always `directory`.
    #[schemars(extend("enum" = ["directory"]))]
    pub kind: &'static str,
    /// The entries of this page, in listing order.
    pub entries: Vec<ListingEntry>,
    /// The 1-based number of the first entry shown.
    pub start_entry: u64,
    /// The number of the last entry shown.
    pub end_entry: u64,
    /// How many entries the listing has.
    pub total_entries: u64,
    /// The `--offset` of the next page; null on the last.
    pub next_offset: Option<u64>,
    /// How deep the listing goes (2: the directory's entries and theirs).
    pub depth: usize,
    /// Entries within that depth left out because they are hidden (`--hidden` shows them);
    /// null when the listing stopped early and they were not counted.
    pub hidden_left_out: Option<u64>,
    /// Entries left out because an ignore file names them (`--no-ignore` shows them); null
    /// when not counted.
    pub ignored_left_out: Option<u64>,
    /// The listing stopped at its entry bound, or some directory could not be read.
    pub walk_incomplete: bool,
    /// Directories that could not be read, sorted.
    #[serde(flatten, serialize_with = "crate::text::names::unreadable_directories")]
    #[schemars(schema_with = "crate::text::names::list::unreadable_directories")]
    pub unreadable_directories: Vec<PathBuf>,
    /// The shown entries as text output prints them (paths as typed).
    #[serde(skip)]
    pub lines: Vec<String>,
    /// The directory as typed, shell-quoted (for the hint that shows what was left out).
    #[serde(skip)]
    pub typed: String,
}

/// One entry of a listing.
#[derive(Debug)]
pub(crate) struct ListingEntry {
    /// Absolute (not resolved: a symbolic link is listed as itself).
    pub path: PathBuf,
    /// `dir`, `file`, `symlink` or `other` (FIFO, socket, device).
    pub kind: &'static str,
    /// Files: the size in bytes; null for the others.
    pub size: Option<u64>,
    /// 1 for the directory's own entries, 2 for theirs.
    pub depth: usize,
    /// Symbolic links: where the link points (as stored in the link).
    pub target: Option<PathBuf>,
}

/// `{"path", "pathBytes"?, "type", "size", "depth", "target"?}`: a name that is not UTF-8 is
/// shown lossily in `path` and exactly, as standard base64, in `pathBytes` (likewise
/// `targetBytes`).
impl Serialize for ListingEntry {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut m = s.serialize_map(None)?;
        name(&mut m, "path", "pathBytes", &self.path)?;
        m.serialize_entry("type", self.kind)?;
        m.serialize_entry("size", &self.size)?;
        m.serialize_entry("depth", &self.depth)?;
        if let Some(t) = &self.target {
            name(&mut m, "target", "targetBytes", t)?;
        }
        m.end()
    }
}

impl JsonSchema for ListingEntry {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "ListingEntry".into()
    }
    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        use crate::text::names::shape::{Shape, names};
        let path = names(
            "path",
            "The entry (not resolved: a symbolic link is listed as itself).",
            Shape::One,
        );
        let target = names(
            "target",
            "Symbolic links only: where the link points, as stored in the link (present only for links).",
            Shape::Opt,
        );
        let mut properties = serde_json::Map::new();
        for s in [&path, &target] {
            if let Some(p) = s.get("properties").and_then(|p| p.as_object()) {
                properties.extend(p.clone());
            }
        }
        properties.insert(
            "type".into(),
            serde_json::json!({
                "enum": ["dir", "file", "symlink", "other"],
                "description": "`dir`, `file`, `symlink`, or `other` (a FIFO, socket or device)."
            }),
        );
        properties.insert(
            "size".into(),
            serde_json::json!({
                "type": ["integer", "null"], "minimum": 0,
                "description": "Files: the size in bytes; null for the others."
            }),
        );
        properties.insert(
            "depth".into(),
            serde_json::json!({
                "type": "integer", "minimum": 1, "maximum": 2,
                "description": "1 for the directory's own entries, 2 for theirs."
            }),
        );
        schemars::json_schema!({
            "type": "object",
            "description": "One entry of a directory listing.",
            "properties": properties,
            "required": ["path", "type", "size", "depth"],
        })
    }
}

fn name<M: serde::ser::SerializeMap>(
    m: &mut M,
    key: &str,
    bytes_key: &str,
    path: &std::path::Path,
) -> Result<(), M::Error> {
    m.serialize_entry(key, &path.to_string_lossy())?;
    if let Some(bytes) = crate::text::names::raw_bytes(path) {
        m.serialize_entry(bytes_key, &bytes)?;
    }
    Ok(())
}
