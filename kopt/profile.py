"""``kopt.profile``: run a candidate once under Nsight Compute and say why it is as fast as it is.

The run-once process (``kopt.worker.run_once``) launches the declared sequence after a warm-up; ncu profiles one launch of
each declared kernel (``--launch-skip K --launch-count K``, ``--clock-control none``) into a report, which is then
read back as CSV (``--page raw``, and ``--page source --print-source cuda,sass`` for hot lines). The parser accepts both
ncu CSV layouts: the wide one (a row of metric names, a row of units, a row per kernel) and the long one
(``"Metric Name","Metric Unit","Metric Value"`` per row), raw metric names or the details page's display names.

Bottleneck rule (per kernel, in order):
  1. launch-bound  — the kernel runs under 5 µs: launch and ramp-up cost dominate;
  2. memory-bound  — max(memory SOL %, compute SOL %) >= 60 and memory SOL >= compute SOL;
  3. compute-bound — the same with compute SOL above memory SOL;
  4. latency-bound — neither unit reaches 60 % of peak: warps mostly wait (see the stall reasons).
60 % is Nsight Compute's own threshold below which a kernel is said not to use the GPU's throughput well.

Advice is a hypothesis with its evidence: every finding names the measured figures it rests on (achieved DRAM
throughput and its share of the matching ceiling, occupancy, throughput shares) and its hint says what *may* help and
what to try. The matching DRAM ceiling is the device's measured one for the kernel's read/write mix (kopt.roofline's,
from kopt's ceilings cache) when known, else ncu's own peak. A kernel at or above ``DRAM_BOUND_PCT`` of
it is at its bandwidth limit: no occupancy advice is given (more warps cannot move more bytes, and capping registers
for occupancy can slow it), and the profile's notes say so.
"""
from __future__ import annotations

import csv
import io
import re
import shutil
import subprocess
import tempfile
from dataclasses import asdict, dataclass, field
from pathlib import Path

from .diagnostic import Diagnostic, Location, Severity
from .errors import GpuUnavailableError, InputError, KoptError, ToolchainError
from .roofline import matching_bandwidth
from .rules import RULES

SECTIONS = ("SpeedOfLight", "MemoryWorkloadAnalysis", "Occupancy", "LaunchStats", "WarpStateStats",
            "SchedulerStats", "SourceCounters")
LAUNCH_BOUND_US = 5.0
BUSY_PCT = 60.0
EXCESS_RATIO = 1.5
DRAM_BOUND_PCT = 80.0  # share of the matching DRAM ceiling from which occupancy advice is withheld

# key -> (unit kind, names: raw metric first, then the details page's display names)
METRICS = {
    "duration": ("time", ("gpu__time_duration.sum", "Duration")),
    "sol_compute": ("pct", ("sm__throughput.avg.pct_of_peak_sustained_elapsed", "Compute (SM) Throughput")),
    "sol_memory": ("pct", ("gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed", "Memory Throughput")),
    "dram_pct": ("pct", ("gpu__dram_throughput.avg.pct_of_peak_sustained_elapsed",
                         "dram__throughput.avg.pct_of_peak_sustained_elapsed", "DRAM Throughput")),
    "l2_pct": ("pct", ("lts__throughput.avg.pct_of_peak_sustained_elapsed", "L2 Cache Throughput")),
    # of active cycles, as ncu's breakdown reports it (the others are of elapsed cycles); a very short kernel can
    # read above 100
    "l1_pct": ("pct", ("l1tex__throughput.avg.pct_of_peak_sustained_active", "L1/TEX Cache Throughput")),
    "dram_read": ("bytes", ("dram__bytes_read.sum",)),
    "dram_bps": ("rate", ("dram__bytes.sum.per_second", "DRAM Bandwidth")),
    "dram_write": ("bytes", ("dram__bytes_write.sum",)),
    "l1_hit": ("pct", ("l1tex__t_sector_hit_rate.pct", "L1/TEX Hit Rate")),
    "l2_hit": ("pct", ("lts__t_sector_hit_rate.pct", "L2 Hit Rate")),
    "occ_achieved": ("pct", ("sm__warps_active.avg.pct_of_peak_sustained_active", "Achieved Occupancy")),
    "occ_theoretical": ("pct", ("sm__maximum_warps_per_active_cycle_pct", "Theoretical Occupancy")),
    "limit_registers": ("count", ("launch__occupancy_limit_registers", "Block Limit Registers")),
    "limit_shared": ("count", ("launch__occupancy_limit_shared_mem", "Block Limit Shared Mem")),
    "limit_warps": ("count", ("launch__occupancy_limit_warps", "Block Limit Warps")),
    "limit_blocks": ("count", ("launch__occupancy_limit_blocks", "Block Limit SM")),
    "registers": ("count", ("launch__registers_per_thread", "Registers Per Thread")),
    "block_size": ("count", ("launch__block_size", "Block Size")),
    "grid_size": ("count", ("launch__grid_size", "Grid Size")),
    "waves": ("count", ("launch__waves_per_multiprocessor", "Waves Per SM")),
    "issue_active": ("pct", ("smsp__issue_active.avg.pct_of_peak_sustained_active", "Issue Slots Busy")),
}
EXTRA_METRICS = ("dram__bytes_read.sum", "dram__bytes_write.sum", "lts__t_sector_hit_rate.pct",
                 "l1tex__t_sector_hit_rate.pct")
