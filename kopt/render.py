"""Renderers for Diagnostics: compiler-style text, JSON, SARIF 2.1.0."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Iterable, Mapping

from .diagnostic import Diagnostic, Location, Severity
from .rules import RULES

SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
_SARIF_LEVEL = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.NOTE: "note"}


def _source_line(loc: Location, sources: Mapping[str, str] | None) -> str | None:
    text = None
    if sources and loc.file in sources:
        text = sources[loc.file]
    else:
        try:
            text = Path(loc.file).read_text(errors="replace")
        except OSError:
            return None
    lines = text.splitlines()
    return lines[loc.line - 1] if 0 < loc.line <= len(lines) else None


def _caret(loc: Location, line: str) -> str:
    start = max(loc.col, 1)
    end = loc.end_col if (loc.end_col and (loc.end_line in (None, loc.line)) and loc.end_col >= start) else start
    prefix = "".join(c if c == "\t" else " " for c in line[: start - 1])
    return prefix + "^" + "~" * (end - start)


def to_text(diagnostics: Iterable[Diagnostic], sources: Mapping[str, str] | None = None) -> str:
    """clang-style: ``file:line:col: severity: message [rule]``, the source line and a caret per location."""
    out: list[str] = []
    for d in diagnostics:
        locs = d.locations or [None]
        first = locs[0]
        where = f"{first.file}:{first.line}:{first.col or 1}: " if first else ""
        out.append(f"{where}{d.severity.value}: {d.message} [{d.rule}]")
        for i, loc in enumerate(locs):
            if loc is None:
                continue
            if i > 0:
                role = f" ({loc.role})" if loc.role else ""
                out.append(f"{loc.file}:{loc.line}:{loc.col or 1}: note: related location{role}")
            line = _source_line(loc, sources)
            if line is not None:
                out.append(f"  {loc.line:>4} | {line}")
                if loc.col:
                    out.append(f"       | {_caret(loc, line)}")
        if d.witness:
            out.append("  witness: " + ", ".join(f"{k}={v}" for k, v in d.witness.items()))
        if d.hint:
            out.append(f"  hint: {d.hint}")
    return "\n".join(out)


def to_json(diagnostics: Iterable[Diagnostic]) -> list[dict]:
    return [d.to_dict() for d in diagnostics]


def _sarif_rule(rule_id: str) -> dict:
    """A reportingDescriptor from the catalogue (the bare id for one it does not hold, e.g. from an old run)."""
    r = RULES.get(rule_id)
    if r is None:
        return {"id": rule_id}
    return {"id": r.id, "shortDescription": {"text": r.summary}, "fullDescription": {"text": r.help},
            "help": {"text": r.help + (f" Hint: {r.hint}" if r.hint else "")},
            "defaultConfiguration": {"level": _SARIF_LEVEL[r.severity]}, "properties": {"tags": [r.family]}}


def to_sarif(diagnostics: Iterable[Diagnostic], tool_name: str = "kopt", tool_version: str = "") -> dict:
    diagnostics = list(diagnostics)
    rules = sorted({d.rule for d in diagnostics})
    results = []
    for d in diagnostics:
        result = {
            "ruleId": d.rule,
            "ruleIndex": rules.index(d.rule),
            "level": _SARIF_LEVEL[d.severity],
            "message": {"text": d.message + (f" Hint: {d.hint}" if d.hint else "")},
            "locations": [],
        }
        for i, loc in enumerate(d.locations):
            region = {"startLine": max(loc.line, 1)}
            if loc.col:
                region["startColumn"] = loc.col
            if loc.end_line:
                region["endLine"] = loc.end_line
            if loc.end_col:
                region["endColumn"] = loc.end_col + 1  # SARIF end columns are exclusive
            physical = {"artifactLocation": {"uri": Path(loc.file).as_posix()}, "region": region}
            entry = {"physicalLocation": physical}
            if loc.role:
                entry["message"] = {"text": loc.role}
            (result["locations"] if i == 0 else result.setdefault("relatedLocations", [])).append(
                entry if i == 0 else {"id": i, **entry}
            )
        if d.witness:
            result["properties"] = {"witness": d.witness}
        results.append(result)
    return {
        "$schema": SARIF_SCHEMA,
        "version": "2.1.0",
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": tool_name,
                        "version": tool_version or "0",
                        "rules": [_sarif_rule(r) for r in rules],
                    }
                },
                "results": results,
            }
        ],
    }


def dumps(obj) -> str:
    return json.dumps(obj, indent=2, default=str)
