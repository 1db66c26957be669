"""Data races by the two-thread encoding: two distinct threads, each at some loop iteration, reach two accesses to
overlapping bytes in the same barrier phase (no __syncthreads between them), at least one writes, not both atomic.

Findings are split into:
- ``warp.implicit-sync``: the race needs both threads in one warp (code relying on lockstep without __syncwarp);
- ``sync.missing``: a write followed in program order by another thread's read with no barrier between;
- ``race.shared`` / ``race.global``: every other conflicting pair (write-after-read, write-write, read-modify-write);
- ``race.shared.possible`` (a note, not a finding): the index could not be modelled, so the pair is undecided;
- ``race.atomic-plain`` (warning): a plain read of a location other threads update atomically;
- ``race.curand-state``: two threads advance one cuRAND generator state.
"""
from __future__ import annotations

import z3

from kopt.diagnostic import Diagnostic, Severity
from kopt.rules import RULES

from .. import digits, sym
from ..sym import S
from ..model import Access
from ..solver import Enc, GaveUp, model_int, needs_bv
from .context import Ctx, Undecided, index_of

MAX_PAIRS = 2000


def _shared_loads(e, shared: set) -> bool:
    return any(n.startswith("ld:") and n[3:] in shared for n in sym.uf_names(e))


def _benign(a: Access, b: Access, space: str, shared: set) -> bool:
    """Two writes of one value that is the same for every thread that could write it (values read from shared
    memory are per block, so they only count as the same within a block)."""
    if not (a.write and b.write) or a.atomic or b.atomic or a.value is None or b.value is None:
        return False
    if a.value.key() != b.value.key():
        return False
    ks = sym.kinds(a.value)
    bad = {"thread", "iter"} | ({"block"} if space == "global" else set())
    if space == "global" and _shared_loads(a.value, shared):
        return False
    return not (ks & bad)


def _candidates(accs: list[Access]):
    n = len(accs)
    for i in range(n):
        for j in range(i, n):
            a, b = accs[i], accs[j]
            if a.base != b.base:
                continue
            if not (a.write or b.write):
                continue
            if a.atomic and b.atomic:
                continue
            if (a.atomic and not b.write and b.volatile) or (b.atomic and not a.write and a.volatile):
                continue  # a volatile read of an atomically updated flag: the legacy relaxed load
            if _volatile_flag(a, b):
                continue
            if i == j and not a.write:
                continue
            yield a, b


def _volatile_flag(a: Access, b: Access) -> bool:
    """Volatile accesses of one word whose stores put a value the same for every thread (a `found` or `done` flag):
    volatile accesses are relaxed system-scope ones, so the pair is no data race (morally strong), and the flag's
    one value does not depend on which runs first. Volatile data passed between threads (`s[t] += s[t + 16]` of a
    warp-synchronous reduction) still needs its ordering and is checked."""
    if not (a.volatile and b.volatile) or a.atomic or b.atomic or a.size != b.size:
        return False
    return all(x.value is not None and not (sym.kinds(x.value) & {"thread", "iter", "block"})
               for x in (a, b) if x.write)


def _scatter(a: Access, b: Access, rmw: set) -> bool:
    """Two plain stores through a data-dependent index (``out[perm[i]] = v``): racing only if the index data
    repeats, which the code usually rules out by construction (a permutation). Read-modify-writes
    (``hist[bin]++``, ``out[idx] += v``) are still checked."""
    if not (a.write and b.write) or a.atomic or b.atomic:
        return False
    if not (sym.has_data(a.offset) and sym.has_data(b.offset)):
        return False
    return (a.base, a.offset.key()) not in rmw and (b.base, b.offset.key()) not in rmw


