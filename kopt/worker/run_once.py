"""``python -m kopt.worker.run_once --request FILE``: run a candidate's declared launches once, in a process of its
own, so that ncu or compute-sanitizer can wrap it. The request (``kopt.protocol.RunOnceRequest``, pickled by the
parent) names the file the reply is written to as JSON: ``{"ok": true}`` or a ``Failed``."""
from __future__ import annotations

import argparse
import json
import pickle
import sys

from ..inputs import generate
from ..protocol import RunOnceRequest
from .cases import Case
from .serve import failure


def _fill(runner, task, prepared, inputs, fill_outputs: bool):
    if fill_outputs:
        runner.reset_outputs(task, prepared, Case(inputs, {}, False, {}, "cpu"))
        return
    gpu = runner.gpu
    for a in task.args:  # under initcheck: outputs and poison scratch stay unwritten so reads before writes show
        if a.is_buffer and a.role != "out":
            gpu.upload(prepared.buffers[a.name], inputs[a.name])
    for buf, dt, init in prepared.scratch.values():
        if init == "zero":
            gpu.fill(buf, dt, 0)


def run(request: RunOnceRequest, phase) -> None:
    from .runner import CheckRunner
    from .session import GpuSession

    phase("setup")
    runner = CheckRunner(GpuSession())  # no check kernels: the profiler and sanitizer see the candidate's only
    prepared = runner.prepare(request.task, request.shape, request.cubin, request.plan, request.candidate)
    _fill(runner, request.task, prepared, generate(request.task, request.shape, request.seed), request.fill_outputs)
    phase("kernel")
    for _ in range(request.warmup):
        runner.launch_all(prepared)
    runner.gpu.synchronize("warm-up launches")
    runner.launch_all(prepared)
    runner.gpu.synchronize()
    runner.release(prepared)


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="python -m kopt.worker.run_once")
    p.add_argument("--request", required=True)
    args = p.parse_args(argv)
    with open(args.request, "rb") as f:
        request: RunOnceRequest = pickle.load(f)
    current = {"phase": "start"}
    reply: dict = {"ok": True}
    try:
        run(request, lambda name, limit=None: current.update(phase=name))
    except Exception as exc:  # every failure is the reply, read by the parent
        reply = failure(exc, current["phase"]).to_dict()
    with open(request.reply_path, "w") as f:
        json.dump(reply, f)
    return 0 if reply.get("ok") else 1


if __name__ == "__main__":
    sys.exit(main())
