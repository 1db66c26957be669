"""Device ceilings measured once per device (the measuring is the worker's, ``kopt.worker.ceilings``) and the floor
they put under a task.

Ceilings: DRAM bandwidth at several read:write mixes (``STREAM_MIXES``: write-only, 1:2, copy, 2:1, 3:1, read-only),
each measured in steady state (back-to-back launches alternating over two sets of buffers, so a launch's dirty lines
are written back inside the next one's span); the FP32 FMA rate; and
per tensor-core input type (tf32, fp16, bf16, and fp8 from sm_89) the better of an ``mma.sync`` microbenchmark and,
when PyTorch is installed in the worker, a large cuBLAS GEMM — the record says which one set the ceiling.

A task's byte floor is its bytes at the bandwidth that matches its read/write mix (``matching_bandwidth``): the
measured mix when the task's is one (read-only for a kernel that only reads, copy for one that reads and writes as
much, 2:1 for an elementwise add), else the time per byte interpolated linearly in the read fraction between the two
measured mixes around it.
A task that declares ``compute`` adds the time of its flops at that ceiling; the floor is the larger. Percentages
use the steady-state time where there is one (a cold, kernel-only time does not count the write-back of the output
the kernel leaves dirty in L2); the cold percentages are reported beside them. The plausibility check uses the
fastest measured stream, because a read-only kernel (a reduction) moves its bytes faster than a copy can."""
from __future__ import annotations

import json
import time

from . import cache
from .diagnostic import Diagnostic, Location
from .protocol import stream_kernel
from .rules import RULES
from .task import COMPUTE

# The read:write mixes measured (reads, writes): write-only, 1:2, copy, 2:1, 3:1, read-only.
STREAM_MIXES = ((0, 1), (1, 2), (1, 1), (2, 1), (3, 1), (1, 0))
# 16-byte vectors per plane per thread, all loaded before any is used: each mix is measured with each count (four,
# as an unrolled elementwise kernel; one, as a one-element-per-thread kernel with a grid over everything) and the
# faster counts, since neither is the faster on every mix (on an H200 one-per-thread KB kernels out-streamed the
# four-vector kernel on a copy mix by 4 %)
STREAM_ITEMS = (4, 1)
_STREAM = r"""
// Each block owns BLOCK * ITEMS consecutive groups; a thread reads ITEMS 16-byte vectors from each of R source
// planes (all loads issued before any is used, every warp instruction 512 contiguous bytes) and writes ITEMS to each
// of W destination planes, as an unrolled elementwise kernel does. R:W sets the mix.
template <int R, int W, int ITEMS>
__device__ __forceinline__ void kopt_stream_body(const float4* __restrict__ src, float4* __restrict__ dst,
                                                 long long groups) {
  const long long base = (long long)blockIdx.x * blockDim.x * ITEMS + threadIdx.x;
  float4 s[ITEMS];
#pragma unroll
  for (int j = 0; j < ITEMS; ++j) s[j] = make_float4(0.f, 0.f, 0.f, 0.f);
  if (R > 0) {
    float4 v[R > 0 ? R : 1][ITEMS];
#pragma unroll
    for (int k = 0; k < R; ++k)
#pragma unroll
      for (int j = 0; j < ITEMS; ++j) {
        const long long g = base + (long long)j * blockDim.x;
        v[k][j] = g < groups ? src[k * groups + g] : make_float4(0.f, 0.f, 0.f, 0.f);
      }
#pragma unroll
    for (int k = 0; k < R; ++k)
#pragma unroll
      for (int j = 0; j < ITEMS; ++j) {
        s[j].x += v[k][j].x; s[j].y += v[k][j].y; s[j].z += v[k][j].z; s[j].w += v[k][j].w;
      }
  }
#pragma unroll
  for (int j = 0; j < ITEMS; ++j) {
    const long long g = base + (long long)j * blockDim.x;
    if (g >= groups) continue;
    if (W == 0) {
      if (s[j].x == -1.f) dst[g] = s[j];  // never true for the 1.0 fill: keeps the loads
    }
#pragma unroll
    for (int k = 0; k < W; ++k) dst[k * groups + g] = s[j];
  }
}
"""
_STREAM_KERNEL = r"""
extern "C" __global__ void NAME(const float4* __restrict__ src, float4* __restrict__ dst, long long groups) {
  kopt_stream_body<R, W, ITEMS>(src, dst, groups);
}
"""


