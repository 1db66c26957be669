"""Shared bits of the CLI: consoles, JSON output, option parsing helpers."""
from __future__ import annotations

import json

from rich.console import Console

from ..errors import InputError

console = Console(highlight=False)
console_err = Console(stderr=True, highlight=False)


def print_json(obj) -> None:
    print(json.dumps(obj, indent=2, default=str))


def parse_defines(values: list[str] | None) -> dict[str, str | None]:
    out: dict[str, str | None] = {}
    for v in values or []:
        k, sep, val = v.partition("=")
        if not k:
            raise InputError(f"bad -D {v!r}: expected NAME or NAME=VALUE")
        out[k] = val if sep else None
    return out


def parse_dims(text: str | None, what: str) -> tuple[int, int, int] | None:
    if text is None:
        return None
    try:
        parts = [int(p) for p in text.replace("x", ",").split(",") if p.strip()]
    except ValueError:
        raise InputError(f"bad {what} {text!r}: expected X[,Y[,Z]] with positive integers")
    if not 1 <= len(parts) <= 3 or any(p <= 0 for p in parts):
        raise InputError(f"bad {what} {text!r}: expected X[,Y[,Z]] with positive integers")
    return tuple(parts + [1] * (3 - len(parts)))  # type: ignore[return-value]
