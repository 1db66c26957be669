"""Launch configuration: kopt resolves a candidate's launches and gives them to the analyzers; plain sources fall
back to --block/--grid, then __launch_bounds__, then the unknown case; every result says what it assumed.
Witnesses name threads, indices and the configuration."""
from __future__ import annotations

import pytest

from analyzers.launch import evaluate, fallback
from kopt.analyze import analyze

BODY = """
__global__ void k(float* x) {
  __shared__ float s[256];
  s[threadIdx.x] = x[blockIdx.x * blockDim.x + threadIdx.x];
  __syncthreads();
  x[blockIdx.x * blockDim.x + threadIdx.x] = s[255 - threadIdx.x];
}
"""


def test_c_text_is_read_with_c_semantics():
    assert evaluate("cdiv(1000, 128) * 2", {}) == 16 and evaluate("BLOCK/2", {"BLOCK": "256"}) == 128
    assert evaluate("7 / 2", {}) == 3 and evaluate("-7 / 2", {}) == -3 and evaluate("(256u << 1) % 100", {}) == 12
    assert evaluate("n + 1", {}) is None and evaluate("TILE * 2", {"TILE": "(W + 1)", "W": "31"}) == 64


def test_casts_to_integer_types_keep_a_launch_size_constant(tmp_path):
    assert evaluate("(size_t)w * 2", {"w": "16"}) == 32 and evaluate("static_cast<unsigned int>(B)", {"B": "8"}) == 8
    assert evaluate("f(int)", {}) is None and evaluate("(int)(7.5)", {}) is None  # a call, a truncated float
    (tmp_path / "nw.cu").write_text("""#define BLOCK_SIZE 16
__global__ void k(int* x) { x[threadIdx.x] = 0; }
int main() {
  int workgroupsize = BLOCK_SIZE;
  const size_t local_work = (size_t)workgroupsize;
  k<<<4, local_work>>>(0);
}
""")
    res = analyze(tmp_path / "nw.cu")
    assert [l["block"] for l in res.launches] == [[16, 1, 1]]


def test_constants_initialized_with_parentheses_set_a_launch(tmp_path):
    # `constexpr unsigned int vx(4);` (direct initialization) at file scope, then a dim3 of them; `int f(int a);`
    # is a prototype, not a constant
    (tmp_path / "mc.cu").write_text("""constexpr unsigned int vx(4);
constexpr unsigned int vy(4);
constexpr unsigned int vz(vx * 2);
int f(int a);
__global__ void k(float* x) { x[threadIdx.x] = 0; }
int main() {
  const dim3 b{ vx, vy, vz };
  k<<<4, b>>>(0);
}
""")
    res = analyze(tmp_path / "mc.cu")
    assert [l["block"] for l in res.launches] == [[4, 4, 8]]


def test_fixed_width_integer_template_arguments_of_a_launch_are_read(tmp_path):
    (tmp_path / "t.cu").write_text("""#include <cstdint>
template <typename T, typename I, typename M>
__global__ void k(T* x, M* m, I n) { I i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) m[i] = x[i] > 0; }
int main() {
  k<float, unsigned int, uint8_t>
    <<<64, 256>>>(0, 0, 1000u);
}
""")
    res = analyze(tmp_path / "t.cu")
    assert "template <float, unsigned int, uint8_t>" in res.assumed


def test_a_type_argument_named_by_a_macro_binds_sizeof_in_the_kernel(tmp_path):
    # `k<INPUT_TYPE>` with `#define INPUT_TYPE uint32_t`: the kernel is analyzed for that type, so `sizeof(T)` sets
    # the scan's length. Read generically, the length was an unknown, the offset the up-sweep leaves could be
    # halved to 0 in the down-sweep, and the witness raced at scan[-1].
    (tmp_path / "t.cu").write_text("""#include <cstdint>
#define INPUT_TYPE uint32_t
template <typename T>
__global__ void k(const T* in, T* out) {
  const uint32_t n = 2048 / sizeof(T);
  __shared__ uint32_t scan[n];
  for (int i = threadIdx.x; i < n; i += 128) scan[i] = in[blockIdx.x * n + i];
  __syncthreads();
  int offset = 1;
  for (uint32_t d = n >> 1; d > 0; d >>= 1) {
    for (int it = 0; it < n / 128; it++) {
      int t = threadIdx.x + it * 128;
      if (t < d) scan[offset * (2 * t + 2) - 1] += scan[offset * (2 * t + 1) - 1];
      __syncthreads();
    }
    offset *= 2;
  }
  if (threadIdx.x == 0) scan[n - 1] = 0;
  __syncthreads();
  for (int d = 1; d < n; d *= 2) {
    offset >>= 1;
    for (int it = 0; it < n / 128; it++) {
      int t = threadIdx.x + it * 128;
      if (t < d) {
        int ai = offset * (2 * t + 1) - 1, bi = offset * (2 * t + 2) - 1;
        uint32_t v = scan[ai];
        scan[ai] = scan[bi];
        scan[bi] += v;
      }
      __syncthreads();
    }
  }
  for (int i = threadIdx.x; i < n; i += 128) out[blockIdx.x * n + i] = scan[i];
}
int main() { k<INPUT_TYPE><<<64, 128>>>(0, 0); }
""")
    res = analyze(tmp_path / "t.cu")
    assert "template <uint32_t>" in res.assumed
    assert not [d for d in res.diagnostics if d.severity.value in ("error", "warning") and d.rule != "bank-conflict"]
    assert not [d for d in res.diagnostics if d.rule == "analysis.incomplete"], res.diagnostics


def test_const_after_the_type_keeps_a_constant_and_a_dim3(tmp_path):
    # `constexpr int const BLOCK_SIZE = 256;` in a header and `dim3 const block(BLOCK_SIZE);` at the launch
    (tmp_path / "utils.h").write_text("constexpr int const BLOCK_SIZE = 256;\n")
    (tmp_path / "k.cu").write_text('#include "utils.h"\n__global__ void k(float* x) { x[threadIdx.x] = 0; }\n'
                                   "void run(float* x) {\n  dim3 const block(BLOCK_SIZE);\n  k<<<4, block>>>(x);\n}\n")
    res = analyze(tmp_path / "k.cu")
    assert [l["block"] for l in res.launches] == [[256, 1, 1]]


def test_a_constant_declared_through_a_specifier_macro_sizes_the_launch(tmp_path):
    # gaussian-splatting-cuda: `#define DEF inline constexpr` and `namespace cfg { DEF int block = 128; }`
    (tmp_path / "cfg.h").write_text("#pragma once\n#define DEF inline constexpr\n"
                                    "namespace gs::cfg {\n    DEF int block = 128;\n}\n")
    (tmp_path / "k.cu").write_text('#include "cfg.h"\nnamespace gs {\n'
                                   "__global__ void k(float *x) { __shared__ float s[cfg::block];\n"
                                   "  s[threadIdx.x] = x[threadIdx.x]; __syncthreads(); x[threadIdx.x] = s[0]; }\n"
                                   "void run(float *x, int n) { k<<<(n + cfg::block - 1) / cfg::block, cfg::block>>>(x); }\n}\n")
    res = analyze(tmp_path / "k.cu")
    assert [l["block"] for l in res.launches] == [[128, 1, 1]], res.assumed
    assert not [d for d in res.diagnostics if d.rule.startswith("bounds")], res.diagnostics


def test_the_candidates_tunables_and_d_values_set_the_analyzed_launch():
    src = "// kopt: tune BLOCK in [128, 256]\n// kopt: launch k grid=(8) block=(BLOCK, 1, 1) args=(x)\n" + BODY
    res = analyze(src, path="t.cu")
    assert res.launches == [{"kernel": "k", "grid": [8, 1, 1], "block": [128, 1, 1], "smem": 0, "cluster": None,
                             "source": "annotation"}]
    assert "block=(128, 1, 1)" in res.assumed and "BLOCK=128" in res.assumed
    res = analyze(src, path="t.cu", defines={"BLOCK": "256"})
    assert res.launches[0]["block"] == [256, 1, 1]


def test_a_c_macro_in_a_launch_annotation_is_not_visible():
    src = "#define TILE 64\n// kopt: launch k grid=(8) block=(TILE, 1, 1) args=(x)\n" + BODY
    res = analyze(src, path="m.cu")
    assert res.launches[0]["block"] == [None, 1, 1] and "TILE is a C #define" in res.assumed
    fixed = analyze(src.replace("#define TILE 64", "// kopt: define TILE=64"), path="m.cu")
    assert fixed.launches[0]["block"] == [64, 1, 1]


def test_precedence_cli_then_launch_bounds():
    assert fallback("k", BODY, block=(64, 1, 1)).source == "cli"
    cfg = fallback("k", BODY, launch_bounds="512")
    assert cfg.source == "launch_bounds" and cfg.max_threads == 512 and cfg.block == (None, None, None)
    cfg = fallback("k", "#define LB (2 * 128)\n" + BODY, launch_bounds="LB")
    assert cfg.max_threads == 256


def test_bounds_depend_on_the_assumed_block():
    ok = analyze("// kopt: launch k grid=(4) block=(256, 1, 1) args=(x)\n" + BODY, path="a.cu")
    assert "bounds.shared" not in {d.rule for d in ok.diagnostics}
    assert "block=(256, 1, 1)" in ok.assumed
    bad = analyze(BODY, path="b.cu", block=(512, 1, 1))
    (d,) = [d for d in bad.diagnostics if d.rule == "bounds.shared" and d.locations[0].line == 4]
    assert d.severity.value == "error" and "from --block" in d.witness["launch"]
    assert d.witness["index"] == "256" or int(d.witness["index"]) >= 256
    unknown = analyze(BODY, path="c.cu")  # the block is taken to fit `s` (see the inferred-block tests below)
    assert "any block up to 1024 threads" in unknown.assumed and "assumed blockDim.x <= 256" in unknown.assumed
    assert "bounds.shared" not in {d.rule for d in unknown.diagnostics}
    lb = analyze(BODY.replace("void k", "void __launch_bounds__(512) k"), path="c.cu")  # blocks of 512 declared
    (d,) = [d for d in lb.diagnostics if d.rule == "bounds.shared" and d.locations[0].line == 4]
    assert d.severity.value == "warning" and 256 < d.witness["assumed_block"]["blockDim.x"] <= 512


def test_an_unknown_one_dimensional_block_is_presumed_a_whole_number_of_warps():
    # the barrier is skipped by the threads past the block's last whole warp: only a block that is not a multiple
    # of 32 threads leaves any, which the program's launches (run-time sizes) are presumed never to be
    src = """
__global__ void k(float *x, int n) {
  __shared__ float s[1024];
  if (threadIdx.x < blockDim.x / 32 * 32) {
    s[threadIdx.x] = x[blockIdx.x * blockDim.x + threadIdx.x];
    __syncthreads();
    x[blockIdx.x * blockDim.x + threadIdx.x] = s[blockDim.x / 32 * 32 - 1 - threadIdx.x];
  }
}
void run(float *x, int n, int threads) { k<<<n / threads, threads>>>(x, n); }
"""
    res = analyze(src, path="w.cu")
    assert "a whole number of warps (presumed)" in res.assumed and "decided for every such block" in res.assumed
    assert "barrier.divergent" not in {d.rule for d in res.diagnostics}
    odd = analyze(src, path="w.cu", block=(48, 1, 1))  # a block given is checked as it is
    assert "barrier.divergent" in {d.rule for d in odd.diagnostics}
    told = analyze("// kopt: assume blockDim.x >= 1\n" + src, path="w.cu")  # an assumption on the block: not presumed
    assert "barrier.divergent" in {d.rule for d in told.diagnostics} and "presumed" not in told.assumed
    wide = analyze(src.replace("threadIdx.x <", "threadIdx.x + threadIdx.y <"), path="w.cu")  # 2-D: not presumed
    assert "presumed" not in wide.assumed


def test_race_witness_names_two_threads_and_the_element():
    src = """// kopt: launch k grid=(1) block=(64, 1, 1) args=(out)
__global__ void k(int* out) {
  __shared__ int s[64];
  s[threadIdx.x / 2] = threadIdx.x;
  __syncthreads();
  out[threadIdx.x] = s[threadIdx.x / 2];
}
"""
    res = analyze(src, path="w.cu")
    (d,) = [d for d in res.diagnostics if d.rule == "race.shared"]
    w = d.witness
    assert w["thread_a"] != w["thread_b"] and w["location"].startswith("s[")
    ta, tb = (int(w[k].split("(")[1].split(",")[0]) for k in ("thread_a", "thread_b"))
    assert ta // 2 == tb // 2 == int(w["location"][2:-1])
    assert [loc.role for loc in d.locations] == ["write"]
    assert "block=(64, 1, 1)" in w["launch"]


def test_template_arguments_from_annotation_and_kernel_selection():
    src = """// kopt: launch k<128> grid=(1) block=(256, 1, 1) args=(x)
template <int N>
__global__ void k(float* x) {
  __shared__ float s[N];
  s[threadIdx.x] = x[threadIdx.x];
}
"""
    res = analyze(src, path="t.cu")
    assert "bounds.shared" in {d.rule for d in res.diagnostics}
    assert "template <128>" in res.assumed
    res = analyze(src, path="t.cu", kernels=["k<256>"])
    assert "bounds.shared" not in {d.rule for d in res.diagnostics}


def test_a_plain_file_takes_the_constant_block_of_its_own_launch():
    host = """
#define THREADS 128
void run(float* x, int n) {
  dim3 grid(n / THREADS), block(THREADS);
  k<<<grid, block>>>(x);
}
"""
    res = analyze(BODY + host, path="h.cu")
    assert res.launches[0]["block"] == [128, 1, 1] and res.launches[0]["source"] == "host"
    assert "block from the host code's launch at h.cu:12" in res.assumed
    # a block the file computes at run time stays unknown
    res = analyze(BODY + host.replace("block(THREADS)", "block(n)"), path="h.cu")
    assert res.launches[0]["block"] is None and res.launches[0]["source"] == "none"
    # --block still wins
    assert analyze(BODY + host, path="h.cu", block=(64, 1, 1)).launches[0]["block"] == [64, 1, 1]


def _shapes(src, path=None, **kw):
    from analyzers.host_launch import host_launches

    return {k: sorted((h.block, h.grid, tuple(h.targs)) for h in v.launches) for k, v in
            host_launches(src, path=path, **kw).items()}


