"""libclang front end: parse CUDA C++ (device side, no toolkit needed) into the neutral tree of ``ast.py``."""
from __future__ import annotations

import ctypes
import functools
import os
import re
from pathlib import Path
from typing import NamedTuple

from . import build_flags
from .ast import Func, Loc, Node, TypeInfo, Unit, range_index, range_loop
from .includers import INCLUDE as _INCLUDE, includers, source_text
from .launch import split_top
from .host_launch import LOCAL_INCLUDE
from .model_stubs import STUBS, model_stub
from .preproc import GPU_BUILD_SWITCHES, gpu_switch, switched_includes, switches_defining

HERE = Path(__file__).parent
DECLS = HERE / "cuda_decls.h"
HOST_DECLS = HERE / "cuda_host_decls.h"
_EMPTY = "/kopt-empty-headers"  # a folder that exists only in libclang's view (unsaved files)
_CONTEXT = "/kopt-context/includer.h"  # the includer's declarations a header is read after (unsaved file)
_TOOLKIT = "/kopt-context/toolkit.h"  # the CUDA toolkit's prototypes of names cuda_decls.h leaves out (unsaved)
_UNDECLARED_NAME = re.compile(r"use of undeclared identifier '(\w+)'|unknown type name '(\w+)'")
# clang's note on a call across the host/device boundary
_WRONG_SIDE = re.compile(r"candidate function (?:template )?not viable: call to __(?:device|host)__ function from "
                         r"__(?:host|device|global)__ function")
_MISSING_NAME = re.compile(r"use of undeclared identifier '(\w+)'|unknown type name '(\w+)'|"
                           r"no (?:member|type) named '(\w+)' in the global namespace")
# (a call with no matching or an ambiguous overload; a name called qualified, `::ullmin(a, b)`)
_WANTS_DECL = re.compile(r"use of undeclared identifier '(\w+)'|call to '(\w+)'|no member named '(\w+)' in the global "
                         r"namespace")
_SHARED_ALIGNAS = re.compile(r"(__shared__)(\s+)(alignas\s*\((?:[^()]|\([^()]*\))*\))")
_DEVICE_SHARED = re.compile(r"\b__device__(\s+__shared__\b)|\b(__shared__\s+)__device__\b")
_INSTANTIATION_KEYWORD = re.compile(r"(?:\bextern\s+)?\btemplate\b(?:\s*<\s*>)?[^;{}()<>]*$")
_UNDEFINED_INSTANTIATION = re.compile(r"explicit instantiation of undefined")
_INVOCATION_LINE = re.compile(r"[A-Za-z_]\w*\s*\((?:[^()]|\([^()]*\))*\)\s*;?\s*$")  # `DECLARE_IMPL(float)`
_FIELD_TYPE = re.compile(r"^((?:[^\[\]<>]|<[^<>]*(?:<[^<>]*>[^<>]*)*>)+?)\s*((?:\[[^\]]*\]\s*)*)$")  # `T [N]`
_BLOCK_OPENER = re.compile(r'(?:\bnamespace(?:\s+[\w:]+)?|\bextern\s*"C(?:\+\+)?")\s*$')
_QUALIFIER_BEFORE = re.compile(r"(?:\b[A-Za-z_]\w*\s*::\s*)*$")
_TEMPLATE_HEADER = re.compile(r"\btemplate\s*<[^;{}]*>\s*$")
_LINKAGE_BEFORE = re.compile(
    rb'\bextern\s*"C(?:\+\+)?"(?:\s|^[ \t]*#[ \t]*(?:if|ifdef|ifndef|elif|else|endif)\b[^\n]*)*\Z', re.M)
_BODY_AFTER = re.compile(rb"(?:\s|^[ \t]*#[ \t]*(?:if|ifdef|ifndef|elif|else|endif)\b[^\n]*)*\{", re.M)
_COMMENT = re.compile(rb"//[^\n]*|/\*.*?\*/", re.S)
# a conditional directive, kept when the declaration around it is blanked: a declaration written in two `#if`
# branches (`#if INTEROP void f(a) #else void f(b) #endif { ... }`) would otherwise lose its `#endif` alone
_CONDITIONAL_LINE = re.compile(r"[ \t]*#[ \t]*(if|ifdef|ifndef|elif|else|endif)\b")
_CONDITIONAL = re.compile(rb"^[ \t]*#[ \t]*(?:if|ifdef|ifndef|elif|else|endif)\b(?:[^\n]*\\\r?\n)*[^\n]*", re.M)
_PTX_SPECIAL = re.compile(r"(?<!%)(%(?:globaltimer(?:_lo|_hi)?|clock(?:64|_hi)?|laneid|n?warpid|n?smid|gridid|"
                          r"lanemask_(?:eq|le|lt|ge|gt)|dynamic_smem_size|total_smem_size|aggr_smem_size|envreg\d+)\b)")
_DEVICE_LAUNCH = re.compile(r"reference to __global__ function .* in __global__ function|reference to __global__ "
                            r"function .* in __device__ function|use of undeclared identifier '?cudaConfigureCall")
_CALLEE_BEFORE = re.compile(r"[A-Za-z_][\w:]*\s*(?:<[^<>;]*(?:<[^<>;]*>[^<>;]*)*>)?\s*$")
# what a name the includer declares first gives when it is missing (an undefined function-like macro called with a
# type, `SET_VAR(int, n, ...)`, reads as a cast or a call with a type argument)
_UNDECLARED = re.compile(r"use of undeclared identifier|unknown type name|no template named|"
                         r"expected '\(' for function-style cast|does not refer to a value")
_CONTEXT_LINE = re.compile(r"^[ \t]*(#[ \t]*(include|define|undef|if|ifdef|ifndef|elif|else|endif)\b|typedef\b[^{}]*;[ \t]*$)")
# A source's own CUtensorMap: `struct [alignas(64) | __align__(64)] CUtensorMap {` or cuda.h's
# `typedef struct CUtensorMap_st {...} CUtensorMap;` (matched with comments removed)
_OWN_TENSORMAP = re.compile(r"\bstruct\s+(?:(?:alignas|__align__)\s*\([^)]*\)\s*)?CUtensorMap(?:_st)?\s*\{")
_COMMENTS = re.compile(r"//[^\n]*|/\*.*?\*/", re.S)
_ASM_START = re.compile(r"\b(?:asm|__asm__)\b(?:\s+(?:volatile|__volatile__))?\s*\(")
# two asm operands with no comma between them: `"r"(v) "l"(p)`
_ASM_NO_COMMA = re.compile(r'("[=+&]*[A-Za-z]+"\s*\([^()]*\))\s(\s*"[=+&]*[A-Za-z]+"\s*\()')
# in an asm string: `%` before a name that is no operand (`%0`), modifier (`%c0`), named operand (`%[x]`) or escape
_PTX_LOCAL = re.compile(r"(?<!%)%(?=[A-Za-z_])(?![A-Za-z]\d)")
_STRING = re.compile(r'"(?:[^"\\\n]|\\.)*"')
_NOT_FOUND = re.compile(r"'([^']+)' file not found")
_DEFINES_GLOBAL = re.compile(r"^[ \t]*#[ \t]*define[ \t][^\n]*\b__global__\b", re.M)
_RESTRICT_BEFORE_STAR = re.compile(r"\b(__restrict__|__restrict)(\s*)\*(?!/)")  # (not a comment's end)

_lib_ready = False
ci = None  # clang.cindex, imported lazily so a missing libclang only disables this front end


class FrontendError(Exception):
    pass


def _setup():
    global _lib_ready, ci, _CLASS_KINDS
    if _lib_ready:
        return
    try:
        import clang.cindex as _ci
    except Exception as exc:  # pragma: no cover - depends on the install
        raise FrontendError(f"libclang is not importable: {exc}")
    ci = _ci
    _CLASS_KINDS = (ci.CursorKind.STRUCT_DECL, ci.CursorKind.CLASS_DECL, ci.CursorKind.CLASS_TEMPLATE,
                    ci.CursorKind.CLASS_TEMPLATE_PARTIAL_SPECIALIZATION)
    lib = ci.conf.lib
    lib.clang_getCursorBinaryOperatorKind.argtypes = [ci.Cursor]
    lib.clang_getCursorBinaryOperatorKind.restype = ctypes.c_int
    lib.clang_getBinaryOperatorKindSpelling.argtypes = [ctypes.c_int]
    lib.clang_getBinaryOperatorKindSpelling.restype = ci._CXString
    lib.clang_getCursorUnaryOperatorKind.argtypes = [ci.Cursor]
    lib.clang_getCursorUnaryOperatorKind.restype = ctypes.c_int
    lib.clang_Cursor_Evaluate.argtypes = [ci.Cursor]
    lib.clang_Cursor_Evaluate.restype = ctypes.c_void_p
    lib.clang_EvalResult_getKind.argtypes = [ctypes.c_void_p]
    lib.clang_EvalResult_getKind.restype = ctypes.c_int
    lib.clang_EvalResult_getAsLongLong.argtypes = [ctypes.c_void_p]
    lib.clang_EvalResult_getAsLongLong.restype = ctypes.c_longlong
    lib.clang_EvalResult_getAsDouble.argtypes = [ctypes.c_void_p]
    lib.clang_EvalResult_getAsDouble.restype = ctypes.c_double
    lib.clang_EvalResult_dispose.argtypes = [ctypes.c_void_p]
    lib.clang_EvalResult_dispose.restype = None
    _lib_ready = True


_index = None


def _binop(c) -> str:
    lib = ci.conf.lib
    k = lib.clang_getCursorBinaryOperatorKind(c)
    return ci._CXString.from_result(lib.clang_getBinaryOperatorKindSpelling(k)) if k else ""


_UNARY = {1: "post++", 2: "post--", 3: "pre++", 4: "pre--", 5: "&", 6: "*", 7: "+", 8: "-", 9: "~", 10: "!"}


def _evaluate(c):
    """Constant value of an expression cursor (handles macros, constexpr, sizeof), or None."""
    lib = ci.conf.lib
    r = lib.clang_Cursor_Evaluate(c)
    if not r:
        return None
    try:
        kind = lib.clang_EvalResult_getKind(r)
        if kind == 1:  # CXEval_Int
            return int(lib.clang_EvalResult_getAsLongLong(r))
        if kind == 2:  # CXEval_Float
            return float(lib.clang_EvalResult_getAsDouble(r))
        return None
    finally:
        lib.clang_EvalResult_dispose(r)


# a header found nowhere that a header includes reads the library's one stub (the main file's own includes are
# rewritten to it in _strip_unknown_includes)
_TORCH_ROOTS = ("ATen", "c10", "torch")  # PyTorch's header folders: their stub is of what extension kernels use
# a library's header kopt lacks (by its first path component) -> the stub every such header reads: CUB's of what
# kernels use, Thrust's device value types, libcu++'s `cuda::std`, PyTorch's, NCCL's types host classes hold,
# OpenCV core's CUDA device library
_STUB_FOR = {"cub": "cub/cub.cuh", "thrust": "thrust/__kopt_thrust.h", "cuda": "cuda/std/__kopt_cuda_std.h",
             **dict.fromkeys(_TORCH_ROOTS, "__kopt_torch.h"), "nccl.h": "__kopt_nccl.h",
             "opencv2": "opencv2/__kopt_opencv.h"}


def _missing_header_text(path: Path, name: str, include_dirs=(), patched: dict | None = None) -> str:
    """What a header found nowhere reads as: the text a configure step would write from its template
    (``build_flags.configured_header``; kept in ``patched`` under its empty-header name, where its host declarations
    that do not parse are blanked as a header's are, and read from there after), its library's stub, else nothing."""
    key = f"{_EMPTY}/{name}"
    if patched is not None and key in patched:
        return patched[key]
    configured = build_flags.configured_header(path, name, include_dirs)
    if configured:
        if patched is not None:
            patched[key] = configured[0]
        return configured[0]
    stub = _STUB_FOR.get(name.split("/")[0])
    return f"#include <{stub}>\n" if stub else ""


def _strip_unknown_includes(path: Path, text: str, extra_dirs) -> str:
    """Blank ``#include`` lines that resolve nowhere (host headers, CUTLASS...), keeping line numbers."""
    dirs = [path.parent, STUBS, *map(Path, extra_dirs)]

    def repl(m):
        name = m.group(1)
        if any((d / name).is_file() for d in dirs) or build_flags.configured_header(path, name, extra_dirs):
            return m.group(0)  # (a configured header is read from its template: see translation_unit)
        stub = _STUB_FOR.get(name.split("/")[0])
        if stub:  # a library's header kopt has no stub of reads its library's one stub
            return m.group(0).replace(name, stub)
        return "//" + m.group(0)[2:] if len(m.group(0)) >= 2 else ""

    return _INCLUDE.sub(repl, text)


