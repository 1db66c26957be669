"""Verify and measure every knowledge-base kernel (kb/cutlass_examples) on a GPU with kopt itself, next to the best
library call (torch / cuBLAS / SDPA) on the same shapes.

Each example is checked on all of its task's shapes (fresh random inputs), then timed against the task's baseline at
the timed shapes by ``kopt bench`` (cold L2, interleaved). The torch comparator is timed with triton's do_bench
(which also clears L2 between calls). Results go to bench/results/kb_examples.json; ``--apply FILE`` then writes each
example's [measured] table from such a results file (run it where the repository is, e.g. after the GPU run).

Usage (GPU machine, repo root):  python bench/kb_measure.py [--only a,b] [--max-time 2] [--out FILE]
                                 python bench/kb_measure.py --apply bench/results/kb_examples.json
"""
from __future__ import annotations

import argparse
import json
import sys
import time
import tomllib
import traceback
from pathlib import Path

import envelope

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "kb" / "cutlass_examples"


def _torch_ops():
    """task name -> (what it is, fn(tensors, symbols) -> callable) for the library comparator."""
    import torch
    import torch.nn.functional as F

    def mm(t, s):
        """(call, what it is): bf16 in, f32 out as the task asks where torch exposes cuBLAS's out_dtype."""
        try:
            torch.mm(t["A"][:8, :8], t["B"][:8, :8], out_dtype=torch.float32)
            return lambda: torch.mm(t["A"], t["B"], out_dtype=torch.float32), "torch.mm (cuBLAS, bf16 -> f32)"
        except (TypeError, RuntimeError):
            return lambda: torch.mm(t["A"], t["B"]), "torch.mm (cuBLAS, bf16 -> bf16: no out_dtype here)"

    def attention(t, s):
        causal = s.get("mask") == 2  # the task's mask symbol: 1 = none, 2 = causal
        return (lambda: F.scaled_dot_product_attention(t["Q"], t["K"], t["V"], is_causal=causal),
                f"F.scaled_dot_product_attention (bf16, is_causal={causal})")

    return {
        "vector_add": ("torch.add(a, b, out=c)", lambda t, s: lambda: torch.add(t["a"], t["b"], out=t["c"])),
        "copy": ("y.copy_(x)", lambda t, s: lambda: t["y"].copy_(t["x"])),
        "tma_copy": ("y.copy_(x)", lambda t, s: lambda: t["y"].copy_(t["x"])),
        "reduce_sum": ("torch.sum(x)", lambda t, s: lambda: torch.sum(t["x"])),
        "softmax_rows": ("torch.softmax(x, 1)", lambda t, s: lambda: torch.softmax(t["x"], 1)),
        "layernorm": ("F.layer_norm (bf16)", lambda t, s: lambda: F.layer_norm(t["x"], (s["cols"],), t["weight"],
                                                                                t["bias"], 1e-5)),
        "transpose": ("y.copy_(x.t())", lambda t, s: lambda: t["y"].copy_(t["x"].t())),
        "bias_gelu": ("F.gelu(x + bias, approximate='tanh') (2 kernels)",
                      lambda t, s: lambda: F.gelu(t["x"] + t["bias"], approximate="tanh")),
        "histogram": ("torch.bincount(x, minlength=256)", lambda t, s: lambda: torch.bincount(t["x"], minlength=256)),
        "gemm_bf16": ("torch.mm", mm),
        "gemm_bf16_aligned": ("torch.mm", mm),
        "attention_fwd": ("F.scaled_dot_product_attention", attention),
    }


ALTERNATIVE_TASKS = ("gemm_bf16", "gemm_bf16_aligned")  # the tasks with a second library comparator


def _torch_alternatives():
    """task name -> a second comparator: the GEMM as most callers run it (torch.matmul, bf16 out), which does the same
    math but writes half the output bytes of the task's f32 result."""
    import torch

    mm_bf16 = ("torch.matmul (cuBLAS, bf16 -> bf16)", lambda t, s: lambda: torch.matmul(t["A"], t["B"]))
    return {task: mm_bf16 for task in ALTERNATIVE_TASKS}


