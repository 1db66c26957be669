"""Assumptions the host code's launches imply (analyzers/host_assume.py) and assumptions over the launch's
dimensions."""
from __future__ import annotations

from pathlib import Path

import pytest

from analyzers import host_assume
from kopt.analyze import analyze

KERNEL = """
__global__ void fill(float *out, int width, int n) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  out[y * width + x] = x + n * y;
}
"""
PARAMS = {"fill": [("out", None), ("width", "int"), ("n", "int")]}


def _implied(host: str, tmp_path: Path, params=PARAMS) -> str:
    p = tmp_path / "k.cu"
    p.write_text(KERNEL + host)
    got = host_assume.from_host(p.read_text(), p, None, params)
    return " / ".join(a.text for a in got.get("fill", []))


def _races(res):
    return [d for d in res.diagnostics if d.rule.startswith("race.")]


def test_grid_sized_from_a_passed_value(tmp_path):
    text = _implied("void run(float *d, int w, int h) {\n  dim3 block(16, 16);\n  dim3 grid(w / block.x, h / "
                    "block.y);\n  fill<<<grid, block>>>(d, w, 3);\n}\n", tmp_path)
    assert "== w /" not in text and "gridDim.x == width / blockDim.x" in text
    assert "gridDim.y" not in text  # h is not passed: nothing is said about the grid's height
    assert "n == 3" in text and "blockDim.x == 16" in text


def test_single_return_helpers_and_function_like_macros_are_inlined(tmp_path):
    host = ("static int iDivUp(int a, int b) { return (a % b != 0) ? (a / b + 1) : (a / b); }\n"
            "#define DIV_UP(a, b) (((a) + (b) - 1) / (b))\n"
            "void run(float *d, int w, int h) {\n  dim3 block(32, 8);\n  dim3 grid(iDivUp(w, block.x), "
            "DIV_UP(h, 8));\n  fill<<<grid, block>>>(d, w, h);\n}\n")
    text = _implied(host, tmp_path)
    assert "gridDim.x == " in text and " if " in text  # the ternary, as the expression language writes it
    assert "gridDim.y == (((((n)) + ((8)) - 1) / ((8))))" in text


def test_a_value_passed_by_reference_is_not_taken_as_constant(tmp_path):
    host = ("void size_of(int &n);\nvoid run(float *d) {\n  int n = 0;\n  size_of(n);\n"
            "  fill<<<4, 64>>>(d, 64, n);\n}\n")
    text = _implied(host, tmp_path)
    assert "width == 64" in text and "n ==" not in text


def test_a_chained_assignment_after_a_declaration_list_gives_every_name_its_value(tmp_path):
    # `int w, n; n = w = 2048;`: the declaration list read as a call taking the names (so they might change
    # there), and the first name's value read as the text `w = 2048`
    host = ("int main() {\n  int w, n, h;\n  n = w = h = 2048;\n  fill<<<dim3(w / 16, h / 16), dim3(16, 16)>>>"
            "(0, w, n);\n}\n")
    text = _implied(host, tmp_path)
    assert "width == 2048" in text and "n == 2048" in text, text


def test_a_value_forwarded_by_a_benchmark_harness_keeps_its_constant(tmp_path):
    # `benchmark(repeats, run, d, n)` with `Args&&... args` forwarded to `run`: a forwarding reference, but one the
    # harness only passes on to `run`, which takes the value by copy; it had counted as a write of n
    host = ("template <class F, class... Args>\nfloat benchmark(int repeats, F f, Args&&... args) {\n"
            "  for (int i = 0; i < repeats; i++) f(std::forward<Args>(args)...);\n  return 0.f;\n}\n"
            "void run(float *d, int n) {\n  fill<<<n / 64, 64>>>(d, n, 1);\n}\n"
            "int main() {\n  int n = 4096;\n  float *d;\n  benchmark(10, run, d, n);\n  run(d, n);\n}\n")
    assert "width == 4096" in _implied(host, tmp_path)
    # a harness that also reads the pack otherwise may change the value: nothing is said
    changed = host.replace("  return 0.f;", "  touch(args...);\n  return 0.f;")
    assert "width == 4096" not in _implied(changed, tmp_path)


def test_a_grid_computed_from_the_launch_s_own_block_local(tmp_path):
    # `dim3(32, rows)` with a grid of `ceil_div(n, rows)`: rows is blockDim.y, whatever the caller's block size
    host = ("int ceil_div(int a, int b) { return (a + b - 1) / b; }\n"
            "void run(float *d, int n, int block_size) {\n  int rows = block_size / 32;\n"
            "  int grid = ceil_div(n, rows);\n  if (grid == 1) return;\n"
            "  fill<<<grid, dim3(32, rows)>>>(d, n, 0);\n}\n")
    text = _implied(host, tmp_path)
    assert "gridDim.x == (((width) + (blockDim.y) - 1) / (blockDim.y))" in text, text


def test_a_value_passed_to_a_cuda_library_c_function_keeps_its_constant(tmp_path):
    # `cublasSgemm(handle, ..., hs, ...)`: a C function takes its arguments by value, so the local keeps its value
    # (before, any call kopt could not see the definition of might have changed it)
    host = ("void run(float *d, int c, int nh) {\n  int hs = c / nh;\n"
            "  cublasSgemm(0, 0, 0, hs, hs, hs, 0, d, hs, d, hs, 0, d, hs);\n"
            "  fill<<<hs, 64>>>(d, hs, 1);\n}\nint main() {\n  run(0, 768, 12);\n}\n")
    assert "(width == 64)" in _implied(host, tmp_path)
    # a function of the user's own, declared elsewhere, may take it by reference: nothing is said
    other = host.replace("cublasSgemm", "my_gemm")
    assert "width ==" not in _implied(other, tmp_path)


def test_every_launch_must_say_something(tmp_path):
    host = ("void run(float *d, int w, int k) {\n  fill<<<w / 64, 64>>>(d, w, 1);\n"
            "  fill<<<k, 64>>>(d, k * 2, k);\n}\n")
    assert " or " in _implied(host, tmp_path)
    host = "void run(float *d, int w, int k, dim3 g, dim3 b) {\n  fill<<<g, b>>>(d, w, k);\n}\n"
    assert _implied(host, tmp_path) == ""


def test_driver_api_argument_array(tmp_path):
    host = ("void run(CUfunction f, CUdeviceptr d, dim3 dims) {\n  dim3 threads(32, 4);\n"
            "  dim3 grid(dims.x / threads.x, 1);\n  void *args[] = {(void *)&d, (void *)&dims.x, (void *)&dims.y};\n"
            "  cuLaunchKernel(f, grid.x, grid.y, grid.z, threads.x, threads.y, threads.z, 0, 0, &args[0], 0);\n}\n")
    p = tmp_path / "k.cu"
    p.write_text(KERNEL)
    (tmp_path / "host.cpp").write_text('void load() { cuModuleGetFunction(&f, m, "fill"); }\n' + host)
    got = host_assume.from_host(p.read_text(), p, None, PARAMS)
    assert "gridDim.x == (width / blockDim.x)" in got["fill"][0].text


def test_the_launch_relation_removes_the_degenerate_witness(tmp_path):
    p = tmp_path / "k.cu"
    p.write_text(KERNEL + "void run(float *d, int w, int h) {\n  dim3 block(16, 16);\n  dim3 grid(w / block.x, "
                          "h / block.y);\n  fill<<<grid, block>>>(d, w, 3);\n}\n")
    res = analyze(p)
    assert not _races(res)
    assert any("gridDim.x == width / blockDim.x" in line for line in res.assumed.splitlines())


@pytest.mark.parametrize("assumption,racy", [("gridDim.x * blockDim.x <= width", False),
                                             ("gridDim.x * blockDim.x <= width + 1", True)])
def test_assumptions_may_name_the_launch_dimensions(assumption, racy):
    res = analyze(KERNEL, path="k.cu", block=(16, 16, 1), assume=[assumption])
    assert bool(_races(res)) == racy


def test_conditions_around_the_launch_and_early_exits(tmp_path):
    host = ("void run(float *d, int w, int k) {\n  assert(w % 64 == 0);\n  if (k > 8) {\n    printf(\"too big\");\n"
            "    exit(1);\n  }\n  if (w < 4096) {\n    fill<<<w / 64, 64>>>(d, w, k);\n  } else {\n"
            "    fill<<<64, 64>>>(d, 4096, k);\n  }\n}\n")
    text = _implied(host, tmp_path)
    first, second = text.split(" or ")
    assert "(width % 64 == 0)" in first and "(!(n > 8))" in first and "(width < 4096)" in first
    # the else branch's condition names w, which that launch does not pass: left out
    assert "width == 4096" in second and "(!(n > 8))" in second and "4096)" not in second.replace("== 4096", "")


