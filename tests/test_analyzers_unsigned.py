"""Unsigned integers are never negative in a witness: an unsigned parameter is at least 0, and a right shift of an
unsigned value is a logical shift of the value as C holds it (modulo 2^32), whatever sum the model built."""
from __future__ import annotations

import pytest

from kopt.analyze import analyze

TABLE = """
#include <stdint.h>
__global__ void lookup(const TYPE start, TYPE *out) {
  __shared__ TYPE table[256];
  table[threadIdx.x] = threadIdx.x;
  __syncthreads();
  TYPE x = start + (blockIdx.x * blockDim.x + threadIdx.x);
  out[blockIdx.x * blockDim.x + threadIdx.x] = table[x >> 24];
}
"""

OFFSET = """
__global__ void window(const float *in, float *out, TYPE off) {
  __shared__ float s[256];
  s[threadIdx.x] = in[threadIdx.x];
  s[threadIdx.x + 128] = in[threadIdx.x + 128];
  __syncthreads();
  if (off < 128)
    out[threadIdx.x] = s[off + threadIdx.x];
}
"""


def _bounds(src: str, ty: str) -> list:
    res = analyze(src.replace("TYPE", ty), path="k.cu", block=(128, 1, 1), grid=(64, 1, 1))
    return [d for d in res.diagnostics if d.rule == "bounds.shared"]


@pytest.mark.parametrize("ty", ["uint32_t", "unsigned int", "unsigned"])
def test_the_top_byte_of_an_unsigned_sum_indexes_inside_256(ty):
    assert not _bounds(TABLE, ty)


def test_the_top_byte_of_a_signed_sum_can_be_negative():
    (d,) = _bounds(TABLE, "int32_t")
    assert d.witness["parameters"]["start"] < 0


@pytest.mark.parametrize("ty", ["unsigned", "size_t"])
def test_an_unsigned_parameter_is_never_negative(ty):
    assert not _bounds(OFFSET, ty)


def test_a_signed_parameter_can_be_negative():
    (d,) = _bounds(OFFSET, "int")
    assert d.witness["parameters"]["off"] < 0


# k2's mutual information kernel: one unsigned comparison bounds a signed offset on both sides
LEG = """
__global__ void leg(const float *in, float *out) {
  __shared__ float buf[33];
  int t = (int)threadIdx.x - 64;
  if (CAST(t) <= CAST(32))
    buf[t] = in[threadIdx.x];
  __syncthreads();
  out[threadIdx.x] = buf[threadIdx.x % 33];
}
"""


@pytest.mark.parametrize("cast", ["static_cast<unsigned int>", "(unsigned)", "(uint32_t)"])
def test_a_signed_offset_cast_to_unsigned_is_bounded_on_both_sides_by_one_test(cast):
    src = "#include <stdint.h>\n" + LEG.replace("CAST", cast)
    res = analyze(src, path="k.cu", block=(128, 1, 1), grid=(1, 1, 1))
    assert not [d for d in res.diagnostics if d.rule.startswith(("bounds", "race"))], res.diagnostics


def test_the_same_offset_compared_as_a_signed_int_can_be_negative():
    src = LEG.replace("CAST", "(int)")
    res = analyze(src, path="k.cu", block=(128, 1, 1), grid=(1, 1, 1))
    assert [d for d in res.diagnostics if d.rule == "bounds.shared"]
