//! The unified diff parser (git style, as `git diff`, `git format-patch`, `diff -u` and quill
//! itself write): file sections (`diff --git` and its extended headers, `---`/`+++`), their
//! `@@` hunks with counts checked against the lines, `\ No newline at end of file`, and `-p N`
//! names. Text before the first section (a commit message, mail headers) is skipped. Pure; no
//! I/O, no panics.

use super::names::{self, NamePair, git_line_names, header_name};
use super::text::{chomp_cr, shown};
use super::{FilePatch, Hunk, HunkLine, ParseError};

/// The file sections of a unified diff; an empty list when it has none.
pub(super) fn parse(lines: &[&[u8]], strip: usize) -> Result<Vec<FilePatch>, ParseError> {
    let p = Parser { lines, strip };
    let mut files = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        if p.section_starts(i) {
            let (file, next) = p.section(i)?;
            files.push(file);
            i = next;
        } else {
            i += 1;
        }
    }
    Ok(files)
}

fn err(line: usize, message: impl Into<String>, fix: impl Into<String>) -> ParseError {
    ParseError {
        line,
        message: message.into(),
        fix: fix.into(),
    }
}

const REGENERATE: &str = "regenerate the patch (git diff, diff -u) or correct the hunk by hand";

struct Parser<'a> {
    lines: &'a [&'a [u8]],
    strip: usize,
}

/// What a section's headers said, before names are resolved.
#[derive(Default)]
struct Headers {
    git_names: Option<NamePair>,
    /// `---` and `+++` names (`None` for `/dev/null`), with their patch lines.
    minus: Option<(Option<Vec<u8>>, usize)>,
    plus: Option<(Option<Vec<u8>>, usize)>,
    rename_from: Option<(Vec<u8>, usize)>,
    rename_to: Option<(Vec<u8>, usize)>,
    created: bool,
    deleted: bool,
    new_mode: Option<u32>,
    binary: bool,
}

