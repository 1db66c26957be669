"""Symbolic integer expressions of the kernel model: construction with folding, concrete evaluation, substitution.

Variables carry a *kind* that says how they vary over the launch:
``thread`` (differs between threads: threadIdx, per-thread unknowns), ``iter`` (a loop's iteration number, per
thread), ``block`` (blockIdx), ``uniform`` (launch dimensions, kernel parameters, template values).
Values loaded from memory are uninterpreted functions of their address (``uf``), so two threads loading one
address see one value and a load from a uniform address is uniform.
"""
from __future__ import annotations

import hashlib
import itertools

_ids = itertools.count()  # fresh-name numbers; restarted per kernel (see reset_names)


class S:
    __slots__ = ("op", "args", "val", "kind", "_fv", "_fn", "_key", "_uf", "depth", "__weakref__")

    def __init__(self, op: str, args: tuple = (), val=None, kind: str = ""):
        self.op = op
        self.args = args
        self.val = val
        self.kind = kind
        self._fv = None
        self._fn = None
        self._key = None
        self._uf = None
        self.depth = 1 + max((a.depth for a in args), default=0)

    def __repr__(self) -> str:
        return show(self)

    # structural identity (used for benign-race checks and ite merging); cached: a value built from shared
    # subterms (`v3 = v0 + v2`, thousands of times over in an unrolled kernel) would otherwise be unfolded into a tree
    def key(self):
        k = self._key
        if k is None:
            if self.op == "c":
                k = ("c", self.val)
            elif self.op == "v":
                k = ("v", self.val)
            else:
                k = _Key((self.op, self.val, tuple(a.key() for a in self.args)))
            self._key = k
        return k


class _Key(tuple):
    """A compound node's structural key: a nested tuple whose hash is computed once, from its children's (a
    tuple's own hash walks every level again, each time it is put in a set or looked up)."""

    def __init__(self, parts):
        super().__init__()
        op, val, kids = parts
        self._hash = hash((op, val, tuple(hash(k) for k in kids)))

    def __hash__(self):
        return self._hash


_ORDER_LIMIT = 4096  # characters of a key's repr beyond which ``order`` gives a digest instead


def order(k) -> str:
    """A deterministic sort key for a node key (``S.key()``): its ``repr``, computed once per compound key. A key
    shares its children with other keys, so its repr can grow exponentially with its depth (a hash chain's products):
    where it would exceed _ORDER_LIMIT characters, a digest of its parts stands in, ordered after every repr. Below
    the limit the order is that of ``repr``."""
    if not isinstance(k, _Key):
        return repr(k)
    got = k.__dict__.get("_order")
    if got is None:
        op, val, kids = k
        parts = [order(c) for c in kids]
        if any(x.startswith("\x7f") for x in parts) or sum(map(len, parts)) > _ORDER_LIMIT:
            got = "\x7f" + hashlib.blake2b(repr((op, val, parts)).encode(), digest_size=16).hexdigest()
        else:
            got = f"({op!r}, {val!r}, ({', '.join(parts)}{',' if len(parts) == 1 else ''}))"
        k._order = got
    return got


def const(v) -> S:
    return S("c", (), v)


def var(name: str, kind: str) -> S:
    return S("v", (), name, kind)


def reset_names() -> None:
    """Number fresh names from 0 again. Each kernel's model is built with it, so a kernel's solver queries (whose
    search can depend on names) are the same whatever the process analyzed before."""
    global _ids
    _ids = itertools.count()


def opaque(reason: str, uniform: bool = False, kind: str | None = None) -> S:
    """An unknown value: the same in every thread (``uniform``), one per thread, or of ``kind`` ("iter": the same
    in every thread at one iteration of the loops around it)."""
    n = next(_ids)
    return S("v", (), f"{'uopq' if uniform else 'opq'}#{n}:{reason}", kind or ("uniform" if uniform else "thread"))


ZERO, ONE = const(0), const(1)


def is_const(e: S) -> bool:
    return e.op == "c" and isinstance(e.val, int)