COPY_SOURCE = _STREAM + "".join(
    _STREAM_KERNEL.replace("NAME", stream_kernel(r, w, n)).replace("<R, W, ITEMS>", f"<{r}, {w}, {n}>")
    for r, w in STREAM_MIXES for n in STREAM_ITEMS) + r"""
extern "C" __global__ void kopt_fma(float* out, int iters) {
  float a = threadIdx.x * 1e-3f, b = a + 1.f, c = a + 2.f, d = a + 3.f, e = a + 4.f, f = a + 5.f, g = a + 6.f,
        h = a + 7.f;
  const float m = 0.999f, k = 1e-4f;
  for (int i = 0; i < iters; ++i) {
#pragma unroll
    for (int j = 0; j < 16; ++j) {
      a = a * m + k; b = b * m + k; c = c * m + k; d = d * m + k;
      e = e * m + k; f = f * m + k; g = g * m + k; h = h * m + k;
    }
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = a + b + c + d + e + f + g + h;
}
"""
# Tensor-core throughput: each warp issues MMA_CHAINS independent chains of mma.sync on register operands (no memory
# traffic), so the tensor pipes stay busy. One kernel per input type; a body compiled only where the instruction
# exists (the type's minimum arch, TENSOR_TYPES).
MMA_CHAINS = 4
_MMA = r"""
extern "C" __global__ void kopt_mma_NAME(float* out, int iters) {
  float acc[CHAINS][4];
#pragma unroll
  for (int c = 0; c < CHAINS; ++c) acc[c][0] = acc[c][1] = acc[c][2] = acc[c][3] = 0.f;
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= MINARCH
  const unsigned a0 = A_BITS ^ (threadIdx.x & 1), a1 = A_BITS, a2 = A_BITS, a3 = A_BITS, b0 = A_BITS, b1 = A_BITS;
  for (int i = 0; i < iters; ++i) {
#pragma unroll
    for (int c = 0; c < CHAINS; ++c)
      asm volatile("mma.sync.aligned.SHAPE.row.col.f32.TYPE.TYPE.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "
                   "{%0, %1, %2, %3};"
                   : "+f"(acc[c][0]), "+f"(acc[c][1]), "+f"(acc[c][2]), "+f"(acc[c][3])
                   : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
  }
#endif
  float s = 0.f;
#pragma unroll
  for (int c = 0; c < CHAINS; ++c) s += acc[c][0] + acc[c][1] + acc[c][2] + acc[c][3];
  out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}
"""
# type -> (PTX type, mma shape, flops per warp-level mma = 2 m n k, minimum __CUDA_ARCH__, operand bits: small
# values, so the accumulators stay finite)
TENSOR_TYPES = {
    "tf32": ("tf32", "m16n8k8", 2 * 16 * 8 * 8, 800, "0x3C000000u"),  # 2^-7 in each 32-bit lane
    "fp16": ("f16", "m16n8k16", 2 * 16 * 8 * 16, 800, "0x20002000u"),  # 2^-7 in each half
    "bf16": ("bf16", "m16n8k16", 2 * 16 * 8 * 16, 800, "0x3C003C00u"),  # 2^-7 in each bf16
    "fp8": ("e4m3", "m16n8k32", 2 * 16 * 8 * 32, 890, "0x20202020u"),  # 2^-3 in each e4m3 byte
}
TENSOR_SOURCE = "".join(
    _MMA.replace("NAME", name).replace("TYPE", ptx).replace("SHAPE", shape).replace("MINARCH", str(minarch))
    .replace("A_BITS", bits).replace("CHAINS", str(MMA_CHAINS))
    for name, (ptx, shape, _, minarch, bits) in TENSOR_TYPES.items())
def tensor_request() -> tuple:
    """What the worker needs to turn the mma kernels' times into rates: (type, flops of one warp per iteration,
    minimum __CUDA_ARCH__) per type."""
    return tuple((t, flops * MMA_CHAINS, minarch) for t, (_, _, flops, minarch, _) in TENSOR_TYPES.items())


