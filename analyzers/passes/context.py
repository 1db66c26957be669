"""Shared machinery of the passes: the z3 encoding of threads under a launch configuration, witnesses, budgets."""
from __future__ import annotations

import math
import re
from functools import reduce

import z3

from .. import assume, digits, sym
from kopt.diagnostic import Location
from ..model import Access, KernelModel
from ..solver import Enc, GaveUp, check, model_int, needs_bv, one_shot
from ..type_sizes import unsigned_integer

# Solver budgets in z3 resource units (deterministic: the same on any machine and under load; on this project's
# 2-core CI machine one million units take roughly 0.3-1 s).
QUERY_RLIMIT = 1_000_000  # per solver query
SYMBOLIC_RLIMIT = 1_000_000  # per query over all block sizes at once (then concrete shapes are tried)
KERNEL_RLIMIT = 3_000_000  # all solver work of one kernel under one launch; once spent, every further query gives up
KERNEL_TOTAL_RLIMIT = 8 * KERNEL_RLIMIT  # all of a kernel's launches together (a template's many instantiations)
LAYOUT_RLIMIT = 60_000  # per query of layout (a few per pitched index)
PRECONDITION_RLIMIT = 600_000  # per query of row_dependent, which only decides a finding's rule (it draws on the
# kernel's budget like any query, so it is kept small)
PHASE_RLIMIT = 30_000  # per query of phases_apart (barrier counts alone: a few hundred units when decidable)
SHAPE_RLIMIT = 150_000  # per query of launch_dependent, which only decides error vs warning (unit costs vary
# widely: on big-number arithmetic one million units can take seconds)
PARAMETER_TRIES = (8, 100, 1000)  # the values a too-hard query is asked again with (``_with_parameters_fixed``)


class Undecided:
    """``row_dependent``'s answer when whether a race also holds under the preconditions is too hard to decide
    within the solver budget: the preconditions asked, as (z3 constraint, text)."""

    def __init__(self, rows: list):
        self.rows = rows


def counting_slots(km) -> set:
    """The slots drawn from a counter the kernel only counts up: every write the kernel makes at the counter's
    address is an ``atomicAdd`` of a positive constant, an ``atomicInc``, or a plain store of a non-negative constant
    (``*tail = 0``). Such a slot (the counter's old value) is presumed in [0, 2^31): the counter starts non-negative
    (at the kernel's own reset, or at what the host set) and one launch does not count 2^31 slots, as the slots'
    distinctness already presumes it does not wrap. A witness that needs a slot of -1 (`q[slot]` reaching the counter
    itself, one word before the queue) or a wrapped counter is not a race the kernel can have."""
    out = set()
    for slot, where in km.counters.items():
        if all(a.seq in km.counter_steps or (not a.atomic and a.value is not None and sym.is_const(a.value)
                                             and isinstance(a.value.val, int) and a.value.val >= 0)
               for a in km.accesses if a.write and (a.space, a.base, a.offset.key()) == where):
            out.add(slot)
    return out


def block_counts(km, slots: set) -> dict:
    """For each slot of ``slots`` drawn from a ``__shared__`` counter the kernel resets to 0 and steps only at sites
    outside any loop (``if (tid == 0) n = 0; __syncthreads(); ... i = atomicAdd(&n, 1)``): the most the counter
    counts per thread of the block (the sum of its sites' steps). A slot stays below that times the block's size."""
    out = {}
    for slot in slots:
        where = km.counters[slot]
        if where[0] != "shared":
            continue
        sites = [s for s, w in km.counters.items() if w == where]
        steps = [a for a in km.accesses if a.seq in km.counter_steps and (a.space, a.base, a.offset.key()) == where]
        resets = [a for a in km.accesses if a.write and not a.atomic and (a.space, a.base, a.offset.key()) == where]
        if len(steps) == len(sites) and not any(a.loops for a in steps) and resets and \
                all(a.value is not None and sym.is_const(a.value) and a.value.val == 0 for a in resets):
            out[slot] = sum(km.slot_steps[s] for s in sites)
    return out


MAX_GRID = (2 ** 31 - 1, 65535, 65535)  # the hardware's largest grid in x, y and z


