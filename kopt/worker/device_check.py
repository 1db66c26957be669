"""Inputs, comparisons and input-mutation checks on the GPU: kernels kopt compiles with NVRTC for the worker's device.

Inputs come from a counter-based generator (Philox4x32-10): element ``i`` of argument ``stream`` under ``seed`` is a
pure function of the three, so a case is reproducible and generated in one pass over the buffer. The distributions
are the task's (normal through Box-Muller in float64, uniform on [low, high), integers on [low, high)), stored as the
CPU generator stores them (bf16 rounded to nearest even, integers clipped to their type).

The comparison computes, per block of a contiguous range, the figures ``kopt.worker.compare`` computes on the host
(squared error and reference sums, max abs/rel error, mismatches, unwritten elements, NaN/Inf mismatches, the worst
element); the host merges the blocks in order, so the first of equally bad elements is the one reported, as on the
CPU path. Only these partial sums cross to the host."""
from __future__ import annotations

import struct
from dataclasses import dataclass

import numpy as np

from ..dtypes import DType
from ..params import PackedParams

SOURCE = r"""
typedef unsigned long long u64;
typedef unsigned int u32;
typedef unsigned short u16;
typedef unsigned char u8;
#define KOPT_INF __longlong_as_double(0x7ff0000000000000ll)

__device__ __forceinline__ void philox(u32 c[4], u32 k0, u32 k1) {
  #pragma unroll
  for (int r = 0; r < 10; ++r) {
    u32 hi0 = __umulhi(0xD2511F53u, c[0]), lo0 = 0xD2511F53u * c[0];
    u32 hi1 = __umulhi(0xCD9E8D57u, c[2]), lo1 = 0xCD9E8D57u * c[2];
    u32 n0 = hi1 ^ c[1] ^ k0, n2 = hi0 ^ c[3] ^ k1;
    c[0] = n0; c[1] = lo1; c[2] = n2; c[3] = lo0;
    k0 += 0x9E3779B9u; k1 += 0xBB67AE85u;
  }
}

__device__ __forceinline__ double draw(u64 i, u64 seed, u32 stream, int kind, double a, double b) {
  u32 c[4] = {(u32)i, (u32)(i >> 32), stream, 0x6b6f7074u};
  philox(c, (u32)seed, (u32)(seed >> 32));
  if (kind == 0) {  // normal(mean a, std b)
    double u1 = ((double)c[0] + 1.0) * 2.3283064365386963e-10;  // (0, 1]
    double u2 = (double)c[1] * 2.3283064365386963e-10;
    return a + b * sqrt(-2.0 * log(u1)) * cospi(2.0 * u2);
  }
  if (kind == 1) {  // uniform on [a, b)
    double u = (double)((((u64)c[0]) << 21) | (c[1] >> 11)) * 1.1102230246251565e-16;  // 53 bits
    return a + (b - a) * u;
  }
  u64 range = (u64)(b - a);  // integers on [a, b)
  u64 r = ((((u64)c[1]) << 32) | c[0]) % (range ? range : 1);
  return a + (double)r;
}

__device__ __forceinline__ float f16_to_f32(u16 h) { float f; asm("cvt.f32.f16 %0, %1;" : "=f"(f) : "h"(h)); return f; }
__device__ __forceinline__ u16 f32_to_f16(float f) { u16 h; asm("cvt.rn.f16.f32 %0, %1;" : "=h"(h) : "f"(f)); return h; }
__device__ __forceinline__ u16 f32_to_bf16(float f) {
  u32 bits = __float_as_uint(f);
  if (f != f) return 0x7FC0;
  return (u16)((bits + 0x7FFFu + ((bits >> 16) & 1u)) >> 16);
}

struct Partial {
  double err_sq, ref_sq, max_abs, max_rel, worst_score, worst_value, worst_expected;
  u64 mismatches, unwritten, nan_mismatch, worst;
};

__device__ __forceinline__ void merge(Partial& p, const Partial& o) {
  p.err_sq += o.err_sq; p.ref_sq += o.ref_sq;
  p.max_abs = fmax(p.max_abs, o.max_abs); p.max_rel = fmax(p.max_rel, o.max_rel);
  p.mismatches += o.mismatches; p.unwritten += o.unwritten; p.nan_mismatch += o.nan_mismatch;
  if (o.worst_score > p.worst_score || (o.worst_score == p.worst_score && o.worst < p.worst)) {
    p.worst_score = o.worst_score; p.worst = o.worst; p.worst_value = o.worst_value; p.worst_expected = o.worst_expected;
  }
}

// One element: the same figures as kopt.worker.compare._Totals.add on the host.
__device__ __forceinline__ void compare_one(Partial& p, u64 i, double got, double exp, bool unwritten, double atol,
                                            double rtol) {
  bool got_nan = isnan(got), exp_nan = isnan(exp), got_inf = isinf(got), exp_inf = isinf(exp);
  bool special = (got_nan && exp_nan) || (got_inf && exp_inf && (got > 0) == (exp > 0));
  double diff = special ? 0.0 : fabs(got - exp);
  p.nan_mismatch += (u64)(got_nan != exp_nan) + (u64)(got_inf != exp_inf);
  double exp_abs = isfinite(exp) ? fabs(exp) : 0.0;
  bool bad = !(diff <= atol + rtol * exp_abs) && !special;
  bool wrong = bad || unwritten;
  p.mismatches += wrong;
  bool finite = isfinite(diff);
  if (finite) p.err_sq += diff * diff;
  if (isfinite(exp)) p.ref_sq += exp * exp;
  p.max_abs = fmax(p.max_abs, finite ? diff : KOPT_INF);
  double rel = !finite ? KOPT_INF : exp_abs > 0 ? diff / exp_abs : (diff > 0 ? KOPT_INF : 0.0);
  p.max_rel = fmax(p.max_rel, rel);
  double score = wrong ? (finite ? diff : KOPT_INF) + 1.0 : diff;
  if (score > p.worst_score) { p.worst_score = score; p.worst = i; p.worst_value = got; p.worst_expected = exp; }
  p.unwritten += unwritten;
}

template <int THREADS>
__device__ void reduce_store(Partial mine, Partial* out) {
  __shared__ Partial part[THREADS];
  part[threadIdx.x] = mine;
  __syncthreads();
  for (int s = THREADS / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s) merge(part[threadIdx.x], part[threadIdx.x + s]);
    __syncthreads();
  }
  if (threadIdx.x == 0) out[blockIdx.x] = part[0];
}

#define CLAMP(LO, HI) (v != v ? (LO) : fmin(fmax(v, (double)(LO)), (double)(HI)))
"""

