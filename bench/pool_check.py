"""The evaluator pool against the local path on a GPU: for each task, its baseline's tunables are tuned twice
(exhaustive), once as ``kopt optimize`` does by default (one worker) and once through ``--workers 1`` (kopt.pool: a
worker pinned to the GPU by its UUID); both must pick the same best configuration, or configurations whose speedups
over the baseline agree within their confidence intervals at every timed shape.

Usage: python bench/pool_check.py --out results/pool_check.json [--tasks softmax_rows,vector_add] [--max-time 1]
Exit status 0 when every task agrees, 1 otherwise."""
from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

import envelope

ROOT = Path(__file__).resolve().parents[1]


def _shape_cis(row: dict) -> dict:
    """Per timed shape: (ci_low, ci_high) of the speedup over the baseline timed in the same request."""
    out = {}
    for s in row["measurement"]["shapes"]:
        c = s.get("comparison")
        if c:
            out[s["shape"]] = (c["ci_low"], c["ci_high"])
    return out


def _agree(run_rows: list[dict], a: dict, b: dict) -> bool:
    """Whether configurations ``a`` and ``b`` are equally fast within the CIs measured in one run."""
    by_cfg = {json.dumps(r["config"], sort_keys=True): r for r in run_rows if r["status"] == "ok"}
    ra, rb = by_cfg.get(json.dumps(a, sort_keys=True)), by_cfg.get(json.dumps(b, sort_keys=True))
    if ra is None or rb is None:
        return False
    ca, cb = _shape_cis(ra), _shape_cis(rb)
    return bool(ca) and ca.keys() == cb.keys() and all(ca[k][0] <= cb[k][1] and cb[k][0] <= ca[k][1] for k in ca)


def check_task(name: str, store, max_time: float) -> dict:
    import kopt
    from kopt.pool import local_pool

    task = ROOT / "bench" / "tasks" / name
    t0 = time.perf_counter()
    local = kopt.optimize(task, task / "baseline.cu", store=store, strategy="exhaustive", max_time=max_time)
    t1 = time.perf_counter()
    with local_pool(1) as pool:
        pooled = kopt.optimize(task, task / "baseline.cu", store=store, strategy="exhaustive", max_time=max_time,
                               pool=pool)
    t2 = time.perf_counter()
    lb, pb = local.best, pooled.best
    same = bool(lb and pb and lb["config"] == pb["config"])
    rows_local, rows_pool = store.evaluations(local.run), store.evaluations(pooled.run)
    within = same or bool(lb and pb and _agree(rows_local, lb["config"], pb["config"])
                          and _agree(rows_pool, lb["config"], pb["config"]))
    return {"task": name, "ok": within, "same_config": same,
            "local": {"run": local.run, "best": lb and lb["config"], "time_us": lb and lb["time_us"],
                      "speedup": lb and lb["speedup"], "evaluations": local.evaluations, "seconds": round(t1 - t0, 1)},
            "workers_1": {"run": pooled.run, "best": pb and pb["config"], "time_us": pb and pb["time_us"],
                          "speedup": pb and pb["speedup"], "evaluations": pooled.evaluations,
                          "seconds": round(t2 - t1, 1), "gpus": [r["measurement"].get("gpu") for r in rows_pool][:1],
                          "warnings": sorted({w for r in rows_pool for w in r["measurement"]["warnings"]})},
            "per_config_us": {"local": {json.dumps(r["config"]): r["time_us"] for r in rows_local},
                              "workers_1": {json.dumps(r["config"]): r["time_us"] for r in rows_pool}}}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--tasks", default="softmax_rows,vector_add")
    ap.add_argument("--max-time", type=float, default=1.0, help="seconds of sampling per timed entry")
    args = ap.parse_args()
    from kopt.runstore import RunStore

    results = []
    with tempfile.TemporaryDirectory() as ws:
        store = RunStore(Path(ws) / ".kopt" / "runs.db")
        for name in args.tasks.split(","):
            try:
                results.append(check_task(name, store, args.max_time))
            except Exception as exc:  # recorded, so the other task still runs and the log says what broke
                results.append({"task": name, "ok": False, "error": f"{type(exc).__name__}: {exc}"})
            print(json.dumps(results[-1], default=str)[:2000], flush=True)
    ok = all(r["ok"] for r in results)
    envelope.write(args.out, "pool_check", "kopt.optimize exhaustive over the baseline's tunables, once on the local "
                   "worker and once through --workers 1 (kopt.pool), same GPU, same run store", results,
                   envelope.gpu_device(), ok=ok, max_time=args.max_time)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
