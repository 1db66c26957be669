// kopt analyzer stub of OpenCV's core CUDA headers (opencv2/core/cuda_types.hpp, opencv2/core/cuda/*.hpp), which
// opencv_contrib's CUDA modules and many projects' kernels are built against: the 2D pointer types, the vector traits
// and operators, saturate_cast, the functors, the border readers, the shared-memory atomics, the block reduction, and
// the few host names their launchers use. Every `#include <opencv2/...>` kopt finds nowhere reads this file.
// What the analysis sees: the pointer types' addressing (`ptr(y)` is `data + y * step` bytes), the functors' and
// atomics' bodies, and a barrier for each reduction over more than a warp (its stores are not modeled); value functions
// (saturate_cast, vector math, border index helpers) are declarations, opaque values. What a model does (a store, a
// barrier) is reported at the user's call of it.
#pragma once
#include <thrust/__kopt_thrust.h>

typedef unsigned char uchar;
typedef signed char schar;
typedef unsigned short ushort;

#define CV_8U 0
#define CV_8S 1
#define CV_16U 2
#define CV_16S 3
#define CV_32S 4
#define CV_32F 5
#define CV_64F 6
#define CV_16F 7
#define CV_CN_SHIFT 3
#define CV_MAKETYPE(depth, cn) ((depth) + (((cn) - 1) << CV_CN_SHIFT))
#define CV_8UC1 CV_MAKETYPE(CV_8U, 1)
#define CV_8UC3 CV_MAKETYPE(CV_8U, 3)
#define CV_8UC4 CV_MAKETYPE(CV_8U, 4)
#define CV_16UC1 CV_MAKETYPE(CV_16U, 1)
#define CV_16SC1 CV_MAKETYPE(CV_16S, 1)
#define CV_32SC1 CV_MAKETYPE(CV_32S, 1)
#define CV_32FC1 CV_MAKETYPE(CV_32F, 1)
#define CV_32FC2 CV_MAKETYPE(CV_32F, 2)
#define CV_32FC3 CV_MAKETYPE(CV_32F, 3)
#define CV_32FC4 CV_MAKETYPE(CV_32F, 4)
#define CV_Func ""
#define CV_Assert(expr) ((void)(expr))
#define CV_DbgAssert(expr) ((void)(expr))
#define CV_Error(code, msg) ((void)(code))
#define CV_StaticAssert(cond, msg) static_assert(cond, msg)
#define CV_PI 3.1415926535897932384626433832795
#define CV_EXPORTS
#define CV_INLINE inline
#define __CV_CUDA_HOST_DEVICE__ __host__ __device__ __forceinline__
#define OPENCV_CUDA_HOST_DEVICE __host__ __device__ __forceinline__
#define cudaSafeCall(expr) ((void)(expr))
#define nppSafeCall(expr) ((void)(expr))
#define cufftSafeCall(expr) ((void)(expr))
#define cublasSafeCall(expr) ((void)(expr))

