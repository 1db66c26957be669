"""One entry point: parse (libclang, else tree-sitter), build each kernel's model, run every pass.

Nothing here raises on bad CUDA: parse failures, unsupported constructs, solver timeouts and crashes inside a
pass become ``analysis.incomplete`` diagnostics and the remaining passes still run.
"""
from __future__ import annotations

import time
import traceback
from pathlib import Path

from kopt.diagnostic import Diagnostic, Location
from kopt.rules import RULES

from . import clang_front, launch as launchmod
from .build import build_kernel
from .result import AnalysisResult
from .passes import asyncs, banks, bounds, coalescing, divergence, races
from .passes.context import Ctx

PASSES = [("races", races.run), ("barriers", divergence.run), ("bounds", bounds.run), ("banks", banks.run),
          ("coalescing", coalescing.run), ("async", asyncs.run)]


def _incomplete(path: str, reason: str, loc=None) -> Diagnostic:
    locs = [Location(loc.file, loc.line, loc.col, role="incomplete")] if loc is not None else \
        [Location(path, 1, 1, role="incomplete")]
    return RULES["analysis.incomplete"].diag(f"analysis incomplete: {reason}", *locs)


def parse_unit(path: Path, source: str, defines=None, include_dirs=(), frontend: str = "auto"):
    """(Unit, [Diagnostic]) using libclang, falling back to tree-sitter (``frontend``: auto|libclang|tree-sitter)."""
    notes = []
    reason = "tree-sitter front end requested"
    if frontend != "tree-sitter":
        try:
            return clang_front.parse(path, source, defines=defines, include_dirs=include_dirs), notes
        except clang_front.FrontendError as exc:
            reason = str(exc)
        except Exception as exc:  # libclang crash or binding mismatch
            reason = f"libclang failed: {exc.__class__.__name__}: {exc}"
        if frontend == "libclang":
            notes.append(_incomplete(str(path), reason))
            return None, notes
    try:
        from . import ts_front
        unit = ts_front.parse(path, source, defines=defines)
    except Exception as exc:
        notes.append(_incomplete(str(path), f"{reason}; the tree-sitter fallback failed too ({exc})"))
        return None, notes
    if frontend != "tree-sitter":
        notes.append(_incomplete(str(path), f"{reason}; used the tree-sitter fallback (no macro expansion beyond "
                                            f"simple #defines, no type information)"))
    return unit, notes


def analyze(source, *, block=None, grid=None, defines=None, kernels=None, include_dirs=(),
            path: str | None = None, frontend: str = "auto") -> AnalysisResult:
    """Analyze CUDA source (a path, or the text itself) for hazards.

    ``block``/``grid``: (x, y, z) used when the file has no ``// kopt: launch`` annotation for a kernel;
    ``defines``: -D values; ``kernels``: names (optionally with template arguments, ``gemm<128,64>``) to analyze;
    ``frontend``: "auto" (libclang, tree-sitter when it fails), "libclang" or "tree-sitter".
    """
    t0 = time.perf_counter()
    if isinstance(source, Path) or (isinstance(source, str) and "\n" not in source and source.endswith(
            (".cu", ".cuh", ".h", ".cpp")) and Path(source).is_file()):
        p = Path(source)
        text = p.read_text(errors="replace")
        fname = str(path or p)
    else:
        text = str(source)
        fname = path or "<input>.cu"
    res = AnalysisResult()
    unit, notes = parse_unit(Path(fname), text, defines, include_dirs, frontend)
    res.diagnostics += notes
    if unit is None:
        res.elapsed_ms = (time.perf_counter() - t0) * 1e3
        res.assumed = "nothing analyzed"
        return res
    res.frontend = unit.frontend
    wanted = _wanted(kernels)
    lines = text.splitlines()
    assumed = []
    for loc, reason in unit.problems[:3]:
        res.diagnostics.append(_incomplete(fname, reason, loc))
    for func in unit.kernels:
        if wanted is not None and func.name not in wanted:
            continue
        targs = wanted.get(func.name) if wanted else None
        cfg = launchmod.resolve(func.name, text, block=block, grid=grid, defines=defines,
                                launch_bounds=func.launch_bounds, targs=targs or None)
        if func.tparams and not cfg.targs:
            cfg.note = (cfg.note + "; " if cfg.note else "") + "template arguments unknown (analyzed generically)"
        res.kernels.append(func.name)
        try:
            km = build_kernel(unit, func, cfg, defines)
        except Exception as exc:
            res.diagnostics.append(_incomplete(fname, f"could not model kernel `{func.name}`: "
                                                      f"{exc.__class__.__name__}: {exc}", func.loc))
            _debug(exc)
            continue
        assumed.append(f"{func.name}: {cfg.describe(km.dims_used)}")
        seen_reasons = set()
        for loc, reason in km.problems:
            if reason not in seen_reasons and len(seen_reasons) < 3:
                seen_reasons.add(reason)
                res.diagnostics.append(_incomplete(fname, f"in `{func.name}`: {reason}", loc))
        ctx = Ctx(km, lines)
        for name, run in PASSES:
            try:
                res.diagnostics += run(ctx)
            except Exception as exc:
                _debug(exc)
                res.diagnostics.append(_incomplete(fname, f"pass `{name}` failed on `{func.name}`: "
                                                          f"{exc.__class__.__name__}: {exc}", func.loc))
        for shapes in sorted(ctx.concrete_fallback):
            ctx.incomplete.append(f"some checks were too hard for every block size at once and were made for "
                                  f"block shapes {shapes} only")
        for reason in dict.fromkeys(ctx.incomplete):
            res.diagnostics.append(_incomplete(fname, f"in `{func.name}`: {reason}", func.loc))
    if wanted is not None:
        missing = [k for k in wanted if k not in res.kernels]
        for k in missing:
            res.diagnostics.append(_incomplete(fname, f"no kernel named `{k}` in the file"))
    if not unit.kernels:
        assumed.append("no __global__ kernels found")
    res.assumed = "\n".join(assumed)
    res.diagnostics.sort(key=lambda d: (-d.severity.rank if d.rule != "analysis.incomplete" else 1,
                                        d.locations[0].line if d.locations else 0))
    res.elapsed_ms = (time.perf_counter() - t0) * 1e3
    return res


def _wanted(kernels):
    if not kernels:
        return None
    out = {}
    for k in kernels:
        k = k.replace(" ", "")
        if "<" in k:
            name, t = k.split("<", 1)
            out[name] = launchmod.split_top(t.rsplit(">", 1)[0])
        else:
            out[k] = []
    return out


def _debug(exc):
    import os
    if os.environ.get("KOPT_ANALYZER_DEBUG"):
        traceback.print_exception(exc)
