"""The ``kopt`` Typer application the command modules register on."""
from __future__ import annotations

import typer

app = typer.Typer(add_completion=False, no_args_is_help=True, pretty_exceptions_enable=False,
                  help="kopt: compile, explain, check, run and time CUDA kernels.")
