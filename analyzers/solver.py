"""Translation of symbolic expressions to z3, with per-thread renaming for the two-thread encoding."""
from __future__ import annotations

import contextlib
import functools
import gc

import z3

from . import sym
from .sym import BOOL_OPS, S

GEO_DEPTH = 24  # iterations modelled exactly for >>=, <<=, *=, /= induction variables


_ARITHMETIC = {"+", "-", "*", "/", "%", "min", "max", "&", "|", "^", "<<", ">>"}


class GaveUp(Exception):
    """A query ran out of its resource limit (z3 answered unknown)."""


BV_WIDTH = 64


def needs_bv(e: S) -> bool:
    """Bitwise operations other than shifts/masks by constants (e.g. XOR swizzles): encode with bit-vectors."""
    seen, todo = set(), [e]
    while todo:  # each shared subterm once: a hash chain's expression names its lower levels many times over
        n = todo.pop()
        if id(n) in seen:
            continue
        seen.add(id(n))
        if n.op in ("^", "|") or n.op == "&" and not (sym.is_const(n.args[1]) and (n.args[1].val & (n.args[1].val + 1)) == 0):
            return True
        if n.op in ("<<", ">>") and not sym.is_const(n.args[1]):
            return True
        todo.extend(n.args)
    return False


class Enc:
    """Translates expressions for one copy of a thread. ``suffix`` renames variables whose kind is in ``kinds``.
    ``bv``: 64-bit bit-vectors (C integer semantics, fast for XOR/AND swizzles) instead of mathematical integers.
    ``unsigned``: the kernel's unsigned integer parameters (never below 0)."""

    def __init__(self, suffix: str = "", kinds=("thread", "iter"), bv: bool = False, unsigned=frozenset()):
        self.suffix = suffix
        self.unsigned = unsigned
        self.kinds = set(kinds)
        self.bv = bv
        self.vars: dict[str, z3.ArithRef] = {}
        self.memo: dict[int, object] = {}
        self.side: list = []  # side conditions (e.g. bounds on geometric loop variables)

    def name(self, n: str, kind: str) -> str:
        return n + self.suffix if kind in self.kinds else n

    def var(self, n: str, kind: str):
        zn = self.name(n, kind)
        v = self.vars.get(zn)
        if v is None:
            v = self.vars[zn] = z3.BitVec(zn, BV_WIDTH) if self.bv else z3.Int(zn)
            counter = n[:1] in ("N", "k") and n[1:].isdigit()
            if counter:
                self.side.append(v >= 0)  # loop trip counts and iteration numbers
            low = 0 if n.startswith("p:") and n[2:] in self.unsigned else -(1 << 31)
            if self.bv:  # keep 64-bit arithmetic from wrapping: counters and values stay in C int ranges
                self.side.append(v < (1 << 24) if counter else z3.And(v >= low, v < (1 << 32)))
            elif n.startswith("p:"):  # kernel parameters are C integers
                self.side.append(z3.And(v >= low, v < (1 << 32)))
        return v

    def const(self, v: int):
        return z3.BitVecVal(v, BV_WIDTH) if self.bv else z3.IntVal(v)

    def sort(self):
        return z3.BitVecSort(BV_WIDTH) if self.bv else z3.IntSort()

    def int(self, e: S):
        r = self._tr(e)
        if isinstance(r, z3.BoolRef):
            return z3.If(r, self.const(1), self.const(0))
        return r

    def bool(self, e: S):
        r = self._tr(e)
        if isinstance(r, z3.BoolRef):
            return r
        return r != 0

    def _tr(self, e: S):
        hit = self.memo.get(id(e))
        if hit is not None and hit[0] is e:
            return hit[1]
        r = self._tr1(e)
        self.memo[id(e)] = (e, r)  # keeping e alive keeps its id unique
        return r

    def _tr1(self, e: S):
        op = e.op
        if op == "c":
            if isinstance(e.val, int):
                return self.const(e.val)
            return self.var(f"flt:{e.val}", "uniform")
        if op == "v":
            return self.var(e.val, e.kind)
        if op == "uf":
            f = z3.Function(e.val + (":bv" if self.bv else ""), *([self.sort()] * (len(e.args) + 1)))
            return f(*[self.int(a) for a in e.args]) if e.args else self.var(e.val, "uniform")
        if op == "ite":
            c = self.bool(e.args[0])
            a, b = self._tr(e.args[1]), self._tr(e.args[2])
            if isinstance(a, z3.BoolRef) and isinstance(b, z3.BoolRef):
                return z3.If(c, a, b)
            return z3.If(c, self.int(e.args[1]), self.int(e.args[2]))
        if op == "geo":
            return self._geo(e)
        if op in ("neg", "~"):
            a = self.int(e.args[0])
            return -a if op == "neg" else -a - 1
        if op == "!":
            return z3.Not(self.bool(e.args[0]))
        if op in ("&&", "||"):
            a, b = self.bool(e.args[0]), self.bool(e.args[1])
            return z3.And(a, b) if op == "&&" else z3.Or(a, b)
        if len(e.args) != 2 or op not in BOOL_OPS and op not in _ARITHMETIC:
            # an operator no front end should hand over: a value of its operands, not a crash of the pass
            f = z3.Function(f"op:{op}" + (":bv" if self.bv else ""), *([self.sort()] * (len(e.args) + 1)))
            return f(*[self.int(a) for a in e.args])
        a0, b0 = e.args
        if op in BOOL_OPS:
            a, b = self.int(a0), self.int(b0)
            return {"<": a < b, "<=": a <= b, ">": a > b, ">=": a >= b, "==": a == b, "!=": a != b}[op]
        a, b = self.int(a0), self.int(b0)
        if op == "+":
            return a + b
        if op == "-":
            return a - b
        if op == "*":
            return a * b
        if op == "/":
            return a / b  # bit-vectors: signed division, truncating like C
        if op == "%":
            return z3.SRem(a, b) if self.bv else a % b
        if op == "min":
            return z3.If(a <= b, a, b)
        if op == "max":
            return z3.If(a >= b, a, b)
        if self.bv:
            return {"&": lambda: a & b, "|": lambda: a | b, "^": lambda: a ^ b, "<<": lambda: a << b,
                    ">>": lambda: a >> b}[op]()
        if op in ("<<", ">>") and sym.is_const(b0) and 0 <= b0.val < 63:
            return a * (1 << b0.val) if op == "<<" else a / (1 << b0.val)
        if op == "&" and sym.is_const(b0) and b0.val > 0 and (b0.val & (b0.val + 1)) == 0:
            return a % (b0.val + 1)
        if op == "&" and sym.is_const(a0) and a0.val > 0 and (a0.val & (a0.val + 1)) == 0:
            return b % (a0.val + 1)
        # general bitwise: through 32-bit vectors (values assumed non-negative)
        x, y = z3.Int2BV(a, 32), z3.Int2BV(b, 32)
        r = {"&": lambda: x & y, "|": lambda: x | y, "^": lambda: x ^ y, "<<": lambda: x << y,
             ">>": lambda: z3.LShR(x, y)}[op]()
        return z3.BV2Int(r)

    def _geo(self, e: S):
        mode = e.val
        v0, st, k = (self.int(a) for a in e.args)
        step = e.args[1]
        if not sym.is_const(step):
            f = z3.Function(f"geo_{mode}" + (":bv" if self.bv else ""), *([self.sort()] * 4))
            return f(v0, st, k)
        s = step.val
        if self.bv and mode in ("shl", "shr") and 0 <= s < 31:
            # a shift by k*s at once: a barrel shifter is far smaller than a chain of GEO_DEPTH choices, which
            # nested (a stride halved inside a size doubled) bit-blasts into thousands of clauses
            if mode == "shl":
                self.side.append(z3.And(k >= 0, k < GEO_DEPTH))
                return v0 << (k * s)
            return v0 >> (k * s)
        vals = []
        cur = v0
        depth = GEO_DEPTH
        if sym.is_const(e.args[0]) and mode in ("shr", "div"):
            depth = min(GEO_DEPTH, abs(e.args[0].val).bit_length() + 2)
        elif mode in ("shr", "div"):
            depth = 13  # symbolic start (e.g. blockDim.x / 2 <= 512): enough halvings to reach zero
        for _ in range(depth):
            vals.append(cur)
            if mode == "shr" and self.bv:  # an arithmetic shift (C's >> of a signed value), far cheaper than a divider
                cur = cur >> s if 0 <= s < 31 else self.const(0)
            elif mode == "shr":
                cur = cur / (1 << s) if 0 <= s < 31 else self.const(0)
            elif mode == "div":
                cur = cur / s if s else self.const(0)
            elif mode == "shl" and self.bv:
                cur = cur << s if 0 <= s < 31 else cur
            elif mode == "shl":
                cur = cur * (1 << s) if 0 <= s < 31 else cur
            else:
                cur = cur * s
        if mode in ("shl", "mul"):
            self.side.append(z3.And(k >= 0, k < depth))
        out = vals[-1]
        for i in range(depth - 2, -1, -1):
            out = z3.If(k == i, vals[i], out)
        return out


