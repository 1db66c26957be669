"""Analyzer speed (and accuracy) over the labeled corpus: median and p95 wall time per kernel file.

Usage: python bench/analyzer_speed.py [--repeat N] [--out bench/results/analyzer_speed.json]
Each file is analyzed once to warm up (libclang index, z3 context), then N times; a file's time is the median of
its N runs. Reported: median, p90, p95 and max over files, the cold first call, the machine's load average (a
shared machine makes every figure pessimistic) and per-rule precision/recall.
"""
from __future__ import annotations

import argparse
import os
import json
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from analyzer_labels import corpus_files, observed, parse_labels  # noqa: E402

import envelope  # noqa: E402
import analyzers  # noqa: E402
import kopt  # noqa: E402

envelope.require_this_tree(kopt, analyzers)

TARGET_MEDIAN_MS, TARGET_P90_MS, TARGET_MAX_MS = 50.0, 300.0, 2000.0  # per file (issue 23)
RULES = ["race.shared", "race.global", "barrier.divergent", "sync.missing", "warp.implicit-sync", "bounds.shared",
         "bank-conflict", "coalescing", "async.proxy-fence", "async.cp-async-wait", "async.mbarrier-phase",
         "race.atomic-plain", "race.curand-state"]




def _pct(xs, q):
    xs = sorted(xs)
    k = (len(xs) - 1) * q
    lo, hi = int(k), min(int(k) + 1, len(xs) - 1)
    return xs[lo] + (xs[hi] - xs[lo]) * (k - lo)


def main(argv=None):
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--out", default=str(ROOT / "bench" / "results" / "analyzer_speed.json"))
    args = ap.parse_args(argv)

    t0 = time.perf_counter()
    from kopt.analyze import analyze
    first = corpus_files()[0]
    analyze(first)
    cold_ms = (time.perf_counter() - t0) * 1e3

    per_file, rows = [], []
    for f in corpus_files():
        analyze(f)  # warm
        times = []
        for _ in range(args.repeat):
            t = time.perf_counter()
            res = analyze(f)
            times.append((time.perf_counter() - t) * 1e3)
        ms = statistics.median(times)
        per_file.append({"file": f.name, "kernels": len(res.kernels), "median_ms": round(ms, 2),
                         "frontend": res.frontend})
        rows.append((parse_labels(f.read_text()), observed(res)))

    accuracy = []
    for rule in RULES:
        tp = sum(1 for e, g in rows if rule in e and rule in g)
        fp = sum(1 for e, g in rows if rule not in e and rule in g)
        fn = sum(1 for e, g in rows if rule in e and rule not in g)
        accuracy.append({"rule": rule, "labeled": tp + fn, "tp": tp, "fp": fp, "fn": fn,
                         "precision": round(tp / (tp + fp), 3) if tp + fp else None,
                         "recall": round(tp / (tp + fn), 3) if tp + fn else None})
    degrees = [(e["bank-conflict"], g.get("bank-conflict")) for e, g in rows if "bank-conflict" in e]

    times = [r["median_ms"] for r in per_file]
    summary = {"files": len(per_file), "kernels": sum(r["kernels"] for r in per_file),
               "median_ms": round(statistics.median(times), 2), "p90_ms": round(_pct(times, 0.90), 2),
               "p95_ms": round(_pct(times, 0.95), 2),
               "max_ms": round(max(times), 2), "cold_first_call_ms": round(cold_ms, 1),
               "target_ms": {"median": TARGET_MEDIAN_MS, "p90": TARGET_P90_MS, "max": TARGET_MAX_MS},
               "meets_target": statistics.median(times) <= TARGET_MEDIAN_MS and _pct(times, 0.9) <= TARGET_P90_MS
               and max(times) <= TARGET_MAX_MS,
               "load_average_1min": round(os.getloadavg()[0], 2),
               "bank_conflict_degrees_exact": f"{sum(a == b for a, b in degrees)}/{len(degrees)}"}
    envelope.write(args.out, "analyzer_speed",
                   f"tests/analyzers/corpus/*.cu, each analyzed once to warm up then {args.repeat} times "
                   f"(median per file; every pass, libclang front end); summary over files",
                   [{"summary": summary}, {"accuracy": accuracy}, {"per_file": per_file}], envelope.cpu_device())
    print(json.dumps(summary, indent=2))
    for a in accuracy:
        print(f"  {a['rule']:24s} labeled={a['labeled']:3d} precision={a['precision']} recall={a['recall']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
