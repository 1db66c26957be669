"""Resolve a candidate's launch declarations against a task shape and tunable values into concrete launches."""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from . import expr
from .candidate import Candidate
from .archs import DeviceConstants, device_constants
from .errors import InputError
from .geometry import environment, evaluate, first_error, launch_geometry
from .task import Shape, Task

_CAST = re.compile(r"^(f32|f64|i32|i64|u32|u64)\((.*)\)$")


@dataclass
class ArgRef:
    kind: str  # "buffer" (task arg), "scratch", "tensormap", "value"
    name: str | None = None
    value: float | int | None = None
    ctype: str | None = None  # for values: explicit type, else sized from the kernel's parameter


@dataclass
class LaunchPlan:
    kernel: str
    lowered: str
    grid: tuple[int, int, int]
    block: tuple[int, int, int]
    smem: int
    cluster: tuple[int, int, int] | None
    args: list[ArgRef]
    line: int = 0
    stream: int = 0


@dataclass
class ScratchPlan:
    name: str
    dtype: str
    shape: tuple[int, ...]
    init: str


@dataclass
class TensorMapPlan:
    name: str
    arg: str
    dtype: str
    shape: tuple[int, ...]  # the argument's shape, outermost first
    box: tuple[int, ...]
    swizzle: str
    interleave: str
    l2promotion: str
    oob: str


@dataclass
class RunPlan:
    shape: dict
    launches: list[LaunchPlan]
    scratch: list[ScratchPlan] = field(default_factory=list)
    tensormaps: list[TensorMapPlan] = field(default_factory=list)


def resolve(task: Task, cand: Candidate, shape: Shape, config: dict, lowered: dict[str, str], arch: str,
            device: DeviceConstants | None = None) -> RunPlan:
    """Concrete launches for one shape (of ``when`` alternatives, the line that applies). ``lowered`` maps each
    kernel name expression to its cubin symbol. ``device``: the device constants (default: the GPU's when it is of
    ``arch``, else the architecture's defaults)."""
    device = device if device is not None else device_constants(arch)
    geometries = launch_geometry(cand, config, shape.symbols, arch=arch, device=device)
    error = first_error(geometries)
    if error is not None:
        raise error
    env = environment(cand, config, shape.symbols, device=device)
    task_args = {a.name: a for a in task.args}
    scratch = {s.name: s for s in cand.scratch}
    tmaps = {t.name: t for t in cand.tensormaps}

    scratch_plans = []
    for s in cand.scratch:
        dims = tuple(expr.positive_int(evaluate(cand, d, env, f"scratch {s.name}"), f"scratch {s.name} dimension",
                                       str(d)) for d in s.shape)
        scratch_plans.append(ScratchPlan(s.name, s.dtype.name, dims, s.init))
    tmap_plans = []
    for t in cand.tensormaps:
        if t.arg not in task_args or not task_args[t.arg].is_buffer:
            raise InputError(f"{cand.name}: tensormap {t.name} refers to {t.arg!r}, which is not a buffer argument "
                             f"of task {task.name}")
        a = task_args[t.arg]
        arg_shape = task.shape_of(a, shape)
        box = tuple(expr.positive_int(evaluate(cand, b, env, f"tensormap {t.name} box"), f"tensormap {t.name} box",
                                      str(b)) for b in t.box)
        if len(box) != len(arg_shape):
            raise InputError(f"{cand.name}: tensormap {t.name} box has {len(box)} dimensions but {t.arg} has "
                             f"{len(arg_shape)}")
        if any(b > 256 for b in box):
            raise InputError(f"{cand.name}: tensormap {t.name} box {box}: each box dimension must be at most 256")
        tmap_plans.append(TensorMapPlan(t.name, t.arg, a.dtype.name, arg_shape, box, t.swizzle, t.interleave,
                                        t.l2promotion, t.oob))

    launches = []
    for g in geometries:
        decl = cand.launches[g.index]
        args = []
        for item in decl.args:
            m = _CAST.match(str(item).replace(" ", ""))
            if item in task_args:
                a = task_args[item]
                if a.is_buffer:
                    args.append(ArgRef("buffer", str(item)))
                else:
                    args.append(ArgRef("value", str(item), task.scalar(a, shape), a.dtype.name))
            elif item in scratch:
                args.append(ArgRef("scratch", str(item)))
            elif item in tmaps:
                args.append(ArgRef("tensormap", str(item)))
            else:
                value = evaluate(cand, m.group(2) if m else item, env, f"argument {str(item)!r}")
                args.append(ArgRef("value", str(item), value, m.group(1) if m else None))
        launches.append(LaunchPlan(g.kernel, lowered[g.kernel], g.grid, g.block, g.smem, g.cluster, args, decl.line,
                                   decl.stream))
    return RunPlan(dict(shape.symbols), launches, scratch_plans, tmap_plans)
