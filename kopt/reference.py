"""A task's reference function: loading it, the keyword arguments it receives, calling it and reading its outputs.

The reference receives, as keyword arguments named like the task's arguments, every ``in``/``inout`` buffer (a
numpy array; floating inputs widened to float64 unless ``reference_dtype = "native"``) and every scalar argument (a
Python number). ``out`` arguments and size symbols that are not scalar arguments are not passed. It returns the
outputs: one array, a tuple in the order the ``out``/``inout`` arguments are declared, or a dict by name. It runs in
the worker process (or ``kopt validate``'s probe), never in the caller's."""
from __future__ import annotations

import importlib.util
import inspect
import sys
from pathlib import Path

import numpy as np

from .inputs import widen
from .task import Shape, Task

_MODULES: dict[str, object] = {}


class BadReference(ValueError):
    """The reference cannot be used; ``kind`` is ``not-found``, ``import``, ``signature``, ``raised`` or
    ``output``."""

    RULES = {"not-found": "reference.not-found", "import": "reference.import-failed",
             "signature": "reference.signature", "raised": "reference.raised", "output": "reference.output"}

    def __init__(self, kind: str, message: str):
        super().__init__(message)
        self.kind = kind

    @property
    def rule(self) -> str:
        return self.RULES[self.kind]


def module(task: Task):
    """The reference's module, imported once per process."""
    file = task.reference.partition(":")[0]
    path = str(Path(task.path, file).resolve())
    if path not in _MODULES:
        if not Path(path).is_file():
            raise BadReference("not-found", f"reference {task.reference}: no file {file} next to task.toml")
        spec = importlib.util.spec_from_file_location(f"kopt_reference_{len(_MODULES)}", path)
        loaded = importlib.util.module_from_spec(spec)
        sys.path.insert(0, str(Path(path).parent))
        try:
            spec.loader.exec_module(loaded)
        except Exception as exc:
            raise BadReference("import", f"reference {task.reference}: importing {file} raised "
                                           f"{type(exc).__name__}: {exc}")
        finally:
            sys.path.pop(0)
        _MODULES[path] = loaded
    return _MODULES[path]


def load(task: Task):
    """The reference: a function, or a PyTorch problem's Model class."""
    file, _, fn_name = task.reference.partition(":")
    mod = module(task)
    fn = getattr(mod, fn_name, None)
    if not callable(fn):
        names = sorted(n for n, v in vars(mod).items() if callable(v) and not n.startswith("_"))
        raise BadReference("not-found", f"reference {task.reference}: no function {fn_name!r} in {file}"
                                          + (f" (it defines {', '.join(names[:12])})" if names else ""))
    return fn


def parameter_names(task: Task) -> list[str]:
    """The keyword arguments the reference receives, in declaration order."""
    return [a.name for a in task.args if a.role in ("in", "inout", "scalar")]


def check_signature(task: Task, fn) -> None:
    """Raise ``BadReference("signature")`` when ``fn`` cannot be called with the task's keyword arguments."""
    try:
        sig = inspect.signature(fn)
    except (TypeError, ValueError):
        return  # a builtin or C function: nothing to read
    try:
        sig.bind(**{n: None for n in parameter_names(task)})
    except TypeError as exc:
        raise BadReference("signature", f"reference {task.reference}{sig} cannot take the task's arguments "
                                          f"({', '.join(parameter_names(task)) or 'none'}): {exc}")


def arguments(task: Task, shape: Shape, inputs: dict[str, np.ndarray]) -> dict:
    kwargs = {}
    for a in task.args:
        if a.role in ("in", "inout"):
            raw = inputs[a.name]
            kwargs[a.name] = widen(a.dtype, raw) if (a.dtype.is_float and task.reference_dtype == "f64") else raw.copy()
        elif a.role == "scalar":
            kwargs[a.name] = task.scalar(a, shape)
    return kwargs


def call(task: Task, shape: Shape, inputs: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """The reference's outputs for ``inputs``, by output argument name."""
    fn = load(task)
    try:
        result = fn(**arguments(task, shape, inputs))
    except Exception as exc:
        raise BadReference("raised", f"reference {task.reference} raised {type(exc).__name__}: {exc}")
    outs = [a for a in task.args if a.is_output]
    if isinstance(result, dict):
        missing = [a.name for a in outs if a.name not in result]
        if missing:
            raise BadReference("output", f"reference {task.reference} returned no value for {', '.join(missing)}")
        return {a.name: np.asarray(result[a.name]) for a in outs}
    if not isinstance(result, (tuple, list)):
        result = (result,)
    if len(result) != len(outs):
        raise BadReference("output", f"reference {task.reference} returned {len(result)} outputs; the task declares "
                                       f"{len(outs)} ({', '.join(a.name for a in outs)})")
    return {a.name: np.asarray(r) for a, r in zip(outs, result)}