class Ctx:
    def __init__(self, km: KernelModel, source_lines: list[str], budget: int = KERNEL_RLIMIT):
        self.km = km
        self.budget = budget  # resource units this kernel's queries may use under this launch
        self.launch = km.launch
        self.lines = source_lines
        self.solver = z3.Solver()
        self.phase_solver = z3.Solver()  # barrier counts alone (phases_apart)
        self.spent = 0  # resource units used by this kernel's queries
        self.incomplete: list[str] = []
        self.presumptions: set = set()  # texts a race check was decided under when it was not decided without them
        self.counting_slots = counting_slots(km)
        self.block_counts = block_counts(km, self.counting_slots)
        # the per-thread trip counts of loops that hold a block barrier
        self.barrier_trips = {n for k, N in km.loop_trip.items() if km.deltas.get(k, sym.ZERO).key() != sym.ZERO.key()
                              for n, kind in sym.free_vars(N).items() if kind == "thread"}
        self.dims_1d = km.dims_used <= {"x"}
        self._pairs: dict = {}
        self._asked: dict = {}  # (solver, constraint ids) -> (constraints, (model,) or (limit it exceeded, why))
        self.concrete_fallback: list = []  # the block shapes each query too hard for every block was decided for
        self._layout_done = False
        self.in_row: dict = {}  # access seq -> {(pitch, unit)}: its index is proven inside one row of that pitch
        self.padded: dict = {}  # key -> (pitch, unit) of each row pitch that is a sum (``_padded_row``)
        self.row_strides: dict = {}  # access seq -> [(stride, unit)] of its row constraints (``rows``)
        self.data_texts: set = set()  # precondition texts about data (data_orders), not parameters
        self._stored = None  # load names of the arrays the kernel stores to (_index_lists)
        # integer parameters, and those of a template's type parameter (`size_type const n`, analyzed generically)
        generic = {name for name, kind in km.func.tparams if kind == "type"}
        self.int_params = {n for n, t in km.func.params if not t.pointer and not t.dims and (
            t.integral or t.spelling.replace("const", "").strip() in generic)} | km.int_fields
        self.unsigned_params = frozenset(n for n, t in km.func.params if n in self.int_params and
                                         unsigned_integer(t.spelling)) | frozenset(km.unsigned_fields)

    # ---- the row-pitch layout of pitched indices
    def layout(self) -> None:
        """Assume the row pitch of each pitched index covers the row the kernel itself bounds.

        An index ``column + row * pitch`` (``pitch`` an integer parameter, ``row`` and ``column`` depending on the
        thread or block) whose column the kernel keeps below ``k * width`` (another parameter: its guard, or the
        launch's grid relation) is a 2-D layout with rows ``pitch`` apart; rows overlap only if ``pitch < k * width``,
        which no caller of such a kernel intends. That is assumed (``pitch >= k * width``) unless an assumption
        already constrains the pitch (then the caller said what it passes, and that is checked). A layout of
        several levels (``x + y * pitch + z * slice``) gets one for the outer pitch too (``slice >= height *
        pitch``, see ``_nested``). The assumptions are listed with the launch's. Each access whose column is so
        proven to stay in its row (at assumed or stated pitches) is remembered for ``row_lemmas``. Called once,
        before any encoding is built."""
        if self._layout_done:
            return
        self._layout_done = True
        fixed = {n for a in self.launch.assume for n in a.names}
        enc = Enc("@0", ("thread", "iter", "block"), unsigned=self.unsigned_params)
        cons, _, _, _ = self.thread(enc)
        solver = z3.Solver()
        solver.add(*cons, *enc.side)
        found, tried, nested = [], {}, []  # tried: (pitch, unit, column, guard) -> proven inside its row
        components = _component_pitches(self.km.accesses)
        for acc in self.km.accesses:
            if not acc.write or len(tried) > 24:
                continue
            terms = _index_terms(acc)
            # rows the thread or block picks, rows a loop walks (`for (i < 6) v[i * pitch + idx]`), and the
            # constant rows of a layout of components (`v[1 * pitch + idx]`, `v[2 * pitch + idx]`)
            constant_rows = {p for t in terms for p in [_constant_row(t)] if p in components.get(acc.base, ())}
            pitches = {f.val for t in terms if _strided(t, ("thread", "block", "iter")) for f in sym.operands(t, "*")
                       if f.op == "v" and f.val.startswith("p:")} | constant_rows
            # the strides of every level (a slice pitch times a loop counter too): a column has none of them
            levels = _levels(terms) | constant_rows
            sums = {f.key(): f for t in terms if _strided(t) for f in sym.operands(t, "*") if _pitch_sum(f)}
            for key in sorted(sums, key=sym.order):
                got = self._padded_row(solver, enc, acc, terms, sums[key], fixed, tried)
                if got is not None:
                    found.append(got)
            if not pitches:
                got = self._constant_row(solver, enc, acc, terms, fixed, tried)
                if got is not None:
                    found.append(got)
                continue
            for pitch in sorted(pitches):
                name = pitch[2:]
                row = [t for t in terms if pitch in sym.free_vars(t)]
                got = _row_unit(row, [t for t in terms if not levels & set(sym.free_vars(t))])
                if got is None:
                    continue
                c, k, col = got
                if pitch in constant_rows and all(_constant_row(t) for t in row):
                    c = math.gcd(c, acc.size or 1)  # `2 * pitch` is row 2 of rows one element times the pitch
                if name in fixed:
                    # the caller stated the pitch: nothing to assume, but the column may still be proven to stay
                    # in its row at the stated values (then the row lemma keeps the race queries linear)
                    if len(levels) == 1 and self._column_bound(solver, enc, acc, col, pitch, c) and \
                            self._nonnegative(solver, enc, acc, col):
                        self.in_row.setdefault(acc.seq, set()).add((pitch, c))
                    continue
                params = sorted(n for n in {**sym.free_vars(acc.cond), **_assumed_params(self.launch)}
                                if n.startswith("p:") and n != pitch)
                key = (pitch, c, col.key(), acc.cond.key())
                if key in tried:  # another store of the same column (`p[0]`, `p[pitch]`): the same row
                    if tried[key]:
                        self.in_row.setdefault(acc.seq, set()).add((pitch, c))
                    continue
                tried[key] = False
                if self._proven(solver, enc.bool(acc.cond), enc.int(col) >= 0):
                    continue  # a column always below its row's start (`x[i * s - 256 + t]`): no bound to relate
                # a parameter the guard bounds the column by, or a sum of them (`if (idx >= N + n_ghost) return;`);
                # not the `x_max + 1` of a `<=` guard (a column reaching the bound is the kernel's own race), and no
                # sum where the guard keeps the column below the pitch itself (`col < n` with rows of n)
                # a region's column offset (`dst[(ix + roi.x) + (iy + roi.y) * step]`, ix below roi.width): the
                # offset shifts every row's columns alike, so the rows stay apart when the rest of the column does
                parts = _sum_terms(col)
                shifted = [sym.free_vars(t) and all(n.startswith("p:") and n != pitch for n in sym.free_vars(t))
                           for t in parts]
                core = reduce(lambda x, y: sym.binop("+", x, y), [t for t, s in zip(parts, shifted) if not s],
                              sym.ZERO) if any(shifted) else col
                # (and the guard's bound less that offset: `n1 = i + N1`, `if (n1 >= N2) return;` keeps i below
                # N2 - N1, the rows a layout of components then holds)
                bounds = _upper_bounds(acc.cond, col) + (_upper_bounds(acc.cond, col, True) if any(shifted) else [])
                sums = [e for e in bounds if e.op in ("+", "-") and len(sym.free_vars(e)) > 1
                        and all(n.startswith("p:") and n != pitch for n in sym.free_vars(e))
                        and not any(sym.is_const(t) for t in _sum_terms(e))]
                if sums and self._column_bound(solver, enc, acc, col, pitch, c):
                    sums = []
                for q in [*params, *sums]:
                    # the least multiple of q the column stays below: the row's unit, else the column's step
                    m = next((m for m in sorted({c, k}) if self._column_bound(solver, enc, acc, core, q, m)), None)
                    if m is None:
                        continue
                    if core is col and self._nonnegative(solver, enc, acc, col):
                        self.in_row.setdefault(acc.seq, set()).add((pitch, c))  # 0 <= col < c * pitch
                        tried[key] = True
                    g = math.gcd(c, m)
                    lhs = f"{c // g} * {name}" if c // g > 1 else name
                    shown = q[2:] if isinstance(q, str) else _plain(sym.show(q))
                    if not isinstance(q, str) and m // g > 1:
                        shown = f"({shown})"
                    rhs = f"{m // g} * {shown}" if m // g > 1 else shown
                    found.append(assume.Assumption(f"{lhs} >= {rhs}", "the row pitch of a pitched index"))
                    break
                if found and len(levels) > 1:
                    nested.append((acc, terms, levels))
        if found:
            self.launch.assume = self.launch.assume + list({a.text: a for a in found}.values())
        more = self._nested(nested, fixed) if found and nested else []
        if more:
            self.launch.assume = self.launch.assume + list({a.text: a for a in more}.values())
        self._reads_in_row()

    def _reads_in_row(self) -> None:
        """Global reads whose index is a row of a pitch some store's index is kept inside (``in_row``), proven
        inside one row too (under the assumptions the stores' layout made; a read never adds one): their pairs with
        the stores (``C[i + j * ldc]`` read, then written, in a GEMM's epilogue) get the row lemma and stay
        linear."""
        pitches = sorted({pu for v in self.in_row.values() for pu in v})
        stored = {acc.base for acc in self.km.accesses if acc.seq in self.in_row}
        # only reads of an array such a store writes: no other read pairs with it (and a proof that runs out of
        # resources leaves the kernel's later queries in contexts of their own)
        reads = [acc for acc in self.km.accesses if not acc.write and acc.space == "global" and acc.base in stored]
        if not pitches or not reads:
            return
        enc = Enc("@0", ("thread", "iter", "block"), unsigned=self.unsigned_params)
        cons, _, _, _ = self.thread(enc)
        solver = z3.Solver()
        solver.add(*cons, *enc.side)
        for acc in reads[:24]:
            terms = _index_terms(acc)
            levels = _levels(terms)
            for pitch, unit in pitches:
                if levels != {pitch}:
                    continue
                column = [t for t in terms if pitch not in sym.free_vars(t)]
                if not column or any(_coefficient(t) % unit for t in terms if pitch in sym.free_vars(t)):
                    continue  # rows whole multiples of the stores' rows only
                col = reduce(lambda x, t: sym.binop("+", x, t), column)
                if self._column_bound(solver, enc, acc, col, pitch, unit) and \
                        self._nonnegative(solver, enc, acc, col):
                    self.in_row.setdefault(acc.seq, set()).add((pitch, unit))

    def _constant_row(self, solver, enc, acc, terms, fixed, tried):
        """The parameter bound of a row-major global index with a compile-time row length, ``out[i * NJ + j]``
        under ``if (j < nj)`` (PolyBench's form; the row may also be a loop counter or a parameter, the column a
        loop counter): rows NJ elements apart overlap only if the guard's ``nj`` exceeds NJ, which no caller of such
        a kernel passes (its arrays are NJ wide). Assumed (``nj <= NJ``) when the column leaves its row without it
        and stays inside with it, unless an assumption names ``nj``. The Assumption, or None."""
        if acc.space != "global":
            return None
        moving = [t for t in terms if sym.kinds(t) & {"thread", "block", "iter"}]
        parts = [t for t in terms if not sym.is_const(t)]
        const = sum(int(t.val) for t in terms if sym.is_const(t))
        params = sorted(n for n in sym.free_vars(acc.cond) if n.startswith("p:") and n[2:] not in fixed)
        if not params or not moving:
            return None
        size = acc.size or 1
        for c in sorted({_coefficient(t) for t in parts}, reverse=True)[:4]:
            row = [t for t in parts if not _coefficient(t) % c]
            column = [t for t in parts if _coefficient(t) % c]
            if not row or not column or any(t not in moving for t in column):
                continue
            k = math.gcd(*[_coefficient(t) for t in column])
            if c % k:
                continue
            # `blockIdx.x * 512 + threadIdx.x` is one 1-D index over blocks of 512 threads, not rows of 512
            # elements, unless the block is known to be narrower than the row (a block per row)
            row_vars = {n for t in row for n in sym.free_vars(t)}
            lanes = {n[-1] for t in column for n in sym.free_vars(t) if n in ("tx", "ty", "tz")}
            if row_vars and row_vars <= {f"b{d}" for d in lanes} and any(
                    self.launch.block["xyz".index(n[-1])] in (None, c // k) for n in row_vars):
                continue
            col = sym.const(const % c)  # the constant's whole rows belong to the row
            for t in column:
                col = sym.binop("+", col, t)
            key = ("const", col.key(), acc.cond.key())
            if key in tried:
                continue
            tried[key] = False
            leaves = z3.Or(enc.int(col) < 0, enc.int(col) + size > c)
            if self._proven(solver, enc.bool(acc.cond), leaves):
                return None  # inside its row already
            for q in params:  # a guard comparing the column with q itself (`j < nj`), not any parameter
                if _guarded(acc.cond, col, {q}) and \
                        self._proven(solver, enc.bool(acc.cond), enc.var(q, "uniform") <= c // k, leaves):
                    return assume.Assumption(f"{q[2:]} <= {c // k}", "the row length of a row-major index")
        return None

    def _padded_row(self, solver, enc, acc, terms, pitch, fixed, tried):
        """The assumption that a row pitch written as a sum (``x_max + 2 * halo``, ``nx + 4 + x_extra``: a stencil's
        row padded by its halo) covers the column the access's guard bounds (``column <= x_max - 1 + halo + kx``):
        ``c * pitch >= m * bound``, ``bound`` a uniform side of a guard comparison with the column, ``m`` the least
        of the rows' unit ``c`` and the column's step the column stays below ``m * bound`` for. As for a pitch that
        is one parameter (``layout``), no caller of such a kernel means its rows to overlap; a pitch some
        assumption already names is the caller's (checked as stated). The Assumption, or None."""
        names = set(sym.free_vars(pitch))
        if {n[2:] for n in names} & fixed:
            return None
        row = [t for t in terms if any(f.key() == pitch.key() for f in sym.operands(t, "*"))]
        column = [t for t in terms if not any(t is r for r in row)]
        if not column or any(names & set(sym.free_vars(t)) or _strided(t, ("thread", "block", "iter")) and
                             _levels([t]) for t in column):
            return None  # the pitch's parameters elsewhere in the index, or more levels: not one padded row
        got = _row_unit(row, column)
        if got is None:
            return None
        c, k, col = got
        key = (pitch.key(), c, col.key(), acc.cond.key())
        if key in tried:
            return None
        tried[key] = False
        for bound in _upper_bounds(acc.cond, col):
            m = next((m for m in sorted({c, k}) if self._proven(
                solver, enc.bool(acc.cond), enc.int(col) >= 0, enc.int(col) >= m * enc.int(bound))), None)
            if m is None:
                continue
            tried[key] = True
            self.padded[pitch.key()] = (pitch, c)
            g = math.gcd(c, m)
            lhs, rhs = digits.sum_text(pitch), digits.sum_text(bound)
            lhs = f"{c // g} * ({lhs})" if c // g > 1 else lhs
            rhs = f"{m // g} * ({rhs})" if m // g > 1 else rhs
            return assume.Assumption(f"{lhs} >= {rhs}", "the row pitch of a pitched index")
        return None

    def _proven(self, solver, *constraints) -> bool:
        """The constraints cannot all hold (z3 shows it within a small budget)."""
        try:
            m, spent = check(solver, *constraints, rlimit=LAYOUT_RLIMIT)
        except GaveUp as exc:
            self.spent += exc.spent
            return False
        self.spent += spent
        return m is None

    def _nested(self, nested, fixed) -> list:
        """The outer pitch of a layout of several levels (``x + y * pitch + z * slice``) covers its rows: with the
        row pitches assumed, ``slice >= height * pitch`` when the index's terms below the slice stay below
        ``height * pitch`` (``height`` a parameter bounding the row, the kernel's guard). Returns assumptions."""
        enc = Enc("@0", ("thread", "iter", "block"), unsigned=self.unsigned_params)
        cons, _, _, _ = self.thread(enc)  # with the row pitches now assumed
        solver = z3.Solver()
        solver.add(*cons, *enc.side)
        out, tried = [], set()
        for acc, terms, levels in nested:
            params = sorted(n for n in {**sym.free_vars(acc.cond), **_assumed_params(self.launch)}
                            if n.startswith("p:"))
            for outer in sorted(levels):
                if outer[2:] in fixed:
                    continue
                row = [t for t in terms if outer in sym.free_vars(t)]
                below = [t for t in terms if outer not in sym.free_vars(t)]
                coef = {_coefficient(t) for t in row}
                if len(coef) != 1 or not below or (outer, acc.seq) in tried:
                    continue
                tried.add((outer, acc.seq))
                col = below[0]
                for t in below[1:]:
                    col = sym.binop("+", col, t)
                (c,) = coef
                for inner in sorted(levels - {outer}):
                    done = False
                    for q in params:
                        if q in (inner, outer):
                            continue
                        bound = enc.var(q, "uniform") * enc.var(inner, "uniform")
                        if self._proven(solver, enc.bool(acc.cond), enc.int(col) >= bound, enc.int(col) >= 0):
                            if self._nonnegative(solver, enc, acc, col):
                                self.in_row.setdefault(acc.seq, set()).add((outer, c))
                            lhs = f"{c} * {outer[2:]}" if c > 1 else outer[2:]
                            out.append(assume.Assumption(f"{lhs} >= {q[2:]} * {inner[2:]}",
                                                         "the slice pitch of a pitched index"))
                            done = True
                            break
                    if done:
                        break
        return out

    def _nonnegative(self, solver, enc, acc, col) -> bool:
        """column >= 0 wherever the access runs (z3 proves it within a small budget)."""
        return self._column_bound(solver, enc, acc, sym.binop("*", col, sym.const(-1)), None, 1)

    def _column_bound(self, solver, enc, acc, col, q, k) -> bool:
        """column < k * q wherever the access runs and the column is not negative (z3 proves it within a small
        budget); ``q`` a parameter's name or an expression of parameters; with ``q`` None: column <= 0 wherever the
        access runs."""
        bound = enc.var(q, "uniform") if isinstance(q, str) else enc.int(q) if q is not None else None
        over = enc.int(col) >= k * bound if q is not None else enc.int(col) >= 1
        return self._proven(solver, enc.bool(acc.cond), over,
                            enc.int(col) >= 0 if q is not None else z3.BoolVal(True))

    # ---- rows of a strided index stay within their stride (the severity of findings that need them to overlap)
    def rows(self, acc: Access, enc: Enc, given=()):
        """For each row stride of the access's index (an integer parameter multiplying something that depends on the
        thread, block or loop iteration, in an index ``column + row * stride``): z3 constraints that this thread's
        column lies within one row (``0 <= column < unit * stride``, the column being the index terms that contain
        no stride), and a text of each. A stride some assumption already constrains is left out: the caller said
        what it passes, and the pair is checked at those values. So is a row whose column the access's guard
        compares with the stride's own parameter (``if (x <= width)`` beside ``y * width``): the kernel then states
        how wide its row is, and a race past it is the kernel's own; and an index with no column term
        (``out[i * stride]``) is no 2-D layout.
        ``given``: the (stride, unit) pairs of the other access of a pair, for an index with no stride of its own
        (``od[x]`` beside ``od[x + y * w]``): it is row 0 of the same layout. The pairs used are kept in
        ``self.row_strides`` (access seq -> [(stride, unit)])."""
        fixed = {n for a in self.launch.assume for n in a.names}
        off, scale = acc.offset, None
        if off.op == "*" and sym.is_const(off.args[1]):
            off, scale = off.args[0], off.args[1]
        own = _layout_terms(off)  # in the index's own units
        terms = [sym.binop("*", t, scale) if scale is not None else t for t in own]
        # a stride: a factor made of parameters only (``pitch``, ``ImgStride / 2``) of a term that also depends on
        # the thread, block or loop
        found, nested, alone = {}, {}, set()
        for t in terms:
            if _strided(t, ("thread", "block", "iter")):
                params = []
                for f in sym.operands(t, "*"):
                    fv = sym.free_vars(f)
                    if fv and all(n.startswith("p:") for n in fv) and not {n[2:] for n in fv} & fixed:
                        found.setdefault(f.key(), f)
                        params.append(f)
                if len(params) > 1:  # `b * C * H`: the row of an outer dimension spans the inner ones
                    nested.setdefault(tuple(sorted(f.key() for f in params)), params)
                elif params:
                    alone.add(params[0].key())
        # (a factor only ever multiplied by another, C of `b * C * H`, is no row stride of its own: the innermost
        # index lies within H, not within C; ``_nested_rows`` places the inner indices of such rows)
        strides = [found[k] for k in sorted(found, key=sym.order) if k in alone or not nested]
        row_zero = not strides and bool(given)
        if row_zero:
            strides = [s for s, _ in given]
        names = {n for f in strides for n in sym.free_vars(f)}
        column = [t for t in terms if not names & set(sym.free_vars(t))]
        col = raw = sym.const(0)
        for t in column:
            col = sym.binop("+", col, t)
        for t in own:
            if not names & set(sym.free_vars(t)):
                raw = sym.binop("+", raw, t)
        elem = scale.val if scale is not None else 1
        if not column and nested and not row_zero:
            # every term strided (`((z * D1 + y) * D2 + x) * C`, channel 0 of a tensor): the inner indices inside
            # their dimensions
            self.row_strides[acc.seq] = []
            return self._nested_rows(acc, enc, terms, nested, set(found), True), None
        # (a constant column is a row's fixed member: channel 1 of `out[(y * w + x) * C + 1]`, inside its row of C)
        if not column or not sym.free_vars(col) and (row_zero or not strides or not col.val) or \
                row_zero and len(column) != len(terms):
            return [], None
        out, own_bound = [], _guarded(acc.cond, col)
        self.row_strides[acc.seq] = []
        for s in strides:
            units = {_coefficient(t) for t in terms if any(f.key() == s.key() for f in sym.operands(t, "*"))}
            unit = math.gcd(*units) if units else 1
            if row_zero:
                unit = dict((g.key(), u) for g, u in given)[s.key()]
            if not unit:
                continue
            self.row_strides[acc.seq].append((s, unit))
            size = acc.size or 1
            bound = enc.const(unit) * enc.int(s)
            # the text in the index's own units (elements when the offset is index * element size)
            u, c = (unit // elem, raw) if elem and unit % elem == 0 and size == elem else (unit, col)
            shown = _plain(sym.show(s))
            stride = (f"{u} * ({shown})" if s.op != "v" else f"{u} * {shown}") if u > 1 else shown
            last = f" - {size}" if c is col else ""
            shown_col = _plain(sym.show(c))
            if _INTERNAL.search(shown_col):  # loop counters have no source name: say which access instead
                shown_col = f"the column of `{' '.join(acc.text.split())[:40]}` (line {acc.loc.line})"
            inside = None
            if own_bound:
                # the guard itself may keep the column below the stride (`if (y >= Size - t) return;` with column
                # y + t), perhaps for non-negative parameters only (a signed guard compared as unsigned)
                signs = self.signs((acc, enc))
                inside = [] if self._inside_row(acc, enc, col, bound, size) else \
                    signs if signs and self._inside_row(acc, enc, col, bound, size, signs[0][0]) else None
            if inside is not None:
                # the whole row constraint holds where the access runs: only its lower half (and the parameters'
                # signs the proof used) is an assumption, and the row numbers of two overlapping accesses are equal
                out.append((z3.And(enc.int(col) >= 0, enc.int(col) + size <= bound, *[c for c, _ in inside]),
                            "; ".join([f"0 <= {shown_col}", *[t for _, t in inside]])))
                own_bound = False
                continue
            if own_bound:
                # the kernel bounds the column by a parameter (`if (x <= width)`): how far the row reaches is the
                # kernel's own (the layout assumptions relate a pitch to it); only a column below the row's start
                # leaves it, and a row narrower than the width the guard names (`if (x < dim) row[x]`, `row = out + y
                # * stride` with stride < dim: the caller's layout; `x <= width` still reaches past a row of width)
                held = [(enc.int(w) * c <= bound, f"{_plain(sym.show(w))}{f' * {c}' if c > 1 else ''} <= {stride}")
                        for w, c in _guard_widths(acc.cond, col) if not names & set(sym.free_vars(w))]
                out.append((z3.And(enc.int(col) >= 0, *[h for h, _ in held]) if held else enc.int(col) >= 0,
                            "; ".join([f"0 <= {shown_col}", *[t for _, t in held]])))
                continue
            out.append((z3.And(enc.int(col) >= 0, enc.int(col) + size <= bound),
                        f"0 <= {_plain(sym.show(c))} < {stride}{last}" if not last else
                        f"0 <= {_plain(sym.show(c))} <= {stride}{last} (bytes)"))
        if not row_zero:
            out += self._nested_rows(acc, enc, terms, nested, set(found), own_bound or bool(strides))
        # the row number is implied equal only for a column inside its row (not one merely bounded below)
        if row_zero:  # row 0 of the other access's layout: ROW_ZERO when its column is inside the row
            return out, (ROW_ZERO if len(out) == 1 and not own_bound else None)
        return out, (_row_number(terms, strides[0], unit) if len(out) == 1 and not own_bound else None)

    def _nested_rows(self, acc: Access, enc: Enc, terms: list, nested: dict, params: set, placed: bool) -> list:
        """For an index of several strided dimensions (``((b * C + c) * H + h) * W + w``, with ``b``, ``c``, ``h``
        block or thread numbers): each inner index inside its dimension, as the inner rows of each outer row
        within it (``0 <= (c * H + h) * W < C * H * W``), the mixed-radix layout of a tensor the launch covers; a
        constraint and its text per product of strides. The column (the terms of no stride, ``w``) is left to the
        rows of its own stride or the kernel's own guard (``placed``); with neither, the innermost product is its
        row (``(b * C + c) * H * W + w``: ``w < H * W``)."""
        out = []
        size = acc.size or 1
        column = [t for t in terms if not params & {g.key() for g in sym.operands(t, "*")}]
        for key in sorted(nested, key=len):
            fs = nested[key]
            keys = {f.key() for f in fs}
            inner = [t for t in terms if not keys <= {g.key() for g in sym.operands(t, "*")} and
                     not any(t is c for c in column)]
            if not inner and not placed:
                inner, placed = column, True  # the innermost row: its column inside it
            units = {_coefficient(t) for t in terms if keys <= {g.key() for g in sym.operands(t, "*")}}
            unit = math.gcd(*units) if units else 1
            col = sym.const(0)
            for t in inner:
                col = sym.binop("+", col, t)
            if not unit or not inner or not sym.free_vars(col):
                continue
            stride = sym.const(unit)
            for f in fs:
                stride = sym.binop("*", stride, f)
            shown = " * ".join(f"({_plain(sym.show(f))})" if f.op != "v" else _plain(sym.show(f)) for f in fs)
            shown_col = _plain(sym.show(col))
            if _INTERNAL.search(shown_col):
                shown_col = f"the index of `{' '.join(acc.text.split())[:40]}` (line {acc.loc.line})"
            inside = enc.int(col) + size <= enc.int(stride) if inner is column else enc.int(col) < enc.int(stride)
            out.append((z3.And(enc.int(col) >= 0, inside), f"0 <= {shown_col} <= {unit} * {shown} - {size} (bytes)"
                        if inner is column else f"0 <= {shown_col} < {unit} * {shown} (bytes)"))
        return out

    def _inside_row(self, acc: Access, enc: Enc, col, bound, size: int, *given) -> bool:
        """Where ``acc`` runs and its column is not negative (and ``given`` holds), the column's last byte stays
        below ``bound`` (z3 proves it within a small budget)."""
        solver = z3.Solver()
        solver.add(*self.thread(enc)[0], *enc.side)
        return self._proven(solver, enc.bool(acc.cond), enc.int(col) >= 0, enc.int(col) + size > bound, *given)

    def _common_rows(self, a: Access, b: Access):
        """(the (pitch, unit) pairs both accesses' indices are proven inside a row of, their index terms) when every
        level of both indices is one of them (an inner row alone says nothing while an outer level's terms can make
        up the difference), else None."""
        common = self.in_row.get(a.seq, set()) & self.in_row.get(b.seq, set())
        ta, tb = _index_terms(a), _index_terms(b)
        if not common or _levels(ta) != {p for p, _ in common} or _levels(tb) != {p for p, _ in common}:
            return None
        return common, ta, tb

    def row_lemmas(self, a: Access, b: Access, e1: Enc, e2: Enc) -> list:
        """Implied equalities for two accesses whose indices the layout assumptions keep inside one row of the same
        pitch (``pitch * qa + ca`` and ``pitch * qb + cb`` with both columns in ``[0, unit * pitch)``): if they
        overlap, ``qa == qb``. The solver rarely finds that itself in a product of unknowns."""
        got = self._common_rows(a, b)
        if got is None:
            return []
        common, ta, tb = got
        out = []
        for pitch, unit in sorted(common):
            qa = _row_number(ta, sym.var(pitch, "uniform"), unit)
            qb = _row_number(tb, sym.var(pitch, "uniform"), unit)
            if qa is not None and qb is not None:
                out.append(e1.int(qa[2]) == e2.int(qb[2]))
        return out

    def padded_lemmas(self, a: Access, b: Access, e1: Enc, e2: Enc) -> list:
        """For two accesses whose offsets are rows of one padded pitch (``pitch * q + c``, the pitch a sum of
        parameters, ``_padded_row``): at one address, with both columns ``c`` inside a row (``[0, unit * pitch)``),
        the row numbers are equal. Valid as stated (an implication), it spares the solver the products of row and
        pitch where the columns do stay inside (the assumed pitch and the parameters' presumed signs make them)."""
        out = []
        for key in sorted(self.padded, key=sym.order):
            pitch, unit = self.padded[key]
            names = set(sym.free_vars(pitch))
            sides = []
            for acc, enc in ((a, e1), (b, e2)):
                terms = _index_terms(acc)
                q = _row_number(terms, pitch, unit)
                if q is None or not any(names & set(sym.free_vars(t)) for t in terms):
                    break
                col = reduce(lambda x, t: sym.binop("+", x, t), [t for t in terms if not names & set(sym.free_vars(t))],
                             sym.const(0))
                sides.append((enc.int(q[2]), enc.int(col), enc.const(unit) * enc.int(pitch)))
            if len(sides) == 2:
                (q1, c1, w1), (q2, c2, w2) = sides
                out.append(z3.Implies(z3.And(e1.int(a.offset) == e2.int(b.offset), c1 >= 0, c1 < w1, c2 >= 0, c2 < w2),
                                      q1 == q2))
        return out

    def row_overlap(self, a: Access, b: Access, e1: Enc, e2: Enc) -> list | None:
        """The overlap of two accesses ``row_lemmas`` relates through one pitch, restated without the pitch: the row
        numbers equal and the columns (the index terms the pitch does not multiply, in bytes) overlapping. Given the
        lemma it is the offsets' overlap exactly (``pitch * q + c`` and ``pitch * q + c'`` differ by ``c - c'``), and
        linear where the offsets multiplied the pitch by thread-dependent rows (a GEMM's ``C[row * ldc + col]``, a
        query z3 often cannot decide within its budget). None otherwise."""
        got = self._common_rows(a, b)
        if got is None or len(got[0]) != 1:
            return None
        ((pitch, unit),), ta, tb = got
        stride = sym.var(pitch, "uniform")
        qa, qb = _row_number(ta, stride, unit), _row_number(tb, stride, unit)
        if qa is None or qb is None:
            return None
        ca, cb = (reduce(lambda x, t: sym.binop("+", x, t), [t for t in terms if pitch not in sym.free_vars(t)],
                         sym.const(0)) for terms in (ta, tb))
        c1, c2 = e1.int(ca), e2.int(cb)
        return [e1.int(qa[2]) == e2.int(qb[2]), c1 < c2 + (b.size or 1), c2 < c1 + (a.size or 1)]

    def presumed_lows(self, *accesses, divisors: bool = True) -> dict:
        """The integer parameters of the accesses' indices and guards, as ``p:name`` -> (the least value presumed of
        it, its kind): 0, and 1 for a parameter that strides a written index (a factor of a term that depends on the
        thread, block or loop: ``out[i * stride]``, ``od[y * w]``) or, with ``divisors``, one the indices or guards
        divide by (dividing by zero is undefined). A size, stride, count or offset no caller passes negative (nor,
        unsigned, a negative int's wrap-around), and a zero stride folds every thread's row onto one. A parameter an
        assumption states on its own (`gap == -1`, `n >= 7`, one conjunct of several) is left out (checked as
        stated): one that only relates parameters (`j1 == Size - t` from the host) says nothing of their signs."""
        fixed = {n for a in self.launch.assume for n in a.alone}
        kinds = {n: k for acc in accesses for n, k in {**sym.free_vars(acc.offset), **sym.free_vars(acc.cond)}.items()
                 if n.startswith("p:") and n[2:] not in fixed and n[2:] in self.int_params}
        ones = {f.val for acc in accesses if acc.write for t in _arm_terms(acc.offset)
                if _strided(t, ("thread", "block", "iter"))
                for f in sym.operands(t, "*") if f.op == "v" and f.val.startswith("p:")}
        if divisors:
            ones |= {d.val for acc in accesses for x in (acc.offset, acc.cond) for d in sym.divisors(x)
                     if d.op == "v" and str(d.val).startswith("p:")}
        return {n: (1 if n in ones else 0, k) for n, k in kinds.items()}

    @staticmethod
    def presumed(lows: dict, *sides):
        """(z3 constraint, text) stating ``lows`` (``presumed_lows``) for each side's encoding: every parameter below
        2^31 and at least its least value."""
        cons = [z3.And(enc.var(n, k) >= lo, enc.var(n, k) < (1 << 31))
                for _, enc in sides for n, (lo, k) in sorted(lows.items())]
        texts = [f"{b} <= {', '.join(sorted(n[2:] for n, (lo, _) in lows.items() if lo == b))} < 2^31" for b in (1, 0)
                 if any(lo == b for lo, _ in lows.values())]
        return z3.And(*cons), "; ".join(texts)

    def signs(self, *sides):
        """The signs the accesses' indexing presumes of its integer parameters (``presumed_lows`` without divisors),
        for ``(access, enc)`` per side: one (z3 constraint, text), or none."""
        lows = self.presumed_lows(*(acc for acc, _ in sides), divisors=False)
        return [self.presumed(lows, *sides)] if lows else []

    def slots(self, acc: Access, enc: Enc):
        """An index ``k * x + c`` (``x`` depending on the thread, block or loop, each such term a multiple of ``k``
        bytes, no parameter among its factors; ``c`` made of parameters only): each thread owns a slot of ``k``
        bytes, and ``c`` picks a place inside it (``pixel[face / 2]`` of a 4-byte pixel, a channel of an
        interleaved element), written for ``0 <= c < k``. A z3 constraint that ``c`` stays in the slot, and its
        text; none when some assumption names ``c``'s parameters (checked as stated)."""
        fixed = {n for a in self.launch.assume for n in a.names}
        off, scale = acc.offset, 1
        if off.op == "*" and sym.is_const(off.args[1]):
            off, scale = off.args[0], off.args[1].val
        if not isinstance(scale, int) or scale <= 0:
            return []
        terms = [t for t in _sum_terms(off) if not sym.is_const(t)]
        moving = [t for t in terms if sym.kinds(t) & {"thread", "block", "iter"}]
        param = [t for t in terms if t not in moving]
        # a row term (`y * pitch`) is the rows idiom's: the slots are the other moving terms'
        moving = [t for t in moving if not any(f.op == "v" and f.val.startswith("p:") for f in sym.operands(t, "*"))]
        if not moving or not param:
            return []
        names = {n for t in param for n in sym.free_vars(t)}
        if not all(n.startswith("p:") for n in names) or {n[2:] for n in names} & fixed:
            return []
        k = math.gcd(*[_coefficient(t) for t in moving])
        size = acc.size or scale
        if k * scale <= size or size > scale:
            return []
        c = param[0]
        for t in param[1:]:
            c = sym.binop("+", c, t)
        return [(z3.And(enc.int(c) >= 0, enc.int(c) < k), f"0 <= {_plain(sym.show(c))} < {k}")]

    def masks(self, acc: Access, enc: Enc):
        """For each mask ``x & (q - 1)`` in the access's index or guard whose ``q`` is made of parameters (the
        modulo idiom, written for a power-of-two ``q``): a z3 constraint that ``q`` is a power of two, and its
        text. A ``q`` whose parameters some assumption gives values is left out (checked as stated); one that only
        bounds them (the host's `stride >= 1024` from a loop halving it) leaves the idiom's precondition to say."""
        fixed = {f"p:{n}" for a in self.launch.assume for n in a.pinned}
        out, seen, stack = [], set(), [acc.offset, acc.cond]
        while stack:
            e = stack.pop()
            stack.extend(e.args)
            if e.op != "&":
                continue
            for m in e.args:
                q = _halved_from(_minus_one(m))
                fv = sym.free_vars(q) if q is not None else {}
                if not fv or set(fv.values()) != {"uniform"} or not all(n.startswith("p:") for n in fv) \
                        or set(fv) & fixed or q.key() in seen:
                    continue
                seen.add(q.key())
                v = enc.int(q)
                out.append((z3.Or(*[v == enc.const(1 << k) for k in range(32)]),
                            f"{_plain(sym.show(q))} a power of two"))
        return out

    def stride_tuples(self, a: Access, b: Access, e1: Enc, e2: Enc):
        """The precondition of a tensor whose every index digit that moves with the thread or block has a stride
        parameter of its own (``p[s0 * x + s1 * y + s2 * z + k * s3]``, code generated for fields of any layout,
        each thread at its own cell): the strides place distinct digit tuples at distinct addresses (the caller's
        strides describe a tensor that does not overlap itself), so the two accesses meet only where each stride's
        digit is the same on both sides. One (z3 constraint, text), or none where the indices are not both such
        sums over two or more strides (one of them multiplying something that depends on the thread or block), a
        digit depends on a loop, or a stride is one an assumption gives."""
        fixed = {f"p:{n}" for x in self.launch.assume for n in x.names}
        digits_a, digits_b = _stride_digits(a), _stride_digits(b)
        if digits_a is None or digits_b is None:
            return []
        every = {*digits_a, *digits_b}
        strides = sorted(n for n in every if n)
        zero = sym.const(0)  # (a stride one index does not use: its digit there is 0)
        moving = [d.get(n, zero) for d in (digits_a, digits_b) for n in every]
        if len(strides) < 2 or set(strides) & fixed or not any(sym.kinds(x) & {"thread", "block"} for x in moving) \
                or any("iter" in sym.kinds(x) for x in moving) or \
                any(sym.kinds(d.get("", zero)) & {"thread", "block"} for d in (digits_a, digits_b)):
            # (a digit with no stride of its own is a column: ``rows`` asks for its row; a loop's digit slides a
            # window, `in[i * stride]`, which may overlap another digit's by design: darknet's softmax groups)
            return []
        names = [n[2:] for n in strides]
        ranges = digits.launch_ranges(self.launch, self.km.dims_used, self.km.grid_used)
        cons = []
        for n in sorted(every):
            da, db = digits_a.get(n, zero), digits_b.get(n, zero)
            cons.append(e1.int(da) == e2.int(db))
            # and what that equality implies digit by digit (`blockDim.x * blockIdx.x + threadIdx.x` on both sides:
            # the same block and thread along x), which the solver rarely finds in the product
            parts = digits.equal_parts(da, 1, db, 1, sym.ONE, sym.ONE, ranges)
            if parts is not None and len(parts) == 1:
                cons += [e1.int(x) == e2.int(y) for x, y in parts[0]]
        return [(z3.And(*cons), f"strides {', '.join(names)} that place distinct index tuples at distinct addresses")]

    def data_orders(self, a: Access, b: Access, e1: Enc, e2: Enc):
        """Preconditions on the data of the selection idioms the accesses' guards use, where a thread selects itself
        by comparing elements of an array it indexes: neighbours compared (``keys[t] <= k && k < keys[t + 1]``,
        ``r[t] != r[t - 1]``) in either guard, written for the array sorted ascending; in both guards, an element
        compared equal to a value the same for every thread (``keys[t] == k``), written for distinct values (not
        when a store adds to what it overwrites: counting the matches expects repeats). Per
        array, a z3 constraint with instances of the order (or of distinctness) over the elements the two threads'
        guards and indices read, and its text (also kept in ``data_texts``: kopt cannot check data)."""
        # a count of the matches (``if (x[i] == key) count++``) is written for repeated values, not distinct ones
        distinct = set() if _accumulates(a) or _accumulates(b) else \
            _selections(a.cond, "distinct") & _selections(b.cond, "distinct")
        sorted_ = _selections(a.cond, "sorted") | _selections(b.cond, "sorted")  # one guard shows the order
        lists = self._index_lists(a, b)
        out = []
        for base in sorted(sorted_ | distinct | lists):
            points = [(enc.int(x.args[0]), enc.int(x)) for acc, enc in ((a, e1), (b, e2))
                      for x in _loads(base, acc.cond, acc.offset)]
            cons = []
            for i, (o1, v1) in enumerate(points):
                for o2, v2 in points[i + 1:]:
                    if base in sorted_:
                        cons += [z3.Implies(o1 <= o2, v1 <= v2), z3.Implies(o2 <= o1, v2 <= v1)]
                    else:
                        cons.append(z3.Implies(o1 != o2, v1 != v2))
            if cons:
                name = base[3:]
                text = f"`{name}` sorted ascending" if base in sorted_ else \
                    f"distinct values in `{name}`" if base in distinct else f"distinct entries in index list `{name}`"
                self.data_texts.add(text)
                out.append((z3.And(*cons), text))
        return out

    def _index_lists(self, a: Access, b: Access) -> set:
        """The index lists both accesses' indices read (``idx = members[i]``, then ``pos[idx]``): arrays the kernel
        never stores to, loaded at a position that depends on the thread. A list of members, a permutation or a
        map from one numbering to another is written for distinct entries, and a thread that updates the element
        it names (``pos[idx] = pos[idx] + vel[idx] * dt``) relies on them. Not where a store adds contributions
        into what it overwrites (``bins[key[i]]++``, ``out[idx[i]] += val[i]``): those are written for repeats."""
        stored = self._stored
        if stored is None:
            stored = self._stored = {"ld:" + acc.base for acc in self.km.accesses if acc.write}
        found = None
        for acc in (a, b):
            here = {x.val for x in _loads(None, acc.offset) if x.val not in stored and
                    "thread" in sym.kinds(x.args[0])}
            found = here if found is None else found & here
        return {n for n in found or () if not any(_adds_contributions(acc, n) for acc in (a, b))}

    def row_dependent(self, mode: str, a: Access, b: Access, e1: Enc, e2: Enc, *constraints, bv: bool = False):
        """A finding between accesses ``a`` (thread e1) and ``b`` (thread e2) that needs a parameter precondition
        the kernel does not state: a row of a strided index reaching into the next (a column past its row stride:
        ``pitch < width``, a grid wider than the row, a column below its row's start), strides of a tensor that
        overlap (``stride_tuples``), a mask ``x & (q - 1)`` with ``q`` not a power of two, or an integer parameter
        of the indices negative (``signs``). The idioms are asked first, then with the signs added.
        (texts, None): the texts of the constraints under which it does NOT occur; (None, model): it occurs under
        them too, in this model (a witness that keeps them); (None, None): there are none, or the question is too
        hard within the budget; (None, Undecided(rows)): the question under those constraints is too hard within the
        budget."""
        tuples = self.stride_tuples(a, b, e1, e2)
        # (a tensor with a stride per digit: its precondition places every digit, and rows read into its strides
        # would guess one digit's extent inside another's stride, which the layout need not have)
        (ra, qa), (rb, qb) = ((self.rows(a, e1), self.rows(b, e2)) if not tuples else (([], None), ([], None)))
        lemma = []
        # `od[x]` beside `od[x + y * w]`: row 0 of the same layout; with both columns inside a row of w, the
        # other's row number is 0 where they overlap (implied; the solver rarely finds it in a product)
        if ra and not rb:
            rb, zero = self.rows(b, e2, self.row_strides.get(a.seq, ()))
            if zero is ROW_ZERO and qa is not None:
                lemma.append(e1.int(qa[2]) == 0)
        elif rb and not ra:
            ra, zero = self.rows(a, e1, self.row_strides.get(b.seq, ()))
            if zero is ROW_ZERO and qb is not None:
                lemma.append(e2.int(qb[2]) == 0)
        ms = self.masks(a, e1) + self.masks(b, e2) + self.slots(a, e1) + self.slots(b, e2) + \
            self.data_orders(a, b, e1, e2) + tuples
        idioms, signs = ra + rb + ms, self.signs((a, e1), (b, e2))
        lemma += self.padded_lemmas(a, b, e1, e2)
        if qa is not None and qb is not None and qa[:2] == qb[:2]:
            # one stride s and one row unit u on both sides: offsets s * qa + ca and s * qb + cb (qa, qb multiples
            # of u) with each column inside its row of u * s bytes overlap only within one row, so qa == qb
            # (implied, but the solver rarely finds it in a nonlinear product)
            lemma.append(e1.int(qa[2]) == e2.int(qb[2]))
        solver, p1, p2, _ = self.pair(mode, bv)
        m = None
        for rows in ([idioms, idioms + signs] if idioms else [signs]):
            if not rows:
                continue
            try:
                m = self._check(solver, *constraints, *[c for c, _ in rows], *lemma, *p1.side, *p2.side,
                                rlimit=QUERY_RLIMIT if ms else PRECONDITION_RLIMIT)  # masks go through bit-vectors
            except GaveUp:
                return None, Undecided(rows)
            if m is None:
                return sorted({t for _, t in rows}), None
        return None, m

    # ---- cached encodings: one solver per (mode), base constraints asserted once
    def pair(self, mode: str, bv: bool = False):
        """(solver, e1, e2, info) for two thread copies. mode: shared (same block), global (any blocks),
        block (same block, loop iterations shared), single (one thread); bv: bit-vector encoding."""
        got = self._pairs.get((mode, bv))
        if got is not None:
            return got
        self.layout()
        kinds = {"shared": ("thread", "iter"), "global": ("thread", "iter", "block"), "block": ("thread",),
                 "block2": ("thread", "iter"), "single": ("thread", "iter")}[mode]
        e1, e2 = Enc("@1", kinds, bv, self.unsigned_params), Enc("@2", kinds, bv, self.unsigned_params)
        c1, t1, b1, lin1 = self.thread(e1)
        solver = one_shot(z3.Solver()) if bv else z3.Solver()
        solver.add(*c1)
        info = {"t1": t1, "b1": b1, "lin1": lin1}
        if mode != "single":
            c2, t2, b2, lin2 = self.thread(e2)
            solver.add(*c2)
            same_block = z3.And(*[x == y for x, y in zip(b1, b2)])
            same_thread = z3.And(*[x == y for x, y in zip(t1, t2)])
            if mode == "global":
                solver.add(z3.Not(z3.And(same_block, same_thread)))
            else:
                solver.add(same_block)
                if mode == "shared":
                    solver.add(z3.Not(same_thread))
                # block2: any two threads (possibly the same) of one block
            info.update(t2=t2, b2=b2, lin2=lin2, same_block=same_block, w1=lin1 / 32, w2=lin2 / 32)
        got = (solver, e1, e2, info)
        self._pairs[(mode, bv)] = got
        return got

    def lows(self) -> dict:
        """Lower bounds the launch's assumptions give parameters (``p:n`` -> bound)."""
        out: dict = {}
        for a in self.launch.assume:
            for n, v in a.lows.items():
                out[f"p:{n}"] = max(out.get(f"p:{n}", v), v)
        return out

    def _check(self, solver, *constraints, rlimit: int | None = None):
        left = self.budget - self.spent
        if left <= 0:
            raise GaveUp(f"the kernel's solver budget ({KERNEL_RLIMIT:,} resource units) is spent"
                         if self.budget == KERNEL_RLIMIT else
                         f"the solver budget of all the kernel's launches ({KERNEL_TOTAL_RLIMIT:,} resource units) "
                         f"is spent")
        limit = min(rlimit or QUERY_RLIMIT, left)
        # z3 shares structurally equal terms, so equal ids are the same query on the same solver: a pair of accesses
        # repeated at other lines (an unrolled loop, a macro used twice) asks it again. Its answer is reused, and a
        # query that ran out of resources is not asked again under no larger a limit.
        key = (id(solver), frozenset(c.get_id() for c in constraints)) \
            if all(z3.is_expr(c) for c in constraints) else None
        asked = self._asked.get(key)
        if asked is not None:
            _, answer = asked
            if len(answer) == 1:
                return answer[0]
            if limit <= answer[0]:
                exc = GaveUp(answer[1])
                exc.spent = 0
                raise exc
        try:
            model, spent = check(solver, *constraints, rlimit=limit)
        except GaveUp as exc:
            self.spent += exc.spent
            if key is not None:
                self._asked[key] = (constraints, (limit, str(exc)))
            raise
        self.spent += spent
        if key is not None:
            self._asked[key] = (constraints, (model,))  # the constraints kept alive: their ids are not reused
        return model

    def solve_small(self, mode: str, *constraints, bv: bool = False):
        """Model or None for a query asked again with facts that only refine a witness: a small budget
        (SHAPE_RLIMIT, whatever the block); raises GaveUp."""
        solver, e1, e2, _ = self.pair(mode, bv)
        return self._check(solver, *constraints, *e1.side, *e2.side, rlimit=SHAPE_RLIMIT)

    def phases_apart(self, a: Access, b: Access) -> bool:
        """Whether two accesses of one block never fall in the same barrier interval, decided from the barrier counts
        and loop ranges alone, in integer arithmetic. Phases such as ``k0*N1 + k1`` (inside nested loops) against
        ``N0*N1 + k2`` (after them) are products of unknowns: with the accesses' bit-vector index arithmetic in the
        same query they cost z3 millions of units, alone a few hundred. Too hard: not apart (the full query
        decides)."""
        if a.phase.key() == b.phase.key() or needs_bv(a.phase) or needs_bv(b.phase) or \
                not any(kind == "iter" for x in (a.phase, b.phase) for kind in sym.free_vars(x).values()):
            return False
        _, e1, e2, _ = self.pair("shared", False)
        ranges = [z3.And(0 <= e.var(f"k{lid}", "iter"), e.var(f"k{lid}", "iter") < e.var(f"N{lid}", "uniform"))
                  for acc, e in ((a, e1), (b, e2)) for lid in acc.loops]
        try:
            return self._check(self.phase_solver, e1.int(a.phase) == e2.int(b.phase), *ranges, *e1.side, *e2.side,
                               rlimit=PHASE_RLIMIT) is None
        except GaveUp:
            return False

    def solve_presumed(self, mode: str, *constraints):
        """Model or None for a query under presumed parameter values (``presumed``): the precondition budget; raises
        GaveUp."""
        solver, e1, e2, _ = self.pair(mode, False)
        return self._check(solver, *constraints, *e1.side, *e2.side, rlimit=PRECONDITION_RLIMIT)

    def solve_in(self, mode: str, *constraints, bv: bool = False, decided=None):
        """Model or None. With an unknown block size the query is first tried for every block size at once
        (symbolically); if that is too hard, ``decided()`` is asked (a cheaper decision for every block that the
        caller records, True when it rules the query out), then the query for a set of concrete block shapes (said
        in the result)."""
        solver, e1, e2, _ = self.pair(mode, bv)
        symbolic = not self.launch.known_block
        try:
            return self._check(solver, *constraints, *e1.side, *e2.side,
                               rlimit=SYMBOLIC_RLIMIT if symbolic else QUERY_RLIMIT)
        except GaveUp as exc:
            if not symbolic:
                m = self._with_parameters_fixed(solver, constraints, e1, e2)
                if m is None:
                    self.incomplete.append(f"solver gave up ({exc})")
                return m
        if decided is not None and decided():
            return None
        shapes = self.candidate_blocks()
        for shape in shapes:
            fix = [e1.var(f"bd{f}", "uniform") == v for f, v, known in zip("xyz", shape, self.launch.block)
                   if known is None]
            try:
                m = self._check(solver, *constraints, *fix, *e1.side, *e2.side)
            except GaveUp as exc:
                self.incomplete.append(f"solver gave up ({exc})")
                continue
            if m is not None:
                return m
        self.concrete_fallback.append(", ".join(f"({a},{b},{c})" for a, b, c in shapes))
        return None

    def _with_parameters_fixed(self, solver, constraints, e1: Enc, e2: Enc):
        """A model of a query too hard as asked, found with the kernel's integer parameters all set to one of a few
        values (each try linear where the parameters were the only factors of a product: a row stride ``N`` in
        ``row * N + column``), else None. A model is a witness like any other (the launch's assumptions hold in it);
        finding none decides nothing."""
        params = list({str(v): v for enc in (e1, e2) for name, v in enc.vars.items() if name.startswith("p:")}.values())
        for value in PARAMETER_TRIES if params else ():
            try:
                m = self._check(solver, *constraints, *[p == value for p in params], *e1.side, *e2.side,
                                rlimit=SHAPE_RLIMIT)
            except GaveUp:
                continue
            if m is not None:
                return m
        return None

    def candidate_blocks(self) -> list[tuple]:
        """Concrete block shapes tried when the symbolic query is too hard (known dims kept)."""
        if self.dims_1d:
            shapes = [(x, 1, 1) for x in (32, 64, 128, 256, 512, 1024)]
        else:
            shapes = [(8, 8, 1), (16, 16, 1), (32, 8, 1), (32, 4, 1), (32, 32, 1), (64, 4, 1), (128, 2, 1)]
        return self.launch.within(shapes) or [(1, 1, 1)]

    def launch_dependent(self, mode: str, *constraints, bv: bool = False) -> str | None:
        """With an unknown block: a concrete block shape for which the finding does NOT occur (the finding then
        depends on the launch configuration), else None."""
        if self.launch.known_block:
            return None
        solver, e1, e2, _ = self.pair(mode, bv)
        for shape in self.candidate_blocks():
            fix = [e1.var(f"bd{f}", "uniform") == v for f, v, known in zip("xyz", shape, self.launch.block)
                   if known is None]
            try:
                m = self._check(solver, *constraints, *fix, *e1.side, *e2.side, rlimit=SHAPE_RLIMIT)
            except GaveUp:
                return None  # too hard to tell: the finding keeps its severity
            if m is None:
                return "({},{},{})".format(*shape)
        return None

    # ---- budget
    def over_budget(self) -> bool:
        return self.spent > self.budget

    def solve(self, *constraints):
        """Model or None; a query that runs out of resources is remembered and treated as 'no finding'."""
        try:
            return self._check(self.solver, *constraints)
        except GaveUp as exc:
            self.incomplete.append(f"solver gave up ({exc})")
            return None

    # ---- launch encoding
    def dims(self, enc: Enc):
        """(bdx, bdy, bdz), (gdx, gdy, gdz) as z3 terms plus their constraints."""
        cons = []
        bd = []
        for i, f in enumerate("xyz"):
            v = self.launch.block[i]
            if v is None and f != "x" and f not in self.km.dims_used:
                v = 1  # the kernel never looks at threadIdx.f / blockDim.f: a block 1 thread deep in that dimension
                cons.append(enc.var(f"bd{f}", "uniform") == 1)  # as a helper of a 1-D kernel that names it reads it
            if v is None:  # at most the hardware's, __launch_bounds__' and the inferred bound (LaunchConfig.dim_max)
                t = enc.var(f"bd{f}", "uniform")
                cons += [t >= 1, t <= self.launch.dim_max(i)]
            else:
                t = enc.const(v)
            bd.append(t)
        if any(not z3.is_int_value(t) for t in bd):
            cons.append(bd[0] * bd[1] * bd[2] <= self.launch.threads_max())
        if self.launch.warp_multiple(self.km.dims_used):
            cons.append(bd[0] % 32 == 0)
        gd = []
        for i, f in enumerate("xyz"):
            v = self.launch.grid[i]
            if v is None and (f != "x" or self.launch.one_wide_x) and f not in self.km.grid_used:
                v = 1  # the kernel never looks at blockIdx.f / gridDim.f: a 1-wide grid in that dimension
            if v is None:
                t = enc.var(f"gd{f}", "uniform")
                cons += [t >= 1, t <= MAX_GRID[i]]
            else:
                t = enc.const(v)
            gd.append(t)
        for a in self.launch.assume:  # parameters are uniform: one copy serves both threads
            cons.append(assume.to_z3(a, lambda n: enc.var(f"p:{n}", "uniform"), enc.const,
                                     lambda b, f: (bd if b == "blockDim" else gd)["xyz".index(f)]))
        return bd, gd, cons

    def thread(self, enc: Enc):
        """Constraints placing one thread copy inside the launch, its linear id and warp id."""
        bd, gd, cons = self.dims(enc)
        t = [enc.var(f"t{f}", "thread") for f in "xyz"]
        b = [enc.var(f"b{f}", "block") for f in "xyz"]
        for i in range(3):
            cons += [t[i] >= 0, t[i] < bd[i], b[i] >= 0, b[i] < gd[i]]
        lin = t[0] + bd[0] * (t[1] + bd[1] * t[2])
        return cons + self._trip_facts(enc) + [enc.bool(f) for f in self.km.facts], t, b, lin

    def _trip_facts(self, enc: Enc) -> list:
        """What defines each uniform loop's trip count N: the loop test fails at iteration N and held at N - 1 (or N
        is 0). The path condition after the loop says so too, but not after a function inlined around the loop
        returns (``for (d = blockDim.x; d > 0; d >>= 1) { __syncthreads(); ... }`` in a helper left N free, and
        the barriers it ran uncounted). Only a test that is a function of the iteration number and uniform values is
        a fact for every thread: a load (``while (hit < n)`` over memory other threads change) or an opaque value
        reads the same term at every iteration, and would wrongly pin N. A loop whose test depends on the thread
        (``for (i = tid; i < rounded; i += stride)``) has one such N per thread: without the fact a thread could
        leave it before its test fails, and two threads seem to disagree on a barrier in it."""
        out = []
        loops = [(n, k, c, "uniform") for n, (k, c) in self.km.trips.items()] + \
            [(n, k, c, "thread") for n, (k, c) in self.km.thread_trips.items()]
        for n, k, c, nk in loops:
            allowed = ("uniform",) if nk == "uniform" else ("uniform", "thread", "block")
            if sym.has_data(c) or sym.has_opaque(c) or k not in sym.free_vars(c) or any(
                    kind not in allowed for name, kind in sym.free_vars(c).items() if name != k):
                continue
            N = sym.var(n, nk)
            at = sym.subst(c, {k: N})
            before = sym.subst(c, {k: sym.binop("-", N, sym.ONE)})
            out.append(enc.bool(sym.land(sym.binop(">=", N, sym.ZERO), sym.unop("!", at),
                                         sym.binop("||", sym.binop("==", N, sym.ZERO), before))))
        return out

    # ---- witnesses
    def witness_thread(self, model, enc: Enc, with_block=False) -> str:
        t = [model_int(model, enc.var(f"t{f}", "thread")) for f in "xyz"]
        s = f"threadIdx=({t[0]},{t[1]},{t[2]})"
        if with_block:
            b = [model_int(model, enc.var(f"b{f}", "block")) for f in "xyz"]
            s += f" blockIdx=({b[0]},{b[1]},{b[2]})"
        return s

    def witness_common(self, model, encs, exprs) -> dict:
        out: dict = {}
        names = {}
        for e in exprs:
            if e is not None:
                names.update(sym.free_vars(e))
        params = {}
        for n, kind in sorted(names.items()):
            if n.startswith("p:") or (kind == "uniform" and "." in n and n.startswith("p:")):
                v = model_int(model, encs[0].var(n, kind))
                if v is not None:
                    params[n[2:]] = v
        if params:
            out["parameters"] = params
        dims = {}
        for f in "xyz":
            n = f"bd{f}"
            if n in names or (self.launch.block["xyz".index(f)] is None and (f == "x" or f in self.km.dims_used)):
                v = model_int(model, encs[0].var(n, "uniform"))
                if v is not None and self.launch.block["xyz".index(f)] is None:
                    dims[f"blockDim.{f}"] = v
        if dims:
            out["assumed_block"] = dims
        return out

    def loc(self, a, role: str) -> Location:
        l = a.loc
        return Location(l.file, l.line, l.col, l.end_line, l.end_col, role)

    def snippet(self, a) -> str:
        t = (a.text or "").strip()
        if len(t) > 60:
            t = t[:57] + "..."
        return t or f"{a.base}[...]"


def index_of(a: Access, model, enc: Enc) -> str:
    off = model_int(model, enc.int(a.offset))
    if off is None:
        return "?"
    if a.elem and off % a.elem == 0:
        return f"{a.base}[{off // a.elem}]"
    return f"{a.base} + {off} bytes"


def _coefficient(t) -> int:
    """The constant factor of a product (1 when there is none)."""
    c = 1
    for f in sym.operands(t, "*"):
        if sym.is_const(f):
            c *= abs(int(f.val))
    return c


def _index_terms(acc: Access) -> list:
    """The terms of an access's byte offset as a flat sum."""
    off, scale = acc.offset, 1
    if off.op == "*" and sym.is_const(off.args[1]):
        off, scale = off.args[0], off.args[1].val
    return [sym.binop("*", t, sym.const(scale)) if scale != 1 else t for t in _sum_terms(off)]


def _levels(terms) -> set:
    """The parameters that multiply a thread-, block- or loop-dependent term of an index (its row strides)."""
    return {f.val for t in terms if _strided(t, ("thread", "block", "iter")) for f in sym.operands(t, "*")
            if f.op == "v" and f.val.startswith("p:")}


def _sum_terms(e, k: int = 1) -> list:
    """The terms of ``e`` as a flat sum, constant factors distributed over sums (``(a + b * s) * 4 + c`` gives
    ``a * 4``, ``b * s * 4``, ``c``), each times ``k``."""
    if e.op == "+":
        return _sum_terms(e.args[0], k) + _sum_terms(e.args[1], k)
    if e.op == "-" and len(e.args) == 2:
        return _sum_terms(e.args[0], k) + _sum_terms(e.args[1], -k)
    if e.op == "*" and sym.is_const(e.args[1]) and isinstance(e.args[1].val, int):
        return _sum_terms(e.args[0], k * e.args[1].val)
    if e.op == "*" and sym.is_const(e.args[0]) and isinstance(e.args[0].val, int):
        return _sum_terms(e.args[1], k * e.args[0].val)
    return [e if k == 1 else sym.binop("*", e, sym.const(k))]


def _layout_terms(e, limit: int = 24) -> list:
    """``_sum_terms`` with parameter factors distributed over sums too (``((n * C + c) * H + h) * W + w`` gives
    ``n * C * H * W``, ``c * H * W``, ``h * W``, ``w``): the digits of a tensor layout written row by row; as
    ``_sum_terms`` when that would make more than ``limit`` terms."""
    def expand(x):
        if x.op == "*" and len(x.args) == 2:
            a, b = x.args
            for sums, factor in ((a, b), (b, a)):
                if sums.op in ("+", "-") and (sym.is_const(factor) or sym.free_vars(factor) and
                                              all(n.startswith("p:") for n in sym.free_vars(factor))):
                    return [sym.binop("*", t, factor) for t in _layout_terms(sums, limit)]
        return [x]
    out = [t for x in _sum_terms(e) for t in expand(x)]
    return out if len(out) <= limit else _sum_terms(e)


_COMPARE = ("<", "<=", ">", ">=", "==", "!=")


def _stride_digits(acc: Access) -> dict | None:
    """The index of ``acc`` as a sum of digits each times a stride parameter of its own: stride (``p:NAME``, "" for
    the terms with none) -> its digit; None when a term has two parameters or a factor that is not a plain one."""
    off = acc.offset
    if off.op == "*" and sym.is_const(off.args[1]):
        off = off.args[0]  # (in the index's own units)
    out: dict = {}
    for t in _layout_terms(off):
        fs = list(sym.operands(t, "*"))
        params = [f for f in fs if f.op == "v" and str(f.val).startswith("p:")]
        if len(params) > 1 or any(sym.free_vars(f) and all(n.startswith("p:") for n in sym.free_vars(f))
                                  for f in fs if f not in params):
            return None
        stride = params[0].val if params else ""
        rest = [f for f in fs if f is not (params[0] if params else None)]
        digit = sym.const(1)
        for f in rest:
            digit = sym.binop("*", digit, f)
        out[stride] = sym.binop("+", out[stride], digit) if stride in out else digit
    return out


def _is_load(e) -> bool:
    return e.op == "uf" and e.val.startswith("ld:") and len(e.args) == 1


def _selections(cond, kind: str) -> set:
    """The arrays (load names) a guard selects threads by: ``sorted``, two of its elements a constant distance
    apart, one indexed by the thread, compared with each other or each with one value; ``distinct``, an element
    indexed by the thread compared equal to a value that does not depend on the thread."""
    out, against = set(), {}  # against: (array, compared value's key) -> element offsets
    for c in sym.operands(cond, "&&") if cond is not None else ():
        if c.op not in _COMPARE:
            continue
        x, y = c.args
        for p, q in ((x, y), (y, x)):
            if not _is_load(p) or not sym.kinds(p.args[0]) & ({"thread"} if kind == "distinct" else
                                                              {"thread", "block"}):
                continue
            if kind == "distinct" and c.op == "==" and "thread" not in sym.kinds(q):
                out.add(p.val)
            if kind == "sorted":
                if _is_load(q) and q.val == p.val and _apart(p.args[0], q.args[0]):
                    out.add(p.val)
                if "thread" not in sym.kinds(q) and c.op != "==":
                    against.setdefault((p.val, q.key()), []).append(p.args[0])
        if kind == "sorted" and c.op in ("<", "<="):
            # a range between two neighbours walked (`for (i = ptr[b] + t; i < ptr[b + 1]; ...)`): CSR offsets
            for hi in _loads(None, y):
                if sym.kinds(hi.args[0]) & {"thread", "block"} and \
                        any(_apart(hi.args[0], lo.args[0]) for lo in _loads(hi.val, x)):
                    out.add(hi.val)
    for (base, _), offs in against.items():
        if any(_apart(u, v) for i, u in enumerate(offs) for v in offs[i + 1:]):
            out.add(base)
    return out


def _apart(u, v) -> bool:
    """The offsets ``u`` and ``v`` differ by a nonzero constant."""
    tu, tv = _sum_terms(u), _sum_terms(v)
    ku = sorted(t.key() for t in tu if not sym.is_const(t))
    kv = sorted(t.key() for t in tv if not sym.is_const(t))
    cu = sum(t.val for t in tu if sym.is_const(t))
    cv = sum(t.val for t in tv if sym.is_const(t))
    return ku == kv and cu != cv


def _accumulates(acc: Access) -> bool:
    """``acc`` stores a value computed from the location it overwrites (``count++``, ``s[i] += v``)."""
    return acc.write and acc.value is not None and any(x.args[0].key() == acc.offset.key()
                                                       for x in _loads("ld:" + acc.base, acc.value))


def _adds_contributions(acc: Access, index_list: str) -> bool:
    """``acc`` stores into the location it reads (``_accumulates``) something other than the fields of the element
    ``index_list`` names: a count (``bins[k]++``) or a value loaded for the thread's own position (``out[idx[i]]
    += val[i]``). An update of one element from its own fields (``pos[idx] + vel[idx] * dt``) is not; neither is a
    store of a record or an amount whose value kopt does not model (``d_vel[idx] = vel``, a struct the thread read
    there and changed field by field; ``torque[idx].x += t.x``)."""
    if not acc.write:
        return False
    if acc.value is None or not _accumulates(acc) or _is_load(acc.value):
        return False  # a record kopt does not model, a plain store, or the element written back as read
    fields = 0
    for x in _loads(None, acc.value):
        if x.val == index_list:
            continue
        if any(y.val == index_list for y in _loads(None, x.args[0])):
            fields += x.val != "ld:" + acc.base
        elif "thread" in sym.kinds(x.args[0]):
            return True  # a contribution loaded for the thread's position
    # otherwise a count or an amount the same for every thread (`bins[k]++`, `+= alpha`); a value kopt does not
    # model (a field of a struct the thread computed) is left to the element's own update
    return fields == 0 and not sym.has_opaque(acc.value)


def _loads(base: str | None, *exprs) -> list:
    """The loads of array ``base`` (``ld:NAME``; None: of any array) in ``exprs``, each once (each shared
    subexpression visited once: a value built by repeated merges is a graph whose paths are exponentially many)."""
    out, seen, visited, stack = [], set(), set(), list(exprs)
    while stack:
        e = stack.pop()
        if e is None or id(e) in visited:
            continue
        visited.add(id(e))
        if _is_load(e) and (base is None or e.val == base) and e.key() not in seen:
            seen.add(e.key())
            out.append(e)
        stack.extend(e.args)
    return out


def _halved_from(q):
    """The start ``v0`` of a loop variable halved each pass (``for (stride = n / 2; stride > 0; stride >>= 1)``):
    every value it takes is a power of two exactly when ``v0`` is; else ``q`` itself (None stays None)."""
    if q is not None and q.op == "geo" and sym.is_const(q.args[1]) and \
            (q.val, q.args[1].val) in (("shr", 1), ("div", 2)):
        return q.args[0]
    return q


def _minus_one(e):
    """``q`` when ``e`` is ``q - 1``, else None."""
    if e.op == "+" and sym.is_const(e.args[1]) and e.args[1].val == -1:
        return e.args[0]
    if e.op == "-" and sym.is_const(e.args[1]) and e.args[1].val == 1:
        return e.args[0]
    return None


def _dims(terms) -> set:
    """The launch dimensions (x, y, z) whose thread or block index the terms use."""
    return {n[-1] for t in terms for n in sym.free_vars(t) if n in ("tx", "ty", "tz", "bx", "by", "bz")}


def _guarded(cond, col, params=None) -> bool:
    """Some comparison in ``cond`` relates a variable of the column to a kernel parameter (one of ``params``)."""
    mine = {n for n, k in sym.free_vars(col).items() if k in ("thread", "block", "iter")}
    stack = [cond]
    while stack:
        e = stack.pop()
        if e.op in ("<", "<=", ">", ">=", "==", "!="):
            fv = sym.free_vars(e)
            if mine & set(fv) and any(n.startswith("p:") and (params is None or n in params) for n in fv):
                return True
        stack.extend(e.args)
    return False


def _guard_widths(cond, col) -> list:
    """(width, scale) for each comparison of ``cond`` that keeps an expression ``e`` of the thread, block or loop
    below a width computed from parameters and a constant kopt does not know (``dim / V`` of a template value
    ``V``: ``e < w``, ``e <= w``, ``!(e >= w)``...) where the column is ``scale * e``: the row widths the kernel's
    guard names that the layout assumptions cannot."""
    out = []
    for a, b in _order_comparisons(cond):
        names = set(sym.free_vars(b))
        if not sym.kinds(a) & {"thread", "block", "iter"} or sym.has_data(b) or \
                not all(n.startswith(("p:", "uopq#")) for n in names) or not any(n.startswith("uopq#") for n in names):
            continue  # (a width of parameters alone the layout assumptions relate to a pitch; a loop's trip count)
        scale = _scale_of(col, a)
        if scale:
            out.append((b, scale))
    return out


def _order_comparisons(cond, negated: bool = False):
    """(lesser side, greater side) of each order comparison ``cond`` holds, through `&&` and negations (``_upper_bounds``
    gives a column's bounds with `<=` made `<`; a row width the guard names is its parameter as written)."""
    if cond.op == "!":
        yield from _order_comparisons(cond.args[0], not negated)
    elif cond.op == ("||" if negated else "&&"):
        for x in cond.args:
            yield from _order_comparisons(x, negated)
    elif cond.op in ("<", "<=", ">", ">="):
        a, b = cond.args
        less = cond.op in ("<", "<=")
        yield (a, b) if less != negated else (b, a)


def _scale_of(col, e) -> int | None:
    """The constant ``k`` with ``col == k * e``: the ratio of their changes as ``e``'s first variable steps by one,
    checked at a few fixed points of every variable (no solver: its work would count against the kernel's budget),
    else None."""
    fv = sorted(sym.free_vars(e))
    names = sorted(set(fv) | set(sym.free_vars(col)))
    if not fv or sym.has_data(col) or sym.has_opaque(col):
        return None

    def at(x, values):
        v = sym.subst(x, {n: sym.const(values.get(n, 0)) for n in names})
        return v.val if sym.is_const(v) and isinstance(v.val, int) else None

    c0, e0 = at(col, {}), at(e, {})
    c1, e1 = at(col, {fv[0]: 1}), at(e, {fv[0]: 1})
    if None in (c0, e0, c1, e1) or e1 == e0 or (c1 - c0) % (e1 - e0):
        return None
    k = (c1 - c0) // (e1 - e0)
    if k <= 0:
        return None
    for i in range(4):  # fixed points, so the same index gives the same answer on every run
        values = {n: 3 + 7 * i + 5 * j for j, n in enumerate(names)}
        cv, ev = at(col, values), at(e, values)
        if cv is None or ev is None or cv != k * ev:
            return None
    return k


def _row_number(terms, stride, unit: int):
    """(stride's key, unit, q) when the index's terms that contain ``stride``'s parameters are ``stride * q`` with
    ``stride`` one factor of each, else None."""
    q, names = sym.const(0), set(sym.free_vars(stride))
    for t in terms:
        fs = list(sym.operands(t, "*"))
        hits = [f for f in fs if f.key() == stride.key()]
        if not names & set(sym.free_vars(t)):
            continue
        if len(hits) != 1 or any(names & set(sym.free_vars(f)) for f in fs if f is not hits[0]):
            return None
        rest = sym.const(1)
        for f in fs:
            if f is not hits[0]:
                rest = sym.binop("*", rest, f)
        q = sym.binop("+", q, rest)
    return stride.key(), unit, q


ROW_ZERO = ("row 0",)  # rows(): an index with no stride of its own, inside row 0 of the other access's layout
_INTERNAL = re.compile(r"\b[kN]\d+\b")  # the analyzer's names of loop iterations and trip counts


def _plain(text: str) -> str:
    """``sym.show`` text without its outer parentheses."""
    while text.startswith("(") and text.endswith(")"):
        depth = 0
        for i, ch in enumerate(text):
            depth += (ch == "(") - (ch == ")")
            if depth == 0 and i < len(text) - 1:
                return text
        text = text[1:-1]
    return text


def _arm_terms(e) -> list:
    """``_sum_terms`` of ``e``, a term with a conditional factor replaced by those of each of its arms
    (``(reorder ? i : i * n) * 4`` gives ``i * 4`` and ``i * n * 4``)."""
    out = []
    for t in _sum_terms(e):
        factors = list(sym.operands(t, "*"))
        pick = next((f for f in factors if f.op == "ite"), None)
        if pick is None:
            out.append(t)
            continue
        rest = [f for f in factors if f is not pick]
        for arm in pick.args[1:]:
            out += _arm_terms(reduce(lambda x, y: sym.binop("*", x, y), rest, arm))
    return out


def _constant_row(t) -> str | None:
    """The parameter of a term that is a parameter times constants (``2 * pitch``, in bytes ``pitch * 8``)."""
    fs = list(sym.operands(t, "*"))
    names = [f.val for f in fs if f.op == "v"]
    if len(names) != 1 or not names[0].startswith("p:") or not all(f.op == "v" or sym.is_const(f) for f in fs):
        return None
    return names[0]


def _component_pitches(accesses) -> dict:
    """Array -> the parameters its stores put at two or more different nonzero constant multiples: the pitch of a
    layout of components (``virial[1 * pitch + idx]`` ... ``virial[5 * pitch + idx]``). One multiple alone is an
    offset (``a[i + shift] = a[i]``), no layout."""
    rows: dict = {}
    for acc in accesses:
        if acc.write:
            for t in _index_terms(acc):
                p = _constant_row(t)
                if p is not None:
                    rows.setdefault((acc.base, p), set()).add(_coefficient(t))
    out: dict = {}
    for (base, p), cs in rows.items():
        if len(cs) > 1:
            out.setdefault(base, set()).add(p)
    return out


def _row_unit(row: list, column: list):
    """(c, k, column) of an index's row terms and column terms: the rows' unit ``c`` (``(by * 32 + ty) * pitch``
    elements are rows of one element times the pitch), the column's step ``k`` (both in bytes) and the column as one
    sum; None when a unit is 0 or the column has no step or does not depend on the thread or block."""
    steps = {_coefficient(t) for t in column if not sym.is_const(t)}
    units = {_coefficient(t) for t in row}
    if not steps or 0 in steps or 0 in units:
        return None
    col = reduce(lambda x, t: sym.binop("+", x, t), column)
    if not (sym.kinds(col) & {"thread", "block"}):
        return None
    return math.gcd(*units), math.gcd(*steps), col


def _pitch_sum(f) -> bool:
    """A sum or difference of parameters and constants (``x_max + 2 * halo``): a padded row's pitch."""
    names = sym.free_vars(f)
    return f.op in ("+", "-") and len(f.args) == 2 and bool(names) and all(n.startswith("p:") for n in names)


def _upper_bounds(cond, col, unshifted: bool = False) -> list:
    """The uniform expressions a conjunct of ``cond`` keeps a variable of ``col`` below (``x < E`` gives ``E``,
    ``x <= E`` gives ``E + 1``, either way round). ``unshifted``: the bounds of ``x`` less its terms of parameters
    only (``n1 < N2`` with ``n1 = i + N1`` gives ``N2 - N1``), for the column without its offset."""
    mine = {n for n, k in sym.free_vars(col).items() if k in ("thread", "block")}
    out, stack = [], [(cond, False)]
    while stack:
        e, neg = stack.pop()
        if e.op == "!":  # an early return's guard: `if (x > E) return;` leaves `!(x > E)`
            stack.append((e.args[0], not neg))
            continue
        if e.op == ("||" if neg else "&&"):
            stack.extend((a, neg) for a in reversed(e.args))
            continue
        if e.op not in ("<", "<=", ">", ">="):
            continue
        op = {"<": ">=", "<=": ">", ">": "<=", ">=": "<"}[e.op] if neg else e.op
        x, y = e.args if op in ("<", "<=") else reversed(e.args)
        if not (mine & set(sym.free_vars(x))) or sym.kinds(y) - {"uniform"} or not sym.free_vars(y):
            continue
        bound = y if op in ("<", ">") else sym.binop("+", y, sym.const(1))
        if unshifted:
            shift = [t for t in _sum_terms(x) if sym.free_vars(t) and not sym.kinds(t) - {"uniform"}]
            if not shift:
                continue
            bound = reduce(lambda a, t: sym.binop("-", a, t), shift, bound)
        out.append(bound)
    return out


def _strided(t, kinds=("thread", "block")) -> bool:
    """A product of a parameter and something that depends on the thread or block (a row index times a pitch)."""
    fs = list(sym.operands(t, "*"))
    return len(fs) > 1 and any(sym.kinds(f) & set(kinds) for f in fs)


def _assumed_params(launch) -> dict:
    return {f"p:{n}": "uniform" for a in launch.assume for n in a.names}
