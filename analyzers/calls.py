"""What the model builder knows about CUDA's built-in functions: barriers, atomics, shuffles, cooperative groups,
cuda::barrier / pipelines, async copies. Returns ``NotImplemented`` for anything else (then helpers are inlined)."""
from __future__ import annotations

import re

from . import sym
from .launch import MAX_THREADS, evaluate
from .model import Ptr
from .sym import ZERO, binop, const, opaque, unop
from .values import Agg, Mem, same_struct

ATOMICS = re.compile(r"^atomic(Add|Sub|Exch|Min|Max|Inc|Dec|CAS|And|Or|Xor)(_block|_system)?$")
WARP_VALUE = {"__shfl_sync", "__shfl_up_sync", "__shfl_down_sync", "__shfl_xor_sync", "__ballot_sync", "__all_sync",
              "__any_sync", "__match_any_sync", "__reduce_add_sync", "__reduce_max_sync", "__reduce_min_sync",
              "__activemask", "__shfl", "__shfl_down", "__shfl_up", "__shfl_xor", "clock64", "clock", "__ballot",
              "__all", "__any"}
# results every lane of a warp shares: votes (also the pre-CUDA 9 ones without a mask) and warp reductions; a
# broadcast shuffle from a lane all agree on
WARP_SAME = {"__ballot_sync", "__all_sync", "__any_sync", "__ballot", "__all", "__any", "__reduce_add_sync", "__reduce_max_sync",
             "__reduce_min_sync", "__reduce_and_sync", "__reduce_or_sync", "__reduce_xor_sync"}
BROADCAST = {"__shfl_sync": 2, "__shfl": 1}  # name -> position of the source-lane argument
BLOCK_VOTE = {"__syncthreads_count", "__syncthreads_and", "__syncthreads_or"}
NOTHING = {"__threadfence_block", "printf", "__nanosleep",
           "__trap", "__brkpt", "__prefetch_global_l1", "__prefetch_global_l2"}
LOADS = {"__ldg", "__ldcg", "__ldcs", "__ldlu", "__ldca", "__ldcv"}
STORES = {"__stcg", "__stcs", "__stwb", "__stwt"}


# The table: each built-in is one handler ``(builder, call node, qualified name, short name) -> value``, found by its
# short name (EXACT) or, for families, by a test of the names (PATTERNS); a handler returns NotImplemented when the
# call is not the form it knows (a family's handler, then the object's methods, may take it). ``handle_call`` returns
# NotImplemented for a call nothing takes (then the builder inlines it as a helper function).
EXACT: dict = {}
PATTERNS: list = []  # (test(name, short) -> bool, handler), tried in order after EXACT


def intrinsic(*names, test=None):
    """Register the decorated handler for ``names`` (exact short names) or for the names ``test`` accepts."""
    def register(fn):
        for name in names:
            EXACT[name] = fn
        if test is not None:
            PATTERNS.append((test, fn))
        return fn
    return register


def handle_call(b, n, name: str, short: str):
    handler = EXACT.get(short)
    if handler is not None and (r := handler(b, n, name, short)) is not NotImplemented:
        return r
    for test, handler in PATTERNS:
        if test(name, short) and (r := handler(b, n, name, short)) is not NotImplemented:
            return r
    return _method(b, n, short) if n.a is not None else NotImplemented


def _read_args(b, n):
    for a in n.args:
        b.rval(a)


# ---- barriers, votes, fences, warp values
@intrinsic("__syncthreads", "__barrier_sync")
def _syncthreads(b, n, name, short):
    b.barrier("block", n)
    return None


# a barrier of a library whose header kopt has not (`nvshmemx_barrier_all_block()`, `nvshmem_sync_all()`): it orders
# the block's threads like `__syncthreads()`; whether every thread must reach it is the library's rule, unchecked
_LIBRARY_BARRIER = re.compile(r"(?:^|_)(?:barrier|sync)(?:_|$)|[a-z](?:Barrier|Sync)(?:[A-Z_]|$)")


@intrinsic(test=lambda name, short: _LIBRARY_BARRIER.search(short) is not None)
def _library_barrier(b, n, name, short):
    if short not in b.unit.opaque_names:
        return NotImplemented
    _read_args(b, n)
    b.barrier("block", n, checked=False)
    return None


