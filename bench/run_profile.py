"""Where a warm `kopt run TASK BASELINE` spends its wall time on the parent's side: one untimed run fills the compile
cache, then one run under cProfile (the parent process only; the worker's phases are in its --json). Prints the
functions with the largest cumulative time and writes them, with the run's wall time and phases, to --out. GPU only.

    python bench/run_profile.py --task attention_fwd_long --out bench/results/run_profile.json
"""
from __future__ import annotations

import argparse
import json
import pstats
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent


def profile(task: Path, top: int) -> dict:
    sys.path.insert(0, str(HERE))
    from check_speed import _candidate_of

    cmd = ["run", str(task), str(_candidate_of(task)), "--json"]
    subprocess.run([sys.executable, "-m", "kopt.cli", *cmd], capture_output=True, timeout=900)  # warm the cache
    with tempfile.TemporaryDirectory() as tmp:
        prof = Path(tmp) / "run.prof"
        t0 = time.perf_counter()
        p = subprocess.run([sys.executable, "-m", "cProfile", "-o", str(prof), "-m", "kopt.cli", *cmd],
                           capture_output=True, text=True, timeout=900)
        wall = time.perf_counter() - t0
        stats = pstats.Stats(str(prof))
    try:
        phases = json.loads(p.stdout).get("phases_ms")
    except ValueError:
        phases = None
    rows = []
    for (file, line, name), (_cc, calls, tottime, cumtime, _callers) in stats.stats.items():
        rows.append({"function": f"{Path(file).name}:{line}:{name}", "calls": calls, "self_ms": round(tottime * 1e3, 1),
                     "cumulative_ms": round(cumtime * 1e3, 1)})
    rows.sort(key=lambda r: -r["cumulative_ms"])
    return {"task": task.name, "wall_s": round(wall, 3), "exit": p.returncode, "phases_ms": phases,
            "top_cumulative": rows[:top], "top_self": sorted(rows, key=lambda r: -r["self_ms"])[:top]}


def worker_start(top: int) -> dict:
    """The worker's own start as the prestarted worker does it (imports, context, runner: ``ops.warm``), timed inside
    a fresh process, with ``-X importtime``'s slowest imports."""
    code = ("import time; t = time.perf_counter(); from kopt.worker import ops; ops.warm(); "
            "print(round((time.perf_counter() - t) * 1e3, 1))")
    t0 = time.perf_counter()
    p = subprocess.run([sys.executable, "-X", "importtime", "-c", code], capture_output=True, text=True, timeout=300)
    wall = time.perf_counter() - t0
    imports = []
    for line in p.stderr.splitlines():
        parts = line.split("|")
        if len(parts) == 3 and parts[1].strip().isdigit():
            imports.append({"module": parts[2].rstrip(), "self_us": int(parts[0].split(":")[-1]),
                            "cumulative_us": int(parts[1])})
    imports.sort(key=lambda r: -r["cumulative_us"])
    return {"process_wall_s": round(wall, 3), "warm_ms": p.stdout.strip(), "exit": p.returncode,
            "slowest_imports": imports[:top]}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--task", action="append", required=True, help="a task folder name under bench/tasks (repeatable)")
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--top", type=int, default=60)
    args = ap.parse_args(argv)
    sys.path.insert(0, str(HERE))
    import envelope

    rows = []
    for name in args.task:
        row = profile(HERE / "tasks" / name, args.top)
        rows.append(row)
        print(f"{name}: {row['wall_s']} s under cProfile, exit {row['exit']}, phases {row['phases_ms']}")
        for r in row["top_cumulative"][:45]:
            print(f"  {r['cumulative_ms']:9.1f} {r['self_ms']:9.1f} {r['calls']:7d}  {r['function']}")
    worker = worker_start(args.top)
    print(f"worker start: process {worker['process_wall_s']} s, warm() {worker['warm_ms']} ms")
    for r in worker["slowest_imports"][:25]:
        print(f"  {r['cumulative_us'] / 1e3:9.1f} ms  {r['module']}")
    print(f"bytecode: sys.dont_write_bytecode={sys.flags.dont_write_bytecode}")
    envelope.write(args.out, "run_profile", "cProfile of the parent process of one warm `kopt run` per task, and the "
                   "worker's start (ops.warm) timed in a fresh process", {"runs": rows, "worker_start": worker,
                                                                          "dont_write_bytecode":
                                                                          sys.flags.dont_write_bytecode},
                   envelope.gpu_device())
    return 0


if __name__ == "__main__":
    sys.exit(main())
