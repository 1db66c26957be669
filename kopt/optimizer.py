"""``kopt.optimize()``: the optimization loop as a library call, behind the CLI, the MCP tools and Python users.

It owns the run: creates it (or resumes one) in the run store, runs a workflow, finishes it, and writes the best
candidate out. ``tune`` (no API key) searches the candidate's tunables; ``refine``, ``best-of-n`` and ``evolve`` run
an LLM agent (Anthropic tool use). Every evaluation is an ``Evaluation`` recorded as it finishes.
"""
from __future__ import annotations

import os
import shutil
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from .candidate import Candidate
from .errors import GpuUnavailableError, InputError
from .measurement import Evaluation, check_aggregate
from .runstore import RunStore, source_hash
from .task import Shape, Task
from .torch_problem import open_task

TUNE_MAX_TIME = 2.0  # seconds of sampling per timed entry while tuning: many configurations, each checked first
LLM_WORKFLOWS = ("refine", "best-of-n", "evolve")
WORKFLOWS = ("tune",) + LLM_WORKFLOWS
# how a run combines per-shape speedups: the tuner ranks by the geometric mean; an agent keeps a change only when no
# shape regresses, so its runs use the worst shape
DEFAULT_AGGREGATE = {"tune": "geomean", **{w: "worst" for w in LLM_WORKFLOWS}}


@dataclass
class OptimizeResult:
    run: int
    task: str
    workflow: str
    stop_reason: str
    seconds: float
    evaluations: int  # in the run
    evaluated: int  # by this call
    best: dict | None = None  # the run store's best row (config, time_us, speedup, status, source...)
    best_path: Path | None = None
    aggregate: str = "geomean"
    strategy: str | None = None
    space: object | None = None  # the tuner's Space (kept and pruned configurations)
    default: dict | None = None  # the candidate's default configuration's row
    agent: dict = field(default_factory=dict)  # turns and tokens of an LLM workflow
    # a sweep of every known candidate (``optimize TASK`` without a start): one row per candidate and run, best first
    lineage: list[dict] = field(default_factory=list)
    # the best candidate against the task's comparators on kopt's clock (``compare_best``), or why not
    comparison: dict = field(default_factory=dict)
    # evaluations on several GPU models (an evaluator pool): each model's best, ranked on its own; ``best`` is that
    # of ``ranked_on``
    best_by_gpu: dict = field(default_factory=dict)
    ranked_on: str | None = None

    @property
    def speedup_vs_default(self) -> float | None:
        if self.default and self.best and self.best["time_us"] and self.default["time_us"]:
            return self.default["time_us"] / self.best["time_us"]
        return None

    def to_dict(self) -> dict:
        space = self.space
        return {"run": self.run, "task": self.task, "workflow": self.workflow, "strategy": self.strategy,
                "aggregate": self.aggregate, "stop_reason": self.stop_reason, "seconds": round(self.seconds, 3),
                "evaluations": self.evaluations, "evaluated_now": self.evaluated,
                "space": space.total if space else None,
                "pruned": [{"config": p.config, "reason": p.reason, "detail": p.detail} for p in space.pruned]
                if space else [],
                "best": {k: self.best[k] for k in ("config", "time_us", "speedup", "status", "path")}
                if self.best else None,
                "best_path": str(self.best_path) if self.best_path else None,
                "default": {k: self.default[k] for k in ("config", "time_us", "speedup")} if self.default else None,
                "speedup_vs_default": self.speedup_vs_default, **({"agent": self.agent} if self.agent else {}),
                **({"lineage": self.lineage} if self.lineage else {}),
                **({"comparison": self.comparison} if self.comparison else {}),
                **({"ranked_on": self.ranked_on, "best_by_gpu": {
                    m: {k: b[k] for k in ("config", "time_us", "speedup")} if b else None
                    for m, b in self.best_by_gpu.items()}} if self.best_by_gpu else {})}


