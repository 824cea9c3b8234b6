//! `quill read` (docs/commands/read.md): one guarded, streaming pass over the file that hashes all of it,
//! counts its lines and keeps one page; the stat identity is compared before and after (read
//! again once, then `changed_during_read`). Text (UTF-8, BOM, UTF-16, legacy encodings named
//! by `--encoding` or detected when a file is not UTF-8), images (dimensions, optional inline
//! data), PDFs (through `pdftotext`) and notebooks (rendered cells); a directory is listed
//! (`listing`). A read that shows content records the session's baseline; one that shows
//! nothing records nothing. `pass` shows each kind of file, `pdf` runs the PDF converters.

use std::fs;
use std::io::{self, Read};
use std::path::Path;

use sha2::{Digest, Sha256};

mod pass;
mod pdf;

use self::pass::Pass;
use self::pdf::pdf_page_count;
use crate::cli::ReadArgs;
use crate::error::{Error, Result};
use crate::fs::paths::{self, Resolved};
use crate::fs::probe::{self, CHUNK, Identity};
use crate::report::{FileAccess, ReadReport, Report};
use crate::settings::Settings;
use crate::state::{Baseline, kept};
use crate::text::encoding::{self, Encoding};
use crate::text::hex;
use crate::text::page::{Page, PageSpec, Pager, Stop, page_all};
use crate::text::sniff::{self, Sniffed};
use crate::warnings::WarningKind;

/// Files decoded or rendered whole in memory (UTF-16, notebooks) are capped at this size.
const MAX_WHOLE_BYTES: u64 = 64 * 1024 * 1024;
/// What `quill read -` (or `/dev/stdin`) calls standard input in its report.
const STDIN_NAME: &str = "<stdin>";

/// A checked `quill read`.
pub(crate) struct ReadRequest {
    /// The file; `None` reads standard input (`-`, `/dev/stdin`): a page, no baseline.
    resolved: Option<Resolved>,
    spec: PageSpec,
    /// `--pages A-B`, parsed.
    pages: Option<(u32, u32)>,
    inline_image: bool,
    /// `--encoding NAME`: decode text in this encoding instead of detecting it.
    encoding: Option<&'static encoding_rs::Encoding>,
    /// How a directory is listed (`--hidden`, `--no-ignore`).
    listing: super::listing::ListingOptions,
}

impl ReadArgs {
    /// Check the flags, then resolve the path (it must exist).
    pub(crate) fn resolve(self, s: &Settings) -> Result<ReadRequest> {
        let mut args = self;
        (args.offset, args.limit) = crate::cli::drift::read_window(
            args.offset,
            args.limit,
            args.end_line,
            args.view_range.as_deref(),
        )?;
        if args.offset == 0 {
            return Err(Error::invalid_argument(
                "--offset is 1-based: the first line is 1",
            ));
        }
        if args.limit == 0 || args.max_bytes == 0 {
            return Err(Error::invalid_argument(
                "--limit and --max-bytes must be at least 1",
            ));
        }
        let pages = args.pages.as_deref().map(parse_pages).transpose()?;
        let encoding = args
            .encoding
            .as_deref()
            .map(encoding::parse_label)
            .transpose()
            .map_err(Error::invalid_argument)?;
        let resolved = if names_stdin(&args.path) {
            None
        } else {
            let resolved = paths::resolve(&s.cwd, s.root.as_ref(), &args.path)?;
            if !resolved.exists {
                return Err(paths::not_found(resolved.target));
            }
            Some(resolved)
        };
        Ok(ReadRequest {
            resolved,
            spec: PageSpec {
                offset: args.offset,
                limit: args.limit,
                max_bytes: args.max_bytes,
                max_line_chars: args.max_line_chars,
            },
            pages,
            inline_image: args.inline_image,
            encoding,
            listing: super::listing::ListingOptions {
                hidden: args.hidden,
                no_ignore: args.no_ignore,
            },
        })
    }
}

/// `-` and the names of standard input (`/dev/stdin` would otherwise resolve to a pipe's
/// `/proc/self/fd/0` target, which has no name to open).
fn names_stdin(path: &Path) -> bool {
    ["-", "/dev/stdin", "/dev/fd/0", "/proc/self/fd/0"]
        .iter()
        .any(|n| path.as_os_str() == *n)
}

pub(crate) fn run(s: &Settings, req: ReadRequest) -> Result<Report> {
    read(s, &req).map_err(|mut e| {
        // A hint's call repeats the encoding the read named.
        if let Error::LineTooLong { encoding, .. } = &mut e {
            *encoding = req.encoding.map(|codec| codec.name());
        }
        e
    })
}

