// kopt analyzer stub of Thrust (CCCL): the value types and functors device code uses (thrust::pair, tuple,
// complex, plus/maximum..., min/max). Every `#include <thrust/...>` reads this file. Thrust's containers and
// algorithms are host code, which the analyzers do not read: they are left undeclared (host code naming them is
// skipped like any host code that does not parse).
#pragma once

#include <cuda/__kopt_cuda.h>  // Thrust is built on libcu++
namespace thrust {
template <class T1, class T2> struct pair {
  typedef T1 first_type; typedef T2 second_type;
  T1 first; T2 second;
  __host__ __device__ pair();
  __host__ __device__ pair(const T1 &a, const T2 &b);
  template <class U1, class U2> __host__ __device__ pair(const pair<U1, U2> &p);
};
template <class T1, class T2> __host__ __device__ pair<T1, T2> make_pair(T1 a, T2 b);

template <int I, class... T> struct __kopt_nth;
template <class H, class... T> struct __kopt_nth<0, H, T...> { typedef H type; };
template <int I, class H, class... T> struct __kopt_nth<I, H, T...> { typedef typename __kopt_nth<I - 1, T...>::type type; };
template <class... T> struct tuple {
  __host__ __device__ tuple();
  __host__ __device__ tuple(const T &...v);
  template <class... U> __host__ __device__ tuple(const tuple<U...> &t);
};
template <class... T> __host__ __device__ tuple<T...> make_tuple(T... v);
template <class... T> __host__ __device__ tuple<T &...> tie(T &...v);
template <int I, class... T> __host__ __device__ typename __kopt_nth<I, T...>::type &get(tuple<T...> &t);
template <int I, class... T> __host__ __device__ const typename __kopt_nth<I, T...>::type &get(const tuple<T...> &t);
template <int I, class A, class B> __host__ __device__ typename __kopt_nth<I, A, B>::type &get(pair<A, B> &p);
template <int I, class A, class B> __host__ __device__ const typename __kopt_nth<I, A, B>::type &get(const pair<A, B> &p);

template <class T> struct complex {
  typedef T value_type;
  T __re, __im;
  __host__ __device__ complex(const T &re = T(), const T &im = T());
  template <class U> __host__ __device__ complex(const complex<U> &z);
  __host__ __device__ T real() const; __host__ __device__ T imag() const;
  __host__ __device__ void real(T re); __host__ __device__ void imag(T im);
  __host__ __device__ complex &operator=(const T &re);
  template <class U> __host__ __device__ complex &operator=(const complex<U> &z);
  template <class U> __host__ __device__ complex &operator+=(const U &z);
  template <class U> __host__ __device__ complex &operator-=(const U &z);
  template <class U> __host__ __device__ complex &operator*=(const U &z);
  template <class U> __host__ __device__ complex &operator/=(const U &z);
};
#define __KOPT_THRUST_CPLX_OP(op) \
  template <class T> __host__ __device__ complex<T> operator op(const complex<T> &a, const complex<T> &b); \
  template <class T> __host__ __device__ complex<T> operator op(const complex<T> &a, const T &b); \
  template <class T> __host__ __device__ complex<T> operator op(const T &a, const complex<T> &b);
__KOPT_THRUST_CPLX_OP(+) __KOPT_THRUST_CPLX_OP(-) __KOPT_THRUST_CPLX_OP(*) __KOPT_THRUST_CPLX_OP(/)
#undef __KOPT_THRUST_CPLX_OP
template <class T> __host__ __device__ complex<T> operator-(const complex<T> &a);
template <class T> __host__ __device__ bool operator==(const complex<T> &a, const complex<T> &b);
template <class T> __host__ __device__ bool operator!=(const complex<T> &a, const complex<T> &b);
template <class T> __host__ __device__ T abs(const complex<T> &z);
template <class T> __host__ __device__ T arg(const complex<T> &z);
template <class T> __host__ __device__ T norm(const complex<T> &z);
template <class T> __host__ __device__ complex<T> conj(const complex<T> &z);
template <class T> __host__ __device__ complex<T> polar(const T &m, const T &theta = T());
#define __KOPT_THRUST_CPLX_F(f) template <class T> __host__ __device__ complex<T> f(const complex<T> &z);
__KOPT_THRUST_CPLX_F(exp) __KOPT_THRUST_CPLX_F(log) __KOPT_THRUST_CPLX_F(sqrt) __KOPT_THRUST_CPLX_F(sin)
__KOPT_THRUST_CPLX_F(cos) __KOPT_THRUST_CPLX_F(tanh)
#undef __KOPT_THRUST_CPLX_F
template <class T, class U> __host__ __device__ complex<T> pow(const complex<T> &z, const U &e);

#define __KOPT_THRUST_FN(name, R) \
  template <class T = void> struct name { \
    typedef T first_argument_type; typedef T second_argument_type; typedef R result_type; \
    __host__ __device__ R operator()(const T &a, const T &b) const; };
__KOPT_THRUST_FN(plus, T) __KOPT_THRUST_FN(minus, T) __KOPT_THRUST_FN(multiplies, T) __KOPT_THRUST_FN(divides, T)
__KOPT_THRUST_FN(modulus, T) __KOPT_THRUST_FN(maximum, T) __KOPT_THRUST_FN(minimum, T) __KOPT_THRUST_FN(bit_and, T)
__KOPT_THRUST_FN(bit_or, T) __KOPT_THRUST_FN(bit_xor, T) __KOPT_THRUST_FN(less, bool) __KOPT_THRUST_FN(greater, bool)
__KOPT_THRUST_FN(less_equal, bool) __KOPT_THRUST_FN(greater_equal, bool) __KOPT_THRUST_FN(equal_to, bool)
__KOPT_THRUST_FN(not_equal_to, bool) __KOPT_THRUST_FN(logical_and, bool) __KOPT_THRUST_FN(logical_or, bool)
#undef __KOPT_THRUST_FN
template <class T = void> struct negate { __host__ __device__ T operator()(const T &a) const; };
template <class T = void> struct identity { __host__ __device__ const T &operator()(const T &a) const; };
template <class T> __host__ __device__ const T &min(const T &a, const T &b);
template <class T> __host__ __device__ const T &max(const T &a, const T &b);
template <class T> __host__ __device__ void swap(T &a, T &b);
// a device_reference's value (device code passes plain references through it) and iterator arithmetic
template <class T> __host__ __device__ T &raw_reference_cast(T &r);
template <class T> __host__ __device__ const T &raw_reference_cast(const T &r);
template <class I> __host__ __device__ long distance(I first, I last);
template <class I, class D> __host__ __device__ void advance(I &i, D n);

// Thrust's fancy iterators, device_ptr, and its algorithms under the sequential policy `thrust::seq`: device code
// builds the iterators and searches with them in a thread (`thrust::lower_bound(thrust::seq, it, it + n, v)`)
struct use_default {};
struct __kopt_seq_t {}; constexpr __kopt_seq_t seq{};
#define __KOPT_THRUST_RANDOM_ACCESS(IT) \
  typedef long difference_type; typedef ::std::random_access_iterator_tag iterator_category; \
  __host__ __device__ reference operator*() const; __host__ __device__ reference operator[](difference_type) const; \
  __host__ __device__ IT &operator++(); __host__ __device__ IT operator++(int); \
  __host__ __device__ IT &operator--(); __host__ __device__ IT operator--(int); \
  __host__ __device__ IT &operator+=(difference_type); __host__ __device__ IT &operator-=(difference_type); \
  __host__ __device__ IT operator+(difference_type) const; __host__ __device__ IT operator-(difference_type) const; \
  __host__ __device__ difference_type operator-(const IT &) const; \
  __host__ __device__ bool operator==(const IT &) const; __host__ __device__ bool operator!=(const IT &) const; \
  __host__ __device__ bool operator<(const IT &) const; __host__ __device__ bool operator>(const IT &) const; \
  __host__ __device__ bool operator<=(const IT &) const; __host__ __device__ bool operator>=(const IT &) const;
template <class T> class device_ptr {
 public:
  typedef T value_type; typedef T &reference; typedef T *pointer;
  __KOPT_THRUST_RANDOM_ACCESS(device_ptr)
  __host__ __device__ device_ptr(); __host__ __device__ explicit device_ptr(T *);
  template <class U> __host__ __device__ device_ptr(const device_ptr<U> &);
  __host__ __device__ T *get() const; __host__ __device__ T *operator->() const;
};
template <class T> __host__ __device__ device_ptr<T> device_pointer_cast(T *);
// systems, policies and the tagged pointer (thrust/execution_policy.h, thrust/memory.h): libraries alias their
// pointer types on them (`using device_ptr = thrust::pointer<T, thrust::device_system_tag>`)
struct host_system_tag {}; struct device_system_tag {}; struct any_system_tag {};
template <class Derived> struct execution_policy {};
namespace detail { struct host_t : execution_policy<host_t> {}; struct device_t : execution_policy<device_t> {}; }
static const detail::host_t host; static const detail::device_t device;
template <class T, class Tag, class Ref = T &, class Derived = void> class pointer {
 public:
  typedef T value_type; typedef Ref reference; typedef T *raw_pointer;
  __KOPT_THRUST_RANDOM_ACCESS(pointer)
  __host__ __device__ pointer(); __host__ __device__ explicit pointer(T *);
  __host__ __device__ T *get() const; __host__ __device__ T *operator->() const;
};
// the pinned-memory allocator (a type host containers name: `std::vector<T, pinned_allocator<T>>`)
namespace system { namespace cuda { namespace experimental {
template <class T> class pinned_allocator { public: typedef T value_type; typedef T *pointer; };
} } }
namespace cuda { namespace experimental { using ::thrust::system::cuda::experimental::pinned_allocator; } }
template <class T, class Tag, class R, class D> __host__ __device__ T *raw_pointer_cast(const pointer<T, Tag, R, D> &);
template <class T> __host__ __device__ T *raw_pointer_cast(const device_ptr<T> &);
template <class T> __host__ __device__ T *raw_pointer_cast(T *);
template <class I> class counting_iterator {
 public:
  typedef I value_type; typedef I reference; typedef const I *pointer;
  __KOPT_THRUST_RANDOM_ACCESS(counting_iterator)
  __host__ __device__ counting_iterator(); __host__ __device__ counting_iterator(I);
};
template <class I> __host__ __device__ counting_iterator<I> make_counting_iterator(I);
template <class T> class constant_iterator {
 public:
  typedef T value_type; typedef T reference; typedef const T *pointer;
  __KOPT_THRUST_RANDOM_ACCESS(constant_iterator)
  __host__ __device__ constant_iterator(); __host__ __device__ constant_iterator(const T &);
};
template <class T> __host__ __device__ constant_iterator<T> make_constant_iterator(T);
template <class R, class F, class It> struct __kopt_transform_ref { typedef R type; };
template <class F, class It> struct __kopt_transform_ref<use_default, F, It> {
  typedef decltype(::std::declval<const F &>()(*::std::declval<It &>())) type; };
template <class F, class It, class R = use_default, class V = use_default> class transform_iterator {
 public:
  typedef typename __kopt_transform_ref<R, F, It>::type reference;
  typedef typename ::std::remove_cvref<reference>::type value_type; typedef void pointer;
  __KOPT_THRUST_RANDOM_ACCESS(transform_iterator)
  __host__ __device__ transform_iterator(); __host__ __device__ transform_iterator(It, F);
  __host__ __device__ It base() const;
};
template <class F, class It> __host__ __device__ transform_iterator<F, It> make_transform_iterator(It, F);
template <class It> class reverse_iterator {
 public:
  typedef typename ::std::iterator_traits<It>::value_type value_type;
  typedef typename ::std::iterator_traits<It>::reference reference; typedef void pointer;
  __KOPT_THRUST_RANDOM_ACCESS(reverse_iterator)
  __host__ __device__ reverse_iterator(); __host__ __device__ explicit reverse_iterator(It); __host__ __device__ It base() const;
};
template <class It> __host__ __device__ reverse_iterator<It> make_reverse_iterator(It);
#undef __KOPT_THRUST_RANDOM_ACCESS
#define __KOPT_THRUST_SEARCH(NAME, R) \
  template <class It, class T> __host__ __device__ R NAME(const __kopt_seq_t &, It, It, const T &); \
  template <class It, class T, class C> __host__ __device__ R NAME(const __kopt_seq_t &, It, It, const T &, C);
__KOPT_THRUST_SEARCH(lower_bound, It) __KOPT_THRUST_SEARCH(upper_bound, It) __KOPT_THRUST_SEARCH(binary_search, bool)
#undef __KOPT_THRUST_SEARCH
}  // namespace thrust
