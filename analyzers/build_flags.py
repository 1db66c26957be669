"""Macros a file's build defines (``-DNAME=VALUE`` in a Makefile or CMakeLists.txt beside it or in a folder above,
``target_compile_definitions``/``add_compile_definitions``), for names the file uses but never defines: a kernel
written against ``-DWARP_SIZE=32`` or ``-DVALUE_TYPE=double`` would otherwise not parse. Only names the parse
reports undeclared are taken, so a build's ``-DDEBUG`` never switches an ``#ifdef`` branch; a name the build files
give two different values is left alone. The front end says which file each value came from."""
from __future__ import annotations

import re
from pathlib import Path

BUILD_FILES = ("Makefile", "makefile", "GNUmakefile", "CMakeLists.txt")
_LEVELS = 2  # the file's folder and two above (a project's src/ and its root)
_DASH_D = re.compile(r"(?<![\w-])-D\s*([A-Za-z_]\w*)(?:=(\"[^\"\n]*\"|'[^'\n]*'|[^\s\\\"')]+))?")
_CMAKE_DEFS = re.compile(r"\b(?:target_compile_definitions|add_compile_definitions)\s*\(([^)]*)\)", re.I)
_CMAKE_ITEM = re.compile(r"(?<![\w$-])([A-Za-z_]\w*)=([^\s\"')]+)")


def _values(text: str, cmake: bool) -> list[tuple[str, str]]:
    text = re.sub(r"#[^\n]*", " ", text)  # comments (make's and CMake's)
    out = [(m.group(1), (m.group(2) or "1").strip("\"'")) for m in _DASH_D.finditer(text)]
    if cmake:
        for block in _CMAKE_DEFS.finditer(text):
            out += [(m.group(1), m.group(2)) for m in _CMAKE_ITEM.finditer(block.group(1))]
    return out


def defines_for(path: Path, names) -> dict[str, tuple[str, str]]:
    """name -> (value, the build file that sets it) for each of ``names`` the build files near ``path`` define with
    one value (a value naming a make or CMake variable, ``$(N)``/``${N}``, is not known here and is skipped)."""
    names = set(names)
    found: dict[str, set] = {}
    where: dict[str, str] = {}
    folder = Path(path).resolve().parent
    for level, d in enumerate([folder, *folder.parents]):
        if level > _LEVELS or not names:
            break
        for fname in BUILD_FILES:
            f = d / fname
            try:
                text = f.read_text(errors="replace") if f.is_file() and f.stat().st_size < 1 << 20 else ""
            except OSError:
                continue
            for name, value in _values(text, fname == "CMakeLists.txt"):
                if name in names and "$" not in value:
                    found.setdefault(name, set()).add(value)
                    where.setdefault(name, f"{f.parent.name}/{fname}" if level else fname)
        names -= {n for n in found}  # the nearest build file that sets a name decides it
    return {n: (next(iter(v)), where[n]) for n, v in found.items() if len(v) == 1}
