"""The block a kernel's own names give it: template parameters and macros named for the block's extent along a
dimension (``B_X``, ``block_size_y``, ``BLOCK_DIM_X``, ``THREADS_Y``), and those of any spelling it tiles its blocks
by, one thread per slot (``blockIdx.x * BLOCK + threadIdx.x``).

Programs that choose the block at run time still write the kernel for one shape: ``template <int B_Y, int B_X>``
instantiated as ``<4, 32>`` and launched with ``dim3(32, threadsY)``, where the host picks ``threadsY`` together with
the instantiation; a kernel tuner's ``block_size_x`` macro, defined by the tuner for each compile. kopt reads each such
name as the author's statement of the block:

- ``presume``: a kernel of which no launch is found is analyzed at the named block (said on the launch line; such a
  launch does not count as a known geometry);
- ``pair``: of the blocks one host launch may take at run time (``threadsY`` is 4 or 8), an instantiation is analyzed
  with those that agree with its named extents, when some do (``<4, 32>`` with ``(32, 4)``, not ``(32, 8)``).

A name for a block's size without a dimension (``BLOCK_SIZE``) is read only where it tiles the blocks that way: such
names as often count a tile's elements as a block's threads.
"""
from __future__ import annotations

import re

from .launch import MAX_THREADS, evaluate

_NAMED = re.compile(r"(?:b|blk|block|block_?dim|block_?size|bdim|bs|threads|n_?threads|num_?threads|"
                    r"threads_?per_?block|tb|cta|cta_?size)_?([xyz])", re.I)
_HW = {"x": MAX_THREADS, "y": MAX_THREADS, "z": 64}


def named_extents(func, text: str, targs: list, env: dict) -> dict:
    """{dim: (value, name)} of the kernel ``func``'s names for its block's extent: value template parameters with
    integer arguments ``targs`` (text), and object-like macros of ``env`` its body uses (``text``: the file that
    defines it, or "" for a kernel of a header). A dimension two names give different values is left out."""
    found: dict = {}
    values = [n for n, kind in func.tparams]
    for (name, kind), arg in zip(func.tparams, targs or ()):
        m = _NAMED.fullmatch(name)
        if m and kind == "value":
            _add(found, m.group(1).lower(), evaluate(arg, env), name)
    body = _body(text, func.loc.line) if text else ""
    for name in env:
        m = _NAMED.fullmatch(name)
        if m and name not in values and re.search(rf"\b{re.escape(name)}\b", body):
            _add(found, m.group(1).lower(), evaluate(name, env), name)
    if body:  # names of any spelling the kernel tiles its blocks by, one thread per slot
        args = dict(zip(values, targs or ()))
        for name in {*(n for n in env if n in body), *(n for n, kind in func.tparams if kind == "value" and n in args)}:
            for f in _tiled(body, name):
                _add(found, f, evaluate(args.get(name, name), env), name)
    warps = _warps(body, func, targs, env) if body and "y" not in found and re.search(r"\bthreadIdx\s*\.\s*y\b",
                                                                                       text) else None
    if warps is not None:  # `const int nwarps = 4;` in a kernel whose code reads threadIdx.y: blocks of (32, nwarps)
        _add(found, "y", warps[0], warps[1])
        if "x" not in found:
            _add(found, "x", 32, "32 lanes")
    named = {f: v for f, v in found.items() if v is not None}
    if named and body:  # the dimensions the kernel does not read are 1 (presumed with the named ones)
        for f in "xyz":
            if f not in named and not re.search(rf"\b(?:threadIdx|blockDim)\s*\.\s*{f}\b", body):
                named[f] = (1, None)
    return named


_WARPS = re.compile(r"n_?warps|num_?warps|warps_?per_?block", re.I)


def _warps(body: str, func, targs: list, env: dict):
    """(value, name) of the kernel's own count of warps per block: a value template parameter, or a constant the
    kernel's body declares (`const int nwarps = NWARPS_Q4_0;`), named so; None when there is none."""
    for (name, kind), arg in zip(func.tparams, targs or ()):
        if kind == "value" and _WARPS.fullmatch(name):
            v = evaluate(arg, env)
            if isinstance(v, int):
                return v, name
    for m in re.finditer(r"\b(?:static\s+)?(?:const|constexpr)\s+(?:unsigned\s+)?int\s+([A-Za-z_]\w*)\s*=\s*([^;]+);",
                         body):
        if _WARPS.fullmatch(m.group(1)):
            v = evaluate(m.group(2), env)
            if isinstance(v, int):
                return v, m.group(1)
    return None


