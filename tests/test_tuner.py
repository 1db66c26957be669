"""The autotuner on the CPU: strategies on a synthetic objective, pruning from real NVRTC compile resources, budgets,
resume (also after kill -9), and ``kopt optimize``'s input errors."""
import json
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from evaluations import evaluation  # stands in for the GPU evaluation

from kopt.candidate import Candidate
from kopt.errors import InputError
from kopt.runstore import RunStore
from kopt.tuner import Space, key, plan_space, tune

ROOT = Path(__file__).resolve().parents[1]
TASK = ROOT / "bench" / "tasks" / "reduce_sum"

SYNTH = """// kopt: tune A in [1, 2, 3, 4, 5, 6, 7, 8]
// kopt: tune B in [1, 2, 3, 4, 5, 6, 7, 8]
// kopt: tune C in [1, 2, 3, 4]
// kopt: launch k grid=(1) block=(32) args=(x)
extern "C" __global__ void k(float* x) {}
"""


def objective(cfg):
    return 10.0 + (cfg["A"] - 5) ** 2 + (cfg["B"] - 3) ** 2 + 3 * (cfg.get("C", 2) - 2) ** 2


def synthetic(calls=None):
    """TEST DOUBLE for the GPU evaluation: the 'time' is a known function of the configuration."""

    def evaluate(cfg):
        if calls is not None:
            calls.append(dict(cfg))
        return evaluation("synthetic", time_us=objective(cfg), speedup=20.0 / objective(cfg))

    return evaluate


def unpruned(source):
    cand = Candidate.load(source)
    return cand, Space(list(cand.configs()), [])


def run_tuner(tmp_path, strategy, budget=None, source=SYNTH, seed=0, calls=None, store=None):
    cand, space = unpruned(source)
    store = store or RunStore(tmp_path / "runs.db")
    run = store.create_run("synthetic", workflow="tune", options={"strategy": strategy})
    res = tune(cand, space, evaluate=synthetic(calls), store=store, run=run, strategy=strategy, budget=budget,
               seed=seed)
    return res, store


def test_exhaustive_evaluates_every_config_once_and_finds_the_optimum(tmp_path):
    calls = []
    res, store = run_tuner(tmp_path, "exhaustive", calls=calls)
    assert res.total == res.evaluated == 256 and res.stop_reason == "space exhausted"
    assert len({key(c) for c in calls}) == 256
    assert res.best["config"] == {"A": 5, "B": 3, "C": 2} and res.best["time_us"] == 10.0


@pytest.mark.parametrize("strategy,budget", [("random", 60), ("tpe", 40)])
def test_sampling_strategies_find_a_near_optimum_within_budget_reproducibly(tmp_path, strategy, budget):
    calls = []
    res, _ = run_tuner(tmp_path / "a", strategy, budget=budget, seed=3, calls=calls)
    assert res.evaluated == budget and res.stop_reason == f"budget of {budget} evaluations reached"
    assert len({key(c) for c in calls}) == budget  # never repeats a configuration
    assert res.best["time_us"] <= 12.0  # the optimum is 10; 5% of the space scores <= 12
    again = []
    run_tuner(tmp_path / "b", strategy, budget=budget, seed=3, calls=again)
    assert again == calls


def test_tpe_beats_random_sampling_on_average_over_seeds(tmp_path):
    def mean_best(strategy):
        return sum(run_tuner(tmp_path / f"{strategy}{s}", strategy, budget=30, seed=s)[0].best["time_us"]
                   for s in range(4)) / 4

    assert mean_best("tpe") <= mean_best("random")


@pytest.mark.parametrize("strategy", ["exhaustive", "random", "tpe"])
def test_restrictions_are_honored(tmp_path, strategy):
    calls = []
    src = SYNTH.replace("// kopt: launch", "// kopt: restrict A * B <= 12\n// kopt: launch")
    run_tuner(tmp_path, strategy, budget=25, source=src, calls=calls)
    assert calls and all(c["A"] * c["B"] <= 12 for c in calls)


def test_time_limit_stops_the_loop(tmp_path):
    cand, space = unpruned(SYNTH)
    store = RunStore(tmp_path / "runs.db")
    run = store.create_run("synthetic", workflow="tune", options={})

    def slow(cfg):  # TEST DOUBLE
        time.sleep(0.05)
        return evaluation("synthetic", time_us=objective(cfg))

    res = tune(cand, space, evaluate=slow, store=store, run=run, time_limit=0.3)
    assert 2 <= res.evaluated < 20 and res.stop_reason.startswith("time limit")


