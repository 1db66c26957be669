"""Fresh random inputs for a task shape, reproducible from a seed."""
from __future__ import annotations

import numpy as np

from .task import Shape, Task


def generate(task: Task, shape: Shape, seed: int) -> dict[str, np.ndarray]:
    """Host arrays (storage dtype) for every ``in``/``inout`` argument."""
    rng = np.random.default_rng(seed)
    out = {}
    for a in task.args:
        if a.role not in ("in", "inout"):
            continue
        dims = task.shape_of(a, shape)
        init = a.init
        kind = init.get("kind", "normal")
        if kind == "normal":
            values = rng.standard_normal(dims, dtype=np.float32 if a.dtype.itemsize <= 4 else np.float64)
            values = values * float(init.get("std", 1.0)) + float(init.get("mean", 0.0))
        elif kind == "uniform":
            values = rng.uniform(float(init.get("low", 0.0)), float(init.get("high", 1.0)), dims)
        else:  # randint, high exclusive
            values = rng.integers(int(init.get("low", 0)), int(init.get("high", 100)), dims)
        out[a.name] = a.dtype.from_float64(values) if a.dtype.name == "bf16" else np.ascontiguousarray(
            values.astype(a.dtype.storage) if a.dtype.is_float else np.clip(values, *_int_range(a.dtype.storage)).astype(a.dtype.storage))
    return out


def _int_range(dt: np.dtype):
    info = np.iinfo(dt)
    return info.min, info.max
