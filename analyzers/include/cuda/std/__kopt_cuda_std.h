#pragma once
// kopt analyzer stub: libcu++'s `cuda::std` as kernels and device libraries use it. It names the standard library
// kopt declares (analyzers/cuda_decls.h, force-included: type traits, numeric_limits, min/max, tuple, pair, math),
// adds what device libraries take from C++17/20 headers (<cstddef>'s byte, <bit>, <span>, <array>), and the
// `cuda::` names beside them (the memory orders of <cuda/atomic>, `cuda::stream_ref`). Every `<cuda/...>` header kopt
// has no stub of reads this one.
#include <array>
#include <tuple>
#include <cuda/__kopt_cuda.h>
namespace cuda {
namespace std {
using namespace ::std;
enum class byte : unsigned char {};  // a type of its own, as libcu++'s (libraries overload on both bytes)
template <class I> __host__ __device__ constexpr I to_integer(byte b) noexcept { return I(b); }
// libcu++ declares its own tuple protocol: libraries specialize it inside `namespace cuda::std` (cuCollections'
// pair), which names found only through the using-directive above do not allow
template <class T> struct tuple_size;
template <class T> struct tuple_size<const T> : tuple_size<T> {};
template <class... T> struct tuple_size<::std::tuple<T...>> : ::std::tuple_size<::std::tuple<T...>> {};
template <class A, class B> struct tuple_size<::std::pair<A, B>> : integral_constant<size_t, 2> {};
template <size_t I, class T> struct tuple_element;
template <size_t I, class T> struct tuple_element<I, const T> { typedef const typename tuple_element<I, T>::type type; };
template <size_t I, class... T> struct tuple_element<I, ::std::tuple<T...>> : ::std::tuple_element<I, ::std::tuple<T...>> {};
template <class A, class B> struct tuple_element<0, ::std::pair<A, B>> { typedef A type; };
template <class A, class B> struct tuple_element<1, ::std::pair<A, B>> { typedef B type; };
template <class T> constexpr size_t tuple_size_v = tuple_size<T>::value;
template <size_t I, class T> using tuple_element_t = typename tuple_element<I, T>::type;
using ::std::get;
using ::cuda::memory_order; using ::cuda::memory_order_relaxed; using ::cuda::memory_order_consume;
using ::cuda::memory_order_acquire; using ::cuda::memory_order_release; using ::cuda::memory_order_acq_rel;
using ::cuda::memory_order_seq_cst; using ::cuda::atomic; using ::cuda::atomic_ref;
using ::cuda::atomic_thread_fence;
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
// <cuda/functional>: a callable whose result type is given (device lambdas passed to host algorithms)
template <class R, class F> struct __kopt_proclaimed {
  F f; template <class... A> __host__ __device__ R operator()(A &&...) const; };
template <class R, class F> __host__ __device__ __kopt_proclaimed<R, F> proclaim_return_type(F f);
// <cuda/cmath>'s fast division by a runtime divisor (its quotient and remainder operators)
template <class T, bool DivisorIsNeverOne = false> class fast_mod_div {
 public:
  __host__ __device__ explicit fast_mod_div(T divisor) noexcept;
  __host__ __device__ operator T() const noexcept;
  template <class L> friend __host__ __device__ T operator/(L dividend, fast_mod_div divisor) noexcept;
  template <class L> friend __host__ __device__ T operator%(L dividend, fast_mod_div divisor) noexcept;
};
struct stream_ref {
  stream_ref(); stream_ref(cudaStream_t); cudaStream_t get() const; void wait() const; bool ready() const;
};
}  // namespace cuda
