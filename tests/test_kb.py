"""Knowledge base: tags from code, chunking, retrieval quality over the project corpus, user indexes, bad input."""
from __future__ import annotations

import os
import subprocess
import sys
import time

import pytest

from kopt import kb
from kopt.errors import InputError
from kopt.kb.chunks import chunk_file
from kopt.kb.tags import tags_of
from kopt.toolchain import cutlass_include_dir


@pytest.fixture()
def own_cache(tmp_path, monkeypatch):
    """A cache dir of the test's own, so user indexes made by other tests do not change the rankings."""
    monkeypatch.setenv("KOPT_CACHE_DIR", str(tmp_path / "cache"))
    return tmp_path


# (query, a substring the id of one of the top 3 results must contain)
SEARCHES = [
    ("mbarrier parity wrong phase hangs", "pitfalls.md#wrong-mbarrier-parity"),
    ("wgmma shared memory matrix descriptor bits", "tensor-cores.md#wgmma"),
    ("ldmatrix row addresses per lane", "tensor-cores.md#ldmatrix"),
    ("mma.sync m16n8k16 fragment layout", "tensor-cores.md#mma-sync"),
    ("how many SMs and how much shared memory per block on sm_90", "architectures.md#resources"),
    ("L2 cache size A100", "architectures.md#resources"),
    ("H200 bandwidth roofline ridge point", "architectures.md#rough-roofline"),
    ("sm_90a architecture specific features not forward compatible", "architectures.md#feature-targets"),
    ("cp.async commit_group wait_group", "async-copy.md#cp-async"),
    ("zero fill out of bounds with src_size", "async-copy.md#cp-async"),
    ("TMA tensor map box dims alignment cuTensorMapEncodeTiled", "async-copy.md#tma-tensor-maps"),
    ("128B swizzle address bits xor", "async-copy.md#swizzle-modes"),
    ("expect_tx transaction bytes", "mbarrier"),
    ("fence.proxy.async before TMA store", "fence-proxy-async"),
    ("setmaxnreg register reallocation warpgroup", "tensor-cores.md#setmaxnreg"),
    ("distributed shared memory map_shared_rank cluster.sync", "clusters.md"),
    ("tcgen05 tensor memory blackwell", "tensor-cores.md#tcgen05"),
    ("uncoalesced global loads sectors per request", "pitfalls.md#uncoalesced"),
    ("bank conflicts padding tile 33", "bank-conflict"),
    ("register spills local memory LDL STL", "pitfalls.md#register-spills"),
    ("syncthreads inside if branch deadlock", "pitfalls.md#barrier-in-divergent-code"),
    ("index overflow large tensors illegal address", "pitfalls.md#integer-overflow"),
    ("more than 48 KB static shared memory", "static-shared-memory"),
    ("online softmax running max and sum", "online-softmax"),
    ("welford mean variance merge", "welford"),
    ("float4 vectorized elementwise 128-bit", "vectorized-elementwise"),
    ("warp shuffle reduction __shfl_down_sync", "warp-shuffle-reduction"),
    ("histogram shared memory privatization atomics", "histogram"),
    ("naive matrix multiply fp32 simt", "gemm_f32/baseline.cu"),
    ("five point jacobi stencil", "stencil2d/baseline.cu"),
    ("gelu tanh bias", "bias_gelu/baseline.cu"),
    ("bf16 tensor core gemm mma", "gemm_bf16/baseline.cu"),
    ("tma copy kernel tensor map", "tma_copy/baseline.cu"),
]

