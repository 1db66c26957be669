"""Static hazard analysis of CUDA kernels: ``kopt.analyze(source)`` -> AnalysisResult (Diagnostics + assumptions).

The analyzers live in the ``analyzers`` package (front end, kernel model, passes); this is the public entry, and the
one place a candidate's configuration and launch geometry are worked out for them. The solver and front ends load
on the first call, so ``import kopt`` stays light.
"""
from __future__ import annotations

import math

from pathlib import Path

from analyzers.result import AnalysisResult

from .annotations import lines
from .archs import device_constants
from . import device as _gpu  # noqa: F401  (installs the present GPU's own limits and constants)
from .candidate import Candidate
from .errors import InputError
from .expr import try_evaluate
from .geometry import environment, launch_geometry
from .task import Task
from .source import read_source

__all__ = ["analyze", "AnalysisResult"]


def analyze(source: str | Path | Candidate, *, config: dict | None = None, block=None, grid=None, defines=None,
            kernels=None, path: str | None = None, include_dirs=(), frontend: str = "auto",
            assume=(), task=None, device: dict | None = None) -> AnalysisResult:
    """Analyze a .cu file (path), CUDA source text or a Candidate for races, barrier divergence, missing syncs,
    out-of-bounds shared indexing, bank conflicts, uncoalesced access and async-copy misuse.

    A candidate (a source with ``// kopt:`` lines) is analyzed at its default tunables under ``config`` and the
    ``-D`` values in ``defines`` ({"NAME": "value" | None}), each kernel under the launch geometry kopt resolves
    for it. ``block``/``grid``: (x, y, z) tuples for kernels no launch annotation describes; ``kernels``: names to
    analyze (``"gemm<128,64>"`` binds template arguments); ``path``: the name of source text in diagnostics;
    ``include_dirs``: header folders (after a candidate's ``// kopt: include`` ones); ``frontend``: "auto", "libclang" or "tree-sitter". ``assume``: expressions over kernel parameter names
    and struct parameters' fields (``"n >= 1"``, ``"info.halo >= 1"``) that constrain every finding, like the file's ``// kopt: assume`` lines. ``result.assumed`` states
    the launch configuration (and assumptions) each kernel was analyzed under, ``result.launches`` the same as data.
    ``task`` (a Task or its folder; a candidate's own ``// kopt: task`` is not looked up): the candidate is analyzed
    once per task shape, under that shape's launch geometry with its scalar arguments' values as assumptions.
    Launch expressions see the device constants of the candidate's arch (else this GPU's, else sm_90's), with
    ``device`` ({"num_sms": 114, ...}) overriding them. Every ``when`` alternative that may apply is analyzed; a
    finding under one of several alternatives names its launch line.
    """
    from analyzers.driver import analyze as _analyze

    if isinstance(source, Candidate):
        cand, target = source, source.path or source.source
    else:
        text, _, file = read_source(source)
        # a plain source may carry `// kopt: assume` lines without being a candidate
        cand = Candidate.load(source, name=path) if any(w != "assume" for w, _ in lines(text)) else None
        target = file or text
    user = dict(defines or {})
    launches = None
    if cand is not None:
        cfg = {**cand.config_for(user), **(config or {})}
        user = cand.compile_defines(cfg, user)
        constants = device_constants(cand.arch, device)
        launches = launch_geometry(cand, cfg, defines=defines, device=constants)
    dirs = [*(cand.include_dirs if cand is not None else ()), *(str(d) for d in include_dirs)]
    common = dict(block=_dims(block), grid=_dims(grid), defines=user, kernels=kernels, include_dirs=dirs, path=path,
                  frontend=frontend, assume=assume)
    if task is None:
        res = _analyze(target, launches=launches, **common)
        res.diagnostics = [d for g in launches or () for d in g.problems] + res.diagnostics
        return res
    if cand is None:
        raise InputError("analyzing for a task needs a candidate: a source with `// kopt: launch` lines")
    if not isinstance(task, Task):
        task = Task.load(task)
    merged = None
    for shape in task.shapes:
        geos = launch_geometry(cand, cfg, shape=shape.symbols, defines=defines, device=constants)
        res = _analyze(target, launches=geos, launch_args=_arg_values(cand, cfg, task, shape, geos, constants),
                       launch_buffers=_arg_buffers(cand, task, shape, geos), **common)
        res.diagnostics = [d for g in geos for d in g.problems] + res.diagnostics
        res.assumed = "\n".join(f"[{shape.label}] {line}" for line in res.assumed.splitlines())
        merged = res if merged is None else _merge(merged, res)
    return merged


def _arg_values(cand: Candidate, cfg: dict, task: Task, shape, geos, constants) -> list[dict[int, int]]:
    """Per launch geometry: the integer value of each argument the shape fixes (size symbols, scalar task
    arguments)."""
    env = environment(cand, cfg, shape.symbols, device=constants)
    env.update({a.name: task.scalar(a, shape) for a in task.args if a.role == "scalar" and a.value is not None})
    out = []
    for decl in (cand.launches[g.index] for g in geos):
        vals = {i: try_evaluate(str(a), env) for i, a in enumerate(decl.args)}
        out.append({i: v for i, v in vals.items() if isinstance(v, int) and not isinstance(v, bool)})
    return out


def _arg_buffers(cand: Candidate, task: Task, shape, geos) -> list[dict[int, int]]:
    """Per launch geometry: the bytes of the task buffer each argument names (``args=(y, x, cols)``: positions 0 and 1
    when x and y are tensors of the task)."""
    tensors = {a.name: math.prod(task.shape_of(a, shape)) * a.dtype.itemsize for a in task.args if a.shape is not None}
    return [{i: tensors[str(a).strip()] for i, a in enumerate(cand.launches[g.index].args) if str(a).strip() in tensors}
            for g in geos]


def _merge(a: AnalysisResult, b: AnalysisResult) -> AnalysisResult:
    """One result over several shapes: a finding at the same place under the same rule is reported once."""
    seen = {(d.rule, tuple(d.locations)) for d in a.diagnostics}
    a.diagnostics += [d for d in b.diagnostics if (d.rule, tuple(d.locations)) not in seen]
    a.assumed = "\n".join(filter(None, [a.assumed, b.assumed]))
    a.launches += b.launches
    a.elapsed_ms += b.elapsed_ms
    a.kernels = list(dict.fromkeys(a.kernels + b.kernels))
    return a


def _dims(d):
    if d is None:
        return None
    if isinstance(d, int):
        return (d, 1, 1)
    d = tuple(int(x) for x in d)
    return d + (1,) * (3 - len(d))
