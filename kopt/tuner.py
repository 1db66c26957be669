"""Autotuner: a candidate's tunable space, pruned on the CPU from compile resources, searched by a strategy, with
every evaluation recorded in the RunStore as it finishes (so a run resumes where it stopped)."""
from __future__ import annotations

import json
import random
import time
from dataclasses import dataclass
from typing import Callable

from .archs import limits_or_none
from .candidate import Candidate
from .compiler import compile_configs
from .errors import InputError
from .geometry import launch_geometry
from .measurement import Evaluation
from .occupancy import occupancy
from .runstore import RunStore

def key(config: dict) -> str:
    return json.dumps(config, sort_keys=True)


def bench_evaluator(task, candidate, *, arch=None, worker, options=None,
                    aggregate: str = "geomean") -> Callable[[dict], Evaluation]:
    """The real evaluation: ``kopt bench`` (check, then time) against the task's untuned baseline. The baseline is
    checked once per run (it does not change); every configuration is checked on its own fresh inputs."""
    from .evaluation import bench

    checked = {}

    def evaluate(config: dict) -> Evaluation:
        r = bench(task, candidate, baseline=task.baseline, config=config, arch=arch, worker=worker, options=options,
                  baseline_verdict=checked.get("baseline"), aggregate=aggregate)
        if r.baseline is not None and r.baseline.correct:
            checked["baseline"] = r.baseline
        return r

    return evaluate


# --- the space, pruned before any GPU time -------------------------------------------------------------------------
@dataclass
class Pruned:
    config: dict
    reason: str  # "does not compile" | "cannot launch" | "spills" | "low occupancy"
    detail: str


@dataclass
class Space:
    configs: list[dict]  # kept, in declaration order
    pruned: list[Pruned]

    @property
    def total(self) -> int:
        return len(self.configs) + len(self.pruned)

    def pruned_counts(self) -> dict[str, int]:
        out: dict[str, int] = {}
        for p in self.pruned:
            out[p.reason] = out.get(p.reason, 0) + 1
        return out


def _launch_fit(cand: Candidate, art, config: dict, shape: dict) -> tuple[float, str | None]:
    """(lowest occupancy fraction over the launches, why it cannot launch or None) at one shape."""
    lim = limits_or_none(art.arch)
    lowest = 1.0
    for g in launch_geometry(cand, config, shape, arch=art.arch):
        where = f"launch {g.kernel} (line {g.line})"
        if g.errors:
            return 0.0, f"{where}: {g.errors[0].message}"
        if lim is None:  # no limits known for this architecture: nothing to prune on
            continue
        r = art.kernels[g.kernel].resources
        occ = occupancy(lim, block_size=g.threads, registers=r.registers, static_smem=r.static_smem,
                        dynamic_smem=g.smem)
        if occ.blocks_per_sm == 0:
            return 0.0, f"{where}: {occ.limiter}"
        lowest = min(lowest, occ.fraction)
    return lowest, None


def plan_space(candidate, shape: dict, *, arch: str | None = None, keep_all: bool = False,
               fixed: dict | None = None) -> Space:
    """Compile every allowed configuration (in parallel threads; CPU only) and prune those that cannot launch at
    ``shape`` (size symbols) or are clearly bad: spilling when a spill-free configuration exists, occupancy below a
    quarter of the best configuration's (``keep_all``: only those that cannot compile or launch). ``fixed``: tunable
    values held (``--set``); names the candidate does not declare are ignored."""
    cand = Candidate.load(candidate)
    if not cand.tunables:
        raise InputError(f"{cand.name} declares no tunables: add '// kopt: tune NAME in [v1, v2, ...]' to tune it")
    held = {k: v for k, v in (fixed or {}).items() if k in {t.name for t in cand.tunables}}
    configs = [c for c in cand.configs() if all(c[k] == v for k, v in held.items())]
    if not configs:
        why = f"the values held ({held}) and " if held else ""
        raise InputError(f"{cand.name}: no configuration satisfies {why}the restrictions "
                         f"({'; '.join(cand.restrictions) or 'none'})")

    compiled = [(art, None if exc is None else (exc.diagnostics[0].message if exc.diagnostics else exc.message))
                for _, art, exc in compile_configs(cand, configs, arch=arch)]
    pruned, fits = [], []
    for cfg, (art, error) in zip(configs, compiled):
        if art is None:
            pruned.append(Pruned(cfg, "does not compile", error))
            continue
        frac, why = _launch_fit(cand, art, cfg, shape)
        if why:
            pruned.append(Pruned(cfg, "cannot launch", why))
        else:
            spills = {n: k.resources for n, k in art.kernels.items() if k.resources.spills}
            fits.append((cfg, frac, spills))
    if keep_all:
        return Space([cfg for cfg, _, _ in fits], pruned)
    if any(not s for _, _, s in fits):
        for cfg, _, spills in [f for f in fits if f[2]]:
            detail = ", ".join(f"{n}: {r.spill_stores} B stores, {r.spill_loads} B loads" for n, r in spills.items())
            pruned.append(Pruned(cfg, "spills", f"{detail} (spill-free configurations exist)"))
        fits = [f for f in fits if not f[2]]
    best = max((f[1] for f in fits), default=0.0)
    kept = []
    for cfg, frac, _ in fits:
        if frac < best / 4:
            pruned.append(Pruned(cfg, "low occupancy", f"occupancy {frac:.0%} < a quarter of the best {best:.0%}"))
        else:
            kept.append(cfg)
    return Space(kept, pruned)


