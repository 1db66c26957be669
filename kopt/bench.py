"""``bench``: correctness first, then baseline and candidate timed in one worker, interleaved, with statistics,
a comparison verdict and roofline figures."""
from __future__ import annotations

import secrets
import time
from dataclasses import dataclass, field

from . import roofline
from .candidate import Candidate
from .checker import check, prepare
from .diagnostic import Diagnostic
from .device import require_gpu
from .plan import resolve
from .rules import RULES
from .stats import compare, summarize
from .task import Task
from .verdict import Verdict
from .worker import WorkerClient, WorkerFailure


@dataclass
class Timed:
    """One entry (baseline or candidate) at one shape."""

    name: str
    summary: object | None  # stats.Summary
    method: str = ""
    method_note: str = ""
    stop_reason: str = ""
    discarded_clock: int = 0
    kernels: dict = field(default_factory=dict)
    undeclared: list = field(default_factory=list)
    figures: dict = field(default_factory=dict)
    samples_us: list = field(default_factory=list)
    valid: bool = True
    cold: bool = True  # False: L2 was not flushed between samples (kopt bench --warm)

    def to_dict(self) -> dict:
        return {"name": self.name, "summary": self.summary.to_dict() if self.summary else None, "cold": self.cold,
                "method": self.method, "method_note": self.method_note, "stop_reason": self.stop_reason,
                "discarded_clock": self.discarded_clock, "kernels": self.kernels, "undeclared": self.undeclared,
                "figures": self.figures, "valid": self.valid, "samples_us": self.samples_us}


@dataclass
class ShapeResult:
    shape: str
    candidate: Timed
    baseline: Timed | None = None
    comparison: object | None = None  # stats.Comparison

    def to_dict(self) -> dict:
        return {"shape": self.shape, "candidate": self.candidate.to_dict(),
                "baseline": self.baseline.to_dict() if self.baseline else None,
                "comparison": self.comparison.to_dict() if self.comparison else None}


@dataclass
class BenchResult:
    task: str
    candidate: Verdict
    baseline: Verdict | None = None
    shapes: list[ShapeResult] = field(default_factory=list)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    ceilings: dict = field(default_factory=dict)
    seconds: float = 0.0

    @property
    def ok(self) -> bool:
        return self.candidate.correct and bool(self.shapes) and not any(d.is_error for d in self.diagnostics)

    def to_dict(self) -> dict:
        return {"task": self.task, "ok": self.ok, "candidate": self.candidate.to_dict(),
                "baseline": self.baseline.to_dict() if self.baseline else None,
                "shapes": [s.to_dict() for s in self.shapes], "diagnostics": [d.to_dict() for d in self.diagnostics],
                "warnings": self.warnings, "ceilings": self.ceilings, "seconds": round(self.seconds, 3)}


def bench(task: Task, candidate, *, baseline=None, config: dict | None = None, baseline_config: dict | None = None,
          arch: str | None = None, shapes=None, worker: WorkerClient | None = None, options: dict | None = None,
          input_sets: int = 2, baseline_verdict: Verdict | None = None) -> BenchResult:
    """Check, then time ``candidate`` (and ``baseline``) on ``shapes`` (default: the task's timed shapes).
    ``baseline_verdict``: the baseline's correct Verdict from an earlier call (a tuning run), so it is not
    checked again; the candidate always is."""
    t0 = time.perf_counter()
    require_gpu("kopt bench")
    own = worker is None
    worker = worker or WorkerClient()
    try:
        entries = [("candidate", candidate, config)] + ([("baseline", baseline, baseline_config)] if baseline else [])
        # One set of fresh seeds for both checks and the timing: the worker then makes each large shape's inputs and
        # reference once (the candidate and the baseline are compared on the same random inputs).
        seeds = [secrets.randbits(31) for _ in range(max(task.trials, task.timed_trials, input_sets))]
        verdicts = {role: baseline_verdict if role == "baseline" and baseline_verdict and baseline_verdict.correct
                    else check(task, src, config=cfg, arch=arch, worker=worker, seeds=seeds)
                    for role, src, cfg in entries}
        result = BenchResult(task.name, verdicts["candidate"], verdicts.get("baseline"))
        for role, v in verdicts.items():
            if not v.correct:
                result.diagnostics.append(RULES["bench.not-correct"].diag(
                    f"the {role} is not correct ({v.status}): it is not timed"))
        if not result.diagnostics:
            time_entries(task, entries, result, shapes=shapes, arch=arch, worker=worker, options=options,
                         seeds=seeds[:input_sets])
    finally:
        if own:
            worker.close()
    result.seconds = time.perf_counter() - t0
    return result


