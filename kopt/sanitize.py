"""``kopt.sanitize``: run a candidate once under compute-sanitizer and report what it saw as Diagnostics.

Reports are parsed from the tool's text output (``========= `` prefixed records: a header line, then indented
``at ... in FILE:LINE`` / ``by thread (x,y,z) in block (x,y,z)`` / ``Address ...`` lines), grouped by rule and source
line, and merged with the static analyzers' findings for the same file: ``confirmed`` (both saw it: same rule family
and a shared line), ``static-only`` (the tool for that family ran and saw nothing there), ``dynamic-only``, or
``unchecked`` (a static finding whose family no tool that ran covers).
"""
from __future__ import annotations

import functools
import re
import subprocess
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from .diagnostic import Diagnostic, Location, Severity
from .errors import GpuUnavailableError, InputError
from .rules import RULES

TOOLS = ("memcheck", "racecheck", "synccheck", "initcheck")
PRINT_LIMIT = 100
# tool -> the rule family it checks dynamically (bounds, race, barrier, init): the family of its rules in kopt.rules
_TOOL_FAMILY = {t: RULES[f"sanitize.{t}.error"].family for t in TOOLS}

_PREFIX = re.compile(r"^={3,}\s?")
_AT = re.compile(r"\bat (?P<where>.+?) in (?P<file>[^\s:]+?\.\w+):(?P<line>\d+)(?::(?P<fn>.+?))?(?:\s+\[(?P<n>\d+) hazards?\])?$")
_THREAD = re.compile(r"thread \((\d+),\s*(\d+),\s*(\d+)\)", re.I)
_BLOCK = re.compile(r"block \((\d+),\s*(\d+),\s*(\d+)\)")
_HEADERS = [
    (re.compile(r"Invalid (?P<space>__\w+__) (?P<op>read|write|atomic) of size (?P<size>\d+) bytes?"),
     "memcheck", lambda m: f"invalid-{m['op']}"),
    (re.compile(r"Misaligned (?P<space>__\w+__)? ?(?P<op>read|write|Address)", re.I), "memcheck",
     lambda m: "misaligned"),
    (re.compile(r"Uninitialized (?P<space>__\w+__) memory (?P<op>read) of size (?P<size>\d+) bytes?"),
     "initcheck", lambda m: "uninitialized"),
    (re.compile(r"(?P<sev>Error|Warning): Race reported between (?P<op>Write|Read) access"), "racecheck",
     lambda m: "hazard"),
    (re.compile(r"(?P<sev>Error|Warning|Info): (?:\([^)]*\) )?Potential (?P<kind>RAW|WAR|WAW) hazard detected at "
                r"(?P<space>__\w+__)"),
     "racecheck", lambda m: "hazard"),
    (re.compile(r"Barrier error detected\. Divergent thread\(s\) in (?P<scope>warp|block)"), "synccheck",
     lambda m: "divergent-barrier"),
    (re.compile(r"Barrier error detected\. (?P<what>.+?)\.?$"), "synccheck", lambda m: "barrier-error"),
]
_SKIP = re.compile(r"^(COMPUTE-SANITIZER|ERROR SUMMARY|RACECHECK SUMMARY|LEAK SUMMARY|Target application returned|"
                   r"Saved host backtrace|Host Frame|Device Frame|Current Value|Incoming Value|Program hit)")


@dataclass
class Report:
    """One sanitizer record, before grouping."""

    tool: str
    rule: str  # sanitize.<tool>.<kind>: a catalogued id (kopt.rules)
    severity: Severity
    header: str
    lines: list[str] = field(default_factory=list)


def _records(text: str):
    """(header, continuation lines) for each ``=========`` record of the output."""
    cur = None
    for raw in text.splitlines():
        m = _PREFIX.match(raw)
        if not m:
            continue
        body = raw[m.end():]
        if not body.strip():
            continue
        if body[:1].isspace():
            if cur is not None:
                cur[1].append(body.strip())
            continue
        if cur is not None:
            yield cur
        cur = (body.strip(), [])
    if cur is not None:
        yield cur


