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
    same_trips: dict = {}  # thread-dependent trip count -> its uniform stand-in, or None where not proved
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
        cond = _with_uniform_trips(ctx, bar.cond, same_trips, e1, e2)
        if not sym.thread_dependent(cond, iter_too=False):
            continue
        m = ctx.solve_in("block", e1.bool(cond), z3.Not(e2.bool(cond)), other)
        if m is None:
            continue
        seen.add(bar.loc)
        wit = {"reaches": ctx.witness_thread(m, e1), "skips": ctx.witness_thread(m, e2)}
        wit.update(ctx.witness_common(m, [e1, e2], [cond]))
        wit["launch"] = ctx.launch.describe(ctx.km.dims_used)
        name = bar.text or "__syncthreads()"
        l = bar.loc
        out.append(RULES["barrier.divergent"].diag(
            f"`{name}` is reached by some threads of a block but not others (thread-dependent condition, loop "
            f"trip count or early return): the block can hang or synchronize the wrong threads",
            Location(l.file, l.line, l.col, l.end_line, l.end_col, "barrier"), witness=wit))
    return out


def _with_uniform_trips(ctx: Ctx, cond, same_trips: dict, e1, e2):
    """``cond`` with each thread-dependent trip count proved the same in every thread replaced by one value: its
    loop's test has the same truth in any two threads at every iteration (`i = tid + 256 * k < round_up(n, 256)`
    with 256 threads), and so has the path to each `break` or `return` leaving it, given that the iterations
    before agreed (the count itself taken as one value)."""
    mapping = {}
    for name, kind in sym.free_vars(cond).items():
        if kind != "thread" or name not in ctx.km.maybe_uniform_trips:
            continue
        if name not in same_trips:
            _, test, exits = ctx.km.maybe_uniform_trips[name]
            one = sym.var(f"{name}:same", "uniform")
            tests = [test] + [sym.subst(x, {name: one}) for x in exits]
            before, shapes = len(ctx.incomplete), len(ctx.concrete_fallback)
            proved = all(ctx.solve_in("block", e1.bool(t) != e2.bool(t), *_defined(t, e1, e2)) is None for t in tests)
            gave_up = len(ctx.incomplete) > before or len(ctx.concrete_fallback) > shapes  # (not for every block)
            del ctx.incomplete[before:], ctx.concrete_fallback[shapes:]
            same_trips[name] = one if proved and not gave_up else None
        if same_trips[name] is not None:
            mapping[name] = same_trips[name]
    return sym.subst(cond, mapping) if mapping else cond


def _defined(e, e1, e2) -> list:
    """What an execution that evaluates ``e`` in both copies holds: no division by zero, no shift by a negative
    amount or by the width or more (`1 << log_tile` with `log_tile = -1` is undefined, not a thread's choice)."""
    out = []
    for enc in (e1, e2):
        out += [enc.int(d) != 0 for d in sym.divisors(e)]
        out += [z3.And(enc.int(a) >= 0, enc.int(a) < 64) for a in sym.right_operands(e, ("<<", ">>"))]
    return out