@contextlib.contextmanager
def kernel_context():
    """A fresh z3 context (``fresh_context``) for one kernel's queries, with Python's cyclic garbage collector paused
    while they are built and solved. z3 numbers terms in creation order and gives a freed term's number to the next
    term it creates, and its search depends on those numbers: a term freed whenever the collector happens to run (any
    term held in a reference cycle) made a verdict depend on what the process had done before (the same file
    analyzed twice in one process spent 1,001,706 and 782,988 resource units on one query). Paused, terms are freed by
    reference counts only, at the same points on every run; the collector resumes when the kernel is done."""
    fresh_context()
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


@functools.cache
def _keep_freed_memory() -> None:
    """Each kernel's fresh z3 context allocates about 17 MB of tables. glibc serves blocks that large by mapping
    memory, and unmaps them when they are freed, so every kernel's context was mapped and page-faulted anew (a few
    milliseconds per kernel, more on a loaded machine). With the mapping and trimming thresholds raised, freed
    blocks stay in the process's heap for the next context. Done once, when a process first analyzes a kernel (not
    on import: a program that imports kopt and never analyzes keeps its allocator settings). Elsewhere (no glibc)
    nothing changes."""
    try:
        import ctypes

        libc = ctypes.CDLL("libc.so.6")
        libc.mallopt(-3, 32 << 20)  # M_MMAP_THRESHOLD (32 MB: the largest every glibc accepts)
        libc.mallopt(-1, 256 << 20)  # M_TRIM_THRESHOLD
    except (OSError, AttributeError):
        pass



