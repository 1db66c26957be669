"""``kopt optimize TASK``: the optimization loop. With no LLM configured it runs the autotuner (``--workflow tune``)."""
from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Optional

import typer
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from ..candidate import Candidate
from ..device import probe
from ..errors import GpuUnavailableError, InputError
from ..runstore import RunStore, source_hash
from ..task import Task
from ..tuner import STRATEGIES, bench_evaluator, plan_space, tune
from ..worker import WorkerClient
from . import app
from ._common import console, console_err, print_json
from .compile_cmds import ArchOpt, JsonOpt

LLM_WORKFLOWS = ("refine", "best-of-n", "evolve")
# Seconds of sampling per timed entry: a run times many candidates, so each gets a short budget (kopt bench, which
# times one, keeps the harness's default).
MAX_TIME = 2.0


def _workflow(name: str | None) -> str:
    """The workflow to run; LLM workflows are refused with a one-line pointer to ``--workflow tune``."""
    if name in (None, "tune"):
        return "tune"
    if name not in LLM_WORKFLOWS:
        raise InputError(f"unknown workflow {name!r}: expected tune or one of {', '.join(LLM_WORKFLOWS)}")
    if not os.environ.get("ANTHROPIC_API_KEY"):
        raise InputError(f"--workflow {name} needs an LLM and ANTHROPIC_API_KEY is not set; "
                         "use --workflow tune to autotune the candidate's tunables without one")
    return name


def _run_agent(wf: str, task: Task, src: Path, store: RunStore, resume: int | None, budget: int | None,
               time_limit: float | None, model: str, json_out: bool) -> None:
    """An LLM workflow in the workspace that holds the run store; the starting candidate is copied in."""
    import shutil

    import anthropic

    from ..agent import Agent, Budget, run_workflow
    from ..tools import Toolbox

    workspace = store.path.parent.parent
    start = workspace / "start.cu"
    if resume is None:
        shutil.copyfile(src, start)
    run = resume if resume is not None else store.create_run(task.name, workflow=wf, options={
        "from": str(Path(src).resolve()), "model": model})
    limits = Budget(**{k: v for k, v in (("evaluations", budget), ("wall_s", time_limit)) if v is not None})
    agent = Agent(anthropic.Anthropic(), Toolbox(workspace), store, run, model=model, budget=limits)
    if not json_out:
        console.print(f"workflow {wf} with {model} in {workspace} (run {run})")
    reason = run_workflow(wf, agent, task.name, "start.cu")
    p = agent.progress
    store.finish_run(run, "finished", {"stop_reason": reason, "best_speedup": p.best_speedup,
                                       "best_path": p.best_path})
    summary = {"run": run, "workflow": wf, "stop_reason": reason, "best_speedup": p.best_speedup,
               "best_candidate": p.best_path, "turns": p.turns, "input_tokens": p.input_tokens,
               "output_tokens": p.output_tokens, "evaluations": p.evaluations}
    if json_out:
        print_json(summary)
    else:
        console.print(f"stopped: {reason}; best {p.best_path or '-'} at {p.best_speedup or '-'}x "
                      f"({p.turns} turns, {p.input_tokens}+{p.output_tokens} tokens, {p.evaluations} evaluations)")
    raise typer.Exit(0 if p.best_speedup else 1)


def _pruning_lines(space) -> list[str]:
    lines = [f"space: {space.total} configurations, {len(space.pruned)} pruned before any GPU time, "
             f"{len(space.configs)} left"]
    for reason, n in space.pruned_counts().items():
        example = next(p for p in space.pruned if p.reason == reason)
        lines.append(f"  {n} {reason} (e.g. {example.config}: {example.detail})")
    return lines


def _fmt(v, spec=",.2f") -> str:
    return "-" if v is None else format(v, spec)


def _table(evals: list[dict], task: str, run: int) -> Table:
    t = Table(title=f"kopt optimize: {task} (run {run}), fastest first")
    for col in ("#", "config", "status", "time us", "speedup"):
        t.add_column(col, justify="left" if col in ("config", "status") else "right")
    ranked = sorted(enumerate(evals, 1), key=lambda ie: (ie[1]["time_us"] is None, ie[1]["time_us"] or 0))
    for i, e in ranked[:15]:
        t.add_row(str(i), " ".join(f"{k}={v}" for k, v in e["config"].items()), e["status"], _fmt(e["time_us"]),
                  _fmt(e["speedup"], ".3f"))
    return t