@intrinsic(*BLOCK_VOTE)
def _block_vote(b, n, name, short):
    _read_args(b, n)
    b.barrier("block", n)
    return _same_in_block(short)  # one value per block: two blocks' counts may differ


@intrinsic("__kopt_assert", "assert", "__builtin_assume")
def _assert(b, n, name, short):
    """An assertion (``assert(blockDim.x == CTA_SIZE)``): a thread goes on only where it holds (a failed one traps the
    whole grid: no thread goes on), so it is a fact of every thread that reaches it, not a branch some threads take.
    Inside a loop it is left out (a fact names no iteration)."""
    if len(n.args) != 1:
        return NotImplemented
    held = b.cond_val(n.args[0])
    if not b.loop_stack:
        b.model.facts.append(binop("||", unop("!", b.st.cond), held))
    return None


@intrinsic("__syncwarp")
def _syncwarp(b, n, name, short):
    _read_args(b, n)
    b.barrier("warp", n)
    return None


@intrinsic(*NOTHING)
def _no_effect(b, n, name, short):
    _read_args(b, n)
    return None


@intrinsic("__threadfence", "__threadfence_system")
def _device_fence(b, n, name, short):
    """A device-wide fence: recorded for the last-block pattern (races: ``_last_block``)."""
    b.async_op("fence", n)
    return None


@intrinsic(*WARP_VALUE)
def _warp_intrinsic(b, n, name, short):
    return _warp_value(b, short, [b.rval(a) for a in n.args], n.args)


# ---- memory: atomics, byte ranges, cuRAND state, cache-hinted loads and stores, address conversions
@intrinsic(test=lambda name, short: ATOMICS.match(short) is not None)
def _atomic(b, n, name, short):
    m, args = ATOMICS.match(short), n.args
    p = b.rval(args[0]) if args else None
    vals = [b.rval(a) for a in args[1:]]
    if isinstance(p, Ptr):
        b._rec_access(Mem(p, p.elem), True, n, atomic=True)
        step = vals[0] if vals else None
        if m.group(1) in ("Add", "Sub", "Inc") and isinstance(step, sym.S) and sym.is_const(step) and step.val \
                and not sym.thread_dependent(p.off) and m.group(2) is None:
            # a counter at one address hands every thread a different old value (slot reservation)
            slot = f"uniq#{next(sym._ids)}:{short} slot"
            if p.space in ("shared", "global") and (
                    m.group(1) == "Inc" or (m.group(1) == "Add" and isinstance(step.val, int) and step.val > 0)):
                b.model.counters[slot] = (p.space, p.base, p.off.key())
                b.model.slot_steps[slot] = 1 if m.group(1) == "Inc" else step.val
                b.model.counter_steps.add(b.model.accesses[-1].seq)
            return sym.var(slot, "thread")
    return opaque(f"{short} result")


# CUDA 12.8's atomics with an order and a scope: each read-modify-write is the classic atomic of its operation (its
# old value, a constant step's distinct slots, a ticket); loads and stores are atomic accesses. Orders and scopes
# are not modelled: every atomic is atomic at device scope, as the classic functions are read.
NV_ATOMIC_RMW = {"add": "Add", "sub": "Sub", "min": "Min", "max": "Max", "and": "And", "or": "Or", "xor": "Xor",
                 "exchange_n": "Exch", "exchange": "Exch", "compare_exchange_n": "CAS", "compare_exchange": "CAS"}


@intrinsic(test=lambda name, short: short.startswith("__nv_atomic_") and short != "__nv_atomic_thread_fence")
def _nv_atomic(b, n, name, short):
    op = short[len("__nv_atomic_"):].removeprefix("fetch_")
    if op in NV_ATOMIC_RMW:
        return _atomic(b, n, name, "atomic" + NV_ATOMIC_RMW[op])
    if op not in ("load_n", "load", "store_n", "store") or not n.args:
        return NotImplemented
    p = b.rval(n.args[0])
    vals = [b.rval(a) for a in n.args[1:]]
    if isinstance(p, Ptr):
        value = vals[0] if op == "store_n" and vals and isinstance(vals[0], sym.S) else None
        b._rec_access(Mem(p, p.elem), op.startswith("store"), n, atomic=True, value=value)
    out = n.args[1] if op == "load" and len(n.args) > 1 else None
    if out is not None and out.kind == "un" and out.op == "&" and out.a is not None:
        lv = b.lval(out.a)  # __nv_atomic_load(p, &v, ...): v holds the value read
        if lv is not None:
            b.store(lv, opaque(f"{short} result"), n)
    return opaque(f"{short} result") if op == "load_n" else None