def fresh_context() -> None:
    """Start a new z3 context (terms, declarations, their ids). z3's search depends on the order terms were created
    in its context, so each kernel gets its own: its verdict is the same whatever the process analyzed before.
    Terms of the previous context must not be used afterwards (each kernel's encodings live in its own Ctx)."""
    global _tainted, _bv_one_shot
    _keep_freed_memory()
    z3.z3._main_ctx = None  # z3.main_ctx() creates the next one on first use
    _tainted = _bv_one_shot = False
    _base_counts.clear()
    _term_products.clear()


ONE_SHOT_AFTER = 30_000  # resource units of one incremental bit-vector query after which the next are solved once


def one_shot(solver: z3.Solver) -> z3.Solver:
    """``solver`` marked for bit-vector queries. The kernel's are pushed on their solvers (z3's incremental SMT
    core) until one costs more than ``ONE_SHOT_AFTER`` units or runs out; from then on each is solved by a solver of
    its own that sees it once (its assertions, then the query), so z3 bit-blasts it and runs its SAT solver: on a
    sorting network's mask queries about a seventh of the units for the same verdict, while small queries (a few
    thousand units) stay cheaper pushed than bit-blasted anew. The switch depends only on the kernel's earlier
    queries: deterministic."""
    solver.one_shot = True
    return solver


