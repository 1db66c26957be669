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
    from . import _harness
    from .rules import CUDA_RECOVERABLE, CUDA_STICKY

    try:
        return run_bench(runner, message, phase)
    except _harness.CudaError as exc:
        rule = CUDA_STICKY.get(exc.name) or CUDA_RECOVERABLE.get(exc.name) or "runtime.cuda-error"
        # an error reported while waiting for the kernels came from one of them: the context may be unusable
        fatal = exc.name in CUDA_STICKY or exc.asynchronous
        return {"event": "error", "rule": rule, "message": str(exc), "fatal": fatal}
    except RuntimeError as exc:  # the harness's other failures (no context, CUPTI requested but unavailable...)
        return {"event": "error", "rule": "timing.harness-error", "message": str(exc), "fatal": False}


def op_ceilings(message, phase):
    """Measured device ceilings: copy bandwidth and FP32 FMA throughput."""
    from .roofline import measure_ceilings

    return measure_ceilings(_session(), message, phase)


HANDLERS = {"ping": op_ping, "check": op_check, "bench": op_bench, "ceilings": op_ceilings}
