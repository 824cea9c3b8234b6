#!/bin/sh
# bench/gen-tree.sh: generate the synthetic monorepo that bench/scale.sh searches.
#
#   bench/gen-tree.sh DIR [N]       (N files, default 1000000; SEED=42 by default)
#
# DIR becomes a git repository (no commit) of exactly N files: packages/, apps/, libs/ (Rust,
# TypeScript, Python, Go packages with src/** up to depth 8), vendor/, docs/, 5 large files of
# 20-50 MB, about 15% of the files in .gitignore'd build output (target/, node_modules/, dist/,
# build/, __pycache__/, *.log) and 1% hidden. Same N and SEED, same tree (bytes, names, mtimes).
# A DIR with a matching marker (DIR/.quill-scale-tree) is reused; any other non-empty DIR is
# refused. The work is one Python 3 process (bench/gen-tree.py, standard library only); the
# shape is described there and in docs/search.md ("Scale benchmark").
set -eu
if [ $# -lt 1 ] || [ $# -gt 2 ]; then echo "usage: bench/gen-tree.sh DIR [N]" >&2; exit 2; fi
exec python3 "$(dirname "$0")/gen-tree.py" "$1" "${2:-1000000}" --seed "${SEED:-42}"
