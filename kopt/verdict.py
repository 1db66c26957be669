"""Verdict: did the candidate compile, run, and compute the task's function — with Diagnostics for every failure."""
from __future__ import annotations

from dataclasses import dataclass, field

from .diagnostic import Diagnostic


@dataclass
class Verdict:
    task: str
    candidate: str
    config: dict = field(default_factory=dict)
    arch: str = ""
    compiled: bool = False
    ran: bool = False
    correct: bool = False
    diagnostics: list[Diagnostic] = field(default_factory=list)
    shapes: list[dict] = field(default_factory=list)  # per-shape error figures per trial
    resources: dict = field(default_factory=dict)  # per kernel
    seconds: float = 0.0
    # where the time went, in milliseconds: compile (or the compile cache), worker start, and the worker's phases
    # (inputs, reference, launch, compare) summed over shapes and trials
    phases_ms: dict = field(default_factory=dict)

    @property
    def status(self) -> str:
        if self.correct:
            return "correct"
        if not self.compiled:
            return "compile-failed"
        if not self.ran:
            return "run-failed"
        return "incorrect"

    def to_dict(self) -> dict:
        return {
            "task": self.task, "candidate": self.candidate, "config": self.config, "arch": self.arch,
            "status": self.status, "compiled": self.compiled, "ran": self.ran, "correct": self.correct,
            "diagnostics": [d.to_dict() for d in self.diagnostics], "shapes": self.shapes,
            "resources": self.resources, "seconds": round(self.seconds, 3), "phases_ms": self.phases_ms,
        }

    @classmethod
    def from_dict(cls, d: dict) -> "Verdict":
        return cls(task=d["task"], candidate=d["candidate"], config=d.get("config", {}), arch=d.get("arch", ""),
                   compiled=d["compiled"], ran=d["ran"], correct=d["correct"],
                   diagnostics=[Diagnostic.from_dict(x) for x in d.get("diagnostics", [])],
                   shapes=d.get("shapes", []), resources=d.get("resources", {}), seconds=d.get("seconds", 0.0),
                   phases_ms=d.get("phases_ms", {}))