fn read(s: &Settings, req: &ReadRequest) -> Result<Report> {
    let Some(resolved) = &req.resolved else {
        return read_stdin(s, req);
    };
    if fs::metadata(&resolved.target).is_ok_and(|m| m.is_dir()) {
        return super::listing::run(s, resolved, req.spec, &req.listing);
    }
    let shown = match read_once(s, req, resolved)? {
        Attempt::Done(shown) => *shown,
        Attempt::Changed => match read_once(s, req, resolved)? {
            Attempt::Done(shown) => *shown,
            Attempt::Changed => {
                return Err(Error::ChangedDuringRead {
                    path: resolved.target.clone(),
                });
            }
        },
    };
    let Shown {
        mut report,
        baseline,
        detected,
        copy,
    } = shown;
    if let Some(b) = baseline {
        let store = s.store();
        let file = store.session(&s.session);
        let sha256 = b.sha256.clone();
        file.update(|session| session.record(b))?;
        if let Some(bytes) = copy {
            file.kept().keep(&sha256, &bytes);
        }
        report.file_access = Some(FileAccess::read(&report.path));
    } else {
        report.sha256 = None;
    }
    let name = report.encoding.unwrap_or("utf-8");
    if detected {
        s.warn(WarningKind::EncodingDetected, format!(
            "{} is not UTF-8: shown decoded from {name} (detected; --encoding NAME reads it as another); edits write it back in {name}",
            report.path.display()
        ));
    }
    if report.lossy {
        s.warn(WarningKind::LossyDecoding, format!(
            "{} is not valid {name}; invalid bytes are shown as U+FFFD (edits keep them as they are)",
            report.path.display()
        ));
    }
    Ok(Report::Read(report))
}

struct Shown {
    report: ReadReport,
    baseline: Option<Baseline>,
    /// The encoding was detected (not UTF-8, no BOM, no `--encoding`).
    detected: bool,
    /// The bytes of a text file small enough to keep (`state::kept`).
    copy: Option<Vec<u8>>,
}

enum Attempt {
    Done(Box<Shown>),
    Changed,
}

fn read_once(s: &Settings, req: &ReadRequest, resolved: &Resolved) -> Result<Attempt> {
    let path = &resolved.target;
    let (file, meta) = probe::open_regular(s.root.as_ref(), path)?;
    let mut pass = Pass::start(&file, Identity::of(&meta), resolved, req.spec)?;
    let is_notebook = path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("ipynb"));
    match sniff_file(pass.first_bytes(), path)? {
        (Sniffed::Binary { guess }, _) => {
            return Err(Error::BinaryFile {
                path: path.clone(),
                size: pass.size(),
                guess,
            });
        }
        (Sniffed::Text { encoding }, _) if !is_notebook && streams(req, encoding) => {
            pass.streamed_text(s, req, encoding)?
        }
        (Sniffed::Text { encoding }, _) => pass.whole_text(s, req, encoding, is_notebook)?,
        (Sniffed::Image { mime }, _) => pass.image(s, req, mime)?,
        (Sniffed::Pdf, page_count) => pass.pdf(req, page_count)?,
    }
    if pass.changed()? {
        return Ok(Attempt::Changed);
    }
    Ok(Attempt::Done(Box::new(pass.finish())))
}

/// What a file's first bytes are, and a PDF's page count. A file that only starts like a PDF
/// (notes quoting "%PDF-1.7 …") is text, not an error: pdfinfo decides, and its page count is
/// kept for the conversion.
fn sniff_file(first: &[u8], path: &Path) -> Result<(Sniffed, u32)> {
    Ok(match sniff::sniff(first) {
        Sniffed::Pdf => match pdf_page_count(path)? {
            Some(n) => (Sniffed::Pdf, n),
            None => (
                Sniffed::Text {
                    encoding: Encoding::Utf8,
                },
                0,
            ),
        },
        other => (other, 0),
    })
}

