//! The session file's lines against a temporary directory (docs/model.md#the-session-file):
//! an update appends one line, past the bound (or for a change a line cannot say) it writes
//! the file whole, a line that is not whole is ignored and then written over, files of the
//! earlier one-line format are read, and the cache is used only for the very file it holds.

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Duration;

use super::*;

use super::tests::baseline;

struct Fixture {
    _tmp: tempfile::TempDir,
    dir: PathBuf,
    warnings: Warnings,
    cache: Cache,
}

fn fixture() -> Fixture {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("state");
    Fixture {
        _tmp: tmp,
        dir,
        warnings: Warnings::default(),
        cache: Cache::default(),
    }
}

impl Fixture {
    /// A store without a cache (another process, as far as the cache knows).
    fn plain(&self) -> Store<'_> {
        Store::open(&self.dir, Duration::from_secs(5), &self.warnings)
    }

    fn cached(&self) -> Store<'_> {
        self.plain().with_cache(&self.cache)
    }

    fn file(&self) -> PathBuf {
        self.plain().session("a").file.clone()
    }

    fn lines(&self) -> Vec<String> {
        fs::read_to_string(self.file())
            .unwrap()
            .split_inclusive('\n')
            .map(str::to_string)
            .collect()
    }

    fn sha(&self, path: &str) -> Option<String> {
        let session = self.plain().session("a").load().unwrap();
        session.baseline(Path::new(path)).map(|b| b.sha256)
    }
}

fn record(store: &Store, path: &str, sha: &str) {
    store
        .session("a")
        .update(|s| s.record(baseline(path, sha)))
        .unwrap();
}

#[test]
fn an_update_appends_a_line_that_the_next_load_replays() {
    let f = fixture();
    record(&f.plain(), "/w/x", "aa");
    assert_eq!(f.lines().len(), 1, "a new session is written whole");
    assert!(f.lines()[0].ends_with('\n'));
    let first = f.lines()[0].clone();
    record(&f.plain(), "/w/y", "bb");
    record(&f.plain(), "/w/x", "a2");
    let lines = f.lines();
    assert_eq!(lines.len(), 3, "{lines:?}");
    assert_eq!(lines[0], first, "the first line stays as it was");
    assert!(lines[1].contains("\"delta\"") && lines[1].contains("/w/y"));
    assert_eq!(f.sha("/w/x").as_deref(), Some("a2"));
    assert_eq!(f.sha("/w/y").as_deref(), Some("bb"));
    let listed = f.plain().list_sessions().unwrap();
    assert_eq!((listed[0].0.as_str(), listed[0].1), ("a", 2));
    // Nothing changed: nothing written.
    f.plain().session("a").update(|_| ()).unwrap();
    assert_eq!(f.lines().len(), 3);
    assert!(f.warnings.take().is_empty());
}

#[test]
fn past_the_bound_the_file_is_written_whole() {
    let f = fixture();
    record(&f.plain(), "/w/x", "aa");
    let mut appended = 0;
    for i in 0..400 {
        record(&f.plain(), &format!("/w/f{i}"), "bb");
        let lines = f.lines();
        if lines.len() == 1 {
            break;
        }
        appended = lines.len() - 1;
    }
    let bound = appended_bound(f.lines()[0].len() as u64) as usize;
    assert!(appended > 10, "{appended} lines were appended before it");
    assert!(fs::metadata(f.file()).unwrap().len() < bound as u64 * 2);
    assert_eq!(f.sha("/w/f0").as_deref(), Some("bb"));
    assert_eq!(f.sha("/w/x").as_deref(), Some("aa"));
    // The bound: an eighth of the first line, at least 8 KiB.
    assert_eq!(appended_bound(1000), 8 * 1024);
    assert_eq!(appended_bound(400 * 1024), 50 * 1024);
}

