//! Text output for people: `cat -n`-style reads, colored diffs with a summary line, state
//! listings, and errors with their hint on stderr. Glob and grep have their own renderers in
//! `output::search`. Colors come from `palette`.

use std::io::{self, Write};

use std::time::Duration;

pub(crate) use super::palette::Palette;
use super::{OutputConfig, Shown};
use crate::error::Error;
use crate::report::{
    ApplyReport, AsTyped, GrepBody, ListingReport, MutationReport, ReadReport, Report, StateReport,
    TransferReport,
};

/// A report as text: the result on `w` (stdout), the errors of missing grep PATHs on `e`
/// (stderr).
pub(crate) fn render(
    w: &mut dyn Write,
    e: &mut dyn Write,
    cfg: &OutputConfig,
    report: &Report,
    p: &Palette,
) -> io::Result<()> {
    match report {
        Report::Read(r) => read(w, r, p),
        Report::Listing(r) => listing(w, r, p),
        Report::Mutation(r) => mutation(w, cfg, r, p),
        Report::Apply(r) => apply(w, cfg, r, p),
        Report::Glob(r) => super::search::render_glob(w, cfg, r, p),
        Report::Grep(r) => {
            super::search::render_grep(w, cfg, r, p)?;
            // Several PATHs, some missing: an error line each, after the results (as rg).
            if let GrepBody::Search(s) = &r.body
                && !s.missing.is_empty()
            {
                w.flush()?;
                let p = Palette::new(cfg.color_stderr);
                for err in &s.missing {
                    render_error(e, err, &p);
                }
            }
            Ok(())
        }
        Report::Transfer(r) => transfer(w, cfg, r),
        Report::State(r) => state(w, cfg, r),
        Report::Generated(s) => w.write_all(s.as_bytes()),
        Report::Version(r) => match (r.commit, r.date) {
            (Some(c), Some(d)) => writeln!(w, "quill {} ({c} {d})", r.version),
            (Some(c), None) => writeln!(w, "quill {} ({c})", r.version),
            _ => writeln!(w, "quill {}", r.version),
        },
    }
}

fn read(w: &mut dyn Write, r: &ReadReport, p: &Palette) -> io::Result<()> {
    if let Some(summary) = &r.summary {
        // Images and other non-text kinds: one descriptive line.
        writeln!(w, "{summary}")?;
        return Ok(());
    }
    for (n, line) in (r.start_line..).zip(r.lines.iter()) {
        let shown = line.strip_suffix('\n').unwrap_or(line);
        let shown = shown.strip_suffix('\r').unwrap_or(shown);
        writeln!(w, "{}{n:>6}{}\t{shown}", p.dim, p.reset)?;
    }
    if let (Some(pages), Some(count)) = (&r.pages, r.page_count) {
        let last: u32 = pages
            .rsplit('-')
            .next()
            .and_then(|l| l.parse().ok())
            .unwrap_or(count);
        if last < count {
            writeln!(
                w,
                "{}(pages {pages} of {count}; next: --pages {}-{count}){}",
                p.dim,
                last + 1,
                p.reset
            )?;
        }
    }
    if let Some(next) = r.next_offset {
        writeln!(
            w,
            "{}(lines {}-{} of {}; next: --offset {next}){}",
            p.dim, r.start_line, r.end_line, r.total_lines, p.reset
        )?;
    } else if !r.truncated_lines.is_empty() {
        writeln!(
            w,
            "{}({} long line(s) cut; --max-line-chars 0 shows them whole){}",
            p.dim,
            r.truncated_lines.len(),
            p.reset
        )?;
    }
    Ok(())
}

