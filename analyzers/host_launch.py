"""The launches of a kernel in host code: the constant block (and grid, template arguments) of each, read from the
file and from the files of its folder that include it, load it by name or launch it from a declaration, for a
kernel no ``// kopt: launch`` line describes.

Launch forms: ``<<<grid, block>>>``, ``cudaLaunchKernel``, ``cudaLaunchCooperativeKernel``, ``cudaLaunchKernelEx``
(its config's fields) and the driver API (``cuLaunchKernel`` of a function looked up by name, also when a helper
hands the function back through a pointer or a struct, under the conditions around the lookup). Operands are read
as constants through function-pointer variables, ``dim3`` (and ``uint3``/``int3``) fields, enum / const / constexpr
integers, macros and integer constants of quoted includes, names of the launching function first (each from its
declaration in scope at the launch: C block scope), the constants callers in the folder pass for a parameter, and
the template arguments of each call of a host function template. A launch whose block is not a constant is reported
as such (the kernel's configuration then lists it as not covered), with the bound host code puts on it when there is
one (a clamp, ``min``, a ``do``-``while`` exit), and what it says of every such block: the sizes a loop sweeps over (a
loop's variable takes its loop's values, an array of constants its elements; more than _MAX_SHAPES sizes at one launch
are one analysis under their set, not one each) or a multiple (``32 * n``); a kernel launched only in code an
``#ifdef`` leaves out is read with its macro defined, and one launched nowhere with its launches under ``#if 0``.
Reading is textual (regular expressions over comment- and string-free text), so it costs no second parse.
"""
from __future__ import annotations

import itertools
import os
import re
from bisect import bisect_left
from dataclasses import dataclass, field, replace
from functools import lru_cache, reduce
from math import gcd, prod
from pathlib import Path

from kopt.expr import drop_int_casts
from kopt.source import c_macros

from . import build_flags
from .includers import included_by, includers, includers_beside, source_text
from .launch import MAX_THREADS, conjuncts, evaluate, source_macros, split_top
from .preproc import IF_0_LINE, READ_IF_0, active_lines
from .type_sizes import TYPE_SIZES

LOCAL_INCLUDE = re.compile(r'^[ \t]*#[ \t]*include[ \t]*"([^"]+)"', re.M)
_PROJECT_INCLUDE = re.compile(r'^[ \t]*#[ \t]*include[ \t]*<([^>]+)>', re.M)
# comments, string and character literals, preprocessor lines (with their continuations)
_NOISE = re.compile(r"//[^\n]*|/\*.*?\*/|\"(?:\\.|[^\"\\\n])*\"|'(?:\\.|[^'\\\n])*'|^[ \t]*#(?:\\\n|[^\n])*",
                    re.S | re.M)
_SCALAR_TYPE = (r"(?:(?:const|constexpr|static|unsigned|signed|int|long|short|size_t|uint|uint32_t|int32_t|"
                r"uint64_t|int64_t|auto)\s+)+")
_ENUM = re.compile(r"\benum\s+(?:class\s+|struct\s+)?(?:[A-Za-z_]\w*\s*)?(?::\s*[\w\s]+)?\{([^{}]*)\}")
# a dim3 (or uint3 / int3, which a launch takes as a dim3) declarator follows
_EV_DIM3 = re.compile(r"\s*(?:(?:const|static)\s+)*(?:dim3|u?int3)\s+(?:const\s+)?(?:$|.*,\s*$)", re.S)
_EV_TYPE = re.compile(r"(?:^|\(|,)\s*" + _SCALAR_TYPE + "$")  # an integer declarator follows
_EV_NEXT = re.compile(r"\s*" + _SCALAR_TYPE + r"[^;]*,\s*$", re.S)  # a further one (`int a = 1, b = 2`)
# `= v`, `{v}`, or `(v)` holding no typed parameter (`int n(4);`, not the prototype `int f(int a);`)
_EV_INIT = re.compile(r"\s*=[^=]|\s*\{|\s*\((?!\s*\)|\s*(?:void|const|unsigned|signed|int|long|short|char|float|double|"
                      r"bool|size_t|struct)\b)(?![^;{}()]*\b[A-Za-z_]\w*\s+[A-Za-z_])[^;{}]*\)\s*[;,]")
_EV_FPTR_HEAD = re.compile(r"\(\s*\*\s*$")
_EV_FPTR_TAIL = re.compile(r"\s*\)\s*\(")
_EV_FPTR = re.compile(r"\s*\)\s*\([^;{}]*?\)\s*(?:=\s*([^;{}]*))?;")
_EV_FIELD = re.compile(r"\s*\.\s*([xyz])\s*([-+*/%&|^]|<<|>>)?=(?!=)([^;{}]*);")
_CHAINED = re.compile(r"[A-Za-z_]\w*\s*=(?!=)(.*)", re.S)
_EV_SET = re.compile(r"\s*(=(?!=)|[-+*/%&|^]=|<<=|>>=|\+\+|--)([^;{}]*)")
_EV_PREINC = re.compile(r"(?:\+\+|--)\s*$")
_EV_ADDRESS = re.compile(r"[(,]\s*&\s*$")
_CU_LAUNCH = re.compile(r"\bcuLaunch(?:Cooperative)?Kernel\s*\(")  # (f, gx, gy, gz, bx, by, bz, ...)
# cuModuleGetFunction(&f, module, "name") (or through a pointer parameter: `pf` / `*pf`)
_CU_FUNCTION = re.compile(r"\bcuModuleGetFunction\s*\(\s*[&*]?\s*(?:\w+\s*(?:->|\.)\s*)*(\w+)\s*,[^,;]*,\s*\"(\w+)\"\s*\)")
# a CUDA graph kernel node's kernel (`params.func = (void *)k;`), and where a node is added or updated
_GRAPH_FUNC = re.compile(r"\b([A-Za-z_][\w.]*?)\s*\.\s*func\s*=\s*(?:\(\s*void\s*\*\s*\)\s*)?&?\s*"
                         r"([A-Za-z_][\w:]*(?:\s*<[^<>;]*>)?)\s*;")
_GRAPH_ADD = re.compile(r"\bcudaGraph(?:Add\w*Node|\w*NodeSetParams)\s*\(")
_MAX_CHOICES = 8  # values a launch operand may take before it counts as not constant
_MAX_SHAPES = 4  # block sizes of one launch analyzed one by one; more (a sweep) are one analysis under their set
_MAX_SWEEP = 1024  # values a loop variable may take (a block has at most 1024 threads)
# `for (int j = 32; ...` / `for (const int& b : sizes)`: the loop's own variable, and its start or its range
_LOOP_VAR = re.compile(r"\s*(?:(?:const|constexpr|auto|unsigned|signed|int|long|short|size_t|u?int(?:8|16|32|64)_t)"
                       r"\b\s*)+&?\s*([A-Za-z_]\w*)\s*(?:=(?!=)(.*)|:(?!:)(.*))$", re.S)
_FOR_HEAD = re.compile(r"for\s*\((.*)\)$", re.S)
_WRITE_AFTER = re.compile(r"\s*(?:[-+*/%&|^]?=(?!=)|<<=|>>=|\+\+|--)")
_MAX_DEPTH = 8  # names followed through their initializers (`b(32 * w)`, `w = min(avail / per, 16)`, ...)
# device attributes every CUDA GPU (compute capability 5.0 and later) reports alike: the runtime's attribute
# query (`cudaDeviceGetAttribute(&v, cudaDevAttrWarpSize, dev)`) and cudaDeviceProp's fields
_FIXED_ATTRIBUTE = {"cudaDevAttrWarpSize": 32, "cudaDevAttrMaxThreadsPerBlock": 1024, "cudaDevAttrMaxBlockDimX": 1024,
                    "cudaDevAttrMaxBlockDimY": 1024, "cudaDevAttrMaxBlockDimZ": 64}
_FIXED_FIELD = {"warpSize": "32", "maxThreadsPerBlock": "1024", "maxThreadsDim[0]": "1024",
                "maxThreadsDim[1]": "1024", "maxThreadsDim[2]": "64"}
_ATTRIBUTE_QUERY = re.compile(r"\bcudaDeviceGetAttribute\s*\(\s*&\s*$")
_PROP_FIELD = re.compile(r"\b([A-Za-z_]\w*)\s*(?:\.|->)\s*(warpSize|maxThreadsPerBlock|maxThreadsDim\s*\[\s*[012]\s*\])")


def _call_args(text: str, start: int) -> list[str]:
    """The top-level arguments of the call whose opening parenthesis ends just before ``start``."""
    end = _call_end(text, start)
    return split_top(text[start:(len(text) + 1 if end is None else end) - 1])


def _call_end(text: str, start: int) -> int | None:
    """The position after the ``)`` that closes the call whose opening parenthesis ends just before ``start``."""
    depth, i = 1, start
    while i < len(text) and depth:
        depth += {"(": 1, ")": -1}.get(text[i], 0)
        i += 1
    return i if depth == 0 else None
_NOT_NEWLINE = re.compile(r"[^\n]")
_BRACE = re.compile(r"[{}]")
_FUNC_END = re.compile(r"\)\s*(?:const\s*)?(?:noexcept\s*)?(?:->\s*[\w:<>\s]+)?\s*$")  # a body's `{` follows it
_CONTROL = re.compile(r"\b(?:if|for|while|switch|catch)\s*\([^;{}]*$")
# a line that ends a call with no `;`, or holds one upper-case name (a macro used as a statement: `CHECK(...)`,
# `NCV_SKIP_COND_BEGIN`)
_MACRO_STATEMENT = re.compile(r"(?:\)|^[ \t]*[A-Z_][A-Z0-9_]*)[ \t]*\n", re.M)
_DEFINED_NAME = re.compile(r"^[ \t]*#[ \t]*define[ \t]+([A-Za-z_]\w*)", re.M)  # valued or not (`#define GPU`)
_LOOP_HEAD = re.compile(r"(?:for|while)\s*\(|do\b")  # a statement head: a loop's body follows
_BRANCH_HEAD = re.compile(r"(?:if\s*\(|else\b|case\b|default\s*:)")
_IF_ARM = re.compile(r"(?:else\s+)?if\s*\(.*\)|else", re.S)  # the head of an arm of an if/else chain
_ELSE_ARM = re.compile(r"(?:\s|//[^\n]*\n|/\*.*?\*/)*else\b(\s*if\s*\()?", re.S)
_OPEN_BRACE = re.compile(r"\s*\{")
# a compile-time tag passed for a template parameter the kernel deduces from it (`std::bool_constant<false>{}`,
# `std::true_type()`, `std::integral_constant<int, 4>{}`), and a constant declared as one (`constexpr
# std::bool_constant<true> True;`): the value is the tag's, whatever the name says
_TAG = r"(?:std\s*::\s*)?(?:bool_constant\s*<\s*(true|false)\s*>|(true|false)_type|integral_constant\s*<[^<>,]+,\s*(-?\d+)\s*>)"
_TAG_ARG = re.compile(rf"{_TAG}\s*(?:\{{\s*\}}|\(\s*\))")
_TAG_DECL = re.compile(rf"\b(?:constexpr|const)\s+(?:static\s+)?{_TAG}\s+([A-Za-z_]\w*)\s*(?:;|=|\{{)")
_ARGS_AFTER_LAUNCH = re.compile(r">>>\s*\(")
# a pointer argument's element type, from a cast (`(half *) x`, `reinterpret_cast<const float*>(x)`) or from the
# declaration of the name passed (`float *x = ...`, a parameter `const half *x`)
_POINTEE = r"(?:const\s+)?((?:[A-Za-z_]\w*\s*::\s*)*[A-Za-z_]\w*)\s*(?:const\s*)?\*\s*"
_POINTER_CAST = re.compile(rf"\(\s*{_POINTEE}\)|(?:reinterpret|static)_cast\s*<\s*{_POINTEE}>")
_NOT_ELEMENT_TYPES = {"void", "auto", "return", "const", "unsigned", "signed", "struct", "class"}
_TAG_PARAM = re.compile(r"\b(?:bool_constant\s*<\s*(\w+)\s*>|integral_constant\s*<[^<>,]+,\s*(\w+)\s*>)")
_TEMPLATE_HEAD = re.compile(r"\btemplate\s*<((?:[^<>;{}]|<[^<>;{}]*>)*)>[^;{}<>]*$")
_FUNC_NAME = re.compile(r"([A-Za-z_]\w*)\s*(?:<[^<>]*>\s*)?$")
_PARAM = re.compile(r"([A-Za-z_]\w*)\s*(?:\[[^\]]*\])?\s*(?:=[^,]*)?$")
_FN_POINTER = re.compile(r"\(\s*\*\s*([A-Za-z_]\w*)\s*\)\s*\(")  # a function pointer's declarator: `void (*k)(float *)`
_TARGS = r"(?:<[^<>;]*(?:<[^<>;]*>[^<>;]*)*>)?"
_CALLEE = re.compile(r"\b([A-Za-z_][\w:]*)\s*(" + _TARGS + r")\s*$")  # the kernel named before a `<<<`
# `(k<T, 256>)<<<...`, `((k<T>))<<<...` (a macro's `(kernel)<<<` given a parenthesized argument)
_PAREN_CALLEE = re.compile(r"\(\s*(?:\(\s*)?([A-Za-z_][\w:]*)\s*(" + _TARGS + r")\s*\)(?:\s*\))?\s*$")
_SUBSCRIPTS = r"(?:\s*\[[^\[\]]+\])+"
_ELEMENT = re.compile(rf"([A-Za-z_]\w*)({_SUBSCRIPTS})")  # an array's element: `fns[i]`, `block[d][i]`
_ELEMENT_CALLEE = re.compile(rf"(?<![\w.>])([A-Za-z_]\w*{_SUBSCRIPTS})\s*$")  # `fns[i]<<<...`
# the runtime's launch calls: (kernel, grid, block, ...) and cudaLaunchKernelEx(&config, kernel, ...)
_LAUNCH_CALL = re.compile(r"\b(cudaLaunchKernel|cudaLaunchCooperativeKernel|cudaLaunchKernelEx(?:C)?)\s*"
                          + _TARGS + r"\s*\(")
_TYPE_NAME = re.compile(r"(?:[A-Za-z_]\w*\s*::\s*)*[A-Za-z_]\w*")
_TYPES = {"float", "double", "int", "unsigned", "unsigned int", "char", "short", "long", "bool", "half", "__half",
          "__nv_bfloat16", "float2", "float4", "int2", "int4", "uint", "size_t", "long long", "unsigned long",
          "unsigned long long", "unsigned char", "signed char", "unsigned short", "uchar", "ushort", "int8_t",
          "int16_t", "int32_t", "int64_t", "uint8_t", "uint16_t", "uint32_t", "uint64_t", "half2", "__half2",
          "__nv_bfloat162", "double2", "uint2", "uint4", "uchar4", "char4"}


@dataclass
class HostLaunch:
    """One constant launch shape read from host code."""
    block: tuple
    grid: tuple = (None, None, None)
    targs: list = field(default_factory=list)  # template arguments, when the launch names constant ones
    where: str = ""  # file:line of (one of) the launches
    tags: dict = field(default_factory=dict)  # argument position -> the value of a compile-time tag passed there
    # argument position -> the element type of a pointer passed there, where the host code says it (``arg_types``)
    arg_types: dict = field(default_factory=dict)
    others: list = field(default_factory=list)  # the file:line of other launches of the same configuration


@dataclass
class HostLaunches:
    """A kernel's launches in host code: the constant shapes, and the launches whose block is not constant."""
    launches: list = field(default_factory=list)
    unknown: list = field(default_factory=list)  # "file:line (`block text`)"
    unknown_bounds: list = field(default_factory=list)  # per launch of ``unknown``: at most how many threads, or None
    # per launch of ``unknown``: the sizes of its 1-D block when a set of constants (a sweep), else None; and a k its
    # block's threads are a multiple of (1: none known)
    unknown_values: list = field(default_factory=list)
    unknown_multiples: list = field(default_factory=list)

    def add_unknown(self, where: str, bound=None, values=None, multiple: int = 1) -> None:
        self.unknown.append(where)
        self.unknown_bounds.append(bound)
        self.unknown_values.append(values)
        self.unknown_multiples.append(multiple)

    @property
    def block_fact(self) -> str | None:
        """What host code says of the block of every launch in ``unknown``, as an assumption's text over blockDim:
        one of the sizes it sweeps over (``for (b = 32; b <= 1024; b *= 2)``), else a multiple (``32 * n``) of a 1-D
        block; None when a launch says neither (or there are constant shapes too: those are analyzed)."""
        if not self.unknown or self.launches or len(self.unknown_values) != len(self.unknown):
            return None
        one_d = " and blockDim.y == 1 and blockDim.z == 1"
        if None not in self.unknown_values:
            return _one_of(sorted(set().union(*self.unknown_values))) + one_d
        k = reduce(gcd, (reduce(gcd, v) if v else m for v, m in zip(self.unknown_values, self.unknown_multiples)))
        return f"blockDim.x % {k} == 0" + one_d if k > 1 else None

    @property
    def partial(self) -> bool:
        return bool(self.launches) and bool(self.unknown)

    @property
    def bound(self) -> int | None:
        """At most how many threads a block of the launches in ``unknown`` has, when the host code bounds every one
        (``threads = n; if (n > 512) threads = 512;``, ``min(n, 512)``); else None."""
        b = self.unknown_bounds
        return max(b) if b and len(b) == len(self.unknown) and None not in b else None


def _one_of(values: list) -> str:
    """blockDim.x is one of ``values`` (sorted): a range and a step when they are evenly spaced, else each named (a
    bound and their common divisor when there are many)."""
    d = values[1] - values[0] if len(values) > 2 else 0
    if d and all(b - a == d for a, b in zip(values, values[1:])):
        return f"blockDim.x >= {values[0]} and blockDim.x <= {values[-1]}" + (
            f" and blockDim.x % {d} == {values[0] % d}" if d > 1 else "")
    if len(values) > 32:
        return f"blockDim.x <= {values[-1]} and blockDim.x % {reduce(gcd, values)} == 0"
    return "(" + " or ".join(f"blockDim.x == {v}" for v in values) + ")"


class _Params:
    """A function's parameter names, read from its parameter list text when first asked."""

    def __init__(self, text: str):
        self.text, self._names = text, None

    @property
    def names(self) -> list:
        if self._names is None:
            self._names = [p.group(1) if p else "" for p in ((_FN_POINTER.search(x) or _PARAM.search(x.strip()))
                                                              for x in split_top(self.text))]
        return self._names

    def __contains__(self, name) -> bool:
        return name in self.text and name in self.names

    def index(self, name) -> int:
        return self.names.index(name)


