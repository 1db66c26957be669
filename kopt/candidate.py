"""Candidate: device code plus ``// kopt:`` annotations that declare launches, scratch, tunables, tensor maps.

The grammar (docs/tasks.md):

    // kopt: task NAME
    // kopt: arch sm_90a
    // kopt: include DIR
    // kopt: tune NAME in [v1, v2, ...]; NAME in [...]
    // kopt: define NAME[=VALUE]
    // kopt: restrict EXPRESSION
    // kopt: scratch NAME DTYPE[EXPR, ...] [init=poison|zero]
    // kopt: tensormap NAME = ARG box=(EXPR, ...) [swizzle=...] [l2promotion=...] [oob=zero|nan]
    // kopt: launch KERNEL grid=(...) block=(...) [smem=EXPR] [cluster=(...)] [stream=0|1] args=(...) [when COND]

Expressions are ``kopt.expr``'s language over the task's size symbols, the tunables, the ``define``d names and the
device constants ``num_sms``, ``l2_bytes`` and ``max_smem_per_block`` (``kopt.archs.device_constants``); C
``#define``s of the source are not visible to them.

A launch line ending in ``when COND`` applies to the shapes (and configurations) where COND holds. It opens a group
of alternatives: it and the launch lines right after it, up to and including the first line without ``when`` (the
fallback), are one step of the launch sequence, and per shape the first line of the group whose condition holds is
launched (``kopt.geometry`` picks it; a shape that no line of a group applies to is an error).
"""
from __future__ import annotations

import dataclasses
import itertools
import os
import re
from dataclasses import dataclass, field
from pathlib import Path

from . import annotations as ann
from . import expr
from .annotations import AnnotationError, Text
from .archs import CONSTANT_NAMES, check as check_arch
from .dtypes import DType, dtype
from .errors import InputError
from .rules import RULES
from .source import read_source

_ANNOTATION_LINE = re.compile(r"^\s*//\s*kopt:")
_QUOTED_INCLUDE = re.compile(r'^\s*#\s*include\s*"', re.M)
SWIZZLES = ("none", "32B", "64B", "128B")
L2PROMO = ("none", "64B", "128B", "256B")
WORDS = ("task", "arch", "include", "tune", "define", "restrict", "scratch", "tensormap", "launch", "assume", "TODO")
LAUNCH_OPTIONS = ("grid", "block", "smem", "cluster", "stream", "args")


@dataclass
class Tunable:
    name: str
    values: list
    line: int = 0  # the tune line that declares it


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
    when: str | None = None  # the condition under which this line applies (None: always)
    group: int = 0  # the step of the launch sequence it is an alternative for (lines of one group are alternatives)
    fallback: bool = False  # the line without ``when`` that ends a group of alternatives

    @property
    def branch(self) -> str:
        """How diagnostics name this launch line: ``"line 12 (when rows >= 4096)"``, ``"line 13 (otherwise)"``."""
        return f"line {self.line}" + (f" (when {self.when})" if self.when is not None else
                                      " (otherwise)" if self.fallback else "")


