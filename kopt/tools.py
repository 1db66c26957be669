"""The tools kopt offers agents, defined once: the MCP server and kopt's own agent loop both expose these.

Each tool takes JSON-friendly arguments and returns a compact dict sized for a model's context (diagnostic lists
and tables, truncated), never multi-page logs. Expected failures come back as ``{"ok": False, "error": ...,
"diagnostics": [...]}`` with at least one Diagnostic.

What the tools may touch: they read files of the workspace, write only candidate sources (``.cu``, ``.cuh``) there, and
never write a task. Tasks are kopt's bundled bench tasks and those the person who started the tools named
(``kopt mcp --task DIR``): no tool loads a task, and so imports a reference, from a folder the tools can write.
"""
from __future__ import annotations

import functools
import os
from collections import Counter
from pathlib import Path
from typing import TYPE_CHECKING, Optional

from .errors import GpuUnavailableError, InputError, KoptError, ToolchainError
from .resources import bench_tasks
from .workspace import Workspace

if TYPE_CHECKING:
    from .measurement import Evaluation

MAX_DIAGNOSTICS = 20
MAX_SOURCE_LINES = 60
MAX_FILE_BYTES = 256 * 1024
CANDIDATE_SUFFIXES = (".cu", ".cuh")
# Seconds of sampling per timed entry in ``evaluate``: the agent waits on every attempt, so less than the harness's
# default.
EVALUATE_MAX_TIME = 5.0


def _tool(fn):
    """Expected errors become a result the model can read and act on."""

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        try:
            return {"ok": True, **fn(*args, **kwargs)}
        except KoptError as exc:
            return failure(exc)

    return wrapper


def failure(exc: KoptError) -> dict:
    """A tool's failure result: the message and the error's Diagnostics, or one that classifies the error."""
    from .rules import RULES

    diags = exc.diagnostics or [RULES[_FAILURE_RULES.get(type(exc), "tool.refused")].diag(exc.message)]
    return {"ok": False, "error": exc.message, "diagnostics": [d.to_dict() for d in diags[:MAX_DIAGNOSTICS]]}


_FAILURE_RULES = {GpuUnavailableError: "runtime.no-gpu", ToolchainError: "tool.toolchain"}


