"""A check's cases: the inputs of one seed at one shape and the reference's outputs for them, kept while they fit.

On the GPU path (the default) a case lives on the device: inputs drawn there by ``DeviceChecks.fill`` (a PyTorch
problem's ``get_inputs()`` runs there anyway), the reference run there when the task allows it (PyTorch problems;
a task's CUDA reference, ``reference_cuda``; numpy references through CuPy for tasks that declare
``reference_device = "gpu"``), otherwise on the host with the
inputs downloaded and the outputs uploaded as float64. On the CPU path (``KOPT_CHECK_ON=cpu``, or when the helper
kernels are unavailable) inputs and outputs are host arrays, as kopt made them before it checked on the GPU."""
from __future__ import annotations

import os
import struct
import time
from collections import OrderedDict
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from .. import reference, torch_reference
from ..dtypes import dtype
from ..params import pack_launch
from ..inputs import generate
from ..task import Shape, Task
from ..torch_reference import is_torch_task
from .session import DeviceBuffer

_F64 = dtype("f64")


@dataclass
class Case:
    inputs: dict  # name -> host array (storage dtype) or DeviceBuffer (read-only device copy)
    expected: dict  # name -> host array (float64 or integer) or DeviceBuffer (float64)
    on_device: bool
    ms: dict  # {"inputs": ..., "reference": ...} milliseconds spent making it
    reference_on: str  # "gpu (torch)", "gpu (cuda)" (the task's reference_cuda), "gpu (cupy)" or "cpu"
    note: str | None = None  # why the reference ran on the host although the task allows the GPU
    keep: list = field(default_factory=list)  # framework arrays behind device views, alive as long as the case

    @property
    def nbytes(self) -> int:
        return sum(a.nbytes for a in (*self.inputs.values(), *self.expected.values()))


