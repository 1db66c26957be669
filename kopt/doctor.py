"""What this machine has for kopt, and what each missing piece disables."""
from __future__ import annotations

import importlib
from dataclasses import asdict, dataclass


@dataclass
class Check:
    name: str
    ok: bool
    detail: str
    disables: str = ""  # what does not work without it

    def to_dict(self) -> dict:
        return asdict(self)


def _try(fn):
    try:
        return fn(), None
    except Exception as exc:  # report, don't raise: doctor must always answer
        return None, str(exc).splitlines()[0] if str(exc) else type(exc).__name__


def checks() -> list[Check]:
    from . import toolchain
    from .compiler import nvrtc_version
    from .device import probe

    out: list[Check] = []
    info, why = probe()
    out.append(Check("GPU and driver", info is not None,
                     f"{info.name}, sm_{info.cc[0]}{info.cc[1]}, {info.sm_count} SMs, driver CUDA {info.driver}"
                     if info else why,
                     "running, checking, timing, profiling (compile, explain, check and the KB still work)"))
    v, err = _try(nvrtc_version)
    if v is not None:
        from .archs import supported

        v = f"version {v}; targets {', '.join(supported())}"
    out.append(Check("NVRTC", v is not None, v or err, "everything that compiles"))
    h, err = _try(toolchain.default_headers)
    out.append(Check("CUDA and CCCL headers", h is not None,
                     f"CCCL {toolchain.cccl_version()}: {', '.join(h.include_dirs[:2])}" if h else err,
                     "compiling any source that includes CUDA headers"))
    cut = toolchain.cutlass_include_dir()
    out.append(Check("CUTLASS/CuTe headers", cut is not None,
                     f"CUTLASS {toolchain.cutlass_version()}: {cut}" if cut else ("not installed: pip install --no-deps 'nvidia-cutlass==4.2.*' (the headers "
                                                             "alone), or set CUTLASS_HOME to a CUTLASS checkout"),
                     "compiling CuTe/CUTLASS kernels"))
    for tool, disables in (("nvdisasm", "SASS and the lowering report (kopt explain)"),
                           ("cuobjdump", "cross-checking resources against the cubin"),
                           ("ncu", "kopt profile"), ("compute-sanitizer", "kopt sanitize")):
        path = toolchain.find_tool(tool)
        out.append(Check(tool, path is not None, path or "not found", disables))
    lib, err = _try(toolchain.cupti_library)
    out.append(Check("CUPTI", lib is not None, lib or err, "CUPTI kernel timing (CUDA events are used instead)"))
    mod, err = _try(lambda: importlib.import_module("kopt._harness"))
    out.append(Check("timing harness (kopt._harness)", mod is not None,
                     f"ABI {mod.ABI_VERSION}" if mod else err, "kopt bench and timing"))
    return out
