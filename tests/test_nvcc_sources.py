"""nvcc-style sources under NVRTC (CPU): the standard headers kopt supplies compile in device code, host-only headers
and features fail with their catalogued rule, and include directories reach every compile (`// kopt: include`,
-I on the commands)."""
import json
import subprocess
import sys
from pathlib import Path

import pytest

import kopt
from kopt.candidate import Candidate
from kopt.compat import supported_headers
from kopt.compiler import compile_candidate
from kopt.errors import CompileError, InputError
from kopt.explain import compile_file

ROOT = Path(__file__).resolve().parents[1]
KERNEL = "__global__ void k(float* x, double* d, int n) {{\n  {body}\n}}\n"

# one use of each supported header in device code
USES = {
    "stdint.h": "uint32_t a = UINT32_MAX; int64_t b = INT64_MIN; x[0] = (float)(a + b);",
    "cstdint": "std::uint8_t a = 3; std::int64_t b = 4; uintptr_t p = 0; x[0] = a + b + p;",
    "stddef.h": "struct S { int a; float b; }; size_t o = offsetof(S, b); ptrdiff_t p = 1; x[0] = o + p;",
    "cstddef": "std::size_t s = 2; std::ptrdiff_t p = 1; std::nullptr_t z = nullptr; x[0] = s + p + (z == nullptr);",
    "stdio.h": 'if (threadIdx.x == 0) printf("n=%d\\n", n);',
    "cstdio": 'std::printf("%f\\n", x[0]);',
    "stdlib.h": "int* p = (int*)malloc(8); if (p) free(p); x[0] = abs(n) + labs(-2L);",
    "cstdlib": "x[0] = std::abs(n) + std::llabs(-3LL);",
    "string.h": "memcpy(x, x + 1, 4); memset(x + 2, 0, 4);",
    "cstring": "std::memcpy(x, x + 1, 4); std::memset(x + 2, 0, 4);",
    "math.h": "x[0] = sqrtf(x[1]) + expf(x[2]) + M_PI + (isnan(x[3]) ? NAN : INFINITY); d[0] = sqrt(d[1]) + HUGE_VAL;",
    "cmath": "x[0] = std::sqrt(x[1]) + std::fmax(x[2], 1.0f) + std::isinf(x[3]); d[0] = std::pow(d[1], 2.0);",
    "float.h": "x[0] = FLT_MAX + FLT_EPSILON; d[0] = DBL_MIN;",
    "cfloat": "x[0] = FLT_MIN; d[0] = DBL_EPSILON;",
    "limits.h": "x[0] = INT_MAX + CHAR_BIT + UINT_MAX;",
    "climits": "x[0] = LLONG_MAX + SHRT_MIN;",
    "assert.h": "assert(n > 0);",
    "cassert": "assert(n >= 0);",
    "type_traits": "static_assert(std::is_same<std::remove_cv_t<const float>, float>::value, \"\"); "
                   "x[0] = std::is_floating_point_v<double>;",
    "limits": "x[0] = std::numeric_limits<float>::max() + std::numeric_limits<int>::lowest();",
    "utility": "auto p = std::make_pair(1, 2.0f); int a = 1, b = 2; std::swap(a, b); x[0] = p.second + a;",
    "algorithm": "x[0] = std::min(x[1], x[2]) + std::max(n, 3);",
    "initializer_list": "std::initializer_list<int> l = {1, 2}; x[0] = l.size();",
}


def test_every_supplied_header_has_a_use_here():
    assert sorted(USES) == list(supported_headers())


@pytest.mark.parametrize("header", sorted(USES))
def test_supplied_header_compiles_in_device_code(header):
    src = f"#include <{header}>\n" + KERNEL.format(body=USES[header])
    art = kopt.compile(src, arch="sm_90")
    assert art.kernels


def test_every_header_together_with_using_namespace_std():
    """The shims add to namespace std what CUDA declares globally, so `using namespace std;` stays unambiguous."""
    src = "".join(f"#include <{h}>\n" for h in sorted(USES)) + "#include <cuda_runtime.h>\nusing namespace std;\n" + \
        KERNEL.format(body="x[0] = sqrt(x[1]) + min(n, 3) + abs(x[2]) + max(d[0], 1.0); int a = 1; int b = move(a); "
                           "swap(a, b); x[1] = numeric_limits<float>::max();")
    assert kopt.compile(src, arch="sm_90").kernels


@pytest.mark.parametrize("header", ["cuda_runtime.h", "cuda.h", "cuda_fp16.h", "cuda_bf16.h",
                                    "device_launch_parameters.h", "cooperative_groups.h"])
def test_cuda_headers_compile(header):
    assert kopt.compile(f"#include <{header}>\n" + KERNEL.format(body="x[0] = n;"), arch="sm_90").kernels


