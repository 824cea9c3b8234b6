#!/usr/bin/env bash
# Side-by-side benchmarks of `quill read` (SPEC §4), printed as ratios in one run:
#   1. `quill read --limit 10` of a 1 GiB file (whole-file SHA-256 + line count) vs
#      `openssl dgst -sha256` of it, warm cache; peak RSS of the read.
#   2. per-call overhead of the state file: `quill read` of a small file with an empty state
#      vs a state of 64 sessions x 512 baselines.
# Usage: bench/read.sh [SIZE_MIB]   (default 1024; needs hyperfine, openssl, python3)
set -euo pipefail
cd "$(dirname "$0")/.."
MIB=${1:-1024}
cargo build --release -q
Q="$(cd "${CARGO_TARGET_DIR:-target}/release" && pwd)/quill"
W=$(mktemp -d "${TMPDIR:-/tmp}/quill-bench-read.XXXXXX")
trap 'rm -rf "$W"' EXIT
cd "$W"

bench() { # hyperfine ARGS... -> the mean wall time of each command in ms, space-separated
  hyperfine -N --style none --export-json "$W/hf.json" "$@" >/dev/null 2>&1
  python3 -c 'import json,sys; print(" ".join("%.2f" % (r["mean"]*1e3) for r in json.load(open(sys.argv[1]))["results"]))' "$W/hf.json"
}
cpu() { # the mean CPU time (user + system) of each command of the last bench, in ms
  python3 -c 'import json,sys; print(" ".join("%.2f" % ((r["user"]+r["system"])*1e3) for r in json.load(open(sys.argv[1]))["results"]))' "$W/hf.json"
}
ratio() { python3 -c "print(f'{$1/$2:.2f}')"; }

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
read -r q o < <(bench --warmup 1 --runs 5 "$Q read big.txt --limit 10" "openssl dgst -sha256 big.txt")
rss=$(/usr/bin/time -f %M "$Q" read big.txt --limit 10 2>&1 >/dev/null | tail -1)
echo "quill read --limit 10: ${q} ms   openssl dgst -sha256: ${o} ms   ratio: $(ratio "$q" "$o")x (goal <= 1.1x)"
echo "peak RSS of quill read: ${rss} KiB (goal <= 16 MiB)"
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
read -r e f < <(bench --warmup 20 --runs 500 \
  "env QUILL_STATE_DIR=$W/empty QUILL_SESSION=bench $Q read small.txt" \
  "env QUILL_STATE_DIR=$W/full QUILL_SESSION=bench $Q read small.txt")
read -r ce cf < <(cpu)
echo "empty state: ${e} ms   64x512 state: ${f} ms   overhead: $(python3 -c "print(f'{$f-$e:.2f}')") ms wall (goal <= 1 ms)"
echo "CPU (user+sys): ${ce} ms vs ${cf} ms   overhead: $(python3 -c "print(f'{$cf-$ce:.2f}')") ms"
if command -v valgrind >/dev/null; then
  ir() { valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>&1 >/dev/null | sed -n 's/.*refs: *//p' | tr -d ,; }
  ie=$(ir "$Q" --state-dir "$W/empty" --session bench read small.txt)
  ifull=$(ir "$Q" --state-dir "$W/full" --session bench read small.txt)
  echo "instructions (callgrind, load-independent): ${ie} vs ${ifull}: +$(( (ifull - ie) / 1000 ))k per call"
fi
