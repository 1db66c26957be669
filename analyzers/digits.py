"""Two threads' indices compared digit by digit (mixed-radix decomposition), so race queries stay linear.

An index ``A * W + B`` with ``0 <= B < W`` for a uniform ``W`` (a row pitch, a grid-stride step ``gridDim.x *
blockDim.x``, an image width) equals another ``A' * W + B'`` with ``0 <= B' < W`` exactly when ``A == A'`` and
``B == B'``. A race query compares two threads' indices; as one equation over a symbolic ``W`` it is nonlinear and
z3 often cannot decide it within its budget; split recursively it becomes equalities of thread, block and iteration
numbers, which z3 decides at once. The bounds ``0 <= B < W`` are established syntactically: from the launch
(``threadIdx.x < blockDim.x``, ``blockIdx.x < gridDim.x``), from ``%`` and masks, from nested digits
(``blockIdx.x * blockDim.x + threadIdx.x < gridDim.x * blockDim.x``) and from the access's own guard
(``col < width``). Equal quotients and equal remainders by one divisor mean equal dividends.
The split is an equivalence (under the guards, which the query asserts too), so verdicts do not change; only
queries z3 could not finish get answers.
"""
from __future__ import annotations

import math
import weakref

from . import sym
from .sym import S

MAX_TERMS = 48  # polynomials bigger than this are left to the solver as they are
MAX_ALTERNATIVES = 8  # carries (index + 1 reaching the next row) make alternatives; more than this: not split

# A polynomial: {monomial: coefficient}; a monomial is a sorted tuple of factor keys (sym.S.key()); the factors
# themselves are kept in an `atoms` table (key -> S) to rebuild expressions.


