"""nvcc-style sources from public repositories under kopt: compile (after `kopt import` for files with host code),
import, and a set of imported kernels checked against tasks written here.

Usage:
  python bench/nvcc_corpus.py fetch --mirrors DIR --corpus CORPUS   # the pinned files out of git snapshots
  python bench/nvcc_corpus.py run --corpus CORPUS [--work DIR] [--out bench/results/nvcc_corpus.json]
  python bench/nvcc_corpus.py gpu --corpus CORPUS [--work DIR] [--out bench/results/nvcc_corpus_gpu.json]

`fetch` reads git directories laid out as DIR/OWNER+NAME/repo (a bare clone or mirror of each repository below) and
writes each listed file's folder at the pinned commit to CORPUS/OWNER+NAME/... The corpus is third-party code: keep it
outside the repository (copy the folder to the GPU machine for `gpu`); only the figures are committed.

`run` (CPU): (a) every file compiles under kopt, a file with host code after `kopt import` (its candidate, at the
default configuration); each failure is recorded with its rule; (b) `kopt import` of each file with host code:
kernels found, launch lines written, points left to a person; (c) for the kernels in TASKS, a task (task.toml and a
numpy reference, written here) and the candidate `kopt import --task` makes of the file, checked by `kopt validate`.

`gpu` (needs a GPU): the tasks of (c) again (made afresh, or, without libclang, as `run` left them in CORPUS/work),
then `kopt run TASK CANDIDATE` on each that validates.
"""
from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import envelope

ROOT = Path(__file__).resolve().parents[1]

REPOS = {  # repository -> the commit the corpus is taken from
    "NVIDIA/cuda-samples": "c94ff366aed18c797b8a85dfaac7817b0228b420",
    "NVIDIA-developer-blog/code-samples": "72d62ec464442786a36754508bcb1094d197d6a5",
    "olcf/cuda-training-series": "9cd77d539d85ee3457e09a083ba299b787b7a16e",
    "CoffeeBeforeArch/cuda_programming": "8711be08e2060680820304594f3691cc0016edd1",
}
INCLUDE_DIRS = {"NVIDIA/cuda-samples": ["Common"]}  # -I folders of a repository (its helper headers)

