"""What a kernel template declares in terms of its parameters: enumerators (libclang reports every enumerator of a
template as 0), the fields of a struct whose offsets clang leaves open, a helper's static ``__shared__`` array per
deduced instantiation; and a cooperative-groups tile's meta group."""
from __future__ import annotations

import pytest

from kopt.analyze import analyze

ENUMS = """
template <int W, int ROW>
__global__ void rows(signed char *out, float *red_out) {
  enum { kTHREADS = W * 32 };
  enum { kBYTES = 16, kNEXT, kVECS = ROW / 2 };
  __shared__ float red[kVECS][W];
  const int row = threadIdx.x / ROW, col = threadIdx.x % ROW;
  red[col / 2][threadIdx.x / 32] = 1.0f;
  *reinterpret_cast<uint4 *>(out + (blockIdx.x * kTHREADS + row * ROW + col) * STEP) = uint4{0, 0, 0, 0};
  red_out[blockIdx.x * kTHREADS + threadIdx.x] = kNEXT;
}
void launch(signed char *o, float *r, int n) { rows<4, 8><<<n, 128>>>(o, r); }
"""

STRUCT = """
template <int N>
__global__ void fields(int *out) {
  __shared__ struct { int ref[N + 1]; bool mark[N]; int done; } s;
  if (threadIdx.x == 0) s.done = 0;
  s.mark[threadIdx.x] = true;
  __syncthreads();
  if (s.ref[threadIdx.x] == 0) atomicAdd(&s.done, 1);
  out[threadIdx.x] = s.mark[threadIdx.x];
}
void launch(int *o) { fields<64><<<1, 64>>>(o); }
"""

REDUCE = """
template <typename T>
__device__ T blockReduceSum(T val) {
  static __shared__ T shared[32];
  int lane = threadIdx.x & 31, wid = threadIdx.x >> 5;
  if (lane == 0) shared[wid] = val;
  __syncthreads();
  return threadIdx.x < ((blockDim.x + 31) >> 5) ? shared[lane] : (T)0;
}
__global__ void two(float *out, const int *in) {
  int a = blockReduceSum(in[threadIdx.x]);
  float b = blockReduceSum(float(a));
  THIRD
  out[threadIdx.x] = b;
}
void launch(float *o, const int *i) { two<<<1, 256>>>(o, i); }
"""

TILES = """
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void partial(float *out, const float *in) {
  __shared__ float red[1024 / 32];
  cg::thread_block cta = cg::this_thread_block();
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(cta);
  if (tile.thread_rank() == 0) red[tile.meta_group_rank()] = in[threadIdx.x];
  cg::sync(cta);
  if (cta.thread_rank() == 0) {
    float s = 0;
    for (int i = 0; i < tile.meta_group_size() + EXTRA; ++i) s += red[i];
    out[blockIdx.x] = s;
  }
}
void launch(float *o, const float *i, int n, int b) { partial<<<n, b>>>(o, i); }
"""


def _rules(src: str) -> set[str]:
    res = analyze(src, path="k.cu")
    return {d.rule for d in res.diagnostics if d.severity.value in ("error", "warning") and
            d.rule not in ("bank-conflict", "coalescing")}


def test_an_enumerator_of_a_kernel_template_has_its_value():
    assert _rules(ENUMS.replace("STEP", "kBYTES")) == set()  # 16 bytes per thread
    assert _rules(ENUMS.replace("STEP", "8")) == {"race.global"}  # 16-byte stores 8 bytes apart


def test_the_fields_of_a_template_struct_are_apart():
    assert _rules(STRUCT) == set()
    # a field still races with itself
    assert "race.shared" in _rules(STRUCT.replace("s.mark[threadIdx.x] = true", "s.mark[0] = threadIdx.x & 1"))


