#!/usr/bin/env bash
# Side-by-side benchmark of `quill apply` (the goal in the README's Benchmarks: a 50-file patch
# in <= 2x `git apply` of it, with every guard: baselines checked, locks, staged and fsync'ed
# files, the journal, the session's baselines and undo steps). The tree: 50 files of 200 lines
# (~8 KB each); the patch changes 3 lines in each (3 hunks a file), made by `git diff`. Each
# timed run applies the patch or its reverse in turn, so the tree ends as it started and quill's
# baselines stay fresh (an apply records the new content, as an agent's next apply needs).
# Peers: `git apply` (no fsync: it is not durable), `git apply` + `sync -f` (durable, roughly),
# and GNU `patch -p1`. Usage: bench/apply.sh [RUNS]   (default 40). Timing: bench/lib.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
N=${1:-40}
cargo build --release -q
Q="$(pwd)/${CARGO_TARGET_DIR:-target}/release/quill"
[[ -x "$Q" ]] || Q="${CARGO_TARGET_DIR:-target}/release/quill"
. bench/lib.sh
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
export QUILL_STATE_DIR="$W/state" QUILL_SESSION=bench
mkdir "$W/tree"
cd "$W/tree"
python3 - <<'PY'
import os
for f in range(50):
    os.makedirs(f"src/m{f % 5}", exist_ok=True)
    with open(f"src/m{f % 5}/file{f:02d}.rs", "w") as out:
        for i in range(200):
            out.write(f"    let value_{i:03d} = compute({f}, {i}); // line {i} of file {f}\n")
PY
git init -q && git add -A && git -c user.email=b@b -c user.name=b commit -qm base
for f in src/*/*.rs; do
  sed -i 's/compute(\([0-9]*\), 20)/recompute(\1, 20)/; s/compute(\([0-9]*\), 100)/recompute(\1, 100)/; s/compute(\([0-9]*\), 180)/recompute(\1, 180)/' "$f"
done
git diff > ../fwd.patch
git diff -R > ../rev.patch
git checkout -q .
for f in src/*/*.rs; do "$Q" read "$f" >/dev/null; done
echo "patch: $(grep -c '^diff --git' ../fwd.patch) files, $(grep -c '^@@' ../fwd.patch) hunks, $(wc -c < ../fwd.patch) bytes"

quill=$(bench_measure -w 2 -n "$N" "$Q apply ../fwd.patch" "$Q apply ../rev.patch")
git_apply=$(bench_measure -w 2 -n "$N" "git apply ../fwd.patch" "git apply ../rev.patch")
git_sync=$(bench_measure -w 2 -n "$N" "sh -c 'git apply ../fwd.patch && sync -f .'" "sh -c 'git apply ../rev.patch && sync -f .'")
patch_p1=$(bench_measure -w 2 -n "$N" "patch -s -p1 -i ../fwd.patch" "patch -s -p1 -i ../rev.patch")
check=$(bench_measure -w 1 -n "$N" "$Q apply --check ../fwd.patch")
git_check=$(bench_measure -w 1 -n "$N" "git apply --check ../fwd.patch")

echo
echo "apply a 50-file patch: $N runs each (forward and reverse in turn)"
bench_header
bench_row "quill apply" "$quill" "git apply" "$git_apply" "<= 2x"
bench_row "quill apply" "$quill" "git apply && sync -f" "$git_sync"
bench_row "quill apply" "$quill" "patch -p1" "$patch_p1"
bench_row "quill apply --check" "$check" "git apply --check" "$git_check"