def check(base: z3.Solver, *constraints, rlimit: int):
    """(model or None, resource units used): sat -> model, unsat -> None; raises GaveUp (with the units used in
    ``.spent``) when the query needs more than ``rlimit`` resource units.

    A resource limit, not a wall-clock timeout: z3 counts the same work for the same query on any machine and
    under any load, so verdicts never depend on how busy the CPU is. Queries run on ``base`` (its assertions, then
    the constraints pushed on top) until one of the kernel's queries runs out of resources; from then on each query
    is solved in a z3 context of its own (its terms translated there): in a context where a query ran out of
    resources, z3 can overrun the next query's limit by orders of magnitude (seen with nonlinear arithmetic:
    minutes for a limit worth a second). Which path a query takes depends only on the kernel's earlier queries, so
    verdicts stay deterministic. A model of a query's own context evaluates terms of the caller's (``model_int``)."""
    global _running, _tainted, _bv_one_shot
    products = _base_products(base) + _nonlinear_products(constraints)
    if products > MAX_PRODUCTS:
        exc = GaveUp(f"{products} products of unknowns, more than {MAX_PRODUCTS}: too nonlinear to solve")
        exc.spent = 0
        raise exc
    bits = getattr(base, "one_shot", False)
    one_shot = bits and _bv_one_shot
    if _tainted:
        ctx = _running = z3.Context()
        solver = z3.Solver(ctx=ctx)
        for c in base.assertions():
            solver.add(c.translate(ctx))
        constraints = [c.translate(ctx) for c in constraints]
    elif one_shot:
        ctx, solver = None, z3.Solver()
        solver.add(*base.assertions())
        _running = z3.main_ctx()
    else:
        ctx, solver = None, base
        _running = z3.main_ctx()
    # z3's Groebner-basis step for nonlinear integer arithmetic does not count its work against rlimit (a query
    # limited to 300,000 units ran for minutes): without it every step of the search is bounded
    solver.set("rlimit", rlimit, "smt.arith.nl.grobner", False)
    before = _rlimit_count(solver)
    if not one_shot:
        solver.push()
    try:
        solver.add(*constraints)
        r = solver.check()
        spent = _rlimit_count(solver) - before
        if bits and spent > ONE_SHOT_AFTER:
            _bv_one_shot = True
        if r == z3.sat:
            model = solver.model()
            return (_Model(model, ctx) if ctx is not None else model), spent
        if r == z3.unsat:
            return None, spent
        _tainted = True
        exc = GaveUp(solver.reason_unknown())
        exc.spent = spent
        raise exc
    finally:
        if not one_shot:
            solver.pop()


_tainted = False  # a query of the current kernel's context ran out of resources (reset by fresh_context)
_bv_one_shot = False  # the kernel's bit-vector queries are solved once each (``one_shot``; reset by fresh_context)
_base_counts: dict = {}  # id(base solver) -> (solver, its products of unknowns)


def _base_products(base: z3.Solver) -> int:
    got = _base_counts.get(id(base))
    if got is None or got[0] is not base:
        got = _base_counts[id(base)] = (base, _nonlinear_products(base.assertions()))
    return got[1]


# Nonlinear queries bigger than this are not sent to z3: some (products of long sums, as floating-point formulas
# modelled over the integers make) keep it busy for minutes inside a step that never checks its resource limit.
# A count of the query's terms, so giving up is as deterministic as the limit (every labeled-corpus query has
# fewer than 10).
MAX_PRODUCTS = 24


def _nonlinear_products(terms) -> int:
    """Distinct products of two or more non-constant factors in ``terms``.

    Each term's products are found once per context (the passes send the same condition terms in many queries)
    by a walk through z3's C API (the Python wrappers' ``children()`` build an object per node); the count is
    exactly what ``z3.is_mul`` with integer and bit-vector numerals excluded counts."""
    ids: set = set()
    for t in terms:
        i = t.get_id()
        hit = _term_products.get(i)
        if hit is None:  # the entry keeps the term alive, so its id names this term until fresh_context()
            hit = _term_products[i] = (t, _products_of(t))
        ids |= hit[1]
    return len(ids)


_term_products: dict = {}  # z3 term id -> (term, ids of the product nodes under it)


