//! One pass over an open file, shown as its kind asks: text paged as it streams, text or a
//! notebook decoded whole, an image described (or inlined), a PDF converted to text; then
//! whether the file changed meanwhile, and the baseline to record.

use std::fs;
use std::io::{self, Read};
use std::path::Path;

use base64::Engine;

use super::pdf::pdf_text;
use super::{
    ReadRequest, Shown, Tee, decode_whole, fill_page, read_again, read_full, read_some, read_whole,
    stream_page,
};
use crate::error::{Error, Result};
use crate::fs::paths::{self, Resolved};
use crate::fs::probe::{CHUNK, Identity};
use crate::report::ReadReport;
use crate::settings::Settings;
use crate::state::Baseline;
use crate::text::encoding::{self, Encoding, legacy};
use crate::text::image;
use crate::text::notebook;
use crate::text::page::{PageSpec, page_all};
use crate::warnings::WarningKind;

/// Inline image data is capped at this size.
const MAX_INLINE_IMAGE: u64 = 5 * 1024 * 1024;
/// Bytes kept for image header parsing (a JPEG's SOF may follow a large EXIF block).
const IMAGE_HEADER_BYTES: usize = 1024 * 1024;
/// One pass over an open file: the bytes read so far and their hash, and the report that
/// the kind of file fills in.
pub(super) struct Pass<'a> {
    path: &'a Path,
    /// The file, read no further than the size seen at open: a file that grows without pause
    /// must not keep the read going; `changed` sees the growth.
    file: io::Take<&'a fs::File>,
    /// The file's identity at open.
    before: Identity,
    buf: Vec<u8>,
    /// The bytes of `buf` the first read filled (what the sniff saw).
    first: usize,
    hasher: Tee,
    report: ReadReport,
    /// The read records a baseline: it showed the file (not an image only described, nor a
    /// PDF shown in part).
    record: bool,
    /// The encoding was detected (not UTF-8, no BOM, no `--encoding`).
    detected: bool,
}

