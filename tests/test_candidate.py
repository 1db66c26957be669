"""Candidate annotations and launch resolution (CPU: the plan is checked before any GPU time)."""
from pathlib import Path

import pytest

from kopt.candidate import Candidate
from kopt.compiler import compile_candidate
from kopt.errors import InputError
from kopt.plan import resolve
from kopt.task import Task

ROOT = Path(__file__).resolve().parents[1]

SRC = """// kopt: task vector_add
// kopt: tune BLOCK in [128, 256]
// kopt: tune VEC in [1, 4]
// kopt: restrict BLOCK * VEC <= 512
// kopt: scratch partial f32[cdiv(n, BLOCK), 2] init=zero
// kopt: tensormap tA = a box=(64) swizzle=128B
// kopt: launch vadd<BLOCK, VEC> grid=(cdiv(n, BLOCK * VEC)) block=(BLOCK) smem=BLOCK * 4 args=(a, b, c, n, partial, f32(0.5), tA)
template <int B, int V> __global__ void vadd(const float* a, const float* b, float* c, int n, float* p, float s) {}
"""


def test_annotations_parse():
    c = Candidate.load(SRC)
    assert c.task == "vector_add"
    assert [(t.name, t.values) for t in c.tunables] == [("BLOCK", [128, 256]), ("VEC", [1, 4])]
    assert list(c.configs()) == [{"BLOCK": 128, "VEC": 1}, {"BLOCK": 128, "VEC": 4}, {"BLOCK": 256, "VEC": 1}]
    assert c.scratch[0].init == "zero" and c.scratch[0].shape == ["cdiv(n, BLOCK)", "2"]
    assert c.tensormaps[0].swizzle == "128B"
    (launch,) = c.launches
    assert launch.kernel == "vadd<BLOCK, VEC>" and launch.line == 7
    assert launch.args[-2:] == ["f32(0.5)", "tA"]
    assert c.kernel_expr(launch, {"BLOCK": 256, "VEC": 1}) == "vadd<256, 1>"


def test_plan_for_a_shape():
    task = Task.load(ROOT / "bench" / "tasks" / "vector_add")
    c = Candidate.load(SRC)
    shape = [s for s in task.shapes if s.symbols["n"] == 1000003][0]
    plan = resolve(task, c, shape, {"BLOCK": 128, "VEC": 4}, {"vadd<128, 4>": "_Z4vaddILi128ELi4EEvPKfS1_Pfi"}, "sm_90")
    (lp,) = plan.launches
    assert lp.grid == (1954, 1, 1) and lp.block == (128, 1, 1) and lp.smem == 512
    kinds = [(a.kind, a.name, a.value, a.ctype) for a in lp.args]
    assert kinds[:4] == [("buffer", "a", None, None), ("buffer", "b", None, None), ("buffer", "c", None, None),
                         ("value", "n", 1000003, "i32")]
    assert kinds[5] == ("value", "f32(0.5)", 0.5, "f32") and kinds[6][0] == "tensormap"
    assert plan.scratch[0].shape == (7813, 2)
    assert plan.tensormaps[0].shape == (1000003,) and plan.tensormaps[0].box == (64,)


def test_violating_restriction_is_rejected():
    with pytest.raises(InputError, match="restriction"):
        Candidate.load(SRC).check_config({"BLOCK": 256, "VEC": 4})
    with pytest.raises(InputError, match="unknown tunable"):
        Candidate.load(SRC).check_config({"TILE": 4})


def test_baked_source_fixes_tunables():
    baked = Candidate.load(Candidate.load(SRC).baked_source({"BLOCK": 256, "VEC": 1}))
    assert baked.default_config() == {"BLOCK": 256, "VEC": 1}


@pytest.mark.parametrize("line,message", [
    ("// kopt: launch k grid=(1) args=(a)", "missing block="),
    ("// kopt: launch k grid=(1) block=(32) args=(a) colour=red", "unknown launch option"),
    ("// kopt: tune B in []", "no values"),
    ("// kopt: tune B [1, 2]", "expected: tune NAME in"),
    ("// kopt: scratch s f99[4]", "unknown dtype"),
    ("// kopt: tensormap t = a swizzle=128B", "needs box"),
    ("// kopt: tensormap t = a box=(8) swizzle=7B", "swizzle must be one of"),
    ("// kopt: frobnicate", "unknown annotation"),
    ("// kopt: launch k grid=(cdiv(n,,1)) block=(32) args=(a)", "bad expression"),
])
def test_malformed_annotation_reports_its_line(line, message):
    src = "// a header line\n" + line + "\n__global__ void k(float* a) {}\n"
    with pytest.raises(InputError) as exc:
        Candidate.load(src)
    assert "kernel.cu:2:" in exc.value.message and message in exc.value.message


def test_candidate_without_launch_is_rejected():
    with pytest.raises(InputError, match="no '// kopt: launch"):
        Candidate.load("__global__ void k() {}\n")


def test_plan_rejects_impossible_launches():
    task = Task.load(ROOT / "bench" / "tasks" / "vector_add")
    src = "// kopt: launch k grid=(cdiv(n, 2048)) block=(2048) args=(a, b, c, n)\n__global__ void k() {}\n"
    with pytest.raises(InputError, match="2048 threads"):
        resolve(task, Candidate.load(src), task.shapes[1], {}, {"k": "k"}, "sm_90")
    src = "// kopt: launch k grid=(n / 3) block=(32) args=(a, b, c, n)\n__global__ void k() {}\n"
    with pytest.raises(InputError, match="positive integer"):
        resolve(task, Candidate.load(src), task.shapes[2], {}, {"k": "k"}, "sm_90")


def test_arch_annotation_sets_the_compile_target():
    src = ('// kopt: arch sm_90a\n// kopt: launch k grid=(1) block=(32) args=(n)\n'
           'extern "C" __global__ void k(int n) {}\n')
    cand = Candidate.load(src)
    assert cand.arch == "sm_90a"
    assert compile_candidate(cand).arch == "sm_90a"
    with pytest.raises(InputError, match="unknown arch"):
        Candidate.load(src.replace("sm_90a", "sm_91"))
