"""``kopt compile``, ``kopt explain``, ``kopt doctor`` and ``kopt cache``."""
from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path
from typing import List, Optional

import typer
from rich.markup import escape
from rich.table import Table

from .. import cache as compile_cache
from ..errors import CompileError
from ..explain import compile_file, explain
from ..render import to_json, to_text
from ._app import app
from ._common import (L2BytesOpt, MaxSmemOpt, NumSmsOpt, console, console_err, device_overrides, parse_defines,
                      print_json)

FileArg = typer.Argument(..., help="CUDA C++ source file (.cu)")
ArchOpt = typer.Option(None, "--arch", help="sm_80, sm_86, sm_89, sm_90, sm_90a or sm_100a (default: this GPU, else sm_90)")
DefineOpt = typer.Option(None, "-D", "--define", help="preprocessor define NAME[=VALUE]; repeatable")
KernelOpt = typer.Option(None, "--kernel", "-k", help="kernel name expression, e.g. 'gemm<128,64>'; repeatable")
IncludeOpt = typer.Option(None, "-I", "--include", help="include directory; repeatable")
StdOpt = typer.Option("c++17", "--std", help="C++ standard")
OptionOpt = typer.Option(None, "-X", "--nvrtc-option", help="extra NVRTC option, e.g. --nvrtc-option=-maxrregcount=32")
JsonOpt = typer.Option(False, "--json", help="machine-readable output")


def _failed(exc: CompileError, json_out: bool):
    if json_out:
        print_json({"ok": False, "error": exc.message, "diagnostics": to_json(exc.diagnostics)})
    else:
        console_err.print(to_text(exc.diagnostics), markup=False, highlight=False)
        console_err.print(f"[bold red]error:[/] {exc.message}", highlight=False)
    raise typer.Exit(1)


def _launch_problems(launches) -> list:
    return [d for g in launches for d in g.problems]




def _resources_table(art) -> Table:
    t = Table(title=f"{art.source_name} -> {art.arch} (NVRTC {art.nvrtc_version}, "
                    f"{'cache hit' if art.cache_hit else f'{art.compile_ms:.0f} ms'})")
    for col in ("kernel", "regs", "smem B", "stack B", "spill st/ld B", "barriers", "lowered"):
        t.add_column(col, justify="left" if col in ("kernel", "lowered") else "right")
    for k in art.kernels.values():
        r = k.resources
        spill = f"{r.spill_stores}/{r.spill_loads}"
        t.add_row(k.name, str(r.registers), str(r.static_smem), str(r.stack_frame),
                  f"[red]{spill}[/]" if r.spills else spill, str(r.barriers), k.lowered)
    return t


@app.command("compile")
def compile_cmd(file: Path = FileArg, arch: Optional[str] = ArchOpt, define: Optional[List[str]] = DefineOpt,
                kernel: Optional[List[str]] = KernelOpt, include: Optional[List[str]] = IncludeOpt,
                std: str = StdOpt, nvrtc_option: Optional[List[str]] = OptionOpt,
                ptx: bool = typer.Option(False, "--ptx", help="also print the PTX"),
                sass: bool = typer.Option(False, "--sass", help="also print the SASS"), json_out: bool = JsonOpt):
    """Compile FILE with NVRTC to a cubin and report each kernel's resources."""
    try:
        art, launches = compile_file(Path(file), arch=arch, defines=parse_defines(define), kernels=kernel or None,
                                     include_dirs=include or (), std=std, options=nvrtc_option or ())
    except CompileError as exc:
        _failed(exc, json_out)
    problems = _launch_problems(launches)
    if json_out:
        out = {"ok": True, **art.to_dict(), "launches": [g.to_dict() for g in launches]}
        if ptx:
            out["ptx_text"] = art.ptx
        if sass:
            out["sass_text"] = art.sass()
        print_json(out)
        return
    if art.diagnostics or problems:
        console_err.print(to_text(art.diagnostics + problems), markup=False)
    console.print(_resources_table(art))
    if ptx:
        sys.stdout.write(art.ptx or "")
    if sass:
        sys.stdout.write(art.sass())


def _group(insns: list[str]) -> str:
    return ", ".join(f"{op}" + (f" x{n}" if n > 1 else "") for op, n in Counter(insns).items())


