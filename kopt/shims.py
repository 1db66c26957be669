"""kopt's standard-header shims (``kopt/include``: <stdint.h>, <cmath>, ...), last on every compile's include path so
that nvcc-style sources compile under NVRTC; ``kopt.compat`` says what is not supported."""
from __future__ import annotations

import hashlib
from functools import lru_cache
from pathlib import Path

SHIM_DIR = Path(__file__).parent / "include"


@lru_cache(maxsize=None)
def supported_headers() -> tuple[str, ...]:
    """The standard headers kopt's shims supply (CUDA's own headers come from the toolkit wheels)."""
    return tuple(sorted(p.name for p in SHIM_DIR.iterdir() if p.is_file()))


@lru_cache(maxsize=None)
def shim_fingerprint() -> str:
    """A hash of the shim headers: part of the compile cache key, so an edited shim recompiles."""
    h = hashlib.sha256()
    for name in supported_headers():
        h.update(name.encode() + b"\0" + (SHIM_DIR / name).read_bytes())
    return h.hexdigest()[:16]