_S = "Samples/"
FILES = {
    "NVIDIA/cuda-samples": [_S + p for p in (
        "0_Introduction/vectorAdd/vectorAdd.cu", "0_Introduction/matrixMul/matrixMul.cu",
        "0_Introduction/simpleTemplates/simpleTemplates.cu", "0_Introduction/template/template.cu",
        "0_Introduction/asyncAPI/asyncAPI.cu", "0_Introduction/clock/clock.cu",
        "0_Introduction/simplePrintf/simplePrintf.cu", "0_Introduction/simpleAssert/simpleAssert.cu",
        "0_Introduction/fp16ScalarProduct/fp16ScalarProduct.cu",
        "0_Introduction/simpleCooperativeGroups/simpleCooperativeGroups.cu",
        "0_Introduction/simpleOccupancy/simpleOccupancy.cu",
        "2_Concepts_and_Techniques/convolutionSeparable/convolutionSeparable.cu",
        "2_Concepts_and_Techniques/histogram/histogram256.cu", "2_Concepts_and_Techniques/histogram/histogram64.cu",
        "2_Concepts_and_Techniques/scan/scan.cu", "2_Concepts_and_Techniques/shfl_scan/shfl_scan.cu",
        "2_Concepts_and_Techniques/sortingNetworks/bitonicSort.cu",
        "2_Concepts_and_Techniques/sortingNetworks/oddEvenMergeSort.cu",
        "2_Concepts_and_Techniques/reduction/reduction_kernel.cu",
        "2_Concepts_and_Techniques/threadFenceReduction/threadFenceReduction_kernel.cuh",
        "3_CUDA_Features/warpAggregatedAtomicsCG/warpAggregatedAtomicsCG.cu",
        "3_CUDA_Features/cudaTensorCoreGemm/cudaTensorCoreGemm.cu",
        "3_CUDA_Features/globalToShmemAsyncCopy/globalToShmemAsyncCopy.cu",
        "3_CUDA_Features/cdpSimplePrint/cdpSimplePrint.cu",
        "5_Domain_Specific/BlackScholes/BlackScholes.cu", "5_Domain_Specific/dwtHaar1D/dwtHaar1D.cu",
        "6_Performance/transpose/transpose.cu", "6_Performance/alignedTypes/alignedTypes.cu",
        # device code only, written for NVRTC or the driver API (compiled as they are)
        "0_Introduction/matrixMulDrv/matrixMul_kernel.cu", "0_Introduction/vectorAdd_nvrtc/vectorAdd_kernel.cu",
        "0_Introduction/matrixMul_nvrtc/matrixMul_kernel.cu", "0_Introduction/clock_nvrtc/clock_kernel.cu",
        "2_Concepts_and_Techniques/inlinePTX_nvrtc/inlinePTX_kernel.cu",
        "5_Domain_Specific/binomialOptions_nvrtc/binomialOptions_kernel.cu",
        "5_Domain_Specific/quasirandomGenerator_nvrtc/quasirandomGenerator_kernel.cu",
    )],
    "NVIDIA-developer-blog/code-samples": [
        "series/cuda-cpp/coalescing-global/coalescing.cu", "series/cuda-cpp/finite-difference/finite-difference.cu",
        "series/cuda-cpp/shared-memory/shared-memory.cu", "series/cuda-cpp/transpose/transpose.cu",
        "series/cuda-cpp/overlap-data-transfers/async.cu", "posts/mixed-precision/haxpy.cu",
        "posts/tensor-cores/simpleTensorCoreGEMM.cu", "posts/gups/gups.cu",
    ],
    "olcf/cuda-training-series": ["exercises/" + p for p in (
        "hw1/hello_solution.cu", "hw1/vector_add_solution.cu", "hw1/matrix_mul_solution.cu",
        "hw2/matrix_mul_shared_solution.cu", "hw2/stencil_1d_solution.cu", "hw3/vector_add_solution.cu",
        "hw4/matrix_sums_solution.cu", "hw5/reductions.cu", "hw5/max_reduction_solution.cu",
        "hw5/matrix_sums_solution.cu", "hw6/array_inc_solution.cu", "hw6/linked_list_solution.cu",
        "hw7/overlap_solution.cu", "hw8/task1/task1_solution.cu", "hw8/task2/task2_solution.cu",
        "hw8/task3/task3_solution.cu", "hw9/task1_solution.cu", "hw9/task2_solution.cu", "hw10/streams_solution.cu",
        "hw12/task1_solution.cu", "hw12/task2_solution.cu", "hw13/Solutions/axpy_stream_capture_solution.cu",
    )],
    "CoffeeBeforeArch/cuda_programming": [
        "01_vector_addition/baseline/vectorAdd.cu", "01_vector_addition/pinned_memory/vectorAdd_pinned.cu",
        "01_vector_addition/unified_memory/vectorAdd_um_baseline.cu",
        "01_vector_addition/unified_memory/vectorAdd_um_prefetch.cu", "02_matrix_mul/baseline/mmul.cu",
        "02_matrix_mul/noAliasing/restrict/mmul.cu", "02_matrix_mul/noAliasing/tmp/mmul.cu",
        "02_matrix_mul/nonMultiple/mmul.cu", "02_matrix_mul/rectangular/mmul.cu", "02_matrix_mul/tiled/mmul.cu",
        "03_sum_reduction/bank_conflicts/sumReduction.cu", "03_sum_reduction/cooperative_groups/sumReduction.cu",
        "03_sum_reduction/device_function/sumReduction.cu", "03_sum_reduction/diverged/sumReduction.cu",
        "03_sum_reduction/no_confliicts/sumReduction.cu", "03_sum_reduction/reduce_idle/sumReduction.cu",
        "04_histogram/global_atomic/histogram.cu", "04_histogram/shmem_atomic/histogram.cu",
        "05_convolution/1d_cache/convolution.cu", "05_convolution/1d_constant_memory/convolution.cu",
        "05_convolution/1d_naive/convolution.cu", "05_convolution/1d_tiled/convolution.cu",
        "05_convolution/2d_constant_memory/convolution.cu",
    ],
}


