"""Assumptions about a kernel's parameters: ``// kopt: assume EXPR`` lines, ``--assume EXPR`` and a task's shapes.

An assumption is an expression of kopt's one expression language (C mode: ``n >= 1 && n % 4 == 0`` and
``n >= 1 and n % 4 == 0`` both read) over the kernel's scalar parameter names (a by-value struct parameter's
fields too: ``p.pitch``) and the launch's ``gridDim.x|y|z``
and ``blockDim.x|y|z`` (``gridDim.x * blockDim.x >= n``), with ``cdiv``, ``min`` and ``max``. The passes add it to
every solver query, so a finding (and its witness) never uses a value the assumptions exclude. An assumption
applies to each kernel whose parameters include all of its names (a field's struct for the field).
"""
from __future__ import annotations

import ast
import re
from dataclasses import dataclass, field

import z3

from kopt.expr import ExprError, parse as parse_expr
from kopt.annotations import AnnotationError, Text, expression_error, lines


@dataclass(frozen=True)
class Assumption:
    text: str
    origin: str  # "annotation at line N", "--assume", "task shape"
    # host facts (host_assume.from_host): (facts, launch line) of each launch whose disjunction ``text`` is
    alternatives: tuple = field(default=(), compare=False)

    @property
    def names(self) -> set[str]:
        """The kernel parameter names it uses (not the launch's dimensions, not function names)."""
        tree = _tree(self.text)
        called = {id(n.func) for n in ast.walk(tree) if isinstance(n, ast.Call)}
        return {_name(n) for n in ast.walk(tree) if isinstance(n, ast.Name) and id(n) not in called
                and not _DIM_NAME.fullmatch(n.id)}

    @property
    def parameters(self) -> set[str]:
        """The kernel parameters it constrains: a field's struct (``p`` of ``p.pitch``) stands for the field."""
        return {n.split(".")[0] for n in self.names}

    @property
    def alone(self) -> set[str]:
        """The parameters some conjunct states on its own (`n == 4` in `n == 4 and m >= n`): their values are
        given, not merely related to others' or to the launch's (`gridDim.x == (n + 255) / 256` holds for a
        negative n too when the grid is not known)."""
        out = set()
        for part in self._conjuncts():
            called = {id(n.func) for n in ast.walk(part) if isinstance(n, ast.Call)}
            names = {_name(n) for n in ast.walk(part) if isinstance(n, ast.Name) and id(n) not in called}
            params = {n for n in names if not _DIM_NAME.fullmatch(n)}
            if len(params) == 1 and params == names:
                out |= params
        return out

    @property
    def lows(self) -> dict[str, int]:
        """A lower bound some conjunct gives a parameter: `n == 4`, `n >= 4`, `n > 3`, `(n == 4 or n == 8)`, either
        way round: name -> bound."""
        out: dict[str, int] = {}
        for n, bounds in self._bounded():
            v = min(bounds)
            out[n] = max(out.get(n, v), v)
        return out

    @property
    def pinned(self) -> set[str]:
        """The parameters some conjunct gives values, not bounds: `n == 4`, `(n == 4 or n == 8)`, either way round."""
        return {n for n, _ in self._bounded(equal_only=True)}

    def _conjuncts(self) -> list:
        body = _tree(self.text).body
        return body.values if isinstance(body, ast.BoolOp) and isinstance(body.op, ast.And) else [body]

    def _bounded(self, equal_only: bool = False):
        """(parameter, its bound in each alternative) for each conjunct whose alternatives all compare that one
        parameter with an integer (`n >= 4`, `(n == 4 or n == 8)`); ``equal_only``: equalities only."""
        for part in self._conjuncts():
            alts = part.values if isinstance(part, ast.BoolOp) and isinstance(part.op, ast.Or) else [part]
            got = [_low(x) if not equal_only or isinstance(x, ast.Compare) and isinstance(x.ops[0], ast.Eq) else None
                   for x in alts]
            if got and all(g is not None for g in got) and len({n for n, _ in got}) == 1:
                yield got[0][0], [v for _, v in got]