def free_vars(e: S) -> dict:
    """name -> kind of every variable in ``e`` (cached)."""
    if e._fv is not None:
        return e._fv
    if e.op == "v":
        fv = {e.val: e.kind}
    elif not e.args:
        fv = {}
    else:
        fv = {}
        for a in e.args:
            fv.update(free_vars(a))
    e._fv = fv
    return fv


def divisors(e: S) -> list:
    """The non-constant divisors of the quotients and remainders in ``e`` (each once)."""
    return right_operands(e, ("/", "%"))


def right_operands(e: S, ops: tuple) -> list:
    """The non-constant right operands of the operations ``ops`` in ``e`` (each once): divisors, shift amounts."""
    out, seen, todo = {}, set(), [e]
    while todo:
        x = todo.pop()
        if id(x) in seen or not x.args:
            continue
        seen.add(id(x))
        if x.op in ops and not is_const(x.args[1]):
            out.setdefault(x.args[1].key(), x.args[1])
        todo += list(x.args)
    return list(out.values())


def operands(e: S, op: str):
    """The operands of a chain of ``op`` (``+``, ``*``, ``&&``) at the top of ``e``, flattened; ``e`` itself when it
    is no such chain."""
    if e.op == op:
        for x in e.args:
            yield from operands(x, op)
    else:
        yield e


def kinds(e: S) -> set:
    return set(free_vars(e).values())


def thread_dependent(e: S, iter_too: bool = True) -> bool:
    ks = kinds(e)
    return "thread" in ks or (iter_too and "iter" in ks)


def has_opaque(e: S) -> bool:
    return any(n.startswith(("opq#", "uopq#")) for n in free_vars(e))


def opaque_reasons(e: S) -> list[str]:
    return sorted({n.split(":", 1)[1] for n in free_vars(e) if n.startswith(("opq#", "uopq#"))})


def uf_names(e: S) -> frozenset:
    """The names of the uninterpreted functions (loads ``ld:ARRAY``, intrinsics) in ``e`` (cached, like
    ``free_vars``: a walk of the tree would unfold values that share subterms)."""
    if e._uf is None:
        own = {e.val} if e.op == "uf" else set()
        e._uf = frozenset(own.union(*(uf_names(a) for a in e.args)))
    return e._uf


def has_data(e: S) -> bool:
    return bool(uf_names(e))


def cheap(e: S, limit: int = 32) -> bool:
    """Whether ``e`` is small, integer-valued and linear: a term the solver handles quickly. Floating-point values
    (modelled as integer unknowns) and products of unknowns make nonlinear queries whose cost has no useful
    bound."""
    seen = 0

    def walk(x) -> bool:
        nonlocal seen
        seen += 1
        if seen > limit or (x.op == "c" and not isinstance(x.val, int)):
            return False
        if x.op in ("*", "/", "%") and not is_const(x.args[1]) and not (x.op == "*" and is_const(x.args[0])):
            return False
        return all(walk(a) for a in x.args)

    return walk(e)


