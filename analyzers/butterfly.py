"""A warp's xor-butterfly all-reduce written as a loop: ``for (o = W/2; o > 0; o >>= 1) x += __shfl_xor_sync(m, x,
o, W);`` (or from 1 up to W/2). After it every lane of each aligned group of W lanes holds the same value: at each
step a lane and its partner combine the same two values with a commutative operation, so their results are equal
bit for bit (floating-point addition included), whatever order the steps take."""
from __future__ import annotations

from .ast import Node

_XOR = {"__shfl_xor_sync": 2, "__shfl_xor": 1}  # shuffle -> position of the lane-mask argument
_COMBINE_OPS = {"+", "*", "|", "&", "^"}
_COMBINE_CALLS = {"max", "min", "fmaxf", "fminf", "fmax", "fmin", "__hmax", "__hmin", "__hadd", "__hmul", "__hadd2",
                  "__hmax2", "__hmin2"}


def match(n: Node, constant) -> tuple[list[str], int, str] | None:
    """(the variables the loop reduces, the group size W, the step's variable) when ``n`` is such a loop; else
    None. ``constant``: a node's integer value when the analysis knows it (template values bound), else None."""
    if n.kind != "for" or n.init is None or n.a is None or n.b is None or not _statements(n.body):
        return None
    step, start = _counter(n.init, constant)
    if step is None or start is None or start < 1 or start & (start - 1):
        return None
    body = _statements(n.body)
    if not body:
        return None
    widths, targets = set(), []
    for s in body:
        got = _reduction(s, step, constant)
        if got is None:
            return None
        targets.append(got[0])
        widths.add(got[1])
    if len(widths) != 1 or len(set(targets)) != len(targets):
        return None
    width = widths.pop()
    test, inc = n.a, n.b
    down = _is(test, step, ">", 0) or _is(test, step, ">=", 1) or _is(test, step, "!=", 0)
    if down and start * 2 <= width and _halves(inc, step):
        return targets, start * 2, step  # offsets start, start/2, ..., 1: groups of 2 * start lanes
    up = _is(test, step, "<", width) or _is(test, step, "<=", width // 2)
    if up and start == 1 and _doubles(inc, step):
        return targets, width, step  # offsets 1, 2, ..., W/2
    return None


def _counter(init: Node, constant):
    if init.kind == "decl" and init.a is not None:
        return init.name, constant(init.a)
    if init.kind == "expr":
        init = init.a
    if init is not None and init.kind == "assign" and init.op == "=" and init.a is not None and init.a.kind == "name":
        return init.a.name, constant(init.b)
    return None, None


def _statements(body) -> list:
    out = []
    for s in body or []:
        if s.kind == "block":
            inner = _statements(s.body)
            if not inner:
                return []
            out += inner
        elif s.kind == "expr" and s.a is not None:
            out.append(s.a)
        else:
            return []
    return out


def _name(n: Node | None) -> str | None:
    return n.name if n is not None and n.kind == "name" else None


def _reduction(s: Node, step: str, constant):
    """(target, width) for ``x OP= shfl_xor(m, x, step[, W])`` or ``x = f(x, shfl_xor(...))`` (either order)."""
    if s.kind != "assign" or _name(s.a) is None:
        return None
    x = s.a.name
    if s.op in {f"{o}=" for o in _COMBINE_OPS}:
        width = _shuffle(s.b, x, step, constant)
    elif s.op == "=" and s.b is not None and (
            (s.b.kind == "bin" and s.b.op in _COMBINE_OPS) or
            (s.b.kind == "call" and s.b.name.split("::")[-1] in _COMBINE_CALLS and len(s.b.args) == 2)):
        a, b = (s.b.a, s.b.b) if s.b.kind == "bin" else s.b.args
        width = _shuffle(b, x, step, constant) if _name(a) == x else \
            _shuffle(a, x, step, constant) if _name(b) == x else None
    else:
        return None
    return (x, width) if width is not None else None


def _shuffle(c: Node | None, x: str, step: str, constant) -> int | None:
    """The width of ``__shfl_xor_sync(mask, x, step[, W])`` (32 when not given); None for anything else."""
    if c is None or c.kind != "call" or c.name not in _XOR:
        return None
    at = _XOR[c.name]
    if len(c.args) <= at or _name(c.args[at - 1]) != x or _name(c.args[at]) != step:
        return None
    width = constant(c.args[at + 1]) if len(c.args) > at + 1 else 32
    return width if width in (2, 4, 8, 16, 32) else None


def _is(test: Node, step: str, op: str, value: int) -> bool:
    return test.kind == "bin" and test.op == op and _name(test.a) == step and test.b is not None and \
        test.b.kind == "lit" and test.b.val == value


def _halves(inc: Node, step: str) -> bool:
    return inc.kind == "assign" and _name(inc.a) == step and (
        (inc.op == ">>=" and _lit(inc.b) == 1) or (inc.op == "/=" and _lit(inc.b) == 2) or
        (inc.op == "=" and inc.b is not None and inc.b.kind == "bin" and _name(inc.b.a) == step and
         ((inc.b.op == ">>" and _lit(inc.b.b) == 1) or (inc.b.op == "/" and _lit(inc.b.b) == 2))))


def _doubles(inc: Node, step: str) -> bool:
    return inc.kind == "assign" and _name(inc.a) == step and (
        (inc.op == "<<=" and _lit(inc.b) == 1) or (inc.op == "*=" and _lit(inc.b) == 2) or
        (inc.op == "+=" and _name(inc.b) == step) or
        (inc.op == "=" and inc.b is not None and inc.b.kind == "bin" and _name(inc.b.a) == step and
         ((inc.b.op == "<<" and _lit(inc.b.b) == 1) or (inc.b.op == "*" and _lit(inc.b.b) == 2))))


def _lit(n: Node | None):
    return n.val if n is not None and n.kind == "lit" else None
