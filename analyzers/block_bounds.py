"""The block a kernel's own code implies, for a kernel analyzed with no known block: the bounds its shared arrays
set (``infer_block``), and whether it takes its lane from threadIdx.x alone (``implied_block``)."""
from __future__ import annotations

from . import sym
from .launch import MAX_THREADS

_COMPARE = ("<", "<=", ">", ">=", "==")
_FLAT = "threadIdx.x + threadIdx.y * blockDim.x"  # a thread index over a 2-D block: bounds the block's threads
_HW = {"x": MAX_THREADS, "y": MAX_THREADS, "z": 64}
_DIM = {"tx": "x", "ty": "y", "tz": "z", _FLAT: "threads"}
_THREAD = {"x": "threadIdx.x", "y": "threadIdx.y", "z": "threadIdx.z", "threads": f"({_FLAT})"}


def implied_block(km) -> tuple[dict, str]:
    """(``infer_block``'s bounds, why blockDim.x is a whole number of warps, or ""): a kernel that reads threadIdx.y
    and takes its lane from threadIdx.x alone (``threadIdx.x % 32`` or ``& 31`` in an access or its guard), or
    reduces across a whole warp with an xor butterfly, is written for blocks whose x dimension is a whole number of
    warps (``block(32, 4)``): over a narrower x the "lane" would not be the thread's lane, nor a warp one row of
    threads (``LaunchConfig.lanes_in_x``)."""
    lane_use = _lane_use(km)
    why = ""
    if lane_use[0] is not None:
        why = "the kernel takes its lane as threadIdx.x % 32"
    elif "y" in km.dims_used and km.warp_allreduces:
        why = f"the kernel reduces across a whole warp at line {km.warp_allreduces[0].line}"
    return infer_block(km, lane_use), why


