"""Theoretical occupancy from a kernel's resources, the block size and dynamic shared memory.

Follows the CUDA occupancy calculator's rules: registers allocated per warp in units of ``reg_alloc_unit`` and per
sub-partition, shared memory per block rounded up to the allocation unit plus a per-block reservation.
"""
from __future__ import annotations

from dataclasses import asdict, dataclass

from .archs import ArchLimits, limits
from .errors import InputError


def _round_up(x: int, unit: int) -> int:
    return -(-x // unit) * unit


@dataclass(frozen=True)
class Occupancy:
    arch: str
    block_size: int
    dynamic_smem: int
    blocks_per_sm: int
    warps_per_sm: int
    max_warps_per_sm: int
    limiter: str  # "registers" | "shared memory" | "warps" | "blocks" | "cannot launch: ..."
    limits_by_resource: dict

    @property
    def fraction(self) -> float:
        return self.warps_per_sm / self.max_warps_per_sm

    def to_dict(self) -> dict:
        return {**asdict(self), "fraction": round(self.fraction, 4)}


def occupancy(arch: str | ArchLimits, *, block_size: int, registers: int, static_smem: int = 0,
              dynamic_smem: int = 0) -> Occupancy:
    lim = arch if isinstance(arch, ArchLimits) else limits(arch)
    if block_size <= 0:
        raise InputError(f"block size must be positive, got {block_size}")
    warps_per_block = -(-block_size // lim.warp_size)
    by: dict[str, int] = {}
    reasons = []

    by["blocks"] = lim.max_blocks_per_sm
    by["warps"] = lim.max_warps_per_sm // warps_per_block
    if block_size > lim.max_threads_per_block:
        reasons.append(f"block of {block_size} threads exceeds {lim.max_threads_per_block}")

    regs_per_warp = _round_up(max(registers, 1) * lim.warp_size, lim.reg_alloc_unit)
    assumed = regs_per_warp * _round_up(warps_per_block, lim.sub_partitions)
    if registers > lim.max_regs_per_thread or assumed > lim.regs_per_block:
        by["registers"] = 0
        reasons.append(f"{registers} registers x {block_size} threads exceed the {lim.regs_per_block} per block")
    else:
        warps_per_sub = (lim.regs_per_sm // lim.sub_partitions) // regs_per_warp
        by["registers"] = (warps_per_sub * lim.sub_partitions) // warps_per_block

    smem = static_smem + dynamic_smem
    if smem > lim.smem_per_block_optin:
        by["shared memory"] = 0
        reasons.append(f"{smem} B shared memory per block exceeds {lim.smem_per_block_optin} B")
    else:
        per_block = _round_up(smem + lim.smem_reserved_per_block, lim.smem_alloc_unit)
        by["shared memory"] = lim.smem_per_sm // per_block

    blocks = min(by.values())
    # Name the tightest limit; on ties prefer the resource a kernel author can change.
    order = ["registers", "shared memory", "warps", "blocks"]
    limiter = min(order, key=lambda k: (by[k], order.index(k)))
    if blocks == 0:
        limiter = "cannot launch: " + "; ".join(reasons or [f"{limiter} limit"])
    return Occupancy(lim.name, block_size, dynamic_smem, blocks, blocks * warps_per_block, lim.max_warps_per_sm,
                     limiter, by)
