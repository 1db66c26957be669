"""The analyzer never raises on bad CUDA: parse failures, unsupported constructs, solver timeouts and failing
passes become `analysis.incomplete` diagnostics, and the other passes still run."""
from __future__ import annotations

import pytest

import analyzers.driver as driver
from kopt.analyze import analyze

RACY = """
// kopt: launch k grid=(4) block=(128, 1, 1) args=(x)
__global__ void k(float* x) {
  __shared__ float s[128];
  s[threadIdx.x] = x[threadIdx.x];
  x[threadIdx.x] = s[(threadIdx.x + 1) % 128];
}
"""


def rules(res):
    return {d.rule for d in res.diagnostics}


def test_garbage_input_is_reported_not_raised():
    res = analyze("this is not CUDA at all {{{ ((", path="junk.cu")
    assert all(d.rule == "analysis.incomplete" for d in res.diagnostics)
    assert res.kernels == []


def test_syntax_error_falls_back_to_tree_sitter_and_still_finds_the_race():
    src = RACY.replace("__shared__ float s[128];", "__shared__ float s[128];\n  int oops = ;")
    res = analyze(src, path="broken.cu")
    assert res.frontend == "tree-sitter"
    incomplete = [d for d in res.diagnostics if d.rule == "analysis.incomplete"]
    assert incomplete and "tree-sitter" in incomplete[0].message
    assert "sync.missing" in rules(res)


def test_unknown_headers_are_ignored():
    res = analyze('#include <thrust/device_vector.h>\n#include "my_helpers.cuh"\n' + RACY, path="inc.cu")
    assert res.frontend == "libclang"
    assert "sync.missing" in rules(res)


def test_solver_out_of_resources_becomes_incomplete(monkeypatch):
    from analyzers.passes import context

    monkeypatch.setattr(context, "QUERY_RLIMIT", 1)  # z3 gives up on every query
    monkeypatch.setattr(context, "SYMBOLIC_RLIMIT", 1)
    res = analyze(RACY, path="t.cu")
    msgs = [d.message for d in res.diagnostics if d.rule == "analysis.incomplete"]
    assert any("solver gave up" in m for m in msgs)


def test_a_failing_pass_does_not_stop_the_others(monkeypatch):
    def broken(ctx):
        raise RuntimeError("pass exploded")

    monkeypatch.setattr(driver, "PASSES", [("races", broken)] + driver.PASSES[1:])
    src = RACY.replace("s[(threadIdx.x + 1) % 128]", "s[threadIdx.x * 2]")  # a bank conflict remains
    res = analyze(src, path="p.cu")
    assert any(d.rule == "analysis.incomplete" and "pass exploded" in d.message for d in res.diagnostics)
    assert "bank-conflict" in rules(res)


def test_unsupported_construct_is_named():
    src = """
__global__ void k(float* x) {
  for (float v : {1.f, 2.f}) x[threadIdx.x] += v;
}
"""
    res = analyze(src, path="u.cu")
    assert any(d.rule == "analysis.incomplete" and "unsupported" in d.message for d in res.diagnostics)


def test_unknown_kernel_name_is_reported():
    res = analyze(RACY, path="k.cu", kernels=["nope"])
    assert any("no kernel named `nope`" in d.message for d in res.diagnostics)


@pytest.mark.parametrize("declaration", [
    "struct alignas(64) CUtensorMap { unsigned long long opaque[16]; };",
    "struct __align__(64) CUtensorMap { unsigned long long opaque[16]; };",
    "typedef struct CUtensorMap_st { alignas(64) unsigned long long opaque[16]; } CUtensorMap;",
])
def test_nvrtc_style_source_with_its_own_tensor_map_and_trap_stays_on_libclang(declaration):
    """NVRTC sources cannot include <cuda.h>, so they declare CUtensorMap themselves, and call __trap."""
    src = (declaration + "\n// struct CUtensorMap { a comment is not a declaration }\n"
           "// kopt: launch k grid=(4) block=(128, 1, 1) args=(x)\n"
           "__global__ void k(const __grid_constant__ CUtensorMap t, float* x) {\n"
           "  if (x == nullptr) __trap();\n" + RACY.split("{", 1)[1])
    res = analyze(src, path="own_map.cu")
    assert res.frontend == "libclang", [d.message for d in res.diagnostics]
    assert "sync.missing" in rules(res)