class Toolbox:
    """Tools bound to one workspace. Method names are the tool names; docstrings are their descriptions."""

    NAMES = ("kb_search", "kb_show", "read_candidate", "write_candidate", "list_tasks", "compile", "explain", "check",
             "validate", "evaluate", "optimize", "run_history", "profile", "sanitize")

    def __init__(self, workspace: str | Path, tasks=()):
        self.ws = Workspace(workspace)
        # tasks the person who started the tools named (``kopt mcp --task DIR``), besides kopt's bench tasks: the
        # only ones any tool loads, and so the only references any tool imports
        self.trusted: dict[Path, str] = {}
        for t in tasks:
            self.add_task(t)

    def add_task(self, task) -> None:
        """Trust a task directory (or a loaded Task): the tools may evaluate against it, never write into it."""
        from .task import Task

        t = task if isinstance(task, Task) else Task.load(task)
        self.trusted[t.path.resolve()] = t.name

    def tools(self) -> list:
        return [getattr(self, n) for n in self.NAMES]

    def task_dirs(self) -> list[Path]:
        """Every task the tools may use: the trusted ones, then the bundled bench tasks."""
        return list(self.trusted) + sorted(p.parent for p in bench_tasks().glob("*/task.toml"))

    def _task_dir(self, task: str) -> Path:
        """A task given when the tools were started (by its name, folder name or path) or a bench task by name."""
        for d, name in self.trusted.items():
            if task in (name, d.name, str(d)) or Path(task).resolve() in (d, d / "task.toml"):
                return d
        bundled = bench_tasks() / task
        if "/" not in task and (bundled / "task.toml").exists():
            return bundled
        raise InputError(f"no task {task!r}: a task is a bench task (see list_tasks) or one this server was started "
                         f"with (kopt mcp --task DIR); tasks are never loaded from files the tools can write")

    def _task(self, task: str):
        from .task import Task

        return Task.load(self._task_dir(task))

    @_tool
    def kb_search(self, query: str, arch: Optional[str] = None, tags: Optional[list[str]] = None,
                  limit: int = 8) -> dict:
        """Search kopt's knowledge base (verified kernels, hardware and ISA notes, indexed corpora such as CUTLASS)
        by words, with optional arch and technique-tag filters (e.g. cp.async, wgmma, tma, shuffle)."""
        from . import kb

        return {"hits": [h.to_dict() for h in kb.search(query, arch=arch, tags=tags, limit=min(limit, 20))]}

    @_tool
    def kb_show(self, id: str) -> dict:
        """One knowledge-base entry by id (from kb_search): its source or note text, tags, arch and metadata."""
        from . import kb

        entry = kb.show(id)
        if len(entry["text"]) > MAX_FILE_BYTES // 4:
            entry["text"] = entry["text"][:MAX_FILE_BYTES // 4] + "\n... (truncated)"
        return entry

    @_tool
    def run_history(self, limit: int = 20) -> dict:
        """What was tried in this workspace's runs and how each scored (newest last): time summed over the timed
        shapes, and speedup over the baseline combined over shapes by the run's aggregate (geomean or worst)."""
        from .runstore import RunStore

        store = RunStore(self.ws.root / ".kopt" / "runs.db")
        rows = []
        for run in store.list_runs()[-3:]:
            for e in store.evaluations(run["id"])[-limit:]:
                rows.append({"run": run["id"], "candidate": e["path"] or e["config"], "status": e["status"],
                             "time_us": e["time_us"], "speedup": e["speedup"], "aggregate": run["aggregate"],
                             "proposer": e["proposer"]})
        return {"evaluations": rows[-limit:]}

    @_tool
    def read_candidate(self, path: str) -> dict:
        """Read a file of the workspace (a candidate .cu, a task file)."""
        p = self.ws.resolve(path)
        if not p.is_file():
            from .errors import InputError

            raise InputError(f"{path} is not a file in the workspace")
        data = p.read_bytes()[:MAX_FILE_BYTES]
        return {"path": str(p.relative_to(self.ws.root)), "text": data.decode(errors="replace"),
                "truncated": p.stat().st_size > MAX_FILE_BYTES}

    @_tool
    def write_candidate(self, path: str, text: str) -> dict:
        """Write a candidate source (.cu or .cuh) inside the workspace, creating folders. Anything else is refused:
        other file types, paths outside the workspace or through symbolic links, kopt's .kopt folder, task
        folders."""
        p = self._candidate_target(path)
        p.parent.mkdir(parents=True, exist_ok=True)
        # a fresh file moved into place: an existing hard link to another file is replaced, never written through
        tmp = p.with_name(f".{p.name}.{os.getpid()}.tmp")
        tmp.write_text(text)
        os.replace(tmp, p)
        return {"path": str(p.relative_to(self.ws.root)), "bytes": len(text.encode())}

    def _candidate_target(self, path: str) -> Path:
        """Where ``write_candidate`` may write ``path``: a .cu/.cuh file of the workspace, reached without symbolic
        links, outside ``.kopt`` (the run store) and outside every task folder (tasks are read-only to the tools)."""
        p = self.ws.resolve(path)
        lexical = self.ws.root / path  # an absolute path stays itself
        for q in (lexical, *lexical.parents):
            if q in (self.ws.root, Path(q.anchor)):
                break
            if q.is_symlink():
                raise InputError(f"{path}: {q.name} is a symbolic link; refused")
        if p.suffix not in CANDIDATE_SUFFIXES:
            raise InputError(f"{path}: write_candidate writes only candidate sources ({', '.join(CANDIDATE_SUFFIXES)})"
                             f"; refused")
        rel = p.relative_to(self.ws.root)
        if rel.parts and rel.parts[0] == ".kopt":
            raise InputError(f"{path}: .kopt holds kopt's run store and results; refused")
        for d in self.task_dirs():
            if p.parent == d.resolve() or d.resolve() in p.parents:
                raise InputError(f"{path}: inside the task folder {d.name}, which the tools may not change; refused")
        return p

    @_tool
    def list_tasks(self) -> dict:
        """Tasks available: the ones this server was started with and kopt's bench tasks, with their timed
        shapes."""
        from .task import Task

        out = []
        for d in self.task_dirs():
            try:
                t = Task.load(d)
                out.append({"task": self.trusted.get(d.resolve(), d.name), "description": t.description[:160],
                            "timed": [s.label for s in t.timed_shapes]})
            except KoptError as exc:
                out.append({"task": d.name, "error": exc.message})
        return {"tasks": out}

    @_tool
    def compile(self, path: str, arch: Optional[str] = None, defines: Optional[dict[str, str]] = None) -> dict:
        """Compile a candidate with NVRTC: per-kernel registers, shared memory, stack, spills and compiler warnings,
        and each launch's geometry (a candidate compiles at its default tunables under ``defines``)."""
        from .explain import compile_file

        art, launches = compile_file(self.ws.resolve(path), arch=arch, defines=defines)
        return {"arch": art.arch, "kernels": {n: k.resources.to_dict() for n, k in art.kernels.items()},
                "launches": [g.to_dict() for g in launches],
                "warnings": [d.to_dict() for d in (art.diagnostics + [p for g in launches for p in g.problems])
                             [:MAX_DIAGNOSTICS]]}

    @_tool
    def explain(self, path: str, kernel: Optional[str] = None, arch: Optional[str] = None,
                block: Optional[int] = None, smem: Optional[int] = None,
                defines: Optional[dict[str, str]] = None) -> dict:
        """Lowering report: instruction classes and load/store widths, spills, tensor-core use, occupancy (at
        ``block`` threads and ``smem`` dynamic shared-memory bytes if given, else the candidate's launch annotation,
        else 256 threads and none: a kernel needs no annotation), and the source lines that produced the most
        instructions (with their SASS opcodes). ``kernel`` may name a template instantiation, e.g. 'gemm<128,64>'."""
        from .explain import explain

        ex = explain(self.ws.resolve(path), arch=arch, block=block, smem=smem, defines=defines,
                     kernels=[kernel] if kernel else None)
        art = ex.artifact
        names = [art.kernel(kernel).name] if kernel else list(ex.kernels)
        src = art.source.splitlines()
        out = {}
        for name in names:
            k = ex.kernels[name]
            hot = sorted(k.lowering.by_line.items(), key=lambda kv: -len(kv[1]))[:MAX_SOURCE_LINES // 3]
            out[name] = {**k.lowering.summary(), "occupancy": k.occupancy and {**k.occupancy.to_dict(),
                                                                               "geometry_from": k.geometry_from},
                         "hot_lines": [{"line": ln, "source": src[ln - 1].strip()[:120] if 0 < ln <= len(src) else "",
                                        "sass": dict(Counter(insns).most_common(8))}
                                       for (f, ln), insns in hot if Path(f).name == Path(art.source_name).name]}
        return {"arch": art.arch, "kernels": out, "launches": [g.to_dict() for g in ex.launches]}

    @_tool
    def check(self, path: str, block: Optional[str] = None, grid: Optional[str] = None,
              defines: Optional[dict[str, str]] = None, kernel: Optional[str] = None,
              task: Optional[str] = None) -> dict:
        """Static analysis for races, barrier divergence, missing syncs, out-of-bounds shared indexing, bank
        conflicts, uncoalesced access and Hopper async hazards, with the operations responsible. ``block`` and
        ``grid`` ("X,Y,Z") for kernels without a launch annotation; ``kernel`` may name a template instantiation;
        ``task`` (a bench task name or a task the server was started with): analyze the candidate under each of the
        task's shapes, its scalars as assumptions and its buffers' sizes bounding global accesses."""
        from .analyze import analyze
        from .expr import parse_dims

        res = analyze(self.ws.resolve(path), block=parse_dims(block, "block"), grid=parse_dims(grid, "grid"),
                      defines=defines, kernels=[kernel] if kernel else None,
                      task=self._task_dir(task) if task else None)
        return {"assumed": res.assumed, "launches": res.launches, "errors": sum(d.is_error for d in res.diagnostics),
                "diagnostics": [d.to_dict() for d in res.diagnostics[:MAX_DIAGNOSTICS]],
                "truncated": len(res.diagnostics) > MAX_DIAGNOSTICS}

    @_tool
    def validate(self, task: str, paths: Optional[list[str]] = None, arch: Optional[str] = None) -> dict:
        """Check a task and candidates without a GPU: the reference imports and takes the task's arguments, every
        tunable configuration compiles, every launch resolves at every shape within the arch's limits, and argument
        counts and sizes fit the kernels. ``task`` is a bench task name or a task the server was started with."""
        from .validate import validate

        v = validate(self._task_dir(task), [self.ws.resolve(p) for p in paths or []], arch=arch)
        problems = v.problems
        return {"valid": v.ok, "task": v.task, "reference": v.reference,
                "configurations": [{"file": c.file, "checked": len(c.configs),
                                    "compiled": sum(cc.compiled for cc in c.configs)} for c in v.candidates],
                "diagnostics": [d.to_dict() for d in problems[:MAX_DIAGNOSTICS]],
                "truncated": len(problems) > MAX_DIAGNOSTICS}

    def evaluation(self, task: str, path: str, baseline: Optional[str] = None,
                   max_time: float = 5.0, worker=None) -> Evaluation:
        """The Evaluation behind the ``evaluate`` tool (the agent stores it whole). ``worker``: where it runs (an
        evaluator pool's slot; default: a worker of its own)."""
        from .evaluation import bench

        t = self._task(task)
        base = self.ws.resolve(baseline) if baseline else t.baseline
        return bench(t, self.ws.resolve(path), baseline=base, options={"max_time": max_time}, worker=worker)

    @_tool
    def evaluate(self, task: str, path: str, baseline: Optional[str] = None,
                 max_time: float = EVALUATE_MAX_TIME) -> dict:
        """Check a candidate against a task on fresh random inputs, then time it against the baseline (the task's
        by default): medians with 95 % CIs, speedup and verdict, % of roofline. Needs a GPU."""
        return self.evaluation(task, path, baseline, max_time).brief(MAX_DIAGNOSTICS)

    @_tool
    def optimize(self, task: str, path: Optional[str] = None, strategy: str = "exhaustive",
                 budget: Optional[int] = None) -> dict:
        """Autotune a candidate's `// kopt: tune` values on the GPU (default: the task's baseline): every
        configuration is compiled and pruned on the CPU, then checked and timed against the baseline; the run is
        remembered in the workspace's run store and the best candidate written under .kopt/runs/. Needs a GPU."""
        from .optimizer import optimize
        from .runstore import RunStore

        r = optimize(self._task(task), self.ws.resolve(path) if path else None, strategy=strategy, budget=budget,
                     store=RunStore(self.ws.root / ".kopt" / "runs.db"))
        d = r.to_dict()
        d["pruned"] = d["pruned"][:MAX_DIAGNOSTICS]
        if r.best_path:
            d["best_path"] = str(r.best_path.relative_to(self.ws.root))
        return d

    @_tool
    def profile(self, task: str, path: str, shape: Optional[str] = None) -> dict:
        """Profile a candidate under Nsight Compute at one shape (default: the timed one): bottleneck class per
        kernel (memory / compute / latency / launch), speed-of-light %, occupancy and its limiter, top warp stalls,
        DRAM bytes vs the task's work model, hottest source lines, and findings. Needs a GPU and ncu."""
        from .profile import profile

        t = self._task(task)
        p = profile(t, self.ws.resolve(path), shape=t.find_shape(shape)[0] if shape else None)
        d = p.to_dict()
        d["diagnostics"] = d["diagnostics"][:MAX_DIAGNOSTICS]
        return d

    @_tool
    def sanitize(self, task: str, path: str, tool: str = "memcheck", shape: Optional[str] = None) -> dict:
        """Run a candidate under compute-sanitizer (tool: memcheck, racecheck, synccheck, initcheck or all) and
        merge its reports with static analysis: each finding is confirmed, dynamic-only, static-only or unchecked,
        with source lines, threads and blocks. Needs a GPU and compute-sanitizer."""
        from .sanitize import sanitize

        t = self._task(task)
        r = sanitize(t, self.ws.resolve(path), tools=[x.strip() for x in tool.split(",")],
                     shape=t.find_shape(shape)[0] if shape else None)
        d = r.to_dict()
        d["clean"] = d.pop("ok")  # findings are the tool's result, not its failure
        d["truncated"] = len(d["diagnostics"]) > MAX_DIAGNOSTICS
        d["diagnostics"] = d["diagnostics"][:MAX_DIAGNOSTICS]
        return d