def parse(text: str, tool: str | None = None, *, xml: bool = False) -> list[Report]:
    """Every error record in compute-sanitizer output (any tool; ``tool`` names it when a header is generic): the
    text output, or with ``xml`` the file of ``--xml --save`` (``kopt.sanitizer_xml``; a ValueError when it is not
    compute-sanitizer XML)."""
    from .sanitizer_xml import records

    out = []
    for header, rest in (records(text) if xml else _records(text)):
        if _SKIP.match(header):
            continue
        for rx, owner, slug in _HEADERS:
            m = rx.search(header)
            if m:
                sev = (m.groupdict().get("sev") or "Error").lower()
                severity = Severity.WARNING if sev == "warning" else Severity.NOTE if sev == "info" else Severity.ERROR
                out.append(Report(owner, f"sanitize.{owner}.{slug(m)}", severity, header, rest))
                break
        else:
            if tool and not header.startswith(("Warning:", "Info:")):
                out.append(Report(tool, f"sanitize.{tool}.error", Severity.ERROR, header, rest))
    return out


def _to_diagnostic(rep: Report, file_map) -> tuple[tuple, Diagnostic]:
    locs, witness = [], {}
    for text in [rep.header] + rep.lines:
        at = _AT.search(text)
        if at:
            role = "write" if "Write" in text.split(" at ")[0] else "read" if "Read" in text.split(" at ")[0] else "error"
            if rep.rule.endswith(("invalid-write",)):
                role = "write"
            elif rep.rule.endswith(("invalid-read", "uninitialized")):
                role = "read"
            elif rep.rule.endswith("barrier"):
                role = "barrier"
            locs.append(Location(file_map(at["file"]), int(at["line"]), role=role))
            if at["n"]:
                witness["hazards"] = witness.get("hazards", 0) + int(at["n"])
        t, b = _THREAD.search(text), _BLOCK.search(text)
        if t:
            witness.setdefault("threads", []).append([int(x) for x in t.groups()])
        if b and "block" not in witness:
            witness["block"] = [int(x) for x in b.groups()]
        addr = re.search(r"Address (0x[0-9a-fA-F]+)(.*)", text)
        if addr:
            witness["address"] = addr.group(1)
            if addr.group(2).strip():
                witness["address_note"] = addr.group(2).strip()
        near = re.search(r"([\d,]+) bytes? (before|after|inside) the nearest allocation at (0x[0-9a-fA-F]+) of "
                         r"size ([\d,]+) bytes?", text)
        if near:
            witness["offset"] = f"{near.group(1).replace(',', '')} bytes {near.group(2)}"
            witness["allocation_bytes"] = int(near.group(4).replace(",", ""))
    size = re.search(r"of size (\d+) bytes?", rep.header)
    if size:
        witness["size"] = int(size.group(1))
    seen, uniq = set(), []
    for loc in locs:
        if (loc.file, loc.line, loc.role) not in seen:
            seen.add((loc.file, loc.line, loc.role))
            uniq.append(loc)
    head = re.sub(r"^(Error|Warning|Info): ", "", rep.header).rstrip(" :.")
    head = re.sub(r" (?:access )?at \S+ in \S+:\d+.*$", "", head).replace(" access", "")
    if rep.tool == "racecheck":
        pair = " and ".join(f"{l.role} at line {l.line}" for l in uniq)
        kind = re.search(r"\b(RAW|WAR|WAW)\b", rep.header)
        scope = " between threads of one warp" if "Warp Level Programming" in rep.header else ""
        head = re.sub(r" in block \(.*\)$", "", head)  # the block is added below, from the witness
        msg = f"shared-memory {kind.group(1) + ' ' if kind else ''}race{scope}: {pair}" if pair else \
            head[0].lower() + head[1:]
    else:
        msg = head[0].lower() + head[1:]
    if "threads" in witness:
        msg += f" by thread{'s' if len(witness['threads']) > 1 else ''} " + \
            " and ".join(f"({','.join(map(str, t))})" for t in witness["threads"][:2])
    if "block" in witness:
        msg += f" in block ({','.join(map(str, witness['block']))})"
    if "hazards" in witness:
        msg += f" ({witness['hazards']} hazards)"
    if "offset" in witness:
        msg += f": {witness['offset']} an allocation of {witness['allocation_bytes']} bytes"
    elif witness.get("address_note"):
        msg += f": address {witness['address']} {witness['address_note']}"
    key = (rep.rule, tuple(sorted((l.file, l.line) for l in uniq)) or (rep.header,))
    return key, RULES[rep.rule].diag(msg, *uniq, severity=rep.severity, witness=witness or None)


