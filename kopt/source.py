"""Reading CUDA source: a path or the text itself, and the object-like C macros it defines."""
from __future__ import annotations

import os
import re
from pathlib import Path

from .errors import InputError

SOURCE_SUFFIXES = (".cu", ".cuh", ".cpp", ".cc", ".h", ".hpp")
_C_DEFINE = re.compile(r"^[ \t]*#[ \t]*define[ \t]+([A-Za-z_]\w*)[ \t]+([^\n]+?)[ \t]*(?://[^\n]*)?$", re.M)


def read_source(source: str | os.PathLike) -> tuple[str, str, Path | None]:
    """(text, display name, path). A str is a path if it has no newline and names a source-like file."""
    is_path = isinstance(source, os.PathLike) or (
        isinstance(source, str) and "\n" not in source and source.strip().endswith(SOURCE_SUFFIXES)
    )
    if not is_path:
        return str(source), "kernel.cu", None
    path = Path(source)
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise InputError(f"cannot read {path}: no such file")
    except IsADirectoryError:
        raise InputError(f"cannot read {path}: it is a directory")
    except OSError as exc:
        raise InputError(f"cannot read {path}: {exc}")
    return decode_source(data, path), str(path), path


def decode_source(data: bytes, path: Path) -> str:
    """UTF-8 text, or text in a legacy 8-bit encoding (a Windows-1252 quote in a comment, as nvcc accepts: each byte
    read as the Latin-1 character of that value); a file with NUL bytes is taken for binary and refused."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        if b"\0" in data:
            raise InputError(f"cannot read {path}: not text (NUL bytes; byte {exc.start} is "
                             f"{data[exc.start]:#04x} in no UTF-8 sequence); is it a binary file?")
        return data.decode("latin-1")


def c_macros(text: str) -> dict[str, str]:
    """Object-like ``#define NAME VALUE`` macros of a C source (value text, ``//`` and ``/* */`` comments removed)."""
    out = {}
    for m in _C_DEFINE.finditer(text):
        value = re.sub(r"/\*.*?\*/", " ", m.group(2)).split("/*")[0].strip()
        if value:
            out[m.group(1)] = value
    return out
