"""The evaluator pool's Ray backend (``--ray``): one actor per GPU of a Ray cluster (``num_gpus=1``, so Ray pins it
with CUDA_VISIBLE_DEVICES), each holding an isolated kopt worker process. The driver compiles and sends the worker's
requests to the actor, as it would to a local worker; the actor's client supervises its worker (time limits, a fresh
worker after a fatal reply). Imported only when ``--ray`` is used; Ray is the optional extra ``kopt[ray]``.
kopt must be installed on every node, with the same CUDA toolkit wheels (the driver sends the CUPTI path it found)."""
from __future__ import annotations

from typing import Callable

from .client import DEFAULT_KERNEL_TIMEOUT, WorkerClient
from .errors import GpuUnavailableError, InputError
from .extras import require
from .pool import Device, Pool, Slot, WorkerLost, gpu_record, local_devices, lost_without_reply
from .protocol import Failed
from .rules import RULES


def visible_device() -> Device:
    """The one GPU Ray gave this actor."""
    found = local_devices(limit=1)
    if not found:
        raise GpuUnavailableError("the Ray actor sees no GPU")
    return found[0]


class EvaluatorActor:
    """Runs on a Ray node, holding one GPU: a kopt worker and the requests the driver sends it."""

    def __init__(self, kernel_timeout: float, command: list[str] | None, describe: Callable[[], Device]):
        self.device = describe()
        self.client = WorkerClient(kernel_timeout, command).start()

    def describe(self) -> Device:
        return self.device

    def call(self, request):
        return self.client.call(request)

    def record(self) -> dict:  # the clocks are read on the node that holds the GPU
        return gpu_record(self.device)


class RaySlot(Slot):
    def __init__(self, ray, actor, device: Device, kernel_timeout: float):
        self.ray, self.actor, self.device, self.kernel_timeout = ray, actor, device, kernel_timeout

    def _get(self, ref):
        try:
            return self.ray.get(ref)
        except (self.ray.exceptions.RayActorError, self.ray.exceptions.NodeDiedError,
                self.ray.exceptions.WorkerCrashedError) as exc:
            self.alive = False  # Ray does not restart it (max_restarts=0): the pool goes on without this GPU
            raise WorkerLost(f"the Ray actor on {self} was lost without a reply ({type(exc).__name__})") from None

    def call(self, request, on_phase=None):
        try:
            reply = self._get(self.actor.call.remote(request))
        except WorkerLost as exc:
            if self.final:  # a second loss is the verdict, worded as the client words a dead worker
                return Failed(RULES["runtime.crash"].diag(str(exc)), fatal=True, phase="start")
            raise
        if lost_without_reply(reply) and not self.final:
            raise WorkerLost(f"the worker on {self} died without a reply: {reply.message}")
        return reply

    def record(self) -> dict:
        try:
            return self._get(self.actor.record.remote())
        except WorkerLost:
            return gpu_record(self.device) | {"clocks_mhz": None}

    def close(self) -> None:
        if self.alive:
            self.ray.kill(self.actor)


def ray_pool(address: str, *, workers: int | None = None, kernel_timeout: float = DEFAULT_KERNEL_TIMEOUT,
             command: list[str] | None = None, describe: Callable[[], Device] = visible_device) -> Pool:
    """A slot per GPU of the Ray cluster at ``address`` ("auto": the running one, or a new one on this machine;
    a process already connected keeps its connection), ``workers`` of them at most."""
    ray = require("ray")
    if not ray.is_initialized():
        try:
            ray.init(address=None if address == "auto" else address, log_to_driver=False)
        except (ConnectionError, ValueError, RuntimeError) as exc:
            raise InputError(f"--ray {address}: cannot connect to a Ray cluster: {exc}") from None
    gpus = int(ray.cluster_resources().get("GPU", 0))
    if gpus == 0:
        raise GpuUnavailableError(f"--ray {address}: the Ray cluster has no GPU")
    n = gpus if workers is None else min(workers, gpus)
    cls = ray.remote(num_gpus=1, num_cpus=0, max_restarts=0)(EvaluatorActor)
    actors = [cls.remote(kernel_timeout, command, describe) for _ in range(n)]
    try:
        devices = ray.get([a.describe.remote() for a in actors])
    except ray.exceptions.RayError as exc:
        for a in actors:
            ray.kill(a)
        cause = getattr(exc, "cause", None) or exc
        raise GpuUnavailableError(f"--ray {address}: the actors could not start: {cause}") from None
    return Pool([RaySlot(ray, a, d, kernel_timeout) for a, d in zip(actors, devices)])
