#!/bin/sh
# Benchmark `quill transfer` side by side with its peers (SPEC §4), as ratios:
#   1. copy a 1 GiB file: quill transfer  vs  cp + openssl dgst -sha256 (goal <= 1.0x the sum)
#   2. same-filesystem --move  vs  mv (goal <= 2x)
#   3. peak RSS of the 1 GiB transfer (goal <= 16 MiB)
# Usage: bench/transfer.sh [DIR]   (DIR: where the files go; default a temp dir on the work disk)
# Needs: cargo, hyperfine (else plain loops), openssl, /usr/bin/time (else /proc polling).
set -eu

cd "$(dirname "$0")/.."
CARGO_BUILD_JOBS=${CARGO_BUILD_JOBS:-1} cargo build --release --quiet
QUILL=${CARGO_TARGET_DIR:-$PWD/target}/release/quill
[ -x "$QUILL" ] || { echo "no release binary at $QUILL" >&2; exit 1; }

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

# Median seconds of a command (after a warmup; N runs, default RUNS), with `prepare` run before
# each timing. The median, because the machine may be shared.
timed() { # prepare command
    if command -v hyperfine > /dev/null; then
        # -N: no shell around the timed command (at millisecond scale the shell's calibration
        # noise swamps the result); commands that need one are wrapped in `sh -c` explicitly.
        case "$2" in
        *'&&'*) cmd="sh -c '$2'" ;;
        *) cmd=$2 ;;
        esac
        hyperfine -N --style none --warmup 1 --runs "${N:-$RUNS}" --prepare "sh -c '$1'" \
            --export-json "$DIR/h.json" "$cmd" > /dev/null 2>&1
        python3 -c 'import json,sys; r = json.load(open(sys.argv[1]))["results"][0]; print("%.4f" % r["median"]); open(sys.argv[1] + ".cpu", "a").write("%.4f\n" % (r["user"] + r["system"]))' "$DIR/h.json"
    else
        total=0
        i=0
        while [ $i -lt "${N:-$RUNS}" ]; do
            sh -c "$1"
            t0=$(date +%s.%N)
            sh -c "$2" > /dev/null
            t1=$(date +%s.%N)
            total=$(echo "$total + $t1 - $t0" | bc -l)
            i=$((i + 1))
        done
        echo "scale=4; $total / ${N:-$RUNS}" | bc -l # (a mean, without hyperfine)
    fi
}

ratio() { python3 -c "import sys; print('%.2f' % (float(sys.argv[1]) / float(sys.argv[2])))" "$1" "$2"; }

CLEAN="rm -f $DIR/dst.bin $DIR/.dst.bin.quill-*"
T_QUILL=$(timed "$CLEAN" "$QUILL transfer --progress none $SRC $DIR/dst.bin")
T_CP=$(timed "$CLEAN" "cp $SRC $DIR/dst.bin")
T_CPSYNC=$(timed "$CLEAN" "cp $SRC $DIR/dst.bin && sync $DIR/dst.bin")
T_SHA=$(timed "true" "openssl dgst -sha256 $SRC")
SUM=$(python3 -c "print('%.4f' % ($T_CP + $T_SHA))")
# CPU seconds (user + system, means) of the same four runs, in order: quill, cp, cp+sync, openssl.
CPU=$(cat "$DIR/h.json.cpu" 2> /dev/null | tr '\n' ' ')
C_QUILL=$(echo "$CPU" | awk '{print $1}')
C_SUM=$(echo "$CPU" | awk '{printf "%.4f", $2 + $4}')
SUMSYNC=$(python3 -c "print('%.4f' % ($T_CPSYNC + $T_SHA))")

# Same-filesystem move: the file goes back and forth (each timed run moves it once).
MV_PREP="[ -e $DIR/moved.bin ] && mv $DIR/moved.bin $SRC || true"
T_QMOVE=$(N=$MOVE_RUNS timed "$MV_PREP" "$QUILL transfer --move $SRC $DIR/moved.bin")
T_MV=$(N=$MOVE_RUNS timed "$MV_PREP" "mv $SRC $DIR/moved.bin")
T_MVSYNC=$(N=$MOVE_RUNS timed "$MV_PREP" "mv $SRC $DIR/moved.bin && sync $DIR")
T_START=$(N=$MOVE_RUNS timed "true" "$QUILL --version")
[ -e "$DIR/moved.bin" ] && mv "$DIR/moved.bin" "$SRC"

# Peak RSS of one 1 GiB transfer.
rm -f "$DIR/dst.bin"
if [ -x /usr/bin/time ]; then
    RSS_KIB=$(/usr/bin/time -f %M "$QUILL" transfer --progress none "$SRC" "$DIR/dst.bin" 2>&1 > /dev/null | tail -1)
else
    "$QUILL" transfer --progress none "$SRC" "$DIR/dst.bin" > /dev/null &
    pid=$!
    RSS_KIB=0
    while kill -0 $pid 2> /dev/null; do
        v=$(awk '/VmHWM/ {print $2}' /proc/$pid/status 2> /dev/null || echo 0)
        [ -n "$v" ] && [ "$v" -gt "$RSS_KIB" ] && RSS_KIB=$v
        sleep 0.01
    done
fi

echo
echo "| work | quill | peer | ratio | goal |"
echo "|---|---|---|---|---|"
echo "| transfer ${SIZE_MIB} MiB | ${T_QUILL} s | cp ${T_CP} s + openssl ${T_SHA} s = ${SUM} s | $(ratio "$T_QUILL" "$SUM")x | <= 1.0x |"
[ -n "$C_QUILL" ] && echo "| (CPU time, user+sys) | ${C_QUILL} s | cp + openssl ${C_SUM} s | $(ratio "$C_QUILL" "$C_SUM")x | |"
echo "| (peer with fsync) | ${T_QUILL} s | cp+sync ${T_CPSYNC} s + openssl = ${SUMSYNC} s | $(ratio "$T_QUILL" "$SUMSYNC")x | |"
echo "| move, same filesystem | ${T_QMOVE} s | mv ${T_MV} s | $(ratio "$T_QMOVE" "$T_MV")x | <= 2x |"
echo "| (quill's startup alone: --version) | ${T_START} s | mv ${T_MV} s | $(ratio "$T_START" "$T_MV")x | |"
echo "| (peer with directory fsync, in sh -c) | ${T_QMOVE} s | mv + sync DIR ${T_MVSYNC} s | $(ratio "$T_QMOVE" "$T_MVSYNC")x | |"
echo "| peak RSS, ${SIZE_MIB} MiB transfer | $((RSS_KIB / 1024)) MiB (${RSS_KIB} KiB) | | | <= 16 MiB |"
