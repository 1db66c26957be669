"""``kopt run TASK CANDIDATE``: the correctness verdict."""
from __future__ import annotations

from pathlib import Path
from typing import List, Optional

import typer
from rich.table import Table

from ..checker import check
from ..errors import InputError
from ..render import to_text
from ..task import Task
from ..torch_problem import open_task
from ..client import WorkerClient
from ._app import app
from ._common import console, console_err, print_json, with_includes
from .compile_cmds import ArchOpt, IncludeOpt, JsonOpt


def parse_config(values: list[str] | None) -> dict:
    from ..expr import evaluate

    out = {}
    for v in values or []:
        k, sep, val = v.partition("=")
        if not sep or not k:
            raise InputError(f"bad --set {v!r}: expected TUNABLE=VALUE")
        out[k] = evaluate(val, {})
    return out


def render_verdict(verdict, task: Task) -> None:
    t = Table(title=f"{verdict.candidate} on task {verdict.task} ({verdict.arch})")
    for col in ("shape", "trials", "output", "rel L2", "max abs", "mismatch", "unwritten", "ok"):
        t.add_column(col, justify="left" if col in ("shape", "output") else "right")
    for s in verdict.shapes:
        last = s["trials"][-1] if s["trials"] else {"outputs": []}
        for o in last["outputs"]:
            t.add_row(s["shape"] + (" (timed)" if s["timed"] else ""), str(len(s["trials"])), o["arg"],
                      f"{o['rel_l2']:.2e}", f"{o['max_abs']:.2e}", f"{o['mismatch_fraction']:.2%}",
                      str(o["unwritten"]), "[green]yes[/]" if o["ok"] else "[red]no[/]")
    if verdict.shapes:
        console.print(t)
    if verdict.diagnostics:
        console_err.print(to_text(verdict.diagnostics), markup=False)
    color = "green" if verdict.correct else "red"
    console.print(f"[bold {color}]{verdict.status.upper()}[/] ({verdict.seconds:.1f} s)")


@app.command("run")
def run_cmd(task: Path = typer.Argument(..., help="task directory (holding task.toml)"),
            candidate: Path = typer.Argument(..., help="candidate .cu file with // kopt: annotations"),
            shape: Optional[str] = typer.Option(None, "--shape", help="only this shape, e.g. 'n=1000003' or 'timed'"),
            set_: Optional[List[str]] = typer.Option(None, "--set", help="tunable value TUNABLE=VALUE; repeatable"),
            arch: Optional[str] = ArchOpt, include: Optional[List[str]] = IncludeOpt,
            timeout: float = typer.Option(10.0, "--timeout", help="seconds a launch may run before it is killed"),
            json_out: bool = JsonOpt):
    """Check CANDIDATE against TASK on fresh random inputs (exit 0 correct, 1 incorrect or failed, 2 bad input)."""
    from ..device import require_gpu

    t = open_task(task)
    require_gpu("kopt run")  # no GPU is this machine's state, not the candidate's failure: exit 2 like the others
    with WorkerClient(kernel_timeout=timeout) as worker:
        verdict = check(t, with_includes(candidate, include), config=parse_config(set_), arch=arch,
                        shapes=t.find_shape(shape), worker=worker)
    if json_out:
        print_json(verdict.to_dict())
    else:
        render_verdict(verdict, t)
    raise typer.Exit(0 if verdict.correct else 1)
