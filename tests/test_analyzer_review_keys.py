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


def test_a_deadline_firing_as_the_analysis_returns_interrupts_nothing_after_it(monkeypatch):
    # the timer's thread may be inside _fire when the file's analysis returns: that firing must neither interrupt
    # the next file's queries nor arm another timer (one did, and interrupted every later file once a second)
    bench = _bench(monkeypatch)
    from analyzers import solver

    calls = []
    monkeypatch.setattr(solver, "interrupt", lambda: calls.append(1))
    deadline = bench._Deadline(60.0)
    with deadline:
        pass
    last = deadline.timer
    deadline._fire()  # the firing under way on the timer's thread
    assert not calls and deadline.timer is last


def test_the_file_after_a_stopped_one_starts_in_a_context_that_was_not_interrupted(monkeypatch):
    # z3 keeps an interrupted context cancelled: `simplify` there returns its input, so a host fact over constants
    # (`0 < 2`) was no longer seen to hold
    import z3

    bench = _bench(monkeypatch)
    from analyzers import solver

    monkeypatch.setattr(solver, "_running", z3.main_ctx())
    with bench._Deadline(60.0) as deadline:
        deadline._fire()
    assert deadline.fired and z3.is_true(z3.simplify(z3.IntVal(0) < z3.IntVal(2)))
