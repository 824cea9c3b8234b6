#!/usr/bin/env python3
"""bench/gen-tree.py: writes the synthetic monorepo that bench/scale.sh searches (through
bench/gen-tree.sh). One process, a seeded RNG, no packages beyond the standard library.

    python3 bench/gen-tree.py DIR [N] [--seed S]

DIR becomes a git repository (`git init`, no commit: enough for quill, rg and fd to honor its
.gitignore files) holding exactly N files (default 1,000,000), laid out like a monorepo:

    packages/ apps/ libs/   one directory per package (Rust, TypeScript, Python or Go): a
                            manifest, README.md, src/** (depth up to 8 below DIR), tests/,
                            assets/*.png (binary), hidden config files (.config/); and ignored build
                            output: target/ (Rust), node_modules/ and dist/ (TypeScript, dist/
                            by a nested .gitignore), build/ and __pycache__/ (Python, Go),
                            debug.log (*.log)
    vendor/                 vendored third-party libraries (searched: not ignored)
    docs/                   Markdown
    data/, vendor/generated 5 large text files of 20-50 MB
    .github/ .vscode/ .cache/   hidden files (.cache/ also ignored)

About 15% of the files are ignored and 1% hidden: the tools must skip both. File sizes are
mostly 1-20 KB of source-like lines (none longer than 200 bytes, so quill's --max-columns cap
never cuts one). Content is cut from per-language pools of generated lines, each file with its
own header line. Two words are planted for grep patterns: COMMON ("TODO", about one line in
400) and RARE ("xyzzy", about one file in 5,000, and once in each large file). Modification
times are spread over two years, deterministically, so newest-first sorts are stable.

Same N and seed, same bytes, names and mtimes. DIR/.quill-scale-tree (written last) records
N, the seed and the totals; a DIR holding a matching marker is reused, any other existing
non-empty DIR is refused (exit 2).
"""

import os
import random
import subprocess
import sys
import time

VERSION = 1
COMMON = "TODO"
RARE = "xyzzy"
MARKER = ".quill-scale-tree"
MTIME_BASE = 1_700_000_000  # 2023-11-14; mtimes fall in the two years after it
MTIME_SPAN = 2 * 365 * 86400

WORDS = (
    "alpha beta gamma delta buffer cache client config context cursor decode encode entry "
    "event field filter frame graph handle header index input item key layer layout list "
    "lock map merge node offset option output packet page parse path peer pool queue range "
    "reader record region request response result route row scope segment server session "
    "shard signal slice socket source span stage state store stream table task token trace "
    "tree value vector view window worker writer account batch block bucket channel chunk "
    "column commit counter domain driver engine factory format group hash image job journal "
    "label ledger limit loader manifest matrix metric module monitor order owner parser "
    "pattern pipeline plugin policy profile query registry report schema selector service "
    "snapshot storage sync target timer topic tracker unit update user version watcher"
).split()
PROSE = (
    "the a of to and in is for on with as by this that be it are from at or an not when "
    "which each only must should returns handles keeps checks builds reads writes sends "
    "holds moves stops starts caller value first last next every other same new old empty "
    "full small large fast slow safe later again before after once twice here there"
).split()
DIRS = (
    "core util net io parser api models handlers services internal common config db auth "
    "cache cli http storage types views components hooks lib pkg cmd server client proto "
    "codec sync fs metrics log widgets render layout store queue jobs events schema query "
    "plugins runtime exec admin billing search index graph stream workers tasks"
).split()
PRIMS = ["u8", "u32", "u64", "i64", "usize", "bool", "f64", "String", "Vec<u8>"]


def camel(rng):
    return rng.choice(WORDS).capitalize() + rng.choice(WORDS).capitalize()


def snake(rng):
    return rng.choice(WORDS) + "_" + rng.choice(WORDS)


def sentence(rng, n=None):
    n = n or rng.randint(4, 11)
    return " ".join(rng.choice(PROSE) if i % 2 else rng.choice(WORDS) for i in range(n))