def _arg(name, dtype, shape=None, role=None, value=None, **extra) -> str:
    parts = [f'name = "{name}"', f'dtype = "{dtype}"']
    if shape is not None:
        parts.append("shape = [" + ", ".join(f'"{s}"' for s in shape) + "]")
    if role:
        parts.append(f'role = "{role}"')
    if value is not None:
        parts.append(f'value = "{value}"')
    parts += [f"{k} = {json.dumps(v)}" for k, v in extra.items()]
    return "  { " + ", ".join(parts) + " },"


MATMUL_TOL = 'tolerance = { f32 = { rtol = 1e-3, atol = 1e-3, l2 = 1e-5 } }'
# Tasks for imported kernels: each names the corpus file (and kernel), its arguments named like the kernel's
# parameters, the shapes, and a numpy reference written here.
TASKS = [
    {"name": "cs_vectorAdd", "repo": "NVIDIA/cuda-samples", "file": _S + "0_Introduction/vectorAdd/vectorAdd.cu",
     "args": [_arg("A", "f32", ["numElements"], "in"), _arg("B", "f32", ["numElements"], "in"),
              _arg("C", "f32", ["numElements"], "out"), _arg("numElements", "i32", value="numElements")],
     "shapes": "{ numElements = 16777216, timed = true }, { numElements = 50000 }, { numElements = 1 }",
     "reference": "def ref(A, B, numElements):\n    return A + B\n"},
    {"name": "cba_vectorAdd", "repo": "CoffeeBeforeArch/cuda_programming",
     "file": "01_vector_addition/baseline/vectorAdd.cu",
     "args": [_arg("a", "i32", ["N"], "in", init="randint", low=0, high=100),
              _arg("b", "i32", ["N"], "in", init="randint", low=0, high=100), _arg("c", "i32", ["N"], "out"),
              _arg("N", "i32", value="N")],
     "shapes": "{ N = 16777216, timed = true }, { N = 65536 }, { N = 1000 }",
     "reference": "def ref(a, b, N):\n    return a + b\n"},
    {"name": "cba_mmul", "repo": "CoffeeBeforeArch/cuda_programming", "file": "02_matrix_mul/baseline/mmul.cu",
     "args": [_arg("a", "i32", ["N", "N"], "in", init="randint", low=0, high=10),
              _arg("b", "i32", ["N", "N"], "in", init="randint", low=0, high=10),
              _arg("c", "i32", ["N", "N"], "out"), _arg("N", "i32", value="N")],
     "shapes": "{ N = 1024, timed = true }, { N = 96 }",  # the kernel has no bounds check: N a multiple of 32
     "reference": "def ref(a, b, N):\n    return a.astype(np.int64) @ b.astype(np.int64)\n"},
    {"name": "cba_mmul_tiled", "repo": "CoffeeBeforeArch/cuda_programming", "file": "02_matrix_mul/tiled/mmul.cu",
     "args": [_arg("a", "i32", ["N", "N"], "in", init="randint", low=0, high=10),
              _arg("b", "i32", ["N", "N"], "in", init="randint", low=0, high=10),
              _arg("c", "i32", ["N", "N"], "out")],
     "shapes": "{ N = 1024, timed = true }",  # N is a compile-time constant of the device code
     "reference": "def ref(a, b):\n    return a.astype(np.int64) @ b.astype(np.int64)\n"},
    {"name": "cba_conv1d", "repo": "CoffeeBeforeArch/cuda_programming",
     "file": "05_convolution/1d_naive/convolution.cu",
     "args": [_arg("array", "i32", ["n"], "in", init="randint", low=0, high=100),
              _arg("mask", "i32", ["m"], "in", init="randint", low=0, high=10), _arg("result", "i32", ["n"], "out"),
              _arg("n", "i32", value="n"), _arg("m", "i32", value="m")],
     "shapes": "{ n = 1048576, m = 7, timed = true }, { n = 2560, m = 5 }",  # no bounds check: n % 256 == 0
     "reference": "def ref(array, mask, n, m):\n    r = m // 2\n    padded = np.concatenate([np.zeros(r, array.dtype), "
                  "array, np.zeros(m, array.dtype)])\n    return sum(padded[j:j + n] * mask[j] for j in range(m))\n"},
    {"name": "olcf_vadd", "repo": "olcf/cuda-training-series", "file": "exercises/hw1/vector_add_solution.cu",
     "args": [_arg("A", "f32", ["ds"], "in"), _arg("B", "f32", ["ds"], "in"), _arg("C", "f32", ["ds"], "out"),
              _arg("ds", "i32", value="ds")],
     "shapes": "{ ds = 16777216, timed = true }, { ds = 4097 }",
     "reference": "def ref(A, B, ds):\n    return A + B\n"},
    {"name": "olcf_mmul", "repo": "olcf/cuda-training-series", "file": "exercises/hw1/matrix_mul_solution.cu",
     "args": [_arg("A", "f32", ["ds", "ds"], "in"), _arg("B", "f32", ["ds", "ds"], "in"),
              _arg("C", "f32", ["ds", "ds"], "out"), _arg("ds", "i32", value="ds")],
     "shapes": "{ ds = 2048, timed = true }, { ds = 100 }", "extra": MATMUL_TOL,
     "reference": "def ref(A, B, ds):\n    return A @ B\n"},
    {"name": "olcf_mmul_shared", "repo": "olcf/cuda-training-series",
     "file": "exercises/hw2/matrix_mul_shared_solution.cu",
     "args": [_arg("A", "f32", ["ds", "ds"], "in"), _arg("B", "f32", ["ds", "ds"], "in"),
              _arg("C", "f32", ["ds", "ds"], "out"), _arg("ds", "i32", value="ds")],
     "shapes": "{ ds = 2048, timed = true }, { ds = 96 }", "extra": MATMUL_TOL,  # tiles of 32: ds % 32 == 0
     "reference": "def ref(A, B, ds):\n    return A @ B\n"},
    {"name": "olcf_row_sums", "repo": "olcf/cuda-training-series", "file": "exercises/hw4/matrix_sums_solution.cu",
     "kernel": "row_sums",
     "args": [_arg("A", "f32", ["ds", "ds"], "in"), _arg("sums", "f32", ["ds"], "out"), _arg("ds", "i64", value="ds")],
     "shapes": "{ ds = 8192, timed = true }, { ds = 1000 }", "extra": MATMUL_TOL,
     "reference": "def ref(A, ds):\n    return A.sum(axis=1)\n"},
    {"name": "olcf_column_sums", "repo": "olcf/cuda-training-series", "file": "exercises/hw4/matrix_sums_solution.cu",
     "kernel": "column_sums",
     "args": [_arg("A", "f32", ["ds", "ds"], "in"), _arg("sums", "f32", ["ds"], "out"), _arg("ds", "i64", value="ds")],
     "shapes": "{ ds = 8192, timed = true }, { ds = 1000 }", "extra": MATMUL_TOL,
     "reference": "def ref(A, ds):\n    return A.sum(axis=0)\n"},
    {"name": "blog_transposeCoalesced", "repo": "NVIDIA-developer-blog/code-samples",
     "file": "series/cuda-cpp/transpose/transpose.cu", "kernel": "transposeCoalesced",
     "args": [_arg("odata", "f32", ["nx", "ny"], "out"), _arg("idata", "f32", ["ny", "nx"], "in")],
     "shapes": "{ nx = 8192, ny = 8192, timed = true }, { nx = 256, ny = 256 }",  # square, multiples of 32
     "reference": "def ref(idata):\n    return idata.T\n"},
    {"name": "blog_transposeNaive", "repo": "NVIDIA-developer-blog/code-samples",
     "file": "series/cuda-cpp/transpose/transpose.cu", "kernel": "transposeNaive",
     "args": [_arg("odata", "f32", ["nx", "ny"], "out"), _arg("idata", "f32", ["ny", "nx"], "in")],
     "shapes": "{ nx = 8192, ny = 8192, timed = true }, { nx = 256, ny = 256 }",
     "reference": "def ref(idata):\n    return idata.T\n"},
    {"name": "blog_haxpy", "repo": "NVIDIA-developer-blog/code-samples", "file": "posts/mixed-precision/haxpy.cu",
     "args": [_arg("n", "i32", value="n"), _arg("a", "f16", value="2.0"), _arg("x", "f16", ["n"], "in"),
              _arg("y", "f16", ["n"], "inout")],
     "shapes": "{ n = 16777216, timed = true }, { n = 1001 }",
     "reference": "def ref(n, a, x, y):\n    return a * x + y\n"},
]


