"""Candidate: device code plus ``// kopt:`` annotations that declare launches, scratch, tunables, tensor maps."""
from __future__ import annotations

import itertools
import math
import re
from dataclasses import dataclass, field
from pathlib import Path

from . import expr
from .compiler import read_source
from .dtypes import DType, dtype
from .errors import InputError

_ANNOT = re.compile(r"^\s*//\s*kopt:\s*(?P<body>.*?)\s*$")
SWIZZLES = ("none", "32B", "64B", "128B")
L2PROMO = ("none", "64B", "128B", "256B")


@dataclass
class Tunable:
    name: str
    values: list


@dataclass
class Scratch:
    name: str
    dtype: DType
    shape: list[str]
    init: str = "poison"  # or "zero"


@dataclass
class TensorMapDecl:
    name: str
    arg: str
    box: list[str]
    swizzle: str = "none"
    interleave: str = "none"
    l2promotion: str = "none"
    oob: str = "zero"


@dataclass
class LaunchDecl:
    kernel: str  # name expression; tunables substituted at compile time
    grid: list[str]
    block: list[str]
    args: list[str]
    smem: str = "0"
    cluster: list[str] | None = None
    stream: int = 0  # 1: launched on a second stream when timed (concurrent with stream 0)
    line: int = 0


@dataclass
class Candidate:
    source: str
    name: str  # display name (path or "candidate.cu")
    path: Path | None = None
    task: str | None = None
    arch: str | None = None  # a target the code needs (e.g. sm_90a for wgmma/setmaxnreg); None: the GPU's own
    tunables: list[Tunable] = field(default_factory=list)
    defines: dict[str, str] = field(default_factory=dict)
    restrictions: list[str] = field(default_factory=list)
    scratch: list[Scratch] = field(default_factory=list)
    tensormaps: list[TensorMapDecl] = field(default_factory=list)
    launches: list[LaunchDecl] = field(default_factory=list)

    @classmethod
    def load(cls, source) -> "Candidate":
        """From a path or source text; malformed annotations raise ``InputError`` with the line."""
        if isinstance(source, Candidate):
            return source
        text, name, path = read_source(source)
        return _parse(text, name, path)

    # --- tunable space ------------------------------------------------------------------------------------------
    def default_config(self) -> dict:
        return {t.name: t.values[0] for t in self.tunables}

    def allowed(self, config: dict) -> bool:
        return all(bool(expr.evaluate(r, config)) for r in self.restrictions)

    def configs(self):
        """Every combination of tunable values that satisfies the restrictions."""
        names = [t.name for t in self.tunables]
        for values in itertools.product(*(t.values for t in self.tunables)):
            cfg = dict(zip(names, values))
            if self.allowed(cfg):
                yield cfg

    def check_config(self, config: dict) -> dict:
        known = {t.name: t for t in self.tunables}
        for k in config:
            if k not in known:
                raise InputError(f"{self.name}: unknown tunable {k!r} (declared: {', '.join(known) or 'none'})")
        full = {**self.default_config(), **config}
        if not self.allowed(full):
            raise InputError(f"{self.name}: configuration {full} violates a restriction ({'; '.join(self.restrictions)})")
        return full

    def defines_for(self, overrides: dict | None = None) -> dict:
        """The candidate's fixed defines and default tunables, under ``overrides`` (e.g. the user's -D values)."""
        return {**self.defines, **self.default_config(), **(overrides or {})}

    def declared_geometry(self, overrides: dict | None = None) -> dict[str, tuple[int, int | None]]:
        """Per launched kernel: (threads per block, dynamic smem bytes or None) from its launch annotation at the
        default tunables under ``overrides``, where those do not depend on the task's shape symbols."""
        raw = {t.name: self.defines_for(overrides)[t.name] for t in self.tunables}
        config = {}
        for name, value in raw.items():  # -D values arrive as text: read them as the CLI reads --set values
            try:
                config[name] = expr.evaluate(value, {})
            except (InputError, TypeError, ValueError):
                config[name] = value
        out = {}
        for decl in self.launches:
            try:
                dims = [expr.positive_int(expr.evaluate(v, config), "block dimension") for v in decl.block]
            except (InputError, ValueError, TypeError, KeyError, NameError):
                continue  # the block size depends on the shape: the user's --block applies
            try:
                smem = int(expr.evaluate(decl.smem, config))
            except (InputError, ValueError, TypeError, KeyError, NameError):
                smem = None
            out.setdefault(self.kernel_expr(decl, raw), (math.prod(dims), smem))  # keyed as the compiled kernels
        return out

    def kernel_expr(self, launch: LaunchDecl, config: dict) -> str:
        out = launch.kernel
        for k, v in config.items():
            out = re.sub(rf"\b{re.escape(k)}\b", str(v), out)
        return out

    def compile(self, config: dict | None = None, *, arch: str | None = None, **kwargs):
        """Compile with the tunables baked in as ``-D`` defines; returns an ``Artifact``."""
        from .compiler import compile as kopt_compile

        cfg = self.check_config(config or {})
        kernels = list(dict.fromkeys(self.kernel_expr(l, cfg) for l in self.launches))
        defines = {**self.defines, **{k: v for k, v in cfg.items()}}
        return kopt_compile(self.path if self.path else self.source, kernels, arch=arch or self.arch, defines=defines,
                            **kwargs)

    def baked_source(self, config: dict) -> str:
        """The source with tunables fixed: ``tune`` lines replaced by single-value ones."""
        out = []
        for line in self.source.splitlines():
            m = _ANNOT.match(line)
            if m and m.group("body").startswith("tune "):
                name = m.group("body").split()[1]
                if name in config:
                    line = f"// kopt: tune {name} in [{config[name]}]"
            out.append(line)
        return "\n".join(out) + "\n"


