"""Per-architecture limits used for occupancy and launch checks (CUDA programming guide, compute capabilities)."""
from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from typing import Callable

from .errors import InputError


@dataclass(frozen=True)
class ArchLimits:
    name: str  # e.g. "sm_90a"
    cc: tuple[int, int]
    max_threads_per_sm: int
    max_blocks_per_sm: int
    max_threads_per_block: int
    regs_per_sm: int
    regs_per_block: int
    max_regs_per_thread: int
    reg_alloc_unit: int  # registers, allocated per warp
    smem_per_sm: int  # bytes, largest carveout
    smem_per_block_optin: int  # bytes, after raising the function's dynamic limit
    smem_per_block_default: int  # bytes, without opt-in
    smem_reserved_per_block: int  # bytes the system reserves per resident block
    smem_alloc_unit: int
    sub_partitions: int = 4
    warp_size: int = 32

    @property
    def max_warps_per_sm(self) -> int:
        return self.max_threads_per_sm // self.warp_size


KB = 1024
_BASE = dict(
    max_threads_per_block=1024, regs_per_sm=65536, regs_per_block=65536, max_regs_per_thread=255,
    reg_alloc_unit=256, smem_per_block_default=48 * KB, smem_reserved_per_block=1 * KB, smem_alloc_unit=128,
)
# Programming guide, "Compute Capabilities" table. Architectures NVRTC supports without a row here (sm_88, sm_107,
# sm_110 with NVRTC 13.5) still compile; occupancy for them is reported as unavailable unless a GPU of that
# architecture is present, whose own limits are then read (kopt.device.device_limits).
_TABLE = {
    "sm_75": dict(cc=(7, 5), max_threads_per_sm=1024, max_blocks_per_sm=16, smem_per_sm=64 * KB, smem_per_block_optin=64 * KB),
    "sm_80": dict(cc=(8, 0), max_threads_per_sm=2048, max_blocks_per_sm=32, smem_per_sm=164 * KB, smem_per_block_optin=163 * KB),
    "sm_86": dict(cc=(8, 6), max_threads_per_sm=1536, max_blocks_per_sm=16, smem_per_sm=100 * KB, smem_per_block_optin=99 * KB),
    "sm_87": dict(cc=(8, 7), max_threads_per_sm=1536, max_blocks_per_sm=16, smem_per_sm=164 * KB, smem_per_block_optin=163 * KB),
    "sm_89": dict(cc=(8, 9), max_threads_per_sm=1536, max_blocks_per_sm=24, smem_per_sm=100 * KB, smem_per_block_optin=99 * KB),
    "sm_90": dict(cc=(9, 0), max_threads_per_sm=2048, max_blocks_per_sm=32, smem_per_sm=228 * KB, smem_per_block_optin=227 * KB),
    "sm_100": dict(cc=(10, 0), max_threads_per_sm=2048, max_blocks_per_sm=32, smem_per_sm=228 * KB, smem_per_block_optin=227 * KB),
    "sm_103": dict(cc=(10, 3), max_threads_per_sm=2048, max_blocks_per_sm=32, smem_per_sm=228 * KB, smem_per_block_optin=227 * KB),
    "sm_120": dict(cc=(12, 0), max_threads_per_sm=1536, max_blocks_per_sm=32, smem_per_sm=100 * KB, smem_per_block_optin=99 * KB),
    "sm_121": dict(cc=(12, 1), max_threads_per_sm=1536, max_blocks_per_sm=32, smem_per_sm=100 * KB, smem_per_block_optin=99 * KB),
}
_NAME = re.compile(r"sm_(\d+)([af]?)")
# The present GPU's own limits for a target (or None), installed by kopt.device when it is imported, so that this
# module, part of kopt's vocabulary, never touches the driver itself.
_device_limits: Callable[[str], "ArchLimits | None"] | None = None


def use_device_limits(reader: Callable[[str], "ArchLimits | None"]) -> None:
    global _device_limits
    _device_limits = reader


class NoLimits(InputError):
    """``arch`` compiles, but kopt has no limits for it (no table row and no such GPU here): occupancy and the
    launch-limit checks are unavailable."""


@functools.lru_cache(maxsize=None)
def nvrtc_archs() -> tuple[int, ...]:
    """The architectures this NVRTC compiles for, as numbers (75, 80, ... 121), asked of NVRTC itself."""
    from cuda.bindings import nvrtc

    err, archs = nvrtc.nvrtcGetSupportedArchs()
    if err != nvrtc.nvrtcResult.NVRTC_SUCCESS:
        from .errors import ToolchainError

        raise ToolchainError(f"nvrtcGetSupportedArchs failed: {err.name}")
    return tuple(archs)


def supported() -> tuple[str, ...]:
    """Every target kopt offers: each NVRTC architecture, its architecture-specific ``a`` variant from sm_90 on and
    its family ``f`` variant from sm_100 on (NVRTC has no sm_90f)."""
    out = []
    for n in nvrtc_archs():
        out.append(f"sm_{n}")
        out += [f"sm_{n}a"] if n >= 90 else []
        out += [f"sm_{n}f"] if n >= 100 else []
    return tuple(out)


def check(arch: str) -> str:
    """``arch`` when it names an NVRTC architecture (with an ``a``/``f`` suffix from sm_90 on); an InputError
    listing the supported targets otherwise. Whether NVRTC accepts that variant is NVRTC's call
    (``compile.unsupported-arch``)."""
    m = _NAME.fullmatch(str(arch))
    if not m or int(m.group(1)) not in nvrtc_archs() or (m.group(2) and int(m.group(1)) < 90):
        raise InputError(f"unknown arch {arch!r}: this NVRTC supports {', '.join(supported())}")
    return arch


def base(arch: str) -> str:
    """``sm_90a`` -> ``sm_90``: the variants share their base architecture's limits."""
    return arch.rstrip("af")


def limits(arch: str) -> ArchLimits:
    """Limits for ``arch``: read from the GPU when one of that architecture is present, else the table. Raises
    NoLimits for an architecture NVRTC supports but neither knows, InputError for an unknown one."""
    check(arch)
    found = _device_limits(arch) if _device_limits else None
    if found is not None:
        return found
    row = _TABLE.get(base(arch))
    if row is None:
        raise NoLimits(f"occupancy unavailable for {arch}: kopt has no limits for it and no such GPU is present")
    return ArchLimits(name=arch, **_BASE, **row)


def limits_or_none(arch: str) -> ArchLimits | None:
    """``limits(arch)``, or None where no limits are known (NoLimits)."""
    try:
        return limits(arch)
    except NoLimits:
        return None


def arch_for_cc(major: int, minor: int) -> str:
    """The generic target for a GPU of compute capability ``major.minor`` (a candidate that needs the ``a`` variant
    says so with ``// kopt: arch``); an InputError when this NVRTC cannot compile for it."""
    n = major * 10 + minor
    if n not in nvrtc_archs():
        raise InputError(f"GPU compute capability {major}.{minor} is not supported by this NVRTC "
                         f"(it supports {', '.join(supported())})")
    return f"sm_{n}"
