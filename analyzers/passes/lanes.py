"""Concrete per-lane evaluation of an access for one warp: the addresses the 32 lanes touch.

Used by the bank-conflict and coalescing passes, which need a block shape: the declared one, else a few common
shapes (the pass reports only what holds for all of them). Kernel parameters take a representative value (stated
in the witness); loop iterations 0 and 1 are sampled; data-dependent addresses are skipped.
"""
from __future__ import annotations

import functools
import weakref

from .. import sym
from ..model import Access

PARAM_VALUE = 1024
CANDIDATE_1D = [(128, 1, 1), (256, 1, 1), (512, 1, 1)]
CANDIDATE_2D = [(32, 8, 1), (16, 16, 1), (32, 32, 1)]


def block_shapes(launch, dims_used) -> list[tuple]:
    if launch.known_block:
        return [tuple(launch.block)]
    if dims_used <= {"x"}:
        return launch.within(CANDIDATE_1D) or [(launch.dim_max(0), 1, 1)]
    return launch.within(CANDIDATE_2D) or [(32, 1, 1)]


def base_env(a: Access, launch, block, trips=None) -> dict | None:
    env = {"bdx": block[0], "bdy": block[1], "bdz": block[2], "bx": 0, "by": 0, "bz": 0}
    for i, f in enumerate("xyz"):
        env[f"gd{f}"] = launch.grid[i] if launch.grid[i] is not None else 8
    trip_vars = []
    for n, kind in {**sym.free_vars(a.offset), **sym.free_vars(a.cond)}.items():
        if n in env or n in ("tx", "ty", "tz"):
            continue
        if n.startswith("N") and n[1:].isdigit():
            trip_vars.append(n)
            continue
        if n.startswith("p:") or (kind == "uniform" and n.startswith("p:")):
            env[n] = PARAM_VALUE
        elif kind == "iter":
            env[n] = 0
        elif n.startswith(("opq#", "uopq#")):
            return None
        elif kind == "uniform":
            env[n] = PARAM_VALUE
    for n in trip_vars:
        got = (trips or {}).get(n)
        if got is not None:
            for m in sym.free_vars(got[1]):
                if m.startswith("p:") and m not in env:
                    env[m] = PARAM_VALUE
        env[n] = _trip(n, trips or {}, env)
    return env


def _trip(n: str, trips: dict, env: dict) -> int:
    """Concrete trip count of a uniform loop: the first iteration whose test fails (capped)."""
    got = trips.get(n)
    if got is None:
        return 1 << 20
    k, test = got
    f = sym.compiled(test)
    local = dict(env)
    for i in range(4096):
        local[k] = i
        v = f(local)
        if v is None:
            return 1 << 20
        if not v:
            return i
    return 4096


def warp_addresses(a: Access, env: dict, block, warp: int, iteration: int = 0):
    """[(lane, byte offset)] of the active lanes, or None when not computable."""
    env = dict(env)
    for n, kind in sym.free_vars(a.offset).items():
        if kind == "iter":
            env[n] = iteration
    for n, kind in sym.free_vars(a.cond).items():
        if kind == "iter":
            env[n] = iteration
    return _evaluator(a)(env, _lanes(tuple(block), warp))


_evaluators: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()  # offset -> (cond, its evaluator)


def _evaluator(a: Access):
    got = _evaluators.get(a.offset)
    if got is None or got[0] is not a.cond:
        got = _evaluators[a.offset] = (a.cond, sym.compiled_lanes(a.cond, a.offset))
    return got[1]


@functools.lru_cache(maxsize=256)
def _lanes(block: tuple, warp: int) -> tuple:
    """(lane, threadIdx.x, .y, .z) of the threads of one warp of a block."""
    nthreads = block[0] * block[1] * block[2]
    out = []
    for lane in range(32):
        lin = warp * 32 + lane
        if lin >= nthreads:
            break
        out.append((lane, lin % block[0], (lin // block[0]) % block[1], lin // (block[0] * block[1])))
    return tuple(out)
