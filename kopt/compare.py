"""Compare a kernel's outputs with the reference: error figures, unwritten regions, mutated inputs."""
from __future__ import annotations

from dataclasses import asdict, dataclass

import numpy as np

from .diagnostic import Diagnostic, Location, Severity
from .dtypes import DType


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


def compare_output(name: str, raw: np.ndarray, dt: DType, expected: np.ndarray, tol: dict) -> OutputReport:
    """``raw`` is the kernel's output in storage form; ``expected`` the reference (any numeric dtype)."""
    expected = np.asarray(expected)
    if expected.shape != raw.shape:
        if expected.size == raw.size:
            expected = expected.reshape(raw.shape)
        else:
            raise ValueError(f"reference output {name} has shape {expected.shape}, expected {raw.shape}")
    unwritten = unwritten_mask(raw, dt)
    if not dt.is_float:  # an integer reference may legitimately equal the pattern
        unwritten &= ~unwritten_mask(dt.from_float64(expected.astype(np.float64)), dt)
    got = dt.to_float64(raw)
    exp = expected.astype(np.float64)
    with np.errstate(invalid="ignore", over="ignore"):
        diff = np.abs(got - exp)
    got_nan, exp_nan = np.isnan(got), np.isnan(exp)
    same_nan = got_nan & exp_nan
    inf_same = np.isinf(got) & np.isinf(exp) & (np.sign(got) == np.sign(exp))
    diff = np.where(same_nan | inf_same, 0.0, diff)
    nan_mismatch = int(np.count_nonzero(got_nan ^ exp_nan) + np.count_nonzero(np.isinf(got) ^ np.isinf(exp)))
    allowed = tol["atol"] + tol["rtol"] * np.abs(np.where(np.isfinite(exp), exp, 0.0))
    bad = ~(diff <= allowed)  # NaN diffs count as bad
    bad &= ~(same_nan | inf_same)
    mism = int(np.count_nonzero(bad | unwritten))
    finite = np.isfinite(diff)
    ref_norm = float(np.linalg.norm(np.where(np.isfinite(exp), exp, 0.0)))
    err_norm = float(np.linalg.norm(np.where(finite, diff, 0.0)))
    rel_l2 = err_norm / ref_norm if ref_norm > 0 else err_norm
    if nan_mismatch or unwritten.any():
        rel_l2 = float("inf")
    max_abs = float(np.max(np.where(finite, diff, np.inf))) if diff.size else 0.0
    with np.errstate(divide="ignore", invalid="ignore"):
        rel = np.where(np.abs(exp) > 0, diff / np.abs(exp), np.where(diff > 0, np.inf, 0.0))
    max_rel = float(np.max(rel)) if rel.size else 0.0
    score = np.where(bad | unwritten, np.where(np.isfinite(diff), diff, np.inf) + 1.0, diff) if diff.size else diff
    worst = np.unravel_index(int(np.argmax(score)), raw.shape) if diff.size else None
    ok = mism == 0 and nan_mismatch == 0 and rel_l2 <= tol["l2"]
    return OutputReport(
        arg=name, shape=tuple(raw.shape), elements=int(raw.size), rel_l2=rel_l2, max_abs=max_abs, max_rel=max_rel,
        mismatches=mism, unwritten=int(np.count_nonzero(unwritten)), nan_mismatch=nan_mismatch,
        worst_index=tuple(int(i) for i in worst) if worst is not None else None,
        worst_value=float(got[worst]) if worst is not None else None,
        worst_expected=float(exp[worst]) if worst is not None else None,
        unwritten_region=_region(unwritten), tolerance=dict(tol), ok=ok,
    )


def diagnose(report: OutputReport, shape_label: str, candidate: str) -> list[Diagnostic]:
    """Diagnostics for one failing output at one shape."""
    if report.ok:
        return []
    loc = [Location(candidate, 1, role="candidate")]
    out = []
    if report.unwritten:
        r = report.unwritten_region
        out.append(Diagnostic(
            "check.unwritten-output", Severity.ERROR,
            f"{report.arg}: {report.unwritten} of {report.elements} elements were never written at {shape_label} "
            f"(indices {r['first']} .. {r['last']})", loc,
            witness={"shape": shape_label, "first_unwritten": r["first"], "last_unwritten": r["last"]},
            hint="check the grid covers the whole output and that boundary threads are not skipped"))
    if report.mismatches > report.unwritten or report.nan_mismatch or report.rel_l2 > report.tolerance["l2"]:
        out.append(Diagnostic(
            "check.mismatch", Severity.ERROR,
            f"{report.arg} differs from the reference at {shape_label}: rel L2 {report.rel_l2:.3g} "
            f"(tol {report.tolerance['l2']:g}), max abs {report.max_abs:.3g}, max rel {report.max_rel:.3g}, "
            f"{report.mismatch_fraction:.2%} of elements out of tolerance; worst at {report.worst_index}: "
            f"got {report.worst_value!r}, expected {report.worst_expected!r}", loc,
            witness={"shape": shape_label, "index": report.worst_index, "got": report.worst_value,
                     "expected": report.worst_expected}))
    return out


def mutated_inputs(before: np.ndarray, after: np.ndarray) -> tuple[int, tuple | None]:
    """(number of changed elements, first changed index) comparing bit patterns."""
    b = before.view(np.uint8).reshape(before.shape + (-1,)) if before.ndim else before.view(np.uint8)
    a = after.view(np.uint8).reshape(after.shape + (-1,)) if after.ndim else after.view(np.uint8)
    changed = np.any(b != a, axis=-1)
    n = int(np.count_nonzero(changed))
    first = tuple(int(i) for i in np.argwhere(changed)[0]) if n else None
    return n, first
