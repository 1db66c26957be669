"""Fresh random inputs for a task shape, reproducible from a seed.

Large arguments are generated in fixed-size chunks, each from its own stream spawned from the seed, on a thread pool
(numpy's generators and ufuncs release the GIL): a 2 GiB input takes seconds, not minutes. The values depend only on
the seed and the chunk size, never on the number of threads."""
from __future__ import annotations

import os
from concurrent.futures import ThreadPoolExecutor

import numpy as np

from .task import Shape, Task

CHUNK = 1 << 22  # elements per independently seeded chunk
# threads for host-side array work (generation here, comparison in kopt.worker.compare): the CPUs this process may use
WORKERS = min(8, len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1)


def _fill(a, init: dict, rng: np.random.Generator, out: np.ndarray) -> None:
    """Draw ``out.size`` values for argument ``a`` into ``out`` (storage dtype, flat)."""
    kind = init.get("kind", "normal")
    n = out.size
    if kind == "normal":
        values = rng.standard_normal(n, dtype=np.float32 if a.dtype.itemsize <= 4 else np.float64)
        values = values * float(init.get("std", 1.0)) + float(init.get("mean", 0.0))
    elif kind == "uniform":
        values = rng.uniform(float(init.get("low", 0.0)), float(init.get("high", 1.0)), n)
    else:  # randint, high exclusive
        values = rng.integers(int(init.get("low", 0)), int(init.get("high", 100)), n)
    if a.dtype.name == "bf16":
        out[:] = a.dtype.from_float64(values)
    elif a.dtype.is_float:
        out[:] = values
    else:
        info = np.iinfo(a.dtype.storage)
        out[:] = np.clip(values, info.min, info.max)


def widen(dt, raw: np.ndarray) -> np.ndarray:
    """``dt.to_float64(raw)`` in chunks on the thread pool: widening 2^28 values takes seconds on one core."""
    if raw.size <= CHUNK or WORKERS == 1:
        return dt.to_float64(raw)
    out = np.empty(raw.shape, np.float64)
    src, dst = np.ascontiguousarray(raw).reshape(-1), out.reshape(-1)

    def one(lo: int) -> None:
        dst[lo:lo + CHUNK] = dt.to_float64(src[lo:lo + CHUNK])

    with ThreadPoolExecutor(max_workers=WORKERS) as pool:
        list(pool.map(one, range(0, src.size, CHUNK)))
    return out


def generate(task: Task, shape: Shape, seed: int) -> dict[str, np.ndarray]:
    """Host arrays (storage dtype) for every ``in``/``inout`` argument."""
    out = {}
    jobs = []
    for i, a in enumerate(task.args):
        if a.role not in ("in", "inout"):
            continue
        arr = np.empty(task.shape_of(a, shape), dtype=a.dtype.storage)
        flat = arr.reshape(-1)
        chunks = max(1, -(-flat.size // CHUNK))
        streams = np.random.SeedSequence([seed, i]).spawn(chunks)
        for c, ss in enumerate(streams):
            jobs.append((a, ss, flat[c * CHUNK:(c + 1) * CHUNK]))
        out[a.name] = arr
    if len(jobs) == 1:
        a, ss, view = jobs[0]
        _fill(a, a.init, np.random.default_rng(ss), view)
    else:
        with ThreadPoolExecutor(max_workers=min(len(jobs), WORKERS)) as pool:
            list(pool.map(lambda j: _fill(j[0], j[0].init, np.random.default_rng(j[1]), j[2]), jobs))
    return out