def test_a_comment_naming_the_struct_does_not_remove_the_stub_declaration():
    src = "// struct CUtensorMap { ... } is declared by the stubs\n" + RACY.replace(
        "__global__ void k(float* x)", "__global__ void k(const __grid_constant__ CUtensorMap t, float* x)")
    res = analyze(src, path="uses_stub.cu")
    assert res.frontend == "libclang", [d.message for d in res.diagnostics]


def test_a_query_too_nonlinear_for_the_solver_gives_up_before_it_is_sent():
    import z3

    from analyzers import solver

    xs = [z3.Int(f"x{i}") for i in range(solver.MAX_PRODUCTS + 2)]
    base = z3.Solver()
    base.add(*[x >= 1 for x in xs])
    heavy = sum(xs[i] * xs[i + 1] for i in range(len(xs) - 1)) == 7  # MAX_PRODUCTS + 1 products of unknowns
    with pytest.raises(solver.GaveUp, match="too nonlinear") as exc:
        solver.check(base, heavy, rlimit=1000)
    assert exc.value.spent == 0
    model, spent = solver.check(base, xs[0] * xs[1] == 6, rlimit=100_000)  # a small query is solved
    assert solver.model_int(model, xs[0]) * solver.model_int(model, xs[1]) == 6 and spent > 0


def test_floating_point_store_values_do_not_make_heavy_race_queries():
    # every thread stores a long float formula to its own pixel: no race, answered without a solver give-up
    src = """
// kopt: launch k grid=(8) block=(64, 1, 1) args=(out, t, s)
__global__ void k(float* out, float t, float s) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float a = (i * s - t) * (i * s + t), b = a * a * s - a * t + 0.5f;
  out[i] = b * b * a - b * a * a + (a - b) * (a + b) * t;
}
"""
    res = analyze(src, path="fp.cu")
    assert not {d.rule for d in res.diagnostics} & {"race.global", "analysis.incomplete"}


def test_values_built_from_shared_subterms_are_not_unfolded():
    # `v = v * a + v` a few hundred times (an unrolled arithmetic benchmark): each value shares its operands, so the
    # expression is a small graph but an exponential tree; comparing, printing-free walks and the whole analysis
    # must follow the graph
    from analyzers import sym

    v = sym.var("x", "thread")
    for _ in range(200):
        v = sym.binop("+", sym.binop("*", v, sym.var("a", "uniform")), v)
    assert v.key() == v.key() and not sym.has_data(v)
    w = sym.var("x", "thread")
    for _ in range(90):  # below the depth limit: a graph of 270 nodes, a tree of 2^90
        w = sym.binop("+", sym.binop("*", w, sym.var("a", "uniform")), w)
    assert w.depth < sym.MAX_DEPTH and len({w.key(), w.key()}) == 1  # hashed through its children's hashes
    body = "".join("  v = v * a + v; w = w * v + v;\n" for _ in range(150))
    res = analyze(f"__global__ void flops(float *out, float a) {{\n  float v = a, w = a;\n{body}"
                  f"  out[blockIdx.x * blockDim.x + threadIdx.x] = v + w;\n}}\n", path="flops.cu", block=(256, 1, 1))
    assert res.kernels == ["flops"] and not [d for d in res.diagnostics if d.severity.value != "note"]


