"""The timing request: prepare input sets, hand the launches to the C++ harness, validate what it left behind."""
from __future__ import annotations

import os

from ..diagnostic import Location
from ..protocol import BenchRequest, Kernel
from ..rules import RULES
from ..task import Task
from .runner import CheckRunner, Prepared


class HarnessError(RuntimeError):
    """The harness failed for a reason other than a CUDA error (no context, CUPTI asked for but unavailable)."""


def harness_options(gpu, request_options: dict, flush: Kernel, cupti_library: str | None) -> dict:
    """The harness's options: the request's, the flush kernel the parent compiled (a read, which leaves L2 clean)
    and libcupti's path (none: the harness times with CUDA events and says why)."""
    fn = gpu.function(gpu.load(flush.cubin), flush.name)
    return {**request_options, "cupti_library": cupti_library or "", "flush_function": int(fn),
            "flush_grid": gpu.attribute("MULTIPROCESSOR_COUNT") * 8}


def measure(benches: list, options: dict) -> list[dict]:
    """The harness's measure; its non-CUDA failures become HarnessError (CUDA errors stay typed)."""
    from .. import _harness

    try:
        return _harness.measure(benches, options)
    except _harness.CudaError:
        raise
    except RuntimeError as exc:
        raise HarnessError(str(exc)) from exc


def gpu_activity_warnings(pci_bus_id: str, own_work_recent: bool = False) -> list[str]:
    """Other processes or load on this worker's GPU before measuring (NVML through nvidia-ml-py, when installed).
    NVML ignores CUDA_VISIBLE_DEVICES, so the device is found by its PCI bus id (as the harness finds its clock):
    workers pinned to other GPUs are not counted. ``own_work_recent``: this worker has launched kernels (the check
    that precedes every timing), so the utilization NVML averages over its last sampling period is partly its own
    and is left out; other processes are still reported."""
    try:
        import pynvml
    except ImportError:
        return []
    try:
        pynvml.nvmlInit()
        h = pynvml.nvmlDeviceGetHandleByPciBusId(pci_bus_id)
        others = [p.pid for p in pynvml.nvmlDeviceGetComputeRunningProcesses(h) if p.pid != os.getpid()]
        util = pynvml.nvmlDeviceGetUtilizationRates(h).gpu
    except Exception:
        return []
    out = []
    if others:
        out.append(f"{len(others)} other process(es) hold the GPU (pids {others[:5]}): timings may be disturbed")
    if util > 10 and not own_work_recent:
        out.append(f"GPU utilization was {util} % before measuring: another workload may be running")
    return out


def _resets(task: Task, prepared: Prepared) -> list[tuple[int, int, int, int]]:
    """Memsets before every sample: outputs poisoned (a kernel that skips work is caught afterwards), scratch reset."""
    out = []
    for a in task.args:
        if a.role == "out":
            b = prepared.buffers[a.name]
            out.append((b.ptr, b.nbytes, a.dtype.poison & 0xFFFFFFFF, min(a.dtype.itemsize, 4)))
    return out + _scratch_resets(prepared)


def _scratch_resets(prepared: Prepared) -> list[tuple[int, int, int, int]]:
    return [(buf.ptr, buf.nbytes, 0 if init == "zero" else dt.poison & 0xFFFFFFFF, min(dt.itemsize, 4))
            for buf, dt, init in prepared.scratch.values()]


STEADY_BUDGET = 32 << 30  # bytes of steady-state sets at most (every entry's), and at most half the free memory
STEADY_MAX_SETS = 256  # more sets than this (a set under ~1/128 of the L2): steady state is not measured


