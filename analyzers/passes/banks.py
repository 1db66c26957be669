"""``bank-conflict``: the n-way conflict degree of a warp's shared-memory access.

Shared memory has 32 banks of 4 bytes. A request is split into phases (32 lanes for <=4-byte accesses, 16 for
8-byte, 8 for 16-byte); within a phase, lanes touching *different* 4-byte words of one bank serialize (the same
word is a broadcast). The degree is the largest number of distinct words in one bank, over phases, warps of the
first block and sampled loop iterations."""
from __future__ import annotations

import functools

from kopt.diagnostic import Diagnostic
from kopt.rules import RULES

from .context import Ctx
from .lanes import base_env, block_shapes, warp_addresses

MAX_WARPS = 8
ITERATIONS = 8  # loop iterations sampled (strided tree loops change the pattern every step)


def degree(addrs: list[tuple[int, int]], size: int):
    """(degree, bank, lanes in that bank) for one warp's request."""
    # banks repeat every 128 bytes: requests that differ by a multiple of that (other warps' rows, other loop
    # iterations) have one answer, computed once
    base = min(off for _, off in addrs) // 128 * 128 if addrs else 0
    return _degree(tuple((lane, off - base) for lane, off in addrs), size)


@functools.lru_cache(maxsize=4096)
def _degree(addrs: tuple, size: int):
    per_phase = 32 if size <= 4 else (16 if size == 8 else 8)
    best = (1, None, [])
    for start in range(0, 32, per_phase):
        banks: dict[int, dict[int, list[int]]] = {}
        for lane, off in addrs:
            if not start <= lane < start + per_phase:
                continue
            for w in range(off // 4, (off + max(size, 4) - 1) // 4 + 1):
                banks.setdefault(w % 32, {}).setdefault(w, []).append(lane)
        for bank, words in banks.items():
            if len(words) > best[0]:
                best = (len(words), bank, sorted({ln for ls in words.values() for ln in ls}))
    return best


def _stride(addrs) -> int | None:
    if len(addrs) < 2:
        return None
    (l0, a0), (l1, a1) = addrs[0], addrs[1]
    return (a1 - a0) // 4 // max(l1 - l0, 1)


def run(ctx: Ctx) -> list[Diagnostic]:
    out = []
    by_loc: dict = {}
    launch = ctx.launch
    shapes = block_shapes(launch, ctx.km.dims_used)
    for a in ctx.km.accesses:
        if a.space != "shared" or a.atomic or a.via in ("cp.async", "tma", "memcpy", "memset", "curand", "cub"):
            continue  # byte-range copies and library calls are not one request of a known width
        results = []
        for block in shapes:
            env = base_env(a, launch, block, ctx.km.trips)
            if env is None:
                results = []
                break
            worst = None
            nwarps = min(-(-(block[0] * block[1] * block[2]) // 32), MAX_WARPS)
            ok = True
            for w in range(nwarps):
                for it in range(ITERATIONS):
                    addrs = warp_addresses(a, env, block, w, it)
                    if addrs is None:
                        ok = False
                        break
                    if not addrs:
                        continue
                    d = degree(addrs, a.size)
                    if worst is None or d[0] > worst[0][0]:
                        worst = (d, w, it, addrs)
                if not ok:
                    break
            if not ok:
                results = []
                break
            if worst is not None:
                results.append((block, worst))
        if not results:
            continue
        deg = min(r[1][0][0] for r in results)
        if deg < 2:
            continue
        block, (d, w, it, addrs) = max(results, key=lambda r: r[1][0][0])
        prev = by_loc.get(a.loc)
        if prev is not None and prev[0] >= deg:
            continue
        stride = _stride(addrs)
        pattern = f"consecutive lanes {stride} words apart" if stride is not None else "irregular"
        kind = "store to" if a.write else "load from"
        wit = {"degree": deg, "bank": d[1], "lanes": d[2][:8], "warp": w, "pattern": pattern,
               "block": f"({block[0]},{block[1]},{block[2]})",
               "launch": launch.describe(ctx.km.dims_used)}
        if stride is not None and stride % 2 == 0 and stride:
            hint = ("pad the inner dimension (e.g. +1 element per row) so rows start in different banks, or "
                    "XOR-swizzle the column index with the row")
        else:
            hint = None  # the rule's: re-map indices so that the 32 lanes touch 32 different banks
        diag = RULES["bank-conflict"].diag(
            f"{deg}-way shared-memory bank conflict on {kind} `{ctx.snippet(a)}` ({pattern})",
            ctx.loc(a, "write" if a.write else "read"), witness=wit, hint=hint)
        by_loc[a.loc] = (deg, diag)
    out = [v[1] for v in by_loc.values()]
    return out
