"""What the model builder knows about CUDA's built-in functions: barriers, atomics, shuffles, cooperative groups,
cuda::barrier / pipelines, async copies. Returns ``NotImplemented`` for anything else (then helpers are inlined)."""
from __future__ import annotations

import re

from . import sym
from .launch import evaluate
from .model import Ptr
from .sym import ZERO, binop, const, opaque
from .values import Agg, Mem

ATOMICS = re.compile(r"^atomic(Add|Sub|Exch|Min|Max|Inc|Dec|CAS|And|Or|Xor)(_block|_system)?$")
WARP_VALUE = {"__shfl_sync", "__shfl_up_sync", "__shfl_down_sync", "__shfl_xor_sync", "__ballot_sync", "__all_sync",
              "__any_sync", "__match_any_sync", "__reduce_add_sync", "__reduce_max_sync", "__reduce_min_sync",
              "__activemask", "__shfl", "__shfl_down", "__shfl_up", "__shfl_xor", "clock64", "clock"}
# results every lane of a warp shares: votes and warp reductions; a broadcast shuffle from a lane all agree on
WARP_SAME = {"__ballot_sync", "__all_sync", "__any_sync", "__reduce_add_sync", "__reduce_max_sync",
             "__reduce_min_sync", "__reduce_and_sync", "__reduce_or_sync", "__reduce_xor_sync"}
BROADCAST = {"__shfl_sync": 2, "__shfl": 1}  # name -> position of the source-lane argument
BLOCK_VOTE = {"__syncthreads_count", "__syncthreads_and", "__syncthreads_or"}
NOTHING = {"__threadfence", "__threadfence_block", "__threadfence_system", "printf", "__nanosleep", "assert",
           "__trap", "__brkpt", "__prefetch_global_l1", "__prefetch_global_l2"}
LOADS = {"__ldg", "__ldcg", "__ldcs", "__ldlu", "__ldca", "__ldcv"}
STORES = {"__stcg", "__stcs", "__stwb", "__stwt"}