@intrinsic("__nv_atomic_thread_fence")
def _nv_fence(b, n, name, short):
    """A fence of device or system scope is ``__threadfence()``; of thread, block or cluster scope it orders nothing
    between the grid's blocks (``__threadfence_block()``)."""
    scope = [b.rval(a) for a in n.args][1:2]
    if not scope or not (sym.is_const(scope[0]) and scope[0].val <= 2):
        b.async_op("fence", n)
    return None


@intrinsic("memcpy", "memset")
def _memcpy_call(b, n, name, short):
    return _memcpy(b, n, short, n.args) if len(n.args) == 3 else NotImplemented


def _block_generator(b, arg, state) -> bool:
    """Whether a cuRAND call's state is an MTGP32 state: by its type, or (the fallback has no types) by the kernel
    parameter it points into."""
    if arg.ty is not None:
        return "Mtgp32" in (arg.ty.pointee or arg.ty.spelling)
    return isinstance(state, Ptr) and any(name == state.base and "Mtgp32" in (ti.pointee or ti.spelling)
                                          for name, ti in b.func.params)


@intrinsic(test=lambda name, short: short.startswith("curand"))
def _curand(b, n, name, short):
    """A generator call reads and advances the state it points to. The draws of a thread's own state are a function
    of what ``curand_init`` seeded it with and of how many draws came before: threads that seed alike (the block
    index as the subsequence) draw alike, as the generator guarantees. An MTGP32 state is the block's by design
    (each thread of a round draws its own element of it): its calls are not accesses of the state."""
    if not n.args:
        return NotImplemented
    vals = [b.rval(a) for a in n.args]
    state = vals[-1] if short == "curand_init" else vals[0]
    if _block_generator(b, n.args[-1] if short == "curand_init" else n.args[0], state):
        return opaque(f"{short} result")
    if isinstance(state, Ptr):
        m = Mem(state, state.elem or 4)
        b._rec_access(m, False, n, via="curand")
        b._rec_access(m, True, n, via="curand")
    own = state.base if isinstance(state, Ptr) and state.space == "local" else \
        state.name if isinstance(state, Agg) and state.kind == "struct" and not state.uniform else None
    if short == "curand_init":
        if own is not None:  # (a state in memory is not followed: its draws stay unknown, one per thread)
            seeded = len(vals) == 4 and all(isinstance(v, sym.S) for v in vals[:3])
            b.curand_seeds[own] = [tuple(vals[:3]), 0] if seeded else None
        return None
    seed = b.curand_seeds.get(own) if own is not None else None
    if seed is None:
        return opaque(f"{short} result")
    seed[1] += 1  # (a draw inside a loop is read once; the loops' iterations tell its draws apart)
    return sym.uf(f"{short} draw {seed[1]}", *seed[0], *b.iterations())


@intrinsic(*LOADS)
def _hinted_load(b, n, name, short):
    if not n.args:
        return NotImplemented
    p = b.rval(n.args[0])
    return b.load(Mem(p, p.elem), n) if isinstance(p, Ptr) else opaque(short)


@intrinsic(*STORES)
def _hinted_store(b, n, name, short):
    if len(n.args) < 2:
        return NotImplemented
    p, v = b.rval(n.args[0]), b.rval(n.args[1])
    if isinstance(p, Ptr):
        b._rec_access(Mem(p, p.elem), True, n, value=v if isinstance(v, sym.S) else None)
    return None


@intrinsic("__cvta_generic_to_shared", "__cvta_generic_to_global")
def _to_address(b, n, name, short):
    if not n.args:
        return NotImplemented
    p = b.rval(n.args[0])
    return Ptr(p.space, p.base, p.off, 1, (), p.subs, p.volatile, True) if isinstance(p, Ptr) else opaque("address")


