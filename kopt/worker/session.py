"""The worker's GPU session: a thin, checked layer over the CUDA driver (cuda-bindings)."""
from __future__ import annotations

import ctypes
import weakref
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..dtypes import DType
from ..errors import GpuUnavailableError

if TYPE_CHECKING:  # numpy is imported by the callers that hand arrays over, not by the driver's first calls
    import numpy as np


class CudaError(Exception):
    """A CUDA driver call failed: ``name`` is the error (``CUDA_ERROR_ILLEGAL_ADDRESS``), ``call`` the driver call;
    ``during_wait``: raised while waiting for kernels, so one of them failed (the context may be unusable)."""

    def __init__(self, name: str, call: str, during_wait: bool = False):
        self.name, self.call, self.during_wait = name, call, during_wait
        super().__init__(f"{call}: {name}")


def driver():
    try:
        from cuda.bindings import driver
    except Exception as exc:
        raise GpuUnavailableError(f"cuda-bindings is not usable: {exc}")
    return driver


def check(result, what: str, error=CudaError):
    """The value(s) of a driver call's result tuple; ``error(name, what)`` raised when it failed."""
    cu = driver()
    err, *rest = result if isinstance(result, tuple) else (result,)
    if err != cu.CUresult.CUDA_SUCCESS:
        raise error(err.name, what)
    return rest[0] if len(rest) == 1 else (tuple(rest) if rest else None)


_TMAP_DTYPE = {"f32": "FLOAT32", "f64": "FLOAT64", "f16": "FLOAT16", "bf16": "BFLOAT16", "i32": "INT32",
               "u32": "UINT32", "i64": "INT64", "u64": "UINT64", "u8": "UINT8", "u16": "UINT16"}
_SWIZZLE = {"none": "NONE", "32B": "32B", "64B": "64B", "128B": "128B"}
_L2 = {"none": "NONE", "64B": "L2_64B", "128B": "L2_128B", "256B": "L2_256B"}  # CU_TENSOR_MAP_L2_PROMOTION_*


@dataclass
class DeviceBuffer:
    ptr: int
    nbytes: int


def create_primary_context() -> None:
    """Initialise the driver and create device 0's primary context, the slow part of a session's start, in any thread
    (the driver calls release the GIL); the GpuSession made later retains the same context and makes it current in
    its own thread. Failures are left for GpuSession to raise."""
    cu = driver()
    (err,) = cu.cuInit(0)
    if err == cu.CUresult.CUDA_SUCCESS:
        err, device = cu.cuDeviceGet(0)
        if err == cu.CUresult.CUDA_SUCCESS:
            cu.cuDevicePrimaryCtxRetain(device)  # kept for the process's life, like the session's own