LIMITERS = {"limit_warps": "warps (block size)", "limit_blocks": "blocks per SM", "limit_registers": "registers",
            "limit_shared": "shared memory"}  # in tie-break order: a resource is the limiter only if it alone binds
STALL = re.compile(r"^smsp__(?:average_warps?_(?:latency_)?issue_stalled_(\w+?)_per_issue_active\.ratio"
                   r"|pcsamp_warps_issue_stalled_(\w+?)(?:_not_issued)?(?:\.sum)?)$")
STALLS = {
    "long_scoreboard": "waiting on a global/local memory load (L1TEX): hide latency with more loads in flight",
    "short_scoreboard": "waiting on shared memory or a special-function result (MIO)",
    "barrier": "waiting at __syncthreads for the rest of the block",
    "membar": "waiting on a memory fence",
    "wait": "fixed-latency dependency between instructions",
    "math_pipe_throttle": "the math pipe is busy: compute-bound on that pipe",
    "mio_throttle": "the shared-memory/special-function queue is full",
    "lg_throttle": "the local/global memory queue is full: too many narrow memory instructions",
    "tex_throttle": "the texture/L1TEX queue is full",
    "not_selected": "eligible but another warp was picked: plenty of parallelism",
    "selected": "issuing an instruction (not a stall)",
    "no_instruction": "instruction cache miss or waiting after a branch",
    "branch_resolving": "waiting for a branch target to resolve",
    "dispatch_stall": "the dispatcher could not issue (pipeline conflict)",
    "drain": "waiting for memory stores to drain at exit",
    "imc_miss": "constant cache miss",
    "sleeping": "warp is sleeping (nanosleep or yield)",
    "misc": "miscellaneous hardware reason",
}
STALL_ALIASES = {"no_instructions": "no_instruction"}  # the PC-sampling metric's spelling
_BYTES = {"byte": 1, "bytes": 1, "b": 1, "kbyte": 1e3, "kb": 1e3, "mbyte": 1e6, "mb": 1e6, "gbyte": 1e9, "gb": 1e9,
          "tbyte": 1e12, "kib": 1024, "mib": 1024 ** 2, "gib": 1024 ** 3}
_TIME_US = {"nsecond": 1e-3, "ns": 1e-3, "usecond": 1, "us": 1, "µs": 1, "msecond": 1e3, "ms": 1e3, "second": 1e6,
            "s": 1e6, "cycle": None}


def number(text) -> float | None:
    """A metric value as a float: thousands separators and stray spaces removed; None when not numeric."""
    if text is None:
        return None
    t = str(text).strip().replace(",", "").replace(" ", "").rstrip("%")
    try:
        return float(t)
    except ValueError:
        return None


def _convert(value: float, unit: str, kind: str) -> float | None:
    u = unit.strip().lower()
    if kind == "pct":
        return value if u in ("%", "", "pct", "percent") else None
    if kind == "bytes":
        return value * _BYTES[u] if u in _BYTES else (value if u == "" else None)
    if kind == "rate":  # bytes per second, e.g. "Tbyte/s" or "byte/second"
        per, sep, tail = u.partition("/")
        return value * _BYTES[per] if sep and tail in ("s", "second") and per in _BYTES else None
    if kind == "time":
        f = _TIME_US.get(u, 1e-3 if u == "" else None)  # ncu's raw default unit is nanoseconds
        return value * f if f else None
    return value


# --- parsing --------------------------------------------------------------------------------------------------------
def _csv_rows(text: str) -> list[list[str]]:
    lines = [ln for ln in text.splitlines() if ln.startswith('"')]  # drops ==PROF== and program output
    return list(csv.reader(io.StringIO("\n".join(lines))))


