"""``kopt.launch``: a kernel that kopt compiled, run on the caller's own GPU arrays in the caller's process.

Arrays are torch tensors, cupy arrays or anything with ``__cuda_array_interface__`` or DLPack (``device_arrays``);
scalars are packed as the kernel's PTX declares each parameter. The launch goes on the caller's current stream (torch's
or cupy's, when the arguments are theirs), in the caller's CUDA context, so it is ordered with the caller's own work.

Running in the caller's process is the point, and the risk: a kernel that faults leaves the caller's CUDA context
unusable (every later CUDA call in that process fails). ``kopt run`` and ``kopt bench`` keep their worker isolation.
"""
from __future__ import annotations

import hashlib
import os
import struct
import threading
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from .artifact import Artifact
from .candidate import Candidate
from .device_arrays import device_array, is_array
from .errors import GpuUnavailableError, InputError, KoptError
from .params import PackedParams
from .ptx import entry_param_types
from .worker.session import check, driver

_INT_PACK = {1: "<b", 2: "<h", 4: "<i", 8: "<q"}
_UINT_PACK = {1: "<B", 2: "<H", 4: "<I", 8: "<Q"}


class LaunchError(KoptError):
    """A CUDA driver call of ``kopt.launch`` failed; ``name`` is the CUDA error. After an asynchronous error (a
    kernel fault) the caller's context is unusable."""

    def __init__(self, name: str, call: str):
        self.name, self.call = name, call
        super().__init__(f"{call}: {name}")


def _cu():
    return driver()


def _check(result, call: str):
    return check(result, call, LaunchError)


_lock = threading.Lock()
_modules: dict[tuple[int, str], object] = {}  # (context, cubin digest) -> CUmodule, loaded once per context


def _context(pointers: list[int]) -> int:
    """The caller's current context, or the primary context of the device holding the first array (made current,
    as the CUDA runtime would). Arrays on another device than the context's are refused."""
    cu = _cu()
    (err,) = cu.cuInit(0)
    if err != cu.CUresult.CUDA_SUCCESS:
        raise GpuUnavailableError(f"CUDA driver unavailable ({err.name})")
    ctx = _check(cu.cuCtxGetCurrent(), "cuCtxGetCurrent")
    devices = [_pointer_device(p) for p in pointers]
    if not int(ctx):
        dev = _check(cu.cuDeviceGet(devices[0] if devices else 0), "cuDeviceGet")
        ctx = _check(cu.cuDevicePrimaryCtxRetain(dev), "cuDevicePrimaryCtxRetain")
        _check(cu.cuCtxSetCurrent(ctx), "cuCtxSetCurrent")
    current = int(_check(cu.cuCtxGetDevice(), "cuCtxGetDevice"))
    for i, d in enumerate(devices):
        if d != current:
            raise InputError(f"array argument {i + 1} is on GPU {d} but the current CUDA context is GPU {current}: "
                             f"make that device current (torch.cuda.set_device / cupy.cuda.Device) first")
    return int(ctx)


def _pointer_device(ptr: int) -> int:
    cu = _cu()
    attr = cu.CUpointer_attribute.CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL
    err, dev = cu.cuPointerGetAttribute(attr, ptr)
    if err != cu.CUresult.CUDA_SUCCESS:
        raise InputError(f"address {ptr:#x} is not device memory known to CUDA ({err.name})")
    return int(dev)


def _function_from_cubin(cubin: bytes, lowered: str):
    """``lowered`` of ``cubin``, loaded once per context into the current one."""
    cu = _cu()
    ctx = int(_check(cu.cuCtxGetCurrent(), "cuCtxGetCurrent"))
    key = (ctx, hashlib.sha256(cubin).hexdigest())
    with _lock:
        if key not in _modules:
            _modules[key] = _check(cu.cuModuleLoadData(cubin), "cuModuleLoadData")
        module = _modules[key]
    return _check(cu.cuModuleGetFunction(module, lowered.encode()), f"cuModuleGetFunction({lowered})")


def _param_types(art: Artifact, lowered: str, fn) -> list[tuple[str | None, int]]:
    """(PTX type or None, size) per parameter: from the PTX where kopt kept it, else sizes from the loaded cubin."""
    types = entry_param_types(art.ptx or "").get(lowered)
    if types is not None:
        return types
    cu, out = _cu(), []
    while True:
        err, _, size = cu.cuFuncGetParamInfo(fn, len(out))
        if err != cu.CUresult.CUDA_SUCCESS:
            return out
        out.append((None, int(size)))