class _Scan:
    """The host code of one file, read for launches: comments and strings blanked (offsets kept), function bodies
    found by their braces, and the declarations and assignments of each name, by the function they are in."""

    def __init__(self, text: str, name: str, env: dict, callers=None, instantiations=None):
        self.name, self.env = name, env
        self.headers: list = []  # the texts of its quoted includes (for the structs they declare)
        self.callers = callers  # (function name, parameter index, depth) -> the values its callers pass, or None
        # (function name, depth) -> the template argument values (tuples) its calls in the folder give, or None
        self.instantiations = instantiations
        self._tag_names = None  # name -> value of each constant declared as a compile-time tag (``tags``)
        self.cu_functions: dict = {}  # driver API: CUfunction variable -> [(position, kernel name looked up)]
        self.looked_up: dict = {}  # (launch position, kernel name) -> position of its lookup in the launching function
        for m in _CU_FUNCTION.finditer(text) if "cuModuleGetFunction" in text else ():
            self.cu_functions.setdefault(m.group(1), []).append((m.start(), m.group(2)))
        self.text = t = _NOISE.sub(lambda m: _NOT_NEWLINE.sub(" ", m.group(0)) if "\n" in m.group(0) else
                                   " " * len(m.group(0)), text)
        self.funcs = []  # (start, end, parameter names, function name) of top-level function bodies
        self.tparams: dict = {}  # a function template's body start -> its template parameter names
        self.tparam_decls: dict = {}  # a function template's body start -> its template parameters' declarations
        depth, open_at, params, fname = 0, None, [], ""
        for m in _BRACE.finditer(t):
            if m.group(0) == "{":
                if open_at is None:
                    lo = max(0, m.start() - 600)
                    h = _FUNC_END.search(t, max(lo, m.start() - 80), m.start())
                    if h and not _CONTROL.search(t, lo, h.end()):
                        open_at, depth = m.start(), 0
                        # a parameter list may be long (a comment per parameter, blanked)
                        inner = self._param_text(t[max(0, m.start() - 8000):h.start() + 1])
                        params = _Params(inner)
                        fm = _FUNC_NAME.search(t, max(0, h.start() - len(inner) - 300), h.start() - len(inner) - 1)
                        fname = fm.group(1) if fm else ""
                        lo = max(0, fm.start() - 600) if fm else lo
                        th = _TEMPLATE_HEAD.search(t, lo, fm.start()) if fm and "template" in t[lo:fm.start()] else None
                        if th:  # a function template: its parameters' declarations and names, by position
                            decls = self.tparam_decls[m.start()] = [a.strip() for a in split_top(th.group(1))]
                            self.tparams[m.start()] = [x.group(1) if x else "" for x in (
                                re.search(r"([A-Za-z_]\w*)\s*(?:=[^,]*)?$", a) for a in decls)]
                depth += open_at is not None
            elif open_at is not None:
                depth -= 1
                if depth == 0:
                    self.funcs.append((open_at, m.end(), params, fname))
                    open_at = None
        self.events: dict = {}  # name -> [(position, kind, value text)], read on demand (events_of)
        self.memo: dict = {}  # (name, function start, guards) -> values
        self.opened: dict = {}  # (function start, position) -> the blocks open there (_open_blocks)
        self.guards: dict = {}  # name -> ("in" | "not in", values): what the conditions around the launch being read imply
        self.enums: dict = {}  # enumerator -> value (None: not a constant)
        for n, v in _enumerators(t).items():  # (in order: one read through those before it)
            self.enums[n] = evaluate(v, {**env, **{k: x for k, x in self.enums.items() if x is not None}})

    def events_of(self, name: str) -> list:
        """Where ``name`` is declared, set, updated or passed by address: [(position, kind, value text)], kind one
        of enum, dim3, decl (an initialized integer or function pointer), set, field:x|y|z, address; value None
        when it is not a constant (an update such as ``+=``, ``++``)."""
        if name in self.events:
            return self.events[name]
        t, out = self.text, []
        if name in self.enums:
            out.append((0, "enum", self.enums[name]))
        element = re.fullmatch(r"(\w+)((?:\[\d+\])+)", name)  # `lws[0]`, `block[1][0]`, written with any spacing
        found = re.finditer(rf"\b{element.group(1)}" + "".join(
            rf"\s*\[\s*{i}\s*\]" for i in re.findall(r"\d+", element.group(2))) + r"(?!\s*\[)", t) if element else None
        p = -1
        while True:
            if found is not None:
                m = next(found, None)
                p, q = (m.start(), m.end()) if m else (-1, -1)
            else:
                p = t.find(name, p + 1)
                q = p + len(name)
            if p < 0:
                break
            if p and (t[p - 1].isalnum() or t[p - 1] in "_.>") or q < len(t) and (t[q].isalnum() or t[q] == "_"):
                continue
            head = t[max(t.rfind(";", 0, p), t.rfind("{", 0, p), t.rfind("}", 0, p)) + 1:p]
            head = _MACRO_STATEMENT.split(head)[-1]  # `CHECK(...)` on its own line, no `;`: a statement before it
            tail = t[q:q + 400]
            flat = head.count("(") == head.count(")") and head.count("{") == head.count("}")
            if flat and _EV_DIM3.match(head):
                out.append((p, "dim3", self._initializer(tail, "dim3")))
            elif ((flat or head.rstrip().endswith("(")) and _EV_TYPE.search(head) or flat and _EV_NEXT.match(head)) \
                    and _EV_INIT.match(tail):
                out.append((p, "decl", self._initializer(tail, "int")))
            elif _EV_FPTR_HEAD.search(head) and _EV_FPTR_TAIL.match(tail):
                f = _EV_FPTR.match(tail)
                if f and f.group(1):
                    out.append((p, "decl", f.group(1).strip()))
            elif f := _EV_FIELD.match(tail):  # (`grid.x /= 4`: a value the field's own history decides)
                # (`grid.x = n, grid.y = b;`: a comma ends the value an assignment takes)
                value = None if f.group(2) else (split_top(f.group(3)) or [""])[0].strip()
                out.append((p, "field:" + f.group(1), value))
            elif f := _EV_SET.match(tail):
                value = (split_top(f.group(2)) or [""])[0].strip() if f.group(1) == "=" else None
                while value and (c := _CHAINED.match(value)):  # `N = M = K = 2048;`: every name gets the value
                    value = c.group(1).strip()
                out.append((p, "set", value))
            elif _EV_PREINC.search(head):
                out.append((p, "set", None))
            elif _ATTRIBUTE_QUERY.search(head) and (a := re.match(r"\s*,\s*(\w+)", tail)) and \
                    a.group(1) in _FIXED_ATTRIBUTE:
                out.append((p, "set", str(_FIXED_ATTRIBUTE[a.group(1)])))  # an attribute every device has alike
            elif _EV_ADDRESS.search(head) and not self._read_only_argument(head):
                out.append((p, "address", None))  # passed by address: may be written anywhere
        if re.fullmatch(r"\w+\.\w+", name):
            # a field changes with its struct: the struct lent by address (`tune(&ctx)`) or assigned whole
            out = sorted(out + [(p, kind, None) for p, kind, _ in self.events_of(name.partition(".")[0])
                                if kind in ("address", "set")], key=lambda e: e[0])
        self.events[name] = out
        return out

    def _read_only_argument(self, head: str) -> bool:
        """The call that ``head`` (a statement's text up to ``&name``) passes the address to is a function of the file
        whose parameter there is a pointer to const, or one its body only reads through: no assignment or update
        through it (``p->x = ``, ``*p = ``, ``p[i]++``), not passed on (``sg_print_exec_context(&ctx)``, which prints
        its fields)."""
        depth, at = 0, len(head) - 1
        while at >= 0:  # the call's opening parenthesis
            ch = head[at]
            depth += ch == ")"
            if ch == "(":
                if depth == 0:
                    break
                depth -= 1
            at -= 1
        callee = re.search(r"([A-Za-z_]\w*)\s*$", head[:max(at, 0)])
        if at < 0 or callee is None:
            return False
        index = len(split_top(head[at + 1:].rstrip()[:-1])) if head[at + 1:].strip() != "&" else 0
        defs = [g for g in self.funcs if g[3] == callee.group(1)]
        if len(defs) != 1:
            return False
        params = split_top(defs[0][2].text)
        names = defs[0][2].names
        if index >= len(params) or "*" not in params[index] or not names[index]:
            return False
        if re.search(r"\bconst\b[^*]*\*", params[index]) and params[index].count("*") == 1:
            return True
        n, body = re.escape(names[index]), self.text[defs[0][0]:defs[0][1]]
        written = rf"(?:\s*(?:->|\.)\s*\w+|\s*\[[^\]]*\])*\s*(?:[-+*/%&|^]?=(?!=)|<<=|>>=|\+\+|--)"
        return not re.search(rf"(?<![\w.>])(?:\*\s*\(?\s*)?{n}\b{written}|(?:\+\+|--)\s*\*?\s*{n}\b|"
                             rf"\(\s*\*\s*{n}\s*\)|[(,]\s*{n}\s*[,)]|=\s*{n}\s*;|\breturn\s+{n}\b|"
                             rf"(?<![\w.>]){n}\s*->\s*\w+\s*\(", body)  # (a method called through it may write)

    @staticmethod
    def _initializer(tail: str, kind: str):
        """The value text a declarator gives its name: ``(args)``, ``{args}``, ``= value``; None when there is
        none (an integer) or dim3() (a dim3, which defaults to 1, 1, 1)."""
        tail = tail.lstrip()
        if tail[:1] in "({":
            close = {"(": ")", "{": "}"}[tail[0]]
            d, i = 0, 0
            for i, ch in enumerate(tail):
                d += (ch == tail[0]) - (ch == close)
                if d == 0:
                    break
            inner = tail[1:i]
            return f"dim3({inner})" if kind == "dim3" else (inner.strip() or "0")
        if tail.startswith("="):
            value = split_top(re.split(r";", tail[1:], maxsplit=1)[0])[0].strip()
            braced = re.fullmatch(r"\{(.*)\}", value, re.S)  # copy-list-initialization: `size_t n = {128};`
            if braced:
                return f"dim3({braced.group(1)})" if kind == "dim3" else (braced.group(1).strip() or "0")
            made = re.fullmatch(r"make_u?int3\s*\((.*)\)", value, re.S) if kind == "dim3" else None
            return f"dim3({made.group(1)})" if made else value  # `uint3 b = make_uint3(x, y, z)`: a dim3's fields
        return "dim3()" if kind == "dim3" else None

    @staticmethod
    def _param_text(head: str) -> str:
        """The text inside the bracket that closes at the end of ``head``."""
        depth = 0
        for i in range(len(head) - 1, -1, -1):
            depth += {")": 1, "(": -1}.get(head[i], 0)
            if depth == 0:
                return head[i + 1:-1]
        return ""

    def tags(self, pos: int) -> dict:
        """Argument position -> value (text) of each argument of the `<<<` launch whose kernel is named at ``pos``
        that is a compile-time tag (``_TAG``) or a constant declared as one, here or in a quoted include."""
        t = self.text
        at = t.find(">>>", pos)
        if at < 0 or t.find(";", pos, at) >= 0:  # not a `<<<` launch (cudaLaunchKernel): a later launch's arguments
            return {}
        opened = _ARGS_AFTER_LAUNCH.match(t, at)
        if opened is None:
            return {}
        if self._tag_names is None:
            self._tag_names = {m.group(4): next(g for g in m.groups()[:3] if g)
                               for x in (*self.headers, t) for m in _TAG_DECL.finditer(x)}
        out = {}
        for i, a in enumerate(_call_args(t, opened.end())):
            a = a.strip()
            m = _TAG_ARG.fullmatch(a)
            v = next(g for g in m.groups() if g) if m else self._tag_names.get(a)
            if v is not None:
                out[i] = v
        return out

    def arg_types(self, pos: int) -> dict:
        """Argument position -> the element type (its last name: `half`, `__nv_bfloat16`) of each pointer argument of
        the `<<<` launch whose kernel is named at ``pos`` whose type the host code says: a cast, or the declaration of
        the variable or parameter passed. What picks one of several kernels of one name (a float and a half
        overload) for the launch."""
        t = self.text
        at = t.find(">>>", pos)
        opened = _ARGS_AFTER_LAUNCH.match(t, at) if at >= 0 and t.find(";", pos, at) < 0 else None
        f = self.func_at(pos)
        if opened is None or f is None:
            return {}
        out = {}
        for i, a in enumerate(_call_args(t, opened.end())):
            a = a.strip()
            m = _POINTER_CAST.match(a)
            if m is None and re.fullmatch(r"[A-Za-z_]\w*", a):
                declared = re.compile(rf"(?:^|[;{{}}(,])\s*{_POINTEE}(?:__restrict(?:__)?\s*)?{a}\s*(?=[=;,)])", re.M)
                # the parameter, unless a local declared before the launch shadows it
                found = [*declared.finditer(f[2].text), *declared.finditer(t, f[0], pos)]
                m = found[-1] if found else None
            name = next((g for g in m.groups() if g), None) if m else None
            name = re.sub(r"\s+", "", name).split("::")[-1] if name else None
            if name and name not in _NOT_ELEMENT_TYPES:
                out[i] = name
        return out

    def func_at(self, pos):
        for f in self.funcs:
            if f[0] <= pos < f[1]:
                return f
        return None

    def line(self, pos: int) -> str:
        return f"{self.name}:{self.text.count(chr(10), 0, pos) + 1}"

    def values(self, name: str, pos: int, depth: int = 0) -> list | None:
        """The values ``name`` may hold at ``pos``: a list of int triples (dim3) or ints, or of identifiers for a
        function pointer; None when one of them is not a constant."""
        if depth > _MAX_DEPTH:
            return None
        f = self.func_at(pos)
        local, scope = self._in_scope(name, f, pos)
        g = self.guards.get(name)
        if g is not None and len(g) > 2 and local and f[0] <= g[2] < f[1] and all(e[0] < min(pos, g[2]) for e in local):
            # `case 256:` around the launch, on a variable set only before both the test and the read (`dim3
            # block(size)` before `switch (size)`): at the read it holds the value the test found
            return list(g[1])
        loop = self._loop_of(name, f, pos, scope)
        if loop is not None:
            key = ("for", name, loop)
            if key not in self.memo:
                self.memo[key] = self._sweep(name, loop, depth)
            g = self.guards.get(name)  # `if (b == 256)` around the launch
            vals = self.memo[key]
            return [v for v in vals if (v in g[1]) == (g[0] == "in")] or None if g and vals else vals
        # in straight-line code the value at ``pos`` is the one the events before it leave; in a loop, any event up
        # to the end of the outermost loop around it (a later pass runs after them), none after that loop
        in_loop = bool(local) and self._in_loop(f, pos, scope)
        at = pos if local and name not in self.guards and not in_loop else None
        end = None
        if in_loop and name not in self.guards:
            begin, end = self._loop_span(f, pos, scope)
            if self._reset_each_pass(f, local, begin, pos, end):
                at = pos  # what the loop's later statements leave is set anew before ``pos`` on each pass
            local = [e for e in local if e[0] < end]
        key = (name, f[0] if f else None, scope, at, end,
               self.guards_key())
        if key not in self.memo:
            self.memo[key] = self._values(name, f, depth, local, at)
        return self.memo[key]

    def guards_key(self) -> tuple:
        """The guards in force, as a key for the memos of what they change."""
        return tuple(sorted((k, g[0], tuple(g[1]), g[2:]) for k, g in self.guards.items()))

    def scoped_events(self, name: str, pos: int) -> list:
        """The events of the variable ``name`` names at ``pos``, in its function (``_in_scope``)."""
        return self._in_scope(name, self.func_at(pos), pos)[0]

    def _in_scope(self, name: str, f, pos: int) -> tuple[list, int | None]:
        """The events of ``name`` in function ``f`` that concern the variable visible at ``pos`` (C block scope: a
        name declared anew in each of several ``{ }`` blocks is a different variable in each), and the ``{`` of the
        block that declares it (None: no declaration of the function is visible there; then its events outside
        every declaration's scope are those of a global or a parameter)."""
        local = [e for e in self.events_of(name) if f is not None and f[0] <= e[0] < f[1]]
        decls = {}  # a declaration's position -> the `{` and the end of the block that declares it
        for e in local:
            if e[1] in ("decl", "dim3"):
                b = self._open_blocks(f, e[0])[-1]
                decls[e[0]] = (b, block_end(self.text, b + 1))
        if not decls:
            return local, None

        def visible(p):  # the latest declaration before p whose block also holds p
            return max((d for d, (_, end) in decls.items() if d <= p < end), default=None)
        mine = visible(pos)  # None: no declaration of the function is in scope (a global, a function)
        return [e for e in local if visible(e[0]) == mine], decls[mine][0] if mine is not None else None

    def _in_loop(self, f, pos: int, scope: int | None = None) -> bool:
        """``pos`` is inside a loop of function ``f`` (a later statement may run before it); ``scope``: only loops
        inside that block count (a variable it declares starts anew on each pass of a loop around it)."""
        heads = [self._head(b) for b in self._open_blocks(f, pos) if scope is None or b > scope] + [self._head(pos)]
        return any(_LOOP_HEAD.match(h) for h in heads)

    def _loop_span(self, f, pos: int, scope: int | None = None) -> tuple[int, int]:
        """The body of the outermost loop of function ``f`` (inside ``scope``) around ``pos``: its ``{`` and its end
        (a braceless loop: its one statement)."""
        loops = [b for b in self._open_blocks(f, pos) if (scope is None or b > scope) and _LOOP_HEAD.match(self._head(b))]
        if not loops:  # `for (...) k<<<...>>>(...);`: the statement is the body
            stop = self.text.find(";", pos)
            return self._head_start(pos), stop if stop >= 0 else len(self.text)
        return loops[0], block_end(self.text, loops[0] + 1)

    def _reset_each_pass(self, f, local: list, begin: int, pos: int, end: int) -> bool:
        """Every field or value a statement of the loop body after ``pos`` sets is set again, unconditionally, in
        the body before ``pos``: then the value at ``pos`` is the straight-line one on every pass."""
        before = [e for e in local if begin < e[0] < pos and not self._conditional(f, e[0], pos)]
        whole = ("set", "dim3", "decl")
        for _, kind, _ in (e for e in local if pos < e[0] < end):
            if not any(k == kind or k in whole and (kind in whole or kind.startswith("field:")) for _, k, _ in before):
                return False
        return True

    def _conditional(self, f, event: int, pos: int) -> bool:
        """The statement at ``event`` may be skipped on the way to ``pos``: it sits in a block that does not also
        hold ``pos``, or under an ``if``/``else``/``case`` of its own."""
        return bool(set(self._open_blocks(f, event)) - set(self._open_blocks(f, pos))) or \
            bool(_BRANCH_HEAD.match(self._head(event)))

    def _exclusive(self, f, event: int, pos: int) -> bool:
        """The statement at ``event`` lies in an arm of an ``if``/``else if``/``else`` chain whose later arm holds
        ``pos``, and no loop of ``f`` holds the chain: it never runs before ``pos`` (`block.x = 256;` in the `else
        if` arm does not reach the launch in the `else`)."""
        outer = [b for b in self._open_blocks(f, event) if b not in self._open_blocks(f, pos)]
        if not outer or not _IF_ARM.fullmatch(self._head(outer[0])) or self._in_loop(f, outer[0]):
            return False
        t, end = self.text, block_end(self.text, outer[0] + 1)
        while end < pos:
            m = _ELSE_ARM.match(t, end + 1)
            if m is None:
                return False
            at = m.end()
            if m.group(1):  # `else if (...)`: its condition
                close = paren_end(t, at - 1)
                if close < 0:
                    return False
                at = close + 1
            brace = _OPEN_BRACE.match(t, at)
            if brace is None:  # a braceless arm: one statement
                stop = t.find(";", at)
                return at <= pos <= stop
            end = block_end(t, brace.end())
            if brace.end() <= pos <= end:
                return True
        return False

    def _open_blocks(self, f, pos: int) -> tuple:
        """Positions of the ``{`` of the blocks of function ``f`` that hold ``pos`` (asked again for each name's
        events, hence kept)."""
        if (f[0], pos) not in self.opened:
            opened: list = []
            for m in _BRACE.finditer(self.text, f[0], pos):
                if m.group(0) == "{":
                    opened.append(m.start())
                elif opened:
                    opened.pop()
            self.opened[(f[0], pos)] = tuple(opened)
        return self.opened[(f[0], pos)]

    def _loop_of(self, name: str, f, pos: int, scope) -> int | None:
        """Where the innermost ``for`` around ``pos`` that declares ``name`` in its header starts (``name`` is its
        loop variable there), when no declaration inside it hides that one; else None."""
        if f is None:
            return None
        for at in [pos, *reversed(self._open_blocks(f, pos))]:  # a braceless body's statement, then the blocks
            start = self._head_start(at)
            if scope is not None and start < scope:
                return None  # a declaration inside the loop is the one in scope
            head = _FOR_HEAD.match(self.text[start:at].strip())
            part = head.group(1).split(";")[0] if head else ""
            if head and (m := _LOOP_VAR.match(part)) and m.group(1) == name:
                return start
        return None

    def _sweep(self, name: str, start: int, depth: int) -> list | None:
        """The values the loop variable ``name`` of the ``for`` at ``start`` takes in its body: ``for (int j = 32;
        j <= 1024; j *= 2)`` (a constant start, a condition and a step over constants; the body never assigns it)
        and ``for (int b : {64, 128})`` / ``for (int b : sizes)`` (a constant array); None when not constants."""
        t = self.text
        open_at = t.find("(", start)
        close = paren_end(t, open_at)
        if close < 0:
            return None
        parts = t[open_at + 1:close].split(";")  # (split_top would read `j < n; ...` as a template's `<`)
        var = _LOOP_VAR.match(parts[0])
        brace = len(t) - len(t[close + 1:].lstrip())
        # a braceless body: its one simple statement, else up to the end of the block around the loop (a later
        # statement there counts too)
        semi = t.find(";", close)
        body_end = block_end(t, brace + 1) if t[brace:brace + 1] == "{" else \
            semi + 1 if semi > 0 and not re.search(r"[{}]|\b(?:if|for|while|do|switch)\b", t[close + 1:semi]) else \
            block_end(t, close)
        if any(close < at < body_end for at, _, _ in self.events_of(name)):
            return None  # assigned (or passed by address) in the body
        if var.group(3) is not None:
            return self._range_values(var.group(3).strip(), start, depth) if len(parts) == 1 else None
        if len(parts) != 3:
            return None
        return self._counted(name, var.group(2), parts[1], parts[2].strip(), start, depth)

    def _counted(self, name: str, first: str, cond: str, step: str, at: int, depth: int) -> list | None:
        """The values of a counted loop's variable from its start, condition and step texts (at most _MAX_SWEEP)."""
        n = re.escape(name)
        if re.fullmatch(rf"(\+\+|--)\s*{n}|{n}\s*(\+\+|--)", step):
            nxt = f"{name} {'+' if '++' in step else '-'} 1"
        elif m := re.fullmatch(rf"{n}\s*([-+*/]|<<|>>)=\s*(.+)", step, re.S):
            nxt = f"{name} {m.group(1)} ({m.group(2)})"
        elif m := re.fullmatch(rf"{n}\s*=(?!=)\s*(.+)", step, re.S):
            nxt = m.group(1)
        else:
            return None
        env = dict(self.env)
        for other in set(re.findall(r"(?<![\w.])([A-Za-z_]\w*)\b(?!\s*\()", cond + " " + nxt)) - {name} - set(env):
            env[other] = self.scalar(other, at, depth + 1)
            if env[other] is None:
                return None
        v, out = self.scalar(first, at, depth + 1), []
        while v is not None and len(out) <= _MAX_SWEEP:
            go = evaluate(cond, {**env, name: v})
            if not go:
                return out if go == 0 else None
            out.append(v)
            v, last = evaluate(nxt, {**env, name: v}), v
            if v == last:
                return None
        return None

    def _range_values(self, rng: str, at: int, depth: int) -> list | None:
        """The elements of a range-for's range: a braced list of constants or a constant array (``elements``)."""
        if rng.startswith("{") and rng.endswith("}"):
            vals = [self.scalar(x, at, depth + 1) for x in split_top(rng[1:-1]) if x.strip()]
            return list(dict.fromkeys(vals)) if vals and None not in vals else None
        return self.elements(rng, at, depth) if re.fullmatch(r"[A-Za-z_]\w*", rng) else None

    def elements(self, name: str, pos: int, depth: int = 0, index: str | None = None) -> list | None:
        """The values of the elements of the array (or ``std::vector``/``std::array``) ``name`` at ``pos`` when it is
        declared with a braced list of constants in the function or at file scope and only ever read there (indexed,
        ``sizeof``, a range-for's range), in order, an element not listed being 0; ``index``: the one a constant
        index text names (every element when it is not a constant: an index out of bounds is no value)."""
        vals = self._array(name, pos, depth)
        i = self.scalar(index, pos, depth + 1) if vals and index is not None and index.strip() else None
        if i is not None and 0 <= i < len(vals):
            return [vals[i]]
        return list(dict.fromkeys(vals)) if vals else None

    def _array(self, name: str, pos: int, depth: int) -> list | None:
        f = self.func_at(pos)
        lo, hi = (f[0], f[1]) if f is not None else (0, len(self.text))
        t, n = self.text, re.escape(name)
        decl = None
        for d in re.finditer(rf"(?<![\w.>])(?:[A-Za-z_][\w:]*\s*(?:<[^;{{}}<>]*>)?\s+){n}\s*(?:\[([^\]]*)\])?\s*=?\s*"
                             rf"\{{([^{{}}]*)\}}\s*;", t[:pos]):
            if self.func_at(d.start()) in (f, None):
                decl = d
        if decl is None:
            return self._filled_in_loop(name, f, pos, depth)
        key = ("[]", decl.start())
        if key in self.memo:
            return self.memo[key]
        self.memo[key] = None
        scope = (lo, hi) if self.func_at(decl.start()) is not None else (0, len(t))
        for m in re.finditer(rf"(?<![\w.>]){n}\b", t[scope[0]:scope[1]]):
            at = scope[0] + m.start()
            if decl.start() <= at < decl.end():
                continue
            after, before = t[at + len(name):at + len(name) + 200], t[max(0, at - 200):at]
            if not (_read_use(after, before) or re.match(r"\s*\.\s*size\s*\(\s*\)", after) or
                    re.search(r"\bfor\s*\([^;&()]*:\s*$", before)):
                return None  # written, or passed on: it may change
        items = [x for x in split_top(decl.group(2)) if x.strip()]
        vals = [self.scalar(x, decl.start(), depth + 1) for x in items]
        size = self.scalar(decl.group(1), decl.start(), depth + 1) if decl.group(1) and decl.group(1).strip() else None
        if None in vals or not vals:
            return None
        self.memo[key] = vals + [0] * max(0, min(size or 0, _MAX_SWEEP) - len(vals))
        return self.memo[key]

    def _filled_in_loop(self, name: str, f, pos: int, depth: int) -> list | None:
        """The elements of an array the function declares without values (``int SIZE[24];``) and one counted loop
        fills element by element before ``pos`` (``for (int i = 0; i < 24; i++) SIZE[i] = 256 * (i + 1);``, the
        store the loop body's own statement), every other use a read: the values the loop stores, in order."""
        if f is None:
            return None
        t, n = self.text, re.escape(name)
        decls = list(re.finditer(rf"(?<![\w.>])(?:[A-Za-z_][\w:]*\s+)+{n}\s*\[[^\]]*\]\s*;", t[f[0]:pos]))
        if len(decls) != 1:
            return None
        start = f[0] + decls[0].end()
        key = ("[loop]", start)
        if key in self.memo:
            return self.memo[key]
        self.memo[key], writes = None, []
        for m in re.finditer(rf"(?<![\w.>]){n}\b", t[start:f[1]]):
            at = start + m.start()
            after, before = t[at + len(name):at + len(name) + 200], t[max(0, at - 200):at]
            index = re.match(r"\s*\[([^\[\]]*)\]", after)
            store = index and re.match(r"\s*=(?!=)\s*([^;{}]+);", after[index.end():])
            if store:
                writes.append((at, index.group(1).strip(), store.group(1).strip()))
            elif not _read_use(after, before):
                return None  # passed on, or written otherwise: it may change
        if len(writes) != 1 or writes[0][0] > pos or not re.fullmatch(r"[A-Za-z_]\w*", writes[0][1]):
            return None
        at, var, expr = writes[0]
        loop = self._loop_of(var, f, at, None)
        if loop is None:
            return None
        blocks = self._open_blocks(f, at)
        direct = _FOR_HEAD.match(self._head(at)) or not self._head(at) and blocks and blocks[-1] > loop and \
            _FOR_HEAD.match(self._head(blocks[-1]))
        if not direct or (blocks and blocks[-1] > loop and self._head_start(blocks[-1]) != loop):
            return None
        sweep = self._sweep(var, loop, depth + 1)
        vals = [evaluate(expr, {**self.env, var: v}) for v in sweep or ()]
        if not vals or None in vals:
            return None
        self.memo[key] = vals
        return vals

    def _head_start(self, at: int) -> int:
        """Where the statement before ``at`` starts (see ``_head``)."""
        t, depth, i = self.text, 0, at - 1
        while i >= 0 and at - i < 600:
            ch = t[i]
            if ch == ")":
                depth += 1
            elif ch == "(":
                depth -= 1
            elif ch in ";{}" and depth <= 0:
                break
            i -= 1
        return i + 1

    def _head(self, at: int) -> str:
        """The text of the statement before ``at`` (from the last ``;``, ``{`` or ``}`` outside parentheses): the
        `for (...)`, `if (...)`, `else` or `case x:` a block or statement at ``at`` is under."""
        return self.text[self._head_start(at):at].strip()

    def _values(self, name: str, f, depth: int, local: list, pos: int | None = None) -> list | None:
        if pos is not None:
            return self._values_at(name, f, local, pos, depth)
        guard = self.guards.get(name)
        tparam = f is not None and name in self.tparams.get(f[0], ())
        if guard is not None and guard[0] == "in" and (not local and (f is not None and name in f[2] or tparam) or
                                                       len(local) == 1 and
                                                       local[0][1] in ("decl", "dim3")):
            return list(guard[1])  # `case 256:` / `if (threads == 256)` around the launch, and never reassigned
        if tparam and not local:
            return None  # a template parameter read outside one instantiation (see host_launches)
        if f is not None and not local and name in f[2]:
            # a parameter of the launching function: the values its callers pass, unless a condition of the
            # function tests it (the launch may hold only for some of them) other than the `else` around it; a
            # conditional expression tests it only when it chooses between launches (one computing a value, such
            # as a rounded-up grid, leaves the parameter's values as they are)
            if self.callers is None or guard is None and re.search(
                    rf"\b(?:if|switch|while)\s*\([^{{;]*\b{name}\b|\b{name}\b[^;{{]*\?[^;{{]*<<<",
                    self.text[f[0]:f[1]]):
                return None
            vals = self.callers(f[3], f[2].index(name), depth + 1)
            return [v for v in vals if v not in guard[1]] or None if guard is not None and vals else vals
        if not local:
            local = self._outer_events(name)
        if not local:
            v = evaluate(name, self.env)
            return [v] if v is not None else None
        out, cur = [], None
        for at, kind, text in local:
            if kind == "address" or text is None and kind != "enum":
                return None
            if kind == "enum":
                if text is None:
                    return None
                out.append(text)
                continue
            if kind.startswith("field:"):
                if cur is None or not out:
                    return None
                i = "xyz".index(kind[-1])
                v = self.scalar(text, at, depth + 1)
                if v is None:
                    return None
                cur = cur[:i] + (v,) + cur[i + 1:]
                out[-1] = cur
                continue
            vals = self.shape_values(text, at, depth + 1)
            if vals is None:
                return None
            out += vals
            cur = vals[-1] if len(vals) == 1 and isinstance(vals[0], tuple) else None
        return list(dict.fromkeys(out))

    def _outer_events(self, name: str) -> list:
        """The events of a name no function declares: file scope (globals, members, enums), and assignments in
        functions that do not declare it."""
        ev = self.events_of(name)
        where = {e: self.func_at(e[0]) for e in ev}
        owners = {where[e][0] for e in ev if where[e] is not None and e[1] in ("decl", "dim3")}
        return [e for e in ev if where[e] is None or where[e][0] not in owners]

    def _values_at(self, name: str, f, local: list, pos: int, depth: int) -> list | None:
        """The values ``name`` may hold at ``pos`` in straight-line code, from its events (``local``) before it: the
        last declaration or assignment that always runs, then each later one (a field update too), where one that
        may be skipped keeps the values it would replace."""
        before = [e for e in local if e[0] < pos and not self._exclusive(f, e[0], pos)]
        start = max((i for i, e in enumerate(before) if e[1] in ("decl", "dim3", "set", "enum")
                     and not self._conditional(f, e[0], pos)), default=None)
        if start is None:
            return self._values(name, f, depth, local)  # declared elsewhere (a parameter, a global): as before
        states: list = []
        events = before[start:]
        arms = [self._switch_arm(f, e[0], pos) for e in events]
        i = 0
        while i < len(events):
            arm = arms[i] if states else None
            if arm is not None:
                # a run of updates in the arms of one `switch`: each arm applies its own to the values before it,
                # and those values stay only where an arm that may run sets nothing (no `default:`, or an arm
                # without an update)
                run = list(itertools.takewhile(lambda j: arms[j] is not None and arms[j][0] == arm[0],
                                               range(i, len(events))))
                by_arm: dict = {}
                for j in run:
                    by_arm.setdefault(arms[j][1], []).append(events[j])
                out = []
                for label, evs in by_arm.items():
                    if label not in arm[2]:
                        continue  # an arm the conditions around the launch rule out
                    got = self._apply_events(states, evs, depth)
                    if got is None:
                        return None
                    out += got
                states = list(dict.fromkeys(out + (states if not set(arm[2]) <= set(by_arm) else [])))
                i += len(run)
                continue
            at, kind, text = events[i]
            new = self._apply_events(states, [events[i]], depth)
            if new is None:
                return None
            states = list(dict.fromkeys(states + new)) if states and self._conditional(f, at, pos) else new
            i += 1
        if any(isinstance(x, tuple) and None in x for x in states):
            return None
        return states

    def _apply_events(self, states: list, events: list, depth: int) -> list | None:
        """The values after ``events`` (declarations, assignments, field updates, in order) from ``states``."""
        for at, kind, text in events:
            if kind == "address" or text is None and kind != "enum":
                return None
            if kind == "enum":
                states = [text]
            elif kind.startswith("field:"):
                v = self.scalar(text, at, depth + 1)
                if v is None or not states or not all(isinstance(x, tuple) for x in states):
                    return None
                i = "xyz".index(kind[-1])
                states = [x[:i] + (v,) + x[i + 1:] for x in states]
            else:
                new = self.shape_values(text, at, depth + 1)
                if new is None and kind == "dim3":
                    new = self._partial_dim3(text, at, depth + 1)  # its unknown fields may be set before pos
                if new is None:
                    return None
                states = new
        return states

    def _switch_arm(self, f, at: int, pos: int) -> tuple | None:
        """For a statement at ``at`` directly in an arm of a ``switch`` whose block does not hold ``pos``: (the
        switch's ``{``, the arm's last label, the arms that may run under the conditions around the launch: their
        last labels). An arm is its run of labels (`case 1: case 2:`) and the statements after them."""
        blocks = self._open_blocks(f, at)
        if not blocks or blocks[-1] in self._open_blocks(f, pos):
            return None
        b = blocks[-1]
        sw = re.search(r"\bswitch\s*\(\s*([A-Za-z_]\w*)\s*\)$", self._head(b))
        if sw is None:
            return None
        key = ("arms", b)
        if key not in self.memo:
            self.memo[key] = _switch_arms(self.text, b + 1, block_end(self.text, b + 1))
        arms = self.memo[key]
        mine = max((a for a, _ in arms if a < at), default=None)
        if mine is None:
            return None
        guard = self.guards.get(sw.group(1))
        cases = {evaluate(x, self.env) for _, ls in arms for x in ls if x is not None}
        may = []
        for a, ls in arms:
            vals = {evaluate(x, self.env) for x in ls if x is not None}
            if guard is None or guard[0] != "in" or None in vals or \
                    vals & set(guard[1]) or None in ls and not set(guard[1]) <= cases:
                may.append(a)
        return b, mine, may

    def _partial_dim3(self, text: str, pos: int, depth: int) -> list | None:
        """The shapes of ``dim3(a, b, c)`` with None for a field that is not a constant."""
        inner = re.fullmatch(r"dim3\s*[({](.*)[)}]", text.strip(), re.S)
        args = [a for a in split_top(inner.group(1)) if a.strip()] if inner else []
        if not inner or len(args) > 3:
            return None
        shapes = [()]
        for a in args + ["1"] * (3 - len(args)):
            vals = self.scalars(a, pos, depth) or [None]
            shapes = [t + (x,) for t in shapes for x in vals]
        return shapes if len(shapes) <= _MAX_CHOICES else None

    def scalars(self, text: str, pos: int, depth: int = 0) -> list | None:
        """The integer values ``text`` may have at ``pos`` (one per combination of its names' values, a few at
        most); None when one is not a constant."""
        text = self.known_members(self.fixed_fields(text), pos, depth)
        cond, *arms = split_top(text, "?") if "?" in text else (text,)
        arms = split_top(arms[0], ":") if len(arms) == 1 and "::" not in arms[0] else ()
        if len(arms) == 2:  # `c ? a : b`: the arm the condition picks, else either (`prop.x == 1536 ? 768 : 1024`)
            c = self.scalars(cond, pos, depth)
            picked = arms if not c or len({bool(x) for x in c}) > 1 else [arms[0] if c[0] else arms[1]]
            got = [self.scalars(a, pos, depth) for a in picked]
            return None if None in got else list(dict.fromkeys(x for v in got for x in v))
        if "sizeof" in text or "std" in text:
            text = _STD_MINMAX.sub(r"\1", sizeof_types(text, (self.text, *self.headers)))
        elems: dict = {}  # `sizes[i]`, `lws[0]`: one of an array's elements

        def element(m):
            v = self.elements(m.group(1), pos, depth, m.group(2))
            if v is None and m.group(2).strip().isdigit():
                # an element set on its own (`size_t lws[2]; lws[0] = 16;`, the OpenCL-style work sizes of ported
                # code) is read like a variable
                v = self.values(f"{m.group(1)}[{m.group(2).strip()}]", pos, depth)
            if v is None:
                return m.group(0)
            elems[f"__element{len(elems)}"] = v
            return f"__element{len(elems) - 1}"
        if "[" in text:
            text = re.sub(r"(?<![\w.])([A-Za-z_]\w*)\s*\[([^\[\]]*)\]", element, text)

        def member(m):  # `ctx.threads_per_block`, a field the function assigns (`ctx.threads_per_block = 128;`)
            obj = m.group(1)
            if m.group(2) in ("x", "y", "z") or any(e[1] in ("set", "address") for e in self.scoped_events(obj, pos)):
                return m.group(0)
            v = self.values(f"{obj}.{m.group(2)}", pos, depth)
            if not v or not all(isinstance(x, int) for x in v):
                return m.group(0)
            elems[f"__element{len(elems)}"] = v
            return f"__element{len(elems) - 1}"
        if "." in text:
            text = re.sub(r"(?<![\w.>])([A-Za-z_]\w*)\s*\.\s*([A-Za-z_]\w*)\b(?!\s*\()", member, text)
        text = drop_int_casts(text)  # `(size_t)wg`: the type is no name to look up
        for _ in range(4) if "::" in text else ():  # `badd_opt::threads`: a namespace's (or class's) constant
            before, text = text, _QUALIFIED.sub(self._qualified, text)
            if text == before:
                break
        names = set(re.findall(r"(?<![\w.])[A-Za-z_]\w*", text)) - set(self.env)  # not the fields (.x)
        choices = [{}]
        for n in sorted(names):
            v = elems[n] if n in elems else self.values(n, pos, depth)
            if v is not None and all(isinstance(x, tuple) for x in v) and re.search(rf"\b{n}\s*\.\s*[xyz]\b", text):
                text = re.sub(rf"\b{n}\s*\.\s*([xyz])\b", rf"{n}_\1", text)
                opts = [{f"{n}_{f}": x[i] for i, f in enumerate("xyz")} for x in v]
            elif v is not None and all(isinstance(x, int) for x in v):
                opts = [{n: x} for x in v]
            elif re.search(rf"\b{n}\s*\(", text):
                continue  # a function (cdiv, min) the evaluator may know
            else:
                return None
            choices = [{**c, **o} for c in choices for o in opts]
            if len(choices) > _MAX_SWEEP:
                return None
        out = [evaluate(text, {**self.env, **c}) for c in choices]
        return None if None in out else list(dict.fromkeys(out))

    def _qualified(self, m) -> str:
        key = re.sub(r"\s|^::", "", m.group(0))
        return f"({self.env[key]})" if key in self.env else m.group(0)

    def bound(self, text: str, pos: int, depth: int = 0) -> int | None:
        """At most how many threads the block ``text`` has at ``pos``, for a block that is not a constant: a
        dim3's fields' bounds multiplied, a variable's largest over its assignments in scope, ``min(n, C)``, and an
        assignment clamped by the ``if`` that follows it (``_clamp``); None when one is unbounded."""
        text = text.strip()
        if re.fullmatch(r"dim3\s*[({].*[)}]", text, re.S):
            return self._dim3_bound([(pos, "dim3", text)], depth)
        if re.fullmatch(r"[A-Za-z_]\w*", text):
            ev = self.scoped_events(text, pos)
            if any(e[1] == "dim3" for e in ev):
                return self._dim3_bound(ev, depth)
        return self._upper(text, pos, depth)

    def _dim3_bound(self, ev: list, depth: int) -> int | None:
        """The threads of a dim3 whose events are ``ev``: each field's largest bound over them, multiplied."""
        dims = [0, 0, 0]
        for at, kind, text in ev:
            inner = re.fullmatch(r"dim3\s*[({](.*)[)}]", (text or "").strip(), re.S)
            if kind.startswith("field:"):
                b, i = self._upper(text or "", at, depth + 1), "xyz".index(kind[-1])
                if b is None:
                    return None
                dims[i] = max(dims[i], b)
            elif kind in ("dim3", "set", "decl") and inner:
                args = [a for a in split_top(inner.group(1)) if a.strip()]
                for i, a in enumerate((args + ["1"] * 3)[:3]):
                    b = self._upper(a, at, depth + 1)
                    if b is None:
                        return None
                    dims[i] = max(dims[i], b)
            else:
                return None
        return dims[0] * dims[1] * dims[2] or None

    def _upper(self, text: str, pos: int, depth: int) -> int | None:
        """An upper bound on the integer ``text`` at ``pos`` (see ``bound``), or None."""
        if depth > 4:
            return None
        text = text.strip()
        v = self.scalars(text, pos, depth)
        if v:
            return max(v)
        m = re.fullmatch(r"(?:std\s*::\s*)?(?:min|MIN)\s*\((.*)\)", text, re.S)
        if m:
            got = [b for b in (self._upper(a, pos, depth + 1) for a in split_top(m.group(1))) if b is not None]
            return min(got) if got else None
        factors = _factors(text)
        if len(factors) > 1:  # `32 * n`: a block has threads, so n > 0 when the constants' product is
            known = [self.scalar(x, pos, depth) for x in factors]
            rest = [x for x, v in zip(factors, known) if v is None]
            c = prod(v for v in known if v is not None)
            b = self._upper(rest[0], pos, depth + 1) if len(rest) == 1 and c > 0 else None
            return None if b is None else c * b
        if not re.fullmatch(r"[A-Za-z_]\w*", text):
            return None
        out = None
        for e in self.scoped_events(text, pos):
            if e[1] not in ("decl", "set", "enum") or e[2] is None:
                return None
            b = e[2] if e[1] == "enum" else self._upper(e[2], e[0], depth + 1)
            b = b if b is not None else self._clamp(text, e)
            b = b if b is not None else self._loop_exit(text, e, pos)
            if b is None:
                return None
            out = b if out is None else max(out, b)
        return out

    def _loop_exit(self, name: str, e, pos: int) -> int | None:
        """C (C - 1 for ``>=``) when the assignment ``e`` of ``name`` is in the body of ``do { ... } while (name >
        C);`` (or ``C < name``) and ``pos`` is past that loop: it is left only with ``name <= C``."""
        f = self.func_at(e[0])
        opened = self._open_blocks(f, e[0]) if f is not None else ()
        if not opened or self._head(opened[-1]) != "do":
            return None
        end = block_end(self.text, opened[-1] + 1)
        m = re.compile(r"\}\s*while\s*\(([^;{}]*)\)\s*;").match(self.text, end)
        if m is None or pos < m.end():
            return None
        c = re.fullmatch(rf"\s*{re.escape(name)}\s*(>=|>)\s*([^&|?<>=]+)", m.group(1)) or \
            re.fullmatch(rf"\s*([^&|?<>=]+?)\s*(<=|<)\s*{re.escape(name)}\s*", m.group(1))
        if c is None:
            return None
        op, limit = (c.group(1), c.group(2)) if c.group(1) in (">", ">=") else (c.group(2), c.group(1))
        v = self.scalar(limit, e[0])
        return None if v is None else v - (op in (">=", "<="))

    def multiple(self, text: str, pos: int, depth: int = 0) -> int:
        """A k the integer ``text`` at ``pos`` is a multiple of (1: none known): the common divisor of its values, a
        product's factors' multiplied (``32 * n``), a variable's common over its assignments in scope."""
        text = text.strip()
        if depth > 4 or not text:
            return 1
        v = self.scalars(text, pos, depth)
        if v and all(isinstance(x, int) for x in v):
            return reduce(gcd, v) or 1
        factors = _factors(text)
        if len(factors) > 1:
            return prod(self.multiple(x, pos, depth + 1) for x in factors)
        if re.fullmatch(r"\(.*\)", text, re.S) and paren_end(text, 0) == len(text) - 1:
            return self.multiple(text[1:-1], pos, depth + 1)
        ev = self.scoped_events(text, pos) if re.fullmatch(r"[A-Za-z_]\w*", text) else []
        if not ev or any(e[1] not in ("decl", "set") or e[2] is None for e in ev):
            return 1
        return reduce(gcd, (self.multiple(e[2], e[0], depth + 1) for e in ev))

    def _clamp(self, name: str, e) -> int | None:
        """C (C - 1 for ``>=``) when the statement right after the assignment ``e`` of ``name`` is ``if (v > C)``
        (or ``C < v``) over ``name`` or the value assigned, and that ``if``'s body assigns ``name`` (whose own bound
        the caller takes): ``threads = n; if (n > 512) { threads = 512; }``."""
        t = self.text
        m = re.compile(r"[^;{}]*;\s*if\s*\(").match(t, e[0])
        if m is None:
            return None
        depth, end = 1, m.end()
        while end < len(t) and depth:
            depth += {"(": 1, ")": -1}.get(t[end], 0)
            end += 1
        cond = t[m.end():end - 1] if not depth and "," not in t[m.end():end - 1] else ""
        c = re.fullmatch(r"\s*(.+?)\s*(>=|>)\s*(.+?)\s*", cond, re.S)
        d = re.fullmatch(r"\s*(.+?)\s*(<=|<)\s*(.+?)\s*", cond, re.S)
        tested, op, limit = (c.group(1), c.group(2), c.group(3)) if c else (d.group(3), d.group(2), d.group(1)) if d \
            else (None, None, None)
        if tested is None or re.sub(r"\s+", "", tested) not in (name, re.sub(r"\s+", "", e[2] or "")):
            return None
        limit = self.scalar(limit, e[0])
        body = t[end:end + 2000].lstrip()
        if body.startswith("{"):
            body = body[:block_end(body, 1) + 1]
            while re.search(r"\{[^{}]*\}", body[1:]):  # the body's own statements, not those of blocks inside it
                body = body[:1] + re.sub(r"\{[^{}]*\}", ";", body[1:])
        else:
            body = body[:body.find(";") + 1]
        if limit is None or not re.search(rf"(?:^|[;{{}}])\s*{re.escape(name)}\s*=(?!=)", body):
            return None
        return limit - (op in (">=", "<="))

    def known_members(self, text: str, pos: int, depth: int = 0) -> str:
        """``text`` with each ``obj.field`` (not a dim3's x, y, z) put as its value when ``obj`` is built from
        constants (``member``)."""
        if "." not in text or depth > _MAX_DEPTH:
            return text

        def put(m):
            v = self.member(m.group(1), m.group(2), pos, depth + 1)
            return m.group(0) if v is None else str(v)
        return _MEMBER.sub(put, text)

    def member(self, obj: str, field: str, pos: int, depth: int) -> int | None:
        """The value of ``obj.field`` at ``pos`` when ``obj`` is declared by a constructor call with constant
        arguments (``Params p(19, 8);``, ``Params p;``) of a struct or class of the file or its quoted includes, and
        neither ``obj`` nor the field is assigned or passed by address: the constructor's member initializer over
        its arguments and defaults, else the field's default member initializer; None otherwise."""
        if self.events_of(f"{obj}.{field}"):  # (the field's events hold its struct's assignments and lendings too)
            return None
        f = self.func_at(pos)
        decls = [m for m in re.finditer(rf"\b([A-Za-z_]\w*)\s+{re.escape(obj)}\s*(?:\(([^;{{}}]*)\))?\s*;",
                                        self.text[:pos]) if self.func_at(m.start()) in (f, None)]
        if not decls:
            return None
        decl = decls[-1]
        body = self.struct_body(decl.group(1))
        if body is None:
            return None
        args = [a for a in split_top(decl.group(2) or "") if a.strip()]
        values = [self.scalar(a, decl.start(), depth + 1) for a in args]  # None: not a constant (nor an int)
        ctors = [c for c in _ctors(body, decl.group(1)) if len(c[0]) >= len(args) and
                 all(d is not None for _, d in c[0][len(args):])]
        if len(ctors) > 1 or not ctors and args:
            return None
        if ctors:
            params, inits = ctors[0]
            env = {k: v for k, v in self.env.items() if k not in {n for n, _ in params}}  # parameters shadow macros
            for i, (n, d) in enumerate(params):
                v = values[i] if i < len(args) else evaluate(d, env)
                if v is not None:
                    env[n] = v
            if field in inits:
                return evaluate(inits[field], env)
        default = re.search(rf"(?:^|[;{{}}])\s*{_SCALAR_TYPE}{re.escape(field)}\s*=\s*([^;{{}}]+);", body)
        return evaluate(default.group(1), self.env) if default else None

    def struct_body(self, name: str) -> str | None:
        """The body text of ``struct name { ... }`` (or a class) in the file or its quoted includes."""
        for t in (self.text, *self.headers):
            m = re.search(rf"\b(?:struct|class)\s+{re.escape(name)}\s*(?::[^;{{}}]*)?\{{", t)
            if m:
                return t[m.end():block_end(t, m.end())]
        return None

    def fixed_fields(self, text: str) -> str:
        """``text`` with the cudaDeviceProp fields every device has alike (``prop.warpSize``) put as their values,
        when the variable is declared a ``cudaDeviceProp`` in the file."""
        if "cudaDeviceProp" not in self.text or not _PROP_FIELD.search(text):
            return text

        def put(m):
            if not re.search(rf"\bcudaDeviceProp\s*[&*]?\s*{re.escape(m.group(1))}\b", self.text):
                return m.group(0)
            return _FIXED_FIELD[re.sub(r"\s+", "", m.group(2))]
        return _PROP_FIELD.sub(put, text)

    def scalar(self, text: str, pos: int, depth: int = 0) -> int | None:
        v = self.scalars(text, pos, depth)
        return v[0] if v is not None and len(v) == 1 else None

    def shape_values(self, text: str, pos: int, depth: int = 0) -> list | None:
        """The shapes (int triples), ints or function names a launch or assignment operand may hold."""
        text = self.known_members(self.fixed_fields(text.strip()), pos, depth)
        while True:  # casts: (void *)&k, (const void*)k, reinterpret_cast<void*>(k)
            m = re.match(r"\(\s*(?:const\s+)?void\s*\*\s*\)\s*&?|&", text)
            c = re.fullmatch(r"(?:reinterpret|static)_cast\s*<[^<>]*>\s*\((.*)\)", text, re.S)
            if m is None and c is None:
                break
            text = (text[m.end():] if m else c.group(1)).strip()
        # dim3(...), dim3{...}, make_uint3(...), or a bare braced list (`<<<grid, {32, 8, 1}>>>` builds a dim3)
        inner = re.fullmatch(r"(?:dim3\s*)?\{(.*)\}|(?:dim3|make_u?int3)\s*\((.*)\)", text, re.S)
        if inner:
            args = [a for a in split_top(inner.group(1) or inner.group(2) or "") if a.strip()]
            if len(args) == 1 and depth < 8:  # `dim3(threads)` of a dim3 `threads`: a copy of its shapes
                copied = self.shape_values(args[0], pos, depth + 1)
                if copied and all(isinstance(x, tuple) for x in copied):
                    return copied
            vals = [self.scalars(a, pos, depth) for a in args]
            if len(vals) > 3 or None in vals:
                return None
            shapes = [()]
            for v in vals + [[1]] * (3 - len(vals)):
                shapes = [t + (x,) for t in shapes for x in v]
            return shapes if len(shapes) <= _MAX_CHOICES else None
        if re.fullmatch(r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)?", text) and not re.search(r"\.[xyz]$", text):
            f = self.func_at(pos)
            ev = self.scoped_events(text, pos) or self._outer_events(text)
            shape = self.env.get(text)
            if not ev and isinstance(shape, str) and shape.startswith("dim3(") and depth < 8:
                return self.shape_values(shape, pos, depth + 1)  # a header's constant dim3
            if not any(e[1] != "address" for e in ev) and evaluate(text, self.env) is None and (
                    f is None or text not in f[2] and text not in self.tparams.get(f[0], ())) and \
                    self._loop_of(text, f, pos, self._in_scope(text, f, pos)[1]) is None:
                return [text]  # a name this file never sets and no parameter of the function: a function (a kernel)
            return self.values(text, pos, depth)
        if "::" in text and re.sub(r"\s|^::", "", text) in self.env:
            return self.scalars(text, pos, depth)  # a namespace's constant (`config::block_size`), not a kernel
        if re.fullmatch(r"[A-Za-z_][\w:]*\s*" + _TARGS, text):
            return [text]  # a template kernel named with its arguments
        picked = self._picked_kernels(text, depth)
        if picked:
            return picked
        branches = _kernel_choice(text)
        if branches:  # `auto f = low_latency ? combine<true, 2> : combine<false, 2>;`: each is launched
            got = [self.shape_values(b, pos, depth + 1) for b in branches]
            if all(g and all(isinstance(x, str) for x in g) for g in got):
                return [x for g in got for x in g]
        element = _ELEMENT.fullmatch(text)
        if element and self.set_by_element(element.group(1), pos):
            return self._element_values(element.group(1), re.findall(r"\[([^\[\]]*)\]", element.group(2)), pos,
                                        depth)
        return self.scalars(text, pos, depth)

    def _picked_kernels(self, text: str, depth: int) -> list | None:
        """For a call of a function of the file every ``return`` of which names a kernel (exllama's
        ``q4_matmul_kernel_pick(...)`` returning one of eight instantiations): those kernels, each of which the
        pointer it initializes may launch; None otherwise."""
        call = re.fullmatch(r"([A-Za-z_]\w*)\s*\(.*\)", text, re.S)
        defs = [g for g in self.funcs if call and g[3] == call.group(1)]
        if len(defs) != 1 or depth > 4:
            return None
        key = ("picked", defs[0][0], self.guards_key())  # (its returns do not depend on where it is called)
        if key not in self.memo:
            start, end = defs[0][:2]
            out: list | None = []
            for m in re.finditer(r"\breturn\s+([^;]+);", self.text[start:end]):
                got = self.shape_values(m.group(1), start + m.start(1), depth + 1)
                if not got or not all(isinstance(x, str) for x in got):
                    out = None
                    break
                out += got
            self.memo[key] = list(dict.fromkeys(out)) or None if out is not None else None
        return self.memo[key]

    def set_by_element(self, name: str, pos: int) -> bool:
        """The array ``name`` seen at ``pos`` (the launching function's own, else the file's) is only ever set one
        element at a constant index (``block[1][0] = dim3(4, 64);``, ``fns[0] = kernel_a;``), read at any index, and
        neither initialized with a list, passed whole nor has its address taken: each element is then a variable
        of its own (``events_of``)."""
        f = self.func_at(pos)
        key = ("by element", name, f[0] if f else None)
        if key in self.memo:
            return self.memo[key]
        own = f is not None and any(f[0] <= at < f[1] and kind in ("decl", "dim3") for at, kind, _ in self.events_of(
            name)) or f is not None and re.search(rf"[(*]\s*{re.escape(name)}\s*\[", self.text[f[0]:f[1]])
        declaring = {g[0] for g in self.funcs if g is not f and re.search(
            rf"(?:\bdim3|\(\s*\*)\s*{re.escape(name)}\s*\[|\b{re.escape(name)}\s*\(", self.text[g[0]:g[1]])}
        ok, t = True, self.text
        for m in re.finditer(rf"(?<![\w.>]){re.escape(name)}\b", t):
            g = self.func_at(m.start())
            if own and g is not f or not own and g is not None and g[0] in declaring:
                continue  # another variable of the name
            subs = re.match(r"(?:\s*\[[^\[\]]*\])+", t[m.end():m.end() + 200])
            after = t[m.end() + (subs.end() if subs else 0):][:40]
            if subs is None or re.search(r"&\s*$", t[max(0, m.start() - 20):m.start()]):
                ok = False  # passed whole, or its address taken
            elif _WRITE_AFTER.match(after) and (re.match(r"\s*=\s*\{", after) or not all(
                    i.strip().isdigit() for i in re.findall(r"\[([^\[\]]*)\]", subs.group(0)))):
                ok = False  # a list initializer, or a write at an index that is not a literal
            if not ok:
                break
        self.memo[key] = ok
        return ok

    def _index_values(self, indices: list, pos: int, depth: int = 0, limit: int | None = None) -> list | None:
        """Every combination of the values the index texts of an element may take at ``pos`` (tuples); None when one
        is not a constant or there are more than ``limit``."""
        combos = [()]
        for ix in indices:
            vals = self.scalars(ix, pos, depth)
            if vals is None:
                return None
            combos = [c + (v,) for c in combos for v in vals]
            if limit is not None and len(combos) > limit:
                return None
        return combos

    def _element_values(self, name: str, indices: list, pos: int, depth: int) -> list | None:
        """The values of ``name[i][j]...`` at ``pos`` for every value its index texts may take."""
        combos = self._index_values(indices, pos, depth + 1, _MAX_CHOICES)
        if combos is None:
            return None
        out = []
        for c in combos:
            vals = self.values(name + "".join(f"[{v}]" for v in c), pos, depth + 1)
            if vals is None:
                return None
            out += vals
        return list(dict.fromkeys(out))

    def table_entries(self, callee: str, pos: int) -> list | None:
        """For a launch through an element of an array of function pointers (``fns[i]<<<grid[d][i], block[d][i]>>>``
        after ``switch (d) { case 0: fns[0] = k_a; ... }``), each kernel it may launch with what holds when it does:
        [(kernel text, guards)], the index naming the element the kernel was stored in, and the ``case`` labels and
        ``if`` conditions around that store (on names the function does not change before the launch); None when
        the callee is no such element."""
        m = _ELEMENT.fullmatch(callee.strip())
        if m is None or not self.set_by_element(m.group(1), pos):
            return None
        indices = [ix.strip() for ix in re.findall(r"\[([^\[\]]*)\]", m.group(2))]
        combos = self._index_values(indices, pos)
        if combos is None:
            return None
        out = []
        for c in combos:
            g = {ix: ("in", (v,)) for ix, v in zip(indices, c) if re.fullmatch(r"[A-Za-z_]\w*", ix)}  # at the slot
            element = m.group(1) + "".join(f"[{v}]" for v in c)
            for at, kind, text in self.events_of(element):
                if kind not in ("set", "decl") or text is None or at > pos and self.func_at(at) is self.func_at(pos):
                    continue
                kernels = self.shape_values(text, at)
                if kernels is None:
                    return None
                held = {n: v for n, v in self.guards_at(at).items() if v[0] == "in" and not any(
                    at < e < pos for e, k, _ in self.events_of(n) if k != "enum")}
                out += [(k, {**held, **g}) for k in kernels if isinstance(k, str)]
        return out or None

    def guards_at(self, pos: int) -> dict:
        """name -> ("in" | "not in", values) that the conditions around ``pos`` in its function imply: the ``case``
        labels of a ``switch (name)`` (labels that fall through to the launch included), ``if (name == C)`` with or
        without braces (conjuncts of ``&&`` too), and the ``else`` of a braced ``if (name == C)``. An ``in`` guard
        also gives where its condition is tested (``("in", values, position)``: see ``values``)."""
        f = self.func_at(pos)
        if f is None:
            return {}
        t, out = self.text, {}

        def cond(text, at, negate=False):
            parts = conjuncts(text) if not negate else [text]
            for c in parts:
                m = re.fullmatch(r"\s*\(?\s*([A-Za-z_]\w*)\s*==\s*([^=()&|]+?)\s*\)?\s*", c) or \
                    re.fullmatch(r"\s*\(?\s*([^=()&|]+?)\s*==\s*([A-Za-z_]\w*)\s*\)?\s*", c)
                if not m:
                    continue
                name, value = (m.group(1), m.group(2)) if m.group(1).isidentifier() and evaluate(
                    m.group(1), self.env) is None else (m.group(2), m.group(1))
                v = evaluate(value, self.env)
                if isinstance(v, int) and name not in out:
                    out[name] = ("not in", (v,)) if negate else ("in", (v,), at)

        def if_before(k):  # the condition of `if (...)` ending just before position k
            head = t[max(f[0], k - 400):k].rstrip()
            if not head.endswith(")"):
                return None
            d, i = 0, len(head) - 1
            while i >= 0:
                d += {")": 1, "(": -1}.get(head[i], 0)
                if d == 0:
                    break
                i -= 1
            return head[i + 1:-1] if i >= 0 and re.search(r"\bif\s*$", head[:i]) else None

        stmt = max(t.rfind(";", f[0], pos), t.rfind("{", f[0], pos), t.rfind("}", f[0], pos)) + 1
        head = t[stmt:pos].strip()  # a braceless `if (...) launch;`
        m = re.match(r"if\s*\(", head)
        if m:
            d, i = 0, m.end() - 1
            while i < len(head):
                d += {"(": 1, ")": -1}.get(head[i], 0)
                if d == 0:
                    break
                i += 1
            if i < len(head) and not head[i + 1:].strip():
                cond(head[m.end():i], stmt)
        depth, k = 0, pos
        while k > f[0]:
            k -= 1
            ch = t[k]
            if ch == "}":
                depth += 1
            elif ch == "{" and depth:
                depth -= 1
            elif ch == "{":
                before = t[max(f[0], k - 400):k]
                sw = re.search(r"\bswitch\s*\(\s*([A-Za-z_]\w*)\s*\)\s*$", before)
                if sw and sw.group(1) not in out:
                    arms = _switch_arms(t, k + 1, pos)
                    vals = [evaluate(x, self.env) if x is not None else None for x in (arms[-1][1] if arms else [])]
                    if vals and all(isinstance(v, int) for v in vals):
                        out[sw.group(1)] = ("in", tuple(vals), k)
                    continue
                c = if_before(k)
                if c is not None:
                    cond(c, k)
                    continue
                if re.search(r"\belse\s*$", before):
                    e = before.rstrip()[:-4].rstrip()  # `... }` of the if-block
                    if e.endswith("}"):
                        d, j = 0, max(f[0], k - 400) + len(e) - 1
                        while j > f[0]:
                            d += {"}": 1, "{": -1}.get(t[j], 0)
                            if d == 0:
                                break
                            j -= 1
                        c = if_before(j)
                        if c is not None and "&&" not in c and "||" not in c:
                            cond(c, k, negate=True)
        return out

    def _graph_node(self, m) -> tuple[str, str] | None:
        """(grid text, block text) of a CUDA graph kernel node whose parameters name the kernel at ``m``
        (``P.func = (void *)k;``): the last ``P.gridDim`` / ``P.blockDim`` assignments (whole, or all three
        fields) of the function before the node is added (the next ``cudaGraphAdd...Node`` or ``...SetParams``)."""
        f = self.func_at(m.start())
        if f is None:
            return None
        t, prefix = self.text, re.escape(m.group(1))
        add = _GRAPH_ADD.search(t, m.end(), f[1])
        region = t[f[0]:add.start() if add else f[1]]
        dims = {"gridDim": {}, "blockDim": {}}
        for st in re.finditer(rf"\b{prefix}\s*\.\s*(?:gridDim|blockDim)\b[^;{{}}]*;", region):
            parts = [x.strip() for x in re.split(r"(?<![=!<>])=(?!=)", st.group(0)[:-1])]
            for target in parts[:-1]:
                tm = re.fullmatch(rf"{prefix}\s*\.\s*(gridDim|blockDim)\s*(?:\.\s*([xyz]))?", target)
                if tm is None:
                    continue
                if tm.group(2) is None:
                    dims[tm.group(1)] = {"all": parts[-1]}
                else:
                    dims[tm.group(1)] = {k: v for k, v in dims[tm.group(1)].items() if k != "all"} | \
                        {tm.group(2): parts[-1]}

        def text(d):
            if "all" in d:
                return d["all"]
            return f"dim3({d['x']}, {d['y']}, {d['z']})" if len(d) == 3 else ""
        block = text(dims["blockDim"])
        return (text(dims["gridDim"]), block) if block else None

    def _looked_up_by_callee(self, var: str, f) -> list:
        """The driver API lookups that fill ``var`` when the launching function ``f`` passes its address to a
        function of the file (``load(mod, &fn)``): those into that parameter, else the one name that function looks
        up (through a local it copies out)."""
        for m in re.finditer(rf"\b([A-Za-z_]\w*)\s*\(([^;{{}}()]*&\s*{re.escape(var)}\b[^;{{}}()]*)\)",
                             self.text[f[0]:f[1]]):
            args = [a.strip() for a in split_top(m.group(2))]
            callee = next((g for g in self.funcs if g[3] == m.group(1)), None)
            if callee is None or f"&{var}" not in [a.replace(" ", "") for a in args]:
                continue
            i = [a.replace(" ", "") for a in args].index(f"&{var}")
            inside = [(at, n) for v in self.cu_functions.values() for at, n in v if callee[0] <= at < callee[1]]
            names = callee[2].names
            into = self.cu_functions.get(names[i], []) if i < len(names) else []
            into = [(at, n) for at, n in into if callee[0] <= at < callee[1]]
            if into or len({n for _, n in inside}) == 1:
                return into or inside
        return []

    def launches(self, driver_only: bool = False):
        """(callee text, template argument text, grid text, block text, position) of each launch (a driver API
        launch whose function was looked up in the launching function records where, in ``looked_up``); ``driver_only``:
        only the driver API's (``cuLaunchKernel`` of a function looked up by name in a module)."""
        t = self.text
        for m in _CU_LAUNCH.finditer(t):
            args = _call_args(t, m.end())
            if len(args) >= 7:
                f = self.func_at(m.start())
                var = re.search(r"(\w+)\s*$", args[0])  # `fn`, `*pfn`, `params->fn`: the variable's own name
                looked = self.cu_functions.get(var.group(1), []) if var else []
                if not looked and var and f is not None:
                    looked = self._looked_up_by_callee(var.group(1), f)
                if not looked:  # handed over through a pointer or a struct: the one name the file looks up
                    everything = [x for v in self.cu_functions.values() for x in v]
                    looked = everything if len({n for _, n in everything}) == 1 else []
                here = [(at, n) for at, n in looked if f is not None and f[0] <= at < f[1]]  # in the launching function
                for at, name in dict.fromkeys(here or [(at, n) for at, n in looked if self.func_at(at) is None] or
                                              looked):
                    if (at, name) in here:
                        self.looked_up[(m.start(), name)] = at
                    yield name, "", f"dim3({', '.join(args[1:4])})", f"dim3({', '.join(args[4:7])})", m.start()
        if driver_only:
            return
        for m in re.finditer("<<<", t):
            lo = max(0, m.start() - 400)
            callee = _CALLEE.search(t, lo, m.start()) or _PAREN_CALLEE.search(t, lo, m.start())
            element = _ELEMENT_CALLEE.search(t, lo, m.start()) if callee is None else None
            end = t.find(">>>", m.end())
            if callee is None and element is None or end < 0:
                continue
            parts = [unparenthesized(x) for x in split_top(t[m.end():end])]
            name, targs, at = (callee.group(1), callee.group(2), callee.start()) if callee else (
                " ".join(element.group(1).split()), "", element.start())
            yield name, targs, parts[0] if parts else "", parts[1] if len(parts) > 1 else "", at
        for m in _GRAPH_FUNC.finditer(t) if ".func" in t else ():
            got = self._graph_node(m)
            if got is not None:
                yield m.group(2), "", got[0], got[1], m.start()
        for m in _LAUNCH_CALL.finditer(t):
            args = _call_args(t, m.end())
            if m.group(1).startswith("cudaLaunchKernelEx"):
                if len(args) >= 2:
                    cfg = args[0].strip().lstrip("&").strip()
                    yield args[1], "", f"{cfg}.gridDim", f"{cfg}.blockDim", m.start()
            elif len(args) >= 3:
                yield args[0], "", args[1], args[2], m.start()