@app.command("explain")
def explain_cmd(file: Path = FileArg, kernel: Optional[List[str]] = KernelOpt, arch: Optional[str] = ArchOpt,
                define: Optional[List[str]] = DefineOpt, include: Optional[List[str]] = IncludeOpt,
                std: str = StdOpt, nvrtc_option: Optional[List[str]] = OptionOpt,
                block: Optional[int] = typer.Option(None, "--block", help="threads per block for the occupancy "
                                                    "figure (default: the candidate's launch annotation, else 256)"),
                smem: Optional[int] = typer.Option(None, "--smem", help="dynamic shared memory bytes for the "
                                                   "occupancy figure (default: the launch annotation's, else 0)"),
                lines: bool = typer.Option(True, "--lines/--no-lines", help="show SASS per source line"),
                num_sms: Optional[int] = NumSmsOpt, l2_bytes: Optional[int] = L2BytesOpt,
                max_smem_per_block: Optional[int] = MaxSmemOpt,
                json_out: bool = JsonOpt):
    """Lowering report: resources, occupancy, instruction classes and widths, SASS per source line."""
    try:
        ex = explain(Path(file), arch=arch, defines=parse_defines(define), kernels=kernel or None, block=block,
                     smem=smem, include_dirs=include or (), std=std, options=nvrtc_option or (),
                     device=device_overrides(num_sms, l2_bytes, max_smem_per_block))
    except CompileError as exc:
        _failed(exc, json_out)
    art = ex.artifact
    problems = _launch_problems(ex.launches)
    if json_out:
        lowering = {name: {**k.lowering.to_dict(), "occupancy": k.occupancy and {
                        **k.occupancy.to_dict(), "geometry_from": k.geometry_from}}
                    for name, k in ex.kernels.items()}
        print_json({"ok": True, **art.to_dict(), "lowering": lowering,
                    "launches": [g.to_dict() for g in ex.launches]})
        return
    if art.diagnostics or problems:
        console_err.print(to_text(art.diagnostics + problems), markup=False)
    console.print(_resources_table(art))
    # SASS names files as NVRTC saw them (absolute); the source may have been given relative to here
    source_file = Path(art.source_name).resolve()
    src_text = art.source.splitlines()
    for name, k in ex.kernels.items():
        rep, occ = k.lowering, k.occupancy
        if occ is None:
            figure = f"occupancy unavailable for {art.arch}"
        else:
            b, s = occ.block_size, occ.dynamic_smem
            figure = (f"occupancy at block {b}{f', {s} B dynamic smem' if s else ''} ({k.geometry_from}): "
                      f"{occ.blocks_per_sm} blocks, {occ.warps_per_sm}/{occ.max_warps_per_sm} warps per SM "
                      f"({occ.fraction:.0%}), limited by {occ.limiter}")
        console.print(f"\n[bold]{escape(name)}[/]: {rep.instructions} instructions; {figure}")
        t = Table(show_header=True, header_style="bold")
        t.add_column("class")
        t.add_column("count", justify="right")
        t.add_column("widths")
        for cls, n in rep.classes.most_common():
            widths = ", ".join(f"{w}-bit x{c}" for w, c in sorted(rep.widths.get(cls, {}).items()))
            style = "red" if cls.startswith("local") else ("green" if cls.startswith("tensor core") else "")
            t.add_row(f"[{style}]{cls}[/]" if style else cls, str(n), widths)
        console.print(t)
        flags = []
        gl = rep.global_load_widths
        if gl:
            flags.append("global loads " + ("vectorized (" if max(gl) >= 64 else "scalar (")
                         + ", ".join(f"{w}-bit" for w in sorted(gl)) + ")")
        flags.append("[red]local-memory traffic (LDL/STL: spills or indexed arrays)[/]" if rep.has_local_memory else "no local-memory traffic")
        if rep.tensor_core:
            flags.append("tensor cores: " + ", ".join(rep.tensor_core))
        console.print("  " + "; ".join(flags))
        if lines:
            for (f, ln), insns in sorted(rep.by_line.items()):
                text = src_text if Path(f).resolve() == source_file else None
                code = text[ln - 1].strip() if text and 0 < ln <= len(text) else f"{Path(f).name}:{ln}"
                console.print(f"  [dim]{ln:>5}[/] {escape(f'{code:<70}')} [cyan]{_group(insns)}[/]", markup=True,
                              highlight=False, soft_wrap=True)


cache_app = typer.Typer(help="The on-disk compile cache (KOPT_CACHE_DIR).", no_args_is_help=True)
app.add_typer(cache_app, name="cache")


@cache_app.command("clear")
def cache_clear(json_out: bool = JsonOpt):
    """Remove every cached compile."""
    n = compile_cache.clear()
    print_json({"removed": n}) if json_out else console.print(f"removed {n} cached compiles")


@cache_app.command("info")
def cache_info(json_out: bool = JsonOpt):
    """Where the cache is and how big."""
    s = compile_cache.stats()
    print_json(s) if json_out else console.print(
        f"{s['path']}: {s['entries']} entries, {s['bytes'] / 1e6:.1f} MB (cap {s['max_bytes'] / 1e6:.0f} MB, "
        f"KOPT_CACHE_MAX_MB)", soft_wrap=True)