def handle_call(b, n, name: str, short: str):
    args = n.args
    obj = n.a
    if short == "__syncthreads" or short == "__barrier_sync":
        b.barrier("block", n)
        return None
    if short in BLOCK_VOTE:
        for a in args:
            b.rval(a)
        b.barrier("block", n)
        return opaque(short, uniform=True)
    if short == "__syncwarp":
        for a in args:
            b.rval(a)
        b.barrier("warp", n)
        return None
    if short in NOTHING:
        for a in args:
            b.rval(a)
        return None
    if short in WARP_VALUE:
        vals = [b.rval(a) for a in args]
        return _warp_value(b, short, vals, args)
    m = ATOMICS.match(short)
    if m:
        p = b.rval(args[0]) if args else None
        vals = [b.rval(a) for a in args[1:]]
        if isinstance(p, Ptr):
            b._rec_access(Mem(p, p.elem), True, n, atomic=True)
            step = vals[0] if vals else None
            if m.group(1) in ("Add", "Sub", "Inc") and isinstance(step, sym.S) and sym.is_const(step) and step.val \
                    and not sym.thread_dependent(p.off) and m.group(2) is None:
                # a counter at one address hands every thread a different old value (slot reservation)
                return sym.var(f"uniq#{next(sym._ids)}:{short} slot", "thread")
        return opaque(f"{short} result")
    if short in ("memcpy", "memset") and len(args) == 3:
        return _memcpy(b, n, short, args)
    if short.startswith("curand") and args:
        vals = [b.rval(a) for a in args]
        state = vals[-1] if short == "curand_init" else vals[0]
        if isinstance(state, Ptr):  # a generator call reads and advances the state it points to
            m = Mem(state, state.elem or 4)
            b._rec_access(m, False, n, via="curand")
            b._rec_access(m, True, n, via="curand")
        return None if short == "curand_init" else opaque(f"{short} result")
    if short in LOADS and args:
        p = b.rval(args[0])
        if isinstance(p, Ptr):
            return b.load(Mem(p, p.elem), n)
        return opaque(short)
    if short in STORES and len(args) >= 2:
        p, v = b.rval(args[0]), b.rval(args[1])
        if isinstance(p, Ptr):
            b._rec_access(Mem(p, p.elem), True, n, value=v if isinstance(v, sym.S) else None)
        return None
    if short in ("__cvta_generic_to_shared", "__cvta_generic_to_global") and args:
        p = b.rval(args[0])
        if isinstance(p, Ptr):
            return Ptr(p.space, p.base, p.off, 1, (), p.subs, p.volatile, True)
        return opaque("address")
    if short in ("__cvta_shared_to_generic",) and args:
        return b.rval(args[0])
    if short in ("min", "max", "umin", "umax", "llmin", "llmax", "imin", "imax") and len(args) == 2:
        x, y = b.rval(args[0]), b.rval(args[1])
        if isinstance(x, sym.S) and isinstance(y, sym.S):
            return binop("max" if "max" in short else "min", x, y)
        return opaque(short)
    if short in ("__mul24", "__umul24") and len(args) == 2:  # 24-bit multiply: a product of indices, not data
        x, y = b.ival(args[0]), b.ival(args[1])
        return binop("*", x, y)
    if short in ("move", "forward") and args:
        return b.eval(args[0])
    if short == "__ctor__":
        vals = [b.rval(a) for a in args]
        if len(vals) == 1 and isinstance(vals[0], (sym.S, Ptr)):
            return vals[0]
        if len(vals) == 1 and isinstance(vals[0], Agg) and vals[0].kind.startswith("cg_"):
            return vals[0]  # a copy of a group handle (passed by value to a helper) is the same group
        return Agg("struct", "ctor")
    # ---- cooperative groups
    if short == "this_thread_block":
        return Agg("cg_block")
    if short == "this_grid":
        return Agg("cg_grid")
    if short == "this_cluster":
        return Agg("cg_cluster")
    if short in ("tiled_partition", "coalesced_threads"):
        for a in args:
            b.rval(a)
        size = None
        if n.targs:
            size = evaluate(n.targs[0], b.macros)
            if size is None and n.targs[0].strip() in b.tbind and sym.is_const(b.tbind[n.targs[0].strip()]):
                size = b.tbind[n.targs[0].strip()].val
        elif len(args) == 2:
            v = b.ival(args[1])
            size = v.val if sym.is_const(v) else None
        return Agg("cg_tile", size=size or 32)
    if short in ("sync", "synchronize") and obj is None and args:
        g = b.rval(args[0])
        return _group_sync(b, g, n)
    if short in ("wait", "wait_prior") and obj is None and args and "cooperative_groups" in name:
        b.rval(args[0])
        depth = 0
        if short == "wait_prior" and n.targs:
            depth = evaluate(n.targs[0], b.macros) or 0
        b.async_op("wait", n, n=const(depth))
        return None
    if short == "memcpy_async":
        vals = [b.rval(a) for a in args]
        ptrs = [v for v in vals if isinstance(v, Ptr)]
        size = next((v for v in vals[len(ptrs):] if isinstance(v, sym.S)), None)
        if ptrs:
            b.async_op("cp_async", n, ptr=ptrs[0], size=size.val if size is not None and sym.is_const(size) else None)
        return None
    if short in ("reduce", "inclusive_scan", "exclusive_scan") and "cooperative_groups" in name:
        vals = [b.rval(a) for a in args]
        g = vals[0] if vals else None
        if short == "reduce" and isinstance(g, Agg) and g.kind == "cg_tile":
            return _same_in_group(b, "cg::reduce", g.size or 32)
        return opaque(f"cg::{short} result")
    if obj is not None:
        o = b.rval(obj)
        if isinstance(o, Agg) and o.kind.startswith("cg_"):
            return _group_method(b, o, short, n)
        if isinstance(o, (Agg, Mem)) and short in ("arrive_and_wait", "wait", "arrive", "arrive_and_drop"):
            for a in args:
                b.rval(a)
            if short in ("arrive_and_wait", "wait"):
                b.barrier("cuda::barrier", n)
                return None
            return Agg("token")
        if short in ("producer_commit",):
            b.async_op("commit", n)
            return None
        if short in ("consumer_wait",):
            b.async_op("wait", n, n=ZERO)
            return None
        if short in ("producer_acquire", "consumer_release"):
            return None
    if short == "init" and len(args) == 2 and "cuda" in name:
        b.rval(args[0])
        b.rval(args[1])
        return None
    # ---- Ampere pipeline primitives and Hopper helpers
    if short == "__pipeline_memcpy_async" and len(args) >= 3:
        d, _src, sz = b.rval(args[0]), b.rval(args[1]), b.ival(args[2])
        if isinstance(d, Ptr):
            b.async_op("cp_async", n, ptr=d, size=sz.val if sym.is_const(sz) else None)
        return None
    if short == "__pipeline_commit":
        b.async_op("commit", n)
        return None
    if short in ("__pipeline_wait_prior", "pipeline_consumer_wait_prior"):
        depth = b.ival(args[0]) if (args and short == "__pipeline_wait_prior") else None
        if depth is None and n.targs:
            v = evaluate(n.targs[0], b.macros)
            depth = const(v) if v is not None else opaque("wait depth", uniform=True)
        for a in args[1:] if short == "__pipeline_wait_prior" else args:
            b.rval(a)
        b.async_op("wait", n, n=depth if depth is not None else ZERO)
        return None
    if "fence_proxy_async" in short:
        b.async_op("fence_proxy", n)
        return None
    if short.startswith("cp_async_bulk_tensor") or short.startswith("cp_async_bulk_global_to_shared"):
        vals = [b.rval(a) for a in args]
        ptrs = [v for v in vals if isinstance(v, Ptr)]
        if "global_to_shared" in short and ptrs:
            bar = next((v for v in vals[1:] if isinstance(v, (Ptr,))), None)
            b.async_op("tma_load", n, ptr=ptrs[0], mbar=bar)
        elif "shared_to_global" in short:
            b.async_op("tma_store", n, ptr=next((p for p in ptrs if p.space == "shared"), None))
        return None
    return NotImplemented


