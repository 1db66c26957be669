"""The launch configuration a kernel is analyzed under, and where it came from.

A candidate's launches are resolved by kopt (``kopt.geometry``) and *given* to the analyzers. For a plain source
(no ``// kopt: launch`` line for the kernel) the fallbacks apply, in order: ``--block``/``--grid``, then the block
of the file's own ``<<<grid, block>>>`` launches when it is a constant, then ``__launch_bounds__``; otherwise every
block size up to 1024 is considered (symbolically), within the bounds the kernel's own shared arrays imply
(``infer_block``). The values of C macros and template arguments are read with kopt's expression language in C mode.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from kopt.annotations import Text, split_kernel, split_top as _split_top
from kopt.expr import try_evaluate
from kopt.source import c_macros as source_macros  # noqa: F401  (the analyzers' macro table)

from . import sym

_INST = re.compile(r"template\s+__global__\s+(?:void\s+)?(?:__launch_bounds__\s*\([^)]*\)\s*)?(?:void\s+)?"
                   r"([A-Za-z_]\w*)\s*<([^;{]*?)>\s*\(")
MAX_THREADS = 1024


@dataclass
class LaunchConfig:
    block: tuple = (None, None, None)  # ints or None (unknown)
    grid: tuple = (None, None, None)
    smem: int | None = None  # dynamic shared memory bytes
    cluster: tuple | None = None
    max_threads: int = MAX_THREADS  # bound on threads per block (launch bounds)
    source: str = "none"  # annotation | cli | host | launch_bounds | none
    targs: list = field(default_factory=list)  # template arguments (text) for a template kernel
    kernel: str = ""  # the launched name expression (annotation) or the kernel's name
    note: str = ""
    assume: list = field(default_factory=list)  # assume.Assumption over this kernel's parameters
    branch: str = ""  # the launch line, when it is one of several `when` alternatives ("line 12 (when rows >= 4096)")
    inferred: dict = field(default_factory=dict)  # dim "x"/"y"/"z" -> (bound, why): see infer_block

    @property
    def known_block(self) -> bool:
        return all(isinstance(x, int) for x in self.block)

    def to_dict(self) -> dict:
        """The launch as kopt's geometry reports it: None for what is unknown."""
        def dims(t):  # as kopt.geometry writes them
            return None if t is None or all(v is None for v in t) else list(t)
        return {"kernel": self.kernel, "grid": dims(self.grid), "block": dims(self.block), "smem": self.smem,
                "cluster": dims(self.cluster), "source": self.source, **({"branch": self.branch} if self.branch else {}),
                **({"inferred_block": {f: b for f, (b, _) in sorted(self.inferred.items())}} if self.inferred else {})}

    def dim_max(self, i: int) -> int:
        """The largest blockDim along dimension ``i`` (0..2) the analysis considers when the block is unknown."""
        hw = (MAX_THREADS, MAX_THREADS, 64)[i]
        return min(hw, self.max_threads, self.inferred.get("xyz"[i], (hw, ""))[0])

    def within(self, shapes) -> list[tuple]:
        """Concrete block shapes to sample for an unknown block: ``shapes`` with the known dims put in and each
        unknown dim over its bound lowered to the largest power of two within it; those with too many threads
        dropped."""
        out = []
        for s in shapes:
            s = tuple(k if k is not None else v if v <= self.dim_max(i) else 1 << (self.dim_max(i).bit_length() - 1)
                      for i, (k, v) in enumerate(zip(self.block, s)))
            if s[0] * s[1] * s[2] <= self.max_threads and s not in out:
                out.append(s)
        return out

    def describe(self, dims_used=("x", "y", "z")) -> str:
        def fmt(t):
            return "(" + ", ".join("?" if v is None else str(v) for v in t) + ")"
        where = {"annotation": "from the `// kopt: launch` annotation" + (f" at {self.branch}" if self.branch else ""),
                 "cli": "from --block/--grid",
                 "host": "block from the file's own <<<...>>> launch",
                 "launch_bounds": f"from __launch_bounds__({self.max_threads})", "none": "none given"}[self.source]
        if self.known_block:
            b = f"block={fmt(self.block)}"
        elif self.source == "launch_bounds":
            b = f"any block with at most {self.max_threads} threads"
        else:
            b = f"any block up to {self.max_threads} threads" + (
                f" (block dims {fmt(self.block)})" if any(v is not None for v in self.block) else "")
            if set(dims_used) <= {"x"}:
                b += " in x (the kernel uses only threadIdx.x)"
            elif "z" not in dims_used:
                b += " in x and y (the kernel uses no threadIdx.z)"
        if self.inferred and not self.known_block:
            b += ", " + self.inferred_text()
        g = f"grid={fmt(self.grid)}" if any(v is not None for v in self.grid) else "any grid"
        s = f", {b}, {g}"
        if self.smem is not None:
            s += f", dynamic smem={self.smem} B"
        if self.cluster is not None:
            s += f", cluster={fmt(self.cluster)}"
        if self.targs:
            s += f", template <{', '.join(self.targs)}>"
        if self.assume:
            s += ", assuming " + " and ".join(f"({a.text})" for a in self.assume)
        return where + s + (f"; {self.note}" if self.note else "")

    def inferred_text(self) -> str:
        return "assumed " + " and ".join(f"blockDim.{f} <= {b}" for f, (b, _) in sorted(self.inferred.items())) + (
            " (the extents of the shared arrays the kernel indexes by threadIdx: " +
            "; ".join(dict.fromkeys(why for _, (_, why) in sorted(self.inferred.items()))) + ")")


