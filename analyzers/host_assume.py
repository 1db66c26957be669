"""Assumptions a kernel's launches in host code imply about its parameters, its grid and its block.

Host code sizes a grid from values it also passes to the kernel (``dim3 grid(width / block.x, height / block.y);
k<<<grid, block>>>(out, width, height)``), passes constants (``k<<<g, b>>>(p, 512)``), passes one value for two
parameters (``k<<<g, b>>>(dst, src, w, h, w)``: the pitch is the width) and launches under conditions (an enclosing
``if``, its ``else``, an earlier ``if (...) exit(1);`` or ``assert``). Each launch gives a conjunction of such facts
over the kernel's parameter names, ``gridDim`` and ``blockDim``; the kernel's assumption is their disjunction over
all of its launches, so it holds at every launch. A launch from which nothing can be read gives no assumption for
the kernel at all.

Read textually from the launches ``host_launch`` finds (``<<<>>>``, the runtime and driver launch calls with their
argument arrays; the file and the files of its folder that include it or load kernels by name). Host names are
replaced by the kernel parameter they are passed as; a host name not passed is followed through its one
initializing declaration in the launching function, or evaluated as a constant: literals, macros, enumerators,
``const`` names (an ``extern const`` from the file of the folder that defines it), and locals the launching function
never passes to another call (a reference parameter could change them). A wrapper that launches with its own
parameters (``void launch(dim3 g, dim3 b, int w)``) is read at each of its calls in the folder, its own constants
read in its file. A condition over constants alone is a fact only when it fails; a launch dimension that divides by a
kernel parameter is none. Helpers called in a grid expression are inlined when they are one ``return`` (or
a function-like macro). A condition whose names change between it and the launch is not a fact. Not followed:
loops' conditions, ``switch`` cases, wrappers of wrappers.
"""
from __future__ import annotations

import contextlib
import math
import os
import re
from dataclasses import replace
from functools import reduce
from math import gcd
from pathlib import Path

import z3

from kopt.errors import InputError

from . import host_launch as hl
from .assume import CALLS, parse, to_z3
from .includers import includers
from .launch import conjuncts, split_top

# the ceiling of a floating-point quotient of two integers (NPB's `ceil(double(work) / double(threadsPerBlock.x))`),
# each operand one name or field, at least one cast by `double(x)`/`(double)x`/`(double)(x)` (or float)
_OPERAND = r"(\(\s*(?:double|float)\s*\)\s*(?:\(\s*[\w.]+\s*\)|[\w.]+)|(?:double|float)\s*\(\s*[\w.]+\s*\)|[\w.]+)"
_CEIL_DIV = re.compile(rf"(?:std\s*::\s*)?\bceilf?\s*\(\s*{_OPERAND}\s*/\s*{_OPERAND}\s*\)")
_FLOAT_CAST = re.compile(r"\(\s*(?:double|float)\s*\)|\b(?:double|float)\s*(?=\()")


def _ceil_quotient(m) -> str:
    if not any(_FLOAT_CAST.match(x) for x in m.groups()):
        return m.group(0)  # an integer quotient: ceil of it is that quotient
    a, b = (_FLOAT_CAST.sub("", x).strip().strip("()").strip() for x in m.groups())
    return f"(({a}) + ({b}) - 1) / ({b})"


_CONSTANT_SUBSCRIPT = re.compile(r"(?<![\w.])([A-Za-z_]\w*)\s*\[\s*(\d+)\s*\]")  # `lws[1]`: an element by a constant index
_IDENT = re.compile(r"(?<![\w.])([A-Za-z_]\w*)(\s*\.\s*[xyz]\b)?(\s*\()?")
_LANGUAGE_CALLS = {n: CALLS[n] for n in ("min", "max")}  # the language's functions a host condition may call
_STD_CALL = re.compile(r"\bstd\s*::\s*(?=(?:min|max)\s*\()")
_CAST = re.compile(r"^\(\s*(?:const\s+)?(?:unsigned\s+|signed\s+)?(?:int|long|size_t|uint|unsigned|short|"
                   r"int32_t|uint32_t|int64_t|uint64_t|float|double)\s*\)\s*")
_RETURN_FN = re.compile(r"\b([A-Za-z_]\w*)\s*\(([^()]*)\)\s*(?:const\s*)?\{\s*return\s+([^;{}]+);\s*\}")
_C_INT = re.compile(r"\b(?:unsigned|signed|int|long|short|char|size_t|ssize_t|uint|u?int(?:8|16|32|64)_t|"
                    r"ptrdiff_t|bool)\b")
_MAX_TEXT = 400
_ACCESSOR_ARG = re.compile(r"([A-Za-z_]\w*)\s*\.\s*(?:packed_accessor(?:32|64)?|generic_packed_accessor|accessor)\s*"
                           r"<[^;]*>\s*\(\s*\)", re.S)
_SIZE_CALL = re.compile(r"\s*\.\s*size\s*\(\s*(\d+)\s*\)")


class _Unknown(Exception):
    """A host expression this module cannot translate."""


def _strip_casts(t: str) -> str:
    t = t.strip()
    while True:
        m = _CAST.match(t)
        if not m:
            return t
        t = t[m.end():].strip()


def _ternary(body: str) -> str:
    """C ``c ? a : b`` (at the top level of ``body``, parentheses stripped) as the expression language's
    ``(a if c else b)``; other text unchanged."""
    t = hl.unparenthesized(body)
    depth, q = 0, -1
    for i, ch in enumerate(t):
        depth += (ch == "(") - (ch == ")")
        if ch == "?" and depth == 0:
            q = i
            break
    if q < 0:
        return body
    depth = 0
    for j in range(q + 1, len(t)):
        depth += (t[j] == "(") - (t[j] == ")")
        if t[j] == ":" and depth == 0:
            return f"(({_ternary(t[q + 1:j])}) if ({t[:q]}) else ({_ternary(t[j + 1:])}))"
    return body


def _ternaries(text: str) -> str:
    """Every C conditional ``c ? a : b`` of ``text`` (each reaching to the brackets around it, as C's precedence
    has it) in the expression language's ``(a if c else b)``."""
    for _ in range(8):
        q = text.find("?")
        if q < 0:
            return text
        depth, best, at = 0, -1, -1
        for i, ch in enumerate(text):  # the most deeply bracketed `?`
            depth += (ch == "(") - (ch == ")")
            if ch == "?" and depth > best:
                best, at = depth, i
        lo = at
        d = 0
        while lo > 0:
            lo -= 1
            d += (text[lo] == ")") - (text[lo] == "(")
            if d < 0:
                break
        start = lo + 1 if d < 0 else 0
        end = hl.paren_end(text, lo) if d < 0 else len(text)
        if end < 0:
            return text
        d = 0
        for i in range(start, end):  # an argument of a call: up to the commas around it
            d += (text[i] == "(") - (text[i] == ")")
            if text[i] == "," and d == 0:
                if i < at:
                    start = i + 1
                else:
                    end = i
                    break
        inner = _ternary(text[start:end])
        if "?" in inner:
            return text  # a form not read (the caller then finds `?` and gives up)
        text = text[:start] + inner + text[end:]
    return text


def _statement_end(t: str, i: int) -> int:
    """The end of the statement that starts at ``i`` (a braced block, an if/else chain, or up to its ``;``)."""
    j = len(t) - len(t[i:].lstrip())
    if j < len(t) and t[j] == "{":
        return min(hl.block_end(t, j + 1) + 1, len(t))
    m = re.match(r"(?:if|for|while|switch)\s*\(", t[j:j + 20])
    if m:
        close = hl.paren_end(t, j + m.end() - 1)
        end = _statement_end(t, close + 1) if close > 0 else len(t)
        e = re.match(r"\s*else\b", t[end:end + 40]) if t[j:j + 2] == "if" else None
        return _statement_end(t, end + e.end()) if e else end
    depth = 0
    for k in range(j, len(t)):
        depth += (t[k] in "({") - (t[k] in ")}")
        if t[k] == ";" and depth <= 0:
            return k + 1
    return len(t)


def _leaves(branch: str) -> bool:
    """The branch (a statement or a braced block) always leaves the function: a ``return``, ``exit``, ``abort``
    or ``throw`` among its top-level statements."""
    b = branch.strip()
    if b.startswith("{"):
        b = b[1:-1]
    depth, start = 0, 0
    for i, ch in enumerate(b + ";"):
        depth += (ch in "({") - (ch in ")}")
        if (ch == ";" and depth == 0) or (ch == "}" and depth == 0):
            if re.match(r"\s*(?:return\b|throw\b|(?:std::)?(?:exit|abort|_Exit)\s*\()", b[start:i]):
                return True
            start = i + 1
    return False


