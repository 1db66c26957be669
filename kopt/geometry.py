"""Launch geometry: the one place where a candidate's launch annotations become, for a configuration and (when
given) a shape, each launch's kernel, grid, block, dynamic shared memory and cluster, with where each came from
and what stops it from launching on an architecture.

Every consumer asks here: the runner's plan, tuner pruning, ``explain``, ``check`` and the analyzers (which receive
the result), ``sanitize``, ``validate`` and the agent's tools. A value that depends on a size symbol the caller did
not bind is None, and its origin says which symbols it waits for.

Expressions also see the device constants (``num_sms``, ``l2_bytes``, ``max_smem_per_block``): the present GPU's
when it is of the target architecture, else the architecture's documented defaults, under the caller's overrides
(``kopt.archs.device_constants``); a launch that uses one records which value it assumed in its origin and, when the
value is a default rather than the GPU's own or a given one, in a note.

Launch lines with ``when COND`` are alternatives (``kopt.candidate``): with the condition decided (the shape and
configuration bind its names) the first line of a group that applies is the launch; where it is not decided (no
shape) every line that may apply is returned, each with its ``when``, so that checks cover every branch.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Iterable, Mapping

from . import annotations as ann
from . import expr
from .archs import CONSTANT_NAMES, DeviceConstants, device_constants, limits_or_none
from .candidate import Candidate, LaunchDecl
from .diagnostic import Diagnostic, Location, Severity
from .errors import InputError
from .rules import RULES
from .source import c_macros

Dim3 = tuple  # three ints; an entry is None while it waits for a size symbol
GRID_LIMITS = (2 ** 31 - 1, 65535, 65535)
BLOCK_DIM_LIMITS = (1024, 1024, 64)
MAX_CLUSTER_BLOCKS = 8  # portable cluster size; larger needs a non-portable opt-in the runner does not make


@dataclass
class LaunchGeometry:
    kernel: str  # name expression with the configuration substituted, e.g. "gemm<128, 64>"
    line: int  # of the launch annotation
    grid: Dim3 | None  # None: in error (see problems)
    block: Dim3 | None
    smem: int | None  # dynamic shared memory, bytes; None: unknown or in error
    cluster: Dim3 | None  # None when not declared (origin says) or in error
    stream: int = 0
    config: dict = field(default_factory=dict)  # the tunable values it was resolved at
    origin: dict[str, str] = field(default_factory=dict)  # field -> where its value came from, or why it is None
    problems: list[Diagnostic] = field(default_factory=list)
    index: int = 0  # of its declaration in ``Candidate.launches``
    when: str | None = None  # the condition of its launch line (None: unconditional)
    branch: str = ""  # how diagnostics name the line when it is one of several alternatives, else ""

    @property
    def threads(self) -> int | None:
        return math.prod(self.block) if self.block and None not in self.block else None

    @property
    def errors(self) -> list[Diagnostic]:
        return [d for d in self.problems if d.is_error]

    def to_dict(self) -> dict:
        return {"kernel": self.kernel, "line": self.line, "grid": _list(self.grid), "block": _list(self.block),
                "smem": self.smem, "cluster": _list(self.cluster), "stream": self.stream, "config": dict(self.config),
                "origin": dict(self.origin), **({"when": self.when} if self.when is not None else {}),
                "problems": [d.to_dict() for d in self.problems]}


def _list(dims):
    return None if dims is None or all(v is None for v in dims) else list(dims)


def environment(cand: Candidate, config: Mapping | None = None, shape: Mapping[str, int] | None = None,
                defines: Mapping | None = None, device: DeviceConstants | None = None) -> dict:
    """The names an annotation expression sees: the device constants (lowest: a task's size symbol of the same name
    wins), ``define``s and the user's ``-D`` values (text, evaluated when used), the shape's size symbols, and the
    configuration (the candidate's defaults under ``config``)."""
    return {**(device.env() if device is not None else {}), **cand.defines, **(defines or {}), **(shape or {}),
            **cand.default_config(), **(config or {})}


def launch_geometry(cand: Candidate, config: Mapping | None = None, shape: Mapping[str, int] | None = None, *,
                    arch: str | None = None, size_symbols: Iterable[str] | None = None,
                    defines: Mapping | None = None, device: DeviceConstants | None = None) -> list[LaunchGeometry]:
    """Per launch of ``cand``: its geometry at ``config`` (defaults filled in) and ``shape`` (size symbol values;
    None: values that need one stay None). ``size_symbols``: the task's symbols when known, so that any other
    unknown name is an error; without them (no task) such a name is taken for a size symbol. ``arch``: check the
    values against its limits. ``defines``: the user's ``-D`` values. ``device``: the device constants (default:
    ``device_constants(arch or cand.arch)``: the GPU's, else the architecture's defaults).

    Of a group of ``when`` alternatives, the first line whose condition holds is returned; where a condition waits
    for an unbound size symbol, that line is returned as one possible branch and the next lines are considered too.
    A group none of whose lines applies yields a geometry of its first line holding the error."""
    full = {**cand.default_config(), **(config or {})}
    device = device if device is not None else device_constants(arch or cand.arch)
    env = environment(cand, full, shape, defines, device)
    symbols = set(shape or ()) | set(size_symbols or ()) if (shape is not None or size_symbols is not None) else None
    resolver = _Resolver(cand, env, symbols, limits_or_none(arch) if arch else None, device)
    out = []
    for group in _groups(cand):
        chosen = []  # (index, the error in its condition or None), in line order
        for i in group:
            decl = cand.launches[i]
            holds = True if decl.when is None else resolver.condition(decl)
            if holds is False:
                continue
            chosen.append((i, holds if isinstance(holds, Diagnostic) else None))
            if holds is True:
                break
        for i, problem in chosen:
            g = resolver.launch(cand.launches[i], cand.kernel_expr(cand.launches[i], full), full, i)
            if problem is not None:
                g.problems.insert(0, problem)
            out.append(g)
        if not chosen:
            first = cand.launches[group[0]]
            g = resolver.launch(first, cand.kernel_expr(first, full), full, group[0])
            conds = "; ".join(f"line {cand.launches[i].line}: {cand.launches[i].when}" for i in group)
            where = ", ".join(f"{k}={v}" for k, v in (shape or {}).items()) or "this configuration"
            g.problems.insert(0, RULES["launch.no-branch"].diag(
                f"no launch line applies to {where}: every condition is false ({conds})",
                resolver.location([first.when])))
            out.append(g)
    sizes = {cand.launches[i].group: len(group) for group in _groups(cand) for i in group}
    for g in out:  # a line of a group of alternatives is named as such
        decl = cand.launches[g.index]
        if sizes[decl.group] > 1:
            g.branch = decl.branch
    return out


def _groups(cand: Candidate) -> list[list[int]]:
    """Indices of ``cand.launches`` per step of the launch sequence (several: ``when`` alternatives)."""
    groups: dict[int, list[int]] = {}
    for i, decl in enumerate(cand.launches):
        groups.setdefault(decl.group, []).append(i)
    return list(groups.values())


def evaluate(cand: Candidate, piece, env: Mapping, what: str):
    """Evaluate one annotation expression of ``cand``; errors name its line and column."""
    try:
        return expr.evaluate(str(piece), env)
    except expr.ExprError as exc:
        if isinstance(piece, ann.Text):
            raise ann.expression_error(exc, piece, cand.name, what)
        raise InputError(f"{cand.name}: {what}: {exc.message}", diagnostics=[
            RULES[exc.rule].diag(f"{what}: {exc.message}", Location(cand.name, 1))])


def first_error(geometries: list[LaunchGeometry]) -> InputError | None:
    """The first error among the launches, as the InputError a caller that must launch raises."""
    for g in geometries:
        for d in g.errors:
            loc = d.locations[0] if d.locations else None
            where = f"{loc.file}:{loc.line}:{loc.col}: " if loc else ""
            return InputError(where + d.message, diagnostics=[d])
    return None


def occupancy_geometry(geometries: list[LaunchGeometry], kernel: str, block: int | None,
                       smem: int | None) -> tuple[int, int, str]:
    """Threads per block and dynamic smem for ``kernel``'s occupancy figure: the given values, else its launch's,
    else 256 threads and no dynamic smem; and where each came from."""
    g = next((g for g in geometries if g.kernel == kernel), None)
    threads = g.threads if g else None
    b, b_from = (block, "given") if block is not None else (
        (threads, "launch annotation") if threads else (256, "assumed; --block sets it"))
    s, s_from = (smem, "given") if smem is not None else (
        (g.smem, "launch annotation") if g and g.smem is not None else (0, "assumed; --smem sets it"))
    return b, s, f"block {b_from}, smem {s_from}"


class _Resolver:
    def __init__(self, cand: Candidate, env: dict, symbols: set[str] | None, lim, device: DeviceConstants):
        self.cand, self.env, self.symbols, self.lim, self.device = cand, env, symbols, lim, device
        self.macros = set(c_macros(cand.source))

    def condition(self, decl: LaunchDecl):
        """True / False when ``decl.when`` is decided, None while it waits for an unbound size symbol, or the
        Diagnostic of an error in it."""
        g = LaunchGeometry(decl.kernel, decl.line, None, None, None, None)
        value = self.value(g, decl.when, "when")
        if g.problems:
            return g.problems[0]
        return None if value is None else bool(value)

    def launch(self, decl: LaunchDecl, kernel: str, config: dict, index: int = 0) -> LaunchGeometry:
        g = LaunchGeometry(kernel, decl.line, None, None, None, None, decl.stream, dict(config), index=index,
                           when=str(decl.when) if decl.when is not None else None)
        self.constants(g, decl)
        g.grid = self.dims(g, decl.grid, "grid")
        g.block = self.dims(g, decl.block, "block")
        g.smem = self.value(g, decl.smem, "smem")
        if g.smem is not None and (isinstance(g.smem, float) and not g.smem.is_integer() or g.smem < 0):
            self.problem(g, "expr.not-positive-integer", [decl.smem], f"smem must be a whole number of bytes "
                         f">= 0, got {g.smem!r}")
            g.smem, g.origin["smem"] = None, "error"
        elif g.smem is not None:
            g.smem = int(g.smem)
        if decl.cluster:
            g.cluster = self.dims(g, decl.cluster, "cluster")
        else:
            g.origin["cluster"] = "not declared"
        if self.lim is not None:
            self.check_limits(g, decl)
        return g

    def constants(self, g: LaunchGeometry, decl: LaunchDecl) -> None:
        """Record which device constants the launch's expressions use and where their values came from; a value
        that is an architecture default (not the GPU's, not given) is also a note."""
        pieces = [*decl.grid, *decl.block, decl.smem, *(decl.cluster or ()), *([decl.when] if decl.when else [])]
        used = {}
        for p in pieces:
            for name in sorted(expr.names(str(p)) & set(CONSTANT_NAMES)):
                used.setdefault(name, p)
        for name, piece in used.items():
            if name in self.env and self.env[name] != self.device.values.get(name):
                continue  # a size symbol or a define of the same name stands in for it
            g.origin[name] = self.device.describe(name)
            if name in self.device.values and "default:" in self.device.origin[name]:  # a product's figure
                self.problem(g, "launch.device-constant", [piece], f"launch {g.kernel} assumes "
                             f"{self.device.describe(name)}")

    def value(self, g: LaunchGeometry, piece, what: str):
        try:
            value = expr.evaluate(str(piece), self.env)
        except expr.ExprError as exc:
            missing = sorted(expr.names(str(piece)) - set(self.env)) if exc.rule == "expr.unknown-name" else []
            unknown = [n for n in missing if n in CONSTANT_NAMES]
            if unknown:
                self.problem(g, "launch.device-constant", [piece], f"{what}: {self.device.describe(unknown[0])}",
                             Severity.ERROR)
                g.origin[what] = "error"
                return None
            waiting = [n for n in missing if self.symbols is None or n in self.symbols]
            macros = [n for n in missing if n in self.macros]
            if missing and waiting == missing and not macros:
                prev = g.origin.get(what, "")
                if prev != "error":
                    known = prev[len("depends on "):].split(", ") if prev.startswith("depends on ") else []
                    g.origin[what] = "depends on " + ", ".join(dict.fromkeys(known + missing))
                return None
            if macros and self.symbols is None:  # no task to tell: the value stays unknown, with a warning
                self.problem(g, "annotation.c-macro", [piece], self.macro_message(what, macros[0]))
                g.origin[what] = f"unknown: {macros[0]} is a C #define"
                return None
            if macros:
                self.problem(g, "annotation.c-macro", [piece], self.macro_message(what, macros[0]), Severity.ERROR)
            else:
                d = ann.expression_error(exc, piece, self.cand.name, what).diagnostics[0] \
                    if isinstance(piece, ann.Text) else RULES[exc.rule].diag(exc.message)
                if exc.rule == "expr.unknown-name" and self.symbols is not None:
                    d.message += f" (size symbols: {', '.join(sorted(self.symbols)) or 'none'})"
                g.problems.append(d)
            g.origin[what] = "error"
            return None
        g.origin.setdefault(what, "launch annotation")
        return value

    @staticmethod
    def macro_message(what: str, name: str) -> str:
        return (f"{what}: {name} is a C #define of the source; annotation expressions see only tunables, "
                f"`// kopt: define`s and the task's size symbols: declare `// kopt: define {name}=...`")

    def dims(self, g: LaunchGeometry, pieces: list, what: str) -> Dim3 | None:
        """Up to three dimensions padded with 1; an unknown one is None; None in all when one is in error."""
        values = [self.value(g, p, what) for p in pieces]
        if g.origin.get(what) == "error":
            return None
        out = []
        for p, v in zip(pieces, values):
            try:
                out.append(None if v is None else expr.positive_int(v, f"{what} dimension", str(p)))
            except expr.ExprError as exc:
                self.problem(g, exc.rule, [p], exc.message)
                g.origin[what] = "error"
                return None
        return tuple(out + [1] * (3 - len(out)))  # type: ignore[return-value]

    def problem(self, g: LaunchGeometry, rule: str, pieces: list, message: str, severity: Severity | None = None):
        g.problems.append(RULES[rule].diag(message, self.location(pieces), severity=severity))

    def location(self, pieces: list) -> Location:
        texts = [p for p in pieces if isinstance(p, ann.Text)]
        if not texts:
            return Location(self.cand.name, 1, role="launch")
        first, last = texts[0], texts[-1]
        return Location(self.cand.name, first.line, first.col + 1, last.line, last.col + max(len(last), 1),
                        role="launch")

    def check_limits(self, g: LaunchGeometry, decl: LaunchDecl) -> None:
        lim = self.lim
        if g.block is not None:
            threads = g.threads or 0
            over = [f"{'xyz'[i]}={v} > {m}" for i, (v, m) in enumerate(zip(g.block, BLOCK_DIM_LIMITS))
                    if v is not None and v > m]
            if threads > lim.max_threads_per_block:
                self.problem(g, "launch.block-too-large", decl.block, f"block {g.block} has {threads} threads; "
                                                                      f"{lim.name} allows {lim.max_threads_per_block}")
            elif over:
                self.problem(g, "launch.block-too-large", decl.block, f"block {g.block}: {', '.join(over)} (the "
                                                                      f"largest dimensions are {BLOCK_DIM_LIMITS})")
        if g.smem is not None and g.smem > lim.smem_per_block_optin:
            self.problem(g, "launch.smem-too-large", [decl.smem],
                         f"smem={g.smem} bytes of dynamic shared memory; {lim.name} allows at most "
                         f"{lim.smem_per_block_optin} per block (static shared memory included)")
        if g.grid is not None and any(v is not None and v > m for v, m in zip(g.grid, GRID_LIMITS)):
            self.problem(g, "launch.grid-too-large", decl.grid,
                         f"grid {g.grid} exceeds the hardware limits {GRID_LIMITS}")
        if decl.cluster and g.cluster is not None and None not in g.cluster:
            if lim.cc < (9, 0):
                self.problem(g, "launch.cluster", decl.cluster, f"thread block clusters need sm_90 or newer, "
                                                                f"not {lim.name}")
            elif math.prod(g.cluster) > MAX_CLUSTER_BLOCKS:
                self.problem(g, "launch.cluster", decl.cluster, f"cluster {g.cluster} has {math.prod(g.cluster)} "
                                                                f"blocks; at most {MAX_CLUSTER_BLOCKS} are portable")
            elif g.grid is not None and any(gd is not None and gd % cd for gd, cd in zip(g.grid, g.cluster)):
                self.problem(g, "launch.cluster", decl.grid + decl.cluster,
                             f"grid {g.grid} is not a multiple of cluster {g.cluster} in every dimension")