def load_candidate(file: Path) -> Candidate | None:
    """The candidate in ``file``, or None for a plain source (no '// kopt:' lines) or an unreadable path (compile and
    check report that one)."""
    try:
        text = Path(file).read_text()
    except (OSError, UnicodeDecodeError):
        return None
    return Candidate.load(Path(file)) if "// kopt:" in text else None


def file_defaults(file: Path, defines: dict) -> tuple[dict, list[str] | None, str | None]:
    """For a candidate (a file with '// kopt:' lines): its defines and default tunables under the user's -D values,
    its launched kernels and the target it declares; for a plain source, the user's defines only."""
    cand = load_candidate(file)
    if cand is None:
        return defines, None, None
    merged = cand.defines_for(defines)
    config = {t.name: merged[t.name] for t in cand.tunables}
    return merged, list(dict.fromkeys(cand.kernel_expr(l, config) for l in cand.launches)), cand.arch


def occupancy_geometry(declared: dict, name: str, block: int | None, smem: int | None) -> tuple[int, int, str]:
    """Block size and dynamic smem for kernel ``name``'s occupancy figure: the given values, else those declared
    (``Candidate.declared_geometry``), else 256 threads and no dynamic smem; and where each came from."""
    d_threads, d_smem = declared.get(name, (None, None))
    b, b_from = (block, "given") if block is not None else (
        (d_threads, "launch annotation") if d_threads else (256, "assumed; --block sets it"))
    s, s_from = (smem, "given") if smem is not None else (
        (d_smem, "launch annotation") if d_smem is not None else (0, "assumed; --smem sets it"))
    return b, s, f"block {b_from}, smem {s_from}"


def _split_top(text: str, sep: str = ",") -> list[str]:
    """Split on ``sep`` outside brackets."""
    parts, depth, cur = [], 0, []
    for ch in text:
        if ch in "([<{":
            depth += 1
        elif ch in ")]>}":
            depth -= 1
        if ch == sep and depth == 0:
            parts.append("".join(cur).strip())
            cur = []
        else:
            cur.append(ch)
    if "".join(cur).strip():
        parts.append("".join(cur).strip())
    return parts


def _tokens(text: str) -> list[str]:
    """Whitespace-separated tokens, keeping bracketed groups (with spaces) together."""
    toks, depth, cur = [], 0, []
    for ch in text:
        if ch in "([<{":
            depth += 1
        elif ch in ")]>}":
            depth = max(depth - 1, 0)
        if ch.isspace() and depth == 0:
            if cur:
                toks.append("".join(cur))
                cur = []
        else:
            cur.append(ch)
    if cur:
        toks.append("".join(cur))
    return toks


def _tuple(value: str) -> list[str]:
    v = value.strip()
    if v.startswith("(") and v.endswith(")"):
        v = v[1:-1]
    return _split_top(v)