def test_a_host_check_macro_before_the_launch_is_a_fact(tmp_path):
    # glog/PyTorch-style checks abort when they fail: past them their condition holds; a comparison suffix names
    # the operator, and a check of a call's error code says nothing of the values
    host = ("void run(float *d, int w, int k) {\n  TORCH_CHECK(w % 64 == 0, \"width must be a multiple of 64\");\n"
            "  MY_CHECK_LE(k, 8);\n  CUDA_CHECK(cudaGetLastError());\n  CHECK_GT(w, 0) << \"empty\";\n"
            "  fill<<<w / 64, 64>>>(d, w, k);\n}\n")
    text = _implied(host, tmp_path)
    assert "(width % 64 == 0)" in text and "((n) <= (8))" in text and "((width) > (0))" in text, text
    assert "cudaGetLastError" not in text and "multiple" not in text, text


def test_a_condition_on_a_name_changed_before_the_launch_is_not_a_fact(tmp_path):
    host = "void run(float *d, int w) {\n  if (w < 64) {\n    w = 128;\n    fill<<<1, 64>>>(d, w, 0);\n  }\n}\n"
    assert "width < 64" not in _implied(host, tmp_path)


def test_a_wrapper_is_read_at_its_calls(tmp_path):
    (tmp_path / "k.cu").write_text(KERNEL + "void launch(dim3 g, dim3 b, float *d, int w, int k) {\n"
                                            "  fill<<<g, b>>>(d, w, k);\n}\n")
    (tmp_path / "main.cpp").write_text("void launch(dim3 g, dim3 b, float *d, int w, int k);\n"
                                       "void go(float *d, int width, int height) {\n  dim3 block(16, 16);\n"
                                       "  dim3 grid(width / block.x, height / block.y);\n"
                                       "  launch(grid, block, d, width, block.x + 2);\n}\n")
    p = tmp_path / "k.cu"
    got = host_assume.from_host(p.read_text(), p, None, PARAMS)["fill"][0].text
    assert "gridDim.x == width / blockDim.x" in got and "n == blockDim.x + 2" in got


def test_a_wrapper_with_locals_is_read_where_it_launches(tmp_path):
    # `grid` is the wrapper's own: at the call it would name the caller's variable of that name
    (tmp_path / "k.cu").write_text(KERNEL + "void launch(float *d, int w) {\n  dim3 grid(w / 64);\n"
                                            "  fill<<<grid, 64>>>(d, w, 1);\n}\n")
    (tmp_path / "main.cpp").write_text("void go(float *d) {\n  dim3 grid(7);\n  launch(d, 4096);\n}\n")
    p = tmp_path / "k.cu"
    got = host_assume.from_host(p.read_text(), p, None, PARAMS)["fill"][0].text
    assert "gridDim.x == width / 64" in got and "gridDim.x == 7" not in got


def test_cudamallocpitch_bounds_the_pitch_it_returns(tmp_path):
    kernel = ("__global__ void row(float *v, int width, size_t pitch) {\n"
              "  float *r = (float *)((char *)v + threadIdx.y * pitch);\n  r[threadIdx.x] = threadIdx.y;\n}\n")
    (tmp_path / "k.cu").write_text(kernel + "extern size_t gPitch;\nvoid go(float *v) {\n"
                                            "  row<<<1, dim3(32, 8)>>>(v, 32, gPitch);\n}\n")
    (tmp_path / "main.cpp").write_text("typedef float2 cell;\nsize_t gPitch = 0;\nvoid init(float **v) {\n"
                                       "  cudaMallocPitch((void **)v, &gPitch, sizeof(cell) * 512, 512);\n}\n")
    p = tmp_path / "k.cu"
    params = {"row": [("v", None), ("width", "int"), ("pitch", "size_t")]}
    assert "pitch >= 4096" in host_assume.from_host(p.read_text(), p, None, params)["row"][0].text
    (tmp_path / "main.cpp").write_text((tmp_path / "main.cpp").read_text() + "void grow() { gPitch = 8; }\n")
    assert "pitch >=" not in host_assume.from_host(p.read_text(), p, None, params)["row"][0].text


@pytest.mark.parametrize("text,expected", [
    ("(w / 64) + (!(w % 64) ? 0 : 1)", "(w / 64) + ((( 0 ) if (!(w % 64) ) else ( 1)))"),
    ("f(a ? 1 : 2, 3)", "f((( 1 ) if (a ) else ( 2)), 3)"),
    ("c1 ? a : c2 ? b : d", "(( a ) if (c1 ) else ((( b ) if (c2 ) else ( d))))")])
def test_c_conditionals_are_read(text, expected):
    assert host_assume._ternaries(text) == expected


def test_a_block_given_on_the_command_line_replaces_the_host_launch(tmp_path):
    p = tmp_path / "k.cu"
    p.write_text(KERNEL + "void run(float *d, int w) {\n  fill<<<w / 256, 256>>>(d, w, 3);\n}\n")
    assert not _races(analyze(p))  # the host's grid keeps x below the width
    res = analyze(p, block=(64, 1, 1))  # another launch: the host's facts (blockDim.x == 256) do not hold
    assert _races(res) and "blockDim.x == 256" not in res.assumed


def test_a_copied_block_keeps_its_components(tmp_path):
    """``dim3 c = b;`` launches with b's block: (64, 4), not (b, 1, 1), whose ``blockDim.y == 1`` would contradict the
    block read from the launch and hide every finding."""
    text = _implied("void run(float *d) {\n  dim3 b(64, 4);\n  dim3 c = b;\n  fill<<<1, c>>>(d, 64, 3);\n}\n",
                    tmp_path)
    assert "blockDim.x == 64" in text and "blockDim.y == 4" in text and "blockDim.y == 1" not in text
    src = tmp_path / "tile.cu"
    src.write_text("__global__ void tile(float* out) {\n  __shared__ float t[4][32];\n"
                   "  t[threadIdx.y][threadIdx.x] = threadIdx.x;\n  __syncthreads();\n"
                   "  out[threadIdx.y * 64 + threadIdx.x] = t[threadIdx.y][(threadIdx.x + 1) % 32];\n}\n"
                   "void run(float* out) {\n  dim3 b(64, 4);\n  dim3 c = b;\n  tile<<<1, c>>>(out);\n}\n")
    rules = {d.rule for d in analyze(src).diagnostics}
    assert {"bounds.shared", "race.shared"} <= rules  # threadIdx.x up to 63 over a row of 32


def test_constants_of_a_declaration_with_several_declarators(tmp_path):
    """``static const int a = 41, b = 13;`` declares ``b`` too: a constant, and a local ``const`` computed from such
    constants (``const int t = a * b;``) is one more, passed to the kernel as a constant argument."""
    host = ("static const int d1 = 41, d2 = 13, d3 = 11;\nvoid run(float *d) {\n  const int t = d1 * d2 * d3;\n"
            "  int q = 2, r = 8;\n  fill<<<t / 64, d2 * 4>>>(d, t, r);\n}\n")
    text = _implied(host, tmp_path)
    assert "width == 5863" in text and "n == 8" in text and "blockDim.x == 13 * 4" in text


def test_a_const_block_passed_to_several_wrappers_is_read_at_each(tmp_path):
    """A ``const`` local cannot change through a call, so ``const dim3 b(k, 128 / k)`` passed to two wrappers (and
    ``k`` a field of an object built from constants) gives each wrapper's launch its block."""
    (tmp_path / "k.cu").write_text(KERNEL + "void launch(float *d, int w, const dim3 b, const dim3 g) {\n"
                                            "  fill<<<g, b>>>(d, w, 1);\n}\n")
    (tmp_path / "main.cpp").write_text(
        "struct P { unsigned k; P(unsigned k = 4) : k(k) {} };\nvoid other(float *d, const dim3 b);\n"
        "void go(float *d, int width) {\n  P p(8);\n  const unsigned k = p.k;\n  const dim3 b(k, 128 / k);\n"
        "  const dim3 g(width / 128);\n  launch(d, width, b, g);\n  other(d, b);\n}\n")
    p = tmp_path / "k.cu"
    got = host_assume.from_host(p.read_text(), p, None, PARAMS)["fill"][0].text
    assert "blockDim.x == 8" in got and "blockDim.y == 128 / 8" in got and "gridDim.x == width / 128" in got


def test_a_wrapper_of_a_wrapper_is_read_at_the_outer_calls(tmp_path):
    # two levels of wrappers; the outer caller's `w` is a plain local that is also passed by value elsewhere (a
    # function whose parameter is not a reference cannot change it)
    (tmp_path / "k.cu").write_text(KERNEL + "void launch(dim3 g, dim3 b, float *d, int w) {\n"
                                            "  fill<<<g, b>>>(d, w, 3);\n}\n"
                                            "void run(int which, float *d, int w) {\n"
                                            "  if (which == 1) launch(dim3(w / 64), dim3(64), d, w);\n}\n")
    (tmp_path / "main.cpp").write_text("void check(const float *d, int n);\nvoid check(const float *d, int n) {}\n"
                                       "int main() {\n  float *d;\n  int w = 64 * 32;\n  check(d, w);\n"
                                       "  run(1, d, w);\n}\n")
    p = tmp_path / "k.cu"
    got = host_assume.from_host(p.read_text(), p, None, PARAMS)["fill"][0].text
    assert "width == 2048" in got and "blockDim.x == 64" in got
    # a reference parameter could change it: nothing is assumed of w
    (tmp_path / "main.cpp").write_text((tmp_path / "main.cpp").read_text().replace("int n)", "int &n)"))
    got = host_assume.from_host(p.read_text(), p, None, PARAMS)["fill"][0].text
    assert "width == 2048" not in got and "blockDim.x == 64" in got