# Per storage type: (C type, bits type, is float, raw -> double, double v -> C type)
_TYPES = {
    "f64": ("double", "u64", "true", "(double)raw", "v"),
    "f32": ("float", "u32", "true", "(double)raw", "(float)v"),
    "f16": ("u16", "u16", "true", "(double)f16_to_f32(raw)", "f32_to_f16((float)v)"),
    "bf16": ("u16", "u16", "true", "(double)__uint_as_float(((u32)raw) << 16)", "f32_to_bf16((float)v)"),
    "i64": ("long long", "u64", "false", "(double)raw", "(long long)CLAMP(-9223372036854775808.0, 9223372036854774784.0)"),
    "i32": ("int", "u32", "false", "(double)raw", "(int)CLAMP(-2147483648.0, 2147483647.0)"),
    "i16": ("short", "u16", "false", "(double)raw", "(short)CLAMP(-32768.0, 32767.0)"),
    "i8": ("signed char", "u8", "false", "(double)raw", "(signed char)CLAMP(-128.0, 127.0)"),
    "u64": ("u64", "u64", "false", "(double)raw", "(u64)CLAMP(0.0, 18446744073709549568.0)"),
    "u32": ("u32", "u32", "false", "(double)raw", "(u32)CLAMP(0.0, 4294967295.0)"),
    "u16": ("u16", "u16", "false", "(double)raw", "(u16)CLAMP(0.0, 65535.0)"),
    "u8": ("u8", "u8", "false", "(double)raw", "(u8)CLAMP(0.0, 255.0)"),
}
_PER_TYPE = r"""
extern "C" __global__ void kopt_fill_{name}({S}* out, u64 n, u64 seed, u32 stream, int kind, double a, double b) {{
  for (u64 i = blockIdx.x * (u64)blockDim.x + threadIdx.x; i < n; i += (u64)gridDim.x * blockDim.x) {{
    double v = draw(i, seed, stream, kind, a, b);
    out[i] = {from_f64};
  }}
}}
extern "C" __global__ void __launch_bounds__(256) kopt_compare_{name}(const {S}* got, const double* expected, u64 n,
    u64 chunk, double atol, double rtol, u64 poison, Partial* out) {{
  Partial p = {{0, 0, 0, 0, -1.0, 0, 0, 0, 0, 0, ~0ull}};
  u64 lo = blockIdx.x * chunk, hi = min(n, lo + chunk);
  for (u64 i = lo + threadIdx.x; i < hi; i += blockDim.x) {{
    {S} raw = got[i];
    double exp = expected[i];
    bool unwritten = *(const {B}*)&raw == ({B})poison;
    if (!{is_float} && unwritten) {{  // an integer reference may legitimately equal the pattern
      double v = rint(exp);
      {S} e = {from_f64};
      unwritten = *(const {B}*)&e != ({B})poison;
    }}
    compare_one(p, i, {to_f64}, exp, unwritten, atol, rtol);
  }}
  reduce_store<256>(p, out);
}}
"""
_DIFF = r"""
extern "C" __global__ void kopt_diff_{n}(const {T}* a, const {T}* b, u64 n, u64* count_first) {{
  u64 count = 0, first = ~0ull;
  for (u64 i = blockIdx.x * (u64)blockDim.x + threadIdx.x; i < n; i += (u64)gridDim.x * blockDim.x)
    if (a[i] != b[i]) {{ ++count; first = min(first, i); }}
  if (count) {{ atomicAdd(&count_first[0], count); atomicMin(&count_first[1], first); }}
}}
"""
SOURCE += "".join(_PER_TYPE.format(name=k, S=S, B=B, is_float=f, to_f64=t, from_f64=fr)
                  for k, (S, B, f, t, fr) in _TYPES.items())
