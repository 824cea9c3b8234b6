//! PDFs, through Poppler's converters: `pdfinfo` decides whether a file is a PDF and counts
//! its pages, `pdftotext` turns the pages asked for into text; each runs with a deadline,
//! and a missing one is a `converter_missing` that names the command installing it.

use std::io::{self, Read};
use std::path::Path;
use std::process::{Command, Stdio};

use crate::error::{Error, Result};

/// PDF pages shown by default.
const DEFAULT_PDF_PAGES: u32 = 20;

/// Text of the selected pages with `pdftotext`; returns (text, first, last, page count).
pub(super) fn pdf_text(
    path: &Path,
    pages: Option<(u32, u32)>,
    count: u32,
) -> Result<(String, u32, u32, u32)> {
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
pub(super) fn pdf_page_count(path: &Path) -> Result<Option<u32>> {
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
