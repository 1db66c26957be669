"""Device ceilings measured once per device (copy and read bandwidth, FP32 FMA rate) and the floor they put under a
task. Reports give % of the copy bandwidth; the plausibility check uses the fastest measured stream, because a
read-only kernel (a reduction) moves its bytes faster than a copy can (~4.5 vs ~4.0 TB/s on an H200)."""
from __future__ import annotations

import json
import struct
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


def measure_ceilings(gpu, message: dict, phase) -> dict:
    """Worker side: copy 2 x 1 GiB and read 1 GiB with vectorized kernels, then a register-only FFMA kernel, through
    the harness."""
    from . import _harness
    from .dtypes import dtype
    from .gpu import PackedParams
    from .timing import cupti_library, flush_options

    module = gpu.load(message["cubin"])
    sms = gpu.attribute("MULTIPROCESSOR_COUNT")
    n4 = (1 << 30) // 16
    src, dst = gpu.alloc(n4 * 16), gpu.alloc(n4 * 16)
    gpu.fill(src, dtype("f32"), 0x3F800000)
    out = gpu.alloc(sms * 8 * 256 * 4)
    iters = 2048
    copy_params = PackedParams([struct.pack("<Q", src.ptr), struct.pack("<Q", dst.ptr), struct.pack("<q", n4)])
    fma_params = PackedParams([struct.pack("<Q", out.ptr), struct.pack("<i", iters)])
    read_params = PackedParams([struct.pack("<Q", src.ptr), struct.pack("<Q", out.ptr), struct.pack("<q", n4)])
    copy_fn, fma_fn = gpu.function(module, "kopt_copy"), gpu.function(module, "kopt_fma")
    read_fn = gpu.function(module, "kopt_read")
    opts = {"max_time": 3.0, "cupti_library": cupti_library(), **flush_options(gpu)}
    phase("timing", 120)

    def spec(fn, params) -> dict:  # one launch of a measuring kernel on the full-GPU grid
        return {"launches": [{"function": int(fn), "grid": [sms * 8, 1, 1], "block": [256, 1, 1], "smem": 0,
                              "params": [params.address]}], "resets": [[]]}

    copy, read, fma = _harness.measure([spec(copy_fn, copy_params), spec(read_fn, read_params),
                                        spec(fma_fn, fma_params)], opts)
    for b in (src, dst, out):
        gpu.free(b)
    med = lambda xs: sorted(xs)[len(xs) // 2]  # noqa: E731
    copy_us, read_us, fma_us = med(copy["samples_us"]), med(read["samples_us"]), med(fma["samples_us"])
    fma_flops = 2.0 * sms * 8 * 256 * iters * 16 * 8
    return {"copy_gbps": 2 * n4 * 16 / copy_us / 1e3, "read_gbps": n4 * 16 / read_us / 1e3,
            "fp32_tflops": fma_flops / fma_us / 1e6, "copy_us": copy_us, "read_us": read_us, "fma_us": fma_us,
            "method": copy["method"], "sms": sms}


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

    art = kopt_compile(COPY_SOURCE, ["kopt_copy", "kopt_read", "kopt_fma"], arch=arch)
    reply = worker.request({"op": "ceilings", "cubin": art.cubin})
    if not isinstance(reply, dict) or reply.get("event") == "error":
        return {}
    reply = {k: v for k, v in reply.items() if k != "event"}
    reply["measured"] = time.strftime("%Y-%m-%d")
    known[key] = reply
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(known, indent=2))
    return reply


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
