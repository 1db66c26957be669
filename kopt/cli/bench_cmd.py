"""``kopt bench TASK CANDIDATE [--baseline B]``: correctness first, then interleaved timing with a verdict."""
from __future__ import annotations

import json
from pathlib import Path
from typing import List, Optional

import typer
from rich.table import Table

from .. import _harness
from ..errors import InputError
from ..evaluation import bench, bench_many
from ..render import to_text
from ..torch_problem import open_task
from ..client import WorkerClient
from ._app import app
from ._common import console, console_err, parse_stop, print_json, with_includes, activity
from .compile_cmds import ArchOpt, IncludeOpt, JsonOpt
from .run_cmd import parse_config

# A one-off measurement samples as long as the harness does by default.
MAX_TIME = _harness.defaults()["max_time"]
STOP_HELP = ("stopping criterion with its parameters: " +
             "; ".join(f"{c['name']} ({', '.join(c['params'])})" for c in _harness.criteria()) +
             f". Default {_harness.defaults()['stop']}; the --max-time and sample caps always apply")


def _us(t) -> str:
    if t is None or t.summary is None:
        return "-"
    s = t.summary
    return f"{s.median:,.2f} [{s.ci_low:,.2f}, {s.ci_high:,.2f}]"


def render(result) -> None:
    t = Table(title=f"kopt bench: {result.task}")
    for col in ("shape", "baseline us", "candidate us", "speedup [95% CI]", "verdict", "steady us (base / cand)",
                "steady verdict", "GB/s", "% roofline", "method", "n (discarded)"):
        t.add_column(col, justify="left" if col in ("shape", "method", "verdict", "steady verdict") else "right")
    for s in result.shapes:
        c = s.candidate
        cmp = s.comparison
        speed = f"{cmp.speedup:.3f} [{cmp.ci_low:.3f}, {cmp.ci_high:.3f}]" if cmp else "-"
        verdict = cmp.verdict if cmp else ("REJECTED" if not c.valid else "-")
        color = {"FASTER": "green", "SLOWER": "red", "REJECTED": "red"}.get(verdict, "")
        fig = c.figures
        st = s.steady_comparison
        steady = " / ".join(f"{m.steady_us:,.2f}" if m and m.steady_us else "-" for m in (s.baseline, c))
        t.add_row(s.shape, _us(s.baseline), _us(c), speed, f"[{color}]{verdict}[/]" if color else verdict,
                  steady, f"{st.verdict} x{st.speedup:.3f}" if st else "-",
                  f"{fig['gbps']:,.0f}" if "gbps" in fig else "-",
                  f"{fig['pct_of_roofline']:.1f}" if "pct_of_roofline" in fig else "-", c.method,
                  f"{c.summary.n} ({c.discarded_clock})" if c.summary else "-")
    if result.shapes:
        console.print(t)
        for s in result.shapes:
            console.print(f"  {s.shape}: {s.verdict_text() or 'no comparison'}", markup=False)
            fig = s.candidate.figures
            if "pct_of_roofline" in fig:
                console.print(f"    roofline ({fig['basis']}): {fig['pct_of_roofline']:.1f} % of the floor "
                              f"(cold {fig['pct_of_roofline_cold']:.1f} %); bandwidth ceiling: {fig.get('ceiling', '-')}"
                              + (f"; {fig['pct_of_tensor_peak']:.1f} % of tensor peak" if "pct_of_tensor_peak" in fig
                                 else ""), markup=False)
            if fig.get("note"):
                console.print(f"    note: {fig['note']}", markup=False)
            for who in (s.baseline, s.candidate):
                if who is not None:
                    console.print(f"  {who.name}: {who.stop_reason}" + (f"; {who.method_note}" if who.method_note else "")
                                  + f"; steady state: {who.steady_note}", markup=False)
    for w in result.warnings:
        console_err.print(f"[yellow]warning:[/] {w}")
    if result.diagnostics:
        console_err.print(to_text(result.diagnostics), markup=False)
    console.print(f"[bold {'green' if result.ok else 'red'}]{'OK' if result.ok else 'FAILED'}[/] ({result.seconds:.1f} s)")


def render_ranking(ranking) -> None:
    t = Table(title=f"kopt bench: {ranking.task}, {len(ranking.ranked)} candidates timed together")
    for col in ("rank", "candidate", "status", "time us (sum of medians)", "vs baseline", "vs best (per shape)",
                "steady vs best"):
        t.add_column(col, justify="right" if col in ("rank", "time us (sum of medians)", "vs baseline") else "left")
    for i, r in enumerate(ranking.ranked, 1):
        e = r.evaluation
        vs_best, steady = (", ".join(f"{c.verdict} x{c.speedup:.3f}" if c else "-" for c in cs) or "-"
                           for cs in (r.versus_best, r.versus_best_steady))
        first = i == 1 and e.ok
        t.add_row(str(i), e.candidate.candidate, e.status, f"{e.time_us:,.2f}" if e.time_us else "-",
                  f"x{e.speedup:.3f}" if e.speedup else "-", "best" if first else vs_best, "best" if first else steady)
    console.print(t)
    for r in ranking.ranked:
        e = r.evaluation
        for d in e.candidate.diagnostics + e.diagnostics:
            if d.is_error:
                console_err.print(to_text([d]), markup=False)
    console.print(f"[bold {'green' if ranking.ok else 'red'}]{'OK' if ranking.ok else 'FAILED'}[/] "
                  f"({ranking.seconds:.1f} s)")


