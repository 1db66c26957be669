"""Launch configuration: kopt resolves a candidate's launches and gives them to the analyzers; plain sources fall
back to --block/--grid, then __launch_bounds__, then the unknown case; every result says what it assumed.
Witnesses name threads, indices and the configuration."""
from __future__ import annotations

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
    unknown = analyze(BODY, path="c.cu")
    assert "any block up to 1024 threads" in unknown.assumed
    (d,) = [d for d in unknown.diagnostics if d.rule == "bounds.shared" and d.locations[0].line == 4]
    assert d.severity.value == "warning" and d.witness["assumed_block"]["blockDim.x"] > 256


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
    assert "<<<...>>> launch" in res.assumed
    # a block the file computes at run time stays unknown
    res = analyze(BODY + host.replace("block(THREADS)", "block(n)"), path="h.cu")
    assert res.launches[0]["block"] is None and res.launches[0]["source"] == "none"
    # --block still wins
    assert analyze(BODY + host, path="h.cu", block=(64, 1, 1)).launches[0]["block"] == [64, 1, 1]
