#!/usr/bin/env bash
# bench/misses.sh: how big is the answer to an edit that misses? Runs a fixed set of mistaken
# `quill edit` calls (the misses agents make: tabs for spaces, curly quotes, trailing spaces,
# typos, nothing alike, invisible and decomposed characters, escapes sent literally, `read`'s
# line numbers copied into old, blank lines, several differing lines, a failed --edits batch)
# in text and in JSON and prints each answer's size in bytes, then the median of each mode.
#
#   bench/misses.sh [QUILL]     QUILL defaults to target/debug/quill
#
# The files live in /tmp/quill-misses (so every answer names the same path, whatever the
# machine); the state directory is private to the run.
set -euo pipefail
QUILL=${1:-target/debug/quill}
QUILL=$(cd "$(dirname "$QUILL")" && pwd)/$(basename "$QUILL")
dir=/tmp/quill-misses
rm -rf "$dir"
mkdir -p "$dir"
cd "$dir"
export QUILL_STATE_DIR="$dir/.state"
unset QUILL_FORMAT QUILL_SESSION

# case NAME FILE_CONTENT(printf format) -- EDIT ARGS...
text_sizes=()
json_sizes=()
case_() {
    local name=$1 content=$2
    shift 3
    printf "$content" >f.txt
    "$QUILL" read f.txt >/dev/null
    local t j
    t=$( { "$QUILL" --text edit f.txt "$@" 2>&1 || true; } | wc -c)
    j=$( { "$QUILL" --json edit f.txt "$@" 2>/dev/null || true; } | wc -c)
    printf '%-22s text %5d B   json %5d B\n' "$name" "$t" "$j"
    if [ -n "${SHOW:-}" ]; then "$QUILL" --text edit f.txt "$@" 2>&1 | sed "s/^/    /" || true; fi
    text_sizes+=("$t")
    json_sizes+=("$j")
}

case_ tabs 'fn f() {\n\tif x {\n\t\treturn 1;\n\t}\n}\n' -- \
    --old $'    if x {\n        return 1;\n    }' --new $'    if x {\n        return 2;\n    }'
case_ curly 'He said \xe2\x80\x9chi\xe2\x80\x9d and left.\n' -- --old 'said "hi"' --new 'said "bye"'
case_ trailing 'alpha  \nbeta\n' -- --old $'alpha\nbeta' --new $'alpha\ngamma'
case_ typo 'alpha\nbeta gamma delta\nepsilon\n' -- --old 'beta gamma delte' --new 'x'
case_ nothing 'alpha\nbeta gamma delta\nepsilon\n' -- --old 'zzzz qqqq 12345' --new 'x'
case_ zwsp 'let total = price\xe2\x80\x8b * qty;\n' -- --old 'let total = price * qty;' --new 'let total = price * qty * 2;'
case_ nfd 'name = "Rene\xcc\x81"\n' -- --old 'name = "René"' --new 'name = "Renée"'
case_ escapes 'def f():\n    return 1\n' -- --old 'def f():\n    return 1' --new 'def f():\n    return 2'
case_ numbered 'def f():\n    return 1\n' -- --old $'     1\tdef f():\n     2\t    return 1' --new $'     1\tdef f():\n     2\t    return 2'
case_ blank-lines 'a = 1\n\n\nb = 2\n' -- --old $'a = 1\n\nb = 2' --new $'a = 1\n\nb = 3'
case_ several-lines 'one = 1\ntwo = 2\nthree = 3\nfour = 4\n' -- \
    --old $'one = 1\ntwo = 22\nthree = 3\nfour = 44' --new 'x'
printf '[{"old":"one = 1","new":"one = 10"},{"old":"two = 22","new":"x"},{"old":"four = 4","new":"y"}]' >edits.json
case_ batch 'one = 1\ntwo = 2\nthree = 3\nfour = 4\n' -- --edits edits.json

median() { printf '%s\n' "$@" | sort -n | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }
echo "median: text $(median "${text_sizes[@]}") B, json $(median "${json_sizes[@]}") B over ${#text_sizes[@]} misses"