# --- strategies ----------------------------------------------------------------------------------------------------
class Strategy:
    """Proposes the next configuration of ``space`` given ``history`` (config key -> time in us, None if it failed);
    None when it has nothing left to propose."""

    def __init__(self, space: list[dict], tunables, seed: int = 0):
        self.space = space
        self.rng = random.Random(seed)

    def remaining(self, history: dict, pending=()) -> list[dict]:
        return [c for c in self.space if key(c) not in history and key(c) not in pending]

    def propose(self, history: dict, pending=()) -> dict | None:
        """``pending``: keys of configurations being evaluated (an evaluator pool): not proposed again."""
        raise NotImplementedError


class Exhaustive(Strategy):
    def propose(self, history, pending=()):
        left = self.remaining(history, pending)
        return left[0] if left else None


class RandomSampling(Strategy):
    def propose(self, history, pending=()):
        left = self.remaining(history, pending)
        return self.rng.choice(left) if left else None


class TPE(Strategy):
    """optuna's Tree-structured Parzen Estimator through ask/tell; each tunable is a categorical parameter."""

    def __init__(self, space, tunables, seed=0):
        super().__init__(space, tunables, seed)
        from .extras import require

        optuna = require("optuna")
        optuna.logging.set_verbosity(optuna.logging.WARNING)
        self.optuna = optuna
        self.dists = {t.name: optuna.distributions.CategoricalDistribution(t.values) for t in tunables}
        self.study = optuna.create_study(direction="minimize", sampler=optuna.samplers.TPESampler(seed=seed))
        self.by_key = {key(c): c for c in space}
        self.told: set[str] = set()
        self.pending: dict = {}

    def _tell(self, history):
        for k, value in history.items():
            if k in self.told:
                continue
            state = self.optuna.trial.TrialState.COMPLETE if value is not None else self.optuna.trial.TrialState.FAIL
            if k in self.pending:
                self.study.tell(self.pending.pop(k), value, state=state)
            else:  # measured before this strategy existed (a resumed run)
                self.study.add_trial(self.optuna.trial.create_trial(params=json.loads(k), distributions=self.dists,
                                                                     value=value, state=state))
            self.told.add(k)

    def propose(self, history, pending=()):
        self._tell(history)
        left = self.remaining(history, pending)
        if not left:
            return None
        for _ in range(32):  # the model may ask for a pruned or already measured point: tell it and ask again
            trial = self.study.ask(self.dists)
            k = key(trial.params)
            if k in self.by_key and k not in history and k not in self.pending and k not in pending:
                self.pending[k] = trial  # told when its time arrives in ``history``
                return self.by_key[k]
            if history.get(k) is not None:
                self.study.tell(trial, history[k])
            else:
                self.study.tell(trial, state=self.optuna.trial.TrialState.FAIL)
        return self.rng.choice(left)


STRATEGIES = {"exhaustive": Exhaustive, "random": RandomSampling, "tpe": TPE}


def make_strategy(name: str, space: list[dict], tunables, seed: int = 0) -> Strategy:
    if name not in STRATEGIES:
        raise InputError(f"unknown strategy {name!r}: expected one of {', '.join(STRATEGIES)}")
    return STRATEGIES[name](space, tunables, seed)


# --- the loop ------------------------------------------------------------------------------------------------------
@dataclass
class TuneResult:
    run: int
    evaluated: int  # by this call
    total: int  # in the run, including earlier (resumed) calls
    stop_reason: str
    best: dict | None  # the store's best evaluation
    seconds: float