def test_a_value_passed_down_a_dispatch_is_the_callers_local_set_once(tmp_path):
    # main's `w` (set only by its declaration, passed by value to a helper a header declares) reaches the launch
    # through a dispatch function's parameter and the launching function's own: the kernel's width is 2048
    (tmp_path / "util.h").write_text("float* make_random(size_t n);\n")
    (tmp_path / "k.cu").write_text('#include "util.h"\n' + KERNEL + """
void run4(float *d, int w) {
  dim3 grid((w + 63) / 64);
  fill<<<grid, 64>>>(d, w, 3);
}
void dispatch(int which, float *d, int w) {
  switch (which) {
    case 4: run4(d, w); break;
  }
}
int main() {
  int w = 64 * 32;
  float *h = make_random(w);
  dispatch(4, h, w);
}
""")
    p = tmp_path / "k.cu"
    got = host_assume.from_host(p.read_text(), p, None, PARAMS)["fill"][0].text
    assert "(width == 2048)" in got
    (tmp_path / "util.h").write_text("float* make_random(size_t &n);\n")  # a reference: it could change w
    got = host_assume.from_host(p.read_text(), p, None, PARAMS)["fill"][0].text
    assert "width == 2048" not in got


def test_a_count_scaled_before_a_wrapper_call_is_a_multiple_the_block_divides(tmp_path):
    # main reads n from the command line and scales it (`n *= 1024`, the last update before the call); run()
    # launches with its own parameter: the kernel's n is a multiple of 1024, which the 256-thread block divides
    host = """void run(float *d, int n, int w) {
  fill<<<n / 256, 256>>>(d, w, n);
}
int main(int argc, char **argv) {
  int n = 32;
  if (argc > 1) n = atoi(argv[1]);
  n *= 1024;
  float *d;
  run(d, n, 7);
}
"""
    got = _implied(host, tmp_path)
    assert "n % 1024 == 0" in got
    assert "n % 1024 == 0" not in _implied(host.replace("  n *= 1024;\n", "  n *= 1024;\n  n += 1;\n"), tmp_path)


def test_a_block_of_two_equal_runtime_sizes_is_square(tmp_path):
    host = ("struct Params { int threads; };\nvoid go(float *d, Params p, int w) {\n  int t = p.threads;\n"
            "  dim3 block(t, t);\n  fill<<<w / t, block>>>(d, w, 1);\n}\n")
    assert "blockDim.y == blockDim.x" in _implied(host, tmp_path)
    assert "blockDim.y == blockDim.x" not in _implied(host.replace("block(t, t)", "block(t, 2 * t)"), tmp_path)


def test_a_local_declared_without_a_value_and_set_once_is_read(tmp_path):
    # `size_t lws; ... lws = w / 2;` before the launch (C89 style): the block is the value set; not when the
    # assignment runs only under an `if` the launch is outside of
    host = ("void go(float *d, int w, int k) {\n  size_t lws;\n  size_t gws;\n  lws = w / 2;\n  gws = 64;\n"
            "  dim3 g(gws);\n  dim3 b(lws);\n  fill<<<g, b>>>(d, w, k);\n}\n")
    got = _implied(host, tmp_path)
    assert "blockDim.x == (width / 2)" in got and "gridDim.x == 64" in got
    got = _implied(host.replace("  lws = w / 2;", "  if (k) lws = w / 2;"), tmp_path)
    assert "blockDim.x ==" not in got and "gridDim.x == 64" in got


def test_a_wavefront_loop_around_a_launch_bounds_the_value_it_passes(tmp_path):
    # a grid set from the loop variable just before each launch, passed to the kernel too: the grid is that
    # parameter, and the loop's test and start bound it; a loop variable the body changes says nothing
    host = ("void go(float *d, int w) {\n  size_t g;\n  for (int b = 1; b <= w; b++) {\n    g = b;\n"
            "    fill<<<g, 16>>>(d, w, b);\n  }\n  for (int b = w - 1; b >= 1; b--) {\n    g = b;\n"
            "    fill<<<g, 16>>>(d, w, b);\n  }\n}\n")
    first, second = _implied(host, tmp_path).split(" or ")
    assert "gridDim.x == n" in first and "(n <= width)" in first and "(n >= (1))" in first
    assert "gridDim.x == n" in second and "(n >= 1)" in second and "(n <= (width - 1))" in second
    got = _implied(host.replace("    fill<<<g, 16>>>(d, w, b);\n  }\n  for", "    fill<<<g, 16>>>(d, w, b);\n"
                                "    b += 2;\n  }\n  for"), tmp_path)
    # the test still holds at the launch (checked before each pass, b unchanged before the launch); the start
    # bound does not (b jumps by the body's own update too, here upwards, but the body could go either way)
    assert "(n >= (1))" not in got and "(n <= width)" in got.split(" or ")[0]


def test_a_wrapper_reading_a_global_block_and_called_with_local_pointers_is_read_at_the_top(tmp_path):
    # `threads` is a global the program sets from the command line and `tmp` a local buffer of the middle function:
    # neither keeps the launch in its wrapper; the relation the top computes (w = 64 * 32) reaches the kernel
    (tmp_path / "k.cu").write_text(KERNEL + "int threads = 128;\nvoid launch(float *d, int w) {\n"
                                            "  fill<<<w / threads, threads>>>(d, w, 3);\n}\n"
                                            "void step(float *d, int w) {\n  float *tmp = d + w;\n"
                                            "  launch(tmp, w);\n}\nint main() {\n  float *d;\n  int w = 64 * 32;\n"
                                            "  step(d, w);\n}\n")
    p = tmp_path / "k.cu"
    got = host_assume.from_host(p.read_text(), p, None, PARAMS)["fill"][0].text
    assert "width == 2048" in got and "n == 3" in got and "blockDim" not in got


def test_a_size_the_host_computes_as_a_product_with_a_constant_is_a_multiple_of_it(tmp_path):
    # n = numk * 1024 (numk read at run time), m = 192 * (k / 192 + min(1, k % 192)): the early return is taken
    # by whole blocks only, so the barrier after it is reached by every thread of a block
    src = """
__global__ void tiled(float *out, const float *in, int n) {
  __shared__ float s[256];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  s[threadIdx.x] = in[i];
  __syncthreads();
  out[i] = s[255 - threadIdx.x];
}
int main(int argc, char **argv) {
  const int numk = atoi(argv[1]);
  const int n = numk * 1024;
  tiled<<<(n + 255) / 256, 256>>>(0, 0, n);
}
"""
    p = tmp_path / "k.cu"
    p.write_text(src)
    res = analyze(p)
    assert "n % 1024 == 0" in res.assumed and not [d for d in res.diagnostics if d.severity.value == "error"]
    p.write_text(src.replace("numk * 1024", "numk + 1024"))  # a sum says nothing
    assert "barrier.divergent" in {d.rule for d in analyze(p).diagnostics}
    p.write_text(src.replace("const int n = numk * 1024;", "int n;\n  n = 192 * ((numk / 192) + std::min(1, numk % 192));")
                 .replace("256", "192").replace("255", "191"))
    assert "n % 192 == 0" in analyze(p).assumed


def test_a_block_set_field_by_field_relates_its_size_to_the_values_passed(tmp_path):
    # dim3 b; b.x = w; b.y = 1; (z never set: 1) and the grid likewise: the block's width is the `width` passed
    text = _implied("void run(float *d, int w, int h) {\n  dim3 b;\n  dim3 g;\n  b.x = w;\n  b.y = 1;\n"
                    "  g.x = h;\n  fill<<<g, b>>>(d, w, 3);\n}\n", tmp_path)
    assert "blockDim.x == width" in text and "blockDim.y == 1" in text and "blockDim.z == 1" in text
    assert "gridDim.x" not in text  # h is not passed
    # a field set under a condition, or the whole dim3 assigned, says nothing about that field
    text = _implied("void run(float *d, int w, int h) {\n  dim3 b;\n  if (h > 2) b.x = w;\n  b.y = 1;\n"
                    "  fill<<<1, b>>>(d, w, 3);\n}\n", tmp_path)
    assert "blockDim.x" not in text and "blockDim.y == 1" in text


def test_a_field_set_from_an_array_element_set_to_a_constant_is_that_constant(tmp_path):
    # NPB-GPU: `amount_of_threads[1] = 5; ... threadSize.y = amount_of_threads[1];` beside an x chosen at run time
    text = _implied("void run(float *d, int w, int limit) {\n  dim3 b;\n  size_t amount[3];\n  amount[1] = 5;\n"
                    "  amount[0] = limit / 5;\n  b.x = amount[0];\n  b.y = amount[1];\n  b.z = 1;\n"
                    "  fill<<<1, b>>>(d, w, 3);\n}\n", tmp_path)
    assert "blockDim.y == 5" in text and "blockDim.z == 1" in text and "blockDim.x ==" not in text, text


