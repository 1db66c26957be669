"""The reference kernels of kb/cutlass_examples: each is a complete kopt candidate for a bench task, with a sidecar
``<stem>.toml``. On the CPU we check what can be checked without a GPU: metadata, task binding, launch arguments
against the kernel signature, compilation at every tunable configuration, a launch plan at every task shape, the
lowering showing the techniques the metadata claims, and retrieval by title. Correctness and timing are the H200
run's job (``kopt bench`` per kernel)."""
from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest

from kopt import kb, plan
from kopt.candidate import Candidate
from kopt.compiler import compile_candidate
from kopt.kb.tags import TAGS, tags_of
from kopt.task import Task

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES_DIR = ROOT / "kb" / "cutlass_examples"
TASKS = ROOT / "bench" / "tasks"
EXAMPLES = sorted(EXAMPLES_DIR.glob("*.cu"))
IDS = [p.stem for p in EXAMPLES]
H200 = "sm_90"

# technique tag -> what the SASS must contain: (instruction classes, any of which counts; required access width).
# Tags with no SASS signature of their own (grid-stride, swizzle, bf16, launch-bounds) are not listed.
SASS_OF = {
    "vec128": (("global load", "global store", "shared load", "shared store", "cp.async (LDGSTS)"), 128),
    "cp.async": (("cp.async (LDGSTS)",), None),
    "pipeline": (("dependency barrier",), None),
    "shuffle": (("warp shuffle",), None),
    "atomics": (("atomic (shared)", "atomic (global)", "atomic (generic)", "reduction (global)"), None),
    "shared-memory": (("shared load", "shared store", "cp.async (LDGSTS)"), None),
}
META_KEYS = {"title", "task", "arch", "demonstrates", "techniques", "tunables", "measured"}


def _meta(path: Path) -> dict:
    with open(path.with_suffix(".toml"), "rb") as f:
        return tomllib.load(f)


def _params(source: str, kernel: str) -> list[str]:
    """The parameter declarations of ``__global__ ... kernel(...)`` in the source."""
    m = re.search(rf"__global__\s+void\s+(?:__launch_bounds__\([^)]*\)\s+)?{re.escape(kernel)}\s*\(", source)
    assert m, f"no __global__ function {kernel}"
    depth, i = 1, m.end()
    while depth:
        depth += {"(": 1, ")": -1}.get(source[i], 0)
        i += 1
    body = source[m.end():i - 1]
    return [p.strip() for p in body.split(",") if p.strip()]


def test_the_family_is_there():
    stems = set(IDS)
    for want in ("vector_add_float4", "bias_gelu_one_per_thread", "bias_gelu_grid_stride", "reduce_warp_shuffle",
                 "reduce_block_atomic", "reduce_two_pass", "softmax_online", "layernorm_welford",
                 "transpose_padded", "transpose_swizzled", "copy_cp_async", "histogram_smem"):
        assert want in stems