/// `quill read DIR`: one entry a line, then what more there is and the call that shows it.
fn listing(w: &mut dyn Write, r: &ListingReport, p: &Palette) -> io::Result<()> {
    for line in &r.lines {
        writeln!(w, "{line}")?;
    }
    if let Some(next) = r.next_offset {
        writeln!(
            w,
            "{}(entries {}-{} of {}; next: --offset {next}){}",
            p.dim, r.start_entry, r.end_entry, r.total_entries, p.reset
        )?;
    }
    let hidden = r.hidden_left_out.unwrap_or(0);
    let ignored = r.ignored_left_out.unwrap_or(0);
    if hidden + ignored > 0 {
        let mut what = Vec::new();
        let mut flags = String::new();
        if hidden > 0 {
            what.push(format!("{hidden} hidden"));
            flags.push_str(" --hidden");
        }
        if ignored > 0 {
            what.push(format!("{ignored} ignored"));
            flags.push_str(" --no-ignore");
        }
        writeln!(
            w,
            "{}(left out: {}; `quill read {}{flags}` shows them){}",
            p.dim,
            what.join(", "),
            r.typed,
            p.reset
        )?;
    } else if r.total_entries == 0 {
        writeln!(w, "{}(empty directory){}", p.dim, p.reset)?;
    }
    Ok(())
}

/// A unified diff, colored by line prefix.
pub(crate) fn diff(w: &mut dyn Write, diff: &str, p: &Palette) -> io::Result<()> {
    for line in diff.split_inclusive('\n') {
        let body = line.strip_suffix('\n').unwrap_or(line);
        let style = match body.as_bytes().first() {
            Some(b'+') => p.green,
            Some(b'-') => p.red,
            Some(b'@') => p.cyan,
            Some(b'\\') => p.dim,
            _ => "",
        };
        if style.is_empty() {
            writeln!(w, "{body}")?;
        } else {
            writeln!(w, "{style}{body}{}", p.reset)?;
        }
    }
    Ok(())
}

fn mutation(
    w: &mut dyn Write,
    cfg: &OutputConfig,
    r: &MutationReport,
    p: &Palette,
) -> io::Result<()> {
    diff(w, &r.diff, p)?;
    if r.diff_truncated {
        writeln!(w, "{}(diff cut at 200 lines){}", p.dim, p.reset)?;
    }
    let verb = match (r.dry_run, r.created, r.op) {
        (true, _, "rm") => "would remove",
        (true, _, _) => "would change",
        (false, _, "rm") => "removed",
        (false, true, _) => "created",
        (false, false, "undo") => "restored",
        _ => "wrote",
    };
    let mut extra = String::new();
    if let Some(n) = r.replacements {
        extra.push_str(&format!(
            ", {n} replacement{}",
            if n == 1 { "" } else { "s" }
        ));
    }
    if r.matched_fuzzily == Some(true) {
        extra.push_str(", matched fuzzily");
    }
    if let Some(encoding) = r.encoding {
        extra.push_str(&format!(", in {encoding}"));
    }
    write!(w, "{}{verb} ", p.bold)?;
    Shown::new(&cfg.cwd, &r.typed, &r.path).write_to(w)?;
    writeln!(
        w,
        "{}: {} bytes, +{} -{} lines{extra}",
        p.reset, r.bytes, r.added, r.removed
    )
}

/// Each file's diff under a bold header, then a line a file (`modified a.rs: +3 -1 lines`) and
/// the total.
fn apply(w: &mut dyn Write, cfg: &OutputConfig, r: &ApplyReport, p: &Palette) -> io::Result<()> {
    for f in &r.files {
        if f.diff.is_empty() {
            continue;
        }
        write!(w, "{}", p.bold)?;
        Shown::new(&cfg.cwd, &f.typed, &f.path).write_to(w)?;
        writeln!(w, "{}", p.reset)?;
        diff(w, &f.diff, p)?;
    }
    if r.diff_truncated {
        writeln!(w, "{}(some diffs cut at 200 lines){}", p.dim, p.reset)?;
    }
    let would = if r.check || r.dry_run {
        "would be "
    } else {
        ""
    };
    for f in &r.files {
        write!(w, "{would}{} ", f.action)?;
        if let Some(src) = &f.source {
            Shown::new(&cfg.cwd, &f.typed, src).write_to(w)?;
            w.write_all(b" -> ")?;
        }
        Shown::new(&cfg.cwd, &f.typed, &f.path).write_to(w)?;
        if f.replaced {
            w.write_all(b" (replacing the existing file)")?;
        }
        if r.check {
            writeln!(w)?;
        } else {
            writeln!(w, ": +{} -{} lines", f.added, f.removed)?;
        }
    }
    let n = r.files.len();
    let verb = match (r.op, r.check, r.dry_run) {
        ("undo", _, true) => "would undo",
        ("undo", _, false) => "undone",
        (_, true, _) => "the patch applies",
        (_, _, true) => "the patch would apply",
        _ => "applied",
    };
    writeln!(
        w,
        "{}{verb}: {n} file{}{}{}",
        p.bold,
        if n == 1 { "" } else { "s" },
        if r.matched_fuzzily {
            ", matched fuzzily"
        } else {
            ""
        },
        p.reset
    )
}