def test_host_launch_forms_with_constant_blocks():
    src = """
enum { WARPS = 4 };
constexpr int TPB = 128;
static const unsigned int ROWS = 8;
__global__ void a(float* x) {}
__global__ void b(float* x) {}
__global__ void c(float* x) {}
__global__ void d(float* x) {}
template <typename T, int N> __global__ void e(T* x) {}
void run(float* x) {
  a<<<1, 1>>>(x);
#ifdef TRACE
  printf("a done; }\n");
#endif
  dim3 t;
  t.x = 32 * WARPS;
  t.y = ROWS;
  b<<<dim3(4), t, 0>>>(x);
  void* args[] = {&x};
  cudaLaunchKernel((void*)c, dim3(2, 2), TPB, args, 0, 0);
  cudaLaunchCooperativeKernel((const void*)&d, 1, dim3(TPB / 2, 2), args);
  e<float, 64><<<16, 64>>>(x);
}
"""
    got = _shapes(src)
    assert got["a"] == [((1, 1, 1), (1, 1, 1), ())]
    assert got["b"] == [((128, 8, 1), (4, 1, 1), ())]
    assert got["c"] == [((128, 1, 1), (2, 2, 1), ())]
    assert got["d"] == [((64, 2, 1), (1, 1, 1), ())]
    assert got["e"] == [((64, 1, 1), (16, 1, 1), ("float", "64"))]


def test_launch_ex_config_and_function_pointer():
    src = """
__global__ void p(int* x) {}
__global__ void q(int* x) {}
__global__ void r(int* x) {}
void run(int* x, int which) {
  void (*kern)(int*);
  if (which) kern = &p; else kern = q;
  dim3 threads(16, 16);
  kern<<<8, threads>>>(x);
  cudaLaunchConfig_t config = {0};
  config.gridDim = dim3(4);
  config.blockDim = dim3(96);
  cudaLaunchKernelEx(&config, r, x);
}
"""
    got = _shapes(src)
    assert got["p"] == got["q"] == [((16, 16, 1), (8, 1, 1), ())]
    assert got["r"] == [((96, 1, 1), (4, 1, 1), ())]


def test_a_launch_config_initialized_by_a_braced_list_through_the_projects_macros():
    """DeepEP's `SETUP_LAUNCH_CONFIG(num_sms, num_threads, stream)` declares `cudaLaunchConfig_t cfg = {(num_sms),
    (num_threads), 0, stream, nullptr, 0}` and `LAUNCH_KERNEL(&cfg, kernel, ...)` calls cudaLaunchKernelEx; each has
    another definition under `#else` (the first is the build's); a designated list names its fields."""
    src = """
#ifndef DISABLE_SM90_FEATURES
#define SETUP_LAUNCH_CONFIG(sms, threads, stream) \\
    cudaLaunchConfig_t cfg = {(sms), (threads), 0, stream, nullptr, 0}
#define LAUNCH_KERNEL(config, kernel, ...) check(cudaLaunchKernelEx(config, kernel, ##__VA_ARGS__))
#else
#define SETUP_LAUNCH_CONFIG(sms, threads, stream) int __num_sms = (sms)
#define LAUNCH_KERNEL(config, kernel, ...) kernel<<<__num_sms, 32>>>(__VA_ARGS__)
#endif
__global__ void k(int* x) {}
__global__ void d(int* x) {}
void run(int* x, cudaStream_t s) {
  constexpr int kNumThreads = 768;
  auto kernel = k;
  SETUP_LAUNCH_CONFIG(20, kNumThreads, s);
  LAUNCH_KERNEL(&cfg, kernel, x);
  cudaLaunchConfig_t c2 = {.gridDim = dim3(3), .blockDim = dim3(64, 2)};
  cudaLaunchKernelEx(&c2, d, x);
}
"""
    got = _shapes(src)
    assert got["k"] == [((768, 1, 1), (20, 1, 1), ())]
    assert got["d"] == [((64, 2, 1), (3, 1, 1), ())]


def test_a_launch_case_macro_handed_to_a_switch_macro_launches_either_kernel_a_choice_names():
    """DeepEP's `SWITCH_RDMA_RANKS(COMBINE_LAUNCH_CASE)`: the switch macro calls the case macro it is handed with each
    rank count, and the case macro launches `auto f = low_latency ? combine<true, R, ...> : combine<false, R, ...>`
    (a body aligned for its backslashes, the choice longer than a line)."""
    pad = " " * 60
    src = f"""
#define SWITCH_RANKS(case_macro) \\
    switch (num_ranks) {{ \\
        case 2: case_macro(2); \\
        case 4: case_macro(4); \\
        default: break; \\
    }}
#define LAUNCH_CASE(ranks) {{ {pad} \\
    auto f = low_latency ? combine<true, ranks, float, kWarps, kBytesPerSender, kBytesPerForwarder> {pad} \\
                         : combine<false, ranks, float, kWarps, kBytesPerSender, kBytesPerForwarder>; {pad} \\
    f<<<num_sms, 256>>>(x); }} break
constexpr int kWarps = 4, kBytesPerSender = 8, kBytesPerForwarder = 16;
template <bool kLowLatency, int kRanks, typename T, int A, int B, int C> __global__ void combine(int* x) {{}}
void run(int* x, int num_ranks, int num_sms, bool low_latency) {{
  SWITCH_RANKS(LAUNCH_CASE);
}}
"""
    got = _shapes(src)
    assert [t[:2] for _, _, t in got["combine"]] == [("false", "2"), ("false", "4"), ("true", "2"), ("true", "4")]
    assert {b for b, _, _ in got["combine"]} == {(256, 1, 1)}


def test_names_are_read_in_the_launching_function_and_several_values_give_several_shapes():
    src = """
__global__ void k(float* x) {}
__global__ void m(float* x) {}
void small(float* x) { int threads = 64; k<<<1, threads>>>(x); }
void large(float* x, bool wide) {
  int threads = 256;
  if (wide) threads = 512;
  k<<<2, threads>>>(x);
}
void param(float* x, int threads) { m<<<1, threads>>>(x); }
void both(float* x, int n) { m<<<1, 128>>>(x); }
"""
    from analyzers.host_launch import host_launches

    got = host_launches(src)
    assert sorted(h.block for h in got["k"].launches) == [(64, 1, 1), (256, 1, 1), (512, 1, 1)]
    assert got["k"].unknown == [] and not got["k"].partial
    # the grid of a block launched with two grids is unknown
    assert {h.block: h.grid for h in got["k"].launches}[(64, 1, 1)] == (1, 1, 1)
    # `threads` is m's launching function's parameter there: that launch is not constant; the other one is
    assert [h.block for h in got["m"].launches] == [(128, 1, 1)] and got["m"].partial
    assert got["m"].unknown == ["<input>:10 (`threads`)"]
    # an update the reader cannot follow makes the value unknown
    assert host_launches(src.replace("threads = 512", "threads *= 2"))["k"].launches[0].block == (64, 1, 1)
    assert "k" in host_launches(src.replace("threads = 512", "threads *= 2")) and host_launches(
        src.replace("threads = 512", "threads *= 2"))["k"].partial


def test_a_kernel_in_a_header_takes_the_launches_of_the_files_that_include_it(tmp_path):
    (tmp_path / "sizes.h").write_text("#define BX 32\n")
    (tmp_path / "kern.cuh").write_text('#include "sizes.h"\n__global__ void h(float* x) { x[threadIdx.x] = 0; }\n')
    (tmp_path / "wrap.cuh").write_text('#include "kern.cuh"\n')
    (tmp_path / "main.cu").write_text('#include "wrap.cuh"\nvoid go(float* x) { h<<<1, dim3(BX, 4)>>>(x); }\n')
    (tmp_path / "other.cu").write_text('void go2(float* x) { h<<<1, 999>>>(x); }\n')  # does not include it
    src = (tmp_path / "kern.cuh").read_text()
    assert _shapes(src, path=tmp_path / "kern.cuh") == {"h": [((32, 4, 1), (1, 1, 1), ())]}
    res = analyze(tmp_path / "kern.cuh")
    assert res.launches[0]["block"] == [32, 4, 1] and res.launches[0]["source"] == "host"
    assert "main.cu:2" in res.assumed


def test_a_kernel_takes_the_launches_of_a_file_it_includes(tmp_path):
    # the host half of a kernel file kept in a file it includes (Torch's `generic/X.cu`), of the same base name
    (tmp_path / "generic").mkdir()
    # naming itself for a generator to include again (its body is compiled on the second reading), its block a
    # constant of a header the kernel's file includes
    (tmp_path / "generic" / "k.cu").write_text('#ifndef GEN_FILE\n#define GEN_FILE "generic/k.cu"\n#else\n'
                                               'void go(float* x) { h<<<8, THREADS>>>(x); }\n#endif\n')
    (tmp_path / "common.h").write_text("const int THREADS = 128;\n")
    (tmp_path / "k.cu").write_text('#include "common.h"\n__global__ void h(float* x) { x[threadIdx.x] = 0; }\n'
                                   '#include "generic/k.cu"\n')
    src = (tmp_path / "k.cu").read_text()
    assert _shapes(src, path=tmp_path / "k.cu", kernels=["h"]) == {"h": [((128, 1, 1), (8, 1, 1), ())]}
    res = analyze(tmp_path / "k.cu")
    assert res.launches[0]["block"] == [128, 1, 1] and "generic/k.cu:4" in res.assumed


def test_host_code_is_read_as_the_host_pass_compiles_it(tmp_path):
    # `#define GPU` (no value) in a quoted include enables the GPU branch; the CPU one is never compiled, and a
    # dim3 field set under an undefined #ifdef keeps the #else value
    (tmp_path / "config.h").write_text("#define GPU\n")
    (tmp_path / "main.cu").write_text(
        '#include "config.h"\n__global__ void k(float* x) { x[threadIdx.x] = 0; }\n'
        "void go(float* x) {\n  dim3 b(32);\n#ifdef WIDE\n  b.x = 512;\n#else\n  b.x = 64;\n#endif\n"
        "#ifdef GPU\n  k<<<1, b>>>(x);\n#endif\n#ifdef CPU\n  k<<<1, 999>>>(x);\n#endif\n  b.x = 128;\n}\n")
    src = (tmp_path / "main.cu").read_text()
    assert _shapes(src, path=tmp_path / "main.cu") == {"k": [((64, 1, 1), (1, 1, 1), ())]}


def test_a_kernel_the_build_never_launches_takes_its_launch_under_if_0(tmp_path):
    # `old` is launched only in code `#if 0` leaves out: that launch is its block, and the launch line says where
    # it was read; `k`, launched by the build, keeps its own launch (not the one under `#if 0`)
    (tmp_path / "main.cu").write_text(
        "__global__ void k(float* x) { __shared__ float s[64]; s[threadIdx.x] = x[0]; x[1] = s[0]; }\n"
        "__global__ void old(float* x) { __shared__ float s[64]; s[threadIdx.x] = x[0]; x[1] = s[0]; }\n"
        "__global__ void older(float* x) { x[threadIdx.x] = 0.f; }\n"
        "void go(float* x, int n) {\n#if 0\n  old<<<4, dim3(16, 2)>>>(x);\n  k<<<1, 256>>>(x);\n"
        "  older<<<1, dim3(68, 20)>>>(x);\n  older<<<1, n>>>(x);\n#else\n"
        "  k<<<1, 64>>>(x);\n#endif\n}\n")
    src = (tmp_path / "main.cu").read_text()
    # (`older`'s launches there have no valid constant block: it stays a kernel with no launch)
    assert _shapes(src, path=tmp_path / "main.cu", kernels=["k", "old", "older"]) == {
        "k": [((64, 1, 1), (1, 1, 1), ())], "old": [((16, 2, 1), (4, 1, 1), ())]}
    res = analyze(src, path=str(tmp_path / "main.cu"))
    assert "block from the host code's launch at main.cu:6 (in code `#if 0` leaves out), block=(16, 2, 1)" in \
        res.assumed
    assert not _rules(res, "bounds.shared")  # k at 256 threads would overrun `s`: that launch is not the build's


def test_a_kernel_also_launched_with_a_runtime_block_is_analyzed_at_its_constant_blocks_and_at_every_block():
    host = """
void run(float* x, int n) {
  k<<<1, 256>>>(x);
  k<<<1, n>>>(x);
}
"""
    res = analyze(BODY + host, path="p.cu")
    assert [l["block"] for l in res.launches] == [[256, 1, 1], None]
    assert "not a constant at p.cu:11" in res.assumed
    # only runtime blocks: unknown, and the note names the launch
    res = analyze(BODY + host.replace("k<<<1, 256>>>(x);", ""), path="p.cu")
    assert res.launches[0]["block"] is None and "not a constant at p.cu:11" in res.assumed


def test_a_block_passed_to_the_launching_function_takes_its_callers_constants(tmp_path):
    (tmp_path / "k.cu").write_text("""
__global__ void w(float* x) {}
__global__ void v(float* x) {}
extern "C" void launch_w(float* x, int threads, dim3 tile) {
  w<<<1, dim3(threads, tile.y)>>>(x);
}
void launch_v(float* x, int threads) {
  if (threads > 32) v<<<1, threads>>>(x);
}
void go(float* x) { launch_v(x, 64); }
""")
    (tmp_path / "main.cpp").write_text("""
extern "C" void launch_w(float* x, int threads, dim3 tile);
dim3 tile(8, 4);
int main() { float* x = 0; launch_w(x, 32, tile); launch_w(x, 16, tile); }
""")
    from analyzers.host_launch import host_launches

    got = host_launches((tmp_path / "k.cu").read_text(), path=tmp_path / "k.cu")
    assert sorted(h.block for h in got["w"].launches) == [(16, 4, 1), (32, 4, 1)]
    # a condition of the launching function tests the parameter: the launch may hold for some values only
    assert got["v"].launches == [] and got["v"].unknown == ["k.cu:8 (`threads`)"]
    # a caller passing a value read at run time leaves the block unknown
    (tmp_path / "main.cpp").write_text((tmp_path / "main.cpp").read_text().replace("launch_w(x, 16", "launch_w(x, n"))
    assert host_launches((tmp_path / "k.cu").read_text(), path=tmp_path / "k.cu")["w"].launches == []


def test_a_kernel_loaded_by_name_through_the_driver_api_takes_the_block_of_cu_launch_kernel(tmp_path):
    (tmp_path / "kern.cu").write_text('extern "C" __global__ void add(float* x) { x[threadIdx.x] += 1; }\n')
    (tmp_path / "host.cpp").write_text("""
#define THREADS 128
void run(CUmodule mod, void** args) {
  CUfunction fn;
  cuModuleGetFunction(&fn, mod, "add");
  cuLaunchKernel(fn, 10, 1, 1, THREADS, 2, 1, 0, 0, args, 0);
}
""")
    assert _shapes((tmp_path / "kern.cu").read_text(), path=tmp_path / "kern.cu", kernels=["add"]) == {
        "add": [((128, 2, 1), (10, 1, 1), ())]}


