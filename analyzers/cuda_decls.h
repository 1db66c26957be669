// kopt analyzers: built-in CUDA declarations for parsing device code with libclang without a CUDA toolkit.
// Force-included before every file; the stub headers in include/ are empty so real #includes resolve here.
// Declarations only: enough for parsing and name resolution, not a runtime. They sit in one `extern "C++"` block
// (global scope, C++ linkage: what they would have without it) so that a parse's top level is one declaration
// here, not hundreds: the front end lists the top level of every file it reads.
#pragma once
extern "C++" {
#define __KOPT_ANALYZER__ 1
#define __CUDACC__ 1
#define __CUDA_ARCH__ 900
// nvcc's compiler and runtime versions (CUDA 13.0; preproc.NVCC states them for the fallback and the host scan)
#define __NVCC__ 1
#define CUDART_VERSION 13000
#define CUDA_VERSION 13000
#define __CUDACC_VER_MAJOR__ 13
#define __CUDACC_VER_MINOR__ 0
// the include guards of the toolkit headers whose types and functions are declared here: a project's own copy of one
// (kept for builds without CUDA, such as HOOMD-blue's extern/cudacpu_vector_types.h) is skipped, as it is after the
// toolkit's own
#define __VECTOR_TYPES_H__
#define __VECTOR_FUNCTIONS_H__
#define __global__ __attribute__((global))
#define __device__ __attribute__((device))
#define __host__ __attribute__((host))
#define __shared__ __attribute__((shared))
#define __constant__ __attribute__((constant))
// managed memory is device memory the host may also touch (clang takes `managed` alone for a host variable)
#define __managed__ __attribute__((device)) __attribute__((managed))
#define __launch_bounds__(...) __attribute__((launch_bounds(__VA_ARGS__)))
#define __forceinline__ inline __attribute__((always_inline))
#define __noinline__ __attribute__((noinline))
#define __grid_constant__
#define __align__(n) __attribute__((aligned(n)))
#define __builtin_align__(n) __attribute__((aligned(n)))
#define __device_builtin__  // (host_defines.h: marks the toolkit's own types and functions)
#define __cluster_dims__(...)
#define CUDART_INF_F __builtin_huge_valf()
#define INFINITY __builtin_huge_valf()
#define HUGE_VALF __builtin_huge_valf()
#define offsetof(T, M) __builtin_offsetof(T, M)
#define HUGE_VAL __builtin_huge_val()
#define NAN __builtin_nanf("")
#define FLT_MAX 3.402823466e+38F
#define FLT_MIN 1.175494351e-38F
#define DBL_MAX 1.7976931348623158e+308
#define INT_MAX 2147483647
#define INT_MIN (-INT_MAX - 1)
#define UINT_MAX 0xffffffffu
// the <math.h>, <float.h> and <limits.h> constants nvcc's headers make visible (cuda_runtime.h includes them)
#define M_E 2.7182818284590452354
#define M_LOG2E 1.4426950408889634074
#define M_LOG10E 0.43429448190325182765
#define M_LN2 0.69314718055994530942
#define M_LN10 2.30258509299404568402
#define M_PI 3.14159265358979323846
#define M_PI_2 1.57079632679489661923
#define M_PI_4 0.78539816339744830962
#define M_1_PI 0.31830988618379067154
#define M_2_PI 0.63661977236758134308
#define M_2_SQRTPI 1.12837916709551257390
#define M_SQRT2 1.41421356237309504880
#define M_SQRT1_2 0.70710678118654752440
#define FLT_EPSILON 1.19209290e-7F
#define DBL_EPSILON 2.2204460492503131e-16
#define DBL_MIN 2.2250738585072014e-308
#define FLT_DIG 6
#define DBL_DIG 15
#define FLT_MANT_DIG 24
#define DBL_MANT_DIG 53
#define CHAR_BIT 8
#define SCHAR_MAX 127
#define SCHAR_MIN (-128)
#define UCHAR_MAX 255
#define SHRT_MAX 32767
#define SHRT_MIN (-32768)
#define USHRT_MAX 65535
#define LONG_MAX 9223372036854775807L
#define LONG_MIN (-LONG_MAX - 1L)
#define ULONG_MAX 18446744073709551615UL
#define LLONG_MAX 9223372036854775807LL
#define LLONG_MIN (-LLONG_MAX - 1LL)
#define ULLONG_MAX 18446744073709551615ULL
// <stdint.h>'s limits
#define INT8_MAX 127
#define INT8_MIN (-128)
#define UINT8_MAX 255
#define INT16_MAX 32767
#define INT16_MIN (-32768)
#define UINT16_MAX 65535
#define INT32_MAX 2147483647
#define INT32_MIN (-INT32_MAX - 1)
#define UINT32_MAX 4294967295U
#define INT64_MAX 9223372036854775807L
#define INT64_MIN (-INT64_MAX - 1L)
#define UINT64_MAX 18446744073709551615UL
#define SIZE_MAX 18446744073709551615UL
#define INT8_C(c) c
#define UINT8_C(c) c
#define INT16_C(c) c
#define UINT16_C(c) c
#define INT32_C(c) c
#define UINT32_C(c) c ## U
#define INT64_C(c) c ## L
#define UINT64_C(c) c ## UL
#define NULL 0
// an assertion is a fact the analysis keeps (a failed one stops the grid); host code calls it too
__host__ __device__ void __kopt_assert(bool);
#define assert(x) __kopt_assert(!!(x))

typedef unsigned long size_t; typedef long ssize_t;
typedef long ptrdiff_t;
// glibc's on LP64 Linux, where nvcc compiles: 64-bit integers are `long`
typedef signed char int8_t; typedef short int16_t; typedef int int32_t; typedef long int64_t;
typedef unsigned char uint8_t; typedef unsigned short uint16_t; typedef unsigned int uint32_t;
typedef unsigned long uint64_t; typedef unsigned long uintptr_t; typedef long intptr_t;
// <cstdint>'s least/fast/max types (glibc LP64)
typedef signed char int_least8_t; typedef short int_least16_t; typedef int int_least32_t; typedef long int_least64_t;
typedef unsigned char uint_least8_t; typedef unsigned short uint_least16_t; typedef unsigned int uint_least32_t;
typedef unsigned long uint_least64_t; typedef signed char int_fast8_t; typedef long int_fast16_t; typedef long int_fast32_t;
typedef long int_fast64_t; typedef unsigned char uint_fast8_t; typedef unsigned long uint_fast16_t;
typedef unsigned long uint_fast32_t; typedef unsigned long uint_fast64_t; typedef long intmax_t; typedef unsigned long uintmax_t;
// glibc's own names for them (<bits/types.h>), which headers written for glibc name directly
typedef signed char __int8_t; typedef short __int16_t; typedef int __int32_t; typedef long __int64_t;
typedef unsigned char __uint8_t; typedef unsigned short __uint16_t; typedef unsigned int __uint32_t;
typedef unsigned long __uint64_t;
namespace std {
  template <class E> class initializer_list {
    const E* b_; size_t n_;
   public:
    constexpr initializer_list() : b_(nullptr), n_(0) {}
    constexpr size_t size() const { return n_; }
    constexpr const E* begin() const { return b_; }
    constexpr const E* end() const { return b_ + n_; }
  };
  using ::size_t; using ::int8_t; using ::int16_t; using ::int32_t; using ::int64_t;
  using ::uint8_t; using ::uint16_t; using ::uint32_t; using ::uint64_t;
  using ::ptrdiff_t; using ::intptr_t; using ::uintptr_t; typedef decltype(nullptr) nullptr_t;
  using ::int_least8_t; using ::int_least16_t; using ::int_least32_t; using ::int_least64_t; using ::uint_least8_t;
  using ::uint_least16_t; using ::uint_least32_t; using ::uint_least64_t; using ::int_fast8_t; using ::int_fast16_t;
  using ::int_fast32_t; using ::int_fast64_t; using ::uint_fast8_t; using ::uint_fast16_t; using ::uint_fast32_t;
  using ::uint_fast64_t; using ::intmax_t; using ::uintmax_t;
  template <class T> struct remove_reference { typedef T type; };
  template <class T> struct remove_reference<T&> { typedef T type; };
  template <class T> struct remove_reference<T&&> { typedef T type; };
  template <class T> __host__ __device__ constexpr typename remove_reference<T>::type&& move(T&& t) {
    return static_cast<typename remove_reference<T>::type&&>(t); }
  template <class T, class U = T> __host__ __device__ T exchange(T& obj, U&& value);
  // <type_traits> and <limits>: what device code reads at compile time
  template <class T, T v> struct integral_constant { static constexpr T value = v; typedef T value_type;
    constexpr operator T() const { return v; } };
  typedef integral_constant<bool, true> true_type; typedef integral_constant<bool, false> false_type;
  template <bool B> using bool_constant = integral_constant<bool, B>;
  template <class A, class B> struct is_same : false_type {}; template <class A> struct is_same<A, A> : true_type {};
  template <class A, class B> constexpr bool is_same_v = is_same<A, B>::value;
  // <bit> (C++20): constexpr, so `constexpr float inf = std::bit_cast<float>(0x7f800000u)` is a constant
  template <class To, class From> __host__ __device__ constexpr To bit_cast(const From& f) noexcept { return __builtin_bit_cast(To, f); }
  template <bool B, class T = void> struct enable_if {}; template <class T> struct enable_if<true, T> { typedef T type; };
  template <bool B, class T = void> using enable_if_t = typename enable_if<B, T>::type;
  template <unsigned long Len, unsigned long Align = 16> struct aligned_storage {
    struct type { alignas(Align) unsigned char __data[Len]; }; };
  template <bool B, class T, class F> struct conditional { typedef T type; };
  template <class T, class F> struct conditional<false, T, F> { typedef F type; };
  template <bool B, class T, class F> using conditional_t = typename conditional<B, T, F>::type;
  template <class T> struct remove_cv { typedef T type; }; template <class T> struct remove_cv<const T> { typedef T type; };
  template <class T> struct remove_cv<volatile T> { typedef T type; };
  template <class T> struct remove_cv<const volatile T> { typedef T type; };
  template <class T> struct decay { typedef typename remove_cv<typename remove_reference<T>::type>::type type; };
  template <class T> using decay_t = typename decay<T>::type;
  template <class T> using remove_reference_t = typename remove_reference<T>::type;
  template <class T> using remove_cv_t = typename remove_cv<T>::type;
  template <class T> T&& declval();
  template <class... T> struct common_type {};
  template <class T> struct common_type<T> { typedef typename decay<T>::type type; };
  template <class T, class U> struct common_type<T, U> {
    typedef typename decay<decltype(true ? declval<T>() : declval<U>())>::type type; };
  template <class... T> using common_type_t = typename common_type<T...>::type;
  template <class T> struct is_floating_point : false_type {};
  template <> struct is_floating_point<float> : true_type {}; template <> struct is_floating_point<double> : true_type {};
  template <class T> struct is_integral : false_type {};
#define __KOPT_INTEGRAL(T) template <> struct is_integral<T> : true_type {};
  __KOPT_INTEGRAL(bool) __KOPT_INTEGRAL(char) __KOPT_INTEGRAL(signed char) __KOPT_INTEGRAL(unsigned char)
  __KOPT_INTEGRAL(short) __KOPT_INTEGRAL(unsigned short) __KOPT_INTEGRAL(int) __KOPT_INTEGRAL(unsigned)
  __KOPT_INTEGRAL(long) __KOPT_INTEGRAL(unsigned long) __KOPT_INTEGRAL(long long) __KOPT_INTEGRAL(unsigned long long)
#undef __KOPT_INTEGRAL
  template <class T> struct is_pointer : false_type {}; template <class T> struct is_pointer<T*> : true_type {};
  template <class T> struct make_unsigned { typedef T type; }; template <class T> struct make_signed { typedef T type; };
#define __KOPT_SIGNS(S, U) template <> struct make_unsigned<S> { typedef U type; }; \
  template <> struct make_unsigned<U> { typedef U type; }; template <> struct make_signed<U> { typedef S type; }; \
  template <> struct make_signed<S> { typedef S type; };
  __KOPT_SIGNS(signed char, unsigned char) __KOPT_SIGNS(short, unsigned short)
  __KOPT_SIGNS(int, unsigned) __KOPT_SIGNS(long, unsigned long) __KOPT_SIGNS(long long, unsigned long long)
  template <> struct make_unsigned<char> { typedef unsigned char type; };
  template <> struct make_signed<char> { typedef signed char type; };
#undef __KOPT_SIGNS
  template <class T> using make_unsigned_t = typename make_unsigned<T>::type;
  template <class T> using make_signed_t = typename make_signed<T>::type;
  template <class T> struct is_signed : integral_constant<bool, T(-1) < T(0)> {};
  template <class T> struct is_unsigned : integral_constant<bool, !(T(-1) < T(0))> {};
  template <class T> struct is_arithmetic : integral_constant<bool, is_integral<T>::value || is_floating_point<T>::value> {};
  // the traits library headers assert of their types (glm: `static_assert(std::is_trivially_copyable<glm::dvec2>::value)`)
  template <class T> struct is_trivially_copyable : integral_constant<bool, __is_trivially_copyable(T)> {};
  template <class T> struct has_unique_object_representations
    : integral_constant<bool, __has_unique_object_representations(T)> {};
  template <class T> struct is_trivially_default_constructible : integral_constant<bool, __is_trivially_constructible(T)> {};
  template <class T> struct is_trivially_copy_assignable
    : integral_constant<bool, __is_trivially_assignable(T&, const T&)> {};
  template <class T> struct is_copy_constructible : integral_constant<bool, __is_constructible(T, const T&)> {};
  template <class T> struct is_default_constructible : integral_constant<bool, __is_constructible(T)> {};
  template <class T> struct is_trivially_destructible : integral_constant<bool, __is_trivially_destructible(T)> {};
  template <class T> struct is_trivially_copy_constructible
    : integral_constant<bool, __is_trivially_constructible(T, const T&)> {};
  template <class T> struct is_trivially_move_constructible : integral_constant<bool, __is_trivially_constructible(T, T&&)> {};
  template <class T> struct is_trivially_move_assignable : integral_constant<bool, __is_trivially_assignable(T&, T&&)> {};
  template <class T> struct is_standard_layout : integral_constant<bool, __is_standard_layout(T)> {};
  template <class T> constexpr bool is_floating_point_v = is_floating_point<T>::value;
  template <class T> constexpr bool is_integral_v = is_integral<T>::value;
  template <class T> struct remove_const { typedef T type; }; template <class T> struct remove_const<const T> { typedef T type; };
  template <class T> struct remove_volatile { typedef T type; };
  template <class T> struct remove_volatile<volatile T> { typedef T type; };
  template <class T> struct remove_pointer { typedef T type; }; template <class T> struct remove_pointer<T*> { typedef T type; };
  template <class T> struct remove_pointer<T* const> { typedef T type; };
  template <class T> struct add_const { typedef const T type; }; template <class T> struct add_pointer { typedef typename remove_reference<T>::type* type; };
  template <class T> struct add_lvalue_reference { typedef T& type; };
  template <> struct add_lvalue_reference<void> { typedef void type; };
  template <class T> using remove_const_t = typename remove_const<T>::type;
  template <class T> using remove_volatile_t = typename remove_volatile<T>::type;
  template <class T> using remove_pointer_t = typename remove_pointer<T>::type;
  template <class T> using add_const_t = typename add_const<T>::type;
  template <class T> struct remove_cvref { typedef typename remove_cv<typename remove_reference<T>::type>::type type; };
  template <class T> using remove_cvref_t = typename remove_cvref<T>::type;
  template <class T> struct is_const : false_type {}; template <class T> struct is_const<const T> : true_type {};
  template <class T> struct is_void : is_same<typename remove_cv<T>::type, void> {};
  template <class T> struct is_reference : false_type {}; template <class T> struct is_reference<T&> : true_type {};
  template <class T> struct is_reference<T&&> : true_type {};
  template <class T> struct is_array : false_type {}; template <class T> struct is_array<T[]> : true_type {};
  template <class T, size_t N> struct is_array<T[N]> : true_type {};
  template <class T, unsigned I = 0> struct extent : integral_constant<size_t, 0> {};
  template <class T, size_t N> struct extent<T[N], 0> : integral_constant<size_t, N> {};
  template <class T, unsigned I, size_t N> struct extent<T[N], I> : extent<T, I - 1> {};
  template <class T, unsigned I = 0> constexpr size_t extent_v = extent<T, I>::value;
  template <class T> struct is_class : integral_constant<bool, __is_class(T)> {};
  template <class T> struct is_enum : integral_constant<bool, __is_enum(T)> {};
  template <class B, class D> struct is_base_of : integral_constant<bool, __is_base_of(B, D)> {};
  template <class F, class T> struct is_convertible : integral_constant<bool, __is_convertible_to(F, T)> {};
  template <class T> struct underlying_type { typedef __underlying_type(T) type; };
  template <class T> using underlying_type_t = typename underlying_type<T>::type;
  template <class... T> using void_t = void;
  template <class T> constexpr bool is_pointer_v = is_pointer<T>::value;
  template <class T> constexpr bool is_signed_v = is_signed<T>::value;
  template <class T> constexpr bool is_unsigned_v = is_unsigned<T>::value;
  template <class T> constexpr bool is_arithmetic_v = is_arithmetic<T>::value;
  template <class T> constexpr bool is_const_v = is_const<T>::value;
  template <class T> constexpr bool is_void_v = is_void<T>::value;
  template <class T> constexpr bool is_enum_v = is_enum<T>::value;
  template <class T> constexpr bool is_class_v = is_class<T>::value;
  template <class B, class D> constexpr bool is_base_of_v = is_base_of<B, D>::value;
  template <class F, class T> constexpr bool is_convertible_v = is_convertible<F, T>::value;
  // (constexpr with bodies, as the standard's: `constexpr T k[] = {std::forward<T>(Values)...};` is a constant)
  template <class T> __host__ __device__ constexpr T&& forward(typename remove_reference<T>::type& t) {
    return static_cast<T&&>(t); }
  template <class T> __host__ __device__ constexpr T&& forward(typename remove_reference<T>::type&& t) {
    return static_cast<T&&>(t); }
  template <class T> __host__ __device__ constexpr const T& as_const(T& t);
  template <class T, T... I> struct integer_sequence { static constexpr size_t size() { return sizeof...(I); } };
  template <size_t... I> using index_sequence = integer_sequence<size_t, I...>;
  template <class T, T N> using make_integer_sequence = __make_integer_seq<integer_sequence, T, N>;
  template <size_t N> using make_index_sequence = make_integer_sequence<size_t, N>;
  template <class... T> using index_sequence_for = make_index_sequence<sizeof...(T)>;
  template <class T> struct numeric_limits { __host__ __device__ static constexpr T max(); __host__ __device__ static constexpr T min();
    __host__ __device__ static constexpr T lowest(); __host__ __device__ static constexpr T infinity();
    __host__ __device__ static constexpr T epsilon(); __host__ __device__ static constexpr T quiet_NaN();
    __host__ __device__ static constexpr T signaling_NaN(); __host__ __device__ static constexpr T denorm_min();
    __host__ __device__ static constexpr T round_error(); static constexpr bool is_signed = T(-1) < T(0);
    static constexpr bool is_integer = T(1) / T(2) == T(0); static constexpr bool has_infinity = !is_integer;
    static constexpr bool has_quiet_NaN = !is_integer; static constexpr bool is_specialized = true;
    static constexpr int digits = sizeof(T) * 8; };
  // the integer types' limits have values (constexpr code computes with them: `numeric_limits<short>::max() + 1`)
#define __KOPT_LIMITS(T, LO, HI) template <> struct numeric_limits<T> { \
    __host__ __device__ static constexpr T max() { return HI; } __host__ __device__ static constexpr T min() { return LO; } \
    __host__ __device__ static constexpr T lowest() { return LO; } \
    static constexpr bool is_signed = static_cast<T>(-1) < static_cast<T>(0); \
    static constexpr bool is_integer = true; static constexpr bool is_specialized = true; \
    static constexpr bool has_infinity = false; static constexpr bool has_quiet_NaN = false; \
    static constexpr int digits = sizeof(T) * 8 - is_signed; };
  __KOPT_LIMITS(char, -128, 127) __KOPT_LIMITS(signed char, -128, 127) __KOPT_LIMITS(unsigned char, 0, 255)
  __KOPT_LIMITS(short, -32768, 32767) __KOPT_LIMITS(unsigned short, 0, 65535)
  __KOPT_LIMITS(int, -2147483647 - 1, 2147483647) __KOPT_LIMITS(unsigned, 0u, 4294967295u)
  __KOPT_LIMITS(long, -9223372036854775807L - 1, 9223372036854775807L) __KOPT_LIMITS(unsigned long, 0ul, ~0ul)
  __KOPT_LIMITS(long long, -9223372036854775807LL - 1, 9223372036854775807LL)
  __KOPT_LIMITS(unsigned long long, 0ull, ~0ull)
#undef __KOPT_LIMITS
  // the floating types' too (`constexpr float kFloatMin = std::numeric_limits<float>::lowest();`)
#define __KOPT_FLIMITS(T, MAX, MIN, EPS, DEN, INF, NAN_, DIG) template <> struct numeric_limits<T> { \
    __host__ __device__ static constexpr T max() { return MAX; } __host__ __device__ static constexpr T min() { return MIN; } \
    __host__ __device__ static constexpr T lowest() { return -(MAX); } \
    __host__ __device__ static constexpr T epsilon() { return EPS; } \
    __host__ __device__ static constexpr T denorm_min() { return DEN; } \
    __host__ __device__ static constexpr T round_error() { return T(0.5); } \
    __host__ __device__ static constexpr T infinity() { return INF; } \
    __host__ __device__ static constexpr T quiet_NaN() { return NAN_; } \
    __host__ __device__ static constexpr T signaling_NaN() { return NAN_; } \
    static constexpr bool is_signed = true; static constexpr bool is_integer = false; \
    static constexpr bool is_specialized = true; static constexpr bool has_infinity = true; \
    static constexpr bool has_quiet_NaN = true; static constexpr int digits = DIG; };
  __KOPT_FLIMITS(float, 3.40282347e+38F, 1.17549435e-38F, 1.19209290e-07F, 1.40129846e-45F, __builtin_huge_valf(),
                 __builtin_nanf(""), 24)
  __KOPT_FLIMITS(double, 1.7976931348623157e+308, 2.2250738585072014e-308, 2.2204460492503131e-16,
                 4.9406564584124654e-324, __builtin_huge_val(), __builtin_nan(""), 53)