def sizeof_types(text: str, texts) -> str:
    """``text`` with ``sizeof(T)`` replaced by the size of the built-in or vector type T (through the
    ``typedef``s of ``texts``); an unknown type is left as it is (the text then does not evaluate)."""
    def size(m):
        ty = " ".join(m.group(1).split())
        for _ in range(3):
            if ty in TYPE_SIZES:
                return str(TYPE_SIZES[ty])
            td = next((d.group(1) for t in texts
                       for d in re.finditer(rf"\btypedef\s+([\w\s]+?)\s+{re.escape(ty)}\s*;", t)), None)
            if td is None:
                break
            ty = " ".join(td.split())
        return m.group(0)
    return re.sub(r"\bsizeof\s*\(\s*([A-Za-z_][\w\s]*?)\s*\)", size, text)


def block_end(t: str, i: int) -> int:
    """The position of the ``}`` that closes the innermost braced block containing position ``i`` (``len(t)`` when it
    does not close)."""
    at, closes = _closing_braces(t)
    j = bisect_left(at, i)
    return closes[j] if j < len(at) else len(t)


@lru_cache(maxsize=16)
def _closing_braces(t: str) -> tuple[list, list]:
    """The positions of ``t``'s braces, and for each the position of the first ``}`` from it on that is not closed
    by a ``{`` in between (``len(t)`` where none is): ``block_end`` in one lookup. A host file with hundreds of
    launches asks it for every variable's declaration, and a scan per call made such files take minutes."""
    at = [m.start() for m in _BRACES.finditer(t)]
    match = [None] * len(at)  # a `{`'s index -> its `}`'s index
    stack = []
    for j, pos in enumerate(at):
        if t[pos] == "{":
            stack.append(j)
        elif stack:
            match[stack.pop()] = j
    closes = [len(t)] * (len(at) + 1)
    for j in range(len(at) - 1, -1, -1):
        if t[at[j]] == "}":
            closes[j] = at[j]
        elif match[j] is not None:
            closes[j] = closes[match[j] + 1]
    return at, closes[:-1]