class _LastBlock:
    """The last-block pattern: each block publishes data, executes ``__threadfence()`` and takes a ticket from a
    global counter with one atomic (``t = atomicInc(count, gridDim.x)``); the block whose ticket is the last one
    (``t == gridDim.x - 1``, tested directly, through a shared flag, or on the ticket kept in shared memory) reads what every block published and may
    reset the counter. The last ticket is drawn after every other block's ticket, so: (1) what another block wrote
    before its fence and ticket (and the ticket itself) happens before the last block's accesses, and (2) two
    different blocks are never both the last. Cross-block pairs ordered that way are not races (pairs inside one
    block are still checked)."""

    def __init__(self, ctx: Ctx):
        km = ctx.km
        self.ctx, self.ticket, self.fences, self.memo = ctx, None, [], {}
        eqs = {}
        grid = km.launch.grid
        blocks = grid[0] * grid[1] * grid[2] if all(isinstance(g, int) for g in grid) else None
        # shared slots that hold the ticket itself (`*flag = atomicAdd(count, 1)`, then `if (*flag == gridDim.x-1)`):
        # every plain store there stores a ticket
        slots = {}
        for a in km.accesses:
            if a.space == "shared" and a.write and not a.atomic:
                slots.setdefault((a.base, a.offset.key()), []).append(a.value is not None and _is_ticket_value(a.value))
        slots = {k for k, ok in slots.items() if all(ok)}
        for e in _subexprs([x for a in km.accesses for x in (a.cond, a.value) if x is not None]):
            if e.op != "==":
                continue
            for ticket, last in (e.args, e.args[::-1]):  # `t == gridDim.x - 1` or `gridDim.x - 1 == t`
                held = ticket.op == "uf" and ticket.val.startswith("ld:") and len(ticket.args) == 1 and \
                    (ticket.val[3:], ticket.args[0].key()) in slots
                if (_is_ticket_value(ticket) or held) and (_is_last_index(last) or (
                        blocks is not None and sym.is_const(last) and last.val == blocks - 1)):
                    eqs[e.key()] = e
        if not eqs:
            return
        flags = {}
        for a in km.accesses:
            if a.space == "shared" and a.write and not a.atomic:
                flags.setdefault(a.base, []).append(a.value is not None and a.value.key() in eqs)
        self.flags = {b for b, ok in flags.items() if all(ok)}
        self.eqs = set(eqs)
        first = min((a.seq for a in km.accesses if self.guarded(a)), default=None)
        tickets = [a for a in km.accesses if a.space == "global" and a.atomic and a.write and not a.loops
                   and first is not None and a.seq < first]
        if tickets:
            self.ticket = max(tickets, key=lambda a: a.seq)
            self.fences = [f for f in km.asyncs if f.kind == "fence" and f.seq < self.ticket.seq and not f.loops
                           and self.implies(self.ticket.cond, f.cond)]

    def implies(self, c1, c2) -> bool:
        """Whenever a thread runs under ``c1`` (in a grid of more than one block), it also runs under ``c2``."""
        key = (c1.key(), c2.key())
        if key not in self.memo:
            _, e, _, _ = self.ctx.pair("single")
            _, grid, _ = self.ctx.dims(e)  # the terms the encoding uses (its constraints are asserted already)
            self.memo[key] = self.ctx.solve_in("single", e.bool(c1), z3.Not(e.bool(c2)),
                                               grid[0] * grid[1] * grid[2] > 1) is None
        return self.memo[key]

    def guarded(self, a: Access) -> bool:
        """The access runs only in the block that drew the last ticket."""
        for c in sym.operands(a.cond, "&&"):
            if c.key() in self.eqs or (c.op == "uf" and c.val.startswith("ld:") and c.val[3:] in self.flags):
                return True
        return False

    def published(self, a: Access) -> bool:
        """The access is ordered before the block's ticket for every other block's last-ticket reader."""
        t = self.ticket
        if a is t or (a.base == t.base and a.atomic and a.offset.key() == t.offset.key() and not a.loops):
            return True
        if a.seq > t.seq or self.guarded(a):
            return False
        # (an access in a loop: the fence and the ticket are in none, so every iteration comes before them)
        # the thread that made the access is the one that fences and takes the ticket, or a block barrier lies
        # between the access and the ticket-taker's fence (the fence is cumulative: what the barrier made visible
        # to the fencing thread is ordered too), or the thread fences its own access and a block barrier lies
        # between that fence and the ticket (every thread stores, fences, `__syncthreads()`, thread 0 draws)
        bars = [b.seq for b in self.ctx.km.barriers if b.kind == "block"]
        return any(a.seq < f.seq and (self.implies(a.cond, t.cond) or any(a.seq < b < f.seq for b in bars) or (
            self.implies(a.cond, f.cond) and any(f.seq < b < t.seq for b in bars))) for f in self.fences)

    def ordered(self, a: Access, b: Access) -> bool:
        """Accesses of two different blocks that the ticket orders (or that cannot both run)."""
        if self.ticket is None:
            return False
        ga, gb = self.guarded(a), self.guarded(b)
        return (ga and gb) or (gb and self.published(a)) or (ga and self.published(b))


class _FlagHandoff:
    """Data handed from block to block through a flag (the decoupled look-back of a single-pass scan): a thread
    writes an element, executes ``__threadfence()`` and then stores to the flag element of the same index
    (``out[i] = v; __threadfence(); flag[i] = 1;``, the flag volatile or atomic); a thread of another block spins on
    that flag element in a loop (``do { s = flag[j]; } while (s == 0);``) and only after the loop reads the element
    of the same index (``out[j]``). The write and the read meet only where the indices agree, and then the reader
    waited for the flag the writer set after its fence: a cross-block pair so ordered is no race (pairs inside one
    block are still checked). Matched by the index text; the value the reader waits for is not compared with the
    one stored."""

    def __init__(self, ctx: Ctx):
        km = ctx.km
        self.fences = [f.seq for f in km.asyncs if f.kind == "fence"]
        flags = [(a, _element(a)) for a in km.accesses if a.space == "global" and (a.volatile or a.atomic)]
        # flag stores outside loops (base, index key, seq) and spins, flag loads in a loop (base, index key, seq,
        # innermost loop)
        self.stores = [(f.base, i.key(), f.seq) for f, i in flags if i is not None and f.write and not f.loops]
        self.spins = [(f.base, i.key(), f.seq, f.loops[-1]) for f, i in flags
                      if i is not None and not f.write and f.loops]

    def published(self, w: Access) -> bool:
        i = _element(w)
        return w.write and i is not None and any(
            base != w.base and key == i.key() and any(w.seq < f < seq for f in self.fences)
            for base, key, seq in self.stores)

    def acquired(self, r: Access) -> bool:
        i = _element(r)
        return not r.write and i is not None and any(
            base != r.base and key == i.key() and seq < r.seq and loop not in r.loops
            for base, key, seq, loop in self.spins)

    def ordered(self, a: Access, b: Access) -> bool:
        if not self.spins or not self.stores:
            return False
        return (self.published(a) and self.acquired(b)) or (self.published(b) and self.acquired(a))