# a host check that aborts when its condition fails: glog's CHECK / CHECK_LE, TORCH_CHECK, TORCH_INTERNAL_ASSERT,
# a project's XX_CHECK_LT, PADDLE_ENFORCE_EQ... (the comparison suffix names the operator between its first two
# arguments; otherwise the first argument is the condition, the rest a message)
_CHECK_MACRO = r"[A-Z0-9_]*?(?:CHECK|ASSERT|ENFORCE)(?:_MSG|M)?(?:_(?:EQ|NE|LT|LE|GT|GE))?"
_CHECK_OPS = {"EQ": "==", "NE": "!=", "LT": "<", "LE": "<=", "GT": ">", "GE": ">="}


def _checked(macro: str, args: str) -> str | None:
    """The condition an ``assert`` or check macro over ``args`` makes hold after it, or None (a check of a call's
    error code, ``CUDA_CHECK(cudaMalloc(...))``, says nothing of the values)."""
    if macro == "assert":
        return args
    parts = split_top(args)
    op = _CHECK_OPS.get(macro.rsplit("_", 1)[-1])
    if op is not None:
        return f"({parts[0]}) {op} ({parts[1]})" if len(parts) >= 2 else None
    if not parts or not re.search(r"[<>=!]|&&|\|\|", parts[0]):
        return None
    return parts[0]