@pytest.mark.parametrize("header,says", [
    ("iostream", "host-only header"), ("vector", "host-only header"), ("cublas_v2.h", "host-only header"),
    ("helper_cuda.h", "host-only header"), ("thrust/device_vector.h", "host-side library code"),
    ("array", "include <cuda/std/array>"),
])
def test_unsupported_header_has_its_rule(header, says):
    with pytest.raises(CompileError) as exc:
        kopt.compile(f"#include <{header}>\n" + KERNEL.format(body="x[0] = n;"), arch="sm_90")
    first = exc.value.diagnostics[0]
    assert first.rule == "compile.unsupported-header" and says in first.message
    assert first.locations[0].line == 1 and "cannot open source file" not in exc.value.message


@pytest.mark.parametrize("source,says", [
    ("__global__ void child(float* x) {}\n__global__ void k(float* x) { child<<<1, 1>>>(x); }\n", "kernel launch"),
    ("#include <cuda_runtime.h>\n__global__ void k(float* x) { float* p; cudaMalloc((void**)&p, 4); }\n",
     "cudaMalloc is a host API call"),
    ("__host__ int h(int);\n__global__ void k(float* x) { x[0] = h(1); }\n", "__host__ function"),
    ("__global__ void k(float* x) { x[0] = 1; }\nint main() { float* d = 0; k<<<1, 1>>>(d); return 0; }\n",
     "kernel launch"),
    ("namespace std { struct ostream {}; }\n__global__ void k(float* x) {}\nvoid f() { std::cout << 1; }\n",
     "std::cout"),
])
def test_unsupported_feature_has_its_rule(source, says):
    with pytest.raises(CompileError) as exc:
        kopt.compile(source, arch="sm_90")
    d = next(d for d in exc.value.diagnostics if d.is_error)
    assert d.rule == "compile.unsupported-feature" and says in d.message and "kopt import" in d.hint


def kopt_cli(*args, cwd=None):
    return subprocess.run([sys.executable, "-m", "kopt.cli", *map(str, args)], capture_output=True, text=True,
                          cwd=cwd)


def test_missing_header_is_an_input_error_with_its_rule(tmp_path):
    with pytest.raises(InputError) as exc:
        kopt.compile('#include "nowhere.h"\n' + KERNEL.format(body="x[0] = n;"), arch="sm_90")
    assert exc.value.diagnostics[0].rule == "compile.missing-header"
    (tmp_path / "k.cu").write_text('#include <nowhere.h>\n' + KERNEL.format(body="x[0] = n;"))
    p = kopt_cli("compile", tmp_path / "k.cu", "--arch", "sm_90")
    assert p.returncode == 2 and 'header "nowhere.h" not found' in p.stderr and "Traceback" not in p.stderr


# --- include directories -------------------------------------------------------------------------------------------
HEADER = "#pragma once\n#define SCALE 2.0f\n__device__ inline float twice(float x) { return SCALE * x; }\n"
CAND = """// kopt: launch scale grid=(cdiv(n, 256)) block=(256) args=(x, y, n)
#include <helpers.cuh>
#include <stdint.h>
extern "C" __global__ void scale(const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = twice(x[i]);
}
"""
TASK = """name = "scale2"
args = [
  { name = "x", dtype = "f32", shape = ["n"], role = "in" },
  { name = "y", dtype = "f32", shape = ["n"], role = "out" },
  { name = "n", dtype = "i32", value = "n" },
]
shapes = [ { n = 4096, timed = true }, { n = 1000 } ]
reference = "reference.py:scale2"
"""


@pytest.fixture
def layout(tmp_path):
    (tmp_path / "hdrs").mkdir()
    (tmp_path / "hdrs" / "helpers.cuh").write_text(HEADER)
    (tmp_path / "cands").mkdir()
    (tmp_path / "cands" / "plain.cu").write_text(CAND)
    (tmp_path / "cands" / "declared.cu").write_text("// kopt: include ../hdrs\n" + CAND)
    (tmp_path / "task").mkdir()
    (tmp_path / "task" / "task.toml").write_text(TASK)
    (tmp_path / "task" / "reference.py").write_text("def scale2(x, n):\n    return 2.0 * x\n")
    return tmp_path


def test_kopt_include_is_relative_to_the_candidate_and_reaches_the_compiler(layout):
    cand = Candidate.load(layout / "cands" / "declared.cu")
    assert cand.include_dirs == [str((layout / "hdrs").resolve())]
    assert compile_candidate(cand, arch="sm_90").kernels["scale"]
    with pytest.raises(InputError, match="not found on the include path"):
        compile_candidate(Candidate.load(layout / "cands" / "plain.cu"), arch="sm_90")
    art, _ = compile_file(layout / "cands" / "declared.cu", arch="sm_90")  # explain's path too
    assert art.kernels


