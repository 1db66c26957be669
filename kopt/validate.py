"""``kopt validate``: everything about a task and its candidates that can be checked without a GPU.

The task file parses; its reference imports (in a subprocess with a time limit), takes the task's keyword
arguments and returns outputs of the declared shapes on the smallest shape; every configuration of every
candidate that survives ``restrict`` compiles; every launch resolves at every shape within the target's limits;
each launch's argument count and sizes fit the compiled kernel's parameters (read from the PTX). Each problem is a
Diagnostic. The target is ``arch``, else the candidate's, else the task's, else sm_90.
"""
from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from .archs import check, device_constants, limits_or_none
from .candidate import Candidate
from .compiler import compile_configs
from .diagnostic import Diagnostic, Location
from .errors import InputError
from .geometry import launch_geometry
from .occupancy import occupancy
from .params import LaunchSpecError, check_launch
from .plan import resolve
from .ptx import entry_params
from .rules import RULES
from .task import Task
from .torch_problem import is_problem, open_task
from . import device as _gpu  # noqa: F401  (installs the present GPU's own limits and constants)

DEFAULT_ARCH = "sm_90"
REFERENCE_TIMEOUT = 60.0


@dataclass
class ConfigCheck:
    config: dict
    arch: str
    compiled: bool
    shapes: list[dict] = field(default_factory=list)  # {"shape": label, "launches": [geometry dicts]}
    diagnostics: list[Diagnostic] = field(default_factory=list)

    def to_dict(self) -> dict:
        return {"config": self.config, "arch": self.arch, "compiled": self.compiled, "shapes": self.shapes,
                "diagnostics": [d.to_dict() for d in self.diagnostics]}


@dataclass
class CandidateCheck:
    file: str
    configs: list[ConfigCheck] = field(default_factory=list)
    diagnostics: list[Diagnostic] = field(default_factory=list)  # about the file as a whole

    def to_dict(self) -> dict:
        return {"file": self.file, "diagnostics": [d.to_dict() for d in self.diagnostics],
                "configs": [c.to_dict() for c in self.configs]}


@dataclass
class Validation:
    task: str | None
    diagnostics: list[Diagnostic] = field(default_factory=list)  # about the task and its reference
    reference: dict = field(default_factory=dict)  # what the reference probe saw
    candidates: list[CandidateCheck] = field(default_factory=list)

    @property
    def problems(self) -> list[Diagnostic]:
        """Every Diagnostic once (a problem repeated over configurations and shapes is listed once)."""
        seen, out = set(), []
        every = self.diagnostics + [d for c in self.candidates for d in c.diagnostics] + [
            d for c in self.candidates for cc in c.configs for d in cc.diagnostics]
        for d in every:
            key = (d.rule, d.message, tuple(d.locations))
            if key not in seen:
                seen.add(key)
                out.append(d)
        return out

    @property
    def ok(self) -> bool:
        return not any(d.is_error for d in self.problems)

    def to_dict(self) -> dict:
        return {"ok": self.ok, "task": self.task, "diagnostics": [d.to_dict() for d in self.diagnostics],
                "reference": self.reference, "candidates": [c.to_dict() for c in self.candidates],
                "problems": [d.to_dict() for d in self.problems]}


