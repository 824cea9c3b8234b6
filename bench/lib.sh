# bench/lib.sh: the one timing helper of the bench scripts. Source it (POSIX sh or bash) after
# `cd` to the repository root or from a script in bench/:   . bench/lib.sh
#
# One statistic everywhere: a command is run N times (after warmups) and reported as the median
# and the minimum of its wall time, the median and minimum of its CPU time (user + system,
# including every process it waited for), and its peak RSS (the largest ru_maxrss of any run).
# All of it comes from wait4(2) in bench/runner.rs, a std-only Rust program built here with
# plain rustc into ${CARGO_TARGET_DIR:-target}/bench-runner/ (no hyperfine, no /usr/bin/time,
# no Python in the measuring loop: a Python parent would put its own ~14 MB into every RSS).
# Its floor: about 1 MiB of RSS (like /usr/bin/time's) and the fork+exec of each run.
#
# Commands are strings split like shell words ('quotes' work, "$vars" are expanded by the
# calling shell first) and run without a shell, stdout and stdin on /dev/null; write
# `sh -c '...'` to have one. An unquoted `&&` chains steps timed as one run; several commands
# are alternatives run in turn (run i does CMD[i mod k]: edits that toggle a file back and forth).
#
#   bench_measure [-n RUNS] [-w WARMUP] [-p PREPARE] [-i] [-r RAWFILE] CMD...
#       prints one STATS line: WALL_MEDIAN_MS WALL_MIN_MS CPU_MEDIAN_MS CPU_MIN_MS PEAK_RSS_KIB RUNS
#       -n runs (default $BENCH_RUNS or 10), -w warmups (default $BENCH_WARMUP or 1),
#       -p a shell command run untimed before every run, -i ignore non-zero exits,
#       -r append each run's "wall_ms cpu_ms rss_kib" to RAWFILE.
#   bench_field STATS wall|wall_min|cpu|cpu_min|rss|runs    one number of a STATS line
#   bench_sum STATS STATS...    STATS of work done one after the other (medians and minimums
#                               added, the larger RSS): e.g. `cp` + `openssl dgst` as one peer
#   bench_ratio A B             A / B as "1.23" ("n/a" when B is 0)
#   bench_ms MS                 "0.41 ms", "3.71 ms", "221.3 ms", "1.234 s"
#   bench_mib KIB               "3.8 MiB"
#   bench_show LABEL STATS      "LABEL: wall 3.71 ms (min 3.50 ms), CPU 1.84 ms (min 1.60 ms),
#                               peak RSS 4.6 MiB, 200 runs"
#   bench_header                the markdown header of a table of bench_row / bench_vs rows
#   bench_row LABEL QUILL_STATS PEER_LABEL PEER_STATS [GOAL]
#                               one row: quill's wall median (min), the peer's, wall ratio,
#                               CPU medians and ratio, peak RSS and ratio (ratios quill / peer)
#   bench_vs [bench_measure options] LABEL QUILL_CMD PEER_LABEL PEER_CMD [GOAL]
#                               measures both (same options) and prints their bench_row
#
# Ratios are of medians (of peaks for RSS). On a shared machine the CPU time and the minimum
# are the steadier figures; the median is the one to quote.

if [ -n "${BASH_SOURCE:-}" ]; then
  BENCH_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
elif [ -z "${BENCH_DIR:-}" ]; then # sh cannot tell a sourced file's path: set BENCH_DIR first,
  BENCH_DIR=$(cd "$(dirname "$0")" && pwd) # or source it from a script in bench/, before any cd
fi
[ -f "$BENCH_DIR/runner.rs" ] || { echo "bench/lib.sh: cannot find bench/runner.rs (from $BENCH_DIR)" >&2; exit 2; }

# Build the runner once per change of runner.rs (atomically: parallel scripts may race here).
_bench_build_runner() {
  local target out tmp
  target=${CARGO_TARGET_DIR:-$BENCH_DIR/../target}
  mkdir -p "$target/bench-runner"
  out="$(cd "$target/bench-runner" && pwd)/runner"
  if [ ! -x "$out" ] || [ "$BENCH_DIR/runner.rs" -nt "$out" ]; then
    tmp="$out.tmp.$$"
    "${RUSTC:-rustc}" -O --edition 2021 --crate-name bench_runner -o "$tmp" "$BENCH_DIR/runner.rs" >&2 &&
      mv -f "$tmp" "$out" || { rm -f "$tmp"; echo "bench/lib.sh: building the runner failed" >&2; return 1; }
  fi
  BENCH_RUNNER=$out
}
_bench_build_runner || exit 2

