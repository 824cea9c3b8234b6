//! `quill edit` (docs/commands/edit.md): the runner around the pure planners. It gathers the edits
//! (`--old/--new`, `--old-file/--new-file`, `--edits FILE|-`, or a line address `--lines A-B` /
//! `--insert-after N` with its `new`, whose guard also wants a read's baseline and whose plan
//! is `addressed` over `lines`), takes the mutation lock, loads
//! and re-hashes the file (64 MiB cap), judges freshness, refuses a re-sent edit
//! (`already_applied`: the session's last change of the file was this same edit, by its
//! fingerprint) and an omission placeholder `old` and the file do not have, peels the encoding
//! (UTF-8 BOM kept aside, UTF-16 and legacy encodings decoded), asks `plan` for the new body,
//! puts the encoding back (a legacy file byte-exact outside the change) and publishes it through
//! `guard`, which records the fingerprint with the new baseline. Matching rules, miss repair and fuzzy matching live in `plan` and
//! `repair`, which never do I/O.

mod addressed;
mod given;

use std::borrow::Cow;
use std::collections::HashMap;
use std::ffi::OsString;
use std::path::{Path, PathBuf};

use serde::Deserialize;

use crate::cli::EditArgs;
use crate::error::{Error, Result};
use crate::fs::paths::{self, Resolved};
use crate::fs::probe::{parse_sha256, sha256_bytes};
use crate::guard::fresh::Mode;
use crate::guard::{self, Mutation, Record, Rule, Shown, Since, View, fresh};
use crate::input::Input;
use crate::report::{LineSpan, OutsideChange, Report};
use crate::settings::Settings;
use crate::text::encoding::{self, EncodeError, Encoding, legacy};
use crate::text::placeholder;
use crate::text::sniff::{self, Sniffed};
use crate::warnings::WarningKind;

use crate::edit::plan::{self, Edit, PlanError, PlanOptions};
use crate::edit::{lines, outside};
use given::{Slot, Undecoded};

/// One element of `--edits`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct EditSpec {
    old: String,
    new: String,
    #[serde(default)]
    replace_all: bool,
}

/// A checked `quill edit`: the file, the edits gathered from their flags or files, and how to
/// apply them.
pub(crate) struct EditRequest {
    resolved: Resolved,
    /// The edits by text (none for a line-addressed edit).
    edits: Vec<Edit>,
    /// A line-addressed edit: where, and the new text.
    at: Option<(lines::Address, String)>,
    /// `old` and `new` given as bytes that are not UTF-8: read in the file's encoding.
    undecoded: Vec<Undecoded>,
    expect_sha256: Option<String>,
    max_file_bytes: u64,
    opts: PlanOptions,
    /// `--again`: apply even a re-sent edit.
    again: bool,
    allow_placeholder: bool,
    dry_run: bool,
    /// `--encoding NAME`.
    encoding: Option<&'static encoding_rs::Encoding>,
}

impl EditArgs {
    /// Check the flags, resolve the path (read-only refused), gather the edits.
    pub(crate) fn resolve(self, s: &Settings) -> Result<EditRequest> {
        let expect_sha256 = self
            .expect_sha256
            .as_deref()
            .map(|h| parse_sha256("--expect-sha256", h))
            .transpose()?;
        let encoding = self
            .encoding
            .as_deref()
            .map(encoding::parse_label)
            .transpose()
            .map_err(Error::invalid_argument)?;
        let resolved = guard::resolve(s, &self.path, "edit")?;
        let mut undecoded = Vec::new();
        let (edits, at) = match addressed::address(&self) {
            Some(addr) => {
                if self.new.is_none() && self.new_file.is_none() {
                    return Err(Error::usage(
                        "--insert-after and --lines take the text as --new TEXT or --new-file FILE (--lines A-B --new '' deletes the lines)",
                    ));
                }
                let cap = self.max_file_bytes;
                let (new, raw) =
                    text_arg(s, self.new.as_ref(), self.new_file.as_ref(), Slot::New, cap)?;
                undecoded.extend(raw);
                (Vec::new(), Some((addr, new)))
            }
            None => (gather(s, &self, self.max_file_bytes, &mut undecoded)?, None),
        };
        Ok(EditRequest {
            resolved,
            edits,
            at,
            undecoded,
            expect_sha256,
            max_file_bytes: self.max_file_bytes,
            opts: PlanOptions {
                fuzzy: self.fuzzy,
                expect_count: self.expect_count,
            },
            again: self.again,
            allow_placeholder: self.allow_placeholder,
            dry_run: self.dry_run,
            encoding,
        })
    }
}