# --- an unknown block is analyzed within the bounds the kernel's own shared arrays imply -------------------------
TRANSPOSE = """
#define TILE 32
__global__ void tr(float* out, const float* in, int w, int h) {
  __shared__ float tile[TILE][TILE + 1];
  int tx = threadIdx.x, ty = threadIdx.y;
  int x = blockIdx.x * TILE + tx, y = blockIdx.y * TILE + ty;
  if (x < w && y < h) tile[ty][tx] = in[y * w + x];
  __syncthreads();
  x = blockIdx.y * TILE + tx; y = blockIdx.x * TILE + ty;
  if (x < h && y < w) out[y * h + x] = tile[tx][ty];
}
"""


def _rules(res, *rules):
    return [d for d in res.diagnostics if d.rule in rules]


def test_the_arrays_extents_bound_an_unknown_block_and_a_note_says_so():
    # (tiled by blockDim: with `blockIdx.x * TILE + tx` the block would be presumed TILE x TILE, see below)
    res = analyze(TRANSPOSE.replace("int x = blockIdx.x * TILE + tx, y = blockIdx.y * TILE + ty;",
                                    "int x = blockIdx.x * blockDim.x + tx, y = blockIdx.y * blockDim.y + ty;"),
                  path="tr.cu")
    assert not _rules(res, "bounds.shared", "race.shared")  # both need a block wider than the tile
    (note,) = _rules(res, "launch.inferred-block")
    assert note.severity.value == "note" and note.locations[0].line == 3
    assert "assumed blockDim.x <= 32 and blockDim.y <= 32" in note.message and "`tile[threadIdx." in note.message
    assert "// kopt: launch" in note.message and "--block" in note.message
    assert note.witness == {"assumed_block_max": {"blockDim.x": 32, "blockDim.y": 32}, "kernel": "tr"}
    (launch,) = res.launches
    assert launch["block"] is None and launch["source"] == "none" and launch["inferred_block"] == {"x": 32, "y": 32}
    assert "assumed blockDim.x <= 32 and blockDim.y <= 32" in res.assumed
    # the same kernel before the analysis took the arrays' word for it: a block of 33+ columns overruns the tile
    wide = analyze(TRANSPOSE, path="tr.cu", block=(64, 16, 1))
    assert _rules(wide, "bounds.shared") and not _rules(wide, "launch.inferred-block")
    # tiled by TILE, one thread per slot: the block is presumed TILE x TILE, and the launch line says so
    tiled = analyze(TRANSPOSE, path="tr.cu")
    assert tiled.launches[0]["block"] == [32, 32, 1] and not _rules(tiled, "launch.inferred-block")
    assert "blockDim.x = TILE = 32, blockDim.y = TILE = 32" in tiled.assumed


def test_a_known_block_is_never_replaced_by_an_inferred_one():
    annotated = analyze("// kopt: launch tr grid=(2, 2) block=(64, 8, 1) args=(out, in, w, h)\n" + TRANSPOSE,
                        path="tr.cu")
    host = analyze(TRANSPOSE + "void run(float* o, const float* i) { tr<<<dim3(2, 2), dim3(64, 8)>>>(o, i, 64, 64); }",
                   path="tr.cu")
    for res in (annotated, host):
        assert not _rules(res, "launch.inferred-block") and "inferred_block" not in res.launches[0]
        (d, *_) = _rules(res, "bounds.shared")
        assert d.severity.value == "error" and "assumed_block" not in d.witness


def test_a_real_hazard_within_the_inferred_bounds_is_still_reported_and_its_witness_keeps_to_them():
    src = """
__global__ void k(const float* x, float* y, float* d, int n) {
  __shared__ float s[256];
  int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
  s[t] = i < n ? x[i] : 0.f;
  y[i] = s[255 - t];           // no barrier: thread t reads what thread 255 - t writes
  __syncthreads();
  if (i < n) d[i] = s[t + 1];  // one past the end for the block's last thread: not where the bound comes from
}
"""
    res = analyze(src, path="k.cu")
    (note,) = _rules(res, "launch.inferred-block")
    assert note.witness["assumed_block_max"] == {"blockDim.x": 256}
    (race,) = _rules(res, "sync.missing", "race.shared")
    assert 129 <= race.witness["assumed_block"]["blockDim.x"] <= 256
    (oob,) = _rules(res, "bounds.shared")
    assert oob.locations[0].line == 8 and oob.witness["index"] == "256"
    assert oob.witness["assumed_block"]["blockDim.x"] == 256


