"""Device ceilings measured once per device (copy and read bandwidth, FP32 FMA rate; the measuring is the worker's,
``kopt.worker.ceilings``) and the floor they put under a task. Reports give % of the copy bandwidth; the plausibility check uses the fastest measured stream, because a
read-only kernel (a reduction) moves its bytes faster than a copy can (~4.5 vs ~4.0 TB/s on an H200)."""
from __future__ import annotations

import json
import time

from . import cache
from .diagnostic import Diagnostic, Location
from .rules import RULES

COPY_SOURCE = r"""
extern "C" __global__ void kopt_copy(const float4* __restrict__ src, float4* __restrict__ dst, long long n) {
  for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x)
    dst[i] = src[i];
}
extern "C" __global__ void kopt_read(const float4* __restrict__ src, float* __restrict__ out, long long n) {
  float s = 0.f;
  for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x) {
    const float4 v = src[i];
    s += (v.x + v.y) + (v.z + v.w);
  }
  if (s == -1.f) out[blockIdx.x * blockDim.x + threadIdx.x] = s;  // never true for the 1.0 fill: keeps the loads
}
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
IMPLAUSIBLE = 0.9  # a time below 0.9 x the fastest-stream byte floor cannot be real
CEILINGS_VERSION = 2  # bump when the measured set changes: cached entries of older versions are measured again


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

    art = kopt_compile(COPY_SOURCE, ["kopt_copy", "kopt_read", "kopt_fma"], arch=arch)
    reply = worker.call(CeilingsRequest(art.cubin, flush_kernel(arch), cupti_library()))
    if not isinstance(reply, Ok):
        return {}  # the figures that need ceilings are left out; the timing itself stands
    found = {**reply.payload, "measured": time.strftime("%Y-%m-%d")}
    known[key] = found
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(known, indent=2))
    return found


def cached_ceilings(gpu_name: str, driver: str) -> dict | None:
    """This device's ceilings if ``ceilings`` measured them already (no GPU work), else None."""
    try:
        return json.loads((cache.cache_dir() / "ceilings.json").read_text()).get(
            f"{gpu_name}|{driver}|{CEILINGS_VERSION}")
    except (OSError, ValueError, AttributeError):
        return None


def figures(work: dict, median_us: float, ceil: dict) -> dict:
    """Achieved rates and the share of the floor for one median. The floor is the byte time at the copy bandwidth;
    the FP32 FMA time is reported beside it but is no floor (tensor-core kernels beat it)."""
    out = {}
    bytes_, flops = work.get("bytes"), work.get("flops")
    if bytes_:
        out["gbps"] = bytes_ / median_us / 1e3
    if flops:
        out["tflops"] = flops / median_us / 1e6
    floors = []
    if bytes_ and ceil.get("copy_gbps"):
        out["byte_floor_us"] = bytes_ / ceil["copy_gbps"] / 1e3
        floors.append(out["byte_floor_us"])
        fastest = max(ceil["copy_gbps"], ceil.get("read_gbps") or 0.0)
        out["fastest_byte_floor_us"] = bytes_ / fastest / 1e3
    if flops and ceil.get("fp32_tflops"):
        out["fp32_floor_us"] = flops / ceil["fp32_tflops"] / 1e6
    if floors:
        out["floor_us"] = max(floors)
        out["pct_of_roofline"] = 100.0 * out["floor_us"] / median_us
    return out


def implausible(fig: dict, median_us: float, who: str, shape: str) -> Diagnostic | None:
    floor = fig.get("fastest_byte_floor_us", fig.get("byte_floor_us"))
    if floor and median_us < IMPLAUSIBLE * floor:
        return RULES["timing.implausible"].diag(
            f"{who} at {shape}: median {median_us:.2f} us is below {IMPLAUSIBLE:g} x the time needed to move the "
            f"task's bytes at the fastest measured bandwidth (copy or read-only: {floor:.2f} us): the timing is "
            f"rejected", Location(who, 1, role="candidate"))
    return None