def test_a_grid_rounded_up_by_a_floating_ceil_is_a_ceiling_quotient(tmp_path):
    # NPB-GPU: `int tpb = ...; int tpb_x = tpb; int work = (n2 - 2) * tpb; dim3 b(tpb_x, 1);
    # dim3 g(ceil(double(work) / double(b.x)), 1);` and, 1-D, `(ceil((double)(work)/(double)(threads)))`: the grid
    # is the work's ceiling quotient by the block, the work a whole number of blocks (the block a name it copies)
    text = _implied("void run(float *d, int w, int h, int limit) {\n  int tpb = w > limit ? limit : w;\n"
                    "  int work = (h - 2) * tpb;\n  int tpb_x = tpb;\n  dim3 b(tpb_x, 1, 1);\n"
                    "  dim3 g(ceil(double(work) / double(b.x)), 1, 1);\n  fill<<<g, b>>>(d, work, h);\n}\n", tmp_path)
    assert "gridDim.x == ((width) + (blockDim.x) - 1) / (blockDim.x)" in text, text
    assert "width == (n - 2) * blockDim.x" in text, text
    text = _implied("void run(float *d, int w, int h) {\n  int threads = 64;\n  int work = h * 64;\n"
                    "  int blocks = (ceil((double)(work)/(double)(threads)));\n  fill<<<blocks, threads>>>(d, work, h);\n"
                    "  threads = 64;\n  work = (h - 2) * 64;\n  blocks = (ceil((double)(work)/(double)(threads)));\n"
                    "  fill<<<blocks, threads>>>(d, work, h);\n}\n", tmp_path)
    assert "gridDim.x == (((width) + (64) - 1) / (64))" in text and "width == (n - 2) * 64" in text, text
    # a 1-D block held by an integer local the launch names: that is blockDim.x
    text = _implied("void run(float *d, int w, int h, int limit) {\n  int threads = limit > 64 ? 64 : limit;\n"
                    "  int blocks = ceil((double)h / threads);\n  fill<<<blocks, threads>>>(d, w, h);\n}\n", tmp_path)
    assert "gridDim.x == ((n) + (blockDim.x) - 1) / (blockDim.x)" in text, text
    # an integer quotient's ceil is that quotient: nothing is read into it
    text = _implied("void run(float *d, int w, int h) {\n  dim3 g(ceil(w / 16), 1, 1);\n"
                    "  fill<<<g, 16>>>(d, w, 3);\n}\n", tmp_path)
    assert "gridDim.x" not in text, text


def test_a_constant_passed_for_a_template_typed_parameter_is_its_value(tmp_path):
    # analyzed generically (no instantiation), `StrideType stride` is a scalar; the host passes 1, so each thread
    # writes its own three elements (with any other stride, rows of three would overlap)
    p = tmp_path / "cross.cu"
    p.write_text("""
template <typename T, typename StrideType>
__global__ void rows3(int n, T *out, StrideType stride) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
    T *row = out + 3 * i;
    row[0 * stride] = 1; row[1 * stride] = 2; row[2 * stride] = 3;
  }
}
void run(float *d, int n) { rows3<<<(n + 255) / 256, 256>>>(n, d, 1); }
""")
    res = analyze(p)
    assert "stride == 1" in res.assumed
    assert not _races(res), res.diagnostics


def test_a_sibling_launch_reads_the_macros_of_headers_in_the_builds_include_folders(tmp_path):
    # the launching file includes "common.h" from ../include (the Makefile's -I), which defines the block size
    (tmp_path / "include").mkdir()
    (tmp_path / "device").mkdir()
    (tmp_path / "include" / "common.h").write_text("#define TPB (64)\n")
    (tmp_path / "device" / "Makefile").write_text("CFLAGS = -I../include -O3\n")
    (tmp_path / "device" / "kernel.cu").write_text("""#include "common.h"
__global__ void stage(const float *in, float *out) {
  __shared__ float s[TPB];
  s[threadIdx.x] = in[blockIdx.x * TPB + threadIdx.x];
  __syncthreads();
  out[blockIdx.x * TPB + threadIdx.x] = s[TPB - 1 - threadIdx.x];
}
""")
    (tmp_path / "device" / "wrapper.cu").write_text("""#include "common.h"
__global__ void stage(const float *in, float *out);
void run(const float *in, float *out, int blocks) { stage<<<blocks, TPB>>>(in, out); }
""")
    res = analyze(tmp_path / "device" / "kernel.cu")
    assert [l["block"] for l in res.launches] == [[64, 1, 1]], res.assumed


def test_an_assert_over_a_launcher_templates_constants_holds_for_each_instantiation():
    # flash attention's launcher: rows past the sequence return before the barrier, and the launcher asserts the
    # sequence is a multiple of max(Br, Bc), where Bc depends on the head dimension it is instantiated with
    src = """
#include <cassert>
__host__ __device__ inline int div_ceil(int a, int b) { return (a + b - 1) / b; }
template <int Br>
__global__ void k(float *o, int seqlen) {
  __shared__ float s[128];
  int row = blockIdx.x * Br + threadIdx.x;
  if (row >= seqlen) return;
  s[threadIdx.x] = o[row];
  __syncthreads();
  o[row] = s[127 - threadIdx.x];
}
template <int kHeadDim>
void launch(float *o, int seqlen) {
  constexpr int Br = 128;
  constexpr int Bc = (kHeadDim < 128) ? 64 : 32;
  assert(seqlen % std::max(Br, Bc) == 0);
  k<Br><<<div_ceil(seqlen, Br), 128>>>(o, seqlen);
}
void run(float *o, int n, int d) { if (d == 64) launch<64>(o, n); else launch<128>(o, n); }
"""
    res = analyze(src, path="fa.cu")
    assert not [d for d in res.diagnostics if d.rule.startswith(("barrier", "race", "analysis"))]
    # one fact per instantiation (both give the same block and kernel: one configuration under either)
    assert "(seqlen % max(128, 64) == 0)" in res.assumed and "(seqlen % max(128, 32) == 0)" in res.assumed
    # instantiations the host scan cannot read (a head dimension from the build): one alternative per value
    unread = src.replace("launch<64>(o, n); else launch<128>(o, n);", "launch<HD>(o, n);")
    res = analyze(unread, path="fa.cu")
    assert not [d for d in res.diagnostics if d.rule.startswith(("barrier", "race"))], res.diagnostics
    assert "((seqlen % max(128, 64) == 0) or (seqlen % max(128, 32) == 0))" in res.assumed
    res = analyze(src.replace("assert(seqlen % std::max(Br, Bc) == 0);", ""), path="fa.cu")
    assert [d.rule for d in res.diagnostics if d.rule.startswith("barrier")] == ["barrier.divergent"]


def test_a_launch_in_a_file_that_declares_the_kernel_gives_its_facts(tmp_path):
    # Parboil's SAD: kernels.cu defines the kernel, main.cu declares it (without including kernels.cu) and launches
    # it with a grid of mb_width x mb_height blocks, passing the same two values; block (x, y) owns element
    # y * mb_width + x only when the grid is the width. Before, the launch gave the block but no facts.
    (tmp_path / "kernels.cu").write_text("""
__global__ void sad(unsigned short *out, int mb_width, int mb_height) {
  int mb = blockIdx.y * mb_width + blockIdx.x;
  if (threadIdx.x == 0) out[mb] = (unsigned short)mb;
}
""")
    (tmp_path / "main.cu").write_text("""#include <cstdlib>
__global__ void sad(unsigned short *out, int mb_width, int mb_height);
int main(int argc, char **argv) {
  unsigned short *d;
  int w, h;
  w = atoi(argv[1]) >> 4;
  h = atoi(argv[2]) >> 4;
  dim3 grid(w, h);
  sad<<<grid, dim3(32, 4)>>>(d, w, h);
  return 0;
}
""")
    res = analyze(tmp_path / "kernels.cu")
    assert "gridDim.x == mb_width" in res.assumed, res.assumed
    assert not _races(res), res.diagnostics


def test_a_grid_the_kernel_is_also_passed_is_that_parameter():
    # SHOC's radix sort: `findRadixOffsets<<<findBlocks, 256>>>(..., findBlocks)` writes counters[t * total + b];
    # before, a name passed to the kernel was no grid and the blocks' columns could collide
    src = """
__global__ void offsets(unsigned *counters, int total) {
  if (threadIdx.x < 16) counters[threadIdx.x * total + blockIdx.x] = threadIdx.x;
}
void run(unsigned *c, int n) {
  const int blocks = n / 512;
  offsets<<<blocks, 256>>>(c, blocks);
}
"""
    res = analyze(src, path="sort.cu")
    assert "gridDim.x == total" in res.assumed, res.assumed
    assert not _races(res), res.diagnostics


