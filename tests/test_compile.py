"""Compile path on the CPU with real NVRTC, nvdisasm and cuobjdump."""
from pathlib import Path

import pytest

import kopt
from kopt.render import to_text
from kopt.errors import CompileError, InputError

DATA = Path(__file__).parent / "data"


def test_float4_kernel_lowers_to_128_bit_global_loads():
    art = kopt.compile(DATA / "copy_float4.cu", arch="sm_90")
    rep = art.lowering()["copy4"]
    assert rep.global_load_widths == {128: 1}
    assert dict(rep.widths["global store"]) == {128: 1}
    assert not rep.has_local_memory
    # the load is attributed to the source line that performs it
    lines = {ln: insns for (f, ln), insns in rep.by_line.items()}
    assert any(i.startswith("LDG.E.128") for i in lines[3])


def test_runtime_indexed_local_array_goes_to_local_memory():
    art = kopt.compile(DATA / "spill.cu", arch="sm_90")
    r = art.kernel("spill").resources
    assert r.stack_frame >= 64 * 4
    rep = art.lowering()["spill"]
    assert rep.classes["local load (LDL)"] >= 1 and rep.classes["local store (STL)"] >= 1


def test_register_cap_forces_spills():
    heavy = """
extern "C" __global__ void heavy(const float* __restrict__ x, float* __restrict__ y) {
  float v[48];
  #pragma unroll
  for (int k = 0; k < 48; ++k) v[k] = x[threadIdx.x + k * 1024];
  float s = 0.f;
  #pragma unroll
  for (int k = 0; k < 48; ++k) s += v[k] * v[47 - k];
  #pragma unroll
  for (int k = 0; k < 48; ++k) y[threadIdx.x + k * 1024] = v[k] * s;
}
"""
    art = kopt.compile(heavy, arch="sm_90", options=["-maxrregcount=24"])  # ptxas floors the cap at 24 on sm_90
    r = art.kernel("heavy").resources
    assert r.registers <= 24
    assert r.spills and r.spill_stores > 0 and r.spill_loads > 0
    assert r.cubin_checked
    assert art.lowering()["heavy"].has_local_memory


def test_templated_kernel_through_name_expressions():
    art = kopt.compile(DATA / "templated.cu", ["scale<float, 3>", "scale<int, 2>"], arch="sm_90")
    assert set(art.kernels) == {"scale<float, 3>", "scale<int, 2>"}
    assert art.kernels["scale<float, 3>"].lowered == "_Z5scaleIfLi3EEvPT_i"
    assert art.kernel("scale<int, 2>").lowered.startswith("_Z5scaleIiLi2EE")


def test_compile_error_reported_at_line_and_column():
    with pytest.raises(CompileError) as exc:
        kopt.compile(DATA / "compile_error.cu", arch="sm_90")
    d = [d for d in exc.value.diagnostics if d.is_error][0]
    assert d.rule == "compile.error"
    assert d.locations[0].line == 3 and d.locations[0].col == 10
    assert "undefined_value" in d.message
    assert exc.value.exit_code == 1
    text = to_text(exc.value.diagnostics)
    assert "3 |   x[i] = undefined_value + 1.0f;" in text and "|          ^" in text


def test_sm90a_wgmma_shows_hgmma():
    art = kopt.compile(DATA / "wgmma_sm90a.cu", arch="sm_90a")
    assert "tensor core (HGMMA/wgmma)" in art.lowering()["wg"].classes


def test_cute_kernel_compiles_for_sm90():
    pytest.importorskip("cutlass_library", reason="nvidia-cutlass (kopt[cutlass]) not installed")
    art = kopt.compile(DATA / "cute_copy.cu", arch="sm_90")
    assert art.kernel("cute_copy").resources.registers > 0


def test_cache_hit_returns_same_artifact(tmp_path, monkeypatch):
    monkeypatch.setenv("KOPT_CACHE_DIR", str(tmp_path))
    a = kopt.compile(DATA / "copy_float4.cu", arch="sm_90")
    b = kopt.compile(DATA / "copy_float4.cu", arch="sm_90")
    assert not a.cache_hit and b.cache_hit
    assert a.cubin == b.cubin and a.ptx == b.ptx and ".entry copy4" in b.ptx
    assert b.kernels["copy4"].resources == a.kernels["copy4"].resources
    assert b.lowering()["copy4"].global_load_widths == {128: 1}
    c = kopt.compile(DATA / "copy_float4.cu", arch="sm_90", defines={"X": 1})
    assert not c.cache_hit  # options are part of the key


