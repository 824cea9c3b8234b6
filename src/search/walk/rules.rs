//! ripgrep's ignore rules for a walk that lists directories itself (`walk::parallel`): the
//! chain of per-directory matchers (`.ignore`, `.gitignore` inside a repository,
//! `.git/info/exclude`, the global gitignore, the directories above the walk's root) and the
//! decision to skip an entry, in the order and with the paths the `ignore` crate's walker
//! uses — built from `ignore`'s public matchers (`Gitignore`, `Override`, `Types`), so a
//! pattern means here what it means to rg. What a directory holds is read from its listing:
//! no probe for `.git`, `.jj`, `.ignore` or `.gitignore` where the listing says there is
//! none. A differential test holds the two walkers to the same answer.

use std::ffi::OsStr;
use std::fs;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use ignore::Match;
use ignore::gitignore::{Gitignore, GitignoreBuilder};
use ignore::overrides::Override;
use ignore::types::Types;

/// What every directory of a walk shares.
pub(crate) struct Rules {
    /// Ignore files, `.git/info/exclude`, the global gitignore and the parents' rules
    /// (ripgrep's defaults; all off with `--no-ignore`).
    honor: bool,
    /// Skip hidden entries.
    hidden: bool,
    /// Skip `.git` directories below the roots.
    skip_git: bool,
    overrides: Option<Override>,
    types: Option<Types>,
    global: Gitignore,
}

impl Rules {
    pub(crate) fn new(
        honor: bool,
        hidden: bool,
        skip_git: bool,
        overrides: Option<Override>,
        types: Option<Types>,
    ) -> Rules {
        // Like `WalkBuilder`: relative to the working directory; none when it is unknown.
        let global = match std::env::current_dir() {
            Ok(cwd) if honor => GitignoreBuilder::new(cwd).build_global().0,
            _ => Gitignore::empty(),
        };
        Rules {
            honor,
            hidden,
            skip_git,
            overrides: overrides.filter(|o| !o.is_empty()),
            types: types.filter(|t| !t.is_empty()),
            global,
        }
    }
}

/// Which of the files that bring rules a directory's listing holds.
#[derive(Debug, Default, Clone, Copy)]
pub(crate) struct Found {
    ignore: bool,
    gitignore: bool,
    git: bool,
    jj: bool,
}

impl Found {
    /// Every one of them, to be probed (a directory above the root, not listed).
    fn probe() -> Found {
        Found {
            ignore: true,
            gitignore: true,
            git: true,
            jj: true,
        }
    }

    pub(crate) fn see(&mut self, name: &OsStr) {
        match name.as_encoded_bytes() {
            b".ignore" => self.ignore = true,
            b".gitignore" => self.gitignore = true,
            b".git" => self.git = true,
            b".jj" => self.jj = true,
            _ => {}
        }
    }
}

/// The rules of one directory, and of those above it (`parent`).
pub(crate) struct Level {
    ignore: Gitignore,
    git_ignore: Gitignore,
    git_exclude: Gitignore,
    /// The directory holds a repository (`.git` or `.jj`).
    has_git: bool,
    /// It or a directory above it does.
    any_git: bool,
    /// A directory above the root (matched with absolute paths).
    absolute: bool,
    parent: Option<Arc<Level>>,
}

/// The rules of a walk from one root: the levels above it and what the matching of those
/// needs.
pub(crate) struct Top {
    rules: Arc<Rules>,
    /// The root as given (entries' paths start with it).
    dir: PathBuf,
    /// The root made absolute, when a directory above it has rules.
    absolute_base: Option<PathBuf>,
    /// The levels above the root (None: the walk needs none).
    above: Option<Arc<Level>>,
}

impl Top {
    /// The rules above `root` (ripgrep reads the ignore files of the directories above the
    /// one it searches, up to `/`).
    pub(crate) fn new(rules: Arc<Rules>, root: &Path) -> Top {
        let mut top = Top {
            rules,
            dir: root.to_path_buf(),
            absolute_base: None,
            above: None,
        };
        if !top.rules.honor {
            return top;
        }
        let Ok(abs) = root.canonicalize() else {
            return top;
        };
        let mut parents: Vec<&Path> = abs.ancestors().skip(1).collect();
        parents.reverse();
        let mut level: Option<Arc<Level>> = None;
        let mut with_rules = false;
        for dir in parents {
            let mut l = top.level(level.as_ref(), dir, Found::probe());
            l.absolute = true;
            with_rules |=
                !(l.ignore.is_empty() && l.git_ignore.is_empty() && l.git_exclude.is_empty());
            level = Some(Arc::new(l));
        }
        top.above = level;
        if with_rules {
            top.absolute_base = Some(abs);
        }
        top
    }

    /// The level of the root itself.
    pub(crate) fn root_level(&self, found: Found) -> Arc<Level> {
        Arc::new(self.level(self.above.as_ref(), &self.dir, found))
    }

    /// The level of `dir` below `parent`: the parent's own when `dir` brings nothing.
    pub(crate) fn child_level(&self, parent: &Arc<Level>, dir: &Path, found: Found) -> Arc<Level> {
        if !self.rules.honor || !(found.ignore || found.gitignore || found.git || found.jj) {
            return parent.clone();
        }
        let l = self.level(Some(parent), dir, found);
        if !l.has_git && l.ignore.is_empty() && l.git_ignore.is_empty() && l.git_exclude.is_empty()
        {
            return parent.clone();
        }
        Arc::new(l)
    }

