"""Device-function declarations read from the CUDA toolkit's own headers (the nvidia-cuda-runtime and
nvidia-cuda-crt wheels kopt depends on, else CUDA_HOME), for names the analyzers' declarations (``cuda_decls.h``)
leave out: the half/bfloat16 API (``__half2int_rn``, ``hfloor``), SIMD video intrinsics (``__vabs2``), the rarer
math and integer intrinsics. A file that calls one would otherwise not parse and fall back to the syntax-only path.

Only prototypes are read (``ret name(params);``, one or more lines); the decoration macros (``__CUDA_FP16_DECL__``,
``__device_builtin__``, ``__THROW``) are dropped and ``__device__`` put in front. The caller includes the ones the
file needs and drops any that do not parse under the analyzers' declarations (a type they do not declare)."""
from __future__ import annotations

import functools
import os
import re
from pathlib import Path

# the headers nvcc reads for device code, relative to the CUDA include folder
_HEADERS = ("cuda_fp16.h", "cuda_bf16.h", "crt/device_functions.h", "crt/math_functions.h",
            "crt/device_double_functions.h", "sm_20_intrinsics.h", "sm_30_intrinsics.h", "sm_32_intrinsics.h",
            "sm_61_intrinsics.h", "crt/sm_70_rt.h", "crt/sm_80_rt.h", "crt/sm_90_rt.h", "device_atomic_functions.h",
            "sm_20_atomic_functions.h", "sm_32_atomic_functions.h", "sm_60_atomic_functions.h")
_COMMENT = re.compile(r"//[^\n]*|/\*.*?\*/", re.S)
_DIRECTIVE = re.compile(r"^[ \t]*#.*(?:\\\n.*)*$", re.M)
# a prototype: no braces, parentheses only around the parameters; a name of letters, digits and underscores
_PROTO = re.compile(r"(?:^|(?<=[;{}]))\s*([A-Za-z_][\w\s\*&:,<>]*?\b([A-Za-z_]\w*)\s*\(([^(){};]*)\)[\w\s]*);")
# decoration: a macro in capitals or a reserved `__name__` (`__device_builtin__`, `__NV_TL__`, `__THROW`)
_DECORATION = re.compile(r"\b(?:__\w+__|_*[A-Z][A-Z0-9_]*[A-Z0-9_])\b(?:\s*\([^()]*\))?")
_SPECIFIERS = re.compile(r"\b(?:extern|static|inline|__inline__|__forceinline__|__host__|__device__|__cdecl)\b|\"C\"")


def _cuda_include() -> Path | None:
    """The CUDA runtime headers' folder: the pip wheel's (cuda-pathfinder), else CUDA_HOME's. Found here rather than
    through kopt.toolchain, which belongs to the compiling side the analyzers do not import."""
    try:
        import cuda.pathfinder as pf

        found = pf.find_nvidia_header_directory("cudart")
        if found and Path(found, "cuda_fp16.h").is_file():
            return Path(found)
    except Exception:  # pathfinder missing or broken: CUDA_HOME below
        pass
    for home in (os.environ.get("CUDA_HOME"), os.environ.get("CUDA_PATH"), "/usr/local/cuda"):
        if home and Path(home, "include", "cuda_fp16.h").is_file():
            return Path(home, "include")
    return None  # no headers: the analyzers' declarations alone


def prototypes(text: str) -> dict[str, list[str]]:
    """name -> the prototypes ``text`` (a header's contents) declares, each normalized to ``__device__ ret
    name(params);``."""
    text = _DIRECTIVE.sub(" ", _COMMENT.sub(" ", text)).replace("__DEF_IF_HOST", ";")  # a body only for the host
    out: dict[str, list[str]] = {}
    for m in _PROTO.finditer(text):
        decl, name = m.group(1), m.group(2)
        if name.startswith("operator") or "=" in m.group(3) and "(" in m.group(3):
            continue
        head = decl[:m.start(2) - m.start(1)]
        head = _SPECIFIERS.sub(" ", _DECORATION.sub(" ", head))
        params = _DECORATION.sub(" ", m.group(3))
        head = " ".join(head.split())
        if not head or head.endswith(("::", "<", ",")) or re.search(r"\b(?:return|typedef|using|template)\b", head):
            continue  # a statement, a qualified or templated declaration: not a plain prototype
        proto = f"__device__ {head} {name}({' '.join(params.split())});"
        if proto not in out.setdefault(name, []):
            out[name].append(proto)
    return out


@functools.lru_cache(maxsize=1)
def _index() -> dict[str, list[str]]:
    root = _cuda_include()
    out: dict[str, list[str]] = {}
    if root is None:
        return out
    for rel in _HEADERS:
        try:
            text = (root / rel).read_text(errors="replace")
        except OSError:
            continue
        for name, protos in prototypes(text).items():
            out.setdefault(name, []).extend(p for p in protos if p not in out.get(name, ()))
    return out


# a toolkit namespace a file names without including its header (a project header found nowhere included it:
# fastllm's `cub::BlockReduce` after its missing `sampling.cuh`): the header that declares it
_NAMESPACE_HEADERS = {"cub": "cub/cub.cuh", "cooperative_groups": "cooperative_groups.h", "nvcuda": "mma.h",
                      "cuda": "cuda/__kopt_cuda.h"}


def declarations(names) -> list[str]:
    """The toolkit's prototypes of ``names``, or the ``#include`` of a toolkit namespace's header (names it does not
    declare are skipped)."""
    idx = _index()
    return [p for n in sorted(set(names)) for p in
            ([f"#include <{_NAMESPACE_HEADERS[n]}>"] if n in _NAMESPACE_HEADERS else idx.get(n, ()))]