def test_a_launcher_templates_facts_hold_per_instantiation():
    # the launcher asserts the sequence is a multiple of its tile Br, 64 in one instantiation and 128 in the other;
    # rows past the sequence return before the barrier. The instantiation with a 128-thread block holds under
    # seqlen % 128 == 0, not under "a multiple of 64 or of 128" (before, every configuration took the facts of
    # all instantiations at once, and a 64-row sequence split the 128-thread block at the barrier)
    src = """
#include <cassert>
template <int Br>
__global__ void k(float *o, int seqlen) {
  __shared__ float s[128];
  int row = blockIdx.x * Br + threadIdx.x;
  if (row >= seqlen) return;
  s[threadIdx.x] = o[row];
  __syncthreads();
  o[row] = s[Br - 1 - threadIdx.x];
}
template <int kHeadDim>
void launch(float *o, int seqlen) {
  constexpr int Br = (kHeadDim < 128) ? 64 : 128;
  assert(seqlen % Br == 0);
  k<Br><<<(seqlen + Br - 1) / Br, Br>>>(o, seqlen);
}
void run(float *o, int n, int d) { if (d == 64) launch<64>(o, n); else launch<128>(o, n); }
"""
    res = analyze(src, path="fa.cu")
    assert sorted(l["block"][0] for l in res.launches) == [64, 128], res.launches
    wide = [a for a in res.assumed.splitlines() if "(kHeadDim=128), block=(128, 1, 1), any grid, template <128>" in a]
    assert len(wide) == 1 and "seqlen % 128 == 0" in wide[0] and "seqlen % 64" not in wide[0], res.assumed
    assert not [d for d in res.diagnostics if d.rule.startswith(("barrier", "race", "analysis"))], res.diagnostics
    # the 128-row instantiation asserting only a multiple of 64 is still reported
    res = analyze(src.replace("assert(seqlen % Br == 0);", "assert(seqlen % 64 == 0);"), path="fa.cu")
    assert [d.rule for d in res.diagnostics if d.rule.startswith("barrier")] == ["barrier.divergent"]


def test_a_helper_of_a_header_found_by_name_sizes_the_grid(tmp_path):
    # a PyTorch extension's kernel file includes "utils.h" from a folder its build script names; the project holds
    # one utils.h, whose div_ceil sizes the grid. Rows stay below n only with the grid read: before, the host facts
    # read helpers from headers beside the file only, the grid was unknown and the slices' stores met
    (tmp_path / "setup.py").write_text("")
    (tmp_path / "utils").mkdir()
    (tmp_path / "utils" / "utils.h").write_text("inline int div_ceil(int a, int b) { return (a + b - 1) / b; }\n")
    (tmp_path / "ops").mkdir()
    (tmp_path / "ops" / "k.cu").write_text("""#include <cassert>
#include "utils.h"
__global__ void k(float *o, int n) {
  int row = blockIdx.x * 64 + threadIdx.x;
  o[blockIdx.y * n + row] = row;
}
void run(float *o, int n, int h) {
  assert(n % 64 == 0);
  dim3 grid(div_ceil(n, 64), h);
  k<<<grid, 64>>>(o, n);
}
""")
    res = analyze(tmp_path / "ops" / "k.cu")
    assert "gridDim.x ==" in res.assumed, res.assumed
    assert not _races(res), res.diagnostics


def test_a_block_given_by_an_integer_template_parameter_is_one_dimensional():
    # OneFlow's softmax launcher: `k<..., block_size><<<grid, block_size>>>` inside a launcher template whose
    # instantiations name user types (not read). The block's size is unknown, but an integer block is 1-D, so only
    # one thread has threadIdx.x == 0. Before, the launch gave no fact and a 2-D block let two threads write
    src = """
template <int block_size>
__device__ float all_reduce(float v) {
  __shared__ float result;
  if (threadIdx.x == 0) result = v;
  __syncthreads();
  return result;
}
template <int block_size>
__global__ void k(float *out, const float *in) {
  float r = all_reduce<block_size>(in[blockIdx.x * block_size + threadIdx.x]);
  if (threadIdx.x == 0) out[blockIdx.x] = r;
}
struct Loader { float *p; };
template <typename L, int block_size>
void launch(float *out, const float *in, int rows) {
  k<block_size><<<rows, block_size>>>(out, in);
}
void run(float *o, const float *i, int r) { launch<Loader, 128>(o, i, r); }
"""
    res = analyze(src, path="softmax.cu")
    assert "blockDim.y == 1 and blockDim.z == 1" in res.assumed, res.assumed
    assert not _races(res), res.diagnostics


def test_a_value_cast_of_a_host_local_does_not_hide_its_value():
    # the sample's main sets m = 5120 once and reports `long(m) * n` operations: a functional cast copies m, so the
    # launch still passes 5120, a multiple of the block, and no block straddles the early return. Before, `long(m)`
    # read as a call that might change m through a reference, and the barrier was reported divergent
    src = """
#include <cstdio>
__global__ void k(float *o, int m) {
  __shared__ float s[256];
  int row = blockIdx.x * 256 + threadIdx.x;
  if (row >= m) return;
  s[threadIdx.x] = o[row];
  __syncthreads();
  o[row] = s[255 - threadIdx.x];
}
int main() {
  int m = 5120;
  float *o;
  cudaMalloc(&o, m * sizeof(float));
  k<<<(m + 255) / 256, 256>>>(o, m);
  long work = long(m) * 2 + static_cast<long>(m);
  printf("%ld\\n", work);
  return 0;
}
"""
    res = analyze(src, path="sgemm.cu")
    assert "(m == 5120)" in res.assumed, res.assumed
    assert not [d for d in res.diagnostics if d.rule.startswith("barrier")], res.diagnostics


def test_a_known_factor_of_a_grid_product_divides_it_and_is_not_zero():
    # flash attention's grid is (rows, batch * heads) with batch known only to the host and heads passed on: heads
    # divides gridDim.y and is not zero (a grid dimension is at least 1), so `blockIdx.y / heads` divides by no zero
    src = """
#include <cassert>
__global__ void k(float *o, int heads, int n) {
  int b = blockIdx.y / heads, h = blockIdx.y % heads;
  int i = blockIdx.x * 64 + threadIdx.x;
  o[(b * heads + h) * n + i] = i;
}
void run(float *o, int batch, int heads, int n) {
  assert(n % 64 == 0);
  dim3 grid(n / 64, batch * heads);
  k<<<grid, 64>>>(o, heads, n);
}
"""
    res = analyze(src, path="attn.cu")
    assert "(heads) != 0 and gridDim.y % (heads) == 0" in res.assumed, res.assumed
    assert not [d for d in res.diagnostics if d.rule.startswith(("race", "analysis"))], res.diagnostics
    # not a plain product: nothing is said of its factors
    res = analyze(src.replace("batch * heads", "batch * heads / 2"), path="attn.cu")
    assert "% (heads)" not in res.assumed, res.assumed


def test_a_pure_macro_or_fprintf_over_the_size_leaves_its_value_known():
    # a tiled transpose checked against the host's result with an indexing macro and fprintf: neither can change
    # `size`, so the launch's `m == 4096` holds and the guarded tile store is no race; a macro that assigns may
    # change it, and then nothing is assumed
    src = """
#include <cstdio>
#define INDX(row, col, ld) (((col) * (ld)) + (row))
#define BUMP(v) ((v) += 1)
__global__ void t(const int m, const double *a, double *c) {
  __shared__ double s[32][33];
  int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 32 + threadIdx.y;
  if (x < m && y < m) s[threadIdx.y][threadIdx.x] = a[INDX(x, y, m)];
  __syncthreads();
  x = blockIdx.y * 32 + threadIdx.x; y = blockIdx.x * 32 + threadIdx.y;
  if (x < m && y < m) c[INDX(x, y, m)] = s[threadIdx.x][threadIdx.y];
}
int main() {
  int size = 4096;
  fprintf(stdout, "size %d\\n", size);
  double *a, *c, *h;
  dim3 threads(32, 32), blocks(size / 32 + 1, size / 32 + 1);
  t<<<blocks, threads>>>(size, a, c);
  for (int i = 0; i < size; i++)
    if (h[INDX(i, 0, size)] != 0) return 1;
  return 0;
}
"""
    res = analyze(src, path="transpose.cu")
    assert "(m == 4096)" in res.assumed, res.assumed
    res = analyze(src.replace("h[INDX(i, 0, size)]", "h[BUMP(size)]"), path="transpose.cu")
    assert "(m == 4096)" not in res.assumed, res.assumed


def test_an_array_element_as_a_launch_block_is_no_one_dimensional_fact(tmp_path):
    # `blocks[i]` may be a dim3: reading it as a thread count would assume blockDim.y == 1 and blockDim.z == 1
    text = _implied("void run(float *d, dim3 *blocks, int i) {\n  fill<<<1, blocks[i]>>>(d, 64, 3);\n}\n", tmp_path)
    assert "blockDim" not in text and "width == 64" in text


