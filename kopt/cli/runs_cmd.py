"""``kopt runs list|show|best|export|plot``: what the run store remembers."""
from __future__ import annotations

import datetime
import statistics
from pathlib import Path
from typing import Optional

import typer
from rich.table import Table

from ..runstore import RunStore, evaluation, public
from ._app import app
from ._common import console, evaluations_table, fmt, print_json
from .compile_cmds import JsonOpt

runs_app = typer.Typer(no_args_is_help=True, help="Runs remembered in the workspace's run store (.kopt/runs.db).")
app.add_typer(runs_app, name="runs")
RunArg = typer.Argument(..., help="run id (kopt runs list)")


def _when(ts: float) -> str:
    return datetime.datetime.fromtimestamp(ts).strftime("%Y-%m-%d %H:%M:%S")


@runs_app.command("list")
def list_cmd(json_out: bool = JsonOpt):
    """Every run: task, workflow, status, evaluations and best time."""
    with RunStore() as store:
        runs, where = store.list_runs(), store.path
    if json_out:
        return print_json(runs)
    t = Table(title=f"runs in {where}")
    for col in ("run", "task", "workflow", "started", "status", "evaluations", "best us"):
        t.add_column(col, justify="right" if col in ("run", "evaluations", "best us") else "left")
    for r in runs:
        t.add_row(str(r["id"]), r["task"], r["workflow"], _when(r["started"]), r["status"], str(r["evaluations"]),
                  fmt(r["best_us"]))
    console.print(t)


@runs_app.command("show")
def show_cmd(run: int = RunArg, json_out: bool = JsonOpt):
    """A run's options, summary and evaluations (fastest first)."""
    with RunStore() as store:
        info, evals = store.run(run), store.evaluations(run)
    if json_out:
        return print_json({"run": info, "evaluations": [public(e) for e in evals]})
    console.print(f"run {run}: task {info['task']}, workflow {info['workflow']}, {info['status']}, started "
                  f"{_when(info['started'])}; speedups: {info['aggregate']} over shapes")
    console.print(f"options: {info['options']}", markup=False)
    if info["summary"]:
        console.print(f"summary: {info['summary']}", markup=False)
    console.print(evaluations_table(evals, info["task"], run))


@runs_app.command("best")
def best_cmd(run: int = RunArg, json_out: bool = JsonOpt):
    """The fastest correct candidate of a run (its source with tunables baked in, under --json)."""
    with RunStore() as store:
        best = store.best(run)
    if json_out:
        return print_json({**public(best), "source": best["source"]} if best else None)
    if best is None:
        console.print(f"run {run} has no correct evaluation")
        raise typer.Exit(1)
    console.print(f"run {run} best: {best['config'] or best['path']}: {fmt(best['time_us'])} us, speedup "
                  f"{fmt(best['speedup'], '.3f')} (candidate {best['candidate']}, {best['proposer']})")


@runs_app.command("export")
def export_cmd(run: int = RunArg, _json: bool = typer.Option(True, "--json", help="JSON (the only format)")):
    """Everything stored about a run, as one JSON document."""
    with RunStore() as store:
        print_json(store.export(run))


@runs_app.command("plot")
def plot_cmd(run: int = RunArg, out: Optional[Path] = typer.Option(None, "--out", help="PNG path "
                                                                                         "(default: run<RUN>.png)")):
    """PNG: time of each evaluation and best so far vs evaluation index, the untuned baseline marked."""
    from ..extras import require

    require("matplotlib").use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.ticker import MaxNLocator

    with RunStore() as store:
        info, evals = store.run(run), store.evaluations(run)
    xs = [i for i, e in enumerate(evals, 1) if e["time_us"] is not None]
    ys = [e["time_us"] for e in evals if e["time_us"] is not None]
    fig, ax = plt.subplots(figsize=(8, 4.5))
    ax.scatter(xs, ys, s=14, label="evaluation")
    ax.step(xs, [min(ys[:i + 1]) for i in range(len(ys))], where="post", color="tab:green", label="best so far")
    failed = [i for i, e in enumerate(evals, 1) if e["time_us"] is None]
    if failed and ys:
        ax.scatter(failed, [max(ys)] * len(failed), marker="x", color="tab:red", label="failed (not timed)")
    base = [b for b in (evaluation(e).baseline_us for e in evals) if b]
    if base:
        ax.axhline(statistics.median(base), color="tab:gray", linestyle="--", label="untuned baseline")
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_xlabel("evaluation")
    ax.set_ylabel("time (us)")
    ax.set_title(f"run {run}: {info['task']} ({info['workflow']})")
    ax.legend()
    path = out or Path(f"run{run}.png")
    fig.savefig(path, dpi=120, bbox_inches="tight")
    plt.close(fig)
    console.print(f"wrote {path}")