pub(crate) fn run(s: &Settings, req: EditRequest) -> Result<Report> {
    let EditRequest {
        resolved,
        mut edits,
        mut at,
        undecoded,
        expect_sha256,
        max_file_bytes,
        opts,
        again,
        allow_placeholder,
        dry_run,
        encoding: forced,
    } = req;
    let mut m = Mutation::begin(s, resolved, "edit", dry_run)?;
    let target = m.target().to_path_buf();
    let cur = m.load(max_file_bytes, Some(max_file_bytes))?;
    let old_bytes = cur.as_ref().and_then(|c| c.bytes.as_deref()).unwrap_or(&[]);
    let expect = expect_sha256.as_deref();
    // The call, fingerprinted as given: sent again after a `stale` that showed a change, a
    // line-addressed one still numbers the same version, and one refused for meeting the
    // change is refused again.
    let call = sha256_bytes(format!("{at:?}{edits:?}").as_bytes());
    let rule = match &at {
        // Line numbers hold for the version read, not for the session's own change.
        Some((addr, _)) => Rule::Lines {
            expect,
            around: addr.around(),
            numbered: addr.numbered(),
            call: &call,
        },
        None => Rule::Baseline {
            expect,
            edit: true,
            call: Some(&call),
        },
    };
    let (encoding, judged) = match &cur {
        None => {
            if at.is_none() && !edits.first().is_some_and(|e| e.old.is_empty()) {
                return Err(paths::not_found(target));
            }
            let judged = m.judge(None, rule)?;
            (new_file_encoding(forced)?, judged)
        }
        // A file quill cannot edit is refused as such, read or not.
        Some(c) => (
            encoding_of(&target, old_bytes, forced)?,
            m.judge(Some(c), rule)?,
        ),
    };
    let argv = &s.origin.argv;
    given::decode_into(&target, encoding, argv, undecoded, &mut edits, &mut at)?;
    let fingerprint = fingerprint(&edits);
    if !again && judged.last_edit.as_deref() == Some(fingerprint.as_str()) {
        return Err(Error::AlreadyApplied { path: target });
    }

    let (body, lossy) = encoding::decode(old_bytes, encoding);
    if lossy && matches!(encoding, Encoding::Utf16Le | Encoding::Utf16Be) {
        return Err(Error::encoding(
            &target,
            "the file is not valid UTF-16, so it cannot be edited byte for byte",
        ));
    }
    // The file changed since the version the call was made against: its line numbers move
    // with the change, and under --merge the change must leave the edit's lines alone.
    let since = match (&judged.since, &cur) {
        (Some(since), Some(c)) => Some(Merging::new(since, c, &body, encoding)),
        _ => None,
    };
    if let (Some(m), Some((addr, _))) = (&since, at.as_mut()) {
        *addr = m.moved(s, &target, *addr, dry_run)?;
    }
    let ask = Ask {
        edits: &edits,
        at: at.as_ref(),
        opts: &opts,
        has_bom: encoding.has_bom(),
        allow_placeholder,
    };
    let (planned, replaced) = match (plan_body(&target, &body, &ask), &since) {
        (Err(e), Some(m)) => return Err(m.missed(s, &target, e, dry_run)),
        (planned, _) => planned?,
    };
    if let Some(m) = &since {
        m.check(s, &target, &body, &planned, dry_run)?;
    }
    let new_bytes = encoding::encode(encoding, old_bytes, &body, &planned.new_body)
        .map_err(|e| unencodable(&target, encoding, e))?;
    let sha256 = sha256_bytes(&new_bytes);
    let record = Record::Change {
        complete: judged.complete,
        edit: at.is_none().then_some(fingerprint),
    };
    m.replace(cur.as_ref(), &new_bytes, &sha256, record)?;

    // UTF-16 and legacy encodings are diffed as the decoded text (readable); a text patch of
    // them cannot be byte-exact.
    let view = view_of(encoding);
    let decoded = view != View::Bytes;
    let shown = Shown {
        old: cur.as_ref().filter(|_| decoded).map(|_| &body[..]),
        new: Some(if decoded {
            &planned.new_body
        } else {
            &new_bytes
        }),
        bytes: new_bytes.len() as u64,
        sha256: Some(sha256),
        deleted: None,
        view,
    };
    let mut report = m.report(cur.as_ref(), shown);
    drop(m);
    for note in &planned.notes {
        s.warn(WarningKind::EditRewritten, *note);
    }
    report.encoding = decoded.then(|| encoding.as_str());
    report.replacements = Some(planned.replacements);
    report.replaced = replaced;
    if let Some(m) = since.filter(|m| m.since.mode == Mode::Merge) {
        report.outside_change = m.report(s, &target, dry_run);
    }
    report.matched_fuzzily = Some(planned.matched_fuzzily);
    report.spans = Some(
        planned
            .spans
            .iter()
            .map(|s| LineSpan {
                start_line: s.start_line,
                end_line: s.end_line,
            })
            .collect(),
    );
    Ok(Report::Mutation(report))
}

