#pragma once
// kopt analyzer stub: HIP on NVIDIA's platform, as hipcc gives it with its CUDA back end: HIP's names for CUDA's
// (the CUDA declarations themselves come from analyzers/cuda_decls.h, force-included). Device code written for both
// (`#ifdef __HIPCC__` qualifiers, `hipLaunchKernelGGL` launches) is read as the CUDA it compiles to.
#define __HIPCC__ 1
#define __HIP_PLATFORM_NVIDIA__ 1
#define __HIP_PLATFORM_NVCC__ 1
#define HIP_KERNEL_NAME(...) __VA_ARGS__
#define hipLaunchKernelGGL(kernel, grid, block, smem, stream, ...) \
    kernel<<<(grid), (block), (smem), (stream)>>>(__VA_ARGS__)
#define HIP_DYNAMIC_SHARED(type, var) extern __shared__ type var[];
#define hipThreadIdx_x threadIdx.x
#define hipThreadIdx_y threadIdx.y
#define hipThreadIdx_z threadIdx.z
#define hipBlockIdx_x blockIdx.x
#define hipBlockIdx_y blockIdx.y
#define hipBlockIdx_z blockIdx.z
#define hipBlockDim_x blockDim.x
#define hipBlockDim_y blockDim.y
#define hipBlockDim_z blockDim.z
#define hipGridDim_x gridDim.x
#define hipGridDim_y gridDim.y
#define hipGridDim_z gridDim.z
typedef cudaStream_t hipStream_t;
typedef cudaError_t hipError_t;
#define hipSuccess cudaSuccess
