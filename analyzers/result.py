"""What an analysis returns (importable without the solver or the front ends)."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # no runtime import: kopt imports this module while it initializes
    from kopt.diagnostic import Diagnostic


@dataclass
class AnalysisResult:
    diagnostics: list[Diagnostic] = field(default_factory=list)
    assumed: str = ""  # the launch configuration(s) assumed, one line per kernel
    elapsed_ms: float = 0.0
    kernels: list[str] = field(default_factory=list)
    launches: list[dict] = field(default_factory=list)  # the launch each kernel was analyzed under (kopt's shape)
    frontend: str = ""
    paths: dict = field(default_factory=dict)  # kernel -> which front end read it, and why

    @property
    def errors(self) -> list[Diagnostic]:
        return [d for d in self.diagnostics if d.is_error]

    def to_dict(self) -> dict:
        return {"assumed": self.assumed, "elapsed_ms": round(self.elapsed_ms, 2), "kernels": self.kernels,
                "launches": self.launches, "frontend": self.frontend, "paths": self.paths,
                "diagnostics": [d.to_dict() for d in self.diagnostics]}