class _Launch:
    """One launch: its scan, position, argument texts and the kernel parameters they are passed as."""

    def __init__(self, scan, pos: int, args: list, params: list, helpers: dict, block_text: str,
                 value_macros: frozenset = frozenset()):
        self.scan, self.pos, self.params, self.helpers = scan, pos, params, helpers
        self.value_macros = value_macros  # function-like macros that cannot change an argument
        self.args = [_strip_casts(a) for a in args]
        self.passed = {}  # host name -> kernel parameter
        self.accessors = {}  # host tensor -> the kernel's accessor parameter (`t.packed_accessor32<...>()`)
        for a, (p, _) in zip(self.args, params):
            if re.fullmatch(r"[A-Za-z_]\w*(?:\.[xyz])?", a):
                self.passed.setdefault(a, p)
            acc = _ACCESSOR_ARG.fullmatch(a)
            if acc:
                self.accessors.setdefault(acc.group(1), p)
        b = block_text.strip()
        whole = re.fullmatch(r"dim3\(\s*([A-Za-z_]\w*)\.x\s*,\s*\1\.y\s*,\s*\1\.z\s*\)", b)  # driver API form
        self.block_name = whole.group(1) if whole else b if re.fullmatch(r"[A-Za-z_]\w*", b) else None
        self.end = _statement_end(scan.text, pos)
        self.folder = None  # the _Folder, for facts other files state (cudaMallocPitch)
        # host names the launch's grid or block is made of (`dim3(32, block_y)`): what an expression that names
        # them says about the launch when their own values cannot be read (set by ``facts``)
        self.dim_names: dict = {}

    def constant(self, name: str):
        """The constant values of a host name at the launch, unless the launching function passes it to a call
        (a reference parameter may change it where the scan does not look)."""
        v = self.scan.scalars(name, self.pos)
        if v is None or not all(isinstance(x, int) for x in v):
            return None
        base = name.split(".")[0].split("[")[0]
        if base in self.scan.env or base in self.scan.enums or _const_decl(self.scan, base):
            return v
        f = self.scan.func_at(self.pos)
        if f is not None and base in f[2]:
            return v  # a parameter: the constants its callers pass (``_Folder.callers`` checks them)
        return None if self.escapes(base) else v

    def equal_parameter(self, name: str, param: str):
        """An earlier integer kernel parameter passed the same value as ``name``: a host name one statement sets
        alike (``m = n = k = size;``), or a parameter of the launching function every call of it passes the same
        value as (``_Folder.same_arguments``); else None."""
        f = self.scan.func_at(self.pos)
        for b, (q, ty) in zip(self.args, self.params):
            if q == param:
                return None
            if not (_integral(ty) and self.passed.get(b) == q and b != name):
                continue
            if _set_alike(self.scan, b, name, self.pos) or (
                    f is not None and self.folder is not None and name in f[2] and b in f[2] and
                    not self.scan.scoped_events(name, self.pos) and not self.scan.scoped_events(b, self.pos) and
                    self.folder.same_arguments(f[3], f[2].index(b), f[2].index(name), 0)):
                return q
        return None

    def copied_to(self, name: str):
        """The integer kernel parameter passed a copy of the host name ``name`` (``int dim = num_nodes;``, ``dim``
        passed, the grid sized from ``num_nodes``): the copy only its declaration sets, ``name`` neither set after it
        nor handed to a call that could change it. Else None."""
        for b, q in self.passed.items():
            ev = self.scan.scoped_events(b, self.pos)
            if "." in b or len(ev) != 1 or ev[0][1] != "decl" or (ev[0][2] or "").strip() != name or \
                    not _integral(dict(self.params)[q]) or not _set_once(self.scan, b, self.pos):
                continue
            if not any(ev[0][0] < at < self.pos for at, *_ in self.scan.scoped_events(name, self.pos)) and \
                    not self.escapes(name):
                return q
        return None

    def callers_values(self, name: str):
        """The constants every caller passes for ``name``, a parameter of the launching function it never sets, even
        where a condition of the function tests it (`if (M >= 128)` choosing between launches): the values reaching
        the launch are among them (``constant`` leaves such a parameter unknown, as a launch's shapes must not
        take values that do not reach it)."""
        f = self.scan.func_at(self.pos)
        if f is None or name not in f[2] or self.scan.callers is None or self.scan.scoped_events(name, self.pos):
            return None
        v = self.scan.callers(f[3], f[2].index(name), 1)
        return v if v and all(isinstance(x, int) for x in v) else None

    def escapes(self, name: str) -> bool:
        """The launching function passes ``name`` to a call other than the launch, where a reference parameter may
        change it (never a ``const`` local)."""
        f = self.scan.func_at(self.pos)
        if f is None or self._const_local(name):
            return False
        key = ("escapes", f[0], name, self.value_macros)  # asked for each launch: a host file may have hundreds
        if key not in self.scan.memo:
            self.scan.memo[key] = self._passed_by_reference(f, name)
        return any(not self.pos <= at < self.end for at in self.scan.memo[key])

    def _passed_by_reference(self, f, name: str) -> list:
        """Where function ``f`` passes ``name`` to a call that may change it (a launch's own arguments aside)."""
        t, out = self.scan.text, []
        for m in re.finditer(rf"[(,]\s*{re.escape(name)}\s*[,)>]", t[f[0]:f[1]]):
            at, depth = f[0] + m.start(), 0
            start = at
            opened = t.rfind("<<<", f[0], at)
            if opened >= 0 and t.find(">>>", opened, at) < 0:
                continue  # a launch's grid, block or stream: passed by value
            while at > f[0]:  # the call's opening parenthesis, then its callee
                ch = t[at]
                if ch == ")":
                    depth += 1
                elif ch == "(":
                    if depth == 0:
                        break
                    depth -= 1
                elif ch in ";{}" and depth == 0:
                    break  # no call holds it: a declaration's list (`int M, N, K;`)
                at -= 1
            if t[at] != "(":
                continue
            head = t[max(f[0], at - 120):at]
            if not re.search(r"[\w>\])]\s*$", head):
                continue  # grouping parentheses (`2 * (n)`): read, not passed
            if re.search(r"(?:\bdim3\s+(?:[A-Za-z_]\w*\s*,\s*)*[A-Za-z_]\w*|\bdim3|>>>|\b(?:min|max|sizeof|"
                         r"if|while|for|switch|return|\w*printf|cudaLaunch\w*|cuLaunch\w*)(?:\s*<[^<>;]*>)?)\s*$", head) or \
                    _C_API.search(head) or _VALUE_CAST.search(head):
                continue
            if self._by_value(re.search(r"([A-Za-z_]\w*)\s*(?:<[^<>;]*>)?\s*$", head), t[at + 1:f[0] + m.start()]):
                continue
            out.append(start)
        return out

    def _by_value(self, callee, before: str) -> bool:
        """The call passes the name to a function of the file whose parameter there is not a reference (the
        argument's position: the commas of ``before``, the call's text up to it)."""
        if callee is None:
            return False
        return self._param_by_value(callee.group(1), len(split_top(before)) if before.strip() else 0,
                                    split_top(before), 0)

    def _param_by_value(self, callee: str, index: int, args: list, depth: int) -> bool:
        """Parameter ``index`` of every definition of ``callee`` (the file's, or its quoted headers') is not a
        reference. A pack of forwarding references (``Args&&... args``, a benchmark harness's) that the function
        only forwards to a callable it takes (``kernel(std::forward<Args>(args)...)``) is that callable's parameter,
        when the call names it (``args``: the call's arguments before the one asked about)."""
        if callee in self.value_macros:
            return True  # a macro that only reads its arguments (`INDX(i, j, ld)`)
        defs = [(self.scan.text, g[0], g[2].text) for g in self.scan.funcs if g[3] == callee]
        if not defs:  # a helper its quoted headers declare (`float* make_random_float(size_t n)`)
            decl = re.compile(rf"[\w*&>]\s+{re.escape(callee)}\s*\(([^();{{}}]*)\)\s*[{{;]")
            defs = [(h, m.end() - 1 if h[m.end() - 1] == "{" else -1, m.group(1)) for h in self.scan.headers
                    if callee in h for m in decl.finditer(h)]
        if not defs or depth > 2:
            return False
        for text, body_at, ptext in defs:
            ps = split_top(ptext)
            pack = _FORWARDED_PACK.search(ps[-1]) if ps else None
            if index < len(ps) and not (pack and index == len(ps) - 1):
                if "&" in ps[index]:
                    return False
                continue
            if not pack or body_at < 0 or len(args) < len(ps) - 1:
                return False
            body = text[body_at:hl.block_end(text, body_at + 1)]
            fwd = re.search(rf"\b([A-Za-z_]\w*)\s*\(\s*std\s*::\s*forward\s*<\s*{pack.group(1)}\s*>\s*\(\s*"
                            rf"{pack.group(2)}\s*\)\s*\.\.\.\s*\)", body)
            uses = len(re.findall(rf"\b{pack.group(2)}\b", body))
            names = hl._Params(ptext).names
            if fwd is None or uses != 1 or fwd.group(1) not in names:
                return False  # the pack is used otherwise: its references may be written
            target = args[names.index(fwd.group(1))].strip()
            if not re.fullmatch(r"[A-Za-z_]\w*", target) or \
                    not self._param_by_value(target, index - (len(ps) - 1), [], depth + 1):
                return False
        return True

    def _const_local(self, name: str) -> bool:
        """The declaration of ``name`` in scope at the launch, in the launching function, is ``const``."""
        for at, kind, _ in self.scan.scoped_events(name, self.pos):
            head = _decl_head(self.scan.text, at)
            if kind in ("decl", "dim3") and re.search(r"\bconst(?:expr)?\b", head) and not re.search(r"[*&]", head):
                return True  # not a pointer or a reference, which a const could qualify the target of
        return False

    def local_init(self, name: str):
        """The initializer text ``name`` holds at the launch, in the launching function: its declaration's when it
        is set nowhere else there, or else the last declaration or assignment before the launch when that runs
        whenever the launch does (not under an ``if``/loop the launch is outside of) and, with the launch in a
        loop that sets ``name`` again after it, on every pass (the same block as the launch: ``n = blk;
        k<<<n, b>>>(...)`` in a loop body)."""
        ev = self.scan.scoped_events(name, self.pos)
        before = [e for e in ev if e[0] < self.pos]
        if not before or before[-1][2] is None or self.escapes(name):
            return None
        at, kind, value = before[-1]
        if kind not in ("decl", "dim3", "set"):
            return None
        if len(ev) == 1 and kind != "set":
            return value
        if not self._always_before(at):
            return None
        if len(ev) > len(before):  # set again after the launch: the launch must be in no loop, or in the set's block
            sc, f = self.scan, self.scan.func_at(self.pos)
            if sc._in_loop(f, self.pos) and (hl._LOOP_HEAD.match(sc._head(self.pos)) or
                                             sc._open_blocks(f, at)[-1:] != sc._open_blocks(f, self.pos)[-1:]):
                return None
        return value

    def _always_before(self, at: int) -> bool:
        """The statement at ``at`` runs, in the launching function, whenever the launch does (not under an
        ``if``/loop the launch is outside of)."""
        t = self.scan.text
        f = self.scan.func_at(self.pos)
        head = t[max(t.rfind(";", 0, at), t.rfind("{", 0, at), t.rfind("}", 0, at)) + 1:at]
        return f is not None and f[0] <= at < self.pos and hl.block_end(t, at) >= self.pos and \
            not re.search(r"\b(?:if|for|while|switch|else|do)\b", head)

    def _fields(self, name: str) -> list:
        """A ``dim3`` set field by field before the launch (``b.x = hsize; b.y = 1;``): its components, a field
        never set being 1 (or its declared value), one set once, always, before the launch that value, and one set
        otherwise unknown ("?"); raises _Unknown when it is set whole."""
        ev = self.scan.scoped_events(name, self.pos)
        decl = [e for e in ev if e[1] == "dim3"]
        if len(decl) != 1 or decl[0][0] >= self.pos or any(e[1] == "set" for e in ev):
            raise _Unknown(name)
        init = (decl[0][2] or "").strip()
        given = re.fullmatch(r"(?:dim3\s*[({]|\{)(.*)[)}]", init, re.S) if init else None
        parts = [p for p in split_top(given.group(1)) if p.strip()] if given else []
        if len(parts) > 3 or not given and not re.fullmatch(r"(?:dim3\s*(?:\(\s*\)|\{\s*\})?)?", init):
            raise _Unknown(name)
        declared = (parts + ["1"] * 3)[:3]  # `dim3 grid(q, b, h); grid.x = ...`: y and z stay as declared
        out = []
        # (a field set after the launch matters only when a loop takes the launch again: `grid.y = 1;` for the
        # next launch does not change this one's)
        again = self.scan._in_loop(self.scan.func_at(self.pos), self.pos)
        for i, f in enumerate("xyz"):
            sets = [e for e in ev if e[1] == f"field:{f}" and (again or e[0] < self.pos)]
            if not sets:
                out.append(declared[i])
            elif len(sets) == 1 and sets[0][2] and self._always_before(sets[0][0]):
                out.append(sets[0][2])
            elif not again and sets[-1][2] and self._always_before(sets[-1][0]) and not re.search(
                    r"\b(?:case|default|break|return|goto)\b", self.scan.text[sets[-1][0]:self.pos]):
                out.append(sets[-1][2])  # set again on the launch's own path (`case 64: grid.z = H / 16;`)
            else:
                out.append("?")
        return out

    def translate(self, text: str, depth: int = 0, choices: dict | None = None) -> str:
        """``text`` over kernel parameter names, blockDim and constants; raises _Unknown. With ``choices``, a name
        of a few constant values (`Bc = (kHeadDim < 128) ? 64 : 32` in a launcher template) is written as a
        placeholder that ``choices`` maps to them (``either``)."""
        if depth > 3 or len(text) > _MAX_TEXT:
            raise _Unknown(text)
        text = _CEIL_DIV.sub(_ceil_quotient, text)  # `ceil(double(n) / double(b))`: a ceiling quotient
        text = _ternaries(_strip_casts(_STD_CALL.sub("", text)))
        if "[" in text:  # an element set on its own by a constant (NPB's `amount_of_threads[1] = 5;`)
            text = _CONSTANT_SUBSCRIPT.sub(lambda m: str(v[0]) if (v := self.constant(f"{m.group(1)}[{m.group(2)}]")) is not None
                                and len(v) == 1 else m.group(0), text)
        if re.search(r"[\[\]\"'&|^~?]|->|\bsizeof\b|<<|>>", text.replace("&&", "").replace("||", "")):
            raise _Unknown(text)
        out, last = [], 0
        for m in _IDENT.finditer(text):
            if m.start() < last:
                continue  # inside a call already translated
            name, field, call = m.group(1), m.group(2), m.group(3)
            out.append(text[last:m.start()])
            last = m.end()
            if name in ("if", "else", "and", "or", "not") and not field:
                out.append(name)  # the expression language's words (conditionals read above)
                last = m.end(1)
                continue
            if call:
                out.append(self._call(name, text, m, depth, choices))
                last = hl.paren_end(text, m.end() - 1) + 1
                continue
            if field:
                f = field.strip()[-1]
                if f"{name}.{f}" in self.passed:
                    out.append(self.passed[f"{name}.{f}"])
                    continue
                if name == self.block_name:
                    out.append(f"blockDim.{f}")
                    continue
                v = self.constant(f"{name}.{f}")
                if v is not None and len(v) == 1:
                    out.append(str(v[0]))
                    continue
                init = self.local_init(name)
                if init is None or not init.startswith("dim3"):
                    raise _Unknown(text)
                out.append(f"({self.translate(self.dims(name)['xyz'.index(f)], depth + 1)})")
                continue
            size = _SIZE_CALL.match(text, m.end()) if name in self.accessors and not field else None
            if size:  # `tokens.size(3)` of a tensor passed as an accessor: that accessor's size
                out.append(f"{self.accessors[name]}.size{size.group(1)}")
                last = size.end()
                continue
            if name in self.passed:
                out.append(self.passed[name])
                continue
            v = self.constant(name)
            if v is not None and len(v) == 1:
                out.append(str(v[0]))
                continue
            if v is not None and choices is not None and len(v) <= hl._MAX_CHOICES:
                out.append(f"__either_{name}")
                choices[f"__either_{name}"] = v
                continue
            copy = self.copied_to(name)
            if copy is not None:
                out.append(copy)
                continue
            init = self.local_init(name)
            try:
                if init is None or init.startswith("dim3"):
                    raise _Unknown(name)
                out.append(f"({self.translate(init, depth + 1, choices)})")
            except _Unknown:
                if name not in self.dim_names:
                    raise
                out.append(self.dim_names[name])  # `ceil_div(n, block_y)` with `dim3(32, block_y)`: blockDim.y
        out.append(text[last:])
        return "".join(out)

    def multiple(self, text: str, depth: int = 0) -> int:
        """A constant the host value ``text`` is always a multiple of (1 when none is known): a product with a
        constant factor (``numk * 1024``, ``block_length * ((n / block_length) + ...)``), through the locals that
        hold it."""
        t = hl.unparenthesized(_strip_casts(text))
        if depth > 3 or not t:
            return 1
        top, inner = t, None
        while inner != top:  # the text outside parentheses (innermost pairs replaced first)
            inner, top = top, re.sub(r"\([^()]*\)", "_", top)
        if re.search(r"[-+/%?:<>&|=^!~\[]", top.replace("::", "")):
            return 1  # a sum, a quotient, a comparison...: only a product is read
        factors = split_top(t, "*")
        if len(factors) > 1:
            out = 1
            for f in factors:
                out *= self.multiple(f, depth + 1)
            return out
        if re.fullmatch(r"\d+[uUlL]*", t):
            return int(re.sub(r"[uUlL]", "", t))
        if re.fullmatch(r"[A-Za-z_]\w*", t):
            v = self.constant(t)
            if v is not None:
                return abs(v[0]) if len(v) == 1 and v[0] else 1
            init = self.local_init(t)
            if init is not None:
                return self.multiple(init, depth + 1)
            scaled = self._scaled_last(t)
            if scaled is not None:
                return self.multiple(scaled, depth + 1)
            return self._passed_multiple(t, depth)
        return 1

    def _passed_multiple(self, name: str, depth: int) -> int:
        """For a parameter the launching function never sets: the constant every call of the function in the
        folder passes a multiple of (``do_run(..., num_paths)`` after ``num_paths *= 1024``); 1 when none."""
        f = self.scan.func_at(self.pos)
        if f is None or name not in f[2] or self.scan.scoped_events(name, self.pos) or self.folder is None or \
                depth > 2 or not f[3]:
            return 1
        key = ("passed_multiple", self.scan.name, f[0], name, depth, self.folder.guards_key())
        if key not in self.folder.memo:  # the same for every launch of the function
            self.folder.memo[key] = self._callers_multiple(f, name, depth)
        return self.folder.memo[key]

    def _callers_multiple(self, f, name: str, depth: int) -> int:
        index, out = f[2].index(name), []
        for text, fname in self.folder.files():
            if f[3] not in text:
                continue
            sc = self.folder.scan(text, fname)
            for m in re.finditer(rf"\b{re.escape(f[3])}\s*\(", sc.text):
                if sc.func_at(m.start()) is None or (sc is self.scan and f[0] <= m.start() < f[1]):
                    continue  # its declaration or definition, or a recursive call
                args = hl._call_args(sc.text, m.end())
                if index >= len(args):
                    return 1
                at = _Launch(sc, m.start(), [], [], self.helpers, "", self.value_macros)
                at.folder = self.folder
                out.append(at.multiple(args[index], depth + 1))
                if out[-1] == 1:
                    return 1
        return reduce(gcd, out) if out else 1

    def _scaled_last(self, name: str) -> str | None:
        """``C`` when the last update of ``name`` before the launch is ``name *= C`` (``name = name * C``), run
        whenever the launch is: whatever ``name`` held, it is then a multiple of ``C`` (``num_paths *= 1024``)."""
        before = [e for e in self.scan.scoped_events(name, self.pos) if e[0] < self.pos]
        if not before or before[-1][1] != "set" or not self._always_before(before[-1][0]) or self.escapes(name):
            return None
        m = re.match(rf"{re.escape(name)}\s*(?:\*=\s*|=\s*{re.escape(name)}\s*\*\s*)([^;]+);",
                     self.scan.text[before[-1][0]:before[-1][0] + 200])
        return m.group(1).strip() if m else None

    def _call(self, name: str, text: str, m, depth: int, choices: dict | None = None) -> str:
        close = hl.paren_end(text, m.end() - 1)
        if close < 0 or (name not in self.helpers and name not in _LANGUAGE_CALLS):
            raise _Unknown(name)
        actuals = [self.translate(a, depth + 1, choices) for a in split_top(text[m.end():close])]
        if name not in self.helpers:  # `max(Br, Bc)`, `std::min(a, b)`: the assumption language's own
            if len(actuals) != _LANGUAGE_CALLS[name]:
                raise _Unknown(name)
            return f"{name}({', '.join(actuals)})"
        formals, body = self.helpers[name]
        if len(actuals) != len(formals):
            raise _Unknown(name)
        sub = dict(zip(formals, actuals))
        return "(" + re.sub(r"\b[A-Za-z_]\w*\b", lambda x: f"({sub[x.group(0)]})" if x.group(0) in sub
                            else x.group(0), body) + ")"

    def dims(self, grid_text: str, depth: int = 0) -> list:
        """A grid's or block's components as texts (``["width / 8", "height / 8", "1"]``); raises _Unknown."""
        g = _strip_casts(grid_text)
        if re.fullmatch(r"[A-Za-z_]\w*", g):
            if g in self.passed:
                if any(p == self.passed[g] and _integral(ty) for p, ty in self.params):
                    return [g, "1", "1"]  # a count the kernel is passed too (`k<<<blocks, b>>>(..., blocks)`)
                raise _Unknown(g)
            if self.local_init(g) is None and self._scalar_parameter(g):
                return [g, "1", "1"]  # an integer the launching function is given: a 1-D grid or block
            fields = [e for e in self.scan.scoped_events(g, self.pos) if e[1].startswith("field:")]
            if fields:
                return self._fields(g)
            g = self.local_init(g) or ""
            if re.fullmatch(r"[A-Za-z_]\w*", g.strip()):  # a copy (``dim3 c = b;``): b's components, not (b, 1, 1)
                if depth >= 3:
                    raise _Unknown(g)
                if any(p == self.passed.get(g.strip()) and _integral(ty) for p, ty in self.params):
                    return [g.strip(), "1", "1"]  # an integer the kernel is passed too (``n = blk; k<<<n, b>>>(blk)``)
                return self.dims(g.strip(), depth + 1)
        inner = re.fullmatch(r"(?:dim3\s*[({]|\{)(.*)[)}]", g, re.S)  # dim3(...), dim3{...} or a bare {...}
        if inner:
            parts = [p for p in split_top(inner.group(1)) if p.strip()]
            return (parts + ["1"] * 3)[:3] if len(parts) <= 3 else []
        if not g or hl._ELEMENT.fullmatch(g):
            raise _Unknown(grid_text)  # (an array's element may be a dim3 or a count: its components are unknown)
        call = re.match(r"\s*(?:[A-Za-z_]\w*\s*::\s*)*([A-Za-z_]\w*)\s*\(", g)
        if call and self._returns_dim3(call.group(1)):
            raise _Unknown(grid_text)  # `NumBlocks(1, n)` builds a whole dim3 (`grid.y = n`): not a 1-D count
        return [g, "1", "1"]

    def _integer_local(self, name: str) -> bool:
        """``name`` is a local of the launching function declared with an integer type (a 1-D grid or block)."""
        if not re.fullmatch(r"[A-Za-z_]\w*", name):
            return False
        ev = self.scan.scoped_events(name, self.pos)
        decl = [e for e in ev if e[1] in ("decl", "dim3")]
        return len(decl) == 1 and decl[0][1] == "decl" and bool(re.search(
            r"\b(?:int|long|short|unsigned|size_t|u?int(?:32|64)_t)\s*$", _decl_head(self.scan.text, decl[0][0])))

    def _returns_dim3(self, name: str) -> bool:
        """A function the host texts define or declare returning a ``dim3`` (or ``uint3``)."""
        pattern = re.compile(rf"\b(?:dim3|uint3)\s+(?:[A-Za-z_]\w*\s*::\s*)*{re.escape(name)}\s*\(")
        return any(name in t and pattern.search(t) for t in (self.scan.text, *getattr(self.scan, "headers", ())))

    def _divides_by_parameter(self, expr: str) -> bool:
        """``expr`` divides by (or takes a remainder by) a kernel parameter (``(N / size) * size / 1024``): as a fact
        on a launch dimension it costs the solver a division circuit in every query of the kernel (bit-vector
        queries blast it), more than the grid's extent tells a check; such a fact is left out (the assumption only
        weakens)."""
        names = {p for p, _ in self.params}
        for m in re.finditer(r"[/%]\s*", expr):
            rest = expr[m.end():]
            operand = rest[:hl.paren_end(rest, 0) + 1] if rest.startswith("(") else re.match(r"[\w.]*", rest).group(0)
            if set(re.findall(r"[A-Za-z_]\w*", operand)) & names:
                return True
        return False

    def _passed_alike(self, comp: str) -> str | None:
        """The integer kernel parameter passed the same expression as launch dimension ``comp``, of host names
        nothing changes before the launch (``_set_once``); else None."""
        text = " ".join(_strip_casts(comp).split())
        for a, (p, ty) in zip(self.args, self.params):
            if _integral(ty) and " ".join(a.split()) == text and all(
                    _set_once(self.scan, n, self.pos) for n in set(re.findall(r"(?<![\w.])[A-Za-z_]\w*", text))):
                return p
        return None

    def _known_factors(self, dim: str, comp: str) -> list:
        """For a dimension that is a product with unknown factors (`dim3 grid(batch * heads)`, `batch` unknown here):
        each factor that is known divides it and is not zero (a launch's dimension is at least 1, so no factor of
        it is 0)."""
        factors = split_top(comp, "*")
        if len(factors) < 2 or not all(re.fullmatch(r"\s*(?:[A-Za-z_][\w.]*|\d+|\(.*\))\s*", x, re.S) for x in factors):
            return []  # not a plain product (`a * b / c`: b / c is no factor)
        out = []
        for factor in factors:
            with contextlib.suppress(_Unknown):
                expr = self.translate(factor).strip()
                if not expr.isdigit():
                    out.append(f"({expr}) != 0 and {dim} % ({expr}) == 0")
        return out

    def _scalar_parameter(self, name: str) -> bool:
        """``name`` is a parameter of the launching function, or of the function template it is in, declared with
        an integer type (not a dim3): `template <int block_size> void launch(...) { k<<<g, block_size>>>(); }`."""
        f = self.scan.func_at(self.pos)
        if f is None:
            return False
        if name in f[2]:
            decl = split_top(f[2].text)[f[2].index(name)]
        elif name in self.scan.tparams.get(f[0], ()):
            decl = self.scan.tparam_decls[f[0]][self.scan.tparams[f[0]].index(name)]
        else:
            return False
        return _integral(re.sub(rf"\b{re.escape(name)}\b.*", "", decl, flags=re.S))

    def path_conditions(self) -> list:
        """The conditions that hold at the launch: of the ``if`` statements around it (negated in their ``else``
        branch) and of the ``assert`` statements before it in the blocks that contain it, as C texts."""
        f = self.scan.func_at(self.pos)
        if f is None:
            return []
        t, out = self.scan.text, []
        for m in re.finditer(rf"\b(if|assert|for|while|{_CHECK_MACRO})\s*\(", t[f[0]:self.pos]):
            start = f[0] + m.end() - 1
            close = hl.paren_end(t, start)
            if close < 0 or close > self.pos:
                continue
            if m.group(1) in ("for", "while"):
                out += self._loop_conditions(m.group(1), t[start + 1:close], close)
                continue
            cond = " ".join(t[start + 1:close].split())
            if m.group(1) != "if":  # assert(c), CHECK(c, "msg"), CHECK_LE(a, b): holds past it (else it aborts)
                cond = _checked(m.group(1), cond)
                if cond and hl.block_end(t, f[0] + m.start()) > self.pos and not self.changed(cond, close):
                    out.append(cond)
                continue
            if self.changed(cond, close):
                continue
            then_end = _statement_end(t, close + 1)
            if close < self.pos < then_end:
                out.append(cond)
                continue
            rest = t[then_end:then_end + 40]
            e = re.match(r"\s*else\b", rest)
            if e and then_end < self.pos < _statement_end(t, then_end + e.end()):
                out.append(f"!({cond})")
            elif not e and then_end < self.pos and hl.block_end(t, f[0] + m.start()) > self.pos and \
                    _leaves(t[close + 1:then_end]):
                out.append(f"!({cond})")  # an early exit: past it, the condition is false
        return out

    def _loop_conditions(self, kind: str, head: str, close: int) -> list:
        """What a ``for``/``while`` loop around the launch says there (``close``: its head's ``)``): its test, when
        no name of it changes in the body before the launch, and for a ``for`` whose variable only its step
        changes, by a constant in one direction, the variable's start as a bound (``for (b = 1; b <= w; b++)``:
        ``b >= 1`` and ``b <= w``)."""
        t = self.scan.text
        if not close < self.pos < _statement_end(t, close + 1):
            return []  # the launch is past the loop (its test is false there, or a break left it)
        parts = [head] if kind == "while" else split_top(head, ";")
        if len(parts) != (1 if kind == "while" else 3):
            return []
        cond = " ".join((parts[0] if kind == "while" else parts[1]).split())
        out = [cond] if cond and len(split_top(cond)) == 1 and not self.changed(cond, close) else []
        if kind == "for":
            init = re.fullmatch(r"\s*(?:(?:const\s+)?[A-Za-z_][\w:]*(?:\s+[A-Za-z_]\w*)*\s+)?([A-Za-z_]\w*)\s*=\s*([^,;]+)",
                                parts[0])
            var = init.group(1) if init else None
            step = " ".join(parts[2].split())
            up = var and re.fullmatch(rf"(?:\+\+\s*{var}|{var}\s*\+\+|{var}\s*\+=\s*\d+)", step)
            down = var and re.fullmatch(rf"(?:--\s*{var}|{var}\s*--|{var}\s*-=\s*\d+)", step)
            body_end = _statement_end(t, close + 1)
            if (up or down) and not any(close < at < body_end for at, _, _ in self.scan.events_of(var)) and \
                    not self.changed(init.group(2), close):
                out.append(f"{var} {'>=' if up else '<='} ({init.group(2).strip()})")
        return out

    def changed(self, cond: str, since: int) -> bool:
        """A name of ``cond`` is assigned (or passed by address) between ``since`` and the launch."""
        for name in set(re.findall(r"(?<![\w.])[A-Za-z_]\w*", cond)):
            if any(since < at < self.pos and kind != "enum" for at, kind, _ in self.scan.events_of(name)):
                return True
        return False

    def facts(self, grid_text: str, block_text: str) -> list:
        """What this launch says, as expression texts over the kernel's parameters and launch dimensions."""
        out = []
        sizes = set()  # the block's constant sizes
        try:
            comps = self.dims(block_text)
        except _Unknown:
            comps = [block_text]  # a macro or constant: one size
        for comp in comps:
            with contextlib.suppress(_Unknown):
                v = self.translate(comp).strip()
                if v.isdigit() and int(v) > 1:
                    sizes.add(int(v))
        for what, text in (("blockDim", block_text), ("gridDim", grid_text)):
            if self._integer_local(text.strip()):  # `k<<<blocks, threads>>>` with `int threads` set twice
                self.dim_names.setdefault(text.strip(), f"{what}.x")
            with contextlib.suppress(_Unknown):
                for f, comp in zip("xyz", self.dims(text)):
                    if re.fullmatch(r"[A-Za-z_]\w*", comp.strip()) and comp.strip() not in self.passed:
                        self.dim_names.setdefault(comp.strip(), f"{what}.{f}")
                        # and the name it copies (`int tpb_x = tpb; dim3 block(tpb_x, 1);`: tpb is blockDim.x)
                        init = (self.local_init(comp.strip()) or "").strip()
                        if re.fullmatch(r"[A-Za-z_]\w*", init) and init not in self.passed and \
                                _set_once(self.scan, comp.strip(), self.pos) and _set_once(self.scan, init, self.pos):
                            self.dim_names.setdefault(init, f"{what}.{f}")
        for what, text in (("gridDim", grid_text), ("blockDim", block_text)):
            try:
                comps = self.dims(text)
            except _Unknown:
                continue
            for f, comp in zip("xyz", comps):
                try:
                    expr = self.translate(comp)
                except _Unknown:
                    # unknown, but the same host value as an earlier component: `dim3 block(t, t)` is square
                    # (not two fields each set in several places, "?": those may differ)
                    same = next((g for g, c in zip("xyz", comps) if g < f and " ".join(c.split()) == " ".join(
                        comp.split())), None) if comp.strip() != "?" else None
                    if same is not None:
                        out.append(f"{what}.{f} == {what}.{same}")
                    twin = self._passed_alike(comp)
                    if twin is not None:  # `dim3 block(hs / 8, 16)` launching `k<<<g, block>>>(hs / 8)`
                        out.append(f"{what}.{f} == {twin}")
                    out += self._known_factors(f"{what}.{f}", comp)
                    continue
                if expr.strip().strip("()") != f"{what}.{f}" and not self._divides_by_parameter(expr):
                    out.append(f"{what}.{f} == {expr}")
        for a, (p, ty) in zip(self.args, self.params):
            if not _integral(ty):
                continue
            if self.passed.get(a) == p:  # the host name this parameter stands for: its value, if known
                v = self.constant(a)
                if v is None:
                    v = self.callers_values(a)
                twin = self.equal_parameter(a, p) if v else None
                if twin is not None:
                    # every caller passes one value for both (`m = n = k = size`); only beside their known values:
                    # a relation alone would end the presumptions kopt makes of a parameter (a stride covers its row)
                    out.append(f"{p} == {twin}")
                if v is not None and len(v) <= hl._MAX_CHOICES:
                    out.append("(" + " or ".join(f"{p} == {x}" for x in v) + ")")
                    continue
                if v:  # many values (a benchmark's sweep of sizes): their range and common divisor, not each one
                    g = reduce(gcd, v)
                    out += [f"{p} >= {min(v)}", f"{p} <= {max(v)}"] + ([f"{p} % {g} == 0"] if g > 1 else [])
                    continue
                field = re.fullmatch(r"([A-Za-z_]\w*)\.([xyz])", a)
                if field and field.group(1) == self.block_name:
                    out.append(f"{p} == blockDim.{field.group(2)}")  # the launch's block size, passed too
                    continue
                if field and (self.local_init(field.group(1)) or "").startswith("dim3"):
                    a = self.dims(field.group(1))["xyz".index(field.group(2))]
                else:
                    init = self.local_init(a)
                    if init is None and self.folder is not None:
                        floor = self.folder.pitch_floor(a)
                        if floor is not None:
                            out.append(f"{p} >= {floor}")  # cudaMallocPitch returns a pitch >= the row width
                    if init is None:
                        m = self.multiple(a)  # scaled before the launch, or by the callers (`n *= 1024`)
                        if any(m % b == 0 for b in sizes):
                            out.append(f"{p} % {m} == 0")
                    a = init
                if a is None:
                    continue
            try:
                expr = self.translate(a)
            except _Unknown:
                m = self.multiple(a)
                if any(m % b == 0 for b in sizes):  # unknown here, but a product with a constant (`numk * 1024`)
                    out.append(f"{p} % {m} == 0")  # that the block divides: a bound on it is one per block
                continue
            if expr.strip() != p:
                out.append(f"{p} == {expr}")
        for cond in self.path_conditions():
            parts = [cond] if cond.startswith("!") else conjuncts(cond)
            for part in parts:  # a conjunct that cannot be read is left out (the condition only weakens)
                try:
                    fact = either(self.translate(part, choices=(c := {})), c)
                except _Unknown:
                    continue
                if not _always(fact):
                    out.append(f"({fact})")
        return out


