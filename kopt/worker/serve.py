"""The worker's serve loop: read a request, run its handler, answer ``Ok`` or ``Failed``.

The worker moves its own stdout to stderr so a kernel's ``printf`` or a chatty reference cannot corrupt the channel.
Every failure becomes a ``Failed`` reply naming the phase it happened in; after a fatal one (a sticky CUDA error, a
kernel fault reported while waiting) the worker exits so the next request starts with a fresh context.
"""
from __future__ import annotations

import os
import sys
import traceback

from ..errors import GpuUnavailableError, KoptError
from ..params import LaunchSpecError
from ..protocol import Failed, Ok, Phase, receive, send
from ..reference import BadReference
from ..rules import CUDA_RECOVERABLE, CUDA_STICKY, RULES


def failure(exc: BaseException, phase: str) -> Failed:
    """The Failed reply for an exception raised while handling a request."""
    from .. import _harness
    from .session import CudaError
    from .timing import HarnessError

    if isinstance(exc, (CudaError, _harness.CudaError)):
        sticky = exc.name in CUDA_STICKY
        # an error reported while waiting for kernels came from one of them: the context may be unusable
        fatal = sticky or getattr(exc, "asynchronous", False) or getattr(exc, "during_wait", False)
        rule = CUDA_STICKY.get(exc.name) or CUDA_RECOVERABLE.get(exc.name) or "runtime.cuda-error"
        return Failed(RULES[rule].diag(str(exc)), fatal=fatal, phase=phase, cuda_error=exc.name, sticky=sticky)
    if isinstance(exc, GpuUnavailableError):
        return Failed(RULES["runtime.no-gpu"].diag(exc.message), phase=phase)
    if isinstance(exc, LaunchSpecError):
        return Failed(RULES["launch.mismatch"].diag(str(exc)), phase=phase)
    if isinstance(exc, BadReference):
        return Failed(RULES[exc.rule].diag(str(exc)), phase=phase)
    if isinstance(exc, KoptError):
        return Failed(RULES["worker.input"].diag(exc.message), phase=phase)
    if isinstance(exc, HarnessError):
        return Failed(RULES["timing.harness-error"].diag(str(exc)), phase=phase)
    return Failed(RULES["worker.exception"].diag(f"{type(exc).__name__}: {exc}"), phase=phase,
                  detail=traceback.format_exc(limit=8))


def serve(handlers: dict, warm=None) -> None:
    """Answer requests on stdin/stdout until the parent closes the pipe. ``handlers``: request type -> function
    ``(request, phase) -> payload``; ``warm``: set-up run before the first request is read (while the parent is
    still compiling), whose failures are left for the handlers to meet and report."""
    out_fd = os.dup(1)
    os.dup2(2, 1)  # anything printed (kernel printf, references) goes to stderr
    sys.stdout = sys.stderr
    in_fd = sys.stdin.fileno()
    current = {"phase": "start"}
    if warm is not None:
        try:
            warm()
        except Exception:
            pass

    def phase(name: str, limit: float | None = None):
        """Announce a phase; ``limit`` overrides the client's timeout for it (e.g. a long timing loop)."""
        current["phase"] = name
        send(out_fd, Phase(name, limit))

    while True:
        request = receive(in_fd)
        if request is None:
            return
        current["phase"] = "start"
        handler = handlers.get(type(request))
        if handler is None:
            reply = Failed(RULES["worker.protocol"].diag(f"unknown request {type(request).__name__}"))
        else:
            try:
                reply = Ok(handler(request, phase))
            except Exception as exc:  # every failure is a reply, never a dead pipe
                reply = failure(exc, current["phase"])
        send(out_fd, reply)
        if isinstance(reply, Failed) and reply.fatal:
            os._exit(3)


def main() -> None:
    from .ops import HANDLERS, warm

    serve(HANDLERS, warm)