class GpuSession:
    """Owns the primary context of device 0 in this process."""

    def __init__(self):
        cu = self.cu = driver()
        try:
            (err,) = cu.cuInit(0)
        except Exception as exc:
            raise GpuUnavailableError(f"CUDA driver unavailable: {exc}")
        if err != cu.CUresult.CUDA_SUCCESS:
            raise GpuUnavailableError(f"CUDA driver unavailable ({err.name})")
        count = check(cu.cuDeviceGetCount(), "cuDeviceGetCount")
        if count == 0:
            raise GpuUnavailableError("no CUDA GPU visible")
        self.device = check(cu.cuDeviceGet(0), "cuDeviceGet")
        self.context = check(cu.cuDevicePrimaryCtxRetain(self.device), "cuDevicePrimaryCtxRetain")
        check(cu.cuCtxSetCurrent(self.context), "cuCtxSetCurrent")
        self._modules: dict[bytes, object] = {}
        self.launched = False

    def pci_bus_id(self) -> str:
        """This device's PCI bus id ("0000:3b:00.0"), by which NVML (which ignores CUDA_VISIBLE_DEVICES) finds it."""
        raw = check(self.cu.cuDeviceGetPCIBusId(64, self.device), "cuDeviceGetPCIBusId")
        return bytes(raw).split(b"\0", 1)[0].decode() if isinstance(raw, (bytes, bytearray)) else str(raw)

    # --- modules and functions -------------------------------------------------------------------------------------
    def load(self, cubin: bytes):
        key = cubin
        if key not in self._modules:
            self._modules[key] = check(self.cu.cuModuleLoadData(cubin), "cuModuleLoadData")
        return self._modules[key]

    def function(self, module, lowered: str):
        return check(self.cu.cuModuleGetFunction(module, lowered.encode()), f"cuModuleGetFunction({lowered})")

    def param_layout(self, fn) -> list[tuple[int, int]]:
        """(offset, size) of each kernel parameter, from the loaded cubin."""
        cu, out = self.cu, []
        count = None
        # The count first where the bindings and driver offer it, so that no call fails (compute-sanitizer's memcheck
        # prints every failing driver call); otherwise probe until the index is refused (the H200 image still does).
        try:
            err, n = cu.cuFuncGetParamCount(fn)
            count = int(n) if err == cu.CUresult.CUDA_SUCCESS else None
        except (AttributeError, RuntimeError):
            pass
        if count is not None:
            for i in range(count):
                out.append(check(cu.cuFuncGetParamInfo(fn, i), f"cuFuncGetParamInfo({i})"))
            return out
        while True:
            err, offset, size = cu.cuFuncGetParamInfo(fn, len(out))
            if err != cu.CUresult.CUDA_SUCCESS:
                return out
            out.append((offset, size))

    def set_dynamic_smem(self, fn, nbytes: int):
        attr = self.cu.CUfunction_attribute.CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES
        check(self.cu.cuFuncSetAttribute(fn, attr, nbytes), "cuFuncSetAttribute(max dynamic smem)")

    def total_memory(self) -> int:
        return int(check(self.cu.cuDeviceTotalMem(self.device), "cuDeviceTotalMem"))

    def free_memory(self) -> int:
        free, _ = check(self.cu.cuMemGetInfo(), "cuMemGetInfo")
        return int(free)

    def attribute(self, name: str) -> int:
        attr = getattr(self.cu.CUdevice_attribute, f"CU_DEVICE_ATTRIBUTE_{name}")
        return check(self.cu.cuDeviceGetAttribute(attr, self.device), name)

    # --- memory ------------------------------------------------------------------------------------------------------
    def alloc(self, nbytes: int) -> DeviceBuffer:
        return DeviceBuffer(int(check(self.cu.cuMemAlloc(max(nbytes, 1)), f"cuMemAlloc({nbytes} bytes)")), nbytes)

    def free(self, buf: DeviceBuffer):
        self.cu.cuMemFree(buf.ptr)

    def alloc_collected(self, nbytes: int) -> DeviceBuffer:
        """A buffer freed when the last reference to it goes (cached inputs and references, shared by requests)."""
        buf = self.alloc(nbytes)
        weakref.finalize(buf, self.cu.cuMemFree, buf.ptr)
        return buf

    def copy(self, dst: DeviceBuffer, src: DeviceBuffer, nbytes: int | None = None):
        n = dst.nbytes if nbytes is None else nbytes
        check(self.cu.cuMemcpyDtoD(dst.ptr, src.ptr, n), "cuMemcpyDtoD")

    def upload(self, buf: DeviceBuffer, host: np.ndarray):
        import numpy as np

        host = np.ascontiguousarray(host)
        check(self.cu.cuMemcpyHtoD(buf.ptr, host.ctypes.data, host.nbytes), "cuMemcpyHtoD")

    def download(self, buf: DeviceBuffer, host: np.ndarray):
        check(self.cu.cuMemcpyDtoH(host.ctypes.data, buf.ptr, host.nbytes), "cuMemcpyDtoH")

    def fill(self, buf: DeviceBuffer, dt: DType, pattern: int):
        """Fill with a bit pattern (8-byte types use their repeated 32-bit half)."""
        cu = self.cu
        if dt.itemsize in (4, 8):
            check(cu.cuMemsetD32(buf.ptr, pattern & 0xFFFFFFFF, buf.nbytes // 4), "cuMemsetD32")
        elif dt.itemsize == 2:
            check(cu.cuMemsetD16(buf.ptr, pattern & 0xFFFF, buf.nbytes // 2), "cuMemsetD16")
        else:
            check(cu.cuMemsetD8(buf.ptr, pattern & 0xFF, buf.nbytes), "cuMemsetD8")

    def synchronize(self, what: str = "kernel execution"):
        """Wait for the GPU. Any error raised here came from a kernel and may have poisoned the context."""
        try:
            check(self.cu.cuCtxSynchronize(), what)
        except CudaError as exc:
            exc.during_wait = True
            raise

    # --- tensor maps -------------------------------------------------------------------------------------------------
    def tensor_map(self, ptr: int, dtype_name: str, shape, box, itemsize: int, swizzle="none", l2promotion="none",
                   oob="zero") -> bytes:
        """Encode a tiled TMA descriptor; ``shape``/``box`` are outermost-first, as in numpy."""
        cu = self.cu
        if dtype_name not in _TMAP_DTYPE:
            raise CudaError("CUDA_ERROR_INVALID_VALUE", f"tensor maps do not support {dtype_name}")
        rank = len(shape)
        dims = [cu.cuuint64_t(d) for d in reversed(shape)]
        strides, acc = [], itemsize
        for d in list(reversed(shape))[:-1]:
            acc *= d
            strides.append(cu.cuuint64_t(acc))
        tmap = check(cu.cuTensorMapEncodeTiled(
            getattr(cu.CUtensorMapDataType, f"CU_TENSOR_MAP_DATA_TYPE_{_TMAP_DTYPE[dtype_name]}"), rank, ptr, dims,
            strides, [cu.cuuint32_t(b) for b in reversed(box)], [cu.cuuint32_t(1)] * rank,
            cu.CUtensorMapInterleave.CU_TENSOR_MAP_INTERLEAVE_NONE,
            getattr(cu.CUtensorMapSwizzle, f"CU_TENSOR_MAP_SWIZZLE_{_SWIZZLE[swizzle]}"),
            getattr(cu.CUtensorMapL2promotion, f"CU_TENSOR_MAP_L2_PROMOTION_{_L2[l2promotion]}"),
            cu.CUtensorMapFloatOOBfill.CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE if oob == "zero"
            else cu.CUtensorMapFloatOOBfill.CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA,
        ), "cuTensorMapEncodeTiled")
        return ctypes.string_at(tmap.getPtr(), 128)

    # --- launches ----------------------------------------------------------------------------------------------------
    def launch(self, fn, grid, block, smem: int, params_addr: int, cluster=None, stream=0):
        cu = self.cu
        self.launched = True  # this process's kernels now count in NVML's utilization (kopt.worker.timing)
        if isinstance(stream, int) and stream:
            stream = cu.CUstream(stream)  # a raw handle, e.g. torch's current stream
        if cluster is None:
            check(cu.cuLaunchKernel(fn, *grid, *block, smem, stream, params_addr, 0), "cuLaunchKernel")
            return
        cfg = cu.CUlaunchConfig()
        cfg.gridDimX, cfg.gridDimY, cfg.gridDimZ = grid
        cfg.blockDimX, cfg.blockDimY, cfg.blockDimZ = block
        cfg.sharedMemBytes = smem
        cfg.hStream = stream
        attr = cu.CUlaunchAttribute()
        attr.id = cu.CUlaunchAttributeID.CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION
        attr.value.clusterDim.x, attr.value.clusterDim.y, attr.value.clusterDim.z = cluster
        cfg.attrs = [attr]
        cfg.numAttrs = 1
        check(cu.cuLaunchKernelEx(cfg, fn, params_addr, 0), "cuLaunchKernelEx")