POINTER_MEMBER = """
template <typename T>
struct Stack {
  T *data;
  int top;
  __device__ void push(T e) {
    if (data) {
      int i = atomicAdd(&top, 1);
      data[i + 1] = e;
    }
  }
};
__global__ void stacks(int *out) {
  __shared__ unsigned char buffer[sizeof(Stack<int>)];
  __shared__ int items[1024];
  __shared__ Stack<int> *s;
  if (threadIdx.x == 0) { s = reinterpret_cast<Stack<int> *>(buffer); s->data = items; s->top = -1; }
  __syncthreads();
  s->push(threadIdx.x);
  __syncthreads();
  out[threadIdx.x] = items[threadIdx.x];
}
void launch(int *o) { stacks<<<1, 256>>>(o); }
"""


def test_a_pointer_field_of_a_template_struct_is_followed_not_indexed_in_place():
    # `data[i + 1]` stores through the pointer (into items, a distinct slot per thread), not into the struct
    assert "race.shared" not in _rules(POINTER_MEMBER)


def test_a_helper_instantiated_for_two_types_has_two_static_arrays():
    assert _rules(REDUCE.replace("THIRD", "")) == set()  # blockReduceSum<int>, then <float>
    # a second float reduction reuses <float>'s array with no barrier after the first one's reads
    assert _rules(REDUCE.replace("THIRD", "b = blockReduceSum<float>(b);")) == {"race.shared"}


def test_a_tiles_meta_group_is_the_blocks_warps():
    assert _rules(TILES.replace("EXTRA", "0")) == set()
    assert _rules(TILES.replace("EXTRA", "1")) == {"bounds.shared"}


ARRAY = """
template <typename T, int N> struct Array { T a[N]; __device__ T &operator[](int i) { return a[i]; } };
template <typename T, int N> __device__ void Load(Array<T, N> &dst, const T *src) {
  if constexpr (sizeof(Array<T, N>) == sizeof(uint4)) { (uint4 &)dst = *(const uint4 *)src; }
  else if constexpr (sizeof(Array<T, N>) == sizeof(uint2)) { (uint2 &)dst = *(const uint2 *)src; }
  else { for (int i = 0; i < N; ++i) dst[i] = src[i]; }
}
template <typename T, int N> __device__ void Store(T *dst, const Array<T, N> &src) {
  if constexpr (sizeof(Array<T, N>) == sizeof(uint4)) { *(uint4 *)dst = (const uint4 &)src; }
  else if constexpr (sizeof(Array<T, N>) == sizeof(uint2)) { *(uint2 *)dst = (const uint2 &)src; }
  else { for (int i = 0; i < N; ++i) dst[i] = src[i]; }
}
template <typename T, int V>
__global__ void scale(T *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n / V) return;
  Array<T, V> v;
  Load(v, x + i * V);
  %s
  Store(x + i * V, v);
}
void run(float *x, int n) { scale<float, 4><<<(n / 4 + 255) / 256, 256>>>(x, n); }
"""


def test_one_sizeof_picks_one_branch_in_both_helpers():
    # lmdeploy's Load/Store: `if constexpr (sizeof(Array<T, N>) == sizeof(uint4))` is one unknown for the type in
    # both helpers, and Store's `N` is deduced from the Array it is handed (its loop bounded by it)
    res = analyze(ARRAY % "for (int j = 0; j < V; ++j) v[j] *= 2.f;", path="a.cu")
    assert not {d.rule for d in res.diagnostics} & {"race.global", "analysis.incomplete"}, res.diagnostics


RAW = """
template <typename T, int N> struct Array { T a[N]; };
template <typename T, int N> __device__ void Copy(Array<T, N> &dst, const T *src) {
  for (int i = 0; i < (int)(sizeof(Array<T, N>) / sizeof(uint4)); ++i) *((uint4 *)&dst + i) = *((const uint4 *)src + i);
}
__global__ void k(const float *x, float *y) {
  Array<float, 8> v;
  Copy(v, x + 8 * threadIdx.x);
  y[threadIdx.x] = v.a[0];
}
void run(const float *x, float *y) { k<<<1, 128>>>(x, y); }
"""


def test_a_private_struct_written_as_raw_words_is_placed():
    # `*((uint4 *)&dst + i) = ...` on the caller's own Array: memory no other thread sees
    res = analyze(RAW, path="r.cu")
    assert not [d for d in res.diagnostics if "cannot place" in d.message], res.diagnostics


