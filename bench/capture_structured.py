"""Capture NVIDIA's structured tool outputs as kopt's parser fixtures.

    python bench/capture_structured.py nvdisasm [OUT]   # CPU: nvdisasm -json -g and -g -c pairs (tests/data/nvdisasm)
    python bench/capture_structured.py gpu [OUT]        # GPU: compute-sanitizer text + XML of one run per planted case
                                                        # (OUT/sanitizer), ncu reports with their CSV exports (OUT/ncu)
    python bench/capture_structured.py gpu OUT CASE...  # GPU: only these profile cases (e.g. bandwidth_low_occupancy)

OUT defaults to tests/data. The GPU mode needs a GPU, compute-sanitizer and ncu; the ncu-report wheel is not needed
to capture. Each file is named like the fixtures the CPU tests look for: sanitizer/h200_<tool>_<case>.{txt,xml},
ncu/h200_<case>.ncu-rep with ncu/h200_<case>_raw.csv and _source.csv exported from that report, and
ncu/h200_ceilings.json: the device's bandwidth and FMA ceilings as kopt measures them (the matching DRAM ceiling of the
profile-advice tests).
"""
from __future__ import annotations

import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PLANTED = ROOT / "tests" / "gpu" / "planted_sanitize"
SANITIZE = [("oob_write.cu", "memcheck"), ("shared_race.cu", "racecheck"), ("uninit_read.cu", "initcheck"),
            ("divergent_barrier.cu", "synccheck")]
PROFILE = [("memory_bound", None), ("compute_bound", "fma_chain.cu"), ("strided", "strided.cu"),
           ("register_heavy", "register_heavy.cu"), ("bandwidth_low_occupancy", "bandwidth_low_occupancy.cu")]
NVDISASM = [("copy_float4.cu", "sm_90"), ("wgmma_sm90a.cu", "sm_90a"), ("spill.cu", "sm_90")]


def nvdisasm(out: Path) -> None:
    from kopt.explain import compile_file

    folder = out / "nvdisasm"
    folder.mkdir(parents=True, exist_ok=True)
    for src, arch in NVDISASM:
        art, _ = compile_file(ROOT / "tests" / "data" / src, arch=arch)
        stem = f"{Path(src).stem}.{arch}"
        (folder / f"{stem}.json").write_text(art._disassemble("sass.json", "-json", "-g"))
        (folder / f"{stem}.sass").write_text(art.sass())
        print(f"wrote {folder / stem}.json and .sass")


def ceilings(out: Path) -> dict:
    """The device's ceilings (measured once per GPU and driver, then cached), written beside the ncu fixtures."""
    from kopt import roofline
    from kopt.client import WorkerClient
    from kopt.device import default_arch, require_gpu

    info = require_gpu("capturing ceilings")
    with WorkerClient() as worker:
        found = roofline.ceilings(worker, info.name, info.driver, default_arch())
    (out / "ncu").mkdir(parents=True, exist_ok=True)
    (out / "ncu" / "h200_ceilings.json").write_text(json.dumps({**found, "gpu": info.name, "driver": info.driver},
                                                              indent=2))
    print(f"ceilings: {found}")
    return found


def gpu(out: Path, only: list[str]) -> None:
    from kopt.profile import dram_evidence, profile, source_page_command
    from kopt.sanitize import sanitize
    from kopt.task import Task
    from kopt.toolchain import require_tool

    task = Task.load(ROOT / "bench" / "tasks" / "vector_add")
    unknown = [c for c in only if c not in dict(PROFILE)]
    if unknown:
        sys.exit(f"unknown profile case(s) {', '.join(unknown)}: expected {', '.join(dict(PROFILE))}")
    ceil = ceilings(out)
    (out / "sanitizer").mkdir(parents=True, exist_ok=True)
    for planted, tool in SANITIZE if not only else []:
        res = sanitize(task, PLANTED / planted, tools=[tool], static=False)
        stem = out / "sanitizer" / f"h200_{tool}_{Path(planted).stem}"
        stem.with_suffix(".txt").write_text(res.raw[tool])
        if tool in res.raw_xml:
            stem.with_suffix(".xml").write_text(res.raw_xml[tool])
        print(f"{stem}: {res.parsed_from[tool]}, {len(res.diagnostics)} finding(s); notes: {res.notes}")
    ncu = require_tool("ncu")
    (out / "ncu").mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        for case, candidate in PROFILE:
            if only and case not in only:
                continue
            cand = PLANTED / candidate if candidate else task.baseline
            rep = Path(tmp, f"{case}.ncu-rep")
            p = profile(task, cand, report=rep)
            shutil.copyfile(rep, out / "ncu" / f"h200_{case}.ncu-rep")
            raw = subprocess.run([ncu, "--import", str(rep), "--csv", "--page", "raw"], capture_output=True,
                                 text=True, check=True)
            src = subprocess.run(source_page_command(ncu, str(rep), cand), capture_output=True, text=True, check=True)
            (out / "ncu" / f"h200_{case}_raw.csv").write_text(raw.stdout)
            (out / "ncu" / f"h200_{case}_source.csv").write_text(src.stdout)
            print(f"{case}: read from {p.read_from}, bottleneck {[k.bottleneck for k in p.kernels]}, limiter "
                  f"{[k.limiter for k in p.kernels]}; {[dram_evidence(k.figures, ceil).text for k in p.kernels]}")


if __name__ == "__main__":
    if len(sys.argv) < 2 or sys.argv[1] not in ("nvdisasm", "gpu"):
        sys.exit(__doc__)
    target = Path(sys.argv[2]) if len(sys.argv) > 2 else ROOT / "tests" / "data"
    nvdisasm(target) if sys.argv[1] == "nvdisasm" else gpu(target, sys.argv[3:])
