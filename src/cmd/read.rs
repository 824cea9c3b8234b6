//! `quill read` (docs/commands/read.md): one guarded, streaming pass over the file that hashes all of it,
//! counts its lines and keeps one page; the stat identity is compared before and after (read
//! again once, then `changed_during_read`). Text (UTF-8, BOM, UTF-16, legacy encodings named
//! by `--encoding` or detected when a file is not UTF-8), images (dimensions, optional inline
//! data), PDFs (through `pdftotext`) and notebooks (rendered cells); a directory is listed
//! (`listing`). A read that shows content records the session's baseline; one that shows
//! nothing records nothing.

use std::fs;
use std::io::{self, Read};

use std::path::Path;
use std::process::{Command, Stdio};

use base64::Engine;
use sha2::{Digest, Sha256};

use crate::cli::ReadArgs;
use crate::error::{Error, Result};
use crate::fs::paths::{self, Resolved};
use crate::fs::probe::{self, CHUNK, Identity};
use crate::report::{FileAccess, ReadReport, Report};
use crate::settings::Settings;
use crate::state::Baseline;
use crate::text::encoding::{self, Encoding, legacy};
use crate::text::hex;
use crate::text::image;
use crate::text::notebook;
use crate::text::page::{Page, PageSpec, Pager, Stop, page_all};
use crate::text::sniff::{self, Sniffed};
use crate::warnings::WarningKind;

/// Files decoded or rendered whole in memory (UTF-16, notebooks) are capped at this size.
const MAX_WHOLE_BYTES: u64 = 64 * 1024 * 1024;
/// Inline image data is capped at this size.
const MAX_INLINE_IMAGE: u64 = 5 * 1024 * 1024;
/// Bytes kept for image header parsing (a JPEG's SOF may follow a large EXIF block).
const IMAGE_HEADER_BYTES: usize = 1024 * 1024;
/// PDF pages shown by default.
const DEFAULT_PDF_PAGES: u32 = 20;

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
    } = shown;
    if let Some(b) = baseline {
        s.store()
            .session(&s.session)
            .update(|session| session.record(b))?;
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
}

enum Attempt {
    Done(Box<Shown>),
    Changed,
}