class _Conv:
    def __init__(self, path: str, source: str):
        self.path = path
        self.source = source
        self.lines = source.splitlines()
        self.problems: list = []

    # ---- helpers
    def loc(self, c) -> Loc:
        e = c.extent
        # each of a location's line/column properties asks libclang for all of them: ask once
        _, sl, sc, _ = e.start._get_instantiation()
        _, tl, tc, _ = e.end._get_instantiation()
        return Loc(self.path, sl, sc, tl, max(tc - 1, 1))

    def text(self, c) -> str:
        e = c.extent
        if e.start.file is None or e.start.file.name != self.path:
            return c.spelling or ""
        s, t = e.start, e.end
        if s.line == t.line and 0 < s.line <= len(self.lines):
            return self.lines[s.line - 1][s.column - 1: t.column - 1]
        chunk = self.lines[s.line - 1: t.line]
        if not chunk:
            return ""
        chunk[-1] = chunk[-1][: t.column - 1]
        chunk[0] = chunk[0][s.column - 1:]
        return " ".join(x.strip() for x in chunk)

    def typeinfo(self, t) -> TypeInfo:
        K = ci.TypeKind
        spelling = t.spelling
        ti = TypeInfo(spelling=spelling, volatile=t.is_volatile_qualified())
        if t.kind in (K.LVALUEREFERENCE, K.RVALUEREFERENCE):
            ti2 = self.typeinfo(t.get_pointee())
            ti2.ref = True
            ti2.spelling = spelling
            return ti2
        if t.kind == K.ELABORATED or t.kind == K.TYPEDEF:
            can = t.get_canonical()
            if can.kind != t.kind:
                inner = self.typeinfo(can)
                inner.spelling = spelling
                return inner
        sz = _size_of(t)
        ti.size = sz if sz and sz > 0 else None
        if t.kind == K.POINTER:
            p = t.get_pointee()
            ti.pointer = True
            ti.pointee = p.spelling
            dims = []
            while p.kind == K.CONSTANTARRAY:  # T (*)[N][M]: subscripts step through rows of N x M elements
                dims.append(p.get_array_size())
                p = p.get_array_element_type()
            ti.pointee_dims = tuple(dims)
            ps = _size_of(p)
            ti.pointee_size = ps if ps and ps > 0 else None
            ti.volatile = p.is_volatile_qualified()
            ti.integral = False
        elif t.kind in (K.CONSTANTARRAY, K.INCOMPLETEARRAY, K.DEPENDENTSIZEDARRAY, K.VARIABLEARRAY):
            dims = []
            cur = t
            while cur.kind in (K.CONSTANTARRAY, K.INCOMPLETEARRAY, K.DEPENDENTSIZEDARRAY, K.VARIABLEARRAY):
                if cur.kind == K.CONSTANTARRAY:
                    dims.append(cur.get_array_size())
                else:
                    dims.append(None)
                cur = cur.get_array_element_type()
            ti.dims = tuple(dims)
            ti.pointee = cur.spelling
            es = _size_of(cur)
            ti.pointee_size = es if es and es > 0 else None
            ti.volatile = ti.volatile or cur.is_volatile_qualified()
            ti.integral = False
        else:
            ti.integral = t.kind in (K.INT, K.UINT, K.LONG, K.ULONG, K.LONGLONG, K.ULONGLONG, K.SHORT, K.USHORT,
                                     K.CHAR_S, K.CHAR_U, K.SCHAR, K.UCHAR, K.BOOL, K.ENUM, K.INT128, K.UINT128)
            if t.kind in (K.UNEXPOSED, K.RECORD) and spelling.split("::")[-1].strip() in ("size_t",):
                ti.integral = True
        return ti

    def children(self, c):
        return list(c.get_children())

    def enumerator(self, ref, loc) -> Node:
        """An enumerator declared in a template (`enum { kVECS = tTHREADS / 2 };` in a kernel template), whose value
        libclang reports as 0, dependent or not: its initializer, or the last initializer before it plus the
        enumerators between them."""
        consts = [x for x in ref.semantic_parent.get_children() if x.kind == ci.CursorKind.ENUM_CONSTANT_DECL]
        i = next((n for n, x in enumerate(consts) if x == ref), None)
        if i is None:
            return Node("lit", loc, val=ref.enum_value)
        for j in range(i, -1, -1):
            init = next((x for x in consts[j].get_children() if x.kind.is_expression()), None)
            if init is not None:
                v = self.expr(init)
                return v if j == i else Node("bin", loc, op="+", a=v, b=Node("lit", loc, val=i - j), ty=v.ty)
        return Node("lit", loc, val=i)

    # ---- expressions
    def expr(self, c) -> Node:
        K = ci.CursorKind
        k = c.kind
        loc = self.loc(c)
        if k in (K.INTEGER_LITERAL, K.FLOATING_LITERAL, K.CXX_BOOL_LITERAL_EXPR, K.CHARACTER_LITERAL,
                 K.CXX_NULL_PTR_LITERAL_EXPR, K.GNU_NULL_EXPR):
            v = _evaluate(c)
            if v is None and k == K.CXX_NULL_PTR_LITERAL_EXPR:
                v = 0
            return Node("lit", loc, val=v) if v is not None else Node("unknown", loc, text=self.text(c))
        if k == K.STRING_LITERAL:
            return Node("unknown", loc, text="string")
        if k in (K.UNEXPOSED_EXPR, K.PAREN_EXPR) or k.name in ("CXX_PAREN_LIST_INIT_EXPR",):
            ch = self.children(c)
            exprs = [x for x in ch if x.kind.is_expression()]
            if len(exprs) == 1:
                return self.expr(exprs[0])
            if not exprs:
                v = _evaluate(c)
                if v is not None:
                    return Node("lit", loc, val=v)
                return Node("unknown", loc, text=self.text(c))
            # dependent calls and the like show up as unexposed expressions with several children
            first = exprs[0]
            name = first.spelling or self.text(first)
            return Node("call", loc, name=name, args=[self.expr(x) for x in exprs[1:]], text=self.text(c))
        if k == K.DECL_REF_EXPR:
            ref = c.referenced
            name = c.spelling
            rk = ref.kind if ref is not None else None
            if rk == K.ENUM_CONSTANT_DECL:
                return self.enumerator(ref, loc) if _in_template(ref) else Node("lit", loc, val=ref.enum_value)
            kind = {K.PARM_DECL: "param", K.VAR_DECL: "var", K.TEMPLATE_NON_TYPE_PARAMETER: "tparam",
                    K.FUNCTION_DECL: "func", K.FUNCTION_TEMPLATE: "func"}.get(rk, "")
            if kind == "var" and ref.semantic_parent is not None and ref.semantic_parent.kind in (
                    K.TRANSLATION_UNIT, K.NAMESPACE, K.STRUCT_DECL, K.CLASS_DECL):
                if name in ("threadIdx", "blockIdx", "blockDim", "gridDim", "warpSize"):
                    kind = "builtin"
                else:
                    kind = "global"
                    if ref.semantic_parent.kind in (K.STRUCT_DECL, K.CLASS_DECL) or _is_constexpr(ref):
                        v = _evaluate(c)
                        if v is not None:
                            return Node("lit", loc, val=v)
            if kind == "var" and _is_constexpr(ref):
                v = _evaluate(c)
                if v is not None:
                    return Node("lit", loc, val=v)
            return Node("name", loc, name=name, ref=kind, ty=self.typeinfo(c.type))
        if k == K.MEMBER_REF_EXPR:
            ch = [x for x in self.children(c) if x.kind.is_expression()]
            base = self.expr(ch[0]) if ch else None
            arrow = False
            if ch:
                bt = ch[0].type.get_canonical()
                arrow = bt.kind == ci.TypeKind.POINTER
            off = None
            ref = c.referenced
            if ref is not None and ref.kind == K.FIELD_DECL:
                try:
                    o = ref.get_field_offsetof()
                    off = o // 8 if o is not None and o >= 0 else None
                except Exception:
                    off = None
            # a member of a dependent object has no spelling: its name is the text after the last `.` / `->`
            name = c.spelling or re.split(r"\.|->", self.text(c))[-1].strip()
            return Node("member", loc, a=base, name=name, op="->" if arrow else ".", val=off,
                        ty=self.typeinfo(c.type))
        if k == K.ARRAY_SUBSCRIPT_EXPR:
            ch = self.children(c)
            return Node("index", loc, a=self.expr(ch[0]), b=self.expr(ch[1]), ty=self.typeinfo(c.type))
        if k in (K.BINARY_OPERATOR, K.COMPOUND_ASSIGNMENT_OPERATOR):
            ch = self.children(c)
            op = _binop(c)
            if len(ch) != 2:
                return Node("unknown", loc, text=self.text(c))
            a, b = self.expr(ch[0]), self.expr(ch[1])
            if op.endswith("=") and op not in ("==", "!=", "<=", ">="):
                return Node("assign", loc, op=op, a=a, b=b)
            if op not in ("=",):
                v = _evaluate(c) if a.kind == "lit" and b.kind == "lit" else None
                if v is not None:
                    return Node("lit", loc, val=v)
            return Node("bin", loc, op=op, a=a, b=b, ty=self.typeinfo(c.type))
        if k == K.UNARY_OPERATOR:
            ch = self.children(c)
            uk = ci.conf.lib.clang_getCursorUnaryOperatorKind(c)
            op = _UNARY.get(uk, "")
            if not ch or not op:
                return Node("unknown", loc, text=self.text(c))
            return Node("un", loc, op=op, a=self.expr(ch[0]), ty=self.typeinfo(c.type))
        if k.name == "StmtExpr":  # GNU `({ decls; value; })`, as min/max macros of generated code are written
            (block,) = self.children(c) or [None]
            parts = self.children(block) if block is not None else []
            last = parts[-1] if parts and parts[-1].kind.is_expression() else None
            body = [s for s in (self.stmt(x) for x in (parts[:-1] if last is not None else parts)) if s is not None]
            return Node("stmtexpr", loc, body=body, a=self.expr(last) if last is not None else None, text=self.text(c))
        if k == K.CONDITIONAL_OPERATOR:
            ch = self.children(c)
            return Node("cond", loc, a=self.expr(ch[0]), b=self.expr(ch[1]), c=self.expr(ch[2]))
        if k in (K.CSTYLE_CAST_EXPR, K.CXX_STATIC_CAST_EXPR, K.CXX_REINTERPRET_CAST_EXPR, K.CXX_CONST_CAST_EXPR,
                 K.CXX_FUNCTIONAL_CAST_EXPR, K.CXX_DYNAMIC_CAST_EXPR):
            exprs = [x for x in self.children(c) if x.kind.is_expression()]
            if not exprs:
                return Node("unknown", loc, text=self.text(c))
            return Node("cast", loc, ty=self.typeinfo(c.type), a=self.expr(exprs[-1]))
        if k == K.CXX_UNARY_EXPR:
            v = _evaluate(c)
            return Node("lit", loc, val=v) if v is not None else Node("sizeof", loc, text=self.text(c))
        if k == K.INIT_LIST_EXPR:
            return Node("init", loc, args=[self.expr(x) for x in self.children(c) if x.kind.is_expression()])
        if k == K.PACK_EXPANSION_EXPR:
            exprs = [x for x in self.children(c) if x.kind.is_expression()]
            return Node("pack", loc, a=self.expr(exprs[0])) if exprs else Node("unknown", loc, text=self.text(c))
        if k == K.SIZE_OF_PACK_EXPR:
            m = re.search(r"sizeof\s*\.\.\.\s*\(\s*(\w+)", self.text(c))
            return Node("sizeof_pack", loc, name=m.group(1) if m else "", text=self.text(c))
        if k == K.CALL_EXPR:
            return self.call(c, loc)
        if k == K.CXX_THIS_EXPR:
            return Node("unknown", loc, text="this")
        v = _evaluate(c)
        if v is not None:
            return Node("lit", loc, val=v)
        return Node("unknown", loc, text=self.text(c) or k.name)

    def call(self, c, loc) -> Node:
        K = ci.CursorKind
        name = c.spelling
        ch = self.children(c)
        args = list(c.get_arguments())
        obj = None
        callee = ch[0] if ch else None
        while callee is not None and callee.kind == K.UNEXPOSED_EXPR and list(callee.get_children()):
            inner = list(callee.get_children())
            if len(inner) != 1:
                break
            callee = inner[0]
        dep = [i for i, x in enumerate(ch) if x.kind == K.DECL_REF_EXPR and x.referenced is not None and
               x.referenced.kind == K.OVERLOADED_DECL_REF and x.referenced.spelling.startswith("operator")]
        if not name and len(dep) == 1 and len(ch) in (2, 3):
            # an operator on operands of a type a template leaves dependent (`(n - 1) / s * blockDim.x`): clang
            # keeps an unresolved operator call, its operands beside the operator's name
            op = ch[dep[0]].referenced.spelling[len("operator"):].strip()
            operands = [self.expr(x) for i, x in enumerate(ch) if i != dep[0]]
            if len(operands) == 2 and op not in ("()", "[]", "->", ","):
                if op.endswith("=") and op not in ("==", "!=", "<=", ">="):
                    return Node("assign", loc, op=op, a=operands[0], b=operands[1])
                return Node("bin", loc, op=op, a=operands[0], b=operands[1], ty=self.typeinfo(c.type))
            if len(operands) == 1 and op in ("-", "!", "~", "+", "++", "--", "*", "&"):
                return Node("un", loc, op={"++": "pre++", "--": "pre--"}.get(op, op), a=operands[0])
        if c.referenced is None and not args and len(ch) == 1 and callee is not None and callee.kind.is_expression() \
                and not name.startswith("operator") and (
                    callee.kind not in (K.DECL_REF_EXPR, K.OVERLOADED_DECL_REF, K.MEMBER_REF_EXPR) or
                    callee.referenced is not None and callee.referenced.kind in (K.PARM_DECL, K.VAR_DECL, K.FIELD_DECL)):
            # a value converted to a type a template leaves dependent (`IndexType r = (n - 1) / s + 1;`): clang
            # keeps an unresolved construction with the value as its only child; the value is what it holds
            return self.expr(ch[0])
        if name == "operator[]" and len(args) == 2 and _user_method(c.referenced):
            # `t[b][k]` on a class with its own device operator[] (a tensor view): a member call, which returns the
            # element's reference or the next view, as for operator() below (its object is the first argument, also
            # where that is a member, `elem->name[0]`: not the callee operator()'s path takes for a member function)
            scope = _scope(c.referenced)
            if scope == ["std", "array"]:  # (kopt's std::array, libcu++'s too: its element, as a subscript's)
                return Node("index", loc, a=self.expr(args[0]), b=self.expr(args[1]), ty=self.typeinfo(c.type))
            return Node("call", loc, name="::".join(scope) + "::" + name if scope else name, a=self.expr(args[0]),
                        op="", val=_template_argument_sizes(args[0].type.get_canonical()),
                        args=[self.expr(args[1])], targs=[], ty=self.typeinfo(c.type), text=self.text(c))
        if name.startswith("operator") and not name.startswith("operator()"):
            op = name[len("operator"):].strip()
            argn = [self.expr(x) for x in args] if args else [self.expr(x) for x in ch[1:] if x.kind.is_expression()]
            # member operators: the object is the callee's base
            if callee is not None and callee.kind == K.MEMBER_REF_EXPR:
                base = [x for x in callee.get_children() if x.kind.is_expression()]
                if base:
                    argn = [self.expr(base[0])] + argn
            if len(argn) == 2:
                if op.endswith("=") and op not in ("==", "!=", "<=", ">="):
                    return Node("assign", loc, op=op, a=argn[0], b=argn[1])
                if op == "[]":
                    return Node("index", loc, a=argn[0], b=argn[1], ty=self.typeinfo(c.type))
                return Node("bin", loc, op=op, a=argn[0], b=argn[1], ty=self.typeinfo(c.type))
            if len(argn) == 1 and op in ("-", "!", "~", "*", "&", "+", "++", "--"):
                return Node("un", loc, op={"++": "pre++", "--": "pre--"}.get(op, op), a=argn[0])
            return Node("call", loc, name=name, args=argn, text=self.text(c))
        if callee is not None and callee.kind == K.TYPE_REF and c.referenced is None and callee.referenced is not None \
                and callee.referenced.kind in (K.TYPEDEF_DECL, K.TYPE_ALIAS_DECL):
            # `R(args)` in a template, R a typedef of a class template specialization: constructs the class
            under = callee.referenced.underlying_typedef_type.spelling
            m = re.match(r"\s*([\w:]+)\s*<(.*)>\s*$", under)
            if m:
                return Node("call", loc, name=f"{m.group(1).lstrip(':')}::__ctor__", targs=split_top(m.group(2)),
                            args=[self.expr(x) for x in ch[1:] if x.kind.is_expression()], ty=self.typeinfo(c.type),
                            text=self.text(c))
        arrow, class_args = False, None
        if callee is not None and callee.kind == K.MEMBER_REF_EXPR:
            base = [x for x in callee.get_children() if x.kind.is_expression()]
            if base:
                obj = self.expr(base[0])
                t = base[0].type.get_canonical()
                arrow = t.kind == ci.TypeKind.POINTER
                class_args = _template_argument_sizes(t.get_pointee() if arrow else t)
            # a member of a dependent object has no spelling: its name is the text after the last `.` / `->`
            name = callee.spelling or re.split(r"\.|->", self.text(callee))[-1].strip() or name
            scope = _scope(callee.referenced) if callee.referenced is not None else []
            if scope:
                name = "::".join(scope) + "::" + name  # cub::BlockReduce::Sum
            elif obj is not None and obj.kind == "call" and obj.name.endswith("::__ctor__"):
                name = obj.name.removesuffix("__ctor__") + name  # R(storage).Sum in a template
        elif name == "operator()" and c.referenced is not None and c.referenced.kind == K.CXX_METHOD and args:
            # `src(y, x)`: a call of the object's operator() (clang's first argument is the object), a member call
            obj = self.expr(args[0])
            class_args = _template_argument_sizes(args[0].type.get_canonical())
            args = args[1:]
            scope = _scope(c.referenced)
            name = "::".join(scope) + "::" + name if scope else name
        if not name and callee is not None:
            name = callee.spelling or self.text(callee)
        qual = name
        if callee is not None and callee.kind in (K.DECL_REF_EXPR, K.OVERLOADED_DECL_REF):
            ref = callee.referenced
            scope = _scope(ref, classes=False) if ref is not None else []
            if scope:
                qual = "::".join(scope) + "::" + name
        if obj is None and c.referenced is not None and c.referenced.kind == K.CXX_METHOD and \
                c.referenced.is_static_method() and _scope(c.referenced):
            # `Matrix_t::eltd(...)`, a class's static function named through a typedef: by its class's own name
            qual = "::".join(_scope(c.referenced)) + "::" + c.referenced.spelling
        targs = []
        if callee is not None:
            t = self.text(callee)
            m = re.search(r"<(.*)>\s*$", t)
            if m:
                targs = split_top(m.group(1))
                named = [x for x in callee.walk_preorder() if x.kind == K.DECL_REF_EXPR and x.spelling] \
                    if any(re.fullmatch(r"[A-Za-z_][\w:]*", a.strip()) for a in targs) else []
                for x in named:  # `scan<T, NUM_THREADS>(...)`, NUM_THREADS a constant: its value
                    v = _evaluate(x)
                    if isinstance(v, int):
                        targs = [str(v) if a.strip().split("::")[-1] == x.spelling else a for a in targs]
        if not args and ch[1:]:
            args = [x for x in ch[1:] if x.kind.is_expression()]
        ty = self.typeinfo(c.type)
        if c.referenced is not None and c.referenced.kind == K.CONSTRUCTOR:
            # the class constructed (cub::BlockReduce) and its template arguments
            cls = "::".join(_scope(c.referenced))
            m = re.search(r"<(.*)>\s*$", c.type.get_canonical().spelling)
            return Node("call", loc, name=f"{cls}::__ctor__" if cls else "__ctor__", args=[self.expr(x) for x in args],
                        targs=split_top(m.group(1)) if m else [], ty=ty, text=self.text(c))
        return Node("call", loc, name=qual, a=obj, op="->" if arrow else "", val=class_args,
                    args=[self.expr(x) for x in args], targs=targs, ty=ty, text=self.text(c))

    # ---- statements
    def stmt(self, c) -> Node | None:
        K = ci.CursorKind
        k = c.kind
        loc = self.loc(c)
        if k == K.COMPOUND_STMT:
            return Node("block", loc, body=[s for s in (self.stmt(x) for x in self.children(c)) if s is not None])
        if k == K.DECL_STMT:
            decls = [self.decl(x) for x in self.children(c) if x.kind == K.VAR_DECL]
            return decls[0] if len(decls) == 1 else Node("block", loc, body=decls, val="decls")
        if k == K.IF_STMT:
            ch = [x for x in self.children(c) if x.kind != K.VAR_DECL]
            close = _header_close(c)
            # [init-stmt] cond then [else]: the condition is the last child inside the parentheses
            if close is not None:
                head = [x for x in ch if (x.extent.start.line, x.extent.start.column) < close]
                tail = [x for x in ch if (x.extent.start.line, x.extent.start.column) >= close]
            else:
                head, tail = ch[:1], ch[1:]
            if not head or not tail:
                head, tail = ch[:1], ch[1:]
            cond, then = head[-1], tail[0]
            els = tail[1] if len(tail) > 1 else None
            return Node("if", loc, a=self.expr(cond), b=self.stmt(then), c=self.stmt(els) if els is not None else None)
        if k == K.FOR_STMT:
            return self.for_stmt(c, loc)
        if k == K.CXX_FOR_RANGE_STMT:
            return self.range_for(c, loc)
        if k == K.WHILE_STMT:
            ch = self.children(c)
            return Node("while", loc, a=self.expr(ch[-2]), body=[self.stmt(ch[-1])])
        if k == K.DO_STMT:
            ch = self.children(c)
            return Node("do", loc, a=self.expr(ch[-1]), body=[self.stmt(ch[0])])
        if k == K.RETURN_STMT:
            ch = self.children(c)
            return Node("return", loc, a=self.expr(ch[0]) if ch else None)
        if k == K.BREAK_STMT:
            return Node("break", loc)
        if k == K.CONTINUE_STMT:
            return Node("continue", loc)
        if k == K.NULL_STMT:
            return None
        if k == K.ASM_STMT:
            return self.asm(c, loc)
        if k == K.SWITCH_STMT:
            ch = self.children(c)
            return Node("switch", loc, a=self.expr(ch[0]), body=[self.stmt(ch[-1])])
        if k in (K.CASE_STMT, K.DEFAULT_STMT, K.LABEL_STMT):
            ch = self.children(c)
            value = None
            if k == K.CASE_STMT:
                value, ch = self.expr(ch[0]), ch[1:]  # the case value
            body = [self.stmt(x) for x in ch]
            # a case label is a block of the statement it labels (``ast.switch_groups`` reads them in order)
            return Node("block", loc, body=[x for x in body if x is not None], val="decls", a=value,
                        ref={K.CASE_STMT: "case", K.DEFAULT_STMT: "default"}.get(k, ""))
        if k.is_expression():
            return Node("expr", loc, a=self.expr(c))
        if k in (K.UNEXPOSED_STMT,) or k.name == "ATTRIBUTED_STMT":  # e.g. `#pragma unroll` loops, [[likely]]
            ch = [x for x in self.children(c) if not x.kind.is_attribute()]
            if len(ch) == 1:
                return self.stmt(ch[0])
        if k == K.VAR_DECL:
            return self.decl(c)
        return Node("unknown", loc, text=k.name.lower())  # the model builder reports it if it runs

    def decl(self, c) -> Node:
        K = ci.CursorKind
        loc = self.loc(c)
        ch = self.children(c)
        shared = any(x.kind == K.CUDASHARED_ATTR for x in ch)
        constant = any(x.kind == K.CUDACONSTANT_ATTR for x in ch)
        ty = self.typeinfo(c.type)
        exprs = [x for x in ch if x.kind.is_expression()]
        init = None
        if ty.dims:
            # (`long coords[] = {c...};` in a template: a dependent extent its initializer gives, no size expression)
            incomplete = c.type.kind == ci.TypeKind.INCOMPLETEARRAY or bool(exprs) and \
                exprs[-1].kind == K.INIT_LIST_EXPR and re.search(rf"\b{re.escape(c.spelling)}\s*\[\s*\]",
                                                                 self.text(c)) is not None
            if sum(1 for d in ty.dims if d is None) > incomplete:
                # an array type with a dependent extent: libclang visits the size expression of every dimension,
                # the constant ones too, innermost first (`d[W][P][8]`: 8, P, W)
                sized = len(ty.dims) - incomplete
                it = iter(sorted(exprs[:sized], key=lambda x: (x.extent.start.line, x.extent.start.column)))
                exprs = exprs[sized:]
                dims = []
                for i, d in enumerate(ty.dims):
                    size = None if i == 0 and incomplete else next(it, None)
                    dims.append(self.expr(size) if d is None and size is not None else d)
                ty.dims = tuple(dims)
        if exprs:
            init = self._dependent_construction(c, exprs[-1]) or self.expr(exprs[-1])
        ext = c.storage_class == ci.StorageClass.EXTERN
        return Node("decl", loc, name=c.spelling, ty=ty, a=init, shared=shared or constant, extern=ext,
                    val="constant" if constant else None)

    def _dependent_construction(self, var, e) -> Node | None:
        """``View<T, Dim - 1> v(p + off, n);`` in a template: clang keeps the parenthesized arguments unexposed
        under the variable, beside a reference to the class template; a construction of that class (its
        ``__ctor__``, with the template arguments as written)."""
        K = ci.CursorKind
        ref = next((x.referenced for x in self.children(var) if x.kind == K.TEMPLATE_REF), None)
        toks = [t.spelling for t in e.get_tokens()]
        if e.kind != K.UNEXPOSED_EXPR or ref is None or ref.kind != K.CLASS_TEMPLATE or toks[:1] != ["("]:
            return None
        m = re.search(r"<(.*)>\s*$", var.type.spelling)
        return Node("call", self.loc(e), name="::".join([*_scope(ref), ref.spelling, "__ctor__"]),
                    args=[self.expr(x) for x in self.children(e) if x.kind.is_expression()],
                    targs=split_top(m.group(1)) if m else [], ty=self.typeinfo(var.type), text=self.text(var))

    def for_stmt(self, c, loc) -> Node:
        ch = self.children(c)
        toks = list(c.get_tokens())
        # find the header: '(' ... ';' ... ';' ... ')'
        depth, semis, close = 0, [], None
        for t in toks:
            s = t.spelling
            if s == "(":
                depth += 1
            elif s == ")":
                depth -= 1
                if depth == 0:
                    close = t.extent.start
                    break
            elif s == ";" and depth == 1:
                semis.append(t.extent.start)
        init = cond = inc = None
        body = ch[-1] if ch else None
        if len(semis) == 2 and close is not None:
            def pos(x):
                return (x.line, x.column)
            s1, s2, cl = pos(semis[0]), pos(semis[1]), pos(close)
            for x in ch[:-1]:
                p = pos(x.extent.start)
                if p < s1:
                    init = x
                elif p < s2:
                    if x.kind != ci.CursorKind.VAR_DECL:
                        cond = x
                elif p < cl:
                    inc = x
        else:
            rest = ch[:-1]
            init, cond, inc = (rest + [None] * 3)[:3] if len(rest) == 3 else (None, None, None)
        init_n = self.stmt(init) if init is not None else None
        return Node("for", loc, init=init_n, a=self.expr(cond) if cond is not None else None,
                    b=self.expr(inc) if inc is not None else None,
                    body=[self.stmt(body)] if body is not None else [])

    def range_for(self, c, loc) -> Node:
        """``for (decl : array)`` over an array of known length, read as ``for (i = 0; i < N; i += 1) { decl =
        array[i]; body }`` (a reference binds the element); over anything else (a container's iterators) it stays
        unsupported."""
        ch = self.children(c)
        var = next((x for x in ch if x.kind == ci.CursorKind.VAR_DECL), None)
        rng = [x for x in ch[:-1] if x.kind.is_expression()]
        t = rng[-1].type.get_canonical() if rng else None
        if var is None or len(ch) < 3 or t is None or t.kind != ci.TypeKind.CONSTANTARRAY:
            return Node("unknown", loc, text=c.kind.name.lower())
        elem = Node("decl", self.loc(var), name=var.spelling, ty=self.typeinfo(var.type),
                    a=Node("index", loc, a=self.expr(rng[-1]), b=range_index(loc), ty=self.typeinfo(t.element_type)))
        return range_loop(loc, t.element_count, elem, self.stmt(ch[-1]))

    def asm(self, c, loc) -> Node:
        toks = [t.spelling for t in c.get_tokens()]
        strings, i = [], 0
        while i < len(toks) and toks[i] != "(":
            i += 1
        i += 1
        while i < len(toks) and toks[i].startswith('"'):
            strings.append(_unquote(toks[i]))
            i += 1
        # count output operands: constraints between the first ':' and the second ':' (and which only write: `=`)
        n_out, written = 0, []
        if i < len(toks) and toks[i] in (":", "::"):
            if toks[i] == ":":
                depth = 0
                j = i + 1
                while j < len(toks):
                    t = toks[j]
                    if t in ("(", "["):
                        depth += 1
                    elif t in (")", "]"):
                        depth -= 1
                        if depth < 0:
                            break
                    elif depth == 0 and t in (":", "::"):
                        break
                    elif depth == 0 and t.startswith('"'):
                        n_out += 1
                        written.append(_unquote(t).startswith("="))
                    j += 1
        ops = [self.expr(x) for x in self.children(c) if x.kind.is_expression()]
        return Node("asm", loc, text="".join(strings), outs=ops[:n_out], ins=ops[n_out:], val=tuple(written))


