"""``kopt rules``: the rule catalogue (every rule id a Diagnostic can carry)."""
from __future__ import annotations

import typer
from rich.table import Table

from ..rules import RULES, markdown
from ._app import app
from ._common import console, print_json
from .compile_cmds import JsonOpt


@app.command("rules")
def rules_cmd(json_out: bool = JsonOpt,
              md: bool = typer.Option(False, "--markdown", help="the reference page (docs/rules.md) as Markdown")):
    """Every rule kopt reports: id, default severity, family and summary (--json adds the help text and hint)."""
    if md:
        print(markdown(), end="")
        return
    if json_out:
        print_json([r.to_dict() for r in RULES.values()])
        return
    t = Table(title="kopt rules (docs/rules.md explains each)")
    t.add_column("rule", no_wrap=True)
    for col in ("severity", "family", "summary"):
        t.add_column(col)
    for r in RULES.values():
        t.add_row(r.id, r.severity.value, r.family, r.summary)
    console.print(t)