CEILING_KERNELS = [stream_kernel(r, w, n) for r, w in STREAM_MIXES for n in STREAM_ITEMS] + ["kopt_fma"] + [f"kopt_mma_{t}" for t in TENSOR_TYPES]

IMPLAUSIBLE = 0.9  # a time below 0.9 x the fastest-stream byte floor cannot be real
CEILINGS_VERSION = 5  # bump when the measured set changes: cached entries of older versions are measured again


def ceilings(worker, gpu_name: str, driver: str, arch: str) -> dict:
    """Measured ceilings for this device, cached on disk per GPU and driver."""
    path = cache.cache_dir() / "ceilings.json"
    key = f"{gpu_name}|{driver}|{CEILINGS_VERSION}"
    try:
        known = json.loads(path.read_text())
    except (OSError, ValueError):
        known = {}
    if key in known:
        return known[key]
    from .compiler import compile as kopt_compile
    from .flush import cupti_library, flush_kernel
    from .protocol import CeilingsRequest, Ok

    art = kopt_compile(COPY_SOURCE + TENSOR_SOURCE, CEILING_KERNELS, arch=arch)
    reply = worker.call(CeilingsRequest(art.cubin, flush_kernel(arch), cupti_library(), tensor_request(),
                                        STREAM_MIXES, STREAM_ITEMS))
    if not isinstance(reply, Ok):
        return {}  # the figures that need ceilings are left out; the timing itself stands
    found = {**reply.payload, "measured": time.strftime("%Y-%m-%d")}
    known[key] = found
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(known, indent=2))
    return found


_NAMES = {(0, 1): "write-only", (1, 1): "copy", (1, 0): "read-only"}
_KEYS = ((0.0, "write_gbps", "write-only"), (0.5, "copy_gbps", "copy"), (1.0, "read_gbps", "read-only"))


def stream_points(ceil: dict) -> list[tuple[float, float, str]]:
    """(read fraction, GB/s, name) of every measured stream, by read fraction."""
    if ceil.get("streams"):
        pts = [(s["reads"] / (s["reads"] + s["writes"]), s["gbps"],
                _NAMES.get((s["reads"], s["writes"]), f"{s['reads']}:{s['writes']} read:write"))
               for s in ceil["streams"] if s.get("gbps")]
    else:  # a record with the three streams only
        pts = [(f, ceil[key], name) for f, key, name in _KEYS if ceil.get(key)]
    return sorted(pts)


def matching_bandwidth(ceil: dict, read_bytes: float, written_bytes: float) -> tuple[float, str] | None:
    """(GB/s, which) for traffic of this read/write mix: the measured stream of that mix when there is one, else
    the time per byte interpolated linearly in the read fraction between the two measured mixes around it (outside
    the measured ones: the nearest). None when no bandwidth was measured."""
    points = stream_points(ceil)
    total = read_bytes + written_bytes
    if not points or total <= 0:
        return None
    f = read_bytes / total
    for p, gbps, name in points:
        if abs(p - f) < 1e-6:
            return gbps, name
    below = [p for p in points if p[0] < f]
    above = [p for p in points if p[0] > f]
    if not below or not above:
        p, gbps, name = below[-1] if below else above[0]
        return gbps, f"{name} (the nearest measured mix to {100 * f:.0f} % read)"
    (f0, g0, n0), (f1, g1, n1) = below[-1], above[0]
    w = (f - f0) / (f1 - f0)
    per_byte = (1 - w) / g0 + w / g1
    return 1 / per_byte, f"{100 * f:.0f} % read (between {n0} and {n1})"


def compute_ceiling(ceil: dict, compute: str | None) -> tuple[float | None, str]:
    """(TFLOP/s or None, what it is / why there is none) for a task's ``compute``."""
    if compute is None:
        return None, ""
    if compute == "fp32":
        t = ceil.get("fp32_tflops")
        return t, COMPUTE[compute] if t else "no FP32 FMA ceiling measured"
    kind = compute.removesuffix("-tensor")
    entry = (ceil.get("tensor") or {}).get(kind) or {}
    if entry.get("tflops"):
        return entry["tflops"], f"{COMPUTE[compute]} ({entry.get('source', 'measured')})"
    return None, f"no {kind} tensor-core ceiling on this device ({entry.get('note', 'not measured')})"


