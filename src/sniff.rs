//! Content sniffing for `quill read`: decides from a file's first bytes whether it is text (and
//! in which encoding), an image, a PDF or binary data with a short type guess; reads image
//! dimensions from header bytes; converts UTF-16 to and from UTF-8; and renders Jupyter
//! notebooks as plain text. It owns only byte-level decisions: it never opens a file, never
//! prints and never panics on any input — the caller reads the bytes (the first `SNIFF_LEN`
//! for `sniff`, more for `image_dimensions`), and every header field is read with bounds
//! checks, because the bytes come from arbitrary files.

use serde_json::{Map, Value};

/// How many leading bytes `sniff` looks at; more are allowed and ignored.
pub const SNIFF_LEN: usize = 8192;

/// The text encodings `quill read` decodes. UTF-16 is recognised only with a BOM.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Encoding {
    Utf8,
    Utf8Bom,
    Utf16Le,
    Utf16Be,
}

impl Encoding {
    /// The JSON `encoding` name; the BOM is reported separately (`has_bom`).
    pub fn as_str(self) -> &'static str {
        match self {
            Encoding::Utf8 | Encoding::Utf8Bom => "utf-8",
            Encoding::Utf16Le => "utf-16le",
            Encoding::Utf16Be => "utf-16be",
        }
    }

    /// Whether the file starts with a byte order mark (the JSON `bom`).
    pub fn has_bom(self) -> bool {
        !self.bom().is_empty()
    }

    /// The BOM bytes this encoding starts with (empty for plain UTF-8): strip them before
    /// decoding, write them back before re-encoded content.
    pub fn bom(self) -> &'static [u8] {
        match self {
            Encoding::Utf8 => &[],
            Encoding::Utf8Bom => &[0xEF, 0xBB, 0xBF],
            Encoding::Utf16Le => &[0xFF, 0xFE],
            Encoding::Utf16Be => &[0xFE, 0xFF],
        }
    }
}

/// What the first bytes of a file say it is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Sniffed {
    /// No NUL in the first `SNIFF_LEN` bytes, or UTF-16 with a BOM. Not necessarily valid
    /// UTF-8: the caller decodes lossily.
    Text { encoding: Encoding },
    /// PNG, JPEG, GIF, WebP or BMP by magic bytes.
    Image { mime: &'static str },
    /// `%PDF-` magic.
    Pdf,
    /// A NUL byte in the first `SNIFF_LEN` bytes; `guess` is a short type name, or `"data"`.
    Binary { guess: &'static str },
}

/// Classifies a file from its first bytes (`prefix` = the first up to `SNIFF_LEN` bytes).
pub fn sniff(prefix: &[u8]) -> Sniffed {
    let prefix = prefix.get(..SNIFF_LEN).unwrap_or(prefix);
    if let Some(mime) = image_mime(prefix) {
        return Sniffed::Image { mime };
    }
    if prefix.starts_with(b"%PDF-") {
        return Sniffed::Pdf;
    }
    // A UTF-32 BOM starts like a UTF-16 LE one; UTF-32 is not decoded, so call it binary.
    if prefix.starts_with(&[0xFF, 0xFE, 0, 0]) || prefix.starts_with(&[0, 0, 0xFE, 0xFF]) {
        return Sniffed::Binary {
            guess: "UTF-32 text",
        };
    }
    if prefix.starts_with(&[0xFF, 0xFE]) {
        return Sniffed::Text {
            encoding: Encoding::Utf16Le,
        };
    }
    if prefix.starts_with(&[0xFE, 0xFF]) {
        return Sniffed::Text {
            encoding: Encoding::Utf16Be,
        };
    }
    if prefix.contains(&0) {
        return Sniffed::Binary {
            guess: binary_guess(prefix),
        };
    }
    // A UTF-8 BOM does not excuse a NUL (checked above): only UTF-16 needs them.
    let encoding = if prefix.starts_with(&[0xEF, 0xBB, 0xBF]) {
        Encoding::Utf8Bom
    } else {
        Encoding::Utf8
    };
    Sniffed::Text { encoding }
}

fn image_mime(b: &[u8]) -> Option<&'static str> {
    if b.starts_with(b"\x89PNG\r\n\x1a\n") {
        Some("image/png")
    } else if b.starts_with(&[0xFF, 0xD8, 0xFF]) {
        Some("image/jpeg")
    } else if b.starts_with(b"GIF87a") || b.starts_with(b"GIF89a") {
        Some("image/gif")
    } else if b.starts_with(b"RIFF") && b.get(8..12) == Some(b"WEBP") {
        Some("image/webp")
    } else if is_bmp(b) {
        Some("image/bmp")
    } else {
        None
    }
}

/// "BM" alone is too weak (a text file may start with it), so the DIB header size must be
/// one of the known header versions and the pixel data must start after the headers.
fn is_bmp(b: &[u8]) -> bool {
    const DIB_SIZES: [u32; 8] = [12, 16, 40, 52, 56, 64, 108, 124];
    if !b.starts_with(b"BM") {
        return false;
    }
    match (le_u32(b, 10), le_u32(b, 14)) {
        (Some(data_offset), Some(dib)) => {
            DIB_SIZES.contains(&dib) && u64::from(data_offset) >= 14 + u64::from(dib)
        }
        _ => false,
    }
}

