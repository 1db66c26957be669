"""A workspace directory that confines the files an agent may read and write."""
from __future__ import annotations

from pathlib import Path

from .errors import InputError


class Workspace:
    def __init__(self, root: str | Path):
        self.root = Path(root).resolve()
        if not self.root.is_dir():
            raise InputError(f"workspace {root} is not a directory")

    def resolve(self, path: str | Path) -> Path:
        """``path`` (relative to the root, or absolute inside it) resolved; anything outside is refused."""
        p = Path(path)
        full = (p if p.is_absolute() else self.root / p).resolve()
        if full != self.root and self.root not in full.parents:
            raise InputError(f"{path} is outside the workspace {self.root}: refused")
        return full
