"""bench/analyzer_accuracy.py's review lookup: two suites whose relative paths coincide (kernel_files/... in two
mini-apps) keep separate verdicts under repository-qualified keys; plain keys still apply to every suite."""
from __future__ import annotations

import importlib.util
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _bench(monkeypatch):
    monkeypatch.syspath_prepend(str(ROOT / "bench"))  # the script's own folder, as when it runs
    spec = importlib.util.spec_from_file_location("analyzer_accuracy", ROOT / "bench" / "analyzer_accuracy.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_a_repository_qualified_review_wins_over_the_plain_path_key(monkeypatch):
    reviewed = _bench(monkeypatch)._reviewed
    key = "kernel_files/pack_kernel.cuknl:83:race.global"
    review = {key: {"verdict": "true", "why": "a"}, f"UK-MAC/TeaLeaf_CUDA:{key}": {"verdict": "false", "why": "b"},
              f"UK-MAC/TeaLeaf_CUDA:{key}@unpack": {"verdict": "true", "why": "c"}}
    assert reviewed(review, key, "pack", "UK-MAC/TeaLeaf_CUDA@2ac2460")["why"] == "b"
    assert reviewed(review, key, "unpack", "UK-MAC/TeaLeaf_CUDA@2ac2460")["why"] == "c"
    assert reviewed(review, key, "pack", "UK-MAC/CloverLeaf_CUDA@03c7803")["why"] == "a"
    assert reviewed(review, "other.cu:1:race.global", "k", "UK-MAC/CloverLeaf_CUDA@03c7803") is None


def test_a_file_whose_analysis_does_not_return_is_abandoned_and_listed(monkeypatch, tmp_path):
    # the deadline interrupts the solver; an analysis stuck elsewhere is interrupted ABANDON_S later and the file
    # listed as one that did not finish (GPUSorting's SplitSort.cuh hung a run)
    bench = _bench(monkeypatch)
    monkeypatch.setattr(bench, "STOP_S", 0.5)
    monkeypatch.setattr(bench, "ABANDON_S", 1.0)
    (tmp_path / "hangs.cu").write_text("__global__ void k() {}\n")

    def stuck(path, **kw):
        while True:
            time.sleep(0.05)

    import signal

    ignored = signal.signal(signal.SIGINT, signal.SIG_IGN)  # as in a run started in the background (`nohup ... &`)
    try:
        suite = bench.real(stuck, tmp_path, "owner/repo@0", [], {})
    finally:
        signal.signal(signal.SIGINT, ignored)
    assert suite["skipped_files_that_did_not_finish"] == ["hangs.cu"] and suite["kernels"] == 0