def diagnostics(text: str, tool: str | None = None, file_map=lambda f: f, *, xml: bool = False) -> list[Diagnostic]:
    """Parse and group: one Diagnostic per rule and source line, with the number of raw reports in the witness."""
    grouped: dict[tuple, Diagnostic] = {}
    for rep in parse(text, tool, xml=xml):
        key, d = _to_diagnostic(rep, file_map)
        if key in grouped:
            w = grouped[key].witness or {}
            w["reports"] = w.get("reports", 1) + 1
            for k, v in (d.witness or {}).items():
                w.setdefault(k, v)  # e.g. racecheck's hazard count from its analysis line
            grouped[key].witness = w
        else:
            d.witness = {**(d.witness or {}), "reports": 1}
            grouped[key] = d
    return list(grouped.values())


def _keys(diags: list[Diagnostic]) -> set[tuple]:
    """What two parses of one run must agree on: each finding's rule and source lines."""
    return {(d.rule, tuple(sorted((Path(loc.file).name, loc.line) for loc in d.locations))) for d in diags}


# --- merge with the static analyzers -----------------------------------------------------------------------------
def family(rule: str) -> str | None:
    """The rule's family in the catalogue (None for an id it does not hold, e.g. from an old run store)."""
    r = RULES.get(rule)
    return r.family if r else None


def _lines(d: Diagnostic) -> set[tuple[str, int]]:
    return {(Path(l.file).name, l.line) for l in d.locations}


def merge(dynamic: list[Diagnostic], static: list[Diagnostic], tools_run) -> list[Diagnostic]:
    """Dynamic and static findings with ``witness["status"]``: confirmed / dynamic-only / static-only / unchecked."""
    checked = {_TOOL_FAMILY[t] for t in tools_run}
    used, out = set(), []
    for d in dynamic:
        fam = family(d.rule)
        match = [i for i, s in enumerate(static) if family(s.rule) == fam and _lines(s) & _lines(d)]
        w = dict(d.witness or {})
        w["status"] = "confirmed" if match else "dynamic-only"
        if match:
            w["static_rules"] = sorted({static[i].rule for i in match})
            used.update(match)
        d.witness = w
        out.append(d)
    for i, s in enumerate(static):
        if i in used:
            continue
        fam = family(s.rule)
        status = "static-only" if fam in checked else "unchecked"
        out.append(Diagnostic(s.rule, s.severity, s.message, s.locations, {**(s.witness or {}), "status": status},
                              s.hint))
    return out


# --- running -------------------------------------------------------------------------------------------------------
@dataclass
class SanitizeResult:
    task: str
    candidate: str
    shape: str
    tools: list[str]
    diagnostics: list[Diagnostic]
    exit_codes: dict = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    raw: dict = field(default_factory=dict, repr=False)  # tool -> compute-sanitizer's text output
    raw_xml: dict = field(default_factory=dict, repr=False)  # tool -> its --xml --save file, where it wrote one
    parsed_from: dict = field(default_factory=dict)  # tool -> "xml" or "text": which output the findings came from

    @property
    def errors(self) -> int:
        return sum(d.is_error and (d.witness or {}).get("status") != "unchecked" for d in self.diagnostics)

    def to_dict(self) -> dict:
        counts = {}
        for d in self.diagnostics:
            s = (d.witness or {}).get("status", "")
            counts[s] = counts.get(s, 0) + 1
        return {"task": self.task, "candidate": self.candidate, "shape": self.shape, "tools": self.tools,
                "ok": self.errors == 0, "counts": counts, "exit_codes": self.exit_codes, "notes": self.notes,
                "parsed_from": self.parsed_from,
                "diagnostics": [d.to_dict() for d in self.diagnostics]}


