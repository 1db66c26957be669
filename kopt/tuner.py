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

    def remaining(self, history: dict) -> list[dict]:
        return [c for c in self.space if key(c) not in history]

    def propose(self, history: dict) -> dict | None:
        raise NotImplementedError


class Exhaustive(Strategy):
    def propose(self, history):
        left = self.remaining(history)
        return left[0] if left else None


class RandomSampling(Strategy):
    def propose(self, history):
        left = self.remaining(history)
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

    def propose(self, history):
        self._tell(history)
        left = self.remaining(history)
        if not left:
            return None
        for _ in range(32):  # the model may ask for a pruned or already measured point: tell it and ask again
            trial = self.study.ask(self.dists)
            k = key(trial.params)
            if k in self.by_key and k not in history and k not in self.pending:
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


def tune(candidate, space: Space, *, evaluate: Callable[[dict], Evaluation], store: RunStore, run: int,
         strategy: str = "exhaustive", budget: int | None = None, time_limit: float | None = None, seed: int = 0,
         on_result: Callable[[dict, Evaluation], None] | None = None) -> TuneResult:
    """Evaluate configurations proposed by ``strategy`` until the space, ``budget`` (evaluations in the run) or
    ``time_limit`` (seconds of this call) runs out. Configurations already evaluated in ``run`` are skipped. The
    candidate's default configuration (the untuned starting point) is evaluated first when it can launch, so every
    run says how much tuning gained over it. The run's owner (``kopt.optimize``) creates and finishes it."""
    t0 = time.perf_counter()
    cand = Candidate.load(candidate)
    strat = make_strategy(strategy, space.configs, cand.tunables, seed)
    history = {key(e["config"]): (e["time_us"] if e["status"] == "ok" else None) for e in store.evaluations(run)}
    default = cand.default_config()
    first = default if any(key(c) == key(default) for c in space.configs) else None
    done, reason = 0, "space exhausted"
    while True:
        if budget is not None and len(history) >= budget:
            reason = f"budget of {budget} evaluations reached"
            break
        if time_limit is not None and time.perf_counter() - t0 >= time_limit:
            reason = f"time limit of {time_limit:g} s reached"
            break
        cfg = first if first is not None and key(first) not in history else strat.propose(history)
        if cfg is None:
            break
        cid = store.add_candidate(run, cand.baked_source(cfg), config=cfg, proposer=f"tuner:{strategy}")
        started = time.time()
        res = evaluate(cfg)
        store.record(cid, res, started=started, finished=time.time())
        history[key(cfg)] = res.time_us if res.status == "ok" else None
        done += 1
        if on_result:
            on_result(cfg, res)
    return TuneResult(run, done, len(history), reason, store.best(run), time.perf_counter() - t0)