def parse_ncu_csv(text: str) -> list[dict]:
    """Kernels in report order: ``{"id", "name", "metrics": {metric name: (value text, unit)}}``."""
    kernels: dict[str, dict] = {}
    header: list[str] | None = None
    units: list[str] | None = None
    for row in _csv_rows(text):
        if "Kernel Name" in row and ("ID" in row or "Metric Name" in row):
            header, units = row, None
            continue
        if header is None:
            continue
        rec = dict(zip(header, row))
        if "Metric Name" in header:  # long layout
            kid = rec.get("ID", "0")
            k = kernels.setdefault(kid, {"id": kid, "name": rec.get("Kernel Name", ""), "metrics": {}})
            name = rec.get("Metric Name", "")
            k["metrics"].setdefault(name, []).append((rec.get("Metric Value", ""), rec.get("Metric Unit", "")))
            continue
        if units is None and not rec.get("ID", "").strip():  # wide layout: the units row
            units = row
            continue
        kid = rec.get("ID", str(len(kernels)))
        k = kernels.setdefault(kid, {"id": kid, "name": rec.get("Kernel Name", ""), "metrics": {}})
        for i, col in enumerate(header):
            if i < len(row) and col not in ("ID", "Kernel Name"):
                k["metrics"].setdefault(col, []).append((row[i], units[i] if units and i < len(units) else ""))
    return list(kernels.values())


_LINE_COLUMNS = ("line no", "line number", "line", "#")  # the CUDA-line column of the source page's table


def parse_source_csv(text: str) -> list[tuple[str, int, float, str]]:
    """(file, line, warp-stall samples, source text) per CUDA source line of ``--page source --print-source cuda,sass --csv``.

    Layout (Nsight Compute CLI docs, Console Output: metrics are correlated only in the ``sass`` and ``cuda,sass``
    views): per source file a ``"File Path",PATH`` row, then ``"Function Name",NAME`` and a header
    ``"Line No","Source","Address","Source",<metrics: "Warp Stall Sampling (All Samples)", ...>``; a CUDA line's row
    carries its number and text, the SASS instructions attributed to it follow with an ``Address`` and no number.
    A line's samples are the sum of its instructions' samples; the line row's own value counts only when no
    instruction under it has any (a table of lines alone). Keyed by file, so an included header's line 7 stays apart
    from the candidate's; the plain ``sass`` view has no line column and yields nothing.
    """
    own: dict[tuple, float] = {}
    inst: dict[tuple, float] = {}
    texts: dict[tuple, str] = {}
    cols = None
    path, key = "", None
    for row in _csv_rows(text):
        low = [c.strip().lower() for c in row]
        if low[:1] == ["file path"]:
            path, cols, key = (row[1] if len(row) > 1 else ""), None, None
            continue
        line_i = next((low.index(c) for c in _LINE_COLUMNS if c in low), None)
        samp_i = next((i for i, c in enumerate(low) if "warp stall sampling (all" in c), None)
        samp_i = samp_i if samp_i is not None else next((i for i, c in enumerate(low) if "sampling" in c), None)
        if line_i is not None and samp_i is not None:  # a header row (first "Source" is the CUDA text)
            cols = (line_i, low.index("source") if "source" in low else None,
                    low.index("address") if "address" in low else None, samp_i)
            continue
        if cols is None:
            continue
        cell = lambda i: row[i].strip() if i is not None and i < len(row) else ""  # noqa: E731
        line, samples = number(cell(cols[0])), number(cell(cols[3])) or 0.0
        if line is not None:
            key = (path, int(line))
            texts.setdefault(key, cell(cols[1]))
            own[key] = own.get(key, 0.0) + samples
        elif key is not None and cell(cols[2]) not in ("", "-", "..."):
            inst[key] = inst.get(key, 0.0) + samples
    out = [(k[0], k[1], inst.get(k) or own.get(k, 0.0), texts[k]) for k in texts]
    return sorted((t for t in out if t[2]), key=lambda t: -t[2])


# --- the Profile model --------------------------------------------------------------------------------------------
@dataclass
class KernelProfile:
    name: str
    bottleneck: str = "unknown"  # memory | compute | latency | launch
    figures: dict = field(default_factory=dict)  # the curated keys of METRICS, in µs / % / bytes / counts
    limiter: str | None = None
    stalls: list = field(default_factory=list)  # [{"reason", "value", "meaning"}], largest first
    line: int = 0  # the launch declaration in the candidate

    def get(self, key):
        return self.figures.get(key)


