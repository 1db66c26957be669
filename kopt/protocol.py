"""The protocol between the parent and the GPU worker: typed requests, one reply shape, and the framing.

A request is one of the frozen dataclasses below. The worker answers ``Ok(payload)`` or ``Failed(diagnostic, fatal,
phase)``; the parent's client maps a dead or hung worker to ``Failed`` too, so every caller has one branch. While it
works, the worker announces ``Phase``s, each with the client's time limit for it (a kernel must finish within the
kernel timeout; a reference or a timing loop may take longer). Messages are length-prefixed pickles.
"""
from __future__ import annotations

import os
import pickle
import select
import struct
import time
from dataclasses import dataclass
from typing import Any, Union

from .diagnostic import Diagnostic
from .plan import RunPlan
from .task import Shape, Task


# --- requests --------------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Kernel:
    """A compiled kernel the worker loads by name, e.g. the L2-flush kernel the parent compiles for timing."""

    cubin: bytes
    name: str


@dataclass(frozen=True)
class CheckRequest:
    """Run the candidate's launches on fresh inputs at each shape and compare with the reference."""

    task: Task
    shapes: list[Shape]
    plans: list[RunPlan]  # one per shape
    cubin: bytes
    seeds: list[int]
    candidate: str  # its name in diagnostics
    helpers: HelperKernels | None = None  # None: the worker checks on the host
    reference: ReferenceKernels | None = None  # the task's CUDA reference, when it has one and helpers are sent


@dataclass(frozen=True)
class HelperKernels:
    """The check kernels (``kopt.check_kernels``): one cubin and the lowered name of each kernel."""

    cubin: bytes
    lowered: dict


@dataclass(frozen=True)
class ReferenceKernels:
    """A task's CUDA reference (``kopt.reference_kernels``): its cubin and its launches per shape label."""

    cubin: bytes
    plans: dict  # shape label -> RunPlan


@dataclass(frozen=True)
class BenchEntry:
    name: str  # "candidate:file.cu", "baseline:file.cu"
    cubin: bytes
    plans: list[RunPlan]  # one per shape


@dataclass(frozen=True)
class BenchRequest:
    """Time every entry at each shape, interleaved, with the C++ harness; then check what the timed runs left."""

    task: Task
    shapes: list[Shape]
    entries: list[BenchEntry]
    seeds: list[int]  # one input set per seed, rotated between samples
    options: dict  # harness options (kopt._harness.defaults() names them)
    flush: Kernel  # the L2 flush kernel
    cupti_library: str | None  # libcupti for the harness, or None (CUDA events then)
    kernel_timeout: float = 10.0
    helpers: HelperKernels | None = None  # None: the worker compares on the host
    reference: ReferenceKernels | None = None  # the task's CUDA reference, when it has one and helpers are sent


def stream_kernel(reads: int, writes: int, items: int) -> str:
    """The name of the ceilings' stream kernel for a read:write mix and a count of 16-byte vectors per thread
    (``kopt.roofline.COPY_SOURCE``); four, the first count, keeps the plain name."""
    return f"kopt_stream_{reads}_{writes}" + (f"_x{items}" if items != 4 else "")


@dataclass(frozen=True)
class CeilingsRequest:
    """Measure the device's copy, read and write bandwidth, FP32 FMA and tensor-core rates (kernels compiled by the
    parent)."""

    kernels: bytes  # cubin holding kopt_stream_<reads>_<writes>, kopt_fma and kopt_mma_<type>
    flush: Kernel
    cupti_library: str | None
    # per tensor-core type: (type, flops of one kopt_mma_<type> warp per iteration, minimum __CUDA_ARCH__)
    tensor: tuple = ()
    streams: tuple = ((1, 1), (1, 0), (0, 1))  # the (reads, writes) mixes to measure (kopt.roofline.stream_kernel)
    stream_items: tuple = (4, 1)  # 16-byte groups per thread, one kernel each per mix (the grid is sized by it)


@dataclass(frozen=True)
class RunOnceRequest:
    """Run one launch sequence in a process of its own (under ncu or compute-sanitizer); the reply is written as JSON
    to ``reply_path``."""

    task: Task
    shape: Shape
    plan: RunPlan
    cubin: bytes
    seed: int
    candidate: str
    reply_path: str
    warmup: int = 1  # launch sequences before the measured one
    fill_outputs: bool = True  # False under initcheck: outputs and poison scratch stay unwritten


Request = Union[CheckRequest, BenchRequest, CeilingsRequest, RunOnceRequest]


# --- replies ---------------------------------------------------------------------------------------------------
@dataclass
class Ok:
    payload: Any = None


@dataclass
class Failed:
    """The request failed: ``diagnostic`` says what (its rule from the catalogue), ``phase`` when; ``fatal``: the
    worker is gone or its CUDA context is unusable, so the next request gets a fresh worker. ``cuda_error`` names
    the CUDA error behind it, if any; ``sticky`` says whether that error poisons the context."""

    diagnostic: Diagnostic
    fatal: bool = False
    phase: str = ""
    cuda_error: str | None = None
    sticky: bool = False
    detail: str = ""  # the worker's traceback or stderr tail, for the curious

    @property
    def rule(self) -> str:
        return self.diagnostic.rule

    @property
    def message(self) -> str:
        return self.diagnostic.message

    def to_dict(self) -> dict:
        return {"diagnostic": self.diagnostic.to_dict(), "fatal": self.fatal, "phase": self.phase,
                "cuda_error": self.cuda_error, "sticky": self.sticky, "detail": self.detail}

    @classmethod
    def from_dict(cls, d: dict) -> "Failed":
        return cls(Diagnostic.from_dict(d["diagnostic"]), d.get("fatal", False), d.get("phase", ""),
                   d.get("cuda_error"), d.get("sticky", False), d.get("detail", ""))


Reply = Union[Ok, Failed]


@dataclass
class Phase:
    """What the worker is doing now; ``limit`` overrides the client's time limit for it."""

    name: str
    limit: float | None = None


# --- framing ---------------------------------------------------------------------------------------------------
def send(fd: int, obj) -> None:
    data = pickle.dumps(obj, protocol=pickle.HIGHEST_PROTOCOL)
    os.write(fd, struct.pack("<Q", len(data)))
    view = memoryview(data)
    while view:
        n = os.write(fd, view)
        view = view[n:]


def receive(fd: int, deadline: float | None = None):
    """The next message, or None when the other side closed; TimeoutError past ``deadline`` (monotonic)."""
    header = _read_exact(fd, 8, deadline)
    if not header:
        return None
    body = _read_exact(fd, struct.unpack("<Q", header)[0], None)
    return None if body is None else pickle.loads(body)


def _read_exact(fd: int, n: int, deadline: float | None) -> bytes | None:
    chunks, got = [], 0
    while got < n:
        if deadline is not None:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError
            ready, _, _ = select.select([fd], [], [], left)
            if not ready:
                raise TimeoutError
        chunk = os.read(fd, min(n - got, 1 << 20))
        if not chunk:
            return None
        chunks.append(chunk)
        got += len(chunk)
    return b"".join(chunks)