#undef __KOPT_FLIMITS
  template <class T> __host__ __device__ const T& min(const T& a, const T& b);
  template <class T> __host__ __device__ const T& max(const T& a, const T& b);
  // <algorithm>, <iterator>, <utility>: what host-and-device helpers of a kernel's headers call
  template <class A, class B> struct pair { A first; B second; __host__ __device__ pair();
    __host__ __device__ pair(const A& a, const B& b); };
  template <class A, class B> __host__ __device__ pair<A, B> make_pair(A a, B b);
  template <class T> __host__ __device__ void swap(T& a, T& b);
  template <class I, class O> __host__ __device__ O copy(I first, I last, O out);
  template <class I, class O> __host__ __device__ O copy_n(I first, size_t n, O out);
  template <class I, class T> __host__ __device__ void fill(I first, I last, const T& v);
  template <class C> __host__ __device__ auto begin(C& c) -> decltype(c.begin());
  template <class C> __host__ __device__ auto end(C& c) -> decltype(c.end());
  template <class T, size_t N> __host__ __device__ T* begin(T (&a)[N]);
  template <class T, size_t N> __host__ __device__ T* end(T (&a)[N]);
  // the rest of <type_traits> that library headers test (xgboost's span: `is_reference_v`), from clang's builtins
  template <class T> struct is_lvalue_reference : false_type {};
  template <class T> struct is_lvalue_reference<T&> : true_type {};
  template <class T> struct is_rvalue_reference : false_type {};
  template <class T> struct is_rvalue_reference<T&&> : true_type {};
  template <class T> struct is_volatile : false_type {}; template <class T> struct is_volatile<volatile T> : true_type {};
  template <class T> struct is_function : integral_constant<bool, __is_function(T)> {};
  template <class T> struct is_union : integral_constant<bool, __is_union(T)> {};
  template <class T> struct is_empty : integral_constant<bool, __is_empty(T)> {};
  template <class T> struct is_polymorphic : integral_constant<bool, __is_polymorphic(T)> {};
  template <class T> struct is_abstract : integral_constant<bool, __is_abstract(T)> {};
  template <class T> struct is_final : integral_constant<bool, __is_final(T)> {};
  template <class T> struct is_trivial : integral_constant<bool, __is_trivial(T)> {};
  template <class T> struct is_pod : integral_constant<bool, __is_pod(T)> {};
  template <class T> struct is_scalar : integral_constant<bool, __is_scalar(T)> {};
  template <class T> struct is_fundamental : integral_constant<bool, __is_fundamental(T)> {};
  template <class T> struct is_object : integral_constant<bool, __is_object(T)> {};
  template <class T> struct is_member_pointer : integral_constant<bool, __is_member_pointer(T)> {};
  template <class T, class... A> struct is_constructible : integral_constant<bool, __is_constructible(T, A...)> {};
  template <class T, class... A> struct is_trivially_constructible
      : integral_constant<bool, __is_trivially_constructible(T, A...)> {};
  template <class T, class... A> struct is_nothrow_constructible
      : integral_constant<bool, __is_nothrow_constructible(T, A...)> {};
  template <class T> struct is_move_constructible : integral_constant<bool, __is_constructible(T, T&&)> {};
  template <class T, class U> struct is_assignable : integral_constant<bool, __is_assignable(T, U)> {};
  template <class T> struct alignment_of : integral_constant<size_t, alignof(T)> {};
  template <class T> struct type_identity { typedef T type; };
  template <class T> using type_identity_t = typename type_identity<T>::type;
  template <class... B> struct conjunction : true_type {};
  template <class B, class... R> struct conjunction<B, R...> : conditional<B::value, conjunction<R...>, B>::type {};
  template <class... B> struct disjunction : false_type {};
  template <class B, class... R> struct disjunction<B, R...> : conditional<B::value, B, disjunction<R...>>::type {};
  template <class B> struct negation : integral_constant<bool, !B::value> {};
  template <class... B> constexpr bool conjunction_v = conjunction<B...>::value;
  template <class... B> constexpr bool disjunction_v = disjunction<B...>::value;
  template <class B> constexpr bool negation_v = negation<B>::value;
  template <class T> constexpr bool is_reference_v = is_reference<T>::value;
  template <class T> constexpr bool is_lvalue_reference_v = is_lvalue_reference<T>::value;
  template <class T> constexpr bool is_rvalue_reference_v = is_rvalue_reference<T>::value;
  template <class T> constexpr bool is_volatile_v = is_volatile<T>::value;
  template <class T> constexpr bool is_array_v = is_array<T>::value;
  template <class T> constexpr bool is_function_v = is_function<T>::value;
  template <class T> constexpr bool is_union_v = is_union<T>::value;
  template <class T> constexpr bool is_empty_v = is_empty<T>::value;
  template <class T> constexpr bool is_polymorphic_v = is_polymorphic<T>::value;
  template <class T> constexpr bool is_abstract_v = is_abstract<T>::value;
  template <class T> constexpr bool is_final_v = is_final<T>::value;
  template <class T> constexpr bool is_trivial_v = is_trivial<T>::value;
  template <class T> constexpr bool is_pod_v = is_pod<T>::value;
  template <class T> constexpr bool is_scalar_v = is_scalar<T>::value;
  template <class T> constexpr bool is_fundamental_v = is_fundamental<T>::value;
  template <class T> constexpr bool is_object_v = is_object<T>::value;
  template <class T> constexpr bool is_member_pointer_v = is_member_pointer<T>::value;
  template <class T, class... A> constexpr bool is_constructible_v = is_constructible<T, A...>::value;
  template <class T, class... A> constexpr bool is_trivially_constructible_v = is_trivially_constructible<T, A...>::value;
  template <class T, class... A> constexpr bool is_nothrow_constructible_v = is_nothrow_constructible<T, A...>::value;
  template <class T> constexpr bool is_move_constructible_v = is_move_constructible<T>::value;
  template <class T, class U> constexpr bool is_assignable_v = is_assignable<T, U>::value;
  template <class T> constexpr bool is_trivially_copyable_v = is_trivially_copyable<T>::value;
  template <class T> constexpr bool has_unique_object_representations_v = has_unique_object_representations<T>::value;
  template <class T> constexpr bool is_trivially_destructible_v = is_trivially_destructible<T>::value;
  template <class T> constexpr bool is_default_constructible_v = is_default_constructible<T>::value;
  template <class T> constexpr bool is_copy_constructible_v = is_copy_constructible<T>::value;
  template <class T> constexpr bool is_standard_layout_v = is_standard_layout<T>::value;
  template <class T> constexpr size_t alignment_of_v = alignment_of<T>::value;
  template <class F, class... A> struct invoke_result { typedef decltype(declval<F>()(declval<A>()...)) type; };
  template <class F, class... A> using invoke_result_t = typename invoke_result<F, A...>::type;
  template <class, class F, class... A> struct __kopt_invocable : false_type {};
  template <class F, class... A>
  struct __kopt_invocable<void_t<decltype(declval<F>()(declval<A>()...))>, F, A...> : true_type {};
  template <class F, class... A> struct is_invocable : __kopt_invocable<void, F, A...> {};
  template <class F, class... A> constexpr bool is_invocable_v = is_invocable<F, A...>::value;
  // <variant> / libcu++'s cuda::std::variant: device code visits a variant of view types
  struct monostate {};
  template <class... T> class variant {
   public:
    __host__ __device__ constexpr variant(); template <class U> __host__ __device__ constexpr variant(U&&);
    template <class U> __host__ __device__ constexpr variant& operator=(U&&);
    __host__ __device__ constexpr size_t index() const noexcept;
  };
  template <class V> struct __kopt_variant_first;
  template <class H, class... T> struct __kopt_variant_first<variant<H, T...>> { typedef H type; };
  template <class T, class... A> __host__ __device__ constexpr bool holds_alternative(const variant<A...>&) noexcept;
  template <class T, class... A> __host__ __device__ constexpr T& get(variant<A...>&);
  template <class T, class... A> __host__ __device__ constexpr const T& get(const variant<A...>&);
  template <class T, class... A> __host__ __device__ constexpr T* get_if(variant<A...>*) noexcept;
  template <class T, class... A> __host__ __device__ constexpr const T* get_if(const variant<A...>*) noexcept;
  template <class F, class V, class... R> __host__ __device__ constexpr
  decltype(declval<F>()(declval<typename __kopt_variant_first<typename remove_cvref<V>::type>::type&>()))
  visit(F&& f, V&& v, R&&... r);
  // <iterator>'s traits and tags (device code templated on iterators names them)
  struct input_iterator_tag {}; struct output_iterator_tag {}; struct forward_iterator_tag : input_iterator_tag {};
  struct bidirectional_iterator_tag : forward_iterator_tag {};
  struct random_access_iterator_tag : bidirectional_iterator_tag {};
  template <class I> struct iterator_traits {
    typedef typename I::value_type value_type; typedef typename I::difference_type difference_type;
    typedef typename I::pointer pointer; typedef typename I::reference reference;
    typedef typename I::iterator_category iterator_category; };
  template <class T> struct iterator_traits<T*> {
    typedef typename remove_cv<T>::type value_type; typedef long difference_type; typedef T* pointer;
    typedef T& reference; typedef random_access_iterator_tag iterator_category; };
  enum class byte : unsigned char {};  // <cstddef>
  template <class I> __host__ __device__ constexpr I to_integer(byte b) noexcept { return I(b); }
  // <iterator>'s operations (libcu++'s cuda::std::distance in device code)
  template <class I> __host__ __device__ constexpr typename iterator_traits<I>::difference_type distance(I, I);
  template <class I, class D> __host__ __device__ constexpr void advance(I&, D);
  template <class I> __host__ __device__ constexpr I next(I, typename iterator_traits<I>::difference_type = 1);
  template <class I> __host__ __device__ constexpr I prev(I, typename iterator_traits<I>::difference_type = 1);
  template <class I> class reverse_iterator {
   public:
    typedef typename iterator_traits<I>::value_type value_type;
    typedef typename iterator_traits<I>::difference_type difference_type;
    typedef typename iterator_traits<I>::pointer pointer; typedef typename iterator_traits<I>::reference reference;
    typedef typename iterator_traits<I>::iterator_category iterator_category;
    __host__ __device__ constexpr reverse_iterator(); __host__ __device__ constexpr explicit reverse_iterator(I);
    __host__ __device__ constexpr I base() const; __host__ __device__ constexpr reference operator*() const;
    __host__ __device__ constexpr reference operator[](difference_type) const;
    __host__ __device__ constexpr reverse_iterator& operator++(); __host__ __device__ constexpr reverse_iterator operator++(int);
    __host__ __device__ constexpr reverse_iterator& operator--(); __host__ __device__ constexpr reverse_iterator operator--(int);
    __host__ __device__ constexpr reverse_iterator operator+(difference_type) const;
    __host__ __device__ constexpr reverse_iterator operator-(difference_type) const;
    __host__ __device__ constexpr reverse_iterator& operator+=(difference_type);
    __host__ __device__ constexpr reverse_iterator& operator-=(difference_type);
    __host__ __device__ constexpr bool operator==(const reverse_iterator&) const;
    __host__ __device__ constexpr bool operator!=(const reverse_iterator&) const;
  };
}
// glibc's assert expands to it (a library's own check macro may call it directly)
extern "C" __host__ __device__ void __assert_fail(const char*, const char*, unsigned, const char*);


