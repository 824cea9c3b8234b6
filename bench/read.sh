#!/usr/bin/env bash
# Side-by-side benchmarks of `quill read` (the goals in the README's Benchmarks), printed as ratios in one run:
#   1. `quill read --limit 10` of a 1 GiB file (whole-file SHA-256 + line count) vs
#      `openssl dgst -sha256` of it, warm cache; peak RSS of the read.
#   2. per-call overhead of the state file: `quill read` of a small file with an empty state
#      vs a state of 64 sessions x 512 baselines.
# Usage: bench/read.sh [SIZE_MIB]   (default 1024; RUNS=5 for the big read, CALLS=500 for the
# per-call overhead; needs openssl, python3; valgrind optional). Timing: bench/lib.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
MIB=${1:-1024}
RUNS=${RUNS:-5}
CALLS=${CALLS:-500}
cargo build --release -q
Q="$(cd "${CARGO_TARGET_DIR:-target}/release" && pwd)/quill"
. bench/lib.sh
W=$(mktemp -d "${TMPDIR:-/tmp}/quill-bench-read.XXXXXX")
trap 'rm -rf "$W"' EXIT
cd "$W"

echo "== read a page of a ${MIB} MiB file vs openssl dgst -sha256"
python3 - "$MIB" <<'PY'
import sys
line = b"".join(b"%07d the quick brown fox jumps over the lazy dog, again and again\n" % i for i in range(16384))
with open("big.txt", "wb") as f:
    for _ in range(int(sys.argv[1]) * 1024 * 1024 // len(line)):
        f.write(line)
PY
cat big.txt >/dev/null
export QUILL_STATE_DIR="$W/state"
bench_header
bench_vs -w 1 -n "$RUNS" "read a page of ${MIB} MiB (--limit 10)" "$Q read big.txt --limit 10" \
  "openssl dgst -sha256" "openssl dgst -sha256 big.txt" "wall <= 1.1x; quill RSS <= 16 MiB"
echo
rm -f big.txt

echo "== per-call overhead: empty state vs 64 sessions x 512 baselines"
echo "hello" > small.txt
mkdir -p empty full/sessions full/locks
python3 - <<'PY'
import hashlib, json, os
for s in range(64):
    name = "bench" if s == 0 else f"session-{s}"
    files = {}
    for i in range(512):
        p = f"/work/some/project/src/module_{s}/file_{i:04d}.rs"
        files[p] = {"sha256": hashlib.sha256(p.encode()).hexdigest(), "size": 1000 + i,
                    "dev": 2049, "ino": 100000 + i, "mtimeNs": 1796000000000000000 + i,
                    "ctimeNs": 1796000000000000000 + i, "readAtNs": 1796000000000000000 + i,
                    "complete": True, "used": i + 1}
    doc = {"version": 1, "session": name, "clock": 512, "files": files, "history": {}}
    h = hashlib.sha256(name.encode()).hexdigest()
    json.dump(doc, open(f"full/sessions/{h}.json", "w"))
os.chmod("full", 0o700)
PY
echo "state file of the session: $(du -k full/sessions/"$(printf bench | sha256sum | cut -c1-64)".json | cut -f1) KiB"
e=$(bench_measure -w 20 -n "$CALLS" "env QUILL_STATE_DIR=$W/empty QUILL_SESSION=bench $Q read small.txt")
f=$(bench_measure -w 20 -n "$CALLS" "env QUILL_STATE_DIR=$W/full QUILL_SESSION=bench $Q read small.txt")
bench_header
bench_row "read a small file, 64x512 state" "$f" "same, empty state" "$e" "overhead <= 1 ms"
delta() { awk -v a="$(bench_field "$f" "$1")" -v b="$(bench_field "$e" "$1")" 'BEGIN {printf "%+.2f ms\n", a - b}'; }
echo
echo "per-call overhead of the 64x512 state: $(delta wall) wall median (min: $(delta wall_min)), $(delta cpu) CPU median (goal <= 1 ms)"
if command -v valgrind >/dev/null; then
  ir() { valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>&1 >/dev/null | sed -n 's/.*refs: *//p' | tr -d ,; }
  ie=$(ir "$Q" --state-dir "$W/empty" --session bench read small.txt)
  ifull=$(ir "$Q" --state-dir "$W/full" --session bench read small.txt)
  echo "instructions (callgrind, load-independent): ${ie} vs ${ifull}: +$(( (ifull - ie) / 1000 ))k per call"
fi
