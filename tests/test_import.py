"""kopt import (CPU): .cu files with host code become candidates whose launch lines come from the <<<...>>> sites,
mapped onto a task's size symbols and argument names; kopt validate accepts them against a matching task, and what
cannot be mapped is a TODO that validate refuses. The sources in tests/data/import are written for these tests in the
style of the CUDA samples."""
import json
import subprocess
import sys
from pathlib import Path

import pytest

from kopt.candidate import Candidate
from kopt.errors import InputError
from kopt.importer import _simplify, import_file
from kopt.validate import validate

DATA = Path(__file__).resolve().parent / "data" / "import"


def make_task(root: Path, name: str, args: str, shapes: str, reference: str) -> Path:
    d = root / name
    d.mkdir()
    (d / "task.toml").write_text(f'name = "{name}"\nargs = [\n{args}\n]\nshapes = [ {shapes} ]\n'
                                 f'reference = "reference.py:ref"\n')
    (d / "reference.py").write_text("import numpy as np\n\n" + reference)
    return d


def vec(name, role, shape="n", dtype="f32"):
    return f'  {{ name = "{name}", dtype = "{dtype}", shape = ["{shape}"], role = "{role}" }},'


def scalar(name, value, dtype="i32"):
    return f'  {{ name = "{name}", dtype = "{dtype}", value = "{value}" }},'


def launches(text: str) -> list[str]:
    return [line for line in text.splitlines() if line.startswith("// kopt: launch")]


def check_valid(task: Path, candidate: Path):
    v = validate(task, [candidate])
    assert v.ok, [d.message for d in v.problems]


def kopt(*args, cwd=None):
    return subprocess.run([sys.executable, "-m", "kopt.cli", *map(str, args)], capture_output=True, text=True,
                          cwd=cwd)


def test_vector_add_with_main(tmp_path):
    task = make_task(tmp_path, "vadd", "\n".join([vec("a", "in"), vec("b", "in"), vec("c", "out"),
                                                  scalar("n", "n")]),
                     "{ n = 4096, timed = true }, { n = 1000 }", "def ref(a, b, n):\n    return a + b\n")
    out = tmp_path / "vadd_cand.cu"
    imp = import_file(DATA / "vadd.cu", task=task, out=out)
    out.write_text(imp.candidate)
    assert launches(imp.candidate) == ["// kopt: launch vecAdd grid=(cdiv(n, 256)) block=(256) args=(a, b, c, n)"]
    assert imp.candidate.startswith("// kopt: task vadd\n") and not imp.todos
    text = imp.candidate
    assert "int main" not in text and "static void check" not in text and "<vector>" not in text
    assert "#include <stdio.h>" in text and "#include <cuda_runtime.h>" in text and "__global__ void vecAdd" in text
    assert "#define N" not in text  # used by host code only
    assert any("main()" in r for r in imp.removed) and any("<vector>" in r for r in imp.removed)
    items = {i.what: i for i in imp.kernels[0].launches[0].items}
    assert items["grid"].original == "blocks" and items["grid"].mapped == "(cdiv(n, 256))"
    assert items["arg a"].original == "d_a" and items["arg n"].mapped == "n"
    check_valid(task, out)


def test_without_a_task_the_sizes_are_todos(tmp_path):
    imp = import_file(DATA / "vadd.cu", out=tmp_path / "c.cu")
    assert launches(imp.candidate) == ["// kopt: launch vecAdd grid=(cdiv(N, 256)) block=(256) args=(a, b, c, N)"]
    assert "// kopt: TODO grid: bind N (no --task to bind it to; host: blocks)" in imp.candidate
    assert imp.needs_person and imp.kernels[0].needs_person


def test_templated_kernel_launched_from_a_host_template(tmp_path):
    task = make_task(tmp_path, "scale", "\n".join([vec("x", "in"), vec("y", "out"), scalar("s", "2.0", "f32"),
                                                   scalar("n", "n")]),
                     "{ n = 5000, timed = true }, { n = 77 }", "def ref(x, s, n):\n    return s * x\n")
    out = tmp_path / "scale_cand.cu"
    imp = import_file(DATA / "templated.cu", task=task, out=out)
    out.write_text(imp.candidate)
    assert launches(imp.candidate) == ["// kopt: launch scale<float> grid=(cdiv(n, 128)) block=(128) "
                                       "args=(x, y, s, n)"]
    assert "template <typename T>\n__device__ T scaled" in imp.candidate and "void run(" not in imp.candidate
    assert not imp.todos
    check_valid(task, out)


