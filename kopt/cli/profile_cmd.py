"""``kopt profile TASK CANDIDATE``: Nsight Compute figures and the bottleneck, as findings."""
from __future__ import annotations

from pathlib import Path
from typing import List, Optional

import typer
from rich.table import Table

from ..render import to_text
from ..torch_problem import open_task
from ._app import app
from ._common import console, console_err, print_json, with_includes, activity
from .compile_cmds import ArchOpt, IncludeOpt, JsonOpt
from .run_cmd import parse_config


def _fmt(v, unit=""):
    if v is None:
        return "-"
    return f"{v:,.0f}{unit}" if abs(v) >= 100 else f"{v:.2f}{unit}"


@app.command("profile")
def profile_cmd(task: Path = typer.Argument(..., help="task directory (holding task.toml)"),
                candidate: Path = typer.Argument(..., help="candidate .cu file with // kopt: annotations"),
                shape: Optional[str] = typer.Option(None, "--shape", help="the shape to profile (default: the first "
                                                                          "timed shape), e.g. 'n=1000003'"),
                set_: Optional[List[str]] = typer.Option(None, "--set", help="tunable value TUNABLE=VALUE; repeatable"),
                arch: Optional[str] = ArchOpt, include: Optional[List[str]] = IncludeOpt,
                report: Optional[Path] = typer.Option(None, "--report", help="also keep ncu's report (.ncu-rep) here"),
                json_out: bool = JsonOpt):
    """Profile CANDIDATE under ncu: bottleneck, speed of light, occupancy, stalls, DRAM bytes vs the work model."""
    from ..profile import profile

    t = open_task(task)
    shapes = t.find_shape(shape) if shape else None
    with activity(f"kopt profile: {candidate} under Nsight Compute", json_out):
        prof = profile(t, with_includes(candidate, include), shape=shapes[0] if shapes else None,
                       config=parse_config(set_), arch=arch, report=report)
    if json_out:
        print_json(prof.to_dict())
        return 0
    tab = Table(title=f"{prof.candidate} on {prof.task} at {prof.shape}")
    for col in ("kernel", "bottleneck", "time µs", "SOL mem %", "SOL SM %", "DRAM MB", "L1 hit %", "L2 hit %",
                "occupancy % (theor.)", "limiter", "top stall"):
        tab.add_column(col, justify="left" if col in ("kernel", "bottleneck", "limiter", "top stall") else "right")
    for k in prof.kernels:
        f = k.figures
        dram = (f.get("dram_read") or 0) + (f.get("dram_write") or 0)
        tab.add_row(k.name[:40], k.bottleneck, _fmt(f.get("duration")), _fmt(f.get("sol_memory")),
                    _fmt(f.get("sol_compute")), _fmt(dram / 1e6), _fmt(f.get("l1_hit")), _fmt(f.get("l2_hit")),
                    f"{_fmt(f.get('occ_achieved'))} ({_fmt(f.get('occ_theoretical'))})", k.limiter or "-",
                    k.stalls[0]["reason"] if k.stalls else "-")
    console.print(tab)
    if prof.excess_ratio is not None:
        console.print(f"DRAM bytes / work model: {prof.excess_ratio:.2f}x "
                      f"({prof.dram_bytes / 1e6:.1f} MB vs {prof.work_bytes / 1e6:.1f} MB)")
    for h in prof.hot_lines:
        console.print(f"  hot {prof.candidate}:{h['line']}  {h['samples']:.0f} samples  {h['source']}",
                      markup=False, highlight=False)
    for note in prof.notes:
        console_err.print(f"note: {note}", markup=False)
    if prof.diagnostics:
        console_err.print(to_text(prof.diagnostics), markup=False)
    return 0