def validate(task: str | Path | None, candidates=(), *, arch: str | None = None,
             reference_timeout: float = REFERENCE_TIMEOUT, config: dict | None = None,
             include_dirs=(), device: dict | None = None) -> Validation:
    """Validate a task directory (or None: candidates alone, without shapes) and candidate files; the baseline is
    validated when no candidate is given. ``config``: tunable values; only that configuration of each candidate (its
    other tunables at their defaults) is validated instead of every one. ``include_dirs``: header folders for every
    candidate (``-I``). ``device``: device constants for launch expressions ({"num_sms": 114, ...}) over the
    target's defaults. Every ``when`` launch line is checked at the shapes it applies to (without a task: as a
    possible branch); one that no shape selects is a warning. Raises ``InputError`` only when there is nothing to validate (a missing
    path, an unknown arch); problems in what was found are Diagnostics of the result."""
    if arch is not None:
        check(arch)
    t, result = None, Validation(None)
    if task is not None and is_problem(task):
        t = open_task(task)  # a PyTorch problem: one that cannot be read is bad input
    elif task is not None:
        toml = Path(task) / "task.toml" if Path(task).is_dir() else Path(task)
        if not toml.is_file():
            raise InputError(f"no task at {task}: expected a directory holding task.toml")
        try:
            t = Task.load(task)
        except InputError as exc:
            result.diagnostics += exc.diagnostics or [RULES["task.invalid"].diag(exc.message)]
    if t is not None:
        result.task = t.name
        result.reference = probe_reference(t, reference_timeout)
        result.diagnostics += _reference_diagnostics(t, result.reference)
        if t.reference_cuda is not None:
            from .reference_kernels import build_reference

            try:
                build_reference(t, arch or t.arch or DEFAULT_ARCH, t.shapes)
            except InputError as exc:
                where = Location(str(t.path / "task.toml"), _line_of(t.path / "task.toml", "reference_cuda"),
                                 role="reference")
                result.diagnostics.append(RULES["task.invalid"].diag(exc.message, where))
    files = [Path(c) for c in candidates] or ([t.baseline] if t is not None and t.baseline else [])
    for f in files:
        if not f.is_file():
            raise InputError(f"cannot read {f}: no such file")
        result.candidates.append(validate_candidate(f, t, arch=arch, config=config, include_dirs=include_dirs,
                                                    device=device))
    return result


def probe_reference(task: Task, timeout: float) -> dict:
    """Run the reference probe in a subprocess: its JSON result, or a failure of its own."""
    with tempfile.TemporaryDirectory(prefix="kopt-validate-") as tmp:
        out = Path(tmp) / "probe.json"
        cmd = [sys.executable, "-m", "kopt.reference_probe", str(task.path), "--out", str(out)]
        try:
            proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
        except subprocess.TimeoutExpired:
            return {"ok": False, "rule": "reference.timeout",
                    "message": f"reference {task.reference} did not finish within {timeout:g} s (import and one call "
                               f"on the smallest shape)"}
        if out.is_file():
            return json.loads(out.read_text())
        rc = proc.returncode
        died = f"killed by signal {-rc}" + (" (out of memory?)" if rc == -9 else "") if rc < 0 else f"exit code {rc}"
        tail = (proc.stderr.strip().splitlines() or [died])[-1]
        return {"ok": False, "rule": "reference.raised",
                "message": f"reference {task.reference}: the probe process died ({tail})"}


def _reference_diagnostics(task: Task, probe: dict) -> list[Diagnostic]:
    where = Location(str(task.path / "task.toml"), _line_of(task.path / "task.toml", "reference"), role="reference")
    out = []
    if not probe.get("ok"):
        out.append(RULES[probe["rule"]].diag(probe["message"], where))
    for w in probe.get("warnings", []):
        out.append(RULES["reference.output"].diag(f"reference {task.reference}: {w}", where))
    return out


def _line_of(path: Path, key: str) -> int:
    try:
        for i, line in enumerate(path.read_text().splitlines(), 1):
            if line.lstrip().startswith(key):
                return i
    except OSError:
        pass
    return 1


