//! The result of `quill read` (SPEC §3.1): which file, how it was decoded, which lines this
//! page holds and how to get the next, and the whole file's hash and size. Data only.

use std::path::PathBuf;

use serde::Serialize;

use super::FileAccess;

/// One page of a file. `lines` and `summary` are for text output only.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct ReadReport {
    /// The file shown (symlinks resolved).
    #[serde(flatten, serialize_with = "crate::names::path")]
    pub path: PathBuf,
    /// The path as named, when it is a symbolic link.
    #[serde(flatten, serialize_with = "crate::names::via_symlink")]
    pub via_symlink: Option<PathBuf>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub file_access: Option<FileAccess>,
    /// `text`, `image`, `pdf` or `notebook`.
    pub kind: &'static str,
    /// `utf-8`, `utf-16le`, `utf-16be`; null for images.
    pub encoding: Option<&'static str>,
    pub bom: bool,
    /// `lf`, `crlf`, `cr`, `mixed` or `none`.
    pub line_ending: &'static str,
    /// The first line shown (1-based) and the last.
    pub start_line: u64,
    pub end_line: u64,
    pub total_lines: u64,
    /// The `--offset` of the next page; null on the last.
    pub next_offset: Option<u64>,
    /// The lines shown, without numbers.
    pub content: String,
    /// Lines cut in the display by `--max-line-chars`.
    pub truncated_lines: Vec<u64>,
    /// The whole file's size in bytes.
    pub size: u64,
    /// The whole file's SHA-256; null when nothing was recorded (nothing shown).
    pub sha256: Option<String>,
    /// Every line was shown, none cut.
    pub complete: bool,
    /// Invalid UTF-8 was shown as U+FFFD.
    pub lossy: bool,
    /// Images: the MIME type, width and height in pixels, and (`--inline-image`) the bytes
    /// as base64.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mime: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub width: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub height: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub data: Option<String>,
    /// PDFs: the pages shown (`A-B`) and how many the document has.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pages: Option<String>,
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
