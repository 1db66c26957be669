"""The evaluator pool: evaluations run concurrently, one per GPU, each in an isolated worker process holding that GPU.

Two backends give the same slots: local (``--workers N``: a worker per GPU of this machine, pinned with
CUDA_VISIBLE_DEVICES) and Ray (``--ray``: ``kopt.pool_ray``, an actor per GPU of the cluster, ``num_gpus=1``).

Who does what: the driver (this process) compiles every candidate, for the arch of the GPU that will run it (a
slot's evaluation sees that GPU through ``kopt.device.evaluating_on``; one compile per distinct arch and
configuration, through the compile cache), and stays the only writer of the run store: the pool hands finished
Evaluations back to the calling thread, which records them. A candidate and its baseline are timed in one request,
so on the same GPU. Each Evaluation records its GPU (name, UUID, PCI bus id, clocks).

Faults: a worker that vanishes without a reply (killed, out of memory, its Ray node gone) is infrastructure loss:
the evaluation is retried once, on another slot when there is one. Every reply is a verdict, a ``Failed(fatal)`` from a
faulting candidate included, and is not retried; so is a second loss (then recorded as the crash it reports).
"""
from __future__ import annotations

import os
import queue
import threading
import time
import uuid as uuidlib
from dataclasses import dataclass, field
from typing import Callable

from .archs import arch_for_cc
from .client import DEFAULT_KERNEL_TIMEOUT, WorkerClient
from .device import GpuInfo, c_text, evaluating_on
from .errors import GpuUnavailableError, InputError
from .measurement import Evaluation
from .protocol import Failed


@dataclass(frozen=True)
class Device:
    """One GPU a slot holds, as the driver sees it."""

    name: str
    uuid: str  # "GPU-..." (CUDA_VISIBLE_DEVICES accepts it)
    pci_bus_id: str
    cc: tuple[int, int]
    driver_version: int = 0
    sm_count: int = 0
    l2_bytes: int = 0
    pin: str = ""  # what CUDA_VISIBLE_DEVICES names it by (default: the UUID)

    @property
    def arch(self) -> str:
        return arch_for_cc(*self.cc)

    def info(self) -> GpuInfo:
        return GpuInfo(self.name, self.cc, self.driver_version, self.sm_count, self.l2_bytes)


def gpu_record(device: Device) -> dict:
    """What an Evaluation records of its GPU: identity, and its clocks now (NVML, found by PCI bus id; left out
    when NVML cannot answer)."""
    rec = {"name": device.name, "uuid": device.uuid, "pci_bus_id": device.pci_bus_id, "arch": device.arch}
    try:
        import pynvml

        pynvml.nvmlInit()
        h = pynvml.nvmlDeviceGetHandleByPciBusId(device.pci_bus_id)
        rec["clocks_mhz"] = {"sm": pynvml.nvmlDeviceGetClockInfo(h, pynvml.NVML_CLOCK_SM),
                             "memory": pynvml.nvmlDeviceGetClockInfo(h, pynvml.NVML_CLOCK_MEM),
                             "sm_max": pynvml.nvmlDeviceGetMaxClockInfo(h, pynvml.NVML_CLOCK_SM)}
    except Exception:  # no NVML, or not a device NVML knows (a test's fake GPU)
        pass
    return rec


def local_devices(limit: int | None = None) -> list[Device]:
    """The GPUs this process sees, in CUDA's order. Each is pinned by its UUID, or by this process's own
    CUDA_VISIBLE_DEVICES entry for it when that is set (a MIG instance is named there as MIG-...)."""
    visible = [v.strip() for v in os.environ.get("CUDA_VISIBLE_DEVICES", "").split(",") if v.strip()]
    try:
        from cuda.bindings import driver as cu

        (err,) = cu.cuInit(0)
        if err != cu.CUresult.CUDA_SUCCESS:
            raise GpuUnavailableError(f"CUDA driver unavailable ({err.name})")
        _, count = cu.cuDeviceGetCount()
        out = []
        attr = cu.CUdevice_attribute
        _, drv = cu.cuDriverGetVersion()
        for i in range(count if limit is None else min(count, limit)):
            _, dev = cu.cuDeviceGet(i)
            vals = [cu.cuDeviceGetAttribute(a, dev)[1] for a in (
                attr.CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, attr.CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR,
                attr.CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, attr.CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE)]
            _, raw_uuid = cu.cuDeviceGetUuid(dev)
            uuid = f"GPU-{uuidlib.UUID(bytes=bytes(raw_uuid.bytes)[:16])}"
            out.append(Device(c_text(cu.cuDeviceGetName(256, dev)[1]), uuid,
                              c_text(cu.cuDeviceGetPCIBusId(64, dev)[1]), (vals[0], vals[1]), drv, vals[2], vals[3],
                              visible[i] if i < len(visible) else uuid))
        return out
    except GpuUnavailableError:
        raise
    except Exception as exc:  # no cuda-bindings or no libcuda here
        raise GpuUnavailableError(f"CUDA driver unavailable: {exc}") from None


class WorkerLost(Exception):
    """The slot's worker vanished without a reply: infrastructure loss, retried elsewhere."""


def lost_without_reply(reply) -> bool:
    """The client's own report of a worker that died before answering (``runtime.crash``)."""
    return isinstance(reply, Failed) and reply.rule == "runtime.crash"


class Slot:
    """One GPU and the worker that uses it; it answers ``call`` like a WorkerClient, so ``kopt.bench`` runs on it.
    While ``final`` is False a lost worker raises WorkerLost (the pool retries); on the retry it is the reply."""

    device: Device
    kernel_timeout: float
    final = False
    alive = True

    def call(self, request, on_phase=None):
        raise NotImplementedError

    def record(self) -> dict:
        return gpu_record(self.device)

    def close(self) -> None:
        pass

    def __str__(self):
        return f"{self.device.name} ({self.device.uuid})"