@dataclass
class Profile:
    task: str
    candidate: str
    shape: str
    kernels: list[KernelProfile]
    work_bytes: float | None = None
    dram_bytes: float | None = None
    hot_lines: list = field(default_factory=list)  # [{"line", "samples", "source"}]
    diagnostics: list[Diagnostic] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    raw: dict = field(default_factory=dict, repr=False)  # ncu's CSV texts ("raw", "source"), where exported
    read_from: dict = field(default_factory=dict)  # "metrics"/"source" -> "ncu_report" or "csv"

    @property
    def excess_ratio(self) -> float | None:
        if self.work_bytes and self.dram_bytes is not None:
            return self.dram_bytes / self.work_bytes
        return None

    def to_dict(self) -> dict:
        return {"task": self.task, "candidate": self.candidate, "shape": self.shape,
                "kernels": [asdict(k) for k in self.kernels], "work_bytes": self.work_bytes,
                "dram_bytes": self.dram_bytes, "excess_ratio": self.excess_ratio, "hot_lines": self.hot_lines,
                "diagnostics": [d.to_dict() for d in self.diagnostics], "notes": self.notes,
                "read_from": self.read_from}


def _pick(metrics: dict, key: str):
    kind, names = METRICS[key]
    for name in names:
        for value, unit in metrics.get(name, []):
            v = number(value)
            if v is not None:
                v = _convert(v, unit, kind)
                if v is not None:
                    return v
    return None


def classify(f: dict) -> str:
    """The bottleneck class of one kernel from its figures (see the module docstring for the rule)."""
    dur, mem, comp = f.get("duration"), f.get("sol_memory"), f.get("sol_compute")
    if dur is not None and dur < LAUNCH_BOUND_US:
        return "launch"
    if mem is None and comp is None:
        return "unknown"
    mem, comp = mem or 0.0, comp or 0.0
    if max(mem, comp) >= BUSY_PCT:
        return "memory" if mem >= comp else "compute"
    return "latency"


def limiter(f: dict) -> str | None:
    """What caps theoretical occupancy: the smallest of ncu's per-SM block limits; None at full occupancy."""
    if f.get("occ_theoretical") is not None and f["occ_theoretical"] >= 99.5:
        return None
    limits = [(f[k], i, LIMITERS[k]) for i, k in enumerate(LIMITERS) if f.get(k) is not None]
    return min(limits)[2] if limits else None


def kernel_profile(raw: dict) -> KernelProfile:
    m = raw["metrics"]
    figures = {k: v for k in METRICS if (v := _pick(m, k)) is not None}
    ratios, samples = {}, {}  # per-issue ratios (SchedulerStats/WarpStateStats) and PC-sampling counts
    for name, values in m.items():
        hit = STALL.match(name)
        v = number(values[0][0]) if values else None
        if hit and v is not None:
            reason = STALL_ALIASES.get(hit.group(1) or hit.group(2), hit.group(1) or hit.group(2))
            if reason == "selected":
                continue
            if hit.group(1):
                ratios[reason] = v
            else:
                samples.setdefault(reason, v)  # the all-samples count comes before its _not_issued twin
    stalls = ratios or samples  # never mixed: a ratio and a sample count are not comparable
    kp = KernelProfile(raw["name"], figures=figures, limiter=limiter(figures))
    kp.bottleneck = classify(figures)
    kp.stalls = [{"reason": r, "value": round(v, 3), "meaning": STALLS.get(r, "")}
                 for r, v in sorted(stalls.items(), key=lambda kv: -kv[1])[:5] if v > 0]
    return kp


def build(task_name: str, candidate: str, shape: str, raw_csv: str, source_csv: str = "", *,
          work_bytes: float | None = None, launch_lines=(), source_text: str | None = None,
          report: tuple[list[dict], list] | None = None, ceilings: dict | None = None) -> Profile:
    """A Profile (with its Diagnostics) from ncu's CSV texts, or from ``report``: (kernels, hot source lines) as
    ``parse_ncu_csv`` / ``parse_source_csv`` or ``kopt.ncu_report_reader.read`` give them. ``launch_lines`` are the
    declared launches' lines. ``ceilings``: the device's measured bandwidth ceilings (``kopt.roofline``), for the
    DRAM evidence of the findings; ncu's own peak stands in without them."""
    kernels = [kernel_profile(k) for k in (report[0] if report else parse_ncu_csv(raw_csv))]
    for k, line in zip(kernels, launch_lines):
        k.line = line
    reads = [k.get("dram_read") for k in kernels]
    writes = [k.get("dram_write") for k in kernels]
    dram = sum(x or 0 for x in reads + writes) if any(x is not None for x in reads + writes) else None
    prof = Profile(task_name, candidate, shape, kernels, work_bytes, dram)
    src = source_text.splitlines() if source_text is not None else None
    for path, line, samples, text in (report[1] if report else parse_source_csv(source_csv)):
        if path and Path(path).name != Path(candidate).name:
            continue  # a line of an included header, not of the candidate
        if src is not None and text.strip() and not (0 < line <= len(src) and src[line - 1].strip() == text.strip()):
            continue  # no file named: the text must be the candidate's own line
        prof.hot_lines.append({"line": line, "samples": samples, "source": text.strip()[:120]})
        if len(prof.hot_lines) == 5:
            break
    if not kernels:
        prof.notes.append("ncu reported no kernel: nothing was profiled")
    prof.diagnostics = findings(prof, ceilings)
    return prof