def evaluate(text: str, env: dict) -> int | None:
    """The integer value of C constant text over ``env`` (macro name -> text or int); None when unknown."""
    v = try_evaluate(str(text), {k: (1 if v is None else v) for k, v in env.items()}, c=True)
    return int(v) if isinstance(v, (bool, int)) or (isinstance(v, float) and v.is_integer()) else None


def split_top(text: str, sep: str = ",") -> list[str]:
    """Split C text on ``sep`` outside brackets, template argument lists included."""
    return [str(p) for p in _split_top(Text(text), sep, angle=True)]


def instantiations(source: str) -> dict[str, list[str]]:
    return {m.group(1): split_top(m.group(2)) for m in _INST.finditer(source)}


def from_geometry(geometry, *, launch_bounds=None, macros=None) -> LaunchConfig:
    """The configuration of one of kopt's ``LaunchGeometry`` records (values it could not resolve stay unknown)."""
    cfg = LaunchConfig(source="annotation", kernel=geometry.kernel)
    cfg.block = tuple(geometry.block) if geometry.block else (None, None, None)  # None entries: unknown
    cfg.grid = tuple(geometry.grid) if geometry.grid else (None, None, None)
    cfg.smem = geometry.smem
    cfg.cluster = tuple(geometry.cluster) if geometry.cluster else None
    cfg.targs = split_kernel(geometry.kernel)[1]
    cfg.branch = getattr(geometry, "branch", "")
    unknown = [f"{k} {why}" if not why.startswith(f"{k} ") else why for k, why in geometry.origin.items()
               if why not in ("launch annotation", "not declared")]
    at = ", ".join(f"{k}={v}" for k, v in (getattr(geometry, "config", None) or {}).items())
    cfg.note = "; ".join(([f"at {at}"] if at else []) + unknown)
    _bound(cfg, launch_bounds, macros or {})
    return cfg


_LAUNCH = re.compile(r"\b([A-Za-z_]\w*)\s*(?:<[^<>;]*(?:<[^<>;]*>[^<>;]*)*>)?\s*<<<(.*?)>>>", re.S)
_DIM3 = re.compile(r"\bdim3\s+([A-Za-z_][^;]*);")
_DIM3_ONE = re.compile(r"\s*([A-Za-z_]\w*)\s*(?:\((.*)\)|=\s*dim3\s*\((.*)\)|\{(.*)\})\s*$", re.S)
_LOCAL_INCLUDE = re.compile(r'^[ \t]*#[ \t]*include[ \t]*"([^"]+)"', re.M)
_SCALAR = re.compile(r"\b(?:const\s+|constexpr\s+|static\s+)*(?:unsigned\s+int|unsigned|int|size_t|uint)\s+"
                     r"([A-Za-z_]\w*)\s*=\s*([^;,{}]+);")


