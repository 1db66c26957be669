"""The ``kopt`` command: thin; parses, calls the library, renders. One module per command group."""
from __future__ import annotations

import json
import os
import sys

from ..worker_prestart import prestart

if os.path.basename(sys.argv[0]) in ("kopt", "__main__.py", "-m"):  # the command line, not a test or an import
    if prestart(sys.argv):  # a GPU command: the compile needs the GPU's arch, asked while the command imports
        from ..device import probe_in_background

        probe_in_background()

import importlib  # noqa: E402

import typer  # noqa: E402
from rich.markup import escape  # noqa: E402

from ..errors import KoptError  # noqa: E402
from ._common import console_err  # noqa: E402

# Which module registers each command on the Typer app. A command line imports only the module of the command it
# names (``kopt run`` need not import the optimizer, the knowledge base or the MCP server: process start is most of a
# warm ``kopt run``); help, a mistyped command and ``from kopt.cli import app`` register every command.
COMMAND_MODULES = {
    "bench": "bench_cmd", "check": "check_cmd", "compile": "compile_cmds", "explain": "compile_cmds",
    "cache": "compile_cmds", "doctor": "doctor_cmd", "import": "import_cmd", "kb": "kb_cmd", "lsp": "lsp_cmd",
    "mcp": "mcp_cmd", "optimize": "optimize_cmd", "profile": "profile_cmd", "rules": "rules_cmd", "run": "run_cmd",
    "runs": "runs_cmd", "sanitize": "sanitize_cmd", "task": "task_cmd", "validate": "validate_cmd",
}


def _commands(only: str | None = None) -> typer.Typer:
    """The app with ``only``'s module registered, or every command when ``only`` is not a known command."""
    from ._app import app

    modules = [COMMAND_MODULES[only]] if only in COMMAND_MODULES else sorted(set(COMMAND_MODULES.values()))
    for module in modules:
        importlib.import_module(f".{module}", __name__)
    return app


def _command_named(argv: list[str] | None) -> str | None:
    """The command a command line names: its first word that is not an option (the app's own options are flags)."""
    args = sys.argv[1:] if argv is None else argv
    return next((a for a in args if not a.startswith("-")), None)


def __getattr__(name: str):
    if name == "app":  # the whole CLI, for callers that drive it in process (typer's CliRunner)
        return _commands()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _wants_json(argv: list[str] | None) -> bool:
    args = sys.argv[1:] if argv is None else argv
    args = args[:args.index("--")] if "--" in args else args
    return "--json" in args or "--output-format=json" in args or any(
        a == "--output-format" and b == "json" for a, b in zip(args, args[1:]))


def _fail(message: str, code: int, as_json: bool, diagnostics=()) -> None:
    """One line on stderr; under ``--json`` also one error object on stdout, so a caller parsing stdout always
    gets JSON. Exits with ``code``."""
    if as_json:
        out = {"ok": False, "error": message, "exit_code": code}
        if diagnostics:
            out["diagnostics"] = [d.to_dict() for d in diagnostics]
        print(json.dumps(out, default=str))
    console_err.print(f"[bold red]error:[/] {escape(message)}", highlight=False)
    sys.exit(code)


def main(argv: list[str] | None = None) -> None:
    """Entry point: expected failures become one line on stderr and an exit code (1 failed, 2 bad input)."""
    as_json = _wants_json(argv)
    try:
        rc = _commands(_command_named(argv))(args=argv, standalone_mode=False)
        if isinstance(rc, int) and rc:
            sys.exit(rc)
    except KoptError as exc:
        _fail(exc.message, exc.exit_code, as_json, exc.diagnostics)
    except typer.Exit as exc:
        sys.exit(exc.exit_code)
    except typer.Abort:
        _fail("aborted", 130, as_json)
    except Exception as exc:  # usage errors from the (possibly vendored) click parser
        if callable(getattr(exc, "show", None)) and isinstance(getattr(exc, "exit_code", None), int):
            if as_json:
                _fail(exc.format_message() if callable(getattr(exc, "format_message", None)) else str(exc), 2, True)
            exc.show()
            sys.exit(2)
        if as_json:  # a bug: still one JSON object on stdout, and the traceback on stderr for the report
            print(json.dumps({"ok": False, "error": f"internal error: {type(exc).__name__}: {exc}", "exit_code": 1}))
        raise
