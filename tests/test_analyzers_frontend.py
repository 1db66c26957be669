"""The front end reads what the kernels need: host code that does not parse is skipped, a kernel libclang cannot
read falls back alone, and inactive preprocessor branches are never analyzed (on either path)."""
from __future__ import annotations

import pytest

from analyzers.preproc import active_lines
from kopt.analyze import analyze

KERNELS = """
__global__ void racy(float *out, const float *in) {
  __shared__ float s[256];
  s[threadIdx.x] = in[threadIdx.x];
  out[threadIdx.x] = s[(threadIdx.x + 1) % 256];
}
"""
HOST = """
int main() {
  FILE *fp = fopen("x", "r");
  cublasHandle_t h;
  cublasCreate(&h);
  racy<<<1, 256>>>(0, 0);
}
"""


def _rules(res):
    return {d.rule for d in res.diagnostics}


def test_host_code_that_does_not_parse_is_skipped():
    res = analyze("#include <cublas_v2.h>\n" + KERNELS + HOST, path="host.cu", block=(256, 1, 1))
    assert res.frontend == "libclang" and "sync.missing" in _rules(res)
    assert "analysis.incomplete" not in _rules(res)
    assert "host declaration" in res.paths["racy"]


def test_a_kernel_libclang_cannot_read_falls_back_alone():
    bad = KERNELS.replace("racy", "odd").replace("__shared__ float s[256];", "__shared__ float s[256];\n"
                                                                              "  weird_t w = make_weird();")
    res = analyze(KERNELS + bad, path="mixed.cu", block=(256, 1, 1))
    assert res.paths["racy"] == "libclang"
    assert res.paths["odd"].startswith("tree-sitter (libclang:") and "weird_t" in res.paths["odd"]
    notes = [d for d in res.diagnostics if d.rule == "analysis.incomplete"]
    assert len(notes) == 1 and "`odd`" in notes[0].message and notes[0].locations[0].line > 6
    lines = {d.locations[0].line for d in res.diagnostics if d.rule == "sync.missing"}
    assert len(lines) == 2  # both kernels' missing barrier found


def test_a_device_helper_that_does_not_parse_costs_only_its_callers_the_parse():
    """Blanking a device function that holds an error leaves its callers calling an undeclared name: they fall back
    too, and the kernels that do not call it stay with libclang (before, the file's remaining errors sent every kernel
    to the fallback)."""
    helper = "__device__ int lookup(int i) { weird_t w = make_weird(i); return w.v; }\n"
    caller = ("__global__ void uses(int *out) {\n  __shared__ int s[256];\n  s[threadIdx.x] = lookup(threadIdx.x);\n"
              "  out[threadIdx.x] = s[threadIdx.x];\n}\n")
    res = analyze(helper + caller + KERNELS, path="helper.cu", block=(256, 1, 1))
    assert res.paths["racy"] == "libclang"
    assert res.paths["uses"].startswith("tree-sitter (libclang:") and "lookup" in res.paths["uses"]
    assert "sync.missing" in _rules(res)


def test_inactive_branches_are_blanked():
    src = "#define A 4\n#if 0\nx\n#elif A > 2\ny\n#else\nz\n#endif\n#ifdef NOPE\nw\n#endif\n#ifndef NOPE\nv\n#endif\n"
    out = active_lines(src).split("\n")
    assert len(out) == len(src.split("\n"))  # line numbers kept
    assert [l for l in out if l and not l.startswith("#define")] == ["y", "v"]
    assert "w" in active_lines(src, {"NOPE": None})


def test_dead_code_is_not_analyzed_on_either_path():
    dead = "#if 0\n" + KERNELS.replace("racy", "dead") + "#endif\n#ifdef UNDEFINED_FLAG\n" + \
        KERNELS.replace("racy", "dead2") + "#endif\n"
    for frontend in ("libclang", "tree-sitter"):
        res = analyze(dead + KERNELS, path="dead.cu", frontend=frontend, block=(256, 1, 1))
        assert res.kernels == ["racy"], frontend


def test_a_kernel_header_is_read_after_its_includers_declarations(tmp_path):
    (tmp_path / "main.cu").write_text('typedef unsigned char uchar;\n#define TILE 16\n#include "kern.cuh"\n'
                                      'int main() { return 0; }\n')
    (tmp_path / "kern.cuh").write_text("__global__ void k(uchar* out) {\n  __shared__ uchar s[TILE];\n"
                                       "  s[threadIdx.x % TILE] = 1;\n  out[threadIdx.x] = s[0];\n}\n")
    res = analyze(tmp_path / "kern.cuh")
    assert res.kernels == ["k"] and "read after the declarations of main.cu" in res.paths["k"]
    assert not [d for d in res.diagnostics if d.rule == "analysis.incomplete"]


# a kernel whose tile size and helper come from "helpers.h" (its missing barrier is sync.missing)
TILE_KERNEL = """
__global__ void k(float* out) {
  __shared__ float s[TILE];
  s[threadIdx.x] = twice(out[threadIdx.x]);
  out[threadIdx.x] = s[(threadIdx.x + 1) % TILE];
}
"""


def test_a_helper_header_keeps_its_macros_and_device_code_when_its_host_code_does_not_parse(tmp_path):
    """Helper headers full of host code (std::string, file I/O, a class template whose out-of-line members fail
    one by one) lose only those declarations: the macro, constant and device function a kernel uses stay."""
    (tmp_path / "helpers.h").write_text("""#pragma once
#define TILE 64
template <class E> class Wrapped : public E { public: Wrapped(const std::string& s); void raise() const; };
template <class E>
Wrapped<E>::Wrapped(const std::string& s) : E(s) {}
template <class E>
void Wrapped<E>::raise() const { throw *this; }
extern "C" int read_all(FILE* f) { return fread(buffer, 1, size, f); }
inline void Timer::start() { gettimeofday(&t0, 0); }
__device__ inline float twice(float x) { return 2.0f * x; }
""")
    (tmp_path / "k.cu").write_text('#include "helpers.h"\n' + TILE_KERNEL + "int main() { k<<<1, TILE>>>(0); }\n")
    res = analyze(tmp_path / "k.cu")
    assert res.paths["k"].startswith("libclang") and "sync.missing" in _rules(res)
    assert "analysis.incomplete" not in _rules(res)
    assert [l["block"] for l in res.launches] == [[64, 1, 1]]


def test_a_namespace_alias_to_a_library_kopt_lacks_costs_only_itself(tmp_path):
    """A project header aliasing a namespace of a library kopt does not have (`namespace gflags = google;`, the
    library's header unfound) loses that line alone: the namespace that follows, its macros and device code stay
    (blanking the alias by clang's recovery left `namespace gflags =` to swallow the next namespace's name)."""
    (tmp_path / "common.h").write_text("""#pragma once
#include <gflags/gflags.h>
namespace gflags = google;
namespace cv { class Mat; }
namespace proj {
using boost::shared_ptr;
#define TILE 64
__device__ inline float twice(float x) { return 2.0f * x; }
}  // namespace proj
using proj::twice;
""")
    (tmp_path / "k.cu").write_text('#include "common.h"\n' + TILE_KERNEL + "int main() { k<<<1, TILE>>>(0); }\n")
    res = analyze(tmp_path / "k.cu")
    assert res.paths["k"].startswith("libclang") and "sync.missing" in _rules(res)
    assert "analysis.incomplete" not in _rules(res)


def test_a_project_may_name_its_own_namespace_cuda(tmp_path):
    """libcu++'s `cuda::` names are declared where a file includes a `<cuda/...>` header, CUB or Thrust, as with the
    toolkit: a project's own `namespace cuda = nvcv::cuda;` (CV-CUDA) or a `cuda` namespace it reaches through
    `using namespace nvcv;` is no redefinition or ambiguity (every kernel of 27 CV-CUDA files had fallen back to
    tree-sitter); a file naming `cuda::atomic_ref` with no include still reads it."""
    lib = """namespace nvcv { namespace cuda {
template <class T> struct TypeTraits { static constexpr int max = 255; };
template <class T> __device__ T Twice(T x) { return 2 * x; }
} }
"""
    kernel = """#define TILE 64
__global__ void k(float* out) {
  __shared__ float s[TILE];
  s[threadIdx.x] = SCALE * out[threadIdx.x];
  out[threadIdx.x] = s[(threadIdx.x + 1) % TILE];
}
int main() { k<<<1, TILE>>>(0); }
"""
    alias = lib + "namespace cuda = nvcv::cuda;\n" + kernel.replace("SCALE", "cuda::TypeTraits<int>::max")
    (tmp_path / "alias.cu").write_text(alias)
    res = analyze(tmp_path / "alias.cu")
    assert res.paths["k"].startswith("libclang") and "sync.missing" in _rules(res), res.paths
    assert "analysis.incomplete" not in _rules(res)
    used = lib + "using namespace nvcv;\n" + kernel.replace("SCALE", "cuda::Twice(1.0f)")
    (tmp_path / "using.cu").write_text(used)
    res = analyze(tmp_path / "using.cu")
    assert res.paths["k"].startswith("libclang") and "analysis.incomplete" not in _rules(res), res.paths
    atomics = """__global__ void count(int *hits, const int *keys) {
  cuda::atomic_ref<int, cuda::thread_scope_device> h(hits[keys[threadIdx.x]]);
  h.fetch_add(1, cuda::memory_order_relaxed);
}
int main() { count<<<1, 64>>>(0, 0); }
"""
    (tmp_path / "atomics.cu").write_text(atomics)
    res = analyze(tmp_path / "atomics.cu")
    assert res.paths["count"].startswith("libclang"), res.paths
    assert "analysis.incomplete" not in _rules(res), res.diagnostics


def test_a_header_of_an_enclosing_project_is_found_by_name(tmp_path):
    """A kernel folder with its own Makefile (MAGMA's `sparse/blas/`) includes a header of an enclosing project's
    other folder (`sparse/control/magmasparse_internal.h`, which the top Makefile passes with -I): the one file of
    that name under the nearest enclosing folder with a build file is read."""
    (tmp_path / "Makefile").write_text("all:\n")
    (tmp_path / "sparse" / "control").mkdir(parents=True)
    (tmp_path / "sparse" / "blas").mkdir(parents=True)
    (tmp_path / "sparse" / "Makefile").write_text("all:\n")
    (tmp_path / "sparse" / "blas" / "Makefile").write_text("all:\n")
    (tmp_path / "sparse" / "control" / "internal.h").write_text(
        "#pragma once\n#define TILE 64\n__device__ inline float twice(float x) { return 2.0f * x; }\n")
    (tmp_path / "sparse" / "blas" / "k.cu").write_text('#include "internal.h"\n' + TILE_KERNEL +
                                                         "int main() { k<<<1, TILE>>>(0); }\n")
    res = analyze(tmp_path / "sparse" / "blas" / "k.cu")
    assert res.paths["k"].startswith("libclang") and "sync.missing" in _rules(res), res.paths
    assert "the only internal.h under sparse/" in res.paths["k"], res.paths


def test_toolkit_library_headers_bring_the_complex_types_and_half_math_reads_inside_extern_c(tmp_path):
    """As with the toolkit, <cublas_v2.h>, <cusparse.h> and <cufft.h> declare cuComplex.h's types (MAGMA's
    `typedef cuDoubleComplex magmaDoubleComplex;` after <cublas_v2.h>), and <cuda_fp16.h> included inside
    `extern "C" { }` (MAGMA's magma_types.h) declares its operators and math as C++ functions."""
    src = """#include <cublas_v2.h>
#ifdef __cplusplus
extern "C" {
#endif
#include <cuda_fp16.h>
typedef cuDoubleComplex zcomplex;
typedef __half hreal;
#ifdef __cplusplus
}
#endif
__global__ void k(zcomplex *out, const hreal *h) {
  __shared__ zcomplex s[64];
  s[threadIdx.x] = make_cuDoubleComplex(__half2float(__hmax(h[threadIdx.x], h[0])), 0.0);
  out[threadIdx.x] = s[(threadIdx.x + 1) % 64];
}
int main() { k<<<1, 64>>>(0, 0); }
"""
    (tmp_path / "k.cu").write_text(src)
    res = analyze(tmp_path / "k.cu")
    assert res.paths["k"].startswith("libclang") and "sync.missing" in _rules(res), res.paths
    assert "analysis.incomplete" not in _rules(res), res.diagnostics


def test_a_helper_headers_device_function_that_does_not_parse_costs_only_itself(tmp_path):
    """A `__host__ __device__` helper naming what a system header kopt does not have declares (`TICKS_PER_SEC`) is
    left out alone: the header's macros and its other device functions stay, and so does the libclang path of the
    kernels that do not call it (the header was left out through its `#include` before, with every macro)."""
    (tmp_path / "helpers.h").write_text("""#pragma once
#include <sys/ticks.h>
#define TILE 64
__host__ __device__ inline unsigned elapsed(long t) { return (unsigned)(t / TICKS_PER_SEC); }
__device__ inline float twice(float x) { return 2.0f * x; }
""")
    (tmp_path / "k.cu").write_text('#include "helpers.h"\n' + TILE_KERNEL + """
__global__ void timed(unsigned* out, long t) { out[threadIdx.x] = elapsed(t); }
int main() { k<<<1, TILE>>>(0); timed<<<1, TILE>>>(0, 0); }
""")
    res = analyze(tmp_path / "k.cu")
    assert res.paths["k"].startswith("libclang") and "sync.missing" in _rules(res)
    assert res.paths["timed"].startswith("tree-sitter")  # the kernel that calls the helper falls back alone


def test_the_c_clock_names_are_declared():
    src = """#include <time.h>
#include <ctime>
__host__ __device__ inline unsigned ms(clock_t t) { return (unsigned)(1000.0f * t / CLOCKS_PER_SEC); }
__global__ void k(unsigned *out, long t) { out[threadIdx.x] = ms(t); }
"""
    res = analyze(src, path="k.cu", block=(64, 1, 1), grid=(1, 1, 1))
    assert res.paths["k"] == "libclang" and "analysis.incomplete" not in _rules(res)


def test_device_side_launches_and_ptx_special_registers_do_not_stop_libclang():
    src = """
__global__ void child(int* p) { p[threadIdx.x] = 1; }
__device__ __forceinline__ unsigned long long now() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %globaltimer;" : "=l"(t));
  return t;
}
__global__ void parent(int* p) {
  if (threadIdx.x == 0) child<<<1, 64>>>(p);
  p[64 + threadIdx.x] = (int)now();
  cudaError_t e = cudaPeekAtLastError();
}
"""
    res = analyze(src, path="cdp.cu", block=(32, 1, 1))
    assert res.paths == {"child": "libclang", "parent": "libclang"}
    assert "analysis.incomplete" not in _rules(res)


def test_ptx_registers_an_asm_statement_declares_do_not_stop_libclang():
    # (a warp scan in inline PTX with its own registers, as nvcc takes them; `a%b` outside asm is left alone)
    src = """
__device__ __forceinline__ unsigned scan(unsigned sum) {
  for (unsigned off = 1; off < 32; off <<= 1)
    asm("{ .reg.b32 %v; .reg.pred %did;"
        "  shfl.sync.up.b32 %v|%did, %0, %1, 0, 0xffffffff;"
        "  @%did add.u32 %0, %0, %v;"
        "}" : "+r"(sum) : "r"(off));
  return sum;
}
__global__ void k(unsigned* p, int b) { p[threadIdx.x] = scan(p[threadIdx.x]) + threadIdx.x%b; }
"""
    res = analyze(src, path="scan.cu", block=(32, 1, 1))
    assert res.paths == {"k": "libclang"}, res.paths
    assert "analysis.incomplete" not in _rules(res)


def test_a_kernel_header_sees_the_device_functions_its_includer_defines_first(tmp_path):
    (tmp_path / "main.cu").write_text('#include <helper_cuda.h>\ntypedef unsigned int TColor;\n'
                                      'float host_only(std::vector<float>& v) { return v[0]; }\n'
                                      '__device__ TColor pack(float r) { return (TColor)(r * 255.0f); }\n'
                                      '#include "kern.cuh"\nint main() { return 0; }\n')
    (tmp_path / "kern.cuh").write_text("__global__ void k(TColor* out) {\n  out[threadIdx.x] = pack(0.5f);\n}\n")
    res = analyze(tmp_path / "kern.cuh", block=(64, 1, 1))
    assert res.paths["k"].startswith("libclang") and "read after the declarations of main.cu" in res.paths["k"]
    assert "analysis.incomplete" not in _rules(res)


SCALE = "__global__ void scale(fp *x) { x[blockIdx.x * blockDim.x + threadIdx.x] *= (fp)2; }\n"


def test_a_kernel_file_is_read_after_whichever_includer_declares_its_types(tmp_path):
    # include.h includes the kernel without the type; main.cu declares it first (through define.c, a .c file)
    (tmp_path / "define.c").write_text("#define fp float\n")
    (tmp_path / "include.h").write_text('#include "kern.cu"\n')
    (tmp_path / "main.cu").write_text('#include "define.c"\n#include "kern.cu"\nint main() { return 0; }\n')
    (tmp_path / "kern.cu").write_text(SCALE)
    res = analyze(tmp_path / "kern.cu")
    assert res.paths["scale"].startswith("libclang (read after the declarations of main.cu")


def test_a_kernel_file_included_through_another_file_is_read_after_both(tmp_path):
    (tmp_path / "define.c").write_text("typedef float fp;\n")
    (tmp_path / "main.cu").write_text('#include "define.c"\n#include "work.cu"\nint main() { return 0; }\n')
    (tmp_path / "work.cu").write_text('#include "kern.cu"\n')
    (tmp_path / "kern.cu").write_text(SCALE)
    res = analyze(tmp_path / "kern.cu")
    assert res.paths["scale"].startswith("libclang (read after the declarations of main.cu (through work.cu)")


def test_a_kernel_file_included_under_a_condition_through_another_file_is_read_after_both(tmp_path):
    # main.cu > moves.cpp > kernels.cu, the last include under `#ifdef USE_GPU` (main.cu defines it): the barrier
    # macro and the type main.cu defines are known, so the write before SYNC and the read after it do not race
    (tmp_path / "main.cu").write_text('#define USE_GPU\n#define myInt short\n#define SYNC __syncthreads()\n'
                                      '#include "moves.cpp"\nint main() { return 0; }\n')
    (tmp_path / "moves.cpp").write_text('#ifdef USE_GPU\n#ifndef KERNELS\n#include "kernels.cu"\n#endif\n#endif\n')
    (tmp_path / "kernels.cu").write_text("#define KERNELS\n__global__ void k(myInt *out) {\n  __shared__ myInt flag;\n"
                                         "  if (threadIdx.x == 0) flag = 1;\n  SYNC;\n  out[blockIdx.x * 32 + threadIdx.x] = flag;\n}\n")
    res = analyze(tmp_path / "kernels.cu", block=(32, 1, 1))
    assert res.paths["k"].startswith("libclang (read after the declarations of main.cu (through moves.cpp)")
    assert not [d for d in res.diagnostics if d.rule.startswith(("race", "sync"))]


def test_an_angled_include_of_a_file_beside_it_and_a_macro_pasted_on_a_string(tmp_path):
    (tmp_path / "common.cu").write_text("#define fp float\n#define FMT \"%d\"\n")
    (tmp_path / "kern.cu").write_text(
        "#include <common.cu>\n__device__ void say(int i) { printf(\"i=\"FMT\"\\n\", i); }\n" + SCALE)
    res = analyze(tmp_path / "kern.cu")
    assert res.paths["scale"] == "libclang"


def test_library_names_nvcc_makes_visible_are_declared():
    # <math.h>/<float.h>/<limits.h> constants, <type_traits>, std's math, bfloat16 and fp8 types, the pre-CUDA 9
    # warp votes and CUB headers at any depth (each read by libclang, not the fallback)
    src = """
#include <cmath>
#include <cub/util_type.cuh>
template <typename T> struct Larger {
  __device__ typename std::common_type<T, float>::type operator()(T a, float b) const { return a > b ? a : b; }
};
__global__ void k(float *out, const float *in) {
  float v = in[threadIdx.x] * (float)M_PI + FLT_EPSILON;
  unsigned votes = __ballot(v > 0.f);
  if (std::is_same<decltype(v), float>::value && v < std::numeric_limits<float>::max())
    out[blockIdx.x * 256 + threadIdx.x] = Larger<float>()(v, (float)votes);
}
__global__ void narrow(__nv_fp8x4_e4m3 *q, const __nv_bfloat162 *x, int n) {
  __nv_bfloat162 a = __hmul2(x[2 * threadIdx.x], __float2bfloat162_rn(std::sqrt(2.0f) + sqrt(n)));
  static_assert(std::is_pointer<decltype(q)>::value, "");
  q[threadIdx.x] = __nv_fp8x4_e4m3(a, x[2 * threadIdx.x + 1]);
}
#include <sys/types.h>
__global__ void offsets(uint *out, uint start) {
  off_t at = blockIdx.x * blockDim.x + threadIdx.x - start;
  out[at] = (uint)at;
}
"""
    res = analyze(src, path="names.cu", block=(256, 1, 1))
    assert res.paths == {"k": "libclang", "narrow": "libclang", "offsets": "libclang"}
    assert "analysis.incomplete" not in _rules(res)


