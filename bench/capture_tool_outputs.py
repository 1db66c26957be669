"""Capture real Nsight Compute and compute-sanitizer outputs on a GPU, as CPU test fixtures for kopt's parsers.

Runs kopt's own profile and sanitize paths on the planted kernels of tests/gpu/planted_sanitize (and the
vector_add baseline) and writes exactly the texts the parsers read, plus a manifest of what kopt made of them.

Usage (GPU machine, repo root):  python bench/capture_tool_outputs.py OUT_DIR
"""
from __future__ import annotations

import json
import sys
import traceback
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PLANTED = ROOT / "tests" / "gpu" / "planted_sanitize"
PROFILES = {"memory_bound": "baseline", "compute_bound": "fma_chain.cu", "strided": "strided.cu",
            "register_heavy": "register_heavy.cu"}
SANITIZE = {"memcheck_oob_write": ("oob_write.cu", "memcheck"), "racecheck": ("shared_race.cu", "racecheck"),
            "initcheck": ("uninit_read.cu", "initcheck"), "synccheck": ("divergent_barrier.cu", "synccheck"),
            "clean": ("baseline", "memcheck")}


def main(out: Path) -> None:
    from kopt.profile import profile
    from kopt.sanitize import sanitize
    from kopt.task import Task

    out.mkdir(parents=True, exist_ok=True)
    task = Task.load(ROOT / "bench" / "tasks" / "vector_add")
    manifest = {}
    for name, cand in PROFILES.items():
        try:
            p = profile(task, task.baseline if cand == "baseline" else PLANTED / cand)
            (out / f"ncu_{name}_raw.csv").write_text(p.raw["raw"])
            (out / f"ncu_{name}_source.csv").write_text(p.raw["source"])
            manifest[name] = p.to_dict()
        except Exception:
            manifest[name] = {"error": traceback.format_exc()}
    for name, (cand, tool) in SANITIZE.items():
        try:
            r = sanitize(task, task.baseline if cand == "baseline" else PLANTED / cand, tools=[tool], static=False)
            (out / f"sanitizer_{name}.txt").write_text(r.raw[tool])
            manifest[name] = r.to_dict()
        except Exception:
            manifest[name] = {"error": traceback.format_exc()}
    (out / "manifest.json").write_text(json.dumps(manifest, indent=2, default=str))
    for name, doc in manifest.items():
        print(name, "ERROR" if "error" in doc else "ok")


if __name__ == "__main__":
    main(Path(sys.argv[1]))