# the C interfaces of CUDA's libraries and of MPI: a C function takes its arguments by value
_C_API = re.compile(r"\b(?:cuda|cu[A-Z]|cublas|cusparse|cusolver|cufft|curand|cudnn|nccl|nvrtc|nvtx|MPI_)\w*\s*$")
# a cast to an arithmetic type, functional (`long(m)`), C-style before a parenthesized operand (`(double)(m)`) or
# static_cast<int>: a copy, never a reference to the name
_ARITHMETIC_TYPE = (r"(?:(?:unsigned|signed)\s+)?(?:long\s+long|long|int|short|char|float|double|bool)|"
                    r"size_t|ptrdiff_t|u?int(?:8|16|32|64)_t")
_VALUE_CAST = re.compile(rf"(?:\b(?:{_ARITHMETIC_TYPE})|\(\s*(?:const\s+)?(?:{_ARITHMETIC_TYPE})\s*\)|"
                         r"\bstatic_cast\s*<[^<>;&]*>)\s*$")
_FORWARDED_PACK = re.compile(r"([A-Za-z_]\w*)\s*&&\s*\.\.\.\s*([A-Za-z_]\w*)\s*$")


def _always(fact: str) -> bool:
    """``fact`` names nothing of the kernel and holds (`0 < 2`, a loop's test at its constant values): it says
    nothing (one that fails, `!(1)`, says the launch never runs, and stays)."""
    if set(re.findall(r"[A-Za-z_]\w*", fact)) - {"and", "or", "not", "if", "else"}:
        return False
    try:
        value = to_z3(parse(fact, "host launch"), lambda n: None, z3.IntVal)
    except (InputError, RecursionError, z3.Z3Exception):
        return False
    return z3.is_true(z3.simplify(value))