/// `copied a.bin -> b.bin (2.0 GiB in 1.9 s, copy)`: the paths as typed, the size and the
/// time in units for people (the JSON has the exact byte count).
fn transfer(w: &mut dyn Write, cfg: &OutputConfig, r: &TransferReport) -> io::Result<()> {
    let verb = if r.source_removed { "moved" } else { "copied" };
    let time = if r.method == "rename" {
        String::new()
    } else {
        format!(" in {}", human_duration(r.elapsed))
    };
    write!(w, "{verb} ")?;
    Shown::new(&cfg.cwd, &r.typed, &r.source).write_to(w)?;
    w.write_all(b" -> ")?;
    Shown::new(&cfg.cwd, &r.typed, &r.destination).write_to(w)?;
    writeln!(w, " ({}{time}, {})", human_bytes(r.bytes), r.method)?;
    if let Some(why) = &r.source_kept_reason {
        writeln!(w, "source kept: {why}")?;
    }
    Ok(())
}

/// A size in binary units: `512 B`, `1.5 KiB`, `2.0 GiB`.
pub(crate) fn human_bytes(n: u64) -> String {
    const UNITS: [&str; 6] = ["KiB", "MiB", "GiB", "TiB", "PiB", "EiB"];
    if n < 1024 {
        return format!("{n} B");
    }
    let mut v = n as f64 / 1024.0;
    let mut unit = 0;
    while v >= 1023.95 && unit + 1 < UNITS.len() {
        v /= 1024.0;
        unit += 1;
    }
    format!("{v:.1} {}", UNITS[unit])
}

/// A duration for people: `35 ms`, `1.9 s`, `42 s`, `3 min 5 s`, `2 h 1 min`.
pub(crate) fn human_duration(d: Duration) -> String {
    let secs = d.as_secs_f64();
    if secs < 1.0 {
        format!("{} ms", d.as_millis())
    } else if secs < 9.95 {
        format!("{secs:.1} s")
    } else if secs < 60.0 {
        format!("{secs:.0} s")
    } else {
        let s = d.as_secs();
        if s < 3600 {
            format!("{} min {} s", s / 60, s % 60)
        } else {
            format!("{} h {} min", s / 3600, s % 3600 / 60)
        }
    }
}

fn state(w: &mut dyn Write, cfg: &OutputConfig, r: &StateReport) -> io::Result<()> {
    state_lines(w, cfg, r)?;
    if let Some(k) = &r.kept {
        writeln!(
            w,
            "kept reads: {} version{}, {} of {}{}",
            k.versions,
            if k.versions == 1 { "" } else { "s" },
            human_bytes(k.bytes),
            human_bytes(k.budget),
            if k.on { "" } else { " (keeping is off)" }
        )?;
    }
    Ok(())
}

/// The sessions, the baselines, or what `forget`/`clear` did: one line each.
fn state_lines(w: &mut dyn Write, cfg: &OutputConfig, r: &StateReport) -> io::Result<()> {
    if let Some(sessions) = &r.sessions {
        for s in sessions {
            writeln!(
                w,
                "{}\t{} baselines\tlast used {}",
                s.session, s.baselines, s.last_used
            )?;
        }
        return Ok(());
    }
    let anywhere = AsTyped::default();
    match (&r.path, r.forgotten, &r.message) {
        // forget: the name as its bytes, like every name on stdout.
        (Some(path), Some(forgotten), _) => {
            w.write_all(if forgotten {
                b"forgot "
            } else {
                b"no baseline for "
            })?;
            Shown::new(&cfg.cwd, &anywhere, path).write_to(w)?;
            writeln!(w)?;
        }
        (_, _, Some(msg)) => writeln!(w, "{msg}")?,
        _ => {}
    }
    for f in r.baselines.iter().flatten() {
        write!(
            w,
            "{}  {}  {}  ",
            &f.sha256[..f.sha256.len().min(12)],
            f.read_at,
            if f.complete { "complete" } else { "partial " },
        )?;
        Shown::new(&cfg.cwd, &anywhere, &f.path).write_to(w)?;
        writeln!(w)?;
    }
    Ok(())
}