def repo_dir(corpus: Path, repo: str) -> Path:
    return corpus / repo.replace("/", "+")


# --- fetch ---------------------------------------------------------------------------------------------------------
def fetch(mirrors: Path, corpus: Path) -> None:
    for repo, commit in REPOS.items():
        git = mirrors / repo.replace("/", "+") / "repo"
        run = lambda *a: subprocess.run(["git", f"--git-dir={git}", *a], capture_output=True, check=True).stdout
        folders = {str(Path(p).parent) for p in FILES[repo]} | set(INCLUDE_DIRS.get(repo, []))
        for folder in sorted(folders):
            names = run("ls-tree", "-r", "--name-only", commit, folder + "/").decode().split()
            for name in names:
                if name.endswith((".cu", ".cuh", ".h", ".hpp", ".cpp", ".inl")):
                    dest = repo_dir(corpus, repo) / name
                    dest.parent.mkdir(parents=True, exist_ok=True)
                    dest.write_bytes(run("show", f"{commit}:{name}"))
        print(f"{repo}@{commit[:12]}: {len(FILES[repo])} files and their folders")
    (corpus / "CORPUS.json").write_text(json.dumps({"repositories": REPOS, "files": FILES}, indent=2) + "\n")


# --- run ---------------------------------------------------------------------------------------------------------
def _includes(corpus: Path, repo: str) -> list[Path]:
    return [repo_dir(corpus, repo) / d for d in INCLUDE_DIRS.get(repo, [])]


