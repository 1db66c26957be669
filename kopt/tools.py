"""The tools kopt offers agents, defined once: the MCP server and kopt's own agent loop both expose these.

Each tool takes JSON-friendly arguments and returns a compact dict sized for a model's context (diagnostic lists
and tables, truncated), never multi-page logs. Expected failures come back as ``{"ok": False, "error": ...}``.
"""
from __future__ import annotations

import functools
from collections import Counter
from pathlib import Path
from typing import TYPE_CHECKING, Optional

from .errors import InputError, KoptError
from .resources import bench_tasks
from .workspace import Workspace

if TYPE_CHECKING:
    from .measurement import Evaluation

MAX_DIAGNOSTICS = 20
MAX_SOURCE_LINES = 60
MAX_FILE_BYTES = 256 * 1024
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
            out = {"ok": False, "error": exc.message}
            if exc.diagnostics:
                out["diagnostics"] = [d.to_dict() for d in exc.diagnostics[:MAX_DIAGNOSTICS]]
            return out

    return wrapper


class Toolbox:
    """Tools bound to one workspace. Method names are the tool names; docstrings are their descriptions."""

    NAMES = ("kb_search", "kb_show", "read_candidate", "write_candidate", "list_tasks", "compile", "explain", "check",
             "validate", "evaluate", "optimize", "run_history", "profile", "sanitize")

    def __init__(self, workspace: str | Path, tasks=()):
        self.ws = Workspace(workspace)
        # tasks the person who started the tools named (``kopt mcp --task DIR``), besides kopt's bench tasks: the
        # only ones whose reference ``validate`` may import
        self.trusted = {Path(t).resolve() for t in tasks}

    def tools(self) -> list:
        return [getattr(self, n) for n in self.NAMES]

    def _task(self, task: str):
        from .task import Task

        local = self.ws.root / task
        if (local / "task.toml").exists() or local.name == "task.toml":
            return Task.load(self.ws.resolve(task))
        bundled = bench_tasks() / task
        if (bundled / "task.toml").exists():
            return Task.load(bundled)
        from .errors import InputError

        raise InputError(f"no task {task!r} in the workspace or among kopt's bench tasks")

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
        """Write a candidate .cu file inside the workspace (creating folders); paths outside it are refused."""
        p = self.ws.resolve(path)
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text)
        return {"path": str(p.relative_to(self.ws.root)), "bytes": len(text.encode())}

    @_tool
    def list_tasks(self) -> dict:
        """Tasks available: those in the workspace and kopt's bench tasks, with their timed shapes."""
        from .task import Task

        found = sorted({p.parent for base in (self.ws.root, bench_tasks()) for p in base.glob("*/task.toml")})
        out = []
        for d in found:
            try:
                t = Task.load(d)
                out.append({"task": d.name, "description": t.description[:160],
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
                block: Optional[int] = None) -> dict:
        """Lowering report: instruction classes and load/store widths, spills, tensor-core use, occupancy (at
        ``block`` threads if given, else the candidate's declared block size; with its declared dynamic shared
        memory), and the source lines that produced the most instructions (with their SASS opcodes)."""
        from .explain import explain

        ex = explain(self.ws.resolve(path), arch=arch, block=block)
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
    def check(self, path: str, block: Optional[str] = None) -> dict:
        """Static analysis for races, barrier divergence, missing syncs, out-of-bounds shared indexing, bank
        conflicts, uncoalesced access and Hopper async hazards, with the operations responsible."""
        from .analyze import analyze
        from .expr import parse_dims

        res = analyze(self.ws.resolve(path), block=parse_dims(block, "block"))
        return {"assumed": res.assumed, "launches": res.launches, "errors": sum(d.is_error for d in res.diagnostics),
                "diagnostics": [d.to_dict() for d in res.diagnostics[:MAX_DIAGNOSTICS]],
                "truncated": len(res.diagnostics) > MAX_DIAGNOSTICS}

    @_tool
    def validate(self, task: str, paths: Optional[list[str]] = None, arch: Optional[str] = None) -> dict:
        """Check a task and candidates without a GPU: the reference imports and takes the task's arguments, every
        tunable configuration compiles, every launch resolves at every shape within the arch's limits, and argument
        counts and sizes fit the kernels. ``task`` is a bench task name or a task the server was started with."""
        from .validate import validate

        v = validate(self._trusted_task(task), [self.ws.resolve(p) for p in paths or []], arch=arch)
        problems = v.problems
        return {"valid": v.ok, "task": v.task, "reference": v.reference,
                "configurations": [{"file": c.file, "checked": len(c.configs),
                                    "compiled": sum(cc.compiled for cc in c.configs)} for c in v.candidates],
                "diagnostics": [d.to_dict() for d in problems[:MAX_DIAGNOSTICS]],
                "truncated": len(problems) > MAX_DIAGNOSTICS}

    def _trusted_task(self, task: str) -> Path:
        """A bench task by name, or a task given when the tools were started (by name or path); never one written
        through the tools, whose reference would be code an agent wrote."""
        for t in self.trusted:
            if task in (t.name, str(t)) or Path(task).resolve() == t:
                return t
        bundled = bench_tasks() / task
        if (bundled / "task.toml").exists():
            return bundled
        raise InputError(f"task {task!r} is neither a bench task nor one this server was started with "
                         f"(kopt mcp --task DIR)")

    def evaluation(self, task: str, path: str, baseline: Optional[str] = None,
                   max_time: float = 5.0) -> Evaluation:
        """The Evaluation behind the ``evaluate`` tool (the agent stores it whole)."""
        from .evaluation import bench

        t = self._task(task)
        base = self.ws.resolve(baseline) if baseline else t.baseline
        return bench(t, self.ws.resolve(path), baseline=base, options={"max_time": max_time})

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
        d["truncated"] = len(d["diagnostics"]) > MAX_DIAGNOSTICS
        d["diagnostics"] = d["diagnostics"][:MAX_DIAGNOSTICS]
        return d
