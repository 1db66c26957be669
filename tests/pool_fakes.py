"""TEST DOUBLES for the evaluator pool on a machine without a GPU: fake devices, workers that are tests/fake_worker.py
processes (real processes, pinned and supervised like kopt's worker), and an evaluator that goes through its slot's
worker as kopt bench does but whose times are a known function of the configuration. Shared by the local (--workers)
and the Ray tests."""
from __future__ import annotations

import os
import signal
import sys
import threading
import time
from pathlib import Path

import fake_worker
from evaluations import evaluation

from kopt.pool import Device
from kopt.protocol import Failed
from kopt.runstore import RunStore
from kopt.tuner import key

ROOT = Path(__file__).resolve().parents[1]
WORKER = [sys.executable, str(ROOT / "tests" / "fake_worker.py")]
RAY_ENV = {"env_vars": {"PYTHONPATH": str(ROOT / "tests")}}  # the actors unpickle these doubles

SOURCE = """// kopt: tune A in [1, 2, 3, 4, 5, 6]
// kopt: tune B in [1, 2, 3, 4]
// kopt: launch k grid=(1) block=(32) args=(x)
extern "C" __global__ void k(float* x) {}
"""


def fake_device(i: int, name: str = "Fake GPU") -> Device:
    return Device(name, f"GPU-fake-{i}", f"0000:{i + 1:02x}:00.0", (9, 0))


def ray_device() -> Device:
    """Run in a Ray actor: the fake GPU Ray assigned it (Ray pins an actor with num_gpus=1 by CUDA_VISIBLE_DEVICES)."""
    return fake_device(int(os.environ["CUDA_VISIBLE_DEVICES"]))


def objective(cfg: dict, model: str = "Fake GPU") -> float:
    t = 10.0 + (cfg["A"] - 4) ** 2 + (cfg["B"] - 2) ** 2
    return t / 2 if model.endswith("B") else t  # a GPU model twice as fast


class Evaluator:
    """The pool's evaluator factory (slot -> (config -> Evaluation)). ``crash``: that configuration's worker dies
    without a reply on the first attempt; ``kill``: the Ray actor holding the slot is killed on the first attempt;
    ``fault``: the worker replies Failed(fatal), as for a candidate's illegal address; ``crash_always``: the worker
    dies on every attempt."""

    def __init__(self, crash=None, kill=None, fault=None, crash_always=None, delay=0.0):
        self.crash, self.kill, self.fault, self.delay = crash, kill, fault, delay
        self.crash_always = crash_always
        self.attempts: dict[str, list[str]] = {}  # config key -> uuid of each slot that tried it
        self.threads: set[int] = set()
        self.lock = threading.Lock()

    def __call__(self, slot):
        def evaluate(cfg):
            with self.lock:
                self.attempts.setdefault(key(cfg), []).append(slot.device.uuid)
                first = len(self.attempts[key(cfg)]) == 1
                self.threads.add(threading.get_ident())
            if cfg == self.crash and first:
                slot.call(fake_worker.Crash())  # the worker exits mid-request: the slot raises WorkerLost
            if cfg == self.kill and first:
                reply = slot.call(fake_worker.Echo(None))
                os.kill(reply.payload["ppid"], signal.SIGKILL)  # the worker's parent: the Ray actor
            if cfg == self.crash_always:
                reply = slot.call(fake_worker.Crash())  # the second time, the slot returns the crash as the reply
                assert isinstance(reply, Failed) and reply.rule == "runtime.crash"
                return evaluation("synthetic", status="run-failed", config=cfg)
            if cfg == self.fault:
                reply = slot.call(fake_worker.Fault())
                assert isinstance(reply, Failed) and reply.fatal
                return evaluation("synthetic", status="run-failed", config=cfg)
            reply = slot.call(fake_worker.Echo(cfg))
            if isinstance(reply, Failed):
                return evaluation("synthetic", status="run-failed", config=cfg)
            time.sleep(self.delay)
            t = objective(cfg, slot.device.name)
            ev = evaluation("synthetic", time_us=t, speedup=20.0 / t, config=cfg)
            ev.warnings.append(f"CUDA_VISIBLE_DEVICES={reply.payload['cuda_visible_devices']}")
            return ev

        return evaluate


class WatchedStore(RunStore):
    """A run store that notes which process and thread writes candidates and evaluations."""

    def __init__(self, path):
        super().__init__(path)
        self.writers: set[tuple[int, int]] = set()

    def add_candidate(self, *a, **kw):
        self.writers.add((os.getpid(), threading.get_ident()))
        return super().add_candidate(*a, **kw)

    def record(self, *a, **kw):
        self.writers.add((os.getpid(), threading.get_ident()))
        return super().record(*a, **kw)


def seen_devices(store: RunStore, run: int) -> list[tuple[str, str]]:
    """(recorded GPU uuid, CUDA_VISIBLE_DEVICES its worker saw) of every ok evaluation of ``run``."""
    out = []
    for e in store.evaluations(run):
        if e["status"] == "ok":
            cvd = next(w for w in e["measurement"]["warnings"] if w.startswith("CUDA_VISIBLE_DEVICES="))
            out.append((e["measurement"]["gpu"]["uuid"], cvd.split("=", 1)[1]))
    return out


# a driver to kill: tunes SOURCE with a pool of two fake GPUs (local, or Ray at the address given), slowly
CHILD = """
import sys, time
sys.path[:0] = ["tests"]
import pool_fakes
from kopt.candidate import Candidate
from kopt.runstore import RunStore
from kopt.tuner import Space, tune

db, run, backend = sys.argv[1], int(sys.argv[2]), sys.argv[3]
cand = Candidate.load(pool_fakes.SOURCE)
if backend == "local":
    from kopt.pool import LocalSlot, Pool
    pool = Pool([LocalSlot(pool_fakes.fake_device(i), command=pool_fakes.WORKER).start() for i in range(2)])
else:
    import ray
    from kopt.pool_ray import ray_pool
    ray.init(address=backend, runtime_env=pool_fakes.RAY_ENV, log_to_driver=False)
    pool = ray_pool(backend, describe=pool_fakes.ray_device, command=pool_fakes.WORKER)
pool.make_evaluate = pool_fakes.Evaluator(delay=0.3)
tune(cand, Space(list(cand.configs()), []), store=RunStore(db), run=run, strategy="random", pool=pool)
"""
