#pragma once
// kopt analyzer stub: libcu++'s `cuda::std` as kernels and device libraries use it. It names the standard library
// kopt declares (analyzers/cuda_decls.h, force-included: type traits, numeric_limits, min/max, tuple, pair, math),
// adds what device libraries take from C++17/20 headers (<cstddef>'s byte, <bit>, <span>, <array>), and the
// `cuda::` names beside them (the memory orders of <cuda/atomic>, `cuda::stream_ref`). Every `<cuda/...>` header kopt
// has no stub of reads this one.
#include <array>
namespace cuda {
namespace std {
using namespace ::std;
using ::cuda::memory_order; using ::cuda::memory_order_relaxed; using ::cuda::memory_order_consume;
using ::cuda::memory_order_acquire; using ::cuda::memory_order_release; using ::cuda::memory_order_acq_rel;
using ::cuda::memory_order_seq_cst; using ::cuda::atomic; using ::cuda::atomic_ref;
using ::cuda::atomic_thread_fence;
enum class byte : unsigned char {};
template <class I> __host__ __device__ constexpr I to_integer(byte b) noexcept { return I(b); }
template <class T> __host__ __device__ constexpr int popcount(T) noexcept;
template <class T> __host__ __device__ constexpr int countl_zero(T) noexcept;
template <class T> __host__ __device__ constexpr int countr_zero(T) noexcept;
template <class T> __host__ __device__ constexpr int countl_one(T) noexcept;
template <class T> __host__ __device__ constexpr int countr_one(T) noexcept;
template <class T> __host__ __device__ constexpr T bit_ceil(T) noexcept;
template <class T> __host__ __device__ constexpr T bit_floor(T) noexcept;
template <class T> __host__ __device__ constexpr int bit_width(T) noexcept;
template <class T> __host__ __device__ constexpr bool has_single_bit(T) noexcept;
template <class To, class From> __host__ __device__ constexpr To bit_cast(const From &) noexcept;
constexpr size_t dynamic_extent = size_t(-1);
template <class T, size_t E = dynamic_extent> class span {
 public:
  typedef T element_type; typedef typename remove_cv<T>::type value_type; typedef size_t size_type;
  typedef long difference_type; typedef T *pointer; typedef T &reference; typedef T *iterator;
  static constexpr size_t extent = E;
  __host__ __device__ constexpr span() noexcept;
  __host__ __device__ constexpr span(T *, size_t) noexcept;
  __host__ __device__ constexpr span(T *, T *) noexcept;
  template <size_t N> __host__ __device__ constexpr span(T (&)[N]) noexcept;
  template <class U, size_t N> __host__ __device__ constexpr span(const span<U, N> &) noexcept;
  __host__ __device__ constexpr T *data() const noexcept; __host__ __device__ constexpr size_t size() const noexcept;
  __host__ __device__ constexpr size_t size_bytes() const noexcept; __host__ __device__ constexpr bool empty() const noexcept;
  __host__ __device__ constexpr T &operator[](size_t) const; __host__ __device__ constexpr T &front() const;
  __host__ __device__ constexpr T &back() const;
  __host__ __device__ constexpr T *begin() const noexcept; __host__ __device__ constexpr T *end() const noexcept;
  __host__ __device__ constexpr span<T> first(size_t) const; __host__ __device__ constexpr span<T> last(size_t) const;
  __host__ __device__ constexpr span<T> subspan(size_t, size_t = dynamic_extent) const;
};
}  // namespace std
struct stream_ref {
  stream_ref(cudaStream_t); cudaStream_t get() const; void wait() const; bool ready() const;
};
}  // namespace cuda
