"""The one envelope every benchmark result in bench/results/ uses, so figures stay comparable over time."""
from __future__ import annotations

import datetime as dt
import json
import os
import platform
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def commit() -> str:
    """KOPT_COMMIT (set it where the tree is a copy without .git, e.g. the GPU machine), else git's HEAD."""
    if os.environ.get("KOPT_COMMIT"):
        return os.environ["KOPT_COMMIT"]
    try:
        sha = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True,
                             check=True).stdout.strip()
        changed = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no", "--", "kopt", "analyzers",
                                  "csrc"], cwd=ROOT, capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"
    return f"{sha}+dirty" if changed else sha  # code that differs from the commit is not the commit's figure


def require_this_tree(*modules) -> None:
    """Exit unless each of ``modules`` (kopt, analyzers) was imported from this checkout: an editable install of
    another checkout takes precedence over sys.path, and its figures would be recorded under this tree's commit."""
    for module in modules:
        where = Path(module.__file__).resolve()
        if ROOT not in where.parents:
            raise SystemExit(f"{module.__name__} is imported from {where.parent}, not from this checkout ({ROOT}): "
                             f"run the benchmark from the checkout kopt is installed from, or install this one")


def cpu_device() -> dict:
    return {"name": "cpu", "processor": platform.processor() or platform.machine(), "cores": os.cpu_count(),
            "python": platform.python_version()}


def gpu_device() -> dict:
    from kopt.device import probe

    info, why = probe()
    if info is None:
        return {"name": None, "error": why}
    doc = {"name": info.name, "driver": info.driver, "sms": info.sm_count, "l2_bytes": info.l2_bytes}
    try:  # the display driver's own version (e.g. 580.159.04), when nvidia-ml-py is installed
        import pynvml

        pynvml.nvmlInit()
        doc["driver_version"] = pynvml.nvmlSystemGetDriverVersion()
    except Exception:
        pass
    return doc


def write(path: str | Path, benchmark: str, method: str, results, device: dict, **extra) -> dict:
    doc = {"benchmark": benchmark, "date": dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds"),
           "commit": commit(), "device": device, "method": method, **extra, "results": results}
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    Path(path).write_text(json.dumps(doc, indent=2) + "\n")
    return doc