def test_block_size_define_becomes_a_tunable(tmp_path):
    task = make_task(tmp_path, "block_sum", "\n".join([vec("x", "in"), vec("partial", "out", "cdiv(n, 256)"),
                                                       scalar("n", "n")]),
                     "{ n = 100000, timed = true }, { n = 300 }",
                     "def ref(x, n):\n    p = np.zeros(-(-n // 256))\n    np.add.at(p, np.arange(n) // 256, x)\n"
                     "    return p\n")
    out = tmp_path / "block_cand.cu"
    imp = import_file(DATA / "block_define.cu", task=task, out=out)
    out.write_text(imp.candidate)
    head = imp.candidate.splitlines()[:3]
    assert head == ["// kopt: task block_sum", "// kopt: tune BLOCK in [256]",
                    "// kopt: launch block_sum grid=(cdiv(n, BLOCK)) block=(BLOCK) args=(x, partial, n)"]
    assert "#define BLOCK" not in imp.candidate and "__shared__ float s[BLOCK];" in imp.candidate
    assert Candidate.load(out).tunables[0].values == [256]
    check_valid(task, out)


def test_dim3_members_and_a_two_dimensional_launch(tmp_path):
    task = make_task(tmp_path, "transpose", "\n".join([
        '  { name = "in", dtype = "f32", shape = ["rows", "cols"], role = "in" },',
        '  { name = "out", dtype = "f32", shape = ["cols", "rows"], role = "out" },',
        scalar("rows", "rows"), scalar("cols", "cols")]),
        "{ rows = 512, cols = 256, timed = true }, { rows = 33, cols = 17 }", "def ref(in_, rows, cols):\n"
        "    return in_.T\n")
    (task / "reference.py").write_text("def ref(rows, cols, **kw):\n    return kw['in'].T\n")
    out = tmp_path / "t_cand.cu"
    imp = import_file(DATA / "matrix2d.cu", task=task, out=out)
    out.write_text(imp.candidate)
    assert launches(imp.candidate) == ["// kopt: launch transpose grid=(cdiv(cols, TILE), cdiv(rows, TILE)) "
                                       "block=(TILE, TILE) args=(in, out, rows, cols)"]
    check_valid(task, out)


def test_kernel_in_a_local_header(tmp_path):
    task = make_task(tmp_path, "saxpy", "\n".join([scalar("n", "n"), scalar("a", "2.0", "f32"), vec("x", "in"),
                                                   '  { name = "y", dtype = "f32", shape = ["n"], role = "inout" },']),
                     "{ n = 65536, timed = true }, { n = 100 }", "def ref(n, a, x, y):\n    return a * x + y\n")
    out = tmp_path / "cands" / "saxpy.cu"
    out.parent.mkdir()
    imp = import_file(DATA / "header_kernel.cu", task=task, out=out)
    out.write_text(imp.candidate)
    assert [k.name for k in imp.kernels] == ["saxpy"] and imp.kernels[0].line == 0
    assert launches(imp.candidate) == ["// kopt: launch saxpy grid=(cdiv(n, 128)) block=(128) args=(n, a, x, y)"]
    assert '#include "saxpy_kernel.cuh"' in imp.candidate
    include = next(line for line in imp.candidate.splitlines() if line.startswith("// kopt: include "))
    assert (out.parent / include.split(" ", 3)[3]).resolve() == DATA.resolve()  # relative to the candidate
    check_valid(task, out)


def test_unmappable_launch_expression_is_a_todo_validate_refuses(tmp_path):
    task = make_task(tmp_path, "fill", "\n".join([vec("out", "inout"), scalar("n", "n"), scalar("v", "1.0", "f32")]),
                     "{ n = 4096, timed = true }", "def ref(out, n, v):\n    return np.full(n, v)\n")
    out = tmp_path / "fill_cand.cu"
    imp = import_file(DATA / "device_props.cu", task=task, out=out)
    out.write_text(imp.candidate)
    assert imp.todos == ["grid: bind prop_multiProcessorCount (not a size symbol or argument of the task; host: "
                         "prop.multiProcessorCount * 4)"]
    assert f"// kopt: TODO {imp.todos[0]}" in imp.candidate
    grid = next(i for i in imp.kernels[0].launches[0].items if i.what == "grid")
    assert grid.mapped is None and grid.original == "prop.multiProcessorCount * 4"
    v = validate(task, [out])
    assert not v.ok and [d.rule for d in v.problems if d.is_error][0] == "annotation.todo"


def test_kernel_option_imports_one_kernel(tmp_path):
    src = tmp_path / "two.cu"
    src.write_text("__device__ float sq(float v) { return v * v; }\n"
                   "__global__ void a(float* x, int n) { int i = threadIdx.x; if (i < n) x[i] = sq(x[i]); }\n"
                   "__global__ void b(float* x, int n) { int i = threadIdx.x; if (i < n) x[i] += 1; }\n"
                   "int main() { float* d = 0; int n = 64; a<<<1, 64>>>(d, n); b<<<1, 64>>>(d, n); }\n")
    both = import_file(src, out=tmp_path / "both.cu")
    assert [k.name for k in both.kernels] == ["a", "b"] and len(launches(both.candidate)) == 2
    assert any("2 kernels are launched" in n for n in both.notes)
    one = import_file(src, kernel="b", out=tmp_path / "b.cu")
    assert [k.name for k in one.kernels] == ["b"] and "void a(" not in one.candidate
    assert "sq(" not in one.candidate  # only what kernel b uses is kept