_BRACES = re.compile(r"[{}]")


_STD_MINMAX = re.compile(r"\bstd\s*::\s*(min|max)\b")
_MEMBER = re.compile(r"(?<![\w.])([A-Za-z_]\w*)\s*\.\s*([A-Za-z_]\w*)\b(?!\s*\()(?<!\.x)(?<!\.y)(?<!\.z)")
_CTOR_INIT = re.compile(r"([A-Za-z_]\w*)\s*[({]((?:[^(){}]|\([^()]*\))*)[)}]")


def _ctors(body: str, name: str) -> list:
    """The constructors of a struct body that initialize members: [([(parameter, default text or None)], {member:
    initializer text})]."""
    out = []
    for m in re.finditer(rf"(?<![~\w]){re.escape(name)}\s*\(((?:[^(){{}};]|\([^()]*\))*)\)\s*:([^{{;]*)\{{", body):
        params = []
        for p in split_top(m.group(1)) if m.group(1).strip() else []:
            decl, eq, default = p.partition("=")
            n = re.search(r"([A-Za-z_]\w*)\s*$", decl)
            params.append((n.group(1) if n else "", default.strip() if eq else None))
        out.append((params, {i.group(1): i.group(2) for i in _CTOR_INIT.finditer(m.group(2))}))
    return out


