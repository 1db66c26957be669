"""Evaluations for tests that run without a GPU: the record kopt bench produces, with figures given by the test.
These stand in for a GPU measurement; the tests that use them say so."""
from __future__ import annotations

from kopt.measurement import Evaluation, Measurement, ShapeMeasurement
from kopt.stats import Comparison, summarize
from kopt.verdict import Verdict


def evaluation(task: str = "t", *, shapes: dict[str, tuple[float, float]] | None = None, time_us: float | None = None,
               speedup: float | None = None, status: str = "ok", arch: str = "sm_90",
               candidate: str = "candidate.cu", config: dict | None = None) -> Evaluation:
    """``shapes``: label -> (candidate median us, baseline median us); or one shape from ``time_us`` and
    ``speedup`` (the baseline then takes ``time_us * speedup``). ``status`` other than "ok": an incorrect verdict."""
    correct = status == "ok"
    verdict = Verdict(task, candidate, dict(config or {}), arch, compiled=status != "compile-failed",
                      ran=status in ("ok", "incorrect"), correct=correct, resources={"k": {"registers": 32}})
    ev = Evaluation(task, verdict, Verdict(task, "baseline.cu", {}, arch, True, True, True))
    if not correct:
        return ev
    if shapes is None:
        shapes = {"n=1": (time_us, time_us * (speedup or 1.0))} if time_us is not None else {}
    for label, (cand, base) in shapes.items():
        c = Measurement(f"candidate:{candidate}", summarize([cand] * 10), "cupti", samples_us=[cand] * 10)
        b = Measurement("baseline:baseline.cu", summarize([base] * 10), "cupti", samples_us=[base] * 10)
        s = base / cand
        ev.shapes.append(ShapeMeasurement(label, c, b, Comparison(s, s, s, "FASTER" if s > 1.01 else "SAME")))
    return ev