@intrinsic("__cvta_shared_to_generic")
def _to_generic(b, n, name, short):
    return b.rval(n.args[0]) if n.args else NotImplemented


# ---- arithmetic the index analysis must see through
@intrinsic("min", "max", "umin", "umax", "llmin", "llmax", "imin", "imax", "fminf", "fmaxf", "fmin", "fmax")
def _min_max(b, n, name, short):
    if len(n.args) != 2:
        return NotImplemented
    if short.startswith("f") and not all(a.ty.integral if a.ty is not None else a.kind == "lit" and
                                         isinstance(a.val, int) for a in n.args):
        return NotImplemented  # only `fminf(n - start, 64)` of integer operands: a count capped as `min` caps it
    x, y = b.rval(n.args[0]), b.rval(n.args[1])
    if isinstance(x, sym.S) and isinstance(y, sym.S):
        return binop("max" if "max" in short else "min", x, y)
    return opaque(short)


BIT_COUNTS = {"__ffs": 32, "__ffsll": 64, "__popc": 32, "__popcll": 64, "__clz": 32, "__clzll": 64}


@intrinsic(*BIT_COUNTS)
def _bit_count(b, n, name, short):
    """A bit position or bit count: computed for a constant, else an unknown within [0, width] (a loop bounded by
    ``__ffs(stride)`` runs at most 32 times), the same for every thread when the argument is."""
    if len(n.args) != 1:
        return NotImplemented
    x = b.rval(n.args[0])
    width = BIT_COUNTS[short]
    if isinstance(x, sym.S) and sym.is_const(x):
        v = x.val & ((1 << width) - 1)
        if short.startswith("__ffs"):
            return const((v & -v).bit_length())
        if short.startswith("__popc"):
            return const(bin(v).count("1"))
        return const(width - v.bit_length())
    uniform = isinstance(x, sym.S) and sym.kinds(x) <= {"uniform"}
    return binop("min", binop("max", opaque(f"{short} result", uniform=uniform), ZERO), const(width))


@intrinsic("__mul24", "__umul24")
def _mul24(b, n, name, short):  # 24-bit multiply: a product of indices, not data
    if len(n.args) != 2:
        return NotImplemented
    return binop("*", b.ival(n.args[0]), b.ival(n.args[1]))


@intrinsic("move", "forward")
def _move(b, n, name, short):
    return b.eval(n.args[0]) if n.args else NotImplemented


@intrinsic("__ctor__")
def _constructor(b, n, name, short):
    if name.startswith("cub::"):
        return NotImplemented  # a CUB collective (below)
    ctor = b.specialization(b.unit.funcs.get(name), n) if "::" in name else None
    if ctor is not None:  # the class's own constructor: run it on a new object
        obj = Agg("struct", name.removesuffix("::__ctor__"))
        obj.cls = (obj.name, b.class_args(ctor, n))
        b.inline(ctor, n, this=obj)
        return obj
    vals = [b.rval(a) for a in n.args]
    if len(vals) == 1 and isinstance(vals[0], (sym.S, Ptr)):
        return vals[0]
    if len(vals) == 1 and isinstance(vals[0], Agg) and vals[0].kind.startswith("cg_"):
        return vals[0]  # a copy of a group handle (passed by value to a helper) is the same group
    if len(vals) == 1 and isinstance(vals[0], Agg) and vals[0].kind == "struct" and n.ty is not None and \
            same_struct(n.args[0].ty, n.ty):
        # a copy of a struct (`return it;` and by-value arguments construct one): its fields
        v = vals[0]
        return v if v.uniform else v.copy(v.name)
    return Agg("struct", "ctor")


# ---- cooperative groups
@intrinsic("this_thread_block", "this_grid", "this_cluster")
def _group_handle(b, n, name, short):
    return Agg({"this_thread_block": "cg_block", "this_grid": "cg_grid", "this_cluster": "cg_cluster"}[short])