def optimize(task, start=None, *, workflow: str = "tune", strategy: str | None = None, budget: int | None = None,
             time_limit: float | None = None, seed: int = 0, resume: int | None = None,
             store: RunStore | None = None, arch: str | None = None, max_time: float = TUNE_MAX_TIME,
             timeout: float = 10.0, out: Path | None = None, aggregate: str | None = None, model: str | None = None,
             client=None, tools=None, evaluate: Callable | None = None, on_space: Callable | None = None,
             on_result: Callable[[dict, Evaluation], None] | None = None, include_dirs=(), keep_all: bool = False,
             fixed: dict | None = None, on_candidate: Callable | None = None, pool=None,
             on_state: Callable[[dict], None] | None = None) -> OptimizeResult:
    """Optimize ``task``'s candidate ``start`` with ``workflow``. Without ``start``, the tune workflow tunes every
    candidate kopt knows for the task (its baseline, the knowledge base's examples for it, the user's promoted
    kernels: ``kopt.known_candidates``), a run each, and returns the best run with the lineage of all; the LLM
    workflows start from the baseline.

    ``resume``: continue run RUN (its options are reused; finished evaluations are not repeated). ``store``: the
    run store (default: the workspace's). ``tools``: for an LLM workflow, the ``kopt.tools.Toolbox`` the agent works
    through (bound to the workspace that holds the store). ``evaluate``: an evaluator to use instead of kopt bench
    on the GPU (``config -> Evaluation`` for tune, ``(task=, path=) -> Evaluation`` for an agent). ``on_space``
    receives the tuner's pruned space before any GPU time; ``on_result`` each (config, Evaluation) as recorded.
    ``include_dirs``: header folders (``-I``) for every compile of the candidates: the tuner's candidate searches
    them; an agent's starting copy declares them (``// kopt: include``). The written best candidate does not.
    ``keep_all``: prune only configurations that cannot compile or launch; ``fixed``: tunable values held
    (``--set``); ``on_candidate(Known)``: called as a sweep moves to each candidate.

    ``pool``: a ``kopt.pool.Pool`` (``--workers``, ``--ray``) that evaluates concurrently, one evaluation per GPU:
    the tune workflow's configurations, an agent's evaluate calls of one response; ``evaluate`` is then a factory,
    ``slot -> (config -> Evaluation)`` for tune, ``slot -> ((task=, path=) -> Evaluation)`` for an agent. ``on_state``
    receives its {done, running, queued, workers}. When the evaluations span several GPU models, each model is
    ranked on its own (``best_by_gpu``) and ``best`` is that of the pool's first GPU model.
    """
    t0 = time.perf_counter()
    if workflow not in WORKFLOWS:
        raise InputError(f"unknown workflow {workflow!r}: expected one of {', '.join(WORKFLOWS)}")
    t = task if isinstance(task, Task) else open_task(task)
    store = store or RunStore()
    prev = store.run(resume) if resume is not None else None
    opts = prev["options"] if prev else {}
    if prev and prev["task"] != t.name:
        raise InputError(f"run {resume} optimized task {prev['task']!r}, not {t.name!r}")
    aggregate = check_aggregate(prev["aggregate"] if prev else aggregate or DEFAULT_AGGREGATE[workflow])
    tune_args = dict(strategy=strategy, budget=budget, seed=seed, arch=arch, max_time=max_time, timeout=timeout,
                     aggregate=aggregate, evaluate=evaluate, on_space=on_space, on_result=on_result,
                     include_dirs=include_dirs, keep_all=keep_all, fixed=fixed, pool=pool, on_state=on_state)
    if workflow == "tune" and start is None and prev is None:
        result = _sweep(t, store, time_limit, on_candidate, out, tune_args)
        result.seconds = time.perf_counter() - t0
        return result
    src = start or (Path(opts["from"]) if opts.get("from") else t.baseline)
    if src is None:
        raise InputError(f"task {t.name} has no baseline: name a candidate to start from")
    if workflow == "tune":
        result = _tune(t, Path(src), store, prev, opts, time_limit=time_limit, **tune_args)
    else:
        result = _agent(t, Path(src), store, prev, workflow, budget=budget, time_limit=time_limit, model=model,
                        client=client, tools=tools, aggregate=aggregate, evaluate=evaluate,
                        include_dirs=include_dirs, pool=pool)
    result.seconds = time.perf_counter() - t0
    _rank(result, store, pool)
    if result.best and workflow == "tune":
        _write_best(result, store, t, out)
    elif result.best:
        result.best_path = store.path.parent.parent / result.best["path"] if result.best["path"] else None
    return result


