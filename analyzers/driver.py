"""One entry point: parse (libclang, else tree-sitter), build each kernel's model, run every pass.

Nothing here raises on bad CUDA: parse failures, unsupported constructs, solver timeouts and crashes inside a
pass become ``analysis.incomplete`` diagnostics and the remaining passes still run.
"""
from __future__ import annotations

import dataclasses
import os
import re
import time
import traceback
from pathlib import Path

from kopt.annotations import split_kernel
from kopt.diagnostic import Diagnostic, Location
from kopt.rules import RULES

from . import assume as assumemod, block_names, clang_front, host_assume, host_launch, launch as launchmod
from .block_bounds import implied_block
from .build import build_kernel
from .includers import source_text
from .result import AnalysisResult
from .passes import asyncs, banks, bounds, coalescing, divergence, races
from .passes.context import KERNEL_RLIMIT, KERNEL_TOTAL_RLIMIT, Ctx
from .solver import kernel_context

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


def analyze(source, *, launches=None, block=None, grid=None, defines=None, kernels=None, include_dirs=(),
            path: str | None = None, frontend: str = "auto", assume=(), launch_args=None,
            launch_buffers=None) -> AnalysisResult:
    """Analyze CUDA source (a path, or the text itself) for hazards.

    ``launches``: kopt's ``LaunchGeometry`` records for the candidate's launches (a kernel launched with several
    geometries is analyzed under each); ``block``/``grid``: (x, y, z) for kernels no launch describes;
    ``defines``: -D values; ``kernels``: names (optionally with template arguments, ``gemm<128,64>``) to analyze;
    ``frontend``: "auto" (libclang, tree-sitter when it fails), "libclang" or "tree-sitter"; ``assume``:
    ``assume.Assumption``s (or expression texts) over kernel parameters, added to the file's ``// kopt: assume`` lines.
    A malformed assumption raises ``AnnotationError`` (bad input), before anything is analyzed. ``launch_args``:
    per entry of ``launches``, the known integer argument values by position ({2: 1000}), which become assumptions
    on that launch's kernel parameters (a task's shape); ``launch_buffers``: per entry of ``launches``, the bytes of
    the buffer each pointer argument points to, by position ({0: 4000}), against which global accesses through that
    parameter are checked (``bounds.global``).
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
    assumptions = assumemod.from_source(text, fname) + [
        a if isinstance(a, assumemod.Assumption) else assumemod.parse(a, "--assume", "--assume") for a in assume]
    res = AnalysisResult()
    unit, notes = parse_unit(Path(fname), text, defines, include_dirs, frontend)
    res.diagnostics += notes
    if unit is None:
        res.elapsed_ms = (time.perf_counter() - t0) * 1e3
        res.assumed = "nothing analyzed"
        return res
    res.frontend = unit.frontend
    if unit.build_defines:  # the build's values of names the file uses undeclared: every later step reads them
        defines = {**{k: v for k, (v, _) in unit.build_defines.items()}, **(defines or {})}
    wanted = _wanted(kernels)
    lines = text.splitlines()
    assumed = []
    for loc, reason in unit.problems[:3]:
        res.diagnostics.append(_incomplete(fname, reason, loc))
    macros = {**launchmod.source_macros(text), **(defines or {})}
    hosts = _host_facts(res, fname, lambda: host_launch.host_launches(
        text, defines, Path(fname), [f.name for f in unit.kernels], include_dirs=include_dirs)) if block is None else {}
    targets = list(_targets(unit, notes, fname, text, defines, res))
    implied = _host_facts(res, fname, lambda: _implied(text, Path(fname), defines, targets, include_dirs)) \
        if launches is None and block is None and grid is None else {}  # the host's launches, not a given one
    for kunit, func, path_note in targets:
        if wanted is not None and func.name not in wanted:
            continue
        targs = wanted.get(func.name) if wanted else None
        mine = [i for i, g in enumerate(launches or ()) if split_kernel(g.kernel)[0].split("::")[-1] == func.name]
        params = [p for p, _ in func.params]
        if mine:
            configs = []
            for i in mine:
                c = launchmod.from_geometry(launches[i], launch_bounds=func.launch_bounds, macros=macros)
                # --kernel's template arguments, else the launch's, else an explicit instantiation
                c.targs = list(targs or c.targs or launchmod.instantiations(text).get(func.name, []))
                bound = [f"{params[pos]} == {v}" for pos, v in sorted((launch_args[i] if launch_args else {}).items())
                         if pos < len(params)]
                if bound:
                    c.assume = [assumemod.parse(" and ".join(bound), "the task's shape")]
                c.buffers = {params[pos]: n for pos, n in sorted((launch_buffers[i] if launch_buffers else {}).items())
                             if pos < len(params)}
                configs.append(c)
            configs = list({repr((c.block, c.grid, c.smem, c.cluster, c.targs, c.assume, c.branch, c.buffers)): c
                            for c in configs}.values())
        else:
            # no launch given: the kernel's launches in host code, one configuration per constant shape, and one for
            # every block its launches with a block that is not a constant may take
            host = host_launch.launches_of(hosts, func.name, func.namespace)
            # (a launch with as many template arguments as another overload has parameters, and not as many as
            # this one, is that overload's: `k<8, 256, 32>` and `k<256, 32>` of two kernel templates named `k`)
            siblings = [f for f in kunit.funcs.get(func.name, ()) if f is not func and f.kernel]
            others = {len(f.tparams) for f in siblings}
            # (and a launch whose pointer arguments are of another overload's types, not of this one's, is that
            # overload's: `k((half *) x, ...)` of `k(float *, ...)` and `k(half *, ...)`)
            own = [s for s in host.launches
                   if not (s.targs and len(s.targs) != len(func.tparams) and len(s.targs) in others)
                   and not (s.arg_types and not _fits_pointer_types(func, s.arg_types)
                            and any(_fits_pointer_types(f, s.arg_types) for f in siblings))]
            shapes = own + ([None] if host.unknown or not own else [])
            configs = [launchmod.fallback(func.name, text, block=block, grid=grid, defines=defines,
                                          launch_bounds=func.launch_bounds, targs=targs or None, host=shape,
                                          host_unknown=host.unknown if shape is None else (), host_bound=host.bound,
                                          host_fact=host.block_fact)
                       for shape in shapes]
            for c, shape in zip(configs, shapes):
                lines = (shape.where, *shape.others) if shape is not None else ()
                c.assume = c.assume + host_assume.at_launches(implied.get((func.name, len(func.params)), []), lines)
                if shape is not None and shape.tags and not c.targs:  # `kernel<<<...>>>(..., std::true_type{})`
                    c.targs = host_launch.tag_targs(func.tparams, [ti.spelling for _, ti in func.params], shape.tags)
            # the block the kernel's own names give (B_X, block_size_y): paired with a launch's run-time
            # alternatives, and presumed where no launch pins it
            own = text if func.loc.file == fname else source_text(Path(func.loc.file)) or ""
            by_targs = {tuple(c.targs): block_names.named_extents(func, own, c.targs, macros) for c in configs}
            configs = block_names.pair(configs, lambda c: by_targs[tuple(c.targs)])
            for c in configs:
                block_names.presume(c, by_targs[tuple(c.targs)])
        for c in configs:
            c.assume = c.assume + [a for a in assumptions if a.parameters <= set(params)]
        res.kernels.append(func.name)
        res.paths[func.name] = path_note
        seen: dict[tuple, tuple] = {}  # finding -> (its Diagnostic, the `when` branches it was found under)
        budget = [KERNEL_TOTAL_RLIMIT]  # solver units left to the kernel's launches (deterministic, unlike time)
        for cfg in configs:
            if func.tparams and not cfg.targs:
                cfg.note = (cfg.note + "; " if cfg.note else "") + "template arguments unknown (analyzed generically)"
            for d in _analyze_kernel(kunit, func, cfg, defines, fname, lines, assumed, path_note, budget):
                key = (d.rule, d.message, tuple(d.locations))
                if d.witness is not None and key not in seen:
                    d.witness = {**d.witness, "kernel": func.name}  # a device function's finding: whose analysis
                if key not in seen:
                    seen[key] = (d, [])
                    res.diagnostics.append(d)
                if cfg.branch and d.rule != "analysis.incomplete":
                    seen[key][1].append(cfg.branch)
            res.launches.append(cfg.to_dict())
        for d, branches in seen.values():  # a finding under `when` alternatives names the launch lines it holds at
            if branches:
                d.message += f" [launch {'; '.join(dict.fromkeys(branches))}]"
                d.witness = {**(d.witness or {}), "launch": list(dict.fromkeys(branches))}
    if wanted is not None:
        missing = [k for k in wanted if k not in res.kernels]
        for k in missing:
            res.diagnostics.append(_incomplete(fname, f"no kernel named `{k}` in the file"))
    for a in assumptions:
        if not any(a.parameters <= {p for p, _ in f.params} for f in unit.kernels):
            res.diagnostics.append(_incomplete(fname, f"assumption `{a.text}` ({a.origin}) names no kernel's "
                                                      f"parameters; it was not used"))
    if not unit.kernels:
        assumed.append("no __global__ kernels found")
    res.assumed = "\n".join(assumed)
    res.diagnostics.sort(key=lambda d: (-d.severity.rank if d.rule != "analysis.incomplete" else 1,
                                        d.locations[0].line if d.locations else 0))
    res.elapsed_ms = (time.perf_counter() - t0) * 1e3
    return res


_ELEMENT_ALIASES = {"__half": "half", "__half2": "half2", "nv_bfloat16": "__nv_bfloat16",
                    "nv_bfloat162": "__nv_bfloat162"}  # a type's names, as launches and kernels spell them


def _fits_pointer_types(func, arg_types: dict) -> bool:
    """Whether the pointer arguments whose element types a launch names (``HostLaunch.arg_types``) fit ``func``'s
    parameters: no pointer parameter of another element type (a template type parameter takes any)."""
    generic = {name for name, kind in func.tparams if kind == "type"}
    for pos, name in arg_types.items():
        if pos >= len(func.params):
            return False
        spelling = func.params[pos][1].spelling
        if "*" not in spelling:
            continue
        own = re.sub(r"\b(?:const|volatile|__restrict__|__restrict|struct|class)\b|<.*", "",
                     spelling[:spelling.rindex("*")]).replace(" ", "").split("::")[-1]
        if own and own not in generic and "*" not in own and \
                _ELEMENT_ALIASES.get(own, own) != _ELEMENT_ALIASES.get(name, name):
            return False
    return True


def _implied(text: str, path: Path, defines, targets, include_dirs=()) -> dict:
    """(kernel name, number of parameters) -> the assumptions its launches in host code imply. Overloads of one name
    (a kernel written once with and once without an output) are read each with its own parameters, a launch
    counting for the overload its arguments fit."""
    overloads: dict = {}
    for _, f, _ in targets:
        overloads.setdefault(f.name, {}).setdefault(len(f.params), _host_params(f))
    arities = {n: set(v) for n, v in overloads.items()}
    out: dict = {}
    for i in range(max(map(len, overloads.values()), default=0)):
        kernels = {n: list(v.values())[i] for n, v in overloads.items() if len(v) > i}
        got = host_assume.from_host(text, path, defines, kernels, arities, include_dirs)
        out.update({(n, len(kernels[n])): a for n, a in got.items()})
    return out


def _host_facts(res, fname: str, read) -> dict:
    """``read()``'s launches or facts from the host code; when reading the host code fails (a construct the host scan
    does not expect), none, with an ``analysis.incomplete`` note: the kernels are still analyzed."""
    try:
        return read()
    except Exception as exc:
        _debug(exc)
        res.diagnostics.append(_incomplete(fname, f"the host code's launches were not read ({exc.__class__.__name__}: "
                                                  f"{exc}); kernels analyzed as if no launch were found"))
        return {}


def _targets(unit, notes, fname, text, defines, res):
    """(unit, kernel, which front end read it and why) for every kernel of the file. Kernels libclang could not
    read (an error inside them) come from the tree-sitter fallback, each with its own note."""
    if unit.frontend != "libclang":
        why = notes[0].message.removeprefix("analysis incomplete: ") if notes else "requested"
        return [(unit, f, f"tree-sitter ({why})") for f in unit.kernels]
    why = ([f"read after {unit.context}"] if unit.context else []) + (
        [f"{unit.skipped_host} host declaration(s) that did not parse were skipped"] if unit.skipped_host else []) + (
        [f"`-D{k}={v}` from {f}" for k, (v, f) in sorted(unit.build_defines.items())]) + (
        [f"`-I {d}` from {f}" for d, f in unit.build_includes]) + (
        [f"`{h}` configured from {os.path.relpath(t, Path(fname).parent)}" + (
            f" ({', '.join(unset)} set by no CMake file: 0)" if unset else "")
         for h, t, unset in unit.configured]) + (
        [f"{', '.join(f'`{n}`' for n in unit.unknown_constants)} given no one value by the sources or the build "
         f"files (a value written in before the build, or chosen by it): read as an integer constant of any value"]
        if unit.unknown_constants else []) + (
        [f"{', '.join(f'`{n}`' for n in unit.opaque_names)} declared by no header found: read as opaque (a type "
         f"of unknown members, a call of unknown effect)"] if unit.opaque_names else [])
    note = "libclang" + (f" ({'; '.join(why)})" if why else "")
    out = [(unit, f, note) for f in unit.kernels]
    if unit.broken:
        try:
            from . import ts_front
            ts_unit = ts_front.parse(Path(fname), text, defines=defines)
            fallback, failed = ts_unit.kernels, ""
        except Exception as exc:
            ts_unit, fallback, failed = None, [], f"; the tree-sitter fallback failed too ({exc.__class__.__name__}: {exc})"
        for name, why in unit.broken.items():
            funcs = [f for f in fallback if f.name == name]
            res.diagnostics.append(_incomplete(
                fname, f"`{name}`: {why}; " + ("used the tree-sitter fallback for it (no macro expansion beyond "
                                               "simple #defines, no type information)" if funcs else
                                               failed or "the tree-sitter fallback found no such kernel"),
                funcs[0].loc if funcs else None))
            out += [(ts_unit, f, f"tree-sitter ({why})") for f in funcs]
    return out


def _analyze_kernel(unit, func, cfg, defines, fname, lines, assumed, path_note="", budget=None) -> list[Diagnostic]:
    """Every pass over one kernel under one launch configuration; failures become ``analysis.incomplete``.
    ``budget``: [solver units left to the kernel's launches], drawn on by this one."""
    out = []
    try:
        km = build_kernel(unit, func, cfg, defines)
    except Exception as exc:
        _debug(exc)
        return [_incomplete(fname, f"could not model kernel `{func.name}`: {exc.__class__.__name__}: {exc}",
                            func.loc)]
    cfg.inferred, cfg.lanes_in_x = implied_block(km)
    if launchmod.infer_one_block(cfg, km):
        out.append(RULES["launch.inferred-grid"].diag(
            f"no launch of `{func.name}` found and it reads no blockIdx or gridDim: analyzed as one block (each block "
            f"of a larger grid would repeat the same accesses); declare the launch with `// kopt: launch` or pass "
            f"--grid to check a larger grid", Location(func.loc.file, func.loc.line, func.loc.col, role="kernel"),
            witness={"assumed_grid": [1, 1, 1]}))
    else:
        launchmod.presume_one_wide_x(cfg, km)
    if cfg.inferred:
        out.append(RULES["launch.inferred-block"].diag(
            f"no launch block known for `{func.name}`: {cfg.inferred_text()}; declare the launch with "
            f"`// kopt: launch` or pass --block to check other blocks",
            Location(func.loc.file, func.loc.line, func.loc.col, role="kernel"),
            witness={"assumed_block_max": {launchmod.dim_name(f): b for f, (b, _) in sorted(cfg.inferred.items())}}))
    seen_reasons = set()
    for loc, reason in km.problems:
        if reason not in seen_reasons and len(seen_reasons) < 3:
            seen_reasons.add(reason)
            out.append(_incomplete(fname, f"in `{func.name}`: {reason}", loc))
    with kernel_context():
        ctx = Ctx(km, lines, KERNEL_RLIMIT if budget is None else max(min(KERNEL_RLIMIT, budget[0]), 0))
        for name, run in PASSES:
            try:
                out += run(ctx)
            except Exception as exc:
                _debug(exc)
                out.append(_incomplete(fname, f"pass `{name}` failed on `{func.name}`: {exc.__class__.__name__}: "
                                              f"{exc}", func.loc))
    if budget is not None:
        budget[0] -= ctx.spent
    for shapes in sorted(set(ctx.concrete_fallback)):
        ctx.incomplete.append(f"some checks were too hard for every block size at once and were made for "
                              f"block shapes {shapes} only")
    for reason in dict.fromkeys(ctx.incomplete):
        out.append(_incomplete(fname, f"in `{func.name}`: {reason}", func.loc))
    # an unknown block the checks decided symbolically: the verdict holds for every block it allows (not so for a
    # bound inferred from the kernel's arrays, which is an assumption). Template arguments left generic are opaque
    # values and types of unknown size: the element indices the checks compare do not depend on them.
    cfg.all_blocks = not cfg.known_block and not cfg.inferred and not cfg.presumed and \
        unit.frontend == "libclang" and not unit.problems and not any(d.rule == "analysis.incomplete" for d in out)
    presumed = (f"; race checks too hard otherwise decided presuming {'; '.join(sorted(ctx.presumptions))} (other "
                f"values undecided)") if ctx.presumptions else ""
    assumed.append(f"{func.name}: {cfg.describe(km.dims_used)}; read by {path_note or unit.frontend}{presumed}")
    return out


def _wanted(kernels):
    if not kernels:
        return None
    out = {}
    for k in kernels:
        k = k.replace(" ", "")
        name, targs = split_kernel(k)
        out[name] = targs
    return out


def _host_params(func) -> list:
    """A kernel's parameters as its launches pass them: one whose type is a template type parameter counts as an
    integer (the kernel is analyzed generically, where such a parameter is a scalar; a constant the host passes, `1`
    for `StrideType stride`, is its value)."""
    types = {name for name, kind in func.tparams if kind == "type"}

    def of_type_parameter(ti) -> bool:
        return not ti.pointer and re.sub(r"\b(?:const|volatile)\b", "", ti.spelling).strip() in types

    return [(name, dataclasses.replace(ti, spelling="long", integral=True) if of_type_parameter(ti) else ti)
            for name, ti in func.params]


def _debug(exc):
    import os
    if os.environ.get("KOPT_ANALYZER_DEBUG"):
        traceback.print_exception(exc)
