#!/usr/bin/env bash
# Side-by-side benchmark of `quill mcp` (the goals in the README's Benchmarks):
#  1. latency per call over one MCP connection against one `quill` process per call, for a read
#     (a 100-line file) and a one-line edit (toggled back and forth): goal >= 5x lower over MCP;
#     then the server's memory over a soak of 24,000 more calls (it must level off);
#  2. what the MCP code costs the plain CLI: `quill read` of a small file from the default
#     build (with the `mcp` feature) against a build without it: goal < 0.3 ms difference.
# The MCP side is driven by a small Python client speaking raw JSON-RPC over the pipe (no SDK):
# its own encode/decode is inside the measured time. The process side is timed by bench/lib.sh.
# Usage: bench/mcp.sh [CALLS]   (default 500; prints medians and minimums, no assertion)
set -euo pipefail
cd "$(dirname "$0")/.."
N=${1:-500}
cargo build --release -q
CARGO_TARGET_DIR=target/nomcp cargo build --release -q --no-default-features
Q="$(pwd)/target/release/quill"
Q0="$(pwd)/target/nomcp/release/quill"
. bench/lib.sh
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
export QUILL_STATE_DIR="$W/state" QUILL_SESSION=bench
cd "$W"
python3 -c 'open("f.txt","w").write("".join(f"line {i} of the file\n" for i in range(100)))'
sync

# 1. One connection: N reads, then N edits (each after the previous one's baseline).
cat > client.py <<'PY'
import json, subprocess, sys, time
q, n = sys.argv[1], int(sys.argv[2])
p = subprocess.Popen([q, "mcp"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                     stderr=subprocess.DEVNULL)
rid = 0
def rpc(method, params=None, notify=False):
    global rid
    msg = {"jsonrpc": "2.0", "method": method}
    if params is not None:
        msg["params"] = params
    if not notify:
        rid += 1
        msg["id"] = rid
    p.stdin.write((json.dumps(msg) + "\n").encode())
    p.stdin.flush()
    if notify:
        return None
    line = p.stdout.readline()
    reply = json.loads(line)
    if "error" in reply or reply["result"].get("isError"):
        sys.exit(f"{method}: {line[:300]!r}")
    return reply
rpc("initialize", {"protocolVersion": "2025-06-18", "capabilities": {},
                   "clientInfo": {"name": "bench", "version": "1"}})
rpc("notifications/initialized", notify=True)
def timed(name, args_of):
    ms = []
    for i in range(n):
        t = time.perf_counter()
        rpc("tools/call", {"name": name, "arguments": args_of(i)})
        ms.append((time.perf_counter() - t) * 1e3)
    ms.sort()
    return ms[len(ms) // 2], ms[0]
def rss_kib():
    for line in open(f"/proc/{p.pid}/status"):
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
rpc("tools/call", {"name": "quill_read", "arguments": {"path": "f.txt"}})
rss_first = rss_kib()
read = timed("quill_read", lambda i: {"path": "f.txt"})
edit = timed("quill_edit", lambda i: {"path": "f.txt", "old": "line 50 of" if i % 2 == 0 else "LINE 50 of",
                                      "new": "LINE 50 of" if i % 2 == 0 else "line 50 of"})
rss_last = rss_kib()
# A soak: 12 rounds of 1000 reads and 1000 greps; the server's memory must level off.
soak = []
for _ in range(12):
    for i in range(1000):
        rpc("tools/call", {"name": "quill_read", "arguments": {"path": "f.txt"}})
        rpc("tools/call", {"name": "quill_grep", "arguments": {"pattern": "line 5", "paths": ["f.txt"]}})
    soak.append(rss_kib())
print(" ".join(str(k // 1024) for k in soak), file=open("soak.txt", "w"))
p.stdin.close()
p.wait()
print(f"{read[0]:.3f} {read[1]:.3f} {edit[0]:.3f} {edit[1]:.3f} {rss_first} {rss_last}")
PY
"$Q" read f.txt >/dev/null
read -r mcp_read mcp_read_min mcp_edit mcp_edit_min rss_first rss_last < <(python3 client.py "$Q" "$N")
"$Q" read f.txt >/dev/null
proc_read=$(bench_measure -n "$N" -w 5 "$Q --json read f.txt")
proc_edit=$(bench_measure -n "$N" -w 5 "$Q --json edit f.txt --old 'line 50 of' --new 'LINE 50 of'" \
  "$Q --json edit f.txt --old 'LINE 50 of' --new 'line 50 of'")

# 2. The CLI's startup with and without the mcp feature.
"$Q0" read f.txt >/dev/null
cli=$(bench_measure -n "$N" -w 5 "$Q read f.txt")
nomcp=$(bench_measure -n "$N" -w 5 "$Q0 read f.txt")

lower() { awk -v p="$1" -v m="$2" 'BEGIN {printf "%.1f", p / m}'; }
echo "latency per call, $N calls each (MCP: one connection, a Python client; process: one quill per call)"
echo "| call | over MCP, median (min) | one process per call, median (min) | lower over MCP | goal |"
echo "|---|---|---|---|---|"
echo "| read, 100 lines | ${mcp_read} ms (${mcp_read_min}) | $(bench_ms "$(bench_field "$proc_read" wall)") ($(bench_ms "$(bench_field "$proc_read" wall_min)")) | $(lower "$(bench_field "$proc_read" wall)" "$mcp_read")x | >= 5x |"
echo "| edit, one line | ${mcp_edit} ms (${mcp_edit_min}) | $(bench_ms "$(bench_field "$proc_edit" wall)") ($(bench_ms "$(bench_field "$proc_edit" wall_min)")) | $(lower "$(bench_field "$proc_edit" wall)" "$mcp_edit")x | >= 5x |"
echo "server RSS after its first call: $(bench_mib "$rss_first"); after $((2 * N + 1)) calls: $(bench_mib "$rss_last")"
echo "then after each 2,000 more calls (read, grep), MiB: $(cat soak.txt)"
echo
echo "the CLI with and without the mcp feature (quill read of a 100-line file, $N runs)"
bench_header
bench_row "quill read (default build, mcp in)" "$cli" "quill read (--no-default-features)" "$nomcp" "< +0.3 ms"
echo "difference of medians: $(awk -v a="$(bench_field "$cli" wall)" -v b="$(bench_field "$nomcp" wall)" 'BEGIN {printf "%+.3f ms", a - b}')," \
  "of minimums: $(awk -v a="$(bench_field "$cli" wall_min)" -v b="$(bench_field "$nomcp" wall_min)" 'BEGIN {printf "%+.3f ms", a - b}')"
echo "binary size: $(stat -c %s "$Q") bytes with mcp, $(stat -c %s "$Q0") without"
