#!/usr/bin/env bash
# bench/living.sh: what it costs a LITERAL agent when the file changed between its read and its
# change (issue 28). Eight scenarios (a formatter, another session, a conflict on the edited line,
# a whole-file write, an apply, format-on-save after quill's own write, lines inserted above a
# line-addressed edit, a 4,000-line file), each in three modes side by side:
#   today    QUILL_KEEP_READS=0: a stale answer has no diff; the agent reads, then re-sends;
#   default  kept reads on: a stale answer carries error.change (its diff, resend, overlap);
#   merge    QUILL_MERGE=1: an edit whose region the change left alone lands in one call.
# Per scenario and mode: the quill calls after the outside change (reads included), the bytes of
# their answers (--json stdout + stderr), and whether anything was lost: the file must end as the
# outside change plus the agent's change, compared exactly. The agent follows its rules (see
# `agent` below) to the letter, at most 6 calls. Prints a markdown table and the goals as
# PASS/FAIL (no assertion), but exits 1 when anything was lost in any mode (correctness).
#
#   bench/living.sh                      builds target/release/quill (cargo build --release -q)
#   QUILL=path/to/quill bench/living.sh  measures that binary, no build
# Goals: nothing lost; the edits that do not conflict take <= 2 calls by default and 1 with merge;
# the conflict <= 3; the 4,000-line file's answers < 8 KiB in total (default, merge).
#
# Each scenario runs in a fresh directory with its own QUILL_STATE_DIR and QUILL_SESSION. The
# outside changes are made by python/sed/rustfmt on the file, except #2 (another quill session).
set -euo pipefail
cd "$(dirname "$0")/.."
[ -n "${QUILL:-}" ] || cargo build --release -q
Q=${QUILL:-${CARGO_TARGET_DIR:-target}/release/quill}
[[ "$Q" = /* ]] || Q="$(pwd)/$Q"
[ -x "$Q" ] || { echo "bench/living.sh: no quill binary at $Q" >&2; exit 2; }
if command -v rustfmt >/dev/null 2>&1 && rustfmt --version >/dev/null 2>&1; then
  FMT=rustfmt
  echo "outside formatter in #1 and #6: $(rustfmt --version)"
else
  FMT=scripted
  echo "outside formatter in #1 and #6: a scripted rewrite (no rustfmt on this machine)"
fi
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT

python3 - "$Q" "$W" "$FMT" <<'PY'
import difflib, json, os, subprocess, sys

Q, W, FMT = sys.argv[1:4]
CAP = 6
MODES = [("today", {"QUILL_KEEP_READS": "0"}), ("default", {}), ("merge", {"QUILL_MERGE": "1"})]
BASE_ENV = {k: v for k, v in os.environ.items() if not k.startswith("QUILL_")}
NAMES = ("accounts orders invoices payments shipments customers products suppliers warehouses "
         "returns refunds coupons reviews carts sessions tokens webhooks reports audits ledgers "
         "taxes regions currencies subscriptions").split()

# ---- the files ---------------------------------------------------------------------------
def lim(name, value=None):  # the one line of parse_NAME that scenarios edit
    return f"    let limit_{name} = {100 + 7 * NAMES.index(name) if value is None else value};"

def rust_source():  # ~330 lines: one parse_* function per name
    out = ["//! Request parsing for the ingest service: header fields, limits, errors.", "",
           "use std::collections::HashMap;", "use std::time::Duration;", "",
           "#[derive(Debug, Clone, PartialEq)]", "pub enum ParseError {", "    Empty(&'static str),",
           "    Missing(String),", "    Invalid(String),", "}", ""]
    for n in NAMES:
        out += [f"/// Parses the `{n}` field of a request header into its key and bounded value.",
                f"pub fn parse_{n}(input: &str) -> Result<(String, u64), ParseError> {{",
                "    let trimmed = input.trim();", "    if trimmed.is_empty() {",
                f'        return Err(ParseError::Empty("{n}"));', "    }",
                "    let mut parts = trimmed.splitn(2, '=');",
                "    let key = parts.next().unwrap_or_default().to_string();",
                "    let value = parts.next().ok_or_else(|| ParseError::Missing(key.clone()))?;", lim(n),
                "    let parsed: u64 = value.parse().map_err(|_| ParseError::Invalid(value.to_string()))?;",
                f"    Ok((key, parsed.min(limit_{n})))", "}", ""]
    out += ["pub fn timeouts() -> HashMap<&'static str, Duration> {",
            "    NAMES_WITH_TIMEOUTS.iter().map(|(n, s)| (*n, Duration::from_secs(*s))).collect()", "}", "",
            'const NAMES_WITH_TIMEOUTS: [(&str, u64); 2] = [("orders", 30), ("payments", 60)];']
    return "\n".join(out) + "\n"

# A function written by hand, far above the edits; rustfmt (or the script) reindents and splits it.
UGLY = ("pub fn checksum(data: &[u8]) -> u32 {\n  let mut acc: u32 = 0;\n"
        "  for (i, b) in data.iter().enumerate() { acc = acc.wrapping_mul(31).wrapping_add(*b as u32 ^ i as u32); }\n"
        "  acc\n}\n\n")
PRETTY = ("pub fn checksum(data: &[u8]) -> u32 {\n    let mut acc: u32 = 0;\n"
          "    for (i, b) in data.iter().enumerate() {\n"
          "        acc = acc.wrapping_mul(31).wrapping_add(*b as u32 ^ i as u32);\n    }\n    acc\n}\n\n")

def py_source():  # ~330 lines: one sync_* function per name, and connect()
    out = ['"""Client for the inventory service: connections, retries and record sync."""', "",
           "import json", "import logging", "import socket", "import time", "",
           "log = logging.getLogger(__name__)", "", "",
           "def connect(host, port=5432):", '    """Open a connection, retrying with a growing pause."""',
           "    timeout_ms = 3000", "    for attempt in range(5):", "        try:",
           "            return socket.create_connection((host, port), timeout=timeout_ms / 1000)",
           "        except OSError as exc:",
           '            log.info("connect %s:%d failed (%s), attempt %d", host, port, exc, attempt)',
           "            time.sleep(0.1 * 2 ** attempt)",
           '    raise ConnectionError(f"{host}:{port} unreachable after 5 attempts")', "", ""]
    for i, n in enumerate(NAMES):
        out += [f"def sync_{n}(client, records, batch_size={10 + i}):",
                f'    """Send the {n} records in batches; return how many the server accepted."""',
                "    accepted = 0", "    for start in range(0, len(records), batch_size):",
                "        batch = records[start:start + batch_size]",
                f'        reply = client.post("/{n}", json.dumps(batch))', "        if reply.status != 200:",
                f'            log.warning("{n}: batch at %d refused (%s)", start, reply.status)',
                "            continue", "        accepted += len(batch)", "    return accepted", "", ""]
    return "\n".join(out).rstrip("\n") + "\n"

def big_source():  # 4,000 lines of a price table
    rows = [f'    "sku-{i:05d}": ("{NAMES[i % len(NAMES)]} item {i}", {i % 97 + 1}, "{i * 0.25 + 1:.2f}"),'
            for i in range(1, 3998)]
    return "\n".join(['"""Price table, generated from the catalogue export."""', "PRICES = {", *rows, "}"]) + "\n"

def sub1(text, old, new):
    assert text.count(old) == 1, f"{old!r} is in the file {text.count(old)} times"
    return text.replace(old, new, 1)

def rustfmt_text(text):
    return subprocess.run(["rustfmt", "--edition", "2021"], input=text.encode(), capture_output=True,
                          check=True).stdout.decode()

RUST = rust_source()
if FMT == "rustfmt":
    RUST = rustfmt_text(RUST)  # so that rustfmt later changes the hand-written function only
RUST_UGLY = sub1(RUST, "/// Parses the `accounts`", UGLY + "/// Parses the `accounts`")
PYSRC = py_source()

# ---- one run: a directory, a session, a mode ------------------------------------------------
class Run:
    def __init__(self, tag, mode_env):
        self.dir = os.path.join(W, tag)
        os.makedirs(os.path.join(self.dir, "src"))
        self.env = dict(BASE_ENV, QUILL_STATE_DIR=os.path.join(self.dir, "state"), QUILL_SESSION="agent",
                        **mode_env)
        self.calls = self.bytes = 0

    def q(self, args, stdin=None, session=None, count=True):
        env = self.env if session is None else dict(self.env, QUILL_SESSION=session)
        p = subprocess.run([Q, "--json", *args], cwd=self.dir, env=env, capture_output=True,
                           **({"input": stdin.encode()} if stdin is not None else {"stdin": subprocess.DEVNULL}))
        if count:
            self.calls += 1
            self.bytes += len(p.stdout) + len(p.stderr)
        try:
            ans = json.loads(p.stdout)
        except ValueError:
            ans = {"ok": False, "error": {"kind": "unparsable answer"}}
        if not count and not ans.get("ok"):
            sys.exit(f"bench/living.sh: a setup call failed: {args[:2]}: {p.stdout!r} {p.stderr!r}")
        return ans

    def get(self, rel):
        with open(os.path.join(self.dir, rel), encoding="utf-8", newline="") as f:
            return f.read()

    def put(self, rel, text):
        with open(os.path.join(self.dir, rel), "w", encoding="utf-8", newline="") as f:
            f.write(text)

def formatter(run, rel):  # the outside formatter: real rustfmt, else the same change by script
    before = run.get(rel)
    if FMT == "rustfmt":
        subprocess.run(["rustfmt", "--edition", "2021", os.path.join(run.dir, rel)], check=True)
    else:
        run.put(rel, sub1(before, UGLY, PRETTY))
    assert run.get(rel) != before, "the formatter changed nothing"

def edit(path, old, new):
    return (["edit", path, "--old", old, "--new", new], None)

def patch_of(path, a, b):  # a git-style unified diff from a to b
    body = difflib.unified_diff(a.splitlines(True), b.splitlines(True), f"a/{path}", f"b/{path}")
    return f"diff --git a/{path} b/{path}\n" + "".join(body)

# ---- the literal agent ---------------------------------------------------------------------
def stale_change(err):
    """(stale?, change): edit/write answer `stale`; apply answers `patch_rejected` whose problems
    are all `stale`, the change on the error or on its problem."""
    if err.get("kind") == "stale":
        return True, err.get("change")
    probs = err.get("problems") or []
    if err.get("kind") == "patch_rejected" and probs and all(p.get("kind") == "stale" for p in probs):
        return True, err.get("change") or next((p["change"] for p in probs if p.get("change")), None)
    return False, None

def agent(run, target, call, recomputed):
    """From its first call after the outside change until it is done (True) or CAP calls."""
    while run.calls < CAP:
        ans = run.q(*call)
        if ans.get("ok"):
            return True
        stale, change = stale_change(ans.get("error") or {})
        if stale and change and change.get("overlap"):
            call = recomputed  # a conflict: the call redone from the diff shown
        elif stale and change and change.get("resend") is True:
            pass  # the change counts as seen: the same call again
        elif run.calls < CAP:  # no diff, resend:false, or any other error: read, then redo
            run.q(["read", target])
            call = recomputed
    return False

# ---- the scenarios: set up, make the outside change, return (target, call, recomputed, expected)
RS, PYF = "src/lib.rs", "src/client.py"

def s1_formatter(run):
    run.put(RS, RUST_UGLY)
    run.q(["read", RS], count=False)
    formatter(run, RS)
    c = edit(RS, lim("reviews"), lim("reviews", 250))
    return RS, c, c, sub1(run.get(RS), lim("reviews"), lim("reviews", 250))

def s2_other_session(run):
    run.put(RS, RUST)
    run.q(["read", RS], count=False)
    run.q(["read", RS], session="other", count=False)
    run.q(*edit(RS, lim("orders"), lim("orders", 500)), session="other", count=False)
    c = edit(RS, lim("webhooks"), lim("webhooks", 64))
    return RS, c, c, sub1(run.get(RS), lim("webhooks"), lim("webhooks", 64))

def s3_conflict(run):  # outside renames timeout_ms on the agent's line; the agent changes its value
    run.put(PYF, PYSRC)
    run.q(["read", PYF], count=False)
    run.put(PYF, PYSRC.replace("timeout_ms", "timeout_millis"))
    c = edit(PYF, "    timeout_ms = 3000", "    timeout_ms = 5000")
    r = edit(PYF, "    timeout_millis = 3000", "    timeout_millis = 5000")
    return PYF, c, r, sub1(run.get(PYF), "    timeout_millis = 3000", "    timeout_millis = 5000")

def s4_write(run):
    old, new = "def sync_reports(client, records, batch_size=27):", "def sync_reports(client, records, batch_size=100):"
    run.put(PYF, PYSRC)
    run.q(["read", PYF], count=False)
    run.put(PYF, sub1(PYSRC, "    for attempt in range(5):", "    for attempt in range(8):"))
    cur = run.get(PYF)
    return (PYF, (["write", PYF, "--content", sub1(PYSRC, old, new)], None),
            (["write", PYF, "--content", sub1(cur, old, new)], None), sub1(cur, old, new))

def s5_apply(run):
    old = lim("ledgers") + "\n" + "    let parsed: u64"
    new = lim("ledgers", 1000) + "\n" + "    let parsed: u64"
    run.put(RS, RUST)
    run.q(["read", RS], count=False)
    run.put(RS, sub1(RUST, "use std::time::Duration;\n", "use std::sync::Arc;\nuse std::time::Duration;\n\n"
                     "/// Shared between the workers.\npub type Shared<T> = Arc<T>;\n"))
    cur = run.get(RS)
    after = sub1(cur, old, new)
    return (RS, (["apply", "-"], patch_of(RS, RUST, sub1(RUST, old, new))),
            (["apply", "-"], patch_of(RS, cur, after)), after)

def s6_format_on_save(run):  # measured from the second edit, after the formatter ran on quill's write
    run.put(RS, RUST_UGLY)
    run.q(["read", RS], count=False)
    run.q(*edit(RS, lim("carts"), lim("carts", 40)), count=False)
    formatter(run, RS)
    c = edit(RS, lim("sessions"), lim("sessions", 80))
    return RS, c, c, sub1(run.get(RS), lim("sessions"), lim("sessions", 80))

def s7_lines(run):  # lines inserted above an `edit --lines A-B` numbered from the read
    lines = PYSRC.splitlines(True)
    a = lines.index('        reply = client.post("/refunds", json.dumps(batch))\n') + 2  # 1-based: the `if`
    new = ("        if reply.status not in (200, 202):\n"
           '            log.warning("refunds: batch at %d refused", start)\n')
    run.put(PYF, PYSRC)
    run.q(["read", PYF], count=False)
    run.put(PYF, sub1(PYSRC, "import time\n", "import time\nfrom dataclasses import dataclass\n"
                                               "from typing import Any\n"))
    cur = run.get(PYF).splitlines(True)
    assert cur[a + 1:a + 3] == lines[a - 1:a + 1]
    return (PYF, (["edit", PYF, "--lines", f"{a}-{a + 1}", "--new", new], None),
            (["edit", PYF, "--lines", f"{a + 2}-{a + 3}", "--new", new], None),
            "".join(cur[:a + 1] + [new] + cur[a + 3:]))

def s8_big(run):  # 4,000 lines, two changed outside (sed), the agent edits a third place
    big, f = big_source(), "src/prices.py"
    old = [l for l in big.splitlines() if l.startswith('    "sku-02000"')][0]
    new = old.replace('"501.00"', '"499.00"')
    run.put(f, big)
    run.q(["read", f], count=False)
    subprocess.run(["sed", "-i", '700s/"175.50"/"175.55"/;3300s/"825.50"/"825.55"/', os.path.join(run.dir, f)],
                   check=True)
    cur = run.get(f)
    assert cur.count("175.55") == 1 and cur.count("825.55") == 1 and new != old
    return f, edit(f, old, new), edit(f, old, new), sub1(cur, old, new)

SCENARIOS = [("1 formatter elsewhere", s1_formatter), ("2 other session's edit", s2_other_session),
             ("3 same line (conflict)", s3_conflict), ("4 whole-file write", s4_write),
             ("5 apply (unified diff)", s5_apply), ("6 format-on-save after own write", s6_format_on_save),
             ("7 lines inserted above --lines", s7_lines), ("8 4,000 lines, 2 changed", s8_big)]

# ---- run, print, judge ------------------------------------------------------------------------
print("calls: quill calls after the outside change, reads included (at most 6); bytes: their --json"
      " answers + stderr; lost: the modes whose file did not end as outside change + agent's change\n")
print("| scenario | today calls | today bytes | default calls | default bytes | merge calls | merge bytes | lost |")
print("|---|---|---|---|---|---|---|---|")
results, lost_runs = {}, []
for si, (label, scn) in enumerate(SCENARIOS, 1):
    cells, lost = [], []
    for mode, env in MODES:
        run = Run(f"{si}{mode[0]}", env)  # same-length names: the paths in answers weigh the same
        target, call, recomputed, expected = scn(run)
        done = agent(run, target, call, recomputed)
        if run.get(target) != expected:
            lost.append(mode)
        results[(si, mode)] = (run.calls, run.bytes, done)
        cells += [f"{run.calls}{'' if done else ' (not done)'}", str(run.bytes)]
    lost_runs += [f"#{si} {m}" for m in lost]
    print(f"| {label} | {' | '.join(cells)} | {', '.join(lost) if lost else 'no'} |")

def check(name, bad):
    print(f"{'PASS' if not bad else 'FAIL'}: {name}{'' if not bad else ' (' + '; '.join(bad) + ')'}")

print()
check("nothing lost in any scenario or mode", lost_runs)
calls = lambda si, m: results[(si, m)][0]
check("non-conflicting edits (#1 #2 #5 #6 #7 #8): <= 2 calls default, 1 with merge",
      [f"#{si} {m} {calls(si, m)}" for si in (1, 2, 5, 6, 7, 8) for m, cap in (("default", 2), ("merge", 1))
       if calls(si, m) > cap])
check("whole-file write (#4, needs a read by the contract): <= 3 calls default and merge",
      [f"#4 {m} {calls(4, m)}" for m in ("default", "merge") if calls(4, m) > 3])
check("conflict (#3): <= 3 calls default and merge",
      [f"#3 {m} {calls(3, m)}" for m in ("default", "merge") if calls(3, m) > 3])
check("#8 (4,000 lines): answers < 8 KiB in total, default and merge",
      [f"{m} {results[(8, m)][1]} B" for m in ("default", "merge") if results[(8, m)][1] >= 8192])
sys.exit(1 if lost_runs else 0)
PY