IMAGE_VIEW = """
namespace lib {
template <class T> struct View {
  T *data; size_t step;
  __device__ T *row(int y) { return (T *)((char *)data + y * step); }
  __device__ T &operator()(int y, int x) { return row(y)[x]; }
};
}
struct Opaque;
__device__ float &at(Opaque *o, int y, int x);
__global__ void halves(lib::View<float> dst) { dst(blockIdx.y, threadIdx.x / 2) = threadIdx.x; }
__global__ void rows(lib::View<float> dst) { dst(blockIdx.y, threadIdx.x) = threadIdx.x; }
__global__ void unknown(Opaque *o) { at(o, blockIdx.y, threadIdx.x) = threadIdx.x; }
"""


def test_a_store_through_an_objects_call_operator_is_placed_or_said_unplaced():
    # `dst(y, x) = v`: the class's operator() returns a reference its other member function computes (clang leaves
    # that implicit-this call unqualified inside a namespace); an unknown function's reference is no silent drop
    res = analyze(IMAGE_VIEW, path="view.cu", block=(64, 1, 1))
    errors = {(d.rule, d.locations[0].line) for d in res.diagnostics if d.severity.value == "error"}
    assert errors == {("race.global", 11)}, res.diagnostics  # (row 12's rows overlap only if step < width: a note)
    incomplete = [d for d in res.diagnostics if d.rule == "analysis.incomplete"]
    assert [d.locations[0].line for d in incomplete] == [13] and "cannot place" in incomplete[0].message


def test_a_store_through_a_pointer_of_the_templates_type_is_placed():
    # `*p = Convert<T>::to(v)` with `T *p` in a kernel template: clang keeps an unresolved `operator*` call, which the
    # front end read as an unknown call (cunn's subsample: the store went unchecked)
    src = """template <typename T> struct Convert { static __device__ T to(float v) { return T(v); } };
template <typename T> __global__ void k(T *out, int n) {
  for (int i = threadIdx.x; i < n; i += blockDim.x) {
    T *p = out + i / 2;
    *p = Convert<T>::to(i);
  }
}
template __global__ void k<float>(float *, int);
"""
    res = analyze(src, path="deref.cu", block=(64, 1, 1))
    assert [(d.rule, d.locations[0].line) for d in res.diagnostics if d.rule.startswith(("race", "analysis"))] == [
        ("race.global", 5)], res.diagnostics


def test_a_store_through_a_static_member_function_named_by_a_typedef_is_placed():
    # HeCBench's sparkler: `Matrix_t::eltd(r, c, d, nru) = v`, a class's static function returning a reference,
    # named through the kernel template's parameter
    src = """template <typename T> struct Matrix {
  typedef T P;
  __device__ P &eltd(size_t i, size_t j);
  static __device__ P &eltd(size_t i, size_t j, P *d, size_t rows) { return d[i + rows * j]; }
};
template <class Matrix_t> __global__ void fill(size_t nr, size_t rows, typename Matrix_t::P *d) {
  const size_t i = threadIdx.x + blockDim.x * blockIdx.x;
  Matrix_t::eltd(i / 2, 0, d, rows) = i;
}
template __global__ void fill<Matrix<float>>(size_t, size_t, float *);
"""
    res = analyze(src, path="eltd.cu", block=(64, 1, 1))
    assert [(d.rule, d.locations[0].line) for d in res.diagnostics if d.rule.startswith(("race", "analysis"))] == [
        ("race.global", 8)], res.diagnostics


def test_a_static_function_of_a_class_with_a_value_parameter_is_not_bound_without_its_arguments():
    # TeaLeaf's `Reduce<T, offset / 2>::run(...)` recursion: inlining it with the caller's `offset` made its
    # `if (offset > 16) __syncthreads();` divergent at every level
    src = """template <typename T, int offset> struct Reduce {
  __device__ static void run(T *a) {
    if (offset > 16) __syncthreads();
    if (threadIdx.x < offset) { a[threadIdx.x] += a[threadIdx.x + offset]; Reduce<T, offset / 2>::run(a); }
  }
};
template <typename T> struct Reduce<T, 0> { __device__ static void run(T *) {} };
__global__ void k(float *out) {
  __shared__ float s[128];
  s[threadIdx.x] = out[threadIdx.x];
  Reduce<float, 64>::run(s);
  if (threadIdx.x == 0) out[blockIdx.x] = s[0];
}
"""
    res = analyze(src, path="reduce.cu", block=(128, 1, 1))
    assert not [d for d in res.diagnostics if d.rule.startswith("barrier")], res.diagnostics


