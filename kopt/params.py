"""Kernel parameters: whether a resolved launch fits the compiled kernel's parameter list, and the bytes of each
scalar. The same rules run on the CPU (``kopt validate``, sizes from the PTX) and in the worker (sizes from the
loaded cubin)."""
from __future__ import annotations

import ctypes
import struct

import numpy as np

from .dtypes import dtype
from .plan import LaunchPlan

_PACK = {"f32": "<f", "f64": "<d", "i32": "<i", "i64": "<q", "u32": "<I", "u64": "<Q", "i16": "<h", "u16": "<H",
         "i8": "<b", "u8": "<B"}
POINTER_BYTES, TENSORMAP_BYTES = 8, 128


class LaunchSpecError(Exception):
    """The declared launch does not fit the compiled kernel (parameter count or sizes)."""


def scalar_bytes(value, ctype: str | None, size: int, what: str) -> bytes:
    """A value argument packed for a parameter of ``size`` bytes: as ``ctype`` when the launch casts it, else an
    integer of the parameter's size (a fractional value: a float of that size)."""
    if ctype is None:
        if isinstance(value, float) and not float(value).is_integer():
            ctype = "f32" if size == 4 else "f64"
        else:
            ctype = {4: "i32", 8: "i64", 2: "i16", 1: "i8"}.get(size)
            if ctype is None:
                raise LaunchSpecError(f"{what}: the kernel parameter is {size} bytes; pass a buffer or a tensormap")
            value = int(value)
    if ctype == "bf16":
        return struct.pack("<H", int(dtype("bf16").from_float64(np.array([value], np.float64))[0]))
    if ctype == "f16":
        return np.array([value], np.float16).tobytes()
    try:
        data = struct.pack(_PACK[ctype], float(value) if ctype.startswith("f") else int(value))
    except struct.error as exc:
        raise LaunchSpecError(f"{what}: {value!r} does not fit a {ctype}: {exc}")
    if len(data) != size:
        raise LaunchSpecError(f"{what}: passes a {ctype} ({len(data)} bytes) but the kernel parameter is {size} bytes")
    return data


def pack_launch(lp: LaunchPlan, sizes: list[int], candidate: str, arg_bytes) -> PackedParams:
    """The parameters of one planned launch, checked against the kernel's parameter ``sizes``: values packed to their
    size, every other argument (a buffer's or scratch's address, a tensor map) as ``arg_bytes(ref)`` gives it."""
    check_launch(lp, sizes, candidate)
    return PackedParams([scalar_bytes(ref.value, ref.ctype, size, f"argument {i + 1}") if ref.kind == "value"
                         else arg_bytes(ref) for i, (ref, size) in enumerate(zip(lp.args, sizes))])


def check_launch(lp: LaunchPlan, sizes: list[int], candidate: str) -> None:
    """Raise ``LaunchSpecError`` when ``lp``'s arguments do not match the kernel's parameter ``sizes``."""
    where = f"{candidate}:{lp.line}: launch {lp.kernel}"
    if len(sizes) != len(lp.args):
        raise LaunchSpecError(f"{where} passes {len(lp.args)} arguments but the kernel takes {len(sizes)} "
                              f"(parameter sizes {list(sizes)} bytes)")
    for i, (ref, size) in enumerate(zip(lp.args, sizes)):
        what = f"{where} argument {i + 1} ({ref.name or ref.value})"
        if ref.kind in ("buffer", "scratch") and size != POINTER_BYTES:
            raise LaunchSpecError(f"{what}: a pointer is 8 bytes but the kernel parameter is {size}")
        if ref.kind == "tensormap" and size != TENSORMAP_BYTES:
            raise LaunchSpecError(f"{what}: a CUtensorMap is 128 bytes but the kernel parameter is {size}; declare "
                                  f"it `const __grid_constant__ CUtensorMap`")
        if ref.kind == "value":
            scalar_bytes(ref.value, ref.ctype, size, what)


class PackedParams:
    """Kernel parameters laid out for cuLaunchKernel: one aligned slot per parameter and a void** array."""

    def __init__(self, values: list[bytes]):
        self._slots = []
        for v in values:
            # 64-byte alignment covers CUtensorMap (128 bytes, 64-aligned) and every scalar.
            raw = ctypes.create_string_buffer(len(v) + 64)
            addr = (ctypes.addressof(raw) + 63) & ~63
            ctypes.memmove(addr, v, len(v))
            self._slots.append((raw, addr))
        self._array = (ctypes.c_void_p * max(len(values), 1))(*[a for _, a in self._slots])

    @property
    def address(self) -> int:
        return ctypes.addressof(self._array)