def cached_ceilings(gpu_name: str, driver: str) -> dict | None:
    """This device's ceilings if ``ceilings`` measured them already (no GPU work), else None."""
    try:
        return json.loads((cache.cache_dir() / "ceilings.json").read_text()).get(
            f"{gpu_name}|{driver}|{CEILINGS_VERSION}")
    except (OSError, ValueError, AttributeError):
        return None


def figures(work: dict, median_us: float, ceil: dict, steady_us: float | None = None,
            compute: str | None = None) -> dict:
    """Achieved rates and the share of the floor for one cold median (and its steady-state figure). ``basis``
    says which time the unsuffixed percentages use: the steady-state one when there is one, else the cold one."""
    out: dict = {}
    t = steady_us or median_us
    out["basis"] = "steady" if steady_us else "cold"
    bytes_, flops = work.get("bytes"), work.get("flops")
    if bytes_:
        out["gbps"] = bytes_ / median_us / 1e3
        if steady_us:
            out["steady_gbps"] = bytes_ / steady_us / 1e3
    if flops:
        out["tflops"] = flops / median_us / 1e6
        if steady_us:
            out["steady_tflops"] = flops / steady_us / 1e6
    floors = []
    if bytes_:
        # no split known (a work model from elsewhere): the copy mix, half read and half written
        read = work.get("bytes_read", bytes_ / 2)
        written = work.get("bytes_written", bytes_ - read)
        bw = matching_bandwidth(ceil, read, written)
        if bw:
            gbps, which = bw
            out["ceiling"], out["ceiling_gbps"] = which, gbps
            out["byte_floor_us"] = bytes_ / gbps / 1e3
            floors.append(out["byte_floor_us"])
            out["pct_of_bandwidth"] = 100.0 * out["byte_floor_us"] / t
            fastest = max(g for _, g, _ in stream_points(ceil))
            out["fastest_byte_floor_us"] = bytes_ / fastest / 1e3
            if median_us < out["byte_floor_us"]:
                out["note"] = (f"the cold time ({median_us:.2f} us) beats the byte floor ({out['byte_floor_us']:.2f} us "
                               f"at {which} bandwidth)" + (
                                   ": the output it leaves dirty in L2 is written back after the timed window"
                                   if written > 0 else "") + (
                                   f"; in steady state, where that write-back is counted, {steady_us:.2f} us"
                                   if steady_us else ""))
    if flops and ceil.get("fp32_tflops"):
        out["fp32_floor_us"] = flops / ceil["fp32_tflops"] / 1e6  # reported; a floor only for compute = "fp32"
    if flops and compute:
        tflops, what = compute_ceiling(ceil, compute)
        out["compute"] = what
        if tflops:
            out["compute_ceiling_tflops"] = tflops
            out["compute_floor_us"] = flops / tflops / 1e6
            floors.append(out["compute_floor_us"])
            out["pct_of_compute_peak"] = 100.0 * out["compute_floor_us"] / t
            if compute.endswith("-tensor"):
                out["pct_of_tensor_peak"] = out["pct_of_compute_peak"]
    if floors:
        out["floor_us"] = max(floors)
        out["pct_of_roofline"] = 100.0 * out["floor_us"] / t
        out["pct_of_roofline_cold"] = 100.0 * out["floor_us"] / median_us
    return out


def implausible(fig: dict, median_us: float, who: str, shape: str) -> Diagnostic | None:
    floor = fig.get("fastest_byte_floor_us", fig.get("byte_floor_us"))
    if floor and median_us < IMPLAUSIBLE * floor:
        return RULES["timing.implausible"].diag(
            f"{who} at {shape}: median {median_us:.2f} us is below {IMPLAUSIBLE:g} x the time needed to move the "
            f"task's bytes at the fastest measured bandwidth (copy, read-only or write-only: {floor:.2f} us): the "
            f"timing is rejected", Location(who, 1, role="candidate"))
    return None