def time_entries(task: Task, entries, result: BenchResult, *, shapes=None, arch=None, worker: WorkerClient,
                 options=None, input_sets: int = 2, seeds: list[int] | None = None) -> BenchResult:
    """Time ``entries`` ((role, source, config), candidate first) into ``result``. It does not check correctness:
    ``bench`` checks first; this is the timing half, also used to test the harness against cheating kernels."""
    info = require_gpu("timing")
    selected = list(shapes) if shapes is not None else task.timed_shapes
    payload = []
    for role, src, cfg in entries:
        cand, full_cfg, art = prepare(task, Candidate.load(src), cfg, arch)
        lowered = {n: k.lowered for n, k in art.kernels.items()}
        payload.append({"name": f"{role}:{cand.name}", "cubin": art.cubin,
                        "plans": [resolve(task, cand, s, full_cfg, lowered, art.arch) for s in selected]})
    result.ceilings = roofline.ceilings(worker, info.name, info.driver, art.arch)
    reply = worker.request({"op": "bench", "task": task, "shapes": selected, "entries": payload,
                            "seeds": seeds or [secrets.randbits(31) for _ in range(input_sets)],
                            "options": options or {}, "kernel_timeout": worker.kernel_timeout})
    if isinstance(reply, WorkerFailure):
        result.diagnostics.append(RULES[reply.rule].diag(f"timing failed: {reply.message}"))
    elif reply.get("event") == "error":
        result.diagnostics.append(RULES[reply["rule"]].diag(f"timing failed: {reply['message']}"))
    else:
        result.warnings = reply.get("warnings", [])
        for shape, s in zip(selected, reply["shapes"]):
            cold = (options or {}).get("flush_l2", True)
            timed = [_timed(task, shape, e, result, cold=cold) for e in s["entries"]]
            sr = ShapeResult(s["shape"], timed[0], timed[1] if len(timed) > 1 else None)
            if sr.baseline and sr.baseline.summary and sr.candidate.summary and sr.baseline.valid and sr.candidate.valid:
                sr.comparison = compare(sr.baseline.samples_us, sr.candidate.samples_us)
            result.shapes.append(sr)
    return result


def _timed(task: Task, shape, e: dict, result: BenchResult, cold: bool = True) -> Timed:
    samples = e["samples_us"]
    t = Timed(e.get("name", ""), summarize(samples, e["discarded_clock"]) if samples else None, e["method"],
              e["method_note"], e["stop_reason"], e["discarded_clock"], e["kernels"],
              sorted(set(e["kernels"]) - set(e["declared"])), samples_us=samples)
    for d in e.get("diagnostics", []):
        result.diagnostics.append(Diagnostic.from_dict(d))
        t.valid = False
    if e.get("samples_without_kernels"):
        result.warnings.append(f"{e['samples_without_kernels']} samples recorded no kernel activity")
    if t.undeclared:
        result.warnings.append(f"kernels not declared by the candidate ran in the timed region: {t.undeclared}")
    if t.summary is None:
        result.diagnostics.append(RULES["timing.no-samples"].diag(
            f"no usable samples at {shape.label} (all discarded: clock throttled?)"))
        t.valid = False
        return t
    t.cold = cold
    if not cold:
        t.method_note = "; ".join(filter(None, [t.method_note, "warm: L2 not flushed between samples"]))
    t.figures = roofline.figures(task.work_figures(shape), t.summary.median, result.ceilings)
    # Warm samples may legitimately beat the DRAM floor (inputs served from L2): the floor check needs cold samples.
    bad = roofline.implausible(t.figures, t.summary.median, t.name, shape.label) if cold else None
    if bad:
        result.diagnostics.append(bad)
        t.valid = False
    return t