def _host_code(text: str) -> bool:
    return "<<<" in text or re.search(r"\bint\s+main\s*\(", text) is not None


def compile_one(target: Path, include_dirs) -> dict:
    from kopt.compat import supported_headers
    from kopt.errors import KoptError
    from kopt.explain import compile_file

    try:
        art, _ = compile_file(target, arch="sm_90", include_dirs=include_dirs)
        return {"ok": True, "kernels": len(art.kernels)}
    except KoptError as exc:
        errors = [d for d in exc.diagnostics if d.is_error]
        rule = errors[0].rule if errors else None
        headers = re.findall(r'"([^"]+)"|<([^>]+)>', " ".join(d.message for d in errors
                                                              if d.rule.endswith("-header")))
        missing = sorted({a or b for a, b in headers} & set(supported_headers()))
        return {"ok": False, "rule": rule, "message": exc.message[:300], "supported_header_missing": missing,
                "raw_cannot_open": "cannot open source file" in exc.message}


def corpus_files(corpus: Path, work: Path) -> list[dict]:
    from kopt.errors import KoptError
    from kopt.importer import import_file

    out = []
    for repo, files in FILES.items():
        for rel in files:
            path = repo_dir(corpus, repo) / rel
            rec = {"repo": repo, "path": rel}
            text = path.read_text(errors="replace")
            incs = _includes(corpus, repo)
            rec["host_code"] = _host_code(text)
            target = path
            if rec["host_code"]:
                cand = work / "candidates" / repo.replace("/", "+") / rel
                cand = cand.with_name(cand.stem + ".kopt.cu")
                cand.parent.mkdir(parents=True, exist_ok=True)
                t0 = time.perf_counter()
                try:
                    imp = import_file(path, include_dirs=incs, out=cand)
                except KoptError as exc:
                    rec["import"] = {"ok": False, "message": exc.message[:300]}
                    rec["compile"] = {"ok": False, "rule": None, "message": "not imported"}
                    out.append(rec)
                    continue
                cand.write_text(imp.candidate)
                rec["import"] = {"ok": True, "seconds": round(time.perf_counter() - t0, 2),
                                 "kernels": [k.name for k in imp.kernels],
                                 "launch_lines": sum(len(k.launches) for k in imp.kernels),
                                 "mapped_launches": sum(1 for k in imp.kernels for l in k.launches if not l.todos),
                                 "todos": len(imp.todos), "removed": len(imp.removed)}
                target, incs = cand, []
            rec["compile"] = compile_one(target, incs)
            out.append(rec)
            state = "ok" if rec["compile"]["ok"] else f"FAIL {rec['compile'].get('rule')}"
            print(f"  {state:<34} {repo}/{rel}", flush=True)
    return out


