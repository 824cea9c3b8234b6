#!/usr/bin/env bash
# Benchmark `quill transfer` over SSH side by side with `rsync --whole-file` (the goal in the
# README's Benchmarks: quill <= 1.3x rsync --whole-file wall), both through the same ssh, the
# same cipher, to a throwaway sshd on 127.0.0.1 that this script starts and stops:
#   1. push a file (1 GiB): quill transfer FILE quilltest:DIR/dst  vs  rsync --whole-file FILE
#      quilltest:DIR/dst, then vs the durable `rsync --whole-file --fsync` (no goal: quill's copy
#      is fsync'ed and hashed before it is published, plain rsync's is not)
#   2. pull it back (quilltest:DIR/src -> DIR/dst), the same two peers
# For each: wall median (min), CPU of the client side (quill or rsync and the ssh they run, from
# wait4 by bench/lib.sh), CPU of the far side (everything sshd ran for the connection: its
# session process, the shell, the far quill or rsync; the sshd listener's reaped children,
# from /proc), the far command's own CPU and peak RSS (/usr/bin/time around it), the client's
# peak RSS; ratios quill / rsync.
# Usage: bench/transfer-ssh.sh [SIZE]   (SIZE: 1G by default; 256M, 4G, or MiB as a number)
# Env: QUILL (default target/release/quill, built if missing), RUNS (5), DIR (where the files
# go: a temp dir under /var/tmp, else /work; refused on tmpfs unless ALLOW_TMPFS=1),
# CIPHER (aes128-gcm@openssh.com when the CPU has AES, else chacha20-poly1305@openssh.com).
# Needs: /usr/sbin/sshd and ssh (Debian: openssh-server openssh-client), rsync, ssh-keygen,
# /usr/bin/time (package time; without it the far command's own CPU and RSS are left out).
# Runs as root (the sshd then needs /run/sshd, made here) or as any user (logging in as itself).
set -euo pipefail

cd "$(dirname "$0")/.."
SIZE=${1:-1G}
case $SIZE in
*[Gg]) SIZE_MIB=$((${SIZE%[Gg]} * 1024)) ;;
*[Mm]) SIZE_MIB=${SIZE%[Mm]} ;;
*[!0-9]* | '') echo "size: 1G, 256M or a number of MiB, not $SIZE" >&2; exit 2 ;;
*) SIZE_MIB=$SIZE ;;
esac
RUNS=${RUNS:-5}
if [ -z "${QUILL:-}" ]; then
  QUILL=${CARGO_TARGET_DIR:-$PWD/target}/release/quill
  [ -x "$QUILL" ] || CARGO_BUILD_JOBS=${CARGO_BUILD_JOBS:-1} cargo build --release --quiet
fi
QUILL=$(cd "$(dirname "$QUILL")" && pwd)/$(basename "$QUILL")
[ -x "$QUILL" ] || { echo "no quill binary at $QUILL" >&2; exit 1; }
SSHD=/usr/sbin/sshd
for tool in "$SSHD" ssh ssh-keygen rsync; do
  command -v "$tool" > /dev/null || { echo "needs $tool (Debian: apt-get install -y openssh-server openssh-client rsync)" >&2; exit 1; }
done
TIME=/usr/bin/time
[ -x "$TIME" ] || TIME=
BENCH_DIR=$PWD/bench
. bench/lib.sh

# Files on a real disk: a transfer to tmpfs measures neither side's writes.
if [ -z "${DIR:-}" ]; then
  for base in /var/tmp /work "${TMPDIR:-/tmp}"; do
    [ -d "$base" ] && [ -w "$base" ] && [ "$(df --output=fstype "$base" | tail -1)" != tmpfs ] && break
  done
  DIR=$(mktemp -d "$base/quill-bench-ssh.XXXXXX")
  OWN_DIR=1
else
  mkdir -p "$DIR"
  DIR=$(cd "$DIR" && pwd)
  OWN_DIR=0
fi
FSTYPE=$(df --output=fstype "$DIR" | tail -1 | tr -d ' ')
if [ "$FSTYPE" = tmpfs ] && [ "${ALLOW_TMPFS:-0}" != 1 ]; then
  echo "$DIR is on tmpfs: give DIR on a disk (or ALLOW_TMPFS=1)" >&2
  exit 2
