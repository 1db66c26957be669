"""PyTorch problems as kopt tasks: KernelBench's format (an ``nn.Module`` class ``Model`` with ``get_inputs()`` and
``get_init_inputs()``, its sizes as module-level integer constants) becomes a task directory.

kopt reads the problem in a subprocess with a time limit (it is somebody's code), on PyTorch's ``meta`` device, so
no tensor is allocated and a problem of gigabytes is described in a second: the arguments are the forward's inputs
(named like its parameters), the module's parameters and buffers, and the outputs; the sizes are the module's integer
constants (a tuple constant ``s = (a, b)`` gives ``s__0`` and ``s__1``). A tensor dimension that is one of those
constants is written as its name (checked by doubling the constant); any other dimension (a convolution's output
size) gets a symbol of its own, bound in each shape. Besides the problem's own shape (timed), kopt adds a small shape
with odd sizes when the problem still makes sense there, so boundary bugs show on the first check.

The task runs the problem on the GPU in the worker (``kopt.torch_reference``): fresh inputs from ``get_inputs()``
under kopt's seed for every trial, the reference in float64 where the ops allow it.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import math
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from .errors import InputError
from .torch_reference import ProblemError, instantiate, set_symbols, stage

DESCRIBE_TIMEOUT = 120.0
SMALL_ELEMENTS = 1 << 18  # the small shape aims at about this many input elements
_TORCH_DTYPES = {"float32": "f32", "float64": "f64", "float16": "f16", "bfloat16": "bf16", "int64": "i64",
                 "int32": "i32", "int16": "i16", "int8": "i8", "uint8": "u8", "bool": "u8"}


# --- the parent's side -----------------------------------------------------------------------------------------
def split_reference(spec: str | Path) -> tuple[Path, str]:
    """``problem.py`` or ``problem.py:NAME`` (a class or a function; default ``Model``) as (path, name)."""
    text = str(spec)
    path, sep, name = text.rpartition(":")
    if sep and path.endswith(".py") and re.fullmatch(r"[A-Za-z_]\w*", name):
        return Path(path), name
    return Path(text), "Model"


def describe(problem: str | Path, timeout: float = DESCRIBE_TIMEOUT, reference: str = "Model") -> dict:
    """The problem's arguments and shapes, read in a subprocess (``python -m kopt.torch_problem``); ``reference``:
    the Model class or the function to call."""
    problem = Path(problem)
    if not problem.is_file():
        raise InputError(f"cannot read {problem}: no such file")
    with tempfile.TemporaryDirectory(prefix="kopt-torch-") as tmp:
        out = Path(tmp, "problem.json")
        cmd = [sys.executable, "-m", "kopt.torch_problem", str(problem.resolve()), "--reference", reference,
               "--out", str(out)]
        try:
            proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
        except subprocess.TimeoutExpired:
            raise InputError(f"{problem}: reading the problem took longer than {timeout:g} s")
        if not out.is_file():
            tail = (proc.stderr.strip().splitlines() or [f"exit code {proc.returncode}"])[-1]
            raise InputError(f"{problem}: the problem could not be read ({tail})")
        desc = json.loads(out.read_text())
    if desc.get("error"):
        raise InputError(f"{problem}: {desc['error']}")
    return desc


def task_toml(desc: dict, name: str, reference: str = "reference.py") -> str:
    """The task.toml text of a described problem (``reference`` is the problem file's name in the task folder)."""
    def value(v):
        return json.dumps(v)

    lines = [f"name = {value(name)}",
             f"description = {value('PyTorch problem ' + desc['problem'] + ' (' + desc['model'] + '); args from its inputs, parameters and outputs')}",
             f'reference = "{reference}:{desc["model"]}"', "args = ["]
    for a in desc["args"]:
        fields = {"name": a["name"], "dtype": a["dtype"]}
        if "value" in a:
            fields["value"] = a["value"]
            if "torch" in a:
                fields["torch"] = a["torch"]
        else:
            fields.update(shape=a["shape"], role=a["role"], torch=a["torch"])
        lines.append("  { " + ", ".join(f"{k} = {value(v)}" for k, v in fields.items()) + " },")
    lines.append("]")
    lines.append("shapes = [")
    for s in desc["shapes"]:
        lines.append("  { " + ", ".join(f"{k} = {value(v)}" for k, v in s.items()) + " },")
    lines.append("]")
    return "\n".join(lines) + "\n"


def write_task(problem: str | Path, folder: str | Path, name: str | None = None,
               reference: str = "Model") -> Path:
    """Describe ``problem`` and write an editable task folder: task.toml and the problem as reference.py."""
    problem, folder = Path(problem), Path(folder)
    desc = describe(problem, reference=reference)
    folder.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(problem, folder / "reference.py")
    name = name or re.sub(r"[^\w.-]", "_", problem.stem)
    if not re.match(r"[A-Za-z_]", name):
        name = "p_" + name
    (folder / "task.toml").write_text(task_toml(desc, name))
    return folder


def task_folder(problem: str | Path) -> Path:
    """A task folder for ``problem`` in kopt's cache, written once per version of the file (``kopt bench
    problem.py cand.cu`` and friends use it)."""
    from .cache import cache_dir

    problem, reference = split_reference(problem)
    if not problem.is_file():
        raise InputError(f"cannot read {problem}: no such file")
    try:
        digest = hashlib.sha256(problem.read_bytes() + reference.encode()).hexdigest()[:16]
    except OSError as exc:
        raise InputError(f"cannot read {problem}: {exc}")
    stem = re.sub(r"[^\w.-]", "_", problem.stem)
    folder = cache_dir() / "torch-tasks" / f"{stem}-{digest}"
    if not (folder / "task.toml").is_file():
        write_task(problem, folder, reference=reference)
    return folder


def open_task(path: str | Path):
    """A task directory (or its task.toml), or a PyTorch problem file (``.py``) as a task."""
    from .task import Task

    return Task.load(task_folder(path) if is_problem(path) else path)


def is_problem(path: str | Path) -> bool:
    """Whether ``path`` names a PyTorch problem (``x.py`` or ``x.py:NAME``) rather than a task directory."""
    return str(split_reference(path)[0]).endswith(".py")


# --- the child's side (python -m kopt.torch_problem FILE --out JSON) ------------------------------------------
def _symbols(module) -> dict[str, int]:
    """The module's size constants: ints, and the int elements of tuples (``s__0``...)."""
    out = {}
    for k, v in vars(module).items():
        if k.startswith("_") or isinstance(v, bool):
            continue
        if isinstance(v, int):
            out[k] = v
        elif isinstance(v, tuple) and v and all(isinstance(x, int) and not isinstance(x, bool) for x in v):
            out.update({f"{k}__{i}": x for i, x in enumerate(v)})
    return out


def _run_meta(module, ref_name: str):
    """(state, inputs, outputs) on the meta device at the module's current sizes."""
    import torch

    with torch.device("meta"):
        ref, state = instantiate(module, ref_name)
        inputs = list(stage("get_inputs()", module.get_inputs))
        outputs = stage(f"{ref_name}(*get_inputs())", ref, *inputs)
    return state, inputs, list(outputs) if isinstance(outputs, (tuple, list)) else [outputs]


def _dtype(t) -> str:
    name = str(t.dtype).replace("torch.", "")
    if name not in _TORCH_DTYPES:
        raise ProblemError(f"tensor dtype {name} has no kopt equivalent")
    return _TORCH_DTYPES[name]


def _describe(path: Path, model_name: str = "Model") -> dict:
    import importlib.util
    import inspect

    try:
        import torch
    except ImportError:
        raise ProblemError("PyTorch is not installed: a PyTorch problem needs it (pip install torch)") from None

    spec = importlib.util.spec_from_file_location("kopt_problem", path)
    module = importlib.util.module_from_spec(spec)
    sys.path.insert(0, str(path.parent))
    stage(f"importing {path.name}", spec.loader.exec_module, module)
    ref = getattr(module, model_name, None)
    if not callable(ref):
        raise ProblemError(f"no class or function {model_name!r} in the file (KernelBench's format: class "
                           f"Model(nn.Module), get_inputs(), get_init_inputs())")
    needed = ("get_inputs", "get_init_inputs") if isinstance(ref, type) else ("get_inputs",)
    for fn in needed:
        if not callable(getattr(module, fn, None)):
            raise ProblemError(f"no function {fn}() in the file")
    base = _symbols(module)
    params, inputs, outputs = _run_meta(module, model_name)
    signature = ref.forward if isinstance(ref, type) else ref
    try:
        names = [n for n, p in inspect.signature(signature).parameters.items() if n != "self"
                 and p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    except (TypeError, ValueError):
        names = []
    args, tensors = [], []  # tensors: (arg, tensor)
    taken = set(base)
    for i, x in enumerate(inputs):
        name = names[i] if i < len(names) else f"in{i}"
        name = name if name not in taken else f"{name}_in"
        taken.add(name)
        if isinstance(x, torch.Tensor):
            tensors.append(({"name": name, "role": "in", "torch": f"input {i}"}, x))
        elif isinstance(x, (int, float)) and not isinstance(x, bool):
            # a constant of the problem (KernelBench's `A * s`): the kernel gets it as a scalar argument; the
            # reference is checked to return the same number every time
            kind = "f32" if isinstance(x, float) else "i32" if -2 ** 31 <= x < 2 ** 31 else "i64"
            same = [k for k, v in base.items() if v == x] if isinstance(x, int) else []
            args.append({"name": name, "dtype": kind, "value": same[0] if len(same) == 1 else repr(x),
                         "torch": f"input {i}"})
        else:
            raise ProblemError(f"get_inputs() item {i} is a {type(x).__name__}, not a tensor or a number")
    for key, t in params.items():
        name = re.sub(r"\W", "_", key)
        name = name if name not in taken else f"p_{name}"
        taken.add(name)
        tensors.append(({"name": name, "role": "in", "torch": f"state {key}"}, t))
    for i, t in enumerate(outputs):
        if not isinstance(t, torch.Tensor):
            raise ProblemError(f"{model_name}'s output {i} is a {type(t).__name__}, not a tensor")
        name = "out" if len(outputs) == 1 else f"out{i}"
        name = name if name not in taken else f"{name}_"
        taken.add(name)
        tensors.append(({"name": name, "role": "out", "torch": f"output {i}"}, t))
    # which constant each dimension is: the one whose doubling doubles it (and no other dimension-breaking change)
    dims = {a["name"]: list(t.shape) or [1] for a, t in tensors}
    named: dict[tuple[str, int], str] = {}

    def doubled(symbols: list[str]):
        set_symbols(module, {**base, **{k: 2 * base[k] for k in symbols}})
        try:
            return _run_meta(module, model_name)
        finally:
            set_symbols(module, base)

    for sym, v in base.items():
        if v < 2:
            continue
        try:
            state2, inputs2, outputs2 = doubled([sym])
        except Exception:  # the problem needs it equal to another constant (a broadcast, groups): double them all
            tied = [k for k, x in base.items() if x == v]
            try:
                state2, inputs2, outputs2 = doubled(tied) if len(tied) > 1 else None
            except Exception:
                continue
        shapes2 = _shapes_of(state2, inputs2, outputs2, [a["torch"] for a, _ in tensors])
        for (a, t), s2 in zip(tensors, shapes2):
            for i, d in enumerate(dims[a["name"]]):
                if d == v and i < len(s2) and s2[i] == 2 * v and (a["name"], i) not in named:
                    named[(a["name"], i)] = sym
    derived: dict[str, tuple[str, int]] = {}
    scalars, args = args, []
    for a, t in tensors:
        shape = []
        for i, d in enumerate(dims[a["name"]]):
            if (a["name"], i) in named:
                shape.append(named[(a["name"], i)])
            else:
                sym = f"{a['name']}_d{i}"
                derived[sym] = (a["name"], i)
                shape.append(sym)
        a.update(dtype=_dtype(t), shape=shape)
        args.append(a)
    used = sorted({s for a in args for s in a["shape"] if s in base}, key=list(base).index)
    args += scalars + [{"name": s, "dtype": "i32" if base[s] < 2 ** 31 else "i64", "value": s} for s in used]

    def bind(symbols: dict) -> dict:
        """A shape: the constants and the derived dimensions at ``symbols``."""
        set_symbols(module, symbols)
        try:
            state2, inputs2, outputs2 = _run_meta(module, model_name)
        finally:
            set_symbols(module, base)
        shapes2 = dict(zip([a["name"] for a, _ in tensors],
                           _shapes_of(state2, inputs2, outputs2, [a["torch"] for a, _ in tensors])))
        # the shape's sizes, and any other constant it moves (tied to one of them), which the worker must set too
        out = {s: v for s, v in symbols.items() if s in used or (s in base and v != base[s])}
        for sym, (arg, i) in derived.items():
            s2 = shapes2[arg] or [1]
            out[sym] = int(s2[i])
        for arg, s2 in shapes2.items():  # the named dimensions must still be what their constant says
            for i, d in enumerate(s2 or [1]):
                if (arg, i) in named and d != symbols[named[(arg, i)]]:
                    raise ValueError("a named dimension moved")
        if any(v <= 0 for v in out.values()):
            raise ValueError("an empty dimension")
        return out

    shapes = [{**bind(base), "timed": True}]
    small = _small(base, used, dims, tensors)
    for candidate in small:
        # constants equal in the problem stay equal, used as a dimension or not (`input_shape = (num_classes,)`)
        tied = {k: candidate[s] for s in candidate for k, x in base.items() if x == base[s]}
        try:
            shapes.insert(0, bind({**base, **tied}))
            break
        except Exception:
            continue
    return {"problem": path.name, "model": model_name, "args": args, "shapes": shapes, "symbols": base}


def _shapes_of(params: dict, inputs, outputs, sources: list[str]) -> list[list[int]]:
    out = []
    for src in sources:
        kind, _, key = src.partition(" ")
        t = inputs[int(key)] if kind == "input" else outputs[int(key)] if kind == "output" else params[key]
        out.append(list(t.shape))
    return out


def _small(base: dict, used: list[str], dims: dict, tensors) -> list[dict]:
    """Smaller sizes to try for a check shape: the large constants shrunk by a common factor, odd first."""
    total = sum(math.prod(dims[a["name"]]) for a, _ in tensors if a["role"] == "in")
    large = [s for s in used if base[s] >= 16]
    if not large or total <= SMALL_ELEMENTS:
        return []
    factor = (total / SMALL_ELEMENTS) ** (1 / len(large))
    odd = {s: max(3, int(base[s] / factor) | 1) for s in large}
    even = {s: max(4, 2 ** round(math.log2(max(base[s] / factor, 4)))) for s in large}
    return [odd, even]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m kopt.torch_problem")
    ap.add_argument("problem")
    ap.add_argument("--reference", default="Model")
    ap.add_argument("--out", required=True)
    args = ap.parse_args(argv)
    try:
        result = _describe(Path(args.problem), args.reference)
    except ProblemError as exc:
        result = {"error": str(exc)}
    except Exception as exc:  # the problem's own failure is the answer
        result = {"error": f"{type(exc).__name__}: {exc}"}
    Path(args.out).write_text(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