/// `quill read -`: one page of standard input, streamed (the page is kept, the rest only
/// counted and hashed). Nothing to guard, so no baseline and no `fileAccess`; `sha256` and
/// `size` are of what was read. Text only: UTF-16 is decoded whole (capped like a file).
fn read_stdin(s: &Settings, req: &ReadRequest) -> Result<Report> {
    let path = Path::new(STDIN_NAME);
    let stdin = io::stdin();
    let mut input = stdin.lock();
    let spec = req.spec;
    let mut hasher = Tee::default();
    let mut buf = vec![0u8; CHUNK];
    let n = read_full(&mut input, &mut buf, path)?;
    let first = &buf[..n];
    let mut size = n as u64;
    let mut r = ReadReport::blank(path.to_path_buf(), None, spec.offset);
    match sniff::sniff(first) {
        Sniffed::Binary { guess } => {
            return Err(Error::BinaryFile {
                path: path.to_path_buf(),
                size,
                guess,
            });
        }
        Sniffed::Image { .. } | Sniffed::Pdf => {
            return Err(Error::invalid_argument(
                "standard input holds an image or a PDF; `quill read` shows those from a file: save it to one and read that",
            ));
        }
        Sniffed::Text { encoding } if streams(req, encoding) => {
            let (page, rest) =
                stream_page(&mut input, &mut buf, n, spec, encoding, &mut hasher, path)?;
            size += rest;
            r.encoding = Some(encoding.as_str());
            r.bom = encoding.has_bom();
            fill_page(&mut r, page, path, spec)?;
        }
        Sniffed::Text { encoding } => {
            let whole = read_whole(&mut input, first, &mut hasher, path, 0)?;
            size = whole.len() as u64;
            let encoding = match req.encoding {
                Some(codec) => encoding::forced(codec, &whole).map_err(Error::invalid_argument)?,
                None => encoding,
            };
            let (text, lossy) = decode_whole(&whole, encoding);
            r.encoding = Some(encoding.as_str());
            r.bom = encoding.has_bom();
            fill_page(&mut r, page_all(spec, text.as_bytes()), path, spec)?;
            r.lossy |= lossy;
        }
    }
    r.size = size;
    r.sha256 = Some(hasher.finish().0);
    if r.lossy {
        s.warn(
            WarningKind::LossyDecoding,
            format!(
                "{STDIN_NAME} is not valid {}; invalid bytes are shown as U+FFFD",
                r.encoding.unwrap_or("utf-8")
            ),
        );
    }
    Ok(Report::Read(r))
}

/// Whether text sniffed as `encoding` is paged as UTF-8 as it streams: UTF-8 (BOM or not)
/// unless `--encoding` names another encoding.
fn streams(req: &ReadRequest, encoding: Encoding) -> bool {
    matches!(encoding, Encoding::Utf8 | Encoding::Utf8Bom)
        && req.encoding.is_none_or(|codec| codec == encoding_rs::UTF_8)
}

/// What a read goes through: hashed, and copied once `copy` is called (a text file small
/// enough to keep, so that a later `stale` can show what changed since: `state::kept`).
#[derive(Default)]
pub(super) struct Tee {
    hasher: Sha256,
    copy: Option<Vec<u8>>,
}

impl Tee {
    /// From here on, keep a copy of what goes through (when `size` fits `kept::MAX_FILE`).
    pub(super) fn copy(&mut self, size: u64, on: bool) {
        if on && size <= kept::MAX_FILE {
            self.copy = Some(Vec::with_capacity(size as usize));
        }
    }

    pub(super) fn update(&mut self, bytes: &[u8]) {
        self.hasher.update(bytes);
        if let Some(copy) = &mut self.copy {
            copy.extend_from_slice(bytes);
        }
    }

    /// The SHA-256 (hex) and the copy.
    pub(super) fn finish(self) -> (String, Option<Vec<u8>>) {
        (hex(&self.hasher.finalize()), self.copy)
    }
}

/// Page UTF-8 text whose first `filled` bytes are already in `buf` (BOM skipped) and whose
/// rest streams from `input` through `buf`, hashing every byte; returns the page and how many
/// bytes followed the first ones.
fn stream_page(
    input: &mut impl Read,
    buf: &mut [u8],
    filled: usize,
    spec: PageSpec,
    encoding: Encoding,
    hasher: &mut Tee,
    path: &Path,
) -> Result<(Page, u64)> {
    let first = &buf[..filled];
    hasher.update(first);
    let bom = encoding.bom().len().min(first.len());
    let mut pager = Pager::new(spec);
    pager.feed(&first[bom..]);
    let mut rest = 0u64;
    loop {
        let n = read_some(input, buf, path)?;
        if n == 0 {
            break;
        }
        rest += n as u64;
        hasher.update(&buf[..n]);
        pager.feed(&buf[..n]);
    }
    Ok((pager.finish(), rest))
}

/// A whole text without its BOM, decoded: UTF-16 by its byte order, a legacy encoding, else
/// lossy UTF-8; whether anything was replaced by U+FFFD.
fn decode_whole(whole: &[u8], encoding: Encoding) -> (String, bool) {
    let (text, lossy) = encoding::decode(whole, encoding);
    match String::from_utf8(text.into_owned()) {
        Ok(text) => (text, lossy),
        // UTF-8 is left as its bytes by `decode`: what is not valid is shown as U+FFFD.
        Err(e) => (String::from_utf8_lossy(e.as_bytes()).into_owned(), true),
    }
}