def _tiled(body: str, name: str) -> set:
    """The dimensions f along which ``body`` computes ``blockIdx.f * name + threadIdx.f`` (in any order, through
    ``int bx = blockIdx.x``-style copies): each block covers ``name`` slots, one per thread, so ``name`` is the block's
    extent as written. A product with more factors (``blockIdx.x * name * 4``) is another tiling."""
    if name not in body or "Idx" not in body:
        return set()
    out = set()
    for f in "xyz":
        b = _alternatives(body, "blockIdx", f)
        t = _alternatives(body, "threadIdx", f)
        n = re.escape(name)
        for pat in (rf"(?:{b})\s*\*\s*\(?\s*\b{n}\b\s*\)?\s*\+\s*\(?\s*(?:{t})(?![\w.]|\s*\*)",
                    rf"(?<![\w*]\s)(?<![\w*])\b{n}\s*\*\s*(?:{b})\s*\)?\s*\+\s*\(?\s*(?:{t})(?![\w.]|\s*\*)",
                    rf"(?<![\w*]\s)(?<![\w*])(?:{t})\s*\+\s*\(?\s*(?:{b})\s*\*\s*\(?\s*\b{n}\b(?!\s*[*\[(])",
                    rf"(?<![\w*]\s)(?<![\w*])(?:{t})\s*\+\s*\(?\s*\b{n}\s*\*\s*(?:{b})(?![\w.]|\s*\*)"):
            if re.search(pat, body):
                out.add(f)
                break
    return out


def _alternatives(body: str, builtin: str, f: str) -> str:
    """A pattern for ``builtin.f`` and the names the body copies it into (``int tx = threadIdx.x;``)."""
    copies = re.findall(rf"\b([A-Za-z_]\w*)\s*=\s*\(?\s*{builtin}\s*\.\s*{f}\s*\)?\s*[;,]", body)
    return "|".join([rf"\b{builtin}\s*\.\s*{f}\b", *(rf"\b{re.escape(c)}\b" for c in dict.fromkeys(copies))])


def _add(found: dict, f: str, value, name: str) -> None:
    if not isinstance(value, int) or not 1 <= value <= _HW[f]:
        return
    if f in found and (found[f] is None or found[f][0] != value):
        found[f] = None  # two names disagree
    elif f not in found:
        found[f] = (value, name)


def _body(text: str, line: int) -> str:
    """The text from the kernel's first line to the end of its body (the whole rest when the braces do not close)."""
    from .host_launch import block_end

    start = sum(len(s) + 1 for s in text.split("\n")[:max(line - 1, 0)])
    brace = text.find("{", start)
    return text[start:block_end(text, brace + 1) + 1] if brace >= 0 else text[start:]


def presume(cfg, named: dict) -> None:
    """Give ``cfg``'s block, for a kernel of which no launch was found, the values ``named`` (``named_extents``)
    gives. A launch whose block is chosen at run time (a size read from the command line) is left to every block it
    may take: the name is what the author wrote the kernel for, not what the program may launch."""
    if cfg.launched or not named:
        return
    block, said = list(cfg.block), []
    for i, f in enumerate("xyz"):
        if block[i] is None and f in named:
            block[i] = named[f][0]
            if named[f][1] is not None:
                said.append(f"blockDim.{f} = {named[f][1]} = {named[f][0]}")
    if not said:
        return
    cfg.block = tuple(block)
    cfg.source = "named"
    cfg.presumed = ", ".join(said)
    cfg.note = (cfg.note + "; " if cfg.note else "") + f"presumed {cfg.presumed}: the kernel's own name for its block"
    if cfg.known_block:
        cfg.max_threads = min(cfg.max_threads, block[0] * block[1] * block[2])


def pair(configs: list, named_of) -> list:
    """``configs`` less those of a host launch whose block may take several values at run time that disagree with
    the extents the instantiation names (``named_of(cfg)``), when another of the launch's blocks agrees."""
    groups: dict = {}
    for c in configs:
        if c.source == "host" and c.at:
            groups.setdefault((c.at, tuple(c.targs)), []).append(c)
    drop = set()
    for group in groups.values():
        named = named_of(group[0]) if len(group) > 1 else {}
        for i, f in enumerate("xyz"):
            if f not in named or named[f][1] is None:
                continue
            v, name = named[f]
            agree = [c for c in group if c.block[i] == v]
            if agree and len(agree) < len(group):
                others = sorted({c.block[i] for c in group if c.block[i] != v}, key=str)
                drop.update(id(c) for c in group if c.block[i] != v)
                group = agree
                for c in agree:
                    c.note = (c.note + "; " if c.note else "") + (
                        f"the launch's blockDim.{f} may also be {', '.join(map(str, others))} at run time; "
                        f"this instantiation is paired with {name} = {v}")
    return [c for c in configs if id(c) not in drop]