fn read_once(s: &Settings, req: &ReadRequest, resolved: &Resolved) -> Result<Attempt> {
    let path = &resolved.target;
    let (file, meta) = probe::open_regular(s.root.as_ref(), path)?;
    let before = Identity::of(&meta);
    // Read no more than the size seen at open: a file that grows without pause must not keep
    // the read going; the identity check below sees the growth.
    let mut file = (&file).take(before.size);
    let mut hasher = Sha256::new();
    let mut buf = vec![0u8; CHUNK];
    let n = read_full(&mut file, &mut buf, path)?;
    let first = &buf[..n];
    let spec = req.spec;
    let is_notebook = path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("ipynb"));

    let mut r = ReadReport::blank(path.clone(), resolved.via_symlink.clone(), spec.offset);
    r.size = before.size;

    let mut record = true;
    let mut detected = false;
    // A file that only starts like a PDF (notes quoting "%PDF-1.7 …") is text, not an error:
    // pdfinfo decides, and its page count is kept for the conversion.
    let mut pdf_pages = 0;
    let sniffed = match sniff::sniff(first) {
        Sniffed::Pdf => match pdf_page_count(path)? {
            Some(n) => {
                pdf_pages = n;
                Sniffed::Pdf
            }
            None => Sniffed::Text {
                encoding: Encoding::Utf8,
            },
        },
        other => other,
    };
    match sniffed {
        Sniffed::Binary { guess } => {
            return Err(Error::BinaryFile {
                path: path.clone(),
                size: before.size,
                guess,
            });
        }
        Sniffed::Text { encoding } if !is_notebook && streams(req, encoding) => {
            let (page, _) = stream_page(&mut file, &mut buf, n, spec, encoding, &mut hasher, path)?;
            // Not UTF-8 after all: read it again whole and see whether it is in a legacy
            // encoding (the same decision edit makes on the same bytes).
            let codec = if encoding == Encoding::Utf8
                && req.encoding.is_none()
                && !page.valid_utf8
                && before.size <= legacy::MAX_BYTES
            {
                let whole = read_again(file.get_ref(), before.size, path)?;
                legacy::detect(&whole).map(|codec| (codec, whole))
            } else {
                None
            };
            match codec {
                Some((codec, whole)) => {
                    let (text, lossy) = legacy::decode(&whole, codec);
                    r.encoding = Some(codec.name());
                    fill_page(&mut r, page_all(spec, text.as_bytes()), path, spec)?;
                    r.lossy = lossy;
                    detected = true;
                }
                None => {
                    r.encoding = Some(encoding.as_str());
                    r.bom = encoding.has_bom();
                    fill_page(&mut r, page, path, spec)?;
                }
            }
        }
        Sniffed::Text { encoding } => {
            let whole = read_whole(&mut file, first, &mut hasher, path, before.size)?;
            let encoding = match req.encoding {
                Some(codec) if !is_notebook => {
                    encoding::forced(codec, &whole).map_err(Error::invalid_argument)?
                }
                _ => encoding,
            };
            let (text, lossy) = decode_whole(&whole, encoding);
            r.encoding = Some(encoding.as_str());
            r.bom = encoding.has_bom();
            if is_notebook {
                match notebook::render(&whole) {
                    Ok(rendered) => {
                        r.kind = "notebook";
                        fill_page(&mut r, page_all(spec, rendered.as_bytes()), path, spec)?;
                    }
                    Err(why) => {
                        s.warn(
                            WarningKind::NotebookAsText,
                            format!("{}: {why}; shown as plain text", path.display()),
                        );
                        fill_page(&mut r, page_all(spec, text.as_bytes()), path, spec)?;
                    }
                }
            } else {
                fill_page(&mut r, page_all(spec, text.as_bytes()), path, spec)?;
                r.lossy |= lossy;
            }
        }
        Sniffed::Image { mime } => {
            r.kind = "image";
            r.mime = Some(mime);
            r.encoding = None;
            let inline = req.inline_image && before.size <= MAX_INLINE_IMAGE;
            if req.inline_image && !inline {
                s.warn(WarningKind::ImageNotInlined, format!(
                    "the image is {} bytes, over the {MAX_INLINE_IMAGE}-byte limit for --inline-image; data not included",
                    before.size
                ));
            }
            let mut header = first.to_vec();
            if inline {
                header = read_whole(&mut file, first, &mut hasher, path, before.size)?;
            } else if mime == "image/jpeg" {
                header.resize(IMAGE_HEADER_BYTES, 0);
                let more = read_full(&mut file, &mut header[n..], path)?;
                header.truncate(n + more);
            }
            if let Some((w, h)) = image::dimensions(mime, &header) {
                r.width = Some(w);
                r.height = Some(h);
            }
            let dims = match (r.width, r.height) {
                (Some(w), Some(h)) => format!("{w}x{h}"),
                _ => "unknown size".into(),
            };
            r.summary = Some(format!(
                "{}: {mime}, {dims}, {} bytes{}",
                paths::display(&s.cwd, path),
                before.size,
                if inline {
                    ""
                } else {
                    " (add --inline-image --json for the data)"
                }
            ));
            // An image has no lines: `startLine`, `endLine` and `totalLines` are 0, and there
            // is no next page.
            r.start_line = 0;
            if inline {
                // Shown whole: a baseline, a hash and `fileAccess`, as for a text file.
                r.data = Some(base64::engine::general_purpose::STANDARD.encode(&header));
                r.complete = true;
            } else {
                // Described, not shown: nothing recorded (no hash, no `fileAccess`).
                record = false;
            }
        }
        Sniffed::Pdf => {
            r.kind = "pdf";
            // Hash the file as it is now; the converter reads it by path.
            hasher.update(first);
            loop {
                let n = read_some(&mut file, &mut buf, path)?;
                if n == 0 {
                    break;
                }
                hasher.update(&buf[..n]);
            }
            let (text, first_page, last_page, count) = pdf_text(path, req.pages, pdf_pages)?;
            r.page_count = Some(count);
            r.pages = Some(format!("{first_page}-{last_page}"));
            r.encoding = Some("utf-8");
            fill_page(&mut r, page_all(spec, text.as_bytes()), path, spec)?;
            // A baseline only when every page, and every line of them, was shown.
            if !(first_page == 1 && last_page >= count && r.complete) {
                r.complete = false;
                record = false;
            }
        }
    }

    // Did the file change while we read it?
    let after_fd = file
        .get_ref()
        .metadata()
        .map_err(|e| Error::io("inspect", path, e))?;
    let after_path = fs::metadata(path).map(|m| Identity::of(&m)).ok();
    if Identity::of(&after_fd) != before || after_path != Some(before) {
        return Ok(Attempt::Changed);
    }

    let baseline = if record {
        let sha = hex(&hasher.finalize());
        r.sha256 = Some(sha.clone());
        Some(Baseline::new(path, sha, &before, r.complete))
    } else {
        None
    };
    Ok(Attempt::Done(Box::new(Shown {
        report: r,
        baseline,
        detected,
    })))
}

