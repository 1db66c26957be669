"""The worker's side of the check kernels (``kopt.check_kernels``, compiled by the parent): draw inputs, compare
outputs with the reference and inputs with their copies on the device; only figures come back to the host."""
from __future__ import annotations

import struct
from dataclasses import dataclass

import numpy as np

from ..dtypes import DType
from ..params import PackedParams

# struct Partial of kopt.check_kernels.SOURCE, field for field
PARTIAL = np.dtype([("err_sq", "f8"), ("ref_sq", "f8"), ("max_abs", "f8"), ("max_rel", "f8"), ("worst_score", "f8"),
                    ("worst_value", "f8"), ("worst_expected", "f8"), ("mismatches", "u8"), ("unwritten", "u8"),
                    ("nan_mismatch", "u8"), ("worst", "u8")])
KINDS = {"normal": 0, "uniform": 1, "randint": 2}
THREADS = 256


@dataclass
class Totals:
    """The merged figures of one comparison, the fields ``kopt.worker.compare`` reads from its host totals."""

    err_sq: float
    ref_sq: float
    max_abs: float
    max_rel: float
    mismatches: int
    unwritten: int
    nan_mismatch: int
    worst: int
    worst_value: float | None
    worst_expected: float | None


def _pack(*values) -> PackedParams:
    """Parameters as (format, value) pairs: ``Q`` pointers and 64-bit integers, ``I`` u32, ``i`` int, ``d`` double."""
    return PackedParams([struct.pack("<" + f, v) for f, v in values])


class DeviceChecks:
    """The check kernels, loaded in the worker's GPU session."""

    def __init__(self, gpu, helpers):
        self.gpu, self.helpers = gpu, helpers
        module = gpu.load(helpers.cubin)
        self._fn = {n: gpu.function(module, lowered) for n, lowered in helpers.lowered.items()}
        self._grid = gpu.attribute("MULTIPROCESSOR_COUNT") * 8
        self._scratch = gpu.alloc(4096 * PARTIAL.itemsize)

    def fill(self, buf, dt: DType, n: int, seed: int, stream: int, init: dict) -> None:
        """``n`` values of ``dt`` drawn for argument number ``stream`` under ``seed`` into ``buf``."""
        kind = init.get("kind", "normal")
        if kind == "normal":
            a, b = float(init.get("mean", 0.0)), float(init.get("std", 1.0))
        elif kind == "uniform":
            a, b = float(init.get("low", 0.0)), float(init.get("high", 1.0))
        else:
            a, b = float(int(init.get("low", 0))), float(int(init.get("high", 100)))
        params = _pack(("Q", buf.ptr), ("Q", n), ("Q", seed & (2 ** 64 - 1)), ("I", stream & 0xFFFFFFFF),
                       ("i", KINDS[kind]), ("d", a), ("d", b))
        self.gpu.launch(self._fn[f"kopt_fill_{dt.name}"], (min(self._grid, max(1, -(-n // THREADS))), 1, 1),
                        (THREADS, 1, 1), 0, params.address)

    def compare(self, got, dt: DType, expected, n: int, tol: dict) -> Totals:
        """``got`` (``n`` elements of ``dt``) against ``expected`` (``n`` float64) on the device."""
        blocks = max(1, min(4096, -(-n // 8192)))
        chunk = max(1, -(-n // blocks))
        params = _pack(("Q", got.ptr), ("Q", expected.ptr), ("Q", n), ("Q", chunk), ("d", float(tol["atol"])),
                       ("d", float(tol["rtol"])), ("Q", dt.poison & (2 ** (8 * dt.itemsize) - 1)),
                       ("Q", self._scratch.ptr))
        self.gpu.launch(self._fn[f"kopt_compare_{dt.name}"], (blocks, 1, 1), (THREADS, 1, 1), 0, params.address)
        parts = np.empty(blocks, PARTIAL)
        self.gpu.synchronize("comparison")
        self.gpu.download(self._scratch, parts)
        first = int(np.argmax(parts["worst_score"]))  # the first of equally bad blocks, as on the host
        w = parts[first] if parts["worst_score"][first] >= 0 else None  # -1: no element at all
        return Totals(float(parts["err_sq"].sum()), float(parts["ref_sq"].sum()), float(parts["max_abs"].max()),
                      float(parts["max_rel"].max()), int(parts["mismatches"].sum()), int(parts["unwritten"].sum()),
                      int(parts["nan_mismatch"].sum()), int(w["worst"]) if w is not None else 0,
                      float(w["worst_value"]) if w is not None else None,
                      float(w["worst_expected"]) if w is not None else None)

    def differences(self, a, b, itemsize: int, n: int) -> tuple[int, int | None]:
        """(elements whose bits differ, the first such flat index) between two device buffers."""
        counter = np.array([0, 2 ** 64 - 1], np.uint64)
        self.gpu.upload(self._scratch, counter)
        params = _pack(("Q", a.ptr), ("Q", b.ptr), ("Q", n), ("Q", self._scratch.ptr))
        self.gpu.launch(self._fn[f"kopt_diff_{itemsize}"], (min(self._grid, max(1, -(-n // THREADS))), 1, 1),
                        (THREADS, 1, 1), 0, params.address)
        self.gpu.synchronize("input comparison")
        self.gpu.download(self._scratch, counter)
        return int(counter[0]), (int(counter[1]) if counter[0] else None)