impl Parser<'_> {
    /// Line `i` (0-based) without a trailing `\r`: how headers are read.
    fn header(&self, i: usize) -> &[u8] {
        self.lines.get(i).map_or(&[][..], |l| chomp_cr(l))
    }

    fn section_starts(&self, i: usize) -> bool {
        let h = self.header(i);
        h.starts_with(b"diff --git ")
            || (h.starts_with(b"--- ") && self.header(i + 1).starts_with(b"+++ "))
    }

    /// The section starting at line `i`, and the index of the line after it.
    fn section(&self, start: usize) -> Result<(FilePatch, usize), ParseError> {
        let mut h = Headers::default();
        let mut i = start;
        if let Some(rest) = self.header(i).strip_prefix(b"diff --git ") {
            h.git_names = git_line_names(rest)
                .map_err(|m| err(start + 1, format!("line {}: {m}", start + 1), REGENERATE))?;
            i = self.extended_headers(start + 1, &mut h)?;
        }
        if self.header(i).starts_with(b"--- ") {
            let plus = self.header(i + 1);
            if !plus.starts_with(b"+++ ") {
                return Err(err(
                    i + 2,
                    format!(
                        "line {}: the `---` header at line {} is not followed by a `+++` header",
                        i + 2,
                        i + 1
                    ),
                    "give each file section both `--- a/PATH` and `+++ b/PATH`",
                ));
            }
            h.minus = Some((self.dev_null_or_name(i, &self.header(i)[4..])?, i + 1));
            h.plus = Some((self.dev_null_or_name(i + 1, &plus[4..])?, i + 2));
            i += 2;
        }
        let mut hunks = Vec::new();
        while self.header(i).starts_with(b"@@") {
            let (hunk, next) = self.hunk(i)?;
            hunks.push(hunk);
            i = next;
        }
        self.after_hunks(i, &hunks)?;
        let file = self.resolve(start, h, hunks)?;
        Ok((file, i))
    }

    /// Reads git's extended headers from line `i`; returns the first line after them.
    fn extended_headers(&self, mut i: usize, h: &mut Headers) -> Result<usize, ParseError> {
        while i < self.lines.len() {
            let line = self.header(i);
            let n = i + 1;
            let mode = |rest: &[u8]| {
                parse_mode(rest).ok_or_else(|| {
                    err(
                        n,
                        format!("line {n}: `{}` is not an octal file mode", shown(rest, 40)),
                        REGENERATE,
                    )
                })
            };
            if let Some(rest) = line.strip_prefix(b"new file mode ") {
                h.created = true;
                h.new_mode = Some(mode(rest)?);
            } else if let Some(rest) = line.strip_prefix(b"deleted file mode ") {
                mode(rest)?;
                h.deleted = true;
            } else if let Some(rest) = line.strip_prefix(b"old mode ") {
                mode(rest)?;
            } else if let Some(rest) = line.strip_prefix(b"new mode ") {
                h.new_mode = Some(mode(rest)?);
            } else if let Some(rest) = line.strip_prefix(b"rename from ") {
                h.rename_from = Some((self.name_at(i, rest)?, n));
            } else if let Some(rest) = line.strip_prefix(b"rename to ") {
                h.rename_to = Some((self.name_at(i, rest)?, n));
            } else if line.starts_with(b"copy from ") || line.starts_with(b"copy to ") {
                return Err(err(
                    n,
                    format!(
                        "line {n}: the patch copies a file (`{}`), which apply does not do",
                        shown(line, 80)
                    ),
                    "copy the file first (quill write, or cp), then apply a patch without the copy",
                ));
            } else if line == b"GIT binary patch" {
                h.binary = true;
                i += 1;
                while i < self.lines.len() && !self.section_starts(i) {
                    i += 1;
                }
                return Ok(i);
            } else if line.starts_with(b"Binary files ") && line.ends_with(b" differ") {
                h.binary = true;
            } else if line.starts_with(b"index ")
                || line.starts_with(b"similarity index ")
                || line.starts_with(b"dissimilarity index ")
            {
            } else {
                return Ok(i);
            }
            i += 1;
        }
        Ok(i)
    }

    fn name_at(&self, i: usize, value: &[u8]) -> Result<Vec<u8>, ParseError> {
        header_name(value).map_err(|m| err(i + 1, format!("line {}: {m}", i + 1), REGENERATE))
    }

    fn dev_null_or_name(&self, i: usize, value: &[u8]) -> Result<Option<Vec<u8>>, ParseError> {
        let name = self.name_at(i, value)?;
        // `diff -N` (and `diff -ruN`) names a missing side by the epoch as its timestamp.
        let stamp = memchr::memchr(b'\t', value).map_or(&b""[..], |t| &value[t + 1..]);
        Ok((name != b"/dev/null" && !is_epoch(stamp)).then_some(name))
    }

    /// The hunk whose `@@` header is line `i`, and the line after it.
    fn hunk(&self, i: usize) -> Result<(Hunk, usize), ParseError> {
        let header = self.header(i);
        let Some((old_start, old_count, new_count)) = parse_range(header) else {
            return Err(err(
                i + 1,
                format!(
                    "line {}: `{}` is not a hunk header `@@ -START,COUNT +START,COUNT @@`",
                    i + 1,
                    shown(header, 80)
                ),
                REGENERATE,
            ));
        };
        let mut hunk = Hunk {
            line: i + 1,
            old_start: Some(old_start),
            anchors: Vec::new(),
            lines: Vec::new(),
            old_no_eol: false,
            new_no_eol: false,
            end_of_file: false,
        };
        let (mut old_left, mut new_left) = (old_count, new_count);
        let shown_header = shown(header, 60);
        let truncated = |j: usize, why: &str, old_left: usize, new_left: usize| {
            err(
                j + 1,
                format!(
                    "the hunk at line {} (`{shown_header}`) promises {old_count} old and \
                     {new_count} new lines, but {why} with {} old and {} new lines still to come",
                    i + 1,
                    old_left,
                    new_left
                ),
                REGENERATE,
            )
        };
        let mut j = i + 1;
        loop {
            let Some(&line) = self.lines.get(j) else {
                if old_left == 0 && new_left == 0 {
                    break;
                }
                return Err(truncated(j - 1, "the patch ends", old_left, new_left));
            };
            if let Some(b'\\') = line.first() {
                self.no_newline(j, &mut hunk)?;
                j += 1;
                continue;
            }
            if old_left == 0 && new_left == 0 {
                break;
            }
            let (kind, content) = match line.split_first() {
                None => (b' ', &[][..]),
                Some((&k @ (b' ' | b'-' | b'+'), rest)) => (k, rest),
                Some(_) => {
                    let why = format!("line {} (`{}`) is not a hunk line", j + 1, shown(line, 40));
                    return Err(truncated(j, &why, old_left, new_left));
                }
            };
            let fits = match kind {
                b' ' => old_left > 0 && new_left > 0,
                b'-' => old_left > 0,
                _ => new_left > 0,
            };
            let side_closed = match kind {
                b' ' => hunk.old_no_eol || hunk.new_no_eol,
                b'-' => hunk.old_no_eol,
                _ => hunk.new_no_eol,
            };
            if !fits {
                return Err(err(
                    j + 1,
                    format!(
                        "line {} makes the hunk at line {} (`{shown_header}`) longer than its \
                         {old_count} old and {new_count} new lines",
                        j + 1,
                        i + 1
                    ),
                    REGENERATE,
                ));
            }
            if side_closed {
                return Err(err(
                    j + 1,
                    format!(
                        "line {} follows a `\\ No newline at end of file` on its side: only the \
                         last line of a side can lack its line break",
                        j + 1
                    ),
                    REGENERATE,
                ));
            }
            let content = content.to_vec();
            hunk.lines.push(match kind {
                b' ' => {
                    (old_left, new_left) = (old_left - 1, new_left - 1);
                    HunkLine::Context(content)
                }
                b'-' => {
                    old_left -= 1;
                    HunkLine::Remove(content)
                }
                _ => {
                    new_left -= 1;
                    HunkLine::Add(content)
                }
            });
            j += 1;
        }
        Ok((hunk, j))
    }

    /// A `\ No newline at end of file` at line `j`: the line before it has no line break.
    fn no_newline(&self, j: usize, hunk: &mut Hunk) -> Result<(), ParseError> {
        match hunk.lines.last() {
            Some(HunkLine::Context(_)) => (hunk.old_no_eol, hunk.new_no_eol) = (true, true),
            Some(HunkLine::Remove(_)) => hunk.old_no_eol = true,
            Some(HunkLine::Add(_)) => hunk.new_no_eol = true,
            None => {
                return Err(err(
                    j + 1,
                    format!(
                        "line {}: `\\ No newline at end of file` comes before any line of its hunk",
                        j + 1
                    ),
                    REGENERATE,
                ));
            }
        }
        Ok(())
    }

    /// A line that looks like part of the hunk just read, right after it, means its header's
    /// counts are too small: refused rather than silently dropped.
    fn after_hunks(&self, i: usize, hunks: &[Hunk]) -> Result<(), ParseError> {
        let (Some(last), Some(&line)) = (hunks.last(), self.lines.get(i)) else {
            return Ok(());
        };
        let signature = chomp_cr(line) == b"-- " || chomp_cr(line) == b"--";
        let hunk_like = matches!(line.first(), Some(b' ' | b'-' | b'+'));
        if hunk_like && !signature && !self.section_starts(i) {
            return Err(err(
                i + 1,
                format!(
                    "line {} (`{}`) looks like a line of the hunk at line {}, but that hunk's \
                     header counts fewer lines",
                    i + 1,
                    shown(line, 40),
                    last.line
                ),
                REGENERATE,
            ));
        }
        Ok(())
    }

    /// The section's names and kind from its headers.
    fn resolve(&self, start: usize, h: Headers, hunks: Vec<Hunk>) -> Result<FilePatch, ParseError> {
        let line = start + 1;
        let strip = |name: &[u8], n: usize, at: usize| -> Result<Vec<u8>, ParseError> {
            names::strip(name, n).ok_or_else(|| {
                err(
                    at,
                    format!(
                        "line {at}: -p {n} strips every component of `{}`",
                        shown(name, 80)
                    ),
                    "pass a smaller -p (-p 0 for names without a/ and b/ prefixes)",
                )
            })
        };
        let (old_path, new_path) = if let (Some((minus, at_m)), Some((plus, at_p))) =
            (&h.minus, &h.plus)
        {
            let old = minus
                .as_deref()
                .map(|n| strip(n, self.strip, *at_m))
                .transpose()?;
            let new = plus
                .as_deref()
                .map(|n| strip(n, self.strip, *at_p))
                .transpose()?;
            (old, new)
        } else if h.rename_from.is_some() || h.rename_to.is_some() {
            // git writes rename names without the a/ b/ prefix: one component fewer to strip.
            let n = self.strip.saturating_sub(1);
            let (Some((from, at_f)), Some((to, at_t))) = (&h.rename_from, &h.rename_to) else {
                return Err(err(
                    line,
                    format!(
                        "the section at line {line} has only one of `rename from` and `rename to`"
                    ),
                    REGENERATE,
                ));
            };
            (Some(strip(from, n, *at_f)?), Some(strip(to, n, *at_t)?))
        } else if let Some((a, b)) = &h.git_names {
            let old = (!h.created)
                .then(|| strip(a, self.strip, line))
                .transpose()?;
            let new = (!h.deleted)
                .then(|| strip(b, self.strip, line))
                .transpose()?;
            (old, new)
        } else {
            return Err(err(
                line,
                format!("line {line}: the two names of the `diff --git` line cannot be told apart"),
                "regenerate the patch with git diff, which adds `---`/`+++` or `rename` headers",
            ));
        };
        for (name, side) in [(&old_path, "old"), (&new_path, "new")] {
            if let Some(name) = name
                && name.contains(&0)
            {
                return Err(err(
                    line,
                    format!("the {side} name of the section at line {line} holds a NUL byte"),
                    REGENERATE,
                ));
            }
        }
        if old_path.is_none() && new_path.is_none() {
            return Err(err(
                line,
                format!("the section at line {line} names /dev/null on both sides"),
                "name the file on at least one side (`--- /dev/null` creates it, `+++ /dev/null` deletes it)",
            ));
        }
        let says_something = h.binary
            || !hunks.is_empty()
            || h.created
            || h.deleted
            || h.new_mode.is_some()
            || old_path != new_path;
        if !says_something {
            return Err(err(
                line,
                format!("the section at line {line} has no hunk: it changes nothing"),
                "give each file's changes as `@@ -START,COUNT +START,COUNT @@` hunks, or leave the file out",
            ));
        }
        Ok(FilePatch {
            line,
            renamed: h.rename_from.is_some() && old_path.is_some() && new_path.is_some(),
            old_path,
            new_path,
            new_mode: h.new_mode,
            hunks,
            binary: h.binary,
        })
    }
}

