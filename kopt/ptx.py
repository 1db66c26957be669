"""What the PTX that NVRTC returns says about each kernel entry: its parameter sizes, read on the CPU."""
from __future__ import annotations

import re

_ENTRY = re.compile(r"\.entry\s+([\w$.]+)\s*\((.*?)\)", re.S)
_PARAM = re.compile(r"\.param\s+(?:\.align\s+\d+\s+)?(?:\.ptr\s+\S+\s+(?:\.align\s+\d+\s+)?)?"
                    r"\.([bsuf])(8|16|32|64)\s+[\w$.]+(?:\s*\[(\d+)\])?")


def entry_params(ptx: str) -> dict[str, list[int]]:
    """Lowered entry name -> the size in bytes of each parameter, in order."""
    out = {}
    for m in _ENTRY.finditer(ptx or ""):
        sizes = []
        for decl in m.group(2).split(","):
            p = _PARAM.search(decl)
            if p:
                sizes.append(int(p.group(2)) // 8 * int(p.group(3) or 1))
        out[m.group(1)] = sizes
    return out