def test_cucomplex_arithmetic_is_declared_and_modelled():
    # <cuComplex.h>'s pair types and functions: each thread's product goes to its own element (clean), and every
    # thread's sum to element 0 (a race, found only when the values are read through the pair's members)
    src = """
#include <cuComplex.h>
__global__ void k(cuDoubleComplex *out, const cuFloatComplex *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  cuFloatComplex a = cuCmulf(in[i], cuConjf(in[i]));
  out[%s] = cuCadd(cuComplexFloatToDouble(a), make_cuDoubleComplex(cuCrealf(a), cuCabsf(a)));
}
"""
    clean = analyze(src % "i", path="complex.cu", block=(128, 1, 1))
    assert clean.paths["k"] == "libclang" and not _rules(clean) & {"race.global", "analysis.incomplete"}
    assert "race.global" in _rules(analyze(src % "0", path="complex.cu", block=(128, 1, 1)))


def test_a_cub_collective_in_a_template_helper_is_modelled():
    # the dependent form: `R(storage).Sum(v)` with R a typedef of cub::BlockReduce<T, N> in a function template
    helper = """
#include <cub/cub.cuh>
template <typename T> __device__ void block_sum(T &v) {
  typedef cub::BlockReduce<T, 128> R;
  __shared__ typename R::TempStorage storage;
  v = R(storage).Sum(v);
}
__global__ void k(const int *in, int *out) {
  int a = in[blockIdx.x * 128 + threadIdx.x], b = a * a;
  block_sum(a);
  %s
  block_sum(b);
  if (threadIdx.x == 0) { out[2 * blockIdx.x] = a; out[2 * blockIdx.x + 1] = b; }
}
"""
    racy = analyze(helper % "", path="cub_helper.cu", block=(128, 1, 1), grid=(4, 1, 1))
    assert racy.paths["k"] == "libclang" and "race.shared" in _rules(racy)
    fixed = analyze(helper % "__syncthreads();", path="cub_helper.cu", block=(128, 1, 1), grid=(4, 1, 1))
    assert not _rules(fixed) & {"race.shared", "race.global", "analysis.incomplete"}


def test_nvcc_version_macros_select_the_branch_nvcc_compiles():
    src = """
__global__ void k(int *out) {
  __shared__ int s[64];
  s[threadIdx.x] = threadIdx.x;
#if CUDART_VERSION >= 9000 && defined(__NVCC__)
  __syncthreads();
#endif
  out[threadIdx.x] = s[63 - threadIdx.x];
}
"""
    for frontend in ("libclang", "tree-sitter"):
        res = analyze(src, path="v.cu", block=(64, 1, 1), frontend=frontend)
        assert res.frontend == frontend and "sync.missing" not in _rules(res), frontend


def test_a_cub_load_with_the_default_algorithm_has_no_barrier():
    # BlockLoad's default algorithm (BLOCK_LOAD_DIRECT) moves no data between threads: no barrier, so calling it
    # under a thread-dependent branch is fine; the transposing algorithm waits at one
    src = """
#include <cub/cub.cuh>
template <typename T> __device__ void load_tile(const T *in, T (&items)[4], int valid) {
  typedef cub::BlockLoad<T, 128, 4%s> Load;
  Load().Load(in, items, valid);
}
__global__ void k(const int *in, int *out, int n) {
  int items[4];
  if (threadIdx.x < 64) load_tile(in + blockIdx.x * 512, items, n - blockIdx.x * 512);
  out[blockIdx.x * 128 + threadIdx.x] = items[0];
}
"""
    direct = analyze(src % "", path="cub_load.cu", block=(128, 1, 1), grid=(8, 1, 1))
    assert "barrier.divergent" not in _rules(direct) and "analysis.incomplete" not in _rules(direct)
    transpose = analyze(src % ", cub::BLOCK_LOAD_TRANSPOSE", path="cub_load.cu", block=(128, 1, 1), grid=(8, 1, 1))
    assert "barrier.divergent" in _rules(transpose)


def test_toolkit_intrinsics_the_declarations_leave_out_are_read_from_the_cuda_headers():
    # SIMD video intrinsics, half and bfloat16 conversions and math, `long4`/`ulong4`, C++17's removed `register`,
    # narrowing in braces: nvcc compiles all of them; each kernel is read by libclang (its prototypes from the installed CUDA headers)
    src = """
#include <cuda_fp16.h>
#include <cuda_bf16.h>
__global__ void simd(unsigned *out, const unsigned *in) {
  register unsigned v = in[threadIdx.x];
  int scaled[1] = {v * 0.5};  // a narrowing list-initialization: nvcc warns
  out[threadIdx.x] = __vabs2(v) + __vsetgtu4(v, 7u) + scaled[0];
}
__global__ void halves(int *out, const __half *h, const __nv_bfloat16 *b, const ulong4 *w) {
  __half f = hfloor(hlog2(h[threadIdx.x]));
  out[threadIdx.x] = __half2int_rn(f) + __bfloat162int_rn(b[threadIdx.x]) + (int)w[threadIdx.x].w;
}
"""
    res = analyze(src, path="intrinsics.cu", block=(256, 1, 1))
    assert res.paths == {"simd": "libclang", "halves": "libclang"} and "analysis.incomplete" not in _rules(res)


def test_names_the_build_defines_come_from_its_makefile(tmp_path):
    # -DWARP_SIZE=32 and -DVALUE_TYPE=double are the Makefile's; its -DDEBUG is not taken (no name is undeclared
    # for it: it would switch an #ifdef), nor a name the build files give two values (an integer constant of any
    # value instead)
    (tmp_path / "Makefile").write_text(
        "CFLAGS := -O3 -DWARP_SIZE=32 \\\n  -DVALUE_TYPE=double -DDEBUG\nifeq ($(X),1)\n  CFLAGS += -DTILE=8\nelse\n"
        "  CFLAGS += -DTILE=16\nendif\n")
    (tmp_path / "kern.cu").write_text("""
__global__ void reduce(VALUE_TYPE *out, const VALUE_TYPE *in) {
  __shared__ VALUE_TYPE s[8 * WARP_SIZE];
  s[threadIdx.x] = in[threadIdx.x];
#ifdef DEBUG
  s[0] = 0;
#endif
  __syncthreads();
  if (threadIdx.x % WARP_SIZE == 0) out[blockIdx.x * 8 + threadIdx.x / WARP_SIZE] = s[threadIdx.x + 1];
}
__global__ void tiled(float *out) { out[blockIdx.x * blockDim.x + threadIdx.x] = TILE; }
""")
    res = analyze(tmp_path / "kern.cu", block=(256, 1, 1))
    assert res.paths["reduce"].startswith("libclang (`-DVALUE_TYPE=double` from Makefile; `-DWARP_SIZE=32` from "
                                          "Makefile; `TILE` given no one value by the sources or the build files")
    assert res.paths["tiled"] == res.paths["reduce"] and "-DTILE" not in res.paths["tiled"]
    assert not [d for d in res.diagnostics if d.rule.startswith("race")]  # DEBUG's store to s[0] is not compiled
    (tmp_path / "Makefile").unlink()
    res = analyze(tmp_path / "kern.cu", block=(256, 1, 1))
    assert res.paths["reduce"].startswith("tree-sitter")


def test_a_header_a_configure_step_writes_is_read_from_its_template(tmp_path):
    # config.h exists only after CMake's configure_file: kopt writes it from cmake/config.h.in with the values the
    # CMake files set (an option's default; a variable no CMake file sets is 0), and says so on the path line
    (tmp_path / "CMakeLists.txt").write_text('set(TILE_W 32)\noption(USE_FAST "fast path" ON)\n')
    (tmp_path / "cmake").mkdir()
    (tmp_path / "cmake" / "config.h.in").write_text(
        "#pragma once\n#define IS_ON(F) F() == 1\n#define HAVE_SHFL() @HAVE_SHFL@\n#define TILE ${TILE_W}\n"
        "#cmakedefine USE_FAST\n#cmakedefine01 USE_SLOW\n")
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "k.cu").write_text("""#include "config.h"
#if IS_ON(HAVE_SHFL) || USE_SLOW
#error not this branch
#endif
#ifdef USE_FAST
__global__ void k(float* out) {
  __shared__ float s[TILE];
  s[threadIdx.x] = out[threadIdx.x];
  __syncthreads();
  out[threadIdx.x] = s[TILE - 1 - threadIdx.x];
}
#endif
""")
    res = analyze(tmp_path / "src" / "k.cu", block=(32, 1, 1))
    assert res.kernels == ["k"] and res.paths["k"].startswith("libclang")
    assert "`config.h` configured from ../cmake/config.h.in (HAVE_SHFL, USE_SLOW set by no CMake file: 0)" in \
        res.paths["k"]
    assert not [d for d in res.diagnostics if d.rule in ("bounds.shared", "analysis.incomplete")]


def test_a_device_variable_a_header_declares_is_memory(tmp_path):
    # `dbuf` is declared in the header (defined in another file): its pointer field is a buffer of its own, so the
    # store through it is placed, and a kernel that writes the counter the header declares races on it
    (tmp_path / "bufs.h").write_text(
        "struct Desc { float features[128]; };\nstruct Bufs { Desc* desc; int n; };\n"
        "extern __device__ Bufs dbuf;\nextern __device__ int counter;\n")
    (tmp_path / "k.cu").write_text("""#include "bufs.h"
__global__ void k(int o) {
  Desc* d = &dbuf.desc[o + blockIdx.x];
  if (threadIdx.x < 128) d->features[threadIdx.x] = 1.f;
}
__global__ void count(int* out) { counter = threadIdx.x; out[0] = counter; }
""")
    res = analyze(tmp_path / "k.cu", block=(128, 1, 1))
    assert not [d for d in res.diagnostics if d.rule == "analysis.incomplete"]
    (race,) = [d for d in res.diagnostics if d.rule == "race.global"]
    assert race.witness["kernel"] == "count" and "`counter = threadIdx.x`" in race.message


def test_the_type_traits_library_headers_assert_are_declared():
    # glm asserts these of its vector types at namespace scope; a file that includes it is read by libclang
    res = analyze("""#include <type_traits>
struct V { float x, y; };
static_assert(std::is_trivially_copyable<V>::value, "");
static_assert(std::is_trivially_default_constructible<V>::value, "");
static_assert(std::is_trivially_copy_assignable<V>::value && std::is_copy_constructible<V>::value, "");
__global__ void k(V* v) { v[threadIdx.x].x = 1.f; }
""", path="k.cu")
    assert res.paths["k"].startswith("libclang")


def test_the_toolkit_device_functions_of_current_llm_kernels_are_declared():
    # half and bfloat16 conversions, packing and comparisons, e8m0 scales and four-bit floats (CUDA 12.8), byte dot
    # products and SIMD, funnel shifts, programmatic dependent launch, and a vector made in a host function: each
    # was an undeclared name that sent whole files (quantized GEMMs, KV caches) to the syntax-only fallback
    res = analyze("""#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <cuda_fp8.h>
#include <cuda_fp4.h>
static __host__ uint3 divisor(unsigned d) { return make_uint3(1u, 2u, d); }
__global__ void k(half* h, nv_bfloat16* b, const int* q, const unsigned char* e, float* f) {
  cudaGridDependencySynchronize();
  int i = threadIdx.x;
  half2 p = __half2half2(__int2half_rn(q[i])) ;
  p = __lowhigh2highlow(__hmax2(p, make_half2(h[0], h[1])));
  bool lt = __hblt2(p, p) || __hltu(h[i], h[0]);
  b[i] = __float2bfloat16_rz(__uint2float_rn(__vsubss4(q[i], 0x01010101)) + __dp4a(q[i], q[i + 1], 0));
  nv_bfloat16 s = __nv_cvt_e8m0_to_bf16raw(e[i]);
  __nv_fp4x4_e2m1 four(make_float4(1.f, 2.f, 3.f, 4.f));
  __half2_raw lo = __nv_cvt_fp4x2_to_halfraw2((__nv_fp4x2_storage_t) four.__x, __NV_E2M1);
  f[i] = (float) s + __half2float(__ushort_as_half(lo.x)) + __funnelshift_rc(q[i], q[i], 3) + lt;
  cudaTriggerProgrammaticLaunchCompletion();
}
""", path="k.cu")
    assert res.paths["k"] == "libclang", res.paths


def test_a_file_that_declares_no_kernel_is_not_parsed(tmp_path):
    # a header of host code that does not parse and no kernel: no kernels, no note (its includers' parses read it)
    (tmp_path / "host.h").write_text("#include <tuple>\nstd::tuple<int, float> f(); broken code here\n")
    res = analyze(tmp_path / "host.h")
    assert res.kernels == [] and res.assumed == "no __global__ kernels found" and not res.diagnostics
    # a kernel declared through a macro a header defines is still found
    (tmp_path / "qual.h").write_text("#define KERNEL __global__\n")
    (tmp_path / "k.cu").write_text('#include "qual.h"\nKERNEL void k(float* x) { x[threadIdx.x] = 0.f; }\n')
    assert analyze(tmp_path / "k.cu").kernels == ["k"]


def test_a_switch_the_build_defines_is_taken_when_its_branch_defines_an_undeclared_name(tmp_path):
    # `-DDIM3` switches the header's `#ifdef DIM3` branch, which defines the FIELDS the kernel uses; the build's
    # -DDEBUG switches nothing the kernel needs and stays off (its racy store is not compiled)
    (tmp_path / "Makefile").write_text("N ?= 4\nINCLUDES = -Dp_N=$(N) -DDIM3 -DDEBUG -I./include\n")
    (tmp_path / "include").mkdir()
    (tmp_path / "include" / "mesh.h").write_text(
        "#ifdef DIM2\n#define FIELDS 3\n#endif\n#ifdef DIM3\n#define FIELDS 6\n#endif\n")
    (tmp_path / "k.cu").write_text("""#include "mesh.h"
__global__ void vol(float *q) {
  __device__ __shared__ float s[FIELDS * 64];
  s[threadIdx.x] = q[threadIdx.x];
#ifdef DEBUG
  s[0] = 1.f;
#endif
  __syncthreads();
  q[threadIdx.x] = s[(FIELDS - 1) * 64 + threadIdx.x];
}
""")
    res = analyze(tmp_path / "k.cu", block=(64, 1, 1), grid=(1, 1, 1))
    assert res.paths["vol"].startswith("libclang") and "`-DDIM3=1` from Makefile" in res.paths["vol"]
    assert "DEBUG" not in res.paths["vol"] and not [d for d in res.diagnostics if d.rule.startswith("race")]
    assert not [d for d in res.diagnostics if d.rule == "analysis.incomplete"]


def test_a_switch_the_build_defines_is_taken_when_its_branch_defines_a_function_the_kernel_calls(tmp_path):
    # MCX: `updatestokes` is defined under `#ifdef SAVE_DETECTORS`, which its Makefile passes; the kernel calls it
    (tmp_path / "Makefile").write_text("CUCCOPT += -DUSE_ATOMIC -DSAVE_DETECTORS\n")
    (tmp_path / "k.cu").write_text("""#ifdef SAVE_DETECTORS
__device__ inline void update(float *s, float v) {
  s[threadIdx.x] += v;
}
#endif
__global__ void walk(float *q) {
  update(q + blockIdx.x * blockDim.x, 1.f);
}
""")
    res = analyze(tmp_path / "k.cu", block=(64, 1, 1))
    assert res.paths["walk"].startswith("libclang") and "`-DSAVE_DETECTORS=1` from Makefile" in res.paths["walk"]
    assert "USE_ATOMIC" not in res.paths["walk"]


def test_std_array_and_the_algorithms_host_helpers_of_a_kernel_header_call(tmp_path):
    # an accessor header (PyTorch's style): std::array sizes, a host constructor that copies with std::copy and
    # std::begin, a transpose with std::swap; the kernel tests std::isinf on a double
    (tmp_path / "acc.h").write_text("""#include <array>
#include <algorithm>
#include <cmath>
template <typename T, size_t N> struct Acc {
  T* data_; std::array<long, N> sizes_;
  __host__ Acc(T* d, const long* s) : data_(d) { std::copy(s, s + N, std::begin(sizes_)); }
  __host__ void transpose(int a, int b) { std::swap(sizes_[a], sizes_[b]); }
  __device__ T& operator[](long i) { return data_[i]; }
};
template <typename T, size_t N> using Acc64 = Acc<T, N>;
""")
    (tmp_path / "k.cu").write_text('#include "acc.h"\n__global__ void k(Acc64<double, 1> a, double* out) {\n'
                                   "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                                   "  out[i] = std::isinf(a[i]) ? 0.0 : a[i];\n}\n")
    res = analyze(tmp_path / "k.cu", block=(128, 1, 1))
    assert res.paths == {"k": "libclang"}


def test_a_host_library_header_and_a_wrappers_host_members_do_not_cost_the_kernels_their_parse(tmp_path):
    # hash.h, which table.h includes: a host-only library whose templates clang's recovery cuts apart (no device
    # code: read empty, where leaving it out would leave out table.h with it);
    # table.h: a RAII wrapper whose host constructor calls the runtime with a typed pointer and launches a kernel,
    # beside the static __host__ __device__ constant the kernel reads (only the constructor is dropped)
    (tmp_path / "hash.h").write_text("""#include <functional>
namespace hood {
template <typename T> struct Pool { T* p; std::function<void(T)> f; };
#if HOOD(CXX) < HOOD(CXX17)
using std::swap;
#endif
}
""")
    (tmp_path / "table.h").write_text("""#pragma once
#include "hash.h"
template <typename K> __global__ void clear(K* keys, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) keys[i] = K(-1);
}
template <typename K> class Table {
 public:
  __host__ Table(int n) : n_(n) { cudaMalloc(&keys_, n * sizeof(K)); clear<<<(n + 255) / 256, 256>>>(keys_, n); }
  __host__ __device__ static constexpr K empty() { return K(-1); }
 private:
  K* keys_; int n_;
};
""")
    (tmp_path / "k.cu").write_text('#include "table.h"\n'
                                   "__global__ void mark(unsigned* keys, int* out, int n) {\n"
                                   "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                                   "  if (i < n) out[i] = keys[i] == Table<unsigned>::empty();\n}\n")
    res = analyze(tmp_path / "k.cu", block=(256, 1, 1))
    assert res.paths["mark"].startswith("libclang")


def test_stdint_limits_constant_macros_and_std_pair_are_declared():
    src = """#include <cstdint>
#include <utility>
__global__ void seeded(std::pair<uint64_t, uint64_t> seeds, uint32_t* out) {
  uint64_t x = seeds.first * UINT64_C(0x9E3779B97F4A7C15) + seeds.second;
  out[blockIdx.x * blockDim.x + threadIdx.x] = (uint32_t)(x % UINT32_MAX) + INT32_C(1) + (SIZE_MAX > 0);
}
"""
    res = analyze(src, path="seeded.cu", block=(128, 1, 1))
    assert res.paths == {"seeded": "libclang"}


def test_arithmetic_on_a_templates_dependent_types_is_read_as_arithmetic():
    # PyTorch's fused dropout: the bound is the count rounded up to the grid's stride, in the template's index
    # type; clang keeps the operators on dependent operands unresolved, and kopt reads them as the operators they
    # are (not opaque calls), so every thread makes the same passes and reaches the barrier
    src = """template <typename I>
__global__ void drop(float* b, const float* a, I total) {
  I idx = blockIdx.x * blockDim.x + threadIdx.x;
  I rounded = ((total - 1) / (blockDim.x * gridDim.x * 4) + 1) * blockDim.x * gridDim.x * 4;
  for (I li = idx; li < rounded; li += gridDim.x * blockDim.x * 4) {
    if (li < total) b[li] = a[li] * 2.0f;
    __syncthreads();
  }
}
template __global__ void drop<unsigned int>(float*, const float*, unsigned int);
"""
    res = analyze(src, path="drop.cu", block=(256, 1, 1), grid=(512, 1, 1))
    assert not [d for d in res.diagnostics if d.rule.startswith(("barrier", "race", "analysis"))]


def test_a_makefile_that_includes_the_suites_common_makefile_gives_its_include_folder(tmp_path):
    # apps/bfs/Makefile sets TOPLEVEL and includes ../common.mk, whose `-I $(TOPLEVEL)/include` (a path from the
    # app's folder, where make runs) holds the header the kernel's file includes
    (tmp_path / "include").mkdir()
    (tmp_path / "apps" / "bfs").mkdir(parents=True)
    (tmp_path / "include" / "defs.h").write_text("typedef unsigned foru;\n")
    (tmp_path / "apps" / "common.mk").write_text("INCLUDES := -I $(TOPLEVEL)/include\nEXTRA := $(INCLUDES)\n")
    (tmp_path / "apps" / "bfs" / "Makefile").write_text("TOPLEVEL := ../..\nAPP=bfs\ninclude ../common.mk\n")
    (tmp_path / "apps" / "bfs" / "main.cu").write_text(
        '#include "defs.h"\n__global__ void k(foru *x) { x[blockIdx.x * blockDim.x + threadIdx.x] = 1; }\n')
    res = analyze(tmp_path / "apps" / "bfs" / "main.cu", block=(128, 1, 1))
    assert res.paths["k"] == "libclang (`-I ../../include` from Makefile)", res.paths