# --- findings ------------------------------------------------------------------------------------------------------
def _pct(v) -> str:
    return "n/a" if v is None else f"{v:.0f} %"


MEMORY_UNITS = {"dram_pct": "DRAM", "l2_pct": "L2", "l1_pct": "L1/shared"}
ON_CHIP_HINT = {
    "L2": "the L2 slices, not DRAM, may be the limit: look for re-reads that hit L2 (tiles loaded by many blocks), "
          "atomics on global memory, or uncoalesced accesses that multiply sectors, and try removing them",
    "L1/shared": "the SM's L1/shared-memory pipe, not DRAM, may be the limit: try fewer shared-memory operations per "
                 "byte (wider accesses, fewer shared atomics, register reuse) and removing bank conflicts",
}


def busiest_memory_unit(figures: dict) -> str | None:
    """The memory unit nearest its peak (DRAM, L2 or L1/shared) among those the profile measured."""
    known = {name: figures[key] for key, name in MEMORY_UNITS.items() if figures.get(key) is not None}
    return max(known, key=known.get) if known else None


@dataclass
class DramEvidence:
    """Achieved DRAM throughput of one kernel and its share of the matching ceiling."""

    bytes_per_s: float | None
    share_pct: float | None  # of ``ceiling``
    ceiling: str  # which: "measured copy ceiling", "measured read-only ceiling", "measured ceiling for 80 % read,
    # between 3:1 read:write and read-only" (kopt.roofline.matching_bandwidth), "ncu's peak"
    ceiling_bytes_per_s: float | None
    text: str  # "achieved DRAM throughput 3.90 TB/s = 91 % of the measured copy ceiling (4.28 TB/s)"

    @property
    def bound(self) -> bool:
        return self.share_pct is not None and self.share_pct >= DRAM_BOUND_PCT


def dram_evidence(f: dict, ceilings: dict | None = None) -> DramEvidence:
    """The kernel's DRAM throughput (ncu's ``dram__bytes.sum.per_second``, else its DRAM bytes over its duration)
    against the measured ceiling of its read/write mix (``ceilings``: kopt's measured streams, interpolated by
    ``kopt.roofline.matching_bandwidth``; the copy mix when ncu did not split reads and writes), else ncu's own peak
    (throughput / ncu's DRAM %)."""
    rd, wr, dur = f.get("dram_read"), f.get("dram_write"), f.get("duration")
    bps = f.get("dram_bps")
    if bps is None and dur and (rd or wr):
        bps = ((rd or 0.0) + (wr or 0.0)) / (dur * 1e-6)
    parts = []
    ncu_peak = bps / (f["dram_pct"] / 100) if bps and f.get("dram_pct") else None
    ceilings = ceilings or {}
    # the kernel's own read/write mix when ncu counted it (kopt.roofline's interpolation), else the copy mix
    match = matching_bandwidth(ceilings, rd, wr) if rd is not None and wr is not None else None
    match = match or matching_bandwidth(ceilings, 1.0, 1.0)
    gbps, kind = match or (None, "")
    if not bps:
        return DramEvidence(None, None, "", None, "DRAM throughput not measured")
    text = f"achieved DRAM throughput {bps / 1e12:.2f} TB/s"
    if gbps:
        ceiling = (f"measured {kind} ceiling" if " (" not in kind else  # an interpolated mix: "67 % read (between..)"
                   f"measured ceiling for {kind.replace(' (', ', ').removesuffix(')')}")
        share, peak = 100 * bps / (gbps * 1e9), gbps * 1e9
        parts.append(f"{share:.0f} % of the {ceiling} ({gbps / 1e3:.2f} TB/s)")
        if ncu_peak:
            parts.append(f"{f['dram_pct']:.0f} % of ncu's peak ({ncu_peak / 1e12:.2f} TB/s)")
    elif ncu_peak:
        share, ceiling, peak = f["dram_pct"], "ncu's peak", ncu_peak
        parts.append(f"{share:.0f} % of ncu's peak ({ncu_peak / 1e12:.2f} TB/s)")
    else:
        return DramEvidence(bps, None, "", None, text + " (no ceiling to compare with)")
    return DramEvidence(bps, share, ceiling, peak, text + " = " + ", ".join(parts))


