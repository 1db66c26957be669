"""Safe evaluation of the small expression language used by tasks and candidate annotations."""
from __future__ import annotations

import ast
import math
import operator
from typing import Mapping

from .errors import InputError


def cdiv(a, b):
    return -(-a // b)


def round_up(x, m):
    return cdiv(x, m) * m


def next_pow2(x):
    return 1 if x <= 1 else 1 << (int(x) - 1).bit_length()


FUNCTIONS = {"cdiv": cdiv, "ceil_div": cdiv, "min": min, "max": max, "abs": abs, "round_up": round_up,
             "log2": math.log2, "next_pow2": next_pow2, "int": int, "float": float}
_BINOPS = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul, ast.Div: operator.truediv,
           ast.FloorDiv: operator.floordiv, ast.Mod: operator.mod, ast.Pow: operator.pow,
           ast.LShift: operator.lshift, ast.RShift: operator.rshift, ast.BitAnd: operator.and_,
           ast.BitOr: operator.or_, ast.BitXor: operator.xor}
_CMPOPS = {ast.Eq: operator.eq, ast.NotEq: operator.ne, ast.Lt: operator.lt, ast.LtE: operator.le,
           ast.Gt: operator.gt, ast.GtE: operator.ge}
_UNARY = {ast.USub: operator.neg, ast.UAdd: operator.pos, ast.Not: operator.not_, ast.Invert: operator.invert}


class ExprError(InputError):
    pass


def parse(text: str) -> ast.Expression:
    try:
        tree = ast.parse(str(text).strip(), mode="eval")
    except SyntaxError as exc:
        raise ExprError(f"bad expression {text!r}: {exc.msg}")
    for node in ast.walk(tree):
        if isinstance(node, (ast.Attribute, ast.Subscript, ast.Lambda, ast.ListComp, ast.DictComp, ast.SetComp,
                             ast.GeneratorExp, ast.Starred, ast.NamedExpr, ast.Dict, ast.Set)):
            raise ExprError(f"bad expression {text!r}: {type(node).__name__.lower()} is not allowed")
    return tree


def names(text: str) -> set[str]:
    """Free names used by an expression (functions excluded)."""
    tree = parse(text)
    called = {n.func.id for n in ast.walk(tree) if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)}
    return {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)} - called


def evaluate(text, env: Mapping[str, object], functions: Mapping[str, object] | None = None):
    """Evaluate ``text`` (a str, or a number passed through) with ``env`` bound."""
    if isinstance(text, (int, float)) and not isinstance(text, bool):
        return text
    funcs = {**FUNCTIONS, **(functions or {})}
    tree = parse(text)

    def ev(node):
        if isinstance(node, ast.Expression):
            return ev(node.body)
        if isinstance(node, ast.Constant):
            if isinstance(node.value, (int, float, bool)):
                return node.value
            raise ExprError(f"bad expression {text!r}: constant {node.value!r} is not a number")
        if isinstance(node, ast.Name):
            if node.id in env:
                return env[node.id]
            raise ExprError(f"bad expression {text!r}: unknown name {node.id!r}"
                            + (f" (known: {', '.join(sorted(env))})" if env else ""))
        if isinstance(node, ast.BinOp) and type(node.op) in _BINOPS:
            try:
                return _BINOPS[type(node.op)](ev(node.left), ev(node.right))
            except ZeroDivisionError:
                raise ExprError(f"bad expression {text!r}: division by zero")
        if isinstance(node, ast.UnaryOp) and type(node.op) in _UNARY:
            return _UNARY[type(node.op)](ev(node.operand))
        if isinstance(node, ast.BoolOp):
            vals = [ev(v) for v in node.values]
            return all(vals) if isinstance(node.op, ast.And) else any(vals)
        if isinstance(node, ast.Compare):
            left = ev(node.left)
            for op, comp in zip(node.ops, node.comparators):
                right = ev(comp)
                if type(op) not in _CMPOPS or not _CMPOPS[type(op)](left, right):
                    return False
                left = right
            return True
        if isinstance(node, ast.IfExp):
            return ev(node.body) if ev(node.test) else ev(node.orelse)
        if isinstance(node, ast.Tuple):
            return tuple(ev(e) for e in node.elts)
        if isinstance(node, ast.List):
            return [ev(e) for e in node.elts]
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and not node.keywords:
            fn = funcs.get(node.func.id)
            if fn is None:
                raise ExprError(f"bad expression {text!r}: unknown function {node.func.id!r}")
            try:
                return fn(*[ev(a) for a in node.args])
            except (TypeError, ValueError, ZeroDivisionError) as exc:
                raise ExprError(f"bad expression {text!r}: {node.func.id}(): {exc}")
        raise ExprError(f"bad expression {text!r}: unsupported syntax")

    return ev(tree)


def positive_int(value, what: str) -> int:
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
        raise ExprError(f"{what} must be a positive integer, got {value!r} (use cdiv() or // for division)")
    return value


def parse_dims(text: str | None, what: str) -> tuple[int, int, int] | None:
    """``"256"``, ``"16,16"`` or ``"32x8x1"`` -> a 3-tuple of positive ints; None stays None."""
    if text is None:
        return None
    try:
        parts = [int(p) for p in text.replace("x", ",").split(",") if p.strip()]
    except ValueError:
        raise InputError(f"bad {what} {text!r}: expected X[,Y[,Z]] with positive integers")
    if not 1 <= len(parts) <= 3 or any(p <= 0 for p in parts):
        raise InputError(f"bad {what} {text!r}: expected X[,Y[,Z]] with positive integers")
    return tuple(parts + [1] * (3 - len(parts)))  # type: ignore[return-value]