fn binary_guess(b: &[u8]) -> &'static str {
    const MAGIC: [(&[u8], &str); 18] = [
        (b"\x7fELF", "ELF executable"),
        (b"\x1f\x8b", "gzip archive"),
        (b"PK\x03\x04", "zip archive"),
        (b"PK\x05\x06", "zip archive"),
        (b"PK\x07\x08", "zip archive"),
        (b"SQLite format 3\0", "SQLite database"),
        (b"\xfe\xed\xfa\xce", "Mach-O"),
        (b"\xfe\xed\xfa\xcf", "Mach-O"),
        (b"\xce\xfa\xed\xfe", "Mach-O"),
        (b"\xcf\xfa\xed\xfe", "Mach-O"),
        (b"MZ", "PE executable"),
        (b"\0asm", "WebAssembly"),
        (b"7z\xbc\xaf\x27\x1c", "7z"),
        (b"\xfd7zXZ\0", "xz"),
        (b"\x28\xb5\x2f\xfd", "zstd"),
        (b"BZh", "bzip2"),
        (b"OggS", "Ogg media"),
        (b"\x1aE\xdf\xa3", "Matroska/WebM media"),
    ];
    if let Some((_, guess)) = MAGIC.iter().find(|(magic, _)| b.starts_with(magic)) {
        return guess;
    }
    // CAFEBABE is both a Java class file and a universal Mach-O: a class file has its major
    // version (>= 45) where a fat binary has its (small) architecture count.
    if b.starts_with(b"\xca\xfe\xba\xbe") {
        return match be_u32(b, 4) {
            Some(n) if n < 45 => "Mach-O",
            _ => "class file",
        };
    }
    if b.get(4..8) == Some(b"ftyp") {
        return "ISO media (MP4/MOV/HEIF)";
    }
    if b.get(257..262) == Some(b"ustar") {
        return "tar archive";
    }
    "data"
}

/// Width and height from an image's header bytes, for the mimes `sniff` returns
/// (`image/png`, `image/jpeg`, `image/gif`, `image/webp`, `image/bmp`). JPEG needs the bytes
/// up to its SOF marker, which may lie beyond `SNIFF_LEN` after an EXIF thumbnail, so pass
/// as much as is at hand (the caller passes up to 1 MiB). `None` when the header is cut
/// short, malformed, or gives a zero size.
pub fn image_dimensions(mime: &str, bytes: &[u8]) -> Option<(u32, u32)> {
    let (w, h) = match mime {
        "image/png" => png_dimensions(bytes)?,
        "image/jpeg" => jpeg_dimensions(bytes)?,
        "image/gif" => gif_dimensions(bytes)?,
        "image/webp" => webp_dimensions(bytes)?,
        "image/bmp" => bmp_dimensions(bytes)?,
        _ => return None,
    };
    (w > 0 && h > 0).then_some((w, h))
}

fn png_dimensions(b: &[u8]) -> Option<(u32, u32)> {
    if !b.starts_with(b"\x89PNG\r\n\x1a\n") || b.get(12..16) != Some(b"IHDR") {
        return None;
    }
    Some((be_u32(b, 16)?, be_u32(b, 20)?))
}

fn gif_dimensions(b: &[u8]) -> Option<(u32, u32)> {
    if !(b.starts_with(b"GIF87a") || b.starts_with(b"GIF89a")) {
        return None;
    }
    let (w, h) = (le_u16(b, 6)?, le_u16(b, 8)?);
    if w > 0 && h > 0 {
        return Some((w.into(), h.into()));
    }
    // Some encoders leave the logical screen at 0x0; the first image descriptor has the size.
    let packed = *b.get(10)?;
    let mut i: usize = 13;
    if packed & 0x80 != 0 {
        i += 3 << ((packed & 7) + 1);
    }
    loop {
        match *b.get(i)? {
            0x2C => return Some((le_u16(b, i + 5)?.into(), le_u16(b, i + 7)?.into())),
            0x21 => {
                i += 2;
                loop {
                    let n = usize::from(*b.get(i)?);
                    i += 1 + n;
                    if n == 0 {
                        break;
                    }
                }
            }
            _ => return None,
        }
    }
}

fn webp_dimensions(b: &[u8]) -> Option<(u32, u32)> {
    if !b.starts_with(b"RIFF") || b.get(8..12) != Some(b"WEBP") {
        return None;
    }
    match b.get(12..16)? {
        b"VP8 " => {
            // 3-byte frame tag, start code, then 14-bit sizes with 2 scaling bits on top.
            if b.get(23..26) != Some(&[0x9D, 0x01, 0x2A]) {
                return None;
            }
            let w = le_u16(b, 26)? & 0x3FFF;
            let h = le_u16(b, 28)? & 0x3FFF;
            Some((w.into(), h.into()))
        }
        b"VP8L" => {
            if *b.get(20)? != 0x2F {
                return None;
            }
            let bits = le_u32(b, 21)?;
            Some(((bits & 0x3FFF) + 1, ((bits >> 14) & 0x3FFF) + 1))
        }
        b"VP8X" => Some((le_u24(b, 24)? + 1, le_u24(b, 27)? + 1)),
        _ => None,
    }
}

fn bmp_dimensions(b: &[u8]) -> Option<(u32, u32)> {
    if !is_bmp(b) {
        return None;
    }
    if le_u32(b, 14)? == 12 {
        // BITMAPCOREHEADER: unsigned 16-bit sizes.
        return Some((le_u16(b, 18)?.into(), le_u16(b, 20)?.into()));
    }
    // A negative height means a top-down bitmap; the size is its absolute value.
    Some((le_i32(b, 18)?.unsigned_abs(), le_i32(b, 22)?.unsigned_abs()))
}

/// Walks the marker segments to the first SOFn. Segments are skipped by their length (so an
/// EXIF thumbnail's own SOF inside APP1 is never seen); fill bytes (repeated 0xFF), stuffed
/// zero bytes and restart markers in entropy-coded data, and other standalone markers carry
/// no length and are stepped over.
fn jpeg_dimensions(b: &[u8]) -> Option<(u32, u32)> {
    if !b.starts_with(&[0xFF, 0xD8]) {
        return None;
    }
    let mut i: usize = 2;
    loop {
        while *b.get(i)? != 0xFF {
            i += 1;
        }
        while *b.get(i)? == 0xFF {
            i += 1;
        }
        let marker = *b.get(i)?;
        i += 1;
        match marker {
            0x00 | 0x01 | 0xD0..=0xD8 => continue,
            0xD9 => return None,
            _ => {}
        }
        let len = usize::from(be_u16(b, i)?);
        if len < 2 {
            return None;
        }
        // SOF0..SOF15, except DHT (C4), JPG (C8) and DAC (CC) which share the range.
        if matches!(marker, 0xC0..=0xCF) && !matches!(marker, 0xC4 | 0xC8 | 0xCC) {
            // length (2), sample precision (1), height (2), width (2)
            let h = be_u16(b, i + 3)?;
            let w = be_u16(b, i + 5)?;
            return Some((w.into(), h.into()));
        }
        i = i.checked_add(len)?;
    }
}