def rust_line(rng):
    t = rng.randrange(16)
    if t == 0:
        return f"use crate::{rng.choice(DIRS)}::{{{camel(rng)}, {camel(rng)}}};"
    if t == 1:
        return f"pub fn {snake(rng)}(&self, {rng.choice(WORDS)}: &{camel(rng)}) -> Result<{camel(rng)}, Error> {{"
    if t in (2, 3):
        return f"    let {snake(rng)} = self.{snake(rng)}({rng.choice(WORDS)})?;"
    if t == 4:
        return f"    if {rng.choice(WORDS)}.len() > {rng.randint(1, 4096)} {{ return Err(Error::{camel(rng)}); }}"
    if t in (5, 6):
        return "}" if rng.random() < 0.5 else "    }"
    if t == 7:
        return "#[derive(Debug, Clone, PartialEq, Eq)]"
    if t == 8:
        return f"pub struct {camel(rng)} {{"
    if t == 9:
        return f"    pub {snake(rng)}: {rng.choice(PRIMS)},"
    if t == 10:
        return f"impl {camel(rng)} for {camel(rng)} {{"
    if t == 11:
        return f"/// {sentence(rng).capitalize()}."
    if t == 12:
        return f"        {camel(rng)}::{camel(rng)} => self.{snake(rng)}(),"
    if t == 13:
        return f"    // {sentence(rng)}"
    if t == 14:
        return f'    assert_eq!({snake(rng)}("{rng.choice(WORDS)}"), {rng.randint(0, 999)});'
    return ""


def ts_line(rng):
    t = rng.randrange(14)
    if t == 0:
        return f"import {{ {camel(rng)}, {camel(rng)} }} from '../{rng.choice(DIRS)}/{rng.choice(WORDS)}';"
    if t == 1:
        return f"export function {rng.choice(WORDS)}{camel(rng)}({rng.choice(WORDS)}: {camel(rng)}): Promise<{camel(rng)}> {{"
    if t in (2, 3):
        return f"  const {rng.choice(WORDS)}{camel(rng)} = await this.{rng.choice(WORDS)}({rng.choice(WORDS)});"
    if t == 4:
        return f"  if (!{rng.choice(WORDS)}) {{ throw new Error('{sentence(rng, 5)}'); }}"
    if t in (5, 6):
        return "}" if rng.random() < 0.5 else "  }"
    if t == 7:
        return f"export interface {camel(rng)} {{"
    if t == 8:
        return f"  {rng.choice(WORDS)}{camel(rng)}?: {rng.choice(['string', 'number', 'boolean', camel(rng)])};"
    if t == 9:
        return f"/** {sentence(rng).capitalize()}. */"
    if t == 10:
        return f"  // {sentence(rng)}"
    if t == 11:
        return f"    case '{rng.choice(WORDS)}': return {rng.choice(WORDS)}.{rng.choice(WORDS)}();"
    if t == 12:
        return f"  expect({rng.choice(WORDS)}({rng.randint(0, 99)})).toEqual({rng.randint(0, 99)});"
    return ""


def py_line(rng):
    t = rng.randrange(12)
    if t == 0:
        return f"from .{rng.choice(DIRS)} import {camel(rng)}, {snake(rng)}"
    if t == 1:
        return f"def {snake(rng)}(self, {rng.choice(WORDS)}, {rng.choice(WORDS)}=None):"
    if t in (2, 3):
        return f"        {snake(rng)} = self.{snake(rng)}({rng.choice(WORDS)})"
    if t == 4:
        return f"        if not {rng.choice(WORDS)}:\n            raise {camel(rng)}Error('{sentence(rng, 5)}')"
    if t == 5:
        return f"class {camel(rng)}({camel(rng)}):"
    if t == 6:
        return f'    """{sentence(rng).capitalize()}."""'
    if t == 7:
        return f"    # {sentence(rng)}"
    if t == 8:
        return f"        return {rng.choice(WORDS)}.{snake(rng)}()"
    if t == 9:
        return f"    assert {snake(rng)}({rng.randint(0, 99)}) == {rng.randint(0, 99)}"
    return ""


