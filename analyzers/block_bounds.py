"""The block a kernel's own shared arrays imply, for a kernel analyzed with no known block (``infer_block``)."""
from __future__ import annotations

from . import sym
from .launch import MAX_THREADS

_COMPARE = ("<", "<=", ">", ">=", "==")


def infer_block(km) -> dict:
    """For a kernel analyzed with no known block (``source`` none or launch_bounds): the bounds on its block that
    its own shared arrays imply, as {dim: (bound, why)}.

    Rule: a subscript of a shared array with a constant extent E whose index is ``threadIdx.f + c`` (in the
    symbolic interpreter's terms, so aliases such as ``int tx = threadIdx.x`` count; c a constant, or a linear term
    in the counters of loops with constant trip counts, taken at its largest) implies blockDim.f <= E - c: the
    author sized the array for the block they launch, so a larger block is not a configuration worth a finding.

    - It counts for a store (the array is filled at ``threadIdx.f + c``: the stores fit) and for a load at the
      thread's own index (c <= 0); a load past it (``s[t + 1]``, a neighbour) does not: an off-by-one lives there.
    - It does not count when the access's guard compares threadIdx.f (<, <=, >, >=, ==) with a value that does not
      depend on the block index (``if (tx < 16)``, ``if (tid >= n) return``): such code is written to tolerate
      larger blocks. A guard over a global index (``blockIdx.x * blockDim.x + threadIdx.x < n``) or over loaded data
      is no such check.
    - Of several such subscripts the smallest bound holds; a bound no stricter than the hardware limit (or
      ``__launch_bounds__``) is not kept.
    - ``__launch_bounds__(N)`` is the author's own word that blocks of N threads are launched: when no block of N
      threads fits within the bounds (over the dimensions the kernel uses), the declaration and the arrays disagree
      and nothing is inferred, so the out-of-bounds access is reported.
    """
    cfg = km.launch
    if cfg.source not in ("none", "launch_bounds") or any(v is not None for v in cfg.block):
        return {}
    best: dict = {}
    for a in km.accesses:
        if a.space != "shared" or a.base not in km.shared:
            continue
        for idx, extent in a.subs:
            f, lo, hi = _thread_plus_offset(idx, km.loop_trip)
            if f is None or not isinstance(extent, int) or (hi > 0 and not a.write) or _guards(a.cond, f"t{f}"):
                continue
            bound = extent - hi
            if 1 <= bound < min((MAX_THREADS, MAX_THREADS, 64)["xyz".index(f)], cfg.max_threads) and (
                    f not in best or bound < best[f][0]):
                off = "" if hi == 0 else f" + {hi}" if lo == hi else f" + up to {hi}"
                best[f] = (bound, f"`{a.base}[threadIdx.{f}{off}]` at line {a.loc.line}, extent {extent}")
    if cfg.source == "launch_bounds":  # the author declared blocks of max_threads threads: they must fit
        room = 1
        for f in km.dims_used or {"x"}:
            room *= best.get(f, (MAX_THREADS, ""))[0]
        if room < cfg.max_threads:
            return {}
    return best


def _thread_plus_offset(idx, trips: dict):
    """("x", lo, hi) for an index ``threadIdx.x + e`` (likewise y, z) where e is a constant or a linear term in the
    iteration counters of loops with a constant trip count (``tile[threadIdx.y + i]`` in ``for (i = 0; i < 32;
    i += 8)``), lo and hi its least and largest value; else (None, 0, 0)."""
    terms = _linear(idx)
    if terms is None:
        return None, 0, 0
    threads = [n for n in terms if n in ("tx", "ty", "tz")]
    if len(threads) != 1 or terms[threads[0]] != 1:
        return None, 0, 0
    lo = hi = terms.get(None, 0)
    for n, c in terms.items():
        if n in (None, threads[0]):
            continue
        trip = trips.get(n)
        trip = trip.val if isinstance(trip, sym.S) and sym.is_const(trip) else trip
        if not isinstance(trip, int) or trip < 1:
            return None, 0, 0
        lo, hi = lo + min(0, c * (trip - 1)), hi + max(0, c * (trip - 1))
    return threads[0][1], lo, hi


def _linear(e) -> dict | None:
    """{variable: coefficient, None: constant} of a sum of constant multiples of variables; None otherwise."""
    if e.op == "c":
        return {None: e.val} if isinstance(e.val, int) else None
    if e.op == "v":
        return {e.val: 1}
    if e.op in ("+", "-"):
        a, b = _linear(e.args[0]), _linear(e.args[1])
        if a is None or b is None:
            return None
        sign = 1 if e.op == "+" else -1
        return {n: a.get(n, 0) + sign * b.get(n, 0) for n in {*a, *b}}
    if e.op == "*":
        for x, y in (e.args, e.args[::-1]):
            if sym.is_const(x):
                t = _linear(y)
                return None if t is None else {n: x.val * c for n, c in t.items()}
    if e.op == "neg":
        t = _linear(e.args[0])
        return None if t is None else {n: -c for n, c in t.items()}
    return None


def _guards(cond, name: str) -> bool:
    """Whether ``cond`` compares the thread index variable ``name`` with something independent of the block
    index (loaded values, inside ``uf``, are not looked into)."""
    def names(e, out):
        if e.op == "v":
            out[e.val] = e.kind
        elif e.op != "uf":
            for x in e.args:
                names(x, out)
        return out

    def walk(e):
        if e.op == "uf":
            return False
        if e.op in _COMPARE:
            seen = names(e, {})
            if name in seen and "block" not in seen.values():
                return True
        return any(walk(x) for x in e.args)

    return walk(cond)
