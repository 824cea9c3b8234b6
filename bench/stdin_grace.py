#!/usr/bin/env python3
"""How long a harness takes to put its first byte on a child's stdin: the measurement behind
`quill grep`'s stdin grace (QUILL_STDIN_GRACE, default 100 ms; docs/search.md, "Standard
input"). For each way a harness feeds a child — Python's subprocess.run(input=...), Node's
execSync({input}) and spawn + stdin.write (a socket), a persistent shell's `printf | quill`
(a pipeline, which never needs the grace) — it runs `quill grep needle` RUNS times with each
grace in GRACES and counts the runs in which stdin was missed (the answer warned
`stdin_silent` instead of searching it). The default is the smallest grace with no miss,
times a margin for a loaded machine.

    bench/stdin_grace.py              # QUILL=target/release/quill RUNS=200 GRACES=0,1,2,5,10,100
"""

import json
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
QUILL = os.environ.get("QUILL", os.path.join(HERE, "..", "target", "release", "quill"))
RUNS = int(os.environ.get("RUNS", "200"))
GRACES = [int(g) for g in os.environ.get("GRACES", "0,1,2,5,10,100").split(",")]


def missed(answer: bytes) -> bool:
    """Whether quill searched the directory instead of stdin (or found nothing)."""
    try:
        a = json.loads(answer)
    except ValueError:
        return True
    kinds = [w["kind"] for w in a.get("warnings", [])]
    return "stdin_silent" in kinds or a.get("total") != 1


def python_run(env):
    p = subprocess.run([QUILL, "--json", "grep", "needle"], input=b"a needle\n",
                       capture_output=True, env=env)
    return missed(p.stdout)


NODE_EXEC = """
const {execSync} = require('child_process');
process.stdout.write(execSync(process.argv[1] + ' --json grep needle', {input: 'a needle\\n'}));
"""
NODE_SPAWN = """
const {spawn} = require('child_process');
const c = spawn(process.argv[1], ['--json', 'grep', 'needle']);
c.stdout.pipe(process.stdout);
c.stdin.write('a needle\\n'); c.stdin.end();
"""


def node(script):
    def run(env):
        p = subprocess.run(["node", "-e", script, QUILL], capture_output=True, env=env)
        return missed(p.stdout)
    return run


def shell_pipeline(env):
    p = subprocess.run(["sh", "-c", 'printf "a needle\\n" | "$0" --json grep needle', QUILL],
                       capture_output=True, env=env)
    return missed(p.stdout)


def main():
    if not os.access(QUILL, os.X_OK):
        sys.exit(f"no quill at {QUILL}: build it (cargo build --release) or set QUILL")
    ways = [("python subprocess.run(input=)", python_run)]
    if shutil.which("node"):
        ways += [("node execSync({input})", node(NODE_EXEC)),
                 ("node spawn + stdin.write (socket)", node(NODE_SPAWN))]
    ways.append(("sh: printf | quill (pipeline)", shell_pipeline))
    work = tempfile.mkdtemp()
    env = dict(os.environ, QUILL_STATE_DIR=os.path.join(work, "state"))
    os.chdir(work)
    print(f"runs of `quill grep needle` with stdin fed, {RUNS} per cell: missed (searched the"
          f" directory instead)")
    print(f"{'harness':36}" + "".join(f"{str(g) + ' ms':>9}" for g in GRACES))
    for name, way in ways:
        row = f"{name:36}"
        for g in GRACES:
            env["QUILL_STDIN_GRACE"] = str(g)
            misses = sum(way(env) for _ in range(RUNS))
            row += f"{misses:>9}"
        print(row, flush=True)
    shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
