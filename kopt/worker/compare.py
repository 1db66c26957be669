"""Compare a kernel's outputs with the reference: error figures, unwritten regions, mutated inputs."""
from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass

import numpy as np

from ..diagnostic import Diagnostic, Location
from ..dtypes import DType
from ..inputs import WORKERS
from ..rules import RULES


@dataclass
class OutputReport:
    arg: str
    shape: tuple
    elements: int
    rel_l2: float
    max_abs: float
    max_rel: float
    mismatches: int
    unwritten: int
    nan_mismatch: int
    worst_index: tuple | None
    worst_value: float | None
    worst_expected: float | None
    unwritten_region: dict | None  # bounding box of never-written elements
    tolerance: dict
    ok: bool
    l2_ok: bool = True  # the L2 criterion alone

    @property
    def mismatch_fraction(self) -> float:
        return self.mismatches / max(self.elements, 1)

    def to_dict(self) -> dict:
        d = asdict(self)
        d["mismatch_fraction"] = self.mismatch_fraction
        return d


def unwritten_mask(raw: np.ndarray, dt: DType) -> np.ndarray:
    """Elements still holding the poison bit pattern."""
    bits = raw.view(np.dtype(f"u{dt.itemsize}"))
    return bits == np.array(dt.poison, dtype=bits.dtype)


def _region(mask: np.ndarray) -> dict | None:
    idx = np.nonzero(mask)
    if idx[0].size == 0:
        return None
    lo = tuple(int(i.min()) for i in idx)
    hi = tuple(int(i.max()) for i in idx)
    return {"first": lo, "last": hi, "count": int(idx[0].size)}


L2_MIN_ELEMENTS = 32  # below this, the L2 bound also allows atol per element
CHUNK = 1 << 21  # elements compared at a time per thread: bounded temporaries, cache-sized passes


def compare_output(name: str, raw: np.ndarray, dt: DType, expected: np.ndarray, tol: dict) -> OutputReport:
    """``raw`` is the kernel's output in storage form; ``expected`` the reference (any numeric dtype)."""
    expected = np.asarray(expected)
    if expected.shape != raw.shape:
        if expected.size == raw.size:
            expected = expected.reshape(raw.shape)
        else:
            raise ValueError(f"reference output {name} has shape {expected.shape}, expected {raw.shape}")
    flat_raw, flat_exp = raw.reshape(-1), expected.reshape(-1)

    def chunk(lo: int) -> _Totals:
        part = _Totals()
        part.add(lo, flat_raw[lo:lo + CHUNK], flat_exp[lo:lo + CHUNK], dt, tol)
        return part

    starts = range(0, flat_raw.size, CHUNK)
    if len(starts) <= 1:
        parts = [chunk(lo) for lo in starts]
    else:  # numpy releases the GIL in these passes: a 2 GiB output compares in seconds on a multi-core host
        with ThreadPoolExecutor(max_workers=min(len(starts), WORKERS)) as pool:
            parts = list(pool.map(chunk, starts))
    acc = _Totals()
    for part in parts:  # in order, so the first of equally bad elements is the one reported
        acc.merge(part)
    region = box(raw, dt, expected) if acc.unwritten else None  # failure path only: a second pass is fine
    return report(name, tuple(raw.shape), dt, acc, tol, region)


def report(name: str, shape: tuple, dt: DType, acc, tol: dict, region: dict | None) -> OutputReport:
    """The OutputReport from merged figures (host ``_Totals`` or the device's ``Totals``: the same fields)."""
    size = int(np.prod(shape))
    rel_l2 = float(np.sqrt(acc.err_sq)) / float(np.sqrt(acc.ref_sq)) if acc.ref_sq > 0 else float(np.sqrt(acc.err_sq))
    if acc.nan_mismatch or acc.unwritten:
        rel_l2 = float("inf")
    worst = np.unravel_index(acc.worst, shape) if size else None
    # Where the reference is all but zero (its RMS below atol: values near 0), or the output too small for an
    # aggregate to mean more than its elements do (one element in a function's tail, say), a relative L2 would reject
    # errors far below atol; there the L2 bound also allows atol per element. Elsewhere it is purely relative.
    atol = tol.get("atol", 0.0)
    floor = atol * np.sqrt(size) if acc.ref_sq < size * atol ** 2 or size < L2_MIN_ELEMENTS else 0.0
    l2_ok = rel_l2 != float("inf") and np.sqrt(acc.err_sq) <= tol["l2"] * np.sqrt(acc.ref_sq) + floor
    ok = acc.mismatches == 0 and acc.nan_mismatch == 0 and bool(l2_ok)
    return OutputReport(
        arg=name, shape=shape, elements=size, rel_l2=rel_l2, max_abs=acc.max_abs,
        max_rel=acc.max_rel, mismatches=acc.mismatches, unwritten=acc.unwritten, nan_mismatch=acc.nan_mismatch,
        worst_index=tuple(int(i) for i in worst) if worst is not None else None,
        worst_value=acc.worst_value if worst is not None else None,
        worst_expected=acc.worst_expected if worst is not None else None,
        unwritten_region=region, tolerance=dict(tol), ok=ok, l2_ok=bool(l2_ok),
    )


def _unwritten(raw: np.ndarray, dt: DType, expected: np.ndarray) -> np.ndarray:
    mask = unwritten_mask(raw, dt)
    if not dt.is_float:  # an integer reference may legitimately equal the pattern
        mask &= ~unwritten_mask(dt.from_float64(expected.astype(np.float64)), dt)
    return mask