def pack(value, ptx_type: str | None, size: int, what: str) -> bytes:
    """One argument's bytes for a parameter of ``size`` bytes (PTX type ``ptx_type`` when known): an array's device
    address, a Python or numpy scalar converted to the parameter's type, or raw bytes of exactly its size."""
    if is_array(value) and not isinstance(value, np.generic):
        if size != 8:
            raise InputError(f"{what} is an array (a pointer, 8 bytes) but the kernel parameter is {size} bytes")
        return struct.pack("<Q", device_array(value, what).ptr)
    if isinstance(value, (bytes, bytearray, memoryview)):
        if len(value) != size:
            raise InputError(f"{what}: {len(value)} bytes given for a {size}-byte parameter")
        return bytes(value)
    if isinstance(value, np.generic):
        if value.dtype.itemsize != size:
            raise InputError(f"{what}: a {value.dtype} ({value.dtype.itemsize} bytes) for a {size}-byte parameter")
        return value.tobytes()
    floating = ptx_type is not None and ptx_type.startswith("f")
    if isinstance(value, bool):
        value = int(value)
    if isinstance(value, float) or (floating and isinstance(value, int)):
        if ptx_type is not None and not floating:
            raise InputError(f"{what}: {value!r} is a float but the kernel parameter is {ptx_type} ({size} bytes); pass "
                             f"an int, or a numpy scalar of the exact type")
        if size not in (4, 8):
            raise InputError(f"{what}: a float for a {size}-byte parameter; pass a numpy scalar (np.float16(...))")
        return struct.pack("<f" if size == 4 else "<d", float(value))
    if isinstance(value, int):
        signed = ptx_type is None or ptx_type.startswith("s") or value < 0
        fmt = (_INT_PACK if signed else _UINT_PACK).get(size)
        if fmt is None:
            raise InputError(f"{what}: an int for a {size}-byte parameter (a struct?); pass its bytes")
        try:
            return struct.pack(fmt, value)
        except struct.error:
            raise InputError(f"{what}: {value} does not fit the kernel's {size}-byte parameter")
    raise InputError(f"{what}: cannot pass a {type(value).__name__} (arrays, ints, floats, numpy scalars or bytes)")


def _stream_handle(stream, args) -> int:
    """A raw CUstream: the one given (an int, a torch or cupy stream, or any ``__cuda_stream__`` object), else the
    current stream of the framework the arrays come from, else the legacy default stream."""
    if stream is None:
        for a in args:
            mod = type(a).__module__.split(".")[0]
            if mod == "torch" and getattr(a, "is_cuda", False):
                import torch

                return int(torch.cuda.current_stream(a.device).cuda_stream)
            if mod == "cupy":
                import cupy

                return int(cupy.cuda.get_current_stream().ptr)
        return 0
    if isinstance(stream, int):
        return stream
    if hasattr(stream, "__cuda_stream__"):
        return int(stream.__cuda_stream__()[1])
    for attr in ("cuda_stream", "ptr", "handle"):
        if hasattr(stream, attr):
            return int(getattr(stream, attr))
    raise InputError(f"stream: cannot read a CUDA stream from a {type(stream).__name__}")


def _dims(value, what: str) -> tuple[int, int, int]:
    dims = (value,) if isinstance(value, (int, np.integer)) else tuple(value)
    if not 1 <= len(dims) <= 3 or not all(isinstance(d, (int, np.integer)) and d >= 1 for d in dims):
        raise InputError(f"{what} must be 1 to 3 positive integers, got {value!r}")
    return tuple(int(d) for d in dims) + (1,) * (3 - len(dims))


def _artifact(source, kernel: str | None, config: dict | None, arch: str | None, include_dirs) -> tuple[Artifact, str]:
    """(artifact, kernel name) for what the caller handed over: an Artifact, a Candidate, or a .cu path or text (a
    candidate when it carries ``// kopt:`` lines, compiled at ``config``)."""
    from .compiler import compile as kopt_compile, compile_candidate

    if isinstance(source, Artifact):
        if config:
            raise InputError("config applies to a candidate, not to an already compiled Artifact")
        return source, kernel
    if isinstance(source, (str, os.PathLike)) and not isinstance(source, Candidate):
        text = Path(source).read_text() if _is_path(source) else str(source)
        if "// kopt:" not in text:
            if config:
                raise InputError("config applies to a candidate (a source with '// kopt:' lines)")
            return kopt_compile(source, [kernel] if kernel else None, arch=arch, include_dirs=include_dirs), kernel
        source = Candidate.load(source)
    if isinstance(source, Candidate):
        cfg = source.check_config(dict(config or {}))
        kernels = source.kernels(cfg)
        if kernel is None and len(kernels) == 1:
            kernel = kernels[0]
        return compile_candidate(source, cfg, arch=arch, include_dirs=include_dirs), kernel
    raise InputError(f"cannot launch a {type(source).__name__}: pass an Artifact, a Candidate, or a .cu path or source")