def _factors(text: str) -> list:
    """The factors of ``text`` when it is a product of names, numbers and bracketed terms (``32 * (n + 1)``)."""
    parts = [x.strip() for x in split_top(text, "*")]
    ok = all(re.fullmatch(r"\w+", x) or x.startswith("(") and paren_end(x, 0) == len(x) - 1 for x in parts)
    return parts if ok else [text]


def unparenthesized(t: str) -> str:
    """``t`` stripped, without parentheses around all of it (a macro's `<<<(nblks), (nthrs)>>>`)."""
    t = t.strip()
    while t.startswith("(") and paren_end(t, 0) == len(t) - 1:
        t = t[1:-1].strip()
    return t


def paren_end(t: str, i: int) -> int:
    """The position of the ``)`` that closes the ``(`` at ``i``; -1 when it does not close."""
    if i < len(t) and t[i] not in "()":
        return i  # not a parenthesis: nothing to close
    depth = 0
    for m in _PARENS.finditer(t, i):  # parenthesis to parenthesis (a character loop is slow on long files)
        depth += 1 if m.group(0) == "(" else -1
        if depth == 0:
            return m.start()
    return -1


_PARENS = re.compile(r"[()]")


def _no_threads(v) -> bool:
    return v == 0 or isinstance(v, tuple) and 0 in v


def _as_shape(v) -> tuple | None:
    if isinstance(v, int) and not isinstance(v, bool):
        v = (v, 1, 1)
    if isinstance(v, tuple) and all(isinstance(x, int) and x > 0 for x in v):
        return v
    return None