def test_what_the_inference_reads():
    def inferred(body, **kw):
        res = analyze("__global__ void k(float* x, int n) {\n" + body + "\n}\n", path="k.cu", **kw)
        return res.launches[0].get("inferred_block")

    # a constant offset counts for a store: two elements per thread
    assert inferred("__shared__ float s[1024]; int t = threadIdx.x; s[t] = x[t]; s[t + 512] = x[t + 512];") == {
        "x": 512}
    # a guard on the thread index itself means the code is written for larger blocks
    assert inferred("__shared__ float s[16]; if (threadIdx.x < 16) s[threadIdx.x] = x[threadIdx.x];") is None
    assert inferred("__shared__ float s[16]; if (threadIdx.x >= n) return; s[threadIdx.x] = 1.f;") is None
    # a guard over the global index does not bound the thread index
    assert inferred("__shared__ float s[64]; int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                    "if (i < n) s[threadIdx.x] = x[i];") == {"x": 64}
    # a loop of row steps over a tile: each thread covers rows threadIdx.y, +8, +16, +24 of 32
    assert inferred("__shared__ float t[32][32];\n"
                    "for (int i = 0; i < 32; i += 8) t[threadIdx.y + i][threadIdx.x] = x[i];") == {"x": 32, "y": 8}
    # a strided loop over the array and an array as large as any block imply nothing
    assert inferred("__shared__ float s[64]; for (int j = threadIdx.x; j < 64; j += blockDim.x) s[j] = 0.f;") is None
    assert inferred("__shared__ float s[1024]; s[threadIdx.x] = 0.f;") is None
    # a stride of k elements per thread: k * (blockDim.x - 1) + the offset + the width fits the extent
    assert inferred("__shared__ float s[256]; int t = threadIdx.x; s[4 * t] = x[t]; s[4 * t + 3] = 0.f;") == {
        "x": 64}
    # a 16-byte store through a pointer into the array, in bytes: 8 halves per thread of 256
    assert inferred("__shared__ short s[256]; short* p = s + 8 * threadIdx.x;\n"
                    "*reinterpret_cast<float4*>(p) = *reinterpret_cast<const float4*>(x);") == {"x": 32}
    # a load past the thread's own k elements (a neighbour) implies nothing
    assert inferred("__shared__ float s[256]; x[threadIdx.x] = s[4 * threadIdx.x + 4];") is None
    # row-major over the block, `s[ty * 16 + tx]`: a row of 16 threads across, as many rows as the array holds
    assert inferred("__shared__ float s[128]; s[threadIdx.y * 16 + threadIdx.x] = x[0];") == {"x": 16, "y": 8}
    assert inferred("__shared__ float s[128]; if (threadIdx.y < 8) s[threadIdx.y * 16 + threadIdx.x] = 0.f;") is None
    # the thread's index over a 2-D block bounds the block's threads, not one dimension
    assert inferred("__shared__ float s[512]; int t = threadIdx.x + threadIdx.y * blockDim.x;\n"
                    "s[2 * t] = x[t]; s[2 * t + 1] = 0.f;") == {"threads": 256}


def test_a_lane_taken_from_threadIdx_x_makes_x_one_warp_across():
    src = """
__global__ void rows(const float* a, float* y, int m) {
  int lane = threadIdx.x % 32, row = blockIdx.x * blockDim.y + threadIdx.y;
  float v = a[row * 32 + lane];
  for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffff, v, o);
  if (lane == 0 && row < m) y[row] = v;
}
"""
    res = analyze(src, path="r.cu")
    assert not _rules(res, "race.global")  # over blockDim.x = 64, lanes 0 and 32 would both write y[row]
    assert res.launches[0]["inferred_block"] == {"x": 32}
    assert "blockDim.x a whole number of warps (presumed: the kernel takes its lane as threadIdx.x % 32)" in \
        res.assumed
    # a kernel that also takes a warp index from threadIdx.x spans several warps across: only whole warps presumed
    warps = analyze(src.replace("threadIdx.y;", "threadIdx.y * 8 + threadIdx.x / 32;"), path="r.cu")
    assert "inferred_block" not in warps.launches[0] and "blockDim.x a whole number of warps" in warps.assumed
    # the block given is checked as it is
    given = analyze(src, path="r.cu", block=(64, 4, 1))
    assert _rules(given, "race.global")


def test_launch_bounds_that_the_arrays_cannot_hold_are_believed():
    body = ("__global__ void __launch_bounds__(LB) k(float* x) {\n  __shared__ float t[16][17];\n"
            "  t[threadIdx.y][threadIdx.x] = x[0];\n  __syncthreads();\n  x[1] = t[threadIdx.x][threadIdx.y];\n}\n")
    fits = analyze("#define LB 256\n" + body, path="k.cu")
    assert fits.launches[0]["inferred_block"] == {"x": 16, "y": 16} and not _rules(fits, "bounds.shared")
    # 512 threads cannot fit in 16 x 16: the declaration and the arrays disagree, the overrun is reported
    wide = analyze("#define LB 512\n" + body, path="k.cu")
    assert "inferred_block" not in wide.launches[0] and _rules(wide, "bounds.shared")


def test_a_block_dimension_the_kernel_never_reads_is_one_thread_deep():
    src = """
__global__ void k(int* c, int* out) {
  __shared__ int s[16][16];
  s[threadIdx.y][threadIdx.x] = atomicAdd(c, 1);  // threads differing only in threadIdx.z would collide
  __syncthreads();
  out[threadIdx.y * 16 + threadIdx.x] = s[threadIdx.x][threadIdx.y];
}
"""
    res = analyze(src, path="k.cu")
    assert not _rules(res, "race.shared") and "(the kernel uses no threadIdx.z)" in res.assumed
    deep = analyze(src.replace("out[threadIdx.y", "out[threadIdx.z + threadIdx.y"), path="k.cu")
    (d,) = _rules(deep, "race.shared")
    assert d.witness["assumed_block"]["blockDim.z"] >= 2


def test_the_conditions_around_a_launch_give_the_block_it_runs_with(tmp_path):
    """`switch (threads) { case 256: ... }`, `if (n == 16) {...} else {...}`: the launch under each holds for that
    value only; a parameter tested otherwise (or a value read at run time) stays unknown."""
    (tmp_path / "k.cu").write_text("""
template <int B> __global__ void r(float* x) {}
__global__ void m(float* x) {}
__global__ void q(float* x) {}
void run(float* x, int threads, int which) {
  dim3 block(threads, 1, 1);
  switch (threads) {
  case 512:
  case 256: r<256><<<1, block>>>(x); break;
  case 128: { r<128><<<1, block>>>(x); break; }
  default: r<1><<<1, block>>>(x);
  }
}
void pick(float* x, int bs) {
  dim3 t(bs, bs);
  if (bs == 16) {
    m<<<1, t>>>(x);
  } else {
    m<<<1, t>>>(x);
  }
  if (which_one(bs) && bs == 8) q<<<1, bs>>>(x);
}
int main() { float* x = 0; pick(x, 32); }
""")
    from analyzers.host_launch import host_launches

    got = host_launches((tmp_path / "k.cu").read_text(), path=tmp_path / "k.cu")
    assert sorted(h.block for h in got["r"].launches) == [(128, 1, 1), (256, 1, 1), (512, 1, 1)]
    assert got["r"].unknown == ["k.cu:11 (`block`)"]  # `default:`: any other value
    assert sorted(h.block for h in got["m"].launches) == [(16, 16, 1), (32, 32, 1)]  # the else: the callers' 32
    assert [h.block for h in got["q"].launches] == [(8, 1, 1)]


def test_a_switch_on_a_local_read_at_run_time_gives_the_block_built_from_it_before(tmp_path):
    """`int size = 1024; if (argc > 1) size = atoi(...); dim3 block(size); switch (size) { case 256: k<<<g, block>>> }`:
    the variable is set only before both the dim3 and the test, so the block holds the case's value; set again
    between the dim3 and the test, the block is not known."""
    (tmp_path / "k.cu").write_text("""
#include <cstdlib>
template <int B> __global__ void r(float* x) {}
__global__ void late(float* x) {}
int main(int argc, char** argv) {
  float* x = 0;
  int size = 1024;
  if (argc > 1) size = atoi(argv[1]);
  dim3 block(size, 1);
  switch (size) {
  case 1024: r<1024><<<1, block>>>(x); break;
  case 256: r<256><<<1, block>>>(x); break;
  }
  int other = 64;
  dim3 b2(other, 1);
  other = atoi(argv[2]);
  switch (other) {
  case 128: late<<<1, b2>>>(x); break;
  }
}
""")
    from analyzers.host_launch import host_launches

    got = host_launches((tmp_path / "k.cu").read_text(), path=tmp_path / "k.cu")
    assert sorted((h.block, tuple(h.targs)) for h in got["r"].launches) == [((256, 1, 1), ("256",)),
                                                                             ((1024, 1, 1), ("1024",))]
    assert not got["r"].unknown
    assert not got["late"].launches and got["late"].unknown == ["k.cu:18 (`b2`)"]


def test_a_cuda_graph_kernel_nodes_block_is_read_from_its_parameters(tmp_path):
    (tmp_path / "g.cu").write_text("""
#define THREADS 128
__global__ void a(float* x) {}
__global__ void b(float* x) {}
__global__ void c(float* x) {}
void build(cudaGraph_t graph, int n) {
  cudaKernelNodeParams p = {0};
  p.func = (void *)a;
  p.gridDim = dim3(n / THREADS, 1, 1);
  p.blockDim = dim3(THREADS, 1, 1);
  cudaGraphAddKernelNode(&na, graph, 0, 0, &p);
  p.func = (void *)b;
  p.blockDim.x = p.blockDim.y = p.blockDim.z = 1;
  cudaGraphAddKernelNode(&nb, graph, 0, 0, &p);
  p.func = (void *)c;
  p.blockDim.x = n;
  cudaGraphAddKernelNode(&nc, graph, 0, 0, &p);
}
""")
    from analyzers.host_launch import host_launches

    got = host_launches((tmp_path / "g.cu").read_text(), path=tmp_path / "g.cu")
    assert [h.block for h in got["a"].launches] == [(128, 1, 1)]
    assert [h.block for h in got["b"].launches] == [(1, 1, 1)]
    assert got["c"].launches == [] and got["c"].unknown  # a block read at run time


def test_a_kernel_header_launches_with_the_macros_its_includer_defines(tmp_path):
    (tmp_path / "sizes.h").write_text("#define BX 8\n#define BY 4\n")
    (tmp_path / "main.cu").write_text('#include "sizes.h"\n#include "k.cuh"\nint main() { run(0); }\n')
    (tmp_path / "k.cuh").write_text("__global__ void k(float* x) { x[threadIdx.x] = 0; }\n"
                                    "void run(float* x) { dim3 t(BX, BY); k<<<1, t>>>(x); }\n")
    from analyzers.host_launch import host_launches

    got = host_launches((tmp_path / "k.cuh").read_text(), path=tmp_path / "k.cuh")
    assert [h.block for h in got["k"].launches] == [(8, 4, 1)]


def test_a_launching_file_reads_the_block_size_its_includer_defines_before_it(tmp_path):
    # main.cu includes the sizes header, then the kernels, then the file that launches them: the launching file
    # itself never includes the header that defines its block size
    (tmp_path / "sizes.h").write_text("#define NT 256\n")
    (tmp_path / "kern.cu").write_text('#include "sizes.h"\n__global__ void k(float* x) { x[threadIdx.x] = 0; }\n')
    (tmp_path / "run.cu").write_text("void run(float* x) { k<<<24, NT>>>(x); }\n")
    (tmp_path / "main.cu").write_text('#include "sizes.h"\n#include "kern.cu"\n#include "run.cu"\n'
                                      "int main() { run(0); }\n")
    assert _shapes((tmp_path / "kern.cu").read_text(), path=tmp_path / "kern.cu", kernels=["k"]) == {
        "k": [((256, 1, 1), (24, 1, 1), ())]}


def test_a_kernel_launched_from_a_file_of_its_folder_that_only_declares_it(tmp_path):
    (tmp_path / "kern.cu").write_text("__global__ void fill(float* x) { x[threadIdx.x] = 0; }\n")
    (tmp_path / "main.cpp").write_text("__global__ void fill(float* x);\nvoid run(float* x) { fill<<<4, 96>>>(x); }\n")
    # another program of the folder with its own kernel of the same name: its launches are not this kernel's
    (tmp_path / "other.cu").write_text("__global__ void fill(float* x) { x[0] = 1; }\n"
                                       "void go(float* x) { fill<<<1, 512>>>(x); }\n")
    assert _shapes((tmp_path / "kern.cu").read_text(), path=tmp_path / "kern.cu", kernels=["fill"]) == {
        "fill": [((96, 1, 1), (4, 1, 1), ())]}


def test_a_kernel_passed_to_a_test_function_takes_the_launch_of_its_function_pointer_parameter(tmp_path):
    # a harness of the folder launches whatever kernel it is handed; main.cu passes one of the header's kernels
    (tmp_path / "mma.cuh").write_text("namespace mma {\n"
                                      "__global__ void k16(float* c) { c[threadIdx.x] = 0; }\n"
                                      "__global__ void k16_x4(float* c) { c[threadIdx.x] = 1; }\n"
                                      "__global__ void unused(float* c) { c[threadIdx.x] = 2; }\n}\n")
    (tmp_path / "test.cuh").write_text("""
bool test_16(void (*kernel)(float *)) { float* d; kernel<<<1, 32>>>(d); return true; }
bool test_16_x4(void (*kernel)(float *), int n) { float* d; kernel<<<1, dim3(32, 4)>>>(d); return true; }
""")
    (tmp_path / "main.cu").write_text('#include "mma.cuh"\n#include "test.cuh"\n'
                                      "int main() { test_16(mma::k16); test_16_x4(&mma::k16_x4, 3);\n"
                                      "  // test_16(mma::unused);\n  return 0; }\n")
    got = _shapes((tmp_path / "mma.cuh").read_text(), path=tmp_path / "mma.cuh", kernels=["k16", "k16_x4", "unused"])
    # (keyed as the launches name them: `launches_of` gives each kernel of namespace mma its own)
    assert got == {"mma::k16": [((32, 1, 1), (1, 1, 1), ())], "mma::k16_x4": [((32, 4, 1), (1, 1, 1), ())]}


_TABLE_KERNELS = """
const int W = 32, T = 4;
__global__ void rows(float* v) { __shared__ float s[T][W]; s[threadIdx.y][threadIdx.x] = v[threadIdx.x]; }
__global__ void rows_wide(float* v) { __shared__ float s[T][2 * W]; s[threadIdx.y][threadIdx.x] = v[threadIdx.x]; }
__global__ void cols(float* v) { __shared__ float s[W][T]; s[threadIdx.y][threadIdx.x] = v[threadIdx.y]; }
__global__ void cols_wide(float* v) { __shared__ float s[W][2 * T]; s[threadIdx.y][threadIdx.x] = v[threadIdx.y]; }
dim3 grids[2][2], blocks[2][2];
void setup() {
  grids[0][0] = dim3(8);  blocks[0][0] = dim3(W, T);
  grids[0][1] = dim3(4);  blocks[0][1] = dim3(2 * W, T);
  grids[1][0] = dim3(8);  blocks[1][0] = dim3(T, W);
  grids[1][1] = dim3(4);  blocks[1][1] = dim3(2 * T, W);
}
"""


def test_kernels_launched_through_an_array_of_function_pointers_take_the_geometry_of_their_slot(tmp_path):
    # the kernel stored in fns[i] under `case d:` is launched with blocks[d][i]; every other pairing overflows its
    # shared tile, so a wrong pairing (or no launch at all) reports out-of-bounds writes
    src = _TABLE_KERNELS + """
void run(int d, float* v) {
  void (*fns[2])(float*);
  switch (d) {
    case 0: fns[0] = rows; fns[1] = rows_wide; break;
    case 1: fns[0] = cols; fns[1] = &cols_wide; break;
  }
  for (int i = 0; i < 2; i++)
    fns[i]<<<grids[d][i], blocks[d][i]>>>(v);
}
int main() { setup(); run(0, 0); run(1, 0); return 0; }
"""
    got = _shapes(src, path=tmp_path / "t.cu")
    assert got == {"rows": [((32, 4, 1), (8, 1, 1), ())], "rows_wide": [((64, 4, 1), (4, 1, 1), ())],
                   "cols": [((4, 32, 1), (8, 1, 1), ())], "cols_wide": [((8, 32, 1), (4, 1, 1), ())]}
    res = analyze(src, path=str(tmp_path / "t.cu"))
    assert not [d for d in res.diagnostics if d.severity == "error"], [d.message for d in res.diagnostics]
    assert all(launch["block"] is not None for launch in res.launches)


def test_a_geometry_table_written_at_an_index_that_is_not_a_literal_gives_no_block(tmp_path):
    # blocks[d][i] may be any of the loop's writes: its slot is no longer a variable of its own
    src = _TABLE_KERNELS + """
void widen(int k) { for (int j = 0; j < 2; j++) blocks[k][j] = dim3(1024); }
void run(int d, float* v) {
  void (*fns[2])(float*);
  switch (d) { case 0: fns[0] = rows; fns[1] = rows_wide; break; }
  for (int i = 0; i < 2; i++) fns[i]<<<grids[d][i], blocks[d][i]>>>(v);
}
int main() { setup(); widen(0); run(0, 0); return 0; }
"""
    from analyzers.host_launch import host_launches

    launches = host_launches(src, path=tmp_path / "t.cu")
    assert set(launches) == {"rows", "rows_wide"}
    assert all(not e.launches and e.unknown for e in launches.values())


def test_a_driver_api_function_looked_up_under_a_condition_takes_the_launch_values_that_condition_allows(tmp_path):
    (tmp_path / "kern.cu").write_text('extern "C" __global__ void a(float* x) {}\nextern "C" __global__ void b(float* x) {}\n')
    (tmp_path / "host.cpp").write_text("""
static void run(CUmodule mod, void** args, int bs) {
  CUfunction fn;
  if (bs == 8) {
    cuModuleGetFunction(&fn, mod, "a");
  } else {
    cuModuleGetFunction(&fn, mod, "b");
  }
  cuLaunchKernel(fn, 1, 1, 1, bs, bs, 1, 0, 0, args, 0);
}
void go(CUmodule mod, void** args) { run(mod, args, 8); run(mod, args, 16); }
""")
    got = _shapes((tmp_path / "kern.cu").read_text(), path=tmp_path / "kern.cu", kernels=["a", "b"])
    assert got == {"a": [((8, 8, 1), (1, 1, 1), ())], "b": [((16, 16, 1), (1, 1, 1), ())]}


def test_an_unknown_block_whose_checks_were_decided_for_every_block_says_so():
    src = "__global__ void k(int* out) { if (threadIdx.x == 0) out[blockIdx.x] = blockDim.x; }\n"
    (launch,) = analyze(src, path="k.cu").launches
    assert launch["block"] is None and launch["all_blocks"] == 1024
    res = analyze(src + "void run(int* o, int n) { k<<<8, n>>>(o); }\n", path="k.cu")
    assert res.launches[0]["all_blocks"] == 1024 and "decided for every such block" in res.assumed
    assert "its launch block is not a constant at k.cu:2 (`n`)" in res.assumed
    assert "no launch of it that kopt can read was found" in analyze(src, path="k.cu").assumed
    # a bound taken from the kernel's arrays is an assumption, not every block
    assert "all_blocks" not in analyze(TRANSPOSE, path="tr.cu").launches[0]
    # a known block is not "every block"
    assert "all_blocks" not in analyze(src, path="k.cu", block=(64, 1, 1)).launches[0]


def test_a_launch_in_a_function_template_is_read_once_per_instantiation_called():
    src = """
template <typename T, int B> __global__ void kt(T* x) { x[threadIdx.x] = 0; }
template <typename T, int B> void run(T* x, int n) { kt<T, B><<<n / B, B>>>(x); }
void go(float* x, int* y) { run<float, 64>(x, 512); run<int, 32>(y, 512); }
"""
    # a type argument that differs between instantiations stays generic ("?"); the value arguments pair with their
    # blocks and bind the kernel's
    assert _shapes(src) == {"kt": [((32, 1, 1), (16, 1, 1), ("?", "32")), ((64, 1, 1), (8, 1, 1), ("?", "64"))]}
    same = src.replace("run<int, 32>(y", "run<float, 32>(x")
    assert _shapes(same) == {"kt": [((32, 1, 1), (16, 1, 1), ("float", "32")), ((64, 1, 1), (8, 1, 1), ("float", "64"))]}
    # an instantiation with a run-time argument: not a constant
    assert _shapes(src.replace("run<int, 32>", "run<int, N>"))["kt"] == []


def test_a_uint3_block_is_read_like_a_dim3():
    src = """
#define TX 64
__global__ void k(float* x) {}
void run(float* x) { uint3 tids = make_uint3(TX, 4, 1); k<<<dim3(2), tids>>>(x); }
__global__ void k2(float* x) {}
void run2(float* x) { int3 t{32, 2, 1}; k2<<<1, t>>>(x); }
"""
    assert _shapes(src) == {"k": [((64, 4, 1), (2, 1, 1), ())], "k2": [((32, 2, 1), (1, 1, 1), ())]}


def test_a_kernel_template_launching_itself_takes_the_blocks_of_its_instantiations():
    src = """
template <int T> __global__ void tree(int depth) {
  if (depth > 0) tree<T><<<4, T>>>(depth - 1);
}
void go() { tree<128><<<1, 128>>>(3); }
"""
    # one configuration per block and template arguments; the two grids (1 and 4) differ, so it is unknown
    assert _shapes(src) == {"tree": [((128, 1, 1), (None, None, None), ("128",))]}


def test_device_attributes_every_gpu_reports_alike_are_constants_and_a_block_of_no_threads_is_no_launch():
    src = """
__global__ void k(float* x) {}
void configure(int dev, int* threads) {}
int g_threads;
void setup(int dev) { int w = 0; cudaDeviceGetAttribute(&w, cudaDevAttrWarpSize, dev); g_threads = w; }
void run(float* x) { k<<<8, g_threads>>>(x); }
__global__ void k2(float* x) {}
void go(float* x) { cudaDeviceProp prop; cudaGetDeviceProperties(&prop, 0); k2<<<4, prop.maxThreadsPerBlock / 2>>>(x); }
__global__ void k3(float* x) {}
void go3(float* x, int dev) { int n = 0; cudaDeviceGetAttribute(&n, cudaDevAttrMultiProcessorCount, dev); k3<<<4, n>>>(x); }
"""
    got = _shapes(src)
    assert got["k"] == [((32, 1, 1), (8, 1, 1), ())] and got["k2"] == [((512, 1, 1), (4, 1, 1), ())]
    assert got["k3"] == []  # the SM count differs between devices
    # `prop` not declared a cudaDeviceProp: its field is nothing kopt knows
    assert _shapes(src.replace("cudaDeviceProp prop;", "MyProps prop;"))["k2"] == []


def test_host_macros_follow_the_conditional_branch_the_host_pass_keeps(tmp_path):
    """``#ifndef X / #define W 5 / #else / #define W 0``: the host pass keeps the first branch, so the block is
    3 << 5 = 96 (the last ``#define`` of the file would give 3); ``__CUDA_ARCH__`` is undefined on the host."""
    src = tmp_path / "cond.cu"
    src.write_text("#ifndef __DEVICE_EMULATION__\n#define WLOG 5\n#else\n#define WLOG 0\n#endif\n"
                   "#ifdef __CUDA_ARCH__\n#define EXTRA 2\n#else\n#define EXTRA 1\n#endif\n"
                   "__global__ void k(float *o) { o[blockIdx.x * blockDim.x + threadIdx.x] = 1.0f; }\n"
                   "void run(float *o) { k<<<64, (3 << WLOG) * EXTRA>>>(o); }\n")
    assert [l["block"] for l in analyze(src).launches] == [[96, 1, 1]]


def test_a_kernel_file_included_as_dot_slash_is_read_after_its_includer(tmp_path):
    """``#include "./k.cu"`` is an include of k.cu: k.cu is parsed after the includer's typedef and macro, by
    libclang, and launched with the includer's block."""
    (tmp_path / "k.cu").write_text("__global__ void kern(myfp *o) { __shared__ myfp s[N];\n"
                                   "  s[threadIdx.x % N] = 1; __syncthreads();\n"
                                   "  o[blockIdx.x * blockDim.x + threadIdx.x] = s[(threadIdx.x + 1) % N]; }\n")
    (tmp_path / "wrap.cu").write_text('typedef float myfp;\n#define N 100\n#include "./k.cu"\n'
                                      "void run(myfp *o) { kern<<<4, 128>>>(o); }\n")
    res = analyze(tmp_path / "k.cu")
    assert res.paths["kern"].startswith("libclang") and [l["block"] for l in res.launches] == [[128, 1, 1]]


def test_a_macro_used_as_a_statement_without_semicolon_does_not_hide_the_next_declaration():
    src = ("#define CHECK(x) x\n__global__ void k(float* x) { x[threadIdx.x] = 0; }\n"
           "void go(float* x) {\n  CHECK(cudaMemset(x, 0, 4))\n  dim3 threads(128);\n  k<<<1, threads>>>(x);\n}\n")
    assert _shapes(src) == {"k": [((128, 1, 1), (1, 1, 1), ())]}


def test_a_kernel_with_no_launch_and_no_block_index_is_analyzed_as_one_block():
    """No launch found and no blockIdx/gridDim read: one block (note launch.inferred-grid). A kernel that reads the
    block index, updates global memory atomically, or has a launch (or --grid) keeps its grid."""
    one = "__global__ void k(float* z, const float* x) { z[threadIdx.x] += x[threadIdx.x]; }\n"
    res = analyze(one, path="one.cu")
    rules = {d.rule for d in res.diagnostics}
    assert "launch.inferred-grid" in rules and "race.global" not in rules
    assert res.launches[0]["grid"] == [1, 1, 1] and res.launches[0]["inferred_grid"] == [1, 1, 1]
    assert "grid=(1, 1, 1) (inferred" in res.assumed
    for src in (one.replace("z[threadIdx.x] +=", "z[threadIdx.x] = blockIdx.x +"),
                one.replace("{ z", "{ if (threadIdx.x == 0) atomicAdd((float*)x, 1.0f); z"),
                one + "void run(float* z, const float* x) { k<<<64, 128>>>(z, x); }\n"):
        res = analyze(src, path="many.cu")
        rules = {d.rule for d in res.diagnostics}
        assert "launch.inferred-grid" not in rules and "race.global" in rules, (src, rules)
        assert "inferred_grid" not in res.launches[0]
    res = analyze(one, path="one.cu", grid=(4, 1, 1))
    assert {d.rule for d in res.diagnostics} >= {"race.global"} and "inferred_grid" not in res.launches[0]


def test_a_name_declared_anew_in_each_block_is_read_from_the_declaration_in_scope_at_the_launch():
    # C block scope: each `{ }` (here inside a loop) declares its own `b`; the launch sees the one in scope, with
    # the assignments made to it there, and after the loop the function's own `b`
    src = """
__global__ void k(float* x) {}
__global__ void m(float* x) {}
void f(float* x, int n) {
  dim3 b(32);
  for (int i = 0; i < n; i++) {
    { dim3 b(64); k<<<1, b>>>(x); }
    { dim3 b(n); m<<<1, b>>>(x); }
    { dim3 b(128); b.x = 256; k<<<1, b>>>(x); }
    { dim3 b(512); { dim3 b(16); } k<<<2, b>>>(x); }
  }
  k<<<1, b>>>(x);
}
"""
    from analyzers.host_launch import host_launches

    got = host_launches(src)
    assert [(h.block, h.grid) for h in got["k"].launches] == [
        ((64, 1, 1), (1, 1, 1)), ((256, 1, 1), (1, 1, 1)), ((512, 1, 1), (2, 1, 1)), ((32, 1, 1), (1, 1, 1))]
    assert got["k"].unknown == [] and got["m"].unknown == ["<input>:8 (`b`)"]


def test_a_run_time_block_clamped_in_host_code_bounds_the_blocks_analyzed():
    # `t = n; if (n > C) t = C;` (or over t itself, braced or not) and `min(n, C)` bound a block that is not a
    # constant: a range, not a shape; a test of another name, a statement between, or an `if` that does not assign
    # the variable bounds nothing
    src = """
__global__ void k(float* x) {}
void a(float* x, int n) { int t = n; if (n > 512) { int q = 1; t = 512; } k<<<1, t>>>(x); }
void b(float* x, int n) { int t = n; if (t >= 257) t = 128; k<<<1, dim3(t, 2)>>>(x); }
void c(float* x, int n) { dim3 g(std::min(n, 32), 4); k<<<1, g>>>(x); }
void d(float* x, int n, int m) { int t = n; if (m > 512) t = 512; k<<<1, t>>>(x); }
void e(float* x, int n) { int t = n; f(); if (n > 512) t = 512; k<<<1, t>>>(x); }
void f(float* x, int n) { int t = n; if (n > 512) printf("x"); k<<<1, t>>>(x); }
void g(float* x, int n) { int t = n; if (n > 512) { if (n > 9) t = 512; } k<<<1, t>>>(x); }
"""
    from analyzers.host_launch import host_launches

    got = host_launches(src)["k"]
    assert got.unknown_bounds == [512, 512, 128, None, None, None, None] and got.bound is None
    # blocks of at most 512 threads: a stride of 512 between blocks is no race
    res = analyze(src.split("void b")[0].replace("{}", "{ x[blockIdx.x * 512 + threadIdx.x] += 1; }"), path="c.cu")
    assert res.launches[0]["block"] is None and res.launches[0]["all_blocks"] == 512
    assert "host code gives it at most 512 threads" in res.assumed and not res.diagnostics


def test_a_host_function_with_a_parameter_without_a_name_is_not_a_helper():
    """`int f(...)` (or `int f(int)`) in host code returns a value the launches cannot bind by name: it is skipped,
    and the file is analyzed (a crash in the host scan stopped the whole file)."""
    src = (BODY + "static int first(...) { return 1; }\n"
           "void run(float* x) { k<<<first(1), 256>>>(x); }\n")
    res = analyze(src, path="variadic.cu")
    assert res.kernels == ["k"] and res.launches[0]["block"] == [256, 1, 1]
    assert not any(d.rule == "analysis.incomplete" for d in res.diagnostics), [d.message for d in res.diagnostics]


def test_a_launch_size_from_a_struct_member_named_like_a_template_parameter_is_read_without_a_crash():
    """A block size read through a configuration struct's member that has the launcher's template parameter's name
    (`static constexpr int NW = NW_;` in `Cfg`, `launch<8>` instantiating `NW`) is looked up outside any function:
    the host scan crashed there and no launch of the file was read."""
    src = """
template <int NW_> struct Cfg {
  static constexpr int NW = NW_;
  static constexpr int Threads = NW * 32;
};
__global__ void k(float *x) { x[threadIdx.x] = 0.f; }
__global__ void j(float *x) { x[threadIdx.x] = 1.f; }
template <int NW> void launch(float *x) {
  using config = Cfg<NW>;
  dim3 block(config::Threads);
  k<<<1, block>>>(x);
}
void run(float *x) { launch<8>(x); j<<<1, 64>>>(x); }
"""
    res = analyze(src, path="cfg.cu")
    assert not any("launches were not read" in d.message for d in res.diagnostics), [d.message for d in
                                                                                   res.diagnostics]
    assert {g["kernel"]: g["block"] for g in res.launches}["j"] == [64, 1, 1]


def test_a_macro_value_with_a_block_comment_is_read():
    src = "#define TPB 256  /* do not change */\n#define GRID /* blocks */ 8\n" + BODY.replace("256", "TPB") + \
          "int main() { float *x; k<<<GRID, TPB>>>(x); }\n"
    res = analyze(src, path="m.cu")
    assert [(g["block"], g["grid"], g["source"]) for g in res.launches] == [([256, 1, 1], [8, 1, 1], "host")]


def test_a_local_declared_after_the_launch_does_not_hide_the_kernel_of_that_name():
    # `long sum = 0;` later in the launching function is a variable only from its declaration on (C scope): the
    # `sum<<<...>>>` before it launches the kernel `sum`; a local declared in a block the launch is not in, or an
    # assignment to a global function pointer, still counts
    src = """
__global__ void sum(long* x, int n) {}
__global__ void k(float* x) {}
void (*fp)(float*) = k;
int main() {
  long* d; float* x;
  sum<<<1, 32, 0, 0>>>(d, 4);
  { int k = 3; }
  k<<<1, 64>>>(x);
  fp<<<1, 128>>>(x);
  long sum = 0;
  for (int i = 0; i < 4; i++) sum += i;
  return sum;
}
"""
    from analyzers.host_launch import host_launches

    got = host_launches(src)
    assert [h.block for h in got["sum"].launches] == [(32, 1, 1)]
    assert [h.block for h in got["k"].launches] == [(64, 1, 1), (128, 1, 1)]


def test_a_header_constant_declared_after_another_in_one_declaration(tmp_path):
    (tmp_path / "sizes.h").write_text("static const int TILE = 4, THREADS = 64;\n")
    src = '#include "sizes.h"\n__global__ void k(float* x) {}\nvoid run(float* x) { k<<<TILE, THREADS>>>(x); }\n'
    (tmp_path / "k.cu").write_text(src)
    from analyzers.host_launch import host_launches

    got = host_launches(src, path=tmp_path / "k.cu")["k"].launches
    assert [(h.block, h.grid) for h in got] == [((64, 1, 1), (4, 1, 1))]


def test_a_field_of_an_object_built_from_constants_is_a_constant(tmp_path):
    # `Params p(19, 8);` runs the constructor's member initializers over its arguments (and its defaults); a field
    # it does not initialize takes its default member initializer; a field assigned later takes that value (the
    # others keep the constructor's); an object passed by address to a function that may write it is no constant
    (tmp_path / "params.h").write_text(
        "struct Params {\n  unsigned n, k;\n  unsigned N;\n  int pad = 2;\n"
        "  Params(unsigned n = 32, unsigned k = 4, unsigned N = 8) : n(n), k(k), N(N - 1) {}\n};\n")
    src = ('#include "params.h"\n__global__ void k(float* x) {}\n__global__ void m(float* x) {}\n'
           "void run(float* x) {\n  Params p(19, 8);\n  const unsigned t = p.k;\n  dim3 b(t, 128 / t, p.pad);\n"
           "  k<<<p.N, b>>>(x);\n  Params q;\n  q.k = 16;\n  m<<<1, q.k * q.n>>>(x);\n}\n")
    (tmp_path / "k.cu").write_text(src)
    from analyzers.host_launch import host_launches

    got = host_launches(src, path=tmp_path / "k.cu")
    assert [(h.block, h.grid) for h in got["k"].launches] == [((8, 16, 2), (7, 1, 1))]
    assert [(h.block, h.grid) for h in got["m"].launches] == [((512, 1, 1), (1, 1, 1))]  # 16 * 32
    src = src.replace("q.k = 16;", "q.k = 16;\n  void touch(Params *);\n  touch(&q);")
    got = host_launches(src, path=tmp_path / "k.cu")
    assert got["m"].launches == [] and got["m"].unknown


def test_sizes_of_types_and_std_min_are_constants_in_host_code():
    src = """
__global__ void k(float* x) {}
typedef unsigned char pixel;
void run(float* x) {
  const unsigned row = 31 * sizeof(float) + sizeof(pixel);
  const unsigned warps = std::min(1024u / row, 4u);
  dim3 b(32 * warps, 1);
  k<<<std::max(1, 2), b>>>(x);
}
"""
    from analyzers.host_launch import host_launches

    assert [(h.block, h.grid) for h in host_launches(src)["k"].launches] == [((128, 1, 1), (2, 1, 1))]


def test_a_block_sized_by_the_bits_of_a_wide_integer_is_a_constant():
    # a non-maximum-suppression mask of one `unsigned long long` per 64 boxes: one thread per bit
    src = """
const int THREADS = sizeof(unsigned long long) * 8;
__global__ void nms(unsigned long long* mask) {}
void run(unsigned long long* mask, int n) {
  dim3 threads(THREADS);
  nms<<<(n + THREADS - 1) / THREADS, threads>>>(mask);
}
"""
    from analyzers.host_launch import host_launches

    assert [h.block for h in host_launches(src)["nms"].launches] == [(64, 1, 1)]


def test_a_wrapper_with_a_long_commented_parameter_list_takes_its_callers_block():
    params = ",\n".join(f"    int a{i} /* {'the parameter ' * 6} */" for i in range(8))
    src = (f"__global__ void k(float* x) {{}}\nvoid launch(\n{params},\n    float* x, const dim3 threads) {{\n"
           "  k<<<1, threads>>>(x);\n}\nint main() {\n  float* x;\n  const dim3 t(64, 2);\n"
           "  launch(0, 1, 2, 3, 4, 5, 6, 7, x, t);\n}\n")
    from analyzers.host_launch import host_launches

    assert len(src.split("launch(\n")[1].split("{")[0]) > 600
    assert [h.block for h in host_launches(src)["k"].launches] == [(64, 2, 1)]


def test_a_block_computed_through_a_chain_of_constants_in_a_caller():
    src = """
__global__ void k(float* x) {}
void launch(float* x, const dim3 threads) { k<<<1, threads>>>(x); }
int main() {
  float* x;
  const unsigned p = 3, w = 8;
  const unsigned row = (32 - 1) * p + w;
  const unsigned patch = row * w * sizeof(unsigned char);
  const unsigned avail = 48 * 1024 - patch;
  const unsigned per = row * sizeof(unsigned) + 32 + 15 * 32 * sizeof(unsigned);
  const unsigned warps = std::min(avail / per, 16u);
  dim3 t = dim3(32 * warps, 1);
  launch(x, t);
}
"""
    from analyzers.host_launch import host_launches

    assert [h.block for h in host_launches(src)["k"].launches] == [(512, 1, 1)]


def test_work_sizes_kept_in_array_elements_are_read():
    # the OpenCL-style `size_t lws[2]; lws[0] = 16; ... dim3 b(lws[0], lws[1]);` of ported code
    src = BODY + ("#define TILE 16\nvoid run(float *x, int w) {\n  size_t lws[2], gws[2];\n  lws[0] = TILE;\n"
                  "  lws [ 1 ] = TILE / 2;\n  gws[0] = w / TILE;\n  dim3 b(lws[0], lws[1]);\n"
                  "  k<<<dim3(gws[0]), b>>>(x);\n}\n")
    res = analyze(src, path="ocl.cu")
    assert [g["block"] for g in res.launches] == [[16, 8, 1]]


SWEPT = """
__global__ void k(float* x) {
  int g = blockIdx.x * blockDim.x + threadIdx.x;
  x[g / 32 * 32 + threadIdx.x % 32] = g;  // a race only for a block that is not a multiple of 32
}
void run2(float* x, int n, int block_size) { k<<<n / block_size, block_size>>>(x); }
void run(int which, float* x, int n, int block_size) {
  switch (which) {
    case 2: run2(x, n, block_size); break;
  }
}
int main() {
  float* x;
  const int warp_size = 32;
  for (int j = warp_size; j <= 1024; j = j * 2) {
    int block_size = j;
    run(2, x, 1 << 20, block_size);
  }
}
"""


def test_a_block_size_sweep_through_wrappers_is_one_analysis_under_the_set_of_its_sizes():
    from analyzers.host_launch import host_launches

    got = host_launches(SWEPT)["k"]
    assert got.unknown_values == [[32, 64, 128, 256, 512, 1024]] and got.bound == 1024
    assert got.block_fact.startswith("(blockDim.x == 32 or blockDim.x == 64 or ")
    res = analyze(SWEPT, path="c.cu")
    assert len(res.launches) == 1 and res.launches[0]["block"] is None and not res.diagnostics
    # a block of 33 threads races: without the loop's sizes the race is reported
    assert analyze(SWEPT.replace("j = j * 2", "j = j * 2 + 1"), path="c.cu").diagnostics


def test_the_forms_of_a_block_size_sweep():
    from analyzers.host_launch import host_launches

    def sizes(loop, body="k<<<1, b>>>(x);", before=""):
        src = f"__global__ void k(float* x) {{}}\nvoid f(float* x) {{\n{before}\n{loop} {{ {body} }}\n}}\n"
        got = host_launches(src)["k"]
        return got.unknown_values[0] if got.unknown else sorted(h.block[0] for h in got.launches)
    assert sizes("for (int b = 32; b <= 1024; b *= 2)") == [32, 64, 128, 256, 512, 1024]
    assert sizes("for (int b = 1024; b >= 32; b >>= 1)") == [32, 64, 128, 256, 512, 1024]
    assert sizes("for (int b = 32; b < 1024; b <<= 1)") == [32, 64, 128, 256, 512]
    assert sizes("for (int b = 32; b <= 1024; b += 32)") == list(range(32, 1025, 32))
    assert sizes("for (int b = 1; b <= 3; b++)") == [1, 2, 3]  # a few sizes: one analysis each
    assert sizes("for (int b : {64, 128, 256, 512, 1024})") == [64, 128, 256, 512, 1024]
    arr = "const int s[] = {64, 128, 256, 512, 1024};"
    assert sizes("for (auto b : s)", before=arr) == [64, 128, 256, 512, 1024]
    assert sizes("for (int i = 0; i < 5; i++)", "k<<<1, s[i]>>>(x);", arr) == [64, 128, 256, 512, 1024]
    assert sizes("for (int i = 0; i < 5; ++i)", "int b = 2 * s[i]; k<<<1, b>>>(x);", arr) == [128, 256, 512, 1024]
    assert sizes("for (int b = 32; b <= 1024; b *= 2)", "if (b == 256) k<<<1, b>>>(x);") == [256]
    src = "__global__ void k(float* x) {}\nvoid f(float* x) { const int s[2] = {32, 8}; k<<<1, dim3(s[0], s[1])>>>(x); }"
    assert [h.block for h in host_launches(src)["k"].launches] == [(32, 8, 1)]  # a constant index: its element
    # a loop that is not a sweep of constants: unknown, as before
    assert sizes("for (int b = 32; b <= 1024; b *= 2)", "b += 1; k<<<1, b>>>(x);") is None
    assert sizes("for (int b = 32; b <= n; b *= 2)".replace("f(float* x", "f(int n, float* x")) is None
    assert sizes("for (int i = 0; i < 5; i++)", "s[0] = 7; k<<<1, s[i]>>>(x);", arr.replace("const ", "")) is None


def test_a_block_that_is_32_times_a_run_time_value_is_a_multiple_of_32_within_its_bound():
    src = """
__global__ void k(float* x) {
  int g = blockIdx.x * blockDim.x + threadIdx.x;
  x[g / 32 * 32 + threadIdx.x % 32] = g;
}
void f(float* x, int m, int sms) {
  int waves = 0;
  int per;
  do {
    waves++;
    per = (m + waves * sms - 1) / (waves * sms);
  } while (per > 16);
  int threads = 32 * per;
  k<<<(m + per - 1) / per, threads>>>(x);
}
"""
    from analyzers.host_launch import host_launches

    got = host_launches(src)["k"]
    assert got.unknown_multiples == [32] and got.bound == 512
    assert got.block_fact == "blockDim.x % 32 == 0 and blockDim.y == 1 and blockDim.z == 1"
    res = analyze(src, path="c.cu")
    assert not [d for d in res.diagnostics if d.rule == "race.global"] and "at most 512 threads" in res.assumed
    assert [d for d in analyze(src.replace("32 * per", "33 * per"), path="c.cu").diagnostics
            if d.rule == "race.global"]


def test_a_dim3_reused_for_launches_in_loops_has_its_value_at_each():
    # one `dim3 t` set anew before each loop and inside a loop after a launch: an assignment after a loop never
    # reaches a launch in it, and one later in the loop body is overwritten before the launch on every pass
    src = """
__global__ void a(float *x) {}
__global__ void b(float *x) {}
__global__ void c(float *x) {}
void run(float *x, int n) {
  dim3 t(1, 1, 1);
  t.x = 256;
  for (int i = 0; i < n; i++) a<<<1, t>>>(x);
  t.x = 8; t.y = 4; t.z = 8;
  for (int i = 0; i < n; i++) {
    t.x = 128; t.y = 1; t.z = 1;
    b<<<1, t>>>(x);
    t.x = 16; t.y = 16;
    c<<<1, t>>>(x);
  }
  t.x = 8; t.y = 8; t.z = 4;
}
"""
    from analyzers.host_launch import host_launches

    got = {k: [h.block for h in v.launches] for k, v in host_launches(src).items()}
    assert got == {"a": [(256, 1, 1)], "b": [(128, 1, 1)], "c": [(16, 16, 1)]}


def test_a_block_declared_at_file_scope_from_a_constant_is_read():
    # `dim3 blk(T);` at file scope: its value is read outside any function (this once stopped the host scan)
    src = "const int T = 256;\ndim3 blk(T);\n" + BODY + "void run(float *x) { k<<<4, blk>>>(x); }\n"
    res = analyze(src, path="g.cu")
    assert [g["block"] for g in res.launches] == [[256, 1, 1]]
    assert not [d for d in res.diagnostics if d.rule == "analysis.incomplete"], res.diagnostics


def test_a_launch_written_through_function_like_macros_is_read():
    # `RUN(k, n, t)` expands to `k<<<n, t>>>()`, `RUN64(k)` to `RUN(k, 1, 64)`; a use spanning lines keeps the
    # numbers of the lines after it
    src = """
#define RUN(k, n_blocks, n_threads) \\
  { k <<< n_blocks, n_threads >>> (); check(cudaDeviceSynchronize()); }
#define RUN64(k) RUN(k, 1, 64)
#define RUN2D(k, grid, ...) k<<<grid, dim3(2, 64)>>>(__VA_ARGS__)
__global__ void a() {}
__global__ void b() {}
__global__ void c(int, int) {}
void run() {
  RUN(a, 4,
      128);
  RUN64(b);
  RUN2D(c, 8, 1, 2);
}
"""
    assert _shapes(src) == {"a": [((128, 1, 1), (4, 1, 1), ())], "b": [((64, 1, 1), (1, 1, 1), ())],
                            "c": [((2, 64, 1), (8, 1, 1), ())]}
    from analyzers.host_launch import host_launches
    assert host_launches(src)["b"].launches[0].where.endswith(":12")


def test_sizes_set_by_copy_list_initialization_are_constants():
    # `size_t n = {128};` (an OpenCL port's work sizes) and `dim3 b = {8, 4};`
    src = """
__global__ void k(float *x) {}
__global__ void m(float *x) {}
void run(float *x) {
  size_t global = {4096};
  size_t local = {128};
  dim3 grid(global / local);
  dim3 threads(local);
  k<<<grid, threads>>>(x);
  dim3 tile = {8, 4};
  m<<<1, tile>>>(x);
}
"""
    from analyzers.host_launch import host_launches

    got = host_launches(src)
    assert [l.block for l in got["k"].launches] == [(128, 1, 1)]
    assert [l.block for l in got["m"].launches] == [(8, 4, 1)]


def test_a_block_chosen_by_a_run_time_condition_is_either_arm():
    # llm.c sizes its bias reduction by the device: `prop.maxThreadsPerMultiProcessor == 1536 ? 768 : 1024`
    src = """
__global__ void k(float *x) {}
void run(float *x, cudaDeviceProp prop) {
  const int block_size = prop.maxThreadsPerMultiProcessor == 1536 ? 768 : 1024;
  dim3 block = {4, 8, (unsigned)block_size / 32};
  k<<<1, block>>>(x);
  k<<<1, 4 > 2 ? 64 : 32>>>(x);
}
"""
    from analyzers.host_launch import host_launches

    assert sorted(l.block for l in host_launches(src)["k"].launches) == [(4, 8, 24), (4, 8, 32), (64, 1, 1)]


def test_tag_arguments_deduce_the_kernel_templates_flags():
    src = """
constexpr std::bool_constant<true> False;
template <typename T, bool A, int N>
__global__ void k(T *x, std::bool_constant<A>, std::integral_constant<int, N>) {}
void run(float *x) {
  k<<<1, 32>>>(x, std::bool_constant<false>{}, std::integral_constant<int, 4>());
  k<<<1, 64>>>(x, False, std::integral_constant<int, 8>{});
}
"""
    from analyzers.host_launch import host_launches, tag_targs

    got = {l.block[0]: l.tags for l in host_launches(src)["k"].launches}
    assert got == {32: {1: "false", 2: "4"}, 64: {1: "true", 2: "8"}}  # `False` is declared a true tag
    tparams = [("T", "type"), ("A", "value"), ("N", "value")]
    types = ["float *", "std::bool_constant<A>", "std::integral_constant<int, N>"]
    assert tag_targs(tparams, types, got[32]) == ["?", "false", "4"]
    assert tag_targs(tparams, types, {}) == []


def test_a_launch_through_the_runtime_api_takes_no_later_launchs_tags():
    src = """
template <bool A>
__global__ void k(float *x, std::bool_constant<A>) {}
__global__ void m(float *x) {}
void run(float *x) {
  void *args[] = {&x};
  cudaLaunchKernel((void *)m, dim3(1), dim3(32), args, 0, 0);
  k<<<1, 64>>>(x, std::bool_constant<true>{});
}
"""
    from analyzers.host_launch import host_launches

    got = host_launches(src)
    assert [l.tags for l in got["m"].launches] == [{}]
    assert [l.tags for l in got["k"].launches] == [{1: "true"}]


def test_a_comparison_in_a_launchers_constant_is_no_template_argument_list():
    # a flash-attention launcher: `(kHeadDim < 128) ? 8 : 4` inside a function template instantiated per head
    # dimension; before, the `<` opened a template argument list and the block was unknown
    src = """
#define WARP_SIZE 32
template <int D>
__global__ void k(float *x) {}
template <int kHeadDim>
void launch(float *x) {
  constexpr int kTile = (kHeadDim < 128) ? 8 : 4;
  constexpr int kThreads = WARP_SIZE * kTile;
  dim3 block(kThreads);
  k<kHeadDim><<<1, block>>>(x);
}
void run(float *x, int d) { if (d == 64) launch<64>(x); else launch<128>(x); }
"""
    from analyzers.host_launch import host_launches
    from analyzers.launch import split_top

    assert split_top("(kHeadDim < 128) ? 8 : 4", "?") == ["(kHeadDim < 128)", "8 : 4"]
    assert split_top("std::min<int>(a < b ? 1 : 2, 3), f<a, b>(x)") == ["std::min<int>(a < b ? 1 : 2, 3)", "f<a, b>(x)"]
    assert sorted({l.block for l in host_launches(src)["k"].launches}) == [(128, 1, 1), (256, 1, 1)]
    # nor does a `>` that closes none: Parboil's SAD grid `dim3(CEIL(img->width / 4, W), ...)`
    assert split_top("dim3(CEIL(img->width / 4, W), CEIL(img->height / 4, H)), 64") == [
        "dim3(CEIL(img->width / 4, W), CEIL(img->height / 4, H))", "64"]


def test_a_launch_written_with_spaced_chevrons_is_read():
    # an older formatter's `k << < grid, block >> > (...)`, which nvcc accepts (Rodinia's particle filter); the
    # template's `> >` is no launch
    src = """
template <typename T> struct box { T v; };
__global__ void k(float *x, box<box<int> > b) {}
void run(float *x, box<box<int> > b) {
  k << < 4, 128 >> > (x, b);
  k <<<8, 64>>>(x, b);
}
"""
    from analyzers.host_launch import host_launches

    assert [(l.grid, l.block) for l in host_launches(src)["k"].launches] == [((4, 1, 1), (128, 1, 1)),
                                                                           ((8, 1, 1), (64, 1, 1))]


def test_a_launching_macro_that_pastes_the_kernel_name_is_expanded_at_each_use():
    # a binding macro per kernel variant (`k_##tag##_kernel`), its launch spaced `< < <` by a formatter, one use
    # written over two lines
    src = """
#define BS 16
__global__ void k_plain_kernel(float *x) { __shared__ float t[BS][BS]; t[threadIdx.y][threadIdx.x] = x[0]; }
__global__ void k_wide_kernel(float *x) { __shared__ float t[BS][BS]; t[threadIdx.y][threadIdx.x] = x[1]; }
#define BIND(tag, n)                                  \\
  void run_##tag(float *x) {                          \\
    dim3 block(BS, BS / n);                           \\
    k_##tag##_kernel < < < 1,                         \\
        block >>> (x);                                \\
  }
BIND(plain, 1)
BIND(wide,
     2)
"""
    assert _shapes(src) == {"k_plain_kernel": [((16, 16, 1), (1, 1, 1), ())],
                            "k_wide_kernel": [((16, 8, 1), (1, 1, 1), ())]}
    # a parameter the body stringizes (`#tag`) is the argument as a string literal
    assert _shapes(src.replace("void run_##tag(float *x) {", 'void run_##tag(float *x) { puts(#tag);')) == \
        _shapes(src)


def test_a_braced_block_in_the_launch_is_read_as_a_dim3():
    src = """
__global__ void k(float *x) {}
void run(float *x) {
  constexpr int bx = 32, by = 8;
  k<<<1, {bx, by, 1}>>>(x);
  k<<<dim3{2, 2}, dim3{64}>>>(x);
}
"""
    assert _shapes(src) == {"k": [((32, 8, 1), (1, 1, 1), ()), ((64, 1, 1), (2, 2, 1), ())]}


def test_a_struct_field_set_before_the_launch_sizes_it_when_the_struct_is_only_lent_to_readers():
    # `ctx.threads = TPB;` then `show(&ctx)`: show only reads through its pointer (prints the fields), so the fields
    # keep their values at the launch; a function that writes through it (`c->threads = 64;`) may change them
    src = """
#include <cstdio>
#define TPB 128
struct ctx_t { int threads; int blocks; };
void show(ctx_t *c) { printf("%d %d\\n", c->threads, c->blocks); }
void retune(ctx_t *c) { c->threads = 64; }
__global__ void k(float *x) { x[threadIdx.x] = 0.f; }
void run(float *x) {
  ctx_t ctx;
  ctx.threads = TPB;
  ctx.blocks = 4;
  show(&ctx);
  dim3 block(ctx.threads), grid(ctx.blocks);
  k<<<grid, block>>>(x);
}
"""
    assert _shapes(src) == {"k": [((128, 1, 1), (4, 1, 1), ())]}
    assert _shapes(src.replace("show(&ctx);", "retune(&ctx);")) != {"k": [((128, 1, 1), (4, 1, 1), ())]}


def test_an_angle_include_beside_the_file_is_read_for_its_macros(tmp_path):
    # `#include <cfg.h>` of a header beside the file (the SDK makefiles' -I.): its block size is the launch's
    (tmp_path / "cfg.h").write_text("#define TPB 96\n")
    (tmp_path / "k.cu").write_text("#include <cfg.h>\n" + BODY.replace("256", "TPB") +
                                   "void run(float *x) { k<<<4, TPB>>>(x); }\n")
    assert [l["block"] for l in analyze(tmp_path / "k.cu").launches] == [[96, 1, 1]]


def test_a_struct_lent_to_a_function_calling_a_method_through_the_pointer_may_change():
    # `c->reset()` may write the fields: the field assigned before is no constant after the call
    src = """
struct ctx_t { int threads; void reset() { threads = 64; } };
void tune(ctx_t *c) { c->reset(); }
__global__ void k(float *x) { x[threadIdx.x] = 0.f; }
void run(float *x) {
  ctx_t ctx;
  ctx.threads = 128;
  tune(&ctx);
  dim3 block(ctx.threads);
  k<<<1, block>>>(x);
}
"""
    assert _shapes(src) != {"k": [((128, 1, 1), (1, 1, 1), ())]}


def test_an_array_filled_at_an_index_that_is_no_loop_variable_gives_no_values():
    # `SIZE[j] = ...` inside a loop over i: not the element-by-element fill (and the scan does not stop on it)
    src = """
__global__ void k(float *x, int n) { x[threadIdx.x] = n; }
int main() {
  float *x;
  int SIZE[4];
  int j = 0;
  for (int i = 0; i < 4; i++) {
    SIZE[j] = 64 * (i + 1);
  }
  for (int i = 0; i < 4; i++) k<<<1, SIZE[i]>>>(x, 1);
}
"""
    from analyzers.host_launch import host_launches

    got = host_launches(src)["k"]
    assert got.launches == [] and got.unknown


@pytest.mark.parametrize("change, shapes", [
    ("", []),  # lent to a function that may write it: no value
    ("drop tune", [((128, 1, 1), (1, 1, 1), ())]),
    ("const tune", [((128, 1, 1), (1, 1, 1), ())]),  # lent to a function that only reads it
    ("set after", [((128, 1, 1), (1, 1, 1), ())]),  # assigned again after the call
    ("assigned whole", []),
])
def test_a_launch_operand_that_is_a_field_changes_with_its_struct(change, shapes):
    # `k<<<1, ctx.threads>>>`: the field's last assignment holds only if the struct is not lent or assigned after it
    src = """
struct ctx_t { int threads; void reset() { threads = 64; } };
void tune(ctx_t *c) { c->reset(); }
__global__ void k(float *x) { x[threadIdx.x] = 0.f; }
void run(float *x, ctx_t other) {
  ctx_t ctx;
  ctx.threads = 128;
  tune(&ctx);
  k<<<1, ctx.threads>>>(x);
}
"""
    src = {"": src, "drop tune": src.replace("  tune(&ctx);\n", ""),
           "const tune": src.replace("void tune(ctx_t *c) { c->reset(); }",
                                     "void tune(const ctx_t *c) { printf(\"%d\", c->threads); }"),
           "set after": src.replace("  ctx.threads = 128;\n  tune(&ctx);", "  tune(&ctx);\n  ctx.threads = 128;"),
           "assigned whole": src.replace("  tune(&ctx);", "  ctx = other;")}[change]
    assert _shapes(src) == {"k": shapes}


def test_a_guard_read_from_a_condition_holds_only_where_the_whole_condition_does():
    # `flag == 1 || flag == 2 && threads == 64` launches with 128 threads too (flag 1): the `&&` binds tighter, so
    # `threads == 64` guards only one alternative; a parenthesized conjunction still narrows
    src = """
__global__ void k(float *x) {}
void run(float *x, int flag) {
  int threads = 64;
  if (flag == 1) threads = 128;
  if (flag == 1 || flag == 2 && threads == 64) k<<<1, threads>>>(x);
}
"""
    assert _shapes(src) == {"k": [((64, 1, 1), (1, 1, 1), ()), ((128, 1, 1), (1, 1, 1), ())]}
    narrowed = src.replace("flag == 1 || flag == 2 && threads == 64", "(flag == 2 && threads == 64)")
    assert _shapes(narrowed) == {"k": [((64, 1, 1), (1, 1, 1), ())]}


def test_block_end_is_the_first_brace_from_a_position_that_closes_what_encloses_it():
    from analyzers.host_launch import block_end

    t = "f() { a; { b; } c; { d { e } } g; } h; { i"
    assert block_end(t, t.index("a")) == t.index("} h")  # the nested blocks after `a` are skipped whole
    assert block_end(t, t.index("b")) == t.index("} c")
    assert block_end(t, t.index("e")) == t.index("} } g")
    assert block_end(t, t.index("g")) == t.index("} h")
    assert block_end(t, t.index("h")) == len(t)  # at the top level nothing closes
    assert block_end(t, t.index("i")) == len(t)  # a block the text leaves open
    assert block_end("{ x } }", 0) == len("{ x } ")  # a balanced block from the position on, then the close


_TILES = """
template <int B_Y, int B_X>
__global__ void tiles(float* out) {
  __shared__ float s[B_Y][B_X];
  const int tidx = threadIdx.y * B_X + threadIdx.x;
  s[tidx / B_X][tidx % B_X] = out[blockIdx.x * B_X * B_Y + tidx];
  __syncthreads();
  out[blockIdx.x * B_X * B_Y + tidx] = s[B_Y - 1 - threadIdx.y][threadIdx.x];
}
void run(float* out, int filters, int n) {
  int threadsY = 4;
  if (filters % 128 == 0) threadsY = 8;
  dim3 threads(32, threadsY);
  if (threadsY == 8) tiles<8, 32><<<n, threads>>>(out);
  else tiles<4, 32><<<n, threads>>>(out);
}
"""


def test_a_template_named_for_its_block_is_paired_with_the_launch_block_that_matches_it():
    # the host picks threadsY and the instantiation together; <4, 32> at a 32x8 block would race at s[ty][tx]
    res = analyze(_TILES.replace("if (threadsY == 8) tiles<8, 32><<<n, threads>>>(out);\n  else ", ""))
    assert {tuple(l["block"]) for l in res.launches} == {(32, 4, 1)}
    assert not [d for d in res.diagnostics if d.rule.startswith("race")]
    assert "may also be 8 at run time" in res.assumed and "B_Y = 4" in res.assumed


def test_names_that_no_launch_block_matches_leave_the_launch_blocks_as_they_are():
    res = analyze(_TILES.replace("int threadsY = 4;", "int threadsY = 16;").replace(
        "threadsY = 8;", "threadsY = 2;").replace("if (threadsY == 8) tiles<8, 32><<<n, threads>>>(out);\n  else ", ""))
    assert {tuple(l["block"]) for l in res.launches} == {(32, 16, 1), (32, 2, 1)}


def test_a_tuners_block_size_macro_gives_the_block_no_launch_gives(tmp_path):
    src = """#ifndef block_size_x
#define block_size_x 32
#endif
#ifndef block_size_y
#define block_size_y 16
#endif
__global__ void transpose(float* out, const float* in, int w, int h) {
  int i = threadIdx.y + blockIdx.y * block_size_y;
  int j = threadIdx.x + blockIdx.x * block_size_x;
  if (i < h && j < w) out[j * h + i] = in[i * w + j];
}
"""
    res = analyze(src)
    (launch,) = res.launches
    assert launch["block"][:2] == [32, 16] and launch["source"] == "named"
    assert "blockDim.x = block_size_x = 32" in launch["presumed_block"]
    assert not [d for d in res.diagnostics if d.rule.startswith("race")]
    # a block given on the command line is checked as given
    given = analyze(src, block=(64, 4, 1))
    assert given.launches[0]["block"] == [64, 4, 1] and "presumed_block" not in given.launches[0]


def test_a_kernel_header_is_launched_from_a_folder_beside_it_through_the_builds_include_folder(tmp_path):
    (tmp_path / "kernel").mkdir()
    (tmp_path / "app").mkdir()
    (tmp_path / "CMakeLists.txt").write_text("include_directories(${CMAKE_CURRENT_SOURCE_DIR})\n")
    (tmp_path / "kernel" / "scan_kernel.cuh").write_text("""#define SCAN_CTA 128
__global__ void scan_block(float* x) {
  __shared__ float s[2 * SCAN_CTA];
  s[threadIdx.x] = x[blockIdx.x * SCAN_CTA + threadIdx.x];
  s[threadIdx.x + SCAN_CTA] = 0.0f;
  __syncthreads();
  x[blockIdx.x * SCAN_CTA + threadIdx.x] = s[threadIdx.x + 1];
}
""")
    (tmp_path / "app" / "scan_app.cu").write_text("""#include "kernel/scan_kernel.cuh"
void scan(float* x, int n) { scan_block<<<n / SCAN_CTA, SCAN_CTA>>>(x); }
""")
    res = analyze(tmp_path / "kernel" / "scan_kernel.cuh")
    assert [l["block"] for l in res.launches] == [[128, 1, 1]] and "app/scan_app.cu" in res.assumed
    assert not [d for d in res.diagnostics if d.rule.startswith(("race", "bounds"))]


def test_a_name_the_kernel_tiles_its_blocks_by_gives_the_block_no_launch_gives():
    src = """#define BLOCK 128
__global__ void axpy(float* y, const float* x, float a, int n) {
  int i = blockIdx.x * BLOCK + threadIdx.x;
  if (i < n) y[i] += a * x[i];
}
"""
    res = analyze(src)
    assert res.launches[0]["block"] == [128, 1, 1] and "blockDim.x = BLOCK = 128" in res.assumed
    assert not [d for d in res.diagnostics if d.rule.startswith("race")]  # blocks of 160 would overlap
    # more than one slot per thread is another tiling: nothing is presumed
    res = analyze(src.replace("blockIdx.x * BLOCK + threadIdx.x", "blockIdx.x * BLOCK * 2 + threadIdx.x"))
    assert "presumed_block" not in res.launches[0]


def test_a_hip_launch_is_read_as_the_cuda_launch_it_compiles_to_on_nvidia(tmp_path):
    (tmp_path / "scale.cu").write_text("""#include <hip/hip_runtime.h>
__global__ void scale(float* x, int n) {
  __shared__ float s[256];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  s[threadIdx.x] = i < n ? x[i] : 0.0f;
  __syncthreads();
  if (i < n) x[i] = 2.0f * s[threadIdx.x];
}
hipError_t run(float* x, int n) {
  hipLaunchKernelGGL(HIP_KERNEL_NAME(scale),
                     dim3((n + 255) / 256),
                     dim3(256), 0, 0,
                     x, n);
  return hipSuccess;
}
""")
    res = analyze(tmp_path / "scale.cu")
    assert res.paths["scale"].startswith("libclang") and [l["block"] for l in res.launches] == [[256, 1, 1]]
    assert "scale.cu:10" in res.assumed


def test_a_block_the_program_chooses_at_run_time_is_not_replaced_by_the_kernels_names():
    src = """#include <cstdlib>
#define BLOCK 128
__global__ void axpy(float* y, const float* x, float a, int n) {
  int i = blockIdx.x * BLOCK + threadIdx.x;
  if (i < n) y[i] += a * x[i];
}
int main(int argc, char** argv) {
  int threads = argc > 1 ? atoi(argv[1]) : BLOCK;
  axpy<<<(1 << 20) / threads, threads>>>(0, 0, 2.0f, 1 << 20);
}
"""
    res = analyze(src)
    assert "presumed_block" not in res.launches[0] and res.launches[0]["block"] is None
    assert [d for d in res.diagnostics if d.rule == "race.global"]  # a block of 256 makes two blocks overlap


def test_a_block_a_header_defines_for_the_cuda_build_reaches_a_caller_in_a_cc_file(tmp_path):
    # kaldi's shape: the kernel's wrapper takes the launch dims, an inline overload in a header forwards them, a
    # .cc file of the folder builds them from a block size its header defines only under `#if HAVE_CUDA`
    (tmp_path / "common.h").write_text("""#if HAVE_CUDA
#define WARP 32
#endif
#define ROWS_BLOCK 256
""")
    (tmp_path / "kernels.cu").write_text("""__global__ void add_rows(float* m, int rows, int cols) {
  int r = blockIdx.x * blockDim.y + threadIdx.y;
  for (int c = threadIdx.x; r < rows && c < cols; c += 32) m[r * cols + c] += 1.0f;
}
void cudaF_add_rows(dim3 Gr, dim3 Bl, float* m, int rows, int cols) { add_rows<<<Gr, Bl>>>(m, rows, cols); }
""")
    (tmp_path / "kernels.h").write_text("""void cudaF_add_rows(dim3 Gr, dim3 Bl, float* m, int rows, int cols);
inline void cuda_add_rows(dim3 Gr, dim3 Bl, float* m, int rows, int cols) { cudaF_add_rows(Gr, Bl, m, rows, cols); }
""")
    (tmp_path / "matrix.cc").write_text("""#include "common.h"
#include "kernels.h"
void AddRows(float* m, int rows, int cols) {
  const int warp = WARP;
  dim3 dimBlock(warp, ROWS_BLOCK / warp);
  dim3 dimGrid((rows + dimBlock.y - 1) / dimBlock.y);
  cuda_add_rows(dimGrid, dimBlock, m, rows, cols);
}
""")
    shapes = _shapes((tmp_path / "kernels.cu").read_text(), path=tmp_path / "kernels.cu")
    assert [s[0] for s in shapes["add_rows"]] == [(32, 8, 1)]
    # a -D value of the switch (given, or read from the build files) wins
    assert _shapes((tmp_path / "kernels.cu").read_text(), path=tmp_path / "kernels.cu",
                   defines={"HAVE_CUDA": "0"})["add_rows"] == []


def test_a_kernel_that_reads_no_blockidx_x_is_presumed_one_block_wide():
    src = """
__global__ void per_lane(int *out, int n) {
  for (int lane = blockIdx.y; lane < n; lane += gridDim.y) out[lane] += 1;
}
__global__ void counted(int *out, int *count, int n) {
  for (int lane = blockIdx.y; lane < n; lane += gridDim.y) { out[lane] += 1; atomicAdd(count, 1); }
}
"""
    res = analyze(src, path="lanes.cu", block=(1, 1, 1), kernels=["per_lane"])
    assert not [d for d in res.diagnostics if d.rule.startswith("race")]
    assert "gridDim.x presumed 1" in res.assumed
    # blocks that count work atomically may be many side by side (a persistent kernel's queue): any width
    res = analyze(src, path="lanes.cu", block=(1, 1, 1), kernels=["counted"])
    assert [d for d in res.diagnostics if d.rule == "race.global"]


def test_a_class_templates_member_function_indexes_whole_elements_of_its_argument_type():
    src = """
struct Counters { int a; int b; int c; int d; };
template <typename T> struct Lanes { T *data_; __device__ T *lane(int i) { return &data_[i]; } };
__global__ void init(Lanes<Counters> l) {
  if (threadIdx.x == 0) { l.lane(blockIdx.x)->d = 0; l.lane(blockIdx.x)->a = 1; }
}
"""
    res = analyze(src, path="lanes.cu", block=(32, 1, 1))
    assert not [d for d in res.diagnostics if d.rule.startswith("race")]  # lane i's `d` is not lane i+3's `a`


def test_fminf_caps_a_count_like_min():
    src = """
__global__ void tile(const float *boxes, float *out, int n) {
  __shared__ float s[64 * 7];
  const int count = fminf(n - blockIdx.x * 64, 64);
  if (threadIdx.x < count) s[threadIdx.x * 7] = boxes[blockIdx.x * 64 + threadIdx.x];
  __syncthreads();
  for (int i = 0; i < count; i++) out[blockIdx.x * 64 + threadIdx.x] += s[i * 7];
}
"""
    res = analyze(src, path="tile.cu", block=(64, 1, 1))
    assert not [d for d in res.diagnostics if d.rule == "bounds.shared"]


def test_a_store_the_model_cannot_place_makes_the_verdict_incomplete():
    # (a pointer each thread loads from its own entry; one a block picks, `ptrs[blockIdx.x]`, names a buffer)
    src = """
__global__ void chase(float **ptrs) {
  float *p = ptrs[threadIdx.x];
  p[0] = threadIdx.x;
}
"""
    res = analyze(src, path="chase.cu", block=(64, 1, 1))
    notes = [d.message for d in res.diagnostics if d.rule == "analysis.incomplete"]
    assert any("cannot place in memory (`p[0]`)" in m for m in notes)


def test_a_kernel_header_takes_the_launch_of_a_file_in_a_cousin_folder(tmp_path):
    # csrc/common/cuda/op_kernel.cuh is launched by csrc/pytorch/cuda/op.cu, which includes it by name through the
    # extension's -I folders (not known to kopt): the project holds one file of that name
    (tmp_path / "common" / "cuda").mkdir(parents=True)
    (tmp_path / "pytorch" / "cuda").mkdir(parents=True)
    (tmp_path / "common" / "cuda" / "op_kernel.cuh").write_text(
        "__global__ void op(float *x) { x[blockIdx.x * blockDim.x + threadIdx.x] = 1.f; }\n")
    (tmp_path / "pytorch" / "cuda" / "op.cu").write_text(
        '#include "op_kernel.cuh"\nvoid run(float *x) { op<<<8, 128>>>(x); }\n')
    res = analyze(tmp_path / "common" / "cuda" / "op_kernel.cuh")
    assert [l["block"] for l in res.launches] == [[128, 1, 1]]


def test_a_launcher_templates_type_argument_of_a_library_leaves_its_block_argument_bound(tmp_path):
    # RWKV-LM's cross-entropy kernels: launch<at::BFloat16, threads> and launch<float, threads> with `constexpr int
    # threads = 512`; the kernel reads 16 warps' slots below BLOCK_SIZE / 32
    (tmp_path / "ce.cu").write_text("""
template <typename scalar_t, int BLOCK_SIZE>
__global__ void row_max(const scalar_t *x, float *out, long vocab) {
  constexpr int kWarps = BLOCK_SIZE / 32;
  __shared__ float warp_val[16];
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  float m = -1e30f;
  for (long c = threadIdx.x; c < vocab; c += BLOCK_SIZE) m = fmaxf(m, (float)x[blockIdx.x * vocab + c]);
  if (lane == 0) warp_val[warp] = m;
  __syncthreads();
  if (warp == 0) {
    float b = lane < kWarps ? warp_val[lane] : -1e30f;
    if (lane == 0) out[blockIdx.x] = b;
  }
}

template <typename scalar_t, int BLOCK_SIZE>
void launch_row_max(const scalar_t *x, float *out, long rows, long vocab) {
  dim3 blocks(rows);
  row_max<scalar_t, BLOCK_SIZE><<<blocks, BLOCK_SIZE>>>(x, out, vocab);
}

void forward(const void *x, float *out, long rows, long vocab, bool bf16) {
  constexpr int threads = 512;
  if (bf16)
    launch_row_max<at::BFloat16, threads>((const at::BFloat16 *)x, out, rows, vocab);
  else
    launch_row_max<float, threads>((const float *)x, out, rows, vocab);
}
""")
    res = analyze(tmp_path / "ce.cu")
    assert "template <?, 512>" in res.assumed and "blockDim.x == 512" in res.assumed
    assert not [d for d in res.diagnostics if d.rule.startswith(("bounds", "race"))]


def test_a_launch_of_a_parenthesized_kernel_name_is_read():
    # MNN's `(splitGeLUKernel<T, 1280, kTPB>) <<<grid, kTPB, 0, stream>>>(...)`
    src = """
template <typename T, int C, int TPB> __global__ void k(T *x) {
  for (int i = threadIdx.x; i < C; i += TPB) x[blockIdx.x * C + i] *= 2;
}
void run(float *x, int c) {
  switch (c) { case 320: (k<float, 320, 64>) <<<8, 64, 0, 0>>>(x); break; }
}
"""
    res = analyze(src, path="p.cu")
    assert "block=(64, 1, 1)" in res.assumed, res.assumed


def test_a_block_declared_after_a_macro_used_as_a_statement_is_read():
    # `NCV_SKIP_COND_BEGIN` (a macro that opens a block) on its own line, no `;`, before `dim3 block(...)`
    src = """
const unsigned NUM_THREADS = 256;
template <bool A> __global__ void scan(int* p) {}
int run(int n, bool skip) {
    SKIP_COND_BEGIN
    dim3 block(NUM_THREADS);
    scan
        <true>
        <<<n, block>>>
        (0);
    SKIP_COND_END
    return 0;
}
"""
    assert _shapes(src)["scan"] == [((256, 1, 1), (None, None, None), ("true",))]


def test_a_launch_qualified_with_another_namespace_is_another_kernels(tmp_path):
    # GPUSorting: `OneSweep::Scan` and `DeviceRadixSort::Scan`, each launched qualified with its own geometry; the
    # first kernel had taken the second's launch too
    (tmp_path / "k.cu").write_text("""namespace A { __global__ void Scan(float *x) { x[threadIdx.x] = 0; } }
namespace B { __global__ void Scan(float *x); }
void run(float *x) {
  A::Scan<<<4, 256>>>(x);
  B::Scan<<<256, 128>>>(x);
}
""")
    res = analyze(tmp_path / "k.cu")
    assert [l["block"] for l in res.launches] == [[256, 1, 1]], res.assumed


def test_a_launcher_macro_of_a_header_in_a_given_folder_is_read_as_the_launch_it_stands_for(tmp_path):
    # FBGEMM's `FBGEMM_LAUNCH_KERNEL(KERNEL, GRID, BLOCK, SMEM, STREAM, ...)` hands the launch to a launcher object;
    # its header is found only through the folder given with -I, and the block counts a constexpr function's value
    (tmp_path / "include" / "lib").mkdir(parents=True)
    (tmp_path / "include" / "lib" / "launcher.cuh").write_text(
        "#pragma once\nconstexpr int warp_size_host() { return 32; }\n"
        "#define LIB_LAUNCH_KERNEL(KERNEL, GRID, BLOCK, SMEM, STREAM, ...) \\\n"
        "  ([&] { auto &kernel = KERNEL; \\\n"
        "    return lib::Launcher(__FILE__).launch_kernel(kernel, GRID, BLOCK, SMEM, STREAM, __VA_ARGS__); }())\n")
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "scale.cu").write_text("""#include "lib/launcher.cuh"
__global__ void scale(float* x, int n) {
  __shared__ float s[8][32];
  int i = blockIdx.x * 256 + threadIdx.y * 32 + threadIdx.x;
  s[threadIdx.y][threadIdx.x] = i < n ? x[i] : 0.0f;
  __syncthreads();
  if (i < n) x[i] = 2.0f * s[threadIdx.y][threadIdx.x];
}
void run(float* x, int n, cudaStream_t stream) {
  LIB_LAUNCH_KERNEL(
      (scale), dim3(n / 256), dim3(lib::warp_size_host(), 8), 0, stream,
      x, n);
}
""")
    res = analyze(tmp_path / "src" / "scale.cu", include_dirs=[str(tmp_path / "include")])
    assert [l["block"] for l in res.launches] == [[32, 8, 1]] and "scale.cu:10" in res.assumed
    assert not [d for d in res.diagnostics if d.rule.startswith(("bounds", "race"))]
    alone = analyze(tmp_path / "src" / "scale.cu")  # the header unknown: no launch read
    assert [l["block"] for l in alone.launches] == [None] and "scale.cu:10" not in alone.assumed


