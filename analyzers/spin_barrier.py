"""A software grid barrier: a device function in which a thread of each block adds to a global counter with an
atomic and spins until the counter reaches a goal, after which the block meets at ``__syncthreads()`` (SHOC's
``__gpu_sync``, the lock-based inter-block barrier). A call of it orders every thread of the grid, as
``grid.sync()`` does, and is analyzed as that barrier (which, like ``grid.sync()``, presumes every block resident).
Only this shape counts: a counter some other code updates, a loop that does work while it waits, or no block barrier
after the spin is no barrier of the grid."""
from __future__ import annotations

import re

from .ast import Func, Node, nodes, short_name

_ATOMIC = re.compile(r"atomic(?:Add|Inc|Sub|Exch|CAS|Or|Max)(?:_\w+)?$")


def _globals(n) -> set:
    return {x.name for x in nodes(n) if x.kind == "name" and x.ref == "global"}


def _idle(body) -> bool:
    """A spin loop's body: nothing, or empty statements."""
    return all(x.kind in ("block", "expr") and x.a is None and not x.body for x in nodes(body))


def _block_barrier(n: Node) -> bool:
    return n.kind == "expr" and isinstance(n.a, Node) and n.a.kind == "call" and short_name(n.a) == "__syncthreads"


def grid_barrier(fn: Func) -> bool:
    """Whether ``fn`` is a software grid barrier (see the module's description); decided once per function (a
    kernel may call a helper thousands of times)."""
    got = fn.__dict__.get("_grid_barrier")
    if got is None:
        got = fn.__dict__["_grid_barrier"] = _grid_barrier(fn)
    return got


def _grid_barrier(fn: Func) -> bool:
    body = fn.body.body if isinstance(fn.body, Node) and fn.body.kind == "block" else []
    for i, st in enumerate(body):
        counters, spins = set(), False
        for x in nodes(st):
            if x.kind == "call" and _ATOMIC.match(short_name(x)) and x.args:
                counters |= _globals(x.args[0])
            elif x.kind in ("while", "do") and counters & _globals(x.a) and _idle(x.body):
                spins = True
        if spins and any(_block_barrier(s) for s in body[i + 1:]):
            return True
    return False