class _Poly:
    def __init__(self):
        self.atoms: dict = {}
        self.memo = weakref.WeakKeyDictionary()

    def of(self, e: S) -> dict | None:
        got = self.memo.get(e)
        if got is None:
            got = self.memo[e] = self._of(e)
        return got

    def _of(self, e: S):
        op = e.op
        if op == "c":
            if not isinstance(e.val, int):
                return self._atom(e)
            return {(): e.val} if e.val else {}
        if op in ("+", "-"):
            a, b = self.of(e.args[0]), self.of(e.args[1])
            if a is None or b is None:
                return self._atom(e)
            return _add(a, b, -1 if op == "-" else 1)
        if op == "neg":
            a = self.of(e.args[0])
            return self._atom(e) if a is None else {m: -c for m, c in a.items()}
        if op == "*":
            a, b = self.of(e.args[0]), self.of(e.args[1])
            if a is None or b is None or len(a) * len(b) > MAX_TERMS:
                return self._atom(e)
            return _mul(a, b)
        if op in ("/", "%") and sym.is_const(e.args[1]) and e.args[1].val > 1:
            # (g * x) / (g * m) is x / m and (g * x) % (g * m) is g * (x % m): the common factor of a scaled index
            # (a tile row times its width) comes out of the quotient or remainder, which then splits into digits
            a, m = self.of(e.args[0]), e.args[1].val
            g = math.gcd(m, *a.values()) if a else 1
            if g > 1:
                x = self.build({mm: c // g for mm, c in a.items()})
                if op == "/":
                    return self.of(sym.binop("/", x, sym.const(m // g)))
                return {mm: c * g for mm, c in self.of(sym.binop("%", x, sym.const(m // g))).items()}
        if op == "<<" and sym.is_const(e.args[1]) and 0 <= e.args[1].val < 31:
            a = self.of(e.args[0])
            return self._atom(e) if a is None else {m: c << e.args[1].val for m, c in a.items()}
        return self._atom(e)

    def _atom(self, e: S):
        k = e.key()
        self.atoms.setdefault(k, e)
        return {(k,): 1}

    def build(self, p: dict) -> S:
        out = sym.ZERO
        for m, c in p.items():
            t = sym.const(c)
            for k in m:
                t = sym.binop("*", t, self.atoms[k])
            out = sym.binop("+", out, t)
        return out


def sum_text(e: S) -> str:
    """``e`` written as a sum of its terms, like terms collected (``x_max - 1 + halo + 1`` reads ``x_max + halo``),
    for the texts of assumptions kopt states."""
    poly = _Poly()
    p = poly.of(e)
    if p is None:
        return sym.show(e)
    out = ""
    for m, c in sorted(p.items(), key=lambda mc: not mc[0]):  # the constant last
        factors = [sym.show(poly.atoms[k]) for k in m]
        word = " * ".join(([str(abs(c))] if abs(c) != 1 or not m else []) + factors)
        out += (" - " if c < 0 else " + ") + word if out else ("-" if c < 0 else "") + word
    return out or "0"


def _add(a: dict, b: dict, sign: int = 1) -> dict:
    out = dict(a)
    for m, c in b.items():
        out[m] = out.get(m, 0) + sign * c
    return {m: c for m, c in out.items() if c}


def _pkey(p: dict):
    return frozenset(p.items())


_DIMS = {"bdx", "bdy", "bdz", "gdx", "gdy", "gdz"}  # positive launch dimensions


def launch_ranges(launch, dims_used, grid_used) -> dict:
    """Exclusive upper bounds of the thread and block indices, as monomials (coefficient, factor keys)."""
    out = {}
    for i, f in enumerate("xyz"):
        for idx, dim, known, used in ((f"t{f}", f"bd{f}", launch.block[i], dims_used),
                                      (f"b{f}", f"gd{f}", launch.grid[i], grid_used)):
            if known is None and f != "x" and f not in used:
                known = 1  # as the solver's encoding: an unused dimension is 1 wide
            out[("v", idx)] = (known, ()) if known is not None else (1, (("v", dim),))
    return out


class _Split:
    def __init__(self, ranges: dict, positive=frozenset(), nonneg=frozenset()):
        self.ranges = ranges
        self.pos = _DIMS | set(positive)  # names at least 1: launch dimensions, parameters presumed so
        self.nonneg_names = set(positive) | set(nonneg)
        self.poly = _Poly()
        self.bounds: dict = {}
        self.facts: dict = {}  # which side ("a"/"b") -> {poly key: exclusive bound monomial}
        self.below: dict = {}  # which side -> {poly key: a polynomial it is at most (`t2 <= t`), bounded in turn}

    # ---- facts from an access's guard
    def learn(self, side: str, cond: S) -> None:
        out = self.facts[side] = {}
        below = self.below[side] = {}
        todo = [(cond, False)]
        while todo:
            c, neg = todo.pop()
            op = c.op
            if op == "!":
                todo.append((c.args[0], not neg))
                continue
            if (op == "&&" and not neg) or (op == "||" and neg):
                todo += [(x, neg) for x in c.args]
                continue
            if op not in ("<", "<=", ">", ">="):
                continue
            if neg:
                op = {"<": ">=", "<=": ">", ">": "<=", ">=": "<"}[op]
            x, y = c.args
            if op in (">", ">="):
                x, y, op = y, x, {">": "<", ">=": "<="}[op]
            px, py = self.poly.of(x), self.poly.of(y)
            if px is None or py is None:
                continue
            below.setdefault(_pkey(px), py)  # x <= y or x < y: whatever bounds y bounds x
            if op == "<=":
                py = _add(py, {(): 1})
            self._positive_factors(px, py)
            if len(py) == 1:
                (m, k), = py.items()
                if k > 0 and all(self._uniform(f) for f in m):
                    # a loop's `k < N` (its trip count) and its own test `k < na`: keep the test's bound, the one
                    # an index is written against
                    old = out.get(_pkey(px))
                    if old is None or _trip_count(old[1]) or not _trip_count(m):
                        out[_pkey(px)] = (k, m)

    def _positive_factors(self, px: dict, py: dict) -> None:
        """``0 <= x < y`` with ``y`` a product of names none negative (`flat < B * C * H * W` over unsigned sizes):
        each name is at least 1 wherever the guard holds, so a remainder or quotient by it is a digit. A race query
        asserts both accesses' guards, so a fact of either holds in it."""
        if len(py) != 1 or not self.nonneg(px):
            return
        (m, c), = py.items()
        names = [self.poly.atoms[k] for k in m]
        if c > 0 and names and all(n.op == "v" and (n.val in self.pos or n.val in self.nonneg_names) for n in names):
            self.pos |= {n.val for n in names}

    def _uniform(self, k) -> bool:
        return not (sym.kinds(self.poly.atoms[k]) - {"uniform"})

    # ---- signs and bounds
    def nonneg(self, p: dict) -> bool:
        return all(c > 0 and all(self._atom_nonneg(self.poly.atoms[k]) for k in m) for m, c in p.items())

    def _atom_nonneg(self, e: S) -> bool:
        if e.op == "v":
            return ("v", e.val) in self.ranges or e.val in _DIMS or e.val in self.nonneg_names or \
                (e.val[:1] in ("k", "N") and e.val[1:].isdigit())
        if e.op in ("%", ">>"):  # the sign of a remainder is the dividend's (C; z3's is never negative)
            return self._nonneg_expr(e.args[0])
        if e.op == "/":
            return all(self._nonneg_expr(x) for x in e.args)
        if e.op == "&":
            return any(self._nonneg_expr(x) for x in e.args)
        if e.op in ("min", "max"):
            return all(self._nonneg_expr(x) for x in e.args)
        return False

    def _nonneg_expr(self, e: S) -> bool:
        p = self.poly.of(e)
        return p is not None and self.nonneg(p)

    def bound(self, p: dict, side: str):
        """(k, m): 0 <= p < k * m (a positive value) wherever the side's access runs, else None."""
        key = (_pkey(p), side)
        if key not in self.bounds:
            self.bounds[key] = None  # while it is computed: a bound through itself (`i < j`, `j <= i`) is none
            self.bounds[key] = self._bound(p, side)
        return self.bounds[key]

    def _bound(self, p: dict, side: str):
        if not p:
            return (1, ())
        if not self.nonneg(p):
            return None
        got = self.facts[side].get(_pkey(p))
        if got is not None:
            return got
        y = self.below[side].get(_pkey(p))
        got = self.bound(y, side) if y is not None else None
        if got is not None:  # 0 <= x <= y < k * m (a loop `t2 <= t` up to a thread's digit `t < T`)
            return got
        if len(p) == 1:
            (m, c), = p.items()
            if not m:
                return (c + 1, ())
            if len(m) == 1 and c == 1:
                return self._atom_bound(self.poly.atoms[m[0]], side)
        for w in self._candidates([p]):
            a, b = _divide(p, w)
            if not a:
                continue
            ub_a, ub_b = self.bound(a, side), self.bound(b, side)
            if ub_a is not None and ub_b is not None and _le(ub_b, w, self.pos):
                return (ub_a[0] * w[0], tuple(sorted(ub_a[1] + w[1], key=sym.order)))
        return None

    def _atom_bound(self, e: S, side: str):
        got = self.ranges.get(e.key())
        if got is not None:
            return got
        if e.op == "%" and self._nonneg_expr(e.args[0]):
            w = self.poly.of(e.args[1])
            if w is not None and len(w) == 1:  # a positive divisor (a constant, launch dimensions)
                (m, c), = w.items()
                if c > 0 and _positive_names(m, self.pos):
                    return (c, m)
        if e.op == "&":
            for x in e.args:
                if sym.is_const(x) and x.val >= 0:
                    return (x.val + 1, ())
        if e.op == "/" and sym.is_const(e.args[1]) and e.args[1].val > 0:
            x = self.poly.of(e.args[0])
            ub = self.bound(x, side) if x is not None else None
            if ub is not None and not ub[1]:  # 0 <= x < u: x / d < ceil(u / d)
                return (-(-ub[0] // e.args[1].val), ())
        if e.op == "/":  # 0 <= x < k * M and a positive divisor c * W with c | k, W | M: x / (c * W) < (k / c) * (M / W)
            x, w = self.poly.of(e.args[0]), self.poly.of(e.args[1])
            ub = self.bound(x, side) if x is not None else None
            if ub is not None and w is not None and len(w) == 1:
                (mw, cw), = w.items()
                q, r = _divide({ub[1]: ub[0]}, (cw, mw)) if cw > 0 else ({}, {})
                if q and not r and _positive_names(mw, self.pos):
                    (m, k), = q.items()
                    return (k, m)
        return None

    def _candidates(self, polys):
        """Radices to try, biggest first: the uniform part of each term, its single uniform factors, constants."""
        out = {}
        for p in polys:
            for m, c in p.items():
                uni = tuple(f for f in m if self._uniform(f))
                for w in [(1, uni)] + [(1, (f,)) for f in uni] + ([(abs(c), ()), (abs(c), uni)] if abs(c) > 1 else []):
                    if w != (1, ()):
                        out.setdefault(w, None)
        return sorted(out, key=lambda w: (-len(w[1]), -w[0]))

    # ---- equations
    def equal(self, x: dict, y: dict) -> list:
        """Alternatives (a disjunction) of [(x_i, y_i)] (conjunctions): x == y (x of side a, y of side b) exactly
        when, in some alternative, every x_i == y_i."""
        if x == y and all(self._uniform(k) for m in x for k in m):
            return [[]]
        for w in self._candidates([x, y]):
            ax, bx = _divide(x, w)
            ay, by = _divide(y, w)
            if not (ax or ay):
                continue
            ubx, uby = self.bound(bx, "a"), self.bound(by, "b")
            if ubx is not None and uby is not None and _le(ubx, w, self.pos) and _le(uby, w, self.pos):
                return _both(self.equal(ax, ay), self.equal(bx, by))
            got = self._carry(w, ax, bx, ay, by)
            if got is not None:
                return got
        return [[(x, y)]]

    def _carry(self, w, ax: dict, bx: dict, ay: dict, by: dict):
        """Digits that differ by a constant (a neighbour, ``index + 1``): ``A * W + B + d == A' * W + B'`` with B, B'
        in [0, W) and 0 < |d| <= W holds exactly when A == A' and B + d == B', or the digit carries: A + 1 == A' and
        B + d == B' + W (d > 0), A == A' + 1 and B + d + W == B' (d < 0). None when that does not apply."""
        d = bx.get((), 0) - by.get((), 0)
        bx0 = {m: c for m, c in bx.items() if m}
        by0 = {m: c for m, c in by.items() if m}
        if not d or not (abs(d) <= 1 or (not w[1] and abs(d) <= w[0])):
            return None  # a symbolic W is only known to be >= 1
        ubx, uby = self.bound(bx0, "a"), self.bound(by0, "b")
        if ubx is None or uby is None or not (_le(ubx, w, self.pos) and _le(uby, w, self.pos)):
            return None
        wp = {w[1]: w[0]}
        one = {(): 1}
        stay = _both(self.equal(ax, ay), self.equal(_add(bx0, {(): d}), by0))
        if d > 0:
            carry = _both(self.equal(_add(ax, one), ay), [[(_add(bx0, {(): d}), _add(by0, wp))]])
        else:
            carry = _both(self.equal(ax, _add(ay, one)), [[(_add(_add(bx0, {(): d}), wp), by0)]])
        out = stay + carry
        return out if len(out) <= MAX_ALTERNATIVES else None

    def merge_divmod(self, pairs: list) -> list:
        """Equal quotients and equal remainders by one divisor: equal dividends."""
        while True:
            ops = {}
            for i, (x, y) in enumerate(pairs):
                ex, ey = self._single(x), self._single(y)
                if ex is not None and ey is not None and ex.op == ey.op and ex.op in ("/", "%") and \
                        ex.args[1].key() == ey.args[1].key() and not (sym.kinds(ex.args[1]) - {"uniform"}):
                    ops[(ex.op, ex.args[0].key(), ey.args[0].key(), ex.args[1].key())] = (i, ex.args[0], ey.args[0])
            hit = next(((q, r) for k, q in ops.items() if k[0] == "/"
                        for r in [ops.get(("%",) + k[1:])] if r is not None), None)
            if hit is None:
                merged = self._merge_radix(pairs)
                if merged is None:
                    return pairs
                pairs = merged
                continue
            (i, x0, y0), (j, _, _) = hit
            px, py = self.poly.of(x0), self.poly.of(y0)
            if px is None or py is None:
                return pairs
            split = self.equal(px, py)
            pairs = [p for n, p in enumerate(pairs) if n not in (i, j)] + (split[0] if len(split) == 1 else [(px, py)])

    def radix_normal(self, e: S, memo=None) -> S:
        """``e`` with a mixed-radix decomposition written through remainders first (`rest = i % (NH * N * d);
        nh = rest / (N * d); rest %= N * d; n = rest / d`) rewritten quotients first, as `_merge_radix` reads it:
        `(x % (W * m)) / W` is `(x / W) % m`, `(x % (B * k)) % B` is `x % B` and `x / a / b` is `x / (a * b)` (a
        non-negative x, positive divisors)."""
        memo = {} if memo is None else memo
        got = memo.get(id(e))
        if got is not None:
            return got
        out = e
        if e.args and e.op not in ("geo",):
            args = [self.radix_normal(a, memo) if isinstance(a, S) else a for a in e.args]
            if any(x is not y for x, y in zip(args, e.args)):
                out = sym.binop(e.op, *args) if len(args) == 2 and e.op in _BINOPS else e
            if len(args) == 2 and e.op in ("/", "%") and args[0].op == "%" and self._nonneg_expr(args[0].args[0]):
                x, big, small = args[0].args[0], self.poly.of(args[0].args[1]), self.poly.of(args[1])
                m = _exact_quotient(big, small, self.pos) if big is not None and small is not None else None
                if m is not None:
                    out = sym.binop("%", sym.binop("/", x, args[1]), self.poly.build(m)) if e.op == "/" else \
                        sym.binop("%", x, args[1])
            elif len(args) == 2 and e.op == "/" and args[0].op == "/" and self._nonneg_expr(args[0].args[0]):
                x, a, b = args[0].args[0], self.poly.of(args[0].args[1]), self.poly.of(args[1])
                if a is not None and b is not None and self._positive(a) and self._positive(b):
                    out = sym.binop("/", x, self.poly.build(_mul(a, b)))  # `i / d2 / d3`: `i / (d2 * d3)`
        memo[id(e)] = out
        return out

    def _positive(self, p: dict) -> bool:
        """``p`` is one monomial of a positive constant and positive names (a divisor)."""
        return len(p) == 1 and all(c > 0 and _positive_names(m, self.pos) for m, c in p.items())

    def _merge_radix(self, pairs: list):
        """The digits of a mixed-radix decomposition (`i % d4`, `(i / d4) % d3`, `(i / (d3 * d4)) % d2`, ...),
        merged one radix at a time: a remainder by m of a value below m is the value (`(i / W) % d1` with
        `i < d1 * W`); equal `(x / W) % m` and equal `x / (W * m)` mean equal `x / W` (`x % m` and `x / m`: equal
        x). None when nothing merges."""
        parts = []
        for i, (x, y) in enumerate(pairs):
            ex, ey = self._single(x), self._single(y)
            if ex is None or ey is None or ex.op != ey.op or ex.op not in ("/", "%") or \
                    ex.args[1].key() != ey.args[1].key() or sym.kinds(ex.args[1]) - {"uniform"}:
                continue
            parts.append((i, ex, ey))
        for i, ex, ey in parts:  # a remainder of a quotient below its divisor (the radix's top digit)
            if ex.op != "%" or ex.args[0].op != "/" or ey.args[0].op != "/":
                continue
            m = self.poly.of(ex.args[1])
            px, py = self.poly.of(ex.args[0]), self.poly.of(ey.args[0])
            if m is None or px is None or py is None or len(m) != 1:
                continue
            (mm, mc), = m.items()
            ubx, uby = self.bound(px, "a"), self.bound(py, "b")
            if mc > 0 and ubx is not None and uby is not None and _le(ubx, (mc, mm), self.pos) and \
                    _le(uby, (mc, mm), self.pos):
                return [p for n, p in enumerate(pairs) if n != i] + [(px, py)]
        for i, qx, qy in parts:  # x / (W * m) and (x / W) % m: x / W
            if qx.op != "/":
                continue
            w = self.poly.of(qx.args[1])
            for j, rx, ry in parts:
                if rx.op != "%" or w is None:
                    continue
                inner_x, inner_y = rx.args[0], ry.args[0]
                if inner_x.op == "/" and inner_y.op == "/" and inner_x.args[1].key() == inner_y.args[1].key():
                    base_x, base_y, w2 = inner_x.args[0], inner_y.args[0], self.poly.of(inner_x.args[1])
                else:
                    base_x, base_y, w2 = inner_x, inner_y, {(): 1}
                m = self.poly.of(rx.args[1])
                if base_x.key() != qx.args[0].key() or base_y.key() != qy.args[0].key() or w2 is None or \
                        m is None or _pkey(_mul(w2, m)) != _pkey(w):
                    continue
                px, py = self.poly.of(inner_x), self.poly.of(inner_y)
                if px is None or py is None:
                    continue
                return [p for n, p in enumerate(pairs) if n not in (i, j)] + [(px, py)]
        return None

    def _single(self, p: dict):
        if len(p) == 1:
            (m, c), = p.items()
            if c == 1 and len(m) == 1:
                return self.poly.atoms[m[0]]
        return None


def _both(d1: list, d2: list) -> list:
    """The conjunction of two disjunctions of conjunctions."""
    return [a + b for a in d1 for b in d2]


_BINOPS = {"+", "-", "*", "/", "%"}


def _exact_quotient(big: dict, small: dict, pos) -> dict | None:
    """``big / small`` when both are single positive monomials (constants and positive names) and ``small``
    divides ``big``, else None."""
    if len(big) != 1 or len(small) != 1:
        return None
    (mb, cb), = big.items()
    (ms, cs), = small.items()
    if cb <= 0 or cs <= 0 or not _positive_names(mb + ms, pos):
        return None
    q, r = _divide(big, (cs, ms))
    return q if q and not r else None


def _positive_names(m: tuple, pos) -> bool:
    """Every factor of the monomial ``m`` is a name known to be at least 1 (in ``pos``)."""
    return all(k[0] == "v" and k[1] in pos for k in m)


def _mul(a: dict, b: dict) -> dict:
    out: dict = {}
    for ma, ca in a.items():
        for mb, cb in b.items():
            m = tuple(sorted(ma + mb, key=sym.order))
            out[m] = out.get(m, 0) + ca * cb
    return {m: c for m, c in out.items() if c}


def _divide(p: dict, w) -> tuple[dict, dict]:
    """p = A * w + B: the terms w divides (their quotients) and the rest."""
    cw, mw = w
    a, b = {}, {}
    for m, c in p.items():
        rest = list(m)
        ok = c % cw == 0
        for f in mw:
            if not ok:
                break
            if f in rest:
                rest.remove(f)
            else:
                ok = False
        if ok:
            a[tuple(rest)] = a.get(tuple(rest), 0) + c // cw
        else:
            b[m] = c
    return {m: c for m, c in a.items() if c}, b


def _trip_count(m) -> bool:
    """The monomial names a loop's trip count (``N3``), which the model introduces beside the loop's own test."""
    return any(k[0] == "v" and k[1][:1] == "N" and k[1][1:].isdigit() for k in m)


def _le(u, w, pos=_DIMS) -> bool:
    """u <= w for monomials with positive coefficients: equal, or the same names of ``pos`` (each >= 1: launch
    dimensions) times a coefficient no bigger."""
    (cu, mu), (cw, mw) = u, w
    if u == w:
        return True
    if cu > cw:
        return False
    if mu == mw:
        return _positive_names(mu, pos)
    return not mu and _positive_names(mw, pos)


def equal_parts(off_a: S, size_a: int, off_b: S, size_b: int, cond_a: S, cond_b: S, ranges: dict,
                positive=frozenset(), nonneg=frozenset()):
    """The bytes ``[off_a, off_a + size_a)`` (thread 1, under ``cond_a``) and ``[off_b, off_b + size_b)`` (thread 2,
    under ``cond_b``) overlap exactly when, in one of the returned alternatives, every pair ``(x, y)`` has
    x (thread 1) == y (thread 2). None when the offsets do not split into digits (then the caller compares them
    whole). ``positive``/``nonneg``: parameter names (``p:n``) taken as at least 1 / at least 0 (the caller
    asserts it), so a remainder by such a parameter is a digit."""
    if not (isinstance(size_a, int) and isinstance(size_b, int)) or size_a <= 0 or size_b <= 0:
        return None
    sp = _Split(ranges, positive, nonneg)
    off_a, off_b = sp.radix_normal(off_a), sp.radix_normal(off_b)
    pa, pb = sp.poly.of(off_a), sp.poly.of(off_b)
    if pa is None or pb is None or len(pa) > MAX_TERMS or len(pb) > MAX_TERMS:
        return None
    # both offsets g * X + c with 0 <= c and c + size <= g: the bytes overlap exactly when X == Y and the
    # constant parts' byte ranges overlap (fields of one element, a vector's lanes)
    g = math.gcd(*(c for m, c in pa.items() if m), *(c for m, c in pb.items() if m))
    if g <= 0:
        return None
    ca, cb = pa.get((), 0), pb.get((), 0)
    xa, xb = ca % g, cb % g
    if xa + size_a > g or xb + size_b > g:
        return None  # not within one g-byte element
    pa = _add({m: c // g for m, c in pa.items() if m}, {(): ca // g})
    pb = _add({m: c // g for m, c in pb.items() if m}, {(): cb // g})
    if not (xa < xb + size_b and xb < xa + size_a):
        return [[(sym.ZERO, sym.ONE)]]  # disjoint parts of every element
    sp.learn("a", cond_a)
    sp.learn("b", cond_b)
    alts = [sp.merge_divmod(pairs) for pairs in sp.equal(pa, pb)]
    if len(alts) > MAX_ALTERNATIVES:
        return None
    if alts == [[(pa, pb)]]:
        return None
    return [[(sp.poly.build(x), sp.poly.build(y)) for x, y in pairs] for pairs in alts]


def never(alts: list, ranges: dict, across_blocks: bool) -> bool:
    """No alternative of ``equal_parts`` can hold for two different threads: each has two different constants, or
    equates every thread index (and block index, for threads of any blocks) of the launch."""
    names = [f"t{f}" for f in "xyz"] + ([f"b{f}" for f in "xyz"] if across_blocks else [])
    for pairs in alts:
        if any(sym.is_const(x) and sym.is_const(y) and x.val != y.val for x, y in pairs):
            continue
        same = {x.val for x, y in pairs if x.op == "v" and y.op == "v" and x.val == y.val}
        if not all(n in same or ranges[("v", n)] == (1, ()) for n in names):
            return False
    return True