/// An edit going ahead over a change made since the version it was made against
/// (`fresh::Since`): that version and the current file as text, and the change between them.
struct Merging<'a> {
    since: &'a Since,
    cur: &'a guard::Current,
    outside: outside::Outside,
}

impl<'a> Merging<'a> {
    /// `body` is the current file's text (decoded as `encoding`), which the edit applies to.
    fn new(
        since: &'a Since,
        cur: &'a guard::Current,
        body: &[u8],
        encoding: Encoding,
    ) -> Merging<'a> {
        let (known, _) = encoding::decode(&since.known, encoding);
        Merging {
            since,
            cur,
            outside: outside::between(&known, body),
        }
    }

    /// A line address of the version the call was made against, moved to the current file's
    /// lines — `stale` (a conflict) when the change touched them.
    fn moved(
        &self,
        s: &Settings,
        target: &Path,
        addr: lines::Address,
        dry_run: bool,
    ) -> Result<lines::Address> {
        let (first, last) = addr.numbered();
        match self.outside.translate(first, last) {
            Ok(to) => Ok(addr.moved(to)),
            Err(hit) => Err(fresh::conflict(
                s, target, self.cur, self.since, hit, dry_run,
            )),
        }
    }

    /// The change since must leave alone the lines the edit changes (and the lines its `old`
    /// matched) — else `stale`, naming where they meet. Not under --merge (`Mode::Show`): the
    /// edit would land, and the answer is `stale` with the change, which it now counts as seen.
    fn check(
        &self,
        s: &Settings,
        target: &Path,
        body: &[u8],
        planned: &plan::EditPlan,
        dry_run: bool,
    ) -> Result<()> {
        if self.since.mode == Mode::Seen {
            return Ok(());
        }
        let mut regions = outside::changed_regions(body, &planned.new_body);
        regions.extend(
            planned
                .spans
                .iter()
                .map(|sp| sp.start_line.saturating_sub(1)..sp.end_line),
        );
        match (self.outside.meets(&regions), self.since.mode) {
            (Some(hit), _) => Err(fresh::conflict(
                s, target, self.cur, self.since, hit, dry_run,
            )),
            (None, Mode::Show) => {
                let near = outside::around(&regions);
                Err(fresh::show(s, target, self.cur, self.since, near, dry_run))
            }
            (None, _) => Ok(()),
        }
    }

    /// The edit did not fit the current file (its `old` is gone or no longer unique) where
    /// the change since was not shown yet: `stale`, the change shown as meeting the edit.
    fn missed(&self, s: &Settings, target: &Path, e: Error, dry_run: bool) -> Error {
        match (self.since.mode, self.outside.span()) {
            (Mode::Show | Mode::Merge, Some(span)) => {
                fresh::conflict(s, target, self.cur, self.since, span, dry_run)
            }
            _ => e,
        }
    }

    /// The change the edit landed over: the report's `outsideChange`, and the warning
    /// `merged` that carries it.
    fn report(&self, s: &Settings, target: &Path, dry_run: bool) -> Option<Box<OutsideChange>> {
        let now = self.cur.bytes.as_deref()?;
        let change = fresh::outside_change(target, &self.since.known, now, self.since.from)?;
        let message = fresh::merged_message(target, &change, dry_run);
        s.warn(WarningKind::Merged, message);
        Some(Box::new(change))
    }
}