@app.command("optimize")
def optimize_cmd(task: Path = typer.Argument(..., help="task directory (holding task.toml)"),
                 from_: Optional[Path] = typer.Option(None, "--from", help="candidate .cu (default: the task's "
                                                                           "baseline)"),
                 workflow: Optional[str] = typer.Option(None, "--workflow", help="tune (no LLM needed); refine, "
                                                                                 "best-of-n, evolve need an LLM"),
                 strategy: Optional[str] = typer.Option(None, "--strategy", help="exhaustive (default), random, tpe"),
                 budget: Optional[int] = typer.Option(None, "--budget", help="evaluations in the run at most"),
                 time_limit: Optional[float] = typer.Option(None, "--time", help="seconds of evaluation at most"),
                 seed: int = typer.Option(0, "--seed", help="seed of the random and tpe strategies"),
                 resume: Optional[int] = typer.Option(None, "--resume", help="continue run RUN, skipping finished "
                                                                             "evaluations"),
                 out: Optional[Path] = typer.Option(None, "--out", help="where to write the best candidate"),
                 arch: Optional[str] = ArchOpt,
                 max_time: float = typer.Option(MAX_TIME, "--max-time", help="seconds of sampling per timed entry"),
                 timeout: float = typer.Option(10.0, "--timeout", help="seconds a checked launch may run"),
                 model: str = typer.Option(os.environ.get("KOPT_MODEL", "claude-sonnet-4-5"), "--model",
                                           help="model for the LLM workflows (env KOPT_MODEL)"),
                 json_out: bool = JsonOpt):
    """Optimize TASK's candidate: check and time configurations, remember each in the run store, write the best."""
    wf = _workflow(workflow)
    t = Task.load(task)
    store = RunStore()
    prev = store.run(resume) if resume is not None else None
    opts = prev["options"] if prev else {}
    if prev and prev["task"] != t.name:
        raise InputError(f"run {resume} optimized task {prev['task']!r}, not {t.name!r}")
    src = from_ or (Path(opts["from"]) if opts.get("from") else t.baseline)
    if src is None:
        raise InputError(f"task {t.name} has no baseline: name a candidate with --from CANDIDATE.cu")
    if wf != "tune":
        _run_agent(wf, t, Path(src), store, resume, budget, time_limit, model, json_out)
    cand = Candidate.load(src)
    if not cand.tunables:
        raise InputError(f"{cand.name} declares no tunables: add '// kopt: tune NAME in [v1, v2, ...]' "
                         "(the tune workflow searches tunable values)")
    if resume is not None and opts.get("source_hash") != source_hash(cand.source):
        raise InputError(f"{cand.name} changed since run {resume} started; start a new run instead of --resume")
    strategy = strategy or opts.get("strategy", "exhaustive")
    if strategy not in STRATEGIES:
        raise InputError(f"unknown strategy {strategy!r}: expected one of {', '.join(STRATEGIES)}")
    budget = budget if budget is not None else opts.get("budget")
    info, why = probe()
    if info is None:
        raise GpuUnavailableError(f"kopt optimize times candidates on a GPU: {why}")
    if not json_out:
        note = "no LLM configured: " if not os.environ.get("ANTHROPIC_API_KEY") else ""
        console.print(f"{note}running the autotuner (--workflow tune, strategy {strategy}) on {cand.name}")

    shape = (t.timed_shapes or t.shapes)[0]
    space = plan_space(cand, shape.symbols, arch=arch or cand.arch or t.arch_for_run())
    if not json_out:
        console.print("\n".join(_pruning_lines(space)), markup=False)
    if not space.configs:
        raise InputError(f"every configuration of {cand.name} was pruned: " + "; ".join(_pruning_lines(space)[1:]))
    run = resume if resume is not None else store.create_run(t.name, workflow=wf, options={
        "from": str(Path(src).resolve()), "source_hash": source_hash(cand.source), "strategy": strategy,
        "budget": budget, "time": time_limit, "seed": seed, "arch": arch})
    planned = min(len(space.configs), budget) if budget else len(space.configs)
    best = {"us": None, "speedup": None}
    t0 = time.perf_counter()
    with WorkerClient(kernel_timeout=timeout) as worker, \
            Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                     TextColumn("{task.fields[best]}"), console=console_err, disable=json_out) as progress:
        done_before = len(store.evaluations(run))
        bar = progress.add_task("evaluations", total=planned, completed=min(done_before, planned), best="")

        def on_result(cfg, res):
            if res.status == "ok" and (best["us"] is None or res.time_us < best["us"]):
                best["us"], best["speedup"] = res.time_us, res.speedup
            progress.update(bar, advance=1, best=f"best {_fmt(best['us'])} us, speedup {_fmt(best['speedup'], '.3f')}"
                            if best["us"] is not None else "no correct configuration yet")

        evaluate = bench_evaluator(t, cand, arch=arch, worker=worker, options={"max_time": max_time})
        result = tune(cand, space, evaluate=evaluate, store=store, run=run, strategy=strategy, budget=budget,
                      time_limit=time_limit, seed=seed, on_result=on_result)
    best_row = result.best
    path = None
    if best_row:
        path = out or store.path.parent / "runs" / str(run) / f"{t.name}_best.cu"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(best_row["source"])
    evals = store.evaluations(run)
    default = next((e for e in evals if e["config"] == cand.default_config() and e["status"] == "ok"), None)
    gain = default["time_us"] / best_row["time_us"] if default and best_row and best_row["time_us"] else None
    if json_out:
        print_json({"run": run, "task": t.name, "workflow": wf, "strategy": strategy, "space": space.total,
                    "pruned": [{"config": p.config, "reason": p.reason, "detail": p.detail} for p in space.pruned],
                    "evaluations": len(evals), "evaluated_now": result.evaluated, "stop_reason": result.stop_reason,
                    "seconds": round(time.perf_counter() - t0, 3),
                    "best": {k: best_row[k] for k in ("config", "time_us", "speedup", "status")} if best_row else None,
                    "best_path": str(path) if path else None,
                    "default": {k: default[k] for k in ("config", "time_us", "speedup")} if default else None,
                    "speedup_vs_default": gain})
    else:
        console.print(_table(evals, t.name, run))
        console.print(f"{result.stop_reason}; {result.evaluated} evaluated now, {len(evals)} in run {run} "
                      f"({result.seconds:.1f} s)")
        if best_row:
            console.print(f"[bold green]best[/] {best_row['config']}: {_fmt(best_row['time_us'])} us, speedup "
                          f"{_fmt(best_row['speedup'], '.3f')} vs the task's baseline"
                          + (f", {gain:.3f}x over {cand.name}'s default configuration" if gain else "")
                          + f"; written to {path}")
        else:
            console.print("[bold red]no configuration was correct[/]")
    raise typer.Exit(0 if best_row else 1)