def _parse(text: str, name: str, path: Path | None) -> Candidate:
    cand = Candidate(source=text, name=name, path=path)

    def fail(lineno: int, msg: str):
        raise InputError(f"{name}:{lineno}: {msg}")

    for lineno, line in enumerate(text.splitlines(), 1):
        m = _ANNOT.match(line)
        if not m:
            continue
        body = m.group("body")
        word, _, rest = body.partition(" ")
        rest = rest.strip()
        try:
            if word == "task":
                if not re.fullmatch(r"[\w.-]+", rest):
                    fail(lineno, "expected: task NAME")
                cand.task = rest
            elif word == "arch":
                from .archs import limits

                limits(rest)  # an unknown arch is an InputError naming the known ones
                cand.arch = rest
            elif word == "tune":
                mm = re.fullmatch(r"([A-Za-z_]\w*)\s+in\s+\[(.*)\]", rest)
                if not mm:
                    fail(lineno, "expected: tune NAME in [v1, v2, ...]")
                values = [expr.evaluate(v, {}) for v in _split_top(mm.group(2))]
                if not values:
                    fail(lineno, f"tunable {mm.group(1)} has no values")
                if mm.group(1) in {t.name for t in cand.tunables}:
                    fail(lineno, f"tunable {mm.group(1)} declared twice")
                cand.tunables.append(Tunable(mm.group(1), values))
            elif word == "define":
                mm = re.fullmatch(r"([A-Za-z_]\w*)\s*(?:=\s*(.+))?", rest)
                if not mm:
                    fail(lineno, "expected: define NAME=VALUE")
                cand.defines[mm.group(1)] = (mm.group(2) or "1").strip()
            elif word == "restrict":
                if not rest:
                    fail(lineno, "expected: restrict EXPRESSION")
                expr.parse(rest)
                cand.restrictions.append(rest)
            elif word == "scratch":
                mm = re.fullmatch(r"([A-Za-z_]\w*)\s+(\w+)\[(.+)\]\s*(?:init=(\w+))?", rest)
                if not mm:
                    fail(lineno, "expected: scratch NAME DTYPE[EXPR, ...] [init=poison|zero]")
                init = mm.group(4) or "poison"
                if init not in ("poison", "zero"):
                    fail(lineno, f"scratch init must be poison or zero, got {init!r}")
                dims = _split_top(mm.group(3))
                for d in dims:
                    expr.parse(d)
                cand.scratch.append(Scratch(mm.group(1), dtype(mm.group(2)), dims, init))
            elif word == "tensormap":
                mm = re.fullmatch(r"([A-Za-z_]\w*)\s*=\s*([A-Za-z_]\w*)\s+(.*)", rest)
                if not mm:
                    fail(lineno, "expected: tensormap NAME = ARG box=(d0, d1, ...) [swizzle=128B] ...")
                opts = _options(_tokens(mm.group(3).replace("tile(", "box=(")), lineno, fail)
                if "box" not in opts:
                    fail(lineno, "tensormap needs box=(...)")
                tm = TensorMapDecl(mm.group(1), mm.group(2), _tuple(opts.pop("box")))
                for key, allowed in (("swizzle", SWIZZLES), ("l2promotion", L2PROMO), ("oob", ("zero", "nan")),
                                     ("interleave", ("none",))):
                    if key in opts:
                        val = opts.pop(key)
                        if val not in allowed:
                            fail(lineno, f"tensormap {key} must be one of {', '.join(allowed)}, got {val!r}")
                        setattr(tm, key, val)
                if opts:
                    fail(lineno, f"unknown tensormap option(s): {', '.join(opts)}")
                cand.tensormaps.append(tm)
            elif word == "launch":
                toks = _tokens(rest)
                if not toks or "=" in toks[0].split("<")[0]:
                    fail(lineno, "expected: launch KERNEL grid=(...) block=(...) [smem=...] [cluster=(...)] args=(...)")
                opts = _options(toks[1:], lineno, fail)
                for req in ("grid", "block", "args"):
                    if req not in opts:
                        fail(lineno, f"launch {toks[0]} is missing {req}=")
                launch = LaunchDecl(kernel=toks[0], grid=_tuple(opts.pop("grid")), block=_tuple(opts.pop("block")),
                                    args=_tuple(opts.pop("args")), smem=opts.pop("smem", "0"), line=lineno)
                if "cluster" in opts:
                    launch.cluster = _tuple(opts.pop("cluster"))
                if "stream" in opts:
                    if opts["stream"] not in ("0", "1"):
                        fail(lineno, "stream must be 0 or 1")
                    launch.stream = int(opts.pop("stream"))
                if opts:
                    fail(lineno, f"unknown launch option(s): {', '.join(opts)}")
                for dims, what in ((launch.grid, "grid"), (launch.block, "block"), (launch.cluster or [], "cluster")):
                    if len(dims) > 3:
                        fail(lineno, f"{what} has more than 3 dimensions")
                    for d in dims:
                        expr.parse(d)
                expr.parse(launch.smem)
                cand.launches.append(launch)
            else:
                fail(lineno, f"unknown annotation {word!r} (expected task, tune, define, restrict, scratch, "
                             f"tensormap or launch)")
        except InputError as exc:
            if exc.message.startswith(f"{name}:"):
                raise
            fail(lineno, exc.message)
    if not cand.launches:
        raise InputError(f"{name}: no '// kopt: launch KERNEL grid=(...) block=(...) args=(...)' annotation; "
                         "a candidate must declare how its kernels are launched")
    names = [t.name for t in cand.tunables] + [s.name for s in cand.scratch] + [t.name for t in cand.tensormaps]
    dup = {n for n in names if names.count(n) > 1}
    if dup:
        raise InputError(f"{name}: name(s) declared twice: {', '.join(sorted(dup))}")
    return cand


def _options(tokens: list[str], lineno: int, fail) -> dict[str, str]:
    """``key=value`` tokens; a token without ``key=`` continues the previous value (``smem=BLOCK * 4``)."""
    opts: dict[str, str] = {}
    last = None
    for tok in tokens:
        m = re.match(r"^([A-Za-z_]\w*)=(.*)$", tok)
        if m and m.group(2):
            last = m.group(1)
            opts[last] = m.group(2)
        elif last is not None:
            opts[last] += " " + tok
        else:
            fail(lineno, f"expected key=value, got {tok!r}")
    return opts