def test_a_kernel_pointer_a_picking_function_returns_launches_each_kernel_it_returns(tmp_path):
    # exllama's `fp_kernel kernel = kernel_pick(...); kernel<<<blocks, threads>>>(...)`, the picker returning one of
    # a template's instantiations
    (tmp_path / "pick.cu").write_text("""const int THREADS_X = 32;
typedef void (*fp_scale)(float *, int);
template <bool twice>
__global__ void scale(float *x, int n) {
  __shared__ float s[32];
  int i = blockIdx.x * THREADS_X + threadIdx.x;
  s[threadIdx.x] = i < n ? x[i] : 0.f;
  __syncthreads();
  if (i < n) x[i] = (twice ? 2.f : 1.f) * s[threadIdx.x];
}
fp_scale scale_pick(bool twice) {
  if (twice) return scale<true>;
  else return scale<false>;
}
void run(float *x, int n, bool twice) {
  dim3 threads(THREADS_X, 1, 1);
  fp_scale kernel = scale_pick(twice);
  kernel<<<(n + 31) / 32, threads>>>(x, n);
}
""")
    res = analyze(tmp_path / "pick.cu")
    assert {tuple(l["block"]) for l in res.launches} == {(32, 1, 1)} and "pick.cu:18" in res.assumed


def test_a_header_enumerator_defined_by_another_gives_the_block(tmp_path):
    # ppl.cv's `enum BlockConfiguration0 { kBlockDimX0 = kDimX1, ... }`, in a header the launching file includes
    (tmp_path / "utility.hpp").write_text("enum DimX { kDimX0 = 16, kDimX1 = 32 };\nenum DimY { kDimY0, kDimY1 };\n"
                                          "enum BlockConfiguration0 { kBlockDimX0 = kDimX1, kBlockDimY0 = kDimY1 + 3 };\n")
    src = ('#include "utility.hpp"\n__global__ void k(float* x) {}\n'
           "void run(float* x) {\n  dim3 block, grid;\n  block.x = kBlockDimX0;\n  block.y = kBlockDimY0;\n"
           "  k<<<grid, block>>>(x);\n}\n")
    (tmp_path / "k.cu").write_text(src)
    from analyzers.host_launch import host_launches

    assert [h.block for h in host_launches(src, path=tmp_path / "k.cu")["k"].launches] == [(32, 4, 1)]


