"""A stand-in worker for tests of the supervision logic: answers, crashes, hangs or raises on request.
The request types live here so both the test and the worker process (this file run as a script) can unpickle them."""
import os
import time
from dataclasses import dataclass


@dataclass(frozen=True)
class Echo:
    value: object


@dataclass(frozen=True)
class Crash:
    pass


@dataclass(frozen=True)
class Hang:
    phase: str = "kernel"


@dataclass(frozen=True)
class Fail:
    pass


@dataclass(frozen=True)
class Unknown:
    pass


@dataclass(frozen=True)
class Fault:
    """A candidate's kernel faulting: the worker replies Failed(fatal) and exits."""


def echo(request, phase):
    return {"echo": request.value, "pid": os.getpid(), "ppid": os.getppid(),
            "cuda_visible_devices": os.environ.get("CUDA_VISIBLE_DEVICES")}


def fault(request, phase):
    from kopt.worker.session import CudaError

    phase("kernel")
    raise CudaError("CUDA_ERROR_ILLEGAL_ADDRESS", "cuCtxSynchronize", during_wait=True)


def crash(request, phase):
    phase("kernel")
    os._exit(7)


def hang(request, phase):
    phase(request.phase)
    time.sleep(3600)


def fail(request, phase):
    phase("reference")
    raise ValueError("reference exploded")


if __name__ == "__main__":
    import fake_worker  # the types as the test side pickles them (this script runs as __main__)
    from kopt.worker.serve import serve

    serve({fake_worker.Echo: fake_worker.echo, fake_worker.Crash: fake_worker.crash, fake_worker.Hang: fake_worker.hang,
           fake_worker.Fail: fake_worker.fail, fake_worker.Fault: fake_worker.fault})