# (source written for this test, a substring (or any of several) the id of one of the top 3 `like` results must
# contain)
LIKES = [
    ("""__global__ void rowsum(const float* x, float* y, int cols) {
  __shared__ float buf[256];
  float acc = 0.f;
  for (int c = threadIdx.x; c < cols; c += blockDim.x) acc += x[blockIdx.x * cols + c];
  buf[threadIdx.x] = acc; __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s >>= 1) { if (threadIdx.x < s) buf[threadIdx.x] += buf[threadIdx.x + s];
    __syncthreads(); }
  if (threadIdx.x == 0) y[blockIdx.x] = buf[0];
}""", ("block_sum", "reduce_sum")),
    ("""__global__ void add3(const float* a, const float* b, float* c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}""", "vector_add"),
    ("""#include <cuda_bf16.h>
__global__ void mm(const __nv_bfloat16* A, const __nv_bfloat16* B, float* C, int M, int N, int K) {
  unsigned a[4], b[2]; float d[4] = {0, 0, 0, 0};
  asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "
               "{%0,%1,%2,%3};" : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
               : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
}""", "gemm_bf16"),
    ("""__global__ void copy_tile(const __grid_constant__ CUtensorMap map, float* out) {
  __shared__ alignas(128) float tile[32 * 32];
  __shared__ uint64_t bar;
  asm volatile("mbarrier.init.shared.b64 [%0], 1;" :: "r"((unsigned)__cvta_generic_to_shared(&bar)));
  asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];"
               :: "r"(0), "l"(&map), "r"(0), "r"(0), "r"(0));
}""", "tma_copy"),
    ("""__global__ void heat(const float* u, float* v, int h, int w) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x > 0 && y > 0 && x < w - 1 && y < h - 1)
    v[y * w + x] = 0.25f * (u[y * w + x - 1] + u[y * w + x + 1] + u[(y - 1) * w + x] + u[(y + 1) * w + x]);
}""", "stencil2d"),
]


def test_tags_are_read_from_code():
    assert tags_of("asm volatile(\"cp.async.cg.shared.global [%0], [%1], 16;\");") == ["cp.async", "shared-memory"]
    assert "tma" in tags_of("cp.async.bulk.tensor.2d.shared::cluster.global") and \
        "cp.async" not in tags_of("cp.async.bulk.tensor.2d.shared::cluster.global")
    assert {"shuffle", "vec128", "swizzle", "atomics", "shared-memory"} <= set(tags_of(
        "__shared__ float t[32][32]; float4 v = p[i]; v.x = __shfl_xor_sync(~0u, v.x, 1); "
        "t[r][c ^ r] = v.y; atomicAdd(out, v.z);"))
    assert tags_of("int main() { return 0; }") == []


def test_code_is_chunked_by_function_with_its_comment():
    src = b"""#include <x.h>
// adds one
__device__ float inc(float v) { return v + 1; }
namespace ns { struct S { __device__ void run() { __syncthreads(); } }; }
template <int N> __global__ void k(float* p) { p[0] = inc(p[0]); }
"""
    chunks = chunk_file(src, "a.cu")
    assert [c.name for c in chunks] == ["inc", "S::run", "k"]
    assert src[chunks[0].start:chunks[0].end].startswith(b"// adds one")
    assert src[chunks[2].start:chunks[2].end].startswith(b"template <int N>")
    assert chunks[1].syncs == 1 and chunks[1].line == 4


def test_retrieval_hit_rate_top3(own_cache):
    misses = []
    for query, want in SEARCHES:
        ids = [h.id for h in kb.search(query, limit=3)]
        if not any(want in i for i in ids):
            misses.append((query, want, ids))
    for source, want in LIKES:
        ids = [h.id for h in kb.like(source, limit=3)]
        if not any(w in i for i in ids for w in ((want,) if isinstance(want, str) else want)):
            misses.append(("like", want, ids))
    total = len(SEARCHES) + len(LIKES)
    assert total >= 30
    assert 1 - len(misses) / total >= 0.9, misses


def test_filters_and_show(own_cache):
    assert all("wgmma" in h.tags for h in kb.search("gemm tensor core", tags=["wgmma"]))
    assert all(h.arch != "sm_90 only" and not h.arch.startswith(("sm_90", "sm_100"))
               for h in kb.search("wgmma tma cluster", arch="sm_80", limit=20))
    top = kb.search("softmax", limit=1)[0]
    entry = kb.show(top.id)
    assert entry["text"] and entry["file"].endswith((".cu", ".md"))
    code = next(h for h in kb.search("softmax kernel", limit=10) if h.kind == "code")
    assert 'name = "softmax_rows"' in kb.show(code.id)["metadata"]  # the task sidecar


def test_like_from_a_file_leaves_the_file_out(own_cache):
    from kopt.resources import bench_tasks
    path = bench_tasks() / "layernorm" / "baseline.cu"
    hits = kb.like(path)
    assert hits and all("layernorm/baseline.cu" not in h.id for h in hits)