def test_a_block_set_in_one_arm_of_an_if_chain_does_not_reach_a_launch_in_a_later_arm(tmp_path):
    # the `else if` arm widens the block for its own kernel; the `else` arm's launch keeps the block set before the
    # chain. In a loop, an arm's assignment may reach a later pass's other arm: both shapes stay
    src = """__global__ void a(float* x) {}
__global__ void b(float* x) {}
__global__ void c(float* x) {}
void run(float* x, int s, int n) {
  dim3 block, grid;
  block.x = 32; block.y = 4;
  if (s == 1) {
    a<<<grid, block>>>(x);
  }
  else if (s == 2) {
    block.x = 256;
    block.y = 1;
    b<<<grid, block>>>(x);
  }
  else {
    c<<<grid, block>>>(x);
  }
}
void loop(float* x, int n) {
  dim3 block(32, 4);
  for (int i = 0; i < n; i++) {
    if (i == 0) { block.x = 64; } else { c<<<1, block>>>(x); }
  }
}
"""
    (tmp_path / "k.cu").write_text(src)
    from analyzers.host_launch import host_launches

    got = host_launches(src, path=tmp_path / "k.cu")
    assert [h.block for h in got["a"].launches] == [(32, 4, 1)]
    assert [h.block for h in got["b"].launches] == [(256, 1, 1)]
    assert {h.block for h in got["c"].launches} == {(32, 4, 1), (64, 4, 1)}


def test_a_kernel_file_below_its_launcher_is_launched_through_a_header_of_prototypes(tmp_path):
    # SPECFEM3D: kernels/k.cu compiled on its own; ../k_cuda.cu launches it, declared by kernels/proto.h
    (tmp_path / "kernels").mkdir()
    (tmp_path / "kernels/k.cu").write_text("__global__ void add(float* x) { x[threadIdx.x] += 1; }\n")
    (tmp_path / "kernels/proto.h").write_text("__global__ void add(float* x);\n")
    (tmp_path / "k_cuda.cu").write_text('#include "kernels/proto.h"\nvoid run(float* x) { add<<<8, 25>>>(x); }\n')
    assert _shapes((tmp_path / "kernels/k.cu").read_text(), path=tmp_path / "kernels/k.cu", kernels=["add"]) == {
        "add": [((25, 1, 1), (8, 1, 1), ())]}
