"""The evaluator pool's Ray backend (--ray) on a local Ray cluster with two fake GPUs declared on the CPU: actors
pinned by Ray (num_gpus=1), scheduling, a killed actor, a faulting candidate, a killed driver plus resume and the
single-writer rule. One cluster for the module (its start is most of the time). The evaluation is a TEST DOUBLE
(pool_fakes.Evaluator) whose requests go through real worker processes under the actors."""
import os
import signal
import subprocess
import sys
import threading
import time

import pytest

ray = pytest.importorskip("ray", reason="Ray is the optional extra kopt[ray]")

from pool_fakes import CHILD, RAY_ENV, ROOT, SOURCE, WORKER, Evaluator, WatchedStore, ray_device, seen_devices  # noqa: E402

from kopt.candidate import Candidate  # noqa: E402
from kopt.pool_ray import ray_pool  # noqa: E402
from kopt.runstore import RunStore  # noqa: E402
from kopt.tuner import Space, key, tune  # noqa: E402


@pytest.fixture(scope="module")
def cluster():
    ray.init(num_cpus=2, num_gpus=2, include_dashboard=False, log_to_driver=False, runtime_env=RAY_ENV,
             object_store_memory=100 << 20)  # small: these tests pass no large objects
    yield ray.get_runtime_context().gcs_address
    ray.shutdown()


def run_tune(pool, store, run, evaluator, **kw):
    cand = Candidate.load(SOURCE)
    pool.make_evaluate = evaluator
    return tune(cand, Space(list(cand.configs()), []), store=store, run=run, pool=pool, **kw)


def test_ray_actors_hold_one_gpu_each_and_only_the_driver_writes(cluster, tmp_path):
    store, ev = WatchedStore(tmp_path / "runs.db"), Evaluator(delay=0.05)
    run = store.create_run("synthetic", workflow="tune", options={})
    with ray_pool("auto", describe=ray_device, command=WORKER) as pool:
        assert sorted(d.uuid for d in pool.devices()) == ["GPU-fake-0", "GPU-fake-1"]  # Ray gave each its own
        res = run_tune(pool, store, run, ev)
    rows = store.evaluations(run)
    assert len(rows) == res.evaluated == 24 == len({key(e["config"]) for e in rows})
    used = seen_devices(store, run)
    assert all(uuid == f"GPU-fake-{cvd}" for uuid, cvd in used) and {u for u, _ in used} == {"GPU-fake-0",
                                                                                           "GPU-fake-1"}
    assert threading.main_thread().ident not in ev.threads
    assert store.writers == {(os.getpid(), threading.main_thread().ident)}
    assert res.best["config"] == {"A": 4, "B": 2}


def test_a_killed_actor_is_retried_once_elsewhere_and_a_fault_is_the_verdict(cluster, tmp_path):
    store = RunStore(tmp_path / "runs.db")
    run = store.create_run("synthetic", workflow="tune", options={})
    ev = Evaluator(kill={"A": 2, "B": 2}, fault={"A": 3, "B": 3})
    with ray_pool("auto", describe=ray_device, command=WORKER) as pool:
        res = run_tune(pool, store, run, ev)
        assert pool.size == 1 and len(pool.lost) == 1 and "Ray actor" in pool.lost[0]
    killed = ev.attempts[key({"A": 2, "B": 2})]
    assert len(killed) == 2 and killed[0] != killed[1]
    assert len(ev.attempts[key({"A": 3, "B": 3})]) == 1
    by_key = {key(e["config"]): e for e in store.evaluations(run)}
    assert len(by_key) == 24 == res.evaluated
    assert by_key[key({"A": 2, "B": 2})]["status"] == "ok"
    assert by_key[key({"A": 3, "B": 3})]["status"] == "run-failed"


def test_killed_ray_driver_then_resume_repeats_no_finished_evaluation(cluster, tmp_path):
    db = tmp_path / "runs.db"
    store = RunStore(db)
    run = store.create_run("synthetic", workflow="tune", options={})
    child = subprocess.Popen([sys.executable, "-c", CHILD, str(db), str(run), cluster], cwd=ROOT)
    deadline = time.time() + 60
    while len(store.evaluations(run)) < 4 and time.time() < deadline and child.poll() is None:
        time.sleep(0.05)
    os.kill(child.pid, signal.SIGKILL)
    child.wait()
    before = store.evaluations(run)
    assert 4 <= len(before) < 24, "the driver should have been killed mid-run"
    ev = Evaluator()
    deadline = time.time() + 30
    while ray.available_resources().get("GPU", 0) < 2 and time.time() < deadline:
        time.sleep(0.1)  # the dead driver's actors give their GPUs back
    with ray_pool("auto", describe=ray_device, command=WORKER) as pool:
        res = run_tune(pool, store, run, ev, strategy="random")
    after = store.evaluations(run)
    assert after[:len(before)] == before
    assert not {key(e["config"]) for e in before} & set(ev.attempts)
    assert len(after) == 24 == len({key(e["config"]) for e in after}) and res.evaluated == 24 - len(before)
