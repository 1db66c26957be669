"""What the PTX that NVRTC returns says about each kernel entry: its parameter sizes, read on the CPU."""
from __future__ import annotations

import re

_ENTRY = re.compile(r"\.entry\s+([\w$.]+)\s*\((.*?)\)", re.S)
_PARAM = re.compile(r"\.param\s+(?:\.align\s+\d+\s+)?(?:\.ptr\s+\S+\s+(?:\.align\s+\d+\s+)?)?"
                    r"\.([bsuf])(8|16|32|64)\s+[\w$.]+(?:\s*\[(\d+)\])?")


def entry_params(ptx: str) -> dict[str, list[int]]:
    """Lowered entry name -> the size in bytes of each parameter, in order."""
    return {name: [size for _, size in params] for name, params in entry_param_types(ptx).items()}


def entry_param_types(ptx: str) -> dict[str, list[tuple[str, int]]]:
    """Lowered entry name -> (PTX type, size in bytes) of each parameter, in order: ``("f32", 4)``, ``("u64", 8)``
    (a pointer or a 64-bit integer), ``("b8", 128)`` (a struct or array passed by value)."""
    out = {}
    for m in _ENTRY.finditer(ptx or ""):
        params = []
        for decl in m.group(2).split(","):
            p = _PARAM.search(decl)
            if p:
                params.append((p.group(1) + p.group(2), int(p.group(2)) // 8 * int(p.group(3) or 1)))
        out[m.group(1)] = params
    return out