_CLASS_KINDS = ()  # the cursor kinds of class definitions (set once libclang is loaded: ``_setup``)


def _scope(c, classes: bool = True) -> list[str]:
    """The namespaces (and, with ``classes``, classes) ``c`` is declared in, outermost first (``cub``,
    ``BlockReduce``; none at file scope)."""
    K = ci.CursorKind
    kinds = (K.NAMESPACE,) + ((K.STRUCT_DECL, K.CLASS_DECL, K.CLASS_TEMPLATE, K.UNION_DECL,
                                K.CLASS_TEMPLATE_PARTIAL_SPECIALIZATION) if classes else ())
    parts, p = [], c.semantic_parent
    while p is not None and p.kind in kinds:
        parts.append(p.spelling)
        p = p.semantic_parent
    return parts[::-1]


def _header_close(c):
    """(line, col) of the ')' closing an if/while header, from the tokens (None when unclear, e.g. macros)."""
    depth = 0
    for t in c.get_tokens():
        sp = t.spelling
        if sp == "(":
            depth += 1
        elif sp == ")":
            depth -= 1
            if depth == 0:
                return (t.extent.start.line, t.extent.start.column)
    return None


def _unquote(s: str) -> str:
    s = s[1:-1] if len(s) >= 2 else s
    return s.replace("\\n", "\n").replace("\\t", "\t").replace('\\"', '"')


_TEMPLATES = ("FUNCTION_TEMPLATE", "CLASS_TEMPLATE", "CLASS_TEMPLATE_PARTIAL_SPECIALIZATION")


def _in_template(c) -> bool:
    p = c.semantic_parent
    while p is not None and p.kind != ci.CursorKind.TRANSLATION_UNIT:
        if p.kind.name in _TEMPLATES:
            return True
        p = p.semantic_parent
    return False


def _is_constexpr(ref) -> bool:
    """A const or constexpr variable (a constexpr one has a const type too: the cheap test first; the tokens of a
    declaration are read only for those)."""
    if ref is None:
        return False
    try:
        if not ref.type.is_const_qualified():
            return False
        toks = []
        for t in ref.get_tokens():
            toks.append(t.spelling)
            if len(toks) == 4:
                break
    except Exception:
        return False
    return "constexpr" in toks or "const" in toks


_LB = re.compile(r"__launch_bounds__\s*\(\s*([^,)]+)")
_SCOPES = {"NAMESPACE", "STRUCT_DECL", "CLASS_DECL"}


def _scope_path(c) -> tuple[list[str], object]:
    """The names of the namespaces and classes enclosing cursor ``c`` (outermost first) and its translation unit's
    cursor."""
    return _scope(c), c.translation_unit.cursor


def _blocks(tu, path: list[str]) -> list:
    """Every block of the namespace or class named by ``path`` (a namespace is reopened in many headers)."""
    found = [tu]
    for q in path:
        found = [x for s in found for x in s.get_children() if x.kind.name in _SCOPES and x.spelling == q]
    return found


def _named_constant(func, name: str) -> int | None:
    """The value of the integer constant ``name`` (``kThreads``, ``Traits::kThreads``) as seen from ``func``: a const
    or constexpr variable of one of the namespaces enclosing it (any of their blocks, in any header), the innermost
    first, or of a namespace one of them uses (``using namespace``). ``__launch_bounds__`` is an attribute libclang
    does not expose, so its argument is looked up by name."""
    path, tu = _scope_path(func)
    if tu is None:
        return None
    *qual, last = name.split("::")
    for depth in range(len(path), -1, -1):
        scopes = _blocks(tu, path[:depth])
        for s in list(scopes):
            for x in s.get_children():
                refs = [r.referenced for r in x.get_children() if r.kind.name == "NAMESPACE_REF"] \
                    if x.kind.name == "USING_DIRECTIVE" else []
                if refs and refs[-1] is not None:  # `using namespace a::b;`: its last name is the namespace
                    scopes += _blocks(tu, _scope_path(refs[-1])[0] + [refs[-1].spelling])
        for q in qual:
            scopes = [x for s in scopes for x in s.get_children() if x.kind.name in _SCOPES and x.spelling == q]
        for s in scopes:
            for x in s.get_children():
                if x.kind.name == "VAR_DECL" and x.spelling == last and _is_constexpr(x):
                    v = _evaluate(x)
                    if isinstance(v, int) and v > 0:
                        return v
    return None


def translation_unit(path: Path, source: str, *, defines: dict | None = None, include_dirs=(), host: bool = False,
                     empty_headers=(), context: str | None = None, patched: dict | None = None):
    """libclang's translation unit of ``source`` (the contents of ``path``) under the analyzers' CUDA declarations
    and stub headers, with its errors kept: ``parse`` refuses a unit with errors, ``kopt import`` reads host code
    that never parses cleanly here. Includes of the file that resolve nowhere are commented out (line numbers
    kept). ``host``: also declare the CUDA runtime's host API (cuda_host_decls.h: launches, cudaMalloc...) and keep
    the preprocessing record (macro definitions and uses). ``empty_headers``: header names that resolve to empty
    files wherever they are included (a missing header is a fatal error, after which clang stops instantiating
    templates). ``context``: text read before the file (see ``_includer_contexts``). ``patched``: header path ->
    the text read in its place (its host declarations that do not parse blanked, see ``_patch_headers``)."""
    global _index
    _setup()
    if _index is None:
        _index = ci.Index.create()
        import atexit
        atexit.register(_release)
    std = "c++20" if build_flags.cxx20(path) else "c++17"
    args = ["-x", "cuda", "-nocudainc", "-nocudalib", "-nostdinc", "-nostdinc++", "--cuda-gpu-arch=sm_90",
            "--cuda-device-only", f"-std={std}", "-Wno-unknown-cuda-version", "-ferror-limit=0",
            "-Wno-register",  # `register int i;`: an error in C++17 to clang, a warning to nvcc
            "-Wno-c++11-narrowing",  # `int a[] = {x * 0.5}`: likewise
            "-Wno-reserved-user-defined-literal",  # `"node ("fNID")"`: pre-C++11 code pastes a macro on a string
            "-include", str(DECLS), *(["-include", str(HOST_DECLS)] if host else []), "-isystem", str(STUBS),
            *(["-DKOPT_HOST_API"] if host or context is not None else [])]
    for d in include_dirs:
        args += ["-I", str(d)]
    # `#include <common.cu>` of a file beside it (its build passes -I.): searched last, after every other folder
    args += ["-idirafter", str(Path(path).parent)]
    if _OWN_TENSORMAP.search(_COMMENTS.sub(" ", source)):
        args.append("-DKOPT_SOURCE_DEFINES_CUTENSORMAP")
    for k, v in {**dict.fromkeys(GPU_BUILD_SWITCHES, 1), **(defines or {})}.items():
        args.append(f"-D{k}" if v is None else f"-D{k}={v}")
    fname = str(path)
    text = _strip_unknown_includes(Path(fname), source, include_dirs)
    # `__shared__ alignas(N) T x`: clang takes no attribute list after __shared__'s; the same text reordered keeps
    # every column of the line
    text = _SHARED_ALIGNAS.sub(lambda m: m.group(3) + m.group(2) + m.group(1), text)
    # `__device__ __shared__ float s[N];` in a kernel body: nvcc takes the redundant `__device__` (old CUDA SDK
    # code writes it), clang rejects a `__device__` local; blanked, columns kept
    text = _DEVICE_SHARED.sub(lambda m: " " * 10 + m.group(1) if m.group(1) else m.group(2) + " " * 10, text)
    # `half __restrict *p`: nvcc takes the qualifier before the `*`, clang wants it on the pointer (`*__restrict`)
    text = _RESTRICT_BEFORE_STAR.sub(lambda m: "*" + m.group(1) + (m.group(2) or " "), text)
    text = _asm_as_clang_reads(text)
    unsaved = [(fname, text)] + [(f"{_EMPTY}/{h}", _missing_header_text(path, h, include_dirs, patched))
                                 for h in empty_headers]
    if empty_headers:
        args += ["-isystem", _EMPTY]
    if context is not None:
        unsaved.append((_CONTEXT, context))
        # the includer is host code: its headers declare host functions with the runtime's types
        extra = ["-include", _CONTEXT] if host else ["-include", str(HOST_DECLS), "-include", _CONTEXT]
        args[args.index(str(DECLS)) + 1:args.index(str(DECLS)) + 1] = extra
    if _TOOLKIT in (patched or {}):
        args[args.index(str(DECLS)) + 1:args.index(str(DECLS)) + 1] = ["-include", _TOOLKIT]
    for name, patch in (patched or {}).items():
        unsaved = [u for u in unsaved if u[0] != name] + [(name, patch)]
    options = ci.TranslationUnit.PARSE_DETAILED_PROCESSING_RECORD if host else 0
    try:
        # (libclang 18 crashes on some C++20 host code read after a precompiled preamble: C++20 parses without one)
        pch = _preamble(args) if std == "c++17" else None
        if pch is not None:
            at = args.index(str(DECLS))
            try:
                tu = _index.parse(fname, args=args[:at - 1] + ["-include-pch", pch] + args[at + 1:],
                                  unsaved_files=unsaved, options=options)
                if not any("precompiled" in d.spelling or "PCH" in d.spelling for d in tu.diagnostics):
                    return tu
            except ci.TranslationUnitLoadError:
                pass
        return _index.parse(fname, args=args, unsaved_files=unsaved, options=options)
    except ci.TranslationUnitLoadError as exc:
        raise FrontendError(f"libclang could not parse the file: {exc}")


def _asm_as_clang_reads(text: str) -> str:
    """``text`` with its inline asm written as clang accepts what nvcc does. PTX special registers (`%globaltimer`,
    `%laneid`): nvcc passes them through, clang reads `%g...` as an operand reference and rejects the statement;
    `%%` is the escaped form (the rest of the line moves one column per register). Operands without a comma
    between them: see ``_asm_operand_commas``."""
    if "asm" not in text:
        return text
    return _asm_operand_commas(_PTX_SPECIAL.sub(r"%\1", text))