def _valid(fact: str) -> bool:
    """The fact is one the expression language and the solver take (floating-point constants, say, are not)."""
    try:
        parse(fact, "host launch")
    except (InputError, RecursionError):
        return False
    return True


def _const_decl(scan, name: str) -> bool:
    """``name`` is declared const or constexpr (where the scan sees its declaration)."""
    for at, kind, _ in scan.events_of(name):
        if kind in ("decl", "dim3") and re.search(r"\bconst(?:expr)?\b", _decl_head(scan.text, at)):
            return True
    return False


def _set_once(scan, name: str, pos: int) -> bool:
    """``name`` is a local of the function calling at ``pos`` that only its declaration sets (``int OC = 768 * 3;``),
    or a parameter of it that it never sets (its callers' values, asked in turn), and that the function passes to
    no call that could change it (``_Launch.escapes``)."""
    f = scan.func_at(pos)
    if f is None:
        return False
    ev = scan.scoped_events(name, pos)
    local = len(ev) == 1 and ev[0][1] == "decl" and ev[0][0] < pos
    param = not ev and name in f[2]
    return (local or param or _assigned_once_before(scan, f, ev, pos)) and \
        not _Launch(scan, pos, [], [], {}, "").escapes(name)


def _set_alike(scan, a: str, b: str, pos: int) -> bool:
    """Names ``a`` and ``b`` are each set once before ``pos`` (``_set_once``), by one statement, to one value text
    (``m = n = k = size;``)."""
    if not (re.fullmatch(r"[A-Za-z_]\w*", a) and re.fullmatch(r"[A-Za-z_]\w*", b)) or \
            not (_set_once(scan, a, pos) and _set_once(scan, b, pos)):
        return False
    ea, eb = scan.scoped_events(a, pos), scan.scoped_events(b, pos)
    if len(ea) != 1 or len(eb) != 1 or ea[0][1] != "set" or eb[0][1] != "set" or ea[0][2] != eb[0][2]:
        return False
    lo, hi = sorted((ea[0][0], eb[0][0]))
    return ";" not in scan.text[lo:hi]


