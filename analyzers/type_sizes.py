"""The byte size of each built-in, fixed-width, half-precision and vector type kopt knows by name: one table for
the builder (element sizes when libclang gives none), the tree-sitter fallback and the host-side ``sizeof``."""
from __future__ import annotations

import re

TYPE_SIZES = {
    "bool": 1, "char": 1, "signed char": 1, "unsigned char": 1, "uchar": 1, "int8_t": 1, "uint8_t": 1,
    "short": 2, "unsigned short": 2, "ushort": 2, "int16_t": 2, "uint16_t": 2,
    "half": 2, "__half": 2, "nv_bfloat16": 2, "__nv_bfloat16": 2, "bf16": 2,
    "int": 4, "unsigned": 4, "unsigned int": 4, "uint": 4, "int32_t": 4, "uint32_t": 4, "float": 4,
    "half2": 4, "__half2": 4, "nv_bfloat162": 4, "__nv_bfloat162": 4, "uchar4": 4, "char4": 4,
    "long": 8, "unsigned long": 8, "long long": 8, "unsigned long long": 8, "int64_t": 8, "uint64_t": 8,
    "size_t": 8, "double": 8, "float2": 8, "int2": 8, "uint2": 8,
    "float3": 12, "int3": 12,
    "float4": 16, "int4": 16, "uint4": 16, "double2": 16, "longlong2": 16,
    "double4": 32,
}

_UNSIGNED = re.compile(r"(?:(?:const|volatile)\s+)*(?:std::)?(?:unsigned\b.*|u(?:int(?:8|16|32|64)?|8|16|32|64)(?:_t)?|"
                       r"u(?:char|short|long|longlong)|size_t|__uint(?:8|16|32|64)_t)\s*(?:const\s*)?$")


def unsigned_integer(spelling: str) -> bool:
    """Whether ``spelling`` names an unsigned integer type (``unsigned``, ``uint32_t``, ``u8``, ``size_t``...)."""
    return bool(_UNSIGNED.match(spelling.strip()))
