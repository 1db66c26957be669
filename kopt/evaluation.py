"""``kopt.bench``: correctness first, then baseline and candidate timed in one worker, interleaved, with statistics,
a comparison verdict and roofline figures: an ``Evaluation``."""
from __future__ import annotations

import secrets
import time
from dataclasses import dataclass, field

from . import roofline
from .build import Build, build
from . import check_kernels, reference_kernels
from .checker import check
from .device import require_gpu
from .errors import CompileError
from .measurement import Evaluation, Measurement, ShapeMeasurement, check_aggregate
from .rules import RULES
from .stats import compare, summarize
from .task import Task
from .verdict import Verdict
from .client import WorkerClient
from .flush import cupti_library, flush_kernel
from .protocol import BenchEntry, BenchRequest, Failed


def bench(task: Task, candidate, *, baseline=None, config: dict | None = None, baseline_config: dict | None = None,
          arch: str | None = None, shapes=None, worker: WorkerClient | None = None, options: dict | None = None,
          input_sets: int = 2, baseline_verdict: Verdict | None = None, aggregate: str = "geomean") -> Evaluation:
    """Check, then time ``candidate`` (and ``baseline``) on ``shapes`` (default: the task's timed shapes). Each is
    compiled once: the check and the timing use the same Build. ``baseline_verdict``: the baseline's correct
    Verdict from an earlier call (a tuning run), so it is not checked again; the candidate always is.
    ``aggregate``: the policy that combines the per-shape speedups (``kopt.measurement.AGGREGATES``)."""
    t0 = time.perf_counter()
    check_aggregate(aggregate)
    require_gpu("kopt bench")
    own = worker is None
    worker = worker or WorkerClient().start()  # it sets up the GPU while this process compiles
    try:
        entries = [("candidate", candidate, config)] + ([("baseline", baseline, baseline_config)] if baseline else [])
        # One set of fresh seeds for both checks and the timing: the worker then makes each large shape's inputs and
        # reference once (the candidate and the baseline are compared on the same random inputs).
        seeds = [secrets.randbits(31) for _ in range(max(task.trials, task.timed_trials, input_sets))]
        builds, verdicts = {}, {}
        for role, src, cfg in entries:
            try:
                builds[role] = build(task, src, cfg, arch)
            except CompileError:
                builds[role] = None  # check() reports the compile error in the verdict
            known = baseline_verdict if role == "baseline" and baseline_verdict and baseline_verdict.correct else None
            verdicts[role] = known or check(task, builds[role] or src, config=cfg, arch=arch, worker=worker,
                                            seeds=seeds)
        result = Evaluation(task.name, verdicts["candidate"], verdicts.get("baseline"), aggregate=aggregate)
        for role, v in verdicts.items():
            if not v.correct:
                result.diagnostics.append(RULES["bench.not-correct"].diag(
                    f"the {role} is not correct ({v.status}): it is not timed"))
        if not result.diagnostics:
            time_entries(task, [(role, builds[role]) for role, _, _ in entries], result, shapes=shapes,
                         worker=worker, options=options, seeds=seeds[:input_sets])
    finally:
        if own:
            worker.close()
    result.seconds = time.perf_counter() - t0
    return result


def time_entries(task: Task, entries: list[tuple[str, Build]], result: Evaluation, *, shapes=None,
                 worker: WorkerClient, options=None, input_sets: int = 2,
                 seeds: list[int] | None = None) -> Evaluation:
    """Time ``entries`` ((role, Build), candidate first) into ``result``. It does not check correctness: ``bench``
    checks first; this is the timing half, also used to test the harness against cheating kernels."""
    timed = _time_together(task, [b for _, b in entries], [result], shapes=shapes, worker=worker, options=options,
                           input_sets=input_sets, seeds=seeds)
    for shape_label, per_entry in timed:
        sm = ShapeMeasurement(shape_label, per_entry[0], per_entry[1] if len(per_entry) > 1 else None)
        sm.comparison = _compare(sm.baseline, sm.candidate)
        sm.steady_comparison = _compare(sm.baseline, sm.candidate, steady=True)
        result.shapes.append(sm)
    return result


def _compare(reference: Measurement | None, other: Measurement | None, steady: bool = False):
    """The cold comparison (or the steady-state one) when both timings stand and have those samples."""
    if not (reference and other and reference.valid and other.valid):
        return None
    if steady:
        if reference.steady and other.steady:
            return compare(reference.steady_samples_us, other.steady_samples_us)
        return None
    if reference.summary and other.summary:
        return compare(reference.samples_us, other.samples_us)
    return None


