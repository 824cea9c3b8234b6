#!/usr/bin/env bash
# bench/scale.sh: `quill grep` and `quill glob` side by side with rg and fd on synthetic
# monorepos of growing size (bench/gen-tree.sh), warm cache; then how each command's time and
# peak RSS grow with the tree.
#
#   bench/scale.sh [SIZES]        (default "50000 1000000": files per tree)
#   QUILL=target/release/quill SCALE_DIR=/big/disk RUNS=3 PATTERN="xyzzy TODO" bench/scale.sh "20000"
#
# Trees live in $SCALE_DIR/tree-N (default ${TMPDIR:-/tmp}/quill-scale) and are generated once,
# then reused (same N and SEED, same tree): about 9 KB of disk per file, so the 1M tree needs
# about 9.5 GB, and as much free memory to stay in the page cache (warm-cache numbers).
# RUNS defaults to 5 below 200,000 files and 3 from there (one warmup run each, WARMUP=1);
# PATTERN is a space-separated list of literal words: the tree's rare and common words.
# Every command is measured once per tree (a peer shared by several rows is measured once) with
# bench/lib.sh: wall median (min), CPU median (user+sys), peak RSS, ratios quill / peer. The
# `output` column compares what the commands print, untimed: the sorted lines of quill's text
# and the peer's are the same set (MATCH; "same order" when even the order is), or the total
# of quill's JSON page equals the peer's line count (MATCH total), or DIFFER.
#
# Goals (README, Benchmarks): grep <= 1.1x `rg -n`; glob newest-first <= 1.3x `fd -g`;
# glob --sort path / none <= 1.0x `fd -g`; time and RSS should grow no faster than the tree.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
sizes="${1:-50000 1000000}"
scale_dir="${SCALE_DIR:-${TMPDIR:-/tmp}/quill-scale}"
pattern="${PATTERN:-xyzzy TODO}"
warmup="${WARMUP:-1}"

if [ -z "${QUILL:-}" ]; then
  (cd "$here" && CARGO_BUILD_JOBS="${CARGO_BUILD_JOBS:-1}" cargo build --release --quiet)
  QUILL="${CARGO_TARGET_DIR:-$here/target}/release/quill"
fi
QUILL="$(cd "$(dirname "$QUILL")" && pwd)/$(basename "$QUILL")"
[ -x "$QUILL" ] || { echo "no quill binary at $QUILL" >&2; exit 2; }
pick() { local c; for c in "$@"; do if [ -x "$c" ]; then echo "$c"; return; fi; c=$(command -v "$c" || true); [ -n "$c" ] && { echo "$c"; return; }; done; }
rg="$(pick "$HOME/.cargo/bin/rg" rg)"
fd="$(pick "$HOME/.cargo/bin/fd" fd fdfind)"
[ -n "$rg" ] || { echo "rg is not installed (cargo install --locked ripgrep)" >&2; exit 2; }
[ -n "$fd" ] || { echo "fd is not installed (cargo install --locked fd-find)" >&2; exit 2; }

. "$here/bench/lib.sh"

# -- trees ---------------------------------------------------------------------------------
mkdir -p "$scale_dir"
for n in $sizes; do
  tree="$scale_dir/tree-$n"
  if [ ! -f "$tree/.quill-scale-tree" ]; then
    need_kib=$((n * 9 + 300 * 1024))
    free_kib=$(df -Pk "$scale_dir" | awk 'NR == 2 {print $4}')
    if [ "$free_kib" -lt "$need_kib" ]; then
      echo "scale: the tree of $n files needs about $((need_kib / 1024)) MiB in $scale_dir; $((free_kib / 1024)) MiB free (set SCALE_DIR)" >&2
      exit 2
    fi
    echo "scale: generating $tree (about $((need_kib / 1024)) MiB) ..." >&2
  fi
  "$here/bench/gen-tree.sh" "$tree" "$n" >&2
done

# -- measuring -------------------------------------------------------------------------------
declare -A STATS # "command|size" -> STATS line of bench_measure
declare -A SEEN  # command -> 1 once measured on some tree
commands=()      # commands in first-measured order, for the growth table
out="$(mktemp -d "${TMPDIR:-/tmp}/quill-scale-out.XXXXXX")"
trap 'rm -rf "$out"' EXIT

short() { local c="${1//$q/quill}"; c="${c//$QUILL/quill}"; c="${c//$rg/rg}"; echo "${c//$fd/fd}"; }
measure() { # CMD: its STATS on the current tree, measured once per tree
  if [ -z "${STATS[$1|$size]:-}" ]; then
    echo "scale: $size files: $(short "$1")" >&2
    STATS[$1|$size]=$(bench_measure -i -w "$warmup" -n "$runs" "$1")
    [ -n "${SEEN[$1]:-}" ] || { SEEN[$1]=1; commands+=("$1"); }
  fi
}
row() { # WORK QUILL_CMD PEER_LABEL PEER_CMD GOAL OUTPUT_CHECK
  measure "$2"
  measure "$4"
  echo "$(bench_row "$1" "${STATS[$2|$size]}" "$3" "${STATS[$4|$size]}" "$5") $6 |"
}