@pytest.mark.parametrize("text,cf", [
    ("(n + 256 - 1) // 256", "cdiv(n, 256)"), ("(n + 255) // 256", "cdiv(n, 256)"),
    ("(n - 1) // 256 + 1", "cdiv(n, 256)"), ("(n + (b - 1)) // b", "cdiv(n, b)"), ("(255 + n) // 256", "cdiv(n, 256)"),
    ("n * (16 * 16)", "n * 256"), ("(1 << 10)", "1024"), ("n // 2", "n // 2"),
])
def test_simplify_writes_round_up_divisions_as_cdiv(text, cf):
    assert _simplify(text) == cf


def test_cli_writes_the_candidate_and_reports(tmp_path):
    p = kopt("import", DATA / "vadd.cu", "--out", tmp_path / "v.cu", "--json")
    assert p.returncode == 0, p.stderr
    doc = json.loads(p.stdout)
    assert doc["out"] == str(tmp_path / "v.cu") and (tmp_path / "v.cu").read_text() == doc["candidate"]
    assert doc["kernels"][0]["name"] == "vecAdd" and doc["needs_person"] is True
    text = kopt("import", DATA / "vadd.cu", cwd=tmp_path)
    assert text.returncode == 0 and "wrote" in text.stdout and (tmp_path / "vadd.kopt.cu").is_file()
    assert "2 point(s) need a person" in text.stdout


@pytest.mark.parametrize("make,args,says", [
    (lambda d: d / "none.cu", [], "no such file"),
    (lambda d: (d / "host.cu").write_text("int main() { return 0; }\n") and d / "host.cu", [],
     "no __global__ kernel"),
    (lambda d: (d / "bad.cu").write_text("__global__ void ((( {\n") and d / "bad.cu", [], "cannot import"),
    (lambda d: DATA / "vadd.cu", ["--kernel", "nope"], "unknown kernel 'nope'"),
    (lambda d: DATA / "vadd.cu", ["--task", "/nonexistent"], "no task at"),
])
def test_bad_input_exits_2_without_traceback(tmp_path, make, args, says):
    p = kopt("import", make(tmp_path), *args, "--out", tmp_path / "o.cu")
    assert p.returncode == 2 and says in p.stderr and "Traceback" not in p.stderr, p.stderr
    p = kopt("import", DATA / "vadd.cu", "--out", DATA / "vadd.cu")
    assert p.returncode == 2 and "the source file itself" in p.stderr


def test_library_bad_input_is_an_input_error(tmp_path):
    (tmp_path / "host.cu").write_text("int main() { return 0; }\n")
    with pytest.raises(InputError):
        import_file(tmp_path / "host.cu")


def test_a_launch_from_device_code_is_a_todo_not_a_launch_line(tmp_path):
    src = tmp_path / "dp.cu"
    src.write_text("__global__ void child(float* x) { x[threadIdx.x] = 1; }\n"
                   "__global__ void parent(float* x) { child<<<1, 32>>>(x); }\n"
                   "int main() { float* d = 0; parent<<<1, 1>>>(d); return 0; }\n")
    imp = import_file(src, out=tmp_path / "c.cu")
    assert "// kopt: launch parent grid=(1) block=(1) args=(x)" in launches(imp.candidate)
    assert "line 2: a kernel launch in device code (dynamic parallelism), which kopt does not support: launch it " \
        "from the annotations instead" in imp.todos


def test_constant_memory_filled_by_host_code_is_a_todo(tmp_path):
    src = tmp_path / "conv.cu"
    src.write_text("#include <cuda_runtime.h>\n__constant__ float c_mask[5];\n"
                   "__global__ void conv(const float* x, float* y, int n) {\n"
                   "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                   "  if (i < n) y[i] = c_mask[0] * x[i];\n}\n"
                   "void run(const float* h_mask, const float* x, float* y, int n) {\n"
                   "  cudaMemcpyToSymbol(c_mask, h_mask, 5 * sizeof(float));\n"
                   "  conv<<<(n + 127) / 128, 128>>>(x, y, n);\n}\n")
    imp = import_file(src, out=tmp_path / "c.cu")
    assert "__constant__ float c_mask[5];" in imp.candidate
    assert imp.todos[0] == ("line 8: host code fills c_mask (cudaMemcpyToSymbol), which no candidate can do: give "
                            "c_mask its values in its declaration, or make it a kernel argument")