def _const_targs(text: str, scan: _Scan, pos: int) -> list:
    """The template arguments of a launch when every one is a constant or a type: a builtin type as itself, another
    (`scalar_t` where the launcher's instantiations differ, `at::BFloat16`) as "?", generic; else []."""
    inner = text.strip()[1:-1] if text.strip() else ""
    out = []
    for a in split_top(inner) if inner.strip() else []:
        a = a.strip()
        for _ in range(4):  # a type named through object-like macros (`#define INPUT_TYPE uint32_t`)
            if a in _TYPES or not isinstance(scan.env.get(a), str):
                break
            a = scan.env[a].strip()
        if a in _TYPES or a in ("true", "false"):
            out.append(a)
            continue
        v = scan.scalar(a, pos)
        if v is None and _TYPE_NAME.fullmatch(a) and not scan.env.get(a) and (
                "::" in a or re.search(rf"\btypename\s+{re.escape(a)}\b|\bclass\s+{re.escape(a)}\b", scan.text)):
            out.append("?")
            continue
        if v is None:
            return []
        out.append(str(v))
    return out if any(a != "?" for a in out) else []


# `static const int BLOCK_SIZE = 128;`, `constexpr unsigned N = 4;`: an integer constant a header declares
_CONST = re.compile(r"(?<![\w.])(?:(?:static|inline)\s+)*(?:const|constexpr)\s+(?:(?:static|const|constexpr)\s+)*"
                    r"(?:(?:unsigned|signed|short|long|int|size_t|uint|u?int(?:8|16|32|64)_t)\s+)+(?:const\s+)?([A-Za-z_]\w*)\s*"
                    r"(?:=\s*([^;{}]+?)|\{([^;{}]*)\})\s*;")

# the `{` after it opens a namespace, or a class whose static constants are read as `Config::kThreads`
_NAMESPACE_OPEN = re.compile(r"\b(?:namespace\s+([A-Za-z_][\w:\s]*?)|(?:struct|class)\s+([A-Za-z_]\w*)(?:\s+final)?"
                             r"(?:\s*:[^;{}()]*)?)\s*$")
_QUALIFIED = re.compile(r"(?<![\w.])(?:::\s*)?(?:[A-Za-z_]\w*\s*::\s*)+[A-Za-z_]\w*")
_CONST_DIM3 = re.compile(r"(?<![\w.])(?:(?:static|inline)\s+)*(?:const|constexpr)\s+(?:(?:static|const|constexpr)\s+)*"
                         r"dim3\s+([A-Za-z_]\w*)\s*"
                         r"(?:\(([^;{}()]*)\)|\{([^;{}]*)\}|=\s*dim3\s*[({]([^;{}()]*)[)}])\s*;")


def tag_targs(tparams: list, param_types: list, tags: dict) -> list:
    """The template arguments a launch's compile-time tags deduce (``tags``: argument position -> value), by the
    kernel's template parameters (``tparams``: (name, kind)) and its parameters' type spellings; "?" for one no tag
    deduces (left generic); [] when no tag deduces any."""
    got = {}
    for i, ty in enumerate(param_types):
        m = _TAG_PARAM.search(ty or "")
        if m and i in tags:
            got[m.group(1) or m.group(2)] = tags[i]
    return [got.get(name, "?") for name, _ in tparams] if got else []


# `#define DEF inline constexpr`: a macro that stands for declaration specifiers (`DEF int block = 256;`)
_SPECIFIER_MACRO = re.compile(r"^[ \t]*#[ \t]*define[ \t]+([A-Za-z_]\w*)[ \t]+((?:(?:inline|constexpr|static|const|"
                              r"__host__|__device__|__forceinline__)[ \t]*)+)$", re.M)


def _constants(text: str) -> dict:
    """The integer constants ``text`` declares outside function bodies (a header's ``static const int``), as
    name -> value text: a quoted include's, which the launches read like its macros; a constant ``dim3`` (``const
    static dim3 block_shape(LOCAL_X, LOCAL_Y);``) as ``dim3(...)`` text."""
    for m in list(_SPECIFIER_MACRO.finditer(text)):
        text = re.sub(rf"\b{m.group(1)}\b", m.group(2).strip(), text)
    if "const" not in text:
        return {}
    t = _NOISE.sub(lambda m: " " * len(m.group(0)), text)
    out, bodies, opened = {}, 0, []  # function bodies open at a point; for each open `{`, whether it opens one
    spaces: list = []  # for each open `{`, the namespace it opens ("" for other braces)
    qualified: dict = {}  # "ns::name" -> (namespace path, value text) for a constant inside `namespace ns {`
    marks = sorted([(m.start(), m) for r in (_CONST, _CONST_DIM3) for m in r.finditer(t)] +
                   [(m.start(), m) for m in _BRACE.finditer(t)], key=lambda x: x[0])

    def put(name, value):
        out[name] = value
        path = [n for s in spaces if s for n in s.split("::")]
        for i in range(len(path)):  # `b::name` and `a::b::name` for a constant of `namespace a { namespace b {`
            qualified["::".join([*path[i:], name])] = (path, value)
    for at, m in marks:
        if m.re is _BRACE:
            if m.group(0) == "{":
                opened.append(bool(_FUNC_END.search(t, max(0, at - 80), at)))
                bodies += opened[-1]
                ns = _NAMESPACE_OPEN.search(t, max(0, at - 200), at)
                spaces.append(re.sub(r"\s", "", ns.group(1) or ns.group(2)) if ns else "")
            elif opened:
                bodies -= opened.pop()
                spaces.pop()
        elif m.re is _CONST_DIM3:
            if not bodies:
                put(m.group(1), f"dim3({m.group(2) or m.group(3) or m.group(4)})")
        elif not bodies:
            first, *more = split_top(m.group(2) or m.group(3)) or [""]
            put(m.group(1), first.strip())
            for d in more:  # further declarators: `static const int A = 4, B = 64;`
                name, eq, value = d.partition("=")
                if eq and name.strip().isidentifier():
                    put(name.strip(), value.strip())
    for key, (path, value) in qualified.items():
        # the names a namespace's constant reads are its namespace's first (`stride = vals_per_h * threads`)
        def scoped(m, path=path):
            for i in range(len(path), 0, -1):
                if "::".join([*path[:i], m.group(0)]) in qualified:
                    return "::".join([*path[:i], m.group(0)])
            return m.group(0)
        out[key] = re.sub(r"(?<![\w.:])[A-Za-z_]\w*(?!\s*::)", scoped, value)
    return out


def _enumerators(text: str) -> dict:
    """The enumerators ``text`` (a header) declares, as name -> value text (``kBlockDimX0 = kDimX1``, read through
    the earlier enumerator's value; one without a value is the one before plus one); a scoped enum's also as
    ``Enum::name``."""
    out: dict = {}
    for m in _ENUM.finditer(text) if "enum" in text else ():
        head = re.match(r"enum\s+(?:class\s+|struct\s+)?([A-Za-z_]\w*)?", m.group(0))
        prev, number = None, -1  # the enumerator before, and its value when it is a plain number
        for item in split_top(m.group(1)):
            n, eq, e = item.partition("=")
            n, e = n.strip(), e.strip()
            if not n.isidentifier():
                continue
            literal = re.fullmatch(r"-?\d+", e) if eq else None
            number = int(literal.group(0)) if literal else None if eq else number + 1 if number is not None else None
            # (one without a value names the one before: a long enum's texts stay short)
            value = str(number) if number is not None else f"({e})" if eq else f"({prev} + 1)"
            out[n] = value
            if head and head.group(1):
                out[f"{head.group(1)}::{n}"] = value
            prev = n
    return out


# a function-like #define: name, parameters, the rest of its definition (continuation lines included)
FUNCTION_MACRO = re.compile(r"^[ \t]*#[ \t]*define[ \t]+([A-Za-z_]\w*)\(([^()]*)\)((?:\\\n|[^\n])*)", re.M)


def expand_launch_macros(text: str, headers=(), defines=None) -> str:
    """``text`` with each use of a function-like macro whose body launches a kernel (``#define RUN(k, g, b) k<<<g,
    b>>>()``, through other such macros too; defined in ``text`` or in one of the ``headers`` it includes) replaced
    by its expansion, written on the use's first line and padded with the line breaks it spanned, so later lines keep
    their numbers. A body's ``a ## b`` pastes the two after its parameters are replaced (``mat_##tag##_kernel``),
    and ``#x`` is the argument as a string literal."""
    macros = {}
    # (the host pass's definitions: `#ifndef DISABLE_SM90_FEATURES` / `#define LAUNCH_KERNEL(...) cudaLaunchKernelEx
    # (...)` / `#else` / `#define LAUNCH_KERNEL(...) kernel<<<...>>>(...)`: the first)
    for m in (m for t in (*headers, text) for m in FUNCTION_MACRO.finditer(active_lines(t, defines, device=False))):
        body = m.group(3).replace("\\\n", " ")
        body = re.sub(r"//[^\n]*|/\*.*?\*/", " ", body)
        body = re.sub(r"\s+", " ", body)  # (a body aligned for its backslashes: its statements within reach)
        params = [p.strip() for p in m.group(2).split(",") if p.strip()]
        macros[m.group(1)] = (params, _launcher_body(params, body.strip()))
    # (and one that sets up a launch's configuration: DeepEP's `SETUP_LAUNCH_CONFIG(sms, threads, stream)`)
    launching = {n for n, (_, b) in macros.items() if any(k in b for k in (*_MARKERS, "cudaLaunchConfig_t"))}
    for _ in range(3):  # macros that call a launching macro
        more = {n for n, (_, b) in macros.items() if n not in launching and any(
            re.search(rf"\b{re.escape(x)}\s*\(", b) for x in launching)}
        if not more:
            break
        launching |= more
    # a macro handed a launching macro to call (`SWITCH_RDMA_RANKS(COMBINE_LAUNCH_CASE)`, whose body calls
    # `case_macro(2)`, ...)
    handed = re.compile(r"\b(\w+)\s*\(\s*(?:" + "|".join(map(re.escape, sorted(launching))) + r")\s*\)") \
        if launching else None
    launching |= {m.group(1) for t in (*headers, text) for m in (handed.finditer(t) if handed else ())
                  if m.group(1) in macros}
    if not launching:
        return text
    use = re.compile(r"\b(" + "|".join(map(re.escape, sorted(launching))) + r")\s*\(")
    defines = [(m.start(), m.end()) for m in FUNCTION_MACRO.finditer(text)]

    def expand(body_text: str, depth: int) -> str:
        out, at = [], 0
        for m in use.finditer(body_text):
            if m.start() < at:
                continue
            i = paren_end(body_text, m.end() - 1) + 1
            if not i:
                break
            params, body = macros[m.group(1)]
            args = split_top(body_text[m.end():i - 1])
            variadic = bool(params) and params[-1] == "..."
            named = params[:-1] if variadic else params
            if (len(args) < len(named) if variadic else len(args) != len(params)) or depth > 4:
                continue
            sub = {p: a.strip() for p, a in zip(named, args)}
            if variadic:
                sub["__VA_ARGS__"] = ", ".join(a.strip() for a in args[len(named):])
            # one pass: a parameter (`k`) is its argument, a stringized one (`#k`) the argument as a string literal
            inner = re.sub(r"((?<!#)#\s*)?\b(" + "|".join(map(re.escape, sub)) + r")\b",
                           lambda x: '"' + sub[x.group(2)].replace('"', '\\"') + '"' if x.group(1) else
                           sub[x.group(2)], body) if sub else body
            inner = re.sub(r"\s*##\s*", "", inner)
            out += [body_text[at:m.start()], expand(inner, depth + 1)]
            at = i
        return "".join(out) + body_text[at:]

    out, at = [], 0
    for m in use.finditer(text):
        if m.start() < at or any(a <= m.start() < b for a, b in defines):
            continue
        i = paren_end(text, m.end() - 1) + 1
        if not i:
            break
        expanded = expand(text[m.start():i], 0).replace("\n", " ")
        out += [text[at:m.start()], expanded, "\n" * text.count("\n", m.start(), i)]
        at = i
    return "".join(out) + text[at:]


# a launcher macro's parameters, in order: the kernel, grid, block, dynamic shared memory and stream, then the
# kernel's arguments (`FBGEMM_LAUNCH_KERNEL(KERNEL, GRID, BLOCK, SMEM, STREAM, ...)`)
_LAUNCHER_PARAMS = tuple(re.compile(p, re.I) for p in (
    r"_*(?:k|kern(?:el)?|func?)(?:_?(?:name|fn|func|ptr))?_*", r"_*(?:grid(?:_?(?:dims?|size))?|n?blocks|num_blocks)_*",
    r"_*(?:block(?:_?(?:dims?|size))?|n?threads|num_threads)_*",
    r"_*(?:s?h?mem|smem|shmem|shared(?:_?mem(?:ory)?)?)(?:_?(?:size|bytes))?_*", r"_*stream_*"))


def _launcher_body(params: list, body: str) -> str:
    """``body``, or for a macro that hands its kernel, grid, block, shared memory bytes and stream to a launcher
    object (``KernelLauncher(...).launch_kernel(kernel, GRID, BLOCK, SMEM, STREAM, __VA_ARGS__)``: its parameters
    say so, ``_LAUNCHER_PARAMS``, and its body passes each on) the launch it stands for, ``KERNEL<<<GRID, BLOCK,
    SMEM, STREAM>>>(__VA_ARGS__)``."""
    if len(params) != 6 or params[5] != "..." or any(k in body for k in _MARKERS) or not all(
            r.fullmatch(p) and re.search(rf"\b{re.escape(p)}\b", body) for r, p in zip(_LAUNCHER_PARAMS, params)) \
            or "__VA_ARGS__" not in body:
        return body
    k, g, b, smem, stream = params[:5]
    return f"({k})<<<{g}, {b}, {smem}, {stream}>>>(__VA_ARGS__)"


def _kernel_choice(text: str) -> tuple | None:
    """The two branches of ``c ? A : B`` when A and B each name a function (template arguments allowed); None
    otherwise."""
    q = text.find("?")
    if q < 0 or text.count("(", 0, q) != text.count(")", 0, q):
        return None
    depth = 0
    for i in range(q + 1, len(text)):
        ch = text[i]
        depth += 1 if ch in "(<[{" else -1 if ch in ")>]}" else 0
        if ch == ":" and depth == 0 and text[i - 1] != ":" and text[i + 1:i + 2] != ":":
            a, b = text[q + 1:i].strip(), text[i + 1:].strip()
            named = re.compile(r"[A-Za-z_][\w:]*\s*(?:" + _TARGS + r")?", re.S)
            return (a, b) if named.fullmatch(a) and named.fullmatch(b) else None
    return None


_CONFIG_INIT = re.compile(r"\bcudaLaunchConfig_t\s+([A-Za-z_]\w*)\s*=?\s*\{")
_CONFIG_FIELDS = ("gridDim", "blockDim", "dynamicSmemBytes", "stream")


def _switch_arms(text: str, start: int, end: int) -> list:
    """The arms of the ``switch`` whose body starts at ``start``, up to ``end``: (where its last label starts, its
    labels' values as text, None for ``default:``) each; an arm is a run of labels (`case 1: case 2:`) and the
    statements after them (labels of nested blocks are not its)."""
    arms, depth, last = [], 0, None
    for m in re.finditer(r"[{}]|\bcase\s+([^:;{}]+?)\s*:(?!:)|\bdefault\s*:", text[start:end]):
        if m.group(0) in "{}":
            depth += 1 if m.group(0) == "{" else -1
        elif depth == 0:
            gap = text[start + last:start + m.start()].strip() if last is not None else "x"
            labels = (arms[-1][1] if arms and not gap else []) + [m.group(1)]
            if gap:
                arms.append((start + m.start(), labels))
            else:
                arms[-1] = (start + m.start(), labels)
            last = m.end()
    return arms


def _config_members(text: str) -> str:
    """``text`` with each launch configuration initialized by a braced list (``cudaLaunchConfig_t cfg = {grid, block,
    smem, stream, attrs, n}``, or with designators ``{.gridDim = g, .blockDim = b}``) declared alone and its grid
    and block assigned (``cfg.gridDim = grid; cfg.blockDim = block;``), on the same line."""
    out, at = [], 0
    for m in _CONFIG_INIT.finditer(text):
        end = block_end(text, m.end())  # (the `}` of the list)
        if end >= len(text) or m.start() < at:
            continue
        items = [x.strip() for x in split_top(text[m.end():end])]
        fields = {}
        for i, x in enumerate(items):
            d = re.match(r"\.\s*(\w+)\s*=\s*(.+)$", x, re.S)
            if d:
                fields[d.group(1)] = d.group(2)
            elif i < len(_CONFIG_FIELDS) and x:
                fields[_CONFIG_FIELDS[i]] = x
        sets = "".join(f" {m.group(1)}.{f} = {v};" for f, v in fields.items()
                       if f in ("gridDim", "blockDim") and v not in ("0", "{}"))  # (`= {0}`: zeroed, set later)
        out += [text[at:m.start()], f"cudaLaunchConfig_t {m.group(1)};{sets}".replace("\n", " "),
                "\n" * text.count("\n", m.start(), end + 1)]
        at = end + 1
        if text.startswith(";", at):
            at += 1
    return "".join(out) + text[at:]


def _read_use(after: str, before: str) -> bool:
    """A use of an array's name (``before``/``after``: the text around it) that only reads it: an element not written
    (``a[i]``, not ``a[i] = ...``, ``a[i]++``, ``&a[i]``), or ``sizeof(a)``."""
    index = re.match(r"\s*\[[^\[\]]*\]", after)
    return bool(index and not _WRITE_AFTER.match(after[index.end():]) and
                not re.search(r"(?:&|\+\+|--)\s*$", before)) or re.search(r"\bsizeof\s*\(\s*$", before) is not None


