#!/usr/bin/env bash
# Side-by-side benchmark of `quill grep` / `quill glob` against ripgrep and fd (SPEC §4),
# warm cache, on the Rust docs tree (or DIR given as $1). Prints times, ratios and peak RSS.
#
#   bench/search.sh [DIR]
#   QUILL=/path/to/quill PATTERN=HashMap RUNS=10 bench/search.sh
#
# Goals: grep <= 1.1x `rg -n` (while sorted); glob <= 1.3x `fd -g` (<= 1.0x with --sort none).
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
dir="${1:-$(ls -d "$HOME"/.rustup/toolchains/*/share/doc/rust/html 2>/dev/null | head -n1)}"
[ -d "$dir" ] || { echo "no tree to search: pass a directory" >&2; exit 2; }
dir="$(cd "$dir" && pwd -P)"
pattern="${PATTERN:-HashMap}"
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

# Mean wall time in seconds of a shell command (hyperfine when present).
mean() {
  if command -v hyperfine >/dev/null; then
    hyperfine --warmup 2 --runs "$runs" --style none --export-json /dev/stdout "$1" 2>/dev/null \
      | python3 -c 'import json,sys; print("%.4f" % json.load(sys.stdin)["results"][0]["mean"])'
  else
    for _ in 1 2; do bash -c "$1" >/dev/null 2>&1 || true; done
    local t0 t1
    t0=$(date +%s%N)
    for _ in $(seq "$runs"); do bash -c "$1" >/dev/null 2>&1 || true; done
    t1=$(date +%s%N)
    echo "$t0 $t1 $runs" | awk '{printf "%.4f\n", ($2-$1)/1e9/$3}'
  fi
}

# Peak RSS in KiB.
rss() {
  if [ -x /usr/bin/time ]; then
    /usr/bin/time -f %M bash -c "exec $1 >/dev/null 2>&1" 2>&1 | tail -n1
  else
    echo "?"
  fi
}

row() { # label, ours, peer
  local a b
  a=$(mean "$2"); b=$(mean "$3")
  printf '%-44s %8.3fs  %-32s %8.3fs  %5.2fx   RSS %6s KiB vs %6s KiB\n' \
    "$1" "$a" "$(echo "$3" | cut -c1-32)" "$b" "$(echo "$a $b" | awk '{print $1/$2}')" \
    "$(rss "$2")" "$(rss "$3")"
}

q="$QUILL --text --color never"
row "grep -n '$pattern' --limit 0 (sorted)" "$q grep -n '$pattern' --limit 0 >/dev/null" "$rg -n '$pattern' >/dev/null"
row "grep -n '$pattern' --limit 0 (sorted)" "$q grep -n '$pattern' --limit 0 >/dev/null" "$rg -n --sort path '$pattern' >/dev/null"
row "grep --json (default page of 200)" "$q --json grep '$pattern' >/dev/null" "$rg -n '$pattern' >/dev/null"
row "glob '**/*.html' --limit 0 (mtime sort)" "$q glob '**/*.html' --limit 0 >/dev/null" "$fd -g '*.html' >/dev/null"
row "glob '**/*.html' --limit 0 --sort path" "$q glob '**/*.html' --limit 0 --sort path >/dev/null" "$fd -g '*.html' >/dev/null"
row "glob '**/*.html' --limit 0 --sort none" "$q glob '**/*.html' --limit 0 --sort none >/dev/null" "$fd -g '*.html' >/dev/null"
