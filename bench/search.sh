#!/usr/bin/env bash
# Side-by-side benchmark of `quill grep` / `quill glob` against ripgrep and fd (the goals in the README's Benchmarks),
# warm cache, on the Rust docs tree (or DIR given as $1). Prints times, ratios and peak RSS.
#
#   bench/search.sh [DIR]
#   QUILL=/path/to/quill PATTERN="HashMap impl" RUNS=10 bench/search.sh
#
# PATTERN is a space-separated list (regexes without spaces). Timing: bench/lib.sh (wall median
# and min, CPU = user+system time, steadier than wall time on a shared machine, peak RSS).
#
# Goals: grep <= 1.1x `rg -n` (while sorted); glob <= 1.3x `fd -g` (<= 1.0x with --sort none).
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
dir="${1:-$(ls -d "$HOME"/.rustup/toolchains/*/share/doc/rust/html 2>/dev/null | head -n1)}"
[ -d "$dir" ] || { echo "no tree to search: pass a directory" >&2; exit 2; }
dir="$(cd "$dir" && pwd -P)"
pattern="${PATTERN:-HashMap impl}"
runs="${RUNS:-10}"

if [ -z "${QUILL:-}" ]; then
  (cd "$here" && cargo build --release --quiet)
  target="${CARGO_TARGET_DIR:-$here/target}"
  QUILL="$target/release/quill"
fi
rg="$(command -v rg || true)"
fd="$(command -v fd || command -v fdfind || true)"
[ -n "$rg" ] || { echo "rg is not installed" >&2; exit 2; }
[ -n "$fd" ] || { echo "fd/fdfind is not installed" >&2; exit 2; }

cd "$dir"
echo "tree: $dir ($(find . -type f | wc -l) files, $(du -sh . | cut -f1)); pattern: $pattern; runs: $runs"
echo "quill: $QUILL"
echo

. "$here/bench/lib.sh"
row() { # label, ours, peer, peer label, [goal]: warm cache (2 warmups), $runs runs each
  bench_vs -w 2 -n "$runs" "$1" "$2" "$4" "$3" "${5:-}"
}

bench_header
q="$QUILL --text --color never"
for p in $pattern; do
  row "grep -n '$p' --limit 0 (sorted)" "$q grep -n '$p' --limit 0" "$rg -n '$p'" "rg -n" "<= 1.1x"
  row "grep -n '$p' --limit 0 (sorted)" "$q grep -n '$p' --limit 0" "$rg -n --sort path '$p'" "rg -n --sort path"
  row "grep --json '$p' (page of 200)" "$q --json grep '$p'" "$rg -n '$p'" "rg -n"
done
row "glob '**/*.html' (page of 100, mtime)" "$q glob '**/*.html'" "$fd -g '*.html'" "fd -g"
row "glob '**/*.html' --limit 0 (mtime)" "$q glob '**/*.html' --limit 0" "$fd -g '*.html'" "fd -g" "<= 1.3x"
row "glob '**/*.html' --limit 0 --sort path" "$q glob '**/*.html' --limit 0 --sort path" "$fd -g '*.html'" "fd -g" "<= 1.0x"
row "glob '**/*.html' --limit 0 --sort none" "$q glob '**/*.html' --limit 0 --sort none" "$fd -g '*.html'" "fd -g" "<= 1.0x"
# What the mtime sort costs by itself: one stat per match, which fd never does. find with and
# without -printf %T@ (a stat each) shows the floor for any tool that sorts by mtime.
row "find -name '*.html' -printf %T@ (stats)" "find . -name '*.html' -printf '%T@\n'" "find . -name '*.html'" "find -name (no stat)"
