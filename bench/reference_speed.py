"""How fast a task's CUDA reference (``reference_cuda``) runs: each version of the file given is compiled by kopt for
this GPU, launched on the same random inputs at every shape of the task (CuPy for memory, events and launches), timed
(median of --repeat launches after one untimed), and its float64 outputs compared with the first version's (largest
difference relative to the largest output). A version is FILE or FILE@NAME=VALUE,... (those #defines prepended).
GPU only.

    python bench/reference_speed.py bench/tasks/attention_fwd_long --ref old.cu --ref new.cu@QK_SPLIT=2 --out X.json
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent


def _source(spec: str) -> tuple[str, str]:
    path, _, defs = spec.partition("@")
    text = Path(path).read_text()
    lines = [f"#define {d.replace('=', ' ', 1)}" for d in defs.split(",") if d]
    return spec, "\n".join(lines + [text])


def _inputs(cp, task, shape, seed: int) -> dict:
    """bf16 arguments as their bits (uint16, round to nearest even), f32/f64 as themselves; outputs zeroed f64."""
    import numpy as np

    rng = cp.random.default_rng(seed)
    out = {}
    for a in task.args:
        if a.role not in ("in", "out", "inout") or not a.shape:
            continue
        dims = task.shape_of(a, shape)
        if a.role == "out":
            out[a.name] = cp.zeros(dims, cp.float64)
            continue
        x = rng.standard_normal(dims, dtype=cp.float32) * float(a.init.get("std", 1.0))
        if a.dtype.name == "bf16":
            u = x.view(cp.uint32)
            out[a.name] = ((u + 0x7FFF + ((u >> 16) & 1)) >> 16).astype(cp.uint16)
        else:
            out[a.name] = x.astype(np.dtype(a.dtype.storage))
    return out


def _value(ref, cp):
    import numpy as np

    kinds = {"f64": np.float64, "f32": np.float32, "i64": np.int64, "u32": np.uint32, "i32": np.int32}
    if ref.ctype in kinds:
        return kinds[ref.ctype](ref.value)
    return np.int32(ref.value) if isinstance(ref.value, int) else np.float32(ref.value)


def run(task_dir: Path, specs: list[str], repeat: int) -> list[dict]:
    import tempfile

    import cupy as cp

    from kopt.build import build
    from kopt.device import default_arch
    from kopt.task import Task

    task = Task.load(task_dir)
    arch = default_arch()
    versions = []
    for spec in specs:
        name, text = _source(spec)
        b = build(task, text, arch=arch)
        with tempfile.NamedTemporaryFile(suffix=".cubin", delete=False) as f:
            f.write(b.artifact.cubin)
        versions.append((name, b, cp.RawModule(path=f.name)))
    rows = []
    first_out: dict = {}
    for si, shape in enumerate(task.shapes):
        bufs = _inputs(cp, task, shape, 1000 + si)
        for vi, (name, b, module) in enumerate(versions):
            plan = b.plan(shape)
            outs = {k: v for k, v in bufs.items() if task.arg(k).role == "out"}
            for v in outs.values():
                v.fill(0)
            fns = []
            for lp in plan.launches:
                fn = module.get_function(lp.lowered)
                if lp.smem > 48 * 1024:
                    fn.max_dynamic_shared_size_bytes = lp.smem
                args = tuple(bufs[r.name] if r.kind == "buffer" else _value(r, cp) for r in lp.args)
                fns.append((fn, lp, args))

            def launch():
                for fn, lp, args in fns:
                    fn(lp.grid, lp.block, args, shared_mem=lp.smem)

            launch()
            cp.cuda.Device().synchronize()
            result = {k: v.copy() for k, v in outs.items()}
            times = []
            for _ in range(repeat):
                start, end = cp.cuda.Event(), cp.cuda.Event()
                start.record()
                launch()
                end.record()
                end.synchronize()
                times.append(cp.cuda.get_elapsed_time(start, end))
            times.sort()
            row = {"version": name, "shape": shape.label, "ms": round(times[len(times) // 2], 3),
                   "all_ms": [round(t, 3) for t in times]}
            flops = task.work_figures(shape).get("flops")
            if flops:
                row["tflops"] = round(flops / (row["ms"] * 1e-3) / 1e12, 2)
            if vi == 0:
                first_out = result
            else:
                diffs = []
                for k, v in result.items():
                    scale = float(cp.abs(first_out[k]).max()) or 1.0
                    diffs.append(float(cp.abs(v - first_out[k]).max()) / scale)
                row["max_rel_diff_vs_first"] = max(diffs)
            rows.append(row)
            print(f"{shape.label:40s} {name:40s} {row['ms']:9.3f} ms {row.get('tflops', '')} "
                  f"{row.get('max_rel_diff_vs_first', '')}", flush=True)
    totals = {}
    for r in rows:
        totals[r["version"]] = round(totals.get(r["version"], 0.0) + r["ms"], 3)
    for name, total in totals.items():
        print(f"total {name}: {total} ms", flush=True)
    return rows + [{"version": n, "shape": "all", "ms": t} for n, t in totals.items()]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("task", type=Path)
    ap.add_argument("--ref", action="append", required=True, help="FILE or FILE@NAME=VALUE,...; repeatable")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--out", type=Path, required=True)
    args = ap.parse_args(argv)
    sys.path.insert(0, str(HERE))
    import envelope

    rows = run(args.task, args.ref, args.repeat)
    envelope.write(args.out, "reference_speed", f"median of {args.repeat} launches (after one) of each version of "
                   f"{args.task.name}'s reference_cuda at every shape, CuPy events; outputs compared with the first "
                   "version's", rows, envelope.gpu_device())
    return 0


if __name__ == "__main__":
    sys.exit(main())