def test_headers_the_builds_include_folders_hold_are_read(tmp_path):
    # src/k.cu includes "defs.h", which only the build's -I folder holds: make's `-I $(INC_DIR)` in the project's
    # Makefile, or CMake's target_include_directories; a -I folder kopt cannot resolve ($(CUDA_PATH)) is ignored
    (tmp_path / "include").mkdir()
    (tmp_path / "src").mkdir()
    (tmp_path / "include" / "defs.h").write_text("#define UNIT_TYPE unsigned int\n")
    (tmp_path / "src" / "k.cu").write_text(
        '#include "defs.h"\n__global__ void k(UNIT_TYPE *x) { x[blockIdx.x * blockDim.x + threadIdx.x] = 1; }\n')
    (tmp_path / "Makefile").write_text("INC_DIR = include\nFLAGS = -I$(CUDA_PATH)/include -I $(INC_DIR)\n"
                                       "bin/k: src/k.cu\n\tnvcc $(FLAGS) -o $@ $<\n")
    res = analyze(tmp_path / "src" / "k.cu", block=(128, 1, 1))
    assert res.paths["k"] == f"libclang (`-I ../include` from {tmp_path.name}/Makefile)"  # the folder above
    (tmp_path / "Makefile").unlink()
    (tmp_path / "CMakeLists.txt").write_text(
        "add_executable(k src/k.cu)\ntarget_include_directories(k PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/include)\n")
    res = analyze(tmp_path / "src" / "k.cu", block=(128, 1, 1))
    assert res.paths["k"] == f"libclang (`-I ../include` from {tmp_path.name}/CMakeLists.txt)"
    (tmp_path / "CMakeLists.txt").unlink()
    assert analyze(tmp_path / "src" / "k.cu", block=(128, 1, 1)).paths["k"].startswith("tree-sitter")


def test_a_builds_include_folder_outside_its_project_is_not_read(tmp_path):
    # darknet's Makefile passes -I/usr/local/cuda/include: on a machine with a CUDA toolkit there, its headers took
    # the place of kopt's declarations and no kernel parsed; a machine's folders are not the project's
    from analyzers import build_flags

    (tmp_path / "machine" / "include").mkdir(parents=True)
    (tmp_path / "proj" / "include").mkdir(parents=True)
    (tmp_path / "proj" / "src").mkdir()
    (tmp_path / "proj" / "Makefile").write_text(
        f"FLAGS = -I{tmp_path}/machine/include -I{tmp_path}/proj/include -I include\n")
    got = [d for d, _ in build_flags.include_dirs_for(tmp_path / "proj" / "src" / "k.cu")]
    assert got == [(tmp_path / "proj" / "include").resolve()]


def test_inline_asm_in_a_header_is_read_as_nvcc_reads_it(tmp_path):
    # a utility header's lane-mask helper reads the PTX special register %lanemask_lt, which clang takes for an
    # operand reference: rewritten in headers as in the file itself, the kernel that calls it parses
    (tmp_path / "util.h").write_text(
        '__device__ __inline__ unsigned lanemask_lt() { unsigned r; asm("mov.u32 %0, %lanemask_lt;" : "=r"(r)); '
        'return r; }\n')
    (tmp_path / "k.cu").write_text('#include "util.h"\n'
                                   '__global__ void k(unsigned *x) { x[threadIdx.x] = __popc(lanemask_lt()); }\n')
    res = analyze(tmp_path / "k.cu", block=(128, 1, 1))
    assert res.paths["k"].startswith("libclang"), res.paths


def test_functions_a_header_defines_inside_the_files_namespace_are_inlined(tmp_path):
    # nvdiffrast's rasterizer: `namespace CR { #include "BinRaster.inl" }`, then kernels calling CR::binRasterImpl;
    # the header's functions sit under the file's own namespace declaration, and the race in one is found
    (tmp_path / "Impl.inl").write_text(
        "__device__ void stepImpl(float *out) {\n  __shared__ float s[256];\n  s[threadIdx.x] = out[threadIdx.x];\n"
        "  out[threadIdx.x] = s[(threadIdx.x + 1) % 256];\n}\n")
    (tmp_path / "k.cu").write_text('namespace CR {\n#include "Impl.inl"\n}\n'
                                   "__global__ void step(float *out) { CR::stepImpl(out); }\n")
    res = analyze(tmp_path / "k.cu", block=(256, 1, 1))
    assert res.paths["step"].startswith("libclang"), res.paths
    assert [d.rule for d in res.diagnostics if d.rule.startswith(("race", "sync"))] == ["sync.missing"]


def test_a_torch_complex_value_is_constructed_and_computed_with(tmp_path):
    # mamba's selective scan: `complex_t(re, im)` and complex arithmetic on c10::complex<float>
    (tmp_path / "k.cu").write_text(
        "#include <c10/util/complex.h>\nusing complex_t = c10::complex<float>;\n"
        "__global__ void k(float *out, const float *in) {\n  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
        "  complex_t z = complex_t(in[2 * i], in[2 * i + 1]) * 2.0f;\n  z += complex_t(1.f, 0.f);\n"
        "  out[i] = (z * z).real_ + z.imag();\n}\n")
    res = analyze(tmp_path / "k.cu", block=(128, 1, 1))
    assert res.paths["k"] == "libclang", res.paths


def test_an_automake_projects_include_folder_and_headers_are_read(tmp_path):
    # ccminer-style: kernels in algo/ include "helper.h", which only the project root holds; the root's Makefile.am
    # passes `-I.` to nvcc (automake's file is make syntax); without it, configure.ac marks the project whose one
    # helper.h is taken by name
    (tmp_path / "algo").mkdir()
    (tmp_path / "helper.h").write_text("#define UNIT_TYPE unsigned int\n")
    (tmp_path / "configure.ac").write_text("AC_INIT([proj], [1.0])\n")
    k = tmp_path / "algo" / "k.cu"
    k.write_text('#include "helper.h"\n'
                 '__global__ void k(UNIT_TYPE *x) { x[blockIdx.x * blockDim.x + threadIdx.x] = 1; }\n')
    (tmp_path / "Makefile.am").write_text("nvcc_FLAGS = $(nvcc_ARCH) @CUDA_INCLUDES@ -I. @CUDA_CFLAGS@\n")
    assert analyze(k, block=(128, 1, 1)).paths["k"] == f"libclang (`-I ..` from {tmp_path.name}/Makefile.am)"
    (tmp_path / "Makefile.am").unlink()
    assert analyze(k, block=(128, 1, 1)).paths["k"] == \
        f"libclang (`-I ..` from the only helper.h under {tmp_path.name}/)"
    (tmp_path / "configure.ac").unlink()
    assert analyze(k, block=(128, 1, 1)).paths["k"].startswith("tree-sitter")


def test_a_header_the_project_holds_once_is_found_by_name(tmp_path):
    # a PyTorch-extension project passes its include folders from Python
    # (`load(extra_cuda_cflags=[f"-I {root}/utils"])`), which kopt does not read: the one defs.h under the project
    # (the folder with setup.py) is taken, and said
    proj = tmp_path / "proj"
    (proj / "utils").mkdir(parents=True)
    (proj / "mma" / "basic").mkdir(parents=True)
    (proj / "setup.py").write_text("")
    (proj / "utils" / "defs.h").write_text("#define UNIT_TYPE unsigned int\n")
    k = proj / "mma" / "basic" / "k.cu"
    k.write_text('#include "defs.h"\n'
                 '__global__ void k(UNIT_TYPE *x) { x[blockIdx.x * blockDim.x + threadIdx.x] = 1; }\n')
    res = analyze(k, block=(128, 1, 1))
    assert res.paths["k"] == "libclang (`-I ../../utils` from the only defs.h under proj/)"
    (proj / "mma" / "defs.h").write_text("#define UNIT_TYPE int\n")  # two files of the name: no guess
    assert analyze(k, block=(128, 1, 1)).paths["k"].startswith("tree-sitter")
    (proj / "mma" / "defs.h").unlink()
    (proj / "setup.py").unlink()  # no project folder within two levels: nothing is searched
    assert analyze(k, block=(128, 1, 1)).paths["k"].startswith("tree-sitter")


def test_a_kernel_file_included_from_a_folder_above_is_read_with_its_includers_files(tmp_path, monkeypatch):
    # main.cu includes utils.cuh (lane()), kern/k.cu and host.cu: k.cu alone does not parse, and its launch is in
    # host.cu, in the folder above; with one warp every lane stores lane 0's value (no race), with any block the
    # warps' values differ
    (tmp_path / "kern").mkdir()
    (tmp_path / "utils.cuh").write_text("__device__ unsigned lane() { return threadIdx.x % 32; }\n")
    (tmp_path / "main.cu").write_text('#include "utils.cuh"\n#include "kern/k.cu"\n#include "host.cu"\n'
                                      "int main() { run(0); }\n")
    (tmp_path / "kern" / "k.cu").write_text("""
__global__ void root(unsigned *out, unsigned *counter) {
  unsigned v;
  if (lane() == 0) v = atomicAdd(counter, 1);
  v = __shfl_sync(0xffffffff, v, 0);
  *out = v;
}
""")
    (tmp_path / "host.cu").write_text("void run(unsigned *p) { root<<<1, 32>>>(p, p + 1); }\n")
    res = analyze(tmp_path / "kern" / "k.cu")
    assert res.paths["root"] == "libclang (read after the declarations of ../main.cu, which includes this file)"
    assert [l["block"] for l in res.launches] == [[32, 1, 1]] and "launch at ../host.cu:1" in res.assumed
    assert not [d for d in res.diagnostics if d.severity.rank >= 2], res.diagnostics
    monkeypatch.chdir(tmp_path / "kern")  # a relative path reads the same
    assert analyze("k.cu").paths["root"] == res.paths["root"]


def test_a_kernel_header_gathered_by_a_header_above_takes_the_launch_of_the_file_including_that_header(tmp_path):
    # include/k.cuh is included by kernels.cuh in the folder above, which utils.cu (beside it) includes and which
    # launches the kernel: the launch's block (64 threads) keeps the 64-element tile in bounds; with any block up
    # to the __launch_bounds__ it would not
    (tmp_path / "include").mkdir()
    (tmp_path / "include" / "k.cuh").write_text("""
__global__ __launch_bounds__(256) void k(float *x) {
  __shared__ float t[64];
  t[threadIdx.x] = x[threadIdx.x];
  __syncthreads();
  x[threadIdx.x] = t[63 - threadIdx.x];
}
""")
    (tmp_path / "kernels.cuh").write_text('#include "./include/k.cuh"\n')
    (tmp_path / "utils.cu").write_text('#include "kernels.cuh"\nvoid run(float *x) { k<<<1, 64>>>(x); }\n')
    res = analyze(tmp_path / "include" / "k.cuh")
    assert [l["block"] for l in res.launches] == [[64, 1, 1]] and "launch at ../utils.cu:2" in res.assumed
    assert not [d for d in res.diagnostics if d.severity.rank >= 2], res.diagnostics


def test_a_managed_variable_is_device_memory_the_kernel_reads_and_writes(tmp_path):
    # `__managed__` memory is reachable from device code: the kernel parses (host code assigning it is skipped) and
    # its plain increment by every thread is a race on global memory, the atomic one is not
    src = """
#include <cstdio>
__managed__ int total = 0;
__global__ void count() { total += 1; }
__global__ void count_atomic() { atomicAdd(&total, 1); }
int main() { count<<<4, 128>>>(); count_atomic<<<4, 128>>>(); cudaDeviceSynchronize(); total = 0; printf("%d", total); }
"""
    f = tmp_path / "managed.cu"
    f.write_text(src)
    res = analyze(f)
    assert res.paths["count"].startswith("libclang") and res.paths["count_atomic"].startswith("libclang"), res.paths
    races = [d for d in res.diagnostics if d.rule == "race.global"]
    assert [d.witness["kernel"] for d in races] == ["count"], races


def test_fixed_width_integers_are_the_lp64_types_nvcc_compiles_with():
    # on Linux uint64_t is `unsigned long`: a helper taking `unsigned long *` accepts its address
    src = """
#include <cstdint>
__host__ __device__ int pick(unsigned long *seed) { return (int)(*seed % 12); }
__global__ void k(int *out) {
  uint64_t seed = threadIdx.x;
  out[threadIdx.x] = pick(&seed) + __shfl_sync(0xffffffff, (int64_t)seed, 0);
}
"""
    res = analyze(src, path="lp64.cu", block=(32, 1, 1))
    assert res.paths == {"k": "libclang"} and "analysis.incomplete" not in _rules(res)


def test_device_heap_pitched_pointers_signedness_traits_and_ssize_t_are_declared():
    src = """
#include <type_traits>
template <typename T> __global__ void widen(const T *in, long *out, cudaPitchedPtr pp, int width) {
  using U = typename std::make_unsigned<T>::type;
  ssize_t i = blockIdx.x * blockDim.x + threadIdx.x;
  int *scratch = (int *)malloc(4 * sizeof(int));
  if (scratch) { scratch[0] = (int)i; free(scratch); }
  char *row = (char *)pp.ptr + blockIdx.y * pp.pitch;
  if (i < width) ((float *)row)[i] = (float)(U)in[i];
}
template __global__ void widen<int>(const int *, long *, cudaPitchedPtr, int);
"""
    res = analyze(src, path="w.cu", block=(128, 1, 1))
    assert res.paths["widen"].startswith("libclang"), res.paths
    assert not [d for d in res.diagnostics if d.rule == "analysis.incomplete"], res.diagnostics


def test_a_parameter_of_a_template_type_is_a_scalar_when_the_kernel_is_analyzed_generically():
    # no instantiation: index_t is unknown, yet `n` is compared and added like the integer it is (the loop runs a
    # multiple of the block's 256 threads, so every thread reaches the barrier equally often)
    src = """
template <typename index_t, typename value_t>
__global__ void tiles(const value_t *in, value_t *out, const index_t n) {
  __shared__ value_t tile[256];
  const index_t rounded = ((n + 255) / 256) * 256;
  value_t acc = 0;
  for (index_t j = threadIdx.x; j < rounded; j += 256) {
    tile[threadIdx.x] = j < n ? in[j] : 0;
    __syncthreads();
    acc += tile[(threadIdx.x + 1) % 256];
    __syncthreads();
  }
  out[blockIdx.x * 256 + threadIdx.x] = acc;
}
"""
    res = analyze(src, path="t.cu", block=(256, 1, 1))
    assert "generically" in res.assumed
    assert not [d for d in res.diagnostics if d.rule == "barrier.divergent"], res.diagnostics


def test_gnu_statement_expressions_are_read_as_their_last_value():
    # generated code (PPCG) writes min/max as `({ ...; _x < _y ? _x : _y; })`: a loop bound through it is uniform, and
    # an index through it is modelled (the second kernel's clamp makes threads 4 and up write one element)
    src = """
#define MIN(x, y) ({ __typeof__(x) _x = (x); __typeof__(y) _y = (y); _x < _y ? _x : _y; })
__global__ void tiles(const float *in, float *out) {
  __shared__ float t[32];
  for (int c = 0; c <= MIN(368, 32 * (int)blockIdx.x + 30); c += 32) {
    t[threadIdx.x] = in[c + threadIdx.x];
    __syncthreads();
    out[blockIdx.x * 32 + threadIdx.x] += t[31 - threadIdx.x];
    __syncthreads();
  }
}
__global__ void clamped(float *out) {
  out[MIN((int)threadIdx.x, 4)] = threadIdx.x;
}
"""
    res = analyze(src, path="p.cu", block=(32, 1, 1))
    assert res.paths == {"tiles": "libclang", "clamped": "libclang"}
    rules = {(d.rule, (d.witness or {}).get("kernel")) for d in res.diagnostics}
    assert ("barrier.divergent", "tiles") not in rules
    assert ("race.global", "clamped") in rules
    assert not [d for d in res.diagnostics if d.rule == "analysis.incomplete"]


def test_constexpr_helpers_using_std_abs_and_integer_limits_parse():
    src = """
#include <cmath>
#include <limits>
template <int D> __device__ __host__ constexpr short angle(float y, float x) {
  constexpr int top = (int)(std::numeric_limits<short>::max()) + 1;
  auto r = (std::abs(x) - std::abs(y)) / (std::abs(x) + std::abs(y));
  return short(r * (top / 4));
}
__global__ void angles(const float *y, const float *x, short *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = angle<3>(y[i], x[i]);
}
"""
    assert analyze(src, path="a.cu", block=(128, 1, 1)).paths == {"angles": "libclang"}


def test_a_class_with_host_stream_string_and_math_members_keeps_its_kernel_on_libclang(tmp_path):
    # a class in a header the kernel takes by pointer, whose host members print it (`friend std::ostream&`),
    # name it (std::string) and compare it with fabsf: the iostream/string headers and a host caller of the math
    # library had left the class, and with it the kernel, to the tree-sitter fallback
    (tmp_path / "particle.hpp").write_text("""#include <math.h>
#include <iostream>
#include <string>
#include <vector>
class Particle {
  float x_, v_;
  std::string name_;
 public:
  __host__ __device__ float x() const { return x_; }
  __host__ __device__ void move(float dt) { x_ += v_ * dt; }
  friend bool operator!=(const Particle& a, const Particle& b) { return fabsf(a.x_ - b.x_) > 1e-3f; }
  friend std::ostream& operator<<(std::ostream& out, const Particle& p) { return out << p.name_ << ": " << p.x_; }
};
""")
    (tmp_path / "k.cu").write_text("""#include "particle.hpp"
__global__ void step(Particle* p, int n, float dt) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i].move(dt);
}
int main() {
  std::vector<Particle> h(1000);
  step<<<4, 256>>>(0, 1000, 0.1f);
  std::cout << h[0] << std::endl;
}
""")
    res = analyze(tmp_path / "k.cu")
    assert res.paths["step"].startswith("libclang"), res.paths
    assert not [d for d in res.diagnostics if d.severity.value in ("error", "warning", "note")], res.diagnostics


def test_a_kernel_tagged_with_std_bool_constant_parses():
    # a compile-time flag passed as a tag argument (`std::bool_constant<Atomic>`, llm.c's bias kernels): the
    # name was missing from the analyzer's <type_traits>, and the kernel went to the fallback
    src = """#include <type_traits>
template <bool Atomic>
__global__ void add(float *out, const float *x, int n, std::bool_constant<Atomic>) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) { if constexpr (Atomic) atomicAdd(out + i, x[i]); else out[i] += x[i]; }
}
"""
    res = analyze(src, path="k.cu", block=(128, 1, 1))
    assert res.paths["add"].startswith("libclang"), res.paths


def test_a_host_base_class_whose_members_call_the_runtime_keeps_the_kernel_on_libclang():
    # unified memory's `Managed` base class: a host-only class whose `operator new` calls cudaMallocManaged. The
    # whole class was blanked, and with it every class derived from it and the kernel that takes one; its host
    # members are blanked one by one instead, so the class and its data remain
    src = """#include <string.h>
class Managed {
 public:
  void *operator new(size_t len) { void *p; cudaMallocManaged(&p, len); cudaDeviceSynchronize(); return p; }
  void operator delete(void *p) { cudaDeviceSynchronize(); cudaFree(p); }
};
struct Element : public Managed { int value; float weight; };
__global__ void bump(Element *e, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) e[i].value += 1;
  e[0].weight = (float)i;
}
"""
    res = analyze(src, path="k.cu", block=(128, 1, 1))
    assert res.paths["bump"].startswith("libclang"), res.paths
    assert {"race.global"} <= _rules(res), res.diagnostics


def test_the_fallback_reads_a_switch_and_skips_local_type_aliases():
    # a kernel the fallback reads (tree-sitter requested here): `using`/`typedef`, `using namespace` and local
    # struct/enum types inside the body name types only, a `[[likely]]` statement is the statement, and a switch's
    # cases are branches on its value, as the libclang path reads them; each had ended the kernel's analysis as an
    # unsupported construct
    body = """
__global__ void k(float *out, const int *op, int n) {
  __shared__ float s[256];
  using F = float;
  typedef int I;
  using namespace std;
  using std::min;
  namespace q = std;
  struct Pair { int a, b; };
  enum Mode { ADD, MUL };
  int i = blockIdx.x * 256 + threadIdx.x;
  switch (op[0]) {
    [[likely]] case 0: s[threadIdx.x] = 1.f; break;
    case 1: s[threadIdx.x] = 2.f; break;
    default: s[threadIdx.x] = 0.f;
  }
  BARRIER
  if (i < n) out[i] = s[(threadIdx.x + 1) % 256];
}
"""
    ok = analyze(body.replace("BARRIER", "__syncthreads();"), path="k.cu", frontend="tree-sitter", block=(256, 1, 1))
    assert not ok.diagnostics, ok.diagnostics
    racy = analyze(body.replace("BARRIER", ""), path="k.cu", frontend="tree-sitter", block=(256, 1, 1))
    assert _rules(racy) == {"sync.missing"}, racy.diagnostics


def test_device_helpers_a_header_defines_are_inlined(tmp_path):
    # `gid()` from the user's header: a call of it was an unknown function of no arguments, the same value in
    # every thread, so each thread's own element read as one element all threads write
    (tmp_path / "index.h").write_text("""#pragma once
namespace util {
__device__ inline int gid() { return blockIdx.x * blockDim.x + threadIdx.x; }
}
__device__ inline float twice(float v) { return 2.f * v; }
__device__ inline void bump(float* a, int i) { a[i] = a[i + 1] + 1.f; }
""")
    (tmp_path / "k.cu").write_text("""#include "index.h"
__global__ void scale(float* out, int n) {
  int i = util::gid();
  if (i < n) out[i] = twice(out[i]);
}
__global__ void shifted(float* out, int n) {
  int i = util::gid();
  if (i + 1 < n) out[i + 1] = out[i];
}
__global__ void bumped(float* out) { bump(out, util::gid()); }
int main() { scale<<<64, 256>>>(0, 1 << 14); shifted<<<64, 256>>>(0, 1 << 14); bumped<<<64, 256>>>(0); }
""")
    res = analyze(tmp_path / "k.cu")
    by_kernel = {}
    for d in res.diagnostics:
        by_kernel.setdefault((d.witness or {}).get("kernel"), set()).add(d.rule)
    assert "scale" not in by_kernel, res.diagnostics
    assert by_kernel.get("shifted") == {"race.global"}, res.diagnostics
    # a finding inside the helper names the header's lines and quotes them
    (bumped,) = [d for d in res.diagnostics if (d.witness or {}).get("kernel") == "bumped"]
    assert {loc.file for loc in bumped.locations} == {str(tmp_path / "index.h")}
    assert "a[i] = a[i + 1] + 1.f" in bumped.message