def _time_together(task: Task, builds: list[Build], results: list[Evaluation], *, shapes, worker, options,
                   input_sets: int = 2, seeds=None) -> list[tuple[str, list[Measurement]]]:
    """Time ``builds`` in one request, interleaved sample by sample on the same input sets: per shape, a
    Measurement per build. Build ``i``'s timing problems go to ``results[i]`` (the last result takes those of the
    builds beyond); the ceilings and warnings go to all of them."""
    info = require_gpu("timing")
    selected = list(shapes) if shapes is not None else task.timed_shapes
    payload = [BenchEntry(f"{'candidate' if i == 0 else 'baseline' if len(builds) == 2 else f'entry{i}'}:"
                          f"{b.candidate.name}", b.artifact.cubin, [b.plan(s) for s in selected])
               for i, b in enumerate(builds)]
    arch = builds[0].artifact.arch
    ceilings = roofline.ceilings(worker, info.name, info.driver, arch)
    for r in results:
        r.ceilings = ceilings
    seeds = seeds or [secrets.randbits(31) for _ in range(input_sets)]
    helpers = check_kernels.for_request(arch)
    reply = worker.call(BenchRequest(task, selected, payload, seeds, dict(options or {}), flush_kernel(arch),
                                     cupti_library(), worker.kernel_timeout, helpers,
                                     reference_kernels.for_request(task, arch, selected, helpers)))
    if isinstance(reply, Failed):
        results[0].diagnostics.append(RULES[reply.rule].diag(f"timing failed: {reply.message}"))
        return []
    out = []
    for r in results:
        r.warnings = list(reply.payload.get("warnings", []))
    cold = (options or {}).get("flush_l2", True)
    for shape, s in zip(selected, reply.payload["shapes"]):
        out.append((s["shape"], [_measurement(task, shape, e, results[min(i, len(results) - 1)], cold=cold)
                                 for i, e in enumerate(s["entries"])]))
    return out


@dataclass
class Ranked:
    """One candidate of a several-candidate bench: its Evaluation (against the baseline) and, per shape, its
    comparison with the fastest candidate."""

    evaluation: Evaluation
    versus_best: list = field(default_factory=list)  # per shape: Comparison (best's median / this one's) or None
    versus_best_steady: list = field(default_factory=list)  # the same for the steady-state samples

    def to_dict(self) -> dict:
        return {"candidate": self.evaluation.candidate.candidate, "status": self.evaluation.status,
                "time_us": self.evaluation.time_us, "speedup_vs_baseline": self.evaluation.speedup,
                "versus_best": [c.to_dict() if c else None for c in self.versus_best],
                "versus_best_steady": [c.to_dict() if c else None for c in self.versus_best_steady],
                "evaluation": self.evaluation.to_dict()}


@dataclass
class Ranking:
    """Several candidates checked, then timed together with the baseline, fastest first (those not ok last)."""

    task: str
    ranked: list[Ranked]
    baseline: Verdict | None
    seconds: float = 0.0

    @property
    def ok(self) -> bool:
        return any(r.evaluation.ok for r in self.ranked)

    def to_dict(self) -> dict:
        return {"task": self.task, "ok": self.ok, "seconds": round(self.seconds, 3),
                "baseline": self.baseline.to_dict() if self.baseline else None,
                "ranking": [dict(rank=i + 1, **r.to_dict()) for i, r in enumerate(self.ranked)]}


