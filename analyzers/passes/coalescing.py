"""``coalescing``: a warp's global access touches more 32-byte sectors than the bytes it needs."""
from __future__ import annotations

from kopt.diagnostic import Diagnostic
from kopt.rules import RULES

from .context import Ctx
from .lanes import PARAM_VALUE, base_env, block_shapes, warp_addresses

RATIO = 2.0  # report when sectors >= RATIO x the ideal


def sectors(addrs: list[tuple[int, int]], size: int) -> tuple[int, int]:
    """(sectors touched, minimum sectors for the distinct bytes)."""
    secs, bytes_ = set(), set()
    for _, off in addrs:
        for byte in range(off, off + size):
            bytes_.add(byte)
        for s in range(off // 32, (off + size - 1) // 32 + 1):
            secs.add(s)
    return len(secs), -(-len(bytes_) // 32)


def run(ctx: Ctx) -> list[Diagnostic]:
    out = {}
    launch = ctx.launch
    for a in ctx.km.accesses:
        if a.space != "global" or a.atomic or a.loc in out or a.via in ("memcpy", "memset", "curand", "cub"):
            continue
        worst = None
        for block in block_shapes(launch, ctx.km.dims_used):
            env = base_env(a, launch, block, ctx.km.trips)
            if env is None:
                worst = None
                break
            addrs = warp_addresses(a, env, block, 0)
            if addrs is None:
                worst = None
                break
            if len(addrs) < 2 or _lane_contiguous(addrs, a.size):
                continue
            got, ideal = sectors(addrs, a.size)
            if worst is None or got / ideal < worst[0] / worst[1]:
                worst = (got, ideal, block, addrs)
        if worst is None:
            continue
        got, ideal, block, addrs = worst
        if got < RATIO * ideal:
            continue
        params = sorted(n[2:] for n in set(_vars(a)) if n.startswith("p:"))
        wit = {"sectors_per_request": got, "ideal_sectors": ideal, "lanes": len(addrs),
               "bytes_per_lane": a.size, "block": f"({block[0]},{block[1]},{block[2]})",
               "launch": launch.describe(ctx.km.dims_used)}
        if params:
            wit["assumed_parameters"] = {p: PARAM_VALUE for p in params}
        stride = (addrs[1][1] - addrs[0][1]) if len(addrs) > 1 else 0
        kind = "store" if a.write else "load"
        out[a.loc] = RULES["coalescing"].diag(
            f"uncoalesced global {kind} `{ctx.snippet(a)}`: a warp touches {got} 32-byte sectors where {ideal} "
            f"would hold its data ({got / ideal:.1f}x the traffic; consecutive lanes {stride} bytes apart)",
            ctx.loc(a, "write" if a.write else "read"), witness=wit)
    return list(out.values())


def _lane_contiguous(addrs, size) -> bool:
    """Lane l touches base + l*size: coalesced, even if some lanes sit this access out (divergence)."""
    l0, a0 = addrs[0]
    return all(a - a0 == (l - l0) * size for l, a in addrs)


def _vars(a):
    from .. import sym
    return list(sym.free_vars(a.offset))
