"""Parse NVRTC and ptxas log text into Diagnostics and per-kernel resource figures."""
from __future__ import annotations

import re
from dataclasses import asdict, dataclass

from .diagnostic import Diagnostic, Location, Severity
from .rules import RULES

_HEADER = re.compile(
    r"^(?P<file>.+?)\((?P<line>\d+)\): (?P<sev>catastrophic error|error|warning|remark)(?: #(?P<code>[\w-]+))?: (?P<msg>.*)$"
)
_PTXAS = re.compile(r"^ptxas (?P<sev>error|warning|fatal)\s*: (?P<msg>.*)$")
# ptxas errors at a PTX line: "ptxas application ptx input, line 33; error   : Instruction 'wgmma.fence' not ..."
_PTXAS_AT = re.compile(r"^ptxas .*?, line \d+; (?P<sev>error|warning)\s*: (?P<msg>.*)$")
_NOT_ON_TARGET = re.compile(r"Instruction '(?P<insn>[\w.]+)[^']*' not supported on \.target '(?P<target>sm_\d+)'")
# instruction families that exist only on the arch-specific targets (sm_90a, sm_100a, ...), never on the plain ones
ARCH_SPECIFIC = ("wgmma", "setmaxnreg", "tcgen05")
_SEVERITY = {"catastrophic error": Severity.ERROR, "error": Severity.ERROR, "fatal": Severity.ERROR,
             "warning": Severity.WARNING, "remark": Severity.NOTE}


def parse_diagnostics(log: str) -> list[Diagnostic]:
    """NVRTC prints ``file(line): error: msg``, then the source line indented by two spaces and a caret line."""
    diags: list[Diagnostic] = []
    lines = log.replace("\x00", "").splitlines()
    i = 0
    while i < len(lines):
        m = _HEADER.match(lines[i])
        if m:
            sev = _SEVERITY[m.group("sev")]
            code = m.group("code")
            message = m.group("msg").strip()
            i += 1
            # Continuation lines (indented text before the excerpt), then "  <source>" and "  <caret>".
            block = []
            while i < len(lines) and lines[i].strip() and not _HEADER.match(lines[i]):
                block.append(lines[i])
                i += 1
            col = 0
            if len(block) >= 2 and block[-1].strip() == "^":
                col = block[-1].index("^") - 1  # 2-space indent, 1-based column
                block = block[:-2]
            if block:
                message += " " + " ".join(b.strip() for b in block)
            rule = "compile.error" if sev is Severity.ERROR else ("compile.warning" if sev is Severity.WARNING else "compile.remark")
            loc = Location(m.group("file"), int(m.group("line")), max(col, 0), role="error" if sev is Severity.ERROR else "")
            diags.append(RULES[rule].diag(message + (f" (#{code})" if code else ""), loc))
            continue
        m = _PTXAS_AT.match(lines[i])
        if m:
            diags.append(_ptxas_at(m))
            i += 1
            continue
        m = _PTXAS.match(lines[i])
        if m:
            sev = _SEVERITY[m.group("sev")]
            rule = "compile.ptxas-error" if sev is Severity.ERROR else "compile.ptxas-warning"  # fatal is an error
            diags.append(RULES[rule].diag(m.group("msg").strip()))
        i += 1
    return diags


def _ptxas_at(m: re.Match) -> Diagnostic:
    """A ptxas error or warning at a PTX line (no source line); an arch-specific instruction on a plain target says
    which target it needs (the witness names the instruction, so an editor can place it and offer the fix)."""
    message = m.group("msg").strip()
    rule = "compile.ptxas-error" if m.group("sev") == "error" else "compile.ptxas-warning"
    t = _NOT_ON_TARGET.search(message)
    if t and t.group("insn").startswith(ARCH_SPECIFIC):
        needs = t.group("target") + "a"
        return RULES[rule].diag(message, witness={"instruction": t.group("insn"), "target": t.group("target"),
                                                  "needs": needs},
                                hint=f"{t.group('insn')} exists only on the arch-specific target {needs}: declare it "
                                     f"with `// kopt: arch {needs}` (or compile with --arch {needs})")
    return RULES[rule].diag(message)


@dataclass
class Resources:
    """What ptxas reports for one kernel (cross-checked against the cubin's own records)."""

    registers: int = 0
    static_smem: int = 0  # bytes
    stack_frame: int = 0  # bytes
    spill_stores: int = 0  # bytes
    spill_loads: int = 0  # bytes
    local_memory: int = 0  # bytes (lmem)
    const_memory: int = 0  # bytes of cmem[0]
    barriers: int = 0
    cubin_checked: bool = False

    @property
    def spills(self) -> bool:
        return bool(self.spill_stores or self.spill_loads)

    def to_dict(self) -> dict:
        return {**asdict(self), "spills": self.spills}


_ENTRY = re.compile(r"Compiling entry function '([^']+)' for '([^']+)'")
_PROPS = re.compile(r"Function properties for (\S+)")
_FRAME = re.compile(r"(\d+) bytes stack frame, (\d+) bytes spill stores, (\d+) bytes spill loads")
_USED = re.compile(r"Used (\d+) registers")
_BARRIERS = re.compile(r"used (\d+) barriers")
_MEM = re.compile(r"(\d+) bytes (smem|lmem|cmem\[0\])")


def parse_ptxas_resources(log: str) -> dict[str, Resources]:
    """Per entry function (lowered name) resources from ``ptxas -v`` output."""
    out: dict[str, Resources] = {}
    current: Resources | None = None
    props_for: str | None = None
    for line in log.splitlines():
        m = _ENTRY.search(line)
        if m:
            current = out.setdefault(m.group(1), Resources())
            props_for = None
            continue
        m = _PROPS.search(line)
        if m:
            props_for = m.group(1)
            continue
        m = _FRAME.search(line)
        if m and props_for is not None and props_for in out:
            r = out[props_for]
            r.stack_frame, r.spill_stores, r.spill_loads = (int(g) for g in m.groups())
            continue
        if current is not None and _USED.search(line):
            current.registers = int(_USED.search(line).group(1))
            b = _BARRIERS.search(line)
            if b:
                current.barriers = int(b.group(1))
            for amount, kind in _MEM.findall(line):
                if kind == "smem":
                    current.static_smem = int(amount)
                elif kind == "lmem":
                    current.local_memory = int(amount)
                else:
                    current.const_memory = int(amount)
    return out


_RES_FUNC = re.compile(r"^\s*Function (\S+):\s*$")
_RES_KV = re.compile(r"(\w+(?:\[\d+\])?):(\d+)")


def parse_res_usage(text: str) -> dict[str, dict[str, int]]:
    """``cuobjdump -res-usage`` output: ``Function name:`` then ``REG:14 STACK:0 SHARED:0 LOCAL:0 ...``."""
    out: dict[str, dict[str, int]] = {}
    name = None
    for line in text.splitlines():
        m = _RES_FUNC.match(line)
        if m:
            name = m.group(1)
            continue
        if name and "REG:" in line:
            out[name] = {k: int(v) for k, v in _RES_KV.findall(line)}
            name = None
    return out