def test_thrust_value_types_and_std_aligned_storage_keep_a_kernel_on_libclang(tmp_path):
    # thrust::complex / thrust::pair in device code, included from the file and from a header of its own (whose
    # missing includes used to be read empty), and a __shared__ std::aligned_storage buffer (PyTorch's Welford)
    (tmp_path / "types.h").write_text("""#pragma once
#include <thrust/complex.h>
#include <thrust/device_vector.h>
typedef thrust::complex<float> cfloat;
""")
    (tmp_path / "k.cu").write_text("""#include <type_traits>
#include <thrust/pair.h>
#include "types.h"
__global__ void twiddle(const cfloat* in, cfloat* out, int n) {
  __shared__ typename std::aligned_storage<sizeof(cfloat), alignof(cfloat)>::type buf[256];
  cfloat* s = reinterpret_cast<cfloat*>(buf);
  int i = blockIdx.x * 256 + threadIdx.x;
  thrust::pair<int, float> p = thrust::make_pair(i, 0.5f);
  s[threadIdx.x] = i < n ? in[i] * p.second : cfloat(0.f, 0.f);
  __syncthreads();
  if (i < n) out[i] = s[255 - threadIdx.x] + thrust::exp(s[threadIdx.x]);
}
void run(thrust::device_vector<cfloat>& v, int n) { twiddle<<<(n + 255) / 256, 256>>>(0, 0, n); }
""")
    res = analyze(tmp_path / "k.cu")
    assert res.paths["twiddle"].startswith("libclang"), res.paths
    assert not [d for d in res.diagnostics if d.severity.value in ("error", "warning", "note")], res.diagnostics


def test_a_kernel_whose_helper_tree_is_too_big_to_inline_is_incomplete_not_slow(monkeypatch):
    # each helper calls the next four times, in statements of its own: some 130,000 statements to run inlined.
    # Past the builder's budget (lowered here to keep the test quick) a helper's call is an unknown result and the
    # kernel says so (a logic-synthesis kernel's helper tree had taken minutes to build)
    monkeypatch.setattr("analyzers.build.MAX_STEPS", 5_000)
    levels = ["__device__ int h8(int x) { int y = x + 1; return y; }"]
    for i in range(7, -1, -1):
        levels.append(f"__device__ int h{i}(int x) {{ int a = h{i + 1}(x); int b = h{i + 1}(x + 1); "
                      f"int c = h{i + 1}(x + 2); int d = h{i + 1}(x + 3); return a + b + c + d; }}")
    src = "\n".join(levels) + """
__global__ void k(int* out) { out[blockIdx.x * 256 + threadIdx.x] = h0(threadIdx.x); }
"""
    res = analyze(src, path="k.cu", block=(256, 1, 1))
    notes = [d.message for d in res.diagnostics if d.rule == "analysis.incomplete"]
    assert any("more than 5,000 statements to run with the helpers inlined" in m for m in notes), res.diagnostics


def test_a_scoped_fence_below_device_scope_orders_nothing_between_blocks():
    # the last-block pattern of the corpus's i23_nv_atomic_ticket_ok.cu with its fence at cluster scope: the other
    # blocks' partials are not ordered before the last block's reads (at device scope they are)
    from pathlib import Path
    ok = (Path(__file__).parent / "analyzers" / "corpus" / "i23_nv_atomic_ticket_ok.cu").read_text()
    assert not _rules(analyze(ok, path="t.cu")) & {"race.global"}
    cluster = ok.replace("__NV_ATOMIC_SEQ_CST, __NV_THREAD_SCOPE_DEVICE", "__NV_ATOMIC_SEQ_CST, __NV_THREAD_SCOPE_CLUSTER")
    assert cluster != ok
    assert "race.global" in _rules(analyze(cluster, path="t.cu"))


def test_a_header_with_a_host_map_and_long_min_max_keeps_its_kernels_on_libclang(tmp_path):
    # reducer.h: the enum the kernel is templated on sits beside a host std::map of its names, and the device
    # helper takes min/max of int64_t (long here); the map made the header fail, and the long forms were ambiguous
    (tmp_path / "reducer.h").write_text("""#pragma once
#include <map>
#include <string>
#include <cstdint>
enum Reduction { SUM, MIN };
const std::map<std::string, Reduction> names = {{"sum", SUM}, {"min", MIN}};
template <typename T> struct Lowest { __device__ T operator()(T a, T b) const { return min(b, a); } };
__device__ int64_t combine(Reduction r, int64_t a, int64_t b) { return r == MIN ? Lowest<int64_t>()(a, b) : a + b; }
""")
    (tmp_path / "k.cu").write_text("""#include "reducer.h"
__global__ void reduce_rows(const int64_t* a, const int64_t* b, int64_t* out, Reduction r, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = combine(r, a[i], b[i]);
}
int main() { reduce_rows<<<8, 128>>>(0, 0, 0, names.at("min"), 1024); }
""")
    res = analyze(tmp_path / "k.cu")
    assert res.paths["reduce_rows"].startswith("libclang"), res.paths
    assert not [d for d in res.diagnostics if d.severity.value in ("error", "warning", "note")], res.diagnostics


def test_half_and_bfloat16_operators_and_math_parse():
    # cuda_fp16.hpp's compound assignments, comparisons and h* math, and the fp8 to half conversions: a warp
    # reduction doing `val += __shfl_xor_sync(...)` on a half, or a sigmoid calling `hexp`, had sent every kernel
    # using it to the fallback
    src = """#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <cuda_fp8.h>
__device__ half warp_sum(half val) {
  for (int mask = 16; mask >= 1; mask >>= 1) val += __shfl_xor_sync(0xffffffff, val, mask);
  return val;
}
__device__ __nv_bfloat16 warp_max(__nv_bfloat16 v) {
  for (int mask = 16; mask >= 1; mask >>= 1) v = __hmax(v, __shfl_xor_sync(0xffffffff, v, mask));
  return v;
}
__global__ void k(half *y, const half *x, const __nv_fp8_storage_t *q, __nv_bfloat16 *z, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  half one = __float2half(1.0f);
  half v = x[i];
  half r = __nv_cvt_fp8_to_halfraw(q[i], __NV_E4M3);
  y[i] = one / (one + hexp(-v)) + warp_sum(r);
  if (v > one) y[i] -= one;
  __half2 h2 = __halves2half2(v, v);
  h2 = h2exp(h2) - h2;
  z[i] = warp_max(z[i]);
}
"""
    res = analyze(src, path="k.cu", block=(128, 1, 1))
    assert res.paths["k"].startswith("libclang"), res.paths


def test_a_static_assert_in_a_kernel_is_read_by_the_fallback_too():
    # a compile-time check does nothing when the kernel runs: before, the fallback reported it unsupported
    src = """__global__ void k(float *x) {
  static_assert(sizeof(float) == 4, "f32");
  x[blockIdx.x * blockDim.x + threadIdx.x] = 1.0f;
}
"""
    for frontend in ("libclang", "tree-sitter"):
        res = analyze(src, path="k.cu", frontend=frontend, block=(128, 1, 1))
        assert not [d.message for d in res.diagnostics if "unsupported" in d.message], frontend


def test_a_kernel_file_launched_through_a_headers_macro_takes_the_headers_constant_block(tmp_path):
    # TeaLeaf's layout: common.hpp defines the launch macro (it stringizes the kernel's name to look up its
    # arguments) and, through kernels/header.hpp, a file-scope `const static dim3` block of 32 x 4; chunk.cu in the
    # folder above includes the kernel file and launches it only through the macro. The block keeps the 128-element
    # tile in bounds and each element one thread's; with any block it would not
    (tmp_path / "kernels").mkdir()
    (tmp_path / "kernels" / "header.hpp").write_text(
        "#define LOCAL_Y 4\n#define LOCAL_X (128 / LOCAL_Y)\nconst static dim3 block_shape(LOCAL_X, LOCAL_Y);\n")
    (tmp_path / "common.hpp").write_text("""#include "kernels/header.hpp"
#include <map>
#include <string>
#define LAUNCH(funcname, ...) \\
    funcname<<<grid_dim, block_shape>>>(info.at(#funcname), __VA_ARGS__); \\
    check(#funcname)
""")
    (tmp_path / "kernels" / "sum.cuknl").write_text("""
__global__ void device_sum(int scale, const float *x, float *out) {
  __shared__ float t[128];
  const int lid = threadIdx.y * 32 + threadIdx.x;
  t[lid] = scale * x[blockIdx.x * 128 + lid];
  __syncthreads();
  if (lid == 0) { float s = 0; for (int i = 0; i < 128; i++) s += t[i]; out[blockIdx.x] = s; }
}
""")
    (tmp_path / "chunk.cu").write_text("""#include "common.hpp"
#include "kernels/sum.cuknl"
std::map<std::string, int> info;
dim3 grid_dim(64);
void check(const char *name);
void run(const float *x, float *out) {
    LAUNCH(device_sum, x,
           out);
}
""")
    res = analyze(tmp_path / "kernels" / "sum.cuknl")
    assert [l["block"] for l in res.launches] == [[32, 4, 1]] and "launch at ../chunk.cu:7" in res.assumed
    assert not [d for d in res.diagnostics if d.severity.rank >= 2], res.diagnostics


def test_a_macro_style_name_nothing_defines_is_an_integer_constant_of_any_value(tmp_path):
    # a benchmark whose build script writes the loop count in with `sed` (REPLACE_ITERATIONS): no source or build
    # file defines it; the kernel is read by libclang for any value of it, and the path note says so. A name that
    # is called (a function-like macro from a missing header) stays undeclared
    src = """
__global__ void spin(const float *a, float *c) {
  __shared__ float s[256];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = a[i];
  for (unsigned k = 0; k < REPLACE_ITERATIONS; k++) {
    s[threadIdx.x] = v;
    __syncthreads();
    v += s[255 - threadIdx.x];
    __syncthreads();
  }
  c[i] = v;
}
"""
    (tmp_path / "spin.cu").write_text(src)
    res = analyze(tmp_path / "spin.cu", block=(256, 1, 1))
    assert res.paths["spin"].startswith("libclang (`REPLACE_ITERATIONS` given no one value by the sources or the")
    assert not [d for d in res.diagnostics if d.severity.rank >= 2 or d.rule == "analysis.incomplete"]
    (tmp_path / "spin.cu").write_text(src.replace("k < REPLACE_ITERATIONS", "k < COUNT_OF(a)"))
    assert analyze(tmp_path / "spin.cu", block=(256, 1, 1)).paths["spin"].startswith("tree-sitter")


def test_a_name_the_includer_defines_takes_the_includers_value_not_any_value(tmp_path):
    # kern.cu uses ITEMS, which main.cu defines before including it: the kernel is read after main.cu's
    # declarations (ITEMS is 4), not as an integer constant of any value
    (tmp_path / "main.cu").write_text('#define ITEMS 4\n#include "kern.cu"\nint main() { return 0; }\n')
    (tmp_path / "kern.cu").write_text("""
__global__ void sum4(const float *x, float *out) {
  float s = 0;
  for (int i = 0; i < ITEMS; i++) s += x[blockIdx.x * ITEMS + i];
  out[blockIdx.x] = s;
}
""")
    res = analyze(tmp_path / "kern.cu")
    assert res.paths["sum4"] == "libclang (read after the declarations of main.cu, which includes this file)"


def test_a_host_function_declared_in_two_conditional_branches_is_blanked_with_its_directives_kept(tmp_path):
    # libclang fails on the unknown GL types; blanking `process` must not leave an `#if` without its `#endif`, a
    # dangling `extern "C"`, or an `#endif` of a commented-out block outside its comment
    src = """
__global__ void scale(float* x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= 2.0f;
}
extern "C"
#if USE_INTEROP
void process(GLresource* res, int n)
#else
void process(GLuint pbo, int n)
#endif
{
  float* x = map(pbo);
#if USE_INTEROP
  unmap(res);
#else
  unmap(pbo);
#endif
  scale<<<(n + 255) / 256, 256>>>(x, n);
/*
#if TIMING
  report();
#endif
*/
}
"""
    (tmp_path / "app.cu").write_text(src)
    res = analyze(tmp_path / "app.cu")
    assert res.paths["scale"].startswith("libclang"), res.paths
    assert not [d for d in res.diagnostics if d.rule == "analysis.incomplete"]


def test_a_projects_copy_of_the_toolkits_vector_types_is_skipped_as_after_the_toolkits_own(tmp_path):
    (tmp_path / "cpu_vector_types.h").write_text("""#if !defined(__VECTOR_TYPES_H__)
#define __VECTOR_TYPES_H__
struct float4 { float x, y, z, w; };
#endif
""")
    (tmp_path / "k.cu").write_text("""#include "cpu_vector_types.h"
__global__ void k(float4* x) { x[threadIdx.x].x = 1.0f; }
""")
    res = analyze(tmp_path / "k.cu")
    assert res.paths["k"] == "libclang", res.paths  # nothing redefined, nothing blanked


def test_a_configuration_macro_a_header_stops_on_takes_its_first_branchs_value(tmp_path):
    # a configure step writes HOOMD-style precision switches into a header kopt does not have
    (tmp_path / "math.hpp").write_text("""#if REAL_SIZE == 32
typedef float Scalar;
#elif REAL_SIZE == 64
typedef double Scalar;
#else
#error REAL_SIZE must be 32 or 64.
#endif
""")
    (tmp_path / "k.cu").write_text("""#include "math.hpp"
__global__ void k(Scalar* x) { x[threadIdx.x] = 1; }
""")
    res = analyze(tmp_path / "k.cu")
    assert res.paths["k"].startswith("libclang") and "`-DREAL_SIZE=32` from the first branch of math.hpp:1" in \
        res.paths["k"], res.paths


def test_a_value_the_build_chooses_takes_the_first_branch_that_declares_a_type_the_kernel_uses(tmp_path):
    # cholla's global.h declares `Real` under `#if PRECISION == 1` and `#if PRECISION == 2`, a value its make passes
    (tmp_path / "global.h").write_text("""#if PRECISION == 1
typedef float Real;
#endif
#if PRECISION == 2
typedef double Real;
#endif
""")
    (tmp_path / "k.cu").write_text("""#include "global.h"
__global__ void k(Real* x, int n) {
  __shared__ Real s[64];
  s[threadIdx.x] = x[threadIdx.x];
  __syncthreads();
  x[threadIdx.x] = s[63 - threadIdx.x];
}
""")
    res = analyze(tmp_path / "k.cu", block=(64, 1, 1), grid=(1, 1, 1))
    assert res.paths["k"].startswith("libclang") and "`-DPRECISION=1` from the first branch of global.h:1" in \
        res.paths["k"], res.paths
    assert not [d for d in res.diagnostics if d.rule == "analysis.incomplete"]
    (tmp_path / "Makefile").write_text("DFLAGS += -DPRECISION=2\n")  # the build's value, where it gives one
    res = analyze(tmp_path / "k.cu", block=(64, 1, 1), grid=(1, 1, 1))
    assert "`-DPRECISION=2` from Makefile" in res.paths["k"], res.paths


# a kernel whose shared array a header's BLOCK sizes (each thread reads the element another writes, after a barrier)
BLOCK_REVERSED = """__global__ void k(float* x) {
  __shared__ float s[BLOCK];
  s[threadIdx.x] = x[threadIdx.x];
  __syncthreads();
  x[threadIdx.x] = s[BLOCK - 1 - threadIdx.x];
}
"""


def test_a_switch_a_cmake_file_defines_without_a_value_is_taken(tmp_path):
    # darknet (in altis): `add_compile_definitions(GPU)` turns on the `#ifdef GPU` branch that defines BLOCK
    (tmp_path / "CMakeLists.txt").write_text("add_compile_definitions(GPU)\ntarget_compile_definitions(net PRIVATE "
                                             "CUDNN_OFF)\n")
    (tmp_path / "darknet.h").write_text("#ifdef GPU\n#define BLOCK 512\n#endif\n")
    (tmp_path / "k.cu").write_text('#include "darknet.h"\n' + BLOCK_REVERSED)
    res = analyze(tmp_path / "k.cu", block=(512, 1, 1), grid=(1, 1, 1))
    assert res.paths["k"].startswith("libclang") and "`-DGPU=1` from CMakeLists.txt" in res.paths["k"], res.paths
    assert "CUDNN_OFF" not in res.paths["k"] and "net" not in res.paths["k"]
    from analyzers.build_flags import defines_for
    assert defines_for(tmp_path / "k.cu", {"GPU", "CUDNN_OFF", "net", "PRIVATE"}) == {
        "GPU": ("1", "CMakeLists.txt"), "CUDNN_OFF": ("1", "CMakeLists.txt")}


def test_the_c_librarys_header_included_inside_extern_c_keeps_its_cpp_overloads(tmp_path):
    # darknet's kernels include their C API inside `extern "C" { }`; <string.h>'s C++ overloads of strchr must not
    # be read as C functions (two C functions differing only in their return type: the includes were blanked, and
    # the BLOCK the API defines with them)
    (tmp_path / "api.h").write_text("#include <string.h>\n#include <stdlib.h>\n#define BLOCK 256\n")
    (tmp_path / "k.cu").write_text('extern "C" {\n#include "api.h"\n}\n' + BLOCK_REVERSED)
    res = analyze(tmp_path / "k.cu", block=(256, 1, 1), grid=(1, 1, 1))
    assert res.paths["k"] == "libclang", res.paths
    assert not [d for d in res.diagnostics if d.rule == "analysis.incomplete"]


def test_a_backend_switch_a_header_stops_on_takes_the_cuda_builds_branch(tmp_path):
    # ginkgo's common device headers choose the backend by a switch its CMake passes the CUDA target
    (tmp_path / "groups.hpp").write_text("""#if defined(PROJ_COMPILING_CUDA)
#define WARP 32
#elif defined(PROJ_COMPILING_HIP)
#define WARP 64
#else
#error "Executor definition missing"
#endif
""")
    (tmp_path / "k.cu").write_text("""#include "groups.hpp"
__global__ void k(float* x) { x[threadIdx.x % WARP] = 1; }
""")
    res = analyze(tmp_path / "k.cu", block=(32, 1, 1))
    assert res.paths["k"].startswith("libclang") and "`-DPROJ_COMPILING_CUDA=1` from the CUDA build's branch of " \
        "groups.hpp:1" in res.paths["k"], res.paths
    assert not [d for d in res.diagnostics if d.rule.startswith("race")]


def test_a_launch_blanked_across_conditional_branches_keeps_its_directive_lines():
    # (a launch whose arguments follow an `#else`: blanking `#else` and `#endif` but not the `#ifndef` before the
    # launch left the group unterminated, and the whole file to the fallback)
    from analyzers.clang_front import _blanked

    chunk = "k<<<grid, n, s, 0>>>(\n#else\n    k<<<grid, n>>>(\n#endif\n    a, b)"
    out = _blanked(chunk).split("\n")
    assert out == [" " * 21, "#else", " " * 19, "#endif", " " * 9]


def test_a_kept_directive_keeps_the_lines_its_backslashes_continue_it_onto():
    # `#if defined(X) && \` kept without the line it continues onto is an `#if` that does not parse: an error kopt
    # had made itself, which no further blanking could remove (DeepSpeed's gemm_test.h spent the host rounds on it)
    from analyzers.clang_front import _blanked

    chunk = "  foo(a,\n#if defined(X) && \\\n    (Y < 2)\n   b);\n#else\n   c);\n#endif\n"
    out = _blanked(chunk).split("\n")
    assert out == [" " * 8, "#if defined(X) && \\", "    (Y < 2)", " " * 6, "#else", " " * 6, "#endif", ""]


def test_a_projects_cuda_build_switch_is_on_unless_a_define_turns_it_off(tmp_path):
    (tmp_path / "common.h").write_text("""#if WITH_CUDA
typedef float real;
#define THREADS 128
#endif
""")
    (tmp_path / "k.cu").write_text("""#include "common.h"
__global__ void k(real* x) {
  __shared__ real s[THREADS];
  s[threadIdx.x] = x[threadIdx.x];
  __syncthreads();
  x[threadIdx.x] = s[THREADS - 1 - threadIdx.x];
}
""")
    res = analyze(tmp_path / "k.cu")
    assert res.paths["k"] == "libclang", res.paths
    res = analyze(tmp_path / "k.cu", defines={"WITH_CUDA": "0"})
    assert not res.paths["k"].startswith("libclang"), res.paths  # `real` and THREADS undeclared


def test_a_configure_switch_takes_the_branch_that_needs_no_missing_header(tmp_path):
    # the build's configure step picks an external library's header or the project's own typedefs; the library is
    # not installed, so the branch that declares the names itself is read (and says so)
    (tmp_path / "types.h").write_text("#if FST_VER >= 10800\ntypedef int int32;\n#else\n#include <fst/types.h>\n"
                                      "#endif\n#ifndef TYPES_H_\n#define TYPES_H_\n#endif\n")
    (tmp_path / "k.cu").write_text('#include "types.h"\n__global__ void k(int32 *x) { x[threadIdx.x] = 1; }\n')
    res = analyze(tmp_path / "k.cu", block=(64, 1, 1))
    assert res.paths["k"].startswith("libclang") and "`-DFST_VER=10800`" in res.paths["k"]
    assert "TYPES_H_" not in res.paths["k"]  # an include guard is no configure switch