def host_blocks(source: str, defines=None, folder=None) -> dict[str, list[tuple]]:
    """Kernel name -> the block shape of each ``kernel<<<grid, block>>>`` launch in the file's own host code whose
    block is a constant: an integer expression, or a ``dim3`` variable or integer variable the file declares
    once with constant values (macros of the file, of the headers it includes from ``folder`` with quotes, and
    ``-D`` values read). A kernel with any launch whose block is not constant is left out."""
    macros = {}
    for name in _LOCAL_INCLUDE.findall(source) if folder is not None else ():
        try:
            macros.update(source_macros((folder / name).read_text(errors="replace")))
        except OSError:
            pass
    env = {**macros, **source_macros(source), **{k: (1 if v is None else v) for k, v in (defines or {}).items()}}
    text = re.sub(r"//[^\n]*|/\*.*?\*/", " ", source, flags=re.S)
    dims: dict = {}
    for m in _DIM3.finditer(text):
        for decl in split_top(m.group(1)):
            one = _DIM3_ONE.match(decl)
            if one is None:
                continue
            vals = [evaluate(a, env) for a in split_top(one.group(2) or one.group(3) or one.group(4) or "")
                    if a.strip()]
            dims.setdefault(one.group(1), []).append(tuple(vals + [1] * (3 - len(vals))) if len(vals) <= 3 and
                                                     None not in vals else None)
    for m in _SCALAR.finditer(text):
        v = evaluate(m.group(2), env)
        dims.setdefault(m.group(1), []).append((v, 1, 1) if v is not None else None)
    known = {k: v[0] for k, v in dims.items() if len(set(v)) == 1 and v[0] is not None}
    out: dict = {}
    for m in _LAUNCH.finditer(text):
        parts = split_top(m.group(2))
        shape = None
        if len(parts) >= 2:
            b = parts[1].strip()
            inner = re.fullmatch(r"dim3\s*\((.*)\)", b, re.S)
            if inner:
                vals = [evaluate(a, env) for a in split_top(inner.group(1))]
                shape = tuple(vals + [1] * (3 - len(vals))) if len(vals) <= 3 and None not in vals else None
            elif b in known:
                shape = known[b]
            else:
                v = evaluate(b, {**env, **{k: s[0] for k, s in known.items() if s[1:] == (1, 1)}})
                shape = (v, 1, 1) if v is not None else None
        if shape is not None and not all(isinstance(x, int) and 0 < x <= MAX_THREADS for x in shape):
            shape = None
        out.setdefault(m.group(1), []).append(shape)
    return {k: list(dict.fromkeys(v)) for k, v in out.items() if None not in v}


def fallback(kernel_name: str, source: str, *, block=None, grid=None, defines=None, launch_bounds=None,
             targs=None, host_block=None) -> LaunchConfig:
    """For a kernel no launch annotation describes: ``--block``/``--grid``, else the block of the file's own
    ``<<<>>>`` launch (``host_block``, see ``host_blocks``), else ``__launch_bounds__``, else unknown."""
    env = {**source_macros(source), **{k: (1 if v is None else v) for k, v in (defines or {}).items()}}
    cfg = LaunchConfig(kernel=kernel_name)
    cfg.targs = list(targs if targs is not None else instantiations(source).get(kernel_name, []))
    if block is not None:
        cfg.block, cfg.source = tuple(block), "cli"
    elif host_block is not None:
        cfg.block, cfg.source = tuple(host_block), "host"
    if grid is not None:
        cfg.grid = tuple(grid)
    _bound(cfg, launch_bounds, env)
    return cfg


def _bound(cfg: LaunchConfig, launch_bounds, env: dict) -> None:
    if launch_bounds is not None:
        lb = launch_bounds if isinstance(launch_bounds, int) else evaluate(str(launch_bounds), env)
        if lb:
            cfg.max_threads = min(lb, MAX_THREADS)
            if cfg.source == "none":
                cfg.source = "launch_bounds"
    if cfg.known_block:
        cfg.max_threads = cfg.block[0] * cfg.block[1] * cfg.block[2]


_COMPARE = ("<", "<=", ">", ">=", "==")