TENSOR_VIEW = """template <typename T, int Dim> struct View {
  __device__ View(T *p, const int *size) : data(p) { for (int i = 0; i < Dim; ++i) sizes[i] = size ? size[i] : 0; }
  __device__ View<T, Dim - 1> operator[](int x) const {
    int offset = x;
    for (int i = 1; i < Dim; ++i) offset *= sizes[i];
    View<T, Dim - 1> sub(data + offset, nullptr);
    for (int i = 0; i < Dim - 1; ++i) sub.sizes[i] = this->sizes[i + 1];
    return sub;
  }
  T *data;
  int sizes[Dim];
};
template <typename T> struct View<T, 1> {
  __device__ View(T *p, const int *size) : data(p) { sizes[0] = size ? size[0] : 0; }
  __device__ T &operator[](int x) const { return data[x]; }
  T *data;
  int sizes[1];
};
template <typename T> __global__ void k(View<T, 3> out, View<T, 2> in) {
  if (threadIdx.x >= out.sizes[2]) return;
  out[blockIdx.x][0][threadIdx.x] = in[blockIdx.x][threadIdx.x];
  OTHER
}
template __global__ void k<float>(View<float, 3>, View<float, 2>);
"""


def test_a_tensor_views_subscripts_reach_the_element_its_partial_specialization_returns():
    # PyTorch-Encoding's DeviceTensor: `t[b][k][d]` in a kernel template calls the class's operator[], which builds
    # the next view from its sizes, down to the specialization for one dimension that returns the element; the
    # store had been left unplaced (its races unchecked)
    clean = analyze(TENSOR_VIEW.replace("OTHER", ""), path="view.cu", block=(64, 1, 1))
    assert not [d for d in clean.diagnostics if d.rule == "analysis.incomplete" or d.rule.startswith(("race", "sync"))
                and d.severity.value in ("error", "warning")], clean.diagnostics
    racy = analyze(TENSOR_VIEW.replace("OTHER", "out[blockIdx.x][0][0] = threadIdx.x;"), path="view.cu",
                   block=(64, 1, 1))
    found = {(d.rule, d.locations[0].line) for d in racy.diagnostics if d.rule.startswith(("race", "analysis"))}
    assert found == {("race.global", 21), ("race.global", 22)}, racy.diagnostics  # (thread 0 writes both)


def test_a_classs_own_subscript_operator_is_a_member_call():
    # `a[i] = v` on a struct whose operator[] returns a reference into its pointer: a store through the pointer
    src = """struct Acc {
  float *p;
  __device__ float &operator[](int i) const { return p[i]; }
};
__global__ void k(Acc a) {
  a[threadIdx.x + 64] = 1.0f;
  a[0] = threadIdx.x;
}
"""
    res = analyze(src, path="acc.cu", block=(64, 1, 1))
    assert [(d.rule, d.locations[0].line) for d in res.diagnostics if d.rule.startswith(("race", "analysis"))] == [
        ("race.global", 7)], res.diagnostics


def test_an_element_of_a_parameters_array_field_is_one_value_in_every_thread():
    # `t.sizes[1]` of a struct passed by value: the same kernel argument wherever it is read (a row offset computed
    # from it names one address in every thread)
    src = """struct T3 { float *data; int sizes[3]; };
__global__ void k(T3 t) {
  t.data[blockIdx.x * t.sizes[1] * t.sizes[2]] = threadIdx.x;
}
"""
    res = analyze(src, path="t3.cu", block=(64, 1, 1))
    assert [(d.rule, d.locations[0].line) for d in res.diagnostics if d.rule.startswith(("race", "analysis"))] == [
        ("race.global", 3)], res.diagnostics


