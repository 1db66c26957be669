"""GPU: every bench baseline passes; planted bad candidates get the right Diagnostic; the parent survives each."""
from pathlib import Path

import pytest

from kopt.checker import check
from kopt.client import WorkerClient
from kopt.known_candidates import known_candidates
from kopt.render import to_text
from kopt.task import Task

ROOT = Path(__file__).resolve().parents[2]
TASKS = sorted(p.parent for p in (ROOT / "bench" / "tasks").glob("*/task.toml"))
PLANTED = Path(__file__).parent / "planted"


def first_known(task):
    """The task's baseline, else (a long-shape variant) its family's first known kernel."""
    return known_candidates(task)[0].path

pytestmark = pytest.mark.gpu


@pytest.fixture(scope="module")
def worker():
    with WorkerClient(kernel_timeout=5.0) as w:
        yield w


@pytest.mark.parametrize("task_dir", TASKS, ids=[p.name for p in TASKS])
def test_bench_baseline_passes_small_shapes(task_dir, worker):
    task = Task.load(task_dir)
    small = [s for s in task.shapes if not s.timed]
    verdict = check(task, first_known(task), worker=worker, shapes=small)
    assert verdict.correct, to_text(verdict.diagnostics)
    assert len(verdict.shapes) == len(small)
    assert all(len(s["trials"]) == task.trials for s in verdict.shapes)


@pytest.mark.parametrize("planted,rule", [
    ("half_output.cu", "check.unwritten-output"),
    ("mutates_input.cu", "check.input-mutated"),
    ("constant.cu", "check.mismatch"),
    ("illegal_address.cu", "runtime.illegal-address"),
    ("infinite_loop.cu", "runtime.timeout"),
    ("absurd_memory.cu", "runtime.out-of-memory"),
])
def test_planted_bug_is_caught_and_next_candidate_still_runs(planted, rule, worker):
    task = Task.load(ROOT / "bench" / "tasks" / "vector_add")
    small = [s for s in task.shapes if not s.timed]
    bad = check(task, PLANTED / planted, worker=worker, shapes=small)
    assert not bad.correct
    assert rule in {d.rule for d in bad.diagnostics}, [d.to_dict() for d in bad.diagnostics]
    good = check(task, PLANTED / "good.cu", worker=worker, shapes=small, config={"BLOCK": 512})
    assert good.correct, [d.to_dict() for d in good.diagnostics]


def test_cubin_loads_and_runs_on_this_driver(worker):
    """The compile path (pip NVRTC, exact-target cubin) is accepted by the installed driver."""
    task = Task.load(ROOT / "bench" / "tasks" / "vector_add")
    verdict = check(task, PLANTED / "good.cu", worker=worker, shapes=[task.shapes[1]])
    assert verdict.ran and verdict.correct


@pytest.mark.timeout(400)
@pytest.mark.parametrize("task_dir", TASKS, ids=[p.name for p in TASKS])
def test_bench_baseline_passes_timed_shape(task_dir, worker):
    task = Task.load(task_dir)
    verdict = check(task, first_known(task), worker=worker, shapes=task.timed_shapes)
    assert verdict.correct, to_text(verdict.diagnostics)
    ref_ms = [t["reference_ms"] for s in verdict.shapes for t in s["trials"]]
    print(f"{task.name}: {verdict.seconds:.1f} s, reference {ref_ms} ms")
