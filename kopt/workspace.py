"""A workspace directory that confines the files an agent may read and write."""
from __future__ import annotations

import os
from pathlib import Path

from .errors import InputError


MAX_PATH, MAX_NAME = 4096, 255  # Linux's PATH_MAX and NAME_MAX, in bytes


class Workspace:
    def __init__(self, root: str | Path):
        self.root = Path(root).resolve()
        if not self.root.is_dir():
            raise InputError(f"workspace {root} is not a directory")

    def resolve(self, path: str | Path) -> Path:
        """``path`` (relative to the root, or absolute inside it) resolved; anything outside is refused, and so are
        names no file system takes (NUL bytes, over-long paths or components)."""
        text = os.fspath(path)
        if "\0" in text:
            raise InputError(f"{text!r} contains a NUL byte: refused")
        if len(text.encode(errors="surrogateescape")) > MAX_PATH or any(
                len(part.encode(errors="surrogateescape")) > MAX_NAME for part in Path(text).parts):
            raise InputError(f"{text[:60]!r}... is longer than a path may be: refused")
        p = Path(text)
        try:
            full = (p if p.is_absolute() else self.root / p).resolve()
        except (OSError, RuntimeError) as exc:  # a symbolic-link loop, an unreadable folder
            raise InputError(f"{text}: cannot resolve ({exc}): refused")
        if full != self.root and self.root not in full.parents:
            raise InputError(f"{path} is outside the workspace {self.root}: refused")
        return full