fn be_u16(b: &[u8], at: usize) -> Option<u16> {
    Some(u16::from_be_bytes(
        b.get(at..at.checked_add(2)?)?.try_into().ok()?,
    ))
}

fn le_u16(b: &[u8], at: usize) -> Option<u16> {
    Some(u16::from_le_bytes(
        b.get(at..at.checked_add(2)?)?.try_into().ok()?,
    ))
}

fn le_u24(b: &[u8], at: usize) -> Option<u32> {
    let s = b.get(at..at.checked_add(3)?)?;
    Some(u32::from_le_bytes([*s.first()?, *s.get(1)?, *s.get(2)?, 0]))
}

fn be_u32(b: &[u8], at: usize) -> Option<u32> {
    Some(u32::from_be_bytes(
        b.get(at..at.checked_add(4)?)?.try_into().ok()?,
    ))
}

fn le_u32(b: &[u8], at: usize) -> Option<u32> {
    Some(u32::from_le_bytes(
        b.get(at..at.checked_add(4)?)?.try_into().ok()?,
    ))
}

fn le_i32(b: &[u8], at: usize) -> Option<i32> {
    Some(i32::from_le_bytes(
        b.get(at..at.checked_add(4)?)?.try_into().ok()?,
    ))
}

/// Decodes UTF-16 (BOM already stripped). An odd trailing byte or an unpaired surrogate
/// becomes U+FFFD and sets the second value (`lossy`).
pub fn decode_utf16(bytes_without_bom: &[u8], big_endian: bool) -> (String, bool) {
    let chunks = bytes_without_bom.chunks_exact(2);
    let odd_tail = !chunks.remainder().is_empty();
    let units = chunks.map(|pair| {
        let pair = [
            pair.first().copied().unwrap_or(0),
            pair.get(1).copied().unwrap_or(0),
        ];
        if big_endian {
            u16::from_be_bytes(pair)
        } else {
            u16::from_le_bytes(pair)
        }
    });
    let mut text = String::with_capacity(bytes_without_bom.len());
    let mut lossy = odd_tail;
    for unit in char::decode_utf16(units) {
        text.push(unit.unwrap_or_else(|_| {
            lossy = true;
            char::REPLACEMENT_CHARACTER
        }));
    }
    if odd_tail {
        text.push(char::REPLACEMENT_CHARACTER);
    }
    (text, lossy)
}

/// Encodes text as UTF-16 without a BOM (write `Encoding::bom()` first).
pub fn encode_utf16(text: &str, big_endian: bool) -> Vec<u8> {
    let mut out = Vec::with_capacity(text.len() * 2);
    for unit in text.encode_utf16() {
        let bytes = if big_endian {
            unit.to_be_bytes()
        } else {
            unit.to_le_bytes()
        };
        out.extend_from_slice(&bytes);
    }
    out
}

/// Renders a Jupyter notebook (nbformat 4, and 3's `worksheets`) as plain text: each cell as a
/// header line (`# %% [code] cell 2 (execution_count 5)`), its source, then its outputs, each
/// introduced by `# -> output (…)`: stream text, `text/plain` of results and display data, and
/// errors as `ename: evalue` plus the traceback. ANSI escapes are stripped from outputs and
/// carriage-return progress lines are collapsed; other representations (images, HTML …) are
/// named in one `# -> output: image/png (not shown)` line. Cells are separated by a blank
/// line. Fields of an unexpected shape are skipped rather than refused, so any notebook
/// Jupyter can open renders. `Err` when the bytes are not JSON or not a notebook.
pub fn render_notebook(json: &[u8]) -> Result<String, String> {
    let json = json.strip_prefix(&[0xEF, 0xBB, 0xBF]).unwrap_or(json);
    let root: Value =
        serde_json::from_slice(json).map_err(|e| format!("invalid notebook JSON: {e}"))?;
    let Value::Object(top) = &root else {
        return Err("not a Jupyter notebook: the top level is not a JSON object".to_string());
    };
    let cells: Vec<&Value> = match (top.get("cells"), top.get("worksheets")) {
        (Some(Value::Array(cells)), _) => cells.iter().collect(),
        (None, Some(Value::Array(sheets))) => sheets
            .iter()
            .filter_map(|sheet| sheet.get("cells").and_then(Value::as_array))
            .flatten()
            .collect(),
        _ => return Err("not a Jupyter notebook: no \"cells\" array".to_string()),
    };
    let mut out = String::new();
    for (n, cell) in cells.iter().enumerate() {
        if n > 0 {
            out.push('\n');
        }
        render_cell(&mut out, n + 1, cell);
    }
    Ok(out)
}

fn render_cell(out: &mut String, number: usize, cell: &Value) {
    let empty = Map::new();
    let cell = cell.as_object().unwrap_or(&empty);
    let cell_type = cell
        .get("cell_type")
        .and_then(Value::as_str)
        .unwrap_or("unknown");
    // nbformat 3 keeps headings in their own cell type; render them as markdown.
    let (cell_type, heading) = match cell_type {
        "heading" => {
            let level = cell.get("level").and_then(Value::as_u64).unwrap_or(1);
            ("markdown", Some(level.clamp(1, 6)))
        }
        other => (other, None),
    };
    out.push_str(&format!("# %% [{}] cell {number}", label(cell_type)));
    let count = cell
        .get("execution_count")
        .or_else(|| cell.get("prompt_number"));
    if let Some(Value::Number(count)) = count {
        out.push_str(&format!(" (execution_count {count})"));
    }
    out.push('\n');

    let source = cell
        .get("source")
        .or_else(|| cell.get("input"))
        .and_then(multiline)
        .unwrap_or_default();
    if !source.is_empty() {
        if let Some(level) = heading {
            for _ in 0..level {
                out.push('#');
            }
            out.push(' ');
        }
        push_block(out, &source);
    }
    for output in cell
        .get("outputs")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        render_output(out, output);
    }
}