@intrinsic("tiled_partition", "coalesced_threads")
def _tile(b, n, name, short):
    parent = [b.rval(a) for a in n.args][:1]
    # the tile of a tile (`tiled_partition<4>(warp)`): its meta group is the parent tile's
    within = parent[0].size if parent and isinstance(parent[0], Agg) and parent[0].kind == "cg_tile" else None
    size = None
    if n.targs:
        size = evaluate(n.targs[0], b.macros)
        if size is None and n.targs[0].strip() in b.tbind and sym.is_const(b.tbind[n.targs[0].strip()]):
            size = b.tbind[n.targs[0].strip()].val
    elif len(n.args) == 2:
        v = b.ival(n.args[1])
        size = v.val if sym.is_const(v) else None
    return Agg("cg_tile", size=size or 32, fields={"within": within} if within else None)


@intrinsic("sync", "synchronize")
def _free_group_sync(b, n, name, short):
    if n.a is not None or not n.args:
        return NotImplemented
    return _group_sync(b, b.rval(n.args[0]), n)


@intrinsic("wait", "wait_prior")
def _cg_wait(b, n, name, short):
    if n.a is not None or not n.args or "cooperative_groups" not in name:
        return NotImplemented
    b.rval(n.args[0])
    depth = 0
    if short == "wait_prior" and n.targs:
        depth = evaluate(n.targs[0], b.macros) or 0
    b.async_op("wait", n, n=const(depth))
    return None


@intrinsic("memcpy_async")
def _memcpy_async(b, n, name, short):
    vals = [b.rval(a) for a in n.args]
    ptrs = [v for v in vals if isinstance(v, Ptr)]
    size = next((v for v in vals[len(ptrs):] if isinstance(v, sym.S)), None)
    if ptrs:
        b.async_op("cp_async", n, ptr=ptrs[0], size=size.val if size is not None and sym.is_const(size) else None)
    return None


@intrinsic("reduce", "inclusive_scan", "exclusive_scan")
def _cg_collective(b, n, name, short):
    if "cooperative_groups" not in name and not name.startswith("cg::"):  # (`cg`: tree-sitter reads no aliases)
        return NotImplemented
    vals = [b.rval(a) for a in n.args]
    g = vals[0] if vals else None
    if short == "reduce" and isinstance(g, Agg) and g.kind == "cg_tile":
        return same_in_group(b, "cg::reduce", g.size or 32)
    return opaque(f"cg::{short} result")


@intrinsic("init")
def _barrier_init(b, n, name, short):
    if len(n.args) != 2 or "cuda" not in name:
        return NotImplemented
    b.rval(n.args[0])
    b.rval(n.args[1])
    return None


def _barrier_object(n) -> bool:
    """The expression is a cuda::barrier (or a reference to one: a helper's ``cuda::barrier<...> &bar`` parameter
    evaluates to its value, not to the object)."""
    ty = getattr(n, "ty", None)
    spelling = (ty.spelling if ty is not None else "").replace(" ", "")
    return "cuda::barrier<" in spelling or "cuda::std::barrier<" in spelling or spelling.startswith("barrier<")


def _method(b, n, short):
    """A method call on a cooperative group, a cuda::barrier or a pipeline; NotImplemented for any other (the
    object is not read: a member function inlined on it reads what it reads)."""
    o = b.eval(n.a)
    if isinstance(o, Agg) and o.kind.startswith("cg_"):
        return _group_method(b, o, short, n)
    # (an object of a class of the program's own with a `wait()` member: inlined, not a barrier)
    if short in ("arrive_and_wait", "wait", "arrive", "arrive_and_drop") and (
            _barrier_object(n.a) or isinstance(o, (Agg, Mem)) and b._method(n) is None):
        _read_args(b, n)
        if short in ("arrive_and_wait", "wait"):
            b.barrier("cuda::barrier", n)
            return None
        return Agg("token")
    if short == "producer_commit":
        b.async_op("commit", n)
        return None
    if short == "consumer_wait":
        b.async_op("wait", n, n=ZERO)
        return None
    if short in ("producer_acquire", "consumer_release"):
        return None
    return NotImplemented


