"""``kopt import FILE.cu``: a candidate from a .cu file with host code (``kopt.importer``)."""
from __future__ import annotations

from pathlib import Path
from typing import List, Optional

import typer
from rich.markup import escape
from rich.table import Table

from ..errors import InputError
from ..importer import import_file
from ._app import app
from ._common import console, console_err, print_json
from .compile_cmds import IncludeOpt, JsonOpt


@app.command("import")
def import_cmd(file: Path = typer.Argument(..., help=".cu file with kernels and host code (<<<...>>> launches)"),
               kernel: Optional[str] = typer.Option(None, "--kernel", "-k", help="import only this kernel"),
               task: Optional[Path] = typer.Option(None, "--task", help="task directory whose size symbols and "
                                                   "argument names the launch expressions are mapped onto"),
               out: Optional[Path] = typer.Option(None, "--out", "-o", help="candidate to write (default: "
                                                  "FILE's name with .kopt.cu, in the current directory)"),
               include: Optional[List[str]] = IncludeOpt, json_out: bool = JsonOpt):
    """Write a candidate of FILE's device code with // kopt: launch lines from its launch sites; report per kernel
    what was mapped and what needs a person (// kopt: TODO lines, which kopt validate refuses)."""
    out = out or Path.cwd() / f"{file.stem}.kopt.cu"
    if out.resolve() == file.resolve():
        raise InputError(f"--out {out} is the source file itself")
    imp = import_file(file, kernel=kernel, task=task, include_dirs=include or (), out=out)
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(imp.candidate)
    except OSError as exc:
        raise InputError(f"cannot write {out}: {exc}")
    if json_out:
        print_json({"ok": True, "out": str(out), **imp.to_dict()})
        return 0
    for k in imp.kernels:
        t = Table(title=f"{k.name}" + (f" (line {k.line})" if k.line else " (in an included header)"),
                  title_justify="left")
        for col in ("launch", "what", "host expression", "annotation"):
            t.add_column(col)
        for launch in k.launches:
            for item in launch.items:
                mapped = escape(item.mapped) if item.mapped is not None else \
                    f"[red]needs a person[/] {escape(item.note)}"
                t.add_row(f"line {launch.line}", item.what, escape(item.original), mapped)
            if not launch.items:
                t.add_row("-", "-", "-", "[red]no launch site: placeholders[/]")
        console.print(t)
    for note in imp.notes:
        console_err.print(f"note: {note}", markup=False, highlight=False)
    if imp.removed:
        shown = "; ".join(imp.removed[:6]) + (f"; and {len(imp.removed) - 6} more" if len(imp.removed) > 6 else "")
        console.print(f"removed: {shown}", markup=False, highlight=False)
    for todo in imp.todos:
        console.print(f"[yellow]TODO[/] {escape(todo)}", highlight=False)
    launches = sum(len(k.launches) for k in imp.kernels)
    state = (f"[yellow]{len(imp.todos)} point(s) need a person[/] (// kopt: TODO lines; kopt validate fails until "
             "they are resolved)" if imp.todos else "[green]everything mapped[/]")
    console.print(f"wrote {escape(str(out))}: {len(imp.kernels)} kernel(s), {launches} launch line(s); {state}")
    return 0
