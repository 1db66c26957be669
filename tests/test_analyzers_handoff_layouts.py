"""Round 43's held-out suites: launches read through a project's headers and build switches (cuSZp's block from a
header constant of a sibling file's include, SIRIUS' launcher macro chosen by a CMake generator expression and its
block copied into a dim3), tensors with a stride per digit (ESPResSo's generated lattice-Boltzmann kernels), and data
handed between blocks through a flag (cuSZp's decoupled look-back)."""
from __future__ import annotations

from analyzers import build_flags
from kopt.analyze import analyze

_LOOKBACK = """
__global__ void scan(const int* in, volatile int* part, volatile int* flag, int* out, int n) {
  __shared__ int total;
  int b = blockIdx.x;
  if (threadIdx.x == 0) {
    part[b + 1] = in[b];
    __threadfence();
    flag[b + 1] = 1;
    int sum = 0;
    for (int j = b; j > 0; j--) {
      int s;
      do { s = flag[j]; __threadfence(); } while (s == 0);
      sum += part[j];
    }
    total = sum;
  }
  __syncthreads();
  out[b * blockDim.x + threadIdx.x] = total;
}
"""


def _flagged(res, *rules):
    return [d for d in res.diagnostics if d.rule in rules]


def test_a_value_published_behind_a_fence_and_a_flag_is_read_after_the_spin_on_it(tmp_path):
    k = tmp_path / "scan.cu"
    k.write_text("// kopt: launch scan grid=(8) block=(32, 1, 1) args=(in, part, flag, out, n)\n" + _LOOKBACK)
    assert not _flagged(analyze(k), "race.global")
    # no fence between the write and the flag, or no spin before the read: the pair is a race again
    for name, text in (("nofence", _LOOKBACK.replace("    __threadfence();\n    flag[b + 1] = 1;", "    flag[b + 1] = 1;")),
                       ("nospin", _LOOKBACK.replace("do { s = flag[j]; __threadfence(); } while (s == 0);", "s = 1;"))):
        k = tmp_path / f"{name}.cu"
        k.write_text("// kopt: launch scan grid=(8) block=(32, 1, 1) args=(in, part, flag, out, n)\n" + text)
        assert [d.locations[0].line for d in _flagged(analyze(k), "race.global")], name


_CELLS = """
__global__ void __launch_bounds__(256) collide(double* pdfs, long sx, long sy, long sz, long sf, long nx, long ny, long nz) {
  if (blockDim.x * blockIdx.x + threadIdx.x + 1 < nx - 1 && blockDim.y * blockIdx.y + threadIdx.y + 1 < ny - 1 &&
      blockDim.z * blockIdx.z + threadIdx.z + 1 < nz - 1) {
    const long x = blockDim.x * blockIdx.x + threadIdx.x + 1;
    const long y = blockDim.y * blockIdx.y + threadIdx.y + 1;
    const long z = blockDim.z * blockIdx.z + threadIdx.z + 1;
    const double f0 = pdfs[sx * x + sy * y + sz * z];
    const double f1 = pdfs[sx * x + sy * y + sz * z + sf];
    pdfs[sx * x + sy * y + sz * z] = 0.5 * (f0 + f1);
    pdfs[sx * x + sy * y + sz * z + sf] = 0.5 * (f0 - f1);
  }
}
"""


def test_a_tensor_with_a_stride_per_digit_races_only_where_its_strides_overlap(tmp_path):
    # every thread updates its own cell of a field whose layout the caller's strides give (any of fzyx, zyxf...):
    # a race needs strides that place two cells at one address, which the note names
    k = tmp_path / "collide.cu"
    k.write_text(_CELLS)
    res = analyze(k)
    assert not _flagged(res, "race.global")
    notes = _flagged(res, "race.precondition")
    assert notes and all("sx, sy, sz that place distinct index tuples" in d.witness["precondition"]
                         for d in notes)
    # a digit the same for every thread of a block (the y digit from the block only): still a race inside a block
    racy = tmp_path / "racy.cu"
    racy.write_text(_CELLS.replace("const long y = blockDim.y * blockIdx.y + threadIdx.y + 1;",
                                   "const long y = blockIdx.y + 1;")
                    .replace("const long x = blockDim.x * blockIdx.x + threadIdx.x + 1;", "const long x = blockIdx.x + 1;"))
    assert _flagged(analyze(racy), "race.global")


