"""The files of a project that ``#include`` a given file: a kernel file written to be included (it uses what its
includer declares first; its launches are in the includer's other files) is read in their company."""
from __future__ import annotations

import functools
import re
from pathlib import Path

INCLUDE = re.compile(r'^[ \t]*#[ \t]*include[ \t]*[<"]([^>"]+)[>"]', re.M)
SOURCE_SUFFIXES = (".cu", ".cuh", ".h", ".hpp", ".cpp")


def includers(path: Path, levels: int = 2, above_only: bool = False):
    """(file, its text, the match of its ``#include`` of ``path``) for each file of ``path``'s folder (unless
    ``above_only``), or of the ``levels`` folders above it (a project's ``main.cu`` including ``kernels/map.cu``),
    that includes it by a path that resolves to it."""
    try:
        target = path.resolve()
    except OSError:
        return
    folder = path.absolute().parent
    yield from _including(path, target, [folder, *folder.parents][int(above_only):levels + 1])


def includers_beside(path: Path, max_folders: int = 16):
    """``includers`` in the folders beside ``path``'s (a library's ``app/scan_app.cu`` including
    ``kernel/scan_kernel.cuh`` through its build's ``-I``), then, when none includes it, in the folders beside those
    (``csrc/pytorch/cuda/op.cu`` including ``csrc/common/cuda/op_kernel.cuh``, found by its name where the project
    holds one file of that name). Only where the parent folder holds at most ``max_folders`` folders: a project's
    own parts, not a suite's hundreds of separate programs."""
    try:
        target = path.resolve()
        folder = path.absolute().parent
        beside = sorted(d for d in folder.parent.iterdir() if d.is_dir() and d != folder)
    except OSError:
        return
    if len(beside) > max_folders:
        return
    hits = list(_including(path, target, beside))
    if hits:
        yield from hits
        return
    try:  # the parent's siblings' folders
        top = folder.parent.parent
        cousins = sorted(c for d in top.iterdir() if d.is_dir() and d != folder.parent
                         for c in d.iterdir() if c.is_dir())
    except OSError:
        return
    if len(cousins) <= max_folders * 2 and _only_one(path, [folder, *beside, *cousins]):
        yield from _including(path, target, cousins, by_name=True)


def _only_one(path: Path, folders) -> bool:
    """No folder but ``path``'s own holds a file of ``path``'s name."""
    return not any((d / path.name).is_file() for d in folders if d != path.absolute().parent)


def _including(path: Path, target: Path, folders, by_name: bool = False):
    """(file, text, match) for each file of ``folders`` whose ``#include`` resolves to ``target`` (``by_name``: or
    resolves nowhere and names ``path``'s file, which the caller knows is the project's only one)."""
    for d in folders:
        try:
            files = sorted(p for p in d.iterdir() if p.suffix in SOURCE_SUFFIXES)
        except OSError:
            continue
        for sib in files:
            text = source_text(sib)
            if text is None or path.name not in text or sib.resolve() == target:
                continue
            for m in INCLUDE.finditer(text):
                name = m.group(1)
                if Path(name).name != path.name:
                    continue
                where = _resolved(sib, d, name)
                if target in where or by_name and not any(w.is_file() for w in where):
                    yield sib, text, m
                    break


def _resolved(includer: Path, folder: Path, name: str) -> list[Path]:
    """Where ``#include`` of ``name`` in ``includer`` (in ``folder``) may lead: beside it, or in a -I folder its build
    gives it (`#include <runner.cuh>` with `include_directories(src)`)."""
    from .build_flags import ancestor_includes, include_dirs_for

    out = [(folder / name).resolve()]
    if not out[0].is_file():
        out += [(d / name).resolve() for d, _ in include_dirs_for(includer)]
    if not any(p.is_file() for p in out):
        # a path from the project's top (`quest/src/gpu/gpu_kernels.cuh`, built with -I at the top): under a folder
        # above the includer
        out += [(d / name).resolve() for d, _ in ancestor_includes(includer, {name})]
    return out


def source_text(p: Path) -> str | None:
    """The file's text, read once per version (a folder's files are scanned for every file of it analyzed)."""
    try:
        st = p.stat()
    except OSError:
        return None
    return _read(str(p), st.st_mtime_ns, st.st_size)


@functools.lru_cache(maxsize=512)
def _read(p: str, mtime: int, size: int) -> str | None:
    if size > _MAX_BYTES:
        return ""  # a data file with a source suffix: not a project's includer
    try:
        with open(p, errors="replace") as fh:
            return fh.read()
    except OSError:
        return None


_MAX_BYTES = 2 << 20


def included_by(includer: Path, text: str) -> list[Path]:
    """The files ``includer`` (with contents ``text``) includes with quotes that exist, relative to its folder."""
    out = []
    for m in INCLUDE.finditer(text):
        if m.group(0).rstrip().endswith('"'):
            p = includer.parent / m.group(1)
            if p.is_file():
                out.append(p)
    return out
