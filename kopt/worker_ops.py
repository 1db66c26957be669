"""Operations the worker performs on request (each owns nothing between requests but the GPU session)."""
from __future__ import annotations

import functools

from .errors import GpuUnavailableError


@functools.lru_cache(maxsize=None)
def _session():
    from .gpu import GpuSession

    return GpuSession()


@functools.lru_cache(maxsize=None)
def _check_runner():
    from .runner import CheckRunner

    return CheckRunner(_session())


def op_ping(message, phase):
    return {"pid": __import__("os").getpid()}


def op_check(message, phase):
    """Check one candidate at every requested shape; stops at the first failing shape."""
    from .runner import LaunchSpecError

    try:
        runner = _check_runner()
    except GpuUnavailableError as exc:
        return {"event": "error", "rule": "runtime.no-gpu", "message": exc.message}
    results = []
    for shape, plan in zip(message["shapes"], message["plans"]):
        phase("setup")
        try:
            seeds = message["seeds"][: message["task"].timed_trials] if shape.timed else message["seeds"]
            res = runner.check_shape(message["task"], shape, message["cubin"], plan, seeds, message["candidate"], phase)
        except LaunchSpecError as exc:
            return {"event": "error", "rule": "launch.mismatch", "message": str(exc)}
        results.append(res)
        if not res["ok"]:
            break
    return {"shapes": results}


HANDLERS = {"ping": op_ping, "check": op_check}
