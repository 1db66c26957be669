"""kopt's one expression language: task shapes and work models, ``// kopt:`` annotations, and (in C mode) the
constant text of C macros and template arguments that the analyzers read.

Python syntax, a small subset: numbers, names, arithmetic, comparisons, ``and``/``or``/``not``, ``a if c else b`` and
a few functions (``cdiv``, ``round_up``, ``next_pow2``, ``min``, ``max``...). Work is bounded before it is done, so
no input can hang or exhaust the process: at most ``MAX_CHARS`` characters, ``MAX_NODES`` syntax nodes nested at
most ``MAX_DEPTH`` deep, exponents and shift counts of at most ``MAX_POWER``, and every integer (constants, names,
intermediate results) within 64 bits. Anything outside raises ``ExprError``, which carries a rule id and the span of
the offending part. ``/`` is true division (``n/256`` is 3.90625, which no launch dimension accepts); ``//`` and
``cdiv`` divide integers. In C mode ``/`` and ``%`` follow C on integers and C literal suffixes are accepted.
"""
from __future__ import annotations

import ast
import functools
import math
import re
from typing import Mapping

from .errors import InputError

MAX_CHARS = 4096
MAX_NODES = 1024
MAX_DEPTH = 64
MAX_POWER = 64  # largest exponent or shift count
INT_MIN, INT_MAX = -(2 ** 63), 2 ** 64 - 1  # signed or unsigned 64-bit
MAX_INDIRECTION = 8  # a name bound to expression text (a -D value) may refer to further names this deep


