"""``kopt check FILE...``: static hazard analysis (races, barriers, bounds, bank conflicts, coalescing, async)."""
from __future__ import annotations

from pathlib import Path
from typing import List, Optional

import typer

from ..errors import InputError
from ..render import dumps, to_github, to_json, to_sarif, to_text
from ._app import app
from ..expr import parse_dims
from ._common import (L2BytesOpt, MaxSmemOpt, NumSmsOpt, console, console_err, device_overrides, parse_defines,
                      print_json)
from .compile_cmds import IncludeOpt

FORMATS = ("text", "json", "sarif", "github")
FormatOpt = typer.Option(None, "--output-format", help="text, json, sarif (SARIF 2.1.0 for code scanning) or github "
                                                       "(GitHub Actions annotations)")


def output_format(fmt: str | None, json_out: bool = False, sarif: bool = False) -> str:
    """The one format chosen by ``--output-format`` or its shorthands ``--json`` / ``--sarif``."""
    chosen = {f for f, on in (("json", json_out), ("sarif", sarif)) if on} | ({fmt} if fmt else set())
    if len(chosen) > 1:
        raise InputError("choose one output format (--output-format, --json, --sarif)")
    out = chosen.pop() if chosen else "text"
    if out not in FORMATS:
        raise InputError(f"unknown --output-format {out!r}: expected {', '.join(FORMATS)}")
    return out


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
                                                         "and struct parameters' fields (e.g. 'n >= 1', "
                                                         "'info.halo >= 1'), like a `// kopt: assume` line; repeatable"),
              task: Optional[Path] = typer.Option(None, "--task", help="task folder: analyze the candidate under each "
                                                  "of its shapes (launch geometry, scalar arguments as assumptions)"),
              num_sms: Optional[int] = NumSmsOpt, l2_bytes: Optional[int] = L2BytesOpt,
              max_smem_per_block: Optional[int] = MaxSmemOpt,
              json_out: bool = typer.Option(False, "--json", help="machine-readable output"),
              sarif: bool = typer.Option(False, "--sarif", help="SARIF 2.1.0 output"),
              fmt: Optional[str] = FormatOpt) -> int:
    """Analyze FILE(s) for hazards; exit 1 when errors are found, 2 on bad input (including a file in which no
    kernel body could be analyzed; a partly analyzed one keeps 0/1 with an analysis.incomplete note)."""
    from ..analyze import analyze

    form = output_format(fmt, json_out, sarif)
    b, g = parse_dims(block, "--block"), parse_dims(grid, "--grid")
    defines = parse_defines(define)
    results = []
    for f in files:
        if not f.is_file():
            raise InputError(f"cannot read {f}: no such file")
        r = analyze(f, block=b, grid=g, defines=defines, kernels=kernel or None, include_dirs=include or (),
                    assume=assume or (), task=task,
                    device=device_overrides(num_sms, l2_bytes, max_smem_per_block))
        if not r.kernels:
            notes = [d for d in r.diagnostics if d.rule == "analysis.incomplete"]
            why = notes[0].message if notes else (r.assumed.strip() or "no __global__ kernels found")
            raise InputError(f"{f}: no kernel analyzed ({why})", diagnostics=r.diagnostics)
        results.append((f, r))
    diags = [d for _, r in results for d in r.diagnostics]
    if form == "sarif":
        print(dumps(to_sarif(diags, tool_name="kopt check")))
    elif form == "github":
        if diags:
            print(to_github(diags))
    elif form == "json":
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
