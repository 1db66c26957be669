"""A Build: a candidate compiled for a task at one configuration, its launches resolved per shape on demand.
Checking, timing and the run-once tools consume one, so a candidate is compiled once and each shape resolved once."""
from __future__ import annotations

from dataclasses import dataclass, field

from .artifact import Artifact
from .candidate import Candidate
from .compiler import compile_candidate
from .errors import InputError
from .plan import RunPlan, resolve
from .task import Shape, Task
from . import device as _gpu  # noqa: F401  (installs the present GPU's own limits and constants)


@dataclass
class Build:
    task: Task
    candidate: Candidate
    config: dict  # complete: the defaults under the requested values
    artifact: Artifact
    plans: dict[str, RunPlan] = field(default_factory=dict)  # by shape label

    @property
    def lowered(self) -> dict[str, str]:
        return {name: k.lowered for name, k in self.artifact.kernels.items()}

    def plan(self, shape: Shape) -> RunPlan:
        if shape.label not in self.plans:
            self.plans[shape.label] = resolve(self.task, self.candidate, shape, self.config, self.lowered,
                                              self.artifact.arch)
        return self.plans[shape.label]


def build(task: Task, candidate, config: dict | None = None, arch: str | None = None) -> Build:
    """Compile ``candidate`` (path, source or Candidate) for ``task``: for ``arch``, else the target it declares,
    else the task's arch-specific one, else this GPU's. Raises CompileError / InputError."""
    cand = Candidate.load(candidate)
    if not task.accepts(cand.task):
        raise InputError(f"{cand.name} declares task {cand.task!r} but is checked against {task.name!r}")
    cfg = cand.check_config(config or {})
    art = compile_candidate(cand, cfg, arch=arch or cand.arch or task.arch_for_run())
    return Build(task, cand, cfg, art)