SOURCE += "".join(_DIFF.format(n=n, T=T) for n, T in ((1, "u8"), (2, "u16"), (4, "u32"), (8, "u64")))

PARTIAL = np.dtype([("err_sq", "f8"), ("ref_sq", "f8"), ("max_abs", "f8"), ("max_rel", "f8"), ("worst_score", "f8"),
                    ("worst_value", "f8"), ("worst_expected", "f8"), ("mismatches", "u8"), ("unwritten", "u8"),
                    ("nan_mismatch", "u8"), ("worst", "u8")])
KINDS = {"normal": 0, "uniform": 1, "randint": 2}
DTYPE_NAMES = tuple(_TYPES)
THREADS = 256


@dataclass
class Totals:
    """The merged figures of one comparison, the fields ``kopt.worker.compare`` reads from its host totals."""

    err_sq: float
    ref_sq: float
    max_abs: float
    max_rel: float
    mismatches: int
    unwritten: int
    nan_mismatch: int
    worst: int
    worst_value: float | None
    worst_expected: float | None


def _pack(*values) -> PackedParams:
    """Parameters as (format, value) pairs: ``Q`` pointers and 64-bit integers, ``I`` u32, ``i`` int, ``d`` double."""
    return PackedParams([struct.pack("<" + f, v) for f, v in values])