#define __KOPT_VEC2(T, N) struct __attribute__((aligned(2 * sizeof(T)))) N##2 { T x, y; }; \
  __host__ __device__ N##2 make_##N##2(T, T);
#define __KOPT_VEC4(T, N) struct __attribute__((aligned(4 * sizeof(T) > 16 ? 16 : 4 * sizeof(T)))) N##4 { T x, y, z, w; }; \
  __host__ __device__ N##4 make_##N##4(T, T, T, T);
#define __KOPT_VEC3(T, N) struct N##3 { T x, y, z; }; __host__ __device__ N##3 make_##N##3(T, T, T);
#define __KOPT_VEC1(T, N) struct N##1 { T x; }; __host__ __device__ N##1 make_##N##1(T);
#define __KOPT_VECS(T, N) __KOPT_VEC1(T, N) __KOPT_VEC2(T, N) __KOPT_VEC3(T, N) __KOPT_VEC4(T, N)
__KOPT_VECS(float, float) __KOPT_VECS(double, double) __KOPT_VECS(int, int) __KOPT_VECS(unsigned int, uint)
__KOPT_VECS(signed char, char) __KOPT_VECS(unsigned char, uchar) __KOPT_VECS(short, short)
__KOPT_VECS(unsigned short, ushort) __KOPT_VECS(long long, longlong) __KOPT_VECS(unsigned long long, ulonglong)
__KOPT_VECS(long, long) __KOPT_VECS(unsigned long, ulong)