def make_task(spec: dict, corpus: Path, work: Path) -> tuple[Path, Path, dict]:
    """The task directory and the imported candidate of ``spec`` (both in ``work``) and the import's report."""
    from kopt.importer import import_file

    d = work / "tasks" / spec["name"]
    if d.exists():
        shutil.rmtree(d)
    d.mkdir(parents=True)
    (d / "task.toml").write_text(f'name = "{spec["name"]}"\nreference = "reference.py:ref"\nargs = [\n'
                                 + "\n".join(spec["args"]) + f'\n]\nshapes = [ {spec["shapes"]} ]\n'
                                 + (spec.get("extra", "") + "\n"))
    (d / "reference.py").write_text("import numpy as np\n\n\n" + spec["reference"])
    cand = d / "candidate.cu"
    src = repo_dir(corpus, spec["repo"]) / spec["file"]
    imp = import_file(src, kernel=spec.get("kernel"), task=d, include_dirs=_includes(corpus, spec["repo"]),
                      out=cand)
    cand.write_text(imp.candidate)
    report = {"launches": [l.annotation for k in imp.kernels for l in k.launches], "todos": imp.todos}
    return d, cand, report


def check_tasks(corpus: Path, work: Path, regenerate: bool = True) -> list[dict]:
    """Validate each task of TASKS: made afresh (``kopt import --task``), or as an earlier ``run`` left it in
    ``work`` (``regenerate=False``: for a machine without libclang)."""
    from kopt.errors import KoptError
    from kopt.validate import validate

    out = []
    for spec in TASKS:
        rec = {"task": spec["name"], "repo": spec["repo"], "file": spec["file"], "kernel": spec.get("kernel")}
        try:
            if regenerate:
                d, cand, report = make_task(spec, corpus, work)
            else:
                d = work / "tasks" / spec["name"]
                cand, report = d / "candidate.cu", {"reused": True}
            rec.update(report)
            v = validate(d, [cand])
            rec["valid"] = v.ok
            rec["problems"] = sorted({f"{p.rule}: {p.message[:160]}" for p in v.problems if p.is_error})
        except KoptError as exc:
            rec["valid"], rec["problems"] = False, [exc.message[:300]]
        out.append(rec)
        print(f"  {'valid' if rec['valid'] else 'INVALID':<8} {spec['name']}", flush=True)
    return out


def summarize(files: list[dict], tasks: list[dict]) -> dict:
    compiled = [f for f in files if f["compile"]["ok"]]
    failures = {}
    for f in files:
        if not f["compile"]["ok"]:
            failures.setdefault(f["compile"].get("rule") or "not imported", []).append(f"{f['repo']}/{f['path']}")
    imported = [f for f in files if f.get("import", {}).get("ok")]
    return {
        "files": len(files), "compiled": len(compiled), "compile_rate": round(len(compiled) / len(files), 3),
        "kernels_compiled": sum(f["compile"].get("kernels", 0) for f in compiled),
        "failures_by_rule": failures,
        "failures_without_rule": sum(1 for f in files if not f["compile"]["ok"] and not f["compile"].get("rule")),
        "supported_header_missing": sorted({h for f in files
                                            for h in f["compile"].get("supported_header_missing", [])}),
        "raw_cannot_open_messages": sum(1 for f in files if f["compile"].get("raw_cannot_open")),
        "host_code_files": sum(f["host_code"] for f in files), "imported": len(imported),
        "import_failures": [f"{f['repo']}/{f['path']}: {f['import']['message']}" for f in files
                            if f.get("import") and not f["import"]["ok"]],
        "kernels_found": sum(len(f["import"]["kernels"]) for f in imported),
        "launch_lines": sum(f["import"]["launch_lines"] for f in imported),
        # without --task a launch that uses a problem size keeps a TODO to bind it: these count the others
        "launch_lines_without_todo_no_task": sum(f["import"]["mapped_launches"] for f in imported),
        "imports_without_todo_no_task": sum(1 for f in imported if not f["import"]["todos"]),
        "task_launch_lines": sum(len(t.get("launches", [])) for t in tasks),
        "task_todos": sum(len(t.get("todos", [])) for t in tasks),
        "tasks": len(tasks), "tasks_valid": sum(t["valid"] for t in tasks),
    }