def steady_sets(set_bytes: int, l2_bytes: int) -> int:
    """How many sets steady-state batches rotate over: at least two, and enough that the other sets' traffic between
    two uses of one set, (n - 1) x set_bytes, is at least twice the L2. Nothing of a set is then left in L2 when it
    comes round again: its reads come from DRAM, and the lines it dirtied were written back in between."""
    return max(2, 1 + -(-2 * l2_bytes // max(set_bytes, 1)))


def steady_plan(set_bytes: list[int], l2_bytes: int, free_bytes: int,
                budget: int = STEADY_BUDGET) -> tuple[list[int], str]:
    """Per entry (one set's bytes each), its steady-state set count; or ``([], why not)`` when they do not fit."""
    counts = [steady_sets(b, l2_bytes) for b in set_bytes]
    if max(counts, default=0) > STEADY_MAX_SETS:
        small = min(set_bytes)
        return [], (f"steady state not measured: a set of {small / 1024:.0f} KiB would need "
                    f"{steady_sets(small, l2_bytes)} sets (over {STEADY_MAX_SETS}) to exceed twice the L2")
    total = sum(n * b for n, b in zip(counts, set_bytes))
    limit = min(budget, free_bytes // 2)
    if total > limit:
        return [], (f"steady state not measured: its sets need {total / 2**20:.0f} MiB, over the "
                    f"{limit / 2**20:.0f} MiB allowed (the smaller of {budget / 2**30:g} GiB and half the free "
                    f"GPU memory)")
    return counts, ""


def _set_bytes(p: Prepared) -> int:
    return sum(b.nbytes for b in p.buffers.values()) + sum(b.nbytes for b, _, _ in p.scratch.values())


def _steady(runner: CheckRunner, task: Task, shape, request: BenchRequest, si: int, prepared: list[list[Prepared]],
            cases, steady_cap: float) -> tuple[list[list[Prepared]], str]:
    """Per entry, its steady-state sets (inputs copied from the cases, in turn), or none and why. The caller releases
    them."""
    from .session import CudaError

    none = [[] for _ in prepared]
    if steady_cap <= 0:
        return none, "steady state turned off (steady_max_time = 0)"
    sizes = [_set_bytes(sets[0]) for sets in prepared]
    counts, why = steady_plan(sizes, runner.gpu.attribute("L2_CACHE_SIZE"), runner.gpu.free_memory())
    if why:
        return none, why
    out: list[list[Prepared]] = []
    try:
        for entry, n in zip(request.entries, counts):
            out.append([])
            for k in range(n):
                p = runner.prepare(task, shape, entry.cubin, entry.plans[si], entry.name)
                out[-1].append(p)
                runner.reset_outputs(task, p, cases[k % len(cases)])
    except BaseException as exc:
        for sets in out:
            for p in sets:
                runner.release(p)
        if isinstance(exc, CudaError) and exc.name == "CUDA_ERROR_OUT_OF_MEMORY":
            return none, f"steady state not measured: out of GPU memory preparing its {sum(counts)} sets"
        raise
    return out, ""


def run_bench(runner: CheckRunner, request: BenchRequest, phase) -> dict:
    """Time every entry (baseline, candidate...) at each shape, interleaved, on the same rotating input sets."""
    from .. import _harness

    task = request.task
    options = harness_options(runner.gpu, request.options, request.flush, request.cupti_library)
    defaults = _harness.defaults()
    max_time = options.get("max_time") or defaults["max_time"]  # for the phase's time limit
    steady_cap = options.get("steady_max_time")
    steady_cap = min(defaults["steady_max_time"] if steady_cap is None else steady_cap, max_time)
    warnings = gpu_activity_warnings(runner.gpu.pci_bus_id(), own_work_recent=runner.gpu.launched)
    runner.keep_cases(request.seeds)
    shapes_out = []
    for si, shape in enumerate(request.shapes):
        phase("reference")
        cases = [runner.case(task, shape, seed) for seed in request.seeds]
        phase("setup")
        prepared: list[list[Prepared]] = []
        steady: list[list[Prepared]] = []
        try:
            for entry in request.entries:
                sets = []
                for case in cases:
                    p = runner.prepare(task, shape, entry.cubin, entry.plans[si], entry.name)
                    runner.reset_outputs(task, p, case)
                    sets.append(p)
                prepared.append(sets)
            steady, steady_why = _steady(runner, task, shape, request, si, prepared, cases, steady_cap)
            benches = []
            for sets, more in zip(prepared, steady):
                launches = []
                for li, (fn, lp, _) in enumerate(sets[0].launches):
                    launches.append({"function": int(fn), "grid": list(lp.grid), "block": list(lp.block),
                                     "smem": lp.smem, "cluster": list(lp.cluster) if lp.cluster else None,
                                     "stream": lp.stream, "params": [p.launches[li][2].address for p in sets],
                                     "steady_params": [p.launches[li][2].address for p in more]})
                benches.append({"launches": launches, "resets": [_resets(task, p) for p in sets],
                                "steady_resets": [_scratch_resets(p) for p in more]})
            runner.gpu.synchronize("input upload")
            limit = (max_time + steady_cap) * len(benches) * 2 + request.kernel_timeout + 30
            phase("timing", limit)
            measured = measure(benches, {**options, "steady_max_time": steady_cap})
            phase("compare")
            for entry, sets, more, m in zip(request.entries, prepared, steady, measured):
                m["name"] = entry.name
                m["declared"] = sorted({lp.lowered for _, lp, _ in sets[0].launches})
                m["diagnostics"] = _validate(task, shape, sets, cases, entry.name, runner)
                m["steady_sets"], m["steady_set_bytes"] = len(more), _set_bytes(sets[0])
                m["steady_note"] = m.get("steady_note") or steady_why
        finally:
            for sets in prepared + steady:
                for p in sets:
                    runner.release(p)
        shapes_out.append({"shape": shape.label, "entries": measured})
    return {"shapes": shapes_out, "warnings": warnings}


def _validate(task, shape, sets, cases, name, runner) -> list[dict]:
    """Outputs left by the last timed sample of each input set must still match the reference: a kernel that caches
    results across calls (and skips the work) leaves the poison written before the sample."""
    for p, case in zip(sets, cases):
        reports, _, _ = runner.compare_outputs(task, shape, p, case, shape.label, name)
        for a, rep in zip([a for a in task.args if a.is_output], reports):
            if a.role == "inout" or rep.ok:  # an inout buffer was updated by every sample: nothing to compare
                continue
            return [RULES["timing.output-invalid"].diag(
                f"after timing, {a.name} at {shape.label} no longer matches the reference ({rep.unwritten} "
                f"elements unwritten, {rep.mismatches} out of tolerance): the kernel's work in the timed runs "
                f"differs from the checked run (cached results or state kept between calls); the timing is void",
                Location(name, 1, role="candidate")).to_dict()]
    return []
