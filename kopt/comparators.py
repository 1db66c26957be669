"""Comparators on kopt's clock: what a user would run instead of a candidate, timed like the candidate.

For a task with a PyTorch form — a ``torch = "..."`` expression in task.toml (arguments by name, size symbols,
``torch`` and ``F``), or a PyTorch problem's Model — the comparators are the eager call (the library: cuBLAS through
``torch.mm``, SDPA, ...) and ``torch.compile(mode="max-autotune")`` of it. Each is timed by ``kopt.time``: CUPTI kernel
records, L2 flushed before every sample, the same stopping rule as the candidate. The compiled one's first calls
(compilation and autotuning) are timed apart and bounded by ``compile_limit`` seconds.

Everything runs in a subprocess (``python -m kopt.comparators``): PyTorch and its compiler stay out of the caller's
process, and a compilation past its limit is stopped by killing that process (the child marks when compiling
starts). Each finished comparator is written as one JSON line at once, so what was measured before a limit was hit
is kept.
"""
from __future__ import annotations

import argparse
import importlib.util
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from .errors import InputError
from .task import Shape, Task

COMPILE_LIMIT = 600.0  # seconds torch.compile(mode="max-autotune") may take (compile and autotune) per shape
EAGER_LIMIT = 120.0  # seconds for building the inputs and timing the eager calls
COMPILED = "torch.compile max-autotune"
# The harness options a comparator shares with the candidate's timing: the stopping rule and its caps (a comparator
# is always cold, never a graph).
STOPPING_KEYS = ("min_samples", "min_time", "max_time", "max_samples", "stop", "stop_params", "clock_floor")
_TORCH_DTYPES = {"f64": "float64", "f32": "float32", "f16": "float16", "bf16": "bfloat16", "i64": "int64",
                 "i32": "int32", "i16": "int16", "i8": "int8", "u8": "uint8", "u16": "uint16", "u32": "uint32",
                 "u64": "uint64"}


def unavailable(task: Task) -> str | None:
    """Why ``task`` has no comparators here (one line), or None."""
    from .torch_reference import is_torch_task

    if not task.torch and not is_torch_task(task):
        return f"task {task.name} has no PyTorch form (a torch = \"...\" expression in task.toml)"
    if importlib.util.find_spec("torch") is None:
        return "PyTorch is not installed"
    return None


def run(task: Task, shape: Shape, *, options: dict | None = None, compile_limit: float = COMPILE_LIMIT,
        extra: dict[str, str] | None = None, compiled: bool = True) -> list[dict]:
    """The comparators of ``task`` at ``shape``: eager (and ``extra`` eager expressions, name -> expression), then
    torch.compile max-autotune unless ``compiled`` is False. ``options``: the harness options the candidate was timed
    with (its stopping rule and caps are used). Each result: name, what ran, median_us, summary, samples_us,
    method, kernels; the compiled one also compile_s; a comparator that failed or ran out of time has ``error``
    instead. The eager part may take EAGER_LIMIT seconds per expression, compiling and autotuning ``compile_limit``,
    timing the compiled function EAGER_LIMIT again."""
    why = unavailable(task)
    if why:
        raise InputError(f"no comparators: {why}")
    with tempfile.TemporaryDirectory(prefix="kopt-cmp-") as tmp:
        out, err = Path(tmp, "results.jsonl"), Path(tmp, "stderr.txt")
        stopping = {k: v for k, v in (options or {}).items() if k in STOPPING_KEYS}
        request = {"task": str(task.path), "shape": shape.symbols, "options": stopping,
                   "extra": dict(extra or {}), "compiled": compiled, "out": str(out)}
        Path(tmp, "request.json").write_text(json.dumps(request))
        cmd = [sys.executable, "-m", "kopt.comparators", str(Path(tmp, "request.json"))]
        with err.open("w") as stderr:
            proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=stderr, text=True)
            error = _watch(proc, out, EAGER_LIMIT * (1 + len(extra or {})), compile_limit)
        if not error and proc.returncode != 0:
            tail = (err.read_text(errors="replace").strip().splitlines() or [f"exit code {proc.returncode}"])[-1]
            error = f"the comparator process failed: {tail[:300]}"
        lines = [json.loads(line) for line in out.read_text().splitlines()] if out.exists() else []
    return _complete([r for r in lines if not r["name"].startswith("_")], error, list(extra or {}), compiled,
                     compile_limit)


