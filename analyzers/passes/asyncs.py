"""Hopper/Ampere asynchronous-copy misuse.

- ``async.proxy-fence``: ordinary (generic-proxy) stores to shared memory, then a TMA store or wgmma reads shared
  memory through the async proxy with no ``fence.proxy.async`` in between.
- ``async.cp-async-wait``: shared memory filled by cp.async is read before the wait that covers its group
  (``cp.async.wait_group N`` / ``__pipeline_wait_prior(N)`` keep the N most recent groups in flight).
- ``async.mbarrier-phase``: an mbarrier wait on a barrier never initialized, never armed (no arrive/expect_tx/TMA
  completion), or on a parity whose phase is never completed before it.

Program order is followed once; loops that issue or wait on cp.async are unrolled for their first few iterations
(pipelines are periodic in the stage count), so copies issued by earlier iterations are still pending later.
"""
from __future__ import annotations


from kopt.diagnostic import Diagnostic, Location
from kopt.rules import RULES

from .. import sym
from ..model import Access, AsyncOp
from ..solver import needs_bv
from .context import Ctx


def _loc(x, role):
    l = x.loc
    return Location(l.file, l.line, l.col, l.end_line, l.end_col, role)


class _Pending:
    __slots__ = ("op", "shift")

    def __init__(self, op: AsyncOp, shift: dict):
        self.op = op
        self.shift = shift  # loop var -> replacement (previous iteration)


def _events(ctx: Ctx):
    ev = [("acc", a.seq, a) for a in ctx.km.accesses if a.space == "shared"]
    ev += [("op", o.seq, o) for o in ctx.km.asyncs]
    ev.sort(key=lambda t: t[1])
    return ev


def _loops_of(x):
    return x.loops


UNROLL = 6  # iterations simulated for loops that issue or wait on async copies (pipelines are periodic)
_ASYNC_KINDS = {"cp_async", "commit", "wait"}


def _replay(ev: list, depth: int = 0, shift: dict | None = None):
    """Yield (event, shift) in program order. Loops that issue/wait on cp.async are unrolled for their first
    UNROLL iterations (the loop counter replaced by 0, 1, ...); other loops are walked once, symbolically."""
    shift = shift or {}
    i, n = 0, len(ev)
    while i < n:
        item = ev[i]
        loops = _loops_of(item[2])
        if len(loops) > depth:
            lid = loops[depth]
            j = i
            while j < n and len(_loops_of(ev[j][2])) > depth and _loops_of(ev[j][2])[depth] == lid:
                j += 1
            body = ev[i:j]
            if any(x[0] == "op" and x[2].kind in _ASYNC_KINDS for x in body):
                for it in range(UNROLL):
                    yield from _replay(body, depth + 1, {**shift, f"k{lid}": sym.const(it)})
            else:
                yield from _replay(body, depth + 1, shift)
            i = j
        else:
            yield item, shift
            i += 1


def run(ctx: Ctx) -> list[Diagnostic]:
    out: list[Diagnostic] = []
    if not ctx.km.asyncs:
        return out
    out += _proxy_fence(ctx)
    out += _cp_async(ctx)
    out += _mbarrier(ctx)
    return out


def _proxy_fence(ctx: Ctx) -> list[Diagnostic]:
    out, pending, seen = [], [], set()
    for kind, _, x in _events(ctx):
        if kind == "acc":
            if x.write and x.via in ("", "asm") and not x.atomic:
                pending.append(x)
            continue
        if x.kind == "fence_proxy":
            pending = []
        elif x.kind in ("tma_store", "wgmma") and pending and x.loc not in seen:
            rel = [p for p in pending if x.ptr is None or p.base == x.ptr.base] if x.kind == "tma_store" else pending
            if not rel:
                continue
            st = rel[-1]
            seen.add(x.loc)
            what = "TMA store" if x.kind == "tma_store" else "wgmma"
            out.append(RULES["async.proxy-fence"].diag(
                f"shared memory written with ordinary stores (`{ctx.snippet(st)}`) is read by a {what} through the "
                f"async proxy with no fence.proxy.async in between: it may read stale data",
                _loc(x, "read"), _loc(st, "write"), witness={"store": ctx.snippet(st), "consumer": x.text[:60]}))
    return out


