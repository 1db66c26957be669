"""``kopt optimize TASK``: the optimization loop (``kopt.optimize``). With no LLM configured it runs the autotuner."""
from __future__ import annotations

import os
from pathlib import Path
from typing import List, Optional

import typer
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from ..measurement import AGGREGATES
from ..optimizer import TUNE_MAX_TIME, WORKFLOWS, compare_best, optimize
from ..torch_problem import open_task
from ._app import app
from ._common import activity, console, console_err, evaluations_table, fmt, print_json, shows_progress
from .run_cmd import parse_config
from .compile_cmds import ArchOpt, IncludeOpt, JsonOpt


def _pruning_lines(space) -> list[str]:
    lines = [f"space: {space.total} configurations, {len(space.pruned)} pruned before any GPU time, "
             f"{len(space.configs)} left"]
    for reason, n in space.pruned_counts().items():
        example = next(p for p in space.pruned if p.reason == reason)
        lines.append(f"  {n} {reason} (e.g. {example.config}: {example.detail})")
    return lines


def _lineage_table(lineage: list[dict]):
    from rich.table import Table

    t = Table(title="every known candidate, best first")
    for col in ("candidate", "run", "best configuration", "time (us)", "speedup"):
        t.add_column(col)
    for row in lineage:
        if "skipped" in row:
            t.add_row(row["candidate"], "-", f"skipped: {row['skipped']}", "-", "-")
        else:
            t.add_row(row["candidate"] + (" (best)" if row.get("best") else ""), str(row["run"]),
                      str(row["best_config"]), fmt(row["time_us"]), fmt(row["speedup"], ".3f"))
    return t


