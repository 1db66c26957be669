"""The worker's handlers, one per request type. Each owns nothing between requests but the GPU session."""
from __future__ import annotations

import functools

from ..protocol import BenchRequest, CeilingsRequest, CheckRequest


@functools.lru_cache(maxsize=None)
def _session():
    from .session import GpuSession

    return GpuSession()


@functools.lru_cache(maxsize=None)
def _runner():
    from .runner import CheckRunner

    return CheckRunner(_session())


def warm() -> None:
    """What every check needs, made before the first request: the GPU session and the runner. The context is
    created in a thread (the driver call waits with the GIL released, ~0.3 s on an H200 host) while this thread
    imports the runner's modules. CuPy, when installed, is imported in a thread that is not waited for (~0.25 s):
    only references that run numpy functions on the GPU need it, and their ``import cupy`` waits for it to finish.
    A failure here is left for the first request to meet and report."""
    import importlib
    import importlib.util
    import threading

    from .session import create_primary_context  # cuda-bindings only: the driver starts at once

    context = threading.Thread(target=_quietly, args=(create_primary_context,), daemon=True)
    context.start()
    if importlib.util.find_spec("cupy") is not None:
        threading.Thread(target=_quietly, args=(importlib.import_module, "cupy"), daemon=True).start()
    importlib.import_module(".runner", __package__)  # the runner's imports, numpy's among them, while the driver works
    context.join()
    _runner()


def _quietly(fn, *args) -> None:
    try:
        fn(*args)
    except Exception:  # the request that needs it meets the failure again and reports it
        pass


def check(request: CheckRequest, phase) -> dict:
    """Check one candidate at every requested shape; stops at the first failing shape."""
    runner = _runner()
    runner.use_helpers(request.helpers, request.reference)
    results = []
    runner.keep_cases(request.seeds)
    for shape, plan in zip(request.shapes, request.plans):
        phase("setup")
        seeds = request.seeds[: request.task.timed_trials] if shape.timed else request.seeds
        res = runner.check_shape(request.task, shape, request.cubin, plan, seeds, request.candidate, phase)
        results.append(res)
        if not res["ok"]:
            break
    return {"shapes": results}


def bench(request: BenchRequest, phase) -> dict:
    """Time entries (already checked correct) at the given shapes with the C++ harness."""
    from .timing import run_bench

    runner = _runner()
    runner.use_helpers(request.helpers, request.reference)
    return run_bench(runner, request, phase)


def ceilings(request: CeilingsRequest, phase) -> dict:
    from .ceilings import measure_ceilings

    return measure_ceilings(_session(), request, phase)


HANDLERS = {CheckRequest: check, BenchRequest: bench, CeilingsRequest: ceilings}
