"""``kopt task new --from-torch PROBLEM.py``: a task folder from a PyTorch problem (KernelBench's format)."""
from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

from ..errors import InputError
from ..task import Task
from ..torch_problem import split_reference, write_task
from ._common import console, print_json
from ._app import app
from .compile_cmds import JsonOpt

task_app = typer.Typer(no_args_is_help=True, help="Task folders: write one from a PyTorch problem.")
app.add_typer(task_app, name="task")


@task_app.command("new")
def new_cmd(from_torch: str = typer.Option(..., "--from-torch", metavar="PROBLEM.py[:NAME]",
                                           help="a PyTorch problem: class Model(nn.Module) with get_inputs() and "
                                                "get_init_inputs() (KernelBench's format), or NAME: another class "
                                                "or a function of get_inputs()'s values"),
            out: Optional[Path] = typer.Option(None, "--out", help="the task folder (default: ./PROBLEM_NAME)"),
            name: Optional[str] = typer.Option(None, "--name", help="the task's name (default: the file's)"),
            json_out: bool = JsonOpt):
    """Write an editable task folder (task.toml and the problem as reference.py) from a PyTorch problem."""
    problem, reference = split_reference(from_torch)
    if not problem.is_file():
        raise InputError(f"cannot read {problem}: no such file")
    folder = out or Path(problem.stem)
    if (folder / "task.toml").exists():
        raise InputError(f"{folder} already holds a task.toml: choose another --out")
    write_task(problem, folder, name, reference=reference)
    task = Task.load(folder)
    if json_out:
        print_json({"task": task.name, "folder": str(folder), "args": [a.name for a in task.args],
                    "shapes": [s.label for s in task.shapes]})
        return
    console.print(f"wrote {folder}/task.toml (task {task.name}): {len(task.args)} args "
                  f"({', '.join(a.name for a in task.args)}); shapes: {'; '.join(s.label for s in task.shapes)}")