def bench_many(task: Task, candidates: list, *, baseline=None, configs: list[dict | None] | None = None,
               arch: str | None = None, shapes=None, worker: WorkerClient | None = None, options: dict | None = None,
               input_sets: int = 2, aggregate: str = "geomean") -> Ranking:
    """Check each of ``candidates`` (and ``baseline``), then time the correct ones and the baseline in one request,
    interleaved on the same inputs: a Ranking, fastest first by the summed medians, with each candidate's verdict
    against the baseline and against the fastest."""
    t0 = time.perf_counter()
    check_aggregate(aggregate)
    require_gpu("kopt bench")
    configs = configs or [None] * len(candidates)
    own = worker is None
    worker = worker or WorkerClient().start()
    try:
        seeds = [secrets.randbits(31) for _ in range(max(task.trials, task.timed_trials, input_sets))]
        base_build, base_verdict = None, None
        if baseline is not None:
            base_build, base_verdict = _build_and_check(task, baseline, None, arch, worker, seeds)
        evals, builds = [], []
        for src, cfg in zip(candidates, configs):
            b, v = _build_and_check(task, src, cfg, arch, worker, seeds)
            e = Evaluation(task.name, v, base_verdict, aggregate=aggregate)
            if not v.correct:
                e.diagnostics.append(RULES["bench.not-correct"].diag(f"the candidate is not correct ({v.status}): "
                                                                     "it is not timed"))
            evals.append(e)
            builds.append(b if v.correct else None)
        timed_evals = [e for e, b in zip(evals, builds) if b is not None]
        timed_builds = [b for b in builds if b is not None]
        if base_verdict is not None and not base_verdict.correct:
            for e in timed_evals:
                e.diagnostics.append(RULES["bench.not-correct"].diag(
                    f"the baseline is not correct ({base_verdict.status}): nothing is timed"))
            timed_builds = []
        if timed_builds:
            with_base = timed_builds + ([base_build] if base_build is not None else [])
            sink = timed_evals + ([Evaluation(task.name, base_verdict, aggregate=aggregate)] if base_build else [])
            per_shape = _time_together(task, with_base, sink, shapes=shapes, worker=worker, options=options,
                                       input_sets=input_sets, seeds=seeds[:input_sets])
            if base_build is not None:
                for e in timed_evals:
                    e.diagnostics += sink[-1].diagnostics
            for label, ms in per_shape:
                base_m = ms[len(timed_builds)] if base_build is not None else None
                for e, m in zip(timed_evals, ms):
                    sm = ShapeMeasurement(label, m, base_m)
                    sm.comparison = _compare(base_m, m)
                    sm.steady_comparison = _compare(base_m, m, steady=True)
                    e.shapes.append(sm)
    finally:
        if own:
            worker.close()
    order = sorted(range(len(evals)), key=lambda i: (not evals[i].ok, evals[i].time_us or float("inf"), i))
    ranked = [Ranked(evals[i]) for i in order]
    best = ranked[0].evaluation if ranked and ranked[0].evaluation.ok else None
    for r in ranked:
        if best is not None and r.evaluation.ok:
            pairs = list(zip(best.shapes, r.evaluation.shapes))
            r.versus_best = [_compare(b.candidate, s.candidate) for b, s in pairs]
            r.versus_best_steady = [_compare(b.candidate, s.candidate, steady=True) for b, s in pairs]
    seconds = time.perf_counter() - t0
    for e in evals:
        e.seconds = seconds
    return Ranking(task.name, ranked, base_verdict, seconds)


def _build_and_check(task: Task, src, config, arch, worker, seeds) -> tuple[Build | None, Verdict]:
    try:
        b = build(task, src, config, arch)
    except CompileError:
        b = None  # check() reports the compile error in the verdict
    return b, check(task, b or src, config=config, arch=arch, worker=worker, seeds=seeds)


def _measurement(task: Task, shape, e: dict, result: Evaluation, cold: bool = True) -> Measurement:
    from .diagnostic import Diagnostic

    samples = e["samples_us"]
    t = Measurement(e.get("name", ""), summarize(samples, e["discarded_clock"]) if samples else None, e["method"],
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
    _steady(t, e)
    t.figures = roofline.figures(task.work_figures(shape), t.summary.median, result.ceilings, steady_us=t.steady_us,
                                 compute=task.compute)
    # Warm samples may legitimately beat the DRAM floor (inputs served from L2): the floor check needs cold samples.
    bad = roofline.implausible(t.figures, t.summary.median, t.name, shape.label) if cold else None
    if bad:
        result.diagnostics.append(bad)
        t.valid = False
    return t


def _steady(t: Measurement, e: dict) -> None:
    """The steady-state samples of a worker entry into ``t``, with how they were taken or why there are none."""
    samples = e.get("steady_samples_us") or []
    if samples:
        t.steady = summarize(samples, e.get("steady_discarded_clock", 0))
        t.steady_samples_us = samples
        t.steady_note = (f"{e.get('steady_sets')} rotating sets of {e.get('steady_set_bytes', 0) / 2**20:.1f} MiB; "
                         f"batches of {e.get('steady_warmup')} untimed then {e.get('steady_batch')} timed "
                         f"back-to-back launches; {e.get('steady_stop_reason')}")
    else:
        t.steady_note = e.get("steady_note") or "not measured"
