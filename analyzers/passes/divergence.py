"""``barrier.divergent``: a block-wide barrier that some threads of a block reach and others do not (it sits under a
thread-dependent condition, inside a loop with a thread-dependent trip count, or after a thread-dependent early
return). Conditions that are the same for every thread of a block (blockIdx, parameters, uniform loads) pass."""
from __future__ import annotations

import z3

from kopt.diagnostic import Diagnostic, Location
from kopt.rules import RULES

from .. import sym
from .context import Ctx


def run(ctx: Ctx) -> list[Diagnostic]:
    out = []
    seen = set()
    for bar in ctx.km.barriers:
        if bar.kind == "warp" or not bar.checked or bar.loc in seen:
            continue
        if not sym.thread_dependent(bar.cond, iter_too=False):
            continue
        if ctx.over_budget():
            ctx.incomplete.append("barrier check stopped (budget)")
            break
        _, e1, e2, info = ctx.pair("block")
        # two different threads: one thread never diverges from itself (the copies could otherwise draw two values
        # of one unmodeled per-thread quantity)
        other = z3.Or(*[a != b for a, b in zip(info["t1"], info["t2"])])
        m = ctx.solve_in("block", e1.bool(bar.cond), z3.Not(e2.bool(bar.cond)), other)
        if m is None:
            continue
        seen.add(bar.loc)
        wit = {"reaches": ctx.witness_thread(m, e1), "skips": ctx.witness_thread(m, e2)}
        wit.update(ctx.witness_common(m, [e1, e2], [bar.cond]))
        wit["launch"] = ctx.launch.describe(ctx.km.dims_used)
        name = bar.text or "__syncthreads()"
        l = bar.loc
        out.append(RULES["barrier.divergent"].diag(
            f"`{name}` is reached by some threads of a block but not others (thread-dependent condition, loop "
            f"trip count or early return): the block can hang or synchronize the wrong threads",
            Location(l.file, l.line, l.col, l.end_line, l.end_col, "barrier"), witness=wit))
    return out