    fn level(&self, parent: Option<&Arc<Level>>, dir: &Path, found: Found) -> Level {
        let honor = self.rules.honor;
        let git_type = (honor && found.git)
            .then(|| fs::metadata(dir.join(".git")).ok().map(|m| m.file_type()))
            .flatten();
        let has_jj = honor && found.jj && dir.join(".jj").exists();
        let has_git = honor && (git_type.is_some() || has_jj);
        let file = |yes: bool, from: &Path, name: &str| {
            if honor && yes {
                from_file(dir, &from.join(name))
            } else {
                Gitignore::empty()
            }
        };
        let git_exclude = match (honor && found.git)
            .then(|| git_common_dir(dir, git_type))
            .flatten()
        {
            Some(git_dir) => file(true, &git_dir, "info/exclude"),
            None => Gitignore::empty(),
        };
        Level {
            ignore: file(found.ignore, dir, ".ignore"),
            git_ignore: file(found.gitignore, dir, ".gitignore"),
            git_exclude,
            has_git,
            any_git: has_git || parent.is_some_and(|p| p.any_git),
            absolute: false,
            parent: parent.cloned(),
        }
    }

    /// Whether the walk passes over the entry `path` (`name` its last component) of a
    /// directory whose rules are `level`: what `ignore`'s walker decides, in its order —
    /// overrides, then ignore files, then types; a hidden name when none of them spoke; then
    /// `.git`.
    pub(crate) fn skips(&self, level: &Level, path: &Path, name: &OsStr, is_dir: bool) -> bool {
        let r = &self.rules;
        let path = path.strip_prefix("./").unwrap_or(path);
        let m = self.matched(level, path, is_dir);
        if m.is_ignore() {
            return true;
        }
        if m.is_none() && r.hidden && name.as_encoded_bytes().starts_with(b".") {
            return true;
        }
        r.skip_git && name == ".git"
    }

    fn matched(&self, level: &Level, path: &Path, is_dir: bool) -> Match<()> {
        let r = &self.rules;
        if let Some(o) = &r.overrides {
            let m = o.matched(path, is_dir);
            if !m.is_none() {
                return unit(m);
            }
        }
        let mut whitelisted = Match::None;
        if r.honor {
            let m = self.matched_ignore(level, path, is_dir);
            if m.is_ignore() {
                return m;
            } else if m.is_whitelist() {
                whitelisted = m;
            }
        }
        if let Some(t) = &r.types {
            let m = unit(t.matched(path, is_dir));
            if m.is_ignore() {
                return m;
            } else if m.is_whitelist() {
                whitelisted = m;
            }
        }
        whitelisted
    }

    /// `ignore`'s `Ignore::matched_ignore`: the nearest directory's rules first, each kind
    /// of file on its own; `.gitignore` and `exclude` only up to the repository's top.
    fn matched_ignore(&self, level: &Level, path: &Path, is_dir: bool) -> Match<()> {
        let any_git = level.any_git;
        let mut m = [Match::None, Match::None, Match::None];
        let mut saw_git = false;
        let mut step = |l: &Level, p: &Path| {
            if m[0].is_none() {
                m[0] = unit(l.ignore.matched(p, is_dir));
            }
            if any_git && !saw_git {
                if m[1].is_none() {
                    m[1] = unit(l.git_ignore.matched(p, is_dir));
                }
                if m[2].is_none() {
                    m[2] = unit(l.git_exclude.matched(p, is_dir));
                }
            }
            saw_git |= l.has_git;
        };
        let mut cur = Some(level);
        while let Some(l) = cur.filter(|l| !l.absolute) {
            step(l, path);
            cur = l.parent.as_deref();
        }
        if let Some(base) = &self.absolute_base {
            // The path below the root, joined to the root made absolute.
            let rel = if self.dir == Path::new(".") {
                path
            } else {
                let top = self.dir.strip_prefix("./").unwrap_or(&self.dir);
                let rel = path.strip_prefix(top).unwrap_or(path);
                rel.strip_prefix("/").unwrap_or(rel)
            };
            let abs = base.join(rel);
            while let Some(l) = cur {
                step(l, &abs);
                cur = l.parent.as_deref();
            }
        }
        let global = if any_git {
            unit(self.rules.global.matched(path, is_dir))
        } else {
            Match::None
        };
        let [i, g, x] = m;
        i.or(g).or(x).or(global)
    }
}

fn unit<T>(m: Match<T>) -> Match<()> {
    match m {
        Match::None => Match::None,
        Match::Ignore(_) => Match::Ignore(()),
        Match::Whitelist(_) => Match::Whitelist(()),
    }
}

/// The rules of one ignore file, relative to `dir`, as `ignore` reads it: the lines it could
/// read and parse (a missing file brings none; a set that does not build, none).
fn from_file(dir: &Path, file: &Path) -> Gitignore {
    let mut b = GitignoreBuilder::new(dir);
    let _ = b.add(file);
    b.build().unwrap_or_else(|_| {
        GitignoreBuilder::new(dir)
            .build()
            .unwrap_or(Gitignore::empty())
    })
}

/// Where `.git/info/exclude` lives: `.git` itself, or for a worktree (`.git` a file saying
/// `gitdir: …`) the common directory its `commondir` names (`ignore`'s
/// `resolve_git_commondir`).
fn git_common_dir(dir: &Path, git_type: Option<fs::FileType>) -> Option<PathBuf> {
    let git = dir.join(".git");
    if !git_type.is_some_and(|t| t.is_file()) {
        return Some(git);
    }
    let first_line = |p: &Path| -> Option<String> {
        let text = fs::read_to_string(p).ok()?;
        Some(text.lines().next()?.to_string())
    };
    let real = PathBuf::from(first_line(&git)?.strip_prefix("gitdir: ")?);
    let common = first_line(&real.join("commondir"))?;
    Some(if common.starts_with('.') {
        real.join(common)
    } else {
        PathBuf::from(common)
    })
}