class LocalSlot(Slot):
    """A worker process on this machine pinned to ``device`` by CUDA_VISIBLE_DEVICES; a lost one is restarted by
    its client on the next call."""

    def __init__(self, device: Device, kernel_timeout: float = DEFAULT_KERNEL_TIMEOUT,
                 command: list[str] | None = None):
        self.device, self.kernel_timeout = device, kernel_timeout
        self.client = WorkerClient(kernel_timeout, command, env={"CUDA_VISIBLE_DEVICES": device.pin or device.uuid})

    def start(self) -> "LocalSlot":
        self.client.start()  # the worker sets up its GPU while the driver compiles
        return self

    def call(self, request, on_phase=None):
        reply = self.client.call(request, on_phase=on_phase)
        if lost_without_reply(reply) and not self.final:
            raise WorkerLost(f"the worker on {self} died without a reply: {reply.message}")
        return reply

    def close(self) -> None:
        self.client.close()


@dataclass
class Done:
    job: object
    evaluation: Evaluation | None
    started: float
    finished: float
    slot: str = ""
    attempts: int = 1
    error: BaseException | None = None  # a bug or a refusal in the evaluation itself: the caller re-raises it


@dataclass
class Pool:
    """Slots evaluating jobs concurrently: ``submit`` while ``idle``; ``collect`` returns each finished job (in the
    order they finish). ``make_evaluate(slot)`` gives the slot's evaluator (``job -> Evaluation``), made once per
    slot (so a slot's checked baseline is reused on its own GPU only)."""

    slots: list[Slot]
    make_evaluate: Callable[[Slot], Callable[[object], Evaluation]] | None = None
    running: int = 0
    lost: list[str] = field(default_factory=list)  # one line per infrastructure loss

    def __post_init__(self):
        if not self.slots:
            raise GpuUnavailableError("the evaluator pool has no GPU to run on")
        self._free = list(self.slots)
        self._cond = threading.Condition()
        self._done: queue.Queue[Done] = queue.Queue()
        self._evaluators: dict[int, Callable] = {}

    @property
    def size(self) -> int:
        return len([s for s in self.slots if s.alive])

    @property
    def idle(self) -> int:
        return max(self.size - self.running, 0)

    def devices(self) -> list[Device]:
        return [s.device for s in self.slots if s.alive]

    def models(self) -> list[str]:
        """The GPU models of the pool, first slot's first."""
        return list(dict.fromkeys(d.name for d in self.devices()))

    def submit(self, job) -> None:
        if self.make_evaluate is None:
            raise InputError("the evaluator pool has no evaluator")
        self.running += 1
        threading.Thread(target=self._run, args=(job, None, 1), daemon=True).start()

    def collect(self) -> Done:
        d = self._done.get()
        self.running -= 1
        return d

    def close(self) -> None:
        for s in self.slots:
            s.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    # --- in the evaluation threads --------------------------------------------------------------------------------
    def _take(self, avoid: Slot | None) -> Slot:
        with self._cond:
            while True:
                alive = [s for s in self._free if s.alive]
                others = [s for s in alive if s is not avoid]
                # elsewhere when another GPU lives; the same slot (a fresh worker) when it is the only one
                if others or (alive and not any(s.alive and s is not avoid for s in self.slots)):
                    slot = (others or alive)[0]
                    self._free.remove(slot)
                    return slot
                if not any(s.alive for s in self.slots):
                    raise GpuUnavailableError("every worker of the evaluator pool was lost: " + "; ".join(self.lost))
                self._cond.wait()

    def _give(self, slot: Slot) -> None:
        with self._cond:
            self._free.append(slot)
            self._cond.notify_all()

    def _evaluator(self, slot: Slot):
        if id(slot) not in self._evaluators:
            self._evaluators[id(slot)] = self.make_evaluate(slot)
        return self._evaluators[id(slot)]

    def _run(self, job, avoid: Slot | None, attempt: int) -> None:
        started = time.time()
        try:
            slot = self._take(avoid)
        except BaseException as exc:
            self._done.put(Done(job, None, started, time.time(), attempts=attempt, error=exc))
            return
        retry = False
        try:
            slot.final = attempt > 1
            with evaluating_on(slot.device.info()):
                res = self._evaluator(slot)(job)
            res.gpu = slot.record()
            self._done.put(Done(job, res, started, time.time(), str(slot), attempt))
        except WorkerLost as exc:
            self.lost.append(str(exc))
            retry = True
        except BaseException as exc:
            self._done.put(Done(job, None, started, time.time(), str(slot), attempt, error=exc))
        finally:
            self._give(slot)
        if retry:  # not the candidate's verdict: once more, elsewhere
            self._run(job, slot, attempt + 1)


def local_pool(workers: int, *, kernel_timeout: float = DEFAULT_KERNEL_TIMEOUT,
               command: list[str] | None = None, devices: list[Device] | None = None) -> Pool:
    """``workers`` slots on this machine's GPUs (``devices``: the GPUs to use, default all CUDA sees), their
    workers started at once."""
    if workers < 1:
        raise InputError(f"--workers {workers}: give at least 1")
    found = devices if devices is not None else local_devices()
    if not found:
        raise GpuUnavailableError("--workers needs a GPU: none is visible")
    if workers > len(found):
        raise InputError(f"--workers {workers}: this machine has {len(found)} GPU(s) "
                         f"({', '.join(d.name for d in found)}); one worker holds one GPU")
    return Pool([LocalSlot(d, kernel_timeout, command).start() for d in found[:workers]])
