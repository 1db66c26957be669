"""GPU: the worker's replies for a kernel that faults and one that hangs, straight from the protocol: Failed with
the rule, the phase, whether it was fatal and whether the CUDA error is sticky; the next request gets a fresh
worker."""
from pathlib import Path

import pytest

from kopt.build import build
from kopt.client import WorkerClient
from kopt.protocol import CheckRequest, Failed, Ok
from kopt.task import Task

ROOT = Path(__file__).resolve().parents[2]
PLANTED = Path(__file__).parent / "planted"
pytestmark = pytest.mark.gpu


def request(task, name):
    shape = [s for s in task.shapes if not s.timed][0]
    b = build(task, PLANTED / name)
    return CheckRequest(task, [shape], [b.plan(shape)], b.artifact.cubin, [1, 2, 3], name)


def test_an_illegal_address_and_a_hang_are_failed_replies():
    task = Task.load(ROOT / "bench" / "tasks" / "vector_add")
    with WorkerClient(kernel_timeout=5.0) as worker:
        fault = worker.call(request(task, "illegal_address.cu"))
        assert isinstance(fault, Failed), fault
        assert (fault.rule, fault.phase, fault.fatal, fault.sticky) == ("runtime.illegal-address", "kernel", True, True)
        # a store 1 GiB past the buffer faults as either, depending on what the driver has mapped there
        assert fault.cuda_error in ("CUDA_ERROR_ILLEGAL_ADDRESS", "CUDA_ERROR_INVALID_ADDRESS_SPACE")
        assert worker.proc is None  # the worker is gone
        ok = worker.call(request(task, "good.cu"))
        assert isinstance(ok, Ok) and ok.payload["shapes"][0]["ok"]
        hang = worker.call(request(task, "infinite_loop.cu"))
        assert isinstance(hang, Failed), hang
        assert (hang.rule, hang.phase, hang.fatal, hang.sticky) == ("runtime.timeout", "kernel", True, False)
        assert isinstance(worker.call(request(task, "good.cu")), Ok)