/// What the caller asked of the file's text.
struct Ask<'a> {
    edits: &'a [Edit],
    /// A line-addressed edit: where, and the new text.
    at: Option<&'a (lines::Address, String)>,
    opts: &'a PlanOptions,
    /// The file has a BOM (`plan_by_bom`).
    has_bom: bool,
    allow_placeholder: bool,
}

/// The edited body, and for a line-addressed edit the lines it replaced — or why not (a miss,
/// a bad address, an omission placeholder the file does not have).
fn plan_body(target: &Path, body: &[u8], ask: &Ask) -> Result<(plan::EditPlan, Option<String>)> {
    match ask.at {
        Some((addr, new)) => {
            let (planned, replaced) = addressed::plan(target, body, *addr, new)?;
            if !ask.allow_placeholder {
                let edit = Edit {
                    old: replaced.clone(),
                    new: new.clone(),
                    replace_all: false,
                };
                check_placeholders(target, &[edit], body)?;
            }
            Ok((planned, Some(replaced)))
        }
        None => {
            if !ask.allow_placeholder {
                check_placeholders(target, ask.edits, body)?;
            }
            let planned = plan_by_bom(body, ask.edits, ask.opts, ask.has_bom)
                .map_err(|e| plan_error(target, ask.edits, ask.opts.expect_count, e))?;
            Ok((planned, None))
        }
    }
}

/// How a change report shows a file in `encoding`.
fn view_of(encoding: Encoding) -> View {
    match encoding {
        Encoding::Utf16Le | Encoding::Utf16Be => {
            View::Decoded("the file is UTF-16; the diff shows the decoded text")
        }
        Encoding::Legacy(_) => {
            View::Decoded("the file is not UTF-8 (see `encoding`); the diff shows the decoded text")
        }
        Encoding::Utf8 | Encoding::Utf8Bom => View::Bytes,
    }
}

/// The encoding a file that does not exist yet is created in: `--encoding`'s, else UTF-8.
fn new_file_encoding(forced: Option<&'static encoding_rs::Encoding>) -> Result<Encoding> {
    match forced {
        Some(codec) => encoding::forced(codec, &[]).map_err(Error::invalid_argument),
        None => Ok(Encoding::Utf8),
    }
}

