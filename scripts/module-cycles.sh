#!/usr/bin/env bash
# Module dependency cycles in a Rust crate's src/ tree.
#
#   scripts/module-cycles.sh [SRC_DIR]     (default: the src/ beside this scripts/ folder)
#   scripts/module-cycles.sh --self-test
#
# For the top-level modules of SRC_DIR (src/X.rs or src/X/), and again for the children of
# every directory module (src/cmd/X.rs or src/cmd/X/, ...), prints the edges A -> B, where some
# file of A names B: `crate::B`, `use crate::{B, ...}` groups (nested too), and `super::`
# chains that climb out of A (`super::B` from src/cmd/A.rs is an edge A -> B among cmd's
# children; `super::super::B` from src/A/x.rs reaches the top-level B). Comments, strings and
# char literals are skipped. Test modules (`mod tests { … }` and `tests.rs` files) are left
# out: a test may drive its parent's interface from inside a sibling without that being an
# architectural dependency. lib.rs and main.rs are the crate roots, not modules.
#
# Exits 1 naming each cycle (a two-way edge as `A <-> B`; a longer loop as `A -> B -> C -> A`,
# one shortest loop through each one-way edge that is on a cycle), 0 when there is none,
# 2 on a usage error. Needs python3.
set -euo pipefail
exec python3 - "$0" "$@" <<'PY'
import os
import re
import subprocess
import sys
import tempfile
from collections import defaultdict, deque

# ---------------------------------------------------------------- lexing

# The lexer is shared with scripts/sizes.py.
sys.path.insert(0, os.path.dirname(os.path.abspath(sys.argv[1])))
from rust_lex import strip  # noqa: E402


TOKEN = re.compile(r"\s+|(?P<id>(?:r#)?[A-Za-z_][A-Za-z0-9_]*)|(?P<p>::|\$|[^\sA-Za-z0-9_])|(?P<num>[0-9][A-Za-z0-9_.]*)")


def tokens(text):
    """(kind, value, line) triples: kind 'id' or 'p' (punctuation)."""
    out, line = [], 1
    for m in TOKEN.finditer(text):
        s = m.group(0)
        if m.lastgroup == "id":
            out.append(("id", s[2:] if s.startswith("r#") else s, line))
        elif m.lastgroup == "p":
            out.append(("p", s, line))
        line += s.count("\n")
    return out

# ---------------------------------------------------------------- parsing

def use_tree(toks, i, prefix):
    """Parse a path or use tree at toks[i]; return (list of paths, next index).
    A path is a list of segments; '*' marks a glob."""
    paths = []
    if i < len(toks) and toks[i][:2] == ("p", "{"):
        i += 1
        while i < len(toks) and toks[i][:2] != ("p", "}"):
            sub, i = use_tree(toks, i, prefix)
            paths += sub
            if i < len(toks) and toks[i][:2] == ("p", ","):
                i += 1
            elif i < len(toks) and toks[i][:2] != ("p", "}"):
                i += 1  # something unexpected: skip it
        return paths, i + 1
    if i < len(toks) and toks[i][:2] == ("p", "*"):
        return [prefix + ["*"]], i + 1
    if i >= len(toks) or toks[i][0] != "id":
        return ([prefix] if prefix else []), i
    seg = toks[i][1]
    i += 1
    path = prefix if seg == "self" else prefix + [seg]
    if i + 1 < len(toks) and toks[i][:2] == ("p", "::") and (toks[i + 1][0] == "id" or toks[i + 1][1] in "{*"):
        return use_tree(toks, i + 1, path)
    if i + 1 < len(toks) and toks[i][:2] == ("id", "as") and toks[i + 1][0] == "id":
        i += 2
    return [path], i


