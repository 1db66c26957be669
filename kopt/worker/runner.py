"""Runs a candidate's launches on the GPU and checks its outputs (executed inside the worker process)."""
from __future__ import annotations

import struct
import time
from dataclasses import dataclass, field

import numpy as np

from ..diagnostic import Location
from ..dtypes import DType, dtype
from ..params import PackedParams, pack_launch
from ..plan import LaunchPlan, RunPlan
from ..rules import RULES
from ..task import Shape, Task
from .cases import Case, CaseCache
from .compare import OutputReport, box, compare_output, diagnose, mutated_inputs, report
from .device_check import DeviceChecks
from .session import DeviceBuffer, GpuSession


@dataclass
class Prepared:
    """Device state for one shape: buffers, scratch, tensor maps, and functions with packed parameters."""

    buffers: dict[str, DeviceBuffer]
    scratch: dict[str, tuple[DeviceBuffer, DType, str]]
    launches: list[tuple[object, LaunchPlan, PackedParams]] = field(default_factory=list)


class CheckRunner:
    def __init__(self, gpu: GpuSession | None):
        self.gpu = gpu
        self.checks: DeviceChecks | None = None  # the GPU path, once a request brings the check kernels
        self.checks_note: str | None = None
        self.cases = CaseCache(gpu, None)

    def use_helpers(self, helpers, reference=None) -> None:
        """Check on the GPU with ``helpers`` (``kopt.protocol.HelperKernels``), or on the host when None; with the
        task's CUDA reference (``kopt.protocol.ReferenceKernels``) when the request brings one. A change of path
        forgets the cached cases (they live on one side)."""
        if (helpers is not None and self.checks is not None and self.checks.helpers == helpers) or \
                (helpers is None and self.checks is None):
            self.cases.reference = reference
            return
        self.checks, self.checks_note = None, None
        if helpers is not None:
            try:
                self.checks = DeviceChecks(self.gpu, helpers)
            except Exception as exc:  # the host path still checks; the verdict says why
                self.checks_note = f"checking on the host: the check kernels did not load ({type(exc).__name__}: {exc})"
        self.cases = CaseCache(self.gpu, self.checks)
        self.cases.reference = reference

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
        def arg_bytes(ref) -> bytes:
            if ref.kind == "tensormap":
                return tmaps[ref.name]
            return struct.pack("<Q", buffers[ref.name].ptr if ref.kind == "buffer" else scratch[ref.name][0].ptr)

        for lp in plan.launches:
            fn = gpu.function(module, lp.lowered)
            params = pack_launch(lp, [size for _, size in gpu.param_layout(fn)], candidate, arg_bytes)
            if lp.smem > 48 * 1024:
                gpu.set_dynamic_smem(fn, lp.smem)
            prepared.launches.append((fn, lp, params))
        return prepared

    def release(self, prepared: Prepared):
        for b in prepared.buffers.values():
            self.gpu.free(b)
        for b, _, _ in prepared.scratch.values():
            self.gpu.free(b)

    def reset_outputs(self, task: Task, prepared: Prepared, case: Case):
        gpu = self.gpu
        for a in task.args:
            if not a.is_buffer:
                continue
            if a.role == "out":
                gpu.fill(prepared.buffers[a.name], a.dtype, a.dtype.poison)
            elif case.on_device:
                gpu.copy(prepared.buffers[a.name], case.inputs[a.name])
            else:
                gpu.upload(prepared.buffers[a.name], case.inputs[a.name])
        for buf, dt, init in prepared.scratch.values():
            gpu.fill(buf, dt, 0 if init == "zero" else dt.poison)

    def launch_all(self, prepared: Prepared):
        for fn, lp, params in prepared.launches:
            self.gpu.launch(fn, lp.grid, lp.block, lp.smem, params.address, lp.cluster)

    def keep_cases(self, seeds) -> None:
        self.cases.keep_seeds(seeds)

    def case(self, task: Task, shape: Shape, seed: int) -> Case:
        """The inputs and expected outputs of one seed (made once while they fit in the cache)."""
        return self.cases.get(task, shape, seed)

    def compare_outputs(self, task: Task, shape: Shape, prepared: Prepared, case: Case, where: str,
                        candidate: str) -> tuple[list[OutputReport], list[dict], list]:
        """(a report per output, the inputs the kernel changed, Diagnostics) for the outputs a run left in
        ``prepared``; on the device when the case is there, only figures cross to the host."""
        reports, mutated, diags = [], [], []
        for a in task.args:
            if not a.is_buffer:
                continue
            buf, dims = prepared.buffers[a.name], tuple(task.shape_of(a, shape))
            n = int(np.prod(dims))
            if a.is_output:
                if case.on_device:
                    totals = self.checks.compare(buf, a.dtype, case.expected[a.name], n, task.tolerances(a))
                    region = None
                    if totals.unwritten:  # the failure path: the region's bounding box on the host
                        got, exp = self._download(buf, dims, a.dtype.storage), \
                            self._download(case.expected[a.name], dims, np.float64)
                        region = box(got, a.dtype, exp)
                    rep = report(a.name, dims, a.dtype, totals, task.tolerances(a), region)
                else:
                    rep = compare_output(a.name, self._download(buf, dims, a.dtype.storage), a.dtype,
                                         case.expected[a.name], task.tolerances(a))
                reports.append(rep)
                diags += diagnose(rep, where, candidate)
            else:
                if case.on_device:
                    count, first = self.checks.differences(buf, case.inputs[a.name], a.dtype.itemsize, n)
                    first = tuple(int(i) for i in np.unravel_index(first, dims)) if count else None
                else:
                    count, first = mutated_inputs(case.inputs[a.name], self._download(buf, dims, a.dtype.storage))
                if count:
                    mutated.append({"arg": a.name, "changed": count, "first": first})
                    diags.append(RULES["check.input-mutated"].diag(
                        f"input {a.name} was modified by the kernel at {where}: {count} elements changed "
                        f"(first at {first}); inputs are read-only unless the task declares them inout",
                        Location(candidate, 1, role="candidate"), witness={"shape": shape.label, "index": first}))
        return reports, mutated, diags

    def _download(self, buf, dims: tuple, dtype) -> np.ndarray:
        host = np.empty(dims, dtype)
        self.gpu.download(buf, host)
        return host

    # --- one check -----------------------------------------------------------------------------------------------------
    def check_shape(self, task: Task, shape: Shape, cubin: bytes, plan: RunPlan, seeds: list[int], candidate: str,
                    phase) -> dict:
        """Run ``len(seeds)`` trials with fresh inputs; return per-trial figures and Diagnostics."""
        prepared = self.prepare(task, shape, cubin, plan, candidate)
        trials, diags = [], []
        ms = {"inputs": 0.0, "reference": 0.0, "launch": 0.0, "compare": 0.0}
        case = None
        try:
            for seed in seeds:
                phase("reference")
                case = self.case(task, shape, seed)
                for k, v in case.ms.items():
                    ms[k] += v
                self.reset_outputs(task, prepared, case)
                phase("kernel")
                t0 = time.perf_counter()
                self.launch_all(prepared)
                self.gpu.synchronize()
                t1 = time.perf_counter()
                phase("compare")
                reports, mutated, found = self.compare_outputs(task, shape, prepared, case,
                                                               f"{shape.label} (seed {seed})", candidate)
                diags += found
                ms["launch"] += (t1 - t0) * 1e3
                ms["compare"] += (time.perf_counter() - t1) * 1e3
                trials.append({"seed": seed, "reference_ms": case.ms["reference"],
                               "outputs": [r.to_dict() for r in reports], "mutated": mutated})
                if diags:
                    break  # one failing trial is enough evidence
        finally:
            self.release(prepared)
        out = {"shape": shape.label, "timed": shape.timed, "trials": trials,
               "diagnostics": [d.to_dict() for d in diags], "ok": not diags,
               "phases_ms": {k: round(v, 3) for k, v in ms.items()},
               "checked_on": "gpu" if case is not None and case.on_device else "cpu",
               "reference_on": case.reference_on if case is not None else None}
        notes = [n for n in (self.checks_note, case.note if case is not None else None) if n]
        if notes:
            out["notes"] = notes
        return out

