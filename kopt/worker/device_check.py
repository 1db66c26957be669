"""The worker's side of the check kernels (``kopt.check_kernels``, compiled by the parent): draw inputs, compare
outputs with the reference and inputs with their copies on the device; only figures come back to the host."""
from __future__ import annotations

import math
import struct
from dataclasses import dataclass

from ..dtypes import DType
from ..params import PackedParams

# struct Partial of kopt.check_kernels.SOURCE, field for field: err_sq, ref_sq, max_abs, max_rel, worst_score,
# worst_value, worst_expected (doubles), mismatches, unwritten, nan_mismatch, worst (64-bit unsigned)
PARTIAL = struct.Struct("<7d4Q")
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


def _max(values) -> float:
    """The largest value, NaN if any is NaN (as numpy's max)."""
    return math.nan if any(math.isnan(v) for v in values) else max(values)


def _worst(parts: list[tuple]):
    """The block holding the worst element: the first of equally bad blocks (as on the host; a NaN score is taken as
    the largest, as numpy's argmax takes it), None when that score is not >= 0 (-1: no block saw an element)."""
    scores = [p[4] for p in parts]
    first = next((i for i, s in enumerate(scores) if math.isnan(s)), None)
    if first is None:
        first = scores.index(max(scores))
    return parts[first] if scores[first] >= 0 else None


class DeviceChecks:
    """The check kernels, loaded in the worker's GPU session."""

    def __init__(self, gpu, helpers):
        self.gpu, self.helpers = gpu, helpers
        module = gpu.load(helpers.cubin)
        self._fn = {n: gpu.function(module, lowered) for n, lowered in helpers.lowered.items()}
        self._grid = gpu.attribute("MULTIPROCESSOR_COUNT") * 8
        self._scratch = gpu.alloc(4096 * PARTIAL.size)

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
        self.gpu.synchronize("comparison")
        parts = list(PARTIAL.iter_unpack(self.gpu.download_bytes(self._scratch, blocks * PARTIAL.size)))
        (err_sq, ref_sq, max_abs, max_rel, _, _, _, mismatches, unwritten, nan_mismatch,
         _) = zip(*parts)  # one tuple per field
        w = _worst(parts)
        return Totals(math.fsum(err_sq), math.fsum(ref_sq), _max(max_abs), _max(max_rel), sum(mismatches),
                      sum(unwritten), sum(nan_mismatch), w[10] if w is not None else 0,
                      w[5] if w is not None else None, w[6] if w is not None else None)

    def differences(self, a, b, itemsize: int, n: int) -> tuple[int, int | None]:
        """(elements whose bits differ, the first such flat index) between two device buffers."""
        self.gpu.upload_bytes(self._scratch, struct.pack("<2Q", 0, 2 ** 64 - 1))
        params = _pack(("Q", a.ptr), ("Q", b.ptr), ("Q", n), ("Q", self._scratch.ptr))
        self.gpu.launch(self._fn[f"kopt_diff_{itemsize}"], (min(self._grid, max(1, -(-n // THREADS))), 1, 1),
                        (THREADS, 1, 1), 0, params.address)
        self.gpu.synchronize("input comparison")
        count, first = struct.unpack("<2Q", self.gpu.download_bytes(self._scratch, 16))
        return count, (first if count else None)