def test_failed_evaluations_are_recorded_but_never_best(tmp_path):
    cand, space = unpruned(SYNTH)
    store = RunStore(tmp_path / "runs.db")
    run = store.create_run("synthetic", workflow="tune", options={})

    def evaluate(cfg):  # TEST DOUBLE: the optimum is incorrect
        if cfg == {"A": 5, "B": 3, "C": 2}:
            return evaluation("synthetic", status="incorrect")
        return evaluation("synthetic", time_us=objective(cfg))

    res = tune(cand, space, evaluate=evaluate, store=store, run=run)
    assert res.best["time_us"] == 11.0
    assert [e["status"] for e in store.evaluations(run)].count("incorrect") == 1


def test_resume_skips_finished_configs(tmp_path):
    calls = []
    res, store = run_tuner(tmp_path, "random", budget=10, calls=calls)
    cand, space = unpruned(SYNTH)
    more = []
    res2 = tune(cand, space, evaluate=synthetic(more), store=store, run=res.run, strategy="random", budget=25)
    assert res2.evaluated == 15 and res2.total == 25
    assert not {key(c) for c in calls} & {key(c) for c in more}
    assert len(store.evaluations(res.run)) == 25


# --- pruning from real compile resources (NVRTC on the CPU) ---------------------------------------------------------
PRUNE = """// kopt: tune N in [4, 256]
// kopt: tune BLOCK in [256, 2048]
// kopt: launch k grid=(cdiv(n, BLOCK)) block=(BLOCK) args=(x, y, n)
extern "C" __global__ void __launch_bounds__(256) k(const float* __restrict__ x, float* __restrict__ y, int n) {
  float acc[N];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
#pragma unroll
  for (int j = 0; j < N; ++j) acc[j] = x[(i + j * 977) % n];
  float s = 0.f;
#pragma unroll
  for (int r = 0; r < 4; ++r)
#pragma unroll
    for (int j = 0; j < N; ++j) acc[j] = acc[j] * acc[(j + r + 1) % N] + 1.f;
#pragma unroll
  for (int j = 0; j < N; ++j) s += acc[j];
  if (i < n) y[i] = s;
}
"""

SMEM = """// kopt: tune BLOCK in [256, 64]
// kopt: tune SMEM in [0, 60000, 300000]
// kopt: launch k grid=(cdiv(n, BLOCK)) block=(BLOCK) smem=SMEM args=(x, n)
extern "C" __global__ void k(float* x, int n) {
  extern __shared__ float buf[];
  int i = blockIdx.x * BLOCK + threadIdx.x;
  if (i < n) { buf[threadIdx.x] = x[i]; x[i] = buf[threadIdx.x] * 2.f; }
}
"""


def test_pruning_drops_unlaunchable_and_spilling_configs():
    space = plan_space(PRUNE, {"n": 1 << 20}, arch="sm_90")
    assert space.configs == [{"N": 4, "BLOCK": 256}]
    why = {key(p.config): (p.reason, p.detail) for p in space.pruned}
    assert why[key({"N": 4, "BLOCK": 2048})] == ("cannot launch",
                                                 "launch k (line 3): block (2048, 1, 1) has 2048 threads; sm_90 allows 1024")
    reason, detail = why[key({"N": 256, "BLOCK": 256})]
    assert reason == "spills" and "B stores" in detail
    assert space.pruned_counts() == {"cannot launch": 2, "spills": 1}


def test_pruning_drops_too_much_shared_memory_and_low_occupancy():
    space = plan_space(SMEM, {"n": 1 << 20}, arch="sm_90")
    why = {key(p.config): p for p in space.pruned}
    assert why[key({"BLOCK": 256, "SMEM": 300000})].reason == "cannot launch"
    assert "shared memory" in why[key({"BLOCK": 64, "SMEM": 300000})].detail
    low = why[key({"BLOCK": 64, "SMEM": 60000})]  # 3 blocks of 2 warps: 9% of the best config's 100%
    assert low.reason == "low occupancy"
    assert {"BLOCK": 256, "SMEM": 60000} in space.configs and {"BLOCK": 64, "SMEM": 0} in space.configs