def _occupancy_text(f: dict) -> str:
    return f"occupancy {_pct(f.get('occ_theoretical'))} theoretical, {_pct(f.get('occ_achieved'))} achieved"


def findings(p: Profile, ceilings: dict | None = None) -> list[Diagnostic]:
    """The Diagnostics of a profile: each kernel's bottleneck and occupancy, and DRAM traffic beyond the work model.
    Each names the figures it rests on; ``ceilings``: the device's measured bandwidth ceilings, when known."""
    out = []
    for k in p.kernels:
        loc = [Location(p.candidate, k.line, role="launch")] if k.line else []
        f = k.figures
        dram = dram_evidence(f, ceilings)
        evidence = {"dram_bytes_per_s": dram.bytes_per_s, "dram_share_pct": dram.share_pct,
                    "dram_ceiling": dram.ceiling or None, "occupancy_theoretical": f.get("occ_theoretical"),
                    "occupancy_achieved": f.get("occ_achieved"), "sol_memory": f.get("sol_memory"),
                    "sol_compute": f.get("sol_compute")}
        top = k.stalls[0] if k.stalls else None
        stall_txt = f"; top stall: {top['reason']} ({top['meaning']})" if top else ""
        if k.bottleneck == "memory":
            unit = busiest_memory_unit(f)
            # a streaming kernel also keeps L2 busy (every DRAM byte passes through it): an on-chip unit is named as
            # the limit only when DRAM itself is not busy
            on_chip = unit not in (None, "DRAM") and f.get("dram_pct") is not None and f["dram_pct"] < BUSY_PCT
            out.append(RULES["profile.memory-bound"].diag(
                f"{k.name}: memory-bound: {dram.text}; memory throughput {_pct(f.get('sol_memory'))} of peak "
                f"(DRAM {_pct(f.get('dram_pct'))}, L2 {_pct(f.get('l2_pct'))}, L1/shared {_pct(f.get('l1_pct'))}, "
                f"compute {_pct(f.get('sol_compute'))}); {_occupancy_text(f)}"
                + (f"; the busiest unit is {unit}, not DRAM" if on_chip else ""), *loc,
                hint=ON_CHIP_HINT[unit] if on_chip else None, witness=evidence))
        elif k.bottleneck == "compute":
            out.append(RULES["profile.compute-bound"].diag(
                f"{k.name}: compute-bound: SM throughput {_pct(f.get('sol_compute'))} of peak, memory "
                f"{_pct(f.get('sol_memory'))}; {dram.text}; {_occupancy_text(f)}", *loc, witness=evidence))
        elif k.bottleneck == "latency":
            out.append(RULES["profile.latency-bound"].diag(
                f"{k.name}: latency-bound: memory throughput {_pct(f.get('sol_memory'))} and compute "
                f"{_pct(f.get('sol_compute'))} of peak; {dram.text}; {_occupancy_text(f)}{stall_txt}", *loc,
                witness=evidence))
        elif k.bottleneck == "launch":
            out.append(RULES["profile.launch-bound"].diag(
                f"{k.name}: runs {f.get('duration', 0):.2f} µs (ncu gpu__time_duration), under "
                f"{LAUNCH_BOUND_US:g} µs: launch overhead and ramp-up may dominate its time", *loc, witness=evidence))
        out += _occupancy_findings(p, k, f, dram, evidence, loc)
    ratio = p.excess_ratio
    if ratio is not None and ratio >= EXCESS_RATIO:
        locs = [Location(p.candidate, h["line"], role="hot") for h in p.hot_lines[:3]]
        out.append(RULES["profile.excess-dram-traffic"].diag(
            f"DRAM traffic {p.dram_bytes / 1e6:.1f} MB (ncu dram__bytes_read + dram__bytes_write) is {ratio:.1f}x the "
            f"task's work model ({p.work_bytes / 1e6:.1f} MB): re-reads or uncoalesced traffic may be the cause",
            *locs, witness={"dram_bytes": p.dram_bytes, "work_bytes": p.work_bytes, "ratio": round(ratio, 2)}))
    return out