def go_line(rng):
    t = rng.randrange(12)
    if t == 0:
        return f'\t"{rng.choice(["net/http", "fmt", "context", "sync", "io", "errors"])}"'
    if t == 1:
        return f"func (s *{camel(rng)}) {camel(rng)}(ctx context.Context, {rng.choice(WORDS)} {camel(rng)}) error {{"
    if t in (2, 3):
        return f"\t{rng.choice(WORDS)}, err := s.{camel(rng)}(ctx, {rng.choice(WORDS)})"
    if t == 4:
        return f'\tif err != nil {{\n\t\treturn fmt.Errorf("{sentence(rng, 4)}: %w", err)\n\t}}'
    if t == 5:
        return "}"
    if t == 6:
        return f"type {camel(rng)} struct {{"
    if t == 7:
        return f"\t{camel(rng)} {rng.choice(['int', 'string', 'bool', '[]byte', '*' + camel(rng)])}"
    if t == 8:
        return f"// {camel(rng)} {sentence(rng)}."
    if t == 9:
        return f"\t// {sentence(rng)}"
    return ""


def md_line(rng):
    t = rng.randrange(10)
    if t == 0:
        return f"{'#' * rng.randint(2, 4)} {sentence(rng, 4).capitalize()}"
    if t in (1, 2, 3, 4):
        return f"{sentence(rng, rng.randint(8, 24)).capitalize()}."
    if t == 5:
        return f"- `{snake(rng)}`: {sentence(rng)}."
    if t == 6:
        return f"| `{rng.choice(WORDS)}` | {sentence(rng, 4)} | {rng.randint(0, 9999)} |"
    if t == 7:
        return f"See [{rng.choice(WORDS)}](../{rng.choice(DIRS)}/{rng.choice(WORDS)}.md)."
    return ""


def cfg_line(rng):
    t = rng.randrange(6)
    if t == 0:
        return f'  "{rng.choice(WORDS)}_{rng.choice(WORDS)}": "{rng.choice(WORDS)}",'
    if t == 1:
        return f'  "{rng.choice(WORDS)}": {rng.randint(0, 65535)},'
    if t == 2:
        return f"{snake(rng)} = \"{rng.choice(WORDS)}\""
    if t == 3:
        return f"  {rng.choice(WORDS)}: {rng.choice(['true', 'false', str(rng.randint(0, 999))])}"
    if t == 4:
        return f"[{rng.choice(WORDS)}.{rng.choice(WORDS)}]"
    return ""


# flavor: (line maker, comment prefix for planted lines)
FLAVORS = {
    "rs": (rust_line, "// "),
    "ts": (ts_line, "// "),
    "py": (py_line, "# "),
    "go": (go_line, "// "),
    "md": (md_line, ""),
    "cfg": (cfg_line, "# "),
}
POOL_BYTES = 2 * 1024 * 1024
COMMON_EVERY = 400  # about one pool line in COMMON_EVERY names COMMON
RARE_EVERY = 5000  # about one text file in RARE_EVERY gets a line naming RARE


def make_pool(rng, flavor):
    make, comment = FLAVORS[flavor]
    lines, size = [], 0
    while size < POOL_BYTES:
        if rng.randrange(COMMON_EVERY) == 0:
            line = f"{'    ' * rng.randint(0, 2)}{comment}{COMMON}: {sentence(rng)}"
        else:
            line = make(rng)
        lines.append(line)
        size += len(line) + 1
    return ("\n".join(lines) + "\n").encode()