def test_an_extern_constant_takes_its_value_from_the_file_of_the_folder_that_defines_it(tmp_path):
    # the sample's header declares the limit, another file defines it from its own macro
    (tmp_path / "limits.cu").write_text('#define BLOCK 256\nextern "C" const unsigned int MAX_W = 4 * BLOCK;\n')
    text = _implied('extern "C" const unsigned int MAX_W;\n'
                    "void run(float *d, int w) {\n  assert(w <= MAX_W);\n  fill<<<1, 64>>>(d, w, 3);\n}\n", tmp_path)
    assert "width <= 1024" in text


def test_a_wrappers_own_constant_is_read_in_its_file_not_at_its_callers(tmp_path):
    # the wrapper passes 4 * BLOCK; its caller's file has no BLOCK
    (tmp_path / "main.cpp").write_text("void launch(float *d, int w);\nint main() { launch(0, 512); return 0; }\n")
    text = _implied("#define BLOCK 256\nvoid launch(float *d, int w) {\n  fill<<<w / 64, 64>>>(d, w, 4 * BLOCK);\n}\n",
                    tmp_path)
    assert "width == 512" in text and "n == 4 * 256" in text


def test_a_grid_that_divides_by_a_parameter_is_no_fact(tmp_path):
    # (N / w) * w / 64 blocks: a division circuit in every query of the kernel, for a grid extent no check needs
    text = _implied("void run(float *d, int w) {\n  const int N = 4096;\n  fill<<<(N / w) * w / 64, 64>>>(d, w, 1);\n}\n",
                    tmp_path)
    assert "blockDim.x == 64" in text and "gridDim.x" not in text
    assert "gridDim.x == (4096 / 2) / 64" in _implied("void run(float *d, int w) {\n  const int N = 4096;\n"
                                                "  fill<<<(N / 2) / 64, 64>>>(d, w, 1);\n}\n", tmp_path)


def test_a_host_condition_over_constants_alone_is_a_fact_only_when_it_fails(tmp_path):
    # the loop's `r < 2` at its values 0 and 1 always holds: no fact; `if (USE_PACKED)` with USE_PACKED 0 fails:
    # the launch under it never runs, and the fact says so
    text = _implied("#define USE_PACKED 0\nvoid run(float *d, int w) {\n  for (int r = 0; r < 2; r++) {\n"
                    "    if (USE_PACKED) { fill<<<1, 32>>>(d, w, 1); } else { fill<<<w / 64, 64>>>(d, w, 2); }\n"
                    "  }\n}\n", tmp_path)
    assert "< 2" not in text and ">= (0)" not in text
    assert "n == 1 and (0)" in text and "n == 2" in text


def test_a_launch_of_another_overload_gives_the_kernel_no_facts(tmp_path):
    # `fill(out, n)` is another kernel of the name: its arguments do not map onto (out, width, n), and the kernel's
    # assumption must hold at every launch, so the launches give it none (before: `width == 7`, `n` unknown)
    host = ("__global__ void fill(float *out, int n) { out[threadIdx.x] = n; }\n"
            "void run(float *d, int w) {\n  fill<<<4, 64>>>(d, w, 3);\n  fill<<<4, 64>>>(d, 7);\n}\n")
    assert _implied(host, tmp_path) == ""
    # the same arguments counted: the facts stay
    assert "n == 3" in _implied(host.replace("fill<<<4, 64>>>(d, 7);", "fill<<<4, 64>>>(d, 7, 3);"), tmp_path)


def test_a_braced_block_is_a_dim3(tmp_path):
    # `<<<grid, {16, 8, 1}>>>` builds a dim3: its components, not a 1-D block of that text
    text = _implied("void run(float *d, int w) {\n  fill<<<w / 16, {16, 8, 1}>>>(d, w, 1);\n}\n", tmp_path)
    assert "blockDim.x == 16" in text and "blockDim.y == 8" in text and "blockDim.y == 1" not in text


def test_more_than_eight_values_a_caller_passes_give_their_range_and_common_divisor(tmp_path):
    # up to eight values are each a choice (a power-of-two sweep stays one: 6 is not among them)
    host = ("void launch(float *d, int w) { fill<<<w / 16, 16>>>(d, w, 1); }\n"
            "int main() {\n  float *d;\n  for (int s : {2, 4, 8, 16, 32}) launch(d, s);\n}\n")
    assert "(width == 2 or width == 4 or width == 8 or width == 16 or width == 32)" in _implied(host, tmp_path)
    text = _implied(host.replace("{2, 4, 8, 16, 32}", "{64, 128, 192, 256, 320, 384, 448, 512, 576}"), tmp_path)
    assert "width >= 64 and width <= 576 and width % 64 == 0" in text


def test_callers_in_a_file_above_that_includes_the_launchers_header_through_the_build(tmp_path):
    # main.cu (the project's root) includes <runner.cuh> through CMake's include_directories(src) and calls
    # run_kernel with each size of a vector (`m = n = size;` after `long m, n;`, read with SIZE.size(), passed to a
    # helper runner.cuh declares taking values); runner.cu, beside runner.cuh, chooses a launch by the size and
    # launches the kernel of src/kernels/k.cuh, which kernels.cuh gathers. The sizes, multiples of 128, keep every
    # 32-wide tile inside its row; with any size the last tile's columns spill into the next row, where other
    # threads write
    (tmp_path / "src" / "kernels").mkdir(parents=True)
    (tmp_path / "CMakeLists.txt").write_text("include_directories(${PROJECT_SOURCE_DIR}/src)\n")
    (tmp_path / "src" / "kernels" / "k.cuh").write_text(
        "__global__ void tile(float *C, int M, int N) {\n  C += blockIdx.y * 32 * N + blockIdx.x * 32;\n"
        "  C[threadIdx.y * N + threadIdx.x] *= 2.f;\n}\n")
    (tmp_path / "src" / "kernels.cuh").write_text('#include "kernels/k.cuh"\n')
    (tmp_path / "src" / "runner.cuh").write_text("void run_kernel(float *C, int M, int N);\n"
                                                "void show(int M, int N);\n")
    (tmp_path / "src" / "runner.cu").write_text(
        '#include "kernels.cuh"\nvoid run_kernel(float *C, int M, int N) {\n'
        "  if (N >= 64) {\n    dim3 grid((N + 31) / 32, (M + 31) / 32);\n    tile<<<grid, dim3(32, 32)>>>(C, M, N);\n"
        "  } else {\n    tile<<<1, dim3(32, 32)>>>(C, M, N);\n  }\n}\n")
    (tmp_path / "main.cu").write_text(
        "#include <vector>\n#include <runner.cuh>\nint main() {\n  float *C;\n"
        "  std::vector<int> SIZE = {128, 256, 384, 512, 640, 768, 896, 1024, 2048};\n  int largest = SIZE[SIZE.size() - 1];\n"
        "  long m, n;\n  for (int size : SIZE) {\n    m = n = size;\n    run_kernel(C, m, n);\n    show(m, n);\n"
        "  }\n  return largest;\n}\n")
    res = analyze(tmp_path / "src" / "kernels" / "k.cuh")
    assert "N >= 128 and N <= 2048 and N % 128 == 0" in res.assumed and "N == M" in res.assumed, res.assumed
    assert not _races(res), _races(res)


def test_sizes_a_loop_stores_in_an_array_and_one_value_passed_for_two_parameters_through_callers(tmp_path):
    # `int SIZE[12]; for (...) SIZE[i] = 64 * (i + 1);` (its size read with sizeof) gives the array's elements;
    # `w = n = SIZE[i];` passes one value for both parameters through dispatch and launch: width == n
    host = ("void launch(float *d, int w, int n) { fill<<<w / 16, 16>>>(d, w, n); }\n"
            "void dispatch(float *d, int w, int n) { launch(d, w, n); }\n"
            "int main() {\n  float *d;\n  int SIZE[12];\n  for (int i = 0; i < 12; i++) SIZE[i] = 64 * (i + 1);\n"
            "  int count = sizeof(SIZE) / sizeof(int);\n  int w, n;\n"
            "  for (int i = 0; i < count; i++) {\n    w = n = SIZE[i];\n    dispatch(d, w, n);\n  }\n}\n")
    text = _implied(host, tmp_path)
    assert "width >= 64 and width <= 768 and width % 64 == 0" in text and "n == width" in text, text
    # set in two statements (another value could come between), the values stay but not the equality
    text = _implied(host.replace("    w = n = SIZE[i];", "    w = SIZE[i];\n    n = SIZE[i];"), tmp_path)
    assert "width % 64 == 0" in text and "n == width" not in text, text
    # the same callers passing one unknown value (read at run time) for both: no relation without the values (a
    # relation alone would end the kernel's presumptions about a row stride)
    host = host.replace("    w = n = SIZE[i];", "    w = n = read_size(i);").replace("int main() {", "int read_size(int);\nint main() {")
    assert "n == width" not in _implied(host, tmp_path)


