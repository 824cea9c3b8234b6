#!/bin/sh
# Benchmark `quill transfer` side by side with its peers (the goals in the README's Benchmarks), as ratios:
#   1. copy a 1 GiB file: quill transfer  vs  the durable peer `cp && sync FILE && openssl dgst
#      -sha256`, timed as one chain (goal <= 1.0x): quill's copy is on disk and hashed before it
#      is published; then vs the non-durable `cp && openssl dgst -sha256` (no goal: a copy the
#      next crash may lose, for comparison)
#   2. same-filesystem --move  vs  mv (goal <= 2x)
#   3. peak RSS of the 1 GiB transfer (goal <= 16 MiB)
# Usage: bench/transfer.sh [DIR]   (DIR: where the files go; default a temp dir on the work disk)
# Needs: cargo (unless QUILL=path/to/quill is given), openssl. Timing (medians, CPU, peak RSS):
# bench/lib.sh; SIZE_MIB=1024, RUNS=5, MOVE_RUNS=30 for short runs.
set -eu

cd "$(dirname "$0")/.."
if [ -z "${QUILL:-}" ]; then
  CARGO_BUILD_JOBS=${CARGO_BUILD_JOBS:-1} cargo build --release --quiet
  QUILL=${CARGO_TARGET_DIR:-$PWD/target}/release/quill
fi
[ -x "$QUILL" ] || { echo "no release binary at $QUILL" >&2; exit 1; }
BENCH_DIR=$PWD/bench
. bench/lib.sh

BASE=${1:-${TMPDIR:-/tmp}}
DIR=$(mktemp -d "$BASE/quill-bench-transfer.XXXXXX")
trap 'rm -rf "$DIR"' EXIT INT TERM
export QUILL_STATE_DIR="$DIR/state"
SRC="$DIR/src.bin"
SIZE_MIB=${SIZE_MIB:-1024}
RUNS=${RUNS:-5}
MOVE_RUNS=${MOVE_RUNS:-30}

echo "# $(uname -srm); $(nproc) cores; files in $DIR ($(df -T "$DIR" | awk 'NR==2 {print $2}'))"
head -c "$((SIZE_MIB * 1024 * 1024))" /dev/urandom > "$SRC"
cat "$SRC" > /dev/null # warm cache

# Every command after a warmup, RUNS runs (MOVE_RUNS for the millisecond-scale moves), with
# the -p command run untimed before each; `a && b` is timed as one run, without a shell.
CLEAN="rm -f $DIR/dst.bin $DIR/.dst.bin.quill-*"
T_QUILL=$(bench_measure -w 1 -n "$RUNS" -p "$CLEAN" "$QUILL transfer --progress none $SRC $DIR/dst.bin")
T_DURABLE=$(bench_measure -w 1 -n "$RUNS" -p "$CLEAN" "cp $SRC $DIR/dst.bin && sync $DIR/dst.bin && openssl dgst -sha256 $SRC")
T_PLAIN=$(bench_measure -w 1 -n "$RUNS" -p "$CLEAN" "cp $SRC $DIR/dst.bin && openssl dgst -sha256 $SRC")
# The peers' steps one by one (for the breakdown line).
T_CP=$(bench_measure -w 1 -n "$RUNS" -p "$CLEAN" "cp $SRC $DIR/dst.bin")
T_CPSYNC=$(bench_measure -w 1 -n "$RUNS" -p "$CLEAN" "cp $SRC $DIR/dst.bin && sync $DIR/dst.bin")
T_SHA=$(bench_measure -w 1 -n "$RUNS" "openssl dgst -sha256 $SRC")

# Same-filesystem move: the file goes back and forth (each timed run moves it once).
MV_PREP="[ -e $DIR/moved.bin ] && mv $DIR/moved.bin $SRC || true"
T_QMOVE=$(bench_measure -w 1 -n "$MOVE_RUNS" -p "$MV_PREP" "$QUILL transfer --move $SRC $DIR/moved.bin")
T_MV=$(bench_measure -w 1 -n "$MOVE_RUNS" -p "$MV_PREP" "mv $SRC $DIR/moved.bin")
T_MVSYNC=$(bench_measure -w 1 -n "$MOVE_RUNS" -p "$MV_PREP" "mv $SRC $DIR/moved.bin && sync $DIR")
T_START=$(bench_measure -w 1 -n "$MOVE_RUNS" "$QUILL --version")
[ -e "$DIR/moved.bin" ] && mv "$DIR/moved.bin" "$SRC"

echo
bench_header
bench_row "transfer ${SIZE_MIB} MiB" "$T_QUILL" "cp && sync FILE && openssl dgst -sha256" "$T_DURABLE" "<= 1.0x; RSS <= 16 MiB"
bench_row "(non-durable peer)" "$T_QUILL" "cp && openssl dgst -sha256" "$T_PLAIN"
bench_row "move, same filesystem" "$T_QMOVE" "mv" "$T_MV" "<= 2x"
bench_row "(quill's startup alone: --version)" "$T_START" "mv" "$T_MV"
bench_row "(peer with directory fsync)" "$T_QMOVE" "mv && sync DIR" "$T_MVSYNC"
echo
echo "the peers one by one: cp $(bench_ms "$(bench_field "$T_CP" wall)"), cp && sync $(bench_ms "$(bench_field "$T_CPSYNC" wall)")," \
  "openssl dgst -sha256 $(bench_ms "$(bench_field "$T_SHA" wall)") (wall medians)"
echo "peak RSS of the ${SIZE_MIB} MiB transfer: $(bench_mib "$(bench_field "$T_QUILL" rss)") (goal <= 16 MiB)"
