"""``kopt validate TASK [CANDIDATE ...]``: check a task and its candidates on the CPU, before any GPU time."""
from __future__ import annotations

from pathlib import Path
from typing import List, Optional

import typer
from rich.table import Table

from ..render import to_text
from ..validate import REFERENCE_TIMEOUT, validate
from ._app import app
from ._common import (L2BytesOpt, MaxSmemOpt, NumSmsOpt, console, console_err, device_overrides, print_json,
                      progress_bars)
from .compile_cmds import ArchOpt, IncludeOpt, JsonOpt


@app.command("validate")
def validate_cmd(task: Path = typer.Argument(..., help="task directory (holding task.toml), or a candidate .cu to "
                                                      "validate without a task"),
                 candidates: Optional[List[Path]] = typer.Argument(None, help="candidate .cu files (default: the "
                                                                               "task's baseline)"),
                 arch: Optional[str] = ArchOpt, include: Optional[List[str]] = IncludeOpt,
                 reference_timeout: float = typer.Option(REFERENCE_TIMEOUT, "--reference-timeout",
                                                         help="seconds the reference may take to import and run "
                                                              "once on the smallest shape"),
                 set_: Optional[List[str]] = typer.Option(None, "--set", help="validate only this configuration: "
                                                             "TUNABLE=VALUE, repeatable (others at their defaults)"),
                 num_sms: Optional[int] = NumSmsOpt, l2_bytes: Optional[int] = L2BytesOpt,
                 max_smem_per_block: Optional[int] = MaxSmemOpt,
                 json_out: bool = JsonOpt):
    """Validate TASK and CANDIDATES without a GPU (exit 0 valid, 1 problems found, 2 could not run)."""
    from .run_cmd import parse_config

    files = list(candidates or [])
    if task.suffix in (".cu", ".cuh") and task.is_file():
        task, files = None, [task] + files
    with progress_bars(json_out):
        v = validate(task, files, arch=arch, reference_timeout=reference_timeout,
                     config=parse_config(set_) if set_ else None, include_dirs=include or (),
                     device=device_overrides(num_sms, l2_bytes, max_smem_per_block))
    if json_out:
        print_json(v.to_dict())
    else:
        if v.reference:
            state = "[green]ok[/]" if v.reference.get("ok") else "[red]failed[/]"
            console.print(f"task {v.task}: reference {state} at {v.reference.get('shape', '?')}")
        for c in v.candidates:
            t = Table(title=c.file)
            for col in ("configuration", "arch", "compiled", "shapes", "problems"):
                t.add_column(col, justify="left" if col == "configuration" else "right")
            for cc in c.configs:
                errors = sum(d.is_error for d in cc.diagnostics)
                t.add_row(", ".join(f"{k}={v}" for k, v in cc.config.items()) or "(no tunables)", cc.arch,
                          "yes" if cc.compiled else "[red]no[/]", str(len(cc.shapes)),
                          f"[red]{errors}[/]" if errors else "0")
            console.print(t)
        problems = v.problems
        if problems:
            console_err.print(to_text(problems), markup=False, highlight=False, soft_wrap=True)
        n_err = sum(d.is_error for d in problems)
        color = "green" if v.ok else "red"
        console.print(f"[bold {color}]{'VALID' if v.ok else 'INVALID'}[/]: {n_err} error(s), "
                      f"{len(problems) - n_err} warning(s) or note(s)")
    raise typer.Exit(0 if v.ok else 1)