# Untimed output checks; each command's output is kept (in $out) for the tree it ran on.
run() { # CMD: the file holding its stdout, paths without a leading ./
  local f
  f="$out/$(printf '%s' "$1" | md5sum | cut -c1-16)"
  [ -f "$f" ] || bash -c "$1" 2>/dev/null | sed 's|^\./||' >"$f" || true
  echo "$f"
}
same() { # CMD_A CMD_B: "MATCH, same order", MATCH (the same lines, sorted) or DIFFER
  local a b
  a=$(run "$1") b=$(run "$2")
  if cmp -s "$a" "$b"; then
    echo "MATCH, same order ($(wc -l <"$a") lines)"
  elif cmp -s <(LC_ALL=C sort "$a") <(LC_ALL=C sort "$b"); then
    echo "MATCH ($(wc -l <"$a") lines)"
  else
    echo "DIFFER ($(wc -l <"$a") / $(wc -l <"$b") lines)"
  fi
}
total() { # JSON_CMD PEER_CMD: "MATCH total" when the JSON page's total is the peer's line count
  local t c
  t=$(python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); print(d["total"], "(walk incomplete)" * d["walkIncomplete"])' "$(run "$1")")
  c=$(wc -l <"$(run "$2")")
  if [ "$t" = "$c " ]; then echo "MATCH total ($c)"; else echo "DIFFER (total $t / $c lines)"; fi
}

q="$QUILL --text --color never"
qj="$QUILL --json"
g="'**/*.rs'"
first=""
last=""
for size in $sizes; do
  tree="$scale_dir/tree-$size"
  runs="${RUNS:-$([ "$size" -ge 200000 ] && echo 3 || echo 5)}"
  cd "$tree"
  rm -f "$out"/*
  echo
  echo "## $size files: $tree"
  echo
  sed -n 2p .quill-scale-tree
  echo "runs: $runs (+$warmup warmup); quill: $QUILL; $("$rg" --version | head -n1) ($rg); $("$fd" --version) ($fd)"
  "$rg" -c scale-warm-the-cache-zq >/dev/null || true # read every searched file once
  echo
  bench_header | sed '/^| work/s/$/ output |/; /^|---/s/$/---|/'
  for p in $pattern; do
    row "grep -n $p --limit 0 (sorted)" "$q grep -n $p --limit 0" "rg -n" "$rg -n $p" "<= 1.1x" \
      "$(same "$q grep -n $p --limit 0" "$rg -n $p")"
    row "grep -n $p --limit 0 (sorted)" "$q grep -n $p --limit 0" "rg -n --sort path" "$rg -n --sort path $p" "" \
      "$(same "$q grep -n $p --limit 0" "$rg -n --sort path $p")"
    row "grep --json $p (page of 200)" "$qj grep $p" "rg -n" "$rg -n $p" "" \
      "$(total "$qj grep $p" "$rg -n $p")"
  done
  row "glob $g (page of 100, mtime)" "$q glob $g" "rg --files --sortr modified" "$rg --files --sortr modified -g '*.rs'" "" \
    "$(total "$qj glob $g" "$rg --files --sortr modified -g '*.rs'")"
  row "glob $g --limit 0 (mtime)" "$q glob $g --limit 0" "rg --files --sortr modified" "$rg --files --sortr modified -g '*.rs'" "" \
    "$(same "$q glob $g --limit 0" "$rg --files --sortr modified -g '*.rs'")"
  row "glob $g --limit 0 (mtime)" "$q glob $g --limit 0" "fd -g" "$fd -g '*.rs'" "<= 1.3x" \
    "$(same "$q glob $g --limit 0" "$fd -g '*.rs'")"
  row "glob $g --limit 0 --sort path" "$q glob $g --limit 0 --sort path" "fd -g" "$fd -g '*.rs'" "<= 1.0x" \
    "$(same "$q glob $g --limit 0 --sort path" "$fd -g '*.rs'")"
  row "glob $g --limit 0 --sort none" "$q glob $g --limit 0 --sort none" "fd -g" "$fd -g '*.rs'" "<= 1.0x" \
    "$(same "$q glob $g --limit 0 --sort none" "$fd -g '*.rs'")"
  first=${first:-$size}
  last=$size
done

# -- growth ----------------------------------------------------------------------------------
echo
bytes() { sed -n 2p "$scale_dir/tree-$1/.quill-scale-tree" | tr ' ' '\n' | sed -n 's/^bytes=//p'; }
echo "## Growth: wall median and peak RSS per tree size; growth = $last files / $first files" \
  "(files grow $(bench_ratio "$last" "$first")x, bytes $(bench_ratio "$(bytes "$last")" "$(bytes "$first")")x)"
echo
head="| command |"
rule="|---|"
for size in $sizes; do
  head="$head $size files: wall | RSS |"
  rule="$rule---|---|"
done
echo "$head wall growth | RSS growth |"
echo "$rule---|---|"
for c in "${commands[@]}"; do
  line="| \`$(short "$c")\` |"
  for size in $sizes; do
    s="${STATS[$c|$size]:-}"
    if [ -n "$s" ]; then
      line="$line $(bench_ms "$(bench_field "$s" wall)") | $(bench_mib "$(bench_field "$s" rss)") |"
    else
      line="$line | |"
    fi
  done
  a="${STATS[$c|$first]:-}"
  b="${STATS[$c|$last]:-}"
  if [ -n "$a" ] && [ -n "$b" ]; then
    line="$line $(bench_ratio "$(bench_field "$b" wall)" "$(bench_field "$a" wall)")x | $(bench_ratio "$(bench_field "$b" rss)" "$(bench_field "$a" rss)")x |"
  else
    line="$line | |"
  fi
  echo "$line"
done