def _assigned_once_before(scan, f, ev: list, pos: int) -> bool:
    """A local declared without a value (``int m, n, k;``) whose one assignment, a statement of a block around
    ``pos`` before it (``m = n = k = size;`` in the loop's body that calls), every path to ``pos`` runs."""
    if len(ev) != 1 or ev[0][1] != "set" or ev[0][2] is None or not ev[0][0] < pos:  # (None: `m += 5`, `m++`)
        return False
    at = ev[0][0]
    around = scan._open_blocks(f, at)
    return bool(around) and around[-1] in scan._open_blocks(f, pos) and \
        re.fullmatch(r"(?:[A-Za-z_]\w*\s*=\s*)*", scan._head(at)) is not None


def _decl_head(t: str, at: int) -> str:
    """The text of the declaration before the declarator at ``at`` (its type, ``const``, earlier declarators)."""
    return t[max(t.rfind(";", 0, at), t.rfind("{", 0, at), t.rfind("}", 0, at)) + 1:at]


def _global(scan, name: str) -> bool:
    """``name`` is a variable the file declares outside every function."""
    return any(kind in ("decl", "dim3") and scan.func_at(at) is None for at, kind, _ in scan.events_of(name))


def _integral(ty) -> bool:
    if ty is None:
        return False
    if getattr(ty, "pointer", False) or getattr(ty, "dims", ()):
        return False
    spelling = getattr(ty, "spelling", str(ty))
    return bool(_C_INT.search(spelling)) and not any(x in spelling for x in ("*", "float", "double"))


def _helpers(texts: list) -> dict:
    """Single-return functions and function-like macros of the host texts: name -> (formal names, body)."""
    out = {}
    for t in texts:
        for m in hl.FUNCTION_MACRO.finditer(t):
            line = m.group(3).split("\n", 1)[0]  # its first line only
            if line[:1] in (" ", "\t") and line.strip():
                out.setdefault(m.group(1), ([p.strip() for p in m.group(2).split(",")], _ternary(line.strip())))
        for m in _RETURN_FN.finditer(t):
            names = [re.findall(r"[A-Za-z_]\w*", p) for p in split_top(m.group(2)) if p.strip()]
            if m.group(1) not in ("if", "for", "while", "switch") and all(names):  # `f(...)`: no formal to bind
                out.setdefault(m.group(1), ([n[-1] for n in names], _ternary(m.group(3).strip())))
    return out


# in a macro body: an assignment, an increment or a call (which might take a reference); without them, a macro's
# arguments are only read (`INDX(i, j, ld)`)
_MACRO_EFFECT = re.compile(r"(?<![=!<>])=(?!=)|\+\+|--|\b[A-Za-z_]\w*\s*\(")


def _value_macros(texts: list) -> frozenset:
    """Function-like macros of the host texts whose expansion only reads its arguments."""
    found, effect = set(), set()
    for t in texts:
        for m in hl.FUNCTION_MACRO.finditer(t):
            (effect if _MACRO_EFFECT.search(m.group(3).replace("\\\n", " ")) else found).add(m.group(1))
    return frozenset(found - effect)  # a name defined both ways (under #if): not known to be pure