/// An error as stderr shows it: `quill: error: MESSAGE`, extra detail for edit misses, then
/// the hint.
pub(crate) fn render_error(e: &mut dyn Write, err: &Error, p: &Palette) {
    let _ = writeln!(e, "{}quill: error{}: {err}", p.red, p.reset);
    if let Error::Usage { detail, .. } = err
        && let Some(usage) = &detail.usage
    {
        for (i, line) in usage.lines().enumerate() {
            let label = if i == 0 { "usage:" } else { "      " };
            let _ = writeln!(e, "  {label} {line}");
        }
    }
    if let Error::EditNoMatch {
        difference, window, ..
    } = err
    {
        if !err.to_string().contains(difference.as_str()) {
            let _ = writeln!(e, "  {difference}");
        }
        if let Some(win) = window {
            let _ = writeln!(e, "  closest passage in the file:");
            for (i, line) in win.text.lines().enumerate() {
                let n = win.start_line + i;
                let _ = writeln!(e, "{}{n:>6}{}\t{line}", p.dim, p.reset);
            }
        }
    }
    // Every problem of a rejected patch, each with its kind, its passage and its fix.
    if let Error::PatchRejected { problems, .. } = err {
        for pr in problems {
            let _ = writeln!(e, "  {}{}{}: {}", p.bold, pr.kind, p.reset, pr.message);
            if let Some(d) = pr.difference.as_ref().filter(|d| !d.is_empty()) {
                let _ = writeln!(e, "    {d}");
            }
            if let Some(win) = &pr.window {
                let _ = writeln!(e, "    closest passage in the file:");
                for (i, line) in win.text.lines().enumerate() {
                    let n = win.start_line + i;
                    let _ = writeln!(e, "{}{n:>8}{}\t{line}", p.dim, p.reset);
                }
            }
            if let Some(change) = &pr.change {
                render_change(e, change, "    ");
            }
            if let Some(h) = &pr.hint {
                let _ = writeln!(e, "{}    fix: {h}{}", p.dim, p.reset);
            }
        }
    }
    if let Error::Stale {
        change: Some(change),
        ..
    } = err
    {
        render_change(e, change, "  ");
    }
    if let Error::Stale {
        change_unavailable: Some(why),
        ..
    } = err
    {
        let _ = writeln!(e, "  no diff of the change: {why}");
    }
    if let Some(hint) = err.hint() {
        let _ = writeln!(e, "{}  hint: {hint}{}", p.dim, p.reset);
    }
}

/// A `stale` answer's change since the version the session knows: a line, then the diff.
fn render_change(e: &mut dyn Write, change: &crate::report::OutsideChange, indent: &str) {
    let _ = writeln!(
        e,
        "{indent}the change since the session's {} (+{} -{} lines{}):",
        change.since_words(),
        change.added,
        change.removed,
        if change.diff_truncated { ", cut" } else { "" }
    );
    for line in change.diff.lines() {
        let _ = writeln!(e, "{indent}{line}");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_and_times_for_people() {
        assert_eq!(human_bytes(0), "0 B");
        assert_eq!(human_bytes(1023), "1023 B");
        assert_eq!(human_bytes(1536), "1.5 KiB");
        assert_eq!(human_bytes(2 << 30), "2.0 GiB");
        assert_eq!(human_bytes((1 << 20) - 1), "1.0 MiB");
        assert_eq!(human_duration(Duration::from_millis(35)), "35 ms");
        assert_eq!(human_duration(Duration::from_millis(1900)), "1.9 s");
        assert_eq!(human_duration(Duration::from_secs(42)), "42 s");
        assert_eq!(human_duration(Duration::from_secs(185)), "3 min 5 s");
        assert_eq!(human_duration(Duration::from_secs(7260)), "2 h 1 min");
    }
}
