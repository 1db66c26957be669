"""GPU acceptance for issue 6 (needs a GPU, ncu and compute-sanitizer): bottleneck classes and planted bugs."""
from pathlib import Path

import pytest

from kopt.task import Task

ROOT = Path(__file__).resolve().parents[2]
PLANTED = Path(__file__).parent / "planted_sanitize"
pytestmark = pytest.mark.gpu


@pytest.fixture(scope="module")
def task():
    return Task.load(ROOT / "bench" / "tasks" / "vector_add")


def test_profile_classes(task):
    from kopt.profile import profile

    mem = profile(task, task.baseline)
    assert mem.kernels[0].bottleneck == "memory", mem.to_dict()
    comp = profile(task, PLANTED / "fma_chain.cu")
    assert comp.kernels[0].bottleneck == "compute", comp.to_dict()
    strided = profile(task, PLANTED / "strided.cu")
    assert strided.excess_ratio and strided.excess_ratio > 2, strided.to_dict()
    assert 7 in [h["line"] for h in strided.hot_lines], strided.to_dict()
    heavy = profile(task, PLANTED / "register_heavy.cu")
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
    hits = [d for d in res.diagnostics if d.rule == rule]
    assert hits and line in {l.line for d in hits for l in d.locations}, res.to_dict()
