"""GPU: several candidates checked, then timed together and ranked; the order holds on a re-run wherever the
comparison with the fastest was not SAME."""
from pathlib import Path

import pytest

from kopt.client import WorkerClient
from kopt.evaluation import bench_many
from kopt.task import Task

ROOT = Path(__file__).resolve().parents[2]
TASK = ROOT / "bench" / "tasks" / "vector_add"

# Correct but starved: one block of 64 threads per SM walks the whole vector.
STARVED = r"""// kopt: task vector_add
// kopt: launch vadd_starved grid=(num_blocks) block=(64) args=(a, b, c, n)
// kopt: define num_blocks=132
extern "C" __global__ void vadd_starved(const float* a, const float* b, float* c, int n) {
  for (long long i = blockIdx.x * 64ll + threadIdx.x; i < n; i += 64ll * gridDim.x) c[i] = a[i] + b[i];
}
"""

pytestmark = pytest.mark.gpu


def test_three_candidates_rank_the_same_way_twice(tmp_path):
    task = Task.load(TASK)
    starved = tmp_path / "starved.cu"
    starved.write_text(STARVED)
    cands = [task.baseline, ROOT / "kb" / "cutlass_examples" / "vector_add_float4.cu", starved]
    runs = []
    with WorkerClient() as worker:
        for _ in range(2):
            r = bench_many(task, cands, baseline=task.baseline, worker=worker, options={"max_time": 1.0})
            assert all(x.evaluation.ok for x in r.ranked), [x.evaluation.status for x in r.ranked]
            runs.append(r)
    for r in runs:
        assert Path(r.ranked[-1].evaluation.candidate.candidate).name == "starved.cu"
        assert r.ranked[-1].versus_best[0].verdict == "SLOWER"
    first, second = ([Path(x.evaluation.candidate.candidate).name for x in r.ranked] for r in runs)
    for k, x in enumerate(runs[0].ranked[1:], 1):
        if x.versus_best[0].verdict != "SAME":  # distinguishable from the best: the best stays ahead of it
            assert second.index(first[0]) < second.index(first[k]), (first, second)
