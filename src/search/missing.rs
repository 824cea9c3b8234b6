//! Why a path does not exist, and which one was probably meant. When a command fails with
//! `not_found`, `explain` looks around the missing path — bounded in entries and time — and
//! fills the error's `Near`: an unexpanded `~` (the shell left it alone, so `$HOME/…` was
//! meant), a path that differs only in letter case, a file of the same name one or two
//! directories away (ignore rules honored, as glob and grep walk), the deepest ancestor that
//! exists, and the similar names `paths::not_found` listed. Its hint is the failed command
//! line with the path replaced, so it can be run as it is. Nothing here is on a success path.

use std::ffi::OsString;
use std::fs;
use std::path::{Component, Path, PathBuf};
use std::time::{Duration, Instant};

use crate::text::shell::{self, glob_escape, shell_word};

use crate::error::Error;
use crate::error::near::{Near, Suggestion};
use crate::fs::paths::{self, Root};
use crate::search::walk::{self, WalkOptions};
use crate::settings::Settings;

/// Entries the nearby search may visit, and how long it may take.
const MAX_ENTRIES: usize = 10_000;
const MAX_TIME: Duration = Duration::from_millis(200);
/// A command-line word longer than this is not taken for the path.
const MAX_WORD: usize = 4096;

/// Fill a `not_found` error of `op` with what is near its path (other errors are left
/// alone). The command line is the run's own (`Origin::argv`).
pub(crate) fn explain(s: &Settings, op: &str, err: &mut Error) {
    explain_in(&s.cwd, s.root.as_ref(), op, &s.origin.argv, err);
}

fn explain_in(cwd: &Path, root: Option<&Root>, op: &str, argv: &[OsString], err: &mut Error) {
    let Error::NotFound {
        path,
        similar,
        near,
    } = err
    else {
        return;
    };
    if near.hint.is_some() {
        return;
    }
    let mut look = Look {
        cwd,
        root,
        argv,
        typed: Typed::find(cwd, argv, path),
        missing: paths::absolute_missing(path),
        tilde: None,
    };
    look.expand_tilde();
    let want_dir = op == "glob" || look.typed.as_ref().is_some_and(|t| t.rest.is_some());
    let deadline = Instant::now() + MAX_TIME;
    let exists = fs::symlink_metadata(&look.missing).is_ok();
    if exists && look.tilde.is_none() {
        // It exists now: nothing to explain.
        return;
    }
    if look.tilde.is_some() && !exists {
        *similar = paths::similar_names(&look.missing);
    }
    let case = if exists {
        None
    } else {
        case_fix(&look.missing)
    };
    let search = if exists {
        Search::default()
    } else {
        look.nearby(want_dir, deadline)
    };
    let nearby = search.found.clone();
    let parent = look.missing.parent().unwrap_or(Path::new("/"));
    let ancestor = deepest_existing(parent);
    let similar_paths: Vec<PathBuf> = similar.iter().map(PathBuf::from).collect();
    let guess = if exists {
        look.tilde.as_ref().map(|_| (look.missing.clone(), "tilde"))
    } else {
        case.map(|p| (p, "case"))
            .or_else(|| nearby.first().map(|p| (p.clone(), "nearby")))
            .or_else(|| similar_paths.first().map(|p| (p.clone(), "similar")))
    }
    .filter(|(p, _)| look.inside_root(p));
    let suggestion = guess.map(|(path, reason)| Suggestion {
        call: look.call(&path),
        path,
        reason,
    });
    let existing_ancestor = (ancestor != parent).then(|| ancestor.to_path_buf());
    let others: Vec<&PathBuf> = nearby
        .iter()
        .chain(&similar_paths)
        .filter(|p| suggestion.as_ref().is_none_or(|s| &s.path != *p))
        .take(2)
        .collect();
    let mut hint = look.hint(
        suggestion.as_ref(),
        existing_ancestor.as_deref(),
        &others,
        &search,
    );
    // A missing directory on the way to a file to create, which `--no-parents` kept from being
    // made: the call without it makes it (a likely path meant instead comes first).
    let a_parent = look.typed.as_ref().is_some_and(|t| t.rest.is_some());
    if suggestion.is_none()
        && a_parent
        && let Some(call) = shell::without_flag(argv, "--no-parents")
    {
        hint = format!(
            "--no-parents forbids creating the missing directories; to create them: `{call}`; {hint}"
        );
    }
    **near = Near {
        existing_ancestor,
        nearby,
        suggestion,
        hint: Some(hint),
    };
}