def _rank(result: OptimizeResult, store: RunStore, pool) -> None:
    """``result.best``: the run's fastest correct evaluation; among those on one GPU model when the run spans
    several (the pool's first model, else the model with the most evaluations), each model's best beside it."""
    models = store.gpu_models(result.run)
    if len(models) < 2:
        result.best = store.best(result.run)
        return
    first = pool.models()[0] if pool is not None and pool.models() else None
    result.ranked_on = first if first in models else models[0]
    result.best_by_gpu = {m: store.best(result.run, gpu=m) for m in models}
    result.best = result.best_by_gpu[result.ranked_on]
    if result.default and result.default.get("measurement", {}).get("gpu", {}).get("name") != result.ranked_on:
        result.default = None  # its time is from another GPU model: no gain is computed against it


def _write_best(result: OptimizeResult, store: RunStore, task: Task, out: Path | None) -> None:
    result.best_path = out or store.path.parent / "runs" / str(result.run) / f"{task.name}_best.cu"
    result.best_path.parent.mkdir(parents=True, exist_ok=True)
    result.best_path.write_text(result.best["source"])


def _sweep(task: Task, store: RunStore, time_limit, on_candidate, out, tune_args: dict) -> OptimizeResult:
    """Tune every known candidate of ``task`` (a run each, within one time limit); the best run, with the lineage.
    A candidate that cannot be tuned here (its every configuration pruned, e.g. built for a newer GPU) is listed
    with the reason and skipped."""
    from .known_candidates import known_candidates

    known = known_candidates(task)
    if not known:
        raise InputError(f"task {task.name} has no baseline and no known candidate: name one with --from")
    t0 = time.perf_counter()
    results, lineage = [], []
    for k in known:
        if on_candidate:
            on_candidate(k)
        left = None if time_limit is None else time_limit - (time.perf_counter() - t0)
        if left is not None and left <= 0:
            lineage.append({"candidate": k.label, "path": str(k.path), "skipped": "the time limit was reached"})
            continue
        try:
            r = _tune(task, k.path, store, None, {}, time_limit=left, single_ok=True, **tune_args)
        except (InputError, GpuUnavailableError) as exc:
            if isinstance(exc, GpuUnavailableError):
                raise
            lineage.append({"candidate": k.label, "path": str(k.path), "skipped": exc.message})
            continue
        _rank(r, store, tune_args["pool"])
        results.append((k, r))
        b = r.best
        lineage.append({"candidate": k.label, "path": str(k.path), "run": r.run, "evaluations": r.evaluations,
                        "best_config": b["config"] if b else None, "time_us": b["time_us"] if b else None,
                        "speedup": b["speedup"] if b else None})
    ranked = sorted((x for x in results if x[1].best and x[1].best["time_us"]), key=lambda x: x[1].best["time_us"])
    if not ranked:
        reasons = "; ".join(f"{row['candidate']}: {row.get('skipped') or 'no correct configuration'}"
                            for row in lineage)
        raise InputError(f"no known candidate of {task.name} gave a correct, timed configuration ({reasons})")
    best_known, best = ranked[0]
    order = {k.label: i for i, (k, _) in enumerate(ranked)}
    best.lineage = sorted(lineage, key=lambda row: order.get(row["candidate"], len(order)))
    best.lineage[0]["best"] = True
    _write_best(best, store, task, out)
    return best