def test_the_precompiled_declarations_are_rebuilt_when_the_header_is_touched(tmp_path, monkeypatch):
    # clang refuses a PCH whose input file changed on disk after it was built (a reinstall with the same text);
    # kopt would then read the declarations as text on every parse, silently several times slower
    import os
    import shutil

    from analyzers import clang_front as cf

    decls = tmp_path / "cuda_decls.h"
    shutil.copy(cf.DECLS, decls)
    monkeypatch.setattr(cf, "DECLS", decls)
    monkeypatch.setattr(cf, "_PCH", {})
    src = tmp_path / "k.cu"
    src.write_text("__global__ void k(int *x) { x[threadIdx.x] = 0; }\n")
    cf.translation_unit(src, src.read_text())  # libclang's index, made and released the front end's way
    args = ["-x", "cuda", "-nocudainc", "-nocudalib", "--cuda-device-only", "-std=c++17", "-include", str(decls)]
    first = cf._preamble(args)
    os.utime(decls, ns=(decls.stat().st_atime_ns, decls.stat().st_mtime_ns + 10**9))
    cf._PCH.clear()
    second = cf._preamble(args)
    assert first and second and first != second
    tu = cf._index.parse(str(src), args=args[:-2] + ["-include-pch", second])  # loads: no error raised
    assert not [d for d in tu.diagnostics if d.severity >= 3]


def test_a_pointer_set_in_several_places_of_a_loop_pass_is_modelled_after_the_loop():
    # the last pass's value is read for scalars; a pointer set so keeps its own treatment (it once raised here)
    src = """
// kopt: launch k grid=(4) block=(128, 1, 1) args=(a, b, n)
__global__ void k(float* a, float* b, int n) {
  float *p = a;
  for (int i = 0; i < n; i++) {
    p = a;
    if (i & 1) p = a + n;
  }
  p[blockIdx.x * blockDim.x + threadIdx.x] = 1.0f;
}
"""
    res = analyze(src, path="k.cu")
    assert not [d for d in res.diagnostics if "could not model" in d.message]


OVERLOAD_ARGUMENT = """
template <typename T> __device__ inline T SUM(T a, T b) { return a + b; }
template <typename T, int N> struct Reduce {
  template <typename Op> __device__ static void run(T *s, T *out, Op op) {
    if (threadIdx.x < N) s[threadIdx.x] = op(s[threadIdx.x], s[threadIdx.x + N]);
    __syncthreads();
    if (threadIdx.x == 0) out[blockIdx.x] = s[0];
  }
};
template <typename T> __global__ void reduction(int n, T *buffer) {
  __shared__ T s[256];
  s[threadIdx.x] = threadIdx.x < n ? buffer[threadIdx.x] : T(0);
  __syncthreads();
  Reduce<T, 128>::run(s, buffer, SUM);
}
"""


def test_a_function_template_passed_to_a_dependent_call_does_not_kill_the_process(tmp_path):
    # the argument `SUM` has libclang's `<overloaded function type>`, whose size libclang traps on (an illegal
    # instruction ended the process): run in a process of its own so that a crash fails this test, not the session
    import subprocess
    import sys

    (tmp_path / "r.cu").write_text(OVERLOAD_ARGUMENT)
    code = ("from kopt.analyze import analyze; r = analyze(__import__('pathlib').Path('r.cu'), block=(256, 1, 1)); "
            "print(r.paths['reduction'])")
    got = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert got.returncode == 0, got.stderr[-2000:]
    assert got.stdout.startswith("libclang")


def test_the_loads_of_a_value_merged_many_times_are_found_in_time_linear_in_its_graph():
    # a value merged at every branch of a long chain (GPUSorting's SplitSort) is a graph with exponentially many
    # paths: walking it as a tree hung the race check, beyond the benchmark's solver-only deadline
    import threading

    from analyzers import sym
    from analyzers.passes import context

    e = sym.uf("ld:a", sym.var("threadIdx.x", "thread"))
    for i in range(40):
        e = sym.ite(sym.binop("<", sym.var(f"c{i}", "thread"), sym.const(i)), sym.binop("+", e, sym.const(1)),
                    sym.binop("*", e, sym.const(3)))
    found = []
    walk = threading.Thread(target=lambda: found.append(context._loads(None, e)), daemon=True)
    walk.start()
    walk.join(20)
    assert not walk.is_alive() and [x.val for x in found[0]] == ["ld:a"]