def _watch(proc, out: Path, eager_limit: float, compile_limit: float) -> str:
    """Waits for the comparator process, killing it past its limits: the eager part's, then from the child's
    ``_compiling`` mark the compile limit, then from its ``_compiled`` mark the eager limit again. Returns "" or
    which limit was hit."""
    deadline, phase = time.monotonic() + eager_limit, "eager"
    while proc.poll() is None:
        time.sleep(0.2)
        marks = out.read_text() if out.exists() else ""
        if phase == "eager" and '"_compiling"' in marks:
            deadline, phase = time.monotonic() + compile_limit, "compile"
        if phase == "compile" and '"_compiled"' in marks:
            deadline, phase = time.monotonic() + eager_limit, "compiled"
        if time.monotonic() > deadline:
            proc.kill()
            proc.wait()
            return "compile limit" if phase == "compile" else "time limit"
    return ""


def _complete(results: list[dict], error: str, extra: list[str], compiled: bool, compile_limit: float) -> list[dict]:
    """Every comparator asked for, in order: the measured ones, and for the others why they are missing."""
    names = ["eager", *extra] + ([COMPILED] if compiled else [])
    have = {r["name"]: r for r in results}
    out = []
    for name in names:
        if name in have:
            out.append(have[name])
        elif error == "compile limit" and name == COMPILED:
            out.append({"name": name, "error": f"compilation and autotuning exceeded the {compile_limit:g} s limit: "
                                               "not timed"})
        elif error == "time limit":
            out.append({"name": name, "error": f"timing took longer than the {EAGER_LIMIT:g} s allowed: stopped"})
        else:
            out.append({"name": name, "error": error or "not measured"})
    return out


def speedups(candidate_samples: list, comparators: list[dict]) -> list[dict]:
    """Per measured comparator, the candidate's comparison with it (comparator median / candidate median; > 1: the
    candidate is faster) with the bootstrap CI and verdict of ``kopt.stats.compare``."""
    from .stats import compare

    out = []
    for c in comparators:
        if c.get("samples_us") and candidate_samples:
            out.append({"name": c["name"], **compare(c["samples_us"], candidate_samples).to_dict()})
    return out


# --- the subprocess ------------------------------------------------------------------------------------------------
def tensors(task: Task, shape: Shape, torch, device: str = "cuda") -> dict:
    """The task's arguments as tensors (inputs drawn as the task's init says, outputs empty) and scalars, by name,
    with the size symbols."""
    gen = torch.Generator(device=device).manual_seed(0)
    env: dict = dict(shape.symbols)
    for a in task.args:
        if not a.is_buffer:
            env[a.name] = task.scalar(a, shape)
            continue
        dims = task.shape_of(a, shape)
        dt = getattr(torch, _TORCH_DTYPES[a.dtype.name])
        if a.role == "out":
            env[a.name] = torch.empty(dims, dtype=dt, device=device)
            continue
        init = a.init
        if a.dtype.is_float and init.get("kind", "normal") == "normal":
            t = torch.randn(dims, device=device, generator=gen) * float(init.get("std", 1.0)) + float(init.get("mean", 0))
        elif a.dtype.is_float:
            low, high = float(init.get("low", 0.0)), float(init.get("high", 1.0))
            t = torch.rand(dims, device=device, generator=gen) * (high - low) + low
        else:
            t = torch.randint(int(init.get("low", 0)), int(init.get("high", 100)), dims, device=device,
                              generator=gen)
        env[a.name] = t.to(dt)
    return env


def expression(text: str, env: dict, torch):
    """The task's PyTorch expression as a function of no arguments over ``env`` (``tensors``)."""
    import torch.nn.functional as F

    return eval(f"lambda: ({text})", {"torch": torch, "F": F, **env})  # the task's own code, like its reference