@dataclass
class Candidate:
    source: str
    name: str  # display name (path or "kernel.cu")
    path: Path | None = None
    task: str | None = None
    arch: str | None = None  # a target the code needs (e.g. sm_90a for wgmma/setmaxnreg); None: the GPU's own
    include_dirs: list[str] = field(default_factory=list)  # absolute; ``// kopt: include`` lines, then -I values
    tunables: list[Tunable] = field(default_factory=list)
    defines: dict[str, str] = field(default_factory=dict)
    restrictions: list[str] = field(default_factory=list)
    scratch: list[Scratch] = field(default_factory=list)
    tensormaps: list[TensorMapDecl] = field(default_factory=list)
    launches: list[LaunchDecl] = field(default_factory=list)
    todos: list[str] = field(default_factory=list)  # ``// kopt: TODO`` lines: something a person must still decide

    @classmethod
    def load(cls, source, name: str | None = None) -> "Candidate":
        """From a path or source text (``name``: how diagnostics name it); a malformed annotation raises
        ``AnnotationError`` (an ``InputError``) that names its line and column."""
        if isinstance(source, Candidate):
            return source
        text, default_name, path = read_source(source)
        return _parse(text, name or default_name, path)

    def with_include_dirs(self, dirs) -> "Candidate":
        """A copy that also searches ``dirs`` for headers (the command line's ``-I``, relative to the current
        directory); every compile of the candidate (``compile_candidate``) passes them on. A missing folder is an
        ``InputError``."""
        extra = []
        for d in dirs or ():
            p = Path(d).resolve()
            if not p.is_dir():
                raise InputError(f"include directory {d} does not exist",
                                 diagnostics=[RULES["annotation.include"].diag(f"-I {d}: no such directory")])
            extra.append(str(p))
        return dataclasses.replace(self, include_dirs=list(dict.fromkeys(self.include_dirs + extra))) if extra \
            else self

    # --- tunable space ------------------------------------------------------------------------------------------
    def default_config(self) -> dict:
        return {t.name: t.values[0] for t in self.tunables}

    def allowed(self, config: dict) -> bool:
        env = {**self.defines, **config}
        for r in self.restrictions:
            try:
                if not expr.evaluate(r, env):
                    return False
            except expr.ExprError as exc:
                raise ann.expression_error(exc, r, self.name, "restrict") if isinstance(r, Text) else exc
        return True

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

    def config_for(self, overrides: dict | None = None) -> dict:
        """The default configuration with the user's ``-D`` values for tunables read as numbers (as ``--set``
        values are). Restrictions are not applied: an explicit value is the user's choice."""
        config = self.default_config()
        for t in self.tunables:
            if overrides and t.name in overrides:
                value = overrides[t.name]
                config[t.name] = 1 if value is None else expr.evaluate(value, {}) if isinstance(value, str) else value
        return config

    def compile_defines(self, config: dict, overrides: dict | None = None) -> dict:
        """What the compiler receives as ``-D``: the fixed defines, the user's other ``-D`` values, and the tunables
        the device code mentions. A tunable only launch expressions use (a grid size) cannot change the cubin, so
        configurations that differ only in it share one compile; a source with a quoted ``#include`` or include
        directories gets every tunable (its header may read one)."""
        code = "\n".join(line for line in self.source.splitlines() if not _ANNOTATION_LINE.match(line))
        every = bool(_QUOTED_INCLUDE.search(code) or self.include_dirs)
        tunables = {t.name for t in self.tunables}
        user = {k: v for k, v in (overrides or {}).items() if k not in tunables}
        used = {k: v for k, v in config.items() if every or re.search(rf"\b{re.escape(k)}\b", code)}
        return {**self.defines, **user, **used}

    def kernel_expr(self, launch: LaunchDecl, config: dict) -> str:
        out = str(launch.kernel)
        for k, v in config.items():
            out = re.sub(rf"\b{re.escape(k)}\b", str(v), out)
        return out

    def kernels(self, config: dict) -> list[str]:
        """The launched kernels' name expressions at ``config``, each once, in launch order."""
        return list(dict.fromkeys(self.kernel_expr(l, config) for l in self.launches))

    def baked_source(self, config: dict) -> str:
        """The source with tunables fixed: ``tune`` lines replaced by single-value ones."""
        out = []
        for lineno, line in enumerate(self.source.splitlines(), 1):
            tuned = [t for t in self.tunables if t.line == lineno]
            if tuned and all(t.name in config for t in tuned):
                indent = line[:len(line) - len(line.lstrip())]
                line = indent + "// kopt: tune " + "; ".join(f"{t.name} in [{config[t.name]}]" for t in tuned)
            out.append(line)
        return "\n".join(out) + "\n"


def load_candidate(file: Path) -> Candidate | None:
    """The candidate in ``file``, or None for a plain source (no '// kopt:' lines) or an unreadable path (compile and
    check report that one)."""
    try:
        text = Path(file).read_text()
    except (OSError, UnicodeDecodeError, ValueError):
        return None
    return Candidate.load(Path(file)) if "// kopt:" in text else None


# --- the grammar -------------------------------------------------------------------------------------------------
def _parse(text: str, name: str, path: Path | None) -> Candidate:
    cand = Candidate(source=text, name=name, path=path)
    found = list(ann.lines(text))
    for word, rest in found:  # defines first: every expression may use them, wherever they stand
        if word == "define":
            _define(cand, rest)
    for word, rest in found:
        parse_line = _PARSERS.get(str(word))
        if parse_line is None:
            raise AnnotationError("annotation.unknown", name, word,
                                  f"unknown annotation {str(word)!r} (expected {', '.join(WORDS[:-1])})")
        if parse_line is not _define:
            parse_line(cand, rest)
    if not cand.launches:
        raise AnnotationError("annotation.no-launch", name, None,
                              "no '// kopt: launch KERNEL grid=(...) block=(...) args=(...)' annotation; a candidate "
                              "must declare how its kernels are launched")
    _check_names(cand, found)
    return cand


def _fail(cand: Candidate, piece: Text, message: str, rule: str = "annotation.syntax"):
    raise AnnotationError(rule, cand.name, piece, message)


def _parse_expr(cand: Candidate, piece: Text, what: str) -> Text:
    try:
        expr.parse(str(piece))
    except expr.ExprError as exc:
        raise ann.expression_error(exc, piece, cand.name, what)
    return piece


def _task(cand, rest):
    if not re.fullmatch(r"[\w.-]+", rest):
        _fail(cand, rest, "expected: task NAME")
    cand.task = str(rest)


