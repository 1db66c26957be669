"""``bounds.shared``: an index that can leave a statically sized shared array under the assumed launch;
``bounds.global``: one that can leave the buffer a launch passes for a pointer parameter (a task's tensor)."""
from __future__ import annotations

import z3

from kopt.diagnostic import Diagnostic, Severity
from kopt.rules import RULES

from .. import sym
from ..solver import model_int, needs_bv
from .context import Ctx


def run(ctx: Ctx) -> list[Diagnostic]:
    out = []
    seen = set()
    buffers = ctx.launch.buffers
    for a in ctx.km.accesses:
        if a.loc in seen or a.space not in ("shared", "global"):
            continue
        arr = ctx.km.shared.get(a.base) if a.space == "shared" else None
        nbytes = arr.bytes if arr is not None else buffers.get(a.base) if a.space == "global" else None
        if nbytes is None:
            continue
        if sym.has_opaque(a.offset) or sym.has_data(a.offset) or \
                any(n.startswith("uniq#") for n in sym.free_vars(a.offset)):
            continue  # not provable either way; the race pass reports unanalyzable indices
        if ctx.over_budget():
            ctx.incomplete.append("bounds check stopped (budget)")
            break
        bv = needs_bv(a.offset) or any(needs_bv(i) for i, _ in a.subs)
        _, e, _, _ = ctx.pair("single", bv)
        cons = [e.bool(a.cond)]
        off = e.int(a.offset)
        viol = [off < 0, off + a.size > nbytes]
        # `sA[0][i + 33 * j]`: row 0 of a multi-dimensional array indexed as a flat view of the whole array (MAGMA's
        # idiom, which the hardware and nvcc honour): its last subscript is bounded by the array, not by its row
        flat = arr is not None and 2 <= len(a.subs) == len(arr.dims) and \
            all(sym.is_const(i) and i.val == 0 for i, _ in a.subs[:-1])
        checked = a.subs[:-1] if flat else a.subs
        for idx, dim in checked:
            if isinstance(dim, int) and not sym.has_opaque(idx):
                x = e.int(idx)
                viol += [x < 0, x >= dim]
        cons.append(z3.Or(*viol))
        m = ctx.solve_in("single", *cons, bv=bv)
        if m is None:
            continue
        seen.add(a.loc)
        o = model_int(m, off)
        idx = f"{o // a.elem}" if o is not None and a.elem and o % a.elem == 0 else f"byte offset {o}"
        elem = arr.elem if arr is not None else a.elem
        n_elems = nbytes // elem if elem else None
        # the index in the array's own elements (a field of a struct element, a view of another width)
        where = f"element {o // elem}" + (f" (byte {o % elem} of it)" if o % elem else "") \
            if o is not None and elem and 0 <= o else f"element {idx}"
        dims = "".join(f"[{d}]" for d in arr.dims) if arr is not None and arr.dims else ""
        wit = {"thread": ctx.witness_thread(m, e, a.space == "global"), "index": idx,
               "array": f"{a.base}{dims} ({nbytes} bytes{'' if arr is not None else ', the buffer the launch passes'})"}
        for i, (ix, dim) in enumerate(a.subs):
            v = model_int(m, e.int(ix))
            if v is not None:
                wit[f"subscript {i}"] = f"{v} (extent {dim})"
        wit.update(ctx.witness_common(m, [e], [a.offset, a.cond]))
        wit["launch"] = ctx.launch.describe(ctx.km.dims_used)
        depends_on_launch = "assumed_block" in wit
        sev = Severity.WARNING if depends_on_launch else Severity.ERROR
        cond = (f" for some launch configurations (e.g. blockDim {wit['assumed_block']})" if depends_on_launch
                else "")
        kind = "write" if a.write else "read"
        space = "shared-memory" if a.space == "shared" else "global-memory"
        inside = o is not None and 0 <= o and o + a.size <= nbytes
        subs = [(model_int(m, e.int(ix)), dim) for ix, dim in checked if isinstance(dim, int) and not sym.has_opaque(ix)]
        row = next(((v, dim) for v, dim in subs if not 0 <= (v or 0) < dim), None) if inside else None
        count = f"{n_elems} element{'' if n_elems == 1 else 's'}"
        what = (f"can take subscript {row[0]} of a dimension of extent {row[1]} (a row or member array of `{a.base}`, "
                f"{count})" if row is not None else f"can index {where} of `{a.base}` ({count})")
        out.append(RULES[f"bounds.{a.space}"].diag(
            f"out-of-bounds {space} {kind}: `{ctx.snippet(a)}` {what}{cond}", ctx.loc(a, kind), severity=sev,
            witness=wit))
    return out