/// Plans `edits` on `body` (the text after the file's BOM, if it has one). In a file with a
/// BOM, an `old` that starts with U+FEFF — copied with `cat` or from `git diff`, which show
/// the BOM — means the BOM: the edits are planned on the text with U+FEFF in front, so such an
/// `old` matches at the file's start (or at a U+FEFF in the text, which is one), and the BOM
/// stays exactly once: a `new` that starts with U+FEFF too keeps it, one that does not gets it
/// back (an edit does not remove a BOM; `write` does). Only exact matches are taken so; with
/// `--fuzzy`, a miss is planned again without the U+FEFF of `old` and `new`, as any fuzzy
/// match (which never writes a U+FEFF the caller meant as the BOM into the text).
fn plan_by_bom(
    body: &[u8],
    edits: &[Edit],
    opts: &PlanOptions,
    bom: bool,
) -> std::result::Result<plan::EditPlan, PlanError> {
    const FEFF: char = '\u{FEFF}';
    if !bom || !edits.iter().any(|e| e.old.starts_with(FEFF)) {
        return plan::plan(body, edits, opts);
    }
    let feff = FEFF.to_string();
    let with_bom = [feff.as_bytes(), body].concat();
    let kept: Vec<Edit> = edits
        .iter()
        .map(|e| Edit {
            new: if e.old.starts_with(FEFF) && !e.new.starts_with(FEFF) {
                format!("{FEFF}{}", e.new)
            } else {
                e.new.clone()
            },
            ..e.clone()
        })
        .collect();
    let exact = PlanOptions {
        fuzzy: false,
        ..opts.clone()
    };
    match plan::plan(&with_bom, &kept, &exact) {
        Ok(mut planned) => {
            if planned.new_body.starts_with(feff.as_bytes()) {
                planned.new_body.drain(..feff.len());
            }
            Ok(planned)
        }
        Err(_) if opts.fuzzy => {
            let without: Vec<Edit> = edits
                .iter()
                .map(|e| match e.old.strip_prefix(FEFF) {
                    Some(old) => Edit {
                        old: old.to_string(),
                        new: e.new.strip_prefix(FEFF).unwrap_or(&e.new).to_string(),
                        replace_all: e.replace_all,
                    },
                    None => e.clone(),
                })
                .collect();
            plan::plan(body, &without, opts)
        }
        Err(e) => Err(e),
    }
}

/// Why the edited text cannot be put back in the file's encoding.
fn unencodable(target: &Path, encoding: Encoding, e: EncodeError) -> Error {
    let (codec, e) = match (encoding, e) {
        (Encoding::Legacy(codec), EncodeError::Legacy(e)) => (codec, e),
        // It was decoded, so it is text; a planner bug must not panic.
        _ => return Error::encoding(target, "the edited text is not valid Unicode"),
    };
    let name = codec.name();
    match e {
        legacy::EncodeError::Unencodable { ch, line } => Error::Encoding {
            path: target.to_path_buf(),
            message: format!(
                "{} is {name}, which has no {ch:?} (U+{:04X}, line {line} of the new text); nothing was written",
                target.display(),
                ch as u32
            ),
            encoding: Some(name),
            character: Some(ch.to_string()),
            code_point: Some(format!("U+{:04X}", ch as u32)),
        },
        legacy::EncodeError::Unplaceable { line } => Error::encoding(
            target,
            format!(
                "line {line} of {} holds bytes that are not valid {name} next to the change, so it cannot be rewritten byte for byte; nothing was written",
                target.display()
            ),
        ),
    }
}

/// The encoding an existing file is edited in (the decision `read` makes on the same bytes),
/// or why it cannot be edited.
fn encoding_of(
    target: &Path,
    bytes: &[u8],
    forced: Option<&'static encoding_rs::Encoding>,
) -> Result<Encoding> {
    let size = bytes.len() as u64;
    match sniff::sniff(&bytes[..bytes.len().min(sniff::SNIFF_LEN)]) {
        Sniffed::Text { encoding } => encoding::of_text(bytes, encoding, forced)
            .map(|(e, _)| e)
            .map_err(Error::invalid_argument),
        Sniffed::Binary { guess } => Err(Error::BinaryFile {
            path: target.to_path_buf(),
            size,
            guess,
        }),
        Sniffed::Image { mime } => Err(Error::BinaryFile {
            path: target.to_path_buf(),
            size,
            guess: mime,
        }),
        Sniffed::Pdf => Err(Error::BinaryFile {
            path: target.to_path_buf(),
            size,
            guess: "PDF document",
        }),
    }
}

