"""KB search latency: median and p95 of ``kopt.kb.search`` over the retrieval-test queries, on the project index
alone and with the installed CUTLASS headers indexed too (that index's build time is reported).

Usage: python bench/kb_search_speed.py [--repeat N] [--out bench/results/kb_search_speed.json]
Runs in a private KOPT_CACHE_DIR. Each query runs once to warm up, then N times; a query's time is its median.
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

import envelope

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

TARGET_MEDIAN_MS = 20.0




def _measure(queries, repeat) -> dict:
    from kopt import kb
    per_query = []
    for q in queries:
        kb.search(q)
        times = []
        for _ in range(repeat):
            t = time.perf_counter()
            kb.search(q)
            times.append((time.perf_counter() - t) * 1e3)
        per_query.append(statistics.median(times))
    per_query.sort()
    return {"queries": len(per_query), "median_ms": round(statistics.median(per_query), 3),
            "p95_ms": round(per_query[int(0.95 * (len(per_query) - 1))], 3), "max_ms": round(per_query[-1], 3),
            "meets_target": statistics.median(per_query) <= TARGET_MEDIAN_MS}


def main(argv=None):
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--out", default=str(ROOT / "bench" / "results" / "kb_search_speed.json"))
    args = ap.parse_args(argv)
    cache = tempfile.mkdtemp(prefix="kopt-kb-bench-")
    os.environ["KOPT_CACHE_DIR"] = cache
    try:
        out = _run(args)
    finally:
        shutil.rmtree(cache, ignore_errors=True)
    envelope.write(args.out, "kb_search_speed", out["method"], out["results"], out["device"])
    print(json.dumps(out["results"], indent=2))
    return 0


def _run(args) -> dict:
    from test_kb import SEARCHES

    from kopt import kb
    from kopt.toolchain import cutlass_include_dir
    queries = [q for q, _ in SEARCHES]
    t0 = time.perf_counter()
    kb.search("warmup")  # builds the project index
    results = [{"corpus": "project (kb/docs, kb/cutlass_examples, bench/tasks baselines)",
                "index_build_s": round(time.perf_counter() - t0, 2), **_measure(queries, args.repeat)}]
    include = cutlass_include_dir()
    if include:
        stats = kb.index(include)
        results.append({"corpus": f"project + CUTLASS headers ({include})", "index_build_s": stats["seconds"],
                        "files": stats["files"], "chunks": stats["chunks"], **_measure(queries, args.repeat)})
    return {
        "device": envelope.cpu_device(),
        "method": (f"kopt.kb.search(q, limit=10) for the {len(queries)} natural-language queries of tests/test_kb.py;"
                   f" each once to warm up then {args.repeat} times (median per query); summary over queries; "
                   f"target median <= {TARGET_MEDIAN_MS} ms"),
        "results": results,
    }


if __name__ == "__main__":
    sys.exit(main())
