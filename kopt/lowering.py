"""The lowering report: SASS mapped to source lines, with instruction classes and access widths.

Two readers of nvdisasm's output fill the same report: ``parse_sass_json`` reads ``nvdisasm -json -g`` (opcodes,
predicates and source lines as fields), ``parse_sass`` the text of ``nvdisasm -g -c`` for nvdisasm builds without
``-json``.
"""
from __future__ import annotations

import json
import posixpath
import re
from collections import Counter, defaultdict
from dataclasses import dataclass, field

_FUNC = re.compile(r"^\s*//-+ \.text\.(\S+)\s+-+")
_LINE = re.compile(r'^\s*//## File "(?P<file>[^"]+)", line (?P<line>\d+)')
_OCTAL = re.compile(rb"\\([0-7]{3})")
# The line table keeps a non-ASCII path octal-escaped ("\303\274"), and splitting it into folder and file took the
# last escape's backslash for a separator ("\303/251"): put it back before decoding.
_SPLIT_ESCAPE = re.compile(r"(\\[0-7]{3})/([0-7]{3})")
_INSN = re.compile(r"^\s*/\*[0-9a-f]{4,}\*/\s+(?P<text>[^;]*);")
_PRED = re.compile(r"^@!?U?P[T0-9]+\s+")


def source_path(name: str) -> str:
    """A file name as the SASS line markers print it, back as the path the compiler was given."""
    if "\\" not in name:
        return name
    raw = _SPLIT_ESCAPE.sub(lambda m: f"{m.group(1)}\\{m.group(2)}", name).encode("utf-8", "surrogateescape")
    return _OCTAL.sub(lambda m: bytes([int(m.group(1), 8)]), raw).decode("utf-8", "replace")


# opcode (before the first '.') -> class. Checked after the width-bearing memory opcodes below.
_CLASSES = {
    "LDG": "global load", "STG": "global store", "LDS": "shared load", "STS": "shared store",
    "LDL": "local load (LDL)", "STL": "local store (STL)", "LDSM": "ldmatrix", "STSM": "stmatrix",
    "LDGSTS": "cp.async (LDGSTS)", "LDGDEPBAR": "cp.async commit", "DEPBAR": "dependency barrier",
    "UBLKCP": "bulk copy (TMA)", "UTMALDG": "bulk tensor load (TMA)", "UTMASTG": "bulk tensor store (TMA)",
    "UTMAPF": "bulk tensor prefetch (TMA)", "UTMAREDG": "bulk tensor reduce (TMA)", "UBLKRED": "bulk copy (TMA)",
    "HMMA": "tensor core (HMMA)", "IMMA": "tensor core (IMMA)", "DMMA": "tensor core (DMMA)", "BMMA": "tensor core",
    "HGMMA": "tensor core (HGMMA/wgmma)", "IGMMA": "tensor core (IGMMA/wgmma)", "QGMMA": "tensor core (QGMMA/wgmma)",
    "BGMMA": "tensor core (wgmma)", "UTCHMMA": "tensor core (tcgen05)", "UTCQMMA": "tensor core (tcgen05)",
    "UTCIMMA": "tensor core (tcgen05)", "UTCOMMA": "tensor core (tcgen05)",
    "FFMA": "FFMA", "FADD": "FADD", "FMUL": "FMUL", "HFMA2": "HFMA2", "DFMA": "DFMA", "MUFU": "special function",
    "BAR": "barrier", "WARPSYNC": "warp sync", "MEMBAR": "memory barrier", "SYNCS": "mbarrier (SYNCS)",
    "FENCE": "fence", "ATOM": "atomic (generic)", "ATOMG": "atomic (global)", "ATOMS": "atomic (shared)",
    "RED": "reduction (global)", "REDG": "reduction (global)", "SHFL": "warp shuffle", "VOTE": "warp vote",
    "LD": "generic load", "ST": "generic store", "LDC": "constant load", "ULDC": "constant load",
}
_WIDTH_OPS = {"LDG", "STG", "LDS", "STS", "LDL", "STL", "LD", "ST", "LDGSTS"}
_WIDTH_SUFFIX = {"U8": 8, "S8": 8, "U16": 16, "S16": 16, "32": 32, "64": 64, "128": 128, "256": 256}


