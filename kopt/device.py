"""What GPU this process can see, asked of the CUDA driver without creating a context."""
from __future__ import annotations

import functools
import os
import threading
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass

from .archs import arch_for_cc, use_device_limits

DEFAULT_ARCH = "sm_90"


@dataclass(frozen=True)
class GpuInfo:
    name: str
    cc: tuple[int, int]
    driver_version: int  # e.g. 13000
    sm_count: int
    l2_bytes: int

    @property
    def driver(self) -> str:
        return f"{self.driver_version // 1000}.{self.driver_version % 1000 // 10}"


def c_text(raw) -> str:
    """A C string the driver filled (bytes up to the first NUL) as text."""
    if isinstance(raw, (bytes, bytearray)):
        raw = bytes(raw).split(b"\0", 1)[0].decode(errors="replace")
    return str(raw).split("\0", 1)[0]


# the GPU an evaluator pool's slot holds (kopt.pool), for the code that asks "which GPU?" while it evaluates there
_slot_gpu: ContextVar[GpuInfo | None] = ContextVar("kopt_slot_gpu", default=None)


@contextmanager
def evaluating_on(info: GpuInfo):
    """Within this block (in this thread), ``probe()`` answers ``info``: the GPU of the pool slot that evaluates,
    which may not be this process's device 0 (another local GPU, or one on another Ray node)."""
    token = _slot_gpu.set(info)
    try:
        yield
    finally:
        _slot_gpu.reset(token)


_probing: threading.Thread | None = None


def probe_in_background() -> None:
    """Start asking the driver now, in a thread, so that the answer is ready when ``probe()`` is called: ``cuInit``
    takes ~0.1 s, which then overlaps the command's imports (the driver call releases the GIL)."""
    global _probing
    if _probing is None:
        _probing = threading.Thread(target=_probe, daemon=True)
        _probing.start()


def probe() -> tuple[GpuInfo | None, str]:
    """(info, reason). ``info`` is None when no driver or GPU is usable; ``reason`` says why."""
    slot = _slot_gpu.get()
    if slot is not None:
        return slot, ""
    if _probing is not None:
        _probing.join()  # the background probe has cached its answer
    return _probe()


@functools.lru_cache(maxsize=None)
def _probe() -> tuple[GpuInfo | None, str]:
    try:
        from cuda.bindings import driver as cu
    except Exception as exc:  # cuda-bindings missing or broken
        return None, f"cuda-bindings unavailable: {exc}"
    try:
        (err,) = cu.cuInit(0)
        if err != cu.CUresult.CUDA_SUCCESS:
            return None, f"CUDA driver unavailable ({err.name})"
        err, count = cu.cuDeviceGetCount()
        if err != cu.CUresult.CUDA_SUCCESS or count == 0:
            return None, "no CUDA GPU visible"
        err, dev = cu.cuDeviceGet(0)
        attr = cu.CUdevice_attribute
        vals = {}
        for key, a in (("major", attr.CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR),
                       ("minor", attr.CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR),
                       ("sms", attr.CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT),
                       ("l2", attr.CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE)):
            _, vals[key] = cu.cuDeviceGetAttribute(a, dev)
        _, raw_name = cu.cuDeviceGetName(256, dev)
        _, drv = cu.cuDriverGetVersion()
        name = c_text(raw_name)
        return GpuInfo(name, (vals["major"], vals["minor"]), drv, vals["sms"], vals["l2"]), ""
    except Exception as exc:  # libcuda not loadable: no driver on this machine
        return None, f"CUDA driver unavailable: {exc}"


def require_gpu(what: str) -> GpuInfo:
    """The GPU, or a one-line ``GpuUnavailableError`` saying that ``what`` needs one and why there is none."""
    from .errors import GpuUnavailableError

    info, why = probe()
    if info is None:
        raise GpuUnavailableError(f"{what} needs a GPU: {why}")
    return info


def default_arch() -> str:
    """``KOPT_ARCH`` if set, else the current GPU's arch, else sm_90."""
    env = os.environ.get("KOPT_ARCH")
    if env:
        return env
    info, _ = probe()
    if info is None:
        return DEFAULT_ARCH
    try:
        return arch_for_cc(*info.cc)
    except Exception:
        return DEFAULT_ARCH


def device_limits(arch: str):
    """The present GPU's own limits (``ArchLimits``) when ``arch`` targets its compute capability, else None.
    Read from device attributes (no context is created); what the driver does not report (register allocation
    granularity, shared-memory allocation unit, registers per thread) stays at the documented values."""
    from .archs import base

    info, _ = probe()
    if info is None or base(arch) != f"sm_{info.cc[0]}{info.cc[1]}":
        return None
    try:
        return _read_limits(arch, info.cc)
    except Exception:  # the driver stopped answering: the documented limits still hold
        return None


@functools.lru_cache(maxsize=None)
def _read_limits(arch: str, cc: tuple[int, int]):
    from cuda.bindings import driver as cu

    from .archs import ArchLimits, _BASE

    attr = cu.CUdevice_attribute
    _, dev = cu.cuDeviceGet(0)
    names = {
        "max_threads_per_sm": attr.CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR,
        "max_blocks_per_sm": attr.CU_DEVICE_ATTRIBUTE_MAX_BLOCKS_PER_MULTIPROCESSOR,
        "max_threads_per_block": attr.CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK,
        "regs_per_sm": attr.CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_MULTIPROCESSOR,
        "regs_per_block": attr.CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_BLOCK,
        "smem_per_sm": attr.CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR,
        "smem_per_block_optin": attr.CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN,
        "smem_per_block_default": attr.CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK,
        "smem_reserved_per_block": attr.CU_DEVICE_ATTRIBUTE_RESERVED_SHARED_MEMORY_PER_BLOCK,
        "warp_size": attr.CU_DEVICE_ATTRIBUTE_WARP_SIZE,
    }
    values = {}
    for key, a in names.items():
        err, v = cu.cuDeviceGetAttribute(a, dev)
        if err != cu.CUresult.CUDA_SUCCESS:
            return None
        values[key] = v
    return ArchLimits(name=arch, cc=cc, **{**_BASE, **values})


def device_constants(arch: str | None):
    """(SMs, L2 bytes, name, arch) of the present GPU when ``arch`` (None: any) targets its compute capability, for
    launch expressions (``kopt.archs.device_constants``); None otherwise. The worker runs on the same device 0."""
    from .archs import base

    info, _ = probe()
    if info is None:
        return None
    own = f"sm_{info.cc[0]}{info.cc[1]}"
    if arch is not None and base(arch) != own:
        return None
    return info.sm_count, info.l2_bytes, info.name, own


use_device_limits(device_limits, device_constants)