# Single-quote one argument for eval.
_bench_q() { printf "'%s'" "$(printf '%s' "$1" | sed "s/'/'\\\\''/g")"; }

bench_measure() {
  local runs warm pre
  runs=${BENCH_RUNS:-10} warm=${BENCH_WARMUP:-1} pre=""
  while [ $# -gt 0 ]; do
    case $1 in
    -n) runs=$2; shift 2 ;;
    -w) warm=$2; shift 2 ;;
    -p) pre="$pre --prepare $(_bench_q "$2")"; shift 2 ;;
    -r) pre="$pre --raw $(_bench_q "$2")"; shift 2 ;;
    -i) pre="$pre --ignore-failure"; shift ;;
    --) shift; break ;;
    *) break ;;
    esac
  done
  [ $# -gt 0 ] || { echo "bench_measure: no command" >&2; return 2; }
  eval "\"\$BENCH_RUNNER\" --runs \"\$runs\" --warmup \"\$warm\" $pre -- \"\$@\""
}

bench_field() {
  local i
  case $2 in
  wall) i=1 ;; wall_min) i=2 ;; cpu) i=3 ;; cpu_min) i=4 ;; rss) i=5 ;; runs) i=6 ;;
  *) echo "bench_field: unknown field $2" >&2; return 2 ;;
  esac
  echo "$1" | awk -v i=$i '{print $i}'
}

bench_sum() {
  printf '%s\n' "$@" | awk '{for (i = 1; i <= 4; i++) s[i] += $i; if ($5 > r) r = $5; if (NR == 1 || $6 < n) n = $6}
    END {printf "%.4f %.4f %.4f %.4f %d %d\n", s[1], s[2], s[3], s[4], r, n}'
}

bench_ratio() { awk -v a="$1" -v b="$2" 'BEGIN {if (b + 0 == 0) print "n/a"; else printf "%.2f\n", a / b}'; }

bench_ms() {
  awk -v v="$1" 'BEGIN {if (v >= 1000) printf "%.3f s\n", v / 1000; else if (v >= 100) printf "%.1f ms\n", v;
    else if (v >= 10) printf "%.2f ms\n", v; else printf "%.3f ms\n", v}'
}

bench_mib() { awk -v k="$1" 'BEGIN {printf "%.1f MiB\n", k / 1024}'; }

bench_show() {
  set -- "$1" $2
  echo "$1: wall $(bench_ms "$2") (min $(bench_ms "$3")), CPU $(bench_ms "$4") (min $(bench_ms "$5")), peak RSS $(bench_mib "$6"), $7 runs"
}

bench_header() {
  echo "wall: median (min) of the runs; CPU: median user+sys; RSS: peak; ratios: quill / peer." \
    "Load average at start: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo '?') on $(nproc 2>/dev/null || echo '?') cores."
  echo
  echo "| work | quill wall | peer | peer wall | wall | CPU quill / peer | CPU | peak RSS quill / peer | RSS | goal |"
  echo "|---|---|---|---|---|---|---|---|---|---|"
}

bench_row() {
  local label peer goal
  label=$1 peer=$3 goal=${5:-}
  set -- $2 $4
  echo "| $label | $(bench_ms "$1") ($(bench_ms "$2")) | $peer | $(bench_ms "$7") ($(bench_ms "$8")) | $(bench_ratio "$1" "$7")x" \
    "| $(bench_ms "$3") / $(bench_ms "$9") | $(bench_ratio "$3" "$9")x" \
    "| $(bench_mib "$5") / $(bench_mib "${11}") | $(bench_ratio "$5" "${11}")x | $goal |"
}

bench_vs() {
  local opts q p
  opts=""
  while [ $# -gt 0 ]; do
    case $1 in
    -n | -w | -p | -r) opts="$opts $1 $(_bench_q "$2")"; shift 2 ;;
    -i) opts="$opts -i"; shift ;;
    *) break ;;
    esac
  done
  [ $# -ge 4 ] || { echo "bench_vs: needs LABEL QUILL_CMD PEER_LABEL PEER_CMD [GOAL]" >&2; return 2; }
  q=$(eval "bench_measure $opts -- \"\$2\"") || return 1
  p=$(eval "bench_measure $opts -- \"\$4\"") || return 1
  bench_row "$1" "$q" "$3" "$p" "${5:-}"
}