typedef unsigned int uint; typedef unsigned short ushort; typedef unsigned long ulong;  // glibc's <sys/types.h>
typedef long off_t; typedef long ssize_t;
typedef long clock_t;

struct dim3 { unsigned int x, y, z;
  __host__ __device__ dim3(unsigned int x = 1, unsigned int y = 1, unsigned int z = 1);
  __host__ __device__ dim3(uint3 v);  // (as vector_types.h: `const dim3 tid = threadIdx`)
  __host__ __device__ operator uint3() const; };
extern __device__ const uint3 threadIdx;
extern __device__ const uint3 blockIdx;
extern __device__ const dim3 blockDim;
extern __device__ const dim3 gridDim;
extern __device__ const int warpSize;

struct __half_raw { unsigned short x; }; struct __half2_raw { unsigned short x, y; };
struct __attribute__((aligned(2))) __half { unsigned short __x; __half() = default; __device__ __half(float);
  __device__ __half(const __half_raw&); __device__ operator float() const; __device__ operator __half_raw() const; };
struct __attribute__((aligned(4))) __half2 { __half x, y; __half2() = default;
  __host__ __device__ constexpr __half2(const __half& a, const __half& b) : x(a), y(b) {} };
struct __nv_bfloat16_raw { unsigned short x; }; struct __nv_bfloat162_raw { unsigned short x, y; };
struct __attribute__((aligned(2))) __nv_bfloat16 { unsigned short __x; __nv_bfloat16() = default;
  __device__ __nv_bfloat16(float); __device__ __nv_bfloat16(const __nv_bfloat16_raw&);
  __device__ operator float() const; __device__ operator __nv_bfloat16_raw() const; };
struct __attribute__((aligned(4))) __nv_bfloat162 { __nv_bfloat16 x, y; __nv_bfloat162() = default;
  __host__ __device__ constexpr __nv_bfloat162(const __nv_bfloat16& a, const __nv_bfloat16& b) : x(a), y(b) {} };
// <cuda_fp8.h>: one-byte floats and their pairs and quads
typedef unsigned char __nv_fp8_storage_t; typedef unsigned short __nv_fp8x2_storage_t;
typedef unsigned int __nv_fp8x4_storage_t;
enum __nv_saturation_t { __NV_NOSAT, __NV_SATFINITE }; enum __nv_fp8_interpretation_t { __NV_E4M3, __NV_E5M2 };
#define __KOPT_FP8(K) \
  struct __attribute__((aligned(1))) __nv_fp8_##K { __nv_fp8_storage_t __x; __nv_fp8_##K() = default; \
    __device__ explicit __nv_fp8_##K(float); __device__ explicit __nv_fp8_##K(double); \
    __device__ explicit __nv_fp8_##K(const __half&); __device__ explicit __nv_fp8_##K(const __nv_bfloat16&); \
    __device__ explicit operator float() const; __device__ explicit operator __half() const; }; \
  struct __attribute__((aligned(2))) __nv_fp8x2_##K { __nv_fp8x2_storage_t __x; __nv_fp8x2_##K() = default; \
    __device__ explicit __nv_fp8x2_##K(const float2&); __device__ explicit __nv_fp8x2_##K(const __half2&); \
    __device__ explicit operator float2() const; __device__ explicit operator __half2() const; }; \
  struct __attribute__((aligned(4))) __nv_fp8x4_##K { __nv_fp8x4_storage_t __x; __nv_fp8x4_##K() = default; \
    __device__ explicit __nv_fp8x4_##K(const float4&); __device__ __nv_fp8x4_##K(const __half2&, const __half2&); \
    __device__ __nv_fp8x4_##K(const __nv_bfloat162&, const __nv_bfloat162&); \
    __device__ explicit operator float4() const; };
__KOPT_FP8(e4m3) __KOPT_FP8(e5m2)
#undef __KOPT_FP8
__device__ __nv_fp8_storage_t __nv_cvt_float_to_fp8(float, __nv_saturation_t, __nv_fp8_interpretation_t);
__device__ __nv_fp8x2_storage_t __nv_cvt_float2_to_fp8x2(float2, __nv_saturation_t, __nv_fp8_interpretation_t);
__device__ __nv_fp8_storage_t __nv_cvt_halfraw_to_fp8(__half, __nv_saturation_t, __nv_fp8_interpretation_t);
__device__ __half_raw __nv_cvt_fp8_to_halfraw(__nv_fp8_storage_t, __nv_fp8_interpretation_t);
__device__ __half2_raw __nv_cvt_fp8x2_to_halfraw2(__nv_fp8x2_storage_t, __nv_fp8_interpretation_t);
typedef __half half; typedef __half2 half2; typedef __nv_bfloat16 nv_bfloat16; typedef __nv_bfloat162 nv_bfloat162;
typedef __half __nv_half; typedef __half2 __nv_half2; typedef __half nv_half; typedef __half2 nv_half2;  // (CUDA 12 cuda_fp16.h)
typedef __half_raw __nv_half_raw; typedef __half2_raw __nv_half2_raw;
__device__ __half operator+(const __half&, const __half&); __device__ __half operator*(const __half&, const __half&);
__device__ __half operator-(const __half&, const __half&);
__device__ __half2 operator+(const __half2&, const __half2&); __device__ __half2 operator*(const __half2&, const __half2&);
__device__ __half __float2half(float); __device__ __half __float2half_rn(float); __device__ float __half2float(__half);
__device__ __half2 __floats2half2_rn(float, float); __device__ __half2 __float2half2_rn(float);
__device__ float2 __half22float2(__half2); __device__ __half2 __halves2half2(__half, __half);
__device__ __half __hadd(__half, __half); __device__ __half __hmul(__half, __half); __device__ __half __hfma(__half, __half, __half);
__device__ __half2 __hadd2(__half2, __half2); __device__ __half2 __hmul2(__half2, __half2);
__device__ __half2 __hfma2(__half2, __half2, __half2); __device__ __half __hmax(__half, __half);
__device__ float __low2float(__half2); __device__ float __high2float(__half2); __device__ __half __low2half(__half2);
__device__ __half __high2half(__half2); __device__ float2 __half22float2(__half2);
__device__ __half2 __hmul2_sat(__half2, __half2); __device__ __half2 __hadd2_sat(__half2, __half2);
__device__ __nv_bfloat16 __float2bfloat16(float); __device__ float __bfloat162float(__nv_bfloat16);
__device__ __nv_bfloat162 __floats2bfloat162_rn(float, float);
// bfloat16 arithmetic (the same names as half's)
__device__ __nv_bfloat16 __hadd(__nv_bfloat16, __nv_bfloat16); __device__ __nv_bfloat16 __hsub(__nv_bfloat16, __nv_bfloat16);
__device__ __nv_bfloat16 __hmul(__nv_bfloat16, __nv_bfloat16);
__device__ __nv_bfloat16 __hfma(__nv_bfloat16, __nv_bfloat16, __nv_bfloat16);
__device__ __nv_bfloat162 __hadd2(__nv_bfloat162, __nv_bfloat162); __device__ __nv_bfloat162 __hsub2(__nv_bfloat162, __nv_bfloat162);
__device__ __nv_bfloat162 __hmul2(__nv_bfloat162, __nv_bfloat162);
__device__ __nv_bfloat162 __hfma2(__nv_bfloat162, __nv_bfloat162, __nv_bfloat162);
__device__ __nv_bfloat162 __float2bfloat162_rn(float); __device__ float2 __bfloat1622float2(__nv_bfloat162);
__device__ __nv_bfloat16 __low2bfloat16(__nv_bfloat162); __device__ __nv_bfloat16 __high2bfloat16(__nv_bfloat162);
__device__ __nv_bfloat162 __halves2bfloat162(__nv_bfloat16, __nv_bfloat16);
__device__ __nv_bfloat16 operator+(const __nv_bfloat16&, const __nv_bfloat16&);
__device__ __nv_bfloat16 operator-(const __nv_bfloat16&, const __nv_bfloat16&);
__device__ __nv_bfloat16 operator*(const __nv_bfloat16&, const __nv_bfloat16&);
__device__ __nv_bfloat162 operator+(const __nv_bfloat162&, const __nv_bfloat162&);
__device__ __nv_bfloat162 operator*(const __nv_bfloat162&, const __nv_bfloat162&);

