"""Artifact: what a compile produced (cubin for the exact target, optional PTX, resources, log)."""
from __future__ import annotations

import functools
import subprocess
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from . import cache
from .diagnostic import Diagnostic
from .errors import InputError, ToolchainError
from .lowering import KernelLowering, parse_sass, parse_sass_json
from .nvrtc_log import Resources
from .occupancy import Occupancy, occupancy
from .toolchain import require_tool


@functools.lru_cache(maxsize=None)
def nvdisasm_json() -> bool:
    """Whether this nvdisasm has ``-json`` (``--emit-json``; CUDA 12.8 and later)."""
    nvdisasm = require_tool("nvdisasm")
    proc = subprocess.run([nvdisasm, "--help"], capture_output=True, text=True)
    return "--emit-json" in proc.stdout


@dataclass
class KernelInfo:
    name: str  # as requested (name expression) or as found in the cubin (demangled where possible)
    lowered: str  # the symbol in the cubin
    resources: Resources

    def to_dict(self) -> dict:
        return {"name": self.name, "lowered": self.lowered, "resources": self.resources.to_dict()}


@dataclass
class Artifact:
    source_name: str
    source: str
    arch: str
    options: list[str]
    kernels: dict[str, KernelInfo]
    cubin: bytes
    ptx: str | None
    log: str
    diagnostics: list[Diagnostic] = field(default_factory=list)
    compile_ms: float = 0.0
    cache_hit: bool = False
    nvrtc_version: str = ""
    key: str = ""
    cache_entry: Path | None = None
    _sass: str | None = field(default=None, repr=False)

    def kernel(self, name: str | None = None) -> KernelInfo:
        if name is None:
            if len(self.kernels) != 1:
                raise InputError(f"{self.source_name} has {len(self.kernels)} kernels; name one of: "
                                 + ", ".join(self.kernels))
            return next(iter(self.kernels.values()))
        if name in self.kernels:
            return self.kernels[name]
        for k in self.kernels.values():
            if name == k.lowered:
                return k
        raise InputError(f"unknown kernel {name!r}: {self.source_name} has " + ", ".join(self.kernels))

    def _disassemble(self, cached: str, *args: str) -> str:
        """``nvdisasm ARGS cubin``, kept in the compile cache as ``cached``."""
        if self.cache_entry is not None and (self.cache_entry / cached).exists():
            return (self.cache_entry / cached).read_text()
        nvdisasm = require_tool("nvdisasm")
        with tempfile.NamedTemporaryFile(suffix=".cubin") as f:
            f.write(self.cubin)
            f.flush()
            proc = subprocess.run([nvdisasm, *args, f.name], capture_output=True, text=True)
        if proc.returncode != 0:
            raise ToolchainError(f"nvdisasm failed: {proc.stderr.strip() or proc.stdout.strip()}")
        if self.cache_entry is not None and self.cache_entry.exists():
            cache.put_file(self.cache_entry, cached, proc.stdout.encode())
        return proc.stdout

    def sass(self) -> str:
        """SASS with line info (``nvdisasm -g -c``); computed once and kept in the compile cache."""
        if self._sass is None:
            self._sass = self._disassemble("sass.txt", "-g", "-c")
        return self._sass

    def lowering(self) -> dict[str, KernelLowering]:
        """Per kernel (keyed like ``kernels``): instruction classes, access widths, SASS per source line. Read from
        ``nvdisasm -json -g`` where nvdisasm has it, else from the SASS text."""
        by_lowered = None
        if nvdisasm_json():
            try:
                by_lowered = parse_sass_json(self._disassemble("sass.json", "-json", "-g"))
            except ValueError:  # a JSON layout this reader does not know: the text is still there
                by_lowered = None
        if by_lowered is None:
            by_lowered = parse_sass(self.sass())
        return {name: by_lowered.get(k.lowered, KernelLowering(k.lowered)) for name, k in self.kernels.items()}

    def occupancy(self, kernel: str | None = None, *, block_size: int, dynamic_smem: int = 0) -> Occupancy:
        r = self.kernel(kernel).resources
        return occupancy(self.arch, block_size=block_size, registers=r.registers, static_smem=r.static_smem,
                         dynamic_smem=dynamic_smem)

    def to_dict(self) -> dict:
        return {
            "source": self.source_name,
            "arch": self.arch,
            "options": self.options,
            "kernels": {n: k.to_dict() for n, k in self.kernels.items()},
            "cubin_bytes": len(self.cubin),
            "ptx": self.ptx is not None,
            "diagnostics": [d.to_dict() for d in self.diagnostics],
            "compile_ms": round(self.compile_ms, 3),
            "cache_hit": self.cache_hit,
            "nvrtc_version": self.nvrtc_version,
        }
