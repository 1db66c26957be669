"""kopt's tuner against Kernel Tuner on the same kernel and configurations, in one run: the wall time of
`kopt optimize TASK --from BASELINE` (check at every shape, noise-aware timing against the baseline) and of Kernel
Tuner's `tune_kernel` (CuPy backend, its answer check against a float32 numpy softmax) over the baseline's BLOCK
values at the task's timed shape, each in a new process; then `kopt optimize TASK` with no start (every known
candidate) for the speedup it reaches and its lineage. Kernel Tuner is a benchmark-only dependency. GPU only.

    python bench/tuner_vs_kernel_tuner.py --out bench/results/tuner_vs_kernel_tuner.json [--skip-default]
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
TASK = HERE / "tasks" / "softmax_rows"

KERNEL_TUNER = r"""
import json, sys, time
import numpy as np
import kernel_tuner

t0 = time.perf_counter()
rows, cols = 32768, 8192
src = "#define BLOCK block_size_x\n" + open(sys.argv[1]).read()
src = "\n".join(l for l in src.splitlines() if not l.lstrip().startswith("// kopt:"))
x = (np.random.default_rng(0).standard_normal((rows, cols)) * 2).astype(np.float32)
e = np.exp(x - x.max(axis=1, keepdims=True))
y_ref = (e / e.sum(axis=1, keepdims=True)).astype(np.float32)
args = [x, np.zeros_like(x), np.int32(rows), np.int32(cols)]
results, env = kernel_tuner.tune_kernel("softmax_rows", src, rows, args, {"block_size_x": [256, 128, 512, 1024]},
                                        grid_div_x=[], lang="cupy", answer=[None, y_ref, None, None], atol=1e-6,
                                        verbose=False, quiet=True)
best = min(results, key=lambda r: r["time"])
print(json.dumps({"wall_s": time.perf_counter() - t0, "configs": len(results),
                  "best": {"BLOCK": best["block_size_x"], "ms": best["time"]},
                  "all": [{"BLOCK": r["block_size_x"], "ms": r["time"]} for r in results]}))
"""


def run(cmd: list[str], env=None) -> tuple[float, dict | None, str]:
    t0 = time.perf_counter()
    p = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=1200)
    wall = time.perf_counter() - t0
    try:
        doc = json.loads(p.stdout) if p.stdout.strip() else None
    except ValueError:
        doc = None
    return round(wall, 2), doc, f"exit {p.returncode}: {p.stderr[-1500:]}" if doc is None else ""


def main(argv=None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--skip-default", action="store_true", help="skip the run from every known candidate")
    args = ap.parse_args(argv)
    sys.path.insert(0, str(HERE))
    import envelope

    work = Path(tempfile.mkdtemp(prefix="kopt-vs-kt-"))
    env = {**os.environ, "KOPT_WORKSPACE": str(work)}
    # --no-compare: the tuning alone, as Kernel Tuner does it (the closing comparator timing is reporting)
    kopt = [sys.executable, "-m", "kopt.cli", "optimize", str(TASK), "--no-compare"]
    row: dict = {"task": TASK.name, "configurations": "BLOCK in [256, 128, 512, 1024]"}
    wall, doc, err = run(kopt + ["--from", str(TASK / "baseline.cu"), "--json"], env)
    row["kopt"] = {"wall_s": wall, "error": err} if doc is None else {
        "wall_s": wall, "evaluations": doc["evaluations"], "best": doc["best"], "pruned": len(doc["pruned"])}
    script = work / "kt.py"
    script.write_text(KERNEL_TUNER)
    wall, doc, err = run([sys.executable, str(script), str(TASK / "baseline.cu")])
    row["kernel_tuner"] = {"wall_s": wall, "error": err} if doc is None else {"wall_s": wall, **doc}
    try:
        import kernel_tuner
        row["kernel_tuner"]["version"] = kernel_tuner.__version__
    except Exception:
        pass
    if doc is not None and "error" not in row["kopt"]:
        row["kopt_over_kernel_tuner"] = round(row["kopt"]["wall_s"] / row["kernel_tuner"]["wall_s"], 3)
    print(json.dumps(row, indent=1), flush=True)
    results = [row]
    if not args.skip_default:
        wall, doc, err = run(kopt + ["--json"], env)
        default = {"command": "kopt optimize softmax_rows (no --from)", "wall_s": wall}
        default.update({"error": err} if doc is None else {"best": doc["best"], "lineage": doc.get("lineage")})
        print(json.dumps(default, indent=1), flush=True)
        results.append(default)
    envelope.write(args.out, "tuner_vs_kernel_tuner", "wall time of kopt optimize --from the baseline and of Kernel "
                   "Tuner (cupy) over the same BLOCK values, new processes, same GPU; then kopt optimize without a "
                   "start", results, envelope.gpu_device())
    return 0


if __name__ == "__main__":
    sys.exit(main())
