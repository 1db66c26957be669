"""``kopt check FILE...``: static hazard analysis (races, barriers, bounds, bank conflicts, coalescing, async)."""
from __future__ import annotations

from pathlib import Path
from typing import List, Optional

import typer

from ..errors import InputError
from ..render import dumps, to_json, to_sarif, to_text
from .app import app
from ..expr import parse_dims
from ._common import console, console_err, parse_defines, print_json
from .compile_cmds import IncludeOpt


@app.command("check")
def check_cmd(files: List[Path] = typer.Argument(..., help="CUDA source files (.cu)"),
              block: Optional[str] = typer.Option(None, "--block", help="block dims X[,Y,Z] for kernels without a "
                                                                        "`// kopt: launch` annotation"),
              grid: Optional[str] = typer.Option(None, "--grid", help="grid dims X[,Y,Z]"),
              define: Optional[List[str]] = typer.Option(None, "-D", "--define", help="NAME[=VALUE]; repeatable"),
              kernel: Optional[List[str]] = typer.Option(None, "--kernel", "-k",
                                                         help="only this kernel, e.g. 'gemm<128,64>'; repeatable"),
              include: Optional[List[str]] = IncludeOpt,
              assume: Optional[List[str]] = typer.Option(None, "--assume", help="EXPR over kernel parameter names "
                                                         "(e.g. 'n >= 1'), like a `// kopt: assume` line; repeatable"),
              task: Optional[Path] = typer.Option(None, "--task", help="task folder: analyze the candidate under each "
                                                  "of its shapes (launch geometry, scalar arguments as assumptions)"),
              json_out: bool = typer.Option(False, "--json", help="machine-readable output"),
              sarif: bool = typer.Option(False, "--sarif", help="SARIF 2.1.0 output")) -> int:
    """Analyze FILE(s) for hazards; exit 1 when errors are found, 2 on bad input."""
    from ..analyze import analyze

    if json_out and sarif:
        raise InputError("choose one of --json and --sarif")
    b, g = parse_dims(block, "--block"), parse_dims(grid, "--grid")
    defines = parse_defines(define)
    results = []
    for f in files:
        if not f.is_file():
            raise InputError(f"cannot read {f}: no such file")
        results.append((f, analyze(f, block=b, grid=g, defines=defines, kernels=kernel or None,
                                   include_dirs=include or (), assume=assume or (), task=task)))
    diags = [d for _, r in results for d in r.diagnostics]
    if sarif:
        print(dumps(to_sarif(diags, tool_name="kopt check")))
    elif json_out:
        print_json({"ok": not any(d.is_error for d in diags),
                    "files": [{"file": str(f), "assumed": r.assumed.splitlines(), "launches": r.launches,
                               "kernels": r.kernels, "paths": r.paths,
                               "frontend": r.frontend, "elapsed_ms": round(r.elapsed_ms, 1),
                               "diagnostics": to_json(r.diagnostics)} for f, r in results]})
    else:
        for f, r in results:
            if r.diagnostics:
                console.print(to_text(r.diagnostics), markup=False, highlight=False, soft_wrap=True)
            for line in r.assumed.splitlines():
                console_err.print(f"{f}: assumed launch: {line}", markup=False, highlight=False, soft_wrap=True)
        n_err = sum(d.is_error for d in diags)
        n_warn = sum(d.severity.value == "warning" for d in diags)
        console_err.print(f"{n_err} error(s), {n_warn} warning(s) in {len(files)} file(s)", highlight=False)
    if any(d.is_error for d in diags):
        raise typer.Exit(1)
    return 0