/// A `diff -u` timestamp (`1970-01-01 01:00:00.000000000 +0100`) that is the epoch in its own
/// zone: how `diff -N` marks a side that does not exist.
fn is_epoch(stamp: &[u8]) -> bool {
    let Ok(text) = std::str::from_utf8(stamp) else {
        return false;
    };
    let mut parts = text.split_whitespace();
    let (Some(date), Some(time)) = (parts.next(), parts.next()) else {
        return false;
    };
    let day: i64 = match date {
        "1970-01-01" => 0,
        "1969-12-31" => -1,
        _ => return false,
    };
    let (hms, frac) = time.split_once('.').unwrap_or((time, "0"));
    if !frac.bytes().all(|b| b == b'0') {
        return false;
    }
    let f: Vec<i64> = hms.split(':').filter_map(|x| x.parse().ok()).collect();
    let [h, m, sec] = f[..] else {
        return false;
    };
    let offset = match parts.next() {
        None => 0,
        Some(tz) if tz.len() == 5 && (tz.starts_with('+') || tz.starts_with('-')) => {
            let (Ok(hh), Ok(mm)) = (tz[1..3].parse::<i64>(), tz[3..5].parse::<i64>()) else {
                return false;
            };
            let o = hh * 3600 + mm * 60;
            if tz.starts_with('-') { -o } else { o }
        }
        Some(_) => return false,
    };
    day * 86_400 + h * 3600 + m * 60 + sec - offset == 0
}

