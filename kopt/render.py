"""Renderers for Diagnostics: compiler-style text, JSON, SARIF 2.1.0."""
from __future__ import annotations

import hashlib
import json
import os
from collections import Counter
from pathlib import Path
from typing import Iterable, Mapping
from urllib.parse import quote

from .diagnostic import Diagnostic, Location, Severity
from .rules import RULES

SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
SRCROOT = "%SRCROOT%"  # the uriBaseId of repository-relative URIs (GitHub code scanning's convention)
FINGERPRINT = "koptFingerprint/v1"
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


def source_root(start: str | Path | None = None) -> Path:
    """The folder paths in CI output are relative to: the enclosing git checkout of ``start`` (default: the
    current directory), else ``start`` itself. GitHub code scanning and annotations expect repository paths."""
    here = Path(start or Path.cwd()).resolve()
    for d in (here, *here.parents):
        if (d / ".git").exists():
            return d
    return here


def _relative(file: str, root: Path) -> Path | None:
    """``file`` relative to ``root``, or None when it lies outside (symlinks are not followed: the path as given
    is what the user sees in the repository)."""
    full = Path(os.path.abspath(file))
    try:
        return full.relative_to(root)
    except ValueError:
        return None


def artifact_location(file: str, root: Path) -> dict:
    """A SARIF artifactLocation: a percent-encoded URI relative to ``%SRCROOT%`` for a file inside ``root``, an
    absolute ``file:`` URI otherwise (a space or ``#`` in a name must not end the path or start a fragment)."""
    rel = _relative(file, root)
    if rel is None:
        return {"uri": Path(os.path.abspath(file)).as_uri()}
    return {"uri": quote(rel.as_posix()), "uriBaseId": SRCROOT}


def _fingerprint(d: Diagnostic, uri: str, sources: Mapping[str, str] | None, seen: Counter) -> str:
    """A stable identity of a finding across runs and edits elsewhere in the file: the rule, the file and the text
    of the primary line (not its number), with an ordinal for identical lines (GitHub's line-hash idea)."""
    loc = d.locations[0] if d.locations else None
    text = " ".join((_source_line(loc, sources) or "").split()) if loc else ""
    key = hashlib.sha256("\0".join((d.rule, uri, text)).encode()).hexdigest()[:32]
    seen[key] += 1
    return f"{key}:{seen[key]}"


def to_sarif(diagnostics: Iterable[Diagnostic], tool_name: str = "kopt", tool_version: str = "",
             root: str | Path | None = None, sources: Mapping[str, str] | None = None) -> dict:
    """A SARIF 2.1.0 log with one run; file URIs are relative to ``root`` (default: ``source_root()``)."""
    from . import __version__

    base = Path(root).resolve() if root is not None else source_root()
    diagnostics = list(diagnostics)
    rules = sorted({d.rule for d in diagnostics})
    results = []
    seen: Counter = Counter()
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
            physical = {"artifactLocation": artifact_location(loc.file, base), "region": region}
            entry = {"physicalLocation": physical}
            if loc.role:
                entry["message"] = {"text": loc.role}
            (result["locations"] if i == 0 else result.setdefault("relatedLocations", [])).append(
                entry if i == 0 else {"id": i, **entry}
            )
        uri = result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] if d.locations else ""
        result["partialFingerprints"] = {FINGERPRINT: _fingerprint(d, uri, sources, seen)}
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
                        "version": tool_version or __version__,
                        "rules": [_sarif_rule(r) for r in rules],
                    }
                },
                "originalUriBaseIds": {SRCROOT: {"uri": base.as_uri() + "/"}},
                "results": results,
            }
        ],
    }


def _gh_escape(text: str, prop: bool = False) -> str:
    """GitHub workflow-command escaping: data escapes ``%``, CR and LF; property values also ``:`` and ``,``."""
    text = text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
    return text.replace(":", "%3A").replace(",", "%2C") if prop else text


_GH_LEVEL = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.NOTE: "notice"}


def to_github(diagnostics: Iterable[Diagnostic], root: str | Path | None = None) -> str:
    """GitHub Actions workflow commands (``::error file=...,line=...::message``), one per Diagnostic, which the
    runner turns into annotations on the pull request; file paths relative to ``root`` (default: ``source_root()``)."""
    base = Path(root).resolve() if root is not None else source_root()
    out = []
    for d in diagnostics:
        props = [("title", d.rule)]
        if d.locations:
            loc = d.locations[0]
            rel = _relative(loc.file, base)
            props = [("file", rel.as_posix() if rel is not None else os.path.abspath(loc.file)),
                     ("line", str(max(loc.line, 1)))]
            if loc.col:
                props.append(("col", str(loc.col)))
            if loc.end_line:
                props.append(("endLine", str(loc.end_line)))
            if loc.end_col and loc.end_line in (None, loc.line):
                props.append(("endColumn", str(loc.end_col)))
            props.append(("title", d.rule))
        message = d.message + (f"\nhint: {d.hint}" if d.hint else "")
        out.append(f"::{_GH_LEVEL[d.severity]} " + ",".join(f"{k}={_gh_escape(v, True)}" for k, v in props)
                   + "::" + _gh_escape(message))
    return "\n".join(out)


def dumps(obj) -> str:
    return json.dumps(obj, indent=2, default=str)
