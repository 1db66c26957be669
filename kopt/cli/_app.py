"""The ``kopt`` Typer application the command modules register on."""
from __future__ import annotations

import typer

app = typer.Typer(no_args_is_help=True, pretty_exceptions_enable=False,
                  help="kopt: compile, explain, check, run and time CUDA kernels.")


def _print_version(value: bool) -> None:
    if value:
        from .. import __version__

        print(f"kopt {__version__}")
        raise typer.Exit()


@app.callback()
def _options(version: bool = typer.Option(False, "--version", callback=_print_version, is_eager=True,
                                          help="print kopt's version and exit")) -> None:
    pass