def references(path, file_mod):
    """(absolute target path, line) for every crate:: and super:: path in one file.
    file_mod is the module path of the file (['cmd', 'edit', 'plan'])."""
    with open(path, encoding="utf-8", errors="replace") as f:
        toks = tokens(strip(f.read()))
    refs = []
    inline = []  # (name, brace depth at its opening) of the inline `mod x { ... }` we are in
    depth = 0
    i = 0
    while i < len(toks):
        kind, val, line = toks[i]
        if (kind, val) == ("p", "{"):
            depth += 1
        elif (kind, val) == ("p", "}"):
            depth -= 1
            if inline and inline[-1][1] == depth:
                inline.pop()
        elif (kind, val) == ("id", "mod") and i + 2 < len(toks) and toks[i + 1][0] == "id" and toks[i + 2][:2] == ("p", "{"):
            inline.append((toks[i + 1][1], depth))
            depth += 1
            i += 3
            continue
        elif kind == "id" and val in ("crate", "super") and i + 1 < len(toks) and toks[i + 1][:2] == ("p", "::") \
                and not (i and toks[i - 1][:2] == ("p", "::")):
            here = file_mod + [m for m, _ in inline]
            if "tests" in here:
                i += 1
                continue
            j = i
            if val == "crate":
                base, j = [], i + 2
            else:
                ups = 0
                while j + 1 < len(toks) and toks[j][:2] == ("id", "super") and toks[j + 1][:2] == ("p", "::"):
                    ups, j = ups + 1, j + 2
                if ups > len(here):
                    print(f"note: {path}:{line}: super:: climbs above the crate root; ignored", file=sys.stderr)
                    i = j
                    continue
                base = here[:len(here) - ups]
            paths, j = use_tree(toks, j, base)
            refs += [(p, line) for p in paths]
            i = max(j, i + 1)
            continue
        i += 1
    return refs

# ---------------------------------------------------------------- the module tree

def module_files(src):
    """{file path: module path} for every .rs file under src (crate roots map to [])."""
    files = {}
    for dirpath, dirnames, filenames in os.walk(src):
        rel = os.path.relpath(dirpath, src)
        parts = [] if rel == "." else rel.split(os.sep)
        if parts and parts[0] == "bin":
            dirnames[:] = []
            continue
        dirnames.sort()
        for name in sorted(filenames):
            if not name.endswith(".rs"):
                continue
            stem = name[:-3]
            if not parts and stem in ("lib", "main"):
                files[os.path.join(dirpath, name)] = None  # a crate root, not a module
            elif stem == "mod":
                files[os.path.join(dirpath, name)] = parts
            else:
                files[os.path.join(dirpath, name)] = parts + [stem]
    return files


def children(src, parts):
    """The child modules of the directory module at src/parts (its X.rs files and X/ dirs)."""
    d = os.path.join(src, *parts)
    out = set()
    for name in os.listdir(d):
        p = os.path.join(d, name)
        if os.path.isdir(p):
            if (parts or name != "bin") and any(f.endswith(".rs") for _, _, fs in os.walk(p) for f in fs):
                out.add(name)
        elif name.endswith(".rs") and name != "mod.rs" and not (not parts and name in ("lib.rs", "main.rs")):
            out.add(name[:-3])
    return out


def analyse(src):
    """[(directory module parts, children, {(a, b): [(file, line), ...]})], notes."""
    files = module_files(src)
    dirs = sorted({tuple(m[:k]) for m in files.values() if m for k in range(len(m))})
    graphs = {d: (children(src, list(d)), defaultdict(list)) for d in dirs if os.path.isdir(os.path.join(src, *d))}
    if () not in graphs:
        graphs[()] = (children(src, []), defaultdict(list))
    notes = []
    for path, mod in files.items():
        if mod is None or "tests" in mod:
            continue
        for target, line in references(path, mod):
            if target and target[0] == "*":
                notes.append(f"{shown(path)}:{line}: glob import of the crate root; ignored")
                continue
            for d, (kids, edges) in graphs.items():
                k = len(d)
                if list(mod[:k]) != list(d) or list(target[:k]) != list(d) or len(mod) <= k or len(target) <= k:
                    continue
                a, b = mod[k], target[k]
                if a != b and b in kids and a in kids:
                    edges[(a, b)].append((shown(path), line))
    return [(d, *graphs[d]) for d in sorted(graphs)], notes