def test_user_corpus_is_indexed_without_copying(own_cache):
    corpus = own_cache / "corpus"
    (corpus / "sub").mkdir(parents=True)
    kern = corpus / "sub" / "zebra.cu"
    kern.write_text("// zebra striped copy\n__global__ void zebra_copy(const float4* x, float4* y) "
                    "{ y[threadIdx.x] = x[threadIdx.x]; }\n")
    (corpus / "notes.md").write_text("# Zebra notes\n\nStripes are copied with quokka precision.\n")
    stats = kb.index(corpus)
    assert stats["files"] == 2 and stats["chunks"] == 2
    hit = kb.search("zebra striped", limit=1)[0]
    assert hit.id == "corpus/sub/zebra.cu::zebra_copy" and "vec128" in hit.tags
    assert kb.search("quokka")[0].id == "corpus/notes.md#zebra-notes"
    assert "y[threadIdx.x] = x[threadIdx.x]" in kb.show(hit.id)["text"]
    stored = b"".join(p.read_bytes() for p in (own_cache / "cache" / "kb" / "user").iterdir())
    assert b"quokka" in stored and b"with quokka precision" not in stored  # index terms, not a copy of the text
    kern.write_text(kern.read_text() + "\n")
    with pytest.raises(InputError, match="changed since it was indexed"):
        kb.show(hit.id)
    kb.index(corpus)  # indexing again replaces the index
    assert kb.show(hit.id)["line"] == 1


def test_bad_input_is_an_input_error(own_cache):
    for call in (lambda: kb.search("  "), lambda: kb.search("the of"), lambda: kb.show("no/such::id"),
                 lambda: kb.index(own_cache / "missing"), lambda: kb.like(own_cache / "missing.cu"),
                 lambda: kb.search("x", tags=["nope"]), lambda: kb.search("x", arch="volta")):
        with pytest.raises(InputError):
            call()


def test_cli(own_cache):
    env = {**os.environ, "KOPT_CACHE_DIR": str(own_cache / "cache")}

    def kopt(*args):
        return subprocess.run([sys.executable, "-m", "kopt.cli", "kb", *args], capture_output=True, text=True,
                              env=env)

    r = kopt("search", "online softmax", "--json")
    assert r.returncode == 0 and '"id"' in r.stdout
    r = kopt("show", "kb/docs/pitfalls.md#register-spills")
    assert r.returncode == 0 and "LDL" in r.stdout
    for bad in (["show", "nope"], ["search", ""], ["index", str(own_cache / "missing")]):
        r = kopt(*bad)
        assert r.returncode == 2 and "Traceback" not in r.stderr and "error:" in r.stderr


def test_index_cutlass_headers(own_cache):
    include = cutlass_include_dir()
    if include is None:
        pytest.skip("no CUTLASS headers installed (nvidia-cutlass / cutlass_library)")
    # The collectives folder indexes in about a second; the whole include tree (~800 files) takes ~20 s.
    t0 = time.perf_counter()
    stats = kb.index(os.path.join(include, "cutlass", "gemm", "collective"))
    assert stats["files"] > 20 and stats["chunks"] > 100 and time.perf_counter() - t0 < 30
    top = kb.search("sm90 gemm tma warpspecialized", limit=3)
    assert any("sm90" in h.id and h.file.startswith(include) for h in top), [h.id for h in top]
    top = kb.search("collective mainloop wgmma tma pipeline", tags=["wgmma"], arch="sm_90a", limit=5)
    assert any("collective/sm90_mma_tma_gmma_ss_warpspecialized.hpp::CollectiveMma" in h.id for h in top), \
        [h.id for h in top]


