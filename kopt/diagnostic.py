"""The Diagnostic model shared by the compiler, the analyzers, the runner and the checker."""
from __future__ import annotations

import enum
from dataclasses import asdict, dataclass, field
from typing import Any


class Severity(str, enum.Enum):
    ERROR = "error"
    WARNING = "warning"
    NOTE = "note"

    @property
    def rank(self) -> int:
        return {"error": 2, "warning": 1, "note": 0}[self.value]


@dataclass(frozen=True)
class Location:
    """A source range. Lines and columns are 1-based; ``end_*`` are inclusive and optional."""

    file: str
    line: int
    col: int = 0
    end_line: int | None = None
    end_col: int | None = None
    role: str = ""  # e.g. "write", "read", "barrier", "error"

    def to_dict(self) -> dict[str, Any]:
        return {k: v for k, v in asdict(self).items() if v not in (None, "")}


@dataclass
class Diagnostic:
    rule: str  # e.g. "compile.error", "race.shared", "check.mismatch", "runtime.illegal-address"
    severity: Severity
    message: str
    locations: list[Location] = field(default_factory=list)
    witness: dict[str, Any] | None = None
    hint: str | None = None

    def __post_init__(self):
        self.severity = Severity(self.severity)

    @property
    def is_error(self) -> bool:
        return self.severity is Severity.ERROR

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {
            "rule": self.rule,
            "severity": self.severity.value,
            "message": self.message,
            "locations": [loc.to_dict() for loc in self.locations],
        }
        if self.witness is not None:
            d["witness"] = self.witness
        if self.hint:
            d["hint"] = self.hint
        return d

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "Diagnostic":
        return cls(
            rule=d["rule"],
            severity=Severity(d["severity"]),
            message=d["message"],
            locations=[Location(**loc) for loc in d.get("locations", [])],
            witness=d.get("witness"),
            hint=d.get("hint"),
        )

