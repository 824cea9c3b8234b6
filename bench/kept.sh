#!/usr/bin/env bash
# What keeping reads costs (docs/model.md#kept-reads; the goal: the read and the per-call
# overhead within 5% of not keeping). Side by side in one run, keeping on (the default) vs off
# (QUILL_KEEP_READS=0, the read path quill had before it kept anything):
#   1. `quill read` of a 100 KB source file read before (its version already kept: a touch);
#   2. the same, the file changed before every read (a new version kept each time, the one
#      before dropped with its baseline);
#   3. `quill read` of a 1 MiB file (the largest kept), changed before every read;
#   4. a one-line `quill edit` toggled back and forth (the new content kept after each change);
# with callgrind's instruction counts for 1 and 2 when valgrind is there (load-independent).
# BASE=/path/to/an/older/quill adds that binary's read beside this one (wall, and callgrind's
# instructions of a 6-byte read).
# Usage: bench/kept.sh [CALLS]   (default 300). Timing: bench/lib.sh. No assertion.
set -euo pipefail
cd "$(dirname "$0")/.."
CALLS=${1:-300}
cargo build --release -q
Q="$(cd "${CARGO_TARGET_DIR:-target}/release" && pwd)/quill"
. bench/lib.sh
W=$(mktemp -d "${TMPDIR:-/tmp}/quill-bench-kept.XXXXXX")
trap 'rm -rf "$W"' EXIT
cd "$W"
python3 - <<'PY'
lines = [f"    let value_{i:05d} = compute({i}, \"some text to make it a line\");\n" for i in range(1400)]
open("src.rs", "w").write("fn main() {\n" + "".join(lines) + "}\n")
big = [f"{i:07d} the quick brown fox jumps over the lazy dog and on\n" for i in range(17000)]
open("big.txt", "w").write("".join(big)[: 1 << 20])
PY
echo "files: src.rs $(wc -c < src.rs) B, big.txt $(wc -c < big.txt) B"
on="env QUILL_STATE_DIR=$W/on QUILL_SESSION=bench"
off="env QUILL_STATE_DIR=$W/off QUILL_SESSION=bench QUILL_KEEP_READS=0"
# A line appended before every run (untimed): each read is of a new version.
change() { echo "sh -c 'echo \$\$ >> $W/$1'"; }
"$Q" --state-dir "$W/on" --session bench read src.rs >/dev/null
"$Q" --state-dir "$W/off" --session bench read src.rs >/dev/null

bench_header
bench_vs -w 20 -n "$CALLS" "read 100 KB, version kept already" "$on $Q read src.rs" \
  "keeping off" "$off $Q read src.rs" "within 5%"
bench_vs -w 20 -n "$CALLS" -p "$(change src.rs)" "read 100 KB, a new version kept" \
  "$on $Q read src.rs" "keeping off" "$off $Q read src.rs" "within 5%"
bench_vs -w 5 -n "$((CALLS / 3))" -p "$(change big.txt)" "read 1 MiB, a new version kept" \
  "$on $Q read big.txt" "keeping off" "$off $Q read big.txt" "within 5%"
for d in on off; do
  env QUILL_STATE_DIR="$W/$d" QUILL_SESSION=bench "$Q" read src.rs >/dev/null
done
# Alternatives run in turn: the edit and its reverse (bench/lib.sh).
fwd="edit src.rs --old value_00700 --new value_0070X"
back="edit src.rs --old value_0070X --new value_00700"
eon=$(bench_measure -w 10 -n "$CALLS" "$on $Q $fwd" "$on $Q $back")
eoff=$(bench_measure -w 10 -n "$CALLS" "$off $Q $fwd" "$off $Q $back")
bench_row "edit one line of 100 KB" "$eon" "keeping off" "$eoff" "within 5%"
if [ -n "${BASE:-}" ]; then
  echo
  bench_header
  bench_vs -w 20 -n "$CALLS" "read 100 KB, this quill" "$on $Q read src.rs" \
    "$(basename "$BASE") (older)" "env QUILL_STATE_DIR=$W/base QUILL_SESSION=bench $BASE read src.rs" "within 5%"
fi
if command -v valgrind >/dev/null; then
  ir() { valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>&1 >/dev/null | sed -n 's/.*refs: *//p' | tr -d ,; }
  kept=$(ir "$Q" --state-dir "$W/on" --session bench read src.rs)
  echo more >> src.rs
  new=$(ir "$Q" --state-dir "$W/on" --session bench read src.rs)
  plain=$(QUILL_KEEP_READS=0 ir "$Q" --state-dir "$W/off" --session bench read src.rs)
  echo
  if [ -n "${BASE:-}" ]; then
    echo hello > small.txt
    "$Q" --state-dir "$W/s-new" read small.txt >/dev/null
    "$BASE" --state-dir "$W/s-base" read small.txt >/dev/null
    a=$(ir "$Q" --state-dir "$W/s-new" read small.txt)
    b=$(ir "$BASE" --state-dir "$W/s-base" read small.txt)
    echo "instructions (callgrind) of a 6-byte read, empty state: $(basename "$BASE") ${b}, this quill ${a} ($(awk -v a="$a" -v b="$b" 'BEGIN{printf "%+.1f%%", (a-b)*100/b}'))"
  fi
  echo "instructions (callgrind) of a 100 KB read: keeping off ${plain}; version kept already ${kept} ($(awk -v a="$kept" -v b="$plain" 'BEGIN{printf "%+.1f%%", (a-b)*100/b}')); new version ${new} ($(awk -v a="$new" -v b="$plain" 'BEGIN{printf "%+.1f%%", (a-b)*100/b}'))"
fi