def infer_block(km) -> dict:
    """For a kernel analyzed with no known block (``source`` none or launch_bounds): the bounds on its block that
    its own shared arrays imply, as {dim: (bound, why)}.

    Rule: a subscript of a shared array with a constant extent E whose index is ``threadIdx.f + c`` (in the
    symbolic interpreter's terms, so aliases such as ``int tx = threadIdx.x`` count; c a constant, or a linear term
    in the counters of loops with constant trip counts, taken at its largest) implies blockDim.f <= E - c: the
    author sized the array for the block they launch, so a larger block is not a configuration worth a finding.

    - It counts for a store (the array is filled at ``threadIdx.f + c``: the stores fit) and for a load at the
      thread's own index (c <= 0); a load past it (``s[t + 1]``, a neighbour) does not: an off-by-one lives there.
    - It does not count when the access's guard compares threadIdx.f (<, <=, >, >=, ==) with a value that does not
      depend on the block index (``if (tx < 16)``, ``if (tid >= n) return``): such code is written to tolerate
      larger blocks. A guard over a global index (``blockIdx.x * blockDim.x + threadIdx.x < n``) or over loaded data
      is no such check.
    - Of several such subscripts the smallest bound holds; a bound no stricter than the hardware limit (or
      ``__launch_bounds__``) is not kept.
    - ``__launch_bounds__(N)`` is the author's own word that blocks of N threads are launched: when no block of N
      threads fits within the bounds (over the dimensions the kernel uses), the declaration and the arrays disagree
      and nothing is inferred, so the out-of-bounds access is reported.
    """
    cfg = km.launch
    if cfg.source not in ("none", "launch_bounds") or any(v is not None for v in cfg.block):
        return {}
    best: dict = {}
    for a in km.accesses:
        if a.space != "shared" or a.base not in km.shared:
            continue
        for idx, extent in a.subs:
            f, lo, hi = _thread_plus_offset(idx, km.loop_trip)
            if f is None or not isinstance(extent, int) or (hi > 0 and not a.write) or _guards(a.cond, f"t{f}"):
                continue
            bound = extent - hi
            if 1 <= bound < min((MAX_THREADS, MAX_THREADS, 64)["xyz".index(f)], cfg.max_threads) and (
                    f not in best or bound < best[f][0]):
                off = "" if hi == 0 else f" + {hi}" if lo == hi else f" + up to {hi}"
                best[f] = (bound, f"`{a.base}[threadIdx.{f}{off}]` at line {a.loc.line}, extent {extent}")
    if cfg.source == "launch_bounds":  # the author declared blocks of max_threads threads: they must fit
        room = 1
        for f in km.dims_used or {"x"}:
            room *= best.get(f, (MAX_THREADS, ""))[0]
        if room < cfg.max_threads:
            return {}
    return best


def _thread_plus_offset(idx, trips: dict):
    """("x", lo, hi) for an index ``threadIdx.x + e`` (likewise y, z) where e is a constant or a linear term in the
    iteration counters of loops with a constant trip count (``tile[threadIdx.y + i]`` in ``for (i = 0; i < 32;
    i += 8)``), lo and hi its least and largest value; else (None, 0, 0)."""
    terms = _linear(idx)
    if terms is None:
        return None, 0, 0
    threads = [n for n in terms if n in ("tx", "ty", "tz")]
    if len(threads) != 1 or terms[threads[0]] != 1:
        return None, 0, 0
    lo = hi = terms.get(None, 0)
    for n, c in terms.items():
        if n in (None, threads[0]):
            continue
        trip = trips.get(n)
        trip = trip.val if isinstance(trip, sym.S) and sym.is_const(trip) else trip
        if not isinstance(trip, int) or trip < 1:
            return None, 0, 0
        lo, hi = lo + min(0, c * (trip - 1)), hi + max(0, c * (trip - 1))
    return threads[0][1], lo, hi


def _linear(e) -> dict | None:
    """{variable: coefficient, None: constant} of a sum of constant multiples of variables; None otherwise."""
    if e.op == "c":
        return {None: e.val} if isinstance(e.val, int) else None
    if e.op == "v":
        return {e.val: 1}
    if e.op in ("+", "-"):
        a, b = _linear(e.args[0]), _linear(e.args[1])
        if a is None or b is None:
            return None
        sign = 1 if e.op == "+" else -1
        return {n: a.get(n, 0) + sign * b.get(n, 0) for n in {*a, *b}}
    if e.op == "*":
        for x, y in (e.args, e.args[::-1]):
            if sym.is_const(x):
                t = _linear(y)
                return None if t is None else {n: x.val * c for n, c in t.items()}
    if e.op == "neg":
        t = _linear(e.args[0])
        return None if t is None else {n: -c for n, c in t.items()}
    return None


def _guards(cond, name: str) -> bool:
    """Whether ``cond`` compares the thread index variable ``name`` with something independent of the block
    index (loaded values, inside ``uf``, are not looked into)."""
    def names(e, out):
        if e.op == "v":
            out[e.val] = e.kind
        elif e.op != "uf":
            for x in e.args:
                names(x, out)
        return out

    def walk(e):
        if e.op == "uf":
            return False
        if e.op in _COMPARE:
            seen = names(e, {})
            if name in seen and "block" not in seen.values():
                return True
        return any(walk(x) for x in e.args)

    return walk(cond)
