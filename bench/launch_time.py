"""kopt.time in the caller's process against kopt bench's worker, on the same kernels at the same sizes (GPU).

For each bench task baseline below: `kopt.bench` (worker, its inputs, cold) and `kopt.time(kopt.prepare(...))` on
torch tensors of the timed shape (cold), each with its median and 95 % CI; `triton.testing.do_bench` beside them where
triton is installed (its own method: warm-ish, with its own L2 clear, mean of the middle samples).
    python bench/launch_time.py --out bench/results/launch_time.json
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent

# task -> its timed-shape arguments as torch tensors (the launch geometry comes from the baseline's annotation)
CASES = {
    "copy": lambda torch, s: [torch.randn(s["n"], device="cuda"), torch.empty(s["n"], device="cuda"), s["n"]],
    "gemm_f32": lambda torch, s: [torch.randn(s["M"], s["K"], device="cuda"), torch.randn(s["K"], s["N"], device="cuda"),
                                  torch.empty(s["M"], s["N"], device="cuda"), s["M"], s["N"], s["K"]],
}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--max-time", type=float, default=3.0)
    args = ap.parse_args(argv)
    sys.path.insert(0, str(HERE))
    import envelope
    import torch

    import kopt
    from kopt.candidate import Candidate
    from kopt.geometry import launch_geometry

    rows = []
    for name, make in CASES.items():
        task = kopt.Task.load(ROOT / "bench" / "tasks" / name)
        shape = task.timed_shapes[0]
        cand = Candidate.load(task.baseline)
        [geo] = launch_geometry(cand, cand.default_config(), shape.symbols)
        call_args = make(torch, shape.symbols)
        r = kopt.bench(task, task.baseline, options={"max_time": args.max_time})
        benched = r.shapes[0].candidate if r.ok else None
        launch = kopt.prepare(task.baseline, None, geo.grid, geo.block, *call_args, smem=geo.smem or 0)
        timed = kopt.time(launch, max_time=args.max_time)
        row = {"task": name, "shape": shape.label, "kernel": launch.kernel,
               "kopt_bench": _summary(benched), "kopt_time": _summary(timed),
               "bench_diagnostics": [d.rule for d in r.diagnostics]}
        if benched and benched.summary and timed.summary:
            b, t = benched.summary, timed.summary
            row["relative_difference"] = round(t.median / b.median - 1, 4)
            row["within_2_percent"] = abs(t.median / b.median - 1) <= 0.02
            row["cis_overlap"] = t.ci_low <= b.ci_high and b.ci_low <= t.ci_high
        try:
            import triton.testing

            row["triton_do_bench_us"] = round(triton.testing.do_bench(launch) * 1e3, 2)
        except ImportError:
            pass
        rows.append(row)
        print(row, flush=True)
    envelope.write(args.out, "launch_time", "kopt.bench (worker) vs kopt.time (in process, torch tensors) on the "
                   "same baseline kernels at the task's timed shape; both cold, CUPTI", rows, envelope.gpu_device())
    return 0


def _summary(m) -> dict | None:
    if m is None or m.summary is None:
        return None
    s = m.summary
    return {"median_us": round(s.median, 2), "ci95_us": [round(s.ci_low, 2), round(s.ci_high, 2)], "n": s.n,
            "method": m.method, "stop_reason": m.stop_reason}


if __name__ == "__main__":
    sys.exit(main())