/// The file's first `size` bytes once more, from its descriptor (the streamed pass kept only
/// a page); shorter if it shrank, which the identity check then reports.
fn read_again(file: &fs::File, size: u64, path: &Path) -> Result<Vec<u8>> {
    let mut all = vec![0u8; size as usize];
    let mut at = 0;
    while at < all.len() {
        match crate::sys::read_at(file, &mut all[at..], at as u64) {
            Ok(0) => break,
            Ok(n) => at += n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted && !crate::signals::interrupted() => {}
            Err(e) => return Err(Error::io("read", path, e)),
        }
    }
    all.truncate(at);
    Ok(all)
}

/// Move a finished page into the report, or turn it into the error it implies.
fn fill_page(r: &mut ReadReport, page: Page, path: &Path, spec: PageSpec) -> Result<()> {
    if let Some(Stop::FirstLineTooLong {
        line,
        bytes,
        line_bytes,
        cut,
    }) = page.stop
    {
        return Err(Error::LineTooLong {
            path: path.to_path_buf(),
            line,
            bytes,
            line_bytes,
            budget: spec.max_bytes,
            max_line_chars: spec.max_line_chars,
            cut,
            encoding: None,
        });
    }
    if spec.offset > page.total_lines && !(page.total_lines == 0 && spec.offset == 1) {
        return Err(Error::OffsetPastEnd {
            path: path.to_path_buf(),
            offset: spec.offset,
            total_lines: page.total_lines,
        });
    }
    let shown = page.lines.len() as u64;
    r.start_line = spec.offset;
    r.end_line = spec.offset + shown - 1;
    if shown == 0 {
        r.end_line = spec.offset - 1;
    }
    r.total_lines = page.total_lines;
    r.next_offset = (r.end_line < page.total_lines).then_some(r.end_line + 1);
    r.line_ending = page.line_ending;
    r.lossy = page.lossy_page || !page.valid_utf8;
    for (i, line) in page.lines.iter().enumerate() {
        if line.cut_chars > 0 {
            r.truncated_lines.push(spec.offset + i as u64);
        }
    }
    r.complete = spec.offset == 1 && r.end_line == page.total_lines && r.truncated_lines.is_empty();
    r.lines = page.lines.into_iter().map(|l| l.text).collect();
    r.content = r.lines.concat();
    Ok(())
}

fn read_some(file: &mut impl Read, buf: &mut [u8], path: &Path) -> Result<usize> {
    probe::read_retrying(file, buf).map_err(|e| Error::io("read", path, e))
}

/// Fill `buf` as far as the file goes.
fn read_full(file: &mut impl Read, buf: &mut [u8], path: &Path) -> Result<usize> {
    let mut n = 0;
    while n < buf.len() {
        let got = read_some(file, &mut buf[n..], path)?;
        if got == 0 {
            break;
        }
        n += got;
    }
    Ok(n)
}

/// The whole file in memory (after `first`, already read), hashed on the way; capped.
fn read_whole(
    file: &mut impl Read,
    first: &[u8],
    hasher: &mut Tee,
    path: &Path,
    size: u64,
) -> Result<Vec<u8>> {
    if size > MAX_WHOLE_BYTES {
        return Err(Error::FileTooLarge {
            path: path.to_path_buf(),
            size,
            limit: MAX_WHOLE_BYTES,
        });
    }
    let mut all = Vec::with_capacity(size as usize + 1);
    all.extend_from_slice(first);
    file.take(MAX_WHOLE_BYTES + 1 - first.len() as u64)
        .read_to_end(&mut all)
        .map_err(|e| Error::io("read", path, e))?;
    if all.len() as u64 > MAX_WHOLE_BYTES {
        return Err(Error::FileTooLarge {
            path: path.to_path_buf(),
            size: all.len() as u64,
            limit: MAX_WHOLE_BYTES,
        });
    }
    hasher.update(&all);
    Ok(all)
}

/// `3` or `2-5`, 1-based.
fn parse_pages(spec: &str) -> Result<(u32, u32)> {
    let bad = || Error::invalid_argument(format!("--pages takes N or A-B (1-based), not {spec:?}"));
    let (a, b) = match spec.split_once('-') {
        Some((a, b)) => (a.trim(), b.trim()),
        None => (spec.trim(), spec.trim()),
    };
    let a: u32 = a.parse().map_err(|_| bad())?;
    let b: u32 = b.parse().map_err(|_| bad())?;
    if a == 0 || b < a {
        return Err(bad());
    }
    Ok((a, b))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn page_ranges() {
        assert_eq!(parse_pages("3").unwrap(), (3, 3));
        assert_eq!(parse_pages("2-5").unwrap(), (2, 5));
        assert!(parse_pages("0").is_err());
        assert!(parse_pages("5-2").is_err());
        assert!(parse_pages("x").is_err());
    }
}