fn render_output(out: &mut String, output: &Value) {
    let empty = Map::new();
    let output = output.as_object().unwrap_or(&empty);
    let kind = output
        .get("output_type")
        .and_then(Value::as_str)
        .unwrap_or("unknown");
    match kind {
        "stream" => {
            let name = output
                .get("name")
                .or_else(|| output.get("stream"))
                .and_then(Value::as_str)
                .unwrap_or("stdout");
            out.push_str(&format!("# -> output (stream {})\n", label(name)));
            let text = output.get("text").and_then(multiline).unwrap_or_default();
            push_block(out, &collapse_carriage_returns(&strip_ansi(&text)));
        }
        "execute_result" | "display_data" | "pyout" | "update_display_data" => {
            let kind = if kind == "pyout" {
                "execute_result"
            } else {
                kind
            };
            let (text, others) = mime_bundle(output);
            if let Some(text) = &text {
                out.push_str(&format!("# -> output ({kind})\n"));
                push_block(out, &strip_ansi(text));
            }
            if !others.is_empty() {
                out.push_str(&format!("# -> output: {} (not shown)\n", others.join(", ")));
            } else if text.is_none() {
                out.push_str(&format!("# -> output ({kind})\n"));
            }
        }
        "error" | "pyerr" => {
            out.push_str("# -> output (error)\n");
            let field = |key| output.get(key).and_then(Value::as_str).unwrap_or("");
            let (ename, evalue) = (field("ename"), field("evalue"));
            if !ename.is_empty() || !evalue.is_empty() {
                push_block(out, &strip_ansi(&format!("{ename}: {evalue}")));
            }
            let traceback = output
                .get("traceback")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .filter_map(Value::as_str);
            for entry in traceback {
                push_block(out, &strip_ansi(entry));
            }
        }
        other => out.push_str(&format!("# -> output ({})\n", label(other))),
    }
}

/// The `text/plain` representation and the names of the others. nbformat 4 nests them under
/// `data` by mime type; nbformat 3 puts short names (`text`, `png` …) on the output itself.
fn mime_bundle(output: &Map<String, Value>) -> (Option<String>, Vec<String>) {
    const V3_MIMES: [(&str, &str); 8] = [
        ("text", "text/plain"),
        ("png", "image/png"),
        ("jpeg", "image/jpeg"),
        ("svg", "image/svg+xml"),
        ("html", "text/html"),
        ("latex", "text/latex"),
        ("json", "application/json"),
        ("javascript", "application/javascript"),
    ];
    let entries: Vec<(String, &Value)> = match output.get("data") {
        Some(Value::Object(data)) => data.iter().map(|(k, v)| (label(k), v)).collect(),
        _ => V3_MIMES
            .iter()
            .filter_map(|(short, mime)| Some((mime.to_string(), output.get(*short)?)))
            .collect(),
    };
    let mut text = None;
    let mut others = Vec::new();
    for (mime, value) in entries {
        match (mime.as_str(), multiline(value)) {
            ("text/plain", Some(plain)) => text = Some(plain),
            _ => others.push(mime),
        }
    }
    (text, others)
}

/// A notebook string field: a string, or an array of strings to concatenate (each element
/// carries its own newline). Non-string elements are skipped.
fn multiline(value: &Value) -> Option<String> {
    match value {
        Value::String(s) => Some(s.clone()),
        Value::Array(parts) => Some(parts.iter().filter_map(Value::as_str).collect()),
        _ => None,
    }
}

/// Appends `text` ending with exactly the newline it had, or one if it had none.
fn push_block(out: &mut String, text: &str) {
    out.push_str(text);
    if !text.is_empty() && !text.ends_with('\n') {
        out.push('\n');
    }
}

/// A name from the notebook that goes into a header line: no control characters.
fn label(s: &str) -> String {
    strip_ansi(s).chars().filter(|c| !c.is_control()).collect()
}

/// Removes ANSI/VT escape sequences (CSI such as colors, OSC such as hyperlinks and titles,
/// and the short two- and three-character escapes) that IPython puts in tracebacks.
fn strip_ansi(s: &str) -> String {
    if !s.contains(['\x1b', '\u{9b}']) {
        return s.to_string();
    }
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\x1b' => match chars.peek().copied() {
                Some('[') => {
                    chars.next();
                    skip_csi(&mut chars);
                }
                Some(']' | 'P' | 'X' | '^' | '_') => {
                    chars.next();
                    // A control string runs to BEL or ST (ESC \).
                    while let Some(c) = chars.next() {
                        if c == '\x07' || (c == '\x1b' && chars.next_if_eq(&'\\').is_some()) {
                            break;
                        }
                    }
                }
                Some(' '..='/') => {
                    while chars.next_if(|c| (' '..='/').contains(c)).is_some() {}
                    chars.next_if(|c| ('0'..='~').contains(c));
                }
                Some('0'..='~') => {
                    chars.next();
                }
                _ => {}
            },
            '\u{9b}' => skip_csi(&mut chars),
            c => out.push(c),
        }
    }
    out
}

fn skip_csi(chars: &mut std::iter::Peekable<std::str::Chars<'_>>) {
    while chars.next_if(|c| (' '..='?').contains(c)).is_some() {}
    chars.next_if(|c| ('@'..='~').contains(c));
}

