"""A task's CUDA reference (``reference_cuda`` in task.toml): compiled by the parent like the check kernels, its
launch lines resolved per shape, and sent with each check and timing request that checks on the GPU. The worker runs
it on the case's inputs into zeroed float64 outputs (``kopt.worker.cases``): no CuPy import, no host round trip,
a cubin from kopt's compile cache."""
from __future__ import annotations

from .build import build
from .errors import CompileError, InputError, KoptError
from .protocol import ReferenceKernels
from .task import Task


def for_request(task: Task, arch: str, shapes, helpers) -> ReferenceKernels | None:
    """The task's CUDA reference for ``shapes`` at ``arch``; None when the task has none or the check runs on the
    host (``helpers`` None). A reference that does not compile or resolve is the task's error (InputError)."""
    if task.reference_cuda is None or helpers is None:
        return None
    return build_reference(task, arch, shapes)


def build_reference(task: Task, arch: str, shapes) -> ReferenceKernels:
    """The task's CUDA reference compiled for ``arch`` and resolved at ``shapes``; InputError when it cannot be."""
    where = f"task {task.name}: reference_cuda {task.reference_cuda.name}"
    if any(a.role == "inout" for a in task.args):
        raise InputError(f"{where}: a CUDA reference needs separate inputs and outputs; this task has an inout "
                         f"argument (leave reference_cuda out: the reference function runs instead)")
    try:
        b = build(task, task.reference_cuda, arch=arch)
        plans = {s.label: b.plan(s) for s in shapes}
    except CompileError as exc:
        raise InputError(f"{where} does not compile: {exc.message}", diagnostics=exc.diagnostics) from exc
    except KoptError as exc:
        raise InputError(f"{where}: {exc.message}") from exc
    for plan in plans.values():
        if plan.scratch or plan.tensormaps:
            raise InputError(f"{where}: a CUDA reference takes the task's buffers and values only (no scratch or "
                             f"tensormap declarations)")
    return ReferenceKernels(b.artifact.cubin, plans)