def _low(node):
    """(parameter, lower bound) that a comparison of one parameter with an integer states, else None."""
    if not (isinstance(node, ast.Compare) and len(node.ops) == 1):
        return None
    left, op, right = node.left, type(node.ops[0]), node.comparators[0]
    if isinstance(right, ast.Name) and not isinstance(left, ast.Name):  # `4 <= n` is `n >= 4`
        left, right = right, left
        op = {ast.LtE: ast.GtE, ast.Lt: ast.Gt, ast.GtE: ast.LtE, ast.Gt: ast.Lt}.get(op, op)
    v = _int(right)
    if not isinstance(left, ast.Name) or _DIM_NAME.fullmatch(left.id) or v is None:
        return None
    bound = {ast.Eq: v, ast.GtE: v, ast.Gt: v + 1}.get(op)
    return None if bound is None else (_name(left), bound)


def _int(node) -> int | None:
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        v = _int(node.operand)
        return -v if v is not None else None
    if isinstance(node, ast.Constant) and isinstance(node.value, int) and not isinstance(node.value, bool):
        return node.value
    return None


_DIM = re.compile(r"\b(gridDim|blockDim)\s*\.\s*([xyz])\b")
_DIM_NAME = re.compile(r"(gridDim|blockDim)__([xyz])")
_FIELD = re.compile(r"\b([A-Za-z_]\w*)\s*\.\s*([A-Za-z_]\w*)\b")
_ELEMENT = re.compile(r"\b([A-Za-z_]\w*\s*\.\s*[A-Za-z_][\w.]*)\s*\[\s*(\d+)\s*\]")  # `t.sizes[1]`: a field's element
CALLS = {"cdiv": 2, "ceil_div": 2, "min": 2, "max": 2}  # the functions of the language and their arities


def _tree(text: str, fields: bool = True):
    """The expression's syntax tree, the launch's ``gridDim.x`` read as one name (the language has no fields), and
    so is a field of a struct parameter (``p.pitch``, in the layouts the analyzer presumes; ``fields``): see
    ``_name``."""
    text = _DIM.sub(r"\1__\2", str(text))
    if fields:
        text = _FIELD.sub(r"\1__kf__\2", _ELEMENT.sub(r"\1__ke\2__", text))
    return parse_expr(text, c=True)


def _name(node: ast.Name) -> str:
    return re.sub(r"__ke(\d+)__", r"[\1]", node.id.replace("__kf__", "."))


def parse(text: str, origin: str, file: str = "<input>", piece: Text | None = None) -> Assumption:
    """A validated assumption; a malformed one raises ``AnnotationError`` (an InputError) that points at it."""
    piece = piece if piece is not None else Text(text, 1, 0)
    try:
        _tree(text)  # names of parameters, of launch dimensions, and of a struct parameter's fields (`p.pitch`)
    except ExprError as exc:
        raise expression_error(exc, piece, file, "assume")
    a = Assumption(str(text).strip(), origin)
    try:
        # refuse what the solver cannot take now, not halfway through an analysis
        to_z3(a, z3.Int, z3.IntVal, lambda b, f: z3.Int(f"{b}.{f}"))
    except ExprError as exc:
        raise AnnotationError("annotation.syntax", file, piece, f"assume: {exc.reason} (assumptions use names, "
                                                               f"integers, arithmetic, shifts by a constant, "
                                                               f"comparisons and and/or/not)")
    return a


def from_source(text: str, file: str) -> list[Assumption]:
    """The ``// kopt: assume EXPR`` lines of a source."""
    out = []
    for word, rest in lines(text):
        if word == "assume":
            if not rest:
                raise AnnotationError("annotation.syntax", file, word, "expected: assume EXPRESSION")
            out.append(parse(str(rest), f"`// kopt: assume` at line {rest.line}", file, rest))
    return out


