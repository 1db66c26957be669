"""The candidates kopt already knows for a task: its baseline, the knowledge-base examples written for it (a
sidecar ``.toml`` with ``task = NAME``) and the kernels a user promoted for it (``kopt kb add``, ``kopt runs
promote``). ``kopt optimize TASK`` without ``--from`` starts from all of them."""
from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path

from .task import Task


@dataclass(frozen=True)
class Known:
    path: Path
    origin: str  # "baseline", "kb" (an example shipped with kopt) or "promoted" (the user's)

    @property
    def label(self) -> str:
        return f"{self.origin}:{self.path.stem}"


def _examples(folder: Path, task: Task, origin: str) -> list[Known]:
    out = []
    for meta in sorted(folder.glob("*.toml")) if folder.is_dir() else []:
        try:
            doc = tomllib.loads(meta.read_text())
        except (OSError, tomllib.TOMLDecodeError):
            continue  # not a kernel's sidecar
        source = meta.with_suffix(".cu")
        if doc.get("task") and task.accepts(doc["task"]) and source.is_file():
            out.append(Known(source, origin))
    return out


def known_candidates(task: Task) -> list[Known]:
    from .kb.promote import added_dir
    from .resources import kb_root

    found = [Known(Path(task.baseline), "baseline")] if task.baseline else []
    found += _examples(kb_root() / "cutlass_examples", task, "kb")
    found += _examples(added_dir(), task, "promoted")
    return found