def test_device_member_functions_are_inlined_with_their_object():
    src = """
struct View { float *data_; int ncols_;
  __device__ float *row(int i) { return &data_[i * ncols_]; }
  __device__ void put(int i, float v) { this->data_[i] = v; } };
struct Lanes { int *end; __device__ int *lane(int i) { return &end[i]; } };
__global__ void racy(View v) { v.row(blockIdx.x)[0] = threadIdx.x; }
__global__ void racy_put(View v) { v.put(blockIdx.x, threadIdx.x); }
__global__ void own(View *v) { v->put(blockIdx.x * blockDim.x + threadIdx.x, 2.0f); }
__global__ void loop(Lanes l, int n, float *out) {
  for (int i = 0; i < n; i++) {
    if (*l.lane(i) > 5) __syncthreads();  // a value every thread loads from one address: no divergence
    out[i * blockDim.x + threadIdx.x] = 1.f;
  }
}
"""
    races = {}
    for k in ("racy", "racy_put", "own", "loop"):
        res = analyze(src, path="m.cu", block=(256, 1, 1), kernels=[k])
        races[k] = {(d.rule, d.locations[0].line) for d in res.diagnostics if d.is_error}
    assert races["racy"] == {("race.global", 6)}
    assert races["racy_put"] == {("race.global", 4)}  # the store in the member function, `this->data_[i]`
    assert races["own"] == set() and races["loop"] == set()  # `*l.lane(i)`: one address, one value per block


def test_a_hip_ported_project_is_read_as_hipcc_compiles_it_on_nvidia(tmp_path):
    # the project's device qualifiers exist only in its HIP build (`HOSTDEVICE` is `__host__ __device__` under
    # __HIPCC__, which the HIP runtime header defines); the CUDA reading calls host functions from the kernel
    (tmp_path / "math.h").write_text("#ifdef ENABLE_HIP\n#include <hip/hip_runtime.h>\n#endif\n#ifdef __HIPCC__\n"
                                     "#define HOSTDEVICE __host__ __device__\n#else\n#define HOSTDEVICE\n#endif\n"
                                     "struct Box { float L; HOSTDEVICE float wrap(float x) const { return x - L; } };\n")
    (tmp_path / "k.cu").write_text('#include "math.h"\n__global__ void k(float *x, Box b) {\n'
                                   '  x[0] = b.wrap(x[threadIdx.x]);\n}\n')
    res = analyze(tmp_path / "k.cu", block=(64, 1, 1))
    assert res.paths["k"].startswith("libclang") and "`-DENABLE_HIP=1`" in res.paths["k"]
    assert "race.global" in _rules(res)
    # a CUDA reading that parses keeps the CUDA branches
    (tmp_path / "k2.cu").write_text('#ifdef USE_HIP\n#include <hip/hip_runtime.h>\n#define WARP 64\n#else\n'
                                    '#define WARP 32\n#endif\n__global__ void k2(float *x) { x[threadIdx.x % WARP] = 1; }\n')
    res = analyze(tmp_path / "k2.cu", block=(32, 1, 1))
    assert "HIP" not in res.paths["k2"] and "race.global" not in _rules(res)


def test_pytorch_extension_kernels_parse_and_their_accessors_are_tensors():
    src = """#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
template <typename scalar_t>
__global__ void clean(at::PackedTensorAccessor32<scalar_t, 2, at::RestrictPtrTraits> out) {
  const int row = blockIdx.x, col = threadIdx.x;
  if (row < out.size(0) && col < out.size(1)) out[row][col] = col;
}
__global__ void racy(torch::PackedTensorAccessor32<float, 3, torch::RestrictPtrTraits> out) {
  for (int c = threadIdx.x; c < out.size(2); c += blockDim.x) out[blockIdx.x][0][c % 4] += 1.f;
}
__global__ void rows(const at::PackedTensorAccessor64<at::Half, 2, at::RestrictPtrTraits> in,
                     at::PackedTensorAccessor64<float, 1, at::RestrictPtrTraits> sums) {
  auto row = in[blockIdx.x];
  float s = 0.f;
  for (int c = 0; c < in.size(1); c++) s += static_cast<float>(row[c]);
  if (threadIdx.x == 0) gpuAtomicAdd(&sums[blockIdx.x], s);
}
void launch(torch::Tensor t) {
  clean<float><<<16, 256, 0, at::cuda::getCurrentCUDAStream()>>>(t.packed_accessor32<float, 2, at::RestrictPtrTraits>());
}
"""
    res = analyze(src, path="ext.cu", block=(128, 1, 1))
    assert all(p.startswith("libclang") for p in res.paths.values()), res.paths
    races = {d.locations[0].line for d in res.diagnostics if d.rule.startswith("race")}
    assert races == {9}  # `out[b][0][c % 4]`: four columns for every thread of the row
    assert not [d for d in res.diagnostics if d.rule == "analysis.incomplete"]


def test_an_accessor_subscript_stays_within_its_dimension_in_a_race_witness():
    # each thread rotates the columns of its own row: two rows meet only if `poses[k][2]` ran past `poses.size(1)`
    src = """#include <torch/extension.h>
__global__ void rotate(torch::PackedTensorAccessor32<float, 2, torch::RestrictPtrTraits> poses, int t0, int t1) {
  for (int k = t0 + threadIdx.x; k < t1; k += blockDim.x) {
    float a = poses[k][0], b = poses[k][1], c = poses[k][2];
    poses[k][0] = b; poses[k][1] = c; poses[k][2] = a;
  }
}
__global__ void shift(torch::PackedTensorAccessor32<float, 2, torch::RestrictPtrTraits> poses) {
  poses[threadIdx.x][1] = poses[threadIdx.x + 1][1];
}
"""
    res = analyze(src, path="rows.cu", block=(64, 1, 1))
    assert all(p.startswith("libclang") for p in res.paths.values()), res.paths
    races = {d.locations[0].line for d in res.diagnostics if d.rule.startswith("race")}
    assert races == {9}  # the neighbour's row, not a column past the row's end


def test_host_structs_holding_cublas_and_cusparse_handles_parse():
    src = """#include <cublas_v2.h>
#include <cusparse.h>
struct Resources { cublasHandle_t blas; cusparseHandle_t sparse; cublasOperation_t op; cusparseMatDescr_t desc; };
__global__ void k(float *x) { x[threadIdx.x] = 1.f; }
"""
    res = analyze(src, path="res.cu", block=(64, 1, 1))
    assert res.paths["k"] == "libclang", res.paths  # (no host declaration skipped)


def test_curands_double_precision_draws_are_declared():
    src = """#include <curand_kernel.h>
__global__ void k(curandState *s, double *o) {
  int i = threadIdx.x;
  o[i] = curand_log_normal_double(&s[i], 0.0, 1.0) + curand_normal2_double(&s[i]).x;
}
"""
    res = analyze(src, path="draws.cu", block=(64, 1, 1))
    assert res.paths["k"] == "libclang", res.paths


def test_host_code_with_variadic_lists_and_integer_formats_parses():
    src = """#include <cstdarg>
#include <cinttypes>
#include <stdio.h>
void log_line(const char *f, ...) {
  va_list ap; va_start(ap, f); vfprintf(stderr, f, ap); va_end(ap);
  fprintf(stderr, "%" PRIu64 "\\n", (uint64_t)1);
}
__global__ void k(float *x) { x[threadIdx.x] = 1.f; }
"""
    res = analyze(src, path="log.cu", block=(64, 1, 1))
    assert res.paths["k"] == "libclang", res.paths  # (no host declaration skipped)


def test_a_class_whose_host_members_call_the_runtime_keeps_its_device_members():
    # the host constructor synchronizes a stream and prints: blanking it as unparsable host code took the class
    # template with it, and every kernel taking the class fell back to the syntax-only path
    src = """#include <cstdio>
#include <list>
#include <utility>
#include <vector>
#include <cuda/atomic>
#include <thrust/system/cuda/experimental/pinned_allocator.h>
template <class T> using pinned = std::vector<T, thrust::system::cuda::experimental::pinned_allocator<T>>;
static_assert(sizeof(cuda::atomic<int>) == sizeof(int), "atomics hold their value");
template <class T> class matrices {
 public:
  matrices(int n, cudaStream_t s) : n_(n) {
    cudaMalloc((void **)&d_, n * 32 * sizeof(T));
    cudaStreamSynchronize(s);
    int dev = 0;
    cudaGetDevice(&dev);
    printf("device %d\\n", dev);
    free_.push_back(std::exchange(n_, n));
  }
  __device__ T *get(int i) { return d_ + i * 32; }
 private:
  T *d_; int n_; pinned<int> offsets_; std::list<int> free_;
};
__global__ void fill(matrices<float> m) { m.get(blockIdx.x)[threadIdx.x] = 1.f; }
"""
    res = analyze(src, path="mats.cu", block=(32, 1, 1))
    assert res.paths["fill"] == "libclang", res.paths  # (no host declaration skipped)


def test_kernels_built_against_opencvs_cuda_device_library_are_read_by_libclang():
    # opencv_contrib's CUDA modules include OpenCV core's device headers, which a checkout of them lacks
    src = """#include "opencv2/core/cuda/common.hpp"
#include "opencv2/core/cuda/vec_math.hpp"
#include "opencv2/core/cuda/saturate_cast.hpp"
#include "opencv2/core/cuda/emulation.hpp"
#include "opencv2/core/cuda/functional.hpp"
#include "opencv2/core/cuda/reduce.hpp"
namespace cv { namespace cuda { namespace device {
__global__ void histogram(const PtrStepSzb src, int *hist) {
  __shared__ unsigned int shist[256];
  const int tid = threadIdx.y * blockDim.x + threadIdx.x;
  shist[tid] = 0;
  __syncthreads();
  const int y = blockIdx.x * blockDim.y + threadIdx.y;
  if (y < src.rows)
    for (int x = threadIdx.x; x < src.cols; x += blockDim.x) Emulation::smem::atomicAdd(&shist[src(y, x)], 1u);
  __syncthreads();
  if (shist[tid] > 0) atomicAdd(hist + tid, shist[tid]);
}
template <int cn> __global__ void scale(const PtrStepSz<typename TypeVec<uchar, cn>::vec_type> src,
                                        PtrStep<typename TypeVec<float, cn>::vec_type> dst, float s) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < src.cols && y < src.rows)
    dst(y, x) = saturate_cast<typename TypeVec<float, cn>::vec_type>(src(y, x) * VecTraits<float4>::all(s).x);
}
template __global__ void scale<4>(const PtrStepSz<uchar4>, PtrStep<float4>, float);
__global__ void sum_rows(const PtrStepSzf src, float *out) {
  __shared__ float smem[256];
  float v = 0.f;
  for (int x = threadIdx.x; x < src.cols; x += 256) v += src(blockIdx.x, x);
  smem[threadIdx.x] = v;
  reduce<256>(smem, v, threadIdx.x, plus<float>());
  if (threadIdx.x == 0) out[blockIdx.x] = v + smem[1];
}
__global__ void halve(PtrStepSzf dst) { dst(blockIdx.y, threadIdx.x / 2) = threadIdx.x; }  // two threads, a pixel
}}}
"""
    res = analyze(src, path="hist.cu", block=(256, 1, 1))
    assert set(res.paths.values()) == {"libclang"} and len(res.paths) == 4, res.paths
    found = {(d.rule, d.locations[0].line) for d in res.diagnostics if d.rule.startswith(("race", "barrier", "bounds"))}
    assert found == {("race.global", 34)}, res.diagnostics  # `ptr(y)` is `data + y * step` bytes: the pixel is shared


def test_what_a_library_model_does_is_reported_at_the_users_call():
    # OpenCV's reduce over more than a warp holds a barrier, within a warp none; a divergent call is the user's line
    src = """#include "opencv2/core/cuda/reduce.hpp"
#include "opencv2/core/cuda/functional.hpp"
namespace cv { namespace cuda { namespace device {
template <int N> __global__ void rows(float *out, int n) {
  __shared__ float smem[N * 4];
  float v = out[threadIdx.z * N + threadIdx.x];
  if (threadIdx.z < n) reduce<N>(smem + N * threadIdx.z, v, threadIdx.x, plus<float>());
  if (threadIdx.x == 0) out[threadIdx.z] = v;
}
template __global__ void rows<32>(float *, int);
template __global__ void rows<64>(float *, int);
}}}
"""
    wide = analyze(src, path="rows.cu", block=(64, 1, 4), kernels=["rows<64>"])
    found = [(d.rule, d.locations[0].file, d.locations[0].line) for d in wide.diagnostics if d.rule.startswith("barrier")]
    assert found == [("barrier.divergent", "rows.cu", 7)], wide.diagnostics
    narrow = analyze(src, path="rows.cu", block=(32, 1, 4), kernels=["rows<32>"])
    assert not [d for d in narrow.diagnostics if d.rule.startswith("barrier")], narrow.diagnostics


def test_the_shared_memory_class_idiom_hands_out_the_dynamic_shared_array():
    src = """
template <class T> struct SharedMemory {
  __device__ inline operator T *() { extern __shared__ int __smem[]; return (T *)__smem; }
};
template <class T> __global__ void reduce(T *in, T *out) {
  T *sdata = SharedMemory<T>();
  unsigned int tid = threadIdx.x;
  sdata[tid] = in[blockIdx.x * blockDim.x + tid];
  if (tid == 0) out[blockIdx.x] = sdata[64];  // no barrier: another warp's element
}
"""
    res = analyze(src, path="smem.cu", block=(128, 1, 1))
    assert {d.rule for d in res.diagnostics if d.rule.startswith(("race", "sync"))} == {"sync.missing"}
    assert not [d for d in res.diagnostics if d.rule == "analysis.incomplete"]


def test_calling_a_member_function_does_not_read_its_object():
    src = """
struct Q { int tail; int items[64];
  __device__ void append(int v) { int i = atomicAdd(&tail, 1); items[i & 63] = v; } };
__global__ void k(int *out) {
  __shared__ Q q;
  if (threadIdx.x == 0) q.tail = 0;
  __syncthreads();
  q.append(threadIdx.x);
}
"""
    res = analyze(src, path="q.cu", block=(64, 1, 1))
    assert not [d for d in res.diagnostics if d.rule == "race.atomic-plain"]  # no plain read of `q` at the call


def test_the_shared_memory_class_from_a_header_at_a_concrete_type(tmp_path):
    # the class in a helper header (read for its device functions) and `SharedMemory<float>()`, which clang converts
    # through an explicit `operator float *` call
    (tmp_path / "inc").mkdir()
    (tmp_path / "inc" / "smem.cuh").write_text(
        "template <class T> struct SharedMemory {\n"
        "  __device__ inline operator T *() { extern __shared__ int __smem[]; return (T *)__smem; }\n};\n")
    (tmp_path / "k.cu").write_text('#include "smem.cuh"\n__global__ void reduce(float *in, float *out) {\n'
                                   '  float *sdata = SharedMemory<float>();\n  sdata[threadIdx.x] = in[threadIdx.x];\n'
                                   '  if (threadIdx.x == 0) out[blockIdx.x] = sdata[64];\n}\n')
    res = analyze(tmp_path / "k.cu", include_dirs=[str(tmp_path / "inc")], block=(128, 1, 1))
    assert {d.rule for d in res.diagnostics if d.rule.startswith(("race", "sync"))} == {"sync.missing"}
    assert not [d for d in res.diagnostics if d.rule == "analysis.incomplete"]


_LOADED = """
struct Clusters { float *means; float *sums; int n; };
__global__ void k(Clusters *c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c->sums[i] = c->means[i] * 2.0f;
  BODY
}
"""


def test_a_pointer_loaded_from_a_parameter_struct_names_a_buffer_of_its_own():
    # `c->sums` is the same pointer in every thread: its elements are placed, checked and found racing when they do
    ok = analyze(_LOADED.replace("BODY", ""), path="c.cu", block=(128, 1, 1))
    assert not [d for d in ok.diagnostics if d.rule.startswith(("race", "analysis"))]
    bad = analyze(_LOADED.replace("BODY", "if (i < n) c->sums[0] = (float)i;"), path="c.cu", block=(128, 1, 1))
    races = [d for d in bad.diagnostics if d.rule == "race.global"]
    assert races and "c->sums" in races[0].witness["location"]
    assert not [d for d in bad.diagnostics if d.rule == "analysis.incomplete"]


def test_a_pointer_loaded_from_memory_the_kernel_writes_leaves_the_kernel_incomplete():
    res = analyze(_LOADED.replace("BODY", "if (i == 0) c->sums = c->means;"), path="c.cu", block=(128, 1, 1))
    assert [d for d in res.diagnostics if d.rule == "analysis.incomplete" and "pointer loaded from memory" in d.message]
    # a write to another field of the struct does not touch the pointer
    res = analyze(_LOADED.replace("BODY", "if (i == 0) c->n = 0;"), path="c.cu", block=(128, 1, 1))
    assert not [d for d in res.diagnostics if d.rule == "analysis.incomplete"]


def test_a_pointer_loaded_at_a_thread_dependent_address_stays_unplaced():
    # each thread's own pointer: no shared buffer to name, so the store is not placed (and the verdict says so)
    src = "__global__ void k(float **rows, int n) {\n  rows[threadIdx.x][0] = 1.0f;\n}\n"
    res = analyze(src, path="r.cu", block=(64, 1, 1))
    assert [d for d in res.diagnostics if d.rule == "analysis.incomplete" and "cannot place" in d.message]


def test_a_pointer_or_null_is_the_pointer():
    # `p ? p + off : NULL` (llm.c's optional master weights): any access that runs goes through p
    src = """
__device__ void update(float *w, float *master, int i) { if (master != NULL) { master[i] = w[i]; } STORE }
__global__ void k(float *w, float *master, long stride) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  update(w + blockIdx.y * stride, master ? master + blockIdx.y * stride : NULL, i);
}
"""
    ok = analyze(src.replace("STORE", ""), path="m.cu", block=(256, 1, 1), assume=["stride >= gridDim.x * 256"])
    assert not [d for d in ok.diagnostics if d.rule.startswith(("race", "analysis"))]
    bad = analyze(src.replace("STORE", "if (master) master[0] = (float)i;"), path="m.cu", block=(256, 1, 1),
                  assume=["stride >= gridDim.x * 256"])
    assert [d for d in bad.diagnostics if d.rule == "race.global"]


def test_a_parameter_struct_of_a_class_template_instance_is_a_struct():
    # `Params<float>` names a struct whose fields are buffers, not a floating-point scalar
    src = ("template <typename T> struct Params { T *out; int n; };\n"
           "__global__ void k(Params<float> params) {\n  float *o = &params.out[threadIdx.x];\n  *o = 1.0f;\n"
           "  params.out[threadIdx.x + OFF] = 2.0f;\n}\n")
    ok = analyze(src.replace("OFF", "64"), path="p.cu", block=(64, 1, 1))
    assert not [d for d in ok.diagnostics if d.rule.startswith(("race", "analysis"))]
    bad = analyze(src.replace("OFF", "63"), path="p.cu", block=(64, 1, 1))
    assert [d for d in bad.diagnostics if d.rule == "race.shared" or d.rule == "race.global"]


def test_an_array_member_of_a_threads_own_struct_is_local_memory():
    # keccak's `uint64_t *s = S->state` with S = &h.inner, a struct on the thread's stack: stores are private
    src = """
typedef struct { unsigned long long state[25]; } kstate;
typedef struct { kstate inner, outer; } hstate;
__device__ void absorb(kstate *S, const unsigned *in) {
  unsigned long long *s = S->state;
  for (int i = 0; i < 9; i++) s[i] ^= in[i];
}
__global__ void k(unsigned *g, unsigned *out) {
  hstate h;
  for (int i = 0; i < 25; i++) h.inner.state[i] = 0;
  absorb(&h.inner, g + threadIdx.x * 9);
  out[threadIdx.x + blockIdx.x * blockDim.x] = (unsigned)h.inner.state[0];
}
"""
    res = analyze(src, path="k.cu", block=(128, 1, 1))
    assert not [d for d in res.diagnostics if d.rule.startswith(("race", "analysis"))]


def test_an_array_parameter_is_a_pointer():
    # `unsigned g_out[8]` declares a pointer: each thread's slice is placed, and a store all blocks share races
    src = """
__device__ void cpy8(unsigned *d, const unsigned *s) { for (int k = 0; k < 8; k++) d[k] = s[k]; }
__global__ void k(unsigned g_out[8], unsigned g_in[8], unsigned m[4][2]) {
  g_out += 8 * (blockIdx.x * blockDim.x + threadIdx.x);
  g_in += 8 * (blockIdx.x * blockDim.x + threadIdx.x);
  cpy8(g_out, g_in);
  m[threadIdx.x][1] = blockIdx.x;
}
"""
    res = analyze(src, path="a.cu", block=(128, 1, 1))
    races = [d for d in res.diagnostics if d.rule == "race.global"]
    assert len(races) == 1 and races[0].locations[0].line == 7
    assert not [d for d in res.diagnostics if d.rule == "analysis.incomplete"]


def test_a_pointer_shared_through_a_shared_variable_is_read_back():
    # hbc's `__shared__ int *Q_row; if (tid == 0) Q_row = ...; __syncthreads(); Q_row[...] = ...`
    src = """
__global__ void k(float *Q, int pitch, float *out) {
  __shared__ float *row;
  if (threadIdx.x == 0) row = Q + blockIdx.x * pitch;
  __syncthreads();
  row[threadIdx.x] = 1.0f;
  MORE
}
"""
    ok = analyze(src.replace("MORE", ""), path="s.cu", block=(128, 1, 1), assume=["pitch >= 128"])
    assert not [d for d in ok.diagnostics if d.rule.startswith(("race", "analysis"))]
    bad = analyze(src.replace("MORE", "row[0] = (float)threadIdx.x;"), path="s.cu", block=(128, 1, 1),
                  assume=["pitch >= 128"])
    assert [d for d in bad.diagnostics if d.rule == "race.global"]
    # two different values: the variable is unknown, its stores unplaced
    two = analyze(src.replace("MORE", "if (threadIdx.x == 1) row = out;\n  __syncthreads();\n  row[1] = 2.0f;"),
                  path="s.cu", block=(128, 1, 1), assume=["pitch >= 128"])
    assert [d for d in two.diagnostics if d.rule == "analysis.incomplete" and "cannot place" in d.message]