def _is_path(source) -> bool:
    if isinstance(source, os.PathLike):
        return True
    return "\n" not in source and len(source) < 4096 and Path(source).is_file()


@dataclass
class Launch:
    """A kernel bound to its geometry and arguments in the caller's context. Calling it launches it again (the
    arguments' current contents); ``kopt.time(launch)`` times it."""

    kernel: str
    grid: tuple[int, int, int]
    block: tuple[int, int, int]
    smem: int
    stream: int
    function: object = field(repr=False)
    params: PackedParams = field(repr=False)
    args: tuple = field(repr=False)  # kept alive as long as the launch can run

    def __call__(self) -> "Launch":
        cu = _cu()
        _check(cu.cuLaunchKernel(self.function, *self.grid, *self.block, self.smem, cu.CUstream(self.stream),
                                 self.params.address, 0), f"cuLaunchKernel({self.kernel})")
        return self

    def synchronize(self) -> None:
        """Wait for this launch's stream; an error here came from the kernel (the context is now unusable)."""
        cu = _cu()
        _check(cu.cuStreamSynchronize(cu.CUstream(self.stream)), f"{self.kernel} (kernel execution)")


def prepare(source, kernel: str | None, grid, block, *args, smem: int = 0, stream=None, config: dict | None = None,
            arch: str | None = None, include_dirs=()) -> Launch:
    """A ``Launch`` ready to run (nothing launched yet): compiled (or taken from ``source``), loaded into the caller's
    context, its arguments packed. See ``launch``."""
    grid, block = _dims(grid, "grid"), _dims(block, "block")
    if not isinstance(smem, (int, np.integer)) or smem < 0:
        raise InputError(f"smem must be a byte count >= 0, got {smem!r}")
    if arch is None:
        from .device import default_arch

        arch = default_arch()
    art, kernel = _artifact(source, kernel, config, arch, include_dirs)
    info = art.kernel(kernel)
    pointers = [device_array(a, f"argument {i + 1}").ptr for i, a in enumerate(args)
                if is_array(a) and not isinstance(a, np.generic)]
    _context(pointers)
    fn = _function_from_cubin(art.cubin, info.lowered)
    types = _param_types(art, info.lowered, fn)
    if len(types) != len(args):
        raise InputError(f"{info.name} takes {len(types)} arguments ({', '.join(t or '?' for t, _ in types)}), "
                         f"got {len(args)}")
    values = [pack(a, t, size, f"argument {i + 1} of {info.name}") for i, (a, (t, size)) in enumerate(zip(args, types))]
    if smem > 48 * 1024:
        attr = _cu().CUfunction_attribute.CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES
        _check(_cu().cuFuncSetAttribute(fn, attr, int(smem)), "cuFuncSetAttribute(max dynamic shared memory)")
    return Launch(info.name, grid, block, int(smem), _stream_handle(stream, args), fn, PackedParams(values),
                  tuple(args))


def launch(source, kernel: str | None, grid, block, *args, smem: int = 0, stream=None, config: dict | None = None,
           arch: str | None = None, include_dirs=()) -> Launch:
    """Launch ``kernel`` of ``source`` (an Artifact, a Candidate, or a .cu path or source text; a candidate compiles
    at ``config``, its tunables' defaults otherwise) with ``grid`` x ``block`` threads on ``args``: GPU arrays (torch,
    cupy, DLPack, ``__cuda_array_interface__``) and scalars. Asynchronous, on the arrays' framework's current stream
    (or ``stream``). Returns the ``Launch``, which can be called again or timed with ``kopt.time``.

    A faulting kernel makes the caller's CUDA context unusable: every later CUDA call in the process fails. Use
    ``kopt run``/``kopt bench`` (an isolated worker) for code that may fault."""
    return prepare(source, kernel, grid, block, *args, smem=smem, stream=stream, config=config, arch=arch,
                   include_dirs=include_dirs)()
