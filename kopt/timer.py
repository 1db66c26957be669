"""``kopt.time``: kopt's cold, CUPTI-based timing of a ``kopt.launch`` or of any Python function that runs GPU work,
in the caller's process — a rigorous replacement for ``triton.testing.do_bench``.

Each sample: L2 flushed by a read of twice its size (``cold=False``: not flushed), then the launch (from the C++
harness, no Python between samples) or the function (called from the harness with the GIL held). With CUPTI the
sample is the GPU span of every kernel the work ran, on every stream (for a function, memsets too), so Python and
launch overhead are not counted; without it, CUDA events, and the measurement says so. Samples taken while the SM
clock was throttled are discarded; sampling stops by the named criterion (``stop``) or the caps. The result is a
``Measurement``: median, its 95 % CI, the method, why sampling stopped, every kernel that ran.

The same in-process caveat as ``kopt.launch``: a kernel that faults leaves the caller's CUDA context unusable.
"""
from __future__ import annotations

from .errors import InputError, ToolchainError
from .launcher import Launch, _context, _function_from_cubin
from .measurement import Measurement
from .stats import summarize


def time(target, *, cold: bool = True, stop: str | None = None, max_time: float | None = None,
         options: dict | None = None) -> Measurement:
    """Time ``target``: a ``kopt.launch``/``kopt.prepare`` result, or a function of no arguments that issues GPU work
    (a torch op, a triton kernel, a cupy expression). ``stop``: a stopping criterion ``NAME[:key=value,...]`` (see
    ``kopt bench --help``); ``max_time``: seconds of sampling at most; ``options``: any other harness option
    (``_harness.defaults()``). Raises what the function raised, if it raised."""
    try:
        from . import _harness as harness
    except ImportError as exc:
        raise ToolchainError(f"kopt's timing harness (kopt._harness) is not built or not loadable: {exc}") from None
    opts = dict(options or {})
    if stop is not None:
        from .cli._common import parse_stop

        opts.update(parse_stop(stop))
    if max_time is not None:
        opts["max_time"] = float(max_time)
    opts["flush_l2"] = bool(cold)
    failure: list[BaseException] = []
    if isinstance(target, Launch):
        name = target.kernel
        bench = {"launches": [{"function": int(target.function), "grid": list(target.grid),
                               "block": list(target.block), "smem": target.smem, "stream": 0,
                               "params": [target.params.address]}],
                 "resets": [[]]}
    elif callable(target):
        name = getattr(target, "__name__", type(target).__name__)

        def call() -> bool:
            try:
                target()
                return True
            except BaseException as exc:  # kept and raised again once the harness has stopped
                failure.append(exc)
                return False

        bench = {"launches": [], "resets": [[]], "call": call}
    else:
        raise InputError(f"kopt.time needs a kopt.launch result or a function, got a {type(target).__name__}")
    _context([])
    opts.update(_flush_options())
    try:
        [result] = harness.measure([bench], opts)
    except ValueError as exc:
        raise InputError(f"kopt.time: {exc}") from None
    except RuntimeError:
        if failure:
            raise failure[0]
        raise
    samples = result["samples_us"]
    m = Measurement(name, summarize(samples, result["discarded_clock"]) if samples else None, result["method"],
                    result["method_note"], result["stop_reason"], result["discarded_clock"], result["kernels"],
                    cold=bool(cold), samples_us=samples)
    if not cold:
        m.method_note = "; ".join(filter(None, [m.method_note, "warm: L2 not flushed between samples"]))
    m.steady_note = ("not measured: steady state rotates over buffer sets kopt allocates (kopt bench), and "
                     "kopt.time runs on the caller's own buffers")
    if m.summary is None:
        m.valid = False
        m.method_note = "; ".join(filter(None, [m.method_note, "nothing was timed: no sample recorded GPU work "
                                                "(kernels, memsets or memcpys) on the GPU"]))
    return m


def _flush_options() -> dict:
    """The L2 flush kernel (kopt's own, compiled for this GPU) loaded in the caller's context, and libcupti."""
    from cuda.bindings import driver as cu

    from .device import default_arch
    from .flush import cupti_library, flush_kernel

    kernel = flush_kernel(default_arch())
    fn = _function_from_cubin(kernel.cubin, kernel.name)
    err, dev = cu.cuCtxGetDevice()
    err, sms = cu.cuDeviceGetAttribute(cu.CUdevice_attribute.CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, dev)
    return {"flush_function": int(fn), "flush_grid": int(sms) * 8, "cupti_library": cupti_library() or ""}
