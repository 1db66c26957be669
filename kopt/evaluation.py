"""``kopt.bench``: correctness first, then baseline and candidate timed in one worker, interleaved, with statistics,
a comparison verdict and roofline figures: an ``Evaluation``."""
from __future__ import annotations

import secrets
import time

from . import roofline
from .build import Build, build
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
    info = require_gpu("timing")
    selected = list(shapes) if shapes is not None else task.timed_shapes
    payload = [BenchEntry(f"{role}:{b.candidate.name}", b.artifact.cubin, [b.plan(s) for s in selected])
               for role, b in entries]
    arch = entries[0][1].artifact.arch
    result.ceilings = roofline.ceilings(worker, info.name, info.driver, arch)
    seeds = seeds or [secrets.randbits(31) for _ in range(input_sets)]
    reply = worker.call(BenchRequest(task, selected, payload, seeds, dict(options or {}), flush_kernel(arch),
                                     cupti_library(), worker.kernel_timeout))
    if isinstance(reply, Failed):
        result.diagnostics.append(RULES[reply.rule].diag(f"timing failed: {reply.message}"))
    else:
        result.warnings = reply.payload.get("warnings", [])
        for shape, s in zip(selected, reply.payload["shapes"]):
            cold = (options or {}).get("flush_l2", True)
            timed = [_measurement(task, shape, e, result, cold=cold) for e in s["entries"]]
            sm = ShapeMeasurement(s["shape"], timed[0], timed[1] if len(timed) > 1 else None)
            if sm.baseline and sm.baseline.summary and sm.candidate.summary and sm.baseline.valid \
                    and sm.candidate.valid:
                sm.comparison = compare(sm.baseline.samples_us, sm.candidate.samples_us)
            result.shapes.append(sm)
    return result


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
    t.figures = roofline.figures(task.work_figures(shape), t.summary.median, result.ceilings)
    # Warm samples may legitimately beat the DRAM floor (inputs served from L2): the floor check needs cold samples.
    bad = roofline.implausible(t.figures, t.summary.median, t.name, shape.label) if cold else None
    if bad:
        result.diagnostics.append(bad)
        t.valid = False
    return t
