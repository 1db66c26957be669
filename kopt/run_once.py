"""Run a candidate's declared launches once, in a process of its own, so ncu or compute-sanitizer can wrap it.

``python -m kopt.run_once --request FILE`` reads a pickled request written by the parent (``write_request``):
task, shape, cubin, plan, seed, candidate name, ``warmup`` (launch sequences before the measured one) and
``fill_outputs`` (False under initcheck: outputs and poison scratch stay unwritten so reads before writes show).
Exit codes: 0 ran; 2 no usable GPU; 3 a CUDA error (fault); 4 the launch does not fit the kernel.
Each failure prints one line ``kopt.run_once: <kind>: <message>`` on stderr for the parent to read.
"""
from __future__ import annotations

import argparse
import pickle
import sys
import tempfile
from pathlib import Path

MARK = "kopt.run_once:"
EXIT_NO_GPU, EXIT_CUDA, EXIT_LAUNCH = 2, 3, 4


def build_request(task, candidate, *, shape=None, config=None, arch=None, seed: int = 0, warmup: int = 1,
                  fill_outputs: bool = True):
    """Compile on the CPU and resolve the launches: (request dict, Candidate, Artifact)."""
    from .build import build

    b = build(task, candidate, config, arch)
    shape = shape or (task.timed_shapes or task.shapes)[0]
    request = {"task": task, "shape": shape, "cubin": b.artifact.cubin, "plan": b.plan(shape), "seed": seed,
               "candidate": b.candidate.name, "warmup": warmup, "fill_outputs": fill_outputs}
    return request, b.candidate, b.artifact


def write_request(request: dict, folder: str | None = None) -> Path:
    f = tempfile.NamedTemporaryFile(prefix="kopt-run-once-", suffix=".pkl", dir=folder, delete=False)
    with f:
        pickle.dump(request, f, protocol=pickle.HIGHEST_PROTOCOL)
    return Path(f.name)


def command(request_path: Path) -> list[str]:
    return [sys.executable, "-m", "kopt.run_once", "--request", str(request_path)]


def failure(stderr: str) -> tuple[str, str] | None:
    """(kind, message) from the run-once marker line in a tool's combined output, if any."""
    for line in stderr.splitlines():
        line = line.lstrip("= ").strip()
        if line.startswith(MARK):
            kind, _, msg = line[len(MARK):].strip().partition(": ")
            return kind, msg
    return None


def _fill(runner, task, prepared, inputs, fill_outputs: bool):
    if fill_outputs:
        runner.reset_outputs(task, prepared, inputs)
        return
    gpu = runner.gpu
    for a in task.args:
        if a.is_buffer and a.role != "out":
            gpu.upload(prepared.buffers[a.name], inputs[a.name])
    for buf, dt, init in prepared.scratch.values():
        if init == "zero":
            gpu.fill(buf, dt, 0)


def run(request: dict) -> None:
    from .gpu import GpuSession
    from .inputs import generate
    from .runner import CheckRunner

    runner = CheckRunner(GpuSession())
    task, shape = request["task"], request["shape"]
    prepared = runner.prepare(task, shape, request["cubin"], request["plan"], request["candidate"])
    inputs = generate(task, shape, request["seed"])
    _fill(runner, task, prepared, inputs, request.get("fill_outputs", True))
    for _ in range(int(request.get("warmup", 1))):
        runner.launch_all(prepared)
    runner.gpu.synchronize("warm-up launches")
    runner.launch_all(prepared)
    runner.gpu.synchronize()
    runner.release(prepared)


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="python -m kopt.run_once")
    p.add_argument("--request", required=True)
    args = p.parse_args(argv)
    from .errors import GpuUnavailableError
    from .gpu import CudaError
    from .params import LaunchSpecError

    with open(args.request, "rb") as f:
        request = pickle.load(f)
    try:
        run(request)
    except GpuUnavailableError as exc:
        print(f"{MARK} no-gpu: {exc.message}", file=sys.stderr)
        return EXIT_NO_GPU
    except CudaError as exc:
        print(f"{MARK} {exc.rule}: {exc}", file=sys.stderr)
        return EXIT_CUDA
    except LaunchSpecError as exc:
        print(f"{MARK} launch.mismatch: {exc}", file=sys.stderr)
        return EXIT_LAUNCH
    return 0


if __name__ == "__main__":
    sys.exit(main())
