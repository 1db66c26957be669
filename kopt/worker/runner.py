"""Runs a candidate's launches on the GPU and checks its outputs (executed inside the worker process)."""
from __future__ import annotations

import os
import struct
import time
from collections import OrderedDict
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from .. import reference, torch_reference
from ..diagnostic import Location
from ..dtypes import DType, dtype
from ..inputs import generate
from ..params import check_launch, scalar_bytes
from ..plan import LaunchPlan, RunPlan
from ..rules import RULES
from ..task import Shape, Task
from ..torch_reference import is_torch_task
from .compare import compare_output, diagnose, mutated_inputs
from ..params import PackedParams
from .session import DeviceBuffer, GpuSession


@dataclass
class Prepared:
    """Device state for one shape: buffers, scratch, tensor maps, and functions with packed parameters."""

    buffers: dict[str, DeviceBuffer]
    scratch: dict[str, tuple[DeviceBuffer, DType, str]]
    launches: list[tuple[object, LaunchPlan, PackedParams]] = field(default_factory=list)


def _case_cache_bytes() -> int:
    """Host memory the case cache may hold: a quarter of the memory this process may use (RAM, or the container's
    cgroup limit when lower), at most 16 GiB."""
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


class CheckRunner:
    def __init__(self, gpu: GpuSession):
        self.gpu = gpu
        # (task, shape, seed) -> (inputs, expected, reference ms): `kopt bench` checks the candidate and the
        # baseline and then times them on the same seeds, so a large shape's inputs and reference are made once.
        self._cases: OrderedDict = OrderedDict()
        self._case_bytes = 0
        self._case_limit = _case_cache_bytes()

    # --- setup -----------------------------------------------------------------------------------------------------
    def prepare(self, task: Task, shape: Shape, cubin: bytes, plan: RunPlan, candidate: str) -> Prepared:
        gpu = self.gpu
        module = gpu.load(cubin)
        buffers = {}
        for a in task.args:
            if a.is_buffer:
                n = int(np.prod(task.shape_of(a, shape)))
                buffers[a.name] = gpu.alloc(n * a.dtype.itemsize)
        scratch = {}
        for s in plan.scratch:
            dt = dtype(s.dtype)
            scratch[s.name] = (gpu.alloc(int(np.prod(s.shape)) * dt.itemsize), dt, s.init)
        tmaps = {}
        for t in plan.tensormaps:
            tmaps[t.name] = gpu.tensor_map(buffers[t.arg].ptr, t.dtype, t.shape, t.box, dtype(t.dtype).itemsize,
                                           t.swizzle, t.l2promotion, t.oob)
        prepared = Prepared(buffers, scratch)
        for lp in plan.launches:
            fn = gpu.function(module, lp.lowered)
            layout = gpu.param_layout(fn)
            check_launch(lp, [size for _, size in layout], candidate)
            values = []
            for i, (ref, (_, size)) in enumerate(zip(lp.args, layout)):
                if ref.kind in ("buffer", "scratch"):
                    ptr = buffers[ref.name].ptr if ref.kind == "buffer" else scratch[ref.name][0].ptr
                    values.append(struct.pack("<Q", ptr))
                elif ref.kind == "tensormap":
                    values.append(tmaps[ref.name])
                else:
                    values.append(scalar_bytes(ref.value, ref.ctype, size, f"argument {i + 1}"))
            if lp.smem > 48 * 1024:
                gpu.set_dynamic_smem(fn, lp.smem)
            prepared.launches.append((fn, lp, PackedParams(values)))
        return prepared

    def release(self, prepared: Prepared):
        for b in prepared.buffers.values():
            self.gpu.free(b)
        for b, _, _ in prepared.scratch.values():
            self.gpu.free(b)

    def reset_outputs(self, task: Task, prepared: Prepared, inputs: dict[str, np.ndarray]):
        gpu = self.gpu
        for a in task.args:
            if not a.is_buffer:
                continue
            if a.role == "out":
                gpu.fill(prepared.buffers[a.name], a.dtype, a.dtype.poison)
            else:
                gpu.upload(prepared.buffers[a.name], inputs[a.name])
        for buf, dt, init in prepared.scratch.values():
            gpu.fill(buf, dt, 0 if init == "zero" else dt.poison)

    def launch_all(self, prepared: Prepared):
        for fn, lp, params in prepared.launches:
            self.gpu.launch(fn, lp.grid, lp.block, lp.smem, params.address, lp.cluster)

    @staticmethod
    def _case_size(case) -> int:
        inputs, expected, _ = case
        return sum(arr.nbytes for arr in (*inputs.values(), *expected.values()))

    def keep_cases(self, seeds) -> None:
        """Forget the cases of seeds a request does not use: seeds are fresh per check or bench, so older cases would
        only hold memory for the worker's lifetime (a whole tuning run)."""
        keep = set(seeds)
        for key in [k for k in self._cases if k[3] not in keep]:
            self._case_bytes -= self._case_size(self._cases.pop(key))

    def case(self, task: Task, shape: Shape, seed: int):
        """(inputs, expected outputs, reference milliseconds) for one seed; read-only arrays, cached while they fit."""
        key = (str(task.path), task.name, shape.label, seed)
        if key in self._cases:
            self._cases.move_to_end(key)
            return self._cases[key]
        t0 = time.perf_counter()
        if is_torch_task(task):  # the problem's own get_inputs() and forward, on the GPU
            inputs, expected = torch_reference.case(task, shape, seed)
        else:
            inputs = generate(task, shape, seed)
            expected = reference.call(task, shape, inputs)
        entry = (inputs, expected, (time.perf_counter() - t0) * 1e3)
        for arr in (*inputs.values(), *expected.values()):
            arr.flags.writeable = False
        size = self._case_size(entry)
        if size <= self._case_limit:
            self._cases[key] = entry
            self._case_bytes += size
            while self._case_bytes > self._case_limit:
                self._case_bytes -= self._case_size(self._cases.popitem(last=False)[1])
        return entry

    # --- one check -----------------------------------------------------------------------------------------------------
    def check_shape(self, task: Task, shape: Shape, cubin: bytes, plan: RunPlan, seeds: list[int], candidate: str,
                    phase) -> dict:
        """Run ``len(seeds)`` trials with fresh inputs; return per-trial figures and Diagnostics."""
        prepared = self.prepare(task, shape, cubin, plan, candidate)
        trials, diags = [], []
        try:
            for seed in seeds:
                phase("reference")
                inputs, expected, ref_ms = self.case(task, shape, seed)
                self.reset_outputs(task, prepared, inputs)
                phase("kernel")
                self.launch_all(prepared)
                self.gpu.synchronize()
                phase("compare")
                reports, mutated = [], []
                for a in task.args:
                    if not a.is_buffer:
                        continue
                    host = np.empty(task.shape_of(a, shape), dtype=a.dtype.storage)
                    self.gpu.download(prepared.buffers[a.name], host)
                    if a.is_output:
                        rep = compare_output(a.name, host, a.dtype, expected[a.name], task.tolerances(a))
                        reports.append(rep)
                        diags += diagnose(rep, f"{shape.label} (seed {seed})", candidate)
                    else:
                        n, first = mutated_inputs(inputs[a.name], host)
                        if n:
                            mutated.append({"arg": a.name, "changed": n, "first": first})
                            diags.append(RULES["check.input-mutated"].diag(
                                f"input {a.name} was modified by the kernel at {shape.label}: {n} elements changed "
                                f"(first at {first}); inputs are read-only unless the task declares them inout",
                                Location(candidate, 1, role="candidate"), witness={"shape": shape.label, "index": first}))
                trials.append({"seed": seed, "reference_ms": round(ref_ms, 3),
                               "outputs": [r.to_dict() for r in reports], "mutated": mutated})
                if diags:
                    break  # one failing trial is enough evidence
        finally:
            self.release(prepared)
        return {"shape": shape.label, "timed": shape.timed, "trials": trials,
                "diagnostics": [d.to_dict() for d in diags], "ok": not diags}
