#!/usr/bin/env bash
# bench/durability.sh: what each fsync of a change costs. Runs N `quill edit` calls on one
# small file under `strace -T` and prints, per kind of flush, how many each edit makes and the
# median and max time one takes: the temporary file's fsync before the rename, the directory's
# after it, and the undo blob's (fdatasync before its own rename). Session saves are not
# flushed (a torn session is quarantined; README, "Decisions"), so they show up as none.
#
#   bench/durability.sh [QUILL] [N]     QUILL defaults to target/debug/quill, N to 30
#
# Needs strace. The figures are of this machine's disk; compare them with the edit's own time
# (bench/edit.sh).
set -euo pipefail
QUILL=${1:-target/debug/quill}
N=${2:-30}
QUILL=$(cd "$(dirname "$QUILL")" && pwd)/$(basename "$QUILL")
command -v strace >/dev/null || { echo "needs strace" >&2; exit 2; }
dir=$(mktemp -d /tmp/quill-durability.XXXXXX)
trap 'rm -rf "$dir"' EXIT
cd "$dir"
export QUILL_STATE_DIR="$dir/.state"
unset QUILL_FORMAT QUILL_SESSION
printf 'value = 0\n' >f.txt
"$QUILL" read f.txt >/dev/null
: >all.log
for i in $(seq 1 "$N"); do
    strace -f -qq -T -y -e trace=fsync,fdatasync -o one.log \
        "$QUILL" edit f.txt --old "value = $((i - 1))" --new "value = $i" >/dev/null
    cat one.log >>all.log
done
# fsync(3</dir/.f.txt.quill-ab12.tmp>) = 0 <0.000712>
awk -v n="$N" -v state="$QUILL_STATE_DIR" '
    /= 0 </ {
        path = $0; sub(/^[^<]*</, "", path); sub(/>.*$/, "", path)
        t = $NF; gsub(/[<>]/, "", t)
        if (index(path, state "/history/")) kind = "undo blob"
        else if (index(path, state "/sessions/")) kind = "session"
        else if (path ~ /\.quill-[A-Za-z0-9]+\.tmp$/) kind = "temporary file"
        else kind = "directory"
        times[kind] = times[kind] " " t * 1000; count[kind]++
    }
    END {
        printf "%-16s %10s %10s %10s\n", "flush", "per edit", "median ms", "max ms"
        split("temporary file,directory,undo blob,session", kinds, ",")
        for (k = 1; k <= 4; k++) {
            kind = kinds[k]
            if (!count[kind]) { printf "%-16s %10s\n", kind, "none"; continue }
            m = split(substr(times[kind], 2), v, " ")
            for (i = 1; i <= m; i++) for (j = i + 1; j <= m; j++) if (v[j] < v[i]) { x = v[i]; v[i] = v[j]; v[j] = x }
            printf "%-16s %10.1f %10.2f %10.2f\n", kind, count[kind] / n, v[int((m + 1) / 2)], v[m]
        }
    }' all.log
