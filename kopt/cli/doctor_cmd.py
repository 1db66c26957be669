"""``kopt doctor``."""
from __future__ import annotations

from rich.table import Table

from .. import doctor
from ._app import app
from rich.markup import escape

from ._common import console, print_json
from .compile_cmds import JsonOpt


@app.command("doctor")
def doctor_cmd(json_out: bool = JsonOpt):
    """What this machine has for kopt (driver, GPU, NVRTC, headers, tools) and what each missing piece disables."""
    results = doctor.checks()
    if json_out:
        print_json([c.to_dict() for c in results])
        return
    t = Table(title="kopt doctor")
    for col in ("component", "status", "detail", "without it"):
        t.add_column(col)
    for c in results:
        t.add_row(escape(c.name), "[green]ok[/]" if c.ok else "[yellow]missing[/]", escape(c.detail),
                  "" if c.ok else escape(c.disables))
    console.print(t)