def _occupancy_findings(p: Profile, k: KernelProfile, f: dict, dram: DramEvidence, evidence: dict,
                        loc: list) -> list[Diagnostic]:
    theo, ach = f.get("occ_theoretical"), f.get("occ_achieved")
    limited = theo is not None and theo < 50 and k.limiter in ("registers", "shared memory")
    starved = (theo is not None and ach is not None and theo >= 50 and ach < 0.6 * theo
               and k.bottleneck == "latency")
    if not (limited or starved):
        return []
    if dram.bound:
        p.notes.append(f"{k.name}: no occupancy advice: {dram.text}, at or above {DRAM_BOUND_PCT:.0f} % of the "
                       f"matching ceiling, so the kernel is at its bandwidth limit ({_occupancy_text(f)}); more warps "
                       f"may not move more bytes, and capping registers for occupancy may slow it down")
        return []
    if limited:
        what = (f"{f['registers']:.0f} registers per thread" if k.limiter == "registers" and f.get("registers")
                else k.limiter)
        hint = ("fewer registers per thread may raise occupancy and hide more latency: try __launch_bounds__(threads, "
                "minBlocks) or keeping fewer values live, and re-measure (it helps only if warps wait on latency)"
                if k.limiter == "registers" else
                "less shared memory per block may raise occupancy: try smaller tiles or fewer pipeline stages, and "
                "re-measure")
        return [RULES["profile.occupancy-limited"].diag(
            f"{k.name}: {_occupancy_text(f)}, limited by {what}; {dram.text}; memory throughput "
            f"{_pct(f.get('sol_memory'))}, compute {_pct(f.get('sol_compute'))} of peak", *loc,
            witness={"limiter": k.limiter, "theoretical": theo, "achieved": ach, **evidence}, hint=hint)]
    return [RULES["profile.occupancy-limited"].diag(
        f"{k.name}: achieved occupancy {_pct(ach)} is well below the theoretical {_pct(theo)} with "
        f"{f.get('waves', 0):.2f} waves; {dram.text}; memory throughput {_pct(f.get('sol_memory'))}, compute "
        f"{_pct(f.get('sol_compute'))} of peak: too few blocks or unbalanced work may leave SMs idle", *loc,
        severity=Severity.NOTE, witness={"limiter": "grid or imbalance", "theoretical": theo, "achieved": ach,
                                         **evidence},
        hint="more, smaller blocks or work balanced across blocks may fill the SMs: try them and re-measure")]


# --- running ncu ---------------------------------------------------------------------------------------------------
def _run(cmd: list[str], cwd: str | None, timeout: float) -> subprocess.CompletedProcess:
    try:
        return subprocess.run(cmd, capture_output=True, text=True, cwd=cwd, timeout=timeout)
    except subprocess.TimeoutExpired:
        raise KoptError(f"{Path(cmd[0]).name} did not finish within {timeout:g} s")


def tool_failure(tool: str, proc: subprocess.CompletedProcess, reply=None) -> None:
    """Turn the tools' known failure modes, and the run-once process's own ``Failed`` reply, into one-line errors
    (exit 2, or 1 when the candidate failed)."""
    from .protocol import Failed

    text = proc.stdout + "\n" + proc.stderr
    if "ERR_NVGPUCTRPERM" in text:
        raise ToolchainError(f"{tool}: access to GPU performance counters is not permitted (ERR_NVGPUCTRPERM): run "
                             "as root or load the driver with NVreg_RestrictProfilingToAdminUsers=0")
    if isinstance(reply, Failed) and reply.rule == "runtime.no-gpu":
        raise GpuUnavailableError(f"no usable GPU: {reply.message}")
    if isinstance(reply, Failed):
        raise RunFailed(f"the candidate failed under {tool} ({reply.rule}): {reply.message}",
                        diagnostics=[reply.diagnostic])
    errors = [ln.strip() for ln in text.splitlines() if ln.startswith("==ERROR==")]
    if errors:
        raise ToolchainError(f"{tool}: {errors[0][len('==ERROR=='):].strip()}")


class RunFailed(KoptError):
    """The candidate itself failed (fault, bad launch) while a tool was watching it."""

    exit_code = 1


def source_page_command(ncu: str, report: str, source: str | Path | None = None) -> list[str]:
    """ncu's source page as CSV: the ``cuda,sass`` view, the one that carries metrics per CUDA line (the plain ``cuda``
    view prints the file without metrics), with the candidate's file named so ncu finds it (it shows CUDA source only
    when the file exists on this machine)."""
    cmd = [ncu, "--import", report, "--csv", "--page", "source", "--print-source", "cuda,sass"]
    if source and Path(source).is_file() and "," not in str(source):  # the option takes a comma-separated list
        cmd += ["--resolve-source-file", str(Path(source).resolve())]
    return cmd


