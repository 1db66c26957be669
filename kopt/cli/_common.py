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