/// Applies carriage returns the way a terminal shows them: text after a `\r` overwrites the
/// line from its start, so a progress bar shows its last state instead of every update.
fn collapse_carriage_returns(s: &str) -> String {
    if !s.contains('\r') {
        return s.to_string();
    }
    let s = s.replace("\r\n", "\n");
    let mut out = String::with_capacity(s.len());
    for (n, line) in s.split('\n').enumerate() {
        if n > 0 {
            out.push('\n');
        }
        let mut shown: Vec<char> = Vec::new();
        for part in line.split('\r') {
            let part: Vec<char> = part.chars().collect();
            if part.len() >= shown.len() {
                shown = part;
            } else {
                shown.splice(..part.len(), part);
            }
        }
        out.extend(shown);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn png(width: u32, height: u32) -> Vec<u8> {
        let mut ihdr = b"IHDR".to_vec();
        ihdr.extend(width.to_be_bytes());
        ihdr.extend(height.to_be_bytes());
        ihdr.extend([8, 6, 0, 0, 0]); // 8-bit RGBA, deflate, no filter, no interlace
        let mut b = b"\x89PNG\r\n\x1a\n".to_vec();
        b.extend(13u32.to_be_bytes());
        b.extend(&ihdr);
        b.extend(crc32(&ihdr).to_be_bytes());
        b
    }

    fn crc32(bytes: &[u8]) -> u32 {
        let mut crc = !0u32;
        for &byte in bytes {
            crc ^= u32::from(byte);
            for _ in 0..8 {
                crc = if crc & 1 != 0 {
                    (crc >> 1) ^ 0xEDB8_8320
                } else {
                    crc >> 1
                };
            }
        }
        !crc
    }

    /// A complete 3x2 GIF89a: global color table of 2, graphic control extension, one image.
    fn gif(screen: (u16, u16), image: (u16, u16)) -> Vec<u8> {
        let mut b = b"GIF89a".to_vec();
        b.extend(screen.0.to_le_bytes());
        b.extend(screen.1.to_le_bytes());
        b.extend([0x80, 0, 0]); // global color table of 2 entries
        b.extend([0, 0, 0, 255, 255, 255]);
        b.extend([0x21, 0xF9, 4, 0, 0, 0, 0, 0]); // graphic control extension
        b.push(0x2C);
        b.extend([0, 0, 0, 0]);
        b.extend(image.0.to_le_bytes());
        b.extend(image.1.to_le_bytes());
        b.extend([0, 2, 2, 0x4C, 0x01, 0, 0x3B]);
        b
    }

    fn segment(marker: u8, payload: &[u8]) -> Vec<u8> {
        let mut b = vec![0xFF, marker];
        b.extend(u16::try_from(payload.len() + 2).unwrap_or(0).to_be_bytes());
        b.extend(payload);
        b
    }

    fn sof_payload(width: u16, height: u16) -> Vec<u8> {
        let mut p = vec![8];
        p.extend(height.to_be_bytes());
        p.extend(width.to_be_bytes());
        p.extend([3, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1]);
        p
    }

    /// SOI, APP0 (JFIF), APP1 (EXIF with an embedded 160x120 thumbnail that has its own SOF0),
    /// DQT, DHT, fill bytes, then the real SOFn.
    fn jpeg(sof: u8, width: u16, height: u16, exif_padding: usize) -> Vec<u8> {
        let mut b = vec![0xFF, 0xD8];
        b.extend(segment(0xE0, b"JFIF\0\x01\x01\0\0\x01\0\x01\0\0"));
        let mut exif = b"Exif\0\0MM\0\x2a\0\0\0\x08".to_vec();
        exif.extend([0xFF, 0xD8]);
        exif.extend(segment(0xC0, &sof_payload(160, 120)));
        exif.extend([0xFF, 0xD9]);
        exif.resize(exif.len() + exif_padding, 0);
        b.extend(segment(0xE1, &exif));
        b.extend(segment(0xDB, &[0; 65]));
        b.extend(segment(0xC4, &[0; 29]));
        b.extend([0xFF, 0xFF, 0xFF]); // fill bytes before the marker
        b.extend(segment(sof, &sof_payload(width, height)));
        b.extend(segment(0xDA, &[1, 1, 0, 0, 0x3F, 0]));
        b.extend([0x12, 0xFF, 0x00, 0x34, 0xFF, 0xD9]);
        b
    }

    fn webp(chunk: &[u8; 4], data: &[u8]) -> Vec<u8> {
        let mut b = b"RIFF".to_vec();
        b.extend(u32::try_from(4 + 8 + data.len()).unwrap_or(0).to_le_bytes());
        b.extend(b"WEBP");
        b.extend(chunk);
        b.extend(u32::try_from(data.len()).unwrap_or(0).to_le_bytes());
        b.extend(data);
        b
    }

    fn webp_vp8(width: u16, height: u16) -> Vec<u8> {
        let mut data = vec![0x30, 0x01, 0x00, 0x9D, 0x01, 0x2A];
        data.extend((width | 0x4000).to_le_bytes()); // scaling bits must be masked off
        data.extend((height | 0x8000).to_le_bytes());
        data.extend([0; 8]);
        webp(b"VP8 ", &data)
    }

    fn webp_vp8l(width: u32, height: u32) -> Vec<u8> {
        let bits = (width - 1) | ((height - 1) << 14) | (1 << 28);
        let mut data = vec![0x2F];
        data.extend(bits.to_le_bytes());
        data.extend([0; 5]);
        webp(b"VP8L", &data)
    }

    fn webp_vp8x(width: u32, height: u32) -> Vec<u8> {
        let mut data = vec![0x10, 0, 0, 0];
        data.extend(&(width - 1).to_le_bytes()[..3]);
        data.extend(&(height - 1).to_le_bytes()[..3]);
        webp(b"VP8X", &data)
    }

    fn bmp(width: i32, height: i32) -> Vec<u8> {
        let row = (usize::try_from(width.unsigned_abs()).unwrap_or(0) * 3).div_ceil(4) * 4;
        let pixels = row * usize::try_from(height.unsigned_abs()).unwrap_or(0);
        let mut b = b"BM".to_vec();
        b.extend(u32::try_from(54 + pixels).unwrap_or(0).to_le_bytes());
        b.extend([0; 4]);
        b.extend(54u32.to_le_bytes());
        b.extend(40u32.to_le_bytes());
        b.extend(width.to_le_bytes());
        b.extend(height.to_le_bytes());
        b.extend(1u16.to_le_bytes());
        b.extend(24u16.to_le_bytes());
        b.extend([0; 24]); // compression, image size, resolution, palette counts
        b.resize(54 + pixels, 0x7F);
        b
    }

    fn image(b: &[u8]) -> Option<(&'static str, (u32, u32))> {
        match sniff(b) {
            Sniffed::Image { mime } => Some((mime, image_dimensions(mime, b)?)),
            _ => None,
        }
    }

    #[test]
    fn png_header() {
        assert_eq!(image(&png(640, 480)), Some(("image/png", (640, 480))));
        assert_eq!(image_dimensions("image/png", &png(0, 5)), None);
        assert_eq!(image_dimensions("image/png", &png(640, 480)[..22]), None);
    }

    #[test]
    fn gif_header() {
        assert_eq!(image(&gif((3, 2), (3, 2))), Some(("image/gif", (3, 2))));
        // A zero logical screen falls back to the first image descriptor.
        assert_eq!(image(&gif((0, 0), (7, 5))), Some(("image/gif", (7, 5))));
        let mut gif87 = gif((300, 200), (1, 1));
        gif87[4] = b'7';
        assert_eq!(image(&gif87), Some(("image/gif", (300, 200))));
    }

    #[test]
    fn jpeg_skips_exif_thumbnail_fill_bytes_and_dht() {
        assert_eq!(
            image(&jpeg(0xC0, 640, 480, 0)),
            Some(("image/jpeg", (640, 480)))
        );
        assert_eq!(
            image_dimensions("image/jpeg", &jpeg(0xC2, 4032, 3024, 0)),
            Some((4032, 3024))
        );
        // The SOF lies far beyond SNIFF_LEN; sniff sees only the start.
        let big = jpeg(0xC0, 1920, 1080, 40_000);
        assert_eq!(
            sniff(&big[..SNIFF_LEN]),
            Sniffed::Image { mime: "image/jpeg" }
        );
        assert_eq!(image_dimensions("image/jpeg", &big), Some((1920, 1080)));
        assert_eq!(image_dimensions("image/jpeg", &big[..SNIFF_LEN]), None);
    }

    #[test]
    fn jpeg_standalone_markers_and_truncation() {
        let mut b = vec![0xFF, 0xD8, 0xFF, 0x01, 0xFF, 0xD0];
        b.extend(segment(0xC1, &sof_payload(17, 9)));
        assert_eq!(image_dimensions("image/jpeg", &b), Some((17, 9)));
        // Markers that share the SOF range but are not frames.
        for marker in [0xC4, 0xC8, 0xCC] {
            let mut b = vec![0xFF, 0xD8];
            b.extend(segment(marker, &sof_payload(99, 99)));
            b.extend(segment(0xC0, &sof_payload(3, 4)));
            assert_eq!(image_dimensions("image/jpeg", &b), Some((3, 4)));
        }
        let full = jpeg(0xC0, 640, 480, 0);
        for cut in 0..full.len() - 20 {
            let got = image_dimensions("image/jpeg", &full[..cut]);
            assert!(got.is_none() || got == Some((640, 480)));
        }
        assert_eq!(
            image_dimensions("image/jpeg", &[0xFF, 0xD8, 0xFF, 0xD9]),
            None
        );
        assert_eq!(
            image_dimensions("image/jpeg", &[0xFF, 0xD8, 0xFF, 0xE0, 0, 1]),
            None
        );
    }

    #[test]
    fn webp_variants() {
        assert_eq!(image(&webp_vp8(400, 301)), Some(("image/webp", (400, 301))));
        assert_eq!(
            image(&webp_vp8l(16384, 1)),
            Some(("image/webp", (16384, 1)))
        );
        assert_eq!(
            image(&webp_vp8l(550, 368)),
            Some(("image/webp", (550, 368)))
        );
        assert_eq!(
            image(&webp_vp8x(16_777_216, 70_000)),
            Some(("image/webp", (16_777_216, 70_000)))
        );
        assert_eq!(
            image_dimensions("image/webp", &webp(b"ALPH", &[0; 10])),
            None
        );
    }

    #[test]
    fn bmp_header() {
        assert_eq!(image(&bmp(4, -3)), Some(("image/bmp", (4, 3))));
        assert_eq!(image(&bmp(5, 2)), Some(("image/bmp", (5, 2))));
        // BITMAPCOREHEADER
        let mut core = b"BM\x26\0\0\0\0\0\0\0\x1a\0\0\0\x0c\0\0\0".to_vec();
        core.extend([2, 1, 3, 0, 1, 0, 24, 0]);
        core.resize(0x26, 0);
        assert_eq!(image(&core), Some(("image/bmp", (258, 3))));
        // Text that happens to start with "BM" is not an image.
        assert_eq!(
            sniff(b"BMW and Mercedes are car makers.\n"),
            Sniffed::Text {
                encoding: Encoding::Utf8
            }
        );
    }

    #[test]
    fn dimensions_need_matching_magic() {
        assert_eq!(image_dimensions("image/png", &gif((3, 2), (3, 2))), None);
        assert_eq!(image_dimensions("image/gif", &png(1, 1)), None);
        assert_eq!(image_dimensions("image/tiff", &png(1, 1)), None);
        assert_eq!(image_dimensions("image/bmp", b"BM"), None);
    }

    #[test]
    fn pdf_and_binary_guesses() {
        assert_eq!(sniff(b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n"), Sniffed::Pdf);
        let guess = |b: &[u8]| match sniff(b) {
            Sniffed::Binary { guess } => guess,
            other => panic!("{other:?} is not binary"),
        };
        assert_eq!(
            guess(b"\x7fELF\x02\x01\x01\0\0\0\0\0\0\0\0\0\x03\0>\0"),
            "ELF executable"
        );
        assert_eq!(
            guess(b"\x1f\x8b\x08\0\0\0\0\0\0\x03\xcbH\xcd\xc9\xc9\xe7\x02\0"),
            "gzip archive"
        );
        assert_eq!(
            guess(b"PK\x03\x04\x14\0\0\0\x08\0\xa1\x5b\x2d\x58"),
            "zip archive"
        );
        assert_eq!(guess(b"SQLite format 3\0\x10\0\x01\x01"), "SQLite database");
        assert_eq!(guess(b"\xcf\xfa\xed\xfe\x0c\0\0\x01"), "Mach-O");
        assert_eq!(guess(b"\xca\xfe\xba\xbe\0\0\0\x02\x01\0"), "Mach-O");
        assert_eq!(guess(b"\xca\xfe\xba\xbe\0\0\0\x41\0"), "class file");
        assert_eq!(guess(b"MZ\x90\0\x03\0\0\0"), "PE executable");
        assert_eq!(guess(b"\0asm\x01\0\0\0"), "WebAssembly");
        assert_eq!(guess(b"7z\xbc\xaf\x27\x1c\0\x04"), "7z");
        assert_eq!(guess(b"\xfd7zXZ\0\0\x04"), "xz");
        assert_eq!(guess(b"\x28\xb5\x2f\xfd\x24\0"), "zstd");
        assert_eq!(guess(b"BZh91AY&SY\0"), "bzip2");
        let mut tar = b"hello.txt".to_vec();
        tar.resize(257, 0);
        tar.extend(b"ustar\x0000");
        tar.resize(512, 0);
        assert_eq!(guess(&tar), "tar archive");
        assert_eq!(guess(b"hello\0world"), "data");
        assert_eq!(guess(b"\xff\xfe\0\0h\0\0\0"), "UTF-32 text");
    }

    #[test]
    fn nul_only_counts_in_the_first_8_kib() {
        let mut b = vec![b'a'; SNIFF_LEN];
        b.push(0);
        let text = Sniffed::Text {
            encoding: Encoding::Utf8,
        };
        assert_eq!(sniff(&b), text);
        b[SNIFF_LEN - 1] = 0;
        assert_eq!(sniff(&b), Sniffed::Binary { guess: "data" });
        assert_eq!(sniff(b""), text);
        // Not valid UTF-8 but no NUL: still text (shown lossily by the caller).
        assert_eq!(sniff(b"caf\xe9 cr\xe8me\r\n"), text);
    }

    #[test]
    fn boms() {
        let text = |encoding| Sniffed::Text { encoding };
        assert_eq!(sniff(b"\xef\xbb\xbfhello"), text(Encoding::Utf8Bom));
        assert_eq!(
            sniff(b"\xef\xbb\xbfhe\0llo"),
            Sniffed::Binary { guess: "data" }
        );
        assert_eq!(sniff(b"\xff\xfeh\0i\0"), text(Encoding::Utf16Le));
        assert_eq!(sniff(b"\xfe\xff\0h\0i"), text(Encoding::Utf16Be));
        assert_eq!(sniff(b"\xff\xfe"), text(Encoding::Utf16Le));
        assert_eq!(Encoding::Utf8Bom.as_str(), "utf-8");
        assert_eq!(Encoding::Utf16Le.as_str(), "utf-16le");
        assert_eq!(Encoding::Utf16Be.as_str(), "utf-16be");
        assert!(!Encoding::Utf8.has_bom());
        assert!(Encoding::Utf8Bom.has_bom());
        assert_eq!(Encoding::Utf16Be.bom(), b"\xfe\xff");
    }

    #[test]
    fn utf16_round_trip() {
        let text = "héllo, wörld\r\n😀 日本語\n";
        for big_endian in [false, true] {
            let bytes = encode_utf16(text, big_endian);
            assert_eq!(bytes.len(), text.encode_utf16().count() * 2);
            assert_eq!(decode_utf16(&bytes, big_endian), (text.to_string(), false));
        }
        assert_eq!(encode_utf16("hi", false), b"h\0i\0");
        assert_eq!(encode_utf16("hi", true), b"\0h\0i");
        let mut file = Encoding::Utf16Le.bom().to_vec();
        file.extend(encode_utf16(text, false));
        assert_eq!(
            sniff(&file),
            Sniffed::Text {
                encoding: Encoding::Utf16Le
            }
        );
    }

    #[test]
    fn utf16_lossy() {
        assert_eq!(decode_utf16(b"h\0i\0!", false), ("hi\u{fffd}".into(), true));
        // An unpaired high surrogate, then a lone low surrogate.
        assert_eq!(
            decode_utf16(b"\xd8\x3d\0a\xde\0", true),
            ("\u{fffd}a\u{fffd}".into(), true)
        );
        assert_eq!(decode_utf16(b"", true), (String::new(), false));
    }

    const NOTEBOOK: &str = r##"{
      "nbformat": 4, "nbformat_minor": 5, "metadata": {},
      "cells": [
        {"cell_type": "markdown", "id": "a", "metadata": {},
         "source": ["# Title\n", "Some *text*."]},
        {"cell_type": "code", "id": "b", "metadata": {}, "execution_count": 5,
         "source": "import sys\nprint('hi')\n1 + 1",
         "outputs": [
           {"output_type": "stream", "name": "stdout", "text": ["hi\n", "there\n"]},
           {"output_type": "stream", "name": "stderr", "text": "  0%\r 50%\r100%\ndone"},
           {"output_type": "execute_result", "execution_count": 5, "metadata": {},
            "data": {"text/plain": ["2"], "text/html": "<b>2</b>"}}
         ]},
        {"cell_type": "code", "id": "c", "metadata": {}, "execution_count": null,
         "source": ["1/0"],
         "outputs": [
           {"output_type": "error", "ename": "ZeroDivisionError", "evalue": "division by zero",
            "traceback": ["\u001b[0;31m---------\u001b[0m", "\u001b[0;31mZeroDivisionError\u001b[0m: division by zero"]}
         ]},
        {"cell_type": "code", "id": "d", "metadata": {}, "execution_count": 7, "source": [],
         "outputs": [
           {"output_type": "display_data", "metadata": {},
            "data": {"image/png": "iVBORw0KGgo=", "text/plain": "<Figure size 640x480 with 1 Axes>"}},
           {"output_type": "display_data", "metadata": {}, "data": {"image/png": "iVBORw0KGgo="}}
         ]},
        {"cell_type": "raw", "id": "e", "metadata": {}, "source": "raw text"}
      ]
    }"##;

    #[test]
    fn notebook_renders_cells_and_outputs() {
        let expected = "\
# %% [markdown] cell 1
# Title
Some *text*.

# %% [code] cell 2 (execution_count 5)
import sys
print('hi')
1 + 1
# -> output (stream stdout)
hi
there
# -> output (stream stderr)
100%
done
# -> output (execute_result)
2
# -> output: text/html (not shown)

# %% [code] cell 3
1/0
# -> output (error)
ZeroDivisionError: division by zero
---------
ZeroDivisionError: division by zero

# %% [code] cell 4 (execution_count 7)
# -> output (display_data)
<Figure size 640x480 with 1 Axes>
# -> output: image/png (not shown)
# -> output: image/png (not shown)

# %% [raw] cell 5
raw text
";
        assert_eq!(
            render_notebook(NOTEBOOK.as_bytes()),
            Ok(expected.to_string())
        );
    }

    #[test]
    fn notebook_source_string_or_array() {
        let as_string = r#"{"nbformat": 4, "cells": [{"cell_type": "code", "source": "a = 1\nb = 2\n", "outputs": []}]}"#;
        let as_array = r#"{"nbformat": 4, "cells": [{"cell_type": "code", "source": ["a = 1\n", "b = 2\n"], "outputs": []}]}"#;
        let expected = "# %% [code] cell 1\na = 1\nb = 2\n";
        assert_eq!(render_notebook(as_string.as_bytes()), Ok(expected.into()));
        assert_eq!(render_notebook(as_array.as_bytes()), Ok(expected.into()));
    }

    #[test]
    fn notebook_format_3() {
        let v3 = r#"{"nbformat": 3, "worksheets": [{"cells": [
            {"cell_type": "heading", "level": 2, "source": ["Intro"]},
            {"cell_type": "code", "prompt_number": 3, "input": ["x\n"], "outputs": [
                {"output_type": "pyout", "text": ["42"], "png": "AAAA"},
                {"output_type": "stream", "stream": "stdout", "text": "ok\n"},
                {"output_type": "pyerr", "ename": "E", "evalue": "v", "traceback": []}
            ]}
        ]}]}"#;
        let expected = "\
# %% [markdown] cell 1
## Intro