def classify(text: str) -> tuple[str, str | None, int | None]:
    """(opcode, class, access width in bits) of one instruction's text."""
    body = _PRED.sub("", text.strip())
    mnemonic = body.split(None, 1)[0] if body else ""
    parts = mnemonic.split(".")
    op = parts[0]
    cls = _CLASSES.get(op)
    width = None
    if op in _WIDTH_OPS:
        width = 32
        for p in parts[1:]:
            if p in _WIDTH_SUFFIX:
                width = _WIDTH_SUFFIX[p]
    return mnemonic, cls, width


@dataclass
class KernelLowering:
    name: str  # lowered name
    instructions: int = 0
    classes: Counter = field(default_factory=Counter)
    widths: dict[str, Counter] = field(default_factory=lambda: defaultdict(Counter))  # class -> width -> count
    by_line: dict[tuple[str, int], list[str]] = field(default_factory=lambda: defaultdict(list))

    @property
    def global_load_widths(self) -> dict[int, int]:
        return dict(self.widths.get("global load", {}))

    @property
    def has_local_memory(self) -> bool:
        return bool(self.classes.get("local load (LDL)") or self.classes.get("local store (STL)"))

    @property
    def tensor_core(self) -> list[str]:
        return sorted(c for c in self.classes if c.startswith("tensor core"))

    def summary(self) -> dict:
        return {
            "kernel": self.name,
            "instructions": self.instructions,
            "classes": dict(self.classes.most_common()),
            "widths": {cls: {f"{w}-bit": n for w, n in sorted(c.items())} for cls, c in self.widths.items()},
            "local_memory": self.has_local_memory,
            "tensor_core": self.tensor_core,
        }

    def to_dict(self) -> dict:
        lines = [
            {"file": f, "line": ln, "instructions": insns}
            for (f, ln), insns in sorted(self.by_line.items(), key=lambda kv: (kv[0][0], kv[0][1]))
        ]
        return {**self.summary(), "lines": lines}


def _count(cur: KernelLowering, mnemonic: str, cls: str | None, width: int | None,
           where: tuple[str, int] | None) -> None:
    if mnemonic in ("NOP", ""):
        return
    cur.instructions += 1
    if cls:
        cur.classes[cls] += 1
        if width is not None:
            cur.widths[cls][width] += 1
    if where is not None:
        cur.by_line[where].append(mnemonic)


def parse_sass_json(text: str) -> dict[str, KernelLowering]:
    """Parse ``nvdisasm -json -g`` output: ``[header, [function, ...], {"directories", "files"}]``, where a
    function's ``sass-instructions`` carry ``opcode``, ``predicate`` and, where the source line changes,
    ``source-file-id`` / ``source-line`` (later instructions belong to the last line given). A ValueError when the
    document has another shape."""
    try:
        doc = json.loads(text)
        header, functions = doc[0], doc[1]
        table = doc[2] if len(doc) > 2 and isinstance(doc[2], dict) else {}
        dirs = table.get("directories", [])
        files = [posixpath.join(dirs[f["dir-idx"]], f["file"]) if "dir-idx" in f else f["file"]
                 for f in table.get("files", [])]
        if not isinstance(header, dict) or not isinstance(functions, list):
            raise TypeError("unexpected top level")
        kernels: dict[str, KernelLowering] = {}
        for fn in functions:
            cur = kernels.setdefault(fn["function-name"], KernelLowering(fn["function-name"]))
            where: tuple[str, int] | None = None
            for insn in fn.get("sass-instructions", []):
                if "source-line" in insn:
                    fid = insn.get("source-file-id", 0)
                    where = (files[fid] if fid < len(files) else f"file{fid}", int(insn["source-line"]))
                mnemonic, cls, width = classify(insn.get("opcode", ""))
                _count(cur, mnemonic, cls, width, where)
        return kernels
    except (ValueError, TypeError, KeyError, IndexError) as exc:
        raise ValueError(f"unexpected nvdisasm -json output: {exc!r}") from None


def parse_sass(sass: str) -> dict[str, KernelLowering]:
    """Parse ``nvdisasm -g -c`` output into per-kernel reports (instructions attributed to the last line marker)."""
    kernels: dict[str, KernelLowering] = {}
    cur: KernelLowering | None = None
    where: tuple[str, int] | None = None
    for raw in sass.splitlines():
        m = _FUNC.match(raw)
        if m:
            cur = kernels.setdefault(m.group(1), KernelLowering(m.group(1)))
            where = None
            continue
        if cur is None:
            continue
        m = _LINE.match(raw)
        if m:
            where = (source_path(m.group("file")), int(m.group("line")))
            continue
        m = _INSN.match(raw)
        if not m:
            continue
        _count(cur, *classify(m.group("text")), where)
    return kernels
