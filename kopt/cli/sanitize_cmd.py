"""``kopt sanitize TASK CANDIDATE``: compute-sanitizer findings merged with the static analyzers'."""
from __future__ import annotations

from pathlib import Path
from typing import List, Optional

import typer

from ..errors import InputError
from ..render import dumps, to_github, to_sarif, to_text
from ..torch_problem import open_task
from ._app import app
from ._common import activity, console, console_err, print_json, with_includes
from .check_cmd import FormatOpt, output_format
from .compile_cmds import ArchOpt, IncludeOpt, JsonOpt
from .run_cmd import parse_config


@app.command("sanitize")
def sanitize_cmd(task: Path = typer.Argument(..., help="task directory (holding task.toml)"),
                 candidate: Path = typer.Argument(..., help="candidate .cu file with // kopt: annotations"),
                 tool: List[str] = typer.Option(["memcheck"], "--tool",
                                                help="memcheck, racecheck, synccheck, initcheck or all; repeatable"),
                 shape: Optional[str] = typer.Option(None, "--shape", help="the shape to run (default: the first "
                                                                           "untimed shape)"),
                 set_: Optional[List[str]] = typer.Option(None, "--set", help="tunable value TUNABLE=VALUE; repeatable"),
                 arch: Optional[str] = ArchOpt, include: Optional[List[str]] = IncludeOpt,
                 no_static: bool = typer.Option(False, "--no-static", help="skip the static analyzers"),
                 json_out: bool = JsonOpt, fmt: Optional[str] = FormatOpt):
    """Run CANDIDATE under compute-sanitizer (exit 0 clean, 1 errors found, 2 bad input or no tool/GPU)."""
    from ..sanitize import TOOLS, sanitize

    form = output_format(fmt, json_out)
    tools = [x.strip() for t in tool for x in t.split(",") if x.strip()]
    bad = [t for t in tools if t not in TOOLS + ("all",)]
    if bad:
        raise InputError(f"unknown --tool {bad[0]!r}: expected {', '.join(TOOLS)} or all")
    t = open_task(task)
    shapes = t.find_shape(shape) if shape else None
    with activity(f"kopt sanitize: {candidate} under compute-sanitizer ({', '.join(tools)})", form != "text"):
        res = sanitize(t, with_includes(candidate, include), tools=tools, shape=shapes[0] if shapes else None,
                       config=parse_config(set_), arch=arch, static=not no_static)
    if form == "json":
        print_json(res.to_dict())
    elif form == "sarif":
        print(dumps(to_sarif(res.diagnostics, tool_name="kopt sanitize")))
    elif form == "github":
        if res.diagnostics:
            print(to_github(res.diagnostics))
    else:
        for d in res.diagnostics:
            status = (d.witness or {}).get("status", "")
            console.print(f"[{status}]", markup=False, end=" ")
            console.print(to_text([d]), markup=False, highlight=False, soft_wrap=True)
        for note in res.notes:
            console_err.print(f"note: {note}", markup=False)
        console_err.print(f"{res.errors} error(s) from {', '.join(res.tools)} on {res.candidate} at {res.shape}",
                          highlight=False)
    raise typer.Exit(1 if res.errors else 0)
