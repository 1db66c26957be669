"""``kopt bench --dram`` on the H200: vector_add's baseline moves about the bytes of its work model (reads a and b,
writes c once), counted by ncu."""
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.gpu


@pytest.mark.skipif(shutil.which("ncu") is None, reason="ncu not installed")
def test_bench_dram_counts_vector_adds_traffic_near_its_work_model():
    task = ROOT / "bench" / "tasks" / "vector_add"
    p = subprocess.run([sys.executable, "-m", "kopt.cli", "bench", str(task), str(task / "baseline.cu"),
                        "--no-baseline", "--dram", "--max-time", "0.3", "--json"],
                       capture_output=True, text=True, timeout=600)
    assert p.returncode == 0, p.stderr[-2000:]
    [d] = json.loads(p.stdout)["dram"].values()
    assert "error" not in d, d
    assert 0.95 <= d["x_work"] <= 1.1, d
    assert 1.9 <= d["read_bytes"] / d["written_bytes"] <= 2.1, d  # two inputs read, one output written