/// The word of the command line that named the missing path.
struct Typed {
    /// Its index in argv.
    index: usize,
    /// It was an absolute path.
    absolute: bool,
    /// What it names below the missing path (a missing parent of a file to create), if the
    /// missing path is not the word's own.
    rest: Option<PathBuf>,
}

impl Typed {
    /// The one word of `argv` that names `missing` or a path below it (none when several do).
    fn find(cwd: &Path, argv: &[OsString], missing: &Path) -> Option<Typed> {
        let targets = [
            paths::normalize_lexically(missing),
            paths::absolute_missing(missing),
        ];
        let mut found = None;
        for (index, word) in argv.iter().enumerate().skip(1) {
            let bytes = word.as_encoded_bytes();
            if bytes.is_empty() || bytes.starts_with(b"-") || bytes.len() > MAX_WORD {
                continue;
            }
            let p = cwd.join(word);
            let forms = [paths::normalize_lexically(&p), paths::absolute_missing(&p)];
            let rest = forms.iter().find_map(|f| {
                targets
                    .iter()
                    .find_map(|t| f.strip_prefix(t).ok().map(Path::to_path_buf))
            });
            if let Some(rest) = rest {
                if found.is_some() {
                    return None;
                }
                found = Some(Typed {
                    index,
                    absolute: Path::new(word).is_absolute(),
                    rest: (!rest.as_os_str().is_empty()).then_some(rest),
                });
            }
        }
        found
    }
}

/// What the nearby search did and found.
#[derive(Default)]
struct Search {
    /// Where it walked (none when it did not: at `/`, or outside the root).
    top: Option<PathBuf>,
    /// It stopped at its bound of entries or time.
    cut: bool,
    found: Vec<PathBuf>,
}

/// One look around a missing path.
struct Look<'a> {
    cwd: &'a Path,
    root: Option<&'a Root>,
    argv: &'a [OsString],
    typed: Option<Typed>,
    /// The path that does not exist: absolute, its existing part resolved; after a `~` was
    /// expanded, the path below `$HOME`.
    missing: PathBuf,
    /// `$HOME/…` as the word would have been, when the word started with an unexpanded `~`.
    tilde: Option<String>,
}