VARIADIC = """
__device__ int first(int a, int b) { return a; }
template <typename... Args>
__device__ float *at(float *base, Args... c) { return base + first(c...) * (int)(sizeof...(Args) / 2); }
__global__ void k(const float *in, float *out) {
  __shared__ float s[128];
  *at(s, INDEX, 0) = in[threadIdx.x];
  __syncthreads();
  out[threadIdx.x] = s[127 - threadIdx.x];
}
"""


@pytest.mark.parametrize("index, race", [("threadIdx.x", False), ("threadIdx.x % 2", True)])
def test_a_variadic_helper_takes_each_argument_of_its_pack(index, race):
    """CV-CUDA's `TensorWrap::ptr(Args... c)` forwards its coordinates to `doGetPtr(c...)`: a call of any arity is
    the variadic template's, `c...` its arguments one by one, `sizeof...(Args)` their count (the store was unplaced)."""
    res = analyze(VARIADIC.replace("INDEX", index), path="variadic.cu", block=(128, 1, 1))
    rules = {d.rule for d in res.diagnostics}
    assert "analysis.incomplete" not in rules and ("race.shared" in rules) == race


def test_a_store_to_a_reference_a_helper_returns_updates_what_it_refers_to():
    # CV-CUDA's SaturateCast: `RT out{}; GetElement<0>(out) = ...;` (a helper returning `v.x` of its reference
    # parameter); a helper returning its reference parameter itself, and one returning an element of memory. The stores
    # had been unplaced (each kernel incomplete) and `out` kept its old fields (a race at s[0] that cannot happen)
    src = """
struct V { int x, y; };
template <int I> __device__ int &get(V &v) { if constexpr (I == 0) return v.x; else return v.y; }
__device__ int &same(int &r) { return r; }
__device__ float &at(float *p, int i) { return p[i]; }
__global__ void k(int *o, float *f) {
  V out{};
  get<0>(out) = threadIdx.x;
  get<1>(out) = 7;
  int w = 0;
  same(w) = threadIdx.x + 64;
  __shared__ int s[128];
  s[out.x] = threadIdx.x;
  s[w] = out.y;
  at(f, blockIdx.x * 64 + threadIdx.x) = 1.0f;
  __syncthreads();
  o[blockIdx.x * 64 + threadIdx.x] = s[127 - threadIdx.x];
}
void run(int *o, float *f) { k<<<8, 64>>>(o, f); }
"""
    res = analyze(src, path="k.cu")
    assert not res.diagnostics, res.diagnostics
    # the helper's element is memory: two threads storing to one element of `f` race
    racy = analyze(src.replace("at(f, blockIdx.x * 64 + threadIdx.x) = 1.0f", "at(f, blockIdx.x) = threadIdx.x"),
                   path="k.cu")
    assert [d.rule for d in racy.diagnostics] == ["race.global"], racy.diagnostics


@pytest.mark.parametrize("index, race", [("b[0]", False), ("m[1]", True)])
def test_a_std_array_a_thread_declares_is_its_local_array(index, race):
    """cufinufft's `cuda::std::array<int, 3> nbin; for (d...) nbin[d] = nobin[d] * per[d];`: a thread's own std::array
    holds what it stores (the stores had been unplaced, the kernel incomplete); a parameter's elements are kernel
    arguments, the same in every thread (a store at `m[1]`, one value in every thread, collides)."""
    src = """#include <cuda/std/array>
__global__ void k(cuda::std::array<int, 3> n, int *out) {
  cuda::std::array<int, 3> b = {int(threadIdx.x + blockIdx.x * blockDim.x), 0, 0};
  cuda::std::array<int, 3> m;
  for (int d = 0; d < 3; ++d) m[d] = n[d] * 2;
  m[1] = n[1] + 1;
  if (b[0] < m[0]) out[INDEX] = b[0];
}
"""
    res = analyze(src.replace("INDEX", index), path="stdarray.cu", block=(128, 1, 1), grid=(4, 1, 1))
    rules = {d.rule for d in res.diagnostics}
    assert "analysis.incomplete" not in rules and ("race.global" in rules) == race, res.diagnostics