def test_pruning_keeps_spilling_configs_when_all_spill():
    src = PRUNE.replace("[4, 256]", "[256]").replace("[256, 2048]", "[256]")
    assert plan_space(src, {"n": 1 << 20}, arch="sm_90").configs == [{"N": 256, "BLOCK": 256}]


def test_compile_failures_are_pruned_with_the_compiler_message():
    src = SYNTH.replace("{}", "{ static_assert(A != 2, \"A must not be 2\"); }")
    space = plan_space(src, {}, arch="sm_90")
    failed = [p for p in space.pruned if p.reason == "does not compile"]
    assert len(failed) == 32 and all(p.config["A"] == 2 for p in failed) and "A must not be 2" in failed[0].detail


def test_bad_tuner_inputs_are_input_errors(tmp_path):
    no_tunables = SYNTH.split("\n", 3)[3]
    with pytest.raises(InputError, match="declares no tunables"):
        plan_space(no_tunables, {})
    cand, space = unpruned(SYNTH)
    store = RunStore(tmp_path / "runs.db")
    with pytest.raises(InputError, match="unknown strategy 'annealing'"):
        tune(cand, space, evaluate=synthetic(), store=store, run=store.create_run("t", workflow="tune", options={}),
             strategy="annealing")
    with pytest.raises(InputError, match="no run 42"):
        tune(cand, space, evaluate=synthetic(), store=store, run=42)


# --- kill -9 in the middle of a run, then resume -------------------------------------------------------------------
CHILD = textwrap.dedent("""
    import sys, time
    sys.path.insert(0, "tests")
    from evaluations import evaluation
    from kopt.candidate import Candidate
    from kopt.runstore import RunStore
    from kopt.tuner import Space, tune
    src, db, run = sys.argv[1], sys.argv[2], int(sys.argv[3])
    cand = Candidate.load(open(src).read())

    def sleepy(cfg):  # TEST DOUBLE: a simulated evaluation that takes a while
        time.sleep(0.15)
        return evaluation("synthetic", time_us=float(cfg["A"] * 10 + cfg["B"]))

    tune(cand, Space(list(cand.configs()), []), evaluate=sleepy, store=RunStore(db), run=run, strategy="random")
""")


def test_kill_9_mid_run_then_resume_loses_and_repeats_nothing(tmp_path):
    src = tmp_path / "cand.txt"
    src.write_text(SYNTH.replace("// kopt: tune C in [1, 2, 3, 4]\n", ""))
    db = tmp_path / "runs.db"
    store = RunStore(db)
    run = store.create_run("synthetic", workflow="tune", options={})
    child = subprocess.Popen([sys.executable, "-c", CHILD, str(src), str(db), str(run)], cwd=ROOT)
    deadline = time.time() + 60
    while len(store.evaluations(run)) < 5 and time.time() < deadline and child.poll() is None:
        time.sleep(0.05)
    os.kill(child.pid, signal.SIGKILL)
    child.wait()
    before = store.evaluations(run)
    assert 5 <= len(before) < 64, "the child should have been killed mid-run"
    assert store.run(run)["status"] == "running"  # nothing got to say it finished

    cand, space = unpruned(src.read_text())
    calls = []
    res = tune(cand, space, evaluate=synthetic(calls), store=store, run=run, strategy="random")
    after = store.evaluations(run)
    assert after[:len(before)] == before  # nothing finished was lost or changed
    assert not {key(e["config"]) for e in before} & {key(c) for c in calls}  # nor repeated
    assert len(after) == 64 == len({key(e["config"]) for e in after}) and res.evaluated == 64 - len(before)


# --- kopt optimize: input errors ------------------------------------------------------------------------------------
def kopt(*args, env=None):
    return subprocess.run([sys.executable, "-m", "kopt.cli", *map(str, args)], capture_output=True, text=True,
                          env={**os.environ, **(env or {})})


def test_optimize_llm_workflow_without_key_points_to_tune(tmp_path):
    env = {k: v for k, v in os.environ.items() if k != "ANTHROPIC_API_KEY"}
    p = subprocess.run([sys.executable, "-m", "kopt.cli", "optimize", str(TASK), "--workflow", "refine"],
                       capture_output=True, text=True, env={**env, "KOPT_WORKSPACE": str(tmp_path)})
    assert p.returncode == 2 and "Traceback" not in p.stderr
    assert "ANTHROPIC_API_KEY" in p.stderr and "--workflow tune" in p.stderr and len(p.stderr.strip().splitlines()) == 1


