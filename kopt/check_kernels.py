"""The kernels a check runs besides the candidate's, compiled by the parent like the L2 flush kernel and sent with
each check and timing request: inputs drawn on the GPU, outputs compared with the reference there, inputs compared
bit for bit after a run (``kopt.worker.device_check`` runs them).

Inputs come from a counter-based generator (Philox4x32-10): element ``i`` of argument ``stream`` under ``seed`` is a
pure function of the three, so a case is reproducible and generated in one pass over the buffer. The distributions
are the task's (normal through Box-Muller in float64, uniform on [low, high), integers on [low, high)), stored as the
CPU generator stores them (bf16 rounded to nearest even, integers clipped to their type).

The comparison computes, per block of a contiguous range, the figures ``kopt.worker.compare`` computes on the host
(squared error and reference sums, max abs/rel error, mismatches, unwritten elements, NaN/Inf mismatches, the worst
element); the host merges the blocks in order, so the first of equally bad elements is the one reported, as on the
CPU path. It is compiled with ``-fmad=false`` so that ``atol + rtol * |ref|`` rounds as numpy's does."""
from __future__ import annotations

import functools
import os

from .errors import KoptError
from .protocol import HelperKernels

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


def wanted() -> bool:
    """Whether checks run on the GPU (``KOPT_CHECK_ON=cpu`` keeps them on the host)."""
    return os.environ.get("KOPT_CHECK_ON", "gpu") != "cpu"


def for_request(arch: str) -> HelperKernels | None:
    """The check kernels to send with a request: None keeps the check on the host (``KOPT_CHECK_ON=cpu``, or the
    kernels do not compile for ``arch``)."""
    if not wanted():
        return None
    try:
        return helper_kernels(arch)
    except KoptError:
        return None


@functools.lru_cache(maxsize=None)
def helper_kernels(arch: str) -> HelperKernels:
    from .compiler import compile as kopt_compile

    names = [f"kopt_{op}_{d}" for op in ("fill", "compare") for d in _TYPES] + \
            [f"kopt_diff_{n}" for n in (1, 2, 4, 8)]
    art = kopt_compile(SOURCE, names, arch=arch, lineinfo=False, options=["-fmad=false"])
    return HelperKernels(art.cubin, {n: art.kernels[n].lowered for n in names})
