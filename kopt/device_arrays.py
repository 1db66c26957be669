"""The device address behind a caller's array: a torch tensor, a cupy array or any object that speaks
``__cuda_array_interface__`` or DLPack. Only contiguous arrays in GPU memory are accepted: a kernel receives a bare
pointer and would read a strided view, or host memory, as garbage."""
from __future__ import annotations

import ctypes
from dataclasses import dataclass

from .errors import InputError

_DL_CUDA, _DL_CUDA_HOST, _DL_CUDA_MANAGED = 2, 3, 13
_DL_DEVICE_NAMES = {1: "CPU (host memory)", 3: "pinned host memory", 4: "OpenCL", 7: "Vulkan", 8: "Metal",
                    10: "ROCm", 14: "oneAPI"}


class _DLDevice(ctypes.Structure):
    _fields_ = [("device_type", ctypes.c_int32), ("device_id", ctypes.c_int32)]


class _DLDataType(ctypes.Structure):
    _fields_ = [("code", ctypes.c_uint8), ("bits", ctypes.c_uint8), ("lanes", ctypes.c_uint16)]


class _DLTensor(ctypes.Structure):  # the head of DLManagedTensor (DLPack 0.x capsules, named "dltensor")
    _fields_ = [("data", ctypes.c_void_p), ("device", _DLDevice), ("ndim", ctypes.c_int32), ("dtype", _DLDataType),
                ("shape", ctypes.POINTER(ctypes.c_int64)), ("strides", ctypes.POINTER(ctypes.c_int64)),
                ("byte_offset", ctypes.c_uint64)]


@dataclass(frozen=True)
class DeviceArray:
    ptr: int
    shape: tuple
    itemsize: int
    source: str  # "__cuda_array_interface__" or "DLPack"

    @property
    def nbytes(self) -> int:
        n = self.itemsize
        for d in self.shape:
            n *= d
        return n


def is_array(obj) -> bool:
    """Whether ``obj`` looks like an array (then it must be a usable device array, or the launch is refused)."""
    return any(hasattr(obj, a) for a in ("__cuda_array_interface__", "__dlpack__", "__array_interface__",
                                         "__array__"))


def device_array(obj, what: str) -> DeviceArray:
    """The device array behind ``obj``; ``InputError`` naming ``what`` when it is not one a kernel can take."""
    try:
        cai = obj.__cuda_array_interface__
    except AttributeError:  # torch raises it for a CPU tensor; numpy has none
        cai = None
    except Exception as exc:
        raise InputError(f"{what}: its __cuda_array_interface__ failed: {exc}")
    if cai is not None:
        return _from_cai(cai, what)
    if hasattr(obj, "__dlpack__"):
        return _from_dlpack(obj, what)
    raise InputError(f"{what}: {type(obj).__name__} is not in GPU memory (no __cuda_array_interface__ or __dlpack__): "
                     f"move it to the GPU first (torch: .cuda(); numpy: cupy.asarray)")


def _from_cai(cai: dict, what: str) -> DeviceArray:
    ptr = int(cai["data"][0] or 0)
    shape = tuple(int(d) for d in cai["shape"])
    itemsize = int(cai["typestr"][2:])
    strides = cai.get("strides")
    if strides is not None and not _contiguous(shape, tuple(strides), itemsize):
        raise InputError(f"{what} is not contiguous (shape {shape}, strides {tuple(strides)} bytes): a kernel gets a "
                         f"bare pointer; pass a contiguous copy (.contiguous() / cupy.ascontiguousarray)")
    return DeviceArray(ptr, shape, itemsize, "__cuda_array_interface__")


def _from_dlpack(obj, what: str) -> DeviceArray:
    if hasattr(obj, "__dlpack_device__"):
        kind, _ = obj.__dlpack_device__()
        if int(kind) not in (_DL_CUDA, _DL_CUDA_MANAGED):
            where = _DL_DEVICE_NAMES.get(int(kind), f"DLPack device type {int(kind)}")
            raise InputError(f"{what}: {type(obj).__name__} lives in {where}, not GPU memory: move it to the GPU first")
    try:
        capsule = obj.__dlpack__(stream=-1)  # -1: no synchronization asked of the producer (kopt uses its stream)
    except TypeError:
        capsule = obj.__dlpack__()
    capsule_pointer = ctypes.pythonapi.PyCapsule_GetPointer
    capsule_pointer.restype, capsule_pointer.argtypes = ctypes.c_void_p, [ctypes.py_object, ctypes.c_char_p]
    try:
        t = _DLTensor.from_address(capsule_pointer(capsule, b"dltensor"))
    except ValueError as exc:  # a versioned ("dltensor_versioned") or foreign capsule
        raise InputError(f"{what}: unsupported DLPack capsule ({exc})")
    # The capsule is read, not consumed: dropping it calls the producer's deleter, while ``obj`` keeps the memory.
    if t.device.device_type not in (_DL_CUDA, _DL_CUDA_MANAGED):
        where = _DL_DEVICE_NAMES.get(t.device.device_type, f"DLPack device type {t.device.device_type}")
        raise InputError(f"{what}: {type(obj).__name__} lives in {where}, not GPU memory: move it to the GPU first")
    shape = tuple(t.shape[i] for i in range(t.ndim))
    itemsize = t.dtype.bits * t.dtype.lanes // 8
    if t.strides:
        strides = tuple(t.strides[i] * itemsize for i in range(t.ndim))
        if not _contiguous(shape, strides, itemsize):
            raise InputError(f"{what} is not contiguous (shape {shape}, strides {strides} bytes): a kernel gets a bare "
                             f"pointer; pass a contiguous copy")
    return DeviceArray(int(t.data or 0) + int(t.byte_offset), shape, itemsize, "DLPack")


def _contiguous(shape: tuple, strides: tuple, itemsize: int) -> bool:
    expect = itemsize
    for d, s in zip(reversed(shape), reversed(strides)):
        if d != 1 and s != expect:
            return False
        expect *= d
    return True