def test_a_kernel_handed_to_a_launcher_as_a_function_pointer_gets_the_launchers_facts(tmp_path):
    # `run(fill, ...)` then `kernel<<<grid, 256>>>(...)` inside run: the callers pass a kernel's name, which no
    # assignment can change, so the launch's facts are the kernel's
    host = ("void run(void (*kernel)(float *, int, int), float *d, int w) {\n  int blocks = (w + 255) / 256;\n"
            "  kernel<<<blocks, 256>>>(d, w, 1);\n}\n"
            "int main(int argc, char **argv) {\n  float *d;\n  run(fill, d, atoi(argv[1]));\n}\n")
    text = _implied(host, tmp_path)
    assert "gridDim.x == (width + 255) / 256" in text and "blockDim.x == 256" in text and "n == 1" in text


def test_a_grid_sized_from_the_name_a_passed_argument_copies(tmp_path):
    # `int w = cols;` passed as width, the grid sized from `cols`: one value, so the grid speaks of width
    host = ("void run(float *d, int cols) {\n  int w = cols;\n  dim3 grid(cols / 16);\n"
            "  fill<<<grid, 16>>>(d, w, 2);\n}\n")
    assert "gridDim.x == width / 16" in _implied(host, tmp_path)
    changed = host.replace("  dim3 grid", "  cols = cols * 2;\n  dim3 grid")  # not one value any more
    assert "gridDim.x" not in _implied(changed, tmp_path)


@pytest.mark.parametrize("test, fact", [
    ("b < n && b < LIMIT", "(width < n)"),  # the conjunct that can be read is kept
    ("b < n || b < LIMIT", None),  # an `||`: neither side holds alone
    ("(b < n || b < 3) && b < LIMIT", "(width < n || width < 3)"),
])
def test_a_loop_test_around_the_launch_gives_each_conjunct_it_can_read(tmp_path, test, fact):
    # LIMIT is defined nowhere: that conjunct cannot be read, the others still hold at the launch
    host = f"void run(float *d, int n) {{\n  for (int b = 0; {test}; b++)\n    fill<<<1, 64>>>(d, b, n);\n}}\n"
    text = _implied(host, tmp_path)
    assert (fact in text) if fact else "width <" not in text


def test_each_overload_of_a_kernel_takes_the_facts_of_the_launches_its_arguments_fit():
    # a layer norm written twice, with and without its statistics outputs; both launched with one-dimensional
    # blocks of a size chosen at run time: each overload's shared slots per warp are checked for 1-D blocks only
    src = """__global__ void norm(float* out, const float* in, float* means, int n) {
  __shared__ float s[32];
  int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  float v = in[blockIdx.x * n + threadIdx.x];
  if (lane == 0) s[warp] = v;
  __syncthreads();
  if (threadIdx.x == 0) means[blockIdx.x] = s[0];
  out[blockIdx.x * n + threadIdx.x] = v - s[0];
}
__global__ void norm(float* out, const float* in, int n) {
  __shared__ float s[32];
  int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  float v = in[blockIdx.x * n + threadIdx.x];
  if (lane == 0) s[warp] = v;
  __syncthreads();
  out[blockIdx.x * n + threadIdx.x] = v - s[0];
}
void run(float* out, const float* in, float* means, int rows, int n, bool stats) {
  int threads = n;
  dim3 block(threads);
  if (stats) norm<<<rows, block>>>(out, in, means, n);
  else norm<<<rows, block>>>(out, in, n);
}
"""
    res = analyze(src.replace("threadIdx.x % 32", "(threadIdx.x + threadIdx.y * blockDim.x) % 32")
                  .replace("threadIdx.x / 32", "(threadIdx.x + threadIdx.y * blockDim.x) / 32"))
    assert all("blockDim.y == 1" in l for l in res.assumed if "norm" in l), res.assumed
    assert not [d for d in res.diagnostics if d.rule.startswith("race")]


def test_a_launch_dimension_passed_as_the_same_expression_is_that_parameter(tmp_path):
    text = _implied("void run(float *d, int hs, int n) {\n  dim3 block(hs / 8, 4);\n  fill<<<n, block>>>(d, hs / 8, 3);"
                    "\n}\n", tmp_path)
    assert "blockDim.x == width" in text
    changed = _implied("void run(float *d, int hs, int n) {\n  dim3 block(hs / 8, 4);\n  hs += 8;\n"
                       "  fill<<<n, block>>>(d, hs / 8, 3);\n}\n", tmp_path)
    assert "blockDim.x == width" not in changed  # hs changes between the block and the call


def test_a_namespace_or_class_constant_sizes_a_launch(tmp_path):
    (tmp_path / "k.cu").write_text(KERNEL + """
namespace cfg { constexpr int threads = 128; namespace inner { constexpr int rows = threads / 32; } }
struct Tile { static constexpr int kRows = 2; };
namespace other { constexpr int threads = 64; }
void run(float *d, int w) {
  dim3 block(cfg::threads, cfg::inner::rows * Tile::kRows);
  fill<<<w, block>>>(d, w, 3);
}
""")
    res = analyze(tmp_path / "k.cu")
    assert [l["block"] for l in res.launches] == [[128, 8, 1]]


def test_a_grid_a_helper_builds_as_a_dim3_is_no_one_dimensional_count(tmp_path):
    # `NumBlocks(1, n)` returns a dim3 with `grid.y = n`: reading it as a count said `gridDim.y == 1`, which let a
    # witness put every lane in one block
    (tmp_path / "k.cu").write_text("""
inline dim3 NumBlocks(int N, int M) { dim3 grid; grid.x = (N + 255) / 256; grid.y = M; return grid; }
__global__ void k(int *out, int n) {
  for (int lane = blockIdx.y; lane < n; lane += gridDim.y) out[lane * blockDim.x + threadIdx.x] = lane;
}
void K(const dim3 &grid, const dim3 &block, int *out, int n) { k<<<grid, block>>>(out, n); }
void run(int *out, int n) { K(NumBlocks(1, n), 256, out, n); }
""")
    res = analyze(tmp_path / "k.cu")
    assert "gridDim.y == 1" not in res.assumed and "blockDim.x == 256" in res.assumed


def test_a_grid_declared_with_values_keeps_the_ones_no_later_statement_changes(tmp_path):
    # FasterTransformer's masked softmax: `grid.x` is changed under an `if` (and `/= 4` in a launch macro); the
    # heads and batch stay the grid's z and y, and a witness may not put a block past the last head
    text = _implied("void run(float *d, int w, int h, bool many) {\n  dim3 grid(w, h, 2);\n"
                    "  if (many) {\n    grid.x = (w + 31) / 32;\n  }\n  grid.x /= 4;\n"
                    "  fill<<<grid, 32>>>(d, h, 3);\n}\n", tmp_path)
    assert "gridDim.y == width" in text and "gridDim.z == 2" in text and "gridDim.x" not in text
    (tmp_path / "h.cu").write_text("""
__global__ void softmax(float *score, int heads, int q_len, int k_len) {
  for (int qi = blockIdx.x; qi < q_len; qi += gridDim.x)
    for (int ki = threadIdx.x; ki < k_len; ki += blockDim.x)
      score[((blockIdx.y * heads + blockIdx.z) * q_len + qi) * k_len + ki] *= 0.5f;
}
void run(float *score, int batch, int heads, int q_len, int k_len) {
  dim3 grid(q_len, batch, heads);
  if (batch * heads > 360) {
    grid.x = (q_len + 31) / 32;
  }
  softmax<<<grid, 128>>>(score, heads, q_len, k_len);
}
""")
    res = analyze(tmp_path / "h.cu")
    assert "gridDim.z == heads" in res.assumed and not _races(res)


def test_a_tensors_size_reads_as_the_size_of_the_accessor_it_is_passed_as(tmp_path):
    # PyTorch extension style: the block is a tensor's size, the tensor is passed as a packed accessor
    src = """#include <torch/extension.h>
template <typename scalar_t>
__global__ void rope(torch::PackedTensorAccessor32<scalar_t, 4, torch::RestrictPtrTraits> tokens, float base) {
  const int n = blockIdx.x % tokens.size(1), b = blockIdx.x / tokens.size(1);
  for (int h = 0; h < tokens.size(2); h++)
    tokens[b][n][h][threadIdx.x] = tokens[b][n][h][threadIdx.x] * base;
}
void run(torch::Tensor tokens, float base) {
  const int B = tokens.size(0), N = tokens.size(1);
  const int D = tokens.size(3);
  rope<float><<<B * N, D>>>(tokens.packed_accessor32<float, 4, torch::RestrictPtrTraits>(), base);
}
"""
    p = tmp_path / "rope.cu"
    p.write_text(src)
    res = analyze(p)
    assert "blockDim.x == tokens.size3" in res.assumed and not _races(res), (res.assumed, _races(res))


def test_grid_fields_set_in_one_comma_statement_each_take_their_value(tmp_path):
    # ByteTransformer's launchers: `grid.x = seq_len, grid.y = batch_size;` (the comma ends the first value)
    text = _implied("void run(float *d, int w, int n) {\n  dim3 grid, block;\n  grid.x = n, grid.y = w;\n"
                    "  block.x = 32;\n  fill<<<grid, block>>>(d, w, n);\n}\n", tmp_path)
    assert "gridDim.x == n" in text and "gridDim.y == width" in text, text


