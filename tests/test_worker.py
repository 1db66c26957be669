"""The worker protocol: a worker that crashes or hangs becomes a failure record and the parent carries on."""
import sys
import time
from pathlib import Path

from kopt.worker import WorkerClient, WorkerFailure

FAKE = [sys.executable, str(Path(__file__).parent / "fake_worker.py")]


def test_round_trip_and_reuse():
    with WorkerClient(command=FAKE) as w:
        a = w.request({"op": "echo", "value": 1})
        b = w.request({"op": "echo", "value": [2, 3]})
    assert a["echo"] == 1 and b["echo"] == [2, 3] and a["pid"] == b["pid"]


def test_crash_is_reported_and_next_request_gets_a_fresh_worker():
    with WorkerClient(command=FAKE) as w:
        first = w.request({"op": "echo", "value": 0})["pid"]
        failure = w.request({"op": "crash"})
        assert isinstance(failure, WorkerFailure)
        assert failure.rule == "runtime.crash" and failure.phase == "kernel" and "exit code 7" in failure.message
        again = w.request({"op": "echo", "value": 1})
        assert again["echo"] == 1 and again["pid"] != first


def test_hang_in_kernel_phase_is_killed_after_the_kernel_timeout():
    with WorkerClient(command=FAKE, kernel_timeout=0.5) as w:
        t0 = time.monotonic()
        failure = w.request({"op": "hang"})
        assert time.monotonic() - t0 < 10
        assert isinstance(failure, WorkerFailure) and failure.rule == "runtime.timeout"
        assert w.request({"op": "echo", "value": 5})["echo"] == 5


def test_exception_in_handler_is_a_reply_not_a_dead_worker():
    with WorkerClient(command=FAKE) as w:
        pid = w.request({"op": "echo", "value": 0})["pid"]
        reply = w.request({"op": "fail"})
        assert reply["event"] == "error" and "reference exploded" in reply["message"]
        assert w.request({"op": "echo", "value": 0})["pid"] == pid
        assert w.request({"op": "nope"})["rule"] == "worker.protocol"