/// The edits of the command line. Files named by `--edits`, `--old-file` and `--new-file` are
/// inputs (`input::Input`: a regular file or a pipe, read where Ctrl-C is noticed), at most
/// `cap` — `--max-file-bytes` — bytes each; `--edits -` reads stdin, under the same cap.
fn gather(
    s: &Settings,
    args: &EditArgs,
    cap: u64,
    undecoded: &mut Vec<Undecoded>,
) -> Result<Vec<Edit>> {
    if let Some(file) = &args.edits {
        const OP: &str = "read the edits from";
        let input = if file.as_os_str() == "-" {
            Input::stdin(&s.origin)
        } else {
            Input::open_in(s.root.as_ref(), &s.cwd, file, OP)?
        };
        let bytes = input.read_all(OP, cap)?;
        let specs: Vec<EditSpec> = serde_json::from_slice(&bytes).map_err(|e| {
            Error::invalid_argument(format!(
                "--edits must be a JSON array of {{\"old\", \"new\", \"replaceAll\"}} objects: {e}"
            ))
        })?;
        if specs.is_empty() {
            return Err(Error::invalid_argument("--edits holds no edits"));
        }
        let edits: Vec<Edit> = specs
            .into_iter()
            .map(|s| Edit {
                old: s.old,
                new: s.new,
                replace_all: s.replace_all || args.replace_all,
            })
            .collect();
        refuse_repeats(&edits)?;
        return Ok(edits);
    }
    let (old, raw_old) = text_arg(s, args.old.as_ref(), args.old_file.as_ref(), Slot::Old, cap)?;
    let (new, raw_new) = text_arg(s, args.new.as_ref(), args.new_file.as_ref(), Slot::New, cap)?;
    undecoded.extend(raw_old.into_iter().chain(raw_new));
    Ok(vec![Edit {
        old,
        new,
        replace_all: args.replace_all,
    }])
}

/// A batch that holds the same edit twice: `invalid_argument`. Each edit applies to the text
/// the ones before it left, so the repeat either misses or applies the change twice (`1` →
/// `10` → `100` when `old` is a prefix of `new`); either way it is not what was meant.
fn refuse_repeats(edits: &[Edit]) -> Result<()> {
    let mut seen: HashMap<(&str, &str, bool), usize> = HashMap::new();
    for (j, e) in edits.iter().enumerate() {
        if let Some(i) = seen.insert((&e.old, &e.new, e.replace_all), j) {
            return Err(Error::invalid_argument_fix(
                format!(
                    "edits {} and {} of {} are the same edit; a batch applies each edit to the text the ones before it left, so it would be applied twice; nothing was written",
                    i + 1,
                    j + 1,
                    edits.len()
                ),
                format!("remove edit {} from the batch", j + 1),
            ));
        }
    }
    Ok(())
}

/// What identifies an edit request: the SHA-256 of its edits (`old`, `new`, `replaceAll`, in
/// order) as canonical JSON. Kept with the baseline of the content it wrote, so the same
/// request sent again is `already_applied`.
fn fingerprint(edits: &[Edit]) -> String {
    let canonical: Vec<serde_json::Value> = edits
        .iter()
        .map(|e| serde_json::json!([e.old, e.new, e.replace_all]))
        .collect();
    sha256_bytes(serde_json::Value::Array(canonical).to_string().as_bytes())
}

