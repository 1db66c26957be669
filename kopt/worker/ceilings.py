"""The ceilings request: the device's copy, read-only and write-only bandwidth, FP32 FMA rate and tensor-core rates,
measured with the kernels the parent compiled (``kopt.roofline.COPY_SOURCE`` and ``TENSOR_SOURCE``) through the
harness, and, when PyTorch is installed here, cuBLAS GEMMs for the tensor-core types."""
from __future__ import annotations

import struct

from ..dtypes import dtype
from ..params import PackedParams
from ..protocol import CeilingsRequest, stream_kernel
from .timing import harness_options, measure

GRID_PER_SM, BLOCK = 8, 256
FMA_ITERS, MMA_ITERS = 2048, 2048
GEMM_N = 8192  # the cuBLAS GEMMs: n x n x n, large enough to run at the device's tensor-core rate


def _median(xs: list) -> float:
    return sorted(xs)[len(xs) // 2]


def mma_types(tensor: tuple, cc: int) -> dict[str, str]:
    """Of the request's tensor-core types ((type, flops per warp per iteration, minimum arch)), those the mma.sync microbenchmark measures at
    compute capability ``cc`` (e.g. 90) with an empty reason, the others with why not."""
    out = {}
    for t, _, minarch in tensor:
        if cc * 10 < minarch:
            out[t] = f"mma.sync {t} needs sm_{minarch // 10}"
        elif t == "fp8" and cc >= 90:
            out[t] = "mma.sync fp8 runs as FP16 MMAs on sm_90 and newer (FP8 peak needs wgmma): not measured"
        else:
            out[t] = ""
    return out


def plane_bytes(l2_bytes: int, total_memory: int) -> int:
    """Bytes of one plane of the stream kernels, in 16 MiB steps: twice the L2 at least (so that one launch over a
    set moves enough to evict everything the other set left in L2), and up to 1 GiB where memory allows (a fortieth
    of it: two sets of five planes), so that a launch runs for ~1 ms like the large bench shapes: at 128 MiB planes
    (60-100 us launches) the ramp and tail of each launch made the ceilings 2-7 % slower than 1-3 GiB elementwise
    kernels measured on an H200."""
    step = 16 << 20
    return max(-(-2 * l2_bytes // step) * step, min(1 << 30, total_memory // 40 // step * step), 128 << 20)


def measure_ceilings(gpu, request: CeilingsRequest, phase) -> dict:
    """The stream kernel at each read:write mix in steady state (two sets of planes that batches alternate over),
    then register-only FFMA and mma.sync kernels, then (PyTorch present) cuBLAS GEMMs."""
    mixes = request.streams
    module = gpu.load(request.kernels)
    sms = gpu.attribute("MULTIPROCESSOR_COUNT")
    cc = gpu.attribute("COMPUTE_CAPABILITY_MAJOR") * 10 + gpu.attribute("COMPUTE_CAPABILITY_MINOR")
    plane = plane_bytes(gpu.attribute("L2_CACHE_SIZE"), gpu.total_memory())
    groups = plane // 16
    max_reads = max(max(r for r, _ in mixes), 1)
    max_writes = max(max(w for _, w in mixes), 1)
    sets = [(gpu.alloc(max_reads * plane), gpu.alloc(max_writes * plane)) for _ in range(2)]
    for src, _ in sets:
        gpu.fill(src, dtype("f32"), 0x3F800000)
    grid = sms * GRID_PER_SM
    out = gpu.alloc(grid * BLOCK * 4)

    def params(*values) -> PackedParams:
        return PackedParams([struct.pack(f, v) for f, v in values])

    ptr = lambda b: ("<Q", b.ptr)  # noqa: E731
    streams = {mix: [params(ptr(src), ptr(dst), ("<q", groups)) for src, dst in sets] for mix in mixes}
    fma = params(ptr(out), ("<i", FMA_ITERS))
    mma = params(ptr(out), ("<i", MMA_ITERS))
    types = mma_types(request.tensor, cc)
    warp_flops = {t: flops for t, flops, _ in request.tensor}
    measured = [t for t, why in types.items() if not why]
    opts = harness_options(gpu, {"max_time": 1.0, "steady_max_time": 1.0}, request.flush, request.cupti_library)
    phase("timing", 180)

    def spec(name: str, first: PackedParams, steady=(), blocks: int = grid) -> dict:  # one launch
        return {"launches": [{"function": int(gpu.function(module, name)), "grid": [blocks, 1, 1],
                              "block": [BLOCK, 1, 1], "smem": 0, "params": [first.address],
                              "steady_params": [p.address for p in steady]}],
                "resets": [[]], "steady_resets": [[] for _ in steady]}

    items = tuple(request.stream_items)  # each mix with each vector count per thread; the faster one counts
    benches = [spec(stream_kernel(r, w, n), ps[0], ps, -(-groups // (BLOCK * n)))
               for (r, w), ps in streams.items() for n in items]
    benches += [spec("kopt_fma", fma)] + [spec(f"kopt_mma_{t}", mma) for t in measured]
    results = measure(benches, opts)
    for src, dst in sets:
        gpu.free(src)
        gpu.free(dst)
    gpu.free(out)
    found: dict = {"method": results[0]["method"], "sms": sms, "compute_capability": cc, "stream_plane_bytes": plane}
    notes, rows = [], []
    for i, (r, w) in enumerate(mixes):
        nbytes = (r + w) * plane
        variants = []
        for n, res in zip(items, results[i * len(items):(i + 1) * len(items)]):
            row = {"reads": r, "writes": w, "vectors_per_thread": n,
                   "gbps_cold": nbytes / _median(res["samples_us"]) / 1e3}
            if res.get("steady_samples_us"):
                row["us"] = _median(res["steady_samples_us"])
                row["gbps"] = nbytes / row["us"] / 1e3
            else:  # no CUPTI: the cold figure, and the record says so
                row["us"], row["gbps"] = _median(res["samples_us"]), row["gbps_cold"]
                row["note"] = f"cold ({res.get('steady_note') or 'no steady state'})"
            variants.append(row)
        row = max(variants, key=lambda v: v["gbps"])
        row["gbps_by_vectors_per_thread"] = {v["vectors_per_thread"]: round(v["gbps"], 1) for v in variants}
        note = row.pop("note", None)
        if note:
            notes.append(f"{r}:{w} {note}")
        rows.append(row)
        key = {(1, 1): "copy", (1, 0): "read", (0, 1): "write"}.get((r, w))
        if key:
            found[f"{key}_gbps"], found[f"{key}_gbps_cold"] = row["gbps"], row["gbps_cold"]
    found["streams"] = rows
    found["bandwidth"] = ("steady state: back-to-back launches alternating over two sets of planes (write-back of "
                          "dirty lines inside the spans)" + (f"; {'; '.join(notes)}" if notes else ""))
    k = len(mixes) * len(items)
    found["fma_us"] = _median(results[k]["samples_us"])
    found["fp32_tflops"] = 2.0 * grid * BLOCK * FMA_ITERS * 16 * 8 / found["fma_us"] / 1e6
    tensor: dict = {}
    for t, r in zip(measured, results[k + 1:]):
        us = _median(r["samples_us"])
        flops = warp_flops[t] * MMA_ITERS * grid * (BLOCK // 32)
        tensor[t] = {"mma_sync_tflops": flops / us / 1e6}
    for t, why in types.items():
        if why:
            tensor.setdefault(t, {})["mma_sync_note"] = why
    phase("timing", 300)
    for t, got in cublas_tflops(gpu, request, cc).items():
        tensor.setdefault(t, {}).update(got)
    for t, e in tensor.items():
        best = max(((e.get("mma_sync_tflops") or 0.0, "mma.sync microbenchmark (NVRTC)"),
                    (e.get("cublas_tflops") or 0.0, e.get("cublas", "cuBLAS"))))
        if best[0] > 0:
            e["tflops"], e["source"] = best
            if best[1].startswith("mma.sync") and cc >= 90:
                e["source"] += "; wgmma kernels can exceed it (no cuBLAS figure: PyTorch absent or failed)"
        else:
            e["note"] = "; ".join(filter(None, [e.get("mma_sync_note"), e.get("cublas_note")]))
    found["tensor"] = tensor
    return found


def cublas_tflops(gpu, request: CeilingsRequest, cc: int) -> dict[str, dict]:
    """Per tensor-core type, the rate of an n^3 cuBLAS GEMM through PyTorch (timed by the harness like any function:
    CUPTI span of its kernels, L2 flushed), or why there is none."""
    types = [t for t, _, _ in request.tensor]
    try:
        import torch
    except ImportError:
        return {t: {"cublas_note": "PyTorch not installed in the worker: no cuBLAS GEMM"} for t in types}
    if not torch.cuda.is_available():
        return {t: {"cublas_note": "PyTorch sees no CUDA device"} for t in types}
    n = GEMM_N
    opts = harness_options(gpu, {"max_time": 1.0}, request.flush, request.cupti_library)
    out: dict[str, dict] = {}
    precision = torch.get_float32_matmul_precision()
    try:
        for t in types:
            if t == "fp8" and cc < 89:
                out[t] = {"cublas_note": "FP8 GEMMs need sm_89"}
                continue
            try:
                fn, what = _gemm(torch, t, n)
                fn()
                torch.cuda.synchronize()
                [r] = measure([{"launches": [], "resets": [[]], "call": _returns_true(fn)}], opts)
                if not r["samples_us"]:
                    out[t] = {"cublas_note": f"{what}: no samples"}
                    continue
                out[t] = {"cublas_tflops": 2.0 * n ** 3 / _median(r["samples_us"]) / 1e6, "cublas": what}
            except Exception as exc:  # an unsupported type or API in this PyTorch: that type has no cuBLAS figure
                out[t] = {"cublas_note": f"{type(exc).__name__}: {str(exc).splitlines()[0][:200] if str(exc) else ''}"}
            finally:
                torch.set_float32_matmul_precision(precision)
                torch.cuda.empty_cache()
    finally:
        torch.cuda.synchronize()
    return out


def _returns_true(fn):
    def call() -> bool:  # an exception cannot cross the harness: False stops it, which raises HarnessError
        try:
            fn()
            return True
        except Exception:
            return False
    return call


def _gemm(torch, t: str, n: int):
    """(function, what it runs) for an n^3 GEMM of tensor-core type ``t``."""
    if t in ("bf16", "fp16"):
        dt = torch.bfloat16 if t == "bf16" else torch.float16
        a, b = torch.randn(n, n, device="cuda", dtype=dt), torch.randn(n, n, device="cuda", dtype=dt)
        return (lambda: torch.mm(a, b)), f"cuBLAS GEMM {n}^3 via torch.mm ({t} in, {t} out)"
    if t == "tf32":
        a, b = torch.randn(n, n, device="cuda"), torch.randn(n, n, device="cuda")
        torch.set_float32_matmul_precision("high")  # TF32 tensor cores for f32 matmuls (restored by the caller)
        return (lambda: torch.mm(a, b)), f"cuBLAS GEMM {n}^3 via torch.mm (f32 with TF32 allowed)"
    a = torch.randn(n, n, device="cuda").to(torch.float8_e4m3fn)
    b = torch.randn(n, n, device="cuda").to(torch.float8_e4m3fn).t()  # column-major, as _scaled_mm requires
    one = torch.ones((), device="cuda")
    return ((lambda: torch._scaled_mm(a, b, scale_a=one, scale_b=one, out_dtype=torch.bfloat16)),
            f"cuBLASLt GEMM {n}^3 via torch._scaled_mm (e4m3 in, bf16 out)")
