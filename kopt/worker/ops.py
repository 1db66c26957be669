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
    """What every check needs, made before the first request: the GPU session, and meanwhile, in a thread, CuPy's
    import when it is installed (references of tasks that run them on the GPU). The two overlap: creating the
    context waits in the driver, the import mostly in Python (~0.3 s and ~0.25 s on an H200 host)."""
    import importlib.util
    import threading

    importer = None
    if importlib.util.find_spec("cupy") is not None:
        importer = threading.Thread(target=_import_quietly, args=("cupy",), daemon=True)
        importer.start()
    _runner()
    if importer is not None:
        importer.join()


def _import_quietly(name: str) -> None:
    import importlib

    try:
        importlib.import_module(name)
    except Exception:  # the reference that needs it reports why, on its own path
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