def _subexprs(roots):
    seen, stack = set(), list(roots)
    while stack:
        e = stack.pop()
        if id(e) in seen:
            continue
        seen.add(id(e))
        yield e
        stack.extend(e.args)


def _is_ticket_value(e) -> bool:
    """The value an atomicInc / atomicAdd returns (an opaque result, or the distinct slot of a constant step)."""
    return e.op == "v" and e.val.startswith(("opq#", "uniq#")) and any(
        f"{f} {w}" in e.val for f in ("atomicInc", "atomicAdd") for w in ("result", "slot"))


def _is_last_index(e) -> bool:
    """``gridDim.x - 1`` (or the block count of a 2-D/3-D grid, minus one)."""
    if e.op != "+" or not (sym.is_const(e.args[1]) and e.args[1].val == -1):
        return False
    n = e.args[0]
    return all(x.op == "v" and x.val in ("gdx", "gdy", "gdz") for x in sym.operands(n, "*"))


def run(ctx: Ctx) -> list[Diagnostic]:
    out: list[Diagnostic] = []
    seen = set()
    ctx.last_block = _LastBlock(ctx)
    ctx.handoff = _FlagHandoff(ctx)
    ranges = digits.launch_ranges(ctx.launch, ctx.km.dims_used, ctx.km.grid_used)
    # parameters the launch's assumptions bound below: a remainder or quotient by one at least 1 is a digit
    given = ctx.lows()
    positive = frozenset(n for n, v in given.items() if v >= 1)
    nonneg = frozenset(n for n, v in given.items() if v == 0) | {f"p:{n}" for n in ctx.unsigned_params}
    for space in ("shared", "global"):
        accs = [a for a in ctx.km.accesses if a.space == space and a.via not in ("cp.async", "tma")]
        rmw = {(a.base, a.offset.key()) for a in accs if not a.write}
        count = 0
        for a, b in _candidates(accs):
            if _benign(a, b, space, set(ctx.km.shared)) or _scatter(a, b, rmw):
                continue
            if space == "shared" and (sym.never_equal(a.phase, b.phase) or ctx.phases_apart(a, b)):
                continue
            if space == "global" and (sym.has_opaque(a.offset) or sym.has_opaque(b.offset)):
                continue  # an unmodelled global index: _classify reports nothing for it, so no query is spent
            key = (space, min(a.seq, b.seq), max(a.seq, b.seq))
            locs = (a.loc, b.loc)
            if (space, frozenset(locs)) in seen:
                continue
            bv = needs_bv(a.offset) or needs_bv(b.offset)
            parts = None if bv else digits.equal_parts(a.offset, a.size, b.offset, b.size, a.cond, b.cond, ranges,
                                                         positive, nonneg)
            if parts is not None and digits.never(parts, ranges, space == "global"):
                continue  # the digits show the two threads never meet: no query, nothing counted against the budget
            count += 1
            if count > MAX_PAIRS or ctx.over_budget():
                ctx.incomplete.append(f"race check of `{ctx.km.name}` stopped after {count - 1} pairs (budget)")
                break
            d = _check_pair(ctx, a, b, space, bv, parts, ranges, given)
            if d is not None:
                d._phases = (a.phase.key(), b.phase.key())  # for _drop_subsumed
                seen.add((space, frozenset(locs)))
                dk = (d.rule, d.locations[0].line, d.locations[0].col)
                if dk not in seen:
                    seen.add(dk)
                    out.append(d)
            del key
    return _drop_subsumed(out)


def _drop_subsumed(out: list[Diagnostic]) -> list[Diagnostic]:
    """A lane-to-lane conflict at a location that also races across warps is fixed by the block barrier the other
    finding asks for; reporting it again as warp-synchronous code would send the reader the wrong way."""
    block = [d for d in out if d.rule in ("race.shared", "sync.missing")]
    at = {(l.line, l.col) for d in block for l in d.locations}
    phases = {p for d in block for p in getattr(d, "_phases", ())}
    keep = []
    for d in out:
        if d.rule == "warp.implicit-sync" and (any((l.line, l.col) in at for l in d.locations)
                                               or set(getattr(d, "_phases", ())) & phases):
            continue
        keep.append(d)
    for d in keep:
        d.__dict__.pop("_phases", None)
    return keep