impl Look<'_> {
    /// A word that starts with `~` names a path below `$HOME`: look there instead.
    fn expand_tilde(&mut self) {
        let Some(t) = &self.typed else { return };
        let Some(word) = self.argv[t.index].to_str() else {
            return;
        };
        let below = match word.strip_prefix('~') {
            Some("") => "",
            Some(rest) if rest.starts_with('/') => rest.trim_start_matches('/'),
            _ => return,
        };
        let Some(home) = std::env::var_os("HOME").filter(|h| Path::new(h).is_absolute()) else {
            return;
        };
        let home = PathBuf::from(home);
        let expanded = home.join(below);
        // The missing path is the word's or one of its parents.
        let depth = t.rest.as_ref().map_or(0, |r| r.components().count());
        let mut missing = paths::absolute_missing(&expanded);
        for _ in 0..depth {
            missing.pop();
        }
        self.missing = missing;
        self.tilde = Some(if below.is_empty() {
            "$HOME".into()
        } else {
            format!("$HOME/{below}")
        });
        if let Some(t) = &mut self.typed {
            t.absolute = true;
        }
    }

    fn inside_root(&self, p: &Path) -> bool {
        self.root
            .is_none_or(|r| crate::sys::canonicalize(p).is_ok_and(|c| r.contains(&c)))
    }

    /// Files (or, for a missing parent or a glob PATH, directories) named like the missing
    /// path one or two directories away: below its deepest existing ancestor, or — when its
    /// parent exists — below the parent's parent (not above the current directory), nearest
    /// first, at most 3. The walk honors ignore files and skips hidden entries unless the name
    /// is hidden itself; it stops after `MAX_ENTRIES` entries or at `deadline`.
    fn nearby(&self, want_dir: bool, deadline: Instant) -> Search {
        let mut search = Search::default();
        let (Some(parent), Some(name)) = (self.missing.parent(), self.missing.file_name()) else {
            return search;
        };
        let ancestor = deepest_existing(parent);
        let (top, levels) = match parent.parent() {
            Some(up)
                if ancestor == parent && self.may_climb(parent, up) && self.inside_root(up) =>
            {
                (up, 3)
            }
            _ => (ancestor, 2),
        };
        if top.parent().is_none() || !self.inside_root(top) {
            return search;
        }
        search.top = Some(top.to_path_buf());
        let opts = WalkOptions {
            hidden: name.as_encoded_bytes().starts_with(b"."),
            no_ignore: false,
            follow: false,
        };
        let mut found = Vec::new();
        let mut visited = 0;
        // Shallow first: a depth-first walk would spend the budget in the first subtree.
        'depths: for depth in 1..=levels + 1 {
            let mut b = walk::builder(&[top.to_path_buf()], &opts, self.root);
            b.max_depth(Some(depth));
            for entry in b.build() {
                visited += 1;
                if visited > MAX_ENTRIES || Instant::now() > deadline {
                    search.cut = true;
                    break 'depths;
                }
                let Ok(e) = entry else { continue };
                let is_dir = e.file_type().is_some_and(|t| t.is_dir());
                if e.depth() == depth && e.file_name() == name && (is_dir || !want_dir) {
                    found.push(e.into_path());
                }
            }
            if !found.is_empty() {
                break;
            }
        }
        found.sort_by_key(|p| (distance(parent, p.parent().unwrap_or(p)), p.clone()));
        found.truncate(3);
        search.found = found;
        search
    }

    /// Whether the nearby search may start one level above the missing path's parent: not at
    /// `/`, and not above the current directory when the path is below it.
    fn may_climb(&self, parent: &Path, up: &Path) -> bool {
        up.parent().is_some() && (!parent.starts_with(self.cwd) || up.starts_with(self.cwd))
    }

    /// A path for people: relative to the current directory when below it.
    fn shown(&self, p: &Path) -> String {
        if p == self.cwd {
            ".".into()
        } else {
            paths::display(self.cwd, p)
        }
    }

    /// A directory in a sentence: "the current directory", or as `shown`.
    fn place(&self, p: &Path) -> String {
        if p == self.cwd {
            "the current directory".into()
        } else {
            self.shown(p)
        }
    }

    /// The word that names `replacement` (in place of the missing path) as the typed word did.
    fn word_for(&self, replacement: &Path) -> Option<PathBuf> {
        let t = self.typed.as_ref()?;
        let full = match &t.rest {
            Some(rest) => replacement.join(rest),
            None => replacement.to_path_buf(),
        };
        Some(if t.absolute {
            full
        } else {
            PathBuf::from(self.shown(&full))
        })
    }

    /// The failed command line with the path's word replaced (`shell::replaced`).
    fn call(&self, replacement: &Path) -> Option<String> {
        let t = self.typed.as_ref()?;
        let new = self.word_for(replacement)?;
        shell::replaced(self.argv, t.index, new.as_os_str())
    }

    /// The one line that says what was found and what to run.
    fn hint(
        &self,
        suggestion: Option<&Suggestion>,
        ancestor: Option<&Path>,
        others: &[&PathBuf],
        search: &Search,
    ) -> String {
        let mut out = String::new();
        if let Some(tilde) = &self.tilde {
            out.push_str(&format!(
                "the shell did not expand `~` (it does not inside quotes): {tilde} is {}",
                self.missing.display()
            ));
            match suggestion {
                Some(s) if s.reason == "tilde" => {}
                _ => out.push_str(", which does not exist either; "),
            }
        }
        let Some(s) = suggestion else {
            out.push_str(&self.not_near(ancestor, search));
            return out;
        };
        let shown = self.shown(&s.path);
        match s.reason {
            "tilde" => {}
            "case" => out.push_str(&format!("only the letter case differs from {shown}")),
            "nearby" => out.push_str(&format!("the same name is at {shown}")),
            _ => out.push_str(&format!("did you mean {shown}?")),
        }
        let sep = if s.reason == "similar" { " " } else { ": " };
        match (&s.call, &self.typed) {
            (Some(call), _) => out.push_str(&format!("{sep}`{call}`")),
            (None, Some(t)) => out.push_str(&format!(
                "; repeat the call with {} in place of {}",
                shell_word(&self.word_for(&s.path).unwrap_or_default().to_string_lossy()),
                shell_word(&self.argv[t.index].to_string_lossy()),
            )),
            (None, None) => out.push_str(&format!("{sep}{}", shell_word(&shown))),
        }
        if !others.is_empty() {
            let list: Vec<String> = others.iter().map(|p| self.shown(p)).collect();
            out.push_str(&format!(" (also: {})", list.join(", ")));
        }
        out
    }

    /// The hint when nothing that exists looks like the path: where the path stops existing,
    /// what the nearby search covered, and the glob that finds the name anywhere below.
    fn not_near(&self, ancestor: Option<&Path>, search: &Search) -> String {
        let name = self
            .missing
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let parent = self.missing.parent().unwrap_or(Path::new("/"));
        let mut parts = Vec::new();
        if let Some(a) = ancestor {
            let first_missing = self
                .missing
                .ancestors()
                .find(|p| p.parent() == Some(a))
                .unwrap_or(parent);
            parts.push(if a == self.cwd {
                format!("{} does not exist here", self.shown(first_missing))
            } else {
                format!(
                    "{} does not exist ({} does)",
                    self.shown(first_missing),
                    self.shown(a)
                )
            });
        }
        if let Some(top) = &search.top {
            parts.push(if search.cut {
                format!(
                    "no {name} among the first {MAX_ENTRIES} entries below {}",
                    self.place(top)
                )
            } else {
                format!(
                    "no {name} within two directories of {}",
                    self.place(ancestor.unwrap_or(parent))
                )
            });
        }
        let pattern = shell_word(&format!("**/{}", glob_escape(&name)));
        let base = ancestor.unwrap_or(parent);
        let glob = if self.missing.starts_with(self.cwd) {
            Some(format!("quill glob {pattern}"))
        } else {
            (base.parent().is_some())
                .then(|| format!("quill glob {pattern} {}", shell_word(&self.shown(base))))
        };
        let mut out = parts.join(", and ");
        if let Some(glob) = glob {
            if !out.is_empty() {
                out.push_str("; ");
            }
            out.push_str(&format!("`{glob}` looks everywhere below"));
        }
        out
    }
}

