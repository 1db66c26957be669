"""Where the CUDA pieces live: headers and tools from pip wheels (cuda-pathfinder), else CUDA_HOME."""
from __future__ import annotations

import functools
import os
import re
import shutil
from dataclasses import dataclass
from pathlib import Path

from .errors import ToolchainError


def _cuda_home() -> Path | None:
    for candidate in (os.environ.get("CUDA_HOME"), os.environ.get("CUDA_PATH"), "/usr/local/cuda"):
        if candidate and Path(candidate, "include", "cuda_runtime.h").exists():
            return Path(candidate)
    return None


@functools.lru_cache(maxsize=None)
def cuda_include_dirs() -> tuple[str, ...]:
    """Include dirs for the CUDA runtime headers and CCCL (libcu++, CUB, Thrust), in search order."""
    dirs: list[str] = []
    try:
        import cuda.pathfinder as pf

        for lib in ("cccl", "cudart"):
            found = pf.find_nvidia_header_directory(lib)
            if found and found not in dirs:
                dirs.append(found)
    except Exception:  # pathfinder missing or broken: fall back below
        pass
    # A complete runtime header set includes the crt/ headers (nvidia-cuda-crt); a partial one (another package's
    # copy of cuda_runtime.h alone) is passed over for CUDA_HOME.
    complete = [d for d in dirs if Path(d, "cuda_runtime.h").exists() and Path(d, "crt", "mma.h").exists()]
    if not complete:
        dirs = [d for d in dirs if not Path(d, "cuda_runtime.h").exists()]
        home = _cuda_home()
        if home is None:
            raise ToolchainError(
                "CUDA headers not found: install the nvidia-cuda-runtime and nvidia-cuda-cccl wheels "
                "(pip install kopt pulls them) or set CUDA_HOME"
            )
        for sub in ("include/cccl", "include"):
            if Path(home, sub).is_dir():
                dirs.append(str(Path(home, sub)))
    return tuple(dirs)


@functools.lru_cache(maxsize=None)
def cutlass_include_dir() -> str | None:
    """CUTLASS/CuTe headers from the nvidia-cutlass wheel (extra ``kopt[cutlass]``), else CUTLASS_HOME."""
    try:
        import importlib.util

        spec = importlib.util.find_spec("cutlass_library")
        if spec and spec.submodule_search_locations:
            inc = Path(list(spec.submodule_search_locations)[0], "source", "include")
            if Path(inc, "cute", "tensor.hpp").exists():
                return str(inc)
    except Exception:
        pass
    home = os.environ.get("CUTLASS_HOME")
    if home and Path(home, "include", "cute", "tensor.hpp").exists():
        return str(Path(home, "include"))
    return None


@functools.lru_cache(maxsize=None)
def find_tool(name: str) -> str | None:
    """Path of a CUDA binary utility (nvdisasm, cuobjdump, ncu, compute-sanitizer), or None."""
    try:
        import cuda.pathfinder as pf

        found = pf.find_nvidia_binary_utility(name)
        if found:
            return found
    except Exception:
        pass
    home = _cuda_home()
    for candidate in ([str(Path(home, "bin", name))] if home else []) + [shutil.which(name) or ""]:
        if candidate and os.access(candidate, os.X_OK):
            return candidate
    return None


@functools.lru_cache(maxsize=None)
def cupti_library() -> str:
    """Path of libcupti (pip wheel, else CUDA_HOME via cuda-pathfinder); raises when there is none."""
    import cuda.pathfinder as pf

    return pf.load_nvidia_dynamic_lib("cupti").abs_path


_INSTALL = {"nvdisasm": "the nvidia-cuda-nvdisasm wheel", "cuobjdump": "the nvidia-cuda-cuobjdump wheel",
            "ncu": "Nsight Compute (CUDA toolkit)", "compute-sanitizer": "the CUDA toolkit"}


def require_tool(name: str) -> str:
    """Path of a CUDA tool, or a one-line ``ToolchainError`` saying how to get it."""
    path = find_tool(name)
    if path is None:
        raise ToolchainError(f"{name} not found: install {_INSTALL.get(name, 'the CUDA toolkit')} and put it on "
                             f"PATH, or set CUDA_HOME")
    return path


@functools.lru_cache(maxsize=None)
def cccl_version() -> str:
    for inc in cuda_include_dirs():
        version_h = Path(inc, "cuda", "std", "__cccl", "version.h")
        if version_h.exists():
            m = re.search(r"#define\s+CCCL_VERSION\s+(\d+)", version_h.read_text())
            if m:
                v = int(m.group(1))
                return f"{v // 1000000}.{v // 1000 % 1000}.{v % 1000}"
    return "unknown"


@functools.lru_cache(maxsize=None)
def cutlass_version() -> str | None:
    inc = cutlass_include_dir()
    if inc is None:
        return None
    text = Path(inc, "cutlass", "version.h").read_text()
    parts = [re.search(rf"#define\s+CUTLASS_{k}\s+(\d+)", text) for k in ("MAJOR", "MINOR", "PATCH")]
    return ".".join(p.group(1) if p else "?" for p in parts)


@dataclass(frozen=True)
class HeaderSet:
    include_dirs: tuple[str, ...]
    fingerprint: str  # versions that change what a compile produces


@functools.lru_cache(maxsize=None)
def default_headers() -> HeaderSet:
    """CCCL and the CUDA runtime headers, CUTLASS when installed, and last kopt's standard-header shims
    (``kopt.compat``: <stdint.h>, <cmath>, ... for nvcc-style sources)."""
    from .shims import SHIM_DIR, shim_fingerprint

    dirs = list(cuda_include_dirs())
    cutlass = cutlass_include_dir()
    if cutlass:
        dirs.append(cutlass)
    dirs.append(str(SHIM_DIR))
    return HeaderSet(tuple(dirs), f"cccl={cccl_version()};cutlass={cutlass_version()};shims={shim_fingerprint()}")