# ---- Ampere pipeline primitives and Hopper helpers
@intrinsic("__pipeline_memcpy_async")
def _pipeline_memcpy(b, n, name, short):
    if len(n.args) < 3:
        return NotImplemented
    d, _src, sz = b.rval(n.args[0]), b.rval(n.args[1]), b.ival(n.args[2])
    if isinstance(d, Ptr):
        b.async_op("cp_async", n, ptr=d, size=sz.val if sym.is_const(sz) else None)
    return None


@intrinsic("__pipeline_commit")
def _pipeline_commit(b, n, name, short):
    b.async_op("commit", n)
    return None


@intrinsic("__pipeline_wait_prior", "pipeline_consumer_wait_prior")
def _pipeline_wait(b, n, name, short):
    args = n.args
    depth = b.ival(args[0]) if (args and short == "__pipeline_wait_prior") else None
    if depth is None and n.targs:
        v = evaluate(n.targs[0], b.macros)
        depth = const(v) if v is not None else opaque("wait depth", uniform=True)
    for a in args[1:] if short == "__pipeline_wait_prior" else args:
        b.rval(a)
    b.async_op("wait", n, n=depth if depth is not None else ZERO)
    return None


@intrinsic(test=lambda name, short: "fence_proxy_async" in short)
def _fence_proxy_async(b, n, name, short):
    b.async_op("fence_proxy", n)
    return None


@intrinsic(test=lambda name, short: short.startswith(("cp_async_bulk_tensor", "cp_async_bulk_global_to_shared")))
def _bulk_copy(b, n, name, short):
    vals = [b.rval(a) for a in n.args]
    ptrs = [v for v in vals if isinstance(v, Ptr)]
    if "global_to_shared" in short and ptrs:
        bar = next((v for v in vals[1:] if isinstance(v, (Ptr,))), None)
        b.async_op("tma_load", n, ptr=ptrs[0], mbar=bar)
    elif "shared_to_global" in short:
        b.async_op("tma_store", n, ptr=next((p for p in ptrs if p.space == "shared"), None))
    return None


def _memcpy(b, n, short, args):
    """``memcpy(dst, src, bytes)`` / ``memset(dst, v, bytes)``: one access of the whole byte range at each pointer
    (the first element's bytes when the count is not a constant)."""
    dst, src, count = b.rval(args[0]), b.rval(args[1]), b.ival(args[2])
    for p, write in ((dst, True), (src, False) if short == "memcpy" else (None, False)):
        if isinstance(p, Ptr):
            size = count.val if sym.is_const(count) and count.val > 0 else (p.elem or 1)
            b._rec_access(Mem(p, size), write, n, via=short)
    return dst if isinstance(dst, Ptr) else None


def same_in_group(b, what: str, size: int, *keys):
    """A value every thread of its group of ``size`` consecutive threads shares (and other groups may not): an
    uninterpreted function of the group's index, so two lanes storing it store the same value."""
    return sym.uf(f"{what}#{next(sym._ids)}", binop("/", b.linear_tid(), const(size)), *keys)


def _warp_value(b, short, vals, args):
    width = 32
    if short.startswith("__shfl"):
        # a value every lane holds alike (a constant, a parameter) reads the same from whichever lane it comes
        v = vals[1 if short.endswith("_sync") else 0] if len(vals) > 1 else None
        if isinstance(v, sym.S) and not (sym.kinds(v) & {"thread", "iter"}):
            return v
    if short in BROADCAST and len(args) > BROADCAST[short]:
        lane = vals[BROADCAST[short]]
        if len(vals) > BROADCAST[short] + 1 and isinstance(vals[-1], sym.S) and sym.is_const(vals[-1]):
            width = vals[-1].val or 32
        if isinstance(lane, sym.S) and not (sym.kinds(lane) & {"thread", "iter"}) and 0 < width <= 32:
            return same_in_group(b, short, width, lane)
    if short in WARP_SAME:
        return same_in_group(b, short, 32)
    return opaque(f"{short} result")


def _group_sync(b, g, n):
    if isinstance(g, Agg):
        if g.kind == "cg_block":
            b.barrier("block", n)
        elif g.kind == "cg_grid":
            b.barrier("grid", n)
        elif g.kind == "cg_tile":
            b.barrier("warp" if (g.size or 32) <= 32 else "block", n)
        elif g.kind == "cg_cluster":
            b.barrier("block", n)
    return None