@app.command("bench")
def bench_cmd(task: Path = typer.Argument(..., help="task directory (holding task.toml)"),
              candidates: List[Path] = typer.Argument(..., help="candidate .cu file(s): several are checked, then "
                                                           "timed together and ranked"),
              baseline: Optional[Path] = typer.Option(None, "--baseline", help="baseline .cu (default: the task's)"),
              no_baseline: bool = typer.Option(False, "--no-baseline", help="time the candidate alone"),
              shape: Optional[str] = typer.Option(None, "--shape", help="shape to time (default: the timed shapes)"),
              set_: Optional[List[str]] = typer.Option(None, "--set", help="candidate tunable TUNABLE=VALUE"),
              arch: Optional[str] = ArchOpt, include: Optional[List[str]] = IncludeOpt,
              max_time: float = typer.Option(MAX_TIME, "--max-time", help="seconds of sampling per entry at most"),
              stop: Optional[str] = typer.Option(None, "--stop", metavar="NAME[:key=value,...]", help=STOP_HELP),
              graph: int = typer.Option(0, "--graph", help="replay a CUDA graph of N samples (short kernels)"),
              warm: bool = typer.Option(False, "--warm", help="do not flush L2 between samples (default: cold)"),
              timeout: float = typer.Option(10.0, "--timeout", help="seconds a checked launch may run"),
              dram: bool = typer.Option(False, "--dram", help="then count each candidate's DRAM bytes read and "
                                        "written with Nsight Compute (ncu, GPU counters permitted) at the first "
                                        "timed shape (or --shape), as a multiple of the task's work model"),
              out: Optional[Path] = typer.Option(None, "--out", help="also write the JSON result here"),
              json_out: bool = JsonOpt):
    """Check correctness, then time CANDIDATE against the baseline: medians with CIs, speedup and verdict. Several
    candidates are timed together, interleaved on the same inputs, and ranked."""
    stopping = parse_stop(stop)
    t = open_task(task)
    base = None if no_baseline else with_includes(baseline or t.baseline, include)
    if len(candidates) > 1 and set_:
        raise InputError("--set applies to one candidate: bench several with their values written in the files "
                         "(or // kopt: define them)")
    options = {"max_time": max_time, "graph_reps": graph, "flush_l2": not warm, **stopping}
    what = f"{len(candidates)} candidates" if len(candidates) > 1 else str(candidates[0])
    with WorkerClient(kernel_timeout=timeout) as worker, activity(f"kopt bench: checking, then timing {what}",
                                                                   json_out):
        if len(candidates) > 1:
            ranking = bench_many(t, [with_includes(c, include) for c in candidates], baseline=base, arch=arch,
                                 shapes=t.find_shape(shape) if shape else None, worker=worker, options=options)
        else:
            result = bench(t, with_includes(candidates[0], include), baseline=base, config=parse_config(set_),
                           arch=arch, shapes=t.find_shape(shape) if shape else None, worker=worker, options=options)
    traffic = _dram(t, candidates, include, shape, parse_config(set_), arch, json_out) if dram else None
    if len(candidates) > 1:
        doc = ranking.to_dict()
        if traffic is not None:
            doc["dram"] = traffic
        if out:
            out.write_text(json.dumps(doc, indent=2, default=str))
        if json_out:
            print_json(doc)
        else:
            render_ranking(ranking)
            _render_dram(traffic)
        raise typer.Exit(0 if ranking.ok else 1)
    doc = result.to_dict()
    if traffic is not None:
        doc["dram"] = traffic
    if out:
        out.write_text(json.dumps(doc, indent=2, default=str))
    if json_out:
        print_json(doc)
    else:
        render(result)
        _render_dram(traffic)
    raise typer.Exit(0 if result.ok else 1)


def _dram(task, candidates, include, shape, config, arch, json_out) -> dict:
    """Each candidate's DRAM traffic (kopt.profile.dram_traffic: ncu's counters), by file; ``config`` applies to a
    single candidate."""
    from ..profile import dram_traffic

    at = task.find_shape(shape)[0] if shape else None
    with activity("kopt bench: counting DRAM traffic with ncu", json_out):
        return {str(c): dram_traffic(task, with_includes(c, include), shape=at,
                                     config=config if len(candidates) == 1 else None, arch=arch)
                for c in candidates}


def _render_dram(traffic: dict | None) -> None:
    for name, d in (traffic or {}).items():
        if "error" in d:
            console_err.print(f"[yellow]DRAM traffic of {name} not counted:[/] {d['error']}", highlight=False)
            continue
        x = f", x{d['x_work']:.2f} the work model" if "x_work" in d else ""
        console.print(f"  DRAM traffic of {name} at {d['shape']} (ncu): {d['read_bytes'] / 1e6:,.1f} MB read, "
                      f"{d['written_bytes'] / 1e6:,.1f} MB written{x}", markup=False)