def _scan_file(text: str, name: str, folder, defines, callers=None, outer=None, instantiations=None,
               include_dirs=()) -> _Scan:
    """The file's scan, its names evaluated with its macros, those of its quoted includes, ``-D`` values, and
    (lowest) ``outer``: the macros of the files that include it. ``include_dirs``: the folders the user passed with
    ``-I``, where an include not beside its includer is looked for first."""
    macros, seen, named, headers = {}, set(), {}, []
    kept_constexpr = []  # the headers' host-pass lines that declare something constexpr (``_constant_calls``)
    build_dirs = None  # the build's -I folders, read once, when a quoted include is first not beside its includer
    project = None  # the project's files, listed once, when an include is found in neither

    def given(inc):  # the include in a folder the user passed with -I
        return next((Path(d) / inc for d in include_dirs if (Path(d) / inc).is_file()), None)

    def found(at, inc):
        nonlocal build_dirs, project
        if (at / inc).is_file() or folder is None:
            return at / inc
        if (hit := given(inc)) is not None:
            return hit
        if build_dirs is None:
            build_dirs = [d for d, _ in build_flags.include_dirs_for(Path(folder) / name)]
        hit = next((d / inc for d in build_dirs if (d / inc).is_file()), None)
        if hit is None:  # the one header of that name in the project
            project = project or build_flags.project_files(Path(folder) / name, include_dirs)
            hit = next((d / inc for d, _ in build_flags.headers_by_name(Path(folder) / name, {inc}, project)),
                       at / inc)
        return hit

    project_dirs = None  # the build's -I folders inside the project, read once, when a <header> is first looked up

    def in_build(inc):  # a <header> the project's -I folders hold (`#include <runner.cuh>` with `-I src`)
        nonlocal project_dirs
        if (hit := given(inc)) is not None:
            return hit
        if project_dirs is None:
            root = build_flags.project_root(Path(folder) / name)
            project_dirs = [d for d, _ in build_flags.include_dirs_for(Path(folder) / name)
                            if root is not None and d.is_relative_to(root)]
        return next((d / inc for d in project_dirs if (d / inc).is_file()), None)

    def include(t, at, depth):  # quoted includes and the project's <headers>, transitively (a few levels): their macros
        for inc, angled in [(i, False) for i in LOCAL_INCLUDE.findall(t)] + \
                [(i, True) for i in _PROJECT_INCLUDE.findall(t) if "/" in i or "." in i]:
            # (a <header> beside the file is the project's too: the build's `-I.`, which SDK makefiles pass)
            p = ((at / inc) if (at / inc).is_file() else in_build(inc)) if angled else found(at, inc)
            if p is None:
                continue
            p = p.resolve()
            if p in seen or depth > 3:
                continue
            seen.add(p)
            try:
                inner = p.read_text(errors="replace")
            except OSError:
                continue
            include(inner, p.parent, depth + 1)
            headers.append(inner)
            kept = active_lines(inner, defines, device=False)  # the header's host-pass lines, read once
            macros.update({**_enumerators(kept), **_constants(inner), **c_macros(kept)})
            named.update(dict.fromkeys(_DEFINED_NAME.findall(kept), ""))
            if "constexpr" in kept:
                kept_constexpr.append(kept)
    if folder is not None:
        include(text, (Path(folder) / name).parent, 0)  # (a launching file above the folder: name is ../f.cu)
    env = {**(outer or {}), **macros, **{k: v for k, v in _constants(text).items() if "::" in k},
           **source_macros(text, device=False),
           **{k: (1 if v is None else v) for k, v in (defines or {}).items()}}
    if folder is not None and "extern" in text + "".join(headers):
        env = {**_defined_elsewhere(text, headers, env, Path(folder) / name), **env}
    # the host pass's lines only (an undefined #ifdef's assignment never runs); a blanked line keeps its length,
    # so positions and line numbers stay those of the file
    text = expand_launch_macros(text, headers, defines) if any("define" in t for t in (text, *headers)) else text
    if kept_constexpr or "constexpr" in text:
        text = _constant_calls(text, [*kept_constexpr, active_lines(text, defines, device=False)])
    text = _config_members(text) if "cudaLaunchConfig_t" in text else text
    text = _unspaced_chevrons(text) if "<< <" in text or "< < <" in text else text
    text = hip_launches_as_chevrons(text) if "hipLaunchKernelGGL" in text else text
    kept = active_lines(text, {**named, **(outer or {}), **macros, **(defines or {})}, device=False).split("\n")
    text = "\n".join(k or " " * len(o) for k, o in zip(kept, text.split("\n")))
    scan = _Scan(text, name, env, callers, instantiations)
    scan.headers = headers
    return scan


# a function of no parameters that returns a constant: `inline constexpr int32_t kWarpSizeHost() { return 32; }`
_CONSTANT_FUNCTION = re.compile(r"\bconstexpr\b[^;{}()=]*?\b([A-Za-z_]\w*)\s*\(\s*(?:void\s*)?\)\s*(?:const\s*)?"
                                r"(?:noexcept\s*)?\{\s*return\s+([^;{}]+?)\s*;\s*\}")


def _constant_calls(text: str, sources: list) -> str:
    """``text`` with each call of a ``constexpr`` function of no parameters that returns a constant, defined in one
    of ``sources`` (the file and its headers), written as that constant in parentheses, padded to the call's length
    (positions and lines stay the file's): launches read ``dim3(kWarpSizeHost(), kMaxThreads / kWarpSizeHost())``
    as the block it is. A name defined twice with different values is left as it is."""
    values: dict = {}
    for t in sources:
        for m in _CONSTANT_FUNCTION.finditer(t):
            values.setdefault(m.group(1), set()).add(re.sub(r"\s+", " ", m.group(2)))
    values = {k: next(iter(v)) for k, v in values.items() if len(v) == 1}
    if not values:
        return text
    use = re.compile(r"(?<![\w.>])(?:[A-Za-z_]\w*\s*::\s*)*\b(" + "|".join(map(re.escape, sorted(values))) +
                     r")\s*\(\s*\)(?!\s*(?:const\s*|noexcept\s*)*\{)")

    def put(m):
        new = f"({values[m.group(1)]})"
        return new.ljust(len(m.group(0))) if len(new) <= len(m.group(0)) and "\n" not in m.group(0) else m.group(0)
    return use.sub(put, text)


_HIP_LAUNCH = re.compile(r"\bhipLaunchKernelGGL\s*\(")


def hip_launches_as_chevrons(text: str) -> str:
    """``text`` with HIP's ``hipLaunchKernelGGL(HIP_KERNEL_NAME(k<T>), grid, block, smem, stream, args...)`` written as
    the launch it stands for on NVIDIA's platform, ``k<T><<<grid, block, smem, stream>>>(args...)``, padded to its
    length (the arguments keep their line breaks: positions after the call and line numbers stay the file's)."""
    out, last = [], 0
    for m in _HIP_LAUNCH.finditer(text):
        if m.start() < last:
            continue
        args = _call_args(text, m.end())
        end = _call_end(text, m.end())
        if len(args) < 5 or end is None:
            continue
        kernel = re.sub(r"^\s*HIP_KERNEL_NAME\s*\((.*)\)\s*$", r"\1", args[0], flags=re.S).strip()
        while kernel.startswith("(") and kernel.endswith(")"):
            kernel = kernel[1:-1].strip()
        new = f"{kernel}<<<{args[1]},{args[2]},{args[3]},{args[4]}>>>({','.join(args[5:])})"
        old = text[m.start():end]
        if new.count("\n") != old.count("\n") or len(new) > len(old):
            new = " ".join(new.split("\n"))
            new = new + "\n" * old.count("\n")
            if len(new) > len(old):
                continue
        out += [text[last:m.start()], new + " " * (len(old) - len(new))]
        last = end
    return "".join(out) + text[last:] if out else text



_SPACED_OPEN = re.compile(r"(?:<<[ \t]+|<[ \t]+<[ \t]+)<(?!<)")  # `<< <`, `< < <` (a formatter's, in macros)
_SPACED_CLOSE = re.compile(r">>[ \t]+>|>>>")


def _unspaced_chevrons(text: str) -> str:
    """``text`` with launches written ``k << < g, b >> > (...)`` or ``k < < < g, b >>> (...)`` (formatters' spacing,
    which nvcc accepts)
    as ``k<<<g, b>>>(...)``, each chevron padded to its length (positions and lines stay the file's)."""
    out, last = [], 0
    for m in _SPACED_OPEN.finditer(text):
        if m.start() < last:
            continue
        close = _SPACED_CLOSE.search(text, m.end())
        if close is None or ";" in text[m.end():close.start()]:
            continue
        out += [text[last:m.start()], "<<<".ljust(len(m.group(0))), text[m.end():close.start()],
                ">>>".ljust(len(close.group(0)))]
        last = close.end()
    return "".join(out) + text[last:]


_IFDEF = re.compile(r"^[ \t]*#[ \t]*(?:ifdef[ \t]+|(?:el)?if[ \t]+defined[ \t]*\(?[ \t]*)([A-Za-z_]\w*)", re.M)
_MARKERS = ("<<<", "<< <", "< < <", "cudaLaunchKernel", "cudaLaunchCooperativeKernel", "cuLaunchKernel",
            "cuLaunchCooperativeKernel", "cudaGraphAdd", "hipLaunchKernelGGL")
_HOST_SUFFIXES = (".cu", ".cuh", ".cpp", ".cc", ".cxx", ".h", ".hpp")


_EXTERN_CONST = re.compile(r'\bextern\s+(?:"C"\s+)?(?:(?:const|unsigned|signed|short|long|int|size_t|uint|'
                           r'u?int(?:8|16|32|64)_t)\s+)*const\s+(?:(?:unsigned|signed|short|long|int|size_t|uint|'
                           r'u?int(?:8|16|32|64)_t)\s+)*([A-Za-z_]\w*)\s*;')


def _defined_elsewhere(text: str, headers: list, env: dict, path: Path) -> dict:
    """The values of the integer constants ``text`` (or a header it includes) declares ``extern const`` without a
    value (``extern "C" const uint MAX_SIZE;``), from the one file of the folder that defines them at file scope
    (``extern "C" const uint MAX_SIZE = 4 * BLOCK;``), evaluated with that file's macros."""
    wanted = {n for t in (text, *headers) for n in _EXTERN_CONST.findall(t)} - set(env)
    out: dict = {}
    for p, key in _siblings(path) if wanted else ():
        other = _text(p, key)
        if not any(n in other for n in wanted):
            continue
        consts = _constants(other)
        found = {n: v for n, v in consts.items() if n in wanted}
        other_env = {**source_macros(other, device=False), **consts}
        for n, v in found.items():
            value = evaluate(v, other_env)
            if value is not None:
                out[n] = None if n in out and out[n] != str(value) else str(value)  # two definitions: neither
    return {n: v for n, v in out.items() if v is not None}


def _siblings(path) -> list:
    """The other host and header files of ``path``'s folder (a few hundred at most), as (path text, (mtime,
    size))."""
    try:
        with os.scandir(path.parent) as it:
            found = []
            for e in it:
                if e.name != path.name and e.name.endswith(_HOST_SUFFIXES) and e.is_file():
                    st = e.stat()
                    if st.st_size < 2_000_000:
                        found.append((e.name, e.path, (st.st_mtime_ns, st.st_size)))
    except OSError:
        return []
    return [(p, key) for _, p, key in sorted(found)[:400]]


_FACTS: dict = {}  # path text -> ((mtime, size), quoted include names, kernel names looked up by name through the
# driver API, names launched, the text when small): read once per version of the file
_KEEP_TEXT = 300_000  # characters of a folder file kept in memory between analyses
_LAUNCH_NAME = re.compile(r"\b([A-Za-z_]\w*)\s*(?:<[^<>;(]*>)?\s*\)?\s*<<\s*<|\bcudaLaunch\w*\s*\(\s*(?:\(\s*(?:const\s+)?"
                          r"void\s*\*\s*\)\s*)?&?\s*(\w+)")


def _facts(p: str, key) -> tuple:
    """(quoted include names, kernel names looked up through the driver API (cuModuleGetFunction with a literal
    name), names launched with ``<<<`` or a runtime launch call) of file ``p``, read once per version."""
    hit = _read(p, key)
    return hit[1], hit[2], hit[3]


def _read(p: str, key) -> tuple:
    hit = _FACTS.get(p)
    if hit is None or hit[0] != key:
        try:
            with open(p, errors="replace") as fh:
                text = fh.read()
        except OSError:
            return key, set(), set(), set(), ""
        hit = _FACTS[p] = (key, {i.rsplit("/", 1)[-1] for i in LOCAL_INCLUDE.findall(text)},
                           {m.group(2) for m in _CU_FUNCTION.finditer(text)} if "cuModuleGetFunction" in text else
                           set(), {a or b for a, b in _LAUNCH_NAME.findall(text)},
                           text if len(text) <= _KEEP_TEXT else None)
    return hit


def _text(p: str, key) -> str:
    """The text of folder file ``p`` (version ``key``)."""
    t = _read(p, key)[4]
    if t is None:
        try:
            with open(p, errors="replace") as fh:
                return fh.read()
        except OSError:
            return ""
    return t


def _includers(path, siblings) -> list:
    """Files of ``siblings`` (their path texts) that include ``path`` with quotes, directly or through one other of
    them."""
    incs = [(p, _facts(p, key)[0]) for p, key in siblings]
    direct = [p for p, i in incs if path.name in i]
    names = {os.path.basename(p) for p in direct}
    return direct + [p for p, i in incs if names and p not in direct and i & names]


def launching_files(path: Path, text: str, kernels, siblings: list, text_of) -> list:
    """(text, name, driver API launches only, the only kernels read there or None) for each other file that may
    launch the kernels of ``path`` (contents ``text``) it does not launch itself: the files of its folder that
    include it, those that load kernels by name through the driver API (nvrtc, cubin modules), those that launch a
    kernel declared to them by a header or an `extern` (a .cu of kernels compiled on its own, launched from
    main.cpp), those it includes, those that launch a function-pointer parameter the folder's files pass a kernel of
    it to, the files above that include it, and those of the folder above that launch one declared to them.
    ``siblings``: ``_siblings(path)``; ``text_of(Path)``: a file's text."""
    included = _includers(path, siblings)  # (path texts, as ``siblings`` gives them)
    inc = [Path(p) for p in included]
    files = [(text_of(p), p.name, False, None) for p in inc]
    files += [(_text(p, key), os.path.basename(p), True, None) for p, key in siblings
              if (kernels is None or _facts(p, key)[1] & set(kernels)) and p not in included]
    missing = set(kernels or ()) - _launched(text).union(*(_launched(t) for t, *_ in files[:len(inc)]))
    files += _declared_launchers([(p, key) for p, key in siblings if p not in included], missing, path.parent)
    missing -= {k for f in files for k in (f[3] or ())}
    for p in included_by(path, text) if missing else ():  # or by a file it includes (Torch's `generic/X.cu`,
        t = _generic_body(text_of(p) or "", p.name)        # read once per element type, launches X.cu's kernels)
        named = {k for k in missing & _launched(t) if not _defines(t, k)}
        if named:
            files.append((t, os.path.relpath(p, path.parent), False, named))  # (`generic/X.cu`: not X.cu's name)
            missing -= named
    if missing:
        files += _launched_through_parameters(text, missing, siblings)
        missing -= {k for f in files for k in (f[3] or ())}
    if missing:  # included from a folder above (main.cu > kernels/k.cu): the includer's files launch it
        files += _launched_above(path, missing, [p for p, _ in siblings])
        missing -= {k for f in files for k in (f[3] or ())}
    # or by a file of the folder above that a header of prototypes declares it to (src/gpu/kernels/k.cu compiled on
    # its own, launched by src/gpu/k_cuda.cu): the first such file for each kernel
    for t, name, _, named in _declared_launchers(_siblings(path.parent), missing, path.parent):
        if named & missing:
            files.append((t, name, False, named & missing))
            missing -= named
    for header in [path, *inc] if missing else ():  # or from a folder beside it (app/scan_app.cu >
        # kernel/scan_kernel.cuh through the build's -I; src/m.cu > include/m.cuh > include/m_kernels.cuh)
        files += _launched_above(header, missing, [p for p, _ in siblings], beside=True)
        missing -= {k for f in files for k in (f[3] or ())}
    return files


_SELF_NAMING = re.compile(r'\A(?:\s*//[^\n]*\n)*\s*(#\s*ifndef\s+(\w+))[ \t]*\n\s*#\s*define\s+\2\s+"([^"\n]+)"')


def _declared_launchers(files, missing: set, here: Path):
    """(text, name relative to ``here``, False, kernels) for each of ``files`` (``_siblings`` pairs) that launches
    kernels of ``missing`` it does not define: declared to it by a header or an ``extern``."""
    for p, key in files if missing else ():
        if missing & _facts(p, key)[2]:
            t = _text(p, key)
            named = {k for k in missing & _facts(p, key)[2] if not _defines(t, k)}
            if named:
                yield t, os.path.relpath(p, here), False, named


def _generic_body(text: str, name: str) -> str:
    """``text`` as its second reading compiles it when it is a file that names itself for a generator to include
    again (Torch's `#ifndef THC_GENERIC_FILE / #define THC_GENERIC_FILE "generic/X.cu" / #else` body `#endif`,
    included once per element type through the macro): its `#ifndef` written `#if 0`, columns kept; else ``text``."""
    m = _SELF_NAMING.match(text)
    if m is None or os.path.basename(m.group(3)) != name:
        return text
    return text[:m.start(1)] + "#if 0".ljust(len(m.group(1))) + text[m.end(1):]


def _parameter_launchers(text: str) -> set:
    """Names of the functions of ``text`` that launch a function-pointer parameter (``bool test(void (*k)(float *))
    { k<<<1, 32>>>(d); }``): a cheap superset test (the launch's reader resolves the parameter through the calls)."""
    out = set()
    for m in re.finditer(r"\b([A-Za-z_]\w*)\s*\(([^;{}]*\(\s*\*[^;{}]*)\)\s*(?:const\s*)?\{", text):
        for p in _FN_POINTER.findall(m.group(2)):
            if re.search(rf"\b{p}\s*<<<|\bcudaLaunch\w*\s*\([^;]*?\b{p}\b", text[m.end():]):
                out.add(m.group(1))
    return out


def _launched_through_parameters(text: str, kernels: set, siblings: list) -> list:
    """(text, name, False, the kernels passed) for each file of the folder with a function that launches its
    function-pointer parameter, when the folder's files (``text`` the kernel's own) pass one of ``kernels`` to that
    function (``test(mma::k16)`` in main.cu, ``k<<<1, 32>>>`` in test.cuh)."""
    out, texts = [], []
    for p, key in siblings:
        t = _text(p, key)
        launchers = _parameter_launchers(t) if "(*" in t and ("<<<" in t or "cudaLaunch" in t) else ()
        if launchers and not texts:
            texts = [text] + [_text(q, k) for q, k in siblings]  # the callers: read once, only when needed
        named = {k for fn in launchers for k in kernels
                 if any(re.search(rf"\b{fn}\s*\([^;]*\b{k}\b", u) for u in texts if fn in u and k in u)}
        if named:
            out.append((t, os.path.basename(p), False, named))
    return out


def _launched_above(path: Path, kernels: set, folder_files, beside: bool = False) -> list:
    """(text, name, False, the kernels it launches) for each file of a folder above ``path`` (``beside``: of a folder
    beside it) that includes it, each file such an includer includes with quotes, and each file of the includer's
    folder that includes the includer (``main.cu`` > ``kernels.cuh`` > ``include/k.cuh``), that launches one of
    ``kernels`` without defining it (``folder_files``: those of ``path``'s folder, read already)."""
    out, here, seen = [], path.absolute().parent, None
    found = includers_beside(path) if beside else includers(path, above_only=True)  # the folder's own: the caller's
    for inc, text, _ in found:
        if seen is None:
            seen = {os.path.abspath(p) for p in folder_files} | {os.path.abspath(path)}
        for p, t in [(inc, text), *((q, None) for q in included_by(inc, text)),
                     *((q, u) for q, u, _ in includers(inc, levels=0))]:
            if os.path.abspath(p) in seen:
                continue
            seen.add(os.path.abspath(p))
            try:
                t = t if t is not None else p.read_text(errors="replace")
            except OSError:
                continue
            named = {k for k in kernels & _launched_through_macros(p, t) if not _defines(t, k)}
            if named:
                out.append((t, os.path.relpath(p, here), False, named))
    return out


