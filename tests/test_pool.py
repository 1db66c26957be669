"""The evaluator pool's local backend (--workers) on the CPU: fake GPUs, real worker processes (tests/fake_worker.py)
pinned by CUDA_VISIBLE_DEVICES; scheduling, a killed worker, a faulting candidate, a killed driver plus resume, the
single-writer rule and the ranking per GPU model. The evaluation is a TEST DOUBLE (pool_fakes.Evaluator)."""
import json
import os
import signal
import subprocess
import sys
import threading
import time

import pytest

from pool_fakes import CHILD, ROOT, SOURCE, WORKER, Evaluator, WatchedStore, fake_device, seen_devices

from kopt.candidate import Candidate
from kopt.errors import GpuUnavailableError, InputError
from kopt.pool import LocalSlot, Pool, local_pool
from kopt.runstore import RunStore
from kopt.tuner import Space, key, tune

TASK = ROOT / "bench" / "tasks" / "reduce_sum"


def fake_pool(n=2, names=("Fake GPU", "Fake GPU")):
    return Pool([LocalSlot(fake_device(i, names[i]), command=WORKER).start() for i in range(n)])


def tune_with(pool, store, evaluator, **kw):
    cand = Candidate.load(SOURCE)
    run = store.create_run("synthetic", workflow="tune", options={})
    pool.make_evaluate = evaluator
    return tune(cand, Space(list(cand.configs()), []), store=store, run=run, pool=pool, **kw)


def test_workers_spread_evaluations_over_their_gpus_and_only_the_driver_writes(tmp_path):
    store, ev, states = WatchedStore(tmp_path / "runs.db"), Evaluator(delay=0.05), []
    with fake_pool() as pool:
        res = tune_with(pool, store, ev, on_state=states.append)
    rows = store.evaluations(res.run)
    assert len(rows) == res.evaluated == 24 == len({key(e["config"]) for e in rows})  # each configuration once
    assert all(len(a) == 1 for a in ev.attempts.values())
    used = seen_devices(store, res.run)
    # each evaluation records the GPU its worker was pinned to, and both GPUs worked
    assert all(cvd == uuid for uuid, cvd in used) and {u for u, _ in used} == {"GPU-fake-0", "GPU-fake-1"}
    assert max(s["running"] for s in states) == 2 and states[-1] == {"done": 24, "running": 0, "workers": 2,
                                                                     "queued": 0}
    # evaluations ran in the pool's threads; every write came from the driver's main thread
    assert threading.main_thread().ident not in ev.threads
    assert store.writers == {(os.getpid(), threading.main_thread().ident)}
    assert res.best["config"] == {"A": 4, "B": 2}


def test_a_lost_worker_is_retried_once_elsewhere_and_a_fault_is_the_verdict(tmp_path):
    store = RunStore(tmp_path / "runs.db")
    ev = Evaluator(crash={"A": 2, "B": 2}, fault={"A": 3, "B": 3})
    with fake_pool() as pool:
        res = tune_with(pool, store, ev)
        assert len(pool.lost) == 1 and "died without a reply" in pool.lost[0]
    crashed = ev.attempts[key({"A": 2, "B": 2})]
    assert len(crashed) == 2 and crashed[0] != crashed[1]  # once more, on the other GPU
    assert ev.attempts[key({"A": 3, "B": 3})] == [ev.attempts[key({"A": 3, "B": 3})][0]]  # a fault: not retried
    by_key = {key(e["config"]): e for e in store.evaluations(res.run)}
    assert len(by_key) == 24 == res.evaluated
    assert by_key[key({"A": 2, "B": 2})]["status"] == "ok" and by_key[key({"A": 2, "B": 2})]["measurement"]["gpu"][
        "uuid"] == crashed[1]
    assert by_key[key({"A": 3, "B": 3})]["status"] == "run-failed"


def test_a_second_loss_is_recorded_as_the_crash(tmp_path):
    store, ev = RunStore(tmp_path / "runs.db"), Evaluator(crash_always={"A": 1, "B": 1})
    with fake_pool() as pool:
        res = tune_with(pool, store, ev, budget=3)
    tried = ev.attempts[key({"A": 1, "B": 1})]
    assert len(tried) == 2 and tried[0] != tried[1]  # tried twice, then the crash it reports is the verdict
    rows = [e for e in store.evaluations(res.run) if e["config"] == {"A": 1, "B": 1}]
    assert len(rows) == 1 and rows[0]["status"] == "run-failed"