def infer_block(km, lane_use) -> dict:
    """For a kernel analyzed with no known block (``source`` none or launch_bounds): the bounds on its block that
    its own code implies, as {dim: (bound, why)}; ``lane_use``: ``_lane_use(km)``.

    Rule: a subscript of a shared array with a constant extent E whose index is ``k * threadIdx.f + c`` (in the
    symbolic interpreter's terms, so aliases such as ``int tx = threadIdx.x`` count; k >= 1 a constant, c a
    constant or a linear term in the counters of loops with constant trip counts, taken at its largest), the access
    w elements wide, implies k * (blockDim.f - 1) + c + w <= E: the author sized the array for the block they
    launch, so a larger block is not a configuration worth a finding. An access through a pointer into the array
    (no subscripts: ``ld_st_128bit(smem + 8 * tx, ...)``) is read the same way in bytes, over the array's size.

    - It counts for a store (the array is filled at ``k * threadIdx.f + c``: the stores fit) and for a load within
      the thread's own k elements (c + w <= k; for k = 1: c <= 0); a load past them (``s[t + 1]``, a neighbour) does
      not: an off-by-one lives there.
    - It does not count when the access's guard compares threadIdx.f (<, <=, >, >=, ==) with a value that does not
      depend on the block index (``if (tx < 16)``, ``if (tid >= n) return``): such code is written to tolerate
      larger blocks. A guard over a global index (``blockIdx.x * blockDim.x + threadIdx.x < n``) or over loaded data
      is no such check.
    - Of several such subscripts the smallest bound holds; a bound no stricter than the hardware limit (or
      ``__launch_bounds__``) is not kept.
    - ``__launch_bounds__(N)`` is the author's own word that blocks of N threads are launched: when no block of N
      threads fits within the bounds (over the dimensions the kernel uses), the declaration and the arrays disagree
      and nothing is inferred, so the out-of-bounds access is reported.
    - A row-major index over the block, ``W * threadIdx.y + threadIdx.x`` (W a multiple of threadIdx.x's
      coefficient), keeps a row of threads within W and the rows within E; ``threadIdx.x + threadIdx.y *
      blockDim.x``, the thread's index over a 2-D block, bounds the block's threads (``"threads"``).
    - A kernel that reads threadIdx.y and takes its lane as ``threadIdx.x % 32`` with no warp index from
      threadIdx.x (``threadIdx.x / 32``) is one warp across: blockDim.x <= 32 (``implied_block`` presumes it a whole
      number of warps besides).
    """
    cfg = km.launch
    if cfg.source not in ("none", "launch_bounds") or any(v is not None for v in cfg.block):
        return {}
    best: dict = {}
    for a in km.accesses:
        if a.space != "shared" or a.base not in km.shared:
            continue
        array = km.shared[a.base]
        if a.subs:  # the last subscript spans the access's width in elements
            spans = [(idx, extent, 1) for idx, extent in a.subs[:-1]] + [
                (a.subs[-1][0], a.subs[-1][1], max(1, a.size // max(1, array.elem)))]
            unit = ""
        elif isinstance(array.bytes, int):
            spans, unit = [(a.offset, array.bytes, a.size)], " bytes"
        else:
            continue
        for idx, extent, width in spans:
            ks, lo, hi = _thread_terms(idx, km.loop_trip)
            guarded = [n for n, f in _DIM.items() if f in ks or ("threads" in ks and n in ("tx", "ty"))]
            if not ks or not isinstance(extent, int) or (hi + width > min(ks.values()) and not a.write) or \
                    any(_guards(a.cond, n) for n in guarded):
                continue
            off = "" if hi == 0 else (f" + {hi}" if hi > 0 else f" - {-hi}") if lo == hi else f" + up to {hi}"
            at = " + ".join(f"{k} * {_THREAD[f]}" if k > 1 else _THREAD[f]
                            for f, k in sorted(ks.items(), key=lambda fk: -fk[1]))
            wide = f", {width}{unit or ' elements'} wide" if width > 1 else ""
            why = (f"`{a.base}[{at}{off}]`{' in bytes' if unit else ''} at line {a.loc.line}{wide}, "
                   f"extent {extent}{unit}")
            if len(ks) == 1:
                (f, k), = ks.items()
                bounds = {f: (extent - hi - width) // k + 1}
            elif set(ks) == {"x", "y"} and ks["x"] < ks["y"] and ks["y"] % ks["x"] == 0:
                # row-major over the block (``s[ty * W + tx]``): a row of threadIdx.x within W, the rows within E
                bx = (ks["y"] - hi - width) // ks["x"] + 1
                bounds = {"x": bx, "y": (extent - ks["x"] * (bx - 1) - hi - width) // ks["y"] + 1} if bx >= 1 else {}
            else:
                continue
            for f, bound in bounds.items():
                if 1 <= bound < min(_HW.get(f, MAX_THREADS), cfg.max_threads) and (
                        f not in best or bound < best[f][0]):
                    best[f] = (bound, why)
    lane, warp_index = lane_use
    if lane is not None and not warp_index and best.get("x", (MAX_THREADS, ""))[0] > 32:
        best["x"] = (32, f"`{lane.text}` at line {lane.loc.line} takes threadIdx.x % 32 as the lane, and no access "
                         f"takes a warp index from threadIdx.x: one warp across")
    if cfg.source == "launch_bounds":  # the author declared blocks of max_threads threads: they must fit
        room = 1
        for f in km.dims_used or {"x"}:
            room *= best.get(f, (MAX_THREADS, ""))[0]
        if min(room, best.get("threads", (MAX_THREADS, ""))[0]) < cfg.max_threads:
            return {}
    return best


def _thread_terms(idx, trips: dict):
    """({dim: k}, lo, hi) for an index ``k * threadIdx.x + ... + e`` (k >= 1 constants; "threads" for the thread's
    index over a 2-D block) where e is a constant or a linear term in the iteration counters of loops with a constant
    trip count (``tile[threadIdx.y + i]`` in ``for (i = 0; i < 32; i += 8)``), lo and hi its least and largest value;
    else ({}, 0, 0)."""
    terms = _linear(idx)
    if terms is None:
        return {}, 0, 0
    threads = {_DIM[n]: c for n, c in terms.items() if n in _DIM}
    if not threads or min(threads.values()) < 1 or ("threads" in threads and len(threads) > 1):
        return {}, 0, 0
    lo = hi = terms.get(None, 0)
    for n, c in terms.items():
        if n is None or n in _DIM:
            continue
        trip = trips.get(n)
        trip = trip.val if isinstance(trip, sym.S) and sym.is_const(trip) else trip
        if not isinstance(trip, int) or trip < 1:
            return {}, 0, 0
        lo, hi = lo + min(0, c * (trip - 1)), hi + max(0, c * (trip - 1))
    return threads, lo, hi


def _linear(e) -> dict | None:
    """{variable: coefficient, None: constant} of a sum of constant multiples of variables; None otherwise."""
    if _is_flat(e):
        return {_FLAT: 1}
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


def _is_flat(e) -> bool:
    """Whether ``e`` is the thread's index in a 2-D block, ``threadIdx.x + threadIdx.y * blockDim.x``."""
    def is_var(x, name):
        return x.op == "v" and x.val == name

    if e.op != "+":
        return False
    for t, row in (e.args, e.args[::-1]):
        if is_var(t, "tx") and row.op == "*" and any(
                is_var(p, "ty") and is_var(q, "bdx") for p, q in (row.args, row.args[::-1])):
            return True
    return False


def _guards(cond, name: str) -> bool:
    """Whether ``cond`` compares the thread index variable ``name`` with something independent of the block
    index (loaded values, inside ``uf``, are not looked into). A lower bound by a constant (``threadIdx.y > 0``
    before ``s[threadIdx.y - 1]``) leaves out the first threads, never the last: it is no such comparison."""
    def names(e, out):
        if e.op == "v":
            out[e.val] = e.kind
        elif e.op != "uf":
            for x in e.args:
                names(x, out)
        return out

    def lower_bound(e, negated: bool) -> bool:
        a, b = e.args
        below = (">", ">=") if not negated else ("<", "<=")
        above = ("<", "<=") if not negated else (">", ">=")
        return (e.op in below and a.op == "v" and a.val == name and sym.is_const(b)) or \
            (e.op in above and sym.is_const(a) and b.op == "v" and b.val == name)

    def walk(e, negated=False):
        if e.op == "uf":
            return False
        if e.op == "!":
            return walk(e.args[0], not negated)
        if e.op in _COMPARE:
            seen = names(e, {})
            if name in seen and "block" not in seen.values() and not lower_bound(e, negated):
                return True
        return any(walk(x, negated) for x in e.args)

    return walk(cond)


_LANE = {"%": 32, "&": 31}  # threadIdx.x % 32: the lane
_WARP = {"/": 32, ">>": 5}  # threadIdx.x / 32: a warp index


def _lane_use(km):
    """(the first access that takes threadIdx.x % 32 as a lane, whether any access takes a warp index from
    threadIdx.x: ``threadIdx.x / 32``, ``threadIdx.x >> 5``), for a kernel that reads threadIdx.y; (None, False)
    otherwise."""
    if "y" not in km.dims_used:
        return None, False
    lane, warp, seen = None, False, set()

    def visit(e, a) -> None:
        nonlocal lane, warp
        if id(e) in seen:
            return
        seen.add(id(e))
        if e.op in ("%", "&", "/", ">>") and e.args[0].op == "v" and e.args[0].val == "tx" and \
                sym.is_const(e.args[1]):
            if _LANE.get(e.op) == e.args[1].val:
                lane = lane or a
            warp = warp or _WARP.get(e.op) == e.args[1].val
        if e.op != "uf":
            for x in e.args:
                visit(x, a)

    for a in km.accesses:
        visit(a.offset, a)
        visit(a.cond, a)
    return lane, warp