def test_a_grid_field_set_after_the_launch_for_the_next_one_does_not_change_this_launch(tmp_path):
    host = ("void run(float *d, int w, int n) {\n  dim3 grid, block(32);\n  grid.x = n;\n  grid.y = w;\n"
            "  fill<<<grid, block>>>(d, w, n);\n  grid.y = 1;\n  fill<<<grid, block>>>(d, 1, n);\n}\n")
    first = _implied(host, tmp_path).split(" / ")
    assert any("gridDim.y == width" in t for t in first), first
    looped = _implied(host.replace("  dim3 grid, block(32);\n", "  dim3 grid, block(32);\n  for (int r = 0; r < 2; r++) {\n")
                      .replace("}\n", "}}\n"), tmp_path)
    assert "gridDim.y == width" not in looped, looped  # a loop takes the first launch again after `grid.y = 1`


def test_a_launch_of_an_overloaded_kernel_template_binds_the_overload_with_as_many_parameters():
    # AMGX's estimate_c_hat_size_kernel: `template <int R, int C, int W>` beside `template <int C, int W>`, launched
    # as `k<8, 256, 32>` and `k<256, 32>`; each launch is one overload's (C = 8 made a 256-slot array 8 long)
    src = """template <int R, int C, int W> __global__ void k(int *o) {
  __shared__ int s[C];
  s[threadIdx.x] = R;
  __syncthreads();
  o[blockIdx.x * C + threadIdx.x] = s[C - 1 - threadIdx.x] + W;
}
template <int C, int W> __global__ void k(int *o) {
  __shared__ int s[C];
  s[threadIdx.x] = W;
  __syncthreads();
  o[blockIdx.x * C + threadIdx.x] = s[C - 1 - threadIdx.x];
}
void run(int *o, bool few) {
  const int CTA = 256;
  if (few) k<8, CTA, 32><<<64, CTA>>>(o);
  else k<CTA, 32><<<64, CTA>>>(o);
}
"""
    res = analyze(src, path="k.cu")
    assert not [d for d in res.diagnostics if d.rule.startswith(("bounds", "race"))], res.diagnostics


def test_a_launch_binds_the_overload_whose_pointer_types_its_arguments_have():
    # fastllm's RMSNorm kernels: a float and a half overload of one template name, each launched with its own blocks;
    # a launch passing `(half *) y` (a cast) or `float *x` (a parameter's declaration) is that overload's only
    # (the float launch's 256 threads overflowed the half overload's two slots per thread)
    src = """#include <cuda_fp16.h>
template <int B> __global__ void k(float *x, int n) {
  __shared__ float s[B];
  s[threadIdx.x] = x[blockIdx.x * B + threadIdx.x];
  __syncthreads();
  x[blockIdx.x * B + threadIdx.x] = s[B - 1 - threadIdx.x];
}
template <int B> __global__ void k(half *x, int n) {
  __shared__ half s[B];
  s[2 * threadIdx.x] = x[blockIdx.x * B + 2 * threadIdx.x];
  s[2 * threadIdx.x + 1] = x[blockIdx.x * B + 2 * threadIdx.x + 1];
  __syncthreads();
  x[blockIdx.x * B + threadIdx.x] = s[B - 1 - threadIdx.x];
}
void run_float(float *x, int n) { k<256><<<n, 256>>>(x, n); }
void run_half(void *y, int n) {
  k<256><<<n, 128>>>((half *) y, n);
}
"""
    res = analyze(src, path="k.cu")
    assert not [d for d in res.diagnostics if d.rule.startswith(("bounds", "race"))], res.diagnostics
    assert sorted(c["block"][0] for c in res.launches) == [128, 256], res.launches
    # a launch whose arguments' types the host code does not say stays each overload's
    both = analyze(src.replace("<<<n, 256>>>(x, n)", "<<<n, 256>>>(as_device(x), n)"), path="k.cu")
    assert [d for d in both.diagnostics if d.rule.startswith("bounds")], both.diagnostics


def test_two_block_fields_each_set_in_several_places_are_not_taken_equal():
    # flash-fft-conv: `dim3 blockDim; switch (N) { case 128: blockDim.x = 32; blockDim.y = 8; break; default:
    # blockDim.x = 32; blockDim.y = 4; }`: neither field is one known value, and they are not the same value
    # (`blockDim.y == blockDim.x` had excluded every real block, (32, 4) and (32, 8))
    src = """
__global__ void k(float *out, unsigned n) {
  out[blockIdx.x * blockDim.x * blockDim.y + threadIdx.y * blockDim.x + threadIdx.x] = n;
}
void run(float *out, unsigned n) {
  dim3 grid(64);
  dim3 block;
  switch (n) {
    case 128: block.x = 32; block.y = 8; break;
    default: block.x = 32; block.y = 4; break;
  }
  k<<<grid, block>>>(out, n);
}
"""
    res = analyze(src, path="k.cu")
    assert "blockDim.y == blockDim.x" not in res.assumed, res.assumed
    assert any(c["block"] == [32, 4, 1] for c in res.launches), res.launches


def test_a_switch_sets_a_blocks_fields_per_arm_and_its_case_fixes_the_launch():
    # flash-fft-conv's butterfly launcher: `dim3 blockDim;` set per arm of a `switch (N)` (32 x 8 for 128, else
    # 32 x 4), `gridDim.z = H` then `gridDim.z = H / 16` in the launch's own arm, and the kernel chosen by `case 16:`
    # of another `switch (N)`: one block, (32, 4, 1), the grid's z as its arm sets it, and N == 16 (the fields had
    # been combined across arms into six blocks and N left free: out-of-bounds witnesses at N = 17)
    src = """
template <int R>
__global__ void k(float *out, unsigned H, unsigned N) {
  __shared__ float s[64 * 32];
  for (int i = threadIdx.y; i < N; i += blockDim.y) s[i * 32 + threadIdx.x] = out[i];
  __syncthreads();
  out[(blockIdx.z * gridDim.x + blockIdx.x) * 32 + threadIdx.x] = s[threadIdx.x] * R;
}
void run(float *out, unsigned H, unsigned N) {
  dim3 gridDim(64);
  dim3 blockDim;
  gridDim.z = H;
  switch (N) {
    case 128: blockDim.x = 32; blockDim.y = 8; break;
    default: blockDim.x = 32; blockDim.y = 4; break;
  }
  switch (N) {
  case 16:
    k<1><<<gridDim, blockDim>>>(out, H, N);
    break;
  case 64:
    gridDim.z = H / 16;
    k<2><<<gridDim, blockDim>>>(out, H, N);
    break;
  }
}
"""
    res = analyze(src, path="k.cu")
    assert [c["block"] for c in res.launches] == [[32, 4, 1], [32, 4, 1]], res.launches
    assert "(N == 16)" in res.assumed and "gridDim.z == H / 16" in res.assumed, res.assumed
    assert not [d for d in res.diagnostics if d.rule.startswith("bounds")], res.diagnostics


def test_a_grid_rounded_up_with_a_shift_is_a_fact_the_solver_takes(tmp_path):
    # ppl.cv's `divideUp(total, grain, shift)` returns `(total + grain - 1) >> shift`, in a header: the grid it sizes
    # is a fact (a shift by a constant is a floor quotient by its power of two), so a block past the rows is no
    # witness; a shift by a name stays unsupported
    (tmp_path / "utility.hpp").write_text("__host__ __device__\ninline\nint divideUp(int total, int grain, int shift) "
                                          "{\n  return (total + grain - 1) >> shift;\n}\n")
    src = ('#include "utility.hpp"\n'
           "__global__ void flip(const float* src, int rows, int cols, float* dst) {\n"
           "  int x = (blockIdx.x << 4) + threadIdx.x, y = (blockIdx.y << 4) + threadIdx.y;\n"
           "  __shared__ float tile[16][16];\n  if (x < cols && y < rows) tile[threadIdx.y][threadIdx.x] = src[y * cols + x];\n"
           "  __syncthreads();\n  int last = rows - (blockIdx.y << 4);\n"
           "  if (x < cols && y < rows) dst[y * cols + x] = tile[16 - last > 0 ? 16 - last : 0][threadIdx.x];\n}\n"
           "void run(const float* src, int rows, int cols, float* dst) {\n  dim3 block(16, 16), grid;\n"
           "  grid.x = divideUp(cols, 16, 4);\n  grid.y = divideUp(rows, 16, 4);\n  flip<<<grid, block>>>(src, rows, cols, dst);\n}\n")
    (tmp_path / "k.cu").write_text(src)
    res = analyze(tmp_path / "k.cu")
    assert "gridDim.y == (((rows) + (16) - 1) >> (4))" in res.assumed
    assert not [d for d in res.diagnostics if d.rule.startswith(("race", "bounds")) or d.rule == "analysis.incomplete"]
    from analyzers.assume import parse
    from kopt.errors import InputError

    with pytest.raises(InputError):
        parse("gridDim.x == rows >> s", "--assume")
