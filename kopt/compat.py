"""nvcc-style sources under NVRTC: the standard headers kopt supplies, the headers and features that cannot work in
a candidate, and the catalogued rules NVRTC's failures on them map to.

NVRTC ships no C or C++ standard library, so ``#include <stdint.h>`` fails with "cannot open source file". kopt
ships small shim headers (``kopt/include``, last on every compile's include path) that map the device-usable part
of each supported header onto NVRTC's builtins and CCCL's ``cuda/std`` headers. Host-only headers (``<iostream>``,
``<vector>``, cuBLAS, Thrust's containers...) and host code (runtime API calls, ``<<<...>>>`` launches) cannot be
device code: their NVRTC errors become ``compile.unsupported-header`` / ``compile.unsupported-feature``
Diagnostics that say so and point at ``kopt import``; a header found nowhere is ``compile.missing-header``.
"""
from __future__ import annotations

import re
from pathlib import Path

from .diagnostic import Diagnostic, Location, Severity
from .rules import RULES
from .shims import supported_headers  # noqa: F401  (re-exported: what the shims supply)

# Headers that only make sense on the host: the C++ library's streams, containers, strings, threads, clocks and
# random engines, POSIX and OS headers, the CUDA host libraries, Thrust and the CUDA samples' host helpers. A name
# ending in "/" is a folder prefix. (A C++ header with a CCCL device version, such as <array>, is reported with it.)
HOST_ONLY = frozenset("""
    iostream istream ostream fstream sstream iomanip ios iosfwd streambuf strstream
    vector string string_view map unordered_map set unordered_set list forward_list deque queue stack
    memory_resource scoped_allocator thread mutex shared_mutex condition_variable future
    ctime time.h random regex filesystem exception stdexcept system_error locale clocale codecvt
    valarray format typeinfo typeindex csignal signal.h csetjmp setjmp.h cerrno errno.h cwchar wchar.h
    unistd.h getopt.h pthread.h omp.h mpi.h windows.h dlfcn.h fcntl.h malloc.h
    cublas_v2.h cublas.h cublas_api.h cublasLt.h cublasXt.h cufft.h cufftXt.h cufftw.h curand.h cusparse.h
    cusparse_v2.h cusolverDn.h cusolverSp.h cusolverRf.h cusolver_common.h cudnn.h nccl.h nvml.h nvrtc.h
    nvToolsExt.h nvjpeg.h npp.h cuda_profiler_api.h cudaProfiler.h cuda_gl_interop.h cuda_egl_interop.h
    helper_cuda.h helper_functions.h helper_timer.h helper_string.h helper_image.h helper_cuda_drvapi.h
    helper_multiprocess.h
    thrust/ sys/ nvtx3/ GL/ torch/ ATen/ c10/ pybind11/ boost/ Eigen/
""".split())

# Runtime-API and host-library identifiers: calling one in code compiled for the device means host code.
_HOST_API = re.compile(r"^(?:cuda[A-Z]\w*|cu(?:blas|fft|rand(?:Create|Generate|Set|Destroy)|sparse|solver|dnn)"
                       r"\w*|nvtx\w*|nccl\w*)$")
_HOST_STD = {"cout", "cerr", "clog", "cin", "endl", "vector", "string", "map", "unordered_map", "set", "list",
             "thread", "mutex", "chrono", "ifstream", "ofstream", "fstream", "stringstream", "ostringstream",
             "istringstream", "setw", "setprecision", "fixed", "random_device", "mt19937", "uniform_real_distribution",
             "uniform_int_distribution", "normal_distribution", "generate", "fill", "sort", "function", "unique_ptr",
             "shared_ptr", "make_unique", "make_shared", "runtime_error", "exception"}
_INCLUDE = re.compile(r'^[ \t]*#[ \t]*include[ \t]*[<"]([^>"]+)[>"]', re.M)
_CANNOT_OPEN = re.compile(r'cannot open source file "([^"]+)"')
_UNDEFINED = re.compile(r'identifier "([^"]+)" is undefined')
_NO_STD_MEMBER = re.compile(r'namespace "std" has no member "([^"]+)"')


def is_host_only(header: str) -> bool:
    return header in HOST_ONLY or any(p.endswith("/") and header.startswith(p) for p in HOST_ONLY)


def cccl_version_of(header: str) -> str | None:
    """``cuda/std/HEADER`` when CCCL has a device version of a standard header kopt does not shim."""
    from .toolchain import cuda_include_dirs

    if "/" in header or "." in header:
        return None
    return f"cuda/std/{header}" if any(Path(d, "cuda", "std", header).is_file() for d in cuda_include_dirs()) else None


def classify(diags: list[Diagnostic], source: str = "", name: str = "") -> list[Diagnostic]:
    """NVRTC's compile errors with the ones that mean "not device code" (or "header not found") re-ruled, in order:
    each keeps its location and gets the rule's message and hint. When the errors start inside the headers of a
    host-only library the source includes and NVRTC found (Thrust's containers are on the CCCL path), the include
    line itself is reported first."""
    out = [_classify(d) if d.severity is Severity.ERROR and d.rule == "compile.error" else d for d in diags]
    first = next((d for d in out if d.severity is Severity.ERROR), None)
    if first is None or (first.locations and first.locations[0].file == name):
        return out
    for m in _INCLUDE.finditer(source):
        if is_host_only(m.group(1)):
            line = source.count("\n", 0, m.start()) + 1
            return [RULES["compile.unsupported-header"].diag(
                f"<{m.group(1)}> is host-side library code: it cannot be compiled for the device",
                Location(name, line, 1, role="error"))] + out
    return out


def _classify(d: Diagnostic) -> Diagnostic:
    loc = d.locations
    m = _CANNOT_OPEN.search(d.message)
    if m:
        header = m.group(1)
        if is_host_only(header):
            return RULES["compile.unsupported-header"].diag(
                f"<{header}> is a host-only header: it cannot be compiled for the device", *loc)
        if cccl_version_of(header):
            return RULES["compile.unsupported-header"].diag(
                f"<{header}> is not supplied under NVRTC: include <{cccl_version_of(header)}> and use cuda::std", *loc)
        return RULES["compile.missing-header"].diag(f'header "{header}" not found on the include path', *loc)
    if "device-side kernel launch could not be processed" in d.message:
        return RULES["compile.unsupported-feature"].diag(
            "kernel launch (<<<...>>>) in code compiled for the device: host code does not run in a candidate, and "
            "a launch from a kernel (dynamic parallelism) is not supported", *loc)
    if "explicitly marked as a __host__ function is not allowed" in d.message:
        return RULES["compile.unsupported-feature"].diag("__host__ function: host code does not run in a candidate",
                                                         *loc)
    m = _UNDEFINED.search(d.message)
    if m and _HOST_API.match(m.group(1)):
        return RULES["compile.unsupported-feature"].diag(
            f"{m.group(1)} is a host API call: host code does not run in a candidate", *loc)
    if m and m.group(1) in ("texture", "surface", "tex1Dfetch", "cudaBindTexture"):
        return RULES["compile.unsupported-feature"].diag(
            f"{m.group(1)}: texture references were removed in CUDA 12 (texture objects need host setup)", *loc)
    m = _NO_STD_MEMBER.search(d.message)
    if m and m.group(1) in _HOST_STD:
        return RULES["compile.unsupported-feature"].diag(
            f"std::{m.group(1)} is host-side C++ library code: host code does not run in a candidate", *loc)
    return d
