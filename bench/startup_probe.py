"""Where a warm `kopt run` spends its time outside the verdict's phases (GPU only): the parent's import of the
command, the worker's start step by step (Python, kopt's worker modules, the CUDA context, CuPy), and each GPU
reference through CuPy, first call against a second call in the same process, at the task's largest shape after a
first call at a small shape (a warm-up's effect).

    python bench/startup_probe.py --out probe.json
"""
from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent

CHILD = r"""
import json, sys, time
t = {}
t0 = time.perf_counter()
import numpy
t["import_numpy"] = time.perf_counter() - t0
t0 = time.perf_counter()
from kopt.worker import ops
t["import_worker_ops"] = time.perf_counter() - t0
t0 = time.perf_counter()
ops._runner()
t["gpu_session"] = time.perf_counter() - t0
t0 = time.perf_counter()
import cupy
t["import_cupy"] = time.perf_counter() - t0
t0 = time.perf_counter()
cupy.cuda.Device().cublas_handle
t["cublas_handle"] = time.perf_counter() - t0
print(json.dumps({k: round(v * 1e3, 1) for k, v in t.items()}))
"""

REF = r"""
import json, sys, time
import numpy as np
import cupy
from kopt.task import Task
from kopt.worker.cases import _reference_with_cupy
from kopt.worker.session import DeviceBuffer
task = Task.load(sys.argv[1])
def run(shape):
    keep, inputs = [], {}
    for a in task.args:
        if a.role in ("in", "inout"):
            dims = task.shape_of(a, shape)
            arr = cupy.ones(dims, a.dtype.storage) if a.dtype.name != "bf16" else cupy.full(dims, 0x3F80, cupy.uint16)
            keep.append(arr)
            inputs[a.name] = DeviceBuffer(int(arr.data.ptr), int(arr.nbytes))
    t0 = time.perf_counter()
    _reference_with_cupy(task, shape, inputs)
    cupy.cuda.Device().synchronize()
    return round((time.perf_counter() - t0) * 1e3, 1)
big = max(task.shapes, key=lambda s: s.timed)
small = [s for s in task.shapes if not s.timed and all(v > 1 for v in s.symbols.values() if isinstance(v, int))]
order = sys.argv[2]
out = {}
if order == "warm":
    out["small_first_ms"] = run(small[0]) if small else None
out["big_first_ms"] = run(big)
out["big_second_ms"] = run(big)
print(json.dumps(out))
"""


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", type=Path, required=True)
    args = ap.parse_args()
    res = {"import_kopt_cli_s": [], "worker_start_ms": [], "references": {}}
    for _ in range(3):
        t0 = time.perf_counter()
        subprocess.run([sys.executable, "-c", "import kopt.cli"], check=True)
        res["import_kopt_cli_s"].append(round(time.perf_counter() - t0, 3))
        t0 = time.perf_counter()
        subprocess.run([sys.executable, "-c", "pass"], check=True)
        res.setdefault("python_start_s", []).append(round(time.perf_counter() - t0, 3))
        p = subprocess.run([sys.executable, "-c", CHILD], capture_output=True, text=True)
        res["worker_start_ms"].append(json.loads(p.stdout) if p.returncode == 0 else p.stderr[-500:])
    imp = subprocess.run([sys.executable, "-X", "importtime", "-c", "import kopt.cli"], capture_output=True, text=True)
    rows = []
    for line in imp.stderr.splitlines()[1:]:
        parts = line.split("|")
        if len(parts) == 3:
            rows.append((int(parts[1]), parts[2].rstrip()))
    res["import_top"] = [f"{us / 1e3:.1f} ms {name}" for us, name in sorted(rows, reverse=True)[:30]]
    for task in sorted((HERE / "tasks").iterdir()):
        if not (task / "task.toml").exists():
            continue
        row = {}
        for order in ("cold", "warm"):
            p = subprocess.run([sys.executable, "-c", REF, str(task), order], capture_output=True, text=True,
                               timeout=300)
            row[order] = json.loads(p.stdout.strip().splitlines()[-1]) if p.returncode == 0 else p.stderr[-300:]
        res["references"][task.name] = row
        print(task.name, row, flush=True)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(res, indent=1))
    print(json.dumps({k: v for k, v in res.items() if k != "references"}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