/// An omission placeholder in some edit's `new` that neither its `old` nor the file has:
/// `invalid_argument`, before anything is planned.
fn check_placeholders(target: &Path, edits: &[Edit], body: &[u8]) -> Result<()> {
    let mut file: Option<Cow<str>> = None;
    for (i, e) in edits.iter().enumerate() {
        if placeholder::introduced(&e.new, &[&e.old]).is_none() {
            continue;
        }
        let file = file.get_or_insert_with(|| String::from_utf8_lossy(body));
        let Some(p) = placeholder::introduced(&e.new, &[&e.old, file]) else {
            continue;
        };
        let which = if edits.len() > 1 {
            format!("edit {} of {}: ", i + 1, edits.len())
        } else {
            String::new()
        };
        return Err(Error::invalid_argument_fix(
            format!(
                "{which}line {} of `new` is an omission placeholder, `{}`, that neither `old` nor {} has: quill writes text literally, so the lines it stands for would be lost",
                p.line,
                p.text,
                target.display()
            ),
            "put the real lines in `new` instead of the placeholder (only the lines that change need to be in `old` and `new`); if the line is meant literally, repeat the call with --allow-placeholder",
        ));
    }
    Ok(())
}

/// `old` or `new` from its flag or its file: the text when it is UTF-8, else a stand-in and
/// the bytes, which only the file's encoding can read (`given`).
fn text_arg(
    s: &Settings,
    inline: Option<&OsString>,
    file: Option<&PathBuf>,
    slot: Slot,
    cap: u64,
) -> Result<(String, Option<Undecoded>)> {
    let name = match slot {
        Slot::Old => "old",
        Slot::New => "new",
    };
    let (bytes, flag) = if let Some(word) = inline {
        if let Some(text) = word.to_str() {
            return Ok((text.to_string(), None));
        }
        let bytes = crate::sys::arg_bytes(word).ok_or_else(|| {
            Error::invalid_argument(format!(
                "--{name} is not Unicode text; give it with --{name}-file FILE"
            ))
        })?;
        (bytes, format!("--{name}"))
    } else {
        let Some(file) = file else {
            return Err(Error::usage(format!(
                "give --{name} TEXT or --{name}-file FILE (or --edits FILE)"
            )));
        };
        let input = Input::open_in(s.root.as_ref(), &s.cwd, file, "read")?;
        let flag = format!("--{name}-file {}", file.display());
        (input.read_all("read", cap)?, flag)
    };
    match String::from_utf8(bytes) {
        Ok(text) => Ok((text, None)),
        Err(e) => {
            let raw = Undecoded::new(slot, flag, inline.is_some(), e.into_bytes());
            Ok((raw.stand_in(), Some(raw)))
        }
    }
}

fn plan_error(target: &Path, edits: &[Edit], expect_count: Option<usize>, e: PlanError) -> Error {
    let which = if edits.len() > 1 {
        format!("edit {} of {}: ", e.edit_index() + 1, edits.len())
    } else {
        String::new()
    };
    let edit_index = e.edit_index();
    let path = target.to_path_buf();
    match e {
        PlanError::NoMatch {
            reason,
            window,
            difference,
            fix,
            ..
        } => Error::EditNoMatch {
            message: if edits.len() > 1 {
                format!(
                    "edit {} of {} did not match in {}; nothing was written",
                    edit_index + 1,
                    edits.len(),
                    target.display()
                )
            } else {
                format!("`old` was not found in {}", target.display())
            },
            fix,
            path,
            edit_index,
            reason,
            window,
            difference,
        },
        PlanError::Ambiguous {
            count,
            lines,
            fuzzy,
            ..
        } => {
            let shown: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
            let how = if fuzzy {
                "places when whitespace and look-alikes are ignored"
            } else {
                "times"
            };
            Error::EditAmbiguous {
                message: format!(
                    "{which}`old` occurs {count} {how} in {} (lines {}){}",
                    target.display(),
                    shown.join(", "),
                    match expect_count {
                        Some(n) => format!("; --expect-count asked for {n}"),
                        None => String::new(),
                    }
                ),
                path,
                edit_index,
                count,
                lines,
                fuzzy,
                expect_count,
            }
        }
        PlanError::Encoding { message, .. } => Error::encoding(&path, format!("{which}{message}")),
        PlanError::InvalidArgument { message, .. } => {
            Error::invalid_argument(format!("{which}{message}"))
        }
    }
}
