"""Launch configuration: annotation, -D and tunables, --block/--grid, __launch_bounds__, and the unknown case;
every result says what it assumed. Witnesses name threads, indices and the configuration."""
from __future__ import annotations

from analyzers import analyze
from analyzers.launch import annotations, evaluate, resolve

BODY = """
__global__ void k(float* x) {
  __shared__ float s[256];
  s[threadIdx.x] = x[blockIdx.x * blockDim.x + threadIdx.x];
  __syncthreads();
  x[blockIdx.x * blockDim.x + threadIdx.x] = s[255 - threadIdx.x];
}
"""


def test_annotation_parsing():
    src = "// kopt: launch gemm<128, 64> grid=(cdiv(n, 128), m) block=(BLOCK, 2) smem=2*BLOCK*4 args=(a, b)\n"
    (a,) = annotations(src)
    assert a.name == "gemm" and a.targs == ["128", "64"]
    assert a.grid == ["cdiv(n, 128)", "m"] and a.block == ["BLOCK", "2"] and a.smem == "2*BLOCK*4"
    assert evaluate("cdiv(1000, 128) * 2", {}) == 16 and evaluate("BLOCK/2", {"BLOCK": "256"}) == 128
    assert evaluate("n + 1", {}) is None


def test_annotation_with_defines_and_tunables():
    src = "// kopt: tune BLOCK in [128, 256]\n// kopt: launch k grid=(8) block=(BLOCK, 1, 1)\n" + BODY
    cfg = resolve("k", src)
    assert cfg.block == (None, 1, 1) and "unknown" in cfg.note
    cfg = resolve("k", src, defines={"BLOCK": "128"})
    assert cfg.block == (128, 1, 1) and cfg.source == "annotation"
    cfg = resolve("k", "#define BLOCK 64\n" + src)
    assert cfg.block == (64, 1, 1) and "BLOCK=64" in cfg.note


def test_precedence_cli_then_launch_bounds():
    assert resolve("k", BODY, block=(64, 1, 1)).source == "cli"
    cfg = resolve("k", BODY, launch_bounds="512")
    assert cfg.source == "launch_bounds" and cfg.max_threads == 512 and cfg.block == (None, None, None)


def test_bounds_depend_on_the_assumed_block():
    ok = analyze("// kopt: launch k grid=(4) block=(256, 1, 1)\n" + BODY, path="a.cu")
    assert "bounds.shared" not in {d.rule for d in ok.diagnostics}
    assert "block=(256, 1, 1)" in ok.assumed
    bad = analyze(BODY, path="b.cu", block=(512, 1, 1))
    (d,) = [d for d in bad.diagnostics if d.rule == "bounds.shared" and d.locations[0].line == 4]
    assert d.severity.value == "error" and "from --block" in d.witness["launch"]
    assert d.witness["index"] == "256" or int(d.witness["index"]) >= 256
    unknown = analyze(BODY, path="c.cu")
    assert "any block up to 1024 threads" in unknown.assumed
    (d,) = [d for d in unknown.diagnostics if d.rule == "bounds.shared" and d.locations[0].line == 4]
    assert d.severity.value == "warning" and d.witness["assumed_block"]["blockDim.x"] > 256


def test_race_witness_names_two_threads_and_the_element():
    src = """// kopt: launch k grid=(1) block=(64, 1, 1)
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
    src = """// kopt: launch k<128> grid=(1) block=(256, 1, 1)
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
