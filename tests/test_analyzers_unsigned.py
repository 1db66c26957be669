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