_FOLD = {
    "+": lambda a, b: a + b, "-": lambda a, b: a - b, "*": lambda a, b: a * b,
    "/": lambda a, b: None if b == 0 else int(a / b) if (a < 0) != (b < 0) else a // b,
    "%": lambda a, b: None if b == 0 else a - b * (int(a / b) if (a < 0) != (b < 0) else a // b),
    "<<": lambda a, b: a << b if 0 <= b < 64 else None, ">>": lambda a, b: a >> b if 0 <= b < 64 else None,
    "&": lambda a, b: a & b, "|": lambda a, b: a | b, "^": lambda a, b: a ^ b,
    "<": lambda a, b: int(a < b), "<=": lambda a, b: int(a <= b), ">": lambda a, b: int(a > b),
    ">=": lambda a, b: int(a >= b), "==": lambda a, b: int(a == b), "!=": lambda a, b: int(a != b),
    "&&": lambda a, b: int(bool(a) and bool(b)), "||": lambda a, b: int(bool(a) or bool(b)),
    "min": min, "max": max,
}
BOOL_OPS = {"<", "<=", ">", ">=", "==", "!=", "&&", "||", "!"}


MAX_DEPTH = 200  # deeper values (thousands of chained floating-point operations) are opaque: no index is that deep


def _node(op: str, args: tuple) -> S:
    """A new node, or an opaque value of the same thread dependence when it would be deeper than ``MAX_DEPTH``
    (every walk over values recurses through their depth)."""
    e = S(op, args)
    if e.depth > MAX_DEPTH:
        return opaque("a value computed in more than 200 chained operations", uniform=not thread_dependent(e))
    return e


def binop(op: str, a: S, b: S) -> S:
    if is_const(a) and is_const(b):
        r = _FOLD[op](a.val, b.val)
        if r is not None:
            return const(r)
    if op == "+":
        if is_const(a) and a.val == 0:
            return b
        if is_const(b) and b.val == 0:
            return a
        if is_const(b) and a.op == "+" and is_const(a.args[1]):
            return binop("+", a.args[0], const(a.args[1].val + b.val))
        if is_const(a):
            return binop("+", b, a)
    elif op == "-":
        if is_const(b) and b.val == 0:
            return a
        if is_const(b):
            return binop("+", a, const(-b.val))
        if a.key() == b.key():
            return ZERO
    elif op == "*":
        for x, y in ((a, b), (b, a)):
            if is_const(x) and x.val == 0:
                return ZERO
            if is_const(x) and x.val == 1:
                return y
    elif op in ("/",):
        if is_const(b) and b.val == 1:
            return a
    elif op == "&&":
        for x, y in ((a, b), (b, a)):
            if is_const(x):
                return y if x.val else ZERO
    elif op == "||":
        for x, y in ((a, b), (b, a)):
            if is_const(x):
                return ONE if x.val else y
    elif op in ("==", "<=", ">=") and a.key() == b.key():
        return ONE
    elif op in ("!=", "<", ">") and a.key() == b.key():
        return ZERO
    if op in ("==", "!=", "<", "<=", ">", ">=") and (a.op in ("+", "-") or b.op in ("+", "-")):
        a, b = _cancel_terms(a, b)
    return _node(op, (a, b))


def _signed_terms(e: S, sign: int = 1) -> list:
    """The summands of ``e`` through ``+`` and ``-``, as (sign, term)."""
    if e.op == "+":
        return _signed_terms(e.args[0], sign) + _signed_terms(e.args[1], sign)
    if e.op == "-" and len(e.args) == 2:
        return _signed_terms(e.args[0], sign) + _signed_terms(e.args[1], -sign)
    return [(sign, e)]


def _cancel_terms(a: S, b: S) -> tuple:
    """Both sides of a comparison without the summands they share: ``t0 + tid + k*C < t1 + tid - 2*C`` (a loop that
    starts and ends at the thread's offset) is ``t0 + k*C < t1 - 2*C``, whose truth no longer reads the thread."""
    xs, ys = _signed_terms(a), _signed_terms(b)
    keys = [(sg, y.key()) for sg, y in ys]
    kept = []
    for sg, x in xs:
        if (sg, x.key()) in keys:
            i = keys.index((sg, x.key()))
            del ys[i], keys[i]
        else:
            kept.append((sg, x))
    if len(kept) == len(xs):
        return a, b

    def total(ts):
        out = ZERO
        for sg, t in ts:
            out = binop("+" if sg > 0 else "-", out, t)
        return out
    return total(kept), total(ys)


def unop(op: str, a: S) -> S:
    if is_const(a):
        return const({"neg": -a.val, "!": int(not a.val), "~": ~a.val}[op])
    if op == "!" and a.op == "!":
        return a.args[0]
    return _node(op, (a,))


def ite(c: S, a: S, b: S) -> S:
    if is_const(c):
        return a if c.val else b
    if a.key() == b.key():
        return a
    return _node("ite", (c, a, b))


def land(*xs: S) -> S:
    out = ONE
    for x in xs:
        out = binop("&&", out, x)
    return out


def uf(name: str, *args: S) -> S:
    return S("uf", tuple(args), name)


def geometric(mode: str, v0: S, step: S, k: S) -> S:
    """The value of an induction variable updated by ``>>=``/``/=`` (mode shr/div) or ``<<=``/``*=`` (shl/mul)."""
    if is_const(k) and is_const(v0) and is_const(step):
        return const(_geo(mode, v0.val, step.val, k.val))
    return S("geo", (v0, step, k), mode)


def _geo(mode, v0, step, k):
    v = v0
    for _ in range(max(k, 0)):
        if mode == "shr":
            v >>= step
        elif mode == "div":
            v = int(v / step) if step else 0
        elif mode == "shl":
            v <<= step
        else:
            v *= step
    return v


def subst(e: S, mapping: dict, memo: dict | None = None) -> S:
    """Replace variables named in ``mapping`` (name -> S)."""
    if memo is None:
        memo = {}
    if not mapping:
        return e
    fv = free_vars(e)
    if not any(n in mapping for n in fv):
        return e
    hit = memo.get(id(e))
    if hit is not None and hit[0] is e:
        return hit[1]
    r = mapping[e.val] if e.op == "v" else _rebuilt(e, tuple(subst(a, mapping, memo) for a in e.args))
    memo[id(e)] = (e, r)
    return r


def _rebuilt(e: S, args: tuple) -> S:
    """``e``'s operation over new arguments, folded and simplified as built."""
    if e.op in _FOLD:
        return binop(e.op, *args)
    if e.op in ("neg", "!", "~"):
        return unop(e.op, args[0])
    if e.op == "ite":
        return ite(*args)
    if e.op == "geo":
        return geometric(e.val, *args)
    return S(e.op, args, e.val, e.kind)


def under(e: S, cond: S) -> S:
    """``e`` with each conditional whose test is a conjunct of ``cond`` (or whose negation is) replaced by the arm
    that condition takes: ``idx = is_k ? g : g - n`` read where the path has passed ``is_k`` is ``g``. Only the
    index's arithmetic is looked through (sums, products, quotients, shifts, conditionals), not the values it reads
    nor bitwise mixing: a hash's table index built from thousands of terms is left as it is."""
    facts = list(operands(cond, "&&"))
    yes = {f.key() for f in facts}
    no = {f.args[0].key() for f in facts if f.op == "!"}
    memo: dict = {}

    def walk(x: S) -> S:
        if not x.args or x.op not in ("+", "-", "*", "/", "%", "<<", ">>", "neg", "ite"):
            return x
        hit = memo.get(id(x))
        if hit is not None:
            return hit
        if x.op == "ite" and x.args[0].key() in yes | no:
            r = walk(x.args[1] if x.args[0].key() in yes else x.args[2])
        else:
            args = tuple(walk(a) for a in x.args)
            r = x if all(a is b for a, b in zip(args, x.args)) else _rebuilt(x, args)
        memo[id(x)] = r
        return r
    return walk(e) if yes else e


class Unknown(Exception):
    pass


def evaluate(e: S, env: dict, memo: dict | None = None):
    """Concrete value of ``e`` under ``env`` (name -> int); None when some part is unknown (loads, unknowns)."""
    try:
        return _ev(e, env, {} if memo is None else memo)
    except (Unknown, ZeroDivisionError, OverflowError, ValueError):
        return None


def _ev(e: S, env: dict, memo: dict):
    r = memo.get(id(e))
    if r is not None:
        return r
    op = e.op
    if op == "c":
        if not isinstance(e.val, int):
            raise Unknown
        r = e.val
    elif op == "v":
        r = env.get(e.val)
        if r is None:
            raise Unknown
    elif op in _FOLD:
        a = _ev(e.args[0], env, memo)
        if op == "&&" and not a:
            r = 0
        elif op == "||" and a:
            r = 1
        else:
            b = _ev(e.args[1], env, memo)
            r = _FOLD[op](a, b)
            if r is None:
                raise Unknown
    elif op == "neg":
        r = -_ev(e.args[0], env, memo)
    elif op == "!":
        r = int(not _ev(e.args[0], env, memo))
    elif op == "~":
        r = ~_ev(e.args[0], env, memo)
    elif op == "ite":
        r = _ev(e.args[1], env, memo) if _ev(e.args[0], env, memo) else _ev(e.args[2], env, memo)
    elif op == "geo":
        v0, st, k = (_ev(a, env, memo) for a in e.args)
        if k > 64:
            raise Unknown
        r = _geo(e.val, v0, st, k)
    else:
        raise Unknown
    memo[id(e)] = r
    return r


_NAMES = {"tx": "threadIdx.x", "ty": "threadIdx.y", "tz": "threadIdx.z", "bx": "blockIdx.x", "by": "blockIdx.y",
          "bz": "blockIdx.z", "bdx": "blockDim.x", "bdy": "blockDim.y", "bdz": "blockDim.z", "gdx": "gridDim.x",
          "gdy": "gridDim.y", "gdz": "gridDim.z"}


def pretty_var(name: str) -> str:
    if name in _NAMES:
        return _NAMES[name]
    if name.startswith(("opq#", "uopq#")):
        return "<" + name.split(":", 1)[1] + ">"
    return name.split(":", 1)[-1]


def show(e: S) -> str:
    op = e.op
    if op == "c":
        return str(e.val)
    if op == "v":
        return pretty_var(e.val)
    if op == "uf":
        return f"{e.val.split(':', 1)[-1]}[{', '.join(show(a) for a in e.args)}]"
    if op == "ite":
        return f"({show(e.args[0])} ? {show(e.args[1])} : {show(e.args[2])})"
    if op == "geo":
        return f"{e.val}({show(e.args[0])}, {show(e.args[1])}, {show(e.args[2])})"
    if op in ("min", "max"):
        return f"{op}({show(e.args[0])}, {show(e.args[1])})"
    if len(e.args) == 1:
        return {"neg": "-", "!": "!", "~": "~"}[op] + show(e.args[0])
    return f"({show(e.args[0])} {op} {show(e.args[1])})"


def _cdiv(a, b):
    if b == 0:
        raise Unknown
    q = abs(a) // abs(b)
    return q if (a < 0) == (b < 0) else -q


def _cmod(a, b):
    return a - b * _cdiv(a, b)


def _shl(a, b):
    if not 0 <= b < 64:
        raise Unknown
    return a << b


def _shr(a, b):
    if not 0 <= b < 64:
        raise Unknown
    return a >> b


def _geo_rt(mode, v0, st, k):
    if k > 64 or k < 0:
        raise Unknown
    return _geo(mode, v0, st, k)


_RT = {"_cdiv": _cdiv, "_cmod": _cmod, "_shl": _shl, "_shr": _shr, "_geo": _geo_rt, "Unknown": Unknown}
_PYOP = {"+": "+", "-": "-", "*": "*", "&": "&", "|": "|", "^": "^", "<": "<", "<=": "<=", ">": ">",
         ">=": ">=", "==": "==", "!=": "!="}


def _code(e: S, names: dict) -> str:
    op = e.op
    if op == "c":
        if not isinstance(e.val, int):
            return "_unk()"
        return repr(e.val)
    if op == "v":
        if e.val not in names:
            names[e.val] = f"v{len(names)}"
        return names[e.val]
    a = [_code(x, names) for x in e.args]
    if op in _PYOP:
        r = f"({a[0]} {_PYOP[op]} {a[1]})"
        return f"int{r}" if op in BOOL_OPS else r
    if op == "/":
        return f"_cdiv({a[0]}, {a[1]})"
    if op == "%":
        return f"_cmod({a[0]}, {a[1]})"
    if op == "<<":
        return f"_shl({a[0]}, {a[1]})"
    if op == ">>":
        return f"_shr({a[0]}, {a[1]})"
    if op == "&&":
        return f"int(bool({a[0]}) and bool({a[1]}))"
    if op == "||":
        return f"int(bool({a[0]}) or bool({a[1]}))"
    if op in ("min", "max"):
        return f"{op}({a[0]}, {a[1]})"
    if op == "neg":
        return f"(-{a[0]})"
    if op == "!":
        return f"int(not {a[0]})"
    if op == "~":
        return f"(~{a[0]})"
    if op == "ite":
        return f"({a[1]} if {a[0]} else {a[2]})"
    if op == "geo":
        return f"_geo({e.val!r}, {a[0]}, {a[1]}, {a[2]})"
    return "_unk()"


def _unk():
    raise Unknown


def compiled(e: S):
    """A fast evaluator for ``e``: f(env) -> int, or None when unknown (cached on the node)."""
    if e._fn is not None:
        return e._fn
    names: dict = {}
    body = _code(e, names)
    binds = "".join(f"    {v} = env[{n!r}]\n" for n, v in names.items())
    src = f"def _f(env):\n{binds}    return {body}\n"
    ns = dict(_RT)
    ns["_unk"] = _unk
    exec(src, ns)
    raw = ns["_f"]

    def fn(env):
        try:
            return raw(env)
        except (Unknown, KeyError, ZeroDivisionError, OverflowError, ValueError, RecursionError):
            return None

    e._fn = fn
    return fn


_LANE_VARS = ("tx", "ty", "tz")


def compiled_lanes(cond: S, off: S):
    """A fast evaluator of an access over many threads: f(env, lanes) -> [(lane, offset)] for the (lane, tx, ty, tz)
    in ``lanes`` whose ``cond`` holds, or None when some value is unknown (as ``compiled``, evaluated in one
    generated loop instead of two calls per thread)."""
    names: dict = {}
    c, o = _code(cond, names), _code(off, names)
    binds = "".join(f"    {v} = env[{n!r}]\n" for n, v in names.items() if n not in _LANE_VARS)
    lane = ", ".join(names.get(n, f"_u{i}") for i, n in enumerate(_LANE_VARS))
    src = (f"def _f(env, lanes):\n{binds}    out = []\n    for _lane, {lane} in lanes:\n        if {c}:\n"
           f"            out.append((_lane, {o}))\n    return out\n")
    ns = dict(_RT)
    ns["_unk"] = _unk
    exec(src, ns)
    raw = ns["_f"]

    def fn(env, lanes):
        if not lanes:
            return []
        try:
            return raw(env, lanes)
        except (Unknown, KeyError, ZeroDivisionError, OverflowError, ValueError, RecursionError):
            return None

    return fn


def bounds(e: S, positive=frozenset()):
    """(lo, hi) of an expression whose variables are loop counters/trip counts (>= 0, or >= 1 when named in
    ``positive``); None parts unknown."""
    op = e.op
    if op == "c":
        return (e.val, e.val) if isinstance(e.val, int) else (None, None)
    if op == "v":
        if e.val in positive:
            return (1, None)
        return (0, None) if (e.val[:1] in ("k", "N") and e.val[1:].isdigit()) else (None, None)
    if op == "+":
        (a, b), (c, d) = bounds(e.args[0], positive), bounds(e.args[1], positive)
        return (None if a is None or c is None else a + c, None if b is None or d is None else b + d)
    if op == "*":
        (a, b), (c, d) = bounds(e.args[0], positive), bounds(e.args[1], positive)
        if a is not None and c is not None and a >= 0 and c >= 0:
            return (a * c, None if b is None or d is None else b * d)
        return (None, None)
    if op == "ite":
        (a, b), (c, d) = bounds(e.args[1], positive), bounds(e.args[2], positive)
        return (None if a is None or c is None else min(a, c), None if b is None or d is None else max(b, d))
    return (None, None)


def never_equal(x: S, y: S) -> bool:
    (a, b), (c, d) = bounds(x), bounds(y)
    return (b is not None and c is not None and b < c) or (d is not None and a is not None and d < a)