def tool_args(tool: str) -> list[str]:
    args = ["--tool", tool, "--print-limit", str(PRINT_LIMIT), "--show-backtrace", "no"]
    if tool == "racecheck":
        args += ["--racecheck-report", "all"]
    return args


@functools.lru_cache(maxsize=None)
def has_xml(exe: str) -> bool:
    """Whether this compute-sanitizer writes XML records (``--xml`` with ``--save``)."""
    proc = subprocess.run([exe, "--help"], capture_output=True, text=True)
    return "--xml" in proc.stdout


def _small_shape(task):
    small = [s for s in task.shapes if not s.timed]
    return (small or task.shapes)[0]


def sanitize(task, candidate, *, tools=("memcheck",), shape=None, config=None, arch=None, static: bool = True,
             timeout: float = 600.0) -> SanitizeResult:
    """Run ``candidate`` under each of ``tools`` (at a small shape by default) and merge with static analysis."""
    from .device import require_gpu
    from .profile import _run, tool_failure
    from .protocol import Failed
    from .run_once import build_request, command, read_reply, write_request
    from .toolchain import require_tool

    tools = list(TOOLS if "all" in tools else tools)
    bad = [t for t in tools if t not in TOOLS]
    if bad:
        raise InputError(f"unknown sanitizer tool {bad[0]!r}: expected one of {', '.join(TOOLS)} or all")
    exe = require_tool("compute-sanitizer")
    require_gpu("kopt sanitize")
    shape = shape or _small_shape(task)
    found: list[Diagnostic] = []
    res = SanitizeResult(task.name, "", shape.label, tools, [])
    with tempfile.TemporaryDirectory(prefix="kopt-sanitize-") as tmp:
        for tool in tools:
            request, cand, art = build_request(task, candidate, tmp, shape=shape, config=config, arch=arch,
                                               warmup=0, fill_outputs=tool != "initcheck")
            res.candidate = cand.name
            req = write_request(request, tmp)
            xml_file = Path(tmp) / f"{tool}.xml"
            structured = ["--xml", "--save", str(xml_file)] if has_xml(exe) else []
            proc = _run([exe, *tool_args(tool), *structured, *command(req)], None, timeout)
            text = proc.stdout + "\n" + proc.stderr
            why = read_reply(request)
            if isinstance(why, Failed) and why.rule == "runtime.no-gpu":
                raise GpuUnavailableError(f"no usable GPU: {why.message}")
            if "ERROR SUMMARY" not in text and "RACECHECK SUMMARY" not in text and proc.returncode:
                tool_failure("compute-sanitizer", proc)
            name = Path(cand.name).name
            res.exit_codes[tool] = proc.returncode
            res.raw[tool] = text
            file_map = lambda f: cand.name if Path(f).name == name else f  # noqa: E731
            res.parsed_from[tool] = "text"
            dynamic = None
            if structured and xml_file.is_file():
                res.raw_xml[tool] = xml_file.read_text(errors="replace")
                try:
                    dynamic = diagnostics(res.raw_xml[tool], tool, file_map, xml=True)
                    res.parsed_from[tool] = "xml"
                except ValueError as exc:  # the text output says the same; note why it was not used
                    res.notes.append(f"{tool}: XML output not read ({exc}); parsed the text output")
            from_text = diagnostics(text, tool, file_map)
            if dynamic is not None and _keys(dynamic) != _keys(from_text):
                res.notes.append(f"{tool}: the XML and text outputs disagree (XML only: "
                                 f"{sorted(_keys(dynamic) - _keys(from_text))}, text only: "
                                 f"{sorted(_keys(from_text) - _keys(dynamic))})")
            found += dynamic if dynamic is not None else from_text
            if isinstance(why, Failed):
                res.notes.append(f"{tool}: the run stopped with {why.rule}")
    static_diags = []
    if static:
        try:
            from .analyze import analyze

            # under the task: its shapes' scalars and buffer sizes (an out-of-bounds global access is bounds.global)
            static_diags = list(analyze(cand, config=config, task=task).diagnostics)
        except Exception as exc:  # the analyzers are optional here: dynamic findings stand on their own
            res.notes.append(f"static analysis skipped: {exc}")
    res.diagnostics = merge(found, static_diags, tools)
    return res