def _overlap(ctx: Ctx, cp: _Pending, read: Access, rshift: dict) -> bool:
    p = cp.op.ptr
    if p is None or p.base != read.base:
        return False
    bv = needs_bv(p.off) or needs_bv(read.offset)
    _, e1, e2, _ = ctx.pair("block2", bv)
    cons = []
    off_c = sym.subst(p.off, cp.shift) if cp.shift else p.off
    cond_c = sym.subst(cp.op.cond, cp.shift) if cp.shift else cp.op.cond
    off_r = sym.subst(read.offset, rshift) if rshift else read.offset
    cond_r = sym.subst(read.cond, rshift) if rshift else read.cond
    size = cp.op.size or 16
    oc, orr = e1.int(off_c), e2.int(off_r)
    cons += [e1.bool(cond_c), e2.bool(cond_r), oc < orr + read.size, orr < oc + size]
    # the same loop iteration for loops both are in (threads move through a pipeline together)
    for lc, lr in zip(cp.op.loops, read.loops):
        if lc != lr:
            break
        cons.append(e1.var(f"k{lc}", "iter") == e2.var(f"k{lr}", "iter"))
    if sym.has_opaque(off_c) or sym.has_opaque(off_r):
        return False
    return ctx.solve_in("block2", *cons, bv=bv) is not None


def _cp_async(ctx: Ctx) -> list[Diagnostic]:
    out, seen = [], set()
    groups: list[list[_Pending]] = []
    current: list[_Pending] = []
    for (kind, _, x), shift in _replay(_events(ctx)):
        if kind == "op" and shift and sym.is_const(sym.subst(x.cond, shift)) and not sym.subst(x.cond, shift).val:
            continue  # this unrolled iteration does not run (or skips the operation)
        if kind == "op":
            if x.kind == "cp_async":
                current.append(_Pending(x, shift))
            elif x.kind == "commit":
                groups.append(current)
                current = []
            elif x.kind == "wait":
                n = x.n.val if x.n is not None and sym.is_const(x.n) else 0
                if x.text.startswith("cp.async.wait_all") or x.text == "barrier wait":
                    groups, current = [], []
                else:
                    groups = groups[-n:] if n > 0 else []
                    if x.n is None or not sym.is_const(x.n):
                        groups, current = [], []
            continue
        if ctx.over_budget():
            break
        if x.write or x.via in ("cp.async", "tma") or x.loc in seen:
            continue
        pend = [p for g in groups for p in g] + current
        for p in pend:
            if _overlap(ctx, p, x, shift):
                seen.add(x.loc)
                out.append(RULES["async.cp-async-wait"].diag(
                    f"`{ctx.snippet(x)}` reads shared memory that the cp.async `{p.op.text[:50]}` may still be "
                    f"filling: no cp.async.wait_group / __pipeline_wait_prior covering its group comes first",
                    _loc(x, "read"), _loc(p.op, "write"), witness={"copy": p.op.text[:60], "read": ctx.snippet(x)}))
                break
    return out


def _mbar_key(p):
    if p is None:
        return None
    off = p.off
    return (p.base, off.val if sym.is_const(off) else None)


def _mbarrier(ctx: Ctx) -> list[Diagnostic]:
    out = []
    ops = sorted(ctx.km.asyncs, key=lambda o: o.seq)
    inits, arms = {}, {}
    for o in ops:
        key = _mbar_key(o.mbar)
        if o.kind == "mbar_init":
            inits.setdefault(key, []).append(o)
        elif o.kind in ("mbar_arrive", "mbar_expect", "tma_load"):
            arms.setdefault(key, []).append(o)

    def match(d, key):
        if key is None:
            return [o for v in d.values() for o in v]
        return d.get(key, []) + d.get((key[0], None), []) + d.get(None, []) + (
            [o for kk, v in d.items() if kk is not None and kk[0] == key[0] and key[1] is None
             and kk[1] is not None for o in v])

    for o in ops:
        if o.kind != "mbar_wait":
            continue
        key = _mbar_key(o.mbar)
        name = o.mbar.base if o.mbar is not None else "?"
        ins = [x for x in match(inits, key) if x.seq < o.seq]
        armed = [x for x in match(arms, key) if x.seq < o.seq or (set(x.loops) & set(o.loops))]
        problem = None
        if not ins and key is not None:
            problem = f"waits on mbarrier `{name}` that is never initialized (no mbarrier.init before the wait)"
        elif not armed:
            problem = (f"waits on mbarrier `{name}` whose phase is never armed: no arrive, expect_tx or TMA "
                       f"completion targets it before the wait")
        elif o.n is not None and sym.is_const(o.n) and not o.loops:
            phases = len([x for x in armed if not x.loops and x.kind != "mbar_expect"
                          and not (x.kind == "tma_load" and any(y.kind == "mbar_arrive" and y.seq < o.seq
                                                                 for y in armed))])
            if phases and o.n.val % 2 == 1 and phases < 2:
                problem = (f"waits for parity {o.n.val} of mbarrier `{name}`, but only phase 0 is ever completed "
                           f"before it: the wait never returns")
        if problem:
            out.append(RULES["async.mbarrier-phase"].diag(problem, _loc(o, "barrier"), witness={"wait": o.text[:60]}))
    return out
