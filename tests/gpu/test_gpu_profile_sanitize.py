"""GPU acceptance for profiling and sanitizing (needs a GPU, ncu and compute-sanitizer): bottleneck classes and
planted bugs. With KOPT_RECORD_DIR set, the tools' raw outputs are also written there, to become the parsers' CPU
test fixtures (tests/data)."""
import os
from pathlib import Path

import pytest

from kopt.task import Task

ROOT = Path(__file__).resolve().parents[2]
PLANTED = Path(__file__).parent / "planted_sanitize"
pytestmark = pytest.mark.gpu


def _record(name: str, texts: dict) -> None:
    folder = os.environ.get("KOPT_RECORD_DIR")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        for key, text in texts.items():
            Path(folder, f"{name}_{key}.txt").write_text(text)


@pytest.fixture(scope="module")
def task():
    return Task.load(ROOT / "bench" / "tasks" / "vector_add")


def test_profile_classes(task):
    from kopt.profile import profile

    mem = profile(task, task.baseline)
    comp = profile(task, PLANTED / "fma_chain.cu")
    strided = profile(task, PLANTED / "strided.cu")
    heavy = profile(task, PLANTED / "register_heavy.cu")
    for name, p in (("memory_bound", mem), ("compute_bound", comp), ("strided", strided), ("register_heavy", heavy)):
        _record(f"ncu_{name}", p.raw)
    assert mem.kernels[0].bottleneck == "memory", mem.to_dict()
    assert comp.kernels[0].bottleneck == "compute", comp.to_dict()
    assert strided.excess_ratio and strided.excess_ratio > 2, strided.to_dict()
    assert 7 in [h["line"] for h in strided.hot_lines], strided.to_dict()
    assert heavy.kernels[0].limiter == "registers", heavy.to_dict()


@pytest.mark.parametrize("planted,tool,rule,line", [
    ("oob_write.cu", "memcheck", "sanitize.memcheck.invalid-write", 7),
    ("shared_race.cu", "racecheck", "sanitize.racecheck.hazard", 9),
    ("uninit_read.cu", "initcheck", "sanitize.initcheck.uninitialized", 6),
    ("divergent_barrier.cu", "synccheck", "sanitize.synccheck.divergent-barrier", 7),
])
def test_sanitize_planted(task, planted, tool, rule, line):
    from kopt.sanitize import sanitize

    res = sanitize(task, PLANTED / planted, tools=[tool], static=False)
    _record(f"sanitizer_{Path(planted).stem}", res.raw)
    hits = [d for d in res.diagnostics if d.rule == rule]
    assert hits and line in {l.line for d in hits for l in d.locations}, res.to_dict()
