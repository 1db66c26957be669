// kopt: the CUDA runtime's host side, declared just enough for libclang to read host code (kopt import): the
// <<<...>>> launch configuration call, the common types and enums, and the API functions as variadic declarations
// (any call type-checks). Force-included after cuda_decls.h. Declarations only.
#pragma once
typedef struct CUstream_st* cudaStream_t;
typedef struct CUevent_st* cudaEvent_t;
typedef struct cudaArray* cudaArray_t;
typedef unsigned long long cudaTextureObject_t;
typedef unsigned long long cudaSurfaceObject_t;
enum cudaError { cudaSuccess = 0, cudaErrorMemoryAllocation = 2, cudaErrorInvalidValue = 1 };
typedef enum cudaError cudaError_t;
enum cudaMemcpyKind { cudaMemcpyHostToHost, cudaMemcpyHostToDevice, cudaMemcpyDeviceToHost, cudaMemcpyDeviceToDevice,
                      cudaMemcpyDefault };
struct cudaDeviceProp { char name[256]; size_t totalGlobalMem, sharedMemPerBlock, sharedMemPerBlockOptin, totalConstMem;
  int regsPerBlock, warpSize, maxThreadsPerBlock, maxThreadsDim[3], maxGridSize[3], clockRate, major, minor,
  multiProcessorCount, maxThreadsPerMultiProcessor, memoryClockRate, memoryBusWidth, l2CacheSize; };
#define cudaStreamNonBlocking 0x01
#define cudaEventDefault 0x00
#define cudaHostAllocDefault 0x00
#define cudaMemAttachGlobal 0x01
#define cudaCpuDeviceId (-1)
extern "C" unsigned __cudaPushCallConfiguration(dim3 gridDim, dim3 blockDim, size_t sharedMem = 0,
                                                cudaStream_t stream = 0);
extern "C" cudaError_t cudaConfigureCall(dim3 gridDim, dim3 blockDim, size_t sharedMem = 0, cudaStream_t stream = 0);
#define KOPT_HOST_API(name) extern "C" cudaError_t name(...);
KOPT_HOST_API(cudaMalloc) KOPT_HOST_API(cudaMallocManaged) KOPT_HOST_API(cudaMallocHost) KOPT_HOST_API(cudaHostAlloc)
KOPT_HOST_API(cudaMallocPitch) KOPT_HOST_API(cudaFree) KOPT_HOST_API(cudaFreeHost) KOPT_HOST_API(cudaMemcpy)
KOPT_HOST_API(cudaMemcpyAsync) KOPT_HOST_API(cudaMemcpy2D) KOPT_HOST_API(cudaMemset) KOPT_HOST_API(cudaMemsetAsync)
KOPT_HOST_API(cudaMemcpyToSymbol) KOPT_HOST_API(cudaMemcpyToSymbolAsync) KOPT_HOST_API(cudaMemcpyFromSymbol)
KOPT_HOST_API(cudaMemPrefetchAsync) KOPT_HOST_API(cudaDeviceSynchronize) KOPT_HOST_API(cudaDeviceReset)
KOPT_HOST_API(cudaGetLastError) KOPT_HOST_API(cudaPeekAtLastError) KOPT_HOST_API(cudaSetDevice)
KOPT_HOST_API(cudaGetDevice) KOPT_HOST_API(cudaGetDeviceCount) KOPT_HOST_API(cudaGetDeviceProperties)
KOPT_HOST_API(cudaDeviceGetAttribute) KOPT_HOST_API(cudaFuncSetAttribute) KOPT_HOST_API(cudaFuncGetAttributes)
KOPT_HOST_API(cudaOccupancyMaxActiveBlocksPerMultiprocessor) KOPT_HOST_API(cudaOccupancyMaxPotentialBlockSize)
KOPT_HOST_API(cudaStreamCreate) KOPT_HOST_API(cudaStreamCreateWithFlags) KOPT_HOST_API(cudaStreamDestroy)
KOPT_HOST_API(cudaStreamSynchronize) KOPT_HOST_API(cudaEventCreate) KOPT_HOST_API(cudaEventCreateWithFlags)
KOPT_HOST_API(cudaEventRecord) KOPT_HOST_API(cudaEventSynchronize) KOPT_HOST_API(cudaEventElapsedTime)
KOPT_HOST_API(cudaEventDestroy) KOPT_HOST_API(cudaLaunchKernel) KOPT_HOST_API(cudaLaunchCooperativeKernel)
KOPT_HOST_API(cudaProfilerStart) KOPT_HOST_API(cudaProfilerStop)
#undef KOPT_HOST_API
extern "C" const char* cudaGetErrorString(cudaError_t);
extern "C" const char* cudaGetErrorName(cudaError_t);