def _disjoint_draws(ctx: Ctx, a: Access, b: Access, e1, e2) -> list:
    """Slots two different atomics drew from one counter the kernel only counts up (``i = atomicAdd(n, 1)`` in two
    branches, each followed by ``out[i] = ...``): each draw reserves its own range [slot, slot + step)."""
    km, out = ctx.km, []
    mine = [n for x in (a.offset, a.cond) for n in sym.free_vars(x) if n in ctx.counting_slots]
    theirs = [n for x in (b.offset, b.cond) for n in sym.free_vars(x) if n in ctx.counting_slots]
    for n1 in dict.fromkeys(mine):
        for n2 in dict.fromkeys(theirs):
            if n1 != n2 and km.counters[n1] == km.counters[n2]:
                v1, v2 = e1.var(n1, "thread"), e2.var(n2, "thread")
                out.append(z3.Or(v1 + km.slot_steps[n1] <= v2, v2 + km.slot_steps[n2] <= v1))
    return out


def _encode(ctx: Ctx, a: Access, b: Access, space: str, bv: bool, parts):
    _, e1, e2, info = ctx.pair(space, bv)
    cons = [e1.bool(a.cond), e2.bool(b.cond)]
    slots = {n for x in (a.offset, a.cond) for n in sym.free_vars(x) if n.startswith("uniq#")} & \
            {n for x in (b.offset, b.cond) for n in sym.free_vars(x) if n.startswith("uniq#")}
    cons += [e1.var(n, "thread") != e2.var(n, "thread") for n in slots]  # distinct atomic slots
    cons += _disjoint_draws(ctx, a, b, e1, e2)
    owners = getattr(a.base, "owner", None), getattr(b.base, "owner", None)
    if None not in owners:  # through pointers loaded from an array's entries: the same entry (``LoadedBase``)
        cons.append(e1.int(owners[0]) == e2.int(owners[1]))
    for x, e in ((a, e1), (b, e2)):
        for n in ctx.counting_slots & {*sym.free_vars(x.offset), *sym.free_vars(x.cond)}:
            cons += [e.var(n, "thread") >= 0, e.var(n, "thread") < 2 ** 31]
            if n in ctx.block_counts:  # a block's counter each thread steps at most once per site
                bd, _, _ = ctx.dims(e)
                cons.append(e.var(n, "thread") + ctx.km.slot_steps[n] <= ctx.block_counts[n] * bd[0] * bd[1] * bd[2])
    if space == "global":
        cons += _in_extents(a, e1) + _in_extents(b, e2)
    ia, ib = _element(a), _element(b)
    by_rows = ctx.row_overlap(a, b, e1, e2) if parts is None else None
    if by_rows is not None:
        cons += by_rows  # row numbers equal and columns overlapping: linear where the offsets were not
    elif parts is not None:  # the indices compared digit by digit (linear), in one or more alternatives
        alts = [[e1.int(x) == e2.int(y) for x, y in pairs] for pairs in parts]
        cons += alts[0] if len(alts) == 1 else [z3.Or(*[z3.And(*alt) for alt in alts])]
    elif ia is not None and ib is not None and a.size == b.size:
        cons.append(e1.int(ia) == e2.int(ib))  # same element size: overlap is equality of element indices
    else:
        o1, o2 = e1.int(a.offset), e2.int(b.offset)
        cons += [o1 < o2 + b.size, o2 < o1 + a.size]
        align = _common_alignment(a, b)
        if align > 1:  # both addresses aligned (the base's own alignment unknown): the offsets agree modulo it
            cons.append(z3.Extract(align.bit_length() - 2, 0, o1 - o2) == 0 if bv else (o1 - o2) % align == 0)
    cons += ctx.row_lemmas(a, b, e1, e2)  # implied by the layout assumptions; they keep pitched queries linear
    cons += ctx.padded_lemmas(a, b, e1, e2)
    w1, w2 = info["w1"], info["w2"]
    same_iters = _same_iterations(ctx, a, b)
    if same_iters is not None:
        ordered_free = z3.And(*[e1.var(k, "iter") == e2.var(k, "iter") for k in same_iters])
    else:
        ordered_free = z3.And(e1.int(a.phase) == e2.int(b.phase),
                              z3.Or(w1 != w2, e1.int(a.wphase) == e2.int(b.wphase)))
    if space == "shared":
        cons.append(ordered_free)
    elif ctx.last_block.ordered(a, b) or ctx.handoff.ordered(a, b):
        cons += [info["same_block"], ordered_free]
    else:
        # threads of two blocks are ordered only by a grid barrier (grid.sync()) between the accesses; block
        # barriers order only threads of one block (their phase numbers say nothing across blocks)
        same_grid_phase = z3.BoolVal(True) if a.gphase is None and b.gphase is None else \
            e1.int(a.gphase or sym.const(0)) == e2.int(b.gphase or sym.const(0))
        cons.append(z3.If(info["same_block"], ordered_free, same_grid_phase))
    return cons, e1, e2, (w1, w2, info["same_block"])


def _common_alignment(a: Access, b: Access) -> int:
    """The alignment two accesses share for certain: a PTX ``ld``/``st`` of N bytes (inline asm, a vector
    ``ld.global.v4.u32``) needs an N-byte aligned address, else it faults; C accesses count as 1 (a struct's
    alignment may be less than its size)."""
    sizes = [x.size for x in (a, b) if x.via == "asm"]
    if len(sizes) < 2 or any(n < 2 or n & (n - 1) for n in sizes):
        return 1
    return min(sizes)


