// kopt: the CUDA runtime's host side, declared just enough for libclang to read host code (kopt import): the
// <<<...>>> launch configuration call and the host-only types and macros (the API functions, variadic, are in
// cuda_decls.h, which every parse reads). Force-included after cuda_decls.h. Declarations only.
#pragma once
typedef struct CUstream_st* cudaStream_t;
typedef struct CUevent_st* cudaEvent_t;
typedef struct cudaArray* cudaArray_t;
typedef unsigned long long cudaTextureObject_t;
typedef unsigned long long cudaSurfaceObject_t;
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
