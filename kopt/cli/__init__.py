"""The ``kopt`` command: thin; parses, calls the library, renders. One module per command group."""
from __future__ import annotations

import os
import sys

from ..worker_prestart import prestart

if os.path.basename(sys.argv[0]) in ("kopt", "__main__.py", "-m"):  # the command line, not a test or an import
    prestart(sys.argv)

import typer  # noqa: E402

from ..errors import KoptError  # noqa: E402
from ._common import console_err
from .app import app  # noqa: E402

# Command groups register themselves on ``app`` when imported.
from . import bench_cmd, check_cmd, compile_cmds, doctor_cmd, kb_cmd, mcp_cmd, optimize_cmd, run_cmd, runs_cmd  # noqa: E402,F401
from . import import_cmd, lsp_cmd, profile_cmd, rules_cmd, sanitize_cmd, task_cmd, validate_cmd  # noqa: E402,F401


def main(argv: list[str] | None = None) -> None:
    """Entry point: expected failures become one line on stderr and an exit code (1 failed, 2 bad input)."""
    try:
        rc = app(args=argv, standalone_mode=False)
        if isinstance(rc, int) and rc:
            sys.exit(rc)
    except KoptError as exc:
        console_err.print(f"[bold red]error:[/] {exc.message}", highlight=False, soft_wrap=True)
        sys.exit(exc.exit_code)
    except typer.Exit as exc:
        sys.exit(exc.exit_code)
    except typer.Abort:
        console_err.print("aborted")
        sys.exit(130)
    except Exception as exc:  # usage errors from the (possibly vendored) click parser
        if callable(getattr(exc, "show", None)) and isinstance(getattr(exc, "exit_code", None), int):
            exc.show()
            sys.exit(2)
        raise
