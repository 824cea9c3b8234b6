//! The runner's side of line-addressed edits (`--insert-after N`, `--lines A-B`): the address
//! the flags give, the `invalid_argument` of an address that does not fit the file (its line
//! count, and a call that fits), and the plan of `lines` in the shape `plan` gives, so that
//! the rest of `edit` (encoding, publication, report) is the same for both kinds of edit.

use std::path::Path;

use crate::cli::EditArgs;
use crate::error::Error;
use crate::text::shell::shell_quote;

use crate::edit::lines::{self, Address, RangeError};
use crate::edit::plan::{EditPlan, LineSpan};

/// The address of the command line, if the edit is line-addressed.
pub(super) fn address(args: &EditArgs) -> Option<Address> {
    match (args.insert_after, args.lines) {
        (Some(n), _) => Some(Address::InsertAfter(n)),
        (None, Some(r)) => Some(Address::Lines(r.first, r.last)),
        (None, None) => None,
    }
}

/// Apply `addr` to the decoded body: the plan, and the text of the lines that went. A
/// notebook `read` renders is refused: the lines it showed are its cells, not the file's.
pub(super) fn plan(
    target: &Path,
    body: &[u8],
    addr: Address,
    new: &str,
) -> Result<(EditPlan, String), Error> {
    let notebook = target
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("ipynb"));
    if notebook && crate::text::notebook::render(body).is_ok() {
        return Err(Error::invalid_argument_fix(
            format!(
                "{} is a notebook: read shows its cells, whose line numbers are not the file's, so it takes no line-addressed edit; nothing was written",
                target.display()
            ),
            format!(
                "edit it by text: `quill edit {} --old TEXT --new TEXT`",
                shell_quote(target)
            ),
        ));
    }
    let p = lines::apply(body, addr, new.as_bytes()).map_err(|e| range_error(target, addr, e))?;
    let planned = EditPlan {
        new_body: p.new_body,
        replacements: 1,
        matched_fuzzily: false,
        spans: vec![LineSpan {
            start_line: p.start_line,
            end_line: p.end_line,
        }],
        notes: Vec::new(),
    };
    Ok((planned, String::from_utf8_lossy(&p.replaced).into_owned()))
}

/// An address that does not fit: what is wrong, the file's line count, and a call that fits.
fn range_error(target: &Path, addr: Address, e: RangeError) -> Error {
    let path = shell_quote(target);
    let (RangeError::Zero { total }
    | RangeError::Reversed { total }
    | RangeError::PastEnd { total }
    | RangeError::NothingToInsert { total }) = e;
    let has = match total {
        0 => format!("{} is empty (0 lines)", target.display()),
        1 => format!("{} has 1 line", target.display()),
        n => format!("{} has {n} lines", target.display()),
    };
    let given = match addr {
        Address::InsertAfter(n) => format!("--insert-after {n}"),
        Address::Lines(a, b) => format!("--lines {a}-{b}"),
    };
    let why = match e {
        RangeError::Zero { .. } => "lines are numbered from 1".to_string(),
        RangeError::Reversed { .. } => "the first line is after the last".to_string(),
        RangeError::PastEnd { .. } => "that is past the last line".to_string(),
        RangeError::NothingToInsert { .. } => "an empty --new inserts nothing".to_string(),
    };
    let fix = match (e, addr) {
        (RangeError::NothingToInsert { .. }, Address::InsertAfter(n)) => {
            format!("give the lines to insert: `quill edit {path} --insert-after {n} --new TEXT`")
        }
        (_, _) if total == 0 => {
            format!("an empty file takes only `quill edit {path} --insert-after 0 --new TEXT`")
        }
        (RangeError::Zero { .. }, Address::Lines(_, b)) => format!(
            "`quill edit {path} --lines 1-{} --new TEXT`, or `--insert-after 0` to add lines at the top",
            b.clamp(1, total)
        ),
        (RangeError::Reversed { .. }, Address::Lines(a, b)) => {
            format!("`quill edit {path} --lines {b}-{a} --new TEXT`")
        }
        (_, Address::Lines(a, _)) => {
            let a = a.clamp(1, total);
            format!(
                "lines run from 1 to {total}: `quill edit {path} --lines {a}-{total} --new TEXT`, or `--insert-after {total}` to add lines at the end"
            )
        }
        (_, Address::InsertAfter(_)) => format!(
            "insert after a line from 0 (the top) to {total} (the end): `quill edit {path} --insert-after {total} --new TEXT`"
        ),
    };
    Error::invalid_argument_fix(
        format!("{given}: {why}, and {has}; nothing was written"),
        fix,
    )
}
