//! Text output for people: `cat -n`-style reads, colored diffs with a summary line, state
//! listings, and errors with their hint on stderr. Glob and grep have their own renderers in
//! `output::search`. Colors come from `palette`.

use std::io::{self, Write};

use super::OutputConfig;
pub use super::palette::Palette;
use crate::error::Error;
use crate::report::{GrepBody, MutationReport, ReadReport, Report, StateReport, TransferReport};

pub fn render(
    w: &mut dyn Write,
    cfg: &OutputConfig,
    report: &Report,
    p: &Palette,
) -> io::Result<()> {
    match report {
        Report::Read(r) => read(w, r, p),
        Report::Mutation(r) => mutation(w, cfg, r, p),
        Report::Glob(r) => super::search::render_glob(w, cfg, r, p),
        Report::Grep(r) => {
            super::search::render_grep(w, cfg, r, p)?;
            // Several PATHs, some missing: an error line each, after the results (as rg).
            if let GrepBody::Search(s) = &r.body
                && !s.missing.is_empty()
            {
                w.flush()?;
                let p = Palette::new(cfg.color_stderr);
                for e in &s.missing {
                    render_error(e, &p);
                }
            }
            Ok(())
        }
        Report::Transfer(r) => transfer(w, cfg, r),
        Report::State(r) => state(w, cfg, r),
        Report::Generated(s) => w.write_all(s.as_bytes()),
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

/// A unified diff, colored by line prefix.
pub fn diff(w: &mut dyn Write, diff: &str, p: &Palette) -> io::Result<()> {
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
    let shown = crate::paths::display(&cfg.cwd, &r.path);
    let verb = match (r.dry_run, r.created, r.op) {
        (true, _, _) => "would change",
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
    writeln!(
        w,
        "{}{verb} {shown}{}: {} bytes, +{} -{} lines{extra}",
        p.bold, p.reset, r.bytes, r.added, r.removed
    )
}

fn transfer(w: &mut dyn Write, cfg: &OutputConfig, r: &TransferReport) -> io::Result<()> {
    let verb = if r.source_removed { "moved" } else { "copied" };
    writeln!(
        w,
        "{verb} {} -> {} ({} bytes, {})",
        crate::paths::display(&cfg.cwd, &r.source),
        crate::paths::display(&cfg.cwd, &r.destination),
        r.bytes,
        r.method
    )?;
    if let Some(why) = &r.source_kept_reason {
        writeln!(w, "source kept: {why}")?;
    }
    Ok(())
}

fn state(w: &mut dyn Write, cfg: &OutputConfig, r: &StateReport) -> io::Result<()> {
    if let Some(sessions) = &r.sessions {
        for s in sessions {
            writeln!(
                w,
                "{}\t{} files\tlast used {}",
                s.session, s.files, s.last_used
            )?;
        }
        return Ok(());
    }
    if let Some(msg) = &r.message {
        writeln!(w, "{msg}")?;
    }
    for f in r.files.iter().flatten() {
        writeln!(
            w,
            "{}  {}  {}  {}",
            &f.sha256[..f.sha256.len().min(12)],
            f.read_at,
            if f.complete { "complete" } else { "partial " },
            crate::paths::display(&cfg.cwd, &f.path)
        )?;
    }
    Ok(())
}

/// An error on stderr: `quill: error: MESSAGE`, extra detail for edit misses, then the hint.
pub fn render_error(err: &Error, p: &Palette) {
    let mut e = io::stderr().lock();
    let _ = writeln!(e, "{}quill: error{}: {err}", p.red, p.reset);
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
    if let Some(hint) = err.hint() {
        let _ = writeln!(e, "{}  hint: {hint}{}", p.dim, p.reset);
    }
}