// synchronization
__device__ void __syncwarp(unsigned mask = 0xffffffffu);
__device__ int __syncthreads_count(int); __device__ int __syncthreads_and(int); __device__ int __syncthreads_or(int);
__device__ void __barrier_sync(unsigned id); __device__ void __barrier_sync_count(unsigned id, unsigned cnt);
__device__ void __threadfence(); __device__ void __threadfence_block(); __device__ void __threadfence_system();
__device__ unsigned __activemask();
__device__ void __nanosleep(unsigned);
__device__ void __trap(); __device__ void __brkpt();
__device__ long long clock64(); __device__ long long clock();
// programmatic dependent launch (sm_90): order this grid against the one before it, not threads within it
__device__ void cudaGridDependencySynchronize(); __device__ void cudaTriggerProgrammaticLaunchCompletion();
// warp shuffles and votes
#define __KOPT_SHFL(T) __device__ T __shfl_sync(unsigned, T, int, int = 32); \
  __device__ T __shfl_up_sync(unsigned, T, unsigned, int = 32); __device__ T __shfl_down_sync(unsigned, T, unsigned, int = 32); \
  __device__ T __shfl_xor_sync(unsigned, T, int, int = 32); \
  __device__ T __shfl(T, int, int = 32); __device__ T __shfl_up(T, unsigned, int = 32); \
  __device__ T __shfl_down(T, unsigned, int = 32); __device__ T __shfl_xor(T, int, int = 32);
__KOPT_SHFL(int) __KOPT_SHFL(unsigned) __KOPT_SHFL(float) __KOPT_SHFL(double) __KOPT_SHFL(long long)
__KOPT_SHFL(unsigned long long) __KOPT_SHFL(long) __KOPT_SHFL(unsigned long) __KOPT_SHFL(__half) __KOPT_SHFL(__half2)
__device__ unsigned __ballot_sync(unsigned, int); __device__ int __all_sync(unsigned, int); __device__ int __any_sync(unsigned, int);
__device__ unsigned __match_any_sync(unsigned, int);
__device__ unsigned __ballot(int); __device__ int __all(int); __device__ int __any(int);  // before CUDA 9
__device__ int __reduce_add_sync(unsigned, int); __device__ unsigned __reduce_max_sync(unsigned, unsigned);
__device__ unsigned __reduce_min_sync(unsigned, unsigned);
// atomics
// each atomic in its device, block and system scopes (atomicAdd, atomicAdd_block, atomicAdd_system)
#define __KOPT_ATOM_S(T, S) __device__ T atomicAdd##S(T*, T); __device__ T atomicSub##S(T*, T); \
  __device__ T atomicExch##S(T*, T); __device__ T atomicMin##S(T*, T); __device__ T atomicMax##S(T*, T); \
  __device__ T atomicCAS##S(T*, T, T); __device__ T atomicAnd##S(T*, T); __device__ T atomicOr##S(T*, T); \
  __device__ T atomicXor##S(T*, T);
#define __KOPT_ATOM(T) __KOPT_ATOM_S(T, ) __KOPT_ATOM_S(T, _block) __KOPT_ATOM_S(T, _system)
__KOPT_ATOM(int) __KOPT_ATOM(unsigned int) __KOPT_ATOM(unsigned long long)
__device__ float atomicAdd_block(float*, float); __device__ float atomicAdd_system(float*, float);
__device__ double atomicAdd_block(double*, double); __device__ double atomicAdd_system(double*, double);
__device__ float atomicExch_block(float*, float); __device__ float atomicExch_system(float*, float);
__device__ unsigned atomicInc_block(unsigned*, unsigned); __device__ unsigned atomicInc_system(unsigned*, unsigned);
__device__ unsigned atomicDec_block(unsigned*, unsigned); __device__ unsigned atomicDec_system(unsigned*, unsigned);
// CUDA 12.8's atomics with a memory order and a thread scope (the scope argument may be left out: system)
#define __NV_ATOMIC_RELAXED 0
#define __NV_ATOMIC_CONSUME 1
#define __NV_ATOMIC_ACQUIRE 2
#define __NV_ATOMIC_RELEASE 3
#define __NV_ATOMIC_ACQ_REL 4
#define __NV_ATOMIC_SEQ_CST 5
#define __NV_THREAD_SCOPE_THREAD 0
#define __NV_THREAD_SCOPE_BLOCK 1
#define __NV_THREAD_SCOPE_CLUSTER 2
#define __NV_THREAD_SCOPE_DEVICE 3
#define __NV_THREAD_SCOPE_SYSTEM 4
#define __KOPT_NV_RMW(op) template <class T, class U> __device__ T __nv_atomic_fetch_##op(T*, U, int, int = 4); \
  template <class T, class U> __device__ void __nv_atomic_##op(T*, U, int, int = 4);
__KOPT_NV_RMW(add) __KOPT_NV_RMW(sub) __KOPT_NV_RMW(min) __KOPT_NV_RMW(max) __KOPT_NV_RMW(and) __KOPT_NV_RMW(or)
__KOPT_NV_RMW(xor)
template <class T, class U> __device__ T __nv_atomic_exchange_n(T*, U, int, int = 4);
template <class T> __device__ void __nv_atomic_exchange(T*, T*, T*, int, int = 4);
template <class T, class U> __device__ bool __nv_atomic_compare_exchange_n(T*, T*, U, bool, int, int, int = 4);
template <class T> __device__ bool __nv_atomic_compare_exchange(T*, T*, T*, bool, int, int, int = 4);
template <class T> __device__ T __nv_atomic_load_n(const T*, int, int = 4);
template <class T> __device__ void __nv_atomic_load(const T*, T*, int, int = 4);
template <class T, class U> __device__ void __nv_atomic_store_n(T*, U, int, int = 4);
template <class T> __device__ void __nv_atomic_store(T*, T*, int, int = 4);
__device__ void __nv_atomic_thread_fence(int, int = 4);
__device__ float atomicAdd(float*, float); __device__ double atomicAdd(double*, double);
__device__ float atomicExch(float*, float); __device__ float atomicMax(float*, float); __device__ float atomicMin(float*, float);
__device__ __half2 atomicAdd(__half2*, __half2); __device__ __half atomicAdd(__half*, __half);
__device__ unsigned atomicInc(unsigned*, unsigned); __device__ unsigned atomicDec(unsigned*, unsigned);
// integer intrinsics
__device__ int __popc(unsigned); __device__ int __popcll(unsigned long long); __device__ int __clz(int);
__device__ int __ffs(int); __device__ unsigned __brev(unsigned); __device__ unsigned __byte_perm(unsigned, unsigned, unsigned);
__device__ int __mul24(int, int); __device__ unsigned __umul24(unsigned, unsigned); __device__ int __mulhi(int, int);
__device__ unsigned __funnelshift_l(unsigned, unsigned, unsigned); __device__ unsigned __funnelshift_r(unsigned, unsigned, unsigned);
__device__ unsigned __funnelshift_lc(unsigned, unsigned, unsigned);
__device__ unsigned __funnelshift_rc(unsigned, unsigned, unsigned);
__device__ int __float_as_int(float); __device__ float __int_as_float(int); __device__ unsigned __float_as_uint(float);
__device__ float __uint_as_float(unsigned); __device__ long long __double_as_longlong(double);
__device__ double __longlong_as_double(long long);
__device__ int __float2int_rn(float); __device__ int __float2int_rz(float); __device__ float __int2float_rn(int);
__device__ unsigned __float2uint_rn(float);
// integer dot products, sums of absolute differences, averages, wide products and per-byte / per-halfword SIMD
__device__ int __dp4a(int, int, int); __device__ unsigned __dp4a(unsigned, unsigned, unsigned);
__device__ int __dp2a_lo(int, int, int); __device__ unsigned __dp2a_lo(unsigned, unsigned, unsigned);
__device__ int __dp2a_hi(int, int, int); __device__ unsigned __dp2a_hi(unsigned, unsigned, unsigned);
__device__ unsigned __sad(int, int, unsigned); __device__ unsigned __usad(unsigned, unsigned, unsigned);
__device__ int __rhadd(int, int); __device__ unsigned __urhadd(unsigned, unsigned);
__device__ unsigned __uhadd(unsigned, unsigned);
__device__ long long __mul64hi(long long, long long);
__device__ unsigned long long __umul64hi(unsigned long long, unsigned long long);
__device__ double __fma_rn(double, double, double); __device__ unsigned __fns(unsigned, unsigned, int);
#define __KOPT_SIMD(n) __device__ unsigned __v##n##2(unsigned, unsigned); \
  __device__ unsigned __v##n##4(unsigned, unsigned);