def _in_extents(acc: Access, enc) -> list:
    """A subscript of a declared array in global memory (a struct's member array `cut->leaves[i]`, a `__device__`
    array) stays within its extent: leaving it is undefined behaviour, not a way to reach a neighbour's element, so
    a witness may not use it (a loop bound read from memory otherwise lets `leaves[i]` run into the next struct).
    Extents of 0 or 1 are left out: a trailing `data[1]` is the variable-length struct idiom. (Shared arrays keep
    their indices free: ``bounds.shared`` reports the ones that leave them.) So does a subscript of a tensor
    accessor's inner dimension (`poses[k][6]` is within `poses.size(1)`): with the row stride the size, an index past
    it would name the next row's element."""
    out = []
    for idx, dim in acc.subs:
        bounded = isinstance(dim, int) and dim > 1 or isinstance(dim, S) and not sym.has_opaque(dim)
        if not bounded or sym.has_opaque(idx):
            continue
        x = enc.int(idx)
        out += [x >= 0, x < (dim if isinstance(dim, int) else enc.int(dim))]
    return out


def _same_iterations(ctx: Ctx, a: Access, b: Access):
    """When both accesses sit at the same point of the barrier structure (identical phase expressions) and every
    enclosing loop executes at least one block barrier per iteration, equal phases mean equal iteration numbers:
    return those iteration variables (a linear constraint instead of a product of trip counts), else None."""
    if a.phase.key() != b.phase.key() or a.wphase.key() != b.wphase.key():
        return None
    ks = [k for k, kind in sym.free_vars(a.phase).items() if kind == "iter"]
    inside = {f"N{lid}" for lid in a.loops} & {f"N{lid}" for lid in b.loops}
    for k in ks:
        delta = ctx.km.deltas.get(k)
        if delta is None:
            return None
        lo, _ = sym.bounds(delta, frozenset(inside))
        if lo is None or lo < 1:
            return None
    return ks