def _arch(cand, rest):
    try:
        check_arch(str(rest))
    except InputError as exc:
        _fail(cand, rest, exc.message, "annotation.arch")
    cand.arch = str(rest)


def _include(cand, rest):
    if not rest:
        _fail(cand, rest, "expected: include DIR")
    base = cand.path.parent if cand.path is not None else Path.cwd()
    d = (base / os.path.expanduser(str(rest))).resolve()
    if not d.is_dir():
        _fail(cand, rest, f"include directory {str(rest)!r} not found (looked for {d})", "annotation.include")
    if str(d) not in cand.include_dirs:
        cand.include_dirs.append(str(d))


def _tune(cand, rest):
    for item in ann.split_top(rest, ";"):
        m = re.fullmatch(r"([A-Za-z_]\w*)\s+in\s+\[(.*)\]", str(item))
        if not m:
            _fail(cand, item, "expected: tune NAME in [v1, v2, ...] (several separated by ';')")
        values_piece = item.part(m.start(2), m.end(2))
        values = []
        for v in ann.split_top(values_piece):
            if not v:
                _fail(cand, values_piece, "an empty value in the list")
            try:
                value = expr.evaluate(str(v), cand.defines)
            except expr.ExprError as exc:
                raise ann.expression_error(exc, v, cand.name, f"tune {m.group(1)}")
            if not isinstance(value, (int, float)):
                _fail(cand, v, f"tune {m.group(1)}: value {str(v)!r} is not a number", "expr.type")
            if value in values:
                _fail(cand, v, f"tune {m.group(1)}: value {value!r} is listed twice", "annotation.duplicate")
            values.append(value)
        if not values:
            _fail(cand, item, f"tunable {m.group(1)} has no values")
        if m.group(1) in {t.name for t in cand.tunables}:
            _fail(cand, item.part(0, len(m.group(1))), f"tunable {m.group(1)} declared twice", "annotation.duplicate")
        cand.tunables.append(Tunable(m.group(1), values, rest.line))


def _define(cand, rest):
    m = re.fullmatch(r"([A-Za-z_]\w*)\s*(?:=\s*(.+))?", str(rest))
    if not m:
        _fail(cand, rest, "expected: define NAME=VALUE")
    if m.group(1) in cand.defines:
        _fail(cand, rest.part(0, len(m.group(1))), f"{m.group(1)} defined twice", "annotation.duplicate")
    cand.defines[m.group(1)] = Text((m.group(2) or "1").strip(), rest.line, rest.col + (m.start(2) if m.group(2)
                                                                                         else 0))


def _restrict(cand, rest):
    if not rest:
        _fail(cand, rest, "expected: restrict EXPRESSION")
    cand.restrictions.append(_parse_expr(cand, rest, "restrict"))


def _scratch(cand, rest):
    m = re.fullmatch(r"([A-Za-z_]\w*)\s+(\w+)\[(.+)\]\s*(?:init=(\w+))?", str(rest))
    if not m:
        _fail(cand, rest, "expected: scratch NAME DTYPE[EXPR, ...] [init=poison|zero]")
    init = m.group(4) or "poison"
    if init not in ("poison", "zero"):
        _fail(cand, rest.part(m.start(4), m.end(4)), f"scratch init must be poison or zero, got {init!r}")
    try:
        dt = dtype(m.group(2))
    except InputError as exc:
        _fail(cand, rest.part(m.start(2), m.end(2)), exc.message, "annotation.dtype")
    dims = [_parse_expr(cand, d, f"scratch {m.group(1)}") for d in ann.split_top(rest.part(m.start(3), m.end(3)))]
    cand.scratch.append(Scratch(m.group(1), dt, dims, init))


def _tensormap(cand, rest):
    m = re.fullmatch(r"([A-Za-z_]\w*)\s*=\s*([A-Za-z_]\w*)\s+(.*)", str(rest))
    if not m:
        _fail(cand, rest, "expected: tensormap NAME = ARG box=(d0, d1, ...) [swizzle=128B] ...")
    body = rest.part(m.start(3))
    body = Text(re.sub(r"^tile\(", "box=(", str(body)), body.line, body.col)
    opts = ann.options(body, cand.name)
    if "box" not in opts:
        _fail(cand, body, "tensormap needs box=(...)")
    box = [_parse_expr(cand, d, f"tensormap {m.group(1)} box") for d in ann.split_top(ann.unparen(opts.pop("box")))]
    tm = TensorMapDecl(m.group(1), m.group(2), box)
    for key, allowed in (("swizzle", SWIZZLES), ("l2promotion", L2PROMO), ("oob", ("zero", "nan")),
                         ("interleave", ("none",))):
        if key in opts:
            val = opts.pop(key)
            if val not in allowed:
                _fail(cand, val, f"tensormap {key} must be one of {', '.join(allowed)}, got {str(val)!r}")
            setattr(tm, key, str(val))
    if opts:
        _fail(cand, _key(opts, next(iter(opts))), f"unknown tensormap option(s): {', '.join(opts)}",
              "annotation.unknown")
    cand.tensormaps.append(tm)