_CMP = {ast.Lt: lambda a, b: a < b, ast.LtE: lambda a, b: a <= b, ast.Gt: lambda a, b: a > b,
        ast.GtE: lambda a, b: a >= b, ast.Eq: lambda a, b: a == b, ast.NotEq: lambda a, b: a != b}


def to_z3(a: Assumption, var, const, dim=None):
    """The assumption as a z3 boolean; ``var(name)`` gives the z3 term of a parameter, ``const(int)`` a constant of
    the same sort (integers or bit-vectors), ``dim("gridDim" | "blockDim", "x" | "y" | "z")`` a launch dimension
    (an assumption naming one is refused without it)."""

    def num(v):
        return z3.If(v, const(1), const(0)) if isinstance(v, z3.BoolRef) else v

    def truth(v):
        return v if isinstance(v, z3.BoolRef) else v != 0

    def tr(node):
        if isinstance(node, ast.Constant) and isinstance(node.value, int):
            return z3.BoolVal(node.value) if isinstance(node.value, bool) else const(node.value)
        if isinstance(node, ast.Name):
            d = _DIM_NAME.fullmatch(node.id)
            if d and dim is None:
                raise ExprError("expr.syntax", a.text, f"`{d.group(1)}.{d.group(2)}` is not known here")
            return dim(d.group(1), d.group(2)) if d else var(_name(node))
        if isinstance(node, ast.Call) and CALLS.get(getattr(node.func, "id", "")) == len(node.args):
            x, y = (num(tr(v)) for v in node.args)
            f = node.func.id
            return (x + y - 1) / y if f in ("cdiv", "ceil_div") else z3.If(x < y, x, y) if f == "min" else \
                z3.If(x > y, x, y)
        if isinstance(node, ast.BoolOp):
            parts = [truth(tr(v)) for v in node.values]
            return z3.And(*parts) if isinstance(node.op, ast.And) else z3.Or(*parts)
        if isinstance(node, ast.UnaryOp):
            v = tr(node.operand)
            if isinstance(node.op, ast.Not):
                return z3.Not(truth(v))
            return -num(v) if isinstance(node.op, ast.USub) else num(v)
        if isinstance(node, ast.Compare):
            left, out = num(tr(node.left)), []
            for op, right in zip(node.ops, node.comparators):
                r = num(tr(right))
                if type(op) not in _CMP:
                    break
                out.append(_CMP[type(op)](left, r))
                left = r
            else:
                return z3.And(*out)
        if isinstance(node, ast.IfExp):
            return z3.If(truth(tr(node.test)), num(tr(node.body)), num(tr(node.orelse)))
        if isinstance(node, ast.BinOp) and type(node.op) in _ARITH:
            return _ARITH[type(node.op)](num(tr(node.left)), num(tr(node.right)))
        if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.LShift, ast.RShift)) and \
                isinstance(node.right, ast.Constant) and type(node.right.value) is int and 0 <= node.right.value < 62:
            # a shift by a constant (`(cols + 15) >> 4`, a grid of ppl.cv's divideUp): a product or a floor
            # quotient by its power of two (an arithmetic shift of a bit-vector)
            x, k = num(tr(node.left)), node.right.value
            if z3.is_bv(x):
                return x << k if isinstance(node.op, ast.LShift) else x >> k
            return x * const(2 ** k) if isinstance(node.op, ast.LShift) else x / const(2 ** k)
        raise ExprError("expr.syntax", a.text, f"`{ast.unparse(node)}` is not supported in an assumption")

    return truth(tr(_tree(a.text).body))


_ARITH = {ast.Add: lambda a, b: a + b, ast.Sub: lambda a, b: a - b, ast.Mult: lambda a, b: a * b,
          ast.Div: lambda a, b: a / b, ast.FloorDiv: lambda a, b: a / b, ast.Mod: lambda a, b: a % b}
