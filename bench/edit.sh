#!/usr/bin/env bash
# Side-by-side benchmark of one-line edits (the goals in the README's Benchmarks): `quill edit` of one line in a 100 KB
# file whose session holds 512 baselines, against `sed -i` and a minimal Python str_replace
# editor (read, check unique, replace, write a temp file, rename: what Python agent tools pay).
# Then contention: edits landed per second with 8 processes read→edit-ing one file.
# Usage: bench/edit.sh [ITERATIONS]   (default 200; CONTENTION_EDITS=50 per process; prints
# median ms per op and ratios, no assertion). Timing: bench/lib.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
N=${1:-200}
cargo build --release -q
Q="$(pwd)/${CARGO_TARGET_DIR:-target}/release/quill"
[[ "$Q" = /* ]] || Q="$(pwd)/$Q"
[[ -x "$Q" ]] || Q="${CARGO_TARGET_DIR:-target}/release/quill"
. bench/lib.sh
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
export QUILL_STATE_DIR="$W/state" QUILL_SESSION=bench
cd "$W"

# 100 KB file: 2000 lines of 50 bytes, one of them holds the value we toggle.
python3 - <<'PY'
lines = [f"line {i:05d} of the benchmark file, padded to fifty\n"[:49] + "\n" for i in range(2000)]
lines[1000] = "value = AAAA; // the line we edit, padded out.....\n"[:49] + "\n"
open("f.txt", "w").write("".join(lines))
PY
# 511 other files read into the session, then the target: 512 baselines.
for i in $(seq 511); do echo "other $i" > "o$i.txt"; "$Q" read "o$i.txt" >/dev/null; done
"$Q" read f.txt >/dev/null
echo "state file: $(du -k state/sessions/*.json | cut -f1) KiB, $("$Q" --json state | python3 -c "import json,sys;print(len(json.load(sys.stdin)['baselines']))") baselines"
# The setup's 512 new files are written back now, not during the first timed fsyncs.
sync

cat > edit.py <<'PY'
import os, sys, tempfile
path, old, new = sys.argv[1], sys.argv[2], sys.argv[3]
with open(path, encoding="utf-8", newline="") as f:
    text = f.read()
if text.count(old) != 1:
    sys.exit("not unique")
text = text.replace(old, new, 1)
d = os.path.dirname(os.path.abspath(path))
fd, tmp = tempfile.mkstemp(dir=d, prefix=".edit-")
with os.fdopen(fd, "w", encoding="utf-8", newline="") as f:
    f.write(text)
    f.flush()
    os.fsync(f.fileno())
os.chmod(tmp, os.stat(path).st_mode & 0o7777)
os.replace(tmp, path)
PY

# Every timed command is a pair of alternatives run in turn (AAAA -> BBBB, then back), so each
# run is one edit and the file ends as it started; 2 warmups = one full cycle.
toggle() { # PREFIX: the two commands "PREFIX old new" and "PREFIX new old"
  bench_measure -w 2 -n "$N" "$1 \"value = AAAA\" \"value = BBBB\"" "$1 \"value = BBBB\" \"value = AAAA\""
}
# quill edit alone: each successful edit records its result as the baseline, so toggling
# needs no re-read (this is the per-edit cost an agent pays after its first read).
quill=$(bench_measure -w 2 -n "$N" \
  "$Q edit f.txt --old 'value = AAAA' --new 'value = BBBB'" \
  "$Q edit f.txt --old 'value = BBBB' --new 'value = AAAA'")
# New content every time, as an agent's edits are: ten values in a cycle, so the content an
# edit replaces was last seen ten edits ago and its undo blob (the session keeps 8 steps a file)
# is gone: each edit writes, fsyncs and renames a new blob, and drops the oldest.
fresh_cmds=()
for i in 0 1 2 3 4 5 6 7 8 9; do
  fresh_cmds+=("$Q edit f.txt --old 'value = X00$i' --new 'value = X00$(((i + 1) % 10))'")
done
sed -i 's/value = AAAA/value = X000/' f.txt && "$Q" read f.txt >/dev/null
fresh=$(bench_measure -w 10 -n "$N" "${fresh_cmds[@]}")
sed -i 's/value = X00[0-9]/value = AAAA/' f.txt && "$Q" read f.txt >/dev/null
# quill read (first page) + edit, the full cycle: one run is both processes.
cycle=$(bench_measure -w 2 -n "$N" \
  "$Q read f.txt --limit 1 && $Q edit f.txt --old 'value = AAAA' --new 'value = BBBB'" \
  "$Q read f.txt --limit 1 && $Q edit f.txt --old 'value = BBBB' --new 'value = AAAA'")
sed=$(bench_measure -w 2 -n "$N" "sed -i 's/value = AAAA/value = BBBB/' f.txt" "sed -i 's/value = BBBB/value = AAAA/' f.txt")

# The same script three ways: `python3` as found on PATH (here a pyenv shim, as many machines
# have), the interpreter itself, and the interpreter without site imports (-S, the floor).
PY_REAL=$(python3 -c 'import sys; print(sys.executable)')
py=$(toggle "python3 edit.py f.txt")
py_real=$(toggle "$PY_REAL edit.py f.txt")
py_bare=$(toggle "$PY_REAL -S edit.py f.txt")

# Contention: 8 processes, each its own session, read→edit with retry on stale; one timed run
# of all of them (wall from the first start to the last exit, CPU of all eight).
printf '# header\n' > shared.txt
C=${CONTENTION_EDITS:-50}
cat > contend.sh <<'SH'
Q=$1 C=$2
worker() {
  local w=$1 i
  for ((i = 0; i < C; i++)); do
    until "$Q" --session "w$w" read shared.txt --limit 1 >/dev/null &&
      "$Q" --session "w$w" edit shared.txt --old "# header
" --new "# header
w$w-$i
" >/dev/null 2>&1; do :; done
  done
}
for w in 0 1 2 3 4 5 6 7; do worker "$w" & done
wait
SH
contention=$(bench_measure -w 0 -n 1 "bash contend.sh '$Q' $C")
landed=$(($(wc -l < shared.txt) - 1))
rate=$(awk -v n="$landed" -v ms="$(bench_field "$contention" wall)" 'BEGIN {printf "%.0f", n / (ms / 1e3)}')

faster() { # PEER_STATS: how many times quill edit's median is below the peer's, wall and CPU
  echo "$(bench_ratio "$(bench_field "$1" wall)" "$(bench_field "$quill" wall)")x wall," \
    "$(bench_ratio "$(bench_field "$1" cpu)" "$(bench_field "$quill" cpu)")x CPU"
}

echo
echo "one-line edits: $N runs each, 100 KB file, 512 baselines"
bench_header
bench_row "quill edit (baseline from its previous edit)" "$quill" "sed -i" "$sed" "<= 1.5x"
bench_row "quill edit, new content each time (an undo blob a run)" "$fresh" "sed -i" "$sed"
bench_row "quill read --limit 1 + edit" "$cycle" "sed -i" "$sed"
bench_row "quill edit" "$quill" "python3 str_replace script (python3 on PATH)" "$py" ">= 20x faster"
bench_row "quill edit" "$quill" "same, the interpreter itself ($PY_REAL)" "$py_real" ">= 20x faster"
bench_row "quill edit" "$quill" "same, without site imports (-S)" "$py_bare" ">= 20x faster"
echo
echo "quill edit is faster than the python3 script (on PATH) by $(faster "$py");" \
  "than the interpreter itself by $(faster "$py_real"); than it with -S by $(faster "$py_bare")"
echo "contention: $landed edits landed by 8 processes in $(bench_ms "$(bench_field "$contention" wall)")" \
  "(CPU $(bench_ms "$(bench_field "$contention" cpu)")): $rate edits/s ($((C * 8)) expected)"