fi
K=$(mktemp -d "${TMPDIR:-/tmp}/quill-bench-sshd.XXXXXX") # keys, configs, logs
SSHD_PID=
cleanup() {
  if [ -n "$SSHD_PID" ]; then
    kill "$SSHD_PID" 2> /dev/null || true
    wait "$SSHD_PID" 2> /dev/null || true
  fi
  rm -rf "$K"
  if [ "$OWN_DIR" = 1 ]; then rm -rf "$DIR"; else rm -f "$DIR"/src.bin "$DIR"/dst.bin "$DIR"/.dst.bin.*; fi
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# --- a throwaway sshd on 127.0.0.1 --------------------------------------------------------
ssh-keygen -q -t ed25519 -N '' -C quill-bench-host -f "$K/host_ed25519"
ssh-keygen -q -t ed25519 -N '' -C quill-bench-client -f "$K/id_ed25519"
cp "$K/id_ed25519.pub" "$K/authorized_keys"
chmod 600 "$K/authorized_keys"
free_port() {
  if command -v python3 > /dev/null; then
    python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
  else
    echo $((20000 + RANDOM % 40000))
  fi
}
PORT=$(free_port)
if [ -z "${CIPHER:-}" ]; then
  if grep -qw aes /proc/cpuinfo 2> /dev/null; then CIPHER=aes128-gcm@openssh.com; else CIPHER=chacha20-poly1305@openssh.com; fi
fi
ME=$(id -un)
cat > "$K/sshd_config" << EOF
ListenAddress 127.0.0.1
Port $PORT
HostKey $K/host_ed25519
AuthorizedKeysFile $K/authorized_keys
PidFile $K/sshd.pid
StrictModes no
UsePAM no
PermitRootLogin prohibit-password
PasswordAuthentication no
KbdInteractiveAuthentication no
AllowUsers $ME
Ciphers $CIPHER
Compression no
UseDNS no
PrintMotd no
PrintLastLog no
LogLevel ERROR
EOF
cat > "$K/ssh_config" << EOF
Host quilltest
  HostName 127.0.0.1
  Port $PORT
  User $ME
  IdentityFile $K/id_ed25519
  IdentitiesOnly yes
  UserKnownHostsFile $K/known_hosts
  GlobalKnownHostsFile /dev/null
  StrictHostKeyChecking yes
  BatchMode yes
  Ciphers $CIPHER
  Compression no
  ControlMaster no
  ControlPath none
  LogLevel ERROR
EOF
echo "[127.0.0.1]:$PORT $(cut -d' ' -f1-2 "$K/host_ed25519.pub")" > "$K/known_hosts"
[ "$(id -u)" = 0 ] && mkdir -p /run/sshd
"$SSHD" -t -f "$K/sshd_config"
"$SSHD" -D -e -f "$K/sshd_config" 2> "$K/sshd.log" &
SSHD_PID=$!
RSH="ssh -F $K/ssh_config"
for _ in $(seq 50); do
  $RSH quilltest true < /dev/null 2> /dev/null && break
  kill -0 "$SSHD_PID" 2> /dev/null || { echo "sshd did not start:" >&2; cat "$K/sshd.log" >&2; exit 1; }
  sleep 0.1
done
$RSH quilltest true < /dev/null || { echo "cannot log in to the test sshd:" >&2; cat "$K/sshd.log" >&2; exit 1; }

# CPU time (ms) of every process the sshd listener has reaped: each connection's sshd, and
# through it the shell and the far command (each of them waits for its children). A script,
# for the runner's prepare step too.
cat > "$K/far-cpu.sh" << EOF
awk -v hz=$(getconf CLK_TCK) '{sub(/.*\\) /, ""); print (\$14 + \$15) * 1000 / hz}' /proc/$SSHD_PID/stat
EOF
far_cpu_ms() { sh "$K/far-cpu.sh"; }

# --- the file -------------------------------------------------------------------------------
SRC=$DIR/src.bin
DST=$DIR/dst.bin
export QUILL_STATE_DIR=$DIR/state
mkdir -p "$DIR/state-far"
echo "# $(uname -srm); $(nproc) cores; $(ssh -V 2>&1 | cut -d, -f1), cipher $CIPHER; $(rsync --version | head -1 | awk '{print "rsync " $3}');" \
  "files in $DIR ($FSTYPE); ${SIZE_MIB} MiB, $RUNS runs after 1 warmup; both ends on this machine"
head -c "$((SIZE_MIB * 1024 * 1024))" /dev/urandom > "$SRC"
cat "$SRC" > /dev/null # warm cache

HAVE_QUILL=1
if ! "$QUILL" transfer --help 2> /dev/null | grep -q -- --rsh; then
  HAVE_QUILL=0
  echo "# $QUILL has no remote transfer (no --rsh): rsync only"
fi
HAVE_FSYNC=0
rsync --help 2> /dev/null | grep -q -- '--fsync' && HAVE_FSYNC=1

# The far command under /usr/bin/time, appending "user sys maxrss_kib" for each run to $1.
far_cmd() { # far_cmd LOG CMD...
  local log=$1
  shift
  if [ -n "$TIME" ]; then echo "$TIME -a -o $log -f %U:%S:%M $*"; else echo "$*"; fi
}

# One measurement: prints the bench_measure STATS line, then "FAR_CPU_MED FAR_CPU_MIN" (sshd's
# reaped children, per timed run), then "CMD_CPU_MED CMD_CPU_MIN CMD_RSS_MAX" (/usr/bin/time).
#   measure NAME PREPARE CMD
measure() {
  local name=$1 prep=$2 cmd=$3 snaps=$K/$1.snaps timelog=$K/$1.time stats
  : > "$snaps"
  : > "$timelog"
  # The snapshot before each run is the one after the run before (sshd reaps its child
  # when the connection ends: give it a moment).
  stats=$(bench_measure -w 1 -n "$RUNS" -p "$prep; sleep 0.3; sh $K/far-cpu.sh >> $snaps" "$cmd")
  sleep 0.3
  far_cpu_ms >> "$snaps"
  echo "$stats"
  # Snapshot 1 precedes the warmup: timed run i is snapshot i+2 minus snapshot i+1.
  awk 'NR > 1 {if (NR > 2) print $1 - prev; prev = $1}' "$snaps" | sort -n |
    awk '{v[NR] = $1} END {if (NR == 0) {print "0 0"; exit} m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2; print m, v[1]}'
  if [ -s "$timelog" ]; then
    # The first line is the warmup's.
    awk -F: 'NR > 1 {print ($1 + $2) * 1000, $3}' "$timelog" | sort -n |
      awk '{v[NR] = $1; if ($2 > r) r = $2} END {m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2; print m, v[1], r}'
  else
    echo "0 0 0"
  fi
}

# The fixed cost of every run: a connection, a login, the far shell's start (its rc files).
T_CONN=$(bench_measure -w 1 -n "$RUNS" "$RSH quilltest true")

CLEAN_DST="rm -f $DST $DIR/.dst.bin.*"
Q_PUSH=(transfer --progress none "$SRC" "quilltest:$DST" --rsh "$RSH")
Q_PULL=(transfer --progress none "quilltest:$SRC" "$DST" --rsh "$RSH")
declare -A R
run() { # run KEY PREPARE CMD: R[KEY] = the three lines of measure
  R[$1]=$(measure "$1" "$2" "$3")
}
q() { printf "'%s' " "$@"; }

if [ "$HAVE_QUILL" = 1 ]; then
  # A first push and pull, checked byte for byte, before anything is timed.
  "$QUILL" "${Q_PUSH[@]}" --remote-quill "$QUILL --state-dir $DIR/state-far" > /dev/null
  cmp "$SRC" "$DST"
  rm -f "$DST"
  "$QUILL" "${Q_PULL[@]}" --remote-quill "$QUILL --state-dir $DIR/state-far" > /dev/null
  cmp "$SRC" "$DST"
  rm -f "$DST"
  run qpush "$CLEAN_DST" "$QUILL $(q "${Q_PUSH[@]}") --remote-quill '$(far_cmd "$K/qpush.time" "$QUILL" --state-dir "$DIR/state-far")'"
  run qpull "$CLEAN_DST" "$QUILL $(q "${Q_PULL[@]}") --remote-quill '$(far_cmd "$K/qpull.time" "$QUILL" --state-dir "$DIR/state-far")'"
fi
rsync --whole-file -e "$RSH" "$SRC" "quilltest:$DST"
cmp "$SRC" "$DST"
rm -f "$DST"
run rpush "$CLEAN_DST" "rsync --whole-file -e '$RSH' --rsync-path '$(far_cmd "$K/rpush.time" rsync)' $SRC quilltest:$DST"
run rpull "$CLEAN_DST" "rsync --whole-file -e '$RSH' --rsync-path '$(far_cmd "$K/rpull.time" rsync)' quilltest:$SRC $DST"
if [ "$HAVE_FSYNC" = 1 ]; then
  run rpushf "$CLEAN_DST" "rsync --whole-file --fsync -e '$RSH' --rsync-path '$(far_cmd "$K/rpushf.time" rsync)' $SRC quilltest:$DST"
  run rpullf "$CLEAN_DST" "rsync --whole-file --fsync -e '$RSH' --rsync-path '$(far_cmd "$K/rpullf.time" rsync)' quilltest:$SRC $DST"
fi

# --- the table ------------------------------------------------------------------------------
line() { echo "${R[$1]}" | sed -n "${2}p"; }
f() { echo "$1" | awk -v i="$2" '{print $i}'; } # field i of a line
wall() { local s; s=$(line "$1" 1); echo "$(bench_ms "$(f "$s" 1)") ($(bench_ms "$(f "$s" 2)"))"; }
cpu() { local s; s=$(line "$1" 1); echo "$(bench_ms "$(f "$s" 3)")"; }
far() { local s; s=$(line "$1" 2); echo "$(bench_ms "$(f "$s" 1)")"; }
both() { awk -v a="$(f "$(line "$1" 1)" 3)" -v b="$(f "$(line "$1" 2)" 1)" 'BEGIN {print a + b}'; }
cmd_cpu() { local s; s=$(line "$1" 3); [ -n "$TIME" ] && echo "$(bench_ms "$(f "$s" 1)")" || echo "n/a"; }
cmd_rss() { local s; s=$(line "$1" 3); [ -n "$TIME" ] && bench_mib "$(f "$s" 3)" || echo "n/a"; }
rss() { bench_mib "$(f "$(line "$1" 1)" 5)"; }
ratio() { bench_ratio "$1" "$2"; }
rows() { # rows LABEL QKEY RKEY
  local q=$2 r=$3
  if [ "$HAVE_QUILL" = 1 ]; then
    echo "| $1 | $(wall "$q") | $(wall "$r") | $(ratio "$(f "$(line "$q" 1)" 1)" "$(f "$(line "$r" 1)" 1)")x" \
      "| $(cpu "$q") / $(cpu "$r") | $(ratio "$(f "$(line "$q" 1)" 3)" "$(f "$(line "$r" 1)" 3)")x" \
      "| $(far "$q") / $(far "$r") | $(ratio "$(f "$(line "$q" 2)" 1)" "$(f "$(line "$r" 2)" 1)")x" \
      "| $(bench_ms "$(both "$q")") / $(bench_ms "$(both "$r")") | $(ratio "$(both "$q")" "$(both "$r")")x" \
      "| $(cmd_cpu "$q") / $(cmd_cpu "$r")" \
      "| $(rss "$q") / $(rss "$r") | $(cmd_rss "$q") / $(cmd_rss "$r") |"
  else
    echo "| $1 | | $(wall "$r") | | / $(cpu "$r") | | / $(far "$r") | | / $(bench_ms "$(both "$r")") | | / $(cmd_cpu "$r") | / $(rss "$r") | / $(cmd_rss "$r") |"
  fi
}

echo
echo "wall: median (min) of $RUNS runs; CPU: medians of user+sys — client: quill or rsync and its ssh;" \
  "far: all that sshd ran for the connection (sshd, shell, far command); far cmd: the far quill or rsync" \
  "alone. RSS: peaks. Ratios: quill / rsync. Load average at start: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores."
echo
echo "| work | quill wall | rsync wall | ratio | CPU client quill / rsync | ratio | CPU far quill / rsync | ratio | CPU both sides | ratio | CPU far cmd | RSS client | RSS far cmd |"
echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|"
rows "push ${SIZE_MIB} MiB vs rsync --whole-file" qpush rpush
[ "$HAVE_FSYNC" = 1 ] && rows "(push vs rsync --whole-file --fsync)" qpush rpushf
rows "pull ${SIZE_MIB} MiB vs rsync --whole-file" qpull rpull
[ "$HAVE_FSYNC" = 1 ] && rows "(pull vs rsync --whole-file --fsync)" qpull rpullf
echo
bench_show "the connection alone (ssh quilltest true: key exchange, login, the far shell's start), in every run above" "$T_CONN"
if [ "$HAVE_QUILL" = 1 ]; then
  ratio_push=$(ratio "$(f "$(line qpush 1)" 1)" "$(f "$(line rpush 1)" 1)")
  mark=$(awk -v r="$ratio_push" 'BEGIN {print (r <= 1.3) ? "✓" : "✗"}')
  echo "goal: quill ≤ 1.3× rsync --whole-file wall — push ${SIZE_MIB} MiB: ${ratio_push}× $mark"
else
  echo "goal: quill ≤ 1.3× rsync --whole-file wall — not measured (no remote transfer in $QUILL)"
fi
