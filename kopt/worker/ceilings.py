"""The ceilings request: the device's copy and read bandwidth and FP32 FMA rate, measured with the kernels the
parent compiled (``kopt.roofline.COPY_SOURCE``) through the harness."""
from __future__ import annotations

import struct

from ..dtypes import dtype
from ..protocol import CeilingsRequest
from ..params import PackedParams
from .timing import harness_options, measure


def measure_ceilings(gpu, request: CeilingsRequest, phase) -> dict:
    """Copy 2 x 1 GiB and read 1 GiB with vectorized kernels, then a register-only FFMA kernel."""
    module = gpu.load(request.kernels)
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
    opts = harness_options(gpu, {"max_time": 3.0}, request.flush, request.cupti_library)
    phase("timing", 120)

    def spec(fn, params) -> dict:  # one launch of a measuring kernel on the full-GPU grid
        return {"launches": [{"function": int(fn), "grid": [sms * 8, 1, 1], "block": [256, 1, 1], "smem": 0,
                              "params": [params.address]}], "resets": [[]]}

    copy, read, fma = measure([spec(copy_fn, copy_params), spec(read_fn, read_params), spec(fma_fn, fma_params)],
                              opts)
    for b in (src, dst, out):
        gpu.free(b)
    med = lambda xs: sorted(xs)[len(xs) // 2]  # noqa: E731
    copy_us, read_us, fma_us = med(copy["samples_us"]), med(read["samples_us"]), med(fma["samples_us"])
    fma_flops = 2.0 * sms * 8 * 256 * iters * 16 * 8
    return {"copy_gbps": 2 * n4 * 16 / copy_us / 1e3, "read_gbps": n4 * 16 / read_us / 1e3,
            "fp32_tflops": fma_flops / fma_us / 1e6, "copy_us": copy_us, "read_us": read_us, "fma_us": fma_us,
            "method": copy["method"], "sms": sms}
