"""The GPU worker started as the ``kopt`` command starts, for the commands that will need it: its start (Python,
CUDA context, helper kernels) then overlaps the command's own imports and compile instead of following them. The
first ``WorkerClient`` takes it; one nobody took is killed at exit. Nothing heavy is imported here."""
from __future__ import annotations

import atexit
import os
import signal
import subprocess
import sys
import tempfile

COMMANDS = {"run", "bench", "optimize"}
_started: tuple | None = None  # (Popen, its stderr file)


def worker_command() -> list[str]:
    return [sys.executable, "-m", "kopt.worker"]


def spawn(command: list[str], env: dict | None = None) -> tuple:
    err = tempfile.TemporaryFile()
    proc = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=err,
                            start_new_session=True, env={**os.environ, **env} if env else None)
    return proc, err


def prestart(argv: list[str]) -> bool:
    """Start the worker when ``argv`` (the command line) runs a command that uses it; whether it was started."""
    global _started
    if _started is not None or os.environ.get("KOPT_PRESTART", "1") == "0":
        return False
    if len(argv) < 2 or argv[1] not in COMMANDS or {"--help", "-h"} & set(argv):
        return False
    if {"--workers", "--ray"} & {a.split("=", 1)[0] for a in argv}:  # an evaluator pool pins its own workers
        return False
    _started = spawn(worker_command())
    atexit.register(_discard)
    return True


def take() -> tuple | None:
    """The started worker, once."""
    global _started
    started, _started = _started, None
    return started


def _discard() -> None:
    started = take()
    if started is not None:
        try:
            os.killpg(started[0].pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