/// `@@ -a[,b] +c[,d] @@[ text]` → (a, b, d); a count left out is 1.
fn parse_range(header: &[u8]) -> Option<(usize, usize, usize)> {
    let rest = header.strip_prefix(b"@@ -")?;
    let (old_start, old_count, rest) = range(rest)?;
    let rest = rest.strip_prefix(b" +")?;
    let (_, new_count, rest) = range(rest)?;
    let after = rest.strip_prefix(b" @@")?;
    if !(after.is_empty() || after.starts_with(b" ") || after.starts_with(b"\t")) {
        return None;
    }
    Some((old_start, old_count, new_count))
}

/// `N[,M]` at the start of `s`: (N, M or 1, the rest).
fn range(s: &[u8]) -> Option<(usize, usize, &[u8])> {
    let (start, rest) = number(s)?;
    match rest.strip_prefix(b",") {
        Some(rest) => {
            let (count, rest) = number(rest)?;
            Some((start, count, rest))
        }
        None => Some((start, 1, rest)),
    }
}

fn number(s: &[u8]) -> Option<(usize, &[u8])> {
    let digits = s.iter().take_while(|b| b.is_ascii_digit()).count();
    if digits == 0 || digits > 18 {
        return None;
    }
    let n = std::str::from_utf8(&s[..digits]).ok()?.parse().ok()?;
    Some((n, &s[digits..]))
}

fn parse_mode(s: &[u8]) -> Option<u32> {
    let s = s.trim_ascii();
    if s.is_empty() || s.len() > 7 {
        return None;
    }
    u32::from_str_radix(std::str::from_utf8(s).ok()?, 8).ok()
}

/// Whether `@@ …` text in a Codex patch is a unified range (`-a,b +c,d @@`), and the section
/// text after it.
pub(super) fn unified_range_tail(text: &[u8]) -> Option<&[u8]> {
    let mut header = b"@@ ".to_vec();
    header.extend_from_slice(text);
    parse_range(&header)?;
    let after = &text[memchr::memmem::find(text, b" @@")? + 3..];
    Some(after.trim_ascii())
}