@pytest.mark.parametrize("path", EXAMPLES, ids=IDS)
def test_metadata_and_task(path):
    meta = _meta(path)
    assert META_KEYS <= set(meta), f"{path.stem}.toml lacks {META_KEYS - set(meta)}"
    assert meta["measured"] == {} or isinstance(meta["measured"], dict)
    assert (TASKS / meta["task"] / "task.toml").is_file(), f"no task {meta['task']}"
    cand = Candidate.load(path)
    assert cand.task == meta["task"]
    task = Task.load(TASKS / meta["task"])
    assert sorted(meta["tunables"]) == sorted(t.name for t in cand.tunables)
    # Claimed techniques are tag names that kopt's tagger also finds in the code (labels are not trusted).
    found = set(tags_of(path.read_text()))
    for t in meta["techniques"]:
        assert t in TAGS and t in found, f"{path.stem}: technique {t!r} claimed but not found in the code"
    # Every launch argument fits the kernel signature: buffers and scratch to pointers, values to scalars.
    args = {a.name: a for a in task.args}
    scratch = {s.name for s in cand.scratch}
    for decl in cand.launches:
        params = _params(cand.source, decl.kernel)
        assert len(params) == len(decl.args), f"{decl.kernel}: {len(decl.args)} args for {len(params)} parameters"
        for item, param in zip(decl.args, params):
            is_ptr = "*" in param
            if item in args and args[item].is_buffer or item in scratch:
                assert is_ptr, f"{decl.kernel}: {item} is a buffer but parameter {param!r} is not a pointer"
                if item in args:
                    ctype = {"f32": "float", "bf16": "__nv_bfloat16", "u8": "unsigned char", "u32": "unsigned"}
                    assert ctype[args[item].dtype.name] in param, f"{decl.kernel}: {item} vs {param!r}"
            else:
                assert not is_ptr, f"{decl.kernel}: {item} is a value but parameter {param!r} is a pointer"
                if item in args:
                    want = {"i32": "int", "f32": "float"}[args[item].dtype.name]
                    assert re.match(rf"(const\s+)?{want}\b", param), f"{decl.kernel}: {item} vs {param!r}"


@pytest.mark.parametrize("path", EXAMPLES, ids=IDS)
def test_compiles_and_plans_at_every_config_and_shape(path):
    """Every configuration compiles without spills and plans at every shape. A CuTe example's configurations take
    ~25 s each under NVRTC on a CI machine: its first and last stand for the rest here; an example with more than
    eight configurations is compiled at its first, at each that changes one tunable of the first, and at its last,
    so every value of every tunable compiles (bench/kb_measure.py compiles all of them on the GPU machine)."""
    meta = _meta(path)
    cand = Candidate.load(path)
    task = Task.load(TASKS / meta["task"])
    configs = list(cand.configs())
    if "cute/" in cand.source:
        configs = configs[:1] + configs[-1:] if len(configs) > 1 else configs
    elif len(configs) > 8:
        first = configs[0]
        configs = [first] + [c for c in configs[1:-1] if sum(c[k] != first[k] for k in first) == 1] + configs[-1:]
    for cfg in configs:  # configurations that differ only in a launch-only tunable share one compile
        art = compile_candidate(cand, cfg, arch=meta["arch"])
        for name, k in art.kernels.items():
            r = k.resources
            assert r.spill_stores == 0 and r.spill_loads == 0, f"{name} spills at {cfg}"
        assert not [d for d in art.diagnostics if d.is_error]
        lowered = {n: k.lowered for n, k in art.kernels.items()}
        for shape in task.shapes:
            rp = plan.resolve(task, cand, shape, cfg, lowered, cand.arch or H200)
            # one launch per step of the launch sequence (the lines of a `when` group are alternatives)
            assert len(rp.launches) == len({d.group for d in cand.launches})


@pytest.mark.parametrize("path", EXAMPLES, ids=IDS)
def test_lowering_shows_the_techniques(path):
    meta = _meta(path)
    cand = Candidate.load(path)
    art = compile_candidate(cand, arch=cand.arch or meta["arch"])  # the claimed arch: the compile above, cached
    low = art.lowering()
    for tech in meta["techniques"]:
        if tech not in SASS_OF:
            continue
        classes, width = SASS_OF[tech]
        hit = False
        for kl in low.values():
            for cls in classes:
                if kl.classes.get(cls) and (width is None or kl.widths.get(cls, {}).get(width)):
                    hit = True
        assert hit, f"{path.stem}: {tech} claimed but the SASS has none of {classes}" + (
            f" at {width} bits" if width else "")
    assert not any(kl.has_local_memory for kl in low.values())


def test_found_by_title():
    for path in EXAMPLES:
        title = _meta(path)["title"]
        hits = kb.search(title, limit=3)
        assert any(Path(h.file).resolve() == path.resolve() for h in hits), (
            f"{path.name} not in the top 3 for {title!r}: {[h.id for h in hits]}")