def validate_candidate(file: Path, task: Task | None, *, arch: str | None = None, config: dict | None = None,
                       include_dirs=(), device: dict | None = None) -> CandidateCheck:
    check = CandidateCheck(str(file))
    try:
        cand = Candidate.load(file).with_include_dirs(include_dirs)
    except InputError as exc:
        check.diagnostics += exc.diagnostics or [RULES["annotation.syntax"].diag(exc.message, Location(str(file), 1))]
        return check
    for todo in cand.todos:
        check.diagnostics.append(RULES["annotation.todo"].diag(
            f"to be decided: {todo}", Location(cand.name, todo.line, todo.col + 1, role="annotation")))
    if task is not None and not task.accepts(cand.task):
        check.diagnostics.append(RULES["candidate.task-mismatch"].diag(
            f"{cand.name} declares task {cand.task!r} but is validated against {task.name!r}", Location(cand.name, 1)))
    target = arch or cand.arch or (task.arch if task else None) or DEFAULT_ARCH
    try:
        configs = list(cand.configs()) if config is None else []
    except InputError as exc:
        check.diagnostics += exc.diagnostics or [RULES["annotation.syntax"].diag(exc.message)]
        return check
    if config is not None:
        configs = [cand.check_config(config)]  # an unknown tunable or a restricted value: the caller's input error
    if not configs:
        check.diagnostics.append(RULES["annotation.no-config"].diag(
            f"no configuration satisfies the restrictions ({'; '.join(cand.restrictions)})", Location(cand.name, 1)))
    constants = device_constants(target, device)
    selected: set[int] = set()  # launch lines some shape launches, at some configuration
    for cfg, art, error in compile_configs(cand, configs, arch=target):
        cc = ConfigCheck(cfg, target, art is not None)
        check.configs.append(cc)
        if error is not None:
            cc.diagnostics += [_with_config(d, cfg) for d in error.diagnostics or
                               [RULES["compile.error"].diag(error.message)] if d.is_error]
            continue
        for shape in (task.shapes if task is not None else [None]):
            cc.shapes.append(_check_shape(cand, task, shape, cfg, art, cc.diagnostics, constants, selected))
    if task is not None and any(cc.compiled for cc in check.configs):
        for i, decl in enumerate(cand.launches):
            alternatives = sum(d.group == decl.group for d in cand.launches) > 1
            if alternatives and i not in selected:
                check.diagnostics.append(RULES["launch.branch-unused"].diag(
                    f"launch {decl.kernel} at {decl.branch}: no shape of task {task.name} selects it "
                    f"({', '.join(s.label for s in task.shapes)})", Location(cand.name, decl.line, role="launch")))
    return check


def _check_shape(cand: Candidate, task: Task | None, shape, cfg: dict, art, diagnostics: list, constants,
                 selected: set) -> dict:
    symbols = shape.symbols if shape is not None else None
    geometries = launch_geometry(cand, cfg, symbols, arch=art.arch, device=constants)
    selected.update(g.index for g in geometries if not any(d.rule == "launch.no-branch" for d in g.problems))
    label = shape.label if shape is not None else "(no task: size symbols unbound)"
    report = {"shape": label, "launches": [g.to_dict() for g in geometries]}
    diagnostics += [_with_config(d, cfg, label, g.branch) for g in geometries for d in g.problems]
    if task is None or any(g.errors for g in geometries):
        return report
    try:
        plan = resolve(task, cand, shape, cfg, {n: k.lowered for n, k in art.kernels.items()}, art.arch,
                       constants)
    except InputError as exc:
        diagnostics += [_with_config(d, cfg, label) for d in exc.diagnostics or
                        [RULES["launch.invalid"].diag(exc.message, Location(cand.name, 1))]]
        return report
    params = entry_params(art.ptx or "")
    lim = limits_or_none(art.arch)
    for lp in plan.launches:
        where = Location(cand.name, lp.line, role="launch")
        res = art.kernels[lp.kernel].resources
        if lp.lowered in params:
            try:
                check_launch(lp, params[lp.lowered], cand.name)
            except LaunchSpecError as exc:
                diagnostics.append(_with_config(RULES["launch.mismatch"].diag(str(exc), where), cfg))
        if lim is None:  # an architecture without known limits: the launch-limit checks cannot be made
            continue
        if res.static_smem + lp.smem > lim.smem_per_block_optin:
            diagnostics.append(_with_config(RULES["launch.smem-too-large"].diag(
                f"launch {lp.kernel}: {res.static_smem} B static + {lp.smem} B dynamic shared memory; {art.arch} "
                f"allows {lim.smem_per_block_optin} per block", where), cfg, label))
            continue
        occ = occupancy(lim, block_size=lp.block[0] * lp.block[1] * lp.block[2], registers=res.registers,
                        static_smem=res.static_smem, dynamic_smem=lp.smem)
        if occ.blocks_per_sm == 0:
            diagnostics.append(_with_config(RULES["launch.resources"].diag(f"launch {lp.kernel} {occ.limiter}", where),
                                            cfg, label))
    return report


def _with_config(d: Diagnostic, config: dict, shape: str | None = None, branch: str = "") -> Diagnostic:
    """``d`` with the configuration (and shape, and the ``when`` launch line) it was found at as its witness."""
    witness = {**(d.witness or {}), "config": dict(config)}
    if shape is not None:
        witness["shape"] = shape
    if branch:
        witness["launch"] = branch
    return Diagnostic(d.rule, d.severity, d.message, list(d.locations), witness, d.hint)
