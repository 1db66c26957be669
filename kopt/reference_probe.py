"""``python -m kopt.reference_probe TASK_DIR --out FILE``: import a task's reference, check its signature, run it
once on the smallest shape and write what happened as JSON. ``kopt validate`` runs this in a subprocess with a time
limit, so a reference that hangs, crashes or imports something heavy cannot take the caller down."""
from __future__ import annotations

import argparse
import json
import math
import sys

import numpy as np


def probe(task_dir: str) -> dict:
    from .inputs import generate
    from .reference import BadReference, call, check_signature, load
    from .task import Task
    from .torch_reference import case, is_torch_task

    task = Task.load(task_dir)
    shape = min(task.shapes, key=lambda s: sum(math.prod(task.shape_of(a, s)) for a in task.args if a.is_buffer))
    out = {"ok": False, "shape": shape.label}
    try:
        if is_torch_task(task):  # the problem's Model on the CPU at the smallest shape
            load(task)
            try:
                outputs = case(task, shape, seed=0, device="cpu")[1]
            except Exception as exc:
                raise BadReference("raised", f"reference {task.reference} raised {type(exc).__name__}: {exc}")
        else:
            check_signature(task, load(task))
            outputs = call(task, shape, generate(task, shape, seed=0))
    except BadReference as exc:
        return {**out, "rule": exc.rule, "message": str(exc)}
    problems, warnings = [], []
    for a in task.args:
        if not a.is_output:
            continue
        arr, want = outputs[a.name], task.shape_of(a, shape)
        if not (np.issubdtype(arr.dtype, np.number) or arr.dtype == np.bool_):
            problems.append(f"{a.name} has dtype {arr.dtype}, not a number")
        elif arr.size != math.prod(want):
            problems.append(f"{a.name} has shape {arr.shape}; the task declares {want}")
        elif np.issubdtype(arr.dtype, np.floating) and not np.isfinite(arr).all():
            warnings.append(f"{a.name} holds {int((~np.isfinite(arr)).sum())} non-finite values at {shape.label}")
    if problems:
        return {**out, "rule": "reference.output", "message": f"reference {task.reference} at {shape.label}: "
                                                              + "; ".join(problems)}
    return {**out, "ok": True, "warnings": warnings,
            "outputs": {k: [list(v.shape), str(v.dtype)] for k, v in outputs.items()}}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m kopt.reference_probe")
    ap.add_argument("task")
    ap.add_argument("--out", required=True)
    args = ap.parse_args(argv)
    result = probe(args.task)
    with open(args.out, "w") as f:
        json.dump(result, f)
    return 0


if __name__ == "__main__":
    sys.exit(main())