impl<'a> Pass<'a> {
    /// Read the first bytes of `file`, whose identity at open is `before`.
    pub(super) fn start(
        file: &'a fs::File,
        before: Identity,
        resolved: &'a Resolved,
        spec: PageSpec,
    ) -> Result<Pass<'a>> {
        let path = resolved.target.as_path();
        let mut file = file.take(before.size);
        let mut buf = vec![0u8; CHUNK];
        let first = read_full(&mut file, &mut buf, path)?;
        let mut report = ReadReport::blank(
            path.to_path_buf(),
            resolved.via_symlink.clone(),
            spec.offset,
        );
        report.size = before.size;
        Ok(Pass {
            path,
            file,
            before,
            buf,
            first,
            hasher: Tee::default(),
            report,
            record: true,
            detected: false,
        })
    }

    pub(super) fn first_bytes(&self) -> &[u8] {
        &self.buf[..self.first]
    }

    /// The file's size at open.
    pub(super) fn size(&self) -> u64 {
        self.before.size
    }

    /// The whole file in memory, hashed (capped, as `read_whole` says).
    fn whole(&mut self) -> Result<Vec<u8>> {
        let size = self.before.size;
        let first = &self.buf[..self.first];
        read_whole(&mut self.file, first, &mut self.hasher, self.path, size)
    }

    /// UTF-8 text, paged as it streams. Not UTF-8 after all: read again whole and shown in
    /// the legacy encoding it is in, if it is in one (the same decision edit makes on the
    /// same bytes).
    pub(super) fn streamed_text(
        &mut self,
        s: &Settings,
        req: &ReadRequest,
        encoding: Encoding,
    ) -> Result<()> {
        let (spec, path, size) = (req.spec, self.path, self.before.size);
        self.hasher.copy(size, s.keep_reads);
        let (page, _) = stream_page(
            &mut self.file,
            &mut self.buf,
            self.first,
            spec,
            encoding,
            &mut self.hasher,
            path,
        )?;
        let codec = if encoding == Encoding::Utf8
            && req.encoding.is_none()
            && !page.valid_utf8
            && size <= legacy::MAX_BYTES
        {
            let whole = read_again(self.file.get_ref(), size, path)?;
            legacy::detect(&whole).map(|codec| (codec, whole))
        } else {
            None
        };
        let r = &mut self.report;
        match codec {
            Some((codec, whole)) => {
                let (text, lossy) = legacy::decode(&whole, codec);
                r.encoding = Some(codec.name());
                fill_page(r, page_all(spec, text.as_bytes()), path, spec)?;
                r.lossy = lossy;
                self.detected = true;
            }
            None => {
                r.encoding = Some(encoding.as_str());
                r.bom = encoding.has_bom();
                fill_page(r, page, path, spec)?;
            }
        }
        Ok(())
    }

    /// Text decoded whole (UTF-16, a legacy encoding, the one `--encoding` names), or a
    /// notebook rendered as its cells — as plain text, with a warning, when it does not parse.
    pub(super) fn whole_text(
        &mut self,
        s: &Settings,
        req: &ReadRequest,
        encoding: Encoding,
        is_notebook: bool,
    ) -> Result<()> {
        self.hasher.copy(self.before.size, s.keep_reads);
        let whole = self.whole()?;
        let encoding = match req.encoding {
            Some(codec) if !is_notebook => {
                encoding::forced(codec, &whole).map_err(Error::invalid_argument)?
            }
            _ => encoding,
        };
        let (text, lossy) = decode_whole(&whole, encoding);
        let (spec, path, r) = (req.spec, self.path, &mut self.report);
        r.encoding = Some(encoding.as_str());
        r.bom = encoding.has_bom();
        if !is_notebook {
            fill_page(r, page_all(spec, text.as_bytes()), path, spec)?;
            r.lossy |= lossy;
            return Ok(());
        }
        match notebook::render(&whole) {
            Ok(rendered) => {
                r.kind = "notebook";
                fill_page(r, page_all(spec, rendered.as_bytes()), path, spec)
            }
            Err(why) => {
                s.warn(
                    WarningKind::NotebookAsText,
                    format!("{}: {why}; shown as plain text", path.display()),
                );
                fill_page(r, page_all(spec, text.as_bytes()), path, spec)
            }
        }
    }

    /// An image: its type and dimensions. With `--inline-image` its bytes too, so it is shown
    /// whole (a baseline, a hash and `fileAccess`, as for a text file); else it is described,
    /// not shown, and nothing is recorded (no hash, no `fileAccess`).
    pub(super) fn image(
        &mut self,
        s: &Settings,
        req: &ReadRequest,
        mime: &'static str,
    ) -> Result<()> {
        let size = self.before.size;
        let inline = req.inline_image && size <= MAX_INLINE_IMAGE;
        if req.inline_image && !inline {
            s.warn(WarningKind::ImageNotInlined, format!(
                "the image is {size} bytes, over the {MAX_INLINE_IMAGE}-byte limit for --inline-image; data not included"
            ));
        }
        let header = self.image_header(mime, inline)?;
        let r = &mut self.report;
        r.kind = "image";
        r.mime = Some(mime);
        r.encoding = None;
        if let Some((w, h)) = image::dimensions(mime, &header) {
            r.width = Some(w);
            r.height = Some(h);
        }
        let dims = match (r.width, r.height) {
            (Some(w), Some(h)) => format!("{w}x{h}"),
            _ => "unknown size".into(),
        };
        r.summary = Some(format!(
            "{}: {mime}, {dims}, {size} bytes{}",
            paths::display(&s.cwd, self.path),
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
            r.data = Some(base64::engine::general_purpose::STANDARD.encode(&header));
            r.complete = true;
        } else {
            self.record = false;
        }
        Ok(())
    }

    /// The bytes an image's dimensions are read from: the whole file when it is inlined,
    /// more of a JPEG (its SOF may follow a large EXIF block), else the first bytes.
    fn image_header(&mut self, mime: &str, inline: bool) -> Result<Vec<u8>> {
        if inline {
            return self.whole();
        }
        let n = self.first;
        let mut header = self.buf[..n].to_vec();
        if mime == "image/jpeg" {
            header.resize(IMAGE_HEADER_BYTES, 0);
            let more = read_full(&mut self.file, &mut header[n..], self.path)?;
            header.truncate(n + more);
        }
        Ok(header)
    }

    /// A PDF: hashed as it is now (the converter reads it by path), and the text of its
    /// pages shown; a baseline only when every page, and every line of them, was shown.
    pub(super) fn pdf(&mut self, req: &ReadRequest, page_count: u32) -> Result<()> {
        self.hasher.update(&self.buf[..self.first]);
        loop {
            let n = read_some(&mut self.file, &mut self.buf, self.path)?;
            if n == 0 {
                break;
            }
            self.hasher.update(&self.buf[..n]);
        }
        let (text, first_page, last_page, count) = pdf_text(self.path, req.pages, page_count)?;
        let r = &mut self.report;
        r.kind = "pdf";
        r.page_count = Some(count);
        r.pages = Some(format!("{first_page}-{last_page}"));
        r.encoding = Some("utf-8");
        fill_page(r, page_all(req.spec, text.as_bytes()), self.path, req.spec)?;
        if !(first_page == 1 && last_page >= count && r.complete) {
            r.complete = false;
            self.record = false;
        }
        Ok(())
    }

    /// The file changed while it was read: its descriptor, or what its path names now, is not
    /// the version opened.
    pub(super) fn changed(&self) -> Result<bool> {
        let after_fd = self
            .file
            .get_ref()
            .metadata()
            .map_err(|e| Error::io("inspect", self.path, e))?;
        let after_path = fs::metadata(self.path).map(|m| Identity::of(&m)).ok();
        Ok(Identity::of(&after_fd) != self.before || after_path != Some(self.before))
    }

    /// The report, and the baseline to record when the read showed the file.
    pub(super) fn finish(self) -> Shown {
        let mut report = self.report;
        let (sha, copy) = self.hasher.finish();
        let baseline = if self.record {
            report.sha256 = Some(sha.clone());
            Some(Baseline::new(self.path, sha, &self.before, report.complete))
        } else {
            None
        };
        Shown {
            report,
            copy: copy.filter(|_| baseline.is_some()),
            baseline,
            detected: self.detected,
        }
    }
}