def test_optimize_bad_inputs_exit_2_without_traceback(tmp_path):
    (tmp_path / "plain.cu").write_text(SYNTH.split("\n", 3)[3])
    cases = [(("optimize", tmp_path / "nope"), "no task at"),
             (("optimize", TASK, "--strategy", "annealing"), "unknown strategy 'annealing'"),
             (("optimize", TASK, "--from", tmp_path / "plain.cu"), "declares no tunables"),
             (("optimize", TASK, "--resume", "7"), "no run 7"),
             (("optimize", TASK, "--workflow", "dream"), "unknown workflow 'dream'")]
    for args, message in cases:
        p = kopt(*args, env={"KOPT_WORKSPACE": str(tmp_path)})
        assert p.returncode == 2, (args, p.stdout, p.stderr)
        assert "Traceback" not in p.stderr and p.stderr.startswith("error:") and message in p.stderr, (args, p.stderr)


def test_optimize_without_a_gpu_says_so(tmp_path):
    from kopt.device import probe

    if probe()[0] is not None:
        pytest.skip("a GPU is present")
    p = kopt("optimize", TASK, env={"KOPT_WORKSPACE": str(tmp_path)})
    assert p.returncode == 2 and "kopt optimize times candidates on a GPU" in p.stderr


def test_optimize_command_runs_the_tuner_and_writes_the_best(tmp_path, monkeypatch):
    """The command's own logic (pruning report, store, resume, table, best file) with the GPU evaluation replaced
    by a TEST DOUBLE; the real evaluation (kopt bench) is exercised on a GPU."""
    from typer.testing import CliRunner

    from kopt.cli import app

    (tmp_path / "cand.cu").write_text("// kopt: task reduce_sum\n" + PRUNE.replace("[4, 256]", "[4, 8, 256]"))
    times = {4: 30.0, 8: 25.0, 256: 1.0}  # the spilling N=256 would be fastest here, but it is pruned

    import kopt.device
    import kopt.tuner

    def fake_bench_evaluator(task, cand, **kw):  # TEST DOUBLE
        return lambda cfg: evaluation("reduce_sum", time_us=times[cfg["N"]], speedup=50.0 / times[cfg["N"]])

    # no driver answers for this GPU, so its limits come from kopt's sm_90 row
    gpu = kopt.device.GpuInfo("TEST DOUBLE", (9, 0), 13000, 132, 50 << 20)
    monkeypatch.setattr(kopt.device, "probe", lambda: (gpu, ""))
    monkeypatch.setattr(kopt.tuner, "bench_evaluator", fake_bench_evaluator)
    monkeypatch.setenv("KOPT_WORKSPACE", str(tmp_path))
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    runner = CliRunner()
    r = runner.invoke(app, ["optimize", str(TASK), "--from", str(tmp_path / "cand.cu"), "--arch", "sm_90",
                            "--budget", "1", "--no-compare"])
    assert r.exit_code == 0, r.output
    assert "no LLM configured: running the autotuner" in r.output
    assert "6 configurations, 4 pruned before any GPU time, 2 left" in r.output
    assert "budget of 1 evaluations reached" in r.output
    import kopt.comparators

    ran = []

    def fake_comparators(task, shape, **kw):  # TEST DOUBLE for the comparator subprocess (PyTorch on a GPU)
        ran.append((task.name, shape.label, kw["options"]))
        return [{"name": "eager", "what": task.torch, "median_us": 50.0, "samples_us": [50.0] * 10},
                {"name": kopt.comparators.COMPILED, "error": "compilation and autotuning exceeded the 1 s limit"}]

    monkeypatch.setattr(kopt.comparators, "run", fake_comparators)
    monkeypatch.setattr(kopt.comparators, "unavailable", lambda task: None)  # as if PyTorch were installed
    r = runner.invoke(app, ["optimize", str(TASK), "--resume", "1", "--budget", "5", "--json", "--max-time", "0.5"])
    assert r.exit_code == 0, r.output
    doc = json.loads(r.output)
    # it ends with the best candidate against the task's comparators, on the run's stopping caps
    [shape] = doc["comparison"]["shapes"]
    assert ran == [("reduce_sum", shape["shape"], {"max_time": 0.5})]
    eager, compiled = shape["comparators"]
    assert eager["vs"]["speedup"] == pytest.approx(50.0 / 25.0) and "samples_us" not in eager
    assert "exceeded" in compiled["error"]
    assert doc["evaluations"] == 2 and doc["evaluated_now"] == 1 and doc["best"]["config"] == {"N": 8, "BLOCK": 256}
    assert {p["reason"] for p in doc["pruned"]} == {"cannot launch", "spills"}
    best = Path(doc["best_path"]).read_text()
    assert "// kopt: tune N in [8]" in best and "// kopt: tune BLOCK in [256]" in best
    assert Candidate.load(best).configs().__next__() == {"N": 8, "BLOCK": 256}


