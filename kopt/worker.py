"""The worker subprocess that owns the CUDA context, and the parent-side client that supervises it.

A fault, hang or out-of-memory in a candidate kills only the worker: the client turns it into a result with a reason
and starts a fresh worker for the next request. Messages are length-prefixed pickles over the worker's stdin/stdout;
the worker moves its own stdout to stderr so kernel ``printf`` or a chatty reference cannot corrupt the channel.
"""
from __future__ import annotations

import os
import pickle
import select
import signal
import struct
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass

from .errors import KoptError

DEFAULT_KERNEL_TIMEOUT = float(os.environ.get("KOPT_KERNEL_TIMEOUT", "10"))
SLOW_PHASE_TIMEOUT = float(os.environ.get("KOPT_SLOW_PHASE_TIMEOUT", "900"))  # reference, setup, compare


def _send(fd: int, obj) -> None:
    data = pickle.dumps(obj, protocol=pickle.HIGHEST_PROTOCOL)
    os.write(fd, struct.pack("<Q", len(data)))
    view = memoryview(data)
    while view:
        n = os.write(fd, view)
        view = view[n:]


def _read_exact(fd: int, n: int, deadline: float | None) -> bytes | None:
    chunks, got = [], 0
    while got < n:
        if deadline is not None:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError
            ready, _, _ = select.select([fd], [], [], left)
            if not ready:
                raise TimeoutError
        chunk = os.read(fd, min(n - got, 1 << 20))
        if not chunk:
            return None
        chunks.append(chunk)
        got += len(chunk)
    return b"".join(chunks)


@dataclass
class WorkerFailure:
    """What the client reports when the worker died or was killed instead of answering."""

    rule: str  # runtime.timeout | runtime.crash
    message: str
    phase: str
    stderr_tail: str


class WorkerClient:
    """Parent side. ``request`` returns the worker's reply dict, or a ``WorkerFailure``."""

    def __init__(self, kernel_timeout: float = DEFAULT_KERNEL_TIMEOUT, command: list[str] | None = None):
        self.kernel_timeout = kernel_timeout
        self.command = command or [sys.executable, "-m", "kopt.worker"]
        self.proc: subprocess.Popen | None = None
        self._stderr = None
        self.restarts = 0

    def _start(self):
        self._stderr = tempfile.TemporaryFile()
        self.proc = subprocess.Popen(self.command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=self._stderr, start_new_session=True)
        self.restarts += 1

    def _stderr_tail(self, limit: int = 2000) -> str:
        if self._stderr is None:
            return ""
        self._stderr.seek(0)
        return self._stderr.read().decode(errors="replace")[-limit:]

    def close(self):
        if self.proc is not None:
            try:
                os.killpg(self.proc.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
            self.proc.wait()
            self.proc = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def request(self, message: dict, on_event=None):
        if self.proc is None or self.proc.poll() is not None:
            self.close()
            self._start()
        try:
            _send(self.proc.stdin.fileno(), message)
        except (BrokenPipeError, OSError):
            tail = self._stderr_tail()
            self.close()
            return WorkerFailure("runtime.crash", "the worker exited before taking the request", "start", tail)
        phase, phase_limit, fd = "start", None, self.proc.stdout.fileno()
        while True:
            limit = phase_limit or (self.kernel_timeout if phase == "kernel" else SLOW_PHASE_TIMEOUT)
            deadline = time.monotonic() + limit
            try:
                header = _read_exact(fd, 8, deadline)
                body = _read_exact(fd, struct.unpack("<Q", header)[0], None) if header else None
            except TimeoutError:
                tail = self._stderr_tail()
                self.close()
                return WorkerFailure("runtime.timeout", f"no answer within {limit:g} s during {phase}; the worker "
                                     f"was killed", phase, tail)
            if body is None:
                self.proc.wait()
                code = self.proc.returncode
                tail = self._stderr_tail()
                self.close()
                how = f"signal {-code}" if code and code < 0 else f"exit code {code}"
                return WorkerFailure("runtime.crash", f"the worker died during {phase} ({how})", phase, tail)
            reply = pickle.loads(body)
            if reply.get("event") == "phase":
                phase, phase_limit = reply["phase"], reply.get("limit")
                if on_event:
                    on_event(reply)
                continue
            if reply.get("fatal"):
                self.close()  # the context is unusable: next request gets a fresh worker
            return reply


# --- worker side ---------------------------------------------------------------------------------------------------
def serve(handlers: dict) -> None:
    out_fd = os.dup(1)
    os.dup2(2, 1)  # anything printed (kernel printf, references) goes to stderr
    sys.stdout = sys.stderr
    in_fd = sys.stdin.fileno()

    def phase(name: str, limit: float | None = None):
        """Announce a phase; ``limit`` overrides the client's timeout for it (e.g. a long timing loop)."""
        _send(out_fd, {"event": "phase", "phase": name, "limit": limit})

    while True:
        header = _read_exact(in_fd, 8, None)
        if not header:
            return
        message = pickle.loads(_read_exact(in_fd, struct.unpack("<Q", header)[0], None))
        handler = handlers.get(message.get("op"))
        if handler is None:
            _send(out_fd, {"event": "error", "rule": "worker.protocol", "message": f"unknown op {message.get('op')!r}"})
            continue
        try:
            reply = handler(message, phase)
        except KoptError as exc:
            reply = {"event": "error", "rule": "worker.input", "message": exc.message}
        except Exception as exc:  # report anything unexpected as a reply, not a dead pipe
            from .gpu import CudaError

            if isinstance(exc, CudaError):
                reply = {"event": "error", "rule": exc.rule, "message": str(exc), "fatal": exc.sticky}
            else:
                import traceback

                reply = {"event": "error", "rule": "worker.exception", "message": f"{type(exc).__name__}: {exc}",
                         "traceback": traceback.format_exc(limit=8)}
        _send(out_fd, {"event": "result", **reply} if "event" not in reply else reply)
        if reply.get("fatal"):
            os._exit(3)


def main() -> None:
    from .worker_ops import HANDLERS

    serve(HANDLERS)


if __name__ == "__main__":
    main()