def torch_time(task, shape, alternative: bool = False) -> dict:
    """Median µs of the library call at ``shape`` (or of the task's second comparator), or why there is none."""
    try:
        import torch
        import triton.testing
    except ImportError as exc:
        return {"error": f"not installed: {exc}"}
    ops = _torch_alternatives() if alternative else _torch_ops()
    if task.name not in ops:
        return {"error": f"no library comparator for {task.name}"}
    what, make = ops[task.name]
    dtypes = {"f32": torch.float32, "bf16": torch.bfloat16, "f16": torch.float16, "u8": torch.uint8,
              "u32": torch.int32, "i32": torch.int32}
    sym = dict(shape.symbols)
    tensors = {}
    try:
        for a in task.args:
            if not a.is_buffer:
                continue
            dims = list(task.shape_of(a, shape))
            dt = dtypes.get(a.dtype.name)
            if dt is None:
                return {"library": what, "error": f"no torch dtype for {a.dtype.name}"}
            if dt == torch.uint8:
                tensors[a.name] = torch.randint(0, 256, dims, dtype=dt, device="cuda")
            elif dt.is_floating_point:
                tensors[a.name] = torch.randn(dims, device="cuda").to(dt)
            else:
                tensors[a.name] = torch.zeros(dims, dtype=dt, device="cuda")
        fn = make(tensors, sym)
        if isinstance(fn, tuple):  # the comparator says exactly what it ran
            fn, what = fn
        us = triton.testing.do_bench(fn, warmup=25, rep=300, return_mode="median") * 1e3
    except Exception as exc:
        return {"library": what, "error": f"{type(exc).__name__}: {exc}"}
    finally:
        tensors.clear()
        torch.cuda.empty_cache()
    return {"library": what, "median_us": us}


def measure(example: Path, max_time: float) -> dict:
    from kopt.evaluation import bench
    from kopt.candidate import Candidate
    from kopt.task import Task

    meta = tomllib.loads(example.with_suffix(".toml").read_text())
    task = Task.load(ROOT / "bench" / "tasks" / meta["task"])
    cand = Candidate.load(example)
    row = {"example": example.stem, "task": task.name, "config": cand.default_config()}
    r = bench(task, example, baseline=task.baseline, options={"max_time": max_time})
    row["correct"] = r.candidate.correct
    row["ok"] = r.ok  # correct, timed, and no timing voided (implausible, caching results...)
    row["status"] = r.candidate.status
    row["shapes_checked"] = len(task.shapes)
    row["diagnostics"] = [d.to_dict() for d in (r.candidate.diagnostics + r.diagnostics)][:5]
    row["copy_gbps_measured"] = r.ceilings.get("copy_gbps")
    row["shapes"] = []
    for sr, shape in zip(r.shapes, task.timed_shapes):
        c, b, cmp = sr.candidate, sr.baseline, sr.comparison
        entry = {"shape": sr.shape, "us": c.summary.median if c.summary else None,
                 "ci95_us": [c.summary.ci_low, c.summary.ci_high] if c.summary else None,
                 "cv": c.summary.cv if c.summary else None, "method": c.method, "valid": c.valid, **c.figures,
                 "baseline_us": b.summary.median if b and b.summary else None,
                 "speedup_vs_baseline": cmp.speedup if cmp else None, "verdict": cmp.verdict if cmp else None}
        if entry.get("gbps") and row["copy_gbps_measured"]:
            entry["pct_of_copy_bw"] = 100 * entry["gbps"] / row["copy_gbps_measured"]
        lib = torch_time(task, shape)
        entry["library"] = lib
        if lib.get("median_us") and entry["us"]:
            entry["vs_library"] = lib["median_us"] / entry["us"]  # > 1: the example is faster
        if task.name in ALTERNATIVE_TASKS:
            alt = torch_time(task, shape, alternative=True)
            entry["library_alt"] = alt
            if alt.get("median_us") and entry["us"]:
                entry["vs_library_alt"] = alt["median_us"] / entry["us"]
        row["shapes"].append(entry)
    return row