def _products_of(term) -> frozenset:
    ctx = term.ctx_ref()
    seen, out, todo = set(), set(), [term.as_ast()]
    while todo:
        a = todo.pop()
        i = _ast_id(ctx, a)
        if i in seen:
            continue
        seen.add(i)
        if _ast_kind(ctx, a) != _APP:
            continue
        k = _num_args(ctx, a)
        if not k:
            continue
        kids = [_arg(ctx, a, j) for j in range(k)]
        if _decl_kind(ctx, _app_decl(ctx, a)) == _MUL and sum(not _numeral(ctx, c) for c in kids) >= 2:
            out.add(i)
        todo.extend(kids)
    if _C.Z3_get_error_code(ctx) != z3.Z3_OK:  # the walk's calls are unchecked (below): an error shows here
        raise z3.Z3Exception("z3 error while counting products")
    return frozenset(out)


_C = z3.z3core
_APP, _MUL = z3.Z3_APP_AST, z3.Z3_OP_MUL
_NUMERAL_SORTS = (z3.Z3_INT_SORT, z3.Z3_BV_SORT)


def _unchecked(name: str):
    """z3's C function without z3py's error check after every call (a second foreign call each: half the walk's
    time). Falls back to the checked wrapper if z3py is built differently."""
    f = getattr(_C, name)
    try:
        return f.__defaults__[0].f
    except (TypeError, IndexError, AttributeError):
        return f


_ast_id, _ast_kind, _num_args, _arg = (_unchecked(n) for n in (
    "Z3_get_ast_id", "Z3_get_ast_kind", "Z3_get_app_num_args", "Z3_get_app_arg"))
_decl_kind, _app_decl, _is_numeral, _sort_kind, _sort = (_unchecked(n) for n in (
    "Z3_get_decl_kind", "Z3_get_app_decl", "Z3_is_numeral_ast", "Z3_get_sort_kind", "Z3_get_sort"))


def _numeral(ctx, a) -> bool:
    """An integer or bit-vector constant (z3.is_int_value / z3.is_bv_value)."""
    return bool(_is_numeral(ctx, a)) and _sort_kind(ctx, _sort(ctx, a)) in _NUMERAL_SORTS


_running = None  # the context of the query being solved (for interrupt)


def interrupt() -> None:
    """Stop the query being solved (it gives up). For a caller's own guard, such as a benchmark's deadline per
    file; the analyzers themselves bound every query by resource units only."""
    if _running is not None:
        try:
            _running.interrupt()
        except z3.Z3Exception:  # caught between two of z3's own steps (`push canceled`): the caller asks again
            pass


class _Model:
    """A model of a query's own context, evaluated on terms of the caller's context."""

    def __init__(self, model, ctx):
        self.model, self.ctx = model, ctx

    def eval(self, term, model_completion=False):
        return self.model.eval(term.translate(self.ctx), model_completion=model_completion)


_stats_key = _unchecked("Z3_stats_get_key")
_RLIMIT_KEY = ("rlimit count", b"rlimit count")  # the unchecked call gives bytes, the wrapper text


def _rlimit_count(solver: z3.Solver) -> int:
    """Resource units the solver has used (z3's deterministic work counter), read through the C API (z3py's
    statistics iterator builds every entry: a sixth of the solver side's time on small kernels)."""
    ctx = solver.ctx.ref()
    stats = _C.Z3_solver_get_statistics(ctx, solver.solver)
    _C.Z3_stats_inc_ref(ctx, stats)
    try:
        for i in range(_C.Z3_stats_size(ctx, stats)):
            if _stats_key(ctx, stats, i) in _RLIMIT_KEY:
                uint = _C.Z3_stats_is_uint(ctx, stats, i)
                return int(_C.Z3_stats_get_uint_value(ctx, stats, i) if uint else
                           _C.Z3_stats_get_double_value(ctx, stats, i))
        return 0
    finally:
        _C.Z3_stats_dec_ref(ctx, stats)


def model_int(model, v) -> int | None:
    try:
        x = model.eval(v, model_completion=True)
        return x.as_signed_long() if z3.is_bv_value(x) else x.as_long()
    except Exception:
        return None
