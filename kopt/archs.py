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
MB = 1024 * KB
# Whole-device figures that launch expressions may use (``num_sms``, ``l2_bytes``), per architecture, for when no GPU
# of that architecture is present: one documented product per architecture, as its CUDA device attributes read.
# Other products of the same architecture differ (H100 PCIe has 114 SMs, RTX 3090 82): ``--num-sms`` / ``--l2-bytes``
# set the values, and every launch that uses one says which value it assumed. None: no default (pass the option).
_DEVICE_DEFAULTS = {
    "sm_75": (40, 4 * MB, "Tesla T4"),
    "sm_80": (108, 40 * MB, "A100"),
    "sm_86": (72, 6 * MB, "A10"),
    "sm_87": (16, 4 * MB, "Jetson AGX Orin"),
    "sm_89": (58, 48 * MB, "L4"),
    "sm_90": (132, 50 * MB, "H100 SXM / H200"),
    "sm_100": (148, None, "B200"),
    "sm_120": (170, 96 * MB, "GeForce RTX 5090"),
}
_NAME = re.compile(r"sm_(\d+)([af]?)")
# The present GPU's own limits for a target (or None), and its own constants (see ``device_constants``), installed by
# kopt.device when it is imported, so that this module, part of kopt's vocabulary, never touches the driver itself.
_device_limits: Callable[[str], "ArchLimits | None"] | None = None
# (SMs, L2 bytes, GPU name, its arch) of the present GPU when the arch asked for (None: any) is its own
_device_constants: Callable[[str | None], "tuple[int, int, str, str] | None"] | None = None


def use_device_limits(reader: Callable[[str], "ArchLimits | None"],
                      constants: Callable[[str | None], "tuple[int, int, str, str] | None"] | None = None) -> None:
    global _device_limits, _device_constants
    _device_limits, _device_constants = reader, constants


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


CONSTANT_NAMES = ("num_sms", "l2_bytes", "max_smem_per_block")
_OPTION = {"num_sms": "--num-sms", "l2_bytes": "--l2-bytes", "max_smem_per_block": "--max-smem-per-block"}


@dataclass(frozen=True)
class DeviceConstants:
    """The device figures launch expressions see: ``num_sms`` (streaming multiprocessors), ``l2_bytes`` (L2 cache
    size) and ``max_smem_per_block`` (the most shared memory one block can opt into, static included). ``values``
    holds those known; ``origin`` says, per name, where its value came from (or why there is none)."""

    values: dict
    origin: dict

    def env(self) -> dict:
        return dict(self.values)

    def describe(self, name: str) -> str:
        """``"num_sms = 132 (sm_90 default: H100 SXM / H200; --num-sms sets it)"``"""
        if name not in self.values:
            return f"{name} unknown ({self.origin.get(name, 'no value')})"
        return f"{name} = {self.values[name]} ({self.origin[name]})"


def device_constants(arch: str | None, overrides: dict | None = None) -> DeviceConstants:
    """The constants for ``arch`` (None: the present GPU's, else sm_90's): read from the GPU when one of that
    architecture is present, else the documented default of the architecture; ``overrides`` ({name: int}, from the
    command line) win. A name without any value is left out of ``values`` (an expression using it then says so)."""
    overrides = {k: v for k, v in (overrides or {}).items() if v is not None}
    for k, v in overrides.items():
        if k not in CONSTANT_NAMES:
            raise InputError(f"unknown device constant {k!r} (known: {', '.join(CONSTANT_NAMES)})")
        if isinstance(v, bool) or not isinstance(v, int) or v <= 0:
            raise InputError(f"{_OPTION[k]} must be a positive integer, got {v!r}")
    present = _device_constants(arch) if _device_constants else None
    arch = arch or (present[3] if present else "sm_90")
    values, origin = {}, {}
    if present is not None:
        sms, l2, name, _ = present
        values.update(num_sms=sms, l2_bytes=l2)
        origin.update(num_sms=f"the GPU: {name}", l2_bytes=f"the GPU: {name}")
    else:
        sms, l2, product = _DEVICE_DEFAULTS.get(base(arch), (None, None, None))
        for key, v in (("num_sms", sms), ("l2_bytes", l2)):
            if v is not None:
                values[key] = v
                origin[key] = f"{base(arch)} default: {product}; {_OPTION[key]} sets it"
            else:
                origin[key] = f"no default for {base(arch)} and no such GPU here; {_OPTION[key]} sets it"
    try:
        lim = limits(arch)
        values["max_smem_per_block"] = lim.smem_per_block_optin
        origin["max_smem_per_block"] = ("the GPU" if present is not None else f"{base(arch)} limit") \
            + f"; {_OPTION['max_smem_per_block']} sets it"
    except InputError:
        origin["max_smem_per_block"] = f"no limits known for {arch}; {_OPTION['max_smem_per_block']} sets it"
    for k, v in overrides.items():
        values[k], origin[k] = v, f"given: {_OPTION[k]}"
    return DeviceConstants(values, origin)
