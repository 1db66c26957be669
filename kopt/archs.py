"""Per-architecture limits used for occupancy and launch checks (CUDA programming guide, compute capabilities)."""
from __future__ import annotations

from dataclasses import dataclass

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
_TABLE = {
    "sm_80": dict(cc=(8, 0), max_threads_per_sm=2048, max_blocks_per_sm=32, smem_per_sm=164 * KB, smem_per_block_optin=163 * KB),
    "sm_86": dict(cc=(8, 6), max_threads_per_sm=1536, max_blocks_per_sm=16, smem_per_sm=100 * KB, smem_per_block_optin=99 * KB),
    "sm_89": dict(cc=(8, 9), max_threads_per_sm=1536, max_blocks_per_sm=24, smem_per_sm=100 * KB, smem_per_block_optin=99 * KB),
    "sm_90": dict(cc=(9, 0), max_threads_per_sm=2048, max_blocks_per_sm=32, smem_per_sm=228 * KB, smem_per_block_optin=227 * KB),
    "sm_100": dict(cc=(10, 0), max_threads_per_sm=2048, max_blocks_per_sm=32, smem_per_sm=228 * KB, smem_per_block_optin=227 * KB),
}
SUPPORTED = ("sm_80", "sm_86", "sm_89", "sm_90", "sm_90a", "sm_100a")


def limits(arch: str) -> ArchLimits:
    """Limits for ``arch``; an ``a``/``f`` suffix shares its base architecture's limits."""
    if arch not in SUPPORTED:
        raise InputError(f"unknown arch {arch!r}: expected one of {', '.join(SUPPORTED)}")
    base = arch.rstrip("af") if arch.endswith(("a", "f")) else arch
    return ArchLimits(name=arch, **_BASE, **_TABLE[base])


def arch_for_cc(major: int, minor: int) -> str:
    name = f"sm_{major}{minor}"
    if name in SUPPORTED:
        return name
    if f"{name}a" in SUPPORTED:
        return f"{name}a"
    raise InputError(f"GPU compute capability {major}.{minor} is not supported (supported: {', '.join(SUPPORTED)})")