_WHEN = re.compile(r"(?:^|(?<=\s))when(?=\s|\(|$)")


def _split_when(cand, tail: Text) -> tuple[Text, Text | None]:
    """``grid=... args=(...) when COND`` -> the options and COND (the first top-level ``when``)."""
    depth = 0
    for i, ch in enumerate(tail):
        depth += (ch in "([{") - (ch in ")]}")
        if depth == 0 and _WHEN.match(tail, i):
            cond = tail.part(i + 4)
            if not cond:
                _fail(cand, tail.part(i, i + 4), "when needs a condition, e.g. `when rows >= 4096`")
            return tail.part(0, i), _parse_expr(cand, cond, "when")
    return tail, None


def _launch(cand, rest):
    kernel, tail = ann.kernel_name(rest, cand.name)
    tail, when = _split_when(cand, tail)
    opts = ann.options(tail, cand.name)
    unknown = [k for k in opts if k not in LAUNCH_OPTIONS]
    if unknown:
        _fail(cand, _key(opts, unknown[0]), f"unknown launch option(s): {', '.join(unknown)} (expected "
                                            f"{', '.join(LAUNCH_OPTIONS)})", "annotation.unknown")
    for req in ("grid", "block", "args"):
        if req not in opts:
            _fail(cand, rest, f"launch {kernel} is missing {req}=")
    dims = {}
    for key in ("grid", "block", "cluster"):
        if key in opts:
            dims[key] = ann.split_top(ann.unparen(opts[key]))
            if not 1 <= len(dims[key]) <= 3:
                _fail(cand, opts[key], f"{key} takes 1 to 3 dimensions, got {len(dims[key])}")
            for d in dims[key]:
                _parse_expr(cand, d, key)
    smem = _parse_expr(cand, ann.unparen(opts["smem"]) if "smem" in opts else Text("0", rest.line, rest.col), "smem")
    stream = 0
    if "stream" in opts:
        if opts["stream"] not in ("0", "1"):
            _fail(cand, opts["stream"], "stream must be 0 or 1")
        stream = int(opts["stream"])
    args = ann.split_top(ann.unparen(opts["args"]))
    if any(not a for a in args):
        _fail(cand, opts["args"], "an empty argument in args=(...)")
    prev = cand.launches[-1] if cand.launches else None
    group = (prev.group if prev.when is not None else prev.group + 1) if prev is not None else 0
    cand.launches.append(LaunchDecl(kernel=kernel, grid=dims["grid"], block=dims["block"], args=args, smem=smem,
                                    cluster=dims.get("cluster"), stream=stream, line=rest.line, when=when,
                                    group=group, fallback=when is None and prev is not None and prev.group == group))


def _key(opts: dict[str, Text], key: str) -> Text:
    """The ``key`` of a ``key=value`` option, located."""
    value = opts[key]
    return Text(key, value.line, value.col - len(key) - 1)


def _todo(cand, rest):
    cand.todos.append(rest)


def _assume(cand, rest):
    """``assume EXPR`` over kernel parameters: read by the static analyzers (analyzers/assume.py), not the runner."""
    if not rest:
        _fail(cand, rest, "expected: assume EXPRESSION")
    try:
        expr.parse(str(rest), c=True)
    except expr.ExprError as exc:
        raise ann.expression_error(exc, rest, cand.name, "assume")


_PARSERS = {"task": _task, "arch": _arch, "include": _include, "tune": _tune, "define": _define,
            "restrict": _restrict, "scratch": _scratch, "tensormap": _tensormap, "launch": _launch, "assume": _assume,
            "TODO": _todo}


def _check_names(cand: Candidate, found) -> None:
    names = [t.name for t in cand.tunables] + [s.name for s in cand.scratch] + [t.name for t in cand.tensormaps] \
        + list(cand.defines)
    reserved = [n for n in names if n in CONSTANT_NAMES]
    if reserved:
        where = next((rest for word, rest in found if re.search(rf"\b{re.escape(reserved[0])}\b", rest)), None)
        raise AnnotationError("annotation.duplicate", cand.name, where,
                              f"{reserved[0]} is a device constant ({', '.join(CONSTANT_NAMES)}); choose another name")
    dup = sorted({n for n in names if names.count(n) > 1})
    if dup:
        where = next((rest for word, rest in found if re.search(rf"\b{re.escape(dup[0])}\b", rest)), None)
        raise AnnotationError("annotation.duplicate", cand.name, where,
                              f"name(s) declared twice: {', '.join(dup)}")
