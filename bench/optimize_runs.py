"""`kopt optimize --workflow tune` on bench tasks whose candidates declare tunables, on a GPU: the best
configuration's speedup over the task's baseline and its gain over the candidate's own default configuration
(untuned), evaluations, pruned configurations and wall time.

Each run goes through the CLI exactly as a user types it (with --json), in one run store; the store is copied next
to the results so the trajectories can be plotted later (`kopt runs plot RUN`).

Usage (GPU machine, repo root):  python bench/optimize_runs.py [--out FILE] [--store-copy PATH]
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import envelope

ROOT = Path(__file__).resolve().parents[1]
# (task, candidate relative to the repository, strategy, budget)
RUNS = [("reduce_sum", "kb/cutlass_examples/reduce_warp_shuffle.cu", "exhaustive", 9),
        ("histogram", "kb/cutlass_examples/histogram_smem.cu", "random", 8),
        ("tma_copy", "bench/tasks/tma_copy/baseline.cu", "random", 8)]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default=str(ROOT / "bench" / "results" / "optimize_runs.json"))
    ap.add_argument("--store-copy", default=None, help="copy the run store here afterwards")
    ap.add_argument("--max-time", default="1.0", help="seconds of sampling per timed entry")
    args = ap.parse_args()
    work = Path(tempfile.mkdtemp(prefix="kopt-optimize-"))
    env = {**os.environ, "KOPT_WORKSPACE": str(work)}
    rows = []
    for task, cand, strategy, budget in RUNS:
        out_cu = work / f"{task}_best.cu"
        cmd = [sys.executable, "-m", "kopt.cli", "optimize", str(ROOT / "bench" / "tasks" / task), "--from",
               str(ROOT / cand), "--workflow", "tune", "--strategy", strategy, "--budget", str(budget),
               "--max-time", args.max_time, "--out", str(out_cu), "--json", "--no-compare"]
        t0 = time.perf_counter()
        p = subprocess.run(cmd, capture_output=True, text=True, cwd=work, env=env, timeout=900)
        wall = time.perf_counter() - t0
        try:
            doc = json.loads(p.stdout)
        except ValueError:
            doc = {"error": (p.stderr or p.stdout)[-1500:]}
        row = {"task": task, "candidate": cand, "strategy": strategy, "budget": budget, "exit_code": p.returncode,
               "wall_s": round(wall, 1), **doc}
        if doc.get("best"):
            row["pruned_count"] = len(doc.get("pruned", []))
        rows.append(row)
        best = doc.get("best") or {}
        print(f"{task:<12} {strategy:<10} evals {doc.get('evaluations')}, pruned {row.get('pruned_count')}, "
              f"best {best.get('config')} {best.get('time_us')} us, vs the task's baseline x{best.get('speedup')}, "
              f"vs the default configuration x{doc.get('speedup_vs_default')}, {wall:.0f} s  {doc.get('error', '')}",
              flush=True)
    envelope.write(args.out, "optimize_runs", "kopt optimize TASK --from CANDIDATE --workflow tune --json; "
                   "best.speedup = the task's baseline / the best configuration, speedup_vs_default = the candidate "
                   "at its default tunables / the best configuration (kopt bench timing, cold L2)",
                   rows, envelope.gpu_device(), max_time_per_entry_s=float(args.max_time))
    store = next(work.rglob("runs.db"), None)
    if args.store_copy and store:
        shutil.copyfile(store, args.store_copy)


if __name__ == "__main__":
    main()
