"""Compile speed of kopt's NVRTC path: cold compile, cache hit, and a CuTe kernel with and without a precompiled header.

Usage: python bench/compile_speed.py [--out bench/results/compile_speed.json]
Runs on the CPU (no GPU needed). Each figure is the median of several runs in one process after one warm-up compile
(which pays NVRTC's one-time library load).
"""
from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time
from pathlib import Path

import envelope

ROOT = Path(__file__).resolve().parents[1]
SIMPLE = (ROOT / "tests" / "data" / "copy_float4.cu").read_text()
CUTE = ROOT / "tests" / "data" / "cute_copy.cu"


def _median_ms(fn, n: int) -> tuple[float, list[float]]:
    samples = []
    for _ in range(n):
        t0 = time.perf_counter()
        fn()
        samples.append((time.perf_counter() - t0) * 1e3)
    return statistics.median(samples), [round(s, 3) for s in samples]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default=str(ROOT / "bench" / "results" / "compile_speed.json"))
    ap.add_argument("--runs", type=int, default=7)
    args = ap.parse_args()
    os.environ["KOPT_CACHE_DIR"] = tempfile.mkdtemp(prefix="kopt-bench-cache-")
    import kopt
    from kopt.compiler import nvrtc_version
    from kopt.toolchain import cutlass_include_dir

    kopt.compile(SIMPLE, arch="sm_90", use_cache=False)  # warm-up: loads NVRTC
    counter = iter(range(10**6))
    cold, cold_s = _median_ms(lambda: kopt.compile(SIMPLE + f"// {next(counter)}\n", arch="sm_90", use_cache=False),
                              args.runs)
    kopt.compile(SIMPLE, arch="sm_90")
    hit, hit_s = _median_ms(lambda: kopt.compile(SIMPLE, arch="sm_90"), args.runs * 3)
    results = [
        {"case": "simple kernel, cold (no cache)", "median_ms": round(cold, 2), "samples_ms": cold_s, "target_ms": 150},
        {"case": "simple kernel, cache hit", "median_ms": round(hit, 3), "samples_ms": hit_s, "target_ms": 5},
    ]
    if cutlass_include_dir():
        n = max(3, args.runs // 2)
        cute, cute_s = _median_ms(lambda: kopt.compile(CUTE, arch="sm_90", use_cache=False), n)
        results.append({"case": "CuTe kernel (cute/tensor.hpp), cold, no PCH", "median_ms": round(cute, 1),
                        "samples_ms": cute_s})
        pch_dir = tempfile.mkdtemp(prefix="kopt-pch-")
        opts = ["-pch", f"--pch-dir={pch_dir}"]
        kopt.compile(CUTE, arch="sm_90", use_cache=False, options=opts)  # creates the PCH
        pch, pch_s = _median_ms(lambda: kopt.compile(CUTE, arch="sm_90", use_cache=False, options=opts), n)
        results.append({"case": "CuTe kernel, cold, NVRTC automatic PCH (-pch) reused", "median_ms": round(pch, 1),
                        "samples_ms": pch_s})
    envelope.write(args.out, "compile_speed",
                   f"kopt.compile in one process, NVRTC {nvrtc_version()}, arch sm_90, median of runs after a warm-up",
                   results, envelope.cpu_device())
    for r in results:
        print(f"{r['case']:<55} {r['median_ms']:>9} ms" + (f"  (target {r['target_ms']} ms)" if "target_ms" in r else ""))


if __name__ == "__main__":
    main()