# %% [code] cell 2 (execution_count 3)
x
# -> output (execute_result)
42
# -> output: image/png (not shown)
# -> output (stream stdout)
ok
# -> output (error)
E: v
";
        assert_eq!(render_notebook(v3.as_bytes()), Ok(expected.into()));
    }

    #[test]
    fn notebook_errors_and_odd_shapes() {
        assert!(
            render_notebook(b"{\"cells\": [")
                .is_err_and(|e| e.starts_with("invalid notebook JSON"))
        );
        assert!(render_notebook(b"\xff\xfe").is_err());
        assert!(render_notebook(b"[1, 2]").is_err_and(|e| e.contains("not a Jupyter notebook")));
        assert!(render_notebook(b"{\"nbformat\": 4}").is_err());
        assert!(render_notebook(b"{\"cells\": 3}").is_err());
        assert_eq!(
            render_notebook(b"\xef\xbb\xbf{\"cells\": []}"),
            Ok(String::new())
        );
        let odd = r#"{"cells": [7, {"cell_type": "code\n[x]", "source": 3,
            "outputs": [null, {"output_type": "mystery"}, {"output_type": "stream", "text": [1, "a"]}]}]}"#;
        let expected = "\
# %% [unknown] cell 1

# %% [code[x]] cell 2
# -> output (unknown)
# -> output (mystery)
# -> output (stream stdout)
a
";
        assert_eq!(render_notebook(odd.as_bytes()), Ok(expected.into()));
    }

    #[test]
    fn ansi_and_carriage_returns() {
        assert_eq!(
            strip_ansi("\x1b[1;31mred\x1b[0m \x1b]8;;http://x\x07link\x1b]8;;\x1b\\ \x1b(Bok\x1bc"),
            "red link ok"
        );
        assert_eq!(strip_ansi("tail\x1b[1;3"), "tail");
        assert_eq!(collapse_carriage_returns("abcdef\rxy\r\n2\r"), "xycdef\n2");
    }

    fn json_value() -> impl Strategy<Value = Value> {
        let leaf = prop_oneof![
            Just(Value::Null),
            any::<bool>().prop_map(Value::Bool),
            any::<i64>().prop_map(Value::from),
            prop::sample::select(vec![
                "code",
                "markdown",
                "stream",
                "error",
                "execute_result",
                "display_data",
                "text/plain",
                "\x1b[",
                "\r",
            ])
            .prop_map(Value::from),
            ".*".prop_map(Value::String),
        ];
        leaf.prop_recursive(4, 64, 6, |inner| {
            let keys = prop::sample::select(vec![
                "cell_type",
                "source",
                "outputs",
                "output_type",
                "name",
                "text",
                "data",
                "text/plain",
                "traceback",
                "ename",
                "evalue",
                "execution_count",
                "cells",
                "level",
            ]);
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
                prop::collection::vec((keys, inner), 0..6).prop_map(|kv| Value::Object(
                    kv.into_iter().map(|(k, v)| (k.to_string(), v)).collect()
                )),
            ]
        })
    }

    proptest! {
        #[test]
        fn sniff_and_dimensions_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..2048)) {
            let _ = sniff(&bytes);
            for mime in ["image/png", "image/jpeg", "image/gif", "image/webp", "image/bmp", "x"] {
                let _ = image_dimensions(mime, &bytes);
            }
            let _ = decode_utf16(&bytes, false);
            let _ = decode_utf16(&bytes, true);
            let _ = render_notebook(&bytes);
        }

        #[test]
        fn dimensions_never_panic_behind_magic(
            magic in prop::sample::select(vec![
                &b"\x89PNG\r\n\x1a\n\0\0\0\x0dIHDR"[..], &b"\xff\xd8\xff"[..], &b"GIF89a\0\0\0\0"[..],
                &b"RIFF\0\0\0\0WEBPVP8 "[..], &b"RIFF\0\0\0\0WEBPVP8L"[..], &b"RIFF\0\0\0\0WEBPVP8X"[..],
                &b"BM\0\0\0\0\0\0\0\0\x36\0\0\0\x28\0\0\0"[..],
            ]),
            tail in prop::collection::vec(any::<u8>(), 0..512),
        ) {
            let mut bytes = magic.to_vec();
            bytes.extend(tail);
            if let Sniffed::Image { mime } = sniff(&bytes) {
                let _ = image_dimensions(mime, &bytes);
            }
        }

        #[test]
        fn notebooks_of_any_shape_never_panic(cells in json_value(), top in json_value()) {
            let mut nb = match top { Value::Object(map) => map, _ => Map::new() };
            nb.insert("cells".into(), cells.clone());
            let nb = Value::Object(nb).to_string();
            let _ = render_notebook(nb.as_bytes());
            let cells = Value::Array(vec![cells]);
            let _ = render_notebook(serde_json::json!({"cells": cells}).to_string().as_bytes());
        }

        #[test]
        fn utf16_round_trips(text in ".*", big_endian in any::<bool>()) {
            let (decoded, lossy) = decode_utf16(&encode_utf16(&text, big_endian), big_endian);
            prop_assert_eq!(decoded, text);
            prop_assert!(!lossy);
        }
    }
}
