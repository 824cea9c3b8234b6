//! `quill edit` (SPEC §3.3): the runner around the pure planner. It gathers the edits
//! (`--old/--new`, `--old-file/--new-file`, `--edits FILE|-`), takes the mutation lock, loads
//! and re-hashes the file (64 MiB cap), judges freshness, peels the encoding (UTF-8 BOM kept
//! aside, UTF-16 decoded), asks `plan` for the new body, puts the encoding back and publishes
//! it through `cmd::mutate`. Matching rules, miss repair and fuzzy matching live in `plan` and
//! `repair`, which never do I/O.

pub mod plan;
mod repair;

use std::borrow::Cow;
use std::io::Read;
use std::path::{Path, PathBuf};

use serde::Deserialize;
use serde_json::{Map, Value, json};

use crate::app::Context;
use crate::cli::EditArgs;
use crate::cmd::mutate::{self, Outcome};
use crate::encoding::{self, Encoding};
use crate::error::{Error, Result};
use crate::history::Before;
use crate::output::Report;
use crate::paths;
use crate::probe::sha256_bytes;
use crate::sniff::{self, Sniffed};

use plan::{Edit, PlanError, PlanOptions};

/// One element of `--edits`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct EditSpec {
    old: String,
    new: String,
    #[serde(default)]
    replace_all: bool,
}

pub fn run(ctx: &Context, args: &EditArgs) -> Result<Report> {
    let resolved = mutate::resolve(ctx, &args.path, "edit")?;
    let edits = gather(args)?;
    if let Some(hex) = &args.expect_sha256 {
        crate::probe::parse_sha256("--expect-sha256", hex)?;
    }

    let locked = mutate::lock(ctx, resolved)?;
    let target = locked.target().to_path_buf();
    let cur = mutate::current(ctx, &target, args.max_file_bytes, Some(args.max_file_bytes))?;
    let (old_bytes, complete): (&[u8], bool) = match &cur {
        None => {
            if !edits.first().is_some_and(|e| e.old.is_empty()) {
                return Err(Error::NotFound {
                    similar: paths::similar_names(&target),
                    path: target,
                });
            }
            mutate::check_missing(ctx, &target, args.expect_sha256.as_deref())?;
            (&[], true)
        }
        Some(c) => {
            let bytes = c.bytes.as_deref().unwrap_or(&[]);
            // A file quill cannot edit is refused as such, read or not.
            encoding_of(&target, bytes)?;
            let complete = mutate::check_fresh(ctx, &target, c, args.expect_sha256.as_deref())?;
            (bytes, complete)
        }
    };

    let encoding = encoding_of(&target, old_bytes)?;
    let body: Cow<[u8]> = match encoding {
        Encoding::Utf8 | Encoding::Utf8Bom => Cow::Borrowed(&old_bytes[encoding.bom().len()..]),
        Encoding::Utf16Le | Encoding::Utf16Be => {
            let (text, lossy) =
                encoding::decode_utf16(&old_bytes[2..], encoding == Encoding::Utf16Be);
            if lossy {
                return Err(Error::Encoding {
                    path: target,
                    message: "the file is not valid UTF-16, so it cannot be edited byte for byte"
                        .into(),
                });
            }
            Cow::Owned(text.into_bytes())
        }
    };
    let opts = PlanOptions {
        fuzzy: args.fuzzy,
        expect_count: args.expect_count,
    };
    let planned = plan::plan(&body, &edits, &opts).map_err(|e| plan_error(&target, &edits, e))?;
    let new_bytes: Vec<u8> = match encoding {
        Encoding::Utf8 | Encoding::Utf8Bom => {
            let mut v = Vec::with_capacity(encoding.bom().len() + planned.new_body.len());
            v.extend_from_slice(encoding.bom());
            v.extend_from_slice(&planned.new_body);
            v
        }
        Encoding::Utf16Le | Encoding::Utf16Be => {
            let text = std::str::from_utf8(&planned.new_body).map_err(|_| Error::Encoding {
                path: target.clone(),
                message: "the edited text is not valid Unicode".into(),
            })?;
            let mut v = encoding.bom().to_vec();
            v.extend(encoding::encode_utf16(text, encoding == Encoding::Utf16Be));
            v
        }
    };
    let sha256 = sha256_bytes(&new_bytes);
    let unchanged = cur.as_ref().is_some_and(|c| c.sha256 == sha256);

    if !args.dry_run && !unchanged {
        let staged = mutate::stage(&target, &new_bytes, false)?;
        mutate::commit(ctx, &target, staged, cur.as_ref().map(|c| &c.meta))?;
    }
    if !args.dry_run {
        let before = match &cur {
            _ if unchanged => Before::Unchanged,
            None => Before::Missing,
            Some(_) => Before::Bytes(old_bytes),
        };
        mutate::record(ctx, &target, &sha256, complete, before)?;
    }

    let utf16 = matches!(encoding, Encoding::Utf16Le | Encoding::Utf16Be);
    // UTF-16 is diffed as the decoded text (readable); its patch cannot be byte-exact.
    let (shown_old, shown_new): (Cow<[u8]>, Cow<[u8]>) = if utf16 {
        (body.clone(), Cow::Borrowed(&planned.new_body[..]))
    } else {
        (Cow::Borrowed(old_bytes), Cow::Borrowed(&new_bytes[..]))
    };
    let mut report = mutate::report(
        ctx,
        Outcome {
            op: "edit",
            resolved: &locked.resolved,
            created: cur.is_none(),
            deleted: None,
            dry_run: args.dry_run,
            old: cur.as_ref().map(|_| &shown_old[..]),
            new: Some(&shown_new),
            bytes: new_bytes.len() as u64,
            sha256,
            previous_sha256: cur.as_ref().map(|c| c.sha256.clone()),
            patch_unavailable: utf16
                .then_some("the file is UTF-16; the diff shows the decoded text"),
        },
    );
    drop(locked);
    report.replacements = Some(planned.replacements);
    report.matched_fuzzily = Some(planned.matched_fuzzily);
    report.spans = Some(
        planned
            .spans
            .iter()
            .map(|s| json!({"startLine": s.start_line, "endLine": s.end_line}))
            .collect(),
    );
    Ok(Report::Mutation(report))
}

