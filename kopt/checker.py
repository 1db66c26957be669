"""Correctness check of a candidate against a task: compile on the CPU, run and compare in the worker."""
from __future__ import annotations

import secrets
import time

from .build import Build, build
from . import check_kernels, reference_kernels
from .candidate import Candidate
from .diagnostic import Diagnostic, Location
from .errors import CompileError
from .rules import RULES
from .task import Task
from .verdict import Verdict
from .client import WorkerClient
from .protocol import CheckRequest, Failed


def check(task: Task, candidate, *, config: dict | None = None, arch: str | None = None, shapes=None,
          worker: WorkerClient | None = None, seeds: list[int] | None = None) -> Verdict:
    """Verdict for ``candidate`` (path, source text, Candidate, or a Build to reuse) on every shape of ``task``
    (or ``shapes``)."""
    t0 = time.perf_counter()
    cand = candidate.candidate if isinstance(candidate, Build) else Candidate.load(candidate)
    verdict = Verdict(task=task.name, candidate=cand.name, config=dict(config or {}))
    own = worker is None
    worker = worker or WorkerClient().start()  # it sets up the GPU while this process compiles
    try:
        return _check(task, candidate, cand, verdict, config, arch, shapes, worker, seeds, t0)
    finally:
        if own:
            worker.close()


def _check(task, candidate, cand, verdict, config, arch, shapes, worker, seeds, t0) -> Verdict:
    try:
        b = candidate if isinstance(candidate, Build) else build(task, cand, config, arch)
    except CompileError as exc:
        verdict.diagnostics = exc.diagnostics or [RULES["compile.error"].diag(exc.message)]
        verdict.seconds = time.perf_counter() - t0
        return verdict
    cfg, art = b.config, b.artifact
    verdict.config, verdict.arch, verdict.compiled = cfg, art.arch, True
    verdict.resources = {k: v.resources.to_dict() for k, v in art.kernels.items()}
    verdict.diagnostics += art.diagnostics
    selected = list(shapes) if shapes is not None else list(task.shapes)
    plans = [b.plan(s) for s in selected]
    seeds = seeds or [secrets.randbits(31) for _ in range(max(task.trials, task.timed_trials))]
    helpers = check_kernels.for_request(art.arch)
    reference = reference_kernels.for_request(task, art.arch, selected, helpers)
    phases = {"compile": (time.perf_counter() - t0) * 1e3}  # the candidate's, the check kernels', the reference's
    reply = worker.call(CheckRequest(task, selected, plans, art.cubin, seeds, cand.name, helpers, reference),
                        on_phase=_first_phase(phases, time.perf_counter()))
    loc = Location(cand.name, cand.launches[0].line, role="launch")
    if isinstance(reply, Failed):
        d = reply.diagnostic
        verdict.diagnostics.append(RULES[d.rule].diag(d.message, loc, witness=d.witness or (
            {"traceback": reply.detail[-1500:]} if reply.detail and d.rule == "worker.exception" else None)))
    else:
        verdict.ran = True
        verdict.shapes = reply.payload["shapes"]
        for s in verdict.shapes:
            verdict.diagnostics += [Diagnostic.from_dict(d) for d in s["diagnostics"]]
        verdict.correct = len(verdict.shapes) == len(selected) and all(s["ok"] for s in verdict.shapes)
        for s in verdict.shapes:
            for k, v in s.get("phases_ms", {}).items():
                phases[k] = phases.get(k, 0.0) + v
    verdict.phases_ms = {k: round(v, 3) for k, v in phases.items()}
    verdict.seconds = time.perf_counter() - t0
    return verdict


def _first_phase(phases: dict, sent: float):
    """An on_phase callback that records the time from the request to the worker's first phase message as
    ``worker``: the worker's start (process, CUDA context, helper kernels) when it was not running yet."""
    def on_phase(_):
        phases.setdefault("worker", (time.perf_counter() - sent) * 1e3)
    return on_phase