def test_a_copy_of_a_threads_struct_keeps_its_member_structs():
    # `b = a` copies a.inner: a later store to a.inner.x does not show through b
    src = """
struct In { int x; };
struct Out { In inner; };
__global__ void k(int *o) {
  Out a;
  a.inner.x = threadIdx.x;
  Out b = a;
  a.inner.x = 0;
  o[b.inner.x + blockIdx.x * blockDim.x] = threadIdx.x + a.inner.x;
}
"""
    res = analyze(src, path="c.cu", block=(64, 1, 1))
    assert not [d for d in res.diagnostics if d.rule.startswith(("race", "analysis"))]


def test_the_fallback_reads_the_short_unsigned_type_names_as_integers():
    # arrayfire's scan kernels bound their barrier loops by a `uint lim` parameter; read by the syntax-only parser, a
    # `uint` it took for a non-integer made the loop's trip count an unknown of each thread
    src = """
__global__ void scan(float *out, const float *in, uint lim) {
  __shared__ float s[256];
  for (uint k = 0; k < lim; k++) {
    s[threadIdx.x] = in[k * 256 + threadIdx.x];
    __syncthreads();
    out[k * 256 + threadIdx.x] = s[255 - threadIdx.x];
    __syncthreads();
  }
}
"""
    res = analyze(src, path="scan.cu", block=(256, 1, 1), frontend="tree-sitter")
    assert not [d for d in res.diagnostics if d.rule.startswith(("barrier", "race", "sync"))], res.diagnostics


def test_a_host_template_with_an_ifdef_between_else_if_arms_is_blanked_to_its_last_brace(tmp_path):
    # tree-sitter's recovery ends such a definition one line early; the brace left alone was one more error to
    # repair (a file whose headers need several rounds ran out of them: FasterTransformer's cuda_utils.h)
    (tmp_path / "utils.h").write_text(
        "#pragma once\ntemplate <typename T>\nint type_code()\n{\n    if (sizeof(T) == 2) {\n        return 1;\n    }\n"
        "#ifdef ENABLE_BF16\n    else if (sizeof(T) == 3) {\n        return 2;\n    }\n#endif\n"
        "    else {\n        host_only_check(false);\n        return 0;\n    }\n}\n")
    (tmp_path / "k.cu").write_text('#include "utils.h"\n__global__ void scale(float *x) {\n'
                                   "  __shared__ float s[128];\n  s[threadIdx.x] = x[threadIdx.x];\n"
                                   "  x[threadIdx.x] = s[127 - threadIdx.x];\n}\n")
    res = analyze(tmp_path / "k.cu", block=(128, 1, 1), grid=(1, 1, 1))
    assert res.frontend == "libclang" and "sync.missing" in _rules(res)
    assert "(1 host declaration(s) that did not parse were skipped)" in res.assumed



@pytest.mark.parametrize("src", [
    # the toolkit declares memcpy/memset for host and device alike (ggml-impl.h's host helpers call them)
    "#include <stdint.h>\nstruct params { int32_t op[4]; };\n"
    "static void set_params(struct params *p, const void *v, size_t n) { memcpy(p->op, v, n); }\n"
    "static void clear(struct params *p) { memset(p->op, 0, sizeof(p->op)); p->op[0] = UINT16_C(7); }\n"
    "__global__ void k(float *x) { x[threadIdx.x] *= 2.f; }\n",
    # ccminer's cuda_helper.h redeclares `extern __device__ __device_builtin__ void __syncthreads(void);`
    "extern __device__ __device_builtin__ void __syncthreads(void);\n"
    "typedef struct __device_builtin__ __builtin_align__(16) { unsigned a, b, c, d; } quad;\n"
    "__global__ void k(quad *q) { __shared__ quad s[32]; s[threadIdx.x] = q[threadIdx.x]; __syncthreads();\n"
    "  q[threadIdx.x] = s[31 - threadIdx.x]; }\n",
], ids=["memcpy-and-constant-macros", "builtin-markers"])
def test_what_the_toolkit_declares_is_declared(src):
    res = analyze(src, path="m.cu", block=(32, 1, 1), grid=(1, 1, 1))
    assert res.paths == {"k": "libclang"} and "did not parse" not in res.assumed
    assert not _rules(res) & {"race.shared", "analysis.incomplete"}


def test_an_instantiation_of_a_host_template_that_did_not_parse_is_left_out(tmp_path):
    # CTranslate2's `DECLARE_IMPL(float)` instantiates a member whose definition was skipped (it names host-only
    # code): clang drops the instantiation, so no declaration holds the error
    (tmp_path / "ops.h").write_text(
        "#pragma once\nnamespace ops {\nenum class Device { CPU, CUDA };\nstruct View { float *data; int n; };\n"
        "struct Norm {\n  template <Device D, typename T> void compute(const View &in, View &out) const;\n};\n}\n")
    (tmp_path / "norm.cu").write_text(
        '#include "ops.h"\nnamespace ops {\n'
        "__global__ void norm(const float *in, float *out, int n) {\n"
        "  __shared__ float s[256];\n  s[threadIdx.x] = in[threadIdx.x];\n"
        "  out[threadIdx.x] = s[255 - threadIdx.x];\n}\n"
        "template <Device D, typename T>\nvoid Norm::compute(const View &in, View &out) const {\n"
        "  host_only_logger().info(in.n);\n  norm<<<1, 256>>>(in.data, out.data, in.n);\n}\n"
        "#define DECLARE_IMPL(T) \\\n  template void Norm::compute<Device::CUDA, T>(const View &, View &) const;\n"
        "DECLARE_IMPL(float)\nDECLARE_IMPL(double)\n"
        "template void Norm::compute<Device::CPU, float>(const View &in,\n"
        "                                                View &out) const;\n}\n")
    res = analyze(tmp_path / "norm.cu", block=(256, 1, 1), grid=(1, 1, 1))
    assert res.paths["norm"].startswith("libclang"), res.paths
    assert "sync.missing" in _rules(res)


def test_a_class_that_did_not_parse_leaves_its_namespaces_closed(tmp_path):
    # MNN's `class X :\n#ifdef ... #else public Execution #endif {`: error recovery stretches the class over the
    # `}` of its namespaces; blanking those as well left the file unbalanced
    (tmp_path / "exec.hpp").write_text('#pragma once\nnamespace eng {\nnamespace gpu {\nclass Matmul :\n    #ifdef TUNED\n    public TunedBase\n    #else\n    public Execution\n    #endif\n{\npublic:\n    Matmul(bool transposeA, Backend *backend, int aS = 1);\n    virtual ~Matmul();\n    virtual ErrorCode onExecute(const std::vector<Tensor *> &inputs, const std::vector<Tensor *> &outputs) override;\nprivate:\n    bool mTransposeA;\n    Backend* mBackend = nullptr;\n    std::shared_ptr<Tensor> mBiasTensor;\n    GemmBatched_F16_Row_Column mGemmBatched;\n    GemmTensor_F32_Sm75 mGemm;\n};\n} // namespace gpu\n} // namespace eng\n')
    (tmp_path / "exec.cu").write_text('#include "exec.hpp"\nnamespace eng {\nnamespace gpu {\n__global__ void pack(const float *in, float *out) {\n  __shared__ float s[128];\n  s[threadIdx.x] = in[threadIdx.x];\n  out[threadIdx.x] = s[127 - threadIdx.x];\n}\nMatmul::Matmul(bool transposeA, Backend *backend, int aS) :\n    #ifdef TUNED\n    TunedBase(backend)\n    #else\n    Execution(backend)\n    #endif\n{\n    mTransposeA = transposeA;\n}\nErrorCode Matmul::onExecute(const std::vector<Tensor *> &inputs, const std::vector<Tensor *> &outputs) {\n  pack<<<1, 128>>>(nullptr, nullptr);\n  return NO_ERROR;\n}\n}\n}\n')
    res = analyze(tmp_path / "exec.cu", block=(128, 1, 1), grid=(1, 1, 1))
    assert res.paths["pack"].startswith("libclang"), res.paths
    assert "sync.missing" in _rules(res)


def test_cub_fp_limits_are_declared():
    # CTranslate2's top-k keeps `T u = cub::FpLimits<T>::Lowest();` in a struct its kernels use
    src = """
#include <cub/cub.cuh>
template <typename T> struct TopK {
  int p = -1;
  T u = cub::FpLimits<T>::Lowest();
  __device__ void insert(T e, int i) { if (e > u) { u = e; p = i; } }
};
template <typename T, int B>
__global__ void topk(const T *x, int *out, int n) {
  typedef cub::BlockReduce<int, B> R;
  __shared__ typename R::TempStorage tmp;
  TopK<T> best;
  for (int i = threadIdx.x; i < n; i += B) best.insert(x[i], i);
  int p = R(tmp).Reduce(best.p, cub::Max());
  if (threadIdx.x == 0) out[blockIdx.x] = p;
}
void run(const float *x, int *o, int n) { topk<float, 128><<<4, 128>>>(x, o, n); }
"""
    res = analyze(src, path="topk.cu")
    assert res.paths["topk"] == "libclang", res.paths


def test_a_header_helper_declared_after_a_standard_header_is_inlined(tmp_path):
    # a kopt stub header (<vector>) a user's header includes after its helpers: the stub's declarations came among
    # the user's, and the search for where those begin skipped the helpers before them (lmdeploy's `round_up`)
    (tmp_path / "math.h").write_text(
        "#pragma once\nnamespace tm {\n"
        "template <class T> __host__ __device__ constexpr T round_up(T a, T b) { return (a + b - 1) / b * b; }\n}\n"
        "#include <vector>\n")
    (tmp_path / "k.cu").write_text(
        '#include "math.h"\nnamespace tm {\n__global__ void scan(const float *x, int n) {\n'
        "  __shared__ float s[256];\n"
        "  for (int i = threadIdx.x; i < round_up(n, 256); i += 256) {\n"
        "    s[threadIdx.x] = i < n ? x[i] : 0.f;\n    __syncthreads();\n  }\n}\n"
        "void run(const float *x, int n) { scan<<<1, 256>>>(x, n); }\n}\n")
    res = analyze(tmp_path / "k.cu")
    assert res.paths["scan"].startswith("libclang"), res.paths
    assert "barrier.divergent" not in {d.rule for d in res.diagnostics}, res.diagnostics


def test_a_host_class_keeps_its_type_when_only_a_friend_or_a_static_member_does_not_parse(tmp_path):
    # the class's friend operator and static constant name what kopt's host library lacks: dropping them, not the
    # class, keeps the structs built on it (and the functions built on those) declared for the kernel, where
    # dropping each declaration that names a dropped one took more rounds than the front end makes
    (tmp_path / "common.h").write_text("""#pragma once
#include <algorithm>
#include <type_traits>
namespace te {
struct NVTEShape { unsigned long data[8]; unsigned long ndim; };
class Shape {
 public:
  static constexpr unsigned long max_ndim = std::extent_v<decltype(NVTEShape::data)>;
  friend bool operator==(const Shape &a, const Shape &b) noexcept {
    return std::equal(a.begin(), a.end(), b.begin(), b.end());
  }
  const unsigned long *begin() const { return data_.data; }
  const unsigned long *end() const { return data_.data + data_.ndim; }
 private:
  NVTEShape data_{};
};
struct SimpleTensor { void *dptr; Shape shape; };
struct Tensor { SimpleTensor data; SimpleTensor scale_inv; };
struct GroupedTensor { Tensor *tensors; int num; };
struct Workspace { GroupedTensor groups[2]; };
inline int groups_of(const Workspace &w) { return w.groups[0].num + w.groups[1].num; }
inline bool same_shape(const Tensor &a, const Tensor &b) { return a.data.shape == b.data.shape; }
inline void *data_of(const Tensor &t) { return t.data.dptr; }
constexpr int kThreads = 256;
__device__ inline float scaled(float x, float s) { return x * s; }
}  // namespace te
""")
    (tmp_path / "k.cu").write_text('#include "common.h"\n'
                                   "__global__ void scale(float *out, const float *in, float s, int n) {\n"
                                   "  int i = blockIdx.x * te::kThreads + threadIdx.x;\n"
                                   "  if (i < n) out[i] = te::scaled(in[i], s);\n}\n")
    res = analyze(tmp_path / "k.cu", block=(256, 1, 1))
    assert res.paths["scale"].startswith("libclang"), res.paths["scale"]


def test_a_classs_own_wait_member_is_inlined_not_read_as_a_cuda_barrier():
    # a loader whose `wait()` is a warp barrier: one warp per token leaves the loop together, so no divergence;
    # the same loop around a block barrier in the member function does diverge
    src = """
struct Loader { float *buf; __device__ void wait() { __syncwarp(); } };
struct Gate { float *buf; __device__ void wait() { __syncthreads(); } };
__global__ void per_warp(float *out, int num_tokens) {
  int per_block = blockDim.x / 32, warp_id = threadIdx.x / 32;
  Loader l{out};
  for (int round = blockIdx.x; round < 100; round += gridDim.x) {
    if (round * per_block + warp_id >= num_tokens) break;
    l.wait();
  }
}
__global__ void per_block(float *out, int num_tokens) {
  int per_block = blockDim.x / 32, warp_id = threadIdx.x / 32;
  Gate l{out};
  for (int round = blockIdx.x; round < 100; round += gridDim.x) {
    if (round * per_block + warp_id >= num_tokens) break;
    l.wait();
  }
}
"""
    res = analyze(src, path="m.cu", block=(128, 1, 1))
    divergent = {d.witness.get("kernel") for d in res.diagnostics if d.rule == "barrier.divergent"}
    assert divergent == {"per_block"}, [d.message for d in res.diagnostics]


def test_stray_tokens_inside_a_namespace_are_blanked_like_those_at_file_scope():
    # what error recovery can leave of a host function whose body is a macro's lambda-like argument (the tail
    # `});  );` after the function's blanked extent): inside a namespace it holds no declaration either
    src = """
namespace te {
namespace detail {
constexpr int kWarps = 8;
__global__ void k(float *o, int n) {
  int tile = blockIdx.x + (threadIdx.x / 32) / kWarps;
  if (tile >= n) return;
  o[tile * 256 + threadIdx.x] = 1.f;
  __syncthreads();
}
          });  // NOLINT(*)
  );           // NOLINT(*)
}  // namespace detail
}  // namespace te
"""
    res = analyze(src, path="t.cu", block=(256, 1, 1))
    assert res.paths["k"].startswith("libclang"), res.paths["k"]
    assert not [d for d in res.diagnostics if d.rule == "barrier.divergent"]


def test_an_error_inside_kopts_stub_declarations_is_blanked_where_the_users_code_asked_for_them(tmp_path):
    # host code instantiating a stub type the stub cannot hold (`std::vector<void>`: its `T &operator[]`): clang
    # reports the error inside kopt's declarations, which no blanking may change, so it is placed at the user's
    # line that asked for it and that host declaration is blanked
    (tmp_path / "pool.h").write_text("""#pragma once
#include <vector>
struct RawPool { std::vector<void> blocks; int count; };
inline int pooled(const RawPool &p) { return p.count; }
__device__ inline float twice(float x) { return 2.0f * x; }
""")
    (tmp_path / "k.cu").write_text('#include "pool.h"\n'
                                   "__global__ void scale(float *out, int n) {\n"
                                   "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                                   "  if (i < n) out[i] = twice(out[i]);\n}\n")
    res = analyze(tmp_path / "k.cu", block=(256, 1, 1))
    assert res.paths["scale"].startswith("libclang"), res.paths["scale"]


def test_a_headers_error_directive_asking_for_a_build_setting_does_not_stop_libclang(tmp_path):
    # tiny-cuda-nn style: a header refuses to be read unless the build defines a switch
    (tmp_path / "common.h").write_text("""#ifndef HALF_PRECISION
#error "HALF_PRECISION is undefined. The build system should define it."
#endif
#if HALF_PRECISION
typedef short scalar_t;
#else
typedef float scalar_t;
#endif
""")
    (tmp_path / "k.cu").write_text('#include "common.h"\n__global__ void k(scalar_t* x) { x[threadIdx.x] = 1; }\n')
    res = analyze(tmp_path / "k.cu", block=(32, 1, 1))
    assert res.paths["k"].startswith("libclang") and "analysis.incomplete" not in _rules(res), res.paths


def test_restrict_written_before_the_star_and_limits_of_floats_parse():
    src = """#include <limits>
#include <cuda_fp16.h>
__global__ void k(const __half *__restrict a, half __restrict *b, half __restrict__* c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) { b[i] = a[i]; c[i] = a[i]; }
  if (i == n) b[0] = __float2half(std::numeric_limits<float>::quiet_NaN());
}
"""
    res = analyze(src, path="k.cu", block=(128, 1, 1))
    assert res.paths["k"] == "libclang" and "analysis.incomplete" not in _rules(res), res.paths


def test_a_launch_bounds_constant_is_looked_up_through_namespaces_and_using_directives():
    src = """namespace lib { namespace detail { constexpr int kThreads = 128; } struct Cfg { static constexpr int W = 64; }; }
namespace lib { namespace {
using namespace detail;
__global__ void __launch_bounds__(kThreads) a(float* x) { x[threadIdx.x] = 1; }
__global__ void __launch_bounds__(Cfg::W) b(float* x) { x[threadIdx.x] = 1; }
} }
"""
    res = analyze(src, path="k.cu")
    assumed = " ".join(res.assumed) if isinstance(res.assumed, list) else str(res.assumed)
    assert "a: from __launch_bounds__(128)" in assumed and "b: from __launch_bounds__(64)" in assumed, assumed


def test_host_helpers_around_a_kernel_that_use_the_host_library_parse():
    # host code beside kernels: std::hash, host calls of std::min/max/move, reverse ends, smart pointers against
    # nullptr, constexpr limits of floats, a restrict qualifier inside a comment
    src = """#include <unordered_map>
#include <vector>
#include <memory>
#include <string>
#include <limits>
#include <algorithm>
constexpr float kFloatMin = std::numeric_limits<float>::lowest();
struct CaseHash { unsigned long operator()(const std::string& v) const { return std::hash<std::string>{}(v); } };
struct Shape {
  std::vector<int> dims;
  Shape(std::vector<int>&& d) : dims(std::move(d)) {}
  int last() const { return *dims.rbegin() + std::max(dims[0], 1) + std::min(dims[0], 2); }
};
inline bool ready(const std::shared_ptr<Shape>& s) { return s != nullptr; }
__global__ void k(float* out, const float */*__restrict*/ in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i] > kFloatMin ? in[i] : 0.f;
}
"""
    res = analyze(src, path="k.cu", block=(128, 1, 1))
    assert res.paths["k"] == "libclang" and "analysis.incomplete" not in _rules(res), res.paths


def test_a_launch_blanked_inside_a_macro_definition_keeps_the_macro_whole(tmp_path):
    # faiss style: a host function defines a launching macro in its body; the launch is blanked (device-only parse)
    # and the rest of the macro must stay in the macro, not spill into the function as stray statements
    src = """__global__ void fill(float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = 0.f;
}
void run(float* out, int n, cudaStream_t stream) {
#define RUN_FILL                                  \\
    do {                                          \\
        fill<<<(n + 127) / 128, 128, 0, stream>>>( \\
                out, n);                          \\
    } while (0)
    RUN_FILL;
}
"""
    res = analyze(src, path="k.cu", block=(128, 1, 1))
    assert res.paths["fill"] == "libclang" and "analysis.incomplete" not in _rules(res), res.paths


def test_a_missing_header_named_by_a_macro_is_read_empty_and_its_includer_kept(tmp_path):
    # dmlc-core style: `#include DMLC_EXECINFO_H`; the scan for missing headers cannot name it, so the parse stops
    # there; it is read empty like the others, and the header around it (whose macro the kernel uses) stays
    (tmp_path / "log.h").write_text("""#pragma once
#define TRACE_HEADER <not_shipped_trace.h>
#include TRACE_HEADER
#define IS_POSITIVE(x) ((x) > 0)
""")
    (tmp_path / "k.cu").write_text('#include "log.h"\n'
                                   "__global__ void k(float* x, int n) { if (IS_POSITIVE(n)) x[threadIdx.x] = 1; }\n")
    res = analyze(tmp_path / "k.cu", block=(32, 1, 1))
    assert res.paths["k"].startswith("libclang") and "analysis.incomplete" not in _rules(res), res.paths


def test_headers_reached_by_relative_paths_are_each_read_once(tmp_path):
    from analyzers.clang_front import _reached_headers

    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "base.h").write_text('#include "./base.h"\n#include "../a/base.h"\n#include "./more.h"\n')
    (tmp_path / "a" / "more.h").write_text('#include "./base.h"\n#include <gone.h>\n')
    src = '#include "a/base.h"\n#include "a/./base.h"\n'
    reached = list(_reached_headers(tmp_path / "k.cu", src, [str(tmp_path)]))
    names = sorted(str(f.relative_to(tmp_path)) for _, f, _ in reached if f is not None)
    assert names == ["a/base.h", "a/more.h"] and ("gone.h", None, "") in reached, reached