def _tune(task: Task, src: Path, store: RunStore, prev, opts: dict, *, strategy, budget, time_limit, seed, arch,
          max_time, timeout, aggregate, evaluate, on_space, on_result, include_dirs=(), keep_all=False, fixed=None,
          single_ok=False, pool=None, on_state=None) -> OptimizeResult:
    """``single_ok``: a candidate without tunables is evaluated once (in a sweep) instead of refused."""
    from .device import probe
    from .tuner import STRATEGIES, Space, bench_evaluator, plan_space, tune
    from .client import WorkerClient

    cand = Candidate.load(src).with_include_dirs(include_dirs)
    if not cand.tunables and not single_ok:
        raise InputError(f"{cand.name} declares no tunables: add '// kopt: tune NAME in [v1, v2, ...]' "
                         "(the tune workflow searches tunable values)")
    unknown = sorted(set(fixed or {}) - {t.name for t in cand.tunables})
    if unknown and not single_ok:
        raise InputError(f"{cand.name}: --set names {', '.join(unknown)}, which it does not declare as tunables "
                         f"({', '.join(t.name for t in cand.tunables)})")
    if prev is not None and opts.get("source_hash") != source_hash(cand.source):
        raise InputError(f"{cand.name} changed since run {prev['id']} started; start a new run instead of resuming")
    strategy = strategy or opts.get("strategy", "exhaustive")
    if strategy not in STRATEGIES:
        raise InputError(f"unknown strategy {strategy!r}: expected one of {', '.join(STRATEGIES)}")
    budget = budget if budget is not None else opts.get("budget")
    if evaluate is None and pool is None:
        info, why = probe()
        if info is None:
            raise GpuUnavailableError(f"kopt optimize times candidates on a GPU: {why}")
    shape = (task.timed_shapes or task.shapes)[0]
    # the worker starts (GPU session, CuPy) while every configuration compiles (a pool's workers have started)
    with WorkerClient(kernel_timeout=timeout) as worker:
        if evaluate is None and pool is None:
            worker.start()
        if cand.tunables:
            # pruned for the arch of the GPU that evaluates (a pool's first; each slot compiles for its own)
            first = pool.devices()[0].arch if pool is not None else None
            space = plan_space(cand, shape.symbols, arch=arch or cand.arch or task.arch_for_run() or first,
                               keep_all=keep_all, fixed=fixed)
        else:
            space = Space([{}], [])
        if on_space:
            on_space(space)
        if not space.configs:
            raise InputError(f"every configuration of {cand.name} was pruned before any GPU time")
        run = prev["id"] if prev else store.create_run(task.name, workflow="tune", aggregate=aggregate, options={
            "from": str(src.resolve()), "source_hash": source_hash(cand.source), "strategy": strategy,
            "budget": budget, "time": time_limit, "seed": seed, "arch": arch,
            **({"gpus": [f"{d.name} ({d.uuid})" for d in pool.devices()]} if pool is not None else {})})
        status, summary = "interrupted", {"stop_reason": "interrupted"}
        try:
            if pool is not None:
                pool.make_evaluate = evaluate or (lambda slot: bench_evaluator(
                    task, cand, arch=arch, worker=slot, aggregate=aggregate,
                    options={"max_time": max_time, "steady_max_time": max_time / 4}))
                evaluator = None
            else:
                # the tuner ranks by the cold medians: each record keeps a steady-state figure on a quarter of the time
                evaluator = evaluate or bench_evaluator(task, cand, arch=arch, worker=worker, aggregate=aggregate,
                                                        options={"max_time": max_time, "steady_max_time": max_time / 4})
            tuned = tune(cand, space, evaluate=evaluator, store=store, run=run, strategy=strategy, budget=budget,
                         time_limit=time_limit, seed=seed, on_result=on_result, pool=pool, on_state=on_state)
            status = "finished"
            summary = {"stop_reason": tuned.stop_reason, "space": space.total, "pruned": space.pruned_counts(),
                       "evaluations": tuned.total}
        finally:
            store.finish_run(run, status, summary)
    evals = store.evaluations(run)
    default = next((e for e in evals if e["config"] == cand.default_config() and e["status"] == "ok"), None)
    return OptimizeResult(run, task.name, "tune", tuned.stop_reason, 0.0, tuned.total, tuned.evaluated,
                          aggregate=aggregate, strategy=strategy, space=space, default=default)