class _Folder:
    """The files of a folder, scanned on first use, for the constants callers pass to a launching function."""

    def __init__(self, path, source, defines, launching=(), include_dirs=()):
        self.path, self.source, self.defines, self.include_dirs = path, source, defines, include_dirs
        self.launching = launching  # the paths of the other files that launch its kernels (``../runner.cu``)
        self.scans: dict = {}
        self.memo: dict = {}
        self._files = None

    def files(self):
        """The file's text, then those of its folder's files, of the launching files' folders, and of the files
        above that include one of them or a header beside them (`sgemm.cu`'s `#include <runner.cuh>`, which
        declares the launching function runner.cu defines): the places a launching function's callers may be."""
        if self._files is None:
            self._files = [(self.source, self.path.name if self.path else "<input>")]
            if self.path is not None:
                seen = {self.path.resolve()}
                for anchor in [self.path.resolve(), *(p.resolve() for p in self.launching)]:
                    siblings = [Path(p) for p, _ in hl._siblings(anchor)]
                    for p in [anchor, *siblings]:
                        if p.resolve() not in seen:
                            seen.add(p.resolve())
                            try:
                                self._files.append((p.read_text(errors="replace"), os.path.relpath(p, self.path.parent)))
                            except OSError:
                                pass
                    for h in [anchor, *(p for p in siblings if p.suffix in (".h", ".cuh", ".hpp"))]:
                        for inc, text, _ in includers(h, above_only=True):
                            if inc.resolve() not in seen:
                                seen.add(inc.resolve())
                                self._files.append((text, os.path.relpath(inc, self.path.parent)))
        return self._files

    def pitch_floor(self, name: str):
        """The least value a host variable holds when ``cudaMallocPitch(&ptr, &name, width_bytes, height)`` sets it
        (the API returns a pitch of at least the row width): the constant width, when every such call has one and
        the folder sets the variable nowhere else (its declaration's initializer aside); else None."""
        if not re.fullmatch(r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)?", name):
            return None
        key = ("pitch_floor", name, self.guards_key())  # asked for every launch's arguments: a file may have hundreds
        if key not in self.memo:
            self.memo[key] = self._pitch_floor(name)
        return self.memo[key]

    def guards_key(self) -> tuple:
        """The guards of the launch being read (set on its file's scan), as a key for the memos they change."""
        return tuple((n, s.guards_key()) for n, s in self.scans.items() if s.guards)

    def _pitch_floor(self, name: str):
        widths, word = [], re.escape(name)
        for text, fname in self.files():
            if name not in text:
                continue
            sc = self.scan(text, fname)
            t = sc.text
            for m in re.finditer(rf"(?<![\w.]){word}\b", t):
                before, after = t[max(0, m.start() - 200):m.start()], t[m.end():m.end() + 4]
                if re.match(r"\s*(?:[-+*/%&|^]?=(?!=)|\+\+|--)", after) and not re.search(
                        r"(?:^|[;{}])\s*(?:static\s+|extern\s+)?(?:size_t|int|unsigned|long|unsigned\s+int)\s+$",
                        before):
                    return None  # assigned somewhere: not only what cudaMallocPitch returns
                if re.search(r"&\s*$", before):
                    call = re.search(r"\bcudaMallocPitch\s*\(\s*[^;]*,\s*&\s*$", before)
                    if call is None:
                        return None  # its address is passed elsewhere
                    args = hl._call_args(t, t.find("(", m.start() - len(before) + call.start()) + 1)
                    if len(args) != 4:
                        return None
                    v = sc.scalar(hl.sizeof_types(args[2], [t for t, _ in self.files()]), m.start())
                    if v is None:
                        return None
                    widths.append(v)
        return min(widths) if widths else None

    def scan(self, text, name):
        if name not in self.scans:
            self.scans[name] = hl._scan_file(text, name, self.path.parent if self.path else None, self.defines,
                                             self.callers, include_dirs=self.include_dirs)
        return self.scans[name]

    def instantiations(self, function: str, count: int, depth: int):
        """The template arguments of each call of the function template ``function`` in the folder."""
        return hl.template_instantiations(function, count, depth, self.files, self.scan, self.memo)

    def _calls(self, function: str):
        """(scan, position, calling function, argument texts) for each call of ``function`` made inside a function of
        the folder's files (``files``)."""
        call = re.compile(rf"\b{re.escape(function)}\s*(?:<[^<>;]*>)?\s*\(")
        for text, name in self.files():
            if function not in text:
                continue
            sc = self.scan(text, name)
            for m in call.finditer(sc.text):
                g = sc.func_at(m.start())
                if g is not None:
                    yield sc, m.start(), g, hl._call_args(sc.text, m.end())

    def same_arguments(self, function: str, i: int, j: int, depth: int) -> bool:
        """Every call of ``function`` in the folder passes the same value as arguments ``i`` and ``j``: one text, two
        names one statement sets alike (``m = n = k = SIZE[i];``, each set once before the call), or two parameters of
        the calling function that its own calls pass alike (asked in turn)."""
        if not function or depth > 4:
            return False
        key = ("same", function, i, j)
        if key not in self.memo:
            self.memo[key] = False
            found = 0
            for sc, at, g, args in self._calls(function):
                args = [x.strip() for x in args]
                if max(i, j) >= len(args):
                    return False
                a, b = args[i], args[j]
                if not (a == b or _set_alike(sc, a, b, at) or a in g[2] and b in g[2] and
                        not sc.scoped_events(a, at) and not sc.scoped_events(b, at) and
                        self.same_arguments(g[3], g[2].index(a), g[2].index(b), depth + 1)):
                    return False
                found += 1
            self.memo[key] = found > 0
        return self.memo[key]

    def callers(self, function: str, index: int, depth: int):
        """The constants every call of ``function`` in the folder passes as argument ``index``; None when one is not
        constant (or there is no call)."""
        if not function or depth > 4:
            return None
        key = (function, index)
        if key not in self.memo:
            self.memo[key] = None
            out = []
            for sc, at, _, args in self._calls(function):
                arg = args[index].strip() if index < len(args) else ""
                # literals, macros, const names and locals set once: a variable may be changed through a reference
                trusted = hl.evaluate(arg, sc.env) is not None or (
                    re.fullmatch(r"[A-Za-z_]\w*", arg) and (_const_decl(sc, arg) or _set_once(sc, arg, at)))
                v = sc.shape_values(arg, at, depth)
                # a function's name (a kernel handed to a launcher) is as fixed as a literal
                if v is None or not trusted and not all(isinstance(x, str) for x in v):
                    return None
                out += v
            self.memo[key] = list(dict.fromkeys(out)) or None
        return self.memo[key]


def _kernel_args(scan, pos: int) -> list:
    """The argument texts a launch at ``pos`` passes to the kernel: after ``<<<...>>>``, or the kernel-parameter
    array of the runtime and driver launch calls (``void *args[] = {&a, &b}``), or cudaLaunchKernelEx's
    arguments; [] when they cannot be read."""
    t = scan.text
    call = re.match(r"(cuLaunch(?:Cooperative)?Kernel|cudaLaunchKernelEx\w*|cudaLaunch(?:Cooperative)?Kernel)\b"
                    r"[^(]*\(", t[pos:pos + 200])
    if call is None:
        end = t.find(">>>", pos)
        open_paren = t.find("(", end) if end >= 0 else -1
        if open_paren < 0 or t[end + 3:open_paren].strip():
            return []
        return hl._call_args(t, open_paren + 1)
    args = hl._call_args(t, pos + call.end())
    if call.group(1).startswith("cudaLaunchKernelEx"):
        return args[2:]
    array = (args[9] if call.group(1).startswith("cuLaunch") else args[3]) if len(args) > 9 or (
        len(args) > 3 and not call.group(1).startswith("cuLaunch")) else ""
    array = _strip_casts(array.strip())
    array = re.sub(r"^&\s*([A-Za-z_]\w*)\s*\[\s*0\s*\]$", r"\1", array)  # &args[0]
    if not re.fullmatch(r"[A-Za-z_]\w*", array):
        return []
    f = scan.func_at(pos)
    lo = f[0] if f else 0
    m = None
    for m in re.finditer(rf"\b{array}\s*\[[^\]]*\]\s*=\s*\{{([^{{}}]*)\}}", t[lo:pos]):
        pass
    if m is None:
        return []
    out = []
    for item in split_top(m.group(1)):
        item = re.sub(r"^\(\s*(?:const\s+)?void\s*\*\s*\)", "", item.strip()).strip()
        if not item.startswith("&"):
            return []
        out.append(item[1:].strip())
    return out


