"""The parent's side of the GPU worker: a client that starts the worker process (``python -m kopt.worker``),
sends it typed requests (``kopt.protocol``) and supervises it.

A fault, hang or out-of-memory in a candidate kills only the worker: the client turns a dead or silent worker into a
``Failed`` reply with its phase and starts a fresh worker for the next request.
"""
from __future__ import annotations

import os
import signal
import subprocess
import threading
import time

from . import worker_prestart
from .protocol import Failed, Phase, Reply, Request, receive, send
from .rules import RULES, Rule

DEFAULT_KERNEL_TIMEOUT = float(os.environ.get("KOPT_KERNEL_TIMEOUT", "10"))
SLOW_PHASE_TIMEOUT = float(os.environ.get("KOPT_SLOW_PHASE_TIMEOUT", "900"))  # reference, setup, compare


class WorkerClient:
    """``call(request)`` returns the worker's reply: ``Ok(payload)`` or ``Failed``."""

    def __init__(self, kernel_timeout: float = DEFAULT_KERNEL_TIMEOUT, command: list[str] | None = None,
                 env: dict | None = None):
        """``env``: variables set for the worker process (an evaluator pool pins it to one GPU with
        CUDA_VISIBLE_DEVICES)."""
        self.kernel_timeout = kernel_timeout
        self.command = command or worker_prestart.worker_command()
        self.env = env
        self.proc: subprocess.Popen | None = None
        self._stderr = None
        self.restarts = 0

    def start(self) -> "WorkerClient":
        """Start the worker now (it then sets up its GPU session while the caller compiles); idempotent."""
        if self.proc is None or self.proc.poll() is not None:
            self.close()
            self._start()
        return self

    def _start(self):
        prestarted = self.command == worker_prestart.worker_command() and not self.env
        started = worker_prestart.take() if prestarted else None
        self.proc, self._stderr = started or worker_prestart.spawn(self.command, self.env)
        self.restarts += 1

    def _stderr_tail(self, limit: int = 2000) -> str:
        if self._stderr is None:
            return ""
        self._stderr.seek(0)
        return self._stderr.read().decode(errors="replace")[-limit:]

    def close(self, wait: bool = True):
        """Kill the worker. With ``wait`` (a restart) its exit is awaited, so that its GPU memory is free for the
        next worker; without, it is reaped in a background thread: the driver takes ~0.1 s to tear down a killed
        process's context, and a command that is done with the GPU need not wait for that."""
        if self.proc is not None:
            try:
                os.killpg(self.proc.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
            if wait:
                self.proc.wait()
            else:
                threading.Thread(target=self.proc.wait, daemon=True).start()
            self.proc = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close(wait=False)

    def _lost(self, rule: Rule, message: str, phase: str) -> Failed:
        """The worker died or was killed: a fatal failure, with the last line it printed when it crashed."""
        tail = self._stderr_tail()
        self.close()
        last = tail.strip().splitlines()[-1:] if rule.id == "runtime.crash" else []
        return Failed(rule.diag(message + (f": {last[0]}" if last else "")), fatal=True, phase=phase, detail=tail)

    def call(self, request: Request, on_phase=None) -> Reply:
        """Send ``request`` and wait for its reply, under the time limit of the phase the worker is in."""
        self.start()
        try:
            send(self.proc.stdin.fileno(), request)
        except (BrokenPipeError, OSError):
            return self._lost(RULES["runtime.crash"], "the worker exited before taking the request", "start")
        phase, phase_limit, fd = "start", None, self.proc.stdout.fileno()
        while True:
            limit = phase_limit or (self.kernel_timeout if phase == "kernel" else SLOW_PHASE_TIMEOUT)
            try:
                reply = receive(fd, time.monotonic() + limit)
            except TimeoutError:
                return self._lost(RULES["runtime.timeout"], f"no answer within {limit:g} s during {phase}; the "
                                                            f"worker was killed", phase)
            if reply is None:
                self.proc.wait()
                code = self.proc.returncode
                how = f"signal {-code}" if code and code < 0 else f"exit code {code}"
                return self._lost(RULES["runtime.crash"], f"the worker died during {phase} ({how})", phase)
            if isinstance(reply, Phase):
                phase, phase_limit = reply.name, reply.limit
                if on_phase:
                    on_phase(reply)
                continue
            if isinstance(reply, Failed) and reply.fatal:
                self.close()  # the context is unusable: the next request gets a fresh worker
            return reply
