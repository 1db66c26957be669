"""What kopt measured about a candidate, in one shape for everyone who writes or reads it.

- ``Measurement``: one timed entry (the candidate or its baseline) at one shape: the samples' summary, how they were
  taken (method, stop reason, clock discards, cold or warm), which kernels ran, roofline figures, and whether the
  timing stands.
- ``ShapeMeasurement``: the candidate and its baseline at one shape, and their comparison.
- ``Evaluation``: the candidate's Verdict (and the baseline's), every shape, and one aggregate over the shapes'
  speedups computed by a named policy (``AGGREGATES``), chosen once per run.

``kopt bench``, the tuner, the agent workflows, the run store, ``kopt runs`` and ``kopt kb add`` all write and read
this shape; ``to_dict``/``from_dict`` round-trip it.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field, fields

from .diagnostic import Diagnostic
from .stats import Comparison, Summary
from .verdict import Verdict

FORMAT = 2  # of the dict form; the run store's v1 records are migrated to it


def _geomean(xs: list[float]) -> float:
    return math.prod(xs) ** (1 / len(xs))


# name -> (what it means, the function over per-shape speedups)
AGGREGATES = {
    "geomean": ("geometric mean of the per-shape speedups over the baseline", _geomean),
    "worst": ("the smallest per-shape speedup: no shape may hide a regression", min),
}


def check_aggregate(name: str) -> str:
    if name not in AGGREGATES:
        from .errors import InputError

        raise InputError(f"unknown aggregate {name!r}: expected one of {', '.join(AGGREGATES)}")
    return name


@dataclass
class Measurement:
    """One entry (baseline or candidate) timed at one shape."""

    name: str
    summary: Summary | None
    method: str = ""
    method_note: str = ""
    stop_reason: str = ""
    discarded_clock: int = 0
    kernels: dict = field(default_factory=dict)  # every kernel seen in the samples -> count
    undeclared: list = field(default_factory=list)  # kernels that ran but no launch declared
    figures: dict = field(default_factory=dict)  # roofline: gbps, tflops, floors, pct_of_roofline
    valid: bool = True  # False: the timing is void (outputs changed, implausible, no samples)
    cold: bool = True  # False: L2 was not flushed between samples (kopt bench --warm)
    samples_us: list = field(default_factory=list)
    # Steady state: per-launch spans from batches of back-to-back launches over rotating buffer sets (more than twice
    # the L2 in all), so the write-back of the output a launch leaves dirty in L2 falls inside a later launch's span.
    steady: Summary | None = None
    steady_samples_us: list = field(default_factory=list)
    steady_note: str = ""  # why there is no steady figure, or how it was taken

    @property
    def median(self) -> float | None:
        return self.summary.median if self.summary else None

    @property
    def steady_us(self) -> float | None:
        return self.steady.median if self.steady else None

    def to_dict(self, samples: bool = True) -> dict:
        d = {"name": self.name, "summary": self.summary.to_dict() if self.summary else None, "cold": self.cold,
             "method": self.method, "method_note": self.method_note, "stop_reason": self.stop_reason,
             "discarded_clock": self.discarded_clock, "kernels": self.kernels, "undeclared": self.undeclared,
             "figures": self.figures, "valid": self.valid, "steady_us": self.steady_us,
             "steady": self.steady.to_dict() if self.steady else None, "steady_note": self.steady_note}
        if samples:
            d["samples_us"] = self.samples_us
            d["steady_samples_us"] = self.steady_samples_us
        return d

    @classmethod
    def from_dict(cls, d: dict) -> "Measurement":
        known = {f.name for f in fields(cls)}
        summary, steady = d.get("summary"), d.get("steady")
        return cls(**{**{k: v for k, v in d.items() if k in known},
                      "summary": Summary(**summary) if summary else None,
                      "steady": Summary(**steady) if steady else None})


@dataclass
class ShapeMeasurement:
    shape: str
    candidate: Measurement
    baseline: Measurement | None = None
    comparison: Comparison | None = None  # of the cold samples: the speedup every aggregate uses
    steady_comparison: Comparison | None = None  # of the steady-state samples, when both entries have them

    @property
    def speedup(self) -> float | None:
        return self.comparison.speedup if self.comparison else None

    def verdict_text(self) -> str:
        """Both comparisons in words, e.g. ``cold FASTER x1.21 [1.19, 1.23]; steady SAME x1.00 [0.99, 1.01]``."""
        parts = []
        for what, c in (("cold", self.comparison), ("steady", self.steady_comparison)):
            if c is not None:
                parts.append(f"{what} {c.verdict} x{c.speedup:.2f} [{c.ci_low:.2f}, {c.ci_high:.2f}]")
        if self.comparison is not None and self.steady_comparison is None:
            lacking = [m for m in (self.candidate, self.baseline) if m is not None and m.steady is None]
            why = lacking[0].steady_note if lacking else "a timing was voided"
            parts.append(f"steady: none ({why or 'not measured'})")
        return "; ".join(parts)

    def to_dict(self, samples: bool = True) -> dict:
        return {"shape": self.shape, "candidate": self.candidate.to_dict(samples),
                "baseline": self.baseline.to_dict(samples) if self.baseline else None,
                "comparison": self.comparison.to_dict() if self.comparison else None,
                "steady_comparison": self.steady_comparison.to_dict() if self.steady_comparison else None}

    @classmethod
    def from_dict(cls, d: dict) -> "ShapeMeasurement":
        return cls(d["shape"], Measurement.from_dict(d["candidate"]),
                   Measurement.from_dict(d["baseline"]) if d.get("baseline") else None,
                   Comparison(**d["comparison"]) if d.get("comparison") else None,
                   Comparison(**d["steady_comparison"]) if d.get("steady_comparison") else None)


@dataclass
class Evaluation:
    """A checked, then timed, candidate: its verdict, the per-shape measurements and their aggregate."""

    task: str
    candidate: Verdict
    baseline: Verdict | None = None
    shapes: list[ShapeMeasurement] = field(default_factory=list)
    diagnostics: list[Diagnostic] = field(default_factory=list)  # timing problems (the verdicts hold their own)
    warnings: list[str] = field(default_factory=list)
    ceilings: dict = field(default_factory=dict)  # the device ceilings the figures were computed against
    seconds: float = 0.0
    aggregate: str = "geomean"  # the policy that turns per-shape speedups into one (AGGREGATES)
    # the GPU it ran on when an evaluator pool placed it (kopt.pool): name, uuid, pci_bus_id, arch, clocks in MHz
    gpu: dict = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        """Correct, timed at every requested shape, and no timing was voided."""
        return self.candidate.correct and bool(self.shapes) and not any(d.is_error for d in self.diagnostics)

    @property
    def status(self) -> str:
        """``ok``, the verdict's failure (``incorrect``, ``compile-failed``, ``run-failed``) or ``timing-failed``."""
        if self.ok:
            return "ok"
        return self.candidate.status if not self.candidate.correct else "timing-failed"

    @property
    def speedups(self) -> list[float]:
        return [s.speedup for s in self.shapes if s.speedup is not None]

    @property
    def speedup(self) -> float | None:
        """The run's aggregate of the per-shape speedups over the baseline (None unless ok and compared)."""
        return AGGREGATES[self.aggregate][1](self.speedups) if self.ok and self.speedups else None

    @property
    def time_us(self) -> float | None:
        """The candidate's medians summed over the timed shapes (None unless ok)."""
        medians = [s.candidate.median for s in self.shapes]
        return sum(medians) if self.ok and None not in medians else None

    @property
    def baseline_us(self) -> float | None:
        medians = [s.baseline.median if s.baseline else None for s in self.shapes]
        return sum(medians) if medians and None not in medians else None

    def to_dict(self, samples: bool = True) -> dict:
        return {"format": FORMAT, "task": self.task, "ok": self.ok, "status": self.status,
                "aggregate": self.aggregate, "speedup": self.speedup, "time_us": self.time_us,
                "baseline_us": self.baseline_us, "candidate": self.candidate.to_dict(),
                "baseline": self.baseline.to_dict() if self.baseline else None,
                "shapes": [s.to_dict(samples) for s in self.shapes],
                "diagnostics": [d.to_dict() for d in self.diagnostics], "warnings": self.warnings,
                "ceilings": self.ceilings, "seconds": round(self.seconds, 3), **({"gpu": self.gpu} if self.gpu else {})}

    @classmethod
    def from_dict(cls, d: dict) -> "Evaluation":
        return cls(task=d["task"], candidate=Verdict.from_dict(d["candidate"]),
                   baseline=Verdict.from_dict(d["baseline"]) if d.get("baseline") else None,
                   shapes=[ShapeMeasurement.from_dict(s) for s in d.get("shapes", [])],
                   diagnostics=[Diagnostic.from_dict(x) for x in d.get("diagnostics", [])],
                   warnings=list(d.get("warnings", [])), ceilings=dict(d.get("ceilings", {})),
                   seconds=d.get("seconds", 0.0), aggregate=d.get("aggregate", "geomean"), gpu=dict(d.get("gpu", {})))

    def brief(self, limit: int = 20) -> dict:
        """The view an agent reads (the evaluate tool's result): per-shape medians, speedups and verdicts."""
        shapes = []
        for s in self.shapes:
            c, b, cmp = s.candidate, s.baseline, s.comparison
            st = s.steady_comparison
            shapes.append({"shape": s.shape, "candidate_us": c.median, "baseline_us": b.median if b else None,
                           "candidate_steady_us": c.steady_us, "baseline_steady_us": b.steady_us if b else None,
                           "speedup": cmp.speedup if cmp else None,
                           "speedup_ci": [cmp.ci_low, cmp.ci_high] if cmp else None,
                           "verdict": cmp.verdict if cmp else None,
                           "steady_speedup": st.speedup if st else None, "steady_verdict": st.verdict if st else None,
                           "pct_of_roofline": c.figures.get("pct_of_roofline"),
                           "pct_of_tensor_peak": c.figures.get("pct_of_tensor_peak"), "method": c.method})
        return {"correct": self.candidate.correct, "status": self.status, "speedup": self.speedup,
                "aggregate": self.aggregate, "shapes": shapes,
                "diagnostics": [d.to_dict() for d in (self.candidate.diagnostics + self.diagnostics)[:limit]],
                "warnings": self.warnings[:5]}