def test_kopt_include_of_a_missing_folder_is_an_annotation_error(layout):
    (layout / "cands" / "bad.cu").write_text("// kopt: include ../nope\n" + CAND)
    with pytest.raises(InputError) as exc:
        Candidate.load(layout / "cands" / "bad.cu")
    assert exc.value.diagnostics[0].rule == "annotation.include" and "bad.cu:1:" in exc.value.message


def test_with_include_dirs_adds_the_command_lines_folders(layout, monkeypatch):
    monkeypatch.chdir(layout)
    cand = Candidate.load(layout / "cands" / "plain.cu").with_include_dirs(["hdrs"])
    assert cand.include_dirs == [str((layout / "hdrs").resolve())] and compile_candidate(cand, arch="sm_90")
    with pytest.raises(InputError, match="does not exist"):
        cand.with_include_dirs(["nope"])


def test_dash_I_on_the_cpu_commands(layout):
    plain, hdrs = layout / "cands" / "plain.cu", layout / "hdrs"
    for cmd in (["compile", plain, "--arch", "sm_90"], ["explain", plain, "--arch", "sm_90", "--no-lines"]):
        assert kopt_cli(*cmd).returncode == 2
        assert kopt_cli(*cmd, "-I", hdrs).returncode == 0
    assert kopt_cli("validate", layout / "task", plain).returncode == 2
    v = kopt_cli("validate", layout / "task", plain, "-I", hdrs, "--json")
    assert v.returncode == 0, v.stdout + v.stderr
    c = kopt_cli("check", plain, "-I", hdrs, "--json")
    assert c.returncode == 0 and json.loads(c.stdout)["files"][0]["frontend"] == "libclang"


def test_dash_I_reaches_the_build_of_kopt_run(layout):
    """kopt run's candidate carries the -I folders into its build (the check compiles on the CPU before it needs the
    GPU; the command itself refuses to start without one, so the library call it makes is tested here)."""
    from kopt.checker import check
    from kopt.cli._common import with_includes
    from kopt.task import Task

    plain, task = layout / "cands" / "plain.cu", Task.load(layout / "task")

    class NoWorker:  # TEST DOUBLE: the verdict's compile is what is checked; nothing reaches a GPU
        def start(self):
            return self

        def call(self, request, on_phase=None):
            from kopt.protocol import Failed
            from kopt.rules import RULES

            return Failed(RULES["runtime.no-gpu"].diag("no GPU in this test"))

    with pytest.raises(InputError, match="not found on the include path"):
        check(task, with_includes(plain, None), worker=NoWorker())
    assert check(task, with_includes(plain, [str(layout / "hdrs")]), worker=NoWorker()).compiled


def test_optimize_takes_include_dirs(layout):
    from evaluations import evaluation
    from kopt.runstore import RunStore

    tuned = layout / "cands" / "tuned.cu"
    tuned.write_text("// kopt: tune B in [128, 256]\n" + CAND.replace("block=(256)", "block=(B)")
                     .replace("cdiv(n, 256)", "cdiv(n, B)"))
    store = RunStore(layout / ".kopt" / "runs.db")
    with pytest.raises(InputError, match="not found on the include path"):  # without -I nothing compiles
        kopt.optimize(layout / "task", tuned, store=store, arch="sm_90",
                      evaluate=lambda cfg: evaluation("scale2", time_us=10.0))
    r = kopt.optimize(layout / "task", tuned, store=store, arch="sm_90", include_dirs=[layout / "hdrs"],
                      evaluate=lambda cfg: evaluation("scale2", time_us=10.0 if cfg["B"] == 256 else 12.0))
    assert r.best["config"] == {"B": 256}


def test_the_cache_tells_include_folders_apart(tmp_path):
    for name, value in (("a", "1.0f"), ("b", "3.0f")):
        (tmp_path / name).mkdir()
        (tmp_path / name / "v.cuh").write_text(f"#define VALUE {value}\n")
    src = "#include <v.cuh>\n" + KERNEL.format(body="x[0] = VALUE;")
    a = kopt.compile(src, arch="sm_90", include_dirs=[tmp_path / "a"])
    b = kopt.compile(src, arch="sm_90", include_dirs=[tmp_path / "b"])
    assert a.key != b.key and not b.cache_hit
    (tmp_path / "a" / "v.cuh").write_text("#define VALUE 2.0f\n")  # an edited header in a -I folder recompiles
    assert not kopt.compile(src, arch="sm_90", include_dirs=[tmp_path / "a"]).cache_hit
