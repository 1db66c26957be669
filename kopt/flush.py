"""What a timing request carries besides the candidates: the L2 flush kernel, compiled by the parent like any other
cubin, and libcupti's path for the harness."""
from __future__ import annotations

import functools

from .protocol import Kernel

FLUSH_SOURCE = r"""
extern "C" __global__ void kopt_l2_flush(const int4* __restrict__ buf, long long n, int4* __restrict__ sink) {
  int4 acc = make_int4(0, 0, 0, 0);
  for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x) {
    int4 v = __ldcg(buf + i);
    acc.x ^= v.x; acc.y ^= v.y; acc.z ^= v.z; acc.w ^= v.w;
  }
  if (acc.x == 0x7eadbeef && acc.y == 0x1234567 && acc.z == -7 && acc.w == 3) sink[0] = acc;  // keeps the reads
}
"""


@functools.lru_cache(maxsize=None)
def flush_kernel(arch: str) -> Kernel:
    """The harness flushes L2 by reading a buffer twice its size with this kernel: a read leaves L2 clean (as Nsight
    Compute's cache control does), where a memset would leave dirty lines for the timed kernel to write back."""
    from .compiler import compile as kopt_compile

    art = kopt_compile(FLUSH_SOURCE, ["kopt_l2_flush"], arch=arch)
    return Kernel(art.cubin, art.kernels["kopt_l2_flush"].lowered)


def cupti_library() -> str | None:
    """libcupti for the harness, or None (the harness then times with CUDA events and says why)."""
    from .toolchain import cupti_library as find

    try:
        return find()
    except Exception:  # not found or unloadable: events are the stated fallback
        return None
