"""Static hazard analysis of CUDA kernels: ``kopt.analyze(source)`` -> AnalysisResult (Diagnostics + assumptions).

The analyzers live in the ``analyzers`` package (front end, kernel model, passes); this is the public entry. The
solver and front ends load on the first call, so ``import kopt`` stays light.
"""
from __future__ import annotations

from pathlib import Path

from analyzers.result import AnalysisResult

__all__ = ["analyze", "AnalysisResult"]


def analyze(source: str | Path, *, block=None, grid=None, defines=None, kernels=None) -> AnalysisResult:
    """Analyze a .cu file (path) or CUDA source text for races, barrier divergence, missing syncs, out-of-bounds
    shared indexing, bank conflicts, uncoalesced access and async-copy misuse.

    ``block``/``grid``: (x, y, z) tuples used when a kernel has no ``// kopt: launch`` annotation;
    ``defines``: {"NAME": "value" | None} as for -D; ``kernels``: names to analyze (``"gemm<128,64>"`` binds
    template arguments). ``result.assumed`` states the launch configuration each kernel was analyzed under.
    """
    from analyzers.driver import analyze as _analyze

    return _analyze(source, block=_dims(block), grid=_dims(grid), defines=defines, kernels=kernels)


def _dims(d):
    if d is None:
        return None
    if isinstance(d, int):
        return (d, 1, 1)
    d = tuple(int(x) for x in d)
    return d + (1,) * (3 - len(d))