def _asm_headers(path: Path, source: str, include_dirs) -> dict:
    """Header path -> its text with its inline asm rewritten (``_asm_as_clang_reads``), for each header the file
    reaches whose asm clang would reject (a `getLaneMaskLt()` helper reading `%lanemask_lt` in a utility header)."""
    out = {}
    for _, found, text in _reached_headers(path, source, include_dirs):
        if found is not None and "asm" in text:
            fixed = _asm_as_clang_reads(text)
            if fixed != text:
                out[str(found)] = fixed
    return out


def _asm_operand_commas(text: str) -> str:
    """``text`` with the comma nvcc does without put between two operands of an inline asm statement (``::"r"(v)
    "l"(p)``, which clang rejects): the blank before the second operand becomes the comma (columns kept); and its
    strings' references to PTX registers the statement declares (``%v``) escaped."""
    out, at = [], 0
    for m in _ASM_START.finditer(text):
        if m.start() < at:
            continue
        d, i = 1, m.end()
        while i < len(text) and d:
            d += {"(": 1, ")": -1}.get(text[i], 0)
            i += 1
        body = text[m.end():i]
        if "%" in body:  # (a PTX register the statement declares, `.reg.pred %did;`: nvcc passes it, clang wants `%%`)
            body = _STRING.sub(lambda x: _PTX_LOCAL.sub("%%", x.group(0)), body)
        out += [text[at:m.end()], _ASM_NO_COMMA.sub(r"\1,\2", body)]
        at = i
    return "".join(out) + text[at:]


_PCH: dict = {}  # preamble arguments -> precompiled cuda_decls.h (path), or None when it could not be built


