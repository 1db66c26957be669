"""Element types kopt understands, with their numpy storage, poison patterns and default tolerances."""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from .errors import InputError

if TYPE_CHECKING:
    import numpy as np


@dataclass(frozen=True)
class DType:
    name: str
    storage_name: str  # numpy's name of how the bytes are held on the host (bf16 as uint16)
    itemsize: int
    is_float: bool
    poison: int  # bit pattern written into outputs before a run (NaN payloads for floats)
    rtol: float
    atol: float
    l2: float

    @property
    def storage(self) -> np.dtype:
        import numpy as np  # numpy is imported when data is handled, not by every command that names a dtype

        return np.dtype(self.storage_name)

    def to_float64(self, raw: np.ndarray) -> np.ndarray:
        """Host array of this dtype's storage -> float64 (bf16 widened through its float32 bits)."""
        import numpy as np

        if self.name == "bf16":
            return (raw.astype(np.uint32) << 16).view(np.float32).astype(np.float64)
        return raw.astype(np.float64)

    def from_float64(self, values: np.ndarray) -> np.ndarray:
        """float64 -> storage, rounding to nearest even for bf16."""
        import numpy as np

        if self.name == "bf16":
            bits = np.ascontiguousarray(values, dtype=np.float32).view(np.uint32)
            rounded = bits + 0x7FFF + ((bits >> 16) & 1)
            out = (rounded >> 16).astype(np.uint16)
            nan = np.isnan(values)
            out[nan] = 0x7FC0
            return out
        if self.is_float:
            return np.asarray(values, dtype=self.storage)
        return np.asarray(np.rint(values) if np.issubdtype(np.asarray(values).dtype, np.floating) else values).astype(self.storage)


_I = dict(is_float=False, rtol=0.0, atol=0.0, l2=0.0)
DTYPES = {d.name: d for d in [
    DType("f64", "float64", 8, True, 0x7FF8DEAD7FF8DEAD, 1e-9, 1e-12, 1e-10),
    DType("f32", "float32", 4, True, 0x7FC0DEAD, 1e-4, 1e-5, 1e-5),
    DType("f16", "float16", 2, True, 0x7E5A, 1e-2, 1e-3, 5e-3),
    DType("bf16", "uint16", 2, True, 0x7FDA, 2e-2, 1e-2, 1e-2),
    DType("i64", "int64", 8, poison=0x5A5A5A5A5A5A5A5A, **_I),
    DType("i32", "int32", 4, poison=0x5A5A5A5A, **_I),
    DType("i16", "int16", 2, poison=0x5A5A, **_I),
    DType("i8", "int8", 1, poison=0x5A, **_I),
    DType("u64", "uint64", 8, poison=0xA5A5A5A5A5A5A5A5, **_I),
    DType("u32", "uint32", 4, poison=0xA5A5A5A5, **_I),
    DType("u16", "uint16", 2, poison=0xA5A5, **_I),
    DType("u8", "uint8", 1, poison=0xA5, **_I),
]}
ALIASES = {"float": "f32", "float32": "f32", "double": "f64", "float64": "f64", "half": "f16", "float16": "f16",
           "bfloat16": "bf16", "int": "i32", "int32": "i32", "int64": "i64", "uint32": "u32", "uint8": "u8",
           "int8": "i8", "uint64": "u64", "int16": "i16", "uint16": "u16"}


def dtype(name: str) -> DType:
    key = ALIASES.get(str(name), str(name))
    if key not in DTYPES:
        raise InputError(f"unknown dtype {name!r}: expected one of {', '.join(DTYPES)}")
    return DTYPES[key]


def poison_array(dt: DType, shape) -> np.ndarray:
    """An array filled with the dtype's poison bit pattern (a NaN payload for floats)."""
    import numpy as np

    return np.full(shape, dt.poison, dtype=np.dtype(f"u{dt.itemsize}")).view(dt.storage)
