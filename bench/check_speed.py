"""How long a verdict takes: `kopt run TASK BASELINE` and `kopt bench TASK BASELINE --no-baseline` as a user runs them,
each a new process, warm (the compile cache already holds the cubins: one untimed run first), on every bench task;
the median of --repeat such runs (process start on a busy host varies by a tenth of a second);
with the check on the GPU (the default) and on the host (``KOPT_CHECK_ON=cpu``, the path kopt used before). The
verdict's per-phase milliseconds come from ``--json``. GPU only.

    python bench/check_speed.py --out bench/results/check_speed.json [--only vector_add,softmax_rows] [--no-cpu]
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
TASKS = HERE / "tasks"


def timed(cmd: list[str], env: dict) -> tuple[float, dict | None, int, str]:
    t0 = time.perf_counter()
    p = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=900)
    wall = time.perf_counter() - t0
    try:
        doc = json.loads(p.stdout)
    except ValueError:
        doc = None
    return round(wall, 3), doc, p.returncode, p.stderr.strip().splitlines()[-1:] and p.stderr.strip().splitlines()[-1]


def measure(task: Path, what: str, where: str, repeat: int) -> dict:
    env = {**os.environ, "KOPT_CHECK_ON": where}
    kopt = [sys.executable, "-m", "kopt.cli"]
    cand = str(_candidate_of(task))
    cmd = kopt + (["run", str(task), cand, "--json"] if what == "run" else
                  ["bench", str(task), cand, "--no-baseline", "--json"])
    first, _, _, _ = timed(cmd, env)  # fills the compile cache
    runs = [timed(cmd, env) for _ in range(repeat)]
    walls = sorted(r[0] for r in runs)
    wall, doc, rc, err = sorted(runs, key=lambda r: r[0])[len(runs) // 2]  # the median run, with its phases
    row = {"task": task.name, "command": what, "check_on": where, "wall_s": wall, "walls_s": walls,
           "cold_wall_s": first, "exit": rc}
    if doc is None:
        row["error"] = err
        return row
    verdict = doc if what == "run" else doc.get("candidate", {}).get("verdict", doc.get("candidate", {}))
    row["status"] = verdict.get("status")
    row["phases_ms"] = verdict.get("phases_ms")
    if what == "run":
        row["reference_on"] = sorted({s.get("reference_on") for s in doc.get("shapes", [])} - {None})
    return row


def _candidate_of(task: Path) -> Path:
    """The task's baseline (its own or one it borrows), else the first kernel known for it (a long-shape variant
    without a baseline runs its family's knowledge-base example)."""
    from kopt.known_candidates import known_candidates
    from kopt.task import Task

    return known_candidates(Task.load(task))[0].path


def main(argv=None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--only", default="")
    ap.add_argument("--no-cpu", action="store_true", help="skip the host-path rows")
    ap.add_argument("--commands", default="run,bench")
    ap.add_argument("--repeat", type=int, default=3, help="warm runs per row; the row is the median run")
    args = ap.parse_args(argv)
    sys.path.insert(0, str(HERE))
    import envelope

    rows = []
    for task in sorted(p.parent for p in TASKS.glob("*/task.toml")):
        if args.only and task.name not in args.only.split(","):
            continue
        for what in args.commands.split(","):
            for where in ("gpu",) if args.no_cpu or what == "bench" else ("gpu", "cpu"):
                row = measure(task, what, where, args.repeat)
                rows.append(row)
                print(f"{task.name:18s} {what:5s} {where}: {row['wall_s']:7.2f} s (first {row['cold_wall_s']:.2f} s) "
                      f"{row.get('status') or row.get('error')} {row.get('phases_ms')}", flush=True)
    envelope.write(args.out, "check_speed", f"median wall time of {args.repeat} warm `kopt run`/`kopt bench "
                   "--no-baseline` of each task's baseline in a new process (compile cache warm), check on the GPU and "
                   "on the host",
                   rows, envelope.gpu_device())
    return 0


if __name__ == "__main__":
    sys.exit(main())