def gpu_runs(corpus: Path, work: Path, timeout: float) -> list[dict]:
    import importlib.util

    # kopt import needs libclang; without it, the tasks an earlier run wrote into the corpus folder are used
    regenerate = importlib.util.find_spec("clang") is not None
    if not regenerate:
        print(f"libclang is not installed: running the tasks in {work / 'tasks'} as an earlier run wrote them")
    out = []
    for rec in check_tasks(corpus, work, regenerate):
        if rec["valid"]:
            d = work / "tasks" / rec["task"]
            t0 = time.perf_counter()
            try:
                p = subprocess.run([sys.executable, "-m", "kopt.cli", "run", str(d), str(d / "candidate.cu"),
                                    "--json"], capture_output=True, text=True, timeout=timeout)
                verdict = json.loads(p.stdout) if p.stdout.strip().startswith("{") else {}
                rec["run"] = {"exit": p.returncode, "status": verdict.get("status"),
                              "correct": verdict.get("correct", False), "seconds": round(time.perf_counter() - t0, 1),
                              "diagnostics": [f"{d['rule']}: {d['message'][:160]}"
                                              for d in verdict.get("diagnostics", []) if d["severity"] == "error"]
                              or ([p.stderr.strip()[-300:]] if p.returncode else [])}
            except subprocess.TimeoutExpired:
                rec["run"] = {"exit": None, "status": "timeout", "correct": False}
            print(f"  run {rec['task']}: {rec['run']['status']}", flush=True)
        out.append(rec)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("stage", choices=("fetch", "run", "gpu"))
    ap.add_argument("--corpus", type=Path, required=True)
    ap.add_argument("--mirrors", type=Path, help="fetch: folder of git directories OWNER+NAME/repo")
    ap.add_argument("--work", type=Path, help="where candidates and tasks are written (default: CORPUS/work, so that "
                                              "the folder carries them to the GPU machine)")
    ap.add_argument("--out", type=Path)
    ap.add_argument("--timeout", type=float, default=300.0, help="gpu: seconds per kopt run")
    args = ap.parse_args()
    if args.stage == "fetch":
        if args.mirrors is None:
            ap.error("fetch needs --mirrors")
        fetch(args.mirrors, args.corpus)
        return
    corpus = args.corpus.resolve()
    if not corpus.is_dir():
        ap.error(f"no corpus at {corpus}: run the fetch stage first")
    os.environ.setdefault("KOPT_CACHE_DIR", tempfile.mkdtemp(prefix="kopt-corpus-cache-"))
    work = (args.work or corpus / "work").resolve()
    repos = dict(REPOS)
    from kopt.compiler import nvrtc_version
    from kopt.toolchain import cccl_version

    if args.stage == "run":
        print("(a, b) compile and import:")
        files = corpus_files(corpus, work)
        print("(c) tasks:")
        tasks = check_tasks(corpus, work)
        summary = summarize(files, tasks)
        out = args.out or ROOT / "bench" / "results" / "nvcc_corpus.json"
        envelope.write(out, "nvcc_corpus", "kopt import (files with host code), then NVRTC compile for sm_90 at "
                       "the default configuration; tasks written here, checked by kopt validate", 
                       {"files": files, "tasks": tasks}, envelope.cpu_device(), corpus=repos, summary=summary,
                       nvrtc=nvrtc_version(), cccl=cccl_version())
        print(json.dumps(summary, indent=2))
    else:
        runs = gpu_runs(corpus, work, args.timeout)
        correct = sum(1 for r in runs if r.get("run", {}).get("correct"))
        out = args.out or ROOT / "bench" / "results" / "nvcc_corpus_gpu.json"
        envelope.write(out, "nvcc_corpus_gpu", "tasks of bench/nvcc_corpus.py: kopt import --task, kopt validate, "
                       "kopt run TASK CANDIDATE", runs, envelope.gpu_device(), corpus=repos,
                       summary={"tasks": len(runs), "valid": sum(r["valid"] for r in runs), "correct": correct})
        print(f"{correct} of {len(runs)} imported tasks ran correct")
    print(f"figures written to {out}; candidates and tasks in {work}")


if __name__ == "__main__":
    main()