def _libclang_version() -> str:
    """The libclang wheel's version: a precompiled header is only read by the libclang that wrote it."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("libclang")
    except PackageNotFoundError:
        return ""


def _preamble(args: list) -> str | None:
    """cuda_decls.h precompiled under ``args`` (the translation unit's; the macros and the CUDA mode must match),
    built once per process and argument set: reading the declarations costs most of a small file's parse, and a
    file is parsed several times when host code must be blanked. None when it cannot be built (then the header is
    read as text)."""
    import hashlib
    import os
    import tempfile

    base, i = [], 0
    while i < len(args):  # every option but the force-included files and the include folders (-D ones kept)
        if args[i] in ("-include", "-I", "-idirafter") or args[i] == "-isystem" and args[i + 1] == _EMPTY:
            i += 2
            continue
        base.append(args[i])
        i += 1
    key = tuple(base)
    if key in _PCH:
        return _PCH[key]
    _PCH[key] = None
    try:
        # the header's modification time too: clang refuses a PCH whose input file changed on disk since it was
        # built (a reinstall with the same text), and every parse would then silently read the header as text
        stamp = (key, DECLS.read_bytes(), DECLS.stat().st_mtime_ns, str(STUBS), _libclang_version())
        digest = hashlib.sha256(repr(stamp).encode()).hexdigest()[:20]
        folder = Path(tempfile.gettempdir()) / f"kopt-pch-{os.getuid() if hasattr(os, 'getuid') else 0}"
        folder.mkdir(exist_ok=True)
        out = folder / f"cuda_decls-{digest}.pch"
        if not out.is_file():
            tu = _index.parse(str(DECLS), args=base + ["-Wno-pragma-once-outside-header"],
                              options=ci.TranslationUnit.PARSE_INCOMPLETE)
            if any(d.severity >= 3 for d in tu.diagnostics):
                return None
            tmp = folder / f"{out.name}.{os.getpid()}.tmp"
            tu.save(str(tmp))
            os.replace(tmp, out)  # another process may build the same file at the same time
        _PCH[key] = str(out)
    except Exception:  # no writable temp folder, a save error: read the header as text
        return None
    return _PCH[key]


def _nearest_first(path: Path, include_dirs) -> list:
    """``include_dirs`` with the folders nearest ``path`` first (the longest path in common), else in their order: a
    project of modules each with its own ``src/internal.hpp`` builds each module with its own folder, so a quoted
    include found in several folders given resolves to the file's module."""
    here = os.path.abspath(Path(path).parent)

    def shared(d):
        try:
            return len(os.path.commonpath([here, os.path.abspath(d)]))
        except ValueError:  # (another drive)
            return 0
    return sorted(include_dirs, key=lambda d: -shared(d))


def parse(path: Path, source: str, *, defines: dict | None = None, include_dirs=()) -> Unit:
    """Parse ``source`` (the contents of ``path``); see ``_parse``. A file written to be included (a kernel header
    that uses a type, macro or function its includer declares first) is read again after the includer's
    preprocessor lines and typedefs up to its ``#include`` (``_includer_contexts``, each includer in turn) when names are undeclared;
    that reading is kept when it leaves fewer kernels unread."""
    include_dirs = _nearest_first(path, include_dirs)
    if not _may_declare_kernels(path, source, include_dirs):  # a header of device helpers, host code: no parse
        return Unit(path=str(path), source=source, funcs={}, frontend="libclang")
    asm = _asm_headers(path, source, include_dirs)  # (the same for each reading below)
    try:
        unit, err = _parse(path, source, defines=defines, include_dirs=include_dirs, asm_headers=asm), None
    except FrontendError as exc:
        unit, err = None, exc
    if unit is not None and not unit.broken:
        return unit
    hip = {k: v for k, v in _hip_switches(path, source, include_dirs).items() if k not in (defines or {})}
    if hip:  # a HIP-ported project whose device qualifiers come with the HIP runtime: read as hipcc on NVIDIA
        try:
            again = _parse(path, source, defines={**(defines or {}), **{k: v for k, (v, _) in hip.items()}},
                           include_dirs=include_dirs, asm_headers=asm)
        except FrontendError:
            again = None
        if again is not None and (unit is None or len(again.broken) < len(unit.broken)):
            again.build_defines = {**hip, **again.build_defines}
            unit, err = again, None
            if not unit.broken:
                return unit
    if unit is None and not _UNDECLARED.search(str(err)) or unit is not None and not any(
            _UNDECLARED.search(w) for w in unit.broken.values()):
        if err is not None:
            raise err
        return unit
    best, best_context = unit, None
    for includer, contexts in _includer_contexts(path, include_dirs):  # several files may include it
        again = None
        for context in contexts:  # with every include of the includer, then with only those of its own folder
            try:
                again = _parse(path, source, defines=defines, include_dirs=include_dirs, context=context,
                               asm_headers=asm)
                break
            except FrontendError:
                continue
        if again is not None and (best is None or len(again.broken) < len(best.broken)):
            again.context, best_context = f"the declarations of {includer}, which includes this file", context
            best = again
            if not again.broken:
                break
    if best is None or best.broken:
        # a file compiled with a header force-included (`nvcc -include mesh_constants_gpu.h kernels/k.cu`): read
        # after the project's header that declares the types it leaves undeclared
        missing = _undeclared_types(err if best is None else best.broken.values())
        for header in _declaring_headers(path, missing, include_dirs) if missing else ():
            try:
                again = _parse(path, source, defines=defines, include_dirs=include_dirs,
                               context=f'#include "{header}"\n', asm_headers=asm)
            except FrontendError:
                break
            if best is None or len(again.broken) < len(best.broken):
                again.context = f"{os.path.relpath(header, path.parent)}, force-included (it declares " \
                                f"{', '.join(sorted(missing)[:3])}, which the file uses undeclared)"
                best, best_context = again, f'#include "{header}"\n'
            break
    if best is None or best.broken:
        # last, macro-style names no file defines read as integer constants of any value, and the names of headers
        # found nowhere as opaque (after the includers, which may define them)
        try:
            again = _parse(path, source, defines=defines, include_dirs=include_dirs, context=best_context,
                           unknown_constants=True, asm_headers=asm)
        except FrontendError:
            again = None
        if again is not None and (again.unknown_constants or again.opaque_names) and (
                best is None or len(again.broken) < len(best.broken)):
            again.context = best.context if best is not None else ""
            best = again
    if best is None:
        raise err
    return best


_DIRECTIVE = re.compile(r"\s*#\s*(if|ifdef|ifndef|elif|else|endif)\b(.*)")
_UNKNOWN_TYPE = re.compile(r"unknown type name '(\w+)'")
_HEADER_SUFFIXES = (".h", ".hpp", ".cuh", ".hh", ".hxx")


def _undeclared_types(reasons) -> set:
    """The unknown type names the parse's errors (or the broken kernels' reasons) name."""
    return {m.group(1) for r in ([str(reasons)] if isinstance(reasons, Exception) else reasons)
            for m in _UNKNOWN_TYPE.finditer(str(r))}


def _declaring_headers(path: Path, names: set, include_dirs) -> list:
    """The headers of ``path``'s project that declare one of ``names`` at file scope (``typedef float realw;``,
    ``using``, ``struct``/``class``, ``#define``): the one that declares most of them, unless another declares as
    many (two headers of one name for two builds: no guess)."""
    from . import build_flags

    _, files = build_flags.project_files(path, include_dirs)
    decl = re.compile(r"^[ \t]*(?:typedef\b[^;]*\b({0})\s*;|using\s+({0})\s*=|(?:struct|class)\s+({0})\b[^;]*$|"
                      r"#[ \t]*define[ \t]+({0})\b)".format("|".join(map(re.escape, sorted(names)))), re.M)
    scored = []
    for f in files or ():
        if f.suffix not in _HEADER_SUFFIXES:
            continue
        text = source_text(f) or ""
        if not any(n in text for n in names):
            continue
        got = {g for m in decl.finditer(text) for g in m.groups() if g}
        if got:
            scored.append((-len(got), str(f)))
    scored.sort()
    return [Path(scored[0][1])] if scored and (len(scored) == 1 or scored[1][0] > scored[0][0]) else []


def _enclosing_group(lines: list, below: int, reach: int):
    """(line index, directive, condition text, branches) of the ``#if``/``#ifdef``/``#ifndef`` that opens the
    conditional group ``lines[below]`` is in, at most ``reach`` lines up (``branches``: the group's own ``#else`` and
    ``#elif`` lines between them); None when none opens there."""
    depth = branches = 0
    for i in range(below - 1, max(below - reach, 0) - 1, -1):
        if i >= len(lines):
            return None
        d = _DIRECTIVE.match(lines[i])
        if not d:
            continue
        if d.group(1) in ("else", "elif"):
            branches += depth == 0
            continue
        depth += 1 if d.group(1) == "endif" else -1
        if depth < 0:
            return i, d.group(1), d.group(2), branches
    return None


_HIP_RUNTIME = re.compile(r'^[ \t]*#[ \t]*include[ \t]*[<"]hip/hip_runtime(?:_api)?\.h[>"]', re.M)


def _hip_switches(path: Path, source: str, include_dirs, limit: int = 200) -> dict:
    """name -> ("1", where) for the build switches under which the file or a header it includes (transitively)
    includes the HIP runtime (``#ifdef ENABLE_HIP`` ``#include <hip/hip_runtime.h>``): a project ported to HIP that
    builds its GPU code with hipcc, on NVIDIA through CUDA (kopt's ``hip/hip_runtime.h`` maps HIP's names to
    CUDA's). A switch of AMD's platform is left out."""
    dirs = [*map(Path, include_dirs)]
    out, seen, todo = {}, set(), [(path, source)]
    while todo and len(seen) < limit:
        here, text = todo.pop()
        lines = text.split("\n") if _HIP_RUNTIME.search(text) else []
        for m in _HIP_RUNTIME.finditer(text):
            g = _enclosing_group(lines, text.count("\n", 0, m.start()), 60)
            if g is None or g[3] or g[1] not in ("ifdef", "if"):
                continue  # (the include in the group's first branch)
            t = re.fullmatch(r"\s*(?:defined\s*\(?\s*)?([A-Za-z_]\w*)\s*\)?\s*(?://.*|/\*.*)?", g[2])
            if t and "AMD" not in t.group(1) and "HCC" not in t.group(1):
                out.setdefault(t.group(1), ("1", f"the HIP build of {here.name}:{g[0] + 1}"))
        for name in _INCLUDE.findall(text):
            found = next((d / name for d in (here.parent, *dirs) if (d / name).is_file()), None)
            if found is not None and found not in seen:
                seen.add(found)
                try:
                    todo.append((found, found.read_text(errors="replace")))
                except OSError:
                    pass
    return out


def _includer_contexts(path: Path, include_dirs, level: int = 0):
    """(includer's name, context texts) for each file that ``#include``s ``path`` (``includers.includers``): the includer's
    preprocessor lines and one-line typedefs before that include (what a compile of the includer has declared
    when it reaches the file), with includes that resolve nowhere commented out; a second text keeps only the
    includes of the includer's own folder (other headers can hold host code that does not parse here). A
    generator: the caller stops at the first context that reads every kernel. The includers of an includer follow
    its own contexts (one level), their text before the includer's."""
    for sib, text, m in includers(path):
        here = sib.parent.absolute()  # the context is an unsaved file elsewhere: its includes must be absolute
        lines, depth = [], 0
        for ln in text[:m.start()].split("\n"):
            if not _CONTEXT_LINE.match(ln):
                continue
            inc = _INCLUDE.match(ln)
            if inc and (here / inc.group(1)).is_file():  # the context is read from elsewhere: name the folder
                ln = f'#include "{here / inc.group(1)}"'
            word = ln.strip().lstrip("#").strip().split(" ")[0]
            depth += word in ("if", "ifdef", "ifndef") or -(word == "endif")
            lines.append(ln)
        close = "\n#endif" * max(depth, 0) + "\n"  # the includer's include guard is still open there
        full = _strip_unknown_includes(sib, "\n".join(lines), include_dirs) + close
        local = "\n".join(ln for ln in lines if not (_INCLUDE.match(ln) and not Path(
            _INCLUDE.match(ln).group(1)).is_absolute())) + close
        # first everything before the include (device functions and constants the header uses are defined there),
        # when it is at file scope; its host code that does not parse is blanked like a header's
        prefix = text[:m.start()]
        bare = _COMMENTS.sub(" ", re.sub(r'"(?:\\.|[^"\\\n])*"', '""', prefix))
        whole = []
        if bare.count("{") == bare.count("}"):
            whole = [_strip_unknown_includes(sib, _INCLUDE.sub(
                lambda i: f'#include "{here / i.group(1)}"' if (here / i.group(1)).is_file() else i.group(0),
                prefix), include_dirs) + close]
        name = os.path.relpath(sib, path.parent)  # `main.cu`, `../../main.cu`
        yield name, whole + [full, local]
        if not level:  # a file included by a file that is itself included (main.cu > work.cu > k.cu)
            for outer, contexts in _includer_contexts(sib, include_dirs, 1):
                yield f"{outer} (through {name})", [c + full for c in contexts]


def _parse(path: Path, source: str, *, defines: dict | None = None, include_dirs=(), context=None,
           unknown_constants: bool = False, asm_headers: dict | None = None) -> Unit:
    """Parse ``source`` (the contents of ``path``).

    Host code is not the analyzers' business: when the file has errors, the ``#include``s of headers that hold
    errors and the top-level declarations that hold them and are not device code (``main``, host helpers, ``FILE*``
    globals) are blanked and the file parsed again. Kernels that still hold an error are blanked too and listed in
    ``unit.broken`` (name -> reason) for the fallback. The unit libclang finally walks has no errors (invalid types
    can crash it): ``FrontendError`` when some remain, or when no kernel is left. ``unknown_constants``: after the
    host code is blanked, macro-style names still undeclared are read as integer constants of any value
    (``_unknown_constants``; ``parse`` asks for it last). ``asm_headers``: ``_asm_headers`` of the file, when the
    caller has it already."""
    fname, original = str(path), source
    # header path -> the text read in its place
    patched = dict(asm_headers) if asm_headers is not None else _asm_headers(path, source, include_dirs)
    tu = translation_unit(path, source, defines=defines, include_dirs=include_dirs, context=context, patched=patched)
    errors = _errors(tu, fname)
    # (a quoted include found nowhere is left out of the parse: its names are undeclared, or it is reported unfound)
    unfound = _unfound(path, source, context, include_dirs) if errors else set()
    given = list(include_dirs)
    # headers the build's -I folders hold (`-I $(INC_DIR)` in the Makefile above src/), then those the headers found
    # there include (PhysX's module headers each include another module's)
    found_in = []
    for _ in range(_INCLUDE_ROUNDS):
        more = [(d, f) for d, f in _build_includes(path, unfound, given) if str(d) not in include_dirs]
        if not more:
            break
        found_in += more
        include_dirs = [*include_dirs, *(str(d) for d, _ in more)]
        # the headers those folders' headers include by quoted name (the project's own): an unfound <pthread.h> or
        # <curl/curl.h> is the system's, whose copy in a project is a Windows build's (ccminer's `compat/`)
        unfound = _unfound(path, source, context, include_dirs) & _quoted(path, source, include_dirs)
    if include_dirs != given:
        patched = _asm_headers(path, source, include_dirs)
        tu = translation_unit(path, source, defines=defines, include_dirs=include_dirs, context=context,
                              patched=patched)
        errors = _errors(tu, fname)
        unfound = _unfound(path, source, context, include_dirs)
    # a header that includes a file found nowhere (<vector> from a helper header) stops clang: make those empty
    stopped = any(_NOT_FOUND.match(e.spelling) for e in errors)
    missing = sorted(unfound) if stopped else []
    if stopped:
        tu, errors = _reparse(tu, path, source, defines, include_dirs, 1, missing, context, patched)
    build = _build_defines(path, errors, defines, tu, missing, include_dirs)
    if build:  # names the build defines (-DWARP_SIZE=32 in the Makefile beside the file)
        defines = {**(defines or {}), **{k: v for k, (v, _) in build.items()}}
        tu = translation_unit(path, source, defines=defines, include_dirs=include_dirs, empty_headers=missing,
                              context=context, patched=patched)
        errors = _errors(tu, fname)
    source, n = _blank_error_directives(fname, source, errors, patched)
    source, f = _keyword_fixits(fname, source, errors, patched)
    tu, errors = _reparse(tu, path, source, defines, include_dirs, n + f, missing, context, patched)
    skipped, broken = 0, {}
    if any(_WANTS_DECL.search(e.spelling) for e in errors):
        tu, errors = _toolkit_declarations(tu, errors, path, source, defines, include_dirs, missing, context, patched)
    if any(_DEVICE_LAUNCH.search(e.spelling) for e in errors):
        source, n = _blank_device_launches(fname, source, errors)
        tu, errors = _reparse(tu, path, source, defines, include_dirs, n, missing, context, patched)
    # first host declarations that hold errors, the file's and its headers' (blanking exposes more: a large host
    # library such as dmlc-core's takes a step for each layer of classes built on one that did not parse)
    for step in range(10):
        if not errors:
            break
        source, fixed = _keyword_fixits(fname, source, errors, patched)  # (in code a blanking exposed)
        if fixed:
            tu, errors = _reparse(tu, path, source, defines, include_dirs, fixed, missing, context, patched)
            continue
        source, n = _blank_host(tu, fname, source, errors)
        h = _patch_headers(tu, fname, errors, patched, context) if step < 8 else 0
        # a header of host code only that still has errors is read empty (a host library such as a hash map
        # whose templates clang's recovery cuts apart); one with device code or macros the file's kernels may
        # need is left out altogether, with the include that reaches it
        if not n + h:
            h = _empty_host_headers(tu, fname, errors, patched)
        source, fired = _blank_error_directives(fname, source, errors, patched)  # (an `#error` blanking exposed)
        n += fired
        if not n + h:  # then a header's device functions that hold errors, its macros and types kept
            h = _patch_headers(tu, fname, errors, patched, context, device=True)
        source, m = _blank_includes(tu, fname, source, errors) if not n + h else (source, 0)
        if not n + h + m:
            break
        skipped += n + h + m
        tu, errors = _reparse(tu, path, source, defines, include_dirs, n + h + m, missing, context, patched)
    # (after the host code that does not parse is blanked: the names device code uses)
    unknown = _unknown_constants(errors, source, defines) if unknown_constants else []
    if unknown:  # macro-style names nothing defines (a build script's `sed` writes their values in)
        trial = {**patched, _TOOLKIT: "\n".join([patched.get(_TOOLKIT, ""),
                                                *(f"extern __constant__ int {n};" for n in unknown)])}
        again = translation_unit(path, source, defines=defines, include_dirs=include_dirs, empty_headers=missing,
                                 context=context, patched=trial)
        found = _errors(again, fname)
        if len(found) < len(errors):
            tu, errors = again, found
            patched[_TOOLKIT] = trial[_TOOLKIT]
        else:
            unknown = []
    opaque: list = []
    if unknown_constants and (missing or unfound):  # names a header found nowhere declares (NVSHMEM's, NCCL's)
        tu, errors, opaque = _opaque_library(tu, errors, path, source, defines, include_dirs, missing, context,
                                             patched)
    for _ in range(3):  # then device code that still holds errors; blanking a device function can break its callers
        if not errors:
            break
        for name, why in _broken_kernels(tu, fname, errors).items():
            broken.setdefault(name, why)
        source, n = _blank(tu, fname, source, errors, device=True)
        if not n:  # host declarations the blanking exposed (an explicit instantiation of a blanked host launcher)
            source, n = _blank_host(tu, fname, source, errors)
        if not n:
            break
        tu, errors = _reparse(tu, path, source, defines, include_dirs, n, missing, context, patched)
    if errors:  # libclang must never walk a unit with errors: invalid types can crash it
        d = errors[0]
        where = f"{d.location.file}:{d.location.line}:{d.location.column}" if d.location.file else ""
        raise FrontendError(f"libclang: {where}: {d.spelling}" + (f" (+{len(errors) - 1} more)" if len(errors) > 1 else ""))
    conv = _Conv(fname, source)
    unit = Unit(path=fname, source=source, funcs={}, frontend="libclang")
    unit.skipped_host = skipped
    unit.broken = broken
    unit.build_defines = build
    unit.build_includes = [(os.path.relpath(d, path.parent), f) for d, f in found_in]
    unit.configured = [(h, *c[1:]) for h in missing for c in [build_flags.configured_header(path, h, include_dirs)] if c]
    unit.unknown_constants = unknown
    unit.opaque_names = opaque
    K = ci.CursorKind
    top = list(tu.cursor.get_children())  # walked twice: the file's own declarations, then its headers'
    for c in _file_decls(tu.cursor, fname, top):
        if c.kind in (K.FUNCTION_DECL, K.FUNCTION_TEMPLATE):
            f = _func(conv, c, source)
            if f is not None:
                unit.funcs.setdefault(f.name, []).append(f)
        elif c.kind == K.VAR_DECL:
            d = conv.decl(c)
            unit.globals[d.name] = d
        elif c.kind in _CLASS_KINDS or c.kind == K.CXX_METHOD:
            for f in _device_methods(conv, c):
                unit.funcs.setdefault(f.name, []).append(f)
            if c.kind == K.CLASS_TEMPLATE:
                _record_layout(c, unit.class_layouts)
    own = set(unit.funcs)
    for f in _header_device_decls(tu, top, patched, unit.class_layouts):
        if isinstance(f, Node):  # a `__device__`/`__constant__` variable a header declares (`extern`)
            unit.globals.setdefault(f.name, f)
        elif f.name not in own:  # the file's own definition of a name wins
            unit.funcs.setdefault(f.name, []).append(f)
    if not unit.kernels and broken:
        raise FrontendError(f"libclang: no kernel parses ({'; '.join(broken.values())[:300]})")
    if not unit.kernels and any("__global__" in a and "__global__" not in b
                                for a, b in zip(original.split("\n"), source.split("\n"))):
        # every kernel gone, some blanked as host code (clang dropped the `__global__` of one whose name a macro of
        # the includer writes: `__global__ void NB_KERNEL_FUNC_NAME(k, _F)(...)`): the fallback reads them
        raise FrontendError("libclang: the file's kernels were blanked")
    unit.problems = conv.problems
    return unit


_INCLUDE_ROUNDS = 4  # rounds of looking for the folders of headers found nowhere, each after the last's were added


def _may_declare_kernels(path: Path, source: str, include_dirs) -> bool:
    """Whether ``source`` may declare a kernel: it names ``__global__``, or a header it includes (transitively, found
    beside it or in ``include_dirs``) defines a macro that does (``#define KERNEL __global__``). A file that does not
    is read as no kernels without a parse (a header of device helpers or host code, which its includers' parses
    read)."""
    return "__global__" in source or any(
        _DEFINES_GLOBAL.search(text) for _, found, text in _reached_headers(path, source, include_dirs) if found)


def _unfound(path: Path, source: str, context, include_dirs) -> set:
    """The header names the file and its context include (transitively) that no folder given resolves."""
    return set(_missing_headers(path, source, include_dirs)) | set(_missing_headers(path, context or "", include_dirs))


def _build_includes(path: Path, unfound: set, include_dirs=()) -> list:
    """(folder, where it came from) for each include folder of the build files near ``path`` (``build_flags``) that
    holds one of the ``unfound`` headers, then each folder above ``path`` that holds a path-qualified one at that path,
    then for each header still unfound that the project holds once (the project: ``build_flags.project_files`` of
    ``path`` and the ``include_dirs`` given)."""
    from . import build_flags

    if not unfound:
        return []
    out = [(d, f) for d, f in build_flags.include_dirs_for(path) if any((d / m).is_file() for m in unfound)]
    rest = {m for m in unfound if not any((d / m).is_file() for d, _ in out)}
    out += build_flags.ancestor_includes(path, rest)  # (`common/launch.cuh` from `src/bevfusion/`: `-I src`)
    rest = {m for m in rest if not any((d / m).is_file() for d, _ in out)}
    project = build_flags.project_files(path, include_dirs) if rest else None
    return out + build_flags.headers_by_name(path, rest, project, enclosing=True)


def _build_defines(path: Path, errors, defines, tu, missing=(), include_dirs=()) -> dict:
    """name -> (value, build file) for the undeclared names of ``errors`` that the build files near ``path`` define
    (``build_flags``) and ``defines`` does not; for the switches the build defines (``-DNDG3d``) under which the
    file or a header it reads defines such a name (``#ifdef NDG3d`` ... ``#define p_Nfields 6``), or else the value
    of the first ``#if X == V`` branch that declares one (``#if PRECISION == 1`` ... ``typedef float Real;``, a value
    the build chooses); and for the CUDA
    build's switch under which the file includes a header that defines one (``#ifdef CUDA`` / ``#include
    "GPUImplDefs.h"``, which defines ``KW_GLOBAL_KERNEL``: a file written for CUDA and OpenCL)."""
    from . import build_flags

    names = {m.group(1) or m.group(2) for e in errors for m in [_UNDECLARED_NAME.search(e.spelling)] if m}
    names -= set(defines or ())
    found = build_flags.defines_for(path, names) if names else {}
    if names - set(found):
        files = [str(path)] + sorted({i.include.name for i in tu.get_includes() if i.include is not None})
        switches: dict = {}
        for f in files:
            for s, test in _switches_defining(f, names - set(found)).items():
                if s not in (defines or {}):
                    switches.setdefault(s, (test, f))
        found.update(build_flags.defines_for(path, set(switches) - set(found)) if switches else {})
        for s, (test, f) in switches.items():
            # a value the build chooses (`#if PRECISION == 1`): the first branch's (not the compiler's own names)
            if test is not None and s not in found and not s.startswith("__"):
                found[s] = (test[0], f"the first branch of {Path(f).name}:{test[1]} (it declares a name the file uses)")
    if names - set(found):
        for s, header in _switches_including(path, names - set(found), include_dirs):
            if s not in found and s not in (defines or {}) and gpu_switch(s):
                found[s] = ("1", f"the CUDA build's switch under which {path.name} includes {header}")
    if errors and missing:  # the includes of missing headers the parse reached (read empty)
        reached = sorted({(i.location.file.name, i.location.line) for i in tu.get_includes()
                          if i.include is not None and i.include.name.startswith(f"{_EMPTY}/") and i.location.file})
        wanted = {n for e in errors for m in [_MISSING_NAME.search(e.spelling)] if m for n in m.groups() if n}
        for f, ln in reached if wanted else ():
            for n, v in _avoiding_missing(f, ln, {*(defines or ()), *found}, wanted).items():
                found.setdefault(n, v)
    if any(_WRONG_SIDE.match(c.spelling) for e in errors for c in e.children):
        # a __host__ __device__ function read as host code (a kernel calls it, or it calls a device function): the
        # switch whose branch defines the unit's device qualifier macros (`#ifdef BUILD_CUDA_MODULE` / `#define
        # OPEN3D_HOST_DEVICE __host__ __device__` / `#else` / `#define OPEN3D_HOST_DEVICE`) is the CUDA build's,
        # which compiles a kernel file; defined unless the build or the caller says otherwise
        macros = _device_macros(tu)
        files = sorted({i.include.name for i in tu.get_includes() if i.include is not None})
        known = {*(defines or ()), *found}
        for s in sorted(set().union(*(_switches_defining(f, macros) for f in files)) if macros else ()):
            # (one named for the CUDA build: not `USE_HIP`, nor a platform's or a language's switch whose branch
            # defines such a macro too, `NCCL_OS_WINDOWS`, `PNANOVDB_C`)
            if s not in known and not s.startswith("__") and _CUDA_WORD.search(s) and gpu_switch(s) is not False:
                found[s] = ("1", "the CUDA branch of its device qualifier macros")
    if errors:
        known = {*(defines or ()), *found}
        for s in sorted(_stand_in_switches(tu) - known):
            found[s] = ("1", "the CUDA build's, whose absence includes a CPU stand-in for CUDA")
    configured = _configured(errors, {*(defines or ()), *found})
    if configured:  # the build's value where it gives one, else the value the header's first branch tests
        given = build_flags.defines_for(path, set(configured))
        found.update({n: given.get(n, v) for n, v in configured.items()})
    return found


_CUDA_WORD = re.compile(r"CUDA|GPU|NVCC", re.I)
_GROUP_TEST = re.compile(r"\s*\(?\s*(?:defined\s*\(?\s*([A-Za-z_]\w*)\s*\)?|([A-Za-z_]\w*)\s*(==|>=|>)\s*(\d+)[uUlL]*)"
                         r"\s*\)?\s*(?://.*|/\*.*)?$")


# the compiler's and platform's own macros: a branch they pick is another compiler's (`#ifdef _MSC_VER` typedefs
# `__int16`), never a configuration choice
_PLATFORM_MACROS = {"_MSC_VER", "_WIN32", "_WIN64", "WIN32", "_WINDOWS", "__APPLE__", "__MINGW32__", "__CYGWIN__",
                    "__FreeBSD__", "__OpenBSD__", "__ANDROID__", "__EMSCRIPTEN__", "__sun", "__INTEL_COMPILER",
                    "__HIP_PLATFORM_AMD__", "__HIPCC__"}


# a header that defines CUDA's qualifiers away (`#define __device__`): a CPU build's stand-in for the toolkit
_CUDA_STAND_IN = re.compile(r"^[ \t]*#[ \t]*define[ \t]+__(?:device|global|host|shared)__[ \t]*$", re.M)
_NOT_DEFINED = re.compile(r"^[ \t]*#[ \t]*(?:ifndef[ \t]+([A-Za-z_]\w*)|if[ \t]*!\s*defined\s*\(?\s*([A-Za-z_]\w*)\s*\)?)"
                          r"[ \t]*(?://.*|/\*.*)?$")


def _stand_in_switches(tu) -> set:
    """The CUDA build's switches under whose ``#ifndef`` a header the unit reads includes a CPU stand-in for CUDA
    (k2's ``#ifndef K2_WITH_CUDA`` / ``#include "k2/csrc/fake_cuda.h"``, which defines ``__device__`` away): a kernel
    file is compiled by the CUDA build, which defines them."""
    out = set()
    for inc in tu.get_includes():
        if inc.include is None or inc.location.file is None or \
                not _CUDA_STAND_IN.search(source_text(Path(inc.include.name)) or ""):
            continue
        depth = 0  # the innermost conditional open at the include
        lines = (source_text(Path(inc.location.file.name)) or "").split("\n")[:inc.location.line - 1]
        for ln in reversed(lines):
            word = _CONDITIONAL_LINE.match(ln)
            if word is None:
                continue
            if word.group(1) == "endif":
                depth += 1
            elif word.group(1) in ("if", "ifdef", "ifndef"):
                if depth == 0:
                    m = _NOT_DEFINED.match(ln)
                    name = m and (m.group(1) or m.group(2))
                    if name and gpu_switch(name):
                        out.add(name)
                    break
                depth -= 1
            elif depth == 0:  # an `#else` or `#elif` branch: not the switch's absence alone
                break
    return out


def _avoiding_missing(file: str, line: int, known, wanted: set) -> dict:
    """name -> (value, where) for the configuration macro that picked the branch holding the include at ``file``:
    ``line`` of a header found nowhere, when another branch of its group declares a name of ``wanted`` (names the
    parse misses) and the macro's value picks it (``#if OPENFST_VER >= 10800`` typedefs ``int32`` itself, ``#else
    #include <fst/types.h>``; ``#ifndef HAVE_FST`` ... ``#else``): a configure step's choice between an external
    library and the project's own definitions. The branch that needs no missing header is taken."""
    lines = (source_text(Path(file)) or "").split("\n")
    g = _enclosing_group(lines, line - 1, 199)
    if g is None:
        return {}
    start, word, cond, branch = g  # branch: how many #else/#elif of the group lie between its #if and the include
    if branch > 1 or branch == 1 and word == "ifndef" or branch == 0 and word != "ifndef":
        return {}
    other = _other_branch(lines, start, first=branch == 1)  # the branch the include is not in
    if other is None or _INCLUDE.search(other) or not any(re.search(rf"\b{re.escape(n)}\b", other) for n in wanted):
        return {}
    where = f"the branch of {Path(file).name}:{start + 1} that needs no missing header"
    name = cond.strip()
    if word == "ifndef":  # `#ifndef USE_OWN` around the include: the #else after it
        return {name: ("1", where)} if re.fullmatch(r"[A-Za-z_]\w*", name) and name not in known else {}
    # the include in the #else (or first #elif) of a first branch a value of an undefined macro picks
    t = _GROUP_TEST.match(name) if word == "if" else None
    name = name if word == "ifdef" else (t.group(1) or t.group(2)) if t else ""
    if not re.fullmatch(r"[A-Za-z_]\w*", name) or name in known or name in _PLATFORM_MACROS:
        return {}
    value = "1" if word == "ifdef" or t.group(1) else str(int(t.group(4)) + (t.group(3) == ">"))
    return {name: (value, where)}


def _other_branch(lines: list, start: int, first: bool) -> str | None:
    """The text of the first branch of the group opened at ``lines[start]`` (``first``), else of its second
    branch (after its first ``#else``/``#elif``); None when the group has no such branch."""
    depth, cuts = 0, []  # the lines of the group's own #else/#elif/#endif
    for i in range(start + 1, min(start + 400, len(lines))):
        d = _DIRECTIVE.match(lines[i])
        word = d.group(1) if d else None
        if word in ("if", "ifdef", "ifndef"):
            depth += 1
        elif word == "endif" and depth:
            depth -= 1
        elif word in ("else", "elif", "endif") and not depth:
            cuts.append(i)
            if word == "endif":
                break
    if first:
        return "\n".join(lines[start + 1:cuts[0]]) if len(cuts) >= 2 else None
    return "\n".join(lines[cuts[0] + 1:cuts[1]]) if len(cuts) >= 2 else None


def _configured(errors, known) -> dict:
    """name -> (value, where) for each configuration macro an ``#error`` directive stops the parse for: the directive
    sits in the ``#else`` of a group whose first ``#if`` compares an undefined name with a constant (``#if
    HOOMD_LONGREAL_SIZE == 32 ... #elif ... #else #error``), a value a configure step writes into a header kopt does
    not have. The first branch's value is taken. So is the CUDA build's switch that group's first branch tests
    (``#if defined(GKO_COMPILING_CUDA) ... #elif defined(GKO_COMPILING_HIP) ... #else #error "Executor definition
    missing"``): the build a kernel file is compiled by defines it."""
    out = {}
    for e in errors:
        f = e.location.file
        if f is None:
            continue
        lines = (source_text(Path(f.name)) or "").split("\n")
        ln = e.location.line
        if not 0 < ln <= len(lines) or not re.match(r"\s*#\s*error\b", lines[ln - 1]):
            continue
        g = _enclosing_group(lines, ln - 1, 199)
        c = re.match(r"\s*\(?\s*([A-Za-z_]\w*)\s*==\s*(\w+)\s*\)?\s*(?://.*|/\*.*)?$", g[2]) if g else None
        if g and g[1] == "if" and c and c.group(1) not in known:
            out.setdefault(c.group(1), (c.group(2), f"the first branch of {Path(f.name).name}:{g[0] + 1}"))
        t = _GROUP_TEST.match(g[2]) if g and g[1] == "if" else None
        switch = g[2].strip() if g and g[1] == "ifdef" else t.group(1) if t else None
        if switch and switch not in known and gpu_switch(switch):
            out.setdefault(switch, ("1", f"the CUDA build's branch of {Path(f.name).name}:{g[0] + 1}"))
    return out


def _unknown_constants(errors, source: str, defines) -> list:
    """The macro-style names (``REPLACE_ITERATIONS``) the errors say are undeclared that neither the sources, the
    build files (one value) nor ``defines`` define and that are never called: values written in before the build (a
    script's ``sed``) or chosen by it (``ifeq`` branches giving two), read as integer constants of unknown value.
    Sorted."""
    names = {m.group(1) for e in errors for m in [_UNDECLARED_NAME.search(e.spelling)] if m and m.group(1)}
    return sorted(n for n in names if _MACRO_STYLE.fullmatch(n) and n not in (defines or {}) and
                  not re.search(rf"\b{n}\s*\(|#\s*define\s+{n}\b", source))


_MACRO_STYLE = re.compile(r"[A-Z][A-Z0-9]*_[A-Z0-9_]*|[A-Z]{2,}[A-Z0-9]*")


def _opaque_library(tu, errors, path, source, defines, include_dirs, missing, context, patched: dict):
    """(unit, errors, names) with the names the errors say are undeclared (``_library_names``) declared opaque
    after the toolkit's prototypes, recorded in ``patched``; a name used only once another is declared (a call
    whose argument has an undeclared type) is found in a later round. Kept only when fewer lines hold errors (an
    opaque value's member, `ibgda_get_state()->num_rc_per_pe`, is still an error: one for one before)."""
    names: list = []
    current, found = tu, errors
    texts = [source, *(t for _, f, t in _reached_headers(path, source, include_dirs) if f is not None)]
    for _ in range(4):
        more = [n for n in _library_names(found) if n not in names and not _defined_in(n[0], texts)]
        if not more:
            break
        names += more
        trial = {**patched, _TOOLKIT: "\n".join([patched.get(_TOOLKIT, ""), _opaque_declarations(names)])}
        current = translation_unit(path, source, defines=defines, include_dirs=include_dirs, empty_headers=missing,
                                   context=context, patched=trial)
        found = _errors(current, str(path))
    if not names or len(_error_lines(found)) >= len(_error_lines(errors)):
        return tu, errors, []
    patched[_TOOLKIT] = trial[_TOOLKIT]
    return current, found, [n for n, _ in names]


def _defined_in(name: str, texts) -> bool:
    """Whether one of ``texts`` defines ``name``, a function with a body or a type: the project's own, left out
    because it did not parse, is no library's."""
    pattern = re.compile(rf"\b{name}\s*\([^;{{}}]*\)[^;{{}}()]*\{{|"
                         rf"\b(?:struct|class|union|enum|typedef[^;]*|using)\s+{name}\b")
    return any(name in t and pattern.search(t) for t in texts)


def _error_lines(errors) -> set:
    return {(e.location.file.name if e.location.file else None, e.location.line) for e in errors}


def _library_names(errors) -> list:
    """(name, "type" / "call") for each name the errors say is undeclared: an unknown type name, or an identifier
    called (``name(``); one not called is left to ``_unknown_constants``. Sorted."""
    out = set()
    for e in errors:
        m = _UNDECLARED_NAME.search(e.spelling)
        if not m or e.location.file is None:
            continue
        if m.group(2):
            out.add((m.group(2), "type"))
            continue
        lines = (source_text(Path(e.location.file.name)) or "").split("\n")
        line = lines[e.location.line - 1] if 0 < e.location.line <= len(lines) else ""
        rest = line[e.location.column - 1:]
        if rest.startswith(m.group(1)) and rest[len(m.group(1)):].lstrip().startswith("("):
            out.add((m.group(1), "call"))
    return sorted(out)


# what a header found nowhere declares, as kopt reads it: a type of unknown members, a call of unknown effect whose
# value is an integer or any pointer its use needs (an integer first: `f() == 0` is not ambiguous)
_OPAQUE_VALUE = ("struct __kopt_opaque_value { __host__ __device__ operator long long() const; "
                 "template <class T> __host__ __device__ operator T*() const; };")


def _opaque_declarations(names: list) -> str:
    return "\n".join([_OPAQUE_VALUE, *(
        f"struct {n} {{}};" if kind == "type" else
        f"template <class... A> __host__ __device__ __kopt_opaque_value {n}(A&&...);" for n, kind in names)])


def _size_of(t) -> int | None:
    """libclang's size of type ``t``; None for a placeholder type (`<overloaded function type>`: a function template
    named as an argument of a dependent call; `<bound member function type>`, `<dependent type>`), whose size
    libclang does not refuse but traps on (the process dies with an illegal instruction)."""
    if t.kind in (ci.TypeKind.OVERLOAD, ci.TypeKind.DEPENDENT, ci.TypeKind.INVALID) or \
            t.spelling.startswith("<") and t.spelling.endswith(" type>"):
        return None
    return t.get_size()


def _switches_including(path: Path, names: set, include_dirs=()) -> list[tuple[str, str]]:
    """(switch, header) for each header ``path`` includes under a switch (``preproc.switched_includes``) that is
    found beside it or in ``include_dirs`` and defines one of ``names``."""
    out = []
    for switch, inc in switched_includes(source_text(path) or ""):
        found = next((d / inc for d in (path.parent, *map(Path, include_dirs)) if (d / inc).is_file()), None)
        text = source_text(found) if found is not None else None
        if text and any(re.search(rf"^[ \t]*#[ \t]*define[ \t]+{re.escape(n)}\b", text, re.M) for n in names):
            out.append((switch, inc))
    return out


def _switches_defining(file: str, names: set) -> dict:
    """``preproc.switches_defining`` of ``file``: the switches (and ``#if X == V`` tests) under which it defines or
    declares one of ``names``."""
    try:
        text = Path(file).read_text(errors="replace")
    except OSError:
        return {}
    return switches_defining(text, names) if any(n in text for n in names) else {}


def _toolkit_declarations(tu, errors, path, source, defines, include_dirs, missing, context, patched: dict):
    """(unit, errors) with the CUDA toolkit's prototypes of the names the errors say are undeclared (or have no
    matching overload) read after ``cuda_decls.h`` (``real_decls``), recorded in ``patched``; a prototype that
    does not parse here (a type the declarations lack) is dropped. A call nested in an undeclared one is reported
    only once its argument is declared: a few rounds. Kept only when fewer errors remain."""
    from . import real_decls

    protos: list[str] = []
    best = (tu, errors)
    for _ in range(4):
        names = {next(g for g in m.groups() if g) for e in best[1] for m in [_WANTS_DECL.search(e.spelling)] if m}
        more = [p for p in real_decls.declarations(names) if p not in protos]
        if not more:
            break
        protos += more
        trial = {**patched, _TOOLKIT: "\n".join(protos)}
        again = translation_unit(path, source, defines=defines, include_dirs=include_dirs, empty_headers=missing,
                                 context=context, patched=trial)
        found = _errors(again, str(path))
        bad = {e.location.line for e in found if e.location.file is not None and e.location.file.name == _TOOLKIT}
        if bad:  # drop those and read again
            protos = [p for i, p in enumerate(protos, 1) if i not in bad]
            trial = {**patched, _TOOLKIT: "\n".join(protos)}
            again = translation_unit(path, source, defines=defines, include_dirs=include_dirs,
                                     empty_headers=missing, context=context, patched=trial)
            found = _errors(again, str(path))
            if any(e.location.file is not None and e.location.file.name == _TOOLKIT for e in found):
                break
        if len(found) >= len(best[1]):
            break
        best = (again, found)
        patched[_TOOLKIT] = trial[_TOOLKIT]
    return best


def _quoted(path: Path, source: str, include_dirs) -> set:
    """The header names the file and the headers it reaches include by quoted name (`#include "x.h"`)."""
    return {n for _, found, text in [(None, None, source), *_reached_headers(path, source, include_dirs)] if text
            for n in LOCAL_INCLUDE.findall(text)}


def _missing_headers(path: Path, source: str, include_dirs) -> list[str]:
    """Names the file's headers include (transitively) that resolve nowhere: clang stops at the first one."""
    return sorted({name for name, found, _ in _reached_headers(path, source, include_dirs) if found is None})


def _reached_headers(path: Path, source: str, include_dirs, limit: int = 300):
    """(name as included, the file it resolves to or None, its text) for each ``#include`` the file reaches,
    transitively, each file followed once (the analyzer's own stubs are not followed)."""
    dirs = [STUBS, *map(Path, include_dirs)]
    seen, todo = set(), [(path.parent, source)]
    while todo and len(seen) < limit:
        here, text = todo.pop()
        for name in _INCLUDE.findall(text):
            found = next((Path(os.path.normpath(d / name)) for d in (here, *dirs) if (d / name).is_file()), None)
            if found is None:  # (normalized: `./base.h` and `../x/base.h` reach a header many times over)
                yield name, None, ""
            elif found not in seen and STUBS not in found.parents:
                seen.add(found)
                try:
                    inner = found.read_text(errors="replace")
                except OSError:
                    continue
                yield name, found, inner
                todo.append((found.parent, inner))


def _reparse(tu, path, source, defines, include_dirs, changed: int, empty_headers=(), context=None, patched=None):
    """The unit of ``source`` again when ``changed``, and its errors. A header found nowhere that stops the parse and
    the scan for such headers could not name (``#include DMLC_EXECINFO_H``: a macro names it) is added to
    ``empty_headers`` (a list) and read empty, as those the scan names are."""
    if not changed:
        return tu, _errors(tu, str(path))
    for _ in range(8):
        tu = translation_unit(path, source, defines=defines, include_dirs=include_dirs, empty_headers=empty_headers,
                              context=context, patched=patched)
        errors = _errors(tu, str(path))
        fresh = [m.group(1) for e in errors for m in [_NOT_FOUND.match(e.spelling)] if m]
        if not isinstance(empty_headers, list) or not fresh or fresh[0] in empty_headers:
            break
        empty_headers.append(fresh[0])
    return tu, errors


def _blanked(chunk: str) -> str:
    """``chunk`` as spaces, its line breaks and its whole conditional-directive lines kept (a launch whose arguments
    are written in `#if` branches would otherwise leave an `#if` without its `#endif`), and the backslash that
    continues a line (a launch inside a macro's definition: the rest of the macro stays in it). A directive kept
    keeps the lines its backslashes continue it onto (`#if defined(X) && \\` alone would not parse)."""
    lines, out, kept = chunk.split("\n"), [], False
    for i, ln in enumerate(lines):
        kept = bool(i and (kept or _CONDITIONAL_LINE.match(ln)))
        out.append(ln if kept else " " * (len(ln) - 1) + "\\" if i < len(lines) - 1 and ln.endswith("\\") else
                   " " * len(ln))
        kept = kept and ln.endswith("\\")
    return "\n".join(out)


_ERROR_DIRECTIVE = re.compile(r"[ \t]*#[ \t]*error\b")
_UNROLL_ORPHAN = re.compile(r"expected a for, while, or do-while loop to follow '#pragma (?:unroll|nounroll)'")
_UNROLL_PRAGMA = re.compile(r"[ \t]*#[ \t]*pragma[ \t]+(?:unroll|nounroll)\b")


# clang's errors for a keyword nvcc's front end does without (a dependent template or type named without
# `template`/`typename`), each with the fix-it clang proposes: inserting the keyword
_KEYWORD_FIXES = re.compile(r"use 'template' keyword to treat|missing 'template' keyword prior to|"
                            r"missing 'typename' prior to dependent type name")


def _read_text(name: str, fname: str, source: str, patched: dict) -> str | None:
    """The text the parse reads for ``name``: ``source`` for the file itself, a header's patched or stored text;
    None for kopt's own inputs (stubs, declarations, empty headers, contexts) and an unreadable file."""
    if name == fname:
        return source
    if name.startswith(_EMPTY) or STUBS in Path(name).parents or name in (_CONTEXT, _TOOLKIT, str(DECLS)):
        return None
    try:
        return patched.get(name) or Path(name).read_text(errors="replace")
    except OSError:
        return None


def _write_text(name: str, fname: str, source: str, text: str, patched: dict) -> str:
    """``_read_text``'s counterpart: ``text`` as the file's new source (returned) or a header's new text (in
    ``patched``); the file's source, as it now is."""
    if name == fname:
        return text
    patched[name] = text
    return source


def _keyword_fixits(fname: str, source: str, errors, patched: dict) -> tuple[str, int]:
    """``source`` and the headers it reads (their new text in ``patched``) with the insertions clang proposes for
    the errors ``_KEYWORD_FIXES`` names applied (``typename R::with_scope<S>`` -> ``typename R::template
    with_scope<S>``, as nvcc reads it), and how many."""
    edits: dict = {}
    for e in errors:
        if not _KEYWORD_FIXES.search(e.spelling):
            continue
        fixes = [(f.range.start, f.range.end, f.value) for f in e.fixits]
        if not fixes and e.spelling.startswith("missing 'template' keyword prior to"):
            fixes = [(e.location, e.location, "template ")]  # (proposed without a fix-it: before the name)
        for start, end, value in fixes:
            if start.file is None or (start.line, start.column) != (end.line, end.column):
                continue  # insertions only
            edits.setdefault(start.file.name, set()).add((start.line, start.column, value))
    count = 0
    for name, fixes in edits.items():
        text = _read_text(name, fname, source, patched)
        if text is None:
            continue
        rows = text.split("\n")
        for line, col, value in sorted(fixes, reverse=True):  # right to left: earlier columns stay valid
            if line > len(rows):
                continue
            raw = rows[line - 1].encode()
            rows[line - 1] = (raw[:col - 1] + value.encode() + raw[col - 1:]).decode(errors="replace")
            count += 1
        source = _write_text(name, fname, source, "\n".join(rows), patched)
    return source, count


def _blank_error_directives(fname: str, source: str, errors, patched: dict) -> tuple[str, int]:
    """``source`` with the ``#error`` lines that fired blanked, in the file and in the headers it reads (their new
    text in ``patched``), and how many. Such a line asks for a build setting (``#error "X is undefined. The build
    system should define it"``) or an architecture the analysis does not need: the code around it is read as it
    is, the setting's macro undefined."""
    fired: dict = {}
    orphans: dict = {}  # file -> lines of statements an unroll pragma precedes that are no loop
    for e in errors:  # (once: a unit whose host headers are missing has tens of thousands of errors)
        loc = e.location
        if loc.file is not None and loc.line > 0:
            fired.setdefault(loc.file.name, set()).add(loc.line)
            if _UNROLL_ORPHAN.match(e.spelling):
                orphans.setdefault(loc.file.name, []).append(loc.line)
    count = 0
    for name, lines in fired.items():
        text = _read_text(name, fname, source, patched)
        if text is None:
            continue
        rows = text.split("\n")
        hit = [i for i in sorted(lines) if i <= len(rows) and _ERROR_DIRECTIVE.match(rows[i - 1])]
        # an unroll pragma before a statement that is no loop: nvcc warns and ignores it, clang stops there
        for line in orphans.get(name, ()):
            i = next((j for j in range(line - 1, max(line - 4, 0), -1)
                      if j <= len(rows) and _UNROLL_PRAGMA.match(rows[j - 1])), None)
            if i is not None and i not in hit:
                hit.append(i)
        for i in hit:
            rows[i - 1] = ""
        if hit:
            count += len(hit)
            source = _write_text(name, fname, source, "\n".join(rows), patched)
    return source, count


def _blank_device_launches(fname: str, source: str, errors) -> tuple[str, int]:
    """``source`` with the kernel launches made from device code (dynamic parallelism: clang reads no device-side
    ``<<<>>>``) blanked up to their semicolon, and how many. The child grid is a kernel of its own, analyzed
    separately (its block is read from this launch); the parent's analysis covers the parent's accesses."""
    lines = source.split("\n")
    starts = [0]
    for ln in lines:
        starts.append(starts[-1] + len(ln) + 1)
    text, done = source, set()
    for e in errors:
        loc = e.location
        if not _DEVICE_LAUNCH.search(e.spelling) or loc.file is None or loc.file.name != fname or \
                not 0 < loc.line <= len(lines):
            continue
        o = starts[loc.line - 1] + loc.column - 1
        k = text.find("<<<", o)
        if k < 0 or ";" in text[o:k]:
            k = text.rfind("<<<", 0, o + 3)
        # (a configuration written in `#if` branches: the callee is before the group's directives)
        w = max(0, k - 300)
        before = "\n".join(" " * len(ln) if _CONDITIONAL_LINE.match(ln) else ln for ln in text[w:k].split("\n"))
        callee = _CALLEE_BEFORE.search(before) if k >= 0 else None
        close = text.find(">>>", k)
        if callee is None or close < 0 or callee.start() in done:
            continue
        i = text.find("(", close)
        depth = 0
        while 0 <= i < len(text):
            depth += {"(": 1, ")": -1}.get(text[i], 0)
            if depth == 0:
                break
            i += 1
        if i < 0 or i >= len(text):
            continue
        a, b = w + callee.start(), i + 1
        text = text[:a] + _blanked(text[a:b]) + text[b:]
        done.add(a)
    return text, len(done)


def _patch_headers(tu, fname: str, errors, patched: dict, context: str | None, device: bool = False) -> int:
    """Blank the host declarations that hold errors in each header the file reads (helper headers full of host
    code: ``std::string`` helpers, file I/O), recording each header's new text in ``patched``; its macros, types
    and device functions stay declared. With ``device``, the header's declarations that hold errors whatever they
    are (a ``__host__ __device__`` helper naming what a missing system header declares): the rest of the header
    stays, where leaving it out through its ``#include`` would lose every macro the file's kernels use (a kernel
    calling a blanked helper then falls back alone). How many declarations were blanked."""
    count = 0
    by_file: dict = {}  # (grouped once: each blanking reads only its header's errors, of tens of thousands)
    for e in errors:
        if e.location.file is not None:
            by_file.setdefault(e.location.file.name, []).append(e)
    for name in sorted(set(by_file) - {fname}):
        if name.startswith(_EMPTY) and name not in patched or Path(name).parent == STUBS or \
                STUBS in Path(name).parents or name in (str(DECLS), str(HOST_DECLS)):
            continue  # (kopt's own inputs; a configured header is patched as the header it stands for)
        text = patched.get(name)
        if text is None:
            if name == _CONTEXT:
                text = context or ""
            else:
                try:
                    text = Path(name).read_text(errors="replace")
                except OSError:
                    continue
        mine = by_file[name]
        text, n = _blank(tu, name, text, mine, device=True) if device else _blank_host(tu, name, text, mine)
        if n:
            patched[name] = text
            count += n
    return count


_DEVICE_CODE = re.compile(r"__(?:device|global|constant|shared|managed|launch_bounds)__|\b(?:threadIdx|blockIdx|"
                          r"__syncthreads)\b")


def _empty_host_headers(tu, fname: str, errors, patched: dict) -> int:
    """Record an empty text in ``patched`` for each header (not the file) that holds errors and no device code (no
    ``__device__``/``__global__`` function, no ``__constant__``/``__shared__`` variable, no macro the unit defines as
    such: ``HOST_DEVICE``); how many."""
    count = 0
    device = _DEVICE_CODE
    named = sorted(_device_macros(tu))
    if named:
        device = re.compile(_DEVICE_CODE.pattern + r"|\b(?:" + "|".join(map(re.escape, named)) + r")\b")
    for name in sorted({e.location.file.name for e in errors if e.location.file is not None} - {fname}):
        if name.startswith(_EMPTY) or name in (_CONTEXT, _TOOLKIT, str(DECLS), str(HOST_DECLS)) or \
                Path(name).parent == STUBS or STUBS in Path(name).parents or patched.get(name) == "":
            continue
        try:
            original = Path(name).read_text(errors="replace")
        except OSError:
            continue
        if not device.search(_COMMENTS.sub(" ", original)):
            patched[name] = ""
            count += 1
    return count


_DEVICE_MACRO = re.compile(r"^[ \t]*#[ \t]*define[ \t]+(\w+)\b.*__(?:device|global)__", re.M)


def _device_macros(tu) -> set:
    """The names of the macros the unit's headers define as ``__device__`` or ``__global__`` (``#define HOST_DEVICE
    __host__ __device__``), as their files are written (read once per unit)."""
    names = getattr(tu, "_kopt_device_macros", None)
    if names is None:
        names = set()
        for f in {i.include.name for i in tu.get_includes() if i.include is not None}:
            names.update(_defined_device_macros(source_text(Path(f)) or ""))
        tu._kopt_device_macros = names
    return names


@functools.lru_cache(maxsize=1024)
def _defined_device_macros(text: str) -> tuple:
    return tuple(_DEVICE_MACRO.findall(text))


def _blank_host(tu, fname: str, text: str, errors) -> tuple[str, int]:
    """``text`` (the contents of ``fname``) with the top-level host declarations that hold errors blanked (line
    breaks kept), and how many. A declaration's whole extent comes from tree-sitter (clang's error recovery can cut
    one that does not parse into pieces, and blanking a piece leaves the rest to fail); errors no host declaration
    holds there go to clang's extents (``_blank``)."""
    from .ts_front import host_declarations

    mine = [e for e in errors if e.location.file is not None and e.location.file.name == fname]
    data = text.encode()
    starts = [0] + [i + 1 for i, b in enumerate(data) if b == 10]
    at = [(e, starts[e.location.line - 1] + e.location.column - 1) for e in mine if 0 < e.location.line <= len(starts)]
    decls = host_declarations(text, _device_macros(tu))
    # the innermost declaration that holds each error: a host class's member function rather than the whole class
    # (a kernel may use the class's data)
    spans = sorted({min((d for d in decls if d[0] <= o < d[1]), key=lambda d: d[1] - d[0])
                    for _, o in at if any(a <= o < b for a, b in decls)})
    if spans:
        buf = bytearray(data)
        blanked = []
        for a, b in spans:
            body = _BODY_AFTER.match(data, b)  # a signature written in `#if` branches: its body stands alone,
            if body:                           # and the other branches' signatures go with it
                a, b = _group_start(data, a), _closing(data, body.end() - 1)
            # (comments blanked in place: offsets in ``code`` are offsets in ``data``)
            code = _COMMENT.sub(lambda m: b" " * len(m.group()), data[a:b])
            b = a + _unopened_closer(code)  # tree-sitter's recovery can take in the `}` of enclosing namespaces
            code = code[:b - a]
            after = re.match(rb"\s*\}", data[b:])
            if after and code.count(b"{") - code.count(b"}") == 1:
                # tree-sitter's recovery ended a definition one brace short (an `#ifdef` between the arms of an
                # `else if` chain): its last brace would be left alone
                b += after.end()
            linkage = _LINKAGE_BEFORE.search(data, max(a - 400, 0), a)  # `extern "C"` alone would not parse
            blanked.append((linkage.start() if linkage else a, b))
        for a, b in blanked:
            buf[a:b] = bytes(c if c == 10 else 32 for c in buf[a:b])
        comments = [(m.start(), m.end()) for m in _COMMENT.finditer(data)] if b"/*" in data else []
        for a, b in blanked:  # the directives of each blanked span, unless a comment holds them
            for m in _CONDITIONAL.finditer(data, a):
                if m.start() >= b:
                    break
                if not any(c <= m.start() < d for c, d in comments):
                    buf[m.start():m.end()] = m.group()
        text = buf.decode(errors="replace")
    rest = [e for e, o in at if not any(a <= o < b for a, b in spans)]
    text, n = _blank(tu, fname, text, rest, device=False) if rest else (text, 0)
    return text, len(spans) + n


def _unopened_closer(code: bytes) -> int:
    """The position of the first ``}`` in ``code`` that closes a brace opened before it, when only such closers
    follow it (the ends of enclosing namespaces), else the length of ``code``."""
    depth = 0
    for i, c in enumerate(code):
        depth += (c == 123) - (c == 125)
        if depth < 0:
            return i if not code[i:].strip(b"}; \t\r\n") else len(code)
    return len(code)


def _closes_namespace(text: str, at: int) -> bool:
    """Whether the ``}`` at ``text[at]`` closes a ``namespace`` or ``extern "C"`` block (comments skipped)."""
    code = _COMMENTS.sub(lambda m: " " * len(m.group()), text[:at])
    depth = 0
    for i in range(len(code) - 1, -1, -1):
        c = code[i]
        if c == "}":
            depth += 1
        elif c == "{":
            if not depth:
                return bool(_BLOCK_OPENER.search(code, max(0, i - 200), i))
            depth -= 1
    return False


class _Position(NamedTuple):
    line: int
    column: int


def _before_unopened_closers(lines: list, s, t):
    """The end ``t`` of an extent starting at ``s`` (1-based line and column), moved before the ``}`` that close
    braces opened before the extent (error recovery can stretch a declaration over its namespaces' ends)."""
    if not 0 < s.line <= t.line <= len(lines):
        return t
    chunk = "\n".join(lines[s.line - 1:t.line])
    first = s.column - 1
    end = len(chunk) - len(lines[t.line - 1]) + t.column - 1
    code = _COMMENT.sub(lambda m: b" " * len(m.group()), chunk[first:end].encode(errors="replace"))
    cut = _unopened_closer(code)
    if cut == len(code):
        return t
    at = first + len(code[:cut].decode(errors="replace"))
    line = s.line + chunk.count("\n", 0, at)
    return _Position(line, at - (chunk.rfind("\n", 0, at) + 1) + 1)


def _group_start(data: bytes, a: int) -> int:
    """The start of the ``#if`` line that opens the conditional group position ``a`` is in, or ``a``."""
    depth = 0
    for m in reversed(list(_CONDITIONAL.finditer(data, max(a - 4000, 0), a))):
        word = re.match(rb"[ \t]*#[ \t]*(\w+)", m.group()).group(1)
        depth += {b"endif": 1, b"if": -1, b"ifdef": -1, b"ifndef": -1}.get(word, 0)
        if depth < 0:
            return m.start()
    return a


def _closing(data: bytes, i: int) -> int:
    """The position after the ``}`` that closes the ``{`` at ``data[i]`` (comments and literals skipped), or the end."""
    depth, n = 0, len(data)
    while i < n:
        c = data[i]
        if c == 47 and data[i + 1:i + 2] in (b"/", b"*"):  # a comment
            end = data.find(b"\n" if data[i + 1] == 47 else b"*/", i + 2)
            i = n if end < 0 else end + 1
        elif c in (34, 39):  # a string or character literal
            j = i + 1
            while j < n and data[j] != c and data[j] != 10:
                j += 2 if data[j] == 92 else 1
            i = j
        elif c == 123:
            depth += 1
        elif c == 125:
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1
    return n


def _blank_includes(tu, fname: str, source: str, errors) -> tuple[str, int]:
    """``source`` with each ``#include`` line (of the file itself) through which a header with errors is reached
    commented out, and how many."""
    parent = {}  # header -> (including file, line)
    for inc in tu.get_includes():
        if inc.include is not None and inc.location.file is not None:
            parent.setdefault(inc.include.name, (inc.location.file.name, inc.location.line))
    lines = source.split("\n")
    done = set()
    for e in errors:
        f = e.location.file.name if e.location.file is not None else None
        seen = set()
        while f is not None and f != fname and f in parent and f not in seen:
            seen.add(f)
            f, line = parent[f]
            if f == fname and line not in done and 0 < line <= len(lines) and \
                    lines[line - 1].lstrip().startswith("#"):
                done.add(line)
                lines[line - 1] = "//" + lines[line - 1]
    return "\n".join(lines), len(done)


def _broken_kernels(tu, fname: str, errors) -> dict:
    """Kernel name -> the first error inside it."""
    K = ci.CursorKind
    out = {}
    for c in _file_decls(tu.cursor, fname):
        if c.kind in (K.FUNCTION_DECL, K.FUNCTION_TEMPLATE) and \
                any(x.kind == K.CUDAGLOBAL_ATTR for x in c.get_children()):
            bad = _inside(c, errors)
            if bad is not None:
                out.setdefault(c.spelling, f"libclang: {bad.location.line}:{bad.location.column}: {bad.spelling}")
    return out


def _file_decls(cur, fname: str, children=None):
    """The declarations of file ``fname`` under ``cur`` (whose ``children`` the caller may have listed already),
    through namespaces and linkage blocks. When ``fname`` is the unit's main file, one libclang call tells where a
    cursor is (asking each of the thousands of declared names for its file's name cost a tenth of a small kernel's
    analysis)."""
    K = ci.CursorKind
    in_main = _from_main_file() if cur.translation_unit.spelling == fname else None
    scopes = (K.NAMESPACE, K.LINKAGE_SPEC, K.UNEXPOSED_DECL)
    for c in cur.get_children() if children is None else children:
        if in_main is not None:
            # (a namespace a macro names, `namespace TNN_NS {`, is not from the main file to libclang: its file is
            # asked, for the few scopes)
            if not in_main(c.location) and (c.kind not in scopes or c.location.file is None or
                                            c.location.file.name != fname):
                continue
        elif c.location.file is None or c.location.file.name != fname:
            continue
        if c.kind in scopes:
            yield from _file_decls(c, fname)
        else:
            yield c


def _record_layout(c, layouts: dict) -> None:
    """Record in ``layouts`` the template parameters and fields of class template ``c`` when its size is the sum of
    its fields' (no base class, no alignment attribute, no template template parameter); the first definition of a
    name wins."""
    K = ci.CursorKind
    if c.spelling in layouts:
        return
    params, fields = [], []
    for x in c.get_children():
        k = x.kind
        if k == K.TEMPLATE_TYPE_PARAMETER:
            params.append((x.spelling, "type"))
        elif k == K.TEMPLATE_NON_TYPE_PARAMETER:
            params.append((x.spelling, "value"))
        elif k in (K.TEMPLATE_TEMPLATE_PARAMETER, K.CXX_BASE_SPECIFIER) or k.is_attribute() and "ALIGN" in k.name:
            return
        elif k == K.FIELD_DECL:
            m = _FIELD_TYPE.match(x.type.spelling)
            if m is None:
                return
            fields.append((m.group(1).strip(), re.findall(r"\[([^\]]*)\]", m.group(2) or "")))
    if fields:
        layouts[c.spelling] = (params, fields)


def _header_device_decls(tu, children: list, patched: dict, layouts: dict):
    """The device functions (not kernels) defined in the user's headers the unit includes (`#include "utils.h"` with
    `__device__ int gid() {...}`), so calls to them are inlined like the file's own helpers, and the `__device__` /
    `__constant__` / `extern __shared__` variables they declare (as declaration nodes), so the kernel's accesses
    to them are memory. The analyzer's force-included declarations come first in the unit: they are found by
    bisection, so only the later top-level declarations have their files looked up. ``children``: the unit's
    top-level cursors; ``layouts``: where the class templates' layouts are recorded (``_record_layout``)."""
    K = ci.CursorKind

    def ours_file(name: str) -> bool:
        return name.startswith(str(HERE)) and not model_stub(name)

    if not any(not ours_file(str(i.include.name)) for i in tu.get_includes() if i.include is not None):
        return []

    def ours(c):
        f = c.location.file
        return f is None or ours_file(f.name)

    def forced(c):  # force-included before the file: the first declarations of the unit, all together
        f = c.location.file
        return f is None or f.name in (str(DECLS), str(HOST_DECLS))

    lo, hi = 0, len(children)
    while lo < hi:  # the first declaration not force-included (a stub header the user's headers include, such as
        mid = (lo + hi) // 2  # <cassert>, comes later, among theirs: ``walk`` skips it)
        if forced(children[mid]):
            lo = mid + 1
        else:
            hi = mid
    in_main = _from_main_file()
    convs: dict = {}
    out = []

    def walk(cs):
        for c in cs:
            if ours(c):
                continue
            if c.kind in (K.NAMESPACE, K.LINKAGE_SPEC, K.UNEXPOSED_DECL):  # the file's own namespace may
                walk(c.get_children())  # include a header's functions (`namespace CR { #include "BinRaster.inl" }`)
                continue
            if in_main(c.location):
                continue
            if c.kind not in (K.FUNCTION_DECL, K.FUNCTION_TEMPLATE, K.CXX_METHOD, K.VAR_DECL) and \
                    c.kind not in _CLASS_KINDS:
                continue
            if c.kind == K.CLASS_TEMPLATE:
                _record_layout(c, layouts)
            if c.kind == K.VAR_DECL:
                if not {x.kind for x in c.get_children()} & {K.CUDADEVICE_ATTR, K.CUDACONSTANT_ATTR, K.CUDASHARED_ATTR}:
                    continue
            elif c.kind in _CLASS_KINDS or c.kind == K.CXX_METHOD:
                if next(_device_methods(None, c), None) is None:
                    continue
            else:
                attrs = {x.kind for x in c.get_children()}
                if K.CUDADEVICE_ATTR not in attrs or K.CUDAGLOBAL_ATTR in attrs:
                    continue
            path = c.location.file.name
            if path not in convs:
                text = patched.get(path)
                if text is None:
                    try:
                        text = Path(path).read_text(errors="replace")
                    except OSError:
                        continue
                convs[path] = _Conv(path, text)
            if c.kind == K.VAR_DECL:
                out.append(convs[path].decl(c))
                continue
            if c.kind in _CLASS_KINDS or c.kind == K.CXX_METHOD:
                out.extend(_device_methods(convs[path], c))
                continue
            f = _func(convs[path], c, convs[path].source)
            if f is not None:
                out.append(f)

    walk(children[lo:])
    return out


def _from_main_file():
    """libclang's clang_Location_isFromMainFile (the expansion location's file is the unit's main file), which
    the Python bindings do not wrap."""
    f = ci.conf.lib.clang_Location_isFromMainFile
    if f.argtypes is None:
        f.argtypes, f.restype = [ci.SourceLocation], ctypes.c_int
    return f


def _errors(tu, fname: str) -> list:
    return [_at_user_line(d) for d in tu.diagnostics if d.severity >= 3]


def _kopts(name: str | None) -> bool:
    return name is not None and (name in (str(DECLS), str(HOST_DECLS)) or name.startswith(str(STUBS) + os.sep))


class _Moved:
    """An error clang reports inside kopt's own declarations, which no blanking may change (a stub's ``T
    &operator*()`` instantiated for ``std::unique_ptr<void>``), placed where the user's code asked for them: the
    first of its notes in the user's files ("in instantiation of ... requested here")."""

    def __init__(self, d, location):
        self.d, self.location = d, location

    def __getattr__(self, name):
        return getattr(self.d, name)


def _at_user_line(d):
    if not _kopts(d.location.file.name if d.location.file else None):
        return d
    for note in d.children:
        if note.location.file is not None and not _kopts(note.location.file.name) and \
                not note.spelling.startswith("in file included from"):
            return _Moved(d, note.location)
    return d


def _inside(c, errors):
    """The first error located within cursor ``c``'s extent, or None."""
    s, t = c.extent.start, c.extent.end
    for e in errors:
        loc = e.location
        if loc.file is not None and s.file is not None and loc.file.name == s.file.name and (s.line, s.column) <= (loc.line, loc.column) \
                <= (t.line, t.column):
            return e
    return None


def _is_device(c) -> bool:
    K = ci.CursorKind
    return any(x.kind in (K.CUDAGLOBAL_ATTR, K.CUDADEVICE_ATTR) for x in c.get_children())


def _is_host_device(c) -> bool:
    K = ci.CursorKind
    kinds = {x.kind for x in c.get_children()}
    return K.CUDADEVICE_ATTR in kinds and K.CUDAHOST_ATTR in kinds


def _blank(tu, fname: str, source: str, errors, device: bool) -> tuple[str, int]:
    """``source`` with the top-level declarations that hold an error replaced by spaces (line breaks kept), and how
    many were blanked: host declarations (``device`` False; device functions and __shared__/__constant__ variables
    are kept), or every one (``device`` True). Namespaces and extern "C" blocks are entered."""
    K = ci.CursorKind
    lines = source.split("\n")
    count = 0

    def blank(c):
        s, t = c.extent.start, c.extent.end
        t = _before_unopened_closers(lines, s, t)
        kept = False
        for ln in range(s.line, t.line + 1):
            if not 0 < ln <= len(lines):
                continue
            text = lines[ln - 1]
            # kept, as by _blank_host: blanking one of a group would unbalance it; with the lines its backslashes
            # continue it onto (`#if defined(X) && \` alone would not parse)
            kept = kept or bool(_CONDITIONAL_LINE.match(text))
            if kept:
                kept = text.endswith("\\")
                continue
            a = s.column - 1 if ln == s.line else 0
            if ln == s.line:  # an explicit instantiation's extent leaves out `[extern] template <return type>`,
                m = _INSTANTIATION_KEYWORD.search(text[:a])  # a member of a class that did not parse its `A::`
                a = m.start() if m else _QUALIFIER_BEFORE.search(text[:a]).start()
            b = t.column - 1 if ln == t.line else len(text)
            lines[ln - 1] = text[:a] + " " * (b - a) + text[b:]
        # a declaration error recovery cut off from its `template <...>` header (an out-of-line member of a class
        # template that did not parse): the header alone would not parse either
        first = max(s.line - 4, 1)
        before = "\n".join(lines[first - 1:s.line - 1] + [lines[s.line - 1][:s.column - 1]]) \
            if 0 < s.line <= len(lines) else ""
        m = _TEMPLATE_HEADER.search(before)
        if m:
            for i, chunk in enumerate(before[m.start():].split("\n")):
                ln = first + before.count("\n", 0, m.start()) + i
                a = len(before[:m.start()].rsplit("\n", 1)[-1]) if i == 0 else 0
                lines[ln - 1] = lines[ln - 1][:a] + " " * len(chunk) + lines[ln - 1][a + len(chunk):]

    def visit(cur) -> bool:
        """Blank what needs it under ``cur``; True when every child of ``cur`` was blanked."""
        nonlocal count
        kids = [c for c in cur.get_children() if c.location.file is not None and c.location.file.name == fname]
        gone = 0
        for c in kids:
            if c.kind in (K.NAMESPACE, K.LINKAGE_SPEC, K.UNEXPOSED_DECL):
                if visit(c) and c.kind == K.LINKAGE_SPEC:
                    blank(c)  # `extern "C"` with nothing left after it would not parse
                    gone += 1
                continue
            if _inside(c, errors) is None:
                continue
            if not device and c.kind in (K.CLASS_DECL, K.STRUCT_DECL, K.CLASS_TEMPLATE) and c.is_definition():
                # a class whose errors all lie in host member functions (a `CHECK` in a host method, a call to a
                # blanked host helper): those members rather than the whole class, whose types and device members
                # kernels use (clang's extents; tree-sitter's host_declarations leave out a host member holding a
                # device lambda). A data member holding an error still takes the whole class (its layout).
                members = [m for m in c.get_children() if m.kind in (
                    K.CXX_METHOD, K.CONSTRUCTOR, K.DESTRUCTOR, K.FUNCTION_TEMPLATE, K.CONVERSION_FUNCTION)
                    and m.is_definition()]
                hosts, whole = [], False
                for e in errors:
                    if _inside(c, [e]) is None:
                        continue
                    m = next((m for m in members if _inside(m, [e]) is not None), None)
                    # (a `__host__ __device__` member too: its error is most often a call to a host helper blanked
                    # before it, which nvcc takes until device code calls the member; a kernel that does falls
                    # back alone, with the member gone)
                    if m is None or _is_device(m) and not _is_host_device(m):
                        whole = True
                        break
                    if m not in hosts:
                        hosts.append(m)
                if hosts and not whole:
                    for m in hosts:
                        blank(m)
                    count += len(hosts)
                    continue
            if not device and (_is_device(c) or c.kind == K.VAR_DECL and any(
                    x.kind in (K.CUDASHARED_ATTR, K.CUDACONSTANT_ATTR) for x in c.get_children())):
                continue
            blank(c)
            count += 1
            gone += 1
            # a declaration's trailing semicolon is outside its extent
            ln, col = c.extent.end.line, c.extent.end.column
            if 0 < ln <= len(lines) and lines[ln - 1][col - 1:col] == ";":
                lines[ln - 1] = lines[ln - 1][:col - 1] + " " + lines[ln - 1][col:]
        return bool(kids) and gone == len(kids)

    visit(tu.cursor)
    if not device:  # stray tokens no declaration holds (a brace left by error recovery): blank to the line's end
        def decl_spans(cur):  # the file's declarations, through namespaces
            for c in cur.get_children():
                if c.location.file is None or c.location.file.name != fname:
                    continue
                if c.kind in (K.NAMESPACE, K.LINKAGE_SPEC, K.UNEXPOSED_DECL):
                    yield from decl_spans(c)
                else:
                    yield c.extent.start.line, c.extent.end.line
        spans = [(c.extent.start.line, c.extent.end.line) for c in tu.cursor.get_children()
                 if c.location.file is not None and c.location.file.name == fname]
        inner = None
        for e in errors:
            ln = e.location.line
            if e.location.file is None or e.location.file.name != fname or not 0 < ln <= len(lines) or \
                    lines[ln - 1].lstrip().startswith("#"):
                continue
            col = e.location.column - 1
            if _UNDEFINED_INSTANTIATION.match(e.spelling):
                # clang drops the declaration, so no cursor holds it (inside a namespace): an instantiation of a host
                # template blanked as undefined, written out or through a macro (`DECLARE_IMPL(float)`)
                count += _blank_instantiation(lines, ln, col)
            elif not _within(ln, spans) or _CLOSERS_ONLY.match(lines[ln - 1][col:]) and \
                    not _within(ln, inner if inner is not None else (inner := list(decl_spans(tu.cursor)))):
                # (inside a namespace, only closers no declaration holds: the `});` a blanked host launcher whose
                # body is a macro's argument leaves behind)
                kw = _INSTANTIATION_KEYWORD.search(lines[ln - 1][:col])  # `template void f<int>(...)`: all of it
                col = kw.start() if kw else _QUALIFIER_BEFORE.search(lines[ln - 1][:col]).start()
                # a `}` that closes a namespace stays (error recovery left it outside every declaration), unless
                # clang finds it extraneous (a macro's blanked continuation lines closed the namespace before it)
                at = sum(len(x) + 1 for x in lines[:ln - 1]) + col
                text = "\n".join(lines)
                rest = lines[ln - 1][col:]
                kept = [] if "extraneous" in e.spelling else \
                    [i for i, ch in enumerate(rest) if ch == "}" and _closes_namespace(text, at + i)]
                lines[ln - 1] = lines[ln - 1][:col] + "".join(ch if i in kept else " " for i, ch in enumerate(rest))
                count += 1
    return "\n".join(lines), count


_CLOSERS_ONLY = re.compile(r"[\s});]*(?://.*)?$")


def _within(line: int, spans: list) -> bool:
    return any(a <= line <= b for a, b in spans)


def _blank_instantiation(lines: list, ln: int, col: int) -> int:
    """Blank the explicit instantiation at line ``ln`` (1-based), column ``col`` of ``lines``: a macro invocation
    alone on its line, or `[extern] template ... ;` up to its semicolon. How many were blanked (0 or 1)."""
    text = lines[ln - 1]
    if _INVOCATION_LINE.match(text[col:]):
        lines[ln - 1] = text[:col] + " " * len(text[col:])
        return 1
    kw = _INSTANTIATION_KEYWORD.search(text[:col])
    if kw is None:
        return 0
    col = kw.start()
    for i in range(ln - 1, min(ln + 20, len(lines))):
        text = lines[i]
        end = text.find(";", col)
        lines[i] = text[:col] + " " * ((end + 1 if end >= 0 else len(text)) - col) + (text[end + 1:] if end >= 0 else "")
        if end >= 0:
            return 1
        col = 0
    return 1


def _release():
    """Drop the index before interpreter teardown (its __del__ needs the bindings still alive)."""
    global _index
    _index = None


def _user_method(m) -> bool:
    """Whether a member function has a body kopt can follow: defined in the user's code or a model stub, not one of
    kopt's declarations without a body (a tensor accessor's operator[], which the builder models itself)."""
    if m is None or m.kind != ci.CursorKind.CXX_METHOD:
        return False
    d = m.get_definition()
    if d is None:
        t = ci.conf.lib.clang_getSpecializedCursorTemplate(m)
        d = t.get_definition() if t is not None else None
    return d is not None


def _template_argument_sizes(t) -> list | None:
    """The sizes of class type ``t``'s template type arguments and its integer value arguments as ``("value", v)``
    (None for a type of no size or a value that is not a literal), or None when it has none."""
    try:
        n = t.get_num_template_arguments()
        if n <= 0:
            return None
        m = re.search(r"<(.*)>\s*$", t.spelling)
        texts = split_top(m.group(1)) if m else []
        out = []
        for i in range(n):
            a = t.get_template_argument_type(i)
            if a.kind != ci.TypeKind.INVALID:
                out.append(_size_of(a))
                continue
            v = re.fullmatch(r"\s*(-?\d+)[uUlL]*\s*", texts[i]) if len(texts) == n else None
            out.append(("value", int(v.group(1))) if v else None)
        return out
    except Exception:
        return None


def _device_methods(conv: _Conv | None, c):
    """The device member functions with a body that class ``c`` (and the classes nested in it) defines, or ``c``
    itself when it is one defined outside its class (``T *View<T>::lane(int i) {...}``); each named by its classes
    and namespaces as a call names it (``View::lane``), and a method unless static (``this`` is the object). With
    ``conv`` None, the cursors only (no conversion)."""
    K = ci.CursorKind
    members = [c] if c.kind == K.CXX_METHOD else list(c.get_children())
    for m in members:
        if m.kind in _CLASS_KINDS:
            yield from _device_methods(conv, m)
            continue
        # `SharedMemory<T>`'s `operator T *()`: a class of no data that only hands out a pointer (the dynamic shared
        # array), converted to wherever it is constructed (``Class::__conv__``)
        conversion = m.kind == K.CONVERSION_FUNCTION and m.result_type.kind == ci.TypeKind.POINTER and \
            not any(x.kind == K.FIELD_DECL for x in m.semantic_parent.get_children())
        constructor = m.kind == K.CONSTRUCTOR
        if not (conversion or constructor or m.kind in (K.CXX_METHOD, K.FUNCTION_TEMPLATE)) or not m.is_definition():
            continue
        if m.kind == K.FUNCTION_TEMPLATE and m.semantic_parent is not None and m.semantic_parent.kind not in _CLASS_KINDS:
            continue
        if not any(x.kind == K.CUDADEVICE_ATTR for x in m.get_children()):
            continue
        if conv is None:
            yield m
            continue
        f = _func(conv, m, conv.source)
        if f is not None:
            f.name = "::".join([*_scope(m), "__conv__" if conversion else "__ctor__" if constructor else m.spelling])
            f.method = not conversion and not m.is_static_method()
            if constructor:  # its member initializers (`: data(data), width(width)`) run first, as assignments
                f.body = Node("block", f.body.loc, body=[*_member_inits(conv, m), f.body])
            owner = m.semantic_parent
            if owner is not None and owner.kind in (K.CLASS_TEMPLATE, K.CLASS_TEMPLATE_PARTIAL_SPECIALIZATION):
                f.class_tparams = [(x.spelling, "type" if x.kind == K.TEMPLATE_TYPE_PARAMETER else "value")
                                   for x in owner.get_children()
                                   if x.kind in (K.TEMPLATE_TYPE_PARAMETER, K.TEMPLATE_NON_TYPE_PARAMETER)]
            if owner is not None and owner.kind == K.CLASS_TEMPLATE_PARTIAL_SPECIALIZATION:
                m_args = re.search(r"<(.*)>\s*$", owner.displayname)
                f.class_pattern = [a.strip() for a in split_top(m_args.group(1))] if m_args else []
            yield f


def _member_inits(conv: _Conv, ctor) -> list:
    """A constructor's member initializers as assignments to ``this``'s fields (a base class's initializer, and a
    member initialized by a constructor of several arguments, are left out: the field stays unknown)."""
    K = ci.CursorKind
    out, ch = [], list(ctor.get_children())
    for m, init in zip(ch, ch[1:]):
        if m.kind != K.MEMBER_REF or m.referenced is None or m.referenced.kind != K.FIELD_DECL or \
                not init.kind.is_expression():
            continue
        if init.kind == K.CALL_EXPR and len([x for x in init.get_children() if x.kind.is_expression()]) > 1:
            continue
        loc = conv.loc(m)
        field = Node("member", loc, a=Node("unknown", loc, text="this"), name=m.spelling, op="->",
                     ty=conv.typeinfo(m.referenced.type))
        out.append(Node("expr", loc, a=Node("assign", loc, op="=", a=field, b=conv.expr(init))))
    return out


def _func(conv: _Conv, c, source: str) -> Func | None:
    K = ci.CursorKind
    ch = list(c.get_children())
    body = next((x for x in ch if x.kind == K.COMPOUND_STMT), None)
    if body is None:
        return None
    kernel = any(x.kind == K.CUDAGLOBAL_ATTR for x in ch)
    params = [(x.spelling, conv.typeinfo(x.type)) for x in ch if x.kind == K.PARM_DECL]
    last = next((x for x in reversed(ch) if x.kind == K.PARM_DECL), None)
    pack = last.type.spelling[:-3].strip() if last is not None and last.type.spelling.endswith("...") else ""
    # each parameter's default argument (a call that leaves it out shows an unknown node in its place)
    defaults = [next((conv.expr(e) for e in x.get_children() if e.kind.is_expression()), None)
                for x in ch if x.kind == K.PARM_DECL]
    tparams = [(x.spelling, "type" if x.kind == K.TEMPLATE_TYPE_PARAMETER else "value") for x in ch
               if x.kind in (K.TEMPLATE_TYPE_PARAMETER, K.TEMPLATE_NON_TYPE_PARAMETER)]
    lb = None
    if kernel:
        start = c.extent.start
        at = c.location
        line_text = "\n".join(conv.lines[max(start.line - 3, 0): at.line - 1] +
                              [conv.lines[at.line - 1][:at.column - 1]] if 0 < at.line <= len(conv.lines) else [])
        line_text = re.split(r"[;}]", line_text)[-1]  # the text before the kernel's name, not the declaration before
        m = _LB.search(line_text)
        if m:
            lb = m.group(1).strip()
            if re.fullmatch(r"[A-Za-z_]\w*(::[A-Za-z_]\w*)*", lb):
                lb = _named_constant(c, lb) or lb
    return Func(name=c.spelling, params=params, body=conv.stmt(body), kernel=kernel, loc=conv.loc(c),
                namespace="::".join(_scope(c, classes=False)),
                tparams=tparams, launch_bounds=lb, defaults=defaults if any(defaults) else [], pack=pack)