def test_kb_add_promotes_a_validated_winner_with_provenance(tmp_path, monkeypatch):
    import tomllib
    from pathlib import Path

    from evaluations import evaluation

    from kopt.kb.promote import add_run
    from kopt.runstore import RunStore

    monkeypatch.setenv("KOPT_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("KOPT_DATA_DIR", str(tmp_path / "data"))
    store = RunStore(tmp_path / "runs.db")
    run = store.create_run("reduce_sum", workflow="tune", options={})
    src = ("// kopt: tune BLOCK in [512]\n// kopt: launch zebra_reduce grid=(1) block=(BLOCK) args=(x, s, n)\n"
           "extern \"C\" __global__ void zebra_reduce(const float* x, float* s, int n) {\n"
           "  float v = __shfl_xor_sync(0xffffffff, x[threadIdx.x], 1); if (threadIdx.x == 0) s[0] = v; }\n")
    cid = store.add_candidate(run, src, config={"BLOCK": 512}, proposer="tuner:exhaustive")
    # the evaluation stands in for kopt bench on a GPU
    store.record(cid, evaluation("reduce_sum", shapes={"n=1024": (12.5, 20.0)}), started=0.0, finished=1.0)
    failed = store.create_run("reduce_sum", workflow="tune", options={})
    bad = store.add_candidate(failed, "// bad\n", config={}, proposer="tuner:exhaustive")
    store.record(bad, evaluation("reduce_sum", status="incorrect"), started=0.0, finished=1.0)

    out = add_run(run, store=store, title="zebra reduction")
    meta = tomllib.loads(Path(out["metadata"]).read_text())
    assert Path(out["source"]).read_text() == src
    assert Path(out["source"]).is_relative_to(tmp_path / "data")  # user data, not cache
    assert meta["title"] == "zebra reduction" and meta["task"] == "reduce_sum" and meta["arch"] == "sm_90"
    assert meta["provenance"]["run"] == run and meta["provenance"]["candidate"] == cid
    assert meta["provenance"]["config"] == {"BLOCK": 512} and "shuffle" in meta["techniques"]
    assert meta["measured"]["time_us"] == 12.5 and meta["measured"]["shapes"][0]["baseline_us"] == 20.0
    assert meta["measured"]["speedup_vs_baseline"] == 1.6
    hits = kb.search("zebra")
    assert hits and hits[0].file == out["source"], hits
    with pytest.raises(InputError, match="no correct, timed evaluation"):
        add_run(failed, store=store)
    # titles and configuration keys that are awkward in TOML still give a file tomllib reads back
    for nasty in ('fast \U0001F680 "reduce"\n\\ \x7f', "lone \udc80 surrogate"):
        out = add_run(run, store=store, title=nasty)
        assert tomllib.loads(Path(out["metadata"]).read_text(encoding="utf-8"))["title"].startswith(nasty[:4])


def test_kb_add_candidate_needs_validation(tmp_path):
    """A candidate file is promoted only after kopt bench passes: without --task it is refused, and without a GPU the
    command says so (exit 2, no traceback, nothing written)."""
    from pathlib import Path

    from kopt.device import probe

    root = Path(__file__).resolve().parents[1]
    env = {**os.environ, "KOPT_CACHE_DIR": str(tmp_path / "cache"), "KOPT_DATA_DIR": str(tmp_path / "data")}
    cand = str(root / "kb" / "cutlass_examples" / "vector_add_float4.cu")
    no_task = subprocess.run([sys.executable, "-m", "kopt.cli", "kb", "add", cand], capture_output=True, text=True,
                             env=env)
    assert no_task.returncode == 2 and "--task" in no_task.stderr and "Traceback" not in no_task.stderr
    if probe()[0] is None:
        p = subprocess.run([sys.executable, "-m", "kopt.cli", "kb", "add", cand, "--task",
                            str(root / "bench" / "tasks" / "vector_add")], capture_output=True, text=True, env=env)
        assert p.returncode == 2 and "GPU" in p.stderr and "Traceback" not in p.stderr
        assert not (tmp_path / "data" / "kb" / "added").exists()


def test_promoted_kernels_move_from_the_cache_to_the_data_folder(tmp_path, monkeypatch):
    """An older kopt kept promoted kernels in the cache folder: they are moved to the data folder, not lost."""
    from kopt.kb.promote import added_dir

    monkeypatch.setenv("KOPT_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("KOPT_DATA_DIR", str(tmp_path / "data"))
    old = tmp_path / "cache" / "kb" / "added"
    old.mkdir(parents=True)
    (old / "mine.cu").write_text("// mine\n")
    assert added_dir() == tmp_path / "data" / "kb" / "added"
    assert (added_dir() / "mine.cu").read_text() == "// mine\n" and not old.exists()


def test_sidecar_toml_keeps_types():
    """None is left out (TOML has no null) and numpy scalars stay numbers, never the strings "None" or "5"."""
    import tomllib

    import numpy as np
    import tomli_w

    from kopt.kb.promote import _plain

    doc = tomllib.loads(tomli_w.dumps(_plain({"a": None, "n": np.int64(5), "x": np.float32(1.5),
                                              "t": {"b": None, "c": [1, None, 2]}})))
    assert doc == {"n": 5, "x": 1.5, "t": {"c": [1, 2]}}