def _memcpy(b, n, short, args):
    """``memcpy(dst, src, bytes)`` / ``memset(dst, v, bytes)``: one access of the whole byte range at each pointer
    (the first element's bytes when the count is not a constant)."""
    dst, src, count = b.rval(args[0]), b.rval(args[1]), b.ival(args[2])
    for p, write in ((dst, True), (src, False) if short == "memcpy" else (None, False)):
        if isinstance(p, Ptr):
            size = count.val if sym.is_const(count) and count.val > 0 else (p.elem or 1)
            b._rec_access(Mem(p, size), write, n, via=short)
    return dst if isinstance(dst, Ptr) else None


def _same_in_group(b, what: str, size: int, *keys):
    """A value every thread of its group of ``size`` consecutive threads shares (and other groups may not): an
    uninterpreted function of the group's index, so two lanes storing it store the same value."""
    return sym.uf(f"{what}#{next(sym._ids)}", binop("/", b.linear_tid(), const(size)), *keys)


def _warp_value(b, short, vals, args):
    width = 32
    if short in BROADCAST and len(args) > BROADCAST[short]:
        lane = vals[BROADCAST[short]]
        if len(vals) > BROADCAST[short] + 1 and isinstance(vals[-1], sym.S) and sym.is_const(vals[-1]):
            width = vals[-1].val or 32
        if isinstance(lane, sym.S) and not (sym.kinds(lane) & {"thread", "iter"}) and 0 < width <= 32:
            return _same_in_group(b, short, width, lane)
    if short in WARP_SAME:
        return _same_in_group(b, short, 32)
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
        return _same_in_group(b, "tile.shfl", size, vals[1])
    if short in ("ballot", "any", "all") and g.kind == "cg_tile":
        return _same_in_group(b, f"tile.{short}", size)
    if short in ("sync", "barrier_wait"):
        return _group_sync(b, g, n)
    bd = [b._builtin("blockDim", f) for f in "xyz"] if g.kind in ("cg_block", "cg_grid") else None
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
        return binop("/", b.linear_tid(), const(size))
    if short in ("meta_group_size",):
        return opaque("meta group size", uniform=True)
    if short in ("group_index", "thread_index"):
        src = "blockIdx" if short == "group_index" else "threadIdx"
        return Agg("builtin", src)
    if short in ("block_rank",):
        return opaque("cluster block rank", uniform=True)
    return opaque(f"{short} result")