def _element(a: Access):
    """The element index when the byte offset is ``index * size`` for the access size, else None."""
    off = a.offset
    if off.op == "*" and sym.is_const(off.args[1]) and off.args[1].val == a.size:
        return off.args[0]
    if sym.is_const(off) and a.size and off.val % a.size == 0:
        return sym.const(off.val // a.size)
    return None


def _presumed_apart(ctx: Ctx, a: Access, b: Access, space: str, ranges: dict, given: dict,
                    digits_only: bool = False) -> bool:
    """Whether, with the indices' integer parameters as ``signs`` presumes them (not negative, a stride or divisor at
    least 1), the two accesses provably never meet, the digits of a remainder or quotient by such a parameter
    compared one by one (``out[(i % h) + 4 * (i / h) * h]``); recorded in ``ctx.presumptions``. Asked when the
    query without them was too hard: outside them a race could only ever be a ``race.precondition`` note.
    ``digits_only``: decided by the digits alone, no solver query (False when they do not decide)."""
    lows = ctx.presumed_lows(a, b)
    if not lows:
        return False
    # and the bounds the launch's assumptions give (``given``, from ``ctx.lows``)
    positive = frozenset(n for n, (lo, _) in lows.items() if lo >= 1) | {n for n, v in given.items() if v >= 1}
    parts = digits.equal_parts(a.offset, a.size, b.offset, b.size, a.cond, b.cond, ranges, positive,
                               (frozenset(lows) | {n for n, v in given.items() if v >= 0}) - positive)
    if parts is None:
        return False
    _, e1, e2, _ = ctx.pair(space, False)
    presumed, text = ctx.presumed(lows, (a, e1), (b, e2))
    if not digits.never(parts, ranges, space == "global"):
        if digits_only:
            return False
        cons, e1, e2, _ = _encode(ctx, a, b, space, False, parts)
        try:
            if ctx.solve_presumed(space, *cons, presumed) is not None:
                return False
        except GaveUp:
            return False
    ctx.presumptions.add(text)
    return True


def _check_pair(ctx: Ctx, a: Access, b: Access, space: str, bv: bool, parts, ranges: dict,
                given: dict) -> Diagnostic | None:
    cons, e1, e2, (w1, w2, same_block) = _encode(ctx, a, b, space, bv, parts)
    shared = set(ctx.km.shared)
    if a.write and b.write and not (a.atomic or b.atomic) and a.value is not None and b.value is not None:
        # two stores of one value (a shuffle broadcast, a warp or group reduction that every lane stores, a shared
        # value every thread reads after a barrier) are benign; a value read from shared memory is one block's
        differ = _values_differ(a.value, b.value, e1, e2, ctx.km.after_loop)
        if differ is not None and space == "global" and (_shared_loads(a.value, shared) or
                                                         _shared_loads(b.value, shared)):
            differ = z3.Or(differ, *(e1.var(f"b{f}", "block") != e2.var(f"b{f}", "block") for f in "xyz"))
        if differ is not None:
            cons.append(differ)
    elif a.write != b.write and not (a.atomic or b.atomic):
        own = _own_store_differs(*((a, b, e2) if a.write else (b, a, e1)))
        if own is not None:
            cons.append(own)
    asked = bool(ctx.presumptions) and not bv  # the presumed digits, asked once per pair
    if asked and _presumed_apart(ctx, a, b, space, ranges, given, digits_only=True):
        # the kernel's earlier pairs were too hard without the presumed signs: a pair whose presumed digits show the
        # threads apart is not first asked without them (a query that ran out of its budget for each of a permute's
        # three stores, and left the rest of the kernel unchecked)
        return None
    undecided, by_shapes = len(ctx.incomplete), len(ctx.concrete_fallback)
    # with no block known, a pair too hard for every block at once is asked the presumed digits before the
    # concrete block shapes, whose queries (one per shape) can spend the kernel's budget on one pair
    m = ctx.solve_in(space, *cons, bv=bv,
                     decided=None if bv or asked else
                     lambda: _presumed_apart(ctx, a, b, space, ranges, given, digits_only=True))
    if m is None:
        if (len(ctx.incomplete) > undecided or len(ctx.concrete_fallback) > by_shapes) and not bv and \
                _presumed_apart(ctx, a, b, space, ranges, given):
            # decided under the presumption, which the kernel's result states, for every block (the digits' radices
            # are the launch's dimensions, whatever they are)
            del ctx.incomplete[undecided:]
            del ctx.concrete_fallback[by_shapes:]
        return None
    d = _classify(ctx, m, cons, a, b, e1, e2, space, w1, w2, bv)
    if d is not None and d.severity != Severity.NOTE:
        # an access that runs computed its index, so a divisor there is not 0 (dividing by zero is undefined
        # behaviour, and z3 gives x / 0 any value), nor is a template value or `sizeof` its guard divides by (`dim /=
        # V; if (c >= dim) return;`; a parameter there, asked too, burdened queries past their budget): a finding
        # whose witness divides by zero is asked again without it (only then: the facts would burden every query);
        # when that is too hard, the pair is undecided
        nonzero = [(enc.bool(acc.cond), enc.int(x)) for acc, enc in ((a, e1), (b, e2))
                   for x in sym.divisors(acc.offset) + _unknown_constants(sym.divisors(acc.cond))]
        if any(z3.is_true(m.eval(z3.And(c, x == 0), model_completion=True)) for c, x in nonzero):
            defined = cons + [z3.Implies(c, x != 0) for c, x in nonzero]
            try:
                m2 = ctx.solve_small(space, *defined, bv=bv)
            except GaveUp:
                if not bv and _presumed_apart(ctx, a, b, space, ranges, given):
                    return None  # apart under the presumed signs (a divisor at least 1), which the result states
                ctx.incomplete.append(f"whether `{ctx.snippet(a)}` races without dividing by zero was not decided "
                                      f"within the solver budget (the only witness found divides by zero)")
                return None
            if m2 is None:
                return None
            cons, m = defined, m2
            d = _classify(ctx, m, cons, a, b, e1, e2, space, w1, w2, bv)
    if d is not None and d.severity != Severity.NOTE and space == "shared":
        # threads of one block run a loop that holds a block barrier equally often; when the loop's count depends on
        # the thread, barrier.divergent reports the hang, and a pair that meets only by running it unequally often
        # is that finding again (asked only of a witness that runs them unequally: the facts burden every query)
        equal = [e1.var(n, "thread") == e2.var(n, "thread") for n in sorted(
            ctx.barrier_trips & {*sym.free_vars(a.phase), *sym.free_vars(a.cond)} &
            {*sym.free_vars(b.phase), *sym.free_vars(b.cond)})]
        if any(z3.is_false(m.eval(x, model_completion=True)) for x in equal):
            try:
                m2 = ctx.solve_small(space, *cons, *equal, bv=bv)
            except GaveUp:
                m2 = m  # undecided: the finding stands, as before the question
            if m2 is None:
                return None
            if m2 is not m:
                cons, m = cons + equal, m2
                d = _classify(ctx, m, cons, a, b, e1, e2, space, w1, w2, bv)
    # (a precondition on the parameters first: a pair it rules out needs no search over block sizes, the costliest
    # question asked of a pair)
    if d is not None and d.severity != Severity.NOTE:
        rows, plausible = ctx.row_dependent(space, a, b, e1, e2, *cons, bv=bv)
        if isinstance(plausible, Undecided):
            broken = sorted({t for c, t in plausible.rows if z3.is_false(m.eval(c, model_completion=True))})
            if broken:
                # found only where a precondition breaks, and undecided where it holds: no verdict either way
                ctx.incomplete.append(f"whether `{ctx.snippet(a)}` races under {'; '.join(broken)} was not decided "
                                      f"within the solver budget")
                wit = dict(d.witness or {}, rule=d.rule, precondition="; ".join(broken))
                return RULES["race.precondition"].diag(
                    f"{d.message}, but found only for parameter values the kernel's indexing presumes away ("
                    f"{'; '.join(broken)} does not hold in the witness), and with them the solver could not decide "
                    f"within its budget (state the parameters with `// kopt: assume` or --assume)", *d.locations,
                    witness=wit)
            plausible = None
        if plausible is not None:
            # the race holds at parameter values a caller passes: the witness shows such values
            again = _classify(ctx, plausible, cons, a, b, e1, e2, space, w1, w2, bv)
            if again is not None and again.rule == d.rule:
                d.witness = again.witness
        if rows is not None:
            # every witness breaks a precondition on the parameters that the kernel does not state and its
            # idiom presumes (a column inside its row of a strided index, a power-of-two q in `x & (q - 1)`): a
            # note naming it (parameters stated by an assumption are checked as stated)
            wit = dict(d.witness or {}, rule=d.rule, precondition="; ".join(rows))
            if all(r in ctx.data_texts for r in rows):
                why = (f"but only for data the kernel's guards and index lists presume away: no race with "
                       f"{'; '.join(rows)} (kopt cannot check data; make sure every caller's data has it)")
            else:
                why = (f"but only for parameter values{' and data' if set(rows) & ctx.data_texts else ''} the "
                       f"kernel's indexing presumes away: no race with {'; '.join(rows)} (state the parameters with "
                       f"`// kopt: assume` or --assume to have them checked)")
            return RULES["race.precondition"].diag(f"{d.message}, {why}", *d.locations, witness=wit)
    if d is not None and d.severity == Severity.ERROR:
        safe = ctx.launch_dependent(space, *cons, bv=bv)
        if safe is not None:
            d.severity = Severity.WARNING
            d.message += (f" (only for some block sizes: none with blockDim={safe}; declare the launch with "
                          f"`// kopt: launch` or --block)")
    return d


def _own_store_differs(w: Access, r: Access, er: Enc):
    """z3: the read ``r`` (thread ``er``) can see a value other than its own thread's earlier store ``w`` left
    there (None: no constraint). Every thread of a block storing one uniform value in shared memory and then
    reading it (``s = 1.0 / theta;``, then ``x * s``, no barrier between) reads that value whichever thread's store
    lands last: a conflict with another thread's ``w`` matters only where the reader did not run ``w`` first or ran
    it at another address. Only that idiom: a value that depends on the thread, or is loaded from memory (another
    store may change what it loads), and global memory are left to the pair's other checks."""
    if w.space != "shared" or w.value is None or sym.kinds(w.value) - {"uniform"} or w.seq >= r.seq or \
            w.size != r.size or w.via or r.via or sym.has_data(w.value):
        return None
    return z3.Or(z3.Not(er.bool(w.cond)), er.int(w.offset) != er.int(r.offset))


def _values_differ(va, vb, e1: Enc, e2: Enc, after_loop: dict):
    """z3: the two threads store different values (None: no constraint). Small linear values are compared exactly;
    for others (floating-point arithmetic, products of unknowns) a weaker condition is used, which the solver
    answers quickly: one value computed twice differs only if some input that differs between the two threads
    (thread index, loop iteration, block index, a per-thread load, the group index and block of a group's shared
    value, the inputs of a value a loop computed: ``after_loop``) differs. Weaker means a race is never missed for
    it, and a store of one value by every thread (or by every lane of a group) is still recognised."""
    per_block = "block" in e1.kinds and any("#" in str(f) for f in (*sym.uf_names(va), *sym.uf_names(vb)))
    if sym.cheap(va) and sym.cheap(vb) and not per_block and \
            not after_loop.keys() & {*sym.free_vars(va), *sym.free_vars(vb)}:
        return e1.int(va) != e2.int(vb)  # (a loop's result and a group's value are compared through their inputs)
    if va.key() != vb.key():
        return None
    # the inputs: the group index of each value a group shares (calls._same_in_group: lanes of one warp get one
    # reduction whatever their own index), and the variables read elsewhere (under a load or a math function too)
    args, names, seen = {}, set(), set()

    def walk(x):
        if id(x) in seen:
            return
        seen.add(id(x))
        if x.op == "uf" and "#" in str(x.val):  # a value one group shares: a function of the group's index
            for a in x.args:
                if set(sym.free_vars(a).values()) & e1.kinds:
                    args.setdefault(a.key(), a)
            if "block" in e1.kinds:  # and of its block: a warp of another block shares another value
                names.update((f"b{d}", "block") for d in "xyz")
            return
        if x.op == "v":
            if x.val in after_loop:  # a loop's result: a function of its inputs
                for a in after_loop[x.val]:
                    walk(a)
            elif x.kind in e1.kinds:
                names.add((x.val, x.kind))
            return
        for a in x.args:
            walk(a)

    walk(va)
    differ = [e1.var(n, k) != e2.var(n, k) for n, k in sorted(names)] + \
        [e1.int(a) != e2.int(a) for _, a in sorted(args.items(), key=lambda kv: repr(kv[0]))]
    return z3.Or(*differ) if differ else z3.BoolVal(False)


def _classify(ctx, m, cons, a, b, e1, e2, space, w1, w2, bv):
    # orient: writer first
    writer, other, ew, eo = (a, b, e1, e2) if a.write else (b, a, e2, e1)
    opaque = sym.has_opaque(a.offset) or sym.has_opaque(b.offset)  # unanalyzable index
    wit = {"thread_a": ctx.witness_thread(m, ew, space == "global"),
           "thread_b": ctx.witness_thread(m, eo, space == "global"),
           "location": index_of(writer, m, ew)}
    wit.update(ctx.witness_common(m, [e1, e2], [a.offset, b.offset, a.cond, b.cond]))
    iters = {}
    for e, who in ((ew, "a"), (eo, "b")):
        for n, k in sorted(sym.free_vars(writer.offset if who == "a" else other.offset).items()):
            if k == "iter":
                v = model_int(m, e.var(n, k))
                if v is not None:
                    iters[f"loop iteration ({who})"] = v
    wit.update(iters)
    if sym.has_data(a.offset) or sym.has_data(b.offset):
        wit["note"] = "the index depends on data loaded from memory; the witness assumes values that collide"
    elif sym.has_opaque(a.cond) or sym.has_opaque(b.cond):
        wit["note"] = "the accesses are guarded by values the analyzer does not model; the witness assumes both " \
                      "guards hold"
    wit["launch"] = ctx.launch.describe(ctx.km.dims_used)
    wdesc = "atomic update" if writer.atomic else "write"
    odesc = ("atomic update" if other.atomic else "write") if other.write else "read"
    same = writer is other or writer.loc == other.loc
    what = f"`{ctx.snippet(writer)}`" if same else f"`{ctx.snippet(writer)}` and the {odesc} `{ctx.snippet(other)}`"
    locs = [ctx.loc(writer, "write")] if same else [ctx.loc(writer, "write"),
                                                      ctx.loc(other, "write" if other.write else "read")]
    if "curand" in (writer.via, other.via) and not opaque:
        return RULES["race.curand-state"].diag(
            f"two threads use one cuRAND state: `{ctx.snippet(writer)}` and `{ctx.snippet(other)}` can read and "
            f"advance the same generator state at once", *locs, witness=wit)
    if writer.atomic and not other.write:
        if opaque:
            return None
        return RULES["race.atomic-plain"].diag(
            f"plain read `{ctx.snippet(other)}` of a location another thread updates atomically at "
            f"`{ctx.snippet(writer)}` with no barrier between them: atomics order only atomic accesses, so the read "
            f"races with the update (CUDA memory model)", *locs, witness=wit)
    if space == "global":
        if opaque:
            return None
        return RULES["race.global"].diag(
            f"data race on global memory: {wdesc} {what} can touch the same address from two threads with no "
            f"ordering between them", *locs, witness=wit)
    if opaque:
        reasons = ", ".join(dict.fromkeys(sym.opaque_reasons(a.offset) + sym.opaque_reasons(b.offset)))
        wit["reason"] = f"index not fully analyzable: {reasons}"
        return RULES["race.shared.possible"].diag(
            f"race check undecided: {wdesc} {what} would race if two threads met at one element between two "
            f"barriers, and the index cannot be analyzed ({reasons}); no race is reported", *locs, witness=wit)
    # data passed between lanes (write then read): does it need the two threads to share a warp?
    m2 = ctx.solve_in(space, *cons, w1 != w2, bv=bv) if not other.write else m
    if m2 is None:
        return RULES["warp.implicit-sync"].diag(
            f"warp-synchronous code: {wdesc} {what} exchange data between lanes of one warp through shared memory "
            f"with no __syncwarp(); since Volta lanes are not guaranteed to run in lockstep", *locs, witness=wit)
    reads = (not other.write) or other.atomic
    if reads and not writer.atomic and writer.loc != other.loc and _raw_only(ctx, cons, writer, other, ew, eo, space, bv):
        return RULES["sync.missing"].diag(
            f"missing barrier: shared memory written by `{ctx.snippet(writer)}` is read by another thread at "
            f"`{ctx.snippet(other)}` with no __syncthreads() in between", *locs, witness=wit)
    kind = "write-write" if other.write else "read-write"
    return RULES["race.shared"].diag(
        f"data race on shared memory ({kind}): {wdesc} {what} can touch the same element from two threads in the "
        f"same barrier interval", *locs, witness=wit)


def _before(x: Access, ex: Enc, y: Access, ey: Enc):
    """z3: x (by thread ex) comes before y (by thread ey) in program order, counting common loop iterations."""
    common = []
    for lx, ly in zip(x.loops, y.loops):
        if lx != ly:
            break
        common.append(lx)
    expr = z3.BoolVal(x.seq < y.seq)
    for lid in reversed(common):
        kx, ky = ex.var(f"k{lid}", "iter"), ey.var(f"k{lid}", "iter")
        expr = z3.Or(kx < ky, z3.And(kx == ky, expr))
    return expr


def _raw_only(ctx, cons, writer, reader, ew, eo, space, bv) -> bool:
    """The read can follow the write, and cannot precede it: a barrier between them is what is missing."""
    if ctx.solve_in(space, *cons, _before(writer, ew, reader, eo), bv=bv) is None:
        return False
    return ctx.solve_in(space, *cons, _before(reader, eo, writer, ew), bv=bv) is None


def _unknown_constants(terms) -> list:
    """The terms that are compile-time constants kopt does not know (a template value, a `sizeof`)."""
    return [t for t in terms if t.op == "v" and str(t.val).startswith("uopq#")]