def test_killed_driver_then_resume_repeats_no_finished_evaluation(tmp_path):
    db = tmp_path / "runs.db"
    store = RunStore(db)
    run = store.create_run("synthetic", workflow="tune", options={})
    child = subprocess.Popen([sys.executable, "-c", CHILD, str(db), str(run), "local"], cwd=ROOT)
    deadline = time.time() + 60
    while len(store.evaluations(run)) < 4 and time.time() < deadline and child.poll() is None:
        time.sleep(0.05)
    os.kill(child.pid, signal.SIGKILL)
    child.wait()
    before = store.evaluations(run)
    assert 4 <= len(before) < 24, "the driver should have been killed mid-run"
    ev = Evaluator()
    with fake_pool() as pool:
        pool.make_evaluate = ev
        cand = Candidate.load(SOURCE)
        res = tune(cand, Space(list(cand.configs()), []), store=store, run=run, strategy="random", pool=pool)
    after = store.evaluations(run)
    assert after[:len(before)] == before
    assert not {key(e["config"]) for e in before} & set(ev.attempts)  # nothing finished was evaluated again
    assert len(after) == 24 == len({key(e["config"]) for e in after}) and res.evaluated == 24 - len(before)


def test_optimize_workers_ranks_each_gpu_model_on_its_own(tmp_path, monkeypatch):
    """``kopt optimize --workers 2`` on two fake GPU models: one progress view, and the output says the models are
    ranked apart (model B's fastest configuration is not compared with model A's)."""
    from typer.testing import CliRunner

    import kopt.pool
    import kopt.tuner
    from kopt.cli import app

    (tmp_path / "cand.cu").write_text(
        "// kopt: task reduce_sum\n// kopt: tune A in [1, 2, 3, 4, 5]\n// kopt: tune B in [2]\n"
        "// kopt: launch k grid=(cdiv(n, 256)) block=(256) args=(x, y, n)\n"
        "extern \"C\" __global__ void k(const float* x, float* y, int n) {}\n")
    ev = Evaluator(delay=0.05)
    monkeypatch.setattr(kopt.pool, "local_pool", lambda n, **kw: fake_pool(n, ("Fake GPU A", "Fake GPU B")))
    monkeypatch.setattr(kopt.tuner, "bench_evaluator", lambda task, cand, worker, **kw: ev(worker))  # TEST DOUBLE
    monkeypatch.setenv("KOPT_WORKSPACE", str(tmp_path))
    args = ["optimize", str(TASK), "--from", str(tmp_path / "cand.cu"), "--arch", "sm_90", "--workers", "2"]
    r = CliRunner().invoke(app, args + ["--json"])
    assert r.exit_code == 0, r.output
    doc = json.loads(r.output[r.output.index("{"):])
    # the first two evaluations start at once, one per GPU: both models have evaluations
    models = doc["best_by_gpu"]
    assert doc["ranked_on"] == "Fake GPU A" and set(models) == {"Fake GPU A", "Fake GPU B"}
    rows = RunStore(tmp_path / ".kopt" / "runs.db").evaluations(doc["run"])
    for m, best in models.items():  # each model's best is the fastest among its own evaluations
        assert best["time_us"] == min(e["time_us"] for e in rows if e["measurement"]["gpu"]["name"] == m)
    # model B is twice as fast: ranked together, its time would win; the best is model A's own
    assert doc["best"]["time_us"] == models["Fake GPU A"]["time_us"] > min(e["time_us"] for e in rows)
    assert RunStore(tmp_path / ".kopt" / "runs.db").run(doc["run"])["options"]["gpus"] == [
        "Fake GPU A (GPU-fake-0)", "Fake GPU B (GPU-fake-1)"]
    r = CliRunner().invoke(app, args)
    assert r.exit_code == 0, r.output
    assert "the evaluations ran on 2 GPU models; each is ranked on its own" in r.output
    assert "Fake GPU B: best" in r.output and "per GPU model" in r.output  # the table ranks model by model


def test_pool_inputs_are_clear_errors(monkeypatch, tmp_path, capsys):
    with pytest.raises(InputError, match="this machine has 2 GPU"):
        local_pool(3, devices=[fake_device(0), fake_device(1)])
    with pytest.raises(InputError, match="at least 1"):
        local_pool(0, devices=[fake_device(0)])
    with pytest.raises(GpuUnavailableError, match="none is visible"):
        local_pool(1, devices=[])
    monkeypatch.setitem(sys.modules, "ray", None)  # as if kopt[ray] were not installed
    monkeypatch.setenv("KOPT_WORKSPACE", str(tmp_path))
    from kopt.cli import main

    with pytest.raises(SystemExit) as exit_:
        main(["optimize", str(TASK), "--ray", "auto"])
    err = capsys.readouterr().err
    assert exit_.value.code == 2 and "pip install 'kopt[ray]'" in err and "Traceback" not in err


def test_workers_without_a_gpu_exit_2(tmp_path):
    from kopt.device import probe

    if probe()[0] is not None:
        pytest.skip("a GPU is present")
    p = subprocess.run([sys.executable, "-m", "kopt.cli", "optimize", str(TASK), "--workers", "2"],
                       capture_output=True, text=True, env={**os.environ, "KOPT_WORKSPACE": str(tmp_path)})
    assert p.returncode == 2 and "Traceback" not in p.stderr and p.stderr.startswith("error:"), p.stderr