def box(raw: np.ndarray, dt: DType, expected: np.ndarray) -> dict | None:
    """Bounding box of the never-written elements."""
    return _region(_unwritten(raw, dt, expected))


class _Totals:
    """Running figures over chunks of a flattened output."""

    def __init__(self):
        self.err_sq = self.ref_sq = 0.0
        self.max_abs = self.max_rel = 0.0
        self.mismatches = self.unwritten = self.nan_mismatch = 0
        self.worst, self.worst_score = 0, -1.0
        self.worst_value = self.worst_expected = None

    def merge(self, o: "_Totals") -> None:
        self.err_sq += o.err_sq
        self.ref_sq += o.ref_sq
        self.max_abs, self.max_rel = max(self.max_abs, o.max_abs), max(self.max_rel, o.max_rel)
        self.mismatches += o.mismatches
        self.unwritten += o.unwritten
        self.nan_mismatch += o.nan_mismatch
        if o.worst_score > self.worst_score:
            self.worst, self.worst_score = o.worst, o.worst_score
            self.worst_value, self.worst_expected = o.worst_value, o.worst_expected

    def add(self, offset: int, raw: np.ndarray, expected: np.ndarray, dt: DType, tol: dict) -> None:
        unwritten = _unwritten(raw, dt, expected)
        got = dt.to_float64(raw)
        exp = expected.astype(np.float64, copy=False)
        with np.errstate(invalid="ignore", over="ignore", divide="ignore"):
            diff = np.abs(got - exp)
            if np.isfinite(diff).all():  # the common case: no NaN or Inf anywhere in this chunk
                special = None
                exp_abs = np.abs(exp)
            else:
                got_nan, exp_nan = np.isnan(got), np.isnan(exp)
                special = (got_nan & exp_nan) | (np.isinf(got) & np.isinf(exp) & (np.sign(got) == np.sign(exp)))
                diff[special] = 0.0
                self.nan_mismatch += int(np.count_nonzero(got_nan ^ exp_nan) +
                                         np.count_nonzero(np.isinf(got) ^ np.isinf(exp)))
                exp_abs = np.abs(np.where(np.isfinite(exp), exp, 0.0))
            bad = ~(diff <= tol["atol"] + tol["rtol"] * exp_abs)
            if special is not None:
                bad &= ~special
            wrong = bad | unwritten
            self.mismatches += int(np.count_nonzero(wrong))
            finite = np.isfinite(diff)
            fdiff = diff if special is None else np.where(finite, diff, 0.0)
            self.err_sq += float(np.dot(fdiff, fdiff))
            fexp = exp if special is None else np.where(np.isfinite(exp), exp, 0.0)
            self.ref_sq += float(np.dot(fexp, fexp))
            if diff.size:
                self.max_abs = max(self.max_abs, float(diff.max()) if special is None else
                                   float(np.max(np.where(finite, diff, np.inf))))
                d = diff if special is None else np.where(finite, diff, np.inf)  # NaN/Inf errors: infinitely bad
                rel = np.where(exp_abs > 0, d / np.where(exp_abs > 0, exp_abs, 1.0), np.where(d > 0, np.inf, 0.0))
                self.max_rel = max(self.max_rel, float(rel.max()))
                score = np.where(wrong, np.where(finite, diff, np.inf) + 1.0, diff)
                i = int(np.argmax(score))
                if float(score[i]) > self.worst_score:
                    self.worst, self.worst_score = offset + i, float(score[i])
                    self.worst_value, self.worst_expected = float(got[i]), float(exp[i])
        self.unwritten += int(np.count_nonzero(unwritten))


def diagnose(report: OutputReport, shape_label: str, candidate: str) -> list[Diagnostic]:
    """Diagnostics for one failing output at one shape."""
    if report.ok:
        return []
    loc = [Location(candidate, 1, role="candidate")]
    out = []
    if report.unwritten:
        r = report.unwritten_region
        out.append(RULES["check.unwritten-output"].diag(
            f"{report.arg}: {report.unwritten} of {report.elements} elements were never written at {shape_label} "
            f"(indices {r['first']} .. {r['last']})", *loc,
            witness={"shape": shape_label, "first_unwritten": r["first"], "last_unwritten": r["last"]}))
    if report.mismatches > report.unwritten or report.nan_mismatch or not report.l2_ok:
        out.append(RULES["check.mismatch"].diag(
            f"{report.arg} differs from the reference at {shape_label}: rel L2 {report.rel_l2:.3g} "
            f"(tol {report.tolerance['l2']:g}), max abs {report.max_abs:.3g}, max rel {report.max_rel:.3g}, "
            f"{report.mismatch_fraction:.2%} of elements out of tolerance; worst at {report.worst_index}: "
            f"got {report.worst_value!r}, expected {report.worst_expected!r}", *loc,
            witness={"shape": shape_label, "index": report.worst_index, "got": report.worst_value,
                     "expected": report.worst_expected}))
    return out


def mutated_inputs(before: np.ndarray, after: np.ndarray) -> tuple[int, tuple | None]:
    """(number of changed elements, first changed index) comparing bit patterns."""
    bits = np.dtype(f"u{before.dtype.itemsize}")
    if np.array_equal(before.view(bits), after.view(bits)):  # the usual answer, in one pass
        return 0, None
    b = before.view(np.uint8).reshape(before.shape + (-1,)) if before.ndim else before.view(np.uint8)
    a = after.view(np.uint8).reshape(after.shape + (-1,)) if after.ndim else after.view(np.uint8)
    changed = np.any(b != a, axis=-1)
    n = int(np.count_nonzero(changed))
    first = tuple(int(i) for i in np.argwhere(changed)[0]) if n else None
    return n, first