def test_another_compilers_branch_is_not_taken_to_avoid_a_missing_header(tmp_path):
    # dmlc-core style: `#ifdef _MSC_VER` typedefs what `<sys/types.h>` declares; defining _MSC_VER would read the
    # MSVC branch (here one that redefines a keyword), not a configuration choice
    (tmp_path / "base.h").write_text("""#pragma once
#ifdef _MSC_VER
#define constexpr const
typedef int ssize_type;
#else
#include <sys/not_here.h>
#endif
""")
    (tmp_path / "k.cu").write_text("""#include "base.h"
#include <functional>
inline ssize_type count(const char* s) { ssize_type n = 0; while (s[n]) ++n; return n; }
__global__ void k(float* x) { x[threadIdx.x] = std::plus<float>()(x[threadIdx.x], 1.f); }
""")
    res = analyze(tmp_path / "k.cu", block=(32, 1, 1))
    assert res.paths["k"].startswith("libclang") and "analysis.incomplete" not in _rules(res), res.paths


def test_host_code_using_the_c_library_exceptions_and_atomics_parses_beside_a_kernel():
    src = """#include <cstdio>
#include <cstring>
#include <cstdlib>
#include <exception>
#include <atomic>
#include <functional>
#include <cmath>
struct Err { std::exception_ptr p; void keep() { p = std::current_exception(); } };
struct Counter { std::atomic<int> n{0}; int bump() { return n.fetch_add(1, std::memory_order_relaxed); } };
template <typename T> struct Plus : public std::binary_function<T, T, T> {
  __host__ __device__ T operator()(T a, T b) const { return a + b; } };
inline void report(const char* what) {
  char buf[64];
  snprintf(buf, sizeof(buf), "%s %d", what, (int)std::strlen(what));
  if (std::getenv("QUIET") == nullptr) fprintf(stderr, "%s\\n", buf);
}
inline float next_up(float x) { return std::nextafterf(x, HUGE_VALF); }
__global__ void k(float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = Plus<float>()(out[i], 1.f);
}
"""
    res = analyze(src, path="k.cu", block=(128, 1, 1))
    assert res.paths["k"] == "libclang" and "analysis.incomplete" not in _rules(res), res.paths


def test_a_host_member_of_a_class_whose_device_members_use_a_macro_is_its_own_host_declaration():
    # marian style: `HOST_DEVICE` members (one with a constructor's initializer list over several lines) beside a
    # host constructor; the host constructor alone is blanked when it does not parse, the class and its device
    # members stay (read with the macro as written, tree-sitter ends the class early and the whole class is taken)
    from analyzers.ts_front import host_declarations

    src = """#define HOST_DEVICE __host__ __device__
template <int N> struct Shape {
  int dims[N];
  int stride[N];
  HOST_DEVICE Shape() { dims[0] = 1; }
  HOST_DEVICE Shape(const int* d,
                    const int* s)
  : dims{d[0]}, stride{s[0]} {
    dims[0] += 0;
  }
  Shape(const char* text) {
    parse_dims_from_text(text);
  }
  HOST_DEVICE int size() const { return dims[0]; }
};
"""
    data = src.encode()
    lines = [(data[:a].count(b"\n") + 1, data[:b].count(b"\n") + 1)
             for a, b in host_declarations(src, device_macros={"HOST_DEVICE"})]
    assert lines == [(11, 13)], lines


def test_a_quoted_include_found_in_several_include_folders_resolves_to_the_files_module(tmp_path):
    # PCL style: each module has its own src/internal.hpp; the benchmark passes every module's folder
    for mod, body in (("containers", "struct Other {};"), ("octree", "struct Impl { int n; };")):
        (tmp_path / mod / "src" / "cuda").mkdir(parents=True)
        (tmp_path / mod / "src" / "internal.hpp").write_text(f"#pragma once\n{body}\n")
    k = tmp_path / "octree" / "src" / "cuda" / "k.cu"
    k.write_text('#include "internal.hpp"\n__global__ void k(int* out, Impl impl) { out[threadIdx.x] = impl.n; }\n')
    res = analyze(k, block=(32, 1, 1), include_dirs=[str(tmp_path / m / "src") for m in ("containers", "octree")])
    assert res.paths["k"].startswith("libclang") and "analysis.incomplete" not in _rules(res), res.paths


def test_a_host_library_header_whose_errors_move_on_at_every_blanking_gets_rounds_enough(tmp_path):
    # dmlc-core style: each host class blanked leaves the next one naming it undeclared, one step each, while the
    # file's own host code takes steps of its own; the header (host code only) is read empty once its turn comes
    chain = ["struct C0 { MissingType m; int f() const; };"]
    chain += [f"struct C{i} {{ C{i - 1} prev; int f() const {{ return prev.f(); }} }};" for i in range(1, 12)]
    (tmp_path / "lib.h").write_text("#pragma once\n" + "\n".join(chain) + "\n")
    # (and the file's own host code takes blanking steps of its own meanwhile)
    own = ["struct H0 { OtherMissing m; int f() const; };"]
    own += [f"struct H{i} {{ H{i - 1} prev; int f() const {{ return prev.f(); }} }};" for i in range(1, 8)]
    (tmp_path / "k.cu").write_text('#include "lib.h"\n' + "\n".join(own) +
                                   '\n__global__ void k(float* x) { x[threadIdx.x] = 1; }\n')
    res = analyze(tmp_path / "k.cu", block=(32, 1, 1))
    assert res.paths["k"].startswith("libclang") and "analysis.incomplete" not in _rules(res), res.paths


def test_library_headers_using_the_standard_and_libcudacxx_names_parse():
    # what library headers around kernels take from the C++17/20 library and libcu++ (xgboost's span, NCCL's
    # device API, cuCollections): the rest of <type_traits>, iterator traits, reverse iterators, `__assert_fail`,
    # `offsetof`, `std::optional`, `cuda::atomic_ref` with its memory orders, `cuda::std` names and <bit>
    src = """#include <optional>
#include <functional>
#include <cuda/atomic>
#include <cuda/std/bit>
#include <cuda/std/span>
template <typename T> struct Span {
  static_assert(!std::is_reference_v<T> && std::is_trivially_copyable_v<std::remove_cv_t<T>>, "");
  using iterator_category = std::iterator_traits<T*>::iterator_category;
  using reverse = std::reverse_iterator<T*>;
  using callable = std::invoke_result_t<std::plus<T>, T, T>;
  T* data; unsigned n;
  __host__ __device__ T& operator[](unsigned i) const { if (i >= n) __assert_fail("i < n", __FILE__, __LINE__, ""); return data[i]; }
};
struct Hdr { int id; float v[4]; };
static_assert(offsetof(Hdr, v) == 4, "");
inline std::optional<int> parse(const char* s) { return s ? std::optional<int>(1) : std::nullopt; }
__device__ unsigned flag_of(unsigned* p) { return cuda::atomic_ref<unsigned, cuda::thread_scope_device>{*p}.load(cuda::memory_order_acquire); }
__global__ void k(Span<float> s, unsigned* flags) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  cuda::std::span<float> view(s.data, s.n);
  if (i < s.n && cuda::std::has_single_bit(s.n) && flag_of(flags) != 0u) view[i] = s[i] * 2.f;
}
"""
    res = analyze(src, path="k.cu", block=(128, 1, 1))
    assert res.paths["k"] == "libclang" and "analysis.incomplete" not in _rules(res), res.paths


RANGE_FOR = """__global__ void fill(float *out) {
  __shared__ float sh[256];
  float v[4] = {1, 2, 3, 4};
  float acc = 0;
  for (float x : v) acc += x;
  for (auto &s : sh) s = VALUE;
  __syncthreads();
  out[threadIdx.x] = acc + sh[threadIdx.x];
}
"""


def test_a_range_for_over_an_array_is_a_counted_loop():
    # `for (auto &s : sh)` over a sized array reads as `for (i = 0; i < N; i += 1)` with the element bound: every
    # thread storing its own index into every slot is a race; every thread storing the same zero is not
    src = RANGE_FOR
    racy = analyze(src.replace("VALUE", "threadIdx.x"), path="k.cu", block=(256, 1, 1))
    same = analyze(src.replace("VALUE", "0"), path="k.cu", block=(256, 1, 1))
    assert racy.paths["fill"] == "libclang" and "race.shared" in _rules(racy)
    assert [d.locations[0].line for d in racy.diagnostics if d.rule == "race.shared"] == [6]
    assert not _rules(same) & {"race.shared", "analysis.incomplete"}, same.diagnostics


def test_the_fallback_reads_a_range_for_over_a_local_array_too():
    # the same loops read by the syntax-only fallback (a kernel whose file libclang cannot parse): it had stopped
    # at the range-for as an unsupported construct
    src = RANGE_FOR
    racy = analyze(src.replace("VALUE", "threadIdx.x"), path="k.cu", frontend="tree-sitter", block=(256, 1, 1))
    same = analyze(src.replace("VALUE", "0"), path="k.cu", frontend="tree-sitter", block=(256, 1, 1))
    assert [d.locations[0].line for d in racy.diagnostics if d.rule == "race.shared"] == [6], racy.diagnostics
    assert not [d for d in same.diagnostics if "unsupported" in d.message or d.rule == "race.shared"], \
        same.diagnostics


def test_a_dependent_template_named_without_the_template_keyword_parses():
    # nvcc reads `typename R::with_scope<S>` and `p.operator()<K>(x)` in a template; clang asks for `template` and
    # proposes inserting it: kopt applies that fix-it (in the file and in its headers)
    src = """template <int S> struct Ref { template <int T> using with_scope = Ref<T>;
  template <int K> __device__ int operator()(int x) const { return x + K; }
  __device__ int operator()(int x) const { return x + S; } };
template <class R> __device__ int twice(R r, int x) {
  using local = typename R::with_scope<2>;
  local l;
  return r.operator()<1>(x) + l(x);
}
__global__ void k(int *out) { out[threadIdx.x] = twice(Ref<0>{}, threadIdx.x); }
"""
    res = analyze(src, path="k.cu", block=(128, 1, 1))
    assert res.paths["k"] == "libclang" and "analysis.incomplete" not in _rules(res), res.paths


def test_a_library_specializing_the_libcudacxx_tuple_protocol_parses():
    # a pair type that specializes `tuple_size`/`tuple_element` inside `namespace cuda::std` (as libcu++ allows),
    # packs itself when `has_unique_object_representations_v`, unwraps with `thrust::raw_reference_cast`, sizes a
    # table by `std::array`'s deduction guide in a `__device__` variable, and rebinds an allocator in a host member
    src = """#include <cuda/std/tuple>
#include <thrust/device_reference.h>
#include <array>
#include <memory>
namespace lib {
template <class A, class B> struct pair { A first; B second; };
template <class P> __host__ __device__ constexpr bool packable() { return std::has_unique_object_representations_v<P>; }
template <class T> struct device_alloc { using value_type = T; void deallocate(T *, unsigned long); };
template <class T, class Alloc = device_alloc<T>> struct table {
  using slot_alloc = typename std::allocator_traits<Alloc>::template rebind_alloc<pair<T, T>>;
  slot_alloc alloc; std::byte tag;
  void clear() { alloc.deallocate(nullptr, 0); }
};
}
namespace cuda::std {
template <class A, class B> struct tuple_size<lib::pair<A, B>> : integral_constant<size_t, 2> {};
template <size_t I, class A, class B> struct tuple_element<I, lib::pair<A, B>> { using type = A; };
}
__device__ static constexpr std::array primes{2, 3, 5, 7};
__global__ void k(lib::pair<int, int> *p, int *out) {
  static_assert(cuda::std::tuple_size<lib::pair<int, int>>::value == 2, "");
  auto const &q = thrust::raw_reference_cast(p[threadIdx.x]);
  out[threadIdx.x] = q.first * primes[threadIdx.x % 4] + lib::packable<lib::pair<int, int>>();
}
"""
    res = analyze(src, path="k.cu", block=(128, 1, 1))
    assert res.paths["k"] == "libclang" and "analysis.incomplete" not in _rules(res), res.paths


def test_cub_storage_of_a_type_with_constructors_may_be_shared_and_in_a_union():
    # CUB's TempStorage is raw bytes: a vector type with constructors reduces in __shared__ storage that a union
    # shares with another collective's (clang rejects an initialized __shared__ variable)
    src = """#include <cub/cub.cuh>
struct vec3 { float x, y, z; __host__ __device__ vec3() : x(0), y(0), z(0) {}
  __host__ __device__ vec3(float a) : x(a), y(a), z(a) {} };
__global__ void bounds(const float *in, vec3 *out) {
  typedef cub::BlockReduce<vec3, 256> Reduce;
  typedef cub::BlockReduce<float, 256> Sum;
  __shared__ union { typename Reduce::TempStorage reduce; typename Sum::TempStorage sum; } temp;
  vec3 v(in[blockIdx.x * 256 + threadIdx.x]);
  vec3 r = Reduce(temp.reduce).Sum(v);
  if (threadIdx.x == 0) out[blockIdx.x] = r;
}
"""
    res = analyze(src, path="k.cu", block=(256, 1, 1))
    assert res.paths["bounds"] == "libclang" and "analysis.incomplete" not in _rules(res), res.paths


def test_the_toolkits_half_constants_and_counted_named_barriers_are_declared():
    # cuda_fp16.hpp's / cuda_bf16.hpp's CUDART_*_FP16 / _BF16 constants and `__barrier_sync_count` (a named barrier
    # over some of the block's threads) are the toolkit's: a helper using them is not blanked
    src = """#include <cuda_bf16.h>
__device__ __nv_bfloat16 clamp_inf(__nv_bfloat16 v) { return __hisinf(v) ? CUDART_ZERO_BF16 : v; }
__global__ void k(__nv_bfloat16 *x, __half *h) {
  x[threadIdx.x] = clamp_inf(x[threadIdx.x]);
  h[threadIdx.x] = CUDART_ONE_FP16;
  if (threadIdx.x < 64) __barrier_sync_count(1, 64);
}
"""
    res = analyze(src, path="k.cu", block=(128, 1, 1))
    assert res.paths["k"] == "libclang" and "analysis.incomplete" not in _rules(res), res.paths


def test_device_code_using_thrust_iterators_variants_and_cub_words_parses():
    # what a gradient-boosting library's kernels use: thrust's transform/counting iterators searched under
    # `thrust::seq`, a `cuda::std::variant` visited, CUB's Uninitialized storage and UnitWord, a warp reduction of a
    # braced pair, the lane from `cuda::ptx::get_sreg_laneid()`, a tuple's structured binding, `cuda::std::identity`
    src = """#include <thrust/iterator/transform_iterator.h>
#include <thrust/binary_search.h>
#include <cuda/std/variant>
#include <cuda/std/functional>
#include <cuda/ptx>
#include <cub/cub.cuh>
#include <tuple>
struct Dense { const float *v; }; struct Sparse { const int *idx; };
struct Twice { __device__ float operator()(int i) const { return 2.f * i; } };
struct One { template <class V> __device__ float operator()(V) const { return 1.f; } };
__device__ std::tuple<int, float> split(int i) { return std::make_tuple(i, 1.f); }
__global__ void k(const int *seg, int n, cuda::std::variant<Dense, Sparse> view, float *out) {
  __shared__ cub::Uninitialized<cub::KeyValuePair<int, float>> best;
  typedef cub::WarpReduce<cub::KeyValuePair<int, float>> Reduce;
  __shared__ typename Reduce::TempStorage tmp;
  typename cub::UnitWord<float>::ShuffleWord w = 0;
  auto it = thrust::make_transform_iterator(thrust::make_counting_iterator(0), Twice{});
  auto pos = thrust::lower_bound(thrust::seq, seg, seg + n, (int)threadIdx.x) - seg;
  float f = cuda::std::visit(One{}, view);
  auto [i, g] = split(threadIdx.x);
  auto r = Reduce(tmp).Reduce({i, g}, cub::ArgMax{});
  if (cuda::ptx::get_sreg_laneid() == 0) best.Alias() = r;
  out[threadIdx.x] = it[pos] + f + w + cuda::std::identity{}(g);
}
"""
    res = analyze(src, path="k.cu", block=(32, 1, 1))
    assert res.paths["k"] == "libclang", res.paths


def test_a_host_member_that_does_not_parse_costs_its_class_only_that_member():
    # a class whose only errors are in host member functions keeps its types and device members (kernels use its
    # nested view struct)
    src = """struct Evaluator {
  struct View { const float *w; __device__ float at(int i) const { return w[i]; } };
  View view() const { return View{data}; }
  void load(const char *path) { undeclared_reader r(path); r.fill(data); }
  const float *data;
};
__global__ void k(Evaluator::View v, unsigned *idx, float *out) {
  out[threadIdx.x] = v.at(idx[threadIdx.x]);
}
"""
    res = analyze(src, path="k.cu", block=(128, 1, 1))
    assert res.paths["k"].startswith("libclang") and "analysis.incomplete" not in _rules(res), res.paths


# device code the toolkit's headers accept, each once a reason a file's kernels fell back to the syntax-only path
_TOOLKIT_NAMES = {
    "pow of mixed arithmetic types": """
__device__ double phi(int l, double g) { return pow(2.0f, static_cast<double>(l)) - g + pow(l, 2) + std::pow(g, 2); }
static_assert(sizeof(pow(1.0f, 2.0f)) == 4, "pow(float, float) stays float");
__global__ void k(double *o, const int *l) { o[threadIdx.x] = phi(l[threadIdx.x], o[0]) + fmax(1.0f, o[1]); }
""",
    "CUDA 12 half spellings": """#include <cuda_fp16.h>
template <class T> struct Tr;
template <> struct Tr<nv_half> { using V = __nv_half2; };
__global__ void k(__nv_half *o) { Tr<nv_half>::V v = __halves2half2(o[0], o[1]); o[threadIdx.x] = v.x; }
""",
    "libcu++ fast division": """#include <cuda/cmath>
struct Div {
  __host__ __device__ void divmod(unsigned n, unsigned &q, unsigned &r) const { q = n / impl; r = n - q * d; }
  cuda::fast_mod_div<unsigned> impl; unsigned d;
};
__global__ void k(Div f, unsigned *o) { unsigned q, r; f.divmod(threadIdx.x, q, r); o[threadIdx.x] = q + r; }
""",
    "libcu++ names in a file that includes only CUB": """#include <cub/block/block_scan.cuh>
__global__ void k(float *o) { o[threadIdx.x] = cuda::std::numeric_limits<float>::infinity(); }
""",
    "cooperative groups' cluster queries": """#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void k(float *o) {
  __shared__ float s[4];
  cg::cluster_group c = cg::this_cluster();
  cg::grid_group g = cg::this_grid();
  float *r = c.map_shared_rank(&s[0], 0);
  o[g.cluster_rank()] = r[0] + c.num_blocks() + g.num_clusters();
  c.barrier_wait(c.barrier_arrive());
}
""",
    "an unroll pragma before a statement that is no loop": """__global__ void k(float *o) {
  float a = o[0];
#pragma unroll
  a += 1.f;
  o[threadIdx.x] = a;
}
""",
    "trivially copy/move constructible traits": """#include <type_traits>
template <class T, bool = std::is_trivially_copy_constructible<T>::value &&
                          std::is_trivially_move_constructible<T>::value>
struct Base { T v; };
template <class T> struct Vec : Base<T> {};
__global__ void k(float *o) { Vec<float> v; v.v = 1; o[threadIdx.x] = v.v; }
""",
    "a dim3 from threadIdx": """__device__ int f(const dim3 t = threadIdx) { return t.x; }
__global__ void k(int *o) { o[threadIdx.x] = f(); }
""",
    "a host helper's error inside a __host__ __device__ member": """
inline void report(int c) { undeclared_logger(c); }
struct Buf {
  int n; float *p;
  __host__ __device__ ~Buf() { if (n) report(n); }
};
__global__ void k(Buf b, float *o) { o[threadIdx.x] = b.p[threadIdx.x]; }
""",
}


@pytest.mark.parametrize("name", sorted(_TOOLKIT_NAMES))
def test_device_code_the_toolkit_accepts_parses(name):
    res = analyze(_TOOLKIT_NAMES[name], path="k.cu", block=(32, 1, 1))
    assert res.paths["k"].startswith("libclang") and "analysis.incomplete" not in _rules(res), res.paths


def test_a_host_class_holding_an_nccl_communicator_parses_without_nccl(tmp_path):
    (tmp_path / "info.h").write_text("""#include <nccl.h>
class Info {
 public:
  virtual void set(ncclComm_t c, int r) { comm_ = c; rank_ = r; }
 protected:
  ncclComm_t comm_ = nullptr; int rank_ = -1;
};
""")
    src = """#include "info.h"
struct Splits : Info { template <bool A> __device__ static double gain(double g) { return A ? g : -g; } };
__global__ void k(double *o) { o[threadIdx.x] = Splits::gain<true>(o[0]); }
"""
    (tmp_path / "k.cu").write_text(src)
    res = analyze(src, path=str(tmp_path / "k.cu"), block=(32, 1, 1))
    assert res.paths["k"] == "libclang", res.paths


