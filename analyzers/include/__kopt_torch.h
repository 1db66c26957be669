#pragma once
// kopt analyzer stub: what a PyTorch CUDA extension's kernels use of PyTorch's C++ API (ATen, c10, torch): tensor
// accessors, the half and float8 types, gpuAtomicAdd, accumulate and op-math types, the launch and kernel-loop macros,
// device-side assertions, the Philox RNG state, the current stream and TensorInfo. Read for any <ATen/...>,
// <c10/...> or <torch/...> header kopt does not have; host code using the rest of the API does not parse and is
// skipped like other host code. The analyzer models an accessor as a row-major tensor of its sizes (distinct index
// tuples within the sizes are distinct elements, as they are in any tensor a kernel may write).
#include <stdint.h>
#include <stddef.h>
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <cuda_fp8.h>
#include <tuple>
namespace c10 {
using Half = __half;
using BFloat16 = __nv_bfloat16;
using Float8_e4m3fn = __nv_fp8_e4m3;
using Float8_e5m2 = __nv_fp8_e5m2;
namespace cuda {
struct DeviceAssertionsData;  // c10/cuda/CUDADeviceAssertionHost.h: where a failed device-side assertion is recorded
}
template <typename T> struct complex {  // c10/util/complex.h: the members, constructors and arithmetic kernels use
  T real_, imag_;
  __host__ __device__ constexpr complex(const T &re = T(), const T &im = T()) : real_(re), imag_(im) {}
  template <typename U>
  __host__ __device__ explicit constexpr complex(const complex<U> &o) : real_(T(o.real_)), imag_(T(o.imag_)) {}
  __host__ __device__ constexpr T real() const { return real_; }
  __host__ __device__ constexpr T imag() const { return imag_; }
  __host__ __device__ complex &operator+=(const complex &o) { real_ += o.real_; imag_ += o.imag_; return *this; }
  __host__ __device__ complex &operator-=(const complex &o) { real_ -= o.real_; imag_ -= o.imag_; return *this; }
  __host__ __device__ complex &operator*=(const complex &o) { return *this = *this * o; }
  __host__ __device__ friend complex operator+(const complex &a, const complex &b) {
    return complex(a.real_ + b.real_, a.imag_ + b.imag_);
  }
  __host__ __device__ friend complex operator-(const complex &a, const complex &b) {
    return complex(a.real_ - b.real_, a.imag_ - b.imag_);
  }
  __host__ __device__ friend complex operator-(const complex &a) { return complex(-a.real_, -a.imag_); }
  __host__ __device__ friend complex operator*(const complex &a, const complex &b) {
    return complex(a.real_ * b.real_ - a.imag_ * b.imag_, a.real_ * b.imag_ + a.imag_ * b.real_);
  }
  __host__ __device__ friend complex operator*(const complex &a, const T &b) {
    return complex(a.real_ * b, a.imag_ * b);
  }
  __host__ __device__ friend complex operator*(const T &a, const complex &b) {
    return complex(a * b.real_, a * b.imag_);
  }
  __host__ __device__ friend complex operator+(const complex &a, const T &b) { return complex(a.real_ + b, a.imag_); }
  __host__ __device__ friend complex operator/(const complex &a, const T &b) {
    return complex(a.real_ / b, a.imag_ / b);
  }
  __host__ __device__ friend bool operator==(const complex &a, const complex &b) {
    return a.real_ == b.real_ && a.imag_ == b.imag_;
  }
};
}  // namespace c10
namespace at {
using c10::Half;
using c10::BFloat16;
using c10::Float8_e4m3fn;
using c10::Float8_e5m2;
template <typename T> struct DefaultPtrTraits { typedef T *PtrType; };
template <typename T> struct RestrictPtrTraits { typedef T *__restrict__ PtrType; };
template <typename T, size_t N, template <typename U> class PtrTraits, typename index_t> class TensorAccessor;
template <typename T, size_t N, template <typename U> class PtrTraits, typename index_t> struct __kopt_row {
  typedef TensorAccessor<T, N - 1, PtrTraits, index_t> type;
};
template <typename T, template <typename U> class PtrTraits, typename index_t> struct __kopt_row<T, 1, PtrTraits, index_t> {
  typedef T &type;
};
template <typename T, size_t N, template <typename U> class PtrTraits = DefaultPtrTraits, typename index_t = int64_t>
class TensorAccessor {
 public:
  __host__ __device__ typename __kopt_row<T, N, PtrTraits, index_t>::type operator[](index_t i) const;
  __host__ __device__ index_t size(index_t d) const;
  __host__ __device__ index_t stride(index_t d) const;
  __host__ __device__ T *data() const;
};
template <typename T, size_t N, template <typename U> class PtrTraits = DefaultPtrTraits, typename index_t = int64_t>
class GenericPackedTensorAccessor : public TensorAccessor<T, N, PtrTraits, index_t> {};
template <typename T, size_t N, template <typename U> class PtrTraits = DefaultPtrTraits>
using PackedTensorAccessor32 = GenericPackedTensorAccessor<T, N, PtrTraits, int32_t>;
template <typename T, size_t N, template <typename U> class PtrTraits = DefaultPtrTraits>
using PackedTensorAccessor64 = GenericPackedTensorAccessor<T, N, PtrTraits, int64_t>;
template <typename T, size_t N, template <typename U> class PtrTraits = DefaultPtrTraits, typename index_t = int64_t>
using PackedTensorAccessor = GenericPackedTensorAccessor<T, N, PtrTraits, index_t>;
template <typename T> struct numeric_limits {
  __host__ __device__ static T lowest();
  __host__ __device__ static T max();
  __host__ __device__ static T min();
  __host__ __device__ static T infinity();
  __host__ __device__ static T quiet_NaN();
};
template <typename T, bool is_cuda> struct AccumulateType { using type = float; };
template <> struct AccumulateType<double, true> { using type = double; };
template <typename T, bool is_cuda> using acc_type = typename AccumulateType<T, is_cuda>::type;
template <typename T> struct OpMathType { using type = T; };  // ATen/OpMathType.h: reduced types compute in float
template <> struct OpMathType<Half> { using type = float; };
template <> struct OpMathType<BFloat16> { using type = float; };
template <> struct OpMathType<Float8_e4m3fn> { using type = float; };
template <> struct OpMathType<Float8_e5m2> { using type = float; };
template <typename T> using opmath_type = typename OpMathType<T>::type;
struct PhiloxCudaState {  // ATen/cuda/PhiloxCudaState.h: a seed and offset, by value or (in a CUDA graph) by pointer
  union Payload { uint64_t val; int64_t *ptr; };
  Payload seed_, offset_;
  uint32_t offset_intragraph_;
  bool captured_;
};
namespace cuda {
struct CUDAStream {
  operator cudaStream_t() const;
  cudaStream_t stream() const;
};
CUDAStream getCurrentCUDAStream(signed char device = -1);
namespace detail {  // ATen/cuda/detail/TensorInfo.cuh and IndexUtils.cuh: a tensor's pointer, sizes and strides
template <typename T, typename IndexType> struct TensorInfo {
  T *data;
  IndexType sizes[25];
  IndexType strides[25];
  int dims;
  __host__ __device__ bool isContiguous() const;
};
template <typename T, typename IndexType, int Dims> struct IndexToOffset {
  static __host__ __device__ IndexType get(IndexType linearId, const TensorInfo<T, IndexType> &info);
};
template <typename T, typename IndexType> TensorInfo<T, IndexType> getTensorInfo(...);
}  // namespace detail
namespace philox {
__host__ __device__ std::tuple<uint64_t, uint64_t> unpack(PhiloxCudaState arg);  // (seed, offset)
}  // namespace philox
}  // namespace cuda
}  // namespace at
namespace torch {
using namespace at;
}
template <typename T> __device__ T gpuAtomicAdd(T *address, T val) { return atomicAdd(address, val); }
#define C10_HOST_DEVICE __host__ __device__
#define C10_DEVICE __device__
#define C10_LAUNCH_BOUNDS_1(max_threads) __launch_bounds__(max_threads)
#define C10_LAUNCH_BOUNDS_2(max_threads, min_blocks) __launch_bounds__(max_threads, min_blocks)
#define C10_CUDA_KERNEL_LAUNCH_CHECK()
#define C10_WARP_SIZE 32
// ATen/cuda/detail/KernelUtils.h: a grid-stride loop over [0, n)
#define CUDA_KERNEL_LOOP_TYPE(i, n, index_type) \
  for (index_type i = blockIdx.x * blockDim.x + threadIdx.x; i < (n); i += blockDim.x * gridDim.x)
#define CUDA_KERNEL_LOOP(i, n) CUDA_KERNEL_LOOP_TYPE(i, n, int)
// c10/cuda/CUDADeviceAssertion.h: a kernel's extra parameters for device-side assertions, and the assertions
#define TORCH_DSA_KERNEL_ARGS \
  [[maybe_unused]] c10::cuda::DeviceAssertionsData *const assertions_data, [[maybe_unused]] uint32_t assertion_caller_id
#define TORCH_DSA_KERNEL_ARGS_PASS assertions_data, assertion_caller_id
#define CUDA_KERNEL_ASSERT(cond) assert(cond)
#define CUDA_KERNEL_ASSERT2(cond) assert(cond)