def apply(results: Path) -> None:
    """Write each example's [measured] table from a results file."""
    doc = json.loads(results.read_text())
    for row in doc["results"]:
        path = EXAMPLES / f"{row['example']}.toml"
        if not path.exists() or "error" in row or not row.get("ok", row.get("correct")):
            continue  # only examples that passed and were timed validly get figures
        text = path.read_text()
        head = text[:text.index("[measured]")] if "[measured]" in text else text.rstrip() + "\n\n"
        date, commit = row.get("date", doc["date"])[:10], row.get("commit", doc["commit"])  # a re-run row has its own
        lines = ["[measured]", f"# kopt bench on the {doc['device'].get('name')} (driver "
                 f"{doc['device'].get('driver_version') or doc['device'].get('driver')}), {date}, "
                 f"commit {commit}: produced by bench/kb_measure.py, copied from bench/results/kb_examples.json",
                 f"date = \"{date}\"", f"commit = \"{commit}\"", f"gpu = \"{doc['device'].get('name')}\"",
                 f"correct = {str(row['correct']).lower()}",
                 f"config = {{ {', '.join(f'{k} = {v}' for k, v in row['config'].items())} }}"]
        if row.get("copy_gbps_measured"):
            lines.append(f"copy_gbps_measured = {row['copy_gbps_measured']:.0f}")
        for s in row["shapes"]:
            lines.append("")
            lines.append("[[measured.shapes]]")
            lines.append(f"shape = \"{s['shape']}\"")
            for key, fmt in (("us", "{:.2f}"), ("gbps", "{:.0f}"), ("tflops", "{:.1f}"), ("pct_of_copy_bw", "{:.1f}"),
                             ("pct_of_roofline", "{:.1f}"), ("baseline_us", "{:.2f}"),
                             ("speedup_vs_baseline", "{:.2f}"), ("vs_library", "{:.2f}")):
                if s.get(key) is not None:
                    lines.append(f"{key} = {fmt.format(s[key])}")
            lib = s.get("library", {})
            if lib.get("median_us"):
                lines.append(f"library = \"{lib['library']}\"")
                lines.append(f"library_us = {lib['median_us']:.2f}")
            alt = s.get("library_alt", {})
            if alt.get("median_us"):
                lines.append(f"library_alt = \"{alt['library']}\"")
                lines.append(f"library_alt_us = {alt['median_us']:.2f}")
                if s.get("vs_library_alt") is not None:
                    lines.append(f"vs_library_alt = {s['vs_library_alt']:.2f}")
        path.write_text(head + "\n".join(lines) + "\n")
        print(f"updated {path.relative_to(ROOT)}")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--only", default="")
    ap.add_argument("--max-time", type=float, default=2.0)
    ap.add_argument("--out", default=str(ROOT / "bench" / "results" / "kb_examples.json"))
    ap.add_argument("--apply", type=Path)
    args = ap.parse_args()
    if args.apply:
        apply(args.apply)
        return
    only = {x for x in args.only.split(",") if x}
    rows = []
    device = envelope.gpu_device()
    for ex in sorted(EXAMPLES.glob("*.cu")):
        if only and ex.stem not in only:
            continue
        print(f"== {ex.stem}", flush=True)
        t0 = time.perf_counter()
        try:
            rows.append(measure(ex, args.max_time))
        except Exception as exc:
            rows.append({"example": ex.stem, "error": f"{type(exc).__name__}: {exc}",
                         "traceback": traceback.format_exc()[-2000:]})
        r = rows[-1]
        r["wall_s"] = round(time.perf_counter() - t0, 1)
        print(f"   {r['wall_s']} s", flush=True)
        x = lambda v, fmt: format(v, fmt) if isinstance(v, (int, float)) else "-"  # noqa: E731
        for s in r.get("shapes", []):
            print(f"   {s['shape']}: {x(s['us'], '.2f')} us, {x(s.get('pct_of_copy_bw'), '.1f')} % copy BW,"
                  f" {x(s.get('tflops'), '.1f')} TFLOP/s, x{x(s.get('speedup_vs_baseline'), '.2f')} vs baseline,"
                  f" x{x(s.get('vs_library'), '.2f')} vs {s['library'].get('library', '-')}"
                  + (f", x{x(s.get('vs_library_alt'), '.2f')} vs {s['library_alt'].get('library', '-')}"
                     if "library_alt" in s else ""), flush=True)
        if "error" in r or not r.get("correct"):
            print(f"   FAILED: {r.get('error') or r.get('status')} {r.get('diagnostics', '')}"[:1500], flush=True)
        # written after every example, so a run cut short keeps what it measured
        envelope.write(args.out, "kb_examples", "kopt bench (check on every task shape, then cold interleaved timing "
                       "vs the task baseline); library comparator timed with triton.testing.do_bench (median)",
                       rows, device)


if __name__ == "__main__":
    sys.exit(main())