class DeviceChecks:
    """The helper kernels, loaded once per worker for its device."""

    def __init__(self, gpu):
        from ..compiler import compile as kopt_compile

        self.gpu = gpu
        arch = f"sm_{gpu.attribute('COMPUTE_CAPABILITY_MAJOR')}{gpu.attribute('COMPUTE_CAPABILITY_MINOR')}"
        names = [f"kopt_{op}_{d}" for op in ("fill", "compare") for d in DTYPE_NAMES] + \
                [f"kopt_diff_{n}" for n in (1, 2, 4, 8)]
        art = kopt_compile(SOURCE, names, arch=arch, lineinfo=False, options=["-fmad=false"])
        module = gpu.load(art.cubin)
        self._fn = {n: gpu.function(module, art.kernels[n].lowered) for n in names}
        self._grid = gpu.attribute("MULTIPROCESSOR_COUNT") * 8
        self._scratch = gpu.alloc(4096 * PARTIAL.itemsize)

    def fill(self, buf, dt: DType, n: int, seed: int, stream: int, init: dict) -> None:
        """``n`` values of ``dt`` drawn for argument number ``stream`` under ``seed`` into ``buf``."""
        kind = init.get("kind", "normal")
        if kind == "normal":
            a, b = float(init.get("mean", 0.0)), float(init.get("std", 1.0))
        elif kind == "uniform":
            a, b = float(init.get("low", 0.0)), float(init.get("high", 1.0))
        else:
            a, b = float(int(init.get("low", 0))), float(int(init.get("high", 100)))
        params = _pack(("Q", buf.ptr), ("Q", n), ("Q", seed & (2 ** 64 - 1)), ("I", stream & 0xFFFFFFFF),
                       ("i", KINDS[kind]), ("d", a), ("d", b))
        self.gpu.launch(self._fn[f"kopt_fill_{dt.name}"], (min(self._grid, max(1, -(-n // THREADS))), 1, 1),
                        (THREADS, 1, 1), 0, params.address)

    def compare(self, got, dt: DType, expected, n: int, tol: dict) -> Totals:
        """``got`` (``n`` elements of ``dt``) against ``expected`` (``n`` float64) on the device."""
        blocks = max(1, min(4096, -(-n // 8192)))
        chunk = max(1, -(-n // blocks))
        params = _pack(("Q", got.ptr), ("Q", expected.ptr), ("Q", n), ("Q", chunk), ("d", float(tol["atol"])),
                       ("d", float(tol["rtol"])), ("Q", dt.poison & (2 ** (8 * dt.itemsize) - 1)),
                       ("Q", self._scratch.ptr))
        self.gpu.launch(self._fn[f"kopt_compare_{dt.name}"], (blocks, 1, 1), (THREADS, 1, 1), 0, params.address)
        parts = np.empty(blocks, PARTIAL)
        self.gpu.synchronize("comparison")
        self.gpu.download(self._scratch, parts)
        worst_block = None
        for b in range(blocks):  # in order: the first of equally bad elements wins, as on the host
            if parts["worst_score"][b] >= 0 and (worst_block is None or
                                                 parts["worst_score"][b] > parts["worst_score"][worst_block]):
                worst_block = b
        w = parts[worst_block] if worst_block is not None else None
        return Totals(float(parts["err_sq"].sum()), float(parts["ref_sq"].sum()), float(parts["max_abs"].max()),
                      float(parts["max_rel"].max()), int(parts["mismatches"].sum()), int(parts["unwritten"].sum()),
                      int(parts["nan_mismatch"].sum()), int(w["worst"]) if w is not None else 0,
                      float(w["worst_value"]) if w is not None else None,
                      float(w["worst_expected"]) if w is not None else None)

    def differences(self, a, b, itemsize: int, n: int) -> tuple[int, int | None]:
        """(elements whose bits differ, the first such flat index) between two device buffers."""
        counter = np.array([0, 2 ** 64 - 1], np.uint64)
        self.gpu.upload(self._scratch, counter)
        params = _pack(("Q", a.ptr), ("Q", b.ptr), ("Q", n), ("Q", self._scratch.ptr))
        self.gpu.launch(self._fn[f"kopt_diff_{itemsize}"], (min(self._grid, max(1, -(-n // THREADS))), 1, 1),
                        (THREADS, 1, 1), 0, params.address)
        self.gpu.synchronize("input comparison")
        self.gpu.download(self._scratch, counter)
        return int(counter[0]), (int(counter[1]) if counter[0] else None)