def test_cache_evicts_least_recently_used_entries_over_the_cap(tmp_path, monkeypatch):
    import os
    import time

    from kopt import cache

    monkeypatch.setenv("KOPT_CACHE_DIR", str(tmp_path))
    monkeypatch.setenv("KOPT_CACHE_MAX_MB", str(2.5 / 1024))  # room for two 1 KiB entries
    now = time.time()
    for i, key in enumerate(("a" * 16, "b" * 16)):
        entry = cache.store(key, {}, {"blob": b"x" * 1024})
        os.utime(entry / "meta.json", (now - 100 + i, now - 100 + i))
    assert cache.load("a" * 16) is not None  # a is now the most recently used
    cache.store("c" * 16, {}, {"blob": b"x" * 1024})
    assert cache.load("b" * 16) is None and cache.load("a" * 16) and cache.load("c" * 16)
    assert cache.stats()["entries"] == 2
    monkeypatch.setenv("KOPT_CACHE_MAX_MB", "lots")
    with pytest.raises(InputError, match="KOPT_CACHE_MAX_MB"):
        cache.max_bytes()


def test_cache_invalidated_by_edited_local_header(tmp_path, monkeypatch):
    monkeypatch.setenv("KOPT_CACHE_DIR", str(tmp_path / "cache"))
    (tmp_path / "k.cuh").write_text("#define FACTOR 2.0f\n")
    (tmp_path / "k.cu").write_text('#include "k.cuh"\nextern "C" __global__ void f(float* x) { x[0] *= FACTOR; }\n')
    assert not kopt.compile(tmp_path / "k.cu", arch="sm_90").cache_hit
    assert kopt.compile(tmp_path / "k.cu", arch="sm_90").cache_hit
    (tmp_path / "k.cuh").write_text("#define FACTOR 3.0f\n")
    assert not kopt.compile(tmp_path / "k.cu", arch="sm_90").cache_hit


@pytest.mark.parametrize("source,kernels,arch,match", [
    ("   \n", None, "sm_90", "empty"),
    ("int x = 1;\n", None, "sm_90", "no __global__"),
    (DATA / "copy_float4.cu", ["nope"], "sm_90", "unknown kernel 'nope'"),
    (DATA / "copy_float4.cu", None, "sm_70", "unknown arch"),
    (DATA / "missing.cu", None, "sm_90", "no such file"),
    ('#include "not_there.h"\n__global__ void k() {}\n', None, "sm_90", 'header "not_there.h" not found'),
])
def test_bad_input_is_an_input_error(source, kernels, arch, match):
    with pytest.raises(InputError, match=match) as exc:
        kopt.compile(source, kernels, arch=arch)
    assert exc.value.exit_code == 2


def test_occupancy_checked_by_hand():
    # 256 threads, 32 regs on sm_90: 32*32=1024 regs/warp; 16384 regs per sub-partition -> 16 warps each -> 64
    # warps -> 8 blocks of 8 warps; warps limit 64/8 = 8 blocks too. 100 % occupancy.
    occ = kopt.occupancy("sm_90", block_size=256, registers=32)
    assert (occ.blocks_per_sm, occ.warps_per_sm) == (8, 64)
    # 128 threads, 128 regs, 40 KB smem on sm_80: regs/warp 4096 -> 4 warps per sub-partition -> 16 warps -> 4
    # blocks; smem (40960+1024)=41984 -> 167936/41984 = 4 blocks (164 KB carveout); warps 64/4=16 -> limit 4 blocks.
    occ = kopt.occupancy("sm_80", block_size=128, registers=128, dynamic_smem=40 * 1024)
    assert occ.blocks_per_sm == 4 and occ.warps_per_sm == 16 and occ.limiter == "registers"
    # sm_86 has 48 warps/SM and 100 KB: 60 KB smem per block leaves room for one block.
    occ = kopt.occupancy("sm_86", block_size=256, registers=32, dynamic_smem=60 * 1024)
    assert occ.blocks_per_sm == 1 and occ.limiter == "shared memory"
    assert kopt.occupancy("sm_90", block_size=1024, registers=255).blocks_per_sm == 0
