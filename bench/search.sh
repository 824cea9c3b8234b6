#!/usr/bin/env bash
# Side-by-side benchmark of `quill grep` / `quill glob` against ripgrep and fd (SPEC §4),
# warm cache, on the Rust docs tree (or DIR given as $1). Prints times, ratios and peak RSS.
#
#   bench/search.sh [DIR]
#   QUILL=/path/to/quill PATTERN="HashMap impl" RUNS=10 bench/search.sh
#
# PATTERN is a space-separated list (regexes without spaces). Times are hyperfine means;
# "cpu" is user+system time, steadier than wall time on a shared machine.
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

# "WALL CPU": mean wall time and mean user+system time in seconds (hyperfine when present).
# On a shared machine the CPU time is the steadier of the two.
measure() {
  if command -v hyperfine >/dev/null; then
    hyperfine --warmup 2 --runs "$runs" --style none --export-json /dev/stdout "$1" 2>/dev/null \
      | python3 -c 'import json,sys; r=json.load(sys.stdin)["results"][0]; print("%.4f %.4f" % (r["mean"], r["user"]+r["system"]))'
  else
    for _ in 1 2; do bash -c "$1" >/dev/null 2>&1 || true; done
    local t0 t1
    t0=$(date +%s%N)
    for _ in $(seq "$runs"); do bash -c "$1" >/dev/null 2>&1 || true; done
    t1=$(date +%s%N)
    echo "$t0 $t1 $runs" | awk '{printf "%.4f nan\n", ($2-$1)/1e9/$3}'
  fi
}

# Peak RSS in KiB.
rss() {
  if [ -x /usr/bin/time ]; then
    /usr/bin/time -f %M bash -c "exec $1" 2>&1 >/dev/null | tail -n1
  else
    echo "?"
  fi
}

printf '%-42s %-28s %8s %8s %6s %8s %8s %6s %9s %9s\n' work peer "quill s" "peer s" ratio "quill cpu" "peer cpu" ratio "quill RSS" "peer RSS"
row() { # label, ours, peer
  local a b
  read -r aw ac <<<"$(measure "$2")"
  read -r bw bc <<<"$(measure "$3")"
  printf '%-42s %-28s %8.3f %8.3f %5.2fx %8.3f %8.3f %5.2fx %7sK %7sK\n' \
    "$1" "$4" "$aw" "$bw" "$(echo "$aw $bw" | awk '{print $1/$2}')" \
    "$ac" "$bc" "$(echo "$ac $bc" | awk '{print ($2>0)?$1/$2:0}')" "$(rss "$2")" "$(rss "$3")"
}

q="$QUILL --text --color never"
for p in $pattern; do
  row "grep -n '$p' --limit 0 (sorted)" "$q grep -n '$p' --limit 0 >/dev/null" "$rg -n '$p' >/dev/null" "rg -n"
  row "grep -n '$p' --limit 0 (sorted)" "$q grep -n '$p' --limit 0 >/dev/null" "$rg -n --sort path '$p' >/dev/null" "rg -n --sort path"
  row "grep --json '$p' (page of 200)" "$q --json grep '$p' >/dev/null" "$rg -n '$p' >/dev/null" "rg -n"
done
row "glob '**/*.html' --limit 0 (mtime)" "$q glob '**/*.html' --limit 0 >/dev/null" "$fd -g '*.html' >/dev/null" "fd -g"
row "glob '**/*.html' --limit 0 --sort path" "$q glob '**/*.html' --limit 0 --sort path >/dev/null" "$fd -g '*.html' >/dev/null" "fd -g"
row "glob '**/*.html' --limit 0 --sort none" "$q glob '**/*.html' --limit 0 --sort none >/dev/null" "$fd -g '*.html' >/dev/null" "fd -g"
# What the mtime sort costs by itself: one stat per match, which fd never does. find with and
# without -printf %T@ (a stat each) shows the floor for any tool that sorts by mtime.
row "find -name '*.html' -printf %T@ (stats)" "find . -name '*.html' -printf '%T@\n' >/dev/null" "find . -name '*.html' >/dev/null" "find -name (no stat)"