#[test]
fn a_line_that_is_not_whole_is_ignored_and_the_next_update_writes_the_file_whole() {
    let f = fixture();
    record(&f.plain(), "/w/x", "aa");
    record(&f.plain(), "/w/y", "bb");
    let whole = fs::read(f.file()).unwrap();
    // A kill in the middle of an append: half a line.
    record(&f.plain(), "/w/z", "cc");
    let mut torn = fs::read(f.file()).unwrap();
    torn.truncate(whole.len() + (torn.len() - whole.len()) / 2);
    fs::write(f.file(), &torn).unwrap();
    assert_eq!(f.sha("/w/y").as_deref(), Some("bb"));
    assert_eq!(f.sha("/w/z"), None, "half a line counts for nothing");
    assert!(f.warnings.take().is_empty(), "and is no corruption");
    record(&f.plain(), "/w/w", "dd");
    assert_eq!(f.lines().len(), 1, "written whole, the torn line gone");
    assert_eq!(f.sha("/w/y").as_deref(), Some("bb"));
    assert_eq!(f.sha("/w/w").as_deref(), Some("dd"));
    assert_eq!(f.sha("/w/z"), None);
    // A line that does not match its hash ends the replay, and what follows it with it.
    record(&f.plain(), "/w/v", "ee");
    record(&f.plain(), "/w/u", "ff");
    let text = fs::read_to_string(f.file()).unwrap();
    fs::write(f.file(), text.replacen("\"ee\"", "\"ef\"", 1)).unwrap();
    assert_eq!(f.sha("/w/v"), None);
    assert_eq!(f.sha("/w/u"), None);
    assert_eq!(f.sha("/w/w").as_deref(), Some("dd"));
}

#[test]
fn a_file_of_one_line_without_a_newline_or_of_json_over_lines_is_read() {
    let f = fixture();
    f.plain().ensure_dirs().unwrap();
    let old = r#"{"version":1,"session":"a","clock":3,"files":{"/w/x":{"sha256":"aa","size":0,"dev":0,"ino":0,"mtimeNs":0,"ctimeNs":0,"readAtNs":0,"complete":true,"used":3}}}"#;
    fs::write(f.file(), old).unwrap();
    assert_eq!(f.sha("/w/x").as_deref(), Some("aa"));
    record(&f.plain(), "/w/y", "bb");
    let lines = f.lines();
    assert_eq!(
        lines.len(),
        1,
        "no line is appended to it: it is written whole"
    );
    assert!(lines[0].ends_with('\n'));
    assert_eq!(f.sha("/w/x").as_deref(), Some("aa"));
    assert_eq!(f.plain().session("a").load().unwrap().clock, 4);
    let pretty =
        serde_json::to_string_pretty(&serde_json::from_str::<serde_json::Value>(old).unwrap())
            .unwrap();
    assert!(pretty.lines().count() > 3);
    fs::write(f.file(), pretty).unwrap();
    assert_eq!(f.sha("/w/x").as_deref(), Some("aa"));
    record(&f.plain(), "/w/y", "bb");
    assert_eq!(f.lines().len(), 1, "{:?}", f.lines());
    assert_eq!(f.sha("/w/y").as_deref(), Some("bb"));
    assert!(f.warnings.take().is_empty());
}

#[test]
fn a_forget_and_a_removal_mark_write_the_file_whole() {
    let f = fixture();
    record(&f.plain(), "/w/x", "aa");
    record(&f.plain(), "/w/y", "bb");
    assert_eq!(f.lines().len(), 2);
    f.plain()
        .session("a")
        .update(|s| {
            s.forget(Path::new("/w/y"));
            s.write_whole();
        })
        .unwrap();
    let lines = f.lines();
    assert_eq!(lines.len(), 1);
    assert!(!lines[0].contains("/w/y"), "forgotten, not masked");
    record(&f.plain(), "/w/z", "cc");
    f.plain()
        .session("a")
        .update(|s| s.mark_removing(Path::new("/w/z"), "cc"))
        .unwrap();
    assert_eq!(f.lines().len(), 1);
    assert!(
        f.plain()
            .session("a")
            .load()
            .unwrap()
            .is_removing(Path::new("/w/z"))
    );
}

