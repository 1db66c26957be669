"""Inputs and reference outputs of a PyTorch-problem task (``kopt.torch_problem``), in the worker (or in
``kopt validate``'s probe): the module's sizes set to the shape's, its parameters from ``Model(*get_init_inputs())``
(or a plain function as the reference) and fresh inputs from ``get_inputs()`` under kopt's seed, then the forward in
float64 where the ops allow it (otherwise in the problem's own precision with TF32 off). The helpers that run a
problem's code (``instantiate``, ``set_symbols``, ``stage``) are shared with ``torch_problem``'s describe step."""
from __future__ import annotations

import copy
import math
from typing import TYPE_CHECKING

from .task import Shape, Task

if TYPE_CHECKING:
    import numpy as np


class ProblemError(ValueError):
    """The problem's own code failed or returned something kopt cannot pass to a kernel."""


def stage(what: str, fn, *args):
    try:
        return fn(*args)
    except ProblemError:
        raise
    except Exception as exc:
        raise ProblemError(f"{what} raised {type(exc).__name__}: {exc}") from None


def instantiate(module, ref_name: str):
    """(the callable reference, its state dict): a Model built from ``get_init_inputs()``, or a plain function."""
    ref = getattr(module, ref_name)
    if not isinstance(ref, type):
        return ref, {}
    init = stage("get_init_inputs()", module.get_init_inputs)
    model = stage(f"{ref_name}(*get_init_inputs())", ref, *init)
    return model, dict(model.state_dict())


def set_symbols(module, symbols: dict) -> None:
    """Bind the module's size constants to ``symbols`` (others are left alone)."""
    tuples: dict[str, dict[int, int]] = {}
    for k, v in symbols.items():
        base, sep, idx = k.rpartition("__")
        if sep and idx.isdigit() and isinstance(getattr(module, base, None), tuple):
            tuples.setdefault(base, {})[int(idx)] = int(v)
        elif isinstance(getattr(module, k, None), int) and not isinstance(getattr(module, k), bool):
            setattr(module, k, int(v))
    for base, parts in tuples.items():
        old = list(getattr(module, base))
        for i, v in parts.items():
            if i < len(old):
                old[i] = v
        setattr(module, base, tuple(old))


def is_torch_task(task: Task) -> bool:
    return any(a.torch for a in task.args)


def _storage(t, dt) -> np.ndarray:
    """A tensor as kopt's host storage for ``dt`` (bf16 as its 16-bit pattern)."""
    import numpy as np
    import torch

    t = t.detach().to("cpu").contiguous()
    if dt.name == "bf16":
        return t.view(torch.int16).numpy().view(np.uint16)
    if t.dtype == torch.bool:
        return t.to(torch.uint8).numpy()
    return t.numpy().astype(dt.storage, copy=False)


def case(task: Task, shape: Shape, seed: int, device: str = "cuda") -> tuple[dict, dict]:
    """(kernel inputs as host arrays, expected outputs as float64 or integer arrays) for one seed."""
    values, outputs = _run(task, shape, seed, device)
    host = {name: _storage(values[name], task.arg(name).dtype) for name in values}
    expected = {}
    for a in task.args:
        if a.torch and a.role == "out":
            out = outputs[int(a.torch.partition(" ")[2])].detach().to("cpu")
            arr = out.double().numpy() if out.is_floating_point() else out.numpy()
            expected[a.name] = arr.reshape(task.shape_of(a, shape))
    return host, expected


def device_case(task: Task, shape: Shape, seed: int) -> tuple[dict, dict, list]:
    """(kernel inputs, expected outputs as float64, the tensors to keep alive) for one seed, all on the GPU:
    inputs as contiguous tensors of the task's storage types, outputs as contiguous float64 tensors."""
    import torch

    values, outputs = _run(task, shape, seed, "cuda")
    inputs = {name: _device_storage(t, task.arg(name).dtype) for name, t in values.items()}
    expected = {}
    for a in task.args:
        if a.torch and a.role == "out":
            out = outputs[int(a.torch.partition(" ")[2])].detach()
            if out.numel() != math.prod(task.shape_of(a, shape)):
                raise ProblemError(f"forward output {a.torch.partition(' ')[2]} has {out.numel()} elements; "
                                   f"{a.name} declares {task.shape_of(a, shape)} at {shape.label}")
            expected[a.name] = out.to(torch.float64).contiguous()
    torch.cuda.synchronize()
    return inputs, expected, [*inputs.values(), *expected.values()]


def _device_storage(t, dt):
    """A tensor as a contiguous tensor on the GPU holding kopt's storage for ``dt`` (bf16 as bfloat16 bits)."""
    import torch

    t = t.detach()
    want = {"f64": torch.float64, "f32": torch.float32, "f16": torch.float16, "bf16": torch.bfloat16}.get(dt.name)
    if want is None:
        want = getattr(torch, {"i64": "int64", "i32": "int32", "i16": "int16", "i8": "int8", "u8": "uint8",
                               "u16": "uint16", "u32": "uint32", "u64": "uint64"}[dt.name])
    if t.dtype == torch.bool:
        t = t.to(torch.uint8)
    return t.to(device="cuda", dtype=want).contiguous()


def _run(task: Task, shape: Shape, seed: int, device: str) -> tuple[dict, list]:
    """(the kernel's input tensors by argument name, the forward's outputs) for one seed."""
    import torch

    from . import reference
    from .expr import evaluate

    module = reference.module(task)
    reference.load(task)  # a missing class or function is named here
    set_symbols(module, shape.symbols)
    torch.manual_seed(seed)
    with torch.device(device):
        model, state = instantiate(module, task.reference.partition(":")[2])
        inputs = list(stage("get_inputs()", module.get_inputs))
    values = {}
    for a in task.args:
        if not a.torch or a.role == "out":
            continue
        kind, _, key = a.torch.partition(" ")
        if a.role == "scalar":  # passed to the kernel as the task's constant: the problem must agree every time
            given, declared = inputs[int(key)], evaluate(a.value, shape.symbols)
            if given != declared:
                raise ProblemError(f"get_inputs() item {key} is {given!r} here but {a.name} = {declared!r} in the "
                                   f"task: kopt passes it as a constant, so it must not change between calls")
            continue
        values[a.name] = inputs[int(key)] if kind == "input" else state[key]
    return values, _forward(model, inputs)


def _forward(model, inputs) -> list:
    """The forward in float64 (a copy of the model and the floating inputs); where an op has no float64 kernel, in
    the inputs' own precision with TF32 off."""
    import torch

    def run(m, xs):
        with torch.no_grad():
            out = m(*xs)
        return list(out) if isinstance(out, (tuple, list)) else [out]

    try:
        m64 = copy.deepcopy(model).to(torch.float64) if isinstance(model, torch.nn.Module) else model
        return run(m64, [x.to(torch.float64) if torch.is_tensor(x) and x.is_floating_point() else x for x in inputs])
    except (RuntimeError, NotImplementedError, TypeError):
        tf32 = torch.backends.cuda.matmul.allow_tf32, torch.backends.cudnn.allow_tf32
        torch.backends.cuda.matmul.allow_tf32 = torch.backends.cudnn.allow_tf32 = False
        try:
            return run(model, inputs)
        finally:
            torch.backends.cuda.matmul.allow_tf32, torch.backends.cudnn.allow_tf32 = tf32