class Tree:
    def __init__(self, root, seed):
        self.root = root
        self.rng = random.Random(seed)
        self.pools = {f: make_pool(self.rng, f) for f in FLAVORS}
        self.views = {f: memoryview(p) for f, p in self.pools.items()}
        self.files = self.bytes = self.dirs = 0
        self.ignored = self.hidden = self.binary = self.rare = self.rs_visible = 0
        self.made = set()
        self.ignored_depth = 0  # > 0 while writing below an ignored directory
        self.hidden_depth = 0

    # -- writing ---------------------------------------------------------------------------

    def mkdir(self, rel):
        if rel in self.made:
            return
        parent = os.path.dirname(rel)
        if parent:
            self.mkdir(parent)
        os.mkdir(os.path.join(self.root, rel))
        self.made.add(rel)
        self.dirs += 1

    def _write(self, rel, parts):
        fd = os.open(os.path.join(self.root, rel), os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
        try:
            n = 0
            for i in range(0, len(parts), 512):  # writev takes at most IOV_MAX (1024) buffers
                n += os.writev(fd, parts[i:i + 512])
            t = (MTIME_BASE + self.rng.randrange(MTIME_SPAN)) * 1_000_000_000 + self.rng.randrange(1_000_000_000)
            os.utime(fd, ns=(t, t))
        finally:
            os.close(fd)
        self.files += 1
        self.bytes += n
        if self.ignored_depth:
            self.ignored += 1
        elif self.hidden_depth or os.path.basename(rel).startswith("."):
            self.hidden += 1
        elif rel.endswith(".rs"):
            self.rs_visible += 1

    def size(self):
        r = self.rng.random()
        if r < 0.15:
            return self.rng.randint(200, 1024)
        if r < 0.98:
            return int(1024 * 20 ** self.rng.random())  # log-uniform 1-20 KB
        return self.rng.randint(20_000, 120_000)

    def text(self, rel, flavor, size=None):
        """A text file: a header naming it, then whole lines cut from the flavor's pool."""
        size = size or self.size()
        pool, view = self.pools[flavor], self.views[flavor]
        comment = FLAVORS[flavor][1] or "# "
        header = f"{comment}{rel} ({flavor}, generated)\n".encode()
        off = self.rng.randrange(len(pool) - size - 1)
        off = pool.find(b"\n", off) + 1
        end = pool.rfind(b"\n", off, off + max(size - len(header), 1)) + 1
        if end <= off:
            end = pool.find(b"\n", off) + 1
        parts = [header, view[off:end]]
        if self.rng.randrange(RARE_EVERY) == 0:
            parts.append(f"{FLAVORS[flavor][1]}{RARE}: {sentence(self.rng)}\n".encode())
            self.rare += 1
        self._write(rel, parts)

    def blob(self, rel):
        """A binary file (a PNG header, then random bytes): NUL in its first bytes."""
        n = self.rng.randint(1024, 20_000)
        self._write(rel, [b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", self.rng.randbytes(n)])
        self.binary += 1

    def raw(self, rel, content):
        self._write(rel, [content.encode()])

    def large(self, rel, flavor, mib):
        """A large text file of whole pool lines, RARE planted once in its middle."""
        pool, view = self.pools[flavor], self.views[flavor]
        target, parts, size = mib * 1024 * 1024, [f"{FLAVORS[flavor][1] or '# '}{rel} (large, generated)\n".encode()], 0
        while size < target:
            off = pool.find(b"\n", self.rng.randrange(len(pool) // 2)) + 1
            end = pool.rfind(b"\n", off, off + min(len(pool) // 2, target - size)) + 1
            if end <= off:
                end = pool.find(b"\n", off) + 1
            parts.append(view[off:end])
            size += end - off
        parts.insert(len(parts) // 2, f"{FLAVORS[flavor][1]}{RARE}: {sentence(self.rng)}\n".encode())
        self.rare += 1
        self._write(rel, parts)

    # -- shapes ----------------------------------------------------------------------------

    def names(self, n, ext):
        seen, out = set(), []
        while len(out) < n:
            base = self.rng.choice(WORDS) if self.rng.random() < 0.5 else snake(self.rng)
            name = f"{base}{ext}"
            if name in seen:
                name = f"{base}_{len(out)}{ext}"
            seen.add(name)
            out.append(name)
        return out

    def fill(self, rel, n, maxdepth, make, depth=0):
        """Writes exactly n files below rel: a few here, the rest split among 2-6 subdirs."""
        if n <= 0:
            return
        self.mkdir(rel)
        rng = self.rng
        here = n if depth >= maxdepth or n <= rng.randint(4, 24) else min(n, rng.randint(1, 16))
        for name in make(here):
            name(rel)
        rest = n - here
        if rest:
            k = min(rest, rng.randint(2, 6))
            weights = [rng.random() + 0.2 for _ in range(k)]
            total = sum(weights)
            counts = [int(rest * w / total) for w in weights]
            for i in range(rest - sum(counts)):
                counts[i % k] += 1
            for sub, m in zip(rng.sample(DIRS, k), counts):
                self.fill(f"{rel}/{sub}", m, maxdepth, make, depth + 1)

    def maker(self, flavor, exts):
        """make(n) -> n callables writing one file each into a directory, unique names."""
        def make(n):
            picks = [self.rng.choice(exts) for _ in range(n)]
            out = []
            for ext in sorted(set(picks)):
                for name in self.names(picks.count(ext), ext):
                    out.append(lambda d, name=name: self.text(f"{d}/{name}", flavor))
            return out
        return make

    def ignored_fill(self, rel, n, maxdepth, make):
        self.ignored_depth += 1
        self.fill(rel, n, maxdepth, make)
        self.ignored_depth -= 1

    def package(self, rel, lang, n):
        """A package of exactly n files (n >= 1)."""
        rng = self.rng
        ext = {"rust": [".rs"], "ts": [".ts", ".ts", ".tsx", ".js"], "py": [".py"], "go": [".go"]}[lang]
        flavor = {"rust": "rs", "ts": "ts", "py": "py", "go": "go"}[lang]
        self.mkdir(rel)
        fixed = [
            (f"{rel}/README.md", "md"),
            ({"rust": f"{rel}/Cargo.toml", "ts": f"{rel}/package.json", "py": f"{rel}/pyproject.toml",
              "go": f"{rel}/go.mod"}[lang], "cfg"),
        ]
        hidden = {"rust": ".cargo/config.toml", "ts": ".eslintrc.json", "py": ".env", "go": ".env"}[lang]
        budget = n
        for path, fl in fixed[:budget]:
            self.text(path, fl)
        budget -= min(len(fixed), budget)
        if budget > 0:  # a hidden config file, and about 1% of the package in .config/
            if "/" in hidden:
                self.mkdir(f"{rel}/{hidden.split('/')[0]}")
            more = min(budget - 1, round(0.01 * n))
            self.hidden_depth += 1
            self.text(f"{rel}/{hidden}", "cfg")
            self.fill(f"{rel}/.config", more, 1, self.maker("cfg", [".json", ".yml", ".toml"]))
            self.hidden_depth -= 1
            budget -= 1 + more
        if budget > 0 and lang == "ts":
            self.raw(f"{rel}/.gitignore", "dist/\n*.tsbuildinfo\n")
            budget -= 1
        if budget > 0 and rng.random() < 0.3:
            self.ignored_depth += 1
            self.text(f"{rel}/debug.log", "cfg")
            self.ignored_depth -= 1
            budget -= 1
        ignored = min(budget, round(0.19 * n))
        tests = min(budget - ignored, round(0.10 * n))
        assets = min(budget - ignored - tests, round(0.01 * n))
        src = budget - ignored - tests - assets
        self.fill(f"{rel}/src", src, rng.randint(2, 5), self.maker(flavor, ext))
        self.fill(f"{rel}/tests", tests, 2, self.maker(flavor, ext))
        self.fill(f"{rel}/assets", assets, 1, lambda k: [lambda d, s=s: self.blob(f"{d}/{s}") for s in self.names(k, ".png")])
        if lang == "rust":
            self.ignored_fill(f"{rel}/target/debug/build", ignored, 3, self.maker("rs", [".rs", ".d"]))
        elif lang == "ts":
            dist = ignored // 4
            self.ignored_fill(f"{rel}/dist", dist, 2, self.maker("ts", [".js", ".d.ts"]))
            self.ignored_fill(f"{rel}/node_modules", ignored - dist, 4, self.maker("ts", [".js", ".d.ts", ".json"]))
        elif lang == "py":
            pyc = ignored // 3
            self.ignored_fill(f"{rel}/__pycache__", pyc, 0, self.maker("py", [".py"]))
            self.ignored_fill(f"{rel}/build/lib", ignored - pyc, 3, self.maker("py", [".py"]))
        else:
            self.ignored_fill(f"{rel}/build", ignored, 2, self.maker("go", [".go"]))

    def generate(self, n):
        rng = self.rng
        root_files = [
            ("README.md", "md"), ("LICENSE", "md"), ("CONTRIBUTING.md", "md"), ("Cargo.toml", "cfg"),
            ("package.json", "cfg"), ("Makefile", "cfg"), ("tsconfig.json", "cfg"),
        ]
        self.raw(".gitignore", "# build output\ntarget/\nnode_modules/\nbuild/\n__pycache__/\n*.log\n.cache/\n")
        left = n - 1
        for path, fl in root_files[:max(left, 0)]:
            self.text(path, fl)
        left -= min(len(root_files), max(left, 0))
        for rel in [".github/workflows/ci.yml", ".github/workflows/release.yml", ".vscode/settings.json"][:max(left, 0)]:
            self.mkdir(os.path.dirname(rel))
            self.hidden_depth += 1
            self.text(rel, "cfg")
            self.hidden_depth -= 1
            left -= 1
        large = [("vendor/generated/bindings.rs", "rs"), ("data/fixtures/events.json", "cfg"),
                 ("data/fixtures/corpus.md", "md"), ("data/seed/schema.ts", "ts"), ("data/seed/dump.py", "py")]
        for rel, fl in large[:max(left, 0)]:
            self.mkdir(os.path.dirname(rel))
            self.large(rel, fl, rng.randint(20, 50))
            left -= 1
        if left <= 0:
            return
        cache = int(0.005 * n)
        docs = int(0.06 * n)
        vendor = int(0.12 * n)
        self.ignored_depth += 1
        self.hidden_depth += 1
        self.fill(".cache", cache, 3, self.maker("cfg", [".json", ".bin"]))
        self.hidden_depth -= 1
        self.ignored_depth -= 1
        self.fill("docs", docs, 4, self.maker("md", [".md"]))
        left -= cache + docs
        seen = set()
        while vendor > 0:
            m = min(vendor, int(20 * 50 ** rng.random()))
            lang = rng.choice(["rust", "ts", "py", "go"])
            flavor = {"rust": "rs", "ts": "ts", "py": "py", "go": "go"}[lang]
            ext = {"rust": [".rs"], "ts": [".js", ".ts"], "py": [".py"], "go": [".go"]}[lang]
            name = f"{rng.choice(WORDS)}-{rng.choice(WORDS)}-{rng.randint(0, 9)}.{rng.randint(0, 40)}"
            while name in seen:
                name = f"{name}.{rng.randint(0, 9)}"
            seen.add(name)
            self.fill(f"vendor/{name}", m, rng.randint(2, 6), self.maker(flavor, ext))
            vendor -= m
            left -= m
        while left > 0:
            m = int(40 * 75 ** rng.random())  # log-uniform 40-3000 files
            if left - m < 40:
                m = left
            top = rng.choices(["packages", "apps", "libs"], [60, 25, 15])[0]
            name = f"{rng.choice(WORDS)}-{rng.choice(WORDS)}"
            while name in seen:
                name = f"{name}-{rng.randint(2, 99)}"
            seen.add(name)
            self.package(f"{top}/{name}", rng.choices(["rust", "ts", "py", "go"], [40, 35, 15, 10])[0], m)
            left -= m


def main(argv):
    args, seed = [], 42
    i = 0
    while i < len(argv):
        if argv[i] == "--seed":
            seed = int(argv[i + 1])
            i += 2
        else:
            args.append(argv[i])
            i += 1
    if not 1 <= len(args) <= 2:
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    root = args[0]
    n = int(args[1]) if len(args) > 1 else 1_000_000
    if n < 1:
        print("gen-tree: N must be at least 1", file=sys.stderr)
        return 2
    want = f"version={VERSION} n={n} seed={seed}"
    marker = os.path.join(root, MARKER)
    if os.path.isdir(root) and os.listdir(root):
        try:
            with open(marker) as f:
                have = f.read()
        except FileNotFoundError:
            have = ""
        if have.split("\n", 1)[0] == want:
            print(f"gen-tree: reusing {root} ({' '.join(have.split())})")
            return 0
        why = f"its marker says {have.splitlines()[0]!r}" if have else "it has no marker (foreign or unfinished)"
        print(f"gen-tree: {root} exists and is not the tree of {want}: {why}; remove it or pick another DIR",
              file=sys.stderr)
        return 2
    os.makedirs(root, exist_ok=True)
    subprocess.run(["git", "init", "-q", root], check=True)
    start = time.monotonic()
    tree = Tree(root, seed)
    tree.generate(n)
    secs = time.monotonic() - start
    assert tree.files == n, (tree.files, n)
    totals = (f"files={tree.files} bytes={tree.bytes} dirs={tree.dirs} ignored={tree.ignored} "
              f"hidden={tree.hidden} binary={tree.binary} rs_visible={tree.rs_visible} "
              f"rare_lines={tree.rare} common={COMMON} rare={RARE}")
    with open(marker, "w") as f:
        f.write(f"{want}\n{totals}\n")
    print(f"gen-tree: wrote {root} in {secs:.1f} s: {tree.files} files ({tree.ignored} ignored, "
          f"{tree.hidden} hidden, {tree.binary} binary), {tree.bytes / 1e9:.2f} GB, {tree.dirs} directories")
    print(f"gen-tree: {totals}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
