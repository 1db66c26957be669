"""The files of a project that ``#include`` a given file: a kernel file written to be included (it uses what its
includer declares first; its launches are in the includer's other files) is read in their company."""
from __future__ import annotations

import re
from pathlib import Path

INCLUDE = re.compile(r'^[ \t]*#[ \t]*include[ \t]*[<"]([^>"]+)[>"]', re.M)
SOURCE_SUFFIXES = (".cu", ".cuh", ".h", ".hpp", ".cpp")


def includers(path: Path, levels: int = 2):
    """(file, its text, the match of its ``#include`` of ``path``) for each file of ``path``'s folder, or of the
    ``levels`` folders above it (a project's ``main.cu`` including ``kernels/map.cu``), that includes it by a path
    that resolves to it."""
    try:
        target = path.resolve()
    except OSError:
        return
    folder = path.absolute().parent
    for d in [folder, *folder.parents][:levels + 1]:
        try:
            files = sorted(p for p in d.iterdir() if p.suffix in SOURCE_SUFFIXES and p.resolve() != target)
        except OSError:
            continue
        for sib in files:
            try:
                text = sib.read_text(errors="replace")
            except OSError:
                continue
            if path.name not in text:
                continue
            for m in INCLUDE.finditer(text):
                name = m.group(1)
                if Path(name).name == path.name and (d / name).resolve() == target:
                    yield sib, text, m
                    break


def included_by(includer: Path, text: str) -> list[Path]:
    """The files ``includer`` (with contents ``text``) includes with quotes that exist, relative to its folder."""
    out = []
    for m in INCLUDE.finditer(text):
        if m.group(0).rstrip().endswith('"'):
            p = includer.parent / m.group(1)
            if p.is_file():
                out.append(p)
    return out