/// The cache serves an update only for the very file it holds: a file another process
/// replaced is read anew, one it appended to has the new lines replayed.
#[test]
fn the_cache_holds_only_for_the_very_file() {
    let f = fixture();
    record(&f.plain(), "/w/x", "aa");
    let peeked = f
        .cached()
        .session("a")
        .peek(|s| s.baseline(Path::new("/w/x")).map(|b| b.sha256))
        .unwrap();
    assert_eq!(peeked.as_deref(), Some("aa"));
    // Another process appends a line: a cached update replays it, so that what it writes
    // whole holds it too.
    record(&f.plain(), "/w/y", "bb");
    f.cached()
        .session("a")
        .update(|s| {
            s.record(baseline("/w/z", "cc"));
            s.write_whole();
        })
        .unwrap();
    assert_eq!(f.lines().len(), 1);
    assert_eq!(f.sha("/w/y").as_deref(), Some("bb"), "its line is kept");
    assert_eq!(f.sha("/w/z").as_deref(), Some("cc"));
    // Another process writes the file whole (here: a forget).
    f.plain()
        .session("a")
        .update(|s| {
            s.forget(Path::new("/w/x"));
            s.write_whole();
        })
        .unwrap();
    record(&f.cached(), "/w/w", "dd");
    assert_eq!(
        f.sha("/w/x"),
        None,
        "the cached session was not written back"
    );
    assert_eq!(f.sha("/w/w").as_deref(), Some("dd"));
    // The cache after its own writes: a line appended by a cached update is seen by the
    // next cached one (and by others).
    record(&f.cached(), "/w/v", "ee");
    record(&f.cached(), "/w/u", "ff");
    for (path, sha) in [
        ("/w/z", "cc"),
        ("/w/w", "dd"),
        ("/w/v", "ee"),
        ("/w/u", "ff"),
    ] {
        assert_eq!(f.sha(path).as_deref(), Some(sha), "{path}");
    }
    // A line seen while it was being written (not whole yet), then completed: replayed from
    // where the whole lines ended.
    let before = f.lines().len();
    f.plain()
        .session("a")
        .update(|s| s.record(baseline("/w/t", "gg")))
        .unwrap();
    let text = fs::read_to_string(f.file()).unwrap();
    let last = text.lines().last().unwrap().to_string();
    let cut = text.len() - last.len() - 1 + last.len() / 2;
    fs::write(f.file(), &text[..cut]).unwrap();
    f.cached().session("a").peek(|_| ()).unwrap();
    assert_eq!(f.sha("/w/t"), None, "half a line counts for nothing");
    let mut file = fs::OpenOptions::new().append(true).open(f.file()).unwrap();
    file.write_all(&text.as_bytes()[cut..]).unwrap();
    f.cached()
        .session("a")
        .update(|s| {
            s.record(baseline("/w/s", "hh"));
            s.write_whole();
        })
        .unwrap();
    assert_eq!(f.sha("/w/t").as_deref(), Some("gg"));
    assert_eq!(f.sha("/w/s").as_deref(), Some("hh"));
    assert!(before > 1 && f.lines().len() == 1);
    // The same file made shorter (by hand: quill never does): read anew, not taken from the
    // cache.
    record(&f.cached(), "/w/r", "ii");
    let text = fs::read_to_string(f.file()).unwrap();
    let last = text.lines().last().unwrap().len() + 1;
    fs::write(f.file(), &text[..text.len() - last]).unwrap();
    f.cached()
        .session("a")
        .update(|s| {
            s.record(baseline("/w/q", "jj"));
            s.write_whole();
        })
        .unwrap();
    assert_eq!(f.sha("/w/r"), None, "its line was cut");
    assert_eq!(f.sha("/w/q").as_deref(), Some("jj"));
    assert!(f.warnings.take().is_empty());
}