@pytest.mark.parametrize("switch", ["BUILD_CUDA_MODULE", "MY_OS_WINDOWS"])
def test_the_cuda_builds_switch_that_turns_a_units_device_qualifier_macro_on_is_defined(tmp_path, switch):
    # `#ifdef BUILD_CUDA_MODULE / #define HD __host__ __device__ / #else / #define HD`: a kernel file is compiled by
    # the CUDA build, so a helper the kernel calls is a device function; a switch not named for the CUDA build (NCCL's
    # `NCCL_OS_WINDOWS` branch defines its inline qualifier macro too) stays off
    (tmp_path / "macros.h").write_text(f"#ifdef {switch}\n#define MY_HD __host__ __device__\n#else\n"
                                       "#define MY_HD\n#endif\n")
    src = """#include "macros.h"
MY_HD inline float huber(float r) { return abs(r) < 1.f ? r : 1.f; }
__global__ void k(float *o) { o[threadIdx.x] = huber(o[0]); }
"""
    (tmp_path / "k.cu").write_text(src)
    res = analyze(src, path=str(tmp_path / "k.cu"), block=(32, 1, 1))
    if switch == "BUILD_CUDA_MODULE":
        assert res.paths["k"] == ("libclang (`-DBUILD_CUDA_MODULE=1` from the CUDA branch of its device qualifier "
                                  "macros)"), res.paths
    else:
        assert switch not in res.paths["k"], res.paths


def test_a_launch_whose_configuration_preprocessor_branches_choose_parses():
    # deepmd-kit's launchers: `k<T, M>` / `#if GOOGLE_CUDA` / `<<<g, b>>>` / `#elif ...` / `#endif` / `(args);` in a
    # host function that holds an error: the launch is blanked from the kernel's name, its directives kept
    src = """template <typename T, int M>
__global__ void k(T *out, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) out[i] = 0; }
template <typename T, int M>
void launch(T *out, int n, int b) {
  k<T, M>
#if GOOGLE_CUDA
      <<<n, b>>>
#elif TENSORFLOW_USE_ROCM
      <<<n, b, sizeof(T) * M * b>>>
#else
#error "should not touch here"
#endif
      (out, n);
  undeclared_logger(out);
}
template void launch<float, 4>(float *, int, int);
"""
    res = analyze(src, path="k.cu", block=(32, 1, 1))
    assert res.paths["k"].startswith("libclang") and "analysis.incomplete" not in _rules(res), res.paths


def test_a_host_launcher_after_a_macro_whose_launch_was_blanked_parses():
    # ByteTransformer's fused attention: `#define LAUNCH(N) \` / `k<N><<<g, b>>>(o)` then a host template that
    # holds an error; the macro's launch is blanked first and tree-sitter then read the template's header line as
    # the macro's body, so blanking the launcher left `template <int T>` alone before the namespace's `}`
    src = """namespace ns {
template <int N> __global__ void k(float *o) { o[threadIdx.x] = N; }
#define LAUNCH(N)                 \\
  k<N><<<1, 32>>>(                 \\
      o)

template <int T>
void launcher(float *o) {
  undeclared_logger(o);
  LAUNCH(4);
}
template void launcher<1>(float *);
}  // namespace ns
"""
    res = analyze(src, path="k.cu", block=(32, 1, 1))
    assert res.paths["k"].startswith("libclang") and "analysis.incomplete" not in _rules(res), res.paths


@pytest.mark.parametrize("head", ["#define A(X) \\\n   \n", "#define A(X) \\\n   \\\n\n", "#define A  \n"])
def test_tree_sitter_ends_a_macro_with_a_blank_body_before_the_next_declaration(head):
    from analyzers.ts_front import host_declarations

    src = head + "\ntemplate <int T>\nvoid f() { g(); }\n"
    assert [src[a:b] for a, b in host_declarations(src)] == ["template <int T>\nvoid f() { g(); }"]


def test_a_parameter_a_call_leaves_out_takes_its_default_argument():
    # flashinfer's helpers: `uint32_t bx = blockIdx.x` as a default; read as an unknown per-thread value, the barrier
    # under `bx < 4` was divergent
    src = """__device__ void f(float *o, unsigned bx = blockIdx.x) {
  __shared__ float s[256];
  if (bx < 4) {
    s[threadIdx.x] = o[blockIdx.x * 256 + threadIdx.x];
    __syncthreads();
    o[blockIdx.x * 256 + threadIdx.x] = s[255 - threadIdx.x];
  }
}
__global__ void k(float *o) { f(o); }
"""
    res = analyze(src, path="k.cu", block=(256, 1, 1))
    assert not [d for d in res.diagnostics if d.rule.startswith(("barrier", "race", "sync"))], res.diagnostics


def test_three_dimensional_surface_reads_are_declared():
    # gvdb-voxels' brick atlas: `surf3Dread<float>(atlas, x * sizeof(float), y, z)` in every apron and scatter kernel
    src = """__global__ void k(cudaSurfaceObject_t atlas, float *o) {
  float v = surf3Dread<float>(atlas, threadIdx.x * sizeof(float), 0, 0);
  float w; surf3Dread(&w, atlas, 0, threadIdx.x, 0);
  o[threadIdx.x] = v + w + surf1Dread<float>(atlas, 0) + surf2DLayeredread<float>(atlas, 0, 0, 1);
  surf3Dwrite(v, atlas, threadIdx.x * sizeof(float), 1, 0);
}
"""
    res = analyze(src, path="k.cu", block=(32, 1, 1))
    assert res.paths["k"] == "libclang" and "analysis.incomplete" not in _rules(res), res.paths


def test_a_kernel_in_a_namespace_a_macro_names_is_found(tmp_path):
    # `namespace TNN_NS {` (TNN_NS defined in a header): libclang does not count that namespace as the main file's,
    # and every kernel in it went unseen ("no __global__ kernels found")
    (tmp_path / "ns.h").write_text("#pragma once\n#define PROJ_NS proj\n")
    (tmp_path / "k.cu").write_text('#include "ns.h"\nnamespace PROJ_NS {\n'
                                   "__global__ void k(float *x) { x[threadIdx.x / 2] = threadIdx.x; }\n}\n")
    res = analyze(tmp_path / "k.cu", block=(64, 1, 1))
    assert res.paths == {"k": "libclang"}, res.paths
    assert [(d.rule, d.locations[0].line) for d in res.diagnostics if d.rule.startswith("race")] == [("race.global", 3)]


@pytest.mark.parametrize("frontend", ["libclang", "tree-sitter"])
def test_a_switch_runs_the_case_its_value_selects(frontend):
    # GPUSorting's scan: `switch (blockIdx.x) { case 0: first[threadIdx.x] = ...; break; case 1: ... }` writes each
    # output from one block; the case had been an unknown condition, so two blocks seemed to write one element
    src = """__global__ void k(unsigned *first, unsigned *second, const unsigned *in) {
  unsigned v = __shfl_sync(0xffffffff, in[threadIdx.x], 0);
  switch (blockIdx.x) {
  case 0:
    first[threadIdx.x] = v;
    break;
  case 1:
  case 2:
    second[threadIdx.x + 256 * (blockIdx.x - 1)] = v;
    break;
  default:
    FALL
    break;
  }
}
"""
    ok = analyze(src.replace("FALL", ""), path="k.cu", frontend=frontend, block=(256, 1, 1), grid=(4, 1, 1))
    assert not [d for d in ok.diagnostics if d.rule.startswith(("race", "analysis"))], ok.diagnostics
    racy = analyze(src.replace("FALL", "first[threadIdx.x] = v;"), path="k.cu", frontend=frontend,
                   block=(256, 1, 1), grid=(4, 1, 1))
    assert [(d.rule, d.locations[0].line) for d in racy.diagnostics if d.rule.startswith("race")] == [
        ("race.global", 5)], racy.diagnostics


def test_elect_sync_picks_one_lane_of_each_warp():
    # DeepEP's and CUTLASS's `elect_one_sync()`: `elect.sync` sets a predicate in one lane, which then sets the
    # output; a store under it is one lane's (per warp), not every lane's
    body = r'''__device__ __forceinline__ int elect_one_sync() {
  int pred = 0;
  asm volatile("{\n.reg .b32 %%rx;\n.reg .pred %%px;\n  elect.sync %%rx|%%px, %1;\n@%%px mov.s32 %0, 1;\n}\n"
               : "+r"(pred) : "r"(0xffffffff));
  return pred;
}
__global__ void k(int *out) {
  if (elect_one_sync()) out[threadIdx.x / 32] = threadIdx.x;
  OTHER
}
'''
    one = analyze(body.replace("OTHER", ""), path="k.cu", block=(128, 1, 1), grid=(1, 1, 1))
    assert not [d for d in one.diagnostics if d.rule.startswith("race")], one.diagnostics
    two = analyze(body.replace("OTHER", "if (elect_one_sync()) out[0] = threadIdx.x;"), path="k.cu",
                  block=(128, 1, 1), grid=(1, 1, 1))
    assert {(d.rule, d.locations[0].line) for d in two.diagnostics if d.rule.startswith("race")} == {
        ("race.global", 8), ("race.global", 9)}, two.diagnostics


def test_a_header_read_after_its_includer_that_names_it_from_the_projects_top(tmp_path):
    # QuEST: gpu_subroutines.cpp includes "quest/src/core/accelerator.hpp" (a function-like macro the kernels call
    # with a type, `SET_VAR(int, n, ...)`) and then "quest/src/gpu/gpu_kernels.cuh", paths from the top given with -I
    (tmp_path / "quest/src/core").mkdir(parents=True)
    (tmp_path / "quest/src/gpu").mkdir(parents=True)
    (tmp_path / "quest/src/core/accelerator.hpp").write_text(
        "#define SET_VAR(type, name, value) type name = value;\n")
    (tmp_path / "quest/src/gpu/gpu_subroutines.cpp").write_text(
        '#include "quest/src/core/accelerator.hpp"\n#include "quest/src/gpu/gpu_kernels.cuh"\n')
    (tmp_path / "quest/src/gpu/gpu_kernels.cuh").write_text(
        "__global__ void k(float *x) {\n  SET_VAR(int, i, threadIdx.x)\n  x[i] = 0;\n}\n")
    res = analyze(tmp_path / "quest/src/gpu/gpu_kernels.cuh", include_dirs=[str(tmp_path)], block=(64, 1, 1))
    assert res.paths["k"].startswith("libclang"), res.paths
    assert not [d for d in res.diagnostics if d.rule == "analysis.incomplete"], res.diagnostics


LIBRARY_KERNELS = """#include <nvshmem.h>
__global__ void putter(float *out, const float *in, nvshmem_team_t team) {
  __shared__ float s[256];
  s[threadIdx.x] = in[blockIdx.x * 256 + threadIdx.x];
  float *remote = (float *)nvshmem_ptr(out, nvshmem_my_pe());
  FENCE;
  remote[blockIdx.x * 256 + threadIdx.x] = s[255 - threadIdx.x];
}
"""


@pytest.mark.parametrize("fence, race", [("nvshmem_quiet()", True), ("nvshmemx_barrier_all_block()", False)])
def test_a_kernel_using_a_library_whose_header_is_found_nowhere_is_read_by_libclang(tmp_path, fence, race):
    """DeepEP's kernels use NVSHMEM's types and calls, whose headers the project does not hold: those names are read as
    opaque (a type of unknown members, a call of unknown effect), the kernel by libclang; a library call named as a
    barrier orders the block."""
    f = tmp_path / "lib.cu"
    f.write_text(LIBRARY_KERNELS.replace("FENCE", fence))
    res = analyze(f.read_text(), path=str(f), block=(256, 1, 1))
    assert res.paths["putter"].startswith("libclang") and "`nvshmem_team_t`" in res.paths["putter"]
    assert "read as opaque" in res.paths["putter"] and "analysis.incomplete" not in _rules(res)
    assert ("sync.missing" in _rules(res)) == race


def test_the_fallback_reads_cpps_alternative_operator_tokens():
    """DeepEP's `if (not is_forwarder and lane_id == 0)`: `not`, `and` are `!`, `&&` (the guard was lost, so threads
    past 64 read past the array; the race pass stopped on them in another kernel)."""
    src = """__global__ void k(float *out) {
  __shared__ float s[128];
  s[threadIdx.x] = 1.f;
  if (not (threadIdx.x == 0) and threadIdx.x < 64) out[threadIdx.x] = s[threadIdx.x + 1];
}
"""
    res = analyze(src, path="alt.cu", block=(128, 1, 1), frontend="tree-sitter")
    assert "sync.missing" in _rules(res) and "bounds.shared" not in _rules(res)
    assert not any("failed" in d.message for d in res.diagnostics)


def test_a_headers_extern_shared_array_is_shared_memory(tmp_path):
    """hornet's `namespace xlib { extern __shared__ char dyn_smem[]; }` in a header, written through a pointer into it
    (`auto p = xlib::dyn_smem + threadIdx.x; *p = ...`): a store kopt could not place before, its races unchecked."""
    (tmp_path / "basic.cuh").write_text("namespace xlib {\nextern __shared__ char dyn_smem[];\n}\n")
    (tmp_path / "k.cu").write_text("""#include "basic.cuh"
__global__ void k(const char *in, char *out) {
  auto p = xlib::dyn_smem + threadIdx.x;
  *p = in[threadIdx.x];
  out[threadIdx.x] = xlib::dyn_smem[(threadIdx.x + 1) % 128];
}
int main() { k<<<1, 128, 128>>>(0, 0); }
""")
    res = analyze(tmp_path / "k.cu")
    assert "sync.missing" in _rules(res) and "analysis.incomplete" not in _rules(res)


def test_a_toolkit_namespace_a_missing_header_would_have_declared_is_read_from_the_toolkit(tmp_path):
    """fastllm names `cub::BlockReduce` without including cub: a project header found nowhere (`sampling.cuh`)
    included it. The toolkit's header for the namespace is read, and the kernel by libclang."""
    (tmp_path / "k.cu").write_text("""#include "missing_sampling.cuh"
template <int BLOCK_THREADS>
__global__ void k(const float *in, float *out) {
  typedef cub::BlockReduce<float, BLOCK_THREADS> BlockReduce;
  __shared__ typename BlockReduce::TempStorage tmp;
  __shared__ float s[BLOCK_THREADS];
  s[threadIdx.x] = in[threadIdx.x];
  float r = BlockReduce(tmp).Reduce(in[threadIdx.x], cub::Max());
  out[threadIdx.x] = r + s[(threadIdx.x + 1) % BLOCK_THREADS];
}
void h(const float *in, float *out) { k<128><<<1, 128>>>(in, out); }
""")
    res = analyze(tmp_path / "k.cu")
    assert res.paths["k"].startswith("libclang") and "analysis.incomplete" not in _rules(res)


def test_std_forward_is_a_constant_expression():
    """CV-CUDA's `constexpr StrideT kStride[] = {std::forward<StrideT>(Strides)...};`: std::forward (and std::move) are
    constexpr, as the standard's; a declaration without a body made the class's device functions fail to parse."""
    src = """#include <utility>
template <int... V> struct Strides {
  __device__ static int get(int i) { constexpr int k[] = {std::forward<int>(V)...}; return k[i]; }
};
__global__ void k(float *out) {
  __shared__ float s[64];
  s[threadIdx.x] = 1.f;
  out[threadIdx.x] = s[(threadIdx.x + Strides<1, 2>::get(0)) % 64];
}
"""
    res = analyze(src, path="fwd.cu", block=(64, 1, 1))
    assert res.paths["k"].startswith("libclang") and "sync.missing" in _rules(res)


def test_the_rounding_modes_and_a_qualified_toolkit_call_are_declared():
    """CV-CUDA's math wrappers: `#include <cfenv>` for FE_TONEAREST, and `::ullmin(a, b)`, a toolkit device function
    called qualified (its prototype was looked up only for an undeclared unqualified name)."""
    src = """#include <cfenv>
__global__ void k(unsigned long long *out) {
  __shared__ unsigned long long s[64];
  s[threadIdx.x] = ::ullmin(out[threadIdx.x], 7ull) + (FE_TONEAREST == 0);
  out[threadIdx.x] = s[(threadIdx.x + 1) % 64];
}
"""
    res = analyze(src, path="round.cu", block=(64, 1, 1))
    assert res.paths["k"].startswith("libclang") and "sync.missing" in _rules(res)
    assert "FE_TONEAREST" not in res.paths["k"]  # (declared, not read as a constant of any value)


def test_a_member_objects_own_subscript_operator_is_its_member_call():
    """`elem->name[0] = 'a' + threadIdx.x` with `name` a String whose device `operator[]` returns `data[pos]`: the subscript is the
    member's own operator (a regression had read it as a call of a member function named `name`: the store unplaced)."""
    src = """struct String {
  char *data;
  __host__ __device__ char &operator[](int pos) { return data[pos]; }
};
struct DataElement { String name; int value; };
__global__ void k(DataElement *elem) { elem->name[0] = 'a' + threadIdx.x; }
void h(DataElement *e) { k<<<1, 64>>>(e); }
"""
    res = analyze(src, path="member_subscript.cu")
    assert "analysis.incomplete" not in _rules(res) and "race.global" in _rules(res)


def test_pytorch_op_math_types_philox_state_device_assertions_and_kernel_loops_parse():
    # what PyTorch extensions' kernels name besides accessors: DCNv3's `at::opmath_type<scalar_t>`, FBGEMM's
    # `CUDA_KERNEL_LOOP`, `TORCH_DSA_KERNEL_ARGS`, `at::Float8_e4m3fn` and the Philox state unpacked to a tuple
    src = """#include <ATen/ATen.h>
#include <ATen/OpMathType.h>
#include <ATen/cuda/detail/KernelUtils.h>
#include <ATen/cuda/PhiloxCudaState.h>
#include <c10/cuda/CUDADeviceAssertion.h>
#include <curand_kernel.h>
template <typename scalar_t>
__global__ void scale(const scalar_t *in, scalar_t *out, int n) {
  using opmath_t = at::opmath_type<scalar_t>;
  CUDA_KERNEL_LOOP(i, n) { out[i] = static_cast<scalar_t>(static_cast<opmath_t>(in[i]) * opmath_t(2)); }
}
__global__ void invert(const int *perm, int *inv, int n, TORCH_DSA_KERNEL_ARGS) {
  CUDA_KERNEL_LOOP(i, n) {
    CUDA_KERNEL_ASSERT2(perm[i] < n);
    inv[perm[i]] = i;
  }
}
__global__ void noise(float *out, at::Float8_e4m3fn *q, int n, at::PhiloxCudaState philox) {
  const auto seeds = at::cuda::philox::unpack(philox);
  const auto [seed, offset] = at::cuda::philox::unpack(philox);
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  curandStatePhilox4_32_10_t state;
  curand_init(std::get<0>(seeds), i, std::get<1>(seeds) + offset - seed, &state);
  if (i < n) { out[i] = curand_uniform(&state); q[i] = at::Float8_e4m3fn(out[i]); }
}
"""
    res = analyze(src, path="ops.cu", block=(256, 1, 1))
    assert set(res.paths) == {"scale", "invert", "noise"}
    assert all(p.startswith("libclang") for p in res.paths.values()), res.paths
    assert not [d for d in res.diagnostics if d.rule.startswith(("race", "bounds", "barrier"))]


def test_a_char_vectors_fields_are_signed_char_as_overloads_on_them_need():
    # CUDA's char4 holds `signed char`s: a call on its field picks the `signed char` overload (with plain `char`
    # fields, the schar and float overloads were ambiguous and the kernel fell back to tree-sitter)
    src = """
typedef signed char schar;
__device__ schar neg(const schar &v) { return -v; }
__device__ float neg(const float &v) { return -v; }
__global__ void k(const char4 *in, char4 *out) {
  char4 v = in[threadIdx.x];
  v.x = neg(v.x);
  out[threadIdx.x] = v;
}
"""
    res = analyze(src, path="k.cu", block=(64, 1, 1))
    assert res.paths["k"].startswith("libclang"), res.paths


def test_a_file_for_cuda_and_opencl_reads_the_header_its_cuda_switch_includes(tmp_path):
    # BEAGLE's kernels: `#ifdef CUDA` includes the header that defines the kernel keywords (`#define
    # KW_GLOBAL_KERNEL __global__`); the build passes -DCUDA from a file kopt does not read
    (tmp_path / "defs.h").write_text("#ifdef CUDA\n#define KW_GLOBAL_KERNEL __global__\n#define KW_LOCAL_ID_0 "
                                     "threadIdx.x\n#else\n#define KW_GLOBAL_KERNEL __kernel\n#endif\n")
    src = ('#ifdef CUDA\n#include "defs.h"\n#elif defined(FW_OPENCL)\n#define REAL float\n#endif\n'
           "KW_GLOBAL_KERNEL void k(float *x) { x[KW_LOCAL_ID_0] = 1.f; }\n")
    (tmp_path / "k.cu").write_text(src)
    res = analyze(tmp_path / "k.cu", block=(64, 1, 1))
    assert res.paths["k"].startswith("libclang") and "-DCUDA=1" in res.paths["k"], res.paths


def test_a_kernel_file_built_with_a_force_included_header_reads_it(tmp_path):
    # SPECFEM3D compiles kernels/k.cu with `-include mesh_constants_gpu.h` (a make rule's `$(word 2,$^)`): the
    # project header that declares the types the file uses undeclared is read first, and the path says so
    (tmp_path / "kernels").mkdir()
    (tmp_path / "Makefile").write_text("all:\n")
    (tmp_path / "mesh_constants.h").write_text("typedef float realw;\ntypedef const float* __restrict__ "
                                               "realw_const_p;\n#define NGLL2 25\n")
    (tmp_path / "kernels/k.cu").write_text(
        "__global__ void k(realw *out, realw_const_p in) {\n  int i = threadIdx.x + blockIdx.x * NGLL2;\n"
        "  if (threadIdx.x < NGLL2) out[i] = in[i];\n}\n")
    res = analyze(tmp_path / "kernels/k.cu", block=(32, 1, 1))
    assert res.paths["k"].startswith("libclang") and "force-included" in res.paths["k"], res.paths
    assert not [d for d in res.diagnostics if d.rule.startswith(("race", "analysis"))]