# ---------------------------------------------------------------- cycles

def sccs(nodes, edges):
    """Strongly connected components with more than one node (Tarjan)."""
    succ = defaultdict(list)
    for a, b in edges:
        succ[a].append(b)
    index, low, stack, on, out = {}, {}, [], set(), []
    counter = [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(succ[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(nodes):
        if v not in index:
            visit(v)
    return sorted(out)


def cycles(comp, edges):
    """Witnesses of one component: 'a <-> b' for two-way edges, and for each other edge a->b
    a shortest loop a -> b -> ... -> a (each loop named once)."""
    inside = {(a, b) for (a, b) in edges if a in comp and b in comp}
    succ = defaultdict(list)
    for a, b in sorted(inside):
        succ[a].append(b)
    out, loops, seen = [], [], set()
    for a, b in sorted(inside):
        if (b, a) in inside:
            if a < b:
                out.append(f"{a} <-> {b}")
            continue
        prev, q = {b: None}, deque([b])  # shortest path b ~> a
        while q and a not in prev:
            v = q.popleft()
            for w in succ[v]:
                if w not in prev:
                    prev[w] = v
                    q.append(w)
        loop, v = [], a
        while v is not None:
            loop.append(v)
            v = prev[v]
        loop = [a] + loop[::-1][:-1]  # a, b, ..., (back to a)
        start = loop.index(min(loop))
        loop = loop[start:] + loop[:start]
        if tuple(loop) not in seen:
            seen.add(tuple(loop))
            loops.append(" -> ".join(loop + [loop[0]]))
    return out + loops


def shown(p):
    """p relative to the working directory when it is under it, else absolute."""
    rel = os.path.relpath(p)
    return os.path.abspath(p) if rel.startswith("..") else rel


def report(src, out=sys.stdout):
    graphs, notes = analyse(src)
    found = []
    for d, kids, edges in graphs:
        where = os.path.join(shown(src), *d) + "/"
        if len(kids) < 2:
            continue
        title = "top-level modules" if not d else "children of the module " + "::".join(d)
        print(f"{title} ({where}, {len(kids)}): {' '.join(sorted(kids))}", file=out)
        for (a, b), sites in sorted(edges.items()):
            sites = sorted(set(sites))
            more = f" (+{len(sites) - 1} more)" if len(sites) > 1 else ""
            print(f"  {a} -> {b}    {sites[0][0]}:{sites[0][1]}{more}", file=out)
        if not edges:
            print("  (no edges)", file=out)
        for comp in sccs(kids, edges):
            found.append((where, comp, cycles(comp, edges)))
    for n in notes:
        print("note: " + n, file=out)
    print(file=out)
    if not found:
        print("no module cycles", file=out)
        return 0
    print(f"module cycles: {sum(len(c) for _, _, c in found)}", file=out)
    for where, comp, loops in found:
        print(f"  in {where}, among {{{', '.join(comp)}}}:", file=out)
        for loop in loops:
            print(f"    {loop}", file=out)
    return 1

# ---------------------------------------------------------------- self-test

def self_test(script):
    def tree(root, files):
        for rel, text in files.items():
            p = os.path.join(root, "src", rel)
            os.makedirs(os.path.dirname(p), exist_ok=True)
            with open(p, "w") as f:
                f.write(text)
        return os.path.join(root, "src")

    common = {
        "lib.rs": "pub mod a; pub mod b; pub mod c; pub mod d; pub mod e; pub mod f; pub mod g; pub mod h;\n",
        "main.rs": "fn main() { quill::a::run() }\n",
        # Things that must not count: comments, strings, raw strings, char literals, lifetimes,
        # pub(crate)/pub(super), a test module's `use super::*` and its super::super::h.
        "c.rs": '// use crate::a;\n/* crate::b::X /* nested */ crate::a */\n'
                'pub(crate) fn s<\'a>(x: &\'a str) -> &\'a str { let _q = \'"\'; let _ = "crate::a::x"; '
                'let _ = r#"crate::b "quoted" "#; x }\n'
                'pub(super) fn t() {}\n#[cfg(test)]\nmod tests {\n    use super::*;\n    use super::super::h::Y;\n    #[test] fn u() { s("") ; let _ = Y; }\n}\n',
        "d/mod.rs": "pub mod x;\npub mod y;\n",
        "d/x.rs": "use super::y::Z;\npub fn x() -> Z { Z }\n",  # x -> y inside d
        "d/y.rs": "pub struct Z;\n",
        "e/mod.rs": "pub mod p;\npub mod q;\n",
        "e/q.rs": "pub fn g() {}\n",
        "f/mod.rs": "pub mod inner;\n",
        "f/inner.rs": "pub fn i() { super::super::g::go() }\n",  # f -> g via super::super
        "g.rs": "pub fn go() { crate::h::Y::default(); }\n",     # g -> h
        "h.rs": "#[derive(Default)] pub struct Y;\n",
    }
    cyclic = dict(common)
    cyclic.update({
        "a.rs": "use crate::b::X;\npub fn run() { let _ = X; }\n",
        "b.rs": "use crate::{c::{self, s}, a};\npub struct X;\n",          # b -> a (a group): a <-> b
        "e/p.rs": "pub fn f() { super::q::g() }\n",
        "e/q.rs": "use crate::e::p;\npub fn g() { let _ = p::f; }\n",      # p <-> q inside e
        "h.rs": "use crate::{f as eff};\n#[derive(Default)] pub struct Y;\n",  # h -> f: f -> g -> h -> f
    })
    acyclic = dict(common)
    acyclic.update({
        "a.rs": "use crate::b::X;\npub fn run() { let _ = X; }\n",
        "b.rs": "use crate::c::{self, s};\npub struct X;\n",
        "e/p.rs": "pub fn f() { super::q::g() }\n",
    })
    expect_cycles = ["a <-> b", "f -> g -> h -> f", "p <-> q"]
    ok = True
    with tempfile.TemporaryDirectory() as tmp:
        for name, files, want_rc in (("cyclic", cyclic, 1), ("acyclic", acyclic, 0)):
            src = tree(os.path.join(tmp, name), files)
            r = subprocess.run(["bash", script, src], capture_output=True, text=True)
            text = r.stdout + r.stderr
            edges = {l.split()[0] + " -> " + l.split()[2] for l in r.stdout.splitlines() if re.match(r"  \S+ -> \S+    ", l)}
            found = set()
            for l in r.stdout.split("module cycles:")[-1].splitlines():
                if l.startswith("    "):
                    found.add(l.strip())
            want_edges = {"a -> b", "b -> c", "x -> y", "f -> g", "g -> h", "p -> q"}
            if want_rc == 1:
                want_edges |= {"b -> a", "q -> p", "h -> f"}
            good = r.returncode == want_rc and edges == want_edges \
                and found == (set(expect_cycles) if want_rc else set()) \
                and (want_rc == 1 or "no module cycles" in r.stdout)
            print(f"self-test {name}: exit {r.returncode} (want {want_rc}): {'ok' if good else 'FAILED'}")
            if not good:
                print(text)
                ok = False
    return 0 if ok else 1


def main(argv):
    script, args = argv[0], argv[1:]
    if args == ["--self-test"]:
        return self_test(script)
    if len(args) > 1 or (args and args[0].startswith("-")):
        print("usage: scripts/module-cycles.sh [SRC_DIR] | --self-test", file=sys.stderr)
        return 2
    src = args[0] if args else os.path.join(os.path.dirname(os.path.abspath(script)), "..", "src")
    src = os.path.normpath(src)
    if not os.path.isdir(src):
        print(f"module-cycles: no such directory: {src}", file=sys.stderr)
        return 2
    return report(src)


sys.exit(main(sys.argv[1:]))
PY