/// `quill read -`: one page of standard input, streamed (the page is kept, the rest only
/// counted and hashed). Nothing to guard, so no baseline and no `fileAccess`; `sha256` and
/// `size` are of what was read. Text only: UTF-16 is decoded whole (capped like a file).
fn read_stdin(s: &Settings, req: &ReadRequest) -> Result<Report> {
    let path = Path::new(STDIN_NAME);
    let stdin = io::stdin();
    let mut input = stdin.lock();
    let spec = req.spec;
    let mut hasher = Sha256::new();
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
    r.sha256 = Some(hex(&hasher.finalize()));
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

/// Page UTF-8 text whose first `filled` bytes are already in `buf` (BOM skipped) and whose
/// rest streams from `input` through `buf`, hashing every byte; returns the page and how many
/// bytes followed the first ones.
fn stream_page(
    input: &mut impl Read,
    buf: &mut [u8],
    filled: usize,
    spec: PageSpec,
    encoding: Encoding,
    hasher: &mut Sha256,
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
    let bom = encoding.bom().len().min(whole.len());
    match encoding {
        Encoding::Utf16Le => encoding::decode_utf16(&whole[bom..], false),
        Encoding::Utf16Be => encoding::decode_utf16(&whole[bom..], true),
        Encoding::Legacy(codec) => legacy::decode(whole, codec),
        Encoding::Utf8 | Encoding::Utf8Bom => {
            let text = String::from_utf8_lossy(&whole[bom..]);
            let lossy = matches!(text, std::borrow::Cow::Owned(_));
            (text.into_owned(), lossy)
        }
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
    hasher: &mut Sha256,
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

/// Text of the selected pages with `pdftotext`; returns (text, first, last, page count).
fn pdf_text(path: &Path, pages: Option<(u32, u32)>, count: u32) -> Result<(String, u32, u32, u32)> {
    let (first, last) = match pages {
        None => (1, count.clamp(1, DEFAULT_PDF_PAGES)),
        Some(pages) => pages,
    };
    if count > 0 && first > count {
        return Err(Error::invalid_argument(format!(
            "--pages {first}-{last}: the PDF has {count} pages"
        )));
    }
    let last = last.min(count.max(1));
    let mut cmd = Command::new("pdftotext");
    cmd.args(["-q", "-enc", "UTF-8", "-layout", "-f"])
        .arg(first.to_string())
        .arg("-l")
        .arg(last.to_string())
        .arg(path)
        .arg("-");
    let out = run_converter(cmd, path)?;
    if !out.status.success() {
        let why = String::from_utf8_lossy(&out.stderr).trim().to_string();
        let why = if why.is_empty() {
            format!("pdftotext failed ({})", out.status)
        } else {
            why
        };
        return Err(Error::Io {
            path: path.to_path_buf(),
            op: "convert the PDF",
            source: io::Error::other(why),
        });
    }
    Ok((
        String::from_utf8_lossy(&out.stdout).into_owned(),
        first,
        last,
        count,
    ))
}

/// The page count, or None when pdfinfo says this is not a PDF it can read.
fn pdf_page_count(path: &Path) -> Result<Option<u32>> {
    let mut cmd = Command::new("pdfinfo");
    cmd.arg(path);
    let out = run_converter(cmd, path)?;
    if !out.status.success() {
        return Ok(None);
    }
    let text = String::from_utf8_lossy(&out.stdout);
    Ok(Some(
        text.lines()
            .find_map(|l| l.strip_prefix("Pages:"))
            .and_then(|v| v.trim().parse().ok())
            .unwrap_or(0),
    ))
}

/// How long a converter may take before it is killed (a hostile PDF must not hang quill).
const CONVERTER_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(60);

/// Run a converter with its output collected and a deadline.
fn run_converter(mut cmd: Command, path: &Path) -> Result<std::process::Output> {
    let mut child = cmd
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| converter_error(path, e))?;
    let drain = |pipe: Option<Box<dyn Read + Send>>| {
        std::thread::spawn(move || {
            let mut buf = Vec::new();
            if let Some(mut p) = pipe {
                let _ = p.read_to_end(&mut buf);
            }
            buf
        })
    };
    let stdout = drain(
        child
            .stdout
            .take()
            .map(|p| Box::new(p) as Box<dyn Read + Send>),
    );
    let stderr = drain(
        child
            .stderr
            .take()
            .map(|p| Box::new(p) as Box<dyn Read + Send>),
    );
    let start = std::time::Instant::now();
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break status,
            Ok(None) if start.elapsed() > CONVERTER_TIMEOUT => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(Error::Io {
                    path: path.to_path_buf(),
                    op: "convert the PDF",
                    source: io::Error::other(format!(
                        "the converter took more than {}s and was stopped",
                        CONVERTER_TIMEOUT.as_secs()
                    )),
                });
            }
            Ok(None) => std::thread::sleep(std::time::Duration::from_millis(5)),
            Err(e) => return Err(Error::io("wait for the converter of", path, e)),
        }
    };
    Ok(std::process::Output {
        status,
        stdout: stdout.join().unwrap_or_default(),
        stderr: stderr.join().unwrap_or_default(),
    })
}

fn converter_error(path: &Path, e: io::Error) -> Error {
    if e.kind() == io::ErrorKind::NotFound {
        Error::ConverterMissing {
            converter: "pdftotext",
            install: install_hint(),
            path: path.to_path_buf(),
        }
    } else {
        Error::io("run pdftotext on", path, e)
    }
}

fn install_hint() -> &'static str {
    if Path::new("/etc/debian_version").exists() {
        "apt-get install poppler-utils"
    } else if Path::new("/etc/fedora-release").exists() || Path::new("/etc/redhat-release").exists()
    {
        "dnf install poppler-utils"
    } else if Path::new("/etc/alpine-release").exists() {
        "apk add poppler-utils"
    } else if Path::new("/etc/arch-release").exists() {
        "pacman -S poppler"
    } else if cfg!(target_os = "macos") {
        "brew install poppler"
    } else {
        "install Poppler's utilities (poppler-utils)"
    }
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
