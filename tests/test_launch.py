"""kopt.launch / kopt.time without a GPU: how arguments are read and packed, and what is refused before any CUDA
call (the launches themselves are in tests/gpu/test_gpu_launch.py)."""
import struct

import numpy as np
import pytest

import kopt
from kopt.device_arrays import device_array
from kopt.errors import InputError
from kopt.launcher import pack
from kopt.ptx import entry_param_types

SAXPY = r"""
extern "C" __global__ void saxpy(float a, const float* x, float* y, int n, double d, long long m, unsigned char c) {}
"""


class CudaArray:
    """A stand-in for any producer of __cuda_array_interface__ (cupy, numba, torch)."""

    def __init__(self, ptr=0x7F0000000000, shape=(4, 8), typestr="<f4", strides=None):
        self.__cuda_array_interface__ = {"data": (ptr, False), "shape": shape, "typestr": typestr,
                                         "strides": strides, "version": 3}


def test_the_ptx_gives_each_parameter_its_type():
    art = kopt.compile(SAXPY, arch="sm_90")
    types = entry_param_types(art.ptx)[art.kernel("saxpy").lowered]
    assert types == [("f32", 4), ("u64", 8), ("u64", 8), ("u32", 4), ("f64", 8), ("u64", 8), ("u8", 1)]


@pytest.mark.parametrize("value,ptx,size,want", [
    (2.5, "f32", 4, struct.pack("<f", 2.5)),
    (3, "f32", 4, struct.pack("<f", 3.0)),  # an int for a float parameter is the float
    (3, "f64", 8, struct.pack("<d", 3.0)),
    (7, "u32", 4, struct.pack("<I", 7)),
    (-7, "u32", 4, struct.pack("<i", -7)),  # PTX declares C's int as .u32: a negative int stays two's complement
    (2 ** 32 - 1, "u32", 4, struct.pack("<I", 2 ** 32 - 1)),
    (True, "u8", 1, b"\x01"),
    (np.float16(1.5), "b16", 2, np.float16(1.5).tobytes()),
    (b"\x01\x02\x03\x04", "b8", 4, b"\x01\x02\x03\x04"),
    (CudaArray(ptr=0x1234), "u64", 8, struct.pack("<Q", 0x1234)),
])
def test_arguments_are_packed_as_the_parameter_is_declared(value, ptx, size, want):
    assert pack(value, ptx, size, "argument") == want


@pytest.mark.parametrize("value,ptx,size,message", [
    (1.5, "u32", 4, "is a float but the kernel parameter is u32"),
    (2 ** 40, "u32", 4, "does not fit"),
    (np.float32(1.0), "f64", 8, "4 bytes"),
    (b"\x00", "b8", 16, "1 bytes given for a 16-byte"),
    (CudaArray(), "u32", 4, "is an array"),
    ("x", "u32", 4, "cannot pass a str"),
    (np.zeros(3), "u64", 8, "not GPU memory"),
])
def test_arguments_that_cannot_be_packed_are_input_errors(value, ptx, size, message):
    with pytest.raises(InputError, match=message):
        pack(value, ptx, size, "argument 2")


def test_a_strided_view_is_refused_and_a_contiguous_one_is_read():
    assert device_array(CudaArray(strides=(32, 4)), "x").ptr == 0x7F0000000000
    assert device_array(CudaArray(shape=(4, 1), strides=(4, 999)), "x").nbytes == 16  # size-1 dims have any stride
    with pytest.raises(InputError, match="not contiguous"):
        device_array(CudaArray(strides=(4, 32)), "x")


def test_host_arrays_are_refused_before_any_cuda_call():
    x = np.zeros(16, np.float32)
    with pytest.raises(InputError, match="argument 2: ndarray lives in CPU"):
        kopt.prepare(SAXPY, "saxpy", 1, 16, 1.0, x, x, 16, 1.0, 1, 1, arch="sm_90")
    with pytest.raises(InputError, match="grid must be 1 to 3 positive integers"):
        kopt.prepare(SAXPY, "saxpy", (1, 0), 16, arch="sm_90")
    with pytest.raises(InputError, match="unknown kernel"):
        kopt.prepare(SAXPY, "nope", 1, 16, arch="sm_90")


def test_time_refuses_what_it_cannot_time():
    with pytest.raises(InputError, match="needs a kopt.launch result or a function"):
        kopt.time(42)