namespace cv {
enum BorderTypes { BORDER_CONSTANT = 0, BORDER_REPLICATE = 1, BORDER_REFLECT = 2, BORDER_WRAP = 3,
                   BORDER_REFLECT_101 = 4, BORDER_TRANSPARENT = 5, BORDER_REFLECT101 = 4, BORDER_DEFAULT = 4,
                   BORDER_ISOLATED = 16 };
enum NormTypes { NORM_INF = 1, NORM_L1 = 2, NORM_L2 = 4, NORM_L2SQR = 5, NORM_HAMMING = 6, NORM_MINMAX = 32 };
enum InterpolationFlags { INTER_NEAREST = 0, INTER_LINEAR = 1, INTER_CUBIC = 2, INTER_AREA = 3 };
template <class T> struct Size_ { T width, height; __host__ __device__ Size_(); __host__ __device__ Size_(T, T); };
typedef Size_<int> Size;
template <class T> struct Point_ { T x, y; __host__ __device__ Point_(); __host__ __device__ Point_(T, T); };
typedef Point_<int> Point; typedef Point_<float> Point2f;
struct Scalar { double val[4]; Scalar(); Scalar(double, double = 0, double = 0, double = 0); double operator[](int) const; };

namespace cuda {
// opencv2/core/cuda_types.hpp: a device pointer, with a row step in bytes and a size
template <typename T> struct DevPtr {
  typedef T elem_type;
  typedef int index_type;
  enum { elem_size = sizeof(elem_type) };
  T* data;
  __host__ __device__ __forceinline__ DevPtr() : data(0) {}
  __host__ __device__ __forceinline__ DevPtr(T* data_) : data(data_) {}
  __host__ __device__ __forceinline__ size_t elemSize() const { return elem_size; }
  __host__ __device__ __forceinline__ operator T*() { return data; }
  __host__ __device__ __forceinline__ operator const T*() const { return data; }
};
template <typename T> struct PtrSz : public DevPtr<T> {
  size_t size;
  __host__ __device__ __forceinline__ PtrSz() : size(0) {}
  __host__ __device__ __forceinline__ PtrSz(T* data_, size_t size_) : DevPtr<T>(data_), size(size_) {}
};
template <typename T> struct PtrStep {  // (DevPtr's members here: kopt's model reads fields of the class itself)
  typedef T elem_type;
  typedef int index_type;
  enum { elem_size = sizeof(elem_type) };
  T* data;
  size_t step;
  __host__ __device__ __forceinline__ PtrStep() : data(0), step(0) {}
  __host__ __device__ __forceinline__ PtrStep(T* data_, size_t step_) : data(data_), step(step_) {}
  __host__ __device__ __forceinline__ size_t elemSize() const { return elem_size; }
  __host__ __device__ __forceinline__ operator T*() { return data; }
  __host__ __device__ __forceinline__ operator const T*() const { return data; }
  __host__ __device__ __forceinline__ T* ptr(int y = 0) { return (T*)((char*)data + y * step); }
  __host__ __device__ __forceinline__ const T* ptr(int y = 0) const { return (const T*)((const char*)data + y * step); }
  __host__ __device__ __forceinline__ T& operator()(int y, int x) { return ptr(y)[x]; }
  __host__ __device__ __forceinline__ const T& operator()(int y, int x) const { return ptr(y)[x]; }
};
template <typename T> struct PtrStepSz : public PtrStep<T> {
  int cols, rows;
  __host__ __device__ __forceinline__ PtrStepSz() : cols(0), rows(0) {}
  __host__ __device__ __forceinline__ PtrStepSz(int rows_, int cols_, T* data_, size_t step_)
      : PtrStep<T>(data_, step_), cols(cols_), rows(rows_) {}
  template <typename U> explicit PtrStepSz(const PtrStepSz<U>& d)
      : PtrStep<T>((T*)d.data, d.step), cols(d.cols), rows(d.rows) {}
};
typedef PtrStepSz<unsigned char> PtrStepSzb; typedef PtrStepSz<unsigned short> PtrStepSzus;
typedef PtrStepSz<float> PtrStepSzf; typedef PtrStepSz<int> PtrStepSzi;
typedef PtrStep<unsigned char> PtrStepb; typedef PtrStep<unsigned short> PtrStepus;
typedef PtrStep<float> PtrStepf; typedef PtrStep<int> PtrStepi;

// the host side the launchers name
class Stream { public: Stream(); static Stream& Null(); void waitForCompletion(); bool queryIfComplete() const; };
class Event { public: Event(); void record(Stream& = Stream::Null()); };
struct StreamAccessor { static cudaStream_t getStream(const Stream&); static Stream wrapStream(cudaStream_t); };
class GpuMat {
 public:
  int flags, rows, cols; size_t step; uchar* data;
  GpuMat(); GpuMat(int rows, int cols, int type); GpuMat(Size size, int type);
  void create(int rows, int cols, int type); void create(Size size, int type); void release();
  bool empty() const; int type() const; int depth() const; int channels() const; Size size() const;
  size_t elemSize() const; size_t elemSize1() const; bool isContinuous() const;
  GpuMat& setTo(Scalar s, Stream& stream = Stream::Null()); GpuMat row(int y) const; GpuMat col(int x) const;
  GpuMat rowRange(int, int) const; GpuMat colRange(int, int) const; GpuMat reshape(int cn, int rows = 0) const;
  void copyTo(GpuMat& dst, Stream& stream = Stream::Null()) const; void upload(const GpuMat&);
  template <typename T> T* ptr(int y = 0); template <typename T> const T* ptr(int y = 0) const;
  uchar* ptr(int y = 0); const uchar* ptr(int y = 0) const;
  template <typename T> operator PtrStepSz<T>() const;
  template <typename T> operator PtrStep<T>() const;
};
typedef const GpuMat& InputArray;
typedef GpuMat& OutputArray;
typedef GpuMat& InputOutputArray;
__host__ __device__ __forceinline__ int divUp(int total, int grain) { return (total + grain - 1) / grain; }

namespace device {
using cv::cuda::divUp;
template <class T> inline bool isAligned(const T* ptr, size_t size);
inline bool isAligned(size_t step, size_t size);
template <class T> void bindTexture(const void* tex, PtrStepSz<T> img);

// opencv2/core/cuda/vec_traits.hpp: the vector type of an element type and a channel count, and back
template <typename T, int cn> struct TypeVec;
template <typename T> struct VecTraits { static constexpr int cn = 0; };  // (not a vector: no operator below applies)
#define __KOPT_CV_TYPEVEC(B, V)                                                                                       \
  template <> struct TypeVec<B, 1> { typedef B vec_type; };                                                           \
  template <> struct TypeVec<V##1, 1> { typedef V##1 vec_type; };                                                      \
  template <> struct TypeVec<B, 2> { typedef V##2 vec_type; };                                                         \
  template <> struct TypeVec<V##2, 2> { typedef V##2 vec_type; };                                                      \
  template <> struct TypeVec<B, 3> { typedef V##3 vec_type; };                                                         \
  template <> struct TypeVec<V##3, 3> { typedef V##3 vec_type; };                                                      \
  template <> struct TypeVec<B, 4> { typedef V##4 vec_type; };                                                         \
  template <> struct TypeVec<V##4, 4> { typedef V##4 vec_type; };                                                      \
  template <> struct VecTraits<B> {                                                                                    \
    typedef B elem_type; static constexpr int cn = 1;                                                                             \
    static __host__ __device__ __forceinline__ B all(B v) { return v; }                                                \
    static __host__ __device__ __forceinline__ B make(B x) { return x; }                                               \
    static __host__ __device__ __forceinline__ B make(const B* v) { return *v; } };                                    \
  template <> struct VecTraits<V##1> {                                                                                 \
    typedef B elem_type; static constexpr int cn = 1;                                                                             \
    static __host__ __device__ __forceinline__ V##1 all(B v) { return make_##V##1(v); }                                \
    static __host__ __device__ __forceinline__ V##1 make(B x) { return make_##V##1(x); }                               \
    static __host__ __device__ __forceinline__ V##1 make(const B* v) { return make_##V##1(v[0]); } };                  \
  template <> struct VecTraits<V##2> {                                                                                 \
    typedef B elem_type; static constexpr int cn = 2;                                                                             \
    static __host__ __device__ __forceinline__ V##2 all(B v) { return make_##V##2(v, v); }                             \
    static __host__ __device__ __forceinline__ V##2 make(B x, B y) { return make_##V##2(x, y); }                       \
    static __host__ __device__ __forceinline__ V##2 make(const B* v) { return make_##V##2(v[0], v[1]); } };            \
  template <> struct VecTraits<V##3> {                                                                                 \
    typedef B elem_type; static constexpr int cn = 3;                                                                             \
    static __host__ __device__ __forceinline__ V##3 all(B v) { return make_##V##3(v, v, v); }                          \
    static __host__ __device__ __forceinline__ V##3 make(B x, B y, B z) { return make_##V##3(x, y, z); }               \
    static __host__ __device__ __forceinline__ V##3 make(const B* v) { return make_##V##3(v[0], v[1], v[2]); } };      \
  template <> struct VecTraits<V##4> {                                                                                 \
    typedef B elem_type; static constexpr int cn = 4;                                                                             \
    static __host__ __device__ __forceinline__ V##4 all(B v) { return make_##V##4(v, v, v, v); }                       \
    static __host__ __device__ __forceinline__ V##4 make(B x, B y, B z, B w) { return make_##V##4(x, y, z, w); }       \
    static __host__ __device__ __forceinline__ V##4 make(const B* v) { return make_##V##4(v[0], v[1], v[2], v[3]); } };
__KOPT_CV_TYPEVEC(uchar, uchar) __KOPT_CV_TYPEVEC(schar, char) __KOPT_CV_TYPEVEC(ushort, ushort)
__KOPT_CV_TYPEVEC(short, short) __KOPT_CV_TYPEVEC(uint, uint) __KOPT_CV_TYPEVEC(int, int)
__KOPT_CV_TYPEVEC(float, float) __KOPT_CV_TYPEVEC(double, double)
#undef __KOPT_CV_TYPEVEC
template <int cn> struct TypeVec<bool, cn> { typedef typename TypeVec<uchar, cn>::vec_type vec_type; };
template <> struct VecTraits<char> : VecTraits<schar> {};

// opencv2/core/cuda/vec_math.hpp: element-wise operators on vector types (and a vector with a scalar)
template <class T> struct __kopt_cv_is_vec { static constexpr bool value = VecTraits<T>::cn > 1; };
#define __KOPT_CV_ONE(V) template <> struct __kopt_cv_is_vec<V##1> { static constexpr bool value = true; };
__KOPT_CV_ONE(uchar) __KOPT_CV_ONE(char) __KOPT_CV_ONE(ushort) __KOPT_CV_ONE(short) __KOPT_CV_ONE(uint)
__KOPT_CV_ONE(int) __KOPT_CV_ONE(float) __KOPT_CV_ONE(double)
#undef __KOPT_CV_ONE
template <class A, class B, bool = __kopt_cv_is_vec<A>::value || __kopt_cv_is_vec<B>::value> struct __kopt_cv_op {};
template <class A, class B> struct __kopt_cv_op<A, B, true> {
  static constexpr int cn = VecTraits<A>::cn > VecTraits<B>::cn ? VecTraits<A>::cn : VecTraits<B>::cn;
  typedef decltype(typename VecTraits<A>::elem_type() + typename VecTraits<B>::elem_type()) elem;
  typedef typename TypeVec<elem, cn>::vec_type type;
  typedef typename TypeVec<uchar, cn>::vec_type mask;
};
#define __KOPT_CV_BINOP(op, kind) \
  template <class A, class B> __device__ typename __kopt_cv_op<A, B>::kind operator op(const A& a, const B& b);
__KOPT_CV_BINOP(+, type) __KOPT_CV_BINOP(-, type) __KOPT_CV_BINOP(*, type) __KOPT_CV_BINOP(/, type)
__KOPT_CV_BINOP(&, type) __KOPT_CV_BINOP(|, type) __KOPT_CV_BINOP(^, type)
__KOPT_CV_BINOP(==, mask) __KOPT_CV_BINOP(!=, mask) __KOPT_CV_BINOP(<, mask) __KOPT_CV_BINOP(>, mask)
__KOPT_CV_BINOP(<=, mask) __KOPT_CV_BINOP(>=, mask) __KOPT_CV_BINOP(&&, mask) __KOPT_CV_BINOP(||, mask)
#undef __KOPT_CV_BINOP
#define __KOPT_CV_ASSIGN(op) \
  template <class A, class B> __device__ typename __kopt_cv_op<A, A>::type& operator op(A& a, const B& b);
__KOPT_CV_ASSIGN(+=) __KOPT_CV_ASSIGN(-=) __KOPT_CV_ASSIGN(*=) __KOPT_CV_ASSIGN(/=)
#undef __KOPT_CV_ASSIGN
template <class A> __device__ typename __kopt_cv_op<A, A>::type operator-(const A& a);
template <class A> __device__ typename __kopt_cv_op<A, A>::mask operator!(const A& a);
template <class A> __device__ typename __kopt_cv_op<A, A>::type operator~(const A& a);
#define __KOPT_CV_VFUNC(f) template <class A> __device__ typename __kopt_cv_op<A, float>::type f(const A& a);
__KOPT_CV_VFUNC(abs) __KOPT_CV_VFUNC(sqrt) __KOPT_CV_VFUNC(exp) __KOPT_CV_VFUNC(exp2) __KOPT_CV_VFUNC(exp10)
__KOPT_CV_VFUNC(log) __KOPT_CV_VFUNC(log2) __KOPT_CV_VFUNC(log10) __KOPT_CV_VFUNC(sin) __KOPT_CV_VFUNC(cos)
__KOPT_CV_VFUNC(tan) __KOPT_CV_VFUNC(asin) __KOPT_CV_VFUNC(acos) __KOPT_CV_VFUNC(atan) __KOPT_CV_VFUNC(sinh)
__KOPT_CV_VFUNC(cosh) __KOPT_CV_VFUNC(tanh)
#undef __KOPT_CV_VFUNC
template <class A, class B> __device__ typename __kopt_cv_op<A, B>::type max(const A& a, const B& b);
template <class A, class B> __device__ typename __kopt_cv_op<A, B>::type min(const A& a, const B& b);
template <class A, class B> __device__ typename __kopt_cv_op<A, B>::type pow(const A& a, const B& b);
template <class A, class B> __device__ typename __kopt_cv_op<A, B>::type atan2(const A& a, const B& b);
template <class A, class B> __device__ typename __kopt_cv_op<A, B>::type hypot(const A& a, const B& b);

// opencv2/core/cuda/saturate_cast.hpp (a scalar or a vector, clamped to the target's range)
template <typename T, typename U> __host__ __device__ T saturate_cast(U v);

// opencv2/core/cuda/limits.hpp
template <class T> struct numeric_limits : ::std::numeric_limits<T> {};

// opencv2/core/cuda/functional.hpp
template <typename Argument, typename Result> struct unary_function {
  typedef Argument argument_type; typedef Result result_type; };
template <typename Argument1, typename Argument2, typename Result> struct binary_function {
  typedef Argument1 first_argument_type; typedef Argument2 second_argument_type; typedef Result result_type; };
#define __KOPT_CV_FUNCTOR(name, R, expr)                                                                              \
  template <typename T> struct name : binary_function<T, T, R> {                                                      \
    __host__ __device__ __forceinline__ R operator()(typename ::std::remove_cv<T>::type a,                            \
                                                     typename ::std::remove_cv<T>::type b) const { return expr; }     \
    __host__ __device__ __forceinline__ name() {} };
__KOPT_CV_FUNCTOR(plus, T, a + b) __KOPT_CV_FUNCTOR(minus, T, a - b) __KOPT_CV_FUNCTOR(multiplies, T, a * b)
__KOPT_CV_FUNCTOR(divides, T, a / b) __KOPT_CV_FUNCTOR(modulus, T, a % b) __KOPT_CV_FUNCTOR(equal_to, bool, a == b)
__KOPT_CV_FUNCTOR(not_equal_to, bool, a != b) __KOPT_CV_FUNCTOR(greater, bool, a > b)
__KOPT_CV_FUNCTOR(less, bool, a < b) __KOPT_CV_FUNCTOR(greater_equal, bool, a >= b)
__KOPT_CV_FUNCTOR(less_equal, bool, a <= b) __KOPT_CV_FUNCTOR(logical_and, bool, a && b)
__KOPT_CV_FUNCTOR(logical_or, bool, a || b) __KOPT_CV_FUNCTOR(bit_and, T, a & b) __KOPT_CV_FUNCTOR(bit_or, T, a | b)
__KOPT_CV_FUNCTOR(bit_xor, T, a ^ b) __KOPT_CV_FUNCTOR(maximum, T, a < b ? b : a)
__KOPT_CV_FUNCTOR(minimum, T, b < a ? b : a)
#undef __KOPT_CV_FUNCTOR
template <typename T> struct negate : unary_function<T, T> {
  __host__ __device__ __forceinline__ T operator()(const T& a) const { return -a; } };
template <typename T> struct identity : unary_function<T, T> {
  __host__ __device__ __forceinline__ const T& operator()(const T& a) const { return a; } };
template <typename T> struct abs_func : unary_function<T, T> {
  __host__ __device__ __forceinline__ T operator()(T a) const { return a < T(0) ? -a : a; } };
template <typename T> struct sqrt_func : unary_function<T, T> { __device__ T operator()(T a) const; };
template <typename Op> struct binder1st : unary_function<typename Op::second_argument_type, typename Op::result_type> {
  Op op; typename Op::first_argument_type arg1;
  __host__ __device__ __forceinline__ binder1st(const Op& op_, const typename Op::first_argument_type& a)
      : op(op_), arg1(a) {}
  __host__ __device__ __forceinline__ typename Op::result_type operator()(
      typename Op::second_argument_type a) const { return op(arg1, a); } };
template <typename Op> struct binder2nd : unary_function<typename Op::first_argument_type, typename Op::result_type> {
  Op op; typename Op::second_argument_type arg2;
  __host__ __device__ __forceinline__ binder2nd(const Op& op_, const typename Op::second_argument_type& a)
      : op(op_), arg2(a) {}
  __host__ __device__ __forceinline__ typename Op::result_type operator()(
      typename Op::first_argument_type a) const { return op(a, arg2); } };
template <typename Op, typename T> __host__ __device__ __forceinline__ binder1st<Op> bind1st(const Op& op, const T& x) {
  return binder1st<Op>(op, typename Op::first_argument_type(x)); }
template <typename Op, typename T> __host__ __device__ __forceinline__ binder2nd<Op> bind2nd(const Op& op, const T& x) {
  return binder2nd<Op>(op, typename Op::second_argument_type(x)); }

// opencv2/core/cuda/border_interpolate.hpp: readers that map an index outside the image inside it (index helpers
// and reads declared: opaque values)
#define __KOPT_CV_BORDER(name)                                                                                        \
  template <typename D> struct name {                                                                                 \
    typedef D result_type;                                                                                            \
    int height, width; D val;                                                                                         \
    __host__ __device__ __forceinline__ name(int height_, int width_, D val_ = D())                                   \
        : height(height_), width(width_), val(val_) {}                                                                \
    template <typename U> __host__ __device__ __forceinline__ name(int height_, int width_, U)                        \
        : height(height_), width(width_), val() {}                                                                    \
    __device__ int idx_row_low(int y) const; __device__ int idx_row_high(int y) const;                                \
    __device__ int idx_row(int y) const; __device__ int idx_col_low(int x) const;                                     \
    __device__ int idx_col_high(int x) const; __device__ int idx_col(int x) const;                                    \
    template <typename T> __device__ D at(int y, int x, const T* data, size_t step) const;                            \
    template <typename Ptr2D> __device__ D at(typename Ptr2D::index_type y, typename Ptr2D::index_type x,             \
                                              const Ptr2D& src) const;                                                \
    template <typename Ptr2D> __device__ D at(int y, int x, const Ptr2D& src) const;                                  \
    template <typename T> __device__ D at_low(int i, const T* data) const;                                            \
    template <typename T> __device__ D at_high(int i, const T* data) const;                                           \
    template <typename T> __device__ D at(int i, const T* data) const;                                                \
    template <typename T> __device__ D at(int i, const T* data, size_t step) const; };
__KOPT_CV_BORDER(BrdConstant) __KOPT_CV_BORDER(BrdReplicate) __KOPT_CV_BORDER(BrdReflect101)
__KOPT_CV_BORDER(BrdReflect) __KOPT_CV_BORDER(BrdWrap) __KOPT_CV_BORDER(BrdRowConstant)
__KOPT_CV_BORDER(BrdRowReplicate) __KOPT_CV_BORDER(BrdRowReflect101) __KOPT_CV_BORDER(BrdRowReflect)
__KOPT_CV_BORDER(BrdRowWrap) __KOPT_CV_BORDER(BrdColConstant) __KOPT_CV_BORDER(BrdColReplicate)
__KOPT_CV_BORDER(BrdColReflect101) __KOPT_CV_BORDER(BrdColReflect) __KOPT_CV_BORDER(BrdColWrap)
#undef __KOPT_CV_BORDER
template <typename Ptr2D, typename B> struct BorderReader {
  typedef typename B::result_type elem_type;
  typedef typename Ptr2D::index_type index_type;
  Ptr2D ptr; B b;
  __host__ __device__ __forceinline__ BorderReader(const Ptr2D& ptr_, const B& b_) : ptr(ptr_), b(b_) {}
  __device__ elem_type operator()(index_type y, index_type x) const;
};

// opencv2/core/cuda/emulation.hpp: the atomics of every architecture kopt targets
struct Emulation {
  static __device__ __forceinline__ int syncthreadsOr(int pred) { return __syncthreads_or(pred); }
  template <int CTA_SIZE> static __device__ __forceinline__ int Ballot(int predicate) {
    return __ballot_sync(0xffffffffu, predicate); }
#define __KOPT_CV_ATOMICS                                                                                             \
  static __device__ __forceinline__ int atomicAdd(int* a, int v) { return ::atomicAdd(a, v); }                        \
  static __device__ __forceinline__ unsigned int atomicAdd(unsigned int* a, unsigned int v) { return ::atomicAdd(a, v); } \
  static __device__ __forceinline__ float atomicAdd(float* a, float v) { return ::atomicAdd(a, v); }                  \
  static __device__ __forceinline__ int atomicMin(int* a, int v) { return ::atomicMin(a, v); }                        \
  static __device__ __forceinline__ unsigned int atomicMin(unsigned int* a, unsigned int v) { return ::atomicMin(a, v); } \
  static __device__ __forceinline__ int atomicMax(int* a, int v) { return ::atomicMax(a, v); }                        \
  static __device__ __forceinline__ unsigned int atomicMax(unsigned int* a, unsigned int v) { return ::atomicMax(a, v); } \
  static __device__ __forceinline__ unsigned int atomicInc(unsigned int* a, unsigned int v) { return ::atomicInc(a, v); } \
  static __device__ __forceinline__ int atomicAnd(int* a, int v) { return ::atomicAnd(a, v); }                        \
  static __device__ __forceinline__ unsigned int atomicAnd(unsigned int* a, unsigned int v) { return ::atomicAnd(a, v); } \
  static __device__ __forceinline__ int atomicOr(int* a, int v) { return ::atomicOr(a, v); }                          \
  static __device__ __forceinline__ unsigned int atomicOr(unsigned int* a, unsigned int v) { return ::atomicOr(a, v); } \
  static __device__ __forceinline__ int atomicXor(int* a, int v) { return ::atomicXor(a, v); }                        \
  static __device__ __forceinline__ unsigned int atomicXor(unsigned int* a, unsigned int v) { return ::atomicXor(a, v); }
  struct smem { __KOPT_CV_ATOMICS };
  struct glob { __KOPT_CV_ATOMICS };
#undef __KOPT_CV_ATOMICS
};

// opencv2/core/cuda/reduce.hpp: a reduction of N threads' values through shared memory (every thread takes part:
// over more than a warp, a barrier; within one, warp-synchronous)
template <class... T> __device__ __forceinline__ thrust::tuple<volatile T*...> smem_tuple(T*... t);
template <int N, typename T, class Op>
__device__ __forceinline__ void reduce(volatile T* smem, T& val, unsigned int tid, const Op& op) {
  if (N > 32) __syncthreads(); }
template <int N, class... P, class... R, class... Op>
__device__ __forceinline__ void reduce(const thrust::tuple<P...>& smem, const thrust::tuple<R...>& val, unsigned int tid,
                                       const thrust::tuple<Op...>& op) { if (N > 32) __syncthreads(); }
template <int N, typename K, typename V, class Cmp>
__device__ __forceinline__ void reduceKeyVal(volatile K* skeys, K& key, volatile V* svals, V& val, unsigned int tid,
                                             const Cmp& cmp) { if (N > 32) __syncthreads(); }

// opencv2/core/cuda/dynamic_smem.hpp
template <class T> struct DynamicSharedMem {
  __device__ __forceinline__ operator T*() { extern __shared__ int __smem[]; return (T*)__smem; }
  __device__ __forceinline__ operator const T*() const { extern __shared__ int __smem[]; return (T*)__smem; }
};

// opencv2/core/cuda/utility.hpp and transform.hpp: masks, and the launchers of per-pixel functors (host code)
struct SingleMask {
  explicit __host__ __device__ __forceinline__ SingleMask(PtrStepb mask_) : mask(mask_) {}
  __device__ __forceinline__ bool operator()(int y, int x) const { return mask.ptr(y)[x] != 0; }
  PtrStepb mask;
};
struct SingleMaskChannels {
  __host__ __device__ __forceinline__ SingleMaskChannels(PtrStepb mask_, int channels_) : mask(mask_), channels(channels_) {}
  __device__ __forceinline__ bool operator()(int y, int x) const { return mask.ptr(y)[x / channels] != 0; }
  PtrStepb mask; int channels;
};
struct WithOutMask {
  __host__ __device__ __forceinline__ WithOutMask() {}
  __device__ __forceinline__ bool operator()(int, int) const { return true; }
  __device__ __forceinline__ bool operator()(int, int, int) const { return true; }
};
template <typename T, typename D, typename UnOp, typename Mask>
void transform(PtrStepSz<T> src, PtrStepSz<D> dst, UnOp op, const Mask& mask, cudaStream_t stream);
template <typename T1, typename T2, typename D, typename BinOp, typename Mask>
void transform(PtrStepSz<T1> src1, PtrStepSz<T2> src2, PtrStepSz<D> dst, BinOp op, const Mask& mask,
               cudaStream_t stream);
template <typename T> struct TransformFunctorTraits {
  enum { simple_block_dim_x = 16, simple_block_dim_y = 16, smart_block_dim_x = 16, smart_block_dim_y = 16,
         smart_shift = 4 };
};
}  // namespace device
}  // namespace cuda
}  // namespace cv