__KOPT_SIMD(absdiffs) __KOPT_SIMD(absdiffu) __KOPT_SIMD(add) __KOPT_SIMD(addss) __KOPT_SIMD(addus) __KOPT_SIMD(avgs)
__KOPT_SIMD(avgu) __KOPT_SIMD(cmpeq) __KOPT_SIMD(cmpges) __KOPT_SIMD(cmpgeu) __KOPT_SIMD(cmpgts) __KOPT_SIMD(cmpgtu)
__KOPT_SIMD(cmples) __KOPT_SIMD(cmpleu) __KOPT_SIMD(cmplts) __KOPT_SIMD(cmpltu) __KOPT_SIMD(cmpne) __KOPT_SIMD(hadd)
__KOPT_SIMD(haddu) __KOPT_SIMD(maxs) __KOPT_SIMD(maxu) __KOPT_SIMD(mins) __KOPT_SIMD(minu) __KOPT_SIMD(sads)
__KOPT_SIMD(sadu) __KOPT_SIMD(seteq) __KOPT_SIMD(setges) __KOPT_SIMD(setgeu) __KOPT_SIMD(setgts) __KOPT_SIMD(setgtu)
__KOPT_SIMD(setles) __KOPT_SIMD(setleu) __KOPT_SIMD(setlts) __KOPT_SIMD(setltu) __KOPT_SIMD(setne) __KOPT_SIMD(sub)
__KOPT_SIMD(subss) __KOPT_SIMD(subus)
#undef __KOPT_SIMD
__device__ unsigned __vabs2(unsigned); __device__ unsigned __vabs4(unsigned); __device__ unsigned __vabsss2(unsigned);
__device__ unsigned __vabsss4(unsigned); __device__ unsigned __vneg2(unsigned); __device__ unsigned __vneg4(unsigned);
__device__ unsigned __vnegss2(unsigned); __device__ unsigned __vnegss4(unsigned);
template <class T> __device__ T __ldg(const T*); template <class T> __device__ T __ldcg(const T*);
template <class T> __device__ T __ldcs(const T*); template <class T> __device__ T __ldlu(const T*);
template <class T> __device__ void __stcg(T*, T); template <class T> __device__ void __stcs(T*, T);
template <class T> __device__ T __ldca(const T*); template <class T> __device__ T __ldcv(const T*);
template <class T> __device__ void __stwb(T*, T); template <class T> __device__ void __stwt(T*, T);
__device__ size_t __cvta_generic_to_shared(const void*); __device__ void* __cvta_shared_to_generic(size_t);
__device__ size_t __cvta_generic_to_global(const void*);
__device__ unsigned __isShared(const void*); __device__ unsigned __isGlobal(const void*);
// math (host and device functions, as in CUDA's math headers: a host function or a class's host member may call them)
// each function's float and double forms, the float overload CUDA's headers add, an integer argument read as double,
// and both names in std (std::sqrt, std::sqrtf)
#define __KOPT_F1(n) __host__ __device__ float n##f(float); __host__ __device__ double n(double); \
  __host__ __device__ float n(float); \
  template <class T, class = typename std::enable_if<std::is_integral<T>::value>::type> __host__ __device__ double n(T); \
  namespace std { using ::n; using ::n##f; }
__KOPT_F1(exp) __KOPT_F1(exp2) __KOPT_F1(log) __KOPT_F1(log2) __KOPT_F1(log1p) __KOPT_F1(expm1) __KOPT_F1(sqrt)
__KOPT_F1(rsqrt) __KOPT_F1(sin) __KOPT_F1(cos) __KOPT_F1(tan) __KOPT_F1(tanh) __KOPT_F1(erf) __KOPT_F1(fabs)
__KOPT_F1(floor) __KOPT_F1(ceil) __KOPT_F1(round) __KOPT_F1(trunc) __KOPT_F1(cbrt) __KOPT_F1(log10) __KOPT_F1(sinh)
__KOPT_F1(cosh) __KOPT_F1(atan) __KOPT_F1(asin) __KOPT_F1(acos) __KOPT_F1(rint) __KOPT_F1(nearbyint)
// (and <cmath>'s promoting overload for other arithmetic pairs: pow(2.0f, x) of a double x, pow(i, 2) reads double)
#define __KOPT_F2(n) __host__ __device__ float n##f(float, float); __host__ __device__ double n(double, double); \
  __host__ __device__ float n(float, float); \
  template <class A, class B, class = typename std::enable_if<std::is_arithmetic<A>::value && \
    std::is_arithmetic<B>::value>::type> __host__ __device__ decltype(A() + B() + 0.0) n(A, B); \
  namespace std { using ::n; using ::n##f; }
__KOPT_F2(pow) __KOPT_F2(fmax) __KOPT_F2(fmin) __KOPT_F2(fmod) __KOPT_F2(atan2) __KOPT_F2(hypot) __KOPT_F2(copysign)
__host__ __device__ float fmaf(float, float, float); __host__ __device__ double fma(double, double, double);
__KOPT_F1(lgamma) __KOPT_F1(tgamma) __KOPT_F1(erfc) __KOPT_F1(erfinv) __KOPT_F1(erfcinv) __KOPT_F1(normcdf)
__KOPT_F1(normcdfinv) __KOPT_F1(sinpi) __KOPT_F1(cospi) __KOPT_F1(rcbrt) __KOPT_F1(asinh) __KOPT_F1(acosh)
__KOPT_F1(atanh) __KOPT_F1(exp10) __KOPT_F1(logb)
__KOPT_F2(fdim) __KOPT_F2(nextafter) __KOPT_F2(remainder)
// C's functions with integer or pointer arguments, host and device too (a host helper calls ldexpf)
#define __KOPT_HD __host__ __device__
__KOPT_HD float frexpf(float, int*); __KOPT_HD double frexp(double, int*); __KOPT_HD float ldexpf(float, int);
__KOPT_HD double ldexp(double, int); __KOPT_HD float modff(float, float*); __KOPT_HD double modf(double, double*);
__KOPT_HD float scalbnf(float, int); __KOPT_HD double scalbn(double, int); __KOPT_HD int ilogbf(float);
__KOPT_HD int ilogb(double); __KOPT_HD long lrintf(float); __KOPT_HD long lrint(double);
__KOPT_HD long long llrintf(float); __KOPT_HD long long llrint(double); __KOPT_HD long lroundf(float);
__KOPT_HD long lround(double); __KOPT_HD long long llroundf(float); __KOPT_HD long long llround(double);
__device__ float __fsub_rn(float, float); __device__ float __fdiv_rn(float, float); __device__ float __log2f(float);
__device__ float __tanf(float); __device__ float __log10f(float); __device__ double __dadd_rn(double, double);
__device__ double __dmul_rn(double, double); __device__ double __ddiv_rn(double, double); __device__ double __drcp_rn(double);
__device__ double __dsqrt_rn(double); __device__ float __uint2float_rn(unsigned); __device__ int __clzll(long long);
__device__ int __ffsll(long long); __device__ unsigned __umulhi(unsigned, unsigned);
__device__ int __double2hiint(double); __device__ int __double2loint(double); __device__ double __hiloint2double(int, int);
__device__ void __prof_trigger(int);
__device__ float __expf(float); __device__ float __logf(float); __device__ float __sinf(float); __device__ float __cosf(float);
__device__ float __powf(float, float); __device__ float __fdividef(float, float); __device__ float __frcp_rn(float);
__device__ float __fsqrt_rn(float); __device__ float __frsqrt_rn(float); __device__ float __saturatef(float); __device__ float __exp10f(float);
__device__ float __fmaf_rn(float, float, float); __device__ float __fadd_rn(float, float); __device__ float __fmul_rn(float, float);
__KOPT_HD void sincosf(float, float*, float*); __device__ void __sincosf(float, float*, float*);
__KOPT_HD void sincos(double, double*, double*); __KOPT_HD void sincospif(float, float*, float*);
__KOPT_HD int isnan(float); __KOPT_HD int isinf(float); __KOPT_HD int isfinite(float); __KOPT_HD int signbit(float);
__KOPT_HD int isnan(double); __KOPT_HD int isinf(double); __KOPT_HD int isfinite(double); __KOPT_HD int signbit(double);
__KOPT_HD int isnan(long double); __KOPT_HD int isinf(long double); __KOPT_HD int isfinite(long double);
__KOPT_HD int signbit(long double);
#undef __KOPT_HD
namespace std { using ::isnan; using ::isinf; using ::isfinite; using ::signbit; }
__device__ int min(int, int); __device__ unsigned min(unsigned, unsigned); __device__ long long min(long long, long long);
__device__ float min(float, float); __device__ double min(double, double);
__device__ unsigned min(int, unsigned); __device__ unsigned min(unsigned, int);
__device__ unsigned long long min(unsigned long long, unsigned long long);
__device__ unsigned long long min(long long, unsigned long long); __device__ unsigned long long min(unsigned long long, long long);
__device__ double min(float, double); __device__ double min(double, float);
__device__ unsigned max(int, unsigned); __device__ unsigned max(unsigned, int);
__device__ unsigned long long max(unsigned long long, unsigned long long);
__device__ unsigned long long max(long long, unsigned long long); __device__ unsigned long long max(unsigned long long, long long);
__device__ double max(float, double); __device__ double max(double, float);
__device__ int max(int, int); __device__ unsigned max(unsigned, unsigned); __device__ long long max(long long, long long);
__device__ float max(float, float); __device__ double max(double, double);
// the long forms CUDA's math headers declare too (int64_t is long here: without them min(int64_t, int64_t) is ambiguous)
__device__ long min(long, long); __device__ unsigned long min(unsigned long, unsigned long);
__device__ unsigned long min(long, unsigned long); __device__ unsigned long min(unsigned long, long);
__device__ long max(long, long); __device__ unsigned long max(unsigned long, unsigned long);
__device__ unsigned long max(long, unsigned long); __device__ unsigned long max(unsigned long, long);
__device__ unsigned umin(unsigned, unsigned); __device__ unsigned umax(unsigned, unsigned);
__device__ int abs(int); __device__ float abs(float); __device__ long long llabs(long long);
__device__ double abs(double); __device__ long abs(long); __device__ long long abs(long long); __device__ long labs(long);
namespace std { using ::abs; using ::labs; using ::llabs; }
extern "C" __device__ int printf(const char*, ...);
extern "C" __host__ __device__ void* memcpy(void*, const void*, size_t);  // host and device, as the toolkit has them
extern "C" __host__ __device__ void* memset(void*, int, size_t);
extern "C" __device__ void* malloc(size_t); extern "C" __device__ void free(void*);  // the device heap
// Ampere async copies (pipeline primitives)
__device__ void __pipeline_memcpy_async(void*, const void*, size_t, size_t = 0);
__device__ void __pipeline_commit(); __device__ void __pipeline_wait_prior(size_t);

namespace cooperative_groups {
  struct thread_group { __device__ void sync() const; __device__ unsigned thread_rank() const;
    __device__ unsigned size() const; __device__ unsigned num_threads() const; };
  struct thread_block : thread_group { __device__ dim3 group_index() const; __device__ dim3 thread_index() const;
    __device__ dim3 group_dim() const; __device__ dim3 dim_threads() const; };
  struct grid_group : thread_group { __device__ bool is_valid() const; __device__ unsigned long long thread_rank() const;
    __device__ unsigned long long size() const; __device__ unsigned long long num_threads() const;
    // CUDA 12's block and cluster queries of the grid
    __device__ unsigned long long block_rank() const; __device__ unsigned long long num_blocks() const;
    __device__ dim3 dim_blocks() const; __device__ dim3 block_index() const;
    __device__ unsigned long long cluster_rank() const; __device__ unsigned long long num_clusters() const;
    __device__ dim3 dim_clusters() const; __device__ dim3 cluster_index() const; };
  struct cluster_group : thread_group { __device__ unsigned block_rank() const; __device__ void barrier_wait();
    __device__ unsigned barrier_arrive(); __device__ void barrier_wait(unsigned);  // (barrier_arrive's token)
    __device__ unsigned num_blocks() const; __device__ dim3 block_index() const;
    __device__ dim3 dim_blocks() const; __device__ dim3 dim_threads() const;
    // distributed shared memory: the address of a variable in the shared memory of the cluster's block `rank`
    template <class T> __device__ T* map_shared_rank(T*, unsigned) const;
    template <class T> __device__ T& map_shared_rank(T&, unsigned) const;
    __device__ unsigned query_shared_rank(const void*) const; };
  struct __kopt_tile_ops : thread_group {
    __device__ unsigned meta_group_rank() const; __device__ unsigned meta_group_size() const;
    template <class T> __device__ T shfl(T, int) const; template <class T> __device__ T shfl_down(T, unsigned) const;
    template <class T> __device__ T shfl_up(T, unsigned) const; template <class T> __device__ T shfl_xor(T, unsigned) const;
    __device__ unsigned ballot(int) const; __device__ int any(int) const; __device__ int all(int) const;
    template <class T> __device__ unsigned match_any(T) const; template <class T> __device__ unsigned match_all(T, int&) const; };
  // as in CUDA, a tile of a known parent converts to the parent-less tile type
  template <unsigned N, class P = void> struct thread_block_tile;
  template <unsigned N> struct thread_block_tile<N, void> : __kopt_tile_ops {};
  template <unsigned N, class P> struct thread_block_tile : thread_block_tile<N, void> {};
  struct coalesced_group : __kopt_tile_ops {};
  struct multi_grid_group : thread_group {};
  template <unsigned N, unsigned M = 1024> struct block_tile_memory {};
  __device__ thread_block this_thread_block(); __device__ grid_group this_grid();
  template <unsigned N, unsigned M> __device__ thread_block this_thread_block(block_tile_memory<N, M>&);
  __device__ multi_grid_group this_multi_grid();
  template <class G> __device__ void synchronize(const G&);  // the legacy spelling of sync(g)
  template <class G> __device__ coalesced_group binary_partition(const G&, bool);
  template <unsigned N, class P> __device__ coalesced_group binary_partition(const thread_block_tile<N, P>&, bool);
  template <class G> __device__ coalesced_group labeled_partition(const G&, unsigned);
  template <class G> __device__ unsigned thread_rank(const G&); template <class G> __device__ unsigned group_size(const G&);
  __device__ cluster_group this_cluster(); __device__ coalesced_group coalesced_threads();
  template <unsigned N, class P> __device__ thread_block_tile<N, P> tiled_partition(const P&);
  __device__ thread_group tiled_partition(const thread_group&, unsigned);
  template <class G> __device__ void sync(const G&);
  template <class G> __device__ void wait(const G&); template <unsigned N, class G> __device__ void wait_prior(const G&);
  template <class G, class D, class S, class N> __device__ void memcpy_async(const G&, D*, const S*, N);
  template <class T> struct plus { __device__ T operator()(T, T) const; };
  template <class T> struct greater { __device__ T operator()(T, T) const; };
  template <class T> struct less { __device__ T operator()(T, T) const; };
  template <class G, class T, class Op> __device__ T reduce(const G&, T, Op);
  template <class G, class T, class Op> __device__ T inclusive_scan(const G&, T, Op);
  template <class G, class T, class Op> __device__ T exclusive_scan(const G&, T, Op);
  template <class G, class F, class... A> __device__ void invoke_one(const G&, F&&, A&&...);
  template <class G, class F, class... A> __device__ auto invoke_one_broadcast(const G&, F&& f, A&&... a) -> decltype(f(a...));
}
namespace nvcuda { namespace wmma {
  struct matrix_a {}; struct matrix_b {}; struct accumulator {}; struct row_major {}; struct col_major {};
  namespace precision { struct tf32 {}; } namespace experimental { namespace precision { struct b1 {}; struct u4 {};
    struct s4 {}; } }
  __device__ float __float_to_tf32(float);
  enum layout_t { mem_row_major, mem_col_major };
  template <class T> struct __kopt_element { typedef T type; };
  template <> struct __kopt_element<precision::tf32> { typedef float type; };  // tf32 fragments hold floats
  template <class U, int M, int N, int K, class T, class L = void> struct fragment {
    typename __kopt_element<T>::type x[8]; int num_elements; };
  template <class F, class T> __device__ void load_matrix_sync(F&, const T*, unsigned);
  template <class F, class T> __device__ void load_matrix_sync(F&, const T*, unsigned, layout_t);
  template <class F, class T> __device__ void store_matrix_sync(T*, const F&, unsigned, layout_t);
  template <class F, class T> __device__ void fill_fragment(F&, T);
  template <class D, class A, class B, class C> __device__ void mma_sync(D&, const A&, const B&, const C&);
} }
// textures: objects and the legacy references (reads only; the analyzers treat fetches as opaque loads)
typedef unsigned long long cudaTextureObject_t; typedef unsigned long long cudaSurfaceObject_t;
enum cudaTextureReadMode { cudaReadModeElementType, cudaReadModeNormalizedFloat };
template <class T, int D = 1, cudaTextureReadMode M = cudaReadModeElementType>
struct __attribute__((device_builtin_texture_type)) texture {
  int normalized; int filterMode; int addressMode[3]; };
template <class T, int D, cudaTextureReadMode M> __device__ T tex1Dfetch(texture<T, D, M>, int);
template <class T, int D, cudaTextureReadMode M> __device__ T tex1D(texture<T, D, M>, float);
template <class T, int D, cudaTextureReadMode M> __device__ T tex2D(texture<T, D, M>, float, float);
template <class T, int D, cudaTextureReadMode M> __device__ T tex3D(texture<T, D, M>, float, float, float);
template <class T> __device__ T tex1Dfetch(cudaTextureObject_t, int);
template <class T> __device__ T tex1D(cudaTextureObject_t, float);
template <class T> __device__ T tex2D(cudaTextureObject_t, float, float);
template <class T> __device__ T tex3D(cudaTextureObject_t, float, float, float);
template <class T> __device__ T tex2DLayered(cudaTextureObject_t, float, float, int);
template <class T> __device__ void surf2Dwrite(T, cudaSurfaceObject_t, int, int);
template <class T> __device__ T surf2Dread(cudaSurfaceObject_t, int, int);
#ifndef KOPT_SOURCE_DEFINES_CUTENSORMAP  // NVRTC sources declare their own (they cannot include <cuda.h>)
struct CUtensorMap { alignas(64) unsigned long long opaque[16]; };
typedef CUtensorMap CUtensorMap_st;
#endif

// device-visible runtime and driver types, texture/surface enums, graph conditionals, placement new
typedef struct CUstream_st* cudaStream_t; typedef struct CUevent_st* cudaEvent_t;
// the driver API's handles and the enums of <cuda.h> and <library_types.h> that host code around kernels names
typedef enum cudaError_enum { CUDA_SUCCESS = 0, CUDA_ERROR_INVALID_VALUE = 1, CUDA_ERROR_OUT_OF_MEMORY = 2,
                              CUDA_ERROR_NOT_INITIALIZED = 3, CUDA_ERROR_NOT_FOUND = 500 } CUresult;
typedef int CUdevice; typedef unsigned long long CUdeviceptr; typedef cudaStream_t CUstream; typedef cudaEvent_t CUevent;
typedef struct CUctx_st* CUcontext; typedef struct CUmod_st* CUmodule; typedef struct CUfunc_st* CUfunction;
typedef struct CUlib_st* CUlibrary; typedef struct CUkern_st* CUkernel;
typedef int CUfunction_attribute; typedef int CUfunc_cache; typedef int CUdevice_attribute; typedef int CUjit_option;
typedef enum CUtensorMapDataType_enum { CU_TENSOR_MAP_DATA_TYPE_UINT8 = 0, CU_TENSOR_MAP_DATA_TYPE_UINT16,
  CU_TENSOR_MAP_DATA_TYPE_UINT32, CU_TENSOR_MAP_DATA_TYPE_INT32, CU_TENSOR_MAP_DATA_TYPE_UINT64,
  CU_TENSOR_MAP_DATA_TYPE_INT64, CU_TENSOR_MAP_DATA_TYPE_FLOAT16, CU_TENSOR_MAP_DATA_TYPE_FLOAT32,
  CU_TENSOR_MAP_DATA_TYPE_FLOAT64, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, CU_TENSOR_MAP_DATA_TYPE_FLOAT32_FTZ,
  CU_TENSOR_MAP_DATA_TYPE_TFLOAT32, CU_TENSOR_MAP_DATA_TYPE_TFLOAT32_FTZ, CU_TENSOR_MAP_DATA_TYPE_16U4_ALIGN8B,
  CU_TENSOR_MAP_DATA_TYPE_16U4_ALIGN16B, CU_TENSOR_MAP_DATA_TYPE_16U6_ALIGN16B } CUtensorMapDataType;
typedef enum CUtensorMapInterleave_enum { CU_TENSOR_MAP_INTERLEAVE_NONE = 0, CU_TENSOR_MAP_INTERLEAVE_16B,
  CU_TENSOR_MAP_INTERLEAVE_32B } CUtensorMapInterleave;
typedef enum CUtensorMapSwizzle_enum { CU_TENSOR_MAP_SWIZZLE_NONE = 0, CU_TENSOR_MAP_SWIZZLE_32B,
  CU_TENSOR_MAP_SWIZZLE_64B, CU_TENSOR_MAP_SWIZZLE_128B, CU_TENSOR_MAP_SWIZZLE_128B_ATOM_32B,
  CU_TENSOR_MAP_SWIZZLE_128B_ATOM_32B_FLIP_8B, CU_TENSOR_MAP_SWIZZLE_128B_ATOM_64B } CUtensorMapSwizzle;
typedef enum CUtensorMapL2promotion_enum { CU_TENSOR_MAP_L2_PROMOTION_NONE = 0, CU_TENSOR_MAP_L2_PROMOTION_L2_64B,
  CU_TENSOR_MAP_L2_PROMOTION_L2_128B, CU_TENSOR_MAP_L2_PROMOTION_L2_256B } CUtensorMapL2promotion;
typedef enum CUtensorMapFloatOOBfill_enum { CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE = 0,
  CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA } CUtensorMapFloatOOBfill;
typedef enum cudaDataType_t { CUDA_R_32F = 0, CUDA_R_64F = 1, CUDA_R_16F = 2, CUDA_R_8I = 3, CUDA_C_32F = 4,
  CUDA_C_64F = 5, CUDA_C_16F = 6, CUDA_R_8U = 8, CUDA_R_32I = 10, CUDA_R_16BF = 14, CUDA_R_8F_E4M3 = 28,
  CUDA_R_8F_E5M2 = 29 } cudaDataType;
enum cudaError { cudaSuccess = 0, cudaErrorMemoryAllocation = 2, cudaErrorInvalidValue = 1 };
typedef enum cudaError cudaError_t;
enum cudaMemcpyKind { cudaMemcpyHostToHost, cudaMemcpyHostToDevice, cudaMemcpyDeviceToHost, cudaMemcpyDeviceToDevice,
                      cudaMemcpyDefault };
// the configuration enums libraries name in device-visible templates (CUB 1.x's BlockRadixSort takes a bank size)
enum cudaSharedMemConfig { cudaSharedMemBankSizeDefault = 0, cudaSharedMemBankSizeFourByte = 1,
                           cudaSharedMemBankSizeEightByte = 2 };
enum cudaFuncCache { cudaFuncCachePreferNone = 0, cudaFuncCachePreferShared = 1, cudaFuncCachePreferL1 = 2,
                     cudaFuncCachePreferEqual = 3 };
enum cudaLimit { cudaLimitStackSize = 0, cudaLimitPrintfFifoSize = 1, cudaLimitMallocHeapSize = 2 };
// the runtime's host API as variadic host functions (any call type-checks): host code in a kernel's unit (a class's
// host constructor, a helper that synchronizes a stream) parses in the device parse too, so it is not blanked
// with the class or namespace around it; the device runtime's own overloads follow
#define KOPT_HOST_FN(name) extern "C" cudaError_t name(...);
KOPT_HOST_FN(cudaMalloc) KOPT_HOST_FN(cudaMallocManaged) KOPT_HOST_FN(cudaMallocHost) KOPT_HOST_FN(cudaHostAlloc)
KOPT_HOST_FN(cudaMallocPitch) KOPT_HOST_FN(cudaMallocAsync) KOPT_HOST_FN(cudaFree) KOPT_HOST_FN(cudaFreeHost)
KOPT_HOST_FN(cudaFreeAsync) KOPT_HOST_FN(cudaMemcpy) KOPT_HOST_FN(cudaMemcpyAsync) KOPT_HOST_FN(cudaMemcpy2D)
KOPT_HOST_FN(cudaMemcpy2DAsync) KOPT_HOST_FN(cudaMemcpyPeer) KOPT_HOST_FN(cudaMemset) KOPT_HOST_FN(cudaMemsetAsync)
KOPT_HOST_FN(cudaMemset2D) KOPT_HOST_FN(cudaMemcpyToSymbol) KOPT_HOST_FN(cudaMemcpyToSymbolAsync)
KOPT_HOST_FN(cudaMemcpyFromSymbol) KOPT_HOST_FN(cudaGetSymbolAddress) KOPT_HOST_FN(cudaMemPrefetchAsync)
KOPT_HOST_FN(cudaMemGetInfo) KOPT_HOST_FN(cudaDeviceSynchronize) KOPT_HOST_FN(cudaDeviceReset)
KOPT_HOST_FN(cudaGetLastError) KOPT_HOST_FN(cudaPeekAtLastError) KOPT_HOST_FN(cudaSetDevice) KOPT_HOST_FN(cudaGetDevice)
KOPT_HOST_FN(cudaGetDeviceCount) KOPT_HOST_FN(cudaGetDeviceProperties) KOPT_HOST_FN(cudaDeviceGetAttribute)
KOPT_HOST_FN(cudaFuncSetAttribute) KOPT_HOST_FN(cudaFuncGetAttributes) KOPT_HOST_FN(cudaFuncSetCacheConfig)
KOPT_HOST_FN(cudaDeviceSetSharedMemConfig) KOPT_HOST_FN(cudaDeviceSetCacheConfig) KOPT_HOST_FN(cudaDeviceSetLimit)
KOPT_HOST_FN(cudaOccupancyMaxActiveBlocksPerMultiprocessor) KOPT_HOST_FN(cudaOccupancyMaxPotentialBlockSize)
KOPT_HOST_FN(cudaStreamCreate) KOPT_HOST_FN(cudaStreamCreateWithFlags) KOPT_HOST_FN(cudaStreamDestroy)
KOPT_HOST_FN(cudaStreamSynchronize) KOPT_HOST_FN(cudaStreamWaitEvent) KOPT_HOST_FN(cudaStreamQuery)
KOPT_HOST_FN(cudaEventCreate) KOPT_HOST_FN(cudaEventCreateWithFlags) KOPT_HOST_FN(cudaEventRecord)
KOPT_HOST_FN(cudaEventSynchronize) KOPT_HOST_FN(cudaEventElapsedTime) KOPT_HOST_FN(cudaEventDestroy)
KOPT_HOST_FN(cudaEventQuery) KOPT_HOST_FN(cudaLaunchKernel) KOPT_HOST_FN(cudaLaunchCooperativeKernel)
KOPT_HOST_FN(cudaProfilerStart) KOPT_HOST_FN(cudaProfilerStop)
#undef KOPT_HOST_FN
extern "C" const char* cudaGetErrorString(cudaError_t);
extern "C" const char* cudaGetErrorName(cudaError_t);
extern "C" int printf(const char*, ...);  // the host's; the device's is declared with the device built-ins
struct cudaExtent { size_t width, height, depth; };
struct cudaPitchedPtr { void* ptr; size_t pitch, xsize, ysize; }; struct cudaPos { size_t x, y, z; };
__host__ __device__ cudaExtent make_cudaExtent(size_t, size_t, size_t);
__host__ __device__ cudaPitchedPtr make_cudaPitchedPtr(void*, size_t, size_t, size_t);
__host__ __device__ cudaPos make_cudaPos(size_t, size_t, size_t);
typedef unsigned long long CUtexObject; typedef unsigned long long CUsurfObject;
enum cudaSurfaceBoundaryMode { cudaBoundaryModeZero, cudaBoundaryModeClamp, cudaBoundaryModeTrap };
template <class T> __device__ void surf2Dwrite(T, cudaSurfaceObject_t, int, int, cudaSurfaceBoundaryMode);
template <class T> __device__ T surf2Dread(cudaSurfaceObject_t, int, int, cudaSurfaceBoundaryMode);
template <class T> __device__ void surf2Dread(T*, cudaSurfaceObject_t, int, int,
                                              cudaSurfaceBoundaryMode = cudaBoundaryModeTrap);
template <class T> __device__ T texCubemap(cudaTextureObject_t, float, float, float);
template <class T> __device__ void surf1Dwrite(T, cudaSurfaceObject_t, int,
                                               cudaSurfaceBoundaryMode = cudaBoundaryModeTrap);
template <class T> __device__ void surf2DLayeredwrite(T, cudaSurfaceObject_t, int, int, int,
                                                      cudaSurfaceBoundaryMode = cudaBoundaryModeTrap);
template <class T> __device__ void surf3Dwrite(T, cudaSurfaceObject_t, int, int, int,
                                               cudaSurfaceBoundaryMode = cudaBoundaryModeTrap);
template <class T> __device__ T surf1Dread(cudaSurfaceObject_t, int, cudaSurfaceBoundaryMode = cudaBoundaryModeTrap);
template <class T> __device__ void surf1Dread(T*, cudaSurfaceObject_t, int, cudaSurfaceBoundaryMode = cudaBoundaryModeTrap);
template <class T> __device__ T surf3Dread(cudaSurfaceObject_t, int, int, int,
                                           cudaSurfaceBoundaryMode = cudaBoundaryModeTrap);
template <class T> __device__ void surf3Dread(T*, cudaSurfaceObject_t, int, int, int,
                                              cudaSurfaceBoundaryMode = cudaBoundaryModeTrap);
template <class T> __device__ T surf2DLayeredread(cudaSurfaceObject_t, int, int, int,
                                                  cudaSurfaceBoundaryMode = cudaBoundaryModeTrap);
// the device runtime (dynamic parallelism); code read with the host API declared gets the host's variadic ones
#ifndef KOPT_HOST_API
__device__ cudaError_t cudaMalloc(void**, size_t); __device__ cudaError_t cudaFree(void*);
__device__ cudaError_t cudaDeviceSynchronize(); __device__ cudaError_t cudaGetLastError();
__device__ cudaError_t cudaStreamCreateWithFlags(cudaStream_t*, unsigned); __device__ cudaError_t cudaStreamDestroy(cudaStream_t);
__device__ cudaError_t cudaMemcpyAsync(void*, const void*, size_t, cudaMemcpyKind, cudaStream_t = 0);
__device__ cudaError_t cudaMemsetAsync(void*, int, size_t, cudaStream_t = 0);
__device__ cudaError_t cudaPeekAtLastError(); extern "C" __device__ const char* cudaGetErrorString(cudaError_t);
__device__ cudaError_t cudaEventCreateWithFlags(cudaEvent_t*, unsigned); __device__ cudaError_t cudaEventRecord(cudaEvent_t, cudaStream_t = 0);
__device__ cudaError_t cudaStreamWaitEvent(cudaStream_t, cudaEvent_t, unsigned);
#define cudaStreamNonBlocking 0x01
#define cudaEventDisableTiming 0x02
#endif
template <class T> __device__ T texCubemapLayered(cudaTextureObject_t, float, float, float, int);
template <class T> __device__ T tex1DLayered(cudaTextureObject_t, float, int);
template <class T> __device__ T tex2DLod(cudaTextureObject_t, float, float, float);
template <class T> __device__ T tex3DLod(cudaTextureObject_t, float, float, float, float);
typedef unsigned long long cudaGraphConditionalHandle;
__device__ void cudaGraphSetConditional(cudaGraphConditionalHandle, unsigned);
__device__ __host__ inline void* operator new(size_t, void* p) noexcept { return p; }
__device__ __host__ inline void* operator new[](size_t, void* p) noexcept { return p; }
#define CUDART_PI_F 3.141592654f
#define CUDART_PI 3.1415926535897931e+0
}  // extern "C++"