fn encoding_of(target: &Path, bytes: &[u8]) -> Result<Encoding> {
    let size = bytes.len() as u64;
    match sniff::sniff(&bytes[..bytes.len().min(sniff::SNIFF_LEN)]) {
        Sniffed::Text { encoding } => Ok(encoding),
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

fn gather(args: &EditArgs) -> Result<Vec<Edit>> {
    if let Some(file) = &args.edits {
        let bytes = if file.as_os_str() == "-" {
            let mut v = Vec::new();
            std::io::stdin()
                .read_to_end(&mut v)
                .map_err(|e| Error::io("read the edits from", Path::new("<stdin>"), e))?;
            v
        } else {
            mutate::read_input(file, "read the edits from")?
        };
        let specs: Vec<EditSpec> = serde_json::from_slice(&bytes).map_err(|e| {
            Error::invalid_argument(format!(
                "--edits must be a JSON array of {{\"old\", \"new\", \"replaceAll\"}} objects: {e}"
            ))
        })?;
        if specs.is_empty() {
            return Err(Error::invalid_argument("--edits holds no edits"));
        }
        return Ok(specs
            .into_iter()
            .map(|s| Edit {
                old: s.old,
                new: s.new,
                replace_all: s.replace_all || args.replace_all,
            })
            .collect());
    }
    let old = text_arg(args.old.as_ref(), args.old_file.as_ref(), "old")?;
    let new = text_arg(args.new.as_ref(), args.new_file.as_ref(), "new")?;
    Ok(vec![Edit {
        old,
        new,
        replace_all: args.replace_all,
    }])
}

fn text_arg(inline: Option<&String>, file: Option<&PathBuf>, name: &str) -> Result<String> {
    if let Some(s) = inline {
        return Ok(s.clone());
    }
    let Some(file) = file else {
        return Err(Error::usage(format!(
            "give --{name} TEXT or --{name}-file FILE (or --edits FILE)"
        )));
    };
    String::from_utf8(mutate::read_input(file, "read")?).map_err(|_| {
        Error::invalid_argument(format!(
            "--{name}-file {} is not valid UTF-8",
            file.display()
        ))
    })
}

fn plan_error(target: &Path, edits: &[Edit], e: PlanError) -> Error {
    let which = if edits.len() > 1 {
        format!("edit {} of {}: ", e.edit_index() + 1, edits.len())
    } else {
        String::new()
    };
    let mut fields = Map::new();
    fields.insert("path".into(), json!(target));
    fields.insert("editIndex".into(), json!(e.edit_index()));
    match e {
        PlanError::NoMatch {
            reason,
            window,
            difference,
            ..
        } => {
            fields.insert("reason".into(), json!(reason.as_str()));
            fields.insert(
                "window".into(),
                window.map_or(
                    Value::Null,
                    |w| json!({"startLine": w.start_line, "endLine": w.end_line, "text": w.text}),
                ),
            );
            fields.insert("difference".into(), json!(difference));
            Error::EditNoMatch {
                message: format!(
                    "{which}`old` was not found in {} ({}): {difference}",
                    target.display(),
                    reason.as_str()
                ),
                fields,
            }
        }
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
            let message = format!(
                "{which}`old` occurs {count} {how} in {} (lines {})",
                target.display(),
                shown.join(", ")
            );
            fields.insert("count".into(), json!(count));
            fields.insert("lines".into(), json!(lines));
            fields.insert("fuzzy".into(), json!(fuzzy));
            Error::EditAmbiguous { message, fields }
        }
        PlanError::Encoding { message, .. } => Error::Encoding {
            path: target.to_path_buf(),
            message: format!("{which}{message}"),
        },
        PlanError::InvalidArgument { message, .. } => {
            Error::invalid_argument(format!("{which}{message}"))
        }
    }
}