/// `path` with the letter case of the missing components corrected, when each has exactly
/// one entry in its directory that differs from it only in case.
fn case_fix(path: &Path) -> Option<PathBuf> {
    let comps: Vec<Component> = path.components().collect();
    let mut have = PathBuf::new();
    let mut i = 0;
    while i < comps.len() && fs::symlink_metadata(have.join(comps[i])).is_ok() {
        have.push(comps[i]);
        i += 1;
    }
    if i == comps.len() {
        return None;
    }
    for c in &comps[i..] {
        let Component::Normal(name) = c else {
            return None;
        };
        let want = name.to_str()?.to_lowercase();
        let mut hit = None;
        for e in fs::read_dir(&have).ok()?.take(MAX_ENTRIES).flatten() {
            let n = e.file_name();
            if n.to_str().is_some_and(|n| n.to_lowercase() == want) {
                if hit.is_some() {
                    return None;
                }
                hit = Some(n);
            }
        }
        have.push(hit?);
    }
    Some(have)
}

/// The deepest of `path` and its ancestors that is a directory.
fn deepest_existing(path: &Path) -> &Path {
    path.ancestors()
        .find(|p| p.is_dir())
        .unwrap_or(Path::new("/"))
}

/// Steps from directory `a` to directory `b` through their deepest common ancestor.
fn distance(a: &Path, b: &Path) -> usize {
    let common = a
        .components()
        .zip(b.components())
        .take_while(|(x, y)| x == y)
        .count();
    a.components().count() + b.components().count() - 2 * common
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distance_counts_steps_through_the_common_ancestor() {
        let d = |a: &str, b: &str| distance(Path::new(a), Path::new(b));
        assert_eq!(d("/w/src", "/w/src"), 0);
        assert_eq!(d("/w/src", "/w/src/lib"), 1);
        assert_eq!(d("/w/src/a", "/w/src/b"), 2);
        assert_eq!(d("/w", "/w/src/lib"), 2);
    }

    #[test]
    fn case_is_fixed_component_by_component() {
        let dir = tempfile::tempdir().unwrap();
        let base = fs::canonicalize(dir.path()).unwrap();
        fs::create_dir_all(base.join("Src/lib")).unwrap();
        fs::write(base.join("Src/lib/Foo.rs"), b"").unwrap();
        assert_eq!(
            case_fix(&base.join("src/LIB/foo.rs")),
            Some(base.join("Src/lib/Foo.rs"))
        );
        assert_eq!(case_fix(&base.join("src/lib/bar.rs")), None);
        assert_eq!(case_fix(&base.join("Src/lib/Foo.rs")), None);
    }
}
