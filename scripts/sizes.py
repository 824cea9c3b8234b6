#!/usr/bin/env python3
"""Function and file sizes of a Rust crate's production code (tests left out).

    scripts/sizes.py [SRC_DIR]            check: exit 1 naming every function over FN_MAX lines
                                          and every file over FILE_MAX lines
    scripts/sizes.py --top N [SRC_DIR]    the N longest functions and files, no check

A function's length is its lines from `fn` to its closing brace; a file's size is its lines
that are not blank, comments included (documentation is read too). Test code is left out: files named
tests.rs or proptests.rs, files under a tests/ directory, and `#[cfg(test)]` modules. Data
tables that are long by nature are named in ALLOWED with the reason.
"""
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from rust_lex import strip  # noqa: E402  (shared with module-cycles.sh)

FN_MAX = 150
FILE_MAX = 800
# path (relative to SRC_DIR) and function name -> why it may be longer.
ALLOWED = {}


def matching(code, open_at):
    depth = 0
    for j in range(open_at, len(code)):
        if code[j] == "{":
            depth += 1
        elif code[j] == "}":
            depth -= 1
            if depth == 0:
                return j
    return len(code) - 1


def test_spans(code):
    """Character spans of `#[cfg(test)]` items."""
    spans = []
    for m in re.finditer(r"#\[cfg\(test\)\]\s*(pub(\([^)]*\))?\s*)?mod\s+\w+\s*\{", code):
        spans.append((m.start(), matching(code, m.end() - 1)))
    return spans


def analyse(path):
    raw = open(path, encoding="utf-8").read()
    code = strip(raw)
    tests = test_spans(code)

    def in_tests(pos):
        return any(a <= pos <= b for a, b in tests)

    line_of = lambda pos: code.count("\n", 0, pos) + 1
    fns = []
    for m in re.finditer(r"\bfn\s+(\w+)", code):
        if in_tests(m.start()):
            continue
        k = m.end()
        # the body's brace: the first `{` before a `;` (a declaration without a body has none)
        depth = 0
        while k < len(code):
            ch = code[k]
            if ch in "(<[":
                depth += 1
            elif ch in ")>]":
                depth -= 1
            elif ch == ";" and depth <= 0:
                k = -1
                break
            elif ch == "{" and depth <= 0:
                break
            k += 1
        if k < 0 or k >= len(code):
            continue
        end = matching(code, k)
        fns.append((m.group(1), line_of(m.start()), line_of(end)))
    lines = raw.split("\n")
    test_lines = set()
    for a, b in tests:
        test_lines.update(range(line_of(a), line_of(b) + 1))
    code_lines = sum(1 for i, l in enumerate(lines, 1) if l.strip() and i not in test_lines)
    return fns, code_lines


def files(src):
    for root, dirs, names in os.walk(src):
        dirs[:] = sorted(d for d in dirs if d != "tests")
        for name in sorted(names):
            if name.endswith(".rs") and name not in ("tests.rs", "proptests.rs") and not name.endswith("_tests.rs"):
                yield os.path.join(root, name)


def main(argv):
    top = None
    if argv[:1] == ["--top"]:
        top, argv = int(argv[1]), argv[2:]
    src = argv[0] if argv else os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "src")
    all_fns, all_files = [], []
    for path in files(src):
        rel = os.path.relpath(path, src)
        fns, code_lines = analyse(path)
        all_files.append((code_lines, rel))
        for name, a, b in fns:
            all_fns.append((b - a + 1, rel, name, a))
    all_fns.sort(reverse=True)
    all_files.sort(reverse=True)
    if top is not None:
        print(f"functions ({len(all_fns)}; median {sorted(f[0] for f in all_fns)[len(all_fns) // 2]} lines):")
        for n, rel, name, a in all_fns[:top]:
            print(f"  {n:5}  {rel}:{a}  {name}")
        print(f"files ({len(all_files)}):")
        for n, rel in all_files[:top]:
            print(f"  {n:5}  {rel}")
        return 0
    bad = 0
    for n, rel, name, a in all_fns:
        if n > FN_MAX and (rel, name) not in ALLOWED:
            print(f"{rel}:{a}: fn {name} is {n} lines (at most {FN_MAX})")
            bad += 1
    for n, rel in all_files:
        if n > FILE_MAX:
            print(f"{rel}: {n} lines (at most {FILE_MAX}, blank lines and tests left out)")
            bad += 1
    if bad:
        print(f"{bad} over the limits")
        return 1
    print(f"sizes: every function at most {FN_MAX} lines, every file at most {FILE_MAX} lines")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