def _launched_through_macros(path: Path, text: str) -> set:
    """``_launched`` of a file, its launch macros expanded (those it defines and those of the headers it includes
    with quotes: ``CUDALAUNCH(k, ...)`` in ``cuda_common.hpp``)."""
    names = _launched(text)
    headers = [t for t in map(source_text, included_by(path, text)) if t and "define" in t]
    if headers or "define" in text:
        names |= _launched(expand_launch_macros(text, headers))
    return names


def _defines(text: str, kernel: str) -> bool:
    """Whether ``text`` defines (with a body) a ``__global__`` function named ``kernel``."""
    return re.search(rf"__global__[^;{{}}]*\b{re.escape(kernel)}\s*\([^;{{}}]*\)\s*\{{", text) is not None


def _launched(text: str) -> set:
    """Names that appear before a ``<<<`` or as a launch call's kernel argument (a cheap superset test)."""
    names = {m.group(1).split("::")[-1]
             for m in re.finditer(r"\b([A-Za-z_][\w:]*)\s*(?:<[^<>;(]*>)?\s*\)*\s*<<\s*<", text)}
    if "cudaLaunch" in text:
        names |= set(re.findall(r"\bcudaLaunch\w*\s*\(\s*(?:\(\s*(?:const\s+)?void\s*\*\s*\)\s*)?&?\s*(\w+)", text))
    if "hipLaunchKernelGGL" in text:
        names |= set(re.findall(r"\bhipLaunchKernelGGL\s*\(\s*(?:HIP_KERNEL_NAME\s*\(\s*)?\(?\s*([A-Za-z_]\w*)", text))
    return names if not _FN_POINTER.search(text) else set()  # function pointers: unknown


def _record(out: dict, scan: _Scan, callee: str, targs: str, grid: str, block: str, pos: int, only,
            where: str) -> None:
    """Add the launch at ``pos`` (read under ``scan.guards``) to ``out``: one HostLaunch per constant block, else
    an entry in the kernel's ``unknown``; ``only``: the kernel names to keep (None: all); ``where``: the launch's
    name (``instance_where``)."""
    kernels = scan.shape_values(callee, pos)
    kernels = [re.sub(r"\s+", "", k) for k in kernels or () if isinstance(k, str)]
    if only is not None:
        kernels = [k for k in kernels if k.partition("<")[0].split("::")[-1] in only]
    blocks = scan.shape_values(block, pos) if block.strip() else None
    # a block with no threads cannot launch: a value such as a variable's `= 0` before it is set is no launch's
    blocks = None if blocks is None else [_as_shape(b) for b in blocks if not _no_threads(b)] or None
    grids = scan.shape_values(grid, pos) if grid.strip() else None
    grids = [_as_shape(g) for g in grids] if grids and len(grids) == 1 else [None]
    tags = scan.tags(pos) if kernels else {}  # compile-time tag arguments (template flags they deduce)
    types = scan.arg_types(pos) if kernels else {}
    for k in kernels:
        base, _, ktargs = k.partition("<")
        # `DeviceRadixSort::Scan<<<...>>>`: kept apart from another namespace's `Scan` (``launches_of``)
        base = base.lstrip(":") if "::" in base.lstrip(":") else base.split("::")[-1]
        tl = _const_targs(targs or ("<" + ktargs if ktargs else ""), scan, pos)
        entry = out.setdefault(base, HostLaunches())
        if blocks is None or None in blocks:
            entry.add_unknown(f"{where} (`{' '.join(block.split()) or '?'}`)",
                              scan.bound(block, pos) if block.strip() else None, None,
                              scan.multiple(block, pos) if block.strip() else 1)
            continue
        sizes = sorted({b[0] for b in blocks if b[0] <= MAX_THREADS})
        if len(blocks) > _MAX_SHAPES and all(b[1:] == (1, 1) for b in blocks) and sizes:
            # a sweep: one analysis under the set (a size over 1024 threads is a launch that fails, runs nothing)
            entry.add_unknown(f"{where} (`{' '.join(block.split())}` takes {len(sizes)} sizes)",
                              sizes[-1], sizes)
            continue
        for b in blocks:
            if b[0] * b[1] * b[2] <= MAX_THREADS:
                entry.launches.append(HostLaunch(b, grids[0] or (None, None, None), tl, where,
                                                 tags if not tl else {}, types))
            else:
                entry.add_unknown(f"{where} (`{' '.join(block.split())}` = {b}: more than "
                                  f"{MAX_THREADS} threads)")


def template_instantiations(function: str, count: int, depth: int, files, scan_of, memo: dict) -> list | None:
    """The template arguments (ints, or type names as text) of each call ``function<...>(...)`` in ``files()``
    ((text, name) pairs, scanned by ``scan_of``), as ``count``-tuples; None when one is not a constant or there is
    none. ``memo`` keeps the answers (key ``("<>", function)``)."""
    if not function or depth > 4:
        return None
    key = ("<>", function)
    if key not in memo:
        memo[key] = None  # a recursive template: not followed
        # its calls, and its launches when it is a kernel template (one launching itself from device code)
        call, got = re.compile(rf"\b{re.escape(function)}\s*<((?:[^<>;{{}}]|<[^<>;{{}}]*>)*)>\s*(?:\(|<<<)"), []
        for text, name in files():
            if function not in text:
                continue
            sc = scan_of(text, name)
            held, sc.guards = sc.guards, {}
            try:
                for m in call.finditer(sc.text):
                    at = sc.func_at(m.start())
                    if at is None:
                        continue
                    args = [a.strip() for a in split_top(m.group(1))]
                    if len(args) != count:
                        return None
                    if at[3] == function and args == sc.tparams.get(at[0]):
                        continue  # recursion passing its own arguments on: no new instantiation
                    vals = []
                    for a in args:
                        if a in _TYPES:
                            vals.append(a)
                            continue
                        v = sc.scalars(a, m.start(), depth + 1)
                        if v is None and _TYPE_NAME.fullmatch(a) and "::" in a:
                            vals.append(a)  # a library's type (`at::BFloat16`): generic, the others still bound
                            continue
                        if v is None or len(v) != 1:
                            return None
                        vals.append(v[0])
                    got.append(tuple(vals))
            finally:
                sc.guards = held
        memo[key] = list(dict.fromkeys(got))[:_MAX_CHOICES] or None
    return memo[key]


def launch_instances(scan: _Scan, pos: int, texts, instantiations) -> list[dict]:
    """The instantiations a launch at ``pos`` is read under: one {template parameter: value} per instantiation of
    the function template around it (``instantiations(function, count, depth)``) when ``texts`` (its kernel, grid,
    block...) or the function's code before it (a constant made of them) name one of its parameters, else [{}]. A
    type argument that differs between instantiations stays unbound (no configuration per type)."""
    f = scan.func_at(pos)
    names = scan.tparams.get(f[0], []) if f is not None else []
    read = " ".join((*texts, scan.text[f[0]:pos])) if names else ""
    if not any(n and re.search(rf"\b{n}\b", read) for n in names):
        return [{}]
    combos = instantiations(f[3], len(names), 0) or [()]
    mixed = {i for i in range(len(names)) if len({c[i] for c in combos if c and isinstance(c[i], str)}) > 1}
    combos = list(dict.fromkeys(tuple(None if i in mixed else v for i, v in enumerate(c)) for c in combos))
    return [{n: v for n, v in zip(names, c) if v is not None} for c in combos]


def instance_guards(bound: dict) -> dict:
    """The guards (``_Scan.guards``) a launch is read under in one instantiation: its integer template arguments."""
    return {n: ("in", (v,)) for n, v in bound.items() if isinstance(v, int)}


def instance_where(scan: _Scan, pos: int, bound: dict) -> str:
    """The name of a launch read under one instantiation of its function template: file:line, and the template
    arguments (``launch.cu:12 (kHeadDim=64)``). Host facts and host launches name a launch alike, so a
    configuration takes the facts of its own instantiation (``host_assume.at_launches``)."""
    where = scan.line(pos)
    return f"{where} ({', '.join(f'{n}={v}' for n, v in bound.items())})" if bound else where


def launches_of(hosts: dict, name: str, namespace: str = "") -> HostLaunches:
    """The launches of kernel ``name`` of ``namespace`` in ``host_launches``' answer: those that name it alone, and
    those that qualify it with its namespace (or a trailing part of it); a launch qualified with another namespace
    launches another kernel of the same name (``OneSweep::Scan`` is not ``DeviceRadixSort::Scan``). A kernel in no
    namespace takes every qualified launch of its name (the qualifier may be an alias)."""
    got = [h for k, h in hosts.items() if k == name or k.endswith("::" + name) and (
        not namespace or namespace == k[:-len(name) - 2] or namespace.endswith("::" + k[:-len(name) - 2]))]
    if len(got) <= 1:
        return got[0] if got else HostLaunches()
    out = HostLaunches()
    for h in got:
        out.launches += [replace(x, others=list(x.others)) for x in h.launches]
        out.unknown += h.unknown
        out.unknown_bounds += h.unknown_bounds
        out.unknown_values += h.unknown_values
        out.unknown_multiples += h.unknown_multiples
    _merge_shapes(out)
    return out


def host_launches(source: str, defines=None, path=None, kernels=None, configurations=True,
                  include_dirs=()) -> dict[str, HostLaunches]:
    """Kernel name -> its launches in host code: the file's own, and those of the files in its folder that include
    it with quotes (directly or through one other file there), so a kernel defined in a header is covered by the
    file that launches it. A launch is ``k<<<grid, block, ...>>>``, ``cudaLaunchKernel``/``cudaLaunchCooperative
    Kernel(k, grid, block, ...)`` or ``cudaLaunchKernelEx(&config, k, ...)`` (``config.blockDim`` assigned), where
    ``k`` may be a function pointer assigned kernels (or a function-pointer parameter, which takes the kernels the
    folder's calls pass), or the driver API's ``cuLaunchKernel(f, gx, gy, gz, bx, by,
    bz, ...)`` of a function ``cuModuleGetFunction`` looked up by the kernel's name (in any file of the folder). A block (and grid) is constant when its text evaluates with
    the file's macros (and those of its quoted includes, and ``-D`` values), enum constants, and the dim3 / integer
    variables of the launching function (or of file scope) that are only ever set to constants (``threads.x = 256``
    included); a variable set to several constants gives one shape per value. A launch whose block is not constant
    is listed in ``unknown``. The conditions around a launch narrow a name they compare with a constant: the
    ``case`` labels of a ``switch`` on it, ``if (name == C)`` and its ``else`` (``guards_at``). A CUDA graph kernel
    node (``params.func = (void *)k``) is a launch with the node's ``blockDim``/``gridDim``. Not followed: other path
    conditions (a variable set to two constants gives both shapes to every launch that reads it), values changed
    through a reference parameter. A parameter of the launching function takes the values its callers in the folder
    pass (unless a condition in the function tests it other than those around the launch); a launch in a host
    function template is read once per instantiation its calls in the folder name (a type argument that differs
    between them stays generic). A file of the folder that does not include this one but launches a kernel of it
    by name (declared there, not defined) counts for that kernel. ``kernels``: the names wanted; the files that include this
    one are read only when one of them is not launched here. A wanted kernel launched only in code an ``#ifdef X`` /
    ``#if defined(X)`` leaves out (another build configuration) takes the launches read with ``X`` defined, each
    saying so (``configurations``: whether to look); a wanted kernel launched nowhere else takes its launches in code
    ``#if 0`` leaves out (an earlier launch kept in the source), each saying so. ``include_dirs``: the user's ``-I``
    folders, where the scan finds the headers that define the macros the launches use."""
    path = Path(path) if path is not None else None
    folder = path.parent if path is not None else None
    texts: dict = {}

    def text_of(p):
        if p not in texts:
            try:
                texts[p] = p.read_text(errors="replace")
            except OSError:
                texts[p] = ""
        return texts[p]
    own = (source, path.name if path is not None else "<input>")
    sibling_list: list = []

    def siblings():  # the folder's other files, listed on first use
        if not sibling_list and path is not None and path.suffix in _HOST_SUFFIXES:
            sibling_list.extend(_siblings(path) or [None])
        return [p for p in sibling_list if p is not None]

    def everything():
        yield own
        yield from ((_text(p, key), os.path.basename(p)) for p, key in siblings())
    scans: dict = {}
    memo: dict = {}

    includer_env: dict = {}

    @lru_cache(maxsize=1)
    def own_includes() -> set:
        return {q.resolve() for q in included_by(path, own[0])}

    def scan_of(text, name):
        if name not in scans:
            # a file read with its includer's macros: a kernel header, or a launching file the folder's main.cu
            # includes after the header that defines its block sizes
            outer = {}
            if path is not None:
                for p in map(Path, _includers(path if text is own[0] else folder / name, siblings())):
                    if p not in includer_env:
                        includer_env[p] = _scan_file(text_of(p), p.name, folder, defines, include_dirs=include_dirs).env
                    outer.update(includer_env[p])
                if text is not own[0] and (folder / name).resolve() in own_includes():
                    outer.update(scan_of(*own).env)  # (a file the kernel's file includes: read with its macros)
            scans[name] = _scan_file(text, name, folder, defines, callers, outer, instantiations, include_dirs)
        return scans[name]

    def instantiations(function: str, count: int, depth: int) -> list | None:
        return template_instantiations(function, count, depth, everything, scan_of, memo)

    def callers(function: str, index: int, depth: int) -> list | None:
        """The values passed as parameter ``index`` of ``function`` by its calls in the folder; None when one is
        not a constant or there is no call."""
        if not function or depth > 4:
            return None
        if (function, index) not in memo:
            memo[(function, index)] = passed(function, index, depth)
        return memo[(function, index)]

    def passed(function: str, index: int, depth: int) -> list | None:
        call, out = re.compile(rf"\b{re.escape(function)}\s*(?:<[^<>;]*>)?\s*\("), []
        for text, name in everything():
            if function not in text:
                continue
            sc = scan_of(text, name)
            held, sc.guards = sc.guards, {}  # a caller's values hold whatever the launch's conditions are
            try:
                got = passed_in(sc, call, index, depth)
            finally:
                sc.guards = held
            if got is None:
                return None
            out += got
        return list(dict.fromkeys(out)) or None

    def passed_in(sc, call, index: int, depth: int) -> list | None:
        out = []
        for m in call.finditer(sc.text):
            if sc.func_at(m.start()) is None:
                continue  # its declaration or definition
            d, i = 1, m.end()
            while i < len(sc.text) and d:
                d += {"(": 1, ")": -1}.get(sc.text[i], 0)
                i += 1
            args = split_top(sc.text[m.end():i - 1])
            v = sc.shape_values(args[index], m.start(), depth) if index < len(args) else None
            if v is None:
                return None
            out += v
        return out
    out: dict = {}
    files = [(*own, False, None)]  # (text, name, driver API launches only, the only kernels read there or None)
    for text, name, driver_only, only in files:
        if text is own[0] and (kernels is None or not set(kernels) <= _launched(text)) and path is not None:
            files += launching_files(path, text, kernels, siblings(), text_of)
        if only is None and not any(k in text for k in _MARKERS) and not (
                text is own[0] and any(k in scan_of(text, name).text for k in _MARKERS)):
            continue  # (the file may launch through a header's macro: `CUDA_KERNEL_CALL(k, grid, block, ...)`)
        scan = scan_of(text, name)
        for callee, targs, grid, block, pos in scan.launches(driver_only):
            for bound in launch_instances(scan, pos, (callee, targs, grid, block), instantiations):
                types = {n: v for n, v in bound.items() if isinstance(v, str)}
                sub = (lambda x: re.sub(r"\b(" + "|".join(map(re.escape, types)) + r")\b", lambda m: types[m.group(1)],
                                        x)) if types else (lambda x: x)
                scan.guards = {**instance_guards(bound), **scan.guards_at(pos)}
                looked_at = scan.looked_up.get((pos, callee))
                if looked_at is not None:  # the conditions the driver API's function was looked up under hold too
                    scan.guards = {**scan.guards_at(looked_at), **scan.guards}
                base = scan.guards
                for kernel, held in scan.table_entries(callee, pos) or [(callee, {})]:
                    scan.guards = {**base, **held}  # a kernel stored in an array: as stored, and at its index
                    _record(out, scan, sub(kernel), sub(targs), grid, block, pos, only,
                            instance_where(scan, pos, bound))
            scan.guards = {}
    launched = {k.split("::")[-1] for k in out}
    missing = {k for k in kernels or () if k not in launched and k in _launched(source)} if configurations else ()
    for macro in list(dict.fromkeys(_IFDEF.findall(source)))[:_MAX_CHOICES] if missing else ():
        if macro in (defines or {}) or not missing:
            continue
        alt = host_launches(source, {**(defines or {}), macro: None}, path, sorted(missing), configurations=False,
                            include_dirs=include_dirs)
        for k in missing & set(alt):
            for h in alt[k].launches:
                h.where += f" (with -D{macro})"
            alt[k].unknown = [f"{u} (with -D{macro})" for u in alt[k].unknown]
            out[k] = alt[k]
        missing -= set(alt)
    unlaunched = sorted(k for k in kernels or () if k not in launched) if configurations else ()
    if unlaunched and any(IF_0_LINE.search(t) for t, *_ in files):  # (the files read for the launches above)
        # a kernel the build launches nowhere, launched in code `#if 0` leaves out (an earlier or alternative
        # launch kept in the source): that launch is the best word on the block it is written for
        # (its constant launches only: one whose block is not a constant, or no valid block, says nothing of it)
        alt = host_launches(source, {**(defines or {}), READ_IF_0: None}, path, unlaunched, configurations=False,
                            include_dirs=include_dirs)
        for k in set(unlaunched) & set(alt):
            for h in alt[k].launches:
                h.where += " (in code `#if 0` leaves out)"
            if alt[k].launches:
                out[k] = HostLaunches(launches=alt[k].launches)
    for entry in out.values():
        _merge_shapes(entry)
    return out


def _merge_shapes(entry: HostLaunches) -> None:
    """One configuration per (block, template arguments, tags, argument types): grids merged (unknown unless
    equal)."""
    merged: dict = {}
    for h in entry.launches:
        key = (h.block, tuple(h.targs), tuple(sorted(h.tags.items())), tuple(sorted(h.arg_types.items())))
        if key in merged and merged[key].grid != h.grid:
            merged[key].grid = (None, None, None)
        if key in merged:
            merged[key].others.append(h.where)
        merged.setdefault(key, h)
    entry.launches = list(merged.values())
