#!/usr/bin/env bash
# Mutation testing of quill's guarded layer with cargo-mutants, in a time a 2-core machine
# can afford.
#
# Usage:
#   scripts/mutants.sh [FILE...] [-- CARGO-MUTANTS-ARGS...]
#
#   FILE     one or more of the guarded layer's files (default: all of them):
#            src/guard/publish.rs src/state/lock.rs src/fs/probe.rs src/guard/mod.rs
#            src/guard/fresh.rs src/guard/current.rs src/state/checked.rs
#            src/state/mod.rs src/state/session.rs src/state/history.rs
#   --       anything after it goes to cargo-mutants itself (e.g. `-- --list`, `-- -j 2`,
#            `-- --re 'seal'`).
#
# Environment:
#   QUILL_MUTANTS_DIR   the cached copy to mutate in (default /tmp/quill-mutants-<branch>);
#                       its target/ stays warm between runs, so only quill is rebuilt.
#   QUILL_MUTANTS_OUT   where the reports go (default target/mutants/<file stem>/ here).
#   MUTANTS_TIMEOUT     seconds a mutant's tests may run (default 120).
#   MUTANTS_NOT_AFTER   a time (anything `date -d` reads, e.g. 12:50): no file is started
#                       after it; the files left are listed as not run.
#
# How it stays fast: before each file the worktree is copied (tar) into the cached copy (the
# worktree itself is never mutated, and tests written meanwhile count for the next file), and
# cargo-mutants runs there `--in-place` with the baseline skipped (run the tests green
# first). Each file is mutated on its own, and each of its mutants runs only the tests that
# exercise that file: its unit tests plus the integration tests of the guarded layer
# (`tests/it/guards.rs`) and of the commands that sit directly on it — not the whole suite —
# ignored ones included (strace, root), so run it where CI runs.
# quill itself is built at opt-level 0 without debug info for the mutants (dependencies keep
# their cached optimized builds), which roughly halves each mutant's build.
#
# Results: target/mutants/<stem>/mutants.out/{caught,missed,timeout,unviable}.txt; a summary
# line per file is printed at the end.

set -euo pipefail

here=$(cd "$(dirname "$0")/.." && pwd)
branch=$(git -C "$here" rev-parse --abbrev-ref HEAD 2>/dev/null || echo tree)
copy=${QUILL_MUTANTS_DIR:-/tmp/quill-mutants-$branch}
out_base=${QUILL_MUTANTS_OUT:-$here/target/mutants}
timeout=${MUTANTS_TIMEOUT:-120}

files=()
extra=()
while (($#)); do
    if [[ $1 == -- ]]; then
        shift
        extra=("$@")
        break
    fi
    files+=("$1")
    shift
done
if ((${#files[@]} == 0)); then
    files=(src/guard/publish.rs src/state/lock.rs src/fs/probe.rs src/guard/mod.rs
        src/guard/fresh.rs src/guard/current.rs src/state/checked.rs
        src/state/mod.rs src/state/session.rs src/state/history.rs)
fi

# The test filters (libtest substrings, OR'ed) that exercise each file.
filters_for() {
    case $1 in
    src/guard/publish.rs) echo "publish:: guards:: write:: transfer::" ;;
    src/state/lock.rs) echo "lock:: guards:: planted::" ;;
    src/state/checked.rs) echo "checked:: lock:: state:: planted::" ;;
    src/fs/probe.rs) echo "probe:: guards::" ;;
    src/guard/mod.rs | src/guard/fresh.rs | src/guard/current.rs)
        echo "guard:: guards:: write:: edit:: undo:: rm::" ;;
    src/state/*) echo "state:: guards:: undo:: planted::" ;;
    src/search/walk/*) echo "walk:: walk_order:: grep_stream:: search::" ;;
    *) echo "" ;;
    esac
}

command -v cargo-mutants >/dev/null || {
    echo "cargo-mutants is not installed: cargo install --locked cargo-mutants" >&2
    exit 2
}

# Mirror the worktree (committed or not) into the copy, keeping the copy's target/.
sync_copy() {
    mkdir -p "$copy"
    find "$copy" -mindepth 1 -maxdepth 1 ! -name target -exec rm -rf {} +
    tar -C "$here" --exclude=./target --exclude=./.git --exclude=./fuzz/target -cf - . |
        tar -C "$copy" -xf -
    # Seed the copy's target from the worktree's the first time (dependencies only matter).
    if [[ ! -d $copy/target/debug && -d $here/target/debug ]]; then
        mkdir -p "$copy/target"
        cp -a "$here/target/debug" "$copy/target/"
    fi
}
not_after=${MUTANTS_NOT_AFTER:+$(date -d "$MUTANTS_NOT_AFTER" +%s)}

profile=(--config 'profile.dev.package.quill.opt-level=0' --config 'profile.dev.package.quill.debug=0')

summary=()
for f in "${files[@]}"; do
    if [[ -n $not_after ]] && (($(date +%s) > not_after)); then
        summary+=("$f: not run (past MUTANTS_NOT_AFTER)")
        continue
    fi
    sync_copy
    stem=$(basename "${f%.rs}")
    [[ $f == src/state/* ]] && stem=state-$stem
    out="$out_base/$stem"
    mkdir -p "$out"
    read -r -a filt <<<"$(filters_for "$f")"
    echo "== $f: tests ${filt[*]}" >&2
    (
        cd "$copy"
        nice cargo mutants --in-place --baseline skip --no-shuffle \
            --file "$f" --timeout "$timeout" --build-timeout 900 \
            --output "$out" \
            "${profile[@]/#/--cargo-arg=}" \
            "${extra[@]}" \
            -- --lib --test it -- --include-ignored "${filt[@]}"
    ) || true
    o=$out/mutants.out
    if [[ -d $o ]]; then
        n() { [[ -f $o/$1.txt ]] && wc -l <"$o/$1.txt" || echo 0; }
        summary+=("$f: caught $(n caught), missed $(n missed), timeout $(n timeout), unviable $(n unviable)")
    fi
done
printf '%s\n' "${summary[@]}"
