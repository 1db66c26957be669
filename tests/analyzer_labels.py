"""The corpus label syntax: a header comment line ``// expect: rule[, rule(N)]...`` or ``// expect: none``.

``rule`` is a Diagnostic rule id; ``bank-conflict(N)`` gives the exact n-way degree expected (the largest one the
analyzer reports for the file). Every rule not listed is expected to be absent.
"""
from __future__ import annotations

import re
from pathlib import Path

CORPUS = Path(__file__).parent / "analyzers" / "corpus"
_EXPECT = re.compile(r"^\s*//\s*expect:\s*(.+?)\s*$", re.M)
_ITEM = re.compile(r"^([a-z][\w.\-]*)(?:\((\d+)\))?$")


def parse_labels(text: str) -> dict[str, int | None]:
    m = _EXPECT.search(text)
    if m is None:
        raise ValueError("no `// expect:` line")
    out: dict[str, int | None] = {}
    for item in (x.strip() for x in m.group(1).split(",")):
        if item == "none":
            continue
        im = _ITEM.match(item)
        if im is None:
            raise ValueError(f"bad label {item!r}")
        out[im.group(1)] = int(im.group(2)) if im.group(2) else None
    return out


def corpus_files() -> list[Path]:
    return sorted(CORPUS.glob("*.cu"))


def observed(result) -> dict[str, int | None]:
    """Rules reported for one file (bank-conflict with its largest degree); analysis.incomplete excluded."""
    got: dict[str, int | None] = {}
    for d in result.diagnostics:
        if d.rule == "analysis.incomplete":
            continue
        if d.rule == "bank-conflict":
            got[d.rule] = max(got.get(d.rule) or 0, int(d.witness["degree"]))
        else:
            got.setdefault(d.rule, None)
    return got