def _through_wrapper(folder, scan, pos: int, args: list, grid: str, block: str, params=(), depth: int = 0):
    """The launch as (scan, position, kernel arguments, grid text, block text); when the launching function passes
    its own parameters as the grid, block or arguments (a wrapper: ``void launch(dim3 g, dim3 b, int w) {
    k<<<g, b>>>(w); }``), the launch as seen from each call of the wrapper in the folder, its parameters replaced by
    the call's arguments (and so on for a wrapper of the wrapper, up to _WRAPPERS levels)."""
    f = scan.func_at(pos)
    names = [n for n in f[2].names if n] if f is not None else []
    used = [n for n in names if any(re.search(rf"\b{re.escape(n)}\b", x) for x in (grid, block, *args))]
    # read at the calls only when the launch names nothing of the wrapper's own but its parameters (a local of
    # the wrapper would be taken for a name of the caller)
    own = {m.group(1) for x in (grid, block, *args) for m in re.finditer(r"(?<![\w.])([A-Za-z_]\w*)\b(?!\s*\()", x)}
    foreign = {n for n in own - set(names) if n not in scan.env and n not in scan.enums and n not in (
        "true", "false", "NULL", "nullptr", "dim3") and not re.fullmatch(r"\d\w*", n)}
    # a name only in a pointer argument (no fact is read from one) or a global the wrapper reads (at its calls it is
    # the same variable, whose value the scan does not know) does not keep the launch in the wrapper: it is left
    # unknown at the calls (an unreadable name), and the rest is read there
    kept = {n for n in foreign if not n.startswith("__wrapper_own_") and not _global(scan, n) and any(
        re.search(rf"(?<![\w.]){re.escape(n)}\b", x) for x in (grid, block, *(
            a for i, a in enumerate(args) if i >= len(params) or _integral(params[i][1]))))}
    if not used or kept or not f[3] or f[3] in ("main",):
        yield scan, pos, args, grid, block
        return
    def pin(x):  # the wrapper's file's constants (`4 * BLOCK`): the callers' files may not define them
        def one(m):
            v = hl.evaluate(m.group(1), scan.env) if m.group(1) in scan.env else scan.enums.get(m.group(1))
            return str(v) if isinstance(v, int) and m.group(1) not in names else m.group(0)
        return re.sub(r"(?<![\w.])([A-Za-z_]\w*)\b(?!\s*\()", one, x)
    grid, block, args = pin(grid), pin(block), [pin(a) for a in args]
    if foreign:
        def hide(x):
            return re.sub(r"(?<![\w.])([A-Za-z_]\w*)\b", lambda m: f"__wrapper_own_{m.group(1)}"
                          if m.group(1) in foreign else m.group(0), x)
        grid, block, args = hide(grid), hide(block), [hide(a) for a in args]
    call = re.compile(rf"\b{re.escape(f[3])}\s*\(")
    sites = []
    for text, name in folder.files():
        if f[3] not in text:
            continue
        sc = folder.scan(text, name)
        for m in call.finditer(sc.text):
            if sc.func_at(m.start()) is None or (sc is scan and f[0] <= m.start() < f[1]):
                continue  # the wrapper's own declaration or definition, or a recursive call
            actual = hl._call_args(sc.text, m.end())
            if len(actual) != len(names):
                break
            sub = {n: a.strip() for n, a in zip(names, actual)}

            def put(x):
                x = x.strip()
                def one(w):
                    a = sub.get(w.group(0))
                    return w.group(0) if a is None else a if re.fullmatch(r"[A-Za-z_]\w*", a) else f"({a})"
                return sub[x] if x in sub else re.sub(r"(?<![.\w])[A-Za-z_]\w*\b", one, x)
            sites.append((sc, m.start(), [put(a) for a in args], put(grid), put(block)))
        else:
            continue
        sites = []
        break
    if not sites:
        yield scan, pos, args, grid, block
        return
    for site in sites:
        yield from _through_wrapper(folder, *site, params=params, depth=depth + 1) if depth + 1 < _WRAPPERS else (site,)


_WRAPPERS = 4  # levels of wrappers a launch is read through


def from_host(source: str, path, defines, kernels: dict, arities: dict | None = None, include_dirs=()) -> dict:
    """Kernel name -> [Assumption] its launches in host code imply; ``kernels``: name -> [(parameter, TypeInfo)];
    ``arities``: name -> the numbers of parameters of the file's overloads of the name (a launch whose arguments
    fit another overload is that overload's, not a launch of this one from which nothing can be read);
    ``include_dirs``: the user's ``-I`` folders (``host_launch.host_launches``)."""
    path = Path(path) if path is not None else None
    files = [(source, path.name if path else "<input>", False, None)]
    if path is not None and not set(kernels) <= hl._launched(source):
        files += hl.launching_files(path, source, set(kernels), hl._siblings(path) or [], _read)
    per_kernel: dict = {}
    folder = _Folder(path, source, defines, [path.parent / name for _, name, *_ in files[1:]] if path else (),
                     include_dirs)
    scans = [(folder.scan(text, name), driver_only, only) for text, name, driver_only, only in files
             if any(k in text for k in hl._MARKERS)]
    # the helpers (`div_ceil`) of the files and of the headers the launching files include, found as the host scan
    # finds them (beside the file, in the build's -I folders, or the project's one header of the name)
    texts = [t for t, *_ in files] + [h for scan, *_ in scans for h in scan.headers]
    helpers, value_macros = _helpers(texts), _value_macros(texts)
    for scan, driver_only, only in scans:
        for callee, _targs, grid, block, pos in scan.launches(driver_only):
            args = _kernel_args(scan, pos)
            targets = scan.shape_values(callee, pos) or []
            for k in {re.sub(r"\s+", "", t).partition("<")[0].split("::")[-1] for t in targets if isinstance(t, str)}:
                if k not in kernels or (only is not None and k not in only):
                    continue
                # a launch in a launcher template: its facts per instantiation (`Br` is 64 in one, 128 in
                # another), named as host_launch names its configurations
                for bound in hl.launch_instances(scan, pos, (callee, _targs, grid, block), folder.instantiations):
                    # (and what the conditions around the launch say: `case 16:` of `switch (N)`, N is 16 there)
                    scan.guards = {**hl.instance_guards(bound), **scan.guards_at(pos)}
                    try:
                        for sc, at, a, g, b in _through_wrapper(folder, scan, pos, args, grid, block, kernels[k]):
                            if a and len(a) != len(kernels[k]):
                                if len(a) in (arities or {}).get(k, ()):
                                    continue  # the launch of another overload the file defines: read with its own
                                # an overload defined elsewhere (or default arguments): its arguments do not map
                                # onto these parameters, and the kernel's assumption must hold for every launch
                                per_kernel.setdefault(k, []).append(([], sc.line(at)))
                                continue
                            launch = _Launch(sc, at, a, kernels[k], helpers, b, value_macros)
                            launch.folder = folder
                            facts = [x for x in launch.facts(g, b) if _valid(x)]
                            where = hl.instance_where(sc, at, bound) if sc is scan and at == pos else sc.line(at)
                            per_kernel.setdefault(k, []).append((facts, where))
                    finally:
                        scan.guards = {}
    out = {}
    for k, launches in per_kernel.items():
        if any(not facts for facts, _ in launches):
            continue
        try:
            out[k] = [_disjunction([(" and ".join(facts), w) for facts, w in launches])]
        except InputError:  # a fact the expression language cannot take: left out, not guessed
            continue
    return out


def _read(p: Path) -> str:
    try:
        return p.read_text(errors="replace")
    except OSError:
        return ""


def either(text: str, choices: dict) -> str:
    """``text`` with its placeholders (``translate``'s ``choices``) replaced by their values: one alternative per
    combination, or-ed (a condition that holds for one of a launcher template's instantiations)."""
    if not choices:
        return text
    if math.prod(len(v) for v in choices.values()) > hl._MAX_CHOICES:
        raise _Unknown(text)  # (dropping a combination would make the condition stronger than the code's)
    combos = [{}]
    for name, values in choices.items():
        combos = [{**c, name: v} for c in combos for v in values]
    alts = [re.sub(r"\b__either_\w+", lambda m: str(c[m.group(0)]), text) for c in combos]
    alts = list(dict.fromkeys(alts))
    return alts[0] if len(alts) == 1 else " or ".join(f"({a})" for a in alts)


def _disjunction(alternatives: list):
    """The assumption that one of the launches holds: ``alternatives`` are (facts text, launch line)."""
    alts = list(dict.fromkeys(facts for facts, _ in alternatives))
    text = alts[0] if len(alts) == 1 else " or ".join(f"({a})" for a in alts)
    where = ", ".join(dict.fromkeys(w for _, w in alternatives))
    return replace(parse(text, f"the host launch at {where}"), alternatives=tuple(alternatives))


def at_launches(assumptions: list, lines) -> list:
    """``from_host``'s assumptions narrowed to the launches at ``lines`` (file:line texts): a configuration read from
    some of a kernel's launches (one template instantiation, one block) holds under their facts, not under those of
    every launch. Unchanged when no launch is at one of ``lines``."""
    out = []
    for a in assumptions:
        mine = [(facts, w) for facts, w in a.alternatives if w in lines]
        out.append(_disjunction(mine) if mine and len(mine) < len(a.alternatives) else a)
    return out