@app.command("optimize")
def optimize_cmd(task: Path = typer.Argument(..., help="task directory (holding task.toml)"),
                 from_: Optional[Path] = typer.Option(None, "--from", help="candidate .cu (default for tune: "
                                                      "every candidate kopt knows for the task, each tuned: its "
                                                      "baseline, the knowledge base's examples, promoted kernels; "
                                                      "for the LLM workflows: the baseline)"),
                 workflow: str = typer.Option("tune", "--workflow", help=f"{' | '.join(WORKFLOWS)}: tune needs no "
                                                                         "LLM; the others need ANTHROPIC_API_KEY"),
                 strategy: Optional[str] = typer.Option(None, "--strategy", help="exhaustive (default), random, tpe"),
                 budget: Optional[int] = typer.Option(None, "--budget", help="evaluations in the run at most"),
                 time_limit: Optional[float] = typer.Option(None, "--time", help="seconds of evaluation at most"),
                 seed: int = typer.Option(0, "--seed", help="seed of the random and tpe strategies"),
                 resume: Optional[int] = typer.Option(None, "--resume", help="continue run RUN, skipping finished "
                                                                             "evaluations"),
                 out: Optional[Path] = typer.Option(None, "--out", help="where to write the best candidate"),
                 aggregate: Optional[str] = typer.Option(None, "--aggregate", help=f"{' | '.join(AGGREGATES)}: how "
                                                         "a run combines per-shape speedups (default: geomean for "
                                                         "tune, worst for the LLM workflows)"),
                 arch: Optional[str] = ArchOpt, include: Optional[List[str]] = IncludeOpt,
                 max_time: float = typer.Option(TUNE_MAX_TIME, "--max-time", help="seconds of sampling per timed "
                                                                                  "entry"),
                 timeout: float = typer.Option(10.0, "--timeout", help="seconds a checked launch may run"),
                 model: Optional[str] = typer.Option(None, "--model", help="model for the LLM workflows (default: "
                                                                           "KOPT_MODEL, else kopt's default)"),
                 set_: Optional[List[str]] = typer.Option(None, "--set", help="hold tunable TUNABLE=VALUE while "
                                                                              "tuning; repeatable"),
                 keep_all: bool = typer.Option(False, "--keep-all", help="prune only configurations that cannot "
                                               "compile or launch (no spill or occupancy pruning)"),
                 compare: bool = typer.Option(True, "--compare/--no-compare", help="end by timing the best candidate's "
                                              "comparators (the task's PyTorch form eager and under torch.compile "
                                              "max-autotune) like the candidate"),
                 compile_limit: float = typer.Option(600.0, "--compile-limit", help="seconds torch.compile "
                                                     "max-autotune may take per shape"),
                 workers: Optional[int] = typer.Option(None, "--workers", help="evaluate on N GPUs of this machine "
                                                       "at once (a worker per GPU); with --ray: N GPUs at most"),
                 ray: Optional[str] = typer.Option(None, "--ray", metavar="auto|ADDRESS", help="evaluate on every "
                                                   "GPU of a Ray cluster: auto (the running one, else one started "
                                                   "here) or its address; needs kopt\\[ray]"),
                 json_out: bool = JsonOpt):
    """Optimize TASK's candidate: check and time configurations, remember each in the run store, write the best."""
    if workflow == "tune" and not json_out:
        note = "no LLM configured: " if not os.environ.get("ANTHROPIC_API_KEY") else ""
        console.print(f"{note}running the autotuner (--workflow tune) on "
                      f"{from_ or 'every candidate kopt knows for the task'}")
    progress = Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                        TextColumn("{task.fields[best]}"), console=console_err, disable=not shows_progress(json_out))
    bar, compiling, best = None, None, {"us": None, "speedup": None}

    def on_compiled(what, done, total):  # every configuration is compiled first (minutes for CuTe kernels)
        nonlocal compiling
        if compiling is None:
            progress.start()
            compiling = progress.add_task(what, total=total, best="")
        progress.update(compiling, completed=done)

    def on_candidate(known):
        nonlocal bar
        if bar is not None:
            progress.stop()
            progress.remove_task(bar)
            bar = None
        best.update(us=None, speedup=None)
        if not json_out:
            console.print(f"\n[bold]{known.label}[/] ({known.path})")

    def on_space(space):  # the space is known before any GPU time: show it, then the progress of the evaluations
        nonlocal bar, compiling
        progress.stop()
        if compiling is not None:
            progress.remove_task(compiling)
            compiling = None
        if not json_out:
            console.print("\n".join(_pruning_lines(space)), markup=False)
        planned = min(len(space.configs), budget) if budget else len(space.configs)
        progress.start()
        bar = progress.add_task("evaluations", total=planned, best="")

    def on_state(st):  # the pool's view: every worker's evaluations in one bar
        if bar is not None:
            progress.update(bar, description=f"evaluations ({st['running']} running on {st['workers']} GPU(s), "
                                             f"{st['queued']} queued)")

    def on_result(cfg, res):
        if res.status == "ok" and (best["us"] is None or res.time_us < best["us"]):
            best["us"], best["speedup"] = res.time_us, res.speedup
        if bar is not None:
            progress.update(bar, advance=1, best=f"best {fmt(best['us'])} us, speedup {fmt(best['speedup'], '.3f')}"
                            if best["us"] is not None else "no correct configuration yet")

    from ..progress import listening
    from ..runstore import RunStore
    from ..tools import Toolbox

    store = RunStore()
    tools = Toolbox(store.path.parent.parent) if workflow != "tune" else None
    pool = _open_pool(workers, ray, timeout) if workers is not None or ray is not None else None
    try:
        with listening(on_compiled):
            r = optimize(task, from_, workflow=workflow, strategy=strategy, budget=budget, time_limit=time_limit,
                         seed=seed, resume=resume, store=store, arch=arch, max_time=max_time, timeout=timeout,
                         out=out, aggregate=aggregate, model=model, tools=tools, include_dirs=include or (),
                         on_space=on_space, on_result=on_result, keep_all=keep_all, fixed=parse_config(set_),
                         on_candidate=on_candidate, pool=pool, on_state=on_state)
    finally:
        progress.stop()
        if pool is not None:
            pool.close()
    if compare:
        with activity("kopt optimize: timing the best candidate's comparators (torch eager, torch.compile)",
                      json_out):
            compare_best(r, open_task(task), store, max_time=max_time, compile_limit=compile_limit)
    if json_out:
        print_json(r.to_dict())
    else:
        if r.workflow == "tune":
            console.print(evaluations_table(store.evaluations(r.run), r.task, r.run))
        if r.lineage:
            console.print(_lineage_table(r.lineage))
        console.print(f"{r.stop_reason}; {r.evaluated} evaluated now, {r.evaluations} in run {r.run} "
                      f"({r.seconds:.1f} s)")
        if r.best:
            gain = r.speedup_vs_default
            what = r.best["config"] if r.workflow == "tune" else r.best["path"]
            console.print(f"[bold green]best[/] {what}: {fmt(r.best['time_us'])} us, speedup "
                          f"{fmt(r.best['speedup'], '.3f')} ({r.aggregate} over shapes) vs the task's baseline"
                          + (f", {gain:.3f}x over the default configuration" if gain else "")
                          + (f"; written to {r.best_path}" if r.best_path else ""))
        else:
            console.print("[bold red]no candidate was correct[/]")
        for line in _comparison_lines(r.comparison):
            console.print(line, markup=False)
        if r.best_by_gpu:
            console.print(f"the evaluations ran on {len(r.best_by_gpu)} GPU models; each is ranked on its own "
                          f"(times from different models are never compared), the best above is {r.ranked_on}'s:")
            for model, b in r.best_by_gpu.items():
                console.print(f"  {model}: " + (f"best {b['config']}, {fmt(b['time_us'])} us, speedup "
                                                f"{fmt(b['speedup'], '.3f')}" if b else "no correct configuration"),
                              markup=False)
    raise typer.Exit(0 if r.best else 1)


def _comparison_lines(comparison: dict) -> list[str]:
    """The best candidate against its comparators, one line per shape and comparator (or why there are none)."""
    if not comparison:
        return []
    if "skipped" in comparison:
        return [f"comparators skipped: {comparison['skipped']}"]
    out = []
    for s in comparison["shapes"]:
        out.append(f"best vs comparators at {s['shape']} (best {fmt(s['candidate_us'])} us cold):")
        for c in s["comparators"]:
            if c.get("error"):
                out.append(f"  {c['name']}: {c['error']}")
                continue
            vs = c.get("vs") or {}
            verdict = f" ({vs['verdict']})" if vs.get("verdict") else ""
            took = f"; compile and autotune {c['compile_s']:.1f} s" if c.get("compile_s") is not None else ""
            out.append(f"  {c['name']} ({c.get('what', '')}): {fmt(c.get('median_us'))} us, best is "
                       f"x{fmt(vs.get('speedup'), '.3f')}{verdict}{took}")
    return out


def _open_pool(workers: Optional[int], ray: Optional[str], timeout: float):
    """The evaluator pool --workers / --ray ask for (kopt.pool); Ray is imported only here."""
    if ray is not None:
        from ..pool_ray import ray_pool

        if workers is not None and workers < 1:
            from ..errors import InputError

            raise InputError(f"--workers {workers}: give at least 1")
        return ray_pool(ray, workers=workers, kernel_timeout=timeout)
    from ..pool import local_pool

    return local_pool(workers, kernel_timeout=timeout)