def _memory_limit_bytes() -> int:
    """Host memory the cache may hold: a quarter of the memory this process may use (RAM, or the container's cgroup
    limit when lower), at most 16 GiB."""
    try:
        ram = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError, AttributeError):
        ram = 8 << 30
    try:
        limit = Path("/sys/fs/cgroup/memory.max").read_text().strip()
        if limit.isdigit():
            ram = min(ram, int(limit))
    except OSError:
        pass
    return min(ram // 4, 16 << 30)


class CaseCache:
    """(task, shape, seed) -> Case, least recently used first out. ``kopt bench`` checks the candidate and the
    baseline and then times them on the same seeds, so a large shape's inputs and reference are made once."""

    def __init__(self, gpu, checks):
        self.gpu, self.checks = gpu, checks
        self.reference = None  # the task's CUDA reference (kopt.protocol.ReferenceKernels) for the current request
        self._modules: dict[bytes, object] = {}  # reference cubin -> loaded module
        self._cases: OrderedDict = OrderedDict()
        self._bytes = 0
        if checks is not None:  # a quarter of the device's memory: kernels need the rest
            self.limit = gpu.total_memory() // 4
        else:
            self.limit = _memory_limit_bytes()

    def keep_seeds(self, seeds) -> None:
        """Forget the cases of seeds a request does not use: seeds are fresh per check or bench, so older cases would
        only hold memory for the worker's lifetime (a whole tuning run)."""
        keep = set(seeds)
        for key in [k for k in self._cases if k[3] not in keep]:
            self._bytes -= self._cases.pop(key).nbytes

    def get(self, task: Task, shape: Shape, seed: int) -> Case:
        key = (str(task.path), task.name, shape.label, seed)
        if key in self._cases:
            self._cases.move_to_end(key)
            return self._cases[key]
        case = self._make_on_device(task, shape, seed) if self.checks is not None else _make_on_host(task, shape, seed)
        if case.nbytes <= self.limit:
            self._cases[key] = case
            self._bytes += case.nbytes
            while self._bytes > self.limit:
                self._bytes -= self._cases.popitem(last=False)[1].nbytes
        return case

    # --- the GPU path ------------------------------------------------------------------------------------------------
    def _make_on_device(self, task: Task, shape: Shape, seed: int) -> Case:
        gpu = self.gpu
        t0 = time.perf_counter()
        if is_torch_task(task):
            inputs, expected, keep = torch_reference.device_case(task, shape, seed)
            _check_shapes(task, shape, expected)
            ms = (time.perf_counter() - t0) * 1e3
            return Case({k: _view(t) for k, t in inputs.items()}, {k: _view(t) for k, t in expected.items()}, True,
                        {"inputs": 0.0, "reference": round(ms, 3)}, "gpu (torch)", keep=keep)
        inputs = {}
        for i, a in enumerate(task.args):
            if a.role in ("in", "inout"):
                n = int(np.prod(task.shape_of(a, shape)))
                buf = inputs[a.name] = gpu.alloc_collected(n * a.dtype.itemsize)
                self.checks.fill(buf, a.dtype, n, seed, i, a.init)
        gpu.synchronize("input generation")
        t1 = time.perf_counter()
        expected, on, note, keep = None, "cpu", None, []
        if self.reference is not None and shape.label in self.reference.plans:
            expected, on = self._reference_with_kernels(task, shape, inputs), "gpu (cuda)"
        elif task.reference_device == "gpu":
            try:
                expected, keep = _reference_with_cupy(task, shape, inputs)
                on = "gpu (cupy)"
            except _NotOnDevice as exc:
                note = str(exc)
        if expected is None:  # the host reference: inputs down, outputs up as float64
            host = {}
            for a in task.args:
                if a.name in inputs:
                    host[a.name] = np.empty(task.shape_of(a, shape), a.dtype.storage)
                    gpu.download(inputs[a.name], host[a.name])
            expected = {}
            for name, arr in reference.call(task, shape, host).items():
                arr = np.ascontiguousarray(np.asarray(arr, np.float64))
                expected[name] = gpu.alloc_collected(arr.nbytes)
                gpu.upload(expected[name], arr)
        gpu.synchronize("reference")
        t2 = time.perf_counter()
        _check_shapes(task, shape, expected)
        return Case(inputs, expected, True, {"inputs": round((t1 - t0) * 1e3, 3), "reference": round((t2 - t1) * 1e3, 3)},
                    on, note, keep)


    def _reference_with_kernels(self, task: Task, shape: Shape, inputs: dict[str, DeviceBuffer]) -> dict:
        """The task's CUDA reference run on the case's inputs: float64 outputs, zeroed before its launches."""
        gpu, ref = self.gpu, self.reference
        module = self._modules.get(ref.cubin)
        if module is None:
            module = self._modules[ref.cubin] = gpu.load(ref.cubin)
        outputs = {}
        for a in task.args:
            if a.is_output:
                outputs[a.name] = gpu.alloc_collected(int(np.prod(task.shape_of(a, shape))) * 8)
                gpu.fill(outputs[a.name], _F64, 0)
        def arg_bytes(arg) -> bytes:  # the plan has buffers and values only (kopt.reference_kernels)
            return struct.pack("<Q", (outputs.get(arg.name) or inputs[arg.name]).ptr)

        for lp in ref.plans[shape.label].launches:
            fn = gpu.function(module, lp.lowered)
            params = pack_launch(lp, [size for _, size in gpu.param_layout(fn)], f"{task.name}'s reference_cuda",
                                 arg_bytes)  # alive through the launch: the driver reads the slots it points to
            if lp.smem > 48 * 1024:
                gpu.set_dynamic_smem(fn, lp.smem)
            gpu.launch(fn, lp.grid, lp.block, lp.smem, params.address, lp.cluster)
        return outputs


class _NotOnDevice(Exception):
    """The reference cannot run on the device here; the message says why (the case then uses the host)."""


def _view(t) -> DeviceBuffer:
    return DeviceBuffer(int(t.data_ptr()) if hasattr(t, "data_ptr") else int(t.data.ptr), int(t.nbytes))


def _check_shapes(task: Task, shape: Shape, expected: dict) -> None:
    for a in task.args:
        if a.is_output:
            want = int(np.prod(task.shape_of(a, shape))) * 8
            if expected[a.name].nbytes != want:
                raise reference.BadReference(
                    "output", f"reference {task.reference} returned {expected[a.name].nbytes // 8} values for "
                              f"{a.name}; the task declares {want // 8} at {shape.label}")


def _reference_with_cupy(task: Task, shape: Shape, inputs: dict[str, DeviceBuffer]) -> tuple[dict, list]:
    """The numpy reference called with CuPy arrays (numpy's functions dispatch to CuPy's): float64 outputs on the
    device, as views, and the CuPy arrays that own them."""
    try:
        import cupy
    except Exception as exc:
        raise _NotOnDevice(f"CuPy is not usable ({type(exc).__name__}): the reference ran on the host")
    keep, kwargs = [], {}
    for a in task.args:
        if a.role in ("in", "inout"):
            buf = inputs[a.name]
            mem = cupy.cuda.UnownedMemory(buf.ptr, buf.nbytes, buf)
            raw = cupy.ndarray(task.shape_of(a, shape), a.dtype.storage, cupy.cuda.MemoryPointer(mem, 0))
            if a.dtype.is_float and task.reference_dtype == "f64":
                x = ((raw.astype(cupy.uint32) << 16).view(cupy.float32) if a.dtype.name == "bf16" else raw)
                kwargs[a.name] = x.astype(cupy.float64)
            else:
                kwargs[a.name] = raw.copy()  # the reference may write into its arguments
        elif a.role == "scalar":
            kwargs[a.name] = task.scalar(a, shape)
    fn = reference.load(task)
    try:
        result = fn(**kwargs)
    except Exception as exc:  # a function that needs the host (or a CuPy gap): the host path decides
        raise _NotOnDevice(f"the reference raised {type(exc).__name__} with CuPy arrays ({str(exc)[:160]}): it ran on "
                           f"the host")
    outs = [a for a in task.args if a.is_output]
    if isinstance(result, dict):
        result = tuple(result.get(a.name) for a in outs)
    elif not isinstance(result, (tuple, list)):
        result = (result,)
    if len(result) != len(outs) or any(r is None for r in result):
        raise _NotOnDevice("the reference's outputs did not match the task's with CuPy arrays: it ran on the host")
    expected = {}
    for a, r in zip(outs, result):
        arr = cupy.ascontiguousarray(cupy.asarray(r, dtype=cupy.float64))
        keep.append(arr)
        expected[a.name] = _view(arr)
    return expected, keep


def _make_on_host(task: Task, shape: Shape, seed: int) -> Case:
    t0 = time.perf_counter()
    if is_torch_task(task):  # the problem's own get_inputs() and forward, on the GPU, brought to the host
        inputs, expected = torch_reference.case(task, shape, seed)
        t1 = t0
    else:
        inputs = generate(task, shape, seed)
        t1 = time.perf_counter()
        expected = reference.call(task, shape, inputs)
    t2 = time.perf_counter()
    for arr in (*inputs.values(), *expected.values()):
        arr.flags.writeable = False
    return Case(inputs, expected, False, {"inputs": round((t1 - t0) * 1e3, 3), "reference": round((t2 - t1) * 1e3, 3)},
                "cpu")
