"""One tool call in a child process, under a time limit: a call that hangs, crashes or exhausts memory ends that
process, never the MCP server that asked for it.

The parent sends ``{"workspace", "tasks", "tool", "args"}`` as JSON on the child's stdin and reads the tool's result
as JSON from its stdout (``python -m kopt.tool_process``). The child's own prints and those of the libraries it loads
go to stderr, so they cannot corrupt the result.
"""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys

from .rules import RULES

# Seconds a CPU tool may run (compile, explain, check, validate, the file and knowledge-base tools). GPU tools have
# no limit here: the GPU worker's phase deadlines bound them (kopt/worker).
CPU_TIMEOUT = float(os.environ.get("KOPT_TOOL_TIMEOUT", "30"))
GPU_TOOLS = frozenset({"evaluate", "optimize", "profile", "sanitize"})


def _failed(rule: str, message: str) -> dict:
    return {"ok": False, "error": message, "diagnostics": [RULES[rule].diag(message).to_dict()]}


def call(workspace, tasks, tool: str, args: dict, timeout: float | None = None) -> dict:
    """Run ``Toolbox(workspace, tasks).<tool>(**args)`` in a child and return its result dict."""
    if timeout is None and tool not in GPU_TOOLS:
        timeout = CPU_TIMEOUT
    request = json.dumps({"workspace": str(workspace), "tasks": [str(t) for t in tasks], "tool": tool, "args": args})
    proc = subprocess.Popen([sys.executable, "-m", "kopt.tool_process"], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
    try:
        out, err = proc.communicate(request.encode(), timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)  # the whole group: nothing the tool started outlives it
        proc.communicate()
        return _failed("tool.timeout", f"{tool} ran past its limit of {timeout:g} s and was stopped")
    try:
        return json.loads(out.decode())
    except ValueError:
        tail = err.decode(errors="replace").strip().splitlines()[-3:]
        why = f"exit status {proc.returncode}" if proc.returncode >= 0 else f"signal {-proc.returncode}"
        return _failed("tool.crash", f"{tool} ended without a result ({why})" + (": " + " | ".join(tail) if tail
                                                                                  else ""))


def _main() -> None:
    result_out = os.fdopen(os.dup(1), "w")
    os.dup2(2, 1)  # stray output of the tool and the native libraries it loads goes to stderr
    sys.stdout = sys.stderr
    req = json.loads(sys.stdin.read())
    from .errors import KoptError
    from .tools import Toolbox, failure

    try:
        box = Toolbox(req["workspace"], req["tasks"])
        result = getattr(box, req["tool"])(**req["args"])
    except KoptError as exc:
        result = failure(exc)
    except Exception as exc:  # a kopt bug: reported as such, with the exception, instead of a bare exit
        result = _failed("tool.crash", f"{req['tool']} raised {type(exc).__name__}: {exc}")
    result_out.write(json.dumps(result, default=str))
    result_out.flush()


if __name__ == "__main__":
    _main()
