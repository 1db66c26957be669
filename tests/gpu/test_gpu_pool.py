"""GPU: the evaluator pool's local backend on real GPUs: the devices found, a worker pinned by CUDA_VISIBLE_DEVICES
that evaluates for real, and the GPU each evaluation records (name, UUID, clocks read from NVML by PCI bus id)."""
from pathlib import Path

import pytest

import kopt
from kopt.device import probe
from kopt.pool import local_devices, local_pool
from kopt.runstore import RunStore

ROOT = Path(__file__).resolve().parents[2]
TASK = ROOT / "bench" / "tasks" / "vector_add"

pytestmark = pytest.mark.gpu


def test_workers_1_evaluates_on_a_pinned_gpu_and_records_it(tmp_path):
    devices = local_devices()
    assert devices and all(d.uuid.startswith("GPU-") and d.pci_bus_id for d in devices)
    assert devices[0].name == probe()[0].name
    store = RunStore(tmp_path / "runs.db")
    with local_pool(1) as pool:
        r = kopt.optimize(TASK, TASK / "baseline.cu", store=store, budget=2, max_time=0.3, pool=pool)
    rows = store.evaluations(r.run)
    assert len(rows) == 2 and all(e["status"] == "ok" for e in rows), [e["status"] for e in rows]
    for e in rows:
        gpu = e["measurement"]["gpu"]
        assert (gpu["name"], gpu["uuid"], gpu["pci_bus_id"]) == (devices[0].name, devices[0].uuid,
                                                                 devices[0].pci_bus_id)
        assert gpu["clocks_mhz"]["sm"] > 0 and gpu["clocks_mhz"]["sm_max"] >= gpu["clocks_mhz"]["sm"]
    assert r.best is not None and r.ranked_on is None  # one GPU model: ranked as before