def _agent(task: Task, src: Path, store: RunStore, prev, workflow: str, *, budget, time_limit, model, client,
           tools, aggregate, evaluate, include_dirs=(), pool=None) -> OptimizeResult:
    """An LLM workflow in the workspace that holds the run store; the starting candidate is copied in."""
    from .agent import DEFAULT_MODEL, Agent, Budget, run_workflow

    if tools is None:
        raise InputError(f"workflow {workflow} needs the tools the agent works through: pass "
                         "tools=kopt.tools.Toolbox(WORKSPACE)")

    if client is None:
        if not os.environ.get("ANTHROPIC_API_KEY"):
            raise InputError(f"workflow {workflow} needs an LLM and ANTHROPIC_API_KEY is not set; use the tune "
                             "workflow (--workflow tune) to autotune the candidate's tunables without one")
        from .extras import require

        client = require("anthropic").Anthropic()
    model = model or os.environ.get("KOPT_MODEL") or DEFAULT_MODEL
    tools.add_task(task)  # the task this run optimizes is the person's, so the agent may evaluate against it
    workspace = store.path.parent.parent
    if prev is None:
        shutil.copyfile(src, workspace / "start.cu")
        if include_dirs:  # the agent's candidates descend from this copy and keep the declaration
            lines = "".join(f"// kopt: include {Path(d).resolve()}\n" for d in include_dirs)
            (workspace / "start.cu").write_text(lines + (workspace / "start.cu").read_text())
    run = prev["id"] if prev else store.create_run(task.name, workflow=workflow, aggregate=aggregate,
                                                   options={"from": str(src.resolve()), "model": model})
    limits = Budget(**{k: v for k, v in (("evaluations", budget), ("wall_s", time_limit)) if v is not None})
    agent = Agent(client, tools, store, run, model=model, budget=limits, evaluate=evaluate, pool=pool)
    before = agent.progress.evaluations
    status, reason = "interrupted", "interrupted"
    try:
        reason = run_workflow(workflow, agent, task.name, "start.cu")
        status = "finished"
    finally:
        p = agent.progress
        store.finish_run(run, status, {"stop_reason": reason, "best_speedup": p.best_speedup,
                                       "best_path": p.best_path})
    p = agent.progress
    return OptimizeResult(run, task.name, workflow, reason, 0.0, p.evaluations, p.evaluations - before,
                          aggregate=aggregate, agent={"model": model, "turns": p.turns, "input_tokens": p.input_tokens,
                                                      "output_tokens": p.output_tokens})


def compare_best(result: OptimizeResult, task: Task, store: RunStore, *, max_time: float = TUNE_MAX_TIME,
                 compile_limit: float | None = None) -> dict:
    """The best candidate of ``result`` against the task's comparators (``kopt.comparators``: the eager library
    call and torch.compile max-autotune, timed like the candidate with ``max_time`` seconds of sampling) at each
    timed shape; ``{"skipped": why}`` when there are none. Also kept in ``result.comparison``."""
    from . import comparators
    from .runstore import evaluation

    why = comparators.unavailable(task) or (None if result.best else "no correct candidate")
    if why:
        result.comparison = {"skipped": why}
        return result.comparison
    best = evaluation(result.best)
    limit = comparators.COMPILE_LIMIT if compile_limit is None else compile_limit
    shapes = []
    for sm in best.shapes:
        shape = Shape({k.strip(): int(v) for k, v in (kv.split("=") for kv in sm.shape.split(","))}, True)
        rows = []
        for lib in comparators.run(task, shape, options={"max_time": max_time}, compile_limit=limit):
            vs = comparators.speedups(sm.candidate.samples_us, [lib])
            row = {k: v for k, v in lib.items() if k != "samples_us"}
            if vs:
                row["vs"] = vs[0]
            elif lib.get("median_us") and sm.candidate.median:  # the record kept no samples: medians only
                row["vs"] = {"speedup": lib["median_us"] / sm.candidate.median}
            rows.append(row)
        shapes.append({"shape": sm.shape, "candidate_us": sm.candidate.median,
                       "candidate_steady_us": sm.candidate.steady_us, "comparators": rows})
    result.comparison = {"shapes": shapes}
    return result.comparison