def callables(task: Task, shape: Shape, extra: dict[str, str], torch,
              device: str = "cuda") -> list[tuple[str, str, object]]:
    """(name, what runs, a function of no arguments) for the eager comparators."""
    if task.torch:
        env = tensors(task, shape, torch, device)
        return [(name, text, expression(text, env, torch)) for name, text in [("eager", task.torch), *extra.items()]]
    from . import reference
    from .torch_reference import instantiate, set_symbols, stage

    module = reference.module(task)
    set_symbols(module, shape.symbols)
    torch.manual_seed(0)
    ref_name = task.reference.partition(":")[2]
    with torch.device(device):
        model, _ = instantiate(module, ref_name)
        inputs = list(stage("get_inputs()", module.get_inputs))

    def forward():
        with torch.no_grad():
            return model(*inputs)

    return [("eager", f"{ref_name}.forward (PyTorch eager)", forward)]


# SDPA picks one of several backends at run time; the kernels that ran say which (checked in this order: cuDNN's
# kernel names contain "flash" too).
_SDPA_BACKENDS = (("cudnn", "cuDNN"), ("flash", "flash attention"), ("fmha", "memory-efficient"),
                  ("efficient_attention", "memory-efficient"))


def sdpa_backend(kernels: dict) -> str | None:
    """Which scaled_dot_product_attention backend ran, from the names of the kernels it launched."""
    names = " ".join(kernels).lower()
    for key, backend in _SDPA_BACKENDS:
        if key in names:
            return backend
    return "math (matmuls and a softmax)" if "softmax" in names else None


def _measure(fn, what: str, options: dict) -> dict:
    """``fn`` timed by ``kopt.time``; an SDPA call (``what``) also names the backend that ran."""
    from .timer import time as kopt_time

    m = kopt_time(fn, options=options)
    if m.summary is None:
        return {"error": m.method_note or "nothing was timed", "method": m.method, "stop_reason": m.stop_reason}
    row = {"median_us": m.median, "summary": m.summary.to_dict(), "samples_us": m.samples_us, "method": m.method,
           "method_note": m.method_note, "stop_reason": m.stop_reason, "kernels": m.kernels}
    if "scaled_dot_product_attention" in what:
        row["backend"] = sdpa_backend(m.kernels)
    return row


def _child(request_path: str) -> None:
    import torch

    req = json.loads(Path(request_path).read_text())
    out = Path(req["out"])
    task = Task.load(req["task"])
    shape = Shape({k: int(v) for k, v in req["shape"].items()}, True)
    options = req["options"]

    def emit(row: dict) -> None:
        with out.open("a") as f:
            f.write(json.dumps(row) + "\n")

    first = None
    for name, what, fn in callables(task, shape, req["extra"], torch):
        try:
            fn()
            torch.cuda.synchronize()
            emit({"name": name, "what": what, **_measure(fn, what, options)})
            first = first or (what, fn)
        except Exception as exc:
            emit({"name": name, "what": what, "error": f"{type(exc).__name__}: {str(exc)[:300]}"})
    if not req["compiled"]:
        return
    if first is None:
        emit({"name": COMPILED, "error": "the eager call failed: nothing to compile"})
        return
    what, fn = first
    try:
        emit({"name": "_compiling"})  # the parent's compile limit runs from here
        t0 = time.perf_counter()
        compiled = torch.compile(fn, mode="max-autotune")
        compiled()  # compiles and autotunes
        compiled()
        torch.cuda.synchronize()
        compile_s = time.perf_counter() - t0
        emit({"name": "_compiled"})
        emit({"name": COMPILED, "what": f"torch.compile({what}, mode='max-autotune')", "compile_s": compile_s,
              **_measure(compiled, what, options)})
    except Exception as exc:
        emit({"name": COMPILED, "what": what, "error": f"{type(exc).__name__}: {str(exc)[:300]}"})


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(prog="python -m kopt.comparators", description=__doc__.splitlines()[0])
    ap.add_argument("request", help="the request JSON written by kopt.comparators.run")
    _child(ap.parse_args(argv).request)


if __name__ == "__main__":
    main()