def test_a_loop_digit_over_a_stride_may_overlap_the_others_and_keeps_the_race(tmp_path):
    # darknet's grouped softmax: each thread's window `output[b * batch_offset + g * group_offset + i * stride]`, i
    # a loop's, overlaps its neighbour's where the caller's strides make groups overlap (spatial softmax)
    k = tmp_path / "softmax.cu"
    k.write_text("""
__global__ void softmax(const float* in, int n, int batch_offset, int group_offset, int stride, float* out) {
  int b = blockIdx.x, g = threadIdx.x;
  float sum = 0;
  for (int i = 0; i < n; ++i) {
    float e = __expf(in[b * batch_offset + g * group_offset + i * stride]);
    sum += e;
    out[b * batch_offset + g * group_offset + i * stride] = e;
  }
  for (int i = 0; i < n; ++i) out[b * batch_offset + g * group_offset + i * stride] /= sum;
}
""")
    res = analyze(k)
    assert _flagged(res, "race.global")
    assert not any("distinct index tuples" in (d.witness or {}).get("precondition", "") for d in res.diagnostics)


def test_a_block_size_a_sibling_file_reads_from_a_header_of_the_given_include_folder(tmp_path):
    # cuSZp: the kernels' file and the launching entry file in src/, the header of both in include/cuSZp/ (reached
    # by its name: the build's -I is not in the suite), with the block as a `static const int`
    (tmp_path / "include" / "lib").mkdir(parents=True)
    (tmp_path / "include" / "lib" / "k.h").write_text(
        "static const int tblock_size = 32; // fixed\n__global__ void k(float* out, volatile int* flag);\n")
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "k.cu").write_text('#include "k.h"\n__global__ void k(float* out, volatile int* flag) {\n'
                                           '  __shared__ float s;\n  if (threadIdx.x == 0) s = out[blockIdx.x];\n'
                                           '  __syncthreads();\n  out[blockIdx.x * blockDim.x + threadIdx.x] = s;\n}\n')
    (tmp_path / "src" / "entry.cu").write_text('#include "k.h"\nvoid run(float* out, volatile int* flag, int n) {\n'
                                               '  int bsize = tblock_size;\n  dim3 block(bsize);\n'
                                               '  k<<<n / bsize, block>>>(out, flag);\n}\n')
    res = analyze(tmp_path / "src" / "k.cu", include_dirs=[str(tmp_path / "include")])
    assert [l["block"] for l in res.launches] == [[32, 1, 1]] and "entry.cu:5" in res.assumed


def test_a_cuda_builds_generator_expression_defines_its_switches_and_another_backends_does_not():
    text = """target_compile_definitions(lib PUBLIC
  $<$<BOOL:${LIB_USE_PROFILER}>:LIB_PROFILE>
  $<$<BOOL:${LIB_USE_CUDA}>:LIB_GPU LIB_CUDA>
  $<$<BOOL:${LIB_USE_ROCM}>:LIB_GPU LIB_HIP LIB_ROCM>
  $<$<COMPILE_LANGUAGE:CUDA>:LIB_WARP=32>
  $<$<BOOL:${LIB_USE_CUDA_GRAPHS}>:LIB_GRAPHS> PLAIN)"""
    assert build_flags._values(text, True) == [("LIB_WARP", "32"), ("LIB_GPU", "1"), ("LIB_CUDA", "1"),
                                               ("PLAIN", "1")]


def test_a_launcher_macro_the_build_chooses_and_a_block_copied_into_a_dim3(tmp_path):
    # SIRIUS: `accLaunchKernel` is defined under `#ifdef SIRIUS_CUDA`, which its CMakeLists.txt defines through a
    # generator expression; the block is `dim3(grid_t)` of a `dim3 grid_t(64)`
    (tmp_path / "CMakeLists.txt").write_text(
        "target_compile_definitions(lib PUBLIC $<$<BOOL:${LIB_USE_CUDA}>:LIB_CUDA>)\n")
    (tmp_path / "acc.hpp").write_text(
        "#ifdef LIB_CUDA\n#define accLaunchKernel(k, g, b, m, s, ...) do { k<<<g, b, m, s>>>(__VA_ARGS__); } while (0)\n"
        "#endif\n")
    (tmp_path / "sum.cu").write_text("""#include "acc.hpp"
__global__ void sum(const float* x, float* out, int n) {
  __shared__ float s[64];
  s[threadIdx.x] = x[blockIdx.x * 64 + threadIdx.x];
  __syncthreads();
  if (threadIdx.x == 0) { float t = 0; for (int i = 0; i < 64; i++) t += s[i]; out[blockIdx.x] = t; }
}
#ifdef LIB_CUDA
#define VALUE 1
#endif
void run(const float* x, float* out, int n) {
  dim3 grid_t(64);
  dim3 grid_b(n);
  accLaunchKernel((sum), dim3(grid_b), dim3(grid_t), 0, 0, x, out, n);
}
""")
    res = analyze(tmp_path / "sum.cu")
    assert [l["block"] for l in res.launches] == [[64, 1, 1]]
