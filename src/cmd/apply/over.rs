//! apply over a change made outside since the version the session knows
//! (docs/model.md#a-living-tree): each file's hunks are worked out on the file as it is now,
//! and — `--merge` — land when that change leaves their lines alone (reported as
//! `outsideChange`), or — by default — the answer is `stale` with the change, now seen (the
//! same patch sent again lands); where they meet it, or no longer fit, `stale` names it.

use std::path::Path;

use crate::edit::outside;
use crate::edit::patch::{self, FilePatch};
use crate::error::PatchProblem;
use crate::guard::fresh::{self, Mode, Since};
use crate::guard::{self, Current, Gone};
use crate::report::OutsideChange;
use crate::settings::Settings;

type Problems = Vec<PatchProblem>;

/// The hunks of `fp` as `applied` to `cur` (or why not), judged against the change since the
/// version the session knows (`since`), and the outside change they landed over (`--merge`).
pub(super) fn over(
    s: &Settings,
    fp: &FilePatch,
    target: &Path,
    cur: &Current,
    since: Option<&Since>,
    applied: Result<patch::Applied, Problems>,
    dry_run: bool,
) -> Result<(patch::Applied, Option<Box<OutsideChange>>), Problems> {
    let body = cur.bytes.as_deref().unwrap_or(&[]);
    let since = since.filter(|since| since.mode != Mode::Seen);
    let applied = match (applied, since) {
        // The hunks do not fit the file as the change since left it: that change, shown.
        (Err(problems), Some(since)) => {
            let e = match outside::between(&since.known, body).span() {
                Some(span) => fresh::conflict(s, target, cur, since, span, dry_run),
                None => return Err(problems),
            };
            return Err(vec![PatchProblem::of(target, fp.line, &e)]);
        }
        (applied, _) => applied?,
    };
    let outside = match since {
        Some(since) => Some(merged(s, fp, target, cur, since, &applied, dry_run)?),
        None => None,
    };
    Ok((applied, outside))
}

/// The hunks go ahead over the change made since the version the session knows (`--merge`)
/// only when that change leaves alone the lines they change — without --merge, that is
/// answered `stale` with the change, now seen —
/// else `stale` (the change shown, the conflict named). The change, for the report.
fn merged(
    s: &Settings,
    fp: &FilePatch,
    target: &Path,
    cur: &Current,
    since: &fresh::Since,
    applied: &patch::Applied,
    dry_run: bool,
) -> Result<Box<OutsideChange>, Problems> {
    let body = cur.bytes.as_deref().unwrap_or(&[]);
    // The lines the hunks change, in the current file (their context lines matched it as
    // they are, so the change cannot have touched those).
    let regions = outside::changed_regions(body, &applied.new_body);
    let change = outside::between(&since.known, body);
    if let Some(hit) = change.meets(&regions) {
        let e = fresh::conflict(s, target, cur, since, hit, dry_run);
        return Err(vec![PatchProblem::of(target, fp.line, &e)]);
    }
    // Not under --merge: the hunks would land; the answer is the change, now seen.
    if since.mode == fresh::Mode::Show {
        let e = fresh::show(s, target, cur, since, outside::around(&regions), dry_run);
        return Err(vec![PatchProblem::of(target, fp.line, &e)]);
    }
    let shown = fresh::outside_change(target, &since.known, body, since.from);
    shown.map(Box::new).ok_or_else(|| {
        let e = guard::stale(s, target, Gone::No);
        vec![PatchProblem::of(target, fp.line, &e)]
    })
}