def cdiv(a, b):
    return -(-a // b)


def round_up(x, m):
    return cdiv(x, m) * m


def next_pow2(x):
    if x > INT_MAX:
        raise ValueError("argument out of range")
    return 1 if x <= 1 else 1 << (int(x) - 1).bit_length()


# name -> (function, smallest and largest argument count)
FUNCTIONS = {"cdiv": (cdiv, 2, 2), "ceil_div": (cdiv, 2, 2), "round_up": (round_up, 2, 2),
             "next_pow2": (next_pow2, 1, 1), "log2": (math.log2, 1, 1), "min": (min, 2, MAX_NODES),
             "max": (max, 2, MAX_NODES), "abs": (abs, 1, 1), "int": (int, 1, 1), "float": (float, 1, 1)}
_ALLOWED = (ast.Expression, ast.Constant, ast.Name, ast.Load, ast.BinOp, ast.UnaryOp, ast.BoolOp, ast.Compare,
            ast.IfExp, ast.Call, ast.Tuple, ast.List, ast.operator, ast.unaryop, ast.boolop, ast.cmpop)
_C_SUFFIX = re.compile(r"\b(0[xX][0-9a-fA-F]+|\d+)(?:[uU](?:ll|LL|l|L)?|(?:ll|LL|l|L)[uU]?)\b")
_C_INT_TYPE = (r"(?:const\s+)?(?:(?:unsigned|signed)\s+)?(?:long\s+long|long|int|short|char|unsigned|signed|size_t|"
               r"u?int(?:8|16|32|64)_t|(?:unsigned\s+)?(?:long\s+long|long|int|short))(?:\s+int)?")
_C_CAST = re.compile(rf"(?<![\w)\]])\(\s*{_C_INT_TYPE}\s*\)")
_C_STATIC_CAST = re.compile(rf"\bstatic_cast\s*<\s*{_C_INT_TYPE}\s*>")
_C_FLOAT_SUFFIX = re.compile(r"\b(\d+\.\d*(?:[eE][-+]?\d+)?|\d+[eE][-+]?\d+)[fF]\b")


class ExprError(InputError):
    """An expression that cannot be evaluated: ``rule`` says why, ``span`` is the (start, end) character range of
    the offending part within ``text``."""

    def __init__(self, rule: str, text: str, reason: str, span: tuple[int, int] | None = None,
                 message: str | None = None):
        super().__init__(message or f"bad expression {_shorten(text)!r}: {reason}")
        self.rule, self.text, self.reason = rule, text, reason
        self.span = span or (0, len(text))

    def __reduce__(self):  # crosses process boundaries (worker replies) intact
        return (ExprError, (self.rule, self.text, self.reason, self.span, self.message))


def _shorten(text: str) -> str:
    return text if len(text) <= 80 else text[:77] + "..."


def _span(text: str, node: ast.AST) -> tuple[int, int]:
    """Character offsets of ``node`` in ``text`` (ast columns count UTF-8 bytes of a line)."""
    lines = text.split("\n")

    def offset(lineno, col):
        line = lines[lineno - 1] if 0 < lineno <= len(lines) else ""
        before = sum(len(x) + 1 for x in lines[:lineno - 1])
        return before + len(line.encode()[:col].decode(errors="ignore"))

    try:
        return offset(node.lineno, node.col_offset), offset(node.end_lineno, node.end_col_offset)
    except (AttributeError, TypeError):
        return 0, len(text)


def _c_text(text: str) -> str:
    """C constant text in the language's syntax: literal suffixes and casts to integer types dropped (``(size_t)n``,
    ``static_cast<int>(n)``: launch sizes are small non-negative integers, which such a cast keeps), ``&&``/``||``/
    ``!`` as words."""
    text = drop_int_casts(_C_FLOAT_SUFFIX.sub(r"\1", _C_SUFFIX.sub(r"\1", text)))
    return re.sub(r"!(?!=)", " not ", text.replace("&&", " and ").replace("||", " or "))


def drop_int_casts(text: str) -> str:
    """C text without its casts to integer types (``(size_t)n``, ``static_cast<int>(n)``)."""
    return _C_CAST.sub(" ", _C_STATIC_CAST.sub(" ", text)) if "(" in text else text


@functools.lru_cache(maxsize=4096)
def parse(text: str, c: bool = False) -> ast.Expression:
    """The validated syntax tree of ``text``; raises ``ExprError`` for bad syntax or oversized input."""
    if not isinstance(text, str):
        raise ExprError("expr.syntax", str(text), f"expected expression text, got {type(text).__name__}")
    source = (_c_text(text) if c else text).strip()
    if len(source) > MAX_CHARS:
        raise ExprError("expr.too-complex", text, f"{len(source)} characters; at most {MAX_CHARS} are allowed")
    if not source:
        raise ExprError("expr.syntax", text, "empty expression")
    try:
        tree = ast.parse(source, mode="eval")
    except SyntaxError as exc:
        col = max((exc.offset or 1) - 1, 0) if exc.lineno == 1 else 0
        raise ExprError("expr.syntax", text, exc.msg, (col, min(col + 1, len(source))) if col else None)
    except (ValueError, RecursionError, MemoryError) as exc:  # NUL bytes, nesting beyond the parser's own limits
        raise ExprError("expr.too-complex" if not isinstance(exc, ValueError) else "expr.syntax", text,
                        str(exc) or type(exc).__name__)
    count, stack = 0, [(tree, 1)]
    while stack:  # iterative: a deep tree must not exhaust the Python stack before it is refused
        node, depth = stack.pop()
        count += 1
        if count > MAX_NODES:
            raise ExprError("expr.too-complex", text, f"more than {MAX_NODES} syntax nodes")
        if depth > MAX_DEPTH:
            raise ExprError("expr.too-complex", text, f"nested more than {MAX_DEPTH} levels deep",
                            _span(source, node) if not c else None)
        if not isinstance(node, _ALLOWED) or (isinstance(node, ast.Call) and (
                node.keywords or not isinstance(node.func, ast.Name))):
            what = type(node).__name__.lower()
            raise ExprError("expr.syntax", text, f"{what} is not allowed" if not isinstance(node, ast.Call)
                            else "only calls of a function by name, without keywords, are allowed",
                            _span(source, node) if not c else None)
        stack.extend((child, depth + 1) for child in ast.iter_child_nodes(node))
    return tree


def names(text: str) -> set[str]:
    """Free names used by an expression (function names excluded)."""
    tree = parse(str(text))
    called = {id(n.func) for n in ast.walk(tree) if isinstance(n, ast.Call)}
    return {n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and id(n) not in called}


def _checked(value, text: str, node, source: str):
    if isinstance(value, bool):
        return value
    if isinstance(value, complex):
        raise ExprError("expr.type", text, "the value is not a real number", _span(source, node))
    if isinstance(value, int):
        if not INT_MIN <= value <= INT_MAX:
            raise ExprError("expr.out-of-range", text, "the value does not fit in 64 bits", _span(source, node))
    elif isinstance(value, float):
        if not math.isfinite(value):
            raise ExprError("expr.out-of-range", text, f"the value is {value}", _span(source, node))
    return value


def evaluate(text, env: Mapping[str, object], *, c: bool = False):
    """Evaluate ``text`` (a str, or a number passed through) with ``env`` bound. A name bound to a str (a ``-D``
    value, a ``define``) is evaluated as an expression in turn. ``c``: C semantics for the text of C macros."""
    if isinstance(text, (int, float)) and not isinstance(text, bool):
        return _checked(text, str(text), None, str(text))
    return _Evaluator(env, c).run(str(text), 0)


class _Evaluator:
    def __init__(self, env: Mapping[str, object], c: bool):
        self.env, self.c = env, c
        self.resolving: list[str] = []  # names being expanded, to refuse cycles

    def run(self, text: str, level: int):
        tree = parse(text, self.c)
        source = (_c_text(text) if self.c else text).strip()
        return self.ev(tree.body, text, source, level)

    def fail(self, rule, text, source, node, reason):
        raise ExprError(rule, text, reason, _span(source, node) if not self.c else None)

    def name(self, node: ast.Name, text: str, source: str, level: int):
        if node.id not in self.env:
            known = f" (known: {', '.join(sorted(self.env))})" if self.env and len(self.env) <= 40 else ""
            self.fail("expr.unknown-name", text, source, node, f"unknown name {node.id!r}{known}")
        value = self.env[node.id]
        if isinstance(value, str):
            if node.id in self.resolving or level >= MAX_INDIRECTION:
                self.fail("expr.too-complex", text, source, node,
                          f"{node.id!r} refers to itself or nests names more than {MAX_INDIRECTION} deep")
            self.resolving.append(node.id)
            try:
                value = self.run(value, level + 1)
            except ExprError as exc:
                self.fail(exc.rule, text, source, node, f"{node.id} = {_shorten(exc.text)!r}: {exc.reason}")
            finally:
                self.resolving.pop()
        if value is None or isinstance(value, (list, tuple, dict)) or not isinstance(value, (int, float)):
            self.fail("expr.type", text, source, node, f"{node.id!r} is {value!r}, not a number")
        return _checked(value, text, node, source)

    def ev(self, node, text: str, source: str, level: int):
        ev = functools.partial(self.ev, text=text, source=source, level=level)
        if isinstance(node, ast.Constant):
            if isinstance(node.value, (int, float, bool)) and not isinstance(node.value, complex):
                return _checked(node.value, text, node, source)
            self.fail("expr.type", text, source, node, f"constant {node.value!r} is not a number")
        if isinstance(node, ast.Name):
            return self.name(node, text, source, level)
        if isinstance(node, ast.BinOp):
            return _checked(self.binop(node, ev(node.left), ev(node.right), text, source), text, node, source)
        if isinstance(node, ast.UnaryOp):
            v = ev(node.operand)
            if isinstance(node.op, ast.Not):
                return not v
            if isinstance(node.op, ast.Invert) and not isinstance(v, int):
                self.fail("expr.type", text, source, node, "~ needs an integer")
            return _checked({ast.USub: lambda: -v, ast.UAdd: lambda: +v, ast.Invert: lambda: ~v}[type(node.op)](),
                            text, node, source)
        if isinstance(node, ast.BoolOp):
            if isinstance(node.op, ast.And):
                return all(ev(v) for v in node.values)
            return any(ev(v) for v in node.values)
        if isinstance(node, ast.Compare):
            left = ev(node.left)
            for op, comp in zip(node.ops, node.comparators):
                right = ev(comp)
                if not self.compare(op, left, right, text, source, node):
                    return False
                left = right
            return True
        if isinstance(node, ast.IfExp):
            return ev(node.body) if ev(node.test) else ev(node.orelse)
        if isinstance(node, (ast.Tuple, ast.List)):
            return tuple(ev(e) for e in node.elts) if isinstance(node, ast.Tuple) else [ev(e) for e in node.elts]
        if isinstance(node, ast.Call):
            return self.call(node, text, source, ev)
        self.fail("expr.syntax", text, source, node, f"{type(node).__name__.lower()} is not allowed")

    def compare(self, op, left, right, text, source, node) -> bool:
        try:
            return {ast.Eq: lambda: left == right, ast.NotEq: lambda: left != right, ast.Lt: lambda: left < right,
                    ast.LtE: lambda: left <= right, ast.Gt: lambda: left > right,
                    ast.GtE: lambda: left >= right}[type(op)]()
        except KeyError:
            self.fail("expr.syntax", text, source, node, f"{type(op).__name__} is not allowed")
        except TypeError as exc:
            self.fail("expr.type", text, source, node, str(exc))

    def binop(self, node: ast.BinOp, a, b, text: str, source: str):
        op = type(node.op)
        if isinstance(a, (tuple, list)) or isinstance(b, (tuple, list)):
            self.fail("expr.type", text, source, node, "arithmetic on a tuple or list")
        if op in (ast.LShift, ast.RShift, ast.BitAnd, ast.BitOr, ast.BitXor) and not (
                isinstance(a, int) and isinstance(b, int)):
            self.fail("expr.type", text, source, node, "bit operations need integers")
        if op in (ast.LShift, ast.RShift) and not 0 <= b <= MAX_POWER:
            self.fail("expr.out-of-range", text, source, node, f"shift count {b} is outside 0..{MAX_POWER}")
        if op is ast.Pow and (abs(b) > MAX_POWER if isinstance(b, (int, float)) else True):
            self.fail("expr.out-of-range", text, source, node, f"exponent {b} is outside -{MAX_POWER}..{MAX_POWER}")
        if op is ast.MatMult:
            self.fail("expr.syntax", text, source, node, "@ is not allowed")
        ints = isinstance(a, int) and isinstance(b, int)
        try:
            if self.c and ints and op in (ast.Div, ast.Mod):  # C: the quotient truncates toward zero
                q = abs(a) // abs(b) * (1 if (a >= 0) == (b >= 0) else -1)
                return q if op is ast.Div else a - b * q
            return {ast.Add: lambda: a + b, ast.Sub: lambda: a - b, ast.Mult: lambda: a * b,
                    ast.Div: lambda: a / b, ast.FloorDiv: lambda: a // b, ast.Mod: lambda: a % b,
                    ast.Pow: lambda: a ** b, ast.LShift: lambda: a << b, ast.RShift: lambda: a >> b,
                    ast.BitAnd: lambda: a & b, ast.BitOr: lambda: a | b, ast.BitXor: lambda: a ^ b}[op]()
        except ZeroDivisionError:
            self.fail("expr.division-by-zero", text, source, node, "division by zero")
        except OverflowError:
            self.fail("expr.out-of-range", text, source, node, "the value is too large")
        except TypeError as exc:
            self.fail("expr.type", text, source, node, str(exc))

    def call(self, node: ast.Call, text: str, source: str, ev):
        name = node.func.id
        if name not in FUNCTIONS:
            hint = " (use cdiv)" if name.lower() in ("div_up", "ceil_div", "divup", "cdiv") else ""
            self.fail("expr.unknown-function", text, source, node.func,
                      f"unknown function {name!r}{hint}; known: {', '.join(FUNCTIONS)}")
        fn, lo, hi = FUNCTIONS[name]
        if not lo <= len(node.args) <= hi:
            want = str(lo) if lo == hi else f"at least {lo}"
            self.fail("expr.type", text, source, node, f"{name}() takes {want} argument(s), got {len(node.args)}")
        args = [ev(a) for a in node.args]
        if any(isinstance(a, (tuple, list)) for a in args):
            self.fail("expr.type", text, source, node, f"{name}() takes numbers")
        try:
            return _checked(fn(*args), text, node, source)
        except ZeroDivisionError:
            self.fail("expr.division-by-zero", text, source, node, f"{name}(): division by zero")
        except OverflowError:
            self.fail("expr.out-of-range", text, source, node, f"{name}(): the value is too large")
        except (TypeError, ValueError) as exc:
            self.fail("expr.type", text, source, node, f"{name}(): {exc}")


def try_evaluate(text, env: Mapping[str, object], *, c: bool = False):
    """The value of ``text``, or None when it cannot be evaluated (for best-effort readers such as the analyzers)."""
    try:
        return evaluate(text, env, c=c)
    except ExprError:
        return None


def positive_int(value, what: str, text: str | None = None) -> int:
    """``value`` as a positive int; ``text`` is the expression it came from, for the error's span."""
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
        reason = f"{what} must be a positive integer, got {value!r}" + (
            " (use cdiv() or // for division)" if isinstance(value, float) else "")
        raise ExprError("expr.not-positive-integer", text or str(value), reason, message=reason)
    return value


def parse_dims(text: str | None, what: str) -> tuple[int, int, int] | None:
    """``"256"``, ``"16,16"`` or ``"32x8x1"`` -> a 3-tuple of positive ints; None stays None."""
    if text is None:
        return None
    try:
        parts = [int(p) for p in text.replace("x", ",").split(",") if p.strip()]
    except ValueError:
        raise InputError(f"bad {what} {text!r}: expected X[,Y[,Z]] with positive integers")
    if not 1 <= len(parts) <= 3 or any(p <= 0 or p > INT_MAX for p in parts):
        raise InputError(f"bad {what} {text!r}: expected X[,Y[,Z]] with positive integers")
    return tuple(parts + [1] * (3 - len(parts)))  # type: ignore[return-value]