def test_optimize_is_a_library_call(tmp_path):
    """kopt.optimize() owns the run (created, recorded, finished) and writes the best candidate; the evaluation is a
    TEST DOUBLE standing in for kopt bench on a GPU."""
    import kopt

    (tmp_path / "cand.cu").write_text("// kopt: task reduce_sum\n" + PRUNE.replace("[4, 256]", "[4, 8, 256]"))
    times = {4: 30.0, 8: 25.0}
    seen = []
    store = RunStore(tmp_path / ".kopt" / "runs.db")
    r = kopt.optimize(TASK, tmp_path / "cand.cu", store=store, arch="sm_90", on_space=seen.append,
                      evaluate=lambda cfg: evaluation("reduce_sum", shapes={"n=1": (times[cfg["N"]], 50.0),
                                                                            "n=2": (times[cfg["N"]] / 2, 100.0)}))
    assert seen and seen[0].total == 6 and r.evaluations == r.evaluated == 2
    assert r.best["config"] == {"N": 8, "BLOCK": 256} and r.aggregate == "geomean"
    assert r.best["speedup"] == pytest.approx((50 / 25 * 100 / 12.5) ** 0.5)  # the geometric mean over shapes
    assert r.best_path.read_text() == r.best["source"] and r.speedup_vs_default == pytest.approx(45 / 37.5)
    assert store.run(r.run)["status"] == "finished" and store.run(r.run)["aggregate"] == "geomean"
    worst = kopt.optimize(TASK, tmp_path / "cand.cu", store=store, arch="sm_90", aggregate="worst",
                          evaluate=lambda cfg: evaluation("reduce_sum", shapes={"n=1": (times[cfg["N"]], 50.0),
                                                                                "n=2": (times[cfg["N"]] / 2, 100.0)}))
    assert worst.best["speedup"] == pytest.approx(2.0)  # min(50 / 25, 100 / 12.5)


def test_optimize_without_a_start_tunes_every_known_candidate(tmp_path, monkeypatch):
    """The main job starts from what kopt knows: the task's baseline and the knowledge base's examples for the task,
    a run each, the best overall returned with the lineage of all. The evaluation is a TEST DOUBLE for kopt bench."""
    import kopt
    import kopt.kb.promote

    monkeypatch.setattr(kopt.kb.promote, "added_dir", lambda: tmp_path / "added")  # no promoted kernels here
    store = RunStore(tmp_path / ".kopt" / "runs.db")

    def fake(cfg):  # the more blocks the faster; the baseline (no BLOCKS tunable) slowest
        t = 100.0 / (1 + cfg.get("BLOCKS", 0) / 1000)
        return evaluation("reduce_sum", time_us=t, speedup=100.0 / t)

    moved = []
    r = kopt.optimize(TASK, store=store, arch="sm_90", evaluate=fake, fixed={"BLOCK": 256},
                      on_candidate=moved.append)
    labels = [row["candidate"] for row in r.lineage]
    assert sorted(labels) == ["baseline:baseline", "kb:reduce_block_atomic", "kb:reduce_two_pass",
                              "kb:reduce_warp_shuffle"] == sorted(k.label for k in moved)
    assert r.lineage[0]["best"] and r.lineage[0]["time_us"] == min(row["time_us"] for row in r.lineage)
    assert all(row["best_config"]["BLOCK"] == 256 for row in r.lineage)  # --set holds it in every candidate
    assert len({row["run"] for row in r.lineage}) == 4 and store.run(r.run)["options"]["from"] == r.lineage[0]["path"]
    assert r.best_path.read_text() == r.best["source"] and r.to_dict()["lineage"] == r.lineage
    with pytest.raises(InputError, match="does not declare"):
        kopt.optimize(TASK, TASK / "baseline.cu", store=store, arch="sm_90", evaluate=fake, fixed={"NOPE": 1})
