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
    from .params import LaunchSpecError
    from .reference import BadReference

    try:
        runner = _check_runner()
    except GpuUnavailableError as exc:
        return {"event": "error", "rule": "runtime.no-gpu", "message": exc.message}
    results = []
    runner.keep_cases(message["seeds"])
    for shape, plan in zip(message["shapes"], message["plans"]):
        phase("setup")
        try:
            seeds = message["seeds"][: message["task"].timed_trials] if shape.timed else message["seeds"]
            res = runner.check_shape(message["task"], shape, message["cubin"], plan, seeds, message["candidate"], phase)
        except LaunchSpecError as exc:
            return {"event": "error", "rule": "launch.mismatch", "message": str(exc)}
        except BadReference as exc:
            return {"event": "error", "rule": exc.rule, "message": str(exc)}
        results.append(res)
        if not res["ok"]:
            break
    return {"shapes": results}


def op_bench(message, phase):
    """Time entries (already checked correct) at the given shapes with the C++ harness."""
    from .timing import run_bench

    try:
        runner = _check_runner()
    except GpuUnavailableError as exc:
        return {"event": "error", "rule": "runtime.no-gpu", "message": exc.message}
    try:
        return run_bench(runner, message, phase)
    except RuntimeError as exc:  # CUDA errors raised by the harness
        text = str(exc)
        from .gpu import RECOVERABLE, STICKY

        name = text.rsplit(": ", 1)[-1]
        rule = STICKY.get(name) or RECOVERABLE.get(name) or (
            "runtime.cuda-error" if name.startswith("CUDA_ERROR_") else "timing.harness-error")
        return {"event": "error", "rule": rule, "message": text, "fatal": name in STICKY or "execution" in text}


def op_ceilings(message, phase):
    """Measured device ceilings: copy bandwidth and FP32 FMA throughput."""
    from .roofline import measure_ceilings

    return measure_ceilings(_session(), message, phase)


HANDLERS = {"ping": op_ping, "check": op_check, "bench": op_bench, "ceilings": op_ceilings}