def tune(candidate, space: Space, *, evaluate: Callable[[dict], Evaluation] | None = None, store: RunStore, run: int,
         strategy: str = "exhaustive", budget: int | None = None, time_limit: float | None = None, seed: int = 0,
         on_result: Callable[[dict, Evaluation], None] | None = None, pool=None,
         on_state: Callable[[dict], None] | None = None) -> TuneResult:
    """Evaluate configurations proposed by ``strategy`` until the space, ``budget`` (evaluations in the run) or
    ``time_limit`` (seconds of this call) runs out. Configurations already evaluated in ``run`` are skipped. The
    candidate's default configuration (the untuned starting point) is evaluated first when it can launch, so every
    run says how much tuning gained over it. The run's owner (``kopt.optimize``) creates and finishes it.

    ``pool`` (``kopt.pool.Pool``, instead of ``evaluate``): evaluations run concurrently, one per slot; this thread
    proposes, records every result as it arrives (the store's only writer) and waits for those in flight when a
    limit is reached. ``on_state`` receives {done, running, queued, workers} as evaluations start and finish."""
    t0 = time.perf_counter()
    cand = Candidate.load(candidate)
    strat = make_strategy(strategy, space.configs, cand.tunables, seed)
    history = {key(e["config"]): (e["time_us"] if e["status"] == "ok" else None) for e in store.evaluations(run)}
    default = cand.default_config()
    first = default if any(key(c) == key(default) for c in space.configs) else None
    pool = pool if pool is not None else _Inline(evaluate)
    pending: dict[str, int] = {}  # config key -> candidate id, submitted and not yet back
    done, reason, stopped = 0, "space exhausted", False

    def state():
        if on_state:
            planned = min(len(space.configs), budget) if budget else len(space.configs)
            on_state({"done": len(history), "running": len(pending), "workers": pool.size,
                      "queued": max(planned - len(history) - len(pending), 0)})

    while True:
        while not stopped and pool.idle:
            if budget is not None and len(history) + len(pending) >= budget:
                reason, stopped = f"budget of {budget} evaluations reached", True
            elif time_limit is not None and time.perf_counter() - t0 >= time_limit:
                reason, stopped = f"time limit of {time_limit:g} s reached", True
            else:
                cfg = first if first is not None and key(first) not in history and key(first) not in pending \
                    else strat.propose(history, pending)
                if cfg is None:
                    stopped = True
                    break
                pending[key(cfg)] = store.add_candidate(run, cand.baked_source(cfg), config=cfg,
                                                        proposer=f"tuner:{strategy}")
                pool.submit(cfg)
                state()
        if not pending:
            break
        d = pool.collect()
        if d.error is not None:
            _drain(pool, len(pending) - 1)
            raise d.error
        cfg, res = d.job, d.evaluation
        store.record(pending.pop(key(cfg)), res, started=d.started, finished=d.finished)
        history[key(cfg)] = res.time_us if res.status == "ok" else None
        done += 1
        state()
        if on_result:
            on_result(cfg, res)
    return TuneResult(run, done, len(history), reason, store.best(run, gpu=_model(pool)), time.perf_counter() - t0)


def _model(pool) -> str | None:
    """The GPU model a pool spanning several ranks by (its first slot's); None for one model."""
    models = pool.models() if hasattr(pool, "models") else []
    return models[0] if len(models) > 1 else None


def _drain(pool, n: int) -> None:
    """Wait for the ``n`` evaluations still in flight (their results are dropped: the run is failing)."""
    for _ in range(n):
        pool.collect()


class _Inline:
    """The pool of one evaluator in this thread: ``submit`` evaluates at once; ``collect`` hands it back."""

    size = 1

    def __init__(self, evaluate: Callable[[dict], Evaluation] | None):
        if evaluate is None:
            raise InputError("tune needs an evaluator or a pool")
        self.evaluate, self.done = evaluate, []

    @property
    def idle(self) -> int:
        return 0 if self.done else 1

    def submit(self, cfg):
        from .pool import Done

        started = time.time()
        try:
            self.done.append(Done(cfg, self.evaluate(cfg), started, time.time()))
        except Exception as exc:  # re-raised by the loop, as a sequential call would raise it
            self.done.append(Done(cfg, None, started, time.time(), error=exc))

    def collect(self):
        return self.done.pop()
