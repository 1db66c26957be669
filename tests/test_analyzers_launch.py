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
    unknown = analyze(BODY, path="c.cu")  # the block is taken to fit `s` (see the inferred-block tests below)
    assert "any block up to 1024 threads" in unknown.assumed and "assumed blockDim.x <= 256" in unknown.assumed
    assert "bounds.shared" not in {d.rule for d in unknown.diagnostics}
    lb = analyze(BODY.replace("void k", "void __launch_bounds__(512) k"), path="c.cu")  # blocks of 512 declared
    (d,) = [d for d in lb.diagnostics if d.rule == "bounds.shared" and d.locations[0].line == 4]
    assert d.severity.value == "warning" and 256 < d.witness["assumed_block"]["blockDim.x"] <= 512


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
    res = analyze(TRANSPOSE, path="tr.cu")
    assert not _rules(res, "bounds.shared", "race.shared")  # both need a block wider than the tile
    (note,) = _rules(res, "launch.inferred-block")
    assert note.severity.value == "note" and note.locations[0].line == 3
    assert "assumed blockDim.x <= 32 and blockDim.y <= 32" in note.message and "`tile[threadIdx." in note.message
    assert "// kopt: launch" in note.message and "--block" in note.message
    assert note.witness == {"assumed_block_max": {"blockDim.x": 32, "blockDim.y": 32}}
    (launch,) = res.launches
    assert launch["block"] is None and launch["source"] == "none" and launch["inferred_block"] == {"x": 32, "y": 32}
    assert "assumed blockDim.x <= 32 and blockDim.y <= 32" in res.assumed
    # the same kernel before the analysis took the arrays' word for it: a block of 33+ columns overruns the tile
    wide = analyze(TRANSPOSE, path="tr.cu", block=(64, 16, 1))
    assert _rules(wide, "bounds.shared") and not _rules(wide, "launch.inferred-block")


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
