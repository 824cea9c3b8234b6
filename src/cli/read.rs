//! `quill read`'s arguments and examples.

use std::path::PathBuf;

use clap::Args;

pub(super) const READ_EXAMPLES: &str = "\
Examples:
  quill read src/lib.rs                       # lines 1-2000 (at most 50 KiB)
  quill read src/lib.rs --offset 2001         # the next page
  quill read big.log --offset 100 --limit 20  # 20 lines from line 100
  quill --json read notes.ipynb               # notebook cells as text
  quill read paper.pdf --pages 1-3            # needs pdftotext (poppler-utils)
  quill read src                              # a directory: two levels, paged
  quill read old.txt --encoding windows-1251  # instead of the detected encoding";

#[derive(Debug, Args)]
pub(crate) struct ReadArgs {
    /// The file (or directory) to read.
    pub path: PathBuf,
    /// First line to show, 1-based: a line number (the previous page's nextOffset); for a
    /// directory, the first entry.
    #[arg(long, value_name = "N", default_value_t = 1, aliases = ["start-line", "start_line", "line"])]
    pub offset: u64,
    /// Most lines to show.
    #[arg(long, value_name = "N", default_value_t = 2000)]
    pub limit: u64,
    /// Byte budget of the page; the page ends before the line that would pass it.
    #[arg(long, value_name = "N", default_value_t = 51200)]
    pub max_bytes: u64,
    /// Cut longer lines in the display (0 = no cap).
    #[arg(long, value_name = "N", default_value_t = 2000)]
    pub max_line_chars: u64,
    /// PDF pages to show, e.g. 3 or 2-5 [default: all, up to 20].
    #[arg(long, value_name = "A-B")]
    pub pages: Option<String>,
    /// Include an image's bytes as base64 `data` (up to 5 MiB).
    #[arg(long)]
    pub inline_image: bool,
    /// Hidden `--end-line N` (other tools' vocabulary): the last line to show.
    #[arg(skip)]
    pub end_line: Option<u64>,
    /// Hidden `--view-range A,B` (other tools' vocabulary): the first and last line.
    #[arg(skip)]
    pub view_range: Option<String>,
    /// Decode text in this encoding (windows-1251, latin1, shift_jis, utf-8, …) instead of
    /// detecting it.
    #[arg(long, value_name = "NAME")]
    pub encoding: Option<String>,
    /// A directory: list hidden entries too.
    #[arg(long)]
    pub hidden: bool,
    /// A directory: list what .gitignore, .ignore and .git/info/exclude leave out.
    #[arg(long)]
    pub no_ignore: bool,
}