def profile(task, candidate, *, shape=None, config=None, arch=None, timeout: float = 600.0,
            report: str | Path | None = None) -> Profile:
    """Profile ``candidate`` on ``task`` at ``shape`` (default: the first timed shape). Needs ncu and a GPU.
    ``report``: also keep ncu's report file there (``.ncu-rep``, for the Nsight Compute UI)."""
    from .device import require_gpu
    from .roofline import cached_ceilings
    from .run_once import build_request, command, read_reply, write_request
    from .toolchain import require_tool

    if report and (Path(report).is_dir() or not Path(report).resolve().parent.is_dir()):
        raise InputError(f"--report {report}: name a file in an existing folder")
    ncu = require_tool("ncu")
    info = require_gpu("kopt profile")
    with tempfile.TemporaryDirectory(prefix="kopt-profile-") as tmp:
        request, cand, art = build_request(task, candidate, tmp, shape=shape, config=config, arch=arch, warmup=1)
        n = len(request.plan.launches)
        cwd = str(Path(cand.path).parent) if getattr(cand, "path", None) else None
        req = write_request(request, tmp)
        rep = str(Path(tmp, "profile"))
        cmd = [ncu, "--clock-control", "none", "--launch-skip", str(n), "--launch-count", str(n),
               *[a for s in SECTIONS for a in ("--section", s)], "--metrics", ",".join(EXTRA_METRICS),
               "--import-source", "yes", "-f", "-o", rep, *command(req)]
        proc = _run(cmd, cwd, timeout)
        tool_failure("ncu", proc, read_reply(request))
        if proc.returncode != 0 or not Path(rep + ".ncu-rep").exists():
            tail = (proc.stderr.strip() or proc.stdout.strip()).splitlines()[-1:] or ["no output"]
            raise RunFailed(f"ncu exited with code {proc.returncode}: {tail[0]}")
        (kernels, hot), why = read_report(rep + ".ncu-rep")
        # what ncu_report did not give (it is not installed, or the report lacks per-PC samples) comes from ncu's
        # CSV export of the same report
        raw = None if kernels else _run([ncu, "--import", rep + ".ncu-rep", "--csv", "--page", "raw"], cwd, timeout)
        if raw is not None:
            tool_failure("ncu", raw)
        src = None if hot else _run(source_page_command(ncu, rep + ".ncu-rep", getattr(cand, "path", None)), cwd,
                                    timeout)
        if report:
            try:
                shutil.copyfile(rep + ".ncu-rep", report)
            except OSError as exc:
                raise InputError(f"cannot keep the ncu report at {report}: {exc.strerror}") from None
    work = task.work_figures(request.shape).get("bytes") if task.work else None
    source_csv = src.stdout if src is not None and src.returncode == 0 else ""
    parts = (kernels or parse_ncu_csv(raw.stdout), hot or parse_source_csv(source_csv))
    prof = build(task.name, cand.name, request.shape.label, "", work_bytes=work,
                 launch_lines=[lp.line for lp in request.plan.launches], source_text=cand.source, report=parts,
                 ceilings=cached_ceilings(info.name, info.driver))
    prof.raw = {"raw": raw.stdout if raw is not None else "", "source": source_csv}
    prof.read_from = {"metrics": "csv" if raw is not None else "ncu_report",
                      "source": "csv" if src is not None else "ncu_report"}
    if why:
        prof.notes.append(why)
    if src is not None and src.returncode != 0:
        prof.notes.append("ncu could not print the source page: no hot lines")
    return prof


def dram_traffic(task, candidate, *, shape=None, config=None, arch=None, timeout: float = 600.0) -> dict:
    """The DRAM bytes ``candidate`` reads and writes at ``shape`` (ncu's ``dram__bytes_read.sum`` and
    ``dram__bytes_write.sum`` over its kernels) and their multiple of the task's work model (``x_work``), or
    ``{"error": why}`` where ncu cannot count them (not installed, counters not permitted, the run failed)."""
    try:
        p = profile(task, candidate, shape=shape, config=config, arch=arch, timeout=timeout)
    except KoptError as exc:
        return {"error": exc.message}
    read = sum(k.figures.get("dram_read") or 0.0 for k in p.kernels)
    written = sum(k.figures.get("dram_write") or 0.0 for k in p.kernels)
    out = {"shape": p.shape, "read_bytes": read, "written_bytes": written}
    if p.work_bytes:
        out["work_bytes"] = p.work_bytes
        out["x_work"] = (read + written) / p.work_bytes
    return out


def read_report(path: str) -> tuple[tuple[list[dict], list], str]:
    """(kernels, hot lines) of the report through ``ncu_report`` where it is installed (empty lists where it is not
    or could not read it), and why it was not used when that is worth a note."""
    from . import ncu_report_reader

    if not ncu_report_reader.available():
        return ([], []), ""
    try:
        return ncu_report_reader.read(path), ""
    except ValueError as exc:
        return ([], []), f"{exc}; read ncu's CSV export instead"
