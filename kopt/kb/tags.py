"""Technique tags read from code (and notes) by pattern, never from hand labels.

Each tag has the patterns that reveal it (PTX mnemonics, intrinsics, CUDA/CuTe/CUTLASS names), the words a person
would search for it by (indexed with the tag so "vectorized loads" finds ``float4`` code), and the oldest
architecture it needs. ``arch_hi`` marks features of one architecture only (``sm_90a``'s wgmma and setmaxnreg).
"""
from __future__ import annotations

import re

from ..errors import InputError

# tag: (pattern, search words, oldest arch, newest arch or None)
TAGS: dict[str, tuple[str, str, int | None, int | None]] = {
    "cp.async": (r"cp\.async(?!\.bulk)\b|cp_async|__pipeline_memcpy_async|memcpy_async|SM80_CP_ASYNC",
                 "cp.async async copy pipeline commit wait group ldgsts", 80, None),
    "tma": (r"cp\.async\.bulk\.tensor|CUtensorMap|cuTensorMapEncode|SM90_TMA|make_tma_copy|tma_load|tma_store"
            r"|tensormap|\bTMA\b", "tma tensor memory accelerator tensor map bulk copy", 90, None),
    "bulk-copy": (r"cp\.async\.bulk(?!\.tensor)|cp_async_bulk|SM90_BULK_COPY", "bulk async copy", 90, None),
    "wgmma": (r"wgmma|\bGMMA\b|gmma|SM90_64x\d+x\d+", "wgmma warpgroup mma hopper tensor core gemm", 90, 90),
    "tcgen05": (r"tcgen05|\bUMMA\b|umma|SM100_MMA|tmem", "tcgen05 blackwell tensor memory umma", 100, None),
    "mma.sync": (r"mma\.sync|SM80_16x8x\d+|SM89_16x8x\d+|SM75_16x8x\d+|\bmma_sync\b|nvcuda::wmma|wmma::",
                 "mma.sync tensor core matrix multiply accumulate fragment", 80, None),
    "ldmatrix": (r"ldmatrix|LDSM|SM75_U\d+x\d+_LDSM", "ldmatrix shared memory matrix load fragment", 75, None),
    "stmatrix": (r"stmatrix|STSM", "stmatrix matrix store", 90, None),
    "mbarrier": (r"mbarrier|ClusterBarrier|ClusterTransactionBarrier|cuda::barrier|expect_tx|complete_tx",
                 "mbarrier barrier phase parity arrive wait transaction", 80, None),
    "fence.proxy.async": (r"fence\.proxy\.async|fence_view_async_shared|tma_store_fence|fence_barrier_init"
                          r"|fence\.mbarrier_init", "fence proxy async visibility", 90, None),
    "setmaxnreg": (r"setmaxnreg|warpgroup_reg_alloc|warpgroup_reg_dealloc",
                   "setmaxnreg register reallocation producer consumer", 90, 90),
    "warp-specialized": (r"(?i)warp_?specialized|producer_?warp|consumer_?warp|WarpGroupRole|ProducerWarpRole",
                         "warp specialization producer consumer", 90, None),
    "cluster": (r"__cluster_dims__|cluster\.sync|cluster_sync|this_cluster|ClusterShape|cluster_ctarank|"
                r"\bmapa\b|map_shared_rank|shared::cluster|multicast", "thread block cluster dsmem distributed "
                                                                      "shared memory multicast", 90, None),
    "shuffle": (r"__shfl\w*|shfl\.sync|SHFL", "warp shuffle shfl reduction butterfly", None, None),
    "warp-vote": (r"__ballot_sync|__any_sync|__all_sync|__match_\w+_sync|__reduce_\w+_sync|vote\.sync",
                  "warp vote ballot", None, None),
    "vec128": (r"\b(?:float4|int4|uint4|double2|longlong2|uint128_t)\b|\.v4\.(?:f32|b32|u32|s32)|\.v2\.(?:f64|b64)",
               "vectorized 128-bit vector loads stores wide float4", None, None),
    "vec64": (r"\b(?:float2|int2|uint2)\b|\.v2\.(?:f32|b32|u32)", "vectorized 64-bit vector float2", None, None),
    "swizzle": (r"(?i)swizzle|\[[^\]\n]*\^[^\]\n]*\]", "swizzle xor bank conflict free layout", None, None),
    "shared-memory": (r"__shared__|SharedStorage|shared_storage|\bsmem\b|\.shared\.",
                      "shared memory tile staging", None, None),
    "dynamic-smem": (r"extern\s+__shared__|extern\s+volatile\s+__shared__", "dynamic shared memory", None, None),
    "atomics": (r"\batomic[A-Z]\w*\s*\(|\batom\.|\bred\.(?:global|shared)|atomic_ref",
                "atomic add atomics contention", None, None),
    "cooperative-groups": (r"cooperative_groups|\bcg::", "cooperative groups tile partition", None, None),
    "grid-sync": (r"this_grid\(\)|grid\.sync\(\)|grid_group", "grid synchronization cooperative launch", None,
                  None),
    "grid-stride": (r"\+=\s*(?:\(?\w+\)?\s*)?(?:gridDim\.x\s*\*\s*blockDim\.x|blockDim\.x\s*\*\s*gridDim\.x|"
                    r"gridDim\.x\s*\*\s*\w+|\w+\s*\*\s*gridDim\.x)", "grid-stride loop persistent", None, None),
    "fp16": (r"__half2?\b|half_t|\.f16\b|cuda_fp16", "fp16 half precision", None, None),
    "bf16": (r"bfloat16|\.bf16\b|bfloat162|bf16", "bf16 bfloat16", 80, None),
    "fp8": (r"e4m3|e5m2|float_e4m3|__nv_fp8", "fp8 e4m3 e5m2 float8", 89, None),
    "tf32": (r"tf32|tfloat32", "tf32 tensorfloat", 80, None),
    "launch-bounds": (r"__launch_bounds__", "launch bounds occupancy registers", None, None),
    "pipeline": (r"PipelineTmaAsync|PipelineAsync|PipelineState|cp\.async\.wait_group|cp_async_wait|"
                 r"__pipeline_wait_prior|wait_group", "multistage software pipeline stages double buffering",
                 None, None),
}
_COMPILED = {tag: re.compile(pat) for tag, (pat, _w, _lo, _hi) in TAGS.items()}
_PATH_ARCH = re.compile(r"sm_?(\d{2,3})a?")


def tags_of(text: str) -> list[str]:
    return [tag for tag, rx in _COMPILED.items() if rx.search(text)]


def search_words(tags: list[str]) -> str:
    return " ".join(TAGS[t][1] for t in tags)


def arch_range(tags: list[str], path: str = "") -> tuple[int | None, int | None]:
    """(oldest, newest) compute capability x10 the code can run on; a ``sm90``-style path name raises the floor."""
    los = [TAGS[t][2] for t in tags if TAGS[t][2]]
    his = [TAGS[t][3] for t in tags if TAGS[t][3]]
    los += [int(m) for m in _PATH_ARCH.findall(path.lower()) if 70 <= int(m) <= 120]
    lo = max(los) if los else None
    hi = min(his) if his else None
    if lo is not None and hi is not None and hi < lo:
        hi = None  # e.g. an sm100 file that mentions GMMA: the path wins
    return lo, hi


def parse_arch(text: str) -> int:
    """``sm_90a`` / ``sm90`` / ``90`` -> 90."""
    m = re.fullmatch(r"(?:sm_?)?(\d{2,3})a?", text.strip().lower())
    if not m:
        raise InputError(f"bad arch {text!r}: expected e.g. sm_80, sm_90a, sm_100a")
    return int(m.group(1))