def _group_method(b, g, short, n):
    vals = [b.rval(a) for a in n.args]
    size = g.size or 32
    if short == "shfl" and g.kind == "cg_tile" and len(vals) == 2 and isinstance(vals[1], sym.S) and \
            not (sym.kinds(vals[1]) & {"thread", "iter"}):
        return same_in_group(b, "tile.shfl", size, vals[1])
    if short in ("ballot", "any", "all") and g.kind == "cg_tile":
        return same_in_group(b, f"tile.{short}", size)
    if short in ("sync", "barrier_wait"):
        return _group_sync(b, g, n)
    bd = [b._builtin("blockDim", f) for f in "xyz"] if g.kind in ("cg_block", "cg_grid") or \
        short == "meta_group_size" else None
    block_threads = binop("*", bd[0], binop("*", bd[1], bd[2])) if bd else None
    if short == "thread_rank":
        lt = b.linear_tid()
        if g.kind == "cg_block":
            return lt
        if g.kind == "cg_tile":
            return binop("%", lt, const(size))
        if g.kind == "cg_grid":
            bi = [b._builtin("blockIdx", f) for f in "xyz"]
            gd = [b._builtin("gridDim", f) for f in "xy"]
            block_rank = binop("+", bi[0], binop("*", gd[0], binop("+", bi[1], binop("*", gd[1], bi[2]))))
            return binop("+", binop("*", block_rank, block_threads), lt)
        return opaque("rank")
    if short in ("size", "num_threads"):
        if g.kind == "cg_tile":
            return const(size)
        if g.kind == "cg_block":
            return block_threads
        if g.kind == "cg_grid":
            gd = [b._builtin("gridDim", f) for f in "xyz"]
            return binop("*", block_threads, binop("*", gd[0], binop("*", gd[1], gd[2])))
        return opaque("group size", uniform=True)
    if short == "meta_group_rank" and g.kind == "cg_tile":
        within = g.fields.get("within")
        lt = b.linear_tid()
        return binop("/", binop("%", lt, const(within)) if within else lt, const(size))
    if short == "meta_group_size":
        if g.kind != "cg_tile":
            return opaque("meta group size", uniform=True)
        if g.fields.get("within"):  # a tile of a tile: the parent's tiles
            return const(max(g.fields["within"] // size, 1))
        # the tiles of the block, ceil(threads / size); under a block not fixed, one unknown within what any block
        # allows (the quotient of a symbolic block burdens every query the loops over it reach)
        tiles = binop("/", binop("+", block_threads, const(size - 1)), const(size))
        if sym.is_const(tiles):
            return tiles
        some = binop("max", opaque("meta group size", uniform=True), const(1))
        return binop("min", some, const(-(-MAX_THREADS // size)))
    if short in ("group_index", "thread_index"):
        src = "blockIdx" if short == "group_index" else "threadIdx"
        return Agg("builtin", src)
    if short in ("group_dim", "dim_threads") and g.kind == "cg_block":
        return Agg("builtin", "blockDim")
    if g.kind == "cg_grid" and short in ("dim_blocks", "block_index"):
        return Agg("builtin", "gridDim" if short == "dim_blocks" else "blockIdx")
    if short in ("block_rank",):
        return opaque("cluster block rank", uniform=True)
    return opaque(f"{short} result")


# ---- CUB's collectives (include/cub/cub.cuh). A block collective exchanges values through its TempStorage around
# a block barrier: modelled as thread 0 filling the storage, the barrier, every thread reading it. So reusing the
# storage with no __syncthreads() after the previous collective is a race (CUB's documented rule), and a collective
# under a thread-dependent branch is a divergent barrier. Warp collectives are shuffles: no shared memory, no barrier.
CUB_BLOCK = {"BlockReduce", "BlockScan", "BlockLoad", "BlockStore", "BlockExchange", "BlockRadixSort",
             "BlockHistogram", "BlockDiscontinuity", "BlockAdjacentDifference", "BlockShuffle", "BlockMergeSort"}
CUB_DIRECT = {"BLOCK_LOAD_DIRECT", "BLOCK_LOAD_STRIPED", "BLOCK_LOAD_VECTORIZE", "BLOCK_STORE_DIRECT",
              "BLOCK_STORE_STRIPED", "BLOCK_STORE_VECTORIZE"}  # Load/Store algorithms that use no storage
CUB_SCANS = {"ExclusiveSum": 3, "InclusiveSum": 3, "ExclusiveScan": 5, "InclusiveScan": 4}  # arity with an aggregate


@intrinsic(test=lambda name, short: name.startswith("cub::") and short == "__ctor__")
def _cub_object(b, n, name, short):
    """``BlockReduce(temp_storage)``: the collective object, with its storage (an lvalue, not read here)."""
    storage = b.eval(n.args[0]) if n.args else None
    for a in n.args[1:]:
        b.rval(a)
    cls = re.sub(r"<.*", "", name.split("::")[-2])
    return Agg("cub", cls, {"storage": storage if isinstance(storage, Mem) else None, "targs": list(n.targs)})


@intrinsic(test=lambda name, short: name.startswith("cub::"))
def _cub_call(b, n, name, short):
    o = b.rval(n.a) if n.a is not None else None
    if not (isinstance(o, Agg) and o.kind == "cub"):
        return NotImplemented
    targs = o.fields["targs"]
    if o.name in ("BlockLoad", "BlockStore") and n.args:
        _cub_tile(b, n, o.name == "BlockStore", b.rval(n.args[0]), targs)
        for a in n.args[2:]:
            b.rval(a)
        if len(targs) <= 3 or targs[3].split("::")[-1].strip() in CUB_DIRECT:
            return None  # the direct algorithms (CUB's default) move no data between threads
        _cub_exchange(b, n, o.fields["storage"])
        return None
    if short in CUB_SCANS and len(n.args) >= 2:  # (input, output, [init, op], [aggregate])
        b.rval(n.args[0])
        for a in n.args[2:]:
            b.rval(a)
        if o.name in CUB_BLOCK:
            _cub_exchange(b, n, o.fields["storage"])
        _cub_out(b, n, n.args[1], opaque(f"cub::{o.name}::{short} result"))
        if len(n.args) == CUB_SCANS[short] and o.name in CUB_BLOCK:
            _cub_out(b, n, n.args[-1], _same_in_block(f"cub::{o.name} aggregate"))
        return None
    for a in n.args:
        b.rval(a)
    if o.name in CUB_BLOCK:
        _cub_exchange(b, n, o.fields["storage"])
    return opaque(f"cub::{o.name}::{short} result")  # Sum/Reduce: valid in thread (lane) 0 only


def _cub_exchange(b, n, storage):
    if storage is not None:
        cond0 = b.st.cond
        b.st.cond = sym.land(cond0, binop("==", b.linear_tid(), ZERO))
        b._rec_access(storage, True, n, via="cub")
        b.st.cond = cond0
    b.barrier("block", n)
    if storage is not None:
        b._rec_access(storage, False, n, via="cub")


def _cub_tile(b, n, write: bool, p, targs):
    """Load/Store: each thread's ITEMS_PER_THREAD consecutive elements of the block's tile at ``p`` (the blocked
    arrangement; the other arrangements split the same tile among the same threads)."""
    items = evaluate(targs[2], b.macros) if len(targs) > 2 else None
    if isinstance(p, Ptr) and isinstance(items, int) and items > 0:
        m = b._subscript(Ptr(p.space, p.base, p.off, p.elem, (), p.subs, p.volatile, p.intaddr),
                         binop("*", b.linear_tid(), const(items)))
        b._rec_access(Mem(m.ptr, p.elem * items), write, n, value=opaque("cub::BlockStore item") if write else None,
                      via="cub")


def _cub_out(b, n, arg, value):
    lv = b.lval(arg)
    if lv is not None and not (isinstance(lv, Mem) and lv.ptr.dims):
        b.store(lv, value, n)


def _same_in_block(what: str):
    """A value every thread of a block shares and other blocks may not (a block-wide aggregate)."""
    return sym.uf(f"{what}#{next(sym._ids)}", *(sym.var(f"b{f}", "block") for f in "xyz"))

